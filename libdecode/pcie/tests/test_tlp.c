/* Flit-mode TLPs: the Type table, sizes from DW0 (digest pcie.md §3.2-3.4
 * known answers), the field rows of DW0 / header bases / OHC words (§3.3,
 * §3.5 [P14] [P15]), and the walker across flits (straddling TLPs, NOP
 * fill, prefixes, sync when the capture starts mid-TLP). */
#include "check.h"
#include "ualink/core/fields.h"
#include "ualink/core/tree.h"
#include "ualink/pcie/tlp.h"

/* DW0 bytes from the §3.3 fields. */
static void dw0(uint8_t *p, unsigned type, unsigned tc, unsigned ohc, unsigned ts, unsigned attr, unsigned len) {
  memset(p, 0, 4);
  ual_field_put(UAL_F_PCIE_TLP_TYPE, p, type);
  ual_field_put(UAL_F_PCIE_TLP_TC, p, tc);
  ual_field_put(UAL_F_PCIE_TLP_OHC, p, ohc);
  ual_field_put(UAL_F_PCIE_TLP_TS, p, ts);
  ual_field_put(UAL_F_PCIE_TLP_ATTR, p, attr);
  ual_field_put(UAL_F_PCIE_TLP_LENGTH, p, len);
}

static void test_dw0_bits(void) {
  uint8_t p[4];
  dw0(p, 0x40, 5, 0x19, 3, 6, 0x2A5);   /* MWr32, TC5, OHC A + E2, TS 011b, Attr 110b, Length 2A5h */
  /* byte 1 = 101 11001b, byte 2 = 011 110 10b, byte 3 = A5h */
  uint8_t want[4] = { 0x40, 0xB9, 0x7A, 0xA5 };
  CHECK_MEM(p, want, 4);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_TLP_LENGTH, want), 0x2A5);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_TLP_TS, want), 3);
}

static unsigned total(unsigned type, unsigned ohc, unsigned ts, unsigned len) {
  uint8_t p[4];
  struct ual_pcie_tlp_size s;
  dw0(p, type, 0, ohc, ts, 0, len);
  ual_pcie_tlp_size(p, &s);
  return s.total_dw;
}

static void test_sizes(void) {
  CHECK_EQ(ual_pcie_ohc_dw(0x00), 0);
  CHECK_EQ(ual_pcie_ohc_dw(0x07), 3);
  CHECK_EQ(ual_pcie_ohc_dw(0x08), 1);   /* E1 */
  CHECK_EQ(ual_pcie_ohc_dw(0x10), 2);   /* E2, not popcount */
  CHECK_EQ(ual_pcie_ohc_dw(0x1F), 7);   /* A+B+C+E4 = max 7 */
  for (unsigned ts = 0; ts < 8; ts++) CHECK_EQ(ual_pcie_ts_dw(ts), ts == 0 ? 0 : ts <= 2 ? 1 : ts <= 4 ? 2 : ts - 2);
  CHECK_EQ(total(0x00, 0x1F, 7, 0x3FF), 1);           /* NOP: 1 DW whatever its other bits */
  CHECK_EQ(total(0x03, 0, 0, 4), 3);                  /* MRd32: Length is not payload */
  CHECK_EQ(total(0x20, 0x01, 0, 16), 5);              /* MRd64 + OHC-A1 */
  CHECK_EQ(total(0x40, 0, 0, 1), 4);                  /* MWr32 1 DW */
  CHECK_EQ(total(0x60, 0, 1, 0), 4 + 1024 + 1);       /* MWr64, Length 0 = 1024, ECRC */
  CHECK_EQ(total(0x44, 0x01, 0, 1), 3 + 1 + 1);       /* CfgWr0 + OHC-A3 + 1 DW */
  CHECK_EQ(total(0x4A, 0x01, 0, 8), 3 + 1 + 8);       /* CplD + OHC-A5 */
  CHECK_EQ(total(0x0A, 0x00, 2, 5), 3 + 1);           /* Cpl: no payload, TS 010b */
  CHECK_EQ(total(0x30, 0x04, 0, 0), 4 + 1);           /* Msg + OHC-C */
  CHECK_EQ(total(0x72, 0, 0, 2), 4 + 2);              /* MsgD by ID */
  CHECK_EQ(total(0x16, 0, 0, 3), 7 + 3);              /* reserved 16h: NPR, data, 7 DW base */
  CHECK_EQ(total(0xE6, 0, 0, 2), 6 + 2);              /* reserved local E6h */
  CHECK_EQ(total(0x8D, 0x1F, 7, 9), 1);               /* FlitModePrefix: 1 DW */
  /* every code has a row; rows are contiguous */
  for (unsigned t = 0; t < 256; t++) {
    const struct ual_pcie_tlp_type *r = ual_pcie_tlp_type(t);
    CHECK(r->first <= t && t <= r->last);
    CHECK(r->base_dw >= 1 && r->base_dw <= 7);
  }
  CHECK_STR(ual_pcie_tlp_type(0x4A)->name, "CplD");
  CHECK(ual_pcie_tlp_type(0x07)->name == NULL);
  CHECK_STR(ual_field_value_name(UAL_F_PCIE_TLP_TYPE, 0x7B), "DMWr64");
  CHECK(ual_field_value_name(UAL_F_PCIE_TLP_TYPE, 0x16) == NULL);
}

/* Header base and OHC rows at their [P14]/[P15] positions. */
static void test_header_rows(void) {
  /* CplD: Completer ID 0102h, EP 0, LA[6] 1, Tag 2345h, Destination BDF 0A0Bh, LA[5:2] 9, Byte Count ABCh */
  uint8_t c[12] = { 0x4A, 0x01, 0x00, 0x08, 0x01, 0x02, 0x40 | 0x23, 0x45, 0x0A, 0x0B, 0x9A, 0xBC };
  CHECK_EQ(ual_field_get(UAL_F_PCIE_CPL_CID, c), 0x0102);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_CPL_EP, c), 0);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_CPL_LA6, c), 1);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_CPL_TAG, c), 0x2345);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_CPL_DEST, c), 0x0A0B);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_CPL_LA52, c), 9);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_CPL_BC, c), 0xABC);
  /* MRd64: RID BEEFh, EP 1, Tag 3FFFh, address 1122334455667788h with AT 00b */
  uint8_t m[16] = { 0x20, 0, 0, 1, 0xBE, 0xEF, 0x80 | 0x3F, 0xFF, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
  CHECK_EQ(ual_field_get(UAL_F_PCIE_REQ_RID, m), 0xBEEF);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_REQ_EP, m), 1);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_REQ_TAG, m), 0x3FFF);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_A64_ADDR, m) << 2, 0x1122334455667788ull);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_A64_AT, m), 0);
  /* CfgWr0 to 03:04.5 register 0x3FC (ext 3, reg 3Fh) */
  uint8_t g[12] = { 0x44, 1, 0, 1, 0, 0, 0, 0, 0x03, 0x25, 0x03, 0xFC };
  CHECK_EQ(ual_field_get(UAL_F_PCIE_CFG_CID, g), 0x0325);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_CFG_EXTREG, g), 3);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_CFG_REG, g), 0x3F);
  /* OHC-A3: Destination Segment 7, DSV 1, BEs 0/F; OHC-A5: segs 5/6, DSV, LA 2, status UR; OHC-C */
  uint8_t a3[4] = { 0x07, 0x00, 0x80, 0x0F }, a5[4] = { 0x05, 0x06, 0x80, 0x11 }, oc[4] = { 0x09, 0x01, 0x02, 0x78 };
  CHECK_EQ(ual_field_get(UAL_F_PCIE_A3_DSEG, a3), 7);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_A3_DSV, a3), 1);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_A3_FBE, a3), 0xF);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_A3_LBE, a3), 0);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_A5_DSEG, a5), 5);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_A5_CSEG, a5), 6);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_A5_DSV, a5), 1);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_A5_LA, a5), 2);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_A5_STATUS, a5), 1);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_C_RSEG, oc), 9);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_C_SUBSTREAM, oc), 7);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_C_RSV, oc), 1);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_C_K, oc), 0);
  uint8_t a1[4] = { 0x4A, 0xBC, 0xDE, 0x3F };   /* PV, PASID ABCDEh, Last BE 3, First BE F */
  CHECK_EQ(ual_field_get(UAL_F_PCIE_A1_PV, a1), 1);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_A1_PASID, a1), 0xABCDE);
  CHECK_EQ(ual_field_get(UAL_F_PCIE_A1_LBE, a1), 3);
}

/* ---- walker ---- */

struct seen {
  unsigned n;
  struct ual_pcie_tlp t[64];
};

static void on_tlp(void *ctx, const struct ual_pcie_tlp *t) {
  struct seen *s = ctx;
  if (s->n < 64) s->t[s->n++] = *t;
}

/* A stream of DW: TLPs laid out back to back, then NOPs. */
struct stream {
  uint8_t b[8 * UAL_PCIE_FLIT_TLP_BYTES];
  unsigned dw;
};

static void put_tlp(struct stream *s, unsigned type, unsigned ohc, unsigned ts, unsigned len, uint8_t fill) {
  uint8_t *p = s->b + 4 * s->dw;
  struct ual_pcie_tlp_size sz;
  dw0(p, type, 0, ohc, ts, 0, len);
  ual_pcie_tlp_size(p, &sz);
  memset(p + 4, fill, 4u * (sz.total_dw - 1u));
  s->dw += sz.total_dw;
}

static void test_walk_straddle(void) {
  struct stream s;
  memset(&s, 0, sizeof s);   /* zero DW = NOP TLPs */
  put_tlp(&s, 0x60, 0x00, 0, 30, 0x11);   /* MWr64 4 + 30 = 34 DW */
  put_tlp(&s, 0x8D, 0, 0, 0, 0);          /* a prefix ... */
  put_tlp(&s, 0x4A, 0x01, 1, 40, 0x22);   /* ... then CplD + A5 + 40 + ECRC = 45 DW: 35..80, straddles */
  put_tlp(&s, 0x03, 0, 0, 1, 0x33);       /* MRd32 3 DW: 80..82 */
  struct ual_pcie_walk w;
  ual_pcie_walk_init(&w);
  w.synced = 1;   /* a walk from the link's first flit */
  struct seen got = { 0 };
  CHECK_EQ(ual_pcie_walk_flit(&w, s.b, on_tlp, &got, NULL), UAL_PW_OK);
  CHECK_EQ(got.n, 1);   /* the MWr64; the CplD straddles */
  CHECK_EQ(got.t[0].size.total_dw, 34);
  CHECK_EQ(w.owed_dw, 80 - 59);
  CHECK_EQ(ual_pcie_walk_flit(&w, s.b + UAL_PCIE_FLIT_TLP_BYTES, on_tlp, &got, NULL), UAL_PW_OK);
  /* CplD (with its prefix), MRd32, then NOPs to the end of the flit: 83..117 = 35 */
  CHECK_EQ(got.n, 1 + 2 + (118 - 83));
  const struct ual_pcie_tlp *c = &got.t[1];
  CHECK_EQ(c->prefix_dw, 1);
  CHECK_EQ(c->start_flit, 0);
  CHECK_EQ(c->start_dw, 34);
  CHECK_EQ(c->end_dw, 80 - 59);
  CHECK_EQ(c->hdr_dw, 1 + 3 + 1);
  CHECK_EQ(c->hdr[4], 0x4A);                /* DW0 after the prefix */
  CHECK_EQ(c->hdr[16], 0x22);               /* the OHC word */
  CHECK_EQ(got.t[2].hdr[0], 0x03);
  CHECK_EQ(got.t[2].start_flit, 1);
  CHECK_EQ(got.t[2].start_dw, 80 - 59);
  CHECK_EQ(got.t[3].hdr[0], 0x00);          /* NOP fill */
  CHECK_EQ(got.t[3].size.total_dw, 1);
}

/* A run of local prefixes longer than the held header: the walk stays
 * aligned, the first UAL_PCIE_TLP_MAX_PREFIX_HELD are kept, DW0 follows
 * them in hdr[], and each kept byte maps to where it is in the flit. */
static void test_walk_many_prefixes(void) {
  struct stream s;
  memset(&s, 0, sizeof s);
  put_tlp(&s, 0x60, 0, 0, 30, 0x11);      /* MWr64 34 DW: 0..33 */
  for (unsigned i = 0; i < 40; i++) put_tlp(&s, i % 2 ? 0x8E : 0x8D, 0, 0, 0, 0);   /* 34..73 */
  put_tlp(&s, 0x40, 0x01, 0, 2, 0x22);    /* MWr32 + OHC-A1 + 2 DW = 6 DW: 74..79 */
  put_tlp(&s, 0x03, 0, 0, 1, 0x33);       /* MRd32 3 DW: 80..82, NOPs to the end */
  struct ual_pcie_walk w;
  ual_pcie_walk_init(&w);
  w.synced = 1;
  struct seen got = { 0 };
  const unsigned F = UAL_PCIE_FLIT_TLP_BYTES;
  CHECK_EQ(ual_pcie_walk_flit(&w, s.b, on_tlp, &got, NULL), UAL_PW_OK);
  CHECK_EQ(got.n, 1);                       /* the MWr64; the prefixes run into flit 1 */
  CHECK_EQ(ual_pcie_walk_flit(&w, s.b + F, on_tlp, &got, NULL), UAL_PW_OK);
  CHECK(got.n >= 3);
  const struct ual_pcie_tlp *t = &got.t[1];
  CHECK_EQ(t->prefix_dw, 40);
  CHECK_EQ(t->prefix_held, UAL_PCIE_TLP_MAX_PREFIX_HELD);
  CHECK_EQ(t->hdr_dw, UAL_PCIE_TLP_MAX_PREFIX_HELD + 3 + 1);   /* kept prefixes, base, OHC-A1 */
  CHECK_EQ(t->hdr[0], 0x8D);
  CHECK_EQ(t->hdr[4], 0x8E);
  CHECK_EQ(ual_pcie_tlp_dw0(t)[0], 0x40);
  CHECK_EQ(t->size.total_dw, 6);
  CHECK_EQ(t->start_flit, 0);
  CHECK_EQ(t->start_dw, 34);
  CHECK_EQ(t->end_dw, 80 - 59);
  /* kept prefixes began in flit 0; DW0 is DW 74 - 59 = 15 of flit 1 */
  CHECK_EQ(ual_pcie_tlp_byte_at(t, 0, 8), -1);
  CHECK_EQ(ual_pcie_tlp_byte_at(t, 4u * UAL_PCIE_TLP_MAX_PREFIX_HELD, 8), 8 + 4 * 15);
  CHECK_EQ(ual_pcie_tlp_byte_at(t, 4u * UAL_PCIE_TLP_MAX_PREFIX_HELD + 13, 8), 8 + 4 * 18 + 1);   /* OHC-A1 */
  char sum[128];
  ual_pcie_tlp_summary(t, sum, sizeof sum);
  CHECK(strstr(sum, "MWr32") == sum);
  CHECK(strstr(sum, "+40 prefix") != NULL);
  CHECK_EQ(ual_pcie_tlp_dw0(&got.t[2])[0], 0x03);   /* the walk stayed aligned */
  CHECK_EQ(got.t[2].start_dw, 80 - 59);
}

/* A capture that starts inside a TLP: the first flit begins with payload;
 * the walker locks where a walk ends exactly at the flit's end and reports
 * from the flit after the one that confirms the lock. */
static void test_walk_sync(void) {
  struct stream s;
  memset(&s, 0, sizeof s);
  put_tlp(&s, 0x60, 0, 0, 100, 0xFF);     /* MWr64 4 + 100: 0..103, into flit 1 */
  put_tlp(&s, 0x40, 0, 0, 2, 0x40);       /* MWr32 5 DW: 104..108 */
  put_tlp(&s, 0x20, 0x01, 0, 8, 0x55);    /* MRd64 + A1 5 DW: 109..113, NOPs to 117 */
  s.dw = 118;
  put_tlp(&s, 0x60, 0, 0, 70, 0x66);      /* MWr64 74 DW: 118..191, straddles flit 2 into flit 3 */
  put_tlp(&s, 0x03, 0, 0, 1, 0x33);       /* MRd32 3 DW: 192..194, NOPs to 235 */
  s.dw = 236;
  put_tlp(&s, 0x40, 0, 0, 1, 0x77);       /* flit 4: MWr32 4 DW, NOPs */
  struct ual_pcie_walk w;
  ual_pcie_walk_init(&w);
  struct seen got = { 0 };
  unsigned at = 99;
  const unsigned F = UAL_PCIE_FLIT_TLP_BYTES;
  /* capture starts at flit 0 DW 8: all payload FFh (reserved type FFh: never locks) */
  uint8_t f0[UAL_PCIE_FLIT_TLP_BYTES];
  memset(f0, 0xFF, sizeof f0);
  CHECK_EQ(ual_pcie_walk_flit(&w, f0, on_tlp, &got, &at), UAL_PW_UNSYNCED);
  CHECK_EQ(ual_pcie_walk_flit(&w, s.b + F, on_tlp, &got, &at), UAL_PW_UNSYNCED);   /* locks at DW 104 - 59 */
  CHECK_EQ(w.confirm, UAL_PCIE_SYNC_WINDOW);
  CHECK_EQ(ual_pcie_walk_flit(&w, s.b + 2 * F, on_tlp, &got, &at), UAL_PW_UNSYNCED);   /* ends inside the MWr64 */
  CHECK_EQ(ual_pcie_walk_flit(&w, s.b + 3 * F, on_tlp, &got, &at), UAL_PW_SYNCED);
  CHECK_EQ(at, 104 - 59);
  CHECK_EQ(got.n, 0);
  CHECK_EQ(ual_pcie_walk_flit(&w, s.b + 4 * F, on_tlp, &got, &at), UAL_PW_OK);
  CHECK_EQ(got.n, 1 + 55);
  CHECK_EQ(got.t[0].hdr[0], 0x40);
  CHECK_EQ(got.t[0].size.total_dw, 4);
  /* a gap forgets the alignment */
  ual_pcie_walk_lose(&w);
  CHECK_EQ(w.synced, 0);
  /* a lock that a later flit contradicts (a reserved type where a TLP starts) is dropped */
  ual_pcie_walk_init(&w);
  CHECK_EQ(ual_pcie_walk_flit(&w, s.b + F, on_tlp, &got, &at), UAL_PW_UNSYNCED);
  CHECK(w.confirm > 0);
  CHECK_EQ(ual_pcie_walk_flit(&w, f0, on_tlp, &got, &at), UAL_PW_UNSYNCED);
  CHECK_EQ(w.confirm, 0);
  CHECK_EQ(w.synced, 0);
  /* and one that no flit confirms within the window too */
  CHECK_EQ(ual_pcie_walk_flit(&w, s.b + F, on_tlp, &got, &at), UAL_PW_UNSYNCED);
  uint8_t big[UAL_PCIE_FLIT_TLP_BYTES] = { 0 };
  dw0(big, 0x60, 0, 0, 0, 0, 0);          /* MWr64 of 1024 DW: ends no flit in the window */
  CHECK_EQ(ual_pcie_walk_flit(&w, big, on_tlp, &got, &at), UAL_PW_UNSYNCED);
  for (unsigned i = 0; i < UAL_PCIE_SYNC_WINDOW - 1; i++) CHECK_EQ(ual_pcie_walk_flit(&w, f0, on_tlp, &got, &at), UAL_PW_UNSYNCED);
  CHECK_EQ(w.confirm, 0);
  CHECK_EQ(got.n, 1 + 55);
}

/* One TLP line from a held header: a completion with OHC-A5 (status,
 * Lower Address[1:0]), a read with OHC-A1, a message by name; IDs as
 * bus:device.function, which the field table shows and parses too. */
static void test_line(void) {
  struct ual_pcie_tlp t;
  char sum[160];
  memset(&t, 0, sizeof t);
  dw0(t.hdr, 0x0A, 0, 0x01, 0, 0, 0);                     /* Cpl + OHC-A5 */
  ual_field_put(UAL_F_PCIE_CPL_CID, t.hdr, 0x0208);
  ual_field_put(UAL_F_PCIE_CPL_TAG, t.hdr, 0x2A);
  ual_field_put(UAL_F_PCIE_CPL_DEST, t.hdr, 0x1FFF);
  ual_field_put(UAL_F_PCIE_CPL_LA52, t.hdr, 0x3);
  ual_field_put(UAL_F_PCIE_CPL_BC, t.hdr, 0);               /* 4096 */
  ual_field_put(UAL_F_PCIE_A5_STATUS, t.hdr + 12, 1);
  ual_field_put(UAL_F_PCIE_A5_LA, t.hdr + 12, 2);
  t.hdr_dw = 4;
  ual_pcie_tlp_size(t.hdr, &t.size);
  ual_pcie_tlp_summary(&t, sum, sizeof sum);
  CHECK_STR(sum, "Cpl (0ah) CID 02:01.0 UR bc 4096 la 0eh RID 1f:1f.7 tag 42");
  memset(&t, 0, sizeof t);
  dw0(t.hdr, 0x20, 0, 0x01, 0, 0, 16);                    /* MRd64 + OHC-A1 */
  ual_field_put(UAL_F_PCIE_REQ_RID, t.hdr, 0x0101);
  ual_field_put(UAL_F_PCIE_REQ_TAG, t.hdr, 7);
  ual_field_put(UAL_F_PCIE_A64_ADDR, t.hdr, 0x1234560000ull >> 2);
  ual_field_put(UAL_F_PCIE_A1_FBE, t.hdr + 16, 0xF);
  ual_field_put(UAL_F_PCIE_A1_LBE, t.hdr + 16, 0x3);
  t.hdr_dw = 5;
  ual_pcie_tlp_size(t.hdr, &t.size);
  ual_pcie_tlp_summary(&t, sum, sizeof sum);
  CHECK_STR(sum, "MRd64 (20h) len 16 DW/64 B RID 01:00.1 tag 7 addr 0x1234560000 BE 3/f");
  memset(&t, 0, sizeof t);
  dw0(t.hdr, 0x30, 0, 0, 0, 0, 0);                        /* Msg-RC PM_PME */
  ual_field_put(UAL_F_PCIE_MSG_RID, t.hdr, 0x0300);
  ual_field_put(UAL_F_PCIE_MSG_CODE, t.hdr, 0x18);
  t.hdr_dw = 4;
  ual_pcie_tlp_size(t.hdr, &t.size);
  ual_pcie_tlp_summary(&t, sum, sizeof sum);
  CHECK_STR(sum, "Msg-RC (30h) PM_PME RID 03:00.0");
  ual_pcie_req_line(0x44, 0x0008, 3, sum, sizeof sum);
  CHECK_STR(sum, "CfgWr0 (44h) RID 00:01.0 tag 3");
  ual_field_format(UAL_F_PCIE_REQ_RID, 0xABCD, sum, sizeof sum);
  CHECK_STR(sum, "ab:19.5");
  CHECK_EQ(ual_field_bdf_parse("ab:19.5", 7), 0xABCD);
  CHECK_EQ(ual_field_bdf_parse("01:00.0", 7), 0x0100);
  CHECK_EQ(ual_field_bdf_parse("1:0.7", 5), 0x0107);
  CHECK_EQ(ual_field_bdf_parse("01:20.0", 7), -1);        /* device 5 bits */
  CHECK_EQ(ual_field_bdf_parse("01:00.8", 7), -1);
  CHECK_EQ(ual_field_bdf_parse("01:00", 5), -1);
  CHECK_EQ(ual_field_bdf_parse("100:00.0", 8), -1);
}

int main(void) {
  test_line();
  test_dw0_bits();
  test_sizes();
  test_header_rows();
  test_walk_straddle();
  test_walk_many_prefixes();
  test_walk_sync();
  return check_done("test_tlp");
}
