/* Private to libdecode: the two implementations of the CRC-64 and FEC
 * arithmetic (digest §5.1, §5.2). The GFNI+AVX2 one runs where the CPU has
 * it (checked per call: no state); the portable one everywhere else. Both
 * are visible here so the tests can hold each against the reference. */
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
#else
#define UAL_GFNI_BUILT 0
static inline bool ual_gfni_usable(void) { return false; }
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

#endif
