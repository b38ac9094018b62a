/* Sequence-number arithmetic and the time limits of the UALink DL (digest
 * §2.1, §3), shared by the analyzer and the generator. */
#ifndef UALINK_UALINK_DL_LIMITS_H
#define UALINK_UALINK_DL_LIMITS_H

#include <stdint.h>

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

/* Link Speed code (digest §3.2: 0 2.5, 1 32.0, 2 64.0, 3 ESM) of a record
 * header rate code (1 2.5, 2 32.0, 3 64.0, 4.. ESM); -1 for 0 (unknown). */
static inline int ual_speed_of_rate(unsigned rate) { return rate == 0 ? -1 : rate == 1 ? 0 : rate <= 3 ? (int)rate - 1 : 3; }
/* Link Width code (digest §3.2: 0 x1, 1 x2, 2 x4, 3 x8) of a lane count; -1 for others. */
static inline int ual_width_of_lanes(unsigned lanes) {
  return lanes == 1 ? 0 : lanes == 2 ? 1 : lanes == 4 ? 2 : lanes == 8 ? 3 : -1;
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

#endif
