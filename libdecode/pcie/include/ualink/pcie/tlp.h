/* PCIe 6.x flit-mode TLPs (digest pcie.md §3.2-§3.5): the Type table,
 * sizing a TLP from its DW0, and the walker that follows the TLP stream
 * across the 236 TLP bytes of successive flits.
 *
 *   DW0   byte 0 Type[7:0]
 *         byte 1 [7:5] TC, [4:0] OHC (bit 0 A, 1 B, 2 C, [4:3] E: 0/1/2/4 DW)
 *         byte 2 [7:5] TS, [4:2] Attr, [1:0] Length[9:8];  byte 3 Length[7:0]
 *   TLP   [local prefixes 80h-8Fh, 1 DW each] header base (base DW by Type)
 *         OHC words (A, B, C, E order) payload (Length DW, 0 = 1024, for
 *         types with data) trailer (TS: 0,1,1,2,2,3,4,5 DW)
 *
 * Field rows of DW0, the header bases and the OHC words: pcie/fields.h. */
#ifndef UALINK_PCIE_TLP_H
#define UALINK_PCIE_TLP_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#define UAL_PCIE_FLIT_TLP_BYTES 236u   /* flit bytes 0-235, 59 DW */
#define UAL_PCIE_FLIT_TLP_DW    59u
#define UAL_PCIE_TLP_MAX_HDR_DW 16u    /* prefixes (4) + base (7) + OHC (7), rounded: what the walker keeps */
/* Local prefixes kept in the held header: a longer run is counted, not
 * kept, so that DW0 always follows the kept ones in hdr[] */
#define UAL_PCIE_TLP_MAX_PREFIX_HELD 4u

enum ual_pcie_tlp_fc { UAL_TLP_FC_NONE, UAL_TLP_FC_PR, UAL_TLP_FC_NPR, UAL_TLP_FC_CPL };
/* Routing / header-base layout. */
enum ual_pcie_tlp_route { UAL_TLP_RT_NONE, UAL_TLP_RT_A32, UAL_TLP_RT_A64, UAL_TLP_RT_ID, UAL_TLP_RT_LOCAL,
                          UAL_TLP_RT_MSG };
/* Header-base kind: which rows decode DW1+ (pcie/fields.h). */
enum ual_pcie_tlp_hdr { UAL_TLP_H_NONE, UAL_TLP_H_MEM, UAL_TLP_H_CFG, UAL_TLP_H_MSG, UAL_TLP_H_CPL };

/* The Type table (T Table 2-5): X(first code, last code, named (0 =
 * reserved), "name", FC, data (1 = Length DW of payload), base DW, routing, header
 * kind, nf). Every code 00h-FFh is in exactly one row; reserved codes are sized
 * from it. The one table of TLP types: nf = 1 marks the types non-flit mode
 * has too, with Fmt/Type byte 0 = the code (MRd32 excepted: 00h there;
 * pcie.md §7.4.3; nonflit.h). */
#define UAL_PCIE_TLP_TYPES(X) \
  X(0x00, 0x00, 1, "NOP",        NONE, 0, 1, NONE, NONE, 0) \
  X(0x01, 0x01, 1, "MRdLk32",    NPR, 0, 3, A32, MEM, 1) \
  X(0x02, 0x02, 1, "IORd",       NPR, 0, 3, A32, MEM, 1) \
  X(0x03, 0x03, 1, "MRd32",      NPR, 0, 3, A32, MEM, 1) \
  X(0x04, 0x04, 1, "CfgRd0",     NPR, 0, 3, ID, CFG, 1) \
  X(0x05, 0x05, 1, "CfgRd1",     NPR, 0, 3, ID, CFG, 1) \
  X(0x06, 0x07, 0, "reserved", CPL, 1, 4, ID, NONE, 0) \
  X(0x08, 0x09, 0, "reserved", PR, 0, 3, ID, NONE, 0) \
  X(0x0A, 0x0A, 1, "Cpl",        CPL, 0, 3, ID, CPL, 1) \
  X(0x0B, 0x0B, 1, "CplLk",      CPL, 0, 3, ID, CPL, 1) \
  X(0x0C, 0x0C, 1, "UIOWrCpl",   CPL, 0, 3, ID, CPL, 0) \
  X(0x0D, 0x0D, 1, "UIORdCpl",   CPL, 0, 3, ID, CPL, 0) \
  X(0x0E, 0x0F, 0, "reserved", CPL, 0, 3, ID, NONE, 0) \
  X(0x10, 0x15, 0, "reserved", NPR, 1, 5, A64, NONE, 0) \
  X(0x16, 0x17, 0, "reserved", NPR, 1, 7, A64, NONE, 0) \
  X(0x18, 0x19, 0, "reserved", CPL, 0, 7, ID, NONE, 0) \
  X(0x1A, 0x1B, 0, "reserved", CPL, 1, 7, ID, NONE, 0) \
  X(0x1C, 0x1D, 0, "reserved", NPR, 0, 3, ID, NONE, 0) \
  X(0x1E, 0x1F, 0, "reserved", NPR, 0, 6, ID, NONE, 0) \
  X(0x20, 0x20, 1, "MRd64",      NPR, 0, 4, A64, MEM, 1) \
  X(0x21, 0x21, 1, "MRdLk64",    NPR, 0, 4, A64, MEM, 1) \
  X(0x22, 0x22, 1, "UIOMRd",     NPR, 0, 4, A64, MEM, 0) \
  X(0x23, 0x27, 0, "reserved", NPR, 0, 4, A64, NONE, 0) \
  X(0x28, 0x2B, 0, "reserved", CPL, 0, 4, ID, NONE, 0) \
  X(0x2C, 0x2D, 0, "reserved", PR, 0, 4, ID, NONE, 0) \
  X(0x2E, 0x2F, 0, "reserved", PR, 0, 5, ID, NONE, 0) \
  X(0x30, 0x30, 1, "Msg-RC",     PR, 0, 4, MSG, MSG, 1) \
  X(0x31, 0x31, 1, "Msg-Addr",   PR, 0, 4, MSG, MSG, 1) \
  X(0x32, 0x32, 1, "Msg-ID",     PR, 0, 4, MSG, MSG, 1) \
  X(0x33, 0x33, 1, "Msg-Bcast",  PR, 0, 4, MSG, MSG, 1) \
  X(0x34, 0x34, 1, "Msg-Local",  PR, 0, 4, MSG, MSG, 1) \
  X(0x35, 0x35, 1, "Msg-Gather", PR, 0, 4, MSG, MSG, 1) \
  X(0x36, 0x37, 0, "reserved", PR, 0, 4, MSG, NONE, 0) \
  X(0x38, 0x3B, 0, "reserved", NPR, 0, 4, A64, NONE, 0) \
  X(0x3C, 0x3D, 0, "reserved", NPR, 0, 4, ID, NONE, 0) \
  X(0x3E, 0x3F, 0, "reserved", NPR, 0, 5, ID, NONE, 0) \
  X(0x40, 0x40, 1, "MWr32",      PR, 1, 3, A32, MEM, 1) \
  X(0x41, 0x41, 0, "reserved", PR, 1, 6, ID, NONE, 0) \
  X(0x42, 0x42, 1, "IOWr",       NPR, 1, 3, A32, MEM, 1) \
  X(0x43, 0x43, 0, "reserved", PR, 1, 6, ID, NONE, 0) \
  X(0x44, 0x44, 1, "CfgWr0",     NPR, 1, 3, ID, CFG, 1) \
  X(0x45, 0x45, 1, "CfgWr1",     NPR, 1, 3, ID, CFG, 1) \
  X(0x46, 0x47, 0, "reserved", NPR, 1, 3, ID, NONE, 0) \
  X(0x48, 0x48, 1, "UIORdCplD",  CPL, 1, 3, ID, CPL, 0) \
  X(0x49, 0x49, 0, "reserved", CPL, 1, 3, ID, NONE, 0) \
  X(0x4A, 0x4A, 1, "CplD",       CPL, 1, 3, ID, CPL, 1) \
  X(0x4B, 0x4B, 1, "CplDLk",     CPL, 1, 3, ID, CPL, 1) \
  X(0x4C, 0x4C, 1, "FetchAdd32", NPR, 1, 3, A32, MEM, 1) \
  X(0x4D, 0x4D, 1, "Swap32",     NPR, 1, 3, A32, MEM, 1) \
  X(0x4E, 0x4E, 1, "CAS32",      NPR, 1, 3, A32, MEM, 1) \
  X(0x4F, 0x4F, 0, "reserved", PR, 0, 4, A64, NONE, 0) \
  X(0x50, 0x55, 0, "reserved", NPR, 1, 6, A64, NONE, 0) \
  X(0x56, 0x57, 0, "reserved", NPR, 1, 7, A64, NONE, 0) \
  X(0x58, 0x59, 0, "reserved", PR, 1, 3, ID, NONE, 0) \
  X(0x5A, 0x5A, 0, "reserved", PR, 1, 4, A64, NONE, 0) \
  X(0x5B, 0x5B, 1, "DMWr32",     NPR, 1, 3, A32, MEM, 1) \
  X(0x5C, 0x5D, 0, "reserved", PR, 1, 4, ID, NONE, 0) \
  X(0x5E, 0x5F, 0, "reserved", PR, 1, 5, ID, NONE, 0) \
  X(0x60, 0x60, 1, "MWr64",      PR, 1, 4, A64, MEM, 1) \
  X(0x61, 0x61, 1, "UIOMWr",     PR, 1, 4, A64, MEM, 0) \
  X(0x62, 0x6B, 0, "reserved", PR, 1, 4, A64, NONE, 0) \
  X(0x6C, 0x6C, 1, "FetchAdd64", NPR, 1, 4, A64, MEM, 1) \
  X(0x6D, 0x6D, 1, "Swap64",     NPR, 1, 4, A64, MEM, 1) \
  X(0x6E, 0x6E, 1, "CAS64",      NPR, 1, 4, A64, MEM, 1) \
  X(0x6F, 0x6F, 0, "reserved", NPR, 1, 4, A64, NONE, 0) \
  X(0x70, 0x70, 1, "MsgD-RC",    PR, 1, 4, MSG, MSG, 1) \
  X(0x71, 0x71, 1, "MsgD-Addr",  PR, 1, 4, MSG, MSG, 1) \
  X(0x72, 0x72, 1, "MsgD-ID",    PR, 1, 4, MSG, MSG, 1) \
  X(0x73, 0x73, 1, "MsgD-Bcast", PR, 1, 4, MSG, MSG, 1) \
  X(0x74, 0x74, 1, "MsgD-Local", PR, 1, 4, MSG, MSG, 1) \
  X(0x75, 0x75, 1, "MsgD-Gather",PR, 1, 4, MSG, MSG, 1) \
  X(0x76, 0x77, 0, "reserved", PR, 1, 4, MSG, NONE, 0) \
  X(0x78, 0x7A, 0, "reserved", NPR, 1, 4, A64, NONE, 0) \
  X(0x7B, 0x7B, 1, "DMWr64",     NPR, 1, 4, A64, MEM, 1) \
  X(0x7C, 0x7F, 0, "reserved", NPR, 1, 4, A64, NONE, 0) \
  X(0x80, 0x8C, 0, "reserved", NONE, 0, 1, LOCAL, NONE, 0) \
  X(0x8D, 0x8D, 1, "FlitModePrefix", NONE, 0, 1, LOCAL, NONE, 0) \
  X(0x8E, 0x8E, 1, "VendPrefixL0",   NONE, 0, 1, LOCAL, NONE, 1) \
  X(0x8F, 0x8F, 1, "VendPrefixL1",   NONE, 0, 1, LOCAL, NONE, 1) \
  X(0x90, 0x93, 0, "reserved", PR, 0, 4, A64, NONE, 0) \
  X(0x94, 0x97, 0, "reserved", PR, 0, 5, A64, NONE, 0) \
  X(0x98, 0x9B, 0, "reserved", PR, 0, 6, A64, NONE, 0) \
  X(0x9C, 0x9F, 0, "reserved", PR, 0, 7, A64, NONE, 0) \
  X(0xA0, 0xA7, 0, "reserved", NPR, 0, 5, ID, NONE, 0) \
  X(0xA8, 0xA9, 0, "reserved", PR, 0, 6, ID, NONE, 0) \
  X(0xAA, 0xAB, 0, "reserved", PR, 0, 7, ID, NONE, 0) \
  X(0xAC, 0xAD, 0, "reserved", CPL, 0, 5, ID, NONE, 0) \
  X(0xAE, 0xAF, 0, "reserved", CPL, 0, 6, ID, NONE, 0) \
  X(0xB0, 0xBF, 0, "reserved", PR, 1, 5, A64, NONE, 0) \
  X(0xC0, 0xC7, 0, "reserved", NPR, 0, 6, A64, NONE, 0) \
  X(0xC8, 0xC9, 0, "reserved", NPR, 0, 7, ID, NONE, 0) \
  X(0xCA, 0xCB, 0, "reserved", CPL, 1, 5, ID, NONE, 0) \
  X(0xCC, 0xCD, 0, "reserved", CPL, 1, 6, ID, NONE, 0) \
  X(0xCE, 0xCF, 0, "reserved", PR, 1, 7, ID, NONE, 0) \
  X(0xD0, 0xDF, 0, "reserved", PR, 1, 6, A64, NONE, 0) \
  X(0xE0, 0xE1, 0, "reserved", NONE, 0, 4, LOCAL, NONE, 0) \
  X(0xE2, 0xE3, 0, "reserved", NONE, 0, 6, LOCAL, NONE, 0) \
  X(0xE4, 0xE5, 0, "reserved", NONE, 1, 4, LOCAL, NONE, 0) \
  X(0xE6, 0xE7, 0, "reserved", NONE, 1, 6, LOCAL, NONE, 0) \
  X(0xE8, 0xEF, 0, "reserved", NPR, 0, 7, A64, NONE, 0) \
  X(0xF0, 0xF1, 0, "reserved", NPR, 1, 4, ID, NONE, 0) \
  X(0xF2, 0xF3, 0, "reserved", NPR, 1, 5, ID, NONE, 0) \
  X(0xF4, 0xF5, 0, "reserved", NPR, 1, 6, ID, NONE, 0) \
  X(0xF6, 0xF7, 0, "reserved", NPR, 1, 7, ID, NONE, 0) \
  X(0xF8, 0xFF, 0, "reserved", PR, 1, 7, A64, NONE, 0)

struct ual_pcie_tlp_type {
  uint8_t first, last;
  const char *name;          /* NULL: reserved */
  uint8_t fc, data, base_dw, route, hdr;
  uint8_t nf;                /* a non-flit type too */
};
/* The row of a Type code (every code has one). */
const struct ual_pcie_tlp_type *ual_pcie_tlp_type(unsigned type);
/* 80h-8Fh: a 1-DW local TLP prefix (T Table 2-5). */
static inline bool ual_pcie_tlp_is_prefix(unsigned type) { return (type & 0xF0) == 0x80; }

/* The size of a TLP from its DW0 (§3.2 steps 2-6), prefixes excluded. */
struct ual_pcie_tlp_size {
  uint8_t base_dw, ohc_dw, trailer_dw;
  uint16_t payload_dw;
  uint16_t total_dw;         /* base + ohc + payload + trailer */
};
void ual_pcie_tlp_size(const uint8_t dw0[4], struct ual_pcie_tlp_size *s);
/* OHC words of an OHC[4:0] value: A + B + C + E (0/1/2/4). */
unsigned ual_pcie_ohc_dw(unsigned ohc);
/* Trailer DW of a TS[2:0] value: 0, 1, 1, 2, 2, 3, 4, 5. */
unsigned ual_pcie_ts_dw(unsigned ts);

/* ---- walking the TLP stream ---- */

/* One TLP the walker completed (or the part it saw). */
struct ual_pcie_tlp {
  uint16_t prefix_dw;        /* local prefixes before DW0 (saturates at 65535) */
  uint8_t prefix_held;       /* the first of them kept in hdr[] (at most UAL_PCIE_TLP_MAX_PREFIX_HELD) */
  uint8_t hdr_dw;            /* DW of hdr[] held: kept prefixes, base, OHC (at most UAL_PCIE_TLP_MAX_HDR_DW) */
  uint8_t hdr[UAL_PCIE_TLP_MAX_HDR_DW * 4];   /* from the first prefix (or DW0) on */
  struct ual_pcie_tlp_size size;
  uint16_t start_flit;       /* index of the flit it started in, counted by the caller (ual_pcie_walk.flit) */
  uint8_t start_dw;          /* DW in that flit */
  uint8_t end_dw;            /* DW after its last one, in the completing flit */
};

/* Walker state of one direction: plain struct, copy = snapshot. */
#define UAL_PCIE_SYNC_WINDOW 4u     /* flits after a lock in which one must end on a TLP start */

struct ual_pcie_walk {
  uint8_t synced;            /* TLP alignment known */
  uint8_t confirm;           /* locked, not yet confirmed: flits left in the window (0 = no lock) */
  uint8_t lock_dw;           /* DW of the lock in its flit */
  uint16_t flit;             /* flits fed so far (wraps) */
  uint32_t owed_dw;          /* DW still owed to the current TLP (0: at a TLP start) */
  struct ual_pcie_tlp cur;   /* the current TLP while owed_dw > 0 */
};

/* Called for every TLP that completes in a flit (NOP TLPs included), in
 * order. */
typedef void (*ual_pcie_tlp_cb)(void *ctx, const struct ual_pcie_tlp *t);

enum ual_pcie_walk_result {
  UAL_PW_OK,                 /* walked in sync */
  UAL_PW_UNSYNCED,           /* no alignment known yet (or not yet confirmed), nothing reported */
  UAL_PW_SYNCED,             /* alignment confirmed in this flit (PF-SYNC); *sync_dw = the DW of the lock, in an
                                earlier flit; TLPs from the next flit on are reported */
};

void ual_pcie_walk_init(struct ual_pcie_walk *w);
/* Forget the alignment (a gap in the capture: lost records, a link event). */
void ual_pcie_walk_lose(struct ual_pcie_walk *w);
/* Feeds the 236 TLP bytes of a flit delivered for the first time. While
 * unsynchronized, an alignment locks only when a walk from it lands
 * exactly on the flit's end through TLP starts that can be TLPs (named
 * types, NOPs all zero), so a TLP straddling into the next flit does not
 * lock; a lock is confirmed by a later flit, within UAL_PCIE_SYNC_WINDOW,
 * that ends on a TLP start with every start on the way valid, else
 * dropped. TLPs before the confirmation are not reported. */
enum ual_pcie_walk_result ual_pcie_walk_flit(struct ual_pcie_walk *w, const uint8_t tlp[UAL_PCIE_FLIT_TLP_BYTES],
                                             ual_pcie_tlp_cb cb, void *ctx, unsigned *sync_dw);

/* ---- the TLPs of one flit record ---- */

/* What the transaction tracking made of a TLP (pcie/analysis.h). */
enum ual_pcie_link {
  UAL_PCIE_LK_NONE,          /* neither a tracked request nor a completion */
  UAL_PCIE_LK_REQ,           /* a non-posted request, kept until its completion */
  UAL_PCIE_LK_REQ_UNTRACKED, /* a non-posted request not kept: the table was full */
  UAL_PCIE_LK_CPL,           /* the completion that finishes a kept request */
  UAL_PCIE_LK_CPL_PART,      /* a split completion's part before its last */
  UAL_PCIE_LK_CPL_UNMATCHED, /* a completion without a kept request (it may precede the capture) */
};

/* Non-NOP TLPs completing in one flit: one may straddle in, every other
 * starts in it and is at least 3 DW (59 / 3 + 1). */
#define UAL_PCIE_MAX_TLP_PER_FLIT 20

/* A TLP completed in a flit record, with where it started and its link. */
struct ual_pcie_tlp_rec {
  struct ual_pcie_tlp t;
  uint8_t link;              /* enum ual_pcie_link */
  uint8_t peer_index;        /* completion, paired: the request's index in its frame's struct ual_pcie_tlps */
  uint8_t peer_type;         /* completion, paired: the request's Type */
  uint16_t parts;            /* completion, paired: the request's completions so far, this one included */
  uint64_t start_frame;      /* the frame it started in (this one unless it straddles in) */
  uint64_t peer_frame;       /* completion: its request's frame; request: the frame of the completion that
                                finished it, 0 while not known (a front-end with a second pass fills it) */
  uint64_t latency_ns;       /* completion, paired: since the request */
};

/* The TLPs a delivered flit completed (NOP TLPs counted only). Filled by
 * the analysis step of a kind-5 record; n = 0 without it. */
struct ual_pcie_tlps {
  uint8_t n, dropped;
  uint8_t nops;
  int8_t synced_at;          /* DW where the walk aligned in this flit, -1 */
  struct ual_pcie_tlp_rec v[UAL_PCIE_MAX_TLP_PER_FLIT];
};

/* Adds a walked TLP to a record's list: a NOP TLP is counted, any other
 * kept (its entry returned, link NONE, start_frame 0) or counted dropped
 * when the list is full (NULL). */
struct ual_pcie_tlp_rec *ual_pcie_tlps_add(struct ual_pcie_tlps *o, const struct ual_pcie_tlp *t);
void ual_pcie_tlps_clear(struct ual_pcie_tlps *o);

/* The record offset (from the record start, hdr_bytes = the record
 * header) of byte off of a TLP's held header (from its first prefix; the
 * prefixes not kept lie between the kept ones and DW0), or -1 when that
 * byte was in an earlier flit. */
int ual_pcie_tlp_byte_at(const struct ual_pcie_tlp *t, unsigned off, unsigned hdr_bytes);
/* The scope (enum ual_scope) of the OHC-A word of a TLP Type (pcie.md
 * §3.5: A1 memory requests and address-routed / to-RC messages, A2 IO,
 * A3 configuration, A4 ID-routed messages, A5 completions), -1 where all
 * OHC-A bits are reserved. */
int ual_pcie_ohc_a_scope(unsigned type);
/* The part of a TLP's payload in the flit record that completed it: its
 * record offset (hdr_bytes = the record header), length and the payload
 * byte it starts at (0 unless the payload began in an earlier flit).
 * False when none of it is in this record (or the TLP has none). */
bool ual_pcie_tlp_payload_at(const struct ual_pcie_tlp *t, unsigned hdr_bytes, unsigned *off, unsigned *len,
                             unsigned *from);
/* A Requester/Completer ID as bus:dev.fn, "01:00.0" [P27]. */
void ual_pcie_bdf(char *buf, size_t cap, unsigned id);

/* What a person reads of a TLP at the transaction level, in either mode
 * (flit mode: ual_pcie_tlp_info; non-flit: from struct ual_pcie_tlph):
 * the input of the one TLP line both modes print. */
struct ual_pcie_tlp_info {
  const char *name;          /* the Type's name, NULL: reserved */
  uint8_t type;              /* Type (flit mode) or Fmt/Type byte (non-flit), printed in hex */
  uint8_t hdr;               /* enum ual_pcie_tlp_hdr: which fields below are set; NONE: name only */
  uint8_t complete;          /* the header's fields below are known */
  uint8_t has_len;           /* len_dw is shown: a request, or a TLP with data */
  uint8_t has_addr, has_be, has_la, has_target;
  uint16_t len_dw;           /* 1-1024 */
  uint16_t rid, tag;         /* Requester ID (completions: the destination), Tag */
  uint64_t addr;             /* memory and IO requests: the byte address */
  uint16_t target, reg;      /* configuration requests: Bus/Dev/Fn, register byte offset */
  uint8_t first_be, last_be;
  uint16_t cid;              /* completions: Completer ID */
  uint8_t status;            /* completions: Completion Status */
  uint16_t byte_count;       /* completions: 1-4096 */
  uint8_t lower_addr;
  uint8_t code;              /* messages */
  uint16_t prefixes;
};
/* The one TLP line: "MRd64 (20h) len 1 DW/4 B RID 01:00.0 tag 5 addr
 * 0x1234560000", "CplD (4ah) len 1 DW/4 B CID 00:00.0 SC bc 4 la 00h RID
 * 01:00.0 tag 5", "Msg-ID (32h) Vendor_Defined Type 1 RID 01:00.0". */
void ual_pcie_tlp_line(const struct ual_pcie_tlp_info *i, char *buf, size_t cap);
/* A request as a transaction names it: "MRd64 (20h) RID 01:00.1 tag 7". */
void ual_pcie_req_line(unsigned type, unsigned rid, unsigned tag, char *buf, size_t cap);
/* Completion Status as engineers abbreviate it: SC, UR, RRS (was CRS), CA; NULL: reserved. */
const char *ual_pcie_cpl_status_abbrev(unsigned status);
/* The info of a flit-mode TLP from its held header (byte enables, status
 * and Lower Address[1:0] from its OHC-A word when present). */
void ual_pcie_tlp_info(const struct ual_pcie_tlp *t, struct ual_pcie_tlp_info *i);
/* ual_pcie_tlp_line of a flit-mode TLP. */
void ual_pcie_tlp_summary(const struct ual_pcie_tlp *t, char *buf, size_t cap);
/* DW0 of a TLP (after its kept prefixes) in its held header. */
static inline const uint8_t *ual_pcie_tlp_dw0(const struct ual_pcie_tlp *t) { return t->hdr + 4u * t->prefix_held; }
/* The bytes of the held header from DW0 on (the base and OHC words kept). */
static inline unsigned ual_pcie_tlp_dw0_bytes(const struct ual_pcie_tlp *t) {
  return t->hdr_dw > t->prefix_held ? 4u * (t->hdr_dw - t->prefix_held) : 0;
}

#endif
