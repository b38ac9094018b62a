/* Rule names and findings, generated from the UAL_RULES list. */
#include "ualink/core/rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct rule_info { const char *id; enum ual_severity sev; const char *what; };

static const struct rule_info rule_table[UAL_R_COUNT] = {
#define UAL_X_(e, id, sev, what) { id, UAL_SEV_##sev, what },
  UAL_RULES(UAL_X_)
#undef UAL_X_
};

const char *ual_rule_id(enum ual_rule r) { return (unsigned)r < UAL_R_COUNT ? rule_table[r].id : "?"; }
const char *ual_rule_what(enum ual_rule r) { return (unsigned)r < UAL_R_COUNT ? rule_table[r].what : "?"; }

enum ual_severity ual_rule_severity(enum ual_rule r) {
  return (unsigned)r < UAL_R_COUNT ? rule_table[r].sev : UAL_SEV_ERROR;
}

const char *ual_severity_name(enum ual_severity s) {
  switch (s) {
  case UAL_SEV_INFO: return "info";
  case UAL_SEV_WARNING: return "warning";
  case UAL_SEV_ERROR: return "error";
  }
  return "?";
}

int ual_rule_lookup(const char *id) {
  for (int r = 0; r < UAL_R_COUNT; r++)
    if (strcmp(rule_table[r].id, id) == 0) return r;
  return -1;
}

bool ual_rule_checksum(enum ual_rule r) {
  switch (r) {
#define UAL_X_(e) case UAL_R_##e:
  UAL_FABRIC_CHECKSUM_RULES(UAL_X_)
#undef UAL_X_
    return true;
  default:
    return false;
  }
}

void ual_findings_add(struct ual_findings *f, enum ual_rule rule, int segment, const char *fmt, ...) {
  if (!f) return;
  if (f->n >= UAL_MAX_FINDINGS) { f->dropped++; return; }
  struct ual_finding *x = &f->v[f->n++];
  x->rule = (uint16_t)rule;
  x->segment = (int8_t)segment;
  x->dir = -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(x->msg, sizeof x->msg, fmt, ap);
  va_end(ap);
}

void ual_findings_set_dir(struct ual_findings *f, unsigned from, unsigned dir) {
  if (!f) return;
  for (unsigned i = from; i < f->n; i++) f->v[i].dir = (int8_t)(dir & 1);
}

int ual_findings_has(const struct ual_findings *f, enum ual_rule rule) {
  for (unsigned i = 0; i < f->n; i++)
    if (f->v[i].rule == rule) return 1;
  return 0;
}

enum ual_severity ual_findings_max_severity(const struct ual_findings *f) {
  enum ual_severity m = UAL_SEV_INFO;
  for (unsigned i = 0; i < f->n; i++) {
    enum ual_severity s = ual_rule_severity((enum ual_rule)f->v[i].rule);
    if (s > m) m = s;
  }
  return m;
}
