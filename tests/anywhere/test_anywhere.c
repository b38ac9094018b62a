/* Start anywhere (docs/architecture.md, "Captures that start mid-stream"):
 * a capture cut at record K, analysed on its own, against the whole capture.
 *
 *   test_anywhere [--verbose] [--bound RECORDS] FILE.pcap...   the samples, and
 *                 [--scenarios SEEDS]    a generated capture of every ualink-gen scenario per seed
 *                 [--only NAME]          (or of scenario NAME only):
 *                                        UALink (Nak modes, a second accelerator, x4 vary with
 *                                        the seed), PCIe DLLPs (kind 4) and UB (kind 6)
 *                 [--saturated SEEDS]    ualink-gen -s traffic and -s uart at --load 1 (every
 *                                        segment with room starts a TL flit) per seed, and
 *                                        traffic with DL-TL-NO-ROOM and DL-ZERO-FILL injected
 *                                        at frame 300; cut every 29 records too
 *                 [--ub-seeds S,S...]    every UB scenario with these seeds too
 *                 [--ub-inject]          each UB injection in its scenario (seed 1)
 *                 [--nf-seeds S,S...]    pcie-gen1 and pcie-gen3 (kind 7) with these seeds too
 *                 [--nf-inject]          each of their injections in every scenario it can be in (seed 1)
 *   test_anywhere --cut K IN.pcap OUT.pcap     writes IN from record K (1-based) on
 *
 * For every cut it asserts:
 *   - no false finding: every finding the cut raises at record N is raised by
 *     the whole capture at N too (rule and segment, counted), except the
 *     findings that only say where the cut's analysis stands (AN-SYNC,
 *     DL-PARTIAL-TL, PF-SYNC, PN-SYNC; PN-CPL-NO-REQUEST, a completion of a
 *     request before the cut);
 *   - nothing missed after the bound: every finding of the whole capture at
 *     N >= K + bound is raised by the cut; the bound (--bound, default
 *     UAL_HISTORY_FLITS records) is the longest of the per-machine bounds
 *     in docs/architecture.md, "Captures that start mid-stream".
 *   - the same deliveries: the cut never delivers a DL message the whole
 *     capture does not deliver after the cut, nor more TL flits (nothing
 *     read from payload DWords, nothing delivered twice: a run delivered
 *     before a Nak the cut did not see is not delivered again from its
 *     replay); from the bound on, the same TL flits and DL messages at
 *     every record (released held flits included).
 *   - for the saturated captures: each direction synchronizes (AN-SYNC)
 *     within --sync-bound flits of its own (the bound of docs/architecture.md),
 *     and from the second flit after that on delivers the same TL flits and
 *     DL messages as the whole capture, record by record.
 * Cuts: every 12 records over the first 600, 12 evenly spaced, a few just
 * after the places where the whole capture raised something, and up to 3
 * in each situation of the focused cases (a payload flit carrying
 * an Ack, a go-back-N or selective replay in progress, a negotiation
 * request answered after the cut, L1 entry in progress, L0p at reduced
 * width); --require-situations fails when one of them was never cut in. */
#include <ualink/ualink.h>
#include "ualink/ualink/analysis.h"
#include "gen.h"
#include "pcienf.h"
#include "ub.h"

#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec { uint64_t ts_ns; uint32_t len, off; };
struct cap {
  char name[96];
  uint8_t *buf; size_t used, bcap;
  struct rec *r; size_t n, rcap;
};
/* One finding: the record index it belongs to (n = end of capture). */
struct fnd { uint32_t rec; uint16_t rule; int16_t seg; };
struct flist { struct fnd *v; size_t n, cap; };

#define GROW(p, n, cap) do { if ((n) == (cap)) { (cap) = (cap) ? 2 * (cap) : 256; \
  (p) = realloc((p), (cap) * sizeof *(p)); if (!(p)) abort(); } } while (0)

static void add_record(struct cap *c, uint64_t ts_ns, const uint8_t *b, size_t len) {
  GROW(c->r, c->n, c->rcap);
  while (c->used + len > c->bcap) {
    c->bcap = c->bcap ? 2 * c->bcap : 1 << 20;
    c->buf = realloc(c->buf, c->bcap);
    if (!c->buf) abort();
  }
  memcpy(c->buf + c->used, b, len);
  c->r[c->n++] = (struct rec){ ts_ns, (uint32_t)len, (uint32_t)c->used };
  c->used += len;
}

static void cap_free(struct cap *c) { free(c->buf); free(c->r); memset(c, 0, sizeof *c); }

static int read_pcap(const char *path, struct cap *c) {
  char err[PCAP_ERRBUF_SIZE];
  pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
  if (!p) { fprintf(stderr, "%s: %s\n", path, err); return -1; }
  struct pcap_pkthdr *h;
  const u_char *data;
  while (pcap_next_ex(p, &h, &data) == 1)
    add_record(c, (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec, data, h->caplen);
  pcap_close(p);
  const char *b = strrchr(path, '/');
  snprintf(c->name, sizeof c->name, "%s", b ? b + 1 : path);
  return 0;
}

/* The helper the issue asks for: a capture cut at record k (1-based). */
static int write_cut(const char *in, unsigned long k, const char *out) {
  struct cap c = { 0 };
  if (read_pcap(in, &c)) return 2;
  pcap_t *dead = pcap_open_dead_with_tstamp_precision(DLT_USER0, 262144, PCAP_TSTAMP_PRECISION_NANO);
  pcap_dumper_t *d = pcap_dump_open(dead, out);
  if (!d) { fprintf(stderr, "%s: %s\n", out, pcap_geterr(dead)); return 2; }
  for (size_t i = k ? k - 1 : 0; i < c.n; i++) {
    struct pcap_pkthdr h;
    memset(&h, 0, sizeof h);
    h.ts.tv_sec = (time_t)(c.r[i].ts_ns / 1000000000u);
    h.ts.tv_usec = (suseconds_t)(c.r[i].ts_ns % 1000000000u);
    h.caplen = h.len = c.r[i].len;
    pcap_dump((u_char *)d, &h, c.buf + c.r[i].off);
  }
  pcap_dump_close(d);
  pcap_close(dead);
  /* read back: the records from k on, byte for byte, with their times */
  struct cap back = { 0 };
  int rc = read_pcap(out, &back) ? 2 : 0;
  size_t from = k ? k - 1 : 0;
  if (!rc && back.n != (c.n > from ? c.n - from : 0)) rc = 1;
  for (size_t i = 0; !rc && i < back.n; i++)
    if (back.r[i].len != c.r[from + i].len || back.r[i].ts_ns != c.r[from + i].ts_ns ||
        memcmp(back.buf + back.r[i].off, c.buf + c.r[from + i].off, back.r[i].len))
      rc = 1;
  if (rc == 1) fprintf(stderr, "%s: not the records of %s from %lu on\n", out, in, k);
  cap_free(&back);
  cap_free(&c);
  return rc;
}

static int cb_record(void *ctx, uint64_t ts_ns, const uint8_t *rec, size_t len) {
  add_record(ctx, ts_ns, rec, len);
  return 0;
}

/* Scenario sc of ualink-gen: UALink's and PCIe's (enum gen_scenario), or
 * ub_sc of the UB generator when ub_sc >= 0. */
static int generate(int sc, int ub_sc, uint64_t seed, double load, uint64_t count, int inject, struct cap *c) {
  struct gen_opts o;
  gen_opts_default(&o);
  o.scenario = sc;
  o.seed = seed;
  if (load >= 0) o.load = load;
  o.count = count;
  /* UALink's at frame 300, the other fabrics' where their scenario puts them */
  if (inject >= 0) o.inject[o.n_inject++] = (struct gen_inject_req){ inject, ub_sc < 0 && sc < GEN_SC_COUNT ? 300 : GEN_AT_DEFAULT };
  bool ualink = ub_sc < 0 && sc < GEN_SC_COUNT;
  if (ualink) {
    o.nak = (int)(seed % 3);                  /* alternate, standard, selective */
    if (seed % 4 == 2) o.peer = GEN_PEER_ACCEL;
    if (seed % 4 == 3) o.width = 4;
  }
  struct gen_out out = { .ctx = c, .record = cb_record };
  char err[256];
  const char *name = ub_sc >= 0 ? ub_scenario_name(ub_sc) : gen_scenario_name(sc);
  int rc = 0;
  if (ub_sc >= 0) {
    rc = ub_gen_run(ub_sc, &o, &out, err, sizeof err);
  } else {
    struct gen *g = gen_new(&o, &out, err, sizeof err);
    rc = !g || gen_run(g, err, sizeof err) ? -1 : 0;
    if (g) gen_free(g);
  }
  if (rc) {
    fprintf(stderr, "ualink-gen -s %s --seed %llu: %s\n", name, (unsigned long long)seed, err);
    return -1;
  }
  if (!ualink) {
    snprintf(c->name, sizeof c->name, "ualink-gen -s %s --seed %llu%s%s", name, (unsigned long long)seed,
             inject >= 0 ? " --inject " : "", inject >= 0 ? ual_rule_id((enum ual_rule)inject) : "");
    return 0;
  }
  snprintf(c->name, sizeof c->name, "ualink-gen -s %s --seed %llu --nak %s%s%s%s%s%s", name,
           (unsigned long long)seed, o.nak == GEN_NAK_ALTERNATE ? "alternate" : o.nak == GEN_NAK_STANDARD ? "standard" : "selective",
           o.peer == GEN_PEER_ACCEL ? " --peer accel" : "", o.width == 4 ? " --width 4" : "", load >= 1 ? " --load 1" : "",
           inject >= 0 ? " --inject " : "", inject >= 0 ? ual_rule_id((enum ual_rule)inject) : "");
  return 0;
}

static struct ual_analyzer an;
static struct ual_rec_result res;
static int rule_sync = -1, rule_partial = -1, rule_pf_sync = -1, rule_pn_sync = -1, rule_pn_no_request = -1;
/* The cut's AN-SYNC record per direction (SIZE_MAX: not synchronized) and
 * the direction's flits up to it. */
static size_t sync_rec[2], sync_flits[2];

/* What the unpacker delivered at each record: TL flits counted, DL
 * messages by their DWord (a cut that reads payload DWords as messages, or
 * misses the transport headers, differs here, not always in findings). */
struct dlist { uint32_t *off; uint16_t *n_tl; uint32_t *dw; size_t n, cap, n_dw, dw_cap; };

static void add_unpacked(struct dlist *d, size_t rec, const struct ual_unpack_out *u) {
  d->n_tl[rec] = (uint16_t)(d->n_tl[rec] + u->n_tl);
  for (unsigned i = 0; i < u->n_msg; i++) {
    GROW(d->dw, d->n_dw, d->dw_cap);
    d->dw[d->n_dw++] = u->msg[i].msg.dw;
  }
  d->off[rec + 1] = (uint32_t)d->n_dw;
}

static void begin_record(struct dlist *d, size_t rec) {
  if (rec + 1 >= d->cap) {
    d->cap = rec + 2 > 2 * d->cap ? rec + 2 : 2 * d->cap;
    d->off = realloc(d->off, (d->cap + 1) * sizeof *d->off);
    d->n_tl = realloc(d->n_tl, d->cap * sizeof *d->n_tl);
    if (!d->off || !d->n_tl) abort();
  }
  d->off[rec] = d->off[rec + 1] = (uint32_t)d->n_dw;
  d->n_tl[rec] = 0;
  d->n = rec + 1;
}

/* Held flits a replay released at this record (ual_events.delivered; the
 * record's own flit is in its result). */
struct release_ctx { struct dlist *d; size_t rec; uint64_t frame; };
static void released(void *ctx, unsigned dir, uint64_t flit_frame, const struct ual_unpack_out *u) {
  struct release_ctx *c = ctx;
  (void)dir;
  if (flit_frame != c->frame) add_unpacked(c->d, c->rec, u);
}

/* Situations a capture may start in (the start-anywhere issue's focused
 * cases), found in the whole capture's analysis; each gets cuts of its own. */
enum { S_ACK_PAYLOAD, S_GBN_REPLAY, S_SEL_REPLAY, S_NEG_PENDING, S_L1_ENTRY, S_L0P, S_COUNT };
static const char *const situation_name[S_COUNT] = {
  "payload flit carrying an Ack", "go-back-N replay in progress", "selective replay in progress",
  "negotiation request answered after the cut", "L1 entry in progress", "L0p at reduced width",
};
static unsigned long situation_cuts[S_COUNT];
#define SITUATION_CUTS 3   /* per situation and capture */
struct situations { size_t k[S_COUNT][SITUATION_CUTS]; unsigned n[S_COUNT]; };

static void situation(struct situations *s, int which, size_t k) {
  unsigned n = s->n[which];
  if (n && s->k[which][n - 1] + 200 > k) return;  /* spread them */
  if (n < SITUATION_CUTS) s->k[which][s->n[which]++] = k;
}

static void find_situations(struct situations *s, size_t i, const struct ual_rec_result *r) {
  if ((r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED) || r->rec.h.kind != UAL_REC_FLIT) return;
  const struct ual_flit_info *fi = &r->flit;
  if (fi->valid && fi->kind == UAL_FK_PAYLOAD && fi->fh.replay_cmd == UAL_RC_ACK) situation(s, S_ACK_PAYLOAD, i);
  if (fi->valid && fi->fh.replay_cmd == UAL_RC_NAK) situation(s, S_GBN_REPLAY, i + 2);
  if (fi->valid && fi->fh.replay_cmd == UAL_RC_NAK_SELECTIVE) situation(s, S_SEL_REPLAY, i + 2);
  for (unsigned m = 0; r->unpacked && m < r->unp.n_msg; m++)
    if (r->unp.msg[m].msg.mclass == UAL_MCLASS_CONTROL && r->unp.msg[m].msg.command == UAL_CMD_REQUEST)
      situation(s, S_NEG_PENDING, i + 1);
  for (unsigned d = 0; d < 2; d++) {
    if (an.lt.p[d].state == UAL_LT_L1_ENTRY) situation(s, S_L1_ENTRY, i + 1);
    if (an.lt.p[d].state == UAL_LT_L0P && r->dir == d && an.lt.trained_width && r->rec.h.width &&
        r->rec.h.width < an.lt.trained_width)
      situation(s, S_L0P, i);
  }
}

static void collect(struct flist *l, uint32_t rec, const struct ual_findings *f) {
  for (unsigned i = 0; i < f->n; i++) {
    GROW(l->v, l->n, l->cap);
    l->v[l->n++] = (struct fnd){ rec, f->v[i].rule, f->v[i].segment };
  }
}

/* Findings and deliveries of the capture from record k (0-based) on,
 * frames numbered from 1 as in a cut file; situations of the whole one. */
static void analyse(const struct cap *c, size_t k, struct flist *l, struct dlist *d, struct situations *s) {
  l->n = 0;
  d->n_dw = 0;
  ual_analyzer_init(&an);
  static struct ual_events ev;
  struct release_ctx rc = { d, 0, 0 };
  ual_events_init(&ev);
  ev.delivered = released;
  ev.ctx = &rc;
  begin_record(d, k);
  size_t flits[2] = { 0, 0 };
  sync_rec[0] = sync_rec[1] = SIZE_MAX;
  for (size_t i = k; i < c->n; i++) {
    begin_record(d, i);
    rc.rec = i;
    rc.frame = i - k + 1;
    ual_events_clear(&ev);
    ual_analyzer_step(&an, c->buf + c->r[i].off, c->r[i].len, i - k + 1, c->r[i].ts_ns, &res, &ev);
    collect(l, (uint32_t)i, &res.findings);
    if (res.rec.h.kind == UAL_REC_FLIT && res.dir < 2) {
      flits[res.dir]++;
      for (unsigned j = 0; j < res.findings.n; j++)
        if ((int)res.findings.v[j].rule == rule_sync && sync_rec[res.dir] == SIZE_MAX) {
          sync_rec[res.dir] = i;
          sync_flits[res.dir] = flits[res.dir];
        }
    }
    if (res.unpacked) add_unpacked(d, i, &res.unp);
    if (s) find_situations(s, i, &res);
  }
  struct ual_findings end;
  ual_findings_clear(&end);
  ual_analyzer_finish(&an, &end, NULL);
  collect(l, (uint32_t)c->n, &end);
}

static bool cut_only(unsigned rule) {
  return (int)rule == rule_sync || (int)rule == rule_partial || (int)rule == rule_pf_sync || (int)rule == rule_pn_sync ||
         (int)rule == rule_pn_no_request;   /* the cut's own start: a request before it */
}

struct totals { unsigned long cuts, false_f, missed, whole_after, found_after, false_dl, missed_dl, late_sync, differ; };
static size_t sync_bound = 32;             /* flits of a direction: docs/architecture.md */
static size_t sync_max;                    /* the most flits a saturated cut took */

/* UB rules that need what a cut capture may never show: the negotiated
 * parameters of both Init Blocks (credit and ACK grains, VL_ENABLE,
 * RETRY_BUF_DEPTH, PACKET_MIN_INTERVAL) and the initial credits
 * (docs/architecture.md, "Captures that start mid-stream"). Left out of
 * UB's recall. */
static const char *const needs_init_block[] = {
  "UB-VL-DISABLED", "UB-CREDIT-UNDERFLOW", "UB-CREDIT-OVERFLOW", "UB-CREDIT-MAX", "UB-CREDIT-RETURN-TIMEOUT",
  "UB-CRDACK-THRESHOLD", "UB-MIN-INTERVAL", "UB-LOCKOUT", "UB-RETRY-BUF-FULL", "UB-ACK-OVERFLOW",
  "UB-RETRY-ACK-PTR", "UB-REPLAY-START", "UB-REPLAY-CONTENT", "UB-REPLAY-COUNT", "UB-ACK-STATE-SEND",
  "UB-NEGOTIATION-DEFAULT",
};
static bool recall_excluded(unsigned rule) {
  for (size_t i = 0; i < sizeof needs_init_block / sizeof needs_init_block[0]; i++)
    if ((int)rule == ual_rule_lookup(needs_init_block[i])) return true;
  return false;
}
/* UB's findings are judged by recall (UB_RECALL_PCT after the bound), the
 * other fabrics' by none missed. */
#define UB_RECALL_PCT 98
static bool ub_capture;
static struct totals ub_all;
static bool verbose, require_situations;
static size_t bound = UAL_HISTORY_FLITS;   /* the longest bound of docs/architecture.md */
static size_t max_report = 6;

/* Findings of a at record r matched against b's; returns those of a not in b. */
static unsigned long false_by_rule[UAL_R_COUNT], late_by_rule[UAL_R_COUNT];
static size_t late_max[UAL_R_COUNT];

static unsigned unmatched(const struct fnd *a, size_t na, const struct fnd *b, size_t nb, bool skip_cut_only,
                          const struct cap *c, size_t k, const char *what, unsigned *reported) {
  bool quiet = !what;
  unsigned bad = 0;
  for (size_t i = 0; i < na; i++) {
    if (skip_cut_only && cut_only(a[i].rule)) continue;
    size_t same_a = 0, same_b = 0;
    for (size_t j = 0; j < na; j++) same_a += a[j].rule == a[i].rule && a[j].seg == a[i].seg && j <= i;
    for (size_t j = 0; j < nb; j++) same_b += b[j].rule == a[i].rule && b[j].seg == a[i].seg;
    if (same_a <= same_b) continue;
    bad++;
    if (quiet) {
      late_by_rule[a[i].rule]++;
      if (a[i].rec - k > late_max[a[i].rule]) late_max[a[i].rule] = a[i].rec - k;
      continue;
    }
    if (skip_cut_only) false_by_rule[a[i].rule]++;
    if ((*reported)++ < max_report || verbose)
      fprintf(stderr, "  %s, cut at record %zu: %s %s at record %u (cut frame %zu, %zu records after the cut)\n",
              c->name, k + 1, what, ual_rule_id((enum ual_rule)a[i].rule), a[i].rec + 1, a[i].rec - k + 1,
              a[i].rec - k);
  }
  return bad;
}

static void compare(const struct cap *c, size_t k, const struct flist *whole, const struct flist *cut,
                    struct totals *t, unsigned *reported) {
  size_t wi = 0, ci = 0;
  while (wi < whole->n && whole->v[wi].rec < k) wi++;
  while (wi < whole->n || ci < cut->n) {
    uint32_t r = wi < whole->n ? whole->v[wi].rec : UINT32_MAX;
    if (ci < cut->n && cut->v[ci].rec < r) r = cut->v[ci].rec;
    size_t w0 = wi, c0 = ci;
    while (wi < whole->n && whole->v[wi].rec == r) wi++;
    while (ci < cut->n && cut->v[ci].rec == r) ci++;
    t->false_f += unmatched(cut->v + c0, ci - c0, whole->v + w0, wi - w0, true, c, k, "false", reported);
    if (r < k + bound) unmatched(whole->v + w0, wi - w0, cut->v + c0, ci - c0, false, c, k, NULL, reported);
    if (r >= k + bound) {
      /* UB: only the findings the cut can know (recall_excluded) */
      struct fnd kept[64];
      size_t nk = 0;
      for (size_t i = w0; i < wi && nk < 64; i++)
        if (!ub_capture || !recall_excluded(whole->v[i].rule)) kept[nk++] = whole->v[i];
      unsigned miss = unmatched(kept, nk, cut->v + c0, ci - c0, false, c, k, "missed", reported);
      t->missed += miss;
      t->whole_after += nk;
      t->found_after += nk - miss;
    }
  }
  t->cuts++;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Elements of a (sorted) that b (sorted) lacks, as multisets. */
static size_t not_in(const uint32_t *a, size_t na, const uint32_t *b, size_t nb) {
  size_t y = 0, extra = 0;
  for (size_t x = 0; x < na; x++) {
    while (y < nb && b[y] < a[x]) y++;
    if (y < nb && b[y] == a[x]) y++;
    else extra++;
  }
  return extra;
}

static uint32_t *sorted_dws(const struct dlist *d, size_t from, size_t to, size_t *n) {
  *n = d->off[to] - d->off[from];
  uint32_t *v = malloc((*n + 1) * sizeof *v);
  if (!v) abort();
  if (*n) {                      /* d->dw is NULL when nothing was delivered */
    memcpy(v, d->dw + d->off[from], *n * sizeof *v);
    qsort(v, *n, sizeof *v, cmp_u32);
  }
  return v;
}

/* The same DL messages (x in the cut, y in the whole) and TL flits at record i. */
static bool same_at(const struct dlist *cut, const struct dlist *whole, size_t i, size_t *x, size_t *y) {
  uint32_t *p = sorted_dws(cut, i, i + 1, x), *q = sorted_dws(whole, i, i + 1, y);
  bool same = *x == *y && !not_in(p, *x, q, *y) && cut->n_tl[i] == whole->n_tl[i];
  free(p);
  free(q);
  return same;
}

/* The cut's deliveries against the whole's: never a DL message the whole
 * capture does not deliver after the cut, nor one twice, nor more TL
 * flits; from the bound on, the same at every record. (Before the bound a
 * cut may deliver a flit early: one sent after a Nak it did not see, which
 * the receiver takes only from the replay.) */
static void compare_delivered(const struct cap *c, size_t k, const struct dlist *whole, const struct dlist *cut,
                              struct totals *t, unsigned *reported) {
  size_t na, nb;
  uint32_t *a = sorted_dws(cut, k, c->n, &na), *b = sorted_dws(whole, k, c->n, &nb);
  size_t extra = not_in(a, na, b, nb);
  uint64_t tl_cut = 0, tl_whole = 0;
  for (size_t i = k; i < c->n; i++) tl_cut += cut->n_tl[i], tl_whole += whole->n_tl[i];
  free(a);
  free(b);
  if (extra || tl_cut > tl_whole) {
    t->false_dl++;
    if ((*reported)++ < max_report || verbose)
      fprintf(stderr, "  %s, cut at record %zu: %zu DL messages the whole capture does not deliver after it, "
              "%llu TL flits (the whole capture %llu)\n", c->name, k + 1, extra, (unsigned long long)tl_cut,
              (unsigned long long)tl_whole);
  }
  for (size_t i = k + bound; i < c->n; i++) {
    size_t x, y;
    if (same_at(cut, whole, i, &x, &y)) continue;
    t->missed_dl++;
    if ((*reported)++ < max_report || verbose)
      fprintf(stderr, "  %s, cut at record %zu: record %zu delivers %zu DL messages and %u TL flits, the whole "
              "capture %zu and %u\n", c->name, k + 1, i + 1, x, cut->n_tl[i], y, whole->n_tl[i]);
  }
}

/* A saturated cut: each direction synchronized within the bound, and from
 * the second flit of the direction after its AN-SYNC (the TL flit open
 * then began before it) the same deliveries as the whole capture. */
static void compare_synced(const struct cap *c, size_t k, const struct dlist *whole, const struct dlist *cut,
                           struct totals *t, unsigned *reported) {
  size_t from[2];
  for (unsigned d = 0; d < 2; d++) {
    bool late = sync_rec[d] == SIZE_MAX || sync_flits[d] > sync_bound;
    if (sync_rec[d] != SIZE_MAX && sync_flits[d] > sync_max) sync_max = sync_flits[d];
    from[d] = sync_rec[d] == SIZE_MAX ? c->n : sync_rec[d] + 1;
    if (!late) continue;
    t->late_sync++;
    if ((*reported)++ < max_report || verbose)
      fprintf(stderr, "  %s, cut at record %zu: %c>%c %s\n", c->name, k + 1, 'A' + d, 'B' - d,
              sync_rec[d] == SIZE_MAX ? "never synchronized" : "synchronized after more flits than the bound");
  }
  bool skipped[2] = { false, false };
  for (size_t i = k; i < c->n; i++) {
    unsigned d = c->buf[c->r[i].off + 2] & 1u;
    if (i < from[d]) continue;
    if (!skipped[d]) { skipped[d] = true; continue; }   /* where the open TL flit completes */
    size_t x, y;
    if (same_at(cut, whole, i, &x, &y)) continue;
    t->differ++;
    if ((*reported)++ < max_report || verbose)
      fprintf(stderr, "  %s, cut at record %zu: record %zu after AN-SYNC delivers %zu DL messages and %u TL flits, "
              "the whole capture %zu and %u\n", c->name, k + 1, i + 1, x, cut->n_tl[i], y, whole->n_tl[i]);
  }
}

static int check_capture(const struct cap *c, bool saturated, struct totals *all) {
  ub_capture = false;
  for (size_t i = 0; i < c->n && !ub_capture; i++) ub_capture = c->r[i].len > 1 && c->buf[c->r[i].off + 1] == UAL_REC_UB_FLIT;
  struct flist whole = { 0 }, cut = { 0 };
  struct dlist dwhole = { 0 }, dcut = { 0 };
  struct situations sit = { 0 };
  analyse(c, 0, &whole, &dwhole, &sit);
  size_t ks[256 + S_COUNT * SITUATION_CUTS], nk = 0;
  for (size_t k = 12; k < 600 && k < c->n; k += 12) ks[nk++] = k;
  for (size_t k = 629; saturated && k < c->n && nk < 200; k += 29) ks[nk++] = k;
  for (size_t i = 1; i <= 12; i++) ks[nk++] = c->n * i / 13;
  /* just after findings of the whole capture: inside what raised them */
  size_t last = 0;
  for (size_t i = 0; i < whole.n && nk < 240; i++) {
    size_t k = whole.v[i].rec + 1;
    if (k < c->n && k > last + 500) { ks[nk++] = k; last = k; }
  }
  for (int w = 0; w < S_COUNT; w++)
    for (unsigned j = 0; j < sit.n[w]; j++)
      if (sit.k[w][j] < c->n) {
        ks[nk++] = sit.k[w][j];
        situation_cuts[w]++;
      }
  struct totals t = { 0 };
  unsigned reported = 0;
  for (size_t i = 0; i < nk; i++) {
    analyse(c, ks[i], &cut, &dcut, NULL);
    compare(c, ks[i], &whole, &cut, &t, &reported);
    compare_delivered(c, ks[i], &dwhole, &dcut, &t, &reported);
    if (saturated) compare_synced(c, ks[i], &dwhole, &dcut, &t, &reported);
  }
  printf("%-44s %6zu records %4lu cuts: %lu false, %lu of %lu missed after the bound; deliveries: %lu false, "
         "%lu missed", c->name, c->n, t.cuts, t.false_f, t.missed, t.whole_after, t.false_dl, t.missed_dl);
  if (saturated) printf("; synchronized late %lu, other deliveries after AN-SYNC %lu", t.late_sync, t.differ);
  printf("\n");
  all->cuts += t.cuts;
  all->false_f += t.false_f;
  all->missed += t.missed;
  all->whole_after += t.whole_after;
  all->false_dl += t.false_dl;
  all->missed_dl += t.missed_dl;
  all->late_sync += t.late_sync;
  all->differ += t.differ;
  if (ub_capture) {
    ub_all.cuts += t.cuts;
    ub_all.false_f += t.false_f;
    ub_all.missed += t.missed;
    ub_all.whole_after += t.whole_after;
  }
  free(whole.v);
  free(cut.v);
  free(dwhole.off); free(dwhole.n_tl); free(dwhole.dw);
  free(dcut.off); free(dcut.n_tl); free(dcut.dw);
  return t.false_f || (t.missed && !ub_capture) || t.false_dl || t.missed_dl || t.late_sync || t.differ;
}

int main(int argc, char **argv) {
  if (argc == 5 && !strcmp(argv[1], "--cut")) return write_cut(argv[3], strtoul(argv[2], NULL, 10), argv[4]);
  rule_sync = ual_rule_lookup("AN-SYNC");
  rule_pf_sync = ual_rule_lookup("PF-SYNC");
  rule_pn_no_request = ual_rule_lookup("PN-CPL-NO-REQUEST");
  rule_partial = ual_rule_lookup("DL-PARTIAL-TL");
  rule_pn_sync = ual_rule_lookup("PN-SYNC");
  unsigned seeds = 0, saturated = 0;
  const char *only = NULL;
  int bad = 0;
  char ub_seeds[128] = "", nf_seeds[128] = "";
  bool ub_inject = false, nf_inject = false;
  struct totals all = { 0 };
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--verbose")) { verbose = true; continue; }
    if (!strcmp(argv[i], "--require-situations")) { require_situations = true; continue; }
    if (!strcmp(argv[i], "--bound") && i + 1 < argc) { bound = (size_t)atol(argv[++i]); continue; }
    if (!strcmp(argv[i], "--scenarios") && i + 1 < argc) { seeds = (unsigned)atoi(argv[++i]); continue; }
    if (!strcmp(argv[i], "--only") && i + 1 < argc) { only = argv[++i]; continue; }
    if (!strcmp(argv[i], "--saturated") && i + 1 < argc) { saturated = (unsigned)atoi(argv[++i]); continue; }
    if (!strcmp(argv[i], "--sync-bound") && i + 1 < argc) { sync_bound = (size_t)atol(argv[++i]); continue; }
    if (!strcmp(argv[i], "--ub-seeds") && i + 1 < argc) { snprintf(ub_seeds, sizeof ub_seeds, "%s", argv[++i]); continue; }
    if (!strcmp(argv[i], "--ub-inject")) { ub_inject = true; continue; }
    if (!strcmp(argv[i], "--nf-seeds") && i + 1 < argc) { snprintf(nf_seeds, sizeof nf_seeds, "%s", argv[++i]); continue; }
    if (!strcmp(argv[i], "--nf-inject")) { nf_inject = true; continue; }
    struct cap c = { 0 };
    if (read_pcap(argv[i], &c)) return 2;
    bad |= check_capture(&c, false, &all);
    cap_free(&c);
  }
  /* a sender at full TL load: the carry-over moves in every segment; the
   * packing rules broken at frame 300, where the cuts every 12 records
   * begin before (a cut must not take the break for a wrong carry-over) */
  int broken[] = { -1, -1, ual_rule_lookup("DL-TL-NO-ROOM"), ual_rule_lookup("DL-ZERO-FILL") };
  for (unsigned s = 1; s <= saturated; s++)
    for (int sc = 0; sc < 4; sc++) {
      struct cap c = { 0 };
      if (generate(sc == 1 ? GEN_SC_UART : GEN_SC_TRAFFIC, -1, s, 1.0, 6000, broken[sc], &c)) return 2;
      bad |= check_capture(&c, true, &all);
      cap_free(&c);
    }
  /* UALink's scenarios, PCIe's (kind 4) after them, then UB's (kind 6) */
  for (unsigned s = 1; s <= seeds; s++)
    for (int sc = 0; sc < GEN_SC_ALL_COUNT + UB_SC_COUNT; sc++) {
      if (only && strcmp(only, sc < GEN_SC_ALL_COUNT ? gen_scenario_name(sc) : ub_scenario_name(sc - GEN_SC_ALL_COUNT)))
        continue;
      struct cap c = { 0 };
      if (generate(sc < GEN_SC_ALL_COUNT ? sc : -1, sc < GEN_SC_ALL_COUNT ? -1 : sc - GEN_SC_ALL_COUNT, s, -1, 0, -1, &c))
        return 2;
      bad |= check_capture(&c, false, &all);
      cap_free(&c);
    }
  /* every UB scenario with more seeds, and each UB injection in its scenario */
  for (char *p = ub_seeds, *end; *p; p = *end ? end + 1 : end) {
    uint64_t seed = strtoull(p, &end, 10);
    if (end == p) break;
    for (int sc = 0; sc < UB_SC_COUNT; sc++) {
      struct cap c = { 0 };
      if (generate(-1, sc, seed, -1, 0, -1, &c)) return 2;
      bad |= check_capture(&c, false, &all);
      cap_free(&c);
    }
  }
  /* the non-flit TLP scenarios with more seeds, and each of their injections */
  for (char *p = nf_seeds, *end; *p; p = *end ? end + 1 : end) {
    uint64_t seed = strtoull(p, &end, 10);
    if (end == p) break;
    for (int sc = GEN_SC_PCIE_GEN1; sc <= GEN_SC_PCIE_GEN3; sc++) {
      struct cap c = { 0 };
      if (generate(sc, -1, seed, -1, 0, -1, &c)) return 2;
      bad |= check_capture(&c, false, &all);
      cap_free(&c);
    }
  }
  for (int r = 0; nf_inject && r < UAL_R_COUNT; r++)
    for (int sc = GEN_SC_PCIE_GEN1; sc <= GEN_SC_PCIE_GEN3; sc++) {
      if (!gen_pcienf_inject_in(r, sc)) continue;
      struct cap c = { 0 };
      if (generate(sc, -1, 1, -1, 0, r, &c)) return 2;
      bad |= check_capture(&c, false, &all);
      cap_free(&c);
    }
  for (int r = 0; ub_inject && r < UAL_R_COUNT; r++) {
    if (!ub_inject_supported(r)) continue;
    struct cap c = { 0 };
    if (generate(-1, ub_inject_scenario(r), 1, -1, 0, r, &c)) return 2;
    bad |= check_capture(&c, false, &all);
    cap_free(&c);
  }
  printf("%lu cuts: %lu false findings, %lu of %lu findings after the bound missed; cuts with false "
         "deliveries %lu, records with other deliveries after the bound %lu\n", all.cuts, all.false_f, all.missed, all.whole_after,
         all.false_dl, all.missed_dl);
  if (saturated)
    printf("saturated cuts: the most flits of a direction before AN-SYNC %zu (bound %zu), synchronized late %lu, "
           "records delivering otherwise after AN-SYNC %lu\n", sync_max, sync_bound, all.late_sync, all.differ);
  if (ub_all.cuts) {
    unsigned long found = ub_all.whole_after - ub_all.missed;
    printf("UB: %lu cuts, %lu false findings, recall after the bound %lu of %lu (%.2f %%, rules that need the Init Block "
           "left out)\n", ub_all.cuts, ub_all.false_f, found, ub_all.whole_after,
           ub_all.whole_after ? 100.0 * (double)found / (double)ub_all.whole_after : 100.0);
    if (found * 100 < ub_all.whole_after * UB_RECALL_PCT) {
      fprintf(stderr, "UB recall after the bound below %d %%\n", UB_RECALL_PCT);
      bad = 1;
    }
  }
  for (int w = 0; w < S_COUNT; w++) {
    printf("  cuts in a %s: %lu\n", situation_name[w], situation_cuts[w]);
    if (require_situations && !situation_cuts[w]) {
      fprintf(stderr, "no capture had a %s to cut in\n", situation_name[w]);
      bad = 1;
    }
  }
  for (int r = 0; r < UAL_R_COUNT; r++)
    if (false_by_rule[r] || late_by_rule[r])
      printf("  %-24s %6lu false, %6lu missed before the bound (the latest %zu records after the cut)\n",
             ual_rule_id((enum ual_rule)r), false_by_rule[r], late_by_rule[r], late_max[r]);
  return bad ? 1 : 0;
}
