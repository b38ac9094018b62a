/* The analysis registry (analysis.h): record kind -> the fabric analysis
 * that owns it. */
#include "ualink/core/analysis.h"

#include <string.h>

void ual_fabric_an_init(struct ual_fabric_an *s) {
  memset(s, 0, sizeof *s);
#define UAL_X_(m) ual_##m##_an_init(&s->m);
  UAL_FABRIC_ANALYSES(UAL_X_)
#undef UAL_X_
}

bool ual_fabric_an_step(struct ual_fabric_an *s, struct ual_rec_result *r, const struct ual_fabric_step *c) {
  (void)s;
  (void)c;
  if (r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED) return false;
  switch (r->rec.h.kind) {
  case UAL_REC_EVENT:
#define UAL_X_(m) ual_##m##_an_step(&s->m, r, c);
    UAL_FABRIC_ANALYSES(UAL_X_)
#undef UAL_X_
    return false;
#define UAL_X_(code, m) case code: ual_##m##_an_step(&s->m, r, c); return true;
  UAL_FABRIC_ANALYSIS_KINDS(UAL_X_)
#undef UAL_X_
  default:
    return false;
  }
}

void ual_fabric_an_finish(struct ual_fabric_an *s, struct ual_findings *f, const struct ual_fabric_step *c) {
  (void)s;
  (void)f;
  (void)c;
#define UAL_X_(m) ual_##m##_an_finish(&s->m, f, c);
  UAL_FABRIC_ANALYSES(UAL_X_)
#undef UAL_X_
}
