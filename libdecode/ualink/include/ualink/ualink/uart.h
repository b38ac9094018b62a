/* The UART stream tracker's state and steps (ualink/uart.c): credits,
 * stream resets, transports and Vendor Defined Packets per sender. */
#ifndef UALINK_UALINK_UART_H
#define UALINK_UALINK_UART_H

#include <stdint.h>
#include "ualink/ualink/pack.h"
#include "ualink/ualink/dl_limits.h"
#include "ualink/ualink/timeline.h"

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
void ual_uart_flit(struct ual_uart *u, unsigned dir, const struct ual_flit_view *v, unsigned need_before,
                   const struct ual_unpack_out *uo, struct ual_findings *f);
void ual_uart_tick(struct ual_uart *u, const struct ual_when *w, struct ual_findings *f);
void ual_uart_forget(struct ual_uart *u, unsigned dir);

#endif
