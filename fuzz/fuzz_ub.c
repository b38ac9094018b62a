/* UB flits (record kind 6): the input is a stream of 21-byte items, a
 * control byte (bit 0 direction, bit 1 FEC uncorrectable, bits 3:2 mode
 * hint, bit 4: a link event instead, its code 9..13 from bits 7:5) and a
 * 20-byte flit, run through the whole analyzer (the UB analysis, its block
 * receiver, every tree and summary). */
#include "ualink/ualink.h"
#include "ualink/ub/flit.h"
#include "ualink/ub/analysis.h"
#include "ualink/ualink/analysis.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static struct ual_analyzer a;
  static struct ual_rec_result r;
  static struct ual_events ev;
  ual_analyzer_init(&a);
  ual_events_init(&ev);
  uint64_t frame = 1;
  char text[512];
  while (size >= 1 + UAL_UB_FLIT_BYTES) {
    uint8_t ctl = data[0], rec[UAL_REC_HDR_BYTES + UAL_UB_FLIT_BYTES];
    struct ual_rec_hdr h;
    size_t n;
    if (ctl & 0x10) {
      struct ual_event e = { (uint16_t)(9 + (ctl >> 5) % 5), 0, data[1] % 3u };
      uint8_t body[UAL_REC_EVENT_BYTES];
      ual_event_build(&e, body);
      ual_rec_hdr_init(&h, UAL_REC_EVENT, 0);
      n = ual_record_build(&h, body, sizeof body, rec, sizeof rec);
    } else {
      ual_rec_hdr_init(&h, UAL_REC_UB_FLIT, ctl & 1);
      if (ctl & 2) h.flags |= UAL_RF_PHY_ERR;
      h.rsvd = (uint8_t)((ctl >> 2) & 3);
      n = ual_record_build(&h, data + 1, UAL_UB_FLIT_BYTES, rec, sizeof rec);
    }
    ual_events_clear(&ev);
    ual_analyzer_step(&a, rec, n, frame, frame * 5, &r, &ev);
    ual_rec_summary(&r, text, sizeof text);
    frame++;
    data += 1 + UAL_UB_FLIT_BYTES;
    size -= 1 + UAL_UB_FLIT_BYTES;
  }
  struct ual_findings f;
  ual_findings_clear(&f);
  ual_analyzer_finish(&a, &f, &ev);
  ual_ub_an_state_text(&a.fab.ub, text, sizeof text);
  return 0;
}
