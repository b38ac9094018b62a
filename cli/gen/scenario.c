/* Scenarios as lists of steps. Each step starts something on the link
 * model (a training script, a negotiation, a speed change, L1 entry...) and
 * waits until the model says it is over; the model itself keeps both
 * partners conformant while the steps run. */
#include "model.h"

#include <math.h>
#include <string.h>

#define RID_SPEEDS   0x3F     /* Flit Mode Supported, 2.5..32.0 GT/s supported */
#define RID_CHANGE   0x80     /* speed change */
#define TC_MTS       0xC0     /* Modified TS1/TS2 supported */
#define LINK_PAD     UAL_K23_7
#define DETECT_PS    (200 * PS_PER_NS)
#define SPEED_GAP_PS (500 * PS_PER_NS)
#define B_OFFSET_PS  (37 * PS_PER_NS)   /* the partner follows a training step a little later */
#define L1_RESIDENCY_NS 2000
#define OP_WATCHDOG  300000      /* records one step may take before the model is declared stuck */

/* ---- building step lists ---- */

static struct op *add(struct gen *g, unsigned code) {
  if (g->n_ops >= OPS_MAX) { gen_fail(g, "scenario too long"); return &g->ops[OPS_MAX - 1]; }
  struct op *o = &g->ops[g->n_ops++];
  memset(o, 0, sizeof *o);
  o->code = (uint8_t)code;
  return o;
}

static void run(struct gen *g, unsigned flits) { add(g, OP_RUN)->n = flits; }

static void nego(struct gen *g, unsigned side, unsigned mt, unsigned target, unsigned prio) {
  struct op *o = add(g, OP_NEGOTIATE);
  o->side = (uint8_t)side;
  o->a = (uint8_t)mt;
  o->b = (uint8_t)target;
  o->c = (uint8_t)prio;
}

static void set(struct gen *g, unsigned what, unsigned side, double x) {
  struct op *o = add(g, OP_SET);
  o->a = (uint8_t)what;
  o->side = (uint8_t)side;
  o->x = x;
}

static void speed(struct gen *g, unsigned rate, bool eq) {
  struct op *o = add(g, OP_SPEED);
  o->a = (uint8_t)rate;
  o->b = eq;
}

static void l0p(struct gen *g, unsigned side, unsigned width) {
  struct op *o = add(g, OP_L0P);
  o->side = (uint8_t)side;
  o->a = (uint8_t)width;
}

static void basic(struct gen *g, unsigned side, unsigned mt) {
  struct op *o = add(g, OP_BASIC);
  o->side = (uint8_t)side;
  o->a = (uint8_t)mt;
}

static void rate(struct gen *g, unsigned target) {
  struct op *o = add(g, OP_RATE);
  o->n = target;
}

static bool injected(struct gen *g, int rule) { return inj_find(g, rule) != NULL; }

static unsigned wcode(unsigned w) { return w >= 8 ? 3 : w >= 4 ? 2 : w >= 2 ? 1 : 0; }
static unsigned scode(unsigned r) { return r <= 1 ? 0 : r == 2 ? 1 : r == 3 ? 2 : 3; }

/* ---- PL scripts ---- */

static struct pl_item ts(unsigned ts2, unsigned link, bool per_lane, bool modified, unsigned count,
                         unsigned rate_id) {
  struct pl_item it = { .kind = PLI_TS, .per_lane = per_lane, .count = (uint16_t)count };
  it.ts.ts2 = (uint8_t)ts2;
  it.ts.link_number = (uint8_t)link;
  it.ts.lane_number = LINK_PAD;
  it.ts.rate_id = (uint8_t)rate_id;
  it.ts.training_control = TC_MTS;
  if (modified) {
    it.ts.modified = 1;
    it.ts.mts_usage = UAL_MTS_USAGE_ALT_PROTOCOL;
    it.ts.vendor_id = UAL_UALINK_VENDOR_ID;
  }
  return it;
}

static void push(struct side *s, struct pl_item it) { link_script_push(s, &it); }
static void push_os(struct side *s, unsigned type) {
  push(s, (struct pl_item){ .kind = PLI_OS, .os_type = (uint8_t)type, .count = 1 });
}
static void push_event(struct side *s, unsigned code, unsigned value) {
  push(s, (struct pl_item){ .kind = PLI_EVENT, .code = (uint16_t)code, .value = value, .count = 1 });
}
static void push_mode(struct side *s, unsigned mode) {
  push(s, (struct pl_item){ .kind = PLI_MODE, .value = mode, .count = 1 });
}
static void push_label(struct side *s, int rule) {
  push(s, (struct pl_item){ .kind = PLI_LABEL, .value = (uint32_t)rule });
}

static void script_start(struct gen *g, struct side *s, uint64_t delay) {
  s->mode = PL_SCRIPT;
  s->t_next = g->now + delay;
}

/* Detect, Polling, Configuration with the UALink alternate protocol
 * negotiation (Modified TS1/TS2, vendor 20AEh), then Configuration.Idle. */
static void script_train(struct gen *g, struct side *s) {
  unsigned n = g->o.train_os;
  bool mts = !injected(g, UAL_R_LT_NO_ALT_PROTOCOL);
  push_event(s, UAL_EV_RX_DETECT, 0);
  push(s, (struct pl_item){ .kind = PLI_GAP, .ps = DETECT_PS });
  struct pl_item t = ts(0, LINK_PAD, false, false, n, RID_SPEEDS);      /* Polling.Active */
  t.flit_mode_off = s->id == 0 && injected(g, UAL_R_LT_NO_FLIT_MODE);
  push(s, t);
  push(s, ts(1, LINK_PAD, false, false, n, RID_SPEEDS));                /* Polling.Configuration */
  push(s, ts(0, 0, false, false, n, RID_SPEEDS));                       /* Linkwidth.Start/Accept */
  push(s, ts(0, 0, true, mts, (n + 1) / 2, RID_SPEEDS));                /* Lanenum.Wait/Accept */
  push(s, ts(1, 0, true, mts, (n + 1) / 2, RID_SPEEDS));                /* Configuration.Complete */
  if (!mts && s->id == 0) push_label(s, UAL_R_LT_NO_ALT_PROTOCOL);
  s->after_idle = PL_HANDSHAKE;
  push_mode(s, PL_IDLE);                                                /* Configuration.Idle */
}

/* Recovery with a speed change: RcvrLock, RcvrCfg, Speed (electrical idle),
 * then at the new rate RcvrLock, optional Equalization phases 0..3,
 * RcvrCfg and Idle. */
static void script_speed(struct gen *g, struct side *s, unsigned rate, bool eq, int label_rate,
                         int label_eq) {
  unsigned k = g->o.train_os / 4 ? g->o.train_os / 4 : 1;
  push(s, ts(0, 0, true, false, k, RID_SPEEDS | RID_CHANGE));
  push(s, ts(1, 0, true, false, k, RID_SPEEDS | RID_CHANGE));
  push_os(s, UAL_OS_EIOS);
  push_event(s, UAL_EV_EIDLE_ENTER, 0);
  push(s, (struct pl_item){ .kind = PLI_GAP, .ps = SPEED_GAP_PS });
  push(s, (struct pl_item){ .kind = PLI_RATE, .value = rate });
  if (label_rate >= 0 && s->id == 0) push_label(s, label_rate);
  push_event(s, UAL_EV_RATE, rate);
  push_event(s, UAL_EV_EIDLE_EXIT, 0);
  bool enc8 = ual_rate_encoding(rate) == UAL_ENC_8B10B;
  if (!enc8) push_os(s, UAL_OS_EIEOS);
  push(s, ts(0, 0, true, false, k, RID_SPEEDS));
  if (eq) {
    if (label_eq >= 0 && s->id == 0) push_label(s, label_eq);
    for (unsigned ph = 0; ph < 4; ph++) {
      if (!enc8) push_os(s, UAL_OS_EIEOS);
      push(s, ts(0, 0, true, false, k, RID_SPEEDS));
    }
  }
  push(s, ts(1, 0, true, false, k, RID_SPEEDS));
  if (!enc8) push_os(s, UAL_OS_SDS);
  s->after_idle = PL_NORMAL;
  push_mode(s, PL_IDLE);
}

/* L1 exit: electrical idle exit, Recovery, Recovery.Idle. */
static void script_l1_exit(struct gen *g, struct side *s) {
  unsigned k = g->o.train_os / 4 ? g->o.train_os / 4 : 1;
  bool enc8 = ual_rate_encoding(s->rate) == UAL_ENC_8B10B;
  push_event(s, UAL_EV_EIDLE_EXIT, 0);
  if (!enc8) push_os(s, UAL_OS_EIEOS);
  push(s, ts(0, 0, true, false, k, RID_SPEEDS));
  push(s, ts(1, 0, true, false, k, RID_SPEEDS));
  if (!enc8) push_os(s, UAL_OS_SDS);
  s->after_idle = PL_NORMAL;
  push_mode(s, PL_IDLE);
}

/* ---- initial states ---- */

static void start_bringup(struct gen *g) {
  for (unsigned i = 0; i < 2; i++) {
    struct side *s = &g->s[i];
    link_set_rate(g, s, 1);
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
    struct side *s = &g->s[i];
    s->next_tx = (uint16_t)(1 + gen_rng_below(&g->rng, UAL_SEQ_MOD));
    s->acked = seq_dec(s->next_tx);
    s->dl_active = true;
    s->prior_payload = true;
    s->tl_enable = true;
    dl_apply_channel(g, s, UAL_CHAN_TL, true);
    dl_apply_channel(g, s, UAL_CHAN_UART, true);
    link_go_normal(s);
    dl_update_pacing(g, s);
  }
  for (unsigned i = 0; i < 2; i++) g->s[i].next_exp = g->s[i ^ 1].next_tx;
  g->s[0].t_next = g->t0;
  g->s[1].t_next = g->t0 + side_flit_ps(&g->s[1]) / 2;
}

/* ---- scenarios ---- */

static void add_start_event(struct gen *g) {
  struct op *o = add(g, OP_EVENT);
  o->a = UAL_EV_CAP_START;
}

static void add_end(struct gen *g) {
  add(g, OP_DRAIN);
  add(g, OP_END);
}

static void build_bringup_core(struct gen *g) {
  add(g, OP_TRAIN);
  run(g, 8);
  struct op *o = add(g, OP_BASIC);
  o->side = 2;
  o->a = UAL_MT_DEVICE_ID;
  basic(g, 0, UAL_MT_PORT_NUMBER);
  if (injected(g, UAL_R_DL_CH0_OFFLINE)) {
    set(g, SET_TL_INJECT, 0, UAL_R_DL_CH0_OFFLINE);
    run(g, 8);
  }
  unsigned fr = g->final_rate;
  bool eq_online = injected(g, UAL_R_LT_EQ_CH0_ONLINE);
  if (fr >= 2) {
    if (!injected(g, UAL_R_LT_SPEED_BEFORE_DL)) nego(g, 0, UAL_MT_LINK_SPEED, 1, 0);
    if (eq_online && fr == 2) nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_TL, 0);
    speed(g, 2, true);
  }
  if (fr >= 3) {
    nego(g, 0, UAL_MT_LINK_SPEED, scode(fr), 0);
    if (eq_online) nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_TL, 0);
    speed(g, fr, true);
  }
  if (!eq_online || fr < 2) nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_TL, 0);
  nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_UART, 0);
  o = add(g, OP_TL);
  o->side = 2;
  o->a = 1;
  add(g, OP_UART_ONLINE_WAIT);
}

static void build_traffic_core(struct gen *g, unsigned rounds) {
  for (unsigned r = 0; r < rounds; r++) {
    run(g, 600);
    struct op *o = add(g, OP_BASIC);
    o->side = 2;
    o->a = UAL_MT_DEVICE_ID;
    run(g, 600);
    basic(g, 0, UAL_MT_PORT_NUMBER);
    if (g->s[0].role == UAL_ROLE_ACCEL) rate(g, r % 2 ? UAL_RATE_FULL : 30000);
  }
}

void scen_l1(struct gen *g, uint32_t residency_ns, bool plain) {
  bool order = !plain && injected(g, UAL_R_LT_L1_ORDER);
  struct op *o = add(g, OP_TL);          /* TL-TL link disconnect: the TLs stop first */
  o->side = 2;
  add(g, OP_UART_STOP);
  if (!order) {
    nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_TL, 0);
    if (!plain && injected(g, UAL_R_DL_CH0_OFFLINE) && g->scenario != GEN_SC_BRINGUP) {
      set(g, SET_TL_INJECT, 0, UAL_R_DL_CH0_OFFLINE);
      run(g, 8);
    }
    nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_UART, 0);
  }
  add(g, OP_L1_ENTER)->n = order;
  o = add(g, OP_L1_EXIT);
  o->n = residency_ns;
  run(g, 16);                            /* payload flits without TL flits or UART sectors */
  if (!plain && injected(g, UAL_R_LT_EXIT_L1_CONTENT)) {
    set(g, SET_TL_INJECT, 0, UAL_R_LT_EXIT_L1_CONTENT);
    run(g, 8);
  }
  /* with LT-L1-ORDER the channels never went offline: asking for online again
   * is a request for the state the analyzer last saw */
  if (order) set(g, SET_CTRL_CONSEQ, 0, UAL_R_DM_CTRL_SAME_STATE);
  nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_TL, 0);
  if (order) set(g, SET_CTRL_CONSEQ, 0, UAL_R_DM_CTRL_SAME_STATE);
  nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_UART, 0);
  o = add(g, OP_TL);
  o->side = 2;
  o->a = 1;
  add(g, OP_UART_ONLINE_WAIT);
}

static void build_l0p(struct gen *g, unsigned narrow) {
  unsigned w = g->s[0].width;
  unsigned init = injected(g, UAL_R_LT_L0P_INITIATOR) ? 1 : 0;
  if (!injected(g, UAL_R_LT_L0P_WITHOUT_DL)) nego(g, 0, UAL_MT_LINK_WIDTH, wcode(narrow), 0);
  l0p(g, init, narrow);
  run(g, 400);
  /* without the first negotiation the DL width never changed: the way back is the same state */
  if (injected(g, UAL_R_LT_L0P_WITHOUT_DL)) set(g, SET_CTRL_CONSEQ, 0, UAL_R_DM_CTRL_SAME_STATE);
  nego(g, 0, UAL_MT_LINK_WIDTH, wcode(w), 0);
  l0p(g, 0, w);
}

static void build_errors(struct gen *g) {
  struct op *o;
  static const uint8_t plan[][2] = { { 0, 0 }, { 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 1 }, { 1, 1 } };
  for (unsigned i = 0; i < sizeof plan / sizeof plan[0]; i++) {
    run(g, 150);
    o = add(g, OP_ERRBURST);
    o->side = plan[i][0];
    o->a = plan[i][1];
  }
}

static void build_negotiation(struct gen *g) {
  bool accel_peer = g->s[1].role == UAL_ROLE_ACCEL;
  unsigned w = g->s[0].width, fr = g->final_rate;
  struct op *o;
  run(g, 100);
  if (w >= 4) {
    nego(g, 0, UAL_MT_LINK_WIDTH, wcode(w / 2), 0);          /* narrower: Ack */
    l0p(g, 0, w / 2);
    run(g, 100);
    nego(g, 0, UAL_MT_LINK_WIDTH, wcode(w), 1);              /* Priority, wider: Nack */
    run(g, 60);
    nego(g, 0, UAL_MT_LINK_WIDTH, wcode(w), 0);              /* back to the trained width */
    l0p(g, 0, w);
    run(g, 100);
    if (accel_peer) {
      o = add(g, OP_CONFLICT);                               /* no Priority: the widest wins */
      o->a = UAL_MT_LINK_WIDTH;
      o->b = (uint8_t)wcode(w / 4 ? w / 4 : 1);
      o->c = (uint8_t)wcode(w / 2);
      l0p(g, 1, w / 2);
      run(g, 100);
      o = add(g, OP_CONFLICT);                               /* identical: both Ack */
      o->a = UAL_MT_LINK_WIDTH;
      o->b = o->c = (uint8_t)wcode(w);
      l0p(g, 0, w);
      run(g, 100);
    }
  }
  if (fr >= 3) {
    nego(g, 0, UAL_MT_LINK_SPEED, 1, 1);                     /* Priority decrease: must be granted */
    o = add(g, OP_SET);
    o->a = SET_LOCKOUT;
    o->side = 2;
    o->x = 1;
    speed(g, 2, false);
    run(g, 100);
    nego(g, 0, UAL_MT_LINK_SPEED, scode(fr), 0);             /* soft lockout: Nack */
    run(g, 60);
    if (fr > 3) {
      nego(g, 0, UAL_MT_LINK_SPEED, 2, 0);                   /* a new reason: 64.0 GT/s, below the maximum */
      speed(g, 3, false);
      run(g, 100);
    }
    o = add(g, OP_SET);                                      /* firmware clears the lockout */
    o->a = SET_LOCKOUT;
    o->side = 2;
    o->x = 0;
    nego(g, 0, UAL_MT_LINK_SPEED, scode(fr), 0);
    speed(g, fr, false);
    run(g, 100);
  }
  add(g, OP_UART_STOP);
  nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_UART, 0);
  run(g, 60);
  set(g, SET_FORCE, 1, UAL_CMD_PENDING);                     /* Decision Pending, then B requests */
  nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_UART, 0);
  add(g, OP_UART_ONLINE_WAIT);
  run(g, 200);
}

void scen_build(struct gen *g) {
  g->load = g->o.load >= 0 ? g->o.load : 0.6;
  g->ber = g->o.ber >= 0 ? g->o.ber : 0;
  g->uart_load = 0.15;
  g->n_ops = g->pc = 0;
  switch (g->scenario) {
  case GEN_SC_BRINGUP:
    start_bringup(g);
    add_start_event(g);
    build_bringup_core(g);
    inj_plan(g);
    run(g, 200);
    break;
  case GEN_SC_TRAFFIC:
    start_l0(g);
    add_start_event(g);
    run(g, 200);
    inj_plan(g);
    build_traffic_core(g, 8);
    add(g, OP_RUN_LIMIT);
    break;
  case GEN_SC_UART:
    start_l0(g);
    g->load = g->o.load >= 0 ? g->o.load : 0.3;
    g->uart_load = 0.6;
    add_start_event(g);
    run(g, 400);
    add(g, OP_UART_RESET)->side = 0;
    run(g, 300);
    add(g, OP_UART_RESET)->side = 1;
    run(g, 300);
    inj_plan(g);
    run(g, 600);
    add(g, OP_RUN_LIMIT);
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
    run(g, 400);
    inj_plan(g);
    scen_l1(g, L1_RESIDENCY_NS, false);
    run(g, 300);
    break;
  case GEN_SC_L0P:
    start_l0(g);
    add_start_event(g);
    run(g, 300);
    inj_plan(g);
    build_l0p(g, g->s[0].width >= 2 ? g->s[0].width / 2 : 1);
    run(g, 300);
    break;
  case GEN_SC_ERRORS:
    start_l0(g);
    g->load = g->o.load >= 0 ? g->o.load : 0.7;
    g->ber = g->o.ber >= 0 ? g->o.ber : 2e-6;
    add_start_event(g);
    run(g, 100);
    inj_plan(g);
    build_errors(g);
    add(g, OP_RUN_LIMIT);
    break;
  case GEN_SC_ALL:
    start_bringup(g);
    add_start_event(g);
    build_bringup_core(g);
    inj_plan(g);
    build_traffic_core(g, 2);
    add(g, OP_UART_RESET)->side = 0;
    run(g, 300);
    set(g, SET_BER, 2, g->o.ber >= 0 ? g->o.ber : 2e-6);
    build_errors(g);
    set(g, SET_BER, 2, g->o.ber >= 0 ? g->o.ber : 0);
    run(g, 200);
    build_l0p(g, g->s[0].width >= 2 ? g->s[0].width / 2 : 1);
    run(g, 300);
    scen_l1(g, L1_RESIDENCY_NS, false);
    run(g, 600);
    break;
  }
  add_end(g);
}

/* ---- running steps ---- */

static bool ctrl_quiet(const struct gen *g) {
  for (unsigned i = 0; i < 2; i++) {
    const struct ctrl_state *c = &g->s[i].ctrl;
    if (c->req != CR_NONE || c->rsp != RS_NONE || c->owe || g->s[i].q[MC_CONTROL].count) return false;
  }
  return true;
}

static bool link_calm(const struct side *s) {
  return !s->rp_active && !s->rp_pending && !s->nak_req && s->tail_naks == 0 &&
         s->rx_state == RX_NORMAL && s->n_extra == 0;
}

static bool both_mode(const struct gen *g, unsigned mode) {
  return g->s[0].mode == mode && g->s[1].mode == mode;
}

static uint64_t ref_flit_ps(const struct gen *g) {
  uint64_t ft = side_flit_ps(&g->s[0]);
  return ft ? ft : 2000;
}

static bool msgs_clear(const struct side *s) {
  for (unsigned c = 0; c < MC_COUNT; c++)
    if (s->q[c].count) return false;
  return ual_pack_msg_queued(&s->pack) == 0 && s->infl.count == 0;
}

static struct side *side_of(struct gen *g, const struct op *o) { return &g->s[o->side & 1]; }

static void apply_set(struct gen *g, const struct op *o) {
  for (unsigned i = 0; i < 2; i++) {
    if (o->side != 2 && o->side != i) continue;
    struct side *s = &g->s[i];
    switch (o->a) {
    case SET_LOAD: g->load = o->x; break;
    case SET_BER:
      g->ber = o->x;
      if (g->ber > 0) g->ber_next[i] = -log1p(-gen_rng_unit(&g->ber_rng[i])) / -log1p(-g->ber);
      break;
    case SET_UART_LOAD: g->uart_load = o->x; break;
    case SET_FORCE: s->ctrl.force = (uint8_t)o->x; break;
    case SET_NAK: g->nak_policy = (int)o->x; break;
    case SET_LOCKOUT: s->lockout_speed = s->lockout_width = o->x != 0; break;
    case SET_TL_INJECT: s->tl_inject_offline = 1; s->tl_inject_label = (int16_t)o->x; break;
    case SET_CTRL_LABEL: s->ctrl_label = (int16_t)o->x; s->ctrl_label_src = TRUTH_SRC_INJECT; break;
    case SET_CONFLICT_WRONG: s->ctrl.conflict_wrong = 1; break;
    case SET_CONFLICT_PENDING: s->ctrl.conflict_pending = 1; break;
    case SET_CTRL_CONSEQ: s->ctrl_label = (int16_t)o->x; s->ctrl_label_src = TRUTH_SRC_CONSEQ; break;
    case SET_NOOPS: s->uart.reset_noops = (uint8_t)o->x; break;
    case SET_ECHO: s->ctrl.echo_wrong = 1; break;
    case SET_FORCE_LABEL: s->ctrl.force_label = (int16_t)o->x; break;
    case SET_SKIP_CONFIRM: s->ctrl.skip_confirm = 1; break;
    case SET_SEND_CREDIT: inj_send_credit(g, s, (int)o->x); break;
    }
  }
}

/* true when the step could start now */
static bool op_start(struct gen *g, struct op *o) {
  struct side *a = &g->s[0], *b = &g->s[1];
  switch (o->code) {
  case OP_EVENT: {
    struct ual_event ev = { o->a, 0, o->n };
    uint8_t body[UAL_REC_EVENT_BYTES];
    ual_event_build(&ev, body);
    gen_emit(g, side_of(g, o), UAL_REC_EVENT, body, sizeof body, g->now);
    return true;
  }
  case OP_TRAIN:
    for (unsigned i = 0; i < 2; i++) {
      script_train(g, &g->s[i]);
      script_start(g, &g->s[i], i ? B_OFFSET_PS : 0);
    }
    return true;
  case OP_RUN: {
    uint64_t n = o->keep ? o->n : (uint64_t)(o->n * g->o.run_scale + 0.5);
    g->op_wake = g->now + (n ? n : 1) * ref_flit_ps(g);
    return true;
  }
  case OP_BASIC:
    if (g->hold_requests) return false;
    for (unsigned i = 0; i < 2; i++)
      if ((o->side == 2 || o->side == i) && !g->s[i].basic_out[o->a]) dl_basic_request(g, &g->s[i], o->a);
    return true;
  case OP_NEGOTIATE:
    if (!ctrl_quiet(g) || g->hold_requests) return false;
    if (o->n & NF_PENDING_LAPSE) {
      peer_of(g, side_of(g, o))->ctrl.force = UAL_CMD_PENDING;
      peer_of(g, side_of(g, o))->ctrl.pending_lapse = 1;
    }
    dl_ctrl_request(g, side_of(g, o), o->a, o->b, o->c);
    if (o->n & NF_DUPLICATE) {
      peer_of(g, side_of(g, o))->ignore_dup_request = true;
      gen_truth_next_ctrl(g, side_of(g, o), UAL_R_DM_CTRL_OUTSTANDING);
      dl_ctrl_request(g, side_of(g, o), o->a, o->b, o->c);
    }
    return true;
  case OP_CONFLICT:
    /* both requests go out in the next flit of each side, so they cross on the wire */
    if (!ctrl_quiet(g) || g->hold_requests || !msgs_clear(a) || !msgs_clear(b)) return false;
    dl_ctrl_request(g, a, o->a, o->b, o->n & 1);
    dl_ctrl_request(g, b, o->a, o->c, o->n >> 1 & 1);
    a->q[MC_CONTROL].it[a->q[MC_CONTROL].count - 1].prio = 1;
    b->q[MC_CONTROL].it[b->q[MC_CONTROL].count - 1].prio = 1;
    /* B second: it then receives A's request first, and answers it first */
    if (o->n & CONFLICT_B_SECOND)
      b->q[MC_CONTROL].it[b->q[MC_CONTROL].count - 1].not_before_ps = g->now + side_flit_ps(b) + 1;
    return true;
  case OP_SPEED:
  case OP_L1_EXIT:
    g->op_state = 0;
    return true;
  case OP_L0P: {
    struct side *s = side_of(g, o);
    struct pl_extra x = { .kind = X_LM, .label = -1 };
    x.dllp.type = UAL_DLLP_LINK_MGMT;
    x.dllp.lm_cmd = UAL_LM_REQUEST;
    x.dllp.lm_width = (uint8_t)wcode(o->a);
    inj_lm(g, s, &x);
    s->lm_sent = s->lm_acked = false;
    link_extra_push(s, &x);
    return true;
  }
  case OP_TL:
    for (unsigned i = 0; i < 2; i++)
      if (o->side == 2 || o->side == i) g->s[i].tl_enable = o->a != 0;
    return true;
  case OP_UART_STOP:
    g->uart_saved = g->uart_load;
    g->uart_load = 0;
    a->uart.stopped = b->uart.stopped = true;
    g->op_state = 0;
    return true;
  case OP_UART_ONLINE_WAIT:
    if (g->uart_saved > 0) g->uart_load = g->uart_saved;
    for (unsigned i = 0; i < 2; i++) g->s[i].uart.stopped = g->s[i].uart.quiesced = false;
    return true;
  case OP_UART_RESET:
    if (side_of(g, o)->uart.reset != UR_NONE || !side_of(g, o)->uart.enabled) return false;
    dl_uart_reset(g, side_of(g, o));
    if (o->a) peer_of(g, side_of(g, o))->uart.reset_silent = true;
    return true;
  case OP_RATE:
    if (a->rate_fsm != RC_IDLE || g->hold_requests) return false;
    dl_rate_change(g, a, (uint16_t)o->n, false);
    return true;
  case OP_L1_ENTER:
    if (!ctrl_quiet(g)) return false;
    if (o->n) gen_truth_next_ctrl(g, a, UAL_R_LT_L1_ORDER);
    dl_ctrl_request(g, a, UAL_MT_LINK_STATE, 1, 0);
    return true;
  case OP_ERRBURST:
    side_of(g, o)->err_burst = (uint8_t)(o->a + 1);
    return true;
  case OP_SET: apply_set(g, o); return true;
  case OP_DRAIN: g->draining = true; return true;
  case OP_INJECT_POINT: return true;
  case OP_END: {
    gen_label_flush(g);
    struct ual_event ev = { UAL_EV_CAP_STOP, 0, 0 };
    uint8_t body[UAL_REC_EVENT_BYTES];
    ual_event_build(&ev, body);
    gen_emit(g, a, UAL_REC_EVENT, body, sizeof body, g->now);
    g->finished = true;
    return true;
  }
  }
  return true;
}

static bool drained(const struct gen *g) {
  for (unsigned i = 0; i < 2; i++) {
    const struct side *s = &g->s[i];
    if (s->mode == PL_SILENT && s->link_down) continue;
    if (s->mode != PL_NORMAL || !dl_idle(s) || dl_busy_requests(s) || !link_calm(s)) return false;
  }
  return true;
}

static bool op_done(struct gen *g, struct op *o) {
  struct side *a = &g->s[0], *b = &g->s[1];
  switch (o->code) {
  case OP_TRAIN:
    if (!both_mode(g, PL_NORMAL)) return false;
    a->dl_active = b->dl_active = true;
    return true;
  case OP_RUN:
    if (g->now < g->op_wake) return false;
    g->op_wake = PS_NEVER;
    return true;
  case OP_BASIC:
    return !a->basic_out[o->a] && !b->basic_out[o->a];
  case OP_NEGOTIATE:
  case OP_CONFLICT:
  case OP_L1_ENTER:
    if (o->code == OP_L1_ENTER) return both_mode(g, PL_SILENT);
    /* n holds negotiation flags for OP_NEGOTIATE only (OP_CONFLICT: Priorities) */
    if (o->code == OP_NEGOTIATE && (o->n & NF_PENDING_LAPSE)) {
      struct side *s = side_of(g, o);
      if (s->ctrl.req != CR_WAIT_PEER) return false;
      s->ctrl.req = CR_NONE;               /* the requester stops waiting for the owed request */
      return ctrl_quiet(g);
    }
    if (o->code == OP_NEGOTIATE && (o->n & NF_NO_CONFIRM)) {
      struct side *s = side_of(g, o);
      if (s->ctrl.req != CR_NONE) return false;
      peer_of(g, s)->ctrl.rsp = RS_NONE;   /* the responder stops waiting */
      return true;
    }
    return ctrl_quiet(g);
  case OP_SPEED:
    switch (g->op_state) {
    case 0:                                /* no new TL flits or messages, finish what is packed */
      a->wind_down = b->wind_down = true;
      if (!dl_idle(a) || !dl_idle(b)) return false;
      a->dl_pause = b->dl_pause = true;   /* NOP flits until everything is acknowledged */
      g->op_state = 1;
      return false;
    case 1:
      if (!link_settled(g, a) || !link_settled(g, b)) return false;
      for (unsigned i = 0; i < 2; i++) {
        int lr = injected(g, UAL_R_LT_SPEED_BEFORE_DL) && o->a == 2 ? UAL_R_LT_SPEED_BEFORE_DL : -1;
        int le = injected(g, UAL_R_LT_EQ_CH0_ONLINE) && o->a == g->final_rate && o->b ? UAL_R_LT_EQ_CH0_ONLINE : -1;
        script_speed(g, &g->s[i], o->a, o->b, lr, le);
        script_start(g, &g->s[i], i ? side_flit_ps(&g->s[i]) / 2 : 0);
      }
      g->op_state = 2;
      return false;
    default:
      if (!both_mode(g, PL_NORMAL)) return false;
      a->wind_down = b->wind_down = a->dl_pause = b->dl_pause = false;
      return true;
    }
  case OP_L0P:
    return a->width == o->a && b->width == o->a && a->n_extra == 0 && b->n_extra == 0;
  case OP_TL:
    if (o->a) return true;
    return ual_pack_tl_queued(&a->pack) == 0 && !ual_pack_busy(&a->pack) &&
           ual_pack_tl_queued(&b->pack) == 0 && !ual_pack_busy(&b->pack);
  case OP_UART_STOP: {
    /* both wound down, and stayed so while the last messages crossed the wire */
    bool q = (a->uart.quiesced || !a->uart.enabled) && (b->uart.quiesced || !b->uart.enabled);
    if (!q) { g->op_state = 0; return false; }
    if (g->op_state == 0) { g->op_state = 1; g->op_wake = g->now + 64 * ref_flit_ps(g); return false; }
    if (g->now < g->op_wake) return false;
    g->op_wake = PS_NEVER;
    return true;
  }
  case OP_UART_ONLINE_WAIT:
    return a->uart.credit_valid && b->uart.credit_valid;
  case OP_UART_RESET:
    if (o->a) return side_of(g, o)->uart.reset == UR_WAIT_RSP;   /* unanswered: over once asked */
    return side_of(g, o)->uart.reset == UR_NONE && a->uart.credit_valid && b->uart.credit_valid;
  case OP_RATE:
    return a->rate_fsm == RC_IDLE;
  case OP_L1_EXIT:
    switch (g->op_state) {
    case 0:
      g->op_wake = g->now + (uint64_t)o->n * PS_PER_NS;
      g->op_state = 1;
      return false;
    case 1:
      if (g->now < g->op_wake) return false;
      g->op_wake = PS_NEVER;
      for (unsigned i = 0; i < 2; i++) {
        struct side *s = &g->s[i];
        s->pm = PM_NONE;
        s->rx_enter_l1 = s->rx_req_ack = s->rx_eios = false;
        s->link_state = 0;
        s->dl_active = true;
        s->link_down = false;
        /* the DL comes back with its channels offline, to be renegotiated */
        dl_apply_channel(g, s, UAL_CHAN_TL, false);
        dl_apply_channel(g, s, UAL_CHAN_UART, false);
        s->sc_count = 0;
        script_l1_exit(g, s);
        script_start(g, s, i == (o->side & 1) ? 0 : 2 * B_OFFSET_PS);
      }
      g->op_state = 2;
      return false;
    default:
      return both_mode(g, PL_NORMAL);
    }
  case OP_ERRBURST:
    return side_of(g, o)->err_burst == 0 && link_calm(a) && link_calm(b);
  case OP_DRAIN:
    return drained(g) && inj_drain_ready(g);
  case OP_RUN_LIMIT:
    return g->draining;
  case OP_INJECT_POINT:
    return g->frame >= o->n;
  default:
    return true;
  }
}

static unsigned find_op(const struct gen *g, unsigned from, unsigned code) {
  for (unsigned i = from; i < g->n_ops; i++)
    if (g->ops[i].code == code) return i;
  return g->n_ops;
}

void scen_tick(struct gen *g) {
  if (inj_truncate_now(g)) {
    g->pc = find_op(g, g->pc, OP_END);
    g->op_started = false;
  }
  if (g->s[0].link_down && g->s[1].link_down && both_mode(g, PL_SILENT)) {
    unsigned end = find_op(g, g->pc, OP_END);
    if (g->pc < end && g->ops[g->pc].code != OP_END) { g->pc = end; g->op_started = false; }
  } else if (g->draining && g->pc < g->n_ops && g->ops[g->pc].code != OP_DRAIN &&
             g->ops[g->pc].code != OP_END) {
    unsigned d = find_op(g, g->pc, OP_DRAIN);
    const struct op *cur = &g->ops[g->pc];
    if (d < g->n_ops && cur->code != OP_SPEED && cur->code != OP_L1_EXIT && !cur->keep) {
      g->pc = d;
      g->op_started = false;
      g->op_wake = PS_NEVER;
      g->s[0].quiet = g->s[1].quiet = false;
    }
  }
  while (g->pc < g->n_ops && !g->finished && !g->stop_error) {
    struct op *o = &g->ops[g->pc];
    if (!g->op_started) {
      if (!op_start(g, o)) return;
      g->op_started = true;
      g->op_frame = g->frame;
    }
    if (!op_done(g, o)) {
      if (o->code != OP_RUN_LIMIT && !o->keep && g->frame - g->op_frame > OP_WATCHDOG)
        gen_fail(g, "model: scenario step %u (op %u) did not finish", g->pc, o->code);
      return;
    }
    g->pc++;
    g->op_started = false;
  }
  if (g->pc >= g->n_ops) g->finished = true;
}

uint64_t scen_wake(const struct gen *g) { return g->op_wake; }
