/* --stats of PCIe DLLPs (stats_pcie.h). */
#include "stats_pcie.h"
#include "stats.h"
#include "json.h"

#include <inttypes.h>
#include <stdio.h>

static const char *const class_name[UAL_PCIE_CLASSES] = { "P", "NP", "Cpl" };

static bool any(const struct dc_pcie_stats *p) { return p->dllps[0] + p->dllps[1] > 0; }

static bool any_flit(const struct dc_pcie_stats *p) { return p->flits[0] + p->flits[1] > 0; }

static void flit_add(struct dc_pcie_stats *p, const struct ual_rec_result *r) {
  unsigned d = r->dir & 1;
  p->flits[d]++;
  if (!r->flit.crc_ok) p->flit_crc_bad[d]++;
  if (r->flit.fec.status == UAL_FEC_CORRECTED) p->flit_fec_corrected[d]++;
  p->nops[d] += r->tlps.nops;
  p->tlps[d] += r->tlps.n + r->tlps.dropped;
  for (unsigned i = 0; i < r->tlps.n; i++) p->tlp_by_type[d][ual_pcie_tlp_dw0(&r->tlps.v[i].t)[0]]++;
}

void dc_pcie_stats_add(struct dc_pcie_stats *p, const struct ual_rec_result *r) {
  unsigned d = r->dir & 1;
  if (r->rec.h.kind == UAL_REC_PCIE_FLIT) {
    flit_add(p, r);
    return;
  }
  p->dllps[d]++;
  if (!r->pcie.crc_ok) p->crc_bad[d]++;
  p->by_type[d][r->pcie.name < UAL_PCIE_DT_COUNT ? r->pcie.name : UAL_PCIE_DT_RESERVED]++;
}

static void row(void (*fn)(void *, const struct dc_stats_row *), void *ctx, const char *key, const char *label,
                unsigned indent, bool heading, uint64_t a, uint64_t b) {
  struct dc_stats_row r = { key, label, indent, heading, false, false, a, b };
  fn(ctx, &r);
}

static const char *type_name(unsigned t, char buf[16]) {
  const char *n = ual_pcie_tlp_type(t)->name;
  if (n) return n;
  snprintf(buf, 16, "Type %02xh", t);
  return buf;
}

static void flit_rows(const struct dc_pcie_stats *p, void (*fn)(void *ctx, const struct dc_stats_row *row), void *ctx) {
  if (!any_flit(p)) return;
  char n[16];
  row(fn, ctx, NULL, "PCIe flits", 0, true, 0, 0);
  row(fn, ctx, NULL, "total", 2, false, p->flits[0], p->flits[1]);
  row(fn, ctx, NULL, "CRC-64 bad", 2, false, p->flit_crc_bad[0], p->flit_crc_bad[1]);
  row(fn, ctx, NULL, "FEC corrected", 2, false, p->flit_fec_corrected[0], p->flit_fec_corrected[1]);
  row(fn, ctx, NULL, "PCIe TLPs (NOP TLPs not counted)", 0, true, 0, 0);
  row(fn, ctx, NULL, "total", 2, false, p->tlps[0], p->tlps[1]);
  for (unsigned t = 0; t < 256; t++)
    if (p->tlp_by_type[0][t] || p->tlp_by_type[1][t])
      row(fn, ctx, NULL, type_name(t, n), 4, false, p->tlp_by_type[0][t], p->tlp_by_type[1][t]);
  row(fn, ctx, NULL, "NOP TLPs", 2, false, p->nops[0], p->nops[1]);
}

void dc_pcie_stats_rows(const struct dc_pcie_stats *p, void (*fn)(void *ctx, const struct dc_stats_row *row),
                        void *ctx) {
  flit_rows(p, fn, ctx);
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

/* Completion latency by request Type: the completions d sent finish the
 * requests d ^ 1 sent (pcie/analysis.h keeps them in the completer's flow). */
static void latency_text(const struct dc_pcie_stats *p, struct dc_out *o) {
  char n[16];
  dc_out_str(o, "  PCIe completion latency by request type (requests sent by; count, min/avg/max ns)\n");
  for (unsigned d = 0; d < 2; d++) {
    const struct ual_pcie_flow *cpl = &p->an->fl[d ^ 1], *req = &p->an->fl[d];
    for (unsigned t = 0; t < 256; t++) {
      const struct ual_pcie_lat *l = &cpl->lat[t];
      if (!l->n) continue;
      dc_out_fmt(o, "    %c %-12s %8" PRIu64 "  %" PRIu64 "/%" PRIu64 "/%" PRIu64 "\n", d ? 'B' : 'A', type_name(t, n), l->n,
                 l->min_ns, l->sum_ns / l->n, l->max_ns);
    }
    dc_out_fmt(o, "    %c outstanding at the end: %u", d ? 'B' : 'A', req->outstanding);
    if (req->untracked) dc_out_fmt(o, " (+%" PRIu64 " not tracked)", req->untracked);
    if (cpl->cpl_unmatched) dc_out_fmt(o, "; completions without a request: %" PRIu64, cpl->cpl_unmatched);
    if (cpl->split_parts) dc_out_fmt(o, "; split completion parts before the last: %" PRIu64, cpl->split_parts);
    dc_out_ch(o, '\n');
    for (unsigned i = 0; i < UAL_PCIE_MAX_OUTSTANDING; i++) {
      const struct ual_pcie_req *q = &req->req[i];
      if (!q->used) continue;
      char line[96];
      ual_pcie_req_line(q->type, q->rid, q->tag, line, sizeof line);
      dc_out_fmt(o, "      %s in frame %" PRIu64 "\n", line, q->frame);
    }
  }
}

void dc_pcie_credits_text(const struct dc_pcie_stats *p, struct dc_out *o) {
  if (any_flit(p) && p->an) latency_text(p, o);
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

static const char *const dir_name[2] = { "A>B", "B>A" };

/* "pcie_flit": per direction its flits, TLPs by type and, with the
 * analyzer, the latency of the completions answering its requests and its
 * requests outstanding at the end. */
static void flit_json(const struct dc_pcie_stats *p, struct dc_out *o, bool *first) {
  char n[16];
  dc_json_key(o, first, "pcie_flit");
  bool f = true;
  dc_out_ch(o, '{');
  for (unsigned d = 0; d < 2; d++) {
    dc_json_key(o, &f, dir_name[d]);
    bool g = true, h = true;
    dc_out_ch(o, '{');
    dc_json_u64(o, &g, "flits", p->flits[d]);
    dc_json_u64(o, &g, "crc_bad", p->flit_crc_bad[d]);
    dc_json_u64(o, &g, "fec_corrected", p->flit_fec_corrected[d]);
    dc_json_u64(o, &g, "tlps", p->tlps[d]);
    dc_json_u64(o, &g, "nops", p->nops[d]);
    dc_json_key(o, &g, "by_type");
    dc_out_ch(o, '{');
    for (unsigned t = 0; t < 256; t++)
      if (p->tlp_by_type[d][t]) dc_json_u64(o, &h, type_name(t, n), p->tlp_by_type[d][t]);
    dc_out_ch(o, '}');
    if (p->an) {
      const struct ual_pcie_flow *cpl = &p->an->fl[d ^ 1], *req = &p->an->fl[d];
      dc_json_key(o, &g, "latency");
      dc_out_ch(o, '{');
      h = true;
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
      dc_json_u64(o, &g, "outstanding", req->outstanding);
      dc_json_u64(o, &g, "untracked", req->untracked);
      dc_json_u64(o, &g, "cpl_unmatched", cpl->cpl_unmatched);
      dc_json_u64(o, &g, "split_parts", cpl->split_parts);
      dc_json_key(o, &g, "outstanding_requests");
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
        char id[16];
        ual_pcie_bdf(id, sizeof id, q->rid);
        dc_json_str(o, &k, "requester_id", id);
        dc_json_u64(o, &k, "tag", q->tag);
        dc_json_u64(o, &k, "frame", q->frame);
        dc_out_ch(o, '}');
      }
      dc_out_ch(o, ']');
    }
    dc_out_ch(o, '}');
  }
  dc_out_ch(o, '}');
}

void dc_pcie_stats_json(const struct dc_pcie_stats *p, struct dc_out *o, bool *first) {
  if (any_flit(p)) flit_json(p, o, first);
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
