/* UB's presentation model (core/views.h): the DLL state machines, the
 * CRC or non-CRC mode, VL credits, the retry buffer and retry state of
 * each side; flits, DLLDPs by VL and DLLCBs; its lanes; retry episodes
 * (a Retry_Req_Set to the partner's Retry_Ack_Set) as transactions. */
#include "ualink/core/views.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ualink/ub/analysis.h"

static bool owns(unsigned kind) {
#define UAL_X_(code, m) if (kind == code) return true;
  UAL_UB_ANALYSIS_KINDS(UAL_X_)
#undef UAL_X_
  return false;
}

static const struct ual_ub_an *an(const struct ual_view_src *s) { return s->fab ? &s->fab->ub : NULL; }

static void name_link(const struct ual_view_src *s, unsigned k, struct ual_view_link *l) {
  (void)k;
  const struct ual_ub_an *a = an(s);
  if (!a || !a->primary) return;
  unsigned p = a->primary - 1u;
  snprintf(l->side[p], sizeof l->side[p], "%c (primary)", p ? 'B' : 'A');
}

/* ---- counters ---- */

static void tally(struct ual_view_link_tally *t, const struct ual_rec_result *r) {
  struct ual_ub_dir_tally *d = &t->f.ub.d[r->dir & 1];
  const struct ual_ub_flit *u = &r->ub;
  d->flits++;
  if (ual_ub_bcrc_bad(u)) d->bcrc_bad++;
  if (u->unit.kind == UAL_UB_UNIT_DLLDP) {
    d->dlldps[u->unit.vl & 15]++;
    d->bytes[u->unit.vl & 15] += u->unit.payload_len;
  } else if (u->unit.kind == UAL_UB_UNIT_DLLCB) {
    d->dllcbs[u->unit.cb.type <= UAL_UB_CB_UNKNOWN ? u->unit.cb.type : UAL_UB_CB_UNKNOWN]++;
  }
}

struct out {
  ual_view_counter_fn fn;
  void *ctx;
};

static void row(const struct out *o, unsigned table, const char *key, const char *label, const char *unit,
                unsigned indent, bool heading, uint64_t a, uint64_t b) {
  struct ual_view_counter c = { (uint8_t)table, key, label, unit, indent, heading, false, false, { a, b }, { 0, 0 } };
  o->fn(o->ctx, &c);
}

static void kinds(const struct ual_view_src *s, unsigned k, ual_view_counter_fn fn, void *ctx) {
  const struct ual_ub_tally *t = &s->tally->l[k].f.ub;
  struct out o = { fn, ctx };
  row(&o, UAL_VIEW_T_RECORDS, NULL, "UB flits", "flits", 2, false, t->d[0].flits, t->d[1].flits);
}

static void counters(const struct ual_view_src *s, unsigned k, ual_view_counter_fn fn, void *ctx) {
  const struct ual_ub_dir_tally *a = &s->tally->l[k].f.ub.d[0], *b = &s->tally->l[k].f.ub.d[1];
  struct out o = { fn, ctx };
  const unsigned T = UAL_VIEW_T_RECORDS;
  char key[48], label[48];
  row(&o, T, NULL, "UB flits", "", 0, true, 0, 0);
  row(&o, T, "ub.flits", "flits", "flits", 2, false, a->flits, b->flits);
  row(&o, T, "ub.bcrc_bad", "BCRC bad", "flits", 2, false, a->bcrc_bad, b->bcrc_bad);
  row(&o, T, NULL, "UB DLLDPs by VL (count, payload bytes)", "", 0, true, 0, 0);
  for (int v = 0; v < UAL_UB_VLS; v++) {
    if (!a->dlldps[v] && !b->dlldps[v]) continue;
    snprintf(key, sizeof key, "ub.vl%d.dlldps", v);
    snprintf(label, sizeof label, "VL%d DLLDPs", v);
    row(&o, T, key, label, "DLLDPs", 2, false, a->dlldps[v], b->dlldps[v]);
    snprintf(key, sizeof key, "ub.vl%d.bytes", v);
    snprintf(label, sizeof label, "VL%d bytes", v);
    row(&o, T, key, label, "bytes", 4, false, a->bytes[v], b->bytes[v]);
  }
  row(&o, T, NULL, "UB DLLCBs", "", 0, true, 0, 0);
  for (int t = 0; t <= UAL_UB_CB_UNKNOWN; t++) {
    if (!a->dllcbs[t] && !b->dllcbs[t]) continue;
    const char *n = ual_ub_cb_name((enum ual_ub_cb_type)t);
    snprintf(key, sizeof key, "ub.dllcbs.%s", n);
    for (char *c = key; *c; c++)
      if (*c == ' ') *c = '_';
    row(&o, T, key, n, "blocks", 2, false, a->dllcbs[t], b->dllcbs[t]);
  }
  const struct ual_ub_an *x = an(s);
  if (!x) return;
  const struct ual_ub_side *p = &x->s[0], *q = &x->s[1];
  const unsigned S = UAL_VIEW_T_SENT_BY;
  row(&o, S, "dlldps", "DLLDPs", "DLLDPs", 4, false, p->dlldps, q->dlldps);
  row(&o, S, "dllcbs", "DLLCBs", "blocks", 4, false, p->dllcbs, q->dllcbs);
  row(&o, S, "bad_blocks", "bad blocks", "blocks", 4, false, p->bad_blocks, q->bad_blocks);
  row(&o, S, "retry_req_sets", "Retry_Req_Sets", "sets", 4, false, p->retry_req_sets, q->retry_req_sets);
  row(&o, S, "retry_ack_sets", "Retry_Ack_Sets", "sets", 4, false, p->retry_ack_sets, q->retry_ack_sets);
  row(&o, S, "replayed", "flits replayed", "flits", 4, false, p->replayed, q->replayed);
}

/* ---- state rows ---- */

static const char *mode_name(unsigned m) {
  return m == UAL_UB_MODE_CRC ? "CRC mode" : m == UAL_UB_MODE_NONCRC ? "non-CRC mode" : "unknown";
}

static void state(const struct ual_view_src *s, unsigned k, ual_view_row_fn fn, void *ctx) {
  (void)k;
  const struct ual_ub_an *a = an(s);
  if (!a) return;
  struct ual_view_rows w = { fn, ctx, "Link" };
  char b[2][48];
  const char *v[2];
  ual_view_row_put(&w, "mode", "", true, a->mode ? mode_name(a->mode) : NULL, NULL);
  for (unsigned d = 0; d < 2; d++) {
    snprintf(b[d], sizeof b[d], "x%u", a->width[d]);
    v[d] = a->width[d] ? b[d] : NULL;
  }
  ual_view_row_put(&w, "width", "lanes", false, v[0], v[1]);
  w.group = "Data link layer";
  for (unsigned d = 0; d < 2; d++) v[d] = a->s[d].dll ? ual_ub_dll_name(a->s[d].dll) : NULL;
  ual_view_row_put(&w, "DLL state", "", false, v[0], v[1]);
  for (unsigned d = 0; d < 2; d++) {
    int32_t t = 0;
    for (unsigned vl = 0; vl < UAL_UB_VLS; vl++) t += a->s[d].cred[vl];
    snprintf(b[d], sizeof b[d], "%d", t);
    v[d] = a->s[d].cred_known ? b[d] : NULL;
  }
  ual_view_row_put(&w, "credits held (all VLs)", "cells", false, v[0], v[1]);
  for (unsigned vl = 0; vl < UAL_UB_VLS; vl++) {
    if (!a->s[0].cred[vl] && !a->s[1].cred[vl] && !a->s[0].cred_init[vl] && !a->s[1].cred_init[vl]) continue;
    char label[32];
    snprintf(label, sizeof label, "VL%u credits held", vl);
    for (unsigned d = 0; d < 2; d++) {
      snprintf(b[d], sizeof b[d], "%d", a->s[d].cred[vl]);
      v[d] = a->s[d].cred_known ? b[d] : NULL;
    }
    ual_view_row_put(&w, label, "cells", false, v[0], v[1]);
  }
  w.group = "Retry";
  for (unsigned d = 0; d < 2; d++) {
    snprintf(b[d], sizeof b[d], "%d", a->s[d].unacked);
    v[d] = a->s[d].unacked >= 0 ? b[d] : NULL;
  }
  ual_view_row_put(&w, "un-ACKed flits (retry buffer)", "flits", false, v[0], v[1]);
  for (unsigned d = 0; d < 2; d++) {
    snprintf(b[d], sizeof b[d], "%" PRIu32 "%s", a->s[d].wr, a->s[d].wr_sure ? "" : " (learned)");
    v[d] = a->s[d].wr_known ? b[d] : NULL;
  }
  ual_view_row_put(&w, "WrPtr (flits backed up)", "", false, v[0], v[1]);
  for (unsigned d = 0; d < 2; d++) {
    const struct ual_ub_side *x = &a->s[d];
    if (x->replaying) snprintf(b[d], sizeof b[d], "replaying, %" PRIu32 " flits left", x->rp_left);
    else if (x->ep_frame) snprintf(b[d], sizeof b[d], "Retry_Req_Set sent, awaiting Retry_Ack_Set");
    else if (x->discarding) snprintf(b[d], sizeof b[d], "its stream discarded until its Retry_Ack_Set");
    else snprintf(b[d], sizeof b[d], "%s", x->disc_maybe ? "not yet known" : "normal");
    v[d] = x->disc_maybe && !x->replaying && !x->ep_frame && !x->discarding ? NULL : b[d];
  }
  ual_view_row_put(&w, "retry state", "", false, v[0], v[1]);
  for (unsigned d = 0; d < 2; d++) {
    const uint8_t mc = a->s[d].mc;
    v[d] = !a->s[d].mc_known ? NULL : mc == 1 ? "REQ sent" : mc == 2 ? "ACK sent" : "none";
  }
  ual_view_row_put(&w, "Block_Mode_Chg", "", false, v[0], v[1]);
  if (!a->p.known) return;
  w.group = "Negotiated (Init Blocks)";
  char one[48];
  snprintf(one, sizeof one, "%u / %u", a->p.data_ack, a->p.ctrl_ack);
  ual_view_row_put(&w, "ACK grain data / control", "flits", true, one, NULL);
  snprintf(one, sizeof one, "%u", a->p.flow_ctrl);
  ual_view_row_put(&w, "flow control cell", "flits", true, one, NULL);
  snprintf(one, sizeof one, "%04x", a->p.vl_enable);
  ual_view_row_put(&w, "VL_ENABLE", "", true, one, NULL);
  for (unsigned d = 0; d < 2; d++) snprintf(b[d], sizeof b[d], "%u", a->p.depth[d]);
  ual_view_row_put(&w, "RETRY_BUF_DEPTH", "flits", false, b[0], b[1]);
}

static int state_line(const struct ual_view_src *s, unsigned k, char *buf, size_t cap) {
  (void)k;
  return an(s) ? ual_ub_an_state_text(an(s), buf, cap) : 0;
}

/* ---- lanes ---- */

static const char *dll_name(unsigned v) { return ual_ub_dll_name(v); }
static const char *width_text(unsigned v) {
  static const char *const n[17] = { "?", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",
                                     "x13", "x14", "x15", "x16" };
  return v <= 16 ? n[v] : "?";
}

enum { L_DLL, L_MODE, L_WIDTH, L_BCRC, L_RETRY_REQ, L_RETRY_ACK, L_DISCARD, L_COUNT };

static const struct ual_view_lane lanes[L_COUNT] = {
  [L_DLL] = { "ub_dll", "DLL state", UAL_LANE_STATE, 0, UAL_UB_DLL_NORMAL + 1, dll_name, NULL },
  [L_MODE] = { "ub_mode", "mode", UAL_LANE_STATE, 1, 3, mode_name, NULL },
  [L_WIDTH] = { "ub_width", "width", UAL_LANE_LEVEL, 0, 0, width_text, NULL },
  [L_BCRC] = { "ub_bcrc", "BCRC failures", UAL_LANE_MARKS, 0, 0, NULL, "#d84315" },
  [L_RETRY_REQ] = { "ub_retry_req", "Retry_Req_Sets", UAL_LANE_MARKS, 0, 0, NULL, "#7b1fa2" },
  [L_RETRY_ACK] = { "ub_retry_ack", "Retry_Ack_Sets", UAL_LANE_MARKS, 0, 0, NULL, "#1565c0" },
  [L_DISCARD] = { "ub_discard", "discarded blocks", UAL_LANE_MARKS, 0, 0, NULL, "#607d8b" },
};

static unsigned marks(const struct ual_rec_result *r, const struct ual_events *ev, struct ual_view_mark *out,
                      unsigned cap) {
  unsigned n = 0, d = r->dir & 1;
  for (unsigned i = 0; i < r->findings.n; i++) {
    unsigned rule = r->findings.v[i].rule;
    if (rule == UAL_R_UB_BCRC) n = ual_view_mark_put(out, n, cap, L_BCRC, d, 1);
    else if (rule == UAL_R_UB_DISCARDED) n = ual_view_mark_put(out, n, cap, L_DISCARD, d, 1);
  }
  for (unsigned i = 0; ev && i < ev->n; i++) {
    const struct ual_tevent *e = &ev->v[i];
    switch (e->kind) {
    case UAL_TEV_UB_DLL: n = ual_view_mark_put(out, n, cap, L_DLL, e->partner, e->value > 0 ? e->value : 0); break;
    case UAL_TEV_UB_MODE:
      if (e->value > 0) n = ual_view_mark_put(out, n, cap, L_MODE, UAL_VIEW_LINKWIDE, e->value);
      break;
    case UAL_TEV_UB_LANES: n = ual_view_mark_put(out, n, cap, L_WIDTH, e->partner, e->value > 0 ? e->value : 0); break;
    case UAL_TEV_UB_RETRY:
      n = ual_view_mark_put(out, n, cap, e->value == 1 ? L_RETRY_REQ : L_RETRY_ACK, e->partner, 1);
      break;
    default: break;
    }
  }
  return n;
}

/* ---- transactions: retry episodes ---- */

static unsigned txns(const struct ual_rec_result *r, const struct ual_events *ev, struct ual_view_txn *out,
                     unsigned cap) {
  (void)r;
  unsigned n = 0;
  for (unsigned i = 0; ev && i < ev->n && n < cap; i++) {
    const struct ual_tevent *e = &ev->v[i];
    if (e->kind != UAL_TEV_UB_RETRY || e->value != 2 || e->partner > 1) continue;
    struct ual_view_txn *t = &out[n++];
    memset(t, 0, sizeof *t);
    t->side = (uint8_t)(e->partner ^ 1);   /* the side that asked for the replay */
    t->status = UAL_TXN_OK;
    t->parts = 1;
    t->start_frame = e->req_frame;
    t->end_frame = e->frame;
    t->end_ns = e->ts_ns;
    t->latency_ns = e->latency_ns;
    snprintf(t->kind, sizeof t->kind, "retry");
    snprintf(t->what, sizeof t->what, "%c asks %c for a replay", t->side ? 'B' : 'A', t->side ? 'A' : 'B');
    snprintf(t->result, sizeof t->result, "Retry_Ack_Set RdPtr %d", e->old);
  }
  return n;
}

static void open_txns(const struct ual_view_src *s, unsigned k, ual_view_txn_fn fn, void *ctx) {
  (void)k;
  const struct ual_ub_an *a = an(s);
  if (!a) return;
  for (unsigned d = 0; d < 2; d++) {
    if (!a->s[d].ep_frame) continue;
    struct ual_view_txn t;
    memset(&t, 0, sizeof t);
    t.side = (uint8_t)d;
    t.start_frame = a->s[d].ep_frame;
    t.start_ns = a->s[d].ep_ns;
    snprintf(t.kind, sizeof t.kind, "retry");
    snprintf(t.what, sizeof t.what, "%c asks %c for a replay", d ? 'B' : 'A', d ? 'A' : 'B');
    snprintf(t.result, sizeof t.result, "no Retry_Ack_Set");
    fn(ctx, &t);
  }
}

const struct ual_view_fabric ual_view_ub = {
  "UB", "ub", owns, name_link, tally, state, state_line, kinds, counters, lanes, L_COUNT, marks, txns, open_txns, true,
};
