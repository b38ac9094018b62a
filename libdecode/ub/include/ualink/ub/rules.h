/* The UB data link conformance rules (docs/rules.md, digest ub-dl.md §6).
 * A pure X-macro list with no includes, registered in core/fabrics.h. */
#ifndef UALINK_UB_RULES_H
#define UALINK_UB_RULES_H

/* The rules below whose check is a CRC, FEC or checksum over the bits,
 * X(enum suffix) (core/fabrics.h). */
#define UAL_UB_CHECKSUM_RULES(X) X(UB_FEC_UNCORRECTABLE) X(UB_BCRC)

/* X(enum suffix, "ID", severity, "what") */
#define UAL_UB_RULES(X) \
  X(UB_FLIT_SIZE,        "UB-FLIT-SIZE",        ERROR,   "UB flit record body is not 20 bytes") \
  X(UB_FEC_UNCORRECTABLE,"UB-FEC-UNCORRECTABLE",INFO,    "FEC reported the codeword uncorrectable; a Retry_Req_Set is expected") \
  X(UB_BCRC,             "UB-BCRC",             ERROR,   "BCRC CRC30 mismatch") \
  X(UB_BCRC_RSVD,        "UB-BCRC-RSVD",        WARNING, "BCRC bit 31 or END reserved bits set") \
  X(UB_ERROR_FLAG,       "UB-ERROR-FLAG",       INFO,    "ERROR_FLAG set: packet delivered, dropped upstream, not retried") \
  X(UB_ERROR_FLAG_POS,   "UB-ERROR-FLAG-POS",   WARNING, "ERROR_FLAG set on a non-last DLLDB or on a DLLCB") \
  X(UB_CFG_RESERVED,     "UB-CFG-RESERVED",     ERROR,   "reserved CFG value") \
  X(UB_LCH_FIXED,        "UB-LCH-FIXED",        ERROR,   "LCH fixed bits wrong") \
  X(UB_DLLCB_TYPE,       "UB-DLLCB-TYPE",       ERROR,   "unknown DLLCB CTRL/SUB_CTRL") \
  X(UB_DLLCB_LENGTH,     "UB-DLLCB-LENGTH",     ERROR,   "CLENGTH wrong for the DLLCB type") \
  X(UB_DLLCB_IN_DLLDB,   "UB-DLLCB-IN-DLLDB",   ERROR,   "a DLLCB starts inside a DLLDB") \
  X(UB_PLENGTH_RSVD,     "UB-PLENGTH-RSVD",     ERROR,   "reserved PLENGTH end code for the mode") \
  X(UB_PLENGTH_FIT,      "UB-PLENGTH-FIT",      ERROR,   "PLENGTH end code impossible for the DLLDP") \
  X(UB_PAD_NONZERO,      "UB-PAD-NONZERO",      WARNING, "padding after the payload not zero") \
  X(UB_RSVD,             "UB-RSVD",             WARNING, "reserved bit set in LPH/LBH/LCH/DLLCB") \
  X(UB_VL_MISMATCH,      "UB-VL-MISMATCH",      ERROR,   "LBH VL differs from the LPH VL") \
  X(UB_VL_ENABLE_GAP,    "UB-VL-ENABLE-GAP",    WARNING, "enabled VLs not numbered consecutively from VL0") \
  X(UB_VL_DISABLED,      "UB-VL-DISABLED",      ERROR,   "DLLDP or credit return on a VL not enabled") \
  X(UB_DLLDP_EARLY,      "UB-DLLDP-EARLY",      ERROR,   "DLLDP from a side not in DLL_Normal") \
  X(UB_STATE_ORDER,      "UB-STATE-ORDER",      ERROR,   "Init Block or initial Crd_Ack after DLL_Normal") \
  X(UB_INIT_BEFORE_ACK,  "UB-INIT-BEFORE-ACK",  WARNING, "Init Block before the side received a Retry_Ack_Set") \
  X(UB_INIT_VL0,         "UB-INIT-VL0",         ERROR,   "VL_ENABLE without VL0") \
  X(UB_INIT_FEATURE,     "UB-INIT-FEATURE",     WARNING, "FEATURE_ID is not 1") \
  X(UB_NEGOTIATION_DEFAULT,"UB-NEGOTIATION-DEFAULT",INFO,"a parameter had no common value: its default is used") \
  X(UB_CREDIT_UNDERFLOW, "UB-CREDIT-UNDERFLOW", ERROR,   "DLLDP sent without enough credit cells on its VL") \
  X(UB_CREDIT_OVERFLOW,  "UB-CREDIT-OVERFLOW",  ERROR,   "credit returns above the initial credit") \
  X(UB_CREDIT_MAX,       "UB-CREDIT-MAX",       ERROR,   "initial credits over all VLs above 65535 cells") \
  X(UB_CREDIT_RETURN_TIMEOUT,"UB-CREDIT-RETURN-TIMEOUT",WARNING,"credits not returned within the window") \
  X(UB_CRDACK_THRESHOLD, "UB-CRDACK-THRESHOLD", INFO,    "pending credits over the threshold without a Crd_Ack") \
  X(UB_MIN_INTERVAL,     "UB-MIN-INTERVAL",     WARNING, "DLLDPs closer than the receiver's PACKET_MIN_INTERVAL") \
  X(UB_RETRY_SET_SHORT,  "UB-RETRY-SET-SHORT",  ERROR,   "retry set is not Retry_Idle + 32 Retry_Req/Retry_Ack") \
  X(UB_RETRY_SET_FIELDS, "UB-RETRY-SET-FIELDS", WARNING, "the blocks of one retry set differ in their fields") \
  X(UB_RETRY_REQ,        "UB-RETRY-REQ",        INFO,    "Retry_Req_Set") \
  X(UB_RETRY_REQ_MISSING,"UB-RETRY-REQ-MISSING",WARNING, "error without a Retry_Req_Set back in the window") \
  X(UB_RETRY_ACK_PTR,    "UB-RETRY-ACK-PTR",    ERROR,   "Retry_Ack RdPtr differs from the RcvPtr requested") \
  X(UB_REPLAY_START,     "UB-REPLAY-START",     ERROR,   "replay does not start with the stored flit at RcvPtr") \
  X(UB_REPLAY_CONTENT,   "UB-REPLAY-CONTENT",   ERROR,   "a replayed flit differs from the original") \
  X(UB_REPLAY_COUNT,     "UB-REPLAY-COUNT",     WARNING, "replayed flits differ from (WrPtr-RdPtr) mod DEPTH") \
  X(UB_ACK_STATE_SEND,   "UB-ACK-STATE-SEND",   ERROR,   "new block before the replay ended") \
  X(UB_RETRY_ACK_TIMEOUT,"UB-RETRY-ACK-TIMEOUT",WARNING, "Retry_Req_Set repeated for one error") \
  X(UB_NUM_RETRY_SEQ,    "UB-NUM-RETRY-SEQ",    WARNING, "NUM_RETRY not +1 per repeat, or over the threshold") \
  X(UB_RETRAIN,          "UB-RETRAIN",          INFO,    "NUM_RETRY threshold reached: PHY retrain") \
  X(UB_RETRY_ERROR,      "UB-RETRY-ERROR",      ERROR,   "NUM_PHY_REINIT threshold reached: ERROR") \
  X(UB_ACK_OVERFLOW,     "UB-ACK-OVERFLOW",     ERROR,   "ACK frees more flits than outstanding") \
  X(UB_RETRY_BUF_FULL,   "UB-RETRY-BUF-FULL",   ERROR,   "un-ACKed flits above the sender's RETRY_BUF_DEPTH") \
  X(UB_LOCKOUT,          "UB-LOCKOUT",          INFO,    "retry buffer nearly full: DLLDPs before a Crd_Ack") \
  X(UB_DISCARDED,        "UB-DISCARDED",        INFO,    "block discarded after an error, before the Retry_Ack_Set") \
  X(UB_MODECHG_ORDER,    "UB-MODECHG-ORDER",    ERROR,   "mode change: not Crd_Ack/ACK after REQ, or ACK before REQ") \
  X(UB_MODECHG_SILENT,   "UB-MODECHG-SILENT",   ERROR,   "blocks after own mode change ACK, before the retrain") \
  X(UB_MODECHG_TYPE,     "UB-MODECHG-TYPE",     ERROR,   "Block_Mode_Chg TYPE not REQ or ACK") \
  X(UB_MODE_NOFEC,       "UB-MODE-NOFEC",       ERROR,   "non-CRC traffic while the capture reports FEC bypass") \
  X(UB_LANE_CMD,         "UB-LANE-CMD",         ERROR,   "Lane_Manage REQ_ID/RSP_ID or TLW/RLW invalid") \
  X(UB_LINKDOWN_MIDPACKET,"UB-LINKDOWN-MIDPACKET",INFO,  "LinkUp 0 in the middle of a DLLDP")

#endif
