/* The PCIe non-flit TLP scenarios (pcienf.h). Side A is a Root Port
 * (00:01.0; the host's requests come as 00:00.0), side B an Endpoint
 * (01:00.0), on an x1 2.5 GT/s (pcie-gen1) or x8 8.0 GT/s (pcie-gen3) link;
 * --rate and --width choose another rate of the same encoding or width.
 *
 *   receiver detected, TS1/TS2 both ways at 2.5 GT/s; the DL
 *   initialization: InitFC1 P/NP/Cpl of VC0 twice from each side, then
 *   InitFC2 twice; pcie-gen3 then goes through Recovery to 8.0 GT/s (TS1
 *   with the speed change bit, a rate event, EIEOS, TS1/TS2 in 128b/130b);
 *   enumeration (CfgRd0/CfgWr0 answered Cpl/CplD) and Set_Slot_Power_Limit;
 *   traffic: host reads and writes of the Endpoint's BARs (32- and
 *   64-bit), IO reads and writes, vendor-defined messages; Endpoint DMA
 *   reads of host memory answered by split completions at the Root
 *   Complex's 64-byte RCB, DMA writes, FetchAdd, LTR, INTx and PM_PME
 *   messages; some TLPs with ECRC; UpdateFC DLLPs as the receivers free
 *   credits; Acks coalesced and well within the Ack latency limit;
 *   PME_Turn_Off, PME_TO_Ack, PM_Enter_L23, PM_Request_Ack, EIOS and
 *   electrical idle on both sides (the sequence of the real Agilent trace).
 *
 * Each side is a transmitter (NEXT_TRANSMIT_SEQ, ACKD_SEQ, retry buffer,
 * replay on a Nak or at its REPLAY_TIMER, credits) and a receiver of its
 * partner (NEXT_RCV_SEQ, NAK_SCHEDULED, Ack coalescing, credits freed);
 * both run on one clock in picoseconds and a packet goes out when its
 * side's wire is free, so the records come in time order. An injection
 * changes one packet (or one side's behaviour) and labels the records the
 * analysis raises its findings at. */
#include "pcienf.h"
#include "rng.h"

#include <ualink/pcie/nonflit.h>
#include <ualink/ualink/os.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROLE_RP        1u          /* pcie.md [P3] */
#define ROLE_EP        4u
#define RATE_25        1u          /* record rate codes, pcie.md [P5] */
#define RATE_50        8u
#define RATE_80        9u
#define RATE_160      10u
#define RATE_320       2u
#define HOST_ID        0x0000u     /* 00:00.0: the host's requests */
#define RP_ID          0x0008u     /* 00:01.0 */
#define EP_ID          0x0100u     /* 01:00.0 */
#define BAR0           0xF0000000u /* the Endpoint's 32-bit BAR, 64 KB */
#define BAR2           0x0000004000000000ull   /* its 64-bit BAR */
#define IO_BAR         0x0000E000u
#define HOST_MEM       0x0000000123450000ull
#define RCB_RC         64u         /* the Root Complex's read completion boundary */
#define SEQ_MOD        4096u
#define TLP_MAX        400u        /* prefixes, header, data (MPS 256), digest */
#define PKT_MAX        (TLP_MAX + 12u)
#define TLQ_CAP        512u
#define MAX_NP         16u         /* a side's non-posted requests in flight */
#define INBOX_CAP      512u
#define TXN_CAP        512u
#define TAGS           256u
#define PS_NEVER       UINT64_MAX
#define DEFAULT_RECORDS 4000u
#define INJECT_FIRST   500u        /* default frame of an injection: in the traffic */
#define REPLAY_TIMER   20000u      /* symbol times (the analysis flags 31000) */
#define ACK_WAIT_MIN   16u         /* symbol times a receiver may wait to coalesce Acks */
#define ACK_WAIT_SPAN  40u
#define FC_WAIT        400u        /* symbol times before freed credits are advertised anyway */
#define TIMEOUT_GAP_PS 51000000000ull   /* 51 ms: past the analysis' 50 ms completion timeout */
#define TRAIN_OS       8u          /* TS1 and TS2 per side in training */
/* PN-REPLAY-TIMEOUT: both sides quiet for longer than the analysis' REPLAY_TIMER
 * (31000 symbol times, its --replay-timer default) and the longest TLP it
 * lets a transmitter finish first */
#define REPLAY_QUIET_SYMS 40000u

enum { A = 0, B = 1 };
enum { CL_P, CL_NP, CL_CPL };

/* ---- the catalog ---- */

/* The injections by the enum of their list (pcienf.h); the rule of each is
 * looked up by its ID, so one whose rule libdecode lacks is no injection. */
enum nfi {
#define GEN_X_(e, id, w, h) I_##e,
  GEN_PCIENF_INJECTIONS(GEN_X_)
#undef GEN_X_
  I_COUNT
};

static const struct { const char *id; int where; const char *how; } catalog[I_COUNT] = {
#define GEN_X_(e, id, w, h) { id, w, h },
  GEN_PCIENF_INJECTIONS(GEN_X_)
#undef GEN_X_
};

/* The injection of a rule, -1 when none. */
static int find(int rule) {
  if (rule < 0) return -1;
  for (int i = 0; i < I_COUNT; i++)
    if (!(catalog[i].where & NF_LATER) && ual_rule_lookup(catalog[i].id) == rule) return i;
  return -1;
}

bool gen_pcienf_inject_supported(int rule) { return find(rule) >= 0; }
const char *gen_pcienf_inject_how(int rule) { return find(rule) >= 0 ? catalog[find(rule)].how : NULL; }

static const char *how_of(int inj) { return catalog[inj].how; }
bool gen_pcienf_inject_in(int rule, int sc) {
  int i = find(rule);
  return i >= 0 && (catalog[i].where & (sc == GEN_SC_PCIE_GEN3 ? NF_G3 : sc == GEN_SC_PCIE_GEN1 ? NF_G1 : 0));
}

int gen_pcienf_inject_scenario(int rule) {
  int i = find(rule);
  if (i < 0) return -1;
  return catalog[i].where & NF_G1 ? GEN_SC_PCIE_GEN1 : GEN_SC_PCIE_GEN3;
}

/* ---- state ---- */

/* A non-posted request, kept from its transmission to its last completion. */
struct txn {
  uint8_t used, type, from, tc, attr, fbe, lbe;
  uint8_t status;            /* the completion status the completer gives */
  uint8_t no_cpl;            /* the completer drops it (Malformed, or PN-CPL-TIMEOUT) */
  int16_t cpl_rule;          /* the injection its first completion carries, -1 */
  uint16_t rid, tag, target;
  uint16_t len;              /* DW, 1..1024 */
  uint64_t addr;
};

/* A TLP the transaction layer handed to the DL, waiting for its turn. */
struct tlp {
  uint8_t b[TLP_MAX];
  uint16_t n;
  uint8_t cls, data_cr;
  uint64_t ready;            /* ps */
  int16_t txn;               /* request: its txn; completion: the one it answers */
  uint8_t last;              /* completion: the last of its request */
  uint8_t tl;                /* enum tlk: what the receiver's TL does with it */
  int16_t rule[2];           /* labels at its record */
  uint8_t conseq[2];
  uint8_t mut;               /* enum mut: at its first transmission */
  uint8_t hold;              /* no new TLP after it until a Nak or a replay */
  uint32_t silence;          /* symbol times the receiver sends nothing after it (injected) */
};
enum tlk { TLK_NONE, TLK_TURN_OFF, TLK_TO_ACK };

/* Changes of a packet on the wire or in the capture. */
enum mut { M_NONE, M_LCRC, M_NULLIFY, M_NULLIFY_BAD, M_FRAME_END, M_FRAME_SHORT, M_SEQ_RSVD, M_STP_CHECK,
           M_STP_LENGTH, M_TRUNC, M_TOKEN,
           M_RXERR,          /* good on the wire, a Receiver Error at the partner (a Nak the probe cannot explain) */
           M_MISSED,         /* the partner receives it, the capture does not have it */
           M_LCRC_NONAK };   /* a bad LCRC the partner does not Nak */

/* What the partner receives, at its arrival time. */
enum { IN_TLP, IN_DLLP, IN_EIDLE };
enum { YV_GOOD, YV_BAD, YV_NULL, YV_BAD_NONAK };
struct arrival {
  uint64_t at;
  uint8_t what, verdict, cls, data_cr, last, tl, hold_ack;
  uint16_t seq;
  int16_t txn;
  uint8_t d[6];              /* DLLP bytes */
  uint32_t silence;
};

/* A TLP in the retry buffer: its bytes and what the receiver's TL does with it. */
struct rbent {
  uint8_t b[TLP_MAX];
  uint16_t n;
  uint8_t rsvd, cls, data_cr, last, tl;
  int16_t txn;
};

struct nside {
  unsigned id;
  uint64_t t_free, t_next;
  /* transmitter */
  uint16_t next_seq, ackd;
  struct rbent *rb;          /* [SEQ_MOD]: the retry buffer */
  bool replaying;
  uint16_t rp_next;
  uint64_t timer_start;
  bool timer_on;
  bool hold_new;             /* no new TLP until the partner's Nak (an injected bad TLP stays the newest) */
  /* injected transmitter behaviour */
  uint8_t rp_skip;           /* PN-REPLAY-START (1): the replay starts one late; PN-REPLAY-ORDER (2): skips its second */
  bool rp_differs;           /* PN-REPLAY-DIFFERS: the replay's first TLP changed */
  uint8_t nak_defer;         /* PN-NAK-NO-REPLAY: new TLPs before the replay a Nak asks for */
  bool replay_pending, no_timer, over_limit, rp_first;
  bool order_next;           /* PN-REPLAY-ORDER: the next TLP, replayed or new, skipped one */
  uint32_t quiet_after;      /* PN-REPLAY-TIMEOUT: symbol times both sides send nothing after the next TLP */
  int16_t rp_label;          /* the finding the next replayed TLP carries, -1 */
  uint8_t num_replays;       /* PN-REPLAY-NUM: replays until the one that is the 4th */
  unsigned flood;            /* PN-OUTSTANDING: small writes still to make */
  bool pm_unacked;           /* PN-PM-UNACKED / PN-PM-L23-UNACKED: the PM DLLP does not wait for the Acks */
  /* injected receiver behaviour */
  uint64_t silent_until;     /* PN-ACK-LATENCY, PN-REPLAY-TIMEOUT: sends nothing before */
  uint16_t rxerr_seq;
  uint8_t rxerr_left;        /* PN-REPLAY-NUM: Receiver Errors on rxerr_seq */
  bool acks_off;             /* PN-OUTSTANDING: no Acks */
  int16_t late_ack_rule;     /* the finding the next Ack carries (PN-ACK-LATENCY), -1 */
  uint16_t last_ack;
  bool resend_nullified;     /* the nullified TLP goes again next */
  struct tlp nullified;
  /* credits the partner advertised and this side consumed, per class */
  uint16_t lim_h[3], lim_d[3], use_h[3], use_d[3];
  /* receiver of the partner's TLPs */
  uint16_t next_rcv;
  bool nak_sched, send_nak, ack_pending, ack_hold;
  unsigned ack_count, ack_k;
  uint64_t ack_due;
  /* credits this side allocates as a receiver (UpdateFC) */
  uint16_t alloc_h[3], alloc_d[3], adv_h[3], adv_d[3];
  uint64_t fc_due[3];
  struct { uint64_t at; uint8_t cls, d; } freeq[INBOX_CAP];
  unsigned nfree;
  /* transaction layer */
  struct tlp tlq[TLQ_CAP];
  unsigned tlq_n;
  uint64_t next_req;
  uint16_t tag;
  uint8_t tag_busy[TAGS];
  /* from the partner, in arrival order */
  struct arrival in[INBOX_CAP];
  unsigned in_head, in_n;
  /* PM at the end (enum pm) */
  uint8_t pm;
  /* the probe's view of this side's TLPs, for labels */
  uint16_t seen_newest;
  bool seen_replay;
  bool gap_next;             /* PN-SEQ-GAP: the next TLP record skips one */
  uint64_t nak_ps;           /* the partner's last Nak record */
  unsigned nak_new;          /* new TLPs of this side after it */
  bool expect;               /* the partner's next Ack/Nak after expect_ps must be a Nak */
  uint64_t expect_ps;
  int16_t expect_rule;
};
enum pm { PM_NONE, PM_WAIT_TO_ACK, PM_L23, PM_REQ_ACK, PM_IDLE, PM_DONE };

struct nf {
  const struct gen_opts *o;
  const struct gen_out *out;
  int sc;
  struct gen_rng rng;
  uint64_t frame;
  int stop;
  unsigned rate, width, enc;
  uint64_t sym_ps, lat_ps;
  struct nside s[2];
  struct txn txn[TXN_CAP];
  unsigned txn_next;
  uint64_t target;           /* records before the traffic stops */
  uint64_t t0;               /* the traffic's start (--duration counts from it) */
  bool traffic, pm_started;
  unsigned cfg_step;
  int rule[I_COUNT];         /* of each injection, -1 when libdecode lacks it */
  bool want[I_COUNT], done[I_COUNT], taken[I_COUNT];
  uint64_t at[I_COUNT];
  int timeout_txn;           /* PN-CPL-TIMEOUT: the request that gets no completion, -1 */
  uint64_t rt_deadline;      /* PN-REPLAY-TIMEOUT: the first record after it carries the finding, 0 none */
  bool recovery_due;         /* a 128b/130b framing error: both sides retrain */
  bool overflow;             /* a TL queue was full (a model error) */
};

/* ---- time and records ---- */

static uint64_t ceil_ns(uint64_t ps) { return (ps + 999u) / 1000u * 1000u; }
/* a packet of n bytes lasts ceil(n / width) symbol times */
static uint64_t dur_ps(const struct nf *p, size_t n) { return (uint64_t)((n + p->width - 1) / p->width) * p->sym_ps; }
static uint64_t syms(const struct nf *p, uint64_t n) { return n * p->sym_ps; }

static void label(struct nf *p, unsigned dir, int inj, bool conseq, const char *note);

static void emit_rec(struct nf *p, unsigned dir, unsigned kind, const uint8_t *body, size_t n, uint64_t t_ps) {
  if (p->stop) return;
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, kind, dir);
  h.rate = (uint8_t)p->rate;
  h.width = (uint8_t)p->width;
  h.roles_pcie = 1;
  h.role_a = ROLE_RP;
  h.role_b = ROLE_EP;
  uint8_t rec[UAL_REC_HDR_BYTES + 4 + PKT_MAX + 16];
  size_t len = ual_record_build(&h, body, n, rec, sizeof rec);
  p->frame++;
  p->stop = p->out->record(p->out->ctx, p->o->start_ns + t_ps / 1000u, rec, len);
  if (p->rt_deadline && t_ps > p->rt_deadline) {
    p->rt_deadline = 0;
    label(p, A, I_REPLAY_TIMEOUT, false, "REPLAY_TIMER passed without a replay");
  }
}

static void truth(struct nf *p, unsigned dir, int rule, bool conseq, const char *note) {
  if (rule >= 0 && p->out->truth)
    p->out->truth(p->out->ctx, p->frame, dir, rule, conseq ? "consequence" : "inject", note);
}

/* The record just written raises injection inj's rule. */
static void label(struct nf *p, unsigned dir, int inj, bool conseq, const char *note) {
  if (inj < 0) return;
  if (!conseq) p->done[inj] = true;
  truth(p, dir, p->rule[inj], conseq, note ? note : how_of(inj));
}

/* The injection is wanted and its frame has come: the caller's packet carries it. */
static bool take(struct nf *p, int rule) {
  if (!p->want[rule] || p->taken[rule] || p->frame + 1 < p->at[rule]) return false;
  p->taken[rule] = true;
  return true;
}

/* ---- wire encodings: libdecode's ---- */

#define BODY_MAX (UAL_PCIE_NF_HDR + PKT_MAX + 8u)

/* The packet bytes a kind-7 body carries after its 4-byte header, and the
 * header's wire_len when a change made the packet longer or shorter. */
static uint8_t *pkt_of(uint8_t *body) { return body + UAL_PCIE_NF_HDR; }
static void set_wire_len(uint8_t *body, size_t n) { ual_field_put(UAL_F_PCIE_NF_WIRE_LEN, body, n); }

/* A TLP's kind-7 body: libdecode's builder; rsvd (8b/10b) goes into the 4
 * bits before the sequence number and into the LCRC. */
static size_t tlp_body(const struct nf *p, uint16_t seq, unsigned rsvd, const uint8_t *tlp, size_t n, bool nullify,
                       size_t trunc, uint8_t *body) {
  size_t bn = ual_pcie_nf_build_tlp(p->enc, seq, tlp, n, nullify, trunc, body, BODY_MAX);
  if (rsvd && p->enc == UAL_PCIE_NF_8B10B) {
    ual_field_put(UAL_F_PCIE_NF_SEQ_RSVD, pkt_of(body) + 1, rsvd);
    ual_pcie_crc32_put(ual_pcie_lcrc(rsvd, seq, tlp, n), pkt_of(body) + 3 + n);
  }
  return bn;
}

/* ---- the transaction layer ---- */

/* A TLP t to be built from h: DW0's type and Length, the Requester ID. */
static void spec(struct ual_pcie_tlp_fields *h, struct tlp *t, unsigned type, unsigned len, unsigned rid, uint64_t ready);

static unsigned fc_class(unsigned type) {
  struct ual_pcie_nf_type t;
  ual_pcie_nf_type(type, &t);
  return t.fc == UAL_TLP_FC_PR ? CL_P : t.fc == UAL_TLP_FC_CPL ? CL_CPL : CL_NP;
}

static void tlp_init(struct tlp *t, uint64_t ready) {
  memset(t, 0, sizeof *t);
  t->ready = ready;
  t->txn = -1;
  t->rule[0] = t->rule[1] = -1;
}

static void spec(struct ual_pcie_tlp_fields *h, struct tlp *t, unsigned type, unsigned len, unsigned rid, uint64_t ready) {
  memset(h, 0, sizeof *h);
  tlp_init(t, ready);
  h->byte0 = type;
  h->length = len;
  h->rid = rid;
}

static void tlp_label(struct tlp *t, int rule, bool conseq) {
  for (unsigned i = 0; i < 2; i++)
    if (t->rule[i] < 0) {
      t->rule[i] = (int16_t)rule;
      t->conseq[i] = conseq;
      return;
    }
}

static void rand_bytes(struct nf *p, uint8_t *b, size_t n) {
  for (size_t i = 0; i < n; i++) b[i] = (uint8_t)gen_rng_below(&p->rng, 256);
}

/* The TLP of spec s with dw DW of data (random unless given), the digest
 * when TD (one bit flipped when bad_ecrc); credits from its class. */
static void make_tlp(struct nf *p, struct tlp *t, const struct ual_pcie_tlp_fields *s, const uint8_t *data, unsigned dw,
                     bool bad_ecrc) {
  size_t n = ual_pcie_tlp_header(s, t->b, TLP_MAX);
  if (data) memcpy(t->b + n, data, 4u * dw);
  else rand_bytes(p, t->b + n, 4u * dw);
  n += 4u * dw;
  if (s->td) {
    ual_pcie_crc32_put(ual_pcie_ecrc(t->b, n), t->b + n);
    if (bad_ecrc) t->b[n + 1] ^= 0x10;
    n += 4;
  }
  t->n = (uint16_t)n;
  t->cls = (uint8_t)fc_class(s->byte0);
  t->data_cr = (uint8_t)((4u * dw + 15u) / 16u);
}

static void tlq_push(struct nf *p, unsigned side, const struct tlp *t) {
  struct nside *s = &p->s[side];
  if (s->tlq_n >= TLQ_CAP) {
    p->overflow = true;
    return;
  }
  s->tlq[s->tlq_n++] = *t;
  uint64_t w = t->ready > s->t_free ? t->ready : s->t_free;
  if (w < s->t_next) s->t_next = w;
}

static uint16_t new_tag(struct nside *s) {
  for (unsigned i = 0; i < TAGS; i++) {
    uint16_t t = (uint16_t)((s->tag + i) % TAGS);
    if (!s->tag_busy[t]) {
      s->tag = (uint16_t)((t + 1) % TAGS);
      s->tag_busy[t] = 1;
      return t;
    }
  }
  return 0xFFFF;
}

static int new_txn(struct nf *p) {
  for (unsigned i = 0; i < TXN_CAP; i++) {
    unsigned k = (p->txn_next + i) % TXN_CAP;
    if (!p->txn[k].used) {
      p->txn_next = (k + 1) % TXN_CAP;
      memset(&p->txn[k], 0, sizeof p->txn[k]);
      p->txn[k].used = 1;
      p->txn[k].cpl_rule = -1;
      return (int)k;
    }
  }
  return -1;
}

/* Byte enables of a request of len DW: any non-zero for one DW, else contiguous. */
static void pick_be(struct nf *p, unsigned len, struct ual_pcie_tlp_fields *h) {
  static const uint8_t first[4] = { 0xF, 0xE, 0xC, 0x8 }, last[4] = { 0xF, 0x7, 0x3, 0x1 };
  if (len == 1) {
    h->first_be = (uint8_t)(1u + gen_rng_below(&p->rng, 15));
    h->last_be = 0;
    return;
  }
  h->first_be = gen_rng_below(&p->rng, 2) ? 0xF : first[gen_rng_below(&p->rng, 4)];
  h->last_be = gen_rng_below(&p->rng, 2) ? 0xF : last[gen_rng_below(&p->rng, 4)];
}

/* A non-posted request's tag and txn; false when none is free. */
static bool np_start(struct nf *p, unsigned from, struct ual_pcie_tlp_fields *h, struct tlp *t) {
  h->tag = new_tag(&p->s[from]);
  int k = h->tag == 0xFFFF ? -1 : new_txn(p);
  if (k < 0) {
    if (h->tag != 0xFFFF) p->s[from].tag_busy[h->tag] = 0;
    return false;
  }
  struct txn *x = &p->txn[k];
  x->type = (uint8_t)h->byte0;
  x->from = (uint8_t)from;
  x->tc = (uint8_t)h->tc;
  x->attr = (uint8_t)h->attr;
  x->fbe = (uint8_t)h->first_be;
  x->lbe = (uint8_t)h->last_be;
  x->rid = (uint16_t)h->rid;
  x->tag = (uint16_t)h->tag;
  x->target = (uint16_t)h->target;
  x->len = (uint16_t)(h->length ? h->length : 1024);
  x->addr = h->addr;
  t->txn = (int16_t)k;
  return true;
}

/* Memory requests (MRd/MWr 32/64, FetchAdd) of len DW at addr. */
static bool req_mem(struct nf *p, unsigned from, unsigned type, uint64_t addr, unsigned len, uint64_t ready, int rule) {
  struct ual_pcie_tlp_fields h;
  struct tlp t;
  spec(&h, &t, type, len, from == A ? HOST_ID : EP_ID, ready);
  h.addr = addr;
  bool write = type == 0x40 || type == 0x60, atomic = type == 0x4C || type == 0x6C;
  if (atomic) h.first_be = h.last_be = 0;
  else pick_be(p, len, &h);
  if (from == B && !atomic && gen_rng_below(&p->rng, 4) == 0) h.attr = 1u + gen_rng_below(&p->rng, 2);
  h.td = gen_rng_below(&p->rng, 8) == 0;
  unsigned dw = write || atomic ? len : 0;
  bool bad_ecrc = false;
  switch (rule) {
  case I_TLP_BE: h.first_be = 0xF; h.last_be = 0xF; break;
  case I_TLP_RESERVED: h.td = 0; break;
  case I_ECRC: h.td = 1; bad_ecrc = true; break;
  case I_POISONED: h.ep = 1; break;
  case I_TLP_ATOMIC: h.length = 3; dw = 3; break;
  case I_TLP_SIZE: h.length = 2; h.first_be = h.last_be = 0xF; dw = 1; break;
  case I_TLP_4KB: h.first_be = h.last_be = 0xF; break;
  default: break;
  }
  if (fc_class(type) == CL_NP && !np_start(p, from, &h, &t)) return false;
  make_tlp(p, &t, &h, NULL, dw, bad_ecrc);
  if (rule == I_TLP_RESERVED) t.b[1] |= 0x02;   /* byte 1 bit 1, reserved (formerly LN) [P25] */
  if (rule >= 0) tlp_label(&t, rule, false);
  if (t.txn >= 0 && rule == I_TLP_ATOMIC) p->txn[t.txn].no_cpl = 1;   /* Malformed: dropped */
  tlq_push(p, from, &t);
  return true;
}

/* A configuration request of the host to the Endpoint: reg = byte offset. */
static bool req_cfg(struct nf *p, unsigned type, unsigned reg, uint64_t ready, int rule) {
  struct ual_pcie_tlp_fields h;
  struct tlp t;
  spec(&h, &t, type, 1, HOST_ID, ready);
  h.first_be = 0xF;
  h.target = EP_ID;
  h.reg = reg;
  if (rule == I_TLP_IOCFG) h.attr = 1;
  if (!np_start(p, A, &h, &t)) return false;
  struct txn *x = &p->txn[t.txn];
  if (rule == I_TLP_IOCFG) x->no_cpl = 1;
  if (rule == I_TLP_DEPRECATED) x->status = 1;        /* UR */
  if (rule == I_CPL_RRS) {
    x->status = 2;
    x->cpl_rule = I_CPL_RRS;
  }
  uint8_t data[4];
  uint32_t v = reg == 0x04 ? 0x00100006u : reg == 0x10 ? BAR0 : 0xFFFFFFFFu;
  for (unsigned i = 0; i < 4; i++) data[i] = (uint8_t)(v >> (8 * i));
  make_tlp(p, &t, &h, data, type == 0x44 || type == 0x45 ? 1 : 0, false);
  if (rule >= 0 && rule != I_CPL_RRS) tlp_label(&t, rule, false);
  tlq_push(p, A, &t);
  return true;
}

/* An IO request of the host to the Endpoint's IO BAR. */
static bool req_io(struct nf *p, unsigned type, uint64_t ready, int rule) {
  struct ual_pcie_tlp_fields h;
  struct tlp t;
  spec(&h, &t, type, 1, HOST_ID, ready);
  h.first_be = 1u + gen_rng_below(&p->rng, 15);
  h.addr = IO_BAR + 4u * gen_rng_below(&p->rng, 64);
  if (!np_start(p, A, &h, &t)) return false;
  if (rule == I_CPL_FORM) {
    p->txn[t.txn].status = 1;
    p->txn[t.txn].cpl_rule = I_CPL_FORM;
  }
  make_tlp(p, &t, &h, NULL, type == 0x42 ? 1 : 0, false);
  tlq_push(p, A, &t);
  return true;
}

/* A message (r = type & 7) with code, bytes 8-15 m8 (NULL: zero) and
 * len DW of data for MsgD. */
static void msg(struct nf *p, unsigned from, unsigned type, unsigned code, const uint8_t *m8, unsigned len,
                const uint8_t *data, uint64_t ready, int rule, unsigned tl) {
  struct ual_pcie_tlp_fields h;
  struct tlp t;
  spec(&h, &t, type, len, from == A ? RP_ID : EP_ID, ready);
  h.code = code;
  if (m8) memcpy(h.msg, m8, 8);
  unsigned dw = (type & 0x40) ? len : 0;
  switch (rule) {
  case I_MSG_TC: h.tc = 1; break;
  case I_MSG_INTX: h.rid = EP_ID | 1u; break;
  case I_TLP_AT: h.at = 1; break;
  case I_MSG_FORM: h.length = 2; dw = 2; break;
  default: break;
  }
  make_tlp(p, &t, &h, data, dw, false);
  t.tl = (uint8_t)tl;
  if (rule >= 0) tlp_label(&t, rule, false);
  tlq_push(p, from, &t);
}

/* lo / hi: the lowest / highest enabled byte of a BE nibble (0 for none). */
static unsigned be_lo(unsigned be) { for (unsigned i = 0; i < 4; i++) if (be >> i & 1) return i; return 0; }
static unsigned be_hi(unsigned be) { for (unsigned i = 4; i-- > 0;) if (be >> i & 1) return i; return 0; }

/* The finding of a non-SC completion status (pcie.md §7.4.6). */
static int status_rule(unsigned status) {
  switch (status) {
  case 1: return I_CPL_UR;
  case 2: return I_CPL_RRS;
  case 4: return I_CPL_CA;
  default: return I_CPL_STATUS_RSVD;
  }
}

/* The completions of request x by side from (the completer), ready at t:
 * memory reads split at the Root Complex's RCB (its own reads in one),
 * Byte Count and Lower Address per pcie.md §7.4.6 [P41]. */
static void complete(struct nf *p, unsigned from, int k, uint64_t ready) {
  struct txn *x = &p->txn[k];
  struct ual_pcie_tlp_fields h;
  memset(&h, 0, sizeof h);
  h.cid = from == A ? RP_ID : EP_ID;
  h.rid = x->rid;
  h.tag = x->tag;
  h.tc = x->tc;
  h.attr = x->attr;
  h.status = x->status;
  int rule = x->cpl_rule;
  bool read = x->type == 0x00 || x->type == 0x20;
  bool with_data = x->status == 0 && (read || x->type == 0x04 || x->type == 0x05 || x->type == 0x02 ||
                                      x->type == 0x4C || x->type == 0x6C);
  unsigned total;       /* Byte Count of the first completion */
  if (read) {
    if (x->len == 1) total = x->fbe ? be_hi(x->fbe) - be_lo(x->fbe) + 1 : 1;
    else total = 4u * x->len - be_lo(x->fbe) - (3 - be_hi(x->lbe));
  } else if (x->type == 0x4C || x->type == 0x6C) {
    total = 4u * x->len;
  } else {
    total = 4;
  }
  if (rule == I_CPL_FORM) with_data = true;
  uint64_t dw_addr = x->addr & ~3ull;
  unsigned done_dw = 0, remaining = total;
  for (bool first = true; first || (read && with_data && done_dw < x->len); first = false) {
    struct tlp t;
    tlp_init(&t, ready);
    unsigned len = 1;
    if (read && with_data) {
      uint64_t a = dw_addr + 4u * done_dw;
      unsigned left = x->len - done_dw;
      len = left;
      if (from == A) {
        unsigned to_boundary = (unsigned)((RCB_RC - (a % RCB_RC)) / 4u);
        if (left > to_boundary) len = to_boundary;
      }
      h.lower_addr = first ? (unsigned)(a & 0x7C) | be_lo(x->fbe) : (unsigned)(a & 0x7F);
    } else if (x->type == 0x4C || x->type == 0x6C) {
      len = x->len;
      h.lower_addr = 0;
    } else {
      h.lower_addr = 0;
    }
    if (!with_data && read) h.lower_addr = (unsigned)(dw_addr & 0x7C) | be_lo(x->fbe);
    h.byte_count = remaining & 0xFFF;
    h.byte0 = with_data ? 0x4A : 0x0A;
    h.length = with_data ? len : 0;
    if (first && rule == I_CPL_BCM) h.bcm = 1;
    if (first && rule == I_CPL_MISMATCH) h.byte_count = (remaining + 4) & 0xFFF;
    make_tlp(p, &t, &h, NULL, with_data ? len : 0, false);
    if (first && rule >= 0) tlp_label(&t, rule, false);
    if (first && x->status) {             /* every non-SC status has its finding */
      int st = status_rule(x->status);
      if (st != rule) tlp_label(&t, st, true);
    }
    t.txn = (int16_t)k;
    if (read && with_data) {
      unsigned bytes = 4u * len - (first ? be_lo(x->fbe) : 0);
      remaining = bytes >= remaining ? 0 : remaining - bytes;
      done_dw += len;
    }
    t.last = !(read && with_data && done_dw < x->len);
    tlq_push(p, from, &t);
    ready += syms(p, 4);
  }
}

/* ---- the data link layer ---- */

static uint16_t seq_add(uint16_t a, int d) { return (uint16_t)((a + SEQ_MOD + (unsigned)d) % SEQ_MOD); }
static unsigned seq_dist(uint16_t to, uint16_t from) { return (to + SEQ_MOD - from) % SEQ_MOD; }
static bool outstanding(const struct nside *s) { return seq_add(s->ackd, 1) != s->next_seq; }

static void arrive(struct nf *p, unsigned to, const struct arrival *a) {
  struct nside *r = &p->s[to];
  if (r->in_n >= INBOX_CAP) return;
  r->in[(r->in_head + r->in_n++) % INBOX_CAP] = *a;
  if (a->at < r->t_next) r->t_next = a->at < r->t_free ? r->t_free : a->at;
}

/* One kind-7 body of side s at now (not captured: on the wire only); its
 * wire time is that of its n packet bytes. Returns when its last symbol ends. */
static uint64_t send_pkt(struct nf *p, struct nside *s, uint64_t now, const uint8_t *body, size_t bn, size_t n,
                         bool captured) {
  if (captured) emit_rec(p, s->id, UAL_REC_PCIE_NF, body, bn, now);
  uint64_t end = now + dur_ps(p, n);
  s->t_free = ceil_ns(end);
  return end;
}

static void send_dllp(struct nf *p, struct nside *s, uint64_t now, const struct ual_pcie_dllp *d, unsigned mut) {
  uint8_t d6[UAL_PCIE_DLLP_BYTES], body[BODY_MAX];
  ual_pcie_dllp_build(d, d6);
  size_t bn = ual_pcie_nf_build_dllp(p->enc, d6, body, sizeof body);
  if (mut == M_TOKEN) pkt_of(body)[1] ^= 0x01;             /* SDP F0h ADh */
  uint64_t end = send_pkt(p, s, now, body, bn, bn - UAL_PCIE_NF_HDR, true);
  if (mut == M_TOKEN) {
    p->recovery_due = true;
    return;                  /* the partner never sees it */
  }
  struct arrival a;
  memset(&a, 0, sizeof a);
  a.at = end + p->lat_ps;
  a.what = IN_DLLP;
  memcpy(a.d, d6, sizeof d6);
  arrive(p, s->id ^ 1u, &a);
}

static void simple_dllp(struct ual_pcie_dllp *d, unsigned type, unsigned seq) {
  memset(d, 0, sizeof *d);
  d->type = (uint8_t)type;
  d->seq = (uint16_t)seq;
}

/* The probe's view of a TLP of s it saw good: a number after the newest is
 * new; another one a retransmission, the first of a run of them a replay
 * (what the analysis calls PN-REPLAY). */
static bool probe_replay_starts(struct nside *s, uint16_t seq, bool *in_replay) {
  unsigned d = seq_dist(seq, s->seen_newest);
  if (d >= 1 && d < 2048) {
    s->seen_newest = seq;
    *in_replay = false;
    return false;
  }
  bool starts = !*in_replay;
  *in_replay = seq != s->seen_newest;
  return starts;
}

/* A TLP of s: e (its retry-buffer entry) framed with mut; labels from t
 * (its first transmission) or a replay's. */
static void send_tlp(struct nf *p, struct nside *s, uint64_t now, uint16_t seq, const struct rbent *e,
                     const struct tlp *t, unsigned mut) {
  uint8_t body[BODY_MAX];
  size_t bn = tlp_body(p, seq, e->rsvd, e->b, e->n, mut == M_NULLIFY, mut == M_TRUNC ? 16 : 0, body);
  uint8_t *w = pkt_of(body);
  size_t wn = e->n + 8u;   /* framed: STP, 2 sequence bytes ... LCRC, END; or the STP token ... LCRC */
  if (mut == M_NULLIFY && p->enc != UAL_PCIE_NF_8B10B) wn += 4;  /* the EDB token */
  size_t lcrc_last = p->enc == UAL_PCIE_NF_8B10B ? wn - 2 : wn - 1;
  unsigned verdict = YV_GOOD;
  switch (mut) {
  case M_LCRC: w[lcrc_last] ^= 0x04; verdict = YV_BAD; break;
  case M_NULLIFY: verdict = YV_NULL; break;
  case M_NULLIFY_BAD:                     /* EDB after the plain LCRC */
    if (p->enc == UAL_PCIE_NF_8B10B) {
      w[wn - 1] = UAL_PCIE_K_EDB;
    } else {
      memset(w + wn, UAL_PCIE_T_EDB, 4);
      wn += 4;
      bn += 4;
      set_wire_len(body, wn);
    }
    verdict = YV_BAD;
    break;
  case M_FRAME_END: w[wn - 1] = 0x7C; verdict = YV_BAD; break;             /* IDL, not END */
  case M_FRAME_SHORT:                     /* 12 symbols between STP and END */
    w[13] = UAL_PCIE_K_END;
    bn = UAL_PCIE_NF_HDR + 14;
    set_wire_len(body, 14);
    verdict = YV_BAD;
    break;
  case M_STP_CHECK: w[2] ^= 0x10; verdict = YV_BAD; p->recovery_due = true; break;
  case M_STP_LENGTH:
    ual_pcie_stp_token((unsigned)(wn / 4u + 1u), seq, w);
    verdict = YV_BAD;
    p->recovery_due = true;
    break;
  case M_RXERR: verdict = YV_BAD; break;
  case M_LCRC_NONAK: w[lcrc_last] ^= 0x04; verdict = YV_BAD_NONAK; break;
  default: break;
  }
  uint64_t end = send_pkt(p, s, now, body, bn, wn, mut != M_MISSED);
  size_t keep = mut == M_MISSED ? 0 : bn;
  uint64_t last_sym = end - p->sym_ps;
  if (s->order_next && mut != M_NULLIFY) {
    s->order_next = false;
    label(p, s->id, I_REPLAY_ORDER, false, NULL);
  }
  if (s->quiet_after) {                   /* both sides quiet (the partner: silence of the arrival) */
    s->silent_until = end + p->lat_ps + syms(p, s->quiet_after);
    p->rt_deadline = s->silent_until - 1;
    s->quiet_after = 0;
  }
  if (t)
    for (unsigned i = 0; i < 2; i++)
      if (t->rule[i] >= 0) label(p, s->id, t->rule[i], t->conseq[i], NULL);
  if (mut == M_MISSED) {
    s->gap_next = true;
  } else if (s->gap_next) {               /* the partner gets it in sequence, the probe saw a gap */
    s->gap_next = false;
    label(p, s->id, I_SEQ_GAP, false, NULL);
    s->expect = true;
    s->expect_ps = last_sym;
    s->expect_rule = I_NO_NAK;
  }
  if (mut == M_LCRC_NONAK) {
    s->expect = true;
    s->expect_ps = last_sym;
    s->expect_rule = I_NO_NAK;
  }
  bool is_new = false;
  if ((verdict == YV_GOOD || mut == M_RXERR) && mut != M_TRUNC && keep) {
    unsigned d = seq_dist(seq, s->seen_newest);
    is_new = d >= 1 && d < 2048;
    if (probe_replay_starts(s, seq, &s->seen_replay)) {
      label(p, s->id, I_REPLAY, !p->want[I_REPLAY] || p->done[I_REPLAY], "a replay begins");
      s->nak_ps = 0;
    }
  }
  if (is_new && s->nak_ps && now > s->nak_ps && ++s->nak_new == 2 && p->want[I_NAK_NO_REPLAY])
    label(p, s->id, I_NAK_NO_REPLAY, false, NULL);
  if (verdict != YV_NULL && !s->timer_on) {
    s->timer_on = true;
    s->timer_start = end;
  }
  struct arrival a;
  memset(&a, 0, sizeof a);
  a.at = end + p->lat_ps;
  a.what = IN_TLP;
  a.verdict = (uint8_t)verdict;
  a.seq = seq;
  a.hold_ack = mut == M_TRUNC;
  a.txn = e->txn;
  a.cls = e->cls;
  a.data_cr = e->data_cr;
  a.last = e->last;
  a.tl = e->tl;
  a.silence = t ? t->silence : 0;
  arrive(p, s->id ^ 1u, &a);
}

/* ---- the receiver and the partner's transaction layer ---- */

static uint64_t rand_syms(struct nf *p, unsigned lo, unsigned span) { return syms(p, lo + gen_rng_below(&p->rng, span)); }

/* r's transaction layer takes an accepted TLP at t. */
static void tl_deliver(struct nf *p, struct nside *r, const struct arrival *a, uint64_t t) {
  /* the receive buffer frees its credits once the TLP is processed */
  if (a->cls != CL_CPL && r->nfree < INBOX_CAP) {
    r->freeq[r->nfree].at = t + rand_syms(p, 30, 150);
    r->freeq[r->nfree].cls = a->cls;
    r->freeq[r->nfree].d = a->data_cr;
    r->nfree++;
  }
  if (a->tl == TLK_TURN_OFF) {
    msg(p, B, 0x35, 0x1B, NULL, 0, NULL, t + rand_syms(p, 40, 40), -1, TLK_TO_ACK);
    r->pm = PM_WAIT_TO_ACK;
    return;
  }
  if (a->tl == TLK_TO_ACK) return;
  if (a->txn < 0) return;
  struct txn *x = &p->txn[a->txn];
  if (a->cls == CL_CPL) {                 /* a completion: the requester's */
    if (a->last) {
      p->s[x->from].tag_busy[x->tag] = 0;
      x->used = 0;
    }
    return;
  }
  if (!x->no_cpl) complete(p, r->id, a->txn, t + (r->id == A ? rand_syms(p, 60, 120) : rand_syms(p, 30, 60)));
}

static void replay_starts(struct nside *s) {
  s->replaying = s->rp_first = true;
  s->timer_on = false;                   /* restarted by the first retransmission */
  if (s->num_replays && --s->num_replays == 0) s->rp_label = I_REPLAY_NUM;
}

static void rx_tlp(struct nf *p, struct nside *r, const struct arrival *a) {
  if (a->verdict == YV_NULL) return;
  if (a->verdict == YV_BAD_NONAK) {     /* injected: no Nak, an Ack at once */
    r->ack_pending = true;
    r->ack_due = a->at;
    return;
  }
  if (a->verdict == YV_GOOD && r->rxerr_left && a->seq == r->rxerr_seq) {
    r->rxerr_left--;                    /* injected Receiver Error */
    if (!r->nak_sched) r->nak_sched = r->send_nak = true;
    return;
  }
  if (a->verdict == YV_BAD) {
    if (!r->nak_sched) r->nak_sched = r->send_nak = true;
    return;
  }
  if (a->silence) {                     /* injected: the receiver goes quiet */
    r->silent_until = a->at + syms(p, a->silence);
    r->late_ack_rule = I_ACK_LATENCY;
  }
  if (a->seq == r->next_rcv) {
    r->next_rcv = seq_add(r->next_rcv, 1);
    r->nak_sched = false;
    if (!r->ack_pending) {
      r->ack_pending = true;
      r->ack_count = 0;
      r->ack_k = 2 + gen_rng_below(&p->rng, 3);
      r->ack_due = a->at + rand_syms(p, ACK_WAIT_MIN, ACK_WAIT_SPAN);
    }
    r->ack_count++;
    r->ack_hold = a->hold_ack;
    tl_deliver(p, r, a, a->at);
  } else if (seq_dist(r->next_rcv, a->seq) <= 2048) {
    if (!r->ack_pending) r->ack_count = 0;
    r->ack_pending = true;              /* a duplicate: Ack it at once */
    r->ack_due = a->at;
  } else if (!r->nak_sched) {
    r->nak_sched = r->send_nak = true;  /* TLPs lost */
  }
}

static void rx_dllp(struct nside *s, const struct arrival *a) {
  struct ual_pcie_dllp d;
  ual_pcie_dllp_parse(a->d, &d);
  switch (d.layout) {
  case UAL_PCIE_L_ACK: {
    uint16_t n = d.seq;
    unsigned out = seq_dist(seq_add(s->next_seq, -1), s->ackd);
    unsigned adv = seq_dist(n, s->ackd);
    if (adv > out) return;                  /* not a number this side sent: ignored */
    s->ackd = n;
    if (adv) {
      s->timer_start = a->at;               /* progress restarts REPLAY_TIMER */
      s->no_timer = false;
    }
    if (!outstanding(s)) s->hold_new = false;
    s->timer_on = outstanding(s);
    if (d.type == 0x10) {
      s->hold_new = false;
      if (outstanding(s) && s->nak_defer) {
        s->replay_pending = true;           /* injected: new TLPs first */
      } else if (outstanding(s)) {
        replay_starts(s);
        s->rp_next = seq_add(s->ackd, s->rp_skip == 1 ? 2 : 1);
        if (s->rp_skip == 1) s->rp_skip = 0;
        s->timer_start = a->at;
      }
    } else if (s->replaying && seq_dist(s->rp_next, seq_add(s->ackd, 1)) >= 2048) {
      s->rp_next = seq_add(s->ackd, 1);     /* acknowledged meanwhile: skipped */
      s->replaying = outstanding(s);
    }
    break;
  }
  case UAL_PCIE_L_FC:
    if (d.stage == UAL_PCIE_UPDATE && d.fc_class <= UAL_PCIE_CPL) {
      s->lim_h[d.fc_class] = d.hdr_fc;
      s->lim_d[d.fc_class] = d.data_fc;
    }
    break;
  case UAL_PCIE_L_PM:
    if (d.type == 0x21 && s->id == A && s->pm == PM_NONE) s->pm = PM_REQ_ACK;
    if (d.type == 0x24 && s->id == B && s->pm == PM_L23) s->pm = PM_IDLE;
    break;
  default:
    break;
  }
}

/* Everything that reached s by now. */
static void receive(struct nf *p, struct nside *s, uint64_t now) {
  while (s->in_n && s->in[s->in_head].at <= now) {
    struct arrival a = s->in[s->in_head];
    s->in_head = (s->in_head + 1) % INBOX_CAP;
    s->in_n--;
    if (a.what == IN_TLP) rx_tlp(p, s, &a);
    else if (a.what == IN_DLLP) rx_dllp(s, &a);
    else if (s->pm == PM_REQ_ACK) s->pm = PM_IDLE;   /* the partner went to electrical idle */
  }
  unsigned keep = 0;
  for (unsigned i = 0; i < s->nfree; i++) {
    if (s->freeq[i].at > now) {
      s->freeq[keep++] = s->freeq[i];
      continue;
    }
    unsigned c = s->freeq[i].cls;
    if (s->alloc_h[c] == s->adv_h[c] && s->alloc_d[c] == s->adv_d[c]) s->fc_due[c] = now + syms(p, FC_WAIT);
    s->alloc_h[c] = (uint16_t)((s->alloc_h[c] + 1u) & 0xFF);
    s->alloc_d[c] = (uint16_t)((s->alloc_d[c] + s->freeq[i].d) & 0xFFF);
  }
  s->nfree = keep;
}

/* ---- transmitting ---- */

static bool credits_ok(const struct nside *s, unsigned c, unsigned data_cr) {
  if (c == CL_CPL) return true;            /* completion credits are infinite on both sides */
  if (((s->lim_h[c] - (s->use_h[c] + 1u)) & 0xFFu) > 0x80u) return false;
  return !data_cr || ((s->lim_d[c] - (s->use_d[c] + data_cr)) & 0xFFFu) <= 0x800u;
}

static void send_fc(struct nf *p, struct nside *s, uint64_t now, unsigned c, unsigned mut) {
  static const enum ual_pcie_dllp_name n[2] = { UAL_PCIE_DT_UPDATEFC_P, UAL_PCIE_DT_UPDATEFC_NP };
  struct ual_pcie_dllp d;
  ual_pcie_dllp_fc(&d, n[c], 0, 0, s->alloc_h[c], 0, s->alloc_d[c]);
  if (mut != M_TOKEN) {                  /* a lost one goes again */
    s->adv_h[c] = s->alloc_h[c];
    s->adv_d[c] = s->alloc_d[c];
  }
  send_dllp(p, s, now, &d, mut);
}

static void send_os(struct nf *p, struct nside *s, uint64_t now, unsigned type, const struct ual_ts_params *ts) {
  uint8_t body[64];
  size_t n = ts ? ual_os_build_ts(body, sizeof body, 0, p->enc, ts) : ual_os_build(body, sizeof body, 0, p->enc, type);
  emit_rec(p, s->id, UAL_REC_OS, body, n, now);
  s->t_free = ceil_ns(now + syms(p, n - 4));
}

static void send_event(struct nf *p, struct nside *s, uint64_t now, unsigned code, unsigned value) {
  struct ual_event e = { (uint16_t)code, 0, value };
  uint8_t body[UAL_REC_EVENT_BYTES];
  ual_event_build(&e, body);
  emit_rec(p, s->id, UAL_REC_EVENT, body, sizeof body, now);
}

/* The next new TLP of s is due and may go. */
static void flood_write(struct nf *p, unsigned side, uint64_t now);

static struct tlp *next_new(struct nf *p, struct nside *s, uint64_t now) {
  if (s->flood && !s->tlq_n) flood_write(p, s->id, now);
  if (!s->tlq_n || s->tlq[0].ready > now || s->hold_new || s->replaying) return NULL;
  if (seq_dist(s->next_seq, s->ackd) >= 2048 && !s->over_limit) return NULL;   /* 2047 outstanding: stall */
  struct tlp *t = &s->tlq[0];
  return credits_ok(s, t->cls, t->data_cr) ? t : NULL;
}

static void tlq_pop(struct nside *s) {
  memmove(s->tlq, s->tlq + 1, (s->tlq_n - 1) * sizeof s->tlq[0]);
  s->tlq_n--;
}

static bool fc_due(const struct nside *s, unsigned c, uint64_t now) {
  if (s->alloc_h[c] == s->adv_h[c] && s->alloc_d[c] == s->adv_d[c]) return false;
  return now >= s->fc_due[c] || ((s->alloc_h[c] - s->adv_h[c]) & 0xFFu) >= 4u;
}

/* An Ack or Nak of s: the expectation the probe has of it. */
static void acknak(struct nf *p, struct nside *s, uint64_t now, bool nak) {
  struct ual_pcie_dllp d;
  struct nside *x = &p->s[s->id ^ 1u];
  uint16_t n = seq_add(s->next_rcv, -1);
  simple_dllp(&d, nak ? 0x10 : 0x00, n);
  send_dllp(p, s, now, &d, M_NONE);
  s->last_ack = n;
  if (nak) {
    truth(p, s->id, UAL_R_PD_NAK, true, "the receiver Naks");
    x->nak_ps = now;
    x->nak_new = 0;
  } else if (s->late_ack_rule >= 0) {
    label(p, s->id, s->late_ack_rule, s->late_ack_rule != I_ACK_LATENCY || !p->want[I_ACK_LATENCY], NULL);
    s->late_ack_rule = -1;
  }
  if (x->expect && now > x->expect_ps) {
    if (!nak) label(p, s->id, x->expect_rule, x->expect_rule != I_NO_NAK || !p->want[I_NO_NAK], NULL);
    x->expect = false;
  }
  s->ack_pending = false;
}

/* PN-ACK-AHEAD: s acknowledges the number after the partner's newest
 * TLP, when every TLP of the partner has arrived and been acknowledged and
 * the partner has another one coming. */
static bool ack_ahead(struct nf *p, struct nside *s, uint64_t now) {
  const struct nside *x = &p->s[s->id ^ 1u];
  if (s->ack_pending || s->in_n || x->tlq_n == 0 || seq_add(x->next_seq, -1) != seq_add(s->next_rcv, -1) ||
      s->last_ack != seq_add(s->next_rcv, -1) || !take(p, I_ACK_AHEAD))
    return false;
  struct ual_pcie_dllp d;
  simple_dllp(&d, 0x00, s->next_rcv);
  send_dllp(p, s, now, &d, M_NONE);
  label(p, s->id, I_ACK_AHEAD, false, NULL);
  return true;
}

/* One packet of s at now if it has one; false when it has nothing. */
static bool transmit(struct nf *p, struct nside *s, uint64_t now) {
  struct ual_pcie_dllp d;
  if (now < s->silent_until) return false;
  if (s->send_nak) {
    acknak(p, s, now, true);
    s->send_nak = false;
    return true;
  }
  if (s->id == A && ack_ahead(p, s, now)) return true;
  if (s->ack_pending && !s->ack_hold && !s->acks_off && (s->ack_count >= s->ack_k || now >= s->ack_due)) {
    acknak(p, s, now, false);
    return true;
  }
  for (unsigned c = CL_P; c <= CL_NP; c++)
    if (fc_due(s, c, now) && s->pm < PM_L23) {
      bool token = s->id == B && take(p, I_TOKEN);
      send_fc(p, s, now, c, token ? M_TOKEN : M_NONE);
      if (token) label(p, s->id, I_TOKEN, false, NULL);
      return true;
    }
  if (s->timer_on && outstanding(s) && !s->replaying && !s->no_timer &&
      now >= s->timer_start + syms(p, REPLAY_TIMER)) {
    replay_starts(s);                      /* REPLAY_TIMER expired */
    s->rp_next = seq_add(s->ackd, 1);
    s->hold_new = s->replay_pending = false;
  }
  if (s->replaying) {
    uint16_t q = s->rp_next;
    bool first = s->rp_first;
    struct rbent e = s->rb[q];
    int rule = -1;
    if (first && s->rp_differs) {          /* injected: the retransmission is not the TLP first sent */
      e.b[e.n - 1] ^= 0x01;
      s->rp_differs = false;
      rule = I_REPLAY_DIFFERS;
    }
    if (first && s->rp_label >= 0) {
      rule = s->rp_label;
      s->rp_label = -1;
    }
    send_tlp(p, s, now, q, &e, NULL, M_NONE);
    if (rule >= 0) label(p, s->id, rule, false, NULL);
    s->rp_first = false;
    s->rp_next = seq_add(q, 1);
    if (s->rp_skip == 2 && first) {        /* injected: the second is left out */
      s->rp_next = seq_add(q, 2);
      s->rp_skip = 0;
      s->order_next = true;
    }
    if (s->rp_next == s->next_seq || seq_dist(s->rp_next, s->next_seq) < 2048) s->replaying = false;
    return true;
  }
  struct tlp *t = next_new(p, s, now);
  if (t && !(s->id == B && s->pm >= PM_L23) && s->pm < PM_IDLE) {
    uint16_t q = s->next_seq;
    struct rbent *e = &s->rb[q];
    memcpy(e->b, t->b, t->n);
    e->n = t->n;
    e->rsvd = t->mut == M_SEQ_RSVD;
    e->txn = t->txn;
    e->cls = t->cls;
    e->data_cr = t->data_cr;
    e->last = t->last;
    e->tl = t->tl;
    unsigned mut = t->mut;
    send_tlp(p, s, now, q, e, t, mut);
    if (s->over_limit && seq_dist(q, s->ackd) >= 2048) {
      label(p, s->id, I_OUTSTANDING, false, NULL);
      s->over_limit = false;
      s->flood = 0;
      p->s[s->id ^ 1u].acks_off = false;   /* the partner Acks again, late */
      p->s[s->id ^ 1u].late_ack_rule = I_ACK_LATENCY;
    }
    if (mut == M_NULLIFY || mut == M_NULLIFY_BAD) {
      t->mut = M_NONE;                     /* sent again with the same number */
      t->rule[0] = t->rule[1] = -1;
      if (mut == M_NULLIFY_BAD) s->hold_new = true;
      return true;
    }
    if (mut == M_LCRC || mut == M_FRAME_END || mut == M_FRAME_SHORT || mut == M_STP_CHECK || mut == M_STP_LENGTH ||
        mut == M_LCRC_NONAK || t->hold)
      s->hold_new = true;                  /* the bad TLP stays the newest until the Nak */
    if (s->replay_pending && --s->nak_defer == 0) {
      s->replay_pending = false;           /* injected: the replay only now */
      replay_starts(s);
      s->rp_next = seq_add(s->ackd, 1);
    }
    if (t->cls != CL_CPL) {
      s->use_h[t->cls] = (uint16_t)((s->use_h[t->cls] + 1u) & 0xFF);
      s->use_d[t->cls] = (uint16_t)((s->use_d[t->cls] + t->data_cr) & 0xFFF);
    }
    s->next_seq = seq_add(q, 1);
    tlq_pop(s);
    return true;
  }
  /* PM_Enter_L23 once PME_TO_Ack is acknowledged (PN-PM-L23-UNACKED: at once) */
  if (s->id == B && s->pm == PM_WAIT_TO_ACK && !s->tlq_n) {
    s->pm_unacked = outstanding(s) && take(p, I_PM_L23_UNACKED);
    if (!outstanding(s) || s->pm_unacked) s->pm = PM_L23;
  }
  if (s->id == B && s->pm == PM_L23) {
    simple_dllp(&d, 0x21, 0);
    send_dllp(p, s, now, &d, M_NONE);
    if (s->pm_unacked) label(p, s->id, I_PM_L23_UNACKED, false, NULL);
    s->pm_unacked = false;
    return true;
  }
  if (s->id == A && s->pm == PM_REQ_ACK && take(p, I_PM_UNACKED)) {
    static const uint8_t m8[8] = { EP_ID >> 8, EP_ID & 0xFF, 0x1A, 0xB4 };
    msg(p, A, 0x32, 0x7F, m8, 0, NULL, now, -1, TLK_NONE);   /* one more TLP, then PM_Request_Ack at once */
    s->pm_unacked = true;
    return transmit(p, s, now);
  }
  if (s->id == A && s->pm == PM_REQ_ACK && !s->tlq_n && (!outstanding(s) || s->pm_unacked) && !s->ack_pending) {
    simple_dllp(&d, 0x24, 0);
    send_dllp(p, s, now, &d, M_NONE);
    if (s->pm_unacked && outstanding(s)) label(p, s->id, I_PM_UNACKED, false, NULL);
    s->pm_unacked = false;
    return true;
  }
  return false;
}

/* When s has something to do after now (it had nothing at now), nothing
 * arriving meanwhile. */
static uint64_t wake(const struct nf *p, const struct nside *s, uint64_t now) {
  uint64_t w = PS_NEVER;
#define AT_(t) do { uint64_t t_ = (t); if (t_ > now && t_ < w) w = t_; } while (0)
  if (s->in_n) AT_(s->in[s->in_head].at);
  AT_(s->silent_until);
  if (s->ack_pending && !s->ack_hold) AT_(s->ack_due);
  for (unsigned c = CL_P; c <= CL_NP; c++)
    if (s->alloc_h[c] != s->adv_h[c] || s->alloc_d[c] != s->adv_d[c]) AT_(s->fc_due[c]);
  for (unsigned i = 0; i < s->nfree; i++) AT_(s->freeq[i].at);
  if (s->tlq_n && !s->hold_new) AT_(s->tlq[0].ready);
  if (s->timer_on && outstanding(s)) AT_(s->timer_start + syms(p, REPLAY_TIMER));
  if (p->traffic) AT_(s->next_req);
#undef AT_
  return w < s->t_free ? s->t_free : w;
}

/* ---- the scenario ---- */

/* Both sides in turn, each 16-symbol ordered set, n of a kind. */
static uint64_t os_burst(struct nf *p, uint64_t t, unsigned n, unsigned type, const struct ual_ts_params *ts) {
  for (unsigned i = 0; i < n; i++)
    for (unsigned side = 0; side < 2; side++) {
      send_os(p, &p->s[side], t, type, ts);
      t = p->s[side].t_free;
    }
  return t;
}

static void ts_params(const struct nf *p, struct ual_ts_params *ts, bool ts2, bool speed_change) {
  memset(ts, 0, sizeof *ts);
  ts->ts2 = ts2;
  ts->n_fts = 0x40;
  /* Data Rate Identifier: bit 1 2.5, 2 5.0, 3 8.0, 4 16.0, 5 32.0 GT/s; bit 7 speed change */
  unsigned rates = 0x02;
  if (p->rate == RATE_50 || p->enc) rates |= 0x04;
  if (p->enc) rates |= 0x08;
  if (p->rate == RATE_160 || p->rate == RATE_320) rates |= 0x10;
  if (p->rate == RATE_320) rates |= 0x20;
  ts->rate_id = (uint8_t)(rates | (speed_change ? 0x80 : 0));
}

/* Receiver detected, TS1/TS2 at 2.5 GT/s (8b/10b). */
static uint64_t link_up(struct nf *p, uint64_t t) {
  struct ual_ts_params ts;
  send_event(p, &p->s[A], t, UAL_EV_RX_DETECT, 0);
  t += 1000000;
  ts_params(p, &ts, false, false);
  t = os_burst(p, t, TRAIN_OS, UAL_OS_TS1, &ts);
  ts_params(p, &ts, true, false);
  return os_burst(p, t, TRAIN_OS, UAL_OS_TS2, &ts);
}

/* InitFC1 P/NP/Cpl of VC0 twice from each side, then InitFC2 twice. The
 * Root Port advertises P 32/256 and NP 32/32, the Endpoint P 64/256 and NP
 * 8/8; completions infinite on both. */
static uint64_t dl_init(struct nf *p, uint64_t t) {
  static const unsigned adv_h[2][2] = { { 32, 32 }, { 64, 8 } }, adv_d[2][2] = { { 256, 32 }, { 256, 8 } };
  static const enum ual_pcie_dllp_name i1[3] = { UAL_PCIE_DT_INITFC1_P, UAL_PCIE_DT_INITFC1_NP, UAL_PCIE_DT_INITFC1_CPL };
  static const enum ual_pcie_dllp_name i2[3] = { UAL_PCIE_DT_INITFC2_P, UAL_PCIE_DT_INITFC2_NP, UAL_PCIE_DT_INITFC2_CPL };
  for (unsigned stage = 0; stage < 2; stage++)
    for (unsigned round = 0; round < 2; round++)
      for (unsigned c = 0; c < 3; c++)
        for (unsigned side = 0; side < 2; side++) {
          struct ual_pcie_dllp d;
          unsigned h = c < 2 ? adv_h[side][c] : 0, dd = c < 2 ? adv_d[side][c] : 0;
          ual_pcie_dllp_fc(&d, stage ? i2[c] : i1[c], 0, 0, h, 0, dd);
          uint8_t d6[UAL_PCIE_DLLP_BYTES], body[BODY_MAX];
          ual_pcie_dllp_build(&d, d6);
          size_t bn = ual_pcie_nf_build_dllp(p->enc, d6, body, sizeof body);
          send_pkt(p, &p->s[side], t, body, bn, bn - UAL_PCIE_NF_HDR, true);
          t = p->s[side].t_free;
        }
  for (unsigned side = 0; side < 2; side++) {
    struct nside *s = &p->s[side], *o = &p->s[side ^ 1];
    for (unsigned c = 0; c < 2; c++) {
      s->alloc_h[c] = s->adv_h[c] = (uint16_t)adv_h[side][c];
      s->alloc_d[c] = s->adv_d[c] = (uint16_t)adv_d[side][c];
      o->lim_h[c] = (uint16_t)adv_h[side][c];
      o->lim_d[c] = (uint16_t)adv_d[side][c];
    }
    s->next_seq = 0;
    s->ackd = SEQ_MOD - 1;
    s->next_rcv = 0;
    s->seen_newest = SEQ_MOD - 1;
  }
  return t;
}

/* Recovery to the final rate: TS1 with the speed change bit, the rate
 * event, then (128b/130b) EIEOS and TS1/TS2 at the new rate. */
static uint64_t speed_change(struct nf *p, uint64_t t, unsigned rate, unsigned enc) {
  struct ual_ts_params ts;
  ts_params(p, &ts, false, true);
  t = os_burst(p, t, 4, UAL_OS_TS1, &ts);
  p->rate = rate;
  p->enc = enc;
  send_event(p, &p->s[A], t, UAL_EV_RATE, rate);
  t += 2000000;
  if (enc) t = os_burst(p, t, 1, UAL_OS_EIEOS, NULL);
  ts_params(p, &ts, false, false);
  t = os_burst(p, t, TRAIN_OS, UAL_OS_TS1, &ts);
  ts_params(p, &ts, true, false);
  return os_burst(p, t, TRAIN_OS, UAL_OS_TS2, &ts);
}

/* A framing error in 128b/130b sends both receivers to Recovery: TS1 and
 * TS2 both ways, the data link state kept. */
static void recovery(struct nf *p) {
  uint64_t t = p->s[A].t_free > p->s[B].t_free ? p->s[A].t_free : p->s[B].t_free;
  struct ual_ts_params ts;
  ts_params(p, &ts, false, false);
  t = os_burst(p, t, 4, UAL_OS_TS1, &ts);
  ts_params(p, &ts, true, false);
  t = os_burst(p, t, 4, UAL_OS_TS2, &ts);
  for (unsigned i = 0; i < 2; i++) {
    struct nside *s = &p->s[i];
    if (s->timer_on) s->timer_start += t - s->t_free;    /* held while retraining */
    s->t_free = s->t_next = t;
  }
  p->recovery_due = false;
}

/* A memory address of len DW that stays inside one 4-KB page. */
static uint64_t in_page(struct nf *p, uint64_t base, unsigned pages, unsigned len) {
  uint64_t page = base + 4096ull * gen_rng_below(&p->rng, pages);
  return page + 4ull * gen_rng_below(&p->rng, 1024u - len + 1u);
}

static unsigned rand_len(struct nf *p, unsigned max) {
  return gen_rng_below(&p->rng, 3) ? 1u + gen_rng_below(&p->rng, max < 4 ? max : 4) : 1u + gen_rng_below(&p->rng, max);
}

/* A posted Endpoint MWr64 to host memory carrying mut (and its label). */
static void ep_write(struct nf *p, uint64_t now, unsigned len, unsigned mut, int rule) {
  struct nside *s = &p->s[B];
  unsigned n0 = s->tlq_n;
  req_mem(p, B, 0x60, in_page(p, HOST_MEM, 16, len), len, now, -1);
  if (s->tlq_n == n0) return;
  struct tlp *t = &s->tlq[s->tlq_n - 1];
  t->mut = (uint8_t)mut;
  if (rule >= 0) tlp_label(t, rule, false);
}

/* One small posted write of the PN-OUTSTANDING flood. */
static void flood_write(struct nf *p, unsigned side, uint64_t now) {
  struct nside *s = &p->s[side];
  s->flood--;
  struct ual_pcie_tlp_fields h;
  struct tlp t;
  spec(&h, &t, 0x40, 1, HOST_ID, now);
  h.first_be = 0xF;
  h.addr = BAR0 + 4u * (s->flood % 1024u);
  make_tlp(p, &t, &h, NULL, 1, false);
  tlq_push(p, side, &t);
}

/* Root Port writes for a DL injection: n of them, the first with mut,
 * no new TLP after the hold-th (1-based; 0 none) until a Nak or a replay. */
static bool rp_writes(struct nf *p, uint64_t now, unsigned n, unsigned mut, unsigned hold, uint32_t silence) {
  struct nside *s = &p->s[A];
  for (unsigned i = 0; i < n; i++) {
    if (!req_mem(p, A, 0x40, BAR0 + 0x200 + 16u * i, 2, now, -1)) return i > 0;
    struct tlp *t = &s->tlq[s->tlq_n - 1];
    if (i == 0) {
      t->mut = (uint8_t)mut;
      t->silence = silence;
    }
    t->hold = i + 1 == hold;
  }
  return true;
}

/* The DL injections of the Root Port's TLPs (the Endpoint judges them);
 * true when one was set up. Each starts with nothing of the Root Port
 * outstanding, so a Nak of the Endpoint makes no progress unless said. */
static bool inject_dl(struct nf *p, uint64_t now) {
  struct nside *s = &p->s[A], *y = &p->s[B];
  if (outstanding(s) || s->tlq_n || y->ack_pending || s->replaying) return false;
  if (take(p, I_REPLAY)) return rp_writes(p, now, 1, M_RXERR, 1, 0);
  if (take(p, I_REPLAY_DIFFERS)) {
    s->rp_differs = true;
    return rp_writes(p, now, 1, M_RXERR, 1, 0);
  }
  if (take(p, I_NAK_NO_REPLAY)) {
    s->nak_defer = 2;
    return rp_writes(p, now, 3, M_RXERR, 1, 0);
  }
  if (take(p, I_REPLAY_START)) {
    s->rp_skip = 1;
    s->rp_label = I_REPLAY_START;
    return rp_writes(p, now, 2, M_RXERR, 2, 0);
  }
  if (take(p, I_REPLAY_ORDER)) {
    s->rp_skip = 2;
    return rp_writes(p, now, 3, M_RXERR, 3, 0);
  }
  if (take(p, I_REPLAY_NUM)) {
    y->rxerr_seq = s->next_seq;
    y->rxerr_left = 4;
    y->late_ack_rule = I_ACK_LATENCY;        /* the probe saw the replays good and in sequence */
    s->num_replays = 4;
    return rp_writes(p, now, 1, M_NONE, 1, 0);
  }
  if (take(p, I_SEQ_GAP)) return rp_writes(p, now, 2, M_MISSED, 0, 0);
  if (take(p, I_NO_NAK)) {
    bool ok = rp_writes(p, now, 1, M_LCRC_NONAK, 1, 0);
    tlp_label(&s->tlq[s->tlq_n - 1], I_LCRC, true);
    return ok;
  }
  if (take(p, I_ACK_LATENCY)) return rp_writes(p, now, 1, M_NONE, 0, 6000);
  if (take(p, I_REPLAY_TIMEOUT)) {         /* the link quiet: the first record after raises it */
    s->no_timer = true;
    s->quiet_after = REPLAY_QUIET_SYMS;
    return rp_writes(p, now, 1, M_NONE, 1, REPLAY_QUIET_SYMS);
  }
  if (take(p, I_OUTSTANDING)) {
    s->flood = 2100;
    s->over_limit = true;
    y->acks_off = true;
    return true;
  }
  return false;
}

/* The injections a request of side at now can carry; true when one did. */
static bool inject_request(struct nf *p, unsigned side, uint64_t now) {
  static const uint8_t zero8[8];
  if (side == B) {
    static const struct { int rule; uint8_t mut; } muts[] = {
      { I_LCRC, M_LCRC }, { I_FRAME_END, M_FRAME_END }, { I_FRAME_SHORT, M_FRAME_SHORT },
      { I_STP_CHECK, M_STP_CHECK }, { I_STP_LENGTH, M_STP_LENGTH }, { I_REC_TRUNC, M_TRUNC },
    };
    for (size_t i = 0; i < sizeof muts / sizeof muts[0]; i++)
      if (take(p, muts[i].rule)) {
        ep_write(p, now, 2, muts[i].mut, muts[i].rule);
        if (muts[i].mut == M_TRUNC) ep_write(p, now, 1, M_NONE, -1);   /* the next TLP right behind it */
        return true;
      }
    static const int mem_rules[] = { I_ECRC, I_TLP_SIZE, I_TLP_BE, I_TLP_RESERVED,
                                     I_POISONED };
    for (size_t i = 0; i < sizeof mem_rules / sizeof mem_rules[0]; i++)
      if (take(p, mem_rules[i])) return req_mem(p, B, 0x60, in_page(p, HOST_MEM, 16, 2), 1, now, mem_rules[i]);
    if (take(p, I_TLP_4KB)) return req_mem(p, B, 0x60, HOST_MEM + 0xFF0, 8, now, I_TLP_4KB);
    if (take(p, I_TLP_ATOMIC)) return req_mem(p, B, 0x4C, HOST_MEM + 0x100, 1, now, I_TLP_ATOMIC);
    if (take(p, I_TLP_ADDR64)) return req_mem(p, B, 0x60, 0x7F001000u, 1, now, I_TLP_ADDR64);
    if (take(p, I_TLP_TYPE)) {
      struct ual_pcie_tlp_fields h;
      struct tlp t;
      spec(&h, &t, 0x00, 1, EP_ID, now);
      h.first_be = 0xF;
      h.addr = HOST_MEM;
      make_tlp(p, &t, &h, NULL, 0, false);
      t.b[0] = 0x03;                       /* Fmt 000, Type 00011: reserved in NFM (MRd32 in flit mode) */
      t.cls = CL_P;
      tlp_label(&t, I_TLP_TYPE, false);
      tlq_push(p, B, &t);
      return true;
    }
    if (take(p, I_TLP_PREFIX)) {
      struct ual_pcie_tlp_fields h;
      struct tlp t;
      spec(&h, &t, 0x60, 1, EP_ID, now);
      h.first_be = 0xF;
      h.addr = HOST_MEM + 0x200;
      for (unsigned i = 0; i < 5; i++) {   /* VendPrefixE0 x5: at most 4 End-End prefixes */
        t.b[4 * i] = 0x9E;
        t.b[4 * i + 3] = (uint8_t)i;
      }
      struct tlp body;
      tlp_init(&body, now);
      make_tlp(p, &body, &h, NULL, 1, false);
      memcpy(t.b + 20, body.b, body.n);
      t.n = (uint16_t)(20 + body.n);
      t.cls = CL_P;
      t.data_cr = 1;
      tlp_label(&t, I_TLP_PREFIX, false);
      tlq_push(p, B, &t);
      return true;
    }
    if (take(p, I_TLP_AT)) {
      msg(p, B, 0x34, 0x20, zero8, 0, NULL, now, I_TLP_AT, TLK_NONE);
      msg(p, B, 0x34, 0x24, zero8, 0, NULL, now + syms(p, 200), -1, TLK_NONE);
      return true;
    }
    if (take(p, I_MSG_TC)) {
      uint8_t m8[8] = { 0, 0, 0, 0, 0x88, 0x10, 0x88, 0x10 };
      msg(p, B, 0x34, 0x10, m8, 0, NULL, now, I_MSG_TC, TLK_NONE);
      return true;
    }
    if (take(p, I_MSG_CODE)) {
      msg(p, B, 0x34, 0x60, zero8, 0, NULL, now, I_MSG_CODE, TLK_NONE);
      return true;
    }
    if (take(p, I_MSG_INTX)) {
      msg(p, B, 0x34, 0x20, zero8, 0, NULL, now, I_MSG_INTX, TLK_NONE);
      return true;
    }
    if (take(p, I_CPL_UNEXPECTED)) {
      struct tlp t;
      struct ual_pcie_tlp_fields h;
      spec(&h, &t, 0x4A, 1, HOST_ID, now);
      h.cid = EP_ID;
      h.tag = 0xFF;
      h.byte_count = 4;
      while (p->s[A].tag_busy[h.tag]) h.tag--;
      make_tlp(p, &t, &h, NULL, 1, false);
      tlp_label(&t, I_CPL_UNEXPECTED, false);
      tlq_push(p, B, &t);
      return true;
    }
    if (take(p, I_CPL_TIMEOUT)) {
      if (!req_mem(p, B, 0x20, in_page(p, HOST_MEM, 16, 4), 4, now, -1)) return false;
      int k = p->s[B].tlq[p->s[B].tlq_n - 1].txn;
      p->txn[k].no_cpl = 1;
      p->timeout_txn = k;
      return true;
    }
    return false;
  }
  static const struct { int rule; uint8_t mut; } muts[] = {
    { I_NULLIFIED, M_NULLIFY }, { I_NULLIFIED_BAD, M_NULLIFY_BAD }, { I_SEQ_RESERVED, M_SEQ_RSVD },
  };
  if (inject_dl(p, now)) return true;
  for (size_t i = 0; i < sizeof muts / sizeof muts[0]; i++)
    if (take(p, muts[i].rule)) {
      struct nside *s = &p->s[A];
      if (!req_mem(p, A, 0x40, BAR0 + 0x100, 2, now, muts[i].rule)) return false;
      s->tlq[s->tlq_n - 1].mut = muts[i].mut;
      return true;
    }
  if (take(p, I_TLP_IOCFG)) return req_cfg(p, 0x04, 0x08, now, I_TLP_IOCFG);
  if (take(p, I_TLP_DEPRECATED)) return req_cfg(p, 0x1B, 0x00, now, I_TLP_DEPRECATED);
  if (take(p, I_CPL_RRS)) return req_cfg(p, 0x04, 0x00, now, I_CPL_RRS);
  if (take(p, I_CPL_FORM)) return req_io(p, 0x02, now, I_CPL_FORM);
  if (take(p, I_MSG_FORM)) {
    uint8_t data[8] = { 0x19, 0x00 };      /* 25 W: Length 2 for a Length-1 message */
    msg(p, A, 0x74, 0x50, zero8, 1, data, now, I_MSG_FORM, TLK_NONE);
    return true;
  }
  if (take(p, I_MSG_DIR)) {
    msg(p, A, 0x30, 0x30, zero8, 0, NULL, now, I_MSG_DIR, TLK_NONE);
    return true;
  }
  static const struct { int rule; uint8_t status; } cpl[] = {
    { I_CPL_UR, 1 }, { I_CPL_CA, 4 }, { I_CPL_STATUS_RSVD, 3 }, { I_CPL_BCM, 0 },
    { I_CPL_MISMATCH, 0 },
  };
  for (size_t i = 0; i < sizeof cpl / sizeof cpl[0]; i++)
    if (take(p, cpl[i].rule)) {
      unsigned len = cpl[i].rule == I_CPL_MISMATCH ? 4 : 1;
      uint64_t addr = cpl[i].rule == I_CPL_UR ? BAR0 + 0x10000u : BAR0 + 0x40u;
      if (!req_mem(p, A, 0x00, addr, len, now, -1)) return false;
      struct txn *x = &p->txn[p->s[A].tlq[p->s[A].tlq_n - 1].txn];
      x->status = cpl[i].status;
      x->cpl_rule = (int16_t)cpl[i].rule;
      return true;
    }
  return false;
}

/* The host's enumeration of the Endpoint, then Set_Slot_Power_Limit. */
#define ENUM_STEPS 11u
static bool enumerate(struct nf *p, uint64_t now) {
  static const struct { uint8_t type, reg; } steps[ENUM_STEPS] = {
    { 0x04, 0x00 }, { 0x04, 0x08 }, { 0x04, 0x0C }, { 0x44, 0x10 }, { 0x04, 0x10 }, { 0x44, 0x18 }, { 0x44, 0x1C },
    { 0x44, 0x14 }, { 0x04, 0x2C }, { 0x04, 0x34 }, { 0x44, 0x04 },
  };
  if (p->cfg_step < sizeof steps / sizeof steps[0]) {
    if (req_cfg(p, steps[p->cfg_step].type, steps[p->cfg_step].reg, now, -1)) p->cfg_step++;
    return true;
  }
  if (p->cfg_step++ == sizeof steps / sizeof steps[0]) {
    static const uint8_t zero8[8];
    uint8_t data[4] = { 0xfa, 0x01, 0x00, 0x00 };   /* 250 x 0.1 W */
    msg(p, A, 0x74, 0x50, zero8, 1, data, now, -1, TLK_NONE);
    return true;
  }
  return false;
}

static unsigned busy_tags(const struct nside *s) {
  unsigned n = 0;
  for (unsigned i = 0; i < TAGS; i++) n += s->tag_busy[i];
  return n;
}

static void request(struct nf *p, unsigned side, uint64_t now) {
  struct nside *s = &p->s[side];
  if (s->tlq_n > 12 || busy_tags(s) >= MAX_NP) return;
  if (side == B && p->cfg_step <= ENUM_STEPS) return;   /* the Endpoint starts once it is enumerated */
  if (inject_request(p, side, now)) return;
  static const uint8_t zero8[8];
  unsigned r = gen_rng_below(&p->rng, 100);
  if (side == A) {
    if (enumerate(p, now)) return;
    unsigned len = rand_len(p, 16);
    if (r < 30) req_mem(p, A, 0x00, in_page(p, BAR0, 16, len), len, now, -1);
    else if (r < 50) req_mem(p, A, 0x40, in_page(p, BAR0, 16, len), len, now, -1);
    else if (r < 60) req_mem(p, A, 0x60, in_page(p, BAR2, 16, len), len, now, -1);
    else if (r < 70) req_mem(p, A, 0x20, in_page(p, BAR2, 16, len), len, now, -1);
    else if (r < 80) req_io(p, gen_rng_below(&p->rng, 2) ? 0x42 : 0x02, now, -1);
    else if (r < 88) req_cfg(p, 0x04, 4u * gen_rng_below(&p->rng, 64), now, -1);
    else if (r < 96) {                    /* Vendor_Defined Type 1 to 01:00.0, Vendor ID 1AB4h */
      uint8_t m8[8] = { EP_ID >> 8, EP_ID & 0xFF, 0x1A, 0xB4, (uint8_t)r, 0x5A, 0xA5, 0x3C };
      bool data = gen_rng_below(&p->rng, 2);
      msg(p, A, data ? 0x72 : 0x32, 0x7F, m8, data ? 2 : 0, NULL, now, -1, TLK_NONE);
    } else {
      uint8_t data[4] = { 0x19, 0x00, 0x00, 0x00 };   /* 25 W */
      msg(p, A, 0x74, 0x50, zero8, 1, data, now, -1, TLK_NONE);
    }
    return;
  }
  if (r < 28) {
    unsigned len = gen_rng_below(&p->rng, 2) ? 1u + gen_rng_below(&p->rng, 128) : 16u * (1u + gen_rng_below(&p->rng, 8));
    req_mem(p, B, 0x20, in_page(p, HOST_MEM, 64, len), len, now, -1);
  } else if (r < 58) {
    unsigned len = rand_len(p, 64);
    req_mem(p, B, 0x60, in_page(p, HOST_MEM, 64, len), len, now, -1);
  } else if (r < 66) {
    unsigned len = rand_len(p, 16);
    req_mem(p, B, 0x00, in_page(p, 0x7F000000u, 16, len), len, now, -1);
  } else if (r < 72) {
    unsigned len = 1u + gen_rng_below(&p->rng, 2);     /* FetchAdd 32 or 64 bit, naturally aligned */
    req_mem(p, B, 0x6C, HOST_MEM + 0x8000 + 8u * gen_rng_below(&p->rng, 256), len, now, -1);
  } else if (r < 80) {                    /* LTR: snoop / no-snoop latency in bytes 12-15 */
    uint8_t m8[8] = { 0, 0, 0, 0, 0x88, (uint8_t)(0x10 + r), 0x88, 0x10 };
    msg(p, B, 0x34, 0x10, m8, 0, NULL, now, -1, TLK_NONE);
  } else if (r < 94) {                    /* INTA asserted, then deasserted */
    msg(p, B, 0x34, 0x20, zero8, 0, NULL, now, -1, TLK_NONE);
    msg(p, B, 0x34, 0x24, zero8, 0, NULL, now + rand_syms(p, 100, 400), -1, TLK_NONE);
  } else {
    msg(p, B, 0x30, 0x18, zero8, 0, NULL, now, -1, TLK_NONE);
  }
}

/* Nothing left in flight: queues, retry buffers, Acks, credits. */
static bool quiet(const struct nf *p) {
  for (unsigned i = 0; i < 2; i++) {
    const struct nside *s = &p->s[i];
    if (s->tlq_n || outstanding(s) || s->ack_pending || s->send_nak || s->replaying || s->nfree || s->in_n) return false;
    for (unsigned c = 0; c < 2; c++)
      if (s->alloc_h[c] != s->adv_h[c] || s->alloc_d[c] != s->adv_d[c]) return false;
  }
  for (unsigned k = 0; k < TXN_CAP; k++)
    if (p->txn[k].used && !p->txn[k].no_cpl) return false;
  return true;
}

/* PME_Turn_Off (after the idle gap of PN-CPL-TIMEOUT). */
static void start_pm(struct nf *p, uint64_t now) {
  static const uint8_t zero8[8];
  if (p->timeout_txn >= 0) {
    now += TIMEOUT_GAP_PS;
    for (unsigned i = 0; i < 2; i++) p->s[i].t_free = p->s[i].t_next = now;
    struct tlp *t;
    msg(p, A, 0x33, 0x19, zero8, 0, NULL, now, -1, TLK_TURN_OFF);
    t = &p->s[A].tlq[p->s[A].tlq_n - 1];
    tlp_label(t, I_CPL_TIMEOUT, false);
  } else {
    msg(p, A, 0x33, 0x19, zero8, 0, NULL, now + rand_syms(p, 200, 200), -1, TLK_TURN_OFF);
  }
  p->pm_started = true;
}

static bool pending(const struct nf *p) {
  for (int i = 0; i < I_COUNT; i++)     /* the PM ones come at the end */
    if (p->want[i] && !p->taken[i] && i != I_PM_UNACKED && i != I_PM_L23_UNACKED) return true;
  return false;
}

/* The event loop: the side due first acts. */
static int run_loop(struct nf *p, char *err, size_t cap) {
  uint64_t stall = 0, last = 0;
  while (!p->stop) {
    if (p->recovery_due) recovery(p);
    struct nside *s = p->s[A].t_next <= p->s[B].t_next ? &p->s[A] : &p->s[B];
    uint64_t now = s->t_next;
    if (now != PS_NEVER) now = ceil_ns(now);   /* records are time stamped in whole ns */
    if (now == PS_NEVER) {
      if (p->s[A].pm == PM_DONE && p->s[B].pm == PM_DONE) return 0;
      if (!p->pm_started && quiet(p)) {
        uint64_t t = p->s[A].t_free > p->s[B].t_free ? p->s[A].t_free : p->s[B].t_free;
        start_pm(p, t);
        continue;
      }
      snprintf(err, cap, "pcie-gen: the link stalled (frame %llu)", (unsigned long long)p->frame);
      return -1;
    }
    bool over = p->frame >= p->target || (p->o->duration_ps && now >= p->t0 + p->o->duration_ps);
    if (p->traffic && over && !(pending(p) && p->frame < p->target + 200000)) p->traffic = false;
    receive(p, s, now);
    if (p->traffic && now >= s->next_req) {
      request(p, s->id, now);
      s->next_req = now + rand_syms(p, 0, s->id == A ? 300 : 200);
    }
    if (s->pm == PM_IDLE) {               /* electrical idle: EIOS, the event, nothing more */
      send_os(p, s, now, UAL_OS_EIOS, NULL);
      send_event(p, s, s->t_free, UAL_EV_EIDLE_ENTER, 0);
      struct arrival a;
      memset(&a, 0, sizeof a);
      a.at = s->t_free + p->lat_ps;
      a.what = IN_EIDLE;
      arrive(p, s->id ^ 1u, &a);
      s->t_next = PS_NEVER;
      s->pm = PM_DONE;
      continue;
    }
    if (s->pm == PM_DONE) { s->t_next = PS_NEVER; continue; }
    if (now < s->t_free) { s->t_next = s->t_free; continue; }
    if (transmit(p, s, now)) s->t_next = s->t_free;
    else s->t_next = wake(p, s, now);
    if (p->frame != last) { last = p->frame; stall = 0; }
    else if (++stall > 1000000) {
      snprintf(err, cap, "pcie-gen: no progress at frame %llu", (unsigned long long)p->frame);
      return -1;
    }
  }
  snprintf(err, cap, "output stopped");
  return -1;
}

int gen_pcienf_run(int sc, const struct gen_opts *o, const struct gen_out *out, uint64_t *records, char *err, size_t cap) {
  struct nf *p = calloc(1, sizeof *p);
  struct rbent *rb = calloc(2 * SEQ_MOD, sizeof *rb);
  if (!p || !rb) {
    free(p);
    free(rb);
    snprintf(err, cap, "out of memory");
    return -1;
  }
  p->o = o;
  p->out = out;
  p->sc = sc;
  p->timeout_txn = -1;
  bool g3 = sc == GEN_SC_PCIE_GEN3;
  unsigned rate = o->rate ? o->rate : g3 ? RATE_80 : RATE_25;
  int rc = -1;
  if (g3 ? rate != RATE_80 && rate != RATE_160 && rate != RATE_320 : rate != RATE_25 && rate != RATE_50) {
    snprintf(err, cap, "%s: --rate must be %s", gen_scenario_name(sc), g3 ? "8.0, 16.0 or 32" : "2.5 or 5.0");
    goto done;
  }
  for (int i = 0; i < I_COUNT; i++) p->rule[i] = ual_rule_lookup(catalog[i].id);
  for (unsigned i = 0; i < o->n_inject; i++) {
    int r = o->inject[i].rule, k = find(r);
    if (k < 0 || !gen_pcienf_inject_in(r, sc)) {
      snprintf(err, cap, "%s cannot be injected in the %s scenario", ual_rule_id((enum ual_rule)r), gen_scenario_name(sc));
      goto done;
    }
    p->want[k] = true;
    p->at[k] = o->inject[i].at_frame == GEN_AT_DEFAULT ? INJECT_FIRST + 40u * i : o->inject[i].at_frame;
  }
  gen_rng_seed(&p->rng, o->seed ^ (g3 ? 0x6E3ull : 0x6E1ull));
  p->width = o->width ? o->width : g3 ? 8 : 1;
  p->lat_ps = (uint64_t)o->latency_ns * 1000u;
  for (unsigned i = 0; i < 2; i++) {
    p->s[i].id = i;
    p->s[i].rb = rb + i * SEQ_MOD;
    p->s[i].rp_label = p->s[i].late_ack_rule = -1;
  }
  /* training and the DL initialization at 2.5 GT/s, 8b/10b */
  p->rate = RATE_25;
  p->enc = 0;
  p->sym_ps = 4000;
  uint64_t t = link_up(p, 0);
  t = dl_init(p, t + 400000);
  if (rate != RATE_25) {
    t = speed_change(p, t + 1000000, rate, g3);
    p->sym_ps = rate == RATE_50 ? 2000 : rate == RATE_80 ? 1000 : rate == RATE_160 ? 500 : 250;
  }
  p->target = o->count ? o->count : o->duration_ps ? UINT64_MAX : DEFAULT_RECORDS;
  p->traffic = true;
  for (unsigned i = 0; i < 2; i++) {
    struct nside *s = &p->s[i];
    s->t_free = s->t_next = ceil_ns(t + 200000);
    s->next_req = s->t_free;
  }
  p->t0 = p->s[A].t_free;
  rc = run_loop(p, err, cap);
  if (rc == 0 && p->overflow) {
    snprintf(err, cap, "pcie-gen: a transaction-layer queue overflowed");
    rc = -1;
  }
  for (unsigned i = 0; rc == 0 && i < o->n_inject; i++)
    if (find(o->inject[i].rule) >= 0 && !p->done[find(o->inject[i].rule)]) {
      snprintf(err, cap, "%s: no opportunity", ual_rule_id((enum ual_rule)o->inject[i].rule));
      rc = -1;
    }
done:
  *records = p->frame;
  free(rb);
  free(p);
  return rc;
}
