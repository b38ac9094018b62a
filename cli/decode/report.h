/* --report: one self-contained HTML page (inline SVG and CSS, no script, no
 * network) drawn from libdecode's analysis: a timeline per side, throughput,
 * ladders of the DL negotiations and power handshakes, findings and the
 * --stats totals.
 *
 * Memory is bounded whatever the capture size: the timeline is DC_RPT_BINS
 * fixed time bins, and when time outgrows them adjacent bins merge (the bin
 * width doubles); ladders and steps are capped and the rest counted.
 *
 *   records, events --> dc_report_record / dc_report_events --> bins, ladders
 *   end of capture  --> dc_report_write --> page: header, then the lanes of
 *                       each side (struct dc_rpt_lane), charts, ladders, tables
 *
 * The page is well-formed XML (XHTML-compatible), so tests can parse it.
 * report.c collects, report_page.c writes the page, report_ualink.c draws
 * the UALink lanes, report_ub.c the UB lanes (a capture with UB flits). */
#ifndef UAL_DC_REPORT_H
#define UAL_DC_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ualink/ualink.h"
#include "ualink/ualink/analysis.h"
#include "outbuf.h"
#include "stats.h"

#define DC_RPT_BINS   480   /* timeline resolution: one bin is two pixels */
#define DC_RPT_NEGS   48    /* negotiations drawn as ladders */
#define DC_RPT_PWR    16    /* link state handshakes drawn as ladders */
#define DC_RPT_STEPS  32    /* steps per ladder: a training of both ports fits */

/* LTSSM states grouped for the colour bands. */
enum dc_lt_class { DC_LC_UNKNOWN, DC_LC_DETECT, DC_LC_POLLING, DC_LC_CONFIG, DC_LC_L0, DC_LC_L0P, DC_LC_RECOVERY,
                   DC_LC_L1, DC_LC_OTHER, DC_LC_COUNT };

/* Link state handshakes: training, Recovery (speed changes among them), L1 entry and exit, L0p width change. */
enum dc_hs_kind { DC_HS_TRAINING, DC_HS_RECOVERY, DC_HS_L1, DC_HS_L0P };

/* Markers counted per bin and side, from the selected records as --stats
 * counts them (Nak flits, RP-REPLAY findings, FEC status, findings). */
enum dc_mark { DC_M_NAK, DC_M_REPLAY, DC_M_FEC_CORR, DC_M_FEC_UNC, DC_M_INFO, DC_M_WARNING, DC_M_ERROR, DC_M_COUNT };

/* UB: the DLL states per side (enum ual_ub_dll, 0 unknown) and markers
 * from the UB findings of the selected records. */
#define DC_UB_DLL_COUNT 5
enum dc_ub_mark { DC_UM_BCRC, DC_UM_RETRY_REQ, DC_UM_DISCARDED, DC_UM_COUNT };

struct dc_rpt_bin {
  uint64_t lt[2][DC_LC_COUNT];     /* residency per side (ns, or records without timestamps) */
  uint64_t ch_on[2][2], ch_off[2][2];   /* per partner, channel 0 / 4 */
  uint8_t rate[2], width[2];       /* at the end of the bin, 0 unknown */
  uint8_t width_min[2];            /* narrowest in the bin */
  uint64_t payload[2], tl[2], msgs[2];
  uint64_t ub_bytes[2], tlps[2], dllps[2];   /* UB DLLDP payload bytes, PCIe TLPs (NOPs not counted), PCIe DLLPs */
  uint64_t mark[2][DC_M_COUNT];
  uint64_t ub_dll[2][DC_UB_DLL_COUNT];   /* UB DLL state residency per side */
  uint64_t ub_mode[3];             /* UB mode residency: unknown, CRC, non-CRC */
  uint64_t ub_mark[2][DC_UM_COUNT];
};

/* One row of a ladder: a message from one side to the other, or a state
 * change (a note on one lifeline, or across both for link-wide events). */
struct dc_rpt_step {
  uint8_t side;                    /* 0, 1, UAL_PARTNER_LINK */
  uint8_t message;                 /* an arrow to the other side */
  uint8_t style;                   /* 0 plain, 1 good (Ack, complete), 2 bad (Nack, no confirm), 3 pending */
  uint64_t frame, x;
  char text[96];
};

struct dc_rpt_ladder {
  uint8_t requester, mtype;        /* negotiations: who asked for what */
  uint8_t kind;                    /* handshakes: enum dc_hs_kind */
  uint8_t done;                    /* L0p: bit per direction seen at the new width */
  uint8_t rate_changed;            /* a data rate changed during it */
  uint64_t req_frame;
  uint64_t x0;                     /* first step */
  uint16_t n, elided;
  struct dc_rpt_step s[DC_RPT_STEPS];
};

struct dc_rpt_rule {
  uint64_t count[2], first, last;  /* frames */
  uint64_t first_x;
  uint8_t first_dir;
};

struct dc_report {
  FILE *fp;
  bool to_stdout;
  /* time axis: ns since the first record, or records when there are no timestamps */
  bool started, use_ts;
  uint64_t t0, x_last, x_prev, bw;  /* bin width */
  uint64_t records;
  struct ual_analysis_summary sum;  /* state after the previous record */
  uint8_t ev_rate[2], ev_width[2];  /* the last rate and width events of any fabric, 0 none */
  struct dc_rpt_bin bin[DC_RPT_BINS];
  uint64_t lt_total[2][DC_LC_COUNT], lt_entries[2][DC_LC_COUNT];
  struct dc_rpt_rule rule[UAL_R_COUNT];
  struct ual_findings end;          /* raised at the end of the capture */
  /* ladders */
  struct dc_rpt_ladder neg[DC_RPT_NEGS];
  unsigned n_neg;
  uint64_t neg_elided;
  struct dc_rpt_ladder pwr[DC_RPT_PWR];
  unsigned n_pwr;
  uint64_t pwr_elided;
  int pwr_open;                     /* index of the handshake being collected, -1 none */
  uint8_t pwr_exit_seen;            /* L1 exit seen: closes when both ports are in L0 */
  /* the last completed negotiation that starts a handshake (frame 0 = none or used) */
  struct dc_rpt_step last_width_neg, last_state_neg, last_speed_neg;
  uint64_t events_dropped;          /* over the analyzer's per-record limit */
  /* UB: the state after the previous record; records by fabric choose the lanes */
  uint8_t ub_dll[2], ub_mode;
  uint64_t ub_records, ualink_records, pcie_records;
  uint8_t pcie_role[2];            /* PCIe role codes [P3], 0 unknown */
};

/* Opens the page's output (path "-" = standard output); NULL and a message
 * when it cannot. */
struct dc_report *dc_report_open(const char *path, char *err, size_t errcap);
/* The events of one record (all of them, for the ladders and markers). */
void dc_report_events(struct dc_report *r, const struct ual_events *ev);
/* One record after the analyzer stepped; selected = it passes the selection
 * (counted in the charts and findings, as --stats counts it). */
void dc_report_record(struct dc_report *r, const struct ual_analyzer *an, const struct ual_rec_result *res,
                      uint64_t ts_ns, bool selected);
/* End of the capture: the findings raised then; the last state lasts to the last record. */
void dc_report_end(struct dc_report *r, const struct ual_findings *f);
/* Writes the page and closes the output; false when writing failed. */
bool dc_report_write(struct dc_report *r, const char *input, const struct ual_view_src *src);
void dc_report_free(struct dc_report *r);

/* ---- page building blocks, shared by the lanes ---- */

/* The timeline's geometry. */
struct dc_rpt_area {
  double left, width;               /* plot x range in pixels */
  double y, h;                      /* the lane's top and height */
  uint64_t span;                    /* axis length in x units */
};
static inline double dc_rpt_px(const struct dc_rpt_area *a, uint64_t x) {
  return a->left + (a->span ? (double)x * a->width / (double)a->span : 0.0);
}

/* A lane of the per-side timeline. A fabric adds its lanes to its table. */
struct dc_rpt_lane {
  const char *title;
  unsigned height;
  void (*draw)(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a);
};
extern const struct dc_rpt_lane dc_ualink_lanes[];
extern const unsigned dc_ualink_nlanes;
extern const struct dc_rpt_lane dc_ub_lanes[];
extern const unsigned dc_ub_nlanes;
/* The lanes a side of the page shows: UALink's, UB's, or both (a capture
 * with UB flits and UALink records); returns the count (at most cap). */
static inline bool dc_rpt_shows_ub(const struct dc_report *r) { return r->ub_records > 0; }
/* The PHY lanes and ladders (LTSSM, rate, width; PCIe shares them) unless
 * the capture is UB only; UALink's DL sections only with UALink records or
 * no other fabric's. */
static inline bool dc_rpt_shows_phy(const struct dc_report *r) { return !r->ub_records || r->ualink_records; }
static inline bool dc_rpt_shows_ualink(const struct dc_report *r) {
  return r->ualink_records || (!r->ub_records && !r->pcie_records);
}
unsigned dc_rpt_lanes(const struct dc_report *r, const struct dc_rpt_lane **out, unsigned cap);
/* A summary card of the report's head (report_page.c), and each fabric's
 * own cards: UB's (report_ub.c), PCIe's (fab_pcie.c). */
struct dc_sums;
void dc_rpt_card_u64(struct dc_out *o, uint64_t v, const char *label);
void dc_rpt_ub_cards(struct dc_out *o, const struct dc_sums *st);
void dc_rpt_pcie_cards(struct dc_out *o, const struct dc_sums *st);
/* The legend of the UB lanes (report_ub.c). */
void dc_rpt_ub_legend(struct dc_out *o);

/* Drawing helpers of the lanes (report_ualink.c). */
#define DC_RPT_MARK_ROW 9.0
/* A rect, left open for dc_rpt_title_range or attributes; its hover title. */
void dc_rpt_rect(struct dc_out *o, double x, double y, double w, double h, const char *fill);
void dc_rpt_title_range(struct dc_out *o, const struct dc_report *r, const char *what, uint64_t lo, uint64_t hi);
/* A label inside a band, when it fits. */
void dc_rpt_label(struct dc_out *o, double x, double y, double w, const char *text, const char *fill);
/* Runs of bins with the same key, drawn by draw; key -1 = nothing drawn. */
typedef int (*dc_rpt_key_fn)(const struct dc_report *r, unsigned side, unsigned i);
typedef void (*dc_rpt_run_fn)(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a,
                              int key, uint64_t lo, uint64_t hi);
void dc_rpt_runs(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a, dc_rpt_key_fn key,
                 dc_rpt_run_fn draw);
/* State bands from a residency vector res[n] per bin (state 0 = unknown):
 * the state bin i is wholly in, n + i when mixed, -1 when empty; and the
 * band of a run of key (res = the mixed bin's vector, stacked by share). */
int dc_rpt_state_key(const uint64_t *res, unsigned n, unsigned i);
void dc_rpt_state_run(struct dc_out *o, const struct dc_report *r, const struct dc_rpt_area *a, const uint64_t *res,
                      unsigned n, int key, uint64_t lo, uint64_t hi, const char *(*name)(unsigned),
                      const char *(*color)(unsigned));
/* A logarithmic shade without libm: significant bits. */
double dc_rpt_bits(uint64_t v);
/* The markers lane: counts per bin, each rule's first finding. */
void dc_rpt_lane_marks(struct dc_out *o, const struct dc_report *r, unsigned side, const struct dc_rpt_area *a);

void dc_rpt_text(struct dc_out *o, const char *s);          /* XML-escaped */
/* A duration in ns (or records) as "12 ns", "1.50 us", ... */
void dc_rpt_dur(char *buf, size_t cap, const struct dc_report *r, uint64_t x);
const char *dc_rpt_class_name(unsigned c);
const char *dc_rpt_class_color(unsigned c);
unsigned dc_rpt_class_of(unsigned lt_state);
const char *dc_rpt_mark_name(unsigned m);
const char *dc_rpt_mark_color(unsigned m);
/* Bins in use, and the x range of bin i clipped to the span. */
unsigned dc_rpt_bins_used(const struct dc_report *r);
void dc_rpt_bin_range(const struct dc_report *r, unsigned i, uint64_t *lo, uint64_t *hi);

#endif
