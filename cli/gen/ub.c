/* ualink-gen for a UB link (ub.h). Two sides, each a sender with a retry
 * buffer, credits and a queue of flits, and a receiver of the partner's
 * stream (libdecode's block receiver finds the blocks) that discards after
 * an error, asks for a replay, returns credits and ACKs. Records alternate
 * A, B, one flit each, 5 ns apart. Every finding the analyzer should raise
 * goes to the truth: injections, their consequences, bit errors and the
 * protocol's own info findings (Retry_Req_Sets, discarded blocks). */
#include "ub.h"
#include "rng.h"
#include "ualink/ub/flit.h"
#include "ualink/ub/record.h"
#include "ualink/ub/analysis.h"
#include "ualink/core/fields.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FB UAL_UB_FLIT_BYTES
#define UB_DEPTH 512
#define UB_QMAX 4096
#define UB_REC_NS 5
#define UB_VLS_ON 0x000F
#define UB_REQ_TIMEOUT 64     /* flits a side waits for the Retry_Ack_Set of an unanswered Req set */
#define UB_MISS_HOLD (UAL_UB_RETRY_REQ_WINDOW_NS / (2 * UB_REC_NS) + 100)   /* flits: past the window */

static const struct { const char *name, *what; } scen[UB_SC_COUNT] = {
#define UB_X_(e, n, w) [UB_SC_##e] = { n, w },
  UB_SCENARIOS(UB_X_)
#undef UB_X_
};

int ub_scenario_lookup(const char *name) {
  for (int i = 0; i < UB_SC_COUNT; i++)
    if (!strcmp(name, scen[i].name)) return i;
  return -1;
}
const char *ub_scenario_name(int sc) { return sc >= 0 && sc < UB_SC_COUNT ? scen[sc].name : "?"; }
const char *ub_scenario_what(int sc) { return sc >= 0 && sc < UB_SC_COUNT ? scen[sc].what : "?"; }

/* X(rule suffix, scenario, "how") */
#define UB_INJECTIONS(X) \
  X(UB_BCRC_RSVD,       TRAFFIC, "a NOP block with BCRC bit 31 set") \
  X(UB_ERROR_FLAG,      TRAFFIC, "a DLLDP with ERROR_FLAG") \
  X(UB_ERROR_FLAG_POS,  TRAFFIC, "a NOP block with ERROR_FLAG") \
  X(UB_CFG_RESERVED,    TRAFFIC, "a one-flit block with CFG 1") \
  X(UB_LCH_FIXED,       TRAFFIC, "a NOP block with LCH byte 1 = 10h") \
  X(UB_DLLCB_TYPE,      TRAFFIC, "a DLLCB of type 77h") \
  X(UB_DLLCB_LENGTH,    TRAFFIC, "a NOP block of two flits") \
  X(UB_PLENGTH_RSVD,    TRAFFIC, "a one-flit DLLDP with end code 21") \
  X(UB_PLENGTH_FIT,     TRAFFIC, "a one-flit DLLDP with end code 14 (15 bytes in 12)") \
  X(UB_PAD_NONZERO,     TRAFFIC, "a DLLDP with a non-zero padding byte") \
  X(UB_RSVD,            TRAFFIC, "a DLLDP with LPH bit 0[1] set") \
  X(UB_VL_MISMATCH,     TRAFFIC, "a two-DLLDB DLLDP whose LBH names another VL") \
  X(UB_VL_DISABLED,     TRAFFIC, "a DLLDP on VL9 (not enabled; also a credit underflow)") \
  X(UB_CREDIT_UNDERFLOW,TRAFFIC, "a 400-flit DLLDP with fewer cells left") \
  X(UB_CREDIT_OVERFLOW, TRAFFIC, "a Crd_Ack returning 63 cells never used") \
  X(UB_ACK_OVERFLOW,    TRAFFIC, "a Crd_Ack ACKing 1000 flits more than outstanding") \
  X(UB_MIN_INTERVAL,    TRAFFIC, "two one-flit DLLDPs back to back (PACKET_MIN_INTERVAL 3)") \
  X(UB_LANE_CMD,        LANES,   "a Lane_Manage with REQ_ID 6") \
  X(UB_MODECHG_TYPE,    MODE,    "a Block_Mode_Chg with TYPE 2") \
  X(UB_MODECHG_ORDER,   MODE,    "a DLLDP after the initiator's Block_Mode_Chg REQ") \
  X(UB_MODECHG_SILENT,  MODE,    "a NOP block after the responder's Block_Mode_Chg ACK") \
  X(UB_INIT_VL0,        INIT,    "A's Init Block without VL0 (also the VL_ENABLE default)") \
  X(UB_INIT_FEATURE,    INIT,    "A's Init Block with FEATURE_ID 2") \
  X(UB_VL_ENABLE_GAP,   INIT,    "A's Init Block with VL_ENABLE 000Bh") \
  X(UB_NEGOTIATION_DEFAULT, INIT,"FLOW_CTRL_SIZE bitmaps with no common bit") \
  X(UB_INIT_BEFORE_ACK, INIT,    "A sends its Init Block before B's Retry_Ack_Set") \
  X(UB_DLLDP_EARLY,     INIT,    "A sends a DLLDP in Param_Init") \
  X(UB_STATE_ORDER,     TRAFFIC, "A sends its Init Block again in DLL_Normal") \
  X(UB_CREDIT_MAX,      INIT,    "initial credits of 96768 cells (CTRL grain 128)") \
  X(UB_RETRY_SET_SHORT, INIT,    "A's link-up Retry_Req_Set with 31 Retry_Req") \
  X(UB_RETRY_SET_FIELDS,INIT,    "A's link-up Retry_Req_Set with one RcvPtr different") \
  X(UB_FEC_UNCORRECTABLE,BER,    "flags bit 1 on a flit of A (B discards and asks for a replay)") \
  X(UB_RETRY_ACK_PTR,   BER,     "a Retry_Ack_Set with RdPtr one past the RcvPtr asked") \
  X(UB_REPLAY_COUNT,    BER,     "a Retry_Ack_Set with WrPtr one too far") \
  X(UB_REPLAY_START,    BER,     "A's replay starts with a changed one-DLLDB DLLDP, then replays") \
  X(UB_REPLAY_CONTENT,  BER,     "a changed body flit in the last block of A's replay") \
  X(UB_ACK_STATE_SEND,  BER,     "A sends a NOP block after the first block of its replay, then goes on") \
  X(UB_RETRY_REQ_MISSING,BER,    "B sends its Retry_Req_Set for an error in A's stream 20 us late") \
  X(UB_RETRY_ACK_TIMEOUT,BER,    "A does not answer B's first Retry_Req_Set: B repeats it") \
  X(UB_NUM_RETRY_SEQ,   BER,     "as UB-RETRY-ACK-TIMEOUT, the repeat with NUM_RETRY 2") \
  X(UB_RETRAIN,         BER,     "A answers none of B's Retry_Req_Sets: NUM_RETRY 0..14, then a PHY retrain") \
  X(UB_RETRY_ERROR,     BER,     "as UB-RETRAIN with NUM_PHY_REINIT 3 in B's sets: ERROR, link down and up") \
  X(UB_FLIT_SIZE,       TRAFFIC, "a kind-6 record of 19 bytes between two flits of A") \
  X(UB_LINKDOWN_MIDPACKET,TRAFFIC,"LinkUp 0 while B receives a DLLDP of A, then a new link-up") \
  X(UB_CREDIT_RETURN_TIMEOUT,TRAFFIC,"a 201 us gap in the capture while credits are held") \
  X(UB_CRDACK_THRESHOLD,TRAFFIC, "B returns no credits until it holds over 75% of A's, then sends a DLLDP") \
  X(UB_MODE_NOFEC,      MODE,    "a non-CRC flit of A with FEC bypass (record byte 7 bit 2)") \
  X(UB_BCRC,            TRAFFIC, "a flipped payload bit in the first flit of a DLLDP of A (B asks for a replay)") \
  X(UB_DLLCB_IN_DLLDB,  TRAFFIC, "A's one-DLLDB DLLDP cut one flit short by a NOP block (its retry buffer holds it whole)") \
  X(UB_LOCKOUT,         TRAFFIC, "B withholds ACKs until A's retry buffer is nearly full, A sends a DLLDP leaving 7 entries free") \
  X(UB_RETRY_BUF_FULL,  TRAFFIC, "B withholds ACKs until A's retry buffer is nearly full, A sends a DLLDP one flit over its depth")

enum {
#define UB_X_(r, sc, how) I_##r,
  UB_INJECTIONS(UB_X_)
#undef UB_X_
  I_COUNT
};
static const struct { int rule; int sc; const char *how; } injs[I_COUNT] = {
#define UB_X_(r, sc, how) { UAL_R_##r, UB_SC_##sc, how },
  UB_INJECTIONS(UB_X_)
#undef UB_X_
};

bool ub_inject_supported(int rule) { return ub_inject_how(rule) != NULL; }
int ub_inject_scenario(int rule) {
  for (int i = 0; i < I_COUNT; i++)
    if (injs[i].rule == rule) return injs[i].sc;
  return UB_SC_TRAFFIC;
}
const char *ub_inject_how(int rule) {
  for (int i = 0; i < I_COUNT; i++)
    if (injs[i].rule == rule) return injs[i].how;
  return NULL;
}

/* ---- the model ---- */

struct qf {
  uint8_t f[FB];
  uint8_t fec_bad, replay;
  int16_t truth[3];             /* rules the analyzer raises at this flit */
  uint8_t src[3];               /* 0 inject, 1 consequence, 2 protocol */
};

enum { DLL_DOWN, DLL_PARAM, DLL_CREDIT, DLL_NORMAL };

struct side {
  struct qf q[UB_QMAX];
  unsigned qh, qn;
  uint8_t buf[UB_DEPTH][FB];
  uint32_t wr;
  int32_t unacked;
  int32_t cred[UAL_UB_VLS];
  /* receiver of the partner's stream */
  struct ual_ub_rx rx;
  uint32_t rcv;
  uint8_t discarding, req_due, fec_pending;
  uint64_t err_frame, err_ts;
  int32_t pend_cells[UAL_UB_VLS], pend_acks;
  uint8_t set_idle, set_type, set_n;
  struct ual_ub_dllcb set_first;
  uint8_t ack_due;
  uint16_t ack_rd;
  uint8_t ignore_req;           /* injection: the partner's next Req sets not answered */
  uint32_t req_timer;           /* flits until an unanswered Req set is repeated */
  uint32_t req_hold;            /* injection: flits until a late Req set */
  uint8_t req_retry, req_out, reinit, seq_inject, seq_bad, miss_watch;
  /* the partner's credits as the analyzer sees them: cells its DLLDPs cost
   * minus what came back, and the initial credits */
  int32_t held_an, init_sum;
  uint8_t crdack_said, withhold;
  uint8_t no_ack;               /* injection: the partner's flits are not ACKed; 2 until its queue is sent */
  uint8_t blen[UB_DEPTH], bkind[UB_DEPTH];   /* stored block starts: flits, 1 DLLCB 2 LPH 3 LBH */
  /* state */
  int dll;
  uint8_t sent_req, got_ack_set, sent_init, got_init, sent_crd, sd_sent, sd_rcvd;
  struct ual_ub_init init, peer_init;
  uint64_t flits, last_dp;
  uint8_t dp_seen;
  int mc;                        /* 0, 1 REQ sent, 2 ACK sent */
  uint8_t mc_got_req, mc_got_ack, need_null;
  unsigned vl_rr;
  uint8_t width;
  uint64_t dlldps;
};

struct ubg {
  struct side s[2];
  const struct gen_out *out;
  struct gen_rng rng;
  int sc;
  uint64_t frame, ts, t0, count;
  unsigned mode;
  double ber;
  struct ual_ub_params p;
  uint8_t inj[I_COUNT];          /* 1 asked, 2 done */
  uint64_t inj_at[I_COUNT];
  uint8_t retrain_due;           /* side + 1 whose NUM_RETRY reached the threshold */
  uint8_t gap_watch, nofec_now, errors, fec_retry;
  uint8_t bcrc_inj;              /* the next BCRC failure is the injected one */
  uint64_t phase_end;
  unsigned phase;
  int stop;
};

static bool want(struct ubg *g, int i) { return g->inj[i] == 1 && g->frame + 1 >= g->inj_at[i]; }
static void done(struct ubg *g, int i) { g->inj[i] = 2; }

static void truth(struct ubg *g, uint64_t frame, unsigned dir, int rule, unsigned src, const char *note) {
  static const char *const s[] = { "inject", "consequence", "protocol" };
  if (g->out->truth) g->out->truth(g->out->ctx, frame, dir, rule, s[src], note);
}

static void truth(struct ubg *g, uint64_t frame, unsigned dir, int rule, unsigned src, const char *note);

/* Time-driven findings at the record just written: an error of d's stream
 * with no Retry_Req_Set back in the window; credits held across a gap. */
static void watch(struct ubg *g) {
  for (unsigned d = 0; d < 2; d++) {
    struct side *r = &g->s[d ^ 1];
    if (r->miss_watch && g->ts - r->err_ts > UAL_UB_RETRY_REQ_WINDOW_NS) {
      truth(g, g->frame, d, UAL_R_UB_RETRY_REQ_MISSING, 0, "Retry_Req_Set held back");
      r->miss_watch = 0;
    }
    if (g->gap_watch && g->s[d].held_an > 0) truth(g, g->frame, d, UAL_R_UB_CREDIT_RETURN_TIMEOUT, 0, "gap");
  }
  g->gap_watch = 0;
}

static void emit_record(struct ubg *g, unsigned dir, unsigned kind, const uint8_t *body, size_t len, uint8_t flags) {
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, kind, dir);
  h.flags |= flags;
  if (kind == UAL_REC_UB_FLIT) {
    h.rsvd = (uint8_t)g->mode;
    h.width = g->s[dir].width;
    h.rsvd_roles = 1;   /* A is the primary port (U5) */
    if (g->nofec_now) h.rsvd |= UAL_UB_FEC_BYPASS;
  }
  uint8_t rec[64];
  size_t n = ual_record_build(&h, body, len, rec, sizeof rec);
  g->frame++;
  g->ts = g->t0 + g->frame * UB_REC_NS;
  if (g->out->record(g->out->ctx, g->ts, rec, n)) g->stop = 1;
  watch(g);
}

static void event(struct ubg *g, unsigned code, unsigned value) {
  struct ual_event e = { (uint16_t)code, 0, value };
  uint8_t body[UAL_REC_EVENT_BYTES];
  ual_event_build(&e, body);
  emit_record(g, 0, UAL_REC_EVENT, body, sizeof body, 0);
}

/* Queues n flits; the truth entries go on the last. */
static struct qf *push(struct side *s, const uint8_t *flits, unsigned n) {
  struct qf *last = NULL;
  for (unsigned k = 0; k < n && s->qn < UB_QMAX; k++) {
    struct qf *e = &s->q[(s->qh + s->qn++) % UB_QMAX];
    memset(e, 0, sizeof *e);
    memcpy(e->f, flits + (size_t)k * FB, FB);
    for (int t = 0; t < 3; t++) e->truth[t] = -1;
    last = e;
  }
  return last;
}

static void mark(struct qf *e, int rule, unsigned src) {
  for (int t = 0; e && t < 3; t++)
    if (e->truth[t] < 0) { e->truth[t] = (int16_t)rule; e->src[t] = (uint8_t)src; return; }
}

/* Stores backed-up flits in the retry buffer as they are queued. */
static void store(struct side *s, const uint8_t *flits, unsigned n) {
  bool cb = ual_field_get(UAL_F_UB_LPH_CFG, flits) == 0;
  for (unsigned k = 0; k < n; k++, s->wr++) {
    unsigned i = s->wr % UB_DEPTH, left = n - k;
    memcpy(s->buf[i], flits + (size_t)k * FB, FB);
    bool start = cb ? k == 0 : k % 32 == 0;
    s->blen[i] = (uint8_t)(!start ? 0 : cb ? n : left < 32 ? left : 32);
    s->bkind[i] = (uint8_t)(!start ? 0 : cb ? 1 : k == 0 ? 2 : 3);
  }
  s->unacked += (int32_t)n;
}

static struct qf *push_cb(struct ubg *g, struct side *s, const struct ual_ub_dllcb *cb, bool backed) {
  uint8_t f[32 * FB];
  memset(f, 0, (size_t)cb->flits * FB);
  ual_ub_dllcb_put(f, cb);
  ual_ub_seal((enum ual_ub_mode)g->mode, f, cb->flits, true, false);
  if (backed) store(s, f, cb->flits);
  return push(s, f, cb->flits);
}

static struct qf *push_simple(struct ubg *g, struct side *s, enum ual_ub_cb_type t) {
  struct ual_ub_dllcb cb = { .type = (uint8_t)t, .flits = 1 };
  return push_cb(g, s, &cb, ual_ub_cb_backed_up(t));
}

static void push_set(struct ubg *g, struct side *s, const struct ual_ub_dllcb *cb, unsigned n, int odd_at) {
  push_simple(g, s, UAL_UB_CB_RETRY_IDLE);
  for (unsigned i = 0; i < n; i++) {
    struct ual_ub_dllcb c = *cb;
    if ((int)i == odd_at) c.rq.rcv_ptr++;
    struct qf *e = push_cb(g, s, &c, false);
    if ((int)i == odd_at) mark(e, UAL_R_UB_RETRY_SET_FIELDS, 0);
  }
}

/* ---- negotiation, as the receivers compute it ---- */

static uint16_t low(unsigned a, unsigned b, unsigned def, bool *dflt) {
  unsigned m = a & b;
  if (!m) { m = def; *dflt = true; }
  unsigned k = 0;
  while (!(m >> k & 1u)) k++;
  return (uint16_t)(1u << k);
}

static void negotiate(struct ubg *g) {
  const struct ual_ub_init *x = &g->s[0].init, *y = &g->s[1].init;
  struct ual_ub_params *p = &g->p;
  bool d = false;
  memset(p, 0, sizeof *p);
  p->known = 1;
  p->data_ack = low(x->data_ack_grain, y->data_ack_grain, UAL_UB_DEF_DATA_ACK, &d);
  p->ctrl_ack = low(x->ctrl_ack_grain, y->ctrl_ack_grain, UAL_UB_DEF_CTRL_ACK, &d);
  p->flow_ctrl = low(x->flow_ctrl_size, y->flow_ctrl_size, UAL_UB_DEF_FLOW_CTRL, &d);
  p->vl_enable = x->vl_enable & y->vl_enable;
  if (!(p->vl_enable & 1)) p->vl_enable = UAL_UB_DEF_VL_ENABLE;
  for (unsigned v = 0; v < UAL_UB_VLS; v++) {
    p->ctrl_grain[v] = low(x->ctrl_grain[v], y->ctrl_grain[v], UAL_UB_DEF_CTRL_GRAIN, &d);
    p->data_grain[v] = low(x->data_grain[v], y->data_grain[v], UAL_UB_DEF_DATA_GRAIN, &d);
  }
  for (unsigned k = 0; k < 2; k++) {
    p->share[k] = g->s[k ^ 1].init.share;
    p->depth[k] = g->s[k].init.retry_buf_depth;
    p->min_interval[k] = g->s[k ^ 1].init.min_interval;
  }
}

static void side_init(struct ubg *g, unsigned d) {
  struct side *s = &g->s[d];
  memset(s, 0, sizeof *s);
  ual_ub_rx_linkup(&s->rx);
  s->width = 4;
  s->dll = DLL_PARAM;
  struct ual_ub_init *in = &s->init;
  in->feature_id = 1;
  in->share = d == 0;                    /* A's buffer is shared: B sends in sharing mode */
  in->data_ack_grain = d ? 0x30 : 0x10;  /* common 16 */
  in->ctrl_ack_grain = 0x03;
  in->flow_ctrl_size = 0x0C;             /* 4 flits per cell */
  in->vl_enable = UB_VLS_ON;
  in->retry_buf_depth = UB_DEPTH;
  in->min_interval = d ? 3 : 1;
  for (unsigned v = 0; v < UAL_UB_VLS; v++) { in->ctrl_grain[v] = 0x03; in->data_grain[v] = 0x06; }
  if (d == 0) {
    if (want(g, I_UB_INIT_VL0)) { in->vl_enable = 0x000E; done(g, I_UB_INIT_VL0); }
    if (want(g, I_UB_INIT_FEATURE)) { in->feature_id = 2; done(g, I_UB_INIT_FEATURE); }
    if (want(g, I_UB_VL_ENABLE_GAP)) { in->vl_enable = 0x000B; done(g, I_UB_VL_ENABLE_GAP); }
    if (want(g, I_UB_NEGOTIATION_DEFAULT)) { in->flow_ctrl_size = 0x10; done(g, I_UB_NEGOTIATION_DEFAULT); }
    if (want(g, I_UB_CREDIT_MAX)) for (unsigned v = 0; v < UAL_UB_VLS; v++) in->ctrl_grain[v] = 0x80;
  } else if (g->inj[I_UB_CREDIT_MAX] == 1) {
    for (unsigned v = 0; v < UAL_UB_VLS; v++) in->ctrl_grain[v] = 0x80;
  }
}

static void link_up(struct ubg *g) {
  event(g, UAL_EV_UB_LINKUP, 1);
  side_init(g, 0);
  side_init(g, 1);
  memset(&g->p, 0, sizeof g->p);
  g->errors = 0;
}

/* ---- the receiver of d's stream, at side r = d ^ 1 ---- */

static unsigned cost(const struct ubg *g, unsigned flits) { return (flits + g->p.flow_ctrl - 1u) / g->p.flow_ctrl; }

static void returns_in(struct ubg *g, unsigned y, const uint8_t *blk) {
  /* DLLDB header returns to side y */
  struct side *s = &g->s[y];
  if (!g->p.known) return;
  if (ual_field_get(UAL_F_UB_LPH_CRD, blk)) {
    unsigned vl = (unsigned)ual_field_get(UAL_F_UB_LPH_CRD_VL, blk);
    s->cred[vl] += g->p.data_grain[vl];
    s->held_an -= g->p.data_grain[vl];
  }
  if (ual_field_get(UAL_F_UB_LPH_ACK, blk)) {
    s->unacked -= g->p.data_ack;
    if (s->unacked < 0) s->unacked = 0;
  }
}

static void set_done(struct ubg *g, unsigned d, const struct ual_ub_dllcb *cb) {
  struct side *snd = &g->s[d], *rcv = &g->s[d ^ 1];
  if (cb->type == UAL_UB_CB_RETRY_REQ) {
    truth(g, g->frame, d, UAL_R_UB_RETRY_REQ, 2, "Retry_Req_Set");
    if (snd->req_retry && snd->dll == DLL_NORMAL) {
      truth(g, g->frame, d, UAL_R_UB_RETRY_ACK_TIMEOUT, 1, "repeated Req set");
      if (snd->seq_bad) { truth(g, g->frame, d, UAL_R_UB_NUM_RETRY_SEQ, 0, "NUM_RETRY +2"); snd->seq_bad = 0; }
    }
    snd->req_out = 1;
    if (d == 1 && snd->dll == DLL_NORMAL && !rcv->ignore_req && !snd->req_retry) {
      /* A leaves B's Req sets unanswered */
      if (want(g, I_UB_RETRY_ACK_TIMEOUT) || want(g, I_UB_NUM_RETRY_SEQ)) {
        rcv->ignore_req = 1;
        snd->seq_inject = want(g, I_UB_NUM_RETRY_SEQ);
        done(g, snd->seq_inject ? I_UB_NUM_RETRY_SEQ : I_UB_RETRY_ACK_TIMEOUT);
      } else if (want(g, I_UB_RETRAIN) || want(g, I_UB_RETRY_ERROR)) {
        rcv->ignore_req = UAL_UB_NUM_RETRY_THRESHOLD;
        if (want(g, I_UB_RETRY_ERROR)) snd->reinit = UAL_UB_PHY_REINIT_THRESHOLD - 1;
        done(g, want(g, I_UB_RETRAIN) ? I_UB_RETRAIN : I_UB_RETRY_ERROR);
      }
    }
    if (rcv->ignore_req) { rcv->ignore_req--; snd->req_timer = UB_REQ_TIMEOUT; return; }
    rcv->ack_due = 1;
    rcv->ack_rd = cb->rq.rcv_ptr;
    return;
  }
  /* d's Ack set: the receiver accepts d's stream again */
  rcv->got_ack_set = 1;
  rcv->discarding = 0;
  rcv->rcv = cb->ra.rd_ptr;
  rcv->req_out = 0;
  rcv->req_retry = 0;
  rcv->req_timer = 0;
}

/* Side r finds an error in d's stream: it discards and asks for a replay. */
static void rx_error(struct ubg *g, struct side *r, unsigned d) {
  g->errors = 1;
  if (r->discarding) return;
  r->discarding = 1;
  r->err_frame = g->frame;
  r->err_ts = g->ts;
  if (d == 0 && r->dll == DLL_NORMAL && want(g, I_UB_RETRY_REQ_MISSING)) {
    r->req_hold = UB_MISS_HOLD;
    r->miss_watch = 1;
    done(g, I_UB_RETRY_REQ_MISSING);
    return;
  }
  r->req_due = 1;
}

static void receive_block(struct ubg *g, unsigned d, const struct ual_ub_flit *u, unsigned fec, bool replay) {
  struct side *r = &g->s[d ^ 1], *snd = &g->s[d];
  const uint8_t *blk = r->rx.blk;
  unsigned n = u->block_flits;
  bool lch = u->role == UAL_UB_FR_LCH || (u->block_index == 0 && ual_field_get(UAL_F_UB_LPH_CFG, blk) == 0);
  unsigned type = lch ? ual_ub_cb_lookup(blk[2]) : UAL_UB_CB_UNKNOWN + 1;
  bool backed = !lch || ual_ub_cb_backed_up((enum ual_ub_cb_type)type);
  (void)fec;
  if (ual_ub_bcrc_bad(u)) {
    truth(g, g->frame, d, UAL_R_UB_BCRC, g->bcrc_inj ? 0 : 2, g->bcrc_inj ? "injected" : "bit error");
    g->bcrc_inj = 0;
    rx_error(g, r, d);
    return;
  }
  bool retry = type == UAL_UB_CB_RETRY_IDLE || type == UAL_UB_CB_RETRY_REQ || type == UAL_UB_CB_RETRY_ACK;
  if (u->unit.kind == UAL_UB_UNIT_DLLDP && !replay && g->p.known) snd->held_an += (int32_t)cost(g, u->unit.flits);
  if (r->discarding && !retry) {
    if (backed) truth(g, g->frame, d, UAL_R_UB_DISCARDED, 1, "after an error");
    if (r->set_n) r->set_n = 0, r->set_idle = 0;
    return;
  }
  /* retry sets from d */
  if (retry) {
    if (type == UAL_UB_CB_RETRY_IDLE) { r->set_idle = 1; r->set_n = 0; }
    else if (r->set_idle && (r->set_n == 0 || r->set_type == type) && r->set_n < 32) {
      if (r->set_n == 0) { r->set_type = (uint8_t)type; r->set_first = u->unit.cb; }
      if (++r->set_n == 32) { set_done(g, d, &r->set_first); r->set_idle = 0; r->set_n = 0; }
    }
  } else {
    r->set_idle = 0;
    r->set_n = 0;
  }
  if (!lch) {
    returns_in(g, d ^ 1, blk);
    if (u->unit.kind == UAL_UB_UNIT_DLLDP && g->p.known && (g->p.vl_enable >> u->unit.vl & 1u))
      r->pend_cells[u->unit.vl] += (int32_t)cost(g, u->unit.flits);
    /* d owes r's credits: over the threshold it returns them first */
    if (u->unit.kind == UAL_UB_UNIT_DLLDP && !replay && r->sd_rcvd && !g->errors) {
      if ((int64_t)r->held_an * 100 <= (int64_t)r->init_sum * UAL_UB_CRDACK_PCT) snd->crdack_said = 0;
      else if (!snd->crdack_said) {
        truth(g, g->frame, d, UAL_R_UB_CRDACK_THRESHOLD, snd->withhold ? 0 : 2, "credits held");
        snd->crdack_said = 1;
        if (snd->withhold) { snd->withhold = 0; done(g, I_UB_CRDACK_THRESHOLD); }
      }
    }
  } else if (u->unit.kind == UAL_UB_UNIT_DLLCB) {
    const struct ual_ub_dllcb *cb = &u->unit.cb;
    switch (cb->type) {
    case UAL_UB_CB_INIT:
      r->peer_init = cb->init;
      r->got_init = 1;
      if (r->sent_init || snd->sent_init) negotiate(g);
      break;
    case UAL_UB_CB_CRD_ACK:
      if (!g->p.known) break;
      snd->crdack_said = 0;
      for (unsigned v = 0; v < UAL_UB_VLS; v++) {
        int32_t cells = (int32_t)cb->ca.crd[v] * g->p.ctrl_grain[v];
        r->cred[v] += cells;
        if (cb->ca.t) r->init_sum += cells;
        else r->held_an -= cells;
      }
      if (cb->ca.t && cb->ca.sd) r->sd_rcvd = 1;
      r->unacked -= (int32_t)cb->ca.ack_num * g->p.ctrl_ack;
      if (r->unacked < 0) r->unacked = 0;
      break;
    case UAL_UB_CB_MODE_CHG:
      if (cb->mc_type == UAL_UB_MC_REQ) r->mc_got_req = 1;
      if (cb->mc_type == UAL_UB_MC_ACK) r->mc_got_ack = 1;
      break;
    default:
      break;
    }
  }
  if (backed) {
    r->rcv += n;
    r->pend_acks += (int32_t)n;
  }
}

static void receive(struct ubg *g, unsigned d, const uint8_t *flit, unsigned fec, bool replay) {
  struct side *r = &g->s[d ^ 1];
  struct ual_ub_flit u;
  struct ual_findings f;
  ual_findings_clear(&f);
  if (fec) rx_error(g, r, d);
  ual_ub_rx_flit(&r->rx, flit, g->mode, g->frame, &u, &f);
  if (u.block_end) receive_block(g, d, &u, fec, replay);
}

/* ---- what a side sends next ---- */

static void put_returns(struct ubg *g, struct side *s, struct ual_ub_unit *u) {
  if (!g->p.known) return;
  for (unsigned v = 0; v < UAL_UB_VLS && !s->withhold; v++)
    if (s->pend_cells[v] >= g->p.data_grain[v]) {
      u->crd = 1;
      u->crd_vl = (uint8_t)v;
      s->pend_cells[v] -= g->p.data_grain[v];
      break;
    }
  if (!s->no_ack && s->pend_acks >= g->p.data_ack) { u->ack = 1; s->pend_acks -= g->p.data_ack; }
}

static void crd_ack(struct ubg *g, struct side *s, bool extra_cred, bool extra_ack) {
  struct ual_ub_dllcb cb = { .type = UAL_UB_CB_CRD_ACK, .flits = 2 };
  for (unsigned v = 0; v < UAL_UB_VLS && !s->withhold; v++) {
    unsigned k = (unsigned)s->pend_cells[v] / g->p.ctrl_grain[v];
    if (k > 63) k = 63;
    cb.ca.crd[v] = (uint8_t)k;
    s->pend_cells[v] -= (int32_t)(k * g->p.ctrl_grain[v]);
  }
  unsigned a = s->no_ack ? 0 : (unsigned)s->pend_acks / g->p.ctrl_ack;
  cb.ca.ack_num = (uint16_t)a;
  s->pend_acks -= (int32_t)(a * g->p.ctrl_ack);
  struct qf *e;
  if (extra_cred) cb.ca.crd[0] = 63;
  if (extra_ack) cb.ca.ack_num = (uint16_t)(cb.ca.ack_num + 1000);
  e = push_cb(g, s, &cb, true);
  if (extra_cred) mark(e, UAL_R_UB_CREDIT_OVERFLOW, 0);
  if (extra_ack) mark(e, UAL_R_UB_ACK_OVERFLOW, 0);
}

static bool returns_due(const struct ubg *g, const struct side *s) {
  if (!g->p.known) return false;
  if (!s->no_ack && s->pend_acks >= 48) return true;
  for (unsigned v = 0; v < UAL_UB_VLS && !s->withhold; v++)
    if (s->pend_cells[v] >= 12) return true;
  return false;
}

static int32_t csum(const int32_t *c) {
  int32_t t = 0;
  for (unsigned v = 0; v < UAL_UB_VLS; v++) t += c[v];
  return t;
}

/* A DLLDP from side d on vl with len payload bytes; rule = an injection (-1 none). */
static bool dlldp(struct ubg *g, unsigned d, unsigned vl, unsigned len, int inj) {
  struct side *s = &g->s[d];
  static uint8_t pay[UAL_UB_PAYLOAD_MAX], f[UAL_UB_DLLDP_MAX_FLITS * FB];
  for (unsigned i = 0; i < len; i++) pay[i] = (uint8_t)(gen_rng_next(&g->rng) | 1);
  struct ual_ub_unit u = { .vl = (uint8_t)vl, .cfg = 3 };
  unsigned F0 = ual_ub_dlldp_build((enum ual_ub_mode)g->mode, &u, pay, len, false, f, UAL_UB_DLLDP_MAX_FLITS);
  if (g->p.known && inj < 0 && inj != -2) {
    int32_t c = (int32_t)cost(g, F0);
    if (g->p.share[d] ? csum(s->cred) < c : s->cred[vl] < c) return false;
  }
  if (inj < 0 && s->unacked + (int32_t)F0 + UAL_UB_LOCKOUT_FREE > UB_DEPTH) return false;
  if (F0 <= 32) put_returns(g, s, &u);
  bool ef = inj == I_UB_ERROR_FLAG;
  unsigned F = ual_ub_dlldp_build((enum ual_ub_mode)g->mode, &u, pay, len, ef, f, UAL_UB_DLLDP_MAX_FLITS);
  int rule = inj >= 0 ? injs[inj].rule : -1;
  switch (inj) {
  case I_UB_PLENGTH_RSVD: ual_field_put(UAL_F_UB_LPH_ENDCODE, f, 21); ual_ub_seal((enum ual_ub_mode)g->mode, f, 1, true, false); break;
  case I_UB_PLENGTH_FIT: ual_field_put(UAL_F_UB_LPH_ENDCODE, f, 14); ual_ub_seal((enum ual_ub_mode)g->mode, f, 1, true, false); break;
  case I_UB_PAD_NONZERO: f[10] = 0x77; ual_ub_seal((enum ual_ub_mode)g->mode, f, 1, true, false); break;
  case I_UB_RSVD: ual_field_put(UAL_F_UB_LPH_RSVD9, f, 1); ual_ub_seal((enum ual_ub_mode)g->mode, f, 1, true, false); break;
  case I_UB_VL_MISMATCH:
    ual_field_put(UAL_F_UB_LBH_VL, f + 32 * FB, (vl + 1) & 3);
    ual_ub_seal((enum ual_ub_mode)g->mode, f + 32 * FB, F - 32, true, false);
    break;
  default: break;
  }
  if (g->p.known) s->cred[vl] -= (int32_t)cost(g, F);
  store(s, f, F);
  struct qf *e = push(s, f, F);
  if (rule >= 0) mark(e, rule, 0);
  s->last_dp = s->flits + s->qn - F;
  s->dp_seen = 1;
  s->dlldps++;
  return true;
}

static unsigned next_vl(struct ubg *g, struct side *s) {
  uint16_t en = g->p.known ? g->p.vl_enable : 1;
  for (unsigned i = 0; i < 16; i++) {
    unsigned v = (s->vl_rr + i) % 16;
    if (en >> v & 1u) { s->vl_rr = v + 1; return v; }
  }
  return 0;
}

static void plan_normal(struct ubg *g, unsigned d) {
  struct side *s = &g->s[d];
  /* the mode change handshake (A initiates) */
  if (s->mc == 2) { push_simple(g, s, UAL_UB_CB_NULL_BLOCK); return; }
  if (s->mc == 1) {
    bool go = d == 0 ? s->mc_got_req : s->mc_got_ack;
    if (go) {
      crd_ack(g, s, false, false);
      struct ual_ub_dllcb cb = { .type = UAL_UB_CB_MODE_CHG, .flits = 1, .mc_type = UAL_UB_MC_ACK };
      push_cb(g, s, &cb, true);
      s->mc = 2;
      if (d == 1 && want(g, I_UB_MODECHG_SILENT)) {
        mark(push_simple(g, s, UAL_UB_CB_NOP), UAL_R_UB_MODECHG_SILENT, 0);
        done(g, I_UB_MODECHG_SILENT);
      }
    } else {
      push_simple(g, s, UAL_UB_CB_NULL_BLOCK);
    }
    return;
  }
  if (g->phase == 1 && ((d == 0 && s->mc == 0) || (d == 1 && s->mc_got_req && s->mc == 0))) {
    struct ual_ub_dllcb cb = { .type = UAL_UB_CB_MODE_CHG, .flits = 1, .mc_type = UAL_UB_MC_REQ };
    push_cb(g, s, &cb, true);
    s->mc = 1;
    if (d == 0 && want(g, I_UB_MODECHG_ORDER)) {
      dlldp(g, d, 0, 8, -2);
      mark(&s->q[(s->qh + s->qn - 1) % UB_QMAX], UAL_R_UB_MODECHG_ORDER, 0);
      done(g, I_UB_MODECHG_ORDER);
    }
    return;
  }
  if (g->phase == 2 && d == 0) {
    struct ual_ub_dllcb cb = { .type = UAL_UB_CB_LANE_MANAGE, .flits = 1 };
    cb.lane = (struct ual_ub_lane){ .req_id = 5, .change_tlw = 1, .tlw = 2, .rlw = 4 };
    push_cb(g, s, &cb, true);
    g->phase = 3;
    return;
  }
  if (s->unacked + 2 + UAL_UB_LOCKOUT_FREE > UB_DEPTH) { push_simple(g, s, UAL_UB_CB_NULL_BLOCK); return; }
  if (returns_due(g, s)) { crd_ack(g, s, false, false); return; }
  if (s->flits + s->qn - s->last_dp < g->p.min_interval[d] && s->dp_seen) { push_simple(g, s, UAL_UB_CB_NULL_BLOCK); return; }
  double load = g->sc == UB_SC_INIT ? 0.3 : 0.7;
  if (gen_rng_unit(&g->rng) < load) {
    unsigned vl = next_vl(g, s);
    unsigned len = 1 + gen_rng_below(&g->rng, g->sc == UB_SC_BER || g->mode == UAL_UB_MODE_NONCRC ? 300 : 1200);
    if (dlldp(g, d, vl, len, -1)) return;
  }
  push_simple(g, s, UAL_UB_CB_NULL_BLOCK);
}

/* A sealed one-flit NOP block, in CRC mode. */
static void nop_flit(uint8_t *nf) {
  struct ual_ub_dllcb nop = { .type = UAL_UB_CB_NOP, .flits = 1 };
  memset(nf, 0, FB);
  ual_ub_dllcb_put(nf, &nop);
  ual_ub_seal(UAL_UB_MODE_CRC, nf, 1, true, false);
}

/* The payload length of a DLLDP of exactly n flits in the current mode, 0 when none has n. */
static unsigned dlldp_len_for(const struct ubg *g, unsigned n) {
  static uint8_t pay[32 * 20], f[33 * FB];
  struct ual_ub_unit u = { .cfg = 3 };
  for (unsigned len = 1; len <= sizeof pay; len++) {
    unsigned k = ual_ub_dlldp_build((enum ual_ub_mode)g->mode, &u, pay, len, false, f, 33);
    if (k == n) return len;
    if (k > n) break;
  }
  return 0;
}

/* UB-LOCKOUT and UB-RETRY-BUF-FULL: B stops ACKing; once A's retry buffer
 * is as full as A lets it get (fewer than UAL_UB_LOCKOUT_FREE + 2 entries
 * free), A sends a DLLDP leaving 7 entries free or one flit over its depth,
 * and B ACKs again after it. */
static bool inject_buffer(struct ubg *g, struct side *s, int k) {
  if (!want(g, k)) return false;
  g->s[1].no_ack = 1;
  int32_t free_ = UB_DEPTH - s->unacked;
  if (free_ >= UAL_UB_LOCKOUT_FREE + 2 || free_ < UAL_UB_LOCKOUT_FREE) return false;
  if (s->dp_seen && s->flits + s->qn - s->last_dp < g->p.min_interval[0]) return false;
  unsigned n = k == I_UB_LOCKOUT ? (unsigned)(free_ - UAL_UB_LOCKOUT_FREE + 1) : (unsigned)free_ + 1u;
  unsigned len = dlldp_len_for(g, n);
  if (!len || s->cred[0] < (int32_t)cost(g, n)) return false;
  dlldp(g, 0, 0, len, k);
  g->s[1].no_ack = 2;   /* B ACKs again once the DLLDP is on the wire */
  done(g, k);
  return true;
}

/* Injections of the traffic stretch, one at a chance. */
static bool plan_inject(struct ubg *g, unsigned d) {
  struct side *s = &g->s[d];
  if (d != 0 || s->dll != DLL_NORMAL || g->mode != UAL_UB_MODE_CRC || s->mc) return false;
  static const int stateless_cb[] = { I_UB_BCRC_RSVD, I_UB_ERROR_FLAG_POS, I_UB_CFG_RESERVED, I_UB_LCH_FIXED, I_UB_DLLCB_TYPE,
                                      I_UB_DLLCB_LENGTH };
  for (unsigned i = 0; i < sizeof stateless_cb / sizeof stateless_cb[0]; i++) {
    int k = stateless_cb[i];
    if (!want(g, k)) continue;
    uint8_t f[2 * FB] = {0};
    struct ual_ub_dllcb cb = { .type = UAL_UB_CB_NOP, .flits = 1 };
    bool backed = true;
    unsigned n = 1;
    ual_ub_dllcb_put(f, &cb);
    if (k == I_UB_CFG_RESERVED) { f[0] = 0; f[1] = 0x01; f[2] = 0; backed = false; }
    if (k == I_UB_LCH_FIXED) f[1] = 0x10;
    if (k == I_UB_DLLCB_TYPE) f[2] = 0x77;
    if (k == I_UB_DLLCB_LENGTH) { ual_field_put(UAL_F_UB_LCH_CLENGTH, f, 1); n = 2; }
    if (k == I_UB_BCRC_RSVD) ual_field_put(UAL_F_UB_BCRC_RSVD, f, 1);
    ual_ub_seal(UAL_UB_MODE_CRC, f, n, true, k == I_UB_ERROR_FLAG_POS);
    if (backed) store(s, f, n);
    mark(push(s, f, n), injs[k].rule, 0);
    done(g, k);
    return true;
  }
  static const int dp[] = { I_UB_ERROR_FLAG, I_UB_PLENGTH_RSVD, I_UB_PLENGTH_FIT, I_UB_PAD_NONZERO, I_UB_RSVD };
  for (unsigned i = 0; i < sizeof dp / sizeof dp[0]; i++)
    if (want(g, dp[i])) { dlldp(g, d, 0, dp[i] == I_UB_ERROR_FLAG ? 40 : 3, dp[i]); done(g, dp[i]); return true; }
  if (want(g, I_UB_VL_MISMATCH)) { dlldp(g, d, 1, 700, I_UB_VL_MISMATCH); done(g, I_UB_VL_MISMATCH); return true; }
  if (want(g, I_UB_VL_DISABLED)) {
    dlldp(g, d, 9, 10, I_UB_VL_DISABLED);
    mark(&s->q[(s->qh + s->qn - 1) % UB_QMAX], UAL_R_UB_CREDIT_UNDERFLOW, 1);
    done(g, I_UB_VL_DISABLED);
    return true;
  }
  if (want(g, I_UB_CREDIT_UNDERFLOW) && s->cred[0] < 100) {
    dlldp(g, d, 0, 400 * 20 - 200, I_UB_CREDIT_UNDERFLOW);
    done(g, I_UB_CREDIT_UNDERFLOW);
    return true;
  }
  if (want(g, I_UB_MIN_INTERVAL) && g->s[0].flits + s->qn - s->last_dp >= g->p.min_interval[0]) {
    /* B's PACKET_MIN_INTERVAL binds A: two back to back */
    dlldp(g, d, 0, 4, -2);
    dlldp(g, d, 0, 4, I_UB_MIN_INTERVAL);
    done(g, I_UB_MIN_INTERVAL);
    return true;
  }
  if (want(g, I_UB_MODECHG_TYPE)) {
    struct ual_ub_dllcb cb = { .type = UAL_UB_CB_MODE_CHG, .flits = 1, .mc_type = 2 };
    mark(push_cb(g, s, &cb, true), UAL_R_UB_MODECHG_TYPE, 0);
    done(g, I_UB_MODECHG_TYPE);
    return true;
  }
  if (want(g, I_UB_CREDIT_OVERFLOW) || want(g, I_UB_ACK_OVERFLOW)) {
    bool c = want(g, I_UB_CREDIT_OVERFLOW);
    crd_ack(g, s, c, !c);
    done(g, c ? I_UB_CREDIT_OVERFLOW : I_UB_ACK_OVERFLOW);
    return true;
  }
  if (want(g, I_UB_FLIT_SIZE)) {
    uint8_t f[FB] = {0};
    emit_record(g, 0, UAL_REC_UB_FLIT, f, FB - 1, 0);
    truth(g, g->frame, 0, UAL_R_UB_FLIT_SIZE, 0, "19-byte body");
    done(g, I_UB_FLIT_SIZE);
    return false;
  }
  if (want(g, I_UB_CREDIT_RETURN_TIMEOUT) && g->s[0].held_an > 0) {
    /* the capture leaves out a stretch longer than the window */
    g->t0 += UAL_UB_CREDIT_RETURN_NS + 1000;
    g->gap_watch = 1;
    done(g, I_UB_CREDIT_RETURN_TIMEOUT);
    return false;
  }
  if (want(g, I_UB_CRDACK_THRESHOLD) && !g->s[1].withhold) g->s[1].withhold = 1;
  if (inject_buffer(g, s, I_UB_LOCKOUT) || inject_buffer(g, s, I_UB_RETRY_BUF_FULL)) return true;
  if (want(g, I_UB_BCRC) && !(s->dp_seen && s->flits + s->qn - s->last_dp < g->p.min_interval[0]) && dlldp(g, d, 0, 100, -1)) {
    s->q[s->qh].f[UAL_UB_LPH_BYTES] ^= 0x10;   /* the queue was empty: the DLLDP starts it */
    g->bcrc_inj = 1;
    done(g, I_UB_BCRC);
    return true;
  }
  if (want(g, I_UB_DLLCB_IN_DLLDB) && !(s->dp_seen && s->flits + s->qn - s->last_dp < g->p.min_interval[0]) &&
      dlldp(g, d, 0, 100, -1)) {
    /* the wire's last flit of the DLLDB is a NOP block: B's BCRC check fails */
    struct qf *e = &s->q[(s->qh + s->qn - 1) % UB_QMAX];
    nop_flit(e->f);
    mark(e, UAL_R_UB_DLLCB_IN_DLLDB, 0);
    done(g, I_UB_DLLCB_IN_DLLDB);
    return true;
  }
  if (want(g, I_UB_STATE_ORDER)) {
    struct ual_ub_dllcb cb = { .type = UAL_UB_CB_INIT, .flits = 5, .init = s->init };
    mark(push_cb(g, s, &cb, true), UAL_R_UB_STATE_ORDER, 0);
    done(g, I_UB_STATE_ORDER);
    return true;
  }
  return false;
}

/* A's replay injections: the stored block at i changed in a payload byte of
 * its flit k and sealed again, into out. */
static void changed_block(const struct side *s, uint32_t i, unsigned k, uint8_t *out) {
  unsigned n = s->blen[i];
  for (unsigned j = 0; j < n; j++) memcpy(out + (size_t)j * FB, s->buf[(i + j) % UB_DEPTH], FB);
  out[(size_t)k * FB + (k ? 0 : UAL_UB_LPH_BYTES)] ^= 0x40;
  ual_ub_seal(UAL_UB_MODE_CRC, out, n, true, false);
}

/* The go-back-N replay of side d: nrep stored flits from `from`, or one of
 * the replay injections when may_inject. */
static void replay(struct ubg *g, struct side *s, unsigned d, uint32_t from, unsigned nrep, bool may_inject) {
  uint8_t blk[32 * FB];
  int inj = -1;
  uint32_t last = from;
  for (unsigned k = 0; k < nrep && s->blen[(from + k) % UB_DEPTH]; k += s->blen[(from + k) % UB_DEPTH]) last = (from + k) % UB_DEPTH;
  unsigned n0 = s->blen[from % UB_DEPTH], ack_mark = UINT_MAX;
  if (may_inject && g->fec_retry && d == 0 && s->dll == DLL_NORMAL && nrep && n0) {
    g->fec_retry = 0;
    uint8_t nf[FB];
    nop_flit(nf);
    if (want(g, I_UB_REPLAY_START) && s->bkind[from] == 2 && n0 <= 32 && ual_field_get(UAL_F_UB_LPH_NDB, s->buf[from]) == 0)
      inj = I_UB_REPLAY_START;
    else if (want(g, I_UB_REPLAY_CONTENT) && s->bkind[last] >= 2 && s->blen[last] >= 3)
      inj = I_UB_REPLAY_CONTENT;
    else if (want(g, I_UB_ACK_STATE_SEND) && n0 < nrep && memcmp(s->buf[(from + n0) % UB_DEPTH], nf, FB))
      inj = I_UB_ACK_STATE_SEND;
    if (inj == I_UB_REPLAY_START) {
      /* a changed copy first, sent as a new DLLDP (stored, paid for), then the replay */
      changed_block(s, from, 0, blk);
      unsigned vl = (unsigned)ual_field_get(UAL_F_UB_LPH_VL, blk);
      if (g->p.known) s->cred[vl] -= (int32_t)cost(g, n0);
      store(s, blk, n0);
      mark(push(s, blk, n0), UAL_R_UB_REPLAY_START, 0);
      done(g, inj);
    }
  }
  for (unsigned k = 0; k < nrep; k++) {
    uint32_t i = (from + k) % UB_DEPTH;
    if (inj == I_UB_ACK_STATE_SEND && k == n0) {
      /* a new block between the replay's first and second: the second,
       * going on with the replay, tells it was sent inside the replay */
      uint8_t nf[FB];
      nop_flit(nf);
      store(s, nf, 1);
      push(s, nf, 1);
      ack_mark = n0 + s->blen[i] - 1u;
      done(g, inj);
    }
    if (inj == I_UB_REPLAY_CONTENT && i == last) {
      changed_block(s, last, 1, blk);
      struct qf *e = NULL;
      for (unsigned j = 0; j < s->blen[last]; j++) (e = push(s, blk + (size_t)j * FB, 1))->replay = 1;
      mark(e, UAL_R_UB_REPLAY_CONTENT, 0);
      done(g, inj);
      k += s->blen[last] - 1u;
      continue;
    }
    struct qf *e = push(s, s->buf[i], 1);
    e->replay = 1;
    if (k == ack_mark) mark(e, UAL_R_UB_ACK_STATE_SEND, 0);
  }
}

static void plan(struct ubg *g, unsigned d) {
  struct side *s = &g->s[d];
  if (s->ack_due) {
    unsigned depth = UB_DEPTH;
    uint16_t rd = s->ack_rd;
    struct ual_ub_dllcb cb = { .type = UAL_UB_CB_RETRY_ACK, .flits = 1 };
    cb.ra.rd_ptr = rd;
    cb.ra.wr_ptr = (uint16_t)(s->wr % depth);
    cb.ra.num_free_buf = (uint16_t)(depth - (unsigned)s->unacked);
    int inj = -1;
    if (s->dll == DLL_NORMAL)
      for (int k = I_UB_RETRY_ACK_PTR; k <= I_UB_REPLAY_COUNT; k++)
        if (want(g, k)) { inj = k; break; }
    if (inj == I_UB_RETRY_ACK_PTR && rd != s->wr % depth) {
      /* one block past the RcvPtr asked: the replay stays on block boundaries */
      const uint8_t *h = s->buf[rd % depth];
      unsigned len = ual_field_get(UAL_F_UB_LPH_CFG, h) == 0 ? (unsigned)ual_field_get(UAL_F_UB_LCH_CLENGTH, h) + 1
                                                              : (unsigned)ual_field_get(UAL_F_UB_LPH_NLAST, h) + 1;
      cb.ra.rd_ptr = (uint16_t)((rd + len) % depth);
    } else if (inj == I_UB_RETRY_ACK_PTR) {
      inj = -1;
    }
    if (inj == I_UB_REPLAY_COUNT) cb.ra.wr_ptr = (uint16_t)((s->wr + 1) % depth);
    push_simple(g, s, UAL_UB_CB_RETRY_IDLE);
    struct qf *e = NULL;
    for (unsigned i = 0; i < 32; i++) e = push_cb(g, s, &cb, false);
    if (inj >= 0) { mark(e, injs[inj].rule, 0); done(g, inj); }
    uint32_t from = cb.ra.rd_ptr, to = s->wr % depth;
    unsigned nrep = (to + depth - from) % depth;
    replay(g, s, d, from, nrep, inj < 0);
    s->ack_due = 0;
    return;
  }
  if (s->req_due) {
    struct ual_ub_dllcb cb = { .type = UAL_UB_CB_RETRY_REQ, .flits = 1 };
    cb.rq.rcv_ptr = (uint16_t)(s->rcv % UB_DEPTH);
    cb.rq.num_retry = s->req_retry;
    cb.rq.num_phy_reinit = s->reinit;
    push_set(g, s, &cb, 32, -1);
    s->req_due = 0;
    return;
  }
  switch (s->dll) {
  case DLL_PARAM:
    if (!s->sent_req) {
      struct ual_ub_dllcb cb = { .type = UAL_UB_CB_RETRY_REQ, .flits = 1 };
      if (d == 0 && want(g, I_UB_RETRY_SET_SHORT)) {
        push_set(g, s, &cb, 31, -1);
        done(g, I_UB_RETRY_SET_SHORT);
        push_set(g, s, &cb, 32, -1);
        /* the analyzer judges the short set at the next Retry_Idle */
        mark(&s->q[(s->qh + s->qn - 33) % UB_QMAX], UAL_R_UB_RETRY_SET_SHORT, 0);
      } else if (d == 0 && want(g, I_UB_RETRY_SET_FIELDS)) {
        push_set(g, s, &cb, 32, 5);
        done(g, I_UB_RETRY_SET_FIELDS);
      } else {
        push_set(g, s, &cb, 32, -1);
      }
      s->sent_req = 1;
      if (d == 0 && want(g, I_UB_INIT_BEFORE_ACK)) {
        struct ual_ub_dllcb in = { .type = UAL_UB_CB_INIT, .flits = 5, .init = s->init };
        mark(push_cb(g, s, &in, true), UAL_R_UB_INIT_BEFORE_ACK, 0);
        s->sent_init = 1;
        done(g, I_UB_INIT_BEFORE_ACK);
      }
      return;
    }
    if (s->got_ack_set && !s->sent_init) {
      /* after its own Retry_Ack_Set, so that no replay repeats it */
      if (d == 0 && want(g, I_UB_DLLDP_EARLY)) { dlldp(g, d, 0, 8, I_UB_DLLDP_EARLY); done(g, I_UB_DLLDP_EARLY); }
      struct ual_ub_dllcb cb = { .type = UAL_UB_CB_INIT, .flits = 5, .init = s->init };
      struct qf *e = push_cb(g, s, &cb, true);
      s->sent_init = 1;
      /* the stateless Init findings, and the negotiation's when this Init is the second */
      if (d == 0) {
        if (s->init.vl_enable == 0x000E) mark(e, UAL_R_UB_INIT_VL0, 0);
        if (s->init.feature_id != 1) mark(e, UAL_R_UB_INIT_FEATURE, 0);
        if (s->init.vl_enable == 0x000B) mark(e, UAL_R_UB_VL_ENABLE_GAP, 0);
      }
      if (g->s[d ^ 1].sent_init && !g->p.known) {
        if ((s->init.vl_enable & g->s[d ^ 1].init.vl_enable & 1) == 0) mark(e, UAL_R_UB_NEGOTIATION_DEFAULT, 1);
        if ((s->init.flow_ctrl_size & g->s[d ^ 1].init.flow_ctrl_size) == 0) mark(e, UAL_R_UB_NEGOTIATION_DEFAULT, 1);
      }
      return;
    }
    if (s->sent_init && g->p.known && !s->sent_crd && s->got_init) {
      /* initial credits for the partner: two T=1 Crd_Acks, the last with SD */
      unsigned nca = g->inj[I_UB_CREDIT_MAX] ? 3 : 2;
      for (unsigned k = 0; k < nca; k++) {
        struct ual_ub_dllcb cb = { .type = UAL_UB_CB_CRD_ACK, .flits = 2 };
        cb.ca.t = 1;
        cb.ca.sd = k + 1 == nca;
        for (unsigned v = 0; v < UAL_UB_VLS; v++)
          if (g->p.vl_enable >> v & 1u) cb.ca.crd[v] = g->inj[I_UB_CREDIT_MAX] ? 63 : 20;
        struct qf *e = push_cb(g, s, &cb, true);
        if (k + 1 == nca && g->inj[I_UB_CREDIT_MAX]) { mark(e, UAL_R_UB_CREDIT_MAX, 0); done(g, I_UB_CREDIT_MAX); }
      }
      s->sent_crd = 1;
      s->sd_sent = 1;
      s->dll = DLL_CREDIT;
      return;
    }
    push_simple(g, s, UAL_UB_CB_NULL_BLOCK);
    return;
  case DLL_CREDIT:
    if (s->sd_rcvd) s->dll = DLL_NORMAL;
    push_simple(g, s, UAL_UB_CB_NULL_BLOCK);
    return;
  case DLL_NORMAL:
    if (s->need_null) { s->need_null = 0; push_simple(g, s, UAL_UB_CB_NULL_BLOCK); return; }
    if (plan_inject(g, d)) return;
    plan_normal(g, d);
    return;
  default:
    push_simple(g, s, UAL_UB_CB_NULL_BLOCK);
    return;
  }
}

/* ---- the run ---- */

/* One flit of side d: from its queue (planned when empty), with bit errors. */
static void step_side(struct ubg *g, unsigned d) {
  struct side *s = &g->s[d];
  if (!s->qn) plan(g, d);
  struct qf e = s->q[s->qh];
  s->qh = (s->qh + 1) % UB_QMAX;
  s->qn--;
  uint8_t flags = 0;
  bool fec = false;
  bool rp_inj = want(g, I_UB_REPLAY_START) || want(g, I_UB_REPLAY_CONTENT) || want(g, I_UB_ACK_STATE_SEND);
  if (d == 0 && s->dll == DLL_NORMAL && g->mode == UAL_UB_MODE_CRC && ual_field_get(UAL_F_UB_LPH_CFG, e.f) != 0 && !e.replay &&
      (want(g, I_UB_FEC_UNCORRECTABLE) ||
       (rp_inj && !g->fec_retry && !g->s[1].discarding && !s->ack_due && ual_field_get(UAL_F_UB_LPH_NDB, e.f) == 0))) {
    /* a replay injection needs a retry whose blocks the analyzer saw intact */
    fec = true;
    flags |= UAL_RF_PHY_ERR;
    if (want(g, I_UB_FEC_UNCORRECTABLE)) done(g, I_UB_FEC_UNCORRECTABLE);
    else g->fec_retry = 1;
  }
  if (d == 0 && s->dll == DLL_NORMAL && g->mode == UAL_UB_MODE_NONCRC && want(g, I_UB_MODE_NOFEC)) g->nofec_now = 1;
  bool retry_blk = ual_field_get(UAL_F_UB_LCH_CFG, e.f) == 0 && ual_field_get(UAL_F_UB_LCH_FIXED, e.f) == 0x20 &&
                   (e.f[2] >> 4) == 1;
  if (g->ber > 0 && g->mode == UAL_UB_MODE_CRC && s->dll == DLL_NORMAL && !retry_blk) {
    /* errors in the payload bytes only, so that the framing survives */
    double p = g->ber * 8.0 * 12.0;
    if (gen_rng_unit(&g->rng) < p) e.f[4 + gen_rng_below(&g->rng, 12)] ^= (uint8_t)(1u << gen_rng_below(&g->rng, 8));
  }
  emit_record(g, d, UAL_REC_UB_FLIT, e.f, FB, flags);
  s->flits++;
  if (!s->qn && g->s[d ^ 1].no_ack == 2) g->s[d ^ 1].no_ack = 0;
  if (g->nofec_now) { truth(g, g->frame, d, UAL_R_UB_MODE_NOFEC, 0, "FEC bypass"); done(g, I_UB_MODE_NOFEC); g->nofec_now = 0; }
  if (fec) truth(g, g->frame, d, UAL_R_UB_FEC_UNCORRECTABLE, g->fec_retry ? 1 : 0, "flags bit 1");
  if (s->req_hold && !--s->req_hold) s->req_due = 1;
  if (s->req_timer && !--s->req_timer) {
    /* no Retry_Ack_Set came: again with NUM_RETRY + 1, or a retrain at the threshold */
    s->req_out = 0;
    if (s->req_retry + 1u >= UAL_UB_NUM_RETRY_THRESHOLD) {
      g->retrain_due = (uint8_t)(d + 1);
    } else {
      s->req_retry = (uint8_t)(s->req_retry + (s->seq_inject ? 2 : 1));
      s->seq_bad = s->seq_inject;
      s->seq_inject = 0;
      s->req_due = 1;
    }
  }
  for (int t = 0; t < 3; t++)
    if (e.truth[t] >= 0) truth(g, g->frame, d, e.truth[t], e.src[t], e.src[t] ? "consequence" : "injected");
  receive(g, d, e.f, fec, e.replay);
}

/* LinkUp 0: a DLLDP being received in either direction is cut. */
static void link_down(struct ubg *g) {
  event(g, UAL_EV_UB_LINKDOWN, 0);
  for (unsigned d = 0; d < 2; d++)
    if (g->s[d ^ 1].rx.synced && g->s[d ^ 1].rx.in_dlldp)
      truth(g, g->frame, d, UAL_R_UB_LINKDOWN_MIDPACKET, want(g, I_UB_LINKDOWN_MIDPACKET) ? 0 : 1, "cut DLLDP");
}

/* The PHY retrain after NUM_RETRY reached its threshold (T 4.7.3.3), or
 * ERROR at the NUM_PHY_REINIT threshold: a new link-up. */
static void retrain(struct ubg *g) {
  unsigned d = g->retrain_due - 1u;
  struct side *s = &g->s[d];
  g->retrain_due = 0;
  event(g, UAL_EV_UB_RETRAIN_START, 0);
  if (s->reinit + 1u >= UAL_UB_PHY_REINIT_THRESHOLD) {
    truth(g, g->frame, d, UAL_R_UB_RETRY_ERROR, 0, "NUM_PHY_REINIT threshold");
    link_down(g);
    link_up(g);
    return;
  }
  truth(g, g->frame, d, UAL_R_UB_RETRAIN, 0, "NUM_RETRY threshold");
  event(g, UAL_EV_UB_RETRAIN_END, 0);
  for (unsigned k = 0; k < 2; k++) ual_ub_rx_resync(&g->s[k].rx, (enum ual_ub_mode)g->mode);
  s->reinit++;
  s->req_retry = 0;
  s->req_due = 1;
}

static void mode_switch_done(struct ubg *g) {
  event(g, UAL_EV_UB_RETRAIN_START, 0);
  event(g, UAL_EV_UB_RETRAIN_END, 0);
  g->mode = UAL_UB_MODE_NONCRC;
  event(g, UAL_EV_UB_MODE, UAL_UB_MODE_NONCRC);
  for (unsigned d = 0; d < 2; d++) {
    struct side *s = &g->s[d];
    ual_ub_rx_resync(&s->rx, UAL_UB_MODE_NONCRC);
    s->mc = 0;
    s->mc_got_req = s->mc_got_ack = 0;
    s->need_null = 1;
    s->qn = 0;
  }
  g->phase = 0;
}

int ub_gen_run(int sc, const struct gen_opts *o, const struct gen_out *out, char *err, size_t cap) {
  static struct ubg G;
  struct ubg *g = &G;
  memset(g, 0, sizeof *g);
  g->out = out;
  g->sc = sc;
  g->t0 = o->start_ns;
  g->mode = UAL_UB_MODE_CRC;
  gen_rng_seed(&g->rng, o->seed);
  g->ber = o->ber >= 0 ? o->ber : sc == UB_SC_BER || sc == UB_SC_ALL ? 2e-5 : 0;
  for (unsigned i = 0; i < o->n_inject; i++)
    for (int k = 0; k < I_COUNT; k++)
      if (injs[k].rule == o->inject[i].rule) { g->inj[k] = 1; g->inj_at[k] = o->inject[i].at_frame == GEN_AT_DEFAULT ? 0 : o->inject[i].at_frame; }
  uint64_t n = o->count ? o->count : sc == UB_SC_INIT ? 600 : sc == UB_SC_ALL ? 12000 : 6000;
  /* fifteen unanswered Req sets and their timeouts, or a window, need room */
  bool long_retry = g->inj[I_UB_RETRAIN] || g->inj[I_UB_RETRY_ERROR] || g->inj[I_UB_RETRY_REQ_MISSING];
  if (!o->count && long_retry) n += 6000;
  if (o->ber < 0 && long_retry) g->ber = 1e-5;   /* fewer other errors on the way */
  link_up(g);
  uint64_t mode_at = sc == UB_SC_MODE || sc == UB_SC_ALL ? n / 3 : UINT64_MAX;
  uint64_t lanes_at = sc == UB_SC_LANES || sc == UB_SC_ALL ? n / 2 : UINT64_MAX;
  bool lanes_done = false;
  while (g->frame < n && !g->stop) {
    if (g->frame >= mode_at && g->phase == 0 && g->mode == UAL_UB_MODE_CRC && g->s[0].dll == DLL_NORMAL) g->phase = 1;
    if (g->frame >= lanes_at && !lanes_done && g->phase == 0 && g->s[0].dll == DLL_NORMAL) { g->phase = 2; lanes_done = true; }
    for (unsigned d = 0; d < 2 && !g->stop; d++) step_side(g, d);
    if (g->retrain_due && !g->s[0].rx.blk_n && !g->s[1].rx.blk_n && !g->s[0].rx.in_dlldp && !g->s[1].rx.in_dlldp) retrain(g);
    if (want(g, I_UB_LINKDOWN_MIDPACKET) && g->s[0].dll == DLL_NORMAL && g->s[1].rx.synced && g->s[1].rx.in_dlldp) {
      link_down(g);
      done(g, I_UB_LINKDOWN_MIDPACKET);
      link_up(g);
    }
    if (g->phase == 1 && g->s[0].mc == 2 && g->s[1].mc == 2 && g->s[0].mc_got_ack && !g->s[0].qn && !g->s[1].qn) mode_switch_done(g);
    if (g->phase == 3 && g->s[1].rx.synced) {
      /* B answers the Lane_Manage request once it has it */
      struct side *b = &g->s[1];
      struct ual_ub_dllcb cb = { .type = UAL_UB_CB_LANE_MANAGE, .flits = 1 };
      cb.lane = (struct ual_ub_lane){ .rsp_id = 0xA, .rsp_tlw = 1, .tlw = 2, .rlw = 4 };
      if (want(g, I_UB_LANE_CMD)) { cb.lane.rsp_id = 0; cb.lane.req_id = 6; mark(push_cb(g, b, &cb, true), UAL_R_UB_LANE_CMD, 0); done(g, I_UB_LANE_CMD); }
      else push_cb(g, b, &cb, true);
      g->s[0].width = 2;
      g->phase = 0;
    }
  }
  for (int k = 0; k < I_COUNT; k++)
    if (g->inj[k] == 1) {
      snprintf(err, cap, "%s: no chance to inject in %s", ual_rule_id((enum ual_rule)injs[k].rule), ub_scenario_name(sc));
      return -1;
    }
  return 0;
}
