/* CRC-64 of the 256-byte flit (digest §5.1; PCIe 6.x flit CRC).
 *
 *   bytes 0..241 message (byte 0 = highest degree) | 242..249 CRC | 250..255 FEC
 *
 * A Reed-Solomon-style remainder over GF(2^8)/0x12B with generator
 * g(x) = (x+a)(x+a^2)...(x+a^8): flit byte 242+k is the coefficient of x^k of
 * x^8*m(x) mod g(x). Seed 0, no reflection, no final XOR.
 *
 * Fast path: the remainder is a uint64_t, byte k = coefficient of x^k. Eight
 * message bytes enter the top coefficients at once and the register becomes
 * r * x^8 mod g, eight lookups in crc_slice (slicing-by-8). The message is
 * cut into three chains that run side by side (bytes 0..79, 80..159,
 * 160..241); crc_join moves the remainders of the first two past the bytes
 * that follow them, four bits at a time.
 *
 * GFNI path: g has the distinct roots a^1..a^8, so bytes 242..249 hold the
 * remainder exactly when the codeword c(x) is 0 at all eight roots (the
 * syndromes). Each syndrome is Horner's rule, which needs only
 * multiplication by constants: a GF2P8AFFINEQB with one 8x8 bit matrix per
 * 64-bit lane. The remainder itself follows from the syndromes of c(x) with
 * zero CRC bytes, r = V^-1 S (crc_from_syn, one lookup per root). */
#include "ualink/core/crc.h"

#include <string.h>

#include "gf_simd.h"
#include "gf_tables.h"

/* g(x) without its leading x^8 term, g[k] = coefficient of x^k */
static const uint8_t crc_gen[8] = { 0x69, 0x4D, 0x41, 0x33, 0xD5, 0xFE, 0x68, 0xD5 };

static inline uint64_t load_be64(const uint8_t *p) {
  return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40 | (uint64_t)p[3] << 32 |
         (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 | (uint64_t)p[6] << 8 | p[7];
}

#define B(x, i) ((unsigned)((x) >> (8 * (i))) & 0xFFu)

/* (r + next 8 message bytes in the top coefficients) * x^8 mod g */
static inline uint64_t crc_step(uint64_t r, const uint8_t *p) {
  uint64_t x = r ^ load_be64(p);
  return crc_slice[0][B(x, 0)] ^ crc_slice[1][B(x, 1)] ^ crc_slice[2][B(x, 2)] ^
         crc_slice[3][B(x, 3)] ^ crc_slice[4][B(x, 4)] ^ crc_slice[5][B(x, 5)] ^
         crc_slice[6][B(x, 6)] ^ crc_slice[7][B(x, 7)];
}

/* r * x^(242 - 80(c+1)) mod g, one lookup per 4 bits of r */
static inline uint64_t crc_join_chain(unsigned c, uint64_t r) {
#define J(n) crc_join[c][n][r >> (4 * (n)) & 0xF]
  return J(0) ^ J(1) ^ J(2) ^ J(3) ^ J(4) ^ J(5) ^ J(6) ^ J(7) ^
         J(8) ^ J(9) ^ J(10) ^ J(11) ^ J(12) ^ J(13) ^ J(14) ^ J(15);
#undef J
}

#define STEPS (UAL_CRC_CHAIN / 8)
_Static_assert(UAL_CRC_CHAIN % 8 == 0 && UAL_CRC_OFFSET == 3 * UAL_CRC_CHAIN + 2, "CRC chain layout");

uint64_t ual_crc_rem_portable(const uint8_t *flit) {
  const uint8_t *p0 = flit, *p1 = flit + UAL_CRC_CHAIN, *p2 = flit + 2 * UAL_CRC_CHAIN;
  uint64_t r0 = 0, r1 = 0, r2 = 0;
  for (int i = 0; i < STEPS; i++, p0 += 8, p1 += 8, p2 += 8) {
    r0 = crc_step(r0, p0);
    r1 = crc_step(r1, p1);
    r2 = crc_step(r2, p2);
  }
  /* bytes 240, 241: two byte steps, coefficients 7 and 6 go to x^9 and x^8 */
  uint64_t x = r2 ^ ((uint64_t)p2[0] << 56 | (uint64_t)p2[1] << 48);
  r2 = x << 16 ^ crc_slice[1][B(x, 7)] ^ crc_slice[0][B(x, 6)];
  return r2 ^ crc_join_chain(0, r0) ^ crc_join_chain(1, r1);
}

static uint64_t crc_received(const uint8_t *flit) {
  const uint8_t *c = flit + UAL_CRC_OFFSET;
  uint64_t rx = 0;
  for (int k = 0; k < UAL_CRC_BYTES; k++) rx |= (uint64_t)c[k] << (8 * k);
  return rx;
}

bool ual_crc_ok_portable(const uint8_t *flit) { return ual_crc_rem_portable(flit) == crc_received(flit); }

#if UAL_GFNI_BUILT
#include <immintrin.h>

UAL_GFNI_TARGET static inline __m256i aff(__m256i x, __m256i m) { return _mm256_gf2p8affine_epi64_epi8(x, m, 0); }

/* Syndromes c(a^j), j = 1..4 in lo and 5..8 in hi, byte 0 of each lane.
 * The codeword as 32 words, byte t of word n the coefficient of
 * x^(255-8n-t): word 0 = bytes 0, 1 in its top two bytes, words 1..30 =
 * bytes 2..241, word 31 = crcw (the CRC bytes reversed, or 0). Four chains
 * of eight words, each lane times b^8 per word (b = a^j), joined by b^64;
 * then the eight bytes of a lane fold into one, sum of byte t * b^(7-t). */
UAL_GFNI_TARGET static inline uint64_t crc_word(const uint8_t *flit, int n, uint64_t crcw) {
  uint64_t v;
  if (n == 0) return (uint64_t)flit[0] << 48 | (uint64_t)flit[1] << 56;
  if (n == 31) return crcw;
  memcpy(&v, flit + 8 * n - 6, sizeof v);
  return v;
}

UAL_GFNI_TARGET static void crc_syndromes(const uint8_t *flit, uint64_t crcw, __m256i *lo, __m256i *hi) {
  const __m256i *m = (const __m256i *)(const void *)crc_aff;
#define M(p, h) _mm256_loadu_si256(m + 2 * (p) + (h))
  const __m256i step0 = M(CRC_AFF_STEP, 0), step1 = M(CRC_AFF_STEP, 1);
  /* named accumulators so that they stay in registers */
  __m256i a0 = _mm256_setzero_si256(), b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0, a3 = a0, b3 = a0, x;
#define STEP(a, b, n) \
  x = _mm256_set1_epi64x((long long)crc_word(flit, n, crcw)); \
  a = _mm256_xor_si256(aff(a, step0), x); \
  b = _mm256_xor_si256(aff(b, step1), x)
  for (int k = 0; k < 8; k++) {
    STEP(a0, b0, k);
    STEP(a1, b1, 8 + k);
    STEP(a2, b2, 16 + k);
    STEP(a3, b3, 24 + k);
  }
#undef STEP
  __m256i v[2] = { a0, b0 }, rest[3][2] = { { a1, b1 }, { a2, b2 }, { a3, b3 } };
  for (int h = 0; h < 2; h++) {
    const __m256i join = M(CRC_AFF_JOIN, h);
    x = v[h];
    for (int c = 0; c < 3; c++) x = _mm256_xor_si256(aff(x, join), rest[c][h]);
    x = _mm256_xor_si256(aff(x, M(CRC_AFF_FOLD4, h)), _mm256_srli_epi64(x, 32));
    x = _mm256_xor_si256(aff(x, M(CRC_AFF_FOLD2, h)), _mm256_srli_epi64(x, 16));
    x = _mm256_xor_si256(aff(x, M(CRC_AFF_FOLD1, h)), _mm256_srli_epi64(x, 8));
    *(h ? hi : lo) = x;
  }
#undef M
}

UAL_GFNI_TARGET bool ual_crc_ok_gfni(const uint8_t *flit) {
  __m256i lo, hi;
  crc_syndromes(flit, __builtin_bswap64(crc_received(flit)), &lo, &hi);
  return _mm256_testz_si256(_mm256_or_si256(lo, hi), _mm256_set1_epi64x(0xFF));
}

UAL_GFNI_TARGET uint64_t ual_crc_rem_gfni(const uint8_t *flit) {
  __m256i v[2];
  crc_syndromes(flit, 0, &v[0], &v[1]);
  uint64_t s[8], r = 0;
  memcpy(s, v, sizeof s);
  for (int j = 0; j < 8; j++) r ^= crc_from_syn[j][s[j] & 0xFF];
  return r;
}
#else
uint64_t ual_crc_rem_gfni(const uint8_t *flit) { return ual_crc_rem_portable(flit); }
bool ual_crc_ok_gfni(const uint8_t *flit) { return ual_crc_ok_portable(flit); }
#endif

void ual_crc64(const uint8_t *flit, uint8_t crc[UAL_CRC_BYTES]) {
  uint64_t r = ual_gfni_usable() ? ual_crc_rem_gfni(flit) : ual_crc_rem_portable(flit);
  for (int k = 0; k < UAL_CRC_BYTES; k++) crc[k] = (uint8_t)(r >> (8 * k));
}

uint64_t ual_crc64_value(const uint8_t crc[UAL_CRC_BYTES]) {
  uint64_t v = 0;
  for (int k = UAL_CRC_BYTES - 1; k >= 0; k--) v = v << 8 | crc[k];
  return v;
}

bool ual_crc64_check(const uint8_t *flit) {
  if (ual_avx512_usable()) return ual_crc_ok_avx512(flit);
  return ual_gfni_usable() ? ual_crc_ok_gfni(flit) : ual_crc_ok_portable(flit);
}

/* a * b in GF(2^8)/0x12B, shift and add */
static uint8_t gf12b_mul(uint8_t a, uint8_t b) {
  uint8_t r = 0;
  for (; b; b >>= 1) {
    if (b & 1) r ^= a;
    a = (uint8_t)(a << 1 ^ (a & 0x80 ? 0x2B : 0));
  }
  return r;
}

void ual_crc64_ref(const uint8_t *flit, uint8_t crc[UAL_CRC_BYTES]) {
  uint8_t r[UAL_CRC_BYTES] = { 0 };
  for (int i = 0; i < UAL_CRC_OFFSET; i++) {
    uint8_t f = flit[i] ^ r[7];
    for (int k = 7; k >= 1; k--) r[k] = r[k - 1] ^ gf12b_mul(f, crc_gen[k]);
    r[0] = gf12b_mul(f, crc_gen[0]);
  }
  for (int k = 0; k < UAL_CRC_BYTES; k++) crc[k] = r[k];
}

void ual_flit_seal(uint8_t *flit) {
  ual_crc64(flit, flit + UAL_CRC_OFFSET);
  ual_fec_encode(flit);
}
