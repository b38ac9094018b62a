/* The UB link analysis (analysis.h) on links built with libdecode's UB
 * encoders, record by record: timeline events and findings at the record
 * that raises them, each broken link beside its clean twin. */
#include "check.h"
#include "ualink/ub/analysis.h"
#include "ualink/ub/record.h"
#include "ualink/core/analysis.h"
#include "ualink/core/decode.h"
#include "ualink/core/record.h"

#include <string.h>

#define MAXREC 4096

struct link {
  struct ual_ub_an an;
  uint64_t frame;
  struct ual_findings f[MAXREC];   /* by frame */
  struct ual_tevent ev[256];
  unsigned nev;
};

static struct ual_rec_result res;
static struct ual_events evs;

/* One record (a flit of side dir, or a link event) through the analysis. */
static void step(struct link *l, unsigned dir, unsigned kind, const uint8_t *body, size_t len) {
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, kind, dir);
  if (kind == UAL_REC_UB_FLIT) h.rsvd = UAL_UB_MODE_CRC;
  uint8_t rec[8 + 20];
  size_t n = ual_record_build(&h, body, len, rec, sizeof rec);
  CHECK(n > 0);
  l->frame++;
  ual_decode_stateless(rec, n, l->frame, &res);
  ual_events_clear(&evs);
  struct ual_fabric_step c = { l->frame, 1000 + 5 * l->frame, &evs };
  ual_ub_an_step(&l->an, &res, &c);
  if (l->frame < MAXREC) l->f[l->frame] = res.findings;
  for (unsigned i = 0; i < evs.n && l->nev < 256; i++) l->ev[l->nev++] = evs.v[i];
}

static void flits(struct link *l, unsigned dir, const uint8_t *f, unsigned n) {
  for (unsigned i = 0; i < n; i++) step(l, dir, UAL_REC_UB_FLIT, f + 20 * i, 20);
}

static void dllcb(struct link *l, unsigned dir, const struct ual_ub_dllcb *cb) {
  uint8_t f[32 * 20] = {0};
  ual_ub_dllcb_put(f, cb);
  ual_ub_seal(UAL_UB_MODE_CRC, f, cb->flits, true, false);
  flits(l, dir, f, cb->flits);
}

static void simple(struct link *l, unsigned dir, enum ual_ub_cb_type t) {
  struct ual_ub_dllcb cb = { .type = (uint8_t)t, .flits = 1 };
  dllcb(l, dir, &cb);
}

static void link_init(struct link *l) {
  memset(l, 0, sizeof *l);
  ual_ub_an_init(&l->an);
  ual_events_init(&evs);
  simple(l, 0, UAL_UB_CB_NULL_BLOCK);   /* both receivers find the blocks */
  simple(l, 1, UAL_UB_CB_NULL_BLOCK);
}

/* The events of kind k raised at frame, in order. */
static const struct ual_tevent *event_at(const struct link *l, unsigned k, uint64_t frame, unsigned nth) {
  for (unsigned i = 0; i < l->nev; i++)
    if (l->ev[i].kind == k && l->ev[i].frame == frame && nth-- == 0) return &l->ev[i];
  return NULL;
}

static unsigned events_of(const struct link *l, unsigned k) {
  unsigned n = 0;
  for (unsigned i = 0; i < l->nev; i++) n += l->ev[i].kind == k;
  return n;
}

/* A Lane_Manage request A>B and its response B>A: each on the timeline
 * under the side that sent it. */
static void test_lane_manage_events(void) {
  static struct link l;
  link_init(&l);
  struct ual_ub_dllcb rq = { .type = UAL_UB_CB_LANE_MANAGE, .flits = 1,
                             .lane = { .req_id = 5, .change_tlw = 1, .tlw = 2, .rlw = 4 } };
  dllcb(&l, 0, &rq);
  uint64_t f_req = l.frame;
  simple(&l, 1, UAL_UB_CB_NULL_BLOCK);
  struct ual_ub_dllcb rs = { .type = UAL_UB_CB_LANE_MANAGE, .flits = 1,
                             .lane = { .rsp_id = 0xA, .rsp_tlw = 1, .tlw = 2, .rlw = 4 } };
  dllcb(&l, 1, &rs);
  uint64_t f_rsp = l.frame;
  CHECK_EQ(events_of(&l, UAL_TEV_UB_LANES), 2);
  const struct ual_tevent *e = event_at(&l, UAL_TEV_UB_LANES, f_req, 0);
  CHECK(e != NULL);
  if (e) {
    CHECK_EQ(e->partner, 0);
    CHECK_STR(e->text, "A Lane_Manage request: TLW X2 RLW X4");
  }
  e = event_at(&l, UAL_TEV_UB_LANES, f_rsp, 0);
  CHECK(e != NULL);
  if (e) {
    CHECK_EQ(e->partner, 1);
    CHECK_STR(e->text, "B Lane_Manage response: TLW X2 RLW X4");
  }
  for (uint64_t fr = 1; fr <= l.frame; fr++) CHECK_EQ(l.f[fr].n, 0);
}

/* --ub-init and --ub-credits: what they accept, and the text of the state
 * they set, which gives the same state again. */
static void test_presets(void) {
  static struct ual_ub_an a, b;
  char err[256], t1[512], t2[512];
  static const char *const bad_init[] = { "vl=0x2", "fc=0", "share=C", "ctrl-grain16=1", "depth=3", "vl", "fc=1x" };
  for (size_t i = 0; i < sizeof bad_init / sizeof bad_init[0]; i++)
    CHECK(!ual_ub_an_preset_init(NULL, bad_init[i], err, sizeof err));
  static const char *const bad_cred[] = { "A:VL16=1", "A:VL0=5/6", "C:VL0=1", "A:VL0", "A:VL0=70000", "A:VL0=1/" };
  for (size_t i = 0; i < sizeof bad_cred / sizeof bad_cred[0]; i++)
    CHECK(!ual_ub_an_preset_credits(NULL, bad_cred[i], err, sizeof err));
  ual_ub_an_init(&a);
  CHECK_EQ(ual_ub_an_preset_init_text(&a, t1, sizeof t1), 0);
  CHECK(ual_ub_an_preset_init(&a, "vl=0x0003,fc=8,ctrl-grain=2,ctrl-grain3=4,share=A", err, sizeof err));
  CHECK(ual_ub_an_preset_credits(&a, "A:VL0=40/30,B:VL1=8,A:VL1=2/-3", err, sizeof err));
  CHECK(a.p.known && a.p.vl_enable == 3 && a.p.flow_ctrl == 8 && a.p.ctrl_grain[0] == 2 && a.p.ctrl_grain[3] == 4);
  CHECK(a.p.data_grain[5] == UAL_UB_DEF_DATA_GRAIN && a.p.share[0] && !a.p.share[1]);
  CHECK(a.s[0].cred_known && a.s[0].cred_init[0] == 40 && a.s[0].cred[0] == 30 && a.s[0].cred[1] == -3);
  ual_ub_an_preset_init_text(&a, t1, sizeof t1);
  CHECK_STR(t1, "vl=0x0003,fc=8,data-ack=32,ctrl-ack=1,ctrl-grain=2,ctrl-grain3=4,data-grain=4,share=A");
  ual_ub_an_preset_credits_text(&a, t2, sizeof t2);
  CHECK_STR(t2, "A:VL0=40/30,A:VL1=2/-3,B:VL1=8");
  ual_ub_an_init(&b);
  CHECK(ual_ub_an_preset_init(&b, t1, err, sizeof err) && ual_ub_an_preset_credits(&b, t2, err, sizeof err));
  CHECK(!memcmp(&a.p, &b.p, sizeof a.p));
  CHECK(!memcmp(a.s[0].cred, b.s[0].cred, sizeof a.s[0].cred) && !memcmp(a.s[1].cred_init, b.s[1].cred_init, sizeof a.s[1].cred_init));
}

int main(void) {
  test_lane_manage_events();
  test_presets();
  return check_done("test_ub_analysis");
}
