/* Capture records: header/body parse and build, every status code, link
 * events, rate names and flit times (docs/capture-format.md). */
#include "check.h"
#include "ualink/core/record.h"
#include "ualink/ualink/os.h"

static uint64_t seed = 0x5EC0DDA7A5EEDULL;

static size_t body_len_of(unsigned kind) {
  switch (kind) {
  case UAL_REC_FLIT: return 256;
  case UAL_REC_OS: return 4 + 16;
  default: return UAL_REC_EVENT_BYTES;
  }
}

/* Known answer straight from the capture-format table. */
static void test_header_bytes(void) {
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, UAL_REC_EVENT, 1);
  h.flags |= UAL_RF_LOST;
  h.link = 2;
  h.rate = 7;
  h.width = 8;
  h.role_a = UAL_ROLE_ACCEL;
  h.role_b = UAL_ROLE_SWITCH;
  uint8_t body[UAL_REC_EVENT_BYTES] = {0}, out[32];
  struct ual_event ev = { UAL_EV_RATE, 0, 0x12345678 };
  ual_event_build(&ev, body);
  static const uint8_t ev_bytes[8] = { 0x04, 0x00, 0x00, 0x00, 0x78, 0x56, 0x34, 0x12 };
  CHECK_MEM(body, ev_bytes, 8);
  size_t n = ual_record_build(&h, body, sizeof body, out, sizeof out);
  CHECK_EQ(n, 16);
  /* version 1, kind 3, flags dir|lost, link 2, rate 7, width 8, roles B=2 A=1 */
  static const uint8_t hdr[8] = { 0x01, 0x03, 0x05, 0x02, 0x07, 0x08, 0x09, 0x00 };
  CHECK_MEM(out, hdr, 8);
  CHECK_MEM(out + 8, ev_bytes, 8);

  struct ual_record r;
  CHECK_EQ(ual_record_parse(out, n, &r), UAL_RS_OK);
  CHECK_EQ(r.h.flags, UAL_RF_DIR_B | UAL_RF_LOST);
  CHECK_EQ(r.h.role_a, UAL_ROLE_ACCEL);
  CHECK_EQ(r.h.role_b, UAL_ROLE_SWITCH);
  CHECK(r.body == out + 8);
  CHECK_EQ(r.body_len, 8);
  struct ual_event back;
  CHECK_EQ(ual_event_parse(r.body, r.body_len, &back), 0);
  CHECK_EQ(back.code, UAL_EV_RATE);
  CHECK_EQ(back.value, 0x12345678);
  CHECK_STR(ual_event_name(back.code), "rate_changed");

  /* phy_err is bit 1 */
  ual_rec_hdr_init(&h, UAL_REC_EVENT, 0);
  h.flags = UAL_RF_PHY_ERR;
  CHECK_EQ(ual_record_build(&h, body, sizeof body, out, sizeof out), 16);
  CHECK_EQ(out[2], 0x02);
}

static void test_hdr_init(void) {
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, UAL_REC_OS, 0);
  CHECK_EQ(h.version, 1);
  CHECK_EQ(h.kind, UAL_REC_OS);
  CHECK_EQ(h.flags, 0);
  CHECK_EQ(h.link, 255);
  CHECK_EQ(h.rate, 0);
  CHECK_EQ(h.width, 0);
  CHECK_EQ(h.role_a, UAL_ROLE_UNKNOWN);
  CHECK_EQ(h.rsvd_flags | h.rsvd_roles | h.rsvd, 0);
  ual_rec_hdr_init(&h, UAL_REC_FLIT, 7);
  CHECK_EQ(h.flags, UAL_RF_DIR_B);
}

/* parse(build(x)) == x for every kind with random valid header values. */
static void test_round_trip(void) {
  static const unsigned kinds[] = { UAL_REC_FLIT, UAL_REC_OS, UAL_REC_EVENT };
  uint8_t body[300], out[320];
  for (int iter = 0; iter < 300; iter++) {
    unsigned kind = kinds[iter % 3];
    struct ual_rec_hdr h;
    ual_rec_hdr_init(&h, kind, iter & 1);
    uint64_t r = check_rand(&seed);
    h.flags = (uint8_t)(r & 7);
    h.link = (uint8_t)(r >> 8);
    h.rate = (uint8_t)(r >> 16 & 7);
    h.width = (uint8_t)(1u << (r >> 24 & 3));
    h.role_a = (uint8_t)(r >> 32 & 3);
    h.role_b = (uint8_t)(r >> 34 & 3);
    size_t bl = body_len_of(kind);
    if (kind == UAL_REC_OS) bl = 4 + (size_t)(r >> 40) % (UAL_OS_MAX_SYMBOLS + 1);
    for (size_t i = 0; i < bl; i++) body[i] = (uint8_t)check_rand(&seed);
    size_t n = ual_record_build(&h, body, bl, out, sizeof out);
    CHECK_EQ(n, 8 + bl);
    struct ual_record rec;
    CHECK_EQ(ual_record_parse(out, n, &rec), UAL_RS_OK);
    CHECK_MEM(&rec.h, &h, sizeof h);
    CHECK_EQ(rec.body_len, bl);
    CHECK_MEM(rec.body, body, bl);
    if (kind == UAL_REC_EVENT) {
      struct ual_event e = { (uint16_t)r, (uint16_t)(r >> 16), (uint32_t)(r >> 32) }, back;
      uint8_t eb[8];
      ual_event_build(&e, eb);
      CHECK_EQ(ual_event_parse(eb, 8, &back), 0);
      CHECK_MEM(&back, &e, sizeof e);
    }
  }
}

/* build(parse(b)) == b for any header bytes that parse, reserved bits too. */
static void test_rebuild_any_header(void) {
  uint8_t in[8 + 256], out[8 + 256];
  for (int iter = 0; iter < 2000; iter++) {
    for (int i = 0; i < 8; i++) in[i] = (uint8_t)check_rand(&seed);
    in[0] = 1;
    in[1] = (uint8_t)(1 + iter % 3);
    size_t len = 8 + body_len_of(in[1]);
    for (size_t i = 8; i < len; i++) in[i] = (uint8_t)i;
    struct ual_record r;
    enum ual_rec_status st = ual_record_parse(in, len, &r);
    CHECK(st == UAL_RS_OK || st == UAL_RS_RESERVED);
    CHECK_EQ(st == UAL_RS_RESERVED, (in[2] & 0xF8) || (in[6] & 0xF0) || in[7]);
    CHECK_EQ(ual_record_build(&r.h, r.body, r.body_len, out, sizeof out), len);
    if (memcmp(in, out, len)) { CHECK_MEM(in, out, len); break; }
  }
}

static enum ual_rec_status parse_with(unsigned version, unsigned kind, size_t body_len,
                                      unsigned byte, uint8_t orval, struct ual_record *r) {
  static uint8_t buf[8 + 400];
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, kind, 0);
  h.version = (uint8_t)version;
  memset(buf, 0xA5, sizeof buf);
  size_t n = ual_record_build(&h, buf + 8, body_len, buf, sizeof buf);
  buf[byte] |= orval;
  return ual_record_parse(buf, n, r);
}

static void test_status(void) {
  struct ual_record r;
  uint8_t small[8] = { 1, 1, 0, 0, 0, 0, 0, 0 };
  for (size_t len = 0; len < 8; len++) {
    CHECK_EQ(ual_record_parse(small, len, &r), UAL_RS_SHORT);
    CHECK(r.body == NULL);
  }
  CHECK_EQ(ual_record_parse(NULL, 0, &r), UAL_RS_SHORT);
  CHECK_EQ(ual_record_parse(small, 8, &r), UAL_RS_BODY_LEN); /* flit with no body */
  CHECK_EQ(r.body_len, 0);

  CHECK_EQ(parse_with(0, UAL_REC_FLIT, 256, 0, 0, &r), UAL_RS_VERSION);
  CHECK_EQ(parse_with(2, UAL_REC_FLIT, 256, 0, 0, &r), UAL_RS_VERSION);
  CHECK_EQ(r.h.version, 2); /* header filled although malformed */
  CHECK_EQ(r.h.link, 255);
  CHECK_EQ(r.body_len, 256);
  CHECK_EQ(parse_with(2, 9, 3, 2, 0x80, &r), UAL_RS_VERSION); /* version wins */

  for (unsigned k = 0; k < 256; k++) {
    if (k >= 1 && k <= UAL_REC_PCIE_NF) continue;
    CHECK_EQ(parse_with(1, k, 256, 0, 0, &r), UAL_RS_KIND);
  }
  CHECK_EQ(r.h.kind, 255);

  /* body lengths */
  CHECK_EQ(parse_with(1, UAL_REC_FLIT, 255, 0, 0, &r), UAL_RS_BODY_LEN);
  CHECK_EQ(parse_with(1, UAL_REC_FLIT, 257, 0, 0, &r), UAL_RS_BODY_LEN);
  CHECK_EQ(parse_with(1, UAL_REC_FLIT, 256, 0, 0, &r), UAL_RS_OK);
  for (size_t bl = 0; bl < 4; bl++)
    CHECK_EQ(parse_with(1, UAL_REC_OS, bl, 0, 0, &r), UAL_RS_BODY_LEN);
  CHECK_EQ(parse_with(1, UAL_REC_OS, 4, 0, 0, &r), UAL_RS_OK);
  CHECK_EQ(parse_with(1, UAL_REC_OS, 4 + UAL_OS_MAX_SYMBOLS, 0, 0, &r), UAL_RS_OK);
  CHECK_EQ(parse_with(1, UAL_REC_OS, 5 + UAL_OS_MAX_SYMBOLS, 0, 0, &r), UAL_RS_BODY_LEN);
  CHECK_EQ(parse_with(1, UAL_REC_EVENT, 7, 0, 0, &r), UAL_RS_BODY_LEN);
  CHECK_EQ(parse_with(1, UAL_REC_EVENT, 9, 0, 0, &r), UAL_RS_BODY_LEN);
  CHECK_EQ(parse_with(1, UAL_REC_EVENT, 0, 0, 0, &r), UAL_RS_BODY_LEN);
  CHECK_EQ(parse_with(1, UAL_REC_EVENT, 7, 7, 0xFF, &r), UAL_RS_BODY_LEN); /* before reserved */

  /* reserved bits: flags 7:3, roles 7:4, byte 7; defined bits are not reserved */
  for (unsigned b = 0; b < 8; b++) {
    CHECK_EQ(parse_with(1, UAL_REC_EVENT, 8, 2, (uint8_t)(1u << b), &r),
             b >= 3 ? UAL_RS_RESERVED : UAL_RS_OK);
    CHECK_EQ(parse_with(1, UAL_REC_EVENT, 8, 6, (uint8_t)(1u << b), &r),
             b >= 4 && b != 7 ? UAL_RS_RESERVED : UAL_RS_OK);   /* bit 7 alone: PCIe roles, all unknown */
    CHECK_EQ(parse_with(1, UAL_REC_EVENT, 8, 7, (uint8_t)(1u << b), &r), UAL_RS_RESERVED);
  }
  CHECK_EQ(parse_with(1, UAL_REC_FLIT, 256, 2, 0x28, &r), UAL_RS_RESERVED);
  CHECK_EQ(r.h.rsvd_flags, 0x05);
  CHECK_EQ(r.h.flags, 0);
  CHECK_EQ(parse_with(1, UAL_REC_FLIT, 256, 6, 0x76, &r), UAL_RS_RESERVED);
  CHECK_EQ(r.h.rsvd_roles, 0x7);
  CHECK_EQ(r.h.role_a, 2);
  CHECK_EQ(r.h.role_b, 1);
  CHECK_EQ(r.h.roles_pcie, 0);
  /* pcie.md [P3]: bit 7 selects A in 2:0, B in 5:3, bit 6 reserved */
  CHECK_EQ(parse_with(1, UAL_REC_EVENT, 8, 6, 0xA1, &r), UAL_RS_OK);
  CHECK_EQ(r.h.roles_pcie, 1);
  CHECK_EQ(r.h.role_a, 1);
  CHECK_EQ(r.h.role_b, 4);
  CHECK_EQ(parse_with(1, UAL_REC_EVENT, 8, 6, 0xC0 | 3 << 3 | 2, &r), UAL_RS_RESERVED);
  CHECK_EQ(r.h.role_a, 2);
  CHECK_EQ(r.h.role_b, 3);
  CHECK_EQ(r.h.rsvd_roles, 1);
  {
    struct ual_rec_hdr h;
    uint8_t out[16];
    ual_rec_hdr_init(&h, UAL_REC_EVENT, 0);
    h.roles_pcie = 1;
    h.role_a = 3;
    h.role_b = 5;
    CHECK_EQ(ual_record_build(&h, NULL, 0, out, sizeof out), 8);
    CHECK_EQ(out[6], 0x80 | 5 << 3 | 3);
  }
  CHECK(r.body != NULL); /* still decodable */

  /* status texts come from the list, one per code */
  CHECK_STR(ual_rec_status_text(UAL_RS_OK), "ok");
  CHECK_STR(ual_rec_status_text(UAL_RS_BODY_LEN), "body length wrong for its kind");
  for (int s = 0; s < UAL_RS_COUNT; s++)
    for (int t = s + 1; t < UAL_RS_COUNT; t++)
      CHECK(strcmp(ual_rec_status_text((enum ual_rec_status)s),
                   ual_rec_status_text((enum ual_rec_status)t)) != 0);
  CHECK_STR(ual_rec_status_text(UAL_RS_COUNT), "?");
}

static void test_build_limits(void) {
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, UAL_REC_FLIT, 0);
  uint8_t body[256] = {0}, out[264];
  CHECK_EQ(ual_record_build(&h, body, 256, out, 263), 0);
  CHECK_EQ(ual_record_build(&h, body, 256, out, 7), 0);
  CHECK_EQ(ual_record_build(&h, body, 256, out, 264), 264);
  CHECK_EQ(ual_record_build(&h, NULL, 0, out, 8), 8);
  CHECK_EQ(ual_record_build(&h, NULL, 4, out, 264), 0);
}

static void test_events(void) {
  uint8_t b[8] = {0};
  struct ual_event e;
  CHECK_EQ(ual_event_parse(b, 7, &e), -1);
  CHECK_EQ(ual_event_parse(b, 9, &e), -1);
  CHECK_STR(ual_event_name(UAL_EV_EIDLE_ENTER), "eidle_entered");
  CHECK_STR(ual_event_name(2), "eidle_exited");
  CHECK_STR(ual_event_name(3), "receiver_detected");
  CHECK_STR(ual_event_name(5), "width_changed");
  CHECK_STR(ual_event_name(6), "capture_started");
  CHECK_STR(ual_event_name(7), "capture_stopped");
  CHECK_STR(ual_event_name(UAL_EV_DROPPED), "records_dropped");
  CHECK(ual_event_name(0) == NULL);
  CHECK_STR(ual_event_name(UAL_EV_UB_MODE), "ub_mode");
  CHECK(ual_event_name(14) == NULL);
  CHECK(ual_event_name(0x10001) == NULL);
  /* reserved half-word and an unknown code still parse */
  static const uint8_t raw[8] = { 0x08, 0x01, 0xCD, 0xAB, 0x01, 0x00, 0x00, 0x80 };
  CHECK_EQ(ual_event_parse(raw, 8, &e), 0);
  CHECK_EQ(e.code, 0x0108);
  CHECK_EQ(e.rsvd, 0xABCD);
  CHECK_EQ(e.value, 0x80000001u);
  ual_event_build(&e, b);
  CHECK_MEM(b, raw, 8);
}

static void test_rates(void) {
  static const char *const names[] = { NULL, "2.5", "32.0", "64.0", "104", "112", "120", "128" };
  for (unsigned c = 1; c < 8; c++) CHECK_STR(ual_rate_name(c), names[c]);
  CHECK(ual_rate_name(0) == NULL);
  CHECK_STR(ual_rate_name(8), "5.0");   /* PCIe, pcie.md [P5] */
  CHECK_STR(ual_rate_name(9), "8.0");
  CHECK_STR(ual_rate_name(10), "16.0");
  CHECK_EQ(ual_rate_encoding(8), UAL_ENC_8B10B);
  CHECK_EQ(ual_rate_encoding(10), UAL_ENC_128B130B);
  CHECK(ual_rate_name(11) == NULL);
  CHECK(ual_rate_name(255) == NULL);
  CHECK_EQ(ual_rate_encoding(1), UAL_ENC_8B10B);
  CHECK_EQ(ual_rate_encoding(2), UAL_ENC_128B130B);
  for (unsigned c = 3; c < 8; c++) CHECK_EQ(ual_rate_encoding(c), UAL_ENC_1B1B);
  CHECK_EQ(ual_rate_encoding(0), -1);
  CHECK_EQ(ual_rate_encoding(11), -1);

  /* 2048 bits; 8b/10b and 128b/130b add their line-code overhead */
  CHECK_EQ(ual_flit_time_ps(7, 8), 2000);           /* 2048 / (8 * 128 Gb/s) */
  CHECK_EQ(ual_flit_time_ps(7, 1), 16000);
  CHECK_EQ(ual_flit_time_ps(1, 1), 1024000);        /* digest: 1.024 us at 2.5 x1 */
  CHECK_EQ(ual_flit_time_ps(1, 8), 128000);
  CHECK_EQ(ual_flit_time_ps(2, 1), 65000);          /* 2048 * 130/128 / 32 */
  CHECK_EQ(ual_flit_time_ps(2, 8), 8125);
  CHECK_EQ(ual_flit_time_ps(3, 8), 4000);
  CHECK_EQ(ual_flit_time_ps(3, 2), 16000);
  CHECK_EQ(ual_flit_time_ps(4, 8), 2462);           /* 2461.5 rounded */
  CHECK_EQ(ual_flit_time_ps(5, 8), 2286);           /* 2285.7 */
  CHECK_EQ(ual_flit_time_ps(6, 4), 4267);           /* 4266.7 */
  CHECK_EQ(ual_flit_time_ps(0, 8), 0);
  CHECK_EQ(ual_flit_time_ps(11, 8), 0);
  CHECK_EQ(ual_flit_time_ps(7, 0), 0);
  CHECK_EQ(ual_flit_time_ps(7, 3), 0);
  CHECK_EQ(ual_flit_time_ps(7, 16), 0);
  /* halving the width doubles the time at every rate */
  for (unsigned c = 1; c < 8; c++)
    for (unsigned w = 2; w <= 8; w <<= 1) {
      uint64_t a = ual_flit_time_ps(c, w / 2), b2 = ual_flit_time_ps(c, w) * 2;
      CHECK(a + 1 >= b2 && a <= b2 + 1);
    }
}

int main(void) {
  test_header_bytes();
  test_hdr_init();
  test_round_trip();
  test_rebuild_any_header();
  test_status();
  test_build_limits();
  test_events();
  test_rates();
  return check_done("test_record");
}
