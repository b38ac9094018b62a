/* Cross-link correlation (xlink.h; the device model and matching keys are
 * described at struct ual_pcie_xl in analysis.h). */
#include "xlink.h"
#include "ualink/core/fields.h"

#include <string.h>

#define ROLE_RP  1u
#define ROLE_USP 2u
#define ROLE_DSP 3u

static bool has_role(const struct ual_pcie_link_an *l, unsigned role) { return l->role[0] == role || l->role[1] == role; }

/* A link's part of the switch: 1 its upstream link, 2 a downstream one, 0 none. */
static int sw_part(const struct ual_pcie_link_an *l) {
  bool usp = has_role(l, ROLE_USP), dsp = has_role(l, ROLE_DSP);
  return usp && !dsp ? 1 : dsp && !usp ? 2 : 0;
}

/* The switch's upstream link slot when the links form one switch, else -1. */
static int switch_usp(const struct ual_pcie_an *s) {
  int usp = -1;
  unsigned dsps = 0;
  for (unsigned i = 0; i < UAL_PCIE_LINKS; i++) {
    if (!s->lk[i].used) continue;
    int p = sw_part(&s->lk[i]);
    if (p == 1 && usp >= 0) return -1;
    if (p == 1) usp = (int)i;
    if (p == 2) dsps++;
  }
  return dsps ? usp : -1;
}

static unsigned rp_links(const struct ual_pcie_an *s) {
  unsigned n = 0;
  for (unsigned i = 0; i < UAL_PCIE_LINKS; i++) n += s->lk[i].used && has_role(&s->lk[i], ROLE_RP);
  return n;
}

/* Whether a TLP on link l going up (or down) enters (1) or leaves (0) the
 * device, -1 when the link is not part of it. */
static int enters(const struct ual_pcie_an *s, unsigned dev, unsigned l, int up) {
  const struct ual_pcie_link_an *k = &s->lk[l];
  if (dev == UAL_XL_RC) return has_role(k, ROLE_RP) && rp_links(s) >= 2 ? up : -1;
  if (switch_usp(s) < 0) return -1;
  int p = sw_part(k);
  return p == 1 ? !up : p == 2 ? up : -1;
}

/* ---- what a TLP says about segments ---- */

struct segv {
  bool rsv, dsv;
  unsigned rseg, dseg, cseg;
};

static bool id_msg(unsigned type) { return type == 0x32 || type == 0x72; }

/* From its header base type and OHC words; absent words read as zero. */
static struct segv segv_of(unsigned type, const struct ual_pcie_tlp_type *ty, const uint8_t *a, const uint8_t *c) {
  struct segv v = { false, false, 0, 0, 0 };
  if (c && ty->hdr != UAL_TLP_H_CPL && ual_field_get(UAL_F_PCIE_C_RSV, c)) {
    v.rsv = true;
    v.rseg = (unsigned)ual_field_get(UAL_F_PCIE_C_RSEG, c);
  }
  if (!a) return v;
  if (ty->hdr == UAL_TLP_H_CFG) {
    v.dsv = ual_field_get(UAL_F_PCIE_A3_DSV, a);
    v.dseg = (unsigned)ual_field_get(UAL_F_PCIE_A3_DSEG, a);
  } else if (id_msg(type)) {
    v.dsv = ual_field_get(UAL_F_PCIE_A4_DSV, a);
    v.dseg = (unsigned)ual_field_get(UAL_F_PCIE_A4_DSEG, a);
  } else if (ty->hdr == UAL_TLP_H_CPL) {
    v.dsv = ual_field_get(UAL_F_PCIE_A5_DSV, a);
    v.dseg = (unsigned)ual_field_get(UAL_F_PCIE_A5_DSEG, a);
    v.cseg = (unsigned)ual_field_get(UAL_F_PCIE_A5_CSEG, a);
  }
  if (!v.dsv) v.dseg = 0;    /* reserved without DSV */
  return v;
}

static struct segv segv_kept(const struct ual_pcie_xl_tlp *k) {
  unsigned type = k->hdr[0];
  return segv_of(type, ual_pcie_tlp_type(type), k->has_a ? k->a : NULL, k->has_c ? k->c : NULL);
}

/* ---- the kept TLPs ---- */

void ual_pcie_xl_forget(struct ual_pcie_xl *x, unsigned link) {
  for (unsigned i = 0; i < UAL_PCIE_XL_KEPT; i++)
    if (x->t[i].kind && (x->t[i].link == link || (x->t[i].kind != UAL_XL_IN && x->t[i].out_link == link)))
      x->t[i].kind = UAL_XL_FREE;
}

/* A free entry, else the oldest one replaced. */
static struct ual_pcie_xl_tlp *keep(struct ual_pcie_xl *x, unsigned kind, unsigned dev, const struct ual_pcie_xl_in *t) {
  struct ual_pcie_xl_tlp *e = &x->t[0];
  for (unsigned i = 0; i < UAL_PCIE_XL_KEPT && e->kind; i++)
    if (!x->t[i].kind || x->t[i].order < e->order) e = &x->t[i];
  if (e->kind) x->dropped++;
  memset(e, 0, sizeof *e);
  e->kind = (uint8_t)kind;
  e->dev = (uint8_t)dev;
  e->link = (uint8_t)t->link;
  e->base_dw = (uint8_t)(t->base_dw < 4 ? t->base_dw : 4);
  memcpy(e->hdr, t->dw0, 4u * e->base_dw);
  if (t->a) memcpy(e->a, t->a, 4);
  if (t->c) memcpy(e->c, t->c, 4);
  e->has_a = t->a != NULL;
  e->has_c = t->c != NULL;
  e->frame = t->frame;
  e->order = ++x->order;
  return e;
}

static unsigned length_of(const uint8_t *dw0) { return (unsigned)ual_field_get(UAL_F_PCIE_TLP_LENGTH, dw0); }

/* Same Type (a Type 1 configuration request may leave as Type 0) and Length. */
static bool same_type(const struct ual_pcie_xl_tlp *k, const struct ual_pcie_xl_in *t) {
  unsigned in = k->hdr[0];
  bool cfg1 = (in == 0x05 && t->type == 0x04) || (in == 0x45 && t->type == 0x44);
  return (in == t->type || cfg1) && length_of(k->hdr) == length_of(t->dw0);
}

static bool same_bytes(const struct ual_pcie_xl_tlp *k, const struct ual_pcie_xl_in *t, unsigned from, unsigned to) {
  return k->base_dw == (t->base_dw < 4 ? t->base_dw : 4) && memcmp(k->hdr + from, t->dw0 + from, to - from) == 0;
}

/* The oldest original of dev from another link that t is a copy of:
 * pass-through (the whole header base after DW0), or when addr_only the
 * same address only (bytes 8 on). */
static struct ual_pcie_xl_tlp *find_in(struct ual_pcie_xl *x, unsigned dev, const struct ual_pcie_xl_in *t, bool addr_only) {
  struct ual_pcie_xl_tlp *best = NULL;
  unsigned end = 4u * (t->base_dw < 4 ? t->base_dw : 4);
  for (unsigned i = 0; i < UAL_PCIE_XL_KEPT; i++) {
    struct ual_pcie_xl_tlp *k = &x->t[i];
    if (k->kind != UAL_XL_IN || k->dev != dev || k->link == t->link || !same_type(k, t)) continue;
    if (!same_bytes(k, t, addr_only ? 8 : 4, end)) continue;
    if (addr_only && same_bytes(k, t, 4, 8)) continue;   /* the same ID: pass-through, not a takeover */
    if (!best || k->order < best->order) best = k;
  }
  return best;
}

/* ---- rules ---- */

struct xctx {
  struct ual_pcie_an *s;
  const struct ual_pcie_xl_in *t;
  struct ual_findings *f;
};

static unsigned index_of(const struct xctx *x, unsigned slot) { return x->s->lk[slot].index; }

/* A Root Port link's hierarchy segment, false when unknown. */
static bool rp_seg(const struct xctx *x, unsigned slot, unsigned *seg) {
  const struct ual_pcie_seg *sg = &x->s->lk[slot].seg;
  *seg = sg->rp_seg;
  return sg->rp_known;
}

/* The switch's Segment Captured: its upstream port's, the function a
 * Type 0 capturing write on the upstream link went to. */
static unsigned switch_state(const struct ual_pcie_an *s, unsigned *seg) {
  int u = switch_usp(s);
  const struct ual_pcie_link_an *l = &s->lk[u];
  if (l->seg.t0_known) return ual_pcie_seg_of(s, l, l->seg.t0_bdf, true, seg);
  return l->seg.reset ? UAL_SEG_CLEAR : UAL_SEG_UNKNOWN;
}

static void switch_rules(const struct xctx *x, const struct ual_pcie_xl_tlp *in) {
  const struct ual_pcie_xl_in *t = x->t;
  struct segv a = segv_kept(in), b = segv_of(t->type, t->ty, t->a, t->c);
  const char *n = t->ty->name;
  unsigned from = index_of(x, in->link), to = index_of(x, t->link);
  unsigned long long fr = (unsigned long long)in->frame;
  if (a.rsv != b.rsv || a.rseg != b.rseg || a.dsv != b.dsv || a.dseg != b.dseg || a.cseg != b.cseg)
    ual_findings_add(x->f, UAL_R_PS_SW_FM_KEEP, -1,
                     "%s on link %u from link %u (frame %llu): RSV %u->%u Requester Segment %02xh->%02xh, DSV %u->%u "
                     "Destination Segment %02xh->%02xh, Completer Segment %02xh->%02xh",
                     n, to, from, fr, a.rsv, b.rsv, a.rseg, b.rseg, a.dsv, b.dsv, a.dseg, b.dseg, a.cseg, b.cseg);
  unsigned cap = 0, st = switch_state(x->s, &cap);
  bool routed_id = t->ty->hdr == UAL_TLP_H_CPL || id_msg(t->type);
  bool memmsg = t->ty->hdr == UAL_TLP_H_MSG || (t->ty->hdr == UAL_TLP_H_MEM && t->type != 0x02 && t->type != 0x42);
  if (st == UAL_SEG_CLEAR && routed_id && a.dsv)
    ual_findings_add(x->f, UAL_R_PS_SW_CLEAR_DSV, -1,
                     "%s forwarded to link %u from link %u (frame %llu) with DSV 1 (Destination Segment %02xh), the switch is Clear",
                     n, to, from, fr, a.dseg);
  if (st == UAL_SEG_CLEAR && memmsg && a.rsv)
    ual_findings_add(x->f, UAL_R_PS_SW_CLEAR_RSEG, -1,
                     "%s forwarded to link %u from link %u (frame %llu) with Requester Segment %02xh, the switch is Clear", n,
                     to, from, fr, a.rseg);
  if (st != UAL_SEG_SET) return;
  if (routed_id && a.dsv && a.dseg != cap && sw_part(&x->s->lk[t->link]) == 2)
    ual_findings_add(x->f, UAL_R_PS_SW_DSEG_UP, -1,
                     "%s forwarded down link %u from link %u (frame %llu): Destination Segment %02xh is not the switch's %02xh",
                     n, to, from, fr, a.dseg, cap);
  if (memmsg && a.rsv && a.rseg != cap && sw_part(&x->s->lk[in->link]) == 2)
    ual_findings_add(x->f, UAL_R_PS_SW_DSP_BLOCK, -1,
                     "%s from downstream link %u (frame %llu) forwarded to link %u: Requester Segment %02xh is not the switch's %02xh",
                     n, from, fr, to, a.rseg, cap);
}

static bool np_mem(const struct ual_pcie_xl_in *t) {
  return t->ty->fc == UAL_TLP_FC_NPR && t->ty->hdr == UAL_TLP_H_MEM && t->type != 0x02 && t->type != 0x42;
}

/* A request the RC forwards from one Root Port to another. */
static void rc_request(const struct xctx *x, struct ual_pcie_xl_tlp *in, bool takeover) {
  const struct ual_pcie_xl_in *t = x->t;
  struct segv a = segv_kept(in), b = segv_of(t->type, t->ty, t->a, t->c);
  const char *n = t->ty->name;
  unsigned from = index_of(x, in->link), to = index_of(x, t->link), seg;
  unsigned long long fr = (unsigned long long)in->frame;
  if (takeover) {
    if (b.rsv && rp_seg(x, t->link, &seg) && b.rseg != seg)
      ual_findings_add(x->f, UAL_R_PS_TO_EGRESS_RSEG, -1,
                       "%s taken over to link %u from link %u (frame %llu): Requester Segment %02xh, the egress Root Port's is %02xh",
                       n, to, from, fr, b.rseg, seg);
  } else {
    bool uio = t->type == 0x22 || t->type == 0x61;
    if ((np_mem(t) || uio) && !a.rsv && (!b.rsv || (rp_seg(x, in->link, &seg) && b.rseg != seg))) {
      if (!b.rsv)
        ual_findings_add(x->f, UAL_R_PS_PT_ADD_RSEG, -1,
                         "%s passed through to link %u from link %u (frame %llu) without OHC-C Requester Segment", n, to,
                         from, fr);
      else
        ual_findings_add(x->f, UAL_R_PS_PT_ADD_RSEG, -1,
                         "%s passed through to link %u from link %u (frame %llu): Requester Segment %02xh, the ingress Root Port's is %02xh",
                         n, to, from, fr, b.rseg, seg);
    }
    if (np_mem(t) && x->s->prof.no_nfm_subtree[to] == 0)
      ual_findings_add(x->f, UAL_R_PS_TO_REQUIRED, -1,
                       "%s passed through to link %u from link %u (frame %llu): its Root Port may have an NFM subtree "
                       "(No NFM Subtree Below clear), the RC must take the request over",
                       n, to, from, fr);
  }
  if (t->ty->fc != UAL_TLP_FC_NPR) {
    in->kind = UAL_XL_FREE;
    return;
  }
  /* waits for its completions on the egress link */
  in->kind = UAL_XL_FWD;
  in->out_link = (uint8_t)t->link;
  in->takeover = takeover;
  in->rid = (uint16_t)ual_field_get(UAL_F_PCIE_REQ_RID, t->dw0);
  in->tag = (uint16_t)ual_field_get(UAL_F_PCIE_REQ_TAG, t->dw0);
}

/* A completion coming up at a Root Port: one of a forwarded request's is
 * kept, to leave at the request's ingress Root Port with its original ID. */
static void rc_cpl_in(struct ual_pcie_xl *x, const struct ual_pcie_xl_in *t) {
  unsigned dest = (unsigned)ual_field_get(UAL_F_PCIE_CPL_DEST, t->dw0), tag = (unsigned)ual_field_get(UAL_F_PCIE_CPL_TAG, t->dw0);
  for (unsigned i = 0; i < UAL_PCIE_XL_KEPT; i++) {
    struct ual_pcie_xl_tlp *q = &x->t[i];
    if (q->kind != UAL_XL_FWD || q->out_link != t->link || q->rid != dest || q->tag != tag) continue;
    unsigned bc = (unsigned)ual_field_get(UAL_F_PCIE_CPL_BC, t->dw0), len = length_of(t->dw0);
    bool last = !t->ty->data || bc <= 4u * (len ? len : 1024u);
    uint8_t in_link = q->link, takeover = q->takeover;
    uint16_t rid = (uint16_t)ual_field_get(UAL_F_PCIE_REQ_RID, q->hdr), otag = (uint16_t)ual_field_get(UAL_F_PCIE_REQ_TAG, q->hdr);
    if (last) q->kind = UAL_XL_FREE;
    struct ual_pcie_xl_tlp *e = keep(x, UAL_XL_CPL, UAL_XL_RC, t);
    e->out_link = in_link;
    e->takeover = takeover;
    e->rid = rid;
    e->tag = otag;
    return;
  }
}

/* Completer ID, Lower Address and Byte Count: what the RC leaves alone. */
static bool same_cpl(const struct ual_pcie_xl_tlp *k, const struct ual_pcie_xl_in *t) {
  return k->hdr[0] == t->type && length_of(k->hdr) == length_of(t->dw0) && !memcmp(k->hdr + 4, t->dw0 + 4, 2) &&
         (k->hdr[6] & 0x40) == (t->dw0[6] & 0x40) && !memcmp(k->hdr + 10, t->dw0 + 10, 2);
}

/* A completion leaving down a Root Port: the kept one it forwards, with
 * the ID it must carry on any link, else with another ID on the link it
 * must leave on (oldest first). Another ID is judged only when it belongs
 * to no request the capture may have missed: the completion answers no
 * request seen on its link, and for a takeover it carries the ID the RC
 * gave the request on the egress link (the one it did not restore). */
static void rc_cpl_out(const struct xctx *x) {
  const struct ual_pcie_xl_in *t = x->t;
  struct ual_pcie_xl *xl = &x->s->xl;
  unsigned dest = (unsigned)ual_field_get(UAL_F_PCIE_CPL_DEST, t->dw0), tag = (unsigned)ual_field_get(UAL_F_PCIE_CPL_TAG, t->dw0);
  struct ual_pcie_xl_tlp *exact = NULL, *other = NULL;
  for (unsigned i = 0; i < UAL_PCIE_XL_KEPT; i++) {
    struct ual_pcie_xl_tlp *k = &xl->t[i];
    if (k->kind != UAL_XL_CPL || k->link == t->link || !same_cpl(k, t)) continue;
    if (k->rid == dest && k->tag == tag) {
      if (!exact || k->order < exact->order) exact = k;
    } else if (k->out_link == t->link && t->unanswered && (!other || k->order < other->order) &&
               (!k->takeover || (ual_field_get(UAL_F_PCIE_CPL_DEST, k->hdr) == dest &&
                                 ual_field_get(UAL_F_PCIE_CPL_TAG, k->hdr) == tag))) {
      other = k;
    }
  }
  struct ual_pcie_xl_tlp *k = exact ? exact : other;
  if (!k) return;
  const char *n = t->ty->name;
  unsigned from = index_of(x, k->link), to = index_of(x, t->link), seg;
  unsigned long long fr = (unsigned long long)k->frame;
  struct segv a = segv_kept(k), b = segv_of(t->type, t->ty, t->a, t->c);
  if (!exact && k->takeover)
    ual_findings_add(x->f, UAL_R_PS_TO_RESTORE, -1,
                     "%s from link %u (frame %llu) to link %u with Requester ID %04xh Tag %u, the request's were %04xh Tag %u",
                     n, from, fr, to, dest, tag, k->rid, k->tag);
  else if (!exact)
    ual_findings_add(x->f, UAL_R_PS_PT_CPL_KEEP, -1,
                     "%s passed through from link %u (frame %llu) to link %u with Requester ID %04xh Tag %u, it came with %04xh Tag %u",
                     n, from, fr, to, dest, tag, k->rid, k->tag);
  else if (!k->takeover && (k->has_a != (t->a != NULL) || (k->has_a && memcmp(k->a, t->a, 4))))
    ual_findings_add(x->f, UAL_R_PS_PT_CPL_KEEP, -1,
                     "%s passed through from link %u (frame %llu) to link %u with OHC-A5 changed (DSV %u->%u, Destination "
                     "Segment %02xh->%02xh, Completer Segment %02xh->%02xh)",
                     n, from, fr, to, a.dsv, b.dsv, a.dseg, b.dseg, a.cseg, b.cseg);
  if (exact && !k->takeover && t->link != k->out_link && a.dsv && rp_seg(x, t->link, &seg) && seg != a.dseg)
    ual_findings_add(x->f, UAL_R_PS_PT_CPL_ROUTE, -1,
                     "%s from link %u (frame %llu) with Destination Segment %02xh sent down link %u, whose Root Port's is %02xh",
                     n, from, fr, a.dseg, to, seg);
  k->kind = UAL_XL_FREE;
}

void ual_pcie_xl_tlp(struct ual_pcie_an *s, const struct ual_pcie_xl_in *t, struct ual_findings *f) {
  const struct ual_pcie_tlp_type *ty = t->ty;
  bool cpl = ty->hdr == UAL_TLP_H_CPL, req = !cpl && (ty->hdr == UAL_TLP_H_MEM || ty->hdr == UAL_TLP_H_CFG || ty->hdr == UAL_TLP_H_MSG);
  if (!cpl && !req) return;
  struct xctx x = { s, t, f };
  int sw = enters(s, UAL_XL_SWITCH, t->link, t->up), rc = enters(s, UAL_XL_RC, t->link, t->up);
  if (sw == 0) {
    struct ual_pcie_xl_tlp *in = find_in(&s->xl, UAL_XL_SWITCH, t, false);
    if (in) {
      switch_rules(&x, in);
      in->kind = UAL_XL_FREE;
    }
  }
  if (rc == 0 && cpl) rc_cpl_out(&x);
  if (rc == 0 && ty->hdr == UAL_TLP_H_MEM) {
    struct ual_pcie_xl_tlp *in = find_in(&s->xl, UAL_XL_RC, t, false);
    bool takeover = !in && np_mem(t);
    if (takeover) in = find_in(&s->xl, UAL_XL_RC, t, true);
    if (in) rc_request(&x, in, takeover);
  }
  if (sw == 1) keep(&s->xl, UAL_XL_IN, UAL_XL_SWITCH, t);
  if (rc == 1 && cpl) rc_cpl_in(&s->xl, t);
  if (rc == 1 && ty->hdr == UAL_TLP_H_MEM) keep(&s->xl, UAL_XL_IN, UAL_XL_RC, t);
}
