/* PCIe flits, record kind 5 (flit.h): UALink's FEC/CRC and flit-header code
 * at the PCIe positions, the flit-mode DLLP rows (pcie/fields.h). */
#include "ualink/pcie/flit.h"
#include "ualink/pcie/dllp.h"
#include "ualink/core/crc.h"
#include "core/kind.h"

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

static void flit_decode(struct ual_rec_result *r) { ual_pcie_flit_decode(r->rec.body, &r->flit, &r->findings); }

static void flit_tree(struct ual_tree_builder *w, const struct ual_rec_result *r) {
  const struct ual_flit_info *fi = &r->flit;
  const unsigned flit = UAL_REC_HDR_BYTES, dlp = flit + UAL_PCIE_FLIT_DLP_OFF, dl = flit + UAL_PCIE_FLIT_DLLP_OFF;
  ual_tb_group(w, 0, "PCIe flit", flit, UAL_FLIT_BYTES, "%s seq %u, %s", ual_flit_kind_name((enum ual_flit_kind)fi->kind),
               fi->fh.seq, fi->valid ? "valid" : "not valid");
  ual_tb_group(w, 1, "TLP bytes", flit, 236, "59 DW");
  ual_tb_group(w, 1, "DLP0-1", dlp, 2, "seq %u", fi->fh.seq);
  ual_tb_scope(w, 2, UAL_SC_FH, dlp);   /* the UALink flit header fields [P11] */
  ual_tb_field(w, 2, UAL_F_GEN_KIND, dlp, fi->kind);
  ual_tb_group(w, 1, "DLLP", dl, 4, "%s", ual_field_value_name(UAL_F_PCIE_FDLLP_TYPE, fi->dllp.type)
                                              ? ual_field_value_name(UAL_F_PCIE_FDLLP_TYPE, fi->dllp.type) : "reserved");
  ual_tb_fdllp(w, 2, fi->dllp.type, dl);
  ual_tb_flit_crc_fec(w, fi, flit);
}

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
}

const struct ual_kind ual_kind_pcie_flit = {
  "PCIe flit", "pcie_flit", flit_body_ok, flit_decode, NULL, flit_tree, flit_summary, NULL, NULL,
};
