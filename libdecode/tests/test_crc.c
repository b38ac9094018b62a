/* CRC-64 and FEC known answers (digest §5.1, §5.2), fast == reference, and
 * FEC correction over many random flits. */
#include "check.h"
#include "ualink/crc.h"

static void kat(void) {
  uint8_t f[256] = {0};
  ual_flit_seal(f);
  for (int i = 242; i < 256; i++) CHECK_EQ(f[i], 0);

  for (int i = 0; i < 242; i++) f[i] = (uint8_t)i;
  ual_flit_seal(f);
  static const uint8_t want[14] = { 0xbc, 0xe5, 0x2c, 0x43, 0x1b, 0xba, 0x50, 0x56,
                                    0x15, 0xa0, 0x3d, 0xc7, 0xff, 0xa8 };
  CHECK_MEM(f + 242, want, 14);
  CHECK(ual_crc64_check(f));
  CHECK(ual_fec_clean(f));
  uint8_t ref[8];
  ual_crc64_ref(f, ref);
  CHECK_MEM(ref, want, 8);
  uint8_t g[256];
  memcpy(g, f, 256);
  ual_fec_encode_ref(g);
  CHECK_MEM(g + 250, want + 8, 6);
}

static void random_flit(uint8_t *f, uint64_t *s) {
  for (int i = 0; i < 242; i++) f[i] = (uint8_t)check_rand(s);
  ual_flit_seal(f);
}

static void fast_equals_ref(void) {
  uint64_t s = 11;
  int bad = 0;
  for (int n = 0; n < 5000; n++) {
    uint8_t f[256], a[8], b[256];
    random_flit(f, &s);
    ual_crc64_ref(f, a);
    memcpy(b, f, 256);
    ual_fec_encode_ref(b);
    bad += memcmp(a, f + 242, 8) != 0 || memcmp(b + 250, f + 250, 6) != 0;
  }
  CHECK_EQ(bad, 0);
}

static void fec_single_errors(void) {
  uint64_t s = 7;
  unsigned cases = 0, corrected = 0;
  for (int n = 0; n < 40; n++) {
    uint8_t f[256];
    random_flit(f, &s);
    for (int pos = 0; pos < 256; pos++) {
      uint8_t g[256];
      memcpy(g, f, 256);
      uint8_t e = (uint8_t)(1 + check_rand(&s) % 255);
      g[pos] ^= e;
      struct ual_fec_result r;
      enum ual_fec_status st = ual_fec_correct(g, &r);
      cases++;
      if (st == UAL_FEC_CORRECTED && memcmp(g, f, 256) == 0 && r.pos[pos % 3] == pos) corrected++;
    }
  }
  printf("fec: single-byte errors at every position: %u cases, %u corrected\n", cases, corrected);
  CHECK_EQ(corrected, cases);
}

static void fec_three_groups(void) {
  uint64_t s = 5;
  unsigned cases = 20000, ok = 0;
  for (unsigned n = 0; n < cases; n++) {
    uint8_t f[256], g[256];
    random_flit(f, &s);
    memcpy(g, f, 256);
    for (int grp = 0; grp < 3; grp++) {
      int pos = grp + 3 * (int)(check_rand(&s) % 85);
      if (pos > 255) pos -= 3;
      g[pos] ^= (uint8_t)(1 + check_rand(&s) % 255);
    }
    struct ual_fec_result r;
    ok += ual_fec_correct(g, &r) == UAL_FEC_CORRECTED && memcmp(g, f, 256) == 0;
  }
  printf("fec: one error in each group: %u cases, %u corrected\n", cases, ok);
  CHECK_EQ(ok, cases);
}

/* Two errors in one group must never come out as a valid flit. */
static void fec_double_errors(void) {
  uint64_t s = 3;
  unsigned cases = 100000, uncorrectable = 0, crc_caught = 0, accepted = 0;
  for (unsigned n = 0; n < cases; n++) {
    uint8_t f[256], g[256];
    random_flit(f, &s);
    memcpy(g, f, 256);
    int grp = (int)(check_rand(&s) % 3);
    int a = grp + 3 * (int)(check_rand(&s) % 85), b;
    do b = grp + 3 * (int)(check_rand(&s) % 85); while (b == a);
    if (a > 255) a -= 3;
    if (b > 255) b -= 3;
    if (a == b) { n--; continue; }
    g[a] ^= (uint8_t)(1 + check_rand(&s) % 255);
    g[b] ^= (uint8_t)(1 + check_rand(&s) % 255);
    struct ual_fec_result r;
    if (ual_fec_correct(g, &r) == UAL_FEC_UNCORRECTABLE) uncorrectable++;
    else if (!ual_crc64_check(g)) crc_caught++;
    else accepted++;
  }
  printf("fec: two errors in one group: %u cases, %u uncorrectable, %u miscorrected but caught by CRC, %u accepted\n",
         cases, uncorrectable, crc_caught, accepted);
  CHECK_EQ(accepted, 0);
  CHECK_EQ(uncorrectable + crc_caught, cases);
}

int main(void) {
  kat();
  fast_equals_ref();
  fec_single_errors();
  fec_three_groups();
  fec_double_errors();
  return check_done("test_crc");
}
