/* UALink's presentation model (core/views.h): its link's state rows, its
 * counters, its timeline lanes and its negotiations as transactions. */
#include "ualink/core/views.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ualink/ualink/analysis.h"
#include "ualink/ualink/filter.h"
#include "ualink/ualink/dlproto.h"
#include "ualink/ualink/ltssm.h"

void ual_analyzer_view_src(const struct ual_analyzer *a, const struct ual_view_tally *t, struct ual_view_src *out) {
  out->fab = a ? &a->fab : NULL;
  out->top = a;
  out->tally = t;
}

static bool owns(unsigned kind) {
#define UAL_X_(code, k) if (kind == code) return true;
  UAL_UALINK_KINDS(UAL_X_)
#undef UAL_X_
  return false;
}

static void name(const struct ual_view_src *s, unsigned k, struct ual_view_link *l) {
  (void)k;
  if (!s->top) return;
  struct ual_analysis_summary sum;
  ual_analyzer_summary(s->top, &sum);
  for (unsigned d = 0; d < 2; d++) {
    const char *r = sum.role[d] ? ual_value_name(ual_vals_role, sum.role[d]) : NULL;
    if (r) snprintf(l->side[d], sizeof l->side[d], "%c (%s)", d ? 'B' : 'A', r);
  }
}

/* ---- counters ---- */

static void tally(struct ual_view_link_tally *t, const struct ual_rec_result *r) {
  struct ual_ualink_dir_tally *d = &t->f.ualink.d[r->dir & 1];
  if (r->rec.h.kind == UAL_REC_OS) {
    d->os++;
    return;
  }
  const struct ual_flit_info *fi = &r->flit;
  d->flits++;
  d->usage[fi->kind & 3]++;
  if (fi->crc_ok) d->crc_ok++;
  else if (fi->crc_inverted) d->crc_inverted++;
  else d->crc_bad++;
  d->fec[fi->fec.status < 3 ? fi->fec.status : UAL_FEC_UNCORRECTABLE]++;
  if (fi->valid && (fi->kind == UAL_FK_PAYLOAD || fi->kind == UAL_FK_NOP)) d->replay_cmd[fi->fh.replay_cmd & 3]++;
  if (r->unpacked) {
    d->tl_started += r->unp.tl_started;
    d->tl_flits += r->unp.n_tl;
    for (unsigned i = 0; i < r->unp.n_msg; i++) {
      d->dl_msgs[r->unp.msg[i].msg.type < UAL_MT_COUNT ? r->unp.msg[i].msg.type : UAL_MT_RESERVED]++;
      d->uart_payload_dw += r->unp.msg[i].n_payload;
    }
  }
}

struct out {
  ual_view_counter_fn fn;
  void *ctx;
};

static void row(const struct out *o, unsigned table, const char *key, const char *label, const char *unit,
                unsigned indent, uint64_t a, uint64_t b, bool no_total) {
  struct ual_view_counter c = { (uint8_t)table, key, label, unit, indent, false, false, no_total, { a, b }, { 0, 0 } };
  o->fn(o->ctx, &c);
}

static void heading(const struct out *o, const char *label) {
  struct ual_view_counter c = { UAL_VIEW_T_RECORDS, NULL, label, "", 0, true, false, false, { 0, 0 }, { 0, 0 } };
  o->fn(o->ctx, &c);
}

static void kinds(const struct ual_view_src *s, unsigned k, ual_view_counter_fn fn, void *ctx) {
  const struct ual_ualink_tally *t = &s->tally->l[k].f.ualink;
  struct out o = { fn, ctx };
  row(&o, UAL_VIEW_T_RECORDS, "flit", "flits", "flits", 2, t->d[0].flits, t->d[1].flits, false);
  row(&o, UAL_VIEW_T_RECORDS, "os", "ordered sets", "records", 2, t->d[0].os, t->d[1].os, false);
}

/* TL payload bits per second of a direction over the link's time span. */
static double tl_gbps(const struct ual_ualink_dir_tally *d, uint64_t dur_ns) {
  return dur_ns ? (double)d->tl_flits * UAL_TL_FLIT_BYTES * 8.0 / (double)dur_ns : 0.0;
}

static void sent_by(const struct out *o, const struct ual_analysis_summary *s) {
  const struct ual_replay_stats *a = &s->replay[0], *b = &s->replay[1];
  const unsigned T = UAL_VIEW_T_SENT_BY;
  row(o, T, "delivered", "payload flits delivered", "flits", 4, a->delivered, b->delivered, false);
  row(o, T, "duplicates", "duplicates discarded", "flits", 4, a->duplicates, b->duplicates, false);
  row(o, T, "gaps", "sequence gaps", "", 4, a->gaps, b->gaps, false);
  row(o, T, "naks", "Naks (standard)", "", 4, a->naks, b->naks, false);
  row(o, T, "naks_selective", "Naks (selective)", "", 4, a->naks_selective, b->naks_selective, false);
  row(o, T, "replays", "replays (go-back-N)", "", 4, a->replays, b->replays, false);
  row(o, T, "replays_selective", "replays (selective)", "", 4, a->replays_selective, b->replays_selective, false);
  row(o, T, "replayed_flits", "flits replayed", "flits", 4, a->replayed_flits, b->replayed_flits, false);
  row(o, T, "acks", "Acks", "", 4, a->acks, b->acks, false);
  row(o, T, "ack_latency_max_ns", "Ack latency max (ns)", "ns", 4, a->ack_lat_ns_max, b->ack_lat_ns_max, true);
  row(o, T, NULL, "Ack latency mean (ns)", "ns", 4, a->ack_lat_n ? a->ack_lat_ns_sum / a->ack_lat_n : 0,
      b->ack_lat_n ? b->ack_lat_ns_sum / b->ack_lat_n : 0, true);
  row(o, T, NULL, "unacknowledged max", "flits", 4, a->unacked_max, b->unacked_max, true);
  for (int k = 0; k < UAL_NEG_COUNT; k++) {
    char key[48], label[48];
    snprintf(key, sizeof key, "negotiations.%s", ual_neg_outcome_name((unsigned)k));
    snprintf(label, sizeof label, "negotiations: %s", ual_neg_outcome_name((unsigned)k));
    row(o, T, key, label, "", 4, s->negs[0][k], s->negs[1][k], false);
  }
  row(o, T, "uart_transports", "UART transports", "", 4, s->uart_transports[0], s->uart_transports[1], false);
  row(o, T, "uart_payload_dw", "UART payload DWords", "DWords", 4, s->uart_payload_dw[0], s->uart_payload_dw[1],
      false);
  row(o, T, "uart_credits", "UART credit updates", "", 4, s->uart_credits[0], s->uart_credits[1], false);
  row(o, T, "uart_resets", "UART stream resets", "", 4, s->uart_resets[0], s->uart_resets[1], false);
  row(o, T, "vdps", "Vendor Defined Packets", "", 4, s->vdps[0], s->vdps[1], false);
  row(o, T, "sync_frame", "synchronized at frame", "frame", 4, s->sync_frame[0], s->sync_frame[1], true);
  row(o, T, "unsynced_flits", "flits before synchronized", "flits", 4, s->unsynced_flits[0], s->unsynced_flits[1],
      false);
}

static void counters(const struct ual_view_src *s, unsigned k, ual_view_counter_fn fn, void *ctx) {
  const struct ual_view_link_tally *l = &s->tally->l[k];
  const struct ual_ualink_dir_tally *a = &l->f.ualink.d[0], *b = &l->f.ualink.d[1];
  struct out o = { fn, ctx };
  const unsigned T = UAL_VIEW_T_RECORDS;
  char key[64];
  heading(&o, "Flits by usage");
  for (int i = 0; i < 4; i++) {
    const char *n = ual_flit_kind_name((enum ual_flit_kind)i);
    snprintf(key, sizeof key, "usage.%s", n);
    row(&o, T, key, n, "flits", 2, a->usage[i], b->usage[i], false);
  }
  heading(&o, "CRC-64");
  row(&o, T, "crc.ok", "ok", "flits", 2, a->crc_ok, b->crc_ok, false);
  row(&o, T, "crc.bad", "bad", "flits", 2, a->crc_bad, b->crc_bad, false);
  row(&o, T, "crc.inverted", "inverted (containment)", "flits", 2, a->crc_inverted, b->crc_inverted, false);
  heading(&o, "FEC");
  for (int i = 0; i < 3; i++) {
    const char *n = ual_fec_status_name((enum ual_fec_status)i);
    snprintf(key, sizeof key, "fec.%s", n);
    row(&o, T, key, n, "flits", 2, a->fec[i], b->fec[i], false);
  }
  heading(&o, "Replay command (valid flits)");
  for (int i = 0; i < 4; i++) {
    const char *n = ual_replay_cmd_name((enum ual_replay_cmd)i);
    snprintf(key, sizeof key, "replay_cmd.%s", n);
    row(&o, T, key, n, "flits", 2, a->replay_cmd[i], b->replay_cmd[i], false);
  }
  row(&o, T, "naks", "naks", "flits", 2, a->replay_cmd[UAL_RC_NAK] + a->replay_cmd[UAL_RC_NAK_SELECTIVE],
      b->replay_cmd[UAL_RC_NAK] + b->replay_cmd[UAL_RC_NAK_SELECTIVE], false);
  row(&o, T, "replays", "replays (RP-REPLAY)", "", 2, l->d[0].rules[UAL_R_RP_REPLAY], l->d[1].rules[UAL_R_RP_REPLAY],
      false);
  heading(&o, "TL flits");
  row(&o, T, "tl_started", "started", "TL flits", 2, a->tl_started, b->tl_started, false);
  row(&o, T, "tl_flits", "completed", "TL flits", 2, a->tl_flits, b->tl_flits, false);
  heading(&o, "DL messages");
  uint64_t ta = 0, tb = 0;
  for (int t = 0; t < UAL_MT_COUNT; t++) {
    ta += a->dl_msgs[t];
    tb += b->dl_msgs[t];
  }
  row(&o, T, NULL, "total", "messages", 2, ta, tb, false);
  for (int t = 0; t < UAL_MT_COUNT; t++) {
    if (!a->dl_msgs[t] && !b->dl_msgs[t]) continue;
    snprintf(key, sizeof key, "dl_msgs.%s", ual_msg_types[t].json);
    row(&o, T, key, ual_msg_types[t].json, "messages", 4, a->dl_msgs[t], b->dl_msgs[t], false);
  }
  if (a->uart_payload_dw || b->uart_payload_dw)
    row(&o, T, "uart_payload_dw", "UART payload DWords", "DWords", 2, a->uart_payload_dw, b->uart_payload_dw, false);
  /* the rate over the link's span, both directions */
  uint64_t first = 0, last = 0;
  for (int d = 0; d < 2; d++) {
    if (!l->d[d].first_ts) continue;
    if (!first || l->d[d].first_ts < first) first = l->d[d].first_ts;
    if (l->d[d].last_ts > last) last = l->d[d].last_ts;
  }
  if (first) {
    struct ual_view_counter c = { UAL_VIEW_T_RATES, "tl_gbps", "TL payload throughput (Gb/s)", "Gb/s", 0, false,
                                  false, false, { 0, 0 }, { tl_gbps(a, last - first), tl_gbps(b, last - first) } };
    fn(ctx, &c);
  }
  if (s->top) {
    struct ual_analysis_summary sum;
    ual_analyzer_summary(s->top, &sum);
    sent_by(&o, &sum);
  }
}

/* ---- state rows ---- */

/* A row of one value per side from a value list, UAL_UNKNOWN (or < 0) unknown. */
static void row_vals(const struct ual_view_rows *w, const char *label, const char *unit, const int v[2],
                     const struct ual_value_name *vals) {
  struct ual_view_row r = { w->group, label, unit, false, { false, false }, { "", "" } };
  for (unsigned d = 0; d < 2; d++) {
    const char *n = v[d] >= 0 ? (vals ? ual_value_name(vals, (uint32_t)v[d]) : NULL) : NULL;
    r.known[d] = v[d] >= 0;
    if (!r.known[d]) snprintf(r.value[d], sizeof r.value[d], "%s", UAL_VIEW_UNKNOWN);
    else if (n) snprintf(r.value[d], sizeof r.value[d], "%s", n);
    else snprintf(r.value[d], sizeof r.value[d], "%d", v[d]);
  }
  w->fn(w->ctx, &r);
}

static void row_text(const struct ual_view_rows *w, const char *label, const char *unit, const char *const t[2]) {
  struct ual_view_row r = { w->group, label, unit, false, { false, false }, { "", "" } };
  for (unsigned d = 0; d < 2; d++) {
    r.known[d] = t[d] != NULL;
    snprintf(r.value[d], sizeof r.value[d], "%s", t[d] ? t[d] : UAL_VIEW_UNKNOWN);
  }
  w->fn(w->ctx, &r);
}

static const char *onoff(int v) { return v == 1 ? "online" : v == 0 ? "offline" : NULL; }

static void state(const struct ual_view_src *s, unsigned k, ual_view_row_fn fn, void *ctx) {
  (void)k;
  if (!s->top) return;
  struct ual_analysis_summary a;
  ual_analyzer_summary(s->top, &a);
  struct ual_view_rows w = { fn, ctx, "Physical layer" };
  const char *t[2];
  char rate[2][16], width[2][8];
  for (unsigned d = 0; d < 2; d++) t[d] = a.ltssm[d] == UAL_LT_UNKNOWN ? NULL : ual_lt_state_name(a.ltssm[d]);
  row_text(&w, "LTSSM", "", t);
  for (unsigned d = 0; d < 2; d++) {
    const char *n = ual_rate_name(a.rate[d]);
    snprintf(rate[d], sizeof rate[d], "%s", n ? n : "");
    t[d] = n ? rate[d] : NULL;
  }
  row_text(&w, "data rate", "GT/s", t);
  for (unsigned d = 0; d < 2; d++) {
    snprintf(width[d], sizeof width[d], "x%u", a.width[d]);
    t[d] = a.width[d] ? width[d] : NULL;
  }
  row_text(&w, "width", "lanes", t);
  int v[2] = { a.role[0] ? a.role[0] : -1, a.role[1] ? a.role[1] : -1 };
  row_vals(&w, "role", "", v, ual_vals_role);
  for (unsigned d = 0; d < 2; d++) t[d] = a.alt_protocol[d] ? "UALink (Modified TS)" : "not seen";
  row_text(&w, "alternate protocol", "", t);
  w.group = "Data link";
  for (unsigned d = 0; d < 2; d++) t[d] = onoff(a.ch0[d]);
  row_text(&w, "channel 0 (TL)", "", t);
  for (unsigned d = 0; d < 2; d++) t[d] = onoff(a.ch4[d]);
  row_text(&w, "channel 4 (UART)", "", t);
  v[0] = a.neg_width[0], v[1] = a.neg_width[1];
  row_vals(&w, "negotiated width", "", v, ual_vals_width);
  v[0] = a.neg_speed[0], v[1] = a.neg_speed[1];
  row_vals(&w, "negotiated speed", "", v, ual_vals_speed);
  v[0] = a.neg_state[0], v[1] = a.neg_state[1];
  row_vals(&w, "negotiated link state", "", v, ual_vals_state);
  v[0] = a.tl_rate[0], v[1] = a.tl_rate[1];
  row_vals(&w, "TL rate", "x 50 kHz", v, NULL);
  w.group = "Replay";
  v[0] = a.unacked[0], v[1] = a.unacked[1];
  row_vals(&w, "unacknowledged", "flits", v, NULL);
  char sf[2][24];
  for (unsigned d = 0; d < 2; d++) {
    snprintf(sf[d], sizeof sf[d], "frame %" PRIu64, a.sync_frame[d]);
    t[d] = a.sync_frame[d] ? sf[d] : NULL;
  }
  row_text(&w, "synchronized", "", t);
}

static int state_line(const struct ual_view_src *s, unsigned k, char *buf, size_t cap) {
  (void)k;
  return s->top ? ual_analyzer_state_text(s->top, buf, cap) : 0;
}

/* ---- lanes ---- */

/* The LTSSM states grouped for the lane's bands. */
#define LT_CLASSES(X) \
  X(UNKNOWN, "unknown") X(DETECT, "Detect") X(POLLING, "Polling") X(CONFIG, "Configuration") X(L0, "L0") \
  X(L0P, "L0p") X(RECOVERY, "Recovery") X(L1, "L1") X(OTHER, "other")

enum lt_class {
#define UAL_X_(e, n) LC_##e,
  LT_CLASSES(UAL_X_)
#undef UAL_X_
  LC_COUNT
};

static const char *lt_class_name(unsigned c) {
  static const char *const n[LC_COUNT] = {
#define UAL_X_(e, s) s,
    LT_CLASSES(UAL_X_)
#undef UAL_X_
  };
  return c < LC_COUNT ? n[c] : "?";
}

static unsigned lt_class(int s) {
  if (s == UAL_LT_DETECT_QUIET || s == UAL_LT_DETECT_ACTIVE) return LC_DETECT;
  if (s >= UAL_LT_POLL_ACTIVE && s <= UAL_LT_POLL_COMPLIANCE) return LC_POLLING;
  if (s >= UAL_LT_CFG_LW_START && s <= UAL_LT_CFG_IDLE) return LC_CONFIG;
  if (s == UAL_LT_L0) return LC_L0;
  if (s == UAL_LT_L0P) return LC_L0P;
  if (s >= UAL_LT_REC_LOCK && s <= UAL_LT_REC_IDLE) return LC_RECOVERY;
  if (s == UAL_LT_L1_ENTRY || s == UAL_LT_L1_IDLE) return LC_L1;
  if (s <= UAL_LT_UNKNOWN) return LC_UNKNOWN;
  return LC_OTHER;
}

static const char *rate_text(unsigned v) {
  const char *n = ual_rate_name(v);
  return n ? n : "?";
}

static const char *width_text(unsigned v) {
  static const char *const n[17] = { "?", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",
                                     "x13", "x14", "x15", "x16" };
  return v <= 16 ? n[v] : "?";
}

static const char *chan_text(unsigned v) { return v == 2 ? "online" : v == 1 ? "offline" : "unknown"; }

enum { L_LTSSM, L_RATE, L_WIDTH, L_CH0, L_CH4, L_NAK, L_REPLAY, L_FEC_CORR, L_FEC_UNC, L_COUNT };

static const struct ual_view_lane lanes[L_COUNT] = {
  [L_LTSSM] = { "ltssm", "LTSSM", UAL_LANE_STATE, 0, LC_COUNT, lt_class_name, NULL },
  [L_RATE] = { "rate", "data rate (GT/s)", UAL_LANE_LEVEL, 0, 0, rate_text, NULL },
  [L_WIDTH] = { "width", "width", UAL_LANE_LEVEL, 0, 0, width_text, NULL },
  [L_CH0] = { "ch0", "channel 0 (TL)", UAL_LANE_STATE, 0, 3, chan_text, NULL },
  [L_CH4] = { "ch4", "channel 4 (UART)", UAL_LANE_STATE, 0, 3, chan_text, NULL },
  [L_NAK] = { "nak", "Naks sent", UAL_LANE_MARKS, 0, 0, NULL, "#e67e22" },
  [L_REPLAY] = { "replay", "replays (RP-REPLAY)", UAL_LANE_MARKS, 0, 0, NULL, "#8e44ad" },
  [L_FEC_CORR] = { "fec_corrected", "FEC corrected", UAL_LANE_MARKS, 0, 0, NULL, "#f1c40f" },
  [L_FEC_UNC] = { "fec_uncorrectable", "FEC uncorrectable", UAL_LANE_MARKS, 0, 0, NULL, "#c0392b" },
};

static unsigned marks(const struct ual_rec_result *r, const struct ual_events *ev, struct ual_view_mark *out,
                      unsigned cap) {
  unsigned n = 0, d = r->dir & 1;
  if (r->rec.h.kind == UAL_REC_FLIT) {
    const struct ual_flit_info *fi = &r->flit;
    if (fi->valid && (fi->kind == UAL_FK_PAYLOAD || fi->kind == UAL_FK_NOP) &&
        (fi->fh.replay_cmd == UAL_RC_NAK || fi->fh.replay_cmd == UAL_RC_NAK_SELECTIVE))
      n = ual_view_mark_put(out, n, cap, L_NAK, d, 1);
    if (fi->fec.status == UAL_FEC_CORRECTED) n = ual_view_mark_put(out, n, cap, L_FEC_CORR, d, 1);
    else if (fi->fec.status == UAL_FEC_UNCORRECTABLE) n = ual_view_mark_put(out, n, cap, L_FEC_UNC, d, 1);
  }
  for (unsigned i = 0; i < r->findings.n; i++)
    if (r->findings.v[i].rule == UAL_R_RP_REPLAY) n = ual_view_mark_put(out, n, cap, L_REPLAY, d, 1);
  for (unsigned i = 0; ev && i < ev->n; i++) {
    const struct ual_tevent *e = &ev->v[i];
    unsigned p = e->partner;
    switch (e->kind) {
    case UAL_TEV_LTSSM: n = ual_view_mark_put(out, n, cap, L_LTSSM, p, (int32_t)lt_class(e->value)); break;
    case UAL_TEV_RATE: n = ual_view_mark_put(out, n, cap, L_RATE, p, e->value > 0 ? e->value : 0); break;
    case UAL_TEV_WIDTH: n = ual_view_mark_put(out, n, cap, L_WIDTH, p, e->value > 0 ? e->value : 0); break;
    case UAL_TEV_CHANNEL: {
      if (e->value < 0) break;
      unsigned ch = (unsigned)e->value & 7, on = ((unsigned)e->value & UAL_CHAN_ONLINE) ? 2 : 1;
      if (ch == UAL_CHAN_TL) n = ual_view_mark_put(out, n, cap, L_CH0, p, (int32_t)on);
      else if (ch == UAL_CHAN_UART) n = ual_view_mark_put(out, n, cap, L_CH4, p, (int32_t)on);
      break;
    }
    default: break;
    }
  }
  return n;
}

/* ---- transactions: negotiations, from request to their end ---- */

static bool neg_txn(const struct ual_tevent *e, struct ual_view_txn *t) {
  memset(t, 0, sizeof *t);
  switch (e->outcome) {
  case UAL_NEG_COMPLETE: t->status = UAL_TXN_OK; break;
  case UAL_NEG_NACK: t->status = UAL_TXN_REJECT; break;
  case UAL_NEG_PENDING: t->status = UAL_TXN_DEFERRED; break;
  case UAL_NEG_NO_CONFIRM: t->status = UAL_TXN_ERROR; break;
  default: return false;
  }
  /* a Nack or Decision Pending is the responder's; the request was its partner's */
  bool answer = e->outcome == UAL_NEG_NACK || e->outcome == UAL_NEG_PENDING;
  t->side = e->partner < 2 && answer ? (uint8_t)(e->partner ^ 1) : e->partner;
  t->start_frame = e->req_frame;
  t->end_frame = e->frame;
  t->end_ns = e->ts_ns;
  t->latency_ns = e->latency_ns;
  t->start_ns = e->latency_ns && e->ts_ns >= e->latency_ns ? e->ts_ns - e->latency_ns : 0;
  t->parts = 1;
  unsigned mt = e->mtype < UAL_MT_COUNT ? e->mtype : UAL_MT_RESERVED;
  snprintf(t->kind, sizeof t->kind, "%s", ual_msg_types[mt].json);
  snprintf(t->what, sizeof t->what, "%s", e->text);
  snprintf(t->result, sizeof t->result, "%s", ual_neg_outcome_name(e->outcome));
  return true;
}

static unsigned txns(const struct ual_rec_result *r, const struct ual_events *ev, struct ual_view_txn *out,
                     unsigned cap) {
  (void)r;
  unsigned n = 0;
  for (unsigned i = 0; ev && i < ev->n && n < cap; i++)
    if (ev->v[i].kind == UAL_TEV_NEGOTIATION && neg_txn(&ev->v[i], &out[n])) n++;
  return n;
}

/* A control request sent and not answered (or Acked and not confirmed). */
static void open_txns(const struct ual_view_src *s, unsigned k, ual_view_txn_fn fn, void *ctx) {
  (void)k;
  if (!s->top) return;
  for (unsigned d = 0; d < 2; d++) {
    const struct ual_ctrl_req *q = &s->top->dp.s[d].req;
    if (q->state != UAL_CS_SENT && q->state != UAL_CS_GRANTED) continue;
    struct ual_view_txn t;
    memset(&t, 0, sizeof t);
    t.side = (uint8_t)d;
    t.start_frame = q->frame;
    t.start_ns = q->ts_ns;
    unsigned mt = q->mtype < UAL_MT_COUNT ? q->mtype : UAL_MT_RESERVED;
    snprintf(t.kind, sizeof t.kind, "%s", ual_msg_types[mt].json);
    snprintf(t.what, sizeof t.what, "%c requests %s (target %u)", d ? 'B' : 'A', ual_msg_types[mt].json, q->target);
    snprintf(t.result, sizeof t.result, "%s", q->state == UAL_CS_GRANTED ? "acked, not confirmed" : "no answer");
    fn(ctx, &t);
  }
}

const struct ual_view_fabric ual_view_ualink = {
  "UALink", "ualink", owns, name, tally, state, state_line, kinds, counters, lanes, L_COUNT, marks, txns, open_txns, true,
};
