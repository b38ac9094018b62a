/* Captures of the UDP export (input.h): the frames are unwrapped by
 * libdecode's ual_udp_payload; each datagram to the port is one record. */
#include "input.h"

#include "ualink/core/udp.h"

bool dc_udp_input_accepts(int dlt) { return ual_udp_linktype(dlt); }

bool dc_udp_unwrap(const struct dc_input *in, const uint8_t **rec, size_t *len, uint32_t *wire_len) {
  size_t n;
  const uint8_t *p = ual_udp_payload(in->udp_lt, *rec, *len, in->udp_port, &n);
  if (!p) return false;
  /* what the snapshot length cut off the frame is missing from the record */
  uint32_t cut = *wire_len > *len ? *wire_len - (uint32_t)*len : 0;
  *rec = p;
  *len = n;
  *wire_len = (uint32_t)n + cut;
  return true;
}
