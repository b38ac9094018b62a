/* CRC-64 (digest §5.1): known answers, fast == reference, the codeword
 * property c(a^i) = 0 for the roots of g, error detection. */
#include "check.h"
#include "ualink/core/crc.h"
#include "ualink/core/fields.h"

/* a * b in GF(2^8)/0x12B, written out again so the test does not lean on crc64.c */
static uint8_t mul(uint8_t a, uint8_t b) {
  uint8_t r = 0;
  for (int i = 0; i < 8; i++) {
    if (b >> i & 1) r ^= a;
    a = (uint8_t)(a << 1 ^ (a & 0x80 ? 0x2B : 0));
  }
  return r;
}

static void random_bytes(uint8_t *f, int n, uint64_t *s) {
  for (int i = 0; i < n; i++) f[i] = (uint8_t)check_rand(s);
}

static void known_answers(void) {
  uint8_t f[UAL_FLIT_BYTES] = { 0 }, crc[8], zero[8] = { 0 };
  ual_crc64(f, crc);
  CHECK_MEM(crc, zero, 8);
  ual_crc64_ref(f, crc);
  CHECK_MEM(crc, zero, 8);
  CHECK(ual_crc64_check(f));

  static const uint8_t want[8] = { 0xbc, 0xe5, 0x2c, 0x43, 0x1b, 0xba, 0x50, 0x56 };
  for (int i = 0; i < UAL_CRC_OFFSET; i++) f[i] = (uint8_t)i;
  ual_crc64_ref(f, crc);
  CHECK_MEM(crc, want, 8);
  ual_crc64(f, crc);
  CHECK_MEM(crc, want, 8);
  CHECK(!ual_crc64_check(f));
  memcpy(f + UAL_CRC_OFFSET, want, 8);
  CHECK(ual_crc64_check(f));
  /* the value shown everywhere: byte 242 is the coefficient of x^0, the lowest byte */
  CHECK_EQ(ual_crc64_value(want), 0x5650ba1b432ce5bcull);
  CHECK_EQ(ual_crc64_value(want), ual_field_get(UAL_F_FLIT_CRC, f));

  /* the seal writes CRC then FEC (which covers the CRC bytes) */
  static const uint8_t fec[6] = { 0x15, 0xa0, 0x3d, 0xc7, 0xff, 0xa8 };
  memset(f + UAL_CRC_OFFSET, 0x77, UAL_FLIT_BYTES - UAL_CRC_OFFSET);
  ual_flit_seal(f);
  CHECK_MEM(f + UAL_CRC_OFFSET, want, 8);
  CHECK_MEM(f + UAL_FEC_OFFSET, fec, 6);
  memset(f, 0, sizeof f);
  f[0] = 0x55;
  ual_flit_seal(f);
  f[0] = 0;
  ual_flit_seal(f);
  for (int i = UAL_CRC_OFFSET; i < UAL_FLIT_BYTES; i++) CHECK_EQ(f[i], 0);
}

/* Codeword c(x) = sum of byte i * x^(249-i) for i < 242 plus byte 242+k * x^k
 * is a multiple of g(x) = (x+a)...(x+a^8), so c(a^i) = 0 for i = 1..8. */
static int codeword_roots_zero(const uint8_t *f) {
  uint8_t root = 1;
  for (int i = 1; i <= 8; i++) {
    root = mul(root, 2);
    uint8_t v = 0;
    for (int p = 0; p < UAL_CRC_OFFSET; p++) v = mul(v, root) ^ f[p];
    for (int k = 7; k >= 0; k--) v = mul(v, root) ^ f[UAL_CRC_OFFSET + k];
    if (v) return 0;
  }
  return 1;
}

static void fast_equals_ref(void) {
  uint64_t s = 11;
  unsigned n = 5000, same = 0, roots = 0, checked = 0;
  for (unsigned c = 0; c < n; c++) {
    uint8_t f[UAL_FLIT_BYTES], a[8], b[8];
    random_bytes(f, UAL_FLIT_BYTES, &s);
    if (c < 16) memset(f, c & 1 ? 0xFF : 0, UAL_CRC_OFFSET - c); /* long runs */
    ual_crc64(f, a);
    ual_crc64_ref(f, b);
    same += memcmp(a, b, 8) == 0;
    memcpy(f + UAL_CRC_OFFSET, a, 8);
    checked += ual_crc64_check(f);
    if (c < 500) roots += codeword_roots_zero(f);
  }
  printf("crc: %u random flits, fast == ref %u, check passes %u, roots zero %u of 500\n",
         n, same, checked, roots);
  CHECK_EQ(same, n);
  CHECK_EQ(checked, n);
  CHECK_EQ(roots, 500);
}

/* Any 1..8 wrong bytes in 0..249 are detected (distance 9); bytes 250..255
 * are outside the CRC. */
static void detection(void) {
  uint64_t s = 5;
  uint8_t f[UAL_FLIT_BYTES], g[UAL_FLIT_BYTES];
  random_bytes(f, UAL_CRC_OFFSET, &s);
  ual_flit_seal(f);
  unsigned single = 0;
  for (int p = 0; p < UAL_FLIT_BYTES; p++)
    for (int e = 1; e < 256; e += 17) {
      memcpy(g, f, sizeof g);
      g[p] ^= (uint8_t)e;
      single += ual_crc64_check(g) == (p >= UAL_FEC_OFFSET);
    }
  CHECK_EQ(single, 256u * 15);

  unsigned n = 30000, missed = 0;
  for (unsigned c = 0; c < n; c++) {
    random_bytes(f, UAL_CRC_OFFSET, &s);
    ual_flit_seal(f);
    memcpy(g, f, sizeof g);
    int errs = 2 + (int)(check_rand(&s) % 7);
    for (int k = 0; k < errs; k++) g[check_rand(&s) % UAL_FEC_OFFSET] ^= (uint8_t)(1 + check_rand(&s) % 255);
    if (memcmp(f, g, UAL_FEC_OFFSET) != 0) missed += ual_crc64_check(g);
  }
  printf("crc: %u flits with 2..8 wrong bytes, %u passed the check\n", n, missed);
  CHECK_EQ(missed, 0);
}

int main(void) {
  known_answers();
  fast_equals_ref();
  detection();
  return check_done("test_crc");
}
