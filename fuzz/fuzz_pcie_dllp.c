/* PCIe non-flit DLLP records (kind 4) through the analyzer: the input is a
 * run of 9-byte chunks, a control byte (bit 0 direction, bit 1 records
 * lost, bit 2 a link event instead, bits 5:3 side B's PCIe role) and an
 * 8-byte body. Every body also goes through decode, the field tree, the
 * summary and, when it decodes clean, encode(decode(b)) == b. */
#include "ualink/ualink.h"
#include "ualink/ualink/analysis.h"

#include <stdlib.h>
#include <string.h>

static void row(void *ctx, const struct ual_tree_row *r) { (void)ctx; (void)r; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static struct ual_analyzer a;
  static struct ual_rec_result r;
  struct ual_events ev;
  ual_analyzer_init(&a);
  ual_events_init(&ev);
  uint64_t frame = 0;
  for (size_t off = 0; off + 9 <= size; off += 9) {
    uint8_t ctl = data[off];
    const uint8_t *body = data + off + 1;
    struct ual_rec_hdr h;
    ual_rec_hdr_init(&h, ctl & 4 ? UAL_REC_EVENT : UAL_REC_PCIE_DLLP, ctl & 1);
    if (ctl & 2) h.flags |= UAL_RF_LOST;
    h.roles_pcie = 1;
    h.role_a = 1;
    h.role_b = (uint8_t)(ctl >> 3 & 7);
    uint8_t rec[UAL_REC_HDR_BYTES + 8];
    size_t len = ual_record_build(&h, body, 8, rec, sizeof rec);
    ual_events_clear(&ev);
    frame++;
    ual_analyzer_step(&a, rec, len, frame, frame * 32, &r, &ev);
    char s[256];
    ual_rec_summary(&r, s, sizeof s);
    ual_tree_walk(&r, rec, len, row, NULL);
    if (h.kind != UAL_REC_PCIE_DLLP) continue;
    struct ual_pcie_dllp d;
    struct ual_findings f;
    ual_findings_clear(&f);
    ual_pcie_dllp_decode(body, &d, &f);
    if (f.n == 0 && body[1] == 0 && (d.framing <= UAL_PCIE_FR_SDP128 || d.framing == UAL_PCIE_FR_UNKNOWN) &&
        d.layout != UAL_PCIE_L_PM) {
      uint8_t again[8];
      ual_pcie_dllp_encode(&d, again);
      if (memcmp(again, body, 8) != 0) abort();
    }
  }
  struct ual_findings end;
  ual_findings_clear(&end);
  ual_analyzer_finish(&a, &end, &ev);
  return 0;
}
