/* --json: one object per record, docs/json.md. The per-type
 * DL message and Link Management keys come from the field table: every
 * non-reserved field of the scope, named by its filter-name suffix. */
#include "dcli.h"
#include "json.h"

#include <inttypes.h>
#include <string.h>

static const char *const dir_name[2] = { "A>B", "B>A" };

/* "ualink.link_width.target" -> "target" */
static const char *field_key(enum ual_field_id id) {
  const char *a = ual_fields[id].abbrev, *dot = strrchr(a, '.');
  return dot ? dot + 1 : a;
}

/* A field's member: an integer, an ID as people write it ("01:00.0"). */
static void field_member(struct dc_out *o, bool *first, const char *key, enum ual_field_id id, uint64_t v) {
  if (ual_fields[id].flags & UAL_FF_BDF) {
    char t[16];
    ual_field_format(id, v, t, sizeof t);
    dc_json_str(o, first, key, t);
  } else {
    dc_json_u64(o, first, key, v);
  }
}

/* Non-reserved wire fields of a scope as integer members, keys prefixed. */
static void scope_members(struct dc_out *o, bool *first, enum ual_scope sc, const uint8_t *base,
                          const char *prefix) {
  enum ual_field_id ids[32];
  size_t n = ual_scope_fields(sc, ids, 32);
  for (size_t i = 0; i < n && i < 32; i++) {
    const struct ual_field *fd = &ual_fields[ids[i]];
    if ((fd->flags & UAL_FF_RESERVED) || fd->size == 0) continue;
    char key[48];
    snprintf(key, sizeof key, "%s%s", prefix, field_key(ids[i]));
    field_member(o, first, key, ids[i], ual_field_get(ids[i], base));
  }
}

static void findings(struct dc_out *o, const struct ual_findings *fs) {
  dc_out_ch(o, '[');
  for (unsigned i = 0; i < fs->n; i++) {
    const struct ual_finding *x = &fs->v[i];
    bool f = true;
    if (i) dc_out_ch(o, ',');
    dc_out_ch(o, '{');
    dc_json_str(o, &f, "rule", ual_rule_id((enum ual_rule)x->rule));
    dc_json_str(o, &f, "severity", ual_severity_name(ual_rule_severity((enum ual_rule)x->rule)));
    dc_json_str(o, &f, "msg", x->msg);
    if (x->segment >= 0) dc_json_u64(o, &f, "segment", (uint64_t)x->segment);
    dc_out_ch(o, '}');
  }
  dc_out_ch(o, ']');
}

static void dl_msg(struct dc_out *o, const struct ual_dl_item *it) {
  const struct ual_dlmsg *m = &it->msg;
  unsigned t = m->type < UAL_MT_COUNT ? m->type : UAL_MT_RESERVED;
  const struct ual_msg_type_info *ti = &ual_msg_types[t];
  uint8_t b[4] = { (uint8_t)m->dw, (uint8_t)(m->dw >> 8), (uint8_t)(m->dw >> 16), (uint8_t)(m->dw >> 24) };
  bool f = true;
  dc_out_ch(o, '{');
  dc_json_u64(o, &f, "start_frame", it->start_frame);
  dc_json_u64(o, &f, "segment", it->segment);
  dc_json_key(o, &f, "dw");
  dc_json_dw(o, m->dw);
  dc_json_str(o, &f, "mclass", ual_mclass_name(m->mclass));
  dc_json_str(o, &f, "mtype", ti->json);
  if (t != UAL_MT_RESERVED) {
    scope_members(o, &f, (enum ual_scope)ti->scope, b, "");
    if (ti->mclass == UAL_MCLASS_CONTROL) dc_json_str(o, &f, "command_name", ual_ctrl_cmd_name(m->command));
  }
  if (t == UAL_MT_UART_TRANSPORT) {
    dc_json_key(o, &f, "payload");
    dc_out_ch(o, '[');
    for (unsigned i = 0; i < it->n_payload && i < UAL_UART_MAX_PAYLOAD; i++) {
      if (i) dc_out_ch(o, ',');
      dc_json_dw(o, it->payload[i]);
    }
    dc_out_ch(o, ']');
  }
  dc_out_ch(o, '}');
}

/* The members both flit kinds (UALink 1, PCIe 5) have: the flit header
 * (PCIe: DLP0/1), CRC-64 and FEC. */
static void flit_common(struct dc_out *o, bool *first, const struct ual_flit_info *fi) {
  bool f = *first;
  dc_json_str(o, &f, "usage", ual_flit_kind_name((enum ual_flit_kind)fi->kind));
  dc_json_u64(o, &f, "usage_raw", fi->fh.usage);
  dc_json_bool(o, &f, "prior_payload", fi->fh.prior_payload);
  dc_json_str(o, &f, "replay_cmd", ual_replay_cmd_name((enum ual_replay_cmd)fi->fh.replay_cmd));
  dc_json_u64(o, &f, "seq", fi->fh.seq);
  dc_json_bool(o, &f, "crc_ok", fi->crc_ok);
  /* the CRC-64 value as -V, the TUI and Wireshark show it (ual_crc64_value) */
  char crc[24];
  ual_field_format(UAL_F_FLIT_CRC, ual_crc64_value(fi->crc_rx), crc, sizeof crc);
  dc_json_str(o, &f, "crc_rx", crc);
  ual_field_format(UAL_F_GEN_CRC_CALC, ual_crc64_value(fi->crc_calc), crc, sizeof crc);
  dc_json_str(o, &f, "crc_calc", crc);
  dc_json_str(o, &f, "fec", ual_fec_status_name((enum ual_fec_status)fi->fec.status));
  dc_json_key(o, &f, "fec_groups");
  dc_out_ch(o, '[');
  for (int g = 0; g < 3; g++) {
    bool h = true;
    if (g) dc_out_ch(o, ',');
    dc_out_ch(o, '{');
    dc_json_str(o, &h, "status", ual_fec_status_name((enum ual_fec_status)fi->fec.group[g]));
    dc_json_key(o, &h, "pos");
    if (fi->fec.pos[g] >= 0) dc_out_i64(o, fi->fec.pos[g]);
    else dc_out_str(o, "null");
    dc_out_ch(o, '}');
  }
  dc_out_ch(o, ']');
  *first = f;
}

static void flit(struct dc_out *o, const struct ual_rec_result *r) {
  const struct ual_flit_info *fi = &r->flit;
  bool f = true;
  dc_out_ch(o, '{');
  flit_common(o, &f, fi);
  if (fi->kind == UAL_FK_PAYLOAD) {
    dc_json_key(o, &f, "segments");
    dc_out_ch(o, '[');
    for (int k = 0; k < UAL_SEGMENTS; k++) {
      const struct ual_sh *sh = &fi->sh[k];
      bool h = true;
      if (k) dc_out_ch(o, ',');
      dc_out_ch(o, '{');
      dc_json_u64(o, &h, "sh", sh->raw);
      dc_json_bool(o, &h, "alt", sh->alt);
      dc_json_str(o, &h, "tlbeat", ual_tlbeat_name((enum ual_tlbeat)sh->tlbeat));
      dc_json_u64(o, &h, "m0", sh->m0);
      dc_json_u64(o, &h, "m1", sh->m1);
      dc_out_ch(o, '}');
    }
    dc_out_ch(o, ']');
  } else if (fi->kind == UAL_FK_NOP || fi->kind == UAL_FK_IDLE) {
    const struct ual_dllp *d = &fi->dllp;
    bool h = true;
    dc_json_key(o, &f, "dllp");
    dc_out_ch(o, '{');
    dc_json_u64(o, &h, "type", d->type);
    dc_json_str(o, &h, "name", ual_dllp_name_str((enum ual_dllp_name)d->name));
    dc_json_hex(o, &h, "bytes", d->b, 4);
    if (d->type == UAL_DLLP_LINK_MGMT) scope_members(o, &h, UAL_SC_PCIE_FDLLP_LM, d->b, "lm_");
    dc_out_ch(o, '}');
  }
  const struct ual_unpack_out *u = &r->unp;
  unsigned n_msg = r->unpacked ? u->n_msg : 0, n_tl = r->unpacked ? u->n_tl : 0;
  dc_json_key(o, &f, "dl_msgs");
  dc_out_ch(o, '[');
  for (unsigned i = 0; i < n_msg; i++) {
    if (i) dc_out_ch(o, ',');
    dl_msg(o, &u->msg[i]);
  }
  dc_out_ch(o, ']');
  dc_json_key(o, &f, "tl_flits");
  dc_out_ch(o, '[');
  for (unsigned i = 0; i < n_tl; i++) {
    const struct ual_tl_flit *t = &u->tl[i];
    bool h = true;
    if (i) dc_out_ch(o, ',');
    dc_out_ch(o, '{');
    dc_json_u64(o, &h, "m0", t->m0);
    dc_json_u64(o, &h, "m1", t->m1);
    dc_json_hex(o, &h, "data", t->data, UAL_TL_FLIT_BYTES);
    dc_json_u64(o, &h, "start_frame", t->start_frame);
    dc_json_u64(o, &h, "start_segment", t->start_segment);
    dc_out_ch(o, '}');
  }
  dc_out_ch(o, ']');
  if (r->unpacked) {
    dc_json_u64(o, &f, "tl_started", u->tl_started);
    dc_json_u64(o, &f, "tl_owed", u->tl_owed);
  }
  dc_out_ch(o, '}');
}

static void ordered_set(struct dc_out *o, const struct ual_os *os) {
  bool f = true;
  dc_out_ch(o, '{');
  dc_json_u64(o, &f, "lane", os->lane);
  dc_json_str(o, &f, "encoding", ual_os_encoding_name(os->encoding)); /* "unknown" beyond 0..2 */
  dc_json_u64(o, &f, "encoding_raw", os->encoding);
  dc_json_str(o, &f, "type", ual_os_type_name(os->type));
  dc_json_hex(o, &f, "symbols", os->sym, os->n <= UAL_OS_MAX_SYMBOLS ? os->n : UAL_OS_MAX_SYMBOLS);
  if (os->type == UAL_OS_TS1 || os->type == UAL_OS_TS2) {
    dc_json_u64(o, &f, "link_number", os->link_number);
    dc_json_u64(o, &f, "lane_number", os->lane_number);
    dc_json_u64(o, &f, "n_fts", os->n_fts);
    dc_json_u64(o, &f, "rate_id", os->rate_id);
    dc_json_bool(o, &f, "flit_mode", os->flit_mode);
    dc_json_u64(o, &f, "training_control", os->training_control);
    dc_json_bool(o, &f, "modified", os->modified);
    if (os->modified) {
      dc_json_u64(o, &f, "usage", os->mts_usage);
      dc_json_u64(o, &f, "vendor_id", os->vendor_id);
    }
  }
  dc_out_ch(o, '}');
}

/* A kind-4 record: the DLLP's fields by the field table, named as there. */
static void pcie_dllp(struct dc_out *o, const struct ual_rec_result *r) {
  const struct ual_pcie_dllp *p = &r->pcie;
  const uint8_t *dl = r->rec.body + UAL_PCIE_DLLP_OFF;
  bool f = true;
  dc_out_ch(o, '{');
  const char *fr = ual_field_value_name(UAL_F_PCIE_FRAMING, p->framing);
  dc_json_str(o, &f, "framing", fr ? fr : "reserved");
  dc_json_str(o, &f, "name", ual_pcie_dllp_name_str(p->name));
  scope_members(o, &f, UAL_SC_PCIE_DLLP, dl, "");
  if (p->layout != UAL_PCIE_L_PM)   /* reserved types: bytes 1-3 raw */
    scope_members(o, &f, (enum ual_scope)ual_pcie_layout_scope(p->layout), dl, "");
  if (p->layout == UAL_PCIE_L_FC) {
    const char *cl = ual_field_value_name(UAL_F_PCIE_GEN_CLASS, p->fc_class);
    dc_json_str(o, &f, "fc_class", cl ? cl : "?");
    dc_json_u64(o, &f, "hdr_credits", (uint64_t)p->hdr_fc * ual_pcie_scale_factor(p->hdr_scale));
    dc_json_u64(o, &f, "data_credits", (uint64_t)p->data_fc * ual_pcie_scale_factor(p->data_scale));
  }
  dc_json_u64(o, &f, "crc_calc", p->crc_calc);
  dc_json_key(o, &f, "crc_ok");
  dc_out_str(o, p->crc_ok ? "true" : "false");
  dc_out_ch(o, '}');
}

/* Wire fields of a scope in a TLP's held header (avail bytes from base),
 * named by their filter-name suffix; the address fields are left to
 * "address". */
static void tlp_members(struct dc_out *o, bool *first, enum ual_scope sc, const uint8_t *base, unsigned avail) {
  enum ual_field_id ids[32];
  size_t n = ual_scope_fields(sc, ids, 32);
  for (size_t i = 0; i < n && i < 32; i++) {
    const struct ual_field *fd = &ual_fields[ids[i]];
    if ((fd->flags & UAL_FF_RESERVED) || !fd->size || fd->offset + fd->size > avail) continue;
    if (ids[i] == UAL_F_PCIE_A32_ADDR || ids[i] == UAL_F_PCIE_A64_ADDR) continue;
    field_member(o, first, field_key(ids[i]), ids[i], ual_field_shown(ids[i], ual_field_get(ids[i], base)));
  }
}

/* One TLP of a PCIe flit record (docs/json.md). */
static void pcie_tlp(struct dc_out *o, const struct ual_pcie_tlp_rec *x, uint64_t frame, const uint8_t *flit) {
  const struct ual_pcie_tlp *t = &x->t;
  const uint8_t *dw0 = ual_pcie_tlp_dw0(t);
  const struct ual_pcie_tlp_type *ty = ual_pcie_tlp_type(dw0[0]);
  unsigned avail = ual_pcie_tlp_dw0_bytes(t);
  bool f = true;
  dc_out_ch(o, '{');
  dc_json_str(o, &f, "name", ty->name ? ty->name : "reserved");
  tlp_members(o, &f, UAL_SC_PCIE_TLP, dw0, avail);
  switch (ty->hdr) {
  case UAL_TLP_H_MEM: case UAL_TLP_H_CFG: tlp_members(o, &f, UAL_SC_PCIE_TLP_REQ, dw0, avail); break;
  case UAL_TLP_H_MSG: tlp_members(o, &f, UAL_SC_PCIE_TLP_MSG, dw0, avail); break;
  case UAL_TLP_H_CPL: tlp_members(o, &f, UAL_SC_PCIE_TLP_CPL, dw0, avail); break;
  default: break;
  }
  if (ty->hdr == UAL_TLP_H_CFG) tlp_members(o, &f, UAL_SC_PCIE_TLP_CFG, dw0, avail);
  if (ty->hdr == UAL_TLP_H_MEM) {
    bool a64 = ty->route == UAL_TLP_RT_A64;
    tlp_members(o, &f, a64 ? UAL_SC_PCIE_TLP_A64 : UAL_SC_PCIE_TLP_A32, dw0, avail);
    if (avail >= (a64 ? 16u : 12u)) {
      char a[24];
      enum ual_field_id id = a64 ? UAL_F_PCIE_A64_ADDR : UAL_F_PCIE_A32_ADDR;
      snprintf(a, sizeof a, "0x%016" PRIx64, ual_field_shown(id, ual_field_get(id, dw0)));
      dc_json_str(o, &f, "address", a);
    }
  }
  unsigned ohc = (unsigned)ual_field_get(UAL_F_PCIE_TLP_OHC, dw0), w = 4u * t->size.base_dw;
  const int sc[3] = { ual_pcie_ohc_a_scope(dw0[0]), UAL_SC_PCIE_OHC_B, UAL_SC_PCIE_OHC_C };
  for (unsigned k = 0; k < 3; k++) {
    if (!(ohc >> k & 1)) continue;
    if (sc[k] >= 0 && w + 4 <= avail) {
      enum ual_field_id first;
      ual_scope_span((enum ual_scope)sc[k], &first);
      char key[16];   /* "pcie.ohc_a3.dsv" -> "ohc_a3" */
      const char *a = ual_fields[first].abbrev + 5, *dot = strchr(a, '.');
      snprintf(key, sizeof key, "%.*s", dot ? (int)(dot - a) : 0, a);
      bool h = true;
      dc_json_key(o, &f, key);
      dc_out_ch(o, '{');
      tlp_members(o, &h, (enum ual_scope)sc[k], dw0 + w, 4);
      dc_out_ch(o, '}');
    }
    w += 4;
  }
  dc_json_u64(o, &f, "prefixes", t->prefix_dw);
  dc_json_u64(o, &f, "size_dw", t->size.total_dw);
  dc_json_u64(o, &f, "payload_dw", t->size.payload_dw);
  dc_json_u64(o, &f, "start_frame", x->start_frame ? x->start_frame : frame);
  int at = ual_pcie_tlp_byte_at(t, 0, 0);
  dc_json_key(o, &f, "start_dw");
  if (at >= 0) dc_out_u64(o, (unsigned)at / 4u);
  else dc_out_str(o, "null");
  dc_json_u64(o, &f, "end_dw", t->end_dw);
  unsigned poff, plen, pfrom;
  if (ual_pcie_tlp_payload_at(t, 0, &poff, &plen, &pfrom)) {   /* offsets in the flit */
    dc_json_hex(o, &f, "data", flit + poff, plen);
    dc_json_u64(o, &f, "data_offset", pfrom);
  }
  const char *lk = ual_field_value_name(UAL_F_PCIE_GEN_TLP_LINK, x->link);
  dc_json_key(o, &f, "transaction");
  if (lk) dc_json_string(o, lk);
  else dc_out_str(o, "null");
  if (x->link == UAL_PCIE_LK_CPL || x->link == UAL_PCIE_LK_CPL_PART) {
    dc_json_u64(o, &f, "response_to", x->peer_frame);
    dc_json_u64(o, &f, "latency_ns", x->latency_ns);
  }
  dc_out_ch(o, '}');
}

/* A PCIe flit (kind 5): DLP0/1, CRC and FEC as a UALink flit has them, the
 * flit-mode DLLP of DLP2-5 and the TLPs the walk completed here. */
static void pcie_flit(struct dc_out *o, const struct ual_rec_result *r) {
  const struct ual_flit_info *fi = &r->flit;
  const struct ual_dllp *d = &fi->dllp;
  const struct ual_pcie_tlps *tl = &r->tlps;
  bool f = true, h = true;
  dc_out_ch(o, '{');
  flit_common(o, &f, fi);
  dc_json_key(o, &f, "dllp");
  dc_out_ch(o, '{');
  dc_json_u64(o, &h, "type", d->type);
  const char *dn = ual_field_value_name(UAL_F_PCIE_FDLLP_TYPE, d->type);
  dc_json_str(o, &h, "name", dn ? dn : "reserved");
  dc_json_hex(o, &h, "bytes", d->b, 4);
  if (d->type == UAL_DLLP_LINK_MGMT) scope_members(o, &h, UAL_SC_PCIE_FDLLP_LM, d->b, "lm_");
  dc_out_ch(o, '}');
  dc_json_key(o, &f, "tlps");
  dc_out_ch(o, '[');
  for (unsigned i = 0; i < tl->n; i++) {
    if (i) dc_out_ch(o, ',');
    pcie_tlp(o, &tl->v[i], r->frame, r->rec.body);
  }
  dc_out_ch(o, ']');
  dc_json_u64(o, &f, "tlps_dropped", tl->dropped);
  dc_json_u64(o, &f, "nops", tl->nops);
  dc_json_key(o, &f, "synced_at");
  if (tl->synced_at >= 0) dc_out_u64(o, (unsigned)tl->synced_at);
  else dc_out_str(o, "null");
  dc_out_ch(o, '}');
}

/* A UB flit (kind 6): where it sits, its block check and what completed. */
static void ub_flit(struct dc_out *o, const struct ual_rec_result *r) {
  const struct ual_ub_flit *u = &r->ub;
  bool f = true;
  dc_out_ch(o, '{');
  dc_json_str(o, &f, "mode", ual_field_value_name(UAL_F_UB_GEN_MODE, u->mode));
  dc_json_str(o, &f, "role", ual_field_value_name(UAL_F_UB_GEN_ROLE, u->role));
  dc_json_u64(o, &f, "block_flits", u->block_flits);
  dc_json_u64(o, &f, "flit_in_block", u->flit_in_block);
  if (u->role == UAL_UB_FR_LPH || u->role == UAL_UB_FR_LBH) {
    dc_json_u64(o, &f, "crd", u->hdr_crd);
    dc_json_u64(o, &f, "crd_vl", u->hdr_crd_vl);
    dc_json_u64(o, &f, "ack", u->hdr_ack);
  }
  if (u->crc_checked) {
    dc_json_key(o, &f, "bcrc_ok");
    dc_out_str(o, u->crc_ok ? "true" : "false");
    dc_json_u64(o, &f, "crc30", u->crc_rx);
    dc_json_u64(o, &f, "crc30_calc", u->crc_calc);
  }
  if (u->unit.kind) {
    const struct ual_ub_unit *n = &u->unit;
    bool h = true;
    dc_json_key(o, &f, n->kind == UAL_UB_UNIT_DLLDP ? "dlldp" : "dllcb");
    dc_out_ch(o, '{');
    dc_json_u64(o, &h, "first_frame", n->first_frame);
    dc_json_u64(o, &h, "flits", n->flits);
    dc_json_u64(o, &h, "error_flag", n->error_flag);
    if (n->kind == UAL_UB_UNIT_DLLDP) {
      dc_json_u64(o, &h, "vl", n->vl);
      dc_json_u64(o, &h, "cfg", n->cfg);
      dc_json_u64(o, &h, "blocks", n->blocks);
      dc_json_u64(o, &h, "payload_len", n->payload_len);
    } else {
      dc_json_str(o, &h, "name", ual_ub_cb_name((enum ual_ub_cb_type)n->cb.type));
      dc_json_u64(o, &h, "code", n->cb.code);
      static const enum ual_scope sc[UAL_UB_CB_UNKNOWN + 1] = {
        [UAL_UB_CB_RETRY_REQ] = UAL_SC_UB_RETRY_REQ, [UAL_UB_CB_RETRY_ACK] = UAL_SC_UB_RETRY_ACK,
        [UAL_UB_CB_CRD_ACK] = UAL_SC_UB_CRD_ACK, [UAL_UB_CB_MODE_CHG] = UAL_SC_UB_MODECHG,
        [UAL_UB_CB_INIT] = UAL_SC_UB_INIT0,
      };
      /* the type's fields of flit 0, keyed by the field table's filter names */
      if (n->cb.type <= UAL_UB_CB_UNKNOWN && sc[n->cb.type] && n->flits == 1)
        scope_members(o, &h, sc[n->cb.type], r->rec.body, "");
      if (n->cb.type == UAL_UB_CB_CRD_ACK) {
        dc_json_u64(o, &h, "t", n->cb.ca.t);
        dc_json_u64(o, &h, "sd", n->cb.ca.sd);
        dc_json_u64(o, &h, "ack_num", n->cb.ca.ack_num);
        dc_json_key(o, &h, "crd_num");
        dc_out_ch(o, '[');
        for (unsigned v = 0; v < UAL_UB_VLS; v++) {
          if (v) dc_out_ch(o, ',');
          dc_out_u64(o, n->cb.ca.crd[v]);
        }
        dc_out_ch(o, ']');
      }
      if (n->cb.type == UAL_UB_CB_INIT) {
        const struct ual_ub_init *in = &n->cb.init;
        dc_json_u64(o, &h, "feature_id", in->feature_id);
        dc_json_u64(o, &h, "rxbuf_vl_share", in->share);
        dc_json_u64(o, &h, "data_ack_grain", in->data_ack_grain);
        dc_json_u64(o, &h, "ctrl_ack_grain", in->ctrl_ack_grain);
        dc_json_u64(o, &h, "flow_ctrl_size", in->flow_ctrl_size);
        dc_json_u64(o, &h, "vl_enable", in->vl_enable);
        dc_json_u64(o, &h, "retry_buf_depth", in->retry_buf_depth);
        dc_json_u64(o, &h, "packet_min_interval", in->min_interval);
      }
    }
    dc_out_ch(o, '}');
  }
  dc_out_ch(o, '}');
}

/* A kind without an object of its own below: its one-line summary and its
 * field rows after the record header as the tree has them, each by its
 * filter name. */
struct tree_json {
  struct dc_out *o;
  bool first;
};

static void tree_field(void *ctx, const struct ual_tree_row *row) {
  struct tree_json *t = ctx;
  if (!row->field || (row->field->size && row->offset < UAL_REC_HDR_BYTES)) return;   /* the header: keys above */
  bool f = true;
  if (!t->first) dc_out_ch(t->o, ',');
  t->first = false;
  dc_out_ch(t->o, '{');
  dc_json_str(t->o, &f, "field", row->field->abbrev);
  dc_json_u64(t->o, &f, "value", row->value);
  const char *n = row->value <= UINT32_MAX ? ual_field_value_name(row->id, (uint32_t)row->value) : NULL;
  if (n) dc_json_str(t->o, &f, "name", n);
  dc_out_ch(t->o, '}');
}

static void generic_record(struct dc_out *o, bool *first, const struct ual_rec_result *r, const uint8_t *rec,
                           size_t len) {
  char sum[256];
  ual_rec_summary(r, sum, sizeof sum);
  dc_json_str(o, first, "summary", sum);
  dc_json_key(o, first, "fields");
  struct tree_json t = { o, true };
  dc_out_ch(o, '[');
  ual_tree_walk_fields(r, rec, len, NULL, NULL, tree_field, &t);
  dc_out_ch(o, ']');
}

void dc_print_json(struct dc_ctx *c, const uint8_t *rec, size_t len, uint64_t ts_ns) {
  const struct ual_rec_result *r = &c->res;
  struct dc_out *o = &c->out;
  bool ok = r->status == UAL_RS_OK || r->status == UAL_RS_RESERVED;
  bool f = true;
  dc_out_ch(o, '{');
  dc_json_u64(o, &f, "frame", r->frame);
  dc_json_u64(o, &f, "ts_ns", ts_ns);
  dc_json_time(o, &f, ts_ns, c->tref.first);
  dc_json_str(o, &f, "dir", dir_name[r->dir & 1]);
  dc_json_key(o, &f, "link");
  if (len >= UAL_REC_HDR_BYTES && r->rec.h.link != 255) dc_out_u64(o, r->rec.h.link);
  else dc_out_str(o, "null");
  dc_json_str(o, &f, "kind", ok ? ual_rec_kind_key(r->rec.h.kind) : "malformed");
  dc_json_u64(o, &f, "len", len);
  if (c->o->hexdump) dc_json_hex(o, &f, "raw", rec, len);
  if (!ok) dc_json_str(o, &f, "error", ual_rec_status_text(r->status));
  dc_json_key(o, &f, "findings");
  findings(o, &r->findings);
  if (ok) {
    switch (r->rec.h.kind) {
    case UAL_REC_FLIT:
      dc_json_key(o, &f, "flit");
      flit(o, r);
      break;
    case UAL_REC_OS:
      dc_json_key(o, &f, "os");
      ordered_set(o, &r->os);
      break;
    case UAL_REC_PCIE_DLLP:
      dc_json_key(o, &f, "dllp");
      pcie_dllp(o, r);
      break;
    case UAL_REC_PCIE_FLIT:
      dc_json_key(o, &f, "pcie_flit");
      pcie_flit(o, r);
      break;
    case UAL_REC_UB_FLIT:
      dc_json_key(o, &f, "ub");
      ub_flit(o, r);
      break;
    case UAL_REC_EVENT: {
      const char *n = ual_event_name(r->ev.code);
      bool h = true;
      dc_json_key(o, &f, "event");
      dc_out_ch(o, '{');
      dc_json_str(o, &h, "name", n ? n : "unknown");
      dc_json_u64(o, &h, "code", r->ev.code);
      dc_json_u64(o, &h, "value", r->ev.value);
      dc_out_ch(o, '}');
      break;
    }
    default:
      generic_record(o, &f, r, rec, len);
      break;
    }
  }
  dc_out_str(o, "}\n");
}
