/* DL messages (digest §3, spec §2.4): decode, encode, stateless checks and
 * one-line summaries. Bit positions live in the field table only; this file
 * maps each non-reserved message field to its struct ual_dlmsg member.
 *
 *  31            9 8   6 5     2  1   0
 * +---------------+-----+-------+----+---+
 * | type specific |mtype|mclass |rsvd|Cmp|   one little-endian DWord (D1)
 * +---------------+-----+-------+----+---+
 */
#include "ualink/ualink/dlmsg.h"
#include "core/field_access.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

const struct ual_msg_type_info ual_msg_types[UAL_MT_COUNT] = {
#define UAL_X_(e, mc, mt, json, disp, label, sc) { mc, mt, json, disp, label, sc },
  UAL_MSG_TYPES(UAL_X_)
#undef UAL_X_
  /* Only the common fields are known for reserved codes. */
  { 0, 0, "reserved", "Reserved", "Reserved", UAL_SC_MSG },
};

const char *ual_mclass_name(unsigned mclass) {
  switch (mclass) {
  case UAL_MCLASS_BASIC: return "basic";
  case UAL_MCLASS_CONTROL: return "control";
  case UAL_MCLASS_UART: return "uart";
  }
  return "reserved";
}

const char *ual_ctrl_cmd_name(unsigned cmd) {
  switch (cmd) {
  case UAL_CMD_REQUEST: return "request";
  case UAL_CMD_ACK: return "ack";
  case UAL_CMD_NACK: return "nack";
  case UAL_CMD_PENDING: return "pending";
  }
  return "reserved";
}

enum ual_msg_type ual_msg_classify(unsigned mclass, unsigned mtype) {
  for (int t = 0; t < UAL_MT_RESERVED; t++)
    if (ual_msg_types[t].mclass == mclass && ual_msg_types[t].mtype == mtype) return (enum ual_msg_type)t;
  return UAL_MT_RESERVED;
}

/* Where each message field is kept in struct ual_dlmsg; size 0 = no member
 * (reserved fields and fields of other scopes). */
struct member { uint8_t off, size; };
#define M_(f) { offsetof(struct ual_dlmsg, f), sizeof(((struct ual_dlmsg *)0)->f) }
#define CTRL_M_(P) \
  [UAL_F_##P##_PRIO] = M_(priority), [UAL_F_##P##_TARGET] = M_(target), \
  [UAL_F_##P##_CMD] = M_(command), [UAL_F_##P##_RESP] = M_(response),

static const struct member members[UAL_F_COUNT] = {
  [UAL_F_MSG_COMPRESSED] = M_(compressed), [UAL_F_MSG_MCLASS] = M_(mclass), [UAL_F_MSG_MTYPE] = M_(mtype),
  [UAL_F_RATE_ACK] = M_(ack), [UAL_F_RATE_RATE] = M_(rate),
  [UAL_F_DEVID_ACK] = M_(ack), [UAL_F_DEVID_ID] = M_(id), [UAL_F_DEVID_TYPE] = M_(dev_type),
  [UAL_F_DEVID_VALID] = M_(valid),
  [UAL_F_PORT_ACK] = M_(ack), [UAL_F_PORT_PORT] = M_(port), [UAL_F_PORT_VALID] = M_(valid),
  CTRL_M_(WIDTH) CTRL_M_(SPEED) CTRL_M_(STATE)
  [UAL_F_CHAN_TARGET] = M_(target), [UAL_F_CHAN_CMD] = M_(command), [UAL_F_CHAN_RESP] = M_(response),
  [UAL_F_UTX_STREAM] = M_(stream), [UAL_F_UTX_LENGTH] = M_(length),
  [UAL_F_UCR_STREAM] = M_(stream), [UAL_F_UCR_FCSEQ] = M_(data_fc_seq),
  [UAL_F_URQ_STREAM] = M_(stream), [UAL_F_URQ_ALL] = M_(all_streams),
  [UAL_F_URS_STREAM] = M_(stream), [UAL_F_URS_ALL] = M_(all_streams), [UAL_F_URS_STATUS] = M_(status),
};
#undef CTRL_M_
#undef M_

static uint32_t member_get(const struct ual_dlmsg *m, enum ual_field_id id) {
  const uint8_t *p = (const uint8_t *)m + members[id].off;
  if (members[id].size == 1) return *p;
  uint16_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

static void member_set(struct ual_dlmsg *m, enum ual_field_id id, uint64_t v) {
  uint8_t *p = (uint8_t *)m + members[id].off;
  if (members[id].size == 1) { *p = (uint8_t)v; return; }
  uint16_t w = (uint16_t)v;
  memcpy(p, &w, sizeof w);
}

/* The DWord as its four sector bytes (D1), the base of every message scope. */
static void dw_bytes(uint32_t dw, uint8_t b[4]) {
  for (int i = 0; i < 4; i++) b[i] = (uint8_t)(dw >> (8 * i));
}

static uint32_t bytes_dw(const uint8_t b[4]) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

#define SCOPE_MAX 16

static enum ual_scope type_scope(unsigned type) {
  return (enum ual_scope)ual_msg_types[type < UAL_MT_COUNT ? type : UAL_MT_RESERVED].scope;
}

static void scope_decode(enum ual_scope sc, const uint8_t *b, struct ual_dlmsg *m) {
  enum ual_field_id ids[SCOPE_MAX];
  size_t n = ual_scope_fields(sc, ids, SCOPE_MAX);
  for (size_t i = 0; i < n && i < SCOPE_MAX; i++)
    if (members[ids[i]].size) member_set(m, ids[i], ual_field_get(ids[i], b));
}

static void scope_encode(enum ual_scope sc, const struct ual_dlmsg *m, uint8_t *b) {
  enum ual_field_id ids[SCOPE_MAX];
  size_t n = ual_scope_fields(sc, ids, SCOPE_MAX);
  for (size_t i = 0; i < n && i < SCOPE_MAX; i++)
    if (members[ids[i]].size) ual_field_put(ids[i], b, member_get(m, ids[i]));
}

void ual_dlmsg_decode(uint32_t dw, struct ual_dlmsg *m) {
  uint8_t b[4];
  dw_bytes(dw, b);
  memset(m, 0, sizeof *m);
  m->dw = dw;
  scope_decode(UAL_SC_MSG, b, m);
  m->type = (uint8_t)ual_msg_classify(m->mclass, m->mtype);
  if (type_scope(m->type) != UAL_SC_MSG) scope_decode(type_scope(m->type), b, m);
}

uint32_t ual_dlmsg_encode(const struct ual_dlmsg *m) {
  struct ual_dlmsg c = *m;
  if (c.type >= UAL_MT_COUNT) c.type = UAL_MT_RESERVED;
  if (c.type != UAL_MT_RESERVED) {  /* a known type owns its codes */
    c.mclass = ual_msg_types[c.type].mclass;
    c.mtype = ual_msg_types[c.type].mtype;
  }
  uint8_t b[4] = { 0, 0, 0, 0 };
  scope_encode(UAL_SC_MSG, &c, b);
  if (type_scope(c.type) != UAL_SC_MSG) scope_encode(type_scope(c.type), &c, b);
  return bytes_dw(b);
}

/* Small appender shared by the finding texts and the summary. */
struct out { char *buf; size_t cap, n; };

static void put(struct out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void put(struct out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(o->n < o->cap ? o->buf + o->n : NULL, o->n < o->cap ? o->cap - o->n : 0, fmt, ap);
  va_end(ap);
  if (k > 0) o->n += (size_t)k;
}

/* A value by its field-table name, or in hex when it is not listed. */
static void put_value(struct out *o, enum ual_field_id id, uint32_t v) {
  const char *name = ual_field_value_name(id, v);
  if (name) put(o, "%s", name);
  else put(o, "0x%x", (unsigned)v);
}

/* Reserved fields of one scope that are non-zero, as " [hi:lo]". */
static void put_reserved_ranges(struct out *o, enum ual_scope sc, const uint8_t *b) {
  enum ual_field_id ids[SCOPE_MAX];
  size_t n = ual_scope_fields(sc, ids, SCOPE_MAX);
  for (size_t i = 0; i < n && i < SCOPE_MAX; i++) {
    const struct ual_field *fd = &ual_fields[ids[i]];
    if (!(fd->flags & UAL_FF_RESERVED) || !ual_field_get(ids[i], b)) continue;
    if (fd->width == 1) put(o, " [%u]", fd->lsb);
    else put(o, " [%u:%u]", fd->lsb + fd->width - 1u, fd->lsb);
  }
}

void ual_dlmsg_check(const struct ual_dlmsg *m, int segment, struct ual_findings *f) {
  const struct ual_msg_type_info *ti = &ual_msg_types[m->type < UAL_MT_COUNT ? m->type : UAL_MT_RESERVED];
  enum ual_scope sc = type_scope(m->type);
  uint8_t b[4];
  dw_bytes(m->dw, b);

  if (m->compressed) ual_findings_add(f, UAL_R_DM_COMPRESSED, segment, "%s with Compressed = 1", ti->display);
  if (m->type >= UAL_MT_RESERVED)
    ual_findings_add(f, UAL_R_DM_UNKNOWN, segment, "reserved mclass=0x%x mtype=0x%x", m->mclass, m->mtype);

  uint64_t rsvd = (ual_scope_reserved_mask(UAL_SC_MSG) | ual_scope_reserved_mask(sc)) & m->dw;
  if (rsvd) {
    char text[sizeof f->v[0].msg];
    struct out o = { text, sizeof text, 0 };
    put(&o, "%s: reserved bits 0x%08x set:", ti->display, (unsigned)rsvd);
    put_reserved_ranges(&o, UAL_SC_MSG, b);
    if (sc != UAL_SC_MSG) put_reserved_ranges(&o, sc, b);
    ual_findings_add(f, UAL_R_DM_RESERVED, segment, "%s", text);
  }

  if (sc != UAL_SC_MSG) {
    enum ual_field_id ids[SCOPE_MAX];
    size_t n = ual_scope_fields(sc, ids, SCOPE_MAX);
    for (size_t i = 0; i < n && i < SCOPE_MAX; i++) {
      if (!(ual_fields[ids[i]].flags & UAL_FF_ENUM)) continue;
      uint32_t v = (uint32_t)ual_field_get(ids[i], b);
      if (ual_field_value_name(ids[i], v) == NULL)
        ual_findings_add(f, UAL_R_DM_FIELD, segment, "%s: reserved %s 0x%x", ti->display,
                         ual_fields[ids[i]].name, (unsigned)v);
    }
  }

  /* Table 2-4: Rate is valid in requests only, reserved (zero) in responses. */
  if (m->type == UAL_MT_TL_RATE && m->ack && m->rate)
    ual_findings_add(f, UAL_R_DM_RESERVED, segment, "TL Rate response with Rate %u (reserved in responses)", m->rate);
  /* Tables 2-8..2-11: Response is reserved in a Request, TargetState in Decision Pending. */
  bool ctrl = m->type == UAL_MT_LINK_WIDTH || m->type == UAL_MT_LINK_SPEED || m->type == UAL_MT_LINK_STATE ||
              m->type == UAL_MT_CHANNEL;
  if (ctrl && m->command == UAL_CMD_REQUEST && m->response)
    ual_findings_add(f, UAL_R_DM_CTRL_ECHO, segment, "%s Request with Response 0x%x (must be 0)", ti->display,
                     m->response);
  if (ctrl && m->command == UAL_CMD_PENDING && m->target)
    ual_findings_add(f, UAL_R_DM_CTRL_ECHO, segment, "%s Decision Pending with TargetState 0x%x (must be 0)",
                     ti->display, m->target);
  if (m->type == UAL_MT_TL_RATE && !m->ack && (m->rate < UAL_RATE_REF || m->rate > UAL_RATE_FULL))
    ual_findings_add(f, UAL_R_DM_RATE_RANGE, segment, "TL rate %u outside %u..%u", m->rate, UAL_RATE_REF,
                     UAL_RATE_FULL);
  if (m->type == UAL_MT_DEVICE_ID && !m->valid && m->id)
    ual_findings_add(f, UAL_R_DM_ID_FIELD, segment, "Device ID with Valid = 0 but ID %u", m->id);
  if (m->type == UAL_MT_PORT_NUMBER && !m->valid && m->port)
    ual_findings_add(f, UAL_R_DM_ID_FIELD, segment, "Port Number with Valid = 0 but Port %u", m->port);
}

/* The field of scope sc stored in a given struct member (its value names). */
static enum ual_field_id member_field(enum ual_scope sc, size_t off) {
  enum ual_field_id ids[SCOPE_MAX];
  size_t n = ual_scope_fields(sc, ids, SCOPE_MAX);
  for (size_t i = 0; i < n && i < SCOPE_MAX; i++)
    if (members[ids[i]].size && members[ids[i]].off == off) return ids[i];
  return UAL_F_COUNT;
}

static void put_member(struct out *o, enum ual_scope sc, size_t off, uint32_t v) {
  enum ual_field_id id = member_field(sc, off);
  if (id < UAL_F_COUNT) put_value(o, id, v);
  else put(o, "0x%x", (unsigned)v);
}

/* Request: wanted state; Ack/Nack: wanted and echoed state; Decision Pending:
 * echoed state only. Values a command should not carry are shown when set. */
static void put_control(struct out *o, const struct ual_dlmsg *m, enum ual_scope sc) {
  put(o, " ");
  put_member(o, sc, offsetof(struct ual_dlmsg, command), m->command);
  if (m->command != UAL_CMD_PENDING || m->target) {
    put(o, " ");
    put_member(o, sc, offsetof(struct ual_dlmsg, target), m->target);
  }
  if (m->command != UAL_CMD_REQUEST || m->response) {
    put(o, " resp=");
    put_member(o, sc, offsetof(struct ual_dlmsg, response), m->response);
  }
  if (m->priority) put(o, " prio");
}

/* 50 kHz per LSB: MHz = rate / 20. */
static void put_rate(struct out *o, unsigned rate) {
  if (rate % 20) put(o, "%u (%u.%02u MHz)", rate, rate / 20, rate % 20 * 5);
  else put(o, "%u (%u MHz)", rate, rate / 20);
}

int ual_dlmsg_summary(const struct ual_dlmsg *m, char *buf, size_t cap) {
  struct out o = { buf, cap, 0 };
  unsigned type = m->type < UAL_MT_COUNT ? m->type : UAL_MT_RESERVED;
  enum ual_scope sc = type_scope(type);
  if (cap) buf[0] = 0;
  put(&o, "%s", ual_msg_types[type].label);
  switch (type) {
  case UAL_MT_TL_RATE:
    if (m->ack) put(&o, " ack");
    else { put(&o, " req "); put_rate(&o, m->rate); }
    if (m->ack && m->rate) put(&o, " rate=%u", m->rate);
    break;
  case UAL_MT_DEVICE_ID:
  case UAL_MT_PORT_NUMBER:
    put(&o, m->ack ? " ack" : " req");
    if (type == UAL_MT_DEVICE_ID) {
      put(&o, " id=%u ", m->id);
      put_member(&o, sc, offsetof(struct ual_dlmsg, dev_type), m->dev_type);
    } else {
      put(&o, " port=%u", m->port);
    }
    put(&o, " ");
    put_member(&o, sc, offsetof(struct ual_dlmsg, valid), m->valid);
    break;
  case UAL_MT_LINK_WIDTH:
  case UAL_MT_LINK_SPEED:
  case UAL_MT_LINK_STATE:
  case UAL_MT_CHANNEL:
    put_control(&o, m, sc);
    break;
  case UAL_MT_UART_TRANSPORT:
    put(&o, " s%u len=%u", m->stream, m->length + 1u);  /* payload DWords */
    break;
  case UAL_MT_UART_CREDIT:
    put(&o, " s%u fcseq=%u", m->stream, m->data_fc_seq);
    break;
  case UAL_MT_UART_RESET_REQ:
  case UAL_MT_UART_RESET_RSP:
    put(&o, " s%u%s", m->stream, m->all_streams ? " all" : "");
    if (type == UAL_MT_UART_RESET_RSP) {
      put(&o, " ");
      put_member(&o, sc, offsetof(struct ual_dlmsg, status), m->status);
    }
    break;
  case UAL_MT_RESERVED:
    put(&o, " mclass=%u mtype=%u", m->mclass, m->mtype);
    break;
  default:
    break;
  }
  if (m->compressed) put(&o, " compressed");
  return (int)o.n;
}

/* Vendor Defined Packet TL DWord (Figure 2-16, Table 2-12):
 *  31        16 15     8 7      0
 * +------------+--------+--------+
 * | Vendor ID  |  Type  | Length |   Length = payload DWords - 1
 * +------------+--------+--------+
 */
void ual_vdp_decode(uint32_t dw, struct ual_vdp_hdr *h) {
  uint8_t b[4];
  dw_bytes(dw, b);
  h->n_payload = (uint16_t)(ual_field_get(UAL_F_VDP_LENGTH, b) + 1u);
  h->type = (uint8_t)ual_field_get(UAL_F_VDP_TYPE, b);
  h->vendor_id = (uint16_t)ual_field_get(UAL_F_VDP_VENDOR, b);
}

uint32_t ual_vdp_encode(const struct ual_vdp_hdr *h) {
  uint8_t b[4] = { 0, 0, 0, 0 };
  ual_field_put(UAL_F_VDP_LENGTH, b, h->n_payload ? h->n_payload - 1u : 0u);
  ual_field_put(UAL_F_VDP_TYPE, b, h->type);
  ual_field_put(UAL_F_VDP_VENDOR, b, h->vendor_id);
  return bytes_dw(b);
}

const char *ual_width_code_name(int code) {
  static const char *const n[] = { "x1", "x2", "x4", "x8" };
  return code >= 0 && code < 4 ? n[code] : "?";
}

const char *ual_speed_code_name(int code) {
  static const char *const n[] = { "2.5", "32.0", "64.0", "ESM" };
  return code >= 0 && code < 4 ? n[code] : "?";
}
