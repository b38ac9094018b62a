/* PCIe non-flit packet records (kind 7) through the analyzer: the input is a
 * run of chunks, a control byte (bit 0 direction, bit 1 records lost, bit 2
 * a link event instead, bits 5:3 side B's PCIe role, bit 6 rate 8.0 GT/s
 * instead of 2.5), a length byte n and an n-byte body. Every body also goes
 * through the decoder, the per-TLP rules, the field tree and the summary;
 * an accepted TLP or a decoded DLLP is framed again from its parts and must
 * give the same packet bytes (encode(decode(b)) == b). */
#include "ualink/ualink.h"
#include "ualink/ualink/analysis.h"

#include <stdlib.h>
#include <string.h>

static void row(void *ctx, const struct ual_tree_row *r) { (void)ctx; (void)r; }

static void round_trip(const uint8_t *body, size_t n) {
  static struct ual_pcie_nf nf;
  static struct ual_pcie_dllp d;
  static uint8_t again[4 + 512];
  struct ual_findings f;
  ual_findings_clear(&f);
  if (!ual_pcie_nf_decode(body, n, &nf, &d, &f)) return;
  struct ual_pcie_nf_rules_cfg c = { (uint8_t)(n & 1), (int8_t)((int)(n % 3) - 1) };
  ual_pcie_nf_tlp_rules(&nf, body, &c, &f);
  size_t k = 0;
  if (nf.accepted && !nf.seq_rsvd)
    k = ual_pcie_nf_build_tlp(nf.encoding, nf.seq, body + nf.tlp_off, nf.tlp_len, false, 0, again, sizeof again);
  else if (nf.dllp_decoded && !nf.truncated && nf.framing_ok)
    k = ual_pcie_nf_build_dllp(nf.encoding, d.bytes, again, sizeof again);
  else
    return;
  if (k != n || memcmp(again + UAL_PCIE_NF_HDR, body + UAL_PCIE_NF_HDR, n - UAL_PCIE_NF_HDR) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static struct ual_analyzer a;
  static struct ual_rec_result r;
  struct ual_events ev;
  ual_analyzer_init(&a);
  ual_events_init(&ev);
  uint64_t frame = 0;
  for (size_t off = 0; off + 2 <= size;) {
    uint8_t ctl = data[off];
    size_t n = data[off + 1];
    off += 2;
    if (n > size - off) n = size - off;
    const uint8_t *body = data + off;
    off += n;
    struct ual_rec_hdr h;
    ual_rec_hdr_init(&h, ctl & 4 ? UAL_REC_EVENT : UAL_REC_PCIE_NF, ctl & 1);
    if (ctl & 2) h.flags |= UAL_RF_LOST;
    h.roles_pcie = 1;
    h.role_a = 1;
    h.role_b = (uint8_t)(ctl >> 3 & 7);
    h.rate = ctl & 0x40 ? 9 : 1;
    h.width = 1;
    uint8_t rec[UAL_REC_HDR_BYTES + 256];
    size_t len = ual_record_build(&h, body, ctl & 4 ? (n < 8 ? n : 8) : n, rec, sizeof rec);
    ual_events_clear(&ev);
    frame++;
    ual_analyzer_step(&a, rec, len, frame, frame * 32, &r, &ev);
    char s[256];
    ual_rec_summary(&r, s, sizeof s);
    ual_tree_walk(&r, rec, len, row, NULL);
    if (!(ctl & 4)) round_trip(body, n);
  }
  struct ual_findings end;
  ual_findings_clear(&end);
  ual_analyzer_finish(&a, &end, &ev);
  return 0;
}
