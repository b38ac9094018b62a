/* UART streams: credits (mod 4096), stream reset with 40 No-Ops,
 * consecutive transport DWords, Vendor Defined Packets, channel 4. */
#include "analysis_fixture.h"

static struct fx X;

static const struct ual_uart_stream *stream(unsigned d) { return &X.a.ua.d[d].st; }

/* Trained, channels online: UART counters known and zero. */
static void online(void) {
  fx_init(&X);
  fx_train(&X, true);
  fx_channels_online(&X);
  fx_clear_counts(&X);
}

static void credit(unsigned from, unsigned fcseq) { fx_msg(&X, from, fx_uart(UAL_MT_UART_CREDIT, fcseq)); }

static void transport(unsigned dir, unsigned n, const uint32_t *payload) {
  fx_push_transport(&X, dir, n, payload);
  fx_flush(&X, dir);
}

static void test_credit(void) {
  online();
  credit(FX_B, 10);                                  /* B's receiver grants A 10 DWords */
  CHECK_EQ(stream(FX_A)->limit, 10);
  transport(FX_A, 8, NULL);
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_CREDIT), 0);
  CHECK_EQ(stream(FX_A)->tx_cnt, 8);
  transport(FX_A, 3, NULL);                          /* only 2 left */
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_CREDIT), 1);
  credit(FX_B, 20);
  transport(FX_A, 9, NULL);
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_CREDIT), 1);
  CHECK_EQ(stream(FX_A)->transports, 3);
  CHECK_EQ(stream(FX_A)->payload_dw, 20);

  online();                                          /* no credit yet: nothing may be sent */
  transport(FX_A, 1, NULL);
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_CREDIT), 1);

  fx_init(&X);                                       /* mid-stream: counters unknown */
  fx_sync(&X);
  transport(FX_A, 32, NULL);
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_CREDIT), 0);
}

/* DataFCSeq and the Tx counter wrap at 4096. */
static void test_credit_wrap(void) {
  online();
  unsigned sent = 0;
  for (int i = 0; i < 130; i++) {
    credit(FX_B, (sent + 32) & 0xFFF);
    transport(FX_A, 32, NULL);
    sent += 32;
  }
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_CREDIT), 0);
  CHECK_EQ(stream(FX_A)->tx_cnt, sent & 0xFFF);
  CHECK(sent > 4096);
  transport(FX_A, 1, NULL);                          /* the credit is used up exactly */
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_CREDIT), 1);
}

static void reset_request(unsigned dir, unsigned noops) {
  for (unsigned i = 0; i < noops; i++) fx_push_msg(&X, dir, fx_uart(UAL_MT_NOOP, 0));
  fx_push_msg(&X, dir, fx_uart(UAL_MT_UART_RESET_REQ, 0));
  fx_flush(&X, dir);
}

static void test_reset(void) {
  online();
  credit(FX_B, 100);
  transport(FX_A, 5, NULL);
  reset_request(FX_A, UAL_UART_RESET_NOOPS);
  CHECK_EQ(stream(FX_A)->resetting, 1);
  CHECK_EQ(stream(FX_A)->tx_cnt, 0);
  fx_msg(&X, FX_B, fx_uart(UAL_MT_UART_RESET_RSP, 0));
  CHECK_EQ(stream(FX_A)->resetting, 0);
  CHECK_EQ(stream(FX_A)->reset_pending, 0);
  CHECK_EQ(X.events[UAL_TEV_UART_RESET], 2);
  credit(FX_B, 128);                                 /* counters restarted from 0 */
  transport(FX_A, 32, NULL);
  CHECK_EQ(fx_problems(&X), 0);
  X.ts_ns += 2 * UAL_UART_RESET_NS;
  fx_nop(&X, FX_A, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_RESET_TIMEOUT), 0);

  online();
  reset_request(FX_A, 39);
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_RESET_NOOPS), 1);
  CHECK_EQ(fx_count(&X, UAL_R_DM_NOOP_CONTEXT), 0);  /* the No-Ops served the reset */

  online();
  fx_msg(&X, FX_A, fx_uart(UAL_MT_UART_RESET_REQ, 0));
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_RESET_NOOPS), 1);

  online();                                          /* no successful response within 10 ms */
  reset_request(FX_A, UAL_UART_RESET_NOOPS);
  fx_msg(&X, FX_B, fx_uart(UAL_MT_UART_RESET_RSP, 1));   /* status: failure */
  X.ts_ns += UAL_UART_RESET_NS / 2;
  fx_nop(&X, FX_B, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_RESET_TIMEOUT), 0);
  X.ts_ns += UAL_UART_RESET_NS;
  fx_nop(&X, FX_B, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_RESET_TIMEOUT), 1);
  fx_nop(&X, FX_B, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_RESET_TIMEOUT), 1);

  online();                                          /* a response without a request */
  fx_msg(&X, FX_B, fx_uart(UAL_MT_UART_RESET_RSP, 0));
  CHECK_EQ(fx_count(&X, UAL_R_DM_UNSOLICITED), 1);
}

static void test_noop_context(void) {
  online();
  fx_msg(&X, FX_A, fx_uart(UAL_MT_NOOP, 0));
  fx_msg(&X, FX_A, fx_uart(UAL_MT_NOOP, 0));
  CHECK_EQ(fx_count(&X, UAL_R_DM_NOOP_CONTEXT), 0);  /* may still become a run of 40 */
  credit(FX_A, 128);
  CHECK_EQ(fx_count(&X, UAL_R_DM_NOOP_CONTEXT), 1);
  reset_request(FX_A, 45);
  CHECK_EQ(fx_count(&X, UAL_R_DM_NOOP_CONTEXT), 1);
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_RESET_NOOPS), 0);

  fx_init(&X);                                       /* a run whose start was not seen */
  fx_sync(&X);
  fx_msg(&X, FX_A, fx_uart(UAL_MT_NOOP, 0));
  fx_msg(&X, FX_A, fx_uart(UAL_MT_UART_RESET_REQ, 0));
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_RESET_NOOPS), 0);
}

static void test_ch4_offline(void) {
  fx_init(&X);
  fx_train(&X, true);
  fx_negotiate(&X, FX_A, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_TL);
  credit(FX_A, 128);                                 /* channel 4 still offline */
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_CH4_OFFLINE), 1);
  fx_negotiate(&X, FX_A, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_UART);
  credit(FX_A, 128);
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_CH4_OFFLINE), 1);
  fx_negotiate(&X, FX_A, UAL_MT_CHANNEL, UAL_CHAN_UART);
  credit(FX_B, 128);
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_CH4_OFFLINE), 2);
}

/* A payload flit with DWords dw[k] in the alternate sector of the segments with alt[k]. */
static void alt_flit(unsigned dir, const bool alt[4], const uint32_t dw[4]) {
  uint8_t flit[UAL_FLIT_BYTES];
  memset(flit, 0, sizeof flit);
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, X.next_seq[dir] };
  X.next_seq[dir] = ual_seq_inc(X.next_seq[dir]);
  ual_fh_encode(&fh, flit);
  for (int k = 0; k < 4; k++) {
    flit[ual_segment_map[k].sh_byte] = ual_sh_encode(alt[k], false, 0, 0);
    if (!alt[k]) continue;
    uint8_t *p = flit + ual_sector_offset(ual_segment_map[k].first_sector);
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(dw[k] >> (8 * i));
  }
  ual_flit_seal(flit);
  fx_flit(&X, dir, flit);
}

static void test_interleave(void) {
  online();
  credit(FX_B, 100);
  uint32_t hdr = fx_uart(UAL_MT_UART_TRANSPORT, 4);
  bool a1[4] = { true, true, false, true }, a2[4] = { true, true, false, false };
  uint32_t d1[4] = { hdr, 1, 0, 2 }, d2[4] = { 3, 4, 0, 0 };
  alt_flit(FX_A, a1, d1);                            /* SH2 skips a DWord of the transport */
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_INTERLEAVE), 1);
  alt_flit(FX_A, a2, d2);                            /* completes; the gap after it is fine */
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_INTERLEAVE), 1);
  CHECK_EQ(stream(FX_A)->transports, 1);
  bool c1[4] = { true, true, true, true }, c2[4] = { true, false, false, false };
  uint32_t e1[4] = { hdr, 1, 2, 3 }, e2[4] = { 4, 0, 0, 0 };
  alt_flit(FX_A, c1, e1);                            /* consecutive, across flits */
  alt_flit(FX_A, c2, e2);
  CHECK_EQ(fx_count(&X, UAL_R_DM_UART_INTERLEAVE), 1);
  CHECK_EQ(stream(FX_A)->transports, 2);
  CHECK_EQ(fx_problems(&X), 1);
}

/* VDPs ride in the stream independently of transport boundaries. */
static void test_vdp(void) {
  online();
  credit(FX_B, 200);
  struct ual_vdp_hdr h1 = { 3, 0x01, 0xFFFF }, h2 = { 1, 0x42, 0x1234 };
  uint32_t t1[3] = { ual_vdp_encode(&h1), 0x11111111, 0x22222222 };
  uint32_t t2[3] = { 0x33333333, ual_vdp_encode(&h2), 0x44444444 };
  transport(FX_A, 3, t1);
  CHECK_EQ(X.vdps, 0);
  transport(FX_A, 3, t2);
  CHECK_EQ(X.vdps, 2);
  CHECK_EQ(stream(FX_A)->vdps, 2);
  CHECK_EQ(X.last_vdp.vendor_id, 0x1234);
  CHECK_EQ(X.last_vdp.type, 0x42);
  CHECK_EQ(X.last_vdp.n_payload, 1);
  CHECK_EQ(X.last_vdp.value[0], 0x44444444);
  CHECK_EQ(X.last_vdp.dir, FX_A);
  CHECK_EQ(fx_problems(&X), 0);

  fx_init(&X);                                       /* mid-stream: boundaries unknown */
  fx_sync(&X);
  transport(FX_A, 3, t1);
  CHECK_EQ(X.vdps, 0);
}

int main(void) {
  test_credit();
  test_credit_wrap();
  test_reset();
  test_noop_context();
  test_ch4_offline();
  test_interleave();
  test_vdp();
  return check_done("test_uart");
}
