/* One-line record summaries (summary.h): the kind's decoder writes the
 * content (core/kind.h). */
#include "ualink/core/summary.h"
#include "kind.h"

#include <stdarg.h>
#include <stdio.h>

void ual_text_put(struct ual_text *o, const char *fmt, ...) {
  if (o->n + 1 >= o->cap) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(o->buf + o->n, o->cap - o->n, fmt, ap);
  va_end(ap);
  if (k < 0) return;
  o->n += (size_t)k;
  if (o->n >= o->cap) o->n = o->cap - 1;
}

int ual_rec_summary(const struct ual_rec_result *r, char *buf, size_t cap) {
  struct ual_text o = { buf, cap, 0 };
  if (cap) buf[0] = 0;
  if (r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED) {
    ual_text_put(&o, "malformed: %s", ual_rec_status_text(r->status));
    return (int)o.n;
  }
  ual_kind_of(r->rec.h.kind)->summary(&o, r);
  return (int)o.n;
}

int ual_rec_rules(const struct ual_rec_result *r, char *buf, size_t cap) {
  struct ual_text o = { buf, cap, 0 };
  if (cap) buf[0] = 0;
  for (unsigned i = 0; i < r->findings.n; i++)
    ual_text_put(&o, "%s%s", i ? " " : "", ual_rule_id((enum ual_rule)r->findings.v[i].rule));
  return (int)o.n;
}
