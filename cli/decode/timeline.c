/* Stateful output: the --timeline lines, findings raised at the end of the
 * capture, and the analyzer's totals in --stats. The analysis is libdecode's. */
#include <inttypes.h>

#include "dcli.h"
#include "json.h"

static const char *partner_name(unsigned p) { return p == 0 ? "A" : p == 1 ? "B" : "link"; }


void dc_print_events(struct dc_ctx *c, const struct ual_events *ev) {
  struct dc_out *o = &c->out;
  for (unsigned i = 0; i < ev->n; i++) {
    const struct ual_tevent *e = &ev->v[i];
    if (e->frame < c->o->frame_lo || e->frame > c->o->frame_hi) continue;
    if (c->o->sel_dir >= 0 && e->partner != UAL_PARTNER_LINK && e->partner != (unsigned)c->o->sel_dir) continue;
    if (!dc_link_selected(c->o, e->link)) continue;
    if (c->o->json) {
      bool f = true;
      dc_out_ch(o, '{');
      dc_json_str(o, &f, "kind", "timeline");
      dc_json_u64(o, &f, "frame", e->frame);
      dc_json_u64(o, &f, "ts_ns", e->ts_ns);
      dc_json_time(o, &f, e->ts_ns, c->tref.first);
      dc_json_str(o, &f, "event", ual_tev_kind_name(e->kind));
      dc_json_str(o, &f, "partner", partner_name(e->partner));
      if (c->link_col) dc_json_u64(o, &f, "link", e->link);
      dc_json_i64(o, &f, "value", e->value);
      dc_json_i64(o, &f, "old", e->old);
      if (e->kind == UAL_TEV_NEGOTIATION) {
        dc_json_str(o, &f, "mtype", ual_msg_types[e->mtype < UAL_MT_COUNT ? e->mtype : UAL_MT_RESERVED].json);
        dc_json_str(o, &f, "outcome", ual_neg_outcome_name(e->outcome));
        dc_json_u64(o, &f, "latency_ns", e->latency_ns);
        dc_json_u64(o, &f, "request_frame", e->req_frame);
      }
      dc_json_str(o, &f, "text", e->text);
      dc_out_str(o, "}\n");
    } else {
      dc_out_u64w(o, e->frame, 6);
      dc_out_ch(o, ' ');
      /* deltas (-t d, dd) are to the previous line */
      struct dc_tref ref = { c->tref.first, c->prev_event_ts, c->prev_event_ts };
      char t[DC_TIME_MAX];
      size_t tn = dc_fmt_time(t, c->o->tfmt, e->ts_ns, &ref);
      dc_out_mem(o, t, tn);
      c->prev_event_ts = e->ts_ns;
      dc_out_ch(o, ' ');
      dc_link_col(c, e->link, o);
      dc_out_fmt(o, "%-4s %-11s %s\n", partner_name(e->partner), ual_tev_kind_name(e->kind), e->text);
    }
  }
}

void dc_print_end_findings(struct dc_ctx *c, const struct ual_findings *f) {
  for (unsigned i = 0; i < f->n; i++) {
    enum ual_rule r = (enum ual_rule)f->v[i].rule;
    if (ual_rule_severity(r) == UAL_SEV_ERROR) c->error_finding = true;
    if (c->o->quiet && !c->o->stats) continue;
    if (c->o->json) {
      bool g = true;
      dc_out_ch(&c->out, '{');
      dc_json_str(&c->out, &g, "kind", "end");
      if (f->v[i].dir >= 0) dc_json_str(&c->out, &g, "dir", f->v[i].dir ? "B>A" : "A>B");
      dc_json_key(&c->out, &g, "findings");
      bool h = true;
      dc_out_str(&c->out, "[{");
      dc_json_str(&c->out, &h, "rule", ual_rule_id(r));
      dc_json_str(&c->out, &h, "severity", ual_severity_name(ual_rule_severity(r)));
      dc_json_str(&c->out, &h, "msg", f->v[i].msg);
      dc_out_str(&c->out, "}]}\n");
    } else {
      dc_out_fmt(&c->out, "end of capture: [%s] %s: %s\n", ual_rule_id(r),
                 ual_severity_name(ual_rule_severity(r)), f->v[i].msg);
    }
  }
}

static void arow(void (*fn)(void *, const struct dc_stats_row *), void *ctx, const char *key, const char *label,
                 uint64_t a, uint64_t b, bool no_total) {
  struct dc_stats_row r = { key, label, 4, false, false, no_total, a, b };
  fn(ctx, &r);
}

void dc_analysis_rows(const struct ual_analysis_summary *s, void (*fn)(void *ctx, const struct dc_stats_row *row),
                      void *ctx) {
  const struct ual_replay_stats *a = &s->replay[0], *b = &s->replay[1];
  arow(fn, ctx, "delivered", "payload flits delivered", a->delivered, b->delivered, false);
  arow(fn, ctx, "duplicates", "duplicates discarded", a->duplicates, b->duplicates, false);
  arow(fn, ctx, "gaps", "sequence gaps", a->gaps, b->gaps, false);
  arow(fn, ctx, "naks", "Naks (standard)", a->naks, b->naks, false);
  arow(fn, ctx, "naks_selective", "Naks (selective)", a->naks_selective, b->naks_selective, false);
  arow(fn, ctx, "replays", "replays (go-back-N)", a->replays, b->replays, false);
  arow(fn, ctx, "replays_selective", "replays (selective)", a->replays_selective, b->replays_selective, false);
  arow(fn, ctx, "replayed_flits", "flits replayed", a->replayed_flits, b->replayed_flits, false);
  arow(fn, ctx, "acks", "Acks", a->acks, b->acks, false);
  arow(fn, ctx, "ack_latency_max_ns", "Ack latency max (ns)", a->ack_lat_ns_max, b->ack_lat_ns_max, true);
  arow(fn, ctx, NULL, "Ack latency mean (ns)", a->ack_lat_n ? a->ack_lat_ns_sum / a->ack_lat_n : 0,
       b->ack_lat_n ? b->ack_lat_ns_sum / b->ack_lat_n : 0, true);
  arow(fn, ctx, NULL, "unacknowledged max", a->unacked_max, b->unacked_max, true);
  for (int k = 0; k < UAL_NEG_COUNT; k++) {
    char key[48], label[48];
    snprintf(key, sizeof key, "negotiations.%s", ual_neg_outcome_name((unsigned)k));
    snprintf(label, sizeof label, "negotiations: %s", ual_neg_outcome_name((unsigned)k));
    arow(fn, ctx, key, label, s->negs[0][k], s->negs[1][k], false);
  }
  arow(fn, ctx, "uart_transports", "UART transports", s->uart_transports[0], s->uart_transports[1], false);
  arow(fn, ctx, "uart_payload_dw", "UART payload DWords", s->uart_payload_dw[0], s->uart_payload_dw[1], false);
  arow(fn, ctx, "uart_credits", "UART credit updates", s->uart_credits[0], s->uart_credits[1], false);
  arow(fn, ctx, "uart_resets", "UART stream resets", s->uart_resets[0], s->uart_resets[1], false);
  arow(fn, ctx, "vdps", "Vendor Defined Packets", s->vdps[0], s->vdps[1], false);
  arow(fn, ctx, "sync_frame", "synchronized at frame", s->sync_frame[0], s->sync_frame[1], true);
  arow(fn, ctx, "unsynced_flits", "flits before synchronized", s->unsynced_flits[0], s->unsynced_flits[1], false);
}

static void text_row2(void *ctx, const struct dc_stats_row *r) {
  dc_out_fmt(ctx, "%*s%-28s %14" PRIu64 " %14" PRIu64 "\n", (int)r->indent, "", r->label, r->a, r->b);
}

void dc_stats_analysis(struct dc_ctx *c, const struct ual_analysis_summary *s) {
  struct dc_out *o = &c->out;
  char state[256];
  /* each fabric's own state: the UALink analysis only when UALink flits came
   * or nothing else did */
  bool ub = c->st.d[0].ub_flits + c->st.d[1].ub_flits > 0;
  if (c->an.flits[0] + c->an.flits[1] > 0 || dc_stats_ualink(&c->st)) {
    dc_out_fmt(o, "  Analysis (sent by)             %14s %14s\n", "A", "B");
    dc_analysis_rows(s, text_row2, o);
    ual_analyzer_state_text(&c->an, state, sizeof state);
    dc_out_fmt(o, "  State at the end: %s\n", state);
  }
  if (ub) {
    ual_ub_an_state_text(&c->an.fab.ub, state, sizeof state);
    dc_out_fmt(o, "  UB state at the end: %s\n", state);
  }
  dc_pcie_credits_text(&c->st.pcie, o);
  /* what a capture that starts here would need to be told */
  char presets[4096];
  if (ual_fabric_an_preset_text(&c->an.fab, presets, sizeof presets) > 0)
    dc_out_fmt(o, "  Presets at the end: %s\n", presets);
}

void dc_analysis_json(struct dc_out *o, const struct ual_analysis_summary *s) {
  static const char *const dir_name[2] = { "A>B", "B>A" };
  bool f = true;
  dc_out_ch(o, '{');
  for (int d = 0; d < 2; d++) {
    const struct ual_replay_stats *r = &s->replay[d];
    dc_json_key(o, &f, dir_name[d]);
    bool g = true;
    dc_out_ch(o, '{');
    dc_json_u64(o, &g, "delivered", r->delivered);
    dc_json_u64(o, &g, "duplicates", r->duplicates);
    dc_json_u64(o, &g, "gaps", r->gaps);
    dc_json_u64(o, &g, "naks", r->naks);
    dc_json_u64(o, &g, "naks_selective", r->naks_selective);
    dc_json_u64(o, &g, "replays", r->replays);
    dc_json_u64(o, &g, "replays_selective", r->replays_selective);
    dc_json_u64(o, &g, "replayed_flits", r->replayed_flits);
    dc_json_u64(o, &g, "acks", r->acks);
    dc_json_u64(o, &g, "ack_latency_max_ns", r->ack_lat_ns_max);
    dc_json_key(o, &g, "negotiations");
    bool h = true;
    dc_out_ch(o, '{');
    for (int k = 0; k < UAL_NEG_COUNT; k++) dc_json_u64(o, &h, ual_neg_outcome_name((unsigned)k), s->negs[d][k]);
    dc_out_ch(o, '}');
    dc_json_u64(o, &g, "uart_transports", s->uart_transports[d]);
    dc_json_u64(o, &g, "uart_payload_dw", s->uart_payload_dw[d]);
    dc_json_u64(o, &g, "uart_credits", s->uart_credits[d]);
    dc_json_u64(o, &g, "uart_resets", s->uart_resets[d]);
    dc_json_u64(o, &g, "vdps", s->vdps[d]);
    dc_json_u64(o, &g, "sync_frame", s->sync_frame[d]);
    dc_json_u64(o, &g, "unsynced_flits", s->unsynced_flits[d]);
    dc_out_ch(o, '}');
  }
  dc_out_ch(o, '}');
}
