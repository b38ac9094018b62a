/* Totals of a decode by direction (--stats), as text or a JSON summary. */
#ifndef UAL_DC_STATS_H
#define UAL_DC_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "ualink/ualink.h"
#include "outbuf.h"
#include "stats_pcie.h"

enum { DC_K_MALFORMED, DC_K_FLIT, DC_K_OS, DC_K_EVENT, DC_K_COUNT };

struct dc_dir_stats {
  uint64_t records;
  uint64_t kind[DC_K_COUNT];
  uint64_t usage[4];            /* enum ual_flit_kind */
  uint64_t crc_ok, crc_bad, crc_inverted;
  uint64_t fec[3];              /* enum ual_fec_status */
  uint64_t replay_cmd[4];       /* valid payload and NOP flits */
  uint64_t tl_started, tl_flits;
  uint64_t dl_msgs[UAL_MT_COUNT];
  uint64_t uart_payload_dw;
  uint64_t sev[3];
  uint64_t rules[UAL_R_COUNT];
  uint64_t findings_dropped;
  uint64_t after_lost;          /* records with UAL_RF_LOST: the analysis started over there */
  uint64_t first_ts, last_ts;   /* 0 = no timestamp seen */
  /* UB (kind 6): shown only when the input has UB flits */
  uint64_t ub_flits, ub_bcrc_bad, ub_dllcbs[UAL_UB_CB_UNKNOWN + 1];
  uint64_t ub_dlldps[UAL_UB_VLS], ub_bytes[UAL_UB_VLS];
};

struct dc_stats {
  struct dc_dir_stats d[2];
  struct dc_pcie_stats pcie;     /* kind-4 records (stats_pcie.h) */
};

struct ual_analysis_summary;
void dc_stats_add(struct dc_stats *s, const struct ual_rec_result *r, uint64_t ts_ns);

/* One row of the per-direction totals, in the order of the text output: a
 * heading, or a count of A>B and B>A. The one list of rows for the text
 * and for --report. */
struct dc_stats_row {
  const char *key;       /* its key in --stats --json under "dirs" (dotted), NULL when it has none */
  const char *label;     /* valid during the callback */
  unsigned indent;       /* spaces before the label in the text */
  bool heading;
  bool per_rule;         /* "Findings by rule" and its rows */
  bool no_total;         /* a maximum or mean: A and B do not add up */
  uint64_t a, b;
};
/* Whether the UALink rows apply: UALink flits or ordered sets came, or no
 * other fabric's records did (an empty capture keeps the UALink table). */
bool dc_stats_ualink(const struct dc_stats *s);
void dc_stats_rows(const struct dc_stats *s, void (*fn)(void *ctx, const struct dc_stats_row *row), void *ctx);
/* The analyzer's totals by the side that sent them, the same way; key is
 * under "analysis" in --stats --json. */
void dc_analysis_rows(const struct ual_analysis_summary *s, void (*fn)(void *ctx, const struct dc_stats_row *row),
                      void *ctx);
void dc_stats_text(const struct dc_stats *s, struct dc_out *o, const char *input);
/* an: the analyzer's totals (replay, negotiations, UART), NULL when stateless. */
void dc_stats_json(const struct dc_stats *s, struct dc_out *o, const struct ual_analysis_summary *an);
void dc_analysis_json(struct dc_out *o, const struct ual_analysis_summary *an);

#endif
