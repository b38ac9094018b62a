/* The link model behind ualink-gen: two link partners (struct side) with
 * the state every producer layer keeps in them, the wire between them, the
 * time base, rate and width, and the record, truth and label output all
 * layers write through. Each side is a transmitter (PL: ordered sets, IDLE/
 * NOP/payload flits, sequence numbers, Acks/Naks, replay; DL: packer, DL
 * message queues, UART, negotiations) and a receiver of the other side's
 * flits, which arrive over a wire with a latency. The layers above keep
 * their functions in headers of their own (phy.h, tl.h, dl.h, replay.h,
 * steps.h, inject.h, sequencer.h, scenario.h). */
#ifndef UALGEN_MODEL_H
#define UALGEN_MODEL_H

#include "gen.h"
#include "ualink/ualink/analysis.h"
#include "rng.h"

#define PS_NEVER UINT64_MAX
#define PS_PER_NS 1000ull
#define PS_PER_US 1000000ull

/* Sequence numbers: libdecode's arithmetic (analysis.h), plus a decrement. */
static inline uint16_t seq_dec(uint16_t s) { return ual_seq_add(s, UAL_SEQ_MOD - 1u); }

/* ---- what travels with a flit for the model (not on the wire) ---- */
#define META_MSGS 4
struct msg_done {                /* a DL message whose last DWord is in this flit */
  uint32_t dw;
  uint8_t n_payload;             /* UART transport payload DWords */
};
struct flit_meta {
  uint8_t n;
  struct msg_done m[META_MSGS];
};

/* Replay buffer entry: only payload bytes and the sequence number are replayed. */
#define RB_BODY (UAL_CRC_OFFSET - 2)
struct rb_entry {
  uint8_t body[RB_BODY];         /* flit bytes 2..241 */
  struct flit_meta meta;
};

enum wire_kind { W_PAYLOAD, W_NOP, W_IDLE, W_IGNORED, W_OS, W_EVENT };

struct wire_item {
  uint64_t t_end;
  uint8_t kind;                  /* enum wire_kind */
  uint8_t corrupt;               /* bit errors were applied */
  uint8_t os_type;
  uint8_t contained;             /* CRC inverted on purpose */
  uint8_t seq_ok;                /* payload flit that numbers in sequence (not injected seq 0) */
  uint8_t fresh;                 /* a new payload flit (not a replay) */
  uint16_t seq;                  /* payload flit: its sequence number */
  struct ual_fh fh;
  struct ual_dllp dllp;
  uint8_t raw[UAL_FLIT_BYTES];   /* for corrupted flits: the bytes as received */
  struct flit_meta meta;
  uint64_t frame;
};

#define WIRE_RING 1024
struct wire {
  struct wire_item it[WIRE_RING];
  unsigned head, count;
};

/* ---- PL transmitter ---- */
enum pl_mode { PL_SILENT, PL_SCRIPT, PL_IDLE, PL_HANDSHAKE, PL_NORMAL };

enum pli_kind { PLI_TS, PLI_OS, PLI_EVENT, PLI_GAP, PLI_RATE, PLI_MODE, PLI_LABEL };
struct pl_item {
  uint8_t kind;                  /* enum pli_kind */
  uint8_t os_type;               /* PLI_OS */
  uint8_t per_lane;              /* PLI_TS: one record per active lane, lane number = lane */
  uint8_t flit_mode_off;         /* PLI_TS: injected LT-NO-FLIT-MODE on the first set */
  uint16_t count;
  struct ual_ts_params ts;
  uint32_t value;                /* PLI_EVENT value, PLI_RATE code, PLI_MODE mode, PLI_LABEL rule */
  uint16_t code;                 /* PLI_EVENT code */
  uint64_t ps;                   /* PLI_GAP */
};
#define PL_SCRIPT_MAX 96

/* extra flits the PL puts in a tail slot (they take no sequence number) */
enum extra_kind { X_NOP_DLLP, X_LM, X_USAGE, X_NOP_BODY, X_SEQ0 };
struct pl_extra {
  uint8_t kind;
  struct ual_dllp dllp;
  int16_t label;                 /* rule to label at its frame, or -1 */
  uint8_t lm_width;              /* X_LM: change width after sending (Ack) */
};
#define PL_EXTRA_MAX 8

/* ---- DL message queues ---- */
enum msg_class { MC_BASIC, MC_CONTROL, MC_UART, MC_COUNT };
enum msg_hook {
  H_NONE, H_UART_TRANSPORT, H_CTRL_CONFIRM, H_CTRL_ACK, H_L1_STOP, H_RESET_BATCH,
  H_RESET_RSP, H_CREDIT, H_LATE, H_PENDING_LAPSE, H_LONE_NOOP
};
#define MSG_MAX_DW (1 + UAL_UART_MAX_PAYLOAD)
struct msg_item {
  uint32_t dw[MSG_MAX_DW];
  uint8_t n;
  uint8_t cls;
  uint8_t hook;
  uint8_t prio;                  /* responses go ahead of new requests */
  int16_t label;                 /* rule to label at its frame, or -1 */
  uint8_t label_src;             /* 0 inject, 1 consequence */
  uint64_t not_before_ps;        /* delayed response */
};
#define MSGQ_MAX 96
struct msg_queue {
  struct msg_item it[MSGQ_MAX];
  unsigned head, count;
};

/* messages handed to the packer, in order, to know which flit completes them */
#define INFLIGHT_MAX 160
struct inflight {
  struct msg_item it[INFLIGHT_MAX];
  unsigned left[INFLIGHT_MAX];   /* DWords not yet placed */
  unsigned head, count;
};

/* ---- control negotiations (width, speed, state, channel) ---- */
enum ctrl_req_state { CR_NONE, CR_SENT, CR_WAIT_PEER };
enum ctrl_rsp_state { RS_NONE, RS_ACKED };
struct ctrl_state {
  uint8_t req, req_mtype, req_target, req_prio;
  uint8_t rsp, rsp_mtype, rsp_target;
  uint8_t force;                 /* answer for the next request received (0 = by the rules) */
  uint8_t owe, owe_mtype, owe_target;
  uint64_t owe_ps;
  uint8_t skip_confirm;          /* injected DM-CTRL-NO-CONFIRM */
  uint8_t echo_wrong;            /* injected DM-CTRL-ECHO */
  int16_t force_label;           /* rule to label on the forced answer */
  uint8_t conflict_wrong;        /* injected DM-CTRL-RESOLUTION: Nack a request that wins */
  uint8_t conflict_pending;      /* injected DM-CTRL-PENDING-ILLEGAL: Decision Pending in a conflict */
  uint8_t pending_lapse;         /* injected DM-CTRL-PENDING-TIMEOUT: the request owed after the next
                                    Decision Pending never comes */
  uint32_t done;                 /* negotiations completed (both Acks) */
  uint32_t failed;
};

/* ---- UART stream 0 ---- */
#define UART_TXBUF 4096
#define UART_RXBUF 128           /* DWords: the recommended receive buffer */
enum uart_reset { UR_NONE, UR_FLUSH, UR_BATCH, UR_WAIT_RSP };
struct uart_state {
  bool enabled;                  /* channel 4 online and not in a reset */
  uint32_t txbuf[UART_TXBUF];
  unsigned tx_head, tx_fill;
  uint16_t tx_cnt;               /* DWords sent, mod 4096 */
  uint16_t credit;               /* last DataFCSeq received */
  bool credit_valid;
  bool transport_busy;           /* a transport queued or in the packer */
  uint16_t rx_cnt;               /* receive counter, mod 4096 */
  unsigned rx_fill;
  uint16_t rx_cnt_sent;
  bool credit_first_due, credit_queued;
  uint64_t flit_last_credit;
  double drain_acc, fw_acc;
  uint8_t reset;                 /* enum uart_reset, requester side */
  uint8_t reset_noops;           /* No-Ops before the Reset Request (40) */
  uint32_t vdp_count;
  int8_t over_credit;            /* injected DM-UART-CREDIT: DWords beyond the credit */
  bool reset_silent;             /* injected DM-UART-RESET-TIMEOUT: the next Reset Request goes unanswered */
  bool stopped;                  /* winding down before channel 4 goes offline */
  bool quiesced;                 /* wound down: no more Credit Updates */
};

/* ---- TL rate notifications (accelerators) ---- */
enum rate_fsm { RC_IDLE, RC_WAIT_REF_ACK, RC_PLL, RC_WAIT_NEW_ACK, RC_DIRECT_WAIT };

/* a record header as ual_record_build made it, for the side's current rate and width */
struct hdr_cache { uint32_t key; uint8_t b[UAL_REC_HDR_BYTES]; };

/* ---- one link partner ---- */
struct side {
  unsigned id;                   /* 0 = A, 1 = B */
  uint8_t role;                  /* UAL_ROLE_ACCEL / UAL_ROLE_SWITCH */
  bool upstream;                 /* port role: switch ports train as upstream ports */
  uint8_t rate, width;           /* what its records say */
  uint64_t ft_ps;                /* flit time at rate and width (link_speed_changed) */
  uint64_t t_next;               /* start of its next emission, ps */
  struct gen_rng rng;
  struct hdr_cache hdr[4];       /* by record kind */

  /* PL transmitter */
  uint8_t mode;                  /* enum pl_mode */
  uint8_t after_idle;            /* PL_HANDSHAKE or PL_NORMAL */
  struct pl_item script[PL_SCRIPT_MAX];
  unsigned sc_head, sc_count, sc_rep, sc_lane;
  unsigned idle_sent, hs_sent;
  bool prior_payload;
  struct pl_extra extra[PL_EXTRA_MAX];
  unsigned n_extra;
  bool dl_active;                /* the DL gives payload flits to the PL */
  bool dl_pause;                 /* the PL sends NOP flits instead (quiesce) */
  bool quiet;                    /* no new TL flits or DL messages into the packer */
  bool wind_down;                /* no new TL flits or UART traffic; queued messages still go out */
  bool link_down;
  bool rx_dead;                  /* containment seen: everything after it is dropped */

  /* flit header cycle: explicit x3, then a tail (Ack, or 3 Naks, then extras) */
  unsigned cyc;                  /* 0..2 explicit slots, 3 tail */
  unsigned tail_naks;            /* Naks still to send in this tail */
  bool tail_acked;
  unsigned explicit_group;       /* injected RP-EXPLICIT-GROUP: group length */

  /* sequence numbers and replay (transmit side) */
  uint16_t next_tx;              /* NEXT_TX_SEQ */
  uint16_t acked;                /* last acknowledged */
  struct rb_entry *rb;           /* indexed by sequence number */
  bool rp_pending, rp_active, rp_selective;
  uint16_t rp_start, rp_next, rp_end;  /* replay rp_next .. rp_end inclusive */
  bool nak_armed;
  uint64_t no_progress_flits;
  bool ignore_limit;             /* injected RP-UNACKED-LIMIT */
  int16_t rp_wrong_start;        /* injected RP-REPLAY-WRONG-START: offset */
  uint16_t skip_seq;             /* injected RP-SEQ-GAP: skip this many numbers at the next group */

  /* receive side (of the partner's flits) */
  uint16_t next_exp;             /* NEXT_EXPECTED_RX_SEQ */
  uint16_t last_rx_seq;
  bool last_rx_known, rx_any, prev_rx_bad;
  uint8_t rx_state;              /* RX_NORMAL, RX_NAK_WAIT, RX_SEL_WAIT */
  bool nak_req, nak_req_selective;
  struct flit_meta *sel_buf;     /* selective replay: flits held for in-order delivery */
  uint8_t *sel_have;
  unsigned idle_rx_consec;
  bool hs_rx_ack;
  bool accept_gap;               /* injected RP-SEQ-GAP: receiver resynchronises silently */
  uint64_t withhold_acks_until;  /* injected ack starvation: flit count */
  uint16_t withheld_ack;
  uint64_t flits_sent;

  /* DL */
  struct ual_pack pack;
  struct msg_queue q[MC_COUNT];
  unsigned rr;                   /* round robin across classes */
  struct inflight infl;
  bool ch_online[8];
  bool tl_enable;                /* the TL wants to send */
  double tl_tokens;
  unsigned tl_burst;
  bool tl_boost;                 /* full TL load while an injection looks for its chance */
  uint32_t tl_sent;
  uint32_t tl_inject_offline;    /* injected DL-CH0-OFFLINE / LT-EXIT-L1-CONTENT: TL flits to force */
  int16_t tl_inject_label;
  uint8_t err_burst;             /* errors scenario: 1 correctable burst, 2 uncorrectable, on the next payload flit */
  int16_t ctrl_label;            /* rule to label on the next control request */
  uint8_t ctrl_label_src;        /* TRUTH_SRC_INJECT or TRUTH_SRC_CONSEQ */
  bool late_pending;             /* injected DM-RESPONSE-LATE: the answer is being held */
  uint8_t noop_label;            /* injected DM-NOOP-CONTEXT: 1 No-Op queued, 2 sent: label the next DL message */
  int16_t rate_label;            /* rule to label on the new-rate notification */
  bool ack_ahead;                /* injected RP-ACK-AHEAD on the next Ack */
  bool label_next_tail;          /* injected RP-EXPLICIT-GROUP: label the flit after the short group */
  bool pack_idle_before;         /* no carry-over and no open transport before the flit just packed */
  uint8_t corrupt_src;           /* truth source of a PL corruption by inj_flit */
  bool force_standard_nak;
  int16_t label_fresh;           /* rule to label on the next new payload flit */
  uint16_t corrupt_seq;
  bool timeout_inject;           /* injected RP-ACK-TIMEOUT: the replay timer label is the injection */
  bool rp_timer;                 /* the pending replay is the replay timer's */
  uint64_t last_flit_frame;
  uint64_t last_nak_flit;
  uint64_t rx_frame;              /* frame of the partner flit being delivered */
  uint64_t rx_t_end;              /* and when it ended on the wire */
  struct ctrl_state ctrl;
  struct uart_state uart;
  uint8_t link_state;            /* 0 L0, 1 L1 (DL view) */
  uint8_t width_code, speed_code, max_width_code, max_speed_code;
  bool lockout_width, lockout_speed;
  bool basic_out[UAL_MT_COUNT];  /* own basic requests awaiting a response */
  uint16_t dev_id;
  uint16_t port;
  bool port_known;
  uint16_t own_rate, peer_rate;  /* 50 kHz units */
  uint8_t rate_fsm;
  uint16_t rate_target;
  uint64_t rate_wait_until;
  uint32_t rate_changes;
  uint32_t basic_done;
  uint64_t response_delay_ps;    /* injected DM-RESPONSE-LATE */
  bool ignore_dup_request;       /* injected DM-CTRL-OUTSTANDING: the duplicate is not answered */
  uint8_t dup_basic;             /* injected DM-BASIC-OUTSTANDING: answer 1 of 2 */
  struct msg_item done_it[8];    /* messages completed in the flit just built */
  unsigned n_done;

  /* L1 and L0p */
  uint8_t pm;                    /* PM_* */
  bool rx_enter_l1, rx_req_ack, rx_eios;
  uint64_t pm_enter_ps;
  bool lm_sent, lm_acked;
  uint8_t lm_target;
  uint8_t l1_payload_extra;      /* injected LT-PAYLOAD-IN-L1 */
  bool l1_early_ack;             /* injected LT-L1-DLLP-ROLE: the downstream port's PM_Request_Ack goes first */
  bool tl_past_drain;            /* injected DL-TRUNCATED-TL: TL flits go on while the run winds down */

  /* shadow unpacker for flit mutations (injections) */
  bool shadow_on;
  struct ual_unpack shadow;
};

enum rx_state { RX_NORMAL, RX_NAK_WAIT, RX_SEL_WAIT };
enum pm_state { PM_NONE, PM_STOPPED, PM_ENTER, PM_ACK, PM_EIDLE };

/* ---- the whole generator ---- */
#define TRUTH_SRC_INJECT 0
#define TRUTH_SRC_CONSEQ 1
#define TRUTH_SRC_CHANNEL 2

/* Where the injection layer wraps the producers: each layer below it calls
 * these at fixed points of building a flit; inj_init fills them (NULL: none). */
struct gen_hooks {
  void (*slot)(struct gen *g, struct side *s);           /* an L0 flit slot of s, before it is filled */
  void (*pack)(struct gen *g, struct side *s);           /* a new payload flit is about to be packed */
  void (*dl_flit)(struct gen *g, struct side *s, uint8_t *flit);   /* packed; kept for replays */
  void (*pl_flit)(struct gen *g, struct side *s, uint8_t *flit, struct wire_item *wi); /* any flit, before it goes out */
  void (*l1_stopped)(struct gen *g, struct side *s);     /* the DL of s stopped for L1 */
  void (*labelled)(struct gen *g, int rule);             /* a label of source inject went out */
};

/* a label due at the first record after a time (deadline-type rules), of
 * direction dir only when the analyzer checks the deadline on that side's records */
struct time_label { uint64_t t_ps; int16_t rule; uint8_t dir, on, dir_only; };
#define TIME_LABELS 4

struct steps;
struct inj_set;

struct gen {
  struct gen_opts o;
  struct gen_out out;
  bool pcie;                     /* a PCIe scenario (pcie.c, pciefm.c by scenario), not this model */
  struct side s[2];
  struct wire w[2];              /* w[i]: flits sent by side i */
  uint64_t now, t0;
  uint64_t frame;
  uint64_t lat_ps;
  int scenario;
  double load, ber, uart_load, uart_saved;
  uint8_t final_rate;
  bool draining, finished, stop_error;
  bool hold_requests;            /* no new requests while an injection starves the link of Acks */
  uint64_t drain_frame;
  uint64_t user_count;           /* --count as given (0 when the scenario's own length) */
  struct time_label tlabel[TIME_LABELS];
  char err[160];
  struct steps *sq;              /* the scenario's step list and where it is (steps.h) */
  int nak_policy, nak_alt;
  struct gen_rng rng;            /* scenario decisions */
  struct gen_rng ber_rng[2];
  double ber_next[2];            /* bits until the next error */
  struct inj_set *ij;            /* the injections asked for (inject.h) */
  struct gen_hooks hooks;
  struct gen_stats st;
  uint8_t rec[UAL_REC_HDR_BYTES + UAL_FLIT_BYTES + 8];
};

/* ---- model.c ---- */
void gen_emit(struct gen *g, struct side *s, unsigned kind, const uint8_t *body, size_t len,
              uint64_t t_ps);
void gen_truth(struct gen *g, uint64_t frame, unsigned dir, int rule, int src, const char *note);
/* labels rule (source inject) at the first record later than t_ps (of direction dir if dir_only) */
void gen_label_at(struct gen *g, uint64_t t_ps, unsigned dir, int rule, bool dir_only);
/* end of capture: labels whose time has not come are dropped */
void gen_label_flush(struct gen *g);
void gen_fail(struct gen *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static inline struct side *peer_of(struct gen *g, struct side *s) { return &g->s[s->id ^ 1]; }
static inline uint64_t side_flit_ps(const struct side *s) { return s->ft_ps; }
/* after rate or width changed: the flit time */
void side_speed_changed(struct side *s);
void side_set_rate(struct side *s, unsigned rate);
/* also records the width change as an event of s */
void side_set_width(struct gen *g, struct side *s, unsigned width);
/* the DL message codes of a width in lanes and of a rate code */
unsigned side_width_code(unsigned lanes);
unsigned side_speed_code(unsigned rate);

#endif
