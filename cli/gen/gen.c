/* The generator's event loop: two link partners emit records in time order,
 * the scenario steers them, every record goes out through gen_out. */
#include "model.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_RECORDS   6000
#define DEFAULT_LATENCY   20      /* ns */
#define DEFAULT_TRAIN_OS  8
#define PROGRESS_EVERY    65536
#define STALL_LIMIT       100000  /* loop iterations without a record */
#define DRAIN_SLACK       100000  /* records a run may take to wind down after its limit */
#define INJECT_GRACE      50000   /* records a run may go on past its limit for an injection */

static const struct { const char *name, *what; } scenarios[GEN_SC_COUNT] = {
#define GEN_X_(e, n, w) { n, w },
  GEN_SCENARIOS(GEN_X_)
#undef GEN_X_
};

const char *gen_scenario_name(int sc) { return sc >= 0 && sc < GEN_SC_COUNT ? scenarios[sc].name : "?"; }
const char *gen_scenario_what(int sc) { return sc >= 0 && sc < GEN_SC_COUNT ? scenarios[sc].what : "?"; }

int gen_scenario_lookup(const char *name) {
  for (int i = 0; i < GEN_SC_COUNT; i++)
    if (strcmp(scenarios[i].name, name) == 0) return i;
  return -1;
}

void gen_opts_default(struct gen_opts *o) {
  memset(o, 0, sizeof *o);
  o->scenario = -1;
  o->seed = 1;
  o->load = -1;
  o->ber = -1;
  o->train_os = DEFAULT_TRAIN_OS;
  o->run_scale = 1.0;
  o->latency_ns = DEFAULT_LATENCY;
  o->start_ns = 1735689600ull * 1000000000ull;   /* 2025-01-01T00:00:00Z */
}

void gen_fail(struct gen *g, const char *fmt, ...) {
  if (g->stop_error) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g->err, sizeof g->err, fmt, ap);
  va_end(ap);
  g->stop_error = true;
}

void gen_label_at(struct gen *g, uint64_t t_ps, unsigned dir, int rule, bool dir_only) {
  for (unsigned i = 0; i < TIME_LABELS; i++)
    if (!g->tlabel[i].on) {
      g->tlabel[i] = (struct time_label){ t_ps, (int16_t)rule, (uint8_t)dir, 1, dir_only };
      return;
    }
}

static void time_labels(struct gen *g, unsigned dir, uint64_t t_ps) {
  for (unsigned i = 0; i < TIME_LABELS; i++)
    if (g->tlabel[i].on && t_ps > g->tlabel[i].t_ps && (!g->tlabel[i].dir_only || g->tlabel[i].dir == dir)) {
      g->tlabel[i].on = 0;
      gen_truth(g, g->frame + 1, g->tlabel[i].dir, g->tlabel[i].rule, TRUTH_SRC_INJECT, "deadline passed");
    }
}

void gen_label_flush(struct gen *g) {
  for (unsigned i = 0; i < TIME_LABELS; i++) g->tlabel[i].on = 0;
}

void gen_emit(struct gen *g, struct side *s, unsigned kind, const uint8_t *body, size_t len,
              uint64_t t_ps) {
  if (g->stop_error) return;
  time_labels(g, s->id, t_ps);
  /* the header only changes with rate and width: built once per change */
  struct hdr_cache *hc = &s->hdr[kind & 3];
  uint32_t key = (uint32_t)s->rate << 8 | s->width | 1u << 16;
  if (hc->key != key) {
    struct ual_rec_hdr h;
    ual_rec_hdr_init(&h, kind, s->id);
    h.link = 0;
    h.rate = s->rate;
    h.width = s->width;
    h.role_a = g->s[0].role;
    h.role_b = g->s[1].role;
    ual_record_build(&h, NULL, 0, hc->b, sizeof hc->b);
    hc->key = key;
  }
  if (len > sizeof g->rec - UAL_REC_HDR_BYTES) { gen_fail(g, "record too long"); return; }
  memcpy(g->rec, hc->b, UAL_REC_HDR_BYTES);
  memcpy(g->rec + UAL_REC_HDR_BYTES, body, len);
  size_t n = UAL_REC_HDR_BYTES + len;
  g->frame++;
  g->st.records++;
  if (t_ps > g->st.end_ps) g->st.end_ps = t_ps;
  /* the model counts ps from the first record; records carry ns since the epoch */
  uint64_t ts_ns = g->o.start_ns + t_ps / PS_PER_NS;
  if (g->out.record(g->out.ctx, ts_ns, g->rec, n) != 0) gen_fail(g, "output failed");
  if (g->out.progress && g->frame % PROGRESS_EVERY == 0) g->out.progress(g->out.ctx, g->frame, ts_ns);
}

void gen_truth(struct gen *g, uint64_t frame, unsigned dir, int rule, int src, const char *note) {
  static const char *const srcs[] = { "inject", "consequence", "channel" };
  if (src == TRUTH_SRC_INJECT) inj_labelled(g, rule);
  if (g->out.truth) g->out.truth(g->out.ctx, frame, dir, rule, srcs[src], note);
}

static unsigned width_code_of(unsigned w) { return w >= 8 ? 3 : w >= 4 ? 2 : w >= 2 ? 1 : 0; }
static unsigned speed_code_of(unsigned r) { return r <= 1 ? 0 : r == 2 ? 1 : r == 3 ? 2 : 3; }

struct gen *gen_new(const struct gen_opts *o, const struct gen_out *out, char *err, size_t cap) {
  if (!out || !out->record) { snprintf(err, cap, "no output"); return NULL; }
  unsigned rate = o->rate ? o->rate : 7;
  unsigned width = o->width ? o->width : 8;
  if (!ual_rate_name(rate)) { snprintf(err, cap, "unknown rate code %u", rate); return NULL; }
  if (!ual_flit_time_ps(rate, width)) { snprintf(err, cap, "width must be 1, 2, 4 or 8"); return NULL; }
  if (o->load > 1) { snprintf(err, cap, "--load must be 0..1"); return NULL; }
  if (o->ber >= 0.01) { snprintf(err, cap, "--ber must be below 0.01"); return NULL; }
  if (!(o->run_scale > 0 && o->run_scale <= 100)) { snprintf(err, cap, "--run-scale must be in (0, 100]"); return NULL; }
  for (unsigned i = 0; i < o->n_inject; i++)
    if (!gen_inject_supported(o->inject[i].rule)) {
      snprintf(err, cap, "%s cannot be injected (see --list-injections)", ual_rule_id(o->inject[i].rule));
      return NULL;
    }

  struct gen *g = calloc(1, sizeof *g);
  if (!g) { snprintf(err, cap, "out of memory"); return NULL; }
  g->o = *o;
  g->out = *out;
  g->user_count = o->count;
  g->final_rate = (uint8_t)rate;
  g->scenario = o->scenario;
  if (g->scenario < 0) g->scenario = o->n_inject ? gen_inject_scenario(o->inject[0].rule) : GEN_SC_TRAFFIC;
  int peer = o->peer;
  if (peer == GEN_PEER_DEFAULT) peer = g->scenario == GEN_SC_NEGOTIATION ? GEN_PEER_ACCEL : GEN_PEER_SWITCH;
  g->lat_ps = (uint64_t)o->latency_ns * PS_PER_NS;
  g->t0 = 0;
  g->now = g->t0;
  g->nak_policy = o->nak;
  g->op_wake = PS_NEVER;
  if (!o->count && !o->duration_ps && g->scenario != GEN_SC_BRINGUP && g->scenario != GEN_SC_ALL &&
      g->scenario != GEN_SC_L1 && g->scenario != GEN_SC_L0P && g->scenario != GEN_SC_NEGOTIATION)
    g->o.count = DEFAULT_RECORDS;
  if (!g->o.train_os) g->o.train_os = 1;

  gen_rng_seed(&g->rng, o->seed);
  gen_rng_seed(&g->ber_rng[0], o->seed ^ 0xA5A5A5A5A5A5A5A5ull);
  gen_rng_seed(&g->ber_rng[1], o->seed ^ 0x5A5A5A5A5A5A5A5Aull);
  for (unsigned i = 0; i < 2; i++) {
    struct side *s = &g->s[i];
    link_side_init(g, s, i);
    if (!s->rb || !s->sel_buf || !s->sel_have) { gen_free(g); snprintf(err, cap, "out of memory"); return NULL; }
    gen_rng_seed(&s->rng, o->seed * 2654435761u + i + 1);
    s->role = i == 0 || peer == GEN_PEER_ACCEL ? UAL_ROLE_ACCEL : UAL_ROLE_SWITCH;
    s->upstream = i == 1;          /* the switch; on accelerator-accelerator links by crosslink resolution */
    s->rate = (uint8_t)rate;
    s->width = (uint8_t)width;
    link_speed_changed(s);
    dl_init(g, s);
    s->width_code = s->max_width_code = (uint8_t)width_code_of(width);
    s->speed_code = s->max_speed_code = (uint8_t)speed_code_of(rate);
    s->dev_id = (uint16_t)(0x040 + 0x100 * i + gen_rng_below(&g->rng, 64));
    s->port_known = s->role == UAL_ROLE_SWITCH;
    s->port = s->port_known ? (uint16_t)(1 + gen_rng_below(&g->rng, 63)) : 0;
  }
  for (unsigned i = 0; i < 2; i++) g->ber_next[i] = 0;
  g->ber = 0;
  inj_init(g);
  scen_build(g);
  if (g->ber > 0)
    for (unsigned i = 0; i < 2; i++) {
      double u = gen_rng_unit(&g->ber_rng[i]);
      g->ber_next[i] = -log1p(-u) / -log1p(-g->ber);
    }
  if (g->stop_error) {
    snprintf(err, cap, "%s", g->err);
    gen_free(g);
    return NULL;
  }
  return g;
}

void gen_free(struct gen *g) {
  if (!g) return;
  for (unsigned i = 0; i < 2; i++) link_side_free(&g->s[i]);
  free(g);
}

void gen_stats(const struct gen *g, struct gen_stats *st) { *st = g->st; }

static bool injections_pending(const struct gen *g) {
  for (unsigned i = 0; i < g->n_inj; i++)
    if (g->inj[i].state != INJ_DONE) return true;
  return false;
}

/* --count and --duration end the run, but not before every injection had
 * its chance: within a grace of 4x the count (at least 50000 records). */
static bool limit_reached(const struct gen *g) {
  uint64_t grace = g->o.count * 4 > INJECT_GRACE ? g->o.count * 4 : INJECT_GRACE;
  if (injections_pending(g) && g->frame < g->o.count + grace) return false;
  if (g->o.count && g->frame >= g->o.count) return true;
  if (g->o.duration_ps && g->now - g->t0 >= g->o.duration_ps) return true;
  return false;
}

int gen_run(struct gen *g, char *err, size_t cap) {
  uint64_t stall = 0, last_frame = 0;
  while (!g->finished && !g->stop_error) {
    uint64_t ta = g->s[0].t_next, tb = g->s[1].t_next, tw = scen_wake(g);
    uint64_t t = ta < tb ? ta : tb;
    if (tw < t) t = tw;
    if (t != PS_NEVER && t > g->now) g->now = t;
    if (!g->draining && limit_reached(g)) g->draining = true;
    scen_tick(g);
    if (g->finished || g->stop_error) break;
    ta = g->s[0].t_next;
    tb = g->s[1].t_next;
    struct side *s = ta <= tb ? &g->s[0] : &g->s[1];
    if (s->t_next <= g->now) link_step(g, s);
    if (g->draining && !g->drain_frame) g->drain_frame = g->frame;
    if (g->draining && g->frame - g->drain_frame > DRAIN_SLACK)
      gen_fail(g, "model: the run did not wind down (scenario step %u)", g->pc);
    if (g->frame != last_frame) { last_frame = g->frame; stall = 0; }
    else if (++stall > STALL_LIMIT) gen_fail(g, "model stalled (scenario step %u)", g->pc);
  }
  if (!g->stop_error) inj_check_all_done(g);
  if (g->stop_error) {
    snprintf(err, cap, "%s", g->err);
    return -1;
  }
  return 0;
}
