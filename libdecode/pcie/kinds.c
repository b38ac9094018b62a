/* The PCIe record kind (kinds.h): kind 4, a non-flit DLLP, decoded, shown
 * as a field tree and summarised in one line. */
#include "ualink/pcie/dllp.h"
#include "core/kind.h"

static bool dllp_body_ok(size_t len) { return len == UAL_PCIE_DLLP_BODY; }

static void dllp_decode(struct ual_rec_result *r) { ual_pcie_dllp_decode(r->rec.body, &r->pcie, &r->findings); }

#define DL_ (UAL_REC_HDR_BYTES + UAL_PCIE_DLLP_OFF)

static uint64_t gen_crc_calc(const struct ual_rec_result *r) { return r->pcie.crc_calc; }
static uint64_t gen_crc_ok(const struct ual_rec_result *r) { return r->pcie.crc_ok; }

static const struct ual_fixed_row body_rows[] = { UAL_FIXED_SCOPE(UAL_SC_PCIE_BODY, UAL_REC_HDR_BYTES) };
static const struct ual_fixed_row dllp_rows[] = { UAL_FIXED_SCOPE(UAL_SC_PCIE_DLLP, DL_) };
static const struct ual_fixed_row crc_rows[] = {
  UAL_FIXED_GEN(UAL_F_PCIE_GEN_CRC_CALC, DL_ + 4, gen_crc_calc),
  UAL_FIXED_GEN(UAL_F_PCIE_GEN_CRC_OK, DL_ + 4, gen_crc_ok),
};
static const struct ual_fixed_rows body_fixed = UAL_FIXED_ROWS(body_rows), dllp_fixed = UAL_FIXED_ROWS(dllp_rows),
                                   crc_fixed = UAL_FIXED_ROWS(crc_rows);
static const struct ual_fixed_rows *const dllp_kind_fixed[] = { &body_fixed, &dllp_fixed, &crc_fixed, NULL };

static void dllp_tree(struct ual_tree_builder *w, const struct ual_rec_result *r) {
  const struct ual_pcie_dllp *p = &r->pcie;
  const unsigned body = UAL_REC_HDR_BYTES, dl = DL_;
  ual_tb_group(w, 0, "PCIe DLLP", body, UAL_PCIE_DLLP_BODY, "%s, CRC %s", ual_pcie_dllp_name_str(p->name),
               p->crc_ok ? "ok" : "bad");
  ual_tb_fixed(w, 1, &body_fixed);
  ual_tb_group(w, 1, "DLLP", dl, UAL_PCIE_DLLP_BYTES, "%02x %02x %02x %02x %02x %02x", p->bytes[0], p->bytes[1],
               p->bytes[2], p->bytes[3], p->bytes[4], p->bytes[5]);
  ual_tb_fixed(w, 2, &dllp_fixed);
  ual_tb_scope(w, 2, (enum ual_scope)ual_pcie_layout_scope(p->layout), dl);   /* reserved types: raw */
  if (p->layout == UAL_PCIE_L_FC) {
    ual_tb_field(w, 2, UAL_F_PCIE_GEN_CLASS, dl, p->fc_class);
    ual_tb_field(w, 2, UAL_F_PCIE_GEN_HDR_CREDITS, dl + 1, (uint64_t)p->hdr_fc * ual_pcie_scale_factor(p->hdr_scale));
    ual_tb_field(w, 2, UAL_F_PCIE_GEN_DATA_CREDITS, dl + 2,
                 (uint64_t)p->data_fc * ual_pcie_scale_factor(p->data_scale));
  }
  ual_tb_fixed(w, 2, &crc_fixed);
}

static void dllp_summary(struct ual_text *o, const struct ual_rec_result *r) {
  const struct ual_pcie_dllp *p = &r->pcie;
  if (p->name == UAL_PCIE_DT_RESERVED) ual_text_put(o, "DLLP %02xh?", p->type);
  else ual_text_put(o, "%s", ual_pcie_dllp_name_str(p->name));
  switch (p->layout) {
  case UAL_PCIE_L_ACK: ual_text_put(o, " seq %u", p->seq); break;
  case UAL_PCIE_L_FC:
    ual_text_put(o, " VC%u hdr %u data %u", p->vc, p->hdr_fc, p->data_fc);
    if (p->hdr_scale || p->data_scale) ual_text_put(o, " scale %u/%u", p->hdr_scale, p->data_scale);
    break;
  case UAL_PCIE_L_RAW: if (p->raw) ual_text_put(o, " %06xh", p->raw); break;
  default: break;
  }
  if (p->framing == UAL_PCIE_FR_EDB) ual_text_put(o, " EDB");
  if (!p->crc_ok) ual_text_put(o, " CRC:bad");
}

const struct ual_kind ual_kind_pcie_dllp = {
  "PCIe DLLP", "pcie_dllp", dllp_body_ok, dllp_decode, NULL, dllp_tree, dllp_summary, NULL, NULL, dllp_kind_fixed, UAL_SC_REC,
};
