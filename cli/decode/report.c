/* --report: collection of the analysis into bins and ladders (report.h).
 * Everything shown comes from libdecode's analysis: its events, its
 * per-record results and summary, and the --stats totals. */
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* LTSSM states grouped for the colour bands. */
unsigned dc_rpt_class_of(unsigned s) {
  if (s == UAL_LT_DETECT_QUIET || s == UAL_LT_DETECT_ACTIVE) return DC_LC_DETECT;
  if (s >= UAL_LT_POLL_ACTIVE && s <= UAL_LT_POLL_COMPLIANCE) return DC_LC_POLLING;
  if (s >= UAL_LT_CFG_LW_START && s <= UAL_LT_CFG_IDLE) return DC_LC_CONFIG;
  if (s == UAL_LT_L0) return DC_LC_L0;
  if (s == UAL_LT_L0P) return DC_LC_L0P;
  if (s >= UAL_LT_REC_LOCK && s <= UAL_LT_REC_IDLE) return DC_LC_RECOVERY;
  if (s == UAL_LT_L1_ENTRY || s == UAL_LT_L1_IDLE) return DC_LC_L1;
  if (s == UAL_LT_UNKNOWN) return DC_LC_UNKNOWN;
  return DC_LC_OTHER;
}

/* ------------------------------------------------------------ collection */

struct dc_report *dc_report_open(const char *path, char *err, size_t errcap) {
  struct dc_report *r = calloc(1, sizeof *r);
  if (!r) {
    snprintf(err, errcap, "out of memory");
    return NULL;
  }
  if (strcmp(path, "-") == 0) {
    r->fp = stdout;
    r->to_stdout = true;
  } else if (!(r->fp = fopen(path, "w"))) {
    snprintf(err, errcap, "cannot write the report %s: %s", path, strerror(errno));
    free(r);
    return NULL;
  }
  r->bw = 1;
  r->pwr_open = -1;
  for (int d = 0; d < 2; d++) r->sum.ch0[d] = r->sum.ch4[d] = UAL_UNKNOWN;
  return r;
}

void dc_report_free(struct dc_report *r) {
  if (r && r->fp && !r->to_stdout) fclose(r->fp);
  free(r);
}

static uint64_t xpos(struct dc_report *r, uint64_t ts, uint64_t frame) {
  if (!r->started) {
    r->started = true;
    r->use_ts = ts != 0;
    r->t0 = r->use_ts ? ts : frame;
  }
  uint64_t x = r->x_last;
  if (r->use_ts) {
    if (ts) x = ts >= r->t0 ? ts - r->t0 : 0;
  } else {
    x = frame >= r->t0 ? frame - r->t0 : 0;
  }
  if (x < r->x_last) x = r->x_last;   /* time never runs back on the page */
  r->x_last = x;
  return x;
}

static void merge_bins(struct dc_report *r) {
  for (unsigned i = 0; i < DC_RPT_BINS / 2; i++) {
    const struct dc_rpt_bin *a = &r->bin[2 * i], *b = &r->bin[2 * i + 1];
    struct dc_rpt_bin m = *a;
    for (int d = 0; d < 2; d++) {
      for (int c = 0; c < DC_LC_COUNT; c++) m.lt[d][c] += b->lt[d][c];
      for (int k = 0; k < 2; k++) {
        m.ch_on[d][k] += b->ch_on[d][k];
        m.ch_off[d][k] += b->ch_off[d][k];
      }
      if (b->rate[d]) m.rate[d] = b->rate[d];
      if (b->width[d]) m.width[d] = b->width[d];
      if (b->width_min[d] && (!m.width_min[d] || b->width_min[d] < m.width_min[d])) m.width_min[d] = b->width_min[d];
      m.payload[d] += b->payload[d];
      m.tl[d] += b->tl[d];
      m.msgs[d] += b->msgs[d];
      m.ub_bytes[d] += b->ub_bytes[d];
      m.tlps[d] += b->tlps[d];
      m.dllps[d] += b->dllps[d];
      for (int k = 0; k < DC_M_COUNT; k++) m.mark[d][k] += b->mark[d][k];
      for (int k = 0; k < DC_UB_DLL_COUNT; k++) m.ub_dll[d][k] += b->ub_dll[d][k];
      for (int k = 0; k < DC_UM_COUNT; k++) m.ub_mark[d][k] += b->ub_mark[d][k];
    }
    for (int k = 0; k < 3; k++) m.ub_mode[k] += b->ub_mode[k];
    r->bin[i] = m;
  }
  memset(&r->bin[DC_RPT_BINS / 2], 0, sizeof r->bin[0] * (DC_RPT_BINS / 2));
  r->bw *= 2;
}

static struct dc_rpt_bin *bin_at(struct dc_report *r, uint64_t x) {
  while (x / r->bw >= DC_RPT_BINS) merge_bins(r);
  return &r->bin[x / r->bw];
}

/* The state held since the previous record, spread over [x_prev, x). */
static void hold_state(struct dc_report *r, uint64_t x) {
  bin_at(r, x);
  const struct ual_analysis_summary *s = &r->sum;
  for (uint64_t lo = r->x_prev; lo < x;) {
    struct dc_rpt_bin *b = &r->bin[lo / r->bw];
    uint64_t hi = (lo / r->bw + 1) * r->bw;
    if (hi > x) hi = x;
    uint64_t n = hi - lo;
    for (int d = 0; d < 2; d++) {
      unsigned c = dc_rpt_class_of(s->ltssm[d]);
      b->lt[d][c] += n;
      r->lt_total[d][c] += n;
      int ch[2] = { s->ch0[d], s->ch4[d] };
      for (int k = 0; k < 2; k++) {
        if (ch[k] == 1) b->ch_on[d][k] += n;
        else if (ch[k] == 0) b->ch_off[d][k] += n;
      }
      if (s->rate[d]) b->rate[d] = s->rate[d];
      if (s->width[d]) {
        b->width[d] = s->width[d];
        if (!b->width_min[d] || s->width[d] < b->width_min[d]) b->width_min[d] = s->width[d];
      }
      b->ub_dll[d][r->ub_dll[d] < DC_UB_DLL_COUNT ? r->ub_dll[d] : 0] += n;
    }
    b->ub_mode[r->ub_mode < 3 ? r->ub_mode : 0] += n;
    lo = hi;
  }
  r->x_prev = x;
}

static void step_set(struct dc_rpt_step *st, unsigned side, bool message, unsigned style, const struct ual_tevent *e,
                     uint64_t x) {
  memset(st, 0, sizeof *st);
  st->side = (uint8_t)side;
  st->message = message;
  st->style = (uint8_t)style;
  st->frame = e->frame;
  st->x = x;
  snprintf(st->text, sizeof st->text, "%s", e->text);
}

static void ladder_add(struct dc_rpt_ladder *l, const struct dc_rpt_step *st) {
  if (l->n >= DC_RPT_STEPS) {
    l->elided++;
    return;
  }
  if (!l->n) l->x0 = st->x;
  l->s[l->n++] = *st;
}

static unsigned neg_style(unsigned outcome) {
  switch (outcome) {
  case UAL_NEG_ACK: case UAL_NEG_COMPLETE: return 1;
  case UAL_NEG_NACK: case UAL_NEG_NO_CONFIRM: return 2;
  case UAL_NEG_PENDING: return 3;
  default: return 0;
  }
}

static void negotiation(struct dc_report *r, const struct ual_tevent *e, uint64_t x) {
  struct dc_rpt_step st;
  step_set(&st, e->partner, e->outcome != UAL_NEG_NO_CONFIRM, neg_style(e->outcome), e, x);
  if (e->outcome == UAL_NEG_REQUEST) {
    if (r->n_neg >= DC_RPT_NEGS) {
      r->neg_elided++;
      return;
    }
    struct dc_rpt_ladder *l = &r->neg[r->n_neg++];
    memset(l, 0, sizeof *l);
    l->requester = e->partner;
    l->mtype = e->mtype;
    l->req_frame = e->req_frame;
    ladder_add(l, &st);
    return;
  }
  if (e->outcome == UAL_NEG_COMPLETE && e->mtype == UAL_MT_LINK_WIDTH) r->last_width_neg = st;
  if (e->outcome == UAL_NEG_COMPLETE && e->mtype == UAL_MT_LINK_STATE) r->last_state_neg = st;
  if (e->outcome == UAL_NEG_COMPLETE && e->mtype == UAL_MT_LINK_SPEED) r->last_speed_neg = st;
  for (unsigned i = r->n_neg; i-- > 0;) {
    struct dc_rpt_ladder *l = &r->neg[i];
    if (l->req_frame != e->req_frame || l->mtype != e->mtype) continue;
    ladder_add(l, &st);
    return;
  }
  /* an answer to a request that was not kept: counted with it */
}

/* Opens a handshake ladder of a kind (or returns the open one of that kind). */
static struct dc_rpt_ladder *hs_open(struct dc_report *r, unsigned kind) {
  if (r->pwr_open >= 0) {
    struct dc_rpt_ladder *l = &r->pwr[r->pwr_open];
    if (l->kind == kind) return l;
    r->pwr_open = -1;
  }
  r->pwr_exit_seen = 0;
  if (r->n_pwr >= DC_RPT_PWR) {
    r->pwr_elided++;
    return NULL;
  }
  r->pwr_open = (int)r->n_pwr;
  struct dc_rpt_ladder *l = &r->pwr[r->n_pwr++];
  memset(l, 0, sizeof *l);
  l->kind = (uint8_t)kind;
  /* the completed negotiation that allowed it, as the first step */
  struct dc_rpt_step *neg = kind == DC_HS_L1 ? &r->last_state_neg : kind == DC_HS_L0P ? &r->last_width_neg
                          : kind == DC_HS_RECOVERY ? &r->last_speed_neg : NULL;
  if (neg && neg->frame) ladder_add(l, neg);
  if (neg) neg->frame = 0;
  return l;
}

static struct dc_rpt_ladder *hs_cur(struct dc_report *r) { return r->pwr_open >= 0 ? &r->pwr[r->pwr_open] : NULL; }

/* The handshake an LTSSM change starts when none is open, or none. */
static int hs_started_by(const struct ual_tevent *e) {
  unsigned to = dc_rpt_class_of((unsigned)e->value), from = e->old >= 0 ? dc_rpt_class_of((unsigned)e->old) : DC_LC_UNKNOWN;
  bool training_to = to == DC_LC_DETECT || to == DC_LC_POLLING || to == DC_LC_CONFIG;
  bool training_from = from == DC_LC_DETECT || from == DC_LC_POLLING || from == DC_LC_CONFIG;
  if (training_to && !training_from) return DC_HS_TRAINING;
  if (to == DC_LC_RECOVERY && from != DC_LC_RECOVERY && from != DC_LC_L1) return DC_HS_RECOVERY;
  if (to == DC_LC_L1 && from != DC_LC_L1) return DC_HS_L1;
  return -1;
}

static void handshake(struct dc_report *r, const struct ual_tevent *e, uint64_t x) {
  struct dc_rpt_step st;
  struct dc_rpt_ladder *l = hs_cur(r);
  switch (e->kind) {
  case UAL_TEV_PM:
    if (e->value == UAL_DLLP_LINK_MGMT && e->old == UAL_LM_REQUEST) {
      r->pwr_open = -1;
      l = hs_open(r, DC_HS_L0P);
    } else if (e->value != UAL_DLLP_LINK_MGMT) {
      l = hs_open(r, DC_HS_L1);
    }
    step_set(&st, e->partner, true, e->old == UAL_LM_NAK ? 2 : 0, e, x);
    if (l) ladder_add(l, &st);
    if (e->old == UAL_LM_NAK) r->pwr_open = -1;
    return;
  case UAL_TEV_L1:
    l = hs_open(r, DC_HS_L1);
    step_set(&st, UAL_PARTNER_LINK, false, 1, e, x);
    if (l) ladder_add(l, &st);
    if (e->value == 0) r->pwr_exit_seen = 1;
    return;
  case UAL_TEV_L0P:
    l = hs_open(r, DC_HS_L0P);
    step_set(&st, UAL_PARTNER_LINK, false, 1, e, x);
    if (l) ladder_add(l, &st);
    if (l) l->done = 0;   /* counts the width changes that follow */
    return;
  case UAL_TEV_LTSSM:
    if (l && l->kind == DC_HS_L0P && e->value != UAL_LT_L0 && e->value != UAL_LT_L0P) {
      r->pwr_open = -1;   /* an L0p width change stays in L0/L0p: anything else is not part of it */
      l = NULL;
    }
    if (!l) {
      int k = hs_started_by(e);
      if (k < 0) return;
      l = hs_open(r, (unsigned)k);
      if (!l) return;
    }
    step_set(&st, e->partner, false, 0, e, x);
    ladder_add(l, &st);
    return;
  case UAL_TEV_RATE:
    /* a speed change no LTSSM state announced (a PCIe link's analysis sees
     * the rate in the record headers): a training ladder of its own */
    if (!l && e->old != UAL_UNKNOWN) l = hs_open(r, DC_HS_TRAINING);
    if (!l) return;
    step_set(&st, e->partner, false, 0, e, x);
    ladder_add(l, &st);
    if (e->old != UAL_UNKNOWN) l->rate_changed = 1;
    return;
  case UAL_TEV_WIDTH:
    if (!l) return;
    step_set(&st, e->partner, false, 0, e, x);
    ladder_add(l, &st);
    if (l->kind != DC_HS_L0P) return;
    l->done |= (uint8_t)(1u << (e->partner & 1));
    if (l->done == 3) r->pwr_open = -1;   /* both directions at the new width */
    return;
  case UAL_TEV_LINK:
    step_set(&st, UAL_PARTNER_LINK, false, e->value ? 1 : 2, e, x);
    if (e->value == 0) {   /* the link retrains: a training starts here, or goes on */
      r->last_state_neg.frame = r->last_width_neg.frame = r->last_speed_neg.frame = 0;
      l = hs_open(r, DC_HS_TRAINING);
    }
    if (l) ladder_add(l, &st);
    return;
  default:
    return;
  }
}

void dc_report_events(struct dc_report *r, const struct ual_events *ev) {
  r->events_dropped += ev->dropped;
  for (unsigned i = 0; i < ev->n; i++) {
    const struct ual_tevent *e = &ev->v[i];
    uint64_t x = xpos(r, e->ts_ns, e->frame);
    bin_at(r, x);
    if (e->kind == UAL_TEV_RATE && e->partner < 2) r->ev_rate[e->partner] = (uint8_t)e->value;
    if (e->kind == UAL_TEV_WIDTH && e->partner < 2) r->ev_width[e->partner] = (uint8_t)e->value;
    if (e->kind == UAL_TEV_NEGOTIATION) negotiation(r, e, x);
    else handshake(r, e, x);
  }
}

void dc_report_record(struct dc_report *r, const struct ual_analyzer *an, const struct ual_rec_result *res,
                      uint64_t ts_ns, bool selected) {
  uint64_t x = xpos(r, ts_ns, res->frame);
  hold_state(r, x);
  r->records++;
  struct ual_analysis_summary prev = r->sum;
  ual_analyzer_summary(an, &r->sum);
  struct dc_rpt_bin *b = bin_at(r, x);
  if (res->rec.h.kind == UAL_REC_UB_FLIT) r->ub_records++;
  else if (res->rec.h.kind == UAL_REC_FLIT || (res->rec.h.kind == UAL_REC_OS && !res->rec.h.roles_pcie)) r->ualink_records++;
  else if (res->rec.h.kind == UAL_REC_PCIE_DLLP || res->rec.h.kind == UAL_REC_PCIE_FLIT || res->rec.h.kind == UAL_REC_PCIE_NF ||
           res->rec.h.kind == UAL_REC_OS)
    r->pcie_records++;
  for (int d = 0; d < 2; d++) r->ub_dll[d] = an->fab.ub.s[d].dll;
  r->ub_mode = an->fab.ub.mode;
  for (int d = 0; d < 2; d++) r->pcie_role[d] = an->fab.pcie.lk[0].role[d];   /* the first PCIe link's */
  for (int d = 0; d < 2; d++) {
    unsigned c = dc_rpt_class_of(r->sum.ltssm[d]);
    if (c != dc_rpt_class_of(prev.ltssm[d]) || r->records == 1) r->lt_entries[d][c]++;
    /* UALink's LTSSM, else what another fabric's analysis reported */
    unsigned rate = r->sum.rate[d] ? r->sum.rate[d] : r->ev_rate[d], width = r->sum.width[d] ? r->sum.width[d] : r->ev_width[d];
    if (rate) b->rate[d] = (uint8_t)rate;
    if (width) {
      b->width[d] = (uint8_t)width;
      if (!b->width_min[d] || width < b->width_min[d]) b->width_min[d] = (uint8_t)width;
    }
  }
  /* training, Recovery and L1 (once it exits) end with both ports in L0 */
  const struct dc_rpt_ladder *hl = hs_cur(r);
  if (hl && hl->kind != DC_HS_L0P && (hl->kind != DC_HS_L1 || r->pwr_exit_seen) &&
      dc_rpt_class_of(r->sum.ltssm[0]) == DC_LC_L0 && dc_rpt_class_of(r->sum.ltssm[1]) == DC_LC_L0) {
    r->pwr_exit_seen = 0;
    r->pwr_open = -1;
  }
  if (!selected) return;
  unsigned d = res->dir & 1;
  if (res->status == UAL_RS_OK || res->status == UAL_RS_RESERVED) {
    if (res->rec.h.kind == UAL_REC_FLIT) {
      const struct ual_flit_info *fi = &res->flit;
      if (fi->kind == UAL_FK_PAYLOAD) b->payload[d]++;
      /* as --stats counts Naks: valid payload and NOP flits carrying one */
      if (fi->valid && (fi->kind == UAL_FK_PAYLOAD || fi->kind == UAL_FK_NOP) &&
          (fi->fh.replay_cmd == UAL_RC_NAK || fi->fh.replay_cmd == UAL_RC_NAK_SELECTIVE))
        b->mark[d][DC_M_NAK]++;
      if (res->flit.fec.status == UAL_FEC_CORRECTED) b->mark[d][DC_M_FEC_CORR]++;
      else if (res->flit.fec.status >= UAL_FEC_UNCORRECTABLE) b->mark[d][DC_M_FEC_UNC]++;
      if (res->unpacked) {
        b->tl[d] += res->unp.n_tl;
        b->msgs[d] += res->unp.n_msg;
      }
    }
    /* as --stats counts them (stats.c, stats_pcie.c) */
    if (res->rec.h.kind == UAL_REC_UB_FLIT && res->ub.unit.kind == UAL_UB_UNIT_DLLDP) b->ub_bytes[d] += res->ub.unit.payload_len;
    if (res->rec.h.kind == UAL_REC_PCIE_FLIT) b->tlps[d] += res->tlps.n + res->tlps.dropped;
    if (res->rec.h.kind == UAL_REC_PCIE_DLLP || (res->rec.h.kind == UAL_REC_PCIE_NF && res->nf.dllp_decoded)) b->dllps[d]++;
  }
  for (unsigned i = 0; i < res->findings.n; i++) {
    unsigned rule = res->findings.v[i].rule;
    if (rule >= UAL_R_COUNT) continue;
    b->mark[d][DC_M_INFO + ual_rule_severity((enum ual_rule)rule)]++;
    if (rule == UAL_R_RP_REPLAY) b->mark[d][DC_M_REPLAY]++;
    if (rule == UAL_R_UB_BCRC) b->ub_mark[d][DC_UM_BCRC]++;
    if (rule == UAL_R_UB_RETRY_REQ) b->ub_mark[d][DC_UM_RETRY_REQ]++;
    if (rule == UAL_R_UB_DISCARDED) b->ub_mark[d][DC_UM_DISCARDED]++;
    struct dc_rpt_rule *ru = &r->rule[rule];
    if (!ru->count[0] && !ru->count[1]) {
      ru->first = res->frame;
      ru->first_x = x;
      ru->first_dir = (uint8_t)d;
    }
    ru->count[d]++;
    ru->last = res->frame;
  }
}

void dc_report_end(struct dc_report *r, const struct ual_findings *f) {
  r->end = *f;
  if (r->started && !r->use_ts) r->x_last++;   /* on a record axis the last record takes its unit too */
  hold_state(r, r->x_last);
}

unsigned dc_rpt_bins_used(const struct dc_report *r) {
  uint64_t n = r->x_last / r->bw + 1;
  return n < DC_RPT_BINS ? (unsigned)n : DC_RPT_BINS;
}

void dc_rpt_bin_range(const struct dc_report *r, unsigned i, uint64_t *lo, uint64_t *hi) {
  uint64_t span = r->x_last ? r->x_last : 1;
  *lo = (uint64_t)i * r->bw;
  *hi = *lo + r->bw;
  if (*hi > span) *hi = span;
  if (*lo > *hi) *lo = *hi;
}
