/* The pcie scenario against its truth: each injected PD- rule is raised at
 * its labelled frame and nowhere else, clean traffic raises nothing, and
 * captures cut at any of several points raise nothing but truth. */
#include "gen.h"
#include "pcie.h"
#include "check.h"
#include <ualink/ualink/analysis.h>

#include <stdlib.h>

#define CAP_REC_BYTES 24
#include "gen_capture.h"

/* Analyzes records [from, n); returns findings not in the truth, counts truth raised. */
static unsigned analyze(const struct cap *c, size_t from, unsigned *raised) {
  static struct ual_analyzer a;
  struct ual_rec_result r;
  unsigned extra = 0;
  *raised = 0;
  ual_analyzer_init(&a);
  for (size_t i = from; i < c->n; i++) {
    ual_analyzer_step(&a, c->rec[i], c->len[i], i + 1, c->ts[i], &r, NULL);
    for (unsigned k = 0; k < r.findings.n; k++) {
      if (r.findings.v[k].rule == UAL_R_PN_SYNC) continue;   /* where the non-flit DL synchronized: no injection */
      if (in_truth(c, i + 1, r.findings.v[k].rule)) (*raised)++;
      else {
        extra++;
        fprintf(stderr, "  frame %zu (from %zu): unexpected %s: %s\n", i + 1, from,
                ual_rule_id((enum ual_rule)r.findings.v[k].rule), r.findings.v[k].msg);
      }
    }
  }
  struct ual_findings end;
  ual_findings_clear(&end);
  ual_analyzer_finish(&a, &end, NULL);
  return extra + end.n;
}

static void run(struct cap *c, int rule, uint64_t seed) {
  struct gen_opts o;
  gen_opts_default(&o);
  o.scenario = GEN_SC_PCIE;
  o.seed = seed;
  if (rule >= 0) {
    o.n_inject = 1;
    o.inject[0] = (struct gen_inject_req){ rule, GEN_AT_DEFAULT };
  }
  struct gen_out out = { c, on_record, on_truth, NULL, NULL, NULL, NULL };
  char err[128];
  memset(c, 0, sizeof *c);
  struct gen *g = gen_new(&o, &out, err, sizeof err);
  CHECK(g != NULL);
  if (!g) return;
  CHECK_EQ(gen_run(g, err, sizeof err), 0);
  gen_free(g);
}

int main(void) {
  static struct cap c;
  static const size_t cuts[] = { 0, 1, 5, 10, 17, 37, 40, 75, 79, 81, 200 };
  for (uint64_t seed = 1; seed <= 3; seed++) {
    run(&c, -1, seed);
    CHECK(c.n > 600);
    CHECK_EQ(c.nt, 0);
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
      unsigned raised;
      CHECK_EQ(analyze(&c, cuts[k], &raised), 0);
    }
  }
  unsigned rules = 0;
  for (int rule = 0; rule < UAL_R_COUNT; rule++) {
    if (!gen_pcie_inject_supported(rule)) continue;
    rules++;
    CHECK(!gen_inject_supported(rule));   /* the UALink model's catalog is separate */
    run(&c, rule, 5);
    CHECK_EQ(c.nt, 1);
    CHECK_EQ(c.trule[0], rule);
    unsigned raised;
    if (analyze(&c, 0, &raised)) fprintf(stderr, "inject %s\n", ual_rule_id((enum ual_rule)rule));
    CHECK_EQ(raised, 1);
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) CHECK_EQ(analyze(&c, cuts[k], &raised), 0);
  }
  CHECK_EQ(rules, 11);
  /* an injection at a chosen frame lands at or after it */
  struct gen_opts o;
  gen_opts_default(&o);
  o.n_inject = 1;
  o.inject[0] = (struct gen_inject_req){ UAL_R_PD_ACK_BACKWARDS, 300 };
  struct gen_out out = { &c, on_record, on_truth, NULL, NULL, NULL, NULL };
  char err[128];
  memset(&c, 0, sizeof c);
  struct gen *g = gen_new(&o, &out, err, sizeof err);
  CHECK(g && gen_run(g, err, sizeof err) == 0);
  gen_free(g);
  CHECK_EQ(c.nt, 1);
  CHECK(c.tframe[0] >= 300 && c.tframe[0] < 320);
  return check_done("test_pcie_gen");
}
