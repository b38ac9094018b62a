/* PCIe's presentation model (core/views.h): a link's ends by their roles,
 * its state as the PCIe engineer reads it (power state, DL_Up, flow control
 * per VC, outstanding requests, TLP alignment, Segment Captured), its
 * counters (DLLPs and TLPs by type, completion latency by request type),
 * its lanes and its request -> completion(s) pairs as transactions. */
#include "ualink/core/views.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ualink/core/fields.h"
#include "ualink/pcie/analysis.h"

static bool owns(unsigned kind) {
#define UAL_X_(code, m) if (kind == code) return true;
  UAL_PCIE_ANALYSIS_KINDS(UAL_X_)
#undef UAL_X_
  return false;
}

static const struct ual_pcie_link_an *link_an(const struct ual_view_src *s, unsigned k) {
  return s->fab ? ual_pcie_an_link(&s->fab->pcie, s->tally->l[k].index) : NULL;
}

/* Role abbreviations for a link's name: "RP0 <-> EP". */
static const char *role_short(unsigned role) {
  static const char *const n[8] = { "?", "RP", "USP", "DSP", "EP", "UP", "?", "?" };
  return n[role & 7];
}

static void name_link(const struct ual_view_src *s, unsigned k, struct ual_view_link *l) {
  const struct ual_pcie_link_an *a = link_an(s, k);
  if (!a) return;
  for (unsigned d = 0; d < 2; d++)
    if (a->role[d]) snprintf(l->side[d], sizeof l->side[d], "%s", ual_value_name(ual_vals_pcie_role, a->role[d]));
  if (!a->role[0] && !a->role[1]) return;
  char idx[8] = "";
  if (l->index != 255) snprintf(idx, sizeof idx, "%u", l->index);
  /* the port that tells the link apart (a Root Port, a switch's downstream port) carries the index */
  unsigned upper = a->role[0] == 1 || a->role[0] == 3 ? 0 : a->role[1] == 1 || a->role[1] == 3 ? 1 : 0;
  snprintf(l->name, sizeof l->name, "%s%s <-> %s", role_short(a->role[upper]), idx, role_short(a->role[upper ^ 1]));
}

/* ---- counters ---- */

/* One TLP's bytes and credits by its Type (the flit-mode Type code). */
static void tlp_bytes(struct ual_pcie_dir_tally *p, unsigned type, unsigned fc, uint64_t all, uint64_t data_dw) {
  p->tlp_by_type[type]++;
  p->tlp_bytes += all;
  p->payload_bytes += 4u * data_dw;
  p->bytes_by_type[type] += all;
  p->payload_by_type[type] += 4u * data_dw;
  if (fc != UAL_TLP_FC_NONE) {   /* enum order P, NP, Cpl after NONE */
    p->cr_hdr[fc - UAL_TLP_FC_PR]++;
    p->cr_data[fc - UAL_TLP_FC_PR] += (data_dw + 3u) / 4u;
  }
}

static void tally(struct ual_view_link_tally *t, const struct ual_rec_result *r) {
  struct ual_pcie_dir_tally *p = &t->f.pcie.d[r->dir & 1];
  if (r->rec.h.kind == UAL_REC_OS) {   /* a PCIe link's (the PCIe role encoding) */
    p->os++;
    return;
  }
  if (r->rec.h.kind == UAL_REC_PCIE_NF && !r->nf.dllp_decoded) {
    /* a non-flit TLP (or a packet whose framing names neither) */
    p->nf_tlps++;
    const struct ual_pcie_tlph *h = &r->nf.h;
    if (r->nf.cls != UAL_PCIE_NF_CL_TLP || !h->complete) return;
    p->tlps++;
    /* non-flit byte 0 is the flit-mode Type but for MRd32 (00h there, 03h in flit mode) */
    tlp_bytes(p, h->byte0 ? h->byte0 : 0x03u, h->fc, h->size, h->has_data ? h->len_dw : 0);
    return;
  }
  if (r->rec.h.kind == UAL_REC_PCIE_FLIT) {
    p->flits++;
    if (!r->flit.crc_ok) p->flit_crc_bad++;
    if (r->flit.fec.status == UAL_FEC_CORRECTED) p->flit_fec_corrected++;
    p->nops += r->tlps.nops;
    p->tlps += r->tlps.n + r->tlps.dropped;
    for (unsigned i = 0; i < r->tlps.n; i++) {
      const struct ual_pcie_tlp *x = &r->tlps.v[i].t;
      unsigned type = ual_pcie_tlp_dw0(x)[0];
      tlp_bytes(p, type, ual_pcie_tlp_type(type)->fc, 4u * ((uint64_t)x->prefix_dw + x->size.total_dw), x->size.payload_dw);
    }
    return;
  }
  if (r->rec.h.kind != UAL_REC_PCIE_DLLP && r->rec.h.kind != UAL_REC_PCIE_NF) return;   /* a kind-7 DLLP as kind 4 */
  p->dllps++;
  if (!r->pcie.crc_ok) p->crc_bad++;
  p->by_type[r->pcie.name < UAL_PCIE_DT_COUNT ? r->pcie.name : UAL_PCIE_DT_RESERVED]++;
}

struct out {
  ual_view_counter_fn fn;
  void *ctx;
};

static void row(const struct out *o, unsigned table, const char *label, const char *unit, unsigned indent,
                bool heading, uint64_t a, uint64_t b, bool no_total) {
  struct ual_view_counter c = { (uint8_t)table, NULL, label, unit, indent, heading, false, no_total, { a, b },
                                { 0, 0 } };
  o->fn(o->ctx, &c);
}

static const char *type_name(unsigned t, char buf[16]) {
  const char *n = ual_pcie_tlp_type(t)->name;
  if (n) return n;
  snprintf(buf, 16, "Type %02xh", t);
  return buf;
}

static void kinds(const struct ual_view_src *s, unsigned k, ual_view_counter_fn fn, void *ctx) {
  const struct ual_pcie_tally *t = &s->tally->l[k].f.pcie;
  struct out o = { fn, ctx };
  if (t->d[0].dllps + t->d[1].dllps)
    row(&o, UAL_VIEW_T_RECORDS, "PCIe DLLPs", "DLLPs", 2, false, t->d[0].dllps, t->d[1].dllps, false);
  if (t->d[0].flits + t->d[1].flits)
    row(&o, UAL_VIEW_T_RECORDS, "PCIe flits", "flits", 2, false, t->d[0].flits, t->d[1].flits, false);
  if (t->d[0].nf_tlps + t->d[1].nf_tlps)
    row(&o, UAL_VIEW_T_RECORDS, "PCIe TLPs (non-flit)", "TLPs", 2, false, t->d[0].nf_tlps, t->d[1].nf_tlps, false);
  if (t->d[0].os + t->d[1].os)
    row(&o, UAL_VIEW_T_RECORDS, "ordered sets", "records", 2, false, t->d[0].os, t->d[1].os, false);
}

/* Completion latency by request Type, by the side that sent the requests:
 * the completions d ^ 1 sent finish the requests d sent (pcie/analysis.h
 * keeps them in the completer's flow). */
static void sent_by(const struct out *o, const struct ual_pcie_link_an *l) {
  const unsigned T = UAL_VIEW_T_SENT_BY;
  char n[16], label[64];
  const struct ual_pcie_flow *rq[2] = { &l->fl[0], &l->fl[1] }, *cp[2] = { &l->fl[1], &l->fl[0] };
  bool any = false;
  for (unsigned t = 0; t < 256; t++) {
    const struct ual_pcie_lat *a = &cp[0]->lat[t], *b = &cp[1]->lat[t];
    if (!a->n && !b->n) continue;
    any = true;
    snprintf(label, sizeof label, "%s completed", type_name(t, n));
    row(o, T, label, "requests", 4, false, a->n, b->n, false);
    snprintf(label, sizeof label, "%s latency min (ns)", type_name(t, n));
    row(o, T, label, "ns", 6, false, a->min_ns, b->min_ns, true);
    snprintf(label, sizeof label, "%s latency mean (ns)", type_name(t, n));
    row(o, T, label, "ns", 6, false, a->n ? a->sum_ns / a->n : 0, b->n ? b->sum_ns / b->n : 0, true);
    snprintf(label, sizeof label, "%s latency max (ns)", type_name(t, n));
    row(o, T, label, "ns", 6, false, a->max_ns, b->max_ns, true);
  }
  if (!any && !rq[0]->tlps && !rq[1]->tlps) return;
  row(o, T, "requests open at the end", "requests", 4, false, rq[0]->outstanding, rq[1]->outstanding, false);
  row(o, T, "requests not tracked", "requests", 4, false, rq[0]->untracked, rq[1]->untracked, false);
  row(o, T, "completions without request", "TLPs", 4, false, cp[0]->cpl_unmatched, cp[1]->cpl_unmatched, false);
  row(o, T, "split parts before the last", "TLPs", 4, false, cp[0]->split_parts, cp[1]->split_parts,
      false);
}

static void rate(const struct out *o, const char *key, const char *label, uint64_t a, uint64_t b, double span_s) {
  struct ual_view_counter c = { UAL_VIEW_T_RATES, key, label, "B/s", 0, false, false, false, { a, b },
                                { a / span_s, b / span_s } };
  o->fn(o->ctx, &c);
}

/* TLP bytes and the credits they consumed; throughput per direction and
 * per Type over the link's span (first to last record, both directions). */
static void throughput(const struct out *o, const struct ual_view_link_tally *lt) {
  const struct ual_pcie_dir_tally *a = &lt->f.pcie.d[0], *b = &lt->f.pcie.d[1];
  static const char *const cls[3] = { "P", "NP", "Cpl" };
  const unsigned T = UAL_VIEW_T_RECORDS;
  char n[16], label[64];
  row(o, T, "PCIe TLP bytes", "", 0, true, 0, 0, false);
  row(o, T, "total", "bytes", 2, false, a->tlp_bytes, b->tlp_bytes, false);
  row(o, T, "payload", "bytes", 2, false, a->payload_bytes, b->payload_bytes, false);
  row(o, T, "Flow-control credits consumed (all VCs)", "", 0, true, 0, 0, false);
  for (unsigned c = 0; c < 3; c++) {
    snprintf(label, sizeof label, "%s header", cls[c]);
    row(o, T, label, "credits", 2, false, a->cr_hdr[c], b->cr_hdr[c], false);
    snprintf(label, sizeof label, "%s data", cls[c]);
    row(o, T, label, "credits", 2, false, a->cr_data[c], b->cr_data[c], false);
  }
  uint64_t first = 0, last = 0;
  for (unsigned d = 0; d < 2; d++) {
    if (!lt->d[d].first_ts) continue;
    if (!first || lt->d[d].first_ts < first) first = lt->d[d].first_ts;
    if (lt->d[d].last_ts > last) last = lt->d[d].last_ts;
  }
  if (last <= first) return;   /* no span, no rate */
  double span_s = (double)(last - first) / 1e9;
  rate(o, "pcie.tlp_bps", "TLP throughput, all bytes (B/s)", a->tlp_bytes, b->tlp_bytes, span_s);
  rate(o, "pcie.payload_bps", "TLP throughput, payload (B/s)", a->payload_bytes, b->payload_bytes, span_s);
  for (unsigned t = 0; t < 256; t++) {
    if (!a->tlp_by_type[t] && !b->tlp_by_type[t]) continue;
    char key[48];
    snprintf(key, sizeof key, "pcie.tlp_bps.%02x", t);
    snprintf(label, sizeof label, "%s, all bytes (B/s)", type_name(t, n));
    rate(o, key, label, a->bytes_by_type[t], b->bytes_by_type[t], span_s);
    snprintf(key, sizeof key, "pcie.payload_bps.%02x", t);
    snprintf(label, sizeof label, "%s, payload (B/s)", type_name(t, n));
    rate(o, key, label, a->payload_by_type[t], b->payload_by_type[t], span_s);
  }
}

static void counters(const struct ual_view_src *s, unsigned k, ual_view_counter_fn fn, void *ctx) {
  const struct ual_pcie_dir_tally *a = &s->tally->l[k].f.pcie.d[0], *b = &s->tally->l[k].f.pcie.d[1];
  struct out o = { fn, ctx };
  const unsigned T = UAL_VIEW_T_RECORDS;
  char n[16];
  if (a->flits + b->flits) {
    row(&o, T, "PCIe flits", "", 0, true, 0, 0, false);
    row(&o, T, "total", "flits", 2, false, a->flits, b->flits, false);
    row(&o, T, "CRC-64 bad", "flits", 2, false, a->flit_crc_bad, b->flit_crc_bad, false);
    row(&o, T, "FEC corrected", "flits", 2, false, a->flit_fec_corrected, b->flit_fec_corrected, false);
    row(&o, T, "PCIe TLPs (NOP TLPs not counted)", "", 0, true, 0, 0, false);
    row(&o, T, "total", "TLPs", 2, false, a->tlps, b->tlps, false);
    for (unsigned t = 0; t < 256; t++)
      if (a->tlp_by_type[t] || b->tlp_by_type[t])
        row(&o, T, type_name(t, n), "TLPs", 4, false, a->tlp_by_type[t], b->tlp_by_type[t], false);
    row(&o, T, "NOP TLPs", "TLPs", 2, false, a->nops, b->nops, false);
  }
  if (a->dllps + b->dllps) {
    row(&o, T, "PCIe DLLPs", "", 0, true, 0, 0, false);
    row(&o, T, "total", "DLLPs", 2, false, a->dllps, b->dllps, false);
    row(&o, T, "CRC-16 bad", "DLLPs", 2, false, a->crc_bad, b->crc_bad, false);
    for (unsigned t = 0; t < UAL_PCIE_DT_COUNT; t++)
      if (a->by_type[t] || b->by_type[t])
        row(&o, T, ual_pcie_dllp_name_str(t), "DLLPs", 4, false, a->by_type[t], b->by_type[t], false);
  }
  if (a->tlps + b->tlps) throughput(&o, &s->tally->l[k]);
  const struct ual_pcie_link_an *l = link_an(s, k);
  if (l) sent_by(&o, l);
}

/* ---- state rows ---- */

/* The data link layer's state of a side: DL_Up once it sent TLPs, else
 * from VC0's flow control initialisation (VC0 initialises first): DL_Up
 * once its InitFC2 or UpdateFC came. */
static const char *dl_state(const struct ual_pcie_link_an *l, unsigned d) {
  const struct ual_pcie_side *s = &l->s[d];
  if (l->fl[d].tlps) return "DL_Up";   /* TLPs flow in DL_Up only */
  switch (s->vc[0].phase) {
  case UAL_PCIE_PH_NONE: return "DL_Inactive";
  case UAL_PCIE_PH_INIT1: return "DL_Init (FC_INIT1)";
  case UAL_PCIE_PH_INIT2:
  case UAL_PCIE_PH_UPDATE: return "DL_Up";
  default: return NULL;
  }
}

static void state(const struct ual_view_src *s, unsigned k, ual_view_row_fn fn, void *ctx) {
  const struct ual_pcie_link_an *l = link_an(s, k);
  if (!l) return;
  const struct ual_pcie_tally *t = &s->tally->l[k].f.pcie;
  static const char *const class_name[UAL_PCIE_CLASSES] = { "P", "NP", "Cpl" };
  struct ual_view_rows w = { fn, ctx, "Link" };
  char a[2][48];
  const char *v[2];
  for (unsigned d = 0; d < 2; d++) v[d] = l->role[d] ? ual_value_name(ual_vals_pcie_role, l->role[d]) : NULL;
  ual_view_row_put(&w, "role", "", false, v[0], v[1]);
  for (unsigned d = 0; d < 2; d++) v[d] = l->rate[d] ? ual_rate_name(l->rate[d]) : NULL;
  ual_view_row_put(&w, "data rate", "GT/s", false, v[0], v[1]);
  for (unsigned d = 0; d < 2; d++) {
    snprintf(a[d], sizeof a[d], "x%u", l->width[d]);
    v[d] = l->width[d] ? a[d] : NULL;
  }
  ual_view_row_put(&w, "width", "lanes", false, v[0], v[1]);
  bool traffic = l->fl[0].flits + l->fl[1].flits + l->s[0].dllps + l->s[1].dllps > 0;
  ual_view_row_put(&w, "LTSSM (from traffic)", "", true, l->in_l1 ? "L1" : traffic ? "L0" : NULL, NULL);
  w.group = "Data link";
  ual_view_row_put(&w, "DL state", "", false, dl_state(l, 0), dl_state(l, 1));
  for (unsigned d = 0; d < 2; d++) {
    snprintf(a[d], sizeof a[d], "%u", l->s[d].ack_seq);
    v[d] = l->s[d].ack_known ? a[d] : NULL;
  }
  ual_view_row_put(&w, "last Ack/Nak sequence", "", false, v[0], v[1]);
  for (unsigned d = 0; d < 2; d++)
    v[d] = l->s[d].pm_req ? ual_pcie_dllp_name_str(ual_pcie_dllp_name_of(l->s[d].pm_req)) : l->s[d].seen ? "none" : NULL;
  ual_view_row_put(&w, "PM request pending", "", false, v[0], v[1]);
  for (unsigned vc = 0; vc < UAL_PCIE_VCS; vc++) {
    bool seen = l->s[0].vc[vc].phase != UAL_PCIE_PH_UNKNOWN || l->s[1].vc[vc].phase != UAL_PCIE_PH_UNKNOWN;
    for (unsigned c = 0; c < UAL_PCIE_CLASSES; c++) seen |= l->s[0].adv[vc][c].known || l->s[1].adv[vc][c].known;
    if (vc && !seen) continue;
    static const char *const group[UAL_PCIE_VCS] = { "Flow control VC0", "Flow control VC1", "Flow control VC2",
                                                     "Flow control VC3", "Flow control VC4", "Flow control VC5",
                                                     "Flow control VC6", "Flow control VC7" };
    w.group = group[vc];
    for (unsigned d = 0; d < 2; d++)
      v[d] = l->s[d].vc[vc].phase == UAL_PCIE_PH_UNKNOWN ? NULL : ual_pcie_fc_phase_name(l->s[d].vc[vc].phase);
    ual_view_row_put(&w, "FC initialisation", "", false, v[0], v[1]);
    for (unsigned c = 0; c < UAL_PCIE_CLASSES; c++) {
      char label[40];
      snprintf(label, sizeof label, "%s credits advertised (hdr/data)", class_name[c]);
      for (unsigned d = 0; d < 2; d++) {
        const struct ual_pcie_fc_vals *x = &l->s[d].adv[vc][c], *in = &l->s[d].vc[vc].init[c];
        /* 0 in InitFC advertises infinite credits (its UpdateFCs then carry 0 too) */
        char h[12], dt[12];
        if (in->known && !in->hdr) snprintf(h, sizeof h, "infinite");
        else snprintf(h, sizeof h, "%u", x->hdr);
        if (in->known && !in->data) snprintf(dt, sizeof dt, "infinite");
        else snprintf(dt, sizeof dt, "%u", x->data);
        snprintf(a[d], sizeof a[d], "%s/%s", h, dt);
        v[d] = x->known ? a[d] : NULL;
      }
      ual_view_row_put(&w, label, "credits", false, v[0], v[1]);
      /* what the other side's TLPs consumed of them (flit mode; all VCs: the TC/VC map is not seen) */
      if (!vc && (t->d[0].tlps + t->d[1].tlps)) {
        snprintf(label, sizeof label, "%s credits consumed (hdr/data)", class_name[c]);
        for (unsigned d = 0; d < 2; d++) {
          snprintf(a[d], sizeof a[d], "%" PRIu64 "/%" PRIu64, t->d[d ^ 1].cr_hdr[c], t->d[d ^ 1].cr_data[c]);
          v[d] = a[d];
        }
        ual_view_row_put(&w, label, "credits", false, v[0], v[1]);
      }
    }
  }
  w.group = "Transactions";
  for (unsigned d = 0; d < 2; d++) v[d] = l->fl[d].walk.synced ? "aligned" : l->fl[d].flits ? "not yet aligned" : NULL;
  ual_view_row_put(&w, "TLP stream", "", false, v[0], v[1]);
  for (unsigned d = 0; d < 2; d++) {
    snprintf(a[d], sizeof a[d], "%u", l->fl[d].outstanding);
    v[d] = l->fl[d].walk.synced || l->fl[d].outstanding ? a[d] : NULL;
  }
  ual_view_row_put(&w, "outstanding requests", "requests", false, v[0], v[1]);
  w.group = "Hierarchy segment";
  char rp[16], t0[48];
  snprintf(rp, sizeof rp, "%u", l->seg.rp_seg);
  ual_view_row_put(&w, "Root Port segment", "", true, l->seg.rp_known ? rp : NULL, NULL);
  const char *t0v = NULL;
  if (l->seg.t0_known && s->fab) {
    unsigned seg = 0, st = ual_pcie_seg_of(&s->fab->pcie, l, l->seg.t0_bdf, true, &seg);
    if (st == UAL_SEG_SET) snprintf(t0, sizeof t0, "Set (segment %u) at %04x", seg, l->seg.t0_bdf);
    else if (st == UAL_SEG_CLEAR) snprintf(t0, sizeof t0, "Clear at %04x", l->seg.t0_bdf);
    if (st == UAL_SEG_SET || st == UAL_SEG_CLEAR) t0v = t0;
  } else if (l->seg.reset) {
    t0v = "Clear (reset)";
  }
  ual_view_row_put(&w, "Segment Captured", "", true, t0v, NULL);
}

static int state_line(const struct ual_view_src *s, unsigned k, char *buf, size_t cap) {
  const struct ual_pcie_link_an *l = link_an(s, k);
  if (!l) return 0;
  int n = 0;
  for (unsigned d = 0; d < 2; d++) {
    const char *dl = dl_state(l, d);
    const char *rate = l->rate[d] ? ual_rate_name(l->rate[d]) : NULL;
    int m = snprintf(buf && (size_t)n < cap ? buf + n : NULL, buf && (size_t)n < cap ? cap - (size_t)n : 0,
                     "%s%c:%s %s x%u outstanding %u", d ? " | " : "", d ? 'B' : 'A', dl ? dl : "?", rate ? rate : "?",
                     l->width[d], l->fl[d].outstanding);
    if (m > 0) n += m;
  }
  return n;
}

/* ---- lanes ---- */

static const char *power_name(unsigned v) { return v == 1 ? "L0" : v == 2 ? "L1" : "unknown"; }
static const char *rate_text(unsigned v) {
  const char *n = ual_rate_name(v);
  return n ? n : "?";
}
static const char *width_text(unsigned v) {
  static const char *const n[17] = { "?", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",
                                     "x13", "x14", "x15", "x16" };
  return v <= 16 ? n[v] : "?";
}

enum { L_POWER, L_RATE, L_WIDTH, L_FC, L_NAK, L_CRC, L_PM, L_FC_ERR, L_COUNT };

static const struct ual_view_lane lanes[L_COUNT] = {
  [L_POWER] = { "pcie_power", "link power state", UAL_LANE_STATE, 1, 3, power_name, NULL },
  [L_RATE] = { "rate", "data rate (GT/s)", UAL_LANE_LEVEL, 0, 0, rate_text, NULL },
  [L_WIDTH] = { "width", "width", UAL_LANE_LEVEL, 0, 0, width_text, NULL },
  [L_FC] = { "pcie_fc", "VC0 flow control", UAL_LANE_STATE, 0, UAL_PCIE_PH_NONE + 1, ual_pcie_fc_phase_name, NULL },
  [L_NAK] = { "pcie_nak", "Nak DLLPs", UAL_LANE_MARKS, 0, 0, NULL, "#e67e22" },
  [L_CRC] = { "pcie_crc", "CRC failures", UAL_LANE_MARKS, 0, 0, NULL, "#c0392b" },
  [L_PM] = { "pcie_pm", "PM DLLPs", UAL_LANE_MARKS, 0, 0, NULL, "#16a085" },
  [L_FC_ERR] = { "pcie_fc_error", "flow control errors (PD-FC-*)", UAL_LANE_MARKS, 0, 0, NULL, "#8e44ad" },
};

static bool fc_rule(unsigned r) {
  return r == UAL_R_PD_FC_ORDER || r == UAL_R_PD_FC_INIT_CHANGED || r == UAL_R_PD_FC_BACKWARDS ||
         r == UAL_R_PD_FC_INFINITE || r == UAL_R_PD_FC_SCALE;
}

static unsigned marks(const struct ual_rec_result *r, const struct ual_events *ev, struct ual_view_mark *out,
                      unsigned cap) {
  unsigned n = 0, d = r->dir & 1;
  if (r->rec.h.kind == UAL_REC_PCIE_DLLP || (r->rec.h.kind == UAL_REC_PCIE_NF && r->nf.dllp_decoded)) {
    if (r->pcie.name == UAL_PCIE_DT_NAK) n = ual_view_mark_put(out, n, cap, L_NAK, d, 1);
    if (!r->pcie.crc_ok) n = ual_view_mark_put(out, n, cap, L_CRC, d, 1);
  } else if (r->rec.h.kind == UAL_REC_PCIE_NF) {
    if (r->nf.lcrc == UAL_PCIE_LCRC_BAD || r->nf.lcrc == UAL_PCIE_LCRC_NULLIFIED_BAD) n = ual_view_mark_put(out, n, cap, L_CRC, d, 1);
  } else if (r->rec.h.kind == UAL_REC_PCIE_FLIT) {
    const struct ual_flit_info *fi = &r->flit;
    if (fi->valid && (fi->fh.replay_cmd == UAL_RC_NAK || fi->fh.replay_cmd == UAL_RC_NAK_SELECTIVE))
      n = ual_view_mark_put(out, n, cap, L_NAK, d, 1);
    if (!fi->crc_ok) n = ual_view_mark_put(out, n, cap, L_CRC, d, 1);
  }
  for (unsigned i = 0; i < r->findings.n; i++)
    if (fc_rule(r->findings.v[i].rule)) n = ual_view_mark_put(out, n, cap, L_FC_ERR, d, 1);
  for (unsigned i = 0; ev && i < ev->n; i++) {
    const struct ual_tevent *e = &ev->v[i];
    switch (e->kind) {
    case UAL_TEV_L1: n = ual_view_mark_put(out, n, cap, L_POWER, UAL_VIEW_LINKWIDE, e->value == 1 ? 2 : 1); break;
    case UAL_TEV_RATE: n = ual_view_mark_put(out, n, cap, L_RATE, e->partner, e->value > 0 ? e->value : 0); break;
    case UAL_TEV_WIDTH: n = ual_view_mark_put(out, n, cap, L_WIDTH, e->partner, e->value > 0 ? e->value : 0); break;
    case UAL_TEV_PCIE_FC:
      if (e->old == 0 && e->value >= 0) n = ual_view_mark_put(out, n, cap, L_FC, e->partner, e->value);
      break;
    case UAL_TEV_PCIE_PM: n = ual_view_mark_put(out, n, cap, L_PM, e->partner, 1); break;
    default: break;
    }
  }
  return n;
}

/* ---- transactions: a non-posted request and its completion(s) ---- */

static bool is_read(unsigned type) {
  const struct ual_pcie_tlp_type *ty = ual_pcie_tlp_type(type);
  return ty->name && (ty->name[1] == 'R' || ty->name[2] == 'R');   /* MRd, CfgRd, IORd */
}

static unsigned txns(const struct ual_rec_result *r, const struct ual_events *ev, struct ual_view_txn *out,
                     unsigned cap) {
  (void)ev;
  unsigned n = 0;
  char tn[16];
  for (unsigned i = 0; i < r->tlps.n && n < cap; i++) {
    const struct ual_pcie_tlp_rec *c = &r->tlps.v[i];
    if (c->link != UAL_PCIE_LK_CPL) continue;
    const uint8_t *dw0 = ual_pcie_tlp_dw0(&c->t);
    const struct ual_pcie_tlp_type *cty = ual_pcie_tlp_type(dw0[0]);
    struct ual_view_txn *t = &out[n++];
    memset(t, 0, sizeof *t);
    t->side = (uint8_t)((r->dir & 1) ^ 1);   /* the completer answers the other side's request */
    bool poisoned = ual_field_get(UAL_F_PCIE_CPL_EP, dw0) != 0;
    /* a read answered without data failed (UR, CA or CRS) */
    t->status = poisoned ? UAL_TXN_ERROR : is_read(c->peer_type) && !cty->data ? UAL_TXN_REJECT : UAL_TXN_OK;
    t->parts = c->parts;
    t->start_frame = c->peer_frame;
    t->end_frame = r->frame;
    t->latency_ns = c->latency_ns;
    snprintf(t->kind, sizeof t->kind, "%s", type_name(c->peer_type, tn));
    ual_pcie_req_line(c->peer_type, (unsigned)ual_field_get(UAL_F_PCIE_CPL_DEST, dw0),
                      (unsigned)ual_field_get(UAL_F_PCIE_CPL_TAG, dw0), t->what, sizeof t->what);
    struct ual_pcie_tlp_info ci;
    ual_pcie_tlp_info(&c->t, &ci);
    const char *st = ual_pcie_cpl_status_abbrev(ci.status);
    snprintf(t->result, sizeof t->result, "%s %s bc %u%s", cty->name ? cty->name : "Cpl", st ? st : "status?",
             ci.byte_count, poisoned ? " (poisoned)" : "");
  }
  return n;
}

/* Requests still waiting for their completions. */
static void open_txns(const struct ual_view_src *s, unsigned k, ual_view_txn_fn fn, void *ctx) {
  const struct ual_pcie_link_an *l = link_an(s, k);
  if (!l) return;
  char tn[16];
  for (unsigned d = 0; d < 2; d++)
    for (unsigned i = 0; i < UAL_PCIE_MAX_OUTSTANDING; i++) {
      const struct ual_pcie_req *q = &l->fl[d].req[i];
      if (!q->used) continue;
      struct ual_view_txn t;
      memset(&t, 0, sizeof t);
      t.side = (uint8_t)d;
      t.start_frame = q->frame;
      t.start_ns = q->ts_ns;
      t.parts = q->parts;
      snprintf(t.kind, sizeof t.kind, "%s", type_name(q->type, tn));
      ual_pcie_req_line(q->type, q->rid, q->tag, t.what, sizeof t.what);
      snprintf(t.result, sizeof t.result, "%s", q->parts ? "partly completed" : "no completion");
      fn(ctx, &t);
    }
}

const struct ual_view_fabric ual_view_pcie = {
  "PCIe", "pcie", owns, name_link, tally, state, state_line, kinds, counters, lanes, L_COUNT, marks, txns, open_txns, false,
};
