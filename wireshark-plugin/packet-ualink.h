/* UALink 128G Wireshark plugin: what the dissector and the statistics share. */
#ifndef UAL_WS_PACKET_UALINK_H
#define UAL_WS_PACKET_UALINK_H

#include <wireshark.h>
#include <epan/packet.h>

#include "ualink/core/decode.h"
#include "ualink/core/views.h"

/* Wireshark 4.2 declares boolean preferences and heuristic dissectors with
 * C bool (4.0: gboolean); GCC 14 rejects the other one's pointer. */
#define UAL_WS_AT_LEAST(maj, min) \
  (WIRESHARK_VERSION_MAJOR > (maj) || (WIRESHARK_VERSION_MAJOR == (maj) && WIRESHARK_VERSION_MINOR >= (min)))
#if UAL_WS_AT_LEAST(4, 2)
typedef bool uw_bool;
#else
typedef gboolean uw_bool;
#endif

/* Name of the tap; its data is the struct ual_rec_result of the record,
 * allocated in the packet scope. */
#define UAL_WS_TAP "ualink"

/* TL flits and DL messages of held flits a replay released (delivered in
 * the frame that released them). */
#define UAL_WS_MAX_RELEASED 128
struct ual_ws_released {
  uint16_t n_tl, n_msg;
  const struct ual_tl_flit *tl;
  const struct ual_dl_item *msg;
};

void proto_register_ualink(void);
void proto_reg_handoff_ualink(void);
/* Registers the statistics (stats tree and "-z ualink,stat"). */
void ual_ws_register_stats(void);

/* packet-ualink.c: hf ids of the UALink filter table's fields, by enum
 * ual_fu (ualink/ualink/filter.h). */
extern int ual_ws_hf_fu[];
/* ... and of another fabric's own table (ual_filter_fabric_at(proto),
 * proto > 0), by its index; NULL for 0 or out of range. */
int *ual_ws_protocol_hf(size_t proto);

/* packet-ualink.c: value_string of a libdecode value list (kept for the run). */
const value_string *ual_ws_vals(const struct ual_value_name *v);

/* ualink-state.c: per-frame state (see there). */
void ual_ws_state_register(int proto);
void ual_ws_state_init(int proto);
void ual_ws_state_cleanup(void);
/* The view fabric (core/views.h) of the frame's record: the first pass's
 * model placed it (a link event by its link). */
unsigned ual_ws_fabric(packet_info *pinfo, const struct ual_rec_result *r);
/* What the model's renderers read for tally t: the first pass's analysis
 * as it stands now (the end of the capture once tshark draws). */
void ual_ws_view_src(const struct ual_view_tally *t, struct ual_view_src *src);
/* The record of this frame, decoded as in the first pass (packet scope). */
struct ual_rec_result *ual_ws_decode(tvbuff_t *tvb, packet_info *pinfo, gboolean analyze);
/* The "Analysis" subtree; *rel = what replays released in this frame, or NULL. */
void ual_ws_state_tree(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo, const struct ual_rec_result *r,
                       const struct ual_ws_released **rel);

/* The fabric's analysis subtree of a record, under its fabric protocol's item. */
void ual_ws_fabric_tree(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo);

#endif
