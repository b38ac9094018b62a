/* The 256-byte flit: header, segments and sectors, DLLPs, classification and
 * the stateless decode (digest §2, §5.3). */
#ifndef UALINK_UALINK_FLIT_H
#define UALINK_UALINK_FLIT_H

#include <stdint.h>
#include <stdbool.h>
#include "ualink/core/crc.h"
#include "ualink/core/rules.h"

/*  FH0                              FH1
 *  7   6   5     4      3   2   1  0   7 ........ 0
 * +-------+-----+------+-------+-----+------------+
 * |Use1:0 |Prior|Use[2]|RplyCmd|Sq9:8|  Seq[7:0]  |   Table 3-1
 * +-------+-----+------+-------+-----+------------+ */
enum ual_replay_cmd {
  UAL_RC_SEQ = 0,            /* explicit sequence number */
  UAL_RC_ACK = 1,
  UAL_RC_NAK = 2,            /* replay all unacknowledged (go-back-N) */
  UAL_RC_NAK_SELECTIVE = 3   /* replay one flit */
};

/* 3-bit Flit Usage codes (D5). */
#define UAL_USAGE_NOP_IDLE 0
#define UAL_USAGE_PAYLOAD  2

enum ual_flit_kind { UAL_FK_PAYLOAD, UAL_FK_NOP, UAL_FK_IDLE, UAL_FK_RESERVED };
const char *ual_flit_kind_name(enum ual_flit_kind k);     /* "payload", "nop", "idle", "reserved" */
const char *ual_replay_cmd_name(enum ual_replay_cmd c);   /* "seq", "ack", "nak", "nak_selective" */

struct ual_fh {
  uint8_t usage;          /* 3-bit code: Usage[2] << 2 | Usage[1:0] */
  uint8_t prior_payload;  /* Prior Flit Type */
  uint8_t replay_cmd;     /* enum ual_replay_cmd */
  uint16_t seq;           /* 10-bit field as sent */
};

void ual_fh_decode(const uint8_t *flit, struct ual_fh *fh);
void ual_fh_encode(const struct ual_fh *fh, uint8_t *flit);

/* Segments and sectors (Table 2-1, D2). */
#define UAL_SEGMENTS        4
#define UAL_SECTORS         59
#define UAL_SECTOR_BYTES    4
#define UAL_TL_FLIT_BYTES   64
#define UAL_TL_FLIT_SECTORS 16

struct ual_segment_def {
  uint8_t sh_byte;        /* flit byte of the segment header */
  uint8_t first_sector;   /* flit-wide sector number */
  uint8_t n_sectors;
};
/* Table 2-1 with D2: each segment header immediately precedes its sectors. */
#define UAL_SEGMENT_MAP_INIT { { 2, 0, 16 }, { 67, 16, 15 }, { 128, 31, 16 }, { 193, 47, 12 } }
extern const struct ual_segment_def ual_segment_map[UAL_SEGMENTS];
/* Flit byte offset of flit-wide sector s (0..58). */
unsigned ual_sector_offset(unsigned s);

/* Segment header (Table 2-2):  7    6..2    1    0
 *                             rsvd  TLBeat  rsvd  DLAltSector */
enum ual_tlbeat {
  UAL_TB_NONE = 0, UAL_TB_TL, UAL_TB_TL_M1, UAL_TB_TL_M0, UAL_TB_TL_M0M1, UAL_TB_INVALID
};
#define UAL_TLBEAT_CODE_NONE  0x00
#define UAL_TLBEAT_CODE_TL    0x0F
#define UAL_TLBEAT_CODE_M1    0x12
#define UAL_TLBEAT_CODE_M0    0x1B
#define UAL_TLBEAT_CODE_M0M1  0x1E

struct ual_sh {
  uint8_t raw;
  uint8_t alt;            /* DLAltSector */
  uint8_t tlbeat_code;    /* 5-bit code */
  uint8_t tlbeat;         /* enum ual_tlbeat */
  uint8_t m0, m1;
  uint8_t rsvd;           /* reserved bits 1 and 7 as in the byte */
};
void ual_sh_decode(uint8_t raw, struct ual_sh *sh);
uint8_t ual_sh_encode(bool alt, bool tl_start, unsigned m0, unsigned m1);
/* TLBeat code for a TL flit start with metadata m0/m1. */
uint8_t ual_tlbeat_code(unsigned m0, unsigned m1);
const char *ual_tlbeat_name(enum ual_tlbeat t); /* "none", "tl", "tl_m1", "tl_m0", "tl_m0m1", "invalid" */

/* Flit-mode DLLPs in NOP/IDLE flits (Table 3-2, D4, D6). */
#define UAL_DLLP_OFFSET          2
#define UAL_DLLP_NOP2            0x00
#define UAL_DLLP_PM_ENTER_L1     0x20
#define UAL_DLLP_PM_ENTER_L23    0x21
#define UAL_DLLP_PM_AS_REQ_L1    0x23
#define UAL_DLLP_PM_REQUEST_ACK  0x24
#define UAL_DLLP_LINK_MGMT       0x28
#define UAL_DLLP_NOP             0x31

enum ual_dllp_name {
  UAL_DN_NOP2, UAL_DN_NOP, UAL_DN_PM_ENTER_L1, UAL_DN_PM_REQUEST_ACK, UAL_DN_LINK_MGMT, UAL_DN_OTHER
};
const char *ual_dllp_name_str(enum ual_dllp_name n); /* JSON names: "nop2", ... "other" */

/* Link Management command codes */
#define UAL_LM_REQUEST 0x4
#define UAL_LM_ACK     0x6
#define UAL_LM_NAK     0x7

struct ual_dllp {
  uint8_t b[4];
  uint8_t type;           /* byte 0 */
  uint8_t name;           /* enum ual_dllp_name */
  /* Link Management (type 28h) */
  uint8_t lm_type, lm_priority, lm_cmd, lm_response, lm_width;
};
void ual_dllp_decode(const uint8_t *b4, struct ual_dllp *d);
void ual_dllp_encode(const struct ual_dllp *d, uint8_t *b4); /* from type and lm_* (or b[] for others) */

/* What the DL stream analysis reads of a payload flit: the segment
 * headers, each segment's first sector (its alternate sector when
 * DLAltSector is set) and how many sectors at each segment's end are zero.
 * The flit decode fills it, so that a -j worker hands over these 24 bytes
 * and the thread that runs the analysis need not read the flit itself
 * (it reads the bytes only before the stream is synchronized, for a
 * zero-fill finding's text, to hold the flit for a selective replay, and
 * for the TL flits' data when a front-end wants it). */
struct ual_flit_view {
  uint32_t first_dw[UAL_SEGMENTS];  /* little-endian (D1) */
  uint8_t sh[UAL_SEGMENTS];         /* segment header bytes */
  uint8_t zero_tail[UAL_SEGMENTS];  /* trailing all-zero sectors of each segment */
};
void ual_flit_view(const uint8_t *flit, struct ual_flit_view *v);

/* Everything decodable from one flit alone. */
struct ual_flit_info {
  uint8_t bytes[UAL_FLIT_BYTES];   /* after FEC correction */
  struct ual_fh fh;
  uint8_t kind;                    /* enum ual_flit_kind */
  struct ual_fec_result fec;
  uint8_t crc_rx[UAL_CRC_BYTES];   /* as received (after FEC correction) */
  uint8_t crc_calc[UAL_CRC_BYTES];
  bool crc_ok;
  bool crc_inverted;               /* containment poisoning */
  bool valid;                      /* FEC not uncorrectable and CRC ok */
  struct ual_sh sh[UAL_SEGMENTS];  /* payload flits */
  struct ual_flit_view view;       /* payload flits; zero for the others */
  struct ual_dllp dllp;            /* NOP/IDLE flits */
};

/* Decodes a raw flit (before FEC) and raises the stateless PL-* findings and
 * the segment-header ones (DL-SH-RESERVED, DL-TLBEAT). Packing rules that
 * need carry-over state are checked by the unpacker (pack.h). */
void ual_flit_decode(const uint8_t *raw, struct ual_flit_info *fi, struct ual_findings *f);
/* Its parts shared with PCIe flits (same CRC-64/FEC coverage, pcie.md [P2]):
 * the corrected bytes, FEC and CRC results and valid; the PL-FEC-* /
 * PL-CRC* findings of those; the flit kind from a flit header (PCIe: DLP0/1). */
void ual_flit_fec_crc(const uint8_t *raw, struct ual_flit_info *fi);
void ual_flit_fec_crc_findings(const struct ual_flit_info *fi, struct ual_findings *f);
enum ual_flit_kind ual_flit_kind_of(const struct ual_fh *fh);

/* Builders: fill bytes 0..241 and seal CRC+FEC. */
void ual_flit_build_nop(uint8_t *flit, const struct ual_fh *fh, const struct ual_dllp *d);
void ual_flit_build_idle(uint8_t *flit);  /* all-zero IDLE flit */

#endif
