/* JSON writer (json.h). */
#include "json.h"

void dc_json_string(struct dc_out *o, const char *s) {
  static const char hex[] = "0123456789abcdef";
  dc_out_ch(o, '"');
  const char *run = s;
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    dc_out_mem(o, run, (size_t)(s - run));
    run = s + 1;
    char e[6] = { '\\', 0 };
    size_t k = 2;
    switch (c) {
    case '"': e[1] = '"'; break;
    case '\\': e[1] = '\\'; break;
    case '\n': e[1] = 'n'; break;
    case '\r': e[1] = 'r'; break;
    case '\t': e[1] = 't'; break;
    case '\b': e[1] = 'b'; break;
    case '\f': e[1] = 'f'; break;
    default:
      e[1] = 'u'; e[2] = '0'; e[3] = '0'; e[4] = hex[c >> 4]; e[5] = hex[c & 15];
      k = 6;
      break;
    }
    dc_out_mem(o, e, k);
  }
  dc_out_mem(o, run, (size_t)(s - run));
  dc_out_ch(o, '"');
}

void dc_json_key(struct dc_out *o, bool *first, const char *k) {
  if (!*first) dc_out_ch(o, ',');
  *first = false;
  dc_json_string(o, k);
  dc_out_ch(o, ':');
}

void dc_json_u64(struct dc_out *o, bool *first, const char *k, uint64_t v) {
  dc_json_key(o, first, k);
  dc_out_u64(o, v);
}

void dc_json_i64(struct dc_out *o, bool *first, const char *k, int64_t v) {
  dc_json_key(o, first, k);
  dc_out_i64(o, v);
}

void dc_json_bool(struct dc_out *o, bool *first, const char *k, bool v) {
  dc_json_key(o, first, k);
  dc_out_str(o, v ? "true" : "false");
}

void dc_json_str(struct dc_out *o, bool *first, const char *k, const char *v) {
  dc_json_key(o, first, k);
  dc_json_string(o, v);
}

void dc_json_hex(struct dc_out *o, bool *first, const char *k, const uint8_t *p, size_t n) {
  dc_json_key(o, first, k);
  dc_out_ch(o, '"');
  dc_out_hexbytes(o, p, n);
  dc_out_ch(o, '"');
}

void dc_json_dw(struct dc_out *o, uint32_t v) {
  dc_out_ch(o, '"');
  dc_out_hexu(o, v, 8);
  dc_out_ch(o, '"');
}

void dc_json_secs(struct dc_out *o, bool *first, const char *k, uint64_t ts_ns) {
  dc_json_key(o, first, k);
  dc_out_fmt(o, "\"%llu.%09u\"", (unsigned long long)(ts_ns / 1000000000u), (unsigned)(ts_ns % 1000000000u));
}

void dc_json_time(struct dc_out *o, bool *first, uint64_t ts_ns, uint64_t from) {
  dc_json_secs(o, first, "ts", ts_ns);
  dc_json_i64(o, first, "rel_ns", ts_ns && from ? (int64_t)(ts_ns - from) : 0);
}
