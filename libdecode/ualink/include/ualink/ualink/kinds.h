/* The record kinds UALink decodes (docs/capture-format.md), X(kind code,
 * struct ual_kind defined in ualink/kinds.c), and the kinds of timeline
 * event its analyzer reports. Pure X-macro lists with no includes,
 * registered in core/fabrics.h. */
#ifndef UALINK_UALINK_KINDS_H
#define UALINK_UALINK_KINDS_H

#define UAL_UALINK_KINDS(X) \
  X(UAL_REC_FLIT, ual_kind_ualink_flit) \
  X(UAL_REC_OS,   ual_kind_ualink_os)

/* X(enum suffix, "json name") */
#define UAL_UALINK_TEV_KINDS(X) \
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

/* UALink's own analyzer (ualink/analysis.c) is the top level and analyses
 * its kinds itself: no entry in the fabric analysis registry. */
#define UAL_UALINK_ANALYSES(X)
#define UAL_UALINK_ANALYSIS_KINDS(X)
#define UAL_UALINK_STATE_TEXT_KINDS(X)
#define UAL_UALINK_PRESETS(X)

/* Its presentation model (core/views.h): ual_view_ualink in ualink/views.c,
 * struct ual_ualink_tally in ualink/views.h. */
#define UAL_UALINK_VIEWS(X) X(ualink)

#endif
