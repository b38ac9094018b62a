/* UB's presentation model (core/views.h). */
#include "ualink/core/views.h"

static bool owns(unsigned kind) { return kind == UAL_REC_UB_FLIT; }

static void name(const struct ual_view_src *s, unsigned k, struct ual_view_link *l) {
  (void)s, (void)k, (void)l;
}

static void tally(struct ual_view_link_tally *t, const struct ual_rec_result *r) { t->f.ub.d[r->dir & 1].records++; }

static void state(const struct ual_view_src *s, unsigned k, ual_view_row_fn fn, void *ctx) {
  (void)s, (void)k, (void)fn, (void)ctx;
}

static int state_line(const struct ual_view_src *s, unsigned k, char *buf, size_t cap) {
  (void)s, (void)k, (void)buf, (void)cap;
  return 0;
}

static void kinds(const struct ual_view_src *s, unsigned k, ual_view_counter_fn fn, void *ctx) {
  const struct ual_ub_tally *t = &s->tally->l[k].f.ub;
  struct ual_view_counter c = { UAL_VIEW_T_RECORDS, "ub", "UB records", "records", 2, false, false, false,
                                { t->d[0].records, t->d[1].records }, { 0, 0 } };
  fn(ctx, &c);
}

static void counters(const struct ual_view_src *s, unsigned k, ual_view_counter_fn fn, void *ctx) {
  (void)s, (void)k, (void)fn, (void)ctx;
}

static unsigned marks(const struct ual_rec_result *r, const struct ual_events *ev, struct ual_view_mark *out,
                      unsigned cap) {
  (void)r, (void)ev, (void)out, (void)cap;
  return 0;
}

static bool txn(const struct ual_tevent *e, struct ual_view_txn *t) {
  (void)e, (void)t;
  return false;
}

const struct ual_view_fabric ual_view_ub = {
  "UB", "ub", owns, name, tally, state, state_line, kinds, counters, NULL, 0, marks, txn,
};
