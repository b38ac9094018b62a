/* The UALink conformance rules (docs/rules.md): PL- physical layer, RP-
 * replay, DL- data link, DM- DL messages, LT- link training and power, AN-
 * the analysis itself.
 * A pure X-macro list with no includes, registered in core/fabrics.h; the
 * order is the order of every rule listing (--stats, TUI, Wireshark). */
#ifndef UALINK_UALINK_RULES_H
#define UALINK_UALINK_RULES_H

/* The rules below whose check is a CRC, FEC or checksum over the bits,
 * X(enum suffix) (core/fabrics.h). */
#define UAL_UALINK_CHECKSUM_RULES(X) X(PL_CRC) X(PL_CRC_INVERTED) X(PL_FEC_CORRECTED) X(PL_FEC_UNCORRECTABLE)

/* X(enum suffix, "ID", severity, "what") */
#define UAL_UALINK_RULES(X) \
  X(PL_CRC,              "PL-CRC",              ERROR,   "CRC-64 mismatch after FEC correction") \
  X(PL_CRC_INVERTED,     "PL-CRC-INVERTED",     ERROR,   "CRC is the bitwise inverse of the computed one (containment)") \
  X(PL_FEC_CORRECTED,    "PL-FEC-CORRECTED",    INFO,    "FEC corrected one or more bytes") \
  X(PL_FEC_UNCORRECTABLE,"PL-FEC-UNCORRECTABLE",ERROR,   "a FEC group is uncorrectable") \
  X(PL_USAGE,            "PL-USAGE",            ERROR,   "reserved Flit Usage encoding") \
  X(PL_SEQ_ZERO,         "PL-SEQ-ZERO",         ERROR,   "payload flit with explicit sequence number 0") \
  X(PL_IDLE_BODY,        "PL-IDLE-BODY",        ERROR,   "IDLE flit with non-zero body or a DLLP other than NOP2/NOP") \
  X(PL_NOP_DLLP,         "PL-NOP-DLLP",         ERROR,   "DLLP type not allowed in a NOP/IDLE flit, or non-zero bytes in NOP2") \
  X(PL_NOP_BODY,         "PL-NOP-BODY",         WARNING, "NOP flit with non-zero bytes after the DLLP") \
  X(RP_SEQ_GAP,          "RP-SEQ-GAP",          ERROR,   "sequence number ahead of the expected one: flits lost without a Nak") \
  X(RP_DUPLICATE,        "RP-DUPLICATE",        INFO,    "payload flit already delivered: discarded") \
  X(RP_NAK,              "RP-NAK",              INFO,    "Nak received") \
  X(RP_REPLAY,           "RP-REPLAY",           INFO,    "transmitter replays") \
  X(RP_REPLAY_WRONG_START,"RP-REPLAY-WRONG-START",ERROR, "replay does not start where the Nak asked") \
  X(RP_ACK_AHEAD,        "RP-ACK-AHEAD",        ERROR,   "Ack/Nak for a sequence number never sent") \
  X(RP_UNACKED_LIMIT,    "RP-UNACKED-LIMIT",    ERROR,   "more than 511 payload flits unacknowledged") \
  X(RP_ACK_TIMEOUT,      "RP-ACK-TIMEOUT",      WARNING, "1500 flit times without Ack progress") \
  X(RP_EXPLICIT_GROUP,   "RP-EXPLICIT-GROUP",   WARNING, "explicit sequence numbers not sent in groups of 3") \
  X(DL_SH_RESERVED,      "DL-SH-RESERVED",      WARNING, "segment header reserved bit set") \
  X(DL_TLBEAT,           "DL-TLBEAT",           ERROR,   "invalid TLBeat code") \
  X(DL_TL_NO_ROOM,       "DL-TL-NO-ROOM",       ERROR,   "TLBeat starts a TL flit but no unallocated sector is left") \
  X(DL_ZERO_FILL,        "DL-ZERO-FILL",        ERROR,   "unallocated sectors not zero") \
  X(DL_CH0_OFFLINE,      "DL-CH0-OFFLINE",      ERROR,   "TL flit data while channel 0 is offline") \
  X(DL_AFTER_CONTAIN,    "DL-AFTER-CONTAIN",    ERROR,   "new payload flits after a containment flit") \
  X(DL_TRUNCATED_TL,     "DL-TRUNCATED-TL",     WARNING, "TL flit partly received when the capture or link ended") \
  X(DL_PARTIAL_TL,       "DL-PARTIAL-TL",       INFO,    "TL flit sectors whose flit began before the capture: not unpacked") \
  X(DM_RESERVED,         "DM-RESERVED",         WARNING, "reserved bits set in a DL message") \
  X(DM_COMPRESSED,       "DM-COMPRESSED",       ERROR,   "Compressed bit set") \
  X(DM_UNKNOWN,          "DM-UNKNOWN",          ERROR,   "reserved mclass/mtype") \
  X(DM_FIELD,            "DM-FIELD",            ERROR,   "reserved encoding in a field") \
  X(DM_BASIC_OUTSTANDING,"DM-BASIC-OUTSTANDING",ERROR,   "second basic request of the same mtype before the first was answered") \
  X(DM_RESPONSE_LATE,    "DM-RESPONSE-LATE",    WARNING, "response later than 1.0 us plus one flit time") \
  X(DM_UNSOLICITED,      "DM-UNSOLICITED",      WARNING, "response with no matching request") \
  X(DM_CTRL_OUTSTANDING, "DM-CTRL-OUTSTANDING", ERROR,   "control request while a request of that mclass is outstanding") \
  X(DM_CTRL_PENDING_ILLEGAL,"DM-CTRL-PENDING-ILLEGAL",ERROR,"Decision Pending from a partner with its own request outstanding") \
  X(DM_CTRL_PENDING_TIMEOUT,"DM-CTRL-PENDING-TIMEOUT",ERROR,"no request within 10 ms after Decision Pending") \
  X(DM_CTRL_INITIATOR,   "DM-CTRL-INITIATOR",   ERROR,   "a switch requested a change without having sent Decision Pending") \
  X(DM_CTRL_RESPONSE_RULE,"DM-CTRL-RESPONSE-RULE",ERROR, "Ack/Nack contradicts the response rules") \
  X(DM_CTRL_RESOLUTION,  "DM-CTRL-RESOLUTION",  ERROR,   "conflict resolved against the resolution function") \
  X(DM_CTRL_ECHO,        "DM-CTRL-ECHO",        ERROR,   "Response/TargetState fields not as the Command requires") \
  X(DM_CTRL_SAME_STATE,  "DM-CTRL-SAME-STATE",  WARNING, "request for the current state") \
  X(DM_CTRL_NO_CONFIRM,  "DM-CTRL-NO-CONFIRM",  ERROR,   "negotiation Acked but never confirmed") \
  X(DM_CTRL_LOSER_RETRY, "DM-CTRL-LOSER-RETRY", WARNING, "loser requests again without a new reason") \
  X(DM_UART_CH4_OFFLINE, "DM-UART-CH4-OFFLINE", ERROR,   "UART message while channel 4 is offline") \
  X(DM_UART_INTERLEAVE,  "DM-UART-INTERLEAVE",  ERROR,   "DL message between the DWords of a UART Stream Transport") \
  X(DM_UART_CREDIT,      "DM-UART-CREDIT",      ERROR,   "transport payload exceeds the credits granted") \
  X(DM_UART_RESET_NOOPS, "DM-UART-RESET-NOOPS", ERROR,   "Stream Reset Request not preceded by 40 No-Ops") \
  X(DM_UART_RESET_TIMEOUT,"DM-UART-RESET-TIMEOUT",WARNING,"no successful Reset Response within 10 ms") \
  X(DM_RATE_RANGE,       "DM-RATE-RANGE",       WARNING, "TL rate outside 2000..40000") \
  X(DM_NOOP_CONTEXT,     "DM-NOOP-CONTEXT",     WARNING, "No-Op outside a run of 40 before a Stream Reset Request") \
  X(DM_ID_FIELD,         "DM-ID-FIELD",         WARNING, "Valid = 0 but a non-zero ID/Port field") \
  X(DM_RATE_SEQUENCE,    "DM-RATE-SEQUENCE",    WARNING, "rate change not passing through the reference rate 2000") \
  X(DM_RATE_SWITCH,      "DM-RATE-SWITCH",      ERROR,   "a switch sent a TL Rate Notification request") \
  X(LT_NO_FLIT_MODE,     "LT-NO-FLIT-MODE",     ERROR,   "training sets without Flit Mode Supported") \
  X(LT_NO_ALT_PROTOCOL,  "LT-NO-ALT-PROTOCOL",  WARNING, "L0 without UALink alternate protocol negotiation") \
  X(LT_SPEED_BEFORE_DL,  "LT-SPEED-BEFORE-DL",  ERROR,   "data rate above 2.5 GT/s without a DL Link Speed negotiation") \
  X(LT_EQ_CH0_ONLINE,    "LT-EQ-CH0-ONLINE",    WARNING, "equalization while channel 0 is online") \
  X(LT_L1_ORDER,         "LT-L1-ORDER",         ERROR,   "Link State L1 requested before channels 0 and 4 are offline") \
  X(LT_L1_DLLP_ROLE,     "LT-L1-DLLP-ROLE",     ERROR,   "L1 DLLP from the wrong port or out of order") \
  X(LT_PAYLOAD_IN_L1,    "LT-PAYLOAD-IN-L1",    ERROR,   "new payload flits after the L1 negotiation completed") \
  X(LT_UNSUPPORTED_PM,   "LT-UNSUPPORTED-PM",   ERROR,   "L0s / L2 / ASPM DLLP") \
  X(LT_L0P_WITHOUT_DL,   "LT-L0P-WITHOUT-DL",   ERROR,   "L0p request without a completed DL Link Width negotiation") \
  X(LT_L0P_PRIORITY,     "LT-L0P-PRIORITY",     WARNING, "L0p Link Management DLLP with Priority set") \
  X(LT_L0P_INITIATOR,    "LT-L0P-INITIATOR",    ERROR,   "L0p request from a switch") \
  X(LT_EXIT_L1_CONTENT,  "LT-EXIT-L1-CONTENT",  ERROR,   "TL flits or UART sectors after L1 exit before channels are online") \
  X(AN_SYNC,             "AN-SYNC",             INFO,    "a direction's analysis is synchronized: TL flit and DL message boundaries known")

#endif
