/* Field tree of a record, from the field table (tree.h). */
#include "ualink/tree.h"
#include "ualink/dlmsg.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct walker {
  ual_tree_cb cb;
  void *ctx;
  const uint8_t *rec;
  size_t len;
};

void ual_field_format(enum ual_field_id id, uint64_t v, char *buf, size_t cap) {
  const struct ual_field *fd = &ual_fields[id];
  const char *name = ual_value_name(fd->vals, (uint32_t)v);
  if (fd->flags & UAL_FF_BOOL)
    snprintf(buf, cap, "%s", v ? "True" : "False");
  else if (name)
    snprintf(buf, cap, "%s (%" PRIu64 ")", name, v);
  else if (fd->vals && (fd->flags & UAL_FF_ENUM))
    snprintf(buf, cap, "reserved (%" PRIu64 ")", v);
  else if (fd->flags & UAL_FF_HEX)
    snprintf(buf, cap, "0x%0*" PRIx64, (fd->width + 3) / 4, v);
  else
    snprintf(buf, cap, "%" PRIu64, v);
}

#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
static void group(struct walker *w, unsigned depth, const char *label, unsigned off,
                  unsigned len, const char *fmt, ...) {
  struct ual_tree_row row = {0};
  row.depth = depth;
  row.label = label;
  row.offset = off;
  row.length = len;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(row.text, sizeof row.text, fmt, ap);
  va_end(ap);
  w->cb(w->ctx, &row);
}

static void one_field(struct walker *w, unsigned depth, enum ual_field_id id, unsigned base,
                      uint64_t value) {
  const struct ual_field *fd = &ual_fields[id];
  struct ual_tree_row row = {0};
  row.depth = depth;
  row.field = fd;
  row.id = id;
  row.label = fd->name;
  row.value = value;
  row.offset = base + fd->offset;
  row.length = fd->size;
  ual_field_format(id, value, row.text, sizeof row.text);
  w->cb(w->ctx, &row);
}

/* Every wire field of a scope whose base is at record offset base. */
static void scope_fields(struct walker *w, unsigned depth, enum ual_scope sc, unsigned base) {
  enum ual_field_id ids[32];
  size_t n = ual_scope_fields(sc, ids, 32);
  for (size_t i = 0; i < n && i < 32; i++) {
    const struct ual_field *fd = &ual_fields[ids[i]];
    if (base + fd->offset + fd->size > w->len) continue;
    one_field(w, depth, ids[i], base, ual_field_get(ids[i], w->rec + base));
  }
}

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void message(struct walker *w, unsigned depth, unsigned off) {
  struct ual_dlmsg m;
  ual_dlmsg_decode(le32(w->rec + off), &m);
  group(w, depth, "DL message", off, 4, "%s (0x%08x)", ual_msg_types[m.type].display, m.dw);
  scope_fields(w, depth + 1, UAL_SC_MSG, off);
  one_field(w, depth + 1, UAL_F_GEN_MSG_TYPE, off, m.type);
  if (m.type != UAL_MT_RESERVED) scope_fields(w, depth + 1, (enum ual_scope)ual_msg_types[m.type].scope, off);
}

static void payload_segments(struct walker *w, const struct ual_rec_result *r, unsigned flit) {
  const struct ual_flit_info *fi = &r->flit;
  for (int k = 0; k < UAL_SEGMENTS; k++) {
    const struct ual_segment_def *sd = &ual_segment_map[k];
    unsigned sh = flit + sd->sh_byte;
    group(w, 1, "Segment", sh, 1u + UAL_SECTOR_BYTES * sd->n_sectors, "%d: SH %02xh, sectors %u-%u", k,
          fi->sh[k].raw, sd->first_sector, sd->first_sector + sd->n_sectors - 1u);
    scope_fields(w, 2, UAL_SC_SH, sh);
    if (!fi->sh[k].alt) continue;
    unsigned off = flit + ual_sector_offset(sd->first_sector);
    unsigned role = r->unpacked ? r->unp.alt_role[k] : UAL_ALT_MESSAGE;
    if (role == UAL_ALT_UART_PAYLOAD)
      group(w, 2, "UART payload DWord", off, 4, "0x%08x (sector %u)", le32(w->rec + off), sd->first_sector);
    else
      message(w, 2, off);
  }
}

static void flit_tree(struct walker *w, const struct ual_rec_result *r) {
  const struct ual_flit_info *fi = &r->flit;
  const unsigned flit = UAL_REC_HDR_BYTES;
  group(w, 0, "Flit", flit, UAL_FLIT_BYTES, "%s, %s %u, FEC %s, CRC %s", ual_flit_kind_name(fi->kind),
        ual_replay_cmd_name(fi->fh.replay_cmd), fi->fh.seq, ual_fec_status_name(fi->fec.status),
        fi->crc_ok ? "ok" : "bad");
  group(w, 1, "Flit header", flit, 2, "%02x %02x", w->rec[flit], w->rec[flit + 1]);
  scope_fields(w, 2, UAL_SC_FH, flit);
  one_field(w, 2, UAL_F_GEN_USAGE, flit, fi->fh.usage);
  one_field(w, 2, UAL_F_GEN_KIND, flit, fi->kind);
  if (fi->kind == UAL_FK_PAYLOAD) {
    payload_segments(w, r, flit);
  } else if (fi->kind != UAL_FK_RESERVED) {
    unsigned d = flit + UAL_DLLP_OFFSET;
    group(w, 1, "DLLP", d, 4, "%s", ual_dllp_name_str((enum ual_dllp_name)fi->dllp.name));
    scope_fields(w, 2, UAL_SC_DLLP, d);
    if (fi->dllp.type == UAL_DLLP_LINK_MGMT) scope_fields(w, 2, UAL_SC_DLLP_LM, d);
  }
  group(w, 1, "CRC and FEC", flit + UAL_CRC_OFFSET, UAL_CRC_BYTES + UAL_FEC_BYTES, "%s",
        fi->valid ? "valid" : "not valid");
  scope_fields(w, 2, UAL_SC_FLIT, flit);
  uint64_t calc = 0;
  for (int i = UAL_CRC_BYTES - 1; i >= 0; i--) calc = calc << 8 | fi->crc_calc[i];
  one_field(w, 2, UAL_F_GEN_CRC_CALC, flit + UAL_CRC_OFFSET, calc);
  one_field(w, 2, UAL_F_GEN_CRC_OK, flit + UAL_CRC_OFFSET, fi->crc_ok);
  one_field(w, 2, UAL_F_GEN_FEC, flit + UAL_FEC_OFFSET, fi->fec.status);
}

static void os_tree(struct walker *w, const struct ual_rec_result *r) {
  const struct ual_os *os = &r->os;
  const unsigned body = UAL_REC_HDR_BYTES, sym = body + 4;
  group(w, 0, "Ordered set", body, (unsigned)r->rec.body_len, "%s, %s, lane %u", ual_os_type_name(os->type),
        ual_os_encoding_name(os->encoding), os->lane);
  scope_fields(w, 1, UAL_SC_OS, body);
  one_field(w, 1, UAL_F_GEN_OS_TYPE, sym, os->type);
  if ((os->type == UAL_OS_TS1 || os->type == UAL_OS_TS2) && os->n >= 16) {
    scope_fields(w, 1, UAL_SC_TS, sym);
    if (os->modified) scope_fields(w, 1, UAL_SC_MTS, sym);
  }
}

void ual_tree_walk(const struct ual_rec_result *r, const uint8_t *rec, size_t len,
                   ual_tree_cb cb, void *ctx) {
  struct walker w = { cb, ctx, rec, len };
  if (len < UAL_REC_HDR_BYTES) {
    group(&w, 0, "Malformed record", 0, (unsigned)len, "%s", ual_rec_status_text(r->status));
    return;
  }
  group(&w, 0, "Record header", 0, UAL_REC_HDR_BYTES, "v%u kind %u %s", r->rec.h.version, r->rec.h.kind,
        r->dir ? "B>A" : "A>B");
  scope_fields(&w, 1, UAL_SC_REC, 0);
  if (r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED) {
    group(&w, 0, "Malformed record", UAL_REC_HDR_BYTES, (unsigned)(len - UAL_REC_HDR_BYTES), "%s",
          ual_rec_status_text(r->status));
    return;
  }
  switch (r->rec.h.kind) {
  case UAL_REC_FLIT: flit_tree(&w, r); break;
  case UAL_REC_OS: os_tree(&w, r); break;
  case UAL_REC_EVENT:
    group(&w, 0, "Link event", UAL_REC_HDR_BYTES, UAL_REC_EVENT_BYTES, "%s",
          ual_event_name(r->ev.code) ? ual_event_name(r->ev.code) : "unknown");
    scope_fields(&w, 1, UAL_SC_EVENT, UAL_REC_HDR_BYTES);
    break;
  }
}
