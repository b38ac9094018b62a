/* Stateful analysis of PCIe non-flit DLLPs per direction (digest pcie.md
 * §2.4), registered with core/analysis.h as "pcie": flow-control
 * initialisation per VC (InitFC1 -> InitFC2 -> UpdateFC for P, NP, Cpl),
 * advertised credits and scales, credit arithmetic modulo 2^8 / 2^12,
 * Ack/Nak sequence numbers modulo 4096, PM handshakes.
 *
 * Start anywhere: a VC's FC phase is unknown until its InitFC1-P (the start
 * of an InitFC1 round), an InitFC2 or an UpdateFC is seen, or until VC0's
 * InitFC1-P or a receiver-detected link event shows the side's DL
 * initialisation from its start (every other VC not initialised); init values,
 * last credits and the last Ack/Nak number are unknown until seen; whether
 * the other side has a PM request pending is unknown until it has sent a
 * DLLP. Nothing that depends on unknown state is raised. A link event
 * (kind 3) or lost records forget everything (the link may have gone down).
 * The MR* FC types (MR-IOV) are counted, not tracked.
 *
 * Plain struct, no pointers: copy it to snapshot. */
#ifndef UALINK_PCIE_ANALYSIS_H
#define UALINK_PCIE_ANALYSIS_H

#include <stdint.h>
#include "ualink/core/decode.h"
#include "ualink/pcie/dllp.h"
#include "ualink/pcie/tlp.h"
#include "ualink/pcie/nfdl.h"

#define UAL_PCIE_VCS 8
#define UAL_PCIE_CLASSES 3   /* P, NP, Cpl */

/* NONE: known not initialised since the link's DL initialisation began
 * (a link from Detect, or the side's InitFC1-P of VC0, which initialises
 * first, seen). */
enum ual_pcie_fc_phase { UAL_PCIE_PH_UNKNOWN = 0, UAL_PCIE_PH_INIT1, UAL_PCIE_PH_INIT2, UAL_PCIE_PH_UPDATE, UAL_PCIE_PH_NONE };
const char *ual_pcie_fc_phase_name(unsigned p);

struct ual_pcie_fc_vals {
  uint8_t known, hdr_scale, data_scale;
  uint16_t hdr, data;        /* raw fields */
};

struct ual_pcie_vc {
  uint8_t phase;             /* enum ual_pcie_fc_phase */
  uint8_t init1_seen;        /* classes whose InitFC1 was seen in this round */
  struct ual_pcie_fc_vals init[UAL_PCIE_CLASSES];   /* advertised by InitFC1/InitFC2 */
  struct ual_pcie_fc_vals last[UAL_PCIE_CLASSES];   /* last InitFC or UpdateFC */
};

/* What one side has sent. */
struct ual_pcie_side {
  struct ual_pcie_vc vc[UAL_PCIE_VCS];
  int8_t scaling;            /* advertised scaled FC: 1, 0, UAL_UNKNOWN */
  uint8_t seen;              /* a valid DLLP since the last reset */
  uint8_t pm_req;            /* pending PM request type (20h/21h/23h), 0 none */
  uint8_t pm_acking;         /* PM_Request_Ack sent since the last reset */
  uint8_t pm_acked;          /* the other side's PM request type it acknowledged since the last reset, 0 none */
  uint8_t ack_known;
  uint16_t ack_seq;
  uint64_t dllps, crc_bad;
  uint64_t by_type[UAL_PCIE_DT_COUNT];
  /* last credits advertised per VC and class in the capture, for --stats;
   * kept across resets, never used by a check */
  struct ual_pcie_fc_vals adv[UAL_PCIE_VCS][UAL_PCIE_CLASSES];
};

/* Flit mode, one direction: which payload flits are first deliveries
 * (their TLP bytes feed the walker, pcie.md §3.1 [P13]) and the walk.
 * Sequence numbers follow the UALink flit header rules (explicit with
 * Replay Command 00b, else the previous + 1); unknown until an explicit one
 * is seen. */
#define UAL_PCIE_MAX_OUTSTANDING 64

/* A non-posted request this side sent, waiting for its completion(s),
 * keyed by Requester ID and the 14-bit Tag. */
struct ual_pcie_req {
  uint8_t used, type;
  uint8_t index;             /* its index in its frame's struct ual_pcie_tlps, 255 none */
  uint16_t rid, tag;
  uint64_t frame, ts_ns;
  /* what its completions are checked against (pcie.md §4) */
  uint8_t cfg;               /* a configuration request */
  uint8_t rseg_valid, rseg;  /* OHC-C with RSV = 1: its Requester Segment */
  uint8_t la;                /* Lower Address[1:0] its completion must carry (from OHC-A1's First DW BE) */
  uint8_t captures;          /* a Type 0 Configuration Write that sets its target's segment */
  uint16_t parts;            /* completions received for it so far */
  /* a non-flit request (pcie.md §7.6; type is then its Fmt/Type byte): what its completions are checked against */
  uint8_t nf, nf_kind;       /* nf_kind: enum ual_pcie_nf_kind */
  uint8_t tc, attr;          /* attr: Attr[1:0] */
  uint8_t got, late;         /* a completion came; PN-CPL-TIMEOUT given */
  uint8_t next_la;           /* the Lower Address its next completion must carry */
  uint16_t left;             /* bytes not yet completed (Byte Count of the next completion) */
};

/* Completion latency of one request Type: request to the completion that
 * finishes it (a split completion's last part). */
struct ual_pcie_lat {
  uint64_t n, sum_ns, min_ns, max_ns;
};
void ual_pcie_lat_add(struct ual_pcie_lat *l, uint64_t ns);

/* A link's window for completions without a request (pcie.md §7.6 [P40]):
 * open for --cpl-timeout from the capture start and each desynchronization,
 * closed by a DL initialization. */
struct ual_pcie_nftx {
  uint8_t closed;
  uint64_t from_ns;
  uint64_t due_ns;           /* the next PN-CPL-TIMEOUT to look at, 0 none */
};

struct ual_pcie_flow {
  uint8_t seq_known;
  uint16_t next_seq;         /* of the next new payload flit */
  struct ual_pcie_walk walk;
  uint64_t flit_frame[32];   /* the frame of walked flit k at [k % 32]: where a straddling TLP started */
  uint64_t flits, delivered, tlps;
  /* requests this side sent; completions come from the other side */
  struct ual_pcie_req req[UAL_PCIE_MAX_OUTSTANDING];
  uint16_t outstanding;
  uint64_t untracked;        /* requests not kept: the table was full */
  uint64_t pairs, split_parts, cpl_unmatched;   /* completions this side received */
  struct ual_pcie_lat lat[256];                  /* by the request's Type */
};

/* Segment Captured of the functions below the link (pcie.md §4 [P16]):
 * Set by the first Type 0 Configuration Write with OHC-A3 DSV = 1 the
 * upstream side (Root Port, switch downstream port) sends to a function,
 * from its successful completion on (between the write and its completion
 * the function's TLPs may come from either state: PENDING, unknown);
 * Clear for every function not Set after a link event that trains from
 * Detect (receiver detected: the components below were reset); unknown
 * otherwise. A preset (the profile, --segment) is kept through resets and
 * wins over inference. */
#define UAL_PCIE_MAX_FUNCS 64
enum ual_pcie_seg_state { UAL_SEG_UNKNOWN = 0, UAL_SEG_CLEAR, UAL_SEG_SET, UAL_SEG_PENDING };

struct ual_pcie_fn_seg {
  uint8_t state;             /* enum ual_pcie_seg_state; UNKNOWN = a free slot */
  uint8_t seg;
  uint16_t bdf;
};

struct ual_pcie_seg {
  uint8_t reset;             /* a link from Detect seen: functions not Set are Clear */
  uint8_t t0_known;          /* a Type 0 capturing write seen: its target is the function at the link's end */
  uint16_t t0_bdf;
  uint8_t rp_known, rp_seg;  /* the Root Port's hierarchy segment (its DSV = 1 configuration requests) */
  struct ual_pcie_fn_seg fn[UAL_PCIE_MAX_FUNCS];
  uint64_t untracked;        /* functions not kept: the table was full */
};

/* One PCIe link's analysis, by the record header's link index. */
struct ual_pcie_link_an {
  uint8_t used, index;       /* index: the records' link field (255 unknown) */
  struct ual_pcie_side s[2];
  struct ual_pcie_flow fl[2];
  uint8_t role[2];           /* PCIe role codes of the record header [P3], 0 unknown */
  uint8_t rate[2], width[2]; /* per direction, as the record headers carry them; 0 unknown */
  uint8_t in_l1;             /* electrical idle after a PM_Enter_L1 / ASPM L1 request was acknowledged */
  uint8_t in_l23;            /* electrical idle after a PM_Enter_L23 was acknowledged */
  struct ual_pcie_seg seg;
  /* non-flit (kind 7): the DL of each direction (its TLPs), the request window */
  struct ual_nfdl dl[2];
  struct ual_pcie_nftx win;
  uint8_t os_seen;           /* an ordered set (kind 2) of the link seen: Recovery can show */
  uint8_t init_said;         /* PN-SYNC given for this DL initialization (until a TLP of the link) */
};

/* An InitFC a capture that starts after the flow-control initialisation
 * never shows, preset (ual_pcie_an_preset_initfc): side's advertisement
 * for one VC and class, on link index link (-1 every link). */
#define UAL_PCIE_MAX_INITFC (2 * UAL_PCIE_VCS * UAL_PCIE_CLASSES)
struct ual_pcie_initfc {
  uint8_t used, side, vc, cls;
  int16_t link;
  struct ual_pcie_fc_vals v;
};

/* Software configuration the wire does not show (pcie.md §4 [P17]). */
struct ual_pcie_profile {
  struct ual_pcie_fn_seg preset[UAL_PCIE_MAX_FUNCS];   /* ual_pcie_an_preset; never forgotten */
  struct ual_pcie_initfc initfc[UAL_PCIE_MAX_INITFC];
  int8_t no_nfm_subtree[256];   /* "No NFM Subtree Below This Root Port" by link index: 1, 0, UAL_UNKNOWN */
};

/* Cross-link correlation (pcie.md §4 "Two-link correlation" [P18]).
 * Which links form one device comes from the record roles: the link with
 * a Switch Upstream Port side (the other side not a Switch Downstream
 * Port) and the links with a Switch Downstream Port side (the other side
 * not a Switch Upstream Port) form one switch, when there is exactly one
 * such upstream link; the links with a Root Port side form one Root
 * Complex. A TLP entering a device (switch: down on the upstream link, up
 * on a downstream link; RC: up on a Root Port link) is kept until its copy
 * leaves on another link of the device: the same Type (a Type 1
 * configuration request may leave as Type 0), Length and header base
 * (Requester ID, Tag, address or target), or for the RC's takeover of a
 * non-posted memory request the same Type, Length and address with a new
 * Requester ID and Tag, oldest first. A forwarded request's completions
 * coming back up at the egress Root Port are kept with the ID they must
 * leave with (the original Requester ID and Tag) and matched at the
 * ingress Root Port by Completer ID, Byte Count and Lower Address. The
 * payload is not compared (the walk holds headers only). A copy without
 * a kept original (forwarded before the capture, or from the device
 * itself) is not judged; originals whose copy never comes raise nothing.
 * A completion leaving with another ID than its kept original's is judged
 * only when it answers no request seen on its link and, after a takeover,
 * carries the takeover's own ID: another ID may be a request's sent
 * before the capture. */
#define UAL_PCIE_LINKS 4
#define UAL_PCIE_XL_KEPT 64

enum ual_pcie_xl_dev { UAL_XL_SWITCH, UAL_XL_RC };
enum ual_pcie_xl_kind { UAL_XL_FREE, UAL_XL_IN, UAL_XL_FWD, UAL_XL_CPL };

struct ual_pcie_xl_tlp {
  uint8_t kind;              /* enum ual_pcie_xl_kind: IN an original; FWD a forwarded non-posted request
                                waiting for its completions; CPL a completion to forward */
  uint8_t dev, link, out_link;   /* link slots (lk[]); out_link: FWD the egress, CPL the one it must leave on */
  uint8_t takeover;          /* FWD/CPL: the RC took the request over */
  uint8_t base_dw, has_a, has_c;
  uint8_t hdr[16];           /* the header base */
  uint8_t a[4], c[4];        /* OHC-A and OHC-C words */
  uint16_t rid, tag;         /* FWD: the Requester ID and Tag on the egress; CPL: the ones it must leave with */
  uint64_t frame, order;
};

struct ual_pcie_xl {
  struct ual_pcie_xl_tlp t[UAL_PCIE_XL_KEPT];
  uint64_t order;            /* arrival counter; the oldest entry is replaced when full */
  uint64_t dropped;          /* entries replaced before their copy came */
};

/* Non-flit settings (pcie.md [P29] [P30]; ualink-decode options). */
struct ual_pcie_nf_cfg {
  struct ual_nfdl_cfg dl;
  uint64_t cpl_timeout_ns;   /* --cpl-timeout, default 50 ms */
  uint8_t ari[256];          /* --ari: the link indexes whose IDs are ARI [P27] */
};

struct ual_pcie_an {
  struct ual_pcie_link_an lk[UAL_PCIE_LINKS];   /* in the order the links first appear */
  struct ual_pcie_nf_cfg cfg;
  uint8_t t0_known;
  uint64_t t0_ns;            /* the first record's timestamp: the capture start */
  uint64_t other_links;      /* records of links beyond UAL_PCIE_LINKS, not analysed */
  struct ual_pcie_profile prof;
  struct ual_pcie_xl xl;
};

struct ual_fabric_step;
void ual_pcie_an_init(struct ual_pcie_an *s);
void ual_pcie_an_step(struct ual_pcie_an *s, struct ual_rec_result *r, const struct ual_fabric_step *c);
void ual_pcie_an_finish(struct ual_pcie_an *s, struct ual_findings *f, const struct ual_fabric_step *c);
/* Presets a function's Segment Captured (a profile: seg 0-255, or -1 for
 * Clear), after ual_pcie_an_init. false when the table is full. */
bool ual_pcie_an_preset(struct ual_pcie_an *s, unsigned bdf, int seg);
/* --pcie-initfc: the InitFC values a capture that starts after the
 * flow-control initialisation never shows (PD-FC-INFINITE and PD-FC-SCALE
 * need them), as the InitFC1/InitFC2 DLLPs carry them:
 *   [LINK:]SIDE:VCn:CLASS=HDRFC/DATAFC[:HDRSCALE/DATASCALE][,...]
 * SIDE A or B (the side that sent them), n 0-7, CLASS P, NP or Cpl, the
 * raw HdrFC (0-255) and DataFC (0-4095) fields (0 = infinite), the scale
 * fields 0-3 (0, the default, also says the side advertised no scaled
 * flow control), LINK a link index (default every PCIe link). Taken as
 * seen when the analysis of a link starts and at a capture_started event;
 * the capture's own InitFC replaces them, a link event forgets them. s
 * NULL: the argument is only checked. false with the reason in err. */
bool ual_pcie_an_preset_initfc(struct ual_pcie_an *s, const char *arg, char *err, size_t cap);
/* The --pcie-initfc argument of the InitFC values every link knows now. */
int ual_pcie_an_preset_initfc_text(const struct ual_pcie_an *s, char *buf, size_t cap);
/* Sets "No NFM Subtree Below This Root Port" of the Root Port of a link
 * index (1 set, 0 clear; unknown until set), after ual_pcie_an_init. */
void ual_pcie_an_nfm_subtree(struct ual_pcie_an *s, unsigned link, bool none_below);
/* A non-flit setting by its option name ("nak-new-tlps", "cpl-timeout",
 * "ari", "rx-mps", "replay-timer", "extended-synch", "l0s-exit"; pcie.md
 * [P29]), after ual_pcie_an_init: 1 taken, 0 not a PCIe setting, -1 a bad
 * value. */
int ual_pcie_an_option(struct ual_pcie_an *s, const char *name, const char *value);
/* The analysis of a link index, NULL before its first record. */
const struct ual_pcie_link_an *ual_pcie_an_link(const struct ual_pcie_an *s, unsigned link);
/* The TLP walk of a link index and direction (a fresh walk before its
 * first record), for a front-end that re-walks a flit. */
void ual_pcie_an_walk(const struct ual_pcie_an *s, unsigned link, unsigned dir, struct ual_pcie_walk *out);
/* A function's Segment Captured on link l as the analysis knows it (enum
 * ual_pcie_seg_state); below: the function is below the link (reset by a
 * link from Detect). *seg is set when SET; PENDING reads UNKNOWN. */
unsigned ual_pcie_seg_of(const struct ual_pcie_an *s, const struct ual_pcie_link_an *l, unsigned bdf, bool below,
                         unsigned *seg);

#endif
