/* The non-flit data link tracker and transaction tracking (pcie.md §7.5,
 * §7.6) through the analyzer's dispatch, on kind-7 records built with the
 * kind-7 encoders: the scenario vectors S1-S15 of §7.5.5 raise exactly the
 * findings the table lists, the timing rules (§7.5.4), PM, the sync and
 * desync events of §7.5.2 D, the transaction rules, and kind-7 DLLPs going
 * through the kind-4 DLLP analysis. */
#include "pcie_an_tx.h"
#include <ualink/pcie/nonflit.h>

/* 2.5 GT/s x1: every record here ends before the next starts (GAP_NS) */
static void nf_init(struct tx *t) {
  tx_init(t);
  t->rate = 1;
  t->width = 1;
}

/* A whole TLP as kind 7 (nullified: EDB and the inverted LCRC). lcrc_flip:
 * XORed into LCRC byte 0. */
static size_t tlp_body(struct tx *t, unsigned seq, const uint8_t *tlp, size_t n, bool nullify, uint8_t lcrc_flip,
                       uint8_t *body, size_t cap) {
  size_t len = ual_pcie_nf_build_tlp(t->encoding, seq, tlp, n, nullify, 0, body, cap);
  CHECK(len > 0);
  size_t lcrc = len - 4 - (t->encoding == UAL_PCIE_NF_STRIPPED ? 0 : t->encoding == UAL_PCIE_NF_8B10B ? 1 : nullify ? 4 : 0);
  body[lcrc] ^= lcrc_flip;
  return len;
}

static void tlp(struct tx *t, unsigned dir, unsigned seq, const uint8_t *b, size_t n) {
  uint8_t body[256];
  rec(t, dir, UAL_REC_PCIE_NF, body, tlp_body(t, seq, b, n, false, 0, body, sizeof body));
}

/* M(s,d) of §7.5.5: MWr32 40000001 0000000f 00001000 + d, big-endian. */
static void m_bytes(unsigned d, uint8_t out[16]) {
  static const uint8_t h[12] = { 0x40, 0, 0, 1, 0, 0, 0, 0x0f, 0, 0, 0x10, 0 };
  memcpy(out, h, 12);
  out[12] = (uint8_t)(d >> 24);
  out[13] = (uint8_t)(d >> 16);
  out[14] = (uint8_t)(d >> 8);
  out[15] = (uint8_t)d;
}

static void m_rec(struct tx *t, unsigned seq, unsigned d, bool nullify, uint8_t flip) {
  uint8_t m[16], body[64];
  m_bytes(d, m);
  rec(t, A, UAL_REC_PCIE_NF, body, tlp_body(t, seq, m, 16, nullify, flip, body, sizeof body));
}
static void M(struct tx *t, unsigned seq, unsigned d) { m_rec(t, seq, d, false, 0); }

static void dllp7(struct tx *t, unsigned dir, const struct ual_pcie_dllp *d) {
  uint8_t six[8], body[32];
  ual_pcie_dllp_encode(d, six);   /* kind-4 body: framing, reserved, 6 bytes */
  size_t n = ual_pcie_nf_build_dllp(t->encoding, six + 2, body, sizeof body);
  CHECK(n > 0);
  rec(t, dir, UAL_REC_PCIE_NF, body, n);
}

static void simple(struct tx *t, unsigned dir, unsigned type, unsigned seq) {
  struct ual_pcie_dllp d = {0};
  d.type = (uint8_t)type;
  d.seq = (uint16_t)seq;
  dllp7(t, dir, &d);
}
static void ack(struct tx *t, unsigned seq) { simple(t, B, 0x00, seq); }
static void nak(struct tx *t, unsigned seq) { simple(t, B, 0x10, seq); }

/* The same DLLP as kind 4. */
static void simple4(struct tx *t, unsigned dir, unsigned type, unsigned seq) {
  struct ual_pcie_dllp d = {0};
  d.type = (uint8_t)type;
  d.seq = (uint16_t)seq;
  dllp(t, dir, &d);
}

/* --- the digest's vectors --- */

static void test_vectors(struct tx *t) {
  static const uint8_t m00[] = { 0x00, 0x01, 0x18, 0x00, 0xfb, 0x00, 0x00, 0x40, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x0f,
                                 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x78, 0x2d, 0x9c, 0x48, 0xfd };
  uint8_t m[16], body[64];
  m_bytes(0, m);
  CHECK_EQ(tlp_body(t, 0, m, 16, false, 0, body, sizeof body), sizeof m00);
  CHECK_MEM(body, m00, sizeof m00);
  m_bytes(1, m);
  size_t n = tlp_body(t, 4, m, 16, true, 0, body, sizeof body);
  static const uint8_t m41n[] = { 0xde, 0xc5, 0x6c, 0xb3, 0xfe };
  CHECK_MEM(body + n - 5, m41n, 5);
}

/* Each scenario of §7.5.5, A>B TLPs and B>A Ack/Nak at 2.5 GT/s x1. */
static void expect(struct tx *t, const char *name, const enum ual_rule *rules, unsigned n) {
  unsigned want = 0;
  for (unsigned i = 0; i < n; i++) {
    CHECK(t->counts[rules[i]] >= 1);
    if (rules[i] != UAL_R_PN_SYNC) want += t->counts[rules[i]];   /* PN-SYNC alone: nothing else */
  }
  if (total(t) != want) fprintf(stderr, "scenario %s: %u findings, %u expected\n", name, total(t), want);
  CHECK_EQ(total(t), want);
}
#define EXPECT(t, name, ...) do { static const enum ual_rule r_[] = { __VA_ARGS__ }; \
  expect(t, name, r_, sizeof r_ / sizeof r_[0]); } while (0)

static void test_scenarios(struct tx *t) {
  /* S1 */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); M(t, 2, 2); ack(t, 0); nak(t, 0); M(t, 1, 1); M(t, 2, 2); ack(t, 2);
  EXPECT(t, "S1", UAL_R_PD_NAK, UAL_R_PN_REPLAY);
  CHECK_EQ(t->counts[UAL_R_PN_REPLAY], 1);
  CHECK_EQ(t->counts[UAL_R_PN_SYNC], 1);
  CHECK_EQ(t->a->fab.pcie.lk[0].dl[A].ackd, 2);
  CHECK_EQ(t->a->fab.pcie.lk[0].dl[A].newest, 2);
  /* credits: the three MWr of 1 DW, not their replays */
  CHECK_EQ(t->a->fab.pcie.lk[0].dl[A].used_hdr[UAL_PCIE_P], 3);
  CHECK_EQ(t->a->fab.pcie.lk[0].dl[A].used_data[UAL_PCIE_P], 3);
  CHECK_EQ(t->a->fab.pcie.lk[0].dl[A].used_hdr[UAL_PCIE_NP], 0);
  /* S2 */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); nak(t, 0); M(t, 2, 2);
  CHECK_EQ(t->counts[UAL_R_PN_NAK_NO_REPLAY], 0);   /* the TLP in flight is tolerated */
  M(t, 3, 3);
  CHECK_EQ(t->r.findings.n, 1);
  EXPECT(t, "S2", UAL_R_PD_NAK, UAL_R_PN_NAK_NO_REPLAY);
  /* S3 */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); ack(t, 5);
  EXPECT(t, "S3", UAL_R_PN_ACK_AHEAD);
  /* S4 */
  nf_init(t);
  M(t, 7, 0); M(t, 9, 1);
  EXPECT(t, "S4", UAL_R_PN_SEQ_GAP);
  /* S5 */
  nf_init(t);
  M(t, 3, 0); m_rec(t, 4, 1, true, 0); M(t, 4, 2);
  EXPECT(t, "S5", UAL_R_PN_NULLIFIED);
  /* S6 */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); nak(t, 0); M(t, 1, 9);
  EXPECT(t, "S6", UAL_R_PD_NAK, UAL_R_PN_REPLAY, UAL_R_PN_REPLAY_DIFFERS);
  /* S7 */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); M(t, 2, 2); nak(t, 0); M(t, 2, 2);
  EXPECT(t, "S7", UAL_R_PD_NAK, UAL_R_PN_REPLAY, UAL_R_PN_REPLAY_START);
  /* S8 */
  nf_init(t);
  M(t, 0, 0); m_rec(t, 1, 1, false, 0x01); M(t, 2, 2); nak(t, 0); M(t, 1, 1); M(t, 2, 2); M(t, 3, 3); ack(t, 3);
  EXPECT(t, "S8", UAL_R_PN_LCRC, UAL_R_PD_NAK, UAL_R_PN_REPLAY);
  /* S9 */
  nf_init(t);
  M(t, 0xFFE, 0); M(t, 0xFFF, 1); M(t, 0, 2); ack(t, 0);
  EXPECT(t, "S9", UAL_R_PN_SYNC);
  CHECK_EQ(t->a->fab.pcie.lk[0].dl[A].ackd, 0);
  /* S10: 2049 TLPs 100 ns apart outlast the default REPLAY_TIMER (124 us at
   * 2.5 GT/s); the table leaves timing out, so Extended Synch's 400 us */
  nf_init(t);
  CHECK_EQ(ual_fabric_an_option(&t->a->fab, "extended-synch", ""), 1);
  M(t, 0, 0); ack(t, 0);
  for (unsigned s = 1; s <= 2047; s++) M(t, s, s);
  CHECK_EQ(total(t), 0);   /* 2047 outstanding is legal */
  M(t, 2048, 2048);
  CHECK_EQ(t->counts[UAL_R_PN_OUTSTANDING], 1);
  M(t, 2049, 2049);
  EXPECT(t, "S10", UAL_R_PN_OUTSTANDING);
  CHECK_EQ(t->counts[UAL_R_PN_OUTSTANDING], 2);
  /* S11 */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); nak(t, 0); M(t, 2, 2); M(t, 1, 1); M(t, 2, 2); M(t, 3, 3); ack(t, 3);
  EXPECT(t, "S11", UAL_R_PD_NAK, UAL_R_PN_REPLAY);
  /* S12 */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); M(t, 2, 2); ack(t, 0); M(t, 1, 1); M(t, 2, 2); ack(t, 2);
  EXPECT(t, "S12", UAL_R_PN_REPLAY);
  /* S13 */
  nf_init(t);
  M(t, 0, 0); m_rec(t, 1, 1, false, 0x01); M(t, 1, 1); ack(t, 1);
  CHECK_EQ(t->r.findings.n, 1);   /* at the Ack */
  EXPECT(t, "S13", UAL_R_PN_LCRC, UAL_R_PN_NO_NAK);
  /* an Ack formed before the receiver got the TLPs ahead of the bad one
   * (it acknowledges less) says nothing; the Nak after it answers */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); m_rec(t, 2, 2, false, 0x01); ack(t, 0); nak(t, 1); M(t, 2, 2); ack(t, 2);
  EXPECT(t, "Ack in flight", UAL_R_PN_LCRC, UAL_R_PD_NAK);   /* 2 was never good: no replay */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); m_rec(t, 2, 2, false, 0x01); ack(t, 1);
  EXPECT(t, "Ack of all before it", UAL_R_PN_LCRC, UAL_R_PN_NO_NAK);
  /* S14 */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); M(t, 2, 2); nak(t, 0); ack(t, 2); M(t, 3, 3); M(t, 4, 4);
  EXPECT(t, "S14", UAL_R_PD_NAK);
  /* S15 */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); ack(t, 1); M(t, 0, 0); M(t, 1, 1); M(t, 2, 2); ack(t, 2);
  EXPECT(t, "S15", UAL_R_PN_REPLAY);
}

/* The same vectors framed in 128b/130b and stripped: the DL sees the same. */
static void test_encodings(struct tx *t) {
  for (unsigned e = 0; e < 2; e++) {
    nf_init(t);
    t->encoding = e ? UAL_PCIE_NF_STRIPPED : UAL_PCIE_NF_128B;
    t->rate = e ? 1 : 9;
    M(t, 0, 0); M(t, 1, 1); nak(t, 0); M(t, 1, 9);
    EXPECT(t, "S6 re-framed", UAL_R_PD_NAK, UAL_R_PN_REPLAY, UAL_R_PN_REPLAY_DIFFERS);
    nf_init(t);
    t->encoding = e ? UAL_PCIE_NF_STRIPPED : UAL_PCIE_NF_128B;
    M(t, 3, 0); m_rec(t, 4, 1, true, 0); M(t, 4, 2);
    EXPECT(t, "S5 re-framed", UAL_R_PN_NULLIFIED);
  }
}

static void test_replay_order(struct tx *t) {
  /* a new TLP before the replay reached the newest */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); M(t, 2, 2); nak(t, 0); M(t, 1, 1); M(t, 3, 3);
  CHECK_EQ(t->counts[UAL_R_PN_REPLAY_ORDER], 1);
  EXPECT(t, "new during replay", UAL_R_PD_NAK, UAL_R_PN_REPLAY, UAL_R_PN_REPLAY_ORDER);
  /* ... unless everything left was acknowledged meanwhile */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); M(t, 2, 2); nak(t, 0); M(t, 1, 1); ack(t, 2); M(t, 3, 3);
  EXPECT(t, "rest acknowledged", UAL_R_PD_NAK, UAL_R_PN_REPLAY);
  /* a skip over an unacknowledged TLP, and a step back */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); M(t, 2, 2); M(t, 3, 3); nak(t, 0); M(t, 1, 1); M(t, 3, 3);
  EXPECT(t, "skip", UAL_R_PD_NAK, UAL_R_PN_REPLAY, UAL_R_PN_REPLAY_ORDER);
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); M(t, 2, 2); M(t, 3, 3); nak(t, 0); M(t, 1, 1); M(t, 2, 2); M(t, 1, 1);
  EXPECT(t, "step back", UAL_R_PD_NAK, UAL_R_PN_REPLAY, UAL_R_PN_REPLAY_ORDER);
  /* a skip over TLPs an Ack covered is fine */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1); M(t, 2, 2); M(t, 3, 3); nak(t, 0); M(t, 1, 1); ack(t, 2); M(t, 3, 3);
  EXPECT(t, "skip acknowledged", UAL_R_PD_NAK, UAL_R_PN_REPLAY);
  /* --nak-new-tlps 2 tolerates two */
  nf_init(t);
  CHECK_EQ(ual_fabric_an_option(&t->a->fab, "nak-new-tlps", "2"), 1);
  M(t, 0, 0); M(t, 1, 1); nak(t, 0); M(t, 2, 2); M(t, 3, 3);
  EXPECT(t, "nak-new-tlps 2", UAL_R_PD_NAK);
  M(t, 4, 4);
  CHECK_EQ(t->counts[UAL_R_PN_NAK_NO_REPLAY], 1);
  CHECK_EQ(ual_fabric_an_option(&t->a->fab, "nak-new-tlps", "x"), -1);
  CHECK_EQ(ual_fabric_an_option(&t->a->fab, "no-such-option", "1"), 0);
}

/* REPLAY_NUM [P37]: the 4th replay without progress, no TS1/TS2 since the
 * 2nd; silent until the capture showed an ordered set of the link. */
static void os(struct tx *t, bool ts1) {
  uint8_t body[32];
  size_t n = 0;
  if (ts1) {
    struct ual_ts_params ts = {0};
    n = ual_os_build_ts(body, sizeof body, 0, UAL_ENC_8B10B, &ts);
  } else {
    n = ual_os_build(body, sizeof body, 0, UAL_ENC_8B10B, UAL_OS_SKP);
  }
  CHECK(n > 0);
  rec(t, A, UAL_REC_OS, body, n);
}

static void four_replays(struct tx *t, bool ts_after_2nd) {
  M(t, 0, 0); M(t, 1, 1);
  for (unsigned i = 0; i < 4; i++) {
    if (i == 2 && ts_after_2nd) os(t, true);
    M(t, 0, 0); M(t, 1, 1);
  }
}

static void test_replay_num(struct tx *t) {
  nf_init(t);
  four_replays(t, false);
  EXPECT(t, "no OS seen", UAL_R_PN_REPLAY);
  CHECK_EQ(t->counts[UAL_R_PN_REPLAY], 4);
  nf_init(t);
  os(t, false);
  four_replays(t, false);
  EXPECT(t, "4 replays", UAL_R_PN_REPLAY, UAL_R_PN_REPLAY_NUM);
  CHECK_EQ(t->counts[UAL_R_PN_REPLAY_NUM], 1);
  nf_init(t);
  os(t, false);
  four_replays(t, true);
  EXPECT(t, "retrained", UAL_R_PN_REPLAY);
  /* progress restarts the count */
  nf_init(t);
  os(t, false);
  M(t, 0, 0); M(t, 1, 1); M(t, 2, 2);
  M(t, 0, 0); M(t, 1, 1); M(t, 2, 2);
  M(t, 0, 0); M(t, 1, 1); M(t, 2, 2);
  ack(t, 0);
  M(t, 1, 1); M(t, 2, 2);
  M(t, 1, 1); M(t, 2, 2);
  EXPECT(t, "progress", UAL_R_PN_REPLAY);
}

/* Ack latency (TDL Tables 3-10..3-12) at 2.5 GT/s x1, Rx_MPS 128: 237 symbol times. */
static void test_ack_latency(struct tx *t) {
  const uint64_t sym = 4;   /* ns */
  for (unsigned late = 0; late < 2; late++) {
    nf_init(t);
    CHECK_EQ(ual_fabric_an_option(&t->a->fab, "rx-mps", "128"), 1);
    M(t, 0, 0);   /* 24 symbols from t->ts */
    uint64_t last = t->ts + 23 * sym;
    uint8_t body[16], six[8];
    struct ual_pcie_dllp d = {0};
    ual_pcie_dllp_encode(&d, six);
    size_t n = ual_pcie_nf_build_dllp(0, six + 2, body, sizeof body);
    rec_at(t, B, UAL_REC_PCIE_NF, body, n, last + (237 + late) * sym);
    CHECK_EQ(t->counts[UAL_R_PN_ACK_LATENCY], late);
    CHECK_EQ(total(t), late);
  }
  /* the time B's transmitter was busy is taken off: 3 UpdateFCs of 8 symbols */
  nf_init(t);
  CHECK_EQ(ual_fabric_an_option(&t->a->fab, "rx-mps", "128"), 1);
  M(t, 0, 0);
  uint64_t last = t->ts + 23 * sym;
  uint8_t body[16], six[8];
  struct ual_pcie_dllp d;
  ual_pcie_dllp_fc(&d, UAL_PCIE_DT_UPDATEFC_P, 0, 0, 20, 0, 300);
  ual_pcie_dllp_encode(&d, six);
  size_t n = ual_pcie_nf_build_dllp(0, six + 2, body, sizeof body);
  for (unsigned i = 0; i < 3; i++) rec_at(t, B, UAL_REC_PCIE_NF, body, n, last + (10 + 8 * i) * sym);
  memset(&d, 0, sizeof d);
  ual_pcie_dllp_encode(&d, six);
  n = ual_pcie_nf_build_dllp(0, six + 2, body, sizeof body);
  rec_at(t, B, UAL_REC_PCIE_NF, body, n, last + (237 + 20) * sym);
  CHECK_EQ(total(t), 0);
  /* no rate: nothing timed */
  nf_init(t);
  t->rate = 0;
  CHECK_EQ(ual_fabric_an_option(&t->a->fab, "rx-mps", "128"), 1);
  M(t, 0, 0);
  rec_at(t, B, UAL_REC_PCIE_NF, body, n, t->ts + 100000);
  CHECK_EQ(total(t), 0);
  CHECK_EQ(ual_nfdl_ack_limit(4096, 1, 0), 4143);
  CHECK_EQ(ual_nfdl_ack_limit(512, 10, 16), 182);
  CHECK_EQ(ual_nfdl_ack_limit(2048, 8, 4), 589);
}

/* REPLAY_TIMER: 31,000 symbol times (+ a TLP in progress) without an Ack
 * and without a replay. */
static void test_replay_timer(struct tx *t) {
  const uint64_t sym = 4, limit = (31000 + 4124) * sym;
  for (unsigned late = 0; late < 2; late++) {
    nf_init(t);
    M(t, 0, 0);
    uint64_t last = t->ts + 23 * sym;
    t->ts = last + limit - GAP_NS + (late ? 4 : 0);   /* rec() adds GAP_NS */
    simple(t, A, 0x31, 0);   /* a NOP from A: time passes */
    CHECK_EQ(t->counts[UAL_R_PN_REPLAY_TIMEOUT], late);
    CHECK_EQ(total(t), late);
  }
  /* an Ack in between restarts nothing when all is acknowledged */
  nf_init(t);
  M(t, 0, 0);
  ack(t, 0);
  t->ts += limit * 2;
  simple(t, A, 0x31, 0);
  CHECK_EQ(total(t), 0);
  /* --replay-timer */
  nf_init(t);
  CHECK_EQ(ual_fabric_an_option(&t->a->fab, "replay-timer", "1000"), 1);
  M(t, 0, 0);
  t->ts += (1000 + 4124 + 30) * sym;
  simple(t, A, 0x31, 0);
  CHECK_EQ(t->counts[UAL_R_PN_REPLAY_TIMEOUT], 1);
  /* the replay came in time */
  nf_init(t);
  CHECK_EQ(ual_fabric_an_option(&t->a->fab, "replay-timer", "1000"), 1);
  M(t, 0, 0);
  t->ts += 1000 * sym;
  M(t, 0, 0);
  ack(t, 0);
  EXPECT(t, "timer replay", UAL_R_PN_REPLAY);
}

/* PM with TLPs unacknowledged [P34] [P43]: once per (side, type, oldest). */
static void test_pm(struct tx *t) {
  uint8_t m[16];
  m_bytes(0, m);
  nf_init(t);
  tlp(t, B, 4, m, 16);
  for (unsigned i = 0; i < 5; i++) simple(t, B, 0x21, 0);   /* PM_Enter_L23 */
  CHECK_EQ(t->counts[UAL_R_PN_PM_L23_UNACKED], 1);
  simple(t, B, 0x20, 0);                                     /* PM_Enter_L1: another type */
  simple(t, B, 0x20, 0);
  CHECK_EQ(t->counts[UAL_R_PN_PM_UNACKED], 1);
  simple(t, A, 0x00, 4);                                     /* Ack 4 */
  simple(t, B, 0x20, 0);
  EXPECT(t, "PM", UAL_R_PN_PM_L23_UNACKED, UAL_R_PN_PM_UNACKED);
  CHECK_EQ(t->counts[UAL_R_PN_PM_UNACKED], 1);
  /* another TLP waiting: another finding */
  tlp(t, B, 5, m, 16);
  simple(t, B, 0x20, 0);
  CHECK_EQ(t->counts[UAL_R_PN_PM_UNACKED], 2);
  /* kind-7 PM DLLPs give the PM timeline as kind 4 does */
  CHECK_EQ(t->events[UAL_TEV_PCIE_PM], 2);
}

/* §7.5.2 D: DL initialization, desynchronization, kind-4 and kind-7 DLLPs alike. */
static void test_sync(struct tx *t) {
  struct ual_pcie_dllp d;
  uint8_t body[8];
  /* a VC0 InitFC1 (kind 4) from either side: synchronized at 000h */
  nf_init(t);
  ual_pcie_dllp_fc(&d, UAL_PCIE_DT_INITFC1_P, 0, 0, 32, 0, 256);
  ual_pcie_dllp_encode(&d, body);
  rec(t, B, UAL_REC_PCIE_DLLP, body, 8);
  rec(t, B, UAL_REC_PCIE_DLLP, body, 8);
  CHECK_EQ(t->counts[UAL_R_PN_SYNC], 1);
  CHECK_EQ(t->events[UAL_TEV_PCIE_DL], 1);
  M(t, 1, 0);   /* 000h was due */
  EXPECT(t, "after DL init", UAL_R_PN_SEQ_GAP);
  CHECK_EQ(t->counts[UAL_R_PN_SYNC], 1);
  /* an Ack of 000h before any TLP: ahead, but no TLP seen since the sync [P38] */
  nf_init(t);
  dllp7(t, A, &d);
  ack(t, 0);
  CHECK_EQ(total(t), 0);
  M(t, 0, 0);
  ack(t, 1);
  EXPECT(t, "ahead after a TLP", UAL_R_PN_ACK_AHEAD);
  /* records lost: no gap across them */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1);
  t->flags = UAL_RF_LOST;
  M(t, 7, 2);
  EXPECT(t, "lost", UAL_R_PN_SYNC);
  CHECK_EQ(t->counts[UAL_R_PN_SYNC], 2);
  /* receiver detected (the link went down) desynchronizes; electrical idle does not */
  nf_init(t);
  M(t, 0, 0);
  link_event(t, UAL_EV_EIDLE_ENTER);
  M(t, 5, 1);
  CHECK_EQ(t->counts[UAL_R_PN_SEQ_GAP], 1);
  link_event(t, UAL_EV_RX_DETECT);
  M(t, 9, 2);
  CHECK_EQ(t->counts[UAL_R_PN_SEQ_GAP], 1);
  CHECK_EQ(t->counts[UAL_R_PN_SYNC], 2);
  /* a kind-7 DLLP goes through the kind-4 analysis: PD-NAK, PD-ACK-BACKWARDS */
  nf_init(t);
  simple(t, B, 0x10, 7);
  simple(t, B, 0x00, 3);
  CHECK_EQ(t->counts[UAL_R_PD_NAK], 1);
  CHECK_EQ(t->counts[UAL_R_PD_ACK_BACKWARDS], 1);
  CHECK_EQ(t->a->fab.pcie.lk[0].s[B].by_type[UAL_PCIE_DT_NAK], 1);
  /* ... and kind 4 reaches the non-flit tracker */
  nf_init(t);
  M(t, 0, 0); M(t, 1, 1);
  simple4(t, B, 0x00, 5);
  EXPECT(t, "kind-4 Ack ahead", UAL_R_PN_ACK_AHEAD);
}

/* --- transactions (§7.6) --- */

static void mrd(struct tx *t, unsigned dir, unsigned seq, unsigned rid, unsigned tag, unsigned len, uint64_t addr,
                unsigned fbe, unsigned lbe) {
  struct ual_pcie_tlp_fields f = {0};
  uint8_t b[64];
  f.byte0 = 0x00;
  f.length = (uint16_t)len;
  f.rid = (uint16_t)rid;
  f.tag = (uint16_t)tag;
  f.first_be = (uint8_t)fbe;
  f.last_be = (uint8_t)lbe;
  f.addr = addr;
  size_t n = ual_pcie_tlp_build(&f, NULL, 0, b, sizeof b);
  CHECK(n > 0);
  tlp(t, dir, seq, b, n);
}

static void cpl(struct tx *t, unsigned dir, unsigned seq, unsigned byte0, unsigned rid, unsigned tag, unsigned status,
                unsigned bc, unsigned la, unsigned len) {
  struct ual_pcie_tlp_fields f = {0};
  uint8_t b[256], data[128] = {0};
  f.byte0 = (uint8_t)byte0;
  f.length = (uint16_t)len;
  f.rid = (uint16_t)rid;
  f.tag = (uint16_t)tag;
  f.cid = 0x0100;
  f.status = (uint8_t)status;
  f.byte_count = (uint16_t)bc;
  f.lower_addr = (uint8_t)la;
  size_t n = ual_pcie_tlp_build(&f, data, (byte0 & 0x40) ? len * 4u : 0, b, sizeof b);
  CHECK(n > 0);
  tlp(t, dir, seq, b, n);
}

static void cfg(struct tx *t, unsigned dir, unsigned seq, unsigned byte0, unsigned rid, unsigned tag) {
  struct ual_pcie_tlp_fields f = {0};
  uint8_t b[64], data[4] = { 1, 2, 3, 4 };
  f.byte0 = (uint8_t)byte0;
  f.length = 1;
  f.rid = (uint16_t)rid;
  f.tag = (uint16_t)tag;
  f.first_be = 0xF;
  f.target = 0x0100;
  size_t n = ual_pcie_tlp_build(&f, data, (byte0 & 0x40) ? 4 : 0, b, sizeof b);
  CHECK(n > 0);
  tlp(t, dir, seq, b, n);
}

static void test_transactions(struct tx *t) {
  /* an MRd of 256 bytes completed in two 128-byte parts at the RCB */
  nf_init(t);
  mrd(t, A, 0, 0x0000, 5, 64, 0x10000, 0xF, 0xF);
  cpl(t, B, 0, 0x4A, 0x0000, 5, 0, 256, 0x00, 32);
  CHECK_EQ(t->a->fab.pcie.lk[0].fl[A].outstanding, 1);
  cpl(t, B, 1, 0x4A, 0x0000, 5, 0, 128, 0x00, 32);   /* 10080h: Lower Address 00h */
  EXPECT(t, "MRd split", UAL_R_PN_SYNC);
  CHECK_EQ(t->a->fab.pcie.lk[0].fl[A].outstanding, 0);
  CHECK_EQ(t->a->fab.pcie.lk[0].fl[B].pairs, 1);
  CHECK_EQ(t->a->fab.pcie.lk[0].dl[A].used_hdr[UAL_PCIE_NP], 1);
  CHECK_EQ(t->a->fab.pcie.lk[0].dl[A].used_data[UAL_PCIE_NP], 0);
  CHECK_EQ(t->a->fab.pcie.lk[0].dl[B].used_hdr[UAL_PCIE_CPL], 2);
  CHECK_EQ(t->a->fab.pcie.lk[0].dl[B].used_data[UAL_PCIE_CPL], 16);   /* 2 x 32 DW */
  /* first completion: Byte Count and Lower Address from Length and BEs (T Table 2-40) */
  nf_init(t);
  mrd(t, A, 0, 0x0000, 6, 2, 0x10024, 0xC, 0x1);   /* bytes 26h..28h: 3 bytes */
  cpl(t, B, 0, 0x4A, 0x0000, 6, 0, 3, 0x26, 2);
  EXPECT(t, "BEs", UAL_R_PN_SYNC);
  nf_init(t);
  mrd(t, A, 0, 0x0000, 6, 2, 0x10024, 0xC, 0x1);
  cpl(t, B, 0, 0x4A, 0x0000, 6, 0, 8, 0x24, 2);
  EXPECT(t, "BEs wrong", UAL_R_PN_CPL_MISMATCH);
  /* type pairing: a Cpl without data for a configuration read is UR/CA only; an SC one is a mismatch */
  nf_init(t);
  cfg(t, A, 0, 0x04, 0x0000, 7);
  cpl(t, B, 0, 0x0A, 0x0000, 7, 0, 4, 0, 0);
  EXPECT(t, "CfgRd answered by Cpl", UAL_R_PN_CPL_MISMATCH);
  nf_init(t);
  cfg(t, A, 0, 0x44, 0x0000, 7);
  cpl(t, B, 0, 0x0A, 0x0000, 7, 0, 4, 0, 0);
  EXPECT(t, "CfgWr", UAL_R_PN_SYNC);
  /* RRS answers only configuration requests and DMWr [P42] */
  nf_init(t);
  mrd(t, A, 0, 0x0000, 8, 1, 0x1000, 0xF, 0);
  cpl(t, B, 0, 0x0A, 0x0000, 8, 2, 4, 0, 0);
  CHECK_EQ(t->counts[UAL_R_PN_CPL_MISMATCH], 1);
  /* tag reuse, and the completion then closes the newer request */
  nf_init(t);
  mrd(t, A, 0, 0x0000, 9, 1, 0x1000, 0xF, 0);
  mrd(t, A, 1, 0x0000, 9, 1, 0x2000, 0xF, 0);
  EXPECT(t, "tag reuse", UAL_R_PN_REQ_TAG_REUSE);
  /* a replayed request is no new transaction [P35] */
  nf_init(t);
  mrd(t, A, 0, 0x0000, 9, 1, 0x1000, 0xF, 0);
  mrd(t, A, 0, 0x0000, 9, 1, 0x1000, 0xF, 0);
  EXPECT(t, "replayed request", UAL_R_PN_REPLAY);
  /* a completion without request: info in the window, a warning after it or after a DL initialization */
  nf_init(t);
  cpl(t, B, 0, 0x4A, 0x0000, 3, 0, 4, 0, 1);
  EXPECT(t, "window", UAL_R_PN_CPL_NO_REQUEST);
  t->ts += 50000000;
  cpl(t, B, 1, 0x4A, 0x0000, 4, 0, 4, 0, 1);
  CHECK_EQ(t->counts[UAL_R_PN_CPL_UNEXPECTED], 1);
  nf_init(t);
  struct ual_pcie_dllp d;
  ual_pcie_dllp_fc(&d, UAL_PCIE_DT_INITFC1_NP, 0, 0, 32, 0, 0);
  dllp7(t, A, &d);
  cpl(t, B, 0, 0x4A, 0x0000, 3, 0, 4, 0, 1);
  EXPECT(t, "after DL init", UAL_R_PN_CPL_UNEXPECTED);
  /* --cpl-timeout */
  nf_init(t);
  CHECK_EQ(ual_fabric_an_option(&t->a->fab, "cpl-timeout", "10us"), 1);
  mrd(t, A, 0, 0x0000, 9, 1, 0x1000, 0xF, 0);
  t->ts += 9000;
  simple(t, A, 0x31, 0);
  CHECK_EQ(total(t), 0);
  t->ts += 2000;
  simple(t, A, 0x31, 0);
  simple(t, A, 0x31, 0);
  EXPECT(t, "timeout", UAL_R_PN_CPL_TIMEOUT);
  CHECK_EQ(t->counts[UAL_R_PN_CPL_TIMEOUT], 1);
  /* the open request is listed at the end (the table flit mode lists) */
  CHECK_EQ(t->a->fab.pcie.lk[0].fl[A].outstanding, 1);
}

int main(void) {
  static struct ual_analyzer an;
  static struct tx t;
  t.a = &an;
  test_vectors(&t);
  test_scenarios(&t);
  test_encodings(&t);
  test_replay_order(&t);
  test_replay_num(&t);
  test_ack_latency(&t);
  test_replay_timer(&t);
  test_pm(&t);
  test_sync(&t);
  test_transactions(&t);
  return check_done("test_nfdl");
}
