/* Replay tracker (digest §2.1; PCIe 6.x flit replay adopted by §3.3.5).
 *
 * Per direction, two views of the same flits:
 *
 *   transmitter   tx_max (newest sequence number sent), acked (from the
 *                 partner's Ack/Nak headers), replays and their start
 *   receiver      next_exp: flits are delivered in order and once; flits
 *                 ahead of a lost one are held (selective replay) or
 *                 discarded (go-back-N), duplicates are dropped
 *
 * Sequence numbers of payload flits are explicit (Replay Command 00b) or
 * implicit (previous + 1; +2 when the flit before was lost and Prior Flit
 * Type says it was a payload flit). A capture that starts mid-stream learns
 * the numbers from the first flits instead of flagging them. */
#include "ualink/ualink/replay.h"

#include <stddef.h>
#include <string.h>

const char *ual_rp_verdict_name(unsigned v) {
  static const char *const n[UAL_RPV_COUNT] = {
#define UAL_X_(e, s) s,
    UAL_RP_VERDICTS(UAL_X_)
#undef UAL_X_
  };
  return v < UAL_RPV_COUNT ? n[v] : "?";
}

static char side_name(unsigned dir) { return dir ? 'B' : 'A'; }

/* ---- hold buffer ---- */

static struct ual_hold_slot *hold_slot(struct ual_replay_dir *d, uint16_t seq) {
  return &d->hold[seq % UAL_REPLAY_HOLD];
}

static void hold_clear(struct ual_replay_dir *d) {
  for (unsigned i = 0; d->n_held && i < UAL_REPLAY_HOLD; i++)
    if (d->hold[i].used) { d->hold[i].used = 0; d->n_held--; }
  d->n_held = 0;
}

/* Forgets everything learned about the direction but its counters. */
static void dir_clear(struct ual_replay_dir *d) {
  struct ual_replay_stats st = d->st;
  uint64_t flits = d->flits;
  hold_clear(d);
  memset(d, 0, offsetof(struct ual_replay_dir, n_held));
  d->st = st;
  d->flits = flits;
  d->run = -1;
  d->nak_armed = 1;
}

void ual_replay_init(struct ual_replay *r) {
  memset(r, 0, sizeof *r);
  dir_clear(&r->d[0]);
  dir_clear(&r->d[1]);
}

void ual_replay_forget(struct ual_replay *r, unsigned dir) {
  struct ual_replay_dir *peer = &r->d[dir ^ 1];
  dir_clear(&r->d[dir]);
  /* Acks and Naks for the partner's flits were lost with the records */
  peer->noprog = 0;
  peer->nak_armed = 1;
  peer->rp_expect = 0;
  peer->rp_timer = 0;
  peer->probe = 0;
}

void ual_replay_reset(struct ual_replay *r, unsigned dir) { dir_clear(&r->d[dir & 1]); }

/* After link-up both transmitters number from 1 and nothing is
 * acknowledged (NEXT_TX_SEQ = 1, ACKD_SEQ = 0): an Ack is then judged
 * against what was really sent, not learned. */
static void numbering_start(struct ual_replay_dir *d) {
  if (d->tx_known || d->ack_known) return;   /* numbering already running */
  d->tx_known = 2;
  d->tx_max = 0;
  d->ack_known = 1;
  d->acked = 0;
  if (!d->exp_known) {
    d->exp_known = 2;
    d->next_exp = 1;
  }
}

void ual_replay_link_up(struct ual_replay *r) {
  numbering_start(&r->d[0]);
  numbering_start(&r->d[1]);
}

/* A receiver's expected number learned from the first flit seen is
 * provisional (1): the capture may have begun inside a replay or while
 * flits were held or discarded. It is confirmed (2) by a Nak, which
 * carries NEXT_EXPECTED_RX_SEQ - 1, or by an Ack of a flit delivered since
 * it was learned (the receiver accepted the same run in order). */
static void rx_learn(struct ual_replay_dir *t, uint16_t n, bool nak, bool sel) {
  if (!t->exp_known && nak) {         /* before any flit: the Nak says what comes next */
    t->exp_known = 1;
    t->next_exp = t->exp_first = ual_seq_inc(n);
    t->discard = !sel;
    return;
  }
  if (t->exp_known != 1) return;
  if (nak && t->next_exp == ual_seq_inc(n)) {
    t->exp_known = 2;                 /* what was seen agrees */
    return;
  }
  if (nak && (t->bad_pending || t->n_held) && ual_seq_dist(t->exp_first, ual_seq_inc(n)) <= UAL_SEQ_MAX_UNACKED) {
    t->exp_known = 2;                 /* the lost flit was seen: held flits stay */
    return;
  }
  if (nak) {
    /* the run delivered from where the Nak asks on: its replay is not delivered again */
    uint16_t e = ual_seq_inc(n);
    uint16_t lo = ual_seq_dist(e, t->exp_first) <= UAL_SEQ_MAX_UNACKED ? t->exp_first : e;
    unsigned seen = ual_seq_dist(lo, t->next_exp);
    if (seen && seen <= UAL_SEQ_MAX_UNACKED) {
      t->seen_lo = lo;
      t->seen_n = (uint16_t)seen;
      t->seen_broken = t->rejoin = 0;
    }
    /* 3: flits between the lost one and the run seen were sent before the
     * capture: the first jump after the replay is not a gap */
    t->exp_known = ual_seq_dist(ual_seq_inc(n), t->exp_first) <= UAL_SEQ_MAX_UNACKED ? 3 : 2;
    if (t->next_exp != ual_seq_inc(n)) t->rx_break = 1;
    t->next_exp = t->exp_first = ual_seq_inc(n);
    t->discard = !sel;                /* go-back-N: the receiver discards until the replay */
    hold_clear(t);
    return;
  }
  unsigned run = ual_seq_dist(t->exp_first, t->next_exp);
  if (run && ual_seq_dist(t->exp_first, n) < run) t->exp_known = 2;
}

static int outstanding(const struct ual_replay_dir *d) {
  return d->ack_known && d->tx_known ? (int)ual_seq_dist(d->acked, d->tx_max) : -1;
}

int ual_replay_unacked(const struct ual_replay *r, unsigned dir) { return outstanding(&r->d[dir & 1]); }

/* ---- Acks and Naks the partner returns for the flits of t ---- */

static void ack_latency(struct ual_replay_dir *t, uint16_t old_acked, unsigned adv, const struct ual_when *w) {
  if (!t->probe || ual_seq_dist(old_acked, t->probe_seq) == 0 || ual_seq_dist(old_acked, t->probe_seq) > adv)
    return;
  t->probe = 0;
  t->st.ack_lat_n++;
  uint64_t fl = t->flits - t->probe_flit;
  t->st.ack_lat_flits_sum += fl;
  if (fl > t->st.ack_lat_flits_max) t->st.ack_lat_flits_max = fl;
  if (w->ts_ns && t->probe_ts && w->ts_ns >= t->probe_ts) {
    uint64_t ns = w->ts_ns - t->probe_ts;
    t->st.ack_lat_ns_sum += ns;
    if (ns > t->st.ack_lat_ns_max) t->st.ack_lat_ns_max = ns;
  }
}

static void nak_event(struct ual_replay_dir *t, unsigned tdir, uint16_t n, bool sel, const struct ual_when *w,
                      struct ual_events *ev, struct ual_findings *f) {
  ual_findings_add(f, UAL_R_RP_NAK, -1, "%s Nak %u for %c's flits: %s %u%s", sel ? "selective" : "go-back-N", n,
                   side_name(tdir), sel ? "resend" : "replay from", ual_seq_inc(n), t->nak_armed ? "" : " (repeated)");
  if (!t->nak_armed) return;          /* the rest of a group of Naks */
  t->nak_armed = 0;
  t->rp_timer = 0;
  if (sel) t->st.naks_selective++;
  else t->st.naks++;
  ual_events_add(ev, w, UAL_TEV_NAK, tdir ^ 1, n, sel, "%c Naks %c's flits after %u (%s)", side_name(tdir ^ 1),
                 side_name(tdir), n, sel ? "selective" : "go-back-N");
  /* Due even when every flit seen is acknowledged: the lost flit N+1 was
   * not placed, and the transmitter may send later flits before the Nak
   * reaches it. A first transmission of N+1 after the Nak serves it. */
  t->rp_expect = sel ? 2 : 1;
  t->rp_start = ual_seq_inc(n);
  t->rp_frame = w->frame;
  if (!sel) {                         /* the receiver discards until the replay */
    t->discard = 1;
    hold_clear(t);
  }
}

static void ack_nak(struct ual_replay_dir *t, unsigned tdir, const struct ual_fh *fh, const struct ual_when *w,
                    struct ual_events *ev, struct ual_findings *f) {
  uint16_t n = fh->seq;
  bool nak = fh->replay_cmd == UAL_RC_NAK || fh->replay_cmd == UAL_RC_NAK_SELECTIVE;
  if (n == 0) return;                 /* Ack/Nak 0 is ignored */
  if (!t->ack_known) {
    t->ack_known = 1;
    t->acked = n;
    /* Mid-stream, an Ack ahead of the flits seen Acks flits sent and
     * received before the capture began (it started inside a replay). */
    if (t->tx_known && ual_seq_dist(t->tx_max, n) >= 1 && ual_seq_dist(t->tx_max, n) <= UAL_SEQ_MAX_UNACKED) {
      t->tx_max = n;
      if (t->exp_known && ual_seq_dist(t->next_exp, n) <= UAL_SEQ_MAX_UNACKED) t->next_exp = ual_seq_inc(n);
    }
  } else if (t->tx_known == 2 && ual_seq_dist(t->tx_max, n) >= 1 && ual_seq_dist(t->tx_max, n) <= UAL_SEQ_MAX_UNACKED) {
    ual_findings_add(f, UAL_R_RP_ACK_AHEAD, -1, "%s %u for %c's flits, but %c has sent only up to %u",
                     nak ? "Nak" : "Ack", n, side_name(tdir), side_name(tdir), t->tx_max);
    return;
  } else {
    unsigned adv = ual_seq_dist(t->acked, n);
    int out = outstanding(t);
    if (adv > 0 && (out < 0 || adv <= (unsigned)out)) {
      uint16_t old = t->acked;
      t->acked = n;
      t->noprog = 0;
      t->rp_timer = 0;
      t->st.acks++;
      ack_latency(t, old, adv, w);
      out = outstanding(t);
      if (out >= 0 && out <= (int)UAL_SEQ_MAX_UNACKED) t->limit_flagged = 0;
      if (t->rp_expect && out >= 0 &&
          (ual_seq_dist(t->acked, t->rp_start) == 0 || ual_seq_dist(t->acked, t->rp_start) > (unsigned)out))
        t->rp_expect = 0;             /* what the replay would resend is acknowledged */
    }
  }
  rx_learn(t, n, nak, fh->replay_cmd == UAL_RC_NAK_SELECTIVE);
  if (nak) nak_event(t, tdir, n, fh->replay_cmd == UAL_RC_NAK_SELECTIVE, w, ev, f);
}

/* ---- the transmitter: new flits, replays ---- */

static void replay_start(struct ual_replay_dir *d, unsigned dir, uint16_t seq, const struct ual_when *w,
                         struct ual_events *ev, struct ual_findings *f) {
  bool sel = d->rp_expect == 2;
  if (d->rp_timer) {                  /* the transmitter's replay timer fired */
    d->rp_timer = 0;
    ual_findings_add(f, UAL_R_RP_ACK_TIMEOUT, -1, "replay without a Nak %llu flit(s) after %u flit times without Ack progress",
                     (unsigned long long)(d->flits - d->timer_flit), UAL_REPLAY_TIMEOUT_FLITS);
  }
  if (d->rp_expect) {
    ual_findings_add(f, UAL_R_RP_REPLAY, -1, "%s replay from %u (asked at frame %llu)", sel ? "selective" : "go-back-N",
                     seq, (unsigned long long)d->rp_frame);
    if (seq != d->rp_start)
      ual_findings_add(f, UAL_R_RP_REPLAY_WRONG_START, -1, "%s replay %s %u, the Nak at frame %llu asked for %u",
                       sel ? "selective" : "go-back-N", sel ? "resends" : "starts at", seq,
                       (unsigned long long)d->rp_frame, d->rp_start);
  } else {
    ual_findings_add(f, UAL_R_RP_REPLAY, -1, "replay from %u without a Nak seen (replay timer, or a lost Nak)", seq);
  }
  ual_events_add(ev, w, UAL_TEV_REPLAY, dir, seq, sel, "%c replays from %u (%s)", side_name(dir), seq,
                 sel ? "selective" : "go-back-N");
  if (sel) d->st.replays_selective++;
  else d->st.replays++;
  d->rp_expect = 0;
  d->rp_active = !sel;
  d->rp_next = ual_seq_inc(seq);
}

static void tx_side(struct ual_replay_dir *d, unsigned dir, uint16_t seq, const struct ual_when *w,
                    struct ual_replay_out *o, struct ual_events *ev, struct ual_findings *f) {
  unsigned ahead = d->tx_known ? ual_seq_dist(d->tx_max, seq) : 1;
  if (ahead >= 1 && ahead <= UAL_SEQ_MAX_UNACKED) {
    d->tx_known = d->tx_known ? 2 : 1;
    d->tx_max = seq;
    d->rp_active = 0;
    o->is_new = 1;
    if (d->rp_expect && seq == d->rp_start) d->rp_expect = 0;
    int out = outstanding(d);
    if (out > (int)d->st.unacked_max) d->st.unacked_max = (uint32_t)out;
    if (out > (int)UAL_SEQ_MAX_UNACKED && !d->limit_flagged) {
      d->limit_flagged = 1;
      ual_findings_add(f, UAL_R_RP_UNACKED_LIMIT, -1, "%d payload flits unacknowledged (last Ack %u), limit 511", out,
                       d->acked);
    }
    if (!d->probe) {
      d->probe = 1;
      d->probe_seq = seq;
      d->probe_ts = w->ts_ns;
      d->probe_flit = d->flits;
    }
    return;
  }
  o->replay = 1;
  d->st.replayed_flits++;
  if (d->rp_expect || !d->rp_active || seq != d->rp_next) replay_start(d, dir, seq, w, ev, f);
  else d->rp_next = ual_seq_inc(seq);
  if (seq == d->tx_max) d->rp_active = 0;
}

/* ---- the receiver: deliver, hold, discard ---- */

static void rx_side(struct ual_replay_dir *d, unsigned dir, uint16_t seq, const struct ual_flit_info *fi,
                    const struct ual_when *w, struct ual_replay_out *o, struct ual_findings *f) {
  if (!d->exp_known) {
    d->exp_known = 1;
    d->next_exp = d->exp_first = seq;
  }
  unsigned a = ual_seq_dist(d->next_exp, seq);
  if (a == 0 && d->seen_n) {
    unsigned off = ual_seq_dist(d->seen_lo, seq);
    if (off < d->seen_n) {              /* delivered when first seen */
      if (off + 1 == d->seen_n) {
        d->seen_n = 0;
        d->rejoin = d->seen_broken ? 2 : 1;
        d->rx_break = 0;
      }
      d->next_exp = ual_seq_inc(seq);
      o->verdict = UAL_RPV_DUPLICATE;
      d->st.duplicates++;
      return;
    }
    if (off <= UAL_SEQ_MAX_UNACKED) d->seen_n = 0;  /* past the run; before it, it is still to come */
  }
  if (a == 0) {
    if (d->exp_known == 3 && seq != d->exp_first) d->exp_known = 2;
    o->resync = d->rx_break;
    o->rejoin = d->rejoin;
    if (o->resync && d->seen_n && !d->seen_broken) o->save = d->seen_broken = 1;
    d->rx_break = d->rejoin = 0;
    d->next_exp = ual_seq_inc(seq);
    d->bad_pending = 0;
    d->discard = 0;
    o->verdict = UAL_RPV_DELIVER;
    d->st.delivered++;
    return;
  }
  /* Provisional: a step back may be a replay the receiver needs (it
   * discarded or held what was seen before), a step forward after a
   * single flit may follow a selective resend; either relearns the stream
   * from this flit. A step forward after two flits in a row is a gap. */
  bool learn = d->exp_known == 1 && !d->bad_pending && !d->discard &&
               (a > UAL_SEQ_MAX_UNACKED || ual_seq_dist(d->exp_first, d->next_exp) < 2);
  if (learn || (d->exp_known == 3 && !d->rp_expect && !d->bad_pending)) {
    unsigned seen = ual_seq_dist(d->exp_first, d->next_exp);
    if (learn && a > UAL_SEQ_MAX_UNACKED && seen <= UAL_SEQ_MAX_UNACKED) {
      d->seen_lo = d->exp_first;
      d->seen_n = (uint16_t)seen;
      d->seen_broken = d->rejoin = 0;
      if (ual_seq_dist(d->exp_first, seq) < seen) {  /* a replay of the run seen */
        hold_clear(d);
        d->next_exp = seq;
        d->exp_first = d->seen_lo;
        return rx_side(d, dir, seq, fi, w, o, f);
      }
    }
    hold_clear(d);
    d->next_exp = ual_seq_inc(seq);
    d->exp_first = seq;
    o->verdict = UAL_RPV_DELIVER;
    o->resync = 1;
    if (d->seen_n && !d->seen_broken) o->save = d->seen_broken = 1;
    d->rx_break = 0;
    d->st.delivered++;
    if (d->exp_known == 3) d->exp_known = 2;
    return;
  }
  if (a > UAL_SEQ_MAX_UNACKED) {
    o->verdict = UAL_RPV_DUPLICATE;
    d->st.duplicates++;
    ual_findings_add(f, UAL_R_RP_DUPLICATE, -1, "%c seq %u already delivered (next expected %u): discarded",
                     side_name(dir), seq, d->next_exp);
    return;
  }
  if (d->discard) {
    o->verdict = UAL_RPV_DISCARDED;
    d->st.discarded++;
    return;
  }
  if (!d->bad_pending && !d->rp_expect && !d->rp_active) {
    ual_findings_add(f, UAL_R_RP_SEQ_GAP, -1, "%c seq %u, expected %u: %u flit(s) missing without a Nak",
                     side_name(dir), seq, d->next_exp, a);
    d->st.gaps++;
    hold_clear(d);
    o->resync = 1;
    d->next_exp = ual_seq_inc(seq);
    o->verdict = UAL_RPV_DELIVER;
    d->st.delivered++;
    return;
  }
  struct ual_hold_slot *s = hold_slot(d, seq);
  if (s->used && s->seq == seq) {
    o->verdict = UAL_RPV_DUPLICATE;
    d->st.duplicates++;
    ual_findings_add(f, UAL_R_RP_DUPLICATE, -1, "%c seq %u already received (held for frame %llu): discarded",
                     side_name(dir), seq, (unsigned long long)s->frame);
    return;
  }
  if (s->used) {
    o->verdict = UAL_RPV_DROPPED;
    d->st.dropped++;
    return;
  }
  s->used = 1;
  s->seq = seq;
  s->frame = w->frame;
  s->ts_ns = w->ts_ns;
  s->is_new = o->is_new;
  o->held = s; /* its bytes: the caller's to copy, from wherever the flit is */
  d->n_held++;
  d->st.held++;
  o->verdict = UAL_RPV_HELD;
}

const struct ual_hold_slot *ual_replay_release(struct ual_replay *r, unsigned dir) {
  struct ual_replay_dir *d = &r->d[dir & 1];
  if (!d->n_held || !d->exp_known) return NULL;
  struct ual_hold_slot *s = hold_slot(d, d->next_exp);
  if (!s->used || s->seq != d->next_exp) return NULL;
  s->used = 0;
  d->n_held--;
  d->next_exp = ual_seq_inc(d->next_exp);
  d->st.released++;
  d->st.delivered++;
  return s;
}

/* ---- numbering ---- */

/* The flit's own number: explicit, or implicit from the last one. */
static bool place(struct ual_replay_dir *d, const struct ual_fh *fh, uint16_t *seq) {
  if (fh->replay_cmd == UAL_RC_SEQ) {
    *seq = fh->seq;
    return fh->seq != 0;
  }
  if (!d->num_known) return false;
  *seq = ual_seq_add(d->last_seq, d->prev_bad && fh->prior_payload ? 2 : 1);
  return true;
}

/* In normal exchange explicit numbers come in groups of 3 between Acks/Naks. */
static void group_check(struct ual_replay_dir *d, unsigned dir, const struct ual_flit_info *fi, struct ual_findings *f) {
  if (fi->kind == UAL_FK_IDLE) { d->run = -1; return; }
  if (fi->kind != UAL_FK_PAYLOAD && fi->kind != UAL_FK_NOP) return;
  if (fi->fh.replay_cmd == UAL_RC_SEQ) {
    if (d->run >= 0 && d->run < 30000) d->run++;
    return;
  }
  if (d->run > 0 && d->run % 3)
    ual_findings_add(f, UAL_R_RP_EXPLICIT_GROUP, -1, "%c sent %d explicit sequence number(s) before this %s, not a group of 3",
                     side_name(dir), d->run, ual_replay_cmd_name((enum ual_replay_cmd)fi->fh.replay_cmd));
  d->run = 0;
}

/* The replay timer runs in the transmitter and restarts when an Ack
 * reaches it, a wire latency after the capture point saw it: 1500 flit
 * times here are a lower bound. RP-ACK-TIMEOUT is raised where the timer
 * shows, at the replay it triggers (replay_start); a transmitter that
 * still has not replayed after another 1500 flit times gets it then. */
static void timer(struct ual_replay_dir *d, unsigned dir, const struct ual_when *w, struct ual_findings *f) {
  if (outstanding(d) <= 0) { d->noprog = 0; d->rp_timer = 0; return; }
  if (++d->noprog < UAL_REPLAY_TIMEOUT_FLITS) return;
  d->noprog = 0;
  if (d->rp_timer) {
    d->rp_timer = 0;
    ual_findings_add(f, UAL_R_RP_ACK_TIMEOUT, -1, "%u flit times without Ack progress and no replay, %d of %c's flits outstanding",
                     2 * UAL_REPLAY_TIMEOUT_FLITS, outstanding(d), side_name(dir));
    return;
  }
  d->rp_timer = 1;
  d->timer_flit = d->flits;
  d->rp_expect = 1;                   /* a go-back-N replay is due */
  d->rp_start = ual_seq_inc(d->acked);
  d->rp_frame = w->frame;
}

/* A flit that failed FEC/CRC. An inverted CRC with a correctable FEC is a
 * deliberate containment flit whose header is still good. */
static void invalid_flit(struct ual_replay_dir *d, const struct ual_flit_info *fi, const struct ual_when *w,
                         struct ual_replay_out *o) {
  o->verdict = UAL_RPV_INVALID;
  d->st.invalid++;
  d->run = -1;
  if (fi->crc_inverted && fi->fec.status != UAL_FEC_UNCORRECTABLE && fi->kind == UAL_FK_PAYLOAD) {
    uint16_t seq = 0;
    bool known = place(d, &fi->fh, &seq);
    d->prev_bad = 0;
    if (known) {
      d->last_seq = seq;
      d->num_known = 1;
      o->placed = 1;
      o->seq = seq;
      if (!d->tx_known || (ual_seq_dist(d->tx_max, seq) >= 1 && ual_seq_dist(d->tx_max, seq) <= UAL_SEQ_MAX_UNACKED)) {
        d->tx_max = seq;
        d->tx_known = d->tx_known ? 2 : 1;
        o->is_new = 1;
      }
    }
    if (!d->contained) {
      d->contained = 1;
      d->contain_known = known;
      d->contain_seq = seq;
      d->contain_frame = w->frame;
    }
    return;
  }
  if (d->prev_bad) d->num_known = 0;  /* two lost in a row: Prior Flit Type cannot tell */
  d->prev_bad = 1;
  if (d->bad_pending < UINT16_MAX) d->bad_pending++;
}

void ual_replay_step(struct ual_replay *r, unsigned dir, const struct ual_flit_info *fi, const struct ual_when *w,
                     struct ual_replay_out *o, struct ual_events *ev, struct ual_findings *f) {
  struct ual_replay_dir *me = &r->d[dir & 1], *peer = &r->d[(dir & 1) ^ 1];
  const struct ual_fh *fh = &fi->fh;
  memset(o, 0, sizeof *o);
  me->flits++;
  timer(me, dir, w, f);
  bool after_idle = me->after_idle;
  me->after_idle = fi->valid && (fi->kind == UAL_FK_IDLE || (fi->kind == UAL_FK_NOP && after_idle));
  if (!fi->valid) {
    invalid_flit(me, fi, w, o);
    return;
  }
  if (fi->kind == UAL_FK_PAYLOAD || fi->kind == UAL_FK_NOP) {
    if (fh->replay_cmd != UAL_RC_SEQ) ack_nak(peer, dir ^ 1, fh, w, ev, f);
    if (fh->replay_cmd != UAL_RC_NAK && fh->replay_cmd != UAL_RC_NAK_SELECTIVE) peer->nak_armed = 1;
  }
  group_check(me, dir, fi, f);

  switch (fi->kind) {
  case UAL_FK_IDLE:                   /* no Prior Flit Type: a loss just before stays unplaced */
    if (me->prev_bad) me->num_known = 0;
    me->prev_bad = 0;
    return;
  case UAL_FK_NOP:                    /* consumes no number; an explicit one is NEXT_TX_SEQ - 1 */
    if (me->prev_bad && me->num_known && fh->prior_payload) me->last_seq = ual_seq_inc(me->last_seq);
    me->prev_bad = 0;
    if (fh->replay_cmd == UAL_RC_SEQ && fh->seq != 0) {
      me->last_seq = fh->seq;
      me->num_known = 1;
      if (!me->tx_known || (ual_seq_dist(me->tx_max, fh->seq) >= 1 &&
                            ual_seq_dist(me->tx_max, fh->seq) <= UAL_SEQ_MAX_UNACKED))
        me->tx_max = fh->seq;
      me->tx_known = 2;
    }
    return;
  case UAL_FK_PAYLOAD:
    break;
  default:
    me->prev_bad = 0;
    return;
  }

  /* IDLE flits, then explicit 1: the sequence-number handshake after a
   * link-up, so what the partner Acks is judged from here */
  if (after_idle && fh->replay_cmd == UAL_RC_SEQ && fh->seq == 1) {
    o->handshake = 1;
    numbering_start(me);
  }
  uint16_t seq = 0;
  bool placed = place(me, fh, &seq);
  me->prev_bad = 0;
  me->st.payload++;
  if (!placed) {
    me->num_known = 0;
    o->verdict = UAL_RPV_UNPLACED;
    me->st.unplaced++;
    return;
  }
  me->last_seq = seq;
  me->num_known = 1;
  o->placed = 1;
  o->seq = seq;
  tx_side(me, dir, seq, w, o, ev, f);
  if (me->contained) {
    bool beyond = me->contain_known ? ual_seq_dist(me->contain_seq, seq) >= 1 &&
                                          ual_seq_dist(me->contain_seq, seq) <= UAL_SEQ_MAX_UNACKED
                                    : o->is_new;
    if (beyond && !me->contain_flagged) {
      me->contain_flagged = 1;
      ual_findings_add(f, UAL_R_DL_AFTER_CONTAIN, -1, "new payload flit %u after the containment flit at frame %llu",
                       seq, (unsigned long long)me->contain_frame);
    }
    o->verdict = UAL_RPV_DROPPED;     /* the receiver drops everything after containment */
    me->st.dropped++;
    return;
  }
  rx_side(me, dir, seq, fi, w, o, f);
}
