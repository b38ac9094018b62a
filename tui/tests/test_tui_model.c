/* The TUI model without a terminal: ring, counters, filter, selection helpers. */
#include "../../libdecode/tests/check.h"
#include "model.h"
#include "source.h"

#define DLT_EN10MB_VALUE 1

static size_t flit_record(uint8_t *rec, unsigned dir, const uint8_t *flit) {
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, UAL_REC_FLIT, dir);
  h.rate = 7;
  h.width = 8;
  h.role_a = UAL_ROLE_ACCEL;
  h.role_b = UAL_ROLE_SWITCH;
  return ual_record_build(&h, flit, UAL_FLIT_BYTES, rec, TUI_REC_MAX);
}

static size_t payload_record(uint8_t *rec, unsigned dir, unsigned seq, struct ual_pack *p) {
  uint8_t flit[UAL_FLIT_BYTES];
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, (uint16_t)seq };
  ual_pack_flit(p, &fh, true, flit);
  return flit_record(rec, dir, flit);
}

static void test_ring_and_counts(void) {
  struct tui_model m;
  CHECK(tui_model_init(&m, 8));
  uint8_t rec[TUI_REC_MAX], flit[UAL_FLIT_BYTES];
  struct ual_pack pk;
  ual_pack_init(&pk);
  uint8_t tl[64];
  for (int i = 0; i < 64; i++) tl[i] = (uint8_t)i;
  for (int i = 0; i < 6; i++) ual_pack_push_tl(&pk, tl, 0, 1);
  struct ual_dlmsg msg = {0};
  msg.type = UAL_MT_LINK_WIDTH;
  msg.command = UAL_CMD_REQUEST;
  msg.target = 3;
  uint32_t dw = ual_dlmsg_encode(&msg);
  ual_pack_push_msg(&pk, &dw, 1);

  for (unsigned i = 0; i < 4; i++) {
    size_t n = payload_record(rec, 0, 1 + i, &pk);
    tui_model_add(&m, rec, n, 1000000000ull + i * 2);
  }
  ual_flit_build_idle(flit);
  for (unsigned i = 0; i < 6; i++) tui_model_add(&m, rec, flit_record(rec, 1, flit), 1000000100ull + i);
  /* a flit with a bad CRC */
  ual_flit_build_idle(flit);
  flit[242] ^= 0xFF;
  ual_fec_encode(flit);
  tui_model_add(&m, rec, flit_record(rec, 1, flit), 2000000000ull);

  CHECK_EQ(m.total, 11);
  CHECK_EQ(tui_model_count(&m), 8);          /* the ring keeps the last 8 */
  CHECK_EQ(tui_model_at(&m, 0)->frame, 4);
  CHECK_EQ(tui_model_at(&m, 7)->frame, 11);
  CHECK(tui_model_at(&m, 8) == NULL);
  CHECK_EQ(tui_model_find_frame(&m, 3), -1);
  CHECK_EQ(tui_model_find_frame(&m, 10), 6);
  CHECK_EQ(m.dir[0].flits[UAL_FK_PAYLOAD], 4); /* counters stay exact */
  CHECK_EQ(m.dir[1].flits[UAL_FK_IDLE], 7);
  CHECK_EQ(m.dir[0].tl_flits, 6);              /* one TL start per segment: all 6 done within 2 flits */
  CHECK_EQ(m.dir[0].dl_msgs, 1);
  CHECK_EQ(m.dir[1].crc_bad, 1);
  CHECK_EQ(m.rule_counts[UAL_R_PL_CRC], 1);
  CHECK_EQ(m.first_rule_frame[UAL_R_PL_CRC], 11);
  CHECK_EQ(m.role_a, UAL_ROLE_ACCEL);
  const struct tui_rate *r = tui_model_rate(&m, 0);
  CHECK(r != NULL && r->flits == 1);
  r = tui_model_rate(&m, 1);
  CHECK(r != NULL && r->flits == 10);
  const struct tui_entry *e = tui_model_at(&m, 7);
  CHECK_EQ(e->sev, UAL_SEV_ERROR);
  CHECK_EQ(e->rules[0], UAL_R_PL_CRC);
  CHECK(strstr(e->line, "CRC:bad") != NULL);

  /* the detail re-decode gives what the live decode gave */
  struct ual_rec_result res;
  e = tui_model_at(&m, 0); /* frame 4: the last payload flit */
  tui_entry_decode(e, &res);
  CHECK(res.unpacked);
  char line[112];
  ual_rec_summary(&res, line, sizeof line);
  CHECK_STR(line, e->line);
  CHECK(strstr(e->line, "payload seq 4") != NULL);
  tui_model_free(&m);
}

static void test_filter(void) {
  struct tui_model m;
  CHECK(tui_model_init(&m, 64));
  uint8_t rec[TUI_REC_MAX], flit[UAL_FLIT_BYTES];
  struct ual_pack pk;
  ual_pack_init(&pk);
  struct ual_dlmsg msg = {0};
  msg.type = UAL_MT_LINK_WIDTH;
  msg.command = UAL_CMD_REQUEST;
  msg.target = 3;
  uint32_t dw = ual_dlmsg_encode(&msg);
  ual_pack_push_msg(&pk, &dw, 1);
  tui_model_add(&m, rec, payload_record(rec, 0, 1, &pk), 10);  /* frame 1: A, link_width */
  ual_flit_build_idle(flit);
  tui_model_add(&m, rec, flit_record(rec, 1, flit), 11);        /* frame 2: B, idle */
  flit[242] ^= 1;
  ual_fec_encode(flit);
  tui_model_add(&m, rec, flit_record(rec, 1, flit), 12);        /* frame 3: B, PL-CRC */
  tui_model_add(&m, rec, payload_record(rec, 0, 2, &pk), 13);   /* frame 4: A, payload */

  struct tui_filter f;
  char err[128];
  CHECK(tui_filter_parse(&f, "dir=B", err, sizeof err));
  CHECK(!tui_filter_match(&f, tui_model_at(&m, 0)));
  CHECK(tui_filter_match(&f, tui_model_at(&m, 1)));
  CHECK(tui_filter_parse(&f, "msg=link_width", err, sizeof err));
  CHECK(tui_filter_match(&f, tui_model_at(&m, 0)));
  CHECK(!tui_filter_match(&f, tui_model_at(&m, 3)));
  CHECK(tui_filter_parse(&f, "PL-CRC", err, sizeof err));
  CHECK(tui_filter_match(&f, tui_model_at(&m, 2)));
  CHECK(!tui_filter_match(&f, tui_model_at(&m, 1)));
  CHECK(tui_filter_parse(&f, "B idle", err, sizeof err));
  CHECK(tui_filter_match(&f, tui_model_at(&m, 1)));
  CHECK(!tui_filter_match(&f, tui_model_at(&m, 0)));
  CHECK(tui_filter_parse(&f, "frame=2-3 sev=error", err, sizeof err));
  CHECK(tui_filter_match(&f, tui_model_at(&m, 2)));
  CHECK(!tui_filter_match(&f, tui_model_at(&m, 1)));
  CHECK(tui_filter_parse(&f, "usage=payload", err, sizeof err));
  CHECK(tui_filter_match(&f, tui_model_at(&m, 3)));
  CHECK(!tui_filter_parse(&f, "colour=red", err, sizeof err));
  CHECK(strstr(err, "colour") != NULL);
  CHECK(!tui_filter_parse(&f, "frame=x", err, sizeof err));

  CHECK(tui_filter_parse(&m.filter, "dir=A", err, sizeof err));
  CHECK_EQ(tui_model_next_match(&m, -1, +1), 0);
  CHECK_EQ(tui_model_next_match(&m, 0, +1), 3);
  CHECK_EQ(tui_model_next_match(&m, 3, +1), -1);
  CHECK_EQ(tui_model_next_match(&m, 3, -1), 0);
  CHECK(tui_filter_parse(&m.filter, "", err, sizeof err));
  CHECK(!m.filter.active);
  CHECK_EQ(tui_model_next_match(&m, 0, +1), 1);
  tui_model_free(&m);
}

static void test_udp_payload(void) {
  /* Ethernet + IPv4 + UDP to port 17762 with a 4-byte payload */
  uint8_t pkt[14 + 20 + 8 + 4] = {0};
  pkt[12] = 0x08;
  pkt[14] = 0x45; pkt[14 + 9] = 17;
  uint8_t *udp = pkt + 34;
  udp[2] = 17762 >> 8; udp[3] = 17762 & 0xFF; udp[5] = 12;
  memcpy(udp + 8, "\x01\x01\x00\xff", 4);
  size_t len = 0;
  const uint8_t *pl = tui_udp_payload(DLT_EN10MB_VALUE, pkt, sizeof pkt, 17762, &len);
  CHECK(pl == udp + 8);
  CHECK_EQ(len, 4);
  CHECK(tui_udp_payload(DLT_EN10MB_VALUE, pkt, sizeof pkt, 9999, &len) == NULL);
  CHECK(tui_udp_payload(DLT_EN10MB_VALUE, pkt, 20, 17762, &len) == NULL);
}

int main(void) {
  test_ring_and_counts();
  test_filter();
  test_udp_payload();
  return check_done("test_tui_model");
}
