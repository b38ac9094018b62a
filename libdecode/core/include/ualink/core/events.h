/* Timeline events: the state changes the stateful analysis of every fabric
 * reports (--timeline, the TUI, Wireshark). The event kinds are the fabrics'
 * lists (X(enum suffix, "json name") in each fabric's kinds.h, joined in
 * core/fabrics.h), so a kind's name lives in one place. */
#ifndef UALINK_CORE_EVENTS_H
#define UALINK_CORE_EVENTS_H

#include <stdarg.h>
#include <stdint.h>
#include "ualink/core/fabrics.h"

/* Tri-state for channel and negotiated values. */
#define UAL_UNKNOWN (-1)

#define UAL_TEV_KINDS(X) UAL_FABRIC_TEV_KINDS(X)

enum ual_tev_kind {
#define UAL_X_(e, n) UAL_TEV_##e,
  UAL_TEV_KINDS(UAL_X_)
#undef UAL_X_
  UAL_TEV_COUNT
};
const char *ual_tev_kind_name(unsigned k);

#define UAL_PARTNER_LINK 2   /* ual_tevent.partner when the event is link-wide */

struct ual_tevent {
  uint64_t frame, ts_ns;
  uint8_t kind;         /* enum ual_tev_kind */
  uint8_t partner;      /* 0 = side A, 1 = side B, UAL_PARTNER_LINK */
  uint8_t link;         /* the link byte of the record whose step raised it (set by the top level) */
  uint8_t mtype;        /* UALink NEGOTIATION: enum ual_msg_type */
  uint8_t outcome;      /* UALink NEGOTIATION: enum ual_neg_outcome */
  int32_t value, old;   /* new and previous value; UAL_UNKNOWN when unknown */
  uint64_t latency_ns;  /* an exchange's end (UALink NEGOTIATION, UB_RETRY Ack set): since its request; 0 unknown */
  uint64_t req_frame;   /* an exchange's end: frame of the request it answers or completes, 0 unknown */
  char text[96];        /* one timeline line, without frame/time */
};

#define UAL_MAX_TEVENTS 24

struct ual_unpack_out;
struct ual_vdp;

struct ual_events {
  uint16_t n, dropped;
  struct ual_tevent v[UAL_MAX_TEVENTS];
  /* Optional, called during ual_analyzer_step (UALink): every delivered
   * payload flit's unpack result (also held flits released by a replay,
   * whose TL flits are not in out->unp), and every complete VDP. NULL = not
   * wanted. */
  void (*delivered)(void *ctx, unsigned dir, uint64_t flit_frame, const struct ual_unpack_out *u);
  void (*vdp)(void *ctx, const struct ual_vdp *v);
  void *ctx;
};

void ual_events_init(struct ual_events *ev);              /* no callbacks */
static inline void ual_events_clear(struct ual_events *ev) { if (ev) ev->n = ev->dropped = 0; }
/* Appends an event (ev may be NULL) and returns it for the kind-specific
 * fields (NULL when ev is NULL or full); text is printf-style. */
struct ual_tevent *ual_events_addv(struct ual_events *ev, uint64_t frame, uint64_t ts_ns, unsigned kind,
                                   unsigned partner, int32_t value, int32_t old, const char *fmt, va_list ap);
struct ual_tevent *ual_events_add_at(struct ual_events *ev, uint64_t frame, uint64_t ts_ns, unsigned kind,
                                     unsigned partner, int32_t value, int32_t old, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 8, 9)))
#endif
    ;

/* A direction's data rate (rate code) or width (lanes) as its records'
 * headers carry it: *cur is the last one seen (0 unknown); a change is a
 * RATE or WIDTH event in every fabric's timeline. 0 (not carried) is no
 * change. */
void ual_events_rate_seen(struct ual_events *ev, uint64_t frame, uint64_t ts_ns, unsigned dir, uint8_t *cur,
                          unsigned code);
void ual_events_width_seen(struct ual_events *ev, uint64_t frame, uint64_t ts_ns, unsigned dir, uint8_t *cur,
                           unsigned lanes);

#endif
