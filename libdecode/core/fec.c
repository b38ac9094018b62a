/* FEC of the 256-byte flit (digest §5.2; PCIe 6.x flit FEC).
 *
 * Three interleaved single-symbol-correcting codes over GF(2^8)/0x11D, a = 2.
 * Flit byte i belongs to group i mod 3; per group, in flit order:
 *
 *   group 0:  B0=0  B1=3  ... B82=246  B83=249     | check B84=252  parity B85=255
 *   group 1:  B0=1  B1=4  ... B82=247  B83=0 (pad) | check B84=250  parity B85=253
 *   group 2:  B0=2  B1=5  ... B82=248  B83=0 (pad) | check B84=251  parity B85=254
 *
 *   check = sum B_j * a^(84-j)      parity = xor of B_j      (j = 0..83)
 *
 * so the check and parity bytes of group g sit at 250 + (g+2)%3 and 253 + (g+2)%3.
 *
 * Fast path, SWAR: an 8-byte load at byte 6m holds symbols 2m and 2m+1 of
 * all three groups in lanes 0..5,
 *
 *   lane     0       1       2       3         4         5         6, 7
 *          g0.B2m  g1.B2m  g2.B2m  g0.B2m+1  g1.B2m+1  g2.B2m+1  masked off
 *
 * so Horner's rule with a^2 per step runs on all six lanes at once: h = h*a^2
 * ^ w, 42 steps. The steps are cut into three chains of 14 that run side by
 * side; fec_join moves the first two past the later steps. At the end the
 * lanes of B2m need one more a^2 and those of B2m+1 one a. Parity is the
 * XOR of the same words.
 *
 * GFNI path: 24-byte blocks, eight symbols of each group; byte u of block b
 * is symbol 8b + u/3 of group u%3, so Horner's rule runs on all 24 bytes at
 * once with a^8 per block (one GF2P8AFFINEQB). The eight symbols of a group
 * then join by folding halves, sum of byte f * a^(7-f), and a^-3 puts that
 * at the exponents 84-j of the definition. */
#include "ualink/core/crc.h"

#include <string.h>

#include "gf_simd.h"
#include "gf_tables.h"

#define FEC_GROUPS   3
#define FEC_DATA     84   /* B0..B83 */
#define FEC_DATA_END 250  /* data bytes are 0..249 */

static unsigned check_byte(unsigned g) { return UAL_FEC_OFFSET + (g + 2) % FEC_GROUPS; }
static unsigned parity_byte(unsigned g) { return UAL_FEC_OFFSET + FEC_GROUPS + (g + 2) % FEC_GROUPS; }

const char *ual_fec_status_name(enum ual_fec_status s) {
  static const char *const n[] = { "clean", "corrected", "uncorrectable" };
  return (unsigned)s <= UAL_FEC_UNCORRECTABLE ? n[s] : "uncorrectable";
}

/* ---- reference ---- */

/* x * a in GF(2^8)/0x11D */
static uint8_t gf11d_mul2(uint8_t x) { return (uint8_t)(x << 1 ^ (x & 0x80 ? 0x1D : 0)); }

void ual_fec_encode_ref(uint8_t *flit) {
  for (unsigned g = 0; g < FEC_GROUPS; g++) {
    uint8_t c = 0, par = 0;
    for (unsigned j = 0; j < FEC_DATA; j++) {
      unsigned i = 3 * j + g;
      uint8_t b = i < FEC_DATA_END ? flit[i] : 0; /* pad */
      c = gf11d_mul2(c ^ b);
      par ^= b;
    }
    flit[check_byte(g)] = c;
    flit[parity_byte(g)] = par;
  }
}

/* ---- fast path ---- */

static inline uint64_t load_le64(const uint8_t *p) {
  return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
         (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

#define LANE_LSB 0x0101010101010101ULL

/* every byte lane times a */
static inline uint64_t lanes_mul2(uint64_t x) {
  return (x & 0x7F7F7F7F7F7F7F7FULL) << 1 ^ (x >> 7 & LANE_LSB) * 0x1D;
}

/* every byte lane times a^2: bits 7, 6 wrap as x^9 = 0x3A, x^8 = 0x1D */
static inline uint64_t lanes_mul4(uint64_t x) {
  uint64_t t = x >> 6;
  return (x & 0x3F3F3F3F3F3F3F3FULL) << 2 ^ (t & LANE_LSB) * 0x1D ^ (t >> 1 & LANE_LSB) * 0x3A;
}

/* every byte lane times the constant whose bit-b multiples are k[b] */
static inline uint64_t lanes_mulc(uint64_t x, const uint8_t k[8]) {
#define M(b) (x >> (b) & LANE_LSB) * k[b]
  return M(0) ^ M(1) ^ M(2) ^ M(3) ^ M(4) ^ M(5) ^ M(6) ^ M(7);
#undef M
}


#define STEP 6                   /* bytes per step: 2 symbols x 3 groups */
#define LANES6 0x0000FFFFFFFFFFFFULL
#define LANES4 0x00000000FFFFFFFFULL /* last step: bytes 246..249, the pads as 0 */
_Static_assert(3 * UAL_FEC_CHAIN * STEP == 3 * FEC_DATA, "FEC chain layout");

struct ual_fec_sums ual_fec_sums_portable(const uint8_t *flit) {
  const uint8_t *p0 = flit, *p1 = flit + UAL_FEC_CHAIN * STEP, *p2 = flit + 2 * UAL_FEC_CHAIN * STEP;
  uint64_t h0 = 0, h1 = 0, h2 = 0, par = 0, w0, w1, w2;
  for (int m = 0; m < UAL_FEC_CHAIN - 1; m++, p0 += STEP, p1 += STEP, p2 += STEP) {
    w0 = load_le64(p0) & LANES6;
    w1 = load_le64(p1) & LANES6;
    w2 = load_le64(p2) & LANES6;
    par ^= w0 ^ w1 ^ w2;
    h0 = lanes_mul4(h0) ^ w0;
    h1 = lanes_mul4(h1) ^ w1;
    h2 = lanes_mul4(h2) ^ w2;
  }
  w0 = load_le64(p0) & LANES6;
  w1 = load_le64(p1) & LANES6;
  w2 = load_le64(p2) & LANES4;
  par ^= w0 ^ w1 ^ w2;
  h0 = lanes_mul4(h0) ^ w0;
  h1 = lanes_mul4(h1) ^ w1;
  h2 = lanes_mul4(h2) ^ w2;
  uint64_t h = h2 ^ lanes_mulc(h0, fec_join[0]) ^ lanes_mulc(h1, fec_join[1]);
  struct ual_fec_sums s;
  s.check = (uint32_t)((lanes_mul4(h) ^ lanes_mul2(h) >> 24) & 0xFFFFFF);
  s.parity = (uint32_t)((par ^ par >> 24) & 0xFFFFFF);
  return s;
}

#if UAL_GFNI_BUILT
#include <immintrin.h>

UAL_GFNI_TARGET static inline __m256i aff(__m256i x, __m256i m) { return _mm256_gf2p8affine_epi64_epi8(x, m, 0); }

UAL_GFNI_TARGET static inline __m128i aff128(__m128i x, uint64_t m) {
  return _mm_gf2p8affine_epi64_epi8(x, _mm_set1_epi64x((long long)m), 0);
}

UAL_GFNI_TARGET struct ual_fec_sums ual_fec_sums_gfni(const uint8_t *flit) {
  const __m256i step = _mm256_set1_epi64x((long long)FEC_AFF_STEP), join = _mm256_set1_epi64x((long long)FEC_AFF_JOIN);
  /* blocks 0..5 and 6..10 in two chains; lane 3 of each load is the next block's, unused */
  __m256i h0 = _mm256_setzero_si256(), h1 = h0, par = h0, x;
  for (int b = 0; b < 10; b++) {
    x = _mm256_loadu_si256((const __m256i *)(const void *)(flit + 24 * b));
    if (b < 6) h0 = _mm256_xor_si256(aff(h0, step), x);
    else h1 = _mm256_xor_si256(aff(h1, step), x);
    par = _mm256_xor_si256(par, x);
  }
  /* block 10: bytes 240..249, then B84.. of no group (zeros) */
  const __m128i keep10 = _mm_set_epi64x(0xFFFF, -1);
  x = _mm256_zextsi128_si256(_mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(flit + 240)), keep10));
  h1 = _mm256_xor_si256(aff(h1, step), x);
  par = _mm256_xor_si256(par, x);
  h1 = _mm256_xor_si256(aff(h0, join), h1);

  /* fold the eight symbols f of each group (bytes 3f+g): halves times a^4,
   * a^2, a, leaving sum of symbol f * a^(7-f) in bytes 0..2 */
  const __m256i hi12 = _mm256_setr_epi32(3, 4, 5, 0, 0, 0, 0, 0);
  __m128i c = _mm256_castsi256_si128(_mm256_xor_si256(aff(h1, _mm256_set1_epi64x((long long)FEC_AFF_FOLD4)),
                                                       _mm256_permutevar8x32_epi32(h1, hi12)));
  __m128i q = _mm256_castsi256_si128(_mm256_xor_si256(par, _mm256_permutevar8x32_epi32(par, hi12)));
  c = _mm_xor_si128(aff128(c, FEC_AFF_FOLD2), _mm_srli_si128(c, 6));
  c = _mm_xor_si128(aff128(c, FEC_AFF_FOLD1), _mm_srli_si128(c, 3));
  c = aff128(c, FEC_AFF_INV3);
  q = _mm_xor_si128(q, _mm_srli_si128(q, 6));
  q = _mm_xor_si128(q, _mm_srli_si128(q, 3));
  struct ual_fec_sums s = { (uint32_t)_mm_cvtsi128_si32(c) & 0xFFFFFF, (uint32_t)_mm_cvtsi128_si32(q) & 0xFFFFFF };
  return s;
}
#else
struct ual_fec_sums ual_fec_sums_gfni(const uint8_t *flit) { return ual_fec_sums_portable(flit); }
#endif

static struct ual_fec_sums fec_compute(const uint8_t *flit) {
  return ual_gfni_usable() ? ual_fec_sums_gfni(flit) : ual_fec_sums_portable(flit);
}

/* The check and parity bytes as received, byte g = group g. */
static struct ual_fec_sums fec_received(const uint8_t *flit) {
  struct ual_fec_sums s = { 0, 0 };
  for (unsigned g = 0; g < FEC_GROUPS; g++) {
    s.check |= (uint32_t)flit[check_byte(g)] << (8 * g);
    s.parity |= (uint32_t)flit[parity_byte(g)] << (8 * g);
  }
  return s;
}

void ual_fec_encode(uint8_t *flit) {
  struct ual_fec_sums s = fec_compute(flit);
  for (unsigned g = 0; g < FEC_GROUPS; g++) {
    flit[check_byte(g)] = (uint8_t)(s.check >> (8 * g));
    flit[parity_byte(g)] = (uint8_t)(s.parity >> (8 * g));
  }
}

static bool sums_match(struct ual_fec_sums s, const uint8_t *flit) {
  struct ual_fec_sums rx = fec_received(flit);
  return ((s.check ^ rx.check) | (s.parity ^ rx.parity)) == 0;
}

bool ual_fec_clean_portable(const uint8_t *flit) { return sums_match(ual_fec_sums_portable(flit), flit); }
bool ual_fec_clean_gfni(const uint8_t *flit) { return sums_match(ual_fec_sums_gfni(flit), flit); }

bool ual_fec_clean(const uint8_t *flit) {
  if (ual_avx512_usable()) return ual_fec_clean_avx512(flit);
  return ual_gfni_usable() ? ual_fec_clean_gfni(flit) : ual_fec_clean_portable(flit);
}

/* ---- correction ---- */

/* One group from its syndromes: fixes the wrong byte and sets *pos to it. */
static enum ual_fec_status fec_group(uint8_t *flit, unsigned g, uint8_t sc, uint8_t sp, int16_t *pos) {
  unsigned at;
  *pos = -1;
  if (!sc && !sp)
    return UAL_FEC_CLEAN;
  if (!sp) {
    at = check_byte(g);
    sp = sc;
  } else if (!sc) {
    at = parity_byte(g);
  } else {
    /* an error e in B_j gives Sp = e, Sc = e * a^(84-j) */
    int j = FEC_DATA - (fec_log[sc] + 255 - fec_log[sp]) % 255;
    if (j < 0 || 3u * (unsigned)j + g >= FEC_DATA_END) /* not a data byte, or a pad (always 0) */
      return UAL_FEC_UNCORRECTABLE;
    at = 3u * (unsigned)j + g;
  }
  flit[at] ^= sp;
  *pos = (int16_t)at;
  return UAL_FEC_CORRECTED;
}

enum ual_fec_status ual_fec_correct(uint8_t *flit, struct ual_fec_result *r) {
  struct ual_fec_sums s = fec_compute(flit), rx = fec_received(flit);
  uint32_t sc = s.check ^ rx.check, sp = s.parity ^ rx.parity;
  r->status = UAL_FEC_CLEAN;
  for (unsigned g = 0; g < FEC_GROUPS; g++) {
    r->group[g] = (uint8_t)fec_group(flit, g, (uint8_t)(sc >> (8 * g)), (uint8_t)(sp >> (8 * g)), &r->pos[g]);
    if (r->group[g] > r->status) r->status = r->group[g];
  }
  return (enum ual_fec_status)r->status;
}
