/* The PCIe DLLP, flit-mode TLP and non-flit packet conformance rules
 * (docs/rules.md, digest pcie.md §2.4, §3.6, §4, §7.7).
 * A pure X-macro list with no includes, registered in core/fabrics.h. */
#ifndef UALINK_PCIE_RULES_H
#define UALINK_PCIE_RULES_H

/* The rules below whose check is a CRC, FEC or checksum over the bits,
 * X(enum suffix) (core/fabrics.h). */
#define UAL_PCIE_CHECKSUM_RULES(X) X(PD_CRC) X(PN_STP_CHECK) X(PN_LCRC) X(PN_NULLIFIED_BAD) X(PN_ECRC)

/* X(enum suffix, "ID", severity, "what") */
#define UAL_PCIE_RULES(X) \
  X(PD_CRC,             "PD-CRC",             ERROR,   "DLLP CRC-16 of bytes 0-3 differs from bytes 4-5: DLLP discarded") \
  X(PD_TYPE,            "PD-TYPE",            ERROR,   "reserved DLLP type code") \
  X(PD_RESERVED,        "PD-RESERVED",        WARNING, "non-zero reserved bits in a DLLP") \
  X(PD_RECORD,          "PD-RECORD",          WARNING, "kind-4 record with a non-zero reserved byte 1 or an undefined framing byte 0") \
  X(PD_FC_ORDER,        "PD-FC-ORDER",        ERROR,   "FC DLLP out of order: InitFC2 before all InitFC1, UpdateFC before InitFC2, or InitFC after UpdateFC") \
  X(PD_FC_INIT_CHANGED, "PD-FC-INIT-CHANGED", ERROR,   "InitFC1/InitFC2 of one class and VC carry different credit or scale values") \
  X(PD_FC_BACKWARDS,    "PD-FC-BACKWARDS",    ERROR,   "UpdateFC credits decrease modulo the field width") \
  X(PD_FC_INFINITE,     "PD-FC-INFINITE",     WARNING, "non-zero UpdateFC value for credits advertised infinite") \
  X(PD_FC_SCALE,        "PD-FC-SCALE",        WARNING, "UpdateFC scale differs from InitFC, or scale 10b/11b without both sides advertising scaling") \
  X(PD_ACK_BACKWARDS,   "PD-ACK-BACKWARDS",   ERROR,   "Ack/Nak sequence number moves backwards modulo 4096") \
  X(PD_NAK,             "PD-NAK",             INFO,    "Nak received") \
  X(PD_PM_ORDER,        "PD-PM-ORDER",        ERROR,   "PM_Request_Ack without a preceding PM request from the other side, or a PM DLLP sent by the wrong role") \
  X(PF_SYNC,            "PF-SYNC",            INFO,    "flit-mode TLP alignment found after the capture start or a gap") \
  X(PF_NOP_NONZERO,     "PF-NOP-NONZERO",     WARNING, "NOP TLP with bits besides Type set") \
  X(PF_RSVD_TYPE,       "PF-RSVD-TYPE",       WARNING, "TLP with a reserved Type code (sized from the Type table)") \
  X(PF_OHC_MISSING,     "PF-OHC-MISSING",     ERROR,   "configuration request without OHC-A3 or IO request without OHC-A2") \
  X(PF_TS_IDE,          "PF-TS-IDE",          WARNING, "TS 101b/110b on a TLP without OHC-C") \
  X(PF_SUBSTREAM,       "PF-SUBSTREAM",       WARNING, "OHC-C Sub-Stream 011b-110b (undefined)") \
  X(PF_CPL_RSV,         "PF-CPL-RSV",         ERROR,   "completion whose OHC-C has RSV = 1") \
  X(PS_TO_TAG_UNIQUE,   "PS-TO-TAG-UNIQUE",   ERROR,   "Root Port sent a non-posted request whose Requester ID and Tag are already outstanding") \
  X(PS_TO_REQUIRED,     "PS-TO-REQUIRED",     ERROR,   "the RC passed a non-posted memory request through to a Root Port whose No NFM Subtree Below is clear (profile) instead of taking it over") \
  X(PS_TO_RESTORE,      "PS-TO-RESTORE",      ERROR,   "the RC sent a taken-over request's completion to its requester without the original Requester ID and Tag") \
  X(PS_TO_EGRESS_RSEG,  "PS-TO-EGRESS-RSEG",  ERROR,   "the RC took a request over with a Requester Segment other than the egress Root Port's") \
  X(PS_PT_ADD_RSEG,     "PS-PT-ADD-RSEG",     ERROR,   "the RC passed a non-posted or UIO memory request received without OHC-C through without the ingress Root Port's Requester Segment") \
  X(PS_PT_CPL_ROUTE,    "PS-PT-CPL-ROUTE",    ERROR,   "the RC sent a passed-through completion with DSV = 1 down a Root Port of another hierarchy segment than its Destination Segment") \
  X(PS_PT_CPL_KEEP,     "PS-PT-CPL-KEEP",     ERROR,   "the RC changed the Requester ID, Tag or OHC-A5 of a passed-through completion") \
  X(PS_SW_FM_KEEP,      "PS-SW-FM-KEEP",      ERROR,   "a switch between flit-mode links changed, added or removed a Segment field, DSV or RSV of a forwarded TLP") \
  X(PS_SW_DSEG_UP,      "PS-SW-DSEG-UP",      ERROR,   "a switch with Segment Captured Set forwarded a completion or ID-routed message whose Destination Segment is not its own down a downstream port") \
  X(PS_SW_DSP_BLOCK,    "PS-SW-DSP-BLOCK",    ERROR,   "a switch with Segment Captured Set forwarded a memory or message request from a downstream port whose Requester Segment is not its own") \
  X(PS_SW_CLEAR_DSV,    "PS-SW-CLEAR-DSV",    ERROR,   "a switch with Segment Captured Clear forwarded a completion or ID-routed message with DSV = 1") \
  X(PS_SW_CLEAR_RSEG,   "PS-SW-CLEAR-RSEG",   ERROR,   "a switch with Segment Captured Clear forwarded a memory or message request with a Requester Segment") \
  X(PS_RP_RSEG_MISMATCH,"PS-RP-RSEG-MISMATCH",ERROR,   "non-posted request up to the Root Port with a Requester Segment not the Root Port's, not completed UR") \
  X(PS_REQ_RSEG_VALUE,  "PS-REQ-RSEG-VALUE",  ERROR,   "request with a Requester Segment other than the requester's captured segment") \
  X(PS_REQ_CLEAR_NOC,   "PS-REQ-CLEAR-NOC",   ERROR,   "requester with Segment Captured Clear sent a non-IDE memory or message request with OHC-C") \
  X(PS_REQ_MSG_RSEG,    "PS-REQ-MSG-RSEG",    ERROR,   "requester with Segment Captured Set sent a message request without OHC-C Requester Segment (RSV = 1)") \
  X(PS_REQ_ID_DSV_CLEAR,"PS-REQ-ID-DSV-CLEAR",ERROR,   "requester with Segment Captured Clear sent an ID-routed message with DSV = 1") \
  X(PS_REQ_ID_DSV_SET,  "PS-REQ-ID-DSV-SET",  ERROR,   "requester with Segment Captured Set sent an ID-routed message to a function of another hierarchy (profile) without OHC-A4 DSV = 1 and its segment") \
  X(PS_CPL_SEG_CLEAR,   "PS-CPL-SEG-CLEAR",   ERROR,   "completer with Segment Captured Clear sent OHC-A5 with a Completer Segment other than 00h") \
  X(PS_CPL_SEG_SET,     "PS-CPL-SEG-SET",     ERROR,   "completer with Segment Captured Set sent OHC-A5 with a Completer Segment other than its captured segment") \
  X(PS_CPL_CFG,         "PS-CPL-CFG",         ERROR,   "completion of a configuration request with OHC-A5 DSV = 1 or Destination Segment other than 00h") \
  X(PS_CPL_DSEG_NONE,   "PS-CPL-DSEG-NONE",   ERROR,   "completion of a request without Requester Segment with OHC-A5 DSV = 1 or Destination Segment other than 00h") \
  X(PS_CPL_DSEG_COPY,   "PS-CPL-DSEG-COPY",   ERROR,   "completion of a request with Requester Segment whose OHC-A5 has DSV = 0 or a Destination Segment other than it") \
  X(PS_CPL_A5_CROSS,    "PS-CPL-A5-CROSS",    ERROR,   "completion without OHC-A5 of a memory request whose Requester Segment is not the completer's captured segment") \
  X(PS_CPL_A5_OMIT,     "PS-CPL-A5-OMIT",     ERROR,   "completion without OHC-A5 where it may not be omitted (completer Clear, Lower Address[1:0] not 00b, Selective IDE)") \
  X(PN_REC_TRUNC,       "PN-REC-TRUNC",       INFO,    "kind-7 record marked truncated: decoded as far as it goes, no size, LCRC, ECRC or end finding") \
  X(PN_FRAME_END,       "PN-FRAME-END",       ERROR,   "8b/10b: start symbol not STP/SDP, TLP not ending in END/EDB, DLLP not ending in END") \
  X(PN_FRAME_SHORT,     "PN-FRAME-SHORT",     ERROR,   "packet too short or DLLP of the wrong size (8b/10b TLP < 18 symbols between STP and END/EDB, DLLP frame != 8; 128b/130b SDP n != 8; stripped DLLP n != 6, TLP n < 18)") \
  X(PN_STP_CHECK,       "PN-STP-CHECK",       ERROR,   "128b/130b STP token: Frame CRC or Frame Parity wrong (Framing Error)") \
  X(PN_STP_LENGTH,      "PN-STP-LENGTH",      ERROR,   "128b/130b STP token: TLP Length 0, 2-4 or 1152-1535, or the record neither 4*L nor 4*L + 4 bytes") \
  X(PN_STP_PMUX,        "PN-STP-PMUX",        WARNING, "128b/130b STP token: TLP Length > 1535, a PMUX packet: not decoded") \
  X(PN_TOKEN,           "PN-TOKEN",           ERROR,   "128b/130b: first byte neither SDP nor STP, an EDS-shaped STP (L = 1), SDP byte 1 != ACh, or an EDB tail other than C0 C0 C0 C0") \
  X(PN_SEQ_RESERVED,    "PN-SEQ-RESERVED",    WARNING, "the 4 bits before Seq[11:8] are not 0000b (8b/10b, stripped)") \
  X(PN_LCRC,            "PN-LCRC",            ERROR,   "LCRC differs from the computed one and is no valid nullification: Bad TLP") \
  X(PN_NULLIFIED,       "PN-NULLIFIED",       INFO,    "nullified TLP (EDB and the inverted LCRC): discarded, its sequence number comes again") \
  X(PN_NULLIFIED_BAD,   "PN-NULLIFIED-BAD",   ERROR,   "EDB but the LCRC is not the inverse of the computed one: Bad TLP") \
  X(PN_TLP_TYPE,        "PN-TLP-TYPE",        ERROR,   "reserved Fmt/Type (Fmt 101b-111b, Msg with a 3-DW Fmt, ...), reserved prefix type, or FlitModePrefix in non-flit mode: Malformed") \
  X(PN_TLP_DEPRECATED,  "PN-TLP-DEPRECATED",  WARNING, "TCfgRd (1Bh), a deprecated Fmt/Type") \
  X(PN_TLP_SIZE,        "PN-TLP-SIZE",        ERROR,   "the size from prefixes, Fmt, Length and TD differs from the framed TLP: Malformed") \
  X(PN_TLP_PREFIX,      "PN-TLP-PREFIX",      ERROR,   "TLP prefix without a header, local prefix after an end-end one, more than 4 end-end prefixes or more than one PASID prefix") \
  X(PN_TLP_RESERVED,    "PN-TLP-RESERVED",    WARNING, "a reserved TLP header bit or field is not zero") \
  X(PN_TLP_AT,          "PN-TLP-AT",          INFO,    "AT not 00b on a TLP that is not a memory request, or AT = 11b") \
  X(PN_TLP_IOCFG,       "PN-TLP-IOCFG",       ERROR,   "IO or configuration request with TC != 0, Attr[1:0] != 0, Length != 1 or Last DW BE != 0") \
  X(PN_TLP_BE,          "PN-TLP-BE",          ERROR,   "byte enables break the rules for the request's Length and alignment") \
  X(PN_TLP_4KB,         "PN-TLP-4KB",         ERROR,   "memory request crosses a 4-KB boundary") \
  X(PN_TLP_ATOMIC,      "PN-TLP-ATOMIC",      ERROR,   "AtomicOp with a Length not architected or an address not aligned to its operand size") \
  X(PN_TLP_ADDR64,      "PN-TLP-ADDR64",      WARNING, "4-DW memory request with Address[63:32] = 0") \
  X(PN_POISONED,        "PN-POISONED",        INFO,    "poisoned TLP: EP = 1 on a TLP with data") \
  X(PN_ECRC,            "PN-ECRC",            ERROR,   "TLP digest differs from the ECRC computed") \
  X(PN_MSG_TC,          "PN-MSG-TC",          ERROR,   "message that must use TC0 sent with another TC: Malformed") \
  X(PN_MSG_FORM,        "PN-MSG-FORM",        ERROR,   "message code with the wrong form (Msg or MsgD, or Length not the fixed value)") \
  X(PN_MSG_CODE,        "PN-MSG-CODE",        WARNING, "undefined message code, or a routing the code does not allow (r = 001b, 110b, 111b among them)") \
  X(PN_MSG_INTX,        "PN-MSG-INTX",        ERROR,   "Assert/Deassert_INTx with a Function Number other than 0, or sent downstream") \
  X(PN_MSG_DIR,         "PN-MSG-DIR",         ERROR,   "message routed to the Root Complex sent downstream, or a broadcast from the Root Complex sent upstream") \
  X(PN_CPL_UR,          "PN-CPL-UR",          WARNING, "completion status Unsupported Request") \
  X(PN_CPL_CA,          "PN-CPL-CA",          WARNING, "completion status Completer Abort") \
  X(PN_CPL_RRS,         "PN-CPL-RRS",         INFO,    "completion status Request Retry Status") \
  X(PN_CPL_STATUS_RSVD, "PN-CPL-STATUS-RSVD", ERROR,   "reserved completion status (handled as Unsupported Request)") \
  X(PN_CPL_BCM,         "PN-CPL-BCM",         WARNING, "BCM set on a completion (never by a PCIe completer)") \
  X(PN_CPL_FORM,        "PN-CPL-FORM",        ERROR,   "completion with a status other than SC carries data (CplD/CplDLk)") \
  UAL_PCIE_NF_DL_RULES(X)

/* Non-flit data link and transaction state (pcie.md §7.5-§7.7, nfdl.c, nftx.c) */
#define UAL_PCIE_NF_DL_RULES(X) \
  X(PN_SYNC,            "PN-SYNC",            INFO,    "non-flit DL tracker of a direction synchronized (first good TLP), or a DL initialization seen (VC0 InitFC1)") \
  X(PN_SEQ_GAP,         "PN-SEQ-GAP",         ERROR,   "new TLP skips sequence numbers not explained by bad or unknown TLPs") \
  X(PN_REPLAY,          "PN-REPLAY",          INFO,    "a replay starts (cause Nak or timer)") \
  X(PN_REPLAY_START,    "PN-REPLAY-START",    ERROR,   "the first TLP of a replay comes after the oldest unacknowledged one") \
  X(PN_REPLAY_ORDER,    "PN-REPLAY-ORDER",    ERROR,   "during a replay a step back or a skip over an unacknowledged TLP, or a new TLP before the replay reached the newest") \
  X(PN_NAK_NO_REPLAY,   "PN-NAK-NO-REPLAY",   ERROR,   "after a Nak with TLPs outstanding, more than --nak-new-tlps new TLPs before the replay") \
  X(PN_REPLAY_DIFFERS,  "PN-REPLAY-DIFFERS",  ERROR,   "retransmitted TLP (sequence bytes, TLP, LCRC) differs from its first transmission") \
  X(PN_ACK_AHEAD,       "PN-ACK-AHEAD",       ERROR,   "Ack/Nak for a sequence number the partner has not sent") \
  X(PN_OUTSTANDING,     "PN-OUTSTANDING",     ERROR,   "new TLP with more than 2047 unacknowledged") \
  X(PN_NO_NAK,          "PN-NO-NAK",          WARNING, "a bad or out-of-sequence TLP was answered by an Ack, not a Nak") \
  X(PN_ACK_LATENCY,     "PN-ACK-LATENCY",     WARNING, "Ack later than the Ack Latency Limit") \
  X(PN_REPLAY_TIMEOUT,  "PN-REPLAY-TIMEOUT",  WARNING, "TLPs outstanding past the REPLAY_TIMER limit without Ack progress and without a replay") \
  X(PN_REPLAY_NUM,      "PN-REPLAY-NUM",      WARNING, "4th replay without Ack progress begins with no TS1/TS2 seen since the 2nd") \
  X(PN_PM_UNACKED,      "PN-PM-UNACKED",      ERROR,   "PM_Enter_L1, PM_Active_State_Request_L1 or PM_Request_Ack sent while the sender has unacknowledged TLPs") \
  X(PN_PM_L23_UNACKED,  "PN-PM-L23-UNACKED",  INFO,    "PM_Enter_L23 sent while the sender has unacknowledged TLPs (permitted right after PME_TO_Ack)") \
  X(PN_CPL_NO_REQUEST,  "PN-CPL-NO-REQUEST",  INFO,    "completion without a matching request while the link's window is open (the request may precede the capture)") \
  X(PN_CPL_UNEXPECTED,  "PN-CPL-UNEXPECTED",  WARNING, "completion without a matching outstanding request outside the window") \
  X(PN_CPL_MISMATCH,    "PN-CPL-MISMATCH",    ERROR,   "completion matches the Transaction ID but not the request (type, byte count, lower address, TC, Attr, data)") \
  X(PN_CPL_TIMEOUT,     "PN-CPL-TIMEOUT",     WARNING, "request seen but not completed within --cpl-timeout") \
  X(PN_REQ_TAG_REUSE,   "PN-REQ-TAG-REUSE",   ERROR,   "non-posted request reuses an outstanding Requester ID and Tag")

#endif
