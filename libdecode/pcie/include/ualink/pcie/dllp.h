/* PCIe non-flit DLLPs (digest pcie.md §2): the kind-4 record body, decode,
 * encode, CRC-16 and the stateless checks.
 *
 *   record body (kind 4, 8 bytes) [P1]
 *   byte 0 framing   1 reserved   2..7 the DLLP as on the wire:
 *
 *   DLLP byte  0        1          2          3          4        5
 *            +--------+----------+----------+----------+--------+--------+
 *   Ack/Nak  | 00/10  | rsvd     |7:4 rsvd  | Seq[7:0] | CRC-16 | CRC-16 |
 *            |        |          |3:0 Seq11:8|         | low    | high   |
 *   FC       |7:4 cls |7:6 HdrScale         |          |        |        |
 *            |3 rsvd  |5:0 HdrFC[7:2]       |          |        |        |
 *            |2:0 VC  |  7:6 HdrFC[1:0], 5:4 DataScale, 3:0 DataFC[11:8],  |
 *            |        |                         byte 3 DataFC[7:0]         |
 *   PM       | 2xh    | reserved (bytes 1-3)           |        |        |
 *            +--------+----------+----------+----------+--------+--------+
 */
#ifndef UALINK_PCIE_DLLP_H
#define UALINK_PCIE_DLLP_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#define UAL_PCIE_DLLP_BODY  8u   /* kind-4 record body [P1] */
#define UAL_PCIE_DLLP_OFF   2u   /* DLLP byte 0 in the body */
#define UAL_PCIE_DLLP_BYTES 6u
#define UAL_PCIE_SEQ_MOD    4096u

/* Framing byte [P1]. */
enum ual_pcie_framing { UAL_PCIE_FR_END = 0, UAL_PCIE_FR_EDB = 1, UAL_PCIE_FR_SDP128 = 2, UAL_PCIE_FR_UNKNOWN = 255 };

/* FC class (byte 0 [7:4] of the FC types) and stage. */
enum ual_pcie_fc_class { UAL_PCIE_P = 0, UAL_PCIE_NP = 1, UAL_PCIE_CPL = 2, UAL_PCIE_MR = 3, UAL_PCIE_NO_CLASS = 255 };
enum ual_pcie_fc_stage { UAL_PCIE_NONE = 0, UAL_PCIE_INIT1 = 1, UAL_PCIE_INIT2 = 2, UAL_PCIE_UPDATE = 3 };

/* What bytes 1-3 hold. */
enum ual_pcie_layout { UAL_PCIE_L_NONE, UAL_PCIE_L_ACK, UAL_PCIE_L_FC, UAL_PCIE_L_PM, UAL_PCIE_L_RAW, UAL_PCIE_L_LM };

/* The DLLP types (§2.2), X(enum suffix, "name", code, code mask, layout,
 * FC class, FC stage). Codes with mask F8h carry the VC in [2:0]; with bit 3
 * set they are reserved types (S3:L24 lists only xxxx 0xxxb), not FC DLLPs.
 * The MR* FC types (mask F0h) carry a VL in [3:0]. MRInit,
 * Data_Link_Feature raw; MR* FC types in the FC layout [P7]. The one table
 * of type codes. */
#define UAL_PCIE_DLLP_TYPES(X) \
  X(ACK,        "Ack",                        0x00, 0xFF, ACK, NO_CLASS, NONE) \
  X(MRINIT,     "MRInit",                     0x01, 0xFF, RAW, NO_CLASS, NONE) \
  X(DLF,        "Data_Link_Feature",          0x02, 0xFF, RAW, NO_CLASS, NONE) \
  X(NAK,        "Nak",                        0x10, 0xFF, ACK, NO_CLASS, NONE) \
  X(PM_L1,      "PM_Enter_L1",                0x20, 0xFF, PM,  NO_CLASS, NONE) \
  X(PM_L23,     "PM_Enter_L23",               0x21, 0xFF, PM,  NO_CLASS, NONE) \
  X(PM_ASL1,    "PM_Active_State_Request_L1", 0x23, 0xFF, PM,  NO_CLASS, NONE) \
  X(PM_ACK,     "PM_Request_Ack",             0x24, 0xFF, PM,  NO_CLASS, NONE) \
  X(VENDOR,     "Vendor_Specific",            0x30, 0xFF, RAW, NO_CLASS, NONE) \
  X(NOP,        "NOP",                        0x31, 0xFF, RAW, NO_CLASS, NONE) \
  X(INITFC1_P,  "InitFC1-P",                  0x40, 0xF8, FC,  P,   INIT1) \
  X(INITFC1_NP, "InitFC1-NP",                 0x50, 0xF8, FC,  NP,  INIT1) \
  X(INITFC1_CPL,"InitFC1-Cpl",                0x60, 0xF8, FC,  CPL, INIT1) \
  X(MRINITFC1,  "MRInitFC1",                  0x70, 0xF0, FC,  MR,  INIT1) \
  X(UPDATEFC_P, "UpdateFC-P",                 0x80, 0xF8, FC,  P,   UPDATE) \
  X(UPDATEFC_NP,"UpdateFC-NP",                0x90, 0xF8, FC,  NP,  UPDATE) \
  X(UPDATEFC_CPL,"UpdateFC-Cpl",              0xA0, 0xF8, FC,  CPL, UPDATE) \
  X(MRUPDATEFC, "MRUpdateFC",                 0xB0, 0xF0, FC,  MR,  UPDATE) \
  X(INITFC2_P,  "InitFC2-P",                  0xC0, 0xF8, FC,  P,   INIT2) \
  X(INITFC2_NP, "InitFC2-NP",                 0xD0, 0xF8, FC,  NP,  INIT2) \
  X(INITFC2_CPL,"InitFC2-Cpl",                0xE0, 0xF8, FC,  CPL, INIT2) \
  X(MRINITFC2,  "MRInitFC2",                  0xF0, 0xF0, FC,  MR,  INIT2)

/* Flit-mode DLLPs (4 bytes, no CRC-16; UALink NOP/IDLE flits, PCIe flit
 * DLP2-5 [P12]) take the types above except Ack and Nak (in DLP0/1) and
 * these flit-only ones, X(enum suffix, "name", code, layout). */
#define UAL_PCIE_FDLLP_ONLY(X) \
  X(NOP2,      "NOP2",            0x00, RAW) \
  X(LINK_MGMT, "Link Management", 0x28, LM)

enum ual_pcie_dllp_name {
#define UAL_X_(e, n, c, m, l, cl, st) UAL_PCIE_DT_##e,
  UAL_PCIE_DLLP_TYPES(UAL_X_)
#undef UAL_X_
  UAL_PCIE_DT_RESERVED,
  UAL_PCIE_DT_COUNT
};

struct ual_pcie_dllp_type {
  const char *name;
  uint8_t code, mask, layout, fc_class, stage;
};
extern const struct ual_pcie_dllp_type ual_pcie_dllp_types[UAL_PCIE_DT_COUNT];

/* A decoded DLLP. Fields of other layouts are 0. */
struct ual_pcie_dllp {
  uint8_t framing;           /* enum ual_pcie_framing */
  uint8_t bytes[UAL_PCIE_DLLP_BYTES];
  uint8_t type;              /* byte 0 */
  uint8_t name;              /* enum ual_pcie_dllp_name */
  uint8_t layout;            /* enum ual_pcie_layout */
  uint8_t fc_class, stage, vc;
  uint8_t hdr_scale, data_scale;
  uint16_t hdr_fc, data_fc;  /* raw fields */
  uint16_t seq;              /* Ack/Nak */
  uint32_t raw;              /* bytes 1-3 as one big-endian word */
  uint16_t crc_rx, crc_calc; /* byte 4 | byte 5 << 8 */
  bool crc_ok;
};

struct ual_findings;

/* The DLLP name of a type byte (UAL_PCIE_DT_RESERVED when none). */
enum ual_pcie_dllp_name ual_pcie_dllp_name_of(unsigned type);
const char *ual_pcie_dllp_name_str(unsigned name);
/* The field-table scope (enum ual_scope) of bytes 1-3 of a layout. */
unsigned ual_pcie_layout_scope(unsigned layout);
/* CRC-16 of DLLP bytes 0-3 (§2.3) as transmitted: byte 4 = low byte. */
uint16_t ual_pcie_crc16(const uint8_t b[4]);
/* The layout (enum ual_pcie_layout) of a flit-mode DLLP type: the flit-only
 * types', else the non-flit one's (L_RAW for reserved codes and 10h). */
unsigned ual_pcie_fdllp_layout(unsigned type);
/* Scale factor of a HdrScale/DataScale code [P8]: 1, 1, 4, 16. */
unsigned ual_pcie_scale_factor(unsigned code);
/* DLLP bytes 0..5 (the CRC is checked, not trusted) into d; no findings. */
void ual_pcie_dllp_parse(const uint8_t dllp[UAL_PCIE_DLLP_BYTES], struct ual_pcie_dllp *d);
/* The stateless checks of a parsed DLLP: PD-CRC, PD-TYPE, PD-RESERVED
 * (none after a bad CRC: the DLLP is discarded). Kinds 4 and 7. */
void ual_pcie_dllp_check(const struct ual_pcie_dllp *d, struct ual_findings *f);
/* The kind-4 body: PD-RECORD, parse, ual_pcie_dllp_check. */
void ual_pcie_dllp_decode(const uint8_t body[UAL_PCIE_DLLP_BODY], struct ual_pcie_dllp *d, struct ual_findings *f);
/* Builds DLLP bytes 0..5 from d's type and layout fields (d->type is used
 * as given; vc, scales, credits, seq, raw by layout), CRC computed. */
void ual_pcie_dllp_build(const struct ual_pcie_dllp *d, uint8_t dllp[UAL_PCIE_DLLP_BYTES]);
/* A kind-4 body: framing, reserved 0, then ual_pcie_dllp_build. */
void ual_pcie_dllp_encode(const struct ual_pcie_dllp *d, uint8_t body[UAL_PCIE_DLLP_BODY]);
/* Convenience for FC DLLPs: type code = base | vc. */
void ual_pcie_dllp_fc(struct ual_pcie_dllp *d, enum ual_pcie_dllp_name name, unsigned vc, unsigned hs, unsigned hdr,
                      unsigned ds, unsigned data);

#endif
