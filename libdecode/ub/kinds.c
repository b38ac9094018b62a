/* The UB record kind (kinds.h): one 20-byte flit per record. The stateless
 * decode knows only the record; the per-capture step (the direction's
 * receiver, flit.h) finds where the flit sits, checks BCRC and completes
 * DLLDPs and DLLCBs; the field tree and the summary show what it found. */
#include "ualink/ub/flit.h"
#include "ualink/ub/record.h"
#include "core/kind.h"

#include <string.h>

static bool ub_body_ok(size_t len) { return len == UAL_UB_FLIT_BYTES; }

static void ub_bad_len(struct ual_rec_result *r) {
  ual_findings_add(&r->findings, UAL_R_UB_FLIT_SIZE, -1, "UB flit record body of %zu bytes, not %u", r->rec.body_len,
                   UAL_UB_FLIT_BYTES);
}

/* Header bits kind 6 gives a meaning to (U2, U5, U6, U22): flags bit 3,
 * roles bits 5:4, byte 7 bits 2:0. */
static bool ub_hdr_reserved(const struct ual_rec_hdr *h) {
  return (h->rsvd_flags & ~(UAL_UB_RF_FEC_CORRECTED >> 3)) || (h->rsvd_roles & ~0x3u) || (h->rsvd & ~(UAL_UB_MODE_HINT_MASK | UAL_UB_FEC_BYPASS));
}

static void ub_decode(struct ual_rec_result *r) {
  struct ual_ub_flit *u = &r->ub;
  memset(u, 0, sizeof *u);
  u->mode = (uint8_t)ual_ub_rec_mode_hint(&r->rec.h);
  if (r->rec.h.flags & UAL_RF_PHY_ERR)
    ual_findings_add(&r->findings, UAL_R_UB_FEC_UNCORRECTABLE, -1, "FEC reported the codeword uncorrectable");
}

static void ub_stream(struct ual_decoder *d, struct ual_rec_result *r) {
  ual_ub_rx_flit(&d->ub_rx[r->dir], r->rec.body, ual_ub_rec_mode_hint(&r->rec.h), r->frame, &r->ub, &r->findings);
}

static const char *role_name(unsigned role) {
  const char *n = ual_field_value_name(UAL_F_UB_GEN_ROLE, role);
  return n ? n : "?";
}

static void cb_fields(struct ual_tree_builder *w, const struct ual_ub_flit *u, unsigned flit) {
  static const enum ual_scope init_sc[4] = { UAL_SC_UB_INIT0, UAL_SC_UB_INIT1, UAL_SC_UB_INIT2, UAL_SC_UB_INIT3 };
  unsigned k = u->flit_in_block;
  switch (u->cb_type) {
  case UAL_UB_CB_RETRY_REQ: if (!k) ual_tb_scope(w, 2, UAL_SC_UB_RETRY_REQ, flit); break;
  case UAL_UB_CB_RETRY_ACK: if (!k) ual_tb_scope(w, 2, UAL_SC_UB_RETRY_ACK, flit); break;
  case UAL_UB_CB_CRD_ACK: if (!k) ual_tb_scope(w, 2, UAL_SC_UB_CRD_ACK, flit); break;
  case UAL_UB_CB_PARAM_EXCHG: ual_tb_scope(w, 2, UAL_SC_UB_PARAM, flit); break;
  case UAL_UB_CB_LANE_MANAGE: if (!k) ual_tb_scope(w, 2, UAL_SC_UB_LANE, flit + UAL_UB_LANE_CMD_OFFSET); break;
  case UAL_UB_CB_MODE_CHG: if (!k) ual_tb_scope(w, 2, UAL_SC_UB_MODECHG, flit); break;
  case UAL_UB_CB_INIT: if (k < 4) ual_tb_scope(w, 2, init_sc[k], flit); break;
  default: break;
  }
}

static void ub_tree(struct ual_tree_builder *w, const struct ual_rec_result *r) {
  const struct ual_ub_flit *u = &r->ub;
  const unsigned flit = UAL_REC_HDR_BYTES;
  ual_tb_group(w, 0, "UB flit", flit, UAL_UB_FLIT_BYTES, "%s, flit %u of %u", role_name(u->role),
               u->flit_in_block + 1u, u->block_flits);
  ual_tb_field(w, 1, UAL_F_UB_GEN_MODE, flit, u->mode);
  ual_tb_field(w, 1, UAL_F_UB_GEN_ROLE, flit, u->role);
  switch (u->role) {
  case UAL_UB_FR_LPH:
    ual_tb_group(w, 1, "LPH", flit, UAL_UB_LPH_BYTES, "DLLDB 0");
    ual_tb_scope(w, 2, UAL_SC_UB_LPH, flit);
    break;
  case UAL_UB_FR_LBH:
    ual_tb_group(w, 1, "LBH", flit, UAL_UB_LBH_BYTES, "DLLDB %u", u->block_index);
    ual_tb_scope(w, 2, UAL_SC_UB_LBH, flit);
    break;
  case UAL_UB_FR_LCH:
    ual_tb_group(w, 1, "LCH", flit, 4, "%s", ual_ub_cb_name((enum ual_ub_cb_type)u->cb_type));
    ual_tb_scope(w, 2, UAL_SC_UB_LCH, flit);
    break;
  default:
    break;
  }
  if (u->role == UAL_UB_FR_LCH || (u->role == UAL_UB_FR_BODY && u->cb_type != 0 && u->block_flits))
    cb_fields(w, u, flit);
  if (u->block_end && u->crc_checked) {
    ual_tb_group(w, 1, "BCRC", flit + UAL_UB_BCRC_OFFSET, 4, "%s", u->crc_ok ? "good" : "bad");
    ual_tb_scope(w, 2, UAL_SC_UB_BCRC, flit);
    ual_tb_field(w, 2, UAL_F_UB_GEN_CRC_CALC, flit + UAL_UB_BCRC_OFFSET, u->crc_calc);
    ual_tb_field(w, 2, UAL_F_UB_GEN_CRC_OK, flit + UAL_UB_BCRC_OFFSET, u->crc_ok);
  } else if (u->unit.kind && u->mode == UAL_UB_MODE_NONCRC) {
    ual_tb_group(w, 1, "END", flit + UAL_UB_END_OFFSET, 1, "%02x", w->rec[flit + UAL_UB_END_OFFSET]);
    ual_tb_scope(w, 2, UAL_SC_UB_END, flit);
  }
  if (u->unit.kind) {
    const struct ual_ub_unit *n = &u->unit;
    ual_tb_group(w, 1, n->kind == UAL_UB_UNIT_DLLDP ? "DLLDP" : "DLLCB", flit, UAL_UB_FLIT_BYTES,
                 "completed, %u flits from frame %llu", n->flits, (unsigned long long)n->first_frame);
    ual_tb_field(w, 2, UAL_F_UB_GEN_UNIT, flit, n->kind);
    ual_tb_field(w, 2, UAL_F_UB_GEN_FLITS, flit, n->flits);
    if (n->kind == UAL_UB_UNIT_DLLDP) {
      ual_tb_field(w, 2, UAL_F_UB_GEN_VL, flit, n->vl);
      ual_tb_field(w, 2, UAL_F_UB_GEN_PAYLOAD, flit, n->payload_len);
    } else {
      ual_tb_field(w, 2, UAL_F_UB_GEN_CB_TYPE, flit, n->cb.code);
    }
  }
}

static void unit_summary(struct ual_text *o, const struct ual_ub_unit *n) {
  if (n->kind == UAL_UB_UNIT_DLLDP) {
    ual_text_put(o, " | DLLDP VL%u %u flits %u B%s", n->vl, n->flits, n->payload_len, n->error_flag ? " ERROR_FLAG" : "");
    return;
  }
  const struct ual_ub_dllcb *c = &n->cb;
  ual_text_put(o, " | %s", ual_ub_cb_name((enum ual_ub_cb_type)c->type));
  switch (c->type) {
  case UAL_UB_CB_RETRY_REQ:
    ual_text_put(o, " RcvPtr %u NUM_RETRY %u NUM_PHY_REINIT %u", c->rq.rcv_ptr, c->rq.num_retry, c->rq.num_phy_reinit);
    break;
  case UAL_UB_CB_RETRY_ACK:
    ual_text_put(o, " RdPtr %u WrPtr %u NumFreeBuf %u NUM_RETRY %u", c->ra.rd_ptr, c->ra.wr_ptr, c->ra.num_free_buf,
                 c->ra.num_retry);
    break;
  case UAL_UB_CB_CRD_ACK:
    ual_text_put(o, "%s%s ACK_NUM %u", c->ca.t ? " T" : "", c->ca.sd ? " SD" : "", c->ca.ack_num);
    for (unsigned v = 0; v < UAL_UB_VLS; v++)
      if (c->ca.crd[v]) ual_text_put(o, " VL%u+%u", v, c->ca.crd[v]);
    break;
  case UAL_UB_CB_INIT:
    ual_text_put(o, " VL_ENABLE %04x share %u FC %02x depth %u", c->init.vl_enable, c->init.share, c->init.flow_ctrl_size,
                 c->init.retry_buf_depth);
    break;
  case UAL_UB_CB_LANE_MANAGE:
    ual_text_put(o, " %s TLW X%u RLW X%u", c->lane.rsp_id ? "RSP" : "REQ", c->lane.tlw, c->lane.rlw);
    break;
  case UAL_UB_CB_MODE_CHG: {
    const char *t = ual_field_value_name(UAL_F_UB_MC_TYPE, c->mc_type);
    ual_text_put(o, " %s", t ? t : "TYPE?");
    break;
  }
  case UAL_UB_CB_PARAM_EXCHG:
    ual_text_put(o, " %u flits data %08x", c->flits, c->param0);
    break;
  default:
    break;
  }
}

static void ub_summary(struct ual_text *o, const struct ual_rec_result *r) {
  const struct ual_ub_flit *u = &r->ub;
  if (u->role == UAL_UB_FR_LCH && u->unit.kind == UAL_UB_UNIT_DLLCB && u->unit.flits == 1) {
    /* a one-flit DLLCB: the block is the unit */
    char tmp[160];
    struct ual_text t = { tmp, sizeof tmp, 0 };
    tmp[0] = 0;
    unit_summary(&t, &u->unit);   /* " | Name ..." */
    ual_text_put(o, "ub%s", t.n > 2 ? tmp + 2 : "");
    if (ual_ub_bcrc_bad(u)) ual_text_put(o, " BCRC:bad");
    return;
  }
  switch (u->role) {
  case UAL_UB_FR_UNSYNCED: ual_text_put(o, "ub unsynced"); break;
  case UAL_UB_FR_LPH: ual_text_put(o, "ub LPH VL%u", (unsigned)ual_field_get(UAL_F_UB_LPH_VL, r->rec.body)); break;
  case UAL_UB_FR_LBH: ual_text_put(o, "ub LBH DLLDB %u", u->block_index); break;
  case UAL_UB_FR_LCH: ual_text_put(o, "ub LCH %s", ual_ub_cb_name((enum ual_ub_cb_type)u->cb_type)); break;
  default: ual_text_put(o, "ub body %u/%u", u->flit_in_block + 1u, u->block_flits); break;
  }
  if (u->hdr_crd) ual_text_put(o, " CRD VL%u", u->hdr_crd_vl);
  if (u->hdr_ack) ual_text_put(o, " ACK");
  if (ual_ub_bcrc_bad(u)) ual_text_put(o, " BCRC:bad");
  if (u->unit.kind) unit_summary(o, &u->unit);
}

const struct ual_kind ual_kind_ub_flit = {
  "UB flit", "ub", ub_body_ok, ub_decode, ub_stream, ub_tree, ub_summary, ub_hdr_reserved, ub_bad_len, NULL,
  UAL_SC_UB_REC, NULL,
};
