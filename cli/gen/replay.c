/* DL replay and the flit slots of L0 (digest §2.1, PCIe 6.x flit replay):
 * the flit header cycle (explicit sequence numbers in groups of 3, then Acks
 * or 3 Naks, then extra flits), the replay buffer with go-back-N and
 * selective replay and the replay timer, the sequence-number handshake, the
 * PM and Link Management DLLPs of L1 entry and L0p, and the receiver that
 * delivers the partner's flits in order to the DL. */
#include "replay.h"
#include "dl.h"
#include "phy.h"

#include <stdlib.h>
#include <string.h>

#define NAKS_PER_EVENT   3

void rp_side_init(struct gen *g, struct side *s, unsigned id) {
  (void)g;
  s->id = id;
  s->rb = calloc(UAL_SEQ_MOD + 1, sizeof *s->rb);
  s->sel_buf = calloc(UAL_SEQ_MOD + 1, sizeof *s->sel_buf);
  s->sel_have = calloc(UAL_SEQ_MOD + 1, 1);
  s->next_tx = 1;
  s->acked = seq_dec(1);
  s->next_exp = 1;
  s->mode = PL_SILENT;
  s->t_next = PS_NEVER;
  s->nak_armed = true;
}

void rp_start_l0(struct gen *g, struct side *s, uint16_t next_tx) {
  s->next_tx = next_tx;
  s->acked = seq_dec(next_tx);
  s->dl_active = true;
  s->prior_payload = true;
  s->tl_enable = true;
  dl_apply_channel(g, s, UAL_CHAN_TL, true);
  dl_apply_channel(g, s, UAL_CHAN_UART, true);
  phy_go_normal(s);
}

void rp_side_free(struct side *s) {
  free(s->rb);
  free(s->sel_buf);
  free(s->sel_have);
}

unsigned rp_outstanding(const struct side *s) { return ual_seq_dist(s->acked, seq_dec(s->next_tx)); }

/* Nothing in flight in either direction of this side's transmitter/receiver. */
bool rp_settled(const struct gen *g, const struct side *s) {
  (void)g;
  return rp_outstanding(s) == 0 && !s->rp_active && !s->rp_pending && !s->nak_req &&
         s->tail_naks == 0 && s->rx_state == RX_NORMAL;
}

void rp_extra_push(struct side *s, const struct pl_extra *x) {
  if (s->n_extra < PL_EXTRA_MAX) s->extra[s->n_extra++] = *x;
}

/* ---- receiver ---- */

static uint16_t ack_value(const struct side *s) {
  if (s->withhold_acks_until > s->flits_sent) return s->withheld_ack;
  return s->rx_any ? seq_dec(s->next_exp) : 0;
}

static void rx_request_nak(struct gen *g, struct side *s, bool selective) {
  s->nak_req = true;
  s->nak_req_selective = selective;
  s->rx_state = selective ? RX_SEL_WAIT : RX_NAK_WAIT;
  if (!selective) memset(s->sel_have, 0, UAL_SEQ_MOD + 1);
  (void)g;
}

static bool choose_selective(struct gen *g) {
  switch (g->nak_policy) {
  case GEN_NAK_STANDARD: return false;
  case GEN_NAK_SELECTIVE: return true;
  default: return (g->nak_alt++ & 1) != 0;
  }
}

static void rx_bad(struct gen *g, struct side *s, const struct wire_item *it) {
  s->idle_rx_consec = 0;
  if (it->contained) {            /* ingress containment: drop everything, link down */
    s->rx_dead = true;
    phy_link_down(g, s);
    phy_link_down(g, peer_of(g, s));
    return;
  }
  if (s->prev_rx_bad) s->last_rx_known = false;  /* two in a row: Prior Flit Type cannot help */
  s->prev_rx_bad = true;
  switch (s->rx_state) {
  case RX_NORMAL:
    rx_request_nak(g, s, !s->force_standard_nak && choose_selective(g));
    s->force_standard_nak = false;
    break;
  case RX_SEL_WAIT: rx_request_nak(g, s, false); break;   /* a second loss: go back N */
  default: break;
  }
}

/* flit times for a Nak to reach the transmitter and its replay to come back */
static uint64_t renak_gap(const struct gen *g, const struct side *s) {
  uint64_t ft = side_flit_ps(s);
  return 2 * (g->lat_ps / (ft ? ft : 1)) + 16;
}

bool rp_calm_rx(const struct side *s) {
  return s->rx_state == RX_NORMAL && !s->nak_req && s->tail_naks == 0;
}

static void rx_deliver_seq(struct gen *g, struct side *s, uint16_t seq, const struct flit_meta *m,
                           uint64_t frame, uint64_t t_end) {
  (void)seq;
  if (frame) s->rx_frame = frame;
  if (t_end) s->rx_t_end = t_end;
  dl_deliver(g, s, m);
  s->next_exp = ual_seq_inc(s->next_exp);
  s->rx_any = true;
}

/* This side's transmitter learns the partner's Ack/Nak. */
static void tx_ack(struct gen *g, struct side *s, const struct ual_fh *fh) {
  uint16_t n = fh->seq;
  if (n == 0) return;                          /* Ack/Nak 0 is ignored */
  unsigned out = rp_outstanding(s), d = ual_seq_dist(s->acked, n);
  if (d > out) return;                         /* not a number we sent */
  if (d > 0) { s->acked = n; s->no_progress_flits = 0; }
  if (fh->replay_cmd != UAL_RC_NAK && fh->replay_cmd != UAL_RC_NAK_SELECTIVE) return;
  if (!s->nak_armed) return;                   /* the rest of a Nak group */
  s->nak_armed = false;
  if (rp_outstanding(s) == 0) return;
  s->rp_pending = true;
  s->rp_selective = fh->replay_cmd == UAL_RC_NAK_SELECTIVE;
  s->rp_start = ual_seq_inc(n);
  (void)g;
}

static void rx_dllp(struct gen *g, struct side *s, const struct ual_dllp *d, uint64_t t_end) {
  switch (d->type) {
  case UAL_DLLP_PM_ENTER_L1: s->rx_enter_l1 = true; break;
  case UAL_DLLP_PM_REQUEST_ACK:
    /* only an answer to our PM_Enter_L1: sent after that reached the partner */
    if (s->pm == PM_ENTER && t_end >= s->pm_enter_ps + g->lat_ps + 2 * side_flit_ps(s)) s->rx_req_ack = true;
    break;
  case UAL_DLLP_LINK_MGMT:
    if (d->lm_cmd == UAL_LM_REQUEST) {
      struct pl_extra x = { .kind = X_LM, .label = -1, .lm_width = (uint8_t)(1u << d->lm_width) };
      x.dllp.type = UAL_DLLP_LINK_MGMT;
      x.dllp.lm_cmd = UAL_LM_ACK;
      x.dllp.lm_width = d->lm_width;
      rp_extra_push(s, &x);
    } else if (d->lm_cmd == UAL_LM_ACK && s->lm_sent && !s->lm_acked) {
      s->lm_acked = true;
      side_set_width(g, s, 1u << d->lm_width);
    }
    break;
  }
}

static void rx_item(struct gen *g, struct side *s, struct wire_item *it) {
  if (s->rx_dead) return;
  switch (it->kind) {
  case W_OS:
    if (it->os_type == UAL_OS_EIOS) s->rx_eios = true;
    s->idle_rx_consec = 0;
    return;
  case W_EVENT: return;
  }
  if (it->corrupt) {
    struct ual_flit_info fi;
    ual_flit_decode(it->raw, &fi, NULL);
    if (!fi.valid) { rx_bad(g, s, it); return; }
  }
  const struct ual_fh *fh = &it->fh;
  /* IDLE flits since the partner's last ordered set: the partner may already
   * have moved on to L0 when this side's Recovery.Idle begins */
  if (it->kind == W_IDLE) {
    s->idle_rx_consec++;
    s->prev_rx_bad = false;
    return;
  }
  if (it->kind == W_IGNORED) { s->prev_rx_bad = false; return; }
  if (fh->replay_cmd != UAL_RC_SEQ) {
    tx_ack(g, s, fh);
    if (fh->replay_cmd == UAL_RC_ACK) s->hs_rx_ack = true;
  }
  if (fh->replay_cmd != UAL_RC_NAK && fh->replay_cmd != UAL_RC_NAK_SELECTIVE) s->nak_armed = true;

  if (it->kind == W_NOP) {
    if (fh->replay_cmd == UAL_RC_SEQ) { s->last_rx_seq = fh->seq; s->last_rx_known = true; }
    s->prev_rx_bad = false;
    rx_dllp(g, s, &it->dllp, it->t_end);
    return;
  }
  if (!it->seq_ok) { s->prev_rx_bad = false; return; }

  uint16_t seq;
  if (fh->replay_cmd == UAL_RC_SEQ) {
    seq = fh->seq;
  } else if (s->last_rx_known) {
    /* Prior Flit Type says whether a lost flit just before was a payload flit */
    seq = ual_seq_add(s->last_rx_seq, s->prev_rx_bad && fh->prior_payload ? 2 : 1);
  } else {
    s->prev_rx_bad = false;
    return;                                    /* cannot place it until an explicit number */
  }
  s->prev_rx_bad = false;
  s->last_rx_seq = seq;
  s->last_rx_known = true;
  if (seq != it->seq) { gen_fail(g, "model: receiver numbered flit %u as %u", it->seq, seq); return; }

  unsigned ahead = ual_seq_dist(s->next_exp, seq);
  switch (s->rx_state) {
  case RX_NORMAL:
    if (ahead == 0) rx_deliver_seq(g, s, seq, &it->meta, it->frame, it->t_end);
    else if (ahead < UAL_SEQ_MAX_UNACKED + 1) {
      if (s->accept_gap) {                     /* injected RP-SEQ-GAP: resynchronise */
        s->accept_gap = false;
        s->next_exp = seq;
        rx_deliver_seq(g, s, seq, &it->meta, it->frame, it->t_end);
      } else {
        rx_request_nak(g, s, false);
      }
    }
    break;
  case RX_NAK_WAIT:
    if (ahead == 0) { rx_deliver_seq(g, s, seq, &it->meta, it->frame, it->t_end); s->rx_state = RX_NORMAL; }
    else if (fh->replay_cmd == UAL_RC_SEQ && ahead <= UAL_SEQ_MAX_UNACKED && !s->nak_req && !s->tail_naks &&
             s->flits_sent - s->last_nak_flit > renak_gap(g, s))
      rx_request_nak(g, s, false);             /* the replay did not start where asked: ask again */
    break;
  case RX_SEL_WAIT:
    if (ahead == 0) {
      rx_deliver_seq(g, s, seq, &it->meta, it->frame, it->t_end);
      while (s->sel_have[s->next_exp]) {
        s->sel_have[s->next_exp] = 0;
        rx_deliver_seq(g, s, s->next_exp, &s->sel_buf[s->next_exp], 0, 0);
      }
      memset(s->sel_have, 0, UAL_SEQ_MOD + 1);
      s->rx_state = RX_NORMAL;
    } else if (ahead < UAL_SEQ_MAX_UNACKED + 1) {
      s->sel_have[seq] = 1;
      s->sel_buf[seq] = it->meta;
    }
    break;
  }
}

static void rx_process(struct gen *g, struct side *s) {
  struct wire *w = &g->w[s->id ^ 1];
  while (w->count && w->it[w->head].t_end + g->lat_ps <= g->now) {
    struct wire_item *it = &w->it[w->head];
    w->head = (w->head + 1) % WIRE_RING;
    w->count--;
    rx_item(g, s, it);
  }
}

/* Sequence-number handshake: explicit NOP flits (number NEXT_TX - 1 = 0, so
 * they are IDLE flits) alternating with NOP flits carrying Ack 0. */
static void step_handshake(struct gen *g, struct side *s) {
  if (s->hs_sent >= 4 && s->hs_sent % 2 == 0 && s->hs_rx_ack) { phy_go_normal(s); return; }
  if (s->hs_sent++ % 2 == 0) { phy_emit_idle_flit(g, s); return; }
  struct ual_fh fh = { .usage = UAL_USAGE_NOP_IDLE, .replay_cmd = UAL_RC_ACK, .seq = 0 };
  struct ual_dllp d = { .type = UAL_DLLP_NOP2 };
  phy_emit_nop(g, s, &fh, &d, W_NOP);
}

/* L1 entry, PL part: NOP flits, PM_Enter_L1 from the upstream port,
 * PM_Request_Ack from the downstream port, then EIOS and electrical idle. */
static void pm_step(struct gen *g, struct side *s) {
  switch (s->pm) {
  case PM_STOPPED:
    if (!s->upstream && !s->rx_enter_l1 && s->n_extra == 0 && s->l1_early_ack) {
      struct pl_extra x = { .kind = X_NOP_DLLP, .label = UAL_R_LT_L1_DLLP_ROLE };
      x.dllp.type = UAL_DLLP_PM_REQUEST_ACK;
      rp_extra_push(s, &x);
    }
    if (rp_outstanding(s) != 0 || s->rp_active || s->rp_pending) break;
    if (s->upstream && s->l1_early_ack) break;   /* the early Ack goes out first */
    if (s->upstream) { s->pm = PM_ENTER; s->rx_req_ack = false; s->pm_enter_ps = s->t_next; }
    else if (s->rx_enter_l1) s->pm = PM_ACK;
    break;
  case PM_ENTER:
    if (s->rx_req_ack) { s->pm = PM_EIDLE; phy_link_down(g, s); s->link_down = false; }
    break;
  case PM_ACK:
    if (s->rx_eios) { s->pm = PM_EIDLE; phy_link_down(g, s); s->link_down = false; }
    break;
  }
}

static uint8_t pm_dllp(const struct side *s) {
  switch (s->pm) {
  case PM_ENTER: return UAL_DLLP_PM_ENTER_L1;
  case PM_ACK: return UAL_DLLP_PM_REQUEST_ACK;
  }
  return UAL_DLLP_NOP2;
}

static void emit_extra(struct gen *g, struct side *s) {
  struct pl_extra x = s->extra[0];
  memmove(s->extra, s->extra + 1, --s->n_extra * sizeof *s->extra);
  struct ual_fh fh = { .usage = UAL_USAGE_NOP_IDLE, .prior_payload = s->prior_payload,
                       .replay_cmd = UAL_RC_ACK, .seq = ack_value(s) };
  if (x.label >= 0) gen_truth(g, g->frame + 1, s->id, x.label, TRUTH_SRC_INJECT, "extra flit");
  uint8_t flit[UAL_FLIT_BYTES];
  struct wire_item *wi;
  switch (x.kind) {
  case X_USAGE:
    ual_flit_build_nop(flit, &fh, &x.dllp);
    fh.usage = 5;                              /* 101b: reserved */
    ual_fh_encode(&fh, flit);
    ual_flit_seal(flit);
    wi = phy_wire_slot(g, s);
    wi->kind = W_IGNORED;
    wi->fh = fh;
    phy_emit_flit(g, s, flit, wi, false);
    return;
  case X_NOP_BODY:
    ual_flit_build_nop(flit, &fh, &x.dllp);
    flit[UAL_CRC_OFFSET - 20] = 0xA5;
    ual_flit_seal(flit);
    wi = phy_wire_slot(g, s);
    wi->kind = W_NOP;
    wi->fh = fh;
    wi->dllp = x.dllp;
    phy_emit_flit(g, s, flit, wi, false);
    return;
  case X_LM:
    if (x.dllp.lm_cmd == UAL_LM_REQUEST) s->lm_sent = true;
    phy_emit_nop(g, s, &fh, &x.dllp, W_NOP);
    if (x.dllp.lm_cmd == UAL_LM_ACK && x.lm_width) side_set_width(g, s, x.lm_width);
    return;
  default:
    phy_emit_nop(g, s, &fh, &x.dllp, W_NOP);
    return;
  }
}

/* Explicit sequence number 0 in an empty payload flit (injected PL-SEQ-ZERO). */
static void emit_seq0(struct gen *g, struct side *s, int label) {
  struct ual_pack tmp;
  ual_pack_init(&tmp);
  struct ual_fh fh = { .usage = UAL_USAGE_PAYLOAD, .prior_payload = s->prior_payload,
                       .replay_cmd = UAL_RC_SEQ, .seq = 0 };
  uint8_t flit[UAL_FLIT_BYTES];
  ual_pack_flit(&tmp, &fh, false, flit);
  if (label >= 0) gen_truth(g, g->frame + 1, s->id, label, TRUTH_SRC_INJECT, "explicit sequence 0");
  struct wire_item *wi = phy_wire_slot(g, s);
  wi->kind = W_PAYLOAD;
  wi->fh = fh;
  wi->seq_ok = 0;
  phy_emit_flit(g, s, flit, wi, true);
}

static void start_replay(struct gen *g, struct side *s) {
  bool timer = s->rp_timer;
  s->rp_timer = false;
  s->rp_pending = false;
  if (rp_outstanding(s) == 0) return;
  uint16_t last = seq_dec(s->next_tx);
  uint16_t start = s->rp_start;
  if (s->rp_wrong_start) {
    start = ual_seq_add(start, (unsigned)s->rp_wrong_start);
    s->rp_wrong_start = 0;
    gen_truth(g, g->frame + 1, s->id, UAL_R_RP_REPLAY_WRONG_START, TRUTH_SRC_INJECT,
              "replay starts one flit late");
  }
  if (ual_seq_dist(s->acked, start) == 0 || ual_seq_dist(s->acked, start) > rp_outstanding(s)) return;
  s->rp_active = true;
  s->rp_next = start;
  s->rp_end = s->rp_selective ? start : last;
  /* a passive analyzer sees the timer at the replay it triggers */
  if (timer)
    gen_truth(g, g->frame + 1, s->id, UAL_R_RP_ACK_TIMEOUT, s->timeout_inject ? TRUTH_SRC_INJECT : TRUTH_SRC_CONSEQ,
              "replay timer expired: replay without a Nak");
  if (timer) s->timeout_inject = false;
  gen_truth(g, g->frame + 1, s->id, UAL_R_RP_REPLAY, TRUTH_SRC_CONSEQ,
            s->rp_selective ? "selective replay" : "go-back-N replay");
}

/* An extra flit waits for the tail; an explicit-0 flit takes the first explicit slot instead. */
static bool tail_extra(const struct side *s) { return s->n_extra && s->extra[0].kind != X_SEQ0; }

static void emit_normal(struct gen *g, struct side *s) {
  dl_tick(g, s);
  if (g->hooks.slot) g->hooks.slot(g, s);
  if (g->stop_error || s->mode != PL_NORMAL) return;
  if (s->pm != PM_NONE && s->pm != PM_EIDLE) {
    pm_step(g, s);
    if (s->mode != PL_NORMAL) return;
  }

  if (rp_outstanding(s) > 0 && !s->rp_active) {
    if (++s->no_progress_flits >= UAL_REPLAY_TIMEOUT_FLITS) {
      s->no_progress_flits = 0;
      s->rp_pending = true;
      s->rp_selective = false;
      s->rp_start = ual_seq_inc(s->acked);
      s->rp_timer = true;
    }
  }

  struct ual_fh fh = { .usage = UAL_USAGE_PAYLOAD, .prior_payload = s->prior_payload };
  bool naking = false;
  if (s->cyc < 3) {
    if (s->cyc == 0) {
      if (s->rp_pending) start_replay(g, s);
      if (s->n_extra && s->extra[0].kind == X_SEQ0) {
        int label = s->extra[0].label;
        memmove(s->extra, s->extra + 1, --s->n_extra * sizeof *s->extra);
        s->cyc = 1;
        emit_seq0(g, s, label);
        return;
      }
      if (s->skip_seq && !s->rp_active) {
        s->next_tx = ual_seq_add(s->next_tx, s->skip_seq);
        s->skip_seq = 0;
        gen_truth(g, g->frame + 1, s->id, UAL_R_RP_SEQ_GAP, TRUTH_SRC_INJECT,
                  "a sequence number skipped");
      }
    }
    fh.replay_cmd = UAL_RC_SEQ;
    s->cyc++;
    if (s->explicit_group && s->cyc >= s->explicit_group) { s->cyc = 3; s->explicit_group = 0; }
  } else if (s->tail_acked) {
    emit_extra(g, s);
    if (!tail_extra(s)) { s->cyc = 0; s->tail_acked = false; }
    return;
  } else {
    if (s->tail_naks == 0 && s->nak_req) {
      s->tail_naks = NAKS_PER_EVENT;
      s->nak_req = false;
      s->last_nak_flit = s->flits_sent;
      fh.replay_cmd = s->nak_req_selective ? UAL_RC_NAK_SELECTIVE : UAL_RC_NAK;
    }
    if (s->tail_naks > 0) {
      fh.replay_cmd = s->nak_req_selective ? UAL_RC_NAK_SELECTIVE : UAL_RC_NAK;
      fh.seq = seq_dec(s->next_exp);
      naking = true;
      if (--s->tail_naks == 0) s->tail_acked = true;
    } else {
      fh.replay_cmd = UAL_RC_ACK;
      fh.seq = ack_value(s);
      if (s->ack_ahead) {
        s->ack_ahead = false;
        fh.seq = ual_seq_add(peer_of(g, s)->next_tx, 5);
        gen_truth(g, g->frame + 1, s->id, UAL_R_RP_ACK_AHEAD, TRUTH_SRC_INJECT,
                  "Ack for a sequence number not sent yet");
      }
      s->tail_acked = true;
    }
    if (s->label_next_tail) {
      s->label_next_tail = false;
      gen_truth(g, g->frame + 1, s->id, UAL_R_RP_EXPLICIT_GROUP, TRUTH_SRC_INJECT,
                "explicit group of 2");
    }
    if (s->tail_acked && (!tail_extra(s) || s->rp_active)) { s->cyc = 0; s->tail_acked = false; }
  }
  if (naking) {
    g->st.naks[s->id]++;
    gen_truth(g, g->frame + 1, s->id, UAL_R_RP_NAK, TRUTH_SRC_CONSEQ,
              fh.replay_cmd == UAL_RC_NAK ? "Nak (go-back-N)" : "Nak (selective)");
  }

  uint8_t flit[UAL_FLIT_BYTES];
  struct wire_item *wi;
  if (s->rp_active) {
    uint16_t seq = s->rp_next;
    if (fh.replay_cmd == UAL_RC_SEQ) fh.seq = seq;
    memset(flit, 0, sizeof flit);
    ual_fh_encode(&fh, flit);
    memcpy(flit + 2, s->rb[seq].body, RB_BODY);
    ual_flit_seal(flit);
    wi = phy_wire_slot(g, s);
    wi->kind = W_PAYLOAD;
    wi->fh = fh;
    wi->seq = seq;
    wi->meta = s->rb[seq].meta;
    if (seq == s->rp_end) s->rp_active = false;
    else s->rp_next = ual_seq_inc(seq);
    g->st.replayed[s->id]++;
    g->st.payload[s->id]++;
    phy_emit_flit(g, s, flit, wi, true);
    return;
  }
  bool room = rp_outstanding(s) < UAL_SEQ_MAX_UNACKED || s->ignore_limit;
  bool l1_extra = s->l1_payload_extra && s->pm == PM_STOPPED;
  if ((s->dl_active && !s->dl_pause && room && s->pm == PM_NONE) || l1_extra) {
    uint16_t seq = s->next_tx;
    if (fh.replay_cmd == UAL_RC_SEQ) fh.seq = seq;
    if (l1_extra) {
      s->l1_payload_extra = 0;
      gen_truth(g, g->frame + 1, s->id, UAL_R_LT_PAYLOAD_IN_L1, TRUTH_SRC_INJECT,
                "new payload flit after the L1 Ack");
    }
    wi = phy_wire_slot(g, s);
    wi->kind = W_PAYLOAD;
    wi->fh = fh;
    wi->seq = seq;
    wi->fresh = 1;
    dl_build_payload(g, s, &fh, flit, &wi->meta);
    if (s->ignore_limit && rp_outstanding(s) == UAL_SEQ_MAX_UNACKED) {
      gen_truth(g, g->frame + 1, s->id, UAL_R_RP_UNACKED_LIMIT, TRUTH_SRC_INJECT,
                "512th unacknowledged flit");
      s->ignore_limit = false;
    }
    s->next_tx = ual_seq_inc(seq);
    /* the replay buffer keeps what the DL made, before PL corruption */
    memcpy(s->rb[seq].body, flit + 2, RB_BODY);
    s->rb[seq].meta = wi->meta;
    uint64_t frame = g->frame + 1;
    g->st.payload[s->id]++;
    phy_emit_flit(g, s, flit, wi, true);
    dl_after_sent(g, s, frame);
    return;
  }
  struct ual_dllp d = { .type = pm_dllp(s) };
  if (fh.replay_cmd == UAL_RC_SEQ) fh.seq = seq_dec(s->next_tx);
  fh.usage = UAL_USAGE_NOP_IDLE;
  phy_emit_nop(g, s, &fh, &d, W_NOP);
}

void rp_step(struct gen *g, struct side *s) {
  rx_process(g, s);
  switch (s->mode) {
  case PL_SILENT: s->t_next = PS_NEVER; return;
  case PL_SCRIPT: phy_emit_script(g, s); return;
  case PL_IDLE: phy_step_idle(g, s); return;
  case PL_HANDSHAKE: step_handshake(g, s); return;
  case PL_NORMAL: emit_normal(g, s); return;
  }
}
