/* Statistics (stats.h). */
#include "stats.h"
#include "json.h"

static const char *const dir_name[2] = { "A>B", "B>A" };
static const char *const kind_json[DC_K_COUNT] = { "malformed", "flit", "os", "event" };

void dc_stats_add(struct dc_stats *s, const struct ual_rec_result *r, uint64_t ts_ns) {
  struct dc_dir_stats *d = &s->d[r->dir & 1];
  d->records++;
  if (ts_ns) {
    if (!d->first_ts || ts_ns < d->first_ts) d->first_ts = ts_ns;
    if (ts_ns > d->last_ts) d->last_ts = ts_ns;
  }
  for (unsigned i = 0; i < r->findings.n; i++) {
    enum ual_rule rule = (enum ual_rule)r->findings.v[i].rule;
    d->rules[rule]++;
    d->sev[ual_rule_severity(rule)]++;
  }
  d->findings_dropped += r->findings.dropped;
  if (r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED) {
    d->kind[DC_K_MALFORMED]++;
    return;
  }
  if (r->rec.h.flags & UAL_RF_LOST) d->after_lost++;
  switch (r->rec.h.kind) {
  case UAL_REC_PCIE_DLLP: case UAL_REC_PCIE_FLIT:
    dc_pcie_stats_add(&s->pcie, r);
    break;
  case UAL_REC_FLIT: {
    const struct ual_flit_info *fi = &r->flit;
    d->kind[DC_K_FLIT]++;
    d->usage[fi->kind & 3]++;
    if (fi->crc_ok) d->crc_ok++;
    else if (fi->crc_inverted) d->crc_inverted++;
    else d->crc_bad++;
    d->fec[fi->fec.status < 3 ? fi->fec.status : UAL_FEC_UNCORRECTABLE]++;
    if (fi->valid && (fi->kind == UAL_FK_PAYLOAD || fi->kind == UAL_FK_NOP))
      d->replay_cmd[fi->fh.replay_cmd & 3]++;
    if (r->unpacked) {
      d->tl_started += r->unp.tl_started;
      d->tl_flits += r->unp.n_tl;
      for (unsigned i = 0; i < r->unp.n_msg; i++) {
        d->dl_msgs[r->unp.msg[i].msg.type < UAL_MT_COUNT ? r->unp.msg[i].msg.type : UAL_MT_RESERVED]++;
        d->uart_payload_dw += r->unp.msg[i].n_payload;
      }
    }
    break;
  }
  case UAL_REC_OS: d->kind[DC_K_OS]++; break;
  case UAL_REC_EVENT: d->kind[DC_K_EVENT]++; break;
  case UAL_REC_UB_FLIT: {
    const struct ual_ub_flit *u = &r->ub;
    d->ub_flits++;
    if (ual_ub_bcrc_bad(u)) d->ub_bcrc_bad++;
    if (u->unit.kind == UAL_UB_UNIT_DLLDP) {
      d->ub_dlldps[u->unit.vl & 15]++;
      d->ub_bytes[u->unit.vl & 15] += u->unit.payload_len;
    } else if (u->unit.kind == UAL_UB_UNIT_DLLCB) {
      d->ub_dllcbs[u->unit.cb.type <= UAL_UB_CB_UNKNOWN ? u->unit.cb.type : UAL_UB_CB_UNKNOWN]++;
    }
    break;
  }
  }
}

/* Span over both directions. */
static void span(const struct dc_stats *s, uint64_t *first, uint64_t *last) {
  *first = *last = 0;
  for (int i = 0; i < 2; i++) {
    const struct dc_dir_stats *d = &s->d[i];
    if (!d->first_ts) continue;
    if (!*first || d->first_ts < *first) *first = d->first_ts;
    if (d->last_ts > *last) *last = d->last_ts;
  }
}

/* TL payload bits per second of a direction over the link's time span. */
static double tl_gbps(const struct dc_dir_stats *d, uint64_t dur_ns) {
  return dur_ns ? (double)d->tl_flits * UAL_TL_FLIT_BYTES * 8.0 / (double)dur_ns : 0.0;
}

#define LABEL_W 36  /* fits "  DM-CTRL-PENDING-TIMEOUT (warning)" */

static void row(struct dc_out *o, unsigned indent, const char *label, uint64_t a, uint64_t b) {
  dc_out_pad(o, indent);
  dc_out_str(o, label);
  size_t len = indent + strlen(label);
  dc_out_pad(o, len < LABEL_W ? (unsigned)(LABEL_W - len) : 1);
  dc_out_u64w(o, a, 12);
  dc_out_u64w(o, b, 12);
  dc_out_u64w(o, a + b, 12);
  dc_out_ch(o, '\n');
}

static void heading(struct dc_out *o, const char *label) {
  dc_out_str(o, label);
  dc_out_ch(o, '\n');
}

struct rows {
  void (*fn)(void *ctx, const struct dc_stats_row *row);
  void *ctx;
  bool per_rule;
};

static void emit(struct rows *w, const char *key, const char *label, unsigned indent, uint64_t a, uint64_t b) {
  struct dc_stats_row r = { key, label, indent, false, w->per_rule, false, a, b };
  w->fn(w->ctx, &r);
}

static void emit_heading(struct rows *w, const char *label) {
  struct dc_stats_row r = { NULL, label, 0, true, w->per_rule, false, 0, 0 };
  w->fn(w->ctx, &r);
}

/* The UALink flit rows: usage, CRC-64, FEC, replay, TL flits, DL messages. */
static void ualink_rows(struct rows *w, const struct dc_dir_stats *a, const struct dc_dir_stats *b) {
  char key[64];
  emit_heading(w, "Flits by usage");
  for (int k = 0; k < 4; k++) {
    const char *n = ual_flit_kind_name((enum ual_flit_kind)k);
    snprintf(key, sizeof key, "usage.%s", n);
    emit(w, key, n, 2, a->usage[k], b->usage[k]);
  }
  emit_heading(w, "CRC-64");
  emit(w, "crc.ok", "ok", 2, a->crc_ok, b->crc_ok);
  emit(w, "crc.bad", "bad", 2, a->crc_bad, b->crc_bad);
  emit(w, "crc.inverted", "inverted (containment)", 2, a->crc_inverted, b->crc_inverted);
  emit_heading(w, "FEC");
  for (int k = 0; k < 3; k++) {
    const char *n = ual_fec_status_name((enum ual_fec_status)k);
    snprintf(key, sizeof key, "fec.%s", n);
    emit(w, key, n, 2, a->fec[k], b->fec[k]);
  }
  emit_heading(w, "Replay command (valid flits)");
  for (int k = 0; k < 4; k++) {
    const char *n = ual_replay_cmd_name((enum ual_replay_cmd)k);
    snprintf(key, sizeof key, "replay_cmd.%s", n);
    emit(w, key, n, 2, a->replay_cmd[k], b->replay_cmd[k]);
  }
  emit(w, "naks", "naks", 2, a->replay_cmd[UAL_RC_NAK] + a->replay_cmd[UAL_RC_NAK_SELECTIVE],
       b->replay_cmd[UAL_RC_NAK] + b->replay_cmd[UAL_RC_NAK_SELECTIVE]);
  emit(w, "replays", "replays (RP-REPLAY)", 2, a->rules[UAL_R_RP_REPLAY], b->rules[UAL_R_RP_REPLAY]);
  emit_heading(w, "TL flits");
  emit(w, "tl_started", "started", 2, a->tl_started, b->tl_started);
  emit(w, "tl_flits", "completed", 2, a->tl_flits, b->tl_flits);
  emit_heading(w, "DL messages");
  uint64_t ta = 0, tb = 0;
  for (int t = 0; t < UAL_MT_COUNT; t++) { ta += a->dl_msgs[t]; tb += b->dl_msgs[t]; }
  emit(w, NULL, "total", 2, ta, tb);
  for (int t = 0; t < UAL_MT_COUNT; t++) {
    if (!a->dl_msgs[t] && !b->dl_msgs[t]) continue;
    snprintf(key, sizeof key, "dl_msgs.%s", ual_msg_types[t].json);
    emit(w, key, ual_msg_types[t].json, 4, a->dl_msgs[t], b->dl_msgs[t]);
  }
  if (a->uart_payload_dw || b->uart_payload_dw)
    emit(w, "uart_payload_dw", "UART payload DWords", 2, a->uart_payload_dw, b->uart_payload_dw);
}

bool dc_stats_ualink(const struct dc_stats *s) {
  uint64_t ualink = 0, other = 0;
  for (int d = 0; d < 2; d++) {
    ualink += s->d[d].kind[DC_K_FLIT] + s->d[d].kind[DC_K_OS];
    other += s->d[d].ub_flits + s->pcie.dllps[d] + s->pcie.flits[d];
  }
  return ualink || !other;
}

void dc_stats_rows(const struct dc_stats *s, void (*fn)(void *ctx, const struct dc_stats_row *row), void *ctx) {
  const struct dc_dir_stats *a = &s->d[0], *b = &s->d[1];
  struct rows w = { fn, ctx, false };
  char key[64], label[64];
  bool ualink = dc_stats_ualink(s);
  emit(&w, "records", "Records", 0, a->records, b->records);
  /* one row per record kind present, so the rows add up to Records */
  static const char *const kind_label[DC_K_COUNT] = { "malformed", "flits", "ordered sets", "link events" };
  static const int kind_order[DC_K_COUNT] = { DC_K_FLIT, DC_K_OS, DC_K_EVENT, DC_K_MALFORMED };
  for (int i = 0; i < DC_K_COUNT; i++) {
    int k = kind_order[i];
    if (k == DC_K_MALFORMED) {
      if (s->pcie.dllps[0] + s->pcie.dllps[1]) emit(&w, NULL, "PCIe DLLPs", 2, s->pcie.dllps[0], s->pcie.dllps[1]);
      if (s->pcie.flits[0] + s->pcie.flits[1]) emit(&w, NULL, "PCIe flits", 2, s->pcie.flits[0], s->pcie.flits[1]);
      if (a->ub_flits + b->ub_flits) emit(&w, NULL, "UB flits", 2, a->ub_flits, b->ub_flits);
    }
    if (ualink || a->kind[k] + b->kind[k] || k == DC_K_EVENT || k == DC_K_MALFORMED)
      emit(&w, kind_json[k], kind_label[k], 2, a->kind[k], b->kind[k]);
  }
  if (a->after_lost || b->after_lost) emit(&w, "after_lost", "Records after lost records", 0, a->after_lost, b->after_lost);
  if (ualink) ualink_rows(&w, a, b);
  dc_pcie_stats_rows(&s->pcie, fn, ctx);
  if (a->ub_flits || b->ub_flits) {
    emit_heading(&w, "UB flits");
    emit(&w, "ub.flits", "flits", 2, a->ub_flits, b->ub_flits);
    emit(&w, "ub.bcrc_bad", "BCRC bad", 2, a->ub_bcrc_bad, b->ub_bcrc_bad);
    emit_heading(&w, "UB DLLDPs by VL (count, payload bytes)");
    for (int v = 0; v < UAL_UB_VLS; v++) {
      if (!a->ub_dlldps[v] && !b->ub_dlldps[v]) continue;
      snprintf(key, sizeof key, "ub.vl%d.dlldps", v);
      snprintf(label, sizeof label, "VL%d DLLDPs", v);
      emit(&w, key, label, 2, a->ub_dlldps[v], b->ub_dlldps[v]);
      snprintf(key, sizeof key, "ub.vl%d.bytes", v);
      snprintf(label, sizeof label, "VL%d bytes", v);
      emit(&w, key, label, 4, a->ub_bytes[v], b->ub_bytes[v]);
    }
    emit_heading(&w, "UB DLLCBs");
    for (int t = 0; t <= UAL_UB_CB_UNKNOWN; t++) {
      if (!a->ub_dllcbs[t] && !b->ub_dllcbs[t]) continue;
      const char *n = ual_ub_cb_name((enum ual_ub_cb_type)t);
      snprintf(key, sizeof key, "ub.dllcbs.%s", n);
      for (char *c = key; *c; c++) if (*c == ' ') *c = '_';
      emit(&w, key, n, 2, a->ub_dllcbs[t], b->ub_dllcbs[t]);
    }
  }
  emit_heading(&w, "Findings by severity");
  for (int v = UAL_SEV_ERROR; v >= UAL_SEV_INFO; v--) {
    const char *n = ual_severity_name((enum ual_severity)v);
    snprintf(key, sizeof key, "findings.%s", n);
    emit(&w, key, n, 2, a->sev[v], b->sev[v]);
  }
  if (a->findings_dropped || b->findings_dropped)
    emit(&w, NULL, "not stored (over limit)", 2, a->findings_dropped, b->findings_dropped);
  for (int r = 0; r < UAL_R_COUNT; r++) {
    if (!a->rules[r] && !b->rules[r]) continue;
    if (!w.per_rule) {
      w.per_rule = true;
      emit_heading(&w, "Findings by rule");
    }
    snprintf(label, sizeof label, "%s (%s)", ual_rule_id((enum ual_rule)r),
             ual_severity_name(ual_rule_severity((enum ual_rule)r)));
    emit(&w, NULL, label, 2, a->rules[r], b->rules[r]);
  }
}

static void text_row(void *ctx, const struct dc_stats_row *r) {
  struct dc_out *o = ctx;
  if (r->heading) heading(o, r->label);
  else row(o, r->indent, r->label, r->a, r->b);
}

void dc_stats_text(const struct dc_stats *s, struct dc_out *o, const char *input) {
  const struct dc_dir_stats *a = &s->d[0], *b = &s->d[1];
  dc_out_str(o, "=== ualink-decode statistics: ");
  dc_out_str(o, input);
  dc_out_str(o, " ===\n");
  dc_out_fmt(o, "%-*s%12s%12s%12s\n", LABEL_W, "", "A>B", "B>A", "total");
  dc_stats_rows(s, text_row, o);
  uint64_t first, last;
  span(s, &first, &last);
  heading(o, "Time");
  if (first) {
    dc_out_fmt(o, "  %-*s", LABEL_W - 2, "first record");
    dc_out_secs(o, (int64_t)first);
    dc_out_fmt(o, "\n  %-*s", LABEL_W - 2, "last record");
    dc_out_secs(o, (int64_t)last);
    dc_out_fmt(o, "\n  %-*s", LABEL_W - 2, "span");
    dc_out_secs(o, (int64_t)(last - first));
    dc_out_str(o, " s\n");
    if (dc_stats_ualink(s))
      dc_out_fmt(o, "%-*s%12.3f%12.3f%12.3f\n", LABEL_W, "TL payload throughput (Gb/s)", tl_gbps(a, last - first),
                 tl_gbps(b, last - first), tl_gbps(a, last - first) + tl_gbps(b, last - first));
  } else {
    dc_out_str(o, "  no timestamps\n");
  }
}

/* "ub": {"flits", "bcrc_bad", "vl0": {"dlldps", "bytes"}, ..., "dllcbs": {...}}, keys as in the text rows */
static void ub_json(struct dc_out *o, bool *f, const struct dc_dir_stats *d) {
  bool g = true;
  dc_json_key(o, f, "ub");
  dc_out_ch(o, '{');
  dc_json_u64(o, &g, "flits", d->ub_flits);
  dc_json_u64(o, &g, "bcrc_bad", d->ub_bcrc_bad);
  for (int v = 0; v < UAL_UB_VLS; v++) {
    char key[8];
    bool h = true;
    snprintf(key, sizeof key, "vl%d", v);
    dc_json_key(o, &g, key);
    dc_out_ch(o, '{');
    dc_json_u64(o, &h, "dlldps", d->ub_dlldps[v]);
    dc_json_u64(o, &h, "bytes", d->ub_bytes[v]);
    dc_out_ch(o, '}');
  }
  dc_json_key(o, &g, "dllcbs");
  dc_out_ch(o, '{');
  bool h = true;
  for (int t = 0; t <= UAL_UB_CB_UNKNOWN; t++) {
    char key[32];
    snprintf(key, sizeof key, "%s", ual_ub_cb_name((enum ual_ub_cb_type)t));
    for (char *c = key; *c; c++) if (*c == ' ') *c = '_';
    dc_json_u64(o, &h, key, d->ub_dllcbs[t]);
  }
  dc_out_ch(o, '}');
  dc_out_ch(o, '}');
}

static void json_dir(struct dc_out *o, const struct dc_dir_stats *d, uint64_t dur) {
  bool f = true, g;
  dc_out_ch(o, '{');
  dc_json_u64(o, &f, "records", d->records);
  for (int k = 0; k < DC_K_COUNT; k++) dc_json_u64(o, &f, kind_json[k], d->kind[k]);
  if (d->after_lost) dc_json_u64(o, &f, "after_lost", d->after_lost);
  dc_json_key(o, &f, "usage");
  dc_out_ch(o, '{');
  g = true;
  for (int k = 0; k < 4; k++) dc_json_u64(o, &g, ual_flit_kind_name((enum ual_flit_kind)k), d->usage[k]);
  dc_out_str(o, "}");
  dc_json_key(o, &f, "crc");
  dc_out_ch(o, '{');
  g = true;
  dc_json_u64(o, &g, "ok", d->crc_ok);
  dc_json_u64(o, &g, "bad", d->crc_bad);
  dc_json_u64(o, &g, "inverted", d->crc_inverted);
  dc_out_str(o, "}");
  dc_json_key(o, &f, "fec");
  dc_out_ch(o, '{');
  g = true;
  for (int k = 0; k < 3; k++) dc_json_u64(o, &g, ual_fec_status_name((enum ual_fec_status)k), d->fec[k]);
  dc_out_str(o, "}");
  dc_json_key(o, &f, "replay_cmd");
  dc_out_ch(o, '{');
  g = true;
  for (int k = 0; k < 4; k++) dc_json_u64(o, &g, ual_replay_cmd_name((enum ual_replay_cmd)k), d->replay_cmd[k]);
  dc_out_str(o, "}");
  dc_json_u64(o, &f, "naks", d->replay_cmd[UAL_RC_NAK] + d->replay_cmd[UAL_RC_NAK_SELECTIVE]);
  dc_json_u64(o, &f, "replays", d->rules[UAL_R_RP_REPLAY]);
  dc_json_u64(o, &f, "tl_started", d->tl_started);
  dc_json_u64(o, &f, "tl_flits", d->tl_flits);
  dc_json_u64(o, &f, "tl_bytes", d->tl_flits * UAL_TL_FLIT_BYTES);
  dc_json_key(o, &f, "tl_gbps");
  dc_out_fmt(o, "%.6f", tl_gbps(d, dur));
  dc_json_key(o, &f, "dl_msgs");
  dc_out_ch(o, '{');
  g = true;
  for (int t = 0; t < UAL_MT_COUNT; t++) dc_json_u64(o, &g, ual_msg_types[t].json, d->dl_msgs[t]);
  dc_out_str(o, "}");
  dc_json_u64(o, &f, "uart_payload_dw", d->uart_payload_dw);
  if (d->ub_flits) ub_json(o, &f, d);
  dc_json_key(o, &f, "findings");
  dc_out_ch(o, '{');
  g = true;
  for (int v = 0; v < 3; v++) dc_json_u64(o, &g, ual_severity_name((enum ual_severity)v), d->sev[v]);
  dc_out_str(o, "}");
  dc_json_key(o, &f, "ts_first_ns");
  dc_out_u64(o, d->first_ts);
  dc_json_key(o, &f, "ts_last_ns");
  dc_out_u64(o, d->last_ts);
  dc_out_ch(o, '}');
}

void dc_stats_json(const struct dc_stats *s, struct dc_out *o, const struct ual_analysis_summary *an) {
  const struct dc_dir_stats *a = &s->d[0], *b = &s->d[1];
  uint64_t first, last;
  span(s, &first, &last);
  bool f = true, g;
  dc_out_ch(o, '{');
  dc_json_key(o, &f, "kind");
  dc_json_string(o, "summary");
  dc_json_u64(o, &f, "records", a->records + b->records);
  dc_json_key(o, &f, "by_kind");
  dc_out_ch(o, '{');
  g = true;
  for (int k = 0; k < DC_K_COUNT; k++) dc_json_u64(o, &g, kind_json[k], a->kind[k] + b->kind[k]);
  dc_out_ch(o, '}');
  dc_json_u64(o, &f, "ts_first_ns", first);
  dc_json_u64(o, &f, "ts_last_ns", last);
  dc_json_secs(o, &f, "ts_first", first);
  dc_json_secs(o, &f, "ts_last", last);
  dc_json_u64(o, &f, "span_ns", last - first);
  dc_json_key(o, &f, "dirs");
  dc_out_ch(o, '{');
  for (int i = 0; i < 2; i++) {
    if (i) dc_out_ch(o, ',');
    dc_json_string(o, dir_name[i]);
    dc_out_ch(o, ':');
    json_dir(o, &s->d[i], last - first);
  }
  dc_out_ch(o, '}');
  dc_json_key(o, &f, "findings_by_rule");
  dc_out_ch(o, '{');
  g = true;
  for (int r = 0; r < UAL_R_COUNT; r++)
    if (a->rules[r] + b->rules[r]) dc_json_u64(o, &g, ual_rule_id((enum ual_rule)r), a->rules[r] + b->rules[r]);
  dc_out_ch(o, '}');
  dc_json_key(o, &f, "findings_by_severity");
  dc_out_ch(o, '{');
  g = true;
  for (int v = 0; v < 3; v++) dc_json_u64(o, &g, ual_severity_name((enum ual_severity)v), a->sev[v] + b->sev[v]);
  dc_out_ch(o, '}');
  if (an) {
    dc_json_key(o, &f, "analysis");
    dc_analysis_json(o, an);
  }
  dc_pcie_stats_json(&s->pcie, o, &f);
  dc_out_str(o, "}\n");
}
