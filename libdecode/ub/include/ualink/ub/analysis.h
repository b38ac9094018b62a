/* Stateful analysis of a UB link (digest ub-dl.md §5), registered with the
 * fabric analysis dispatch (core/analysis.h) for record kind 6.
 *
 * Per direction: the block receiver (flit.h) and, per side, the DLL state
 * machine (Disabled -> Param_Init -> Credit_Init -> Normal), the Init
 * Block it sent, the credits it holds per VL, its retry buffer (WrPtr,
 * un-ACKed flits, a hash per stored flit for replay checks), the retry sets
 * it sends and the replay it owes, and its place in a mode change.
 *
 * Start anywhere: everything starts unknown. A LinkUp event sets the reset
 * values; otherwise the DLL state is learned from DLLDPs (Normal), the
 * pointers from the first Retry_Ack_Set, the credits from the initial
 * Crd_Acks, the parameters from both Init Blocks. A rule that needs what is
 * unknown stays silent. A plain struct: copy it to take a snapshot. */
#ifndef UALINK_UB_ANALYSIS_H
#define UALINK_UB_ANALYSIS_H

#include <stdint.h>
#include <stdbool.h>
#include "ualink/core/decode.h"
#include "ualink/ub/flit.h"

struct ual_fabric_step;

/* Thresholds and windows where the specification leaves them to the
 * implementation (T §4.7.3.3 recommends 15 and 4), in one place. */
#define UAL_UB_NUM_RETRY_THRESHOLD   15
#define UAL_UB_PHY_REINIT_THRESHOLD  4
#define UAL_UB_RETRY_REQ_WINDOW_NS   20000ull    /* error -> Retry_Req_Set back */
#define UAL_UB_CREDIT_RETURN_NS      200000ull   /* credits held without any return */
#define UAL_UB_LOCKOUT_FREE          8           /* NumFreeBuf below this: lockout */
#define UAL_UB_HASH_RING             4096        /* stored-flit hashes per sender */
#define UAL_UB_CRDACK_PCT            75          /* % of the partner's credits held: return them */

/* Defaults when a field has no common value (digest table 3.5). */
#define UAL_UB_DEF_FEATURE     0x0001
#define UAL_UB_DEF_DATA_ACK    0x20
#define UAL_UB_DEF_CTRL_ACK    0x01
#define UAL_UB_DEF_FLOW_CTRL   0x08
#define UAL_UB_DEF_VL_ENABLE   0x0001
#define UAL_UB_DEF_CTRL_GRAIN  0x01
#define UAL_UB_DEF_DATA_GRAIN  0x04

enum ual_ub_dll {
  UAL_UB_DLL_UNKNOWN = 0, UAL_UB_DLL_DISABLED, UAL_UB_DLL_PARAM_INIT, UAL_UB_DLL_CREDIT_INIT, UAL_UB_DLL_NORMAL,
};
const char *ual_ub_dll_name(unsigned s);

/* The negotiated parameters (digest table 3.5): values, not bitmaps. */
struct ual_ub_params {
  uint8_t known;
  uint16_t feature_id;
  uint16_t data_ack, ctrl_ack;          /* flits */
  uint16_t flow_ctrl;                   /* flits per cell */
  uint16_t vl_enable;
  uint16_t ctrl_grain[UAL_UB_VLS], data_grain[UAL_UB_VLS];   /* cells */
  uint8_t share[2];                     /* sender d uses sharing mode */
  uint16_t depth[2];                    /* sender d's RETRY_BUF_DEPTH */
  uint8_t min_interval[2];              /* what sender d must keep (receiver's value) */
  uint32_t defaulted;                   /* bit per field that fell back to its default */
};

/* A retry set being received from one side. */
struct ual_ub_set {
  uint8_t idle;                         /* a Retry_Idle started it */
  uint8_t type;                         /* UAL_UB_CB_RETRY_REQ / _ACK being counted */
  uint8_t n;                            /* blocks so far */
  uint8_t fields_bad;
  struct ual_ub_dllcb first;
  uint64_t frame;
  uint32_t freed0;                      /* the sender's freed count at its Retry_Idle */
};

struct ual_ub_side {
  uint8_t dll;                          /* enum ual_ub_dll */
  uint8_t got_ack_set;                  /* received a Retry_Ack_Set (Param_Init) */
  uint8_t init_seen, sd_sent, sd_rcvd;
  struct ual_ub_init init;              /* the Init Block this side sent */
  /* credits this side holds to send (given by the partner) */
  uint8_t cred_known;
  uint8_t cred_seeded;                  /* cred from --ub-credits: kept while every DLLDP of the side is counted */
  int32_t cred[UAL_UB_VLS], cred_init[UAL_UB_VLS];
  uint32_t init_sum_pending[UAL_UB_VLS];
  uint64_t held_since_ns;               /* credits consumed and not returned since */
  uint8_t held_reported;
  /* retry buffer of this side as a sender */
  uint8_t wr_known;
  uint8_t wr_sure;                      /* WrPtr followed since a link-up, or confirmed by a second
                                           Retry_Ack_Set: replays and WrPtr are judged */
  uint32_t wr;                          /* backed-up flits sent (WrPtr before mod) */
  uint32_t wr_lost;                     /* wr when it stopped being followed */
  uint8_t lost_valid;
  int32_t unacked;                      /* -1 unknown */
  uint32_t freed;                       /* flits ACKs freed, a running count */
  uint32_t hash[UAL_UB_HASH_RING];      /* by pointer; 0 = unknown */
  /* the replay this side owes after its Retry_Ack_Set */
  uint8_t replaying;
  uint32_t rp_ptr, rp_left, rp_done;
  uint8_t rp_said;                      /* the replay's start or a new block in it reported */
  uint8_t rp_gap;                       /* a new block came inside the replay: the next block
                                           tells whether the replay goes on or ended short */
  uint8_t rp_idle;                      /* Null blocks since the last replayed flit */
  uint64_t rp_gap_frame;
  uint8_t dp_orig_unknown;              /* a replayed DLLDP whose original was not seen intact */
  /* its stream as the partner receives it */
  uint8_t discarding;                   /* partner discards until this side's Ack set */
  uint8_t err_pending;                  /* error seen, partner's Req set awaited */
  uint64_t err_ns, err_frame;
  int32_t req_rcv;                      /* RcvPtr the partner requested, -1 none */
  uint32_t rcv;                         /* partner's RcvPtr (before mod) */
  /* retry sets this side sends */
  struct ual_ub_set set;
  int16_t last_req_retry;               /* NUM_RETRY of its last Req set, -1 none */
  uint8_t last_reinit;
  uint8_t req_sets;                     /* Req sets since the last Ack set came back */
  uint64_t ep_frame, ep_ns;             /* its first Req set of the retry episode the partner has not answered, 0 none */
  /* packet spacing */
  uint64_t flits, last_dp_flit;
  uint8_t dp_seen;
  /* mode change: 0 none, 1 REQ sent, 2 ACK sent */
  uint8_t mc;
  uint8_t mc_known;                     /* mc follows the side (a DLLDP accepted, or a link-up) */
  /* the partner may be discarding this side's stream for an error before
   * the capture (or lost records): blocks seen may not be accepted. Ends at
   * this side's Retry_Ack_Set, a link-up, or a response window of link time
   * in which the partner asked for no replay */
  uint8_t disc_maybe, req_seen;
  uint64_t disc_from_ns;
  uint8_t lanes_tlw, lanes_rlw;
  uint8_t crdack_reported;              /* UB-CRDACK-THRESHOLD said since its last Crd_Ack */
  uint64_t dlldps, dlldp_bytes[UAL_UB_VLS], dlldp_count[UAL_UB_VLS], dllcbs, bad_blocks, retry_req_sets,
      retry_ack_sets, replayed;
};

struct ual_ub_an {
  struct ual_ub_rx rx[2];
  struct ual_ub_side s[2];
  struct ual_ub_params p;
  uint8_t mode;                         /* enum ual_ub_mode in force (events, hints) */
  uint8_t primary;                      /* 0 unknown, 1 A, 2 B */
  uint8_t width[2];
  uint8_t nofec_reported;               /* UB-MODE-NOFEC said in this stretch of FEC bypass */
  uint8_t crd_exact;                    /* no block lost since LinkUp: the credits owed are exact */
  uint64_t records;
};

void ual_ub_an_init(struct ual_ub_an *s);
void ual_ub_an_step(struct ual_ub_an *s, struct ual_rec_result *r, const struct ual_fabric_step *c);
void ual_ub_an_finish(struct ual_ub_an *s, struct ual_findings *f, const struct ual_fabric_step *c);
/* Presets of what a capture that starts after the Init Blocks never shows
 * (UB-VL-DISABLED and UB-CREDIT-UNDERFLOW need them), after
 * ual_ub_an_init; a NULL analysis only checks the argument; false with the
 * reason in err. A negotiation or a link-up in the capture replaces them.
 *
 * --ub-init: the parameters both Init Blocks negotiate (digest table 3.5),
 *   KEY=VALUE[,...] with vl (VL_ENABLE, a bitmap: 0x000f), fc
 *   (FLOW_CTRL_SIZE, flits per cell), data-ack and ctrl-ack (ACK grains,
 *   flits), ctrl-grain and data-grain (credit grains in cells, every VL;
 *   ctrl-grainN, data-grainN for VL N alone), share (the senders whose
 *   partner shares its buffer: A, B, AB or none). A key left out has the
 *   value a negotiation without a common one falls back to.
 * --ub-credits: SIDE:VLn=GRANTED[/HELD][,...]: the credit cells SIDE was
 *   granted on VL n (its partner's initial Crd_Acks) and holds at the
 *   capture's start (default GRANTED: none in flight). Judged only with
 *   the parameters known (--ub-init or both Init Blocks seen). */
bool ual_ub_an_preset_init(struct ual_ub_an *a, const char *arg, char *err, size_t cap);
bool ual_ub_an_preset_credits(struct ual_ub_an *a, const char *arg, char *err, size_t cap);
/* Their arguments that give a fresh analysis what a knows now ("" when
 * the parameters, or a side's credits, are unknown). */
int ual_ub_an_preset_init_text(const struct ual_ub_an *a, char *buf, size_t cap);
int ual_ub_an_preset_credits_text(const struct ual_ub_an *a, char *buf, size_t cap);
/* One line of state: "A:Normal cred 120 unacked 3 | B:...". */
int ual_ub_an_state_text(const struct ual_ub_an *s, char *buf, size_t cap);

#endif
