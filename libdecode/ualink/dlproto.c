/* DL message protocols (digest §3.1, §3.2, §4, §6): basic request/response
 * pairing, TL rates, control negotiations with their response rules and
 * resolution functions, channel 0/4 state and the negotiated width, speed
 * and link state of each partner.
 *
 * Control negotiation of requester R with responder S (Figures 2-11..2-15):
 *
 *   R: Request ---> S: Ack ---> R: confirming Ack   complete (R on sending,
 *              \--> S: Nack                         S on receiving it)
 *               \-> S: Decision Pending --> S must request within 10 ms
 *
 * An Ack from a partner answers the other side's open request or confirms
 * the partner's own granted request; when both are open it is for the one
 * the partner received first (responses go in the order received). */
#include "ualink/ualink/dlproto.h"

#include <stdio.h>
#include <string.h>

static char side_name(unsigned dir) { return dir ? 'B' : 'A'; }

static int basic_index(unsigned type) {
  switch (type) {
  case UAL_MT_TL_RATE: return 0;
  case UAL_MT_DEVICE_ID: return 1;
  case UAL_MT_PORT_NUMBER: return 2;
  }
  return -1;
}

static int ctrl_index(unsigned type) {
  switch (type) {
  case UAL_MT_LINK_WIDTH: return 0;
  case UAL_MT_LINK_SPEED: return 1;
  case UAL_MT_LINK_STATE: return 2;
  case UAL_MT_CHANNEL: return 3;
  }
  return -1;
}

static const char *label(unsigned type) { return ual_msg_types[type < UAL_MT_COUNT ? type : UAL_MT_RESERVED].label; }

/* A TargetState value as text: "x8", "32.0", "L1", "ch0 online". */
static const char *target_text(unsigned type, unsigned v, char *buf, size_t cap) {
  switch (type) {
  case UAL_MT_LINK_WIDTH: return ual_width_code_name((int)v);
  case UAL_MT_LINK_SPEED: return ual_speed_code_name((int)v);
  case UAL_MT_LINK_STATE: return v == 0 ? "L0" : v == 1 ? "L1" : "?";
  default:
    snprintf(buf, cap, "ch%u %s", v & 7, v & UAL_CHAN_ONLINE ? "online" : "offline");
    return buf;
  }
}

static uint64_t ns_of(uint32_t ps) { return (ps + 999u) / 1000u; }

/* Answer due: 1.0 us plus one flit time after the end of the request's flit. */
static uint64_t response_due(const struct ual_when *w) {
  if (!w->ts_ns || !w->ft_ps) return 0;
  return w->ts_ns + 2 * ns_of(w->ft_ps) + UAL_RESPONSE_NS;
}

/* Time not counted against a response deadline: what the responder spent
 * finishing the UART transport it had open when the request came (other DL
 * messages are blocked meanwhile). Measured once the transport ended, and
 * unbounded while it is still running; without timestamps one DWord per
 * segment, a quarter flit each. */
#define UAL_IN_TRANSPORT (UINT64_MAX / 4)
static uint64_t uart_allowance(uint32_t segs, uint64_t end_ns, uint64_t req_ns, uint32_t ft_ps) {
  if (!segs) return 0;
  if (!req_ns) return ns_of((uint32_t)((uint64_t)segs * ft_ps / UAL_SEGMENTS));
  if (!end_ns) return UAL_IN_TRANSPORT;
  return end_ns > req_ns ? end_ns - req_ns : 0;
}

void ual_dlproto_uart(struct ual_dlproto *dp, unsigned dir, unsigned need, const struct ual_when *w) {
  struct ual_dlproto_side *me = &dp->s[dir & 1], *peer = &dp->s[(dir & 1) ^ 1];
  bool began = !me->uart_open && need, ended = me->uart_open && !need;
  me->uart_open = (uint8_t)need;
  if (began && w->ts_ns) {
    /* begun before a request could have arrived (within one flit time
     * after it): it blocks the answer as one already open would */
    uint64_t by = ns_of(w->ft_ps);
    for (int i = 0; i < UAL_NBASIC; i++) {
      struct ual_basic_req *b = &peer->basic[i];
      if (b->active && !b->uart_segs && b->ts_ns && w->ts_ns <= b->ts_ns + by) b->uart_segs = need;
    }
    struct ual_ctrl_req *r = &peer->req;
    if (r->state == UAL_CS_SENT && !r->answered && !r->uart_segs && r->ts_ns && w->ts_ns <= r->ts_ns + by)
      r->uart_segs = need;
  }
  if (!ended) return;
  /* stamp what me owes and was waiting behind this transport */
  uint64_t end_ns = w->ts_ns ? w->ts_ns + ns_of(w->ft_ps) : 1;
  for (int i = 0; i < UAL_NBASIC; i++)
    if (peer->basic[i].active && peer->basic[i].uart_segs && !peer->basic[i].uart_end_ns)
      peer->basic[i].uart_end_ns = end_ns;
  if (peer->req.state == UAL_CS_SENT && peer->req.uart_segs && !peer->req.uart_end_ns) peer->req.uart_end_ns = end_ns;
}

enum ual_role ual_dlproto_role(const struct ual_dlproto *dp, unsigned dir) {
  const struct ual_dlproto_side *s = &dp->s[dir & 1];
  return (enum ual_role)(s->role_hdr ? s->role_hdr : s->role_learned);
}

static void side_reset(struct ual_dlproto_side *s, int width) {
  uint8_t rh = s->role_hdr, rl = s->role_learned, dv = s->dev_valid, pv = s->port_valid;
  uint16_t id = s->dev_id, port = s->port;
  uint64_t negs[UAL_NEG_COUNT];
  struct ual_neg_last last = s->last;
  memcpy(negs, s->negs, sizeof negs);
  memset(s, 0, sizeof *s);
  s->last = last;
  s->role_hdr = rh; s->role_learned = rl; s->dev_valid = dv; s->port_valid = pv;
  s->dev_id = id; s->port = port;
  memcpy(s->negs, negs, sizeof negs);
  s->width = (int8_t)width;
  s->speed = 0;                       /* links train at 2.5 GT/s (§3.5) */
  s->lstate = 0;
  s->ch0 = s->ch4 = 0;                /* all channels offline after reset */
}

void ual_dlproto_init(struct ual_dlproto *dp) {
  memset(dp, 0, sizeof *dp);
  for (int i = 0; i < 2; i++) {
    struct ual_dlproto_side *s = &dp->s[i];
    s->width = s->speed = s->lstate = UAL_UNKNOWN;
    s->ch0 = s->ch4 = UAL_UNKNOWN;
    s->lockout = 3;                   /* unknown history: a lockout may be set */
  }
  dp->max_width = dp->speed_allowed = dp->width_ready = dp->max_speed = UAL_UNKNOWN;
}

void ual_dlproto_rate(struct ual_dlproto *dp, unsigned rate) {
  int sp = ual_speed_of_rate(rate);
  if (sp > dp->max_speed) dp->max_speed = (int8_t)sp;
}

void ual_dlproto_width(struct ual_dlproto *dp, unsigned lanes) {
  int w = ual_width_of_lanes(lanes);
  if (w > dp->max_width) dp->max_width = (int8_t)w;
}

void ual_dlproto_reset(struct ual_dlproto *dp, unsigned dir) {
  struct ual_dlproto_side *peer = &dp->s[(dir & 1) ^ 1];
  side_reset(&dp->s[dir & 1], UAL_UNKNOWN);
  memset(peer->basic, 0, sizeof peer->basic);   /* nobody will answer them */
  peer->req.state = UAL_CS_NONE;
  peer->dp_owed = peer->dp_wait = 0;
  memset(peer->lost, 0, sizeof peer->lost);
  dp->max_width = UAL_UNKNOWN;                  /* known again when the link comes up */
  dp->speed_allowed = 0;
  dp->width_ready = 0;
  dp->history = 1;
}

void ual_dlproto_forget(struct ual_dlproto *dp, unsigned dir) {
  struct ual_dlproto_side *me = &dp->s[dir & 1], *peer = &dp->s[(dir & 1) ^ 1];
  memset(me->basic, 0, sizeof me->basic);
  memset(peer->basic, 0, sizeof peer->basic);
  me->req.state = UAL_CS_NONE;
  peer->req.state = UAL_CS_NONE;
  me->dp_owed = peer->dp_owed = 0;
  me->dp_wait = peer->dp_wait = 0;
  /* the lost records may have held a negotiation or an L1 exit: what was
   * negotiated is unknown again, as at the start of a capture */
  me->width = me->speed = me->lstate = UAL_UNKNOWN;
  me->ch0 = me->ch4 = UAL_UNKNOWN;
  me->lockout = 3;
  me->l1_stopped = me->after_l1 = 0;
  memset(me->lost, 0, sizeof me->lost);
  dp->max_width = dp->speed_allowed = dp->width_ready = UAL_UNKNOWN;
}

void ual_dlproto_l1_exit(struct ual_dlproto *dp) {
  for (int i = 0; i < 2; i++) {
    struct ual_dlproto_side *s = &dp->s[i];
    s->l1_stopped = s->l1_flagged = 0;
    s->after_l1 = 1;
    s->exit_flagged = 0;
    s->lstate = 0;
  }
}

/* ---- events ---- */

static void neg_event(struct ual_dlproto_side *s, unsigned dir, const struct ual_when *w, struct ual_events *ev,
                      unsigned type, unsigned outcome, unsigned target, uint64_t since_ns, uint64_t req_frame,
                      const char *text) {
  s->negs[outcome]++;
  s->last.valid = 1;
  s->last.mtype = (uint8_t)type;
  s->last.outcome = (uint8_t)outcome;
  s->last.target = (uint8_t)target;
  s->last.frame = w->frame;
  s->last.ts_ns = w->ts_ns;
  s->last.latency_ns = since_ns && w->ts_ns >= since_ns ? w->ts_ns - since_ns : 0;
  char buf[16];
  struct ual_tevent *e = ual_events_add(ev, w, UAL_TEV_NEGOTIATION, dir, (int32_t)target, UAL_UNKNOWN,
                                        "%c %s %s %s", side_name(dir), label(type), text,
                                        target_text(type, target, buf, sizeof buf));
  if (!e) return;
  e->mtype = (uint8_t)type;
  e->outcome = (uint8_t)outcome;
  e->latency_ns = s->last.latency_ns;
  e->req_frame = req_frame;
}

/* ---- basic messages ---- */

static void learn_identity(struct ual_dlproto_side *me, unsigned dir, const struct ual_dlmsg *m,
                           const struct ual_when *w, struct ual_events *ev) {
  if (m->type == UAL_MT_DEVICE_ID && m->valid) {
    unsigned role = m->dev_type == 0 ? UAL_ROLE_SWITCH : m->dev_type == 1 ? UAL_ROLE_ACCEL : UAL_ROLE_UNKNOWN;
    if (role != me->role_learned || !me->dev_valid || me->dev_id != m->id)
      ual_events_add(ev, w, UAL_TEV_DEVICE, dir, (int32_t)role, me->role_learned, "%c is %s, Device ID %u",
                     side_name(dir), role == UAL_ROLE_SWITCH ? "a switch" : role == UAL_ROLE_ACCEL ? "an accelerator" : "of reserved type",
                     m->id);
    me->role_learned = (uint8_t)role;
    me->dev_id = m->id;
    me->dev_valid = 1;
  }
  if (m->type == UAL_MT_PORT_NUMBER && m->valid) {
    me->port = m->port;
    me->port_valid = 1;
  }
}

static void tl_rate(struct ual_dlproto *dp, unsigned dir, const struct ual_dlmsg *m, const struct ual_when *w,
                    struct ual_events *ev, struct ual_findings *f) {
  struct ual_dlproto_side *me = &dp->s[dir];
  if (ual_dlproto_role(dp, dir) == UAL_ROLE_SWITCH)
    ual_findings_add(f, UAL_R_DM_RATE_SWITCH, w->segment, "%c, a switch, sends a TL Rate Notification request",
                     side_name(dir));
  if (me->tl_rate_known && m->rate != me->tl_rate && me->tl_rate != UAL_RATE_REF && m->rate != UAL_RATE_REF)
    ual_findings_add(f, UAL_R_DM_RATE_SEQUENCE, w->segment, "%c TL rate %u -> %u without the reference rate %u",
                     side_name(dir), me->tl_rate, m->rate, UAL_RATE_REF);
  if (!me->tl_rate_known || m->rate != me->tl_rate)
    ual_events_add(ev, w, UAL_TEV_TL_RATE, dir, m->rate, me->tl_rate_known ? me->tl_rate : UAL_UNKNOWN,
                   "%c TL rate %u (%u.%02u MHz)", side_name(dir), m->rate, m->rate / 20, m->rate % 20 * 5);
  me->tl_rate = m->rate;
  me->tl_rate_known = 1;
}

static void basic(struct ual_dlproto *dp, unsigned dir, const struct ual_dl_item *it, const struct ual_when *w,
                  struct ual_events *ev, struct ual_findings *f) {
  const struct ual_dlmsg *m = &it->msg;
  struct ual_dlproto_side *me = &dp->s[dir], *peer = &dp->s[dir ^ 1];
  int i = basic_index(m->type);
  learn_identity(me, dir, m, w, ev);
  if (!m->ack) {                      /* a request from me */
    if (m->type == UAL_MT_TL_RATE) tl_rate(dp, dir, m, w, ev, f);
    struct ual_basic_req *b = &me->basic[i];
    if (b->active) {
      ual_findings_add(f, UAL_R_DM_BASIC_OUTSTANDING, w->segment, "%c %s request while the one at frame %llu is unanswered",
                       side_name(dir), label(m->type), (unsigned long long)b->frame);
      return;
    }
    b->active = 1;
    b->late_flagged = 0;
    b->frame = w->frame;
    b->ts_ns = w->ts_ns;
    b->due_ns = response_due(w);
    b->uart_segs = peer->uart_open;
    b->uart_end_ns = 0;
    return;
  }
  struct ual_basic_req *b = &peer->basic[i];   /* a response from me */
  if (!b->active) {
    if (dp->history && peer->heard)
      ual_findings_add(f, UAL_R_DM_UNSOLICITED, w->segment, "%c %s response with no request from %c", side_name(dir),
                       label(m->type), side_name(dir ^ 1));
    return;
  }
  b->active = 0;
  if (b->late_flagged || !b->due_ns || !w->ts_ns || !w->ft_ps) return;
  uint64_t allow = uart_allowance(b->uart_segs, b->uart_end_ns, b->ts_ns, w->ft_ps);
  if (w->ts_ns > b->due_ns + allow)
    ual_findings_add(f, UAL_R_DM_RESPONSE_LATE, w->segment, "%c %s response %llu ns after the request at frame %llu",
                     side_name(dir), label(m->type), (unsigned long long)(w->ts_ns - b->ts_ns),
                     (unsigned long long)b->frame);
}

/* ---- control negotiations ---- */

/* The partner's current value for a TargetState, or UAL_UNKNOWN. */
static int current(const struct ual_dlproto_side *s, unsigned type, unsigned target) {
  switch (type) {
  case UAL_MT_LINK_WIDTH: return s->width;
  case UAL_MT_LINK_SPEED: return s->speed;
  case UAL_MT_LINK_STATE: return s->lstate;
  default: {
    unsigned ch = target & 7;
    int st = ch == UAL_CHAN_TL ? s->ch0 : ch == UAL_CHAN_UART ? s->ch4 : UAL_UNKNOWN;
    return st == UAL_UNKNOWN ? UAL_UNKNOWN : (int)(ch | (st ? UAL_CHAN_ONLINE : 0));
  }
  }
}

static void apply(struct ual_dlproto_side *s, unsigned dir, unsigned type, unsigned target, const struct ual_when *w,
                  struct ual_events *ev) {
  switch (type) {
  case UAL_MT_LINK_WIDTH: s->width = (int8_t)target; break;
  case UAL_MT_LINK_SPEED: s->speed = (int8_t)target; break;
  case UAL_MT_LINK_STATE: s->lstate = (int8_t)target; break;
  case UAL_MT_CHANNEL: {
    unsigned ch = target & 7;
    int8_t on = (target & UAL_CHAN_ONLINE) != 0;
    int8_t *st = ch == UAL_CHAN_TL ? &s->ch0 : ch == UAL_CHAN_UART ? &s->ch4 : NULL;
    if (!st) return;
    int old = *st;
    *st = on;
    if (ch == UAL_CHAN_UART) s->ch4_changes++;
    if (ch == UAL_CHAN_TL && on) s->ch0_flagged = 0;
    if (s->ch0 == 1 && s->ch4 == 1) s->after_l1 = 0;
    ual_events_add(ev, w, UAL_TEV_CHANNEL, dir, (int32_t)(target & 0xF), old == UAL_UNKNOWN ? UAL_UNKNOWN : (int32_t)(ch | (old ? UAL_CHAN_ONLINE : 0)),
                   "%c channel %u %s", side_name(dir), ch, on ? "online" : "offline");
    break;
  }
  }
}

/* What the response rules (§2.4.3) require of the answer to request r, in
 * the responder's view; 0 = no constraint. */
#define MUST_ACK 1
#define MUST_NACK 2
#define ACK_OR_PENDING 3

static int required_answer(const struct ual_dlproto *dp, const struct ual_dlproto_side *rs,
                           const struct ual_ctrl_req *r) {
  int cur = current(rs, r->mtype, r->target);
  bool sized = r->mtype == UAL_MT_LINK_WIDTH || r->mtype == UAL_MT_LINK_SPEED;
  /* below the maximum needs no current value (unless a lockout may apply) */
  if (cur == UAL_UNKNOWN && (!sized || r->prio)) return 0;
  if ((int)r->target == cur) return r->prio ? 0 : MUST_ACK;
  switch (r->mtype) {
  case UAL_MT_LINK_WIDTH:
  case UAL_MT_LINK_SPEED: {
    if (r->prio) return (int)r->target > cur ? MUST_NACK : MUST_ACK;
    /* below the maximum allowed (known from below): Ack, unless a soft
     * lockout may refuse an increase */
    bool width = r->mtype == UAL_MT_LINK_WIDTH;
    int max = width ? dp->max_width : dp->max_speed;
    unsigned lock = width ? 1u : 2u;
    bool increase = cur == UAL_UNKNOWN || (int)r->target > cur;
    if (max != UAL_UNKNOWN && (int)r->target < max && !((rs->lockout & lock) && increase)) return MUST_ACK;
    return 0;
  }
  case UAL_MT_LINK_STATE:
    if (r->target == 0) return r->prio ? MUST_NACK : MUST_ACK;
    return r->prio && (int)r->target > cur ? MUST_ACK : 0;   /* lower power with Priority: granted */
  default:
    return r->target & UAL_CHAN_ONLINE ? ACK_OR_PENDING : MUST_ACK;
  }
}

/* Channel requests have a required answer whatever the state: offline
 * (or the current state) must be Acked, online Acked or left pending. */
static int required(const struct ual_dlproto *dp, const struct ual_dlproto_side *rs, const struct ual_ctrl_req *r) {
  int req = required_answer(dp, rs, r);
  if (!req && r->mtype == UAL_MT_CHANNEL) req = r->target & UAL_CHAN_ONLINE ? ACK_OR_PENDING : MUST_ACK;
  return req;
}

bool ual_ctrl_wins(unsigned a_target, unsigned a_prio, unsigned b_target, unsigned b_prio) {
  if (!a_prio != !b_prio) return a_prio;
  if (a_prio) return a_target < b_target;       /* smallest / lowest with Priority */
  return a_target > b_target;                   /* widest / highest otherwise */
}

static const char *cmd_text(unsigned cmd) {
  switch (cmd) {
  case UAL_CMD_ACK: return "Ack";
  case UAL_CMD_NACK: return "Nack";
  case UAL_CMD_PENDING: return "Decision Pending";
  }
  return "?";
}

/* Did the partner receive the Ack granting its own request mine before
 * the other side's request theirs? Both travel the same way, so frame and
 * segment order is receive order. */
static bool received_first(const struct ual_ctrl_req *mine, const struct ual_ctrl_req *theirs) {
  if (mine->grant_frame != theirs->frame) return mine->grant_frame < theirs->frame;
  return mine->grant_seg < theirs->seg;
}

static void check_answer(const struct ual_dlproto *dp, const struct ual_dlproto_side *me, unsigned dir,
                         const struct ual_ctrl_req *r, const struct ual_dlmsg *m, const struct ual_when *w,
                         struct ual_findings *f) {
  char b1[16], b2[16];
  if (m->response != r->target)
    ual_findings_add(f, UAL_R_DM_CTRL_ECHO, w->segment, "%c %s %s: Response %u does not echo TargetState %u",
                     side_name(dir), label(m->type), cmd_text(m->command), m->response, r->target);
  /* Decision Pending's TargetState and a Request's Response: stateless (dlmsg.c) */
  /* me's own request of the conflict may already be confirmed (it received
   * the grant before r) */
  bool mine_open = me->req.state == UAL_CS_SENT || me->req.state == UAL_CS_GRANTED ||
                   (me->req.grant_frame && received_first(&me->req, r));
  if (r->conflict && mine_open && me->req.mtype == r->mtype && (m->command == UAL_CMD_ACK || m->command == UAL_CMD_NACK)) {
    bool identical = me->req.target == r->target;
    if (!identical && (r->mtype == UAL_MT_LINK_STATE || r->mtype == UAL_MT_CHANNEL)) return;  /* no resolution defined */
    bool theirs = identical || ual_ctrl_wins(r->target, r->prio, me->req.target, me->req.prio);
    unsigned want = theirs ? UAL_CMD_ACK : UAL_CMD_NACK;
    if (m->command != want)
      ual_findings_add(f, UAL_R_DM_CTRL_RESOLUTION, w->segment, "%c %ss %c's %s %s in a conflict with its own %s: %s",
                       side_name(dir), cmd_text(m->command), side_name(dir ^ 1), label(r->mtype),
                       target_text(r->mtype, r->target, b1, sizeof b1),
                       target_text(r->mtype, me->req.target, b2, sizeof b2),
                       identical ? "identical requests are both Acked" : theirs ? "the request wins" : "the request loses");
    return;
  }
  int req = required(dp, me, r);
  bool bad = (req == MUST_ACK && m->command != UAL_CMD_ACK) || (req == MUST_NACK && m->command != UAL_CMD_NACK) ||
             (req == ACK_OR_PENDING && m->command == UAL_CMD_NACK);
  if (bad)
    ual_findings_add(f, UAL_R_DM_CTRL_RESPONSE_RULE, w->segment, "%c %ss %s %s%s: the response rules require %s",
                     side_name(dir), cmd_text(m->command), label(r->mtype), target_text(r->mtype, r->target, b1, sizeof b1),
                     r->prio ? " (Priority)" : "",
                     req == MUST_ACK ? "Ack" : req == MUST_NACK ? "Nack" : "Ack or Decision Pending");
}

/* me answers the partner's open request r with m. */
static void answer(struct ual_dlproto *dp, unsigned dir, const struct ual_dlmsg *m, const struct ual_when *w,
                   struct ual_events *ev, struct ual_findings *f) {
  struct ual_dlproto_side *me = &dp->s[dir], *peer = &dp->s[dir ^ 1];
  struct ual_ctrl_req *r = &peer->req;
  int ci = ctrl_index(r->mtype);
  r->answered = 1;
  if (!r->late_flagged && r->due_ns && w->ts_ns &&
      w->ts_ns > r->due_ns + uart_allowance(r->uart_segs, r->uart_end_ns, r->ts_ns, w->ft_ps ? w->ft_ps : r->ft_ps))
    ual_findings_add(f, UAL_R_DM_RESPONSE_LATE, w->segment, "%c %s %s %llu ns after the request at frame %llu",
                     side_name(dir), label(m->type), cmd_text(m->command), (unsigned long long)(w->ts_ns - r->ts_ns),
                     (unsigned long long)r->frame);
  check_answer(dp, me, dir, r, m, w, f);
  switch (m->command) {
  case UAL_CMD_PENDING:
    if (me->req.state == UAL_CS_SENT && me->req.mtype == r->mtype)
      ual_findings_add(f, UAL_R_DM_CTRL_PENDING_ILLEGAL, w->segment,
                       "%c answers Decision Pending while its own %s request (frame %llu) is outstanding",
                       side_name(dir), label(r->mtype), (unsigned long long)me->req.frame);
    me->dp_owed = 1;
    me->dp_mtype = r->mtype;
    me->dp_flagged = 0;
    me->dp_frame = w->frame;
    me->dp_due_ns = w->ts_ns ? w->ts_ns + UAL_PENDING_NS : 0;
    peer->dp_wait = 1;
    peer->dp_wait_mtype = r->mtype;
    neg_event(me, dir, w, ev, r->mtype, UAL_NEG_PENDING, r->target, r->ts_ns, r->frame, "Decision Pending for");
    r->state = UAL_CS_NONE;
    return;
  case UAL_CMD_NACK:
    if (r->conflict && ci >= 0) {     /* the loser of a conflict */
      peer->lost[ci] = 1;
      peer->lost_target[ci] = r->target;
    }
    neg_event(me, dir, w, ev, r->mtype, UAL_NEG_NACK, r->target, r->ts_ns, r->frame, "Nacks");
    r->state = UAL_CS_NONE;
    return;
  default:                            /* Ack: the requester must confirm */
    neg_event(me, dir, w, ev, r->mtype, UAL_NEG_ACK, r->target, r->ts_ns, r->frame, "Acks");
    r->state = UAL_CS_GRANTED;
    r->grant_frame = w->frame;
    r->grant_seg = (int8_t)w->segment;
    r->grant_ts_ns = w->ts_ns;
    r->due_ns = w->ts_ns ? w->ts_ns + UAL_CONFIRM_NS : 0;
    /* the responder stops DL flits right after its Ack to L1 (§4.1.1) */
    if (r->mtype == UAL_MT_LINK_STATE && r->target == 1) me->l1_stopped = 1;
    return;
  }
}

/* me confirms its granted request: complete for both partners. */
static void confirm(struct ual_dlproto *dp, unsigned dir, const struct ual_when *w, struct ual_events *ev) {
  struct ual_dlproto_side *me = &dp->s[dir], *peer = &dp->s[dir ^ 1];
  struct ual_ctrl_req *r = &me->req;
  unsigned type = r->mtype, t = r->target;
  apply(me, dir, type, t, w, ev);
  apply(peer, dir ^ 1, type, t, w, ev);
  neg_event(me, dir, w, ev, type, UAL_NEG_COMPLETE, t, r->ts_ns, r->frame, "negotiated");
  if (r->prio && (type == UAL_MT_LINK_WIDTH || type == UAL_MT_LINK_SPEED)) {
    unsigned bit = type == UAL_MT_LINK_WIDTH ? 1u : 2u;
    me->lockout |= (uint8_t)bit;
    peer->lockout |= (uint8_t)bit;
  }
  if (type == UAL_MT_LINK_SPEED && dp->speed_allowed != UAL_UNKNOWN) dp->speed_allowed = (int8_t)t;
  if (type == UAL_MT_LINK_SPEED && (int)t > dp->max_speed) dp->max_speed = (int8_t)t;
  if (type == UAL_MT_LINK_WIDTH) dp->width_ready = 1;
  if (type == UAL_MT_LINK_STATE && t == 1) me->l1_stopped = 1;   /* the requester stops after confirming */
  if (me->dp_wait && me->dp_wait_mtype == type) me->dp_wait = 0;
  if (peer->dp_wait && peer->dp_wait_mtype == type) peer->dp_wait = 0;
  r->state = UAL_CS_NONE;
}

static void request(struct ual_dlproto *dp, unsigned dir, const struct ual_dlmsg *m, const struct ual_when *w,
                    struct ual_events *ev, struct ual_findings *f) {
  struct ual_dlproto_side *me = &dp->s[dir], *peer = &dp->s[dir ^ 1];
  unsigned type = m->type;
  int ci = ctrl_index(type);
  char b1[16];
  const char *tt = target_text(type, m->target, b1, sizeof b1);

  if (ual_dlproto_role(dp, dir) == UAL_ROLE_SWITCH && !(me->dp_owed && me->dp_mtype == type) && me->heard_pending)
    ual_findings_add(f, UAL_R_DM_CTRL_INITIATOR, w->segment, "%c, a switch, requests %s %s without having sent Decision Pending",
                     side_name(dir), label(type), tt);

  /* one outstanding control request per partner; crossing requests are
   * legal: the partner's, unanswered, may not have arrived yet. An answer
   * to it ahead of this request, even in the same flit, shows it had
   * (seed 000 line 624). */
  struct ual_ctrl_req *pr = &peer->req;
  bool crossing = pr->state == UAL_CS_SENT && !pr->answered &&
                  (!pr->due_ns || !w->ts_ns ||
                   w->ts_ns <= pr->due_ns + uart_allowance(pr->uart_segs, pr->uart_end_ns, pr->ts_ns, pr->ft_ps));
  if (me->req.state == UAL_CS_SENT || me->req.state == UAL_CS_GRANTED)
    ual_findings_add(f, UAL_R_DM_CTRL_OUTSTANDING, w->segment, "%c %s request while its own %s request (frame %llu) is %s",
                     side_name(dir), label(type), label(me->req.mtype), (unsigned long long)me->req.frame,
                     me->req.state == UAL_CS_SENT ? "unanswered" : "not confirmed");
  else if (me->dp_wait && me->dp_wait_mtype == type)
    ual_findings_add(f, UAL_R_DM_CTRL_OUTSTANDING, w->segment, "%c %s request while waiting for %c's request after Decision Pending",
                     side_name(dir), label(type), side_name(dir ^ 1));
  else if ((pr->state == UAL_CS_SENT || pr->state == UAL_CS_GRANTED) && !crossing)
    ual_findings_add(f, UAL_R_DM_CTRL_OUTSTANDING, w->segment, "%c %s request after receiving %c's %s request (frame %llu), not complete",
                     side_name(dir), label(type), side_name(dir ^ 1), label(pr->mtype), (unsigned long long)pr->frame);

  int cur = current(me, type, m->target);
  if (cur != UAL_UNKNOWN && cur == (int)m->target)
    ual_findings_add(f, UAL_R_DM_CTRL_SAME_STATE, w->segment, "%c requests %s %s, the current state", side_name(dir),
                     label(type), tt);
  if (ci >= 0 && me->lost[ci] && (m->target == me->lost_target[ci] || (cur != UAL_UNKNOWN && cur == (int)m->target)))
    ual_findings_add(f, UAL_R_DM_CTRL_LOSER_RETRY, w->segment, "%c lost the %s negotiation and requests %s again without a new reason",
                     side_name(dir), label(type), tt);
  if (ci >= 0) me->lost[ci] = peer->lost[ci] = 0;
  if (type == UAL_MT_LINK_STATE && m->target == 1 && (me->ch0 == 1 || me->ch4 == 1))
    ual_findings_add(f, UAL_R_LT_L1_ORDER, w->segment, "%c requests L1 while channel %s online", side_name(dir),
                     me->ch0 == 1 && me->ch4 == 1 ? "0 and 4 are" : me->ch0 == 1 ? "0 is" : "4 is");

  if (me->req.state == UAL_CS_SENT || me->req.state == UAL_CS_GRANTED) return;   /* keep the first */
  struct ual_ctrl_req *r = &me->req;
  memset(r, 0, sizeof *r);
  r->state = UAL_CS_SENT;
  r->mtype = (uint8_t)type;
  r->target = m->target;
  r->prio = m->priority;
  r->frame = w->frame;
  r->seg = (int8_t)w->segment;
  r->ts_ns = w->ts_ns;
  r->due_ns = response_due(w);
  r->ft_ps = w->ft_ps;
  r->uart_segs = peer->uart_open;
  if (crossing && pr->mtype == type) r->conflict = pr->conflict = 1;
  if (me->dp_owed && me->dp_mtype == type) me->dp_owed = 0;
  neg_event(me, dir, w, ev, type, UAL_NEG_REQUEST, m->target, 0, w->frame, m->priority ? "requests (Priority)" : "requests");
}

static void control(struct ual_dlproto *dp, unsigned dir, const struct ual_dlmsg *m, const struct ual_when *w,
                    struct ual_events *ev, struct ual_findings *f) {
  struct ual_dlproto_side *me = &dp->s[dir], *peer = &dp->s[dir ^ 1];
  switch (m->command) {
  case UAL_CMD_REQUEST:
    request(dp, dir, m, w, ev, f);
    return;
  case UAL_CMD_ACK:
  case UAL_CMD_NACK:
  case UAL_CMD_PENDING: {
    bool can_answer = peer->req.state == UAL_CS_SENT && !peer->req.answered && peer->req.mtype == m->type;
    bool can_confirm = m->command == UAL_CMD_ACK && me->req.state == UAL_CS_GRANTED && me->req.mtype == m->type;
    if (can_answer && can_confirm && received_first(&me->req, &peer->req)) can_answer = false;
    if (can_answer) {
      answer(dp, dir, m, w, ev, f);
      return;
    }
    if (can_confirm) {
      confirm(dp, dir, w, ev);
      return;
    }
    if (dp->history && peer->heard)
      ual_findings_add(f, UAL_R_DM_UNSOLICITED, w->segment, "%c %s %s with no matching request", side_name(dir),
                       label(m->type), cmd_text(m->command));
    return;
  }
  default:                            /* reserved Command: DM-FIELD (stateless) */
    return;
  }
}

void ual_dlproto_step(struct ual_dlproto *dp, unsigned dir, const struct ual_dl_item *it, const struct ual_when *w,
                      struct ual_events *ev, struct ual_findings *f) {
  const struct ual_dlmsg *m = &it->msg;
  dir &= 1;
  if (m->compressed) return;          /* not supported: receivers drop it */
  if (basic_index(m->type) >= 0) basic(dp, dir, it, w, ev, f);
  else if (ctrl_index(m->type) >= 0) control(dp, dir, m, w, ev, f);
  else if (m->mclass == UAL_MCLASS_UART && m->type != UAL_MT_RESERVED) {
    /* UART traffic shows channel 4 online for its sender (digest §7) */
    if (dp->s[dir].ch4 == UAL_UNKNOWN && w->is_new) dp->s[dir].ch4 = 1;
  }
}

void ual_dlproto_flit(struct ual_dlproto *dp, unsigned dir, const struct ual_flit_info *fi, int uart_sectors,
                      const struct ual_when *w, struct ual_findings *f) {
  struct ual_dlproto_side *me = &dp->s[dir & 1];
  if (!w->is_new) return;             /* a replay was built before the state changed */
  if (me->l1_stopped && !me->l1_flagged) {
    me->l1_flagged = 1;
    ual_findings_add(f, UAL_R_LT_PAYLOAD_IN_L1, -1, "%c sends a new payload flit after its L1 negotiation completed",
                     side_name(dir));
  }
  int tl_seg = -1;
  for (int k = 0; k < UAL_SEGMENTS && tl_seg < 0; k++)
    if (fi->sh[k].tlbeat != UAL_TB_NONE && fi->sh[k].tlbeat != UAL_TB_INVALID) tl_seg = k;
  /* TL flits show channel 0 online for their sender (digest §7) */
  if (tl_seg >= 0 && me->ch0 == UAL_UNKNOWN && !me->after_l1) me->ch0 = 1;
  bool tl_off = tl_seg >= 0 && me->ch0 != 1, uart_off = uart_sectors > 0 && me->ch4 != 1;
  if (me->after_l1) {
    if ((tl_off || uart_off) && !me->exit_flagged) {
      me->exit_flagged = 1;
      ual_findings_add(f, UAL_R_LT_EXIT_L1_CONTENT, tl_off ? tl_seg : -1,
                       "%c sends %s after L1 exit before channel %s is online", side_name(dir),
                       tl_off ? "a TL flit" : "UART sectors", tl_off ? "0" : "4");
    }
    return;
  }
  if (tl_seg >= 0 && me->ch0 == 0 && !me->ch0_flagged) {
    me->ch0_flagged = 1;
    ual_findings_add(f, UAL_R_DL_CH0_OFFLINE, tl_seg, "SH%d starts a TL flit while %c's channel 0 is offline", tl_seg,
                     side_name(dir));
  }
}

void ual_dlproto_tick(struct ual_dlproto *dp, unsigned dir, const struct ual_when *w, struct ual_events *ev,
                      struct ual_findings *f) {
  struct ual_dlproto_side *me = &dp->s[dir & 1], *peer = &dp->s[(dir & 1) ^ 1];
  uint64_t t = w->ts_ns;
  if (!t) return;
  /* what me owes: answers to the partner's requests */
  for (int i = 0; i < UAL_NBASIC; i++) {
    struct ual_basic_req *b = &peer->basic[i];
    if (b->active && !b->late_flagged && b->due_ns &&
        t > b->due_ns + uart_allowance(b->uart_segs, b->uart_end_ns, b->ts_ns, w->ft_ps)) {
      b->late_flagged = 1;
      static const unsigned types[UAL_NBASIC] = { UAL_MT_TL_RATE, UAL_MT_DEVICE_ID, UAL_MT_PORT_NUMBER };
      ual_findings_add(f, UAL_R_DM_RESPONSE_LATE, -1, "no %s response from %c within 1 us of the request at frame %llu",
                       label(types[i]), side_name(dir), (unsigned long long)b->frame);
    }
  }
  struct ual_ctrl_req *r = &peer->req;
  if (r->state == UAL_CS_SENT && !r->answered && !r->late_flagged && r->due_ns &&
      t > r->due_ns + uart_allowance(r->uart_segs, r->uart_end_ns, r->ts_ns, r->ft_ps)) {
    r->late_flagged = 1;
    ual_findings_add(f, UAL_R_DM_RESPONSE_LATE, -1, "no answer from %c within 1 us to the %s request at frame %llu",
                     side_name(dir), label(r->mtype), (unsigned long long)r->frame);
  }
  /* what me owes: the confirming Ack, a request after Decision Pending */
  r = &me->req;
  if (r->state == UAL_CS_GRANTED && r->due_ns && t > r->due_ns) {
    ual_findings_add(f, UAL_R_DM_CTRL_NO_CONFIRM, -1, "%c's %s request was Acked at frame %llu but never confirmed",
                     side_name(dir), label(r->mtype), (unsigned long long)r->grant_frame);
    neg_event(me, dir, w, ev, r->mtype, UAL_NEG_NO_CONFIRM, r->target, r->ts_ns, r->frame, "never confirms");
    r->state = UAL_CS_NONE;
  }
  if (me->dp_owed && !me->dp_flagged && me->dp_due_ns && t > me->dp_due_ns) {
    me->dp_flagged = 1;
    me->dp_owed = 0;
    if (peer->dp_wait && peer->dp_wait_mtype == me->dp_mtype) peer->dp_wait = 0;
    ual_findings_add(f, UAL_R_DM_CTRL_PENDING_TIMEOUT, -1, "%c answered Decision Pending at frame %llu and sent no %s request within 10 ms",
                     side_name(dir), (unsigned long long)me->dp_frame, label(me->dp_mtype));
  }
}

void ual_dlproto_finish(struct ual_dlproto *dp, uint64_t last_ns, struct ual_findings *f) {
  if (!last_ns) return;
  for (unsigned d = 0; d < 2; d++) {
    struct ual_ctrl_req *r = &dp->s[d].req;
    /* the confirming Ack is late by any measure once a response time passed */
    if (r->state == UAL_CS_GRANTED && r->grant_ts_ns &&
        last_ns > r->grant_ts_ns + UAL_RESPONSE_NS + 2 * ns_of(r->ft_ps)) {
      unsigned from = f ? f->n : 0;
      ual_findings_add(f, UAL_R_DM_CTRL_NO_CONFIRM, -1, "%c's %s request was Acked at frame %llu but never confirmed",
                       side_name(d), label(r->mtype), (unsigned long long)r->grant_frame);
      ual_findings_set_dir(f, from, d);
      r->state = UAL_CS_NONE;
    }
  }
}
