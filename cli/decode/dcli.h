/* ualink-decode: options, the per-run context and the modules that share
 * them. Protocol logic is libdecode's; this program reads inputs, selects
 * records and prints. */
#ifndef UAL_DC_DCLI_H
#define UAL_DC_DCLI_H

#include <stdbool.h>
#include <stdint.h>

#include "ualink/ualink.h"
#include "ualink/ualink/analysis.h"
#include "ualink/core/views.h"
#include "outbuf.h"
#include "stats.h"
#include "report.h"
#include "filter_opts.h"
#include "timefmt.h"

enum dc_input_type { DC_IN_PCAP, DC_IN_RAW, DC_IN_HEX };

struct progress;

#define DC_MAX_SEGMENTS 64   /* = UAL_PCIE_MAX_FUNCS */
#define DC_MAX_PRESETS 16
#define DC_MAX_AN_OPTS 32

struct dc_opts {
  const char *path;            /* input, "-" = stdin */
  enum dc_input_type in_type;
  int dlt;                     /* expected pcap link type */
  unsigned udp_port;           /* of the UDP export inside Ethernet/IP captures */
  int raw_dir;                 /* direction of raw/hex flits without a prefix */
  unsigned raw_kind;           /* record kind of raw/hex flits: UAL_REC_FLIT or UAL_REC_UB_FLIT (--raw-kind) */
  bool verbose, hexdump, quiet, json, stats, strict, color, line_buffered;
  bool stateless;              /* --stateless: no replay/LTSSM/protocol tracking */
  bool timeline;               /* --timeline: state changes instead of records */
  bool transactions;           /* --transactions: one line per transaction instead of records */
  bool link_sel;               /* --link: only the records of these link indexes */
  uint8_t link_on[256];        /* by the record header's link byte, when link_sel */
  const char *report;          /* --report FILE: HTML page, "-" = stdout; NULL none */
  uint64_t count;              /* 0 = no limit: records shown */
  uint64_t frame_lo, frame_hi; /* selected frames, inclusive */
  int sel_dir;                 /* -1 any */
  bool rule_filter;
  uint8_t rules[UAL_R_COUNT];  /* selected rule IDs when rule_filter */
  int min_sev;                 /* -1 none, else records with a finding >= this */
  struct dc_fopts fo;          /* -Y, -T fields, -e, -E */
  unsigned jobs;               /* -j: threads; 0 = the cores for a regular file, else 1 */
  enum dc_tfmt tfmt;           /* -t */
  const char *save;            /* -w FILE: the selected records as a pcap, "-" = stdout; NULL none */
  bool print_saved;            /* -P: print the records while saving them */
  unsigned chunk_k, chunk_n;   /* --chunk K/N; chunk_n 0 = the whole capture */
  uint64_t warmup, overlap;    /* --warmup W, --overlap V (chunk.h) */
  const char *chunk_side;      /* --chunk-side FILE: the merger's side file; NULL none */
  /* --segment BDF=SEG|clear: PCIe functions' Segment Captured, preset in the analysis */
  unsigned n_seg;
  uint16_t seg_bdf[DC_MAX_SEGMENTS];
  int16_t seg_val[DC_MAX_SEGMENTS];  /* -1 Clear */
  /* --no-nfm-subtree=LINK / --nfm-subtree=LINK: "No NFM Subtree Below This
   * Root Port" of a link index's Root Port, 1 / 0; -1 unknown */
  int8_t nfm_subtree[256];
  /* --pcie-initfc, --ub-init, --ub-credits: values a late capture never
   * shows, preset in the analysis (ual_fabric_an_preset), in order */
  unsigned n_preset;
  const char *preset_name[DC_MAX_PRESETS], *preset_arg[DC_MAX_PRESETS];
  /* analysis settings by option name (--nak-new-tlps 2 ...), handed to
   * ual_fabric_an_option in order */
  unsigned n_an_opt;
  const char *an_opt[DC_MAX_AN_OPTS][2];
};

/* Exit codes (also in --help and the man page). */
#define DC_EXIT_OK     0
#define DC_EXIT_STRICT 1
#define DC_EXIT_USAGE  2
#define DC_EXIT_SIGNAL 128 /* + the number of the signal that interrupted */

struct dc_input;
struct dc_ctx {
  const struct dc_opts *o;
  const struct dc_input *in;   /* what the input said of the record at hand (its UDP export header) */
  struct ual_decoder dec;      /* --stateless */
  struct ual_analyzer an;
  struct ual_events ev;
  struct ual_rec_result res;
  struct ual_view_tally vt;    /* the presentation model's links and counters (core/views.h) */
  bool link_col;               /* the capture has more than one link: lines name it */
  struct dc_out out;
  struct dc_tref tref;         /* what record times are measured from (-t) */
  struct dc_save *save;        /* -w */
  uint64_t shown;              /* records that passed the selection */
  uint64_t problems;           /* malformed/truncated records and unreadable lines */
  uint64_t reports;            /* lines written to stderr about the input */
  bool progress_line;          /* a progress line is on stderr */
  uint64_t prev_event_ts;      /* time of the last --timeline line (-t d, dd) */
  bool arrival_times;          /* the input's times are arrival times, not link time */
  uint64_t skipped;            /* frames of a UDP capture that held no record */
  bool error_finding;          /* a selected record has an error finding */
  uint64_t last_flit_ts[2];    /* time of each direction's last flit */
  bool ts_res_said;            /* the time resolution is known to be fine, or was warned about */
  bool frac_said;              /* a microsecond fraction above 999999 was warned about */
  bool frac_signed;            /* libpcap reads the input: such a fraction above 2^31 - 1 is negative */
  struct dc_report *rep;       /* --report */
  struct dc_filter *flt;       /* -Y / -T fields, NULL without */
  uint64_t frame;              /* records read so far */
  bool read_error;             /* the input ended on a read error */
  bool ended;                  /* the input was read to its real end */
  bool sel_stop;               /* -c or --frames stopped reading: ended if nothing follows */
  bool interrupted;            /* SIGINT or SIGTERM stopped reading */
  bool warm;                   /* --chunk's warm-up: problems are not reported */
  struct progress *pg;
};

/* print_text.c */
/* The time of a record (or event) at ts in the -t format, padded to 13
 * characters for the spans. */
size_t dc_rec_time(const struct dc_ctx *c, uint64_t ts_ns, char buf[DC_TIME_MAX]);
void dc_print_line(struct dc_ctx *c, const uint8_t *rec, size_t len, uint64_t ts_ns);
void dc_print_tree(struct dc_ctx *c, const uint8_t *rec, size_t len, uint64_t ts_ns);
void dc_print_hexdump(struct dc_out *o, const uint8_t *p, size_t n);

/* print_json.c */
void dc_print_json(struct dc_ctx *c, const uint8_t *rec, size_t len, uint64_t ts_ns);

/* view.c: what ualink-decode renders of the presentation model */
/* A record after its selection: its link in the tally, counted when
 * selected; --transactions lines of what it ended. */
void dc_view_record(struct dc_ctx *c, uint64_t ts_ns, bool selected);
/* Whether the capture has more than one link (c->link_col), from the
 * first records of a pcap file read once more ahead of the decode. */
void dc_view_prescan(struct dc_ctx *c);
/* End of the capture: transactions still open (--transactions). */
void dc_view_end(struct dc_ctx *c);
/* Whether --link selects a record or event of link byte l. */
static inline bool dc_link_selected(const struct dc_opts *o, unsigned l) { return !o->link_sel || o->link_on[l & 255]; }
/* The "L1 " column of a record or event line ("" with one link). */
void dc_link_col(const struct dc_ctx *c, unsigned link, struct dc_out *o);

/* timeline.c */
void dc_print_events(struct dc_ctx *c, const struct ual_events *ev);
void dc_print_end_findings(struct dc_ctx *c, const struct ual_findings *f);

/* Colours (empty strings when colour is off). */
struct dc_colors { const char *sev[3], *dim, *bold, *off; };
const struct dc_colors *dc_colors(bool on);

#endif
