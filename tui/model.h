/* The TUI's screen model: a bounded ring of decoded records, exact counters,
 * per-second rates, a filter and the selection. Plain C, no terminal, so it
 * is tested on its own. The decoding itself is libdecode's. */
#ifndef UALINK_TUI_MODEL_H
#define UALINK_TUI_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ualink/ualink.h"
#include "ualink/ualink/analysis.h"

#define TUI_REC_MAX (UAL_REC_HDR_BYTES + UAL_FLIT_BYTES)
#define TUI_MAX_RULES 6
#define TUI_RATE_SECONDS 60

struct tui_entry {
  uint64_t frame;
  uint64_t ts_ns;
  uint16_t len;
  uint8_t dir;              /* 0 A>B, 1 B>A */
  uint8_t kind;             /* record kind, 0 = malformed */
  uint8_t flit_kind;        /* enum ual_flit_kind for flits */
  int8_t sev;               /* highest finding severity, -1 none */
  uint8_t n_rules;
  uint16_t rules[TUI_MAX_RULES];
  uint16_t msg_types;       /* bit per enum ual_msg_type completed here */
  uint8_t rec[TUI_REC_MAX];
  struct ual_unpack before;  /* unpacker of this direction before the record: re-decodes it exactly */
  char line[112];           /* content summary */
};

/* Filter terms, all of which must match. */
struct tui_filter {
  bool active;
  int dir;                  /* -1 any */
  int flit_kind;            /* -1 any */
  int msg_type;             /* -1 any */
  int rule;                 /* -1 any */
  int min_sev;              /* -1 any */
  uint64_t frame_lo, frame_hi;
  char text[96];
};

struct tui_dir_counts {
  uint64_t records, flits[4], fec_corrected, fec_uncorrectable, crc_bad;
  uint64_t tl_flits, dl_msgs, naks, os, events;
};

struct tui_rate {
  uint64_t second;          /* capture second of this bucket */
  uint32_t flits, tl_flits, naks, fec_corrected;
};

struct tui_model {
  struct tui_entry *ring;
  size_t cap;
  uint64_t total;           /* records ever added; ring holds the last min(total, cap) */
  struct ual_analyzer an;    /* the link state of both partners */
  struct ual_rec_result res; /* scratch, last decoded record */
  struct tui_dir_counts dir[2];
  uint64_t malformed;
  uint64_t rule_counts[UAL_R_COUNT];
  uint64_t first_rule_frame[UAL_R_COUNT];
  uint64_t first_ts, last_ts;
  struct tui_rate rates[TUI_RATE_SECONDS];
  uint8_t last_rate, last_width, role_a, role_b;
  uint64_t dropped;         /* reported by the source */
  struct tui_filter filter;
};

/* cap = ring size in records. Returns false when out of memory. */
bool tui_model_init(struct tui_model *m, size_t cap);
void tui_model_free(struct tui_model *m);
/* Decodes and stores one record; returns the stored entry. */
const struct tui_entry *tui_model_add(struct tui_model *m, const uint8_t *rec, size_t len, uint64_t ts_ns);

/* Entries are addressed by index 0..count-1 over what the ring holds (oldest first). */
size_t tui_model_count(const struct tui_model *m);
const struct tui_entry *tui_model_at(const struct tui_model *m, size_t i);
/* Index of the entry with this frame number, or -1 when it is no longer held. */
long tui_model_find_frame(const struct tui_model *m, uint64_t frame);

/* Parses "dir=A usage=payload msg=link_width rule=PL-CRC sev=error frame=10-20",
 * bare A/B, bare rule IDs and bare usage names. An empty string clears the
 * filter. Returns false and writes a message to err when a term is unknown. */
bool tui_filter_parse(struct tui_filter *f, const char *text, char *err, size_t errcap);
bool tui_filter_match(const struct tui_filter *f, const struct tui_entry *e);
/* Next (step +1) or previous (-1) matching index from i (exclusive), or -1. */
long tui_model_next_match(const struct tui_model *m, long i, int step);

/* Decodes entry e again for the detail pane: the record's own fields and
 * what it unpacked; the stateful findings are the entry's rules[]. */
void tui_entry_decode(const struct tui_entry *e, struct ual_rec_result *r);
/* Rates for the capture second `ago` seconds before the latest (0 = latest). */
const struct tui_rate *tui_model_rate(const struct tui_model *m, unsigned ago);

#endif
