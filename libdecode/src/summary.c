/* One-line record summaries (summary.h). */
#include "ualink/summary.h"
#include "ualink/dlmsg.h"

#include <stdarg.h>
#include <stdio.h>

struct out { char *buf; size_t cap, n; };

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void put(struct out *o, const char *fmt, ...) {
  if (o->n + 1 >= o->cap) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(o->buf + o->n, o->cap - o->n, fmt, ap);
  va_end(ap);
  if (k < 0) return;
  o->n += (size_t)k;
  if (o->n >= o->cap) o->n = o->cap - 1;
}

static void flit_summary(struct out *o, const struct ual_rec_result *r) {
  const struct ual_flit_info *fi = &r->flit;
  put(o, "%s", ual_flit_kind_name(fi->kind));
  if (fi->kind != UAL_FK_IDLE)
    put(o, " %s %u", ual_replay_cmd_name(fi->fh.replay_cmd), fi->fh.seq);
  if (fi->fec.status != UAL_FEC_CLEAN) put(o, " FEC:%s", ual_fec_status_name(fi->fec.status));
  if (!fi->crc_ok) put(o, " CRC:%s", fi->crc_inverted ? "inverted" : "bad");
  if (fi->kind == UAL_FK_NOP || (fi->kind == UAL_FK_IDLE && fi->dllp.type != UAL_DLLP_NOP2))
    put(o, " | %s", ual_field_value_name(UAL_F_DLLP_TYPE, fi->dllp.type)
                        ? ual_field_value_name(UAL_F_DLLP_TYPE, fi->dllp.type) : "DLLP?");
  if (fi->kind == UAL_FK_NOP && fi->dllp.type == UAL_DLLP_LINK_MGMT)
    put(o, " %s width=%u", ual_field_value_name(UAL_F_LM_CMD, fi->dllp.lm_cmd)
                               ? ual_field_value_name(UAL_F_LM_CMD, fi->dllp.lm_cmd) : "cmd?",
        fi->dllp.lm_width);
  if (!r->unpacked) return;
  const struct ual_unpack_out *u = &r->unp;
  if (u->tl_started || u->n_tl) {
    put(o, " | TL");
    if (u->tl_started) put(o, " +%u", u->tl_started);
    if (u->n_tl) put(o, " -%u", u->n_tl);
  }
  for (unsigned i = 0; i < u->n_msg; i++) {
    char m[96];
    ual_dlmsg_summary(&u->msg[i].msg, m, sizeof m);
    put(o, " | %s", m);
  }
}

int ual_rec_summary(const struct ual_rec_result *r, char *buf, size_t cap) {
  struct out o = { buf, cap, 0 };
  if (cap) buf[0] = 0;
  if (r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED) {
    put(&o, "malformed: %s", ual_rec_status_text(r->status));
    return (int)o.n;
  }
  switch (r->rec.h.kind) {
  case UAL_REC_FLIT:
    flit_summary(&o, r);
    break;
  case UAL_REC_OS:
    put(&o, "%s %s lane %u", ual_os_type_name(r->os.type), ual_os_encoding_name(r->os.encoding), r->os.lane);
    if (r->os.type == UAL_OS_TS1 || r->os.type == UAL_OS_TS2) {
      put(&o, " link %u lane# %u rate %02xh%s", r->os.link_number, r->os.lane_number, r->os.rate_id,
          r->os.flit_mode ? " flit" : "");
      if (r->os.modified) put(&o, " modified usage %u vendor %04xh", r->os.mts_usage, r->os.vendor_id);
    }
    break;
  case UAL_REC_EVENT: {
    const char *n = ual_event_name(r->ev.code);
    put(&o, "event %s value %u", n ? n : "unknown", r->ev.value);
    break;
  }
  }
  return (int)o.n;
}

int ual_rec_rules(const struct ual_rec_result *r, char *buf, size_t cap) {
  struct out o = { buf, cap, 0 };
  if (cap) buf[0] = 0;
  for (unsigned i = 0; i < r->findings.n; i++)
    put(&o, "%s%s", i ? " " : "", ual_rule_id((enum ual_rule)r->findings.v[i].rule));
  return (int)o.n;
}
