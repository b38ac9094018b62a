/* PCIe's own parts of the --stats JSON summary (stats.h, docs/json.md):
 * "pcie_flit" with flit-mode records (per direction flits, TLPs by type and,
 * from the analysis of the capture's first PCIe link, completion latency and
 * the requests outstanding), "pcie" with non-flit DLLPs (by type, and the
 * credits each side advertised last per VC and class). Per link the same
 * counts are in "links" (the model's rows). */
#include "stats.h"
#include "json.h"
#include "report.h"

static const char *const dir_name[2] = { "A>B", "B>A" };
static const char *const class_name[UAL_PCIE_CLASSES] = { "P", "NP", "Cpl" };

static const char *type_name(unsigned t, char buf[16]) {
  const char *n = ual_pcie_tlp_type(t)->name;
  if (n) return n;
  snprintf(buf, 16, "Type %02xh", t);
  return buf;
}

static bool vc_seen(const struct ual_pcie_side *s, unsigned vc) {
  for (unsigned c = 0; c < UAL_PCIE_CLASSES; c++)
    if (s->adv[vc][c].known) return true;
  return false;
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
      if (!x->known) {
        dc_out_str(o, "null");
        continue;
      }
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

static void latency_json(struct dc_out *o, bool *g, const struct ual_pcie_link_an *an, unsigned d) {
  char n[16];
  const struct ual_pcie_flow *cpl = &an->fl[d ^ 1], *req = &an->fl[d];
  dc_json_key(o, g, "latency");
  dc_out_ch(o, '{');
  bool h = true;
  for (unsigned t = 0; t < 256; t++) {
    const struct ual_pcie_lat *l = &cpl->lat[t];
    if (!l->n) continue;
    bool k = true;
    dc_json_key(o, &h, type_name(t, n));
    dc_out_ch(o, '{');
    dc_json_u64(o, &k, "n", l->n);
    dc_json_u64(o, &k, "min_ns", l->min_ns);
    dc_json_u64(o, &k, "avg_ns", l->sum_ns / l->n);
    dc_json_u64(o, &k, "max_ns", l->max_ns);
    dc_out_ch(o, '}');
  }
  dc_out_ch(o, '}');
  dc_json_u64(o, g, "outstanding", req->outstanding);
  dc_json_u64(o, g, "untracked", req->untracked);
  dc_json_u64(o, g, "cpl_unmatched", cpl->cpl_unmatched);
  dc_json_u64(o, g, "split_parts", cpl->split_parts);
  dc_json_key(o, g, "outstanding_requests");
  dc_out_ch(o, '[');
  h = true;
  for (unsigned i = 0; i < UAL_PCIE_MAX_OUTSTANDING; i++) {
    const struct ual_pcie_req *q = &req->req[i];
    if (!q->used) continue;
    if (!h) dc_out_ch(o, ',');
    h = false;
    bool k = true;
    dc_out_ch(o, '{');
    dc_json_str(o, &k, "type", type_name(q->type, n));
    dc_json_u64(o, &k, "requester_id", q->rid);
    dc_json_u64(o, &k, "tag", q->tag);
    dc_json_u64(o, &k, "frame", q->frame);
    dc_out_ch(o, '}');
  }
  dc_out_ch(o, ']');
}

static void top_json(struct dc_out *o, bool *first, const struct dc_sums *s, const struct ual_view_src *src) {
  const struct ual_pcie_dir_tally *p = s->pcie.d;
  const struct ual_pcie_link_an *an = src->fab ? &src->fab->pcie.lk[0] : NULL;
  char n[16];
  if (p[0].flits + p[1].flits) {
    dc_json_key(o, first, "pcie_flit");
    bool f = true;
    dc_out_ch(o, '{');
    for (unsigned d = 0; d < 2; d++) {
      dc_json_key(o, &f, dir_name[d]);
      bool g = true, h = true;
      dc_out_ch(o, '{');
      dc_json_u64(o, &g, "flits", p[d].flits);
      dc_json_u64(o, &g, "crc_bad", p[d].flit_crc_bad);
      dc_json_u64(o, &g, "fec_corrected", p[d].flit_fec_corrected);
      dc_json_u64(o, &g, "tlps", p[d].tlps);
      dc_json_u64(o, &g, "nops", p[d].nops);
      dc_json_key(o, &g, "by_type");
      dc_out_ch(o, '{');
      for (unsigned t = 0; t < 256; t++)
        if (p[d].tlp_by_type[t]) dc_json_u64(o, &h, type_name(t, n), p[d].tlp_by_type[t]);
      dc_out_ch(o, '}');
      if (an) latency_json(o, &g, an, d);
      dc_out_ch(o, '}');
    }
    dc_out_ch(o, '}');
  }
  if (!(p[0].dllps + p[1].dllps)) return;
  dc_json_key(o, first, "pcie");
  bool f = true;
  dc_out_ch(o, '{');
  for (unsigned d = 0; d < 2; d++) {
    dc_json_key(o, &f, dir_name[d]);
    bool g = true;
    dc_out_ch(o, '{');
    dc_json_u64(o, &g, "dllps", p[d].dllps);
    dc_json_u64(o, &g, "crc_bad", p[d].crc_bad);
    dc_json_key(o, &g, "by_type");
    bool h = true;
    dc_out_ch(o, '{');
    for (unsigned t = 0; t < UAL_PCIE_DT_COUNT; t++)
      if (p[d].by_type[t]) dc_json_u64(o, &h, ual_pcie_dllp_name_str(t), p[d].by_type[t]);
    dc_out_ch(o, '}');
    if (an) {
      dc_json_key(o, &g, "credits");
      credits_json(o, &an->s[d]);
    }
    dc_out_ch(o, '}');
  }
  dc_out_ch(o, '}');
}

const struct dc_fab dc_fab_pcie = { NULL, NULL, top_json };

/* The report's PCIe cards (report.h). */
void dc_rpt_pcie_cards(struct dc_out *o, const struct dc_sums *st) {
  const struct ual_pcie_dir_tally *pa = &st->pcie.d[0], *pb = &st->pcie.d[1];
  if (pa->dllps + pb->dllps) dc_rpt_card_u64(o, pa->dllps + pb->dllps, "PCIe DLLPs");
  if (pa->flits + pb->flits) dc_rpt_card_u64(o, pa->tlps + pb->tlps, "PCIe TLPs");
}
