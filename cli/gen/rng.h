/* Deterministic PRNG of ualink-gen (xoshiro256** seeded through splitmix64):
 * the same sequence on every platform for a given --seed. */
#ifndef UALGEN_RNG_H
#define UALGEN_RNG_H

#include <stdint.h>

struct gen_rng { uint64_t s[4]; };
void gen_rng_seed(struct gen_rng *r, uint64_t seed);
static inline uint64_t gen_rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t gen_rng_next(struct gen_rng *r) {   /* inline: a few per flit */
  uint64_t *s = r->s;
  const uint64_t out = gen_rng_rotl(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = gen_rng_rotl(s[3], 45);
  return out;
}
static inline uint32_t gen_rng_below(struct gen_rng *r, uint32_t n) {
  return (uint32_t)(((gen_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}
static inline double gen_rng_unit(struct gen_rng *r) { /* [0, 1) */
  return (double)(gen_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
