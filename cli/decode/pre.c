#include "pre.h"

#include <string.h>

/* A well-formed UALink flit record's decode writes nothing between tlps and
 * the findings (the other kinds' members): the hot case skips them. */
static bool flit_only(const struct ual_rec_result *r) {
  return r->rec.h.kind == UAL_REC_FLIT && (r->status == UAL_RS_OK || r->status == UAL_RS_RESERVED);
}

/* ...and when its FEC found nothing to correct, its flit bytes are the
 * record's body, which the main thread copies from the batch itself: the
 * worker writes 256 bytes less per flit, each a line the main thread read
 * last (bench/README.md, "bench_decode"). */
static bool raw_bytes(const struct ual_rec_result *r) {
  return flit_only(r) && r->flit.fec.status == UAL_FEC_CLEAN;
}

#define BYTES_AT   offsetof(struct ual_rec_result, flit.bytes)
#define BYTES_END  (BYTES_AT + sizeof ((struct ual_rec_result *)0)->flit.bytes)
#define END_BYTES  (sizeof(struct ual_rec_result) - DC_PRE_FIND_END)
_Static_assert(BYTES_END <= DC_PRE_UNP_AT, "the flit bytes are in the head");

void dc_pre_store(struct dc_pre *p, const struct ual_rec_result *r, struct ual_finding *fv, uint32_t f0) {
  const unsigned char *b = (const unsigned char *)r;
  if (raw_bytes(r)) {
    memcpy(p->head, b, BYTES_AT);
    memcpy(p->head + BYTES_END, b + BYTES_END, sizeof p->head - BYTES_END);
  } else {
    memcpy(p->head, b, sizeof p->head);
  }
  if (!flit_only(r)) memcpy(p->mid, b + DC_PRE_UNP_END, sizeof p->mid);
  memcpy(p->end, b + DC_PRE_FIND_END, END_BYTES);
  p->nf = r->findings.n;
  p->dropped = r->findings.dropped;
  p->f0 = f0;
  memcpy(fv + f0, r->findings.v, r->findings.n * sizeof *fv);
}

void dc_pre_load(struct ual_rec_result *r, const struct dc_pre *p, const struct ual_finding *fv) {
  unsigned char *b = (unsigned char *)r;
  memcpy(b, p->head, BYTES_AT);
  memcpy(b + BYTES_END, p->head + BYTES_END, sizeof p->head - BYTES_END);
  if (raw_bytes(r)) memcpy(r->flit.bytes, r->rec.body, sizeof r->flit.bytes);
  else memcpy(b + BYTES_AT, p->head + BYTES_AT, BYTES_END - BYTES_AT);
  if (!flit_only(r)) memcpy(b + DC_PRE_UNP_END, p->mid, sizeof p->mid);
  memcpy(b + DC_PRE_FIND_END, p->end, END_BYTES);
  r->unpacked = false;
  r->unp.n_tl = r->unp.n_msg = 0;
  ual_pcie_tlps_clear(&r->tlps);
  r->findings.n = p->nf;
  r->findings.dropped = p->dropped;
  memcpy(r->findings.v, fv + p->f0, p->nf * sizeof *fv);
}
