/* Stateless record decode (decode.h). */
#include "ualink/decode.h"

#include <string.h>

void ual_decoder_init(struct ual_decoder *d) {
  ual_unpack_init(&d->unpack[0]);
  ual_unpack_init(&d->unpack[1]);
}

void ual_decode_stateless(const uint8_t *buf, size_t len, uint64_t frame, struct ual_rec_result *out) {
  out->frame = frame;
  out->unpacked = false;
  out->unp.n_tl = out->unp.n_msg = 0;
  ual_findings_clear(&out->findings);
  out->status = ual_record_parse(buf, len, &out->rec);
  out->dir = out->rec.h.flags & UAL_RF_DIR_B ? 1 : 0;
  if (out->status != UAL_RS_OK && out->status != UAL_RS_RESERVED)
    return;

  switch (out->rec.h.kind) {
  case UAL_REC_FLIT:
    ual_flit_decode(out->rec.body, &out->flit, &out->findings);
    break;
  case UAL_REC_OS:
    if (ual_os_decode(out->rec.body, out->rec.body_len, &out->os) == 0)
      ual_os_check(&out->os, &out->findings);
    else
      out->os.type = UAL_OS_UNKNOWN;
    break;
  case UAL_REC_EVENT:
    ual_event_parse(out->rec.body, out->rec.body_len, &out->ev);
    break;
  }
}

void ual_decode_record(struct ual_decoder *d, const uint8_t *buf, size_t len, uint64_t frame,
                       struct ual_rec_result *out) {
  ual_decode_stateless(buf, len, frame, out);
  if ((out->status == UAL_RS_OK || out->status == UAL_RS_RESERVED) && out->rec.h.kind == UAL_REC_FLIT &&
      out->flit.valid && out->flit.kind == UAL_FK_PAYLOAD) {
    ual_unpack_flit(&d->unpack[out->dir], out->flit.bytes, frame, &out->unp, &out->findings);
    out->unpacked = true;
  }
}
