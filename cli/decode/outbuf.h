/* Buffered output with cheap formatting: every printer of ualink-decode
 * appends here; the buffer goes to the FILE in large writes. */
#ifndef UAL_DC_OUTBUF_H
#define UAL_DC_OUTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct dc_out {
  char *buf;
  size_t n, cap;
  FILE *fp;
  bool failed;          /* a write failed (disk full, closed pipe) */
  int err;              /* its errno */
  uint64_t written;     /* bytes handed to fp */
};

bool dc_out_init(struct dc_out *o, FILE *fp, size_t cap);
void dc_out_free(struct dc_out *o);
void dc_out_flush(struct dc_out *o);

static inline void dc_out_need(struct dc_out *o, size_t k) {
  if (o->n + k > o->cap) dc_out_flush(o);
}
void dc_out_mem(struct dc_out *o, const void *p, size_t k);
static inline void dc_out_str(struct dc_out *o, const char *s) { dc_out_mem(o, s, strlen(s)); }
static inline void dc_out_ch(struct dc_out *o, char c) {
  dc_out_need(o, 1);
  o->buf[o->n++] = c;
}
void dc_out_u64(struct dc_out *o, uint64_t v);
/* v right-aligned in a field of w characters. */
void dc_out_u64w(struct dc_out *o, uint64_t v, unsigned w);
void dc_out_i64(struct dc_out *o, int64_t v);
/* Lower-case hex of n bytes, no separators. */
void dc_out_hexbytes(struct dc_out *o, const uint8_t *p, size_t n);
/* v as exactly digits lower-case hex digits. */
void dc_out_hexu(struct dc_out *o, uint64_t v, unsigned digits);
/* Nanoseconds as seconds with nine decimals ("-0.000001024" when negative). */
#define DC_SECS_MAX 32
size_t dc_fmt_secs(char buf[DC_SECS_MAX], int64_t ns);   /* no NUL; returns the length */
void dc_out_secs(struct dc_out *o, int64_t ns);
void dc_out_pad(struct dc_out *o, unsigned n);
void dc_out_fmt(struct dc_out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
