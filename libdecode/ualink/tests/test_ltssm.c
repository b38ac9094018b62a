/* LTSSM and power: states reconstructed from training, speed changes with
 * equalization, L1 entry/exit and L0p, and the LT-* rules that need them. */
#include "analysis_fixture.h"

static struct fx X;

static unsigned state(unsigned dir) { return X.a.lt.p[dir].state; }

/* Recovery with a speed change (digest §5.4): RcvrLock, RcvrCfg, Speed,
 * then at the new rate RcvrLock, optional equalization phases 0..3 (EIEOS
 * and TS1 with Equalization Control = the phase; 0 in phase 0), RcvrCfg,
 * Idle and L0. */
static void recovery_speed(unsigned rate, bool eq, unsigned *seen) {
  for (unsigned d = 0; d < 2; d++) fx_ts(&X, d, 0, 0, 0, false, 0);
  for (unsigned d = 0; d < 2; d++) fx_ts(&X, d, 1, 0, 0, false, 0);
  for (unsigned d = 0; d < 2; d++) fx_os(&X, d, UAL_OS_EIOS);
  CHECK_EQ(state(FX_A), UAL_LT_REC_SPEED);
  for (unsigned d = 0; d < 2; d++) fx_event(&X, d, UAL_EV_EIDLE_ENTER, 0);
  X.rate = (uint8_t)rate;
  for (unsigned d = 0; d < 2; d++) fx_event(&X, d, UAL_EV_RATE, rate);
  for (unsigned d = 0; d < 2; d++) fx_event(&X, d, UAL_EV_EIDLE_EXIT, 0);
  for (unsigned d = 0; d < 2; d++) fx_os(&X, d, UAL_OS_EIEOS);
  for (unsigned d = 0; d < 2; d++) fx_ts(&X, d, 0, 0, 0, false, 0);
  CHECK_EQ(state(FX_A), UAL_LT_REC_LOCK);
  if (eq)
    for (unsigned ph = 0; ph < 4; ph++) {
      for (unsigned d = 0; d < 2; d++) fx_os(&X, d, UAL_OS_EIEOS);
      for (unsigned d = 0; d < 2; d++) fx_ts_eq(&X, d, 0, 0, 0, false, 0, ph);
      if (seen) seen[ph] = state(FX_A);
    }
  for (unsigned d = 0; d < 2; d++) fx_ts(&X, d, 1, 0, 0, false, 0);
  CHECK_EQ(state(FX_A), UAL_LT_REC_CFG);
  for (unsigned d = 0; d < 2; d++) fx_os(&X, d, UAL_OS_SDS);
  CHECK_EQ(state(FX_B), UAL_LT_REC_IDLE);
  for (unsigned d = 0; d < 2; d++) fx_idle(&X, d);
  for (unsigned d = 0; d < 2; d++) fx_nop(&X, d, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
  CHECK_EQ(state(FX_A), UAL_LT_L0);
}

static void test_training(void) {
  fx_init(&X);
  CHECK_EQ(state(FX_A), UAL_LT_UNKNOWN);
  fx_event(&X, FX_A, UAL_EV_RX_DETECT, 0);
  CHECK_EQ(state(FX_A), UAL_LT_DETECT_ACTIVE);
  fx_init(&X);
  fx_train(&X, true);
  CHECK_EQ(state(FX_A), UAL_LT_L0);
  CHECK_EQ(state(FX_B), UAL_LT_L0);
  CHECK_EQ(fx_problems(&X), 0);
  CHECK_EQ(X.events[UAL_TEV_LINK], 1);
  CHECK_EQ(X.a.lt.trained_width, 8);
  struct ual_analysis_summary s;
  ual_analyzer_summary(&X.a, &s);
  CHECK_EQ(s.ch0[FX_A], 0);                /* all channels offline after reset */
  CHECK_EQ(s.ch4[FX_B], 0);
  CHECK_EQ(s.neg_speed[FX_A], 0);
  CHECK_EQ(s.neg_width[FX_B], 3);          /* the trained width, x8 */
  CHECK_STR(ual_lt_state_name(s.ltssm[FX_A]), "L0");
  CHECK_EQ(s.alt_protocol[FX_A], 1);
  CHECK_EQ(s.alt_protocol[FX_B], 1);
  CHECK_EQ(X.events[UAL_TEV_ALT_PROTOCOL], 1);
}

static void test_states_on_the_way(void) {
  fx_init(&X);
  X.rate = 1;
  fx_event(&X, FX_A, UAL_EV_RX_DETECT, 0);
  fx_ts(&X, FX_A, 0, 255, 255, false, 0);
  CHECK_EQ(state(FX_A), UAL_LT_POLL_ACTIVE);
  fx_ts(&X, FX_A, 1, 255, 255, false, 0);
  CHECK_EQ(state(FX_A), UAL_LT_POLL_CONFIG);
  fx_ts(&X, FX_A, 0, 0, 255, false, 0);
  CHECK_EQ(state(FX_A), UAL_LT_CFG_LW_START);
  fx_ts(&X, FX_A, 0, 0, 255, false, 0);
  CHECK_EQ(state(FX_A), UAL_LT_CFG_LW_ACCEPT);
  fx_ts(&X, FX_A, 0, 0, 0, true, 0);
  CHECK_EQ(state(FX_A), UAL_LT_CFG_LN_WAIT);
  fx_ts(&X, FX_A, 0, 0, 0, true, 0);
  CHECK_EQ(state(FX_A), UAL_LT_CFG_LN_ACCEPT);
  fx_ts(&X, FX_A, 1, 0, 0, true, 0);
  CHECK_EQ(state(FX_A), UAL_LT_CFG_COMPLETE);
  fx_idle(&X, FX_A);
  CHECK_EQ(state(FX_A), UAL_LT_CFG_IDLE);
  fx_ts(&X, FX_A, 0, 0, 0, false, 1);       /* Hot Reset bit */
  CHECK_EQ(state(FX_A), UAL_LT_HOT_RESET);
  fx_ts(&X, FX_A, 0, 0, 0, false, 2);       /* Disable bit */
  CHECK_EQ(state(FX_A), UAL_LT_DISABLED);
}

static void test_no_alt_protocol(void) {
  fx_init(&X);
  fx_train(&X, false);
  CHECK_EQ(fx_count(&X, UAL_R_LT_NO_ALT_PROTOCOL), 1);
  CHECK_EQ(X.a.lt.p[FX_B].mts_seen, 0);
  fx_init(&X);
  fx_train(&X, true);
  CHECK_EQ(fx_count(&X, UAL_R_LT_NO_ALT_PROTOCOL), 0);
}

/* A capture that starts in Recovery is not a link-up: DL state stays unknown. */
static void test_mid_stream_recovery(void) {
  fx_init(&X);
  for (unsigned d = 0; d < 2; d++) fx_ts(&X, d, 0, 0, 0, false, 0);
  CHECK_EQ(state(FX_A), UAL_LT_REC_LOCK);
  for (unsigned d = 0; d < 2; d++) fx_ts(&X, d, 1, 0, 0, false, 0);
  for (unsigned d = 0; d < 2; d++) fx_idle(&X, d);
  for (unsigned d = 0; d < 2; d++) fx_nop(&X, d, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
  CHECK_EQ(state(FX_A), UAL_LT_L0);
  CHECK_EQ(X.events[UAL_TEV_LINK], 0);
  CHECK_EQ(X.a.dp.s[FX_A].ch0, UAL_UNKNOWN);
  CHECK_EQ(fx_problems(&X), 0);
}

static void test_speed_change(void) {
  unsigned seen[4];
  fx_init(&X);
  fx_train(&X, true);
  fx_negotiate(&X, FX_A, UAL_MT_LINK_SPEED, 1);
  CHECK_EQ(X.a.dp.speed_allowed, 1);
  recovery_speed(2, true, seen);
  for (unsigned ph = 0; ph < 4; ph++) CHECK_EQ(seen[ph], UAL_LT_REC_EQ0 + ph);
  CHECK_EQ(fx_count(&X, UAL_R_LT_SPEED_BEFORE_DL), 0);
  CHECK_EQ(fx_count(&X, UAL_R_LT_EQ_CH0_ONLINE), 0);
  CHECK_EQ(X.a.lt.p[FX_B].rate, 2);
  CHECK_EQ(fx_problems(&X), 0);

  fx_init(&X);                             /* no negotiation */
  fx_train(&X, true);
  recovery_speed(2, true, NULL);
  CHECK_EQ(fx_count(&X, UAL_R_LT_SPEED_BEFORE_DL), 1);

  fx_init(&X);                             /* 32.0 negotiated, 64.0 reached */
  fx_train(&X, true);
  fx_negotiate(&X, FX_A, UAL_MT_LINK_SPEED, 1);
  recovery_speed(3, false, NULL);
  CHECK_EQ(fx_count(&X, UAL_R_LT_SPEED_BEFORE_DL), 1);

  fx_init(&X);                             /* mid-stream: unknown, not judged */
  fx_payload(&X, FX_A);
  recovery_speed(3, false, NULL);
  CHECK_EQ(fx_count(&X, UAL_R_LT_SPEED_BEFORE_DL), 0);
}

static void test_eq_ch0_online(void) {
  fx_init(&X);
  fx_train(&X, true);
  fx_negotiate(&X, FX_A, UAL_MT_LINK_SPEED, 1);
  fx_negotiate(&X, FX_A, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_TL);
  recovery_speed(2, true, NULL);
  CHECK_EQ(fx_count(&X, UAL_R_LT_EQ_CH0_ONLINE), 1);
  fx_init(&X);                             /* online but no equalization */
  fx_train(&X, true);
  fx_negotiate(&X, FX_A, UAL_MT_LINK_SPEED, 1);
  fx_negotiate(&X, FX_A, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_TL);
  recovery_speed(2, false, NULL);
  CHECK_EQ(fx_count(&X, UAL_R_LT_EQ_CH0_ONLINE), 0);
}

static void test_l1(void) {
  fx_init(&X);
  fx_train(&X, true);
  fx_channels_online(&X);
  fx_l1_entry(&X, 0);
  CHECK_EQ(state(FX_A), UAL_LT_L1_IDLE);
  CHECK_EQ(state(FX_B), UAL_LT_L1_IDLE);
  CHECK_EQ(X.events[UAL_TEV_L1], 1);
  CHECK_EQ(X.events[UAL_TEV_PM], 2);       /* PM_Enter_L1 and PM_Request_Ack, once each */
  CHECK_EQ(fx_problems(&X), 0);
  fx_l1_exit(&X);
  CHECK_EQ(state(FX_A), UAL_LT_L0);
  CHECK_EQ(X.events[UAL_TEV_L1], 2);
  CHECK_EQ(X.a.dp.s[FX_A].after_l1, 1);
  fx_payload(&X, FX_A);                    /* no TL, no UART: fine */
  fx_channels_online(&X);
  fx_push_tl(&X, FX_A, 4);
  fx_flush(&X, FX_A);
  CHECK_EQ(X.tl_got[FX_A], 4);
  CHECK_EQ(fx_problems(&X), 0);

  for (int order = 1; order <= 2; order++) {
    fx_init(&X);
    fx_train(&X, true);
    fx_channels_online(&X);
    fx_l1_entry(&X, order);
    /* 1: PM_Enter_L1 from the downstream port and PM_Request_Ack from the upstream one */
    CHECK_EQ(fx_count(&X, UAL_R_LT_L1_DLLP_ROLE), order == 1 ? 2u : 1u);
  }

  fx_init(&X);                             /* the switch answers PM_Request_Ack */
  fx_train(&X, true);
  fx_channels_online(&X);
  fx_negotiate(&X, FX_A, UAL_MT_CHANNEL, UAL_CHAN_TL);
  fx_negotiate(&X, FX_A, UAL_MT_CHANNEL, UAL_CHAN_UART);
  fx_negotiate(&X, FX_A, UAL_MT_LINK_STATE, 1);
  fx_nop(&X, FX_A, UAL_RC_ACK, 0, UAL_DLLP_PM_ENTER_L1);
  CHECK_EQ(fx_count(&X, UAL_R_LT_L1_DLLP_ROLE), 1);
  fx_nop(&X, FX_B, UAL_RC_ACK, 0, UAL_DLLP_PM_REQUEST_ACK);
  CHECK_EQ(fx_count(&X, UAL_R_LT_L1_DLLP_ROLE), 2);

  fx_init(&X);                             /* roles unknown: only the order is judged */
  X.role_a = X.role_b = UAL_ROLE_UNKNOWN;
  fx_train(&X, true);
  fx_channels_online(&X);
  fx_l1_entry(&X, 1);
  CHECK_EQ(fx_count(&X, UAL_R_LT_L1_DLLP_ROLE), 0);
}

static void test_l0p(void) {
  fx_init(&X);
  fx_train(&X, true);
  fx_negotiate(&X, FX_A, UAL_MT_LINK_WIDTH, 2);   /* x4 */
  CHECK_EQ(X.a.dp.s[FX_B].width, 2);
  fx_lm(&X, FX_A, UAL_LM_REQUEST, 2, 0);
  CHECK_EQ(X.events[UAL_TEV_PM], 1);       /* the request is a handshake step */
  fx_lm(&X, FX_A, UAL_LM_REQUEST, 2, 0);   /* repeated while outstanding: not a new step */
  CHECK_EQ(X.events[UAL_TEV_PM], 1);
  fx_lm(&X, FX_B, UAL_LM_ACK, 2, 0);
  CHECK_EQ(X.events[UAL_TEV_PM], 1);       /* the Ack is the L0P event */
  X.width = 4;
  fx_event(&X, FX_A, UAL_EV_WIDTH, 4);
  CHECK_EQ(state(FX_A), UAL_LT_L0P);
  CHECK_EQ(state(FX_B), UAL_LT_L0P);
  CHECK_EQ(X.events[UAL_TEV_L0P], 1);
  CHECK_EQ(fx_problems(&X), 0);
  fx_lm(&X, FX_A, UAL_LM_REQUEST, 3, 0);          /* again, no new negotiation */
  CHECK_EQ(fx_count(&X, UAL_R_LT_L0P_WITHOUT_DL), 1);

  fx_init(&X);
  fx_train(&X, true);
  fx_lm(&X, FX_A, UAL_LM_REQUEST, 2, 0);
  CHECK_EQ(fx_count(&X, UAL_R_LT_L0P_WITHOUT_DL), 1);
  CHECK_EQ(fx_count(&X, UAL_R_LT_L0P_INITIATOR), 0);

  fx_init(&X);
  fx_train(&X, true);
  fx_negotiate(&X, FX_A, UAL_MT_LINK_WIDTH, 2);
  fx_lm(&X, FX_B, UAL_LM_REQUEST, 2, 0);          /* from the switch */
  CHECK_EQ(fx_count(&X, UAL_R_LT_L0P_INITIATOR), 1);
  CHECK_EQ(fx_count(&X, UAL_R_LT_L0P_WITHOUT_DL), 0);

  fx_init(&X);                                    /* mid-stream: unknown */
  fx_lm(&X, FX_A, UAL_LM_REQUEST, 2, 0);
  CHECK_EQ(fx_count(&X, UAL_R_LT_L0P_WITHOUT_DL), 0);
}

static void test_link_down(void) {
  fx_init(&X);
  fx_train(&X, true);
  fx_os(&X, FX_A, UAL_OS_EIOS);                   /* no L1 agreed: link down */
  CHECK_EQ(state(FX_A), UAL_LT_DETECT_QUIET);
  CHECK_EQ(X.events[UAL_TEV_LINK], 2);
}

int main(void) {
  test_training();
  test_states_on_the_way();
  test_no_alt_protocol();
  test_mid_stream_recovery();
  test_speed_change();
  test_eq_ch0_online();
  test_l1();
  test_l0p();
  test_link_down();
  return check_done("test_ltssm");
}
