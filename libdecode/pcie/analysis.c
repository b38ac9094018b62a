/* Stateful DLLP analysis (analysis.h): one explicit switch per DLLP
 * layout and FC stage; every surprise is a PD- finding. */
#include "ualink/pcie/analysis.h"
#include "ualink/core/analysis.h"
#include "ualink/core/fields.h"
#include "ualink/ualink/flit.h"
#include "xlink.h"
#include "nftx.h"

#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define HDR_MOD  256u    /* HdrFC is 8 bits */
#define DATA_MOD 4096u   /* DataFC is 12 bits */

const char *ual_pcie_fc_phase_name(unsigned p) {
  static const char *const n[] = { "unknown", "FC_INIT1", "FC_INIT2", "FC_UPDATE", "not initialised" };
  return p < 5 ? n[p] : "?";
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
  s->seen = s->pm_req = s->pm_acking = s->pm_acked = 0;
  s->ack_known = 0;
}

static void flow_forget(struct ual_pcie_flow *fl) {
  fl->seq_known = 0;
  ual_pcie_walk_lose(&fl->walk);
}

static void link_init(struct ual_pcie_link_an *l, unsigned index, uint64_t t0_ns) {
  memset(l, 0, sizeof *l);
  l->used = 1;
  l->index = (uint8_t)index;
  l->win.from_ns = t0_ns;
  forget(&l->s[0]);
  forget(&l->s[1]);
  ual_pcie_walk_init(&l->fl[0].walk);
  ual_pcie_walk_init(&l->fl[1].walk);
}

void ual_pcie_an_init(struct ual_pcie_an *s) {
  memset(s, 0, sizeof *s);
  memset(s->prof.no_nfm_subtree, UAL_UNKNOWN, sizeof s->prof.no_nfm_subtree);
  s->cfg.dl.nak_new_tlps = 1;
  s->cfg.dl.rx_mps = 4096;
  s->cfg.cpl_timeout_ns = 50000000;   /* 50 ms [P30] */
}

/* An unsigned number from lo to hi with an optional unit suffix (units:
 * "ns"/"us"/"ms"/"s" scale to ns; NULL: none allowed). */
static bool number(const char *v, uint64_t lo, uint64_t hi, bool time, uint64_t *out) {
  char *end;
  if (!v || *v < '0' || *v > '9') return false;
  unsigned long long x = strtoull(v, &end, 10);
  uint64_t mul = 1;
  if (time) {
    if (!*end || !strcmp(end, "ns")) mul = 1;
    else if (!strcmp(end, "us")) mul = 1000;
    else if (!strcmp(end, "ms")) mul = 1000000;
    else if (!strcmp(end, "s")) mul = 1000000000;
    else return false;
  } else if (*end) {
    return false;
  }
  if (x > hi / mul || x * mul < lo) return false;
  *out = x * mul;
  return true;
}

int ual_pcie_an_option(struct ual_pcie_an *s, const char *name, const char *value) {
  struct ual_pcie_nf_cfg *c = &s->cfg;
  uint64_t v = 0;
  if (!strcmp(name, "nak-new-tlps")) {
    if (!number(value, 0, 2047, false, &v)) return -1;
    c->dl.nak_new_tlps = (uint16_t)v;
  } else if (!strcmp(name, "cpl-timeout")) {
    if (!number(value, 1, UINT64_C(3600000000000), true, &v)) return -1;
    c->cpl_timeout_ns = v;
  } else if (!strcmp(name, "rx-mps")) {
    if (!number(value, 128, 4096, false, &v) || (v & (v - 1))) return -1;
    c->dl.rx_mps = (uint16_t)v;
  } else if (!strcmp(name, "replay-timer")) {
    if (!number(value, 1, 10000000, false, &v)) return -1;
    c->dl.replay_timer = (uint32_t)v;
  } else if (!strcmp(name, "l0s-exit")) {
    if (!number(value, 0, 10000000, false, &v)) return -1;
    c->dl.l0s_exit = (uint32_t)v;
  } else if (!strcmp(name, "extended-synch")) {
    c->dl.ext_synch = 1;
  } else if (!strcmp(name, "ari")) {
    /* a comma-separated list of link indexes */
    for (const char *p = value; p && *p;) {
      char *end;
      if (*p < '0' || *p > '9') return -1;
      unsigned long l = strtoul(p, &end, 10);
      if (l > 255 || (*end && *end != ',')) return -1;
      c->ari[l] = 1;
      p = *end ? end + 1 : end;
    }
  } else {
    return 0;
  }
  return 1;
}

void ual_pcie_an_nfm_subtree(struct ual_pcie_an *s, unsigned link, bool none_below) {
  s->prof.no_nfm_subtree[link & 0xFF] = (int8_t)none_below;
}

const struct ual_pcie_link_an *ual_pcie_an_link(const struct ual_pcie_an *s, unsigned link) {
  for (unsigned i = 0; i < UAL_PCIE_LINKS; i++)
    if (s->lk[i].used && s->lk[i].index == link) return &s->lk[i];
  return NULL;
}

void ual_pcie_an_walk(const struct ual_pcie_an *s, unsigned link, unsigned dir, struct ual_pcie_walk *out) {
  const struct ual_pcie_link_an *l = ual_pcie_an_link(s, link);
  if (l) *out = l->fl[dir & 1].walk;
  else ual_pcie_walk_init(out);
}

/* The preset InitFC values of link l (ual_pcie_an_preset_initfc), as if
 * its InitFC DLLPs had been seen. */
static void initfc_apply(const struct ual_pcie_profile *prof, struct ual_pcie_link_an *l) {
  for (unsigned i = 0; i < UAL_PCIE_MAX_INITFC; i++) {
    const struct ual_pcie_initfc *e = &prof->initfc[i];
    if (!e->used || (e->link >= 0 && e->link != l->index)) continue;
    struct ual_pcie_side *sd = &l->s[e->side];
    sd->vc[e->vc].init[e->cls] = e->v;
    if (sd->scaling == UAL_UNKNOWN || e->v.hdr_scale || e->v.data_scale)
      sd->scaling = (int8_t)(e->v.hdr_scale || e->v.data_scale);
  }
}

static const char *class_name(unsigned c);

bool ual_pcie_an_preset_initfc(struct ual_pcie_an *s, const char *arg, char *err, size_t cap) {
  const char *p = arg;
  while (*p) {
    size_t len = strcspn(p, ",");
    char tok[64];
    snprintf(tok, sizeof tok, "%.*s", (int)(len < 63 ? len : 63), p);
    p += len + (p[len] == ',');
    int link = -1, n = 0;
    unsigned vc, hdr, data, hs = 0, ds = 0;
    char side = 0, cls[4] = "";
    const char *t = tok;
    if (sscanf(t, "%d:%n", &link, &n) == 1 && n) t += n;
    else link = -1;
    n = 0;
    int got = sscanf(t, "%c:VC%u:%3[A-Za-z]=%u/%u%n", &side, &vc, cls, &hdr, &data, &n), m = 0;
    if (got == 5 && t[n] == ':' && sscanf(t + n, ":%u/%u%n", &hs, &ds, &m) == 2) n += m;
    int c = !strcmp(cls, "P") ? UAL_PCIE_P : !strcmp(cls, "NP") ? UAL_PCIE_NP : !strcmp(cls, "Cpl") ? UAL_PCIE_CPL : -1;
    if (got != 5 || t[n] || (side != 'A' && side != 'B') || vc >= UAL_PCIE_VCS || c < 0 || link > 254 || len > 63) {
      snprintf(err, cap, "--pcie-initfc needs [LINK:]A|B:VCn:P|NP|Cpl=HDRFC/DATAFC[:HDRSCALE/DATASCALE], not '%s'", tok);
      return false;
    }
    if (hdr > 255 || data > 4095 || hs > 3 || ds > 3) {
      snprintf(err, cap, "--pcie-initfc: HdrFC 0-255, DataFC 0-4095, scales 0-3, not '%s'", tok);
      return false;
    }
    if (!s) continue;
    struct ual_pcie_initfc *e = NULL;
    for (unsigned i = 0; i < UAL_PCIE_MAX_INITFC && !e; i++) {
      struct ual_pcie_initfc *x = &s->prof.initfc[i];
      if (!x->used || (x->link == link && x->side == (side == 'B') && x->vc == vc && x->cls == c)) e = x;
    }
    if (!e) {
      snprintf(err, cap, "--pcie-initfc: at most %u values, '%s' is one too many", UAL_PCIE_MAX_INITFC, tok);
      return false;
    }
    *e = (struct ual_pcie_initfc){ 1, (uint8_t)(side == 'B'), (uint8_t)vc, (uint8_t)c, (int16_t)link,
                                   { 1, (uint8_t)hs, (uint8_t)ds, (uint16_t)hdr, (uint16_t)data } };
  }
  if (s)
    for (unsigned i = 0; i < UAL_PCIE_LINKS; i++)
      if (s->lk[i].used) initfc_apply(&s->prof, &s->lk[i]);
  return true;
}

int ual_pcie_an_preset_initfc_text(const struct ual_pcie_an *s, char *buf, size_t cap) {
  size_t n = 0;
  unsigned links = 0;
  for (unsigned i = 0; i < UAL_PCIE_LINKS; i++) links += s->lk[i].used;
  if (cap) buf[0] = 0;
  for (unsigned i = 0; i < UAL_PCIE_LINKS; i++) {
    const struct ual_pcie_link_an *l = &s->lk[i];
    if (!l->used) continue;
    for (unsigned d = 0; d < 2; d++)
      for (unsigned vc = 0; vc < UAL_PCIE_VCS; vc++)
        for (unsigned c = 0; c < UAL_PCIE_CLASSES; c++) {
          const struct ual_pcie_fc_vals *v = &l->s[d].vc[vc].init[c];
          if (!v->known || n >= cap) continue;
          char lk[8] = "", sc[16] = "";
          if (links > 1) snprintf(lk, sizeof lk, "%u:", l->index);
          if (v->hdr_scale || v->data_scale) snprintf(sc, sizeof sc, ":%u/%u", v->hdr_scale, v->data_scale);
          n += (size_t)snprintf(buf + n, cap - n, "%s%s%c:VC%u:%s=%u/%u%s", n ? "," : "", lk, d ? 'B' : 'A', vc,
                                class_name(c), v->hdr, v->data, sc);
        }
  }
  return (int)(n < cap ? n : cap ? cap - 1 : 0);
}

/* The slot of a link index, a free one taken for it when create; NULL
 * when absent or the table is full. */
static struct ual_pcie_link_an *link_slot(struct ual_pcie_an *s, unsigned link, bool create) {
  struct ual_pcie_link_an *l = (struct ual_pcie_link_an *)ual_pcie_an_link(s, link);
  if (l || !create) return l;
  for (unsigned i = 0; i < UAL_PCIE_LINKS; i++)
    if (!s->lk[i].used) {
      link_init(&s->lk[i], link, s->t0_ns);
      initfc_apply(&s->prof, &s->lk[i]);
      return &s->lk[i];
    }
  return NULL;
}

static void flit_step(struct ual_pcie_an *s, struct ual_pcie_link_an *l, struct ual_rec_result *r,
                      const struct ual_fabric_step *c);

void ual_pcie_lat_add(struct ual_pcie_lat *l, uint64_t ns) {
  if (!l->n || ns < l->min_ns) l->min_ns = ns;
  if (ns > l->max_ns) l->max_ns = ns;
  l->n++;
  l->sum_ns += ns;
}

/* ---- non-flit data link and transactions (pcie.md §7.5, §7.6) ---- */

/* Where a record of the link is, for the DL trackers. */
static struct ual_nfdl_at nf_at(const struct ual_pcie_an *an, const struct ual_pcie_link_an *l, struct ual_rec_result *r,
                                const struct ual_fabric_step *c, unsigned dir, unsigned bytes, bool stripped) {
  const struct ual_rec_hdr *h = &r->rec.h;
  struct ual_nfdl_at at = { &r->findings, side_name(dir), h->rate, h->width, l->os_seen, c->ts_ns * 4u, 0, &an->cfg.dl };
  if (!stripped) at.last_q = ual_nfdl_last_q(at.first_q, h->rate, h->width, bytes);
  return at;
}

/* [P39]: both directions unsynchronized, the requests void, the window
 * reopened at this record. */
static void nf_desync(struct ual_pcie_link_an *l, const struct ual_fabric_step *c) {
  for (unsigned d = 0; d < 2; d++) {
    if (l->dl[d].sync)
      ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_PCIE_DL, d, 0, 1, "%c DL not synchronized (records lost or link down)",
                        side_name(d));
    ual_nfdl_reset(&l->dl[d], false);
  }
  ual_nftx_reset(l->fl, &l->win, false, c->ts_ns);
  l->init_said = 0;
}

/* A VC0 InitFC1 from either side: the DL is being initialized [P39]. */
static void nf_dl_init(struct ual_pcie_link_an *l, struct ual_rec_result *r, const struct ual_fabric_step *c) {
  for (unsigned d = 0; d < 2; d++) {
    ual_nfdl_reset(&l->dl[d], true);
    l->s[d].ack_known = 0;   /* Ack/Nak numbers restart with the DL */
  }
  ual_nftx_reset(l->fl, &l->win, true, c->ts_ns);
  if (l->init_said) return;
  l->init_said = 1;
  ual_findings_add(&r->findings, UAL_R_PN_SYNC, -1, "DL initialization (VC0 InitFC1 from %c): both directions synchronized",
                   side_name(r->dir));
  ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_PCIE_DL, UAL_PARTNER_LINK, 2, UAL_UNKNOWN, "DL initialization");
}

/* REPLAY_TIMER and --cpl-timeout against this record's time. */
static void nf_time(struct ual_pcie_an *an, struct ual_pcie_link_an *l, struct ual_rec_result *r,
                    const struct ual_fabric_step *c) {
  for (unsigned d = 0; d < 2; d++) {
    struct ual_nfdl_at at = nf_at(an, l, r, c, d, 0, true);
    ual_nfdl_timer(&l->dl[d], &at);
  }
  ual_nftx_timeouts(l->fl, &l->win, c->ts_ns, an->cfg.cpl_timeout_ns, &r->findings);
}

/* A record of direction d occupies d's transmitter: the other direction's
 * Ack latency interval takes it off. */
static void nf_busy(struct ual_pcie_an *an, struct ual_pcie_link_an *l, struct ual_rec_result *r,
                    const struct ual_fabric_step *c, unsigned bytes, bool stripped) {
  struct ual_nfdl_at at = nf_at(an, l, r, c, r->dir, bytes, stripped);
  ual_nfdl_busy(&l->dl[r->dir ^ 1], &at, stripped);
}

/* A kind-7 TLP record: the DL first, then what it delivers [P35]. */
static void nf_tlp(struct ual_pcie_an *an, struct ual_pcie_link_an *l, struct ual_rec_result *r,
                   const struct ual_fabric_step *c) {
  const struct ual_pcie_nf *nf = &r->nf;
  unsigned d = r->dir;
  struct ual_nfdl_tlp p = { UAL_NFDL_UNKNOWN, nf->seq, (uint16_t)(nf->tlp_len + 6u), nf->lcrc_rx, 0 };
  switch (nf->dl) {
  case UAL_PCIE_DL_GOOD: p.verdict = UAL_NFDL_GOOD; break;
  case UAL_PCIE_DL_BAD: p.verdict = UAL_NFDL_BAD; break;
  case UAL_PCIE_DL_NULLIFIED: p.verdict = UAL_NFDL_NULLIFIED; break;
  case UAL_PCIE_DL_UNKNOWN: break;
  default: return;
  }
  bool stripped = nf->encoding == UAL_PCIE_NF_STRIPPED;
  struct ual_nfdl_at at = nf_at(an, l, r, c, d, nf->n, stripped);
  p.last_q = at.last_q;
  l->init_said = 0;
  struct ual_nfdl *t = &l->dl[d];
  uint64_t replays = t->replays;
  bool synced, first = ual_nfdl_tlp(t, &p, &at, &synced);
  if (synced) {
    ual_findings_add(&r->findings, UAL_R_PN_SYNC, -1, "DL from %c synchronized at TLP %03xh", side_name(d), nf->seq);
    ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_PCIE_DL, d, 1, 0, "%c DL synchronized at TLP %03xh", side_name(d),
                      nf->seq);
  }
  if (t->replays != replays)
    ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_PCIE_REPLAY, d, nf->seq, UAL_UNKNOWN, "%c replays from %03xh",
                      side_name(d), nf->seq);
  nf_busy(an, l, r, c, nf->n, stripped);
  if (!first || !nf->accepted) return;
  /* the per-TLP rules judge first deliveries only [P35] */
  struct ual_pcie_nf_rules_cfg rc = { an->cfg.ari[r->rec.h.link], (int8_t)downstream_component(l->role[d]) };
  ual_pcie_nf_tlp_rules(nf, r->rec.body, &rc, &r->findings);
  if (nf->h.complete) ual_nfdl_consume(t, nf->h.fc, nf->h.has_data ? nf->h.len_dw : 0);
  struct ual_nftx_at x = { &l->fl[d], &l->fl[d ^ 1], &l->win, &r->findings, side_name(d), c->frame, c->ts_ns,
                           an->cfg.cpl_timeout_ns };
  ual_nftx_tlp(&x, &nf->h);
}

/* The DL half of a good DLLP (kind 4, or 7), after §2.4 judged it. */
static void nf_dllp(struct ual_pcie_an *an, struct ual_pcie_link_an *l, struct ual_rec_result *r,
                    const struct ual_fabric_step *c) {
  const struct ual_pcie_dllp *p = &r->pcie;
  unsigned d = r->dir;
  bool nf = r->rec.h.kind == UAL_REC_PCIE_NF;
  bool stripped = nf ? r->nf.encoding == UAL_PCIE_NF_STRIPPED : p->framing == UAL_PCIE_FR_UNKNOWN;
  unsigned bytes = nf ? r->nf.n : UAL_PCIE_DLLP_BYTES + 2u;   /* SDP .. END, or the SDP token and 6 bytes */
  struct ual_nfdl_at at = nf_at(an, l, r, c, d, bytes, stripped);
  if (p->layout == UAL_PCIE_L_ACK) {
    bool due;
    at.side = side_name(d ^ 1);   /* the tracker of the TLPs it judges */
    ual_nfdl_acknak(&l->dl[d ^ 1], p->name == UAL_PCIE_DT_NAK, p->seq, &at, &due);
    at.side = side_name(d);
  } else if (p->layout == UAL_PCIE_L_FC && p->stage == UAL_PCIE_INIT1 && p->vc == 0 && p->fc_class <= UAL_PCIE_CPL) {
    nf_dl_init(l, r, c);
  } else if (p->layout == UAL_PCIE_L_PM) {
    ual_nfdl_pm(&l->dl[d], p->type, ual_pcie_dllp_name_str(p->name), &at);
  }
  nf_busy(an, l, r, c, bytes, stripped);
}

/* A PCIe link's ordered set: Recovery (TS1/TS2) holds REPLAY_TIMER. */
static void nf_os(struct ual_pcie_an *an, struct ual_pcie_link_an *l, struct ual_rec_result *r,
                  const struct ual_fabric_step *c) {
  l->os_seen = 1;
  if (r->os.type == UAL_OS_TS1 || r->os.type == UAL_OS_TS2)
    for (unsigned d = 0; d < 2; d++) ual_nfdl_retrain(&l->dl[d]);
  nf_busy(an, l, r, c, (unsigned)r->rec.body_len, false);
}

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

static void fc_step(struct ual_pcie_link_an *s, unsigned d, const struct ual_pcie_dllp *p, const struct ual_fabric_step *c,
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
    } else if ((v->phase == UAL_PCIE_PH_UNKNOWN && cls == UAL_PCIE_P) || v->phase == UAL_PCIE_PH_NONE) {
      /* VC0 initialises first: its round starting shows the side's DL
       * initialisation from its start, no other VC initialised yet */
      if (vc == 0 && v->phase == UAL_PCIE_PH_UNKNOWN)
        for (unsigned k = 1; k < UAL_PCIE_VCS; k++)
          if (me->vc[k].phase == UAL_PCIE_PH_UNKNOWN) me->vc[k].phase = UAL_PCIE_PH_NONE;
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
    if ((v->phase == UAL_PCIE_PH_INIT1 && v->init1_seen != 7) || v->phase == UAL_PCIE_PH_NONE)
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
    else if (v->phase == UAL_PCIE_PH_NONE)
      ual_findings_add(f, UAL_R_PD_FC_ORDER, -1, "%s VC%u from %c: the VC was never initialised (no InitFC1/InitFC2)", n,
                       vc, side_name(d));
    else
      update_values(v, cls, d, vc, p, &cur, f);
    set_phase(v, d, vc, UAL_PCIE_PH_UPDATE, c);
    break;
  }
  v->last[cls] = cur;
  me->adv[vc][cls] = cur;
}

static void pm_step(struct ual_pcie_link_an *s, unsigned d, const struct ual_pcie_dllp *p, const struct ual_fabric_step *c,
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
    if (other->pm_req) me->pm_acked = other->pm_req;
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

static bool l1_request(unsigned type) { return type == 0x20 || type == 0x23; }

/* L1 (pcie.md §2.4 PM): both sides go electrical idle once the upstream
 * component acknowledged a PM_Enter_L1 or PM_Active_State_Request_L1; the
 * link leaves it at electrical idle exit or with its next DLLP or flit. */
static void l1_track(struct ual_pcie_link_an *s, const struct ual_rec_result *r, const struct ual_fabric_step *c) {
  bool ev = r->rec.h.kind == UAL_REC_EVENT;
  if (!s->in_l1) {
    if (!ev || r->ev.code != UAL_EV_EIDLE_ENTER) return;
    for (unsigned d = 0; d < 2; d++)
      if (s->s[d].pm_acked == 0x21 && !s->in_l23) {   /* PM_Enter_L23 acknowledged */
        s->in_l23 = 1;
        ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_PCIE_L23, UAL_PARTNER_LINK, 1, 0,
                          "L2/L3 Ready entry (PM_Enter_L23 acknowledged by %c)", side_name(d));
        return;
      } else if (l1_request(s->s[d].pm_acked)) {
        s->in_l1 = 1;
        ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_L1, UAL_PARTNER_LINK, 1, 0, "L1 entry (%s acknowledged by %c)",
                          ual_pcie_dllp_name_str(ual_pcie_dllp_name_of(s->s[d].pm_acked)), side_name(d));
        return;
      }
    return;
  }
  if (ev && r->ev.code == UAL_EV_EIDLE_ENTER) return;
  s->in_l1 = 0;
  if (!ev || r->ev.code == UAL_EV_EIDLE_EXIT)
    ual_events_add_at(c->ev, c->frame, c->ts_ns, UAL_TEV_L1, UAL_PARTNER_LINK, 0, 1, "L1 exit (%c)", side_name(r->dir));
}

static void link_forget(struct ual_pcie_an *an, struct ual_pcie_link_an *s) {
  forget(&s->s[0]);
  forget(&s->s[1]);
  flow_forget(&s->fl[0]);
  flow_forget(&s->fl[1]);
  ual_pcie_xl_forget(&an->xl, (unsigned)(s - an->lk));
}

static void link_event(struct ual_pcie_an *an, struct ual_pcie_link_an *s, const struct ual_rec_result *r) {
  if (r->ev.code != UAL_EV_EIDLE_ENTER) s->in_l1 = 0;
  link_forget(an, s);
  if (r->ev.code == UAL_EV_CAP_START) initfc_apply(&an->prof, s);   /* the capture starts here, as preset */
  /* a link trained from Detect starts both TLP streams afresh: the next
   * delivered flit begins with a TLP */
  if (r->ev.code == UAL_EV_RX_DETECT) {
    for (unsigned d = 0; d < 2; d++)
      for (unsigned k = 0; k < UAL_PCIE_VCS; k++) s->s[d].vc[k].phase = UAL_PCIE_PH_NONE;
    s->fl[0].walk.synced = s->fl[1].walk.synced = 1;
    memset(&s->seg, 0, sizeof s->seg);   /* the functions below were reset */
    s->seg.reset = 1;
  }
}

/* [P39]: a link from Detect desynchronizes its link (every link when the
 * link is unknown or not PCIe's); start, stop and dropped records every
 * link. Other events change nothing of the non-flit DL. */
static void nf_event(struct ual_pcie_an *an, struct ual_pcie_link_an *l, const struct ual_rec_result *r,
                     const struct ual_fabric_step *c) {
  unsigned code = r->ev.code;
  bool all = code == UAL_EV_CAP_START || code == UAL_EV_CAP_STOP || code == UAL_EV_DROPPED ||
             (code == UAL_EV_RX_DETECT && (!l || r->rec.h.link == 255));
  if (code == UAL_EV_EIDLE_ENTER && l)
    for (unsigned d = 0; d < 2; d++) ual_nfdl_idle(&l->dl[d]);
  if (all) {
    for (unsigned i = 0; i < UAL_PCIE_LINKS; i++)
      if (an->lk[i].used) nf_desync(&an->lk[i], c);
  } else if (code == UAL_EV_RX_DETECT) {
    nf_desync(l, c);
  }
  if (l && code != UAL_EV_EIDLE_ENTER) l->in_l23 = 0;
}

void ual_pcie_an_step(struct ual_pcie_an *an, struct ual_rec_result *r, const struct ual_fabric_step *c) {
  const struct ual_rec_hdr *h = &r->rec.h;
  if (!an->t0_known) {   /* the capture start: the PN-CPL-NO-REQUEST window opens [P40] */
    an->t0_known = 1;
    an->t0_ns = c->ts_ns;
  }
  if (h->kind == UAL_REC_EVENT) {
    /* a PCIe link's event is its own; any other (a UALink link's, dropped
     * datagrams) forgets every link, as the capture may have lost records */
    struct ual_pcie_link_an *l = link_slot(an, h->link, h->roles_pcie && r->ev.code != UAL_EV_DROPPED);
    if (l && h->roles_pcie) {
      ual_events_rate_seen(c->ev, c->frame, c->ts_ns, r->dir, &l->rate[r->dir], h->rate);
      ual_events_width_seen(c->ev, c->frame, c->ts_ns, r->dir, &l->width[r->dir], h->width);
      l1_track(l, r, c);
    }
    nf_event(an, l && h->roles_pcie ? l : NULL, r, c);
    if (l && r->ev.code != UAL_EV_DROPPED) link_event(an, l, r);
    else if (!h->roles_pcie || r->ev.code == UAL_EV_DROPPED)
      for (unsigned i = 0; i < UAL_PCIE_LINKS; i++)
        if (an->lk[i].used) link_event(an, &an->lk[i], r);
    if (l && h->roles_pcie) {
      l->role[0] = h->role_a;
      l->role[1] = h->role_b;
    }
    return;
  }
  /* Records lost before this one, of any link and direction (a UDP
   * receiver cannot tell what a lost datagram held): every link starts over */
  if (h->flags & UAL_RF_LOST)
    for (unsigned i = 0; i < UAL_PCIE_LINKS; i++)
      if (an->lk[i].used) {
        nf_desync(&an->lk[i], c);
        link_forget(an, &an->lk[i]);
        an->lk[i].in_l1 = 0;
        memset(&an->lk[i].seg, 0, sizeof an->lk[i].seg);   /* a reset or a capturing write may be among the lost */
      }
  struct ual_pcie_link_an *s = link_slot(an, h->link, true);
  if (!s) {
    an->other_links++;
    return;
  }
  if (h->roles_pcie) {
    s->role[0] = h->role_a;
    s->role[1] = h->role_b;
  }
  ual_events_rate_seen(c->ev, c->frame, c->ts_ns, r->dir, &s->rate[r->dir], h->rate);
  ual_events_width_seen(c->ev, c->frame, c->ts_ns, r->dir, &s->width[r->dir], h->width);
  nf_time(an, s, r, c);
  if (h->kind == UAL_REC_OS) {
    nf_os(an, s, r, c);
    return;
  }
  l1_track(s, r, c);
  if (h->kind == UAL_REC_PCIE_FLIT) {
    flit_step(an, s, r, c);
    return;
  }
  if (h->kind == UAL_REC_PCIE_NF && !ual_pcie_nf_is_dllp(&r->nf)) {
    nf_tlp(an, s, r, c);
    return;
  }
  /* a kind-7 DLLP is a kind-4 one; truncated or not parsed, it changes no state [P45] */
  if (h->kind == UAL_REC_PCIE_NF && (r->nf.truncated || !r->nf.dllp_decoded)) return;
  unsigned d = r->dir;
  struct ual_pcie_side *me = &s->s[d];
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
  nf_dllp(an, s, r, c);
}

void ual_pcie_an_finish(struct ual_pcie_an *s, struct ual_findings *f, const struct ual_fabric_step *c) {
  (void)s;
  (void)f;
  (void)c;
}

/* ---- flit mode (kind 5) ---- */

/* ---- Segment Captured (pcie.md §4 [P16]) ---- */

/* The slot of bdf in a function table, -1 when absent. */
static int fn_index(const struct ual_pcie_fn_seg *t, unsigned bdf) {
  for (unsigned i = 0; i < UAL_PCIE_MAX_FUNCS; i++)
    if (t[i].state && t[i].bdf == bdf) return (int)i;
  return -1;
}

/* bdf's slot, a free one taken for it when absent; NULL when full. */
static struct ual_pcie_fn_seg *fn_slot(struct ual_pcie_fn_seg *t, unsigned bdf) {
  int i = fn_index(t, bdf);
  if (i >= 0) return &t[i];
  for (unsigned k = 0; k < UAL_PCIE_MAX_FUNCS; k++)
    if (!t[k].state) {
      t[k].bdf = (uint16_t)bdf;
      return &t[k];
    }
  return NULL;
}

bool ual_pcie_an_preset(struct ual_pcie_an *s, unsigned bdf, int seg) {
  struct ual_pcie_fn_seg *f = fn_slot(s->prof.preset, bdf & 0xFFFF);
  if (!f) return false;
  f->state = seg < 0 ? UAL_SEG_CLEAR : UAL_SEG_SET;
  f->seg = (uint8_t)(seg < 0 ? 0 : seg);
  return true;
}

unsigned ual_pcie_seg_of(const struct ual_pcie_an *s, const struct ual_pcie_link_an *l, unsigned bdf, bool below,
                         unsigned *seg) {
  int i = fn_index(s->prof.preset, bdf);
  const struct ual_pcie_fn_seg *f = i >= 0 ? &s->prof.preset[i] : NULL;
  if (!f && (i = fn_index(l->seg.fn, bdf)) >= 0) f = &l->seg.fn[i];
  if (f) {
    *seg = f->seg;
    return f->state == UAL_SEG_PENDING ? UAL_SEG_UNKNOWN : f->state;
  }
  return below && l->seg.reset ? UAL_SEG_CLEAR : UAL_SEG_UNKNOWN;
}

/* A Type 0 Configuration Write with OHC-A3 DSV = 1 from the upstream
 * side: the first one sets the target's segment once it completes.
 * Whether it captures. */
static bool seg_capture(struct ual_pcie_seg *sg, unsigned bdf, unsigned seg) {
  struct ual_pcie_fn_seg *f = fn_slot(sg->fn, bdf);
  if (!f) {
    sg->untracked++;
    return false;
  }
  if (f->state == UAL_SEG_SET || f->state == UAL_SEG_PENDING) return false;
  f->state = UAL_SEG_PENDING;
  f->seg = (uint8_t)seg;
  return true;
}

/* The capturing write's completion: Set on success (no OHC-A5: status
 * SC), forgotten otherwise. */
static void seg_captured(struct ual_pcie_seg *sg, unsigned bdf, const uint8_t *a5) {
  int i = fn_index(sg->fn, bdf);
  if (i < 0 || sg->fn[i].state != UAL_SEG_PENDING) return;
  if (a5 && ual_field_get(UAL_F_PCIE_A5_STATUS, a5)) memset(&sg->fn[i], 0, sizeof sg->fn[i]);
  else sg->fn[i].state = UAL_SEG_SET;
}

/* ---- one walked TLP ---- */

struct tlp_ctx {
  struct ual_pcie_an *s;
  struct ual_pcie_link_an *l;
  struct ual_findings *f;
  unsigned d;
  struct ual_pcie_flow *me, *other;   /* the sender's flow and the receiver's */
  const struct ual_fabric_step *c;
  struct ual_pcie_tlps *out;          /* the record's TLPs */
  struct ual_pcie_tlp_rec *cur;       /* this TLP's entry there, NULL when not kept */
};

/* A TLP's header base and OHC words (NULL when absent or not held). */
struct tlp_view {
  const struct ual_pcie_tlp_type *ty;
  const uint8_t *dw0, *a, *c;
  unsigned type;
  int up;                    /* sent by the downstream component (EP, switch USP): 1, 0, UAL_UNKNOWN */
};

/* The target of an ID-routed message is in another hierarchy than a
 * requester of segment cap: only the profile (--segment) says where a BDF
 * lives, BDFs repeat across segments. */
static bool other_hierarchy(const struct ual_pcie_an *s, unsigned bdf, unsigned cap, unsigned *seg) {
  int i = fn_index(s->prof.preset, bdf);
  if (i < 0 || s->prof.preset[i].state != UAL_SEG_SET || s->prof.preset[i].seg == cap) return false;
  *seg = s->prof.preset[i].seg;
  return true;
}

/* The requester rules on a request the downstream component sent (§4
 * requester rows), from its function's Segment Captured. */
static void req_seg_checks(const struct tlp_ctx *x, const struct tlp_view *v) {
  unsigned rid = (unsigned)ual_field_get(UAL_F_PCIE_REQ_RID, v->dw0), cap = 0;
  unsigned st = ual_pcie_seg_of(x->s, x->l, rid, true, &cap);
  if (st == UAL_SEG_UNKNOWN) return;
  bool msg = v->ty->hdr == UAL_TLP_H_MSG, mem = v->ty->hdr == UAL_TLP_H_MEM && v->type != 0x02 && v->type != 0x42;
  if (!msg && !mem) return;
  const char *n = v->ty->name;
  char sd = side_name(x->d);
  unsigned sub = v->c ? (unsigned)ual_field_get(UAL_F_PCIE_C_SUBSTREAM, v->c) : 7;
  bool rsv = v->c && ual_field_get(UAL_F_PCIE_C_RSV, v->c);
  unsigned rseg = v->c ? (unsigned)ual_field_get(UAL_F_PCIE_C_RSEG, v->c) : 0;
  if (st == UAL_SEG_CLEAR) {
    if (v->c && sub == 7)
      ual_findings_add(x->f, UAL_R_PS_REQ_CLEAR_NOC, -1, "%s from %c: requester %04xh is Clear but sent OHC-C", n, sd,
                       rid);
    if ((v->type == 0x32 || v->type == 0x72) && v->a && ual_field_get(UAL_F_PCIE_A4_DSV, v->a))
      ual_findings_add(x->f, UAL_R_PS_REQ_ID_DSV_CLEAR, -1,
                       "%s from %c: requester %04xh is Clear but OHC-A4 DSV = 1 (Destination Segment %02xh)", n, sd, rid,
                       (unsigned)ual_field_get(UAL_F_PCIE_A4_DSEG, v->a));
    return;
  }
  if (rsv && rseg != cap)
    ual_findings_add(x->f, UAL_R_PS_REQ_RSEG_VALUE, -1, "%s from %c: Requester Segment %02xh, requester %04xh captured %02xh",
                     n, sd, rseg, rid, cap);
  if (msg && !rsv)
    ual_findings_add(x->f, UAL_R_PS_REQ_MSG_RSEG, -1, "%s from %c: requester %04xh is Set (%02xh) but sent no %s", n, sd,
                     rid, cap, v->c ? "RSV = 1" : "OHC-C");
  unsigned tgt = (unsigned)v->dw0[8] << 8 | v->dw0[9], tseg;
  if ((v->type == 0x32 || v->type == 0x72) && other_hierarchy(x->s, tgt, cap, &tseg)) {
    bool dsv = v->a && ual_field_get(UAL_F_PCIE_A4_DSV, v->a);
    unsigned dseg = dsv ? (unsigned)ual_field_get(UAL_F_PCIE_A4_DSEG, v->a) : 0;
    if (!dsv || dseg != tseg)
      ual_findings_add(x->f, UAL_R_PS_REQ_ID_DSV_SET, -1,
                       "%s from %c to %04xh (profile: segment %02xh, requester %04xh %02xh): DSV %u, Destination Segment %02xh",
                       n, sd, tgt, tseg, rid, cap, dsv, dseg);
  }
}

/* The completer rules on a completion (§4 completer rows); q: its request
 * when paired, else NULL (only what needs no request is checked). */
static void cpl_seg_checks(const struct tlp_ctx *x, const struct tlp_view *v, const struct ual_pcie_req *q) {
  struct ual_findings *f = x->f;
  const char *n = v->ty->name;
  char sd = side_name(x->d);
  unsigned cid = (unsigned)ual_field_get(UAL_F_PCIE_CPL_CID, v->dw0), cap = 0;
  unsigned st = ual_pcie_seg_of(x->s, x->l, cid, v->up == 1, &cap);
  const uint8_t *a5 = v->a;
  if (a5) {
    unsigned cseg = (unsigned)ual_field_get(UAL_F_PCIE_A5_CSEG, a5), dseg = (unsigned)ual_field_get(UAL_F_PCIE_A5_DSEG, a5);
    bool dsv = ual_field_get(UAL_F_PCIE_A5_DSV, a5);
    if (st == UAL_SEG_CLEAR && cseg)
      ual_findings_add(f, UAL_R_PS_CPL_SEG_CLEAR, -1, "%s from %c: Completer Segment %02xh, completer %04xh is Clear", n, sd,
                       cseg, cid);
    if (st == UAL_SEG_SET && cseg != cap)
      ual_findings_add(f, UAL_R_PS_CPL_SEG_SET, -1, "%s from %c: Completer Segment %02xh, completer %04xh captured %02xh", n,
                       sd, cseg, cid, cap);
    /* a Root Port's completion with DSV = 1 may be the RC passing through one
     * made in another hierarchy, OHC-A5 kept as its completer made it (seed
     * 004 L40): the completer rule (L126) is judged on the link it was made */
    bool passed = x->l->role[x->d] == 1 && dsv;
    if (q && q->cfg && (dsv || dseg))
      ual_findings_add(f, UAL_R_PS_CPL_CFG, -1, "%s from %c of a configuration request: DSV %u, Destination Segment %02xh",
                       n, sd, dsv, dseg);
    else if (q && !q->cfg && !q->rseg_valid && (dsv || dseg) && !passed)
      ual_findings_add(f, UAL_R_PS_CPL_DSEG_NONE, -1,
                       "%s from %c of a request without Requester Segment: DSV %u, Destination Segment %02xh", n, sd, dsv,
                       dseg);
    else if (q && !q->cfg && q->rseg_valid && (!dsv || dseg != q->rseg))
      ual_findings_add(f, UAL_R_PS_CPL_DSEG_COPY, -1,
                       "%s from %c: DSV %u, Destination Segment %02xh, the request's Requester Segment %02xh", n, sd, dsv,
                       dseg, q->rseg);
    return;
  }
  if (st == UAL_SEG_UNKNOWN) return;
  unsigned sub = v->c ? (unsigned)ual_field_get(UAL_F_PCIE_C_SUBSTREAM, v->c) : 7;
  if (st == UAL_SEG_SET && q && !q->cfg && q->rseg_valid && q->rseg != cap) {
    ual_findings_add(f, UAL_R_PS_CPL_A5_CROSS, -1,
                     "%s from %c without OHC-A5: the request's Requester Segment %02xh, completer %04xh captured %02xh", n,
                     sd, q->rseg, cid, cap);
    return;
  }
  if (st == UAL_SEG_CLEAR)
    ual_findings_add(f, UAL_R_PS_CPL_A5_OMIT, -1, "%s from %c without OHC-A5: completer %04xh is Clear", n, sd, cid);
  else if (sub <= 2)
    ual_findings_add(f, UAL_R_PS_CPL_A5_OMIT, -1, "%s from %c without OHC-A5 in Selective IDE (Sub-Stream %u)", n, sd, sub);
  else if (q && q->la)
    ual_findings_add(f, UAL_R_PS_CPL_A5_OMIT, -1, "%s from %c without OHC-A5: Lower Address[1:0] must be %u%ub", n, sd,
                     q->la >> 1, q->la & 1);
}

/* PS-RP-RSEG-MISMATCH: the Root Port completes a request from below whose
 * Requester Segment is not its hierarchy's with UR (OHC-A5 status 001b). */
static void rp_cpl_check(const struct tlp_ctx *x, const struct tlp_view *v, const struct ual_pcie_req *q) {
  const struct ual_pcie_seg *sg = &x->l->seg;
  if (x->l->role[x->d] != 1 || !sg->rp_known || !q->rseg_valid || q->rseg == sg->rp_seg) return;
  unsigned status = v->a ? (unsigned)ual_field_get(UAL_F_PCIE_A5_STATUS, v->a) : 0;
  if (status != 1)
    ual_findings_add(x->f, UAL_R_PS_RP_RSEG_MISMATCH, -1,
                     "%s from %c: status %u, the request's Requester Segment %02xh is not the Root Port's %02xh (UR)",
                     v->ty->name, side_name(x->d), status, q->rseg, sg->rp_seg);
}

/* Lower Address[1:0] of a read's first byte: the lowest enabled byte of
 * OHC-A1's First DW BE (0 without OHC-A1). */
static unsigned first_la(const struct tlp_view *v) {
  if (!v->a || v->ty->hdr != UAL_TLP_H_MEM) return 0;
  unsigned be = (unsigned)ual_field_get(UAL_F_PCIE_A1_FBE, v->a);
  for (unsigned i = 0; i < 4; i++)
    if (be >> i & 1) return i;
  return 0;
}

/* Segment state the upstream side's configuration requests establish:
 * the Root Port's hierarchy segment, the targets' Segment Captured. */
static bool cfg_seen(const struct tlp_ctx *x, const struct tlp_view *v) {
  if (v->ty->hdr != UAL_TLP_H_CFG || !v->a || v->up != 0 || !ual_field_get(UAL_F_PCIE_A3_DSV, v->a)) return false;
  struct ual_pcie_seg *sg = &x->l->seg;
  unsigned dseg = (unsigned)ual_field_get(UAL_F_PCIE_A3_DSEG, v->a);
  if (x->l->role[x->d] == 1) {
    sg->rp_known = 1;
    sg->rp_seg = (uint8_t)dseg;
  }
  unsigned bdf = (unsigned)ual_field_get(UAL_F_PCIE_CFG_CID, v->dw0);
  if (v->type == 0x44 && !sg->t0_known) {
    sg->t0_known = 1;
    sg->t0_bdf = (uint16_t)bdf;
  }
  /* a Type 1 write seen here reaches its target below a switch as Type 0 */
  return (v->type == 0x44 || v->type == 0x45) && seg_capture(sg, bdf, dseg);
}

/* Request/completion pairing (pcie.md §4 request table, on one link):
 * a non-posted request is kept under (Requester ID, Tag); a completion from
 * the other side with that Destination BDF and Tag pairs with it, and
 * finishes it when it carries no data or its Byte Count fits its payload
 * (Length DW x 4; the Lower Address offset is not taken off). A completion
 * without a kept request is counted, not judged on what needs the request:
 * its request may precede the capture or the walk's sync. */
static void track(const struct tlp_ctx *x, const struct tlp_view *v, bool captures) {
  const struct ual_pcie_tlp_type *ty = v->ty;
  const uint8_t *dw0 = v->dw0;
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
    if (slot->used && x->l->role[x->d] == 1)
      ual_findings_add(x->f, UAL_R_PS_TO_TAG_UNIQUE, -1, "%s from %c: Requester ID %04xh Tag %u already outstanding (%s)",
                       ty->name, side_name(x->d), rid, tag, ual_pcie_tlp_type(slot->type)->name);
    if (!slot->used) me->outstanding++;
    bool rsv = v->c && ual_field_get(UAL_F_PCIE_C_RSV, v->c);
    *slot = (struct ual_pcie_req){ .used = 1, .type = (uint8_t)v->type,
                                   .index = out ? (uint8_t)(out - x->out->v) : 255, .rid = (uint16_t)rid,
                                   .tag = (uint16_t)tag, .frame = x->c->frame, .ts_ns = x->c->ts_ns,
                                   .cfg = ty->hdr == UAL_TLP_H_CFG, .rseg_valid = rsv,
                                   .rseg = (uint8_t)(rsv ? ual_field_get(UAL_F_PCIE_C_RSEG, v->c) : 0),
                                   .la = (uint8_t)first_la(v), .captures = captures };
    if (out) out->link = UAL_PCIE_LK_REQ;
    return;
  }
  if (ty->hdr != UAL_TLP_H_CPL) return;
  struct ual_pcie_flow *req_side = x->other, *me = x->me;
  unsigned rid = (unsigned)ual_field_get(UAL_F_PCIE_CPL_DEST, dw0), tag = (unsigned)ual_field_get(UAL_F_PCIE_CPL_TAG, dw0);
  for (unsigned i = 0; i < UAL_PCIE_MAX_OUTSTANDING; i++) {
    struct ual_pcie_req *q = &req_side->req[i];
    if (!q->used || q->rid != rid || q->tag != tag) continue;
    if (q->captures) seg_captured(&x->l->seg, (unsigned)ual_field_get(UAL_F_PCIE_CPL_CID, dw0), v->a);
    cpl_seg_checks(x, v, q);
    rp_cpl_check(x, v, q);
    unsigned bc = (unsigned)ual_field_get(UAL_F_PCIE_CPL_BC, dw0), len = (unsigned)ual_field_get(UAL_F_PCIE_TLP_LENGTH, dw0);
    bool last = !ty->data || bc <= 4u * (len ? len : 1024u);
    uint64_t ns = x->c->ts_ns >= q->ts_ns ? x->c->ts_ns - q->ts_ns : 0;
    if (q->parts < UINT16_MAX) q->parts++;
    if (out) {
      out->peer_type = q->type;
      out->parts = q->parts;
      out->link = last ? UAL_PCIE_LK_CPL : UAL_PCIE_LK_CPL_PART;
      out->peer_frame = q->frame;
      out->peer_index = q->index;
      out->latency_ns = ns;
    }
    if (!last) {
      me->split_parts++;
      return;
    }
    ual_pcie_lat_add(&me->lat[q->type], ns);
    me->pairs++;
    q->used = 0;
    req_side->outstanding--;
    return;
  }
  me->cpl_unmatched++;
  cpl_seg_checks(x, v, NULL);
  if (out) out->link = UAL_PCIE_LK_CPL_UNMATCHED;
}

/* The stateless TLP rules of §3.6 on one walked TLP, then pairing and the
 * segment rules of §4. Its OHC words follow the header base in A, B, C, E
 * order; only the held header is read. */
static void tlp_checks(void *ctx, const struct ual_pcie_tlp *t) {
  struct tlp_ctx *x = ctx;
  struct ual_findings *f = x->f;
  const uint8_t *dw0 = ual_pcie_tlp_dw0(t);
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
  bool a = ohc & 1, c = ohc & 4;
  unsigned a_dw = t->prefix_held + t->size.base_dw, c_dw = a_dw + (ohc & 1) + (ohc >> 1 & 1);
  struct tlp_view v = { ty, dw0, a && a_dw < t->hdr_dw ? t->hdr + 4u * a_dw : NULL,
                        c && c_dw < t->hdr_dw ? t->hdr + 4u * c_dw : NULL, type,
                        downstream_component(x->l->role[x->d]) };
  bool whole = t->hdr_dw >= t->prefix_held + t->size.base_dw + ual_pcie_ohc_dw(ohc);   /* header base and OHC held */
  if (whole) {
    track(x, &v, cfg_seen(x, &v));
    if (v.up == 1 && ty->fc != UAL_TLP_FC_CPL) req_seg_checks(x, &v);
    if (v.up != UAL_UNKNOWN) {
      struct ual_pcie_xl_in in = { (unsigned)(x->l - x->s->lk), v.up, type, ty, dw0, v.a, v.c, t->size.base_dw,
                                   x->c->frame, x->cur && x->cur->link == UAL_PCIE_LK_CPL_UNMATCHED };
      ual_pcie_xl_tlp(x->s, &in, f);
    }
  }
  bool cfg = ty->hdr == UAL_TLP_H_CFG, io = type == 0x02 || type == 0x42;
  if ((cfg || io) && !a)
    ual_findings_add(f, UAL_R_PF_OHC_MISSING, -1, "%s from %c without OHC-A%c", ty->name, side_name(x->d),
                     cfg ? '3' : '2');
  if ((ts == 5 || ts == 6) && !c)
    ual_findings_add(f, UAL_R_PF_TS_IDE, -1, "%s from %c: TS %u%u%ub without OHC-C", ty->name, side_name(x->d),
                     ts >> 2 & 1, ts >> 1 & 1, ts & 1);
  if (!v.c) return;
  unsigned sub = (unsigned)ual_field_get(UAL_F_PCIE_C_SUBSTREAM, v.c);
  if (sub >= 3 && sub <= 6)
    ual_findings_add(f, UAL_R_PF_SUBSTREAM, -1, "%s from %c: OHC-C Sub-Stream %u%u%ub", ty->name, side_name(x->d),
                     sub >> 2 & 1, sub >> 1 & 1, sub & 1);
  if (ty->fc == UAL_TLP_FC_CPL && ual_field_get(UAL_F_PCIE_C_RSV, v.c))
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

static void flit_step(struct ual_pcie_an *an, struct ual_pcie_link_an *s, struct ual_rec_result *r,
                      const struct ual_fabric_step *c) {
  unsigned d = r->dir;
  struct ual_pcie_flow *fl = &s->fl[d];
  const struct ual_flit_info *fi = &r->flit;
  fl->flits++;
  if (!fi->valid || fi->kind != UAL_FK_PAYLOAD || !first_delivery(fl, &fi->fh)) return;
  fl->delivered++;
  fl->flit_frame[fl->walk.flit % 32] = c->frame;
  struct tlp_ctx x = { an, s, &r->findings, d, fl, &s->fl[d ^ 1], c, &r->tlps, NULL };
  unsigned at = 0;
  if (ual_pcie_walk_flit(&fl->walk, fi->bytes, tlp_checks, &x, &at) == UAL_PW_SYNCED) {
    ual_findings_add(&r->findings, UAL_R_PF_SYNC, -1, "TLP stream from %c aligned at DW %u", side_name(d), at);
    r->tlps.synced_at = (int8_t)at;
  }
}
