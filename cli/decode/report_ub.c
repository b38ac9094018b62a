/* The UB lanes of the --report timeline (report.h): the DLL state of each
 * side (Disabled, Param_Init, Credit_Init, Normal), the link's mode (CRC or
 * non-CRC) and the UB markers (BCRC failures, Retry_Req_Sets, discarded
 * blocks), then the findings markers every page has. */
#include "report.h"
#include "stats.h"
#include "ualink/ub/analysis.h"

#include <stdio.h>

static const char *const dll_color[DC_UB_DLL_COUNT] = { "#e0e0e0", "#9e9e9e", "#8e6fd1", "#4f8fdb", "#3fa34d" };
static const char *const mode_color[3] = { NULL, "#5c7fa3", "#f08c1a" };
static const char *const mode_name[3] = { NULL, "CRC mode", "non-CRC mode" };

static const char *dll_col(unsigned c) { return c < DC_UB_DLL_COUNT ? dll_color[c] : "#000"; }

static int dll_key(const struct dc_report *r, unsigned side, unsigned i) {
  return dc_rpt_state_key(r->bin[i].ub_dll[side], DC_UB_DLL_COUNT, i);
}

static void dll_run(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a, int key,
                    uint64_t lo, uint64_t hi) {
  const uint64_t *res = key >= DC_UB_DLL_COUNT ? r->bin[key - DC_UB_DLL_COUNT].ub_dll[side] : NULL;
  dc_rpt_state_run(o, r, a, res, DC_UB_DLL_COUNT, key, lo, hi, ual_ub_dll_name, dll_col);
}

static void lane_dll(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a) {
  dc_rpt_runs(o, r, side, a, dll_key, dll_run);
}

/* The mode held longest in a bin (the link's, the same on both sides); -1 unknown. */
static int mode_key(const struct dc_report *r, unsigned side, unsigned i) {
  const uint64_t *m = r->bin[i].ub_mode;
  (void)side;
  if (!m[1] && !m[2]) return -1;
  return m[2] > m[1] ? 2 : 1;
}

static void mode_run(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a, int key,
                     uint64_t lo, uint64_t hi) {
  (void)side;
  double x0 = dc_rpt_px(a, lo), w = dc_rpt_px(a, hi) - x0;
  dc_rpt_rect(o, x0, a->y, w, a->h, mode_color[key]);
  dc_rpt_title_range(o, r, mode_name[key], lo, hi);
  dc_rpt_label(o, x0, a->y + a->h - 4, w, mode_name[key], "#fff");
}

static void lane_mode(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a) {
  dc_rpt_runs(o, r, side, a, mode_key, mode_run);
}

static const char *const um_name[DC_UM_COUNT] = { "BCRC failures", "Retry_Req_Sets", "discarded blocks" };
static const char *const um_color[DC_UM_COUNT] = { "#d84315", "#7b1fa2", "#607d8b" };

static void lane_ub_marks(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a) {
  unsigned nb = dc_rpt_bins_used(r);
  for (unsigned m = 0; m < DC_UM_COUNT; m++) {
    double y = a->y + m * DC_RPT_MARK_ROW;
    uint64_t maxc = 0, tot = 0;
    for (unsigned i = 0; i < nb; i++) {
      if (r->bin[i].ub_mark[side][m] > maxc) maxc = r->bin[i].ub_mark[side][m];
      tot += r->bin[i].ub_mark[side][m];
    }
    dc_out_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" fill=\"#667\" text-anchor=\"end\">%s %llu</text>\n",
               a->left - 6, y + DC_RPT_MARK_ROW - 1.5, um_name[m], (unsigned long long)tot);
    for (unsigned i = 0; i < nb; i++) {
      uint64_t c = r->bin[i].ub_mark[side][m];
      if (!c) continue;
      uint64_t lo, hi;
      dc_rpt_bin_range(r, i, &lo, &hi);
      double x0 = dc_rpt_px(a, lo), w = dc_rpt_px(a, hi) - x0;
      if (w < 2) { x0 -= (2 - w) / 2; w = 2; }
      dc_rpt_rect(o, x0, y + 1, w, DC_RPT_MARK_ROW - 2, um_color[m]);
      dc_out_fmt(o, " fill-opacity=\"%.2f\"", 0.35 + 0.65 * dc_rpt_bits(c) / dc_rpt_bits(maxc));
      char what[48];
      snprintf(what, sizeof what, "%llu %s", (unsigned long long)c, um_name[m]);
      dc_rpt_title_range(o, r, what, lo, hi);
    }
  }
}

void dc_rpt_ub_legend(struct dc_out *o) {
  for (unsigned c = 0; c < DC_UB_DLL_COUNT; c++)
    dc_out_fmt(o, "<span><i style=\"background:%s\"></i>UB %s</span>", dll_color[c], ual_ub_dll_name(c));
  for (unsigned m = 1; m < 3; m++) dc_out_fmt(o, "<span><i style=\"background:%s\"></i>%s</span>", mode_color[m], mode_name[m]);
  for (unsigned m = 0; m < DC_UM_COUNT; m++) dc_out_fmt(o, "<span><i style=\"background:%s\"></i>%s</span>", um_color[m], um_name[m]);
  dc_out_str(o, "<br/>");
}

const struct dc_rpt_lane dc_ub_lanes[] = {
  { "UB DLL", 26, lane_dll },
  { "UB mode", 15, lane_mode },
  { "UB events", (unsigned)(DC_UM_COUNT * DC_RPT_MARK_ROW), lane_ub_marks },
};
const unsigned dc_ub_nlanes = sizeof dc_ub_lanes / sizeof dc_ub_lanes[0];

void dc_rpt_ub_cards(struct dc_out *o, const struct dc_sums *st) {
  uint64_t dlldps = 0;
  for (int v = 0; v < UAL_UB_VLS; v++) dlldps += st->ub.d[0].dlldps[v] + st->ub.d[1].dlldps[v];
  dc_rpt_card_u64(o, dlldps, "UB DLLDPs");
  dc_rpt_card_u64(o, st->ub.d[0].bcrc_bad + st->ub.d[1].bcrc_bad, "BCRC failures");
}
