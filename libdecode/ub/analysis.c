/* The UB link analysis (analysis.h): the block receiver of each direction,
 * then per completed block the DLL state machine, the Init Block
 * negotiation, the VL credits, the retry buffer, retry sets and replays,
 * and the mode change handshake. */
#include "ualink/ub/analysis.h"
#include "ualink/ub/record.h"
#include "ualink/core/analysis.h"
#include "ualink/core/fields.h"
#include "core/field_access.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char side_name(unsigned d) { return d ? 'B' : 'A'; }

const char *ual_ub_dll_name(unsigned s) {
  static const char *const n[] = { "unknown", "Disabled", "Param_Init", "Credit_Init", "Normal" };
  return s < sizeof n / sizeof n[0] ? n[s] : "?";
}

/* ---- state resets ---- */

static void side_forget(struct ual_ub_side *s) {
  s->dll = UAL_UB_DLL_UNKNOWN;
  s->cred_known = s->cred_seeded = 0;
  s->wr_known = 0;
  s->wr_sure = 0;
  s->unacked = -1;
  s->replaying = s->rp_gap = s->rp_idle = 0;
  s->discarding = s->err_pending = 0;
  s->req_rcv = -1;
  s->last_req_retry = -1;
  s->req_sets = 0;
  s->ep_frame = s->ep_ns = 0;
  memset(&s->set, 0, sizeof s->set);
  s->freed = 0;       /* counted from the set's freed0, now 0 */
  s->held_since_ns = 0;
  s->mc = 0;
  s->mc_known = 0;
  s->dp_seen = 0;
  s->disc_maybe = 1;
  s->req_seen = 0;
  s->disc_from_ns = 0;
}

/* Records lost (a dropped-records event, or a record after lost records):
 * both directions hunt for blocks again and forget what they learned. */
static void lost(struct ual_ub_an *a) {
  for (unsigned d = 0; d < 2; d++) {
    ual_ub_rx_resync(&a->rx[d], UAL_UB_MODE_UNKNOWN);
    a->rx[d].blind = 1;             /* the lost records may have held a bad block */
    side_forget(&a->s[d]);
    /* the flits stored while records were lost are unknown, wherever the
     * sender's pointer went: no replay is compared with what came before */
    memset(a->s[d].hash, 0, sizeof a->s[d].hash);
    a->s[d].lost_valid = 0;
  }
}

/* LinkUp: every side starts from its reset values (T §4.2). */
static void side_reset(struct ual_ub_side *s, unsigned dll) {
  side_forget(s);
  s->dll = (uint8_t)dll;
  s->got_ack_set = s->init_seen = s->sd_sent = s->sd_rcvd = 0;
  s->wr_known = 1;
  s->wr_sure = 1;
  s->wr = s->rcv = 0;
  s->unacked = 0;
  memset(s->cred, 0, sizeof s->cred);
  memset(s->cred_init, 0, sizeof s->cred_init);
  memset(s->hash, 0, sizeof s->hash);
  s->dp_seen = 1;
  s->mc_known = 1;   /* the mode change state is known from here */
  s->disc_maybe = 0;
}

void ual_ub_an_init(struct ual_ub_an *a) {
  memset(a, 0, sizeof *a);
  for (unsigned d = 0; d < 2; d++) {
    ual_ub_rx_init(&a->rx[d]);
    side_forget(&a->s[d]);
  }
}

static void set_dll(struct ual_ub_an *a, unsigned d, unsigned st, const struct ual_fabric_step *c) {
  struct ual_ub_side *s = &a->s[d];
  if (s->dll == st) return;
  unsigned old = s->dll;
  s->dll = (uint8_t)st;
  ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_UB_DLL, d, (int32_t)st, old ? (int32_t)old : UAL_UNKNOWN,
                    "%c DLL %s -> %s", side_name(d), ual_ub_dll_name(old), ual_ub_dll_name(st));
}

/* ---- negotiation (digest table 3.5) ---- */

/* Smallest common value of two bitmaps (bit k = 2^k), else the default. */
static uint16_t pick(unsigned a, unsigned b, unsigned def, uint32_t *defaulted, unsigned bit) {
  unsigned m = a & b;
  if (!m) { m = def; *defaulted |= 1u << bit; }
  unsigned k = 0;
  while (!(m >> k & 1u)) k++;
  return (uint16_t)(1u << k);
}

enum { NEG_DATA_ACK, NEG_CTRL_ACK, NEG_FLOW_CTRL, NEG_VL_ENABLE, NEG_CTRL_GRAIN, NEG_DATA_GRAIN, NEG_COUNT };
static const char *const neg_names[NEG_COUNT] = {
  "DATA_ACK_GRAIN_SIZE", "CTRL_ACK_GRAIN_SIZE", "FLOW_CTRL_SIZE", "VL_ENABLE", "CTRL_CREDIT_GRAIN_SIZE",
  "DATA_CREDIT_GRAIN_SIZE",
};

static void negotiate(struct ual_ub_an *a, const struct ual_fabric_step *c, struct ual_findings *f) {
  const struct ual_ub_init *x = &a->s[0].init, *y = &a->s[1].init;
  struct ual_ub_params *p = &a->p;
  memset(p, 0, sizeof *p);
  p->known = 1;
  p->feature_id = x->feature_id < y->feature_id ? x->feature_id : y->feature_id;
  if (!p->feature_id) p->feature_id = UAL_UB_DEF_FEATURE;
  p->data_ack = pick(x->data_ack_grain, y->data_ack_grain, UAL_UB_DEF_DATA_ACK, &p->defaulted, NEG_DATA_ACK);
  p->ctrl_ack = pick(x->ctrl_ack_grain, y->ctrl_ack_grain, UAL_UB_DEF_CTRL_ACK, &p->defaulted, NEG_CTRL_ACK);
  p->flow_ctrl = pick(x->flow_ctrl_size, y->flow_ctrl_size, UAL_UB_DEF_FLOW_CTRL, &p->defaulted, NEG_FLOW_CTRL);
  p->vl_enable = x->vl_enable & y->vl_enable;
  if (!(p->vl_enable & 1)) { p->vl_enable = UAL_UB_DEF_VL_ENABLE; p->defaulted |= 1u << NEG_VL_ENABLE; }
  for (unsigned v = 0; v < UAL_UB_VLS; v++) {
    uint32_t dummy = 0, *df = p->vl_enable >> v & 1 ? &p->defaulted : &dummy;
    p->ctrl_grain[v] = pick(x->ctrl_grain[v], y->ctrl_grain[v], UAL_UB_DEF_CTRL_GRAIN, df, NEG_CTRL_GRAIN);
    p->data_grain[v] = pick(x->data_grain[v], y->data_grain[v], UAL_UB_DEF_DATA_GRAIN, df, NEG_DATA_GRAIN);
  }
  for (unsigned d = 0; d < 2; d++) {
    const struct ual_ub_init *me = &a->s[d].init, *peer = &a->s[d ^ 1].init;
    p->share[d] = peer->share;            /* the receiver's buffer decides */
    p->depth[d] = me->retry_buf_depth;    /* the sender's own buffer */
    p->min_interval[d] = peer->min_interval;
  }
  for (unsigned k = 0; k < NEG_COUNT; k++)
    if (p->defaulted >> k & 1u)
      ual_findings_add(f, UAL_R_UB_NEGOTIATION_DEFAULT, -1, "%s: no common value, default used", neg_names[k]);
  ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_UB_NEGOTIATED, UAL_PARTNER_LINK, p->vl_enable, UAL_UNKNOWN,
                    "negotiated VLs %04x FC %u flits/cell ACK %u/%u flits %s/%s depth %u/%u", p->vl_enable, p->flow_ctrl,
                    p->data_ack, p->ctrl_ack, p->share[0] ? "share" : "excl", p->share[1] ? "share" : "excl", p->depth[0],
                    p->depth[1]);
}

/* ---- credits ---- */

static int32_t sum(const int32_t *v) {
  int32_t s = 0;
  for (unsigned i = 0; i < UAL_UB_VLS; i++) s += v[i];
  return s;
}

static bool vl_on(const struct ual_ub_an *a, unsigned vl) { return a->p.known && (a->p.vl_enable >> vl & 1u); }

/* Side y gets cells back on vl from its partner. */
static void credit_return(struct ual_ub_an *a, unsigned y, unsigned vl, int32_t cells, const struct ual_fabric_step *c,
                          struct ual_findings *f) {
  struct ual_ub_side *s = &a->s[y];
  if (!cells) return;
  s->cred[vl] += cells;
  if (!s->cred_known) return;
  bool over = a->p.share[y] ? sum(s->cred) > sum(s->cred_init) : s->cred[vl] > s->cred_init[vl];
  if (over && s->cred_seeded) {
    /* a seeded count may still hold the cost of a DLLDP in flight at the
     * capture's start, charged by nobody: it was too high, not the return */
    s->cred[vl] -= a->p.share[y] ? sum(s->cred) - sum(s->cred_init) : s->cred[vl] - s->cred_init[vl];
  } else if (over) {
    ual_findings_add(f, UAL_R_UB_CREDIT_OVERFLOW, -1, "%c VL%u credits %d above the initial %d", side_name(y), vl,
                     a->p.share[y] ? sum(s->cred) : s->cred[vl], a->p.share[y] ? sum(s->cred_init) : s->cred_init[vl]);
    s->cred[vl] -= cells;
  }
  s->held_since_ns = sum(s->cred) < sum(s->cred_init) ? c->ts_ns : 0;
  s->held_reported = 0;
}

/* Side y's retry buffer frees n flits. */
static void ack_free(struct ual_ub_an *a, unsigned y, int32_t n, struct ual_findings *f) {
  struct ual_ub_side *s = &a->s[y];
  if (!n) return;
  if (s->unacked < 0) {
    s->freed += (uint32_t)n;   /* a Retry_Ack_Set's NumFreeBuf counts from its Retry_Idle */
    return;
  }
  if (n > s->unacked) {
    ual_findings_add(f, UAL_R_UB_ACK_OVERFLOW, -1, "ACK frees %d of %c's flits, %d outstanding", n, side_name(y), s->unacked);
    s->unacked = 0;
    return;
  }
  s->unacked -= n;
  s->freed += (uint32_t)n;
}

/* ---- blocks ---- */

static uint32_t flit_hash(const uint8_t *p) {
  uint32_t h = 2166136261u;
  for (unsigned i = 0; i < UAL_UB_FLIT_BYTES; i++) h = (h ^ p[i]) * 16777619u;
  return h | 1u;   /* 0 = unknown */
}

static unsigned depth_of(const struct ual_ub_an *a, unsigned d) { return a->p.known ? a->p.depth[d] : 0; }

/* The partner found an error in d's stream: it discards until d's Ack set. */
static void stream_error(struct ual_ub_an *a, unsigned d, const struct ual_fabric_step *c) {
  struct ual_ub_side *s = &a->s[d];
  s->bad_blocks++;
  a->crd_exact = 0;
  if (s->discarding) return;
  s->discarding = 1;
  s->err_pending = c->ts_ns != 0;
  s->err_ns = c->ts_ns;
  s->err_frame = c->frame;
}

/* The sender's WrPtr is no longer followed: the stored hashes from here on
 * are stale until a Retry_Ack_Set gives WrPtr again. */
static void wr_lost(struct ual_ub_side *s) {
  if (s->wr_known) { s->wr_lost = s->wr; s->lost_valid = 1; }
  s->wr_known = 0;
}

static void set_reset(struct ual_ub_set *t) { memset(t, 0, sizeof *t); }

static bool same_set_fields(const struct ual_ub_dllcb *x, const struct ual_ub_dllcb *y) {
  if (x->type == UAL_UB_CB_RETRY_REQ) return memcmp(&x->rq, &y->rq, sizeof x->rq) == 0;
  return memcmp(&x->ra, &y->ra, sizeof x->ra) == 0;
}

/* A complete Retry_Req_Set or Retry_Ack_Set from side d. */
static void set_complete(struct ual_ub_an *a, unsigned d, const struct ual_ub_dllcb *cb, const struct ual_fabric_step *c,
                         struct ual_findings *f) {
  struct ual_ub_side *s = &a->s[d], *peer = &a->s[d ^ 1];
  if (cb->type == UAL_UB_CB_RETRY_REQ) {
    s->retry_req_sets++;
    ual_findings_add(f, UAL_R_UB_RETRY_REQ, -1, "%c asks for a replay from RcvPtr %u (NUM_RETRY %u)", side_name(d),
                     cb->rq.rcv_ptr, cb->rq.num_retry);
    ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_UB_RETRY, d, 1, cb->rq.rcv_ptr, "%c Retry_Req_Set RcvPtr %u NUM_RETRY %u",
                      side_name(d), cb->rq.rcv_ptr, cb->rq.num_retry);
    if (!s->ep_frame) {
      s->ep_frame = c->frame;
      s->ep_ns = c->ts_ns;
    }
    peer->err_pending = 0;
    peer->req_rcv = cb->rq.rcv_ptr;
    peer->req_seen = 1;
    if (s->dll == UAL_UB_DLL_NORMAL) {
      if (s->req_sets && s->last_req_retry >= 0) {
        ual_findings_add(f, UAL_R_UB_RETRY_ACK_TIMEOUT, -1, "%c repeats its Retry_Req_Set: no Retry_Ack_Set came", side_name(d));
        if (cb->rq.num_retry != s->last_req_retry + 1)
          ual_findings_add(f, UAL_R_UB_NUM_RETRY_SEQ, -1, "NUM_RETRY %u after %d", cb->rq.num_retry, s->last_req_retry);
      }
      if (cb->rq.num_retry > UAL_UB_NUM_RETRY_THRESHOLD)
        ual_findings_add(f, UAL_R_UB_NUM_RETRY_SEQ, -1, "NUM_RETRY %u over the threshold %u", cb->rq.num_retry,
                         UAL_UB_NUM_RETRY_THRESHOLD);
      s->req_sets++;
      s->last_req_retry = cb->rq.num_retry;
      s->last_reinit = cb->rq.num_phy_reinit;
    }
    return;
  }
  /* Retry_Ack_Set: d answers; its stream is accepted again and it replays. */
  s->retry_ack_sets++;
  peer->got_ack_set = 1;
  peer->req_sets = 0;
  peer->last_req_retry = -1;
  struct ual_tevent *e = ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_UB_RETRY, d, 2, cb->ra.rd_ptr,
                                           "%c Retry_Ack_Set RdPtr %u WrPtr %u", side_name(d), cb->ra.rd_ptr,
                                           cb->ra.wr_ptr);
  /* the retry episode the partner's first Req set opened ends here */
  if (e && peer->ep_frame) {
    e->req_frame = peer->ep_frame;
    e->latency_ns = c->ts_ns && peer->ep_ns && c->ts_ns >= peer->ep_ns ? c->ts_ns - peer->ep_ns : 0;
  }
  peer->ep_frame = peer->ep_ns = 0;
  unsigned depth = depth_of(a, d);
  s->discarding = 0;
  s->disc_maybe = 0;
  s->err_pending = 0;
  if (depth) {
    if (s->req_rcv >= 0 && cb->ra.rd_ptr != (unsigned)s->req_rcv % depth)
      ual_findings_add(f, UAL_R_UB_RETRY_ACK_PTR, -1, "RdPtr %u, RcvPtr %d requested", cb->ra.rd_ptr, s->req_rcv);
    bool agree = s->wr_known && cb->ra.wr_ptr == s->wr % depth;
    if (s->wr_known && !agree && s->wr_sure)
      ual_findings_add(f, UAL_R_UB_REPLAY_COUNT, -1, "WrPtr %u announces %u flits to replay, %u are stored after RdPtr",
                       cb->ra.wr_ptr, (cb->ra.wr_ptr + depth - cb->ra.rd_ptr) % depth, (s->wr % depth + depth - cb->ra.rd_ptr) % depth);
    if (s->wr_known && !agree && !s->wr_sure) {
      /* WrPtr was learned from an earlier set that may have been wrong: learn it again */
      memset(s->hash, 0, sizeof s->hash);
      s->wr_known = 0;
      s->lost_valid = 0;
    }
    if (agree) s->wr_sure = 1;
    if (!s->wr_known) {
      if (s->lost_valid && depth <= UAL_UB_HASH_RING)
        for (uint32_t i = s->wr_lost % depth; i != cb->ra.wr_ptr % depth; i = (i + 1) % depth) s->hash[i] = 0;
      s->wr = cb->ra.wr_ptr;
      s->wr_known = 1;
      s->lost_valid = 0;
    }
    /* NumFreeBuf is as the set started: what ACKs freed since counts too */
    int32_t un = (int32_t)depth - (int32_t)cb->ra.num_free_buf - (int32_t)(s->freed - s->set.freed0);
    /* with WrPtr unsure, which blocks are replayed is not known, nor what they add */
    s->unacked = cb->ra.num_free_buf <= depth && s->wr_sure ? (un > 0 ? un : 0) : -1;
    s->rp_ptr = cb->ra.rd_ptr;
    s->rp_left = (s->wr % depth + depth - cb->ra.rd_ptr) % depth;
    s->rp_done = 0;
    s->rp_said = s->rp_gap = s->rp_idle = 0;
    s->replaying = s->rp_left > 0;
    s->rcv = cb->ra.rd_ptr;
  }
  s->req_rcv = -1;
}

/* Retry set bookkeeping for a good DLLCB or DLLDP from d (type = the DLLCB
 * type, UAL_UB_CB_UNKNOWN + 1 for a DLLDP). */
static void retry_sets(struct ual_ub_an *a, unsigned d, unsigned type, const struct ual_ub_dllcb *cb,
                       const struct ual_fabric_step *c, struct ual_findings *f) {
  struct ual_ub_set *t = &a->s[d].set;
  bool member = type == UAL_UB_CB_RETRY_REQ || type == UAL_UB_CB_RETRY_ACK;
  if (member && t->idle && (t->n == 0 || t->type == type) && t->n < UAL_UB_RETRY_SET_BLOCKS) {
    if (t->n == 0) { t->type = (uint8_t)type; t->first = *cb; t->frame = c->frame; }
    else if (!t->fields_bad && !same_set_fields(&t->first, cb)) {
      t->fields_bad = 1;
      ual_findings_add(f, UAL_R_UB_RETRY_SET_FIELDS, -1, "block %u of the set from frame %llu differs", t->n + 1u,
                       (unsigned long long)t->frame);
    }
    if (++t->n == UAL_UB_RETRY_SET_BLOCKS) set_complete(a, d, &t->first, c, f);
    return;
  }
  if (t->idle && t->n > 0 && (t->n < UAL_UB_RETRY_SET_BLOCKS || member))
    ual_findings_add(f, UAL_R_UB_RETRY_SET_SHORT, -1, "%s set from frame %llu has %u%s blocks", ual_ub_cb_name((enum ual_ub_cb_type)t->type),
                     (unsigned long long)t->frame, t->n, t->n >= UAL_UB_RETRY_SET_BLOCKS ? "+" : "");
  set_reset(t);
  if (type == UAL_UB_CB_RETRY_IDLE) { t->idle = 1; t->freed0 = a->s[d].freed; }
}

/* Mode change handshake (T §4.3.3.8) for a good block from d. */
static void mode_change(struct ual_ub_an *a, unsigned d, unsigned type, const struct ual_ub_dllcb *cb,
                        const struct ual_fabric_step *c, struct ual_findings *f) {
  struct ual_ub_side *s = &a->s[d], *peer = &a->s[d ^ 1];
  bool is_mc = type == UAL_UB_CB_MODE_CHG;
  if (s->disc_maybe) return;   /* the partner may have discarded it */
  if (s->mc == 2 || s->mc == 4) {
    if (type != UAL_UB_CB_NULL_BLOCK && s->mc == 2) {
      ual_findings_add(f, UAL_R_UB_MODECHG_SILENT, -1, "%c sends after its Block_Mode_Chg ACK, before the retrain", side_name(d));
      s->mc = 4;
    }
    return;
  }
  if (is_mc && cb->mc_type == UAL_UB_MC_REQ) {
    if (s->mc == 0)
      ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_UB_MODE, d, UAL_UNKNOWN, UAL_UNKNOWN, "%c Block_Mode_Chg REQ",
                        side_name(d));
    s->mc = s->mc == 3 ? 3 : 1;
    return;
  }
  if (is_mc && cb->mc_type == UAL_UB_MC_ACK) {
    if (s->mc_known && peer->mc_known && (s->mc == 0 || peer->mc == 0))
      ual_findings_add(f, UAL_R_UB_MODECHG_ORDER, -1, "%c Block_Mode_Chg ACK before %s REQ", side_name(d),
                       s->mc == 0 ? "its own" : "the partner's");
    s->mc = 2;
    ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_UB_MODE, d, UAL_UNKNOWN, UAL_UNKNOWN, "%c Block_Mode_Chg ACK",
                      side_name(d));
    return;
  }
  if (s->mc == 1 && type != UAL_UB_CB_CRD_ACK && type != UAL_UB_CB_NULL_BLOCK) {
    ual_findings_add(f, UAL_R_UB_MODECHG_ORDER, -1, "%c sends %s after its Block_Mode_Chg REQ", side_name(d),
                     type > UAL_UB_CB_UNKNOWN ? "a DLLDP" : ual_ub_cb_name((enum ual_ub_cb_type)type));
    s->mc = 3;   /* reported; the handshake goes on */
  }
}

/* A replay whose first stored flits are unknown (only ever seen damaged):
 * a first block equal to the stored flits right after them skipped them. */
static void replay_skip(struct ual_ub_an *a, unsigned d, const uint8_t *blk, unsigned n, struct ual_findings *f) {
  struct ual_ub_side *s = &a->s[d];
  unsigned depth = depth_of(a, d), u = 0;
  if (s->rp_done || s->rp_said || !s->wr_sure || depth > UAL_UB_HASH_RING || s->hash[s->rp_ptr % depth]) return;
  while (u < s->rp_left && !s->hash[(s->rp_ptr + u) % depth]) u++;
  if (u + n > s->rp_left) return;
  for (unsigned k = 0; k < n; k++)
    if (flit_hash(blk + (size_t)k * UAL_UB_FLIT_BYTES) != s->hash[(s->rp_ptr + u + k) % depth]) return;
  ual_findings_add(f, UAL_R_UB_REPLAY_START, -1,
                   "%c's replay starts at %u, not at RcvPtr %u (seen only damaged)",
                   side_name(d), (s->rp_ptr + u) % depth, s->rp_ptr % depth);
  s->rp_said = 1;
  s->rp_ptr += u;
  s->rp_left -= u;
}

/* The replay d owes: each backed-up flit against the one stored at its
 * pointer. A block that is not the stored one is new: first, the replay
 * starts wrong; later, the next block tells whether it was sent inside the
 * replay (which goes on after it) or the replay ended short. */
static bool replay_check(struct ual_ub_an *a, unsigned d, const uint8_t *blk, unsigned n, uint64_t frame,
                         struct ual_findings *f) {
  struct ual_ub_side *s = &a->s[d];
  unsigned depth = depth_of(a, d);
  if (!s->replaying || !depth) return false;
  replay_skip(a, d, blk, n, f);
  for (unsigned k = 0; k < n && s->rp_left; k++) {
    /* a WrPtr learned from one Retry_Ack_Set only may be off: nothing to compare with */
    uint32_t h = flit_hash(blk + (size_t)k * UAL_UB_FLIT_BYTES),
             want = s->wr_sure ? s->hash[(s->rp_ptr % depth) % UAL_UB_HASH_RING] : 0;
    if (!want) s->dp_orig_unknown = 1;
    if (want && depth <= UAL_UB_HASH_RING && h != want) {
      if (k > 0) {
        ual_findings_add(f, UAL_R_UB_REPLAY_CONTENT, -1, "%c's replayed flit at %u differs from the original", side_name(d),
                         s->rp_ptr % depth);
        s->replaying = s->rp_gap = 0;
        return true;
      }
      if (!s->rp_said && s->rp_done == 0) {
        ual_findings_add(f, UAL_R_UB_REPLAY_START, -1, "%c's replay does not start with the flit stored at %u", side_name(d),
                         s->rp_ptr % depth);
        s->rp_said = 1;
      } else if (s->rp_gap) {
        ual_findings_add(f, UAL_R_UB_REPLAY_COUNT, -1,
                         "%c's replay ended after %u of %u flits: new blocks from frame %llu",
                         side_name(d), s->rp_done, s->rp_done + s->rp_left, (unsigned long long)s->rp_gap_frame);
        s->replaying = s->rp_gap = 0;
      } else if (!s->rp_said) {
        s->rp_gap = 1;
        s->rp_gap_frame = frame;
      }
      return false;
    }
    if (k == 0 && s->rp_gap) {
      ual_findings_add(f, UAL_R_UB_ACK_STATE_SEND, -1, "%c sent a new block at frame %llu inside its replay, which goes on here",
                       side_name(d), (unsigned long long)s->rp_gap_frame);
      s->rp_gap = 0;
      s->rp_said = 1;
    }
    s->rp_idle = 0;
    s->rp_ptr++;
    s->rp_done++;
    s->rp_left--;
    s->replayed++;
  }
  if (!s->rp_left) s->replaying = 0;
  return true;
}

static unsigned block_type(const struct ual_ub_flit *u, const uint8_t *blk) {
  return u->block_index == 0 && (unsigned)ual_field_get(UAL_F_UB_LPH_CFG, blk) == 0 ? ual_ub_cb_lookup(blk[2])
                                                                                     : UAL_UB_CB_UNKNOWN + 1;
}

static void dlldp_done(struct ual_ub_an *a, unsigned d, const struct ual_ub_unit *u, bool replay,
                       const struct ual_fabric_step *c, struct ual_findings *f) {
  struct ual_ub_side *s = &a->s[d];
  if (s->dll != UAL_UB_DLL_UNKNOWN && s->dll != UAL_UB_DLL_NORMAL)
    ual_findings_add(f, UAL_R_UB_DLLDP_EARLY, -1, "%c sends a DLLDP in DLL %s", side_name(d), ual_ub_dll_name(s->dll));
  else if (s->dll == UAL_UB_DLL_UNKNOWN)
    set_dll(a, d, UAL_UB_DLL_NORMAL, c);
  s->dlldps++;
  s->dlldp_count[u->vl]++;
  s->dlldp_bytes[u->vl] += u->payload_len;
  if (a->p.known && !vl_on(a, u->vl))
    ual_findings_add(f, UAL_R_UB_VL_DISABLED, -1, "DLLDP on VL%u, enabled %04x", u->vl, a->p.vl_enable);
  /* the partner's credits d owes: over the threshold, d returns them
   * (Crd_Ack) before more DLLDPs of its own */
  const struct ual_ub_side *y = &a->s[d ^ 1];
  if (y->cred_known && !replay && a->crd_exact) {
    int32_t held = sum(y->cred_init) - sum(y->cred);
    if ((int64_t)held * 100 <= (int64_t)sum(y->cred_init) * UAL_UB_CRDACK_PCT) s->crdack_reported = 0;
    else if (!s->crdack_reported) {
      ual_findings_add(f, UAL_R_UB_CRDACK_THRESHOLD, -1, "%c sends a DLLDP holding %d of %c's %d credit cells, no Crd_Ack",
                       side_name(d), held, side_name(d ^ 1), sum(y->cred_init));
      s->crdack_reported = 1;
    }
  }
  /* credits: a DLLDP costs once, when first sent; a replay costs only when
   * the original was never seen intact */
  bool orig_unknown = s->dp_orig_unknown;
  s->dp_orig_unknown = 0;
  /* the original may have cost before the capture, in the seeded count */
  if (replay && orig_unknown && s->cred_seeded) s->cred_known = s->cred_seeded = 0;
  if ((replay && !orig_unknown) || !a->p.known) return;
  int32_t cost = (int32_t)((u->flits + a->p.flow_ctrl - 1u) / a->p.flow_ctrl);
  bool had = sum(s->cred) >= sum(s->cred_init);
  if (s->cred_known) {
    bool short_ = a->p.share[d] ? sum(s->cred) < cost : s->cred[u->vl] < cost;
    if (short_)
      ual_findings_add(f, UAL_R_UB_CREDIT_UNDERFLOW, -1, "%c DLLDP of %u cells on VL%u with %d left", side_name(d), cost, u->vl,
                       a->p.share[d] ? sum(s->cred) : s->cred[u->vl]);
  }
  s->cred[u->vl] -= cost;
  if (had && s->cred_known) { s->held_since_ns = c->ts_ns; s->held_reported = 0; }
}

static void crd_ack(struct ual_ub_an *a, unsigned d, const struct ual_ub_dllcb *cb, const struct ual_fabric_step *c,
                    struct ual_findings *f) {
  struct ual_ub_side *s = &a->s[d], *y = &a->s[d ^ 1];
  unsigned yd = d ^ 1;
  s->crdack_reported = 0;
  if (cb->ca.t) {
    if (s->dll == UAL_UB_DLL_NORMAL)
      ual_findings_add(f, UAL_R_UB_STATE_ORDER, -1, "%c initial Crd_Ack in DLL_Normal", side_name(d));
    else if (s->dll == UAL_UB_DLL_PARAM_INIT)
      set_dll(a, d, UAL_UB_DLL_CREDIT_INIT, c);
  }
  if (a->p.known) {
    for (unsigned v = 0; v < UAL_UB_VLS; v++) {
      if (!cb->ca.crd[v]) continue;
      if (!vl_on(a, v)) ual_findings_add(f, UAL_R_UB_VL_DISABLED, -1, "Crd_Ack returns credit on VL%u", v);
      int32_t cells = (int32_t)cb->ca.crd[v] * a->p.ctrl_grain[v];
      if (cb->ca.t) { y->cred_init[v] += cells; y->cred[v] += cells; }
      else credit_return(a, yd, v, cells, c, f);
    }
    ack_free(a, yd, (int32_t)cb->ca.ack_num * a->p.ctrl_ack, f);
  }
  if (cb->ca.t && cb->ca.sd) {
    s->sd_sent = 1;
    y->sd_rcvd = 1;
    if (a->p.known && y->dll != UAL_UB_DLL_NORMAL && y->dll != UAL_UB_DLL_UNKNOWN) {
      y->cred_known = 1;
      y->cred_seeded = 0;
      if (sum(y->cred_init) > 65535)
        ual_findings_add(f, UAL_R_UB_CREDIT_MAX, -1, "%c's initial credits %d cells", side_name(yd), sum(y->cred_init));
    }
    for (unsigned k = 0; k < 2; k++)
      if (a->s[k].dll == UAL_UB_DLL_CREDIT_INIT && a->s[k].sd_sent && a->s[k].sd_rcvd) set_dll(a, k, UAL_UB_DLL_NORMAL, c);
  }
}

static void dllcb_done(struct ual_ub_an *a, unsigned d, const struct ual_ub_dllcb *cb, const struct ual_fabric_step *c,
                       struct ual_findings *f) {
  struct ual_ub_side *s = &a->s[d];
  s->dllcbs++;
  switch (cb->type) {
  case UAL_UB_CB_CRD_ACK:
    crd_ack(a, d, cb, c, f);
    break;
  case UAL_UB_CB_INIT:
    if (s->dll == UAL_UB_DLL_NORMAL)
      ual_findings_add(f, UAL_R_UB_STATE_ORDER, -1, "%c Init Block in DLL_Normal", side_name(d));
    else if (s->dll == UAL_UB_DLL_PARAM_INIT && !s->got_ack_set)
      ual_findings_add(f, UAL_R_UB_INIT_BEFORE_ACK, -1, "%c Init Block before it received a Retry_Ack_Set", side_name(d));
    s->init = cb->init;
    s->init_seen = 1;
    if (a->s[d ^ 1].init_seen) negotiate(a, c, f);
    break;
  case UAL_UB_CB_LANE_MANAGE: {
    /* the side that sent it, and what it is: REQ_ID 5 asks, RSP_ID Ah answers */
    const struct ual_ub_lane *l = &cb->lane;
    const char *what = l->rsp_id == 0xA ? "response" : l->req_id == 0x5 ? "request" : NULL;
    if (what) {
      ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_UB_LANES, d, l->tlw, s->lanes_tlw ? s->lanes_tlw : UAL_UNKNOWN,
                        "%c Lane_Manage %s: TLW X%u RLW X%u", side_name(d), what, l->tlw, l->rlw);
      s->lanes_tlw = l->tlw;
    }
    break;
  }
  default:
    break;
  }
}

/* A block from d ended and passed its check (or the mode has none). */
static void block_done(struct ual_ub_an *a, unsigned d, struct ual_rec_result *r, const struct ual_fabric_step *c) {
  struct ual_findings *f = &r->findings;
  struct ual_ub_side *s = &a->s[d];
  const struct ual_ub_flit *u = &r->ub;
  const uint8_t *blk = a->rx[d].blk;
  unsigned n = u->block_flits, type = block_type(u, blk);
  bool dlldb = type > UAL_UB_CB_UNKNOWN;
  bool backed = dlldb || ual_ub_cb_backed_up((enum ual_ub_cb_type)type);
  const struct ual_ub_dllcb *cb = u->unit.kind == UAL_UB_UNIT_DLLCB ? &u->unit.cb : NULL;
  static const struct ual_ub_dllcb none;

  if (s->discarding && type != UAL_UB_CB_RETRY_IDLE && type != UAL_UB_CB_RETRY_REQ && type != UAL_UB_CB_RETRY_ACK) {
    if (backed)
      ual_findings_add(f, UAL_R_UB_DISCARDED, -1, "%c's %s discarded: waiting for its Retry_Ack_Set", side_name(d),
                       dlldb ? "DLLDB" : ual_ub_cb_name((enum ual_ub_cb_type)type));
    bool replay = backed && replay_check(a, d, blk, n, c->frame, NULL);
    if (backed && s->wr_known && !replay) {
      unsigned depth = depth_of(a, d);
      for (unsigned k = 0; k < n; k++, s->wr++)
        if (depth) s->hash[(s->wr % depth) % UAL_UB_HASH_RING] = flit_hash(blk + (size_t)k * UAL_UB_FLIT_BYTES);
      if (s->unacked >= 0) s->unacked += (int32_t)n;
    }
    retry_sets(a, d, type, cb ? cb : &none, c, f);
    /* the sender spent credits on it all the same; when its flits are not
     * followed (no WrPtr), its replay pays instead */
    if (u->unit.kind == UAL_UB_UNIT_DLLDP && !replay && a->p.known && s->wr_known) s->cred[u->unit.vl] -= (int32_t)((u->unit.flits + a->p.flow_ctrl - 1u) / a->p.flow_ctrl);
    return;
  }
  mode_change(a, d, type, cb ? cb : &none, c, f);
  retry_sets(a, d, type, cb ? cb : &none, c, f);
  bool replay = false;
  if (backed) {
    replay = replay_check(a, d, blk, n, c->frame, f);
    if (!replay && s->wr_known) {
      unsigned depth = depth_of(a, d);
      for (unsigned k = 0; k < n; k++, s->wr++)
        if (depth) s->hash[(s->wr % depth) % UAL_UB_HASH_RING] = flit_hash(blk + (size_t)k * UAL_UB_FLIT_BYTES);
      if (s->unacked >= 0) {
        s->unacked += (int32_t)n;
        if (depth && s->unacked > (int32_t)depth)
          ual_findings_add(f, UAL_R_UB_RETRY_BUF_FULL, -1, "%c has %d un-ACKed flits, RETRY_BUF_DEPTH %u", side_name(d), s->unacked,
                           depth);
        if (depth && dlldb && u->block_index == 0 && (int32_t)depth - s->unacked < UAL_UB_LOCKOUT_FREE &&
            s->unacked <= (int32_t)depth)
          ual_findings_add(f, UAL_R_UB_LOCKOUT, -1, "%c sends a DLLDP with %d free retry buffer entries", side_name(d),
                           (int32_t)depth - s->unacked);
      }
    }
    s->rcv += n;
  } else if (type == UAL_UB_CB_NULL_BLOCK && s->replaying) {
    s->rp_idle = 1;
  }
  if (dlldb && a->p.known) {
    /* CRD/ACK of the DLLDB header return to the partner */
    unsigned crd = (unsigned)ual_field_get(UAL_F_UB_LPH_CRD, blk), vl = (unsigned)ual_field_get(UAL_F_UB_LPH_CRD_VL, blk);
    if (crd) {
      if (!vl_on(a, vl)) ual_findings_add(f, UAL_R_UB_VL_DISABLED, -1, "CRD returns credit on VL%u", vl);
      else credit_return(a, d ^ 1, vl, a->p.data_grain[vl], c, f);
    }
    if (ual_field_get(UAL_F_UB_LPH_ACK, blk)) ack_free(a, d ^ 1, a->p.data_ack, f);
  }
  if (u->unit.kind == UAL_UB_UNIT_DLLDP && !s->disc_maybe) s->mc_known = 1;
  if (dlldb && u->block_index == 0 && a->p.known && a->p.min_interval[d] && s->dp_seen && !replay &&
      s->flits - n - s->last_dp_flit < a->p.min_interval[d] && s->dll == UAL_UB_DLL_NORMAL)
    ual_findings_add(f, UAL_R_UB_MIN_INTERVAL, -1, "DLLDPs %llu flits apart, PACKET_MIN_INTERVAL %u",
                     (unsigned long long)(s->flits - n - s->last_dp_flit), a->p.min_interval[d]);
  if (dlldb && u->block_index == 0 && !replay) { s->last_dp_flit = s->flits - n; s->dp_seen = 1; }
  if (u->unit.kind == UAL_UB_UNIT_DLLDP) dlldp_done(a, d, &u->unit, replay, c, f);
  else if (cb) dllcb_done(a, d, cb, c, f);
}

/* ---- time ---- */

static void tick(struct ual_ub_an *a, const struct ual_fabric_step *c, struct ual_findings *f, bool end) {
  if (!c->ts_ns) return;
  for (unsigned d = 0; d < 2; d++) {
    struct ual_ub_side *s = &a->s[d];
    unsigned from = f ? f->n : 0;
    if (s->disc_maybe && !s->req_seen) {
      if (!s->disc_from_ns) s->disc_from_ns = c->ts_ns;
      else if (c->ts_ns - s->disc_from_ns > UAL_UB_RETRY_REQ_WINDOW_NS) s->disc_maybe = 0;
    }
    if (s->err_pending && (c->ts_ns - s->err_ns > UAL_UB_RETRY_REQ_WINDOW_NS || end)) {
      if (c->ts_ns - s->err_ns > UAL_UB_RETRY_REQ_WINDOW_NS)
        ual_findings_add(f, UAL_R_UB_RETRY_REQ_MISSING, -1, "error in %c's frame %llu: no Retry_Req_Set from %c", side_name(d),
                         (unsigned long long)s->err_frame, side_name(d ^ 1));
      s->err_pending = 0;
    }
    /* a seeded count does not say since when the credits were held */
    if (s->cred_known && !s->cred_seeded && s->held_since_ns && !s->held_reported &&
        c->ts_ns - s->held_since_ns > UAL_UB_CREDIT_RETURN_NS &&
        sum(s->cred) < sum(s->cred_init)) {
      ual_findings_add(f, UAL_R_UB_CREDIT_RETURN_TIMEOUT, -1, "%c's credits held by %c for %llu ns", side_name(d),
                       side_name(d ^ 1), (unsigned long long)(c->ts_ns - s->held_since_ns));
      s->held_reported = 1;
    }
    if (end) ual_findings_set_dir(f, from, d ^ 1);   /* at the end: the side that owed the answer */
  }
}

/* ---- link events ---- */

static void link_event(struct ual_ub_an *a, struct ual_rec_result *r, const struct ual_fabric_step *c) {
  struct ual_findings *f = &r->findings;
  switch (r->ev.code) {
  case UAL_EV_UB_LINKUP:
    for (unsigned d = 0; d < 2; d++) {
      ual_ub_rx_linkup(&a->rx[d]);    /* no block before the link-up is replayed or continued */
      side_reset(&a->s[d], a->s[d].dll);
      set_dll(a, d, UAL_UB_DLL_PARAM_INIT, c);
    }
    memset(&a->p, 0, sizeof a->p);
    a->crd_exact = 1;
    break;
  case UAL_EV_UB_LINKDOWN:
    for (unsigned d = 0; d < 2; d++) {
      if (a->rx[d].synced && a->rx[d].in_dlldp)
        ual_findings_add(f, UAL_R_UB_LINKDOWN_MIDPACKET, -1, "LinkUp 0 inside %c's DLLDP from frame %llu", side_name(d),
                         (unsigned long long)a->rx[d].dp_frame);
      ual_ub_rx_resync(&a->rx[d], UAL_UB_MODE_UNKNOWN);
      set_dll(a, d, UAL_UB_DLL_DISABLED, c);
    }
    break;
  case UAL_EV_UB_RETRAIN_START:
    for (unsigned d = 0; d < 2; d++) {
      struct ual_ub_side *s = &a->s[d];
      if (s->req_sets && s->last_req_retry >= 0 && s->last_req_retry + 1 >= UAL_UB_NUM_RETRY_THRESHOLD) {
        if (s->last_reinit + 1 >= UAL_UB_PHY_REINIT_THRESHOLD)
          ual_findings_add(f, UAL_R_UB_RETRY_ERROR, -1, "%c NUM_PHY_REINIT reaches %u: ERROR", side_name(d), s->last_reinit + 1u);
        else
          ual_findings_add(f, UAL_R_UB_RETRAIN, -1, "%c NUM_RETRY %d reaches the threshold: retrain", side_name(d), s->last_req_retry);
      }
      s->req_sets = 0;
      s->last_req_retry = -1;
    }
    break;
  case UAL_EV_UB_RETRAIN_END:
  case UAL_EV_UB_MODE:
    if (r->ev.code == UAL_EV_UB_MODE && (r->ev.value == UAL_UB_MODE_CRC || r->ev.value == UAL_UB_MODE_NONCRC)) {
      if (a->mode != r->ev.value)
        ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_UB_MODE, UAL_PARTNER_LINK, (int32_t)r->ev.value,
                          a->mode ? a->mode : UAL_UNKNOWN, "mode %s", r->ev.value == UAL_UB_MODE_CRC ? "CRC" : "non-CRC");
      a->mode = (uint8_t)r->ev.value;
    }
    for (unsigned d = 0; d < 2; d++) {
      ual_ub_rx_resync(&a->rx[d], (enum ual_ub_mode)a->mode);
      if (a->s[d].mc) a->s[d].mc = 0;
    }
    break;
  case UAL_EV_DROPPED:
    lost(a);
    break;
  default:
    break;
  }
}

void ual_ub_an_step(struct ual_ub_an *a, struct ual_rec_result *r, const struct ual_fabric_step *c) {
  struct ual_findings *f = &r->findings;
  tick(a, c, f, false);
  if (r->rec.h.kind == UAL_REC_EVENT) {
    link_event(a, r, c);
    return;
  }
  a->records++;
  const struct ual_rec_hdr *h = &r->rec.h;
  unsigned d = r->dir;
  struct ual_ub_side *s = &a->s[d];
  if (ual_ub_rec_primary(h)) a->primary = (uint8_t)ual_ub_rec_primary(h);
  if (h->width && h->width != a->width[d]) {
    if (a->width[d])
      ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_UB_LANES, d, h->width, a->width[d], "%c transmits on x%u (was x%u)",
                        side_name(d), h->width, a->width[d]);
    a->width[d] = h->width;
  }
  if (h->flags & UAL_RF_LOST) lost(a);   /* of either direction: both start over */
  unsigned hint = ual_ub_rec_mode_hint(h);
  if (hint && hint != a->mode) {
    if (a->mode)
      ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_UB_MODE, UAL_PARTNER_LINK, (int32_t)hint, a->mode,
                        "mode %s", hint == UAL_UB_MODE_CRC ? "CRC" : "non-CRC");
    a->mode = (uint8_t)hint;
  }
  /* non-CRC mode relies on the PHY's FEC alone (S:33): once per stretch */
  if (!(h->rsvd & UAL_UB_FEC_BYPASS)) a->nofec_reported = 0;
  else if (a->mode == UAL_UB_MODE_NONCRC && !a->nofec_reported) {
    ual_findings_add(f, UAL_R_UB_MODE_NOFEC, -1, "non-CRC flit while the PHY reports its FEC bypassed");
    a->nofec_reported = 1;
  }
  ual_ub_rx_flit(&a->rx[d], r->rec.body, hint, c->frame, &r->ub, f);
  s->flits++;
  /* seeded credits hold only while every DLLDP the side sends is counted:
   * flits skipped while hunting, or a DLLDB whose DLLDP is not delivered
   * (it may have begun before the capture), may have cost some */
  if (s->cred_seeded && (r->ub.skipped || r->ub.dp_unsure == 2)) s->cred_known = s->cred_seeded = 0;
  if (r->ub.skipped) {
    /* the flits skipped while hunting may have been new or replayed ones:
     * how many are un-ACKed and where a replay stands are unknown */
    wr_lost(s);
    a->crd_exact = 0;
    s->unacked = -1;
    s->replaying = s->rp_gap = 0;
  }
  if (h->flags & UAL_RF_PHY_ERR) stream_error(a, d, c);
  if (!r->ub.block_end) return;
  if (ual_ub_bcrc_bad(&r->ub)) {
    /* As framed, the block's flits were stored: their content is not
     * known; the framing is confirmed when the next block follows it
     * (skipped == 0), else WrPtr is lost. */
    stream_error(a, d, c);
    unsigned depth = depth_of(a, d), n = r->ub.block_flits;
    bool backed = block_type(&r->ub, a->rx[d].blk) > UAL_UB_CB_UNKNOWN ||
                  ual_ub_cb_backed_up((enum ual_ub_cb_type)block_type(&r->ub, a->rx[d].blk));
    if (backed && s->replaying) {
      /* a replayed block: the sender goes on with its replay */
      unsigned k = n < s->rp_left ? n : s->rp_left;
      s->rp_ptr += k;
      s->rp_left -= k;
      s->rp_done += k;
      if (!s->rp_left) s->replaying = 0;
      return;
    }
    if (backed && s->wr_known)
      for (unsigned k = 0; k < n; k++, s->wr++)
        if (depth) s->hash[(s->wr % depth) % UAL_UB_HASH_RING] = 0;
    if (backed && s->unacked >= 0) s->unacked += (int32_t)n;
    return;
  }
  block_done(a, d, r, c);
}

void ual_ub_an_finish(struct ual_ub_an *a, struct ual_findings *f, const struct ual_fabric_step *c) {
  tick(a, c, f, true);
  /* a replay that stopped: new blocks or idle to the end of the capture */
  for (unsigned d = 0; d < 2; d++) {
    const struct ual_ub_side *s = &a->s[d];
    if (!s->replaying || !(s->rp_gap || s->rp_idle)) continue;
    unsigned from = f ? f->n : 0;
    if (s->rp_gap)
      ual_findings_add(f, UAL_R_UB_REPLAY_COUNT, -1,
                       "%c's replay ended after %u of %u flits: a new block at frame %llu",
                       side_name(d), s->rp_done, s->rp_done + s->rp_left, (unsigned long long)s->rp_gap_frame);
    else
      ual_findings_add(f, UAL_R_UB_REPLAY_COUNT, -1,
                       "%c's replay ended after %u of %u flits: idle to the end",
                       side_name(d), s->rp_done, s->rp_done + s->rp_left);
    ual_findings_set_dir(f, from, d);
  }
}

int ual_ub_an_state_text(const struct ual_ub_an *a, char *buf, size_t cap) {
  int n = 0;
  for (unsigned d = 0; d < 2; d++) {
    const struct ual_ub_side *s = &a->s[d];
    char *at = buf && (size_t)n < cap ? buf + n : NULL;
    int k = snprintf(at, at ? cap - (size_t)n : 0, "%s%c:%s", d ? " | " : "", side_name(d), ual_ub_dll_name(s->dll));
    if (k > 0) n += k;
    at = buf && (size_t)n < cap ? buf + n : NULL;
    if (s->cred_known) k = snprintf(at, at ? cap - (size_t)n : 0, " cred %d", sum(s->cred));
    else k = 0;
    if (k > 0) n += k;
    at = buf && (size_t)n < cap ? buf + n : NULL;
    k = s->unacked >= 0 ? snprintf(at, at ? cap - (size_t)n : 0, " unacked %d", s->unacked) : 0;
    if (k > 0) n += k;
  }
  return n;
}

/* ---- presets ---- */

static bool preset_num(const char *v, unsigned long max, unsigned long *out) {
  char *end;
  if (!*v) return false;
  unsigned long x = strtoul(v, &end, 0);
  if (*end || x > max) return false;
  *out = x;
  return true;
}

static bool preset_key(struct ual_ub_params *p, const char *key, const char *v) {
  unsigned long x;
  unsigned vl = UAL_UB_VLS;
  int k = 0;
  if (!strcmp(key, "share")) {
    if (strcmp(v, "A") && strcmp(v, "B") && strcmp(v, "AB") && strcmp(v, "none")) return false;
    p->share[0] = strchr(v, 'A') != NULL;
    p->share[1] = strchr(v, 'B') != NULL;
    return true;
  }
  if (!preset_num(v, 0xFFFF, &x)) return false;
  if (!strcmp(key, "vl")) { if (!(x & 1)) return false; p->vl_enable = (uint16_t)x; return true; }
  if (!x) return false;
  if (!strcmp(key, "fc")) { p->flow_ctrl = (uint16_t)x; return true; }
  if (!strcmp(key, "data-ack")) { p->data_ack = (uint16_t)x; return true; }
  if (!strcmp(key, "ctrl-ack")) { p->ctrl_ack = (uint16_t)x; return true; }
  uint16_t *g = NULL;
  if (!strncmp(key, "ctrl-grain", 10)) { g = p->ctrl_grain; k = 10; }
  if (!strncmp(key, "data-grain", 10)) { g = p->data_grain; k = 10; }
  if (!g) return false;
  if (key[k]) {
    unsigned long n;
    if (!preset_num(key + k, UAL_UB_VLS - 1, &n)) return false;
    vl = (unsigned)n;
  }
  for (unsigned i = 0; i < UAL_UB_VLS; i++)
    if (vl == UAL_UB_VLS || vl == i) g[i] = (uint16_t)x;
  return true;
}

bool ual_ub_an_preset_init(struct ual_ub_an *a, const char *arg, char *err, size_t cap) {
  struct ual_ub_params p;
  memset(&p, 0, sizeof p);
  p.known = 1;
  p.feature_id = UAL_UB_DEF_FEATURE;
  p.data_ack = UAL_UB_DEF_DATA_ACK;
  p.ctrl_ack = UAL_UB_DEF_CTRL_ACK;
  p.flow_ctrl = UAL_UB_DEF_FLOW_CTRL;
  p.vl_enable = UAL_UB_DEF_VL_ENABLE;
  for (unsigned v = 0; v < UAL_UB_VLS; v++) {
    p.ctrl_grain[v] = UAL_UB_DEF_CTRL_GRAIN;
    p.data_grain[v] = UAL_UB_DEF_DATA_GRAIN;
  }
  for (const char *q = arg; *q;) {
    size_t len = strcspn(q, ",");
    char tok[64];
    snprintf(tok, sizeof tok, "%.*s", (int)(len < 63 ? len : 63), q);
    q += len + (q[len] == ',');
    char *eq = strchr(tok, '=');
    if (eq) *eq = 0;
    if (!eq || len > 63 || !preset_key(&p, tok, eq + 1)) {
      if (eq) *eq = '=';
      snprintf(err, cap, "--ub-init needs KEY=VALUE with vl (bit 0 set), fc, data-ack, ctrl-ack, ctrl-grain[N], "
               "data-grain[N] (1-65535) or share (A, B, AB, none), not '%s'", tok);
      return false;
    }
  }
  if (a) a->p = p;
  return true;
}

bool ual_ub_an_preset_credits(struct ual_ub_an *a, const char *arg, char *err, size_t cap) {
  for (const char *q = arg; *q;) {
    size_t len = strcspn(q, ",");
    char tok[64];
    snprintf(tok, sizeof tok, "%.*s", (int)(len < 63 ? len : 63), q);
    q += len + (q[len] == ',');
    char side = 0;
    unsigned vl = 0, granted = 0;
    int held = 0;
    int n = 0, m = 0;
    int got = sscanf(tok, "%c:VL%u=%u%n", &side, &vl, &granted, &n);
    held = (int)granted;
    if (got == 3 && tok[n] == '/' && sscanf(tok + n, "/%d%n", &held, &m) == 1) n += m;
    if (got != 3 || tok[n] || len > 63 || (side != 'A' && side != 'B') || vl >= UAL_UB_VLS || granted > 65535 ||
        held > (int)granted || held < -65535) {
      snprintf(err, cap, "--ub-credits needs A|B:VLn=GRANTED[/HELD] with n 0-15 and HELD <= GRANTED <= 65535 cells "
               "(HELD below 0: a side in debt), not '%s'", tok);
      return false;
    }
    if (!a) continue;
    struct ual_ub_side *s = &a->s[side == 'B'];
    if (!s->cred_known) {
      memset(s->cred, 0, sizeof s->cred);
      memset(s->cred_init, 0, sizeof s->cred_init);
    }
    s->cred_known = s->cred_seeded = 1;
    s->cred_init[vl] = (int32_t)granted;
    s->cred[vl] = held;
  }
  return true;
}

/* ",key=N" for a per-VL table: one value for every VL, else each that
 * differs from VL 0's. */
static size_t grain_text(char *buf, size_t cap, const char *key, const uint16_t *g) {
  size_t n = (size_t)snprintf(buf, cap, ",%s=%u", key, g[0]);
  for (unsigned v = 1; v < UAL_UB_VLS && n < cap; v++)
    if (g[v] != g[0]) n += (size_t)snprintf(buf + n, cap - n, ",%s%u=%u", key, v, g[v]);
  return n;
}

int ual_ub_an_preset_init_text(const struct ual_ub_an *a, char *buf, size_t cap) {
  const struct ual_ub_params *p = &a->p;
  if (cap) buf[0] = 0;
  if (!p->known) return 0;
  size_t n = (size_t)snprintf(buf, cap, "vl=0x%04x,fc=%u,data-ack=%u,ctrl-ack=%u", p->vl_enable, p->flow_ctrl,
                              p->data_ack, p->ctrl_ack);
  if (n < cap) n += grain_text(buf + n, cap - n, "ctrl-grain", p->ctrl_grain);
  if (n < cap) n += grain_text(buf + n, cap - n, "data-grain", p->data_grain);
  if (n < cap)
    n += (size_t)snprintf(buf + n, cap - n, ",share=%s",
                          p->share[0] && p->share[1] ? "AB" : p->share[0] ? "A" : p->share[1] ? "B" : "none");
  return (int)(n < cap ? n : cap ? cap - 1 : 0);
}

int ual_ub_an_preset_credits_text(const struct ual_ub_an *a, char *buf, size_t cap) {
  size_t n = 0;
  if (cap) buf[0] = 0;
  for (unsigned d = 0; d < 2; d++) {
    const struct ual_ub_side *s = &a->s[d];
    if (!s->cred_known) continue;
    for (unsigned v = 0; v < UAL_UB_VLS && n < cap; v++) {
      if (!s->cred_init[v] && !s->cred[v]) continue;
      n += (size_t)snprintf(buf + n, cap - n, "%s%c:VL%u=%d", n ? "," : "", side_name(d), v, s->cred_init[v]);
      if (s->cred[v] != s->cred_init[v] && n < cap) n += (size_t)snprintf(buf + n, cap - n, "/%d", s->cred[v]);
    }
  }
  return (int)(n < cap ? n : cap ? cap - 1 : 0);
}
