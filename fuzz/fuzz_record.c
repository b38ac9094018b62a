/* Capture records: the input is a stream of records, each preceded by a
 * 2-byte little-endian length, decoded in order with one decoder state. */
#include "ualink/ualink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct ual_decoder d;
  static struct ual_rec_result r; /* large; keep it off the fuzzer's stack */
  ual_decoder_init(&d);
  uint64_t frame = 1;
  while (size >= 2) {
    size_t len = (size_t)data[0] | (size_t)data[1] << 8;
    data += 2;
    size -= 2;
    if (len > size) len = size;
    ual_decode_record(&d, data, len, frame++, &r);
    data += len;
    size -= len;
  }
  return 0;
}
