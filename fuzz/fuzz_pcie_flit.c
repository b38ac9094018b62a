/* PCIe flits (record kind 5) and the flit-mode TLP walker: the input is a
 * run of 237-byte chunks, a control byte (bit 0 direction, bit 1 forget
 * the alignment first, bit 2 corrupt byte 3 after sealing, bits 7:3 the
 * DLLP type's high bits) and the 236 TLP bytes. Each chunk is sealed into
 * a flit, decoded, shown as a tree and summary, and its TLP bytes walked;
 * every TLP the walker reports must be sized consistently. The records
 * also go through the analyzer (a Root Port and an Endpoint, the link
 * trained from Detect), whose results hold the walked TLPs, and their
 * trees and summaries. */
#include "ualink/ualink.h"
#include "ualink/pcie/flit.h"
#include "ualink/pcie/tlp.h"
#include "ualink/ualink/analysis.h"

#include <stdlib.h>
#include <string.h>

static void row(void *ctx, const struct ual_tree_row *r) { (void)ctx; (void)r; }

static void on_tlp(void *ctx, const struct ual_pcie_tlp *t) {
  (void)ctx;
  if (t->size.total_dw < 1 || t->hdr_dw > UAL_PCIE_TLP_MAX_HDR_DW || t->start_dw >= UAL_PCIE_FLIT_TLP_DW ||
      t->end_dw < 1 || t->end_dw > UAL_PCIE_FLIT_TLP_DW || t->prefix_held > UAL_PCIE_TLP_MAX_PREFIX_HELD ||
      t->prefix_held > t->prefix_dw || t->hdr_dw <= t->prefix_held)
    abort();
  struct ual_pcie_tlp_size s;
  ual_pcie_tlp_size(ual_pcie_tlp_dw0(t), &s);
  if (s.total_dw != t->size.total_dw || t->size.base_dw != ual_pcie_tlp_type(ual_pcie_tlp_dw0(t)[0])->base_dw)
    abort();
}

static void analyze(struct ual_analyzer *a, const uint8_t *rec, size_t len, uint64_t frame, struct ual_events *ev) {
  static struct ual_rec_result r;
  char s[256];
  ual_events_clear(ev);
  ual_analyzer_step(a, rec, len, frame, frame * 2, &r, ev);
  ual_rec_summary(&r, s, sizeof s);
  ual_tree_walk(&r, rec, len, row, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static struct ual_rec_result r;
  static struct ual_analyzer a;
  struct ual_events ev;
  ual_analyzer_init(&a);
  ual_events_init(&ev);
  struct ual_pcie_walk w[2];
  ual_pcie_walk_init(&w[0]);
  ual_pcie_walk_init(&w[1]);
  uint64_t frame = 0;
  {   /* link-up from Detect: both TLP streams start aligned */
    struct ual_rec_hdr h;
    ual_rec_hdr_init(&h, UAL_REC_EVENT, 0);
    h.roles_pcie = 1;
    h.role_a = 1;   /* Root Port */
    h.role_b = 4;   /* Endpoint */
    struct ual_event e = { UAL_EV_RX_DETECT, 0, 0 };
    uint8_t body[UAL_REC_EVENT_BYTES], rec[UAL_REC_HDR_BYTES + UAL_REC_EVENT_BYTES];
    ual_event_build(&e, body);
    size_t len = ual_record_build(&h, body, sizeof body, rec, sizeof rec);
    analyze(&a, rec, len, ++frame, &ev);
  }
  for (size_t off = 0; off + 1 + UAL_PCIE_FLIT_TLP_BYTES <= size; off += 1 + UAL_PCIE_FLIT_TLP_BYTES) {
    uint8_t ctl = data[off];
    unsigned dir = ctl & 1;
    uint8_t flit[UAL_FLIT_BYTES] = { 0 };
    memcpy(flit, data + off + 1, UAL_PCIE_FLIT_TLP_BYTES);
    struct ual_fh fh = { UAL_USAGE_PAYLOAD, 0, UAL_RC_SEQ, (uint16_t)(frame & 0x3FF) };
    struct ual_dllp d;
    memset(&d, 0, sizeof d);
    d.type = (uint8_t)(ctl & 0xF8);
    d.b[0] = d.type;
    ual_pcie_flit_seal(flit, &fh, &d);
    if (ctl & 4) flit[3] ^= 0xA5;
    struct ual_rec_hdr h;
    ual_rec_hdr_init(&h, UAL_REC_PCIE_FLIT, dir);
    h.roles_pcie = 1;
    h.role_a = 1;
    h.role_b = 4;
    uint8_t rec[UAL_REC_HDR_BYTES + UAL_FLIT_BYTES];
    size_t len = ual_record_build(&h, flit, UAL_FLIT_BYTES, rec, sizeof rec);
    ual_decode_stateless(rec, len, ++frame, &r);
    char s[256];
    ual_rec_summary(&r, s, sizeof s);
    ual_tree_walk(&r, rec, len, row, NULL);
    if (ctl & 2) ual_pcie_walk_lose(&w[dir]);
    if (r.flit.valid) ual_pcie_walk_flit(&w[dir], r.flit.bytes, on_tlp, NULL, NULL);
    analyze(&a, rec, len, frame, &ev);
  }
  struct ual_findings end;
  ual_findings_clear(&end);
  ual_analyzer_finish(&a, &end, &ev);
  return 0;
}
