/* DL message protocols: basic request/response, TL rates, control
 * negotiations (response rules, resolution, Decision Pending, confirms),
 * channel state, and the DM-*, DL-CH0-OFFLINE and L1 rules that need them. */
#include "analysis_fixture.h"

static struct fx X;

static const struct ual_dlproto_side *side(unsigned d) { return &X.a.dp.s[d]; }

#define REQ(t, target) fx_ctrl(t, 0, target, UAL_CMD_REQUEST, 0)
#define ACK(t, target) fx_ctrl(t, 0, target, UAL_CMD_ACK, target)
#define NACK(t, own, target) fx_ctrl(t, 0, own, UAL_CMD_NACK, target)
#define PENDING(t, target) fx_ctrl(t, 0, 0, UAL_CMD_PENDING, target)
#define CH0_ON (UAL_CHAN_ONLINE | UAL_CHAN_TL)
#define CH4_ON (UAL_CHAN_ONLINE | UAL_CHAN_UART)

/* A link just trained: the DL state is known (channels offline, 2.5 GT/s, x8). */
static void fresh(bool accel_peer) {
  fx_init(&X);
  if (accel_peer) X.role_b = UAL_ROLE_ACCEL;
  fx_train(&X, true);
  fx_clear_counts(&X);
}

static void test_negotiation_complete(void) {
  fresh(false);
  fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, CH0_ON));
  uint64_t t_req = X.ts_ns - fx_ft_ns(&X), f_req = X.a.dp.s[FX_A].req.frame;
  CHECK(f_req > 0);
  CHECK_EQ(side(FX_A)->req.state, UAL_CS_SENT);
  fx_msg(&X, FX_B, ACK(UAL_MT_CHANNEL, CH0_ON));
  CHECK_EQ(side(FX_A)->req.state, UAL_CS_GRANTED);
  CHECK_EQ(side(FX_A)->ch0, 0);                       /* not yet: needs the confirming Ack */
  fx_msg(&X, FX_A, ACK(UAL_MT_CHANNEL, CH0_ON));
  CHECK_EQ(side(FX_A)->ch0, 1);
  CHECK_EQ(side(FX_B)->ch0, 1);
  CHECK_EQ(fx_problems(&X), 0);
  CHECK_EQ(X.events[UAL_TEV_CHANNEL], 2);
  bool found = false;
  for (unsigned i = 0; i < X.ev.n; i++)
    if (X.ev.v[i].kind == UAL_TEV_NEGOTIATION && X.ev.v[i].outcome == UAL_NEG_COMPLETE) {
      found = true;
      CHECK_EQ(X.ev.v[i].mtype, UAL_MT_CHANNEL);
      CHECK_EQ(X.ev.v[i].latency_ns, X.ts_ns - fx_ft_ns(&X) - t_req);
      CHECK_EQ(X.ev.v[i].req_frame, f_req);  /* the confirm names its request */
    }
  CHECK(found);
  struct ual_analysis_summary s;
  ual_analyzer_summary(&X.a, &s);
  CHECK_EQ(s.negs[FX_A][UAL_NEG_COMPLETE], 1);
  CHECK_EQ(s.negs[FX_B][UAL_NEG_ACK], 1);

  fx_negotiate(&X, FX_A, UAL_MT_LINK_WIDTH, 2);
  CHECK_EQ(side(FX_B)->width, 2);
  fx_negotiate(&X, FX_A, UAL_MT_LINK_SPEED, 1);
  CHECK_EQ(side(FX_A)->speed, 1);
  CHECK_EQ(fx_problems(&X), 0);
}

static void test_basic(void) {
  fresh(false);                                      /* clean: request, response, request */
  fx_msg(&X, FX_A, fx_basic(UAL_MT_DEVICE_ID, 0, 5, 1));
  fx_msg(&X, FX_B, fx_basic(UAL_MT_DEVICE_ID, 1, 9, 0));
  fx_msg(&X, FX_A, fx_basic(UAL_MT_DEVICE_ID, 0, 5, 1));
  CHECK_EQ(fx_problems(&X), 0);
  CHECK_EQ(side(FX_B)->role_learned, UAL_ROLE_SWITCH);
  CHECK_EQ(side(FX_B)->dev_id, 9);
  fx_msg(&X, FX_A, fx_basic(UAL_MT_DEVICE_ID, 0, 5, 1));   /* unanswered one outstanding */
  CHECK_EQ(fx_count(&X, UAL_R_DM_BASIC_OUTSTANDING), 1);

  fresh(false);                                      /* a response nobody asked for */
  fx_msg(&X, FX_B, fx_basic(UAL_MT_PORT_NUMBER, 1, 3, 0));
  CHECK_EQ(fx_count(&X, UAL_R_DM_UNSOLICITED), 1);

  fx_init(&X);                                       /* mid-stream: may answer an earlier request */
  fx_msg(&X, FX_B, fx_basic(UAL_MT_PORT_NUMBER, 1, 3, 0));
  CHECK_EQ(fx_count(&X, UAL_R_DM_UNSOLICITED), 0);
  X.ts_ns += 5000;                                   /* a response time later it cannot */
  fx_msg(&X, FX_B, fx_basic(UAL_MT_PORT_NUMBER, 1, 3, 0));
  CHECK_EQ(fx_count(&X, UAL_R_DM_UNSOLICITED), 1);
}

static void test_response_late(void) {
  fresh(false);
  fx_msg(&X, FX_A, fx_basic(UAL_MT_DEVICE_ID, 0, 5, 1));
  X.ts_ns += 900;                                    /* within 1 us + one flit */
  fx_msg(&X, FX_B, fx_basic(UAL_MT_DEVICE_ID, 1, 9, 0));
  CHECK_EQ(fx_count(&X, UAL_R_DM_RESPONSE_LATE), 0);
  fx_msg(&X, FX_A, fx_basic(UAL_MT_DEVICE_ID, 0, 5, 1));
  X.ts_ns += 1500;
  fx_msg(&X, FX_B, fx_basic(UAL_MT_DEVICE_ID, 1, 9, 0));
  CHECK_EQ(fx_count(&X, UAL_R_DM_RESPONSE_LATE), 1);

  fresh(false);                                      /* no response at all: raised once, in time */
  fx_msg(&X, FX_A, fx_basic(UAL_MT_TL_RATE, 0, 40000, 0));
  for (int i = 0; i < 20; i++) fx_nop(&X, FX_B, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
  CHECK_EQ(fx_count(&X, UAL_R_DM_RESPONSE_LATE), 1);
  fx_msg(&X, FX_B, fx_basic(UAL_MT_TL_RATE, 1, 0, 0));
  CHECK_EQ(fx_count(&X, UAL_R_DM_RESPONSE_LATE), 1);

  fresh(false);                                      /* control answers too */
  fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, CH0_ON));
  X.ts_ns += 2000;
  fx_msg(&X, FX_B, ACK(UAL_MT_CHANNEL, CH0_ON));
  CHECK_EQ(fx_count(&X, UAL_R_DM_RESPONSE_LATE), 1);
}

/* Time the responder spends finishing the UART transport it had open when
 * the request came does not count; a transport started later does, and so
 * does time after the transport ended. */
static void test_response_uart_allowance(void) {
  for (int v = 0; v < 3; v++) {
    fresh(false);
    fx_channels_online(&X);
    fx_msg(&X, FX_A, fx_uart(UAL_MT_UART_CREDIT, 128));
    fx_clear_counts(&X);
    if (v < 2) {
      fx_push_transport(&X, FX_B, 32, NULL);
      fx_data(&X, FX_B);                              /* 4 of 33 segments sent */
      CHECK_EQ(X.a.dp.s[FX_B].uart_open, 29);
    }
    fx_msg(&X, FX_A, fx_basic(UAL_MT_DEVICE_ID, 0, 5, 1));
    if (v == 1)
      while (X.a.dp.s[FX_B].uart_open) fx_data(&X, FX_B);
    X.ts_ns += v == 1 ? 1500 : 900;
    if (v == 2) fx_push_transport(&X, FX_B, 32, NULL);
    fx_push_msg(&X, FX_B, fx_basic(UAL_MT_DEVICE_ID, 1, 9, 0));
    fx_flush(&X, FX_B);
    CHECK_EQ(fx_count(&X, UAL_R_DM_RESPONSE_LATE), v ? 1u : 0u);
    CHECK_EQ(fx_problems(&X), v ? 1u : 0u);
  }
}

static void test_tl_rate(void) {
  fresh(false);
  unsigned rates[] = { 40000, UAL_RATE_REF, 30000, UAL_RATE_REF, 36875 };
  for (unsigned i = 0; i < 5; i++) {
    fx_msg(&X, FX_A, fx_basic(UAL_MT_TL_RATE, 0, rates[i], 0));
    fx_msg(&X, FX_B, fx_basic(UAL_MT_TL_RATE, 1, 0, 0));
  }
  CHECK_EQ(fx_problems(&X), 0);
  CHECK_EQ(side(FX_A)->tl_rate, 36875);
  CHECK_EQ(X.events[UAL_TEV_TL_RATE], 5);
  fx_msg(&X, FX_A, fx_basic(UAL_MT_TL_RATE, 0, 20000, 0));   /* straight to another rate */
  CHECK_EQ(fx_count(&X, UAL_R_DM_RATE_SEQUENCE), 1);
  fx_msg(&X, FX_B, fx_basic(UAL_MT_TL_RATE, 0, 40000, 0));   /* from the switch */
  CHECK_EQ(fx_count(&X, UAL_R_DM_RATE_SWITCH), 1);
}

static void test_ctrl_outstanding(void) {
  fresh(false);
  fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, CH0_ON));
  fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, CH4_ON));     /* its own is unanswered */
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_OUTSTANDING), 1);

  fresh(true);                                       /* B Acked A's request, then requests before the confirm */
  fx_msg(&X, FX_A, REQ(UAL_MT_LINK_WIDTH, 2));
  fx_msg(&X, FX_B, ACK(UAL_MT_LINK_WIDTH, 2));
  fx_msg(&X, FX_B, REQ(UAL_MT_CHANNEL, CH0_ON));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_OUTSTANDING), 1);

  fresh(true);                                       /* requests that cross on the wire are legal */
  fx_msg(&X, FX_A, REQ(UAL_MT_LINK_WIDTH, 2));
  fx_msg(&X, FX_B, REQ(UAL_MT_CHANNEL, CH0_ON));
  fx_msg(&X, FX_A, ACK(UAL_MT_CHANNEL, CH0_ON));
  fx_msg(&X, FX_B, ACK(UAL_MT_LINK_WIDTH, 2));
  fx_msg(&X, FX_A, ACK(UAL_MT_LINK_WIDTH, 2));
  fx_msg(&X, FX_B, ACK(UAL_MT_CHANNEL, CH0_ON));
  CHECK_EQ(fx_problems(&X), 0);
  CHECK_EQ(side(FX_A)->width, 2);
  CHECK_EQ(side(FX_A)->ch0, 1);
}

static void test_pending(void) {
  fresh(false);                                      /* clean: the switch requests after Pending */
  fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, CH0_ON));
  fx_msg(&X, FX_B, PENDING(UAL_MT_CHANNEL, CH0_ON));
  CHECK_EQ(side(FX_B)->dp_owed, 1);
  X.ts_ns += 5000000;
  fx_msg(&X, FX_B, REQ(UAL_MT_CHANNEL, CH0_ON));
  fx_msg(&X, FX_A, ACK(UAL_MT_CHANNEL, CH0_ON));
  fx_msg(&X, FX_B, ACK(UAL_MT_CHANNEL, CH0_ON));
  CHECK_EQ(fx_problems(&X), 0);
  CHECK_EQ(side(FX_A)->ch0, 1);
  CHECK_EQ(side(FX_B)->dp_owed, 0);

  fresh(false);                                      /* no request within 10 ms */
  fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, CH0_ON));
  fx_msg(&X, FX_B, PENDING(UAL_MT_CHANNEL, CH0_ON));
  fx_nop(&X, FX_B, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_PENDING_TIMEOUT), 0);
  X.ts_ns += UAL_PENDING_NS + 1000;
  fx_nop(&X, FX_B, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_PENDING_TIMEOUT), 1);

  fresh(false);                                      /* the requester may not ask again meanwhile */
  fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, CH0_ON));
  fx_msg(&X, FX_B, PENDING(UAL_MT_CHANNEL, CH0_ON));
  fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, CH0_ON));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_OUTSTANDING), 1);

  fresh(true);                                       /* Pending while its own request is out */
  fx_msg(&X, FX_A, REQ(UAL_MT_LINK_WIDTH, 2));
  fx_msg(&X, FX_B, REQ(UAL_MT_LINK_WIDTH, 1));
  fx_msg(&X, FX_B, PENDING(UAL_MT_LINK_WIDTH, 2));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_PENDING_ILLEGAL), 1);
}

static void test_initiator(void) {
  fresh(false);
  fx_channels_online(&X);
  fx_msg(&X, FX_B, REQ(UAL_MT_CHANNEL, UAL_CHAN_UART));    /* the switch asks for ch4 offline */
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_INITIATOR), 1);
  fresh(true);                                       /* two accelerators: either may */
  fx_msg(&X, FX_B, REQ(UAL_MT_CHANNEL, CH0_ON));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_INITIATOR), 0);
}

/* Mid-stream, a switch's request may follow a Decision Pending sent before
 * the capture: DM-CTRL-INITIATOR waits until 10 ms (plus a response window)
 * of its messages are known, from the capture start and from lost records. */
static void initiator_toggle(uint64_t at_ns, unsigned *raised) {
  X.ts_ns = at_ns;
  fx_msg(&X, FX_B, REQ(UAL_MT_CHANNEL, CH4_ON));
  fx_msg(&X, FX_A, ACK(UAL_MT_CHANNEL, CH4_ON));
  fx_msg(&X, FX_B, ACK(UAL_MT_CHANNEL, CH4_ON));
  *raised = fx_count(&X, UAL_R_DM_CTRL_INITIATOR);
  fx_msg(&X, FX_B, REQ(UAL_MT_CHANNEL, UAL_CHAN_UART));
  fx_msg(&X, FX_A, ACK(UAL_MT_CHANNEL, UAL_CHAN_UART));
  fx_msg(&X, FX_B, ACK(UAL_MT_CHANNEL, UAL_CHAN_UART));
}

static void test_initiator_mid_stream(void) {
  unsigned n;
  fx_init(&X);
  uint64_t t0 = X.ts_ns;
  fx_sync(&X);
  initiator_toggle(t0 + 1000, &n);                   /* at the start */
  CHECK_EQ(n, 0);
  initiator_toggle(t0 + UAL_PENDING_NS - 1000, &n);  /* still within 10 ms of it */
  CHECK_EQ(n, 0);
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_INITIATOR), 0);
  CHECK_EQ(fx_problems(&X), 0);
  initiator_toggle(t0 + UAL_PENDING_NS + 10000, &n);  /* 10 ms and a response window known */
  CHECK_EQ(n, 1);
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_INITIATOR), 2);

  fx_clear_counts(&X);                               /* records lost: 10 ms from there */
  uint64_t t1 = X.ts_ns;
  X.next_flags = UAL_RF_LOST;
  fx_payload_hdr(&X, FX_B, UAL_RC_SEQ, ual_seq_add(X.next_seq[FX_B], UAL_SEQ_MOD - 1), false);
  initiator_toggle(t1 + UAL_PENDING_NS - 1000, &n);
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_INITIATOR), 0);
  initiator_toggle(t1 + UAL_PENDING_NS + 10000, &n);
  CHECK_EQ(n, 1);

  fresh(false);                                      /* from a link-up everything is known */
  fx_channels_online(&X);
  fx_msg(&X, FX_B, REQ(UAL_MT_CHANNEL, UAL_CHAN_UART));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_INITIATOR), 1);
}

static void test_response_rules(void) {
  fresh(false);
  fx_channels_online(&X);
  fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, UAL_CHAN_TL));      /* offline must be Acked */
  fx_msg(&X, FX_B, NACK(UAL_MT_CHANNEL, CH0_ON, UAL_CHAN_TL));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESPONSE_RULE), 1);

  fresh(false);                                      /* online: Ack or Pending, never Nack */
  fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, CH0_ON));
  fx_msg(&X, FX_B, NACK(UAL_MT_CHANNEL, UAL_CHAN_TL, CH0_ON));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESPONSE_RULE), 1);

  fx_init(&X);                                       /* channel rules hold whatever the state */
  fx_sync(&X);
  fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, UAL_CHAN_UART));
  fx_msg(&X, FX_B, NACK(UAL_MT_CHANNEL, CH4_ON, UAL_CHAN_UART));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESPONSE_RULE), 1);

  fresh(false);                                      /* Priority: wider than current is Nacked */
  fx_negotiate(&X, FX_A, UAL_MT_LINK_WIDTH, 2);
  fx_msg(&X, FX_A, fx_ctrl(UAL_MT_LINK_WIDTH, 1, 3, UAL_CMD_REQUEST, 0));
  fx_msg(&X, FX_B, ACK(UAL_MT_LINK_WIDTH, 3));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESPONSE_RULE), 1);
  fx_msg(&X, FX_A, ACK(UAL_MT_LINK_WIDTH, 3));
  fx_msg(&X, FX_A, fx_ctrl(UAL_MT_LINK_WIDTH, 1, 1, UAL_CMD_REQUEST, 0));   /* narrower: granted */
  fx_msg(&X, FX_B, fx_ctrl(UAL_MT_LINK_WIDTH, 0, 3, UAL_CMD_NACK, 1));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESPONSE_RULE), 2);

  fresh(false);                                      /* no Priority, narrower than the trained width: Ack */
  fx_msg(&X, FX_A, REQ(UAL_MT_LINK_WIDTH, 1));
  fx_msg(&X, FX_B, NACK(UAL_MT_LINK_WIDTH, 3, 1));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESPONSE_RULE), 1);
  fx_msg(&X, FX_A, fx_ctrl(UAL_MT_LINK_SPEED, 1, 1, UAL_CMD_REQUEST, 0));   /* Priority, higher speed */
  fx_msg(&X, FX_B, fx_ctrl(UAL_MT_LINK_SPEED, 0, 0, UAL_CMD_NACK, 1));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESPONSE_RULE), 1);

  fx_init(&X);                                       /* width unknown: not judged */
  fx_msg(&X, FX_A, REQ(UAL_MT_LINK_WIDTH, 1));
  fx_msg(&X, FX_B, NACK(UAL_MT_LINK_WIDTH, 3, 1));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESPONSE_RULE), 0);
}

static void test_same_state(void) {
  fresh(false);
  fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, UAL_CHAN_TL));      /* already offline */
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_SAME_STATE), 1);
  fx_msg(&X, FX_B, ACK(UAL_MT_CHANNEL, UAL_CHAN_TL));       /* the responder still Acks */
  fx_msg(&X, FX_A, ACK(UAL_MT_CHANNEL, UAL_CHAN_TL));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESPONSE_RULE), 0);
  fx_msg(&X, FX_A, REQ(UAL_MT_LINK_WIDTH, 3));              /* x8: the trained width */
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_SAME_STATE), 2);
  fx_msg(&X, FX_B, NACK(UAL_MT_LINK_WIDTH, 3, 3));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESPONSE_RULE), 1);

  fx_init(&X);                                       /* unknown state: not raised */
  fx_msg(&X, FX_A, REQ(UAL_MT_LINK_WIDTH, 3));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_SAME_STATE), 0);
  fx_init(&X);                                       /* TL flits show channel 0 online */
  fx_sync(&X);
  fx_push_tl(&X, FX_A, 2);
  fx_flush(&X, FX_A);
  fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, CH0_ON));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_SAME_STATE), 1);
}

static void test_echo(void) {
  fresh(false);
  fx_msg(&X, FX_A, fx_ctrl(UAL_MT_CHANNEL, 0, CH0_ON, UAL_CMD_REQUEST, 4));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_ECHO), 1);
  fx_msg(&X, FX_B, fx_ctrl(UAL_MT_CHANNEL, 0, CH0_ON, UAL_CMD_ACK, CH4_ON));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_ECHO), 2);
  fx_msg(&X, FX_A, fx_ctrl(UAL_MT_CHANNEL, 0, 0, UAL_CMD_ACK, 0));   /* confirm: not checked */
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_ECHO), 2);
  fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, CH4_ON));
  fx_msg(&X, FX_B, fx_ctrl(UAL_MT_CHANNEL, 0, CH4_ON, UAL_CMD_PENDING, CH4_ON));   /* TargetState must be 0 */
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_ECHO), 3);
}

static void test_no_confirm(void) {
  fresh(false);
  fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, CH0_ON));
  fx_msg(&X, FX_B, ACK(UAL_MT_CHANNEL, CH0_ON));
  fx_nop(&X, FX_A, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_NO_CONFIRM), 0);
  X.ts_ns += UAL_CONFIRM_NS;
  fx_nop(&X, FX_A, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_NO_CONFIRM), 1);
  CHECK_EQ(side(FX_A)->ch0, 0);

  for (int wait = 0; wait < 2; wait++) {             /* at the end of the capture */
    fresh(false);
    fx_msg(&X, FX_A, REQ(UAL_MT_CHANNEL, CH0_ON));
    fx_msg(&X, FX_B, ACK(UAL_MT_CHANNEL, CH0_ON));
    if (wait) { X.ts_ns += 3000; fx_nop(&X, FX_B, UAL_RC_ACK, 0, UAL_DLLP_NOP2); }
    struct ual_findings f;
    ual_findings_clear(&f);
    ual_analyzer_finish(&X.a, &f, NULL);
    CHECK_EQ(ual_findings_has(&f, UAL_R_DM_CTRL_NO_CONFIRM), wait);   /* ended right after: unknown */
    if (wait) CHECK_EQ(f.v[0].dir, FX_A);                            /* A owes the confirming Ack */
  }
}

static void test_resolution(void) {
  fresh(true);                                       /* no Priority: widest wins */
  fx_msg(&X, FX_A, REQ(UAL_MT_LINK_WIDTH, 2));
  fx_msg(&X, FX_B, REQ(UAL_MT_LINK_WIDTH, 1));
  fx_msg(&X, FX_A, NACK(UAL_MT_LINK_WIDTH, 2, 1));
  fx_msg(&X, FX_B, ACK(UAL_MT_LINK_WIDTH, 2));
  fx_msg(&X, FX_A, ACK(UAL_MT_LINK_WIDTH, 2));
  CHECK_EQ(fx_problems(&X), 0);
  CHECK_EQ(side(FX_B)->width, 2);
  CHECK_EQ(side(FX_B)->lost[0], 1);
  fx_msg(&X, FX_B, REQ(UAL_MT_LINK_WIDTH, 1));       /* the loser, same request again */
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_LOSER_RETRY), 1);

  fresh(true);                                       /* a new reason: allowed */
  fx_msg(&X, FX_A, REQ(UAL_MT_LINK_WIDTH, 2));
  fx_msg(&X, FX_B, REQ(UAL_MT_LINK_WIDTH, 1));
  fx_msg(&X, FX_A, NACK(UAL_MT_LINK_WIDTH, 2, 1));
  fx_msg(&X, FX_B, ACK(UAL_MT_LINK_WIDTH, 2));
  fx_msg(&X, FX_A, ACK(UAL_MT_LINK_WIDTH, 2));
  fx_msg(&X, FX_B, REQ(UAL_MT_LINK_WIDTH, 0));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_LOSER_RETRY), 0);

  fresh(true);                                       /* resolved the wrong way */
  fx_msg(&X, FX_A, REQ(UAL_MT_LINK_WIDTH, 2));
  fx_msg(&X, FX_B, REQ(UAL_MT_LINK_WIDTH, 1));
  fx_msg(&X, FX_A, ACK(UAL_MT_LINK_WIDTH, 1));
  fx_msg(&X, FX_B, NACK(UAL_MT_LINK_WIDTH, 1, 2));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESOLUTION), 2);

  fresh(true);                                       /* Priority wins; the smallest with Priority */
  fx_msg(&X, FX_A, fx_ctrl(UAL_MT_LINK_WIDTH, 1, 1, UAL_CMD_REQUEST, 0));
  fx_msg(&X, FX_B, REQ(UAL_MT_LINK_WIDTH, 0));
  fx_msg(&X, FX_A, NACK(UAL_MT_LINK_WIDTH, 1, 0));
  fx_msg(&X, FX_B, ACK(UAL_MT_LINK_WIDTH, 1));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESOLUTION), 0);

  fresh(true);                                       /* identical requests: both Ack, both confirm */
  fx_msg(&X, FX_A, REQ(UAL_MT_LINK_SPEED, 1));
  fx_msg(&X, FX_B, REQ(UAL_MT_LINK_SPEED, 1));
  fx_msg(&X, FX_A, ACK(UAL_MT_LINK_SPEED, 1));
  fx_msg(&X, FX_B, ACK(UAL_MT_LINK_SPEED, 1));
  fx_msg(&X, FX_A, ACK(UAL_MT_LINK_SPEED, 1));
  fx_msg(&X, FX_B, ACK(UAL_MT_LINK_SPEED, 1));
  CHECK_EQ(fx_problems(&X), 0);
  CHECK_EQ(side(FX_A)->speed, 1);
  CHECK_EQ(X.a.dp.speed_allowed, 1);
  fresh(true);
  fx_msg(&X, FX_A, REQ(UAL_MT_LINK_SPEED, 1));
  fx_msg(&X, FX_B, REQ(UAL_MT_LINK_SPEED, 1));
  fx_msg(&X, FX_A, NACK(UAL_MT_LINK_SPEED, 1, 1));
  CHECK_EQ(fx_count(&X, UAL_R_DM_CTRL_RESOLUTION), 1);
}

static void test_ch0_offline(void) {
  fresh(false);
  fx_push_tl(&X, FX_A, 2);
  fx_flush(&X, FX_A);
  CHECK_EQ(fx_count(&X, UAL_R_DL_CH0_OFFLINE), 1);   /* once per offline period */
  fx_negotiate(&X, FX_A, UAL_MT_CHANNEL, CH0_ON);
  fx_push_tl(&X, FX_A, 4);
  fx_flush(&X, FX_A);
  CHECK_EQ(fx_count(&X, UAL_R_DL_CH0_OFFLINE), 1);
  fx_negotiate(&X, FX_A, UAL_MT_CHANNEL, UAL_CHAN_TL);
  fx_push_tl(&X, FX_A, 1);
  fx_flush(&X, FX_A);
  CHECK_EQ(fx_count(&X, UAL_R_DL_CH0_OFFLINE), 2);
  CHECK_EQ(X.tl_got[FX_A], 7);                      /* still presented */
}

static void test_l1_rules(void) {
  fresh(false);                                      /* L1 with channels still online */
  fx_channels_online(&X);
  fx_msg(&X, FX_A, REQ(UAL_MT_LINK_STATE, 1));
  CHECK_EQ(fx_count(&X, UAL_R_LT_L1_ORDER), 1);

  fresh(false);                                      /* clean entry, then payload from each side */
  fx_channels_online(&X);
  fx_negotiate(&X, FX_A, UAL_MT_CHANNEL, UAL_CHAN_TL);
  fx_negotiate(&X, FX_A, UAL_MT_CHANNEL, UAL_CHAN_UART);
  fx_msg(&X, FX_A, REQ(UAL_MT_LINK_STATE, 1));
  fx_msg(&X, FX_B, ACK(UAL_MT_LINK_STATE, 1));
  CHECK_EQ(fx_count(&X, UAL_R_LT_L1_ORDER), 0);
  fx_payload(&X, FX_B);                              /* the switch stopped after its Ack */
  CHECK_EQ(fx_count(&X, UAL_R_LT_PAYLOAD_IN_L1), 1);
  fx_msg(&X, FX_A, ACK(UAL_MT_LINK_STATE, 1));
  CHECK_EQ(fx_count(&X, UAL_R_LT_PAYLOAD_IN_L1), 1);
  fx_payload(&X, FX_A);                              /* the accelerator after its confirm */
  CHECK_EQ(fx_count(&X, UAL_R_LT_PAYLOAD_IN_L1), 2);

  fresh(false);                                      /* replays are not new payload */
  fx_channels_online(&X);
  fx_negotiate(&X, FX_A, UAL_MT_CHANNEL, UAL_CHAN_TL);
  fx_negotiate(&X, FX_A, UAL_MT_CHANNEL, UAL_CHAN_UART);
  uint8_t old[UAL_FLIT_BYTES];
  fx_make(&X, FX_A, old);
  fx_flit(&X, FX_A, old);
  fx_negotiate(&X, FX_A, UAL_MT_LINK_STATE, 1);
  fx_flit(&X, FX_A, old);
  CHECK_EQ(fx_count(&X, UAL_R_LT_PAYLOAD_IN_L1), 0);
}

static void test_exit_l1_content(void) {
  for (int bad = 0; bad < 2; bad++) {
    fresh(false);
    fx_channels_online(&X);
    fx_l1_entry(&X, 0);
    fx_l1_exit(&X);
    CHECK_EQ(fx_problems(&X), 0);
    if (bad) {
      fx_push_tl(&X, FX_A, 3);                      /* TL flits before channel 0 is online */
      fx_flush(&X, FX_A);
      fx_msg(&X, FX_A, fx_uart(UAL_MT_UART_CREDIT, 128));
      CHECK_EQ(fx_count(&X, UAL_R_LT_EXIT_L1_CONTENT), 1);   /* once, instead of: */
      CHECK_EQ(fx_count(&X, UAL_R_DL_CH0_OFFLINE), 0);
      CHECK_EQ(fx_count(&X, UAL_R_DM_UART_CH4_OFFLINE), 0);
    } else {
      fx_payload(&X, FX_A);
      fx_channels_online(&X);
      fx_push_tl(&X, FX_A, 3);
      fx_flush(&X, FX_A);
      CHECK_EQ(fx_problems(&X), 0);
    }
  }
}

/* The state accessors reflect the negotiations. */
static void test_summary(void) {
  fresh(false);
  fx_channels_online(&X);
  fx_negotiate(&X, FX_A, UAL_MT_LINK_SPEED, 1);
  fx_msg(&X, FX_A, fx_basic(UAL_MT_TL_RATE, 0, 36875, 0));
  struct ual_analysis_summary s;
  ual_analyzer_summary(&X.a, &s);
  CHECK_EQ(s.ch0[FX_B], 1);
  CHECK_EQ(s.ch4[FX_A], 1);
  CHECK_EQ(s.neg_speed[FX_B], 1);
  CHECK_EQ(s.tl_rate[FX_A], 36875);
  CHECK_EQ(s.tl_rate[FX_B], UAL_UNKNOWN);
  CHECK_EQ(s.role[FX_B], UAL_ROLE_SWITCH);
  CHECK_EQ(s.last_neg[FX_A].outcome, UAL_NEG_COMPLETE);
  CHECK_EQ(s.last_neg[FX_A].mtype, UAL_MT_LINK_SPEED);
  CHECK_EQ(s.last_neg[FX_B].outcome, UAL_NEG_ACK);
  CHECK(s.last_neg[FX_A].latency_ns > s.last_neg[FX_B].latency_ns);
  char buf[160];
  int n = ual_analyzer_state_text(&X.a, buf, sizeof buf);
  CHECK(n > 0 && (size_t)n < sizeof buf);
  CHECK(strstr(buf, "A:L0 x8 2.5 ch0=on ch4=on") != NULL);
  CHECK_EQ(ual_analyzer_state_text(&X.a, NULL, 0), n);
  static struct ual_analyzer none;                   /* nothing seen: every value "?" */
  ual_analyzer_init(&none);
  ual_analyzer_state_text(&none, buf, sizeof buf);
  CHECK_STR(buf, "A:? x? ? ch0=? ch4=? | B:? x? ? ch0=? ch4=?");
}

/* The resolution function itself, the digest's cases (§3.2). */
static void test_ctrl_wins(void) {
  CHECK(ual_ctrl_wins(3, 0, 2, 0));   /* widest wins */
  CHECK(!ual_ctrl_wins(2, 0, 3, 0));
  CHECK(ual_ctrl_wins(1, 1, 3, 1));   /* smallest with Priority on both */
  CHECK(!ual_ctrl_wins(3, 1, 1, 1));
  CHECK(ual_ctrl_wins(3, 1, 1, 0));   /* Priority beats none */
  CHECK(!ual_ctrl_wins(3, 0, 1, 1));
}

int main(void) {
  test_ctrl_wins();
  test_negotiation_complete();
  test_basic();
  test_response_late();
  test_response_uart_allowance();
  test_tl_rate();
  test_ctrl_outstanding();
  test_pending();
  test_initiator();
  test_initiator_mid_stream();
  test_response_rules();
  test_same_state();
  test_echo();
  test_no_confirm();
  test_resolution();
  test_ch0_offline();
  test_l1_rules();
  test_exit_l1_content();
  test_summary();
  return check_done("test_dlproto");
}
