/* Captures built from the specification text (digest ../shared/spec/
 * ualink128g.md, seed 000 lines cited), each as a broken twin that raises
 * its rule at the right record and a clean twin that raises no error or
 * warning (issue 15). */
#include "analysis_fixture.h"

static struct fx X;

/* Warnings and errors other than the ones a capture is expected to carry. */
static unsigned problems_except(const struct fx *x, enum ual_rule a, enum ual_rule b) {
  unsigned n = fx_problems(x);
  if (ual_rule_severity(a) != UAL_SEV_INFO) n -= x->counts[a];
  if (b != a && ual_rule_severity(b) != UAL_SEV_INFO) n -= x->counts[b];
  return n;
}

/* Every TL flit pushed on dir was delivered exactly once, in order. */
static void check_tl_once(const struct fx *x, unsigned dir) {
  CHECK_EQ(x->tl_got[dir], x->tl_sent[dir]);
  unsigned bad = 0;
  for (uint32_t i = 0; i < x->tl_got[dir]; i++)
    if (x->tl_ids[dir][i] != ((uint32_t)(dir << 24) | i)) bad++;
  CHECK_EQ(bad, 0);
}

/* The frame of the last finding of rule, 0 if none in the last record. */
static uint64_t found_here(const struct fx *x, enum ual_rule r) {
  for (unsigned i = 0; i < x->r.findings.n; i++)
    if (x->r.findings.v[i].rule == r) return x->frame;
  return 0;
}

/* 7. A Nak is the conformant answer to a bad flit (rules.md: RP-NAK info):
 * flit 102 fails its CRC, B Naks 101 three times, A goes back to 102. The
 * only problem is the bad flit itself. */
static void test_nak_is_info(void) {
  uint8_t f[6][UAL_FLIT_BYTES], bad[UAL_FLIT_BYTES];
  CHECK_EQ(ual_rule_severity(UAL_R_RP_NAK), UAL_SEV_INFO);
  fx_init(&X);
  fx_sync(&X);
  fx_push_tl(&X, FX_A, 16);
  for (int i = 0; i < 6; i++) fx_make(&X, FX_A, f[i]);
  fx_flit(&X, FX_A, f[0]);
  fx_flit(&X, FX_A, f[1]);
  fx_bad_crc(f[2], bad);
  fx_flit(&X, FX_A, bad);
  for (int i = 3; i < 6; i++) fx_flit(&X, FX_A, f[i]);
  for (int i = 0; i < 3; i++) {
    fx_nop(&X, FX_B, UAL_RC_NAK, 101, UAL_DLLP_NOP2);
    CHECK_EQ(found_here(&X, UAL_R_RP_NAK), X.frame);
  }
  for (int i = 2; i < 6; i++) fx_flit(&X, FX_A, f[i]);
  fx_flush(&X, FX_A);
  CHECK_EQ(fx_count(&X, UAL_R_RP_NAK), 3);
  CHECK_EQ(fx_count(&X, UAL_R_PL_CRC), 1);
  CHECK_EQ(problems_except(&X, UAL_R_PL_CRC, UAL_R_PL_CRC), 0);
}

/* 2. After link-up A numbers its payload flits from 1 (digest §2.1); A
 * sends 1..7 and B Acks 12, a flit never sent: RP-ACK-AHEAD at B's flit,
 * not a wrapped Ack with 1019 flits outstanding. Clean: B Acks 7. */
static void test_ack_ahead_after_link_up(void) {
  for (int broken = 0; broken < 2; broken++) {
    fx_init(&X);
    fx_train(&X, true);
    for (int i = 0; i < 7; i++) fx_payload(&X, FX_A);
    CHECK_EQ(X.next_seq[FX_A], 8);
    fx_nop(&X, FX_B, UAL_RC_ACK, broken ? 12 : 7, UAL_DLLP_NOP2);
    CHECK_EQ(found_here(&X, UAL_R_RP_ACK_AHEAD), broken ? X.frame : 0);
    CHECK_EQ(ual_replay_unacked(&X.a.rp, FX_A), broken ? 7 : 0);
    for (int i = 0; i < 3; i++) fx_payload(&X, FX_A);
    fx_nop(&X, FX_B, UAL_RC_ACK, 10, UAL_DLLP_NOP2);
    CHECK_EQ(fx_count(&X, UAL_R_RP_ACK_AHEAD), (unsigned)broken);
    CHECK_EQ(fx_count(&X, UAL_R_RP_UNACKED_LIMIT), 0);
    CHECK_EQ(problems_except(&X, UAL_R_RP_ACK_AHEAD, UAL_R_RP_ACK_AHEAD), 0);
    CHECK_EQ(ual_replay_unacked(&X.a.rp, FX_A), 0);
  }
}

/* Mid-stream the first Ack is learned. The capture starts inside A's
 * timer replay of 100..103 (108 was sent before it began) and B Acks 108:
 * that raises nothing, then or later. */
static void test_ack_ahead_mid_stream(void) {
  fx_init(&X);
  for (int i = 0; i < 4; i++) fx_payload(&X, FX_A);   /* 100..103 */
  fx_nop(&X, FX_B, UAL_RC_ACK, 108, UAL_DLLP_NOP2);
  X.next_seq[FX_A] = 109;
  for (int i = 0; i < 3; i++) fx_payload(&X, FX_A);
  fx_nop(&X, FX_B, UAL_RC_ACK, 111, UAL_DLLP_NOP2);
  CHECK_EQ(fx_problems(&X), 0);
}

/* 1. Replay start after a Nak (digest §2.1; seed 000 line 1294: replay as
 * in PCIe). A sends 100, 101, then 102 fails on the wire; the Nak for 101
 * reaches A only after it sent 103 and 104 (round-trip latency), so B Naks
 * 101 three times while they arrive. Go-back-N: A must resend 102..104;
 * selective: exactly 102, then new flits. The broken twin starts one flit
 * late (103), so 102 is never resent: RP-REPLAY-WRONG-START at that flit. */
static void test_replay_start(void) {
  for (int sel = 0; sel < 2; sel++)
    for (int late = 0; late < 2; late++) {
      uint8_t f[8][UAL_FLIT_BYTES], bad[UAL_FLIT_BYTES];
      unsigned cmd = sel ? UAL_RC_NAK_SELECTIVE : UAL_RC_NAK;
      fx_init(&X);
      fx_sync(&X);
      fx_push_tl(&X, FX_A, 20);
      for (int i = 0; i < 8; i++) fx_make(&X, FX_A, f[i]);
      fx_flit(&X, FX_A, f[0]);
      fx_nop(&X, FX_B, UAL_RC_ACK, 100, UAL_DLLP_NOP2);
      fx_flit(&X, FX_A, f[1]);
      fx_bad_crc(f[2], bad);
      fx_flit(&X, FX_A, bad);
      for (int i = 3; i < 5; i++) {
        fx_nop(&X, FX_B, cmd, 101, UAL_DLLP_NOP2);
        fx_flit(&X, FX_A, f[i]);                      /* sent before the Nak arrived */
      }
      fx_nop(&X, FX_B, cmd, 101, UAL_DLLP_NOP2);
      int first = late ? 3 : 2, last = sel ? first : 4;
      fx_flit(&X, FX_A, f[first]);
      CHECK_EQ(found_here(&X, UAL_R_RP_REPLAY_WRONG_START), late ? X.frame : 0);
      CHECK_EQ(X.a.rp.d[FX_A].st.replays + X.a.rp.d[FX_A].st.replays_selective, 1);
      for (int i = first + 1; i <= last; i++) fx_flit(&X, FX_A, f[i]);
      for (int i = 5; i < 8; i++) fx_flit(&X, FX_A, f[i]);
      fx_flush(&X, FX_A);
      fx_nop(&X, FX_B, UAL_RC_ACK, ual_seq_add(X.next_seq[FX_A], UAL_SEQ_MOD - 1), UAL_DLLP_NOP2);
      CHECK_EQ(fx_count(&X, UAL_R_RP_REPLAY_WRONG_START), (unsigned)late);
      if (!late) {
        CHECK_EQ(problems_except(&X, UAL_R_PL_CRC, UAL_R_PL_CRC), 0);
        CHECK_EQ(fx_count(&X, UAL_R_RP_DUPLICATE), 0);
        check_tl_once(&X, FX_A);
        CHECK_EQ(ual_replay_unacked(&X.a.rp, FX_A), 0);
      }
    }
}

int main(void) {
  test_replay_start();
  test_nak_is_info();
  test_ack_ahead_after_link_up();
  test_ack_ahead_mid_stream();
  return check_done("test_fidelity");
}
