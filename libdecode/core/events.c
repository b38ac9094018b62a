/* Timeline events (events.h). */
#include "ualink/core/events.h"
#include "ualink/core/record.h"

#include <stdio.h>
#include <string.h>

const char *ual_tev_kind_name(unsigned k) {
  static const char *const n[UAL_TEV_COUNT] = {
#define UAL_X_(e, s) s,
    UAL_TEV_KINDS(UAL_X_)
#undef UAL_X_
  };
  return k < UAL_TEV_COUNT ? n[k] : "?";
}

void ual_events_init(struct ual_events *ev) { memset(ev, 0, sizeof *ev); }

struct ual_tevent *ual_events_addv(struct ual_events *ev, uint64_t frame, uint64_t ts_ns, unsigned kind,
                                   unsigned partner, int32_t value, int32_t old, const char *fmt, va_list ap) {
  if (!ev) return NULL;
  if (ev->n >= UAL_MAX_TEVENTS) { ev->dropped++; return NULL; }
  struct ual_tevent *e = &ev->v[ev->n++];
  memset(e, 0, sizeof *e);
  e->frame = frame;
  e->ts_ns = ts_ns;
  e->kind = (uint8_t)kind;
  e->partner = (uint8_t)partner;
  e->value = value;
  e->old = old;
  vsnprintf(e->text, sizeof e->text, fmt, ap);
  return e;
}

struct ual_tevent *ual_events_add_at(struct ual_events *ev, uint64_t frame, uint64_t ts_ns, unsigned kind,
                                     unsigned partner, int32_t value, int32_t old, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  struct ual_tevent *e = ual_events_addv(ev, frame, ts_ns, kind, partner, value, old, fmt, ap);
  va_end(ap);
  return e;
}

static char side_name(unsigned d) { return d ? 'B' : 'A'; }

void ual_events_rate_seen(struct ual_events *ev, uint64_t frame, uint64_t ts_ns, unsigned dir, uint8_t *cur,
                          unsigned code) {
  if (!code || code == *cur) return;
  unsigned old = *cur;
  *cur = (uint8_t)code;
  const char *o = old ? ual_rate_name(old) : NULL, *n = ual_rate_name(code);
  ual_events_add_at(ev, frame, ts_ns, UAL_TEV_RATE, dir, (int32_t)code, old ? (int32_t)old : UAL_UNKNOWN,
                    "%c data rate %s -> %s GT/s", side_name(dir), o ? o : "?", n ? n : "?");
}

void ual_events_width_seen(struct ual_events *ev, uint64_t frame, uint64_t ts_ns, unsigned dir, uint8_t *cur,
                           unsigned lanes) {
  if (!lanes || lanes == *cur) return;
  unsigned old = *cur;
  *cur = (uint8_t)lanes;
  char ob[16] = "?";
  if (old) snprintf(ob, sizeof ob, "x%u", old);
  ual_events_add_at(ev, frame, ts_ns, UAL_TEV_WIDTH, dir, (int32_t)lanes, old ? (int32_t)old : UAL_UNKNOWN,
                    "%c width %s -> x%u", side_name(dir), ob, lanes);
}
