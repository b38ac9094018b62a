/* The analysis registry (analysis.h): record kind -> the fabric analysis
 * that owns it. */
#include "ualink/core/analysis.h"

#include <stdio.h>
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
  /* a record in the PCIe role encoding (capture-format.md) is a PCIe link's
   * (its ordered sets and link events included): the fabric analyses judge
   * and track it, the top-level analyzer's trackers never see it */
  bool pcie_link = r->rec.h.roles_pcie;
  switch (r->rec.h.kind) {
  case UAL_REC_EVENT:
#define UAL_X_(m) ual_##m##_an_step(&s->m, r, c);
    UAL_FABRIC_ANALYSES(UAL_X_)
#undef UAL_X_
    return pcie_link;
#define UAL_X_(code, m) case code: ual_##m##_an_step(&s->m, r, c); return true;
  UAL_FABRIC_ANALYSIS_KINDS(UAL_X_)
#undef UAL_X_
  default:
    /* a PCIe link's ordered sets: the PCIe analyses see Recovery in them */
    if (pcie_link) {
#define UAL_X_(m) ual_##m##_an_step(&s->m, r, c);
      UAL_FABRIC_PCIE_LINK_ANALYSES(UAL_X_)
#undef UAL_X_
    }
    return pcie_link;
  }
}

int ual_fabric_an_option(struct ual_fabric_an *s, const char *name, const char *value) {
  int rc = 0;
#define UAL_X_(m) if (!rc) rc = ual_##m##_an_option(&s->m, name, value);
  UAL_FABRIC_OPTION_ANALYSES(UAL_X_)
#undef UAL_X_
  return rc;
}

void ual_fabric_an_finish(struct ual_fabric_an *s, struct ual_findings *f, const struct ual_fabric_step *c) {
  (void)s;
  (void)f;
  (void)c;
#define UAL_X_(m) ual_##m##_an_finish(&s->m, f, c);
  UAL_FABRIC_ANALYSES(UAL_X_)
#undef UAL_X_
}

bool ual_fabric_an_state_text(const struct ual_fabric_an *s, unsigned kind, char *buf, size_t cap) {
  (void)s;
  if (cap) buf[0] = 0;
  switch (kind) {
#define UAL_X_(code, m) case code: ual_##m##_an_state_text(&s->m, buf, cap); return true;
  UAL_FABRIC_STATE_TEXT_KINDS(UAL_X_)
#undef UAL_X_
  default:
    return false;
  }
}

bool ual_fabric_an_preset(struct ual_fabric_an *s, const char *name, const char *arg, char *err, size_t cap) {
  (void)s;
  (void)arg;
#define UAL_X_(m, p, opt) \
  if (strcmp(name, opt) == 0) return ual_##m##_an_preset_##p(s ? &s->m : NULL, arg, err, cap);
  UAL_FABRIC_PRESETS(UAL_X_)
#undef UAL_X_
  snprintf(err, cap, "no preset '%s'", name);
  return false;
}

int ual_fabric_an_preset_text(const struct ual_fabric_an *s, char *buf, size_t cap) {
  (void)s;
  size_t n = 0;
  if (cap) buf[0] = 0;
#define UAL_X_(m, p, opt)                                                                                         \
  {                                                                                                               \
    char one[1024];                                                                                               \
    if (ual_##m##_an_preset_##p##_text(&s->m, one, sizeof one) > 0 && n < cap)                                   \
      n += (size_t)snprintf(buf + n, cap - n, "%s--%s %s", n ? " " : "", opt, one);                              \
  }
  UAL_FABRIC_PRESETS(UAL_X_)
#undef UAL_X_
  return (int)n;
}
