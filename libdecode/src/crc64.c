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
 * that follow them, four bits at a time. */
#include "ualink/crc.h"

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

static uint64_t crc_remainder(const uint8_t *flit) {
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

void ual_crc64(const uint8_t *flit, uint8_t crc[UAL_CRC_BYTES]) {
  uint64_t r = crc_remainder(flit);
  for (int k = 0; k < UAL_CRC_BYTES; k++) crc[k] = (uint8_t)(r >> (8 * k));
}

bool ual_crc64_check(const uint8_t *flit) {
  const uint8_t *c = flit + UAL_CRC_OFFSET;
  uint64_t rx = 0;
  for (int k = 0; k < UAL_CRC_BYTES; k++) rx |= (uint64_t)c[k] << (8 * k);
  return crc_remainder(flit) == rx;
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
