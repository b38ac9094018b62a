/* TL flit packer and unpacker: the Figure 2-8 worked example built by hand,
 * packing-rule findings, UART transports across flits, tl_allowed, and long
 * random round trips (unpack(pack(x)) == x and pack(unpack(b)) == b). */
#include "check.h"
#include "ualink/ualink/pack.h"
#include "ualink/core/crc.h"
#include "ualink/ualink/analysis.h"

/* Digest §2.2 table: first flit byte and first sector of each segment. */
static const unsigned seg_first_byte[4] = { 3, 68, 129, 194 };
static const unsigned seg_first_sector[4] = { 0, 16, 31, 47 };
static const unsigned seg_sh_byte[4] = { 2, 67, 128, 193 };

static unsigned sector_byte(unsigned s) {
  int k = 3;
  while (s < seg_first_sector[k]) k--;
  return seg_first_byte[k] + 4 * (s - seg_first_sector[k]);
}

static uint32_t get_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static struct ual_fh payload_fh(uint16_t seq) {
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, seq };
  return fh;
}

/* Hand-built flit pieces. */
static void hand_begin(uint8_t *flit, uint16_t seq) {
  struct ual_fh fh = payload_fh(seq);
  memset(flit, 0, UAL_FLIT_BYTES);
  ual_fh_encode(&fh, flit);
}

static void hand_sh(uint8_t *flit, int k, unsigned alt, unsigned tlbeat_code) {
  uint8_t *b = flit + seg_sh_byte[k];
  ual_field_put(UAL_F_SH_ALT, b, alt);
  ual_field_put(UAL_F_SH_TLBEAT, b, tlbeat_code);
}

static void hand_tl(uint8_t *flit, unsigned sector, const uint8_t *tl, unsigned tl_sector, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    memcpy(flit + sector_byte(sector + i), tl + 4 * (tl_sector + i), 4);
}

static void hand_alt(uint8_t *flit, int k, uint32_t dw) { put_le32(flit + sector_byte(seg_first_sector[k]), dw); }

static void fill_random(uint64_t *s, uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(check_rand(s) >> 32);
}

/* Decodes a flit like the decoder does and unpacks it; returns the findings count. */
static unsigned unpack_one(struct ual_unpack *u, const uint8_t *raw, uint64_t frame, struct ual_unpack_out *out,
                           struct ual_findings *f) {
  struct ual_flit_info fi;
  ual_findings_clear(f);
  ual_flit_decode(raw, &fi, f);
  CHECK(fi.valid);
  CHECK_EQ(fi.kind, UAL_FK_PAYLOAD);
  ual_unpack_flit(u, fi.bytes, frame, out, f);
  return f->n;
}

static void test_sector_map(void) {
  for (unsigned s = 0; s < UAL_SECTORS; s++) CHECK_EQ(ual_sector_offset(s), sector_byte(s));
  for (int k = 0; k < 4; k++) CHECK_EQ(ual_segment_map[k].sh_byte, seg_sh_byte[k]);
}

/* ---- Figure 2-8 ----
 * Frames Z=1, A=2, B=3 (the figure's flit), C=4. TL flits T0..T10 are queued
 * before Z; a UART Stream Transport (Length 1: header + 2 payload DWords)
 * before B, so B's segments 0-2 begin with an alternate sector.
 * In B: SH2 starts T10; T9 (begun in segment 1) carries over to S44; T10
 * sectors 0-1 are S45-S46, 2-13 are S47-S58 (SH3 = 00h), 14-15 go to C S0-S1. */
struct run { uint8_t frame, t, from, n, sector; };
static const struct run fig_runs[] = {
  {1, 0, 0, 16, 0},  {1, 1, 0, 15, 16}, {1, 1, 15, 1, 31}, {1, 2, 0, 15, 32}, {1, 2, 15, 1, 47}, {1, 3, 0, 11, 48},
  {2, 3, 11, 5, 0},  {2, 4, 0, 11, 5},  {2, 4, 11, 5, 16}, {2, 5, 0, 10, 21}, {2, 5, 10, 6, 31}, {2, 6, 0, 10, 37},
  {2, 6, 10, 6, 47}, {2, 7, 0, 6, 53},
  {3, 7, 6, 10, 1},  {3, 8, 0, 5, 11},  {3, 8, 5, 11, 17}, {3, 9, 0, 3, 28},  {3, 9, 3, 13, 32}, {3, 10, 0, 2, 45},
  {3, 10, 2, 12, 47},
  {4, 10, 14, 2, 0},
};
#define FIG_FLITS 4
#define FIG_TL 11
/* TL flit starting in [frame-1][segment], -1 for none; alternate sector DWord index. */
static const int8_t fig_start[FIG_FLITS][4] = { {0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, -1}, {-1, -1, -1, -1} };
static const int8_t fig_alt[FIG_FLITS][4] = { {-1, -1, -1, -1}, {-1, -1, -1, -1}, {0, 1, 2, -1}, {-1, -1, -1, -1} };
/* Where each TL flit started and in which frame it completes. */
static const uint8_t fig_tl_start[FIG_TL][2] = { {1, 0}, {1, 1}, {1, 2}, {1, 3}, {2, 0}, {2, 1}, {2, 2}, {2, 3},
                                                {3, 0}, {3, 1}, {3, 2} };
static const uint8_t fig_tl_done[FIG_TL] = { 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4 };

struct fig {
  uint8_t tl[FIG_TL][UAL_TL_FLIT_BYTES];
  uint32_t uart[3];
  uint8_t flit[FIG_FLITS][UAL_FLIT_BYTES];
};

static unsigned fig_m(unsigned t) { return t % 4; } /* m0 | m1 << 1: every combination */

static void fig_build(struct fig *g) {
  uint64_t s = 0x2008;
  for (int t = 0; t < FIG_TL; t++) fill_random(&s, g->tl[t], UAL_TL_FLIT_BYTES);
  struct ual_dlmsg m = {0};
  m.type = UAL_MT_UART_TRANSPORT;
  m.length = 1;
  g->uart[0] = ual_dlmsg_encode(&m);
  g->uart[1] = 0x11223344;
  g->uart[2] = g->uart[0];  /* payload that looks like a header is still payload */
  for (int i = 0; i < FIG_FLITS; i++) {
    hand_begin(g->flit[i], (uint16_t)(i + 1));
    for (int k = 0; k < 4; k++) {
      int t = fig_start[i][k], a = fig_alt[i][k];
      hand_sh(g->flit[i], k, a >= 0, t >= 0 ? ual_tlbeat_code(fig_m((unsigned)t) & 1, fig_m((unsigned)t) >> 1)
                                            : UAL_TLBEAT_CODE_NONE);
      if (a >= 0) hand_alt(g->flit[i], k, g->uart[a]);
    }
  }
  for (size_t r = 0; r < sizeof fig_runs / sizeof fig_runs[0]; r++) {
    const struct run *x = &fig_runs[r];
    hand_tl(g->flit[x->frame - 1], x->sector, g->tl[x->t], x->from, x->n);
  }
  for (int i = 0; i < FIG_FLITS; i++) ual_flit_seal(g->flit[i]);
}

/* Unpacks the figure flits; checks every TL flit and the transport exactly. */
static void fig_unpack(const struct fig *g, uint8_t flits[][UAL_FLIT_BYTES], int bad_frame, int bad_rule,
                       int bad_seg) {
  struct ual_unpack u;
  static struct ual_unpack_out out;
  struct ual_findings f;
  ual_unpack_init(&u);
  unsigned next_tl = 0;
  static const uint8_t owed[FIG_FLITS] = { 5, 10, 2, 0 };
  static const uint8_t started[FIG_FLITS] = { 4, 4, 3, 0 };
  for (int i = 0; i < FIG_FLITS; i++) {
    unsigned nf = unpack_one(&u, flits[i], (uint64_t)i + 1, &out, &f);
    if (i + 1 == bad_frame) {
      CHECK_EQ(nf, 1);
      CHECK_EQ(f.v[0].rule, bad_rule);
      CHECK_EQ(f.v[0].segment, bad_seg);
    } else {
      CHECK_EQ(nf, 0);
    }
    CHECK_EQ(out.tl_started, started[i]);
    CHECK_EQ(out.tl_owed, owed[i]);
    for (unsigned k = 0; k < out.n_tl; k++, next_tl++) {
      CHECK(next_tl < FIG_TL);
      if (next_tl >= FIG_TL) break;
      CHECK_EQ(fig_tl_done[next_tl], i + 1);
      CHECK_MEM(out.tl[k].data, g->tl[next_tl], UAL_TL_FLIT_BYTES);
      CHECK_EQ(out.tl[k].m0 | out.tl[k].m1 << 1, fig_m(next_tl));
      CHECK_EQ(out.tl[k].start_frame, fig_tl_start[next_tl][0]);
      CHECK_EQ(out.tl[k].start_segment, fig_tl_start[next_tl][1]);
    }
    for (int k = 0; k < 4; k++)
      CHECK_EQ(out.alt_role[k], i == 2 && k < 3 ? (k ? UAL_ALT_UART_PAYLOAD : UAL_ALT_MESSAGE) : UAL_ALT_NONE);
    CHECK_EQ(out.n_msg, i == 2 ? 1 : 0);
    CHECK_EQ(out.uart_open, -1);
    if (i == 2 && out.n_msg == 1) {
      CHECK_EQ(out.msg[0].msg.type, UAL_MT_UART_TRANSPORT);
      CHECK_EQ(out.msg[0].msg.dw, g->uart[0]);
      CHECK_EQ(out.msg[0].start_frame, 3);
      CHECK_EQ(out.msg[0].segment, 0);
      CHECK_EQ(out.msg[0].n_payload, 2);
      CHECK_EQ(out.msg[0].payload[0], g->uart[1]);
      CHECK_EQ(out.msg[0].payload[1], g->uart[2]);
    }
    CHECK_EQ(ual_unpack_partial(&u), i < 3);
  }
  CHECK_EQ(next_tl, FIG_TL);
}

static void test_figure_2_8(void) {
  static struct fig g;
  fig_build(&g);
  const uint8_t *b = g.flit[2];
  struct ual_sh sh;
  ual_sh_decode(b[128], &sh);
  CHECK(sh.tlbeat != UAL_TB_NONE && sh.tlbeat != UAL_TB_INVALID);
  CHECK_EQ(b[193], 0x00);
  CHECK_MEM(b + 194, g.tl[10] + 8, 48);           /* S47-S58 = TL sectors 2-13 */
  CHECK_MEM(b + 189 - 4, g.tl[10], 8);            /* S45-S46 = TL sectors 0-1 */
  CHECK_MEM(g.flit[3] + 3, g.tl[10] + 56, 8);     /* next flit S0-S1 = sectors 14-15 */
  CHECK_MEM(b + 181, g.tl[9] + 60, 4);            /* S44: last sector of the carry-over */

  fig_unpack(&g, g.flit, 0, 0, 0);

  /* The packer fed the same sequence makes the same flits, byte for byte. */
  struct ual_pack p;
  ual_pack_init(&p);
  for (unsigned t = 0; t < FIG_TL; t++) CHECK(ual_pack_push_tl(&p, g.tl[t], fig_m(t) & 1, fig_m(t) >> 1));
  uint8_t out[FIG_FLITS][UAL_FLIT_BYTES];
  for (int i = 0; i < FIG_FLITS; i++) {
    if (i == 2) CHECK(ual_pack_push_msg(&p, g.uart, 3));
    struct ual_fh fh = payload_fh((uint16_t)(i + 1));
    ual_pack_flit(&p, &fh, true, out[i]);
    CHECK_MEM(out[i], g.flit[i], UAL_FLIT_BYTES);
    CHECK_EQ(ual_pack_busy(&p), i < 3);
  }
  CHECK_EQ(ual_pack_tl_queued(&p), 0);
  CHECK_EQ(ual_pack_msg_queued(&p), 0);

  /* DL-TL-NO-ROOM: a start code in SH3 of B, whose sectors all carry T10. */
  static uint8_t bad[FIG_FLITS][UAL_FLIT_BYTES];
  for (unsigned code = 0; code < 4; code++) {
    memcpy(bad, g.flit, sizeof bad);
    hand_sh(bad[2], 3, 0, ual_tlbeat_code(code & 1, code >> 1));
    ual_flit_seal(bad[2]);
    fig_unpack(&g, bad, 3, UAL_R_DL_TL_NO_ROOM, 3);
  }

  /* DL-ZERO-FILL: a non-zero byte in an unallocated sector of C, per segment. */
  static const unsigned zf_sector[] = { 2, 15, 16, 30, 31, 46, 47, 58 };
  for (unsigned i = 0; i < sizeof zf_sector / sizeof zf_sector[0]; i++) {
    memcpy(bad, g.flit, sizeof bad);
    bad[3][sector_byte(zf_sector[i]) + i % 4] = 0x5A;
    ual_flit_seal(bad[3]);
    fig_unpack(&g, bad, 4, UAL_R_DL_ZERO_FILL, i / 2);
    struct ual_unpack u;
    static struct ual_unpack_out o;
    struct ual_findings f;
    ual_unpack_init(&u);
    for (int j = 0; j < FIG_FLITS; j++) unpack_one(&u, bad[j], (uint64_t)j + 1, &o, &f);
    char want[8];
    snprintf(want, sizeof want, "S%u ", zf_sector[i]);
    CHECK(f.n == 1 && strstr(f.v[0].msg, want) != NULL);
  }
  /* A byte in S1 of C belongs to T10: no finding, the data shows it. */
  memcpy(bad, g.flit, sizeof bad);
  bad[3][sector_byte(1) + 3] ^= 0xFF;
  ual_flit_seal(bad[3]);
  {
    struct ual_unpack u;
    static struct ual_unpack_out o;
    struct ual_findings f;
    ual_unpack_init(&u);
    for (int j = 0; j < FIG_FLITS; j++) CHECK_EQ(unpack_one(&u, bad[j], (uint64_t)j + 1, &o, &f), 0);
    CHECK_EQ(o.n_tl, 1);
    CHECK_EQ(o.tl[0].data[63], g.tl[10][63] ^ 0xFF);
    CHECK_MEM(o.tl[0].data, g.tl[10], 63);
  }
}

/* A segment wholly taken by a carry-over that ends exactly at its last sector
 * is no room either (the packer makes one: frame 4 segment 1 of a busy TL). */
static void test_no_room_exact(void) {
  enum { N = 16, F = 6 };
  static uint8_t tl[N][UAL_TL_FLIT_BYTES], fl[F][UAL_FLIT_BYTES];
  uint64_t s = 77;
  struct ual_pack p;
  ual_pack_init(&p);
  for (int t = 0; t < N; t++) {
    fill_random(&s, tl[t], UAL_TL_FLIT_BYTES);
    CHECK(ual_pack_push_tl(&p, tl[t], 0, 0));
  }
  CHECK(!ual_pack_push_tl(&p, tl[0], 0, 0)); /* queue full */
  for (int i = 0; i < F; i++) {
    struct ual_fh fh = payload_fh((uint16_t)(i + 1));
    ual_pack_flit(&p, &fh, true, fl[i]);
  }
  struct ual_sh sh;
  ual_sh_decode(fl[3][67], &sh);
  CHECK_EQ(sh.raw, 0);
  /* S15 starts a TL flit whose other 15 sectors fill segment 1 */
  CHECK_MEM(fl[3] + sector_byte(15), tl[12], 4);
  CHECK_MEM(fl[3] + sector_byte(16), tl[12] + 4, 60);
  hand_sh(fl[3], 1, 0, UAL_TLBEAT_CODE_M1);
  ual_flit_seal(fl[3]);
  struct ual_unpack u;
  static struct ual_unpack_out o;
  struct ual_findings f;
  ual_unpack_init(&u);
  unsigned got = 0;
  for (int i = 0; i < F; i++) {
    unsigned nf = unpack_one(&u, fl[i], (uint64_t)i, &o, &f);
    CHECK_EQ(nf, i == 3 ? 1 : 0);
    if (i == 3) CHECK(ual_findings_has(&f, UAL_R_DL_TL_NO_ROOM) && f.v[0].segment == 1);
    for (unsigned k = 0; k < o.n_tl; k++, got++) CHECK_MEM(o.tl[k].data, tl[got], UAL_TL_FLIT_BYTES);
  }
  CHECK_EQ(got, N);
}

/* An invalid TLBeat code (DL-TLBEAT, raised by the flit decoder) starts nothing. */
static void test_invalid_tlbeat(void) {
  uint8_t fl[UAL_FLIT_BYTES];
  hand_begin(fl, 1);
  hand_sh(fl, 0, 0, 0x01);
  memset(fl + sector_byte(0), 0xA5, 64);
  hand_sh(fl, 2, 0, UAL_TLBEAT_CODE_TL);
  memset(fl + sector_byte(31), 0x3C, 64);
  ual_flit_seal(fl);
  struct ual_unpack u;
  static struct ual_unpack_out o;
  struct ual_findings f;
  ual_unpack_init(&u);
  ual_findings_clear(&f);
  ual_unpack_flit(&u, fl, 1, &o, &f);
  CHECK_EQ(f.n, 0);
  CHECK_EQ(o.tl_started, 1);
  CHECK_EQ(o.n_tl, 1);
  CHECK_EQ(o.tl[0].start_segment, 2);
  CHECK_EQ(o.tl[0].data[0], 0x3C);
  CHECK(!ual_unpack_partial(&u));
}

/* Every m0/m1 combination, one start per segment, with the digest's codes. */
static void test_m0m1(void) {
  static const uint8_t code[4] = { 0x0F, 0x1B, 0x12, 0x1E }; /* m0 | m1 << 1 */
  uint8_t tl[4][UAL_TL_FLIT_BYTES], fl[2][UAL_FLIT_BYTES];
  uint64_t s = 5;
  struct ual_pack p;
  ual_pack_init(&p);
  for (unsigned m = 0; m < 4; m++) {
    fill_random(&s, tl[m], UAL_TL_FLIT_BYTES);
    CHECK(ual_pack_push_tl(&p, tl[m], m & 1, m >> 1));
  }
  for (int i = 0; i < 2; i++) {
    struct ual_fh fh = payload_fh((uint16_t)(i + 1));
    ual_pack_flit(&p, &fh, true, fl[i]);
  }
  for (int k = 0; k < 4; k++) {
    CHECK_EQ(ual_field_get(UAL_F_SH_TLBEAT, fl[0] + seg_sh_byte[k]), code[k]);
    CHECK_EQ(ual_field_get(UAL_F_SH_ALT, fl[0] + seg_sh_byte[k]), 0);
    CHECK_EQ(fl[1][seg_sh_byte[k]], 0);
  }
  struct ual_unpack u;
  static struct ual_unpack_out o;
  struct ual_findings f;
  ual_unpack_init(&u);
  unsigned got = 0;
  for (int i = 0; i < 2; i++) {
    CHECK_EQ(unpack_one(&u, fl[i], (uint64_t)i, &o, &f), 0);
    for (unsigned k = 0; k < o.n_tl; k++, got++) {
      CHECK_EQ(o.tl[k].m0, got & 1);
      CHECK_EQ(o.tl[k].m1, got >> 1);
      CHECK_EQ(o.tl[k].start_segment, got);
      CHECK_MEM(o.tl[k].data, tl[got], UAL_TL_FLIT_BYTES);
    }
  }
  CHECK_EQ(got, 4);
}

/* tl_allowed = false: the carry-over completes, nothing new starts. */
static void test_tl_not_allowed(void) {
  uint8_t tl[5][UAL_TL_FLIT_BYTES], fl[3][UAL_FLIT_BYTES];
  uint64_t s = 9;
  struct ual_pack p;
  ual_pack_init(&p);
  for (int t = 0; t < 5; t++) fill_random(&s, tl[t], UAL_TL_FLIT_BYTES);
  for (int t = 0; t < 4; t++) CHECK(ual_pack_push_tl(&p, tl[t], 1, 0));
  struct ual_fh fh = payload_fh(1);
  ual_pack_flit(&p, &fh, true, fl[0]);
  CHECK(ual_pack_busy(&p)); /* T3: 11 sectors sent, 5 owed */
  CHECK(ual_pack_push_tl(&p, tl[4], 0, 1));
  fh = payload_fh(2);
  ual_pack_flit(&p, &fh, false, fl[1]);
  CHECK(!ual_pack_busy(&p));
  CHECK_EQ(ual_pack_tl_queued(&p), 1);
  for (int k = 0; k < 4; k++) CHECK_EQ(fl[1][seg_sh_byte[k]], 0);
  CHECK_MEM(fl[1] + 3, tl[3] + 44, 20);
  unsigned nz = 0;
  for (unsigned i = sector_byte(5); i < UAL_CRC_OFFSET; i++) nz += fl[1][i] != 0;
  CHECK_EQ(nz, 0);
  /* tl_allowed = false with nothing in progress: an empty payload flit */
  fh = payload_fh(3);
  ual_pack_flit(&p, &fh, false, fl[2]);
  uint8_t empty[UAL_FLIT_BYTES];
  hand_begin(empty, 3);
  ual_flit_seal(empty);
  CHECK_MEM(fl[2], empty, UAL_FLIT_BYTES);
  CHECK_EQ(ual_pack_tl_queued(&p), 1);

  struct ual_unpack u;
  static struct ual_unpack_out o;
  struct ual_findings f;
  ual_unpack_init(&u);
  CHECK_EQ(unpack_one(&u, fl[0], 1, &o, &f), 0);
  CHECK_EQ(o.n_tl, 3);
  CHECK_EQ(o.tl_owed, 5);
  CHECK_EQ(unpack_one(&u, fl[1], 2, &o, &f), 0);
  CHECK_EQ(o.n_tl, 1);
  CHECK_EQ(o.tl_started, 0);
  CHECK_EQ(o.tl_owed, 0);
  CHECK_MEM(o.tl[0].data, tl[3], UAL_TL_FLIT_BYTES);
  CHECK_EQ(o.tl[0].m0, 1);
  CHECK_EQ(o.tl[0].start_frame, 1);
  CHECK_EQ(o.tl[0].start_segment, 3);
  CHECK(!ual_unpack_partial(&u));
}

/* alt_gap: a segment without its alternate sector in the middle of a
 * transport. The payload still arrives whole, one segment later, and the
 * UART check of the analyzer sees the gap (DM-UART-INTERLEAVE). */
static void test_alt_gap(void) {
  struct ual_dlmsg m = {0};
  m.type = UAL_MT_UART_TRANSPORT;
  m.length = 2;
  uint32_t tr[4] = { ual_dlmsg_encode(&m), 0x11111111u, 0x22222222u, 0x33333333u };
  memset(&m, 0, sizeof m);
  m.type = UAL_MT_UART_CREDIT;
  m.data_fc_seq = 0x40;
  uint32_t credit = ual_dlmsg_encode(&m);
  uint8_t tl[UAL_TL_FLIT_BYTES], fl[2][UAL_FLIT_BYTES];
  struct ual_flit_view view;
  uint64_t s = 77;
  fill_random(&s, tl, sizeof tl);
  struct ual_pack p;
  ual_pack_init(&p);
  CHECK(ual_pack_push_msg(&p, tr, 4));
  CHECK(ual_pack_push_msg(&p, &credit, 1));
  CHECK(ual_pack_push_tl(&p, tl, 0, 1));
  p.alt_gap = 1u << 2;
  struct ual_fh fh = payload_fh(1);
  ual_pack_flit(&p, &fh, true, fl[0]);
  CHECK_EQ(p.alt_gap, 0);                   /* one flit only */
  CHECK_EQ(p.uart_left, 1);
  CHECK_EQ(ual_pack_msg_queued(&p), 2);
  fh = payload_fh(2);
  ual_pack_flit(&p, &fh, true, fl[1]);
  CHECK_EQ(ual_pack_msg_queued(&p), 0);

  struct ual_unpack u;
  static struct ual_unpack_out o;
  struct ual_findings f;
  struct ual_uart ua;
  ual_unpack_init(&u);
  ual_uart_init(&ua);
  CHECK_EQ(unpack_one(&u, fl[0], 1, &o, &f), 0);
  CHECK_EQ(o.alt_role[0], UAL_ALT_MESSAGE);
  CHECK_EQ(o.alt_role[1], UAL_ALT_UART_PAYLOAD);
  CHECK_EQ(o.alt_role[2], UAL_ALT_NONE);
  CHECK_EQ(o.alt_role[3], UAL_ALT_UART_PAYLOAD);
  CHECK_EQ(o.uart_open, 1);
  CHECK_EQ(o.n_tl, 1);                      /* the TL flit is not held up by the gap */
  CHECK_MEM(o.tl[0].data, tl, UAL_TL_FLIT_BYTES);
  ual_findings_clear(&f);
  ual_flit_view(fl[0], &view);
  ual_uart_flit(&ua, 0, &view, 0, &o, &f);
  CHECK_EQ(f.n, 1);
  CHECK_EQ(f.v[0].rule, UAL_R_DM_UART_INTERLEAVE);
  CHECK_EQ(f.v[0].segment, 2);
  CHECK_EQ(unpack_one(&u, fl[1], 2, &o, &f), 0);
  CHECK_EQ(o.alt_role[0], UAL_ALT_UART_PAYLOAD);
  CHECK_EQ(o.alt_role[1], UAL_ALT_MESSAGE);
  CHECK_EQ(o.alt_role[2], UAL_ALT_NONE);
  CHECK_EQ(o.n_msg, 2);
  CHECK_EQ(o.msg[0].msg.dw, tr[0]);
  CHECK_EQ(o.msg[0].n_payload, 3);
  CHECK_MEM(o.msg[0].payload, tr + 1, 3 * 4);
  CHECK_EQ(o.msg[1].msg.data_fc_seq, 0x40);
  ual_findings_clear(&f);
  ual_flit_view(fl[1], &view);
  ual_uart_flit(&ua, 0, &view, 1, &o, &f);
  CHECK_EQ(f.n, 0);                         /* complete: the gaps after it are fine */
}

/* The packer writes every byte of the flit: what the buffer held before
 * makes no difference (zero fill included), with TL flits, messages, empty
 * segments and tl_allowed = false. */
static void test_dirty_buffer(void) {
  static struct ual_pack a, b;
  ual_pack_init(&a);
  uint64_t s = 5;
  uint8_t tl[UAL_TL_FLIT_BYTES];
  struct ual_dlmsg m = {0};
  m.type = UAL_MT_UART_TRANSPORT;
  m.length = 5;
  uint32_t tr[7] = { ual_dlmsg_encode(&m), 1, 2, 3, 4, 5, 6 };
  for (int i = 0; i < 3; i++) {
    fill_random(&s, tl, sizeof tl);
    CHECK(ual_pack_push_tl(&a, tl, (unsigned)i & 1, 0));
  }
  CHECK(ual_pack_push_msg(&a, tr, 7));
  b = a;
  unsigned zero_sectors = 0;
  for (int f = 0; f < 6; f++) {
    uint8_t clean[UAL_FLIT_BYTES], dirty[UAL_FLIT_BYTES];
    memset(clean, 0, sizeof clean);
    memset(dirty, 0xA5, sizeof dirty);
    struct ual_fh fh = payload_fh((uint16_t)(f + 1));
    ual_pack_flit(&a, &fh, f != 4, clean);
    ual_pack_flit(&b, &fh, f != 4, dirty);
    CHECK_MEM(dirty, clean, UAL_FLIT_BYTES);
    for (unsigned k = 0; k < UAL_SECTORS; k++) {
      const uint8_t *p = clean + sector_byte(k);
      zero_sectors += !(p[0] | p[1] | p[2] | p[3]);
    }
  }
  CHECK(zero_sectors > 50);   /* the queue ran dry: zero fill was written */
}

/* TL flits written in place (ual_pack_tl_slot) pack as the copied ones. */
static void test_tl_slot(void) {
  static struct ual_pack a, b;
  ual_pack_init(&a);
  ual_pack_init(&b);
  uint64_t s = 3;
  for (int t = 0; t < UAL_PACK_TL_QUEUE; t++) {
    uint8_t tl[UAL_TL_FLIT_BYTES];
    fill_random(&s, tl, sizeof tl);
    CHECK(ual_pack_push_tl(&a, tl, (unsigned)t & 1, (unsigned)t >> 1 & 1));
    uint8_t *slot = ual_pack_tl_slot(&b);
    CHECK(slot != NULL);
    if (!slot) return;
    memcpy(slot, tl, sizeof tl);
    CHECK_EQ(ual_pack_tl_queued(&b), t);      /* not queued before the push */
    ual_pack_push_tl_slot(&b, (unsigned)t & 1, (unsigned)t >> 1 & 1);
  }
  CHECK(ual_pack_tl_slot(&b) == NULL);        /* full */
  ual_pack_push_tl_slot(&b, 0, 0);
  CHECK_EQ(ual_pack_tl_queued(&b), UAL_PACK_TL_QUEUE);
  for (int f = 0; f < 6; f++) {
    uint8_t fa[UAL_FLIT_BYTES], fb[UAL_FLIT_BYTES];
    struct ual_fh fh = payload_fh((uint16_t)(f + 1));
    ual_pack_flit(&a, &fh, true, fa);
    ual_pack_flit(&b, &fh, true, fb);
    CHECK_MEM(fb, fa, UAL_FLIT_BYTES);
  }
  CHECK_EQ(ual_pack_tl_queued(&b), ual_pack_tl_queued(&a));
}

/* A 33-DWord transport over 9 flits; a later message waits behind it. */
static void test_uart_span(void) {
  uint32_t tr[33], single, tl_before;
  struct ual_dlmsg m = {0};
  m.type = UAL_MT_UART_TRANSPORT;
  m.length = 31;
  tr[0] = ual_dlmsg_encode(&m);
  uint64_t s = 33;
  for (int i = 1; i < 33; i++) tr[i] = (uint32_t)check_rand(&s);
  tr[5] = tr[0];         /* header look-alikes, */
  tr[6] = 0xFFFFFFFFu;   /* a reserved type with every bit set */
  memset(&m, 0, sizeof m);
  m.type = UAL_MT_UART_CREDIT;
  m.data_fc_seq = 0x123;
  single = ual_dlmsg_encode(&m);
  memset(&m, 0, sizeof m);
  m.type = UAL_MT_UART_RESET_REQ;
  tl_before = ual_dlmsg_encode(&m);

  struct ual_pack p;
  ual_pack_init(&p);
  CHECK(!ual_pack_push_msg(&p, tr, 32));       /* length mismatch */
  CHECK(!ual_pack_push_msg(&p, tr, 1));
  CHECK(!ual_pack_push_msg(&p, &single, 2));
  CHECK(!ual_pack_push_msg(&p, tr, 0));
  CHECK(ual_pack_push_msg(&p, &tl_before, 1));
  CHECK(ual_pack_push_msg(&p, tr, 33));
  CHECK(ual_pack_push_msg(&p, &single, 1));
  CHECK_EQ(ual_pack_msg_queued(&p), 35);
  uint8_t tl[UAL_TL_FLIT_BYTES];
  fill_random(&s, tl, sizeof tl);
  CHECK(ual_pack_push_tl(&p, tl, 0, 0));

  struct ual_unpack u;
  static struct ual_unpack_out o;
  struct ual_findings f;
  ual_unpack_init(&u);
  /* DWords in order, one per segment: reset request, transport header and
   * 32 payload DWords, credit update (frame 9 segment 2) */
  for (int i = 0; i < 9; i++) {
    uint8_t fl[UAL_FLIT_BYTES];
    struct ual_fh fh = payload_fh((uint16_t)(i + 1));
    ual_pack_flit(&p, &fh, true, fl);
    CHECK_EQ(unpack_one(&u, fl, (uint64_t)i + 1, &o, &f), 0);
    for (int k = 0; k < 4; k++) {
      unsigned dw = 4u * (unsigned)i + (unsigned)k;
      CHECK_EQ(o.alt_role[k], dw > 34 ? UAL_ALT_NONE : dw >= 2 && dw <= 33 ? UAL_ALT_UART_PAYLOAD : UAL_ALT_MESSAGE);
    }
    CHECK_EQ(o.uart_open, i < 8 ? 32 - (4 * i + 2) : -1);
    if (i == 0) {
      CHECK_EQ(o.n_msg, 1);
      CHECK_EQ(o.msg[0].msg.type, UAL_MT_UART_RESET_REQ);
      CHECK_EQ(o.n_tl, 1);
    } else if (i < 8) {
      CHECK_EQ(o.n_msg, 0);
    } else {
      CHECK_EQ(o.n_msg, 2);
      CHECK_EQ(o.msg[0].msg.dw, tr[0]);
      CHECK_EQ(o.msg[0].start_frame, 1);
      CHECK_EQ(o.msg[0].segment, 1);
      CHECK_EQ(o.msg[0].n_payload, 32);
      CHECK_MEM(o.msg[0].payload, tr + 1, 32 * 4);
      CHECK_EQ(o.msg[1].msg.dw, single);
      CHECK_EQ(o.msg[1].msg.data_fc_seq, 0x123);
      CHECK_EQ(o.msg[1].start_frame, 9);
      CHECK_EQ(o.msg[1].segment, 2);
    }
    CHECK_EQ(ual_unpack_partial(&u), i < 8);
  }
  CHECK_EQ(ual_pack_msg_queued(&p), 0);
  /* queue bounds: 128 DWords */
  static const uint32_t noop = 0;
  for (int i = 0; i < UAL_PACK_MSG_QUEUE; i++) CHECK(ual_pack_push_msg(&p, &noop, 1));
  CHECK(!ual_pack_push_msg(&p, &noop, 1));
}

/* Arbitrary bytes: the unpacker's outputs stay within their bounds and agree
 * with its state. */
/* Random or zero bytes under segment headers of every kind, valid or not. */
static void garbage_flit(uint64_t *s, uint8_t *fl) {
  static const uint8_t sh_pick[] = { 0x00, 0x01, 0x3C, 0x3D, 0x48, 0x6C, 0x79, 0x7B, 0xFF, 0x04 };
  uint64_t x = check_rand(s);
  if (x & 1) fill_random(s, fl, UAL_FLIT_BYTES);
  else memset(fl, 0, UAL_FLIT_BYTES);
  for (int k = 0; k < 4; k++) fl[seg_sh_byte[k]] = sh_pick[(x >> (8 + 4 * k)) % sizeof sh_pick];
}

static void test_unpack_garbage(void) {
  struct ual_unpack u;
  static struct ual_unpack_out o;
  struct ual_findings f;
  uint8_t fl[UAL_FLIT_BYTES];
  uint64_t s = 0xBAD;
  unsigned bad = 0, tl = 0, msgs = 0;
  ual_unpack_init(&u);
  for (int i = 0; i < 20000; i++) {
    garbage_flit(&s, fl);
    ual_findings_clear(&f);
    ual_unpack_flit(&u, fl, (uint64_t)i, &o, &f);
    bad += o.n_tl > UAL_MAX_TL_PER_FLIT || o.n_msg > UAL_MAX_MSG_PER_FLIT || o.tl_started > 4 ||
           o.tl_owed > 15 || o.uart_open > 32 || o.uart_open == 0 ||
           ual_unpack_partial(&u) != (o.tl_owed != 0 || o.uart_open > 0);
    for (unsigned k = 0; k < o.n_msg; k++)
      bad += o.msg[k].msg.type == UAL_MT_UART_TRANSPORT ? o.msg[k].n_payload != o.msg[k].msg.length + 1u
                                                         : o.msg[k].n_payload != 0;
    tl += o.n_tl;
    msgs += o.n_msg;
  }
  CHECK_EQ(bad, 0);
  CHECK(tl > 1000 && msgs > 1000);
}

/* ual_unpack_flit_nobytes gives ual_unpack_flit's results but the TL bytes:
 * the same garbage stream through both, from the start and mid-stream. */
static void test_nobytes(void) {
  static struct ual_unpack_out a, b;
  struct ual_unpack ua, ub;
  struct ual_findings fa, fb;
  uint8_t fl[UAL_FLIT_BYTES];
  uint64_t s = 0x5EED;
  unsigned bad = 0, tl = 0;
  for (int run = 0; run < 2; run++) {
    if (run) ual_unpack_init_midstream(&ua);
    else ual_unpack_init(&ua);
    ub = ua;
    for (int i = 0; i < 5000; i++) {
      garbage_flit(&s, fl);
      ual_findings_clear(&fa);
      ual_findings_clear(&fb);
      ual_unpack_flit(&ua, fl, (uint64_t)i, &a, &fa);
      ual_unpack_flit_nobytes(&ub, fl, (uint64_t)i, &b, &fb);
      for (unsigned k = 0; k < UAL_MAX_TL_PER_FLIT; k++) memcpy(b.tl[k].data, a.tl[k].data, UAL_TL_FLIT_BYTES);
      bad += memcmp(&a, &b, sizeof a) != 0 || fa.n != fb.n;
      for (unsigned k = 0; k < fa.n && k < fb.n; k++)
        bad += fa.v[k].rule != fb.v[k].rule || fa.v[k].segment != fb.v[k].segment || strcmp(fa.v[k].msg, fb.v[k].msg);
      bad += ua.tl_have != ub.tl_have || ua.uart_need != ub.uart_need || ua.msg_owed != ub.msg_owed ||
             ua.tl_cands != ub.tl_cands || ua.tl_lost != ub.tl_lost;
      tl += a.n_tl;
    }
  }
  CHECK_EQ(bad, 0);
  CHECK(tl > 1000);
}

/* ---- joining a saturated stream ---- */

/* A sender at full TL load (every segment with room starts a TL flit), with
 * UART Credits in the alternate sectors at several densities, joined at
 * every flit: one candidate carry-over is left within the bound of
 * docs/architecture.md (32 flits), and from the flit after that on the TL
 * flits are the stream's own, flit by flit. Nothing is raised. Returns the
 * most segments a join took. */
#define SAT_FLITS 2400
#define SAT_BOUND_FLITS 128
static unsigned saturated_joins(unsigned alt_pct, uint64_t seed) {
  static uint8_t fl[SAT_FLITS][UAL_FLIT_BYTES];
  static uint32_t ref[SAT_FLITS][UAL_MAX_TL_PER_FLIT];   /* numbers of the TL flits each flit completes */
  static uint8_t ref_n[SAT_FLITS];
  static struct ual_unpack_out o;
  struct ual_findings f;
  struct ual_dlmsg m;
  memset(&m, 0, sizeof m);
  m.type = UAL_MT_UART_CREDIT;
  uint64_t s = seed;
  uint32_t num = 0;
  struct ual_pack p;
  ual_pack_init(&p);
  for (unsigned i = 0; i < SAT_FLITS; i++) {
    while (ual_pack_tl_queued(&p) < UAL_PACK_TL_QUEUE) {
      uint8_t tl[UAL_TL_FLIT_BYTES];
      fill_random(&s, tl, sizeof tl);
      put_le32(tl, num++);
      unsigned mm = (unsigned)(check_rand(&s) >> 40) & 3u;
      CHECK(ual_pack_push_tl(&p, tl, mm & 1u, mm >> 1));
    }
    for (int k = 0; k < UAL_SEGMENTS; k++)
      if ((check_rand(&s) >> 33) % 100 < alt_pct) {
        m.data_fc_seq = (uint16_t)(check_rand(&s) >> 50);
        uint32_t dw = ual_dlmsg_encode(&m);
        ual_pack_push_msg(&p, &dw, 1);
      }
    struct ual_fh fh = payload_fh((uint16_t)(i % 1023 + 1));
    ual_pack_flit(&p, &fh, true, fl[i]);
  }
  struct ual_unpack u;
  ual_unpack_init(&u);
  unsigned bad = 0, worst = 0, tl_after = 0;
  for (unsigned i = 0; i < SAT_FLITS; i++) {
    bad += unpack_one(&u, fl[i], i, &o, &f);
    ref_n[i] = o.n_tl;
    for (unsigned t = 0; t < o.n_tl; t++) ref[i][t] = get_le32(o.tl[t].data);
  }
  for (unsigned j = 0; j + 3 * SAT_BOUND_FLITS < SAT_FLITS; j++) {
    ual_unpack_init_midstream(&u);
    unsigned at = 0;
    for (unsigned i = j; i < j + 3 * SAT_BOUND_FLITS; i++) {
      bad += unpack_one(&u, fl[i], i, &o, &f);
      if (o.tl_synced_at >= 0) {
        at = 4 * (i - j) + (unsigned)o.tl_synced_at + 1;
        CHECK(!u.tl_cands);
      } else if (at && i > j + (at - 1) / 4 + 1) {
        bool same = o.n_tl == ref_n[i];
        for (unsigned t = 0; same && t < o.n_tl; t++) same = get_le32(o.tl[t].data) == ref[i][t];
        bad += !same;
        tl_after += o.n_tl;
      }
    }
    if (!at || at > 4 * SAT_BOUND_FLITS) bad++;
    if (at > worst) worst = at;
  }
  CHECK_EQ(bad, 0);
  CHECK(tl_after > 100000);
  return worst;
}

static void test_saturated_join(void) {
  static const unsigned pct[] = { 0, 5, 10, 30, 100 };
  for (size_t i = 0; i < sizeof pct / sizeof pct[0]; i++) {
    unsigned w = saturated_joins(pct[i], 0x5A7 + i);
    printf("saturated, alternate sectors in %3u%% of segments: TL flit boundaries known within %u segments\n",
           pct[i], w);
    CHECK(w > 4);                  /* a join is not free: one flit rarely tells */
  }
}

/* Candidates are dropped by the rules, and what none of them explains
 * follows the decoder (a start without room is ignored, as DL-TL-NO-ROOM
 * leaves it); nothing is raised before the boundaries are known. */
/* Seals fl and unpacks it as the first flit of a stream joined mid-stream,
 * with the candidate carry-overs cands (0: all). */
static unsigned join(struct ual_unpack *u, uint32_t cands, uint8_t *fl, uint64_t frame, struct ual_unpack_out *o,
                     struct ual_findings *f) {
  ual_flit_seal(fl);
  ual_unpack_init_midstream(u);
  if (cands) u->tl_cands = cands;
  return unpack_one(u, fl, frame, o, f);
}

static void test_join_rules(void) {
  uint8_t fl[UAL_FLIT_BYTES], tl[UAL_TL_FLIT_BYTES];
  uint64_t s = 99;
  struct ual_unpack u;
  static struct ual_unpack_out o;
  struct ual_findings f;
  fill_random(&s, tl, sizeof tl);
  /* SH0 starts nothing and only its last sector is zero: carry-over 15
   * alone leaves no non-zero fill; SH1 then starts a TL flit, which ends
   * in SH2's first sector */
  hand_begin(fl, 2);
  hand_tl(fl, 0, tl, 1, 15);
  hand_sh(fl, 1, 0, UAL_TLBEAT_CODE_TL);
  hand_tl(fl, 16, tl, 0, 16);
  CHECK_EQ(join(&u, 0, fl, 2, &o, &f), 0);
  CHECK_EQ(o.tl_synced_at, 0);
  CHECK_EQ(o.tl_started, 1);
  CHECK_EQ(o.n_tl, 1);
  CHECK_EQ(o.tl[0].start_segment, 1);
  CHECK(!memcmp(o.tl[0].data, tl, sizeof tl));
  /* every segment starts a TL flit: SH1 (15 sectors) drops 15, SH3 (12)
   * drops 12..15 of the 1..15 left; no DL-ZERO-FILL, no DL-TL-NO-ROOM */
  hand_begin(fl, 3);
  for (int k = 0; k < UAL_SEGMENTS; k++) hand_sh(fl, k, 0, UAL_TLBEAT_CODE_TL);
  fill_random(&s, fl + 3, 64);
  CHECK_EQ(join(&u, 0, fl, 3, &o, &f), 0);
  CHECK_EQ(o.tl_synced_at, -1);
  CHECK_EQ(u.tl_cands, 0x1FFFE0u);                   /* 1..11, +4 in SH3; 0..4 with a start ignored */
  CHECK_EQ(o.n_tl, 0);
  /* carry-overs 14 and 15 (which broke a rule before) into SH0 (alternate
   * sector, 15 sectors, a start): 15 would need a second start without
   * room, 14 is the one; its TL flit starts in the last sector and ends in
   * SH1 */
  hand_begin(fl, 4);
  hand_sh(fl, 0, 1, UAL_TLBEAT_CODE_M0);
  hand_tl(fl, 15, tl, 0, 1);
  hand_tl(fl, 16, tl, 1, 15);
  CHECK_EQ(join(&u, 1u << 14 | 1u << (16 + 15), fl, 4, &o, &f), 0);
  CHECK_EQ(o.tl_synced_at, 0);
  CHECK_EQ(o.n_tl, 1);
  CHECK(!memcmp(o.tl[0].data, tl, sizeof tl));
  CHECK_EQ(o.tl[0].start_segment, 0);
  CHECK_EQ(o.tl[0].m0, 1);
  /* carry-overs 13..15 into SH0 (alternate sector, 15 sectors, a start):
   * 14 and 15 keep the rules, 15 with the start ignored owes 0; SH1
   * (alternate sector, 14 sectors) signals a start: 14 and 15 have no room
   * (ignored, they owe 0 and 1), the 0 starts a TL flit owing 2; SH2
   * starts nothing and is all zero: every one ends there */
  hand_begin(fl, 5);
  fill_random(&s, fl + 3, 64);
  fill_random(&s, fl + 68, 60);
  hand_sh(fl, 0, 1, UAL_TLBEAT_CODE_TL);
  hand_sh(fl, 1, 1, UAL_TLBEAT_CODE_TL);
  CHECK_EQ(join(&u, 7u << 13, fl, 5, &o, &f), 0);
  CHECK_EQ(o.tl_synced_at, 2);
  CHECK_EQ(o.tl_started, 0);
  CHECK_EQ(u.tl_have, 0);
}

/* ---- random round trip ---- */

#define RT_FLITS 2500
#define RT_TL    (RT_FLITS * 4)
#define RT_MSG   (RT_FLITS * 4)

struct rt_msg { uint32_t dw[1 + UAL_UART_MAX_PAYLOAD]; uint8_t n; };

struct rt {
  uint8_t flit[RT_FLITS][UAL_FLIT_BYTES];
  unsigned n_flits;
  uint8_t tl[RT_TL][UAL_TL_FLIT_BYTES];
  uint8_t tl_m[RT_TL];
  unsigned n_tl;
  struct rt_msg msg[RT_MSG];
  unsigned n_msg;
  /* unpacked */
  uint32_t tl_start_frame[RT_TL], msg_start_frame[RT_MSG];
  /* frame * 4 + segment of every TL start and alternate sector, read off the SH bytes */
  uint32_t start_pos[RT_FLITS * 4], alt_pos[RT_FLITS * 4];
};

/* A message of type t with random fields that passes the stateless checks. */
static uint32_t random_msg(uint64_t *s, enum ual_msg_type t, unsigned length) {
  for (int tries = 0; tries < 100000; tries++) {
    struct ual_dlmsg m;
    memset(&m, 0, sizeof m);
    uint64_t a = check_rand(s), b = check_rand(s);
    m.type = (uint8_t)t;
    m.ack = a & 1;
    m.rate = (uint16_t)(a >> 1);
    m.id = (uint16_t)(a >> 17);
    m.dev_type = (uint8_t)(a >> 27 & 1);
    m.valid = (uint8_t)(a >> 28 & 1);
    m.port = (uint16_t)(a >> 29);
    m.priority = (uint8_t)(a >> 41 & 1);
    m.target = (uint8_t)(b & 15);
    m.command = (uint8_t)(b >> 4 & 15);
    m.response = (uint8_t)(b >> 8 & 15);
    m.stream = (uint8_t)(b >> 12 & 1 ? 0 : b >> 13 & 7);
    m.all_streams = (uint8_t)(b >> 16 & 1);
    m.status = (uint8_t)(b >> 17 & 1 ? 0 : b >> 18 & 7);
    m.data_fc_seq = (uint16_t)(b >> 21);
    m.length = (uint8_t)length;
    uint32_t dw = ual_dlmsg_encode(&m);
    struct ual_dlmsg d;
    struct ual_findings f;
    ual_dlmsg_decode(dw, &d);
    ual_findings_clear(&f);
    ual_dlmsg_check(&d, 0, &f);
    if (d.type == t && f.n == 0 && (t != UAL_MT_UART_TRANSPORT || d.length == length)) return dw;
  }
  CHECK(0);
  return 0;
}

static void rt_generate(struct rt *r, uint64_t seed) {
  uint64_t s = seed;
  struct ual_pack p;
  ual_pack_init(&p);
  r->n_flits = r->n_tl = r->n_msg = 0;
  unsigned tl_rate = 1 + (unsigned)(check_rand(&s) % 4);  /* busy or sparse TL per seed */
  uint16_t seq = (uint16_t)(1 + check_rand(&s) % 1023);
  while (r->n_flits < RT_FLITS) {
    bool drain = r->n_flits >= RT_FLITS - 60;
    uint64_t x = check_rand(&s);
    unsigned want_tl = drain ? 0 : (unsigned)(x % (tl_rate + 2));
    for (unsigned i = 0; i < want_tl && r->n_tl < RT_TL && ual_pack_tl_queued(&p) < UAL_PACK_TL_QUEUE; i++) {
      fill_random(&s, r->tl[r->n_tl], UAL_TL_FLIT_BYTES);
      unsigned m = (unsigned)(check_rand(&s) & 3);
      CHECK(ual_pack_push_tl(&p, r->tl[r->n_tl], m & 1, m >> 1));
      r->tl_m[r->n_tl++] = (uint8_t)m;
    }
    unsigned want_msg = drain ? 0 : (x >> 8) % 8 < 3 ? (unsigned)((x >> 12) % 4) : 0;
    for (unsigned i = 0; i < want_msg && r->n_msg < RT_MSG; i++) {
      struct rt_msg *mm = &r->msg[r->n_msg];
      enum ual_msg_type t = (enum ual_msg_type)(check_rand(&s) % UAL_MT_RESERVED);
      unsigned len = (unsigned)(check_rand(&s) % UAL_UART_MAX_PAYLOAD);
      mm->dw[0] = random_msg(&s, t, len);
      mm->n = 1;
      if (t == UAL_MT_UART_TRANSPORT) {
        mm->n = (uint8_t)(len + 2);
        for (unsigned j = 1; j < mm->n; j++) mm->dw[j] = (uint32_t)check_rand(&s);
      }
      if (!ual_pack_push_msg(&p, mm->dw, mm->n)) break;
      r->n_msg++;
    }
    struct ual_fh fh = { UAL_USAGE_PAYLOAD, (uint8_t)(x >> 20 & 1), (uint8_t)(x >> 21 & 3), seq };
    if (fh.replay_cmd == UAL_RC_SEQ) seq = (uint16_t)(seq % 1023 + 1);
    fh.usage = (uint8_t)(x >> 24 & 7);  /* the packer forces payload */
    bool allowed = drain || (x >> 27) % 10 != 0;
    ual_pack_flit(&p, &fh, allowed, r->flit[r->n_flits++]);
  }
  CHECK_EQ(ual_pack_tl_queued(&p), 0);
  CHECK_EQ(ual_pack_msg_queued(&p), 0);
  CHECK(!ual_pack_busy(&p));
}

struct rt_stats {
  unsigned start_seg[4], m[4], alt_seg[4][3], types[UAL_MT_COUNT], span, len1, len32;
};

static void rt_unpack(struct rt *r, struct rt_stats *st) {
  struct ual_unpack u;
  static struct ual_unpack_out o;
  struct ual_findings f;
  ual_unpack_init(&u);
  unsigned got_tl = 0, got_msg = 0, started = 0, bad = 0, bad_data = 0, n_start = 0, n_alt = 0, msg_dw = 0;
  for (unsigned i = 0; i < r->n_flits; i++) {
    for (int k = 0; k < 4; k++) {
      const uint8_t *sh = r->flit[i] + seg_sh_byte[k];
      if (ual_field_get(UAL_F_SH_TLBEAT, sh)) r->start_pos[n_start++] = 4 * i + (unsigned)k;
      if (ual_field_get(UAL_F_SH_ALT, sh)) r->alt_pos[n_alt++] = 4 * i + (unsigned)k;
    }
    if (unpack_one(&u, r->flit[i], i, &o, &f) && !bad++)
      fprintf(stderr, "flit %u: %s %s\n", i, ual_rule_id((enum ual_rule)f.v[0].rule), f.v[0].msg);
    started += o.tl_started;
    for (int k = 0; k < 4; k++) st->alt_seg[k][o.alt_role[k]]++;
    for (unsigned k = 0; k < o.n_tl; k++, got_tl++) {
      if (got_tl >= r->n_tl) { bad_data++; break; }
      const struct ual_tl_flit *t = &o.tl[k];
      if (memcmp(t->data, r->tl[got_tl], UAL_TL_FLIT_BYTES) || (t->m0 | t->m1 << 1) != r->tl_m[got_tl] ||
          t->start_frame * 4 + t->start_segment != r->start_pos[got_tl])
        bad_data++;
      r->tl_start_frame[got_tl] = (uint32_t)t->start_frame;
      st->start_seg[t->start_segment & 3]++;
      st->m[(t->m0 | t->m1 << 1) & 3]++;
    }
    for (unsigned k = 0; k < o.n_msg; k++, got_msg++) {
      if (got_msg >= r->n_msg) { bad_data++; break; }
      const struct ual_dl_item *it = &o.msg[k];
      const struct rt_msg *want = &r->msg[got_msg];
      if (it->msg.dw != want->dw[0] || 1u + it->n_payload != want->n ||
          memcmp(it->payload, want->dw + 1, 4u * it->n_payload) ||
          it->start_frame * 4 + it->segment != r->alt_pos[msg_dw])
        bad_data++;
      msg_dw += want->n;  /* the next message's header is the alternate sector after this one's DWords */
      r->msg_start_frame[got_msg] = (uint32_t)it->start_frame;
      st->types[it->msg.type < UAL_MT_COUNT ? it->msg.type : UAL_MT_RESERVED]++;
      if (it->start_frame != i) st->span++;
      if (it->msg.type == UAL_MT_UART_TRANSPORT) {
        st->len1 += it->n_payload == 1;
        st->len32 += it->n_payload == 32;
      }
    }
  }
  CHECK_EQ(bad, 0);
  CHECK_EQ(bad_data, 0);
  CHECK_EQ(got_tl, r->n_tl);
  CHECK_EQ(started, r->n_tl);
  CHECK_EQ(got_msg, r->n_msg);
  CHECK_EQ(n_start, r->n_tl);
  CHECK_EQ(n_alt, msg_dw);
  CHECK(!ual_unpack_partial(&u));
}

/* pack(unpack(b)) == b: each item is queued just before the flit it started in. */
static void rt_repack(const struct rt *r) {
  struct ual_pack p;
  ual_pack_init(&p);
  unsigned ti = 0, mi = 0, diff = 0;
  for (unsigned i = 0; i < r->n_flits; i++) {
    while (ti < r->n_tl && r->tl_start_frame[ti] == i) {
      CHECK(ual_pack_push_tl(&p, r->tl[ti], r->tl_m[ti] & 1, r->tl_m[ti] >> 1));
      ti++;
    }
    while (mi < r->n_msg && r->msg_start_frame[mi] == i) {
      CHECK(ual_pack_push_msg(&p, r->msg[mi].dw, r->msg[mi].n));
      mi++;
    }
    struct ual_fh fh;
    uint8_t fl[UAL_FLIT_BYTES];
    ual_fh_decode(r->flit[i], &fh);
    ual_pack_flit(&p, &fh, true, fl);
    if (memcmp(fl, r->flit[i], UAL_FLIT_BYTES) && !diff++) fprintf(stderr, "re-pack differs at flit %u\n", i);
  }
  CHECK_EQ(diff, 0);
  CHECK_EQ(ti, r->n_tl);
  CHECK_EQ(mi, r->n_msg);
}

static void test_round_trip(void) {
  static struct rt r;
  struct rt_stats st;
  memset(&st, 0, sizeof st);
  static const uint64_t seeds[] = { 1, 0xC0FFEE, 0x5EED5EED, 424242 };
  unsigned flits = 0, tls = 0, msgs = 0;
  for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
    rt_generate(&r, seeds[i]);
    rt_unpack(&r, &st);
    rt_repack(&r);
    flits += r.n_flits;
    tls += r.n_tl;
    msgs += r.n_msg;
  }
  printf("round trip: %u flits, %u TL flits, %u DL messages (%u across flits)\n", flits, tls, msgs, st.span);
  for (int k = 0; k < 4; k++) {
    CHECK(st.start_seg[k] > 0);
    CHECK(st.m[k] > 0);
    CHECK(st.alt_seg[k][UAL_ALT_MESSAGE] > 0);
    CHECK(st.alt_seg[k][UAL_ALT_UART_PAYLOAD] > 0);
    CHECK(st.alt_seg[k][UAL_ALT_NONE] > 0);
  }
  for (int t = 0; t < UAL_MT_RESERVED; t++) CHECK(st.types[t] > 0);
  CHECK_EQ(st.types[UAL_MT_RESERVED], 0);
  CHECK(st.span > 0);
  CHECK(st.len1 > 0 && st.len32 > 0);
}

int main(void) {
  test_sector_map();
  test_figure_2_8();
  test_no_room_exact();
  test_invalid_tlbeat();
  test_m0m1();
  test_tl_not_allowed();
  test_uart_span();
  test_alt_gap();
  test_dirty_buffer();
  test_tl_slot();
  test_unpack_garbage();
  test_nobytes();
  test_round_trip();
  test_saturated_join();
  test_join_rules();
  return check_done("test_pack");
}
