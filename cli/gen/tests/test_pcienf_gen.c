/* pcie-gen1 and pcie-gen3 against the analysis: clean traffic raises no
 * warning or error (seeds 1-3, cut at several records too), a long run
 * wraps the sequence numbers of both directions past 4095 and stays
 * clean, and every injection of either scenario raises its rule and each
 * labelled consequence at its truth frame, and no warning or error the
 * truth does not list. */
#include "gen.h"
#include "pcienf.h"
#include "check.h"
#include <ualink/ualink/analysis.h>

#include <stdlib.h>
#include <string.h>

struct cap {
  uint8_t *buf;
  size_t used, bcap;
  size_t *off, *len;
  uint64_t *ts;
  size_t n, rcap;
  struct { uint64_t frame; int rule; bool inject; } *t;
  size_t nt, tcap;
};

static void *grow(void *p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return p;
  *cap = need * 2;
  p = realloc(p, *cap * size);
  if (!p) abort();
  return p;
}

static int on_record(void *ctx, uint64_t ts, const uint8_t *rec, size_t len) {
  struct cap *c = ctx;
  c->buf = grow(c->buf, &c->bcap, c->used + len, 1);
  size_t rc = c->rcap;
  c->off = grow(c->off, &rc, c->n + 1, sizeof *c->off);
  rc = c->rcap;
  c->len = grow(c->len, &rc, c->n + 1, sizeof *c->len);
  c->ts = grow(c->ts, &c->rcap, c->n + 1, sizeof *c->ts);
  memcpy(c->buf + c->used, rec, len);
  c->off[c->n] = c->used;
  c->len[c->n] = len;
  c->ts[c->n++] = ts;
  c->used += len;
  return 0;
}

static void on_truth(void *ctx, uint64_t frame, unsigned dir, int rule, const char *src, const char *note) {
  (void)dir;
  (void)note;
  struct cap *c = ctx;
  c->t = grow(c->t, &c->tcap, c->nt + 1, sizeof *c->t);
  c->t[c->nt].frame = frame;
  c->t[c->nt].rule = rule;
  c->t[c->nt++].inject = !strcmp(src, "inject");
}

static void cap_free(struct cap *c) {
  free(c->buf);
  free(c->off);
  free(c->len);
  free(c->ts);
  free(c->t);
  memset(c, 0, sizeof *c);
}

static int find_truth(const struct cap *c, uint64_t frame, int rule) {
  for (size_t i = 0; i < c->nt; i++)
    if (c->t[i].frame == frame && c->t[i].rule == rule) return (int)i;
  return -1;
}

static struct ual_analyzer an;

/* Analyzes records [from, n): returns the warnings and errors not in the
 * truth; with from = 0 also every truth entry not raised at its frame. */
static unsigned analyze(const struct cap *c, size_t from, const char *what) {
  struct ual_rec_result r;
  unsigned bad = 0;
  bool *hit = calloc(c->nt + 1, 1);
  ual_analyzer_init(&an);
  for (size_t i = from; i < c->n; i++) {
    ual_analyzer_step(&an, c->buf + c->off[i], c->len[i], i + 1 - from, c->ts[i], &r, NULL);
    for (unsigned k = 0; k < r.findings.n; k++) {
      int rule = r.findings.v[k].rule, t = find_truth(c, i + 1, rule);
      if (t >= 0) hit[t] = true;
      else if (ual_rule_severity((enum ual_rule)rule) != UAL_SEV_INFO) {
        bad++;
        fprintf(stderr, "  %s, from %zu: frame %zu: unexpected %s: %s\n", what, from + 1, i + 1,
                ual_rule_id((enum ual_rule)rule), r.findings.v[k].msg);
      }
    }
  }
  struct ual_findings end;
  ual_findings_clear(&end);
  ual_analyzer_finish(&an, &end, NULL);
  for (unsigned k = 0; k < end.n; k++)
    if (ual_rule_severity((enum ual_rule)end.v[k].rule) != UAL_SEV_INFO) {
      bad++;
      fprintf(stderr, "  %s: at the end: unexpected %s: %s\n", what, ual_rule_id((enum ual_rule)end.v[k].rule),
              end.v[k].msg);
    }
  for (size_t i = 0; from == 0 && i < c->nt; i++)
    if (!hit[i]) {
      bad++;
      fprintf(stderr, "  %s: %s at frame %llu not raised\n", what, ual_rule_id((enum ual_rule)c->t[i].rule),
              (unsigned long long)c->t[i].frame);
    }
  free(hit);
  return bad;
}

static bool run(struct cap *c, int sc, int rule, uint64_t seed, uint64_t count) {
  struct gen_opts o;
  gen_opts_default(&o);
  o.scenario = sc;
  o.seed = seed;
  o.count = count;
  if (rule >= 0) {
    o.n_inject = 1;
    o.inject[0] = (struct gen_inject_req){ rule, GEN_AT_DEFAULT };
  }
  struct gen_out out = { c, on_record, on_truth, NULL, NULL, NULL, NULL };
  char err[256];
  cap_free(c);
  struct gen *g = gen_new(&o, &out, err, sizeof err);
  if (!g) return false;
  int rc = gen_run(g, err, sizeof err);
  gen_free(g);
  if (rc) fprintf(stderr, "  %s %s: %s\n", gen_scenario_name(sc), rule >= 0 ? ual_rule_id((enum ual_rule)rule) : "",
                  err);
  return rc == 0;
}

/* The sequence numbers of each direction's TLPs wrap from 4095 to 0. */
static unsigned wraps(const struct cap *c) {
  int last[2] = { -1, -1 };
  unsigned n = 0;
  for (size_t i = 0; i < c->n; i++) {
    const uint8_t *r = c->buf + c->off[i];
    if (c->len[i] < 16 || r[1] != 7 || (r[9] & 3) != 1) continue;
    unsigned dir = r[2] & 1, seq = r[8] == 0 ? (r[13] & 0xFu) << 8 | r[14] : (r[14] & 0xFu) << 8 | r[15];
    if (last[dir] == 4095 && seq == 0) n |= 1u << dir;
    last[dir] = (int)seq;
  }
  return n;
}

int main(void) {
  static struct cap c;
  static const size_t cuts[] = { 1, 40, 57, 60, 100, 333, 1000, 2500 };
  char what[96];
  for (int sc = GEN_SC_PCIE_GEN1; sc <= GEN_SC_PCIE_GEN3; sc++) {
    for (uint64_t seed = 1; seed <= 3; seed++) {
      CHECK(run(&c, sc, -1, seed, 0));
      CHECK(c.n > 3000);
      CHECK_EQ(c.nt, 0);
      snprintf(what, sizeof what, "%s seed %llu", gen_scenario_name(sc), (unsigned long long)seed);
      CHECK_EQ(analyze(&c, 0, what), 0);
      for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) CHECK_EQ(analyze(&c, cuts[k], what), 0);
    }
    /* a long run: both directions wrap */
    CHECK(run(&c, sc, -1, 4, 30000));
    CHECK_EQ(wraps(&c), 3);
    snprintf(what, sizeof what, "%s -c 30000", gen_scenario_name(sc));
    CHECK_EQ(analyze(&c, 0, what), 0);
  }
  unsigned rules = 0;
  for (int rule = 0; rule < UAL_R_COUNT; rule++) {
    if (!gen_pcienf_inject_supported(rule)) continue;
    rules++;
    for (int sc = GEN_SC_PCIE_GEN1; sc <= GEN_SC_PCIE_GEN3; sc++) {
      if (!gen_pcienf_inject_in(rule, sc)) continue;
      snprintf(what, sizeof what, "%s --inject %s", gen_scenario_name(sc), ual_rule_id((enum ual_rule)rule));
      CHECK(run(&c, sc, rule, 5, 0));
      size_t own = 0;
      for (size_t i = 0; i < c.nt; i++) own += c.t[i].rule == rule && c.t[i].inject;
      if (own != 1) fprintf(stderr, "  %s: %zu labels of its own\n", what, own);
      CHECK_EQ(own, 1);
      CHECK_EQ(analyze(&c, 0, what), 0);
    }
  }
  CHECK(rules >= 34);
  cap_free(&c);
  return check_done("test_pcienf_gen");
}
