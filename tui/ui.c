/* ualink-tui: ncurses viewer. Each screen is a small vtable (draw, key);
 * the model sits behind one lock shared with the source thread. */
#include <curses.h>
#include <pcap/pcap.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lineedit.h"
#include "model.h"
#include "source.h"

struct app;

struct screen {
  const char *name;
  void (*draw)(struct app *a);
  bool (*key)(struct app *a, int ch);   /* true when handled */
};

struct tree_line { struct ual_tree_row row; };

/* A rescan of a file from frame 1 for the matches of a new filter that the
 * ring no longer holds; it runs on its own thread and frees itself. */
struct scan {
  struct app *a;
  struct tui_model model;   /* keeps one record and the matches */
  struct tui_source src;
  uint64_t upto;            /* last frame to read: the one before the first held */
  uint64_t gen;             /* filter generation it scans for */
};

struct app {
  struct tui_model model;
  pthread_mutex_t lock;
  struct tui_source src;
  pthread_t thread;
  const struct screen *screen, *prev;
  long sel;                 /* selected index in the list's view */
  long top;                 /* first index drawn */
  bool autoscroll, paused, only_matches, color;
  char status[256];
  /* the source, as the source thread last reported it (under lock) */
  bool src_ended;
  char src_msg[512];
  uint64_t started_s, last_rec_s;   /* monotonic seconds: start, last record */
  uint64_t filter_gen;
  struct scan *scan;        /* the running rescan, if any */
  bool quitting;
  /* detail pane */
  struct ual_rec_result det;
  struct tui_entry det_entry;
  struct tree_line *tree;
  int n_tree, cap_tree, tree_sel, tree_top;
  int findings_sel;
  int info_top, info_rows;  /* link state, statistics, help: first row shown, rows drawn */
  long txn_sel, txn_top;    /* transactions: selected row, first row drawn */
};

static volatile sig_atomic_t quit_signal;
static void on_signal(int sig) { (void)sig; quit_signal = 1; }

enum { C_ERR = 1, C_WARN, C_INFO, C_HDR, C_SEL, C_HL, C_DIM };

/* Text at row y, column x, cut at the right edge: ncurses would wrap the
 * rest into the next row. Rows outside the screen are not drawn. */
static void put(int y, int x, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(int y, int x, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (y < 0 || y >= LINES || x < 0 || x >= COLS) return;
  mvaddnstr(y, x, buf, COLS - x);
}

static int last_row(const struct app *a);

/* The screen row of row y of a screen taller than the terminal (link
 * state, statistics, help), scrolled by info_top; -1 when not shown. */
static int irow(struct app *a, int y) {
  if (y + 1 > a->info_rows) a->info_rows = y + 1;
  int r = y - a->info_top;
  return r >= 1 && r <= last_row(a) ? r : -1;
}

static uint64_t mono_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* A file is read as fast as it goes: its arrival times mean nothing. */
static bool arrives_live(const struct app *a) { return a->src.kind != TUI_SRC_FILE; }

static void on_record(void *ctx, const uint8_t *rec, size_t len, uint64_t ts) {
  struct app *a = ctx;
  uint64_t wall = arrives_live(a) ? mono_ns() : 0;
  pthread_mutex_lock(&a->lock);
  if (!a->model.total) a->model.arrival_times = a->src.udp;  /* -F learns it from a header read late */
  tui_model_add(&a->model, rec, len, ts, wall);
  a->last_rec_s = wall / 1000000000u;
  pthread_mutex_unlock(&a->lock);
}

static void scan_record(void *ctx, const uint8_t *rec, size_t len, uint64_t ts) {
  struct scan *sc = ctx;
  tui_model_add(&sc->model, rec, len, ts, 0);
  if (sc->model.total >= sc->upto) sc->src.stop = true;
}

static void *scan_thread(void *arg) {
  struct scan *sc = arg;
  struct app *a = sc->a;
  tui_source_run(&sc->src);
  pthread_mutex_lock(&a->lock);
  if (!a->quitting && sc->gen == a->filter_gen && sc->model.total == sc->upto) {
    const struct tui_entry *e = tui_view_at(&a->model, a->only_matches, (size_t)a->sel);
    uint64_t frame = e ? e->frame : 0;
    tui_model_take_older_matches(&a->model, &sc->model);
    if (a->only_matches && e) a->sel = (long)tui_view_find(&a->model, true, frame);
  }
  if (a->scan == sc) a->scan = NULL;
  pthread_mutex_unlock(&a->lock);
  tui_source_close(&sc->src);
  tui_model_free(&sc->model);
  free(sc);
  return NULL;
}

/* With the lock held: starts a rescan for the model's filter when the ring
 * of a file has moved past its first records. */
static void start_scan(struct app *a) {
  if (a->scan) a->scan->src.stop = true; /* it scans for an older filter */
  a->scan = NULL;
  struct tui_model *m = &a->model;
  bool file = a->src.kind == TUI_SRC_FILE || a->src.kind == TUI_SRC_FOLLOW;
  if (!file || !m->filter.active || m->total <= m->cap) return;
  struct scan *sc = calloc(1, sizeof *sc);
  if (!sc || !tui_model_init_caps(&sc->model, 1, m->match_cap)) {
    free(sc);
    snprintf(a->status, sizeof a->status, "no memory to look for earlier matches");
    return;
  }
  sc->a = a;
  sc->upto = m->total - m->cap;
  sc->gen = a->filter_gen;
  tui_model_set_filter(&sc->model, &m->filter);
  sc->model.arrival_times = m->arrival_times;
  sc->src.kind = TUI_SRC_FILE;
  sc->src.path = a->src.path;
  sc->src.dlt = a->src.dlt;
  sc->src.port = a->src.port;
  sc->src.cb = scan_record;
  sc->src.ctx = sc;
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  if (!tui_source_open(&sc->src) || pthread_create(&t, &attr, scan_thread, sc) != 0) {
    snprintf(a->status, sizeof a->status, "cannot look for earlier matches: %.200s", sc->src.error);
    tui_source_close(&sc->src);
    tui_model_free(&sc->model);
    free(sc);
  } else {
    a->scan = sc;
  }
  pthread_attr_destroy(&attr);
}

static void on_end(void *ctx) {
  struct app *a = ctx;
  pthread_mutex_lock(&a->lock);
  a->src_ended = true;
  snprintf(a->src_msg, sizeof a->src_msg, "%s", a->src.error);
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
  const char *src = a->src.kind == TUI_SRC_LIVE ? "live" : a->src.kind == TUI_SRC_UDP ? "udp"
                    : a->src.kind == TUI_SRC_STDIN ? "stdin"
                    : a->src.kind == TUI_SRC_FOLLOW ? "follow" : "file";
  char state[48] = "";
  uint64_t now = mono_ns() / 1000000000u;
  if (a->src_msg[0]) snprintf(state, sizeof state, " | stopped");
  else if (a->scan) snprintf(state, sizeof state, " | looking for earlier matches");
  else if (a->src_ended) snprintf(state, sizeof state, " | %s", a->src.kind == TUI_SRC_FILE ? "end of file" : "ended");
  else if (arrives_live(a) && now - (a->model.total ? a->last_rec_s : a->started_s) >= 2)
    snprintf(state, sizeof state, " | nothing new for %" PRIu64 " s", now - (a->model.total ? a->last_rec_s : a->started_s));
  char lost[48] = "";
  if (a->src.udp_rx.lost || a->src.kernel_drops)
    snprintf(lost, sizeof lost, " | %" PRIu64 " lost", a->src.udp_rx.lost > a->src.kernel_drops ? a->src.udp_rx.lost
                                                                                                  : a->src.kernel_drops);
  char where[300];
  if (a->src.kind == TUI_SRC_UDP) snprintf(where, sizeof where, "%s:%d", a->src.path, a->src.port);
  else snprintf(where, sizeof where, "%s", a->src.kind == TUI_SRC_STDIN ? "-" : a->src.path);
  put(0, 0, " ualink-tui | %s | %s %s | %" PRIu64 " records%s%s%s%s", title, src, where, a->model.total, lost, state,
           a->paused ? " | PAUSED" : "", a->autoscroll ? " | autoscroll" : "");
  attroff(COLOR_PAIR(C_HDR) | A_BOLD);
  if (a->src_msg[0]) { /* a failed source stays on every screen, above the footer */
    if (a->color) attron(COLOR_PAIR(C_ERR));
    attron(A_BOLD);
    mvhline(LINES - 2, 0, ' ', COLS);
    put(LINES - 2, 0, " %s", a->src_msg);
    attroff(COLOR_PAIR(C_ERR) | A_BOLD);
  }
}

/* What an empty list says: why there is nothing to show yet. */
static void empty_reason(struct app *a, char *buf, size_t cap) {
  uint64_t waited = mono_ns() / 1000000000u - a->started_s;
  const char *name = a->src.kind == TUI_SRC_STDIN ? "stdin" : a->src.path;
  if (a->model.total && a->only_matches)
    snprintf(buf, cap, "no record matches the filter '%s' (f shows all records)", a->model.filter.text);
  else if (a->model.total)
    snprintf(buf, cap, " ");
  else if (a->src_msg[0])
    snprintf(buf, cap, "no records: %s", a->src_msg);
  else if (a->src_ended)
    snprintf(buf, cap, "%s holds no records", name);
  else if (a->src.kind == TUI_SRC_UDP)
    snprintf(buf, cap, "listening on UDP %s port %d: nothing received for %" PRIu64
             " s (is ualink-gen --udp sending to that port?)", a->src.path, a->src.port, waited);
  else if (a->src.kind == TUI_SRC_LIVE)
    snprintf(buf, cap, "listening on %s for UDP port %d: nothing received for %" PRIu64
             " s (is ualink-gen --udp sending to that port?)", a->src.path, a->src.port, waited);
  else if (a->src.kind == TUI_SRC_FOLLOW && a->src.header_pending)
    snprintf(buf, cap, "following %s: waiting for its pcap header (%" PRIu64 " s)", name, waited);
  else if (a->src.kind == TUI_SRC_FOLLOW)
    snprintf(buf, cap, "following %s: no records yet (%" PRIu64 " s)", name, waited);
  else
    snprintf(buf, cap, "waiting for records on %s (%" PRIu64 " s)", name, waited);
}

/* The bottom row: a status message, or the keys and the filter with its
 * match count. When the row is short the filter and its count stay and the
 * keys go; a filter too long for the row is cut before its count. */
static void footer_line(struct app *a) {
  static const char keys[] = "q quit  ? help  / filter  n/N next/prev  Enter detail  1-5 screens";
  attron(A_REVERSE);
  mvhline(LINES - 1, 0, ' ', COLS);
  if (a->status[0]) {
    put(LINES - 1, 0, " %s", a->status);
  } else if (a->model.filter.active) {
    char count[64];
    snprintf(count, sizeof count, "  (%" PRIu64 " records match)%s", a->model.n_matches,
             a->only_matches ? " (only matches)" : "");
    int room = COLS - 1 - (int)strlen("filter: ") - (int)strlen(count), flen = (int)strlen(a->model.filter.text);
    if (1 + (int)strlen(keys) + 2 <= room - flen)
      put(LINES - 1, 0, " %s  filter: %s%s", keys, a->model.filter.text, count);
    else if (flen <= room)
      put(LINES - 1, 0, " filter: %s%s", a->model.filter.text, count);
    else
      put(LINES - 1, 0, " filter: %.*s...%s", room > 3 ? room - 3 : 0, a->model.filter.text, count);
  } else if (a->info_rows - 1 - a->info_top > last_row(a)) {
    put(LINES - 1, 0, " more below: j/Down  %s", keys);
  } else {
    put(LINES - 1, 0, " %s", keys);
  }
  attroff(A_REVERSE);
}

/* ---- list ---- */

static int list_rows(struct app *a) { return LINES - 3 - (a->src_msg[0] != 0); }
/* The last row a screen may draw on: above the footer and a source's error. */
static int last_row(const struct app *a) { return LINES - 2 - (a->src_msg[0] != 0); }

/* The list shows a view: all records, or with f the match ring. */
static long view_count(struct app *a) { return (long)tui_view_count(&a->model, a->only_matches); }
static const struct tui_entry *view_at(struct app *a, long i) {
  return tui_view_at(&a->model, a->only_matches, (size_t)i);
}

static long step_visible(struct app *a, long i, int step) {
  long j = i + step, n = view_count(a);
  return j >= 0 && j < n ? j : i;
}

/* Switches between the views, keeping the selected frame (or the one before it). */
static void set_only_matches(struct app *a, bool only) {
  const struct tui_entry *e = view_at(a, a->sel);
  uint64_t frame = e ? e->frame : 0;
  a->only_matches = only;
  a->sel = (long)tui_view_find(&a->model, only, frame);
  a->top = 0;
}

/* Sets the filter and selects a match: the first one held (first), or the
 * first at or after the selected record. */
static void set_filter(struct app *a, const struct tui_filter *f, bool first, int rule) {
  const struct tui_entry *e = view_at(a, a->sel);
  uint64_t frame = first || !e ? 0 : e->frame;
  tui_model_set_filter(&a->model, f);
  a->filter_gen++;
  start_scan(a);
  if (!f->active) {
    a->only_matches = false;
    a->sel = (long)tui_view_find(&a->model, false, frame);
    return;
  }
  a->autoscroll = false;
  long from = frame ? tui_model_find_frame(&a->model, frame) : -1;
  long i = tui_model_next_match(&a->model, from < 0 ? -1 : from - 1, +1);
  if (i < 0) {
    snprintf(a->status, sizeof a->status, "no record held matches '%.200s'", f->text);
    a->sel = a->only_matches ? 0 : from < 0 ? 0 : from;
    return;
  }
  uint64_t hit = tui_model_at(&a->model, (size_t)i)->frame;
  if (first && rule >= 0 && hit != a->model.first_rule_frame[rule])
    snprintf(a->status, sizeof a->status, "%.120s: the first occurrence (frame %" PRIu64 ") is no longer in the ring",
             f->text, a->model.first_rule_frame[rule]);
  a->sel = a->only_matches ? (long)tui_view_find(&a->model, true, hit) : i;
}

static void list_fix_view(struct app *a) {
  long n = view_count(a);
  if (n == 0) { a->sel = a->top = 0; return; }
  if (a->autoscroll && !a->paused) a->sel = n - 1;
  if (a->sel >= n) a->sel = n - 1;
  if (a->sel < 0) a->sel = 0;
  int rows = list_rows(a);
  if (a->sel < a->top) a->top = a->sel;
  if (a->top < a->sel - rows + 1) a->top = a->sel - rows + 1;
  if (a->top > n - 1) a->top = n - 1;
}

static void list_draw(struct app *a) {
  header_line(a, "Flits");
  list_fix_view(a);
  attron(A_BOLD | A_UNDERLINE);
  bool links = tui_model_links(&a->model);   /* a switch, a Root Complex: which link each record is on */
  put(1, 0, "%-8s %-15s %-4s %s%-s", "Frame", "Time", "Dir", links ? "Link " : "", "Content");
  attroff(A_BOLD | A_UNDERLINE);
  long n = view_count(a);
  int y = 2;
  for (long i = a->top; i < n && y < 2 + list_rows(a); i++) {
    const struct tui_entry *e = view_at(a, i);
    char rules[64] = "";
    size_t k = 0;
    for (unsigned r = 0; r < e->n_rules && k + 24 < sizeof rules; r++)
      k += (size_t)snprintf(rules + k, sizeof rules - k, " %s", ual_rule_id((enum ual_rule)e->rules[r]));
    int pair = sev_color(e->sev);
    bool match = a->model.filter.active && e->match;
    if (i == a->sel) attron(COLOR_PAIR(C_SEL) | A_BOLD);
    else if (pair && a->color) attron(COLOR_PAIR(pair));
    if (match && i != a->sel) attron(A_BOLD);
    mvhline(y, 0, ' ', COLS);
    int64_t rel = tui_model_rel_ns(&a->model, e);
    uint64_t dt = rel < 0 ? 0 - (uint64_t)rel : (uint64_t)rel;
    char lk[8] = "";
    if (links && e->link == 255) snprintf(lk, sizeof lk, "L?   ");
    else if (links) snprintf(lk, sizeof lk, "L%-3u ", e->link);
    put(y, 0, "%-8" PRIu64 " %s%4" PRIu64 ".%09" PRIu64 " %-4s %s%s%s%s", e->frame, rel < 0 ? "-" : " ",
             dt / 1000000000u, dt % 1000000000u, e->dir ? "B>A" : "A>B", lk, e->line, e->n_rules ? " !" : "", rules);
    attroff(COLOR_PAIR(C_SEL) | COLOR_PAIR(pair) | A_BOLD);
    y++;
  }
  if (n == 0) {
    char why[640];
    empty_reason(a, why, sizeof why);
    char *hint = strstr(why, " (is ");   /* the question on a row of its own */
    if (hint) *hint = 0;
    put(3, 2, "%s", why);
    if (hint) put(4, 2, "%s", hint + 1);
  }
}

static void detail_open(struct app *a);

static bool list_key(struct app *a, int ch) {
  long n = view_count(a);
  int page = list_rows(a) - 1;
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
  const struct tui_entry *e = view_at(a, a->sel);
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
      put(1 + y, 0, "%04x %*s%s: %s", r->offset, (int)r->depth * 2, "", r->label, r->text);
    else
      put(1 + y, 0, "     %*s%s: %s", (int)r->depth * 2, "", r->label, r->text);
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
    if (i % 16 == 0) put(row, 0, "%04x", i);
    bool hl = cur && cur->length && i >= (int)cur->offset && i < (int)(cur->offset + cur->length);
    if (hl) attron(COLOR_PAIR(C_HL) | A_BOLD);
    put(row, col, "%02x", a->det_entry.rec[i]);
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

/* The model's links (core/views.h), one section each: the link as its
 * fabric names it, then its rows. */
struct sect {
  struct app *a;
  int y;
  const char *group;
};

/* A section's heading: the link's name, its fabric and link byte; the
 * columns are its sides (or directions). */
static void link_heading(struct sect *s, const struct ual_view_link *l, const char *col_a, const char *col_b) {
  char idx[16] = "";
  if (l->index != 255) snprintf(idx, sizeof idx, ", link %u", l->index);
  attron(A_BOLD);
  put(irow(s->a, s->y++), 2, "%s (%s%s)", l->name, ual_view_fabric_get(l->fabric)->name, idx);
  attroff(A_BOLD);
  if (col_a[0] || col_b[0]) put(irow(s->a, s->y++), 2, "%-34s %-26s %-26s", "", col_a, col_b);
}

static void state_row(void *ctx, const struct ual_view_row *r) {
  struct sect *s = ctx;
  if (r->group && (!s->group || strcmp(r->group, s->group) != 0)) {
    attron(A_UNDERLINE);
    put(irow(s->a, s->y++), 2, "%s", r->group);
    attroff(A_UNDERLINE);
  }
  s->group = r->group;
  char v[2][72];
  for (unsigned d = 0; d < 2; d++) {
    if (!r->known[d]) snprintf(v[d], sizeof v[d], "?");
    else snprintf(v[d], sizeof v[d], "%s%s%s", r->value[d], r->unit[0] ? " " : "", r->unit);
  }
  if (r->link_wide) put(irow(s->a, s->y++), 4, "%-32s %s", r->label, v[0]);
  else put(irow(s->a, s->y++), 4, "%-32s %-26s %-26s", r->label, v[0], v[1]);
}

/* The links with records of their own, in first-seen order. */
static int links_shown(const struct tui_model *m, unsigned *ks) {
  int n = 0;
  for (unsigned k = 0; k < m->vt->n; k++)
    if (tui_model_link_shown(m, k)) ks[n++] = k;
  if (!n)   /* nothing but link events yet */
    for (unsigned k = 0; k < m->vt->n; k++) ks[n++] = k;
  return n;
}

/* A screen of the model's links: its title, what the model reads, the links. */
struct links_view {
  struct ual_view_src src;
  unsigned ks[UAL_VIEW_LINKS];
  int n;
};

static void links_view(struct app *a, const char *title, struct links_view *v) {
  header_line(a, title);
  tui_model_view_src(&a->model, &v->src);
  v->n = links_shown(&a->model, v->ks);
}

static void link_draw(struct app *a) {
  const struct tui_model *m = &a->model;
  struct links_view v;
  links_view(a, "Link state", &v);
  int n = v.n;
  struct sect s = { a, 2, NULL };
  for (int i = 0; i < n; i++) {
    struct ual_view_link l;
    ual_view_link_get(&v.src, v.ks[i], &l);
    link_heading(&s, &l, l.side[0], l.side[1]);
    s.group = NULL;
    ual_view_state(&v.src, v.ks[i], state_row, &s);
    s.y++;
  }
  if (m->vt->other_links)
    put(irow(a, s.y++), 2, "%" PRIu64 " records of further links (more than %d)", m->vt->other_links, UAL_VIEW_LINKS);
  if (!n) put(irow(a, 3), 2, "no records yet");
}

/* ---- statistics ---- */

/* A rate per ns as a number per us, ms or s, whichever reads best. */
static void fmt_rate(char *buf, size_t cap, double per_ns) {
  if (per_ns <= 0) snprintf(buf, cap, "0");
  else if (per_ns * 1e3 >= 1) snprintf(buf, cap, "%.1f/us", per_ns * 1e3);
  else if (per_ns * 1e6 >= 1) snprintf(buf, cap, "%.1f/ms", per_ns * 1e6);
  else snprintf(buf, cap, "%.1f/s", per_ns * 1e9);
}

static void fmt_span(char *buf, size_t cap, uint64_t ns) {
  if (ns < 10000) snprintf(buf, cap, "%" PRIu64 " ns", ns);
  else if (ns < 10000000) snprintf(buf, cap, "%.1f us", ns / 1e3);
  else if (ns < 10000000000ull) snprintf(buf, cap, "%.1f ms", ns / 1e6);
  else snprintf(buf, cap, "%.1f s", ns / 1e9);
}

static uint64_t rate_field(const struct tui_rate *r, size_t field) {
  return *(const uint64_t *)((const char *)r + field);
}

/* A sparkline of vals after the text at row y, the newest columns when the
 * row is too short for all of them. */
static void spark_row(int y, const char *text, const uint64_t *vals, unsigned n) {
  static const char steps[] = " .:-=+*#";
  char buf[512];
  int k = snprintf(buf, sizeof buf, "%s[", text);
  int room = COLS - 2 - k - 1;
  unsigned from = room > 0 && n > (unsigned)room ? n - (unsigned)room : 0;
  uint64_t max = 0;
  for (unsigned i = 0; i < n; i++) if (vals[i] > max) max = vals[i];
  for (unsigned i = from; i < n && k + 2 < (int)sizeof buf; i++)
    buf[k++] = steps[max ? (vals[i] * 7 + max - 1) / max : 0];
  buf[k++] = ']';
  buf[k] = 0;
  put(y, 2, "%s", buf);
}

/* Rates over capture (link) time: the mean over the capture and one column
 * per bucket of the whole capture. */
static void link_spark(int y, const struct tui_model *m, size_t field, const char *label) {
  uint64_t span = tui_model_span_ns(m), vals[TUI_RATE_BUCKETS], peak = 0;
  unsigned n = m->link.used;
  for (unsigned i = 0; i < n; i++) {
    vals[i] = rate_field(&m->link.b[i], field);
    if (i + 1 < n && vals[i] > peak) peak = vals[i]; /* the last bucket is still filling */
  }
  if (n == 1) peak = vals[0];
  char mean[32] = "-", pk[32] = "-", text[96];
  if (span) fmt_rate(mean, sizeof mean, (double)rate_field(&m->sum, field) / (double)span);
  if (n > 1) fmt_rate(pk, sizeof pk, (double)peak / (double)m->link.width_ns);
  snprintf(text, sizeof text, "%-16s %12s %12s ", label, mean, pk);
  spark_row(y, text, vals, n);
}

/* Arrivals by wall-clock second, the last 60 s (live sources only). */
static void wall_spark(int y, const struct tui_model *m, uint64_t now_s, size_t field, const char *label) {
  uint64_t vals[TUI_RATE_BUCKETS];
  for (unsigned i = 0; i < TUI_RATE_BUCKETS; i++) {
    struct tui_rate r = tui_model_wall_rate(m, now_s, TUI_RATE_BUCKETS - 1 - i);
    vals[i] = rate_field(&r, field);
  }
  char text[96];
  snprintf(text, sizeof text, "%-16s %12" PRIu64 "/s ", label, vals[TUI_RATE_BUCKETS - 2]); /* the last whole second */
  spark_row(y, text, vals, TUI_RATE_BUCKETS);
}

struct counter_ctx {
  struct sect *s;
  unsigned table;
};

/* A counter row of the wanted table: its directions and their total. */
static void counter_row(void *ctx, const struct ual_view_counter *c) {
  struct counter_ctx *x = ctx;
  struct sect *s = x->s;
  if (c->table != x->table) return;
  int y = irow(s->a, s->y++);
  if (c->heading) {
    attron(A_UNDERLINE);
    put(y, 2 + (int)c->indent, "%s", c->label);
    attroff(A_UNDERLINE);
    return;
  }
  char v[3][32];
  for (unsigned d = 0; d < 2; d++) {
    if (c->table == UAL_VIEW_T_RATES) snprintf(v[d], sizeof v[d], "%.3g", c->x[d]);
    else snprintf(v[d], sizeof v[d], "%" PRIu64, c->v[d]);
  }
  if (c->no_total || c->table == UAL_VIEW_T_RATES) v[2][0] = 0;
  else snprintf(v[2], sizeof v[2], "%" PRIu64, c->v[0] + c->v[1]);
  char label[80];
  bool unit = c->unit[0] && !strstr(c->label, c->unit);   /* "latency (ns)" says it already */
  snprintf(label, sizeof label, "%*s%s%s%s%s", (int)c->indent, "", c->label, unit ? " (" : "", unit ? c->unit : "",
           unit ? ")" : "");
  put(y, 2, "%-44s %14s %14s %14s", label, v[0], v[1], v[2]);
}

static void stats_draw(struct app *a) {
  const struct tui_model *m = &a->model;
  struct links_view v;
  links_view(a, "Statistics", &v);
  int y = 2;
  /* the rates first: on screen without scrolling; then a section per link */
  static const struct { const char *label; size_t field; } series[] = {
    { "flits", offsetof(struct tui_rate, flits) },
    { "TL flits", offsetof(struct tui_rate, tl_flits) },
    { "Naks", offsetof(struct tui_rate, naks) },
    { "FEC corrections", offsetof(struct tui_rate, fec_corrected) },
  };
  char span[32], col[32];
  fmt_span(span, sizeof span, tui_model_span_ns(m));
  fmt_span(col, sizeof col, m->link.width_ns);
  attron(A_BOLD);
  put(irow(a, y++), 2, "Rates in link time (capture timestamps): %s captured", span);
  put(irow(a, y++), 2, "one column per %s, the newest right", col);
  attroff(A_BOLD);
  put(irow(a, y++), 2, "%-16s %12s %12s", "", "mean", "peak");
  for (size_t i = 0; i < sizeof series / sizeof series[0]; i++) link_spark(irow(a, y++), m, series[i].field, series[i].label);
  if (arrives_live(a)) {
    y++;
    attron(A_BOLD);
    put(irow(a, y++), 2, "Rates in wall-clock time (arrivals here)");
    put(irow(a, y++), 2, "one column per second, the last 60 s, the newest right");
    attroff(A_BOLD);
    put(irow(a, y++), 2, "%-16s %14s", "", "last second");
    uint64_t now_s = mono_ns() / 1000000000u;
    for (size_t i = 0; i < sizeof series / sizeof series[0]; i++)
      wall_spark(irow(a, y++), m, now_s, series[i].field, series[i].label);
  }
  y++;
  struct sect s = { a, y, NULL };
  static const char *const tables[] = { "By direction", "Rates over the capture", "By sender (the analysis' totals)" };
  for (int i = 0; i < v.n; i++) {
    struct ual_view_link l;
    ual_view_link_get(&v.src, v.ks[i], &l);
    for (unsigned t = 0; t < sizeof tables / sizeof tables[0]; t++) {
      int y0 = s.y;
      if (t == 0) link_heading(&s, &l, "", "");
      else s.y++;
      attron(A_BOLD);
      put(irow(a, s.y++), 2, "%-44s %14s %14s %14s", tables[t], t == UAL_VIEW_T_SENT_BY ? l.side[0] : l.dir[0],
          t == UAL_VIEW_T_SENT_BY ? l.side[1] : l.dir[1], t == UAL_VIEW_T_RATES ? "" : "total");
      attroff(A_BOLD);
      int y1 = s.y;
      struct counter_ctx x = { &s, t };
      ual_view_counters(&v.src, v.ks[i], counter_row, &x);
      if (s.y == y1 && t) s.y = y0;   /* a table the fabric has no rows in */
    }
    s.y++;
  }
  y = s.y;
  put(irow(a, y++), 2, "%-20s %14" PRIu64, "malformed", m->malformed);
  if (a->src.udp) {
    /* the export's sequence numbers say what was lost, the kernel what it dropped here */
    put(irow(a, y++), 2, "%-20s %14" PRIu64 "   in %" PRIu64 " gaps, %" PRIu64 " out of order", "lost (sequence)",
        a->src.udp_rx.lost, a->src.udp_rx.gaps, a->src.udp_rx.back);
    put(irow(a, y++), 2, "%-20s %14" PRIu64, "dropped (kernel)", a->src.kernel_drops);
  } else {
    put(irow(a, y++), 2, "%-20s %14" PRIu64, "dropped (capture)", a->src.kernel_drops);
  }
}

/* ---- transactions ---- */

/* The model's transactions (core/views.h): those the records ended and
 * those still open, one row each, sorted by the column s picks. */
enum txn_sort { TS_START, TS_END, TS_LATENCY, TS_STATUS, TS_LINK, TS_COUNT };
static const char *const txn_sort_name[TS_COUNT] = { "start", "end", "latency", "status", "link" };

struct txn_list {
  struct ual_view_txn *v;
  size_t n, cap;
};

static void txn_add_open(void *ctx, const struct ual_view_txn *t) {
  struct txn_list *l = ctx;
  if (l->n < l->cap) l->v[l->n++] = *t;
}

static enum txn_sort txn_sort_by;
static bool txn_sort_desc;

static int txn_cmp(const void *pa, const void *pb) {
  const struct ual_view_txn *a = pa, *b = pb;
  uint64_t x = 0, y = 0;
  switch (txn_sort_by) {
  case TS_START: x = a->start_frame, y = b->start_frame; break;
  case TS_END: x = a->end_frame ? a->end_frame : UINT64_MAX, y = b->end_frame ? b->end_frame : UINT64_MAX; break;
  case TS_LATENCY: x = a->latency_ns, y = b->latency_ns; break;
  case TS_STATUS: x = a->status, y = b->status; break;
  case TS_LINK: x = (uint64_t)a->fabric << 8 | a->index, y = (uint64_t)b->fabric << 8 | b->index; break;
  case TS_COUNT: break;
  }
  if (x == y) x = a->start_frame, y = b->start_frame;
  int c = x < y ? -1 : x > y;
  return txn_sort_desc ? -c : c;
}

/* Every transaction, sorted: the caller frees l->v. */
static void txn_collect(struct app *a, struct txn_list *l) {
  const struct tui_model *m = &a->model;
  l->cap = m->n_txns + 4096;
  l->n = 0;
  l->v = malloc(l->cap * sizeof *l->v);
  if (!l->v) { l->cap = 0; return; }
  if (m->n_txns) memcpy(l->v, m->txns, m->n_txns * sizeof *l->v);
  l->n = m->n_txns;
  struct ual_view_src src;
  tui_model_view_src(m, &src);
  for (unsigned k = 0; k < m->vt->n; k++) ual_view_open_txns(&src, k, txn_add_open, l);
  qsort(l->v, l->n, sizeof *l->v, txn_cmp);
}

static void txn_draw(struct app *a) {
  header_line(a, "Transactions");
  struct txn_list l;
  txn_collect(a, &l);
  bool links = tui_model_links(&a->model);
  put(1, 0, "sorted by %s%s (s: next column, r: reverse)   %zu transactions%s", txn_sort_name[txn_sort_by],
      txn_sort_desc ? ", descending" : "", l.n, a->model.txns_dropped ? " (more not kept)" : "");
  attron(A_BOLD | A_UNDERLINE);
  put(2, 0, "%-5s %-6s %-5s %-10s %-30s %9s %9s %15s %12s %-7s %s", "Link", "Fabric", "Side", "Kind", "What", "Start",
      "End", "Start time", "Latency ns", "Status", "Result");
  attroff(A_BOLD | A_UNDERLINE);
  int rows = last_row(a) - 2;
  if (a->txn_sel >= (long)l.n) a->txn_sel = l.n ? (long)l.n - 1 : 0;
  if (a->txn_sel < a->txn_top) a->txn_top = a->txn_sel;
  if (a->txn_sel >= a->txn_top + rows) a->txn_top = a->txn_sel - rows + 1;
  for (long i = a->txn_top; i < (long)l.n && 3 + i - a->txn_top <= last_row(a); i++) {
    const struct ual_view_txn *t = &l.v[i];
    int y = 3 + (int)(i - a->txn_top);
    char lk[8], end[24] = "-", lat[24] = "-", st[32] = "-";
    if (t->index == 255) snprintf(lk, sizeof lk, "L?");
    else snprintf(lk, sizeof lk, "L%u", t->index);
    if (t->end_frame) snprintf(end, sizeof end, "%" PRIu64, t->end_frame);
    if (t->latency_ns) snprintf(lat, sizeof lat, "%" PRIu64, t->latency_ns);
    if (t->start_ns && t->start_ns >= a->model.t0_ns) {
      uint64_t r = t->start_ns - a->model.t0_ns;
      snprintf(st, sizeof st, "%" PRIu64 ".%09" PRIu64, r / 1000000000u, r % 1000000000u);
    }
    const struct ual_view_fabric *f = ual_view_fabric_get(t->fabric);
    int pair = t->status == UAL_TXN_ERROR ? C_ERR : t->status == UAL_TXN_REJECT || t->status == UAL_TXN_OPEN ? C_WARN : 0;
    if (i == a->txn_sel) attron(COLOR_PAIR(C_SEL) | A_BOLD);
    else if (pair && a->color) attron(COLOR_PAIR(pair));
    mvhline(y, 0, ' ', COLS);
    put(y, 0, "%-5s %-6s %-5s %-10s %-30.30s %9" PRIu64 " %9s %15s %12s %-7s %s", links || t->index != 255 ? lk : "",
        f ? f->name : "?", t->side == 0 ? "A" : t->side == 1 ? "B" : "link", t->kind, t->what, t->start_frame, end, st,
        lat, ual_txn_status_name(t->status), t->result);
    attroff(COLOR_PAIR(C_SEL) | COLOR_PAIR(pair) | A_BOLD);
  }
  if (!l.n) put(4, 2, "no transactions (negotiations, requests and completions, retry episodes)");
  free(l.v);
}

static const struct screen list_screen;

static bool txn_key(struct app *a, int ch) {
  int page = last_row(a) - 3;
  switch (ch) {
  case 's': txn_sort_by = (enum txn_sort)((txn_sort_by + 1) % TS_COUNT); return true;
  case 'r': txn_sort_desc = !txn_sort_desc; return true;
  case KEY_UP: case 'k': if (a->txn_sel > 0) a->txn_sel--; return true;
  case KEY_DOWN: case 'j': a->txn_sel++; return true;
  case KEY_PPAGE: case 'b': a->txn_sel = a->txn_sel > page ? a->txn_sel - page : 0; return true;
  case KEY_NPAGE: case ' ': a->txn_sel += page; return true;
  case KEY_HOME: case 'g': a->txn_sel = 0; return true;
  case KEY_END: case 'G': a->txn_sel = LONG_MAX / 2; return true;
  case '\n': case KEY_ENTER: {   /* the list at the transaction's start */
    struct txn_list l;
    txn_collect(a, &l);
    if (a->txn_sel < (long)l.n) {
      a->autoscroll = false;
      a->sel = (long)tui_view_find(&a->model, a->only_matches, l.v[a->txn_sel].start_frame);
      a->screen = &list_screen;
    }
    free(l.v);
    return true;
  }
  }
  return false;
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
  put(1, 0, "%-24s %-8s %10s %10s  %s", "Rule", "Severity", "Count", "First", "What");
  if (a->findings_sel >= n) a->findings_sel = n ? n - 1 : 0;
  for (int i = 0; i < n && 2 + i <= last_row(a); i++) {
    enum ual_rule r = (enum ual_rule)rules[i];
    int pair = sev_color(ual_rule_severity(r));
    if (i == a->findings_sel) attron(COLOR_PAIR(C_SEL) | A_BOLD);
    else if (a->color) attron(COLOR_PAIR(pair));
    mvhline(2 + i, 0, ' ', COLS);
    put(2 + i, 0, "%-24s %-8s %10" PRIu64 " %10" PRIu64 "  %s", ual_rule_id(r),
             ual_severity_name(ual_rule_severity(r)), a->model.rule_counts[r], a->model.first_rule_frame[r],
             ual_rule_what(r));
    attroff(COLOR_PAIR(C_SEL) | COLOR_PAIR(pair) | A_BOLD);
  }
  if (!n) put(3, 2, "no findings");
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
    char expr[64];
    snprintf(expr, sizeof expr, "ualink.rule == \"%s\"", ual_rule_id((enum ual_rule)rules[a->findings_sel]));
    struct tui_filter f;
    tui_filter_parse(&f, expr, NULL, 0);
    set_filter(a, &f, true, rules[a->findings_sel]);
    tui_filter_free(&f);
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
    "1 flit list   2 link state   3 statistics   4 findings   5 transactions   ? help",
    "             screens 2 and 3 have a section per link; the list a Link column",
    "             when the capture has more than one link",
    "5            s sorts by the next column (start, end, latency, status, link),",
    "             r reverses, Enter shows the transaction's start in the list",
    "Tab          next screen",
    "Up/Down j/k, PgUp/PgDn, Home/End g/G   move (scroll on screens 2, 3, ?)",
    "Enter        detail of the selected record (Esc or q back)",
    "/            display filter, as in Wireshark:",
    "               ualink.rec.dir == \"B>A\" && ualink.rule == \"RP-NAK\"",
    "               ualink.flit.kind == NOP, ualink.severity == \"error\"",
    "               frame.number in {10..20}   (fields: ualink-decode -G fields)",
    "             the old filter is selected: typing replaces it, Enter keeps",
    "             it, an empty one clears it",
    "             editing: Left/Right Home/End (Ctrl-B/F/A/E), Alt-B/F words,",
    "             Backspace, Delete, Ctrl-U/Ctrl-K delete to the start/end,",
    "             Ctrl-W the word before, Ctrl-Y puts it back, Esc cancels",
    "n / N        next / previous match",
    "f            show only matches (toggle): the last --ring matches stay",
    "a            autoscroll (toggle)        p  pause display (toggle)",
    "q            quit",
  };
  for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) put(irow(a, 2 + (int)i), 2, "%s", lines[i]);
}

/* Link state, statistics, help: scrolled when taller than the terminal. */
static bool info_key(struct app *a, int ch) {
  int page = last_row(a) - 1, max = a->info_rows - 1 - last_row(a);
  switch (ch) {
  case KEY_UP: case 'k': a->info_top--; break;
  case KEY_DOWN: case 'j': a->info_top++; break;
  case KEY_PPAGE: case 'b': a->info_top -= page; break;
  case KEY_NPAGE: case ' ': a->info_top += page; break;
  case KEY_HOME: case 'g': a->info_top = 0; break;
  case KEY_END: case 'G': a->info_top = max; break;
  default: return false;
  }
  if (a->info_top > max) a->info_top = max;
  if (a->info_top < 0) a->info_top = 0;
  return true;
}

static const struct screen list_screen = { "list", list_draw, list_key };
static const struct screen detail_screen = { "detail", detail_draw, detail_key };
static const struct screen link_screen = { "link", link_draw, info_key };
static const struct screen stats_screen = { "stats", stats_draw, info_key };
static const struct screen findings_screen = { "findings", findings_draw, findings_key };
static const struct screen help_screen = { "help", help_draw, info_key };
static const struct screen txn_screen = { "transactions", txn_draw, txn_key };
static const struct screen *const screens[] = { &list_screen, &link_screen, &stats_screen, &findings_screen, &txn_screen };
#define N_SCREENS (sizeof screens / sizeof screens[0])

static enum tui_lkey line_key(int ch, bool *alt) {
  bool was_alt = *alt;
  *alt = false;
  if (was_alt) {
    if (ch == 'b' || ch == 'B') return TUI_LK_WORD_LEFT;
    if (ch == 'f' || ch == 'F') return TUI_LK_WORD_RIGHT;
    if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) return TUI_LK_KILL_WORD;
    return TUI_LK_IGNORE;
  }
  switch (ch) {
  case '\n': case '\r': case KEY_ENTER: return TUI_LK_ENTER;
  case 27: return TUI_LK_CANCEL;           /* an Esc not followed by a key in time */
  case 7: return TUI_LK_CANCEL;            /* Ctrl-G */
  case KEY_BACKSPACE: case 127: case 8: return TUI_LK_BACKSPACE;
  case KEY_DC: case 4: return TUI_LK_DELETE;
  case KEY_LEFT: case 2: return TUI_LK_LEFT;
  case KEY_RIGHT: case 6: return TUI_LK_RIGHT;
  case KEY_HOME: case 1: return TUI_LK_HOME;
  case KEY_END: case 5: return TUI_LK_END;
  case 21: return TUI_LK_KILL_START;       /* Ctrl-U */
  case 11: return TUI_LK_KILL_END;         /* Ctrl-K */
  case 23: return TUI_LK_KILL_WORD;        /* Ctrl-W */
  case 25: return TUI_LK_YANK;             /* Ctrl-Y */
  }
  return ch >= 32 && ch < 127 ? TUI_LK_CHAR : TUI_LK_IGNORE;
}

/* Edits a line at the bottom, starting from buf; returns false when cancelled. */
/* Checks the filter being typed: the message and a caret under the token
 * on the two lines above the prompt (col: where the text starts). */
static void filter_live(const char *text, int col) {
  struct tui_filter f;
  struct ual_filter_error err;
  bool ok = tui_filter_compile(&f, text, &err);
  tui_filter_free(&f);
  mvhline(LINES - 3, 0, ' ', COLS);
  mvhline(LINES - 2, 0, ' ', COLS);
  if (ok) {
    put(LINES - 2, 0, "%s", f.text[0] ? "valid filter (Enter sets it)" : "empty: Enter clears the filter");
    return;
  }
  attron(A_BOLD);
  put(LINES - 3, 0, "%s", err.msg);
  attroff(A_BOLD);
  if (err.pos >= 0 && col + err.pos < COLS) {
    move(LINES - 2, col + err.pos);
    addch('^');
    for (int i = 1; i < err.len && col + err.pos + i < COLS; i++) addch('~');
  }
}

static bool prompt(const char *label, char *buf, size_t cap, bool live) {
  struct tui_line l;
  tui_line_start(&l, buf, cap);
  timeout(-1);
  curs_set(1);
  bool alt = false;
  enum tui_lresult res = TUI_LR_EDITING;
  while (res == TUI_LR_EDITING) {
    int w = COLS - (int)strlen(label) - 1, from = (int)l.cur > w ? (int)l.cur - w : 0;
    attron(A_REVERSE);
    mvhline(LINES - 1, 0, ' ', COLS);
    put(LINES - 1, 0, "%s", label);
    if (l.selected) attroff(A_REVERSE); /* the old text shows selected: typing replaces it */
    printw("%.*s", w, l.buf + from);
    attroff(A_REVERSE);
    if (live) filter_live(l.buf, (int)strlen(label) - from);
    move(LINES - 1, (int)strlen(label) + (int)l.cur - from);
    refresh();
    int ch = getch();
    if (ch == 27) {                     /* Esc alone cancels; Esc then a key is Alt-key */
      timeout(25);
      int next = getch();
      timeout(-1);
      if (next != ERR) {
        alt = true;
        ch = next;
      }
    }
    if (ch == KEY_RESIZE) continue;
    res = tui_line_key(&l, line_key(ch, &alt), ch);
  }
  curs_set(0);
  timeout(100);
  if (res != TUI_LR_ACCEPT) return false;
  memcpy(buf, l.buf, l.len + 1);
  return true;
}

static bool global_key(struct app *a, int ch) {
  switch (ch) {
  case 'q': return false;
  case '1': case '2': case '3': case '4': case '5': a->screen = screens[ch - '1']; a->info_top = 0; return true;
  case '?': a->screen = &help_screen; a->info_top = 0; return true;
  case '\t': {
    size_t i = 0;
    while (i < N_SCREENS && screens[i] != a->screen) i++;
    a->screen = screens[(i + 1) % N_SCREENS];
    a->info_top = 0;
    return true;
  }
  case 'a': a->autoscroll = !a->autoscroll; return true;
  case 'p': a->paused = !a->paused; return true;
  case 'f':
    pthread_mutex_lock(&a->lock);
    if (!a->model.filter.active) snprintf(a->status, sizeof a->status, "f shows only matches: set a filter with / first");
    else set_only_matches(a, !a->only_matches);
    pthread_mutex_unlock(&a->lock);
    return true;
  case '/': {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", a->model.filter.text);
    if (!prompt("filter: ", buf, sizeof buf, true)) return true;
    char err[300];
    struct tui_filter f;
    pthread_mutex_lock(&a->lock);
    if (tui_filter_parse(&f, buf, err, sizeof err)) set_filter(a, &f, false, -1);
    else snprintf(a->status, sizeof a->status, "%.150s (the filter stays '%.80s')", err, a->model.filter.text);
    tui_filter_free(&f);
    pthread_mutex_unlock(&a->lock);
    a->screen = &list_screen;
    return true;
  }
  case 'n': case 'N': {
    pthread_mutex_lock(&a->lock);
    long i = -1;
    if (a->only_matches) { /* every row is a match */
      long j = a->sel + (ch == 'n' ? 1 : -1);
      if (j >= 0 && j < view_count(a)) i = j;
    } else {
      i = tui_model_next_match(&a->model, a->sel, ch == 'n' ? +1 : -1);
    }
    if (i >= 0) { a->sel = i; a->autoscroll = false; }
    else snprintf(a->status, sizeof a->status, "no %s match", ch == 'n' ? "next" : "previous");
    pthread_mutex_unlock(&a->lock);
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
          "       ualink-tui -u ADDR [--port N]  receive the UDP export on a socket (ADDR 127.0.0.1, ::, ...)\n"
          "options:\n"
          "  --port N, --udp-port N\n"
          "               UDP port of the export, live and in captures of it (default %d)\n"
          "  --dlt N      link type of capture files (default %d); a capture of the UDP\n"
          "               export (Ethernet, Linux cooked, raw IP) is read as well\n"
          "  --ring N     records kept for scrolling (default 200000); counters stay exact\n"
          "  --no-color   no colours (also NO_COLOR)\n"
          "  -h, --help   this help;  --version\n"
          "exit status: 0 ok, 2 usage or input error\n"
          "man ualink-tui has the screens and keys\n",
          UAL_UDP_PORT, UAL_DLT_USER0);
}

/* A whole decimal number in [lo, hi], or false. */
static bool parse_num(const char *s, unsigned long long lo, unsigned long long hi, unsigned long long *out) {
  if (!s[0] || s[0] == '-' || s[0] == '+') return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno || v < lo || v > hi) return false;
  *out = v;
  return true;
}

int main(int argc, char **argv) {
  static struct app a;
  size_t ring = 200000;
  bool follow = false;
  const char *iface = NULL, *listen_on = NULL;
  a.src.port = UAL_UDP_PORT;
  a.src.dlt = UAL_DLT_USER0;
  a.color = getenv("NO_COLOR") == NULL;
  static const struct option opts[] = {
    { "port", required_argument, 0, 'P' }, { "udp-port", required_argument, 0, 'P' }, { "dlt", required_argument, 0, 'D' },
    { "ring", required_argument, 0, 'R' }, { "no-color", no_argument, 0, 'C' }, { "udp", required_argument, 0, 'u' },
    { "help", no_argument, 0, 'h' }, { "version", no_argument, 0, 'V' }, { 0, 0, 0, 0 } };
  int c, bad = 0;
  unsigned long long v;
  opterr = 0; /* each problem is reported below, in one style */
  while ((c = getopt_long(argc, argv, ":Fi:u:h", opts, NULL)) != -1) {
    switch (c) {
    case 'F': follow = true; break;
    case 'i': iface = optarg; break;
    case 'u': listen_on = optarg; break;
    case 'P':
      if (parse_num(optarg, 1, 65535, &v)) a.src.port = (int)v;
      else { fprintf(stderr, "ualink-tui: --port: '%s' is not a UDP port (1..65535)\n", optarg); bad++; }
      break;
    case 'D':
      if (parse_num(optarg, 147, 162, &v)) a.src.dlt = (int)v;
      else { fprintf(stderr, "ualink-tui: --dlt: '%s' is not a USER link type (147..162)\n", optarg); bad++; }
      break;
    case 'R':
      if (parse_num(optarg, 1, SIZE_MAX / sizeof(struct tui_entry), &v)) ring = (size_t)v;
      else { fprintf(stderr, "ualink-tui: --ring: '%s' is not a positive count of records\n", optarg); bad++; }
      break;
    case 'C': a.color = false; break;
    case 'h': usage(stdout); return 0;
    case 'V': printf("ualink-tui %s\n", UAL_VERSION_STRING); return 0;
    case ':':
      fprintf(stderr, "ualink-tui: option '%s' needs a value\n", argv[optind - 1]);
      bad++;
      break;
    default:
      if (optopt) fprintf(stderr, "ualink-tui: unknown option '-%c'\n", optopt);
      else fprintf(stderr, "ualink-tui: unknown option '%.*s'\n", (int)strcspn(argv[optind - 1], "="), argv[optind - 1]);
      bad++;
      break;
    }
  }
  if (iface && listen_on) {
    fprintf(stderr, "ualink-tui: -i %s and -u %s: one source at a time\n", iface, listen_on);
    bad++;
  } else if (listen_on && optind < argc) {
    fprintf(stderr, "ualink-tui: -u %s receives live: no FILE with it ('%s')\n", listen_on, argv[optind]);
    bad++;
  } else if (iface && optind < argc) {
    fprintf(stderr, "ualink-tui: -i %s captures live: no FILE with it ('%s')\n", iface, argv[optind]);
    bad++;
  } else if (optind + 1 < argc) {
    fprintf(stderr, "ualink-tui: one capture at a time: '%s' is extra\n", argv[optind + 1]);
    bad++;
  } else if (!iface && !listen_on && optind == argc && !bad) {
    usage(stderr);
    return 2;
  }
  if (bad) {
    fprintf(stderr, "ualink-tui: --help lists the options\n");
    return 2;
  }
  if (iface) {
    a.src.kind = TUI_SRC_LIVE;
    a.src.path = iface;
  } else if (listen_on) {
    a.src.kind = TUI_SRC_UDP;
    a.src.path = listen_on;
  } else {
    a.src.path = argv[optind];
    a.src.kind = strcmp(a.src.path, "-") == 0 ? TUI_SRC_STDIN : follow ? TUI_SRC_FOLLOW : TUI_SRC_FILE;
  }
  if (!tui_model_init(&a.model, ring)) {
    fprintf(stderr, "ualink-tui: cannot allocate a ring of %zu records\n", ring);
    return 2;
  }
  a.src.cb = on_record;
  a.src.end = on_end;
  a.src.ctx = &a;
  if (!tui_source_open(&a.src)) {
    fprintf(stderr, "ualink-tui: %s\n", a.src.error);
    return 2;
  }
  a.model.arrival_times = a.src.udp;
  /* The keyboard is the terminal itself when stdin is the pcap stream or not a terminal. */
  FILE *tty = a.src.kind == TUI_SRC_STDIN || !isatty(STDIN_FILENO) ? fopen("/dev/tty", "r+") : NULL;
  if (!isatty(STDOUT_FILENO) || (!tty && !isatty(STDIN_FILENO))) {
    fprintf(stderr, "ualink-tui: needs a terminal (ualink-decode writes decodes to files and pipes)\n");
    tui_source_close(&a.src);
    return 2;
  }
  pthread_mutex_init(&a.lock, NULL);
  a.autoscroll = a.src.kind != TUI_SRC_FILE;
  a.started_s = mono_ns() / 1000000000u;
  a.screen = &list_screen;

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);

  setlocale(LC_ALL, ""); /* ncursesw draws lines and the like in the terminal's encoding */
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

  bool run = true, note_shown = false;
  while (run && !quit_signal) {
    pthread_mutex_lock(&a.lock);
    if (!note_shown && __atomic_load_n(&a.src.note_set, __ATOMIC_ACQUIRE)) { /* the source's note, once */
      const char *name = a.src.kind == TUI_SRC_STDIN ? "-" : strrchr(a.src.path, '/') ? strrchr(a.src.path, '/') + 1
                                                                                       : a.src.path;
      snprintf(a.status, sizeof a.status, "%.40s: %s", name, a.src.note);
      note_shown = true;
    }
    erase();
    a.info_rows = 0;
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
  pthread_mutex_lock(&a.lock);
  a.quitting = true; /* a rescan still running leaves the model alone */
  if (a.scan) a.scan->src.stop = true;
  pthread_mutex_unlock(&a.lock);
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
