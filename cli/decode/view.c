/* What ualink-decode renders of the presentation model (core/views.h):
 * links, --transactions, the link column. Generic: no fabric is named
 * here; a fabric's own presentation is in its fab_*.c. */
#include <inttypes.h>
#include <stdlib.h>

#include "dcli.h"
#include "input.h"
#include "json.h"

/* Records read to find the links of a capture before its lines are
 * printed: a switch's or Root Complex's links interleave from the start. */
#define DC_LINK_SCAN 100000

void dc_view_prescan(struct dc_ctx *c) {
  const struct dc_opts *o = c->o;
  if (o->in_type != DC_IN_PCAP || !o->path || !strcmp(o->path, "-")) return;
  struct dc_input *in = calloc(1, sizeof *in);
  if (!in) return;
  if (dc_input_open(in, o)) {
    int first = -1;
    for (unsigned n = 0; n < DC_LINK_SCAN && first != -2; n++) {
      const uint8_t *rec;
      size_t len;
      uint64_t ts;
      enum dc_next nx = dc_input_next(in, &rec, &len, &ts);
      if (nx == DC_NEXT_SKIP || nx == DC_NEXT_BADLINE) continue;
      if (nx != DC_NEXT_RECORD) break;
      struct ual_record r;
      enum ual_rec_status st = ual_record_parse(rec, len, &r);
      /* link 255 names no link: not a second one */
      if ((st != UAL_RS_OK && st != UAL_RS_RESERVED) || r.h.kind == UAL_REC_EVENT || r.h.link == 255) continue;
      if (first < 0) first = r.h.link;
      else if (r.h.link != first) first = -2;
    }
    c->link_col = first == -2;
  }
  dc_input_close(in);
  free(in);
}

void dc_link_col(const struct dc_ctx *c, unsigned link, struct dc_out *o) {
  if (!c->link_col) return;
  if (link == 255) dc_out_str(o, "L?   ");
  else dc_out_fmt(o, "L%-3u ", link);
}

static const char *side_text(unsigned s) { return s == 0 ? "A" : s == 1 ? "B" : "link"; }

static void txn_line(struct dc_ctx *c, const struct ual_view_txn *t) {
  struct dc_out *o = &c->out;
  const struct ual_view_fabric *f = ual_view_fabric_get(t->fabric);
  if (!dc_link_selected(c->o, t->index)) return;
  if (c->o->json) {
    bool g = true;
    dc_out_ch(o, '{');
    dc_json_str(o, &g, "kind", "transaction");
    dc_json_str(o, &g, "fabric", f ? f->key : "?");
    dc_json_u64(o, &g, "link", t->index);
    dc_json_str(o, &g, "side", side_text(t->side));
    dc_json_str(o, &g, "type", t->kind);
    dc_json_str(o, &g, "status", ual_txn_status_name(t->status));
    dc_json_str(o, &g, "result", t->result);
    dc_json_str(o, &g, "what", t->what);
    dc_json_u64(o, &g, "start_frame", t->start_frame);
    dc_json_u64(o, &g, "end_frame", t->end_frame);
    dc_json_u64(o, &g, "start_ns", t->start_ns);
    dc_json_u64(o, &g, "end_ns", t->end_ns);
    dc_json_key(o, &g, "latency_ns");
    if (t->latency_ns || (t->end_ns && t->start_ns)) dc_out_u64(o, t->latency_ns);
    else dc_out_str(o, "null");
    dc_json_u64(o, &g, "parts", t->parts);
    dc_out_str(o, "}\n");
    return;
  }
  /* start and end frame, link, requester, type, status, latency, answer: what */
  dc_out_u64w(o, t->start_frame, 6);
  dc_out_ch(o, ' ');
  if (t->end_frame) dc_out_u64w(o, t->end_frame, 6);
  else dc_out_str(o, "     -");
  dc_out_ch(o, ' ');
  dc_link_col(c, t->index, o);
  char lat[32] = "-";
  if (t->latency_ns || (t->end_ns && t->start_ns)) snprintf(lat, sizeof lat, "%" PRIu64 " ns", t->latency_ns);
  dc_out_fmt(o, "%-4s %-14s %-6s %12s  %s: %s", side_text(t->side), t->kind, ual_txn_status_name(t->status), lat,
             t->result, t->what);
  if (t->parts > 1) dc_out_fmt(o, " (%u parts)", t->parts);
  dc_out_ch(o, '\n');
}

void dc_view_record(struct dc_ctx *c, uint64_t ts_ns, bool selected) {
  const struct ual_rec_result *r = &c->res;
  int k = ual_view_tally_add(&c->vt, r, ts_ns, selected);
  if (!c->o->transactions || c->o->stateless) return;
  if (r->frame < c->o->frame_lo || r->frame > c->o->frame_hi) return;
  static struct ual_view_txn tx[UAL_VIEW_MAX_TXNS];
  unsigned n = ual_view_txns(&c->vt, k, r, ts_ns, &c->ev, tx, UAL_VIEW_MAX_TXNS);
  for (unsigned i = 0; i < n; i++) txn_line(c, &tx[i]);
}

static void open_line(void *ctx, const struct ual_view_txn *t) { txn_line(ctx, t); }

void dc_view_end(struct dc_ctx *c) {
  struct ual_view_src src;
  ual_analyzer_view_src(&c->an, &c->vt, &src);
  for (unsigned k = 0; k < c->vt.n; k++) ual_view_open_txns(&src, k, open_line, c);
}
