/* Timeline events (timeline.h). */
#include "ualink/ualink/timeline.h"

#include <stdarg.h>
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

const char *ual_neg_outcome_name(unsigned o) {
  static const char *const n[UAL_NEG_COUNT] = {
#define UAL_X_(e, s) s,
    UAL_NEG_OUTCOMES(UAL_X_)
#undef UAL_X_
  };
  return o < UAL_NEG_COUNT ? n[o] : "?";
}

void ual_events_init(struct ual_events *ev) { memset(ev, 0, sizeof *ev); }

struct ual_tevent *ual_events_add(struct ual_events *ev, const struct ual_when *w, unsigned kind, unsigned partner,
                                  int32_t value, int32_t old, const char *fmt, ...) {
  if (!ev) return NULL;
  if (ev->n >= UAL_MAX_TEVENTS) { ev->dropped++; return NULL; }
  struct ual_tevent *e = &ev->v[ev->n++];
  memset(e, 0, sizeof *e);
  e->frame = w->frame;
  e->ts_ns = w->ts_ns;
  e->kind = (uint8_t)kind;
  e->partner = (uint8_t)partner;
  e->value = value;
  e->old = old;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->text, sizeof e->text, fmt, ap);
  va_end(ap);
  return e;
}
