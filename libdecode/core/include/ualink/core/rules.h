/* Conformance rules (docs/rules.md) and findings. The rule lists of the
 * fabrics (registered in core/fabrics.h) are the one place rule IDs,
 * severities and texts live. */
#ifndef UALINK_CORE_RULES_H
#define UALINK_CORE_RULES_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "ualink/core/fabrics.h"

enum ual_severity { UAL_SEV_INFO = 0, UAL_SEV_WARNING = 1, UAL_SEV_ERROR = 2 };

/* X(enum suffix, "ID", severity, "what"): every fabric's rules. */
#define UAL_RULES(X) UAL_FABRIC_RULES(X)

enum ual_rule {
#define UAL_X_(e, id, sev, what) UAL_R_##e,
  UAL_RULES(UAL_X_)
#undef UAL_X_
  UAL_R_COUNT
};

const char *ual_rule_id(enum ual_rule r);            /* "PL-CRC" */
const char *ual_rule_what(enum ual_rule r);
enum ual_severity ual_rule_severity(enum ual_rule r);
const char *ual_severity_name(enum ual_severity s);  /* "error" */
/* Rule by its ID string; returns -1 when unknown. */
int ual_rule_lookup(const char *id);
/* Whether the rule's check is a CRC, FEC or checksum over the bits
 * (UAL_FABRIC_CHECKSUM_RULES): Wireshark files it under Checksum. */
bool ual_rule_checksum(enum ual_rule r);

/* A finding is data: the rule, where it was seen and a short text. */
struct ual_finding {
  uint16_t rule;      /* enum ual_rule */
  int8_t segment;     /* 0..3, or -1 when not tied to a segment */
  int8_t dir;         /* 0 A>B, 1 B>A: the direction an end-of-capture finding
                         judges; -1 the record's own, or none (the link) */
  char msg[92];
};

#define UAL_MAX_FINDINGS 24

struct ual_findings {
  uint16_t n;
  uint16_t dropped;   /* findings beyond UAL_MAX_FINDINGS */
  struct ual_finding v[UAL_MAX_FINDINGS];
};

static inline void ual_findings_clear(struct ual_findings *f) { f->n = 0; f->dropped = 0; }

/* Adds a finding; msg is printf-style. f may be NULL (checks then cost nothing). */
void ual_findings_add(struct ual_findings *f, enum ual_rule rule, int segment,
                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Marks the findings added since f->n was from as judging direction dir. */
void ual_findings_set_dir(struct ual_findings *f, unsigned from, unsigned dir);
int ual_findings_has(const struct ual_findings *f, enum ual_rule rule);
enum ual_severity ual_findings_max_severity(const struct ual_findings *f); /* INFO when empty */

#endif
