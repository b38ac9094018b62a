/* Record times as tshark's -t shows them: relative to the first record
 * (default), delta to the previous record or to the previous one shown,
 * seconds since the epoch, or the time of day, local or UTC, with or without
 * the date (calendar or day of the year). Nanoseconds throughout. */
#ifndef UAL_DC_TIMEFMT_H
#define UAL_DC_TIMEFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dc_tfmt {
  DC_T_REL,        /* r: since the first record */
  DC_T_DELTA,      /* d: since the previous record */
  DC_T_DELTA_SHOWN,/* dd: since the previous record shown */
  DC_T_EPOCH,      /* e: seconds since 1970-01-01T00:00:00Z */
  DC_T_ABS,        /* a: local time of day */
  DC_T_ABS_DATE,   /* ad: local date and time */
  DC_T_ABS_DOY,    /* adoy: local year/day of year and time */
  DC_T_UTC,        /* u */
  DC_T_UTC_DATE,   /* ud */
  DC_T_UTC_DOY,    /* udoy */
};

/* The names -t takes, for messages. */
#define DC_TFMT_NAMES "a, ad, adoy, d, dd, e, r, u, ud or udoy"

bool dc_tfmt_parse(const char *s, enum dc_tfmt *f);
/* True for the formats that are a span of time (r, d, dd): printed with "s". */
bool dc_tfmt_is_span(enum dc_tfmt f);

/* The times a record's time is measured from. */
struct dc_tref {
  uint64_t first;       /* first record with a time */
  uint64_t prev;        /* previous record */
  uint64_t prev_shown;  /* previous record shown */
};

#define DC_TIME_MAX 48
/* ts in format f; no NUL, returns the length. */
size_t dc_fmt_time(char buf[DC_TIME_MAX], enum dc_tfmt f, uint64_t ts, const struct dc_tref *ref);

#endif
