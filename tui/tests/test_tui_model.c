/* The TUI model without a terminal: ring, counters, filter, selection helpers. */
#include "../../libdecode/tests/check.h"
#include "model.h"
#include "source.h"
#include "lineedit.h"
#include "ualink/pcie/flit.h"
#include "ualink/core/tree.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

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

  /* IDLE then sequence number 1: A's stream is known from its first payload flit */
  ual_flit_build_idle(flit);
  tui_model_add(&m, rec, flit_record(rec, 0, flit), 1000000000ull, 0);
  for (unsigned i = 0; i < 4; i++) {
    size_t n = payload_record(rec, 0, 1 + i, &pk);
    tui_model_add(&m, rec, n, 1000000000ull + i * 2, 0);
  }
  ual_flit_build_idle(flit);
  for (unsigned i = 0; i < 6; i++) tui_model_add(&m, rec, flit_record(rec, 1, flit), 1000000100ull + i, 0);
  /* a flit with a bad CRC */
  ual_flit_build_idle(flit);
  flit[242] ^= 0xFF;
  ual_fec_encode(flit);
  tui_model_add(&m, rec, flit_record(rec, 1, flit), 2000000000ull, 0);

  CHECK_EQ(m.total, 12);
  CHECK_EQ(tui_model_count(&m), 8);          /* the ring keeps the last 8 */
  CHECK_EQ(tui_model_at(&m, 0)->frame, 5);
  CHECK_EQ(tui_model_at(&m, 7)->frame, 12);
  CHECK(tui_model_at(&m, 8) == NULL);
  CHECK_EQ(tui_model_find_frame(&m, 3), -1);
  CHECK_EQ(tui_model_find_frame(&m, 10), 5);
  CHECK_EQ(m.dir[0].flits[UAL_FK_PAYLOAD], 4); /* counters stay exact */
  CHECK_EQ(m.dir[1].flits[UAL_FK_IDLE], 7);
  CHECK_EQ(m.dir[0].tl_flits, 6);              /* one TL start per segment: all 6 done within 2 flits */
  CHECK_EQ(m.dir[0].dl_msgs, 1);
  CHECK_EQ(m.dir[1].crc_bad, 1);
  CHECK_EQ(m.rule_counts[UAL_R_PL_CRC], 1);
  CHECK_EQ(m.first_rule_frame[UAL_R_PL_CRC], 12);
  CHECK_EQ(m.rule_counts[UAL_R_AN_SYNC], 1);   /* A synchronized at its first payload flit; B sent none */
  CHECK_EQ(m.first_rule_frame[UAL_R_AN_SYNC], 2);
  CHECK_EQ(m.role_a, UAL_ROLE_ACCEL);
  CHECK_EQ(m.sum.flits, 12);
  CHECK_EQ(m.sum.naks, 0);
  CHECK_EQ(tui_model_span_ns(&m), 1000000000ull);
  /* times from frame 1, which the ring no longer holds */
  CHECK_EQ(tui_model_rel_ns(&m, tui_model_at(&m, 0)), 6);
  CHECK_EQ(tui_model_rel_ns(&m, tui_model_at(&m, 7)), 1000000000ll);
  const struct tui_entry *e = tui_model_at(&m, 7);
  CHECK_EQ(e->sev, UAL_SEV_ERROR);
  CHECK_EQ(e->rules[0], UAL_R_PL_CRC);
  CHECK(strstr(e->line, "CRC:bad") != NULL);

  /* the detail re-decode gives what the live decode gave */
  struct ual_rec_result res;
  e = tui_model_at(&m, 0); /* frame 5: the last payload flit */
  tui_entry_decode(e, &res);
  CHECK(res.unpacked);
  char line[112];
  ual_rec_summary(&res, line, sizeof line);
  CHECK_STR(line, e->line);
  CHECK(strstr(e->line, "payload seq 4") != NULL);
  tui_model_free(&m);
}

/* A filter compiled again: the previous program is freed first. */
static bool reparse(struct tui_filter *f, const char *text, char *err, size_t cap) {
  tui_filter_free(f);
  return tui_filter_parse(f, text, err, cap);
}

/* Whether the model's record i matches f, made the model's filter. */
static bool match_at(struct tui_model *m, const struct tui_filter *f, size_t i) {
  tui_model_set_filter(m, f);
  return tui_model_at(m, i)->match;
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
  tui_model_add(&m, rec, payload_record(rec, 0, 1, &pk), 10, 0);  /* frame 1: A, link_width */
  ual_flit_build_idle(flit);
  tui_model_add(&m, rec, flit_record(rec, 1, flit), 11, 0);        /* frame 2: B, idle */
  flit[242] ^= 1;
  ual_fec_encode(flit);
  tui_model_add(&m, rec, flit_record(rec, 1, flit), 12, 0);        /* frame 3: B, PL-CRC */
  tui_model_add(&m, rec, payload_record(rec, 0, 2, &pk), 13, 0);   /* frame 4: A, payload */

  struct tui_filter f = {0};
  char err[128];
  CHECK(reparse(&f, "ualink.rec.dir == \"B>A\"", err, sizeof err));
  CHECK(!match_at(&m, &f, 0));
  CHECK(match_at(&m, &f, 1));
  /* frame 1 is the capture's first flit: its alternate sectors may be the
   * payload of a transport begun before, so no DL message is decoded */
  CHECK(reparse(&f, "ualink.dlm.summary contains \"LinkWidth\"", err, sizeof err));
  CHECK(!match_at(&m, &f, 0));
  CHECK(!match_at(&m, &f, 3));
  CHECK(reparse(&f, "ualink.rule == \"PL-CRC\"", err, sizeof err));
  CHECK(match_at(&m, &f, 2));
  CHECK(!match_at(&m, &f, 1));
  CHECK(reparse(&f, "ualink.rec.dir == 1 && ualink.flit.kind == IDLE", err, sizeof err));
  CHECK(match_at(&m, &f, 1));
  CHECK(!match_at(&m, &f, 0));
  CHECK(reparse(&f, "frame.number in {2..3} and ualink.severity == \"error\"", err, sizeof err));
  CHECK(match_at(&m, &f, 2));
  CHECK(!match_at(&m, &f, 1));
  CHECK(reparse(&f, "ualink.flit.kind == Payload", err, sizeof err));
  CHECK(match_at(&m, &f, 3));
  CHECK(!reparse(&f, "colour == red", err, sizeof err));
  CHECK(strstr(err, "colour") != NULL);
  CHECK(!reparse(&f, "frame.number == x", err, sizeof err));
  CHECK_STR(err, "\"x\" is not a valid number. (at column 17)");

  CHECK(reparse(&f, "ualink.rec.dir == 0", err, sizeof err));
  tui_model_set_filter(&m, &f);
  CHECK_EQ(tui_model_next_match(&m, -1, +1), 0);
  CHECK_EQ(tui_model_next_match(&m, 0, +1), 3);
  CHECK_EQ(tui_model_next_match(&m, 3, +1), -1);
  CHECK_EQ(tui_model_next_match(&m, 3, -1), 0);
  CHECK_EQ(tui_view_count(&m, true), 2);
  CHECK_EQ(tui_view_at(&m, true, 1)->frame, 4);
  CHECK(reparse(&f, "", err, sizeof err));
  tui_model_set_filter(&m, &f);
  CHECK(!m.filter.active);
  CHECK_EQ(tui_view_count(&m, true), 0);
  CHECK_EQ(tui_model_next_match(&m, 0, +1), 1);
  tui_filter_free(&f);
  tui_model_free(&m);
}

/* A ring of 4 records: times stay relative to frame 1 and matches of the
 * filter stay reachable after the ring has moved past them. */
static void test_full_ring(void) {
  struct tui_model m;
  CHECK(tui_model_init(&m, 4));
  struct tui_filter f = {0};
  char err[128];
  CHECK(reparse(&f, "ualink.rec.dir == \"B>A\"", err, sizeof err));
  tui_model_set_filter(&m, &f);
  uint8_t rec[TUI_REC_MAX], flit[UAL_FLIT_BYTES];
  ual_flit_build_idle(flit);
  for (unsigned i = 0; i < 10; i++) /* frames 1..10, B>A on even frames */
    tui_model_add(&m, rec, flit_record(rec, (i + 1) % 2 == 0, flit), 5000 + 10 * i, 0);
  CHECK_EQ(tui_model_at(&m, 0)->frame, 7);
  CHECK_EQ(tui_model_rel_ns(&m, tui_model_at(&m, 0)), 60);
  CHECK_EQ(tui_view_count(&m, false), 4);
  CHECK_EQ(tui_view_count(&m, true), 4);
  CHECK_EQ(tui_view_at(&m, true, 0)->frame, 4); /* gone from the ring of all records */
  CHECK_EQ(tui_view_at(&m, true, 3)->frame, 10);
  CHECK_EQ(tui_model_find_frame(&m, 4), -1);
  CHECK_EQ(tui_view_find(&m, true, 7), 1);      /* frame 6 */
  CHECK_EQ(tui_view_find(&m, false, 8), 1);
  CHECK_EQ(tui_view_find(&m, true, 1), 0);
  tui_filter_free(&f);
  tui_model_free(&m);

  /* A filter set after the file was read: a rescan from frame 1 up to the
   * first frame held brings back the earlier matches. */
  CHECK(tui_model_init(&m, 4));
  for (unsigned i = 0; i < 10; i++)
    tui_model_add(&m, rec, flit_record(rec, (i + 1) % 2 == 0, flit), 5000 + 10 * i, 0);
  tui_model_set_filter(&m, &f);
  CHECK_EQ(tui_view_count(&m, true), 2);        /* frames 8 and 10 */
  struct tui_model scan;
  CHECK(tui_model_init_caps(&scan, 1, 4));
  tui_model_set_filter(&scan, &f);
  for (unsigned i = 0; i < 6; i++)
    tui_model_add(&scan, rec, flit_record(rec, (i + 1) % 2 == 0, flit), 5000 + 10 * i, 0);
  CHECK_EQ(tui_view_count(&scan, true), 3);     /* frames 2, 4, 6 */
  tui_model_take_older_matches(&m, &scan);
  CHECK_EQ(tui_view_count(&m, true), 4);
  CHECK_EQ(tui_view_at(&m, true, 0)->frame, 4);
  CHECK_EQ(tui_view_at(&m, true, 1)->frame, 6);
  CHECK_EQ(tui_view_at(&m, true, 3)->frame, 10);
  CHECK_EQ(tui_view_at(&m, true, 1)->dir, 1);
  tui_model_add(&m, rec, flit_record(rec, 1, flit), 6000, 0); /* frame 11 goes on after them */
  CHECK_EQ(tui_view_at(&m, true, 3)->frame, 11);
  CHECK_EQ(tui_view_at(&m, true, 0)->frame, 6);
  tui_model_free(&scan);
  tui_model_free(&m);
}

/* Link-time rates cover the whole capture at any length; wall-clock rates
 * count arrivals per second. */
static void test_rates(void) {
  struct tui_model m;
  CHECK(tui_model_init(&m, 16));
  uint8_t rec[TUI_REC_MAX], flit[UAL_FLIT_BYTES];
  ual_flit_build_idle(flit);
  uint64_t wall = 7000000000ull;
  for (unsigned i = 0; i < 1000; i++) /* 1000 flits 2 ns apart; 600 in wall second 7, 400 in 8 */
    tui_model_add(&m, rec, flit_record(rec, i & 1, flit), 123456789 + 2 * i, wall + (i < 600 ? i : 1000000000u + i));
  CHECK_EQ(tui_model_span_ns(&m), 1998);
  CHECK_EQ(m.link.width_ns, 64);                /* 1998 / 64 = 31 < 60 <= 1998 / 32 */
  CHECK_EQ(m.link.used, 32);
  uint64_t sum = 0;
  for (unsigned i = 0; i < m.link.used; i++) sum += m.link.b[i].flits;
  CHECK_EQ(sum, 1000);
  CHECK_EQ(m.link.b[0].flits, 32);
  CHECK_EQ(m.link.b[31].flits, 1000 - 31 * 32);
  CHECK_EQ(tui_model_wall_rate(&m, 8, 0).flits, 400);
  CHECK_EQ(tui_model_wall_rate(&m, 8, 1).flits, 600);
  CHECK_EQ(tui_model_wall_rate(&m, 9, 0).flits, 0);   /* nothing arrived in second 9 */
  CHECK_EQ(tui_model_wall_rate(&m, 8 + TUI_RATE_BUCKETS, 0).flits, 0); /* an old bucket is not reused */
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

static void type(struct tui_line *l, const char *s) {
  for (; *s; s++) tui_line_key(l, TUI_LK_CHAR, (unsigned char)*s);
}

/* The filter prompt: the old filter is selected, so typing replaces it
 * (not "sev=errormsg=link_width"); readline's keys edit. */
static void test_line_edit(void) {
  struct tui_line l;
  tui_line_start(&l, "sev=error", 96);
  CHECK(l.selected);
  type(&l, "msg=link_width");
  CHECK_STR(l.buf, "msg=link_width");
  CHECK_EQ(tui_line_key(&l, TUI_LK_ENTER, 0), TUI_LR_ACCEPT);

  tui_line_start(&l, "sev=error", 96);
  CHECK_EQ(tui_line_key(&l, TUI_LK_ENTER, 0), TUI_LR_ACCEPT); /* Enter keeps it */
  CHECK_STR(l.buf, "sev=error");
  tui_line_start(&l, "sev=error", 96);
  tui_line_key(&l, TUI_LK_BACKSPACE, 0);                     /* Backspace clears the selection */
  CHECK_STR(l.buf, "");
  tui_line_start(&l, "sev=error", 96);
  tui_line_key(&l, TUI_LK_END, 0);                           /* a movement starts editing it */
  type(&l, " dir=B");
  CHECK_STR(l.buf, "sev=error dir=B");
  tui_line_key(&l, TUI_LK_KILL_WORD, 0);                     /* Ctrl-W */
  CHECK_STR(l.buf, "sev=error ");
  tui_line_key(&l, TUI_LK_KILL_WORD, 0);
  CHECK_STR(l.buf, "");
  tui_line_key(&l, TUI_LK_YANK, 0);                          /* Ctrl-Y */
  CHECK_STR(l.buf, "sev=error ");
  CHECK_EQ(l.cur, 10);
  tui_line_key(&l, TUI_LK_WORD_LEFT, 0);
  CHECK_EQ(l.cur, 0);
  tui_line_key(&l, TUI_LK_WORD_RIGHT, 0);
  tui_line_key(&l, TUI_LK_LEFT, 0);
  tui_line_key(&l, TUI_LK_LEFT, 0);
  tui_line_key(&l, TUI_LK_KILL_START, 0);                    /* Ctrl-U: from the start to the cursor */
  CHECK_STR(l.buf, "or ");
  CHECK_EQ(l.cur, 0);
  tui_line_key(&l, TUI_LK_KILL_END, 0);                      /* Ctrl-K */
  CHECK_STR(l.buf, "");
  type(&l, "dir=A");
  tui_line_key(&l, TUI_LK_HOME, 0);
  tui_line_key(&l, TUI_LK_DELETE, 0);
  type(&l, "D");
  CHECK_STR(l.buf, "Dir=A");
  tui_line_key(&l, TUI_LK_CHAR, 0x1b);                       /* not printable: ignored */
  CHECK_STR(l.buf, "Dir=A");
  CHECK_EQ(tui_line_key(&l, TUI_LK_CANCEL, 0), TUI_LR_CANCEL);
  tui_line_start(&l, "", 96);
  CHECK(!l.selected);
  for (int i = 0; i < 300; i++) tui_line_key(&l, TUI_LK_CHAR, 'x'); /* bounded */
  CHECK_EQ(l.len, 95);
  tui_line_key(&l, TUI_LK_YANK, 0);
  CHECK_EQ(l.len, 95);
  tui_line_start(&l, "abc", 96);
  tui_line_key(&l, TUI_LK_KILL_START, 0);                    /* Ctrl-U on the selection clears it */
  CHECK_STR(l.buf, "");
}

static void add_cb(void *ctx, const uint8_t *rec, size_t len, uint64_t ts_ns) {
  tui_model_add(ctx, rec, len, ts_ns, 0);
}

/* Reads a capture file through the TUI's own source into m; false when it
 * cannot be opened (said on stderr). */
static bool read_file(struct tui_model *m, const char *path, tui_record_cb cb, void *ctx, struct tui_source *src) {
  *src = (struct tui_source){ .kind = TUI_SRC_FILE, .path = path, .dlt = UAL_DLT_USER0, .port = UAL_UDP_PORT,
                              .cb = cb, .ctx = ctx };
  if (!tui_source_open(src)) {
    fprintf(stderr, "%s\n", src->error);
    return false;
  }
  m->arrival_times = src->udp;
  tui_source_run(src);
  tui_source_close(src);
  return true;
}

/* --counts FILE: the model's counters over a capture as JSON, for
 * tui_counts.py to compare with ualink-decode --stats --json. */
static int print_counts(const char *path) {
  static struct tui_model m;
  if (!tui_model_init(&m, 16)) return 2;
  static struct tui_source src;
  if (!read_file(&m, path, add_cb, &m, &src)) return 2;
  static const char *const usage[] = { "payload", "nop", "idle", "reserved" };
  printf("{\"malformed\": %llu, \"span_ns\": %llu, \"dirs\": {", (unsigned long long)m.malformed,
         (unsigned long long)tui_model_span_ns(&m));
  for (int d = 0; d < 2; d++) {
    const struct tui_dir_counts *c = &m.dir[d];
    printf("%s\"%s\": {\"records\": %llu, \"usage\": {", d ? ", " : "", d ? "B>A" : "A>B",
           (unsigned long long)c->records);
    for (int k = 0; k < 4; k++) printf("%s\"%s\": %llu", k ? ", " : "", usage[k], (unsigned long long)c->flits[k]);
    printf("}, \"crc\": {\"bad\": %llu, \"inverted\": %llu}, \"fec\": {\"corrected\": %llu, "
           "\"uncorrectable\": %llu}, \"naks\": %llu, \"tl_flits\": %llu, \"dl_msgs\": %llu, \"os\": %llu, "
           "\"event\": %llu, \"pcie_dllps\": %llu, \"pcie_crc_bad\": %llu, \"pcie_flits\": %llu, \"pcie_tlps\": %llu, "
           "\"ub\": {\"flits\": %llu, \"bcrc_bad\": %llu, \"dlldps\": %llu, \"dllcbs\": %llu}}",
           (unsigned long long)c->crc_bad, (unsigned long long)c->crc_inverted,
           (unsigned long long)c->fec_corrected, (unsigned long long)c->fec_uncorrectable,
           (unsigned long long)c->naks, (unsigned long long)c->tl_flits, (unsigned long long)c->dl_msgs,
           (unsigned long long)c->os, (unsigned long long)c->events, (unsigned long long)c->pcie_dllps,
           (unsigned long long)c->pcie_crc_bad, (unsigned long long)c->pcie_flits, (unsigned long long)c->pcie_tlps,
           (unsigned long long)c->ub_flits, (unsigned long long)c->ub_bcrc_bad, (unsigned long long)c->ub_dlldps,
           (unsigned long long)c->ub_dllcbs);
  }
  printf("}, \"findings_by_rule\": {");
  for (int r = 0, k = 0; r < UAL_R_COUNT; r++)
    if (m.rule_counts[r])
      printf("%s\"%s\": %llu", k++ ? ", " : "", ual_rule_id((enum ual_rule)r), (unsigned long long)m.rule_counts[r]);
  printf("}}\n");
  tui_model_free(&m);
  return src.error[0] ? 1 : 0;
}

/* A filter set after `at` records of the file (0: before the first). */
struct late_filter {
  struct tui_model *m;
  uint64_t at;
  const struct tui_filter *f;
};

static void late_cb(void *ctx, const uint8_t *rec, size_t len, uint64_t ts_ns) {
  struct late_filter *lf = ctx;
  tui_model_add(lf->m, rec, len, ts_ns, 0);
  if (lf->m->total == lf->at) tui_model_set_filter(lf->m, lf->f);
}

/* --filter FILE RING AT[,AT...] FILTER: for each AT, the frames that match
 * FILTER in a fresh model holding RING records, the filter set after AT
 * records: an "at AT" line, then one frame a line, for tui_filter.py to
 * compare with ualink-decode -Y. */
static int print_matches(const char *path, const char *ring, const char *ats, const char *text) {
  static struct tui_model m;
  int rc = 0;
  for (const char *a = ats; rc == 0 && *a;) {
    struct tui_filter f = {0};
    char err[256];
    if (!tui_filter_parse(&f, text, err, sizeof err)) {
      fprintf(stderr, "%s\n", err);
      return 2;
    }
    char *end;
    struct late_filter lf = { &m, strtoull(a, &end, 10), &f };
    a = *end == ',' ? end + 1 : end;
    if (!tui_model_init_caps(&m, strtoul(ring, NULL, 10), 1u << 16)) return 2;  /* more than any sample holds */
    if (!lf.at) tui_model_set_filter(&m, &f);
    static struct tui_source src;
    if (!read_file(&m, path, late_cb, &lf, &src)) rc = 2;
    else if (src.error[0]) rc = 1;
    printf("at %llu\n", (unsigned long long)lf.at);
    for (size_t i = 0, n = tui_view_count(&m, true); i < n; i++)
      printf("%llu\n", (unsigned long long)tui_view_at(&m, true, i)->frame);
    tui_model_free(&m);
    tui_filter_free(&f);
  }
  return rc;
}

/* A PCIe flit record (kind 5) with the TLP bytes t, sequence number seq. */
static size_t pcie_record(uint8_t *rec, unsigned dir, unsigned seq, const uint8_t *t) {
  uint8_t f[UAL_FLIT_BYTES] = { 0 };
  memcpy(f, t, UAL_PCIE_FLIT_TLP_BYTES);
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, (uint16_t)seq };
  struct ual_dllp d;
  memset(&d, 0, sizeof d);
  d.type = d.b[0] = 0x31;
  ual_pcie_flit_seal(f, &fh, &d);
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, UAL_REC_PCIE_FLIT, dir);
  h.roles_pcie = 1;
  h.role_a = 1;
  h.role_b = 4;
  return ual_record_build(&h, f, UAL_FLIT_BYTES, rec, TUI_REC_MAX);
}

static void count_tlp_rows(void *ctx, const struct ual_tree_row *row) {
  unsigned *n = ctx;
  if (!row->field && strcmp(row->label, "TLP") == 0) n[0]++;
  if (row->field && row->id == UAL_F_PCIE_GEN_RESP_TO) n[1] = (unsigned)row->value;
  if (row->field && row->copied) n[2]++;
}

/* The detail pane of a PCIe flit shows the TLPs the analysis walked there,
 * with their links, re-walked from the entry alone. */
static void test_pcie_detail(void) {
  static struct tui_model m;
  static struct ual_rec_result r;
  CHECK(tui_model_init(&m, 16));
  uint8_t rec[TUI_REC_MAX], t[UAL_PCIE_FLIT_TLP_BYTES] = { 0 };
  /* frame 1: the link trains from Detect, so both TLP streams start in sync */
  struct ual_event ev = { UAL_EV_RX_DETECT, 0, 0 };
  uint8_t evb[UAL_REC_EVENT_BYTES];
  ual_event_build(&ev, evb);
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, UAL_REC_EVENT, 0);
  h.roles_pcie = 1;
  h.role_a = 1;
  h.role_b = 4;
  tui_model_add(&m, rec, ual_record_build(&h, evb, sizeof evb, rec, TUI_REC_MAX), 90, 0);
  /* frame 2, A: MRd32 tag 7 */
  const uint8_t mrd[12] = { 0x03, 0, 0, 1, 0x01, 0x00, 0x00, 0x07, 0, 0, 0x10, 0 };
  const uint8_t mwr[12] = { 0x40, 0, 0, 64, 0x01, 0x00, 0x00, 0x00, 0, 0, 0x20, 0 };
  memcpy(t, mrd, 12);
  tui_model_add(&m, rec, pcie_record(rec, 0, 1, t), 100, 0);
  /* frame 3, B: CplD for it */
  const uint8_t cpl[16] = { 0x4A, 0, 0, 1, 0x02, 0x00, 0x00, 0x07, 0x01, 0x00, 0x00, 4, 1, 2, 3, 4 };
  memset(t, 0, sizeof t);
  memcpy(t, cpl, 16);
  tui_model_add(&m, rec, pcie_record(rec, 1, 5, t), 130, 0);
  /* frames 4 and 5, A: a MWr32 of 64 DW at DW 0, its last 8 DW in the next flit */
  memset(t, 0x5A, sizeof t);
  memcpy(t, mwr, 12);
  tui_model_add(&m, rec, pcie_record(rec, 0, 2, t), 160, 0);
  memset(t, 0, sizeof t);
  memset(t, 0x5A, 32);
  tui_model_add(&m, rec, pcie_record(rec, 0, 3, t), 190, 0);
  const struct tui_entry *e = tui_view_at(&m, false, 2);
  CHECK_EQ(e->frame, 3);
  tui_entry_decode(e, &r);
  CHECK_EQ(r.tlps.n, 1);
  CHECK_EQ(r.tlps.v[0].link, UAL_PCIE_LK_CPL);
  CHECK_EQ(r.tlps.v[0].peer_frame, 2);
  CHECK_EQ(r.tlps.v[0].latency_ns, 30);
  unsigned n[3] = { 0, 0, 0 };
  ual_tree_walk(&r, e->rec, e->len, count_tlp_rows, n);
  CHECK_EQ(n[0], 1);
  CHECK_EQ(n[1], 2);
  CHECK_EQ(n[2], 0);
  e = tui_view_at(&m, false, 4);
  tui_entry_decode(e, &r);
  CHECK_EQ(r.tlps.n, 1);
  CHECK_EQ(ual_pcie_tlp_dw0(&r.tlps.v[0].t)[0], 0x40);
  CHECK_EQ(r.tlps.v[0].start_frame, 4);
  memset(n, 0, sizeof n);
  ual_tree_walk(&r, e->rec, e->len, count_tlp_rows, n);
  CHECK_EQ(n[0], 1);
  CHECK(n[2] > 5);   /* its header rows come from frame 4 */
  CHECK(strstr(e->line, "MWr32") != NULL);
  tui_model_free(&m);
}

static void *recv_thread(void *arg) {
  tui_source_run(arg);
  return NULL;
}

/* --receive ADDR PORT N: the TUI's UDP socket source and model until N
 * records arrived or nothing came for 3 s, as JSON: what the receiver
 * counted lost and each record's findings by arrival index (1-based), for
 * udp_loss.py to compare with the records sent. */
static int receive(const char *addr, const char *port, const char *count) {
  size_t n = strtoull(count, NULL, 10);
  static struct tui_model m;
  if (!tui_model_init(&m, n + 16)) return 2;
  static struct tui_source src;
  src = (struct tui_source){ .kind = TUI_SRC_UDP, .path = addr, .dlt = UAL_DLT_USER0, .port = atoi(port),
                             .cb = add_cb, .ctx = &m };
  if (!tui_source_open(&src)) {
    fprintf(stderr, "%s\n", src.error);
    return 2;
  }
  m.arrival_times = true;
  printf("ready\n");
  fflush(stdout);
  pthread_t t;
  pthread_create(&t, NULL, recv_thread, &src);
  uint64_t last = 0;
  for (int idle = 0; idle < 30;) {
    usleep(100000);
    uint64_t total = __atomic_load_n(&m.total, __ATOMIC_ACQUIRE);
    if (total >= n) break;
    idle = total == last ? idle + 1 : 0;
    last = total;
  }
  src.stop = true;
  pthread_join(t, NULL);
  tui_source_close(&src);
  printf("{\"records\": %llu, \"lost\": %llu, \"gaps\": %llu, \"back\": %llu, \"kernel_drops\": %llu, "
         "\"rcvbuf\": %d, \"findings\": [", (unsigned long long)m.total, (unsigned long long)src.udp_rx.lost,
         (unsigned long long)src.udp_rx.gaps, (unsigned long long)src.udp_rx.back,
         (unsigned long long)src.kernel_drops, src.rcvbuf);
  int k = 0;
  for (size_t i = 0; i < tui_model_count(&m); i++) {
    const struct tui_entry *e = tui_model_at(&m, i);
    for (unsigned r = 0; r < e->n_rules; r++)
      printf("%s[%llu, \"%s\"]", k++ ? ", " : "", (unsigned long long)e->frame,
             ual_rule_id((enum ual_rule)e->rules[r]));
  }
  printf("]}\n");
  tui_model_free(&m);
  return src.error[0] ? 1 : 0;
}

/* --note FILE file|follow|stdin: the TUI's source over FILE (opened as a
 * file, followed, or on stdin) until its records are in or 5 s passed:
 * the note the source left, and the records read. */
static int print_note(const char *path, const char *how) {
  static struct tui_model m;
  if (!tui_model_init(&m, 4096)) return 2;
  static struct tui_source src;
  bool follow = strcmp(how, "follow") == 0, in = strcmp(how, "stdin") == 0;
  if (in && !freopen(path, "rb", stdin)) return 2;
  src = (struct tui_source){ .kind = follow ? TUI_SRC_FOLLOW : in ? TUI_SRC_STDIN : TUI_SRC_FILE, .path = path,
                             .dlt = UAL_DLT_USER0, .port = UAL_UDP_PORT, .cb = add_cb, .ctx = &m };
  if (!tui_source_open(&src)) {
    fprintf(stderr, "%s\n", src.error);
    return 2;
  }
  pthread_t t;
  pthread_create(&t, NULL, recv_thread, &src);
  /* a followed file never ends: its records are all in when they stop coming */
  uint64_t last = 0;
  for (int idle = 0; idle < 5 && !src.done; ) {
    usleep(100000);
    uint64_t total = __atomic_load_n(&m.total, __ATOMIC_ACQUIRE);
    idle = total && total == last ? idle + 1 : 0;
    last = total;
  }
  src.stop = true;
  pthread_join(t, NULL);
  tui_source_close(&src);
  printf("note: %s\nrecords %llu\n", src.note_set ? src.note : "(none)", (unsigned long long)m.total);
  tui_model_free(&m);
  return src.error[0] ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "--note") == 0) return print_note(argv[2], argv[3]);
  if (argc == 5 && strcmp(argv[1], "--receive") == 0) return receive(argv[2], argv[3], argv[4]);
  if (argc == 3 && strcmp(argv[1], "--counts") == 0) return print_counts(argv[2]);
  if (argc == 6 && strcmp(argv[1], "--filter") == 0) return print_matches(argv[2], argv[3], argv[4], argv[5]);
  test_ring_and_counts();
  test_filter();
  test_full_ring();
  test_rates();
  test_line_edit();
  test_udp_payload();
  test_pcie_detail();
  return check_done("test_tui_model");
}
