/* --stats (stats.h): the presentation model's counters and state per link,
 * rendered without knowing the fabric; a fabric's own JSON layout is in its
 * fab_*.c. */
#include "stats.h"
#include "json.h"

#include <string.h>

static const char *const dir_name[2] = { "A>B", "B>A" };

static const struct dc_fab *const fabs[UAL_VF_COUNT] = {
#define UAL_X_(m) &dc_fab_##m,
  UAL_FABRIC_VIEWS(UAL_X_)
#undef UAL_X_
};

/* The tallies are counters only: summed as arrays of uint64_t. */
static void add_u64(void *to, const void *from, size_t size) {
  uint64_t *t = to;
  const uint64_t *f = from;
  for (size_t i = 0; i < size / sizeof(uint64_t); i++) t[i] += f[i];
}
#define UAL_X_(m) _Static_assert(sizeof(struct ual_##m##_tally) % sizeof(uint64_t) == 0, "a tally of counters");
UAL_FABRIC_VIEWS(UAL_X_)
#undef UAL_X_

void dc_sums_of(const struct ual_view_tally *t, struct dc_sums *s) {
  memset(s, 0, sizeof *s);
  for (unsigned k = 0; k < t->n; k++) {
    const struct ual_view_link_tally *l = &t->l[k];
    s->has[l->fabric] = true;
    for (unsigned d = 0; d < 2; d++) {
      const struct ual_view_dir_tally *a = &l->d[d];
      struct ual_view_dir_tally *b = &s->d[d];
      uint64_t first = b->first_ts, last = b->last_ts;
      add_u64(b, a, sizeof *b);
      b->first_ts = !first || (a->first_ts && a->first_ts < first) ? a->first_ts : first;
      b->last_ts = a->last_ts > last ? a->last_ts : last;
    }
#define UAL_X_(m) if (l->fabric == UAL_VF_##m) add_u64(&s->m, &l->f.m, sizeof s->m);
    UAL_FABRIC_VIEWS(UAL_X_)
#undef UAL_X_
  }
  for (unsigned d = 0; d < 2; d++) {
    const struct ual_view_dir_tally *o = &t->other[d];
    uint64_t first = s->d[d].first_ts, last = s->d[d].last_ts;
    add_u64(&s->d[d], o, sizeof *o);
    s->d[d].first_ts = !first || (o->first_ts && o->first_ts < first) ? o->first_ts : first;
    s->d[d].last_ts = o->last_ts > last ? o->last_ts : last;
  }
  for (unsigned d = 0; d < 2; d++) {
    if (!s->d[d].first_ts) continue;
    if (!s->first_ts || s->d[d].first_ts < s->first_ts) s->first_ts = s->d[d].first_ts;
    if (s->d[d].last_ts > s->last_ts) s->last_ts = s->d[d].last_ts;
  }
}

/* The tally the renderers read: with no link at all, one empty link of
 * the top level's fabric, so that an empty capture still has its table. */
const struct ual_view_tally *dc_stats_links(const struct ual_view_src *src, struct ual_view_src *out,
                                            struct ual_view_tally *empty) {
  *out = *src;
  if (src->tally->n) return src->tally;
  ual_view_tally_init(empty);
  empty->n = 1;
  empty->l[0].index = 255;
  out->tally = empty;
  return empty;
}

/* ---- text ---- */

#define LABEL_W 36  /* fits "  DM-CTRL-PENDING-TIMEOUT (warning)" */

struct text {
  struct dc_out *o;
  unsigned table;
  bool any;
};

static void text_row(void *ctx, const struct ual_view_counter *c) {
  struct text *t = ctx;
  struct dc_out *o = t->o;
  if (c->table != t->table) return;
  t->any = true;
  if (c->heading) {
    dc_out_str(o, c->label);
    dc_out_ch(o, '\n');
    return;
  }
  switch (c->table) {
  case UAL_VIEW_T_RECORDS: {
    dc_out_pad(o, c->indent);
    dc_out_str(o, c->label);
    size_t len = c->indent + strlen(c->label);
    dc_out_pad(o, len < LABEL_W ? (unsigned)(LABEL_W - len) : 1);
    dc_out_u64w(o, c->v[0], 12);
    dc_out_u64w(o, c->v[1], 12);
    dc_out_u64w(o, c->v[0] + c->v[1], 12);
    dc_out_ch(o, '\n');
    break;
  }
  case UAL_VIEW_T_RATES: {
    dc_out_fmt(o, "%-*s", LABEL_W, c->label);
    double v[3] = { c->x[0], c->x[1], c->x[0] + c->x[1] };
    /* large rates (bytes per second) in 5 significant digits, so columns keep their width */
    for (int i = 0; i < 3; i++) dc_out_fmt(o, v[i] < 1e7 ? "%12.3f" : " %11.5g", v[i]);
    dc_out_ch(o, '\n');
    break;
  }
  default:
    dc_out_fmt(o, "%*s%-28s %14llu %14llu\n", (int)c->indent, "", c->label, (unsigned long long)c->v[0],
               (unsigned long long)c->v[1]);
    break;
  }
}

static void any_row(void *ctx, const struct ual_view_counter *c) {
  struct text *t = ctx;
  if (c->table == t->table) t->any = true;
}

/* The state rows: under their group, a value per side or one for the link. */
struct srows {
  struct dc_out *o;
  const char *group;
  bool first;
};

static void state_row(void *ctx, const struct ual_view_row *r) {
  struct srows *t = ctx;
  struct dc_out *o = t->o;
  if (t->first) dc_out_fmt(o, "  %-42s %-24s %s\n", "Link state at the end", "A", "B");
  t->first = false;
  if (r->group && (!t->group || strcmp(r->group, t->group))) dc_out_fmt(o, "    %s\n", r->group);
  t->group = r->group;
  char label[96];
  /* the unit, unless the label already says what it counts in brackets */
  bool unit = r->unit[0] && !strchr(r->label, '(');
  snprintf(label, sizeof label, "%s%s%s%s", r->label, unit ? " (" : "", unit ? r->unit : "", unit ? ")" : "");
  if (r->link_wide) dc_out_fmt(o, "      %-40s %s\n", label, r->value[0]);
  else dc_out_fmt(o, "      %-40s %-24s %s\n", label, r->value[0], r->value[1]);
}

static void link_text(struct dc_out *o, const struct ual_view_src *src, unsigned k, bool heading) {
  const struct ual_view_link_tally *l = &src->tally->l[k];
  struct ual_view_link ln;
  ual_view_link_get(src, k, &ln);
  if (heading) {
    const struct ual_view_fabric *f = ual_view_fabric_get(ln.fabric);
    if (l->index == 255) dc_out_str(o, "--- L? ");
    else dc_out_fmt(o, "--- L%u ", l->index);
    dc_out_fmt(o, "%s (%s; A %s, B %s) ---\n", ln.name, f->name, ln.side[0], ln.side[1]);
  }
  dc_out_fmt(o, "%-*s%12s%12s%12s\n", LABEL_W, "", "A>B", "B>A", "total");
  struct text t = { o, UAL_VIEW_T_RECORDS, false };
  ual_view_counters(src, k, text_row, &t);
  uint64_t first = 0, last = 0;
  for (int d = 0; d < 2; d++) {
    if (!l->d[d].first_ts) continue;
    if (!first || l->d[d].first_ts < first) first = l->d[d].first_ts;
    if (l->d[d].last_ts > last) last = l->d[d].last_ts;
  }
  dc_out_str(o, "Time\n");
  if (first) {
    dc_out_fmt(o, "  %-*s", LABEL_W - 2, "first record");
    dc_out_secs(o, (int64_t)first);
    dc_out_fmt(o, "\n  %-*s", LABEL_W - 2, "last record");
    dc_out_secs(o, (int64_t)last);
    dc_out_fmt(o, "\n  %-*s", LABEL_W - 2, "span");
    dc_out_secs(o, (int64_t)(last - first));
    dc_out_str(o, " s\n");
    t.table = UAL_VIEW_T_RATES;
    ual_view_counters(src, k, text_row, &t);
  } else {
    dc_out_str(o, "  no timestamps\n");
  }
  struct text any = { o, UAL_VIEW_T_SENT_BY, false };
  ual_view_counters(src, k, any_row, &any);
  if (any.any) {
    dc_out_fmt(o, "  %-30s %14s %14s\n", "Analysis (sent by)", "A", "B");
    t.table = UAL_VIEW_T_SENT_BY;
    ual_view_counters(src, k, text_row, &t);
  }
  char state[512];
  if (ual_view_state_line(src, k, state, sizeof state) > 0) dc_out_fmt(o, "  State at the end: %s\n", state);
  struct srows sr = { o, NULL, true };
  ual_view_state(src, k, state_row, &sr);
}

void dc_stats_text(struct dc_out *o, const char *input, const struct ual_view_src *src0, bool link_headings) {
  struct ual_view_src src;
  static struct ual_view_tally empty;
  const struct ual_view_tally *t = dc_stats_links(src0, &src, &empty);
  dc_out_str(o, "=== ualink-decode statistics: ");
  dc_out_str(o, input);
  dc_out_str(o, " ===\n");
  for (unsigned k = 0; k < t->n; k++) link_text(o, &src, k, link_headings || t->n > 1);
  if (t->other_links)
    dc_out_fmt(o, "%llu records of further links counted in the JSON summary's totals only (at most %u links)\n",
               (unsigned long long)t->other_links, UAL_VIEW_LINKS);
  /* what a capture that starts here would need to be told */
  static char presets[4096];
  if (src.fab && ual_fabric_an_preset_text(src.fab, presets, sizeof presets) > 0)
    dc_out_fmt(o, "  Presets at the end: %s\n", presets);
}

/* ---- JSON ---- */

static const char *const kind_key[] = { "malformed", "event" };

static void dir_json(struct dc_out *o, const struct dc_sums *s, unsigned d, uint64_t span) {
  const struct ual_view_dir_tally *t = &s->d[d];
  bool f = true, g;
  dc_out_ch(o, '{');
  dc_json_u64(o, &f, "records", t->records);
  dc_json_u64(o, &f, kind_key[0], t->malformed);
  for (unsigned m = 0; m < UAL_VF_COUNT; m++)
    if (fabs[m]->kinds_json) fabs[m]->kinds_json(o, &f, s, d);
  dc_json_u64(o, &f, kind_key[1], t->events);
  if (t->after_lost) dc_json_u64(o, &f, "after_lost", t->after_lost);
  for (unsigned m = 0; m < UAL_VF_COUNT; m++)
    if (fabs[m]->dir_json) fabs[m]->dir_json(o, &f, s, d, span);
  dc_json_key(o, &f, "findings");
  dc_out_ch(o, '{');
  g = true;
  for (int v = 0; v < 3; v++) dc_json_u64(o, &g, ual_severity_name((enum ual_severity)v), t->sev[v]);
  dc_out_str(o, "}");
  dc_json_key(o, &f, "ts_first_ns");
  dc_out_u64(o, t->first_ts);
  dc_json_key(o, &f, "ts_last_ns");
  dc_out_u64(o, t->last_ts);
  dc_out_ch(o, '}');
}

struct jrows {
  struct dc_out *o;
  bool first;
};

static void counter_json(void *ctx, const struct ual_view_counter *c) {
  static const char *const table[] = { "records", "rates", "sent_by" };
  struct jrows *j = ctx;
  struct dc_out *o = j->o;
  if (!j->first) dc_out_ch(o, ',');
  j->first = false;
  bool f = true;
  dc_out_ch(o, '{');
  dc_json_str(o, &f, "table", table[c->table < 3 ? c->table : 0]);
  if (c->key) dc_json_str(o, &f, "key", c->key);
  dc_json_str(o, &f, "label", c->label);
  if (c->heading) {
    dc_json_bool(o, &f, "heading", true);
  } else {
    dc_json_str(o, &f, "unit", c->unit);
    dc_json_u64(o, &f, "indent", c->indent);
    if (c->table == UAL_VIEW_T_RATES) {
      dc_json_key(o, &f, "A");
      dc_out_fmt(o, "%.6f", c->x[0]);
      dc_json_key(o, &f, "B");
      dc_out_fmt(o, "%.6f", c->x[1]);
    } else {
      dc_json_u64(o, &f, "A", c->v[0]);
      dc_json_u64(o, &f, "B", c->v[1]);
    }
    if (c->no_total) dc_json_bool(o, &f, "no_total", true);
  }
  dc_out_ch(o, '}');
}

static void row_json(void *ctx, const struct ual_view_row *r) {
  struct jrows *j = ctx;
  struct dc_out *o = j->o;
  if (!j->first) dc_out_ch(o, ',');
  j->first = false;
  bool f = true;
  dc_out_ch(o, '{');
  if (r->group) dc_json_str(o, &f, "group", r->group);
  dc_json_str(o, &f, "label", r->label);
  dc_json_str(o, &f, "unit", r->unit);
  if (r->link_wide) {
    dc_json_key(o, &f, "value");
    if (r->known[0]) dc_json_string(o, r->value[0]);
    else dc_out_str(o, "null");
  } else {
    for (unsigned d = 0; d < 2; d++) {
      dc_json_key(o, &f, d ? "B" : "A");
      if (r->known[d]) dc_json_string(o, r->value[d]);
      else dc_out_str(o, "null");
    }
  }
  dc_out_ch(o, '}');
}

static void link_json(struct dc_out *o, const struct ual_view_src *src, unsigned k) {
  struct ual_view_link ln;
  ual_view_link_get(src, k, &ln);
  bool f = true;
  dc_out_ch(o, '{');
  dc_json_u64(o, &f, "link", ln.index);
  dc_json_str(o, &f, "fabric", ual_view_fabric_get(ln.fabric)->key);
  dc_json_str(o, &f, "name", ln.name);
  dc_json_key(o, &f, "sides");
  dc_out_ch(o, '[');
  dc_json_string(o, ln.side[0]);
  dc_out_ch(o, ',');
  dc_json_string(o, ln.side[1]);
  dc_out_ch(o, ']');
  dc_json_key(o, &f, "counters");
  dc_out_ch(o, '[');
  struct jrows j = { o, true };
  ual_view_counters(src, k, counter_json, &j);
  dc_out_ch(o, ']');
  dc_json_key(o, &f, "state");
  dc_out_ch(o, '[');
  j.first = true;
  ual_view_state(src, k, row_json, &j);
  dc_out_ch(o, ']');
  char line[512];
  if (ual_view_state_line(src, k, line, sizeof line) > 0) dc_json_str(o, &f, "state_line", line);
  dc_out_ch(o, '}');
}

void dc_stats_json(struct dc_out *o, const struct ual_view_src *src0) {
  static struct dc_sums s;
  struct ual_view_src src;
  static struct ual_view_tally empty;
  dc_sums_of(src0->tally, &s);
  const struct ual_view_tally *t = dc_stats_links(src0, &src, &empty);
  const struct ual_view_dir_tally *a = &s.d[0], *b = &s.d[1];
  uint64_t first = s.first_ts, last = s.last_ts;
  bool f = true, g;
  dc_out_ch(o, '{');
  dc_json_key(o, &f, "kind");
  dc_json_string(o, "summary");
  dc_json_u64(o, &f, "records", a->records + b->records);
  dc_json_key(o, &f, "by_kind");
  dc_out_ch(o, '{');
  g = true;
  dc_json_u64(o, &g, kind_key[0], a->malformed + b->malformed);
  for (unsigned m = 0; m < UAL_VF_COUNT; m++)
    if (fabs[m]->kinds_json) fabs[m]->kinds_json(o, &g, &s, 2);
  dc_json_u64(o, &g, kind_key[1], a->events + b->events);
  dc_out_ch(o, '}');
  dc_json_u64(o, &f, "ts_first_ns", first);
  dc_json_u64(o, &f, "ts_last_ns", last);
  dc_json_secs(o, &f, "ts_first", first);
  dc_json_secs(o, &f, "ts_last", last);
  dc_json_u64(o, &f, "span_ns", last - first);
  dc_json_key(o, &f, "dirs");
  dc_out_ch(o, '{');
  for (int i = 0; i < 2; i++) {
    if (i) dc_out_ch(o, ',');
    dc_json_string(o, dir_name[i]);
    dc_out_ch(o, ':');
    dir_json(o, &s, (unsigned)i, last - first);
  }
  dc_out_ch(o, '}');
  dc_json_key(o, &f, "findings_by_rule");
  dc_out_ch(o, '{');
  g = true;
  for (int r = 0; r < UAL_R_COUNT; r++)
    if (a->rules[r] + b->rules[r]) dc_json_u64(o, &g, ual_rule_id((enum ual_rule)r), a->rules[r] + b->rules[r]);
  dc_out_ch(o, '}');
  dc_json_key(o, &f, "findings_by_severity");
  dc_out_ch(o, '{');
  g = true;
  for (int v = 0; v < 3; v++) dc_json_u64(o, &g, ual_severity_name((enum ual_severity)v), a->sev[v] + b->sev[v]);
  dc_out_ch(o, '}');
  for (unsigned m = 0; m < UAL_VF_COUNT; m++)
    if (fabs[m]->top_json) fabs[m]->top_json(o, &f, &s, &src);
  dc_json_key(o, &f, "links");
  dc_out_ch(o, '[');
  for (unsigned k = 0; k < t->n; k++) {
    if (k) dc_out_ch(o, ',');
    link_json(o, &src, k);
  }
  dc_out_ch(o, ']');
  dc_out_str(o, "}\n");
}
