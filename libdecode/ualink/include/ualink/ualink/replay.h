/* The replay tracker's state and steps (ualink/replay.c): Ack/Nak, replays
 * and which payload flits are delivered, per direction. */
#ifndef UALINK_UALINK_REPLAY_H
#define UALINK_UALINK_REPLAY_H

#include <stdint.h>
#include "ualink/ualink/flit.h"
#include "ualink/ualink/dl_limits.h"
#include "ualink/ualink/timeline.h"
#include "ualink/core/rules.h"

/* What happened to a payload flit (digest §2.1, PCIe flit replay). */
#define UAL_RP_VERDICTS(X) \
  X(NONE,      "none")        /* not a payload flit */ \
  X(DELIVER,   "delivered")   /* valid, in order: to the unpacker */ \
  X(HELD,      "held")        /* valid but ahead of a lost flit: kept for a selective replay */ \
  X(DUPLICATE, "duplicate")   /* already delivered: discarded */ \
  X(UNPLACED,  "unplaced")    /* implicit number after a loss: cannot be placed */ \
  X(INVALID,   "invalid")     /* FEC/CRC failure */ \
  X(DISCARDED, "discarded")   /* ahead of a lost flit while a go-back-N replay is due */ \
  X(DROPPED,   "dropped")     /* after containment, or the hold buffer is full */

enum ual_rp_verdict {
#define UAL_X_(e, n) UAL_RPV_##e,
  UAL_RP_VERDICTS(UAL_X_)
#undef UAL_X_
  UAL_RPV_COUNT
};
const char *ual_rp_verdict_name(unsigned v);

/* Flits kept per direction while a lost flit is replayed selectively. 512
 * covers the 511-flit unacknowledged limit; a smaller power of two trades
 * completeness for a smaller struct. */
#ifndef UAL_REPLAY_HOLD
#define UAL_REPLAY_HOLD 512u
#endif

struct ual_hold_slot {
  uint64_t frame, ts_ns;
  uint16_t seq;
  uint8_t used, is_new;
  uint8_t flit[UAL_CRC_OFFSET];   /* bytes 0..241: all the unpacker reads */
};

struct ual_replay_stats {
  uint64_t payload, delivered, held, released, duplicates, unplaced, invalid, discarded, dropped;
  uint64_t gaps, naks, naks_selective, replays, replays_selective, replayed_flits;
  uint64_t acks, ack_lat_n, ack_lat_ns_sum, ack_lat_ns_max, ack_lat_flits_sum, ack_lat_flits_max;
  uint32_t unacked_max;
};

/* The flits one side sends, and the Acks/Naks its partner returns for them. */
struct ual_replay_dir {
  uint64_t flits;                 /* flit records of this direction */
  /* numbering, as a receiver does it */
  uint8_t num_known, prev_bad;
  uint16_t last_seq;
  /* transmitter */
  uint8_t tx_known;               /* 0 no, 1 learned, 2 trusted (advanced since, or from a NOP) */
  uint8_t ack_known;
  uint16_t tx_max, acked;
  uint32_t noprog;                /* flits while outstanding without Ack progress */
  uint64_t timer_flit;            /* flits when noprog reached the replay timeout */
  uint8_t limit_flagged, timeout_flagged;
  uint8_t nak_armed;              /* the next Nak for these flits is a new Nak event */
  uint8_t rp_expect;              /* 0, 1 = go-back-N, 2 = selective: a replay is due */
  uint8_t rp_active;              /* a go-back-N replay is running */
  uint8_t rp_timer;               /* the expected replay is the replay timer's (no Nak) */
  uint16_t rp_start, rp_next;
  uint64_t rp_frame;              /* the Nak (or timeout) that asked for it */
  /* receiver */
  uint8_t exp_known;              /* 0 no, 1 learned from the first flit (provisional), 2 confirmed */
  uint16_t next_exp, exp_first;   /* exp_first: where the provisional run began */
  uint8_t rx_break;               /* next_exp was relearned: the next delivery does not follow the last */
  /* A provisional stream relearned at a step back (a replay of flits seen
   * since the capture began): the run seen before was delivered then, so
   * its replayed copies are not delivered again. */
  uint16_t seen_lo, seen_n;
  uint8_t seen_broken;            /* the stream was broken (replay from before the run) since */
  uint8_t rejoin;                 /* the run's copies skipped: the next delivery continues it */
  uint16_t bad_pending;           /* invalid flits since the last in-order delivery */
  uint8_t discard;                /* a go-back-N Nak is out: flits ahead are discarded */
  /* explicit sequence number groups: run length, -1 = boundary unknown */
  int16_t run;
  uint8_t after_idle;             /* the last valid flit was an IDLE flit (NOP flits aside) */
  /* containment (DL-AFTER-CONTAIN) */
  uint8_t contained, contain_known, contain_flagged;
  uint16_t contain_seq;
  uint64_t contain_frame;
  /* Ack latency: one flit measured at a time */
  uint8_t probe;
  uint16_t probe_seq;
  uint64_t probe_ts, probe_flit;
  struct ual_replay_stats st;
  uint16_t n_held;
  struct ual_hold_slot hold[UAL_REPLAY_HOLD];
};

struct ual_replay { struct ual_replay_dir d[2]; };

struct ual_replay_out {
  uint8_t verdict;                /* enum ual_rp_verdict */
  uint8_t placed;                 /* seq is known */
  uint8_t is_new;                 /* first transmission */
  uint8_t replay;                 /* a retransmission */
  uint8_t resync;                 /* delivered, but not after the flit delivered before it */
  uint8_t save;                   /* with resync: keep the stream as it stood, rejoin returns to it */
  uint8_t rejoin;                 /* delivered after the replayed copies of a run delivered before:
                                     1 the stream goes on, 2 it goes on from where save kept it */
  uint8_t handshake;              /* explicit 1 after IDLE flits: the link's numbering starts */
  uint16_t seq;
  struct ual_hold_slot *held;     /* HELD: the slot taken, all but its flit bytes filled */
};

void ual_replay_init(struct ual_replay *r);
/* One flit record of direction dir: its Ack/Nak (about the other
 * direction's flits) and its own sequence number. */
void ual_replay_step(struct ual_replay *r, unsigned dir, const struct ual_flit_info *fi,
                     const struct ual_when *w, struct ual_replay_out *o, struct ual_events *ev,
                     struct ual_findings *f);
/* After a DELIVER verdict: the next held flit that is now in order, or
 * NULL. The slot stays valid until the next call on r. */
const struct ual_hold_slot *ual_replay_release(struct ual_replay *r, unsigned dir);
/* Records were lost: relearn this direction's numbering. */
void ual_replay_forget(struct ual_replay *r, unsigned dir);
/* The port sending direction dir went down or retrains: its numbering is
 * relearned, containment ends. */
void ual_replay_reset(struct ual_replay *r, unsigned dir);
/* Both ports reached L0 from Configuration after their reset: numbering
 * starts at 1 with nothing acknowledged in each direction not yet sending. */
void ual_replay_link_up(struct ual_replay *r);
/* Payload flits sent and not yet acknowledged, or -1 when unknown. */
int ual_replay_unacked(const struct ual_replay *r, unsigned dir);

#endif
