/* The PCIe flit-mode scenarios (pciefm.h): pcie-switch and pcie-rc are
 * described where their rounds are, on the links and TLP builders below.
 * pcie-flit: side A is a Root Port
 * (00:01.0), side B an Endpoint with functions 01:00.0 and 01:00.1, on a
 * 64.0 GT/s x16 link: one flit record per direction every 2 ns.
 *
 *   a receiver-detected event (the link comes up from Detect, so the
 *   Endpoint's functions are reset: Segment Captured Clear), then rounds of
 *   traffic. Clear rounds: configuration reads (OHC-A3, DSV 0), Endpoint
 *   memory requests and messages without OHC-C, completions with OHC-A5
 *   and Completer Segment 00h. Then Type 0 configuration writes with OHC-A3
 *   DSV 1, Destination Segment 03h to both functions (Segment Captured
 *   Set), then Set rounds: memory reads both ways (256-byte reads answered
 *   by two split completions of 128 bytes), memory writes, messages with
 *   OHC-C Requester Segment 03h, completions with OHC-A5 copying the
 *   request's Requester Segment or omitting OHC-A5 where allowed.
 *
 * Each round's TLPs are queued per direction and packed into payload flits
 * (TLPs straddle flits; the rest of the last flit is NOP TLPs); a side with
 * nothing queued sends a NOP flit. Every sixth flit acknowledges the
 * partner's last sequence number in DLP0/1 (implicit sequence number);
 * DLP2-5 carry UpdateFC-P / -NP / -Cpl or NOP2 flit-mode DLLPs. A round is
 * on the wire before the next starts, so a request's completions follow it
 * in the next round. */
#include "pciefm.h"
#include "rng.h"

#include <ualink/pcie/flit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROLE_RP        1u          /* pcie.md [P3] */
#define ROLE_EP        4u
#define RATE_64G       3u
#define WIDTH          16u
#define MAX_LINKS      3u
#define TLP_DW         UAL_PCIE_FLIT_TLP_DW
#define QUEUE_DW       2048u       /* DW a direction may have queued */
#define MAX_TLP_DW     48u
#define MAX_PEND       64u         /* requests waiting for their completions */
#define MAX_LABELS     16u
#define SEG            0x03u       /* the hierarchy's segment, written by the Root Port */
#define RP_ID          0x0008u     /* 00:01.0 */
#define EP_ID          0x0100u     /* 01:00.0; function 1 is EP_ID + 1 */
#define FAR_ID         GEN_PCIEFM_FAR_BDF   /* a function of another hierarchy (the profile's) */
#define FAR_SEG        GEN_PCIEFM_FAR_SEG
#define RCB            128u        /* read completion boundary: split completions */
#define CLEAR_ROUNDS   3u
#define ROUNDS_DEFAULT 40u
#define ACK_EVERY      6u
#define HOST_BASE      0x0000001234560000ull
#define BAR_BASE       0xF0000000u

/* A TLP being built; a, c: byte offsets of its OHC-A and OHC-C words (0 = none). */
struct tlp {
  uint8_t b[4 * MAX_TLP_DW];
  unsigned dw, a, c;
};

/* A non-posted request, kept by the side that answers it. */
struct req {
  uint8_t type, cfg, rseg_valid, rseg;
  uint16_t rid, tag, target;
  unsigned len_dw;
  uint64_t addr;
  int inj;                   /* the injection its completion carries, -1 none */
};

struct label {
  unsigned end;              /* queue DW after the TLP's last one */
  int rule;
  const char *source;
};

/* A request or completion TLP queued: its header base for the TLP truth. */
#define MAX_TLP_ENDS (QUEUE_DW / 3u)
struct tlp_end {
  unsigned end;              /* queue DW after its last one */
  uint8_t hdr[12];
};

struct dirq {
  uint8_t q[4 * QUEUE_DW];   /* queued TLP bytes, whole DW */
  unsigned n;                /* DW queued */
  struct tlp_end te[MAX_TLP_ENDS];
  unsigned nte;
  struct label lab[MAX_LABELS];
  unsigned nlab;
  uint16_t seq;              /* sequence number of the next payload flit */
  uint8_t prior;             /* the last flit was a payload flit (Prior Flit Type) */
  uint64_t flits, sent;      /* flits, payload flits */
  uint16_t tag;              /* next Tag of this side's requests */
  unsigned fc[3];            /* credits advertised by UpdateFC P / NP / Cpl */
  struct req pend[MAX_PEND]; /* the partner's requests this side answers */
  unsigned npend;
};

/* ---- transactions across a device (pcie-switch, pcie-rc) ----
 * The TLPs one request makes on the captured links in order: the
 * request, the device's copy of it, the completion, the device's copy of
 * that. A round's transactions go out hop by hop (every first TLP, the
 * links drained, every second one, ...), so a copy follows its original. */
#define XF_HOPS   4u
#define XF_LABELS 3u
#define MAX_XFER  16u

struct hop {
  struct tlp t;
  uint8_t lk, dir, nlab;
  int rule[XF_LABELS];
  const char *source[XF_LABELS];
};

struct xfer {
  struct hop h[XF_HOPS];
  unsigned n;
};

/* One captured link: its two directions, its index and roles. */
struct plink {
  struct dirq d[2];
  uint8_t index, role[2];
};

struct pf {
  const struct gen_opts *o;
  const struct gen_out *out;
  struct gen_rng rng;
  uint64_t frame, ts_ns;
  int stop;
  struct plink lk[MAX_LINKS];
  unsigned nlk;
  struct dirq *d;            /* the directions of the link TLPs are queued on (use) */
  int captured[2];           /* the Endpoint functions' Segment Captured: -1 Clear, else the segment */
  struct xfer xf[MAX_XFER];  /* the round's transactions (pcie-switch, pcie-rc) */
  unsigned nxf;
  bool want[UAL_R_COUNT], done[UAL_R_COUNT], taken[UAL_R_COUNT];
  uint64_t at[UAL_R_COUNT];
};

static const struct { int rule, sc; const char *how; } catalog[] = {
#define GEN_X_(e, h) { UAL_R_##e, GEN_SC_PCIE_FLIT, h },
  GEN_PCIEFM_INJECTIONS(GEN_X_)
#undef GEN_X_
#define GEN_X_(e, h) { UAL_R_##e, GEN_SC_PCIE_SWITCH, h },
  GEN_PCIESW_INJECTIONS(GEN_X_)
#undef GEN_X_
#define GEN_X_(e, h) { UAL_R_##e, GEN_SC_PCIE_RC, h },
  GEN_PCIERC_INJECTIONS(GEN_X_)
#undef GEN_X_
};
#define N_CATALOG (sizeof catalog / sizeof catalog[0])

bool gen_pciefm_inject_supported(int rule) { return gen_pciefm_inject_how(rule) != NULL; }

static int find(int rule) {
  for (size_t i = 0; i < N_CATALOG; i++)
    if (catalog[i].rule == rule) return (int)i;
  return -1;
}

const char *gen_pciefm_inject_how(int rule) { return find(rule) >= 0 ? catalog[find(rule)].how : NULL; }

int gen_pciefm_inject_scenario(int rule) { return find(rule) >= 0 ? catalog[find(rule)].sc : -1; }

/* ---- records ---- */

static void emit(struct pf *p, const struct plink *l, unsigned dir, unsigned kind, const uint8_t *body, size_t n) {
  if (p->stop) return;
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, kind, dir);
  h.link = l->index;
  h.rate = RATE_64G;
  h.width = WIDTH;
  h.roles_pcie = 1;
  h.role_a = l->role[0];
  h.role_b = l->role[1];
  uint8_t rec[UAL_REC_HDR_BYTES + UAL_FLIT_BYTES];
  size_t len = ual_record_build(&h, body, n, rec, sizeof rec);
  p->frame++;
  p->ts_ns++;                /* the directions (and links) take turns */
  p->stop = p->out->record(p->out->ctx, p->o->start_ns + p->ts_ns, rec, len);
}

/* The flit-mode DLLP of DLP2-5: UpdateFC (P, NP, Cpl in turn) in every
 * fourth flit, else NOP2. */
static void next_dllp(struct dirq *d, struct ual_dllp *dl) {
  memset(dl, 0, sizeof *dl);
  if (d->flits % 4 != 1) return;   /* NOP2: all zero */
  unsigned cls = (unsigned)(d->flits / 4 % 3);
  static const uint8_t type[3] = { 0x80, 0x90, 0xA0 };
  d->fc[cls] += 2;
  uint32_t w = (uint32_t)(d->fc[cls] & 0xFF) << 14 | (cls == 1 ? 0u : (4u * d->fc[cls]) & 0xFFF);
  dl->type = dl->b[0] = type[cls];
  dl->b[1] = (uint8_t)(w >> 16);
  dl->b[2] = (uint8_t)(w >> 8);
  dl->b[3] = (uint8_t)w;
}

/* One flit of a direction: a payload flit from its queue, else a NOP flit. */
static void flit(struct pf *p, struct plink *l, unsigned dir) {
  struct dirq *d = &l->d[dir];
  const struct dirq *other = &l->d[dir ^ 1];
  uint8_t f[UAL_FLIT_BYTES];
  memset(f, 0, sizeof f);   /* zero DW are NOP TLPs */
  unsigned n = d->n < TLP_DW ? d->n : TLP_DW;
  memcpy(f, d->q, 4u * n);
  bool ack = d->flits % ACK_EVERY == ACK_EVERY - 1 && other->sent;
  struct ual_fh fh = { n ? UAL_USAGE_PAYLOAD : UAL_USAGE_NOP_IDLE, 0, UAL_RC_SEQ, d->seq };
  fh.prior_payload = d->prior;
  if (ack || !n) {
    fh.replay_cmd = UAL_RC_ACK;   /* the partner's last flit; this flit's own number is implicit */
    fh.seq = (uint16_t)((other->seq - 1u) & 0x3FF);
  }
  struct ual_dllp dl;
  next_dllp(d, &dl);
  ual_pcie_flit_seal(f, &fh, &dl);
  emit(p, l, dir, UAL_REC_PCIE_FLIT, f, sizeof f);
  d->flits++;
  d->prior = n > 0;
  if (!n) return;
  d->sent++;
  d->seq = (uint16_t)((d->seq + 1u) & 0x3FF);
  unsigned keep = 0;
  for (unsigned i = 0; i < d->nlab; i++) {
    struct label *l = &d->lab[i];
    if (l->end <= n) {
      p->done[l->rule] = true;
      if (p->out->truth) p->out->truth(p->out->ctx, p->frame, dir, l->rule, l->source, gen_pciefm_inject_how(l->rule));
      continue;
    }
    l->end -= n;
    d->lab[keep++] = *l;
  }
  d->nlab = keep;
  keep = 0;
  for (unsigned i = 0; i < d->nte; i++) {
    struct tlp_end *e = &d->te[i];
    if (e->end <= n) {
      if (p->out->tlp) p->out->tlp(p->out->ctx, p->frame, l->index, dir, e->hdr);
      continue;
    }
    e->end -= n;
    d->te[keep++] = *e;
  }
  d->nte = keep;
  memmove(d->q, d->q + 4u * n, 4u * (d->n - n));
  d->n -= n;
}

/* Every queued TLP on the wire, both directions of every link (a link
 * with nothing queued sends nothing meanwhile). */
static void drain(struct pf *p) {
  for (bool any = true; any && !p->stop;) {
    any = false;
    for (unsigned i = 0; i < p->nlk; i++) {
      struct plink *l = &p->lk[i];
      if (!l->d[0].n && !l->d[1].n) continue;
      any = true;
      flit(p, l, 0);
      flit(p, l, 1);
    }
  }
}

/* TLPs are queued on link i from now on. */
static void use(struct pf *p, unsigned i) { p->d = p->lk[i].d; }

/* Adds link index i with the roles of sides A and B; it comes up from
 * Detect (a receiver-detected event). */
static void add_link(struct pf *p, unsigned role_a, unsigned role_b) {
  struct plink *l = &p->lk[p->nlk];
  l->index = (uint8_t)p->nlk++;
  l->role[0] = (uint8_t)role_a;
  l->role[1] = (uint8_t)role_b;
  l->d[0].seq = l->d[1].seq = 1;
  struct ual_event e = { UAL_EV_RX_DETECT, 0, 0 };
  uint8_t body[UAL_REC_EVENT_BYTES];
  ual_event_build(&e, body);
  emit(p, l, 0, UAL_REC_EVENT, body, sizeof body);
}

/* ---- TLPs ---- */

/* Labels the flit the last queued DW of dir goes out in with rule (>= 0). */
static void label(struct pf *p, unsigned dir, int rule, const char *source) {
  struct dirq *d = &p->d[dir];
  if (rule >= 0 && d->nlab < MAX_LABELS) d->lab[d->nlab++] = (struct label){ d->n, rule, source };
}

/* Queues a TLP; rule >= 0 labels the flit its last DW goes out in. */
static void queue(struct pf *p, unsigned dir, const struct tlp *t, int rule, const char *source) {
  struct dirq *d = &p->d[dir];
  if (d->n + t->dw > QUEUE_DW || d->nte == MAX_TLP_ENDS) drain(p);
  memcpy(d->q + 4u * d->n, t->b, 4u * t->dw);
  d->n += t->dw;
  const struct ual_pcie_tlp_type *ty = ual_pcie_tlp_type(t->b[0]);
  bool np = ty->fc == UAL_TLP_FC_NPR && (ty->hdr == UAL_TLP_H_MEM || ty->hdr == UAL_TLP_H_CFG);
  if (np || ty->hdr == UAL_TLP_H_CPL) {
    struct tlp_end *e = &d->te[d->nte++];
    e->end = d->n;
    memcpy(e->hdr, t->b, sizeof e->hdr);
  }
  label(p, dir, rule, source);
}

/* The injection is wanted, its frame has come and no TLP carries it yet:
 * the caller's TLP does. */
static bool take(struct pf *p, int rule) {
  if (!p->want[rule] || p->taken[rule] || p->frame + 1 < p->at[rule]) return false;
  p->taken[rule] = true;
  return true;
}

/* DW0 and the sizes: header base from the Type table, OHC-A / OHC-C words,
 * payload of Length DW (random bytes) for types with data. */
static void hdr(struct pf *p, struct tlp *t, unsigned type, unsigned len, bool a, bool c) {
  const struct ual_pcie_tlp_type *ty = ual_pcie_tlp_type(type);
  memset(t, 0, sizeof *t);
  ual_field_put(UAL_F_PCIE_TLP_TYPE, t->b, type);
  ual_field_put(UAL_F_PCIE_TLP_OHC, t->b, (a ? 1u : 0u) | (c ? 4u : 0u));
  ual_field_put(UAL_F_PCIE_TLP_LENGTH, t->b, len & 0x3FF);
  unsigned at = ty->base_dw;
  if (a) t->a = 4u * at++;
  if (c) t->c = 4u * at++;
  unsigned pay = ty->data ? len : 0;
  for (unsigned i = 0; i < 4u * pay; i++) t->b[4u * at + i] = (uint8_t)gen_rng_below(&p->rng, 256);
  t->dw = at + pay;
}

/* OHC-C of a non-IDE request: Requester Segment, RSV = 1, Sub-Stream 111b. */
static void ohc_c(struct tlp *t, unsigned rseg) {
  uint8_t *w = t->b + t->c;
  ual_field_put(UAL_F_PCIE_C_RSEG, w, rseg);
  ual_field_put(UAL_F_PCIE_C_SUBSTREAM, w, 7);
  ual_field_put(UAL_F_PCIE_C_RSV, w, 1);
}

static void req_id(struct tlp *t, unsigned rid, unsigned tag) {
  ual_field_put(UAL_F_PCIE_REQ_RID, t->b, rid);
  ual_field_put(UAL_F_PCIE_REQ_TAG, t->b, tag);
}

static uint16_t next_tag(struct dirq *d) {
  uint16_t t = d->tag;
  d->tag = (uint16_t)((d->tag + 1u) & 0x3FFF);
  return t;
}

/* Hands a non-posted request to the partner, which answers it next round. */
static void pend(struct pf *p, unsigned dir, const struct req *q) {
  struct dirq *o = &p->d[dir ^ 1];
  if (o->npend < MAX_PEND) o->pend[o->npend++] = *q;
}

/* A memory request (reads: len DW asked for; writes: len DW of payload);
 * rseg >= 0 adds OHC-C. */
static void mem_tlp(struct pf *p, struct tlp *t, unsigned type, uint16_t rid, uint16_t tag, uint64_t addr, unsigned len,
                    int rseg) {
  hdr(p, t, type, len, false, rseg >= 0);
  req_id(t, rid, tag);
  if (ual_pcie_tlp_type(type)->route == UAL_TLP_RT_A64) ual_field_put(UAL_F_PCIE_A64_ADDR, t->b, addr >> 2);
  else ual_field_put(UAL_F_PCIE_A32_ADDR, t->b, (uint32_t)addr >> 2);
  if (rseg >= 0) ohc_c(t, (unsigned)rseg);
}

static bool non_posted(unsigned type) { return ual_pcie_tlp_type(type)->fc == UAL_TLP_FC_NPR; }

static void mem(struct pf *p, unsigned dir, unsigned type, uint16_t rid, uint64_t addr, unsigned len, int rseg,
                int rule) {
  struct tlp t;
  uint16_t tag = non_posted(type) ? next_tag(&p->d[dir]) : 0;
  mem_tlp(p, &t, type, rid, tag, addr, len, rseg);
  /* the request shows the injection, or its completion does */
  bool on_req = rule == UAL_R_PS_TO_TAG_UNIQUE || rule == UAL_R_PS_REQ_RSEG_VALUE || rule == UAL_R_PS_REQ_CLEAR_NOC;
  if (rule == UAL_R_PS_RP_RSEG_MISMATCH) queue(p, dir, &t, UAL_R_PS_REQ_RSEG_VALUE, "consequence");
  else queue(p, dir, &t, on_req ? rule : -1, "inject");
  if (!non_posted(type)) return;
  struct req q = { (uint8_t)type, 0, rseg >= 0, (uint8_t)(rseg >= 0 ? rseg : 0), rid, tag, 0, len, addr,
                   on_req ? -1 : rule };
  pend(p, dir, &q);
}

/* A Type 0 configuration request from the Root Port with OHC-A3. */
/* A configuration request of 1 DW with OHC-A3, DSV 1 and dseg when dseg >= 0. */
static void cfg_tlp(struct pf *p, struct tlp *t, unsigned type, uint16_t rid, uint16_t tag, unsigned target, unsigned reg,
                    int dseg) {
  hdr(p, t, type, 1, true, false);
  req_id(t, rid, tag);
  ual_field_put(UAL_F_PCIE_CFG_CID, t->b, target);
  ual_field_put(UAL_F_PCIE_CFG_REG, t->b, reg);
  uint8_t *a = t->b + t->a;
  ual_field_put(UAL_F_PCIE_A3_FBE, a, 0xF);
  ual_field_put(UAL_F_PCIE_A3_DSV, a, dseg >= 0);
  if (dseg >= 0) ual_field_put(UAL_F_PCIE_A3_DSEG, a, (unsigned)dseg);
}

static void cfg(struct pf *p, unsigned type, unsigned target, unsigned reg, bool dsv) {
  struct tlp t;
  uint16_t tag = next_tag(&p->d[0]);
  cfg_tlp(p, &t, type, RP_ID, tag, target, reg, dsv ? (int)SEG : -1);
  queue(p, 0, &t, -1, "inject");
  struct req q = { (uint8_t)type, 1, 0, 0, RP_ID, tag, (uint16_t)target, 1, 0, -1 };
  pend(p, 0, &q);
  if (type == 0x44 && dsv) p->captured[target - EP_ID] = SEG;   /* the function captures its segment */
}

/* A message: Msg-RC ERR_COR from the Endpoint, or an ID-routed vendor
 * message (Type 1, code 7Fh) to target; rseg >= 0 adds OHC-C. */
static void msg_tlp(struct pf *p, struct tlp *t, unsigned type, uint16_t rid, unsigned target, int rseg, int dseg) {
  hdr(p, t, type, 0, dseg >= 0, rseg >= 0);
  if (dseg >= 0) {           /* OHC-A4: Destination Segment */
    ual_field_put(UAL_F_PCIE_A4_DSV, t->b + t->a, 1);
    ual_field_put(UAL_F_PCIE_A4_DSEG, t->b + t->a, (unsigned)dseg);
  }
  ual_field_put(UAL_F_PCIE_MSG_RID, t->b, rid);
  ual_field_put(UAL_F_PCIE_MSG_CODE, t->b, type == 0x30 ? 0x30 : 0x7F);
  if (type == 0x32) {        /* ID-routed: bytes 8-9 the target's ID (pcie.md §3.5) */
    t->b[8] = (uint8_t)(target >> 8);
    t->b[9] = (uint8_t)target;
  }
  if (rseg >= 0) ohc_c(t, (unsigned)rseg);
}

static void msg(struct pf *p, unsigned dir, unsigned type, uint16_t rid, unsigned target, int rseg, int dseg, int rule) {
  struct tlp t;
  msg_tlp(p, &t, type, rid, target, rseg, dseg);
  queue(p, dir, &t, rule, "inject");
}

/* OHC-A5 of a completion: present, DSV, Destination and Completer Segment. */
struct a5 {
  bool on;
  unsigned dsv, dseg, cseg;
};

/* A completion from cid to dest's Tag tag: Lower Address la, Byte Count bc. */
static void cpl_tlp(struct pf *p, struct tlp *t, unsigned type, unsigned len, unsigned cid, unsigned dest, unsigned tag,
                    unsigned la, unsigned bc, const struct a5 *a5) {
  hdr(p, t, type, len, a5->on, false);
  ual_field_put(UAL_F_PCIE_CPL_CID, t->b, cid);
  ual_field_put(UAL_F_PCIE_CPL_TAG, t->b, tag);
  ual_field_put(UAL_F_PCIE_CPL_DEST, t->b, dest);
  ual_field_put(UAL_F_PCIE_CPL_LA6, t->b, la >> 6 & 1);
  ual_field_put(UAL_F_PCIE_CPL_LA52, t->b, la >> 2 & 0xF);
  ual_field_put(UAL_F_PCIE_CPL_BC, t->b, bc & 0xFFF);
  if (!a5->on) return;
  uint8_t *a = t->b + t->a;
  ual_field_put(UAL_F_PCIE_A5_DSV, a, a5->dsv);
  ual_field_put(UAL_F_PCIE_A5_DSEG, a, a5->dseg);
  ual_field_put(UAL_F_PCIE_A5_CSEG, a, a5->cseg);
  ual_field_put(UAL_F_PCIE_A5_LA, a, la & 3);
}

/* The completions of q from side dir: one per RCB-aligned part of a read,
 * OHC-A5 unless the completer may omit it (pcie.md §4 PS-CPL-A5-OMIT). */
static void complete(struct pf *p, unsigned dir, const struct req *q) {
  bool ep = dir == 1;
  uint16_t cid = ep ? (q->cfg ? q->target : EP_ID) : RP_ID;
  int cap = ep ? p->captured[cid - EP_ID] : (int)SEG;   /* the Root Port's hierarchy is SEG */
  const struct ual_pcie_tlp_type *rt = ual_pcie_tlp_type(q->type);
  bool write = rt->data;     /* configuration writes: a completion without data */
  unsigned total = write ? 4u : 4u * q->len_dw, off = 0, part;
  do {
    unsigned la = q->cfg ? 0u : (unsigned)((q->addr + off) & 0x7F);
    part = write ? 0u : RCB - (unsigned)((q->addr + off) % RCB);
    if (part > total - off) part = total - off;
    bool omit = cap >= 0 && (!q->rseg_valid || q->rseg == (unsigned)cap) && (la & 3) == 0 && ep &&
                gen_rng_below(&p->rng, 2);
    unsigned cseg = cap >= 0 ? (unsigned)cap : 0, dsv = !q->cfg && q->rseg_valid, dseg = dsv ? q->rseg : 0;
    int rule = -1;
    if (off == 0) {            /* an injection changes the first part */
      if (q->inj >= 0) rule = q->inj;
      else if (ep && cap < 0 && take(p, UAL_R_PS_CPL_SEG_CLEAR)) rule = UAL_R_PS_CPL_SEG_CLEAR;
      else if (ep && cap < 0 && take(p, UAL_R_PS_CPL_A5_OMIT)) rule = UAL_R_PS_CPL_A5_OMIT;
      else if (ep && cap >= 0 && take(p, UAL_R_PS_CPL_SEG_SET)) rule = UAL_R_PS_CPL_SEG_SET;
      else if (ep && cap >= 0 && q->cfg && take(p, UAL_R_PS_CPL_CFG)) rule = UAL_R_PS_CPL_CFG;
      else if (ep && cap >= 0 && !q->cfg && !q->rseg_valid && take(p, UAL_R_PS_CPL_DSEG_NONE)) rule = UAL_R_PS_CPL_DSEG_NONE;
      else if (!ep && q->rseg_valid && take(p, UAL_R_PS_CPL_DSEG_COPY)) rule = UAL_R_PS_CPL_DSEG_COPY;
    }
    switch (rule) {
    case UAL_R_PS_CPL_SEG_CLEAR: omit = false; cseg = SEG; break;
    case UAL_R_PS_CPL_SEG_SET: omit = false; cseg = SEG + 1; break;
    case UAL_R_PS_CPL_CFG: case UAL_R_PS_CPL_DSEG_NONE: omit = false; dsv = 1; dseg = SEG; break;
    case UAL_R_PS_CPL_DSEG_COPY: omit = false; dsv = 0; dseg = 0; break;
    case UAL_R_PS_CPL_A5_CROSS: case UAL_R_PS_CPL_A5_OMIT: omit = true; break;
    default: break;
    }
    struct tlp t;
    struct a5 a5 = { !omit, dsv, dseg, cseg };
    cpl_tlp(p, &t, write ? 0x0A : 0x4A, part / 4u, cid, q->rid, q->tag, la, total - off, &a5);
    queue(p, dir, &t, rule, "inject");
    off += part;
  } while (off < total && part);
}

static void answer(struct pf *p, unsigned dir) {
  struct dirq *d = &p->d[dir];
  for (unsigned i = 0; i < d->npend; i++) complete(p, dir, &d->pend[i]);
  d->npend = 0;
}

/* ---- the script ---- */

static void round_clear(struct pf *p, unsigned r) {
  answer(p, 0);
  answer(p, 1);
  cfg(p, 0x04, EP_ID + r % 2, 0x00, false);
  mem(p, 1, 0x60, EP_ID, HOST_BASE + 0x1000u * r, 8, -1, -1);
  mem(p, 1, 0x20, EP_ID, HOST_BASE + 0x8000u + 0x100u * r, 16, -1, -1);
  msg(p, 1, 0x30, EP_ID, 0, -1, -1, -1);
  if (take(p, UAL_R_PS_REQ_CLEAR_NOC)) mem(p, 1, 0x60, EP_ID, HOST_BASE + 0x2000u, 4, SEG, UAL_R_PS_REQ_CLEAR_NOC);
  if (take(p, UAL_R_PS_REQ_ID_DSV_CLEAR)) msg(p, 1, 0x32, EP_ID, RP_ID, -1, SEG, UAL_R_PS_REQ_ID_DSV_CLEAR);
  drain(p);
}

static void round_set(struct pf *p, unsigned r) {
  struct gen_rng *g = &p->rng;
  answer(p, 0);
  answer(p, 1);
  /* Root Port: reads and writes to the Endpoint's BAR, now and then a config read, a vendor message */
  unsigned n = 1 + (unsigned)gen_rng_below(g, 3);
  for (unsigned i = 0; i < n; i++) {
    uint32_t addr = BAR_BASE + 0x40u * (unsigned)gen_rng_below(g, 64);
    if (gen_rng_below(g, 2)) mem(p, 0, 0x03, RP_ID, addr, 1 + (unsigned)gen_rng_below(g, 16), -1, -1);
    else mem(p, 0, 0x40, RP_ID, addr, 1 + (unsigned)gen_rng_below(g, 8), -1, -1);
  }
  if (take(p, UAL_R_PS_TO_TAG_UNIQUE)) {
    mem(p, 0, 0x03, RP_ID, BAR_BASE + 0x100u, 1, -1, -1);
    p->d[0].tag = (uint16_t)((p->d[0].tag - 1u) & 0x3FFF);
    mem(p, 0, 0x03, RP_ID, BAR_BASE + 0x140u, 1, -1, UAL_R_PS_TO_TAG_UNIQUE);
  }
  if (take(p, UAL_R_PS_CPL_A5_CROSS)) mem(p, 0, 0x03, RP_ID, BAR_BASE + 0x180u, 1, 0x05, UAL_R_PS_CPL_A5_CROSS);
  if (r % 5 == 2) cfg(p, 0x04, EP_ID + (unsigned)gen_rng_below(g, 2), 0x04, true);
  if (r % 7 == 4) msg(p, 0, 0x32, RP_ID, EP_ID, -1, -1, -1);
  /* Endpoint: DMA reads of 256 bytes (two split completions), writes, messages */
  uint16_t fn = (uint16_t)(EP_ID + (unsigned)gen_rng_below(g, 2));
  uint64_t host = HOST_BASE + 0x10000u + 0x100u * (r % 64);
  mem(p, 1, 0x20, fn, host, 64, gen_rng_below(g, 3) ? (int)SEG : -1, -1);
  if (gen_rng_below(g, 2)) mem(p, 1, 0x20, fn, host + 0x4000u, 8 + 8 * (unsigned)gen_rng_below(g, 3), (int)SEG, -1);
  if (gen_rng_below(g, 2)) mem(p, 1, 0x60, fn, host + 0x8000u, 4 + (unsigned)gen_rng_below(g, 28),
                               gen_rng_below(g, 2) ? (int)SEG : -1, -1);
  if (take(p, UAL_R_PS_RP_RSEG_MISMATCH)) mem(p, 1, 0x20, fn, host + 0x6000u, 8, SEG + 1, UAL_R_PS_RP_RSEG_MISMATCH);
  if (take(p, UAL_R_PS_REQ_RSEG_VALUE)) mem(p, 1, 0x60, fn, host + 0x7000u, 4, SEG + 1, UAL_R_PS_REQ_RSEG_VALUE);
  if (r % 4 == 1) msg(p, 1, 0x30, fn, 0, (int)SEG, -1, -1);
  if (take(p, UAL_R_PS_REQ_MSG_RSEG)) msg(p, 1, 0x30, fn, 0, -1, -1, UAL_R_PS_REQ_MSG_RSEG);
  if (r % 6 == 3) msg(p, 1, 0x32, fn, RP_ID, (int)SEG, -1, -1);
  if (r % 6 == 5) msg(p, 1, 0x32, fn, FAR_ID, (int)SEG, (int)FAR_SEG, -1);
  if (take(p, UAL_R_PS_REQ_ID_DSV_SET)) msg(p, 1, 0x32, fn, FAR_ID, (int)SEG, -1, UAL_R_PS_REQ_ID_DSV_SET);
  drain(p);
}

/* ---- transactions ---- */

static void xf_run(struct pf *p) {
  for (unsigned k = 0; k < XF_HOPS; k++) {
    for (unsigned i = 0; i < p->nxf; i++) {
      const struct xfer *x = &p->xf[i];
      if (k >= x->n) continue;
      const struct hop *h = &x->h[k];
      use(p, h->lk);
      queue(p, h->dir, &h->t, -1, NULL);
      for (unsigned j = 0; j < h->nlab; j++) label(p, h->dir, h->rule[j], h->source[j]);
    }
    drain(p);
  }
  p->nxf = 0;
}

static struct xfer *xf_new(struct pf *p) {
  if (p->nxf == MAX_XFER) xf_run(p);
  struct xfer *x = &p->xf[p->nxf++];
  x->n = 0;
  return x;
}

/* The next TLP of x, out on link lk from side dir (0 A, down; 1 B, up). */
static struct tlp *xf_hop(struct xfer *x, unsigned lk, unsigned dir) {
  struct hop *h = &x->h[x->n++];
  h->lk = (uint8_t)lk;
  h->dir = (uint8_t)dir;
  h->nlab = 0;
  return &h->t;
}

/* The last TLP of x is labelled with rule. */
static void xf_label(struct xfer *x, int rule, const char *source) {
  struct hop *h = &x->h[x->n - 1];
  if (h->nlab == XF_LABELS) return;
  h->rule[h->nlab] = rule;
  h->source[h->nlab++] = source;
}

/* The device forwards the last TLP of x unchanged to link lk, side dir. */
static struct tlp *xf_copy(struct xfer *x, unsigned lk, unsigned dir) {
  struct tlp *c = xf_hop(x, lk, dir);
  *c = x->h[x->n - 2].t;
  return c;
}

/* cid's completion of request hop r of x (one: the reads stay within an
 * RCB from an aligned address), out on link lk from side dir. */
static void xf_cpl(struct pf *p, struct xfer *x, unsigned r, unsigned lk, unsigned dir, unsigned cid, const struct a5 *a5) {
  const struct tlp *q = &x->h[r].t;
  unsigned type = q->b[0], dest = (unsigned)ual_field_get(UAL_F_PCIE_REQ_RID, q->b);
  unsigned tag = (unsigned)ual_field_get(UAL_F_PCIE_REQ_TAG, q->b), len = (unsigned)ual_field_get(UAL_F_PCIE_TLP_LENGTH, q->b);
  bool write = ual_pcie_tlp_type(type)->data;   /* a configuration write: no data back */
  cpl_tlp(p, xf_hop(x, lk, dir), write ? 0x0A : 0x4A, write ? 0 : len, cid, dest, tag, 0, write ? 4 : 4 * len, a5);
}

static unsigned rnd(struct pf *p, unsigned n) { return (unsigned)gen_rng_below(&p->rng, n); }

/* ---- pcie-switch ----
 * Link 0: the Root Port 00:01.0 above the switch's Upstream Port 01:00.0;
 * link 1: a Downstream Port (bus 02h, not a function on the wire) above
 * the Endpoint 03:00.0. Both come up from Detect: the switch and the
 * Endpoint are Clear, until the Root Port's capturing CfgWr0 to the
 * Upstream Port and CfgWr1 to the Endpoint (forwarded as CfgWr0) set
 * segment 03h. */
#define ROLE_USP  2u
#define ROLE_DSP  3u
#define SW_USP_ID 0x0100u
#define SW_EP_ID  0x0300u
#define XL_ROUNDS 12u

static void sw_capture(struct pf *p) {
  struct a5 a = { true, 0, 0, SEG };
  struct xfer *x = xf_new(p);
  cfg_tlp(p, xf_hop(x, 0, 0), 0x44, RP_ID, next_tag(&p->lk[0].d[0]), SW_USP_ID, 0x04, SEG);
  xf_cpl(p, x, 0, 0, 1, SW_USP_ID, &a);
  x = xf_new(p);
  cfg_tlp(p, xf_hop(x, 0, 0), 0x45, RP_ID, next_tag(&p->lk[0].d[0]), SW_EP_ID, 0x04, SEG);
  ual_field_put(UAL_F_PCIE_TLP_TYPE, xf_copy(x, 1, 0)->b, 0x44);   /* Type 1 leaves as Type 0 */
  xf_cpl(p, x, 0, 1, 1, SW_EP_ID, &a);
  xf_copy(x, 0, 1);
  xf_run(p);
  p->captured[0] = SEG;
}

/* A Root Port TLP down through the switch: the original on link 0, the copy on link 1. */
static struct xfer *sw_down(struct pf *p, struct tlp **t) {
  struct xfer *x = xf_new(p);
  *t = xf_hop(x, 0, 0);
  return x;
}

static void sw_round(struct pf *p, unsigned r) {
  bool set = p->captured[0] >= 0;
  int rseg = set ? (int)SEG : -1;
  unsigned cseg = set ? SEG : 0;
  struct tlp *t;
  /* the Root Port reads the Endpoint's BAR: no Requester Segment, DSV 0 back */
  struct xfer *x = sw_down(p, &t);
  mem_tlp(p, t, 0x03, RP_ID, next_tag(&p->lk[0].d[0]), BAR_BASE + RCB * rnd(p, 64), 1 + rnd(p, RCB / 4), -1);
  xf_copy(x, 1, 0);
  struct a5 a = { true, 0, 0, cseg };
  xf_cpl(p, x, 0, 1, 1, SW_EP_ID, &a);
  xf_copy(x, 0, 1);
  /* a configuration read of the Endpoint: CfgRd1 above, CfgRd0 below */
  if (r % 3 == 0) {
    x = sw_down(p, &t);
    cfg_tlp(p, t, 0x05, RP_ID, next_tag(&p->lk[0].d[0]), SW_EP_ID, 0x00, -1);
    ual_field_put(UAL_F_PCIE_TLP_TYPE, xf_copy(x, 1, 0)->b, 0x04);
    xf_cpl(p, x, 0, 1, 1, SW_EP_ID, &a);
    xf_copy(x, 0, 1);
  }
  /* the Endpoint reads host memory: the Root Port completes, DSV copying RSV */
  x = xf_new(p);
  mem_tlp(p, xf_hop(x, 1, 1), 0x20, SW_EP_ID, next_tag(&p->lk[1].d[1]), HOST_BASE + RCB * (r * 4u + rnd(p, 4)),
          1 + rnd(p, RCB / 4), rseg);
  xf_copy(x, 0, 1);
  struct a5 b = { true, set, set ? SEG : 0, SEG };
  xf_cpl(p, x, 0, 0, 0, RP_ID, &b);
  xf_copy(x, 1, 0);
  /* Endpoint writes and messages up; the Root Port's ID-routed message down, OHC-A4 naming the segment once Set */
  x = xf_new(p);
  mem_tlp(p, xf_hop(x, 1, 1), 0x60, SW_EP_ID, 0, HOST_BASE + 0x10000u + RCB * r, 1 + rnd(p, 16), rseg);
  xf_copy(x, 0, 1);
  if (r % 2) {
    x = xf_new(p);
    msg_tlp(p, xf_hop(x, 1, 1), 0x30, SW_EP_ID, 0, rseg, -1);
    xf_copy(x, 0, 1);
  }
  if (r % 3 == 1) {
    x = sw_down(p, &t);
    msg_tlp(p, t, 0x32, RP_ID, SW_EP_ID, -1, rseg);
    xf_copy(x, 1, 0);
  }
  /* injections: the Clear switch forwards segment fields; the Set one changes or misroutes them */
  if (!set && take(p, UAL_R_PS_SW_CLEAR_RSEG)) {
    x = sw_down(p, &t);
    mem_tlp(p, t, 0x40, RP_ID, 0, BAR_BASE + 0x1000u, 1, SEG);
    xf_copy(x, 1, 0);
    xf_label(x, UAL_R_PS_SW_CLEAR_RSEG, "inject");
  }
  if (!set && take(p, UAL_R_PS_SW_CLEAR_DSV)) {
    x = sw_down(p, &t);
    msg_tlp(p, t, 0x32, RP_ID, SW_EP_ID, -1, SEG);
    xf_copy(x, 1, 0);
    xf_label(x, UAL_R_PS_SW_CLEAR_DSV, "inject");
  }
  if (set && take(p, UAL_R_PS_SW_FM_KEEP)) {
    x = sw_down(p, &t);
    mem_tlp(p, t, 0x40, RP_ID, 0, BAR_BASE + 0x1000u, 1, -1);
    mem_tlp(p, xf_hop(x, 1, 0), 0x40, RP_ID, 0, BAR_BASE + 0x1000u, 1, SEG);
    xf_label(x, UAL_R_PS_SW_FM_KEEP, "inject");
  }
  if (set && take(p, UAL_R_PS_SW_DSEG_UP)) {
    x = sw_down(p, &t);
    msg_tlp(p, t, 0x32, RP_ID, SW_EP_ID, -1, FAR_SEG);
    xf_copy(x, 1, 0);
    xf_label(x, UAL_R_PS_SW_DSEG_UP, "inject");
  }
  if (set && take(p, UAL_R_PS_SW_DSP_BLOCK)) {
    x = xf_new(p);
    mem_tlp(p, xf_hop(x, 1, 1), 0x60, SW_EP_ID, 0, HOST_BASE + 0x20000u, 1, SEG + 1);
    xf_label(x, UAL_R_PS_REQ_RSEG_VALUE, "consequence");
    xf_copy(x, 0, 1);
    xf_label(x, UAL_R_PS_REQ_RSEG_VALUE, "consequence");
    xf_label(x, UAL_R_PS_SW_DSP_BLOCK, "inject");
  }
  xf_run(p);
}

static void run_switch(struct pf *p, unsigned rounds) {
  add_link(p, ROLE_RP, ROLE_USP);
  add_link(p, ROLE_DSP, ROLE_EP);
  p->captured[0] = -1;
  for (unsigned r = 0; r < CLEAR_ROUNDS && !p->stop; r++) sw_round(p, r);
  sw_capture(p);
  for (unsigned r = 0; r < rounds && !p->stop; r++) sw_round(p, CLEAR_ROUNDS + r);
}

/* ---- pcie-rc ----
 * Root Port i (00:01.0 + i devices) on link i above Endpoint bus i + 1,
 * hierarchy segment 03h + 2i (its capturing CfgWr0). Peer-to-peer reads
 * to Endpoint 1 are passed through with the same Requester ID and Tag
 * (Root Port 1: No NFM Subtree Below); those to Endpoint 0 are taken over
 * by Root Port 0 with its own ID, Tag and segment (it has an NFM subtree),
 * the completion restored to the original ID. */
#define RC_LINKS 3u

static unsigned rc_rp(unsigned i) { return RP_ID + 8u * i; }
static unsigned rc_ep(unsigned i) { return EP_ID + 0x100u * i; }
static unsigned rc_seg(unsigned i) { return SEG + 2u * i; }
static uint32_t rc_bar(struct pf *p, unsigned i) { return BAR_BASE + 0x01000000u * i + RCB * rnd(p, 64); }

/* Endpoint src's MRd32 of 1-32 DW to Endpoint dst's BAR, up link src; rseg < 0: without OHC-C. */
static struct xfer *rc_p2p(struct pf *p, unsigned src, unsigned dst, int rseg) {
  struct xfer *x = xf_new(p);
  mem_tlp(p, xf_hop(x, src, 1), 0x03, (uint16_t)rc_ep(src), next_tag(&p->lk[src].d[1]), rc_bar(p, dst),
          1 + rnd(p, RCB / 4), rseg);
  return x;
}

/* src's read passed through to link 1, Endpoint 1's completion back down link src. */
static void rc_pass(struct pf *p, unsigned src, int rule) {
  bool plain = rule == UAL_R_PS_PT_ADD_RSEG;   /* came and left without OHC-C */
  struct xfer *x = rc_p2p(p, src, 1, plain ? -1 : (int)rc_seg(src));
  xf_copy(x, 1, 0);
  if (plain) xf_label(x, rule, "inject");
  struct a5 a = { true, !plain, plain ? 0 : rc_seg(src), rc_seg(1) };
  xf_cpl(p, x, 1, 1, 1, rc_ep(1), &a);
  struct tlp *c = xf_copy(x, rule == UAL_R_PS_PT_CPL_ROUTE ? 2 : src, 0);
  if (rule == UAL_R_PS_PT_CPL_KEEP)
    ual_field_put(UAL_F_PCIE_CPL_TAG, c->b, (ual_field_get(UAL_F_PCIE_CPL_TAG, c->b) + 1) & 0x3FFF);
  if (rule == UAL_R_PS_PT_CPL_ROUTE || rule == UAL_R_PS_PT_CPL_KEEP) xf_label(x, rule, "inject");
}

/* src's read to Endpoint 0, taken over by Root Port 0 (or, PS-TO-REQUIRED, passed through). */
static void rc_takeover(struct pf *p, unsigned src, int rule) {
  struct xfer *x = rc_p2p(p, src, 0, (int)rc_seg(src));
  const struct tlp *q = &x->h[0].t;
  unsigned seg = rule == UAL_R_PS_TO_EGRESS_RSEG ? rc_seg(src) : rc_seg(0);
  if (rule == UAL_R_PS_TO_REQUIRED) {
    xf_copy(x, 0, 0);
    seg = rc_seg(src);
  } else {
    mem_tlp(p, xf_hop(x, 0, 0), 0x03, (uint16_t)rc_rp(0), next_tag(&p->lk[0].d[0]), ual_field_get(UAL_F_PCIE_A32_ADDR, q->b) << 2,
            (unsigned)ual_field_get(UAL_F_PCIE_TLP_LENGTH, q->b), (int)seg);
  }
  if (rule == UAL_R_PS_TO_REQUIRED || rule == UAL_R_PS_TO_EGRESS_RSEG) xf_label(x, rule, "inject");
  struct a5 a = { true, 1, seg, rc_seg(0) };
  xf_cpl(p, x, 1, 0, 1, rc_ep(0), &a);
  if (rule == UAL_R_PS_TO_RESTORE || rule == UAL_R_PS_TO_REQUIRED) {
    xf_copy(x, src, 0);   /* with the ID it came back with */
    if (rule == UAL_R_PS_TO_RESTORE) xf_label(x, rule, "inject");
    return;
  }
  struct a5 b = { true, 1, rc_seg(src), rc_seg(0) };
  xf_cpl(p, x, 0, src, 0, rc_ep(0), &b);   /* the original Requester ID and Tag */
}

static void rc_round(struct pf *p, unsigned r) {
  for (unsigned i = 0; i < RC_LINKS; i++) {
    struct xfer *x = xf_new(p);
    mem_tlp(p, xf_hop(x, i, 0), 0x03, (uint16_t)rc_rp(i), next_tag(&p->lk[i].d[0]), rc_bar(p, i), 1 + rnd(p, RCB / 4), -1);
    struct a5 a = { true, 0, 0, rc_seg(i) };
    xf_cpl(p, x, 0, i, 1, rc_ep(i), &a);
    x = xf_new(p);
    mem_tlp(p, xf_hop(x, i, 1), 0x60, (uint16_t)rc_ep(i), 0, HOST_BASE + RCB * r, 1 + rnd(p, 16), (int)rc_seg(i));
  }
  rc_pass(p, r % 2 ? 0 : 2, -1);
  rc_takeover(p, r % 2 ? 1 : 2, -1);
  static const int pass[] = { UAL_R_PS_PT_ADD_RSEG, UAL_R_PS_PT_CPL_ROUTE, UAL_R_PS_PT_CPL_KEEP };
  static const int over[] = { UAL_R_PS_TO_REQUIRED, UAL_R_PS_TO_RESTORE, UAL_R_PS_TO_EGRESS_RSEG };
  for (unsigned i = 0; i < 3; i++) {
    if (take(p, pass[i])) rc_pass(p, 0, pass[i]);   /* from link 0: link 2's segment differs */
    if (take(p, over[i])) rc_takeover(p, 1, over[i]);
  }
  xf_run(p);
}

static void run_rc(struct pf *p, unsigned rounds) {
  struct a5 a = { true, 0, 0, 0 };
  for (unsigned i = 0; i < RC_LINKS; i++) add_link(p, ROLE_RP, ROLE_EP);
  for (unsigned i = 0; i < RC_LINKS; i++) {
    struct xfer *x = xf_new(p);
    cfg_tlp(p, xf_hop(x, i, 0), 0x44, (uint16_t)rc_rp(i), next_tag(&p->lk[i].d[0]), rc_ep(i), 0x04, (int)rc_seg(i));
    a.cseg = rc_seg(i);
    xf_cpl(p, x, 0, i, 1, rc_ep(i), &a);
  }
  xf_run(p);
  for (unsigned r = 0; r < rounds && !p->stop; r++) rc_round(p, r);
}

int gen_pciefm_run(int sc, const struct gen_opts *o, const struct gen_out *out, uint64_t *records, char *err, size_t cap) {
  struct pf *p = calloc(1, sizeof *p);
  if (!p) {
    snprintf(err, cap, "out of memory");
    return -1;
  }
  p->o = o;
  p->out = out;
  gen_rng_seed(&p->rng, o->seed ^ 0xF117ull);
  int rc = 0;
  for (unsigned i = 0; i < o->n_inject && !rc; i++) {
    int r = o->inject[i].rule;
    if (gen_pciefm_inject_scenario(r) != sc) {
      snprintf(err, cap, "%s cannot be injected in the %s scenario", ual_rule_id((enum ual_rule)r), gen_scenario_name(sc));
      rc = -1;
      break;
    }
    p->want[r] = true;
    p->at[r] = o->inject[i].at_frame == GEN_AT_DEFAULT ? 0 : o->inject[i].at_frame;
  }
  p->captured[0] = p->captured[1] = -1;
  unsigned xl_rounds = o->count ? (unsigned)(o->count / 40 + 1) : XL_ROUNDS;
  if (!rc && sc == GEN_SC_PCIE_SWITCH) run_switch(p, xl_rounds);
  else if (!rc && sc == GEN_SC_PCIE_RC) run_rc(p, xl_rounds);
  else if (!rc) {
    /* the link comes up from Detect: the Endpoint's functions are reset */
    add_link(p, ROLE_RP, ROLE_EP);
    use(p, 0);
    p->d[0].tag = 0x0100;
    p->d[1].tag = 0x2000;
    for (unsigned r = 0; r < CLEAR_ROUNDS; r++) round_clear(p, r);
    answer(p, 0);
    answer(p, 1);
    cfg(p, 0x44, EP_ID, 0x04, true);
    cfg(p, 0x44, EP_ID + 1, 0x04, true);
    drain(p);
    unsigned rounds = ROUNDS_DEFAULT;
    if (o->count) rounds = (unsigned)(o->count / 14 + 1);
    for (unsigned r = 0; r < rounds && !p->stop; r++) round_set(p, r);
    answer(p, 0);
    answer(p, 1);
    drain(p);
  }
  *records = p->frame;
  for (unsigned i = 0; i < o->n_inject && !rc; i++)
    if (!p->done[o->inject[i].rule]) {
      snprintf(err, cap, "%s: no opportunity", ual_rule_id((enum ual_rule)o->inject[i].rule));
      rc = -1;
    }
  if (!rc && p->stop) {
    snprintf(err, cap, "output stopped");
    rc = -1;
  }
  free(p);
  return rc;
}
