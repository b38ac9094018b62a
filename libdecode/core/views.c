/* The presentation model (views.h): links, the generic counters, and the
 * dispatch to each fabric's registration. */
#include "ualink/core/views.h"

#include <stdio.h>
#include <string.h>

static const struct ual_view_fabric *const fabrics[UAL_VF_COUNT] = {
#define UAL_X_(m) &ual_view_##m,
  UAL_FABRIC_VIEWS(UAL_X_)
#undef UAL_X_
};

const char *ual_txn_status_name(unsigned s) {
  static const char *const n[UAL_TXN_COUNT] = {
#define UAL_X_(e, s) s,
    UAL_TXN_STATUSES(UAL_X_)
#undef UAL_X_
  };
  return s < UAL_TXN_COUNT ? n[s] : "?";
}

const struct ual_view_fabric *ual_view_fabric_get(unsigned id) { return id < UAL_VF_COUNT ? fabrics[id] : NULL; }

/* The PCIe role encoding of the roles byte marks a PCIe link's records,
 * link events included (capture-format.md). */
static int fabric_by_kind(const struct ual_rec_result *r) {
  for (unsigned f = 0; f < UAL_VF_COUNT; f++)
    if (fabrics[f]->owns(r->rec.h.kind)) return (int)f;
  return -1;
}

unsigned ual_view_fabric_of(const struct ual_view_tally *t, const struct ual_rec_result *r) {
  int f = fabric_by_kind(r);
  if (f > 0 || (f == 0 && !r->rec.h.roles_pcie)) return (unsigned)f;
  /* a kind the top level owns (ordered sets) in the PCIe role encoding is a
   * PCIe link's, as the analysis takes it (core/analysis.c) */
  if (r->rec.h.roles_pcie) {
    for (unsigned g = 0; g < UAL_VF_COUNT; g++)
      if (fabrics[g]->owns(UAL_REC_PCIE_DLLP)) return g;
  }
  if (t)
    for (unsigned k = 0; k < t->n; k++)
      if (t->l[k].index == r->rec.h.link && t->l[k].seen) return t->l[k].fabric;
  return 0;   /* the top level's */
}

void ual_view_tally_init(struct ual_view_tally *t) { memset(t, 0, sizeof *t); }

int ual_view_tally_find(const struct ual_view_tally *t, unsigned fabric, unsigned index) {
  bool one = fabric < UAL_VF_COUNT && fabrics[fabric]->one_link;
  for (unsigned k = 0; k < t->n; k++)
    if (t->l[k].fabric == fabric && (one || t->l[k].index == index)) return (int)k;
  return -1;
}

/* A link event before any record of its link: it joins the link of the
 * same byte once a fabric's record comes (the first record of a capture is
 * often the link-up). */
static int slot_for(struct ual_view_tally *t, const struct ual_rec_result *r, unsigned fabric, bool own) {
  int k = ual_view_tally_find(t, fabric, r->rec.h.link);
  if (k >= 0) return k;
  for (unsigned i = 0; own && i < t->n; i++)
    if (t->l[i].index == r->rec.h.link && !t->l[i].owned) {
      t->l[i].fabric = (uint8_t)fabric;   /* its link events so far were this fabric's */
      return (int)i;
    }
  if (t->n >= UAL_VIEW_LINKS) return -1;
  k = (int)t->n++;
  t->l[k].fabric = (uint8_t)fabric;
  t->l[k].index = r->rec.h.link;
  return k;
}

int ual_view_tally_add(struct ual_view_tally *t, const struct ual_rec_result *r, uint64_t ts_ns, bool selected) {
  bool decoded = r->status == UAL_RS_OK || r->status == UAL_RS_RESERVED;
  unsigned fabric = ual_view_fabric_of(t, r);
  bool own = decoded && fabric_by_kind(r) >= 0;
  int k = -1;
  if (!decoded) {
    /* a malformed record's header is not to be trusted: the link of its
     * byte if there is one, else the first link */
    for (unsigned i = 0; i < t->n && k < 0; i++)
      if (t->l[i].index == r->rec.h.link) k = (int)i;
    if (k < 0 && t->n) k = 0;
  }
  if (k < 0) k = slot_for(t, r, fabric, own);
  struct ual_view_link_tally *l = k >= 0 ? &t->l[k] : NULL;
  if (!l) t->other_links++;
  else l->seen++;
  if (l && own) l->owned++;
  if (!selected) return k;
  struct ual_view_dir_tally *d = l ? &l->d[r->dir & 1] : &t->other[r->dir & 1];
  d->records++;
  if (ts_ns) {
    if (!d->first_ts || ts_ns < d->first_ts) d->first_ts = ts_ns;
    if (ts_ns > d->last_ts) d->last_ts = ts_ns;
  }
  for (unsigned i = 0; i < r->findings.n; i++) {
    enum ual_rule rule = (enum ual_rule)r->findings.v[i].rule;
    d->rules[rule]++;
    d->sev[ual_rule_severity(rule)]++;
  }
  d->findings_dropped += r->findings.dropped;
  if (!decoded) {
    d->malformed++;
    return k;
  }
  if (r->rec.h.flags & UAL_RF_LOST) d->after_lost++;
  if (r->rec.h.kind == UAL_REC_EVENT) d->events++;
  else if (l) fabrics[fabric]->tally(l, r);
  return k;
}

void ual_view_link_get(const struct ual_view_src *s, unsigned k, struct ual_view_link *l) {
  memset(l, 0, sizeof *l);
  const struct ual_view_link_tally *t = &s->tally->l[k];
  l->fabric = t->fabric;
  l->index = t->index;
  if (t->index == 255) snprintf(l->name, sizeof l->name, "link");   /* the header does not tell */
  else snprintf(l->name, sizeof l->name, "link %u", t->index);
  snprintf(l->side[0], sizeof l->side[0], "A");
  snprintf(l->side[1], sizeof l->side[1], "B");
  snprintf(l->dir[0], sizeof l->dir[0], "A>B");
  snprintf(l->dir[1], sizeof l->dir[1], "B>A");
  fabrics[t->fabric]->name_link(s, k, l);
}

int ual_view_state_line(const struct ual_view_src *s, unsigned k, char *buf, size_t cap) {
  if (cap) buf[0] = 0;
  return fabrics[s->tally->l[k].fabric]->state_line(s, k, buf, cap);
}

void ual_view_state(const struct ual_view_src *s, unsigned k, ual_view_row_fn fn, void *ctx) {
  fabrics[s->tally->l[k].fabric]->state(s, k, fn, ctx);
}

static void emit(ual_view_counter_fn fn, void *ctx, const char *key, const char *label, unsigned indent, bool heading,
                 bool per_rule, uint64_t a, uint64_t b) {
  struct ual_view_counter c = { UAL_VIEW_T_RECORDS, key, label, "", indent, heading, per_rule, false, { a, b },
                                { 0, 0 } };
  fn(ctx, &c);
}

void ual_view_counters(const struct ual_view_src *s, unsigned k, ual_view_counter_fn fn, void *ctx) {
  const struct ual_view_link_tally *l = &s->tally->l[k];
  const struct ual_view_dir_tally *a = &l->d[0], *b = &l->d[1];
  char key[64], label[64];
  const struct ual_view_fabric *f = fabrics[l->fabric];
  emit(fn, ctx, "records", "Records", 0, false, false, a->records, b->records);
  f->kinds(s, k, fn, ctx);
  emit(fn, ctx, "event", "link events", 2, false, false, a->events, b->events);
  emit(fn, ctx, "malformed", "malformed", 2, false, false, a->malformed, b->malformed);
  if (a->after_lost || b->after_lost)
    emit(fn, ctx, "after_lost", "Records after lost records", 0, false, false, a->after_lost, b->after_lost);
  f->counters(s, k, fn, ctx);
  emit(fn, ctx, "findings", "Findings by severity", 0, true, false, 0, 0);
  for (int v = UAL_SEV_ERROR; v >= UAL_SEV_INFO; v--) {
    const char *n = ual_severity_name((enum ual_severity)v);
    snprintf(key, sizeof key, "findings.%s", n);
    emit(fn, ctx, key, n, 2, false, false, a->sev[v], b->sev[v]);
  }
  if (a->findings_dropped || b->findings_dropped)
    emit(fn, ctx, NULL, "not stored (over limit)", 2, false, false, a->findings_dropped, b->findings_dropped);
  bool heading = false;
  for (int r = 0; r < UAL_R_COUNT; r++) {
    if (!a->rules[r] && !b->rules[r]) continue;
    if (!heading) {
      heading = true;
      emit(fn, ctx, NULL, "Findings by rule", 0, true, true, 0, 0);
    }
    snprintf(label, sizeof label, "%s (%s)", ual_rule_id((enum ual_rule)r),
             ual_severity_name(ual_rule_severity((enum ual_rule)r)));
    emit(fn, ctx, NULL, label, 2, false, true, a->rules[r], b->rules[r]);
  }
}

unsigned ual_view_marks(const struct ual_view_tally *t, int k, const struct ual_rec_result *r,
                        const struct ual_events *ev, struct ual_view_mark *out, unsigned cap) {
  if (k < 0 || (unsigned)k >= t->n) return 0;
  if (r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED) return 0;
  return fabrics[t->l[k].fabric]->marks(r, ev, out, cap);
}

unsigned ual_view_txns(const struct ual_view_tally *t, int k, const struct ual_rec_result *r, uint64_t ts_ns,
                       const struct ual_events *ev, struct ual_view_txn *out, unsigned cap) {
  if (k < 0 || (unsigned)k >= t->n) return 0;
  if (r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED) return 0;
  const struct ual_view_link_tally *l = &t->l[k];
  unsigned n = fabrics[l->fabric]->txns(r, ev, out, cap);
  for (unsigned i = 0; i < n; i++) {
    out[i].fabric = l->fabric;
    out[i].index = l->index;
    if (!out[i].end_ns) out[i].end_ns = ts_ns;
    if (!out[i].start_ns && out[i].latency_ns && out[i].end_ns >= out[i].latency_ns)
      out[i].start_ns = out[i].end_ns - out[i].latency_ns;
  }
  return n;
}

struct open_ctx {
  const struct ual_view_link_tally *l;
  ual_view_txn_fn fn;
  void *ctx;
};

static void open_one(void *ctx, const struct ual_view_txn *t) {
  const struct open_ctx *o = ctx;
  struct ual_view_txn x = *t;
  x.fabric = o->l->fabric;
  x.index = o->l->index;
  x.status = UAL_TXN_OPEN;
  o->fn(o->ctx, &x);
}

void ual_view_open_txns(const struct ual_view_src *s, unsigned k, ual_view_txn_fn fn, void *ctx) {
  const struct ual_view_link_tally *l = &s->tally->l[k];
  struct open_ctx o = { l, fn, ctx };
  fabrics[l->fabric]->open_txns(s, k, open_one, &o);
}

void ual_view_row_put(const struct ual_view_rows *w, const char *label, const char *unit, bool link_wide, const char *a,
                      const char *b) {
  struct ual_view_row r = { w->group, label, unit, link_wide, { a != NULL, b != NULL }, { "", "" } };
  snprintf(r.value[0], sizeof r.value[0], "%.47s", a ? a : UAL_VIEW_UNKNOWN);
  snprintf(r.value[1], sizeof r.value[1], "%.47s", b ? b : UAL_VIEW_UNKNOWN);
  w->fn(w->ctx, &r);
}

unsigned ual_view_mark_put(struct ual_view_mark *out, unsigned n, unsigned cap, unsigned lane, unsigned side, int32_t v) {
  if (n < cap) out[n++] = (struct ual_view_mark){ (uint8_t)lane, (uint8_t)side, v };
  return n;
}
