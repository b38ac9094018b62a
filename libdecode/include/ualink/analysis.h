/* Stateful analysis: replay/Ack-Nak, LTSSM and power, DL message protocols
 * and UART streams, tied together by struct ual_analyzer.
 *
 * Every tracker is a plain struct (no pointers, no heap): copy it to take a
 * snapshot, keep stepping the copy and the original independently.
 *
 *   record bytes --> ual_analyzer_step --------------------------------+
 *                      | parse + stateless decode (like ual_decode_record)
 *                      | LTSSM <- ordered sets, link events, IDLE/NOP flits, DLLPs
 *                      | replay: which payload flits are delivered
 *                      |   (valid, in order, once) --> unpacker per direction
 *                      |        --> DL message protocols, UART streams
 *                      +--> out->findings (rules.md IDs), ev (timeline)
 *
 * Typical use (CLI):
 *
 *   static struct ual_analyzer a;          // large: keep it off the stack
 *   struct ual_rec_result r;
 *   struct ual_events ev;
 *   ual_analyzer_init(&a);
 *   ual_events_init(&ev);                  // optional callbacks: ev.delivered, ev.vdp
 *   for each record:
 *     ual_events_clear(&ev);
 *     ual_analyzer_step(&a, rec, len, frame, ts_ns, &r, &ev);
 *     print r (as from ual_decode_record; r.unp holds this flit's delivered
 *     TL flits and DL messages), r.findings, and ev.v[0..ev.n) for --timeline
 *   ual_analyzer_finish(&a, &end_findings, &ev);   // end-of-capture checks
 *   ual_analyzer_summary(&a, &sum);                // state and --stats totals
 *
 * Wireshark: run the analyzer over the capture once in order and keep per
 * frame what it produced (findings, events) plus a struct
 * ual_analysis_summary (small) for "state after this frame". The analyzer
 * itself is about 270 KB (mostly the selective-replay hold buffers, see
 * UAL_REPLAY_HOLD): copies suit sparse checkpoints (TUI seek), not one per
 * frame.
 *
 * Flits held for a selective replay are unpacked when the replay releases
 * them: their TL flits and messages reach ev->delivered and the trackers
 * then, and their findings land on the releasing record.
 *
 * Digest §7: state the capture has not shown is unknown and rules that
 * depend on it are not raised. Sequence numbers and Ack state are learned
 * from the first flits; TL flit boundaries from the first flit whose SH0
 * starts no TL flit (DL messages are decoded before that); channel state
 * from negotiations, or from TL/UART traffic (which shows a channel online);
 * UART credits and VDP boundaries from channel 4 going online or a stream
 * reset. A link-up seen in the capture (training) sets everything to its
 * reset value: channels offline, 2.5 GT/s, the trained width, L0.
 */
#ifndef UALINK_ANALYSIS_H
#define UALINK_ANALYSIS_H

#include <stdint.h>
#include <stdbool.h>
#include "decode.h"

/* ---------------------------------------------------------------- common */

/* Tri-state for channel and negotiated values. */
#define UAL_UNKNOWN (-1)

/* Sequence numbers: 1..1023, wrapping 1023 -> 1, arithmetic modulo 1023 (digest §2.1). */
#define UAL_SEQ_MOD          1023u
#define UAL_SEQ_MAX_UNACKED  511u
#define UAL_REPLAY_TIMEOUT_FLITS 1500u
/* (Written without division: these run several times per flit.) */
static inline uint16_t ual_seq_add(uint16_t s, unsigned n) {
  unsigned v = (s ? s : UAL_SEQ_MOD) + (n < UAL_SEQ_MOD ? n : n % UAL_SEQ_MOD);
  while (v > UAL_SEQ_MOD) v -= UAL_SEQ_MOD;
  return (uint16_t)v;
}
static inline uint16_t ual_seq_inc(uint16_t s) { return s >= UAL_SEQ_MOD ? 1 : (uint16_t)(s + 1); }
/* Steps from a forward to b, 0..1022 (a and b in 0..1023, 1023 = 0). */
static inline unsigned ual_seq_dist(uint16_t a, uint16_t b) {
  int ra = a >= UAL_SEQ_MOD ? (int)(a - UAL_SEQ_MOD) : a, rb = b >= UAL_SEQ_MOD ? (int)(b - UAL_SEQ_MOD) : b;
  int d = rb - ra;
  return (unsigned)(d < 0 ? d + (int)UAL_SEQ_MOD : d);
}

/* Time limits (digest §3). */
#define UAL_RESPONSE_NS        1000u       /* basic/control response, rate Ack */
#define UAL_PENDING_NS         10000000u   /* request owed after Decision Pending */
#define UAL_UART_RESET_NS      10000000u   /* Stream Reset Response */
#define UAL_UART_RESET_NOOPS   40u
#define UAL_UART_MAX_SEGS      33u         /* a transport occupies at most 33 segments */
/* The confirming Ack has no deadline in the text; the analyzer gives up
 * after this long (decision: ten response times). */
#define UAL_CONFIRM_NS         10000u
/* Before a response time (1 us + 2 flits + a UART transport of 33
 * segments) has passed since the capture started, an answer may belong to
 * a request sent before it: no DM-UNSOLICITED. Without timestamps: flits. */
#define UAL_HISTORY_FLITS      2048u

/* Where the current record or message is: passed to the trackers. */
struct ual_when {
  uint64_t frame;
  uint64_t ts_ns;     /* start of the record's flit, 0 = no timestamps */
  uint32_t ft_ps;     /* flit time at the record's rate/width, 0 = unknown */
  int16_t segment;    /* -1 when not a message */
  uint8_t is_new;     /* the flit is a first transmission (not a replay) */
};

/* --------------------------------------------------------------- timeline */

/* X(enum suffix, "json name") */
#define UAL_TEV_KINDS(X) \
  X(LTSSM,       "ltssm")        /* a port's LTSSM state; value = enum ual_lt_state */ \
  X(RATE,        "rate")         /* a direction's data rate; value = rate code */ \
  X(WIDTH,       "width")        /* a direction's active lanes */ \
  X(LINK,        "link")         /* value 1 = link up (L0 after training), 0 = link down */ \
  X(CHANNEL,     "channel")      /* value = channel | 8 if online, per partner */ \
  X(NEGOTIATION, "negotiation")  /* mtype, outcome, value = target, latency */ \
  X(L1,          "l1")           /* value 1 = entry, 0 = exit */ \
  X(L0P,         "l0p")          /* value = lanes after a Link Management exchange */ \
  X(NAK,         "nak")          /* value = Nak sequence number, old = 1 if selective */ \
  X(REPLAY,      "replay")       /* value = first replayed sequence number, old = 1 if selective */ \
  X(TL_RATE,     "tl_rate")      /* value = TL rate (50 kHz units) */ \
  X(DEVICE,      "device")       /* value = enum ual_role learned from Device ID */ \
  X(UART_RESET,  "uart_reset")   /* value 1 = requested, 0 = completed */ \
  X(ALT_PROTOCOL,"alt_protocol") /* Configuration done: value 1 = UALink (Modified TS, 20AEh) on both ports */ \
  X(PM,          "pm")           /* a power handshake DLLP: value = DLLP type, old = its Link Management command or UAL_UNKNOWN */

enum ual_tev_kind {
#define UAL_X_(e, n) UAL_TEV_##e,
  UAL_TEV_KINDS(UAL_X_)
#undef UAL_X_
  UAL_TEV_COUNT
};
const char *ual_tev_kind_name(unsigned k);

/* X(enum suffix, "json name") */
#define UAL_NEG_OUTCOMES(X) \
  X(REQUEST,    "request") \
  X(ACK,        "ack") \
  X(NACK,       "nack") \
  X(PENDING,    "pending") \
  X(COMPLETE,   "complete") \
  X(NO_CONFIRM, "no_confirm")

enum ual_neg_outcome {
#define UAL_X_(e, n) UAL_NEG_##e,
  UAL_NEG_OUTCOMES(UAL_X_)
#undef UAL_X_
  UAL_NEG_COUNT
};
const char *ual_neg_outcome_name(unsigned o);

#define UAL_PARTNER_LINK 2   /* ual_tevent.partner when the event is link-wide */

struct ual_tevent {
  uint64_t frame, ts_ns;
  uint8_t kind;         /* enum ual_tev_kind */
  uint8_t partner;      /* 0 = side A, 1 = side B, UAL_PARTNER_LINK */
  uint8_t mtype;        /* NEGOTIATION: enum ual_msg_type */
  uint8_t outcome;      /* NEGOTIATION: enum ual_neg_outcome */
  int32_t value, old;   /* new and previous value; UAL_UNKNOWN when unknown */
  uint64_t latency_ns;  /* NEGOTIATION: since the request; 0 when unknown */
  uint64_t req_frame;   /* NEGOTIATION: frame of the request this event answers or completes */
  char text[96];        /* one timeline line, without frame/time */
};

/* Vendor Defined Packet reassembled from a UART stream (Figure 2-16). */
struct ual_vdp {
  uint64_t frame;       /* where its last DWord was delivered */
  uint8_t dir, stream, type;
  uint16_t vendor_id, n_payload;
  uint32_t value[256];
};

#define UAL_MAX_TEVENTS 24

struct ual_events {
  uint16_t n, dropped;
  struct ual_tevent v[UAL_MAX_TEVENTS];
  /* Optional, called during ual_analyzer_step: every delivered payload flit's
   * unpack result (also held flits released by a replay, whose TL flits are
   * not in out->unp), and every complete VDP. NULL = not wanted. */
  void (*delivered)(void *ctx, unsigned dir, uint64_t flit_frame, const struct ual_unpack_out *u);
  void (*vdp)(void *ctx, const struct ual_vdp *v);
  void *ctx;
};

void ual_events_init(struct ual_events *ev);              /* no callbacks */
static inline void ual_events_clear(struct ual_events *ev) { if (ev) ev->n = ev->dropped = 0; }
/* Appends an event (ev may be NULL) and returns it for the kind-specific
 * fields (NULL when ev is NULL or full); text is printf-style. */
struct ual_tevent *ual_events_add(struct ual_events *ev, const struct ual_when *w, unsigned kind, unsigned partner,
                    int32_t value, int32_t old, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/* ----------------------------------------------------------------- replay */

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
  uint8_t limit_flagged, timeout_flagged;
  uint8_t nak_armed;              /* the next Nak for these flits is a new Nak event */
  uint8_t rp_expect;              /* 0, 1 = go-back-N, 2 = selective: a replay is due */
  uint8_t rp_active;              /* a go-back-N replay is running */
  uint16_t rp_start, rp_next;
  uint64_t rp_frame;              /* the Nak (or timeout) that asked for it */
  /* receiver */
  uint8_t exp_known;
  uint16_t next_exp;
  uint16_t bad_pending;           /* invalid flits since the last in-order delivery */
  uint8_t discard;                /* a go-back-N Nak is out: flits ahead are discarded */
  /* explicit sequence number groups: run length, -1 = boundary unknown */
  int16_t run;
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
  uint16_t seq;
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
/* Payload flits sent and not yet acknowledged, or -1 when unknown. */
int ual_replay_unacked(const struct ual_replay *r, unsigned dir);

/* ------------------------------------------------------------------ LTSSM */

/* X(enum suffix, "name") — PCIe 6.x LTSSM states (digest §5.4). */
#define UAL_LT_STATES(X) \
  X(UNKNOWN,        "Unknown") \
  X(DETECT_QUIET,   "Detect.Quiet") \
  X(DETECT_ACTIVE,  "Detect.Active") \
  X(POLL_ACTIVE,    "Polling.Active") \
  X(POLL_CONFIG,    "Polling.Configuration") \
  X(POLL_COMPLIANCE,"Polling.Compliance") \
  X(CFG_LW_START,   "Configuration.Linkwidth.Start") \
  X(CFG_LW_ACCEPT,  "Configuration.Linkwidth.Accept") \
  X(CFG_LN_WAIT,    "Configuration.Lanenum.Wait") \
  X(CFG_LN_ACCEPT,  "Configuration.Lanenum.Accept") \
  X(CFG_COMPLETE,   "Configuration.Complete") \
  X(CFG_IDLE,       "Configuration.Idle") \
  X(L0,             "L0") \
  X(L0P,            "L0p") \
  X(REC_LOCK,       "Recovery.RcvrLock") \
  X(REC_EQ0,        "Recovery.Equalization.Phase0") \
  X(REC_EQ1,        "Recovery.Equalization.Phase1") \
  X(REC_EQ2,        "Recovery.Equalization.Phase2") \
  X(REC_EQ3,        "Recovery.Equalization.Phase3") \
  X(REC_SPEED,      "Recovery.Speed") \
  X(REC_CFG,        "Recovery.RcvrCfg") \
  X(REC_IDLE,       "Recovery.Idle") \
  X(L1_ENTRY,       "L1.Entry") \
  X(L1_IDLE,        "L1.Idle") \
  X(DISABLED,       "Disabled") \
  X(LPBK_ENTRY,     "Loopback.Entry") \
  X(LPBK_ACTIVE,    "Loopback.Active") \
  X(LPBK_EXIT,      "Loopback.Exit") \
  X(HOT_RESET,      "Hot Reset")

enum ual_lt_state {
#define UAL_X_(e, n) UAL_LT_##e,
  UAL_LT_STATES(UAL_X_)
#undef UAL_X_
  UAL_LT_COUNT
};
const char *ual_lt_state_name(unsigned s);

struct ual_ltssm_port {
  uint8_t state;            /* enum ual_lt_state */
  uint8_t rate, width;      /* this direction's, from record headers and link events; 0 unknown */
  uint8_t mts_seen;         /* Modified TS with vendor 0x20AE in this training */
  uint8_t cfg_seen;         /* TS of this training's Configuration seen */
  uint8_t new_rate;         /* Recovery.Speed passed: next RcvrLock is at a new rate */
  uint8_t lock_ts;          /* TS1 seen in RcvrLock at the new rate */
  uint8_t from_l1;          /* this Recovery exits L1 */
  uint8_t pm_enter, pm_ack; /* PM_Enter_L1 / PM_Request_Ack sent in this L1 entry */
  uint8_t role_flagged;
  uint8_t lm_req;           /* Link Management request outstanding */
  uint32_t idle_sent;
};

struct ual_ltssm {
  struct ual_ltssm_port p[2];
  uint8_t trained_width;    /* lanes when the link came up, 0 unknown */
  uint8_t alt_checked;      /* LT-NO-ALT-PROTOCOL judged for this training */
  uint8_t speed_flagged;    /* rate code LT-SPEED-BEFORE-DL was raised for */
  uint8_t eq_flagged;
  uint8_t up;               /* a port reached L0 after training (LINK event sent) */
  uint8_t in_l1;            /* a port entered L1 (L1 event sent) */
};

/* What the LTSSM needs from the DL trackers. */
struct ual_ltssm_ctx {
  uint8_t role[2];          /* enum ual_role of each side */
  int8_t ch0_online;        /* 1 if channel 0 is online for either partner, 0, UAL_UNKNOWN */
  int8_t speed_allowed;     /* speed code allowed by completed negotiations, UAL_UNKNOWN */
  int8_t width_ready;       /* a completed width negotiation awaits L0p: 1, 0, UAL_UNKNOWN */
  uint8_t l1_agreed;        /* Link State L1 negotiated (L1 entry in progress) */
};

struct ual_ltssm_out {
  uint8_t dl_reset;         /* the DL restarts: link down, detect, polling, hot reset */
  uint8_t link_up;          /* a port entered L0 from Configuration */
  uint8_t l1_entry, l1_exit;/* a port entered L1 / came back to L0 from L1 */
  uint8_t lm_done;          /* a Link Management Ack: width changed by L0p */
};

void ual_ltssm_init(struct ual_ltssm *lt);
/* One decoded record (ordered set, link event or flit) of direction dir. */
void ual_ltssm_step(struct ual_ltssm *lt, unsigned dir, const struct ual_rec_result *r,
                    const struct ual_when *w, const struct ual_ltssm_ctx *ctx,
                    struct ual_ltssm_out *o, struct ual_events *ev, struct ual_findings *f);

/* ----------------------------------------------- DL message protocols */

/* Control negotiation of one requester (digest §3.2). */
enum ual_ctrl_state { UAL_CS_NONE, UAL_CS_SENT, UAL_CS_GRANTED, UAL_CS_WAIT_PEER };

struct ual_ctrl_req {
  uint8_t state;            /* enum ual_ctrl_state */
  uint8_t mtype;            /* enum ual_msg_type */
  uint8_t target, prio;
  uint8_t answered;         /* the partner's answer is in */
  uint8_t conflict;         /* the partner requested the same mtype meanwhile */
  uint8_t late_flagged;
  uint64_t frame, ts_ns;    /* the request's flit */
  uint64_t due_ns;          /* answer (or confirm) due, 0 = no timing */
  uint32_t ft_ps;
  uint32_t uart_segs;       /* DWords the responder's open UART transport still owed then */
  uint64_t grant_frame, grant_ts_ns;
};

struct ual_basic_req {
  uint8_t active, late_flagged;
  uint64_t frame, ts_ns, due_ns;
  uint32_t uart_segs;       /* as in struct ual_ctrl_req */
};

/* The latest negotiation event of a partner (for "state after this frame"). */
struct ual_neg_last {
  uint8_t valid, mtype, outcome, target;   /* enum ual_msg_type, enum ual_neg_outcome */
  uint64_t frame, ts_ns, latency_ns;
};

#define UAL_NBASIC 3      /* TL rate, Device ID, Port Number */
#define UAL_NCTRL  4      /* width, speed, state, channel */

/* What one partner sent, and the state it holds. */
struct ual_dlproto_side {
  uint8_t role_hdr;         /* enum ual_role from record headers */
  uint8_t role_learned;     /* from its Device ID Type */
  uint16_t dev_id, port;
  uint8_t dev_valid, port_valid;
  struct ual_basic_req basic[UAL_NBASIC];   /* its outstanding basic requests */
  uint8_t tl_rate_known;
  uint16_t tl_rate;
  struct ual_ctrl_req req;                  /* its own control request */
  /* answered Decision Pending: owes a request of dp_mtype */
  uint8_t dp_owed, dp_mtype, dp_flagged;
  uint64_t dp_due_ns, dp_frame;
  /* received Decision Pending: may not request dp_wait_mtype meanwhile */
  uint8_t dp_wait, dp_wait_mtype;
  /* lost a conflict: may not retry without a new reason */
  uint8_t lost[UAL_NCTRL], lost_target[UAL_NCTRL];
  /* negotiated state as this partner holds it: codes, or UAL_UNKNOWN */
  int8_t width, speed, lstate;
  int8_t ch0, ch4;          /* 1 online, 0 offline, UAL_UNKNOWN */
  uint8_t ch4_changes;      /* negotiated channel 4 changes (UART counters restart) */
  uint8_t lockout;          /* bit 0 width, bit 1 speed: a soft lockout may be set */
  uint8_t l1_stopped, l1_flagged;           /* LT-PAYLOAD-IN-L1 */
  uint8_t after_l1, exit_flagged;           /* LT-EXIT-L1-CONTENT */
  uint8_t ch0_flagged;
  uint8_t uart_open;        /* DWords its open UART transport still owes (kept by the caller) */
  uint64_t negs[UAL_NEG_COUNT];
  struct ual_neg_last last;
};

struct ual_dlproto {
  struct ual_dlproto_side s[2];
  int8_t max_width;         /* trained width code, UAL_UNKNOWN */
  int8_t speed_allowed;     /* speed code completed negotiations allow, UAL_UNKNOWN */
  int8_t width_ready;       /* completed width negotiation not yet used by L0p */
  uint8_t history;          /* the capture has shown enough to judge unsolicited answers */
};

void ual_dlproto_init(struct ual_dlproto *dp);
/* Partner dir's port went down or retrains: its DL restarts with channels
 * offline, 2.5 GT/s, L0; negotiations in progress end. */
void ual_dlproto_reset(struct ual_dlproto *dp, unsigned dir);
/* One DL message delivered from partner dir. */
void ual_dlproto_step(struct ual_dlproto *dp, unsigned dir, const struct ual_dl_item *it,
                      const struct ual_when *w, struct ual_events *ev, struct ual_findings *f);
/* A payload flit of partner dir (delivered or not): is_new, TL starts and
 * UART sectors (from the unpacker; -1 when not unpacked). */
void ual_dlproto_flit(struct ual_dlproto *dp, unsigned dir, const struct ual_flit_info *fi,
                      int uart_sectors, const struct ual_when *w, struct ual_findings *f);
/* Deadlines that passed by the time of a record of direction dir. */
void ual_dlproto_tick(struct ual_dlproto *dp, unsigned dir, const struct ual_when *w,
                      struct ual_events *ev, struct ual_findings *f);
/* A port came back from L1: channels must be renegotiated. */
void ual_dlproto_l1_exit(struct ual_dlproto *dp);
/* Records were lost: forget the timing of what partner dir owes. */
void ual_dlproto_forget(struct ual_dlproto *dp, unsigned dir);
/* End of capture: unconfirmed grants whose deadline passed by last_ns. */
void ual_dlproto_finish(struct ual_dlproto *dp, uint64_t last_ns, struct ual_findings *f);
/* Effective role of a side: record header, else Device ID, else unknown. */
enum ual_role ual_dlproto_role(const struct ual_dlproto *dp, unsigned dir);
/* The resolution function of a Link Width or Link Speed conflict (§2.4.3):
 * does request a (TargetState, Priority) win over request b with another
 * TargetState? With Priority on one side that side wins; with Priority on
 * both the smaller target, otherwise the larger. */
bool ual_ctrl_wins(unsigned a_target, unsigned a_prio, unsigned b_target, unsigned b_prio);

/* ------------------------------------------------------------------ UART */

struct ual_uart_stream {
  uint8_t known;            /* counters known (channel 4 online or stream reset seen) */
  uint8_t resetting;        /* reset handshake in progress: errors suppressed */
  uint16_t tx_cnt, limit;   /* mod 4096 DWord counters of this sender */
  uint8_t reset_pending, reset_flagged;
  uint64_t reset_frame, reset_ts_ns;
  uint8_t vdp_sync;         /* VDP boundaries known */
  uint16_t vdp_need;        /* value DWords still to come; 0 = next DWord is a header */
  uint16_t vdp_have;
  struct ual_vdp vdp;
  uint64_t transports, payload_dw, credits, resets, vdps;
};

struct ual_uart_dir {
  struct ual_uart_stream st;     /* stream 0, the only one defined */
  uint16_t noop_run;             /* consecutive No-Ops just before */
  uint8_t noop_known;            /* the run's start was seen */
  uint8_t gap_flagged;           /* DM-UART-INTERLEAVE for the open transport */
  uint64_t noop_frame;
};

struct ual_uart { struct ual_uart_dir d[2]; };

void ual_uart_init(struct ual_uart *u);
/* Sender dir's DL restarted: fresh stream state. */
void ual_uart_reset(struct ual_uart *u, unsigned dir);
/* Channel 4 went online (1) or offline (0) for sender dir. */
void ual_uart_channel(struct ual_uart *u, unsigned dir, int online);
/* One DL message delivered from dir (every message: No-Op runs count them
 * all). ch4 = sender's channel 4 state; after_l1 = report as LT-EXIT-L1-CONTENT. */
void ual_uart_step(struct ual_uart *u, unsigned dir, const struct ual_dl_item *it, int ch4,
                   int after_l1, const struct ual_when *w, struct ual_events *ev,
                   struct ual_findings *f);
/* A delivered flit: transport DWords must fill consecutive segments.
 * need_before = unpacker's uart_need before the flit. */
void ual_uart_flit(struct ual_uart *u, unsigned dir, const uint8_t *flit, unsigned need_before,
                   const struct ual_unpack_out *uo, struct ual_findings *f);
void ual_uart_tick(struct ual_uart *u, const struct ual_when *w, struct ual_findings *f);
void ual_uart_forget(struct ual_uart *u, unsigned dir);

/* -------------------------------------------------------------- analyzer */

struct ual_analyzer {
  struct ual_unpack unpack[2];   /* the delivered stream of each direction */
  uint8_t unp_sync[2];           /* the unpacker knows where TL flits begin */
  uint8_t fresh[2];              /* the direction's DL state is known from a reset */
  uint8_t seen_payload[2];       /* payload flits since that reset */
  uint64_t records, flits[2];
  uint64_t t_first_ns, t_last_ns;
  uint64_t unsynced_flits[2];    /* delivered before TL flit boundaries were known: messages only */
  uint64_t truncated;
  uint8_t ft_rate, ft_width;     /* flit time cache */
  uint32_t ft_ps;
  struct ual_replay rp;
  struct ual_ltssm lt;
  struct ual_dlproto dp;
  struct ual_uart ua;
};

void ual_analyzer_init(struct ual_analyzer *a);
/* Decodes one record exactly as ual_decode_record does (r->unp = what this
 * flit delivered, r->unpacked when it reached the unpacker), then runs the
 * trackers; stateful findings are added to r->findings. ev may be NULL. */
void ual_analyzer_step(struct ual_analyzer *a, const uint8_t *rec, size_t len, uint64_t frame,
                       uint64_t ts_ns, struct ual_rec_result *out, struct ual_events *ev);
/* End of capture: DL-TRUNCATED-TL, unconfirmed negotiations, timeouts. */
void ual_analyzer_finish(struct ual_analyzer *a, struct ual_findings *f, struct ual_events *ev);

/* State after the last step, small enough to keep per frame. */
struct ual_analysis_summary {
  uint8_t ltssm[2];              /* enum ual_lt_state per port */
  uint8_t rate[2], width[2];     /* record rate code / lanes per direction, 0 unknown */
  uint8_t role[2];               /* enum ual_role */
  int8_t ch0[2], ch4[2];         /* per partner: 1 online, 0 offline, UAL_UNKNOWN */
  int8_t neg_width[2], neg_speed[2], neg_state[2];   /* codes, UAL_UNKNOWN */
  int32_t tl_rate[2];            /* 50 kHz units, UAL_UNKNOWN */
  int16_t unacked[2];            /* UAL_UNKNOWN */
  struct ual_replay_stats replay[2];
  uint64_t negs[2][UAL_NEG_COUNT];
  struct ual_neg_last last_neg[2];   /* what each partner did last in a negotiation */
  uint8_t alt_protocol[2];           /* port sent Modified TS with vendor 20AEh in its last training */
  uint64_t uart_transports[2], uart_payload_dw[2], uart_credits[2], uart_resets[2], vdps[2];
  uint64_t unsynced_flits[2];
};
void ual_analyzer_summary(const struct ual_analyzer *a, struct ual_analysis_summary *s);
/* One line: "A:L0 x8 128 ch0=on ch4=on | B:L0 ..."; returns the length needed. */
int ual_analyzer_state_text(const struct ual_analyzer *a, char *buf, size_t cap);

/* Names for output. */
const char *ual_width_code_name(int code);   /* "x1".."x8", "?" */
const char *ual_speed_code_name(int code);   /* "2.5", "32.0", "64.0", "ESM", "?" */

#endif
