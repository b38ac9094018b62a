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
