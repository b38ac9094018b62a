/* The streaming unpacker fed arbitrary flit sequences: each 256-byte chunk
 * is made a valid payload flit (header forced, CRC/FEC sealed) so that the
 * unpacker, not the CRC check, sees the fuzzer's bytes. */
#include "ualink/ualink.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct ual_unpack u;
  struct ual_unpack_out out;
  struct ual_findings f;
  ual_unpack_init(&u);
  uint64_t frame = 1;
  for (size_t off = 0; off < size; off += UAL_CRC_OFFSET) {
    uint8_t flit[UAL_FLIT_BYTES] = {0};
    size_t n = size - off < UAL_CRC_OFFSET ? size - off : UAL_CRC_OFFSET;
    memcpy(flit, data + off, n);
    struct ual_fh fh;
    ual_fh_decode(flit, &fh);
    fh.usage = UAL_USAGE_PAYLOAD;
    ual_fh_encode(&fh, flit);
    ual_flit_seal(flit);
    struct ual_flit_info fi;
    ual_findings_clear(&f);
    ual_flit_decode(flit, &fi, &f);
    if (fi.valid && fi.kind == UAL_FK_PAYLOAD)
      ual_unpack_flit(&u, fi.bytes, frame++, &out, &f);
  }
  (void)ual_unpack_partial(&u);
  return 0;
}
