/* --stats of PCIe DLLPs (stats_pcie.h). */
#include "stats_pcie.h"
#include "stats.h"
#include "json.h"

static const char *const class_name[UAL_PCIE_CLASSES] = { "P", "NP", "Cpl" };

static bool any(const struct dc_pcie_stats *p) { return p->dllps[0] + p->dllps[1] > 0; }

void dc_pcie_stats_add(struct dc_pcie_stats *p, const struct ual_rec_result *r) {
  unsigned d = r->dir & 1;
  p->dllps[d]++;
  if (!r->pcie.crc_ok) p->crc_bad[d]++;
  p->by_type[d][r->pcie.name < UAL_PCIE_DT_COUNT ? r->pcie.name : UAL_PCIE_DT_RESERVED]++;
}

static void row(void (*fn)(void *, const struct dc_stats_row *), void *ctx, const char *key, const char *label,
                unsigned indent, bool heading, uint64_t a, uint64_t b) {
  struct dc_stats_row r = { key, label, indent, heading, false, false, a, b };
  fn(ctx, &r);
}

void dc_pcie_stats_rows(const struct dc_pcie_stats *p, void (*fn)(void *ctx, const struct dc_stats_row *row),
                        void *ctx) {
  if (!any(p)) return;
  row(fn, ctx, NULL, "PCIe DLLPs", 0, true, 0, 0);
  /* no "dirs" keys: in --stats --json these totals are the summary's "pcie" object */
  row(fn, ctx, NULL, "total", 2, false, p->dllps[0], p->dllps[1]);
  row(fn, ctx, NULL, "CRC-16 bad", 2, false, p->crc_bad[0], p->crc_bad[1]);
  for (unsigned t = 0; t < UAL_PCIE_DT_COUNT; t++) {
    if (!p->by_type[0][t] && !p->by_type[1][t]) continue;
    row(fn, ctx, NULL, ual_pcie_dllp_name_str(t), 4, false, p->by_type[0][t], p->by_type[1][t]);
  }
}

static bool vc_seen(const struct ual_pcie_side *s, unsigned vc) {
  for (unsigned c = 0; c < UAL_PCIE_CLASSES; c++)
    if (s->adv[vc][c].known) return true;
  return false;
}

void dc_pcie_credits_text(const struct dc_pcie_stats *p, struct dc_out *o) {
  if (!any(p) || !p->an) return;
  dc_out_str(o, "  PCIe credits advertised, last seen (sent by; hdr/data, 0 = infinite)\n");
  for (unsigned d = 0; d < 2; d++)
    for (unsigned vc = 0; vc < UAL_PCIE_VCS; vc++) {
      const struct ual_pcie_side *s = &p->an->s[d];
      if (!vc_seen(s, vc)) continue;
      dc_out_fmt(o, "    %c VC%u", d ? 'B' : 'A', vc);
      for (unsigned c = 0; c < UAL_PCIE_CLASSES; c++) {
        const struct ual_pcie_fc_vals *x = &s->adv[vc][c];
        if (x->known) dc_out_fmt(o, "  %s %u/%u", class_name[c], x->hdr, x->data);
        else dc_out_fmt(o, "  %s ?", class_name[c]);
      }
      dc_out_ch(o, '\n');
    }
}

static void credits_json(struct dc_out *o, const struct ual_pcie_side *s) {
  bool f = true;
  dc_out_ch(o, '[');
  for (unsigned vc = 0; vc < UAL_PCIE_VCS; vc++) {
    if (!vc_seen(s, vc)) continue;
    if (!f) dc_out_ch(o, ',');
    f = false;
    bool g = true;
    dc_out_ch(o, '{');
    dc_json_u64(o, &g, "vc", vc);
    for (unsigned c = 0; c < UAL_PCIE_CLASSES; c++) {
      const struct ual_pcie_fc_vals *x = &s->adv[vc][c];
      dc_json_key(o, &g, class_name[c]);
      if (!x->known) { dc_out_str(o, "null"); continue; }
      bool h = true;
      dc_out_ch(o, '{');
      dc_json_u64(o, &h, "hdr_fc", x->hdr);
      dc_json_u64(o, &h, "data_fc", x->data);
      dc_json_u64(o, &h, "hdr_scale", x->hdr_scale);
      dc_json_u64(o, &h, "data_scale", x->data_scale);
      dc_out_ch(o, '}');
    }
    dc_out_ch(o, '}');
  }
  dc_out_ch(o, ']');
}

void dc_pcie_stats_json(const struct dc_pcie_stats *p, struct dc_out *o, bool *first) {
  static const char *const dir_name[2] = { "A>B", "B>A" };
  if (!any(p)) return;
  dc_json_key(o, first, "pcie");
  bool f = true;
  dc_out_ch(o, '{');
  for (unsigned d = 0; d < 2; d++) {
    dc_json_key(o, &f, dir_name[d]);
    bool g = true;
    dc_out_ch(o, '{');
    dc_json_u64(o, &g, "dllps", p->dllps[d]);
    dc_json_u64(o, &g, "crc_bad", p->crc_bad[d]);
    dc_json_key(o, &g, "by_type");
    bool h = true;
    dc_out_ch(o, '{');
    for (unsigned t = 0; t < UAL_PCIE_DT_COUNT; t++)
      if (p->by_type[d][t]) dc_json_u64(o, &h, ual_pcie_dllp_name_str(t), p->by_type[d][t]);
    dc_out_ch(o, '}');
    if (p->an) {
      dc_json_key(o, &g, "credits");
      credits_json(o, &p->an->s[d]);
    }
    dc_out_ch(o, '}');
  }
  dc_out_ch(o, '}');
}
