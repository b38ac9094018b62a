/* The passive non-flit DL tracker (nfdl.h): §7.5.2 A-D of pcie.md, step
 * by step, one direction X->Y at a time. */
#include "ualink/pcie/nfdl.h"
#include "ualink/core/record.h"
#include "ualink/pcie/tlp.h"

#include <inttypes.h>
#include <string.h>

#define MOD(x) ((unsigned)(x) & (UAL_PCIE_SEQ_MOD - 1))
#define HALF (UAL_PCIE_SEQ_MOD / 2)
#define MAX_TLP_BYTES 4124u   /* 4096 payload + 4-DW header + digest + seq + LCRC: a TLP in progress */

unsigned ual_nfdl_symbol_q(unsigned rate) {
  /* §7.5.4: 8b/10b symbols are 10 UI, 128b/130b ones 8 UI */
  switch (rate) {
  case 1: return 16;   /* 2.5 GT/s: 4 ns */
  case 8: return 8;    /* 5.0: 2 ns */
  case 9: return 4;    /* 8.0: 1 ns */
  case 10: return 2;   /* 16.0: 0.5 ns */
  case 2: return 1;    /* 32.0: 0.25 ns */
  }
  return 0;
}

uint64_t ual_nfdl_last_q(uint64_t first_q, unsigned rate, unsigned width, unsigned bytes) {
  unsigned sym = ual_nfdl_symbol_q(rate), w = width ? width : 1;
  if (!sym || !bytes) return 0;
  return first_q + (uint64_t)((bytes + w - 1) / w - 1) * sym;
}

/* TDL Tables 3-10..3-12 by Rx_MPS_Limit row and width column (x1, x2, x4,
 * x8, x16) for 2.5, 5.0 and 8.0 GT/s and up. */
unsigned ual_nfdl_ack_limit(unsigned rx_mps, unsigned rate, unsigned width) {
  static const uint16_t t[6][3][5] = {
    { { 237, 128, 73, 67, 48 }, { 288, 179, 124, 118, 99 }, { 333, 224, 169, 163, 144 } },
    { { 416, 217, 118, 107, 72 }, { 467, 268, 169, 158, 123 }, { 512, 313, 214, 203, 168 } },
    { { 559, 289, 154, 86, 86 }, { 610, 340, 205, 137, 137 }, { 655, 385, 250, 182, 182 } },
    { { 1071, 545, 282, 150, 150 }, { 1122, 596, 333, 201, 201 }, { 1167, 641, 378, 246, 246 } },
    { { 2095, 1057, 538, 278, 278 }, { 2146, 1108, 589, 329, 329 }, { 2191, 1153, 634, 374, 374 } },
    { { 4143, 2081, 1050, 534, 534 }, { 4194, 2132, 1101, 585, 585 }, { 4239, 2177, 1146, 630, 630 } },
  };
  unsigned row = 0;
  while (row < 5 && (128u << row) < rx_mps) row++;
  unsigned col = rate == 1 ? 0 : rate == 8 ? 1 : 2;
  /* width 0 (unknown) counts as x1, x12 as x8: the more lenient column */
  unsigned wc = width >= 16 ? 4 : width >= 8 ? 3 : width >= 4 ? 2 : width >= 2 ? 1 : 0;
  return t[row][col][wc];
}

void ual_nfdl_reset(struct ual_nfdl *t, bool dl_init) {
  uint64_t tlps = t->tlps, replays = t->replays, naks = t->naks;
  uint16_t hdr[3], data[3];
  memcpy(hdr, t->used_hdr, sizeof hdr);
  memcpy(data, t->used_data, sizeof data);
  memset(t, 0, sizeof *t);
  t->tlps = tlps;
  t->replays = replays;
  t->naks = naks;
  memcpy(t->used_hdr, hdr, sizeof hdr);
  memcpy(t->used_data, data, sizeof data);
  if (!dl_init) return;
  t->sync = t->ackd_known = t->rcv_known = 1;
  t->newest = t->ackd = UAL_PCIE_SEQ_MOD - 1;   /* the next new TLP is 000h */
  t->lo = 0;
}

/* TLPs of X kept: lo .. newest (0 when lo = newest + 1). */
static unsigned kept(const struct ual_nfdl *t) { return t->sync ? MOD(t->newest + 1u - t->lo) : 0; }

static struct ual_nfdl_ent *ent(struct ual_nfdl *t, unsigned seq) {
  struct ual_nfdl_ent *e = &t->sent[seq % UAL_NFDL_RING];
  return e->used && e->seq == seq && MOD(seq - t->lo) < kept(t) ? e : NULL;
}

static unsigned replay_limit(const struct ual_nfdl_cfg *c) {
  return c->replay_timer ? c->replay_timer : c->ext_synch ? 100000u : 31000u;
}

static uint64_t ack_limit_q(const struct ual_nfdl_at *at) {
  unsigned sym = ual_nfdl_symbol_q(at->rate);
  return (uint64_t)(ual_nfdl_ack_limit(at->cfg->rx_mps, at->rate, at->width) + at->cfg->l0s_exit) * sym;
}

/* Y forwarded seq (in sequence for the mirror), this copy ending at last_q:
 * the Ack latency interval starts unless one is open. */
static void forwarded(struct ual_nfdl *t, unsigned seq, uint64_t last_q) {
  struct ual_nfdl_ent *e = ent(t, seq);
  if (!e) return;
  e->fwd = 1;
  e->last_q = last_q;
  if (t->lat_on || !last_q) return;
  t->lat_on = 1;
  t->lat_void = 0;
  t->lat_seq = (uint16_t)seq;
  t->lat_q = last_q;
  t->lat_busy_q = 0;
}

/* Drops the kept TLPs up to n (n in lo - 1 .. newest). */
static void purge(struct ual_nfdl *t, unsigned n) {
  unsigned k = kept(t), upto = MOD(n - t->lo + 1u);
  if (upto > k) return;
  for (unsigned i = 0; i < upto; i++) t->sent[MOD(t->lo + i) % UAL_NFDL_RING].used = 0;
  t->lo = (uint16_t)MOD(n + 1u);
}

static void expect_nak(struct ual_nfdl *t, const struct ual_nfdl_at *at) {
  if (t->nak) return;
  t->nak = 1;
  /* [P36]: only then an expectation, from its last symbol; the first one pending counts */
  if (at->last_q && !t->expect_on) {
    t->expect_on = 1;
    t->expect_q = at->last_q;
    t->expect_rcv = t->rcv;
  }
}

/* A3: Y's receiver mirror on a good TLP [P36]. */
static void mirror(struct ual_nfdl *t, unsigned seq, const struct ual_nfdl_at *at) {
  if (!t->rcv_known) {
    t->rcv_known = 1;
    t->rcv = (uint16_t)MOD(seq + 1);
    t->nak = 0;
    forwarded(t, seq, at->last_q);
    return;
  }
  if (seq == t->rcv) {
    t->rcv = (uint16_t)MOD(seq + 1);
    t->nak = 0;
    forwarded(t, seq, at->last_q);
  } else if (MOD(t->rcv - seq) > HALF) {
    expect_nak(t, at);
  }
}

static void retransmission(struct ual_nfdl *t, const struct ual_nfdl_tlp *p, const struct ual_nfdl_at *at) {
  unsigned seq = p->seq;
  const struct ual_nfdl_ent *e = ent(t, seq);
  if (e && (e->len != p->len || e->lcrc != p->lcrc))
    ual_findings_add(at->f, UAL_R_PN_REPLAY_DIFFERS, -1, "TLP %03xh from %c sent again with other bytes (LCRC %08xh, first %08xh)",
                     seq, at->side, p->lcrc, e->lcrc);
  if (!t->rp_on) {
    t->replays++;
    ual_findings_add(at->f, UAL_R_PN_REPLAY, -1, "replay from %c begins at %03xh (%s)", at->side, seq,
                     t->nak_due ? "Nak" : "timer");
    if (t->ackd_known && MOD(seq - t->ackd - 1u) >= 1 && MOD(seq - t->ackd - 1u) < HALF)
      ual_findings_add(at->f, UAL_R_PN_REPLAY_START, -1, "replay from %c begins at %03xh, the oldest unacknowledged is %03xh",
                       at->side, seq, MOD(t->ackd + 1u));
    if (!(t->nak_due && t->nak_prog)) {   /* [P37] */
      t->nrep++;
      if (t->nrep == 2) t->ts2 = 0;
      if (t->nrep == 4) {
        if (at->os_seen && !t->ts2)
          ual_findings_add(at->f, UAL_R_PN_REPLAY_NUM, -1,
                           "4th replay from %c without Ack progress and no TS1/TS2 since the 2nd: no retraining", at->side);
        t->nrep = 0;
      }
    }
    t->nak_due = 0;
    t->nak_new = 0;
    t->rt_on = 0;
  } else {
    unsigned step = MOD(seq - t->rp);
    bool skip_ok = step >= 2 && step < HALF && (!t->ackd_known || MOD(t->ackd - seq + 1u) < HALF);
    if (step != 1 && !skip_ok)
      ual_findings_add(at->f, UAL_R_PN_REPLAY_ORDER, -1, "replay from %c: %03xh after %03xh", at->side, seq, t->rp);
  }
  t->rp_on = seq != t->newest;
  t->rp = (uint16_t)seq;
}

static bool new_tlp(struct ual_nfdl *t, const struct ual_nfdl_tlp *p, const struct ual_nfdl_at *at, unsigned d) {
  unsigned seq = p->seq;
  if (d >= 2 && d - 1 > t->bad)
    ual_findings_add(at->f, UAL_R_PN_SEQ_GAP, -1, "TLP %03xh from %c after %03xh: %u sequence numbers never seen", seq, at->side,
                     t->newest, d - 1 - t->bad);
  if (t->rp_on) {
    if (!(t->ackd_known && t->ackd == t->newest))
      ual_findings_add(at->f, UAL_R_PN_REPLAY_ORDER, -1, "new TLP %03xh from %c before its replay reached %03xh (stopped at %03xh)",
                       seq, at->side, t->newest, t->rp);
    t->rp_on = 0;
  }
  if (t->nak_due && ++t->nak_new == at->cfg->nak_new_tlps + 1u)
    ual_findings_add(at->f, UAL_R_PN_NAK_NO_REPLAY, -1, "%u new TLPs from %c after Nak %03xh, no replay", t->nak_new, at->side,
                     t->ackd);
  if (t->ackd_known && MOD(seq - t->ackd) >= HALF)
    ual_findings_add(at->f, UAL_R_PN_OUTSTANDING, -1, "TLP %03xh from %c with %u unacknowledged (Ack %03xh)", seq, at->side,
                     MOD(seq - t->ackd), t->ackd);
  for (unsigned s = MOD(t->newest + 1u); s != seq; s = MOD(s + 1u)) t->sent[s % UAL_NFDL_RING].used = 0;
  t->newest = (uint16_t)seq;
  if (kept(t) > UAL_NFDL_RING) t->lo = (uint16_t)MOD(seq + 1u - UAL_NFDL_RING);
  t->sent[seq % UAL_NFDL_RING] = (struct ual_nfdl_ent){ 1, 0, (uint16_t)seq, p->len, p->lcrc, at->last_q };
  return true;
}

bool ual_nfdl_tlp(struct ual_nfdl *t, const struct ual_nfdl_tlp *p, const struct ual_nfdl_at *at, bool *synced) {
  *synced = false;
  if (t->sync) t->seen = 1;
  switch (p->verdict) {
  case UAL_NFDL_UNKNOWN:
    if (t->sync) t->bad++;
    t->rcv_known = 0;   /* until X's next good TLP; a pending expectation stays */
    t->nak = 0;
    return false;
  case UAL_NFDL_BAD:
    if (t->sync) t->bad++;
    if (t->rcv_known) expect_nak(t, at);
    return false;
  case UAL_NFDL_NULLIFIED:
    return false;
  }
  t->tlps++;
  unsigned seq = MOD(p->seq);
  bool first = false;
  if (!t->sync) {
    /* an Ack/Nak seen before stays (ackd, [P38]) unless this TLP is no later than it */
    if (t->ackd_known && MOD(seq - t->ackd) >= HALF) t->ackd_known = 0;
    t->sync = t->seen = 1;
    t->bad = 0;
    t->newest = (uint16_t)seq;
    t->lo = (uint16_t)seq;
    t->sent[seq % UAL_NFDL_RING] = (struct ual_nfdl_ent){ 1, 0, (uint16_t)seq, p->len, p->lcrc, at->last_q };
    t->rcv_known = 1;
    t->rcv = (uint16_t)MOD(seq + 1u);
    forwarded(t, seq, at->last_q);
    *synced = true;
    first = true;
  } else {
    unsigned d = MOD(seq - t->newest);
    if (d >= 1 && d < HALF) first = new_tlp(t, p, at, d);
    else retransmission(t, p, at);
    t->bad = 0;
    mirror(t, seq, at);
  }
  if (!t->rt_on && at->last_q && kept(t)) {
    t->rt_on = 1;
    t->rt_q = at->last_q;
  }
  return first;
}

void ual_nfdl_acknak(struct ual_nfdl *t, bool nak, unsigned n, const struct ual_nfdl_at *at, bool *replay_due) {
  *replay_due = false;
  n = MOD(n);
  const char *what = nak ? "Nak" : "Ack";
  if (nak) t->naks++;
  if (t->sync && MOD(n - t->newest) >= 1 && MOD(n - t->newest) < HALF) {
    if (t->seen)   /* [P38] */
      ual_findings_add(at->f, UAL_R_PN_ACK_AHEAD, -1, "%s %03xh for a TLP not sent (newest from %c %03xh)", what, n, at->side,
                       t->newest);
    return;
  }
  if (t->ackd_known && MOD(n - t->ackd) >= HALF) return;
  /* an Ack below the NEXT_RCV_SEQ the receiver had before that TLP was
   * formed before it processed the TLPs ahead of it, so before that TLP
   * too: it says nothing of the Nak due (the receiver's latency) */
  bool formed_before = !nak && MOD(n + 1u - t->expect_rcv) >= HALF;
  if (t->expect_on && at->first_q > t->expect_q && !formed_before) {
    if (!nak)
      ual_findings_add(at->f, UAL_R_PN_NO_NAK, -1, "Ack %03xh from %c where a Nak was due: a TLP from %c was bad or out of sequence",
                       n, at->side == 'A' ? 'B' : 'A', at->side);
    t->expect_on = 0;
  }
  /* Ack latency of the oldest TLP Y forwarded, when this covers it */
  if (t->lat_on && MOD(n - t->lat_seq) < HALF) {
    if (!t->lat_void && at->rate && ual_nfdl_symbol_q(at->rate) && at->first_q >= t->lat_q) {
      uint64_t took = at->first_q - t->lat_q, busy = t->lat_busy_q < took ? t->lat_busy_q : took;
      unsigned sym = ual_nfdl_symbol_q(at->rate);
      if (took - busy > ack_limit_q(at))
        ual_findings_add(at->f, UAL_R_PN_ACK_LATENCY, -1,
                         "%s %03xh %" PRIu64 " symbol times after TLP %03xh from %c (busy %" PRIu64 "), limit %u", what, n,
                         (took - busy) / sym, t->lat_seq, at->side, busy / sym,
                         ual_nfdl_ack_limit(at->cfg->rx_mps, at->rate, at->width) + at->cfg->l0s_exit);
    }
    t->lat_on = 0;
  }
  bool progress = !t->ackd_known || n != t->ackd;
  if (t->sync) purge(t, n);
  t->ackd_known = 1;
  t->ackd = (uint16_t)n;
  if (progress) {
    t->nrep = 0;
    if (!nak) t->nak_due = 0;
  }
  /* the next forwarded TLP not acknowledged: Y's latency timer restarts with this DLLP */
  for (unsigned i = 0, k = kept(t); i < k && !t->lat_on; i++) {
    const struct ual_nfdl_ent *e = &t->sent[MOD(t->lo + i) % UAL_NFDL_RING];
    if (e->used && e->fwd && e->last_q) {
      uint64_t from = at->last_q > e->last_q ? at->last_q : e->last_q;
      t->lat_on = 1;
      t->lat_void = 0;
      t->lat_seq = e->seq;
      t->lat_q = from;
      t->lat_busy_q = 0;
    }
  }
  if (nak) {
    t->rt_on = 0;
    if (t->sync) {
      if (t->newest != n) {
        t->nak_due = 1;
        t->nak_new = 0;
        t->nak_prog = progress;
        *replay_due = true;
      }
      t->rcv_known = 1;
      t->rcv = (uint16_t)MOD(n + 1u);
      t->nak = 1;
    }
    return;
  }
  if (progress) {
    t->rt_on = kept(t) && at->last_q;
    t->rt_q = at->last_q;
  }
  if (t->rcv_known && MOD(n + 1u - t->rcv) >= 1 && MOD(n + 1u - t->rcv) < HALF) {
    t->rcv = (uint16_t)MOD(n + 1u);
    t->nak = 0;
  }
}

void ual_nfdl_pm(struct ual_nfdl *t, unsigned type, const char *name, const struct ual_nfdl_at *at) {
  if (!t->sync || !kept(t)) return;
  for (unsigned i = 0; i < t->n_pm; i++)
    if (t->pm[i].type == type && t->pm[i].oldest == t->lo) return;   /* [P43] */
  if (t->n_pm == UAL_NFDL_PM_KEYS) {
    memmove(t->pm, t->pm + 1, sizeof t->pm - sizeof t->pm[0]);
    t->n_pm--;
  }
  t->pm[t->n_pm++] = (struct ual_nfdl_pm_key){ (uint8_t)type, t->lo };
  ual_findings_add(at->f, type == 0x21 ? UAL_R_PN_PM_L23_UNACKED : UAL_R_PN_PM_UNACKED, -1,
                   "%s from %c with %u TLPs unacknowledged (oldest %03xh)", name, at->side, kept(t), t->lo);
}

void ual_nfdl_busy(struct ual_nfdl *t, const struct ual_nfdl_at *at, bool stripped) {
  if (!t->lat_on) return;
  if (stripped) {
    t->lat_void = 1;   /* [P46]: its busy time is unknown */
    return;
  }
  unsigned sym = ual_nfdl_symbol_q(at->rate);
  if (!sym || !at->last_q || at->first_q < t->lat_q || at->first_q >= t->lat_q + ack_limit_q(at)) return;
  t->lat_busy_q += at->last_q - at->first_q + sym;
}

void ual_nfdl_retrain(struct ual_nfdl *t) {
  t->ts2 = 1;
  t->rt_on = 0;
}

void ual_nfdl_idle(struct ual_nfdl *t) {
  t->rt_on = 0;
  t->lat_on = 0;
}

void ual_nfdl_timer(struct ual_nfdl *t, const struct ual_nfdl_at *at) {
  unsigned sym = ual_nfdl_symbol_q(at->rate), w = at->width ? at->width : 1;
  if (!t->sync || !t->rt_on || !sym || !kept(t) || at->first_q <= t->rt_q) return;
  /* a transmitter finishes the TLP in progress before it replays */
  uint64_t limit = (uint64_t)(replay_limit(at->cfg) + (MAX_TLP_BYTES + w - 1) / w) * sym;
  if (at->first_q - t->rt_q <= limit) return;
  ual_findings_add(at->f, UAL_R_PN_REPLAY_TIMEOUT, -1,
                   "%u TLPs from %c unacknowledged for %" PRIu64 " symbol times (oldest %03xh), no replay: REPLAY_TIMER %u",
                   kept(t), at->side, (at->first_q - t->rt_q) / sym, t->lo, replay_limit(at->cfg));
  t->rt_on = 0;
}

void ual_nfdl_consume(struct ual_nfdl *t, unsigned fc, unsigned data_dw) {
  /* a data credit is 4 DW */
  if (fc < UAL_TLP_FC_PR || fc > UAL_TLP_FC_CPL) return;
  unsigned c = fc - UAL_TLP_FC_PR;   /* P, NP, Cpl */
  t->used_hdr[c] = (uint16_t)((t->used_hdr[c] + 1u) & 0xFF);
  t->used_data[c] = (uint16_t)((t->used_data[c] + (data_dw + 3u) / 4u) & 0xFFF);
}
