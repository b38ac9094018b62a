/* What the analyzer's trackers share: where the current record is
 * (struct ual_when) and the timeline events they report (--timeline, the
 * TUI, Wireshark). */
#ifndef UALINK_UALINK_TIMELINE_H
#define UALINK_UALINK_TIMELINE_H

#include <stdint.h>
#include "ualink/ualink/pack.h"

/* Tri-state for channel and negotiated values. */
#define UAL_UNKNOWN (-1)

/* Where the current record or message is: passed to the trackers. */
struct ual_when {
  uint64_t frame;
  uint64_t ts_ns;     /* start of the record's flit, 0 = no timestamps */
  uint32_t ft_ps;     /* flit time at the record's rate/width, 0 = unknown */
  int16_t segment;    /* -1 when not a message */
  uint8_t is_new;     /* the flit is a first transmission (not a replay) */
};

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
  X(PM,          "pm")           /* a power handshake DLLP: value = DLLP type, old = its Link Management command or UAL_UNKNOWN */ \
  X(SYNC,        "sync")         /* a direction's analysis synchronized (AN-SYNC); value 1 */

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

#endif
