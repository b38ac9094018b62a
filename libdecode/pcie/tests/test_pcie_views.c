/* PCIe's presentation model (core/views.h) over a non-flit link: the
 * link's name and ends from the roles, DL_Up and the credits advertised
 * after flow-control initialisation, the DLLP counters, the FC lane and
 * the Nak marker; nothing known before the link says it. */
#include "check.h"
#include <ualink/ualink.h>
#include <ualink/ualink/analysis.h>
#include <ualink/core/views.h>
#include <string.h>

static struct ual_analyzer AN;
#define A 0
#define B 1
static struct ual_view_tally T;
static struct ual_rec_result R;
static unsigned fc_marks[2], nak_marks[2], frames;

static void rec(unsigned dir, unsigned kind, const uint8_t *body, size_t n, unsigned link) {
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, kind, dir);
  h.roles_pcie = 1;
  h.role_a = 1;   /* Root Port */
  h.role_b = 4;   /* Endpoint */
  h.link = (uint8_t)link;
  uint8_t buf[64];
  size_t len = ual_record_build(&h, body, n, buf, sizeof buf);
  struct ual_events ev;
  ual_events_init(&ev);
  frames++;
  ual_analyzer_step(&AN, buf, len, frames, frames * 100, &R, &ev);
  int k = ual_view_tally_add(&T, &R, frames * 100, true);
  CHECK(k >= 0);
  struct ual_view_mark m[UAL_VIEW_MAX_MARKS];
  unsigned nm = ual_view_marks(&T, k, &R, &ev, m, UAL_VIEW_MAX_MARKS);
  const struct ual_view_fabric *f = ual_view_fabric_get(UAL_VF_pcie);
  for (unsigned i = 0; i < nm; i++) {
    if (!strcmp(f->lanes[m[i].lane].key, "pcie_fc") && m[i].side < 2) fc_marks[m[i].side]++;
    if (!strcmp(f->lanes[m[i].lane].key, "pcie_nak") && m[i].side < 2) nak_marks[m[i].side]++;
  }
}

static void fc(unsigned dir, enum ual_pcie_dllp_name n, unsigned hdr, unsigned data, unsigned link) {
  struct ual_pcie_dllp d;
  ual_pcie_dllp_fc(&d, n, 0, 0, hdr, 0, data);
  uint8_t body[8];
  ual_pcie_dllp_encode(&d, body);
  rec(dir, UAL_REC_PCIE_DLLP, body, 8, link);
}

struct seen {
  char dl[2][48], p_cred[2][48], np_cred[2][48], cpl_cred[2][48], fc[2][48];
  uint64_t dllps[2], naks[2];
};

static void on_row(void *ctx, const struct ual_view_row *r) {
  struct seen *s = ctx;
  for (unsigned d = 0; d < 2; d++) {
    if (!strcmp(r->label, "DL state")) snprintf(s->dl[d], sizeof s->dl[d], "%s", r->value[d]);
    if (r->group && !strcmp(r->group, "Flow control VC0") && !strcmp(r->label, "P credits advertised (hdr/data)"))
      snprintf(s->p_cred[d], sizeof s->p_cred[d], "%s", r->value[d]);
    if (r->group && !strcmp(r->group, "Flow control VC0") && !strcmp(r->label, "NP credits advertised (hdr/data)"))
      snprintf(s->np_cred[d], sizeof s->np_cred[d], "%s", r->value[d]);
    if (r->group && !strcmp(r->group, "Flow control VC0") && !strcmp(r->label, "Cpl credits advertised (hdr/data)"))
      snprintf(s->cpl_cred[d], sizeof s->cpl_cred[d], "%s", r->value[d]);
    if (r->group && !strcmp(r->group, "Flow control VC0") && !strcmp(r->label, "FC initialisation"))
      snprintf(s->fc[d], sizeof s->fc[d], "%s", r->value[d]);
  }
}

static void on_counter(void *ctx, const struct ual_view_counter *c) {
  struct seen *s = ctx;
  if (c->heading || c->table != UAL_VIEW_T_RECORDS) return;
  for (unsigned d = 0; d < 2; d++) {
    if (!strcmp(c->label, "PCIe DLLPs")) s->dllps[d] = c->v[d];
    if (!strcmp(c->label, "Nak")) s->naks[d] = c->v[d];
  }
}

int main(void) {
  ual_analyzer_init(&AN);
  ual_view_tally_init(&T);
  struct ual_view_src src;
  ual_analyzer_view_src(&AN, &T, &src);
  struct seen s;

  /* one DLLP of B on link 2: the link is named, nothing is known yet */
  fc(B, UAL_PCIE_DT_UPDATEFC_NP, 4, 0, 2);
  CHECK_EQ(T.n, 1);
  struct ual_view_link l;
  ual_view_link_get(&src, 0, &l);
  CHECK_EQ(l.fabric, UAL_VF_pcie);
  CHECK_STR(l.name, "RP2 <-> EP");
  CHECK_STR(l.side[0], "Root Port");
  CHECK_STR(l.side[1], "Endpoint");
  memset(&s, 0, sizeof s);
  ual_view_state(&src, 0, on_row, &s);
  CHECK_STR(s.dl[0], UAL_VIEW_UNKNOWN);
  CHECK_STR(s.p_cred[0], UAL_VIEW_UNKNOWN);

  /* both sides initialise VC0 */
  for (unsigned d = 0; d < 2; d++) {
    fc(d, UAL_PCIE_DT_INITFC1_P, 16 + d, 64, 2);
    fc(d, UAL_PCIE_DT_INITFC1_NP, 8, 0, 2);
    fc(d, UAL_PCIE_DT_INITFC1_CPL, 0, 0, 2);
    fc(d, UAL_PCIE_DT_INITFC2_P, 16 + d, 64, 2);
    fc(d, UAL_PCIE_DT_INITFC2_NP, 8, 0, 2);
    fc(d, UAL_PCIE_DT_INITFC2_CPL, 0, 0, 2);
  }
  struct ual_pcie_dllp nak = { 0 };
  nak.type = 0x10;
  nak.seq = 5;
  uint8_t body[8];
  ual_pcie_dllp_encode(&nak, body);
  rec(A, UAL_REC_PCIE_DLLP, body, 8, 2);

  memset(&s, 0, sizeof s);
  ual_view_state(&src, 0, on_row, &s);
  CHECK_STR(s.dl[0], "DL_Up");
  CHECK_STR(s.dl[1], "DL_Up");
  CHECK_STR(s.p_cred[0], "16/64");
  CHECK_STR(s.p_cred[1], "17/64");
  /* 0 in InitFC is infinite, not none (NP data, all of Cpl) */
  CHECK_STR(s.np_cred[0], "8/infinite");
  CHECK_STR(s.cpl_cred[1], "infinite/infinite");
  CHECK_STR(s.fc[0], ual_pcie_fc_phase_name(UAL_PCIE_PH_INIT2));
  ual_view_counters(&src, 0, on_counter, &s);
  CHECK_EQ(s.dllps[0], 7);
  CHECK_EQ(s.dllps[1], 7);
  CHECK_EQ(s.naks[0], 1);
  CHECK_EQ(s.naks[1], 0);
  CHECK_EQ(nak_marks[0], 1);
  CHECK_EQ(nak_marks[1], 0);
  CHECK(fc_marks[0] >= 2 && fc_marks[1] >= 2);   /* InitFC1 and InitFC2 of each side */
  char line[256];
  ual_view_state_line(&src, 0, line, sizeof line);
  CHECK(strstr(line, "A:DL_Up") != NULL);

  /* a second link of the same capture is its own */
  fc(A, UAL_PCIE_DT_UPDATEFC_P, 1, 1, 3);
  CHECK_EQ(T.n, 2);
  ual_view_link_get(&src, 1, &l);
  CHECK_STR(l.name, "RP3 <-> EP");
  memset(&s, 0, sizeof s);
  ual_view_counters(&src, 1, on_counter, &s);
  CHECK_EQ(s.dllps[0], 1);
  return check_done("test_pcie_views");
}
