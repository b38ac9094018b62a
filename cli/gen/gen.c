/* The generator's public interface (gen.h) and event loop: two link
 * partners emit records in time order, the sequencer steers them through
 * the scenario's steps, every record goes out through gen_out. */
#include "dl.h"
#include "pcie.h"
#include "pciefm.h"
#include "pcienf.h"
#include "inject.h"
#include "replay.h"
#include "scenario.h"
#include "sequencer.h"
#include "steps.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_RECORDS   6000
#define DEFAULT_LATENCY   20      /* ns */
#define DEFAULT_TRAIN_OS  8
#define STALL_LIMIT       100000  /* loop iterations without a record */
#define DRAIN_SLACK       100000  /* records a run may take to wind down after its limit */
#define INJECT_GRACE      50000   /* records a run may go on past its limit for an injection */

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

struct gen *gen_new(const struct gen_opts *o, const struct gen_out *out, char *err, size_t cap) {
  if (!out || !out->record) { snprintf(err, cap, "no output"); return NULL; }
  int fabric = o->scenario >= GEN_SC_PCIE && o->scenario < GEN_SC_ALL_COUNT ? o->scenario : -1;
  if (o->scenario < 0 && o->n_inject) {
    if (gen_pcie_inject_supported(o->inject[0].rule)) fabric = GEN_SC_PCIE;
    if (gen_pciefm_inject_supported(o->inject[0].rule)) fabric = gen_pciefm_inject_scenario(o->inject[0].rule);
    if (gen_pcienf_inject_supported(o->inject[0].rule)) fabric = gen_pcienf_inject_scenario(o->inject[0].rule);
  }
  if (fabric >= 0) {
    struct gen *g = calloc(1, sizeof *g);
    if (!g) { snprintf(err, cap, "out of memory"); return NULL; }
    g->o = *o;
    g->out = *out;
    g->pcie = true;
    g->scenario = fabric;
    return g;
  }
  unsigned rate = o->rate ? o->rate : 7;
  unsigned width = o->width ? o->width : 8;
  if (!ual_rate_name(rate) || rate > 7) { snprintf(err, cap, "rate %s is not a UALink rate", ual_rate_name(rate) ? ual_rate_name(rate) : "?"); return NULL; }
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
  if (g) {
    g->sq = calloc(1, sizeof *g->sq);
    g->ij = calloc(1, sizeof *g->ij);
  }
  if (!g || !g->sq || !g->ij) { gen_free(g); snprintf(err, cap, "out of memory"); return NULL; }
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
  g->sq->wake = PS_NEVER;
  if (!o->count && !o->duration_ps && g->scenario != GEN_SC_BRINGUP && g->scenario != GEN_SC_ALL &&
      g->scenario != GEN_SC_L1 && g->scenario != GEN_SC_L0P && g->scenario != GEN_SC_NEGOTIATION)
    g->o.count = DEFAULT_RECORDS;
  if (!g->o.train_os) g->o.train_os = 1;

  gen_rng_seed(&g->rng, o->seed);
  gen_rng_seed(&g->ber_rng[0], o->seed ^ 0xA5A5A5A5A5A5A5A5ull);
  gen_rng_seed(&g->ber_rng[1], o->seed ^ 0x5A5A5A5A5A5A5A5Aull);
  for (unsigned i = 0; i < 2; i++) {
    struct side *s = &g->s[i];
    rp_side_init(g, s, i);
    if (!s->rb || !s->sel_buf || !s->sel_have) { gen_free(g); snprintf(err, cap, "out of memory"); return NULL; }
    gen_rng_seed(&s->rng, o->seed * 2654435761u + i + 1);
    s->role = i == 0 || peer == GEN_PEER_ACCEL ? UAL_ROLE_ACCEL : UAL_ROLE_SWITCH;
    s->upstream = i == 1;          /* the switch; on accelerator-accelerator links by crosslink resolution */
    s->rate = (uint8_t)rate;
    s->width = (uint8_t)width;
    side_speed_changed(s);
    dl_init(s);
    s->width_code = s->max_width_code = (uint8_t)side_width_code(width);
    s->speed_code = s->max_speed_code = (uint8_t)side_speed_code(rate);
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
  for (unsigned i = 0; i < 2; i++) rp_side_free(&g->s[i]);
  free(g->sq);
  free(g->ij);
  free(g);
}

void gen_stats(const struct gen *g, struct gen_stats *st) { *st = g->st; }

const char *gen_decode_args(const struct gen *g) {
  if (!g->pcie) return NULL;
  return g->scenario == GEN_SC_PCIE_FLIT ? GEN_PCIEFM_DECODE_ARGS : g->scenario == GEN_SC_PCIE_RC ? GEN_PCIERC_DECODE_ARGS : NULL;
}

/* --count and --duration end the run, but not before every injection had
 * its chance: within a grace of 4x the count (at least 50000 records). */
static bool limit_reached(const struct gen *g) {
  uint64_t grace = g->o.count * 4 > INJECT_GRACE ? g->o.count * 4 : INJECT_GRACE;
  if (inj_any_pending(g) && g->frame < g->o.count + grace) return false;
  if (g->o.count && g->frame >= g->o.count) return true;
  if (g->o.duration_ps && g->now - g->t0 >= g->o.duration_ps) return true;
  return false;
}

int gen_run(struct gen *g, char *err, size_t cap) {
  if (g->pcie && (g->scenario == GEN_SC_PCIE_GEN1 || g->scenario == GEN_SC_PCIE_GEN3))
    return gen_pcienf_run(g->scenario, &g->o, &g->out, &g->st.records, err, cap);
  if (g->pcie && g->scenario != GEN_SC_PCIE) return gen_pciefm_run(g->scenario, &g->o, &g->out, &g->st.records, err, cap);
  if (g->pcie) return gen_pcie_run(&g->o, &g->out, &g->st.records, err, cap);
  uint64_t stall = 0, last_frame = 0;
  while (!g->finished && !g->stop_error) {
    uint64_t ta = g->s[0].t_next, tb = g->s[1].t_next, tw = seq_wake(g);
    uint64_t t = ta < tb ? ta : tb;
    if (tw < t) t = tw;
    if (t != PS_NEVER && t > g->now) g->now = t;
    if (!g->draining && limit_reached(g)) g->draining = true;
    seq_tick(g);
    if (g->finished || g->stop_error) break;
    ta = g->s[0].t_next;
    tb = g->s[1].t_next;
    struct side *s = ta <= tb ? &g->s[0] : &g->s[1];
    if (s->t_next <= g->now) rp_step(g, s);
    if (g->draining && !g->drain_frame) g->drain_frame = g->frame;
    if (g->draining && g->frame - g->drain_frame > DRAIN_SLACK)
      gen_fail(g, "model: the run did not wind down (scenario step %u)", g->sq->pc);
    if (g->frame != last_frame) { last_frame = g->frame; stall = 0; }
    else if (++stall > STALL_LIMIT) gen_fail(g, "model stalled (scenario step %u)", g->sq->pc);
  }
  if (!g->stop_error) inj_check_all_done(g);
  if (g->stop_error) {
    snprintf(err, cap, "%s", g->err);
    return -1;
  }
  return 0;
}
