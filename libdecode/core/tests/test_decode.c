/* The dispatch point: record kind -> registered decoder, for decode, field
 * tree and summary; kinds nobody registered (the PCIe and UB kinds until
 * their modules exist) are malformed everywhere. */
#include "check.h"
#include "ualink/core/decode.h"
#include "ualink/core/summary.h"
#include "ualink/core/tree.h"
#include "core/kind.h"

#include <string.h>

struct rows { unsigned n; char label[16][32]; char text[16][96]; unsigned depth[16]; };

static void collect(void *ctx, const struct ual_tree_row *row) {
  struct rows *r = ctx;
  if (r->n >= 16) return;
  snprintf(r->label[r->n], sizeof r->label[0], "%s", row->label);
  snprintf(r->text[r->n], sizeof r->text[0], "%s", row->text);
  r->depth[r->n] = row->depth;
  r->n++;
}

static size_t record(unsigned kind, const uint8_t *body, size_t body_len, uint8_t *out, size_t cap) {
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, kind, 1);
  return ual_record_build(&h, body, body_len, out, cap);
}

static void test_names(void) {
  CHECK_STR(ual_rec_kind_name(UAL_REC_FLIT), "flit");
  CHECK_STR(ual_rec_kind_name(UAL_REC_OS), "ordered set");
  CHECK_STR(ual_rec_kind_name(UAL_REC_EVENT), "link event");
  CHECK(ual_rec_kind_name(0) == NULL);
  CHECK_STR(ual_rec_kind_name(UAL_REC_PCIE_DLLP), "PCIe DLLP");
  CHECK_STR(ual_rec_kind_name(UAL_REC_PCIE_FLIT), "PCIe flit");
  CHECK_STR(ual_rec_kind_name(UAL_REC_UB_FLIT), "UB flit");
  CHECK(ual_rec_kind_name(1000) == NULL);
  CHECK_STR(ual_rec_kind_key(UAL_REC_FLIT), "flit");
  CHECK_STR(ual_rec_kind_key(UAL_REC_OS), "os");
  CHECK_STR(ual_rec_kind_key(UAL_REC_EVENT), "event");
  CHECK_STR(ual_rec_kind_key(UAL_REC_PCIE_FLIT), "pcie_flit");
  CHECK_STR(ual_rec_kind_key(UAL_REC_PCIE_NF), "pcie_nf");
  CHECK(ual_rec_kind_key(8) == NULL);
  /* every registered kind is complete: the dispatch calls these unchecked */
  unsigned n = 0;
  for (unsigned k = 0; k < 256; k++) {
    const struct ual_kind *d = ual_kind_of(k);
    if (!d) continue;
    n++;
    CHECK(d->name && d->key && d->body_ok && d->decode && d->tree && d->summary);
  }
#define UAL_X_(code, kind) +1
  CHECK_EQ(n, 0 UAL_KINDS(UAL_X_));   /* the core's and every fabric's kinds */
#undef UAL_X_
  CHECK_EQ(n, 7);   /* UALink 1, 2; events 3; PCIe DLLP 4, flit 5; UB 6; PCIe packet 7 */
}

/* A kind nobody registered (8: no digest gives it one). */
static void test_unregistered(void) {
  static const struct { unsigned kind; size_t body; } k[] = {
    { 8, 256 } };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    uint8_t body[256] = {0}, rec[8 + 256];
    size_t n = record(k[i].kind, body, k[i].body, rec, sizeof rec);
    struct ual_rec_result r;
    ual_decode_stateless(rec, n, 7, &r);
    CHECK_EQ(r.status, UAL_RS_KIND);
    CHECK_EQ(r.rec.h.kind, k[i].kind);
    CHECK_EQ(r.dir, 1);
    CHECK_EQ(r.findings.n, 0);
    char s[128];
    ual_rec_summary(&r, s, sizeof s);
    CHECK_STR(s, "malformed: unknown record kind");
    struct rows t = {0};
    ual_tree_walk(&r, rec, n, collect, &t);
    CHECK_EQ(t.n, 1 + 13 + 1);   /* header group, its 13 fields, malformed */
    CHECK_STR(t.label[0], "Record header");
    CHECK_STR(t.label[14], "Malformed record");
    CHECK_STR(t.text[14], "unknown record kind");
    CHECK_EQ(t.depth[14], 0);
  }
}

/* Each registered kind reaches its own decoder, tree and summary. */
static void test_dispatch(void) {
  uint8_t rec[8 + 256];
  struct ual_rec_result r;
  char s[128];

  struct ual_event ev = { UAL_EV_RATE, 0, 3 };
  uint8_t body[8];
  ual_event_build(&ev, body);
  size_t n = record(UAL_REC_EVENT, body, sizeof body, rec, sizeof rec);
  ual_decode_stateless(rec, n, 1, &r);
  CHECK_EQ(r.status, UAL_RS_OK);
  CHECK_EQ(r.ev.code, UAL_EV_RATE);
  CHECK_EQ(r.ev.value, 3);
  ual_rec_summary(&r, s, sizeof s);
  CHECK_STR(s, "event rate_changed value 3");
  struct rows t = {0};
  ual_tree_walk(&r, rec, n, collect, &t);
  CHECK_STR(t.label[14], "Link event");
  CHECK_STR(t.text[14], "rate_changed");

  /* an all-zero flit body: an IDLE flit whose CRC and FEC are not sealed */
  uint8_t flit[256] = {0};
  n = record(UAL_REC_FLIT, flit, sizeof flit, rec, sizeof rec);
  ual_decode_stateless(rec, n, 2, &r);
  CHECK_EQ(r.status, UAL_RS_OK);
  CHECK_EQ(r.flit.kind, UAL_FK_IDLE);
  CHECK(!r.unpacked);
  memset(&t, 0, sizeof t);
  ual_tree_walk(&r, rec, n, collect, &t);
  CHECK_STR(t.label[14], "Flit");
}

/* ual_decode_record runs the kind's per-capture step: valid payload flits
 * reach the direction's unpacker, other records do not. */
static void test_stream(void) {
  struct ual_decoder d;
  ual_decoder_init(&d);
  uint8_t flit[256] = {0}, rec[8 + 256];
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 0, UAL_RC_SEQ, 1 };
  ual_fh_encode(&fh, flit);
  ual_flit_seal(flit);
  size_t n = record(UAL_REC_FLIT, flit, sizeof flit, rec, sizeof rec);
  struct ual_rec_result r;
  ual_decode_record(&d, rec, n, 3, &r);
  CHECK_EQ(r.status, UAL_RS_OK);
  CHECK(r.flit.valid);
  CHECK_EQ(r.flit.kind, UAL_FK_PAYLOAD);
  CHECK(r.unpacked);

  uint8_t body[8];
  struct ual_event ev = { UAL_EV_CAP_START, 0, 0 };
  ual_event_build(&ev, body);
  n = record(UAL_REC_EVENT, body, sizeof body, rec, sizeof rec);
  ual_decode_record(&d, rec, n, 4, &r);
  CHECK_EQ(r.status, UAL_RS_OK);
  CHECK(!r.unpacked);
}

int main(void) {
  test_names();
  test_unregistered();
  test_dispatch();
  test_stream();
  return check_done("test_decode");
}
