/* The UALink lanes of the --report timeline (report.h): LTSSM bands, data
 * rate, width, L1/L0p residency, channels, and markers. Each lane draws one
 * side from the bins; another fabric brings its own table of lanes. */
#include "report.h"

#include <string.h>

static uint64_t sum_lt(const struct dc_rpt_bin *b, unsigned side) {
  uint64_t t = 0;
  for (int c = 0; c < DC_LC_COUNT; c++) t += b->lt[side][c];
  return t;
}

void dc_rpt_rect(struct dc_out *o, double x, double y, double w, double h, const char *fill) {
  dc_out_fmt(o, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"", x, y, w < 0.4 ? 0.4 : w, h,
             fill);
}

void dc_rpt_title_range(struct dc_out *o, const struct dc_report *r, const char *what, uint64_t lo, uint64_t hi) {
  char a[32], b[32], d[32];
  dc_rpt_dur(a, sizeof a, r, lo);
  dc_rpt_dur(b, sizeof b, r, hi);
  dc_rpt_dur(d, sizeof d, r, hi - lo);
  dc_out_str(o, "><title>");
  dc_rpt_text(o, what);
  dc_out_fmt(o, ": %s to %s (%s)</title></rect>\n", a, b, d);
}

void dc_rpt_label(struct dc_out *o, double x, double y, double w, const char *text, const char *fill) {
  if (w < 6.0 * (double)strlen(text) + 4) return;
  dc_out_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10.5\" fill=\"%s\" pointer-events=\"none\">", x + 3, y, fill);
  dc_rpt_text(o, text);
  dc_out_str(o, "</text>\n");
}

void dc_rpt_runs(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a, dc_rpt_key_fn key,
                 dc_rpt_run_fn draw) {
  unsigned nb = dc_rpt_bins_used(r);
  int cur = -1;
  uint64_t start = 0, end = 0;
  for (unsigned i = 0; i < nb; i++) {
    uint64_t lo, hi;
    dc_rpt_bin_range(r, i, &lo, &hi);
    int k = key(r, side, i);
    if (k != cur || k < 0) {
      if (cur >= 0) draw(o, r, side, a, cur, start, end);
      cur = k;
      start = lo;
    }
    end = hi;
  }
  if (cur >= 0) draw(o, r, side, a, cur, start, end);
}

/* ---- LTSSM ---- */

int dc_rpt_state_key(const uint64_t *res, unsigned n, unsigned i) {
  uint64_t t = 0;
  for (unsigned c = 0; c < n; c++) t += res[c];
  if (!t) return -1;
  for (unsigned c = 0; c < n; c++)
    if (res[c] == t) return (int)c;
  return (int)(n + i);   /* mixed bins are drawn one by one */
}

void dc_rpt_state_run(struct dc_out *o, const struct dc_report *r, const struct dc_rpt_area *a, const uint64_t *res,
                      unsigned n, int key, uint64_t lo, uint64_t hi, const char *(*name)(unsigned),
                      const char *(*color)(unsigned)) {
  double x0 = dc_rpt_px(a, lo), w = dc_rpt_px(a, hi) - x0;
  if (key < (int)n) {
    dc_rpt_rect(o, x0, a->y, w, a->h, color((unsigned)key));
    dc_rpt_title_range(o, r, name((unsigned)key), lo, hi);
    dc_rpt_label(o, x0, a->y + a->h / 2 + 4, w, name((unsigned)key), key == 0 ? "#555" : "#fff");
    return;
  }
  /* a bin holding several states: stacked by share of time */
  uint64_t t = 0;
  for (unsigned c = 0; c < n; c++) t += res[c];
  double y = a->y;
  for (unsigned c = 0; c < n; c++) {
    if (!res[c]) continue;
    double h = a->h * (double)res[c] / (double)t;
    dc_rpt_rect(o, x0, y, w, h, color(c));
    char what[64];
    snprintf(what, sizeof what, "%s %.0f%% of the bin", name(c), 100.0 * (double)res[c] / (double)t);
    dc_rpt_title_range(o, r, what, lo, hi);
    y += h;
  }
}

static int lt_key(const struct dc_report *r, unsigned side, unsigned i) {
  return dc_rpt_state_key(r->bin[i].lt[side], DC_LC_COUNT, i);
}

static void lt_run(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a, int key,
                   uint64_t lo, uint64_t hi) {
  const uint64_t *res = key >= DC_LC_COUNT ? r->bin[key - DC_LC_COUNT].lt[side] : NULL;
  dc_rpt_state_run(o, r, a, res, DC_LC_COUNT, key, lo, hi, dc_rpt_class_name, dc_rpt_class_color);
}

static void lane_ltssm(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a) {
  dc_rpt_runs(o, r, side, a, lt_key, lt_run);
}

/* ---- data rate ---- */

static int rate_key(const struct dc_report *r, unsigned side, unsigned i) {
  return r->bin[i].rate[side] ? r->bin[i].rate[side] : -1;
}

static void rate_run(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a, int key,
                     uint64_t lo, uint64_t hi) {
  static const char *const pal[8] = { "#cfd8dc", "#b0bec5", "#90a4ae", "#78909c", "#5c7fa3", "#4a6f96", "#3b5f88",
                                      "#2c4f7a" };
  (void)side;
  double x0 = dc_rpt_px(a, lo), w = dc_rpt_px(a, hi) - x0;
  char name[32];
  const char *rn = ual_rate_name((unsigned)key);
  snprintf(name, sizeof name, "%s GT/s", rn ? rn : "?");
  dc_rpt_rect(o, x0, a->y, w, a->h, pal[key & 7]);
  dc_rpt_title_range(o, r, name, lo, hi);
  dc_rpt_label(o, x0, a->y + a->h - 4, w, name, key >= 4 ? "#fff" : "#223");
}

static void lane_rate(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a) {
  dc_rpt_runs(o, r, side, a, rate_key, rate_run);
}

/* ---- width ---- */

static double width_y(const struct dc_rpt_area *a, unsigned lanes) {
  return a->y + a->h - 2 - (a->h - 4) * (double)(lanes > 8 ? 8 : lanes) / 8.0;
}

static int width_key(const struct dc_report *r, unsigned side, unsigned i) {
  return r->bin[i].width[side] ? r->bin[i].width[side] : -1;
}

static void width_run(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a, int key,
                      uint64_t lo, uint64_t hi) {
  (void)side;
  double x0 = dc_rpt_px(a, lo), x1 = dc_rpt_px(a, hi), y = width_y(a, (unsigned)key);
  char name[16];
  snprintf(name, sizeof name, "x%d", key);
  dc_rpt_rect(o, x0, y, x1 - x0, a->y + a->h - y, "#d6e4f3");
  dc_rpt_title_range(o, r, name, lo, hi);
  dc_out_fmt(o, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#1f5f9e\" stroke-width=\"1.6\"/>\n", x0,
             y, x1, y);
  if (x1 - x0 >= 22)
    dc_out_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#1f5f9e\">%s</text>\n", x0 + 2,
               y < a->y + 10 ? y + 10 : y - 2, name);
}

static void lane_width(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a) {
  dc_rpt_rect(o, a->left, a->y, a->width, a->h, "#fafbfc");
  dc_out_str(o, "/>\n");
  dc_rpt_runs(o, r, side, a, width_key, width_run);
  unsigned nb = dc_rpt_bins_used(r);
  for (unsigned i = 0; i < nb; i++) {   /* narrower for part of a bin */
    const struct dc_rpt_bin *b = &r->bin[i];
    if (!b->width_min[side] || b->width_min[side] >= b->width[side]) continue;
    uint64_t lo, hi;
    dc_rpt_bin_range(r, i, &lo, &hi);
    double x = (dc_rpt_px(a, lo) + dc_rpt_px(a, hi)) / 2;
    dc_out_fmt(o, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#1f5f9e\"/>\n", x,
               width_y(a, b->width[side]), x, width_y(a, b->width_min[side]));
  }
}

/* ---- L1 / L0p residency ---- */

static void lane_power(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a) {
  dc_rpt_rect(o, a->left, a->y, a->width, a->h, "#fafbfc");
  dc_out_str(o, "/>\n");
  unsigned nb = dc_rpt_bins_used(r);
  for (unsigned i = 0; i < nb; i++) {
    const struct dc_rpt_bin *b = &r->bin[i];
    uint64_t t = sum_lt(b, side);
    if (!t) continue;
    uint64_t lo, hi;
    dc_rpt_bin_range(r, i, &lo, &hi);
    double x0 = dc_rpt_px(a, lo), w = dc_rpt_px(a, hi) - x0, y = a->y + a->h;
    static const unsigned cls[2] = { DC_LC_L1, DC_LC_L0P };
    for (int k = 0; k < 2; k++) {
      uint64_t v = b->lt[side][cls[k]];
      if (!v) continue;
      double h = a->h * (double)v / (double)t;
      y -= h;
      dc_rpt_rect(o, x0, y, w, h, dc_rpt_class_color(cls[k]));
      char what[48];
      snprintf(what, sizeof what, "%s %.0f%% of the bin", dc_rpt_class_name(cls[k]), 100.0 * (double)v / (double)t);
      dc_rpt_title_range(o, r, what, lo, hi);
    }
  }
}

/* ---- channels ---- */

static const char *const ch_name[2] = { "ch0 (TL)", "ch4 (UART)" };

/* 1 wholly online, 0 wholly offline, -1 unknown, else 2 + bin (mixed). */
static int ch_key(const struct dc_report *r, unsigned side, unsigned i, unsigned k) {
  const struct dc_rpt_bin *b = &r->bin[i];
  uint64_t on = b->ch_on[side][k], off = b->ch_off[side][k], t = sum_lt(b, side);
  if (!t || !(on + off)) return -1;
  if (on == t) return 1;
  if (off == t) return 0;
  return 2 + (int)i;
}
static int ch0_key(const struct dc_report *r, unsigned side, unsigned i) { return ch_key(r, side, i, 0); }
static int ch4_key(const struct dc_report *r, unsigned side, unsigned i) { return ch_key(r, side, i, 1); }

static void ch_run(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a, int key,
                   uint64_t lo, uint64_t hi, unsigned k) {
  double x0 = dc_rpt_px(a, lo), w = dc_rpt_px(a, hi) - x0;
  char what[48];
  if (key < 2) {
    dc_rpt_rect(o, x0, a->y, w, a->h, key ? "#43a047" : "#9aa3ad");
    snprintf(what, sizeof what, "%s %s", ch_name[k], key ? "online" : "offline");
    dc_rpt_title_range(o, r, what, lo, hi);
    return;
  }
  const struct dc_rpt_bin *b = &r->bin[key - 2];
  uint64_t on = b->ch_on[side][k], off = b->ch_off[side][k], t = sum_lt(b, side);
  double hon = a->h * (double)on / (double)t, hoff = a->h * (double)off / (double)t;
  dc_rpt_rect(o, x0, a->y + a->h - hon, w, hon, "#43a047");
  snprintf(what, sizeof what, "%s online %.0f%%, offline %.0f%%", ch_name[k], 100.0 * (double)on / (double)t,
           100.0 * (double)off / (double)t);
  dc_rpt_title_range(o, r, what, lo, hi);
  dc_rpt_rect(o, x0, a->y + a->h - hon - hoff, w, hoff, "#9aa3ad");
  dc_rpt_title_range(o, r, what, lo, hi);
}
static void ch0_run(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a, int key,
                    uint64_t lo, uint64_t hi) {
  ch_run(o, r, side, a, key, lo, hi, 0);
}
static void ch4_run(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a, int key,
                    uint64_t lo, uint64_t hi) {
  ch_run(o, r, side, a, key, lo, hi, 1);
}

static void lane_channels(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a) {
  double sh = (a->h - 2) / 2;
  for (unsigned k = 0; k < 2; k++) {
    struct dc_rpt_area s = *a;
    s.y = a->y + k * (sh + 2);
    s.h = sh;
    dc_out_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9.5\" fill=\"#667\" text-anchor=\"end\">%s</text>\n",
               a->left - 6, s.y + sh - 1, ch_name[k]);
    dc_rpt_rect(o, a->left, s.y, a->width, sh, "#fafbfc");
    dc_out_str(o, "/>\n");
    dc_rpt_runs(o, r, side, &s, k ? ch4_key : ch0_key, k ? ch4_run : ch0_run);
  }
}

/* ---- markers ---- */


double dc_rpt_bits(uint64_t v) {
  double n = 0;
  while (v) { n++; v >>= 1; }
  return n;
}

void dc_rpt_lane_marks(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a) {
  unsigned nb = dc_rpt_bins_used(r);
  for (unsigned m = 0; m < DC_M_COUNT; m++) {
    double y = a->y + m * DC_RPT_MARK_ROW;
    uint64_t maxc = 0, tot = 0;
    for (unsigned i = 0; i < nb; i++) {
      if (r->bin[i].mark[side][m] > maxc) maxc = r->bin[i].mark[side][m];
      tot += r->bin[i].mark[side][m];
    }
    dc_out_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" fill=\"#667\" text-anchor=\"end\">%s %llu</text>\n",
               a->left - 6, y + DC_RPT_MARK_ROW - 1.5, dc_rpt_mark_name(m), (unsigned long long)tot);
    dc_out_fmt(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eceff1\"/>\n", a->left,
               y + DC_RPT_MARK_ROW / 2, a->left + a->width, y + DC_RPT_MARK_ROW / 2);
    for (unsigned i = 0; i < nb; i++) {
      uint64_t c = r->bin[i].mark[side][m];
      if (!c) continue;
      uint64_t lo, hi;
      dc_rpt_bin_range(r, i, &lo, &hi);
      double x0 = dc_rpt_px(a, lo), w = dc_rpt_px(a, hi) - x0;
      if (w < 2) {
        x0 -= (2 - w) / 2;
        w = 2;
      }
      double op = 0.35 + 0.65 * dc_rpt_bits(c) / dc_rpt_bits(maxc);
      dc_rpt_rect(o, x0, y + 1, w, DC_RPT_MARK_ROW - 2, dc_rpt_mark_color(m));
      char what[48];
      snprintf(what, sizeof what, "%llu %s", (unsigned long long)c, dc_rpt_mark_name(m));
      dc_out_fmt(o, " fill-opacity=\"%.2f\"", op);
      dc_rpt_title_range(o, r, what, lo, hi);
    }
  }
  /* each rule's first finding: the findings table links here */
  for (unsigned k = 0; k < UAL_R_COUNT; k++) {
    const struct dc_rpt_rule *ru = &r->rule[k];
    if (!(ru->count[0] + ru->count[1]) || ru->first_dir != side) continue;
    unsigned m = DC_M_INFO + ual_rule_severity((enum ual_rule)k);
    double x = dc_rpt_px(a, ru->first_x), y = a->y + m * DC_RPT_MARK_ROW;
    const char *id = ual_rule_id((enum ual_rule)k);
    dc_out_fmt(o, "<a href=\"#rule-%s\"><polygon class=\"fa\" id=\"tl-%s\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" "
                  "fill=\"%s\" stroke=\"#fff\" stroke-width=\"0.6\"><title>%s first at frame %llu</title></polygon></a>\n",
               id, id, x, y + DC_RPT_MARK_ROW, x - 4, y - 1, x + 4, y - 1, dc_rpt_mark_color(m), id,
               (unsigned long long)ru->first);
  }
}

const struct dc_rpt_lane dc_ualink_lanes[] = {
  { "LTSSM", 26, lane_ltssm },
  { "Data rate", 15, lane_rate },
  { "Width", 26, lane_width },
  { "L1 / L0p", 14, lane_power },
  { "Channels", 18, lane_channels },
  { "Markers", (unsigned)(DC_M_COUNT * DC_RPT_MARK_ROW), dc_rpt_lane_marks },
};
const unsigned dc_ualink_nlanes = sizeof dc_ualink_lanes / sizeof dc_ualink_lanes[0];
