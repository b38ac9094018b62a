/* The DL message protocols' state and steps (ualink/dlproto.c): basic
 * requests, control negotiations, channels and negotiated state per partner. */
#ifndef UALINK_UALINK_DLPROTO_H
#define UALINK_UALINK_DLPROTO_H

#include <stdbool.h>
#include <stdint.h>
#include "ualink/core/record.h"
#include "ualink/ualink/pack.h"
#include "ualink/ualink/dl_limits.h"
#include "ualink/ualink/timeline.h"

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
  uint64_t uart_end_ns;     /* when that transport ended (0: not yet) */
  uint64_t grant_frame, grant_ts_ns;
  int8_t seg, grant_seg;    /* segments of the request and of its Ack */
};

struct ual_basic_req {
  uint8_t active, late_flagged;
  uint64_t frame, ts_ns, due_ns;
  uint32_t uart_segs;       /* as in struct ual_ctrl_req */
  uint64_t uart_end_ns;
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
  uint8_t heard;            /* its DL messages have been known for longer than a response takes:
                               an answer to it with no request seen is unsolicited (set by the analyzer) */
  uint8_t heard_pending;    /* the same for the last 10 ms: a Decision Pending it sent would have been seen */
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
  uint8_t uart_open;        /* DWords its open UART transport still owes (ual_dlproto_uart) */
  uint64_t negs[UAL_NEG_COUNT];
  struct ual_neg_last last;
};

struct ual_dlproto {
  struct ual_dlproto_side s[2];
  int8_t max_width;         /* trained width code, UAL_UNKNOWN */
  int8_t max_speed;         /* highest speed code the link ran at or was negotiated to, UAL_UNKNOWN:
                               the maximum allowed speed is at least this */
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
/* After a delivered flit of partner dir (w: its time and flit time): DWords
 * its open UART transport still owes. */
void ual_dlproto_uart(struct ual_dlproto *dp, unsigned dir, unsigned need, const struct ual_when *w);
/* The link runs at a header rate code: the maximum allowed speed is at least that. */
void ual_dlproto_rate(struct ual_dlproto *dp, unsigned rate);
/* Flits cross the link at this many lanes: the maximum allowed width is at
 * least that (ordered sets may be recorded before the width is trained). */
void ual_dlproto_width(struct ual_dlproto *dp, unsigned lanes);
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

#endif
