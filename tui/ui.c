/* ualink-tui: ncurses viewer. Each screen is a small vtable (draw, key);
 * the model sits behind one lock shared with the source thread. */
#include <curses.h>
#include <pcap/pcap.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "source.h"

struct app;

struct screen {
  const char *name;
  void (*draw)(struct app *a);
  bool (*key)(struct app *a, int ch);   /* true when handled */
};

struct tree_line { struct ual_tree_row row; };

struct app {
  struct tui_model model;
  pthread_mutex_t lock;
  struct tui_source src;
  pthread_t thread;
  const struct screen *screen, *prev;
  long sel;                 /* selected index in the model */
  long top;                 /* first index drawn */
  bool autoscroll, paused, only_matches, color;
  char status[160];
  /* detail pane */
  struct ual_rec_result det;
  struct tui_entry det_entry;
  struct tree_line *tree;
  int n_tree, cap_tree, tree_sel, tree_top;
  int findings_sel;
};

static volatile sig_atomic_t quit_signal;
static void on_signal(int sig) { (void)sig; quit_signal = 1; }

enum { C_ERR = 1, C_WARN, C_INFO, C_HDR, C_SEL, C_HL, C_DIM };

static void on_record(void *ctx, const uint8_t *rec, size_t len, uint64_t ts) {
  struct app *a = ctx;
  pthread_mutex_lock(&a->lock);
  tui_model_add(&a->model, rec, len, ts);
  pthread_mutex_unlock(&a->lock);
}

static void *source_thread(void *arg) {
  struct app *a = arg;
  tui_source_run(&a->src);
  return NULL;
}

static int sev_color(int sev) {
  return sev == UAL_SEV_ERROR ? C_ERR : sev == UAL_SEV_WARNING ? C_WARN : sev == UAL_SEV_INFO ? C_INFO : 0;
}

static void header_line(struct app *a, const char *title) {
  attron(COLOR_PAIR(C_HDR) | A_BOLD);
  mvhline(0, 0, ' ', COLS);
  const char *src = a->src.kind == TUI_SRC_LIVE ? "live" : a->src.kind == TUI_SRC_STDIN ? "stdin"
                    : a->src.kind == TUI_SRC_FOLLOW ? "follow" : "file";
  mvprintw(0, 0, " ualink-tui | %s | %s %s | %" PRIu64 " records%s%s", title, src,
           a->src.kind == TUI_SRC_STDIN ? "-" : a->src.path, a->model.total,
           a->paused ? " | PAUSED" : "", a->autoscroll ? " | autoscroll" : "");
  attroff(COLOR_PAIR(C_HDR) | A_BOLD);
}

static void footer_line(struct app *a) {
  attron(A_REVERSE);
  mvhline(LINES - 1, 0, ' ', COLS);
  if (a->status[0])
    mvprintw(LINES - 1, 0, " %s", a->status);
  else
    mvprintw(LINES - 1, 0, " q quit  ? help  / filter  n/N next/prev  Enter detail  1-5 screens%s%s%s",
             a->model.filter.active ? "  filter: " : "", a->model.filter.text,
             a->only_matches ? " (only matches)" : "");
  attroff(A_REVERSE);
}

/* ---- list ---- */

static int list_rows(void) { return LINES - 3; }

static bool visible(struct app *a, long i) {
  return !a->only_matches || tui_filter_match(&a->model.filter, tui_model_at(&a->model, (size_t)i));
}

static long step_visible(struct app *a, long i, int step) {
  long n = (long)tui_model_count(&a->model);
  for (long j = i + step; j >= 0 && j < n; j += step)
    if (visible(a, j)) return j;
  return i;
}

static void list_fix_view(struct app *a) {
  long n = (long)tui_model_count(&a->model);
  if (n == 0) { a->sel = a->top = 0; return; }
  if (a->autoscroll && !a->paused) a->sel = n - 1;
  if (a->sel >= n) a->sel = n - 1;
  if (a->sel < 0) a->sel = 0;
  if (!visible(a, a->sel)) a->sel = step_visible(a, a->sel, -1);
  if (a->sel < a->top) a->top = a->sel;
  int rows = list_rows();
  long shown = 0, t = a->sel;
  while (t > 0 && shown < rows - 1) {
    long p = step_visible(a, t, -1);
    if (p == t) break;
    t = p;
    shown++;
  }
  if (a->top < t) a->top = t;
}

static void list_draw(struct app *a) {
  header_line(a, "Flits");
  list_fix_view(a);
  attron(A_BOLD | A_UNDERLINE);
  mvprintw(1, 0, "%-8s %-14s %-4s %-s", "Frame", "Time", "Dir", "Content");
  attroff(A_BOLD | A_UNDERLINE);
  long n = (long)tui_model_count(&a->model);
  const struct tui_entry *first = tui_model_at(&a->model, 0);
  uint64_t t0 = first ? first->ts_ns : 0;
  int y = 2;
  for (long i = a->top; i < n && y < LINES - 1; i++) {
    if (!visible(a, i)) continue;
    const struct tui_entry *e = tui_model_at(&a->model, (size_t)i);
    char rules[64] = "";
    size_t k = 0;
    for (unsigned r = 0; r < e->n_rules && k + 24 < sizeof rules; r++)
      k += (size_t)snprintf(rules + k, sizeof rules - k, " %s", ual_rule_id((enum ual_rule)e->rules[r]));
    int pair = sev_color(e->sev);
    bool match = a->model.filter.active && tui_filter_match(&a->model.filter, e);
    if (i == a->sel) attron(COLOR_PAIR(C_SEL) | A_BOLD);
    else if (pair && a->color) attron(COLOR_PAIR(pair));
    if (match && i != a->sel) attron(A_BOLD);
    mvhline(y, 0, ' ', COLS);
    uint64_t dt = e->ts_ns >= t0 ? e->ts_ns - t0 : 0;
    mvprintw(y, 0, "%-8" PRIu64 " %4" PRIu64 ".%09" PRIu64 " %-4s %s%s%s", e->frame, dt / 1000000000u,
             dt % 1000000000u, e->dir ? "B>A" : "A>B", e->line, e->n_rules ? " !" : "", rules);
    attroff(COLOR_PAIR(C_SEL) | COLOR_PAIR(pair) | A_BOLD);
    y++;
  }
  if (n == 0) mvprintw(3, 2, "waiting for records...");
}

static void detail_open(struct app *a);

static bool list_key(struct app *a, int ch) {
  long n = (long)tui_model_count(&a->model);
  int page = list_rows() - 1;
  switch (ch) {
  case KEY_UP: case 'k': a->autoscroll = false; a->sel = step_visible(a, a->sel, -1); return true;
  case KEY_DOWN: case 'j': a->sel = step_visible(a, a->sel, +1); return true;
  case KEY_PPAGE: case 'b':
    a->autoscroll = false;
    for (int i = 0; i < page; i++) a->sel = step_visible(a, a->sel, -1);
    return true;
  case KEY_NPAGE: case ' ':
    for (int i = 0; i < page; i++) a->sel = step_visible(a, a->sel, +1);
    return true;
  case KEY_HOME: case 'g': a->autoscroll = false; a->sel = 0; a->top = 0; return true;
  case KEY_END: case 'G': a->sel = n - 1; return true;
  case '\n': case KEY_ENTER:
    if (n) detail_open(a);
    return true;
  }
  return false;
}

/* ---- detail ---- */

static void tree_add(void *ctx, const struct ual_tree_row *row) {
  struct app *a = ctx;
  if (a->n_tree == a->cap_tree) {
    int cap = a->cap_tree ? a->cap_tree * 2 : 128;
    struct tree_line *t = realloc(a->tree, (size_t)cap * sizeof *t);
    if (!t) return;
    a->tree = t;
    a->cap_tree = cap;
  }
  a->tree[a->n_tree++].row = *row;
}

static const struct screen detail_screen;

static void detail_open(struct app *a) {
  const struct tui_entry *e = tui_model_at(&a->model, (size_t)a->sel);
  if (!e) return;
  a->det_entry = *e;
  tui_entry_decode(&a->det_entry, &a->det);
  a->n_tree = 0;
  ual_tree_walk(&a->det, a->det_entry.rec, a->det_entry.len, tree_add, a);
  for (unsigned i = 0; i < a->det_entry.n_rules; i++) {
    enum ual_rule r = (enum ual_rule)a->det_entry.rules[i];
    struct ual_tree_row row = {0};
    row.label = ual_rule_id(r);
    const char *msg = ual_rule_what(r);
    for (unsigned k = 0; k < a->det.findings.n; k++)
      if (a->det.findings.v[k].rule == r) msg = a->det.findings.v[k].msg;
    snprintf(row.text, sizeof row.text, "[%s] %s", ual_severity_name(ual_rule_severity(r)), msg);
    tree_add(a, &row);
  }
  a->tree_sel = a->tree_top = 0;
  a->prev = a->screen;
  a->screen = &detail_screen;
}

static void detail_draw(struct app *a) {
  char title[64];
  snprintf(title, sizeof title, "Frame %" PRIu64, a->det_entry.frame);
  header_line(a, title);
  int hex_rows = (a->det_entry.len + 15) / 16 + 1;
  int tree_rows = LINES - 2 - hex_rows;
  if (tree_rows < 5) tree_rows = LINES / 2;
  if (a->tree_sel < a->tree_top) a->tree_top = a->tree_sel;
  if (a->tree_sel >= a->tree_top + tree_rows) a->tree_top = a->tree_sel - tree_rows + 1;
  for (int y = 0; y < tree_rows && a->tree_top + y < a->n_tree; y++) {
    const struct ual_tree_row *r = &a->tree[a->tree_top + y].row;
    if (a->tree_top + y == a->tree_sel) attron(COLOR_PAIR(C_SEL) | A_BOLD);
    else if (!r->field) attron(A_BOLD);
    mvhline(1 + y, 0, ' ', COLS);
    if (r->length)
      mvprintw(1 + y, 0, "%04x %*s%s: %s", r->offset, (int)r->depth * 2, "", r->label, r->text);
    else
      mvprintw(1 + y, 0, "     %*s%s: %s", (int)r->depth * 2, "", r->label, r->text);
    attroff(COLOR_PAIR(C_SEL) | A_BOLD);
  }
  const struct ual_tree_row *cur = a->n_tree ? &a->tree[a->tree_sel].row : NULL;
  int y0 = 1 + tree_rows;
  attron(A_DIM);
  mvhline(y0, 0, ACS_HLINE, COLS);
  attroff(A_DIM);
  for (int i = 0; i < a->det_entry.len; i++) {
    int row = y0 + 1 + i / 16, col = 6 + (i % 16) * 3 + (i % 16 >= 8);
    if (row >= LINES - 1) break;
    if (i % 16 == 0) mvprintw(row, 0, "%04x", i);
    bool hl = cur && cur->length && i >= (int)cur->offset && i < (int)(cur->offset + cur->length);
    if (hl) attron(COLOR_PAIR(C_HL) | A_BOLD);
    mvprintw(row, col, "%02x", a->det_entry.rec[i]);
    if (hl) attroff(COLOR_PAIR(C_HL) | A_BOLD);
  }
}

static bool detail_key(struct app *a, int ch) {
  switch (ch) {
  case KEY_UP: case 'k': if (a->tree_sel > 0) a->tree_sel--; return true;
  case KEY_DOWN: case 'j': if (a->tree_sel + 1 < a->n_tree) a->tree_sel++; return true;
  case KEY_PPAGE: a->tree_sel = a->tree_sel > 10 ? a->tree_sel - 10 : 0; return true;
  case KEY_NPAGE: a->tree_sel = a->tree_sel + 10 < a->n_tree ? a->tree_sel + 10 : a->n_tree - 1; return true;
  case KEY_HOME: case 'g': a->tree_sel = 0; return true;
  case KEY_END: case 'G': a->tree_sel = a->n_tree - 1; return true;
  case 27: case 'q': case KEY_BACKSPACE: case KEY_LEFT: case 'h':
    a->screen = a->prev;
    return true;
  }
  return false;
}

/* ---- link state ---- */

static const char *role_name(unsigned r) { return ual_value_name(ual_vals_role, r); }

static void link_draw(struct app *a) {
  header_line(a, "Link state");
  const struct tui_model *m = &a->model;
  const char *rate = ual_value_name(ual_vals_rate, m->last_rate);
  mvprintw(2, 2, "Rate %s   Width x%u", rate ? rate : "?", m->last_width);
  mvprintw(4, 2, "%-24s %-22s %-22s", "", "Side A", "Side B");
  mvprintw(5, 2, "%-24s %-22s %-22s", "role", role_name(m->role_a), role_name(m->role_b));
  const struct { const char *name; size_t off; } rows[] = {
    { "records", offsetof(struct tui_dir_counts, records) },
    { "TL flits delivered", offsetof(struct tui_dir_counts, tl_flits) },
    { "DL messages", offsetof(struct tui_dir_counts, dl_msgs) },
    { "Naks sent", offsetof(struct tui_dir_counts, naks) },
    { "FEC corrected", offsetof(struct tui_dir_counts, fec_corrected) },
    { "FEC uncorrectable", offsetof(struct tui_dir_counts, fec_uncorrectable) },
    { "CRC bad", offsetof(struct tui_dir_counts, crc_bad) },
  };
  int y = 6;
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++, y++) {
    uint64_t va = *(const uint64_t *)((const char *)&m->dir[0] + rows[i].off);
    uint64_t vb = *(const uint64_t *)((const char *)&m->dir[1] + rows[i].off);
    mvprintw(y, 2, "%-24s %-22" PRIu64 " %-22" PRIu64, rows[i].name, va, vb);
  }
  struct ual_analysis_summary s;
  ual_analyzer_summary(&m->an, &s);
  y++;
  mvprintw(y++, 2, "%-24s %-22s %-22s", "LTSSM", ual_lt_state_name(s.ltssm[0]), ual_lt_state_name(s.ltssm[1]));
  char ra[24], rb[24];
  snprintf(ra, sizeof ra, "%s x%u", s.rate[0] ? ual_value_name(ual_vals_rate, s.rate[0]) : "?", s.width[0]);
  snprintf(rb, sizeof rb, "%s x%u", s.rate[1] ? ual_value_name(ual_vals_rate, s.rate[1]) : "?", s.width[1]);
  mvprintw(y++, 2, "%-24s %-22s %-22s", "rate, width", ra, rb);
  const char *onoff[] = { "offline", "online" };
  mvprintw(y++, 2, "%-24s %-22s %-22s", "channel 0 (TL)", s.ch0[0] < 0 ? "unknown" : onoff[s.ch0[0] & 1],
           s.ch0[1] < 0 ? "unknown" : onoff[s.ch0[1] & 1]);
  mvprintw(y++, 2, "%-24s %-22s %-22s", "channel 4 (UART)", s.ch4[0] < 0 ? "unknown" : onoff[s.ch4[0] & 1],
           s.ch4[1] < 0 ? "unknown" : onoff[s.ch4[1] & 1]);
  mvprintw(y++, 2, "%-24s %-22s %-22s", "negotiated width", ual_width_code_name(s.neg_width[0]),
           ual_width_code_name(s.neg_width[1]));
  mvprintw(y++, 2, "%-24s %-22s %-22s", "negotiated speed", ual_speed_code_name(s.neg_speed[0]),
           ual_speed_code_name(s.neg_speed[1]));
  char ta[24] = "unknown", tb[24] = "unknown";
  if (s.tl_rate[0] >= 0) snprintf(ta, sizeof ta, "%d (%.2f MHz)", s.tl_rate[0], s.tl_rate[0] * 0.05);
  if (s.tl_rate[1] >= 0) snprintf(tb, sizeof tb, "%d (%.2f MHz)", s.tl_rate[1], s.tl_rate[1] * 0.05);
  mvprintw(y++, 2, "%-24s %-22s %-22s", "TL rate", ta, tb);
  mvprintw(y++, 2, "%-24s %-22" PRIu64 " %-22" PRIu64, "replays", s.replay[0].replays + s.replay[0].replays_selective,
           s.replay[1].replays + s.replay[1].replays_selective);
  mvprintw(y++, 2, "%-24s %-22" PRIu64 " %-22" PRIu64, "negotiations complete", s.negs[0][UAL_NEG_COMPLETE],
           s.negs[1][UAL_NEG_COMPLETE]);
  mvprintw(y++, 2, "%-24s %-22" PRIu64 " %-22" PRIu64, "negotiations Nacked", s.negs[0][UAL_NEG_NACK],
           s.negs[1][UAL_NEG_NACK]);
}

/* ---- statistics ---- */

static void spark(int y, int x, const struct tui_model *m, size_t field, const char *label) {
  static const char bars[] = " .:-=+*#";
  uint32_t vals[TUI_RATE_SECONDS], max = 0;
  for (unsigned i = 0; i < TUI_RATE_SECONDS; i++) {
    const struct tui_rate *r = tui_model_rate(m, TUI_RATE_SECONDS - 1 - i);
    vals[i] = r ? *(const uint32_t *)((const char *)r + field) : 0;
    if (vals[i] > max) max = vals[i];
  }
  mvprintw(y, x, "%-16s %10u/s [", label, vals[TUI_RATE_SECONDS - 1]);
  for (unsigned i = 0; i < TUI_RATE_SECONDS; i++)
    addch((chtype)bars[max ? (vals[i] * 7 + max - 1) / max : 0]);
  printw("] max %u", max);
}

static void stats_draw(struct app *a) {
  header_line(a, "Statistics");
  const struct tui_model *m = &a->model;
  mvprintw(2, 2, "%-20s %14s %14s", "", "A>B", "B>A");
  const char *kinds[] = { "payload flits", "NOP flits", "IDLE flits", "reserved flits" };
  for (int k = 0; k < 4; k++)
    mvprintw(3 + k, 2, "%-20s %14" PRIu64 " %14" PRIu64, kinds[k], m->dir[0].flits[k], m->dir[1].flits[k]);
  mvprintw(7, 2, "%-20s %14" PRIu64 " %14" PRIu64, "ordered sets", m->dir[0].os, m->dir[1].os);
  mvprintw(8, 2, "%-20s %14" PRIu64 " %14" PRIu64, "link events", m->dir[0].events, m->dir[1].events);
  mvprintw(9, 2, "%-20s %14" PRIu64, "malformed", m->malformed);
  mvprintw(10, 2, "%-20s %14" PRIu64, "dropped (capture)", a->src.kernel_drops);
  spark(12, 2, m, offsetof(struct tui_rate, flits), "flits");
  spark(13, 2, m, offsetof(struct tui_rate, tl_flits), "TL flits");
  spark(14, 2, m, offsetof(struct tui_rate, naks), "Naks");
  spark(15, 2, m, offsetof(struct tui_rate, fec_corrected), "FEC corrections");
}

/* ---- findings ---- */

static int findings_rules(const struct tui_model *m, int *out) {
  int n = 0;
  for (int r = 0; r < UAL_R_COUNT; r++)
    if (m->rule_counts[r]) out[n++] = r;
  return n;
}

static void findings_draw(struct app *a) {
  header_line(a, "Findings");
  int rules[UAL_R_COUNT];
  int n = findings_rules(&a->model, rules);
  mvprintw(1, 0, "%-24s %-8s %10s %10s  %s", "Rule", "Severity", "Count", "First", "What");
  if (a->findings_sel >= n) a->findings_sel = n ? n - 1 : 0;
  for (int i = 0; i < n && 2 + i < LINES - 1; i++) {
    enum ual_rule r = (enum ual_rule)rules[i];
    int pair = sev_color(ual_rule_severity(r));
    if (i == a->findings_sel) attron(COLOR_PAIR(C_SEL) | A_BOLD);
    else if (a->color) attron(COLOR_PAIR(pair));
    mvhline(2 + i, 0, ' ', COLS);
    mvprintw(2 + i, 0, "%-24s %-8s %10" PRIu64 " %10" PRIu64 "  %s", ual_rule_id(r),
             ual_severity_name(ual_rule_severity(r)), a->model.rule_counts[r], a->model.first_rule_frame[r],
             ual_rule_what(r));
    attroff(COLOR_PAIR(C_SEL) | COLOR_PAIR(pair) | A_BOLD);
  }
  if (!n) mvprintw(3, 2, "no findings");
}

static const struct screen list_screen;

static bool findings_key(struct app *a, int ch) {
  int rules[UAL_R_COUNT];
  int n = findings_rules(&a->model, rules);
  switch (ch) {
  case KEY_UP: case 'k': if (a->findings_sel > 0) a->findings_sel--; return true;
  case KEY_DOWN: case 'j': if (a->findings_sel + 1 < n) a->findings_sel++; return true;
  case '\n': case KEY_ENTER: {
    if (!n) return true;
    char expr[48];
    snprintf(expr, sizeof expr, "rule=%s", ual_rule_id((enum ual_rule)rules[a->findings_sel]));
    tui_filter_parse(&a->model.filter, expr, NULL, 0);
    long i = tui_model_next_match(&a->model, -1, +1);
    a->autoscroll = false;
    if (i >= 0) a->sel = i;
    else snprintf(a->status, sizeof a->status, "%s: first occurrence is no longer in the ring", expr);
    a->screen = &list_screen;
    return true;
  }
  }
  return false;
}

/* ---- help ---- */

static void help_draw(struct app *a) {
  header_line(a, "Help");
  static const char *const lines[] = {
    "1 flit list   2 link state   3 statistics   4 findings   ? help   Tab next screen",
    "Up/Down j/k, PgUp/PgDn, Home/End g/G   move",
    "Enter        detail of the selected record (Esc or q back)",
    "/            filter: dir=A|B usage=payload|nop|idle|reserved msg=<mtype> rule=<ID>",
    "             sev=info|warning|error frame=A-B (bare A, B, payload, PL-CRC ... work too)",
    "n / N        next / previous match      f  show only matches (toggle)",
    "a            autoscroll (toggle)        p  pause display (toggle)",
    "q            quit",
  };
  for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) mvprintw(2 + (int)i, 2, "%s", lines[i]);
}

static bool no_key(struct app *a, int ch) { (void)a; (void)ch; return false; }

static const struct screen list_screen = { "list", list_draw, list_key };
static const struct screen detail_screen = { "detail", detail_draw, detail_key };
static const struct screen link_screen = { "link", link_draw, no_key };
static const struct screen stats_screen = { "stats", stats_draw, no_key };
static const struct screen findings_screen = { "findings", findings_draw, findings_key };
static const struct screen help_screen = { "help", help_draw, no_key };
static const struct screen *const screens[] = { &list_screen, &link_screen, &stats_screen, &findings_screen, &help_screen };

/* Reads a line at the bottom; returns false on Esc. */
static bool prompt(const char *label, char *buf, size_t cap) {
  size_t n = strlen(buf);
  timeout(-1);
  curs_set(1);
  bool ok = false;
  for (;;) {
    attron(A_REVERSE);
    mvhline(LINES - 1, 0, ' ', COLS);
    mvprintw(LINES - 1, 0, "%s%s", label, buf);
    attroff(A_REVERSE);
    refresh();
    int ch = getch();
    if (ch == '\n' || ch == KEY_ENTER) { ok = true; break; }
    if (ch == 27) break;
    if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && n) buf[--n] = 0;
    else if (ch >= 32 && ch < 127 && n + 1 < cap) { buf[n++] = (char)ch; buf[n] = 0; }
  }
  curs_set(0);
  timeout(100);
  return ok;
}

static bool global_key(struct app *a, int ch) {
  switch (ch) {
  case 'q': return false;
  case '1': case '2': case '3': case '4': a->screen = screens[ch - '1']; return true;
  case '?': case '5': a->screen = &help_screen; return true;
  case '\t': {
    size_t i = 0;
    while (i < 4 && screens[i] != a->screen) i++;
    a->screen = screens[(i + 1) % 4];
    return true;
  }
  case 'a': a->autoscroll = !a->autoscroll; return true;
  case 'p': a->paused = !a->paused; return true;
  case 'f': a->only_matches = !a->only_matches && a->model.filter.active; return true;
  case '/': {
    char buf[96];
    snprintf(buf, sizeof buf, "%s", a->model.filter.text);
    if (!prompt("filter: ", buf, sizeof buf)) return true;
    char err[128];
    pthread_mutex_lock(&a->lock);
    if (tui_filter_parse(&a->model.filter, buf, err, sizeof err)) {
      long i = tui_model_next_match(&a->model, a->sel - 1, +1);
      if (i >= 0 && a->model.filter.active) { a->sel = i; a->autoscroll = false; }
      if (!a->model.filter.active) a->only_matches = false;
    } else {
      snprintf(a->status, sizeof a->status, "%s", err);
    }
    pthread_mutex_unlock(&a->lock);
    a->screen = &list_screen;
    return true;
  }
  case 'n': case 'N': {
    long i = tui_model_next_match(&a->model, a->sel, ch == 'n' ? +1 : -1);
    if (i >= 0) { a->sel = i; a->autoscroll = false; }
    else snprintf(a->status, sizeof a->status, "no %s match", ch == 'n' ? "next" : "previous");
    return true;
  }
  }
  return true;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: ualink-tui [options] FILE      view a capture\n"
          "       ualink-tui -F FILE             follow a growing capture\n"
          "       ualink-tui -                   read a pcap stream on stdin\n"
          "       ualink-tui -i IFACE [--port N] live capture of the UDP export\n"
          "options:\n"
          "  --port N     UDP port of the export (default %d)\n"
          "  --dlt N      link type of capture files (default %d)\n"
          "  --ring N     records kept for scrolling (default 200000); counters stay exact\n"
          "  --no-color   no colours (also NO_COLOR)\n"
          "  -h, --help   this help;  --version\n"
          "exit status: 0 ok, 2 usage or input error\n",
          UAL_UDP_PORT, UAL_DLT_USER0);
}

int main(int argc, char **argv) {
  static struct app a;
  size_t ring = 200000;
  bool follow = false;
  const char *iface = NULL;
  a.src.port = UAL_UDP_PORT;
  a.src.dlt = UAL_DLT_USER0;
  a.color = getenv("NO_COLOR") == NULL;
  static const struct option opts[] = {
    { "port", required_argument, 0, 'P' }, { "dlt", required_argument, 0, 'D' },
    { "ring", required_argument, 0, 'R' }, { "no-color", no_argument, 0, 'C' },
    { "help", no_argument, 0, 'h' }, { "version", no_argument, 0, 'V' }, { 0, 0, 0, 0 } };
  int c;
  while ((c = getopt_long(argc, argv, "Fi:h", opts, NULL)) != -1) {
    switch (c) {
    case 'F': follow = true; break;
    case 'i': iface = optarg; break;
    case 'P': a.src.port = atoi(optarg); break;
    case 'D': a.src.dlt = atoi(optarg); break;
    case 'R': ring = strtoul(optarg, NULL, 10); break;
    case 'C': a.color = false; break;
    case 'h': usage(stdout); return 0;
    case 'V': printf("ualink-tui %s\n", UAL_VERSION_STRING); return 0;
    default: usage(stderr); return 2;
    }
  }
  if (iface) {
    a.src.kind = TUI_SRC_LIVE;
    a.src.path = iface;
  } else if (optind < argc) {
    a.src.path = argv[optind];
    a.src.kind = strcmp(a.src.path, "-") == 0 ? TUI_SRC_STDIN : follow ? TUI_SRC_FOLLOW : TUI_SRC_FILE;
  } else {
    usage(stderr);
    return 2;
  }
  if (a.src.dlt < 147 || a.src.dlt > 162 || a.src.port <= 0 || a.src.port > 65535 || ring == 0) {
    fprintf(stderr, "ualink-tui: --dlt takes 147..162, --port 1..65535, --ring a positive count\n");
    return 2;
  }
  if (!tui_model_init(&a.model, ring)) {
    fprintf(stderr, "ualink-tui: cannot allocate a ring of %zu records\n", ring);
    return 2;
  }
  a.src.cb = on_record;
  a.src.ctx = &a;
  if (!tui_source_open(&a.src)) {
    fprintf(stderr, "ualink-tui: %s\n", a.src.error);
    return 2;
  }
  pthread_mutex_init(&a.lock, NULL);
  a.autoscroll = a.src.kind != TUI_SRC_FILE;
  a.screen = &list_screen;

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);

  /* With a pcap stream on stdin the keyboard is read from the terminal itself. */
  FILE *tty = a.src.kind == TUI_SRC_STDIN ? fopen("/dev/tty", "r+") : NULL;
  SCREEN *scr = NULL;
  if (tty) scr = newterm(NULL, stdout, tty);
  else initscr();
  (void)scr;
  cbreak();
  noecho();
  keypad(stdscr, TRUE);
  curs_set(0);
  timeout(100);
  set_escdelay(25);
  if (a.color && has_colors()) {
    start_color();
    use_default_colors();
    init_pair(C_ERR, COLOR_RED, -1);
    init_pair(C_WARN, COLOR_YELLOW, -1);
    init_pair(C_INFO, COLOR_CYAN, -1);
    init_pair(C_HDR, COLOR_BLACK, COLOR_CYAN);
    init_pair(C_SEL, COLOR_BLACK, COLOR_WHITE);
    init_pair(C_HL, COLOR_BLACK, COLOR_YELLOW);
    init_pair(C_DIM, COLOR_BLUE, -1);
  } else {
    a.color = false;
  }
  pthread_create(&a.thread, NULL, source_thread, &a);

  bool run = true;
  while (run && !quit_signal) {
    pthread_mutex_lock(&a.lock);
    erase();
    a.screen->draw(&a);
    footer_line(&a);
    pthread_mutex_unlock(&a.lock);
    refresh();
    int ch = getch();
    if (ch == ERR) continue;
    a.status[0] = 0;
    if (ch == KEY_RESIZE) continue;
    pthread_mutex_lock(&a.lock);
    bool handled = a.screen->key(&a, ch);
    pthread_mutex_unlock(&a.lock);
    if (!handled) run = global_key(&a, ch);
  }
  endwin();
  a.src.stop = true;
  if (a.src.kind == TUI_SRC_FILE || a.src.kind == TUI_SRC_STDIN) {
    if (a.src.impl) pcap_breakloop(a.src.impl);
  }
  if (a.src.kind == TUI_SRC_STDIN && !a.src.done) pthread_cancel(a.thread);
  pthread_join(a.thread, NULL);
  tui_source_close(&a.src);
  if (a.src.error[0]) fprintf(stderr, "ualink-tui: %s\n", a.src.error);
  tui_model_free(&a.model);
  free(a.tree);
  return 0;
}
