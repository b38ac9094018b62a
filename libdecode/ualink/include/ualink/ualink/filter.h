/* UALink's part of the display filters (core/filter.h): the fields the
 * Wireshark plugin registers beside the field table, and the stateful
 * results a filter reads after the analyzer's step. */
#ifndef UALINK_UALINK_FILTER_H
#define UALINK_UALINK_FILTER_H

#include "ualink/core/filter.h"
#include "ualink/ualink/analysis.h"

/* X(ID, "Name", "abbrev", type, bytes, base, value list, "blurb"): the
 * plugin's fields that are not rows of the field table, in its
 * registration order: reassembly results, the analysis subtree, findings.
 * Their value lists are the field table's or the analyzer's. */
#define UAL_FILTER_UALINK_FIELDS(X) \
  X(SECTOR, "Sector", "ualink.sector", UAL_FT_BYTES, 0, UAL_FB_NONE, NULL, "4-byte sector of a segment") \
  X(TL_DATA, "TL flit data", "ualink.tl.data", UAL_FT_BYTES, 0, UAL_FB_NONE, NULL, "Reassembled 64-byte TL flit") \
  X(TL_M0, "M0", "ualink.tl.m0", UAL_FT_UINT, 1, UAL_FB_DEC, NULL, "Metadata bit of the lower half") \
  X(TL_M1, "M1", "ualink.tl.m1", UAL_FT_UINT, 1, UAL_FB_DEC, NULL, "Metadata bit of the upper half") \
  X(TL_START_FRAME, "Started in frame", "ualink.tl.start_frame", UAL_FT_FRAMENUM, 4, UAL_FB_NONE, NULL, NULL) \
  X(TL_START_SEGMENT, "Started in segment", "ualink.tl.start_segment", UAL_FT_UINT, 1, UAL_FB_DEC, NULL, NULL) \
  X(DLM_SUMMARY, "DL message", "ualink.dlm.summary", UAL_FT_STRING, 0, UAL_FB_NONE, NULL, "DL message completed in this flit") \
  X(DLM_START_FRAME, "Started in frame", "ualink.dlm.start_frame", UAL_FT_FRAMENUM, 4, UAL_FB_NONE, NULL, NULL) \
  X(DLM_SEGMENT, "Started in segment", "ualink.dlm.segment", UAL_FT_UINT, 1, UAL_FB_DEC, NULL, NULL) \
  X(DLM_PAYLOAD, "UART payload DWord", "ualink.dlm.payload", UAL_FT_UINT, 4, UAL_FB_HEX, NULL, NULL) \
  X(LTSSM, "LTSSM state", "ualink.ltssm.state", UAL_FT_UINT, 1, UAL_FB_DEC, ual_vals_lt_state, "State of the sender's port after this record") \
  X(LTSSM_PEER, "Partner LTSSM state", "ualink.ltssm.peer_state", UAL_FT_UINT, 1, UAL_FB_DEC, ual_vals_lt_state, "State of the other port after this record") \
  X(ROLE, "Sender role", "ualink.analysis.role", UAL_FT_UINT, 1, UAL_FB_DEC, ual_vals_role, NULL) \
  X(CH0, "Channel 0 (TL) online", "ualink.chan.ch0", UAL_FT_BOOLEAN, 0, UAL_FB_NONE, NULL, "As the sender holds it; absent while unknown") \
  X(CH4, "Channel 4 (UART) online", "ualink.chan.ch4", UAL_FT_BOOLEAN, 0, UAL_FB_NONE, NULL, "As the sender holds it; absent while unknown") \
  X(NEG_WIDTH, "Negotiated link width", "ualink.neg.width", UAL_FT_UINT, 1, UAL_FB_DEC, ual_vals_width, NULL) \
  X(NEG_SPEED, "Negotiated link speed", "ualink.neg.speed", UAL_FT_UINT, 1, UAL_FB_DEC, ual_vals_speed, NULL) \
  X(NEG_STATE, "Negotiated link state", "ualink.neg.state", UAL_FT_UINT, 1, UAL_FB_DEC, ual_vals_state, NULL) \
  X(TL_RATE, "Sender TL rate (50 kHz units)", "ualink.tl_rate.current", UAL_FT_UINT, 4, UAL_FB_DEC, NULL, NULL) \
  X(UNACKED, "Unacknowledged payload flits", "ualink.replay.unacked", UAL_FT_UINT, 2, UAL_FB_DEC, NULL, "Sent by the sender and not yet acknowledged") \
  X(DUPLICATE, "Duplicate (discarded)", "ualink.replay.is_duplicate", UAL_FT_BOOLEAN, 0, UAL_FB_NONE, NULL, "Payload flit already delivered") \
  X(TEV_KIND, "Event", "ualink.tev.kind", UAL_FT_UINT, 1, UAL_FB_DEC, ual_vals_tev_kind, "Timeline event") \
  X(TEV_TEXT, "Event text", "ualink.tev.text", UAL_FT_STRING, 0, UAL_FB_NONE, NULL, NULL) \
  X(TEV_VALUE, "Event value", "ualink.tev.value", UAL_FT_INT, 4, UAL_FB_DEC, NULL, NULL) \
  X(NEG_MTYPE, "Negotiation", "ualink.neg.mtype", UAL_FT_UINT, 1, UAL_FB_DEC, ual_vals_msg_type, NULL) \
  X(NEG_OUTCOME, "Negotiation outcome", "ualink.neg.outcome", UAL_FT_UINT, 1, UAL_FB_DEC, ual_vals_neg_outcome, NULL) \
  X(NEG_LATENCY, "Negotiation latency (ns)", "ualink.neg.latency_ns", UAL_FT_UINT, 8, UAL_FB_DEC, NULL, "Since the request") \
  X(RULE, "Rule", "ualink.rule", UAL_FT_STRING, 0, UAL_FB_NONE, NULL, "Rule ID of a finding (docs/rules.md), one per finding") \
  X(SEVERITY, "Severity", "ualink.severity", UAL_FT_STRING, 0, UAL_FB_NONE, NULL, "Severity of a finding: info, warning or error") \
  X(UDP, "UDP export header", "ualink.udp", UAL_FT_BYTES, 0, UAL_FB_NONE, NULL, "docs/capture-format.md, ualink/core/udp.h") \
  X(UDP_TYPE, "Type", "ualink.udp.type", UAL_FT_UINT, 1, UAL_FB_HEX, NULL, "0x81: export header, version 1") \
  X(UDP_LEN, "Header length", "ualink.udp.len", UAL_FT_UINT, 1, UAL_FB_DEC, NULL, NULL) \
  X(UDP_SEQ, "Sequence number", "ualink.udp.seq", UAL_FT_UINT, 4, UAL_FB_DEC, NULL, "The sender's datagrams numbered from 0") \
  X(UDP_LOST, "Datagrams lost before", "ualink.udp.lost", UAL_FT_UINT, 8, UAL_FB_DEC, NULL, "Missing from the sequence before this datagram (in frame order)")

/* The expert fields after them: ualink.rule.<ID> for every rule, then these. */
#define UAL_FILTER_UALINK_EXPERT(X) \
  X(MALFORMED, "Malformed capture record", "ualink.malformed") \
  X(HDR_RESERVED, "Reserved record header bits set", "ualink.rec.reserved_set") \
  X(DROPPED, "More findings than one record holds", "ualink.findings_dropped") \
  X(UDP_LOST_BEFORE, "Datagrams of the UDP export lost before this one: the analysis starts over", "ualink.udp.lost_before")

/* Indexes into ual_filter_ualink_fields: the protocol, the fields above,
 * the rules' expert fields, the fixed expert fields. */
enum ual_fu {
  UAL_FU_PROTO,
#define UAL_X_(id, ...) UAL_FU_##id,
  UAL_FILTER_UALINK_FIELDS(UAL_X_)
#undef UAL_X_
  UAL_FU_RULE_FIRST,
  UAL_FU_MALFORMED = UAL_FU_RULE_FIRST + UAL_R_COUNT,
  UAL_FU_HDR_RESERVED,
  UAL_FU_DROPPED,
  UAL_FU_UDP_LOST_BEFORE,
  UAL_FU_COUNT
};

extern const struct ual_value_name ual_vals_lt_state[], ual_vals_tev_kind[], ual_vals_neg_outcome[];
extern const struct ual_filter_field ual_filter_ualink_fields[UAL_FU_COUNT];

#define UAL_FILTER_MAX_RELEASED 128

/* struct ual_filter_record.state for UALink records, filled by the caller
 * around ual_analyzer_step: ual_filter_ualink_begin before it, and
 * ual_filter_ualink_delivered as the events' delivered callback (ctx =
 * this struct) so that flits released by a replay are seen. */
struct ual_filter_ualink {
  const struct ual_analyzer *an;      /* after the step; NULL: not analysed */
  const struct ual_events *ev;        /* the step's timeline events */
  uint64_t frame;
  uint16_t n_tl, n_msg;               /* released by a replay in this record */
  struct ual_tl_flit tl[UAL_FILTER_MAX_RELEASED];
  struct ual_dl_item msg[UAL_FILTER_MAX_RELEASED];
  /* The UDP export's header the record came in (ualink.udp), NULL when it
   * came in none; and the datagrams the receiver found missing before it
   * (ualink.udp.lost and ualink.udp.lost_before, with lost_mark: the
   * record follows lost datagrams), as the plugin shows them. */
  const uint8_t *udp_hdr;
  uint8_t udp_hlen, lost_mark;
  uint64_t udp_lost;
};

/* Whether f reads the bytes of TL flits (ualink.tl.data): without it the
 * analyzer need not copy them (struct ual_analyzer.no_tl_bytes). */
struct ual_filter;
bool ual_filter_ualink_tl_bytes(const struct ual_filter *f);

void ual_filter_ualink_begin(struct ual_filter_ualink *s, uint64_t frame);
void ual_filter_ualink_delivered(void *ctx, unsigned dir, uint64_t flit_frame, const struct ual_unpack_out *u);

#endif
