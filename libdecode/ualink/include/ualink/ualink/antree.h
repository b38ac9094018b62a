/* The analysis subtree of one record, as ualink-decode -V and the Wireshark
 * plugin show it: the sender's and its partner's state after the record
 * (LTSSM, role, channels, negotiated width/speed/state, TL rate, replay),
 * the record's timeline events with their negotiation, and for a fabric
 * whose analysis describes its link in one line (UB) that line as the
 * title. Rows name the plugin's analysis fields (filter.h, enum ual_fu) and
 * carry the value text both front-ends print, so the two read the same. */
#ifndef UALINK_UALINK_ANTREE_H
#define UALINK_UALINK_ANTREE_H

#include <stdint.h>
#include "ualink/ualink/analysis.h"

/* What the subtree of one record shows: plain, copyable (the plugin keeps
 * one per frame, taken on the first pass). */
struct ual_an_frame {
  uint8_t shown;                 /* a decoded record of an analysed capture */
  uint8_t dir;
  uint8_t dup_known, dup;        /* a UALink payload flit: discarded as a duplicate */
  uint8_t ltssm[2], role[2];     /* per port (0 A, 1 B) */
  int8_t ch0[2], ch4[2], neg_width[2], neg_speed[2], neg_state[2];   /* UAL_UNKNOWN */
  int16_t unacked[2];
  int32_t tl_rate[2];
  char state[200];               /* the fabric's state line (ual_fabric_an_state_text), or "" */
};

/* The frame's subtree after ual_analyzer_step of r. */
void ual_an_frame_take(const struct ual_analyzer *an, const struct ual_rec_result *r, struct ual_an_frame *f);

/* One row: a subtree (field < 0; text is its label) or a generated field
 * (field: enum ual_fu; value; text: the value as shown, "L0 (12)"). */
struct ual_an_row {
  unsigned depth;                /* 0 the Analysis subtree, 1 its rows, 2 an event's */
  int field;
  int64_t value;
  char text[256];
};
typedef void (*ual_an_row_fn)(void *ctx, const struct ual_an_row *row);

/* The rows of f and the record's events ev[0..n), in order; nothing when
 * f->shown is 0. */
void ual_an_tree_walk(const struct ual_an_frame *f, const struct ual_tevent *ev, unsigned n, ual_an_row_fn fn,
                      void *ctx);

#endif
