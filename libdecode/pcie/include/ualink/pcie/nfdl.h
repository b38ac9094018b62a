/* The non-flit Data Link Layer as a passive observer sees it (digest
 * pcie.md §7.5 [P28] [P29] [P34] [P36]-[P39] [P43] [P46]): per link and
 * direction X->Y, X's TLPs (kind 7) against Y's Ack/Nak DLLPs (kind 4 or 7).
 * NEXT_TRANSMIT_SEQ and ACKD_SEQ as seen (`newest`, `ackd`), the TLPs not
 * yet acknowledged (content fingerprints, for replays), replays, Y's
 * receiver mirror (NEXT_RCV_SEQ, NAK_SCHEDULED), Ack latency and
 * REPLAY_TIMER, and the PM requests sent with TLPs unacknowledged.
 *
 * Start anywhere: a direction is unsynchronized until its first good TLP
 * (PN-SYNC) or a DL initialization (a VC0 InitFC1 from either side), and
 * every S-scoped rule stays silent until then; records lost and a link from
 * Detect unsynchronize it again (§7.5.2 D).
 *
 * Times are in quarter nanoseconds (every symbol time is a whole number of
 * them; an absolute timestamp x 4 still fits 64 bits). Plain struct, no
 * pointers: copy it to snapshot. */
#ifndef UALINK_PCIE_NFDL_H
#define UALINK_PCIE_NFDL_H

#include <stdbool.h>
#include <stdint.h>
#include "ualink/core/rules.h"
#include "ualink/pcie/dllp.h"

#define UAL_NFDL_RING 2048u      /* at most 2047 TLPs are legally unacknowledged */
#define UAL_NFDL_PM_KEYS 8

/* The DL's verdict on one kind-7 TLP (§7.5.2 A1/A2). */
enum ual_nfdl_verdict {
  UAL_NFDL_GOOD,                 /* good LCRC, not nullified */
  UAL_NFDL_BAD,                  /* PN-LCRC, PN-NULLIFIED-BAD */
  UAL_NFDL_UNKNOWN,              /* truncated, or decoding stopped at a framing finding [P45] */
  UAL_NFDL_NULLIFIED,            /* PN-NULLIFIED: its number comes again */
};

/* One TLP record of X as the tracker takes it. */
struct ual_nfdl_tlp {
  uint8_t verdict;               /* enum ual_nfdl_verdict */
  uint16_t seq;
  uint16_t len;                  /* bytes the LCRC covers, LCRC included */
  uint32_t lcrc;
  uint64_t last_q;               /* its last symbol, 0 = none (stripped or no rate) */
};

/* A TLP of X not yet acknowledged. */
struct ual_nfdl_ent {
  uint8_t used, fwd;             /* fwd: Y forwarded it (in sequence for the mirror) */
  uint16_t seq, len;
  uint32_t lcrc;                 /* a good TLP's LCRC is the CRC-32 of its bytes: with len, "the same bytes" */
  uint64_t last_q;               /* its first transmission's last symbol, 0 none */
};

struct ual_nfdl_pm_key {
  uint8_t type;
  uint16_t oldest;
};

/* Settings the wire does not show (§7.5.4 [P29]; ualink-decode options). */
struct ual_nfdl_cfg {
  uint16_t nak_new_tlps;         /* --nak-new-tlps, default 1 */
  uint16_t rx_mps;               /* --rx-mps, default 4096 */
  uint32_t replay_timer;         /* --replay-timer in symbol times; 0: 31,000, or 100,000 with ext_synch */
  uint32_t l0s_exit;             /* --l0s-exit in symbol times, default 0 */
  uint8_t ext_synch;             /* --extended-synch */
};

/* One direction X->Y. */
struct ual_nfdl {
  uint8_t sync, seen;
  uint8_t ackd_known, rcv_known, nak;
  uint8_t rp_on, nak_due, nak_prog, ts2, expect_on;
  uint16_t newest, ackd, rcv, rp, lo;   /* lo: the oldest TLP of X kept (sent is lo..newest) */
  uint16_t bad, nak_new, nrep;
  uint64_t expect_q;             /* the last symbol a pending "next Ack/Nak is a Nak" counts from */
  uint16_t expect_rcv;           /* the mirror's NEXT_RCV_SEQ then: an Ack below it was formed before */
  /* Ack latency: the interval of the oldest TLP Y forwarded and has not acknowledged */
  uint8_t lat_on, lat_void;
  uint16_t lat_seq;
  uint64_t lat_q, lat_busy_q;    /* its start; Y's busy time since */
  /* REPLAY_TIMER as the transmitter runs it */
  uint8_t rt_on;
  uint64_t rt_q;
  uint8_t n_pm;
  struct ual_nfdl_pm_key pm[UAL_NFDL_PM_KEYS];
  uint64_t tlps, replays, naks;  /* counters, kept through resets */
  /* credits the TLPs of X delivered first consumed, by FC class (P, NP, Cpl):
   * CREDITS_CONSUMED modulo 2^8 (header) / 2^12 (data, 16 bytes each), all
   * against VC0 (the TC/VC map is not on the wire); kept through resets */
  uint16_t used_hdr[3], used_data[3];
  struct ual_nfdl_ent sent[UAL_NFDL_RING];
};

/* Where the current record is and what it reports into. */
struct ual_nfdl_at {
  struct ual_findings *f;
  char side;                     /* 'A' or 'B': X */
  uint8_t rate, width;           /* the record header's */
  uint8_t os_seen;               /* the capture showed a kind-2 record of this link */
  uint64_t first_q, last_q;      /* this record's first and last symbol (last 0 = none) */
  const struct ual_nfdl_cfg *cfg;
};

/* Unsynchronized (false) or just after a DL initialization (true). */
void ual_nfdl_reset(struct ual_nfdl *t, bool dl_init);
/* A TLP record of X. Returns true for a first delivery (good, new, the DL
 * accepted it): only those go on to the per-TLP and transaction rules
 * [P35]. *synced is set when this TLP synchronized the tracker. */
bool ual_nfdl_tlp(struct ual_nfdl *t, const struct ual_nfdl_tlp *p, const struct ual_nfdl_at *at, bool *synced);
/* An Ack (nak false) or Nak N from Y, good CRC; *replay_due is set when a
 * Nak asks X for a replay. */
void ual_nfdl_acknak(struct ual_nfdl *t, bool nak, unsigned n, const struct ual_nfdl_at *at, bool *replay_due);
/* A PM DLLP of X (20h, 21h, 23h, 24h): PN-PM-UNACKED / PN-PM-L23-UNACKED. */
void ual_nfdl_pm(struct ual_nfdl *t, unsigned type, const char *name, const struct ual_nfdl_at *at);
/* A record of Y (any packet or ordered set) occupying its transmitter:
 * the busy time taken off X's Ack latency interval; stripped: no symbol
 * positions, the interval is not judged. */
void ual_nfdl_busy(struct ual_nfdl *t, const struct ual_nfdl_at *at, bool stripped);
/* A TS1/TS2 of the link: Recovery holds REPLAY_TIMER; sets ts2. */
void ual_nfdl_retrain(struct ual_nfdl *t);
/* Electrical idle: the timers of both directions stop. */
void ual_nfdl_idle(struct ual_nfdl *t);
/* REPLAY_TIMER against the time now (a record's first symbol). */
void ual_nfdl_timer(struct ual_nfdl *t, const struct ual_nfdl_at *at);

/* A TLP of X delivered first consumes credits of its FC class
 * (enum ual_pcie_tlp_fc: PR, NPR, CPL; others none) and data DWs. */
void ual_nfdl_consume(struct ual_nfdl *t, unsigned fc, unsigned data_dw);
/* Symbol time in quarter ns of a rate code (0 unknown), and a record's
 * last symbol from its first, its packet bytes and width (0 counts as x1). */
unsigned ual_nfdl_symbol_q(unsigned rate);
uint64_t ual_nfdl_last_q(uint64_t first_q, unsigned rate, unsigned width, unsigned bytes);
/* The Ack Latency Limit in symbol times (TDL Tables 3-10..3-12). */
unsigned ual_nfdl_ack_limit(unsigned rx_mps, unsigned rate, unsigned width);

#endif
