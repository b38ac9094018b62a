/* Records through the analyzer's dispatch for the PCIe analysis tests:
 * a PCIe link (roles A = Root Port, B = Endpoint unless roles is 0),
 * findings and timeline events counted by rule and kind. Records are
 * GAP_NS apart unless a test sets ts itself (rec_at). */
#ifndef UAL_PCIE_AN_TX_H
#define UAL_PCIE_AN_TX_H

#include "check.h"
#include <ualink/ualink.h>
#include <ualink/ualink/analysis.h>
#include <stdlib.h>

#define A 0
#define B 1
#define GAP_NS 100

struct tx {
  struct ual_analyzer *a;
  struct ual_rec_result r;
  struct ual_events ev;
  uint64_t frame, ts;
  unsigned counts[UAL_R_COUNT];
  unsigned events[UAL_TEV_COUNT];
  uint8_t flags;
  int roles;                 /* put the PCIe roles in the header */
  uint8_t rate, width;       /* the record header's, 0 none */
  unsigned encoding;         /* kind-7 records: enum ual_pcie_nf_enc */
  struct ual_tevent last_ev; /* the last timeline event */
};

static void tx_init(struct tx *t) {
  struct ual_analyzer *a = t->a;
  memset(t, 0, sizeof *t);
  t->a = a;
  ual_analyzer_init(t->a);
  ual_events_init(&t->ev);
  t->roles = 1;
}

static inline void tx_clear(struct tx *t) {
  memset(t->counts, 0, sizeof t->counts);
  memset(t->events, 0, sizeof t->events);
}

/* Findings but PN-SYNC (a DL initialization or the non-flit DL synchronizing). */
static unsigned total(const struct tx *t) {
  unsigned n = 0;
  for (unsigned i = 0; i < UAL_R_COUNT; i++) {
    if (i == UAL_R_PN_SYNC) continue;
    if (t->counts[i] && getenv("TEST_VERBOSE")) fprintf(stderr, "  %s x%u\n", ual_rule_id((enum ual_rule)i), t->counts[i]);
    n += t->counts[i];
  }
  return n;
}

static void rec_at(struct tx *t, unsigned dir, unsigned kind, const uint8_t *body, size_t n, uint64_t ts) {
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, kind, dir);
  h.rate = t->rate;
  h.width = t->width;
  h.flags |= t->flags;
  t->flags = 0;
  if (t->roles) {
    h.roles_pcie = 1;
    h.role_a = 1;
    h.role_b = 4;
  }
  uint8_t buf[512];
  size_t len = ual_record_build(&h, body, n, buf, sizeof buf);
  CHECK(len > 0);
  ual_events_clear(&t->ev);
  t->frame++;
  ual_analyzer_step(t->a, buf, len, t->frame, ts, &t->r, &t->ev);
  CHECK(t->r.status == UAL_RS_OK);   /* every record here is well formed */
  for (unsigned i = 0; i < t->r.findings.n; i++) t->counts[t->r.findings.v[i].rule]++;
  for (unsigned i = 0; i < t->ev.n; i++) t->events[t->ev.v[i].kind]++;
  if (t->ev.n) t->last_ev = t->ev.v[t->ev.n - 1];
}

static void rec(struct tx *t, unsigned dir, unsigned kind, const uint8_t *body, size_t n) {
  t->ts += GAP_NS;
  rec_at(t, dir, kind, body, n, t->ts);
}

/* A kind-4 DLLP. */
static void dllp(struct tx *t, unsigned dir, const struct ual_pcie_dllp *d) {
  uint8_t body[8];
  ual_pcie_dllp_encode(d, body);
  rec(t, dir, UAL_REC_PCIE_DLLP, body, 8);
}

static void link_event(struct tx *t, unsigned code) {
  struct ual_event e = { (uint16_t)code, 0, 0 };
  uint8_t body[8];
  ual_event_build(&e, body);
  rec(t, A, UAL_REC_EVENT, body, 8);
}

#endif
