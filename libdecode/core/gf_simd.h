/* Private to libdecode: the implementations of the CRC-64 and FEC
 * arithmetic (digest §5.1, §5.2). The AVX-512+GFNI checks, then the
 * GFNI+AVX2 ones, run where the CPU has them (checked per call: no state);
 * the portable ones everywhere else. All are visible here so the tests can
 * hold each against the reference. */
#ifndef UAL_GF_SIMD_H
#define UAL_GF_SIMD_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define UAL_GFNI_BUILT 1
#define UAL_GFNI_TARGET __attribute__((target("avx2,gfni")))
static inline bool ual_gfni_usable(void) {
  return __builtin_cpu_supports("gfni") && __builtin_cpu_supports("avx2");
}
#define UAL_AVX512_TARGET __attribute__((target("avx512f,avx512bw,gfni")))
static inline bool ual_avx512_usable(void) {
  return __builtin_cpu_supports("gfni") && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
}
#else
#define UAL_GFNI_BUILT 0
static inline bool ual_gfni_usable(void) { return false; }
static inline bool ual_avx512_usable(void) { return false; }
#endif

/* CRC remainder of bytes 0..241 (byte k = coefficient of x^k), and whether
 * bytes 242..249 hold it. The _gfni forms need ual_gfni_usable(). */
uint64_t ual_crc_rem_portable(const uint8_t *flit);
bool ual_crc_ok_portable(const uint8_t *flit);
uint64_t ual_crc_rem_gfni(const uint8_t *flit);
bool ual_crc_ok_gfni(const uint8_t *flit);

/* FEC check and parity of bytes 0..249, byte g = group g. */
struct ual_fec_sums { uint32_t check, parity; };
struct ual_fec_sums ual_fec_sums_portable(const uint8_t *flit);
struct ual_fec_sums ual_fec_sums_gfni(const uint8_t *flit);
bool ual_fec_clean_portable(const uint8_t *flit);
bool ual_fec_clean_gfni(const uint8_t *flit);

/* Checks only, from the syndromes of the whole flit (flit_check.c); the
 * _avx512 forms need ual_avx512_usable(). flit_ok = FEC clean and CRC ok. */
bool ual_crc_ok_avx512(const uint8_t *flit);
bool ual_fec_clean_avx512(const uint8_t *flit);
bool ual_flit_ok_portable(const uint8_t *flit);
bool ual_flit_ok_gfni(const uint8_t *flit);
bool ual_flit_ok_avx512(const uint8_t *flit);

#endif
