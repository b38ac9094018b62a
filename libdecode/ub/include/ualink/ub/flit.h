/* UB data link flits (digest ub-dl.md §3): 20-byte flits grouped into
 * blocks. A DLLDP is 1-512 flits in 1-16 DLLDBs of at most 32 flits; a
 * DLLCB is one block of 1-32 flits. The first flit of a block starts with
 * LPH (DLLDB 0), LBH (later DLLDBs) or LCH (DLLCB). In CRC mode the last
 * flit of every block ends with BCRC (bytes 16-19); in non-CRC mode only
 * the last flit of a DLLDP/DLLCB has END (byte 19).
 *
 *   LPH  byte 0         byte 1             byte 2            byte 3
 *       +-+-+-------+-+-+-------+-+-------+---+-------+---+-----+---------+
 *       |C|A|CRD_VL |r|V|VL[2:0]|r| CFG   |RT |PL13:10|9:8|7:5  | end code|
 *       +-+-+-------+-+-+-------+-+-------+---+-------+---+-----+---------+
 *   LCH  0 CLENGTH 1 0 | 0000 CFG=0       | CTRL SUB_CTRL | type-specific
 *   BCRC 16[7] rsvd, 16[6] ERROR_FLAG, 16[5:0]..19 CRC30 (MSB first)
 *
 * One flit record is one flit, so where a flit sits in its block is the
 * business of a per-direction receiver (struct ual_ub_rx) that follows the
 * blocks as T §4.3.4.1 describes; it also checks BCRC, reassembles DLLDPs
 * and decodes DLLCBs. Pure: no I/O, no allocation. */
#ifndef UALINK_UB_FLIT_H
#define UALINK_UB_FLIT_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "ualink/core/rules.h"

#define UAL_UB_FLIT_BYTES       20
#define UAL_UB_BLOCK_MAX_FLITS  32
#define UAL_UB_DLLDP_MAX_DBS    16
#define UAL_UB_DLLDP_MAX_FLITS  512
#define UAL_UB_VLS              16
#define UAL_UB_BCRC_OFFSET      16   /* BCRC: bytes 16..19 of a block's last flit */
#define UAL_UB_END_OFFSET       19   /* END: byte 19 of a unit's last flit (non-CRC) */
#define UAL_UB_LPH_BYTES        4
#define UAL_UB_LBH_BYTES        2
#define UAL_UB_LANE_CMD_OFFSET  4    /* Lane_Manage CMD byte 0 = flit byte 4 (U16) */
#define UAL_UB_RETRY_SET_BLOCKS 32   /* Retry_Idle + 32 Retry_Req / Retry_Ack */
#define UAL_UB_PAYLOAD_MAX      (UAL_UB_DLLDP_MAX_FLITS * UAL_UB_FLIT_BYTES)

/* Mode of the link (record byte 7 hint U6, event 13 U7). */
enum ual_ub_mode { UAL_UB_MODE_UNKNOWN = 0, UAL_UB_MODE_CRC = 1, UAL_UB_MODE_NONCRC = 2 };

/* Where a flit sits, as the receiver found it. */
enum ual_ub_role {
  UAL_UB_FR_UNSYNCED = 0,  /* block boundaries not known yet */
  UAL_UB_FR_LPH = 1,       /* first flit of DLLDB 0 */
  UAL_UB_FR_LBH = 2,       /* first flit of a later DLLDB */
  UAL_UB_FR_LCH = 3,       /* first flit of a DLLCB */
  UAL_UB_FR_BODY = 4,      /* any later flit of a block */
};

/* DLLCB types: X(enum suffix, byte 2 = CTRL<<4 | SUB_CTRL, "name", CLENGTH
 * min, max, control plane) (T Table 4-6). */
#define UAL_UB_CB_TYPES(X) \
  X(NULL_BLOCK,  0x00, "Null",           0, 0, 0) \
  X(NOP,         0x01, "No_Operation",   0, 0, 0) \
  X(RETRY_IDLE,  0x10, "Retry_Idle",     0, 0, 0) \
  X(RETRY_REQ,   0x11, "Retry_Req",      0, 0, 0) \
  X(RETRY_ACK,   0x12, "Retry_Ack",      0, 0, 0) \
  X(CRD_ACK,     0x24, "Crd_Ack",        1, 1, 0) \
  X(PARAM_EXCHG, 0x30, "Param_Exchg",    0, 31, 1) \
  X(LANE_MANAGE, 0x41, "Lane_Manage",    0, 0, 1) \
  X(MODE_CHG,    0x50, "Block_Mode_Chg", 0, 0, 1) \
  X(INIT,        0xC8, "Init",           4, 31, 1)

enum ual_ub_cb_type {
#define UAL_X_(e, code, name, lo, hi, ctrl) UAL_UB_CB_##e,
  UAL_UB_CB_TYPES(UAL_X_)
#undef UAL_X_
  UAL_UB_CB_UNKNOWN
};
const char *ual_ub_cb_name(enum ual_ub_cb_type t);
unsigned ual_ub_cb_code(enum ual_ub_cb_type t);
enum ual_ub_cb_type ual_ub_cb_lookup(unsigned byte2);
/* Retry buffer: every block but Null and Retry_* is backed up (T §4.7.3.2.1). */
bool ual_ub_cb_backed_up(enum ual_ub_cb_type t);

/* Block_Mode_Chg TYPE */
#define UAL_UB_MC_REQ 0
#define UAL_UB_MC_ACK 1

/* Init Block parameters (digest table 3.5). Bitmap fields: bit k = 2^k. */
struct ual_ub_init {
  uint16_t feature_id;
  uint8_t share;                /* RXBUF_VL_SHARE */
  uint8_t data_ack_grain, ctrl_ack_grain, flow_ctrl_size;   /* bitmaps */
  uint16_t vl_enable;
  uint16_t retry_buf_depth;
  uint8_t min_interval;
  uint8_t ctrl_grain[UAL_UB_VLS], data_grain[UAL_UB_VLS];   /* bitmaps */
};

/* Lane_Manage CMD (T Table 4-7). */
struct ual_ub_lane {
  uint8_t req_id, power_down, change_rlw, change_tlw;
  uint8_t rsp_id, rx_lane_up, rsp_rlw, rsp_tlw;
  uint8_t tlw, rlw;             /* codes: 1 X1, 2 X2, 4 X4, 8 X8 */
};

/* A decoded DLLCB. */
struct ual_ub_dllcb {
  uint8_t type;                 /* enum ual_ub_cb_type */
  uint8_t code;                 /* byte 2 */
  uint8_t flits;                /* CLENGTH + 1 */
  struct { uint16_t rcv_ptr; uint8_t num_phy_reinit, num_retry; } rq;
  struct { uint8_t num_retry; uint16_t num_free_buf, rd_ptr, wr_ptr; } ra;
  struct { uint8_t sd, t; uint16_t ack_num; uint8_t crd[UAL_UB_VLS]; } ca;
  uint32_t param0;              /* PARAM_EXCHG_DATA of flit 0 */
  struct ual_ub_lane lane;
  uint8_t mc_type;
  struct ual_ub_init init;
};

/* What ended with this flit: a DLLDP or a DLLCB. */
enum ual_ub_unit_kind { UAL_UB_UNIT_NONE = 0, UAL_UB_UNIT_DLLDP = 1, UAL_UB_UNIT_DLLCB = 2 };

struct ual_ub_unit {
  uint8_t kind;                 /* enum ual_ub_unit_kind */
  uint8_t good;                 /* every block passed BCRC (CRC mode), or non-CRC */
  uint8_t error_flag;           /* ERROR_FLAG of the last block / END */
  uint8_t vl, cfg, crd, ack, crd_vl;   /* DLLDP: from the LPH */
  uint16_t flits;               /* F */
  uint8_t blocks;
  uint16_t payload_len;         /* DLLDP payload bytes, 0 if the end code is not usable */
  uint64_t first_frame;
  struct ual_ub_dllcb cb;       /* DLLCB */
};

/* The stateless part of a flit record plus what the receiver found. */
struct ual_ub_flit {
  uint8_t mode;                 /* enum ual_ub_mode the flit was read in */
  uint8_t role;                 /* enum ual_ub_role */
  uint8_t block_flits;          /* flits of the block this flit is in (0 unknown) */
  uint8_t flit_in_block;        /* 0-based */
  uint8_t block_index;          /* DLLDB index in its DLLDP */
  uint8_t block_end;            /* last flit of its block */
  uint8_t cb_type;              /* block start LCH: enum ual_ub_cb_type */
  uint8_t crc_checked, crc_ok;  /* block_end in CRC mode */
  uint32_t crc_rx, crc_calc;
  uint8_t error_flag;           /* block_end: BCRC/END ERROR_FLAG */
  uint8_t hdr_crd, hdr_ack, hdr_crd_vl;   /* LPH/LBH: credit and ACK return */
  uint16_t skipped;             /* flits before this block that no block found held (hunting) */
  uint8_t dp_unsure;            /* a DLLDB read before the DLLDP boundaries are known: its block
                                   may be a later DLLDB taken for DLLDB 0 (no DLLDP delivered) */
  struct ual_ub_unit unit;      /* unit.kind != NONE: a unit ended here */
  const uint8_t *payload;       /* DLLDP payload (valid until the next record), or NULL */
};

/* The flit ends a block whose BCRC was checked and failed (UB-BCRC). */
static inline bool ual_ub_bcrc_bad(const struct ual_ub_flit *u) { return u->crc_checked && !u->crc_ok; }

/* Receiver of one direction: block boundaries, BCRC, DLLDP reassembly. */
struct ual_ub_rx {
  uint8_t mode;                 /* enum ual_ub_mode in force, UNKNOWN until known */
  uint8_t synced;
  uint8_t hunt_n;               /* flits in blk while hunting (a sliding window) */
  uint16_t hunt_seen;           /* flits fed while hunting */
  uint8_t blk_n, blk_len;       /* flits of the current block received / expected */
  uint8_t blk_role;             /* role of its first flit */
  uint8_t in_dlldp, db, ndb, nlast;
  uint8_t dp_lost;              /* a DLLDB of the DLLDP failed: it is not delivered */
  uint16_t dp_flits;
  uint16_t pay_n;
  uint64_t dp_frame, blk_frame;
  struct ual_ub_unit dp;        /* DLLDP being reassembled: its LPH fields */
  /* Go-back-N: the DLLDP context at the first bad block, restored when the
   * replay starts (after a Retry_Ack), since RcvPtr may point at a later
   * DLLDB of a DLLDP. */
  uint8_t err_open, ack_seen;
  uint8_t blind;                /* a bad block may be unseen (before the capture or the link-up, or
                                   skipped while hunting) since the last replay */
  uint8_t fresh;                /* the stream began at a link-up: the first block found is no later DLLDB */
  uint8_t dp_unsure;            /* DLLDP boundaries not known since the blocks were found by hunting:
                                   2 the DLLDP being read began at the block hunting found (it may be
                                   a later DLLDB), 1 a DLLDP begun after a block end; a DLLDP read
                                   whole from an LPH of state 1 ends it. Meanwhile a failed BCRC
                                   means the framing was wrong: hunt again, no UB-BCRC */
  struct {
    uint8_t in_dlldp, db, ndb, nlast, dp_unsure, blind;
    uint16_t dp_flits, pay_n;
    uint64_t dp_frame;
    struct ual_ub_unit dp;
    uint8_t lph[UAL_UB_LPH_BYTES];
  } snap;
  uint8_t lph[UAL_UB_LPH_BYTES];
  uint8_t blk[UAL_UB_BLOCK_MAX_FLITS * UAL_UB_FLIT_BYTES];
  uint8_t pay[UAL_UB_PAYLOAD_MAX];
};

void ual_ub_rx_init(struct ual_ub_rx *rx);
/* The link went down or retrained, or records were lost: block boundaries
 * are unknown again (the mode is kept unless mode is not UNKNOWN; so is
 * `blind`, which a link-up clears). */
void ual_ub_rx_resync(struct ual_ub_rx *rx, enum ual_ub_mode mode);
/* A link-up: the blocks are found again, and nothing before it is replayed
 * or continued (no DLLDP is in progress). */
void ual_ub_rx_linkup(struct ual_ub_rx *rx);
/* One flit of this direction. hint is the record's mode hint (U6), 0 when
 * none; fec_bad = flags bit 1 (U2). Fills out and the stateless findings
 * of the blocks (BCRC, headers, PLENGTH, padding, reserved bits). */
void ual_ub_rx_flit(struct ual_ub_rx *rx, const uint8_t flit[UAL_UB_FLIT_BYTES], unsigned hint, uint64_t frame,
                    struct ual_ub_flit *out, struct ual_findings *f);

/* CRC-30 (digest §4): the register after `bits` bits of msg, MSB-first,
 * from init. ual_ub_crc30 is the block's BCRC (coverage U14). */
#define UAL_UB_CRC30_INIT 0x3FFFFFFFu
#define UAL_UB_CRC30_POLY 0x15A94AD5u
uint32_t ual_ub_crc30_bits(uint32_t reg, const uint8_t *msg, size_t bits);
/* The CRC30 of a block of n flits: coverage and the two BCRC bits (U14). */
uint32_t ual_ub_block_crc30(const uint8_t *block, unsigned nflits);

/* PLENGTH end code (digest §3.2): where the payload ends. Returns false for
 * a reserved code; *penult = the payload ends in the flit before the last,
 * *bytes = payload bytes in that flit. */
bool ual_ub_end_code(enum ual_ub_mode mode, unsigned code, bool *penult, unsigned *bytes);
/* The inverse for an encoder: the end code for bytes in the ending flit. */
int ual_ub_end_code_for(enum ual_ub_mode mode, bool penult, unsigned bytes);
/* Payload bytes a flit can hold: k-th flit (0-based) of a block, in a block
 * of n flits, first = LPH/LBH/body, tail = the last flit of the unit. */
unsigned ual_ub_flit_capacity(enum ual_ub_mode mode, enum ual_ub_role first, unsigned k, unsigned n, bool unit_last);

/* ---- encoders (the generator and the tests) ---- */

/* Seals a block of n flits: BCRC (CRC mode) or END (non-CRC, when
 * unit_last) with error_flag; n <= 32. */
void ual_ub_seal(enum ual_ub_mode mode, uint8_t *block, unsigned nflits, bool unit_last, bool error_flag);
/* Writes the LCH of a DLLCB into flit 0 (byte 3 and the rest untouched). */
void ual_ub_lch_put(uint8_t *flit0, enum ual_ub_cb_type t, unsigned nflits);
/* Encodes a DLLCB's fields (type-specific bytes only) into its flits; the
 * caller zeroes them first and seals afterwards. */
void ual_ub_dllcb_put(uint8_t *flits, const struct ual_ub_dllcb *cb);
/* Builds a whole DLLDP: LPH fields from u (vl, cfg, crd, ack, crd_vl),
 * payload of len bytes; out receives the flits (sealed), returns the flit
 * count (0 when len does not fit 512 flits). */
unsigned ual_ub_dlldp_build(enum ual_ub_mode mode, const struct ual_ub_unit *u, const uint8_t *payload,
                            unsigned len, bool error_flag, uint8_t *out, size_t cap_flits);
/* Decodes the fields of a DLLCB whose n flits are at flits. */
void ual_ub_dllcb_get(const uint8_t *flits, unsigned nflits, struct ual_ub_dllcb *cb);

#endif
