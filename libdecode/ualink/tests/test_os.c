/* Ordered sets: build and identify every set in every encoding, TS fields,
 * Modified TS, LT-NO-FLIT-MODE and robustness against garbage (digest §5.4). */
#include "check.h"
#include "ualink/ualink/os.h"
#include "ualink/core/decode.h"
#include "ualink/core/rules.h"
#include "ualink/core/summary.h"
#include "ualink/core/tree.h"

#include <string.h>

static uint64_t seed = 0x0DDBA11C0FFEEULL;

static const unsigned encs[] = { UAL_ENC_8B10B, UAL_ENC_128B130B, UAL_ENC_1B1B };

/* Decodes a body made of a header and the given symbols. */
static unsigned identify(unsigned enc, uint16_t kmask, const uint8_t *sym, size_t n, struct ual_os *os) {
  uint8_t body[4 + UAL_OS_MAX_SYMBOLS];
  body[0] = 3;
  body[1] = (uint8_t)enc;
  body[2] = (uint8_t)kmask;
  body[3] = (uint8_t)(kmask >> 8);
  memcpy(body + 4, sym, n);
  CHECK_EQ(ual_os_decode(body, 4 + n, os), 0);
  return os->type;
}

static void test_names(void) {
  CHECK_STR(ual_os_encoding_name(UAL_ENC_8B10B), "8b10b");
  CHECK_STR(ual_os_encoding_name(UAL_ENC_128B130B), "128b130b");
  CHECK_STR(ual_os_encoding_name(UAL_ENC_1B1B), "1b1b");
  CHECK_STR(ual_os_encoding_name(3), "unknown");
  static const char *const t[] = { "ts1", "ts2", "eios", "eieos", "skp", "sds", "unknown" };
  for (unsigned i = 0; i <= UAL_OS_UNKNOWN; i++) CHECK_STR(ual_os_type_name(i), t[i]);
  CHECK_STR(ual_os_type_name(99), "unknown");
}

/* Known answers for the fixed sets, from the §5.4 table. */
static void test_fixed_bytes(void) {
  uint8_t b[80];
  CHECK_EQ(ual_os_build(b, sizeof b, 5, UAL_ENC_8B10B, UAL_OS_EIOS), 8);
  static const uint8_t eios8[8] = { 5, 0, 0x0F, 0x00, 0xBC, 0x7C, 0x7C, 0x7C };
  CHECK_MEM(b, eios8, 8);
  CHECK_EQ(ual_os_build(b, sizeof b, 0, UAL_ENC_8B10B, UAL_OS_SKP), 8);
  static const uint8_t skp8[8] = { 0, 0, 0x0F, 0x00, 0xBC, 0x1C, 0x1C, 0x1C };
  CHECK_MEM(b, skp8, 8);

  CHECK_EQ(ual_os_build(b, sizeof b, 255, UAL_ENC_128B130B, UAL_OS_EIOS), 20);
  CHECK_EQ(b[0], 255);
  CHECK_EQ(b[1], 1);
  CHECK_EQ(b[2] | b[3], 0);
  for (int i = 0; i < 16; i++) CHECK_EQ(b[4 + i], 0x66);
  CHECK_EQ(ual_os_build(b, sizeof b, 1, UAL_ENC_128B130B, UAL_OS_SDS), 20);
  CHECK_EQ(b[4], 0xE1);
  for (int i = 1; i < 16; i++) CHECK_EQ(b[4 + i], 0x87);
  CHECK_EQ(ual_os_build(b, sizeof b, 1, UAL_ENC_128B130B, UAL_OS_SKP), 20);
  for (int i = 0; i < 12; i++) CHECK_EQ(b[4 + i], 0xAA);
  CHECK_EQ(b[16], 0xE1);
  CHECK_EQ(ual_os_build(b, sizeof b, 1, UAL_ENC_128B130B, UAL_OS_EIEOS), 20);
  for (int i = 0; i < 16; i++) CHECK_EQ(b[4 + i], (i / 4) % 2 ? 0xFF : 0x00);

  CHECK_EQ(ual_os_build(b, sizeof b, 2, UAL_ENC_1B1B, UAL_OS_EIOS), 20);
  for (int i = 0; i < 16; i++) CHECK_EQ(b[4 + i], i % 2 ? 0xF0 : 0x0F);
  CHECK_EQ(ual_os_build(b, sizeof b, 2, UAL_ENC_1B1B, UAL_OS_EIEOS), 20);
  for (int i = 0; i < 16; i++) CHECK_EQ(b[4 + i], i < 8 ? 0x00 : 0xFF);
  CHECK_EQ(ual_os_build(b, sizeof b, 2, UAL_ENC_1B1B, UAL_OS_SKP), 44);
  for (int i = 0; i < 40; i++) CHECK_EQ(b[4 + i], i % 2 ? 0x0F : 0xF0);
  CHECK_EQ(ual_os_build(b, sizeof b, 2, UAL_ENC_1B1B, UAL_OS_SDS), 20);
  for (int i = 0; i < 16; i++) CHECK_EQ(b[4 + i], i % 4 ? 0xC6 : 0xB1);

  /* not in 8b/10b at 2.5 GT/s; TS sets need ual_os_build_ts */
  CHECK_EQ(ual_os_build(b, sizeof b, 0, UAL_ENC_8B10B, UAL_OS_EIEOS), 0);
  CHECK_EQ(ual_os_build(b, sizeof b, 0, UAL_ENC_8B10B, UAL_OS_SDS), 0);
  CHECK_EQ(ual_os_build(b, sizeof b, 0, UAL_ENC_1B1B, UAL_OS_TS1), 0);
  CHECK_EQ(ual_os_build(b, sizeof b, 0, UAL_ENC_1B1B, UAL_OS_UNKNOWN), 0);
  CHECK_EQ(ual_os_build(b, sizeof b, 0, 3, UAL_OS_EIOS), 0);
  CHECK_EQ(ual_os_build(b, 19, 0, UAL_ENC_1B1B, UAL_OS_EIOS), 0);
  CHECK_EQ(ual_os_build(b, 43, 0, UAL_ENC_1B1B, UAL_OS_SKP), 0);
}

/* Every non-TS set of every encoding: built, then identified as itself. */
static void test_build_identify(void) {
  static const unsigned types[] = { UAL_OS_EIOS, UAL_OS_EIEOS, UAL_OS_SKP, UAL_OS_SDS };
  uint8_t b[80];
  unsigned built = 0;
  for (size_t e = 0; e < 3; e++)
    for (size_t t = 0; t < 4; t++) {
      size_t n = ual_os_build(b, sizeof b, (unsigned)(e + t), encs[e], types[t]);
      if (encs[e] == UAL_ENC_8B10B && (types[t] == UAL_OS_EIEOS || types[t] == UAL_OS_SDS)) {
        CHECK_EQ(n, 0);
        continue;
      }
      CHECK(n > 4);
      built++;
      struct ual_os os;
      CHECK_EQ(ual_os_decode(b, n, &os), 0);
      CHECK_EQ(os.type, types[t]);
      CHECK_EQ(os.encoding, encs[e]);
      CHECK_EQ(os.lane, e + t);
      CHECK_EQ(os.n, n - 4);
      /* the same symbols in another encoding are not this set */
      b[1] = (uint8_t)encs[(e + 1) % 3];
      CHECK_EQ(ual_os_decode(b, n, &os), 0);
      CHECK(os.type != types[t]);
    }
  CHECK_EQ(built, 10);
}

/* 8b/10b needs the K bits; 128b/130b accepts the other EIEOS widths and SKP lengths. */
static void test_variants(void) {
  struct ual_os os;
  uint8_t s[64];
  s[0] = UAL_K28_5; s[1] = s[2] = s[3] = UAL_K28_3;
  CHECK_EQ(identify(UAL_ENC_8B10B, 0x000F, s, 4, &os), UAL_OS_EIOS);
  CHECK_EQ(identify(UAL_ENC_8B10B, 0x000B, s, 4, &os), UAL_OS_UNKNOWN); /* symbol 2 is D28.3 */
  CHECK_EQ(identify(UAL_ENC_8B10B, 0x000E, s, 4, &os), UAL_OS_UNKNOWN); /* D28.5, not COM */
  for (unsigned n = 1; n <= 8; n++) {
    for (unsigned i = 1; i < n; i++) s[i] = UAL_K28_0;
    CHECK_EQ(identify(UAL_ENC_8B10B, (uint16_t)((1u << n) - 1), s, n, &os),
             n >= 2 && n <= 6 ? UAL_OS_SKP : UAL_OS_UNKNOWN);
  }

  for (unsigned w = 1; w <= 8; w <<= 1) {
    for (unsigned i = 0; i < 16; i++) s[i] = (i / w) % 2 ? 0xFF : 0x00;
    CHECK_EQ(identify(UAL_ENC_128B130B, 0, s, 16, &os), w <= 4 ? UAL_OS_EIEOS : UAL_OS_UNKNOWN);
  }
  for (unsigned l = 1; l <= 24; l++) {
    for (unsigned i = 0; i < l; i++) s[i] = 0xAA;
    s[l] = l & 8 ? 0x78 : 0xE1;
    s[l + 1] = s[l + 2] = s[l + 3] = 0x5A;
    CHECK_EQ(identify(UAL_ENC_128B130B, 0, s, l + 4, &os),
             l >= 4 && l <= 20 && l % 4 == 0 ? UAL_OS_SKP : UAL_OS_UNKNOWN);
    CHECK_EQ(identify(UAL_ENC_128B130B, 0, s, l + 5, &os), UAL_OS_UNKNOWN);
  }
  for (unsigned i = 0; i < 8; i++) s[i] = 0x99;
  s[8] = 0xE1;
  CHECK_EQ(identify(UAL_ENC_128B130B, 0, s, 12, &os), UAL_OS_SKP);
  s[3] = 0xAA; /* mixed SKP symbols */
  CHECK_EQ(identify(UAL_ENC_128B130B, 0, s, 12, &os), UAL_OS_UNKNOWN);
  s[0] = 0xE1;
  for (unsigned i = 1; i < 16; i++) s[i] = 0x87;
  s[15] = 0x86;
  CHECK_EQ(identify(UAL_ENC_128B130B, 0, s, 16, &os), UAL_OS_UNKNOWN);
  CHECK_EQ(identify(UAL_ENC_128B130B, 0, s, 15, &os), UAL_OS_UNKNOWN);
}

static void check_ts(const struct ual_os *os, unsigned enc, const struct ual_ts_params *p) {
  CHECK_EQ(os->type, p->ts2 ? UAL_OS_TS2 : UAL_OS_TS1);
  CHECK_EQ(os->encoding, enc);
  CHECK_EQ(os->n, 16);
  CHECK_EQ(os->link_number, p->link_number);
  CHECK_EQ(os->lane_number, p->lane_number);
  CHECK_EQ(os->n_fts, p->n_fts);
  CHECK_EQ(os->flit_mode, p->rate_id & 1);
  CHECK_EQ(os->speeds, (p->rate_id >> 1) & 0x3F);
  CHECK_EQ(os->rate_id, p->rate_id);
  CHECK_EQ(os->training_control, p->modified ? (p->training_control | 0xC0) : p->training_control);
}

/* TS1/TS2, regular and Modified, in every encoding: build, decode, compare. */
static void test_ts_round_trip(void) {
  uint8_t b[40];
  for (size_t e = 0; e < 3; e++)
    for (int ts2 = 0; ts2 < 2; ts2++)
      for (int mod = 0; mod < 2; mod++)
        for (int iter = 0; iter < 50; iter++) {
          uint64_t r = check_rand(&seed);
          struct ual_ts_params p = { (uint8_t)ts2, (uint8_t)r, (uint8_t)(r >> 8), (uint8_t)(r >> 16),
                                     (uint8_t)(r >> 24), (uint8_t)(r >> 32), (uint8_t)mod, 0, 0, 0 };
          if (mod) {
            p.mts_usage = (uint8_t)(1 + (r >> 40) % 7);
            p.vendor_id = (uint16_t)(r >> 48);
          } else {
            p.training_control &= 0x3F; /* bits 7:6 = 11b tested separately */
          }
          if (e == 0 && (p.link_number == UAL_K23_7 || p.lane_number == UAL_K23_7)) continue;
          CHECK_EQ(ual_os_build_ts(b, sizeof b, 4, encs[e], &p), 20);
          struct ual_os os;
          CHECK_EQ(ual_os_decode(b, 20, &os), 0);
          check_ts(&os, encs[e], &p);
          CHECK_EQ(os.kmask, encs[e] == UAL_ENC_8B10B ? 1 : 0);
          CHECK_EQ(os.modified, mod);
          CHECK_EQ(os.mts_usage, mod ? p.mts_usage : 0);
          CHECK_EQ(os.vendor_id, mod ? p.vendor_id : 0);
        }
}

/* Byte layouts: 8b/10b identifiers, 1b/1b repeat, Modified TS fields. */
static void test_ts_layout(void) {
  uint8_t b[40];
  struct ual_os os;
  struct ual_ts_params p = { 0, 1, 2, 0x20, 0x0B, 0x00, 0, 0, 0, 0 };
  CHECK_EQ(ual_os_build_ts(b, sizeof b, 0, UAL_ENC_8B10B, &p), 20);
  static const uint8_t ts1_8b[20] = { 0, 0, 0x01, 0x00, 0xBC, 0x01, 0x02, 0x20, 0x0B, 0x00,
                                      0x4A, 0x4A, 0x4A, 0x4A, 0x4A, 0x4A, 0x4A, 0x4A, 0x4A, 0x4A };
  CHECK_MEM(b, ts1_8b, 20);
  p.ts2 = 1;
  CHECK_EQ(ual_os_build_ts(b, sizeof b, 0, UAL_ENC_8B10B, &p), 20);
  for (int i = 6; i < 16; i++) CHECK_EQ(b[4 + i], 0x45);
  CHECK_EQ(ual_os_decode(b, 20, &os), 0);
  CHECK_EQ(os.type, UAL_OS_TS2);
  b[2] = 0; /* COM without its K bit is D28.5 */
  CHECK_EQ(ual_os_decode(b, 20, &os), 0);
  CHECK_EQ(os.type, UAL_OS_UNKNOWN);

  CHECK_EQ(ual_os_build_ts(b, sizeof b, 0, UAL_ENC_128B130B, &p), 20);
  CHECK_EQ(b[4], 0x2D);
  p.ts2 = 0;
  CHECK_EQ(ual_os_build_ts(b, sizeof b, 0, UAL_ENC_128B130B, &p), 20);
  CHECK_EQ(b[4], 0x1E);
  CHECK_EQ(ual_os_build_ts(b, sizeof b, 0, UAL_ENC_1B1B, &p), 20);
  CHECK_EQ(b[4], 0x1B);
  CHECK_MEM(b + 12, b + 4, 8);
  p.ts2 = 1;
  CHECK_EQ(ual_os_build_ts(b, sizeof b, 0, UAL_ENC_1B1B, &p), 20);
  CHECK_EQ(b[4], 0x39);
  CHECK_EQ(b[12], 0x39);

  /* PAD link/lane numbers are K23.7 in 8b/10b */
  struct ual_ts_params pad = { 0, UAL_K23_7, UAL_K23_7, 0, 0x01, 0, 0, 0, 0, 0 };
  CHECK_EQ(ual_os_build_ts(b, sizeof b, 0, UAL_ENC_8B10B, &pad), 20);
  CHECK_EQ(b[2] | b[3] << 8, 0x0007);
  CHECK_EQ(ual_os_decode(b, 20, &os), 0);
  CHECK_EQ(os.type, UAL_OS_TS1);
  CHECK_EQ(os.link_number, 0xF7);
  CHECK_EQ(os.lane_number, 0xF7);
  CHECK_EQ(ual_os_build_ts(b, sizeof b, 0, UAL_ENC_128B130B, &pad), 20);
  CHECK_EQ(b[2] | b[3], 0);

  /* Modified TS1 for UALink: usage 010b, vendor 0x20AE in symbols 10..11 (LE) */
  struct ual_ts_params m = { 0, 0, 3, 0x10, 0x01, 0x00, 1, UAL_MTS_USAGE_ALT_PROTOCOL, UAL_UALINK_VENDOR_ID, 0 };
  for (size_t e = 0; e < 3; e++)
    for (int ts2 = 0; ts2 < 2; ts2++) {
      m.ts2 = (uint8_t)ts2;
      CHECK_EQ(ual_os_build_ts(b, sizeof b, 7, encs[e], &m), 20);
      const uint8_t *s = b + 4;
      CHECK_EQ(s[5], 0xC0);
      CHECK_EQ(s[8], 0x02);
      CHECK_EQ(s[9], 0x00);
      CHECK_EQ(s[10], 0xAE);
      CHECK_EQ(s[11], 0x20);
      if (encs[e] == UAL_ENC_1B1B) {
        CHECK_MEM(s + 12, s + 4, 4);
      } else {
        uint8_t id = ts2 ? 0x45 : 0x4A;
        CHECK_EQ(s[12] | s[13], 0);
        uint8_t eq = !ts2 && encs[e] == UAL_ENC_128B130B ? 0 : id;   /* TS1 128b/130b: equalization fields */
        CHECK_EQ(s[6], eq);
        CHECK_EQ(s[7], eq);
        CHECK_EQ(s[14], id);
        CHECK_EQ(s[15], id);
      }
      CHECK_EQ(ual_os_decode(b, 20, &os), 0);
      CHECK_EQ(os.type, ts2 ? UAL_OS_TS2 : UAL_OS_TS1); /* 8b/10b: by symbols 14..15 */
      CHECK_EQ(os.modified, 1);
      CHECK_EQ(os.mts_usage, 2);
      CHECK_EQ(os.vendor_id, 0x20AE);
      CHECK_EQ(os.lane_number, 3);
      CHECK_EQ(os.lane, 7);
    }

  /* Regular TS advertising Modified TS support (bits 7:6 = 11b) is not a
   * Modified TS although symbol 8 (4Ah, 45h, 1Bh, 39h) has non-zero bits 2:0. */
  struct ual_ts_params adv = { 0, 0, 0, 0, 0x01, 0xC0, 0, 0, 0, 0 };
  for (size_t e = 0; e < 3; e++)
    for (int ts2 = 0; ts2 < 2; ts2++) {
      adv.ts2 = (uint8_t)ts2;
      CHECK_EQ(ual_os_build_ts(b, sizeof b, 0, encs[e], &adv), 20);
      if (ts2 || encs[e] != UAL_ENC_128B130B) CHECK(b[4 + 8] & 7);
      CHECK_EQ(ual_os_decode(b, 20, &os), 0);
      CHECK_EQ(os.type, ts2 ? UAL_OS_TS2 : UAL_OS_TS1);
      CHECK_EQ(os.training_control, 0xC0);
      CHECK_EQ(os.modified, 0);
      CHECK_EQ(os.vendor_id, 0);
    }
  /* Equalization Control: TS1 symbol 6 bits 1:0 at 128b/130b and 1b/1b
   * (digest §5.4); 8b/10b has none, TS2 carries none */
  for (size_t e = 0; e < 3; e++)
    for (unsigned ec = 0; ec < 4; ec++)
      for (int ts2 = 0; ts2 < 2; ts2++) {
        struct ual_ts_params q = { (uint8_t)ts2, 0, 0, 0, 0x3F, 0xC0, 0, 0, 0, (uint8_t)ec };
        CHECK_EQ(ual_os_build_ts(b, sizeof b, 0, encs[e], &q), 20);
        CHECK_EQ(ual_os_decode(b, 20, &os), 0);
        CHECK_EQ(os.type, ts2 ? UAL_OS_TS2 : UAL_OS_TS1);
        CHECK_EQ(os.eq_control, ts2 || encs[e] == UAL_ENC_8B10B ? 0u : ec);
        if (!ts2 && encs[e] != UAL_ENC_8B10B) CHECK_EQ(b[4 + 6] & 3, ec);
      }

  /* Modified layout with usage 000b (PCIe only) or without bits 7:6 = 11b */
  m.ts2 = 0;
  m.mts_usage = 0;
  CHECK_EQ(ual_os_build_ts(b, sizeof b, 0, UAL_ENC_128B130B, &m), 20);
  CHECK_EQ(ual_os_decode(b, 20, &os), 0);
  CHECK_EQ(os.modified, 0);
  m.mts_usage = 2;
  CHECK_EQ(ual_os_build_ts(b, sizeof b, 0, UAL_ENC_128B130B, &m), 20);
  b[4 + 5] = 0x80;
  CHECK_EQ(ual_os_decode(b, 20, &os), 0);
  CHECK_EQ(os.type, UAL_OS_TS1);
  CHECK_EQ(os.modified, 0);

  /* 8b/10b TS without identifiers in 10..13 nor 14..15 */
  CHECK_EQ(ual_os_build_ts(b, sizeof b, 0, UAL_ENC_8B10B, &p), 20);
  b[4 + 12] = 0x4A;
  b[4 + 15] = 0x4A;
  CHECK_EQ(ual_os_decode(b, 20, &os), 0);
  CHECK_EQ(os.type, UAL_OS_UNKNOWN);
  CHECK_EQ(ual_os_decode(b, 19, &os), 0); /* 15 symbols */
  CHECK_EQ(os.type, UAL_OS_UNKNOWN);

  /* a TS is exactly 16 symbols */
  for (size_t e = 0; e < 3; e++) {
    CHECK_EQ(ual_os_build_ts(b, sizeof b, 0, encs[e], &p), 20);
    b[20] = b[4 + 15];
    CHECK_EQ(ual_os_decode(b, 19, &os), 0);
    CHECK_EQ(os.type, UAL_OS_UNKNOWN);
    CHECK_EQ(ual_os_decode(b, 21, &os), 0);
    CHECK_EQ(os.type, UAL_OS_UNKNOWN);
    CHECK_EQ(os.link_number, 0);
  }
  CHECK_EQ(ual_os_build_ts(b, 19, 0, UAL_ENC_1B1B, &p), 0);
  CHECK_EQ(ual_os_build_ts(b, sizeof b, 0, 3, &p), 0);
}

static void test_flit_mode_rule(void) {
  uint8_t b[40];
  struct ual_os os;
  struct ual_findings f;
  for (size_t e = 0; e < 3; e++)
    for (int ts2 = 0; ts2 < 2; ts2++) {
      struct ual_ts_params p = { (uint8_t)ts2, 0, 0, 0, 0x1E, 0, 0, 0, 0, 0 }; /* speeds, no flit mode */
      CHECK_EQ(ual_os_build_ts(b, sizeof b, 1, encs[e], &p), 20);
      CHECK_EQ(ual_os_decode(b, 20, &os), 0);
      CHECK_EQ(os.flit_mode, 0);
      ual_findings_clear(&f);
      ual_os_check(&os, &f);
      CHECK_EQ(f.n, 1);
      CHECK(ual_findings_has(&f, UAL_R_LT_NO_FLIT_MODE));
      CHECK_EQ(f.v[0].segment, -1);
      CHECK(strstr(f.v[0].msg, ts2 ? "TS2" : "TS1") != NULL);
      p.rate_id = 0x1F;
      CHECK_EQ(ual_os_build_ts(b, sizeof b, 1, encs[e], &p), 20);
      CHECK_EQ(ual_os_decode(b, 20, &os), 0);
      CHECK_EQ(os.flit_mode, 1);
      ual_findings_clear(&f);
      ual_os_check(&os, &f);
      CHECK_EQ(f.n, 0);
    }
  /* not a training set: no finding although flit_mode is 0 */
  CHECK_EQ(ual_os_build(b, sizeof b, 0, UAL_ENC_1B1B, UAL_OS_EIOS), 20);
  CHECK_EQ(ual_os_decode(b, 20, &os), 0);
  ual_findings_clear(&f);
  ual_os_check(&os, &f);
  CHECK_EQ(f.n, 0);
  ual_os_check(&os, NULL);
}

static int identifying_sym0(uint8_t v) {
  static const uint8_t ids[] = { 0xBC, 0x1E, 0x2D, 0x66, 0x00, 0xAA, 0x99, 0xE1, 0x1B, 0x39,
                                 0x0F, 0xF0, 0xB1 };
  for (size_t i = 0; i < sizeof ids; i++)
    if (ids[i] == v) return 1;
  return 0;
}

/* Random bodies of every length 0..72: no crash, and unknown unless symbol 0
 * is one that starts an ordered set. */
static void test_garbage(void) {
  uint8_t b[72];
  struct ual_os os;
  struct ual_findings f;
  for (size_t len = 0; len <= sizeof b; len++)
    for (int iter = 0; iter < 200; iter++) {
      for (size_t i = 0; i < len; i++) b[i] = (uint8_t)check_rand(&seed);
      if (len > 1) b[1] = (uint8_t)(iter % 4);   /* all encodings, and one unknown */
      if (len > 2 && iter % 2) b[2] = b[3] = 0xFF; /* all K bits */
      int rc = ual_os_decode(b, len, &os);
      CHECK_EQ(rc, len >= 4 && len <= 4 + UAL_OS_MAX_SYMBOLS ? 0 : -1);
      CHECK(os.type <= UAL_OS_UNKNOWN);
      if (rc) { CHECK_EQ(os.type, UAL_OS_UNKNOWN); continue; }
      CHECK_EQ(os.n, len - 4);
      CHECK_MEM(os.sym, b + 4, os.n);
      ual_findings_clear(&f);
      ual_os_check(&os, &f);
      CHECK(f.n <= 1);
      if (os.n > 0) {
        while (identifying_sym0(b[4])) b[4] = (uint8_t)check_rand(&seed);
        CHECK_EQ(ual_os_decode(b, len, &os), 0);
        CHECK_EQ(os.type, UAL_OS_UNKNOWN);
        CHECK_EQ(os.modified, 0);
      }
    }
  CHECK_EQ(ual_os_decode(NULL, 0, &os), -1);
}

/* Data Rates Supported by name: every combination of bits 6:1 lists its
 * rates; PAD link and lane numbers by name; the summary and the field tree
 * say the same. */
static void test_ts_names(void) {
  static const char *const rate[6] = { "2.5", "5", "8", "16", "32", "64" };
  char want[64], got[64];
  for (unsigned v = 0; v < 64; v++) {
    want[0] = 0;
    for (unsigned b = 0; b < 6; b++)
      if (v >> b & 1) {
        if (want[0]) strcat(want, "/");
        strcat(want, rate[b]);
      }
    strcat(want, want[0] ? " GT/s" : "none");
    const char *n = ual_field_value_name(UAL_F_TS_SPEEDS, v);
    CHECK(n && strcmp(n, want) == 0);
  }
  ual_field_format(UAL_F_TS_SPEEDS, 0x31, got, sizeof got);
  CHECK_STR(got, "2.5/32/64 GT/s (49)");
  ual_field_format(UAL_F_TS_LINK, UAL_K23_7, got, sizeof got);
  CHECK_STR(got, "PAD (247)");
  ual_field_format(UAL_F_TS_LANE, 3, got, sizeof got);
  CHECK_STR(got, "3");

  /* a TS1 at 2.5 GT/s: PAD link and lane, Flit Mode, 2.5, 32 and 64 GT/s */
  struct ual_ts_params p = { 0, UAL_K23_7, UAL_K23_7, 0, 0x63, 0, 0, 0, 0, 0 };
  uint8_t body[40], rec[UAL_REC_HDR_BYTES + 40];
  size_t n = ual_os_build_ts(body, sizeof body, 0, UAL_ENC_8B10B, &p);
  CHECK_EQ(n, 20);
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, UAL_REC_OS, 0);
  size_t len = ual_record_build(&h, body, n, rec, sizeof rec);
  struct ual_rec_result r;
  ual_decode_stateless(rec, len, 1, &r);
  CHECK_EQ(r.status, UAL_RS_OK);
  CHECK_EQ(r.os.speeds, 0x31);
  char line[160];
  ual_rec_summary(&r, line, sizeof line);
  CHECK_STR(line, "ts1 8b10b lane 0 link PAD lane# PAD rates 2.5/32/64 GT/s flit");
  p.link_number = 1;
  p.lane_number = 2;
  p.rate_id = 0x02; /* 2.5 GT/s only, no Flit Mode */
  n = ual_os_build_ts(body, sizeof body, 0, UAL_ENC_128B130B, &p);
  len = ual_record_build(&h, body, n, rec, sizeof rec);
  ual_decode_stateless(rec, len, 1, &r);
  ual_rec_summary(&r, line, sizeof line);
  CHECK_STR(line, "ts1 128b130b lane 0 link 1 lane# 2 rates 2.5 GT/s");
}

int main(void) {
  test_names();
  test_fixed_bytes();
  test_build_identify();
  test_variants();
  test_ts_round_trip();
  test_ts_layout();
  test_ts_names();
  test_flit_mode_rule();
  test_garbage();
  return check_done("test_os");
}
