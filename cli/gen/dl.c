/* The DL messages of a link partner (digest §2.4, §3, §4): DL message
 * queues and arbitration in front of the packer (which the TL layer fills
 * with TL flits), the payload flit they make, basic requests and responses, TL rate notifications, control
 * negotiations with their response rules and resolution functions, and the
 * UART stream with credits, Vendor Defined Packets and stream reset. */
#include "dl.h"
#include "tl.h"

#include <stdio.h>
#include <string.h>

#define MSG_FEED_DW      4       /* keep the packer's message queue this short: answers stay prompt */
#define CREDIT_GAP_FLITS 4
#define CREDIT_STEP      16
#define CREDIT_IDLE_FLITS 64
#define RESET_NOOPS      40
#define PLL_PS           (200 * PS_PER_NS)
#define PENDING_DELAY_PS (300 * PS_PER_NS)
#define UART_DRAIN       0.5     /* DWords the firmware reads per flit time */
#define UART_DRAIN_STOP  4.0
#define UART_STREAM      0
#define CONFIRM_WAIT_PS  (10 * PS_PER_US)

/* ---- messages and queues ---- */

void dl_msg_init(struct msg_item *m, unsigned cls, const uint32_t *dw, unsigned n) {
  memset(m, 0, sizeof *m);
  memcpy(m->dw, dw, n * sizeof *dw);
  m->n = (uint8_t)n;
  m->cls = (uint8_t)cls;
  m->label = -1;
}

bool dl_queue_msg(struct side *s, const struct msg_item *m) {
  struct msg_queue *q = &s->q[m->cls];
  if (q->count >= MSGQ_MAX) return false;
  q->it[q->count++] = *m;
  return true;
}

static void queue_one(struct side *s, unsigned cls, uint32_t dw, unsigned hook, bool prio) {
  struct msg_item m;
  dl_msg_init(&m, cls, &dw, 1);
  m.hook = (uint8_t)hook;
  m.prio = prio;
  dl_queue_msg(s, &m);
}

static void queue_take(struct msg_queue *q, unsigned i, struct msg_item *out) {
  *out = q->it[i];
  memmove(q->it + i, q->it + i + 1, (q->count - i - 1) * sizeof *q->it);
  q->count--;
}

/* Arbitration (§2.4.1.2): answers first, then round robin across basic,
 * control and UART; FIFO within a class. */
static bool pick_msg(struct gen *g, struct side *s, struct msg_item *out) {
  for (unsigned c = 0; c < MC_COUNT; c++) {
    struct msg_queue *q = &s->q[c];
    for (unsigned i = 0; i < q->count; i++)
      if (q->it[i].prio && q->it[i].not_before_ps <= g->now) { queue_take(q, i, out); return true; }
  }
  for (unsigned k = 0; k < MC_COUNT; k++) {
    unsigned c = (s->rr + k) % MC_COUNT;
    struct msg_queue *q = &s->q[c];
    if (q->count && q->it[0].not_before_ps <= g->now && !q->it[0].prio) {
      queue_take(q, 0, out);
      s->rr = (c + 1) % MC_COUNT;
      return true;
    }
  }
  return false;
}

static void dl_log_msg(struct gen *g, struct side *s, const struct msg_item *m) {
  if (g->out.msg_packed) g->out.msg_packed(g->out.ctx, s->id, m->dw, m->n);
  g->st.msgs[s->id]++;
}

/* Hands a message to the packer; false when it does not fit now. */
static bool push_to_packer(struct gen *g, struct side *s, const struct msg_item *m) {
  if (s->infl.count >= INFLIGHT_MAX) return false;
  if (!ual_pack_push_msg(&s->pack, m->dw, m->n)) return false;
  unsigned i = (s->infl.head + s->infl.count++) % INFLIGHT_MAX;
  s->infl.it[i] = *m;
  s->infl.left[i] = m->n;
  dl_log_msg(g, s, m);
  return true;
}

static void feed_msgs(struct gen *g, struct side *s) {
  if (s->quiet) return;
  while (ual_pack_msg_queued(&s->pack) < MSG_FEED_DW) {
    struct msg_item m;
    if (!pick_msg(g, s, &m)) return;
    /* a transport starts only into an empty queue, i.e. in this flit: a
     * request arriving meanwhile is then answered right after it */
    bool wait = m.n > 1 && ual_pack_msg_queued(&s->pack) != 0;
    if (wait || !push_to_packer(g, s, &m)) {     /* put it back at the front */
      struct msg_queue *q = &s->q[m.cls];
      memmove(q->it + 1, q->it, q->count * sizeof *q->it);
      q->it[0] = m;
      q->count++;
      return;
    }
  }
}

/* ---- building a payload flit ---- */

void dl_build_payload(struct gen *g, struct side *s, const struct ual_fh *fh, uint8_t *flit,
                      struct flit_meta *meta) {
  tl_feed(g, s);
  feed_msgs(g, s);
  unsigned before = ual_pack_msg_queued(&s->pack);
  s->pack_idle_before = !ual_pack_busy(&s->pack) && s->pack.uart_left == 0;
  if (g->hooks.pack) g->hooks.pack(g, s);
  ual_pack_flit(&s->pack, fh, true, flit);
  unsigned placed = before - ual_pack_msg_queued(&s->pack);
  meta->n = 0;
  s->n_done = 0;
  while (placed && s->infl.count) {
    unsigned i = s->infl.head;
    unsigned take = placed < s->infl.left[i] ? placed : s->infl.left[i];
    s->infl.left[i] -= take;
    placed -= take;
    if (s->infl.left[i]) break;
    struct msg_item *m = &s->infl.it[i];
    if (meta->n < META_MSGS) {
      meta->m[meta->n].dw = m->dw[0];
      meta->m[meta->n].n_payload = (uint8_t)(m->n - 1);
      meta->n++;
    }
    if (s->n_done < sizeof s->done_it / sizeof s->done_it[0]) s->done_it[s->n_done++] = *m;
    s->infl.head = (s->infl.head + 1) % INFLIGHT_MAX;
    s->infl.count--;
  }
  if (g->hooks.dl_flit) g->hooks.dl_flit(g, s, flit);
}

bool dl_idle(const struct side *s) {
  for (unsigned c = 0; c < MC_COUNT; c++)
    if (s->q[c].count) return false;
  return s->infl.count == 0 && ual_pack_msg_queued(&s->pack) == 0 &&
         ual_pack_tl_queued(&s->pack) == 0 && !ual_pack_busy(&s->pack) && !s->uart.transport_busy;
}

bool dl_busy_requests(const struct side *s) {
  for (unsigned t = 0; t < UAL_MT_COUNT; t++)
    if (s->basic_out[t]) return true;
  return s->ctrl.req != CR_NONE || s->ctrl.rsp != RS_NONE || s->ctrl.owe ||
         s->rate_fsm != RC_IDLE || s->uart.reset != UR_NONE;
}

/* The analyzer judges deadlines on ns timestamps: one of ns after the
 * record at t_ps has passed for records later than the ps returned. */
static uint64_t ns_deadline_ps(uint64_t t_ps, uint64_t ns) {
  return (t_ps / PS_PER_NS + ns + 1) * PS_PER_NS - 1;
}

/* ---- message encoders (all through ual_dlmsg_encode) ---- */

static uint32_t msg_encode(struct ual_dlmsg *m) { return ual_dlmsg_encode(m); }

uint32_t dl_ctrl_dw(unsigned mtype, unsigned prio, unsigned target, unsigned cmd,
                    unsigned response) {
  struct ual_dlmsg m = { .type = (uint8_t)mtype, .priority = (uint8_t)prio,
                         .target = (uint8_t)target, .command = (uint8_t)cmd,
                         .response = (uint8_t)response };
  return msg_encode(&m);
}

static uint32_t credit_dw(uint16_t fcseq) {
  struct ual_dlmsg m = { .type = UAL_MT_UART_CREDIT, .stream = UART_STREAM, .data_fc_seq = fcseq };
  return msg_encode(&m);
}

static uint32_t rate_dw(unsigned ack, unsigned rate) {
  struct ual_dlmsg m = { .type = UAL_MT_TL_RATE, .ack = (uint8_t)ack, .rate = (uint16_t)rate };
  return msg_encode(&m);
}

static uint32_t devid_dw(const struct side *s, unsigned ack) {
  struct ual_dlmsg m = { .type = UAL_MT_DEVICE_ID, .ack = (uint8_t)ack, .id = s->dev_id,
                         .dev_type = s->role == UAL_ROLE_ACCEL ? 1 : 0, .valid = 1 };
  return msg_encode(&m);
}

static uint32_t port_dw(const struct side *s, unsigned ack) {
  struct ual_dlmsg m = { .type = UAL_MT_PORT_NUMBER, .ack = (uint8_t)ack,
                         .port = s->port_known ? s->port : 0, .valid = s->port_known };
  return msg_encode(&m);
}

/* ---- basic requests ---- */

void dl_basic_request(struct gen *g, struct side *s, unsigned mtype) {
  (void)g;
  uint32_t dw = mtype == UAL_MT_DEVICE_ID ? devid_dw(s, 0) : port_dw(s, 0);
  queue_one(s, MC_BASIC, dw, H_NONE, false);
  s->basic_out[mtype] = true;
}

static void basic_respond(struct gen *g, struct side *s, uint32_t dw) {
  struct msg_item m;
  dl_msg_init(&m, MC_BASIC, &dw, 1);
  m.prio = 1;
  if (s->response_delay_ps) {
    /* late once 1.0 us and a flit time have passed since the request's flit
     * ended, judged on the responder's records in whole ns as the analyzer
     * sees them */
    uint64_t ft = side_flit_ps(peer_of(g, s)), ft_ns = (ft + PS_PER_NS - 1) / PS_PER_NS;
    m.not_before_ps = g->now + s->response_delay_ps;
    m.hook = H_LATE;
    s->late_pending = true;             /* no UART transports meanwhile: they would extend the allowance */
    gen_label_at(g, ns_deadline_ps(s->rx_t_end - ft, UAL_RESPONSE_NS + 2 * ft_ns), s->id, UAL_R_DM_RESPONSE_LATE,
                 true);
    s->response_delay_ps = 0;
  }
  dl_queue_msg(s, &m);
}

/* ---- TL rate notifications: every change passes through the reference rate ---- */

/* the notification of the new rate (where rate injections are labelled) */
static void queue_rate(struct side *s, unsigned rate) {
  struct msg_item m;
  uint32_t dw = rate_dw(0, rate);
  dl_msg_init(&m, MC_BASIC, &dw, 1);
  m.label = s->rate_label;
  s->rate_label = -1;
  dl_queue_msg(s, &m);
}

void dl_rate_change(struct side *s, uint16_t target, bool direct) {
  s->rate_target = target;
  if (direct) {
    s->own_rate = target < UAL_RATE_FULL ? target : UAL_RATE_FULL;
    queue_rate(s, target);
    s->rate_fsm = RC_DIRECT_WAIT;
    return;
  }
  s->own_rate = UAL_RATE_REF;                  /* pace to the reference clock first */
  queue_one(s, MC_BASIC, rate_dw(0, UAL_RATE_REF), H_NONE, false);
  s->rate_fsm = RC_WAIT_REF_ACK;
}

static void rate_acked(struct gen *g, struct side *s) {
  switch (s->rate_fsm) {
  case RC_WAIT_REF_ACK:                        /* switch to the reference clock, reprogram the PLL */
    s->rate_fsm = RC_PLL;
    s->rate_wait_until = g->now + PLL_PS;
    break;
  case RC_WAIT_NEW_ACK:
  case RC_DIRECT_WAIT:
    s->rate_fsm = RC_IDLE;
    s->rate_changes++;
    break;
  }
}

static void rate_tick(struct gen *g, struct side *s) {
  if (s->rate_fsm != RC_PLL || g->now < s->rate_wait_until) return;
  uint16_t t = s->rate_target;
  s->own_rate = t < UAL_RATE_FULL ? t : UAL_RATE_FULL;
  if (s->own_rate < UAL_RATE_REF) s->own_rate = UAL_RATE_REF;
  queue_rate(s, t);
  s->rate_fsm = RC_WAIT_NEW_ACK;
}

/* ---- control negotiations ---- */

static unsigned ctrl_current(const struct side *s, unsigned mt, unsigned target) {
  switch (mt) {
  case UAL_MT_LINK_WIDTH: return s->width_code;
  case UAL_MT_LINK_SPEED: return s->speed_code;
  case UAL_MT_LINK_STATE: return s->link_state;
  default: {
    unsigned ch = target & 7;
    return ch | (s->ch_online[ch] ? UAL_CHAN_ONLINE : 0);
  }
  }
}

/* The response rules (§2.4.3) for a request without a conflict. */
static unsigned ctrl_rules(const struct side *s, unsigned mt, unsigned target, unsigned prio) {
  unsigned cur = ctrl_current(s, mt, target);
  if (target == cur) return UAL_CMD_ACK;       /* Acked; the requester is in violation */
  switch (mt) {
  case UAL_MT_LINK_WIDTH:
  case UAL_MT_LINK_SPEED: {
    unsigned max = mt == UAL_MT_LINK_WIDTH ? s->max_width_code : s->max_speed_code;
    bool lock = mt == UAL_MT_LINK_WIDTH ? s->lockout_width : s->lockout_speed;
    if (prio) return target > cur ? UAL_CMD_NACK : UAL_CMD_ACK;
    if (target < max) return UAL_CMD_ACK;
    if (target > max) return UAL_CMD_NACK;
    return lock && target > cur ? UAL_CMD_NACK : UAL_CMD_ACK;
  }
  case UAL_MT_LINK_STATE: return target == 0 && prio ? UAL_CMD_NACK : UAL_CMD_ACK;
  default: return UAL_CMD_ACK;
  }
}

/* Resolution functions (§2.4.3): does the received request win over mine? */
/* Conflicting requests of another target: libdecode's resolution function
 * for width and speed; the others have none, and side A wins. */
static bool ctrl_theirs_wins(const struct side *s, unsigned mt, unsigned mine, unsigned mp,
                             unsigned theirs, unsigned tp) {
  if (mt == UAL_MT_LINK_WIDTH || mt == UAL_MT_LINK_SPEED) return ual_ctrl_wins(theirs, tp, mine, mp);
  return s->id == 1;
}

void dl_ctrl_request(struct gen *g, struct side *s, unsigned mtype, unsigned target,
                     unsigned prio) {
  (void)g;
  struct ctrl_state *c = &s->ctrl;
  struct msg_item m;
  uint32_t dw = dl_ctrl_dw(mtype, prio, target, UAL_CMD_REQUEST, 0);
  dl_msg_init(&m, MC_CONTROL, &dw, 1);
  m.label = s->ctrl_label;
  m.label_src = s->ctrl_label_src;
  s->ctrl_label = -1;
  s->ctrl_label_src = 0;
  dl_queue_msg(s, &m);
  c->req = CR_SENT;
  c->req_mtype = (uint8_t)mtype;
  c->req_target = (uint8_t)target;
  c->req_prio = (uint8_t)prio;
}

void dl_apply_channel(struct gen *g, struct side *s, unsigned ch, bool online) {
  (void)g;
  s->ch_online[ch] = online;
  if (ch != UAL_CHAN_UART) return;
  struct uart_state *u = &s->uart;
  u->enabled = online;
  u->credit_valid = false;
  u->tx_cnt = 0;
  u->rx_cnt = UART_RXBUF;
  u->rx_fill = 0;
  u->credit_first_due = online;
  u->stopped = u->quiesced = false;
  if (!online) {
    u->tx_fill = 0;
    u->reset = UR_NONE;                        /* an unanswered stream reset ends with the channel */
  }
}

static void ctrl_apply(struct gen *g, struct side *s, unsigned mt, unsigned target) {
  switch (mt) {
  case UAL_MT_LINK_WIDTH: s->width_code = (uint8_t)target; break;
  case UAL_MT_LINK_SPEED: s->speed_code = (uint8_t)target; break;
  case UAL_MT_LINK_STATE: s->link_state = (uint8_t)target; break;
  case UAL_MT_CHANNEL: dl_apply_channel(g, s, target & 7, (target & UAL_CHAN_ONLINE) != 0); break;
  }
  s->ctrl.done++;
}

static void ctrl_answer(struct gen *g, struct side *s, const struct ual_dlmsg *m, unsigned cmd, int label) {
  struct ctrl_state *c = &s->ctrl;
  unsigned mt = m->type, resp = m->target, target = 0, hook = H_NONE;
  switch (cmd) {
  case UAL_CMD_ACK:
    target = m->target;
    c->rsp = RS_ACKED;
    c->rsp_mtype = (uint8_t)mt;
    c->rsp_target = m->target;
    hook = mt == UAL_MT_LINK_STATE && m->target == 1 ? H_L1_STOP : H_CTRL_ACK;
    break;
  case UAL_CMD_NACK:
    target = c->req == CR_SENT && c->req_mtype == mt ? c->req_target : ctrl_current(s, mt, m->target);
    break;
  case UAL_CMD_PENDING:
    if (c->pending_lapse) {                    /* injected: the owed request never comes */
      c->pending_lapse = 0;
      hook = H_PENDING_LAPSE;
      break;
    }
    c->owe = 1;
    c->owe_mtype = (uint8_t)mt;
    c->owe_target = m->target;
    c->owe_ps = g->now + PENDING_DELAY_PS;
    break;
  }
  if (c->echo_wrong && cmd != UAL_CMD_PENDING) {
    resp ^= mt == UAL_MT_CHANNEL ? UAL_CHAN_ONLINE : 1u;   /* another valid value */
    c->echo_wrong = 0;
    label = UAL_R_DM_CTRL_ECHO;
  }
  {
    struct msg_item it;
    uint32_t dw = dl_ctrl_dw(mt, 0, target, cmd, resp);
    dl_msg_init(&it, MC_CONTROL, &dw, 1);
    it.hook = (uint8_t)hook;
    it.prio = 1;
    it.label = (int16_t)label;
    dl_queue_msg(s, &it);
  }
}

static void ctrl_rx(struct gen *g, struct side *s, const struct ual_dlmsg *m) {
  struct ctrl_state *c = &s->ctrl;
  unsigned mt = m->type;
  switch (m->command) {
  case UAL_CMD_REQUEST: {
    if (s->ignore_dup_request && c->rsp == RS_ACKED && c->rsp_mtype == mt) {
      s->ignore_dup_request = false;
      return;
    }
    unsigned cmd;
    int label = -1;
    if (c->req == CR_WAIT_PEER && c->req_mtype == mt) c->req = CR_NONE;  /* the request owed after Pending */
    if (c->req == CR_SENT && c->req_mtype == mt) {         /* both requested */
      if (c->req_target == m->target) cmd = UAL_CMD_ACK;   /* identical */
      else cmd = ctrl_theirs_wins(s, mt, c->req_target, c->req_prio, m->target, m->priority)
                     ? UAL_CMD_ACK : UAL_CMD_NACK;
      if (c->conflict_pending) {               /* never allowed with a request of one's own out */
        c->conflict_pending = 0;
        cmd = UAL_CMD_PENDING;
        label = UAL_R_DM_CTRL_PENDING_ILLEGAL;
      } else if (c->conflict_wrong && cmd == UAL_CMD_ACK) {
        c->conflict_wrong = 0;
        cmd = UAL_CMD_NACK;
        label = UAL_R_DM_CTRL_RESOLUTION;
      }
    } else if (c->force) {
      cmd = c->force;
      c->force = 0;
      label = c->force_label;
      c->force_label = -1;
    } else {
      cmd = ctrl_rules(s, mt, m->target, m->priority);
    }
    ctrl_answer(g, s, m, cmd, label);
    return;
  }
  case UAL_CMD_ACK:
    if (c->req == CR_SENT && c->req_mtype == mt) {         /* my request was granted */
      c->req = CR_NONE;
      if (c->skip_confirm) {
        c->skip_confirm = 0;
        /* the text gives no deadline; the project's analyzer waits 10 us after the grant */
        gen_label_at(g, s->rx_t_end - side_flit_ps(s) + CONFIRM_WAIT_PS, s->id, UAL_R_DM_CTRL_NO_CONFIRM, false);
        return;
      }
      unsigned hook = mt == UAL_MT_LINK_STATE && c->req_target == 1 ? H_L1_STOP : H_CTRL_CONFIRM;
      struct msg_item it;
      uint32_t dw = dl_ctrl_dw(mt, 0, c->req_target, UAL_CMD_ACK, c->req_target);
      dl_msg_init(&it, MC_CONTROL, &dw, 1);
      it.hook = (uint8_t)hook;
      it.prio = 1;
      dl_queue_msg(s, &it);
    } else if (c->rsp == RS_ACKED && c->rsp_mtype == mt) { /* the confirming Ack */
      c->rsp = RS_NONE;
      ctrl_apply(g, s, mt, c->rsp_target);
    }
    return;
  case UAL_CMD_NACK:
    if (c->req == CR_SENT && c->req_mtype == mt) { c->req = CR_NONE; c->failed++; }
    return;
  case UAL_CMD_PENDING:
    if (c->req == CR_SENT && c->req_mtype == mt) c->req = CR_WAIT_PEER;
    return;
  }
}

/* ---- UART ---- */

void dl_uart_fill(struct gen *g, struct side *s, unsigned dwords) {
  (void)g;
  struct uart_state *u = &s->uart;
  if (!u->enabled || dwords == 0 || dwords > 256 || u->tx_fill + dwords + 1 > UART_TXBUF) return;
  struct ual_vdp_hdr h = { (uint16_t)dwords, 0x01, 0xFFFF };
  uint32_t dw[257];
  dw[0] = ual_vdp_encode(&h);
  char text[256 * 4 + 1], tick[32];
  int len = snprintf(text, sizeof text, "fw%c: log #%u ", 'A' + s->id, u->vdp_count++);
  /* the time stamp repeats to the length: formatted once */
  int k = snprintf(tick, sizeof tick, "t=%llu ", (unsigned long long)(g->now / PS_PER_NS));
  while (k > 0 && (unsigned)len < dwords * 4) {
    size_t room = sizeof text - 1 - (size_t)len;
    memcpy(text + len, tick, (size_t)k < room ? (size_t)k : room);
    len += k;
  }
  for (unsigned i = 0; i < dwords; i++)
    dw[1 + i] = (uint32_t)(uint8_t)text[4 * i] | (uint32_t)(uint8_t)text[4 * i + 1] << 8 |
                (uint32_t)(uint8_t)text[4 * i + 2] << 16 | (uint32_t)(uint8_t)text[4 * i + 3] << 24;
  for (unsigned i = 0; i <= dwords; i++)
    u->txbuf[(u->tx_head + u->tx_fill++) % UART_TXBUF] = dw[i];
}

/* Transports stay short enough on slow links that an answer waiting behind
 * one is still on time: at most half of the 1 us response time in segments. */
static unsigned uart_max_payload(const struct side *s) {
  uint64_t seg_ps = side_flit_ps(s) / UAL_SEGMENTS;
  uint64_t n = seg_ps ? (PS_PER_US / 2) / seg_ps : UAL_UART_MAX_PAYLOAD;
  if (n < 2) n = 2;
  return n - 1 < UAL_UART_MAX_PAYLOAD ? (unsigned)(n - 1) : UAL_UART_MAX_PAYLOAD;
}

static void uart_queue_transport(struct gen *g, struct side *s, unsigned n, bool over) {
  struct uart_state *u = &s->uart;
  struct msg_item m;
  uint32_t dw[MSG_MAX_DW];
  struct ual_dlmsg h = { .type = UAL_MT_UART_TRANSPORT, .stream = UART_STREAM, .length = (uint8_t)(n - 1) };
  dw[0] = ual_dlmsg_encode(&h);
  for (unsigned i = 0; i < n; i++) {
    dw[1 + i] = u->txbuf[u->tx_head];
    u->tx_head = (u->tx_head + 1) % UART_TXBUF;
    u->tx_fill--;
  }
  dl_msg_init(&m, MC_UART, dw, n + 1);
  m.hook = H_UART_TRANSPORT;
  if (over) m.label = UAL_R_DM_UART_CREDIT;
  dl_queue_msg(s, &m);
  u->tx_cnt = (uint16_t)((u->tx_cnt + n) & 0xFFF);
  u->transport_busy = true;
  (void)g;
}

void dl_uart_reset(struct gen *g, struct side *s) {
  (void)g;
  struct uart_state *u = &s->uart;
  u->reset = UR_FLUSH;
  u->enabled = false;
  u->tx_fill = 0;
  u->rx_fill = 0;
  u->credit_valid = false;
}

/* 40 No-Ops and the Reset Request go into the packer in one piece: nothing
 * can come between them. */
static void uart_reset_batch(struct gen *g, struct side *s) {
  struct uart_state *u = &s->uart;
  if (ual_pack_msg_queued(&s->pack) + u->reset_noops + 1 > UAL_PACK_MSG_QUEUE) return;
  if (s->infl.count + u->reset_noops + 1 > INFLIGHT_MAX) return;
  struct ual_dlmsg noop = { .type = UAL_MT_NOOP };
  uint32_t dw = ual_dlmsg_encode(&noop);
  struct msg_item m;
  for (unsigned i = 0; i < u->reset_noops; i++) {
    dl_msg_init(&m, MC_BASIC, &dw, 1);
    push_to_packer(g, s, &m);
  }
  struct ual_dlmsg rq = { .type = UAL_MT_UART_RESET_REQ, .stream = UART_STREAM };
  dw = ual_dlmsg_encode(&rq);
  dl_msg_init(&m, MC_UART, &dw, 1);
  m.hook = H_RESET_BATCH;
  if (u->reset_noops != RESET_NOOPS) m.label = UAL_R_DM_UART_RESET_NOOPS;
  push_to_packer(g, s, &m);
  u->reset = UR_WAIT_RSP;
}

static void uart_reenable(struct side *s) {
  struct uart_state *u = &s->uart;
  u->enabled = s->ch_online[UAL_CHAN_UART];
  u->credit_valid = false;
  u->tx_cnt = 0;
  u->rx_cnt = UART_RXBUF;
  u->rx_fill = 0;
  u->credit_first_due = u->enabled;
  u->stopped = u->quiesced = false;
}

static void uart_tick(struct gen *g, struct side *s) {
  struct uart_state *u = &s->uart;
  if (u->reset == UR_FLUSH && !u->transport_busy && !s->quiet) uart_reset_batch(g, s);
  if (!u->enabled || !s->ch_online[UAL_CHAN_UART]) return;
  if (!g->draining && g->uart_load > 0) {
    u->fw_acc += g->uart_load;
    if (u->fw_acc >= 8) {
      unsigned n = 2 + gen_rng_below(&s->rng, 60);
      dl_uart_fill(g, s, n);
      u->fw_acc -= n + 1;
      if (u->fw_acc < 0) u->fw_acc = 0;
    }
  }
  u->drain_acc += u->stopped ? UART_DRAIN_STOP : UART_DRAIN;   /* winding down: the firmware empties its buffer */
  while (u->drain_acc >= 1.0 && u->rx_fill) {
    u->rx_fill--;
    u->rx_cnt = (uint16_t)((u->rx_cnt + 1) & 0xFFF);
    u->drain_acc -= 1.0;
  }
  if (u->drain_acc > UART_DRAIN_STOP) u->drain_acc = UART_DRAIN_STOP;
  /* at least 4 flits apart (§2.4.4); batched a little: 16 DWords, or 64 flits */
  unsigned grown = (unsigned)((u->rx_cnt - u->rx_cnt_sent) & 0xFFF);
  uint64_t since = s->flits_sent - u->flit_last_credit;
  /* wound down once neither side has UART data left for the other (the firmware's disconnect) */
  const struct uart_state *pu = &peer_of(g, s)->uart;
  if (u->stopped && !u->quiesced && !u->credit_queued && !u->transport_busy && !u->tx_fill && !u->rx_fill &&
      !grown && !pu->tx_fill && !pu->transport_busy)
    u->quiesced = true;
  if (u->stopped && grown && since >= CREDIT_GAP_FLITS) grown = CREDIT_STEP;   /* return the last credits */
  /* credits keep flowing while the run winds down; new data does not (but a UART wind-down finishes) */
  bool draining = g->draining && !u->stopped;
  if (!u->credit_queued && !u->quiesced && !s->wind_down &&
      (u->credit_first_due || (grown >= CREDIT_STEP && since >= CREDIT_GAP_FLITS) ||
       (grown && since >= CREDIT_IDLE_FLITS))) {
    queue_one(s, MC_UART, credit_dw(u->rx_cnt), H_CREDIT, false);
    u->credit_queued = true;
    u->credit_first_due = false;
    u->rx_cnt_sent = u->rx_cnt;
    u->flit_last_credit = s->flits_sent;
  }
  if (!u->transport_busy && u->credit_valid && u->tx_fill && !s->quiet && !s->wind_down && !draining &&
      !s->late_pending) {
    unsigned avail = (unsigned)((u->credit - u->tx_cnt) & 0xFFF);
    unsigned n = avail < u->tx_fill ? avail : u->tx_fill;
    if (n > uart_max_payload(s)) n = uart_max_payload(s);
    bool over = false;
    /* beyond the credit on the wire, not only the one received: no Credit Update in flight */
    const struct uart_state *pu = &peer_of(g, s)->uart;
    bool current = pu->rx_cnt_sent == u->credit && !pu->credit_queued;
    if (u->over_credit > 0 && current && avail < u->tx_fill && avail < uart_max_payload(s)) {
      n = avail + 1;                           /* injected: one DWord beyond the credit */
      over = true;
      u->over_credit = 0;
    }
    if (n) uart_queue_transport(g, s, n, over);
  }
}

static void uart_rx(struct gen *g, struct side *s, const struct ual_dlmsg *m, unsigned np) {
  struct uart_state *u = &s->uart;
  if (!s->ch_online[UAL_CHAN_UART]) return;     /* dropped silently */
  switch (m->type) {
  case UAL_MT_UART_TRANSPORT:
    if (u->enabled && m->stream == UART_STREAM) u->rx_fill += np;
    break;
  case UAL_MT_UART_CREDIT:
    if (u->enabled && m->stream == UART_STREAM) { u->credit = m->data_fc_seq; u->credit_valid = true; }
    break;
  case UAL_MT_UART_RESET_REQ: {               /* responder: disable, flush, zero, answer */
    u->enabled = false;
    u->tx_fill = 0;
    u->rx_fill = 0;
    u->credit_valid = false;
    if (u->reset_silent) {                    /* injected: no Reset Response */
      u->reset_silent = false;
      uint64_t t_req = s->rx_t_end - side_flit_ps(peer_of(g, s));
      gen_label_at(g, ns_deadline_ps(t_req, UAL_UART_RESET_NS), s->id, UAL_R_DM_UART_RESET_TIMEOUT, false);
      break;
    }
    struct ual_dlmsg r = { .type = UAL_MT_UART_RESET_RSP, .stream = m->stream, .status = 0 };
    queue_one(s, MC_UART, ual_dlmsg_encode(&r), H_RESET_RSP, true);
    break;
  }
  case UAL_MT_UART_RESET_RSP:
    if (u->reset == UR_WAIT_RSP && m->status == 0) { u->reset = UR_NONE; uart_reenable(s); }
    break;
  }
  (void)g;
}

/* ---- receiving ---- */

static void rx_msg(struct gen *g, struct side *s, uint32_t dw, unsigned np) {
  struct ual_dlmsg m;
  ual_dlmsg_decode(dw, &m);
  if (m.compressed) return;                    /* not supported: dropped */
  switch (m.type) {
  case UAL_MT_TL_RATE:
    if (!m.ack) {
      s->peer_rate = m.rate < UAL_RATE_REF ? UAL_RATE_REF : m.rate > UAL_RATE_FULL ? UAL_RATE_FULL : m.rate;
      basic_respond(g, s, rate_dw(1, 0));
    } else {
      rate_acked(g, s);
    }
    break;
  case UAL_MT_DEVICE_ID:
    if (!m.ack) {
      if (s->dup_basic == 1) { s->dup_basic = 0; break; }   /* injected: the second is not answered */
      if (s->dup_basic == 2) s->dup_basic = 1;
      basic_respond(g, s, devid_dw(s, 1));
    } else if (s->basic_out[UAL_MT_DEVICE_ID]) {
      s->basic_out[UAL_MT_DEVICE_ID] = false;
      s->basic_done++;
    }
    break;
  case UAL_MT_PORT_NUMBER:
    if (!m.ack) {
      basic_respond(g, s, port_dw(s, 1));
    } else if (s->basic_out[UAL_MT_PORT_NUMBER]) {
      s->basic_out[UAL_MT_PORT_NUMBER] = false;
      if (m.valid) { s->port = m.port; }
      s->basic_done++;
    }
    break;
  case UAL_MT_LINK_WIDTH:
  case UAL_MT_LINK_SPEED:
  case UAL_MT_LINK_STATE:
  case UAL_MT_CHANNEL:
    ctrl_rx(g, s, &m);
    break;
  case UAL_MT_UART_TRANSPORT:
  case UAL_MT_UART_CREDIT:
  case UAL_MT_UART_RESET_REQ:
  case UAL_MT_UART_RESET_RSP:
    uart_rx(g, s, &m, np);
    break;
  default:
    break;
  }
}

void dl_deliver(struct gen *g, struct side *rx, const struct flit_meta *meta) {
  for (unsigned i = 0; i < meta->n; i++) rx_msg(g, rx, meta->m[i].dw, meta->m[i].n_payload);
}

/* ---- after a payload flit went out ---- */

void dl_after_sent(struct gen *g, struct side *s, uint64_t frame) {
  for (unsigned i = 0; i < s->n_done; i++) {
    struct msg_item *m = &s->done_it[i];
    if (m->label >= 0)
      gen_truth(g, frame, s->id, m->label, m->label_src ? TRUTH_SRC_CONSEQ : TRUTH_SRC_INJECT,
                "DL message");
    /* a No-Op's context is known at the sender's next DL message only */
    if (s->noop_label == 2) {
      s->noop_label = 0;
      gen_truth(g, frame, s->id, UAL_R_DM_NOOP_CONTEXT, TRUTH_SRC_INJECT, "DL message after a lone No-Op");
    }
    if (m->hook == H_NONE) continue;
    struct ual_dlmsg d;
    if (m->hook == H_CTRL_CONFIRM || m->hook == H_L1_STOP) ual_dlmsg_decode(m->dw[0], &d);
    switch (m->hook) {
    case H_UART_TRANSPORT: s->uart.transport_busy = false; break;
    case H_CREDIT: s->uart.credit_queued = false; break;
    case H_CTRL_CONFIRM: ctrl_apply(g, s, d.type, d.target); break;
    case H_L1_STOP:
      /* the switch stops DL flits right after its Ack, the accelerator after its confirming Ack */
      if (d.command == UAL_CMD_ACK && s->ctrl.rsp == RS_NONE) ctrl_apply(g, s, d.type, d.target);
      s->link_state = 1;
      s->dl_active = false;
      s->pm = PM_STOPPED;
      if (g->hooks.l1_stopped) g->hooks.l1_stopped(g, s);
      break;
    case H_RESET_RSP: uart_reenable(s); break;
    case H_LATE: s->late_pending = false; break;
    case H_LONE_NOOP: s->noop_label = 2; break;
    case H_PENDING_LAPSE:                     /* checked on this side's records */
      gen_label_at(g, ns_deadline_ps(s->t_next - side_flit_ps(s), UAL_PENDING_NS), s->id,
                   UAL_R_DM_CTRL_PENDING_TIMEOUT, true);
      break;
    default: break;
    }
  }
  s->n_done = 0;
}

void dl_tick(struct gen *g, struct side *s) {
  uart_tick(g, s);
  rate_tick(g, s);
  struct ctrl_state *c = &s->ctrl;
  if (c->owe && g->now >= c->owe_ps && c->req == CR_NONE && c->rsp == RS_NONE) {
    c->owe = 0;
    dl_ctrl_request(g, s, c->owe_mtype, c->owe_target, 0);
  }
}

void dl_init(struct side *s) {
  ual_pack_init(&s->pack);
  s->own_rate = UAL_RATE_FULL;
  s->peer_rate = UAL_RATE_FULL;
  s->uart.reset_noops = RESET_NOOPS;
  s->uart.rx_cnt = UART_RXBUF;
  s->max_width_code = 3;
  s->max_speed_code = 3;
  s->ctrl_label = s->rate_label = s->tl_inject_label = s->label_fresh = -1;
  s->ctrl.force_label = -1;
}
