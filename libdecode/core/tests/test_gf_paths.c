/* Every implementation of the CRC-64 and FEC arithmetic (gf_simd.h), the
 * portable one, the GFNI+AVX2 one and the AVX-512 checks, against the
 * byte-serial references, on random flits, sealed flits and sealed flits
 * with wrong bytes. The public calls use whichever the CPU has; this test
 * holds each to the same answers so that a machine without GFNI or AVX-512
 * runs code that was checked too. */
#include "check.h"
#include "ualink/core/crc.h"
#include "core/gf_simd.h"

static uint64_t le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int k = 0; k < 8; k++) v |= (uint64_t)p[k] << (8 * k);
  return v;
}

/* reference FEC bytes unpacked into per-group sums (byte g = group g) */
static struct ual_fec_sums ref_sums(const uint8_t *flit) {
  uint8_t f[UAL_FLIT_BYTES];
  memcpy(f, flit, sizeof f);
  ual_fec_encode_ref(f);
  struct ual_fec_sums s = { 0, 0 };
  for (int g = 0; g < 3; g++) {
    s.check |= (uint32_t)f[UAL_FEC_OFFSET + (g + 2) % 3] << (8 * g);
    s.parity |= (uint32_t)f[UAL_FEC_OFFSET + 3 + (g + 2) % 3] << (8 * g);
  }
  return s;
}

static bool ref_crc_ok(const uint8_t *flit) {
  uint8_t crc[8];
  ual_crc64_ref(flit, crc);
  return memcmp(crc, flit + UAL_CRC_OFFSET, 8) == 0;
}

static bool ref_fec_clean(const uint8_t *flit) {
  uint8_t f[UAL_FLIT_BYTES];
  memcpy(f, flit, sizeof f);
  ual_fec_encode_ref(f);
  return memcmp(f + UAL_FEC_OFFSET, flit + UAL_FEC_OFFSET, UAL_FEC_BYTES) == 0;
}

/* rem and sums are NULL where a path only checks (AVX-512) */
struct path {
  const char *name;
  uint64_t (*rem)(const uint8_t *);
  bool (*ok)(const uint8_t *);
  struct ual_fec_sums (*sums)(const uint8_t *);
  bool (*clean)(const uint8_t *);
  bool (*flit_ok)(const uint8_t *);
};

/* The three answers of path p on f against the references; counts mismatches. */
static unsigned checks_wrong(const struct path *p, const uint8_t *f) {
  bool crc = ref_crc_ok(f), fec = ref_fec_clean(f);
  return (p->ok(f) != crc) + (p->clean(f) != fec) + (p->flit_ok(f) != (crc && fec));
}

static void one_path(const struct path *p) {
  uint64_t s = 77;
  unsigned n = 20000, rem_same = 0, fec_same = 0, ok_right = 0, sealed_ok = 0, wrong = 0;
  for (unsigned c = 0; c < n; c++) {
    uint8_t f[UAL_FLIT_BYTES], crc[8];
    for (int i = 0; i < UAL_FLIT_BYTES; i++) f[i] = (uint8_t)check_rand(&s);
    if (c < 64) memset(f, c & 1 ? 0xFF : 0, (size_t)(UAL_FLIT_BYTES - c)); /* long runs, edges */
    if (c % 4 == 1) { /* a sealed flit, sometimes with wrong bytes anywhere */
      ual_crc64_ref(f, f + UAL_CRC_OFFSET);
      ual_fec_encode_ref(f);
      sealed_ok += p->ok(f) && p->clean(f) && p->flit_ok(f);
      if (c % 8 == 1) f[check_rand(&s) % UAL_FLIT_BYTES] ^= (uint8_t)(1 + check_rand(&s) % 255);
    }
    ual_crc64_ref(f, crc);
    rem_same += p->rem ? p->rem(f) == le64(crc) : 1;
    ok_right += p->ok(f) == (memcmp(crc, f + UAL_CRC_OFFSET, 8) == 0);
    struct ual_fec_sums a = p->sums ? p->sums(f) : ref_sums(f), b = ref_sums(f);
    fec_same += a.check == b.check && a.parity == b.parity;
    wrong += checks_wrong(p, f);
  }
  printf("%s: %u flits: remainder == ref %u, check right %u, FEC sums == ref %u, sealed pass %u of %u, "
         "wrong clean/ok answers %u\n", p->name, n, rem_same, ok_right, fec_same, sealed_ok, n / 4, wrong);
  CHECK_EQ(rem_same, n);
  CHECK_EQ(ok_right, n);
  CHECK_EQ(fec_same, n);
  CHECK_EQ(sealed_ok, n / 4);
  CHECK_EQ(wrong, 0);
}

/* Sealed flits with 0..3 wrong bytes (distinct places) in the data, the CRC,
 * the FEC bytes or anywhere; half of them sealed again by the FEC after the
 * damage, so that every mix of FEC clean or not and CRC ok or not occurs. */
static void corrupted(const struct path *p) {
  static const struct { unsigned from, n; } region[] = { { 0, UAL_CRC_OFFSET }, { UAL_CRC_OFFSET, UAL_CRC_BYTES },
                                                         { UAL_FEC_OFFSET, UAL_FEC_BYTES }, { 0, UAL_FLIT_BYTES } };
  uint64_t s = 99;
  unsigned n = 32000, wrong = 0, seen[2][2] = { { 0, 0 }, { 0, 0 } };
  for (unsigned c = 0; c < n; c++) {
    uint8_t f[UAL_FLIT_BYTES];
    for (int i = 0; i < UAL_FLIT_BYTES; i++) f[i] = (uint8_t)check_rand(&s);
    ual_crc64_ref(f, f + UAL_CRC_OFFSET);
    ual_fec_encode_ref(f);
    unsigned errs = c % 4, r = c / 4 % 4, at[3];
    for (unsigned e = 0; e < errs; e++) {
      bool again;
      do {
        at[e] = region[r].from + (unsigned)(check_rand(&s) % region[r].n);
        again = false;
        for (unsigned k = 0; k < e; k++) again |= at[k] == at[e];
      } while (again);
      f[at[e]] ^= (uint8_t)(1 + check_rand(&s) % 255);
    }
    if (c / 16 % 2) ual_fec_encode_ref(f);
    seen[ref_fec_clean(f)][ref_crc_ok(f)]++;
    wrong += checks_wrong(p, f);
  }
  printf("%s: %u damaged flits (FEC clean/CRC ok: no/no %u, no/yes %u, yes/no %u, yes/yes %u), wrong answers %u\n",
         p->name, n, seen[0][0], seen[0][1], seen[1][0], seen[1][1], wrong);
  CHECK(seen[0][0] && seen[0][1] && seen[1][0] && seen[1][1]);
  CHECK_EQ(wrong, 0);
}

int main(void) {
  static const struct path portable = { "portable", ual_crc_rem_portable, ual_crc_ok_portable, ual_fec_sums_portable,
                                        ual_fec_clean_portable, ual_flit_ok_portable };
  static const struct path gfni = { "gfni", ual_crc_rem_gfni, ual_crc_ok_gfni, ual_fec_sums_gfni,
                                    ual_fec_clean_gfni, ual_flit_ok_gfni };
  static const struct path avx512 = { "avx512", NULL, ual_crc_ok_avx512, NULL, ual_fec_clean_avx512, ual_flit_ok_avx512 };
  /* what the public calls pick */
  static const struct path public = { "public", NULL, ual_crc64_check, NULL, ual_fec_clean, ual_flit_check };
  one_path(&portable);
  corrupted(&portable);
  if (ual_gfni_usable()) {
    one_path(&gfni);
    corrupted(&gfni);
  } else {
    printf("gfni: this CPU has no GFNI+AVX2; the public calls use the portable path\n");
  }
  if (ual_avx512_usable()) {
    one_path(&avx512);
    corrupted(&avx512);
  } else {
    printf("avx512: this CPU has no AVX-512+GFNI; the public calls use another path\n");
  }
  one_path(&public);
  corrupted(&public);
  return check_done("test_gf_paths");
}
