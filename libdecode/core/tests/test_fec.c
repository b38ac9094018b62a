/* FEC (digest §5.2): known answers, fast == reference, the syndrome
 * definition, and correction: every single-byte error, one error per group,
 * two errors in one group never accepted. */
#include "check.h"
#include "ualink/core/crc.h"

/* The definition written out with powers rather than Horner: flit byte of
 * group g, symbol j (0..85), or -1 for the pad. */
static int sym_byte(int g, int j) {
  if (j == 84) return 250 + (g + 2) % 3;  /* check */
  if (j == 85) return 253 + (g + 2) % 3;  /* parity */
  int p = 3 * j + g;
  return p < 250 ? p : -1;
}

static uint8_t mul(uint8_t a, uint8_t b) {
  uint8_t r = 0;
  for (int i = 0; i < 8; i++) {
    if (b >> i & 1) r ^= a;
    a = (uint8_t)(a << 1 ^ (a & 0x80 ? 0x1D : 0));
  }
  return r;
}

static uint8_t alpha_pow(int e) {
  uint8_t r = 1;
  while (e--) r = mul(r, 2);
  return r;
}

/* Both syndromes of every group zero, from the definition. */
static int syndromes_zero(const uint8_t *f) {
  for (int g = 0; g < 3; g++) {
    uint8_t sc = f[sym_byte(g, 84)], sp = f[sym_byte(g, 85)];
    for (int j = 0; j < 84; j++) {
      int p = sym_byte(g, j);
      uint8_t b = p < 0 ? 0 : f[p];
      sc ^= mul(b, alpha_pow(84 - j));
      sp ^= b;
    }
    if (sc || sp) return 0;
  }
  return 1;
}

static void random_flit(uint8_t *f, uint64_t *s) {
  for (int i = 0; i < UAL_CRC_OFFSET; i++) f[i] = (uint8_t)check_rand(s);
  ual_flit_seal(f);
}

/* Number of flit bytes in group g: data, check and parity. */
static int group_len(int g) { return (UAL_FLIT_BYTES - g + 2) / 3; }

static int random_pos_in(int g, uint64_t *s) { return g + 3 * (int)(check_rand(s) % (uint64_t)group_len(g)); }

static void known_answers(void) {
  uint8_t f[UAL_FLIT_BYTES] = { 0 };
  memset(f + UAL_FEC_OFFSET, 0x99, 6);
  ual_fec_encode(f);
  for (int i = UAL_FEC_OFFSET; i < UAL_FLIT_BYTES; i++) CHECK_EQ(f[i], 0);
  CHECK(ual_fec_clean(f));

  static const uint8_t want[6] = { 0x15, 0xa0, 0x3d, 0xc7, 0xff, 0xa8 };
  static const uint8_t crc[8] = { 0xbc, 0xe5, 0x2c, 0x43, 0x1b, 0xba, 0x50, 0x56 };
  for (int i = 0; i < UAL_CRC_OFFSET; i++) f[i] = (uint8_t)i;
  memcpy(f + UAL_CRC_OFFSET, crc, 8);
  uint8_t g[UAL_FLIT_BYTES];
  memcpy(g, f, sizeof g);
  ual_fec_encode(f);
  CHECK_MEM(f + UAL_FEC_OFFSET, want, 6);
  ual_fec_encode_ref(g);
  CHECK_MEM(g + UAL_FEC_OFFSET, want, 6);
  CHECK(ual_fec_clean(f));
  CHECK(syndromes_zero(f));
  /* parity of group 0 by hand: bytes 0, 3, ..., 240 and CRC bytes 243, 246, 249 */
  uint8_t p0 = 0;
  for (int i = 0; i < UAL_CRC_OFFSET; i += 3) p0 ^= (uint8_t)i;
  p0 ^= crc[1] ^ crc[4] ^ crc[7];
  CHECK_EQ(p0, want[5]);

  CHECK_STR(ual_fec_status_name(UAL_FEC_CLEAN), "clean");
  CHECK_STR(ual_fec_status_name(UAL_FEC_CORRECTED), "corrected");
  CHECK_STR(ual_fec_status_name(UAL_FEC_UNCORRECTABLE), "uncorrectable");
}

static void fast_equals_ref(void) {
  uint64_t s = 13;
  unsigned n = 5000, same = 0, clean = 0, def = 0, dirty = 0;
  for (unsigned c = 0; c < n; c++) {
    uint8_t a[UAL_FLIT_BYTES], b[UAL_FLIT_BYTES];
    for (int i = 0; i < UAL_FLIT_BYTES; i++) a[i] = (uint8_t)check_rand(&s);
    if (c < 16) memset(a, c & 1 ? 0xFF : 0, UAL_FEC_OFFSET - c);
    memcpy(b, a, sizeof b);
    ual_fec_encode(a);
    ual_fec_encode_ref(b);
    same += memcmp(a, b, sizeof a) == 0;
    clean += ual_fec_clean(a);
    if (c < 300) def += syndromes_zero(a);
    a[check_rand(&s) % UAL_FLIT_BYTES] ^= (uint8_t)(1 + check_rand(&s) % 255);
    dirty += !ual_fec_clean(a);
  }
  printf("fec: %u random flits, fast == ref %u, clean %u, definition %u of 300, one wrong byte seen %u\n",
         n, same, clean, def, dirty);
  CHECK_EQ(same, n);
  CHECK_EQ(clean, n);
  CHECK_EQ(def, 300);
  CHECK_EQ(dirty, n);
}

/* r reports exactly one corrected byte, at pos. */
static int one_fix_at(const struct ual_fec_result *r, int pos) {
  for (int g = 0; g < 3; g++) {
    int here = g == pos % 3;
    if (r->group[g] != (here ? UAL_FEC_CORRECTED : UAL_FEC_CLEAN)) return 0;
    if (r->pos[g] != (here ? pos : -1)) return 0;
  }
  return r->status == UAL_FEC_CORRECTED;
}

static void single_errors(void) {
  uint64_t s = 7;
  unsigned cases = 0, fixed = 0;
  uint8_t f[UAL_FLIT_BYTES], g[UAL_FLIT_BYTES];
  struct ual_fec_result r;
  for (int n = 0; n < 200; n++) {
    random_flit(f, &s);
    CHECK_EQ(ual_fec_correct(f, &r), UAL_FEC_CLEAN);
    CHECK(r.pos[0] == -1 && r.pos[1] == -1 && r.pos[2] == -1);
    for (int pos = 0; pos < UAL_FLIT_BYTES; pos++) {
      /* the first flit takes every error value, the others a random one */
      for (int e = 1; e < 256; e++) {
        uint8_t v = n == 0 ? (uint8_t)e : (uint8_t)(1 + check_rand(&s) % 255);
        memcpy(g, f, sizeof g);
        g[pos] ^= v;
        cases++;
        fixed += ual_fec_correct(g, &r) == UAL_FEC_CORRECTED && one_fix_at(&r, pos) &&
                 memcmp(g, f, sizeof g) == 0;
        if (n) break;
      }
    }
  }
  printf("fec: single-byte errors at all 256 positions: %u cases, %u corrected to the original\n", cases, fixed);
  CHECK_EQ(fixed, cases);
}

static void one_per_group(void) {
  uint64_t s = 5;
  unsigned cases = 20000, fixed = 0;
  for (unsigned n = 0; n < cases; n++) {
    uint8_t f[UAL_FLIT_BYTES], g[UAL_FLIT_BYTES];
    int pos[3];
    random_flit(f, &s);
    memcpy(g, f, sizeof g);
    for (int k = 0; k < 3; k++) {
      pos[k] = random_pos_in(k, &s);
      g[pos[k]] ^= (uint8_t)(1 + check_rand(&s) % 255);
    }
    struct ual_fec_result r;
    fixed += ual_fec_correct(g, &r) == UAL_FEC_CORRECTED && memcmp(g, f, sizeof g) == 0 &&
             r.pos[0] == pos[0] && r.pos[1] == pos[1] && r.pos[2] == pos[2] && ual_crc64_check(g);
  }
  printf("fec: one error in each group: %u cases, %u corrected\n", cases, fixed);
  CHECK_EQ(fixed, cases);
}

/* Two errors in one group: uncorrectable, or a wrong "correction" that the
 * CRC then rejects; never a valid flit. */
static void two_in_one_group(void) {
  uint64_t s = 3;
  unsigned cases = 100000, uncorrectable = 0, caught = 0, accepted = 0;
  for (unsigned n = 0; n < cases; n++) {
    uint8_t f[UAL_FLIT_BYTES], g[UAL_FLIT_BYTES];
    random_flit(f, &s);
    memcpy(g, f, sizeof g);
    int grp = (int)(check_rand(&s) % 3), a = random_pos_in(grp, &s), b;
    do b = random_pos_in(grp, &s); while (b == a);
    g[a] ^= (uint8_t)(1 + check_rand(&s) % 255);
    g[b] ^= (uint8_t)(1 + check_rand(&s) % 255);
    struct ual_fec_result r;
    if (ual_fec_correct(g, &r) == UAL_FEC_UNCORRECTABLE) {
      uncorrectable += r.group[grp] == UAL_FEC_UNCORRECTABLE && r.pos[grp] == -1;
    } else if (!ual_crc64_check(g)) {
      caught += r.group[grp] == UAL_FEC_CORRECTED && r.pos[grp] % 3 == grp;
    } else {
      accepted++;
    }
  }
  printf("fec: two errors in one group: %u cases, %u uncorrectable, %u miscorrected but caught by CRC, %u accepted\n",
         cases, uncorrectable, caught, accepted);
  CHECK_EQ(accepted, 0);
  CHECK_EQ(uncorrectable + caught, cases);
  CHECK(uncorrectable > cases / 2 && caught > 0);
}

/* Syndromes that point at a pad symbol (B83 of groups 1, 2) are not a
 * correction: the pad is never sent. An error e at data byte 3j+g gives
 * Sc = e*a^(84-j); choosing Sc = Sp*a makes the decoder point at j = 83. */
static void pad_is_uncorrectable(void) {
  uint64_t s = 9;
  uint8_t f[UAL_FLIT_BYTES];
  struct ual_fec_result r;
  for (int g = 0; g < 3; g++) {
    random_flit(f, &s);
    f[253 + (g + 2) % 3] ^= 0x01;  /* Sp = 1 */
    f[250 + (g + 2) % 3] ^= 0x02;  /* Sc = a */
    uint8_t before[UAL_FLIT_BYTES];
    memcpy(before, f, sizeof f);
    enum ual_fec_status st = ual_fec_correct(f, &r);
    if (g == 0) {  /* group 0's B83 is byte 249 */
      CHECK_EQ(st, UAL_FEC_CORRECTED);
      CHECK_EQ(r.pos[0], 249);
    } else {
      CHECK_EQ(st, UAL_FEC_UNCORRECTABLE);
      CHECK_EQ(r.group[g], UAL_FEC_UNCORRECTABLE);
      CHECK_EQ(r.pos[g], -1);
      CHECK_MEM(f, before, sizeof f);
    }
  }
}

int main(void) {
  known_answers();
  fast_equals_ref();
  single_errors();
  one_per_group();
  two_in_one_group();
  pad_is_uncorrectable();
  return check_done("test_fec");
}
