/* PCIe flits (record kind 5): DLP0/1 and DLP2-5 at their [P11]/[P12]
 * positions, CRC-64/FEC shared with UALink (a corrected byte, a bad CRC),
 * the tree's rows and the summary, then the TLP walk over the delivered
 * TLP bytes. */
#include "check.h"
#include "ualink/core/decode.h"
#include "ualink/core/tree.h"
#include "ualink/core/rules.h"
#include "ualink/core/summary.h"
#include "ualink/core/fields.h"
#include "ualink/core/record.h"
#include "ualink/pcie/flit.h"
#include "ualink/pcie/tlp.h"
#include "ualink/ualink/analysis.h"

/* A link's record header fields: its index and the PCIe roles of A and B. */
struct lnk {
  uint8_t index, role_a, role_b;
};
#define RP  1u
#define USP 2u
#define DSP 3u
#define EP  4u
static const struct lnk rp_ep = { 255, RP, EP };   /* link unknown */

static size_t record_on(const struct lnk *l, const uint8_t body[256], uint8_t *rec) {
  memset(rec, 0, 8);
  rec[0] = 1;                  /* version */
  rec[1] = UAL_REC_PCIE_FLIT;
  rec[3] = l->index;
  rec[4] = 3;                  /* 64.0 GT/s */
  rec[5] = 16;                 /* x16 */
  rec[6] = (uint8_t)(0x80 | l->role_b << 3 | l->role_a);
  memcpy(rec + 8, body, 256);
  return 8 + 256;
}

static size_t record(const uint8_t body[256], uint8_t *rec) { return record_on(&rp_ep, body, rec); }

static void build(uint8_t f[256]) {
  memset(f, 0, 256);
  /* TLP bytes: MRd64 (4 DW) then NOPs */
  const uint8_t mrd[16] = { 0x20, 0, 0, 4, 0x01, 0x00, 0x00, 0x2A, 0, 0, 0, 0, 0x12, 0x34, 0x56, 0x78 };
  memcpy(f, mrd, sizeof mrd);
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 0, UAL_RC_SEQ, 0x155 };
  struct ual_dllp d;
  memset(&d, 0, sizeof d);
  d.type = 0x81;               /* UpdateFC-P VC1 ... */
  d.b[0] = 0x81, d.b[1] = 0x11, d.b[2] = 0x46, d.b[3] = 0xA0;   /* ... H=45h D=6A0h */
  ual_pcie_flit_seal(f, &fh, &d);
}

struct rows {
  unsigned n, with_id;
  enum ual_field_id id[128];
  uint64_t v[128];
};

static void collect(void *ctx, const struct ual_tree_row *row) {
  struct rows *t = ctx;
  if (row->field && t->with_id < 128) {
    t->id[t->with_id] = row->id;
    t->v[t->with_id++] = row->value;
  }
  t->n++;
}

static uint64_t row_value(const struct rows *t, enum ual_field_id id, int *found) {
  for (unsigned i = 0; i < t->with_id; i++)
    if (t->id[i] == id) {
      *found = 1;
      return t->v[i];
    }
  *found = 0;
  return 0;
}

static void test_decode_clean(void) {
  uint8_t f[256], rec[264];
  build(f);
  size_t n = record(f, rec);
  struct ual_rec_result r;
  ual_decode_stateless(rec, n, 1, &r);
  CHECK_EQ(r.status, UAL_RS_OK);
  CHECK_EQ(r.flit.valid, 1);
  CHECK_EQ(r.flit.fec.status, UAL_FEC_CLEAN);
  CHECK_EQ(r.flit.kind, UAL_FK_PAYLOAD);
  CHECK_EQ(r.flit.fh.seq, 0x155);
  CHECK_EQ(r.flit.dllp.type, 0x81);
  CHECK_EQ(r.findings.n, 0);
  char s[160];
  ual_rec_summary(&r, s, sizeof s);
  CHECK_STR(s, "PCIe payload seq 341 | UpdateFC-P");
  struct rows t = { 0 };
  ual_tree_walk(&r, rec, n, collect, &t);
  int found;
  CHECK_EQ(row_value(&t, UAL_F_FH_SEQ, &found), 0x155);
  CHECK(found);
  CHECK_EQ(row_value(&t, UAL_F_PCIE_FDLLP_TYPE, &found), 0x81);
  CHECK(found);
  CHECK_EQ(row_value(&t, UAL_F_PCIE_FC_VC, &found), 1);
  CHECK(found);
  CHECK_EQ(row_value(&t, UAL_F_PCIE_FC_HDR, &found), 0x45);
  CHECK(found);
  CHECK_EQ(row_value(&t, UAL_F_PCIE_FC_DATA, &found), 0x6A0);
  CHECK(found);
  CHECK_EQ(row_value(&t, UAL_F_GEN_CRC_OK, &found), 1);
  CHECK(found);
  /* the delivered TLP bytes walk as MRd64 then 55 NOPs */
  struct ual_pcie_walk w;
  ual_pcie_walk_init(&w);
  unsigned at = 99;
  CHECK_EQ(ual_pcie_walk_flit(&w, r.flit.bytes, NULL, NULL, &at), UAL_PW_UNSYNCED);   /* locks */
  CHECK_EQ(ual_pcie_walk_flit(&w, r.flit.bytes, NULL, NULL, &at), UAL_PW_SYNCED);     /* confirms */
  CHECK_EQ(at, 0);
}

static void test_decode_errors(void) {
  uint8_t f[256], rec[264];
  build(f);
  f[100] ^= 0x5A;              /* one byte: FEC corrects it */
  size_t n = record(f, rec);
  struct ual_rec_result r;
  ual_decode_stateless(rec, n, 2, &r);
  CHECK_EQ(r.flit.fec.status, UAL_FEC_CORRECTED);
  CHECK_EQ(r.flit.valid, 1);
  CHECK(ual_findings_has(&r.findings, UAL_R_PL_FEC_CORRECTED));
  build(f);
  f[242] ^= 1;                 /* the CRC itself, re-sealed FEC: a CRC mismatch */
  ual_fec_encode(f);
  n = record(f, rec);
  ual_decode_stateless(rec, n, 3, &r);
  CHECK_EQ(r.flit.crc_ok, 0);
  CHECK_EQ(r.flit.valid, 0);
  CHECK(ual_findings_has(&r.findings, UAL_R_PL_CRC));
  /* a short body is malformed, not decoded */
  n = record(f, rec);
  ual_decode_stateless(rec, n - 1, 4, &r);
  CHECK(r.status != UAL_RS_OK);
}

/* ---- the flit-mode TLP rules through the analyzer ---- */

static unsigned put(uint8_t *f, unsigned dw, const uint8_t *tlp, unsigned n_dw) {
  memcpy(f + 4 * dw, tlp, 4 * n_dw);
  return dw + n_dw;
}

static void step_on(struct ual_analyzer *a, const struct lnk *l, const uint8_t tlp[236], unsigned seq, unsigned dir,
                    uint64_t frame, struct ual_rec_result *r) {
  uint8_t f[256] = { 0 }, rec[264];
  memcpy(f, tlp, 236);
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 0, UAL_RC_SEQ, (uint16_t)seq };
  struct ual_dllp d;
  memset(&d, 0, sizeof d);
  d.type = d.b[0] = 0x31;   /* NOP DLLP */
  ual_pcie_flit_seal(f, &fh, &d);
  size_t n = record_on(l, f, rec);
  rec[2] = (uint8_t)dir;
  struct ual_events ev;
  ual_events_init(&ev);
  ual_analyzer_step(a, rec, n, frame, frame * 4, r, &ev);
}

static void step(struct ual_analyzer *a, const uint8_t tlp[236], unsigned seq, unsigned dir, uint64_t frame,
                 struct ual_rec_result *r) {
  step_on(a, &rp_ep, tlp, seq, dir, frame, r);
}

/* Two all-NOP flits of direction dir of link l with sequence numbers
 * seq - 2 and seq - 1: the walk locks on the first and confirms on the
 * second (PF-SYNC there), so the flit with seq is walked in sync. */
static void sync_walk_on(struct ual_analyzer *a, const struct lnk *l, unsigned seq, unsigned dir,
                         struct ual_rec_result *r) {
  uint8_t t[236] = { 0 };
  step_on(a, l, t, (seq - 2) & 0x3FF, dir, 0, r);
  CHECK_EQ(r->findings.n, 0);
  step_on(a, l, t, (seq - 1) & 0x3FF, dir, 0, r);
  CHECK_EQ(r->findings.n, 1);
  CHECK_EQ(r->findings.v[0].rule, UAL_R_PF_SYNC);
}

static void sync_walk(struct ual_analyzer *a, unsigned seq, unsigned dir, struct ual_rec_result *r) {
  sync_walk_on(a, &rp_ep, seq, dir, r);
}

static unsigned count(const struct ual_rec_result *r, enum ual_rule id) {
  unsigned n = 0;
  for (unsigned i = 0; i < r->findings.n; i++) n += r->findings.v[i].rule == id;
  return n;
}

static void test_rules(void) {
  static struct ual_analyzer a;
  static struct ual_rec_result r;
  ual_analyzer_init(&a);
  uint8_t t[236] = { 0 };
  /* flit 1: a clean MWr32 (1 DW), a CfgWr0 with OHC-A3, NOPs */
  const uint8_t mwr[16] = { 0x40, 0, 0, 1, 0x01, 0, 0, 1, 0x10, 0, 0, 0, 0xAA, 0xBB, 0xCC, 0xDD };
  const uint8_t cfg_ok[20] = { 0x44, 1, 0, 1, 0x01, 0, 0, 2, 0x03, 0x25, 0, 0x10, 7, 0, 0x80, 0x0F, 1, 2, 3, 4 };
  unsigned dw = put(t, 0, mwr, 4);
  put(t, dw, cfg_ok, 5);
  sync_walk(&a, 1, 0, &r);
  step(&a, t, 1, 0, 1, &r);
  CHECK_EQ(r.findings.n, 0);
  /* flit 2: every rule once */
  memset(t, 0, sizeof t);
  const uint8_t cfg_bad[16] = { 0x44, 0, 0, 1, 0x01, 0, 0, 3, 0x03, 0x25, 0, 0x10, 1, 2, 3, 4 };   /* no OHC-A3 */
  const uint8_t nop_bad[4] = { 0x00, 0x00, 0x01, 0x00 };
  const uint8_t rsvd[8] = { 0x08, 0, 0, 0, 0, 0, 0, 0 };   /* reserved 08h: PR, 3 DW base, no data */
  const uint8_t ts_ide[20] = { 0x40, 0, 5 << 5, 1, 1, 0, 0, 4, 0x10, 0, 0, 0, 9, 9, 9, 9, 0, 0, 0, 0 };   /* + 3 DW trailer */
  /* CplD with OHC-C: RSV = 1 and Sub-Stream 011b */
  const uint8_t cpl_c[20] = { 0x4A, 0x04, 0, 1, 0x02, 0, 0, 5, 0x01, 0, 0, 4, 0, 0, 0, 0x38, 0xEE, 0xEE, 0xEE, 0xEE };
  dw = put(t, 0, cfg_bad, 4);
  dw = put(t, dw, nop_bad, 1);
  dw = put(t, dw, rsvd, 2) + 1;   /* 3 DW: 08h's base */
  dw = put(t, dw, ts_ide, 5) + 2; /* its 3-DW trailer: the last 2 are zero */
  put(t, dw, cpl_c, 5);
  step(&a, t, 2, 0, 2, &r);
  CHECK_EQ(count(&r, UAL_R_PF_OHC_MISSING), 1);
  CHECK_EQ(count(&r, UAL_R_PF_NOP_NONZERO), 1);
  CHECK_EQ(count(&r, UAL_R_PF_RSVD_TYPE), 1);
  CHECK_EQ(count(&r, UAL_R_PF_TS_IDE), 1);
  CHECK_EQ(count(&r, UAL_R_PF_CPL_RSV), 1);
  CHECK_EQ(count(&r, UAL_R_PF_SUBSTREAM), 1);
  CHECK_EQ(count(&r, UAL_R_PF_SYNC), 0);
  CHECK_EQ(r.findings.n, 6);
  /* a replayed copy of flit 2 is not delivered again */
  step(&a, t, 2, 0, 3, &r);
  CHECK_EQ(r.findings.n, 0);
  /* the other direction has its own walk: it locks past the reserved type
   * (DW 8) and confirms on a flit of NOPs */
  step(&a, t, 7, 1, 4, &r);
  CHECK_EQ(r.findings.n, 0);
  CHECK(a.fab.pcie.lk[0].fl[1].walk.confirm > 0);
  memset(t, 0, sizeof t);
  step(&a, t, 8, 1, 5, &r);
  CHECK_EQ(count(&r, UAL_R_PF_SYNC), 1);
}

/* Request/completion pairing and latency on one link. */
static void one_tlp(struct ual_analyzer *a, const uint8_t *tlp, unsigned n_dw, unsigned seq, unsigned dir,
                    uint64_t frame, struct ual_rec_result *r) {
  uint8_t t[236] = { 0 };
  put(t, 0, tlp, n_dw);
  step(a, t, seq, dir, frame, r);
}

static void test_pairs(void) {
  static struct ual_analyzer a;
  static struct ual_rec_result r;
  ual_analyzer_init(&a);
  const struct ual_pcie_link_an *p = &a.fab.pcie.lk[0];
  /* MRd64 from A: Requester 0100h, Tag 1005h, 16 bytes */
  uint8_t mrd[16] = { 0x20, 0, 0, 4, 0x01, 0x00, 0x10, 0x05, 0, 0, 0, 0, 0, 0, 0x10, 0 };
  /* CplD from B: Completer 0200h, Tag 1005h, Destination 0100h, Byte Count 16, 4 DW */
  uint8_t cpl[28] = { 0x4A, 0, 0, 4, 0x02, 0x00, 0x10, 0x05, 0x01, 0x00, 0x00, 16 };
  sync_walk(&a, 10, 0, &r);
  sync_walk(&a, 20, 1, &r);
  one_tlp(&a, mrd, 4, 10, 0, 10, &r);        /* ts 40 */
  CHECK_EQ(p->fl[0].outstanding, 1);
  one_tlp(&a, cpl, 7, 20, 1, 11, &r);        /* ts 44 */
  CHECK_EQ(r.findings.n, 0);
  CHECK_EQ(p->fl[1].pairs, 1);
  CHECK_EQ(p->fl[0].outstanding, 0);
  CHECK_EQ(p->fl[1].lat[0x20].n, 1);
  CHECK_EQ(p->fl[1].lat[0x20].sum_ns, 4);
  /* a split completion: Byte Count 32 in the first 16-byte part */
  mrd[7] = 0x06;
  cpl[7] = 0x06;
  one_tlp(&a, mrd, 4, 11, 0, 12, &r);        /* ts 48 */
  cpl[11] = 32;
  one_tlp(&a, cpl, 7, 21, 1, 13, &r);
  CHECK_EQ(p->fl[1].split_parts, 1);
  CHECK_EQ(p->fl[1].pairs, 1);
  cpl[11] = 16;
  one_tlp(&a, cpl, 7, 22, 1, 14, &r);        /* ts 56: 8 ns after its request */
  CHECK_EQ(p->fl[1].pairs, 2);
  CHECK_EQ(p->fl[1].lat[0x20].min_ns, 4);
  CHECK_EQ(p->fl[1].lat[0x20].max_ns, 8);
  CHECK_EQ(p->fl[1].lat[0x20].sum_ns, 12);
  /* a completion nobody asked for on this capture: counted, not a finding */
  cpl[7] = 0x09;
  one_tlp(&a, cpl, 7, 23, 1, 15, &r);
  CHECK_EQ(p->fl[1].cpl_unmatched, 1);
  CHECK_EQ(r.findings.n, 0);
}

/* ---- hierarchy-segment rules (pcie.md §4, one link) ---- */

struct seg_tx {
  struct ual_analyzer *a;
  struct ual_rec_result r;
  unsigned seq[2];
  uint64_t frame;
};

/* One TLP of n DW (then NOPs) in the next flit of dir; returns the
 * number of findings of rule. */
static unsigned seg_tlp(struct seg_tx *t, unsigned dir, const uint8_t *tlp, unsigned n, enum ual_rule rule) {
  uint8_t f[236] = { 0 };
  put(f, 0, tlp, n);
  step(t->a, f, t->seq[dir]++, dir, ++t->frame, &t->r);
  return count(&t->r, rule);
}

static void event_on(struct seg_tx *t, const struct lnk *l, unsigned code) {
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, UAL_REC_EVENT, 0);
  h.link = l->index;
  h.roles_pcie = 1;
  h.role_a = l->role_a;
  h.role_b = l->role_b;
  struct ual_event e = { (uint16_t)code, 0, 0 };
  uint8_t body[UAL_REC_EVENT_BYTES], rec[64];
  ual_event_build(&e, body);
  size_t n = ual_record_build(&h, body, sizeof body, rec, sizeof rec);
  t->frame++;
  ual_analyzer_step(t->a, rec, n, t->frame, t->frame * 4, &t->r, NULL);
}

static void seg_event(struct seg_tx *t, unsigned code) { event_on(t, &rp_ep, code); }

static void seg_init(struct seg_tx *t, struct ual_analyzer *a) {
  memset(t, 0, sizeof *t);
  t->a = a;
  t->seq[0] = t->seq[1] = 1;
  ual_analyzer_init(a);
}

/* A 64-bit memory request of 1 DW at address 0 (MWr64 60h carries a zero
 * DW, MRd64 20h asks for it) from rid with Tag tag, with OHC-C Requester
 * Segment rseg (RSV 1, Sub-Stream 111b) when rseg >= 0; its DW count. */
static unsigned mem64(uint8_t *b, unsigned type, unsigned rid, unsigned tag, int rseg) {
  memset(b, 0, 32);
  ual_field_put(UAL_F_PCIE_TLP_TYPE, b, type);
  ual_field_put(UAL_F_PCIE_TLP_OHC, b, rseg >= 0 ? 4 : 0);
  ual_field_put(UAL_F_PCIE_TLP_LENGTH, b, 1);
  ual_field_put(UAL_F_PCIE_REQ_RID, b, rid);
  ual_field_put(UAL_F_PCIE_REQ_TAG, b, tag);
  unsigned n = 4 + (type == 0x60);
  if (rseg < 0) return n;
  ual_field_put(UAL_F_PCIE_C_RSEG, b + 16, (unsigned)rseg);
  ual_field_put(UAL_F_PCIE_C_SUBSTREAM, b + 16, 7);
  ual_field_put(UAL_F_PCIE_C_RSV, b + 16, 1);
  return n + 1;
}

static unsigned mwr(uint8_t *b, unsigned rid, int rseg) { return mem64(b, 0x60, rid, 0, rseg); }

/* A Type 0 (04h read, 44h write) or Type 1 configuration request of 1 DW
 * to target with OHC-A3 DSV 1 Destination Segment dseg; its DW count. */
static unsigned cfg_a3(uint8_t *b, unsigned type, unsigned rid, unsigned tag, unsigned target, unsigned dseg) {
  memset(b, 0, 32);
  ual_field_put(UAL_F_PCIE_TLP_TYPE, b, type);
  ual_field_put(UAL_F_PCIE_TLP_OHC, b, 1);
  ual_field_put(UAL_F_PCIE_TLP_LENGTH, b, 1);
  ual_field_put(UAL_F_PCIE_REQ_RID, b, rid);
  ual_field_put(UAL_F_PCIE_REQ_TAG, b, tag);
  ual_field_put(UAL_F_PCIE_CFG_CID, b, target);
  ual_field_put(UAL_F_PCIE_A3_DSV, b + 12, 1);
  ual_field_put(UAL_F_PCIE_A3_DSEG, b + 12, dseg);
  ual_field_put(UAL_F_PCIE_A3_FBE, b + 12, 0xF);
  return 4 + (ual_pcie_tlp_type(type)->data ? 1u : 0u);
}

/* A completion (0Ah, or 4Ah with 1 DW) of Byte Count 4 from cid to
 * dest's Tag tag, with OHC-A5: Completer Segment cseg, DSV 1 and
 * Destination Segment dseg when dseg >= 0; its DW count. */
static unsigned cpl_a5(uint8_t *b, unsigned type, unsigned cid, unsigned dest, unsigned tag, int dseg, unsigned cseg) {
  memset(b, 0, 32);
  ual_field_put(UAL_F_PCIE_TLP_TYPE, b, type);
  ual_field_put(UAL_F_PCIE_TLP_OHC, b, 1);
  ual_field_put(UAL_F_PCIE_TLP_LENGTH, b, type == 0x4A);
  ual_field_put(UAL_F_PCIE_CPL_CID, b, cid);
  ual_field_put(UAL_F_PCIE_CPL_TAG, b, tag);
  ual_field_put(UAL_F_PCIE_CPL_DEST, b, dest);
  ual_field_put(UAL_F_PCIE_CPL_BC, b, 4);
  ual_field_put(UAL_F_PCIE_A5_DSV, b + 12, dseg >= 0);
  ual_field_put(UAL_F_PCIE_A5_DSEG, b + 12, dseg >= 0 ? (unsigned)dseg : 0);
  ual_field_put(UAL_F_PCIE_A5_CSEG, b + 12, cseg);
  return 4 + (type == 0x4A);
}

static void test_segments(void) {
  static struct ual_analyzer a;
  struct seg_tx t;
  uint8_t b[64];
  /* start anywhere: no reset seen, no capturing write: nothing is judged */
  seg_init(&t, &a);
  sync_walk(&a, 1, 1, &t.r);
  CHECK_EQ(seg_tlp(&t, 1, b, mwr(b, 0x0100, 3), UAL_R_PS_REQ_CLEAR_NOC), 0);
  CHECK_EQ(t.r.findings.n, 0);
  /* a preset Clear (the profile) is judged */
  CHECK(ual_pcie_an_preset(&a.fab.pcie, 0x0100, -1));
  CHECK_EQ(seg_tlp(&t, 1, b, mwr(b, 0x0100, 3), UAL_R_PS_REQ_CLEAR_NOC), 1);

  /* from link-up: Clear, then a capturing CfgWr0 and its completion */
  seg_init(&t, &a);
  seg_event(&t, UAL_EV_RX_DETECT);
  CHECK_EQ(seg_tlp(&t, 1, b, mwr(b, 0x0100, -1), UAL_R_PF_SYNC), 0);   /* in sync from the first flit */
  CHECK_EQ(t.r.findings.n, 0);
  CHECK_EQ(seg_tlp(&t, 1, b, mwr(b, 0x0100, 3), UAL_R_PS_REQ_CLEAR_NOC), 1);
  /* CfgWr0 to 01:00.0, Tag 5, OHC-A3 DSV 1 Destination Segment 03h */
  uint8_t cw[32];
  CHECK_EQ(seg_tlp(&t, 0, cw, cfg_a3(cw, 0x44, 0x0008, 5, 0x0100, 3), UAL_R_PS_REQ_CLEAR_NOC), 0);
  unsigned seg = 0;
  CHECK_EQ(ual_pcie_seg_of(&a.fab.pcie, &a.fab.pcie.lk[0], 0x0100, true, &seg), UAL_SEG_UNKNOWN);   /* pending */
  CHECK_EQ(seg_tlp(&t, 1, b, mwr(b, 0x0100, 4), UAL_R_PS_REQ_RSEG_VALUE), 0);
  CHECK_EQ(t.r.findings.n, 0);
  /* its completion, OHC-A5 Completer Segment 03h: Set */
  uint8_t cpl[32];
  CHECK_EQ(seg_tlp(&t, 1, cpl, cpl_a5(cpl, 0x0A, 0x0100, 0x0008, 5, -1, 3), UAL_R_PS_CPL_SEG_SET), 0);
  CHECK_EQ(t.r.findings.n, 0);
  CHECK_EQ(ual_pcie_seg_of(&a.fab.pcie, &a.fab.pcie.lk[0], 0x0100, true, &seg), UAL_SEG_SET);
  CHECK_EQ(seg, 3);
  CHECK_EQ(ual_pcie_seg_of(&a.fab.pcie, &a.fab.pcie.lk[0], 0x0101, true, &seg), UAL_SEG_CLEAR);   /* the other function */
  CHECK_EQ(seg_tlp(&t, 1, b, mwr(b, 0x0100, 3), UAL_R_PS_REQ_RSEG_VALUE), 0);
  CHECK_EQ(t.r.findings.n, 0);
  CHECK_EQ(seg_tlp(&t, 1, b, mwr(b, 0x0100, 4), UAL_R_PS_REQ_RSEG_VALUE), 1);
  CHECK_EQ(seg_tlp(&t, 1, b, mwr(b, 0x0101, 3), UAL_R_PS_REQ_CLEAR_NOC), 1);
  /* Set: a message needs OHC-C */
  uint8_t m[16] = { 0 };
  ual_field_put(UAL_F_PCIE_TLP_TYPE, m, 0x30);
  ual_field_put(UAL_F_PCIE_MSG_RID, m, 0x0100);
  CHECK_EQ(seg_tlp(&t, 1, m, 4, UAL_R_PS_REQ_MSG_RSEG), 1);
  /* Set: an ID-routed message to 02:00.0, which the profile puts in segment
   * 05h, needs OHC-A4 DSV 1 Destination Segment 05h; without the profile
   * the target's hierarchy is unknown */
  uint8_t im[24] = { 0 };
  ual_field_put(UAL_F_PCIE_TLP_TYPE, im, 0x32);
  ual_field_put(UAL_F_PCIE_TLP_OHC, im, 4);
  ual_field_put(UAL_F_PCIE_MSG_RID, im, 0x0100);
  im[8] = 0x02;
  ual_field_put(UAL_F_PCIE_C_RSEG, im + 16, 3);
  ual_field_put(UAL_F_PCIE_C_SUBSTREAM, im + 16, 7);
  ual_field_put(UAL_F_PCIE_C_RSV, im + 16, 1);
  CHECK_EQ(seg_tlp(&t, 1, im, 5, UAL_R_PS_REQ_ID_DSV_SET), 0);
  CHECK_EQ(t.r.findings.n, 0);
  CHECK(ual_pcie_an_preset(&a.fab.pcie, 0x0200, 5));
  CHECK_EQ(seg_tlp(&t, 1, im, 5, UAL_R_PS_REQ_ID_DSV_SET), 1);
  /* with OHC-A4 (before OHC-C): DSV 1 and 05h pass, 04h does not */
  uint8_t ia[24] = { 0 };
  memcpy(ia, im, 16);
  ual_field_put(UAL_F_PCIE_TLP_OHC, ia, 5);
  memcpy(ia + 20, im + 16, 4);
  ual_field_put(UAL_F_PCIE_A4_DSV, ia + 16, 1);
  ual_field_put(UAL_F_PCIE_A4_DSEG, ia + 16, 5);
  CHECK_EQ(seg_tlp(&t, 1, ia, 6, UAL_R_PS_REQ_ID_DSV_SET), 0);
  CHECK_EQ(t.r.findings.n, 0);
  ual_field_put(UAL_F_PCIE_A4_DSEG, ia + 16, 4);
  CHECK_EQ(seg_tlp(&t, 1, ia, 6, UAL_R_PS_REQ_ID_DSV_SET), 1);
  /* a target the profile puts in the requester's own segment: optional */
  CHECK(ual_pcie_an_preset(&a.fab.pcie, 0x0200, 3));
  CHECK_EQ(seg_tlp(&t, 1, im, 5, UAL_R_PS_REQ_ID_DSV_SET), 0);
  CHECK_EQ(t.r.findings.n, 0);
  /* a read with First DW BE 0100b (Lower Address 10b): its completion needs OHC-A5 */
  uint8_t rd[16] = { 0 };
  ual_field_put(UAL_F_PCIE_TLP_TYPE, rd, 0x03);
  ual_field_put(UAL_F_PCIE_TLP_OHC, rd, 1);
  ual_field_put(UAL_F_PCIE_TLP_LENGTH, rd, 1);
  ual_field_put(UAL_F_PCIE_REQ_RID, rd, 0x0008);
  ual_field_put(UAL_F_PCIE_REQ_TAG, rd, 6);
  ual_field_put(UAL_F_PCIE_A1_FBE, rd + 12, 0x4);
  CHECK_EQ(seg_tlp(&t, 0, rd, 4, UAL_R_PS_TO_TAG_UNIQUE), 0);
  CHECK_EQ(seg_tlp(&t, 0, rd, 4, UAL_R_PS_TO_TAG_UNIQUE), 1);   /* the same Tag again, outstanding */
  uint8_t cd[16] = { 0 };
  ual_field_put(UAL_F_PCIE_TLP_TYPE, cd, 0x4A);
  ual_field_put(UAL_F_PCIE_TLP_LENGTH, cd, 1);
  ual_field_put(UAL_F_PCIE_CPL_CID, cd, 0x0100);
  ual_field_put(UAL_F_PCIE_CPL_TAG, cd, 6);
  ual_field_put(UAL_F_PCIE_CPL_DEST, cd, 0x0008);
  ual_field_put(UAL_F_PCIE_CPL_BC, cd, 2);
  CHECK_EQ(seg_tlp(&t, 1, cd, 4, UAL_R_PS_CPL_A5_OMIT), 1);
  CHECK_EQ(t.r.findings.n, 1);
}

/* ---- the rules of two links (pcie.md §4 two-link correlation) ----
 * Each case runs a broken twin, which must raise its rule once at the
 * copy that breaks it and nothing else, and a clean twin that raises
 * nothing. A switch: link 0 its upstream link (A Root Port, B the
 * Upstream Port 01:00.0), link 1 a downstream one (A a Downstream Port, B
 * an Endpoint). A Root Complex: links 0-2 from Root Ports (B Endpoints)
 * whose hierarchy segments are 03h, 05h and 07h. */

struct xl_tx {
  struct seg_tx s;           /* the analyzer, the last result, frames */
  struct lnk lk[3];
  unsigned seq[3][2];
  unsigned total;            /* findings of every TLP record */
};

/* Link i joins; detect: it comes up from Detect (the functions below are
 * Clear), else its walks sync on NOP flits and segment state is unknown. */
static void xl_link(struct xl_tx *t, unsigned i, unsigned role_a, unsigned role_b, bool detect) {
  t->lk[i] = (struct lnk){ (uint8_t)i, (uint8_t)role_a, (uint8_t)role_b };
  t->seq[i][0] = t->seq[i][1] = 1;
  if (detect) {
    event_on(&t->s, &t->lk[i], UAL_EV_RX_DETECT);
    return;
  }
  sync_walk_on(t->s.a, &t->lk[i], 1, 0, &t->s.r);
  sync_walk_on(t->s.a, &t->lk[i], 1, 1, &t->s.r);
}

/* One TLP in the next flit of link i's direction dir; the findings of rule. */
static unsigned xl_tlp(struct xl_tx *t, unsigned i, unsigned dir, const uint8_t *tlp, unsigned n, enum ual_rule rule) {
  uint8_t f[236] = { 0 };
  put(f, 0, tlp, n);
  step_on(t->s.a, &t->lk[i], f, t->seq[i][dir]++, dir, ++t->s.frame, &t->s.r);
  t->total += t->s.r.findings.n;
  return count(&t->s.r, rule);
}

static void xl_init(struct xl_tx *t, struct ual_analyzer *a) {
  memset(t, 0, sizeof *t);
  seg_init(&t->s, a);
}

/* The switch, its upstream link from Detect (Segment Captured Clear) or not. */
static void sw_links(struct xl_tx *t, bool clear) {
  xl_link(t, 0, RP, USP, clear);
  xl_link(t, 1, DSP, EP, false);
}

/* The switch Set to 03h: a capturing CfgWr0 to its Upstream Port and the completion. */
static void sw_set(struct xl_tx *t) {
  uint8_t b[32];
  sw_links(t, false);
  xl_tlp(t, 0, 0, b, cfg_a3(b, 0x44, 0x0008, 1, 0x0100, 3), UAL_R_COUNT);
  xl_tlp(t, 0, 1, b, cpl_a5(b, 0x0A, 0x0100, 0x0008, 1, -1, 3), UAL_R_COUNT);
  unsigned seg = 0;
  CHECK_EQ(ual_pcie_seg_of(&t->s.a->fab.pcie, &t->s.a->fab.pcie.lk[0], 0x0100, true, &seg), UAL_SEG_SET);
  CHECK_EQ(seg, 3);
}

/* An MWr64 with Requester Segment 03h down through the switch, its copy with 04h. */
static unsigned x_sw_fm_keep(struct xl_tx *t, bool bad) {
  uint8_t b[32];
  sw_links(t, false);
  xl_tlp(t, 0, 0, b, mem64(b, 0x60, 0x0008, 0, 3), UAL_R_COUNT);
  return xl_tlp(t, 1, 0, b, mem64(b, 0x60, 0x0008, 0, bad ? 4 : 3), UAL_R_PS_SW_FM_KEEP);
}

/* A CplD for segment 05h (not the switch's 03h) going down. */
static unsigned x_sw_dseg_up(struct xl_tx *t, bool bad) {
  uint8_t b[32];
  sw_set(t);
  unsigned n = cpl_a5(b, 0x4A, 0x0200, 0x0300, 2, bad ? 5 : 3, 5);
  xl_tlp(t, 0, 0, b, n, UAL_R_COUNT);
  return xl_tlp(t, 1, 0, b, n, UAL_R_PS_SW_DSEG_UP);
}

/* An Endpoint MWr64 with Requester Segment 05h (not the switch's 03h) going up. */
static unsigned x_sw_dsp_block(struct xl_tx *t, bool bad) {
  uint8_t b[32];
  sw_set(t);
  unsigned n = mem64(b, 0x60, 0x0200, 0, bad ? 5 : 3);
  xl_tlp(t, 1, 1, b, n, UAL_R_COUNT);
  return xl_tlp(t, 0, 1, b, n, UAL_R_PS_SW_DSP_BLOCK);
}

/* A Clear switch passing a CplD with DSV 1 down. */
static unsigned x_sw_clear_dsv(struct xl_tx *t, bool bad) {
  uint8_t b[32];
  sw_links(t, true);
  unsigned n = cpl_a5(b, 0x4A, 0x0200, 0x0300, 2, bad ? 3 : -1, 0);
  xl_tlp(t, 0, 0, b, n, UAL_R_COUNT);
  return xl_tlp(t, 1, 0, b, n, UAL_R_PS_SW_CLEAR_DSV);
}

/* A Clear switch passing an MWr64 with OHC-C down. */
static unsigned x_sw_clear_rseg(struct xl_tx *t, bool bad) {
  uint8_t b[32];
  sw_links(t, true);
  unsigned n = mem64(b, 0x60, 0x0008, 0, bad ? 3 : -1);
  xl_tlp(t, 0, 0, b, n, UAL_R_COUNT);
  return xl_tlp(t, 1, 0, b, n, UAL_R_PS_SW_CLEAR_RSEG);
}

/* Root Port links 0..n-1, hierarchy segment 3 + 2i (a CfgRd0 with DSV 1 each). */
static void rc_links(struct xl_tx *t, unsigned n) {
  uint8_t b[32];
  for (unsigned i = 0; i < n; i++) {
    xl_link(t, i, RP, EP, false);
    xl_tlp(t, i, 0, b, cfg_a3(b, 0x04, 0x0008, 0x10 + i, 0x0100, 3 + 2 * i), UAL_R_COUNT);
  }
}

/* An Endpoint MRd64 (01:00.0 Tag 7, Requester Segment 03h) up link 0
 * passed through down link 1, and its CplD from 05:00.0 up link 1. */
static void rc_pass(struct xl_tx *t, unsigned links) {
  uint8_t b[32];
  rc_links(t, links);
  unsigned n = mem64(b, 0x20, 0x0100, 7, 3);
  xl_tlp(t, 0, 1, b, n, UAL_R_COUNT);
  xl_tlp(t, 1, 0, b, n, UAL_R_COUNT);
  xl_tlp(t, 1, 1, b, cpl_a5(b, 0x4A, 0x0500, 0x0100, 7, 3, 5), UAL_R_COUNT);
}

/* The passed-through MRd64 came without OHC-C and left without it. */
static unsigned x_pt_add_rseg(struct xl_tx *t, bool bad) {
  uint8_t b[32];
  rc_links(t, 2);
  xl_tlp(t, 0, 1, b, mem64(b, 0x20, 0x0100, 7, -1), UAL_R_COUNT);
  return xl_tlp(t, 1, 0, b, mem64(b, 0x20, 0x0100, 7, bad ? -1 : 3), UAL_R_PS_PT_ADD_RSEG);
}

/* The CplD for segment 03h sent down link 2 (segment 07h), not link 0. */
static unsigned x_pt_cpl_route(struct xl_tx *t, bool bad) {
  uint8_t b[32];
  rc_pass(t, 3);
  return xl_tlp(t, bad ? 2 : 0, 0, b, cpl_a5(b, 0x4A, 0x0500, 0x0100, 7, 3, 5), UAL_R_PS_PT_CPL_ROUTE);
}

/* The CplD sent back with Tag 8 instead of 7. */
static unsigned x_pt_cpl_keep(struct xl_tx *t, bool bad) {
  uint8_t b[32];
  rc_pass(t, 2);
  return xl_tlp(t, 0, 0, b, cpl_a5(b, 0x4A, 0x0500, 0x0100, bad ? 8 : 7, 3, 5), UAL_R_PS_PT_CPL_KEEP);
}

/* The CplD sent back with its OHC-A5 Completer Segment changed (05h -> 03h). */
static unsigned x_pt_cpl_keep_a5(struct xl_tx *t, bool bad) {
  uint8_t b[32];
  rc_pass(t, 2);
  return xl_tlp(t, 0, 0, b, cpl_a5(b, 0x4A, 0x0500, 0x0100, 7, 3, bad ? 3 : 5), UAL_R_PS_PT_CPL_KEEP);
}

/* A pass-through to link 1, whose No NFM Subtree Below is clear (broken) or set. */
static unsigned x_to_required(struct xl_tx *t, bool bad) {
  uint8_t b[32];
  rc_links(t, 2);
  ual_pcie_an_nfm_subtree(&t->s.a->fab.pcie, 1, !bad);
  unsigned n = mem64(b, 0x20, 0x0100, 7, 3);
  xl_tlp(t, 0, 1, b, n, UAL_R_COUNT);
  return xl_tlp(t, 1, 0, b, n, UAL_R_PS_TO_REQUIRED);
}

/* The RC takes the Endpoint's MRd64 over as 00:02.0 Tag 20h with
 * Requester Segment rseg; the findings of PS-TO-EGRESS-RSEG there. */
static unsigned rc_takeover(struct xl_tx *t, unsigned rseg) {
  uint8_t b[32];
  rc_links(t, 2);
  ual_pcie_an_nfm_subtree(&t->s.a->fab.pcie, 1, false);
  xl_tlp(t, 0, 1, b, mem64(b, 0x20, 0x0100, 7, 3), UAL_R_COUNT);
  return xl_tlp(t, 1, 0, b, mem64(b, 0x20, 0x0010, 0x20, (int)rseg), UAL_R_PS_TO_EGRESS_RSEG);
}

/* The taken-over request's completion leaves with the RC's ID, not restored. */
static unsigned x_to_restore(struct xl_tx *t, bool bad) {
  uint8_t b[32];
  rc_takeover(t, 5);
  xl_tlp(t, 1, 1, b, cpl_a5(b, 0x4A, 0x0500, 0x0010, 0x20, 5, 5), UAL_R_COUNT);
  unsigned n = bad ? cpl_a5(b, 0x4A, 0x0500, 0x0010, 0x20, 3, 5) : cpl_a5(b, 0x4A, 0x0500, 0x0100, 7, 3, 5);
  return xl_tlp(t, 0, 0, b, n, UAL_R_PS_TO_RESTORE);
}

/* The takeover carries Requester Segment 03h (link 0's), not link 1's 05h. */
static unsigned x_to_egress_rseg(struct xl_tx *t, bool bad) { return rc_takeover(t, bad ? 3 : 5); }

static void test_xlink(void) {
  static const struct {
    enum ual_rule rule;
    unsigned (*run)(struct xl_tx *, bool);
  } cases[] = {
    { UAL_R_PS_SW_FM_KEEP, x_sw_fm_keep },       { UAL_R_PS_SW_DSEG_UP, x_sw_dseg_up },
    { UAL_R_PS_SW_DSP_BLOCK, x_sw_dsp_block },   { UAL_R_PS_SW_CLEAR_DSV, x_sw_clear_dsv },
    { UAL_R_PS_SW_CLEAR_RSEG, x_sw_clear_rseg }, { UAL_R_PS_PT_ADD_RSEG, x_pt_add_rseg },
    { UAL_R_PS_PT_CPL_ROUTE, x_pt_cpl_route },   { UAL_R_PS_PT_CPL_KEEP, x_pt_cpl_keep },
    { UAL_R_PS_TO_REQUIRED, x_to_required },     { UAL_R_PS_TO_RESTORE, x_to_restore },
    { UAL_R_PS_TO_EGRESS_RSEG, x_to_egress_rseg }, { UAL_R_PS_PT_CPL_KEEP, x_pt_cpl_keep_a5 },
  };
  static struct ual_analyzer a;
  struct xl_tx t;
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int bad = 0; bad < 2; bad++) {
      xl_init(&t, &a);
      unsigned at = cases[i].run(&t, bad);
      if (at != (unsigned)bad || t.total != (unsigned)bad)
        fprintf(stderr, "  %s %s: %u at the copy, %u findings in all\n", ual_rule_id(cases[i].rule), bad ? "broken" : "clean",
                at, t.total);
      CHECK_EQ(at, (unsigned)bad);
      CHECK_EQ(t.total, (unsigned)bad);
    }
}

/* PS-CPL-DSEG-NONE is the completer's rule (seed 004 L126), not the RC's
 * copy (L40). Clean: an Endpoint's MRd64 without OHC-C passed through
 * from link 0 to link 1 with the ingress Root Port's Requester Segment
 * 03h added; 05:00.0 completes it with DSV 1, Destination Segment 03h;
 * the RC passes that CplD down link 0 as it came (DSV 1, though the
 * request on link 0 carried no Requester Segment). Broken: the RC takes
 * the request over without OHC-C (L47 allows it) and 05:00.0 still
 * completes with DSV 1: raised at that completion, on link 1. */
static void test_cpl_dseg_none(void) {
  static struct ual_analyzer a;
  struct xl_tx t;
  uint8_t b[32];
  for (int bad = 0; bad < 2; bad++) {
    xl_init(&t, &a);
    rc_links(&t, 2);
    if (bad) ual_pcie_an_nfm_subtree(&t.s.a->fab.pcie, 1, false);
    CHECK_EQ(xl_tlp(&t, 0, 1, b, mem64(b, 0x20, 0x0100, 7, -1), UAL_R_COUNT), 0);
    unsigned rid = bad ? 0x0010 : 0x0100, tag = bad ? 0x20 : 7;
    CHECK_EQ(xl_tlp(&t, 1, 0, b, mem64(b, 0x20, rid, tag, bad ? -1 : 3), UAL_R_COUNT), 0);
    CHECK_EQ(xl_tlp(&t, 1, 1, b, cpl_a5(b, 0x4A, 0x0500, rid, tag, 3, 5), UAL_R_PS_CPL_DSEG_NONE), (unsigned)bad);
    CHECK_EQ(t.total, (unsigned)bad);
    /* the completion leaves down link 0 with the original ID: the pass-through
     * keeps OHC-A5, the takeover's RC completes a request without Requester Segment */
    CHECK_EQ(xl_tlp(&t, 0, 0, b, cpl_a5(b, 0x4A, 0x0500, 0x0100, 7, bad ? -1 : 3, 5), UAL_R_COUNT), 0);
    CHECK_EQ(t.total, (unsigned)bad);
  }
}

/* Issue 42: takeover matching needs the request seen. The RC took
 * 01:00.0's MRd64 Tag 7 over (00:02.0 Tag 20h on link 1) and its CplD came
 * up; before it is restored, the RC sends down link 0 a CplD from the same
 * completer for 01:00.0 Tag 9, a request the capture never saw (sent before
 * it began): not a takeover left unrestored. Broken twin: the CplD leaves
 * with the takeover's 00:02.0 Tag 20h. Then the restored CplD. */
static void test_takeover_unseen(void) {
  static struct ual_analyzer a;
  struct xl_tx t;
  uint8_t b[32];
  for (int bad = 0; bad < 2; bad++) {
    xl_init(&t, &a);
    rc_takeover(&t, 5);
    xl_tlp(&t, 1, 1, b, cpl_a5(b, 0x4A, 0x0500, 0x0010, 0x20, 5, 5), UAL_R_COUNT);
    CHECK_EQ(t.total, 0);
    unsigned n = bad ? cpl_a5(b, 0x4A, 0x0500, 0x0010, 0x20, 3, 5) : cpl_a5(b, 0x4A, 0x0500, 0x0100, 9, 3, 5);
    CHECK_EQ(xl_tlp(&t, 0, 0, b, n, UAL_R_PS_TO_RESTORE), (unsigned)bad);
    CHECK_EQ(t.total, (unsigned)bad);
    if (!bad) {
      CHECK_EQ(xl_tlp(&t, 0, 0, b, cpl_a5(b, 0x4A, 0x0500, 0x0100, 7, 3, 5), UAL_R_COUNT), 0);
      CHECK_EQ(t.total, 0);
    }
  }
}

int main(void) {
  test_takeover_unseen();
  test_cpl_dseg_none();
  test_xlink();
  test_segments();
  test_pairs();
  test_decode_clean();
  test_decode_errors();
  test_rules();
  return check_done("test_pcie_flit");
}
