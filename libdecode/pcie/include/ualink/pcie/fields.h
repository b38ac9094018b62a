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
  X(PCIE_GEN)           /* generated values */

/* Value-name lists ual_vals_<name>, defined in pcie/values.c. */
#define UAL_PCIE_VALUE_LISTS(X) X(pcie_framing) X(pcie_dllp_type) X(pcie_scale) X(pcie_fc_class) \
  X(pcie_fdllp_type) X(pcie_lm_type) X(pcie_lm_cmd)

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
  X(PCIE_GEN_CLASS, UAL_SC_PCIE_GEN, "FC class",      "pcie.dllp.fc_class", 0, 0, UAL_LE, 0, 8, 0, UAL_V_(pcie_fc_class), "pcie.md 2.2") \
  X(PCIE_GEN_HDR_CREDITS, UAL_SC_PCIE_GEN, "Header credits (scaled)", "pcie.dllp.hdr_credits", 0, 0, UAL_LE, 0, 16, 0, NULL, "pcie.md 2.2 [P8]") \
  X(PCIE_GEN_DATA_CREDITS, UAL_SC_PCIE_GEN, "Data credits (scaled)", "pcie.dllp.data_credits", 0, 0, UAL_LE, 0, 20, 0, NULL, "pcie.md 2.2 [P8]") \
  X(PCIE_GEN_CRC_CALC, UAL_SC_PCIE_GEN, "CRC-16 (calculated)", "pcie.dllp.crc_calc", 0, 0, UAL_LE, 0, 16, UAL_FF_HEX, NULL, "pcie.md 2.3") \
  X(PCIE_GEN_CRC_OK, UAL_SC_PCIE_GEN, "CRC-16 good",   "pcie.dllp.crc_ok",   0, 0, UAL_LE, 0, 1, UAL_FF_BOOL, NULL, "pcie.md 2.3")

#endif
