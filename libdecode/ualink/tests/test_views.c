/* The presentation model (core/views.h) over a UALink link: the link list,
 * the tally against what the records carried, the state rows after a
 * negotiation, the lanes the events mark, and negotiations as
 * transactions with their request frame and latency. */
#include "analysis_fixture.h"
#include <ualink/core/views.h>

static struct fx X;
static struct fx_log LOG;
static struct ual_analyzer A;
static struct ual_view_tally T;

#define CH0_ON (UAL_CHAN_ONLINE | UAL_CHAN_TL)

struct seen {
  char ltssm[2][48], ch0[2][48], neg_width[2][48];
  unsigned rows;
  uint64_t flits[2], payload[2], records[2];
  bool sent_by_acks;
};

static void on_row(void *ctx, const struct ual_view_row *r) {
  struct seen *s = ctx;
  s->rows++;
  for (unsigned d = 0; d < 2; d++) {
    if (!strcmp(r->label, "LTSSM")) snprintf(s->ltssm[d], sizeof s->ltssm[d], "%s", r->value[d]);
    if (!strcmp(r->label, "channel 0 (TL)")) snprintf(s->ch0[d], sizeof s->ch0[d], "%s", r->value[d]);
    if (!strcmp(r->label, "negotiated width")) snprintf(s->neg_width[d], sizeof s->neg_width[d], "%s", r->value[d]);
  }
}

static void on_counter(void *ctx, const struct ual_view_counter *c) {
  struct seen *s = ctx;
  if (c->heading || !c->key) return;
  for (unsigned d = 0; d < 2; d++) {
    if (c->table == UAL_VIEW_T_RECORDS && !strcmp(c->key, "flit")) s->flits[d] = c->v[d];
    if (c->table == UAL_VIEW_T_RECORDS && !strcmp(c->key, "usage.payload")) s->payload[d] = c->v[d];
    if (c->table == UAL_VIEW_T_RECORDS && !strcmp(c->key, "records")) s->records[d] = c->v[d];
  }
  if (c->table == UAL_VIEW_T_SENT_BY && !strcmp(c->key, "acks")) s->sent_by_acks = true;
}

static void test_negotiation(void) {
  X.log = &LOG;
  fx_init(&X);
  fx_train(&X, true);
  fx_negotiate(&X, FX_A, UAL_MT_CHANNEL, CH0_ON);
  fx_negotiate(&X, FX_B, UAL_MT_LINK_WIDTH, 2);   /* x4 */
  fx_data(&X, FX_A);
  fx_data(&X, FX_B);

  /* the same records through a second analyzer, as a front-end reads them */
  ual_analyzer_init(&A);
  ual_view_tally_init(&T);
  struct ual_events ev;
  ual_events_init(&ev);
  static struct ual_rec_result r;
  uint64_t flits[2] = { 0, 0 }, payload[2] = { 0, 0 }, records[2] = { 0, 0 };
  unsigned txns = 0, ch0_marks = 0, ltssm_marks = 0;
  struct ual_view_txn width_txn;
  memset(&width_txn, 0, sizeof width_txn);
  uint64_t width_req_frame = 0;
  for (size_t i = 0; i < LOG.n; i++) {
    ual_events_clear(&ev);
    ual_analyzer_step(&A, LOG.rec[i], LOG.len[i], i + 1, LOG.ts[i], &r, &ev);
    int k = ual_view_tally_add(&T, &r, LOG.ts[i], true);
    CHECK_EQ(k, 0);
    records[r.dir]++;
    if (r.rec.h.kind == UAL_REC_FLIT) {
      flits[r.dir]++;
      if (r.flit.kind == UAL_FK_PAYLOAD) payload[r.dir]++;
    }
    for (unsigned j = 0; j < ev.n; j++) {
      CHECK_EQ(ev.v[j].link, r.rec.h.link);
      if (ev.v[j].kind == UAL_TEV_NEGOTIATION && ev.v[j].mtype == UAL_MT_LINK_WIDTH &&
          ev.v[j].outcome == UAL_NEG_REQUEST)
        width_req_frame = ev.v[j].frame;
    }
    static struct ual_view_txn tx[UAL_VIEW_MAX_TXNS];
    unsigned nt = ual_view_txns(&T, k, &r, LOG.ts[i], &ev, tx, UAL_VIEW_MAX_TXNS);
    for (unsigned j = 0; j < nt; j++) {
      txns++;
      CHECK_EQ(tx[j].fabric, UAL_VF_ualink);
      CHECK_EQ(tx[j].status, UAL_TXN_OK);
      CHECK_EQ(tx[j].end_ns, LOG.ts[i]);
      if (!strcmp(tx[j].kind, "link_width")) width_txn = tx[j];
    }
    struct ual_view_mark m[UAL_VIEW_MAX_MARKS];
    unsigned n = ual_view_marks(&T, k, &r, &ev, m, UAL_VIEW_MAX_MARKS);
    const struct ual_view_fabric *f = ual_view_fabric_get(UAL_VF_ualink);
    for (unsigned j = 0; j < n; j++) {
      CHECK(m[j].lane < f->n_lanes);
      if (!strcmp(f->lanes[m[j].lane].key, "ch0")) {
        ch0_marks++;
        CHECK_EQ(m[j].value, 2);   /* online */
      }
      if (!strcmp(f->lanes[m[j].lane].key, "ltssm")) ltssm_marks++;
    }
  }
  /* both negotiations complete once, as transactions */
  CHECK_EQ(txns, 2);
  CHECK(width_req_frame > 0);
  CHECK_EQ(width_txn.side, FX_B);
  CHECK_EQ(width_txn.start_frame, width_req_frame);
  CHECK(width_txn.end_frame > width_txn.start_frame);
  CHECK(width_txn.latency_ns > 0);
  CHECK_EQ(width_txn.end_ns - width_txn.start_ns, width_txn.latency_ns);
  CHECK_EQ(ch0_marks, 2);          /* both partners' channel 0 went online */
  CHECK(ltssm_marks >= 2);         /* training moved both ports */

  CHECK_EQ(T.n, 1);
  struct ual_view_src src;
  ual_analyzer_view_src(&A, &T, &src);
  struct ual_view_link l;
  ual_view_link_get(&src, 0, &l);
  CHECK_EQ(l.fabric, UAL_VF_ualink);
  CHECK_STR(l.name, "link");   /* link byte 255: not told */
  CHECK_STR(l.side[0], "A (accelerator)");
  CHECK_STR(l.side[1], "B (switch)");

  struct seen s;
  memset(&s, 0, sizeof s);
  ual_view_state(&src, 0, on_row, &s);
  CHECK(s.rows > 8);
  CHECK_STR(s.ltssm[0], "L0");
  CHECK_STR(s.ltssm[1], "L0");
  CHECK_STR(s.ch0[0], "online");
  CHECK_STR(s.ch0[1], "online");
  CHECK_STR(s.neg_width[0], "x4");
  ual_view_counters(&src, 0, on_counter, &s);
  for (unsigned d = 0; d < 2; d++) {
    CHECK_EQ(s.records[d], records[d]);
    CHECK_EQ(s.flits[d], flits[d]);
    CHECK_EQ(s.payload[d], payload[d]);
    CHECK(flits[d] > 0);
  }
  CHECK(s.sent_by_acks);
  char line[256];
  CHECK(ual_view_state_line(&src, 0, line, sizeof line) > 0);
  CHECK(strstr(line, "ch0=on") != NULL);
}

/* Before anything is known every row says so. */
static void test_unknown(void) {
  ual_analyzer_init(&A);
  ual_view_tally_init(&T);
  fx_init(&X);
  X.log = NULL;
  fx_payload(&X, FX_A);
  CHECK(ual_view_tally_add(&T, &X.r, 0, true) == 0);
  struct ual_view_src src;
  ual_analyzer_view_src(&A, &T, &src);
  struct seen s;
  memset(&s, 0, sizeof s);
  ual_view_state(&src, 0, on_row, &s);
  CHECK_STR(s.ch0[0], UAL_VIEW_UNKNOWN);
  CHECK_STR(s.neg_width[1], UAL_VIEW_UNKNOWN);
  CHECK_STR(s.ltssm[1], UAL_VIEW_UNKNOWN);
}

/* Links by the record header's link byte, in the order they first came; a
 * full table counts the rest. */
static void test_links(void) {
  ual_view_tally_init(&T);
  static struct ual_rec_result r;
  memset(&r, 0, sizeof r);
  r.status = UAL_RS_OK;
  r.rec.h.kind = UAL_REC_PCIE_DLLP;
  for (unsigned i = 0; i < UAL_VIEW_LINKS + 2; i++) {
    r.rec.h.link = (uint8_t)(i * 3 % 11);   /* 0 3 6 9 1 4 7 10 2 5: all new */
    int k = ual_view_tally_add(&T, &r, 0, true);
    if (i < UAL_VIEW_LINKS) CHECK_EQ(k, i);
  }
  CHECK_EQ(T.n, UAL_VIEW_LINKS);
  CHECK_EQ(T.other_links, 2);
  r.rec.h.link = 0;
  CHECK_EQ(ual_view_tally_add(&T, &r, 0, true), 0);
  CHECK_EQ(T.l[0].d[0].records, 2);
  CHECK_EQ(ual_view_tally_find(&T, UAL_VF_pcie, 3), 1);
  CHECK_EQ(ual_view_tally_find(&T, UAL_VF_ualink, 3), -1);
  /* a PCIe link's event is PCIe's; another's joins the link of its byte */
  r.rec.h.kind = UAL_REC_EVENT;
  r.rec.h.roles_pcie = 1;
  CHECK_EQ(ual_view_fabric_of(&T, &r), UAL_VF_pcie);
  r.rec.h.roles_pcie = 0;
  r.rec.h.link = 6;
  CHECK_EQ(ual_view_fabric_of(&T, &r), UAL_VF_pcie);
  r.rec.h.link = 200;
  CHECK_EQ(ual_view_fabric_of(&T, &r), UAL_VF_ualink);
  CHECK_STR(ual_txn_status_name(UAL_TXN_OPEN), "open");
}

int main(void) {
  test_negotiation();
  test_unknown();
  test_links();
  return check_done("test_views");
}
