/* ualink-decode's output helpers: JSON string escaping (checked against
 * Python's json module in the JSON tests too, but only for the strings the
 * captures produce), number and time formatting, buffer overflow handling. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "json.h"
#include "outbuf.h"

/* Runs f into a small buffer over a memory stream; returns the text. */
static char *capture(void (*f)(struct dc_out *), size_t cap) {
  static char text[8192];
  FILE *fp = fmemopen(text, sizeof text, "w");
  struct dc_out o;
  dc_out_init(&o, fp, cap);
  f(&o);
  dc_out_free(&o);
  fclose(fp);
  return text;
}

static void esc(struct dc_out *o) { dc_json_string(o, "a\"b\\c\n\t\r\b\f\x01\x1f end"); }
static void nums(struct dc_out *o) {
  dc_out_u64(o, 0);
  dc_out_ch(o, ' ');
  dc_out_u64(o, 18446744073709551615ull);
  dc_out_ch(o, ' ');
  dc_out_i64(o, -9223372036854775807ll - 1);
  dc_out_ch(o, '|');
  dc_out_u64w(o, 42, 6);
  dc_out_ch(o, '|');
  dc_out_u64w(o, 1234567, 3);
  dc_out_ch(o, '|');
  dc_out_hexu(o, 0xbeef, 8);
  dc_out_ch(o, '|');
  static const uint8_t b[3] = { 0x00, 0xa5, 0xff };
  dc_out_hexbytes(o, b, 3);
}
static void secs(struct dc_out *o) {
  dc_out_secs(o, 0);
  dc_out_ch(o, ' ');
  dc_out_secs(o, 1024);
  dc_out_ch(o, ' ');
  dc_out_secs(o, -2);
  dc_out_ch(o, ' ');
  dc_out_secs(o, 1700000000123456789ll);
}
static void members(struct dc_out *o) {
  bool f = true;
  dc_out_ch(o, '{');
  dc_json_u64(o, &f, "n", 7);
  dc_json_bool(o, &f, "ok", true);
  dc_json_str(o, &f, "s", "x");
  dc_json_key(o, &f, "dw");
  dc_json_dw(o, 0x1a2b);
  dc_out_ch(o, '}');
}
/* More than the buffer holds, in pieces small and large. */
static void big(struct dc_out *o) {
  char chunk[100];
  memset(chunk, 'x', sizeof chunk);
  for (int i = 0; i < 30; i++) dc_out_mem(o, chunk, sizeof chunk);
  dc_out_ch(o, '.');
  char large[3000];
  memset(large, 'y', sizeof large);
  dc_out_mem(o, large, sizeof large);
  dc_out_fmt(o, "%s=%d", "end", 5);
}

int main(void) {
  CHECK_STR(capture(esc, 64), "\"a\\\"b\\\\c\\n\\t\\r\\b\\f\\u0001\\u001f end\"");
  CHECK_STR(capture(nums, 16), "0 18446744073709551615 -9223372036854775808|    42|1234567|0000beef|00a5ff");
  CHECK_STR(capture(secs, 16), "0.000000000 0.000001024 -0.000000002 1700000000.123456789");
  CHECK_STR(capture(members, 8), "{\"n\":7,\"ok\":true,\"s\":\"x\",\"dw\":\"00001a2b\"}");
  const char *t = capture(big, 256);
  CHECK_EQ(strlen(t), 3000 + 1 + 3000 + 5);
  CHECK(t[2999] == 'x' && t[3000] == '.' && t[3001] == 'y' && t[6000] == 'y');
  CHECK_STR(t + 6001, "end=5");
  char s[DC_SECS_MAX];
  CHECK_EQ(dc_fmt_secs(s, 999999999), 11);
  CHECK_MEM(s, "0.999999999", 11);
  return check_done("test_outbuf");
}
