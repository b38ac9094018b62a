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
  uint8_t f[6][UAL_FLIT_BYTES];
  CHECK_EQ(ual_rule_severity(UAL_R_RP_NAK), UAL_SEV_INFO);
  fx_third_bad(&X, f, 6, 6, 16);
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
 * sends 1..7 with explicit numbers and B Acks 12, a flit never sent:
 * RP-ACK-AHEAD at B's flit, not a wrapped Ack with 1019 flits outstanding,
 * and A's 8..10 are new flits, not duplicates of a replay. Clean: B Acks 7.
 * The link-up is a training, or (issue 39 item 1) only its sequence-number
 * handshake: IDLE flits, then explicit sequence number 1. */
static void test_ack_ahead_after_link_up(void) {
  for (int trained = 0; trained < 2; trained++)
    for (int broken = 0; broken < 2; broken++) {
      fx_init(&X);
      X.rate = 1;
      if (trained) fx_train(&X, true);
      else fx_handshake(&X);
      for (int i = 0; i < 7; i++) fx_payload(&X, FX_A);
      CHECK_EQ(X.next_seq[FX_A], 8);
      fx_nop(&X, FX_B, UAL_RC_ACK, broken ? 12 : 7, UAL_DLLP_NOP2);
      CHECK_EQ(found_here(&X, UAL_R_RP_ACK_AHEAD), broken ? X.frame : 0);
      CHECK_EQ(ual_replay_unacked(&X.a.rp, FX_A), broken ? 7 : 0);
      for (int i = 0; i < 3; i++) fx_payload(&X, FX_A);
      fx_nop(&X, FX_B, UAL_RC_ACK, 10, UAL_DLLP_NOP2);
      CHECK_EQ(fx_count(&X, UAL_R_RP_ACK_AHEAD), (unsigned)broken);
      CHECK_EQ(fx_count(&X, UAL_R_RP_UNACKED_LIMIT), 0);
      CHECK_EQ(fx_count(&X, UAL_R_RP_REPLAY) + fx_count(&X, UAL_R_RP_DUPLICATE), 0);
      CHECK_EQ(X.a.rp.d[FX_A].st.delivered, 10);
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

#define CH0_ON (UAL_CHAN_ONLINE | UAL_CHAN_TL)
#define CH4_ON (UAL_CHAN_ONLINE | UAL_CHAN_UART)

/* A link just trained between two accelerators: channels offline, x8. */
static void fresh_accels(void) {
  fx_init(&X);
  X.role_b = UAL_ROLE_ACCEL;
  fx_train(&X, true);
  fx_clear_counts(&X);
}

/* 5. Responses go in the order the requests and responses they answer were
 * received (seed 000 line 676). B requests channel 4 online; A had its
 * channel 0 request ready and sends it in the flit of its Ack, ahead of
 * the Ack (crossing: A's answer does not yet show B's request received),
 * so B receives A's request first: B answers it before its confirming
 * Ack, in one flit or two. Broken twin: B's answer echoes the wrong
 * TargetState. */
static void test_response_order(void) {
  for (int broken = 0; broken < 2; broken++)
    for (int one_flit = 0; one_flit < 2; one_flit++) {
      fresh_accels();
      fx_msg(&X, FX_B, fx_ctrl(UAL_MT_CHANNEL, 0, CH4_ON, UAL_CMD_REQUEST, 0));
      fx_push_msg(&X, FX_A, fx_ctrl(UAL_MT_CHANNEL, 0, CH0_ON, UAL_CMD_REQUEST, 0));
      fx_push_msg(&X, FX_A, fx_ctrl(UAL_MT_CHANNEL, 0, CH4_ON, UAL_CMD_ACK, CH4_ON));
      fx_flush(&X, FX_A);
      fx_push_msg(&X, FX_B, fx_ctrl(UAL_MT_CHANNEL, 0, CH0_ON, UAL_CMD_ACK, broken ? CH4_ON : CH0_ON));
      if (!one_flit) {
        fx_flush(&X, FX_B);
        CHECK_EQ(found_here(&X, UAL_R_DM_CTRL_ECHO), broken ? X.frame : 0);
        CHECK_EQ(X.a.dp.s[FX_B].ch4, 0);   /* not confirmed yet */
      }
      fx_push_msg(&X, FX_B, fx_ctrl(UAL_MT_CHANNEL, 0, CH4_ON, UAL_CMD_ACK, CH4_ON));   /* confirms its own */
      fx_flush(&X, FX_B);
      if (one_flit) CHECK_EQ(found_here(&X, UAL_R_DM_CTRL_ECHO), broken ? X.frame : 0);
      CHECK_EQ(X.a.dp.s[FX_B].ch4, 1);
      CHECK_EQ(X.a.dp.s[FX_A].ch4, 1);
      fx_msg(&X, FX_A, fx_ctrl(UAL_MT_CHANNEL, 0, CH0_ON, UAL_CMD_ACK, CH0_ON));
      CHECK_EQ(X.a.dp.s[FX_A].ch0, 1);
      CHECK_EQ(X.a.dp.s[FX_B].ch0, 1);
      CHECK_EQ(X.a.dp.s[FX_B].ch4, 1);
      CHECK_EQ(problems_except(&X, UAL_R_DM_CTRL_ECHO, UAL_R_DM_CTRL_ECHO), 0);
      CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_ECHO), (unsigned)broken);
    }
  /* answered in the order received: A's request came first */
  fresh_accels();
  fx_msg(&X, FX_A, fx_ctrl(UAL_MT_CHANNEL, 0, CH0_ON, UAL_CMD_REQUEST, 0));
  fx_msg(&X, FX_B, fx_ctrl(UAL_MT_CHANNEL, 0, CH4_ON, UAL_CMD_REQUEST, 0));   /* crossing */
  fx_msg(&X, FX_A, fx_ctrl(UAL_MT_CHANNEL, 0, CH4_ON, UAL_CMD_ACK, CH4_ON));
  fx_msg(&X, FX_B, fx_ctrl(UAL_MT_CHANNEL, 0, CH0_ON, UAL_CMD_ACK, CH0_ON));   /* answers A */
  fx_msg(&X, FX_B, fx_ctrl(UAL_MT_CHANNEL, 0, CH4_ON, UAL_CMD_ACK, CH4_ON));   /* confirms */
  fx_msg(&X, FX_A, fx_ctrl(UAL_MT_CHANNEL, 0, CH0_ON, UAL_CMD_ACK, CH0_ON));
  CHECK_EQ(X.a.dp.s[FX_A].ch0, 1);
  CHECK_EQ(X.a.dp.s[FX_B].ch4, 1);
  CHECK_EQ(fx_problems(&X), 0);
}

/* Issue 39 item 3. Once a partner has received a request it schedules no
 * request of that mclass until the request completes (seed 000 line 624).
 * B requests LinkWidth x4; in one flit A Acks it and then requests x2,
 * before B's negotiation completed: its own Ack ahead of the request shows
 * A had received B's: DM-CTRL-OUTSTANDING there, not a conflict of
 * crossing requests (B, answering in the order received, confirms x4 and
 * then Acks x2, below the maximum). Clean twins: A's request ahead of its
 * Ack in that flit crosses B's (x4 wins: B Nacks x2 before it confirms
 * x4), or A requests x2 after B's confirming Ack. */
static void test_outstanding_after_ack(void) {
  for (int v = 0; v < 3; v++) {
    bool broken = v == 0, request_first = v == 1;
    uint32_t ack4 = fx_ctrl(UAL_MT_LINK_WIDTH, 0, 2, UAL_CMD_ACK, 2);
    uint32_t req2 = fx_ctrl(UAL_MT_LINK_WIDTH, 0, 1, UAL_CMD_REQUEST, 0);
    fresh_accels();
    fx_msg(&X, FX_B, fx_ctrl(UAL_MT_LINK_WIDTH, 0, 2, UAL_CMD_REQUEST, 0));
    if (request_first) fx_push_msg(&X, FX_A, req2);
    fx_push_msg(&X, FX_A, ack4);
    if (broken) fx_push_msg(&X, FX_A, req2);
    fx_flush(&X, FX_A);
    CHECK_EQ(found_here(&X, UAL_R_DM_CTRL_OUTSTANDING), broken ? X.frame : 0);
    /* B answers in the order received, then confirms x4 */
    if (request_first) fx_push_msg(&X, FX_B, fx_ctrl(UAL_MT_LINK_WIDTH, 0, 0, UAL_CMD_NACK, 1));
    fx_push_msg(&X, FX_B, ack4);
    fx_flush(&X, FX_B);
    CHECK_EQ(X.a.dp.s[FX_A].width, 2);
    if (v == 2) fx_msg(&X, FX_A, req2);
    if (!request_first) {
      fx_msg(&X, FX_B, fx_ctrl(UAL_MT_LINK_WIDTH, 0, 1, UAL_CMD_ACK, 1));
      fx_msg(&X, FX_A, fx_ctrl(UAL_MT_LINK_WIDTH, 0, 1, UAL_CMD_ACK, 1));
    }
    CHECK_EQ(X.a.dp.s[FX_A].width, request_first ? 2 : 1);
    CHECK_EQ(X.a.dp.s[FX_B].width, request_first ? 2 : 1);
    CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_OUTSTANDING), (unsigned)broken);
    CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESOLUTION), 0);
    CHECK_EQ(problems_except(&X, UAL_R_DM_CTRL_OUTSTANDING, UAL_R_DM_CTRL_OUTSTANDING), 0);
  }
}

/* One control negotiation: A requests, B answers with cmd; A confirms an
 * Ack. Returns whether B's answer raised DM-CTRL-RESPONSE-RULE. */
static bool negotiate_answer(unsigned type, unsigned prio, unsigned target, unsigned cmd) {
  fx_msg(&X, FX_A, fx_ctrl(type, prio, target, UAL_CMD_REQUEST, 0));
  fx_msg(&X, FX_B, fx_ctrl(type, 0, cmd == UAL_CMD_ACK ? target : 0, cmd, target));
  bool raised = found_here(&X, UAL_R_DM_CTRL_RESPONSE_RULE) != 0;
  if (cmd == UAL_CMD_ACK) fx_msg(&X, FX_A, fx_ctrl(type, 0, target, UAL_CMD_ACK, target));
  return raised;
}

/* 3. Response rules (seed 000 lines 712-716, 772-776, 832-836). Without
 * Priority a width request narrower than the maximum allowed width and a
 * speed request lower than the maximum allowed speed are Acked; the
 * trained width, the width flits cross at and the speeds the link was
 * negotiated to bound the maximum from below. A Priority request for a lower-power link state (L1
 * from L0) must be granted. The broken twin Nacks each of them. */
static void test_response_rules(void) {
  for (int broken = 0; broken < 2; broken++) {
    unsigned cmd = broken ? UAL_CMD_NACK : UAL_CMD_ACK;
    /* width: trained x8, now x2 after a negotiation; x4 is below x8 */
    fresh_accels();
    negotiate_answer(UAL_MT_LINK_WIDTH, 0, 1, UAL_CMD_ACK);
    CHECK_EQ(negotiate_answer(UAL_MT_LINK_WIDTH, 0, 2, cmd), broken);
    CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESPONSE_RULE), (unsigned)broken);
    CHECK_EQ(fx_problems(&X), (unsigned)broken);
    /* width, first request after link-up (issue 39 item 2): x2 is below
     * the x8 the flits cross at, also when the training's records gave no
     * width (0) or one lane (1) */
    for (unsigned lanes = 0; lanes < 2; lanes++) {
      fx_init(&X);
      X.role_b = UAL_ROLE_ACCEL;
      X.width = (uint8_t)lanes;
      fx_train(&X, true);
      X.width = 8;
      fx_clear_counts(&X);
      CHECK_EQ(negotiate_answer(UAL_MT_LINK_WIDTH, 0, 1, cmd), broken);
      CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESPONSE_RULE), (unsigned)broken);
      CHECK_EQ(fx_problems(&X), (unsigned)broken);
      if (!broken) CHECK_EQ(X.a.dp.s[FX_B].width, 1);
    }
    /* speed: the link was negotiated up to 64.0 GT/s, then down to 2.5;
     * 32.0 is below the maximum allowed */
    fresh_accels();
    negotiate_answer(UAL_MT_LINK_SPEED, 0, 1, UAL_CMD_ACK);
    negotiate_answer(UAL_MT_LINK_SPEED, 0, 2, UAL_CMD_ACK);
    negotiate_answer(UAL_MT_LINK_SPEED, 0, 0, UAL_CMD_ACK);
    CHECK_EQ(negotiate_answer(UAL_MT_LINK_SPEED, 0, 1, cmd), broken);
    CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESPONSE_RULE), (unsigned)broken);
    CHECK_EQ(fx_problems(&X), (unsigned)broken);
    /* state: Priority L1 from L0, channels offline */
    fresh_accels();
    CHECK_EQ(negotiate_answer(UAL_MT_LINK_STATE, 1, 1, cmd), broken);
    CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESPONSE_RULE), (unsigned)broken);
    CHECK_EQ(fx_problems(&X), (unsigned)broken);
  }
}

/* 4. Other DL messages are blocked during a UART Stream Transport (seed 000
 * line 484), and rules.md excludes those segments from the response
 * deadline. At 2.5 GT/s x1 (1.024 us per flit) B's 33-DWord transport
 * began before A's request and takes about 8 us (longer here: B's flits
 * alternate with A's NOP flits in time); B answers in the first alternate
 * sector after it: not late, and nothing is raised while the transport
 * runs. The broken twin answers 1 us plus two flits after the transport
 * ended: DM-RESPONSE-LATE. Basic and control requests alike. */
static void test_response_during_transport(void) {
  for (int v = 0; v < 4; v++) {
    bool broken = v & 1, basic = v & 2;
    fresh_accels();
    X.width = 1;
    fx_channels_online(&X);
    fx_msg(&X, FX_A, fx_uart(UAL_MT_UART_CREDIT, 128));
    fx_clear_counts(&X);
    fx_push_transport(&X, FX_B, 32, NULL);
    fx_data(&X, FX_B);                                /* header and 3 of 32 payload DWords */
    uint32_t req = basic ? fx_basic(UAL_MT_DEVICE_ID, 0, 5, 1) : fx_ctrl(UAL_MT_LINK_WIDTH, 0, 2, UAL_CMD_REQUEST, 0);
    fx_msg(&X, FX_A, req);
    while (X.a.dp.s[FX_B].uart_open > (broken ? 0 : 4)) {
      fx_data(&X, FX_B);
      fx_nop(&X, FX_A, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
    }
    CHECK_EQ(fx_count(&X, UAL_R_DM_RESPONSE_LATE), 0);
    if (broken) X.ts_ns += 2 * fx_ft_ns(&X) + UAL_RESPONSE_NS + 100;
    uint32_t ans = basic ? fx_basic(UAL_MT_DEVICE_ID, 1, 9, 1) : fx_ctrl(UAL_MT_LINK_WIDTH, 0, 2, UAL_CMD_ACK, 2);
    fx_push_msg(&X, FX_B, ans);
    fx_flush(&X, FX_B);
    CHECK_EQ(found_here(&X, UAL_R_DM_RESPONSE_LATE), broken ? X.frame : 0);
    if (!basic) fx_msg(&X, FX_A, fx_ctrl(UAL_MT_LINK_WIDTH, 0, 2, UAL_CMD_ACK, 2));
    CHECK_EQ(fx_count(&X, UAL_R_DM_RESPONSE_LATE), broken ? 1u : 0u);
    CHECK_EQ(problems_except(&X, UAL_R_DM_RESPONSE_LATE, UAL_R_DM_RESPONSE_LATE), 0);
  }
}

/* Issue 39 item 4. The same when B's transport begins after the request
 * but before it can have reached B: A's TL Rate notification (or LinkWidth
 * request), then B's next flit, half a flit time later, begins a 33-DWord
 * transport and B answers in the first alternate sector after it. Broken
 * twin: the answer comes 1 us plus two flits after the transport. */
static void test_response_after_transport_began(void) {
  for (int v = 0; v < 4; v++) {
    bool broken = v & 1, ctrl = v & 2;
    fresh_accels();
    X.width = 1;
    fx_channels_online(&X);
    fx_msg(&X, FX_A, fx_uart(UAL_MT_UART_CREDIT, 128));
    fx_clear_counts(&X);
    fx_msg(&X, FX_A, ctrl ? fx_ctrl(UAL_MT_LINK_WIDTH, 0, 2, UAL_CMD_REQUEST, 0) : fx_basic(UAL_MT_TL_RATE, 0, 2000, 0));
    X.ts_ns -= fx_ft_ns(&X) / 2;
    fx_push_transport(&X, FX_B, 32, NULL);
    while (ual_pack_msg_queued(&X.pack[FX_B])) {
      fx_data(&X, FX_B);
      fx_nop(&X, FX_A, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
    }
    CHECK_EQ(fx_count(&X, UAL_R_DM_RESPONSE_LATE), 0);
    if (broken) X.ts_ns += 2 * fx_ft_ns(&X) + UAL_RESPONSE_NS + 100;
    fx_msg(&X, FX_B, ctrl ? fx_ctrl(UAL_MT_LINK_WIDTH, 0, 2, UAL_CMD_ACK, 2) : fx_basic(UAL_MT_TL_RATE, 1, 0, 0));
    CHECK_EQ(found_here(&X, UAL_R_DM_RESPONSE_LATE), broken ? X.frame : 0);
    if (ctrl) fx_msg(&X, FX_A, fx_ctrl(UAL_MT_LINK_WIDTH, 0, 2, UAL_CMD_ACK, 2));
    CHECK_EQ(fx_count(&X, UAL_R_DM_RESPONSE_LATE), broken ? 1u : 0u);
    CHECK_EQ(problems_except(&X, UAL_R_DM_RESPONSE_LATE, UAL_R_DM_RESPONSE_LATE), 0);
  }
}

/* Recovery to rate at 128b/130b: RcvrLock, RcvrCfg, Speed, then at the new
 * rate RcvrLock sending EIEOS and TS1 twice; with eq the equalization
 * phases 1..3 (TS1 with Equalization Control = the phase); RcvrCfg, Idle,
 * L0. Returns the frame of the first TS1 with EC != 0 (0 if none). */
static uint64_t eq_frame;           /* where speed_change saw LT-EQ-CH0-ONLINE */
static uint64_t speed_change(unsigned rate, bool eq) {
  uint64_t first_ec = 0;
  eq_frame = 0;
  for (unsigned d = 0; d < 2; d++) fx_ts(&X, d, 0, 0, 0, false, 0);
  for (unsigned d = 0; d < 2; d++) fx_ts(&X, d, 1, 0, 0, false, 0);
  for (unsigned d = 0; d < 2; d++) fx_os(&X, d, UAL_OS_EIOS);
  for (unsigned d = 0; d < 2; d++) fx_event(&X, d, UAL_EV_EIDLE_ENTER, 0);
  X.rate = (uint8_t)rate;
  for (unsigned d = 0; d < 2; d++) fx_event(&X, d, UAL_EV_RATE, rate);
  for (unsigned d = 0; d < 2; d++) fx_event(&X, d, UAL_EV_EIDLE_EXIT, 0);
  for (int i = 0; i < 2; i++)
    for (unsigned d = 0; d < 2; d++) {
      fx_os(&X, d, UAL_OS_EIEOS);
      fx_ts(&X, d, 0, 0, 0, false, 0);
    }
  if (eq)
    for (unsigned ph = 1; ph <= 3; ph++)
      for (unsigned d = 0; d < 2; d++) {
        fx_os(&X, d, UAL_OS_EIEOS);
        fx_ts_eq(&X, d, 0, 0, 0, false, 0, ph);
        if (!first_ec) first_ec = X.frame;
        if (!eq_frame && found_here(&X, UAL_R_LT_EQ_CH0_ONLINE)) eq_frame = X.frame;
      }
  for (unsigned d = 0; d < 2; d++) fx_ts(&X, d, 1, 0, 0, false, 0);
  for (unsigned d = 0; d < 2; d++) fx_os(&X, d, UAL_OS_SDS);
  for (unsigned d = 0; d < 2; d++) fx_idle(&X, d);
  for (unsigned d = 0; d < 2; d++) fx_nop(&X, d, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
  return first_ec;
}

/* 6. Equalization shows on the wire as TS1 with Equalization Control != 00b
 * (digest §5.4); no equalization while channel 0 is online. The accelerator
 * negotiates 32.0 GT/s and the link equalizes, then channel 0 goes online.
 * Broken twin: it negotiates 64.0 GT/s and equalizes again with channel 0
 * online: LT-EQ-CH0-ONLINE at the first TS1 with EC != 0. Clean twin: the
 * second speed change has no equalization, only the EIEOS every RcvrLock
 * at 128b/130b sends (no proof of equalization). */
static void test_eq_ch0_online(void) {
  for (int broken = 0; broken < 2; broken++) {
    fx_init(&X);
    fx_train(&X, true);
    fx_negotiate(&X, FX_A, UAL_MT_LINK_SPEED, 1);
    CHECK(speed_change(2, true) != 0);
    CHECK_EQ(fx_count(&X, UAL_R_LT_EQ_CH0_ONLINE), 0);
    fx_negotiate(&X, FX_A, UAL_MT_CHANNEL, CH0_ON);
    fx_negotiate(&X, FX_A, UAL_MT_LINK_SPEED, 2);
    fx_clear_counts(&X);
    uint64_t at = speed_change(3, broken);
    CHECK_EQ(fx_count(&X, UAL_R_LT_EQ_CH0_ONLINE), (unsigned)broken);
    CHECK_EQ(problems_except(&X, UAL_R_LT_EQ_CH0_ONLINE, UAL_R_LT_EQ_CH0_ONLINE), 0);
    CHECK_EQ(X.a.lt.p[FX_A].state, UAL_LT_L0);
    if (broken) CHECK_EQ(eq_frame, at);
  }
}

int main(void) {
  test_eq_ch0_online();
  test_response_during_transport();
  test_response_after_transport_began();
  test_response_rules();
  test_response_order();
  test_outstanding_after_ack();
  test_replay_start();
  test_nak_is_info();
  test_ack_ahead_after_link_up();
  test_ack_ahead_mid_stream();
  return check_done("test_fidelity");
}
