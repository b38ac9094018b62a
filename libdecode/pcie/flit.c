/* PCIe flits, record kind 5 (flit.h): UALink's FEC/CRC and flit-header code
 * at the PCIe positions, the flit-mode DLLP rows (pcie/fields.h). */
#include "ualink/pcie/flit.h"
#include "ualink/pcie/dllp.h"
#include "ualink/core/crc.h"
#include "core/kind.h"

#include <inttypes.h>
#include <string.h>

void ual_pcie_flit_decode(const uint8_t *raw, struct ual_flit_info *fi, struct ual_findings *f) {
  ual_flit_fec_crc(raw, fi);
  ual_fh_decode(fi->bytes + UAL_PCIE_FLIT_DLP_OFF, &fi->fh);   /* [P11] */
  fi->kind = (uint8_t)ual_flit_kind_of(&fi->fh);
  memset(fi->sh, 0, sizeof fi->sh);
  ual_dllp_decode(fi->bytes + UAL_PCIE_FLIT_DLLP_OFF, &fi->dllp);   /* every flit [P12] */
  ual_flit_fec_crc_findings(fi, f);
}

void ual_pcie_flit_seal(uint8_t flit[256], const struct ual_fh *fh, const struct ual_dllp *d) {
  ual_fh_encode(fh, flit + UAL_PCIE_FLIT_DLP_OFF);
  ual_dllp_encode(d, flit + UAL_PCIE_FLIT_DLLP_OFF);
  ual_flit_seal(flit);
}

/* ---- the record kind ---- */

static bool flit_body_ok(size_t len) { return len == UAL_FLIT_BYTES; }

static void flit_decode(struct ual_rec_result *r) {
  ual_pcie_flit_decode(r->rec.body, &r->flit, &r->findings);
  ual_pcie_tlps_clear(&r->tlps);   /* the analysis step walks them */
}

/* The rows of one TLP the walk completed in this flit: DW0, the header
 * base of its Type, its OHC words, where it started and its transaction
 * link. Read from the walker's copy of the header, so that a header begun
 * in an earlier flit shows too (those rows are marked copied). */
static void tlp_tree(struct ual_tree_builder *w, unsigned depth, const struct ual_pcie_tlp_rec *x, uint64_t frame) {
  const struct ual_pcie_tlp *t = &x->t;
  const unsigned flit = UAL_REC_HDR_BYTES, held = 4u * t->hdr_dw;
  int where[UAL_PCIE_TLP_MAX_HDR_DW * 4];
  for (unsigned i = 0; i < held; i++) where[i] = ual_pcie_tlp_byte_at(t, i, flit);
  unsigned total = 4u * (t->prefix_dw + t->size.total_dw);
  int first = ual_pcie_tlp_byte_at(t, 0, flit);
  unsigned at = first >= 0 ? (unsigned)first : flit, len = first >= 0 ? total : 4u * t->end_dw;
  char sum[128];
  ual_pcie_tlp_summary(t, sum, sizeof sum);
  ual_tb_group(w, depth, "TLP", at, len, "%s%s", sum, first >= 0 ? "" : " (continued)");
  for (unsigned p = 0; p < t->prefix_held; p++)
    ual_tb_field_copy(w, depth + 1, UAL_F_PCIE_TLP_TYPE, t->hdr + 4u * p, 4, where + 4u * p, at);
  const uint8_t *dw0 = ual_pcie_tlp_dw0(t);
  const int *w0 = where + (dw0 - t->hdr);
  unsigned avail = ual_pcie_tlp_dw0_bytes(t);
  const struct ual_pcie_tlp_type *ty = ual_pcie_tlp_type(dw0[0]);
  ual_tb_scope_copy(w, depth + 1, UAL_SC_PCIE_TLP, dw0, avail, w0, at);
  switch (ty->hdr) {
  case UAL_TLP_H_MEM:
    ual_tb_scope_copy(w, depth + 1, UAL_SC_PCIE_TLP_REQ, dw0, avail, w0, at);
    ual_tb_scope_copy(w, depth + 1, ty->route == UAL_TLP_RT_A64 ? UAL_SC_PCIE_TLP_A64 : UAL_SC_PCIE_TLP_A32, dw0, avail,
                      w0, at);
    break;
  case UAL_TLP_H_CFG:
    ual_tb_scope_copy(w, depth + 1, UAL_SC_PCIE_TLP_REQ, dw0, avail, w0, at);
    ual_tb_scope_copy(w, depth + 1, UAL_SC_PCIE_TLP_CFG, dw0, avail, w0, at);
    break;
  case UAL_TLP_H_MSG: ual_tb_scope_copy(w, depth + 1, UAL_SC_PCIE_TLP_MSG, dw0, avail, w0, at); break;
  case UAL_TLP_H_CPL: ual_tb_scope_copy(w, depth + 1, UAL_SC_PCIE_TLP_CPL, dw0, avail, w0, at); break;
  default: break;
  }
  /* OHC words after the header base, in A, B, C, E order */
  unsigned ohc = (unsigned)ual_field_get(UAL_F_PCIE_TLP_OHC, dw0), o = 4u * t->size.base_dw;
  int a = ual_pcie_ohc_a_scope(dw0[0]);
  static const char *const names[3] = { "OHC-A", "OHC-B", "OHC-C" };
  const int scopes[3] = { a, UAL_SC_PCIE_OHC_B, UAL_SC_PCIE_OHC_C };
  for (unsigned k = 0; k < 3; k++) {
    if (!(ohc >> k & 1)) continue;
    if (o + 4 <= avail) {
      int wo = w0[o];
      ual_tb_group(w, depth + 1, names[k], wo >= 0 ? (unsigned)wo : at, wo >= 0 ? 4 : 0, "%02x %02x %02x %02x",
                   dw0[o], dw0[o + 1], dw0[o + 2], dw0[o + 3]);
      if (scopes[k] >= 0) ual_tb_scope_copy(w, depth + 2, (enum ual_scope)scopes[k], dw0 + o, 4, w0 + o, at);
    }
    o += 4;
  }
  unsigned poff, plen, pfrom;
  if (ual_pcie_tlp_payload_at(t, flit, &poff, &plen, &pfrom)) {
    ual_tb_bytes(w, depth + 1, UAL_F_PCIE_GEN_TLP_DATA, poff, plen);
    if (pfrom) ual_tb_field(w, depth + 1, UAL_F_PCIE_GEN_TLP_DATA_OFF, poff, pfrom);
    /* a configuration write: the register value, its payload read little-endian */
    if (ty->hdr == UAL_TLP_H_CFG && ty->data && !pfrom && plen >= 4 && poff + 4 <= w->len)
      ual_tb_field(w, depth + 1, UAL_F_PCIE_GEN_CFG_VALUE, poff,
                   (uint32_t)w->rec[poff] | (uint32_t)w->rec[poff + 1] << 8 | (uint32_t)w->rec[poff + 2] << 16 |
                       (uint32_t)w->rec[poff + 3] << 24);
  }
  if (x->start_frame && x->start_frame != frame) ual_tb_field(w, depth + 1, UAL_F_PCIE_GEN_TLP_START, at, x->start_frame);
  if (x->link != UAL_PCIE_LK_NONE) ual_tb_field(w, depth + 1, UAL_F_PCIE_GEN_TLP_LINK, at, x->link);
  if (x->link == UAL_PCIE_LK_REQ && x->peer_frame) ual_tb_field(w, depth + 1, UAL_F_PCIE_GEN_RESP_IN, at, x->peer_frame);
  if (x->link == UAL_PCIE_LK_CPL || x->link == UAL_PCIE_LK_CPL_PART) {
    ual_tb_field(w, depth + 1, UAL_F_PCIE_GEN_RESP_TO, at, x->peer_frame);
    ual_tb_field(w, depth + 1, UAL_F_PCIE_GEN_LATENCY, at, x->latency_ns);
  }
}

/* Whether a quiet walk wants any TLP row. */
static bool wants_tlps(const struct ual_tree_builder *w) {
  if (!w->scopes || w->scopes[UAL_SC_PCIE_GEN]) return true;
  for (int sc = UAL_SC_PCIE_TLP; sc <= UAL_SC_PCIE_OHC_C; sc++)
    if (w->scopes[sc]) return true;
  return false;
}

#define DLP_ (UAL_REC_HDR_BYTES + UAL_PCIE_FLIT_DLP_OFF)

/* the UALink flit header fields [P11] */
static const struct ual_fixed_row dlp_rows[] = {
  UAL_FIXED_SCOPE(UAL_SC_FH, DLP_),
  UAL_FIXED_GEN(UAL_F_GEN_USAGE, DLP_, ual_flit_gen_usage),
  UAL_FIXED_GEN(UAL_F_GEN_KIND, DLP_, ual_flit_gen_kind),
};
static const struct ual_fixed_rows dlp_fixed = UAL_FIXED_ROWS(dlp_rows);

static void flit_tree(struct ual_tree_builder *w, const struct ual_rec_result *r) {
  const struct ual_flit_info *fi = &r->flit;
  const unsigned flit = UAL_REC_HDR_BYTES, dlp = flit + UAL_PCIE_FLIT_DLP_OFF, dl = flit + UAL_PCIE_FLIT_DLLP_OFF;
  ual_tb_group(w, 0, "PCIe flit", flit, UAL_FLIT_BYTES, "%s seq %u, %s", ual_flit_kind_name((enum ual_flit_kind)fi->kind),
               fi->fh.seq, fi->valid ? "valid" : "not valid");
  const struct ual_pcie_tlps *tl = &r->tlps;
  ual_tb_group(w, 1, "TLP bytes", flit, 236, "59 DW: %u TLP%s completed, %u NOP%s%s", tl->n + tl->dropped,
               tl->n + tl->dropped == 1 ? "" : "s", tl->nops, tl->nops == 1 ? "" : "s",
               fi->valid && fi->kind == UAL_FK_PAYLOAD ? "" : " (not a payload flit)");
  if (wants_tlps(w))
    for (unsigned i = 0; i < tl->n; i++) tlp_tree(w, 2, &tl->v[i], r->frame);
  ual_tb_group(w, 1, "DLP0-1", dlp, 2, "seq %u", fi->fh.seq);
  ual_tb_fixed(w, 2, &dlp_fixed);
  ual_tb_group(w, 1, "DLLP", dl, 4, "%s", ual_field_value_name(UAL_F_PCIE_FDLLP_TYPE, fi->dllp.type)
                                              ? ual_field_value_name(UAL_F_PCIE_FDLLP_TYPE, fi->dllp.type) : "reserved");
  ual_tb_fdllp(w, 2, fi->dllp.type, dl);
  ual_tb_flit_crc_fec(w, r);
}

static const struct ual_fixed_rows *const flit_fixed[] = { &dlp_fixed, &ual_fixed_flit_crc_fec, NULL };

void ual_tb_fdllp(struct ual_tree_builder *w, unsigned depth, unsigned type, unsigned off) {
  ual_tb_scope(w, depth, UAL_SC_PCIE_FDLLP, off);
  ual_tb_scope(w, depth, (enum ual_scope)ual_pcie_layout_scope(ual_pcie_fdllp_layout(type)), off);
}

static void flit_summary(struct ual_text *o, const struct ual_rec_result *r) {
  const struct ual_flit_info *fi = &r->flit;
  const char *dllp = ual_field_value_name(UAL_F_PCIE_FDLLP_TYPE, fi->dllp.type);
  ual_text_put(o, "PCIe %s %s %u | %s", ual_flit_kind_name((enum ual_flit_kind)fi->kind),
               ual_replay_cmd_name(fi->fh.replay_cmd), fi->fh.seq, dllp ? dllp : "DLLP?");
  if (fi->fec.status != UAL_FEC_CLEAN) ual_text_put(o, " FEC:%s", ual_fec_status_name(fi->fec.status));
  if (!fi->crc_ok) ual_text_put(o, " CRC:%s", fi->crc_inverted ? "inverted" : "bad");
  const struct ual_pcie_tlps *tl = &r->tlps;
  if (!tl->n && !tl->dropped) return;
  ual_text_put(o, " |");
  for (unsigned i = 0; i < tl->n; i++) {
    const struct ual_pcie_tlp_rec *x = &tl->v[i];
    const uint8_t *dw0 = ual_pcie_tlp_dw0(&x->t);
    const char *n = ual_pcie_tlp_type(dw0[0])->name;
    if (n) ual_text_put(o, " %s", n);
    else ual_text_put(o, " Type %02xh", dw0[0]);
    if (x->link == UAL_PCIE_LK_CPL || x->link == UAL_PCIE_LK_CPL_PART) ual_text_put(o, "(#%" PRIu64 ")", x->peer_frame);
  }
  if (tl->dropped) ual_text_put(o, " +%u", tl->dropped);
}

const struct ual_kind ual_kind_pcie_flit = {
  "PCIe flit", "pcie_flit", flit_body_ok, flit_decode, NULL, flit_tree, flit_summary, NULL, NULL, flit_fixed, UAL_SC_REC, NULL,
};
