/* The PCIe non-flit record kinds (kinds.h): kind 4, a non-flit DLLP, and
 * kind 7, a TLP or DLLP as framed on the wire, decoded, shown as a field
 * tree and summarised in one line. */
#include "ualink/pcie/dllp.h"
#include "ualink/pcie/nonflit.h"
#include "ualink/pcie/tlp.h"
#include "core/kind.h"
#include "core/field_access.h"

#include <inttypes.h>
#include <string.h>

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

/* The rows of bytes 1-3 by layout, with the FC values scaled. */
static void dllp_layout_rows(struct ual_tree_builder *w, unsigned depth, const struct ual_pcie_dllp *p, unsigned dl) {
  ual_tb_scope(w, depth, (enum ual_scope)ual_pcie_layout_scope(p->layout), dl);   /* reserved types: raw */
  if (p->layout == UAL_PCIE_L_FC) {
    ual_tb_field(w, depth, UAL_F_PCIE_GEN_CLASS, dl, p->fc_class);
    ual_tb_field(w, depth, UAL_F_PCIE_GEN_HDR_CREDITS, dl + 1, (uint64_t)p->hdr_fc * ual_pcie_scale_factor(p->hdr_scale));
    ual_tb_field(w, depth, UAL_F_PCIE_GEN_DATA_CREDITS, dl + 2,
                 (uint64_t)p->data_fc * ual_pcie_scale_factor(p->data_scale));
  }
}

static void dllp_tree(struct ual_tree_builder *w, const struct ual_rec_result *r) {
  const struct ual_pcie_dllp *p = &r->pcie;
  const unsigned body = UAL_REC_HDR_BYTES, dl = DL_;
  ual_tb_group(w, 0, "PCIe DLLP", body, UAL_PCIE_DLLP_BODY, "%s, CRC %s", ual_pcie_dllp_name_str(p->name),
               p->crc_ok ? "ok" : "bad");
  ual_tb_fixed(w, 1, &body_fixed);
  ual_tb_group(w, 1, "DLLP", dl, UAL_PCIE_DLLP_BYTES, "%02x %02x %02x %02x %02x %02x", p->bytes[0], p->bytes[1],
               p->bytes[2], p->bytes[3], p->bytes[4], p->bytes[5]);
  ual_tb_fixed(w, 2, &dllp_fixed);
  dllp_layout_rows(w, 2, p, dl);
  ual_tb_fixed(w, 2, &crc_fixed);
}

static void dllp_line(struct ual_text *o, const struct ual_pcie_dllp *p) {
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

static void dllp_summary(struct ual_text *o, const struct ual_rec_result *r) { dllp_line(o, &r->pcie); }

const struct ual_kind ual_kind_pcie_dllp = {
  "PCIe DLLP", "pcie_dllp", dllp_body_ok, dllp_decode, NULL, dllp_tree, dllp_summary, NULL, NULL, dllp_kind_fixed, UAL_SC_REC, NULL,
};

/* ---- kind 7 ---- */

static bool nf_body_ok(size_t len) { return len > UAL_PCIE_NF_HDR; }

static void nf_decode(struct ual_rec_result *r) {
  ual_pcie_nf_decode(r->rec.body, r->rec.body_len, &r->nf, &r->pcie, &r->findings);
}

#define NF_ UAL_REC_HDR_BYTES

/* The transaction-level fields of a non-flit TLP for the line both modes
 * print (ual_pcie_tlp_line). */
static void tlp_info(const struct ual_pcie_tlph *h, struct ual_pcie_tlp_info *i) {
  struct ual_pcie_nf_type t;
  ual_pcie_nf_type(h->byte0, &t);
  memset(i, 0, sizeof *i);
  i->name = t.name;
  i->type = h->byte0;
  i->prefixes = h->prefixes;
  i->complete = h->complete;
  i->len_dw = h->len_dw;
  switch (h->kind) {
  case UAL_NF_K_MEM: case UAL_NF_K_IO: case UAL_NF_K_ATOMIC: case UAL_NF_K_DMWR: case UAL_NF_K_CFG:
    i->hdr = h->kind == UAL_NF_K_CFG ? UAL_TLP_H_CFG : UAL_TLP_H_MEM;
    i->has_target = h->kind == UAL_NF_K_CFG;
    i->has_len = 1;
    i->has_addr = h->kind != UAL_NF_K_CFG;
    i->has_be = h->kind != UAL_NF_K_ATOMIC && h->kind != UAL_NF_K_DMWR;
    break;
  case UAL_NF_K_CPL: i->hdr = UAL_TLP_H_CPL; i->has_len = h->has_data; i->has_la = 1; break;
  case UAL_NF_K_MSG: i->hdr = UAL_TLP_H_MSG; i->has_len = h->has_data; break;
  default: break;
  }
  i->rid = h->rid;
  i->tag = h->tag;
  i->addr = h->addr;
  i->target = h->target;
  i->reg = h->reg;
  i->first_be = h->first_be;
  i->last_be = h->last_be;
  i->cid = h->cid;
  i->status = h->status;
  i->byte_count = (uint16_t)(h->byte_count ? h->byte_count : 4096u);
  i->lower_addr = h->lower_addr;
  i->code = h->code;
}

/* One line as a PCIe engineer writes a TLP (ual_pcie_tlp_line), then the
 * data link's view of it. */
static void tlp_line(struct ual_text *o, const struct ual_pcie_nf *nf) {
  const struct ual_pcie_tlph *h = &nf->h;
  if (nf->tlp_len < (unsigned)h->hdr_off + 4) {
    ual_text_put(o, "TLP");
  } else {
    struct ual_pcie_tlp_info i;
    char line[160];
    tlp_info(h, &i);
    ual_pcie_tlp_line(&i, line, sizeof line);
    ual_text_put(o, "%s", line);
  }
  if (nf->seq_off || nf->encoding == UAL_PCIE_NF_128B) ual_text_put(o, " seq %u", nf->seq);
  switch (nf->lcrc) {
  case UAL_PCIE_LCRC_BAD: ual_text_put(o, " LCRC:bad"); break;
  case UAL_PCIE_LCRC_NULLIFIED: ual_text_put(o, " nullified"); break;
  case UAL_PCIE_LCRC_NULLIFIED_BAD: ual_text_put(o, " nullified LCRC:bad"); break;
  default: break;
  }
  if (h->ecrc == UAL_PCIE_ECRC_BAD) ual_text_put(o, " ECRC:bad");
  if (nf->truncated) ual_text_put(o, " truncated");
  else if (!nf->framing_ok) ual_text_put(o, " framing:bad");
}

static void nf_summary(struct ual_text *o, const struct ual_rec_result *r) {
  const struct ual_pcie_nf *nf = &r->nf;
  if (nf->dllp_decoded) dllp_line(o, &r->pcie);
  else if (ual_pcie_nf_is_tlp(nf)) tlp_line(o, nf);
  else ual_text_put(o, "%s packet%s", ual_pcie_nf_is_dllp(nf) ? "DLLP" : "PCIe", nf->truncated ? " truncated" : " framing:bad");
}

/* The header rows of a TLP (bytes at tlp, record offset at). */
static void tlp_rows(struct ual_tree_builder *w, unsigned depth, const struct ual_pcie_nf *nf, unsigned at) {
  const struct ual_pcie_tlph *h = &nf->h;
  for (unsigned k = 0; k < h->prefixes && 4u * k + 4 <= nf->tlp_len; k++) ual_tb_scope(w, depth, UAL_SC_PCIE_NF_PREFIX, at + 4u * k);
  unsigned dw0 = at + h->hdr_off;
  if (nf->tlp_len < (unsigned)h->hdr_off + 4) return;
  ual_tb_scope(w, depth, UAL_SC_PCIE_NF_DW0, dw0);
  ual_tb_field(w, depth, UAL_F_PCIE_GEN_NF_FMT, dw0, h->fmt);
  ual_tb_field(w, depth, UAL_F_PCIE_GEN_NF_TYPE, dw0, h->type);
  switch (h->kind) {
  case UAL_NF_K_MEM: case UAL_NF_K_IO: case UAL_NF_K_ATOMIC: case UAL_NF_K_DMWR: case UAL_NF_K_CFG:
    ual_tb_scope(w, depth, UAL_SC_PCIE_NF_REQ, dw0);
    ual_tb_field(w, depth, UAL_F_PCIE_GEN_NF_TAG, dw0 + 6, h->tag);
    if (h->kind == UAL_NF_K_CFG) {
      ual_tb_scope(w, depth, UAL_SC_PCIE_NF_CFG, dw0);
      ual_tb_field(w, depth, UAL_F_PCIE_GEN_NF_REG, dw0 + 10, h->reg);
    } else {
      ual_tb_scope(w, depth, h->hdr_dw == 4 ? UAL_SC_PCIE_NF_A64 : UAL_SC_PCIE_NF_A32, dw0);
    }
    break;
  case UAL_NF_K_CPL:
    ual_tb_scope(w, depth, UAL_SC_PCIE_NF_CPL, dw0);
    ual_tb_field(w, depth, UAL_F_PCIE_GEN_NF_TAG, dw0 + 10, h->tag);
    break;
  case UAL_NF_K_MSG:
    ual_tb_scope(w, depth, UAL_SC_PCIE_NF_MSG, dw0);
    if (h->code == 0x7E || h->code == 0x7F) ual_tb_scope(w, depth, UAL_SC_PCIE_NF_VDM, dw0);
    break;
  default: break;
  }
  if (h->pay_len) {
    ual_tb_group(w, depth, "Data", at + h->pay_off, h->pay_len, "%u bytes", h->pay_len);
    ual_tb_field(w, depth, UAL_F_PCIE_GEN_NF_PAYLOAD, at + h->pay_off, h->pay_len);
    ual_tb_bytes(w, depth, UAL_F_PCIE_GEN_NF_DATA, at + h->pay_off, h->pay_len);
    if (h->kind == UAL_NF_K_CFG && h->pay_len >= 4) {   /* the register value, read little-endian */
      const uint8_t *v = w->rec + at + h->pay_off;
      ual_tb_field(w, depth, UAL_F_PCIE_GEN_NF_CFG_VALUE, at + h->pay_off,
                   (uint32_t)v[0] | (uint32_t)v[1] << 8 | (uint32_t)v[2] << 16 | (uint32_t)v[3] << 24);
    }
  }
  if (h->td) {
    if (h->ecrc != UAL_PCIE_ECRC_UNCHECKED) {
      ual_tb_scope(w, depth, UAL_SC_PCIE_NF_ECRC, at + h->size - 4u);
      ual_tb_field(w, depth, UAL_F_PCIE_GEN_NF_ECRC_CALC, at + h->size - 4u, h->ecrc_calc);
    }
    ual_tb_field(w, depth, UAL_F_PCIE_GEN_NF_ECRC_STATUS, dw0, h->ecrc);
  }
}

static void nf_tree(struct ual_tree_builder *w, const struct ual_rec_result *r) {
  const struct ual_pcie_nf *nf = &r->nf;
  const unsigned body = NF_, pk = body + UAL_PCIE_NF_HDR, end = (unsigned)(pk + nf->n - 1);
  char sum[160];
  struct ual_text t = { sum, sizeof sum, 0 };
  sum[0] = 0;
  nf_summary(&t, r);
  ual_tb_group(w, 0, ual_pcie_nf_is_dllp(nf) ? "PCIe DLLP" : "PCIe TLP", body, (unsigned)r->rec.body_len, "%s", sum);
  ual_tb_scope(w, 1, UAL_SC_PCIE_NF_BODY, body);
  bool e8 = nf->encoding == UAL_PCIE_NF_8B10B, e128 = nf->encoding == UAL_PCIE_NF_128B;
  if (e8) ual_tb_scope(w, 1, UAL_SC_PCIE_NF_START, pk);
  if (ual_pcie_nf_is_dllp(nf)) {
    if (e128) ual_tb_scope(w, 1, UAL_SC_PCIE_NF_SDPT, pk);
    if (nf->dllp_decoded) {
      const struct ual_pcie_dllp *p = &r->pcie;
      unsigned dl = pk + (e8 ? 1u : e128 ? 2u : 0u);
      ual_tb_group(w, 1, "DLLP", dl, UAL_PCIE_DLLP_BYTES, "%02x %02x %02x %02x %02x %02x", p->bytes[0], p->bytes[1],
                   p->bytes[2], p->bytes[3], p->bytes[4], p->bytes[5]);
      ual_tb_scope(w, 2, UAL_SC_PCIE_DLLP, dl);
      dllp_layout_rows(w, 2, p, dl);
      ual_tb_field(w, 2, UAL_F_PCIE_GEN_CRC_CALC, dl + 4, p->crc_calc);
      ual_tb_field(w, 2, UAL_F_PCIE_GEN_CRC_OK, dl + 4, p->crc_ok);
    }
  } else if (ual_pcie_nf_is_tlp(nf)) {
    if (e128 && nf->n >= 4) {
      ual_tb_group(w, 1, "STP token", pk, 4, "TLP Length %u, seq %u", nf->stp_len, nf->seq);
      ual_tb_scope(w, 2, UAL_SC_PCIE_NF_STP, pk);
      ual_tb_field(w, 2, UAL_F_PCIE_GEN_NF_STP_LEN, pk, nf->stp_len);
      ual_tb_field(w, 2, UAL_F_PCIE_GEN_NF_FCRC_CALC, pk + 2, nf->fcrc_calc);
      ual_tb_field(w, 2, UAL_F_PCIE_GEN_NF_PARITY_CALC, pk + 1, nf->parity_calc);
    } else if (nf->seq_off) {
      ual_tb_scope(w, 1, UAL_SC_PCIE_NF_SEQ, body + nf->seq_off);
    }
    if (nf->tlp_off && nf->tlp_len) {
      unsigned at = body + nf->tlp_off;
      ual_tb_group(w, 1, "TLP", at, nf->tlp_len, "%u bytes", nf->tlp_len);
      tlp_rows(w, 2, nf, at);
    }
    if (nf->lcrc_off) {
      ual_tb_scope(w, 1, UAL_SC_PCIE_NF_LCRC, body + nf->lcrc_off);
      ual_tb_field(w, 1, UAL_F_PCIE_GEN_NF_LCRC_CALC, body + nf->lcrc_off, nf->lcrc_calc);
    }
    ual_tb_field(w, 1, UAL_F_PCIE_GEN_NF_LCRC_STATUS, pk, nf->lcrc);
    ual_tb_field(w, 1, UAL_F_PCIE_GEN_NF_ACCEPTED, pk, nf->accepted);
    if (e128 && nf->nullified && !nf->truncated) ual_tb_scope(w, 1, UAL_SC_PCIE_NF_EDBT, end - 3);
  }
  if (e8 && !nf->truncated && nf->n >= 2) ual_tb_scope(w, 1, UAL_SC_PCIE_NF_END, end);
}

const struct ual_kind ual_kind_pcie_nf = {
  "PCIe packet", "pcie_nf", nf_body_ok, nf_decode, NULL, nf_tree, nf_summary, NULL, NULL, NULL, UAL_SC_REC,
  ual_pcie_nf_body_ok,
};
