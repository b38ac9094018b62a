/* PCIe non-flit link-layer packets, record kind 7 (digest pcie.md §7 [P21]):
 * one TLP or DLLP as framed on the wire, its framing checks, sequence
 * number, LCRC, the non-flit TLP header and ECRC; the encoders of all of
 * them.
 *
 *   record body (kind 7, 4 + n bytes)
 *   byte 0 encoding (0 8b/10b, 1 128b/130b, 255 stripped)
 *   byte 1 info: [1:0] class (0 from framing, 1 TLP, 2 DLLP), [2] nullified
 *          (stripped only), [3] truncated, [7:4] reserved
 *   bytes 2-3 wire_len (u16 LE, 0 unknown)   bytes 4.. the n packet bytes:
 *
 *   8b/10b TLP   FB | R[3:0] Seq[11:8] | Seq[7:0] | TLP ... | LCRC x4 | FD/FE
 *   8b/10b DLLP  5C | 6 DLLP bytes (pcie.md §2) | FD
 *   128b/130b    STP token (4 bytes, §7.2.2) | TLP ... | LCRC x4 [| C0 C0 C0 C0]
 *                F0 AC | 6 DLLP bytes
 *   stripped     R[3:0] Seq[11:8] | Seq[7:0] | TLP ... | LCRC x4;  or 6 DLLP bytes
 *
 *   STP token    +0 L[3:0] 1111 | +1 P L[10:4] | +2 FCRC[3:0] Seq[11:8] | +3 Seq[7:0]
 *
 *   TLP DW0      byte 0 Fmt[2:0] Type[4:0]; byte 1 T9 TC[2:0] T8 Attr[2] R TH;
 *                byte 2 TD EP Attr[1:0] AT[1:0] Length[9:8]; byte 3 Length[7:0]
 *
 * A kind-7 DLLP fills the result's struct ual_pcie_dllp (r->pcie) exactly as
 * kind 4 does (same parser, same PD- checks); the analysis sees it the same
 * way. A TLP fills struct ual_pcie_nf (r->nf): its bytes stay in the record,
 * located by offsets. */
#ifndef UALINK_PCIE_NONFLIT_H
#define UALINK_PCIE_NONFLIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "ualink/pcie/dllp.h"

#define UAL_PCIE_NF_HDR      4u     /* record body bytes before the packet */
#define UAL_PCIE_NF_MAX_PKT  (4u * 1151u + 4u)   /* the longest framed TLP: STP L = 1151 and an EDB token */

enum ual_pcie_nf_enc { UAL_PCIE_NF_8B10B = 0, UAL_PCIE_NF_128B = 1, UAL_PCIE_NF_STRIPPED = 255 };
enum ual_pcie_nf_class { UAL_PCIE_NF_CL_FRAMING = 0, UAL_PCIE_NF_CL_TLP = 1, UAL_PCIE_NF_CL_DLLP = 2 };
#define UAL_PCIE_NF_INFO_CLASS   0x03u
#define UAL_PCIE_NF_INFO_NULL    0x04u
#define UAL_PCIE_NF_INFO_TRUNC   0x08u
#define UAL_PCIE_NF_INFO_RSVD    0xF0u

/* Symbols and tokens (§7.2.1, §7.2.2). */
#define UAL_PCIE_K_STP 0xFBu
#define UAL_PCIE_K_SDP 0x5Cu
#define UAL_PCIE_K_END 0xFDu
#define UAL_PCIE_K_EDB 0xFEu
#define UAL_PCIE_T_SDP0 0xF0u
#define UAL_PCIE_T_SDP1 0xACu
#define UAL_PCIE_T_EDB  0xC0u

/* The LCRC verdict (§7.3.2). */
enum ual_pcie_lcrc {
  UAL_PCIE_LCRC_NONE = 0,      /* not checkable: no TLP, truncated, or decode stopped at a framing finding */
  UAL_PCIE_LCRC_GOOD,
  UAL_PCIE_LCRC_BAD,           /* PN-LCRC */
  UAL_PCIE_LCRC_NULLIFIED,     /* EDB and the inverted LCRC: PN-NULLIFIED */
  UAL_PCIE_LCRC_NULLIFIED_BAD, /* EDB and neither: PN-NULLIFIED-BAD */
};

/* What the data link makes of a TLP record (§7.5.2 A1/A2) [P45]. */
enum ual_pcie_nf_dl {
  UAL_PCIE_DL_NONE = 0,        /* not a TLP (a DLLP, or the class is unknown) */
  UAL_PCIE_DL_GOOD,            /* good LCRC, not nullified: fed to the DL with its sequence number */
  UAL_PCIE_DL_BAD,             /* PN-LCRC / PN-NULLIFIED-BAD */
  UAL_PCIE_DL_NULLIFIED,       /* PN-NULLIFIED: its number comes again */
  UAL_PCIE_DL_UNKNOWN,         /* truncated, or stopped at a framing finding */
};

/* The ECRC verdict (§7.4.9). */
enum ual_pcie_ecrc { UAL_PCIE_ECRC_NONE = 0, UAL_PCIE_ECRC_GOOD, UAL_PCIE_ECRC_BAD, UAL_PCIE_ECRC_UNCHECKED };

/* What a byte 0 (Fmt/Type) is, by the layout of the rest of its header. */
enum ual_pcie_nf_kind {
  UAL_NF_K_RESERVED = 0,
  UAL_NF_K_MEM,                /* MRd, MRdLk, MWr */
  UAL_NF_K_IO,                 /* IORd, IOWr */
  UAL_NF_K_CFG,                /* CfgRd0/1, CfgWr0/1, TCfgRd */
  UAL_NF_K_ATOMIC,             /* FetchAdd, Swap, CAS */
  UAL_NF_K_DMWR,
  UAL_NF_K_CPL,                /* Cpl, CplD, CplLk, CplDLk */
  UAL_NF_K_MSG,                /* Msg, MsgD */
  UAL_NF_K_PREFIX,             /* 80h-9Fh */
};

/* One Fmt/Type value (T Table 2-3, §7.4.3). The types flit mode has too
 * come from the flit-mode Type table (tlp.h, its nf column: name, FC class,
 * data, header DWs, routing); these are the non-flit ones it lacks,
 * X(byte 0, "name", kind, header DW, data, FC, routing). 36h/37h, 76h/77h:
 * routing 110b/111b, reserved, decoded as local [P26]. */
#define UAL_PCIE_NF_ONLY_TYPES(X) \
  X(0x1B, "TCfgRd",       CFG,    3, 0, NPR,  ID) \
  X(0x36, "Msg-r110",     MSG,    4, 0, PR,   MSG) \
  X(0x37, "Msg-r111",     MSG,    4, 0, PR,   MSG) \
  X(0x76, "MsgD-r110",    MSG,    4, 1, PR,   MSG) \
  X(0x77, "MsgD-r111",    MSG,    4, 1, PR,   MSG) \
  X(0x80, "MR-IOV",       PREFIX, 1, 0, NONE, LOCAL) \
  X(0x90, "TPH",          PREFIX, 1, 0, NONE, LOCAL) \
  X(0x91, "PASID",        PREFIX, 1, 0, NONE, LOCAL) \
  X(0x92, "IDE",          PREFIX, 1, 0, NONE, LOCAL) \
  X(0x9E, "VendPrefixE0", PREFIX, 1, 0, NONE, LOCAL) \
  X(0x9F, "VendPrefixE1", PREFIX, 1, 0, NONE, LOCAL)
#define UAL_PCIE_NF_TCFGRD 0x1Bu   /* deprecated: PN-TLP-DEPRECATED */

struct ual_pcie_nf_type {
  const char *name;            /* NULL: reserved (PN-TLP-TYPE) */
  uint8_t kind;                /* enum ual_pcie_nf_kind */
  uint8_t hdr_dw;              /* 3 or 4 (a reserved value: by Fmt[0]); 1 for a prefix */
  uint8_t data;                /* Length DW of data follow the header (a reserved value: by Fmt[1]) */
  uint8_t fc;                  /* enum ual_pcie_tlp_fc (tlp.h) */
  uint8_t route;               /* enum ual_pcie_tlp_route (tlp.h) */
};
/* The row of a byte 0 (every value has one). */
void ual_pcie_nf_type(unsigned byte0, struct ual_pcie_nf_type *t);

/* Message codes (§7.4.7): X(code, "name", form, fixed Length, routings,
 * TC0, bytes 8-15). form: MSG (Msg only), MSGD (MsgD only), ANY, NJ (not
 * judged: ATS); fixed Length: of the MsgD form, 0 none; routings: the r
 * values allowed, bit r set (0: not judged); TC0: must use TC0; bytes 8-15
 * [P47]: RSVD reserved, RAW message-specific, VDM vendor-defined, PTM
 * reserved for Msg and raw for MsgD. The one table of message codes. */
#define UAL_PCIE_R_(r) (1u << (r))
#define UAL_PCIE_MSG_CODES(X) \
  X(0x00, "Unlock",                    MSG,  0, UAL_PCIE_R_(3), 1, RSVD) \
  X(0x01, "ATS Invalidate Request",    NJ,   0, UAL_PCIE_R_(2), 0, RAW) \
  X(0x02, "ATS Invalidate Completion", NJ,   0, UAL_PCIE_R_(2), 0, RAW) \
  X(0x04, "ATS Page Request",          NJ,   0, 0,              0, RAW) \
  X(0x05, "ATS PRG Response",          NJ,   0, UAL_PCIE_R_(2), 0, RAW) \
  X(0x10, "LTR",                       MSG,  0, UAL_PCIE_R_(4), 1, RAW) \
  X(0x12, "OBFF",                      MSG,  0, UAL_PCIE_R_(4), 1, RAW) \
  X(0x14, "PM_Active_State_Nak",       MSG,  0, UAL_PCIE_R_(4), 1, RSVD) \
  X(0x18, "PM_PME",                    MSG,  0, UAL_PCIE_R_(0), 1, RSVD) \
  X(0x19, "PME_Turn_Off",              MSG,  0, UAL_PCIE_R_(3), 1, RSVD) \
  X(0x1B, "PME_TO_Ack",                MSG,  0, UAL_PCIE_R_(5), 1, RSVD) \
  X(0x20, "Assert_INTA",               MSG,  0, UAL_PCIE_R_(4), 1, RSVD) \
  X(0x21, "Assert_INTB",               MSG,  0, UAL_PCIE_R_(4), 1, RSVD) \
  X(0x22, "Assert_INTC",               MSG,  0, UAL_PCIE_R_(4), 1, RSVD) \
  X(0x23, "Assert_INTD",               MSG,  0, UAL_PCIE_R_(4), 1, RSVD) \
  X(0x24, "Deassert_INTA",             MSG,  0, UAL_PCIE_R_(4), 1, RSVD) \
  X(0x25, "Deassert_INTB",             MSG,  0, UAL_PCIE_R_(4), 1, RSVD) \
  X(0x26, "Deassert_INTC",             MSG,  0, UAL_PCIE_R_(4), 1, RSVD) \
  X(0x27, "Deassert_INTD",             MSG,  0, UAL_PCIE_R_(4), 1, RSVD) \
  X(0x30, "ERR_COR",                   MSG,  0, UAL_PCIE_R_(0), 1, RAW) \
  X(0x31, "ERR_NONFATAL",              MSG,  0, UAL_PCIE_R_(0), 1, RSVD) \
  X(0x33, "ERR_FATAL",                 MSG,  0, UAL_PCIE_R_(0), 1, RSVD) \
  X(0x40, "Ignored (Attention_Indicator_Off)", MSG, 0, UAL_PCIE_R_(4), 0, RAW) \
  X(0x41, "Ignored (Attention_Indicator_On)", MSG, 0, UAL_PCIE_R_(4), 0, RAW) \
  X(0x43, "Ignored (Attention_Indicator_Blink)", MSG, 0, UAL_PCIE_R_(4), 0, RAW) \
  X(0x44, "Ignored (Power_Indicator_Off)", MSG, 0, UAL_PCIE_R_(4), 0, RAW) \
  X(0x45, "Ignored (Power_Indicator_On)", MSG, 0, UAL_PCIE_R_(4), 0, RAW) \
  X(0x47, "Ignored (Power_Indicator_Blink)", MSG, 0, UAL_PCIE_R_(4), 0, RAW) \
  X(0x48, "Ignored (Attention_Button_Pressed)", MSG, 0, UAL_PCIE_R_(4), 0, RAW) \
  X(0x50, "Set_Slot_Power_Limit",      MSGD, 1, UAL_PCIE_R_(4), 1, RSVD) \
  X(0x52, "PTM Request",               MSG,  0, UAL_PCIE_R_(4), 1, RSVD) \
  X(0x53, "PTM Response",              ANY,  1, UAL_PCIE_R_(4), 1, PTM) \
  X(0x54, "IDE Sync",                  MSG,  0, UAL_PCIE_R_(2) | UAL_PCIE_R_(4), 0, RAW) \
  X(0x55, "IDE Fail",                  MSG,  0, UAL_PCIE_R_(2) | UAL_PCIE_R_(4), 0, RAW) \
  X(0x7E, "Vendor_Defined Type 0",     ANY,  0, UAL_PCIE_R_(0) | UAL_PCIE_R_(2) | UAL_PCIE_R_(3) | UAL_PCIE_R_(4), 0, VDM) \
  X(0x7F, "Vendor_Defined Type 1",     ANY,  0, UAL_PCIE_R_(0) | UAL_PCIE_R_(2) | UAL_PCIE_R_(3) | UAL_PCIE_R_(4), 0, VDM)

enum ual_pcie_msg_form { UAL_PCIE_MF_MSG, UAL_PCIE_MF_MSGD, UAL_PCIE_MF_ANY, UAL_PCIE_MF_NJ };
enum ual_pcie_msg_b815 { UAL_PCIE_MB_RSVD, UAL_PCIE_MB_RAW, UAL_PCIE_MB_VDM, UAL_PCIE_MB_PTM };
struct ual_pcie_msg {
  const char *name;
  uint8_t code, form, len, routes, tc0, b815;
};
/* The row of a message code, NULL when undefined. */
const struct ual_pcie_msg *ual_pcie_msg(unsigned code);
/* PCI-SIG vendor-defined messages (Vendor ID 0001h, Subtype in byte 12;
 * T Tables 2-29..2-31 [P31]): X(subtype, "name", form, fixed Length, r). */
#define UAL_PCIE_VDM_PCISIG(X) \
  X(0x01, "Hierarchy ID", MSGD, 4, 3) \
  X(0x08, "DRS",          MSG,  0, 4) \
  X(0x09, "FRS",          MSG,  0, 0)
/* Name of a message code, NULL when undefined. */
const char *ual_pcie_msg_name(unsigned code);

#define UAL_PCIE_NF_MAX_PREFIX 8u    /* prefixes kept (their count goes on) */

/* A parsed non-flit TLP header (§7.4). Offsets are from the first TLP byte
 * (the first prefix, or DW0). Fields a header does not have are 0. */
struct ual_pcie_tlph {
  uint8_t complete;            /* the whole header was in the bytes */
  uint8_t prefixes;            /* prefix DWs before DW0 (saturates at 255) */
  uint8_t prefix[UAL_PCIE_NF_MAX_PREFIX];   /* byte 0 of each kept prefix */
  uint16_t hdr_off;            /* DW0 */
  uint8_t byte0;               /* Fmt/Type */
  uint8_t fmt, type;
  uint8_t kind, hdr_dw, has_data, fc, route;   /* from the row of byte0 (struct ual_pcie_nf_type) */
  uint8_t tc, t9, t8, attr;    /* attr: [2] IDO, [1] RO, [0] NS */
  uint8_t rsvd_ln, th, td, ep, at;
  uint16_t length;             /* Length[9:0] as sent */
  uint16_t len_dw;             /* 0 -> 1024 */
  /* requests (memory, IO, atomic, DMWr, config, messages) */
  uint16_t rid;                /* Requester ID */
  uint16_t tag;                /* T9 T8 Tag[7:0] (requests and completions); messages: byte 6 raw */
  uint8_t first_be, last_be;
  uint8_t st;                  /* TH = 1: ST[7:0] (in place of the Tag of MWr, the BEs of the others) */
  uint8_t ph;                  /* TH = 1: PH[1:0] */
  uint64_t addr;               /* memory/IO/atomic/DMWr: the address, bits 1:0 zero */
  uint16_t target;             /* config: Bus/Dev/Fn (bytes 8-9) */
  uint16_t reg;                /* config: register byte offset (ExtReg << 8 | Reg << 2) */
  /* completions */
  uint16_t cid;                /* Completer ID */
  uint8_t status, bcm;
  uint16_t byte_count;         /* Byte Count[11:0] as sent (0 means 4096) */
  uint8_t lower_addr;
  /* messages */
  uint8_t code, routing;       /* message code; r[2:0] = Type[2:0] */
  /* data and digest */
  uint16_t size;               /* TLP bytes the header asks for: 4 x (P + H + D + TD) */
  uint16_t pay_off, pay_len;   /* data bytes present (pay_len may be short of 4 x len_dw) */
  uint8_t ecrc;                /* enum ual_pcie_ecrc */
  uint32_t ecrc_rx, ecrc_calc; /* digest bytes read little-endian / computed (§7.4.9) */
};

/* A decoded kind-7 record. */
struct ual_pcie_nf {
  uint8_t encoding;            /* body byte 0 */
  uint8_t info_class;          /* info bits 1:0 as recorded */
  uint8_t cls;                 /* the packet: enum ual_pcie_nf_class, 0 when the first byte names neither */
  uint8_t nullified;           /* EDB (8b/10b), EDB token (128b/130b), info bit 2 (stripped) */
  uint8_t truncated;           /* info bit 3 */
  uint8_t framing_ok;          /* no framing finding ended the decode (§7.2 steps 1-2, §7.2.2 checks 1-3) */
  uint16_t wire_len;           /* body bytes 2-3 */
  uint16_t n;                  /* packet bytes in the record */
  /* DLLP: r->pcie holds it; decoded = it went through the §2 parser */
  uint8_t dllp_decoded;
  /* TLP */
  uint8_t dl;                  /* enum ual_pcie_nf_dl */
  uint8_t accepted;            /* accepted by the DL: good LCRC, not nullified, framing ok, not truncated */
  uint16_t seq;                /* Seq[11:8] Seq[7:0] */
  uint8_t seq_rsvd;            /* the 4 bits before Seq[11:8] as received (128b/130b: 0) */
  uint16_t seq_off;            /* body offset of byte A (the reserved/Seq[11:8] byte; 128b/130b: STP +2) */
  uint16_t tlp_off, tlp_len;   /* body offset and length of the TLP bytes (prefixes .. digest) */
  uint16_t lcrc_off;           /* body offset of the 4 LCRC bytes (0: not present) */
  uint32_t lcrc_rx;            /* the 4 LCRC bytes read little-endian (wire byte 0 = bits 7:0) */
  uint32_t lcrc_calc;          /* computed the same way (ual_pcie_lcrc) */
  uint8_t lcrc;                /* enum ual_pcie_lcrc */
  /* 128b/130b STP token */
  uint16_t stp_len;            /* TLP Length L[10:0] in DW */
  uint8_t fcrc_rx, fcrc_calc, parity_rx, parity_calc;
  struct ual_pcie_tlph h;
};

struct ual_findings;

/* ---- CRCs and tokens (pure) ---- */

/* CRC-32 of the LCRC/ECRC (§7.3.2 [P23]): the reflected CRC-32 of the
 * bytes; on the wire it is stored little-endian (out[0] = bits 7:0). */
uint32_t ual_pcie_crc32(const uint8_t *p, size_t n);
/* LCRC of a TLP: over byte A (seq_rsvd << 4 | Seq[11:8]), byte B (Seq[7:0])
 * and the TLP bytes. In 128b/130b pass seq_rsvd = 0. */
uint32_t ual_pcie_lcrc(unsigned seq_rsvd, unsigned seq, const uint8_t *tlp, size_t n);
/* The 4 wire bytes of a CRC-32 value (little-endian). */
void ual_pcie_crc32_put(uint32_t c, uint8_t out[4]);
uint32_t ual_pcie_crc32_get(const uint8_t in[4]);
/* ECRC of a TLP without its digest (§7.4.9): end-end prefixes, header and
 * data, local prefixes skipped, the header's Type[0] and EP taken as 1. */
uint32_t ual_pcie_ecrc(const uint8_t *tlp, size_t n);
/* Frame CRC C[3:0] and parity P of a TLP Length (§7.2.2 [P24]). */
unsigned ual_pcie_stp_fcrc(unsigned len_dw);
unsigned ual_pcie_stp_parity(unsigned len_dw);
/* The 4-byte STP token of TLP Length len_dw (11 bits) and a sequence number. */
void ual_pcie_stp_token(unsigned len_dw, unsigned seq, uint8_t out[4]);

/* ---- building records (pure) ---- */

/* A kind-7 body of a TLP: encoding, sequence number, the TLP bytes
 * (prefixes .. digest), nullify (8b/10b EDB, 128b/130b EDB token,
 * stripped info bit 2; the LCRC inverted), truncate_to (0: whole; else the
 * packet bytes kept, info bit 3 set, wire_len the whole length). Class 1.
 * Returns the body length, 0 when cap is too small. */
size_t ual_pcie_nf_build_tlp(unsigned encoding, unsigned seq, const uint8_t *tlp, size_t n, bool nullify,
                             size_t truncate_to, uint8_t *body, size_t cap);
/* A kind-7 body of a DLLP (6 bytes as ual_pcie_dllp_build makes them). */
size_t ual_pcie_nf_build_dllp(unsigned encoding, const uint8_t dllp[UAL_PCIE_DLLP_BYTES], uint8_t *body,
                              size_t cap);

/* Field values of a TLP header to build (§7.4). */
struct ual_pcie_tlp_fields {
  uint8_t byte0;               /* Fmt/Type */
  uint8_t tc, attr, th, td, ep, at;   /* attr: [2] IDO, [1] RO, [0] NS */
  uint16_t length;             /* Length[9:0] (1024 -> 0) */
  uint16_t rid, tag;           /* tag: 10 bits (T9 T8 byte 6); messages: byte 6 */
  uint8_t first_be, last_be, ph;
  uint64_t addr;               /* 3-DW: bits 31:2; 4-DW: 63:2 */
  uint16_t target, reg;        /* config: Bus/Dev/Fn, register byte offset */
  uint16_t cid;
  uint8_t status, bcm;
  uint16_t byte_count;         /* 4096 -> 0 */
  uint8_t lower_addr;
  uint8_t code;                /* message code */
  uint8_t msg[8];              /* message bytes 8-15 as sent */
};
/* Writes the header (3 or 4 DW by byte0's row; 4 for a reserved one) into
 * out; returns its length in bytes, 0 when cap is too small. The data and
 * the digest are the caller's (ual_pcie_tlp_build below). */
size_t ual_pcie_tlp_header(const struct ual_pcie_tlp_fields *f, uint8_t *out, size_t cap);
/* A whole TLP: the header, n_data data bytes, and with f->td the ECRC.
 * Returns its length, 0 when cap is too small. */
size_t ual_pcie_tlp_build(const struct ual_pcie_tlp_fields *f, const uint8_t *data, size_t n_data, uint8_t *out,
                          size_t cap);

/* ---- decoding ---- */

/* Parses a TLP (prefixes .. digest, n bytes) into h: header fields, size,
 * payload and ECRC. No findings. */
void ual_pcie_tlph_parse(const uint8_t *tlp, size_t n, struct ual_pcie_tlph *h);
/* Decodes a kind-7 body (len bytes, the record header already checked):
 * framing, sequence number, LCRC, header, the DLLP into *dllp, with the
 * stateless findings. Returns false for a malformed record (§7.1): nothing
 * is then decoded. */
bool ual_pcie_nf_decode(const uint8_t *body, size_t len, struct ual_pcie_nf *nf, struct ual_pcie_dllp *dllp,
                        struct ual_findings *f);
/* Settings the per-TLP rules need that the TLP does not show. */
struct ual_pcie_nf_rules_cfg {
  uint8_t ari;                 /* the link's IDs are ARI (--ari) [P27] */
  int8_t down;                 /* the sender is the downstream component (it sends upstream): 1; the upstream
                                  component: 0; unknown: -1 (PN-MSG-DIR, PN-MSG-INTX direction silent) */
};
/* The per-TLP rules of §7.7 (PN-TLP-*, PN-POISONED, PN-ECRC, PN-MSG-*,
 * PN-CPL-UR/CA/RRS/STATUS-RSVD/BCM/FORM) on a decoded kind-7 TLP record
 * (body = the record body). Nothing unless nf->accepted. They judge first
 * deliveries only [P35], which the data-link tracker alone knows: the
 * analysis calls this for them (a retransmission is judged by the DL rules
 * only). */
void ual_pcie_nf_tlp_rules(const struct ual_pcie_nf *nf, const uint8_t *body, const struct ual_pcie_nf_rules_cfg *c,
                           struct ual_findings *f);
/* Whether a body is a well-formed kind-7 record (§7.1). */
bool ual_pcie_nf_body_ok(const uint8_t *body, size_t len);
/* The DLLP bytes of a DLLP record (n = 6), NULL when not one. */
static inline bool ual_pcie_nf_is_dllp(const struct ual_pcie_nf *nf) { return nf->cls == UAL_PCIE_NF_CL_DLLP; }
static inline bool ual_pcie_nf_is_tlp(const struct ual_pcie_nf *nf) { return nf->cls == UAL_PCIE_NF_CL_TLP; }

#endif
