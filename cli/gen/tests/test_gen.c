/* Tests of ualink-gen. In-process (no arguments): every scenario and every
 * injectable rule is generated and checked with libdecode:
 *   - every record parses and every flit is valid, except labelled ones;
 *   - the stateless decode (ual_decode_record) raises exactly the labelled
 *     findings of severity warning and error, frame by frame;
 *   - the delivered stream of each direction (duplicates dropped, lost flits
 *     taken from their replay, numbered independently of the generator
 *     from the flit headers) unpacks to exactly the TL flits and DL
 *     messages the generator packed, in order;
 *   - timestamps never go back in a direction and consecutive flits are one
 *     flit time apart;
 *   - the same seed gives the same bytes.
 * With --cli GEN DIR the same checks run on pcap files written by the
 * executable (read back with libpcap), plus stdout and UDP export. */
#include "gen.h"
#include <ualink/ualink/analysis.h>
#include "../../../libdecode/tests/check.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ---- a captured run ---- */

struct rec { uint64_t ts_ns; uint32_t len, off; };
struct truth { uint64_t frame; unsigned dir; int rule; char src[16]; };
struct logged { unsigned dir; uint8_t tl[UAL_TL_FLIT_BYTES]; uint8_t m; };
struct logmsg { unsigned dir; uint32_t dw[33]; unsigned n; };

struct run {
  uint8_t *buf; size_t used, cap;
  struct rec *r; size_t n, rcap;
  struct truth *t; size_t nt, tcap;
  struct logged *tl; size_t ntl, tlcap;
  struct logmsg *msg; size_t nmsg, msgcap;
  bool have_logs;
  int rc;
  char err[256];
};

#define GROW(p, n, cap) do { if ((n) == (cap)) { (cap) = (cap) ? 2 * (cap) : 256; \
  (p) = realloc((p), (cap) * sizeof *(p)); if (!(p)) abort(); } } while (0)

static void run_free(struct run *r) {
  free(r->buf); free(r->r); free(r->t); free(r->tl); free(r->msg);
  memset(r, 0, sizeof *r);
}

static void add_record(struct run *r, uint64_t ts_ns, const uint8_t *b, size_t len) {
  GROW(r->r, r->n, r->rcap);
  while (r->used + len > r->cap) {
    r->cap = r->cap ? 2 * r->cap : 1 << 20;
    r->buf = realloc(r->buf, r->cap);
    if (!r->buf) abort();
  }
  memcpy(r->buf + r->used, b, len);
  r->r[r->n++] = (struct rec){ ts_ns, (uint32_t)len, (uint32_t)r->used };
  r->used += len;
}

static void add_truth(struct run *r, uint64_t frame, unsigned dir, int rule, const char *src) {
  GROW(r->t, r->nt, r->tcap);
  struct truth *t = &r->t[r->nt++];
  t->frame = frame;
  t->dir = dir;
  t->rule = rule;
  snprintf(t->src, sizeof t->src, "%s", src);
}

static int cb_record(void *ctx, uint64_t ts_ns, const uint8_t *rec, size_t len) {
  add_record(ctx, ts_ns, rec, len);
  return 0;
}
static void cb_truth(void *ctx, uint64_t frame, unsigned dir, int rule, const char *src, const char *note) {
  (void)note;
  add_truth(ctx, frame, dir, rule, src);
}
static void cb_tl(void *ctx, unsigned dir, const uint8_t d[UAL_TL_FLIT_BYTES], unsigned m0, unsigned m1) {
  struct run *r = ctx;
  GROW(r->tl, r->ntl, r->tlcap);
  struct logged *l = &r->tl[r->ntl++];
  l->dir = dir;
  memcpy(l->tl, d, UAL_TL_FLIT_BYTES);
  l->m = (uint8_t)(m0 | m1 << 1);
}
static void cb_msg(void *ctx, unsigned dir, const uint32_t *dw, unsigned n) {
  struct run *r = ctx;
  GROW(r->msg, r->nmsg, r->msgcap);
  struct logmsg *m = &r->msg[r->nmsg++];
  m->dir = dir;
  m->n = n;
  memcpy(m->dw, dw, n * sizeof *dw);
}

static void generate(struct run *r, const struct gen_opts *o) {
  memset(r, 0, sizeof *r);
  struct gen_out out = { .ctx = r, .record = cb_record, .truth = cb_truth, .tl_packed = cb_tl,
                         .msg_packed = cb_msg };
  r->have_logs = true;
  struct gen *g = gen_new(o, &out, r->err, sizeof r->err);
  if (!g) { r->rc = -2; return; }
  r->rc = gen_run(g, r->err, sizeof r->err);
  gen_free(g);
}

/* ---- checks ---- */

static bool stateless_rule(int rule) {
  switch (rule) {
  case UAL_R_PL_CRC: case UAL_R_PL_CRC_INVERTED: case UAL_R_PL_FEC_UNCORRECTABLE: case UAL_R_PL_USAGE:
  case UAL_R_PL_SEQ_ZERO: case UAL_R_PL_IDLE_BODY: case UAL_R_PL_NOP_DLLP: case UAL_R_PL_NOP_BODY:
  case UAL_R_DL_SH_RESERVED: case UAL_R_DL_TLBEAT: case UAL_R_DL_TL_NO_ROOM: case UAL_R_DL_ZERO_FILL:
  case UAL_R_DM_RESERVED: case UAL_R_DM_COMPRESSED: case UAL_R_DM_UNKNOWN: case UAL_R_DM_FIELD:
  case UAL_R_DM_RATE_RANGE: case UAL_R_DM_ID_FIELD: case UAL_R_LT_NO_FLIT_MODE:
  case UAL_R_LT_UNSUPPORTED_PM: case UAL_R_LT_L0P_PRIORITY:
    return true;
  }
  return false;
}

static bool dl_rule(int rule) {
  const char *id = ual_rule_id((enum ual_rule)rule);
  return !strncmp(id, "DL-", 3) || !strncmp(id, "DM-", 3);
}

static bool truth_has(const struct run *r, uint64_t frame, int rule) {
  for (size_t i = 0; i < r->nt; i++)
    if (r->t[i].frame == frame && r->t[i].rule == rule) return true;
  return false;
}

static size_t truth_count(const struct run *r, int rule, const char *src) {
  size_t n = 0;
  for (size_t i = 0; i < r->nt; i++)
    if (r->t[i].rule == rule && (!src || !strcmp(r->t[i].src, src))) n++;
  return n;
}

/* Lost flits or replays: the stateless unpacker (every valid flit in capture
 * order) is then out of step, and DL findings are judged on the delivered stream. */
static bool lossy(const struct run *r) {
  for (size_t i = 0; i < r->nt; i++)
    if (r->t[i].rule == UAL_R_PL_FEC_UNCORRECTABLE || r->t[i].rule == UAL_R_PL_CRC ||
        r->t[i].rule == UAL_R_PL_CRC_INVERTED || r->t[i].rule == UAL_R_RP_REPLAY)
      return true;
  return false;
}

/* The delivered stream of one direction, from the flit headers alone. */
struct deliver {
  bool have_exp, known, prev_bad;
  uint16_t exp, last;
  struct ual_unpack u;
  uint8_t *held;                 /* valid flits ahead of a loss, by sequence number */
  bool *have;
  size_t tl_i, msg_i;            /* next expected entry of the generator's logs */
  unsigned tl_ok, tl_bad, msg_ok, msg_bad;
  unsigned delivered;
};

static uint16_t s_inc(uint16_t s) { return s >= 1023 ? 1 : (uint16_t)(s + 1); }
static unsigned s_dist(uint16_t a, uint16_t b) { return (b % 1023u + 1023u - a % 1023u) % 1023u; }

static void deliver_one(struct run *r, struct deliver *d, unsigned dir, const uint8_t *flit,
                        uint64_t frame, unsigned *dl_findings, bool check_dl) {
  struct ual_unpack_out o;
  struct ual_findings f;
  ual_findings_clear(&f);
  ual_unpack_flit(&d->u, flit, frame, &o, &f);
  d->delivered++;
  for (unsigned i = 0; i < f.n; i++) {
    if (ual_rule_severity((enum ual_rule)f.v[i].rule) < UAL_SEV_WARNING) continue;
    if (check_dl && !truth_has(r, frame, f.v[i].rule)) {
      (*dl_findings)++;
      if (*dl_findings < 5)
        fprintf(stderr, "  delivered frame %llu: %s %s\n", (unsigned long long)frame,
                ual_rule_id((enum ual_rule)f.v[i].rule), f.v[i].msg);
    }
  }
  if (!r->have_logs) return;
  for (unsigned i = 0; i < o.n_tl; i++) {
    while (d->tl_i < r->ntl && r->tl[d->tl_i].dir != dir) d->tl_i++;
    if (d->tl_i < r->ntl && !memcmp(r->tl[d->tl_i].tl, o.tl[i].data, UAL_TL_FLIT_BYTES) &&
        r->tl[d->tl_i].m == (o.tl[i].m0 | o.tl[i].m1 << 1))
      d->tl_ok++;
    else
      d->tl_bad++;
    d->tl_i++;
  }
  for (unsigned i = 0; i < o.n_msg; i++) {
    while (d->msg_i < r->nmsg && r->msg[d->msg_i].dir != dir) d->msg_i++;
    bool ok = d->msg_i < r->nmsg && r->msg[d->msg_i].dw[0] == o.msg[i].msg.dw &&
              r->msg[d->msg_i].n == 1u + o.msg[i].n_payload &&
              !memcmp(r->msg[d->msg_i].dw + 1, o.msg[i].payload, 4u * o.msg[i].n_payload);
    if (ok) d->msg_ok++;
    else {
      d->msg_bad++;
      if (d->msg_bad < 4)
        fprintf(stderr, "  dir %u message mismatch at frame %llu: got %08x want %08x\n", dir,
                (unsigned long long)frame, o.msg[i].msg.dw,
                d->msg_i < r->nmsg ? r->msg[d->msg_i].dw[0] : 0);
    }
    d->msg_i++;
  }
}

struct verdict {
  unsigned bad_parse, bad_flit, extra_findings, missing_findings, dl_findings, ts_bad, spacing_bad;
  unsigned tl_ok, tl_bad, msg_ok, msg_bad, tl_left, msg_left, flits, payload;
};

static void verify(struct run *r, struct verdict *v, bool quiet) {
  memset(v, 0, sizeof *v);
  struct ual_decoder dec;
  ual_decoder_init(&dec);
  struct ual_rec_result *res = malloc(sizeof *res);
  struct deliver d[2];
  memset(d, 0, sizeof d);
  for (int i = 0; i < 2; i++) {
    ual_unpack_init(&d[i].u);
    d[i].held = calloc(1024, UAL_FLIT_BYTES);
    d[i].have = calloc(1024, sizeof(bool));
  }
  bool loss = lossy(r);
  uint64_t last_ts[2] = { 0, 0 }, last_flit_ts[2] = { 0, 0 };
  bool prev_flit[2] = { false, false };
  unsigned prev_rate[2] = { 0, 0 }, prev_width[2] = { 0, 0 };

  for (size_t i = 0; i < r->n; i++) {
    uint64_t frame = i + 1;
    const uint8_t *b = r->buf + r->r[i].off;
    ual_decode_record(&dec, b, r->r[i].len, frame, res);
    if (res->status != UAL_RS_OK) { v->bad_parse++; continue; }
    unsigned dir = res->dir;
    /* timestamps */
    uint64_t ts = r->r[i].ts_ns;
    if (ts < last_ts[dir]) v->ts_bad++;
    last_ts[dir] = ts;
    if (res->rec.h.kind == UAL_REC_FLIT) {
      uint64_t ft = ual_flit_time_ps(res->rec.h.rate, res->rec.h.width);
      if (prev_flit[dir] && prev_rate[dir] == res->rec.h.rate && prev_width[dir] == res->rec.h.width) {
        int64_t gap = (int64_t)(ts - last_flit_ts[dir]) * 1000 - (int64_t)ft;
        if (gap < -1000 || gap > 1000) v->spacing_bad++;
      }
      prev_flit[dir] = true;
      prev_rate[dir] = res->rec.h.rate;
      prev_width[dir] = res->rec.h.width;
      last_flit_ts[dir] = ts;
      v->flits++;
    } else {
      prev_flit[dir] = false;
    }
    /* findings of the stateless decode against the truth */
    for (unsigned k = 0; k < res->findings.n; k++) {
      int rule = res->findings.v[k].rule;
      if (ual_rule_severity((enum ual_rule)rule) < UAL_SEV_WARNING) continue;
      if (loss && dl_rule(rule)) continue;   /* judged on the delivered stream instead */
      if (!truth_has(r, frame, rule)) {
        v->extra_findings++;
        if (!quiet && v->extra_findings < 6)
          fprintf(stderr, "  frame %llu: unexpected %s: %s\n", (unsigned long long)frame,
                  ual_rule_id((enum ual_rule)rule), res->findings.v[k].msg);
      }
    }
    if (res->rec.h.kind != UAL_REC_FLIT) continue;
    const struct ual_flit_info *fi = &res->flit;
    bool labelled_bad = truth_has(r, frame, UAL_R_PL_CRC) || truth_has(r, frame, UAL_R_PL_CRC_INVERTED) ||
                        truth_has(r, frame, UAL_R_PL_FEC_UNCORRECTABLE);
    if (!fi->valid && !labelled_bad) v->bad_flit++;
    if (fi->fec.status != UAL_FEC_CLEAN && !truth_has(r, frame, UAL_R_PL_FEC_CORRECTED) && !labelled_bad)
      v->bad_flit++;

    /* the delivered stream */
    struct deliver *dd = &d[dir];
    if (!fi->valid) {
      if (dd->prev_bad) dd->known = false;
      dd->prev_bad = true;
      continue;
    }
    if (fi->kind == UAL_FK_IDLE || fi->kind == UAL_FK_RESERVED) { dd->prev_bad = false; continue; }
    if (fi->kind == UAL_FK_NOP) {
      if (fi->fh.replay_cmd == UAL_RC_SEQ) { dd->last = fi->fh.seq; dd->known = true; }
      dd->prev_bad = false;
      continue;
    }
    v->payload++;
    uint16_t seq;
    if (fi->fh.replay_cmd == UAL_RC_SEQ) {
      if (fi->fh.seq == 0) { dd->prev_bad = false; continue; }
      seq = fi->fh.seq;
    } else if (dd->known) {
      seq = dd->last;
      seq = s_inc(seq);
      if (dd->prev_bad && fi->fh.prior_payload) seq = s_inc(seq);
    } else {
      dd->prev_bad = false;
      continue;
    }
    dd->prev_bad = false;
    dd->last = seq;
    dd->known = true;
    if (!dd->have_exp) { dd->have_exp = true; dd->exp = seq; }
    unsigned ahead = s_dist(dd->exp, seq);
    if (ahead != 0 && ahead < 512 && truth_has(r, frame, UAL_R_RP_SEQ_GAP)) { dd->exp = seq; ahead = 0; }
    if (ahead == 0) {
      deliver_one(r, dd, dir, fi->bytes, frame, &v->dl_findings, loss);
      dd->exp = s_inc(dd->exp);
      while (dd->have[dd->exp]) {
        dd->have[dd->exp] = false;
        deliver_one(r, dd, dir, dd->held + (size_t)dd->exp * UAL_FLIT_BYTES, frame, &v->dl_findings, loss);
        dd->exp = s_inc(dd->exp);
      }
    } else if (ahead < 512) {
      memcpy(dd->held + (size_t)seq * UAL_FLIT_BYTES, fi->bytes, UAL_FLIT_BYTES);
      dd->have[seq] = true;
    }
  }
  /* every stateless label must have been raised (a second pass: findings need the unpacker state) */
  {
    struct ual_decoder d2;
    ual_decoder_init(&d2);
    for (size_t i = 0; i < r->n; i++) {
      ual_decode_record(&d2, r->buf + r->r[i].off, r->r[i].len, i + 1, res);
      for (size_t k = 0; k < r->nt; k++) {
        if (r->t[k].frame != i + 1 || !stateless_rule(r->t[k].rule)) continue;
        if (loss && dl_rule(r->t[k].rule)) continue;
        if (!ual_findings_has(&res->findings, (enum ual_rule)r->t[k].rule)) {
          v->missing_findings++;
          if (!quiet)
            fprintf(stderr, "  frame %llu: labelled %s not raised\n", (unsigned long long)(i + 1),
                    ual_rule_id((enum ual_rule)r->t[k].rule));
        }
      }
    }
  }
  for (int i = 0; i < 2; i++) {
    v->tl_ok += d[i].tl_ok;
    v->tl_bad += d[i].tl_bad;
    v->msg_ok += d[i].msg_ok;
    v->msg_bad += d[i].msg_bad;
    if (r->have_logs) {
      for (size_t k = d[i].tl_i; k < r->ntl; k++) if (r->tl[k].dir == (unsigned)i) v->tl_left++;
      for (size_t k = d[i].msg_i; k < r->nmsg; k++) if (r->msg[k].dir == (unsigned)i) v->msg_left++;
    }
    free(d[i].held);
    free(d[i].have);
  }
  free(res);
}

/* The stateful analyzer over the capture: findings of severity warning and
 * error that the truth does not list (any source), and truth entries of
 * source "inject" the analyzer did not raise within a few frames. */
struct sverdict { unsigned extra, missing; };

static bool truth_near(const struct run *r, uint64_t frame, int rule, uint64_t slack) {
  for (size_t i = 0; i < r->nt; i++)
    if (r->t[i].rule == rule && r->t[i].frame + slack >= frame && frame + slack >= r->t[i].frame) return true;
  return false;
}

#define STATEFUL_SLACK 64   /* frames between where the generator labels and where the analyzer decides */

static void verify_stateful(const struct run *r, struct sverdict *v, bool quiet) {
  memset(v, 0, sizeof *v);
  static struct ual_analyzer a;
  struct ual_rec_result *res = malloc(sizeof *res);
  struct ual_findings end;
  uint64_t *raised = calloc(r->nt + 1, sizeof *raised);
  ual_analyzer_init(&a);
  for (size_t i = 0; i <= r->n; i++) {
    struct ual_findings *f = &res->findings;
    uint64_t frame = i + 1;
    if (i < r->n) {
      ual_analyzer_step(&a, r->buf + r->r[i].off, r->r[i].len, frame, r->r[i].ts_ns, res, NULL);
    } else {
      ual_findings_clear(&end);
      ual_analyzer_finish(&a, &end, NULL);
      f = &end;
      frame = r->n;
    }
    for (unsigned k = 0; k < f->n; k++) {
      int rule = f->v[k].rule;
      for (size_t t = 0; t < r->nt; t++)
        if (r->t[t].rule == rule && r->t[t].frame + STATEFUL_SLACK >= frame && frame + STATEFUL_SLACK >= r->t[t].frame)
          raised[t] = 1;
      if (ual_rule_severity((enum ual_rule)rule) < UAL_SEV_WARNING) continue;
      if (truth_near(r, frame, rule, STATEFUL_SLACK)) continue;
      v->extra++;
      if (!quiet && v->extra < 8)
        fprintf(stderr, "  stateful frame %llu: unexpected %s: %s\n", (unsigned long long)frame,
                ual_rule_id((enum ual_rule)rule), f->v[k].msg);
    }
  }
  for (size_t t = 0; t < r->nt; t++) {
    if (strcmp(r->t[t].src, "inject") || raised[t]) continue;
    v->missing++;
    if (!quiet)
      fprintf(stderr, "  stateful: injected %s at frame %llu not raised\n", ual_rule_id((enum ual_rule)r->t[t].rule),
              (unsigned long long)r->t[t].frame);
  }
  free(raised);
  free(res);
}

static void expect_clean(const char *what, struct run *r, bool truncated) {
  struct verdict v;
  verify(r, &v, false);
  if (v.bad_parse || v.bad_flit || v.extra_findings || v.missing_findings || v.dl_findings || v.ts_bad ||
      v.spacing_bad || v.tl_bad || v.msg_bad || (!truncated && (v.tl_left || v.msg_left)))
    fprintf(stderr, "%s: parse %u flit %u extra %u missing %u dl %u ts %u spacing %u tl %u/%u left %u "
            "msg %u/%u left %u\n", what, v.bad_parse, v.bad_flit, v.extra_findings, v.missing_findings,
            v.dl_findings, v.ts_bad, v.spacing_bad, v.tl_ok, v.tl_bad, v.tl_left, v.msg_ok, v.msg_bad,
            v.msg_left);
  CHECK_EQ(v.bad_parse, 0);
  CHECK_EQ(v.bad_flit, 0);
  CHECK_EQ(v.extra_findings, 0);
  CHECK_EQ(v.missing_findings, 0);
  CHECK_EQ(v.dl_findings, 0);
  CHECK_EQ(v.ts_bad, 0);
  CHECK_EQ(v.spacing_bad, 0);
  CHECK_EQ(v.tl_bad, 0);
  CHECK_EQ(v.msg_bad, 0);
  if (!truncated) {
    CHECK_EQ(v.tl_left, 0);
    CHECK_EQ(v.msg_left, 0);
  }
  CHECK(v.flits > 0);
}

/* ---- the in-process suite ---- */

static void base_opts(struct gen_opts *o, int sc, uint64_t count) {
  gen_opts_default(o);
  o->scenario = sc;
  o->count = count;
  o->seed = 7;
}

static void test_scenarios(void) {
  for (int sc = 0; sc < GEN_SC_COUNT; sc++) {
    struct gen_opts o;
    base_opts(&o, sc, 0);
    if (sc == GEN_SC_TRAFFIC || sc == GEN_SC_UART || sc == GEN_SC_ERRORS) o.count = 5000;
    struct run r;
    generate(&r, &o);
    if (r.rc) fprintf(stderr, "%s: %s\n", gen_scenario_name(sc), r.err);
    CHECK_EQ(r.rc, 0);
    expect_clean(gen_scenario_name(sc), &r, false);
    CHECK(r.ntl > 0 || sc == GEN_SC_BRINGUP);
    CHECK(r.nmsg > 0);
    /* nothing injected: no truth from a violation */
    for (size_t i = 0; i < r.nt; i++) CHECK(strcmp(r.t[i].src, "inject") != 0);
    if (sc == GEN_SC_ERRORS) {
      CHECK(truth_count(&r, UAL_R_PL_FEC_UNCORRECTABLE, "channel") >= 3);
      CHECK(truth_count(&r, UAL_R_PL_FEC_CORRECTED, "channel") >= 2);
      CHECK(truth_count(&r, UAL_R_RP_NAK, NULL) >= 9);
      CHECK(truth_count(&r, UAL_R_RP_REPLAY, NULL) >= 3);
    }
    printf("%-12s %6zu records, %5zu TL flits, %4zu DL messages, %zu truth lines\n",
           gen_scenario_name(sc), r.n, r.ntl, r.nmsg, r.nt);
    run_free(&r);
  }
}

/* Both Nak kinds, at two rates and widths, with random bit errors. */
static void test_replay_modes(void) {
  static const struct { int nak; unsigned rate, width; double ber; } cases[] = {
    { GEN_NAK_STANDARD, 7, 8, 2e-5 }, { GEN_NAK_SELECTIVE, 7, 8, 2e-5 },
    { GEN_NAK_ALTERNATE, 2, 4, 5e-5 }, { GEN_NAK_SELECTIVE, 3, 2, 1e-4 },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct gen_opts o;
    base_opts(&o, GEN_SC_ERRORS, 6000);
    o.nak = cases[i].nak;
    o.rate = cases[i].rate;
    o.width = cases[i].width;
    o.ber = cases[i].ber;
    o.seed = 100 + i;
    struct run r;
    generate(&r, &o);
    if (r.rc) fprintf(stderr, "replay case %zu: %s\n", i, r.err);
    CHECK_EQ(r.rc, 0);
    char name[64];
    snprintf(name, sizeof name, "replay case %zu", i);
    expect_clean(name, &r, false);
    CHECK(truth_count(&r, UAL_R_RP_REPLAY, NULL) >= 3);
    run_free(&r);
  }
}

static void test_determinism(void) {
  struct gen_opts o;
  base_opts(&o, GEN_SC_ALL, 0);
  o.seed = 42;
  struct run a, b;
  generate(&a, &o);
  generate(&b, &o);
  CHECK_EQ(a.rc, 0);
  CHECK_EQ(a.n, b.n);
  CHECK_EQ(a.used, b.used);
  if (a.used == b.used) CHECK_MEM(a.buf, b.buf, a.used);
  bool ts_same = a.n == b.n;
  for (size_t i = 0; ts_same && i < a.n; i++) ts_same = a.r[i].ts_ns == b.r[i].ts_ns;
  CHECK(ts_same);
  o.seed = 43;
  struct run c;
  generate(&c, &o);
  CHECK(c.used != a.used || memcmp(a.buf, c.buf, a.used) != 0);
  run_free(&a);
  run_free(&b);
  run_free(&c);
}

/* Roles, rates and widths in the record headers. */
static void test_headers(void) {
  struct gen_opts o;
  base_opts(&o, GEN_SC_TRAFFIC, 400);
  o.rate = 5;
  o.width = 4;
  o.peer = GEN_PEER_ACCEL;
  struct run r;
  generate(&r, &o);
  CHECK_EQ(r.rc, 0);
  unsigned good = 0, dirs[2] = { 0, 0 };
  for (size_t i = 0; i < r.n; i++) {
    struct ual_record rec;
    CHECK_EQ(ual_record_parse(r.buf + r.r[i].off, r.r[i].len, &rec), UAL_RS_OK);
    if (rec.h.role_a == UAL_ROLE_ACCEL && rec.h.role_b == UAL_ROLE_ACCEL && rec.h.rate == 5 &&
        rec.h.width == 4 && rec.h.link == 0)
      good++;
    dirs[rec.h.flags & UAL_RF_DIR_B ? 1 : 0]++;
  }
  CHECK_EQ(good, r.n);
  CHECK(dirs[0] > 100 && dirs[1] > 100);
  /* both directions interleave: A's and B's flits alternate in time */
  CHECK(r.r[1].ts_ns >= r.r[0].ts_ns);
  run_free(&r);

  base_opts(&o, GEN_SC_BRINGUP, 0);
  generate(&r, &o);
  unsigned rates = 0, last = 0;
  for (size_t i = 0; i < r.n; i++) {
    struct ual_record rec;
    ual_record_parse(r.buf + r.r[i].off, r.r[i].len, &rec);
    if (rec.h.rate != last) { rates++; last = rec.h.rate; }
    CHECK(rec.h.role_a == UAL_ROLE_ACCEL && rec.h.role_b == UAL_ROLE_SWITCH);
  }
  CHECK(rates >= 3);                  /* 2.5, 32.0 and 128 GT/s (and back and forth between sides) */
  run_free(&r);
}

static void test_injections(const char *only_rule) {
  unsigned n = 0, ok = 0;
  for (int rule = 0; rule < UAL_R_COUNT; rule++) {
    if (!gen_inject_supported(rule)) continue;
    if (only_rule && strcmp(only_rule, ual_rule_id((enum ual_rule)rule))) continue;
    n++;
    struct gen_opts o;
    gen_opts_default(&o);
    o.seed = 11;
    o.n_inject = 1;
    o.inject[0].rule = rule;
    o.inject[0].at_frame = GEN_AT_DEFAULT;
    struct run r;
    generate(&r, &o);
    const char *id = ual_rule_id((enum ual_rule)rule);
    if (r.rc) fprintf(stderr, "inject %s: %s\n", id, r.err);
    CHECK_EQ(r.rc, 0);
    size_t labels = truth_count(&r, rule, "inject");
    if (labels != 1) fprintf(stderr, "inject %s: %zu labels\n", id, labels);
    CHECK_EQ(labels, 1);
    bool trunc = rule == UAL_R_DL_TRUNCATED_TL;
    char name[64];
    snprintf(name, sizeof name, "inject %s", id);
    int before = check_failures;
    expect_clean(name, &r, trunc || rule == UAL_R_PL_CRC_INVERTED || rule == UAL_R_DL_AFTER_CONTAIN);
    if (check_failures == before && !r.rc && labels == 1) ok++;
    run_free(&r);
  }
  printf("injections: %u of %u generate, label once and decode as labelled\n", ok, n);
}

static void test_inject_at(void) {
  struct gen_opts o;
  base_opts(&o, GEN_SC_TRAFFIC, 3000);
  o.n_inject = 3;
  o.inject[0] = (struct gen_inject_req){ UAL_R_DL_TLBEAT, 1000 };
  o.inject[1] = (struct gen_inject_req){ UAL_R_DM_UNKNOWN, 1500 };
  o.inject[2] = (struct gen_inject_req){ UAL_R_PL_NOP_BODY, 2000 };
  struct run r;
  generate(&r, &o);
  CHECK_EQ(r.rc, 0);
  for (size_t i = 0; i < r.nt; i++) {
    if (strcmp(r.t[i].src, "inject")) continue;
    if (r.t[i].rule == UAL_R_DL_TLBEAT) CHECK(r.t[i].frame >= 1000 && r.t[i].frame < 1100);
    if (r.t[i].rule == UAL_R_DM_UNKNOWN) CHECK(r.t[i].frame >= 1500 && r.t[i].frame < 1600);
    if (r.t[i].rule == UAL_R_PL_NOP_BODY) CHECK(r.t[i].frame >= 2000 && r.t[i].frame < 2100);
  }
  CHECK_EQ(truth_count(&r, UAL_R_DL_TLBEAT, "inject") + truth_count(&r, UAL_R_DM_UNKNOWN, "inject") +
               truth_count(&r, UAL_R_PL_NOP_BODY, "inject"), 3);
  expect_clean("inject at", &r, false);
  run_free(&r);
  /* an opportunity that never comes is an error, not a silent success */
  base_opts(&o, GEN_SC_TRAFFIC, 500);
  o.n_inject = 1;
  o.inject[0] = (struct gen_inject_req){ UAL_R_LT_NO_FLIT_MODE, 100000 };   /* training is over by then */
  generate(&r, &o);
  CHECK(r.rc != 0);
  run_free(&r);
}

/* The stateful analysis of libdecode agrees with the ground truth. */
static void test_stateful(const char *only_rule) {
  unsigned runs = 0, agree = 0;
  for (int sc = 0; sc < GEN_SC_COUNT && !only_rule; sc++) {
    struct gen_opts o;
    base_opts(&o, sc, sc == GEN_SC_TRAFFIC || sc == GEN_SC_UART || sc == GEN_SC_ERRORS ? 5000 : 0);
    struct run r;
    generate(&r, &o);
    struct sverdict v;
    verify_stateful(&r, &v, false);
    if (v.extra || v.missing) fprintf(stderr, "stateful %s: %u unexpected, %u missing\n", gen_scenario_name(sc), v.extra, v.missing);
    CHECK_EQ(v.extra, 0);
    CHECK_EQ(v.missing, 0);
    runs++;
    agree += !v.extra && !v.missing;
    run_free(&r);
  }
  for (int rule = 0; rule < UAL_R_COUNT; rule++) {
    if (!gen_inject_supported(rule)) continue;
    if (only_rule && strcmp(only_rule, ual_rule_id((enum ual_rule)rule))) continue;
    struct gen_opts o;
    gen_opts_default(&o);
    o.seed = 11;
    o.n_inject = 1;
    o.inject[0] = (struct gen_inject_req){ rule, GEN_AT_DEFAULT };
    struct run r;
    generate(&r, &o);
    struct sverdict v;
    verify_stateful(&r, &v, false);
    if (v.extra || v.missing)
      fprintf(stderr, "stateful inject %s: %u unexpected, %u missing\n", ual_rule_id((enum ual_rule)rule), v.extra, v.missing);
    CHECK_EQ(v.extra, 0);
    CHECK_EQ(v.missing, 0);
    runs++;
    agree += !v.extra && !v.missing;
    run_free(&r);
  }
  printf("stateful analysis agrees with the truth in %u of %u runs\n", agree, runs);
}

/* More seeds, rates, widths and roles, through both analyses. */
static void test_sweep(unsigned seeds) {
  static const struct { unsigned rate, width; int peer; } cfg[] = {
    { 7, 8, GEN_PEER_DEFAULT }, { 2, 4, GEN_PEER_DEFAULT }, { 3, 2, GEN_PEER_ACCEL }, { 4, 8, GEN_PEER_ACCEL },
    { 1, 8, GEN_PEER_DEFAULT },
  };
  unsigned runs = 0, bad = 0;
  for (unsigned seed = 1; seed <= seeds; seed++)
    for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++)
      for (int sc = 0; sc < GEN_SC_COUNT; sc++) {
        struct gen_opts o;
        base_opts(&o, sc, sc == GEN_SC_TRAFFIC || sc == GEN_SC_UART || sc == GEN_SC_ERRORS ? 3000 : 0);
        o.seed = seed * 1000 + c;
        o.rate = cfg[c].rate;
        o.width = cfg[c].width;
        o.peer = cfg[c].peer;
        struct run r;
        generate(&r, &o);
        char name[96];
        snprintf(name, sizeof name, "sweep %s seed %llu rate %u x%u%s", gen_scenario_name(sc),
                 (unsigned long long)o.seed, o.rate, o.width, o.peer == GEN_PEER_ACCEL ? " accel-accel" : "");
        if (r.rc) fprintf(stderr, "%s: %s\n", name, r.err);
        CHECK_EQ(r.rc, 0);
        int before = check_failures;
        expect_clean(name, &r, false);
        struct sverdict v;
        verify_stateful(&r, &v, false);
        if (v.extra || v.missing) fprintf(stderr, "%s: stateful %u unexpected, %u missing\n", name, v.extra, v.missing);
        CHECK_EQ(v.extra, 0);
        CHECK_EQ(v.missing, 0);
        runs++;
        bad += check_failures != before;
        run_free(&r);
      }
  printf("sweep: %u runs, %u with findings\n", runs, bad);
}

/* Every injection at more seeds and link speeds. */
static void test_inject_sweep(unsigned seeds) {
  static const struct { unsigned rate, width; } cfg[] = { { 7, 8 }, { 2, 4 }, { 3, 8 } };
  unsigned runs = 0, bad = 0;
  for (unsigned seed = 1; seed <= seeds; seed++)
    for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++)
      for (int rule = 0; rule < UAL_R_COUNT; rule++) {
        if (!gen_inject_supported(rule)) continue;
        struct gen_opts o;
        gen_opts_default(&o);
        o.seed = 500 + seed * 10 + c;
        o.rate = cfg[c].rate;
        o.width = cfg[c].width;
        o.n_inject = 1;
        o.inject[0] = (struct gen_inject_req){ rule, GEN_AT_DEFAULT };
        struct run r;
        generate(&r, &o);
        char name[96];
        snprintf(name, sizeof name, "inject %s seed %llu rate %u x%u", ual_rule_id((enum ual_rule)rule),
                 (unsigned long long)o.seed, o.rate, o.width);
        int before = check_failures;
        if (r.rc) fprintf(stderr, "%s: %s\n", name, r.err);
        CHECK_EQ(r.rc, 0);
        CHECK_EQ(truth_count(&r, rule, "inject"), 1);
        expect_clean(name, &r, rule == UAL_R_DL_TRUNCATED_TL || rule == UAL_R_PL_CRC_INVERTED ||
                                   rule == UAL_R_DL_AFTER_CONTAIN);
        struct sverdict v;
        verify_stateful(&r, &v, false);
        if (v.extra || v.missing) fprintf(stderr, "%s: stateful %u unexpected, %u missing\n", name, v.extra, v.missing);
        CHECK_EQ(v.extra, 0);
        CHECK_EQ(v.missing, 0);
        runs++;
        bad += check_failures != before;
        run_free(&r);
      }
  printf("inject sweep: %u runs, %u with findings\n", runs, bad);
}

/* Rules the analyzer decides from a deadline or a segment position are
 * labelled exactly: DM-CTRL-PENDING-TIMEOUT on the first record of the
 * partner that owes the request once 10 ms have passed since its Decision
 * Pending, DM-UART-RESET-TIMEOUT on the first record 10 ms after the
 * unanswered Reset Request, DM-UART-INTERLEAVE in SH0 of the flit whose
 * segment 0 the transport skips. The 10 ms pass in an L1 rest, not in
 * millions of flits. */
struct exact {
  unsigned raised;
  uint64_t frame;                /* where the analyzer raised the rule first */
  int segment;
  uint64_t start_frame, start_ns;  /* the Decision Pending / Reset Request before it */
};

static void analyze_exact(const struct run *r, int rule, struct exact *x) {
  static struct ual_analyzer a;
  static struct ual_events ev;
  struct ual_rec_result *res = malloc(sizeof *res);
  memset(x, 0, sizeof *x);
  ual_analyzer_init(&a);
  ual_events_init(&ev);
  for (size_t i = 0; i < r->n; i++) {
    ual_events_clear(&ev);
    ual_analyzer_step(&a, r->buf + r->r[i].off, r->r[i].len, i + 1, r->r[i].ts_ns, res, &ev);
    for (unsigned k = 0; k < res->findings.n; k++)
      if (res->findings.v[k].rule == rule && !x->raised++) {
        x->frame = i + 1;
        x->segment = res->findings.v[k].segment;
      }
    for (unsigned k = 0; k < ev.n && !x->raised; k++) {
      const struct ual_tevent *e = &ev.v[k];
      if ((rule == UAL_R_DM_CTRL_PENDING_TIMEOUT && e->kind == UAL_TEV_NEGOTIATION && e->outcome == UAL_NEG_PENDING) ||
          (rule == UAL_R_DM_UART_RESET_TIMEOUT && e->kind == UAL_TEV_UART_RESET && e->value == 1)) {
        x->start_frame = e->frame;
        x->start_ns = e->ts_ns;
      }
    }
  }
  free(res);
}

static unsigned rec_dir(const struct run *r, size_t i) { return r->buf[r->r[i].off + 2] & UAL_RF_DIR_B ? 1u : 0u; }

/* One run of an exact-label case; returns the labelled frame (0 when none)
 * and the segment of an interleave finding. */
static uint64_t exact_run(int rule, unsigned rate, unsigned width, int peer, uint64_t seed, uint64_t at, int *seg) {
  const uint64_t wait_ns = 10000000;
  struct gen_opts o;
  gen_opts_default(&o);
  o.seed = seed;
  o.rate = rate;
  o.width = width;
  o.peer = peer;
  o.n_inject = 1;
  o.inject[0] = (struct gen_inject_req){ rule, at };
  struct run r;
  generate(&r, &o);
  if (r.rc) fprintf(stderr, "exact %s rate %u x%u: %s\n", ual_rule_id((enum ual_rule)rule), rate, width, r.err);
  CHECK_EQ(r.rc, 0);
  CHECK_EQ(truth_count(&r, rule, "inject"), 1);
  const struct truth *t = NULL;
  for (size_t i = 0; i < r.nt; i++)
    if (r.t[i].rule == rule) t = &r.t[i];
  struct exact x;
  analyze_exact(&r, rule, &x);
  CHECK_EQ(x.raised, 1);
  uint64_t frame = t && x.raised ? t->frame : 0;
  *seg = x.segment;
  if (!frame) { run_free(&r); return 0; }
  CHECK_EQ(x.frame, t->frame);
  size_t idx = t->frame - 1;
  if (rule == UAL_R_DM_UART_INTERLEAVE) {
    /* the gap: no alternate sector in the flagged segment, one in each before it */
    struct ual_flit_info fi;
    CHECK_EQ(r.r[idx].len, UAL_REC_HDR_BYTES + UAL_FLIT_BYTES);
    ual_flit_decode(r.buf + r.r[idx].off + UAL_REC_HDR_BYTES, &fi, NULL);
    CHECK(fi.valid && fi.kind == UAL_FK_PAYLOAD);
    CHECK(x.segment == 0 || x.segment == 1);
    CHECK(!fi.sh[x.segment].alt);
    for (int k = 0; k < x.segment; k++) CHECK(fi.sh[k].alt);
    CHECK_EQ(t->dir, 0);
    CHECK_EQ(rec_dir(&r, idx), 0);
  } else {
    bool own = rule == UAL_R_DM_CTRL_PENDING_TIMEOUT;   /* checked on B's records only */
    CHECK_EQ(t->dir, 1);
    if (own) CHECK_EQ(rec_dir(&r, idx), 1);
    CHECK(x.start_frame > 0 && x.start_frame < t->frame);
    uint64_t due = x.start_ns + wait_ns;
    CHECK(r.r[idx].ts_ns > due);
    size_t prev = idx;
    while (prev > 0 && own && rec_dir(&r, prev - 1) != 1) prev--;
    CHECK(prev > 0);
    if (prev > 0) {
      CHECK(r.r[prev - 1].ts_ns <= due);
      CHECK(r.r[idx].ts_ns - r.r[prev - 1].ts_ns >= wait_ns);   /* the rest spans the deadline */
    }
    CHECK(r.n < 40000);
  }
  struct sverdict v;
  verify_stateful(&r, &v, false);
  CHECK_EQ(v.extra, 0);
  CHECK_EQ(v.missing, 0);
  run_free(&r);
  return frame;
}

static void test_inject_exact(void) {
  static const int rules[] = { UAL_R_DM_CTRL_PENDING_TIMEOUT, UAL_R_DM_UART_RESET_TIMEOUT, UAL_R_DM_UART_INTERLEAVE };
  static const struct { unsigned rate, width; int peer; } cfg[] = {
    { 7, 8, GEN_PEER_SWITCH }, { 2, 4, GEN_PEER_SWITCH }, { 1, 1, GEN_PEER_SWITCH }, { 3, 2, GEN_PEER_ACCEL },
  };
  unsigned runs = 0, good = 0, segs[2] = { 0, 0 };
  for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++)
    for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
      int before = check_failures, seg = -1;
      uint64_t f = exact_run(rules[k], cfg[c].rate, cfg[c].width, cfg[c].peer, 21 + c, GEN_AT_DEFAULT, &seg);
      runs++;
      if (rules[k] == UAL_R_DM_UART_INTERLEAVE && seg >= 0 && seg < 2) segs[seg]++;
      /* right after the first chance: the same transport, if still open, pauses in SH0 */
      if (rules[k] == UAL_R_DM_UART_INTERLEAVE && f) {
        exact_run(rules[k], cfg[c].rate, cfg[c].width, cfg[c].peer, 21 + c, f + 1, &seg);
        runs++;
        if (seg >= 0 && seg < 2) segs[seg]++;
      }
      good += check_failures == before;
    }
  CHECK(segs[0] > 0 && segs[1] > 0);   /* both kinds of pause were made */
  printf("exact labels: %u runs, %u configurations clean; interleave in SH0 %u, SH1 %u\n", runs, good,
         segs[0], segs[1]);
}

static void test_options(void) {
  struct gen_opts o;
  struct run r;
  base_opts(&o, GEN_SC_TRAFFIC, 100);
  o.width = 3;
  generate(&r, &o);
  CHECK_EQ(r.rc, -2);
  run_free(&r);
  base_opts(&o, GEN_SC_TRAFFIC, 0);
  o.count = 0;
  o.duration_ps = 2000000;         /* 2 us at 128 GT/s x8: 1000 flits a direction */
  generate(&r, &o);
  CHECK_EQ(r.rc, 0);
  CHECK(r.n >= 1900 && r.n < 2300);
  run_free(&r);
  base_opts(&o, GEN_SC_TRAFFIC, 2000);
  o.load = 0;
  generate(&r, &o);
  CHECK_EQ(r.rc, 0);
  CHECK_EQ(r.ntl, 0);
  run_free(&r);
}

/* ---- the executable ---- */

static int spawn_wait(char *const argv[], const char *out_path) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (out_path) posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc) return -1;
  int st;
  if (waitpid(pid, &st, 0) < 0) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool read_pcap(const char *path, struct run *r) {
  memset(r, 0, sizeof *r);
  char err[PCAP_ERRBUF_SIZE];
  pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
  if (!p) { fprintf(stderr, "%s: %s\n", path, err); return false; }
  bool ok = pcap_datalink(p) == UAL_DLT_USER0 && pcap_get_tstamp_precision(p) == PCAP_TSTAMP_PRECISION_NANO;
  struct pcap_pkthdr *h;
  const u_char *d;
  while (pcap_next_ex(p, &h, &d) == 1)
    add_record(r, (uint64_t)h->ts.tv_sec * 1000000000ull + (uint64_t)h->ts.tv_usec, d, h->caplen);
  pcap_close(p);
  return ok;
}

static void read_truth(const char *path, struct run *r) {
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    unsigned long long frame;
    char dir[8], rule[48], sev[16], src[16];
    if (sscanf(line, "{\"frame\": %llu, \"dir\": \"%7[^\"]\", \"rule\": \"%47[^\"]\", \"severity\": \"%15[^\"]\", "
                     "\"source\": \"%15[^\"]\"", &frame, dir, rule, sev, src) == 5)
      add_truth(r, frame, dir[0] == 'B', ual_rule_lookup(rule), src);
    else
      CHECK(!"truth line does not parse");
  }
  fclose(f);
}

static bool files_equal(const char *a, const char *b) {
  FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
  bool eq = fa && fb;
  while (eq) {
    int ca = fgetc(fa), cb = fgetc(fb);
    if (ca != cb) eq = false;
    if (ca == EOF) break;
  }
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  return eq;
}

static void cli_scenario(const char *gen, const char *dir, const char *sc, const char *extra) {
  char pcap[512], truth[512], again[512], count[32];
  snprintf(pcap, sizeof pcap, "%s/gen-%s.pcap", dir, sc);
  snprintf(truth, sizeof truth, "%s/gen-%s.truth.jsonl", dir, sc);
  snprintf(again, sizeof again, "%s/gen-%s-again.pcap", dir, sc);
  snprintf(count, sizeof count, "3000");
  char *argv[] = { (char *)gen, "-q", "-s", (char *)sc, "-c", count, "--seed", "5", "-w", pcap,
                   "--truth", truth, extra ? "--inject" : NULL, (char *)extra, NULL };
  CHECK_EQ(spawn_wait(argv, NULL), 0);
  argv[9] = again;
  argv[11] = "/dev/null";
  CHECK_EQ(spawn_wait(argv, NULL), 0);
  CHECK(files_equal(pcap, again));
  struct run r;
  CHECK(read_pcap(pcap, &r));
  read_truth(truth, &r);
  char name[64];
  snprintf(name, sizeof name, "cli %s", sc);
  expect_clean(name, &r, false);
  if (extra) CHECK(truth_count(&r, ual_rule_lookup(extra), "inject") == 1);
  run_free(&r);
  unlink(again);
  unlink(pcap);
  unlink(truth);
}

static void cli_stdout(const char *gen, const char *dir) {
  char a[512], b[512];
  snprintf(a, sizeof a, "%s/gen-stdout.pcap", dir);
  snprintf(b, sizeof b, "%s/gen-file.pcap", dir);
  char *argv1[] = { (char *)gen, "-q", "-c", "500", "-w", "-", NULL };
  CHECK_EQ(spawn_wait(argv1, a), 0);
  char *argv2[] = { (char *)gen, "-q", "-c", "500", "-w", b, NULL };
  CHECK_EQ(spawn_wait(argv2, NULL), 0);
  CHECK(files_equal(a, b));
  char *argv3[] = { (char *)gen, "-q", "--inject", "NO-SUCH-RULE", "-w", b, NULL };
  CHECK_EQ(spawn_wait(argv3, NULL), 2);
  char *argv4[] = { (char *)gen, "--list-injections", NULL };
  CHECK_EQ(spawn_wait(argv4, "/dev/null"), 0);
  /* a write error, in the middle of the run (5 MB) and at its end: exit status 1 */
  char *argv5[] = { (char *)gen, "-q", "-c", "20000", "-w", "/dev/full", NULL };
  CHECK_EQ(spawn_wait(argv5, NULL), 1);
  argv5[3] = "100";
  CHECK_EQ(spawn_wait(argv5, NULL), 1);
  unlink(a);
  unlink(b);
}

/* UDP export to loopback: the datagrams are exactly the records of the pcap. */
static void cli_udp(const char *gen, const char *dir) {
  int fd = socket(AF_INET, SOCK_DGRAM, 0);
  CHECK(fd >= 0);
  struct sockaddr_in sa;
  memset(&sa, 0, sizeof sa);
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  CHECK_EQ(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
  socklen_t sl = sizeof sa;
  getsockname(fd, (struct sockaddr *)&sa, &sl);
  int big = 8 << 20;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
  char dest[64], pcap[512];
  snprintf(dest, sizeof dest, "127.0.0.1:%u", ntohs(sa.sin_port));
  snprintf(pcap, sizeof pcap, "%s/gen-udp.pcap", dir);
  char *argv[] = { (char *)gen, "-q", "-c", "400", "--seed", "9", "--udp", dest, "--rate-limit", "20000",
                   "-w", pcap, NULL };
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  pid_t pid;
  CHECK_EQ(posix_spawn(&pid, gen, &fa, NULL, argv, environ), 0);
  posix_spawn_file_actions_destroy(&fa);
  struct run got;
  memset(&got, 0, sizeof got);
  uint8_t buf[2048];
  for (;;) {
    struct pollfd p = { fd, POLLIN, 0 };
    if (poll(&p, 1, 2000) <= 0) break;
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    add_record(&got, 0, buf, (size_t)n);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  struct run want;
  CHECK(read_pcap(pcap, &want));
  CHECK_EQ(got.n, want.n);
  if (got.n == want.n && got.used == want.used) CHECK_MEM(got.buf, want.buf, got.used);
  run_free(&got);
  run_free(&want);
  close(fd);
  unlink(pcap);
}

static int cli_main(const char *gen, const char *dir) {
  cli_scenario(gen, dir, "traffic", NULL);
  cli_scenario(gen, dir, "bringup", NULL);
  cli_scenario(gen, dir, "errors", NULL);
  cli_scenario(gen, dir, "traffic", "DL-TL-NO-ROOM");
  cli_stdout(gen, dir);
  cli_udp(gen, dir);
  return check_done("test_gen --cli");
}

int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  if (argc == 4 && !strcmp(argv[1], "--cli")) return cli_main(argv[2], argv[3]);
  if (argc >= 3 && !strcmp(argv[1], "--check")) {     /* --check FILE.pcap [TRUTH]: a manual check */
    struct run r;
    if (!read_pcap(argv[2], &r)) return 2;
    if (argc > 3) read_truth(argv[3], &r);
    struct verdict v;
    verify(&r, &v, false);
    printf("%zu records, %u flits, %u payload; parse %u flit %u extra %u missing %u dl %u ts %u spacing %u\n",
           r.n, v.flits, v.payload, v.bad_parse, v.bad_flit, v.extra_findings, v.missing_findings,
           v.dl_findings, v.ts_bad, v.spacing_bad);
    return v.bad_parse || v.bad_flit || v.extra_findings || v.missing_findings || v.dl_findings ||
           v.ts_bad || v.spacing_bad;
  }
  const char *only = argc > 1 ? argv[1] : NULL;
  if (!only || !strcmp(only, "scenarios")) test_scenarios();
  if (!only || !strcmp(only, "replay")) test_replay_modes();
  if (!only || !strcmp(only, "determinism")) test_determinism();
  if (!only || !strcmp(only, "headers")) test_headers();
  if (!only || !strcmp(only, "injections")) test_injections(NULL);
  if (only && argc > 2 && !strcmp(only, "inject")) test_injections(argv[2]);
  if (!only || !strcmp(only, "inject-at")) test_inject_at();
  if (!only || !strcmp(only, "options")) test_options();
  if (!only || !strcmp(only, "stateful")) test_stateful(argc > 2 ? argv[2] : NULL);
  if (!only || !strcmp(only, "sweep")) test_sweep(only && argc > 2 ? (unsigned)atoi(argv[2]) : 1);
  if (!only || !strcmp(only, "inject-exact")) test_inject_exact();
  if (!only || !strcmp(only, "inject-sweep")) test_inject_sweep(only && argc > 2 ? (unsigned)atoi(argv[2]) : 1);
  return check_done("test_gen");
}
