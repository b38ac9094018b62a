/* ualink-decode's display filter (-Y) and field output (-T fields, -e,
 * -E, -G fields), on libdecode's filter engine (ualink/core/filter.h). */
#ifndef UAL_DC_FILTER_OPTS_H
#define UAL_DC_FILTER_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DC_MAX_E_FIELDS 1024

struct dc_fopts {
  const char *filter;          /* -Y, NULL none */
  bool fields;                 /* -T fields */
  const char *e[DC_MAX_E_FIELDS];
  size_t n_e;
  bool header;                 /* -E header=y */
  char separator;              /* -E separator (default tab) */
  char occurrence;             /* 'a', 'f' or 'l' */
  char aggregator;             /* default ',' */
  char quote;                  /* 0, '"' or '\'' */
};

struct dc_ctx;
struct dc_opts;

void dc_fopts_init(struct dc_fopts *fo);
/* An option -Y, -T, -e, -E or -G with its argument: -1 to go on, else an
 * exit code (usage errors on stderr; -G fields prints and returns 0). */
int dc_fopts_arg(struct dc_fopts *fo, int opt, const char *arg);
/* After all options: compiles the filter and the field list into c;
 * -1 to go on, else an exit code (2, the error shown like tshark's). */
int dc_filter_setup(struct dc_ctx *c);
void dc_filter_free(struct dc_ctx *c);
/* Whether -Y or -e reads the bytes of TL flits (false without either). */
bool dc_filter_tl_bytes(const struct dc_ctx *c);
/* Before the record's analyzer step. */
void dc_filter_begin(struct dc_ctx *c, uint64_t frame);
/* After the step: true when the record passes -Y (always without one);
 * also gathers the -e fields. */
bool dc_filter_pass(struct dc_ctx *c, const uint8_t *rec, size_t len, uint64_t frame, uint64_t ts_ns,
                    uint32_t wire_len);
struct ual_finding;
/* An end-of-capture finding against -Y (true without one): the filter sees
 * the finding's own fields only. */
bool dc_filter_pass_end(struct dc_ctx *c, const struct ual_finding *x);
/* -T fields: the header line (once) and a selected record's line. */
void dc_fields_header(struct dc_ctx *c);
void dc_fields_line(struct dc_ctx *c);

#endif
