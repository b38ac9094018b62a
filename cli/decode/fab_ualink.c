/* UALink's own parts of the --stats JSON summary (stats.h, docs/json.md):
 * per direction its flit and ordered-set counts, flit usage, CRC-64, FEC,
 * replay commands, TL flits and DL messages; the analyzer's totals as
 * "analysis". The summary has them whatever the capture holds (zeros
 * without UALink records), as it always had. */
#include "stats.h"
#include "json.h"
#include "ualink/ualink/analysis.h"

static const char *const dir_name[2] = { "A>B", "B>A" };

static void kinds_json(struct dc_out *o, bool *f, const struct dc_sums *s, unsigned d) {
  const struct ual_ualink_dir_tally *a = &s->ualink.d[0], *b = &s->ualink.d[1];
  dc_json_u64(o, f, "flit", d < 2 ? s->ualink.d[d].flits : a->flits + b->flits);
  dc_json_u64(o, f, "os", d < 2 ? s->ualink.d[d].os : a->os + b->os);
}

static double tl_gbps(const struct ual_ualink_dir_tally *d, uint64_t dur_ns) {
  return dur_ns ? (double)d->tl_flits * UAL_TL_FLIT_BYTES * 8.0 / (double)dur_ns : 0.0;
}

static void dir_json(struct dc_out *o, bool *f, const struct dc_sums *s, unsigned dir, uint64_t span) {
  const struct ual_ualink_dir_tally *d = &s->ualink.d[dir];
  bool g;
  dc_json_key(o, f, "usage");
  dc_out_ch(o, '{');
  g = true;
  for (int k = 0; k < 4; k++) dc_json_u64(o, &g, ual_flit_kind_name((enum ual_flit_kind)k), d->usage[k]);
  dc_out_str(o, "}");
  dc_json_key(o, f, "crc");
  dc_out_ch(o, '{');
  g = true;
  dc_json_u64(o, &g, "ok", d->crc_ok);
  dc_json_u64(o, &g, "bad", d->crc_bad);
  dc_json_u64(o, &g, "inverted", d->crc_inverted);
  dc_out_str(o, "}");
  dc_json_key(o, f, "fec");
  dc_out_ch(o, '{');
  g = true;
  for (int k = 0; k < 3; k++) dc_json_u64(o, &g, ual_fec_status_name((enum ual_fec_status)k), d->fec[k]);
  dc_out_str(o, "}");
  dc_json_key(o, f, "replay_cmd");
  dc_out_ch(o, '{');
  g = true;
  for (int k = 0; k < 4; k++) dc_json_u64(o, &g, ual_replay_cmd_name((enum ual_replay_cmd)k), d->replay_cmd[k]);
  dc_out_str(o, "}");
  dc_json_u64(o, f, "naks", d->replay_cmd[UAL_RC_NAK] + d->replay_cmd[UAL_RC_NAK_SELECTIVE]);
  dc_json_u64(o, f, "replays", s->d[dir].rules[UAL_R_RP_REPLAY]);
  dc_json_u64(o, f, "tl_started", d->tl_started);
  dc_json_u64(o, f, "tl_flits", d->tl_flits);
  dc_json_u64(o, f, "tl_bytes", d->tl_flits * UAL_TL_FLIT_BYTES);
  dc_json_key(o, f, "tl_gbps");
  dc_out_fmt(o, "%.6f", tl_gbps(d, span));
  dc_json_key(o, f, "dl_msgs");
  dc_out_ch(o, '{');
  g = true;
  for (int t = 0; t < UAL_MT_COUNT; t++) dc_json_u64(o, &g, ual_msg_types[t].json, d->dl_msgs[t]);
  dc_out_str(o, "}");
  dc_json_u64(o, f, "uart_payload_dw", d->uart_payload_dw);
}

/* "analysis": the analyzer's totals by the side that sent them. */
static void top_json(struct dc_out *o, bool *first, const struct dc_sums *sums, const struct ual_view_src *src) {
  (void)sums;
  if (!src->top) return;
  struct ual_analysis_summary sum, *s = &sum;
  ual_analyzer_summary(src->top, s);
  dc_json_key(o, first, "analysis");
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

const struct dc_fab dc_fab_ualink = { kinds_json, dir_json, top_json };
