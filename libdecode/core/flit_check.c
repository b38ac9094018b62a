/* FEC clean and CRC-64 ok of a 256-byte flit in one pass (digest §5.1,
 * §5.2): the question asked of every flit. When the answer is no, crc64.c
 * and fec.c give the details (group, byte, computed CRC).
 *
 * Both codes are linear, so each check is a set of syndromes of the whole
 * flit, received check bytes included, all zero exactly when it passes.
 * AVX-512 path: one GF2P8AFFINEQB multiplies the eight bytes of each 64-bit
 * lane by that lane's constant, eight lanes per zmm.
 *
 * CRC, lane j = the syndrome at root b = a^(j+1). The flit as 32 words,
 * byte t of word n the coefficient of x^(255-8n-t):
 *
 *   words 0..29  bytes 0..239 as they are
 *   word 30      240 241 249 248 247 246 245 244   (CRC byte 242+k is x^k)
 *   word 31      243 242  0   0   0   0   0   0
 *
 * which is crc64.c's numbering times x^6: same zero syndromes. Words are
 * taken four at a time, times b^24, b^16, b^8, 1, and group c joins by
 * b^(32(7-c)): no long chains. Then a lane's eight bytes fold into byte 0
 * as in crc64.c.
 *
 * FEC: 48-byte blocks, 16 symbols of each group, byte u of a block in group
 * u%3. Block k times a^(69-16k), no chain; the XOR of the blocks folds by
 * 24, 12, 6, 3 bytes times a^8, a^4, a^2, a^1, which leaves the sum of
 * B_j * a^(84-j) of each group in bytes 0..2. The parity bytes 253..255 sit
 * at their group's place (255 = 3*85): the parity syndrome is the XOR of
 * all bytes but the check bytes 250..252, folded alongside. */
#include "ualink/core/crc.h"

#include <string.h>

#include "gf_simd.h"
#include "gf_tables.h"

bool ual_flit_ok_portable(const uint8_t *flit) { return ual_fec_clean_portable(flit) && ual_crc_ok_portable(flit); }
bool ual_flit_ok_gfni(const uint8_t *flit) { return ual_fec_clean_gfni(flit) && ual_crc_ok_gfni(flit); }

#if UAL_GFNI_BUILT
#include <immintrin.h>

#define AFF_ID 0x0102040810204080LL /* times 1 */

UAL_AVX512_TARGET static inline __m512i aff(__m512i x, __m512i m) { return _mm512_gf2p8affine_epi64_epi8(x, m, 0); }
UAL_AVX512_TARGET static inline __m512i ld(const void *p) { return _mm512_loadu_si512(p); }

UAL_AVX512_TARGET static inline __m512i bcast(const uint8_t *p) {
  uint64_t w;
  memcpy(&w, p, sizeof w);
  return _mm512_set1_epi64((long long)w);
}

/* w0 * b^24 + w1 * b^16 + w2 * b^8 + w3: no chain of dependent steps */
UAL_AVX512_TARGET static inline __m512i words4(const __m512i m[3], __m512i w0, __m512i w1, __m512i w2, __m512i w3) {
  return _mm512_xor_si512(_mm512_ternarylogic_epi64(aff(w0, m[0]), aff(w1, m[1]), aff(w2, m[2]), 0x96), w3);
}

#define WORDS4(p) bcast(p), bcast((p) + 8), bcast((p) + 16), bcast((p) + 24)

/* CRC syndromes in byte 0 of each lane; tail = bytes 240..255 */
UAL_AVX512_TARGET static inline __m512i crc_syn(const uint8_t *flit, __m128i tail) {
  const __m512i m[3] = { ld(crc_aff_word[0]), ld(crc_aff_word[1]), ld(crc_aff_word[2]) };
  const __m128i rev = _mm_setr_epi8(0, 1, 9, 8, 7, 6, 5, 4, 3, 2, -1, -1, -1, -1, -1, -1);
  __m128i t = _mm_shuffle_epi8(tail, rev);
  __m512i c0 = aff(words4(m, WORDS4(flit)), ld(crc_aff_join8[0]));
  __m512i c1 = aff(words4(m, WORDS4(flit + 32)), ld(crc_aff_join8[1]));
  __m512i c2 = aff(words4(m, WORDS4(flit + 64)), ld(crc_aff_join8[2]));
  __m512i c3 = aff(words4(m, WORDS4(flit + 96)), ld(crc_aff_join8[3]));
  __m512i c4 = aff(words4(m, WORDS4(flit + 128)), ld(crc_aff_join8[4]));
  __m512i c5 = aff(words4(m, WORDS4(flit + 160)), ld(crc_aff_join8[5]));
  __m512i c6 = aff(words4(m, WORDS4(flit + 192)), ld(crc_aff_join8[6]));
  __m512i c7 = words4(m, bcast(flit + 224), bcast(flit + 232), _mm512_broadcastq_epi64(t),
                      _mm512_broadcastq_epi64(_mm_unpackhi_epi64(t, t)));
  __m512i x = _mm512_xor_si512(_mm512_xor_si512(_mm512_xor_si512(c0, c1), _mm512_xor_si512(c2, c3)),
                               _mm512_xor_si512(_mm512_xor_si512(c4, c5), _mm512_xor_si512(c6, c7)));
  x = _mm512_xor_si512(aff(x, ld(crc_aff[CRC_AFF_FOLD4])), _mm512_srli_epi64(x, 32));
  x = _mm512_xor_si512(aff(x, ld(crc_aff[CRC_AFF_FOLD2])), _mm512_srli_epi64(x, 16));
  return _mm512_xor_si512(aff(x, ld(crc_aff[CRC_AFF_FOLD1])), _mm512_srli_epi64(x, 8));
}

/* check syndromes in bytes 0..2, parity syndromes in bytes 32..34 */
UAL_AVX512_TARGET static inline __m512i fec_syn(const uint8_t *flit, __m128i tail) {
#define BLOCK(k) aff(b##k = ld(flit + 48 * (k)), _mm512_set1_epi64((long long)fec_aff_block[k]))
  /* lanes 6, 7 of a block load (the next block's bytes) never reach bytes 0..2 */
  __m512i b0, b1, b2, b3, b4;
  __m512i v = _mm512_xor_si512(_mm512_xor_si512(BLOCK(0), BLOCK(1)), _mm512_xor_si512(BLOCK(2), BLOCK(3)));
  v = _mm512_xor_si512(v, BLOCK(4));
#undef BLOCK
  __m512i q = _mm512_xor_si512(_mm512_xor_si512(b0, b1), _mm512_xor_si512(_mm512_xor_si512(b2, b3), b4));
  /* block 5: bytes 240..249 for the check, all but 250..252 for the parity */
  const __m128i data = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0);
  const __m128i par = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, -1, -1, -1);
  v = _mm512_xor_si512(v, aff(_mm512_zextsi128_si512(_mm_and_si128(tail, data)),
                             _mm512_set1_epi64((long long)fec_aff_block[5])));
  q = _mm512_xor_si512(q, _mm512_zextsi128_si512(_mm_and_si128(tail, par)));
  /* fold by 24 bytes: check in lanes 0..2, parity in lanes 4..6 */
  __m512i lo = _mm512_permutex2var_epi64(v, _mm512_setr_epi64(0, 1, 2, 0, 8, 9, 10, 8), q);
  __m512i hi = _mm512_permutex2var_epi64(v, _mm512_setr_epi64(3, 4, 5, 3, 11, 12, 13, 11), q);
#define TIMES(m) _mm512_setr_epi64((long long)(m), (long long)(m), (long long)(m), (long long)(m), \
                                   AFF_ID, AFF_ID, AFF_ID, AFF_ID)
  __m512i x = _mm512_xor_si512(aff(lo, TIMES(FEC_AFF_STEP)), hi);
  /* by 12 bytes within each half, then 6 and 3 within each 128-bit lane */
  x = _mm512_xor_si512(aff(x, TIMES(FEC_AFF_FOLD4)),
                       _mm512_permutexvar_epi32(_mm512_setr_epi32(3, 4, 5, 3, 3, 3, 3, 3, 11, 12, 13, 11, 11, 11, 11, 11), x));
  x = _mm512_xor_si512(aff(x, TIMES(FEC_AFF_FOLD2)), _mm512_bsrli_epi128(x, 6));
  x = _mm512_xor_si512(aff(x, TIMES(FEC_AFF_FOLD1)), _mm512_bsrli_epi128(x, 3));
#undef TIMES
  /* plus the received check of group g, byte 250 + (g+2)%3 */
  const __m128i rx = _mm_setr_epi8(12, 10, 11, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  return _mm512_xor_si512(x, _mm512_zextsi128_si512(_mm_shuffle_epi8(tail, rx)));
}

#define CRC_SYN _mm512_set1_epi64(0xFF)
#define FEC_SYN _mm512_setr_epi64(0xFFFFFF, 0, 0, 0, 0xFFFFFF, 0, 0, 0)

UAL_AVX512_TARGET static inline __m128i tail_of(const uint8_t *flit) {
  return _mm_loadu_si128((const __m128i *)(const void *)(flit + 240));
}

UAL_AVX512_TARGET bool ual_crc_ok_avx512(const uint8_t *flit) {
  return _mm512_test_epi64_mask(crc_syn(flit, tail_of(flit)), CRC_SYN) == 0;
}

UAL_AVX512_TARGET bool ual_fec_clean_avx512(const uint8_t *flit) {
  return _mm512_test_epi64_mask(fec_syn(flit, tail_of(flit)), FEC_SYN) == 0;
}

UAL_AVX512_TARGET bool ual_flit_ok_avx512(const uint8_t *flit) {
  __m128i tail = tail_of(flit);
  return (_mm512_test_epi64_mask(crc_syn(flit, tail), CRC_SYN) | _mm512_test_epi64_mask(fec_syn(flit, tail), FEC_SYN)) == 0;
}
#else
bool ual_crc_ok_avx512(const uint8_t *flit) { return ual_crc_ok_portable(flit); }
bool ual_fec_clean_avx512(const uint8_t *flit) { return ual_fec_clean_portable(flit); }
bool ual_flit_ok_avx512(const uint8_t *flit) { return ual_flit_ok_portable(flit); }
#endif

bool ual_flit_check(const uint8_t *flit) {
  if (ual_avx512_usable()) return ual_flit_ok_avx512(flit);
  return ual_gfni_usable() ? ual_flit_ok_gfni(flit) : ual_flit_ok_portable(flit);
}
