/* FEC of the flit (digest §5.2): three interleaved single-symbol-correcting
 * codes over GF(2^8)/0x11D. Flit byte i is in group i mod 3; each group has
 * data symbols B0..B83 (groups 1 and 2 end with a 0x00 pad as B83), check
 * B84 = sum B_i * a^(84-i) and parity B85 = xor of B0..B83.
 *
 *   byte 250     251     252     253      254      255
 *        g1.chk  g2.chk  g0.chk  g1.par   g2.par   g0.par            */
#include "ualink/crc.h"

#include <string.h>

#include "gf_tables.h"

#define FEC_DATA 84                  /* B0..B83 */
static const uint8_t check_byte[3] = { 252, 250, 251 };
static const uint8_t parity_byte[3] = { 255, 253, 254 };

const char *ual_fec_status_name(enum ual_fec_status s) {
  switch (s) {
  case UAL_FEC_CLEAN: return "clean";
  case UAL_FEC_CORRECTED: return "corrected";
  case UAL_FEC_UNCORRECTABLE: return "uncorrectable";
  }
  return "?";
}

static uint8_t xtime(uint8_t c) { return (uint8_t)((c << 1) ^ ((c & 0x80) ? 0x1D : 0)); }

/* Plain per-group Horner evaluation. */
static void group_ref(const uint8_t *flit, int g, uint8_t *check, uint8_t *parity) {
  uint8_t c = 0, p = 0;
  for (int j = 0; j < FEC_DATA; j++) {
    int i = 3 * j + g;
    uint8_t b = i < UAL_FEC_OFFSET ? flit[i] : 0;
    c = xtime(c ^ b);
    p ^= b;
  }
  *check = c;
  *parity = p;
}

void ual_fec_encode_ref(uint8_t *flit) {
  for (int g = 0; g < 3; g++) group_ref(flit, g, &flit[check_byte[g]], &flit[parity_byte[g]]);
}

static uint8_t gf_mul_pow(uint8_t b, unsigned e) {
  return b ? fec_exp[fec_log[b] + e % 255] : 0;
}

#define SWAR_XTIME(c) ((((c) & 0x7F7F7F7Fu) << 1) ^ ((((c) >> 7) & 0x01010101u) * 0x1Du))
#define CHAINS 4
#define CHAIN_LEN (FEC_DATA / CHAINS)   /* 21 symbols */

/* All three groups at once, one byte lane each of a 32-bit word. Horner's
 * rule is split into four independent chains over consecutive symbol runs
 * (S = sum_c a^(21*(3-c)) * H_c) so that they overlap in the pipeline. */
static void fec_compute(const uint8_t *flit, uint32_t *check, uint32_t *parity) {
  uint32_t h[CHAINS] = {0}, p = 0;
  for (int j = 0; j < CHAIN_LEN; j++) {
    for (int k = 0; k < CHAINS; k++) {
      int sym = k * CHAIN_LEN + j;
      const uint8_t *t = flit + 3 * sym;
      /* B83 is byte 249 for group 0 and the 0x00 pad for groups 1 and 2 */
      uint32_t v = sym == FEC_DATA - 1 ? t[0]
                                       : ((uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16);
      h[k] ^= v;
      p ^= v;
      h[k] = SWAR_XTIME(h[k]);
    }
  }
  uint32_t c = h[CHAINS - 1];
  for (int g = 0; g < 3; g++) {
    uint8_t acc = 0;
    for (int k = 0; k < CHAINS - 1; k++)
      acc ^= gf_mul_pow((uint8_t)(h[k] >> (8 * g)), (unsigned)(CHAIN_LEN * (CHAINS - 1 - k)));
    c ^= (uint32_t)acc << (8 * g);
  }
  *check = c;
  *parity = p;
}

void ual_fec_encode(uint8_t *flit) {
  uint32_t c, p;
  fec_compute(flit, &c, &p);
  for (int g = 0; g < 3; g++) {
    flit[check_byte[g]] = (uint8_t)(c >> (8 * g));
    flit[parity_byte[g]] = (uint8_t)(p >> (8 * g));
  }
}

bool ual_fec_clean(const uint8_t *flit) {
  uint32_t c, p;
  fec_compute(flit, &c, &p);
  uint32_t rc = (uint32_t)flit[252] | (uint32_t)flit[250] << 8 | (uint32_t)flit[251] << 16;
  uint32_t rp = (uint32_t)flit[255] | (uint32_t)flit[253] << 8 | (uint32_t)flit[254] << 16;
  return c == rc && p == rp;
}

enum ual_fec_status ual_fec_correct(uint8_t *flit, struct ual_fec_result *r) {
  uint32_t c, p;
  fec_compute(flit, &c, &p);
  r->status = UAL_FEC_CLEAN;
  for (int g = 0; g < 3; g++) {
    uint8_t sc = (uint8_t)(c >> (8 * g)) ^ flit[check_byte[g]];
    uint8_t sp = (uint8_t)(p >> (8 * g)) ^ flit[parity_byte[g]];
    r->pos[g] = -1;
    r->group[g] = UAL_FEC_CLEAN;
    if (!sc && !sp) continue;
    if (sc && !sp) {                 /* the check byte itself is wrong */
      flit[check_byte[g]] ^= sc;
      r->pos[g] = check_byte[g];
      r->group[g] = UAL_FEC_CORRECTED;
    } else if (!sc && sp) {          /* the parity byte itself is wrong */
      flit[parity_byte[g]] ^= sp;
      r->pos[g] = parity_byte[g];
      r->group[g] = UAL_FEC_CORRECTED;
    } else {
      int d = (fec_log[sc] - fec_log[sp] + 255) % 255;
      int j = FEC_DATA - d;          /* symbol index B_j */
      int i = 3 * j + g;             /* flit byte */
      if (d >= 1 && j >= 0 && i < UAL_FEC_OFFSET) {
        flit[i] ^= sp;
        r->pos[g] = (int16_t)i;
        r->group[g] = UAL_FEC_CORRECTED;
      } else {                       /* out of range, or the pad of groups 1 and 2 */
        r->group[g] = UAL_FEC_UNCORRECTABLE;
      }
    }
    if (r->group[g] > r->status) r->status = r->group[g];
  }
  return (enum ual_fec_status)r->status;
}
