/* The PCIe rows of the field table: the kind-4 record body (non-flit DLLP,
 * digest pcie.md §1 [P1]) and the DLLP bytes by type (§2.2). Pure X-macro
 * lists with no includes, registered in core/fabrics.h.
 *
 * Every DLLP scope's base is DLLP byte 0 (the type), so the same rows
 * describe a flit-mode DLLP (4 bytes, no CRC-16) wherever it sits: UALink
 * NOP/IDLE flit bytes 2-5, PCIe flit DLP2-5. A flit-mode DLLP has its own
 * type row (00h is NOP2 there; Ack/Nak live in DLP0/1) and the Link
 * Management rows; its bytes 1-3 are the rows of its layout above. Bytes
 * 1-3 of the FC types are one big-endian 24-bit container W = b1<<16 |
 * b2<<8 | b3 (§2.2); the CRC-16 is little-endian (byte 4 = low byte of
 * the reflected register, §2.3). */
#ifndef UALINK_PCIE_FIELDS_H
#define UALINK_PCIE_FIELDS_H

#define UAL_PCIE_SCOPES(X) \
  X(PCIE_BODY)          /* kind-4 record body byte 0 */ \
  X(PCIE_DLLP)          /* DLLP byte 0: type and CRC-16 */ \
  X(PCIE_DLLP_ACK)      /* Ack / Nak */ \
  X(PCIE_DLLP_FC)       /* InitFC1 / InitFC2 / UpdateFC and the MR* FC types [P7] */ \
  X(PCIE_DLLP_PM)       /* PM_* (bytes 1-3 reserved) */ \
  X(PCIE_DLLP_RAW)      /* Vendor Specific, NOP, MRInit, Data_Link_Feature [P7]; flit mode: NOP2, reserved */ \
  X(PCIE_FDLLP)         /* flit-mode DLLP byte 0: type (4 bytes, no CRC-16) */ \
  X(PCIE_FDLLP_LM)      /* flit-mode Link Management DLLP (28h) */ \
  X(PCIE_TLP)           /* flit-mode TLP DW0 (TLP byte 0) */ \
  X(PCIE_TLP_NOP)       /* NOP TLP / 1-DW prefix: bytes 1-3 reserved */ \
  X(PCIE_TLP_REQ)       /* request DW1: Requester ID, EP, Tag [P15] */ \
  X(PCIE_TLP_A32)       /* 32-bit address (DW2) [P15] */ \
  X(PCIE_TLP_A64)       /* 64-bit address (DW2-3) [P15] */ \
  X(PCIE_TLP_CFG)       /* configuration request DW2 [P15] */ \
  X(PCIE_TLP_MSG)       /* message request DW1 [P15] */ \
  X(PCIE_TLP_CPL)       /* completion DW1-2 [P15] */ \
  X(PCIE_OHC_A1)        /* OHC words, base = the word's byte 0 [P14] */ \
  X(PCIE_OHC_A2) \
  X(PCIE_OHC_A3) \
  X(PCIE_OHC_A4) \
  X(PCIE_OHC_A5) \
  X(PCIE_OHC_B) \
  X(PCIE_OHC_C) \
  X(PCIE_NF_BODY)       /* kind-7 record body bytes 0-3 (pcie.md §7.1) */ \
  X(PCIE_NF_START)      /* 8b/10b start symbol (STP / SDP) */ \
  X(PCIE_NF_END)        /* 8b/10b end symbol (END / EDB) */ \
  X(PCIE_NF_SDPT)       /* 128b/130b SDP token */ \
  X(PCIE_NF_EDBT)       /* 128b/130b EDB token */ \
  X(PCIE_NF_STP)        /* 128b/130b STP token (§7.2.2) */ \
  X(PCIE_NF_SEQ)        /* 8b/10b and stripped: the two sequence bytes (§7.3.1) */ \
  X(PCIE_NF_LCRC)       /* the 4 LCRC bytes (§7.3.2 [P23]) */ \
  X(PCIE_NF_PREFIX)     /* a TLP prefix DW (§7.4.8) */ \
  X(PCIE_NF_DW0)        /* non-flit TLP DW0 (§7.4.2) */ \
  X(PCIE_NF_REQ)        /* request DW1: memory, IO, atomic, DMWr, config (§7.4.4) */ \
  X(PCIE_NF_A32)        /* 32-bit address DW2 */ \
  X(PCIE_NF_A64)        /* 64-bit address DW2-3 */ \
  X(PCIE_NF_CFG)        /* configuration request DW2 (§7.4.5) */ \
  X(PCIE_NF_CPL)        /* completion DW1-2 (§7.4.6) */ \
  X(PCIE_NF_MSG)        /* message DW1-3 (§7.4.7) */ \
  X(PCIE_NF_VDM)        /* vendor-defined message bytes 8-15 (§7.4.7) */ \
  X(PCIE_NF_ECRC)       /* the TLP digest (§7.4.9) */ \
  X(PCIE_GEN)           /* generated values */

/* Value-name lists ual_vals_<name>, defined in pcie/values.c. */
#define UAL_PCIE_VALUE_LISTS(X) X(pcie_framing) X(pcie_dllp_type) X(pcie_scale) X(pcie_fc_class) \
  X(pcie_fdllp_type) X(pcie_lm_type) X(pcie_lm_cmd) X(pcie_tlp_type) X(pcie_ts) X(pcie_cpl_status) X(pcie_substream) \
  X(pcie_link) X(pcie_nf_encoding) X(pcie_nf_class) X(pcie_k_symbol) X(pcie_nf_type) X(pcie_nf_at) \
  X(pcie_msg_code) X(pcie_lcrc) X(pcie_ecrc) X(pcie_nf_fmt)

#define UAL_PCIE_FIELDS(X) \
  X(PCIE_FRAMING,   UAL_SC_PCIE_BODY, "Framing",     "pcie.framing",       0, 1, UAL_LE, 0, 8, UAL_FF_ENUM, UAL_V_(pcie_framing), "pcie.md [P1]") \
  X(PCIE_BODY_RSVD, UAL_SC_PCIE_BODY, "Reserved",    "pcie.body_rsvd",     1, 1, UAL_LE, 0, 8, UAL_FF_RESERVED, NULL, "pcie.md [P1]") \
  X(PCIE_DLLP_TYPE, UAL_SC_PCIE_DLLP, "DLLP Type",   "pcie.dllp.type",     0, 1, UAL_LE, 0, 8, UAL_FF_HEX, UAL_V_(pcie_dllp_type), "pcie.md 2.2") \
  X(PCIE_DLLP_CRC,  UAL_SC_PCIE_DLLP, "CRC-16",      "pcie.dllp.crc",      4, 2, UAL_LE, 0, 16, UAL_FF_HEX, NULL, "pcie.md 2.3") \
  X(PCIE_ACK_RSVD1, UAL_SC_PCIE_DLLP_ACK, "Reserved", "pcie.dllp.ack_rsvd1", 1, 1, UAL_LE, 0, 8, UAL_FF_RESERVED, NULL, "pcie.md 2.2") \
  X(PCIE_ACK_RSVD2, UAL_SC_PCIE_DLLP_ACK, "Reserved", "pcie.dllp.ack_rsvd2", 2, 1, UAL_LE, 4, 4, UAL_FF_RESERVED, NULL, "pcie.md 2.2") \
  X(PCIE_ACK_SEQ,   UAL_SC_PCIE_DLLP_ACK, "AckNak_Seq_Num", "pcie.dllp.seq", 2, 2, UAL_BE, 0, 12, 0, NULL, "pcie.md 2.2") \
  X(PCIE_FC_RSVD,   UAL_SC_PCIE_DLLP_FC, "Reserved",  "pcie.dllp.fc_rsvd",  0, 1, UAL_LE, 3, 1, UAL_FF_RESERVED, NULL, "pcie.md 2.2") \
  X(PCIE_FC_VC,     UAL_SC_PCIE_DLLP_FC, "VC ID",     "pcie.dllp.vc",       0, 1, UAL_LE, 0, 3, 0, NULL, "pcie.md 2.2") \
  X(PCIE_FC_HDR_SCALE, UAL_SC_PCIE_DLLP_FC, "HdrScale", "pcie.dllp.hdr_scale", 1, 3, UAL_BE, 22, 2, 0, UAL_V_(pcie_scale), "pcie.md 2.2 [P8]") \
  X(PCIE_FC_HDR,    UAL_SC_PCIE_DLLP_FC, "HdrFC",     "pcie.dllp.hdr_fc",   1, 3, UAL_BE, 14, 8, 0, NULL, "pcie.md 2.2") \
  X(PCIE_FC_DATA_SCALE, UAL_SC_PCIE_DLLP_FC, "DataScale", "pcie.dllp.data_scale", 1, 3, UAL_BE, 12, 2, 0, UAL_V_(pcie_scale), "pcie.md 2.2 [P8]") \
  X(PCIE_FC_DATA,   UAL_SC_PCIE_DLLP_FC, "DataFC",    "pcie.dllp.data_fc",  1, 3, UAL_BE, 0, 12, 0, NULL, "pcie.md 2.2") \
  X(PCIE_PM_RSVD,   UAL_SC_PCIE_DLLP_PM, "Reserved",  "pcie.dllp.pm_rsvd",  1, 3, UAL_BE, 0, 24, UAL_FF_RESERVED, NULL, "pcie.md 2.2") \
  X(PCIE_RAW_DATA,  UAL_SC_PCIE_DLLP_RAW, "Bytes 1-3", "pcie.dllp.data",    1, 3, UAL_BE, 0, 24, UAL_FF_HEX, NULL, "pcie.md 2.2 [P7]") \
  X(PCIE_FDLLP_TYPE, UAL_SC_PCIE_FDLLP, "DLLP Type", "pcie.fdllp.type",  0, 1, UAL_LE, 0, 8, UAL_FF_HEX, UAL_V_(pcie_fdllp_type), "pcie.md 3.1 [P12]") \
  X(PCIE_LM_TYPE,   UAL_SC_PCIE_FDLLP_LM, "Link Management Type", "pcie.fdllp.lm.type", 1, 1, UAL_LE, 0, 8, UAL_FF_ENUM, UAL_V_(pcie_lm_type), "PCIe 6.x Link Management DLLP") \
  X(PCIE_LM_RSVD5,  UAL_SC_PCIE_FDLLP_LM, "Reserved",  "pcie.fdllp.lm.rsvd5", 2, 1, UAL_LE, 5, 3, UAL_FF_RESERVED, NULL, "PCIe 6.x Link Management DLLP") \
  X(PCIE_LM_PRIO,   UAL_SC_PCIE_FDLLP_LM, "Priority",  "pcie.fdllp.lm.priority", 2, 1, UAL_LE, 4, 1, UAL_FF_BOOL, NULL, "PCIe 6.x Link Management DLLP") \
  X(PCIE_LM_CMD,    UAL_SC_PCIE_FDLLP_LM, "Command",   "pcie.fdllp.lm.command", 2, 1, UAL_LE, 0, 4, UAL_FF_ENUM, UAL_V_(pcie_lm_cmd), "PCIe 6.x Link Management DLLP") \
  X(PCIE_LM_RESP,   UAL_SC_PCIE_FDLLP_LM, "Response payload", "pcie.fdllp.lm.response", 3, 1, UAL_LE, 4, 4, 0, NULL, "PCIe 6.x Link Management DLLP") \
  X(PCIE_LM_WIDTH,  UAL_SC_PCIE_FDLLP_LM, "Link Width", "pcie.fdllp.lm.width", 3, 1, UAL_LE, 0, 4, 0, NULL, "PCIe 6.x Link Management DLLP") \
  X(PCIE_TLP_TYPE,  UAL_SC_PCIE_TLP, "Type",       "pcie.tlp.type",      0, 1, UAL_LE, 0, 8, UAL_FF_HEX, UAL_V_(pcie_tlp_type), "pcie.md 3.3 3.4") \
  X(PCIE_TLP_TC,    UAL_SC_PCIE_TLP, "TC",         "pcie.tlp.tc",        1, 1, UAL_LE, 5, 3, 0, NULL, "pcie.md 3.3") \
  X(PCIE_TLP_OHC,   UAL_SC_PCIE_TLP, "OHC",        "pcie.tlp.ohc",       1, 1, UAL_LE, 0, 5, UAL_FF_HEX, NULL, "pcie.md 3.3") \
  X(PCIE_TLP_TS,    UAL_SC_PCIE_TLP, "TS (Trailer Size)", "pcie.tlp.ts", 2, 1, UAL_LE, 5, 3, 0, UAL_V_(pcie_ts), "pcie.md 3.3") \
  X(PCIE_TLP_ATTR,  UAL_SC_PCIE_TLP, "Attr",       "pcie.tlp.attr",      2, 1, UAL_LE, 2, 3, UAL_FF_HEX, NULL, "pcie.md 3.3") \
  X(PCIE_TLP_LENGTH,UAL_SC_PCIE_TLP, "Length",     "pcie.tlp.length",    2, 2, UAL_BE, 0, 10, 0, NULL, "pcie.md 3.3") \
  X(PCIE_NOP_RSVD,  UAL_SC_PCIE_TLP_NOP, "Reserved", "pcie.tlp.nop_rsvd", 1, 3, UAL_BE, 0, 24, UAL_FF_RESERVED, NULL, "pcie.md 3.2") \
  X(PCIE_REQ_RID,   UAL_SC_PCIE_TLP_REQ, "Requester ID", "pcie.tlp.requester_id", 4, 2, UAL_BE, 0, 16, UAL_FF_HEX | UAL_FF_BDF, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_REQ_EP,    UAL_SC_PCIE_TLP_REQ, "EP",     "pcie.tlp.ep",        6, 1, UAL_LE, 7, 1, UAL_FF_BOOL, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_REQ_RSVD,  UAL_SC_PCIE_TLP_REQ, "Reserved", "pcie.tlp.req_rsvd", 6, 1, UAL_LE, 6, 1, UAL_FF_RESERVED, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_REQ_TAG,   UAL_SC_PCIE_TLP_REQ, "Tag",    "pcie.tlp.tag",       6, 2, UAL_BE, 0, 14, 0, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_A32_ADDR,  UAL_SC_PCIE_TLP_A32, "Address", "pcie.tlp.addr32", 8, 4, UAL_BE, 2, 30, UAL_FF_HEX | UAL_FF_INPLACE, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_A32_AT,    UAL_SC_PCIE_TLP_A32, "AT",     "pcie.tlp.at32",      11, 1, UAL_LE, 0, 2, 0, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_A64_ADDR,  UAL_SC_PCIE_TLP_A64, "Address", "pcie.tlp.addr64", 8, 8, UAL_BE, 2, 62, UAL_FF_HEX | UAL_FF_INPLACE, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_A64_AT,    UAL_SC_PCIE_TLP_A64, "AT",     "pcie.tlp.at64",      15, 1, UAL_LE, 0, 2, 0, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_CFG_CID,   UAL_SC_PCIE_TLP_CFG, "Completer ID", "pcie.tlp.cfg_completer_id", 8, 2, UAL_BE, 0, 16, UAL_FF_HEX | UAL_FF_BDF, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_CFG_RSVD10,UAL_SC_PCIE_TLP_CFG, "Reserved", "pcie.tlp.cfg_rsvd10", 10, 1, UAL_LE, 4, 4, UAL_FF_RESERVED, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_CFG_EXTREG,UAL_SC_PCIE_TLP_CFG, "Extended Register Number", "pcie.tlp.ext_reg", 10, 1, UAL_LE, 0, 4, 0, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_CFG_REG,   UAL_SC_PCIE_TLP_CFG, "Register", "pcie.tlp.reg", 11, 1, UAL_LE, 2, 6, UAL_FF_HEX | UAL_FF_INPLACE, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_CFG_RSVD11,UAL_SC_PCIE_TLP_CFG, "Reserved", "pcie.tlp.cfg_rsvd11", 11, 1, UAL_LE, 0, 2, UAL_FF_RESERVED, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_MSG_RID,   UAL_SC_PCIE_TLP_MSG, "Requester ID", "pcie.tlp.msg_requester_id", 4, 2, UAL_BE, 0, 16, UAL_FF_HEX | UAL_FF_BDF, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_MSG_EP,    UAL_SC_PCIE_TLP_MSG, "EP",     "pcie.tlp.msg_ep",    6, 1, UAL_LE, 7, 1, UAL_FF_BOOL, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_MSG_SPEC,  UAL_SC_PCIE_TLP_MSG, "Message-specific", "pcie.tlp.msg_specific", 6, 1, UAL_LE, 0, 7, UAL_FF_HEX, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_MSG_CODE,  UAL_SC_PCIE_TLP_MSG, "Message Code", "pcie.tlp.msg_code", 7, 1, UAL_LE, 0, 8, UAL_FF_HEX, UAL_V_(pcie_msg_code), "pcie.md 3.5 [P15]") \
  X(PCIE_CPL_CID,   UAL_SC_PCIE_TLP_CPL, "Completer ID", "pcie.tlp.completer_id", 4, 2, UAL_BE, 0, 16, UAL_FF_HEX | UAL_FF_BDF, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_CPL_EP,    UAL_SC_PCIE_TLP_CPL, "EP",     "pcie.tlp.cpl_ep",    6, 1, UAL_LE, 7, 1, UAL_FF_BOOL, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_CPL_LA6,   UAL_SC_PCIE_TLP_CPL, "Lower Address[6]", "pcie.tlp.la6", 6, 1, UAL_LE, 6, 1, 0, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_CPL_TAG,   UAL_SC_PCIE_TLP_CPL, "Tag",    "pcie.tlp.cpl_tag",   6, 2, UAL_BE, 0, 14, 0, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_CPL_DEST,  UAL_SC_PCIE_TLP_CPL, "Destination BDF", "pcie.tlp.cpl_requester_id", 8, 2, UAL_BE, 0, 16, UAL_FF_HEX | UAL_FF_BDF, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_CPL_LA52,  UAL_SC_PCIE_TLP_CPL, "Lower Address[5:2]", "pcie.tlp.la52", 10, 1, UAL_LE, 4, 4, 0, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_CPL_BC,    UAL_SC_PCIE_TLP_CPL, "Byte Count", "pcie.tlp.byte_count", 10, 2, UAL_BE, 0, 12, 0, NULL, "pcie.md 3.5 [P15]") \
  X(PCIE_A1_NW,     UAL_SC_PCIE_OHC_A1, "NW",      "pcie.ohc_a1.nw",     0, 1, UAL_LE, 7, 1, UAL_FF_BOOL, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A1_PV,     UAL_SC_PCIE_OHC_A1, "PV",      "pcie.ohc_a1.pv",     0, 1, UAL_LE, 6, 1, UAL_FF_BOOL, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A1_PMR,    UAL_SC_PCIE_OHC_A1, "PMR",     "pcie.ohc_a1.pmr",    0, 1, UAL_LE, 5, 1, UAL_FF_BOOL, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A1_ER,     UAL_SC_PCIE_OHC_A1, "ER",      "pcie.ohc_a1.er",     0, 1, UAL_LE, 4, 1, UAL_FF_BOOL, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A1_PASID,  UAL_SC_PCIE_OHC_A1, "PASID",   "pcie.ohc_a1.pasid",  0, 3, UAL_BE, 0, 20, UAL_FF_HEX, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A1_LBE,    UAL_SC_PCIE_OHC_A1, "Last DW BE", "pcie.ohc_a1.last_be", 3, 1, UAL_LE, 4, 4, UAL_FF_HEX, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A1_FBE,    UAL_SC_PCIE_OHC_A1, "First DW BE", "pcie.ohc_a1.first_be", 3, 1, UAL_LE, 0, 4, UAL_FF_HEX, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A2_RSVD,   UAL_SC_PCIE_OHC_A2, "Reserved", "pcie.ohc_a2.rsvd",  0, 3, UAL_BE, 0, 24, UAL_FF_RESERVED, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A2_LBE,    UAL_SC_PCIE_OHC_A2, "Last DW BE", "pcie.ohc_a2.last_be", 3, 1, UAL_LE, 4, 4, UAL_FF_HEX, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A2_FBE,    UAL_SC_PCIE_OHC_A2, "First DW BE", "pcie.ohc_a2.first_be", 3, 1, UAL_LE, 0, 4, UAL_FF_HEX, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A3_DSEG,   UAL_SC_PCIE_OHC_A3, "Destination Segment", "pcie.ohc_a3.dest_segment", 0, 1, UAL_LE, 0, 8, 0, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A3_RSVD1,  UAL_SC_PCIE_OHC_A3, "Reserved", "pcie.ohc_a3.rsvd1", 1, 1, UAL_LE, 0, 8, UAL_FF_RESERVED, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A3_DSV,    UAL_SC_PCIE_OHC_A3, "DSV",     "pcie.ohc_a3.dsv",    2, 1, UAL_LE, 7, 1, UAL_FF_BOOL, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A3_RSVD2,  UAL_SC_PCIE_OHC_A3, "Reserved", "pcie.ohc_a3.rsvd2", 2, 1, UAL_LE, 0, 7, UAL_FF_RESERVED, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A3_LBE,    UAL_SC_PCIE_OHC_A3, "Last DW BE", "pcie.ohc_a3.last_be", 3, 1, UAL_LE, 4, 4, UAL_FF_HEX, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A3_FBE,    UAL_SC_PCIE_OHC_A3, "First DW BE", "pcie.ohc_a3.first_be", 3, 1, UAL_LE, 0, 4, UAL_FF_HEX, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A4_DSEG,   UAL_SC_PCIE_OHC_A4, "Destination Segment", "pcie.ohc_a4.dest_segment", 0, 1, UAL_LE, 0, 8, 0, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A4_PASID_HI, UAL_SC_PCIE_OHC_A4, "PASID[15:8]", "pcie.ohc_a4.pasid_15_8", 1, 1, UAL_LE, 0, 8, UAL_FF_HEX, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A4_DSV,    UAL_SC_PCIE_OHC_A4, "DSV",     "pcie.ohc_a4.dsv",    2, 1, UAL_LE, 7, 1, UAL_FF_BOOL, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A4_PV,     UAL_SC_PCIE_OHC_A4, "PV",      "pcie.ohc_a4.pv",     2, 1, UAL_LE, 6, 1, UAL_FF_BOOL, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A4_RSVD,   UAL_SC_PCIE_OHC_A4, "Reserved", "pcie.ohc_a4.rsvd",  2, 1, UAL_LE, 4, 2, UAL_FF_RESERVED, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A4_PASID_TOP, UAL_SC_PCIE_OHC_A4, "PASID[19:16]", "pcie.ohc_a4.pasid_19_16", 2, 1, UAL_LE, 0, 4, UAL_FF_HEX, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A4_PASID_LO, UAL_SC_PCIE_OHC_A4, "PASID[7:0]", "pcie.ohc_a4.pasid_7_0", 3, 1, UAL_LE, 0, 8, UAL_FF_HEX, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A5_DSEG,   UAL_SC_PCIE_OHC_A5, "Destination Segment", "pcie.ohc_a5.dest_segment", 0, 1, UAL_LE, 0, 8, 0, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A5_CSEG,   UAL_SC_PCIE_OHC_A5, "Completer Segment", "pcie.ohc_a5.completer_segment", 1, 1, UAL_LE, 0, 8, 0, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A5_DSV,    UAL_SC_PCIE_OHC_A5, "DSV",     "pcie.ohc_a5.dsv",    2, 1, UAL_LE, 7, 1, UAL_FF_BOOL, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A5_RSVD2,  UAL_SC_PCIE_OHC_A5, "Reserved", "pcie.ohc_a5.rsvd2", 2, 1, UAL_LE, 0, 7, UAL_FF_RESERVED, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A5_RSVD3,  UAL_SC_PCIE_OHC_A5, "Reserved", "pcie.ohc_a5.rsvd3", 3, 1, UAL_LE, 5, 3, UAL_FF_RESERVED, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A5_LA,     UAL_SC_PCIE_OHC_A5, "Lower Address[1:0]", "pcie.ohc_a5.la10", 3, 1, UAL_LE, 3, 2, 0, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_A5_STATUS, UAL_SC_PCIE_OHC_A5, "Completion Status", "pcie.ohc_a5.status", 3, 1, UAL_LE, 0, 3, 0, UAL_V_(pcie_cpl_status), "pcie.md 3.5 [P14]") \
  X(PCIE_B_RSVD,    UAL_SC_PCIE_OHC_B, "Reserved", "pcie.ohc_b.rsvd",    0, 1, UAL_LE, 0, 8, UAL_FF_RESERVED, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_B_ST,      UAL_SC_PCIE_OHC_B, "ST",       "pcie.ohc_b.st",      1, 2, UAL_BE, 0, 16, UAL_FF_HEX, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_B_PH,      UAL_SC_PCIE_OHC_B, "PH",       "pcie.ohc_b.ph",      3, 1, UAL_LE, 6, 2, 0, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_B_HV,      UAL_SC_PCIE_OHC_B, "HV",       "pcie.ohc_b.hv",      3, 1, UAL_LE, 4, 2, 0, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_B_AMA,     UAL_SC_PCIE_OHC_B, "AMA",      "pcie.ohc_b.ama",     3, 1, UAL_LE, 1, 3, 0, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_B_AV,      UAL_SC_PCIE_OHC_B, "AV",       "pcie.ohc_b.av",      3, 1, UAL_LE, 0, 1, UAL_FF_BOOL, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_C_RSEG,    UAL_SC_PCIE_OHC_C, "Requester Segment", "pcie.ohc_c.requester_segment", 0, 1, UAL_LE, 0, 8, 0, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_C_PRSC,    UAL_SC_PCIE_OHC_C, "PR_Sent_Counter", "pcie.ohc_c.pr_sent_counter", 1, 1, UAL_LE, 0, 8, 0, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_C_SID,     UAL_SC_PCIE_OHC_C, "Stream_ID", "pcie.ohc_c.stream_id", 2, 1, UAL_LE, 0, 8, 0, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_C_RSVD7,   UAL_SC_PCIE_OHC_C, "Reserved", "pcie.ohc_c.rsvd7",   3, 1, UAL_LE, 7, 1, UAL_FF_RESERVED, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_C_SUBSTREAM, UAL_SC_PCIE_OHC_C, "Sub-Stream", "pcie.ohc_c.sub_stream", 3, 1, UAL_LE, 4, 3, 0, UAL_V_(pcie_substream), "pcie.md 3.5 [P14]") \
  X(PCIE_C_RSV,     UAL_SC_PCIE_OHC_C, "RSV",      "pcie.ohc_c.rsv",     3, 1, UAL_LE, 3, 1, UAL_FF_BOOL, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_C_RSVD2,   UAL_SC_PCIE_OHC_C, "Reserved", "pcie.ohc_c.rsvd2",   3, 1, UAL_LE, 2, 1, UAL_FF_RESERVED, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_C_K,       UAL_SC_PCIE_OHC_C, "K",        "pcie.ohc_c.k",       3, 1, UAL_LE, 1, 1, UAL_FF_BOOL, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_C_T,       UAL_SC_PCIE_OHC_C, "T",        "pcie.ohc_c.t",       3, 1, UAL_LE, 0, 1, UAL_FF_BOOL, NULL, "pcie.md 3.5 [P14]") \
  X(PCIE_NF_ENCODING, UAL_SC_PCIE_NF_BODY, "Encoding", "pcie.nf.encoding", 0, 1, UAL_LE, 0, 8, UAL_FF_ENUM, UAL_V_(pcie_nf_encoding), "pcie.md 7.1 [P21]") \
  X(PCIE_NF_CLASS,  UAL_SC_PCIE_NF_BODY, "Packet class", "pcie.nf.class", 1, 1, UAL_LE, 0, 2, UAL_FF_ENUM, UAL_V_(pcie_nf_class), "pcie.md 7.1") \
  X(PCIE_NF_NULL_BIT, UAL_SC_PCIE_NF_BODY, "Nullified (stripped)", "pcie.nf.info_nullified", 1, 1, UAL_LE, 2, 1, UAL_FF_BOOL, NULL, "pcie.md 7.1 [P46]") \
  X(PCIE_NF_TRUNC,  UAL_SC_PCIE_NF_BODY, "Truncated", "pcie.nf.truncated", 1, 1, UAL_LE, 3, 1, UAL_FF_BOOL, NULL, "pcie.md 7.1 [P45]") \
  X(PCIE_NF_INFO_RSVD, UAL_SC_PCIE_NF_BODY, "Reserved", "pcie.nf.info_rsvd", 1, 1, UAL_LE, 4, 4, UAL_FF_RESERVED, NULL, "pcie.md 7.1") \
  X(PCIE_NF_WIRE_LEN, UAL_SC_PCIE_NF_BODY, "Wire length", "pcie.nf.wire_len", 2, 2, UAL_LE, 0, 16, 0, NULL, "pcie.md 7.1") \
  X(PCIE_NF_START_SYM, UAL_SC_PCIE_NF_START, "Start symbol", "pcie.nf.start", 0, 1, UAL_LE, 0, 8, UAL_FF_HEX, UAL_V_(pcie_k_symbol), "pcie.md 7.2.1") \
  X(PCIE_NF_END_SYM, UAL_SC_PCIE_NF_END, "End symbol", "pcie.nf.end", 0, 1, UAL_LE, 0, 8, UAL_FF_HEX, UAL_V_(pcie_k_symbol), "pcie.md 7.2.1") \
  X(PCIE_NF_SDP_TOKEN, UAL_SC_PCIE_NF_SDPT, "SDP token", "pcie.nf.sdp_token", 0, 2, UAL_BE, 0, 16, UAL_FF_HEX, NULL, "pcie.md 7.2.2") \
  X(PCIE_NF_EDB_TOKEN, UAL_SC_PCIE_NF_EDBT, "EDB token", "pcie.nf.edb_token", 0, 4, UAL_BE, 0, 32, UAL_FF_HEX, NULL, "pcie.md 7.2.2") \
  X(PCIE_NF_STP_L30, UAL_SC_PCIE_NF_STP, "TLP Length[3:0]", "pcie.nf.stp.len_3_0", 0, 1, UAL_LE, 4, 4, 0, NULL, "pcie.md 7.2.2") \
  X(PCIE_NF_STP_ID, UAL_SC_PCIE_NF_STP, "STP (1111b)", "pcie.nf.stp.id", 0, 1, UAL_LE, 0, 4, UAL_FF_HEX, NULL, "pcie.md 7.2.2") \
  X(PCIE_NF_STP_P,  UAL_SC_PCIE_NF_STP, "Frame Parity", "pcie.nf.stp.parity", 1, 1, UAL_LE, 7, 1, 0, NULL, "pcie.md 7.2.2") \
  X(PCIE_NF_STP_L104, UAL_SC_PCIE_NF_STP, "TLP Length[10:4]", "pcie.nf.stp.len_10_4", 1, 1, UAL_LE, 0, 7, 0, NULL, "pcie.md 7.2.2") \
  X(PCIE_NF_STP_FCRC, UAL_SC_PCIE_NF_STP, "Frame CRC", "pcie.nf.stp.fcrc", 2, 1, UAL_LE, 4, 4, UAL_FF_HEX, NULL, "pcie.md 7.2.2 [P24]") \
  X(PCIE_NF_STP_SEQ, UAL_SC_PCIE_NF_STP, "Sequence Number", "pcie.nf.stp.seq", 2, 2, UAL_BE, 0, 12, 0, NULL, "pcie.md 7.3.1") \
  X(PCIE_NF_SEQ_RSVD, UAL_SC_PCIE_NF_SEQ, "Reserved", "pcie.nf.seq_rsvd", 0, 1, UAL_LE, 4, 4, UAL_FF_RESERVED, NULL, "pcie.md 7.2.1") \
  X(PCIE_NF_SEQ,    UAL_SC_PCIE_NF_SEQ, "Sequence Number", "pcie.nf.seq", 0, 2, UAL_BE, 0, 12, 0, NULL, "pcie.md 7.3.1") \
  X(PCIE_NF_LCRC,   UAL_SC_PCIE_NF_LCRC, "LCRC", "pcie.nf.lcrc", 0, 4, UAL_LE, 0, 32, UAL_FF_HEX, NULL, "pcie.md 7.3.2 [P23]") \
  X(PCIE_NF_PFX_TYPE, UAL_SC_PCIE_NF_PREFIX, "Prefix", "pcie.nf.prefix", 0, 1, UAL_LE, 0, 8, UAL_FF_HEX, UAL_V_(pcie_nf_type), "pcie.md 7.4.8") \
  X(PCIE_NF_PFX_DATA, UAL_SC_PCIE_NF_PREFIX, "Prefix bytes 1-3", "pcie.nf.prefix_data", 1, 3, UAL_BE, 0, 24, UAL_FF_HEX, NULL, "pcie.md 7.4.8") \
  X(PCIE_NF_FMT_TYPE, UAL_SC_PCIE_NF_DW0, "Fmt/Type", "pcie.nf.fmt_type", 0, 1, UAL_LE, 0, 8, UAL_FF_HEX, UAL_V_(pcie_nf_type), "pcie.md 7.4.2 7.4.3") \
  X(PCIE_NF_T9,     UAL_SC_PCIE_NF_DW0, "T9 (Tag[9])", "pcie.nf.t9", 1, 1, UAL_LE, 7, 1, 0, NULL, "pcie.md 7.4.2") \
  X(PCIE_NF_TC,     UAL_SC_PCIE_NF_DW0, "TC", "pcie.nf.tc", 1, 1, UAL_LE, 4, 3, 0, NULL, "pcie.md 7.4.2") \
  X(PCIE_NF_T8,     UAL_SC_PCIE_NF_DW0, "T8 (Tag[8])", "pcie.nf.t8", 1, 1, UAL_LE, 3, 1, 0, NULL, "pcie.md 7.4.2") \
  X(PCIE_NF_IDO,    UAL_SC_PCIE_NF_DW0, "Attr[2] (IDO)", "pcie.nf.ido", 1, 1, UAL_LE, 2, 1, UAL_FF_BOOL, NULL, "pcie.md 7.4.2") \
  X(PCIE_NF_LN,     UAL_SC_PCIE_NF_DW0, "Reserved (was LN)", "pcie.nf.ln", 1, 1, UAL_LE, 1, 1, UAL_FF_RESERVED, NULL, "pcie.md 7.4.2 [P25]") \
  X(PCIE_NF_TH,     UAL_SC_PCIE_NF_DW0, "TH", "pcie.nf.th", 1, 1, UAL_LE, 0, 1, UAL_FF_BOOL, NULL, "pcie.md 7.4.2") \
  X(PCIE_NF_TD,     UAL_SC_PCIE_NF_DW0, "TD", "pcie.nf.td", 2, 1, UAL_LE, 7, 1, UAL_FF_BOOL, NULL, "pcie.md 7.4.2") \
  X(PCIE_NF_EP,     UAL_SC_PCIE_NF_DW0, "EP", "pcie.nf.ep", 2, 1, UAL_LE, 6, 1, UAL_FF_BOOL, NULL, "pcie.md 7.4.2") \
  X(PCIE_NF_ATTR,   UAL_SC_PCIE_NF_DW0, "Attr[1:0] (RO, NS)", "pcie.nf.attr", 2, 1, UAL_LE, 4, 2, 0, NULL, "pcie.md 7.4.2") \
  X(PCIE_NF_AT,     UAL_SC_PCIE_NF_DW0, "AT", "pcie.nf.at", 2, 1, UAL_LE, 2, 2, 0, UAL_V_(pcie_nf_at), "pcie.md 7.4.2 [P42]") \
  X(PCIE_NF_LENGTH, UAL_SC_PCIE_NF_DW0, "Length", "pcie.nf.length", 2, 2, UAL_BE, 0, 10, 0, NULL, "pcie.md 7.4.2") \
  X(PCIE_NF_REQ_RID, UAL_SC_PCIE_NF_REQ, "Requester ID", "pcie.nf.requester_id", 4, 2, UAL_BE, 0, 16, UAL_FF_HEX | UAL_FF_BDF, NULL, "pcie.md 7.4.4 [P27]") \
  X(PCIE_NF_REQ_TAG, UAL_SC_PCIE_NF_REQ, "Tag[7:0]", "pcie.nf.tag_7_0", 6, 1, UAL_LE, 0, 8, 0, NULL, "pcie.md 7.4.4") \
  X(PCIE_NF_LAST_BE, UAL_SC_PCIE_NF_REQ, "Last DW BE", "pcie.nf.last_be", 7, 1, UAL_LE, 4, 4, UAL_FF_HEX, NULL, "pcie.md 7.4.4") \
  X(PCIE_NF_FIRST_BE, UAL_SC_PCIE_NF_REQ, "First DW BE", "pcie.nf.first_be", 7, 1, UAL_LE, 0, 4, UAL_FF_HEX, NULL, "pcie.md 7.4.4") \
  X(PCIE_NF_ADDR32, UAL_SC_PCIE_NF_A32, "Address", "pcie.nf.addr32", 8, 4, UAL_BE, 2, 30, UAL_FF_HEX | UAL_FF_INPLACE, NULL, "pcie.md 7.4.4") \
  X(PCIE_NF_PH32,   UAL_SC_PCIE_NF_A32, "PH", "pcie.nf.ph32", 11, 1, UAL_LE, 0, 2, 0, NULL, "pcie.md 7.4.4") \
  X(PCIE_NF_ADDR64, UAL_SC_PCIE_NF_A64, "Address", "pcie.nf.addr64", 8, 8, UAL_BE, 2, 62, UAL_FF_HEX | UAL_FF_INPLACE, NULL, "pcie.md 7.4.4") \
  X(PCIE_NF_PH64,   UAL_SC_PCIE_NF_A64, "PH", "pcie.nf.ph64", 15, 1, UAL_LE, 0, 2, 0, NULL, "pcie.md 7.4.4") \
  X(PCIE_NF_CFG_TARGET, UAL_SC_PCIE_NF_CFG, "Target (Bus/Dev/Fn)", "pcie.nf.cfg_target", 8, 2, UAL_BE, 0, 16, UAL_FF_HEX | UAL_FF_BDF, NULL, "pcie.md 7.4.5") \
  X(PCIE_NF_CFG_RSVD10, UAL_SC_PCIE_NF_CFG, "Reserved", "pcie.nf.cfg_rsvd10", 10, 1, UAL_LE, 4, 4, UAL_FF_RESERVED, NULL, "pcie.md 7.4.5") \
  X(PCIE_NF_CFG_EXTREG, UAL_SC_PCIE_NF_CFG, "Extended Register Number", "pcie.nf.ext_reg", 10, 1, UAL_LE, 0, 4, 0, NULL, "pcie.md 7.4.5") \
  X(PCIE_NF_CFG_REG, UAL_SC_PCIE_NF_CFG, "Register Number", "pcie.nf.reg", 11, 1, UAL_LE, 2, 6, 0, NULL, "pcie.md 7.4.5") \
  X(PCIE_NF_CFG_RSVD11, UAL_SC_PCIE_NF_CFG, "Reserved", "pcie.nf.cfg_rsvd11", 11, 1, UAL_LE, 0, 2, UAL_FF_RESERVED, NULL, "pcie.md 7.4.5") \
  X(PCIE_NF_CPL_CID, UAL_SC_PCIE_NF_CPL, "Completer ID", "pcie.nf.completer_id", 4, 2, UAL_BE, 0, 16, UAL_FF_HEX | UAL_FF_BDF, NULL, "pcie.md 7.4.6") \
  X(PCIE_NF_CPL_STATUS, UAL_SC_PCIE_NF_CPL, "Completion Status", "pcie.nf.cpl_status", 6, 1, UAL_LE, 5, 3, 0, UAL_V_(pcie_cpl_status), "pcie.md 7.4.6") \
  X(PCIE_NF_CPL_BCM, UAL_SC_PCIE_NF_CPL, "BCM", "pcie.nf.bcm", 6, 1, UAL_LE, 4, 1, UAL_FF_BOOL, NULL, "pcie.md 7.4.6") \
  X(PCIE_NF_CPL_BC, UAL_SC_PCIE_NF_CPL, "Byte Count", "pcie.nf.byte_count", 6, 2, UAL_BE, 0, 12, 0, NULL, "pcie.md 7.4.6 [P41]") \
  X(PCIE_NF_CPL_RID, UAL_SC_PCIE_NF_CPL, "Requester ID", "pcie.nf.cpl_requester_id", 8, 2, UAL_BE, 0, 16, UAL_FF_HEX | UAL_FF_BDF, NULL, "pcie.md 7.4.6") \
  X(PCIE_NF_CPL_TAG, UAL_SC_PCIE_NF_CPL, "Tag[7:0]", "pcie.nf.cpl_tag_7_0", 10, 1, UAL_LE, 0, 8, 0, NULL, "pcie.md 7.4.6") \
  X(PCIE_NF_CPL_RSVD, UAL_SC_PCIE_NF_CPL, "Reserved", "pcie.nf.cpl_rsvd", 11, 1, UAL_LE, 7, 1, UAL_FF_RESERVED, NULL, "pcie.md 7.4.6") \
  X(PCIE_NF_CPL_LA, UAL_SC_PCIE_NF_CPL, "Lower Address", "pcie.nf.lower_addr", 11, 1, UAL_LE, 0, 7, UAL_FF_HEX, NULL, "pcie.md 7.4.6 [P41]") \
  X(PCIE_NF_MSG_RID, UAL_SC_PCIE_NF_MSG, "Requester ID", "pcie.nf.msg_requester_id", 4, 2, UAL_BE, 0, 16, UAL_FF_HEX | UAL_FF_BDF, NULL, "pcie.md 7.4.7") \
  X(PCIE_NF_MSG_TAG, UAL_SC_PCIE_NF_MSG, "Tag (byte 6)", "pcie.nf.msg_tag", 6, 1, UAL_LE, 0, 8, UAL_FF_HEX, NULL, "pcie.md 7.4.7 [P27]") \
  X(PCIE_NF_MSG_CODE, UAL_SC_PCIE_NF_MSG, "Message Code", "pcie.nf.msg_code", 7, 1, UAL_LE, 0, 8, UAL_FF_HEX, UAL_V_(pcie_msg_code), "pcie.md 7.4.7") \
  X(PCIE_NF_MSG_B8, UAL_SC_PCIE_NF_MSG, "Bytes 8-15", "pcie.nf.msg_bytes", 8, 8, UAL_BE, 0, 64, UAL_FF_HEX, NULL, "pcie.md 7.4.7 [P47]") \
  X(PCIE_NF_VDM_DEST, UAL_SC_PCIE_NF_VDM, "Destination ID", "pcie.nf.vdm.dest_id", 8, 2, UAL_BE, 0, 16, UAL_FF_HEX, NULL, "pcie.md 7.4.7") \
  X(PCIE_NF_VDM_VID, UAL_SC_PCIE_NF_VDM, "Vendor ID", "pcie.nf.vdm.vendor_id", 10, 2, UAL_BE, 0, 16, UAL_FF_HEX, NULL, "pcie.md 7.4.7") \
  X(PCIE_NF_VDM_SUB, UAL_SC_PCIE_NF_VDM, "Subtype (PCI-SIG)", "pcie.nf.vdm.subtype", 12, 1, UAL_LE, 0, 8, UAL_FF_HEX, NULL, "pcie.md 7.4.7 [P31]") \
  X(PCIE_NF_VDM_DATA, UAL_SC_PCIE_NF_VDM, "Vendor-defined bytes 13-15", "pcie.nf.vdm.data", 13, 3, UAL_BE, 0, 24, UAL_FF_HEX, NULL, "pcie.md 7.4.7") \
  X(PCIE_NF_ECRC,   UAL_SC_PCIE_NF_ECRC, "ECRC", "pcie.nf.ecrc", 0, 4, UAL_LE, 0, 32, UAL_FF_HEX, NULL, "pcie.md 7.4.9") \
  X(PCIE_GEN_CLASS, UAL_SC_PCIE_GEN, "FC class",      "pcie.dllp.fc_class", 0, 0, UAL_LE, 0, 8, 0, UAL_V_(pcie_fc_class), "pcie.md 2.2") \
  X(PCIE_GEN_HDR_CREDITS, UAL_SC_PCIE_GEN, "Header credits (scaled)", "pcie.dllp.hdr_credits", 0, 0, UAL_LE, 0, 16, 0, NULL, "pcie.md 2.2 [P8]") \
  X(PCIE_GEN_DATA_CREDITS, UAL_SC_PCIE_GEN, "Data credits (scaled)", "pcie.dllp.data_credits", 0, 0, UAL_LE, 0, 20, 0, NULL, "pcie.md 2.2 [P8]") \
  X(PCIE_GEN_CRC_CALC, UAL_SC_PCIE_GEN, "CRC-16 (calculated)", "pcie.dllp.crc_calc", 0, 0, UAL_LE, 0, 16, UAL_FF_HEX, NULL, "pcie.md 2.3") \
  X(PCIE_GEN_CRC_OK, UAL_SC_PCIE_GEN, "CRC-16 good",   "pcie.dllp.crc_ok",   0, 0, UAL_LE, 0, 1, UAL_FF_BOOL, NULL, "pcie.md 2.3") \
  X(PCIE_GEN_TLP_START, UAL_SC_PCIE_GEN, "Started in frame", "pcie.tlp.start_frame", 0, 0, UAL_LE, 0, 32, UAL_FF_FRAME, NULL, "pcie.md 3.2") \
  X(PCIE_GEN_TLP_LINK, UAL_SC_PCIE_GEN, "Transaction", "pcie.tlp.transaction", 0, 0, UAL_LE, 0, 8, 0, UAL_V_(pcie_link), "pcie.md 4") \
  X(PCIE_GEN_RESP_IN, UAL_SC_PCIE_GEN, "Response in frame", "pcie.tlp.response_in", 0, 0, UAL_LE, 0, 32, UAL_FF_FRAME, NULL, "pcie.md 4") \
  X(PCIE_GEN_RESP_TO, UAL_SC_PCIE_GEN, "Request in frame", "pcie.tlp.response_to", 0, 0, UAL_LE, 0, 32, UAL_FF_FRAME, NULL, "pcie.md 4") \
  X(PCIE_GEN_LATENCY, UAL_SC_PCIE_GEN, "Completion latency (ns)", "pcie.tlp.latency_ns", 0, 0, UAL_LE, 0, 64, 0, NULL, "pcie.md 4") \
  X(PCIE_GEN_TLP_DATA, UAL_SC_PCIE_GEN, "Data", "pcie.tlp.data", 0, 0, UAL_LE, 0, 16, UAL_FF_BYTES, NULL, "pcie.md 3.2") \
  X(PCIE_GEN_TLP_DATA_OFF, UAL_SC_PCIE_GEN, "Data from payload byte", "pcie.tlp.data_offset", 0, 0, UAL_LE, 0, 16, 0, NULL, "pcie.md 3.2") \
  X(PCIE_GEN_CFG_VALUE, UAL_SC_PCIE_GEN, "Register value written", "pcie.tlp.cfg_value", 0, 0, UAL_LE, 0, 32, UAL_FF_HEX, NULL, "pcie.md 3.5") \
  X(PCIE_GEN_NF_FMT, UAL_SC_PCIE_GEN, "Fmt", "pcie.nf.fmt", 0, 0, UAL_LE, 0, 3, 0, UAL_V_(pcie_nf_fmt), "pcie.md 7.4.2") \
  X(PCIE_GEN_NF_TYPE, UAL_SC_PCIE_GEN, "Type", "pcie.nf.type", 0, 0, UAL_LE, 0, 5, UAL_FF_HEX, NULL, "pcie.md 7.4.2") \
  X(PCIE_GEN_NF_TAG, UAL_SC_PCIE_GEN, "Tag", "pcie.nf.tag", 0, 0, UAL_LE, 0, 10, 0, NULL, "pcie.md 7.4.4") \
  X(PCIE_GEN_NF_ADDR, UAL_SC_PCIE_GEN, "Address", "pcie.nf.addr", 0, 0, UAL_LE, 0, 64, UAL_FF_HEX, NULL, "pcie.md 7.4.4") \
  X(PCIE_GEN_NF_REG, UAL_SC_PCIE_GEN, "Register offset", "pcie.nf.reg_offset", 0, 0, UAL_LE, 0, 12, UAL_FF_HEX, NULL, "pcie.md 7.4.5") \
  X(PCIE_GEN_NF_STP_LEN, UAL_SC_PCIE_GEN, "TLP Length (DW)", "pcie.nf.stp.len", 0, 0, UAL_LE, 0, 11, 0, NULL, "pcie.md 7.2.2") \
  X(PCIE_GEN_NF_FCRC_CALC, UAL_SC_PCIE_GEN, "Frame CRC (calculated)", "pcie.nf.stp.fcrc_calc", 0, 0, UAL_LE, 0, 4, UAL_FF_HEX, NULL, "pcie.md 7.2.2 [P24]") \
  X(PCIE_GEN_NF_PARITY_CALC, UAL_SC_PCIE_GEN, "Frame Parity (calculated)", "pcie.nf.stp.parity_calc", 0, 0, UAL_LE, 0, 1, 0, NULL, "pcie.md 7.2.2") \
  X(PCIE_GEN_NF_LCRC_CALC, UAL_SC_PCIE_GEN, "LCRC (calculated)", "pcie.nf.lcrc_calc", 0, 0, UAL_LE, 0, 32, UAL_FF_HEX, NULL, "pcie.md 7.3.2") \
  X(PCIE_GEN_NF_LCRC_STATUS, UAL_SC_PCIE_GEN, "LCRC status", "pcie.nf.lcrc_status", 0, 0, UAL_LE, 0, 8, 0, UAL_V_(pcie_lcrc), "pcie.md 7.3.2") \
  X(PCIE_GEN_NF_ACCEPTED, UAL_SC_PCIE_GEN, "Accepted by the data link", "pcie.nf.accepted", 0, 0, UAL_LE, 0, 1, UAL_FF_BOOL, NULL, "pcie.md [P35]") \
  X(PCIE_GEN_NF_ECRC_CALC, UAL_SC_PCIE_GEN, "ECRC (calculated)", "pcie.nf.ecrc_calc", 0, 0, UAL_LE, 0, 32, UAL_FF_HEX, NULL, "pcie.md 7.4.9") \
  X(PCIE_GEN_NF_ECRC_STATUS, UAL_SC_PCIE_GEN, "ECRC status", "pcie.nf.ecrc_status", 0, 0, UAL_LE, 0, 8, 0, UAL_V_(pcie_ecrc), "pcie.md 7.4.9") \
  X(PCIE_GEN_NF_PAYLOAD, UAL_SC_PCIE_GEN, "Payload bytes", "pcie.nf.payload_len", 0, 0, UAL_LE, 0, 16, 0, NULL, "pcie.md 7.4.1") \
  X(PCIE_GEN_NF_DATA, UAL_SC_PCIE_GEN, "Data", "pcie.nf.data", 0, 0, UAL_LE, 0, 16, UAL_FF_BYTES, NULL, "pcie.md 7.4.1") \
  X(PCIE_GEN_NF_CFG_VALUE, UAL_SC_PCIE_GEN, "Register value written", "pcie.nf.cfg_value", 0, 0, UAL_LE, 0, 32, UAL_FF_HEX, NULL, "pcie.md 7.4.5")

#endif
