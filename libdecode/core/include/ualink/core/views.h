/* The presentation model: what every front-end shows of a capture, per
 * fabric and per link, without knowing the fabric.
 *
 * A fabric m registers its view in its kinds.h (joined in core/fabrics.h):
 *
 *   #define UAL_PCIE_VIEWS(X) X(pcie)
 *
 * and defines `const struct ual_view_fabric ual_view_pcie` (its views.c)
 * and, in a public header included below, `struct ual_pcie_tally`: the
 * counters it keeps of the records a front-end selected.
 *
 * The model has five parts, each read from the analysis state or from the
 * records' results; nothing is allocated and nothing is kept in globals:
 *
 *   links         (fabric, the record header's link byte), named by the
 *                 fabric from its state ("RP0 <-> EP", "link 1"), with its
 *                 two sides' names; struct ual_view_tally lists them in
 *                 the order their first record came
 *   state rows    ual_view_state: label, a value per side (or one for the
 *                 link), unit; "unknown" until the analysis knows it
 *   counters      ual_view_counters: the tally's generic rows (records,
 *                 findings) and the fabric's own, with units and keys
 *   lanes         the fabric's table of timeline lanes (state, level and
 *                 marker lanes); ual_view_marks says what a record and its
 *                 timeline events put on them
 *   transactions  ual_view_txns: the exchanges a record ends (a
 *                 negotiation's outcome, a request's last completion, a
 *                 retry episode's end) as rows of one table;
 *                 ual_view_open_txns: those still open at the end
 *
 * A front-end:
 *
 *   struct ual_view_tally t;                     // by value, ~40 KB: not on the stack
 *   ual_view_tally_init(&t);
 *   for each record r (after the analyzer's step), its events ev:
 *     int k = ual_view_tally_add(&t, &r, ts_ns, selected);   // k: its link slot
 *     n = ual_view_marks(&t, k, &r, &ev, marks, cap);         // lanes
 *     n = ual_view_txns(&t, k, &r, ts_ns, &ev, txns, UAL_VIEW_MAX_TXNS);  // transactions it ended
 *   struct ual_view_src src;  ual_analyzer_view_src(&an, &t, &src);   // ualink/analysis.h
 *   for (k = 0; k < t.n; k++) {
 *     struct ual_view_link l;  ual_view_link_get(&src, k, &l);
 *     ual_view_state(&src, k, row_fn, ctx);
 *     ual_view_counters(&src, k, counter_fn, ctx);
 *     ual_view_open_txns(&src, k, txn_fn, ctx);
 *     lanes: ual_view_fabric_get(l.fabric)->lanes[0 .. n_lanes)
 *   }
 */
#ifndef UALINK_CORE_VIEWS_H
#define UALINK_CORE_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ualink/core/analysis.h"
#include "ualink/core/events.h"
#include "ualink/core/rules.h"
/* The fabrics' tallies (struct ual_view_link_tally holds them by value). */
#include "ualink/ualink/views.h"
#include "ualink/pcie/views.h"
#include "ualink/ub/views.h"

enum ual_view_fabric_id {
#define UAL_X_(m) UAL_VF_##m,
  UAL_FABRIC_VIEWS(UAL_X_)
#undef UAL_X_
  UAL_VF_COUNT
};

#define UAL_VIEW_LINKS 8          /* links one tally tells apart; later ones are counted in other_links */
#define UAL_VIEW_LINKWIDE 2       /* a row, lane or mark of the link, not of one side (= UAL_PARTNER_LINK) */
#define UAL_VIEW_UNKNOWN "unknown"

/* ---- links ---- */

struct ual_view_link {
  uint8_t fabric;                 /* enum ual_view_fabric_id */
  uint8_t index;                  /* the records' link byte */
  char name[48];                  /* "RP0 <-> EP", "link 1": how the fabric names it */
  char side[2][24];               /* the ends: "Root Port", "Endpoint", "Accelerator", "A" */
  char dir[2][8];                 /* the directions: "A>B", "B>A" */
};

/* ---- counters ---- */

/* What every fabric counts per direction of a link. */
struct ual_view_dir_tally {
  uint64_t records, malformed, events, after_lost;
  uint64_t sev[3];
  uint64_t rules[UAL_R_COUNT];
  uint64_t findings_dropped;
  uint64_t first_ts, last_ts;     /* 0 = none seen */
};

struct ual_view_link_tally {
  uint8_t fabric, index;
  uint64_t seen;                  /* records of the link, selected or not */
  uint64_t owned;                 /* of them, records of the fabric's own kinds (not link events, not malformed) */
  struct ual_view_dir_tally d[2]; /* the selected records */
  union {
#define UAL_X_(m) struct ual_##m##_tally m;
    UAL_FABRIC_VIEWS(UAL_X_)
#undef UAL_X_
  } f;
};

struct ual_view_tally {
  unsigned n;                     /* links seen */
  uint64_t other_links;           /* records of links beyond UAL_VIEW_LINKS */
  struct ual_view_dir_tally other[2];   /* their generic counts (selected ones) */
  struct ual_view_link_tally l[UAL_VIEW_LINKS];
};

/* The tables counters go to: what the selected records carried, by
 * direction, with a total; rates over the capture's span (real values);
 * the analysis' totals by the side that sent them. */
enum ual_view_table { UAL_VIEW_T_RECORDS, UAL_VIEW_T_RATES, UAL_VIEW_T_SENT_BY };

/* One counter row, in display order within its table: a heading, or a
 * value per direction (A>B, B>A) that the renderers total unless
 * no_total. */
struct ual_view_counter {
  uint8_t table;                  /* enum ual_view_table */
  const char *key;                /* dotted key under the link in --stats --json; NULL none; valid during the callback */
  const char *label;              /* valid during the callback */
  const char *unit;               /* "flits", "ns", "bytes", "" */
  unsigned indent;                /* nesting under the last heading: 0, 2, 4 */
  bool heading;
  bool per_rule;                  /* the "Findings by rule" rows */
  bool no_total;                  /* a maximum, mean or frame: A and B do not add up */
  uint64_t v[2];
  double x[2];                    /* UAL_VIEW_T_RATES: the values */
};
typedef void (*ual_view_counter_fn)(void *ctx, const struct ual_view_counter *c);

/* ---- state rows ---- */

struct ual_view_row {
  const char *group;              /* the heading it belongs under ("Link", "Flow control VC0"), NULL none */
  const char *label;              /* "LTSSM", "rate"; valid during the callback */
  const char *unit;               /* "GT/s", "lanes", "credits", "" */
  bool link_wide;                 /* one value (value[0]) for the link */
  bool known[2];
  char value[2][48];              /* UAL_VIEW_UNKNOWN when not known */
};
typedef void (*ual_view_row_fn)(void *ctx, const struct ual_view_row *r);

/* For the fabrics' state(): rows of one group go to fn, and a row of one
 * text per side (NULL: unknown). */
struct ual_view_rows {
  ual_view_row_fn fn;
  void *ctx;
  const char *group;
};
void ual_view_row_put(const struct ual_view_rows *w, const char *label, const char *unit, bool link_wide, const char *a,
                      const char *b);

/* ---- timeline lanes ---- */

enum ual_view_lane_type {
  UAL_LANE_STATE,                 /* a band per state: value 0..n_states-1, 0 unknown */
  UAL_LANE_LEVEL,                 /* a value that changes (rate code, lanes): 0 unknown */
  UAL_LANE_MARKS,                 /* counted markers per time bin */
};

struct ual_view_lane {
  const char *key;                /* stable: "ltssm", "nak" (JSON, CSS classes, tests) */
  const char *title;              /* "LTSSM", "Naks" */
  uint8_t type;                   /* enum ual_view_lane_type */
  uint8_t link_wide;              /* one lane for the link instead of one per side */
  uint8_t n_states;               /* STATE: how many */
  const char *(*value_name)(unsigned v);   /* STATE, LEVEL: a value's text ("L0", "64.0 GT/s") */
  const char *color;              /* MARKS: the marker colour; STATE: NULL (renderer's palette) */
};

/* What a record puts on a lane. */
struct ual_view_mark {
  uint8_t lane;                   /* index in the fabric's lanes */
  uint8_t side;                   /* 0, 1 or UAL_VIEW_LINKWIDE */
  int32_t value;                  /* STATE/LEVEL: the value from this record on; MARKS: a count */
};
/* For the fabrics' marks(): one mark into out[n] when it fits; the new n. */
unsigned ual_view_mark_put(struct ual_view_mark *out, unsigned n, unsigned cap, unsigned lane, unsigned side, int32_t v);
#define UAL_VIEW_MAX_MARKS 32

/* ---- transactions ---- */

#define UAL_TXN_STATUSES(X) \
  X(OK,      "ok")       /* answered and accepted: Ack, complete, a successful completion */ \
  X(REJECT,  "reject")   /* answered and refused: Nack, UR, CA, CRS */ \
  X(DEFERRED, "deferred") /* answered for later: UALink's Decision Pending (the responder asks next) */ \
  X(ERROR,   "error")    /* went wrong: no confirmation, a malformed answer, a retry that failed */ \
  X(OPEN,    "open")     /* no answer by the end of the capture */

enum ual_txn_status {
#define UAL_X_(e, n) UAL_TXN_##e,
  UAL_TXN_STATUSES(UAL_X_)
#undef UAL_X_
  UAL_TXN_COUNT
};
const char *ual_txn_status_name(unsigned s);

struct ual_view_txn {
  uint8_t fabric, index;          /* its link */
  uint8_t side;                   /* the requester: 0, 1, UAL_VIEW_LINKWIDE */
  uint8_t status;                 /* enum ual_txn_status */
  uint16_t parts;                 /* answers it took (split completions), 0 none */
  uint64_t start_frame, end_frame;   /* end 0: none */
  uint64_t start_ns, end_ns;      /* 0 unknown */
  uint64_t latency_ns;            /* start to end, 0 unknown */
  char kind[24];                  /* what was asked: "MRd", "width", "retry" */
  char what[96];                  /* its detail: "tag 0x012 64 B", "x4" (a timeline line fits) */
  char result[32];                /* the answer: "CplD SC", "ack", "nack" */
};

typedef void (*ual_view_txn_fn)(void *ctx, const struct ual_view_txn *t);
#define UAL_VIEW_MAX_TXNS 64      /* transactions one record ends, at most */

/* ---- a fabric's registration ---- */

struct ual_view_src;

struct ual_view_fabric {
  const char *name;               /* "UALink", "PCIe", "UB" */
  const char *key;                /* "ualink", "pcie", "ub" */
  /* Its record kinds (not link events, which go by link). */
  bool (*owns)(unsigned kind);
  /* Names link k (l->fabric, l->index set) and its sides from the state. */
  void (*name_link)(const struct ual_view_src *s, unsigned k, struct ual_view_link *l);
  /* Counts a selected record into the fabric's tally (not link events). */
  void (*tally)(struct ual_view_link_tally *t, const struct ual_rec_result *r);
  void (*state)(const struct ual_view_src *s, unsigned k, ual_view_row_fn fn, void *ctx);
  /* The state in one line ("A:L0 x8 128 ch0=on | B:..."); returns the
   * length needed. */
  int (*state_line)(const struct ual_view_src *s, unsigned k, char *buf, size_t cap);
  /* Its records by kind (rows under "Records", before link events and
   * malformed records), and its counter rows after them (before the
   * findings), in every table. */
  void (*kinds)(const struct ual_view_src *s, unsigned k, ual_view_counter_fn fn, void *ctx);
  void (*counters)(const struct ual_view_src *s, unsigned k, ual_view_counter_fn fn, void *ctx);
  const struct ual_view_lane *lanes;
  unsigned n_lanes;
  /* What record r and the events of its step put on the lanes. */
  unsigned (*marks)(const struct ual_rec_result *r, const struct ual_events *ev, struct ual_view_mark *out,
                    unsigned cap);
  /* The transactions r ended (from its result and its step's events). */
  unsigned (*txns)(const struct ual_rec_result *r, const struct ual_events *ev, struct ual_view_txn *out,
                   unsigned cap);
  /* Link k's transactions still open (requests without an answer), from
   * the state. */
  void (*open_txns)(const struct ual_view_src *s, unsigned k, ual_view_txn_fn fn, void *ctx);
  /* Its analysis follows one link: its records are one link whatever
   * their link byte (the first one names it). */
  bool one_link;
};

#define UAL_X_(m) extern const struct ual_view_fabric ual_view_##m;
UAL_FABRIC_VIEWS(UAL_X_)
#undef UAL_X_

/* What the model reads: the registered analyses, the top-level analyzer's
 * (UALink's trackers, NULL when stateless) and the tally. The top level
 * fills it: ual_analyzer_view_src (ualink/analysis.h). */
struct ual_analyzer;
struct ual_view_src {
  const struct ual_fabric_an *fab;
  const struct ual_analyzer *top;
  const struct ual_view_tally *tally;
};

const struct ual_view_fabric *ual_view_fabric_get(unsigned id);   /* NULL out of range */
/* The fabric whose records r is: by kind; a link event by the PCIe role
 * encoding, else by the fabric already seen on its link byte (t may be
 * NULL), else UALink's (the top level's). */
unsigned ual_view_fabric_of(const struct ual_view_tally *t, const struct ual_rec_result *r);

void ual_view_tally_init(struct ual_view_tally *t);
/* Finds or adds r's link and, when selected, counts r; returns the link's
 * slot (0..n-1) or -1 when the table is full (counted in other_links). */
int ual_view_tally_add(struct ual_view_tally *t, const struct ual_rec_result *r, uint64_t ts_ns, bool selected);
/* The slot of (fabric, link byte), -1 when not seen. */
int ual_view_tally_find(const struct ual_view_tally *t, unsigned fabric, unsigned index);

/* Link k of s->tally, named. */
void ual_view_link_get(const struct ual_view_src *s, unsigned k, struct ual_view_link *l);
/* Link k's state rows, in order. */
void ual_view_state(const struct ual_view_src *s, unsigned k, ual_view_row_fn fn, void *ctx);
/* Link k's counters: records by kind, the fabric's own rows, findings by
 * severity and by rule (UAL_VIEW_T_RECORDS), its rates and the analysis'
 * totals (the other tables), in order within each table. */
void ual_view_counters(const struct ual_view_src *s, unsigned k, ual_view_counter_fn fn, void *ctx);
/* Link k's state in one line. */
int ual_view_state_line(const struct ual_view_src *s, unsigned k, char *buf, size_t cap);
/* What r (on link slot k) and its step's events put on the lanes of k's
 * fabric; returns the count (at most cap). */
unsigned ual_view_marks(const struct ual_view_tally *t, int k, const struct ual_rec_result *r,
                        const struct ual_events *ev, struct ual_view_mark *out, unsigned cap);
/* The transactions r (on link slot k, at ts_ns) ended, from its result
 * and its step's events, into out; returns the count (at most cap). */
unsigned ual_view_txns(const struct ual_view_tally *t, int k, const struct ual_rec_result *r, uint64_t ts_ns,
                       const struct ual_events *ev, struct ual_view_txn *out, unsigned cap);
/* Link k's transactions still open at the end, from the analysis state. */
void ual_view_open_txns(const struct ual_view_src *s, unsigned k, ual_view_txn_fn fn, void *ctx);

#endif
