/* Captures built from the specification text (digest ../shared/spec/
 * ualink128g.md, seed 000 lines cited), each as a broken twin that raises
 * its rule at the right record and a clean twin that raises no error or
 * warning (issue 15). */
#include "analysis_fixture.h"

static struct fx X;

/* Warnings and errors other than the ones a capture is expected to carry. */
static unsigned problems_except(const struct fx *x, enum ual_rule a, enum ual_rule b) {
  unsigned n = fx_problems(x);
  if (ual_rule_severity(a) != UAL_SEV_INFO) n -= x->counts[a];
  if (b != a && ual_rule_severity(b) != UAL_SEV_INFO) n -= x->counts[b];
  return n;
}

/* The frame of the last finding of rule, 0 if none in the last record. */
static uint64_t found_here(const struct fx *x, enum ual_rule r) {
  for (unsigned i = 0; i < x->r.findings.n; i++)
    if (x->r.findings.v[i].rule == r) return x->frame;
  return 0;
}

/* 7. A Nak is the conformant answer to a bad flit (rules.md: RP-NAK info):
 * flit 102 fails its CRC, B Naks 101 three times, A goes back to 102. The
 * only problem is the bad flit itself. */
static void test_nak_is_info(void) {
  uint8_t f[6][UAL_FLIT_BYTES], bad[UAL_FLIT_BYTES];
  CHECK_EQ(ual_rule_severity(UAL_R_RP_NAK), UAL_SEV_INFO);
  fx_init(&X);
  fx_sync(&X);
  fx_push_tl(&X, FX_A, 16);
  for (int i = 0; i < 6; i++) fx_make(&X, FX_A, f[i]);
  fx_flit(&X, FX_A, f[0]);
  fx_flit(&X, FX_A, f[1]);
  fx_bad_crc(f[2], bad);
  fx_flit(&X, FX_A, bad);
  for (int i = 3; i < 6; i++) fx_flit(&X, FX_A, f[i]);
  for (int i = 0; i < 3; i++) {
    fx_nop(&X, FX_B, UAL_RC_NAK, 101, UAL_DLLP_NOP2);
    CHECK_EQ(found_here(&X, UAL_R_RP_NAK), X.frame);
  }
  for (int i = 2; i < 6; i++) fx_flit(&X, FX_A, f[i]);
  fx_flush(&X, FX_A);
  CHECK_EQ(fx_count(&X, UAL_R_RP_NAK), 3);
  CHECK_EQ(fx_count(&X, UAL_R_PL_CRC), 1);
  CHECK_EQ(problems_except(&X, UAL_R_PL_CRC, UAL_R_PL_CRC), 0);
}

int main(void) {
  test_nak_is_info();
  return check_done("test_fidelity");
}
