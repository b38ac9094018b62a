/* --report: the page (report.h): header, timeline of lanes, charts,
 * ladders and tables, well-formed XML throughout. */
#include "report.h"

#include <errno.h>
#include <string.h>

/* ------------------------------------------------------------ names */

const char *dc_rpt_class_name(unsigned c) {
  static const char *const n[DC_LC_COUNT] = { "Unknown", "Detect", "Polling", "Configuration", "L0", "L0p",
                                              "Recovery", "L1", "Disabled / Loopback / Hot Reset" };
  return c < DC_LC_COUNT ? n[c] : "?";
}

const char *dc_rpt_class_color(unsigned c) {
  static const char *const n[DC_LC_COUNT] = { "#e0e0e0", "#9e9e9e", "#8e6fd1", "#4f8fdb", "#3fa34d", "#a5d46a",
                                              "#f08c1a", "#2bb3c0", "#d9453b" };
  return c < DC_LC_COUNT ? n[c] : "#000";
}

const char *dc_rpt_mark_name(unsigned m) {
  static const char *const n[DC_M_COUNT] = { "Nak flits", "replays", "FEC corrected", "FEC uncorrectable", "info",
                                             "warning", "error" };
  return m < DC_M_COUNT ? n[m] : "?";
}

const char *dc_rpt_mark_color(unsigned m) {
  static const char *const n[DC_M_COUNT] = { "#c2185b", "#7b1fa2", "#0288d1", "#d84315", "#607d8b", "#f9a825",
                                             "#d32f2f" };
  return m < DC_M_COUNT ? n[m] : "#000";
}

/* ------------------------------------------------------------ output */

/* Length of the valid UTF-8 sequence at s, 0 when it is not one. */
static unsigned utf8_len(const unsigned char *s) {
  unsigned n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : 0;
  if (s[0] >= 0xf5) return 0;
  for (unsigned i = 1; i < n; i++)
    if ((s[i] & 0xc0) != 0x80) return 0;
  return n;
}

void dc_rpt_text(struct dc_out *o, const char *s) {
  while (*s) {
    unsigned char c = (unsigned char)*s;
    if (c >= 0x80) {   /* a file name may be any bytes; the page must stay UTF-8 */
      unsigned n = utf8_len((const unsigned char *)s);
      if (n) dc_out_mem(o, s, n);
      else dc_out_ch(o, '?');
      s += n ? n : 1;
      continue;
    }
    switch (c) {
    case '<': dc_out_str(o, "&lt;"); break;
    case '>': dc_out_str(o, "&gt;"); break;
    case '&': dc_out_str(o, "&amp;"); break;
    case '"': dc_out_str(o, "&quot;"); break;
    default: dc_out_ch(o, c < 0x20 ? ' ' : (char)c);   /* control characters are not allowed in XML */
    }
    s++;
  }
}

void dc_rpt_dur(char *buf, size_t cap, const struct dc_report *r, uint64_t x) {
  if (!r->use_ts) snprintf(buf, cap, "%llu rec", (unsigned long long)x);
  else if (x < 1000) snprintf(buf, cap, "%llu ns", (unsigned long long)x);
  else if (x < 1000000) snprintf(buf, cap, "%.3g \xc2\xb5s", (double)x / 1e3);
  else if (x < 1000000000) snprintf(buf, cap, "%.3g ms", (double)x / 1e6);
  else snprintf(buf, cap, "%.4g s", (double)x / 1e9);
}

/* ------------------------------------------------------------ page */

static const char css[] =
  "body{font:13px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#222;background:#f6f7f9;margin:0}"
  "main{max-width:1180px;margin:0 auto;padding:16px 20px 40px}"
  "h1{font-size:22px;margin:8px 0 2px}h2{font-size:17px;margin:26px 0 8px;border-bottom:2px solid #dde1e6;padding-bottom:3px}"
  "h3{font-size:14px;margin:14px 0 6px}.sub{color:#667;margin:0 0 12px}"
  ".cards{display:flex;flex-wrap:wrap;gap:10px;margin:12px 0}"
  ".card{flex:1 1 0;background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:8px 12px;min-width:90px}"
  ".card b{display:block;font-size:18px}.card span{color:#667;font-size:12px}"
  ".panel{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:10px;overflow-x:auto}"
  "svg{display:block}svg text{font-family:system-ui,sans-serif}"
  ".ladders{display:flex;flex-wrap:wrap;gap:10px}"
  ".ladder{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:6px 8px}"
  ".ladder h4{margin:2px 0 4px;font-size:13px}.ladder h4 small{color:#667;font-weight:normal}"
  "table{border-collapse:collapse;background:#fff;font-size:12.5px}"
  "th,td{border:1px solid #dde1e6;padding:3px 8px;text-align:left}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}"
  "th{background:#eef1f4}tr.h td{background:#f3f5f7;font-weight:600}"
  ".sev{display:inline-block;border-radius:3px;padding:0 5px;color:#fff;font-size:11px}"
  ".sev-error{background:#d32f2f}.sev-warning{background:#e0a800}.sev-info{background:#607d8b}"
  ".note{color:#667;font-size:12px}.legend span{display:inline-block;margin-right:12px}"
  ".legend i{display:inline-block;width:11px;height:11px;margin-right:4px;vertical-align:-1px;border-radius:2px}"
  ".fa:target{fill:#ffeb3b;stroke:#000;stroke-width:1.5}"
  "a{color:#1565c0}";

static void out_attr(struct dc_out *o, const char *name, const char *v) {
  dc_out_fmt(o, " %s=\"", name);
  dc_rpt_text(o, v);
  dc_out_ch(o, '"');
}

static void card(struct dc_out *o, const char *value, const char *label) {
  dc_out_str(o, "<div class=\"card\"><b>");
  dc_rpt_text(o, value);
  dc_out_str(o, "</b><span>");
  dc_rpt_text(o, label);
  dc_out_str(o, "</span></div>\n");
}

void dc_rpt_card_u64(struct dc_out *o, uint64_t v, const char *label) {
  char b[32];
  snprintf(b, sizeof b, "%llu", (unsigned long long)v);
  card(o, b, label);
}

static const char *role_name(const struct dc_report *r, unsigned side) {
  if (!dc_rpt_shows_ualink(r) && r->pcie_records) {
    static const char *const pcie[8] = { "role unknown", "Root Port", "Switch Upstream Port", "Switch Downstream Port",
                                         "Endpoint", "other upstream port", "role reserved", "role reserved" };
    return pcie[r->pcie_role[side] & 7];
  }
  unsigned role = r->sum.role[side];
  return role == UAL_ROLE_ACCEL ? "accelerator" : role == UAL_ROLE_SWITCH ? "switch" : "role unknown";
}

/* Ticks of the time axis: 1, 2 or 5 times a power of ten, about eight. */
static uint64_t tick_step(uint64_t span) {
  uint64_t s = 1;
  while (s * 10 <= span / 8 + 1) s *= 10;
  if (s * 5 <= span / 6) return s * 5;
  if (s * 2 <= span / 6) return s * 2;
  return s;
}

static void axis(struct dc_out *o, const struct dc_report *r, const struct dc_rpt_area *a, double y, double h) {
  uint64_t step = tick_step(a->span);
  dc_out_fmt(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#889\"/>\n", a->left, y,
             a->left + a->width, y);
  for (uint64_t t = 0; t <= a->span; t += step) {
    double px = dc_rpt_px(a, t);
    char b[32];
    dc_rpt_dur(b, sizeof b, r, t);
    dc_out_fmt(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dde1e6\"/>", px, y, px, y + h);
    dc_out_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10.5\" fill=\"#556\" text-anchor=\"middle\">", px, y - 5);
    dc_rpt_text(o, b);
    dc_out_str(o, "</text>\n");
    if (t + step < t) break;
  }
}

#define LANE_GAP 8
#define MAX_LANES 16

unsigned dc_rpt_lanes(const struct dc_report *r, const struct dc_rpt_lane **out, unsigned cap) {
  unsigned n = 0;
  bool ub = dc_rpt_shows_ub(r), ual = dc_rpt_shows_phy(r);
  /* a UB capture keeps the findings markers (UALink's last lane) */
  for (unsigned i = 0; ual && i < dc_ualink_nlanes && n < cap; i++) out[n++] = &dc_ualink_lanes[i];
  for (unsigned i = 0; ub && i < dc_ub_nlanes && n < cap; i++) out[n++] = &dc_ub_lanes[i];
  if (ub && !ual && n < cap) out[n++] = &dc_ualink_lanes[dc_ualink_nlanes - 1];
  return n;
}

static void timeline(struct dc_out *o, const struct dc_report *r) {
  struct dc_rpt_area a = { 170, 950, 0, 0, r->x_last ? r->x_last : 1 };
  const struct dc_rpt_lane *lanes[MAX_LANES];
  unsigned nl = dc_rpt_lanes(r, lanes, MAX_LANES);
  double lanes_h = 0;
  for (unsigned i = 0; i < nl; i++) lanes_h += lanes[i]->height + LANE_GAP;
  double side_h = 24 + lanes_h, top = 26;
  double H = top + 2 * side_h + 8;
  dc_out_fmt(o, "<div class=\"panel\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1140\" height=\"%.0f\" "
                "viewBox=\"0 0 1140 %.0f\" id=\"timeline\" shape-rendering=\"crispEdges\" role=\"img\" aria-label=\"Timeline of both sides\">\n", H, H);
  axis(o, r, &a, top - 4, H - top);
  double y = top;
  for (unsigned side = 0; side < 2; side++) {
    dc_out_fmt(o, "<text x=\"4\" y=\"%.1f\" font-size=\"13\" font-weight=\"bold\">Side %c <tspan font-weight=\"normal\" "
                  "fill=\"#667\">(%s, sends %s)</tspan></text>\n", y + 16, side ? 'B' : 'A', role_name(r, side),
               side ? "B&gt;A" : "A&gt;B");
    y += 24;
    for (unsigned i = 0; i < nl; i++) {
      const struct dc_rpt_lane *l = lanes[i];
      a.y = y;
      a.h = l->height;
      dc_out_fmt(o, "<g class=\"lane\"><text x=\"14\" y=\"%.1f\" font-size=\"11.5\" fill=\"#334\">", y + 11);
      dc_rpt_text(o, l->title);
      dc_out_str(o, "</text>\n");
      l->draw(o, r, side, &a);
      dc_out_str(o, "</g>\n");
      y += l->height + LANE_GAP;
    }
  }
  dc_out_str(o, "</svg>\n");
  dc_out_str(o, "<div class=\"legend note\">");
  for (unsigned c = 0; dc_rpt_shows_phy(r) && c < DC_LC_COUNT; c++)
    dc_out_fmt(o, "<span><i style=\"background:%s\"></i>%s</span>", dc_rpt_class_color(c), dc_rpt_class_name(c));
  if (dc_rpt_shows_phy(r)) dc_out_str(o, "<br/>");
  if (dc_rpt_shows_ub(r)) dc_rpt_ub_legend(o);
  for (unsigned m = 0; m < DC_M_COUNT; m++)
    dc_out_fmt(o, "<span><i style=\"background:%s\"></i>%s</span>", dc_rpt_mark_color(m), dc_rpt_mark_name(m));
  char b[32];
  dc_rpt_dur(b, sizeof b, r, r->bw);
  dc_out_fmt(o, "<br/>One bin is %s; a marker's shade grows with its count (hover for it). Channel lanes: green online, "
                "grey offline, blank unknown.</div></div>\n", b);
}

#define CHART_GROUP 4

static void chart_range(const struct dc_report *r, unsigned i, uint64_t *lo, uint64_t *hi) {
  uint64_t a, b;
  dc_rpt_bin_range(r, i * CHART_GROUP, lo, &a);
  unsigned last = (i + 1) * CHART_GROUP - 1;
  dc_rpt_bin_range(r, last < DC_RPT_BINS ? last : DC_RPT_BINS - 1, &b, hi);
}

/* The per-bin quantities a chart shows. */
enum { CH_TL, CH_PAYLOAD, CH_MSGS, CH_UB_BYTES, CH_TLPS, CH_DLLPS, CH_COUNT };

/* One chart of a per-bin quantity of both directions. */
static void chart(struct dc_out *o, const struct dc_report *r, const char *title, const char *series, int which, double y0,
                  double h) {
  struct dc_rpt_area a = { 170, 950, y0, h, r->x_last ? r->x_last : 1 };
  /* points of CHART_GROUP bins: a rate over a bin of a few flits is noise */
  unsigned nb = (dc_rpt_bins_used(r) + CHART_GROUP - 1) / CHART_GROUP;
  double maxv = 0;
  double v[2][DC_RPT_BINS / CHART_GROUP];
  uint64_t total[2] = { 0, 0 };
  for (unsigned i = 0; i < nb; i++) {
    uint64_t lo, hi;
    chart_range(r, i, &lo, &hi);
    for (int d = 0; d < 2; d++) {
      uint64_t n = 0;
      for (unsigned j = i * CHART_GROUP; j < (i + 1) * CHART_GROUP && j < DC_RPT_BINS; j++) {
        const struct dc_rpt_bin *b = &r->bin[j];
        n += which == CH_TL ? b->tl[d] : which == CH_PAYLOAD ? b->payload[d] : which == CH_MSGS ? b->msgs[d]
             : which == CH_UB_BYTES ? b->ub_bytes[d] : which == CH_TLPS ? b->tlps[d] : b->dllps[d];
      }
      total[d] += n;
      double len = (double)(hi > lo ? hi - lo : 1);
      double val = (double)n;
      if (r->use_ts)
        val = which == CH_TL ? val * UAL_TL_FLIT_BYTES * 8.0 / len : which == CH_UB_BYTES ? val * 8.0 / len : val * 1000.0 / len;
      else val = val / len;
      v[d][i] = val;
      if (val > maxv) maxv = val;
    }
  }
  const char *unit = !r->use_ts ? "per record" : which == CH_TL || which == CH_UB_BYTES ? "Gb/s" : "per \xc2\xb5s";
  dc_out_fmt(o, "<text x=\"14\" y=\"%.1f\" font-size=\"12\" font-weight=\"bold\">", y0 + 14);
  dc_rpt_text(o, title);
  dc_out_fmt(o, "</text><text x=\"14\" y=\"%.1f\" font-size=\"11\" fill=\"#667\">%s</text>\n", y0 + 29, unit);
  dc_out_fmt(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fafbfc\" stroke=\"#dde1e6\"/>\n",
             a.left, y0, a.width, h);
  for (int g = 0; g <= 2; g++) {
    double gy = y0 + h - h * g / 2.0;
    dc_out_fmt(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e6e8eb\"/>"
                  "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#667\" text-anchor=\"end\">%.3g</text>\n",
               a.left, gy, a.left + a.width, gy, a.left - 4, gy + 3, maxv * g / 2.0);
  }
  static const char *const color[2] = { "#1f77b4", "#e8590c" };
  for (int d = 0; d < 2; d++) {
    dc_out_fmt(o, "<polyline data-series=\"%s\" data-dir=\"%s\" data-total=\"%llu\" fill=\"none\" stroke=\"%s\" "
                  "stroke-width=\"1.4\" points=\"", series, d ? "B&gt;A" : "A&gt;B", (unsigned long long)total[d], color[d]);
    for (unsigned i = 0; i < nb; i++) {
      uint64_t lo, hi;
      chart_range(r, i, &lo, &hi);
      double yy = y0 + h - (maxv > 0 ? v[d][i] / maxv * (h - 2) : 0);
      dc_out_fmt(o, "%.1f,%.1f %.1f,%.1f ", dc_rpt_px(&a, lo), yy, dc_rpt_px(&a, hi), yy);
    }
    dc_out_fmt(o, "\"><title>%s %s: %llu in all</title></polyline>\n", d ? "B&gt;A" : "A&gt;B", title,
               (unsigned long long)total[d]);
  }
}

static void throughput(struct dc_out *o, const struct dc_report *r, const struct dc_sums *st) {
  static const char *const titles[CH_COUNT] = { "TL flits", "Payload flits", "DL messages", "UB DLLDP payload",
                                                "PCIe TLPs", "PCIe DLLPs" };
  static const char *const series[CH_COUNT] = { "tl", "payload", "msgs", "ub_bytes", "tlps", "dllps" };
  /* each fabric's charts: UALink's, UB's, PCIe's flit-mode TLPs */
  int charts[CH_COUNT], n = 0;
  if (dc_rpt_shows_ualink(r)) charts[n++] = CH_TL, charts[n++] = CH_PAYLOAD, charts[n++] = CH_MSGS;
  if (dc_rpt_shows_ub(r)) charts[n++] = CH_UB_BYTES;
  if (st->pcie.d[0].flits + st->pcie.d[1].flits) charts[n++] = CH_TLPS;
  if (st->pcie.d[0].dllps + st->pcie.d[1].dllps) charts[n++] = CH_DLLPS;
  double ch = 80, gap = 22, top = 24;
  double H = top + n * (ch + gap);
  struct dc_rpt_area a = { 170, 950, 0, 0, r->x_last ? r->x_last : 1 };
  dc_out_fmt(o, "<div class=\"panel\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1140\" height=\"%.0f\" "
                "viewBox=\"0 0 1140 %.0f\" id=\"throughput\" role=\"img\" aria-label=\"Throughput per direction\">\n", H, H);
  axis(o, r, &a, top - 4, 0);
  for (int k = 0; k < n; k++) chart(o, r, titles[charts[k]], series[charts[k]], charts[k], top + k * (ch + gap), ch);
  dc_out_str(o, "</svg><div class=\"legend note\"><span><i style=\"background:#1f77b4\"></i>A&gt;B</span>"
                "<span><i style=\"background:#e8590c\"></i>B&gt;A</span></div></div>\n");

  /* the record and flit-type mix, from the --stats counts: every record of a direction once */
  enum { MIX = 11 };
  static const char *const mix_color[MIX] = { "#3fa34d", "#4f8fdb", "#b0b7c0", "#8e6fd1", "#f08c1a", "#2bb3c0",
                                              "#c2410c", "#7c3aed", "#a16207", "#0f766e", "#d9453b" };
  static const char *const mix_name[MIX] = { "payload flits", "NOP flits", "IDLE flits", "reserved flits",
                                             "ordered sets", "link events", "PCIe DLLPs", "PCIe flits",
                                             "PCIe non-flit TLPs", "UB flits", "malformed" };
  dc_out_str(o, "<h3>Record and flit-type mix</h3><div class=\"panel\"><svg xmlns=\"http://www.w3.org/2000/svg\" "
                "width=\"1140\" height=\"64\" viewBox=\"0 0 1140 64\" id=\"mix\" role=\"img\" aria-label=\"Record and flit-type mix\">\n");
  bool shown[MIX] = { false };
  for (int d = 0; d < 2; d++) {
    const struct ual_ualink_dir_tally *ds = &st->ualink.d[d];
    uint64_t v[MIX] = { ds->usage[UAL_FK_PAYLOAD], ds->usage[UAL_FK_NOP], ds->usage[UAL_FK_IDLE],
                        ds->usage[UAL_FK_RESERVED], ds->os + st->pcie.d[d].os, st->d[d].events, st->pcie.d[d].dllps,
                        st->pcie.d[d].flits, st->pcie.d[d].nf_tlps, st->ub.d[d].flits, st->d[d].malformed };
    uint64_t tot = 0;
    for (int k = 0; k < MIX; k++) tot += v[k];
    double y = 6 + d * 28, x = 170;
    dc_out_fmt(o, "<text x=\"14\" y=\"%.1f\" font-size=\"12\">%s</text>\n", y + 14, d ? "B&gt;A" : "A&gt;B");
    for (int k = 0; k < MIX && tot; k++) {
      if (!v[k]) continue;
      shown[k] = true;
      double w = 950.0 * (double)v[k] / (double)tot;
      dc_out_fmt(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"20\" fill=\"%s\" data-dir=\"%s\" "
                    "data-count=\"%llu\"><title>%s: %llu (%.1f%%)</title></rect>", x, y, w, mix_color[k],
                 d ? "B&gt;A" : "A&gt;B", (unsigned long long)v[k], mix_name[k], (unsigned long long)v[k],
                 100.0 * (double)v[k] / (double)tot);
      if (w > 70)
        dc_out_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#fff\">%s %.0f%%</text>", x + 4, y + 14,
                   mix_name[k], 100.0 * (double)v[k] / (double)tot);
      x += w;
      dc_out_ch(o, '\n');
    }
  }
  dc_out_str(o, "</svg><div class=\"legend note\">");
  for (int k = 0; k < MIX; k++)
    if (shown[k] || (k < 4 && dc_rpt_shows_ualink(r))) dc_out_fmt(o, "<span><i style=\"background:%s\"></i>%s</span>", mix_color[k], mix_name[k]);
  dc_out_str(o, "</div></div>\n");
}

/* ---- ladders ---- */

static void ladder(struct dc_out *o, const struct dc_report *r, const struct dc_rpt_ladder *l, double W,
                   const char *title) {
  double la = 150, lb = W - 110, row = 24, top = 26;
  double H = top + l->n * row + (l->elided ? row : 0) + 6;
  dc_out_str(o, "<div class=\"ladder\"><h4>");
  dc_rpt_text(o, title);
  char b[32];
  dc_rpt_dur(b, sizeof b, r, l->n ? l->s[l->n - 1].x - l->x0 : 0);
  dc_out_fmt(o, " <small>frames %llu\xe2\x80\x93%llu, %s</small></h4>\n",
             (unsigned long long)(l->n ? l->s[0].frame : 0), (unsigned long long)(l->n ? l->s[l->n - 1].frame : 0), b);
  dc_out_fmt(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
             W, H, W, H);
  dc_out_fmt(o, "<text x=\"%.1f\" y=\"14\" font-size=\"12\" font-weight=\"bold\" text-anchor=\"middle\">A (%s)</text>"
                "<text x=\"%.1f\" y=\"14\" font-size=\"12\" font-weight=\"bold\" text-anchor=\"middle\">B (%s)</text>\n",
             la, role_name(r, 0), lb, role_name(r, 1));
  dc_out_fmt(o, "<line x1=\"%.1f\" y1=\"20\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#99a\" stroke-width=\"2\"/>"
                "<line x1=\"%.1f\" y1=\"20\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#99a\" stroke-width=\"2\"/>\n",
             la, la, H - 4, lb, lb, H - 4);
  static const char *const style_color[4] = { "#37474f", "#2e7d32", "#c62828", "#ef6c00" };
  for (unsigned i = 0; i < l->n; i++) {
    const struct dc_rpt_step *s = &l->s[i];
    double y = top + i * row + 14;
    const char *col = style_color[s->style & 3];
    dc_rpt_dur(b, sizeof b, r, s->x - l->x0);
    dc_out_fmt(o, "<text x=\"4\" y=\"%.1f\" font-size=\"10.5\" fill=\"#667\">#%llu</text>"
                  "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10.5\" fill=\"#667\">+%s</text>\n",
               y + 2, (unsigned long long)s->frame, W - 70, y + 2, b);
    if (s->message && s->side < 2) {
      double x1 = s->side ? lb : la, x2 = s->side ? la : lb;
      double dx = x2 > x1 ? -7 : 7;
      dc_out_fmt(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\"/>"
                    "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n",
                 x1, y - 2, x2, y + 4, col, x2, y + 4, x2 + dx, y - 0.5, x2 + dx, y + 6.5, col);
      dc_out_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\" fill=\"%s\">", (la + lb) / 2,
                 y - 4, col);
    } else if (s->side < 2) {
      double x1 = s->side ? lb : la;
      dc_out_fmt(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>", x1, y, col);
      dc_out_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"%s\" fill=\"%s\">",
                 s->side ? lb - 8 : la + 8, y + 4, s->side ? "end" : "start", col);
    } else {
      dc_out_fmt(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"4 3\"/>",
                 la, y, lb, y, col);
      dc_out_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\" fill=\"%s\" "
                    "font-weight=\"bold\">", (la + lb) / 2, y - 3, col);
    }
    dc_rpt_text(o, s->text);
    dc_out_str(o, "</text>\n");
  }
  if (l->elided)
    dc_out_fmt(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#667\" text-anchor=\"middle\">%u more steps not "
                  "drawn</text>\n", (la + lb) / 2, top + l->n * row + 14, l->elided);
  dc_out_str(o, "</svg></div>\n");
}

static void neg_title(char *t, size_t cap, unsigned i, const struct dc_rpt_ladder *l) {
  const char *outcome = "unanswered";
  for (unsigned k = 1; k < l->n; k++) {
    if (l->s[k].style == 1) outcome = k >= 2 ? "complete" : "granted";
    if (l->s[k].style == 2) outcome = k == 1 ? "refused" : "not confirmed";
    if (l->s[k].style == 3) outcome = "pending";
  }
  snprintf(t, cap, "%u. %s by %c: %s", i + 1, ual_msg_types[l->mtype < UAL_MT_COUNT ? l->mtype : UAL_MT_RESERVED].display,
           l->requester ? 'B' : 'A', outcome);
}

static void pwr_title(char *t, size_t cap, unsigned i, const struct dc_rpt_ladder *l) {
  static const char *const name[4] = { "Link training", "Recovery", "L1 entry and exit", "L0p width change" };
  snprintf(t, cap, "%u. %s%s", i + 1, name[l->kind & 3],
           l->kind == DC_HS_RECOVERY && l->rate_changed ? " with a speed change" : "");
}

/* A section of ladders: the first n drawn, elided more counted. */
static void ladders(struct dc_out *o, const struct dc_report *r, const struct dc_rpt_ladder *v, unsigned n,
                    uint64_t elided, double width, const char *none, const char *what,
                    void (*title)(char *, size_t, unsigned, const struct dc_rpt_ladder *)) {
  if (!n) {
    dc_out_fmt(o, "<p class=\"note\">%s</p>\n", none);
    return;
  }
  dc_out_str(o, "<div class=\"ladders\">\n");
  for (unsigned i = 0; i < n; i++) {
    char t[128];
    title(t, sizeof t, i, &v[i]);
    ladder(o, r, &v[i], width, t);
  }
  dc_out_str(o, "</div>\n");
  if (elided)
    dc_out_fmt(o, "<p class=\"note\">%llu more %s not drawn (the first %u are).</p>\n", (unsigned long long)elided,
               what, n);
}

/* ---- tables ---- */

static void findings(struct dc_out *o, const struct dc_report *r) {
  bool any = false;
  for (int sev = UAL_SEV_ERROR; sev >= UAL_SEV_INFO; sev--) {
    for (unsigned k = 0; k < UAL_R_COUNT; k++) {
      const struct dc_rpt_rule *ru = &r->rule[k];
      if ((int)ual_rule_severity((enum ual_rule)k) != sev || !(ru->count[0] + ru->count[1])) continue;
      if (!any)
        dc_out_str(o, "<table id=\"findings\"><tr><th>rule</th><th>severity</th><th>what</th><th class=\"n\">A&gt;B</th>"
                      "<th class=\"n\">B&gt;A</th><th class=\"n\">total</th><th class=\"n\">first frame</th>"
                      "<th class=\"n\">last frame</th></tr>\n");
      any = true;
      const char *id = ual_rule_id((enum ual_rule)k), *sn = ual_severity_name((enum ual_severity)sev);
      dc_out_fmt(o, "<tr id=\"rule-%s\" data-rule=\"%s\"><td><code>%s</code></td><td><span class=\"sev sev-%s\">%s</span></td><td>", id, id, id, sn, sn);
      dc_rpt_text(o, ual_rule_what((enum ual_rule)k));
      dc_out_fmt(o, "</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td>"
                    "<td class=\"n\"><a href=\"#tl-%s\">%llu</a></td><td class=\"n\">%llu</td></tr>\n",
                 (unsigned long long)ru->count[0], (unsigned long long)ru->count[1],
                 (unsigned long long)(ru->count[0] + ru->count[1]), id, (unsigned long long)ru->first,
                 (unsigned long long)ru->last);
    }
  }
  if (any) dc_out_str(o, "</table>\n<p class=\"note\">The first frame links to the finding's first marker on the "
                         "timeline (highlighted).</p>\n");
  else dc_out_str(o, "<p class=\"note\">No findings in the selected records.</p>\n");
  if (r->end.n) {
    dc_out_str(o, "<h3>At the end of the capture</h3><table id=\"end-findings\"><tr><th>rule</th><th>severity</th>"
                  "<th>message</th></tr>\n");
    for (unsigned i = 0; i < r->end.n; i++) {
      enum ual_rule k = (enum ual_rule)r->end.v[i].rule;
      const char *sn = ual_severity_name(ual_rule_severity(k));
      dc_out_fmt(o, "<tr><td><code>%s</code></td><td><span class=\"sev sev-%s\">%s</span></td><td>", ual_rule_id(k), sn,
                 sn);
      dc_rpt_text(o, r->end.v[i].msg);
      dc_out_str(o, "</td></tr>\n");
    }
    dc_out_str(o, "</table>\n<p class=\"note\">End-of-capture findings belong to no record; --stats does not count "
                  "them either.</p>\n");
  }
}

static void trow(struct dc_out *o, const char *key, const char *label, unsigned indent, uint64_t a, uint64_t b,
                 bool no_total) {
  dc_out_str(o, "<tr");
  if (key) out_attr(o, "data-key", key);
  dc_out_fmt(o, "><td style=\"padding-left:%upx\">", 8 + indent * 14);
  dc_rpt_text(o, label);
  dc_out_fmt(o, "</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"n\">", (unsigned long long)a,
             (unsigned long long)b);
  if (!no_total) dc_out_u64(o, a + b);
  dc_out_str(o, "</td></tr>\n");
}

static void thead(struct dc_out *o, const char *label) {
  dc_out_str(o, "<tr class=\"h\"><td colspan=\"4\">");
  dc_rpt_text(o, label);
  dc_out_str(o, "</td></tr>\n");
}

struct totals {
  struct dc_out *o;
  unsigned table;
};

static void total_row(void *ctx, const struct ual_view_counter *row) {
  const struct totals *t = ctx;
  if (row->table != t->table || row->per_rule) return;   /* the findings table has the rules */
  if (row->heading) thead(t->o, row->label);
  else trow(t->o, row->key, row->label, t->table == UAL_VIEW_T_SENT_BY ? 0 : row->indent / 2, row->v[0], row->v[1],
            row->no_total);
}

static void any_row(void *ctx, const struct ual_view_counter *row) {
  struct totals *t = ctx;
  if (row->table == UAL_VIEW_T_SENT_BY) t->table = UAL_VIEW_T_SENT_BY;
}

/* The --stats rows of each link (the model's counters); data-key is the
 * key in --stats --json (per direction), data-link the link index. */
static void totals(struct dc_out *o, const struct ual_view_src *src0) {
  static struct ual_view_tally empty;
  struct ual_view_src s, *src = &s;
  dc_stats_links(src0, &s, &empty);
  for (unsigned k = 0; k < src->tally->n; k++) {
    struct ual_view_link ln;
    ual_view_link_get(src, k, &ln);
    if (src->tally->n > 1) {
      dc_out_fmt(o, "<h3 class=\"link\" data-link=\"%u\">", ln.index);
      dc_rpt_text(o, ln.name);
      dc_out_fmt(o, " (%s)</h3>\n", ual_view_fabric_get(ln.fabric)->name);
    }
    dc_out_fmt(o, "<div style=\"display:flex;gap:16px;flex-wrap:wrap;align-items:flex-start\">"
                  "<table id=\"totals%s\" class=\"totals\" data-link=\"%u\" data-fabric=\"%s\"><tr><th>by direction</th>"
                  "<th class=\"n\">A&gt;B</th><th class=\"n\">B&gt;A</th><th class=\"n\">total</th></tr>\n",
               k ? "-more" : "", ln.index, ual_view_fabric_get(ln.fabric)->key);
    struct totals t = { o, UAL_VIEW_T_RECORDS };
    ual_view_counters(src, k, total_row, &t);
    dc_out_str(o, "</table>\n");
    struct totals any = { o, UAL_VIEW_T_RECORDS };
    ual_view_counters(src, k, any_row, &any);
    if (any.table == UAL_VIEW_T_SENT_BY) {   /* the analysis' totals */
      dc_out_fmt(o, "<table id=\"analysis%s\" class=\"analysis\" data-link=\"%u\" data-fabric=\"%s\"><tr>"
                    "<th>analysis (sent by)</th><th class=\"n\">A</th><th class=\"n\">B</th><th class=\"n\">total</th></tr>\n",
                 k ? "-more" : "", ln.index, ual_view_fabric_get(ln.fabric)->key);
      t.table = UAL_VIEW_T_SENT_BY;
      ual_view_counters(src, k, total_row, &t);
      dc_out_str(o, "</table>\n");
    }
    dc_out_str(o, "</div>\n");
  }
}

static void residency(struct dc_out *o, const struct dc_report *r) {
  dc_out_str(o, "<table id=\"residency\"><tr><th>LTSSM</th><th class=\"n\">A time</th><th class=\"n\">A entries</th>"
                "<th class=\"n\">B time</th><th class=\"n\">B entries</th></tr>\n");
  for (unsigned c = 0; c < DC_LC_COUNT; c++) {
    if (!r->lt_total[0][c] && !r->lt_total[1][c] && !r->lt_entries[0][c] && !r->lt_entries[1][c]) continue;
    dc_out_fmt(o, "<tr><td><i style=\"display:inline-block;width:10px;height:10px;background:%s;margin-right:5px\"></i>"
                  "%s</td>", dc_rpt_class_color(c), dc_rpt_class_name(c));
    for (int d = 0; d < 2; d++) {
      char b[32];
      dc_rpt_dur(b, sizeof b, r, r->lt_total[d][c]);
      dc_out_fmt(o, "<td class=\"n\">%s</td><td class=\"n\">%llu</td>", b, (unsigned long long)r->lt_entries[d][c]);
    }
    dc_out_str(o, "</tr>\n");
  }
  dc_out_str(o, "</table>\n");
}

bool dc_report_write(struct dc_report *r, const char *input, const struct ual_view_src *src) {
  static struct dc_sums sums;
  const struct dc_sums *st = &sums;
  dc_sums_of(src->tally, &sums);
  struct dc_out out, *o = &out;
  if (strcmp(input, "-") == 0) input = "standard input";
  if (!dc_out_init(o, r->fp, 1u << 16)) return false;
  dc_out_str(o, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
                "<meta charset=\"utf-8\"/>\n<meta name=\"generator\" content=\"ualink-decode " UAL_VERSION_STRING "\"/>\n"
                "<title>");
  /* named by the fabrics the capture holds */
  char title[64];
  snprintf(title, sizeof title, "%s%s%s%s%s link report", dc_rpt_shows_ualink(r) ? "UALink" : "",
           dc_rpt_shows_ualink(r) && r->pcie_records ? " + " : "", r->pcie_records ? "PCIe" : "",
           (dc_rpt_shows_ualink(r) || r->pcie_records) && r->ub_records ? " + " : "", r->ub_records ? "UB" : "");
  dc_out_fmt(o, "%s: ", title);
  dc_rpt_text(o, input);
  dc_out_str(o, "</title>\n<style>");
  dc_out_str(o, css);
  dc_out_fmt(o, "</style>\n</head>\n<body><main>\n<h1>%s</h1>\n<p class=\"sub\">", title);
  dc_rpt_text(o, input);
  char span[32];
  dc_rpt_dur(span, sizeof span, r, r->x_last);
  const struct ual_view_dir_tally *a = &st->d[0], *b = &st->d[1];
  dc_out_fmt(o, " \xc2\xb7 %llu records read", (unsigned long long)r->records);
  if (a->records + b->records != r->records)
    dc_out_fmt(o, ", %llu selected", (unsigned long long)(a->records + b->records));
  dc_out_fmt(o, " \xc2\xb7 %s %s \xc2\xb7 ualink-decode " UAL_VERSION_STRING "</p>\n",
             r->use_ts ? "span" : "no timestamps, axis in records:", span);

  dc_out_str(o, "<div class=\"cards\" id=\"summary\">\n");
  dc_rpt_card_u64(o, a->records + b->records, "records");
  card(o, span, "span");
  dc_rpt_card_u64(o, a->sev[UAL_SEV_ERROR] + b->sev[UAL_SEV_ERROR], "errors");
  dc_rpt_card_u64(o, a->sev[UAL_SEV_WARNING] + b->sev[UAL_SEV_WARNING], "warnings");
  dc_rpt_card_u64(o, a->sev[UAL_SEV_INFO] + b->sev[UAL_SEV_INFO], "info findings");
  bool ual = dc_rpt_shows_ualink(r);
  if (ual) {
    const struct ual_ualink_dir_tally *ua = &st->ualink.d[0], *ub = &st->ualink.d[1];
    dc_rpt_card_u64(o, ua->replay_cmd[UAL_RC_NAK] + ua->replay_cmd[UAL_RC_NAK_SELECTIVE] + ub->replay_cmd[UAL_RC_NAK] +
                    ub->replay_cmd[UAL_RC_NAK_SELECTIVE], "Nak flits");
    dc_rpt_card_u64(o, a->rules[UAL_R_RP_REPLAY] + b->rules[UAL_R_RP_REPLAY], "replays");
    dc_rpt_card_u64(o, r->n_neg + r->neg_elided, "negotiations");
    dc_rpt_card_u64(o, ua->tl_flits + ub->tl_flits, "TL flits");
  }
  if (dc_rpt_shows_ub(r)) dc_rpt_ub_cards(o, st);
  dc_rpt_pcie_cards(o, st);
  dc_out_str(o, "</div>\n");

  dc_out_str(o, "<h2 id=\"s-timeline\">Timeline</h2>\n");
  timeline(o, r);
  if (dc_rpt_shows_phy(r)) {
    dc_out_str(o, "<h3>Time in each LTSSM state</h3>\n");
    residency(o, r);
  }
  dc_out_str(o, "<h2 id=\"s-throughput\">Throughput</h2>\n");
  throughput(o, r, st);
  if (ual) {   /* UALink DL negotiations */
    dc_out_str(o, "<h2 id=\"s-negotiations\">DL negotiations</h2>\n<p class=\"note\">Request, answer (Ack, Nack or "
                  "Decision Pending) and the requester's confirming Ack; times are since the request.</p>\n");
    ladders(o, r, r->neg, r->n_neg, r->neg_elided, 546, "No DL control negotiation in the capture.", "negotiations",
            neg_title);
  }
  if (dc_rpt_shows_phy(r)) {
    dc_out_str(o, "<h2 id=\"s-power\">Link state handshakes</h2>\n<p class=\"note\">Training, Recovery, L1 entry and "
                  "exit, L0p width changes: from the negotiation that allows one (Link Speed, Link State, Link Width) "
                  "through the PM or Link Management DLLPs, data rate, width and LTSSM states of both ports until both "
                  "are back in L0; times are since the first step.</p>\n");
    ladders(o, r, r->pwr, r->n_pwr, r->pwr_elided, 1120, "No link training, Recovery, L1 entry or exit or L0p width change in the capture.",
            "handshakes", pwr_title);
  }
  dc_out_str(o, "<h2 id=\"s-findings\">Findings by rule</h2>\n");
  findings(o, r);
  dc_out_str(o, "<h2 id=\"s-totals\">Totals (as --stats)</h2>\n");
  totals(o, src);
  if (r->events_dropped)
    dc_out_fmt(o, "<p class=\"note\">%llu timeline events over the per-record limit were not stored.</p>\n",
               (unsigned long long)r->events_dropped);
  dc_out_str(o, "</main></body></html>\n");
  dc_out_flush(o);
  bool ok = !o->failed;
  int e = o->err;
  dc_out_free(o);
  if (fflush(r->fp) != 0) ok = false;
  else if (!ok) errno = e;
  return ok;
}
