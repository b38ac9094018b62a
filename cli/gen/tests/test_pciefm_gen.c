/* The flit-mode scenarios (pcie-flit, pcie-switch, pcie-rc) against the
 * analysis: clean traffic raises nothing but PF-SYNC, every request the
 * walk sees on a link is paired with its completion there (split
 * completions counted; through a switch or the Root Complex the completion
 * comes back with the request's ID), captures cut at any of several
 * records raise nothing either, and every injection raises its rule (and
 * its listed consequences) at its truth frame and nothing else. */
#include "gen.h"
#include "pciefm.h"
#include "check.h"
#include <ualink/ualink/analysis.h>

#include <stdlib.h>

#define CAP_REC_BYTES (UAL_REC_HDR_BYTES + UAL_FLIT_BYTES)
#include "gen_capture.h"

static struct ual_analyzer a;

/* Analyzes records [from, n); returns warnings and errors not in the truth,
 * counts the truth raised. */
static unsigned analyze(const struct cap *c, int sc, size_t from, unsigned *raised) {
  struct ual_rec_result r;
  unsigned extra = 0;
  *raised = 0;
  ual_analyzer_init(&a);
  /* the scenario's profile: GEN_PCIEFM_DECODE_ARGS, GEN_PCIERC_DECODE_ARGS */
  if (sc == GEN_SC_PCIE_FLIT) CHECK(ual_pcie_an_preset(&a.fab.pcie, GEN_PCIEFM_FAR_BDF, GEN_PCIEFM_FAR_SEG));
  if (sc == GEN_SC_PCIE_RC) {
    ual_pcie_an_nfm_subtree(&a.fab.pcie, GEN_PCIERC_NFM_LINK, false);
    ual_pcie_an_nfm_subtree(&a.fab.pcie, GEN_PCIERC_NO_NFM_LINK, true);
  }
  for (size_t i = from; i < c->n; i++) {
    ual_analyzer_step(&a, c->rec[i], c->len[i], i + 1, c->ts[i], &r, NULL);
    for (unsigned k = 0; k < r.findings.n; k++) {
      int rule = r.findings.v[k].rule;
      if (in_truth(c, i + 1, rule)) (*raised)++;
      else if (ual_rule_severity((enum ual_rule)rule) != UAL_SEV_INFO) {
        extra++;
        fprintf(stderr, "  frame %zu (from %zu): unexpected %s: %s\n", i + 1, from, ual_rule_id((enum ual_rule)rule),
                r.findings.v[k].msg);
      }
    }
  }
  struct ual_findings end;
  ual_findings_clear(&end);
  ual_analyzer_finish(&a, &end, NULL);
  return extra + end.n;
}

static void run(struct cap *c, int sc, int rule, uint64_t seed) {
  struct gen_opts o;
  gen_opts_default(&o);
  o.scenario = rule >= 0 ? -1 : sc;
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

static const size_t cuts[] = { 0, 1, 2, 5, 13, 30, 41, 64, 99, 140 };

/* A switch or Root Complex scenario: links of their own, every request of
 * each link completed there, nothing raised from anywhere. */
static void test_xl(struct cap *c, int sc, unsigned links) {
  for (uint64_t seed = 1; seed <= 2; seed++) {
    run(c, sc, -1, seed);
    CHECK(c->n > 150);
    CHECK_EQ(c->nt, 0);
    unsigned raised;
    CHECK_EQ(analyze(c, sc, 0, &raised), 0);
    for (unsigned i = 0; i < links; i++) {
      const struct ual_pcie_link_an *l = &a.fab.pcie.lk[i];
      CHECK_EQ(l->index, i);
      for (unsigned d = 0; d < 2; d++) {
        CHECK(l->fl[d].tlps > 20);
        CHECK_EQ(l->fl[d].outstanding, 0);
        CHECK_EQ(l->fl[d].cpl_unmatched, 0);
        CHECK(l->fl[d].pairs > 5);
      }
    }
    CHECK(!a.fab.pcie.lk[links].used);
    CHECK_EQ(a.fab.pcie.xl.dropped, 0);
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) CHECK_EQ(analyze(c, sc, cuts[k], &raised), 0);
  }
}

int main(void) {
  static struct cap c;
  test_xl(&c, GEN_SC_PCIE_SWITCH, 2);
  test_xl(&c, GEN_SC_PCIE_RC, 3);
  for (uint64_t seed = 1; seed <= 3; seed++) {
    run(&c, GEN_SC_PCIE_FLIT, -1, seed);
    CHECK(c.n > 150);
    CHECK_EQ(c.nt, 0);
    unsigned raised;
    CHECK_EQ(analyze(&c, GEN_SC_PCIE_FLIT, 0, &raised), 0);
    for (unsigned d = 0; d < 2; d++) {
      const struct ual_pcie_flow *fl = &a.fab.pcie.lk[0].fl[d], *peer = &a.fab.pcie.lk[0].fl[d ^ 1];
      CHECK(fl->tlps > 100);
      CHECK_EQ(fl->outstanding, 0);      /* every request of d was completed */
      CHECK_EQ(fl->untracked, 0);
      CHECK_EQ(peer->cpl_unmatched, 0);  /* every completion had its request */
      CHECK(peer->pairs > 20);
    }
    /* the Endpoint's 256-byte reads come back in two parts */
    CHECK(a.fab.pcie.lk[0].fl[0].split_parts > 10);
    CHECK(a.fab.pcie.lk[0].fl[0].lat[0x20].n > 10);
    CHECK(a.fab.pcie.lk[0].fl[0].lat[0x20].min_ns > 0);
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) CHECK_EQ(analyze(&c, GEN_SC_PCIE_FLIT, cuts[k], &raised), 0);
  }
  unsigned rules = 0;
  for (int rule = 0; rule < UAL_R_COUNT; rule++) {
    if (!gen_pciefm_inject_supported(rule)) continue;
    rules++;
    CHECK(!gen_inject_supported(rule));
    int sc = gen_pciefm_inject_scenario(rule);
    run(&c, sc, rule, 5);
    CHECK(c.nt >= 1 && c.nt <= 3);   /* the injection, and at most two consequences */
    CHECK(c.trule[0] == rule || c.trule[c.nt - 1] == rule);
    unsigned raised;
    if (analyze(&c, sc, 0, &raised)) fprintf(stderr, "inject %s\n", ual_rule_id((enum ual_rule)rule));
    CHECK_EQ(raised, c.nt);
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++)
      if (analyze(&c, sc, cuts[k], &raised)) fprintf(stderr, "inject %s cut %zu\n", ual_rule_id((enum ual_rule)rule), cuts[k]);
  }
  CHECK_EQ(rules, 14 + 5 + 6);
  return check_done("test_pciefm_gen");
}
