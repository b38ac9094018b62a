/* The sequencer runs a scenario's step list: each step starts something on
 * the link model (a training script, a negotiation, a speed change, L1
 * entry...) and waits until the model says it is over; the model itself
 * keeps both partners conformant while the steps run. A record limit or a
 * link gone down skips to the end of the list. */
#include "sequencer.h"
#include "dl.h"
#include "inject.h"
#include "phy.h"
#include "replay.h"
#include "steps.h"

#include <math.h>

#define B_OFFSET_PS  (37 * PS_PER_NS)   /* the partner follows a training step a little later */
#define OP_WATCHDOG  300000      /* records one step may take before the model is declared stuck */

/* the rule to label on the next control request of s */
static void label_next_ctrl(struct side *s, int rule) { s->ctrl_label = (int16_t)rule; }

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
      phy_train(g, &g->s[i], !inj_asked(g, UAL_R_LT_NO_ALT_PROTOCOL), inj_asked(g, UAL_R_LT_NO_FLIT_MODE));
      phy_script_start(g, &g->s[i], i ? B_OFFSET_PS : 0);
    }
    return true;
  case OP_RUN: {
    uint64_t n = o->keep ? o->n : (uint64_t)(o->n * g->o.run_scale + 0.5);
    g->sq->wake = g->now + (n ? n : 1) * ref_flit_ps(g);
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
      label_next_ctrl(side_of(g, o), UAL_R_DM_CTRL_OUTSTANDING);
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
    g->sq->state = 0;
    return true;
  case OP_L0P: {
    struct side *s = side_of(g, o);
    struct pl_extra x = { .kind = X_LM, .label = -1 };
    x.dllp.type = UAL_DLLP_LINK_MGMT;
    x.dllp.lm_cmd = UAL_LM_REQUEST;
    x.dllp.lm_width = (uint8_t)side_width_code(o->a);
    inj_lm(g, s, &x);
    s->lm_sent = s->lm_acked = false;
    rp_extra_push(s, &x);
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
    g->sq->state = 0;
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
    dl_rate_change(a, (uint16_t)o->n, false);
    return true;
  case OP_L1_ENTER:
    if (!ctrl_quiet(g)) return false;
    if (o->n) label_next_ctrl(a, UAL_R_LT_L1_ORDER);
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
    if (g->now < g->sq->wake) return false;
    g->sq->wake = PS_NEVER;
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
    switch (g->sq->state) {
    case 0:                                /* no new TL flits or messages, finish what is packed */
      a->wind_down = b->wind_down = true;
      if (!dl_idle(a) || !dl_idle(b)) return false;
      a->dl_pause = b->dl_pause = true;   /* NOP flits until everything is acknowledged */
      g->sq->state = 1;
      return false;
    case 1:
      if (!rp_settled(g, a) || !rp_settled(g, b)) return false;
      for (unsigned i = 0; i < 2; i++) {
        int lr = inj_asked(g, UAL_R_LT_SPEED_BEFORE_DL) && o->a == 2 ? UAL_R_LT_SPEED_BEFORE_DL : -1;
        int le = inj_asked(g, UAL_R_LT_EQ_CH0_ONLINE) && o->a == g->final_rate && o->b ? UAL_R_LT_EQ_CH0_ONLINE : -1;
        phy_speed_change(g, &g->s[i], o->a, o->b, lr, le);
        phy_script_start(g, &g->s[i], i ? side_flit_ps(&g->s[i]) / 2 : 0);
      }
      g->sq->state = 2;
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
    if (!q) { g->sq->state = 0; return false; }
    if (g->sq->state == 0) { g->sq->state = 1; g->sq->wake = g->now + 64 * ref_flit_ps(g); return false; }
    if (g->now < g->sq->wake) return false;
    g->sq->wake = PS_NEVER;
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
    switch (g->sq->state) {
    case 0:
      g->sq->wake = g->now + (uint64_t)o->n * PS_PER_NS;
      g->sq->state = 1;
      return false;
    case 1:
      if (g->now < g->sq->wake) return false;
      g->sq->wake = PS_NEVER;
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
        phy_l1_exit(g, s);
        phy_script_start(g, s, i == (o->side & 1) ? 0 : 2 * B_OFFSET_PS);
      }
      g->sq->state = 2;
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

void seq_tick(struct gen *g) {
  if (inj_truncate_now(g)) {
    g->sq->pc = step_find(g, g->sq->pc, OP_END);
    g->sq->started = false;
  }
  if (g->s[0].link_down && g->s[1].link_down && both_mode(g, PL_SILENT)) {
    unsigned end = step_find(g, g->sq->pc, OP_END);
    if (g->sq->pc < end && g->sq->ops[g->sq->pc].code != OP_END) { g->sq->pc = end; g->sq->started = false; }
  } else if (g->draining && g->sq->pc < g->sq->n && g->sq->ops[g->sq->pc].code != OP_DRAIN &&
             g->sq->ops[g->sq->pc].code != OP_END) {
    unsigned d = step_find(g, g->sq->pc, OP_DRAIN);
    const struct op *cur = &g->sq->ops[g->sq->pc];
    if (d < g->sq->n && cur->code != OP_SPEED && cur->code != OP_L1_EXIT && !cur->keep) {
      g->sq->pc = d;
      g->sq->started = false;
      g->sq->wake = PS_NEVER;
      g->s[0].quiet = g->s[1].quiet = false;
    }
  }
  while (g->sq->pc < g->sq->n && !g->finished && !g->stop_error) {
    struct op *o = &g->sq->ops[g->sq->pc];
    if (!g->sq->started) {
      if (!op_start(g, o)) return;
      g->sq->started = true;
      g->sq->frame = g->frame;
    }
    if (!op_done(g, o)) {
      if (o->code != OP_RUN_LIMIT && !o->keep && g->frame - g->sq->frame > OP_WATCHDOG)
        gen_fail(g, "model: scenario step %u (op %u) did not finish", g->sq->pc, o->code);
      return;
    }
    g->sq->pc++;
    g->sq->started = false;
  }
  if (g->sq->pc >= g->sq->n) g->finished = true;
}

uint64_t seq_wake(const struct gen *g) { return g->sq->wake; }
