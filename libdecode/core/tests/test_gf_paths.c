/* Both implementations of the CRC-64 and FEC arithmetic (gf_simd.h), the
 * portable one and the GFNI+AVX2 one, against the byte-serial references,
 * on random flits, sealed flits and sealed flits with wrong bytes. The
 * public calls use whichever the CPU has; this test holds each to the same
 * answers so that a machine without GFNI runs code that was checked too. */
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

struct path {
  const char *name;
  uint64_t (*rem)(const uint8_t *);
  bool (*ok)(const uint8_t *);
  struct ual_fec_sums (*sums)(const uint8_t *);
};

static void one_path(const struct path *p) {
  uint64_t s = 77;
  unsigned n = 20000, rem_same = 0, fec_same = 0, ok_right = 0, sealed_ok = 0;
  for (unsigned c = 0; c < n; c++) {
    uint8_t f[UAL_FLIT_BYTES], crc[8];
    for (int i = 0; i < UAL_FLIT_BYTES; i++) f[i] = (uint8_t)check_rand(&s);
    if (c < 64) memset(f, c & 1 ? 0xFF : 0, (size_t)(UAL_FLIT_BYTES - c)); /* long runs, edges */
    if (c % 4 == 1) { /* a sealed flit, sometimes with wrong bytes anywhere */
      ual_crc64_ref(f, f + UAL_CRC_OFFSET);
      ual_fec_encode_ref(f);
      sealed_ok += p->ok(f);
      if (c % 8 == 1) f[check_rand(&s) % UAL_FLIT_BYTES] ^= (uint8_t)(1 + check_rand(&s) % 255);
    }
    ual_crc64_ref(f, crc);
    rem_same += p->rem(f) == le64(crc);
    ok_right += p->ok(f) == (memcmp(crc, f + UAL_CRC_OFFSET, 8) == 0);
    struct ual_fec_sums a = p->sums(f), b = ref_sums(f);
    fec_same += a.check == b.check && a.parity == b.parity;
  }
  printf("%s: %u flits: remainder == ref %u, check right %u, FEC sums == ref %u, sealed pass %u of %u\n",
         p->name, n, rem_same, ok_right, fec_same, sealed_ok, n / 4);
  CHECK_EQ(rem_same, n);
  CHECK_EQ(ok_right, n);
  CHECK_EQ(fec_same, n);
  CHECK_EQ(sealed_ok, n / 4);
}

int main(void) {
  static const struct path portable = { "portable", ual_crc_rem_portable, ual_crc_ok_portable, ual_fec_sums_portable };
  one_path(&portable);
  if (ual_gfni_usable()) {
    static const struct path gfni = { "gfni", ual_crc_rem_gfni, ual_crc_ok_gfni, ual_fec_sums_gfni };
    one_path(&gfni);
  } else {
    printf("gfni: this CPU has no GFNI+AVX2; the public calls use the portable path\n");
  }
  return check_done("test_gf_paths");
}
