/* Minimal JSON writer over dc_out: strings with escaping, and members of an
 * object written in order with the comma handled by a "first" flag. */
#ifndef UAL_DC_JSON_H
#define UAL_DC_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include "outbuf.h"

void dc_json_string(struct dc_out *o, const char *s);
/* ,"k": */
void dc_json_key(struct dc_out *o, bool *first, const char *k);
void dc_json_u64(struct dc_out *o, bool *first, const char *k, uint64_t v);
void dc_json_i64(struct dc_out *o, bool *first, const char *k, int64_t v);
void dc_json_bool(struct dc_out *o, bool *first, const char *k, bool v);
void dc_json_str(struct dc_out *o, bool *first, const char *k, const char *v);
void dc_json_hex(struct dc_out *o, bool *first, const char *k, const uint8_t *p, size_t n);
/* A time in ns since the epoch as a string of seconds with 9 fraction
 * digits ("1735689600.000001135"), as tshark's frame.time_epoch: as a
 * number it exceeds 2^53, which jq and JavaScript round. */
void dc_json_secs(struct dc_out *o, bool *first, const char *k, uint64_t ts_ns);
/* A record's or event's "ts" (dc_json_secs) and "rel_ns", the ns since
 * from (the first record's time, as -t r); 0 when either has no time. */
void dc_json_time(struct dc_out *o, bool *first, uint64_t ts_ns, uint64_t from);
/* 8 lower-case hex digits of a DWord value. */
void dc_json_dw(struct dc_out *o, uint32_t v);

#endif
