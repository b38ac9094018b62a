#include "pre.h"

#include <string.h>

/* A well-formed UALink flit record's decode writes nothing between tlps and
 * the findings (the other kinds' members): the hot case skips them. */
static bool flit_only(const struct ual_rec_result *r) {
  return r->rec.h.kind == UAL_REC_FLIT && (r->status == UAL_RS_OK || r->status == UAL_RS_RESERVED);
}

/* ...and when its FEC found nothing to correct, its flit bytes are the
 * record's body, which the main thread copies from the batch itself. */
static bool raw_bytes(const struct ual_rec_result *r) {
  return flit_only(r) && r->flit.fec.status == UAL_FEC_CLEAN;
}

#define BYTES_AT   offsetof(struct ual_rec_result, flit.bytes)
#define BYTES_END  (BYTES_AT + sizeof ((struct ual_rec_result *)0)->flit.bytes)
#define END_BYTES  (sizeof(struct ual_rec_result) - DC_PRE_FIND_END)
_Static_assert(BYTES_END <= DC_PRE_UNP_AT, "the flit bytes are in the part before unp");

struct hdr {
  uint16_t nf, dropped;
  unsigned f0 : 30;        /* its first finding in the batch's array */
  unsigned raw : 1, only : 1; /* raw_bytes, flit_only */
};

static unsigned char *put(unsigned char *p, const unsigned char *b, size_t from, size_t to) {
  memcpy(p, b + from, to - from);
  return p + (to - from);
}

static const unsigned char *get(const unsigned char *p, unsigned char *b, size_t from, size_t to) {
  memcpy(b + from, p, to - from);
  return p + (to - from);
}

_Static_assert(sizeof(struct hdr) == 8, "DC_PRE_MAX counts 8 bytes of header");

size_t dc_pre_store(unsigned char *p, const struct ual_rec_result *r, struct ual_finding *fv, uint32_t f0) {
  const unsigned char *b = (const unsigned char *)r;
  struct hdr h = { r->findings.n, r->findings.dropped, f0 & 0x3fffffffu, raw_bytes(r), flit_only(r) };
  unsigned char *at = p + sizeof h;
  memcpy(p, &h, sizeof h);
  at = put(at, b, 0, BYTES_AT);
  if (!h.raw) at = put(at, b, BYTES_AT, BYTES_END);
  at = put(at, b, BYTES_END, DC_PRE_UNP_AT);
  if (!h.only) at = put(at, b, DC_PRE_UNP_END, DC_PRE_FIND_AT);
  at = put(at, b, DC_PRE_FIND_END, sizeof *r);
  memcpy(fv + f0, r->findings.v, r->findings.n * sizeof *fv);
  size_t used = (size_t)(at - p);
  return (used + DC_PRE_ALIGN - 1) / DC_PRE_ALIGN * DC_PRE_ALIGN;
}

void dc_pre_load(struct ual_rec_result *r, const unsigned char *p, const struct ual_finding *fv, bool raw) {
  unsigned char *b = (unsigned char *)r;
  struct hdr h;
  memcpy(&h, p, sizeof h);
  const unsigned char *at = p + sizeof h;
  at = get(at, b, 0, BYTES_AT);
  if (!h.raw) at = get(at, b, BYTES_AT, BYTES_END);
  else if (raw) memcpy(r->flit.bytes, r->rec.body, sizeof r->flit.bytes);
  at = get(at, b, BYTES_END, DC_PRE_UNP_AT);
  if (!h.only) at = get(at, b, DC_PRE_UNP_END, DC_PRE_FIND_AT);
  get(at, b, DC_PRE_FIND_END, sizeof *r);
  r->unpacked = false;
  r->unp.n_tl = r->unp.n_msg = 0;
  ual_pcie_tlps_clear(&r->tlps);
  r->findings.n = h.nf;
  r->findings.dropped = h.dropped;
  memcpy(r->findings.v, fv + h.f0, h.nf * sizeof *fv);
}
