/* The stateful analysis fed arbitrary record sequences (same framing as
 * fuzz_record: 2-byte little-endian length before each record). Time moves
 * by a fuzzer-chosen step so that the timeouts are reached too. */
#include "ualink/ualink.h"
#include "ualink/ualink/analysis.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static struct ual_analyzer a;
  static struct ual_rec_result r;
  struct ual_findings f;
  ual_analyzer_init(&a);
  uint64_t frame = 1, ts = 1000000000ull;
  while (size >= 2) {
    size_t len = (size_t)data[0] | (size_t)data[1] << 8;
    ts += (uint64_t)(data[0] & 0x0F) << (data[1] & 0x1F);
    data += 2;
    size -= 2;
    if (len > size) len = size;
    ual_analyzer_step(&a, data, len, frame++, ts, &r, NULL);
    data += len;
    size -= len;
  }
  ual_findings_clear(&f);
  ual_analyzer_finish(&a, &f, NULL);
  char buf[256];
  ual_analyzer_state_text(&a, buf, sizeof buf);
  struct ual_analysis_summary s;
  ual_analyzer_summary(&a, &s);
  return 0;
}
