/* The UALink record kinds (kinds.h): flit and ordered-set records decoded,
 * unpacked, shown as a field tree and summarised in one line. */
#include "ualink/ualink/flit.h"
#include "ualink/ualink/os.h"
#include "ualink/ualink/pack.h"
#include "ualink/ualink/dlmsg.h"
#include "ualink/pcie/dllp.h"
#include "core/kind.h"
#include "layout.h"

#define UAL_OS_HDR_BYTES 4u

/* ---- flit (kind 1) ---- */

static bool flit_body_ok(size_t len) { return len == UAL_FLIT_BYTES; }

static void flit_decode(struct ual_rec_result *r) { ual_flit_decode(r->rec.body, &r->flit, &r->findings); }

/* Valid payload flits go through the direction's unpacker. */
static void flit_stream(struct ual_decoder *d, struct ual_rec_result *r) {
  if (!r->flit.valid || r->flit.kind != UAL_FK_PAYLOAD) return;
  ual_unpack_flit_viewed(&d->unpack[r->dir], &r->flit.view, r->flit.bytes, true, r->frame, &r->unp, &r->findings);
  r->unpacked = true;
}

/* Whether a walk wants anything of a DL message: a quiet walk for a
 * filter skips decoding the messages nobody asked for. */
static bool wants_message(const struct ual_tree_builder *w) {
  if (!w->scopes || (w->scopes[UAL_SC_GEN] && (!w->fields || w->fields[UAL_F_GEN_MSG_TYPE]))) return true;
  for (int sc = UAL_SC_MSG; sc <= UAL_SC_MSG_UART_RESET_RSP; sc++)
    if (w->scopes[sc]) return true;
  return false;
}

static void message(struct ual_tree_builder *w, unsigned depth, unsigned off) {
  struct ual_dlmsg m;
  ual_dlmsg_decode(ual_get_le32(w->rec + off), &m);
  ual_tb_group(w, depth, "DL message", off, 4, "%s (0x%08x)", ual_msg_types[m.type].display, m.dw);
  ual_tb_scope(w, depth + 1, UAL_SC_MSG, off);
  ual_tb_field(w, depth + 1, UAL_F_GEN_MSG_TYPE, off, m.type);
  if (m.type != UAL_MT_RESERVED) ual_tb_scope(w, depth + 1, (enum ual_scope)ual_msg_types[m.type].scope, off);
}

static void payload_segments(struct ual_tree_builder *w, const struct ual_rec_result *r, unsigned flit) {
  const struct ual_flit_info *fi = &r->flit;
  if (w->quiet && !ual_tb_wants(w, UAL_SC_SH) && !wants_message(w)) return;
  for (int k = 0; k < UAL_SEGMENTS; k++) {
    const struct ual_segment_def *sd = &ual_segment_map[k];
    unsigned sh = flit + sd->sh_byte;
    ual_tb_group(w, 1, "Segment", sh, 1u + UAL_SECTOR_BYTES * sd->n_sectors, "%d: SH %02xh, sectors %u-%u", k,
                 fi->sh[k].raw, sd->first_sector, sd->first_sector + sd->n_sectors - 1u);
    ual_tb_scope(w, 2, UAL_SC_SH, sh);
    if (!fi->sh[k].alt) continue;
    unsigned off = flit + ual_sector_offset(sd->first_sector);
    unsigned role = r->unpacked ? r->unp.alt_role[k] : UAL_ALT_MESSAGE;
    if (role == UAL_ALT_UART_PAYLOAD)
      ual_tb_group(w, 2, "UART payload DWord", off, 4, "0x%08x (sector %u)", ual_get_le32(w->rec + off), sd->first_sector);
    else if (role == UAL_ALT_UNSYNCED) {        /* shown as a message would be, under what is known */
      ual_tb_group(w, 2, "Alternate sector DWord", off, 4, "0x%08x (sector %u): message or UART payload, not yet known",
                   ual_get_le32(w->rec + off), sd->first_sector);
      message(w, 3, off);
    } else
      message(w, 2, off);
  }
}

static uint64_t gen_crc_calc(const struct ual_rec_result *r) { return ual_crc64_value(r->flit.crc_calc); }
static uint64_t gen_crc_ok(const struct ual_rec_result *r) { return r->flit.crc_ok; }
static uint64_t gen_fec(const struct ual_rec_result *r) { return r->flit.fec.status; }
uint64_t ual_flit_gen_usage(const struct ual_rec_result *r) { return r->flit.fh.usage; }
uint64_t ual_flit_gen_kind(const struct ual_rec_result *r) { return r->flit.kind; }

#define UAL_FLIT_ UAL_REC_HDR_BYTES

static const struct ual_fixed_row flit_header_rows[] = {
  UAL_FIXED_SCOPE(UAL_SC_FH, UAL_FLIT_),
  UAL_FIXED_GEN(UAL_F_GEN_USAGE, UAL_FLIT_, ual_flit_gen_usage),
  UAL_FIXED_GEN(UAL_F_GEN_KIND, UAL_FLIT_, ual_flit_gen_kind),
};
static const struct ual_fixed_rows flit_header = UAL_FIXED_ROWS(flit_header_rows);

static const struct ual_fixed_row crc_fec_rows[] = {
  UAL_FIXED_SCOPE(UAL_SC_FLIT, UAL_FLIT_),
  UAL_FIXED_GEN(UAL_F_GEN_CRC_CALC, UAL_FLIT_ + UAL_CRC_OFFSET, gen_crc_calc),
  UAL_FIXED_GEN(UAL_F_GEN_CRC_OK, UAL_FLIT_ + UAL_CRC_OFFSET, gen_crc_ok),
  UAL_FIXED_GEN(UAL_F_GEN_FEC, UAL_FLIT_ + UAL_FEC_OFFSET, gen_fec),
};
const struct ual_fixed_rows ual_fixed_flit_crc_fec = UAL_FIXED_ROWS(crc_fec_rows);

static void flit_tree(struct ual_tree_builder *w, const struct ual_rec_result *r) {
  const struct ual_flit_info *fi = &r->flit;
  const unsigned flit = UAL_FLIT_;
  ual_tb_group(w, 0, "Flit", flit, UAL_FLIT_BYTES, "%s, %s %u, FEC %s, CRC %s", ual_flit_kind_name(fi->kind),
               ual_replay_cmd_name(fi->fh.replay_cmd), fi->fh.seq, ual_fec_status_name(fi->fec.status),
               fi->crc_ok ? "ok" : "bad");
  ual_tb_group(w, 1, "Flit header", flit, 2, "%02x %02x", w->rec[flit], w->rec[flit + 1]);
  ual_tb_fixed(w, 2, &flit_header);
  if (fi->kind == UAL_FK_PAYLOAD) {
    payload_segments(w, r, flit);
  } else if (fi->kind != UAL_FK_RESERVED) {
    unsigned d = flit + UAL_DLLP_OFFSET;
    ual_tb_group(w, 1, "DLLP", d, 4, "%s", ual_dllp_name_str((enum ual_dllp_name)fi->dllp.name));
    ual_tb_fdllp(w, 2, fi->dllp.type, d);   /* PCIe's flit-mode DLLP rows */
  }
  ual_tb_flit_crc_fec(w, r);
}

void ual_tb_flit_crc_fec(struct ual_tree_builder *w, const struct ual_rec_result *r) {
  ual_tb_group(w, 1, "CRC and FEC", UAL_FLIT_ + UAL_CRC_OFFSET, UAL_CRC_BYTES + UAL_FEC_BYTES, "%s",
               r->flit.valid ? "valid" : "not valid");
  ual_tb_fixed(w, 2, &ual_fixed_flit_crc_fec);
}

static const struct ual_fixed_rows *const flit_fixed[] = { &flit_header, &ual_fixed_flit_crc_fec, NULL };

static void flit_summary(struct ual_text *o, const struct ual_rec_result *r) {
  const struct ual_flit_info *fi = &r->flit;
  ual_text_put(o, "%s", ual_flit_kind_name(fi->kind));
  if (fi->kind != UAL_FK_IDLE)
    ual_text_put(o, " %s %u", ual_replay_cmd_name(fi->fh.replay_cmd), fi->fh.seq);
  if (fi->fec.status != UAL_FEC_CLEAN) ual_text_put(o, " FEC:%s", ual_fec_status_name(fi->fec.status));
  if (!fi->crc_ok) ual_text_put(o, " CRC:%s", fi->crc_inverted ? "inverted" : "bad");
  if (fi->kind == UAL_FK_NOP || (fi->kind == UAL_FK_IDLE && fi->dllp.type != UAL_DLLP_NOP2))
    ual_text_put(o, " | %s", ual_field_value_name(UAL_F_PCIE_FDLLP_TYPE, fi->dllp.type)
                                 ? ual_field_value_name(UAL_F_PCIE_FDLLP_TYPE, fi->dllp.type) : "DLLP?");
  if (fi->kind == UAL_FK_NOP && fi->dllp.type == UAL_DLLP_LINK_MGMT)
    ual_text_put(o, " %s width=%u", ual_field_value_name(UAL_F_PCIE_LM_CMD, fi->dllp.lm_cmd)
                                        ? ual_field_value_name(UAL_F_PCIE_LM_CMD, fi->dllp.lm_cmd) : "cmd?",
                 fi->dllp.lm_width);
  if (!r->unpacked) return;
  const struct ual_unpack_out *u = &r->unp;
  if (u->tl_started || u->n_tl) {
    ual_text_put(o, " | TL");
    if (u->tl_started) ual_text_put(o, " +%u", u->tl_started);
    if (u->n_tl) ual_text_put(o, " -%u", u->n_tl);
  }
  for (unsigned i = 0; i < u->n_msg; i++) {
    char m[96];
    ual_dlmsg_summary(&u->msg[i].msg, m, sizeof m);
    ual_text_put(o, " | %s", m);
  }
}

/* ---- ordered set (kind 2) ---- */

static bool os_body_ok(size_t len) {
  return len >= UAL_OS_HDR_BYTES && len - UAL_OS_HDR_BYTES <= UAL_OS_MAX_SYMBOLS;
}

static void os_decode(struct ual_rec_result *r) {
  if (ual_os_decode(r->rec.body, r->rec.body_len, &r->os) == 0) {
    /* a PCIe link's training sets (the PCIe role encoding) need no UALink Flit Mode */
    if (!r->rec.h.roles_pcie) ual_os_check(&r->os, &r->findings);
  } else
    r->os.type = UAL_OS_UNKNOWN;
}

static void os_tree(struct ual_tree_builder *w, const struct ual_rec_result *r) {
  const struct ual_os *os = &r->os;
  const unsigned body = UAL_REC_HDR_BYTES, sym = body + 4;
  ual_tb_group(w, 0, "Ordered set", body, (unsigned)r->rec.body_len, "%s, %s, lane %u", ual_os_type_name(os->type),
               ual_os_encoding_name(os->encoding), os->lane);
  ual_tb_scope(w, 1, UAL_SC_OS, body);
  ual_tb_field(w, 1, UAL_F_GEN_OS_TYPE, sym, os->type);
  if ((os->type == UAL_OS_TS1 || os->type == UAL_OS_TS2) && os->n >= 16) {
    ual_tb_scope(w, 1, UAL_SC_TS, sym);
    if (os->type == UAL_OS_TS1 && os->encoding != UAL_ENC_8B10B) ual_tb_scope(w, 1, UAL_SC_TS_EQ, sym);
    if (os->modified) ual_tb_scope(w, 1, UAL_SC_MTS, sym);
  }
}

/* A Link or Lane Number: its name from the field table (PAD), else the number. */
static void ts_number(struct ual_text *o, const char *label, enum ual_field_id id, unsigned v) {
  const char *n = ual_field_value_name(id, v);
  if (n) ual_text_put(o, " %s %s", label, n);
  else ual_text_put(o, " %s %u", label, v);
}

static void os_summary(struct ual_text *o, const struct ual_rec_result *r) {
  ual_text_put(o, "%s %s lane %u", ual_os_type_name(r->os.type), ual_os_encoding_name(r->os.encoding), r->os.lane);
  if (r->os.type == UAL_OS_TS1 || r->os.type == UAL_OS_TS2) {
    ts_number(o, "link", UAL_F_TS_LINK, r->os.link_number);
    ts_number(o, "lane#", UAL_F_TS_LANE, r->os.lane_number);
    ual_text_put(o, " rates %s%s", ual_field_value_name(UAL_F_TS_SPEEDS, r->os.speeds), r->os.flit_mode ? " flit" : "");
    if (r->os.modified) ual_text_put(o, " modified usage %u vendor %04xh", r->os.mts_usage, r->os.vendor_id);
  }
}

const struct ual_kind ual_kind_ualink_flit = {
  "flit", "flit", flit_body_ok, flit_decode, flit_stream, flit_tree, flit_summary, NULL, NULL, flit_fixed, UAL_SC_REC, NULL,
};

const struct ual_kind ual_kind_ualink_os = {
  "ordered set", "os", os_body_ok, os_decode, NULL, os_tree, os_summary, NULL, NULL, NULL, UAL_SC_REC, NULL,
};
