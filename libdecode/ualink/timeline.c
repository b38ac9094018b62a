/* Timeline events (timeline.h). */
#include "ualink/ualink/timeline.h"

#include <stdarg.h>

const char *ual_neg_outcome_name(unsigned o) {
  static const char *const n[UAL_NEG_COUNT] = {
#define UAL_X_(e, s) s,
    UAL_NEG_OUTCOMES(UAL_X_)
#undef UAL_X_
  };
  return o < UAL_NEG_COUNT ? n[o] : "?";
}

struct ual_tevent *ual_events_add(struct ual_events *ev, const struct ual_when *w, unsigned kind, unsigned partner,
                                  int32_t value, int32_t old, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  struct ual_tevent *e = ual_events_addv(ev, w->frame, w->ts_ns, kind, partner, value, old, fmt, ap);
  va_end(ap);
  return e;
}
