/* Record times (timefmt.h). */
#include "timefmt.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "outbuf.h"

static const struct { const char *name; enum dc_tfmt f; } names[] = {
  { "r", DC_T_REL },       { "d", DC_T_DELTA },     { "dd", DC_T_DELTA_SHOWN }, { "e", DC_T_EPOCH },
  { "a", DC_T_ABS },       { "ad", DC_T_ABS_DATE }, { "adoy", DC_T_ABS_DOY },   { "u", DC_T_UTC },
  { "ud", DC_T_UTC_DATE }, { "udoy", DC_T_UTC_DOY },
  /* tcpdump's -tt, -ttt, -tttt, -ttttt: getopt reads them as -t with t, tt, ... */
  { "t", DC_T_EPOCH },     { "tt", DC_T_DELTA },    { "ttt", DC_T_ABS_DATE },   { "tttt", DC_T_REL },
};

bool dc_tfmt_parse(const char *s, enum dc_tfmt *f) {
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(s, names[i].name)) {
      *f = names[i].f;
      return true;
    }
  return false;
}

bool dc_tfmt_is_span(enum dc_tfmt f) { return f == DC_T_REL || f == DC_T_DELTA || f == DC_T_DELTA_SHOWN; }

static int64_t since(uint64_t ts, uint64_t from) { return from && ts ? (int64_t)(ts - from) : 0; }

size_t dc_fmt_time(char buf[DC_TIME_MAX], enum dc_tfmt f, uint64_t ts, const struct dc_tref *ref) {
  switch (f) {
  case DC_T_REL: return dc_fmt_secs(buf, since(ts, ref->first));
  case DC_T_DELTA: return dc_fmt_secs(buf, since(ts, ref->prev));
  case DC_T_DELTA_SHOWN: return dc_fmt_secs(buf, since(ts, ref->prev_shown));
  case DC_T_EPOCH: return dc_fmt_secs(buf, (int64_t)ts);
  default: break;
  }
  time_t sec = (time_t)(ts / 1000000000u);
  struct tm tm;
  bool utc = f == DC_T_UTC || f == DC_T_UTC_DATE || f == DC_T_UTC_DOY;
  if (!(utc ? gmtime_r(&sec, &tm) : localtime_r(&sec, &tm))) return dc_fmt_secs(buf, (int64_t)ts);
  const char *layout = "%H:%M:%S";
  if (f == DC_T_ABS_DATE || f == DC_T_UTC_DATE) layout = "%Y-%m-%d %H:%M:%S";
  else if (f == DC_T_ABS_DOY || f == DC_T_UTC_DOY) layout = "%Y/%j %H:%M:%S";
  size_t n = strftime(buf, DC_TIME_MAX - 11, layout, &tm);
  n += (size_t)snprintf(buf + n, DC_TIME_MAX - n, ".%09u", (unsigned)(ts % 1000000000u));
  return n;
}
