/* Stateful DLLP analysis (analysis.h): one explicit switch per DLLP
 * layout and FC stage; every surprise is a PD- finding. */
#include "ualink/pcie/analysis.h"
#include "ualink/core/analysis.h"
#include "ualink/core/fields.h"
#include "ualink/ualink/flit.h"

#include <string.h>

#define HDR_MOD  256u    /* HdrFC is 8 bits */
#define DATA_MOD 4096u   /* DataFC is 12 bits */

const char *ual_pcie_fc_phase_name(unsigned p) {
  static const char *const n[] = { "unknown", "FC_INIT1", "FC_INIT2", "FC_UPDATE" };
  return p < 4 ? n[p] : "?";
}

static char side_name(unsigned d) { return d ? 'B' : 'A'; }

/* [P10]: PM requests come from the downstream component (a port facing
 * upstream: switch USP 2, Endpoint 4, other upstream port 5), the Ack from
 * the upstream component (Root Port 1, switch DSP 3). */
static int downstream_component(unsigned role) {
  switch (role) {
  case 2: case 4: case 5: return 1;
  case 1: case 3: return 0;
  }
  return UAL_UNKNOWN;
}

static void forget(struct ual_pcie_side *s) {
  memset(s->vc, 0, sizeof s->vc);
  s->scaling = UAL_UNKNOWN;
  s->seen = s->pm_req = s->pm_acking = 0;
  s->ack_known = 0;
}

static void flow_forget(struct ual_pcie_flow *fl) {
  fl->seq_known = 0;
  ual_pcie_walk_lose(&fl->walk);
}

void ual_pcie_an_init(struct ual_pcie_an *s) {
  memset(s, 0, sizeof *s);
  forget(&s->s[0]);
  forget(&s->s[1]);
  ual_pcie_walk_init(&s->fl[0].walk);
  ual_pcie_walk_init(&s->fl[1].walk);
}

static void flit_step(struct ual_pcie_an *s, struct ual_rec_result *r, const struct ual_fabric_step *c);

static void ack_step(struct ual_pcie_side *me, unsigned d, const struct ual_pcie_dllp *p, struct ual_findings *f) {
  if (me->ack_known && ((unsigned)(p->seq - me->ack_seq) & (UAL_PCIE_SEQ_MOD - 1)) >= UAL_PCIE_SEQ_MOD / 2)
    ual_findings_add(f, UAL_R_PD_ACK_BACKWARDS, -1, "%s %03xh from %c after %03xh", ual_pcie_dllp_name_str(p->name),
                     p->seq, side_name(d), me->ack_seq);
  me->ack_known = 1;
  me->ack_seq = p->seq;
  if (p->name == UAL_PCIE_DT_NAK)
    ual_findings_add(f, UAL_R_PD_NAK, -1, "Nak %03xh from %c: TLPs after it are replayed", p->seq, side_name(d));
}

static bool backwards(unsigned now, unsigned before, unsigned mod) { return ((now - before) & (mod - 1)) >= mod / 2; }

static const char *class_name(unsigned c) { return c == UAL_PCIE_P ? "P" : c == UAL_PCIE_NP ? "NP" : "Cpl"; }

static void set_phase(struct ual_pcie_vc *v, unsigned d, unsigned vc, unsigned ph, const struct ual_fabric_step *c) {
  if (v->phase == ph) return;
  ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_PCIE_FC, d, (int32_t)ph, (int32_t)vc, "%c VC%u %s -> %s",
                    side_name(d), vc, ual_pcie_fc_phase_name(v->phase), ual_pcie_fc_phase_name(ph));
  v->phase = (uint8_t)ph;
}

/* A new InitFC1 round: what the VC advertised before is void. */
static void new_round(struct ual_pcie_vc *v) {
  memset(v->init, 0, sizeof v->init);
  memset(v->last, 0, sizeof v->last);
  v->init1_seen = 0;
}

static void init_values(struct ual_pcie_vc *v, unsigned cls, unsigned d, unsigned vc, const struct ual_pcie_dllp *p,
                        const struct ual_pcie_fc_vals *cur, struct ual_findings *f) {
  struct ual_pcie_fc_vals *iv = &v->init[cls];
  if (iv->known && (iv->hdr != cur->hdr || iv->data != cur->data || iv->hdr_scale != cur->hdr_scale ||
                    iv->data_scale != cur->data_scale))
    ual_findings_add(f, UAL_R_PD_FC_INIT_CHANGED, -1, "%s VC%u from %c: Hdr %u/%u Data %u/%u, before %u/%u %u/%u",
                     ual_pcie_dllp_name_str(p->name), vc, side_name(d), cur->hdr_scale, cur->hdr, cur->data_scale,
                     cur->data, iv->hdr_scale, iv->hdr, iv->data_scale, iv->data);
  *iv = *cur;
}

static void update_values(const struct ual_pcie_vc *v, unsigned cls, unsigned d, unsigned vc,
                          const struct ual_pcie_dllp *p, const struct ual_pcie_fc_vals *cur, struct ual_findings *f) {
  const struct ual_pcie_fc_vals *iv = &v->init[cls], *lv = &v->last[cls];
  const char *n = ual_pcie_dllp_name_str(p->name);
  bool hdr_inf = iv->known && iv->hdr == 0, data_inf = iv->known && iv->data == 0;
  if ((hdr_inf && cur->hdr) || (data_inf && cur->data))   /* [P9] */
    ual_findings_add(f, UAL_R_PD_FC_INFINITE, -1, "%s VC%u from %c: Hdr %u Data %u for credits advertised infinite", n,
                     vc, side_name(d), cur->hdr, cur->data);
  if (iv->known && (iv->hdr_scale != cur->hdr_scale || iv->data_scale != cur->data_scale))
    ual_findings_add(f, UAL_R_PD_FC_SCALE, -1, "%s VC%u from %c: scales %u/%u, InitFC %u/%u", n, vc, side_name(d),
                     cur->hdr_scale, cur->data_scale, iv->hdr_scale, iv->data_scale);
  if (!lv->known) return;
  /* [P9]: with the InitFC unseen, 0 may be an infinite class, not a step back */
  if (!iv->known && !cur->hdr) hdr_inf = true;
  if (!iv->known && !cur->data) data_inf = true;
  if (!hdr_inf && backwards(cur->hdr, lv->hdr, HDR_MOD))
    ual_findings_add(f, UAL_R_PD_FC_BACKWARDS, -1, "%s VC%u from %c: HdrFC %u after %u", n, vc, side_name(d), cur->hdr,
                     lv->hdr);
  if (!data_inf && backwards(cur->data, lv->data, DATA_MOD))
    ual_findings_add(f, UAL_R_PD_FC_BACKWARDS, -1, "%s VC%u from %c: DataFC %u after %u", n, vc, side_name(d), cur->data,
                     lv->data);
}

static void fc_step(struct ual_pcie_an *s, unsigned d, const struct ual_pcie_dllp *p, const struct ual_fabric_step *c,
                    struct ual_findings *f) {
  if (p->fc_class > UAL_PCIE_CPL) return;
  struct ual_pcie_side *me = &s->s[d];
  const struct ual_pcie_side *other = &s->s[d ^ 1];
  unsigned cls = p->fc_class, vc = p->vc;
  struct ual_pcie_vc *v = &me->vc[vc];
  struct ual_pcie_fc_vals cur = { 1, p->hdr_scale, p->data_scale, p->hdr_fc, p->data_fc };
  const char *n = ual_pcie_dllp_name_str(p->name);
  bool scaled = p->hdr_scale >= 2 || p->data_scale >= 2;
  if (scaled && other->scaling == 0)
    ual_findings_add(f, UAL_R_PD_FC_SCALE, -1, "%s VC%u from %c: scale %u/%u but %c advertised no scaling", n, vc,
                     side_name(d), p->hdr_scale, p->data_scale, side_name(d ^ 1));
  switch (p->stage) {
  case UAL_PCIE_INIT1:
    if (v->phase == UAL_PCIE_PH_INIT2 || v->phase == UAL_PCIE_PH_UPDATE) {
      ual_findings_add(f, UAL_R_PD_FC_ORDER, -1, "%s VC%u from %c in %s without a link event", n, vc, side_name(d),
                       ual_pcie_fc_phase_name(v->phase));
      new_round(v);
      set_phase(v, d, vc, UAL_PCIE_PH_INIT1, c);
    } else if (v->phase == UAL_PCIE_PH_UNKNOWN && cls == UAL_PCIE_P) {
      new_round(v);
      set_phase(v, d, vc, UAL_PCIE_PH_INIT1, c);
    }
    if (v->phase == UAL_PCIE_PH_INIT1) v->init1_seen |= (uint8_t)(1u << cls);
    init_values(v, cls, d, vc, p, &cur, f);
    if (me->scaling == UAL_UNKNOWN) me->scaling = (int8_t)(p->hdr_scale || p->data_scale);
    break;
  case UAL_PCIE_INIT2:
    if (v->phase == UAL_PCIE_PH_UPDATE) {
      /* a stray InitFC2: reported, and the VC's credits stay as they were */
      ual_findings_add(f, UAL_R_PD_FC_ORDER, -1, "%s VC%u from %c after UpdateFC", n, vc, side_name(d));
      return;
    }
    if (v->phase == UAL_PCIE_PH_INIT1 && v->init1_seen != 7)
      ual_findings_add(f, UAL_R_PD_FC_ORDER, -1, "%s VC%u from %c before InitFC1 of every class", n, vc,
                       side_name(d));
    init_values(v, cls, d, vc, p, &cur, f);
    if (me->scaling == UAL_UNKNOWN) me->scaling = (int8_t)(p->hdr_scale || p->data_scale);
    set_phase(v, d, vc, UAL_PCIE_PH_INIT2, c);
    break;
  case UAL_PCIE_UPDATE:
    if (v->phase == UAL_PCIE_PH_INIT1)
      ual_findings_add(f, UAL_R_PD_FC_ORDER, -1, "%s VC%u from %c before InitFC2 of %s", n, vc, side_name(d),
                       class_name(cls));
    else
      update_values(v, cls, d, vc, p, &cur, f);
    set_phase(v, d, vc, UAL_PCIE_PH_UPDATE, c);
    break;
  }
  v->last[cls] = cur;
  me->adv[vc][cls] = cur;
}

static void pm_step(struct ual_pcie_an *s, unsigned d, const struct ual_pcie_dllp *p, const struct ual_fabric_step *c,
                    struct ual_findings *f) {
  struct ual_pcie_side *me = &s->s[d];
  const struct ual_pcie_side *other = &s->s[d ^ 1];
  int down = downstream_component(s->role[d]);
  const char *n = ual_pcie_dllp_name_str(p->name);
  if (p->name == UAL_PCIE_DT_PM_ACK) {
    if (down == 1)
      ual_findings_add(f, UAL_R_PD_PM_ORDER, -1, "%s from %c, a downstream component (role %u)", n, side_name(d),
                       s->role[d]);
    else if (other->seen && !other->pm_req)
      ual_findings_add(f, UAL_R_PD_PM_ORDER, -1, "%s from %c without a PM request from %c", n, side_name(d),
                       side_name(d ^ 1));
    if (!me->pm_acking)
      ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_PCIE_PM, d, p->type, UAL_UNKNOWN, "%c %s", side_name(d), n);
    me->pm_acking = 1;
    return;
  }
  if (down == 0)
    ual_findings_add(f, UAL_R_PD_PM_ORDER, -1, "%s from %c, an upstream component (role %u)", n, side_name(d),
                     s->role[d]);
  if (me->pm_req != p->type)
    ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_PCIE_PM, d, p->type, me->pm_req ? me->pm_req : UAL_UNKNOWN,
                      "%c %s", side_name(d), n);
  me->pm_req = p->type;
}

void ual_pcie_an_step(struct ual_pcie_an *s, struct ual_rec_result *r, const struct ual_fabric_step *c) {
  const struct ual_rec_hdr *h = &r->rec.h;
  if (h->kind == UAL_REC_EVENT) {
    forget(&s->s[0]);
    forget(&s->s[1]);
    flow_forget(&s->fl[0]);
    flow_forget(&s->fl[1]);
    /* a link trained from Detect starts both TLP streams afresh: the next
     * delivered flit begins with a TLP */
    if (r->ev.code == UAL_EV_RX_DETECT) s->fl[0].walk.synced = s->fl[1].walk.synced = 1;
    return;
  }
  if (h->kind == UAL_REC_PCIE_FLIT) {
    flit_step(s, r, c);
    return;
  }
  if (h->roles_pcie) {
    s->role[0] = h->role_a;
    s->role[1] = h->role_b;
  }
  unsigned d = r->dir;
  struct ual_pcie_side *me = &s->s[d];
  if (h->flags & UAL_RF_LOST) forget(me);
  const struct ual_pcie_dllp *p = &r->pcie;
  me->dllps++;
  me->by_type[p->name]++;
  if (!p->crc_ok) {
    me->crc_bad++;
    return;
  }
  struct ual_findings *f = &r->findings;
  switch (p->layout) {
  case UAL_PCIE_L_ACK: ack_step(me, d, p, f); break;
  case UAL_PCIE_L_FC: fc_step(s, d, p, c, f); break;
  case UAL_PCIE_L_PM: pm_step(s, d, p, c, f); break;
  default: break;
  }
  if (p->name != UAL_PCIE_DT_RESERVED) me->seen = 1;
}

void ual_pcie_an_finish(struct ual_pcie_an *s, struct ual_findings *f, const struct ual_fabric_step *c) {
  (void)s;
  (void)f;
  (void)c;
}

/* ---- flit mode (kind 5) ---- */

struct tlp_ctx {
  struct ual_findings *f;
  unsigned d;
  struct ual_pcie_flow *me, *other;   /* the sender's flow and the receiver's */
  const struct ual_fabric_step *c;
  struct ual_pcie_tlps *out;          /* the record's TLPs */
  struct ual_pcie_tlp_rec *cur;       /* this TLP's entry there, NULL when not kept */
};

/* Request/completion pairing (pcie.md §4 request table, on one link):
 * a non-posted request is kept under (Requester ID, Tag); a completion from
 * the other side with that Destination BDF and Tag pairs with it, and
 * finishes it when it carries no data or its Byte Count fits its payload
 * (Length DW x 4; the Lower Address offset is not taken off). A completion
 * without a kept request is counted, not judged: its request may precede
 * the capture or the walk's sync. */
static void track(const struct tlp_ctx *x, const struct ual_pcie_tlp_type *ty, const uint8_t *dw0, unsigned type) {
  struct ual_pcie_tlp_rec *out = x->cur;
  if (ty->fc == UAL_TLP_FC_NPR && (ty->hdr == UAL_TLP_H_MEM || ty->hdr == UAL_TLP_H_CFG)) {
    struct ual_pcie_flow *me = x->me;
    unsigned rid = (unsigned)ual_field_get(UAL_F_PCIE_REQ_RID, dw0), tag = (unsigned)ual_field_get(UAL_F_PCIE_REQ_TAG, dw0);
    struct ual_pcie_req *slot = NULL;
    for (unsigned i = 0; i < UAL_PCIE_MAX_OUTSTANDING; i++) {
      struct ual_pcie_req *q = &me->req[i];
      if (q->used && q->rid == rid && q->tag == tag) { slot = q; break; }   /* a tag reused: the newer request */
      if (!q->used && !slot) slot = q;
    }
    if (!slot) {
      me->untracked++;
      if (out) out->link = UAL_PCIE_LK_REQ_UNTRACKED;
      return;
    }
    if (!slot->used) me->outstanding++;
    *slot = (struct ual_pcie_req){ 1, (uint8_t)type, out ? (uint8_t)(out - x->out->v) : 255, (uint16_t)rid,
                                   (uint16_t)tag, x->c->frame, x->c->ts_ns };
    if (out) out->link = UAL_PCIE_LK_REQ;
    return;
  }
  if (ty->hdr != UAL_TLP_H_CPL) return;
  struct ual_pcie_flow *req_side = x->other, *me = x->me;
  unsigned rid = (unsigned)ual_field_get(UAL_F_PCIE_CPL_DEST, dw0), tag = (unsigned)ual_field_get(UAL_F_PCIE_CPL_TAG, dw0);
  for (unsigned i = 0; i < UAL_PCIE_MAX_OUTSTANDING; i++) {
    struct ual_pcie_req *q = &req_side->req[i];
    if (!q->used || q->rid != rid || q->tag != tag) continue;
    unsigned bc = (unsigned)ual_field_get(UAL_F_PCIE_CPL_BC, dw0), len = (unsigned)ual_field_get(UAL_F_PCIE_TLP_LENGTH, dw0);
    bool last = !ty->data || bc <= 4u * (len ? len : 1024u);
    uint64_t ns = x->c->ts_ns >= q->ts_ns ? x->c->ts_ns - q->ts_ns : 0;
    if (out) {
      out->link = last ? UAL_PCIE_LK_CPL : UAL_PCIE_LK_CPL_PART;
      out->peer_frame = q->frame;
      out->peer_index = q->index;
      out->latency_ns = ns;
    }
    if (!last) {
      me->split_parts++;
      return;
    }
    struct ual_pcie_lat *l = &me->lat[q->type];
    if (!l->n || ns < l->min_ns) l->min_ns = ns;
    if (ns > l->max_ns) l->max_ns = ns;
    l->n++;
    l->sum_ns += ns;
    me->pairs++;
    q->used = 0;
    req_side->outstanding--;
    return;
  }
  me->cpl_unmatched++;
  if (out) out->link = UAL_PCIE_LK_CPL_UNMATCHED;
}

/* The stateless TLP rules of §3.6 on one walked TLP. Its OHC words follow
 * the header base in A, B, C, E order; only the held header is read. */
static void tlp_checks(void *ctx, const struct ual_pcie_tlp *t) {
  struct tlp_ctx *x = ctx;
  struct ual_findings *f = x->f;
  const uint8_t *dw0 = t->hdr + 4u * t->prefix_dw;
  unsigned type = dw0[0], ohc = (unsigned)ual_field_get(UAL_F_PCIE_TLP_OHC, dw0);
  unsigned ts = (unsigned)ual_field_get(UAL_F_PCIE_TLP_TS, dw0);
  const struct ual_pcie_tlp_type *ty = ual_pcie_tlp_type(type);
  x->me->tlps++;
  x->cur = ual_pcie_tlps_add(x->out, t);
  uint16_t back = (uint16_t)(x->me->walk.flit - t->start_flit);
  if (x->cur && back < 32) x->cur->start_frame = x->me->flit_frame[t->start_flit % 32];
  if (type == 0x00) {
    if (dw0[1] || dw0[2] || dw0[3])
      ual_findings_add(f, UAL_R_PF_NOP_NONZERO, -1, "NOP TLP from %c = %02x %02x %02x %02x", side_name(x->d), dw0[0],
                       dw0[1], dw0[2], dw0[3]);
    return;
  }
  if (!ty->name) {
    ual_findings_add(f, UAL_R_PF_RSVD_TYPE, -1, "TLP Type %02xh from %c is reserved (%u DW)", type, side_name(x->d),
                     t->size.total_dw);
    return;
  }
  if (t->hdr_dw >= t->prefix_dw + 3u) track(x, ty, dw0, type);   /* every header base holds DW0-2 */
  bool a = ohc & 1, c = ohc & 4;
  bool cfg = ty->hdr == UAL_TLP_H_CFG, io = type == 0x02 || type == 0x42;
  if ((cfg || io) && !a)
    ual_findings_add(f, UAL_R_PF_OHC_MISSING, -1, "%s from %c without OHC-A%c", ty->name, side_name(x->d),
                     cfg ? '3' : '2');
  if ((ts == 5 || ts == 6) && !c)
    ual_findings_add(f, UAL_R_PF_TS_IDE, -1, "%s from %c: TS %u%u%ub without OHC-C", ty->name, side_name(x->d),
                     ts >> 2 & 1, ts >> 1 & 1, ts & 1);
  unsigned c_dw = t->prefix_dw + t->size.base_dw + (ohc & 1) + (ohc >> 1 & 1);
  if (!c || c_dw >= t->hdr_dw) return;
  const uint8_t *oc = t->hdr + 4u * c_dw;
  unsigned sub = (unsigned)ual_field_get(UAL_F_PCIE_C_SUBSTREAM, oc);
  if (sub >= 3 && sub <= 6)
    ual_findings_add(f, UAL_R_PF_SUBSTREAM, -1, "%s from %c: OHC-C Sub-Stream %u%u%ub", ty->name, side_name(x->d),
                     sub >> 2 & 1, sub >> 1 & 1, sub & 1);
  if (ty->fc == UAL_TLP_FC_CPL && ual_field_get(UAL_F_PCIE_C_RSV, oc))
    ual_findings_add(f, UAL_R_PF_CPL_RSV, -1, "%s from %c: OHC-C RSV = 1", ty->name, side_name(x->d));
}

/* Whether a payload flit is a first delivery, by the UALink sequence rules. */
static bool first_delivery(struct ual_pcie_flow *fl, const struct ual_fh *fh) {
  if (fh->replay_cmd != UAL_RC_SEQ) {   /* implicit: the previous + 1 */
    if (fl->seq_known) fl->next_seq = (uint16_t)((fl->next_seq + 1) & 0x3FF);
    return true;
  }
  unsigned seq = fh->seq;
  if (fl->seq_known && seq != fl->next_seq) {
    if (((fl->next_seq - seq) & 0x3FF) <= 512) return false;   /* a replayed copy */
    ual_pcie_walk_lose(&fl->walk);                                 /* flits missing: a gap */
  }
  fl->seq_known = 1;
  fl->next_seq = (uint16_t)((seq + 1) & 0x3FF);
  return true;
}

static void flit_step(struct ual_pcie_an *s, struct ual_rec_result *r, const struct ual_fabric_step *c) {
  unsigned d = r->dir;
  struct ual_pcie_flow *fl = &s->fl[d];
  const struct ual_flit_info *fi = &r->flit;
  if (r->rec.h.flags & UAL_RF_LOST) {
    fl->seq_known = 0;
    ual_pcie_walk_lose(&fl->walk);
  }
  fl->flits++;
  if (!fi->valid || fi->kind != UAL_FK_PAYLOAD || !first_delivery(fl, &fi->fh)) return;
  fl->delivered++;
  fl->flit_frame[fl->walk.flit % 32] = c->frame;
  struct tlp_ctx x = { &r->findings, d, fl, &s->fl[d ^ 1], c, &r->tlps, NULL };
  unsigned at = 0;
  if (ual_pcie_walk_flit(&fl->walk, fi->bytes, tlp_checks, &x, &at) == UAL_PW_SYNCED) {
    ual_findings_add(&r->findings, UAL_R_PF_SYNC, -1, "TLP stream from %c aligned at DW %u", side_name(d), at);
    r->tlps.synced_at = (int8_t)at;
  }
}
