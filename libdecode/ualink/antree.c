/* The analysis subtree of a record (antree.h). */
#include "ualink/ualink/antree.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ualink/core/analysis.h"
#include "ualink/ualink/filter.h"
#include "ualink/ualink/ltssm.h"

void ual_an_frame_take(const struct ual_analyzer *an, const struct ual_rec_result *r, struct ual_an_frame *f) {
  memset(f, 0, sizeof *f);
  if (r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED) return;
  struct ual_analysis_summary s;
  ual_analyzer_summary(an, &s);
  f->shown = 1;
  f->dir = r->dir & 1;
  f->dup_known = r->rec.h.kind == UAL_REC_FLIT && r->flit.kind == UAL_FK_PAYLOAD;
  f->dup = f->dup_known && ual_findings_has(&r->findings, UAL_R_RP_DUPLICATE);
  for (unsigned d = 0; d < 2; d++) {
    f->ltssm[d] = s.ltssm[d];
    f->role[d] = s.role[d];
    f->ch0[d] = s.ch0[d];
    f->ch4[d] = s.ch4[d];
    f->neg_width[d] = s.neg_width[d];
    f->neg_speed[d] = s.neg_speed[d];
    f->neg_state[d] = s.neg_state[d];
    f->unacked[d] = s.unacked[d];
    f->tl_rate[d] = s.tl_rate[d];
  }
  ual_fabric_an_state_text(&an->fab, r->rec.h.kind, f->state, sizeof f->state);
}

/* A field row: its value as Wireshark shows a generated field of that type
 * and value list. */
static void field(ual_an_row_fn fn, void *ctx, unsigned depth, enum ual_fu id, int64_t v) {
  const struct ual_filter_field *ff = &ual_filter_ualink_fields[id];
  struct ual_an_row row = { depth, (int)id, v, "" };
  const char *name = ff->vals && v >= 0 ? ual_value_name(ff->vals, (uint32_t)v) : NULL;
  if (ff->type == UAL_FT_BOOLEAN) snprintf(row.text, sizeof row.text, "%s", v ? "True" : "False");
  else if (name) snprintf(row.text, sizeof row.text, "%s (%" PRId64 ")", name, v);
  else snprintf(row.text, sizeof row.text, "%" PRId64, v);
  fn(ctx, &row);
}

static void text_row(ual_an_row_fn fn, void *ctx, unsigned depth, int id, const char *text) {
  struct ual_an_row row = { depth, id, 0, "" };
  snprintf(row.text, sizeof row.text, "%s", text);
  fn(ctx, &row);
}

void ual_an_tree_walk(const struct ual_an_frame *f, const struct ual_tevent *ev, unsigned n, ual_an_row_fn fn,
                      void *ctx) {
  if (!f->shown) return;
  unsigned d = f->dir, p = d ^ 1;
  char title[sizeof f->state + 32];
  if (f->state[0]) snprintf(title, sizeof title, "Analysis: UB %s", f->state);
  else snprintf(title, sizeof title, "Analysis: %s / %s", ual_lt_state_name(f->ltssm[d]), ual_lt_state_name(f->ltssm[p]));
  text_row(fn, ctx, 0, -1, title);
  field(fn, ctx, 1, UAL_FU_LTSSM, f->ltssm[d]);
  field(fn, ctx, 1, UAL_FU_LTSSM_PEER, f->ltssm[p]);
  field(fn, ctx, 1, UAL_FU_ROLE, f->role[d]);
  if (f->ch0[d] != UAL_UNKNOWN) field(fn, ctx, 1, UAL_FU_CH0, f->ch0[d] == 1);
  if (f->ch4[d] != UAL_UNKNOWN) field(fn, ctx, 1, UAL_FU_CH4, f->ch4[d] == 1);
  if (f->neg_width[d] != UAL_UNKNOWN) field(fn, ctx, 1, UAL_FU_NEG_WIDTH, f->neg_width[d]);
  if (f->neg_speed[d] != UAL_UNKNOWN) field(fn, ctx, 1, UAL_FU_NEG_SPEED, f->neg_speed[d]);
  if (f->neg_state[d] != UAL_UNKNOWN) field(fn, ctx, 1, UAL_FU_NEG_STATE, f->neg_state[d]);
  if (f->tl_rate[d] != UAL_UNKNOWN) field(fn, ctx, 1, UAL_FU_TL_RATE, f->tl_rate[d]);
  if (f->unacked[d] != UAL_UNKNOWN) field(fn, ctx, 1, UAL_FU_UNACKED, f->unacked[d]);
  if (f->dup_known) field(fn, ctx, 1, UAL_FU_DUPLICATE, f->dup);
  for (unsigned i = 0; i < n; i++) {
    const struct ual_tevent *e = &ev[i];
    text_row(fn, ctx, 1, -1, e->text);
    field(fn, ctx, 2, UAL_FU_TEV_KIND, e->kind);
    text_row(fn, ctx, 2, UAL_FU_TEV_TEXT, e->text);
    if (e->value != UAL_UNKNOWN) field(fn, ctx, 2, UAL_FU_TEV_VALUE, e->value);
    if (e->kind == UAL_TEV_NEGOTIATION) {
      field(fn, ctx, 2, UAL_FU_NEG_MTYPE, e->mtype);
      field(fn, ctx, 2, UAL_FU_NEG_OUTCOME, e->outcome);
      if (e->latency_ns) field(fn, ctx, 2, UAL_FU_NEG_LATENCY, (int64_t)e->latency_ns);
    }
  }
}
