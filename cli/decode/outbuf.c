/* Buffered output (outbuf.h). */
#include "outbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

/* A SIGINT while stdout is blocked (main.c installs its handler without
 * SA_RESTART) makes write(2) fail with EINTR: the rest is written then. */
static bool put(FILE *fp, const void *p, size_t k) {
  size_t done = 0;
  for (;;) {
    errno = 0;
    done += fwrite((const char *)p + done, 1, k - done, fp);
    if (done == k) return true;
    if (errno != EINTR) return false;
    clearerr(fp);
  }
}

static void fail(struct dc_out *o) {
  o->failed = true;
  o->err = errno ? errno : EIO;
}

bool dc_out_init(struct dc_out *o, FILE *fp, size_t cap) {
  o->buf = malloc(cap);
  o->n = 0;
  o->cap = o->buf ? cap : 0;
  o->fp = fp;
  o->failed = false;
  o->err = 0;
  o->written = 0;
  return o->buf != NULL;
}

void dc_out_free(struct dc_out *o) {
  dc_out_flush(o);
  free(o->buf);
  o->buf = NULL;
  o->cap = 0;
}

void dc_out_flush(struct dc_out *o) {
  if (o->n && !o->failed && !put(o->fp, o->buf, o->n)) fail(o);
  o->written += o->n;
  o->n = 0;
}

void dc_out_mem(struct dc_out *o, const void *p, size_t k) {
  if (o->n + k > o->cap) {
    dc_out_flush(o);
    if (k > o->cap) {
      if (!o->failed && !put(o->fp, p, k)) fail(o);
      o->written += k;
      return;
    }
  }
  memcpy(o->buf + o->n, p, k);
  o->n += k;
}

void dc_out_u64w(struct dc_out *o, uint64_t v, unsigned w) {
  char t[20];
  unsigned i = sizeof t;
  do {
    t[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  unsigned len = (unsigned)sizeof t - i;
  if (w > len) dc_out_pad(o, w - len);
  dc_out_mem(o, t + i, len);
}

void dc_out_u64(struct dc_out *o, uint64_t v) { dc_out_u64w(o, v, 0); }

void dc_out_i64(struct dc_out *o, int64_t v) {
  if (v < 0) {
    dc_out_ch(o, '-');
    dc_out_u64(o, (uint64_t)0 - (uint64_t)v);
  } else {
    dc_out_u64(o, (uint64_t)v);
  }
}

static const char hexdig[] = "0123456789abcdef";

void dc_out_hexbytes(struct dc_out *o, const uint8_t *p, size_t n) {
  while (n) {
    size_t chunk = n > 256 ? 256 : n;
    dc_out_need(o, 2 * chunk);
    char *d = o->buf + o->n;
    for (size_t i = 0; i < chunk; i++) {
      d[2 * i] = hexdig[p[i] >> 4];
      d[2 * i + 1] = hexdig[p[i] & 15];
    }
    o->n += 2 * chunk;
    p += chunk;
    n -= chunk;
  }
}

void dc_out_hexu(struct dc_out *o, uint64_t v, unsigned digits) {
  char t[16];
  if (digits > 16) digits = 16;
  for (unsigned i = 0; i < digits; i++) t[digits - 1 - i] = hexdig[(v >> (4 * i)) & 15];
  dc_out_mem(o, t, digits);
}

size_t dc_fmt_secs(char buf[DC_SECS_MAX], int64_t ns) {
  uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
  char t[DC_SECS_MAX];
  size_t i = sizeof t;
  uint64_t f = a % 1000000000u, w = a / 1000000000u;
  for (int d = 0; d < 9; d++) {
    t[--i] = (char)('0' + f % 10);
    f /= 10;
  }
  t[--i] = '.';
  do {
    t[--i] = (char)('0' + w % 10);
    w /= 10;
  } while (w);
  if (ns < 0) t[--i] = '-';
  memcpy(buf, t + i, sizeof t - i);
  return sizeof t - i;
}

void dc_out_secs(struct dc_out *o, int64_t ns) {
  char t[DC_SECS_MAX];
  dc_out_mem(o, t, dc_fmt_secs(t, ns));
}

void dc_out_pad(struct dc_out *o, unsigned n) {
  static const char sp[] = "                                                                ";
  while (n) {
    unsigned k = n > sizeof sp - 1 ? (unsigned)sizeof sp - 1 : n;
    dc_out_mem(o, sp, k);
    n -= k;
  }
}

void dc_out_fmt(struct dc_out *o, const char *fmt, ...) {
  char t[512];
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(t, sizeof t, fmt, ap);
  va_end(ap);
  if (k < 0) return;
  dc_out_mem(o, t, (size_t)k < sizeof t ? (size_t)k : sizeof t - 1);
}
