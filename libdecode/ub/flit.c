/* UB data link flits (flit.h): CRC-30, PLENGTH end codes, the receiver
 * that follows block boundaries (T §4.3.4.1), checks BCRC, reassembles
 * DLLDPs and decodes DLLCBs, and the encoders built on the same tables. */
#include "ualink/ub/flit.h"
#include "ualink/core/fields.h"
#include "core/field_access.h"

#include <string.h>

/* ---- DLLCB types ---- */

static const struct cb_def {
  const char *name;
  uint8_t code, lo, hi, ctrl;
} cb_defs[UAL_UB_CB_UNKNOWN + 1] = {
#define UAL_X_(e, code, name, lo, hi, ctrl) [UAL_UB_CB_##e] = { name, code, lo, hi, ctrl },
  UAL_UB_CB_TYPES(UAL_X_)
#undef UAL_X_
  [UAL_UB_CB_UNKNOWN] = { "unknown DLLCB", 0xFF, 0, 31, 0 },
};

const char *ual_ub_cb_name(enum ual_ub_cb_type t) { return cb_defs[t <= UAL_UB_CB_UNKNOWN ? t : UAL_UB_CB_UNKNOWN].name; }
unsigned ual_ub_cb_code(enum ual_ub_cb_type t) { return t < UAL_UB_CB_UNKNOWN ? cb_defs[t].code : 0xFF; }

enum ual_ub_cb_type ual_ub_cb_lookup(unsigned byte2) {
  for (unsigned t = 0; t < UAL_UB_CB_UNKNOWN; t++)
    if (cb_defs[t].code == byte2) return (enum ual_ub_cb_type)t;
  return UAL_UB_CB_UNKNOWN;
}

bool ual_ub_cb_backed_up(enum ual_ub_cb_type t) {
  return t != UAL_UB_CB_NULL_BLOCK && t != UAL_UB_CB_RETRY_IDLE && t != UAL_UB_CB_RETRY_REQ && t != UAL_UB_CB_RETRY_ACK;
}

/* ---- CRC-30 (digest §4) ---- */

uint32_t ual_ub_crc30_bits(uint32_t r, const uint8_t *msg, size_t bits) {
  for (size_t i = 0; i < bits; i++) {
    unsigned bit = (unsigned)(msg[i / 8] >> (7 - i % 8)) & 1u;
    unsigned fb = ((r >> 29) & 1u) ^ bit;
    r = (r << 1) & UAL_UB_CRC30_INIT;
    if (fb) r ^= UAL_UB_CRC30_POLY;
  }
  return r;
}

/* Decision U14: "all data before CRC30" read literally: every block byte
 * before the last flit's byte 16 plus BCRC bits 31 (reserved) and 30
 * (ERROR_FLAG). */
#define UB_CRC_EXTRA_BITS 2u

uint32_t ual_ub_block_crc30(const uint8_t *block, unsigned nflits) {
  size_t bytes = (size_t)nflits * UAL_UB_FLIT_BYTES - (UAL_UB_FLIT_BYTES - UAL_UB_BCRC_OFFSET);
  return ual_ub_crc30_bits(UAL_UB_CRC30_INIT, block, 8u * bytes + UB_CRC_EXTRA_BITS);
}

/* ---- PLENGTH end codes (digest §3.2) ---- */

bool ual_ub_end_code(enum ual_ub_mode mode, unsigned code, bool *penult, unsigned *bytes) {
  *penult = false;
  *bytes = 0;
  if (code <= 15) { *bytes = code + 1; return true; }
  if (mode == UAL_UB_MODE_NONCRC) {
    if (code == 17 || code == 19) { *penult = true; *bytes = code + 1; return true; }
    if (code == 27) { *penult = true; *bytes = 16; return true; }
    if (code >= 28 && code <= 30) { *bytes = code - 11; return true; }
    return false;
  }
  if (code >= 16 && code <= 19) { *penult = true; *bytes = code + 1; return true; }
  if (code >= 24 && code <= 27) { *penult = true; *bytes = code - 11; return true; }
  return false;
}

int ual_ub_end_code_for(enum ual_ub_mode mode, bool penult, unsigned bytes) {
  for (unsigned c = 0; c < 32; c++) {
    bool p;
    unsigned b;
    if (ual_ub_end_code(mode, c, &p, &b) && p == penult && b == bytes) return (int)c;
  }
  return -1;
}

unsigned ual_ub_flit_capacity(enum ual_ub_mode mode, enum ual_ub_role first, unsigned k, unsigned n, bool unit_last) {
  unsigned cap = UAL_UB_FLIT_BYTES;
  if (k == 0) cap -= first == UAL_UB_FR_LPH ? UAL_UB_LPH_BYTES : first == UAL_UB_FR_LBH ? UAL_UB_LBH_BYTES : 0;
  if (k + 1 == n) {
    if (mode != UAL_UB_MODE_NONCRC) cap -= UAL_UB_FLIT_BYTES - UAL_UB_BCRC_OFFSET;
    else if (unit_last) cap -= UAL_UB_FLIT_BYTES - UAL_UB_END_OFFSET;
  }
  return cap;
}

/* Geometry of a DLLDP from its PLENGTH[13:5]. */
static unsigned db_flits(unsigned db, unsigned ndb, unsigned nlast) {
  return db + 1 < ndb ? UAL_UB_BLOCK_MAX_FLITS : nlast;   /* U10 */
}

/* Capacity of DLLDP flit j of F (blocks of 32, the last of nlast). */
static unsigned dp_capacity(enum ual_ub_mode mode, unsigned j, unsigned ndb, unsigned nlast) {
  unsigned db = j / UAL_UB_BLOCK_MAX_FLITS, k = j % UAL_UB_BLOCK_MAX_FLITS;
  unsigned n = db_flits(db, ndb, nlast), F = (ndb - 1) * UAL_UB_BLOCK_MAX_FLITS + nlast;
  return ual_ub_flit_capacity(mode, db ? UAL_UB_FR_LBH : UAL_UB_FR_LPH, k, n, j + 1 == F);
}

/* Payload length of a DLLDP, or -1 with the rule it breaks. */
static int dp_payload_len(enum ual_ub_mode mode, unsigned ndb, unsigned nlast, unsigned code, enum ual_rule *why) {
  bool penult;
  unsigned bytes;
  unsigned F = (ndb - 1) * UAL_UB_BLOCK_MAX_FLITS + nlast;
  if (!ual_ub_end_code(mode, code, &penult, &bytes)) { *why = UAL_R_UB_PLENGTH_RSVD; return -1; }
  *why = UAL_R_UB_PLENGTH_FIT;
  if (penult && (F < 2 || nlast < 2)) return -1;
  unsigned e = penult ? F - 2 : F - 1, len = 0;
  for (unsigned j = 0; j < e; j++) len += dp_capacity(mode, j, ndb, nlast);
  if (bytes > dp_capacity(mode, e, ndb, nlast)) return -1;
  return (int)(len + bytes);
}

/* ---- DLLCB fields ---- */

static enum ual_scope cb_scope(enum ual_ub_cb_type t) {
  switch (t) {
  case UAL_UB_CB_RETRY_REQ: return UAL_SC_UB_RETRY_REQ;
  case UAL_UB_CB_RETRY_ACK: return UAL_SC_UB_RETRY_ACK;
  case UAL_UB_CB_CRD_ACK: return UAL_SC_UB_CRD_ACK;
  case UAL_UB_CB_MODE_CHG: return UAL_SC_UB_MODECHG;
  case UAL_UB_CB_INIT: return UAL_SC_UB_INIT0;
  default: return UAL_SC_COUNT;
  }
}

static const enum ual_field_id crd_fields[UAL_UB_VLS] = {
  UAL_F_UB_CRD_NUM_VL0, UAL_F_UB_CRD_NUM_VL1, UAL_F_UB_CRD_NUM_VL2, UAL_F_UB_CRD_NUM_VL3,
  UAL_F_UB_CRD_NUM_VL4, UAL_F_UB_CRD_NUM_VL5, UAL_F_UB_CRD_NUM_VL6, UAL_F_UB_CRD_NUM_VL7,
  UAL_F_UB_CRD_NUM_VL8, UAL_F_UB_CRD_NUM_VL9, UAL_F_UB_CRD_NUM_VL10, UAL_F_UB_CRD_NUM_VL11,
  UAL_F_UB_CRD_NUM_VL12, UAL_F_UB_CRD_NUM_VL13, UAL_F_UB_CRD_NUM_VL14, UAL_F_UB_CRD_NUM_VL15,
};

/* Init Block grain fields per VL: (field, flit). */
#define G_(K, n) UAL_F_UB_INIT_##K##_GRAIN_VL##n
static const enum ual_field_id ctrl_grain_f[UAL_UB_VLS] = {
  G_(CTRL, 0), G_(CTRL, 1), G_(CTRL, 2), G_(CTRL, 3), G_(CTRL, 4), G_(CTRL, 5), G_(CTRL, 6), G_(CTRL, 7),
  G_(CTRL, 8), G_(CTRL, 9), G_(CTRL, 10), G_(CTRL, 11), G_(CTRL, 12), G_(CTRL, 13), G_(CTRL, 14), G_(CTRL, 15),
};
static const enum ual_field_id data_grain_f[UAL_UB_VLS] = {
  G_(DATA, 0), G_(DATA, 1), G_(DATA, 2), G_(DATA, 3), G_(DATA, 4), G_(DATA, 5), G_(DATA, 6), G_(DATA, 7),
  G_(DATA, 8), G_(DATA, 9), G_(DATA, 10), G_(DATA, 11), G_(DATA, 12), G_(DATA, 13), G_(DATA, 14), G_(DATA, 15),
};
#undef G_

/* The Init Block flit that holds a field of scope sc. */
static unsigned init_flit(unsigned sc) { return sc - UAL_SC_UB_INIT0; }

static uint8_t init_get(const uint8_t *flits, enum ual_field_id id) {
  return (uint8_t)ual_field_get(id, flits + UAL_UB_FLIT_BYTES * init_flit(ual_fields[id].scope));
}

static void init_put(uint8_t *flits, enum ual_field_id id, unsigned v) {
  ual_field_put(id, flits + UAL_UB_FLIT_BYTES * init_flit(ual_fields[id].scope), v);
}

void ual_ub_dllcb_get(const uint8_t *flits, unsigned nflits, struct ual_ub_dllcb *cb) {
  memset(cb, 0, sizeof *cb);
  cb->code = flits[2];
  cb->type = (uint8_t)ual_ub_cb_lookup(flits[2]);
  cb->flits = (uint8_t)nflits;
  switch (cb->type) {
  case UAL_UB_CB_RETRY_REQ:
    cb->rq.rcv_ptr = (uint16_t)ual_field_get(UAL_F_UB_RQ_RCVPTR, flits);
    cb->rq.num_phy_reinit = (uint8_t)ual_field_get(UAL_F_UB_RQ_PHY_REINIT, flits);
    cb->rq.num_retry = (uint8_t)ual_field_get(UAL_F_UB_RQ_NUM_RETRY, flits);
    break;
  case UAL_UB_CB_RETRY_ACK:
    cb->ra.num_retry = (uint8_t)ual_field_get(UAL_F_UB_RA_NUM_RETRY, flits);
    cb->ra.num_free_buf = (uint16_t)ual_field_get(UAL_F_UB_RA_FREEBUF, flits);
    cb->ra.rd_ptr = (uint16_t)ual_field_get(UAL_F_UB_RA_RDPTR, flits);
    cb->ra.wr_ptr = (uint16_t)ual_field_get(UAL_F_UB_RA_WRPTR, flits);
    break;
  case UAL_UB_CB_CRD_ACK:
    cb->ca.sd = (uint8_t)ual_field_get(UAL_F_UB_CA_SD, flits);
    cb->ca.t = (uint8_t)ual_field_get(UAL_F_UB_CA_T, flits);
    cb->ca.ack_num = (uint16_t)ual_field_get(UAL_F_UB_CA_ACK_NUM, flits);
    for (unsigned v = 0; v < UAL_UB_VLS; v++) cb->ca.crd[v] = (uint8_t)ual_field_get(crd_fields[v], flits);
    break;
  case UAL_UB_CB_PARAM_EXCHG:
    cb->param0 = (uint32_t)ual_field_get(UAL_F_UB_PARAM_DATA, flits);
    break;
  case UAL_UB_CB_LANE_MANAGE: {
    const uint8_t *c = flits + UAL_UB_LANE_CMD_OFFSET;
    struct ual_ub_lane *l = &cb->lane;
    l->req_id = (uint8_t)ual_field_get(UAL_F_UB_LANE_REQ_ID, c);
    l->power_down = (uint8_t)ual_field_get(UAL_F_UB_LANE_PWR_DOWN, c);
    l->change_rlw = (uint8_t)ual_field_get(UAL_F_UB_LANE_CHG_RLW, c);
    l->change_tlw = (uint8_t)ual_field_get(UAL_F_UB_LANE_CHG_TLW, c);
    l->rsp_id = (uint8_t)ual_field_get(UAL_F_UB_LANE_RSP_ID, c);
    l->rx_lane_up = (uint8_t)ual_field_get(UAL_F_UB_LANE_RX_UP, c);
    l->rsp_rlw = (uint8_t)ual_field_get(UAL_F_UB_LANE_RSP_RLW, c);
    l->rsp_tlw = (uint8_t)ual_field_get(UAL_F_UB_LANE_RSP_TLW, c);
    l->tlw = (uint8_t)ual_field_get(UAL_F_UB_LANE_TLW, c);
    l->rlw = (uint8_t)ual_field_get(UAL_F_UB_LANE_RLW, c);
    break;
  }
  case UAL_UB_CB_MODE_CHG:
    cb->mc_type = (uint8_t)ual_field_get(UAL_F_UB_MC_TYPE, flits);
    break;
  case UAL_UB_CB_INIT: {
    if (nflits < 4) break;
    struct ual_ub_init *in = &cb->init;
    in->feature_id = (uint16_t)ual_field_get(UAL_F_UB_INIT_FEATURE, flits);
    in->share = (uint8_t)ual_field_get(UAL_F_UB_INIT_SHARE, flits);
    in->data_ack_grain = (uint8_t)ual_field_get(UAL_F_UB_INIT_DATA_ACK, flits);
    in->ctrl_ack_grain = (uint8_t)ual_field_get(UAL_F_UB_INIT_CTRL_ACK, flits);
    in->flow_ctrl_size = (uint8_t)ual_field_get(UAL_F_UB_INIT_FC_SIZE, flits);
    in->vl_enable = (uint16_t)ual_field_get(UAL_F_UB_INIT_VL_EN, flits);
    in->retry_buf_depth = (uint16_t)ual_field_get(UAL_F_UB_INIT_BUF_DEPTH, flits);
    in->min_interval = init_get(flits, UAL_F_UB_INIT_MIN_INTERVAL);
    for (unsigned v = 0; v < UAL_UB_VLS; v++) {
      in->ctrl_grain[v] = init_get(flits, ctrl_grain_f[v]);
      in->data_grain[v] = init_get(flits, data_grain_f[v]);
    }
    break;
  }
  default:
    break;
  }
}

void ual_ub_lch_put(uint8_t *flit0, enum ual_ub_cb_type t, unsigned nflits) {
  ual_field_put(UAL_F_UB_LCH_FIXED7, flit0, 0);
  ual_field_put(UAL_F_UB_LCH_CLENGTH, flit0, nflits - 1);
  ual_field_put(UAL_F_UB_LCH_FIXED, flit0, 0x20);
  ual_field_put(UAL_F_UB_LCH_CFG, flit0, 0);
  flit0[2] = (uint8_t)ual_ub_cb_code(t);
}

void ual_ub_dllcb_put(uint8_t *flits, const struct ual_ub_dllcb *cb) {
  ual_ub_lch_put(flits, (enum ual_ub_cb_type)cb->type, cb->flits);
  if (cb->type == UAL_UB_CB_UNKNOWN) flits[2] = cb->code;
  switch (cb->type) {
  case UAL_UB_CB_RETRY_REQ:
    ual_field_put(UAL_F_UB_RQ_RCVPTR, flits, cb->rq.rcv_ptr);
    ual_field_put(UAL_F_UB_RQ_PHY_REINIT, flits, cb->rq.num_phy_reinit);
    ual_field_put(UAL_F_UB_RQ_NUM_RETRY, flits, cb->rq.num_retry);
    break;
  case UAL_UB_CB_RETRY_ACK:
    ual_field_put(UAL_F_UB_RA_NUM_RETRY, flits, cb->ra.num_retry);
    ual_field_put(UAL_F_UB_RA_FREEBUF, flits, cb->ra.num_free_buf);
    ual_field_put(UAL_F_UB_RA_RDPTR, flits, cb->ra.rd_ptr);
    ual_field_put(UAL_F_UB_RA_WRPTR, flits, cb->ra.wr_ptr);
    break;
  case UAL_UB_CB_CRD_ACK:
    ual_field_put(UAL_F_UB_CA_SD, flits, cb->ca.sd);
    ual_field_put(UAL_F_UB_CA_T, flits, cb->ca.t);
    ual_field_put(UAL_F_UB_CA_ACK_NUM, flits, cb->ca.ack_num);
    for (unsigned v = 0; v < UAL_UB_VLS; v++) ual_field_put(crd_fields[v], flits, cb->ca.crd[v]);
    break;
  case UAL_UB_CB_PARAM_EXCHG:
    for (unsigned k = 0; k < cb->flits; k++) ual_field_put(UAL_F_UB_PARAM_DATA, flits + UAL_UB_FLIT_BYTES * k, cb->param0);
    break;
  case UAL_UB_CB_LANE_MANAGE: {
    uint8_t *c = flits + UAL_UB_LANE_CMD_OFFSET;
    const struct ual_ub_lane *l = &cb->lane;
    ual_field_put(UAL_F_UB_LANE_REQ_ID, c, l->req_id);
    ual_field_put(UAL_F_UB_LANE_PWR_DOWN, c, l->power_down);
    ual_field_put(UAL_F_UB_LANE_CHG_RLW, c, l->change_rlw);
    ual_field_put(UAL_F_UB_LANE_CHG_TLW, c, l->change_tlw);
    ual_field_put(UAL_F_UB_LANE_RSP_ID, c, l->rsp_id);
    ual_field_put(UAL_F_UB_LANE_RX_UP, c, l->rx_lane_up);
    ual_field_put(UAL_F_UB_LANE_RSP_RLW, c, l->rsp_rlw);
    ual_field_put(UAL_F_UB_LANE_RSP_TLW, c, l->rsp_tlw);
    ual_field_put(UAL_F_UB_LANE_TLW, c, l->tlw);
    ual_field_put(UAL_F_UB_LANE_RLW, c, l->rlw);
    break;
  }
  case UAL_UB_CB_MODE_CHG:
    ual_field_put(UAL_F_UB_MC_TYPE, flits, cb->mc_type);
    break;
  case UAL_UB_CB_INIT: {
    const struct ual_ub_init *in = &cb->init;
    ual_field_put(UAL_F_UB_INIT_FEATURE, flits, in->feature_id);
    ual_field_put(UAL_F_UB_INIT_SHARE, flits, in->share);
    ual_field_put(UAL_F_UB_INIT_DATA_ACK, flits, in->data_ack_grain);
    ual_field_put(UAL_F_UB_INIT_CTRL_ACK, flits, in->ctrl_ack_grain);
    ual_field_put(UAL_F_UB_INIT_FC_SIZE, flits, in->flow_ctrl_size);
    ual_field_put(UAL_F_UB_INIT_VL_EN, flits, in->vl_enable);
    ual_field_put(UAL_F_UB_INIT_BUF_DEPTH, flits, in->retry_buf_depth);
    init_put(flits, UAL_F_UB_INIT_MIN_INTERVAL, in->min_interval);
    for (unsigned v = 0; v < UAL_UB_VLS; v++) {
      init_put(flits, ctrl_grain_f[v], in->ctrl_grain[v]);
      init_put(flits, data_grain_f[v], in->data_grain[v]);
    }
    break;
  }
  default:
    break;
  }
}

void ual_ub_seal(enum ual_ub_mode mode, uint8_t *block, unsigned nflits, bool unit_last, bool error_flag) {
  uint8_t *last = block + (size_t)(nflits - 1) * UAL_UB_FLIT_BYTES;
  if (mode == UAL_UB_MODE_NONCRC) {
    if (unit_last) ual_field_put(UAL_F_UB_END_EF, last, error_flag);
    return;
  }
  ual_field_put(UAL_F_UB_BCRC_EF, last, error_flag);
  ual_field_put(UAL_F_UB_BCRC_CRC30, last, ual_ub_block_crc30(block, nflits));
}

static void hdr01_put(uint8_t *f, const struct ual_ub_unit *u, enum ual_field_id base) {
  /* LPH and LBH share bytes 0-1; the LBH rows follow the LPH rows in the same order. */
  unsigned d = (unsigned)base - UAL_F_UB_LPH_CRD;
  ual_field_put((enum ual_field_id)(UAL_F_UB_LPH_CRD + d), f, u->crd);
  ual_field_put((enum ual_field_id)(UAL_F_UB_LPH_ACK + d), f, u->ack);
  ual_field_put((enum ual_field_id)(UAL_F_UB_LPH_CRD_VL + d), f, u->crd_vl);
  ual_field_put((enum ual_field_id)(UAL_F_UB_LPH_VL + d), f, u->vl);
  ual_field_put((enum ual_field_id)(UAL_F_UB_LPH_CFG + d), f, u->cfg);
}

unsigned ual_ub_dlldp_build(enum ual_ub_mode mode, const struct ual_ub_unit *u, const uint8_t *payload,
                            unsigned len, bool error_flag, uint8_t *out, size_t cap_flits) {
  /* The smallest F whose capacity holds len; the end code says where it ends. */
  for (unsigned F = 1; F <= UAL_UB_DLLDP_MAX_FLITS && F <= cap_flits; F++) {
    unsigned ndb = (F + UAL_UB_BLOCK_MAX_FLITS - 1) / UAL_UB_BLOCK_MAX_FLITS;
    unsigned nlast = F - (ndb - 1) * UAL_UB_BLOCK_MAX_FLITS;
    unsigned before = 0;
    for (unsigned j = 0; j + 1 < F; j++) before += dp_capacity(mode, j, ndb, nlast);
    unsigned lastcap = dp_capacity(mode, F - 1, ndb, nlast);
    if (len > before + lastcap || (len == 0 && F > 1)) continue;
    int code;
    unsigned pen_before = 0;
    for (unsigned j = 0; j + 2 < F; j++) pen_before += dp_capacity(mode, j, ndb, nlast);
    if (len > before) code = ual_ub_end_code_for(mode, false, len - before);
    else code = -1;
    /* The payload ends in the flit before the last when the last holds none. */
    if (code < 0 && F >= 2 && nlast >= 2 && len > pen_before) code = ual_ub_end_code_for(mode, true, len - pen_before);
    if (code < 0 && F == 1) code = ual_ub_end_code_for(mode, false, len ? len : 1);
    if (code < 0) continue;
    memset(out, 0, (size_t)F * UAL_UB_FLIT_BYTES);
    hdr01_put(out, u, UAL_F_UB_LPH_CRD);
    ual_field_put(UAL_F_UB_LPH_NDB, out, ndb - 1);
    ual_field_put(UAL_F_UB_LPH_NLAST, out, nlast - 1);
    ual_field_put(UAL_F_UB_LPH_ENDCODE, out, (unsigned)code);
    unsigned at = 0;
    for (unsigned j = 0; j < F && at < len; j++) {
      unsigned db = j / UAL_UB_BLOCK_MAX_FLITS, k = j % UAL_UB_BLOCK_MAX_FLITS;
      unsigned hdr = k ? 0 : db ? UAL_UB_LBH_BYTES : UAL_UB_LPH_BYTES;
      unsigned c = dp_capacity(mode, j, ndb, nlast), m = len - at < c ? len - at : c;
      memcpy(out + (size_t)j * UAL_UB_FLIT_BYTES + hdr, payload + at, m);
      at += m;
    }
    for (unsigned db = 0; db < ndb; db++) {
      uint8_t *b = out + (size_t)db * UAL_UB_BLOCK_MAX_FLITS * UAL_UB_FLIT_BYTES;
      if (db) hdr01_put(b, u, UAL_F_UB_LBH_CRD);
      bool last = db + 1 == ndb;
      ual_ub_seal(mode, b, db_flits(db, ndb, nlast), last, last && error_flag);
    }
    return F;
  }
  return 0;
}

/* ---- the receiver ---- */

void ual_ub_rx_init(struct ual_ub_rx *rx) {
  memset(rx, 0, offsetof(struct ual_ub_rx, blk));
  rx->blind = 1;                      /* what went before the capture is unknown */
}

void ual_ub_rx_resync(struct ual_ub_rx *rx, enum ual_ub_mode mode) {
  uint8_t m = mode ? (uint8_t)mode : rx->mode, b = rx->blind;
  ual_ub_rx_init(rx);
  rx->mode = m;
  rx->blind = b;
}

void ual_ub_rx_linkup(struct ual_ub_rx *rx) {
  ual_ub_rx_resync(rx, UAL_UB_MODE_UNKNOWN);
  rx->blind = 0;
  rx->fresh = 1;
}

/* Blocks found by hunting: where DLLDPs begin is known after a link-up; after
 * a bad block the receiver discards until the replay, which starts from the
 * context before it, so the blocks meanwhile are read as before. */
static void hunt_synced(struct ual_ub_rx *rx, bool skipped, uint8_t unsure) {
  rx->dp_unsure = (rx->fresh && !skipped) || rx->err_open ? 0 : unsure;
  rx->fresh = 0;
}

static bool cfg_dlldp(unsigned cfg) { return (cfg >= 3 && cfg <= 7) || cfg == 9; }

/* Flits of the block a header starts, as the receiver frames it (0 when
 * the CFG is reserved). */
static unsigned block_len(const struct ual_ub_rx *rx, const uint8_t *h, uint8_t *role) {
  unsigned cfg = (unsigned)ual_field_get(UAL_F_UB_LPH_CFG, h);
  if (cfg == 0) {
    *role = UAL_UB_FR_LCH;
    return (unsigned)ual_field_get(UAL_F_UB_LCH_CLENGTH, h) + 1;
  }
  if (rx && rx->in_dlldp) {
    *role = UAL_UB_FR_LBH;
    return db_flits(rx->db, rx->ndb, rx->nlast);
  }
  if (!cfg_dlldp(cfg)) return 0;
  *role = UAL_UB_FR_LPH;
  unsigned ndb = (unsigned)ual_field_get(UAL_F_UB_LPH_NDB, h) + 1;
  unsigned nlast = (unsigned)ual_field_get(UAL_F_UB_LPH_NLAST, h) + 1;
  return db_flits(0, ndb, nlast);
}

static void reserved_scope(enum ual_scope sc, const uint8_t *base, const char *what, struct ual_findings *f) {
  enum ual_field_id id;
  uint32_t v;
  if (ual_scope_reserved_set(sc, base, &id, &v))
    ual_findings_add(f, UAL_R_UB_RSVD, -1, "%s %s = 0x%x", what, ual_fields[id].abbrev, v);
}

static bool any_nonzero(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i]) return true;
  return false;
}

static const unsigned lane_widths[] = { 1, 2, 4, 8 };
static bool lane_width_ok(unsigned w) {
  for (unsigned i = 0; i < sizeof lane_widths / sizeof lane_widths[0]; i++)
    if (w == lane_widths[i]) return true;
  return false;
}

/* The checks of one good DLLCB. */
static void dllcb_check(const struct ual_ub_rx *rx, const uint8_t *b, unsigned n, const struct ual_ub_dllcb *cb,
                        struct ual_findings *f) {
  if (ual_field_get(UAL_F_UB_LCH_FIXED7, b) != 0 || ual_field_get(UAL_F_UB_LCH_FIXED, b) != 0x20)
    ual_findings_add(f, UAL_R_UB_LCH_FIXED, -1, "LCH bytes 0-1 %02x %02x", b[0], b[1]);
  if (cb->type == UAL_UB_CB_UNKNOWN) {
    ual_findings_add(f, UAL_R_UB_DLLCB_TYPE, -1, "CTRL %x SUB_CTRL %x", b[2] >> 4, b[2] & 0xF);
    return;
  }
  const struct cb_def *d = &cb_defs[cb->type];
  if (n - 1 < d->lo || n - 1 > d->hi)
    ual_findings_add(f, UAL_R_UB_DLLCB_LENGTH, -1, "%s with CLENGTH %u", d->name, n - 1);
  enum ual_scope sc = cb_scope((enum ual_ub_cb_type)cb->type);
  if (sc != UAL_SC_COUNT) reserved_scope(sc, b, d->name, f);
  size_t body_end = rx->mode == UAL_UB_MODE_NONCRC ? UAL_UB_END_OFFSET : UAL_UB_BCRC_OFFSET;
  if (cb->type == UAL_UB_CB_CRD_ACK && n == 2 && any_nonzero(b + UAL_UB_FLIT_BYTES, body_end))
    ual_findings_add(f, UAL_R_UB_RSVD, -1, "Crd_Ack flit 1 not zero");
  if (cb->type == UAL_UB_CB_MODE_CHG && cb->mc_type != UAL_UB_MC_REQ && cb->mc_type != UAL_UB_MC_ACK)
    ual_findings_add(f, UAL_R_UB_MODECHG_TYPE, -1, "Block_Mode_Chg TYPE %u", cb->mc_type);
  if (cb->type == UAL_UB_CB_LANE_MANAGE) {
    const struct ual_ub_lane *l = &cb->lane;
    bool ids = (l->req_id == 0x5 || l->req_id == 0) && (l->rsp_id == 0xA || l->rsp_id == 0) && (l->req_id || l->rsp_id);
    if (!ids || !lane_width_ok(l->tlw) || !lane_width_ok(l->rlw))
      ual_findings_add(f, UAL_R_UB_LANE_CMD, -1, "REQ_ID %x RSP_ID %x TLW %u RLW %u", l->req_id, l->rsp_id, l->tlw, l->rlw);
    reserved_scope(UAL_SC_UB_LANE, b + UAL_UB_LANE_CMD_OFFSET, "Lane_Manage", f);
  }
  if (cb->type == UAL_UB_CB_INIT && n >= 4) {
    const struct ual_ub_init *in = &cb->init;
    if (!(in->vl_enable & 1)) ual_findings_add(f, UAL_R_UB_INIT_VL0, -1, "VL_ENABLE 0x%04x", in->vl_enable);
    else if (in->vl_enable & (uint16_t)(in->vl_enable + 1))
      ual_findings_add(f, UAL_R_UB_VL_ENABLE_GAP, -1, "VL_ENABLE 0x%04x", in->vl_enable);
    if (in->feature_id != 1) ual_findings_add(f, UAL_R_UB_INIT_FEATURE, -1, "FEATURE_ID 0x%04x", in->feature_id);
  }
}

/* A DLLDB body flit that starts a DLLCB passing its own BCRC: the sender
 * put a control block inside a data block (heuristic, CRC mode). */
static int dllcb_inside(const uint8_t *b, unsigned n) {
  for (unsigned k = 1; k < n; k++) {
    const uint8_t *h = b + (size_t)k * UAL_UB_FLIT_BYTES;
    if (ual_field_get(UAL_F_UB_LCH_CFG, h) || ual_field_get(UAL_F_UB_LCH_FIXED, h) != 0x20) continue;
    unsigned len = (unsigned)ual_field_get(UAL_F_UB_LCH_CLENGTH, h) + 1;
    if (k + len > n) continue;
    if (ual_field_get(UAL_F_UB_BCRC_CRC30, h + (size_t)(len - 1) * UAL_UB_FLIT_BYTES) == ual_ub_block_crc30(h, len))
      return (int)k;
  }
  return -1;
}

/* Header checks of a good DLLDB. */
static void dldb_check(struct ual_ub_rx *rx, const uint8_t *b, uint8_t role, struct ual_findings *f) {
  if (role == UAL_UB_FR_LPH) {
    reserved_scope(UAL_SC_UB_LPH, b, "LPH", f);
    enum ual_rule why;
    if (dp_payload_len((enum ual_ub_mode)rx->mode, rx->ndb, rx->nlast, (unsigned)ual_field_get(UAL_F_UB_LPH_ENDCODE, b), &why) < 0)
      ual_findings_add(f, why, -1, "PLENGTH 0x%04x in %s mode", (unsigned)ual_field_get(UAL_F_UB_LPH_NDB, b) << 10 |
                       (unsigned)ual_field_get(UAL_F_UB_LPH_NLAST, b) << 5 | (unsigned)ual_field_get(UAL_F_UB_LPH_ENDCODE, b),
                       rx->mode == UAL_UB_MODE_NONCRC ? "non-CRC" : "CRC");
  } else {
    reserved_scope(UAL_SC_UB_LBH, b, "LBH", f);
    unsigned vl = (unsigned)ual_field_get(UAL_F_UB_LBH_VL, b);
    if (vl != rx->dp.vl) ual_findings_add(f, UAL_R_UB_VL_MISMATCH, -1, "LBH VL %u, LPH VL %u", vl, rx->dp.vl);
  }
}

/* Copies the payload regions of the DLLDB in blk into pay. */
static void dldb_collect(struct ual_ub_rx *rx, uint8_t role) {
  unsigned n = rx->blk_len, F = (rx->ndb - 1u) * UAL_UB_BLOCK_MAX_FLITS + rx->nlast;
  for (unsigned k = 0; k < n; k++) {
    unsigned j = (unsigned)rx->db * UAL_UB_BLOCK_MAX_FLITS + k;
    unsigned hdr = k ? 0 : role == UAL_UB_FR_LPH ? UAL_UB_LPH_BYTES : UAL_UB_LBH_BYTES;
    unsigned c = ual_ub_flit_capacity((enum ual_ub_mode)rx->mode, (enum ual_ub_role)role, k, n, j + 1 == F);
    if (rx->pay_n + c > sizeof rx->pay) return;
    memcpy(rx->pay + rx->pay_n, rx->blk + (size_t)k * UAL_UB_FLIT_BYTES + hdr, c);
    rx->pay_n = (uint16_t)(rx->pay_n + c);
  }
}

/* The block in blk[0..blk_len) is complete: this flit is its last. */
static void block_end(struct ual_ub_rx *rx, struct ual_ub_flit *out, struct ual_findings *f) {
  unsigned n = rx->blk_len;
  const uint8_t *b = rx->blk, *last = rx->blk + (size_t)(n - 1) * UAL_UB_FLIT_BYTES;
  uint8_t role = rx->blk_role;
  bool crc = rx->mode != UAL_UB_MODE_NONCRC;
  bool dlldb = role != UAL_UB_FR_LCH;
  bool unit_last = !dlldb || rx->db + 1 == rx->ndb;
  bool good = true, ef = false;
  out->block_end = 1;
  if (crc && dlldb && rx->dp_unsure == 2 && ual_field_get(UAL_F_UB_BCRC_CRC30, last) != ual_ub_block_crc30(b, n)) {
    /* framed from a header that may be a later DLLDB's: the framing, not the block, failed */
    ual_ub_rx_resync(rx, UAL_UB_MODE_UNKNOWN);
    rx->blind = 1;
    out->block_end = 0;
    out->skipped = (uint16_t)n;     /* its flits are in no block found */
    return;
  }
  if (crc) {
    out->crc_checked = 1;
    out->crc_rx = (uint32_t)ual_field_get(UAL_F_UB_BCRC_CRC30, last);
    out->crc_calc = ual_ub_block_crc30(b, n);
    out->crc_ok = out->crc_rx == out->crc_calc;
    good = out->crc_ok;
    ef = ual_field_get(UAL_F_UB_BCRC_EF, last) != 0;
    if (!good) {
      ual_findings_add(f, UAL_R_UB_BCRC, -1, "%s block of %u flits from frame %llu: CRC30 %08x, calculated %08x",
                       dlldb ? "DLLDB" : "DLLCB", n, (unsigned long long)rx->blk_frame, out->crc_rx, out->crc_calc);
      int k = dlldb ? dllcb_inside(b, n) : -1;
      if (k > 0)
        ual_findings_add(f, UAL_R_UB_DLLCB_IN_DLLDB, -1, "flit %d of the DLLDB from frame %llu starts a DLLCB", k,
                         (unsigned long long)rx->blk_frame);
    } else if (ual_field_get(UAL_F_UB_BCRC_RSVD, last)) {
      ual_findings_add(f, UAL_R_UB_BCRC_RSVD, -1, "BCRC bit 31 set");
    }
  } else if (unit_last) {
    ef = ual_field_get(UAL_F_UB_END_EF, last) != 0;
    if (ual_field_get(UAL_F_UB_END_RSVD7, last) || ual_field_get(UAL_F_UB_END_RSVD0, last))
      ual_findings_add(f, UAL_R_UB_BCRC_RSVD, -1, "END reserved bits %02x", last[UAL_UB_END_OFFSET] & 0xBF);
  }
  out->error_flag = ef;
  if (good && ef && !unit_last) ual_findings_add(f, UAL_R_UB_ERROR_FLAG_POS, -1, "ERROR_FLAG on DLLDB %u of %u", rx->db, rx->ndb);
  if (!good) {
    if (!rx->err_open) {
      rx->err_open = 1;
      rx->snap.in_dlldp = role == UAL_UB_FR_LPH ? 0 : rx->in_dlldp;
      rx->snap.db = rx->db;
      rx->snap.ndb = rx->ndb;
      rx->snap.nlast = rx->nlast;
      rx->snap.dp_unsure = rx->dp_unsure;
      rx->snap.blind = rx->blind;
      rx->snap.dp_flits = rx->dp_flits;
      rx->snap.pay_n = rx->pay_n;
      rx->snap.dp_frame = rx->dp_frame;
      rx->snap.dp = rx->dp;
      memcpy(rx->snap.lph, rx->lph, sizeof rx->lph);
    }
    if (role == UAL_UB_FR_LBH) {
      /* Its length came from the LPH: the framing holds; the DLLDP is lost. */
      rx->db++;
      rx->blk_n = 0;
      rx->dp_lost = 1;
      if (rx->db >= rx->ndb) rx->in_dlldp = rx->dp_lost = 0;
      return;
    }
    /* The framing came from a header that may be corrupt: find the blocks again. */
    uint8_t eo = rx->err_open;
    __typeof__(rx->snap) sn = rx->snap;
    ual_ub_rx_resync(rx, UAL_UB_MODE_UNKNOWN);
    rx->err_open = eo;
    rx->snap = sn;
    return;
  }
  if (!dlldb) {
    struct ual_ub_unit *u = &out->unit;
    memset(u, 0, sizeof *u);
    u->kind = UAL_UB_UNIT_DLLCB;
    u->good = 1;
    u->error_flag = ef;
    u->flits = (uint16_t)n;
    u->blocks = 1;
    u->first_frame = rx->blk_frame;
    ual_ub_dllcb_get(b, n, &u->cb);
    if (ef) ual_findings_add(f, UAL_R_UB_ERROR_FLAG_POS, -1, "ERROR_FLAG on a %s DLLCB", ual_ub_cb_name((enum ual_ub_cb_type)u->cb.type));
    if (u->cb.type == UAL_UB_CB_RETRY_ACK) rx->ack_seen = 1;
    dllcb_check(rx, b, n, &u->cb, f);
    rx->blk_n = 0;
    return;
  }
  out->dp_unsure = rx->dp_unsure;
  if (rx->dp_unsure != 2) dldb_check(rx, b, role, f);
  dldb_collect(rx, role);
  rx->dp_flits = (uint16_t)(rx->dp_flits + n);
  rx->db++;
  rx->blk_n = 0;
  if (rx->db < rx->ndb) return;
  if (rx->dp_lost || rx->dp_unsure == 2) {
    /* a DLLDB of it failed, or where it began is not known: no DLLDP is delivered */
    rx->in_dlldp = rx->dp_lost = 0;
    return;
  }
  rx->dp_unsure = 0;
  struct ual_ub_unit *u = &out->unit;
  *u = rx->dp;
  u->kind = UAL_UB_UNIT_DLLDP;
  u->good = 1;
  u->error_flag = ef;
  u->flits = rx->dp_flits;
  u->blocks = rx->ndb;
  u->first_frame = rx->dp_frame;
  enum ual_rule why;
  int len = dp_payload_len((enum ual_ub_mode)rx->mode, rx->ndb, rx->nlast,
                           (unsigned)ual_field_get(UAL_F_UB_LPH_ENDCODE, rx->lph), &why);
  if (len >= 0) {
    u->payload_len = (uint16_t)len;
    out->payload = rx->pay;
    if (any_nonzero(rx->pay + len, (size_t)(rx->pay_n - len)))
      ual_findings_add(f, UAL_R_UB_PAD_NONZERO, -1, "padding after %d payload bytes not zero", len);
  }
  if (ef) ual_findings_add(f, UAL_R_UB_ERROR_FLAG, -1, "DLLDP from frame %llu on VL%u", (unsigned long long)rx->dp_frame, u->vl);
  rx->in_dlldp = 0;
}

/* Framing of the block a header flit starts; false for a reserved CFG. */
static bool block_start(struct ual_ub_rx *rx, const uint8_t *h, uint64_t frame) {
  uint8_t role = 0;
  unsigned len = block_len(rx, h, &role);
  if (!len) return false;
  rx->blk_len = (uint8_t)len;
  rx->blk_role = role;
  rx->blk_frame = frame;
  if (role == UAL_UB_FR_LPH) {
    if (rx->dp_unsure == 2) rx->dp_unsure = 1;
    rx->dp_lost = 0;
    rx->in_dlldp = 1;
    rx->db = 0;
    rx->ndb = (uint8_t)(ual_field_get(UAL_F_UB_LPH_NDB, h) + 1);
    rx->nlast = (uint8_t)(ual_field_get(UAL_F_UB_LPH_NLAST, h) + 1);
    rx->dp_flits = 0;
    rx->pay_n = 0;
    rx->dp_frame = frame;
    memcpy(rx->lph, h, UAL_UB_LPH_BYTES);
    memset(&rx->dp, 0, sizeof rx->dp);
    rx->dp.vl = (uint8_t)ual_field_get(UAL_F_UB_LPH_VL, h);
    rx->dp.cfg = (uint8_t)ual_field_get(UAL_F_UB_LPH_CFG, h);
    rx->dp.crd = (uint8_t)ual_field_get(UAL_F_UB_LPH_CRD, h);
    rx->dp.ack = (uint8_t)ual_field_get(UAL_F_UB_LPH_ACK, h);
    rx->dp.crd_vl = (uint8_t)ual_field_get(UAL_F_UB_LPH_CRD_VL, h);
  }
  return true;
}

static void flit_role(const struct ual_ub_rx *rx, struct ual_ub_flit *out, unsigned k) {
  out->role = k ? UAL_UB_FR_BODY : rx->blk_role;
  out->block_flits = rx->blk_len;
  out->flit_in_block = (uint8_t)k;
  out->block_index = rx->blk_role == UAL_UB_FR_LCH ? 0 : rx->db;
  const uint8_t *h = rx->blk;
  if (rx->blk_role == UAL_UB_FR_LCH) out->cb_type = (uint8_t)ual_ub_cb_lookup(h[2]);
  if (k == 0 && rx->blk_role != UAL_UB_FR_LCH) {
    out->hdr_crd = (uint8_t)ual_field_get(UAL_F_UB_LPH_CRD, h);
    out->hdr_ack = (uint8_t)ual_field_get(UAL_F_UB_LPH_ACK, h);
    out->hdr_crd_vl = (uint8_t)ual_field_get(UAL_F_UB_LPH_CRD_VL, h);
  }
}

/* A non-CRC Null / No_Operation / Retry_Idle block: LCH and zeros. */
static bool noncrc_idle(const uint8_t *flit) {
  enum ual_ub_cb_type t = ual_ub_cb_lookup(flit[2]);
  return flit[0] == 0x02 && flit[1] == 0 &&
         (t == UAL_UB_CB_NULL_BLOCK || t == UAL_UB_CB_NOP || t == UAL_UB_CB_RETRY_IDLE) &&
         !any_nonzero(flit + 3, UAL_UB_FLIT_BYTES - 3);
}

/* Decision U19: block boundaries are found by a block whose BCRC passes
 * (CRC mode) or by a one-flit idle block (non-CRC mode); the mode, when
 * unknown, is the one whose pattern is found first. The window holds the
 * last 32 flits; a candidate start is a flit whose header frames a block
 * that ends with this flit. */
static void hunt(struct ual_ub_rx *rx, const uint8_t *flit, uint64_t frame, struct ual_ub_flit *out,
                 struct ual_findings *f) {
  if (rx->hunt_n == UAL_UB_BLOCK_MAX_FLITS) {
    memmove(rx->blk, rx->blk + UAL_UB_FLIT_BYTES, (UAL_UB_BLOCK_MAX_FLITS - 1) * UAL_UB_FLIT_BYTES);
    rx->hunt_n--;
  }
  memcpy(rx->blk + (size_t)rx->hunt_n * UAL_UB_FLIT_BYTES, flit, UAL_UB_FLIT_BYTES);
  rx->hunt_n++;
  if (rx->hunt_seen < UINT16_MAX) rx->hunt_seen++;
  if (rx->mode != UAL_UB_MODE_CRC && noncrc_idle(flit)) {
    rx->mode = UAL_UB_MODE_NONCRC;
    rx->synced = 1;
    out->skipped = (uint16_t)(rx->hunt_seen - 1);
    if (out->skipped) rx->blind = 1;
    rx->hunt_seen = 0;
    rx->hunt_n = 0;
    memcpy(rx->blk, flit, UAL_UB_FLIT_BYTES);
    block_start(rx, rx->blk, frame);
    hunt_synced(rx, out->skipped, 1);   /* an idle block may sit between two DLLDBs of one DLLDP */
    rx->blk_n = 1;
    out->mode = rx->mode;
    flit_role(rx, out, 0);
    block_end(rx, out, f);
    return;
  }
  if (rx->mode == UAL_UB_MODE_NONCRC) return;
  for (unsigned s = 0; s < rx->hunt_n; s++) {
    const uint8_t *h = rx->blk + (size_t)s * UAL_UB_FLIT_BYTES;
    unsigned len = rx->hunt_n - s;
    uint8_t role = 0;
    unsigned want = block_len(NULL, h, &role);
    /* A reserved CFG frames no block; only a one-flit one is tried. */
    bool reserved = want == 0;
    if (want != len && !(reserved && len == 1)) continue;
    const uint8_t *last = rx->blk + (size_t)(rx->hunt_n - 1) * UAL_UB_FLIT_BYTES;
    if (ual_field_get(UAL_F_UB_BCRC_CRC30, last) != ual_ub_block_crc30(h, len)) continue;
    rx->mode = UAL_UB_MODE_CRC;
    rx->synced = 1;
    out->skipped = (uint16_t)(rx->hunt_seen - len);
    if (out->skipped) rx->blind = 1;
    rx->hunt_seen = 0;
    memmove(rx->blk, h, (size_t)len * UAL_UB_FLIT_BYTES);
    rx->hunt_n = 0;
    out->mode = rx->mode;
    if (reserved) {
      /* A sealed block with a reserved CFG: a real violation, not noise. */
      ual_findings_add(f, UAL_R_UB_CFG_RESERVED, -1, "CFG %u in the block from frame %llu",
                       (unsigned)ual_field_get(UAL_F_UB_LPH_CFG, rx->blk), (unsigned long long)(frame - len + 1));
      /* no block the protocol knows: nothing completes here */
      rx->blk_n = 0;
      out->role = UAL_UB_FR_BODY;
      out->block_flits = 1;
      out->crc_checked = out->crc_ok = 1;
      return;
    }
    block_start(rx, rx->blk, frame - len + 1);
    hunt_synced(rx, out->skipped, rx->blk_role == UAL_UB_FR_LPH ? 2 : 1);   /* an LCH may sit between two DLLDBs */
    rx->blk_n = (uint8_t)len;
    flit_role(rx, out, len - 1);
    block_end(rx, out, f);
    return;
  }
}

void ual_ub_rx_flit(struct ual_ub_rx *rx, const uint8_t flit[UAL_UB_FLIT_BYTES], unsigned hint, uint64_t frame,
                    struct ual_ub_flit *out, struct ual_findings *f) {
  memset(out, 0, sizeof *out);
  if (hint == UAL_UB_MODE_CRC || hint == UAL_UB_MODE_NONCRC) {
    if (rx->mode != hint) {
      uint8_t fresh = rx->fresh && !rx->synced;   /* learning the mode at a link-up */
      ual_ub_rx_resync(rx, (enum ual_ub_mode)hint);
      rx->fresh = fresh;
    }
  }
  out->mode = rx->mode;
  if (!rx->synced) {
    hunt(rx, flit, frame, out, f);
    return;
  }
  if (rx->blk_n == 0) {
    enum ual_ub_cb_type t = ual_field_get(UAL_F_UB_LCH_CFG, flit) ? UAL_UB_CB_UNKNOWN : ual_ub_cb_lookup(flit[2]);
    if (rx->ack_seen && t != UAL_UB_CB_RETRY_IDLE && t != UAL_UB_CB_RETRY_ACK) {
      /* the replay starts here: back to the DLLDP context of the first bad block */
      if (rx->err_open) {
        rx->in_dlldp = rx->snap.in_dlldp;
        rx->dp_lost = 0;
        rx->db = rx->snap.db;
        rx->ndb = rx->snap.ndb;
        rx->nlast = rx->snap.nlast;
        rx->dp_unsure = rx->snap.dp_unsure;
        rx->dp_flits = rx->snap.dp_flits;
        rx->pay_n = rx->snap.pay_n;
        rx->dp_frame = rx->snap.dp_frame;
        rx->dp = rx->snap.dp;
        memcpy(rx->lph, rx->snap.lph, sizeof rx->lph);
      }
      /* a bad block before the first one seen may be where the replay starts */
      bool unseen = rx->err_open ? rx->snap.blind : rx->blind;
      rx->ack_seen = rx->err_open = rx->blind = 0;
      if (unseen) {
        /* the bad block may have gone before the capture or among the flits
       * skipped while hunting: where in a DLLDP the replay resumes is
       * unknown, find the blocks again */
        ual_ub_rx_resync(rx, UAL_UB_MODE_UNKNOWN);
        hunt(rx, flit, frame, out, f);
        return;
      }
    }
    if (!block_start(rx, flit, frame)) {
      /* Length unknown: hunt with this flit as the first candidate. */
      ual_ub_rx_resync(rx, UAL_UB_MODE_UNKNOWN);
      hunt(rx, flit, frame, out, f);
      return;
    }
  }
  memcpy(rx->blk + (size_t)rx->blk_n * UAL_UB_FLIT_BYTES, flit, UAL_UB_FLIT_BYTES);
  flit_role(rx, out, rx->blk_n);
  rx->blk_n++;
  if (rx->blk_n == rx->blk_len) block_end(rx, out, f);
}
