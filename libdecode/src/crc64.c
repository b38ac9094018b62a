/* CRC-64 of the flit (digest §5.1): a Reed-Solomon-style code over
 * GF(2^8)/0x12B with generator (x+a)(x+a^2)...(x+a^8); flit byte 242+k is the
 * coefficient of x^k of x^8*a(x) mod g(x). Seed 0, no reflection, no XOR out. */
#include "ualink/crc.h"

#include <string.h>

#include "gf_tables.h"

/* g(x) without its leading x^8 term, g[k] = coefficient of x^k */
static const uint8_t crc_gen[8] = { 0x69, 0x4D, 0x41, 0x33, 0xD5, 0xFE, 0x68, 0xD5 };

static uint8_t gf12b_mul(uint8_t a, uint8_t b) {
  uint8_t r = 0;
  while (b) {
    if (b & 1) r ^= a;
    b >>= 1;
    a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x2B : 0));
  }
  return r;
}

void ual_crc64_ref(const uint8_t *flit, uint8_t crc[UAL_CRC_BYTES]) {
  uint8_t r[8] = {0};
  for (int i = 0; i < UAL_CRC_OFFSET; i++) {
    uint8_t f = flit[i] ^ r[7];
    for (int k = 7; k >= 1; k--) r[k] = r[k - 1] ^ gf12b_mul(f, crc_gen[k]);
    r[0] = gf12b_mul(f, crc_gen[0]);
  }
  memcpy(crc, r, 8);
}

/* Register byte k = coefficient of x^k. Eight message bytes enter the top
 * coefficients at once (slicing-by-8): r' = (r + m(x)) * x^8 mod g. */
static uint64_t crc_state(const uint8_t *flit) {
  uint64_t r = 0;
  int i = 0;
  for (; i + 8 <= UAL_CRC_OFFSET; i += 8) {
    const uint8_t *p = flit + i;
    uint64_t m = (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40 |
                 (uint64_t)p[3] << 32 | (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
                 (uint64_t)p[6] << 8 | p[7];
    r ^= m;
    r = crc_slice[0][r & 0xFF] ^ crc_slice[1][r >> 8 & 0xFF] ^ crc_slice[2][r >> 16 & 0xFF] ^
        crc_slice[3][r >> 24 & 0xFF] ^ crc_slice[4][r >> 32 & 0xFF] ^ crc_slice[5][r >> 40 & 0xFF] ^
        crc_slice[6][r >> 48 & 0xFF] ^ crc_slice[7][r >> 56];
  }
  for (; i < UAL_CRC_OFFSET; i++)
    r = (r << 8) ^ crc_slice[0][(r >> 56) ^ flit[i]];
  return r;
}

void ual_crc64(const uint8_t *flit, uint8_t crc[UAL_CRC_BYTES]) {
  uint64_t r = crc_state(flit);
  for (int k = 0; k < 8; k++) crc[k] = (uint8_t)(r >> (8 * k));
}

bool ual_crc64_check(const uint8_t *flit) {
  uint64_t r = crc_state(flit), rx = 0;
  for (int k = 7; k >= 0; k--) rx = rx << 8 | flit[UAL_CRC_OFFSET + k];
  return r == rx;
}

void ual_flit_seal(uint8_t *flit) {
  ual_crc64(flit, flit + UAL_CRC_OFFSET);
  ual_fec_encode(flit);
}
