/* UB flits: the digest's CRC-30 known answers, the field positions, the
 * end codes, encode/decode round trips through the receiver, and the
 * receiver's findings and start-anywhere synchronisation. */
#include "check.h"
#include "ualink/ub/flit.h"
#include "ualink/core/fields.h"
#include "ualink/core/decode.h"
#include "ualink/core/record.h"
#include "ualink/core/tree.h"
#include "ualink/ub/record.h"

static void hex(const char *s, uint8_t *out, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    sscanf(s + 2 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
}

static void test_crc_vectors(void) {
  CHECK_EQ(ual_ub_crc30_bits(UAL_UB_CRC30_INIT, NULL, 0), 0x3FFFFFFF);                     /* V1 */
  static const uint8_t z = 0;
  CHECK_EQ(ual_ub_crc30_bits(UAL_UB_CRC30_INIT, &z, 8), 0x14A16A15);                      /* V2 */
  CHECK_EQ(ual_ub_crc30_bits(UAL_UB_CRC30_INIT, (const uint8_t *)"123456789", 72), 0x3C103723); /* V3 */
  uint8_t f[40] = {0};
  CHECK_EQ(ual_ub_block_crc30(f, 1), 0x00A9E8DB);                                         /* V4 */
  CHECK_EQ(ual_ub_crc30_bits(UAL_UB_CRC30_INIT, f, 128), 0x3F948DE9);  /* the other reading of U14 */

  /* V5, V6: Null and Retry_Idle blocks from the encoder */
  uint8_t want[40];
  static const struct { enum ual_ub_cb_type t; const char *hex; } v56[] = {
    { UAL_UB_CB_NULL_BLOCK, "02000000000000000000000000000000" "3d3b4dd6" },
    { UAL_UB_CB_RETRY_IDLE, "02001000000000000000000000000000" "1c6532af" },
  };
  for (unsigned i = 0; i < 2; i++) {
    struct ual_ub_dllcb cb = { .type = (uint8_t)v56[i].t, .flits = 1 };
    memset(f, 0, sizeof f);
    ual_ub_dllcb_put(f, &cb);
    ual_ub_seal(UAL_UB_MODE_CRC, f, 1, true, false);
    hex(v56[i].hex, want, 20);
    CHECK_MEM(f, want, 20);
  }
  /* V7, V8: a one-flit DLLDP, VL0, CFG 3, PLENGTH 11, payload 01..0C */
  uint8_t pay[12];
  for (unsigned i = 0; i < 12; i++) pay[i] = (uint8_t)(i + 1);
  struct ual_ub_unit u = { .vl = 0, .cfg = 3 };
  CHECK_EQ(ual_ub_dlldp_build(UAL_UB_MODE_CRC, &u, pay, 12, false, f, 2), 1);
  hex("0003000b0102030405060708090a0b0c" "1edeecb7", want, 20);
  CHECK_MEM(f, want, 20);
  CHECK_EQ(ual_ub_dlldp_build(UAL_UB_MODE_CRC, &u, pay, 12, true, f, 2), 1);
  hex("4b77a662", want + 16, 4);
  CHECK_MEM(f, want, 20);
  /* V9: Crd_Ack, T=1 SD=1, CRD_NUM.VL0 = 10 */
  struct ual_ub_dllcb ca = { .type = UAL_UB_CB_CRD_ACK, .flits = 2 };
  ca.ca.t = ca.ca.sd = 1;
  ca.ca.crd[0] = 10;
  memset(f, 0, sizeof f);
  ual_ub_dllcb_put(f, &ca);
  ual_ub_seal(UAL_UB_MODE_CRC, f, 2, true, false);
  hex("06002481" "00000000000000000000000000" "0a0000" "00000000000000000000000000000000" "17af388f", want, 40);
  CHECK_MEM(f, want, 40);
}

/* Positions typed in from the digest's tables, independent of the table. */
static void test_positions(void) {
  uint8_t b[20] = {0};
  b[0] = 0x80; CHECK_EQ(ual_field_get(UAL_F_UB_LPH_CRD, b), 1);
  b[0] = 0x40; CHECK_EQ(ual_field_get(UAL_F_UB_LPH_ACK, b), 1);
  b[0] = 0x3C; CHECK_EQ(ual_field_get(UAL_F_UB_LPH_CRD_VL, b), 15);
  b[0] = 0x01; b[1] = 0xE0; CHECK_EQ(ual_field_get(UAL_F_UB_LPH_VL, b), 15);
  b[0] = 0x00; b[1] = 0x20; CHECK_EQ(ual_field_get(UAL_F_UB_LPH_VL, b), 1);
  b[1] = 0x09; CHECK_EQ(ual_field_get(UAL_F_UB_LPH_CFG, b), 9);
  b[2] = 0xC0; CHECK_EQ(ual_field_get(UAL_F_UB_LPH_RT, b), 3);
  b[2] = 0x3C; CHECK_EQ(ual_field_get(UAL_F_UB_LPH_NDB, b), 15);
  b[2] = 0x03; b[3] = 0xE0; CHECK_EQ(ual_field_get(UAL_F_UB_LPH_NLAST, b), 31);
  b[3] = 0x1F; CHECK_EQ(ual_field_get(UAL_F_UB_LPH_ENDCODE, b), 31);
  memset(b, 0, sizeof b);
  b[6] = 0xFC; CHECK_EQ(ual_field_get(UAL_F_UB_CRD_NUM_VL15, b), 63);   /* VL15 at 6[7:2] */
  CHECK_EQ(ual_field_get(UAL_F_UB_CRD_NUM_VL14, b), 0);
  b[6] = 0; b[17] = 0x3F; CHECK_EQ(ual_field_get(UAL_F_UB_CRD_NUM_VL0, b), 63);
  CHECK_EQ(ual_field_get(UAL_F_UB_CRD_NUM_VL1, b), 0);
  b[17] = 0xC0; b[16] = 0x0F; CHECK_EQ(ual_field_get(UAL_F_UB_CRD_NUM_VL1, b), 63);
  memset(b, 0, sizeof b);
  b[16] = 0x40; CHECK_EQ(ual_field_get(UAL_F_UB_BCRC_EF, b), 1);
  b[16] = 0x20; CHECK_EQ(ual_field_get(UAL_F_UB_BCRC_CRC30, b), 1u << 29);
  b[3] = 0x81; CHECK_EQ(ual_field_get(UAL_F_UB_CA_SD, b), 1); CHECK_EQ(ual_field_get(UAL_F_UB_CA_T, b), 1);
  b[14] = 0x01; CHECK_EQ(ual_field_get(UAL_F_UB_INIT_VL_EN, b), 1);   /* VL0 = 14[0] */
  CHECK_EQ(ual_fields[UAL_F_UB_INIT_CTRL_GRAIN_VL13].offset, 4);
  CHECK_EQ(ual_fields[UAL_F_UB_INIT_CTRL_GRAIN_VL0].offset, 17);
  CHECK_EQ(ual_fields[UAL_F_UB_INIT_DATA_GRAIN_VL11].offset, 4);
  CHECK_EQ(ual_fields[UAL_F_UB_INIT_DATA_GRAIN_VL15].offset, 14);
  CHECK_EQ(ual_fields[UAL_F_UB_INIT_DATA_GRAIN_VL12].offset, 17);
  /* the UB scopes: no overlaps inside 20 bytes */
  for (unsigned sc = UAL_SC_UB_LPH; sc < UAL_SC_UB_GEN; sc++) {
    uint8_t bits[160] = {0};
    int over = 0;
    for (int i = 0; i < UAL_F_COUNT; i++) {
      const struct ual_field *fd = &ual_fields[i];
      if (fd->scope != sc) continue;
      for (unsigned k = fd->lsb; k < (unsigned)fd->lsb + fd->width; k++) {
        unsigned byte = fd->offset + fd->size - 1 - k / 8, a = byte * 8 + k % 8;
        if (a >= 160 || bits[a]) over++;
        else bits[a] = 1;
      }
    }
    CHECK_EQ(over, 0);
  }
}

static void test_end_codes(void) {
  bool p;
  unsigned n;
  CHECK(ual_ub_end_code(UAL_UB_MODE_CRC, 9, &p, &n) && !p && n == 10);
  CHECK(ual_ub_end_code(UAL_UB_MODE_CRC, 27, &p, &n) && p && n == 16);
  CHECK(ual_ub_end_code(UAL_UB_MODE_CRC, 19, &p, &n) && p && n == 20);
  CHECK(!ual_ub_end_code(UAL_UB_MODE_CRC, 20, &p, &n));
  CHECK(!ual_ub_end_code(UAL_UB_MODE_CRC, 31, &p, &n));
  CHECK(ual_ub_end_code(UAL_UB_MODE_NONCRC, 30, &p, &n) && !p && n == 19);
  CHECK(ual_ub_end_code(UAL_UB_MODE_NONCRC, 27, &p, &n) && p && n == 16);
  CHECK(!ual_ub_end_code(UAL_UB_MODE_NONCRC, 16, &p, &n));
  CHECK(!ual_ub_end_code(UAL_UB_MODE_NONCRC, 18, &p, &n));
  CHECK_EQ(ual_ub_end_code_for(UAL_UB_MODE_CRC, true, 16), 27);
  /* T's example: 16 bytes in the LPH flit and a padding/BCRC flit */
  uint8_t pay[16] = {0}, f[40];
  struct ual_ub_unit u = { .cfg = 3 };
  CHECK_EQ(ual_ub_dlldp_build(UAL_UB_MODE_CRC, &u, pay, 16, false, f, 2), 2);
  CHECK_EQ(ual_field_get(UAL_F_UB_LPH_ENDCODE, f), 27);
}

struct feed {
  struct ual_ub_rx rx;
  struct ual_ub_flit out[600];
  struct ual_findings f[600];
  unsigned n;
};

static void feed(struct feed *s, const uint8_t *flits, unsigned n, unsigned hint) {
  for (unsigned i = 0; i < n; i++, s->n++) {
    ual_findings_clear(&s->f[s->n]);
    ual_ub_rx_flit(&s->rx, flits + 20 * i, hint, s->n + 1, &s->out[s->n], &s->f[s->n]);
  }
}

static unsigned findings(const struct feed *s) {
  unsigned k = 0;
  for (unsigned i = 0; i < s->n; i++) k += s->f[i].n;
  return k;
}

/* decode(encode(x)) == x for DLLDPs of every size class in both modes. */
static void test_roundtrip(void) {
  static uint8_t buf[UAL_UB_DLLDP_MAX_FLITS * 20], pay[UAL_UB_PAYLOAD_MAX];
  static struct feed s;
  uint64_t seed = 7;
  static const unsigned lens[] = { 1, 9, 12, 16, 17, 27, 40, 100, 600, 639, 640, 641, 2000, 9000 };
  for (unsigned m = UAL_UB_MODE_CRC; m <= UAL_UB_MODE_NONCRC; m++)
    for (unsigned i = 0; i < sizeof lens / sizeof lens[0]; i++) {
      for (unsigned k = 0; k < lens[i]; k++) pay[k] = (uint8_t)(check_rand(&seed) | 1);
      struct ual_ub_unit u = { .vl = (uint8_t)(i % 16), .cfg = 4, .crd = 1, .crd_vl = 3, .ack = 1 };
      unsigned F = ual_ub_dlldp_build((enum ual_ub_mode)m, &u, pay, lens[i], false, buf, UAL_UB_DLLDP_MAX_FLITS);
      CHECK(F > 0);
      memset(&s, 0, sizeof s);
      ual_ub_rx_init(&s.rx);
      /* a Null block first: synchronises in either mode */
      uint8_t nul[20] = {0};
      struct ual_ub_dllcb cb = { .type = UAL_UB_CB_NULL_BLOCK, .flits = 1 };
      ual_ub_dllcb_put(nul, &cb);
      ual_ub_seal((enum ual_ub_mode)m, nul, 1, true, false);
      feed(&s, nul, 1, m);
      feed(&s, buf, F, m);
      const struct ual_ub_flit *last = &s.out[s.n - 1];
      CHECK_EQ(last->unit.kind, UAL_UB_UNIT_DLLDP);
      CHECK_EQ(last->unit.flits, F);
      CHECK_EQ(last->unit.vl, u.vl);
      CHECK_EQ(last->unit.payload_len, lens[i]);
      CHECK(last->payload && memcmp(last->payload, pay, lens[i]) == 0);
      CHECK_EQ(s.out[1].role, UAL_UB_FR_LPH);
      CHECK_EQ(s.out[1].hdr_crd, 1);
      if (F > 32) CHECK_EQ(s.out[33].role, UAL_UB_FR_LBH);
      CHECK_EQ(findings(&s), 0);
    }
}

/* Every DLLCB type: encode, decode, same fields. */
static void test_dllcb_roundtrip(void) {
  for (unsigned t = 0; t < UAL_UB_CB_UNKNOWN; t++) {
    struct ual_ub_dllcb cb = { .type = (uint8_t)t, .flits = 1 };
    if (t == UAL_UB_CB_CRD_ACK) cb.flits = 2;
    if (t == UAL_UB_CB_INIT) cb.flits = 5;
    if (t == UAL_UB_CB_PARAM_EXCHG) cb.flits = 3;
    cb.code = (uint8_t)ual_ub_cb_code((enum ual_ub_cb_type)t);
    cb.rq.rcv_ptr = 0x1234; cb.rq.num_retry = 3; cb.rq.num_phy_reinit = 1;
    cb.ra.rd_ptr = 0x0102; cb.ra.wr_ptr = 0x0304; cb.ra.num_free_buf = 500; cb.ra.num_retry = 2;
    cb.ca.ack_num = 77; cb.ca.t = 1;
    for (unsigned v = 0; v < 16; v++) cb.ca.crd[v] = (uint8_t)(v * 3 + 1);
    cb.param0 = 0xDEADBEEF;
    cb.lane = (struct ual_ub_lane){ .req_id = 5, .change_tlw = 1, .tlw = 4, .rlw = 8 };
    cb.mc_type = UAL_UB_MC_ACK;
    cb.init = (struct ual_ub_init){ .feature_id = 1, .share = 1, .data_ack_grain = 0x30, .ctrl_ack_grain = 1,
                                    .flow_ctrl_size = 0x0C, .vl_enable = 0x000F, .retry_buf_depth = 1024, .min_interval = 2 };
    for (unsigned v = 0; v < 16; v++) { cb.init.ctrl_grain[v] = (uint8_t)(1u << (v % 8)); cb.init.data_grain[v] = (uint8_t)(0x80 >> (v % 8)); }
    uint8_t f[5 * 20] = {0};
    ual_ub_dllcb_put(f, &cb);
    for (unsigned m = UAL_UB_MODE_CRC; m <= UAL_UB_MODE_NONCRC; m++) {
      uint8_t g[5 * 20];
      memcpy(g, f, sizeof g);
      ual_ub_seal((enum ual_ub_mode)m, g, cb.flits, true, false);
      static struct feed s;
      memset(&s, 0, sizeof s);
      uint8_t nul[20] = {0};
      struct ual_ub_dllcb n0 = { .type = UAL_UB_CB_NULL_BLOCK, .flits = 1 };
      ual_ub_dllcb_put(nul, &n0);
      ual_ub_seal((enum ual_ub_mode)m, nul, 1, true, false);
      feed(&s, nul, 1, m);
      feed(&s, g, cb.flits, m);
      const struct ual_ub_unit *u = &s.out[s.n - 1].unit;
      CHECK_EQ(u->kind, UAL_UB_UNIT_DLLCB);
      struct ual_ub_dllcb d;
      ual_ub_dllcb_get(g, cb.flits, &d);
      CHECK_EQ(d.type, t);
      CHECK_EQ(u->cb.type, t);
      switch (t) {
      case UAL_UB_CB_RETRY_REQ: CHECK_MEM(&d.rq, &cb.rq, sizeof d.rq); break;
      case UAL_UB_CB_RETRY_ACK: CHECK_MEM(&d.ra, &cb.ra, sizeof d.ra); break;
      case UAL_UB_CB_CRD_ACK: CHECK_MEM(&d.ca, &cb.ca, sizeof d.ca); break;
      case UAL_UB_CB_PARAM_EXCHG: CHECK_EQ(d.param0, cb.param0); CHECK_EQ(ual_field_get(UAL_F_UB_PARAM_DATA, g + 40), cb.param0); break;
      case UAL_UB_CB_LANE_MANAGE: CHECK_MEM(&d.lane, &cb.lane, sizeof d.lane); break;
      case UAL_UB_CB_MODE_CHG: CHECK_EQ(d.mc_type, cb.mc_type); break;
      case UAL_UB_CB_INIT: CHECK_MEM(&d.init, &cb.init, sizeof d.init); break;
      default: break;
      }
      CHECK_EQ(findings(&s), 0);
    }
  }
}

static unsigned count_rule(const struct feed *s, enum ual_rule r) {
  unsigned k = 0;
  for (unsigned i = 0; i < s->n; i++) k += ual_findings_has(&s->f[i], r) ? 1 : 0;
  return k;
}

/* A capture that starts mid-block finds the boundaries, says nothing
 * before, and a corrupted block raises UB-BCRC once. */
static void test_sync_and_errors(void) {
  static uint8_t buf[80 * 20], pay[1000];
  static struct feed s;
  memset(pay, 0x5A, sizeof pay);
  struct ual_ub_unit u = { .vl = 1, .cfg = 3 };
  unsigned F = ual_ub_dlldp_build(UAL_UB_MODE_CRC, &u, pay, 700, false, buf, 64);
  CHECK_EQ(F, 36);   /* 632 bytes in DLLDB 0, the rest after an LBH */
  unsigned G = ual_ub_dlldp_build(UAL_UB_MODE_CRC, &u, pay, 100, false, buf + 20 * F, 64 - F);
  memcpy(buf + 20 * (F + G), buf + 20 * F, 20u * G);
  memset(&s, 0, sizeof s);
  ual_ub_rx_init(&s.rx);
  feed(&s, buf + 20 * 5, F - 5 + G, 0);   /* cut: starts inside the first DLLDP, no hint */
  CHECK_EQ(findings(&s), 0);
  /* the first block found may be a later DLLDB taken for DLLDB 0: no DLLDP from it */
  unsigned units = 0;
  for (unsigned i = 0; i < s.n; i++) units += s.out[i].unit.kind != UAL_UB_UNIT_NONE;
  CHECK_EQ(units, 0);
  CHECK(s.rx.dp_unsure);
  feed(&s, buf + 20 * (F + G), G, 0);     /* the next DLLDP, framed from the block before it */
  CHECK_EQ(findings(&s), 0);
  CHECK_EQ(s.out[s.n - 1].unit.kind, UAL_UB_UNIT_DLLDP);
  CHECK_EQ(s.out[s.n - 1].unit.payload_len, 100);
  CHECK_EQ(s.rx.dp_unsure, 0);
  CHECK_EQ(s.rx.mode, UAL_UB_MODE_CRC);

  /* a later DLLDB of a long DLLDP found first, its PLENGTH read from payload bytes
   * that frame it whole: nothing judged (no UB-PAD-NONZERO, UB-PLENGTH-*) */
  static uint8_t big[96 * 20], junk[2000];
  for (unsigned k = 0; k < sizeof junk; k++) junk[k] = (uint8_t)(0xF0 | k);   /* PLENGTH NDB > 0: 32 flits */
  unsigned B = ual_ub_dlldp_build(UAL_UB_MODE_CRC, &u, junk, 1800, false, big, 96);
  CHECK(B > 64);
  memset(&s, 0, sizeof s);
  ual_ub_rx_init(&s.rx);
  feed(&s, big + 20 * 32, 32, 0);          /* DLLDB 1 alone */
  CHECK_EQ(findings(&s), 0);
  CHECK_EQ(s.out[s.n - 1].block_end, 1);   /* found as a block of 32 */

  /* a bit error in the DLLDP after sync */
  buf[20 * F + 30] ^= 0x04;
  memset(&s, 0, sizeof s);
  feed(&s, buf, F + G, UAL_UB_MODE_CRC);
  CHECK_EQ(count_rule(&s, UAL_R_UB_BCRC), 1);
  CHECK_EQ(findings(&s), 1);
  CHECK_EQ(s.out[s.n - 1].unit.kind, UAL_UB_UNIT_NONE);

  /* a reserved end code, a reserved LPH bit, non-zero padding */
  uint8_t one[20];
  u.vl = 0;
  uint8_t p12[12] = {1, 2, 3};
  ual_ub_dlldp_build(UAL_UB_MODE_CRC, &u, p12, 3, false, one, 1);
  static const struct { unsigned byte, mask, val; enum ual_rule rule; } bad[] = {
    { 3, 0x1F, 21, UAL_R_UB_PLENGTH_RSVD }, { 3, 0x1F, 14, UAL_R_UB_PLENGTH_FIT },
    { 0, 0x02, 0x02, UAL_R_UB_RSVD }, { 10, 0xFF, 0x77, UAL_R_UB_PAD_NONZERO },
  };
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint8_t g[20];
    memcpy(g, one, 20);
    g[bad[i].byte] = (uint8_t)((g[bad[i].byte] & ~bad[i].mask) | bad[i].val);
    ual_ub_seal(UAL_UB_MODE_CRC, g, 1, true, false);
    memset(&s, 0, sizeof s);
    feed(&s, one, 1, UAL_UB_MODE_CRC);
    feed(&s, g, 1, UAL_UB_MODE_CRC);
    CHECK_EQ(count_rule(&s, bad[i].rule), 1);
    CHECK_EQ(findings(&s), 1);
  }
}

/* The field tree of a UB record: no two field rows cover the same record
 * bit (group rows aside), and the record header's rows go in record order. */
struct tree_bits { uint8_t bits[8 * (8 + 20)]; int overlaps; unsigned rows, hdr_rows, hdr_back, hdr_gen; int last_hdr; };

static void tree_row(void *ctx, const struct ual_tree_row *row) {
  struct tree_bits *t = ctx;
  /* a derived row placed in the header reads header bits a second time */
  if (row->field && !row->field->size && row->offset < UAL_REC_HDR_BYTES) t->hdr_gen++;
  if (!row->field || !row->field->size || row->copied) return;
  const struct ual_field *fd = row->field;
  unsigned base = row->offset - fd->offset;
  t->rows++;
  if (base == 0 && row->offset < UAL_REC_HDR_BYTES) {
    t->hdr_rows++;
    if ((int)row->offset < t->last_hdr) t->hdr_back++;
    t->last_hdr = (int)row->offset;
  }
  for (unsigned b = fd->lsb; b < (unsigned)fd->lsb + fd->width; b++) {
    unsigned byte = b / 8;
    if (fd->endian == UAL_BE) byte = fd->size - 1 - byte;
    unsigned abs = (row->offset + byte) * 8 + b % 8;
    if (abs >= sizeof t->bits || t->bits[abs]) { t->overlaps++; continue; }
    t->bits[abs] = 1;
  }
}

static void test_tree_bits(void) {
  static uint8_t flits[64 * 20], pay[800];
  static struct ual_decoder dec;
  static struct ual_rec_result res;
  for (unsigned m = UAL_UB_MODE_CRC; m <= UAL_UB_MODE_NONCRC; m++) {
    unsigned n = 0;
    struct ual_ub_dllcb nul = { .type = UAL_UB_CB_NULL_BLOCK, .flits = 1 };
    ual_ub_dllcb_put(flits, &nul);
    ual_ub_seal((enum ual_ub_mode)m, flits, 1, true, false);
    n = 1;
    for (unsigned t = 0; t < UAL_UB_CB_UNKNOWN; t++) {
      struct ual_ub_dllcb cb = { .type = (uint8_t)t, .flits = 1 };
      if (t == UAL_UB_CB_CRD_ACK) cb.flits = 2;
      if (t == UAL_UB_CB_INIT) cb.flits = 5;
      if (t == UAL_UB_CB_PARAM_EXCHG) cb.flits = 2;
      cb.lane = (struct ual_ub_lane){ .req_id = 5, .tlw = 4, .rlw = 4 };
      memset(flits + 20 * n, 0, 20u * cb.flits);
      ual_ub_dllcb_put(flits + 20 * n, &cb);
      ual_ub_seal((enum ual_ub_mode)m, flits + 20 * n, cb.flits, true, false);
      n += cb.flits;
    }
    for (unsigned k = 0; k < sizeof pay; k++) pay[k] = (uint8_t)(k * 7 + 1);
    struct ual_ub_unit u = { .vl = 2, .cfg = 3, .crd = 1, .crd_vl = 1, .ack = 1 };
    n += ual_ub_dlldp_build((enum ual_ub_mode)m, &u, pay, sizeof pay, false, flits + 20 * n, 64 - n);
    CHECK(n > 40);
    ual_decoder_init(&dec);
    unsigned roles[] = { 0, 1, 2 }, body_rows = 0;
    for (unsigned i = 0; i < n; i++) {
      struct ual_rec_hdr h;
      ual_rec_hdr_init(&h, UAL_REC_UB_FLIT, 0);
      h.width = 4;
      h.flags |= UAL_UB_RF_FEC_CORRECTED;
      h.rsvd_roles = (uint8_t)roles[i % 3];
      h.rsvd = (uint8_t)(m | UAL_UB_FEC_BYPASS);
      uint8_t rec[8 + 20];
      CHECK_EQ(ual_record_build(&h, flits + 20 * i, 20, rec, sizeof rec), sizeof rec);
      ual_decode_record(&dec, rec, sizeof rec, i + 1, &res);
      struct tree_bits t = { .last_hdr = -1 };
      ual_tree_walk(&res, rec, sizeof rec, tree_row, &t);
      if (t.overlaps || t.hdr_back) fprintf(stderr, "mode %u flit %u: %d bits shown twice, %u header rows back\n", m, i,
                                          t.overlaps, t.hdr_back);
      CHECK_EQ(t.overlaps, 0);
      CHECK_EQ(t.hdr_back, 0);
      CHECK_EQ(t.hdr_gen, 0);
      unsigned hdr_bits = 0;
      for (unsigned b = 0; b < 64; b++) hdr_bits += t.bits[b];
      CHECK_EQ(hdr_bits, 64);            /* every header bit shown once */
      body_rows += t.rows - t.hdr_rows;
    }
  }
}

int main(void) {
  test_crc_vectors();
  test_positions();
  test_end_codes();
  test_roundtrip();
  test_dllcb_roundtrip();
  test_sync_and_errors();
  test_tree_bits();
  return check_done("test_ub_flit");
}
