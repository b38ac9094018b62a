/* Statistics from the "ualink" tap: a stats tree (Statistics > UALink in
 * the GUI, "-z ualink,tree" in tshark) and a per-direction text table
 * ("-z ualink,stat[,filter]"). Both count what uw_classify names. */
#include <wireshark.h>
#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/stat_tap_ui.h>
#include <epan/stats_tree.h>

#include <stdio.h>
#include <string.h>

#include "ualink/ualink.h"
#include "packet-ualink.h"

enum uw_group {
  UG_RECORDS, UG_USAGE, UG_REPLAY, UG_CHECK, UG_TL, UG_DLMSG, UG_DLLP, UG_OS, UG_EVENT, UG_FABRIC, UG_RULES,
  UG_COUNT
};
static const char *const uw_group_name[UG_COUNT] = {
  "Records", "Flit usage", "Replay command", "CRC and FEC", "TL flits", "DL messages",
  "DLLPs", "Ordered sets", "Link events", "Other fabrics (presentation model)", "Findings by rule",
};

typedef void (*uw_count_cb)(void *ctx, enum uw_group g, const char *item, unsigned dir, unsigned n);

/* The other fabrics' counters (PCIe, UB) come from the presentation model
 * (core/views.h): a tally of the records so far, whose record-table rows
 * grow by what each record adds; each growth is counted as the item
 * "heading: label". One per statistic, reset with it. */
struct uw_model {
  struct ual_view_tally t;
  GHashTable *prev;   /* "link/heading/label/dir" -> the row's value so far */
};

struct uw_delta {
  struct uw_model *m;
  unsigned k;
  const char *heading;
  uw_count_cb cb;
  void *ctx;
};

static void uw_model_reset(struct uw_model *m) {
  ual_view_tally_init(&m->t);
  if (m->prev) g_hash_table_remove_all(m->prev);
  else m->prev = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

static void uw_model_free(struct uw_model *m) {
  if (m->prev) g_hash_table_destroy(m->prev);
  g_free(m);
}

static void uw_delta_row(void *ctx, const struct ual_view_counter *c) {
  struct uw_delta *x = ctx;
  if (c->heading) {
    x->heading = c->label;   /* valid until the next row: only its text is kept */
    return;
  }
  if (c->table != UAL_VIEW_T_RECORDS || c->per_rule || c->no_total) return;
  for (unsigned d = 0; d < 2; d++) {
    char key[160], item[128];
    snprintf(item, sizeof item, "%s%s%s", x->heading ? x->heading : "", x->heading ? ": " : "", c->label);
    snprintf(key, sizeof key, "%u/%s/%u", x->k, item, d);
    guint64 *prev = g_hash_table_lookup(x->m->prev, key);
    guint64 was = prev ? *prev : 0;
    if (c->v[d] <= was) continue;
    x->cb(x->ctx, UG_FABRIC, item, d, (unsigned)(c->v[d] - was));
    if (!prev) {
      prev = g_new(guint64, 1);
      g_hash_table_insert(x->m->prev, g_strdup(key), prev);
    }
    *prev = c->v[d];
  }
}

/* What a record of a fabric other than UALink adds to the model's counters. */
static void uw_model_count(struct uw_model *m, const struct ual_rec_result *r, uint64_t ts_ns, uw_count_cb cb,
                           void *ctx) {
  int k = ual_view_tally_add(&m->t, r, ts_ns, true);
  if (k < 0 || m->t.l[k].fabric == UAL_VF_ualink) return;   /* UALink's: the groups above */
  struct ual_view_src src = { NULL, NULL, &m->t };
  struct uw_delta x = { m, (unsigned)k, NULL, cb, ctx };
  const struct ual_view_fabric *f = ual_view_fabric_get(m->t.l[k].fabric);
  if (f && f->counters) f->counters(&src, (unsigned)k, uw_delta_row, &x);
}

static uint64_t uw_ts_ns(const packet_info *pinfo) {
  return (uint64_t)pinfo->abs_ts.secs * 1000000000u + (uint64_t)pinfo->abs_ts.nsecs;
}

static const char *uw_name_or(const char *name, const char *fallback) { return name ? name : fallback; }

/* Everything one record adds to the statistics. */
static void uw_classify(const struct ual_rec_result *r, uw_count_cb cb, void *ctx) {
  unsigned dir = r->dir;
  if (r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED) {
    cb(ctx, UG_RECORDS, "Malformed", dir, 1);
    return;
  }
  cb(ctx, UG_RECORDS, uw_name_or(ual_field_value_name(UAL_F_REC_KIND, r->rec.h.kind), "?"), dir, 1);
  switch (r->rec.h.kind) {
  case UAL_REC_FLIT: {
    const struct ual_flit_info *fi = &r->flit;
    cb(ctx, UG_USAGE, uw_name_or(ual_field_value_name(UAL_F_GEN_KIND, fi->kind), "?"), dir, 1);
    if (fi->kind != UAL_FK_IDLE)
      cb(ctx, UG_REPLAY, uw_name_or(ual_field_value_name(UAL_F_FH_REPLAY_CMD, fi->fh.replay_cmd), "?"), dir, 1);
    if (fi->fec.status != UAL_FEC_CLEAN)
      cb(ctx, UG_CHECK, uw_name_or(ual_field_value_name(UAL_F_GEN_FEC, fi->fec.status), "?"), dir, 1);
    if (!fi->crc_ok) cb(ctx, UG_CHECK, fi->crc_inverted ? "CRC inverted" : "CRC bad", dir, 1);
    if (fi->kind == UAL_FK_NOP || fi->kind == UAL_FK_IDLE)
      cb(ctx, UG_DLLP, uw_name_or(ual_field_value_name(UAL_F_PCIE_FDLLP_TYPE, fi->dllp.type), "Other"), dir, 1);
    if (r->unpacked) {
      if (r->unp.tl_started) cb(ctx, UG_TL, "Started", dir, r->unp.tl_started);
      if (r->unp.n_tl) cb(ctx, UG_TL, "Completed", dir, r->unp.n_tl);
      for (unsigned i = 0; i < r->unp.n_msg; i++)
        cb(ctx, UG_DLMSG, ual_msg_types[r->unp.msg[i].msg.type].display, dir, 1);
    }
    break;
  }
  case UAL_REC_OS:
    cb(ctx, UG_OS, uw_name_or(ual_field_value_name(UAL_F_GEN_OS_TYPE, r->os.type), "?"), dir, 1);
    break;
  case UAL_REC_EVENT:
    cb(ctx, UG_EVENT, uw_name_or(ual_field_value_name(UAL_F_EV_CODE, r->ev.code), "Unknown"), dir, 1);
    break;
  }
  for (unsigned i = 0; i < r->findings.n; i++)
    cb(ctx, UG_RULES, ual_rule_id((enum ual_rule)r->findings.v[i].rule), dir, 1);
}

/* ------------------------------------------------------------------ */
/* Stats tree */

static int st_group[UG_COUNT];
static struct uw_model *st_model;

static void uw_st_init(stats_tree *st) {
  for (int g = 0; g < UG_COUNT; g++)
    st_group[g] = stats_tree_create_node(st, uw_group_name[g], 0, STAT_DT_INT, TRUE);
  if (!st_model) st_model = g_new0(struct uw_model, 1);
  uw_model_reset(st_model);
}

static void uw_st_count(void *ctx, enum uw_group g, const char *item, unsigned dir _U_, unsigned n) {
  stats_tree *st = ctx;
  increase_stat_node(st, uw_group_name[g], 0, TRUE, (gint)n);
  increase_stat_node(st, item, st_group[g], FALSE, (gint)n);
}

static tap_packet_status uw_st_packet(stats_tree *st, packet_info *pinfo, epan_dissect_t *edt _U_,
                                      const void *data, tap_flags_t flags _U_) {
  uw_classify(data, uw_st_count, st);
  uw_model_count(st_model, data, uw_ts_ns(pinfo), uw_st_count, st);
  return TAP_PACKET_REDRAW;
}

/* ------------------------------------------------------------------ */
/* -z ualink,stat: rows per group in first-seen order, one column per direction */

struct uw_row { char *item; guint64 n[2]; };

struct uw_stat {
  GPtrArray *rows[UG_COUNT];
  guint64 records[2];
  struct uw_model *model;
};

static void uw_stat_count(void *ctx, enum uw_group g, const char *item, unsigned dir, unsigned n) {
  struct uw_stat *s = ctx;
  GPtrArray *a = s->rows[g];
  struct uw_row *row = NULL;
  for (guint i = 0; i < a->len && !row; i++)
    if (strcmp(((struct uw_row *)a->pdata[i])->item, item) == 0) row = a->pdata[i];
  if (!row) {
    row = g_new0(struct uw_row, 1);
    row->item = g_strdup(item);
    g_ptr_array_add(a, row);
  }
  row->n[dir & 1] += n;
}

static void uw_row_free(gpointer p) {
  struct uw_row *row = p;
  g_free(row->item);
  g_free(row);
}

static void uw_stat_reset(void *tapdata) {
  struct uw_stat *s = tapdata;
  for (int g = 0; g < UG_COUNT; g++) g_ptr_array_set_size(s->rows[g], 0);
  uw_model_reset(s->model);
}

static tap_packet_status uw_stat_packet(void *tapdata, packet_info *pinfo, epan_dissect_t *edt _U_,
                                        const void *data, tap_flags_t flags _U_) {
  struct uw_stat *s = tapdata;
  uw_classify(data, uw_stat_count, tapdata);
  uw_model_count(s->model, data, uw_ts_ns(pinfo), uw_stat_count, tapdata);
  return TAP_PACKET_REDRAW;
}

static void uw_stat_draw(void *tapdata) {
  struct uw_stat *s = tapdata;
  printf("\n===================================================================\n");
  printf("UALink statistics\n");
  printf("%-40s %12s %12s\n", "", "A>B", "B>A");
  for (int g = 0; g < UG_COUNT; g++) {
    GPtrArray *a = s->rows[g];
    if (a->len == 0) continue;
    printf("%s\n", uw_group_name[g]);
    for (guint i = 0; i < a->len; i++) {
      const struct uw_row *row = a->pdata[i];
      char label[64];
      int rule = g == UG_RULES ? ual_rule_lookup(row->item) : -1;
      if (rule >= 0)
        snprintf(label, sizeof label, "%s (%s)", row->item,
                 ual_severity_name(ual_rule_severity((enum ual_rule)rule)));
      else
        snprintf(label, sizeof label, "%s", row->item);
      printf("  %-38s %12" PRIu64 " %12" PRIu64 "\n", label, row->n[0], row->n[1]);
    }
  }
  printf("===================================================================\n");
}

static void uw_stat_finish(void *tapdata) {
  struct uw_stat *s = tapdata;
  for (int g = 0; g < UG_COUNT; g++) g_ptr_array_free(s->rows[g], TRUE);
  uw_model_free(s->model);
  g_free(s);
}

#define UW_STAT_CLI "ualink,stat"

static void uw_stat_init(const char *opt_arg, void *userdata _U_) {
  const char *filter = NULL;
  if (strncmp(opt_arg, UW_STAT_CLI ",", sizeof UW_STAT_CLI) == 0) filter = opt_arg + sizeof UW_STAT_CLI;
  struct uw_stat *s = g_new0(struct uw_stat, 1);
  for (int g = 0; g < UG_COUNT; g++) s->rows[g] = g_ptr_array_new_with_free_func(uw_row_free);
  s->model = g_new0(struct uw_model, 1);
  uw_model_reset(s->model);
  GString *err = register_tap_listener(UAL_WS_TAP, s, filter, TL_REQUIRES_NOTHING, uw_stat_reset,
                                       uw_stat_packet, uw_stat_draw, uw_stat_finish);
  if (err) {
    fprintf(stderr, "tshark: -z " UW_STAT_CLI ": %s\n", err->str);
    g_string_free(err, TRUE);
    uw_stat_finish(s);
  }
}

static tap_param uw_stat_params[] = {
  { PARAM_FILTER, "filter", "Filter", NULL, TRUE },
};

static stat_tap_ui uw_stat_ui = {
  REGISTER_STAT_GROUP_GENERIC, "UALink statistics", UW_STAT_CLI, uw_stat_init,
  array_length(uw_stat_params), uw_stat_params,
};

/* ------------------------------------------------------------------ */
/* -z ualink,links: the presentation model's counters, a section per link */

struct uw_links {
  struct ual_view_tally t;
};

static void uw_links_reset(void *tapdata) { ual_view_tally_init(&((struct uw_links *)tapdata)->t); }

static tap_packet_status uw_links_packet(void *tapdata, packet_info *pinfo, epan_dissect_t *edt _U_,
                                         const void *data, tap_flags_t flags _U_) {
  ual_view_tally_add(&((struct uw_links *)tapdata)->t, data, uw_ts_ns(pinfo), true);
  return TAP_PACKET_REDRAW;
}

/* A counter row of the records table: by direction and the total. */
static void uw_links_row(void *ctx _U_, const struct ual_view_counter *c) {
  if (c->table != UAL_VIEW_T_RECORDS) return;
  if (c->heading) {
    printf("%*s%s\n", 2 + (int)c->indent, "", c->label);
    return;
  }
  char total[24] = "";
  if (!c->no_total) snprintf(total, sizeof total, "%" PRIu64, c->v[0] + c->v[1]);
  printf("%*s%-*s %12" PRIu64 " %12" PRIu64 " %12s\n", 2 + (int)c->indent, "", 44 - (int)c->indent, c->label, c->v[0],
         c->v[1], total);
}

static void uw_links_draw(void *tapdata) {
  const struct ual_view_tally *t = &((struct uw_links *)tapdata)->t;
  struct ual_view_src src;
  ual_ws_view_src(t, &src);
  printf("\n===================================================================\n");
  printf("UALink statistics per link\n");
  for (unsigned k = 0; k < t->n; k++) {
    struct ual_view_link l;
    ual_view_link_get(&src, k, &l);
    const struct ual_view_fabric *f = ual_view_fabric_get(l.fabric);
    printf("%s: %s (link %u)\n", f ? f->name : "?", l.name, l.index);
    printf("  %-44s %12s %12s %12s\n", "", l.dir[0], l.dir[1], "total");
    ual_view_counters(&src, k, uw_links_row, NULL);
  }
  if (t->other_links) printf("records of further links: %" PRIu64 "\n", t->other_links);
  printf("===================================================================\n");
}

static void uw_links_finish(void *tapdata) { g_free(tapdata); }

#define UW_LINKS_CLI "ualink,links"

static void uw_links_init(const char *opt_arg, void *userdata _U_) {
  const char *filter = NULL;
  if (strncmp(opt_arg, UW_LINKS_CLI ",", sizeof UW_LINKS_CLI) == 0) filter = opt_arg + sizeof UW_LINKS_CLI;
  struct uw_links *s = g_new0(struct uw_links, 1);
  uw_links_reset(s);
  GString *err = register_tap_listener(UAL_WS_TAP, s, filter, TL_REQUIRES_NOTHING, uw_links_reset, uw_links_packet,
                                       uw_links_draw, uw_links_finish);
  if (err) {
    fprintf(stderr, "tshark: -z " UW_LINKS_CLI ": %s\n", err->str);
    g_string_free(err, TRUE);
    uw_links_finish(s);
  }
}

static stat_tap_ui uw_links_ui = {
  REGISTER_STAT_GROUP_GENERIC, "UALink statistics per link", UW_LINKS_CLI, uw_links_init,
  array_length(uw_stat_params), uw_stat_params,
};

void ual_ws_register_stats(void) {
  stats_tree_register_plugin(UAL_WS_TAP, "ualink", "UALink/Flits, messages and findings", 0,
                             uw_st_packet, uw_st_init, NULL);
  register_stat_tap_ui(&uw_stat_ui, NULL);
  register_stat_tap_ui(&uw_links_ui, NULL);
}
