/* The dispatch point (decode.h): record kind -> the decoder registered for
 * it, then the stateless decode and the per-capture step. */
#include "ualink/core/decode.h"
#include "kind.h"

#include <string.h>

static const struct ual_kind *const kinds[256] = {
#define UAL_X_(code, kind) [code] = &kind,
  UAL_KINDS(UAL_X_)
#undef UAL_X_
};

const struct ual_kind *ual_kind_of(unsigned kind) { return kind < 256 ? kinds[kind] : NULL; }

const char *ual_rec_kind_name(unsigned kind) {
  const struct ual_kind *k = ual_kind_of(kind);
  return k ? k->name : NULL;
}

const char *ual_rec_kind_key(unsigned kind) {
  const struct ual_kind *k = ual_kind_of(kind);
  return k ? k->key : NULL;
}

void ual_decoder_init(struct ual_decoder *d) {
  ual_unpack_init(&d->unpack[0]);
  ual_unpack_init(&d->unpack[1]);
  ual_ub_rx_init(&d->ub_rx[0]);
  ual_ub_rx_init(&d->ub_rx[1]);
}

static bool decoded(const struct ual_rec_result *r) {
  return r->status == UAL_RS_OK || r->status == UAL_RS_RESERVED;
}

void ual_decode_stateless(const uint8_t *buf, size_t len, uint64_t frame, struct ual_rec_result *out) {
  out->frame = frame;
  out->unpacked = false;
  out->unp.n_tl = out->unp.n_msg = 0;
  ual_findings_clear(&out->findings);
  out->status = ual_record_parse(buf, len, &out->rec);
  out->dir = out->rec.h.flags & UAL_RF_DIR_B ? 1 : 0;
  if (decoded(out)) ual_kind_of(out->rec.h.kind)->decode(out);
  else if (out->status == UAL_RS_BODY_LEN && ual_kind_of(out->rec.h.kind)->bad_len)
    ual_kind_of(out->rec.h.kind)->bad_len(out);
}

void ual_decode_record(struct ual_decoder *d, const uint8_t *buf, size_t len, uint64_t frame,
                       struct ual_rec_result *out) {
  ual_decode_stateless(buf, len, frame, out);
  ual_decode_stream(d, out);
}

void ual_decode_stream(struct ual_decoder *d, struct ual_rec_result *out) {
  if (!decoded(out)) return;
  const struct ual_kind *k = ual_kind_of(out->rec.h.kind);
  if (k->stream) k->stream(d, out);
}
