/* The TUI's screen model: a bounded ring of decoded records, a ring of the
 * records that match the filter, exact counters, rates over capture time and
 * over wall-clock time, and the filter. Plain C, no terminal, so it
 * is tested on its own. The decoding itself is libdecode's. */
#ifndef UALINK_TUI_MODEL_H
#define UALINK_TUI_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ualink/ualink.h"
#include "ualink/ualink/analysis.h"
#include "ualink/core/filter.h"
#include "ualink/core/views.h"
#include "ualink/ualink/filter.h"

#define TUI_REC_MAX (UAL_REC_HDR_BYTES + UAL_FLIT_BYTES)
#define TUI_MAX_RULES 6
#define TUI_RATE_BUCKETS 60

struct tui_entry {
  uint64_t frame;
  uint64_t ts_ns;
  uint16_t len;
  uint8_t dir;              /* 0 A>B, 1 B>A */
  uint8_t link;             /* the record header's link byte */
  uint8_t kind;             /* record kind, 0 = malformed */
  uint8_t flit_kind;        /* enum ual_flit_kind for flits */
  int8_t sev;               /* highest finding severity, -1 none */
  uint8_t n_rules;
  uint16_t rules[TUI_MAX_RULES];
  uint16_t msg_types;       /* bit per enum ual_msg_type completed here */
  bool match;               /* matched the model's filter, as ualink-decode -Y judges it (with the analysis) */
  uint8_t status;           /* enum ual_rec_status of the record */
  uint32_t wire_len;        /* the record's length; rec keeps at most TUI_REC_MAX bytes (longer ones are malformed) */
  uint8_t rec[TUI_REC_MAX];
  union {
    struct ual_unpack before;  /* UALink flit: unpacker of this direction before the record: re-decodes it exactly */
    struct {                   /* PCIe flit: what re-walks its TLPs exactly */
      uint8_t walked;          /* the analysis fed its TLP bytes to the walker (a first delivery) */
      struct ual_pcie_walk walk;   /* the direction's walker before it */
      struct tui_tlp_link {
        uint8_t link;
        uint64_t start_frame, peer_frame, latency_ns;
      } link[UAL_PCIE_MAX_TLP_PER_FLIT];
    } pcie;
  } st;
  char line[112];           /* content summary */
  int64_t rel_ns, delta_ns; /* frame.time_relative, frame.time_delta */
};

/* A Wireshark display filter (libdecode's engine, ualink/core/filter.h),
 * evaluated on each record with the analysis as it stood after that record,
 * as ualink-decode -Y evaluates it. */
struct tui_filter {
  bool active;
  char text[256];
  struct ual_filter *prog;  /* owned; NULL when not active */
};

/* crc_bad, crc_inverted: as ualink-decode --stats counts them (a flit whose
 * FEC is uncorrectable has a bad CRC too). */
struct tui_dir_counts {
  uint64_t records, flits[4], fec_corrected, fec_uncorrectable, crc_bad, crc_inverted;
  uint64_t tl_flits, dl_msgs, naks, os, events;
  uint64_t pcie_dllps, pcie_crc_bad;   /* kind-4 records, those with a bad CRC-16 */
  uint64_t pcie_flits, pcie_tlps;      /* kind-5 records, the TLPs (not NOP) walked in them */
  uint64_t ub_flits, ub_bcrc_bad;      /* kind-6 records, those whose block failed its BCRC */
  uint64_t ub_dlldps, ub_dllcbs;       /* the DLLDPs and DLLCBs they completed */
};

struct tui_rate {
  uint64_t flits, tl_flits, naks, fec_corrected;   /* flits of every fabric; the rest UALink's */
};

/* The whole capture in TUI_RATE_BUCKETS buckets of capture time from the
 * first record; the bucket width doubles whenever the capture outgrows them. */
struct tui_link_rates {
  uint64_t width_ns;
  unsigned used;            /* buckets 0..used-1 hold the capture */
  struct tui_rate b[TUI_RATE_BUCKETS];
};

/* Arrivals by wall-clock second, the last TUI_RATE_BUCKETS seconds. */
struct tui_wall_rates {
  uint64_t second[TUI_RATE_BUCKETS];
  struct tui_rate b[TUI_RATE_BUCKETS];
};

/* Transactions the model's records ended, kept up to this many. */
#define TUI_TXN_MAX 65536

struct tui_model {
  struct tui_entry *ring;
  size_t cap;
  uint64_t total;           /* records ever added; ring holds the last min(total, cap) */
  struct tui_entry *matches; /* the last min(n_matches, match_cap) records that matched the filter */
  size_t match_cap;
  uint64_t n_matches;
  struct ual_analyzer an;    /* the link state of both partners */
  /* The analysis before the oldest record held: a new filter replays the
   * held records from it, so it sees the state -Y sees. NULL in a model
   * that holds one record (a rescan), which never refilters its ring. */
  struct ual_analyzer *tail;
  struct ual_events ev;      /* a step's timeline events, for a filter that reads the analysis */
  struct ual_filter_ualink fst;
  struct ual_rec_result res; /* scratch, last decoded record */
  struct tui_dir_counts dir[2];
  uint64_t malformed;
  uint64_t rule_counts[UAL_R_COUNT];
  uint64_t first_rule_frame[UAL_R_COUNT];
  uint64_t t0_ns;           /* time of frame 1: times are relative to it */
  uint64_t last_ts;
  uint64_t prev_ts;         /* of the record before: frame.time_delta */
  /* The presentation model (core/views.h): links in first-seen order with
   * their counters, and the transactions the records ended. */
  struct ual_view_tally *vt;
  struct ual_view_txn *txns;
  size_t n_txns, txn_cap;
  uint64_t txns_dropped;    /* beyond TUI_TXN_MAX */
  struct tui_rate sum;      /* totals of what the rates count */
  struct tui_link_rates link;
  struct tui_wall_rates wall;
  uint8_t last_rate, last_width, role_a, role_b;
  bool roles_pcie;          /* role_a/role_b in the PCIe encoding (pcie.md [P3]) */
  uint64_t dropped;         /* reported by the source */
  /* The records' times are when they arrived (UDP export), not link time:
   * shown, but the analyzer gets none (no deadline is judged by them) and
   * there are no link-time rates. Set before the first record. */
  bool arrival_times;
  struct tui_filter filter;
};

/* cap = ring size in records (and match ring size). Returns false when out of memory. */
bool tui_model_init(struct tui_model *m, size_t cap);
/* With its own sizes: a rescan model keeps one record and cap matches. */
bool tui_model_init_caps(struct tui_model *m, size_t ring_cap, size_t match_cap);
void tui_model_free(struct tui_model *m);
/* Decodes and stores one record; returns the stored entry. wall_ns is the
 * wall-clock time it arrived (any epoch), 0 when arrival time means nothing
 * (a file read as fast as it goes). */
const struct tui_entry *tui_model_add(struct tui_model *m, const uint8_t *rec, size_t len, uint64_t ts_ns,
                                      uint64_t wall_ns);
/* Time of e since the first record of the capture (negative when earlier). */
int64_t tui_model_rel_ns(const struct tui_model *m, const struct tui_entry *e);

/* Entries are addressed by index 0..count-1 over what the ring holds (oldest first). */
size_t tui_model_count(const struct tui_model *m);
const struct tui_entry *tui_model_at(const struct tui_model *m, size_t i);
/* Index of the entry with this frame number, or -1 when it is no longer held. */
long tui_model_find_frame(const struct tui_model *m, uint64_t frame);

/* Compiles a display filter ('ualink.rec.dir == 1 && ualink.rule');
 * an empty text clears the filter. Returns false with *err (tshark's
 * message and the offending token's span) when it is not a filter. The
 * caller frees f with tui_filter_free. */
bool tui_filter_compile(struct tui_filter *f, const char *text, struct ual_filter_error *err);
/* The same, the error as one line "message (at column N)". */
bool tui_filter_parse(struct tui_filter *f, const char *text, char *err, size_t errcap);
void tui_filter_free(struct tui_filter *f);
/* Makes a copy of f the model's filter and refills the match ring from
 * the records held (f stays the caller's). */
void tui_model_set_filter(struct tui_model *m, const struct tui_filter *f);
/* Next (step +1) or previous (-1) matching index from i (exclusive), or -1. */
long tui_model_next_match(const struct tui_model *m, long i, int step);

/* Puts the matches that scan (a model that decoded the same capture from frame
 * 1, with the same filter) found before m's first held frame in front of m's
 * matches: earlier matches of a file that the ring no longer holds. */
void tui_model_take_older_matches(struct tui_model *m, struct tui_model *scan);

/* A view is the ring of all records (only = false) or the match ring: matches
 * stay reachable there after the ring of all records has moved past them. */
size_t tui_view_count(const struct tui_model *m, bool only);
const struct tui_entry *tui_view_at(const struct tui_model *m, bool only, size_t i);
/* Index of the last entry of the view at or before frame, 0 when none is. */
size_t tui_view_find(const struct tui_model *m, bool only, uint64_t frame);

/* Decodes entry e again for the detail pane: the record's own fields and
 * what it unpacked; the stateful findings are the entry's rules[]. */
void tui_entry_decode(const struct tui_entry *e, struct ual_rec_result *r);
/* Counts in wall-clock second now_s - ago (0 = the current second). */
struct tui_rate tui_model_wall_rate(const struct tui_model *m, uint64_t now_s, unsigned ago);
/* What the model's renderers read (core/views.h) for the model's state now. */
void tui_model_view_src(const struct tui_model *m, struct ual_view_src *src);
/* Whether link slot k of the model has records besides link events (a
 * link event before its link's first record has a slot of its own). */
bool tui_model_link_shown(const struct tui_model *m, unsigned k);
/* Whether records of more than one link came: the list then shows the link. */
bool tui_model_links(const struct tui_model *m);
/* Capture time from the first to the last record, in ns (0 with arrival times). */
uint64_t tui_model_span_ns(const struct tui_model *m);

#endif
