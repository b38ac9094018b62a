/* Captures of the UDP export (input.h): the frames are unwrapped by
 * libdecode's ual_udp_payload and the export header read by ual_udp_rx_step;
 * each datagram to the port is one record. */
#include "input.h"


bool dc_udp_input_accepts(int dlt) { return ual_udp_linktype(dlt); }

bool dc_udp_unwrap(struct dc_input *in, const uint8_t **rec, size_t *len, uint32_t *wire_len) {
  size_t n;
  const uint8_t *p = ual_udp_payload(in->udp_lt, *rec, *len, in->udp_port, &n);
  if (!p) return false;
  bool lost;
  uint64_t before = in->udp_rx.lost;
  const uint8_t *r = ual_udp_rx_step(&in->udp_rx, p, n, &n, &lost);
  in->udp_hdr = r > p ? p : NULL;
  in->udp_hlen = (uint8_t)(r - p);
  in->udp_lost = in->udp_rx.lost - before;
  in->udp_lost_mark = lost;
  /* after a gap in the export's sequence: the record as one after lost records */
  if (lost) r = ual_udp_mark_lost(r, n, in->udp_rec, sizeof in->udp_rec);
  /* what the snapshot length cut off the frame is missing from the record */
  uint32_t cut = *wire_len > *len ? *wire_len - (uint32_t)*len : 0;
  *rec = r;
  *len = n;
  *wire_len = (uint32_t)n + cut;
  return true;
}
