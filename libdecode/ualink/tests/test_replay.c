/* Replay tracker: delivery (in order, once), Naks and replays, and the RP-*
 * and DL-AFTER-CONTAIN rules, each violated and in its clean form. */
#include "analysis_fixture.h"

static struct fx X;

/* Every TL flit pushed on dir was delivered exactly once, in order. */
static void check_tl_once(const struct fx *x, unsigned dir) {
  CHECK_EQ(x->tl_got[dir], x->tl_sent[dir]);
  unsigned bad = 0;
  for (uint32_t i = 0; i < x->tl_got[dir]; i++)
    if (x->tl_ids[dir][i] != ((uint32_t)(dir << 24) | i)) bad++;
  CHECK_EQ(bad, 0);
}

static const struct ual_replay_stats *stats(const struct fx *x, unsigned dir) { return &x->a.rp.d[dir].st; }

/* A copy of flit with an explicit sequence number (what a replay sends). */
static void as_explicit(const uint8_t *flit, unsigned seq, uint8_t *out) {
  struct ual_fh fh;
  memcpy(out, flit, UAL_FLIT_BYTES);
  ual_fh_decode(out, &fh);
  fh.replay_cmd = UAL_RC_SEQ;
  fh.seq = (uint16_t)seq;
  ual_fh_encode(&fh, out);
  ual_flit_seal(out);
}

static void test_in_order(void) {
  fx_init(&X);
  fx_sync(&X);
  fx_push_tl(&X, FX_A, 16);
  fx_push_tl(&X, FX_B, 16);
  for (int i = 0; i < 8; i++) { fx_payload(&X, FX_A); fx_payload(&X, FX_B); }
  fx_flush(&X, FX_A);
  fx_flush(&X, FX_B);
  CHECK_EQ(fx_problems(&X), 0);
  CHECK_EQ(fx_count(&X, UAL_R_RP_DUPLICATE), 0);
  check_tl_once(&X, FX_A);
  check_tl_once(&X, FX_B);
  CHECK_EQ(stats(&X, FX_A)->delivered, X.next_seq[FX_A] - 99u);   /* with fx_sync's 99 */
}

/* A capture that starts with implicit numbers learns them from the first explicit one. */
static void test_mid_stream(void) {
  fx_init(&X);
  fx_payload_hdr(&X, FX_A, UAL_RC_ACK, 0, false);    /* implicit: cannot be placed yet */
  CHECK_EQ(X.a.rp.d[FX_A].st.unplaced, 1);
  for (unsigned s = 700; s < 703; s++)
    fx_payload_hdr(&X, FX_A, UAL_RC_SEQ, s, false);  /* learned, not flagged */
  fx_payload_hdr(&X, FX_A, UAL_RC_ACK, 0, false);    /* implicit 703 */
  CHECK_EQ(X.a.rp.d[FX_A].next_exp, 704);
  fx_nop(&X, FX_B, UAL_RC_ACK, 650, UAL_DLLP_NOP2);   /* first Ack: learned */
  CHECK_EQ(fx_problems(&X), 0);
  CHECK_EQ(ual_replay_unacked(&X.a.rp, FX_A), 703 - 650);
}

static void test_seq_gap(void) {
  fx_init(&X);
  fx_payload(&X, FX_A);
  fx_payload(&X, FX_A);
  X.next_seq[FX_A]++;                                 /* 102 never sent */
  fx_payload(&X, FX_A);
  CHECK_EQ(fx_count(&X, UAL_R_RP_SEQ_GAP), 1);
  CHECK_EQ(X.a.rp.d[FX_A].next_exp, 104);             /* resynchronised */
  fx_payload(&X, FX_A);
  CHECK_EQ(fx_count(&X, UAL_R_RP_SEQ_GAP), 1);

  fx_init(&X);                                        /* clean: consecutive */
  for (int i = 0; i < 4; i++) fx_payload(&X, FX_A);
  CHECK_EQ(fx_count(&X, UAL_R_RP_SEQ_GAP), 0);
}

static void test_duplicate(void) {
  uint8_t f[3][UAL_FLIT_BYTES];
  fx_init(&X);
  fx_sync(&X);
  fx_push_tl(&X, FX_A, 8);
  for (int i = 0; i < 3; i++) fx_make(&X, FX_A, f[i]);
  for (int i = 0; i < 3; i++) fx_flit(&X, FX_A, f[i]);
  fx_flit(&X, FX_A, f[1]);                            /* seq 101 again: mid-stream, maybe a replay */
  CHECK_EQ(fx_count(&X, UAL_R_RP_DUPLICATE), 0);
  fx_nop(&X, FX_B, UAL_RC_ACK, 101, UAL_DLLP_NOP2);    /* B accepted 101 in order: numbering known */
  fx_flit(&X, FX_A, f[1]);                            /* seq 101 again */
  CHECK_EQ(fx_count(&X, UAL_R_RP_DUPLICATE), 1);
  CHECK_EQ(X.r.unpacked, false);                      /* not unpacked twice */
  fx_flush(&X, FX_A);
  check_tl_once(&X, FX_A);
  CHECK_EQ(fx_problems(&X), 0);
}

/* Flit 102 is lost; B Naks 101 three times; A goes back to 102. */
static void test_go_back_n(void) {
  uint8_t f[6][UAL_FLIT_BYTES];
  fx_third_bad(&X, f, 6, 3, 16);
  CHECK_EQ(fx_count(&X, UAL_R_PL_CRC), 1);
  for (int i = 3; i < 6; i++) fx_flit(&X, FX_A, f[i]);
  CHECK_EQ(X.a.rp.d[FX_A].n_held, 3);
  for (int i = 0; i < 3; i++) fx_nop(&X, FX_B, UAL_RC_NAK, 101, UAL_DLLP_NOP2);
  CHECK_EQ(fx_count(&X, UAL_R_RP_NAK), 3);
  CHECK_EQ(stats(&X, FX_A)->naks, 1);
  CHECK_EQ(X.a.rp.d[FX_A].n_held, 0);                 /* the receiver discards them */
  for (int i = 2; i < 6; i++) fx_flit(&X, FX_A, f[i]);
  CHECK_EQ(fx_count(&X, UAL_R_RP_REPLAY), 1);
  CHECK_EQ(fx_count(&X, UAL_R_RP_REPLAY_WRONG_START), 0);
  fx_flush(&X, FX_A);
  check_tl_once(&X, FX_A);
  CHECK_EQ(fx_count(&X, UAL_R_RP_DUPLICATE), 0);
  CHECK_EQ(fx_count(&X, UAL_R_RP_SEQ_GAP), 0);
  CHECK_EQ(stats(&X, FX_A)->replays, 1);
  CHECK_EQ(stats(&X, FX_A)->replayed_flits, 4);
}

/* Flit 102 is lost; B Naks selectively; A resends 102 only; 103..105 were held. */
static void test_selective(void) {
  uint8_t f[6][UAL_FLIT_BYTES];
  fx_third_bad(&X, f, 6, 6, 16);
  uint32_t before = X.tl_got[FX_A];
  for (int i = 0; i < 3; i++) fx_nop(&X, FX_B, UAL_RC_NAK_SELECTIVE, 101, UAL_DLLP_NOP2);
  CHECK_EQ(stats(&X, FX_A)->naks_selective, 1);
  CHECK_EQ(X.a.rp.d[FX_A].n_held, 3);
  fx_flit(&X, FX_A, f[2]);
  CHECK(X.tl_got[FX_A] > before);                     /* 102..105 delivered at once */
  CHECK_EQ(X.a.rp.d[FX_A].n_held, 0);
  CHECK_EQ(stats(&X, FX_A)->released, 3);
  CHECK_EQ(fx_count(&X, UAL_R_RP_REPLAY), 1);
  fx_flush(&X, FX_A);
  check_tl_once(&X, FX_A);
  CHECK_EQ(fx_count(&X, UAL_R_RP_REPLAY_WRONG_START), 0);
  CHECK_EQ(fx_count(&X, UAL_R_RP_DUPLICATE), 0);
  CHECK_EQ(fx_count(&X, UAL_R_RP_SEQ_GAP), 0);
}

static void test_wrong_start(void) {
  uint8_t f[5][UAL_FLIT_BYTES], bad[UAL_FLIT_BYTES];
  for (int sel = 0; sel < 2; sel++) {
    fx_init(&X);
    for (int i = 0; i < 5; i++) fx_make(&X, FX_A, f[i]);
    fx_flit(&X, FX_A, f[0]);
    fx_bad_crc(f[1], bad);
    fx_flit(&X, FX_A, bad);
    fx_flit(&X, FX_A, f[2]);
    fx_nop(&X, FX_B, sel ? UAL_RC_NAK_SELECTIVE : UAL_RC_NAK, 100, UAL_DLLP_NOP2);
    fx_flit(&X, FX_A, f[2]);                          /* should have been 101 */
    CHECK_EQ(fx_count(&X, UAL_R_RP_REPLAY_WRONG_START), 1);
  }
}

/* Prior Flit Type: the implicit flit after a lost payload flit is previous + 2. */
static void test_prior_flit_type(void) {
  uint8_t f1[UAL_FLIT_BYTES], bad[UAL_FLIT_BYTES], f2[UAL_FLIT_BYTES], rep[UAL_FLIT_BYTES];
  fx_init(&X);
  fx_sync(&X);
  fx_push_tl(&X, FX_A, 10);
  fx_payload(&X, FX_A);                               /* 100 explicit */
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_ACK, 0 };
  ual_pack_flit(&X.pack[FX_A], &fh, true, f1);        /* 101 implicit */
  ual_pack_flit(&X.pack[FX_A], &fh, true, f2);        /* 102 implicit */
  fx_bad_crc(f1, bad);
  fx_flit(&X, FX_A, bad);
  fx_flit(&X, FX_A, f2);
  CHECK_EQ(X.a.rp.d[FX_A].n_held, 1);
  CHECK_EQ(X.a.rp.d[FX_A].last_seq, 102);
  fx_nop(&X, FX_B, UAL_RC_NAK_SELECTIVE, 100, UAL_DLLP_NOP2);
  as_explicit(f1, 101, rep);
  fx_flit(&X, FX_A, rep);
  X.next_seq[FX_A] = 103;
  fx_flush(&X, FX_A);
  check_tl_once(&X, FX_A);
  CHECK_EQ(fx_count(&X, UAL_R_RP_SEQ_GAP), 0);
  CHECK_EQ(fx_count(&X, UAL_R_RP_REPLAY_WRONG_START), 0);
}

static void test_ack_ahead(void) {
  fx_init(&X);
  for (int i = 0; i < 4; i++) fx_payload(&X, FX_A);   /* 100..103 */
  fx_nop(&X, FX_B, UAL_RC_ACK, 101, UAL_DLLP_NOP2);
  fx_nop(&X, FX_B, UAL_RC_ACK, 103, UAL_DLLP_NOP2);   /* clean: all sent */
  CHECK_EQ(fx_count(&X, UAL_R_RP_ACK_AHEAD), 0);
  CHECK_EQ(ual_replay_unacked(&X.a.rp, FX_A), 0);
  fx_nop(&X, FX_B, UAL_RC_ACK, 102, UAL_DLLP_NOP2);   /* an older Ack: not ahead */
  CHECK_EQ(fx_count(&X, UAL_R_RP_ACK_AHEAD), 0);
  fx_nop(&X, FX_B, UAL_RC_ACK, 110, UAL_DLLP_NOP2);
  CHECK_EQ(fx_count(&X, UAL_R_RP_ACK_AHEAD), 1);
  CHECK_EQ(X.a.rp.d[FX_A].acked, 103);                /* ignored */
}

static void test_unacked_limit(void) {
  for (int over = 0; over < 2; over++) {
    fx_init(&X);
    fx_payload(&X, FX_A);
    fx_nop(&X, FX_B, UAL_RC_ACK, 100, UAL_DLLP_NOP2);
    for (int i = 0; i < 511 + over; i++) fx_payload(&X, FX_A);
    CHECK_EQ(fx_count(&X, UAL_R_RP_UNACKED_LIMIT), (unsigned)over);
    CHECK_EQ(ual_replay_unacked(&X.a.rp, FX_A), 511 + over);
    CHECK_EQ(fx_count(&X, UAL_R_RP_ACK_AHEAD), 0);
  }
}

/* RP-ACK-TIMEOUT shows at the replay the timer triggers (the transmitter's
 * timer restarts a wire latency after the capture point saw the Ack), or
 * after twice the timeout without a replay. */
static void test_ack_timeout(void) {
  uint8_t f[2][UAL_FLIT_BYTES];
  for (int late = 0; late < 2; late++) {
    fx_init(&X);
    fx_make(&X, FX_A, f[0]);
    fx_flit(&X, FX_A, f[0]);
    fx_nop(&X, FX_B, UAL_RC_ACK, 100, UAL_DLLP_NOP2);
    fx_make(&X, FX_A, f[1]);
    fx_flit(&X, FX_A, f[1]);                          /* 101 outstanding */
    /* late: the timeout and 10 flits of wire latency; else the replay is
     * the 1499th flit without progress */
    for (unsigned i = 0; i < (late ? UAL_REPLAY_TIMEOUT_FLITS + 10 : UAL_REPLAY_TIMEOUT_FLITS - 2); i++)
      fx_nop(&X, FX_A, UAL_RC_SEQ, 101, UAL_DLLP_NOP2);
    CHECK_EQ(fx_count(&X, UAL_R_RP_ACK_TIMEOUT), 0);
    fx_flit(&X, FX_A, f[1]);                          /* the timer's replay of 101 */
    CHECK_EQ(fx_count(&X, UAL_R_RP_ACK_TIMEOUT), (unsigned)late);
    CHECK_EQ(fx_count(&X, UAL_R_RP_DUPLICATE), 1);
    fx_nop(&X, FX_B, UAL_RC_ACK, 101, UAL_DLLP_NOP2);
    for (int i = 0; i < 2000; i++) fx_nop(&X, FX_A, UAL_RC_SEQ, 101, UAL_DLLP_NOP2);
    CHECK_EQ(fx_count(&X, UAL_R_RP_ACK_TIMEOUT), (unsigned)late);   /* nothing outstanding */
  }
  fx_init(&X);                                        /* no Ack and no replay: after twice the timeout */
  fx_payload(&X, FX_A);
  fx_nop(&X, FX_B, UAL_RC_ACK, 100, UAL_DLLP_NOP2);
  fx_payload(&X, FX_A);
  for (unsigned i = 0; i < 2 * UAL_REPLAY_TIMEOUT_FLITS - 1; i++) fx_nop(&X, FX_A, UAL_RC_SEQ, 101, UAL_DLLP_NOP2);
  CHECK_EQ(fx_count(&X, UAL_R_RP_ACK_TIMEOUT), 0);
  fx_nop(&X, FX_A, UAL_RC_SEQ, 101, UAL_DLLP_NOP2);
  CHECK_EQ(fx_count(&X, UAL_R_RP_ACK_TIMEOUT), 1);
}

static void test_explicit_group(void) {
  for (int n = 1; n <= 6; n++) {
    fx_init(&X);
    fx_nop(&X, FX_A, UAL_RC_ACK, 0, UAL_DLLP_NOP2);   /* a group boundary */
    for (int i = 0; i < n; i++) fx_payload(&X, FX_A);
    fx_payload_hdr(&X, FX_A, UAL_RC_ACK, 0, true);
    CHECK_EQ(fx_count(&X, UAL_R_RP_EXPLICIT_GROUP), n % 3 ? 1u : 0u);
  }
  fx_init(&X);                                        /* the first group of a capture is not judged */
  fx_payload(&X, FX_A);
  fx_payload_hdr(&X, FX_A, UAL_RC_ACK, 0, true);
  CHECK_EQ(fx_count(&X, UAL_R_RP_EXPLICIT_GROUP), 0);
}

static void test_after_contain(void) {
  uint8_t f[4][UAL_FLIT_BYTES], c[UAL_FLIT_BYTES];
  for (int v = 0; v < 2; v++) {
    fx_init(&X);
    for (int i = 0; i < 4; i++) fx_make(&X, FX_A, f[i]);
    fx_flit(&X, FX_A, f[0]);
    fx_flit(&X, FX_A, f[1]);
    fx_contained(f[2], c);
    fx_flit(&X, FX_A, c);
    CHECK_EQ(fx_count(&X, UAL_R_PL_CRC_INVERTED), 1);
    fx_flit(&X, FX_A, f[1]);                          /* replay of an earlier flit: fine */
    fx_idle(&X, FX_A);
    CHECK_EQ(fx_count(&X, UAL_R_DL_AFTER_CONTAIN), 0);
    if (v) {
      fx_flit(&X, FX_A, f[3]);                        /* new: 103 */
      CHECK_EQ(fx_count(&X, UAL_R_DL_AFTER_CONTAIN), 1);
      CHECK_EQ(X.r.unpacked, false);                  /* the receiver drops it */
    }
  }
}

/* Ack latency is measured in flits and ns. */
static void test_ack_latency(void) {
  fx_init(&X);
  uint64_t t0 = X.ts_ns;
  fx_payload(&X, FX_A);                               /* probe: 100 */
  fx_nop(&X, FX_B, UAL_RC_ACK, 90, UAL_DLLP_NOP2);    /* learn */
  fx_payload(&X, FX_A);
  for (int i = 0; i < 4; i++) fx_nop(&X, FX_A, UAL_RC_SEQ, 101, UAL_DLLP_NOP2);
  uint64_t t1 = X.ts_ns;
  fx_nop(&X, FX_B, UAL_RC_ACK, 101, UAL_DLLP_NOP2);
  CHECK_EQ(stats(&X, FX_A)->ack_lat_n, 1);
  CHECK_EQ(stats(&X, FX_A)->ack_lat_ns_max, t1 - t0);
  CHECK_EQ(stats(&X, FX_A)->ack_lat_flits_max, 5);   /* sent after it: 101 and 4 NOPs */
}

int main(void) {
  test_in_order();
  test_mid_stream();
  test_seq_gap();
  test_duplicate();
  test_go_back_n();
  test_selective();
  test_wrong_start();
  test_prior_flit_type();
  test_ack_ahead();
  test_unacked_limit();
  test_ack_timeout();
  test_explicit_group();
  test_after_contain();
  test_ack_latency();
  return check_done("test_replay");
}
