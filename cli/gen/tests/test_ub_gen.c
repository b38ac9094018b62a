/* The UB generator against the analyzer: every scenario clean, every
 * injection in its scenario, and clean captures cut at several points.
 * The analyzer's findings must be exactly the truth (frame and rule) for
 * whole captures; a cut capture may miss findings but raise none the truth
 * lacks. */
#include "ub.h"
#include "ualink/ualink/analysis.h"
#include "ualink/core/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXREC 40000
#define MAXT 4000

struct cap {
  uint8_t rec[MAXREC][32];
  uint8_t len[MAXREC];
  uint64_t ts[MAXREC];
  unsigned n;
  struct { uint64_t frame; int rule; } t[MAXT];
  unsigned nt;
};

static int on_rec(void *ctx, uint64_t ts, const uint8_t *rec, size_t len) {
  struct cap *c = ctx;
  if (c->n >= MAXREC || len > 32) return 1;
  memcpy(c->rec[c->n], rec, len);
  c->len[c->n] = (uint8_t)len;
  c->ts[c->n++] = ts;
  return 0;
}

static void on_truth(void *ctx, uint64_t frame, unsigned dir, int rule, const char *src, const char *note) {
  struct cap *c = ctx;
  (void)dir; (void)src; (void)note;
  if (c->nt < MAXT) { c->t[c->nt].frame = frame; c->t[c->nt].rule = rule; c->nt++; }
}

static int failures;

/* Runs the analyzer from record `from`; compares with the truth. */
static void check(struct cap *c, unsigned from, const char *what) {
  static struct ual_analyzer an;
  static uint8_t used[MAXT];
  struct ual_rec_result r;
  ual_analyzer_init(&an);
  memset(used, 0, sizeof used);
  unsigned extra = 0, shown = 0;
  for (unsigned i = from; i < c->n; i++) {
    ual_analyzer_step(&an, c->rec[i], c->len[i], i + 1, c->ts[i], &r, NULL);
    for (unsigned k = 0; k < r.findings.n; k++) {
      int rule = r.findings.v[k].rule;
      unsigned j;
      for (j = 0; j < c->nt; j++)
        if (!used[j] && c->t[j].frame == i + 1 && c->t[j].rule == rule) break;
      if (j < c->nt) { used[j] = 1; continue; }
      extra++;
      if (shown++ < 5) fprintf(stderr, "%s: frame %u: %s not in the truth: %s\n", what, i + 1, ual_rule_id((enum ual_rule)rule), r.findings.v[k].msg);
    }
  }
  struct ual_findings end;
  ual_findings_clear(&end);
  ual_analyzer_finish(&an, &end, NULL);
  extra += end.n;
  for (unsigned k = 0; k < end.n; k++) fprintf(stderr, "%s: end: %s\n", what, ual_rule_id((enum ual_rule)end.v[k].rule));
  unsigned missed = 0;
  if (from == 0)
    for (unsigned j = 0; j < c->nt; j++)
      if (!used[j] && missed++ < 5)
        fprintf(stderr, "%s: frame %llu: %s missed\n", what, (unsigned long long)c->t[j].frame, ual_rule_id((enum ual_rule)c->t[j].rule));
  if (extra || missed) { failures++; fprintf(stderr, "FAIL %s: %u extra, %u missed\n", what, extra, missed); }
}

static struct cap C;

static int run(int sc, int rule, uint64_t seed) {
  struct gen_opts o;
  gen_opts_default(&o);
  o.seed = seed;
  if (rule >= 0) { o.n_inject = 1; o.inject[0].rule = rule; o.inject[0].at_frame = GEN_AT_DEFAULT; }
  struct gen_out out = { .ctx = &C, .record = on_rec, .truth = on_truth };
  memset(&C, 0, sizeof C);
  char err[256];
  if (ub_gen_run(sc, &o, &out, err, sizeof err) != 0) { fprintf(stderr, "%s\n", err); failures++; return -1; }
  return 0;
}

static unsigned count_rule(int rule) {
  unsigned k = 0;
  for (unsigned j = 0; j < C.nt; j++) k += C.t[j].rule == rule;
  return k;
}

int main(int argc, char **argv) {
  const char *part = argc > 1 ? argv[1] : "all";
  char what[128];
  if (!strcmp(part, "scenarios") || !strcmp(part, "all"))
    for (int sc = 0; sc < UB_SC_COUNT; sc++) {
      if (run(sc, -1, 1)) continue;
      snprintf(what, sizeof what, "%s", ub_scenario_name(sc));
      check(&C, 0, what);
      /* clean: only the protocol's info findings and the channel's bit errors */
      for (unsigned j = 0; j < C.nt; j++)
        if (C.t[j].rule != UAL_R_UB_RETRY_REQ && C.t[j].rule != UAL_R_UB_BCRC && C.t[j].rule != UAL_R_UB_DISCARDED) {
          fprintf(stderr, "%s: unexpected truth %s\n", what, ual_rule_id((enum ual_rule)C.t[j].rule));
          failures++;
        }
      if (sc == UB_SC_BER && count_rule(UAL_R_UB_BCRC) == 0) { fprintf(stderr, "ub-ber: no bit error\n"); failures++; }
      for (unsigned cut = 7; cut < C.n; cut = cut * 3 + 11) {
        snprintf(what, sizeof what, "%s cut at %u", ub_scenario_name(sc), cut);
        check(&C, cut, what);
      }
    }
  if (!strcmp(part, "injections") || !strcmp(part, "all"))
    for (int r = 0; r < UAL_R_COUNT; r++) {
      /* every UB- rule is injected, but the protocol's own findings (seen
       * in ub-ber's clean run, consequences of the UB-BCRC injection) */
      static const int not_injected[] = { UAL_R_UB_RETRY_REQ, UAL_R_UB_DISCARDED };
      bool exempt = false;
      for (unsigned k = 0; k < sizeof not_injected / sizeof not_injected[0]; k++) exempt |= not_injected[k] == r;
      if (!strncmp(ual_rule_id((enum ual_rule)r), "UB-", 3) && !exempt && !ub_inject_supported(r)) {
        fprintf(stderr, "%s: no injection\n", ual_rule_id((enum ual_rule)r));
        failures++;
      }
      if (!ub_inject_supported(r)) continue;
      int sc = ub_inject_scenario(r);
      snprintf(what, sizeof what, "inject %s in %s", ual_rule_id((enum ual_rule)r), ub_scenario_name(sc));
      if (run(sc, r, 3) != 0) continue;
      /* the rule is in the truth as an injection, and the analyzer agrees */
      if (count_rule(r) == 0) { fprintf(stderr, "%s: not in the truth\n", what); failures++; }
      check(&C, 0, what);
    }
  printf("test_ub_gen %s: %s\n", part, failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
