/* Test fixture for the stateful analysis: builds capture records (flits
 * from the packer, NOP/IDLE flits, ordered sets, link events) for both
 * directions, feeds them to a struct ual_analyzer in order and counts the
 * findings per rule. Shared by test_replay/ltssm/dlproto/uart/analysis. */
#ifndef UAL_TEST_ANALYSIS_FIXTURE_H
#define UAL_TEST_ANALYSIS_FIXTURE_H

#include "check.h"
#include <ualink/ualink/analysis.h>
#include <ualink/ualink.h>
#include <string.h>
#include <stdlib.h>

#define FX_A 0
#define FX_B 1
#define FX_MAX_TL 8192

/* Optional record log: every record fx builds, for replaying a capture. */
#define FX_LOG_MAX 4096
#define FX_REC_MAX (UAL_REC_HDR_BYTES + 256 + 64)
struct fx_log {
  size_t n;
  uint8_t rec[FX_LOG_MAX][FX_REC_MAX];
  size_t len[FX_LOG_MAX];
  uint64_t ts[FX_LOG_MAX];
};

struct fx {
  struct fx_log *log;
  struct ual_analyzer a;
  struct ual_rec_result r;          /* the last record */
  struct ual_events ev;
  uint64_t frame, ts_ns;
  uint8_t rate, width, role_a, role_b;
  uint8_t next_flags;               /* extra header flags for the next record (UAL_RF_LOST) */
  unsigned counts[UAL_R_COUNT];     /* findings since the last fx_clear_counts */
  unsigned events[UAL_TEV_COUNT];
  struct ual_pack pack[2];
  uint16_t next_seq[2];
  int run[2];                       /* explicit sequence numbers since the last Ack/Nak flit */
  uint32_t tl_sent[2], tl_got[2];   /* TL flits pushed / delivered */
  uint32_t tl_ids[2][FX_MAX_TL];    /* first DWord of each delivered TL flit */
  unsigned vdps;
  struct ual_vdp last_vdp;
};

static inline uint32_t fx_tl_id(const uint8_t *d) {
  return (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24;
}

static void fx_delivered(void *ctx, unsigned dir, uint64_t frame, const struct ual_unpack_out *u) {
  struct fx *x = ctx;
  (void)frame;
  for (unsigned i = 0; i < u->n_tl; i++)
    if (x->tl_got[dir] < FX_MAX_TL) x->tl_ids[dir][x->tl_got[dir]++] = fx_tl_id(u->tl[i].data);
}

static void fx_vdp(void *ctx, const struct ual_vdp *v) {
  struct fx *x = ctx;
  x->vdps++;
  x->last_vdp = *v;
}

static inline void fx_clear_counts(struct fx *x) {
  memset(x->counts, 0, sizeof x->counts);
  memset(x->events, 0, sizeof x->events);
}

/* Link at 128 GT/s x8 by default, side A an accelerator, side B a switch. */
static inline void fx_init(struct fx *x) {
  struct fx_log *log = x->log;
  memset(x, 0, sizeof *x);
  x->log = log;
  if (log) log->n = 0;
  ual_analyzer_init(&x->a);
  ual_events_init(&x->ev);
  x->ev.delivered = fx_delivered;
  x->ev.vdp = fx_vdp;
  x->ev.ctx = x;
  x->rate = 7;
  x->width = 8;
  x->role_a = UAL_ROLE_ACCEL;
  x->role_b = UAL_ROLE_SWITCH;
  x->ts_ns = 1000000;
  for (int d = 0; d < 2; d++) {
    ual_pack_init(&x->pack[d]);
    x->next_seq[d] = 100;
  }
}

static inline uint64_t fx_ft_ns(const struct fx *x) {
  uint64_t ps = ual_flit_time_ps(x->rate, x->width);
  return ps ? (ps + 999) / 1000 : 1;
}

static inline unsigned fx_count(const struct fx *x, enum ual_rule r) { return x->counts[r]; }

/* Any warning or error since the last clear (infos do not count). */
static inline unsigned fx_problems(const struct fx *x) {
  unsigned n = 0;
  for (int r = 0; r < UAL_R_COUNT; r++)
    if (ual_rule_severity((enum ual_rule)r) != UAL_SEV_INFO) n += x->counts[r];
  return n;
}

static inline void fx_account(struct fx *x, const struct ual_findings *f) {
  for (unsigned i = 0; i < f->n; i++) {
    x->counts[f->v[i].rule]++;
    if (getenv("FX_VERBOSE"))
      fprintf(stderr, "  frame %llu %s: %s\n", (unsigned long long)x->frame, ual_rule_id(f->v[i].rule), f->v[i].msg);
  }
}

/* One record of kind with body; time advances by `adv` ns afterwards. */
static inline void fx_record_adv(struct fx *x, unsigned dir, unsigned kind, const uint8_t *body, size_t len,
                                 uint64_t adv) {
  struct ual_rec_hdr h;
  uint8_t rec[FX_REC_MAX];
  ual_rec_hdr_init(&h, kind, dir);
  h.rate = x->rate;
  h.width = x->width;
  h.role_a = x->role_a;
  h.role_b = x->role_b;
  h.flags |= x->next_flags;
  x->next_flags = 0;
  size_t n = ual_record_build(&h, body, len, rec, sizeof rec);
  if (x->log && x->log->n < FX_LOG_MAX) {
    memcpy(x->log->rec[x->log->n], rec, n);
    x->log->len[x->log->n] = n;
    x->log->ts[x->log->n++] = x->ts_ns;
  }
  ual_events_clear(&x->ev);
  ual_analyzer_step(&x->a, rec, n, ++x->frame, x->ts_ns, &x->r, &x->ev);
  fx_account(x, &x->r.findings);
  for (unsigned i = 0; i < x->ev.n; i++) x->events[x->ev.v[i].kind]++;
  x->ts_ns += adv;
}

static inline void fx_flit(struct fx *x, unsigned dir, const uint8_t *flit) {
  struct ual_fh fh;
  ual_fh_decode(flit, &fh);
  if (fh.replay_cmd != UAL_RC_SEQ) x->run[dir] = 0;
  else if (fh.seq != 0) x->run[dir]++;
  fx_record_adv(x, dir, UAL_REC_FLIT, flit, UAL_FLIT_BYTES, fx_ft_ns(x));
}

/* A payload flit from the direction's packer with the given header. */
static inline void fx_payload_hdr(struct fx *x, unsigned dir, unsigned cmd, unsigned seq, bool tl) {
  uint8_t flit[UAL_FLIT_BYTES];
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, (uint8_t)cmd, (uint16_t)seq };
  ual_pack_flit(&x->pack[dir], &fh, tl, flit);
  fx_flit(x, dir, flit);
}

/* The analyzer of a mid-stream capture learns where TL flits begin from a
 * flit whose segment 0 starts none: send one per direction (seq 99). */
static inline void fx_sync(struct fx *x) {
  for (unsigned d = 0; d < 2; d++) {
    fx_payload_hdr(x, d, UAL_RC_SEQ, ual_seq_add(x->next_seq[d], UAL_SEQ_MOD - 1), false);
  }
}

/* Builds (does not send) the next explicit payload flit. */
static inline void fx_make(struct fx *x, unsigned dir, uint8_t *flit) {
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, x->next_seq[dir] };
  ual_pack_flit(&x->pack[dir], &fh, true, flit);
  x->next_seq[dir] = ual_seq_inc(x->next_seq[dir]);
}

/* A copy of flit with a CRC error (FEC consistent, so not corrected). */
static inline void fx_bad_crc(const uint8_t *flit, uint8_t *out) {
  memcpy(out, flit, UAL_FLIT_BYTES);
  out[40] ^= 0x5A;
  ual_fec_encode(out);
}

/* A copy of flit whose CRC is inverted: a containment flit. */
static inline void fx_contained(const uint8_t *flit, uint8_t *out) {
  memcpy(out, flit, UAL_FLIT_BYTES);
  for (int i = 0; i < UAL_CRC_BYTES; i++) out[UAL_CRC_OFFSET + i] ^= 0xFF;
  ual_fec_encode(out);
}

/* The next payload flit with an explicit sequence number. */
static inline void fx_payload(struct fx *x, unsigned dir) {
  fx_payload_hdr(x, dir, UAL_RC_SEQ, x->next_seq[dir], true);
  x->next_seq[dir] = ual_seq_inc(x->next_seq[dir]);
}

/* TL flit metadata pattern used by fx_push_tl. */
static inline unsigned k_m0(uint32_t id) { return id & 1; }

static inline void fx_push_tl(struct fx *x, unsigned dir, unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    uint8_t d[UAL_TL_FLIT_BYTES];
    uint32_t id = (uint32_t)(dir << 24) | x->tl_sent[dir];
    for (unsigned k = 0; k < sizeof d; k++) d[k] = (uint8_t)(id * 7 + k * 13 + 1);
    d[0] = (uint8_t)id; d[1] = (uint8_t)(id >> 8); d[2] = (uint8_t)(id >> 16); d[3] = (uint8_t)(id >> 24);
    if (ual_pack_push_tl(&x->pack[dir], d, k_m0(id), 0)) x->tl_sent[dir]++;
  }
}

/* After link-up A makes n payload flits (kept in f for replays) and sends
 * the first `sent` of them; the third arrives with a bad CRC. */
static inline void fx_third_bad(struct fx *x, uint8_t (*f)[UAL_FLIT_BYTES], int n, int sent, unsigned tl) {
  uint8_t bad[UAL_FLIT_BYTES];
  fx_init(x);
  fx_sync(x);
  fx_push_tl(x, FX_A, tl);
  for (int i = 0; i < n; i++) fx_make(x, FX_A, f[i]);
  for (int i = 0; i < sent; i++) {
    if (i != 2) {
      fx_flit(x, FX_A, f[i]);
      continue;
    }
    fx_bad_crc(f[2], bad);
    fx_flit(x, FX_A, bad);
  }
}

static inline void fx_push_msg(struct fx *x, unsigned dir, uint32_t dw) { ual_pack_push_msg(&x->pack[dir], &dw, 1); }

/* The next payload flit in the normal header cycle: 3 explicit sequence
 * numbers, then an implicit one carrying Ack 0 (ignored). */
static inline void fx_data(struct fx *x, unsigned dir) {
  if (x->run[dir] == 0 || x->run[dir] % 3) {
    fx_payload(x, dir);
    return;
  }
  fx_payload_hdr(x, dir, UAL_RC_ACK, 0, true);
  x->next_seq[dir] = ual_seq_inc(x->next_seq[dir]);
}

/* Sends payload flits until the packer has nothing left. */
static inline void fx_flush(struct fx *x, unsigned dir) {
  do fx_data(x, dir);
  while (ual_pack_msg_queued(&x->pack[dir]) || ual_pack_tl_queued(&x->pack[dir]));
}

/* One message in its own payload flit. */
static inline void fx_msg(struct fx *x, unsigned dir, uint32_t dw) {
  fx_push_msg(x, dir, dw);
  fx_flush(x, dir);
}

static inline void fx_nop(struct fx *x, unsigned dir, unsigned cmd, unsigned seq, unsigned dllp_type) {
  uint8_t flit[UAL_FLIT_BYTES];
  /* complete the group of 3 with explicit NOPs (NEXT_TX_SEQ - 1) */
  while (cmd != UAL_RC_SEQ && x->run[dir] % 3) fx_nop(x, dir, UAL_RC_SEQ, ual_seq_add(x->next_seq[dir], UAL_SEQ_MOD - 1), UAL_DLLP_NOP2);
  struct ual_fh fh = { UAL_USAGE_NOP_IDLE, 0, (uint8_t)cmd, (uint16_t)seq };
  struct ual_dllp d;
  memset(&d, 0, sizeof d);
  d.type = (uint8_t)dllp_type;
  ual_flit_build_nop(flit, &fh, &d);
  fx_flit(x, dir, flit);
}

static inline void fx_lm(struct fx *x, unsigned dir, unsigned cmd, unsigned width_code, unsigned prio) {
  uint8_t flit[UAL_FLIT_BYTES];
  while (x->run[dir] % 3) fx_nop(x, dir, UAL_RC_SEQ, ual_seq_add(x->next_seq[dir], UAL_SEQ_MOD - 1), UAL_DLLP_NOP2);
  struct ual_fh fh = { UAL_USAGE_NOP_IDLE, 0, UAL_RC_ACK, 0 };
  struct ual_dllp d;
  memset(&d, 0, sizeof d);
  d.type = UAL_DLLP_LINK_MGMT;
  d.lm_cmd = (uint8_t)cmd;
  d.lm_width = (uint8_t)width_code;
  d.lm_priority = (uint8_t)prio;
  ual_flit_build_nop(flit, &fh, &d);
  fx_flit(x, dir, flit);
}

static inline void fx_idle(struct fx *x, unsigned dir) {
  uint8_t flit[UAL_FLIT_BYTES];
  x->run[dir] = 0;
  ual_flit_build_idle(flit);
  fx_flit(x, dir, flit);
}

static inline void fx_event(struct fx *x, unsigned dir, unsigned code, uint32_t value) {
  struct ual_event e = { (uint16_t)code, 0, value };
  uint8_t body[UAL_REC_EVENT_BYTES];
  ual_event_build(&e, body);
  fx_record_adv(x, dir, UAL_REC_EVENT, body, sizeof body, 1);
}

static inline void fx_os(struct fx *x, unsigned dir, unsigned type) {
  uint8_t body[4 + UAL_OS_MAX_SYMBOLS];
  size_t n = ual_os_build(body, sizeof body, 255, (unsigned)ual_rate_encoding(x->rate), type);
  if (n) fx_record_adv(x, dir, UAL_REC_OS, body, n, 1);
}

/* TS1/TS2; link/lane 255 = PAD; ec: a TS1's Equalization Control. */
static inline void fx_ts_eq(struct fx *x, unsigned dir, unsigned ts2, unsigned link, unsigned lane, bool mts,
                            unsigned training_control, unsigned ec) {
  struct ual_ts_params p;
  memset(&p, 0, sizeof p);
  p.ts2 = (uint8_t)ts2;
  p.link_number = (uint8_t)(link == 255 ? UAL_K23_7 : link);
  p.lane_number = (uint8_t)(lane == 255 ? UAL_K23_7 : lane);
  p.rate_id = 0x3F;
  p.training_control = (uint8_t)(training_control | 0xC0);
  p.eq_control = (uint8_t)ec;
  if (mts) {
    p.modified = 1;
    p.mts_usage = UAL_MTS_USAGE_ALT_PROTOCOL;
    p.vendor_id = UAL_UALINK_VENDOR_ID;
  }
  uint8_t body[4 + UAL_OS_MAX_SYMBOLS];
  size_t n = ual_os_build_ts(body, sizeof body, lane == 255 ? 255 : lane, (unsigned)ual_rate_encoding(x->rate), &p);
  if (n) fx_record_adv(x, dir, UAL_REC_OS, body, n, 1);
}

static inline void fx_ts(struct fx *x, unsigned dir, unsigned ts2, unsigned link, unsigned lane, bool mts,
                         unsigned training_control) {
  fx_ts_eq(x, dir, ts2, link, lane, mts, training_control, 0);
}

/* IDLE flits, then the first NOP flits: the next payload flits begin the
 * sequence-number handshake, numbered from 1 with empty packers. */
static inline void fx_handshake(struct fx *x) {
  for (int i = 0; i < 4; i++)
    for (unsigned d = 0; d < 2; d++) fx_idle(x, d);
  for (unsigned d = 0; d < 2; d++) fx_nop(x, d, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
  for (unsigned d = 0; d < 2; d++) {
    ual_pack_init(&x->pack[d]);
    x->next_seq[d] = 1;
  }
}

/* Detect, Polling, Configuration (with Modified TS when mts), then the
 * handshake: L0 at 2.5 GT/s with the DL in its reset state. */
static inline void fx_train(struct fx *x, bool mts) {
  x->rate = 1;
  for (unsigned d = 0; d < 2; d++) fx_event(x, d, UAL_EV_RX_DETECT, 0);
  for (unsigned d = 0; d < 2; d++) fx_ts(x, d, 0, 255, 255, false, 0);
  for (unsigned d = 0; d < 2; d++) fx_ts(x, d, 1, 255, 255, false, 0);
  for (unsigned d = 0; d < 2; d++) fx_ts(x, d, 0, 0, 255, false, 0);
  for (unsigned d = 0; d < 2; d++) fx_ts(x, d, 0, 0, 0, mts, 0);
  for (unsigned d = 0; d < 2; d++) fx_ts(x, d, 1, 0, 0, mts, 0);
  fx_handshake(x);
}

/* ---- DL messages ---- */

static inline uint32_t fx_ctrl(unsigned type, unsigned prio, unsigned target, unsigned cmd, unsigned resp) {
  struct ual_dlmsg m;
  memset(&m, 0, sizeof m);
  m.type = (uint8_t)type;
  m.priority = (uint8_t)prio;
  m.target = (uint8_t)target;
  m.command = (uint8_t)cmd;
  m.response = (uint8_t)resp;
  return ual_dlmsg_encode(&m);
}

static inline uint32_t fx_basic(unsigned type, unsigned ack, unsigned value, unsigned dev_type) {
  struct ual_dlmsg m;
  memset(&m, 0, sizeof m);
  m.type = (uint8_t)type;
  m.ack = (uint8_t)ack;
  if (type == UAL_MT_TL_RATE) m.rate = (uint16_t)(ack ? 0 : value);
  if (type == UAL_MT_DEVICE_ID) { m.id = (uint16_t)value; m.dev_type = (uint8_t)dev_type; m.valid = 1; }
  if (type == UAL_MT_PORT_NUMBER) { m.port = (uint16_t)value; m.valid = 1; }
  return ual_dlmsg_encode(&m);
}

static inline uint32_t fx_uart(unsigned type, unsigned value) {
  struct ual_dlmsg m;
  memset(&m, 0, sizeof m);
  m.type = (uint8_t)type;
  if (type == UAL_MT_UART_CREDIT) m.data_fc_seq = (uint16_t)value;
  if (type == UAL_MT_UART_TRANSPORT) m.length = (uint8_t)(value - 1);
  if (type == UAL_MT_UART_RESET_RSP) m.status = (uint8_t)value;
  return ual_dlmsg_encode(&m);
}

/* A UART Stream Transport of n payload DWords (values given, or a pattern). */
static inline void fx_push_transport(struct fx *x, unsigned dir, unsigned n, const uint32_t *payload) {
  uint32_t dw[1 + UAL_UART_MAX_PAYLOAD];
  dw[0] = fx_uart(UAL_MT_UART_TRANSPORT, n);
  for (unsigned i = 0; i < n; i++) dw[1 + i] = payload ? payload[i] : 0x61626364u + i;
  ual_pack_push_msg(&x->pack[dir], dw, n + 1);
}

/* A complete control negotiation: req requests, the other side Acks, req confirms. */
static inline void fx_negotiate(struct fx *x, unsigned req, unsigned type, unsigned target) {
  fx_msg(x, req, fx_ctrl(type, 0, target, UAL_CMD_REQUEST, 0));
  fx_msg(x, req ^ 1, fx_ctrl(type, 0, target, UAL_CMD_ACK, target));
  fx_msg(x, req, fx_ctrl(type, 0, target, UAL_CMD_ACK, target));
}

static inline void fx_channels_online(struct fx *x) {
  fx_negotiate(x, FX_A, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_TL);
  fx_negotiate(x, FX_A, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_UART);
}

/* L1 entry (digest §6): channels offline, Link State L1, then the PM DLLPs
 * in the given order: 0 = switch PM_Enter_L1, accelerator PM_Request_Ack;
 * 1 = the accelerator sends PM_Enter_L1; 2 = PM_Request_Ack first. */
static inline void fx_l1_entry(struct fx *x, int order) {
  fx_negotiate(x, FX_A, UAL_MT_CHANNEL, UAL_CHAN_TL);
  fx_negotiate(x, FX_A, UAL_MT_CHANNEL, UAL_CHAN_UART);
  fx_negotiate(x, FX_A, UAL_MT_LINK_STATE, 1);
  fx_nop(x, FX_A, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
  switch (order) {
  case 0:
    fx_nop(x, FX_B, UAL_RC_ACK, 0, UAL_DLLP_PM_ENTER_L1);
    fx_nop(x, FX_A, UAL_RC_ACK, 0, UAL_DLLP_PM_REQUEST_ACK);
    break;
  case 1:
    fx_nop(x, FX_A, UAL_RC_ACK, 0, UAL_DLLP_PM_ENTER_L1);
    fx_nop(x, FX_B, UAL_RC_ACK, 0, UAL_DLLP_PM_REQUEST_ACK);
    break;
  default:
    fx_nop(x, FX_A, UAL_RC_ACK, 0, UAL_DLLP_PM_REQUEST_ACK);
    fx_nop(x, FX_B, UAL_RC_ACK, 0, UAL_DLLP_PM_ENTER_L1);
    break;
  }
  fx_nop(x, FX_B, UAL_RC_ACK, 0, UAL_DLLP_PM_ENTER_L1);   /* repeated: judged once */
  for (unsigned d = 2; d-- > 0;) {
    fx_os(x, d, UAL_OS_EIOS);
    fx_event(x, d, UAL_EV_EIDLE_ENTER, 0);
  }
}

static inline void fx_l1_exit(struct fx *x) {
  for (unsigned d = 0; d < 2; d++) fx_event(x, d, UAL_EV_EIDLE_EXIT, 0);
  for (unsigned d = 0; d < 2; d++) fx_ts(x, d, 0, 0, 0, false, 0);
  for (unsigned d = 0; d < 2; d++) fx_ts(x, d, 1, 0, 0, false, 0);
  for (unsigned d = 0; d < 2; d++) fx_idle(x, d);
  for (unsigned d = 0; d < 2; d++) fx_nop(x, d, UAL_RC_ACK, 0, UAL_DLLP_NOP2);
}

#endif
