/* Scenarios as short scripts of steps (steps.h) from a starting state of
 * the link; the sequencer runs them. inj_plan adds the steps the
 * injections asked for need, at the point where the link is up. */
#include "scenario.h"
#include "inject.h"
#include "replay.h"
#include "steps.h"

#define L1_RESIDENCY_NS 2000

/* ---- initial states ---- */

static void start_bringup(struct gen *g) {
  for (unsigned i = 0; i < 2; i++) {
    struct side *s = &g->s[i];
    side_set_rate(s, 1);
    s->speed_code = 0;
    s->link_state = 0;
    s->dl_active = false;
    s->prior_payload = false;
  }
}

/* The capture starts with the link up: L0 at the final rate, channels 0
 * and 4 online, sequence numbers somewhere. */
static void start_l0(struct gen *g) {
  for (unsigned i = 0; i < 2; i++) {
    uint16_t seq = (uint16_t)(1 + gen_rng_below(&g->rng, UAL_SEQ_MOD));
    rp_start_l0(g, &g->s[i], seq);
  }
  for (unsigned i = 0; i < 2; i++) g->s[i].next_exp = g->s[i ^ 1].next_tx;
  g->s[0].t_next = g->t0;
  g->s[1].t_next = g->t0 + side_flit_ps(&g->s[1]) / 2;
}

/* ---- scenarios ---- */

static void add_start_event(struct gen *g) {
  struct op *o = step_add(g, OP_EVENT);
  o->a = UAL_EV_CAP_START;
}

static void add_end(struct gen *g) {
  step_add(g, OP_DRAIN);
  step_add(g, OP_END);
}

static void build_bringup_core(struct gen *g) {
  step_add(g, OP_TRAIN);
  step_run(g, 8);
  step_basic(g, 2, UAL_MT_DEVICE_ID);
  step_basic(g, 0, UAL_MT_PORT_NUMBER);
  if (inj_asked(g, UAL_R_DL_CH0_OFFLINE)) {
    step_set(g, SET_TL_INJECT, 0, UAL_R_DL_CH0_OFFLINE);
    step_run(g, 8);
  }
  unsigned fr = g->final_rate;
  bool eq_online = inj_asked(g, UAL_R_LT_EQ_CH0_ONLINE);
  if (fr >= 2) {
    if (!inj_asked(g, UAL_R_LT_SPEED_BEFORE_DL)) step_nego(g, 0, UAL_MT_LINK_SPEED, 1, 0);
    if (eq_online && fr == 2) step_nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_TL, 0);
    step_speed(g, 2, true);
  }
  if (fr >= 3) {
    step_nego(g, 0, UAL_MT_LINK_SPEED, side_speed_code(fr), 0);
    if (eq_online) step_nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_TL, 0);
    step_speed(g, fr, true);
  }
  if (!eq_online || fr < 2) step_nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_TL, 0);
  step_nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_UART, 0);
  step_tl(g, true);
  step_add(g, OP_UART_ONLINE_WAIT);
}

static void build_traffic_core(struct gen *g, unsigned rounds) {
  for (unsigned r = 0; r < rounds; r++) {
    step_run(g, 600);
    step_basic(g, 2, UAL_MT_DEVICE_ID);
    step_run(g, 600);
    step_basic(g, 0, UAL_MT_PORT_NUMBER);
    if (g->s[0].role == UAL_ROLE_ACCEL) step_rate(g, r % 2 ? UAL_RATE_FULL : 30000);
  }
}

/* L1 entry and exit, with the twists of the injections asked for */
static void l1(struct gen *g, uint32_t residency_ns) {
  struct l1_twists tw = {
    .order = inj_asked(g, UAL_R_LT_L1_ORDER),
    .ch0_offline = inj_asked(g, UAL_R_DL_CH0_OFFLINE) && g->scenario != GEN_SC_BRINGUP,
    .exit_content = inj_asked(g, UAL_R_LT_EXIT_L1_CONTENT),
  };
  step_l1(g, residency_ns, &tw);
}

static void build_l0p(struct gen *g, unsigned narrow) {
  unsigned w = g->s[0].width;
  unsigned init = inj_asked(g, UAL_R_LT_L0P_INITIATOR) ? 1 : 0;
  if (!inj_asked(g, UAL_R_LT_L0P_WITHOUT_DL)) step_nego(g, 0, UAL_MT_LINK_WIDTH, side_width_code(narrow), 0);
  step_l0p(g, init, narrow);
  step_run(g, 400);
  /* without the first negotiation the DL width never changed: the way back is the same state */
  if (inj_asked(g, UAL_R_LT_L0P_WITHOUT_DL)) step_set(g, SET_CTRL_CONSEQ, 0, UAL_R_DM_CTRL_SAME_STATE);
  step_nego(g, 0, UAL_MT_LINK_WIDTH, side_width_code(w), 0);
  step_l0p(g, 0, w);
}

static void build_errors(struct gen *g) {
  struct op *o;
  static const uint8_t plan[][2] = { { 0, 0 }, { 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 1 }, { 1, 1 } };
  for (unsigned i = 0; i < sizeof plan / sizeof plan[0]; i++) {
    step_run(g, 150);
    o = step_add(g, OP_ERRBURST);
    o->side = plan[i][0];
    o->a = plan[i][1];
  }
}

static void build_negotiation(struct gen *g) {
  bool accel_peer = g->s[1].role == UAL_ROLE_ACCEL;
  unsigned w = g->s[0].width, fr = g->final_rate;
  step_run(g, 100);
  if (w >= 4) {
    step_nego(g, 0, UAL_MT_LINK_WIDTH, side_width_code(w / 2), 0);          /* narrower: Ack */
    step_l0p(g, 0, w / 2);
    step_run(g, 100);
    step_nego(g, 0, UAL_MT_LINK_WIDTH, side_width_code(w), 1);              /* Priority, wider: Nack */
    step_run(g, 60);
    step_nego(g, 0, UAL_MT_LINK_WIDTH, side_width_code(w), 0);              /* back to the trained width */
    step_l0p(g, 0, w);
    step_run(g, 100);
    if (accel_peer) {
      step_conflict(g, UAL_MT_LINK_WIDTH, side_width_code(w / 4 ? w / 4 : 1),   /* no Priority: the widest wins */
                    side_width_code(w / 2), 0);
      step_l0p(g, 1, w / 2);
      step_run(g, 100);
      step_conflict(g, UAL_MT_LINK_WIDTH, side_width_code(w), side_width_code(w), 0);   /* identical: both Ack */
      step_l0p(g, 0, w);
      step_run(g, 100);
    }
  }
  if (fr >= 3) {
    step_nego(g, 0, UAL_MT_LINK_SPEED, 1, 1);                     /* Priority decrease: must be granted */
    step_set(g, SET_LOCKOUT, 2, 1);
    step_speed(g, 2, false);
    step_run(g, 100);
    step_nego(g, 0, UAL_MT_LINK_SPEED, side_speed_code(fr), 0);             /* soft lockout: Nack */
    step_run(g, 60);
    if (fr > 3) {
      step_nego(g, 0, UAL_MT_LINK_SPEED, 2, 0);                   /* a new reason: 64.0 GT/s, below the maximum */
      step_speed(g, 3, false);
      step_run(g, 100);
    }
    step_set(g, SET_LOCKOUT, 2, 0);                               /* firmware clears the lockout */
    step_nego(g, 0, UAL_MT_LINK_SPEED, side_speed_code(fr), 0);
    step_speed(g, fr, false);
    step_run(g, 100);
  }
  step_add(g, OP_UART_STOP);
  step_nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_UART, 0);
  step_run(g, 60);
  step_set(g, SET_FORCE, 1, UAL_CMD_PENDING);                     /* Decision Pending, then B requests */
  step_nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_UART, 0);
  step_add(g, OP_UART_ONLINE_WAIT);
  step_run(g, 200);
}

void scen_build(struct gen *g) {
  g->load = g->o.load >= 0 ? g->o.load : 0.6;
  g->ber = g->o.ber >= 0 ? g->o.ber : 0;
  g->uart_load = 0.15;
  g->sq->n = g->sq->pc = 0;
  switch (g->scenario) {
  case GEN_SC_BRINGUP:
    start_bringup(g);
    add_start_event(g);
    build_bringup_core(g);
    inj_plan(g);
    step_run(g, 200);
    break;
  case GEN_SC_TRAFFIC:
    start_l0(g);
    add_start_event(g);
    step_run(g, 200);
    inj_plan(g);
    build_traffic_core(g, 8);
    step_add(g, OP_RUN_LIMIT);
    break;
  case GEN_SC_UART:
    start_l0(g);
    g->load = g->o.load >= 0 ? g->o.load : 0.3;
    g->uart_load = 0.6;
    add_start_event(g);
    step_run(g, 400);
    step_add(g, OP_UART_RESET)->side = 0;
    step_run(g, 300);
    step_add(g, OP_UART_RESET)->side = 1;
    step_run(g, 300);
    inj_plan(g);
    step_run(g, 600);
    step_add(g, OP_RUN_LIMIT);
    break;
  case GEN_SC_NEGOTIATION:
    start_l0(g);
    add_start_event(g);
    inj_plan(g);
    build_negotiation(g);
    break;
  case GEN_SC_L1:
    start_l0(g);
    add_start_event(g);
    step_run(g, 400);
    inj_plan(g);
    l1(g, L1_RESIDENCY_NS);
    step_run(g, 300);
    break;
  case GEN_SC_L0P:
    start_l0(g);
    add_start_event(g);
    step_run(g, 300);
    inj_plan(g);
    build_l0p(g, g->s[0].width >= 2 ? g->s[0].width / 2 : 1);
    step_run(g, 300);
    break;
  case GEN_SC_ERRORS:
    start_l0(g);
    g->load = g->o.load >= 0 ? g->o.load : 0.7;
    g->ber = g->o.ber >= 0 ? g->o.ber : 2e-6;
    add_start_event(g);
    step_run(g, 100);
    inj_plan(g);
    build_errors(g);
    step_add(g, OP_RUN_LIMIT);
    break;
  case GEN_SC_ALL:
    start_bringup(g);
    add_start_event(g);
    build_bringup_core(g);
    inj_plan(g);
    build_traffic_core(g, 2);
    step_add(g, OP_UART_RESET)->side = 0;
    step_run(g, 300);
    step_set(g, SET_BER, 2, g->o.ber >= 0 ? g->o.ber : 2e-6);
    build_errors(g);
    step_set(g, SET_BER, 2, g->o.ber >= 0 ? g->o.ber : 0);
    step_run(g, 200);
    build_l0p(g, g->s[0].width >= 2 ? g->s[0].width / 2 : 1);
    step_run(g, 300);
    l1(g, L1_RESIDENCY_NS);
    step_run(g, 600);
    break;
  }
  add_end(g);
}

