/* The analyzer as a whole: same decode as ual_decode_record, snapshot/copy
 * semantics, capture gaps, link down per direction, end-of-capture checks. */
#include "analysis_fixture.h"

static struct fx X;
static struct fx_log LOG;
static struct ual_analyzer P, Q;

static bool same_tl(const struct ual_unpack_out *a, const struct ual_unpack_out *b) {
  if (a->n_tl != b->n_tl) return false;
  for (unsigned i = 0; i < a->n_tl; i++)
    if (memcmp(a->tl[i].data, b->tl[i].data, UAL_TL_FLIT_BYTES) || a->tl[i].start_frame != b->tl[i].start_frame)
      return false;
  return true;
}

static bool same_findings(const struct ual_findings *a, const struct ual_findings *b) {
  if (a->n != b->n) return false;
  for (unsigned i = 0; i < a->n; i++)
    if (a->v[i].rule != b->v[i].rule || a->v[i].segment != b->v[i].segment || strcmp(a->v[i].msg, b->v[i].msg))
      return false;
  return true;
}

/* Stateless results agree with ual_decode_record for a clean capture. */
static void test_same_decode(void) {
  static struct ual_decoder dec;
  fx_init(&X);
  X.log = &LOG;
  fx_init(&X);
  fx_train(&X, true);
  fx_channels_online(&X);
  fx_push_tl(&X, FX_A, 6);
  fx_push_msg(&X, FX_A, fx_basic(UAL_MT_DEVICE_ID, 0, 5, 1));
  fx_flush(&X, FX_A);
  fx_msg(&X, FX_B, fx_basic(UAL_MT_DEVICE_ID, 1, 9, 0));
  CHECK(LOG.n > 30);
  ual_decoder_init(&dec);
  ual_analyzer_init(&P);
  unsigned diff = 0, unpacked = 0, kinds[4] = { 0 };
  for (size_t i = 0; i < LOG.n; i++) {
    struct ual_rec_result r1, r2;
    ual_decode_record(&dec, LOG.rec[i], LOG.len[i], i + 1, &r1);
    ual_analyzer_step(&P, LOG.rec[i], LOG.len[i], i + 1, LOG.ts[i], &r2, NULL);
    kinds[r2.rec.h.kind & 3]++;
    if (r1.status != r2.status || r1.dir != r2.dir || r1.unpacked != r2.unpacked) diff++;
    if (r1.rec.h.kind == UAL_REC_FLIT &&
        (memcmp(r1.flit.bytes, r2.flit.bytes, UAL_FLIT_BYTES) || r1.flit.kind != r2.flit.kind ||
         r1.flit.valid != r2.flit.valid || r1.flit.fh.seq != r2.flit.fh.seq || r1.flit.fec.status != r2.flit.fec.status))
      diff++;
    if (r1.rec.h.kind == UAL_REC_OS && r1.os.type != r2.os.type) diff++;
    if (r1.unpacked) {
      unpacked++;
      if (r1.unp.n_tl != r2.unp.n_tl || r1.unp.n_msg != r2.unp.n_msg || !same_tl(&r1.unp, &r2.unp)) diff++;
    }
    for (unsigned k = 0; k < r1.findings.n; k++)   /* the stateless findings are all there */
      if (!ual_findings_has(&r2.findings, (enum ual_rule)r1.findings.v[k].rule)) diff++;
  }
  CHECK_EQ(diff, 0);
  CHECK(unpacked >= 8);
  CHECK(kinds[UAL_REC_OS] > 0 && kinds[UAL_REC_EVENT] > 0 && kinds[UAL_REC_FLIT] > 0);
  X.log = NULL;

  struct ual_rec_result r;                           /* malformed: reported, state untouched */
  uint8_t junk[5] = { 1, 1, 0, 0, 0 };
  uint64_t before = P.flits[0] + P.flits[1];
  ual_analyzer_step(&P, junk, sizeof junk, 999, 0, &r, NULL);
  CHECK(r.status != UAL_RS_OK);
  CHECK_EQ(P.flits[0] + P.flits[1], before);
}

/* Copy the analyzer mid-capture; both copies continue to the same results. */
static void test_snapshot(void) {
  uint8_t f[6][UAL_FLIT_BYTES], bad[UAL_FLIT_BYTES];
  fx_init(&X);
  X.log = &LOG;
  fx_init(&X);
  fx_train(&X, true);
  fx_channels_online(&X);
  fx_msg(&X, FX_A, fx_uart(UAL_MT_UART_CREDIT, 128));
  fx_msg(&X, FX_B, fx_uart(UAL_MT_UART_CREDIT, 128));
  fx_push_tl(&X, FX_A, 12);
  fx_push_transport(&X, FX_B, 20, NULL);
  fx_push_tl(&X, FX_B, 8);
  for (int i = 0; i < 6; i++) fx_make(&X, FX_A, f[i]);
  fx_flit(&X, FX_A, f[0]);
  fx_bad_crc(f[1], bad);
  fx_flit(&X, FX_A, bad);
  for (int i = 2; i < 6; i++) { fx_flit(&X, FX_A, f[i]); fx_data(&X, FX_B); }
  fx_nop(&X, FX_B, UAL_RC_NAK_SELECTIVE, ual_seq_add(X.next_seq[FX_A], UAL_SEQ_MOD - 6), UAL_DLLP_NOP2);
  size_t mid = LOG.n;                                /* a selective replay is due, 4 flits held */
  fx_flit(&X, FX_A, f[1]);
  fx_flush(&X, FX_A);
  fx_flush(&X, FX_B);
  fx_negotiate(&X, FX_A, UAL_MT_LINK_WIDTH, 2);
  X.log = NULL;
  CHECK_EQ(X.tl_got[FX_A], 12);
  CHECK_EQ(fx_problems(&X), 1);                      /* PL-CRC; the RP-NAK is info */

  ual_analyzer_init(&P);
  for (size_t i = 0; i < mid; i++) {
    struct ual_rec_result r;
    ual_analyzer_step(&P, LOG.rec[i], LOG.len[i], i + 1, LOG.ts[i], &r, NULL);
  }
  CHECK(P.rp.d[FX_A].n_held > 0);
  Q = P;                                             /* the snapshot */
  unsigned differ = 0, findings = 0;
  for (size_t i = mid; i < LOG.n; i++) {
    struct ual_rec_result r1, r2;
    struct ual_events e1, e2;
    ual_events_init(&e1);
    ual_events_init(&e2);
    ual_analyzer_step(&P, LOG.rec[i], LOG.len[i], i + 1, LOG.ts[i], &r1, &e1);
    ual_analyzer_step(&Q, LOG.rec[i], LOG.len[i], i + 1, LOG.ts[i], &r2, &e2);
    findings += r1.findings.n;
    if (!same_findings(&r1.findings, &r2.findings)) differ++;
    if (e1.n != e2.n || memcmp(e1.v, e2.v, e1.n * sizeof e1.v[0])) differ++;
    if (r1.unpacked != r2.unpacked || (r1.unpacked && !same_tl(&r1.unp, &r2.unp))) differ++;
  }
  CHECK_EQ(differ, 0);
  CHECK(findings > 0);                               /* the replay and its release happen after the copy */
  struct ual_analysis_summary s1, s2, s3;
  ual_analyzer_summary(&P, &s1);
  ual_analyzer_summary(&Q, &s2);
  ual_analyzer_summary(&X.a, &s3);
  CHECK_MEM(&s1, &s2, sizeof s1);
  CHECK_MEM(&s1, &s3, sizeof s1);                    /* and the same as without a copy */
  CHECK_EQ(s1.replay[FX_A].released, 4);
  CHECK_EQ(s1.neg_width[FX_B], 2);
  CHECK_EQ(s1.uart_transports[FX_B], 1);
}

/* Records lost before a record: numbers are relearned, no gap is flagged. */
static void test_capture_gap(void) {
  fx_init(&X);
  fx_sync(&X);
  for (int i = 0; i < 4; i++) fx_payload(&X, FX_A);
  X.next_seq[FX_A] = ual_seq_add(X.next_seq[FX_A], 40);
  X.next_flags = UAL_RF_LOST;
  fx_payload(&X, FX_A);
  fx_payload(&X, FX_A);
  CHECK_EQ(fx_count(&X, UAL_R_RP_SEQ_GAP), 0);
  fx_init(&X);                                       /* the same without the flag is a gap */
  fx_sync(&X);
  for (int i = 0; i < 4; i++) fx_payload(&X, FX_A);
  X.next_seq[FX_A] = ual_seq_add(X.next_seq[FX_A], 40);
  fx_payload(&X, FX_A);
  CHECK_EQ(fx_count(&X, UAL_R_RP_SEQ_GAP), 1);
  fx_init(&X);                                       /* a records-dropped event does the same */
  fx_sync(&X);
  fx_payload(&X, FX_A);
  fx_event(&X, FX_A, UAL_EV_DROPPED, 12);
  X.next_seq[FX_A] = ual_seq_add(X.next_seq[FX_A], 12);
  fx_payload(&X, FX_A);
  CHECK_EQ(fx_count(&X, UAL_R_RP_SEQ_GAP), 0);
}

/* A capture whose first record says records were lost before it: the same
 * as any mid-stream start; AN-SYNC where each direction's boundaries are
 * known (its first flit here, whose segments start no TL flit), and a later
 * sequence gap is still found. */
static void test_start_lost(void) {
  fx_init(&X);
  X.next_flags = UAL_RF_LOST;
  fx_sync(&X);
  CHECK_EQ(X.counts[UAL_R_AN_SYNC], 2);
  CHECK_EQ(X.a.sync[FX_A].frame, 1);
  CHECK_EQ(X.a.sync[FX_B].frame, 2);
  for (int i = 0; i < 4; i++) fx_payload(&X, FX_A);
  CHECK_EQ(fx_problems(&X), 0);
  X.next_seq[FX_A] = ual_seq_add(X.next_seq[FX_A], 5);
  fx_payload(&X, FX_A);
  CHECK_EQ(fx_count(&X, UAL_R_RP_SEQ_GAP), 1);
}

static void test_truncated(void) {
  struct ual_findings f;
  for (int cut = 0; cut < 2; cut++) {                /* at the end of the capture */
    fx_init(&X);
    fx_train(&X, true);
    fx_channels_online(&X);
    fx_push_tl(&X, FX_A, 4);
    fx_data(&X, FX_A);                               /* 64 sectors: the fourth is not complete */
    if (!cut) fx_flush(&X, FX_A);
    ual_findings_clear(&f);
    ual_analyzer_finish(&X.a, &f, NULL);
    CHECK_EQ(ual_findings_has(&f, UAL_R_DL_TRUNCATED_TL), cut);
    if (cut) CHECK_EQ(f.v[0].dir, FX_A);              /* the direction it judges, for --dir */
  }
  fx_init(&X);                                       /* at a link down */
  fx_train(&X, true);
  fx_channels_online(&X);
  fx_push_tl(&X, FX_A, 4);
  fx_data(&X, FX_A);
  fx_os(&X, FX_A, UAL_OS_EIOS);
  CHECK_EQ(fx_count(&X, UAL_R_DL_TRUNCATED_TL), 1);
  ual_findings_clear(&f);
  ual_analyzer_finish(&X.a, &f, NULL);
  CHECK_EQ(ual_findings_has(&f, UAL_R_DL_TRUNCATED_TL), 0);

  fx_init(&X);                                       /* mid-stream before synchronising: unknown */
  fx_push_tl(&X, FX_A, 4);
  fx_data(&X, FX_A);
  ual_findings_clear(&f);
  ual_analyzer_finish(&X.a, &f, NULL);
  CHECK_EQ(ual_findings_has(&f, UAL_R_DL_TRUNCATED_TL), 0);
}

/* One port going down does not stop the other direction's delivery. */
static void test_link_down_one_side(void) {
  uint8_t f[UAL_FLIT_BYTES], c[UAL_FLIT_BYTES];
  fx_init(&X);
  fx_train(&X, true);
  fx_channels_online(&X);
  fx_make(&X, FX_A, f);
  fx_contained(f, c);
  fx_flit(&X, FX_A, c);
  fx_os(&X, FX_A, UAL_OS_EIOS);
  fx_event(&X, FX_A, UAL_EV_EIDLE_ENTER, 0);
  fx_push_tl(&X, FX_B, 4);
  fx_flush(&X, FX_B);
  CHECK_EQ(X.tl_got[FX_B], 4);
  CHECK_EQ(fx_count(&X, UAL_R_DL_CH0_OFFLINE), 0);
  CHECK_EQ(X.a.dp.s[FX_B].ch0, 1);
  CHECK_EQ(X.a.dp.s[FX_A].ch0, 0);
  CHECK_EQ(fx_problems(&X), 1);                      /* PL-CRC-INVERTED */
}

/* A capture that starts mid-stream: its first alternate sector may be a
 * message or the last payload DWord of a transport begun earlier, so it
 * raises nothing; the segment after it has none, which ends any transport:
 * DL messages are known from there. TL flits are known from the first
 * segment that starts none; the sectors before are DL-PARTIAL-TL. */
static void test_mid_stream_sync(void) {
  fx_init(&X);
  fx_push_tl(&X, FX_A, 16);
  fx_push_msg(&X, FX_A, fx_basic(UAL_MT_PORT_NUMBER, 0, 7, 0));
  fx_data(&X, FX_A);                                 /* SH0 starts a TL flit, SH1 has no alternate sector */
  CHECK_EQ(X.r.unp.alt_role[0], UAL_ALT_UNSYNCED);
  CHECK_EQ(X.r.unp.msg_synced_at, 1);
  CHECK_EQ(X.a.unpack[FX_A].tl_cands, 0x3FFFC0u);   /* 6..15 fit its four starts, 0..5 with one ignored */
  CHECK_EQ(X.a.dp.s[FX_A].basic[2].active, 0);       /* not known to be a request */
  fx_push_msg(&X, FX_A, fx_basic(UAL_MT_PORT_NUMBER, 0, 7, 0));
  fx_flush(&X, FX_A);
  CHECK_EQ(X.a.dp.s[FX_A].basic[2].active, 1);       /* this one is */
  fx_payload_hdr(&X, FX_A, UAL_RC_SEQ, X.next_seq[FX_A], false);
  CHECK(ual_unpack_synced(&X.a.unpack[FX_A]));
  CHECK_EQ(X.counts[UAL_R_AN_SYNC], 1);
  CHECK_EQ(X.counts[UAL_R_DL_PARTIAL_TL], 1);
  CHECK_EQ(X.events[UAL_TEV_SYNC], 1);
  CHECK(X.a.sync[FX_A].partial > 0);
  fx_push_tl(&X, FX_A, 3);
  uint32_t before = X.tl_got[FX_A];
  X.next_seq[FX_A] = ual_seq_inc(X.next_seq[FX_A]);
  fx_flush(&X, FX_A);
  CHECK_EQ(X.tl_got[FX_A] - before, 3);
  CHECK_EQ(fx_problems(&X), 0);
}

/* The capture begins halfway through a UART Stream Transport of 32 payload
 * DWords whose payload looks like DL messages of reserved mclass: none of
 * them is read as a message (each could be, or be payload: a message right
 * behind the transport stays unknown too); the first segment without an
 * alternate sector synchronizes, and the message after it is read. */
static void test_mid_transport(void) {
  uint32_t t[33];
  t[0] = 0xF8000004u;                                /* UART Stream Transport, stream 0, Length 31 */
  struct ual_dlmsg m;
  ual_dlmsg_decode(t[0], &m);
  CHECK_EQ(m.type, UAL_MT_UART_TRANSPORT);
  CHECK_EQ(m.length, 31);
  for (int i = 1; i < 33; i++) t[i] = 0x1Cu | (uint32_t)i << 12;   /* mclass 7 if read as a message */
  fx_init(&X);
  CHECK(ual_pack_push_msg(&X.pack[FX_A], t, 33));
  uint8_t unseen[UAL_FLIT_BYTES];
  for (int i = 0; i < 4; i++) fx_make(&X, FX_A, unseen);   /* header and 15 payload DWords, not captured */
  fx_flush(&X, FX_A);
  fx_data(&X, FX_A);
  CHECK_EQ(fx_problems(&X), 0);
  CHECK_EQ(X.counts[UAL_R_DM_UNKNOWN], 0);
  CHECK_EQ(X.a.unpack[FX_A].msg_owed, 0);
  fx_msg(&X, FX_A, fx_basic(UAL_MT_PORT_NUMBER, 0, 7, 0));
  CHECK_EQ(X.a.dp.s[FX_A].basic[2].active, 1);       /* the request after the transport */
  CHECK_EQ(X.counts[UAL_R_AN_SYNC], 1);
}

static void test_names(void) {
  CHECK_STR(ual_tev_kind_name(UAL_TEV_NEGOTIATION), "negotiation");
  CHECK_STR(ual_neg_outcome_name(UAL_NEG_NO_CONFIRM), "no_confirm");
  CHECK_STR(ual_rp_verdict_name(UAL_RPV_DUPLICATE), "duplicate");
  CHECK_STR(ual_lt_state_name(UAL_LT_REC_EQ2), "Recovery.Equalization.Phase2");
  CHECK_STR(ual_lt_state_name(UAL_LT_COUNT), "?");
  CHECK_STR(ual_width_code_name(3), "x8");
  CHECK_STR(ual_speed_code_name(3), "ESM");
  CHECK_EQ(ual_seq_inc(1023), 1);
  CHECK_EQ(ual_seq_add(1020, 5), 2);
  CHECK_EQ(ual_seq_dist(1022, 2), 3);
  CHECK_EQ(ual_seq_dist(5, 5), 0);
  unsigned bad = 0;                                  /* against the modulo definition */
  for (unsigned a = 0; a < 1024; a++)
    for (unsigned b = 0; b < 2100; b++) {
      if (ual_seq_add((uint16_t)a, b) != (a + UAL_SEQ_MOD - 1 + b) % UAL_SEQ_MOD + 1) bad++;
      if (b < 1024 && ual_seq_dist((uint16_t)a, (uint16_t)b) != (b % UAL_SEQ_MOD + UAL_SEQ_MOD - a % UAL_SEQ_MOD) % UAL_SEQ_MOD)
        bad++;
    }
  CHECK_EQ(bad, 0);
  struct ual_events ev;                              /* a full event list counts what it drops */
  ual_events_init(&ev);
  struct ual_when w = { 1, 2, 0, -1, 1 };
  for (int i = 0; i < UAL_MAX_TEVENTS + 3; i++) ual_events_add(&ev, &w, UAL_TEV_LINK, 2, i, 0, "e%d", i);
  CHECK_EQ(ev.n, UAL_MAX_TEVENTS);
  CHECK_EQ(ev.dropped, 3);
  CHECK_STR(ev.v[1].text, "e1");
  CHECK(ual_events_add(NULL, &w, UAL_TEV_LINK, 2, 0, 0, "x") == NULL);
}

int main(void) {
  test_same_decode();
  test_snapshot();
  test_capture_gap();
  test_start_lost();
  test_truncated();
  test_link_down_one_side();
  test_mid_stream_sync();
  test_mid_transport();
  test_names();
  return check_done("test_analysis");
}
