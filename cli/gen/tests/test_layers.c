/* Unit tests of ualink-gen's layers, one part per layer (cli/gen/LAYERS),
 * each driving that layer's functions on a bare link model and checking the
 * records, ground truth and state they leave:
 *   test_layers rng|model|phy|tl|dl|replay|steps|inject|sequencer|scenario */
#include "dl.h"
#include "inject.h"
#include "phy.h"
#include "replay.h"
#include "scenario.h"
#include "sequencer.h"
#include "steps.h"
#include "tl.h"

#include "../../../libdecode/tests/check.h"

#include <math.h>
#include <stdlib.h>

/* ---- what the model wrote ---- */

#define CAP_RECS 8192
#define CAP_TRUTH 256
#define CAP_MSGS 256
struct cap {
  size_t n;
  uint64_t ts[CAP_RECS];
  size_t len[CAP_RECS];
  uint8_t rec[CAP_RECS][UAL_REC_HDR_BYTES + UAL_FLIT_BYTES];
  unsigned nt;
  struct { uint64_t frame; unsigned dir; int rule; char src[16]; } t[CAP_TRUTH];
  unsigned ntl;
  uint8_t tl[CAP_MSGS][UAL_TL_FLIT_BYTES];
  unsigned nmsg;
  uint32_t msg[CAP_MSGS];
};
static struct cap cap;

static int cap_record(void *ctx, uint64_t ts_ns, const uint8_t *rec, size_t len) {
  (void)ctx;
  if (cap.n < CAP_RECS && len <= sizeof cap.rec[0]) {
    cap.ts[cap.n] = ts_ns;
    cap.len[cap.n] = len;
    memcpy(cap.rec[cap.n], rec, len);
  }
  cap.n++;
  return 0;
}

static void cap_truth(void *ctx, uint64_t frame, unsigned dir, int rule, const char *src, const char *note) {
  (void)ctx;
  (void)note;
  if (cap.nt >= CAP_TRUTH) return;
  cap.t[cap.nt].frame = frame;
  cap.t[cap.nt].dir = dir;
  cap.t[cap.nt].rule = rule;
  snprintf(cap.t[cap.nt].src, sizeof cap.t[cap.nt].src, "%s", src);
  cap.nt++;
}

static void cap_tl(void *ctx, unsigned dir, const uint8_t data[UAL_TL_FLIT_BYTES], unsigned m0, unsigned m1) {
  (void)ctx; (void)dir; (void)m0; (void)m1;
  if (cap.ntl < CAP_MSGS) memcpy(cap.tl[cap.ntl++], data, UAL_TL_FLIT_BYTES);
}

static void cap_msg(void *ctx, unsigned dir, const uint32_t *dw, unsigned n) {
  (void)ctx; (void)dir; (void)n;
  if (cap.nmsg < CAP_MSGS) cap.msg[cap.nmsg++] = dw[0];
}

/* the first truth of rule (NULL when none) */
static const char *truth_src(int rule, uint64_t *frame, unsigned *dir) {
  for (unsigned i = 0; i < cap.nt; i++)
    if (cap.t[i].rule == rule) {
      if (frame) *frame = cap.t[i].frame;
      if (dir) *dir = cap.t[i].dir;
      return cap.t[i].src;
    }
  return NULL;
}

static struct ual_record rec_at(size_t i) {
  struct ual_record r;
  memset(&r, 0, sizeof r);
  CHECK_EQ(ual_record_parse(cap.rec[i], cap.len[i], &r), UAL_RS_OK);
  return r;
}

/* ---- a bare link model: two sides, no scenario, no injections ---- */

static struct gen *bare(unsigned rate, unsigned width) {
  memset(&cap, 0, sizeof cap);
  struct gen *g = calloc(1, sizeof *g);
  g->sq = calloc(1, sizeof *g->sq);
  g->ij = calloc(1, sizeof *g->ij);
  g->out = (struct gen_out){ &cap, cap_record, cap_truth, cap_tl, cap_msg, NULL, NULL };
  g->o.train_os = 4;
  g->o.run_scale = 1.0;
  g->o.start_ns = 1000;
  g->lat_ps = 20 * PS_PER_NS;
  g->load = 1.0;
  g->final_rate = (uint8_t)rate;
  g->sq->wake = PS_NEVER;
  gen_rng_seed(&g->rng, 5);
  gen_rng_seed(&g->ber_rng[0], 3);
  gen_rng_seed(&g->ber_rng[1], 4);
  for (unsigned i = 0; i < 2; i++) {
    struct side *s = &g->s[i];
    rp_side_init(g, s, i);
    s->role = i ? UAL_ROLE_SWITCH : UAL_ROLE_ACCEL;
    s->upstream = i == 1;
    s->rate = (uint8_t)rate;
    s->width = (uint8_t)width;
    side_speed_changed(s);
    dl_init(s);
    gen_rng_seed(&s->rng, 7 + i);
    s->width_code = s->max_width_code = (uint8_t)side_width_code(width);
    s->speed_code = s->max_speed_code = (uint8_t)side_speed_code(rate);
  }
  return g;
}

static void bare_free(struct gen *g) {
  for (unsigned i = 0; i < 2; i++) rp_side_free(&g->s[i]);
  free(g->sq);
  free(g->ij);
  free(g);
}

/* both sides in L0 with channels 0 and 4 online, A numbering from 100, B from 200 */
static void l0(struct gen *g) {
  for (unsigned i = 0; i < 2; i++) rp_start_l0(g, &g->s[i], (uint16_t)(100 * (i + 1)));
  g->s[0].next_exp = g->s[1].next_tx;
  g->s[1].next_exp = g->s[0].next_tx;
  g->s[0].t_next = 0;
  g->s[1].t_next = side_flit_ps(&g->s[1]) / 2;
}

/* the event loop of gen_run without a scenario: steps the side due first */
static void run_sides(struct gen *g, unsigned steps) {
  for (unsigned k = 0; k < steps && !g->stop_error; k++) {
    struct side *s = g->s[0].t_next <= g->s[1].t_next ? &g->s[0] : &g->s[1];
    if (s->t_next == PS_NEVER) break;
    if (s->t_next > g->now) g->now = s->t_next;
    rp_step(g, s);
  }
}

/* ---- rng ---- */

static void test_rng(void) {
  struct gen_rng r;
  gen_rng_seed(&r, 1);   /* splitmix64 then xoshiro256**, as computed independently */
  CHECK_EQ(gen_rng_next(&r), 0xb3f2af6d0fc710c5ull);
  CHECK_EQ(gen_rng_next(&r), 0x853b559647364ceaull);
  CHECK_EQ(gen_rng_next(&r), 0x92f89756082a4514ull);
  gen_rng_seed(&r, 0x1234);
  CHECK_EQ(gen_rng_below(&r, 10), 8);   /* (0xcf1350dc * 10) >> 32 */
  unsigned seen[7] = { 0 };
  bool unit_ok = true;
  for (unsigned i = 0; i < 7000; i++) {
    uint32_t v = gen_rng_below(&r, 7);
    if (v < 7) seen[v]++;
    else seen[0] = 100000;
    double u = gen_rng_unit(&r);
    if (!(u >= 0 && u < 1)) unit_ok = false;
  }
  for (unsigned i = 0; i < 7; i++) CHECK(seen[i] > 800 && seen[i] < 1200);
  CHECK(unit_ok);
}

/* ---- model ---- */

static unsigned labelled_calls;
static int labelled_rule;
static void count_labelled(struct gen *g, int rule) { (void)g; labelled_calls++; labelled_rule = rule; }

static void emit_event(struct gen *g, struct side *s, unsigned code, uint64_t t_ps) {
  struct ual_event ev = { (uint16_t)code, 0, 0 };
  uint8_t body[UAL_REC_EVENT_BYTES];
  ual_event_build(&ev, body);
  gen_emit(g, s, UAL_REC_EVENT, body, sizeof body, t_ps);
}

static void test_model(void) {
  struct gen *g = bare(7, 8);
  struct side *a = &g->s[0], *b = &g->s[1];
  CHECK_EQ(a->ft_ps, 2000);                    /* 2048 bits on 8 lanes of 128 GT/s */
  CHECK_EQ(side_flit_ps(a), 2000);
  CHECK(peer_of(g, a) == b);

  emit_event(g, a, UAL_EV_CAP_START, 5 * PS_PER_NS + 123);
  CHECK_EQ(cap.n, 1);
  CHECK_EQ(g->frame, 1);
  CHECK_EQ(cap.ts[0], 1005);                   /* start_ns + whole ns */
  struct ual_record r = rec_at(0);
  CHECK_EQ(r.h.kind, UAL_REC_EVENT);
  CHECK_EQ(r.h.rate, 7);
  CHECK_EQ(r.h.width, 8);
  CHECK_EQ(r.h.role_a, UAL_ROLE_ACCEL);
  CHECK_EQ(r.h.role_b, UAL_ROLE_SWITCH);
  CHECK_EQ(r.h.flags & UAL_RF_DIR_B, 0);
  emit_event(g, b, UAL_EV_CAP_START, 6 * PS_PER_NS);
  CHECK_EQ(rec_at(1).h.flags & UAL_RF_DIR_B, UAL_RF_DIR_B);

  /* rate and width: flit time and the header of the next record */
  side_set_rate(a, 3);
  CHECK_EQ(a->ft_ps, ual_flit_time_ps(3, 8));
  CHECK_EQ(a->ft_ps, 4000);                    /* 64 GT/s */
  a->t_next = 9 * PS_PER_NS;
  side_set_width(g, a, 4);
  CHECK_EQ(a->ft_ps, 8000);
  CHECK_EQ(cap.n, 3);
  r = rec_at(2);
  CHECK_EQ(r.h.rate, 3);
  CHECK_EQ(r.h.width, 4);
  struct ual_event ev;
  CHECK_EQ(ual_event_parse(r.body, r.body_len, &ev), 0);
  CHECK_EQ(ev.code, UAL_EV_WIDTH);
  CHECK_EQ(ev.value, 4);
  CHECK_EQ(cap.ts[2], 1009);

  /* a deadline label goes on the first record after its time, of its direction */
  g->hooks.labelled = count_labelled;
  gen_label_at(g, 20 * PS_PER_NS, 1, UAL_R_DM_RESPONSE_LATE, true);
  emit_event(g, a, UAL_EV_CAP_START, 30 * PS_PER_NS);   /* direction A: not this one */
  emit_event(g, b, UAL_EV_CAP_START, 20 * PS_PER_NS);   /* not later than the deadline */
  CHECK_EQ(cap.nt, 0);
  emit_event(g, b, UAL_EV_CAP_START, 20 * PS_PER_NS + 1);
  CHECK_EQ(cap.nt, 1);
  CHECK_EQ(cap.t[0].frame, 6);
  CHECK_EQ(cap.t[0].dir, 1);
  CHECK_EQ(cap.t[0].rule, UAL_R_DM_RESPONSE_LATE);
  CHECK_STR(cap.t[0].src, "inject");
  CHECK_EQ(labelled_calls, 1);
  CHECK_EQ(labelled_rule, UAL_R_DM_RESPONSE_LATE);
  gen_truth(g, 7, 0, UAL_R_RP_NAK, TRUTH_SRC_CONSEQ, "x");   /* not an injection's own label */
  CHECK_EQ(labelled_calls, 1);
  CHECK_STR(cap.t[1].src, "consequence");
  gen_label_at(g, 0, 0, UAL_R_DM_RESPONSE_LATE, false);
  gen_label_flush(g);
  emit_event(g, a, UAL_EV_CAP_START, 40 * PS_PER_NS);
  CHECK_EQ(cap.nt, 2);

  /* DL message codes of widths and rates */
  static const uint8_t codes[][3] = { { 8, 3, 7 }, { 4, 2, 3 }, { 2, 1, 2 }, { 1, 0, 1 } };   /* lanes, code, rate */
  for (unsigned i = 0; i < 4; i++) {
    CHECK_EQ(side_width_code(codes[i][0]), codes[i][1]);
    CHECK_EQ(side_speed_code(codes[i][2]), codes[i][1]);
  }

  /* the first failure is kept and nothing more goes out */
  gen_fail(g, "first %d", 1);
  gen_fail(g, "second");
  CHECK(g->stop_error);
  CHECK_STR(g->err, "first 1");
  size_t n = cap.n;
  emit_event(g, a, UAL_EV_CAP_STOP, 50 * PS_PER_NS);
  CHECK_EQ(cap.n, n);
  bare_free(g);
}

/* ---- phy ---- */

static void run_script(struct gen *g, struct side *s) {
  for (unsigned k = 0; k < 1000 && s->mode == PL_SCRIPT; k++) {
    g->now = s->t_next;
    phy_emit_script(g, s);
  }
}

static void test_phy(void) {
  struct gen *g = bare(1, 2);                  /* 2.5 GT/s x2 */
  struct side *a = &g->s[0];
  phy_train(g, a, true, true);
  phy_script_start(g, a, 0);
  run_script(g, a);
  CHECK_EQ(a->mode, PL_IDLE);
  CHECK_EQ(a->after_idle, PL_HANDSHAKE);
  /* Detect event, TS1 x4, TS2 x4, TS1 x4, per lane: Modified TS1 x2, Modified TS2 x2 */
  CHECK_EQ(cap.n, 1 + 4 + 4 + 4 + 2 * 2 + 2 * 2);
  struct ual_record r = rec_at(0);
  struct ual_event ev;
  CHECK_EQ(ual_event_parse(r.body, r.body_len, &ev), 0);
  CHECK_EQ(ev.code, UAL_EV_RX_DETECT);
  CHECK_EQ(cap.ts[1] - cap.ts[0], 200);        /* Detect */
  struct ual_os os;
  r = rec_at(1);
  CHECK_EQ(r.h.kind, UAL_REC_OS);
  ual_os_decode(r.body, r.body_len, &os);
  CHECK_EQ(os.type, UAL_OS_TS1);
  CHECK_EQ(os.flit_mode, 0);                   /* the injected first TS1 */
  uint64_t frame = 0;
  CHECK_STR(truth_src(UAL_R_LT_NO_FLIT_MODE, &frame, NULL), "inject");
  CHECK_EQ(frame, 2);
  r = rec_at(2);
  ual_os_decode(r.body, r.body_len, &os);
  CHECK_EQ(os.flit_mode, 1);
  CHECK_EQ(os.modified, 0);
  CHECK(cap.ts[2] > cap.ts[1]);
  r = rec_at(5);
  ual_os_decode(r.body, r.body_len, &os);
  CHECK_EQ(os.type, UAL_OS_TS2);
  r = rec_at(13);                              /* lanes 0 and 1 of a Modified TS1 at once */
  ual_os_decode(r.body, r.body_len, &os);
  CHECK_EQ(os.modified, 1);
  CHECK_EQ(os.lane, 0);
  r = rec_at(14);
  ual_os_decode(r.body, r.body_len, &os);
  CHECK_EQ(os.lane, 1);
  CHECK_EQ(cap.ts[13], cap.ts[14]);

  /* an IDLE flit is valid, one flit time long, and on the wire */
  struct gen *h = bare(7, 8);
  struct side *s = &h->s[0];
  s->t_next = 0;
  phy_emit_idle_flit(h, s);
  CHECK_EQ(cap.n, 1);
  CHECK_EQ(s->t_next, 2000);
  CHECK_EQ(h->w[0].count, 1);
  CHECK_EQ(h->w[0].it[0].kind, W_IDLE);
  CHECK_EQ(h->w[0].it[0].t_end, 2000);
  r = rec_at(0);
  struct ual_flit_info fi;
  ual_flit_decode(r.body, &fi, NULL);
  CHECK(fi.valid);
  uint8_t clean[UAL_FLIT_BYTES];
  memcpy(clean, r.body, sizeof clean);
  /* a bit error at bit 10 of the next flit: corrected by the FEC, labelled as the channel's */
  h->ber = 1e-9;
  h->ber_next[0] = 10.0;
  phy_emit_idle_flit(h, s);
  r = rec_at(1);
  CHECK_EQ(r.body[1] ^ clean[1], 1u << 2);
  CHECK_STR(truth_src(UAL_R_PL_FEC_CORRECTED, &frame, NULL), "channel");
  CHECK_EQ(frame, 2);
  CHECK_EQ(h->st.corrupted[0], 1);
  CHECK_EQ(h->w[0].it[1].corrupt, 1);

  /* the link goes down: EIOS, electrical idle, silence */
  size_t n0 = cap.n;
  phy_link_down(h, s);
  CHECK(s->link_down);
  CHECK(!s->dl_active);
  CHECK_EQ(s->mode, PL_SCRIPT);
  run_script(h, s);
  CHECK_EQ(cap.n, n0 + 2);
  r = rec_at(n0);
  ual_os_decode(r.body, r.body_len, &os);
  CHECK_EQ(os.type, UAL_OS_EIOS);
  r = rec_at(n0 + 1);
  ual_event_parse(r.body, r.body_len, &ev);
  CHECK_EQ(ev.code, UAL_EV_EIDLE_ENTER);
  CHECK_EQ(s->mode, PL_SILENT);
  CHECK_EQ(s->t_next, PS_NEVER);
  bare_free(h);
  bare_free(g);
}

/* ---- tl ---- */

static void test_tl(void) {
  struct gen *g = bare(7, 8);
  struct side *a = &g->s[0], *b = &g->s[1];
  CHECK(tl_pace(a) == 59.0 / 16.0);            /* 4 TL flits per flit time, capped */
  a->own_rate = UAL_RATE_REF;                  /* 100 MHz on a 512-bit datapath for 2 ns */
  CHECK(fabs(tl_pace(a) - 0.2) < 1e-12);
  a->own_rate = UAL_RATE_FULL;
  a->peer_rate = UAL_RATE_REF;                 /* the slower side paces */
  CHECK(fabs(tl_pace(a) - 0.2) < 1e-12);
  a->width = 2;                                /* 128-bit datapath, 8 ns flits */
  side_speed_changed(a);
  CHECK(fabs(tl_pace(a) - 0.2) < 1e-12);

  tl_make(g, a);
  tl_make(g, a);
  CHECK_EQ(cap.ntl, 2);
  CHECK_EQ(cap.tl[0][0] | cap.tl[0][1] | cap.tl[0][2] | cap.tl[0][3], 0);   /* TL flit 0 */
  CHECK_EQ(cap.tl[0][4], 'A');
  CHECK_EQ(cap.tl[1][0], 1);
  CHECK(memcmp(cap.tl[0] + 8, cap.tl[1] + 8, UAL_TL_FLIT_BYTES - 8) != 0);
  CHECK_EQ(ual_pack_tl_queued(&a->pack), 2);
  CHECK_EQ(g->st.tl[0], 2);

  /* B's TL: nothing while channel 0 is offline; bursts at full load once online */
  b->tl_enable = true;
  for (unsigned i = 0; i < 10; i++) tl_feed(g, b);
  CHECK_EQ(ual_pack_tl_queued(&b->pack), 0);
  b->ch_online[UAL_CHAN_TL] = true;
  for (unsigned i = 0; i < 10; i++) tl_feed(g, b);
  CHECK(ual_pack_tl_queued(&b->pack) >= 6);
  CHECK_EQ(cap.tl[2][4], 'B');
  /* an injected TL flit goes out whatever the channel, with its label */
  struct side *c = a;
  while (ual_pack_tl_queued(&c->pack)) {
    uint8_t flit[UAL_FLIT_BYTES];
    struct ual_fh fh = { .usage = UAL_USAGE_PAYLOAD, .replay_cmd = UAL_RC_SEQ, .seq = 1 };
    ual_pack_flit(&c->pack, &fh, true, flit);
  }
  c->tl_inject_offline = 1;
  c->tl_inject_label = UAL_R_DL_CH0_OFFLINE;
  tl_feed(g, c);
  CHECK_EQ(ual_pack_tl_queued(&c->pack), 1);
  CHECK_STR(truth_src(UAL_R_DL_CH0_OFFLINE, NULL, NULL), "inject");
  CHECK_EQ(c->tl_inject_label, -1);
  bare_free(g);
}

/* ---- dl ---- */

static uint32_t one_dw(struct ual_dlmsg m) { return ual_dlmsg_encode(&m); }

static void test_dl(void) {
  struct ual_dlmsg m;
  ual_dlmsg_decode(dl_ctrl_dw(UAL_MT_LINK_WIDTH, 1, 2, UAL_CMD_REQUEST, 0), &m);
  CHECK_EQ(m.type, UAL_MT_LINK_WIDTH);
  CHECK_EQ(m.priority, 1);
  CHECK_EQ(m.target, 2);
  CHECK_EQ(m.command, UAL_CMD_REQUEST);

  /* arbitration: answers first, then round robin basic, control */
  struct gen *g = bare(7, 8);
  l0(g);
  struct side *a = &g->s[0], *b = &g->s[1];
  uint32_t d_basic = one_dw((struct ual_dlmsg){ .type = UAL_MT_DEVICE_ID, .id = 0x41, .valid = 1 });
  uint32_t d_ctrl = dl_ctrl_dw(UAL_MT_LINK_WIDTH, 0, 2, UAL_CMD_REQUEST, 0);
  uint32_t d_rsp = one_dw((struct ual_dlmsg){ .type = UAL_MT_PORT_NUMBER, .ack = 1, .port = 3, .valid = 1 });
  struct msg_item it;
  dl_msg_init(&it, MC_BASIC, &d_basic, 1);
  CHECK(dl_queue_msg(a, &it));
  dl_msg_init(&it, MC_CONTROL, &d_ctrl, 1);
  CHECK(dl_queue_msg(a, &it));
  dl_msg_init(&it, MC_BASIC, &d_rsp, 1);
  it.prio = 1;
  CHECK(dl_queue_msg(a, &it));
  a->tl_enable = false;
  uint8_t flit[UAL_FLIT_BYTES];
  struct flit_meta meta;
  struct ual_fh fh = { .usage = UAL_USAGE_PAYLOAD, .replay_cmd = UAL_RC_SEQ, .seq = 100 };
  dl_build_payload(g, a, &fh, flit, &meta);
  CHECK_EQ(cap.nmsg, 3);
  CHECK_EQ(cap.msg[0], d_rsp);
  CHECK_EQ(cap.msg[1], d_basic);
  CHECK_EQ(cap.msg[2], d_ctrl);
  CHECK_EQ(meta.n, 3);
  CHECK_EQ(meta.m[2].dw, d_ctrl);
  struct ual_flit_info fi;
  ual_flit_decode(flit, &fi, NULL);
  CHECK(fi.valid);
  struct ual_unpack u;
  struct ual_unpack_out uo;
  struct ual_findings f;
  ual_unpack_init(&u);
  ual_findings_clear(&f);
  ual_unpack_flit(&u, fi.bytes, 1, &uo, &f);
  CHECK_EQ(f.n, 0);
  CHECK_EQ(uo.n_msg, 3);
  CHECK_EQ(uo.msg[0].msg.dw, d_rsp);
  CHECK_EQ(uo.msg[2].msg.dw, d_ctrl);

  /* B answers the narrower width by the response rules: Ack, echoing x4 */
  dl_deliver(g, b, &meta);
  CHECK_EQ(b->ctrl.rsp, RS_ACKED);
  CHECK_EQ(b->q[MC_CONTROL].count, 1);
  ual_dlmsg_decode(b->q[MC_CONTROL].it[0].dw[0], &m);
  CHECK_EQ(m.command, UAL_CMD_ACK);
  CHECK_EQ(m.target, 2);
  CHECK_EQ(b->q[MC_CONTROL].it[0].prio, 1);
  CHECK_EQ(b->q[MC_BASIC].count, 1);          /* and the Device ID request */
  ual_dlmsg_decode(b->q[MC_BASIC].it[0].dw[0], &m);
  CHECK_EQ(m.type, UAL_MT_DEVICE_ID);
  CHECK_EQ(m.ack, 1);
  /* a wider width with Priority is Nacked, with the current width */
  struct gen *h = bare(7, 8);
  l0(h);
  h->s[1].width_code = 2;
  struct flit_meta req = { .n = 1 };
  req.m[0].dw = dl_ctrl_dw(UAL_MT_LINK_WIDTH, 1, 3, UAL_CMD_REQUEST, 0);
  dl_deliver(h, &h->s[1], &req);
  ual_dlmsg_decode(h->s[1].q[MC_CONTROL].it[0].dw[0], &m);
  CHECK_EQ(m.command, UAL_CMD_NACK);
  CHECK_EQ(m.target, 2);
  CHECK_EQ(h->s[1].ctrl.rsp, RS_NONE);

  /* a TL rate change passes through the reference rate */
  dl_rate_change(a, 30000, false);
  CHECK_EQ(a->own_rate, UAL_RATE_REF);
  CHECK_EQ(a->rate_fsm, RC_WAIT_REF_ACK);
  struct msg_queue *q = &a->q[MC_BASIC];
  ual_dlmsg_decode(q->it[q->count - 1].dw[0], &m);
  CHECK_EQ(m.type, UAL_MT_TL_RATE);
  CHECK_EQ(m.rate, UAL_RATE_REF);
  CHECK(dl_busy_requests(a));

  /* channel 4 online: the first Credit Update gives the whole receive buffer */
  struct side *s = &h->s[0];
  CHECK(s->uart.enabled);
  CHECK(s->uart.credit_first_due);
  dl_tick(h, s);
  CHECK(s->uart.credit_queued);
  q = &s->q[MC_UART];
  CHECK_EQ(q->count, 1);
  ual_dlmsg_decode(q->it[0].dw[0], &m);
  CHECK_EQ(m.type, UAL_MT_UART_CREDIT);
  CHECK_EQ(m.data_fc_seq, 128);
  CHECK(!dl_idle(s));
  bare_free(h);
  bare_free(g);
}

/* ---- replay ---- */

static unsigned fresh_seen;
static void corrupt_20th(struct gen *g, struct side *s, uint8_t *flit, struct wire_item *wi) {
  (void)g;
  if (s->id != 0 || wi->kind != W_PAYLOAD || !wi->fresh || ++fresh_seen != 20) return;
  uint64_t v = ual_field_get(UAL_F_FLIT_CRC, flit);
  ual_field_put(UAL_F_FLIT_CRC, flit, v ^ 1);
  ual_fec_encode(flit);
  wi->corrupt = 1;
  s->corrupt_src = TRUTH_SRC_INJECT;
}

static void test_replay(void) {
  struct gen *g = bare(7, 8);
  l0(g);
  g->load = 0.5;
  fresh_seen = 0;
  g->hooks.pl_flit = corrupt_20th;
  run_sides(g, 4000);
  CHECK(!g->stop_error);
  /* A's header cycle: explicit 100, 101, 102, then an Ack of what it received (nothing yet) */
  unsigned k = 0;
  uint16_t want_seq[] = { 100, 101, 102 };
  for (size_t i = 0; i < cap.n && k < 4; i++) {
    struct ual_record r = rec_at(i);
    if (r.h.kind != UAL_REC_FLIT || (r.h.flags & UAL_RF_DIR_B)) continue;
    struct ual_flit_info fi;
    ual_flit_decode(r.body, &fi, NULL);
    if (k < 3) {
      CHECK_EQ(fi.fh.replay_cmd, UAL_RC_SEQ);
      CHECK_EQ(fi.fh.seq, want_seq[k]);
    } else {
      CHECK_EQ(fi.fh.replay_cmd, UAL_RC_ACK);
    }
    k++;
  }
  CHECK_EQ(k, 4);
  /* the bad flit: B Naks, A replays, B gets everything in order */
  uint64_t f_crc = 0, f_nak = 0, f_rp = 0;
  unsigned d_nak = 9, d_rp = 9;
  CHECK_STR(truth_src(UAL_R_PL_CRC, &f_crc, NULL), "inject");
  CHECK_STR(truth_src(UAL_R_RP_NAK, &f_nak, &d_nak), "consequence");
  CHECK_STR(truth_src(UAL_R_RP_REPLAY, &f_rp, &d_rp), "consequence");
  CHECK_EQ(d_nak, 1);
  CHECK_EQ(d_rp, 0);
  CHECK(f_crc < f_nak && f_nak < f_rp);
  CHECK(g->st.naks[1] >= 1);
  CHECK(g->st.replayed[0] >= 1);
  CHECK_EQ(g->s[1].rx_state, RX_NORMAL);
  CHECK(ual_seq_dist(100, g->s[0].acked) > 500);   /* A's flits acknowledged well past the loss */
  CHECK(rp_outstanding(&g->s[0]) < 64);
  CHECK(rp_calm_rx(&g->s[1]));
  bare_free(g);
}

/* ---- steps ---- */

static void test_steps(void) {
  struct gen *g = bare(7, 8);
  static const struct l1_twists plain;
  step_l1(g, 5000, &plain);
  static const uint8_t want[] = { OP_TL, OP_UART_STOP, OP_NEGOTIATE, OP_NEGOTIATE, OP_L1_ENTER, OP_L1_EXIT,
                                  OP_RUN, OP_NEGOTIATE, OP_NEGOTIATE, OP_TL, OP_UART_ONLINE_WAIT };
  CHECK_EQ(g->sq->n, sizeof want);
  for (unsigned i = 0; i < sizeof want && i < g->sq->n; i++) CHECK_EQ(g->sq->ops[i].code, want[i]);
  const struct op *o = g->sq->ops;
  CHECK_EQ(o[0].side, 2);
  CHECK_EQ(o[0].a, 0);
  CHECK_EQ(o[2].a, UAL_MT_CHANNEL);
  CHECK_EQ(o[2].b, UAL_CHAN_TL);
  CHECK_EQ(o[3].b, UAL_CHAN_UART);
  CHECK_EQ(o[4].n, 0);
  CHECK_EQ(o[5].n, 5000);
  CHECK_EQ(o[6].n, 16);
  CHECK_EQ(o[7].b, UAL_CHAN_ONLINE | UAL_CHAN_TL);
  CHECK_EQ(o[9].a, 1);
  CHECK_EQ(o[1].keep, 0);
  CHECK_EQ(step_find(g, 0, OP_L1_EXIT), 5);
  CHECK_EQ(step_find(g, 6, OP_L1_EXIT), g->sq->n);

  /* the twists: L1 asked for with the channels online, a TL flit right after the exit */
  unsigned from = g->sq->n;
  step_keep(g, true);
  struct l1_twists tw = { .order = true, .exit_content = true };
  step_l1(g, 7000, &tw);
  step_keep(g, false);
  static const uint8_t want2[] = { OP_TL, OP_UART_STOP, OP_L1_ENTER, OP_L1_EXIT, OP_RUN, OP_SET, OP_RUN,
                                   OP_SET, OP_NEGOTIATE, OP_SET, OP_NEGOTIATE, OP_TL, OP_UART_ONLINE_WAIT };
  CHECK_EQ(g->sq->n - from, sizeof want2);
  for (unsigned i = 0; i < sizeof want2 && from + i < g->sq->n; i++) {
    CHECK_EQ(g->sq->ops[from + i].code, want2[i]);
    CHECK_EQ(g->sq->ops[from + i].keep, 1);
  }
  o = g->sq->ops + from;
  CHECK_EQ(o[2].n, 1);
  CHECK_EQ(o[5].a, SET_TL_INJECT);
  CHECK(o[5].x == UAL_R_LT_EXIT_L1_CONTENT);
  CHECK_EQ(o[7].a, SET_CTRL_CONSEQ);
  step_run(g, 3);
  CHECK_EQ(g->sq->ops[g->sq->n - 1].keep, 0);
  step_nego(g, 1, UAL_MT_LINK_SPEED, 2, 1)->n = NF_DUPLICATE;
  o = &g->sq->ops[g->sq->n - 1];
  CHECK_EQ(o->side, 1);
  CHECK_EQ(o->c, 1);
  CHECK_EQ(o->n, NF_DUPLICATE);
  step_conflict(g, UAL_MT_LINK_WIDTH, 2, 1, CONFLICT_B_SECOND);
  o = &g->sq->ops[g->sq->n - 1];
  CHECK_EQ(o->code, OP_CONFLICT);
  CHECK_EQ(o->b, 2);
  CHECK_EQ(o->c, 1);
  CHECK_EQ(o->n, CONFLICT_B_SECOND);

  /* a full list fails the run */
  while (g->sq->n < OPS_MAX) step_run(g, 1);
  CHECK(!g->stop_error);
  step_run(g, 1);
  CHECK(g->stop_error);
  CHECK_STR(g->err, "scenario too long");
  CHECK_EQ(g->sq->n, OPS_MAX);
  bare_free(g);
}

/* ---- inject ---- */

static void add_inject(struct gen *g, int rule, uint64_t at) {
  g->o.inject[g->o.n_inject++] = (struct gen_inject_req){ rule, at };
}

static void test_inject(void) {
  CHECK(gen_inject_supported(UAL_R_PL_CRC));
  CHECK(!gen_inject_supported(UAL_R_RP_NAK));   /* a consequence, not something to break */
  CHECK_EQ(gen_inject_scenario(UAL_R_LT_L1_DLLP_ROLE), GEN_SC_L1);
  CHECK_EQ(gen_inject_scenario(UAL_R_DM_UART_CREDIT), GEN_SC_UART);
  CHECK_STR(gen_inject_how(UAL_R_LT_UNSUPPORTED_PM), "a NOP flit with PM_Enter_L23");
  CHECK(gen_inject_how(UAL_R_RP_NAK) == NULL);

  /* where injections go, which side breaks the rule, the hooks */
  struct gen *g = bare(7, 8);
  g->scenario = GEN_SC_TRAFFIC;
  add_inject(g, UAL_R_PL_CRC, GEN_AT_DEFAULT);
  add_inject(g, UAL_R_DM_UNSOLICITED, GEN_AT_DEFAULT);
  add_inject(g, UAL_R_PL_CRC, 5);               /* asked twice: once */
  inj_init(g);
  CHECK(!g->stop_error);
  CHECK_EQ(g->ij->n, 2);
  CHECK_EQ(inj_find(g, UAL_R_PL_CRC)->at, 400);
  CHECK_EQ(inj_find(g, UAL_R_PL_CRC)->side, 0);
  CHECK_EQ(inj_find(g, UAL_R_DM_UNSOLICITED)->at, 3000);
  CHECK_EQ(inj_find(g, UAL_R_DM_UNSOLICITED)->side, 1);
  CHECK(inj_find(g, UAL_R_DL_TLBEAT) == NULL);
  CHECK(g->hooks.slot && g->hooks.pack && g->hooks.dl_flit && g->hooks.pl_flit && g->hooks.l1_stopped &&
        g->hooks.labelled);
  /* an injection is done when its own label goes out */
  CHECK(inj_any_pending(g));
  gen_truth(g, 1, 0, UAL_R_PL_CRC, TRUTH_SRC_CONSEQ, "x");
  CHECK_EQ(inj_find(g, UAL_R_PL_CRC)->state, INJ_PENDING);
  gen_truth(g, 1, 0, UAL_R_PL_CRC, TRUTH_SRC_INJECT, "x");
  CHECK_EQ(inj_find(g, UAL_R_PL_CRC)->state, INJ_DONE);
  CHECK(inj_any_pending(g));
  CHECK_EQ(inj_check_all_done(g), -1);
  CHECK(strstr(g->err, "DM-UNSOLICITED: no opportunity") != NULL);
  bare_free(g);

  g = bare(7, 8);
  g->scenario = GEN_SC_TRAFFIC;
  g->user_count = 600;                          /* a short run: early enough to fit */
  add_inject(g, UAL_R_DM_UNSOLICITED, GEN_AT_DEFAULT);
  inj_init(g);
  CHECK_EQ(inj_find(g, UAL_R_DM_UNSOLICITED)->at, 200);
  gen_truth(g, 1, 1, UAL_R_DM_UNSOLICITED, TRUTH_SRC_INJECT, "x");
  CHECK(!inj_any_pending(g));
  CHECK_EQ(inj_check_all_done(g), 0);
  bare_free(g);

  g = bare(7, 8);                               /* B is a switch */
  add_inject(g, UAL_R_DM_CTRL_RESOLUTION, GEN_AT_DEFAULT);
  inj_init(g);
  CHECK(g->stop_error);
  CHECK(strstr(g->err, "needs two accelerators") != NULL);
  bare_free(g);

  /* the steps of an injection run to their end */
  g = bare(7, 8);
  g->scenario = GEN_SC_UART;
  add_inject(g, UAL_R_DM_UART_RESET_NOOPS, 50);
  inj_init(g);
  inj_plan(g);
  static const uint8_t want[] = { OP_INJECT_POINT, OP_SET, OP_UART_RESET, OP_SET };
  CHECK_EQ(g->sq->n, sizeof want);
  for (unsigned i = 0; i < sizeof want && i < g->sq->n; i++) {
    CHECK_EQ(g->sq->ops[i].code, want[i]);
    CHECK_EQ(g->sq->ops[i].keep, 1);
  }
  CHECK_EQ(g->sq->ops[0].n, 50);
  CHECK_EQ(g->sq->ops[1].a, SET_NOOPS);
  CHECK(g->sq->ops[1].x == 0);
  CHECK(g->sq->ops[3].x == 40);
  step_run(g, 1);
  CHECK_EQ(g->sq->ops[g->sq->n - 1].keep, 0);
  bare_free(g);

  /* a DL mutation: a non-zero byte in an unallocated sector, and nothing else changed */
  g = bare(7, 8);
  l0(g);
  g->scenario = GEN_SC_TRAFFIC;
  add_inject(g, UAL_R_DL_ZERO_FILL, 0);
  inj_init(g);
  struct side *a = &g->s[0];
  tl_make(g, a);
  uint8_t flit[UAL_FLIT_BYTES];
  struct flit_meta meta;
  struct ual_fh fh = { .usage = UAL_USAGE_PAYLOAD, .replay_cmd = UAL_RC_SEQ, .seq = 100 };
  a->tl_enable = false;
  dl_build_payload(g, a, &fh, flit, &meta);
  uint64_t frame = 0;
  CHECK_STR(truth_src(UAL_R_DL_ZERO_FILL, &frame, NULL), "inject");
  CHECK_EQ(frame, 1);
  CHECK_EQ(inj_find(g, UAL_R_DL_ZERO_FILL)->state, INJ_DONE);
  struct ual_flit_info fi;
  struct ual_findings f;
  ual_findings_clear(&f);
  ual_flit_decode(flit, &fi, &f);
  CHECK(fi.valid);
  struct ual_unpack u;
  struct ual_unpack_out uo;
  ual_unpack_init(&u);
  ual_unpack_flit(&u, fi.bytes, 1, &uo, &f);
  CHECK_EQ(f.n, 1);
  CHECK_EQ(f.v[0].rule, UAL_R_DL_ZERO_FILL);
  CHECK_EQ(uo.n_tl, 1);
  CHECK_MEM(uo.tl[0].data, cap.tl[0], UAL_TL_FLIT_BYTES);
  bare_free(g);
}

/* ---- sequencer ---- */

static void test_sequencer(void) {
  struct gen *g = bare(7, 8);
  l0(g);
  g->o.run_scale = 0.5;
  step_run(g, 100);
  step_set(g, SET_LOCKOUT, 2, 1);
  step_set(g, SET_FORCE, 1, UAL_CMD_NACK);
  step_nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_UART, 0);
  step_add(g, OP_END);
  g->now = 1000;
  seq_tick(g);
  CHECK_EQ(g->sq->pc, 0);
  CHECK_EQ(seq_wake(g), 1000 + 50 * 2000);      /* 100 flits scaled by 0.5, of 2 ns */
  g->now = seq_wake(g);
  seq_tick(g);
  CHECK(g->s[0].lockout_speed && g->s[0].lockout_width && g->s[1].lockout_speed);
  CHECK_EQ(g->s[1].ctrl.force, UAL_CMD_NACK);
  CHECK_EQ(g->s[0].ctrl.force, 0);
  CHECK_EQ(g->sq->pc, 3);                        /* the negotiation is out and waits */
  CHECK_EQ(g->s[0].ctrl.req, CR_SENT);
  CHECK_EQ(g->s[0].q[MC_CONTROL].count, 1);
  CHECK_EQ(seq_wake(g), PS_NEVER);
  CHECK(!g->finished);
  /* the link answers (B Nacks as forced); then the end: the capture stop event */
  run_sides(g, 200);
  g->now = g->s[0].t_next;
  seq_tick(g);
  CHECK_EQ(g->s[0].ctrl.failed, 1);
  CHECK(g->finished);
  struct ual_record r = rec_at(cap.n - 1);
  struct ual_event ev;
  ual_event_parse(r.body, r.body_len, &ev);
  CHECK_EQ(ev.code, UAL_EV_CAP_STOP);
  bare_free(g);

  /* a kept run is not scaled */
  g = bare(7, 8);
  l0(g);
  g->o.run_scale = 0.5;
  step_keep(g, true);
  step_run(g, 100);
  seq_tick(g);
  CHECK_EQ(seq_wake(g), 100 * 2000);
  bare_free(g);
}

/* ---- scenario ---- */

static struct gen *built(int sc, int inject_rule) {
  struct gen *g = bare(7, 8);
  g->scenario = sc;
  g->o.load = g->o.ber = -1;
  if (inject_rule >= 0) add_inject(g, inject_rule, GEN_AT_DEFAULT);
  inj_init(g);
  scen_build(g);
  CHECK(!g->stop_error);
  return g;
}

static unsigned count_op(const struct gen *g, unsigned code) {
  unsigned n = 0;
  for (unsigned i = 0; i < g->sq->n; i++) n += g->sq->ops[i].code == code;
  return n;
}

static void test_scenario(void) {
  struct gen *g = built(GEN_SC_BRINGUP, -1);
  const struct op *o = g->sq->ops;
  CHECK_EQ(o[0].code, OP_EVENT);
  CHECK_EQ(o[0].a, UAL_EV_CAP_START);
  CHECK_EQ(o[1].code, OP_TRAIN);
  CHECK_EQ(o[g->sq->n - 2].code, OP_DRAIN);
  CHECK_EQ(o[g->sq->n - 1].code, OP_END);
  CHECK_EQ(g->s[0].rate, 1);                     /* training starts at 2.5 GT/s */
  CHECK_EQ(g->s[0].ft_ps, ual_flit_time_ps(1, 8));
  CHECK_EQ(g->s[1].speed_code, 0);
  CHECK(!g->s[0].dl_active);
  CHECK_EQ(count_op(g, OP_SPEED), 2);            /* to 32.0 GT/s with equalization, then 128 */
  unsigned sp = step_find(g, 0, OP_SPEED);
  CHECK_EQ(o[sp].a, 2);
  CHECK_EQ(o[sp].b, 1);
  CHECK_EQ(o[step_find(g, sp + 1, OP_SPEED)].a, 7);
  CHECK_EQ(count_op(g, OP_RUN_LIMIT), 0);
  bare_free(g);

  g = built(GEN_SC_TRAFFIC, -1);
  CHECK_EQ(g->s[0].mode, PL_NORMAL);
  CHECK_EQ(g->s[1].mode, PL_NORMAL);
  CHECK_EQ(g->s[0].next_exp, g->s[1].next_tx);
  CHECK_EQ(g->s[1].next_exp, g->s[0].next_tx);
  CHECK(g->s[0].ch_online[UAL_CHAN_TL] && g->s[1].ch_online[UAL_CHAN_UART]);
  CHECK_EQ(g->s[1].t_next, 1000);                /* half a flit after A */
  CHECK(g->load == 0.6);
  CHECK_EQ(count_op(g, OP_RUN_LIMIT), 1);
  CHECK_EQ(count_op(g, OP_RATE), 8);             /* A is an accelerator: a rate change a round */
  bare_free(g);

  g = built(GEN_SC_ERRORS, -1);
  CHECK(g->ber == 2e-6);
  CHECK(g->load == 0.7);
  static const uint8_t side[] = { 0, 0, 1, 1, 0, 1 }, hard[] = { 0, 1, 1, 0, 1, 1 };
  CHECK_EQ(count_op(g, OP_ERRBURST), 6);
  unsigned k = 0;
  for (unsigned i = 0; i < g->sq->n; i++)
    if (g->sq->ops[i].code == OP_ERRBURST && k < 6) {
      CHECK_EQ(g->sq->ops[i].side, side[k]);
      CHECK_EQ(g->sq->ops[i].a, hard[k]);
      k++;
    }
  bare_free(g);

  /* the injection's steps come after the scenario's own stream resets, and are kept */
  g = built(GEN_SC_UART, UAL_R_DM_UART_RESET_NOOPS);
  unsigned ip = step_find(g, 0, OP_INJECT_POINT);
  CHECK(ip < g->sq->n);
  unsigned r0 = step_find(g, 0, OP_UART_RESET), r1 = step_find(g, r0 + 1, OP_UART_RESET);
  CHECK_EQ(g->sq->ops[r1].side, 1);
  CHECK(r1 < ip);
  CHECK_EQ(g->sq->ops[ip + 2].code, OP_UART_RESET);
  CHECK_EQ(g->sq->ops[ip + 2].keep, 1);
  CHECK_EQ(g->sq->ops[r1].keep, 0);
  CHECK(g->uart_load == 0.6);
  bare_free(g);

  /* L1 with LT-L1-ORDER: no offline negotiations before L1 entry */
  g = built(GEN_SC_L1, UAL_R_LT_L1_ORDER);
  unsigned e = step_find(g, 0, OP_L1_ENTER);
  CHECK(e < g->sq->n);
  CHECK_EQ(g->sq->ops[e].n, 1);
  CHECK_EQ(g->sq->ops[e - 1].code, OP_UART_STOP);
  bare_free(g);
}

int main(int argc, char **argv) {
  const char *only = argc > 1 ? argv[1] : NULL;
  static const struct { const char *name; void (*fn)(void); } parts[] = {
    { "rng", test_rng }, { "model", test_model }, { "phy", test_phy }, { "tl", test_tl },
    { "dl", test_dl }, { "replay", test_replay }, { "steps", test_steps }, { "inject", test_inject },
    { "sequencer", test_sequencer }, { "scenario", test_scenario },
  };
  bool ran = false;
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
    if (!only || !strcmp(only, parts[i].name)) { parts[i].fn(); ran = true; }
  if (!ran) { fprintf(stderr, "test_layers: no part %s\n", only); return 2; }
  return check_done(only ? only : "test_layers");
}
