/* UB's own part of the --stats JSON summary (stats.h, docs/json.md): per
 * direction "ub": flits, BCRC failures, DLLDPs and payload bytes by VL,
 * DLLCBs by type; only when the capture has UB flits. */
#include "stats.h"
#include "json.h"

static void dir_json(struct dc_out *o, bool *f, const struct dc_sums *s, unsigned dir, uint64_t span) {
  (void)span;
  const struct ual_ub_dir_tally *d = &s->ub.d[dir];
  if (!s->ub.d[0].flits && !s->ub.d[1].flits) return;
  bool g = true;
  dc_json_key(o, f, "ub");
  dc_out_ch(o, '{');
  dc_json_u64(o, &g, "flits", d->flits);
  dc_json_u64(o, &g, "bcrc_bad", d->bcrc_bad);
  for (int v = 0; v < UAL_UB_VLS; v++) {
    char key[8];
    bool h = true;
    snprintf(key, sizeof key, "vl%d", v);
    dc_json_key(o, &g, key);
    dc_out_ch(o, '{');
    dc_json_u64(o, &h, "dlldps", d->dlldps[v]);
    dc_json_u64(o, &h, "bytes", d->bytes[v]);
    dc_out_ch(o, '}');
  }
  dc_json_key(o, &g, "dllcbs");
  dc_out_ch(o, '{');
  bool h = true;
  for (int t = 0; t <= UAL_UB_CB_UNKNOWN; t++) {
    char key[32];
    snprintf(key, sizeof key, "%s", ual_ub_cb_name((enum ual_ub_cb_type)t));
    for (char *c = key; *c; c++)
      if (*c == ' ') *c = '_';
    dc_json_u64(o, &h, key, d->dllcbs[t]);
  }
  dc_out_ch(o, '}');
  dc_out_ch(o, '}');
}

const struct dc_fab dc_fab_ub = { NULL, dir_json, NULL };
