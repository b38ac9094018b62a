/* What the analyzer's trackers share: where the current record is
 * (struct ual_when) and the timeline events they report (core/events.h;
 * UALink's event kinds are listed in kinds.h). */
#ifndef UALINK_UALINK_TIMELINE_H
#define UALINK_UALINK_TIMELINE_H

#include <stdint.h>
#include "ualink/core/events.h"
#include "ualink/ualink/pack.h"

/* Where the current record or message is: passed to the trackers. */
struct ual_when {
  uint64_t frame;
  uint64_t ts_ns;     /* start of the record's flit, 0 = no timestamps */
  uint32_t ft_ps;     /* flit time at the record's rate/width, 0 = unknown */
  int16_t segment;    /* -1 when not a message */
  uint8_t is_new;     /* the flit is a first transmission (not a replay) */
};

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

/* Vendor Defined Packet reassembled from a UART stream (Figure 2-16). */
struct ual_vdp {
  uint64_t frame;       /* where its last DWord was delivered */
  uint8_t dir, stream, type;
  uint16_t vendor_id, n_payload;
  uint32_t value[256];
};

/* ual_events_add_at (core/events.h) at w's frame and time. */
struct ual_tevent *ual_events_add(struct ual_events *ev, const struct ual_when *w, unsigned kind, unsigned partner,
                    int32_t value, int32_t old, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

#endif
