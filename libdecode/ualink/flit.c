/* Flit header, segment map, segment headers, DLLPs and the stateless flit
 * decode (digest §2, §5.3). */
#include "ualink/ualink/flit.h"
#include "ualink/core/fields.h"
#include "core/field_access.h"
#include "layout.h"

#include <stdio.h>
#include <string.h>

const char *ual_flit_kind_name(enum ual_flit_kind k) {
  static const char *const n[] = { "payload", "nop", "idle", "reserved" };
  return (unsigned)k < 4 ? n[k] : "reserved";
}

const char *ual_replay_cmd_name(enum ual_replay_cmd c) {
  static const char *const n[] = { "seq", "ack", "nak", "nak_selective" };
  return n[c & 3];
}

void ual_fh_decode(const uint8_t *flit, struct ual_fh *fh) {
  fh->usage = (uint8_t)(ual_field_get(UAL_F_FH_USAGE_HI, flit) << 2 |
                        ual_field_get(UAL_F_FH_USAGE_LO, flit));
  fh->prior_payload = (uint8_t)ual_field_get(UAL_F_FH_PRIOR, flit);
  fh->replay_cmd = (uint8_t)ual_field_get(UAL_F_FH_REPLAY_CMD, flit);
  fh->seq = (uint16_t)ual_field_get(UAL_F_FH_SEQ, flit);
}

void ual_fh_encode(const struct ual_fh *fh, uint8_t *flit) {
  ual_field_put(UAL_F_FH_USAGE_LO, flit, fh->usage & 3);
  ual_field_put(UAL_F_FH_USAGE_HI, flit, fh->usage >> 2 & 1);
  ual_field_put(UAL_F_FH_PRIOR, flit, fh->prior_payload);
  ual_field_put(UAL_F_FH_REPLAY_CMD, flit, fh->replay_cmd);
  ual_field_put(UAL_F_FH_SEQ, flit, fh->seq);
}

const struct ual_segment_def ual_segment_map[UAL_SEGMENTS] = UAL_SEGMENT_MAP_INIT;

unsigned ual_sector_offset(unsigned s) { return ual_sector_byte(s); }

uint8_t ual_tlbeat_code(unsigned m0, unsigned m1) {
  static const uint8_t code[4] = { UAL_TLBEAT_CODE_TL, UAL_TLBEAT_CODE_M0,
                                   UAL_TLBEAT_CODE_M1, UAL_TLBEAT_CODE_M0M1 };
  return code[(m0 & 1) | (m1 & 1) << 1];
}

const char *ual_tlbeat_name(enum ual_tlbeat t) {
  static const char *const n[] = { "none", "tl", "tl_m1", "tl_m0", "tl_m0m1", "invalid" };
  return (unsigned)t <= UAL_TB_INVALID ? n[t] : "invalid";
}

void ual_sh_decode(uint8_t raw, struct ual_sh *sh) { ual_sh_decode_inline(raw, sh); }

uint8_t ual_sh_encode(bool alt, bool tl_start, unsigned m0, unsigned m1) {
  uint8_t b = 0;
  ual_field_put(UAL_F_SH_ALT, &b, alt);
  ual_field_put(UAL_F_SH_TLBEAT, &b, tl_start ? ual_tlbeat_code(m0, m1) : UAL_TLBEAT_CODE_NONE);
  return b;
}

const char *ual_dllp_name_str(enum ual_dllp_name n) {
  static const char *const s[] = { "nop2", "nop", "pm_enter_l1", "pm_request_ack", "link_mgmt", "other" };
  return (unsigned)n <= UAL_DN_OTHER ? s[n] : "other";
}

static enum ual_dllp_name dllp_name_of(uint8_t type) {
  switch (type) {
  case UAL_DLLP_NOP2: return UAL_DN_NOP2;
  case UAL_DLLP_NOP: return UAL_DN_NOP;
  case UAL_DLLP_PM_ENTER_L1: return UAL_DN_PM_ENTER_L1;
  case UAL_DLLP_PM_REQUEST_ACK: return UAL_DN_PM_REQUEST_ACK;
  case UAL_DLLP_LINK_MGMT: return UAL_DN_LINK_MGMT;
  default: return UAL_DN_OTHER;
  }
}

void ual_dllp_decode(const uint8_t *b4, struct ual_dllp *d) {
  memset(d, 0, sizeof *d);
  memcpy(d->b, b4, 4);
  d->type = (uint8_t)ual_field_get(UAL_F_PCIE_FDLLP_TYPE, b4);
  d->name = (uint8_t)dllp_name_of(d->type);
  if (d->type == UAL_DLLP_LINK_MGMT) {
    d->lm_type = (uint8_t)ual_field_get(UAL_F_PCIE_LM_TYPE, b4);
    d->lm_priority = (uint8_t)ual_field_get(UAL_F_PCIE_LM_PRIO, b4);
    d->lm_cmd = (uint8_t)ual_field_get(UAL_F_PCIE_LM_CMD, b4);
    d->lm_response = (uint8_t)ual_field_get(UAL_F_PCIE_LM_RESP, b4);
    d->lm_width = (uint8_t)ual_field_get(UAL_F_PCIE_LM_WIDTH, b4);
  }
}

void ual_dllp_encode(const struct ual_dllp *d, uint8_t *b4) {
  if (d->type == UAL_DLLP_LINK_MGMT) {
    memset(b4, 0, 4);
    ual_field_put(UAL_F_PCIE_FDLLP_TYPE, b4, d->type);
    ual_field_put(UAL_F_PCIE_LM_TYPE, b4, d->lm_type);
    ual_field_put(UAL_F_PCIE_LM_PRIO, b4, d->lm_priority);
    ual_field_put(UAL_F_PCIE_LM_CMD, b4, d->lm_cmd);
    ual_field_put(UAL_F_PCIE_LM_RESP, b4, d->lm_response);
    ual_field_put(UAL_F_PCIE_LM_WIDTH, b4, d->lm_width);
  } else {
    memcpy(b4, d->b, 4);
    ual_field_put(UAL_F_PCIE_FDLLP_TYPE, b4, d->type);
  }
}

/* First non-zero byte in [from, to), or -1. */
static int first_nonzero(const uint8_t *p, unsigned from, unsigned to) {
  unsigned i = from;
  for (; i + 8 <= to; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    if (w) break;
  }
  for (; i < to; i++)
    if (p[i]) return (int)i;
  return -1;
}

#define DLLP_END (UAL_DLLP_OFFSET + 4)

/* NOP and IDLE flit content checks (Table 3-2, D6). */
static void check_nop_idle(const struct ual_flit_info *fi, struct ual_findings *f) {
  const struct ual_dllp *d = &fi->dllp;
  bool idle = fi->kind == UAL_FK_IDLE;
  int nz = first_nonzero(fi->bytes, DLLP_END, UAL_CRC_OFFSET);

  if (d->type == UAL_DLLP_PM_ENTER_L23 || d->type == UAL_DLLP_PM_AS_REQ_L1)
    ual_findings_add(f, UAL_R_LT_UNSUPPORTED_PM, -1, "DLLP %02xh (%s) is not used by UALink",
                     d->type, ual_field_value_name(UAL_F_PCIE_FDLLP_TYPE, d->type));
  else if (idle && d->name != UAL_DN_NOP2 && d->name != UAL_DN_NOP)
    ual_findings_add(f, UAL_R_PL_IDLE_BODY, -1, "IDLE flit carries DLLP type %02xh", d->type);
  else if (d->name == UAL_DN_OTHER)
    ual_findings_add(f, UAL_R_PL_NOP_DLLP, -1, "DLLP type %02xh not allowed in a NOP flit", d->type);
  if (d->name == UAL_DN_NOP2 && (d->b[1] | d->b[2] | d->b[3]))
    ual_findings_add(f, UAL_R_PL_NOP_DLLP, -1, "NOP2 DLLP bytes 1-3 not zero: %02x %02x %02x",
                     d->b[1], d->b[2], d->b[3]);
  if (d->name == UAL_DN_LINK_MGMT) {
    enum ual_field_id id;
    uint32_t v;
    const uint8_t *b = fi->bytes + UAL_DLLP_OFFSET;
    if (ual_scope_unlisted(UAL_SC_PCIE_FDLLP_LM, b, &id, &v))
      ual_findings_add(f, UAL_R_PL_NOP_DLLP, -1, "Link Management DLLP: reserved %s %u", ual_fields[id].name, v);
    if (ual_scope_reserved_set(UAL_SC_PCIE_FDLLP_LM, b, &id, &v))
      ual_findings_add(f, UAL_R_PL_NOP_DLLP, -1, "Link Management DLLP: reserved bits set (%#x)", v);
    if (d->lm_priority)
      ual_findings_add(f, UAL_R_LT_L0P_PRIORITY, -1, "Link Management DLLP with Priority set");
  }
  if (nz >= 0) {
    if (idle)
      ual_findings_add(f, UAL_R_PL_IDLE_BODY, -1, "IDLE flit byte %d is %02xh, not 0", nz, fi->bytes[nz]);
    else
      ual_findings_add(f, UAL_R_PL_NOP_BODY, -1, "NOP flit byte %d is %02xh, not 0", nz, fi->bytes[nz]);
  }
}

void ual_flit_fec_crc_findings(const struct ual_flit_info *fi, struct ual_findings *f) {
  if (fi->fec.status == UAL_FEC_UNCORRECTABLE) {
    for (int g = 0; g < 3; g++)
      if (fi->fec.group[g] == UAL_FEC_UNCORRECTABLE)
        ual_findings_add(f, UAL_R_PL_FEC_UNCORRECTABLE, -1, "FEC group %d uncorrectable", g);
    return; /* a CRC check after a failed correction says nothing more */
  }
  if (fi->fec.status == UAL_FEC_CORRECTED) {
    char where[48];
    int n = 0;
    for (int g = 0; g < 3; g++)
      if (fi->fec.group[g] == UAL_FEC_CORRECTED)
        n += snprintf(where + n, sizeof where - (size_t)n, "%s%d", n ? "," : "", fi->fec.pos[g]);
    ual_findings_add(f, UAL_R_PL_FEC_CORRECTED, -1, "FEC corrected byte(s) %s", where);
  }
  if (fi->crc_inverted)
    ual_findings_add(f, UAL_R_PL_CRC_INVERTED, -1, "CRC is the inverse of the computed CRC");
  else if (!fi->crc_ok)
    ual_findings_add(f, UAL_R_PL_CRC, -1, "CRC mismatch");
}

static void fec_clean_result(struct ual_fec_result *r) {
  r->status = UAL_FEC_CLEAN;
  r->group[0] = r->group[1] = r->group[2] = UAL_FEC_CLEAN;
  r->pos[0] = r->pos[1] = r->pos[2] = -1;
}

void ual_flit_fec_crc(const uint8_t *raw, struct ual_flit_info *fi) {
  memcpy(fi->bytes, raw, UAL_FLIT_BYTES);
  /* the usual flit, FEC clean and CRC ok, in one pass */
  if (ual_flit_check(raw)) {
    fec_clean_result(&fi->fec);
    memcpy(fi->crc_rx, raw + UAL_CRC_OFFSET, UAL_CRC_BYTES);
    memcpy(fi->crc_calc, fi->crc_rx, UAL_CRC_BYTES);
    fi->crc_ok = fi->valid = true;
    fi->crc_inverted = false;
    return;
  }
  if (ual_fec_clean(fi->bytes)) fec_clean_result(&fi->fec);
  else ual_fec_correct(fi->bytes, &fi->fec);
  memcpy(fi->crc_rx, fi->bytes + UAL_CRC_OFFSET, UAL_CRC_BYTES);
  /* checking is cheaper than computing; a good CRC is the one received */
  fi->crc_ok = ual_crc64_check(fi->bytes);
  fi->crc_inverted = false;
  if (fi->crc_ok) {
    memcpy(fi->crc_calc, fi->crc_rx, UAL_CRC_BYTES);
  } else {
    ual_crc64(fi->bytes, fi->crc_calc);
    fi->crc_inverted = true;
    for (int i = 0; i < UAL_CRC_BYTES; i++)
      if ((fi->crc_calc[i] ^ fi->crc_rx[i]) != 0xFF) { fi->crc_inverted = false; break; }
  }
  fi->valid = fi->fec.status != UAL_FEC_UNCORRECTABLE && fi->crc_ok;
}

enum ual_flit_kind ual_flit_kind_of(const struct ual_fh *fh) {
  if (fh->usage == UAL_USAGE_PAYLOAD) return UAL_FK_PAYLOAD;
  if (fh->usage == UAL_USAGE_NOP_IDLE) return (fh->seq == 0 && fh->replay_cmd == UAL_RC_SEQ) ? UAL_FK_IDLE : UAL_FK_NOP;
  return UAL_FK_RESERVED;
}

void ual_flit_view(const uint8_t *flit, struct ual_flit_view *v) {
  for (int k = 0; k < UAL_SEGMENTS; k++) {
    const struct ual_segment_def *sd = &ual_segs_folded_[k];
    const uint8_t *p = flit + sd->sh_byte + 1u; /* the segment's sectors follow its header (D2) */
    v->sh[k] = flit[sd->sh_byte];
    v->first_dw[k] = ual_get_le32(p);
    /* from the end: a busy segment's last sector is seldom zero, one load */
    unsigned z = 0;
    for (unsigned s = sd->n_sectors; s > 0; s--) {
      uint32_t w;
      memcpy(&w, p + UAL_SECTOR_BYTES * (s - 1u), sizeof w);
      if (w) break;
      z++;
    }
    v->zero_tail[k] = (uint8_t)z;
  }
}

void ual_flit_decode(const uint8_t *raw, struct ual_flit_info *fi, struct ual_findings *f) {
  ual_flit_fec_crc(raw, fi);
  ual_fh_decode(fi->bytes, &fi->fh);
  fi->kind = (uint8_t)ual_flit_kind_of(&fi->fh);

  memset(fi->sh, 0, sizeof fi->sh);
  memset(&fi->view, 0, sizeof fi->view);
  memset(&fi->dllp, 0, sizeof fi->dllp);
  if (fi->kind == UAL_FK_PAYLOAD) {
    for (int k = 0; k < UAL_SEGMENTS; k++)
      ual_sh_decode_inline(fi->bytes[ual_segment_map[k].sh_byte], &fi->sh[k]);
    ual_flit_view(fi->bytes, &fi->view);
  } else if (fi->kind != UAL_FK_RESERVED)
    ual_dllp_decode(fi->bytes + UAL_DLLP_OFFSET, &fi->dllp);

  ual_flit_fec_crc_findings(fi, f);
  if (fi->fec.status == UAL_FEC_UNCORRECTABLE || !fi->crc_ok)
    return; /* content of an invalid flit is not judged */

  switch (fi->kind) {
  case UAL_FK_RESERVED:
    ual_findings_add(f, UAL_R_PL_USAGE, -1, "reserved Flit Usage %u%u%ub",
                     fi->fh.usage >> 2 & 1, fi->fh.usage >> 1 & 1, fi->fh.usage & 1);
    break;
  case UAL_FK_PAYLOAD:
    if (fi->fh.replay_cmd == UAL_RC_SEQ && fi->fh.seq == 0)
      ual_findings_add(f, UAL_R_PL_SEQ_ZERO, -1, "payload flit with explicit sequence number 0");
    for (int k = 0; k < UAL_SEGMENTS; k++) {
      if (fi->sh[k].rsvd)
        ual_findings_add(f, UAL_R_DL_SH_RESERVED, k, "SH%d = %02xh has reserved bits set", k, fi->sh[k].raw);
      if (fi->sh[k].tlbeat == UAL_TB_INVALID)
        ual_findings_add(f, UAL_R_DL_TLBEAT, k, "SH%d TLBeat code %02xh is invalid", k, fi->sh[k].tlbeat_code);
    }
    break;
  default:
    check_nop_idle(fi, f);
    break;
  }
}

void ual_flit_build_nop(uint8_t *flit, const struct ual_fh *fh, const struct ual_dllp *d) {
  memset(flit, 0, UAL_FLIT_BYTES);
  struct ual_fh h = *fh;
  h.usage = UAL_USAGE_NOP_IDLE;
  ual_fh_encode(&h, flit);
  ual_dllp_encode(d, flit + UAL_DLLP_OFFSET);
  ual_flit_seal(flit);
}

void ual_flit_build_idle(uint8_t *flit) {
  memset(flit, 0, UAL_FLIT_BYTES);
  ual_flit_seal(flit);
}
