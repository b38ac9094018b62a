/* The physical layer of a link partner: the wire between the sides, bit
 * errors, flit emission, ordered-set scripts (training, speed changes with
 * equalization, L1 exit, link down) and the IDLE flits of Configuration.Idle
 * and Recovery.Idle (PCIe 6.x Flit Mode, digest §2.1). */
#include "phy.h"

#include <math.h>
#include <string.h>

#define RID_SPEEDS   0x3F     /* Flit Mode Supported, 2.5..32.0 GT/s supported */
#define RID_CHANGE   0x80     /* speed change */
#define TC_MTS       0xC0     /* Modified TS1/TS2 supported */
#define LINK_PAD     UAL_K23_7
#define DETECT_PS    (200 * PS_PER_NS)
#define SPEED_GAP_PS (500 * PS_PER_NS)
#define IDLE_RX_NEEDED 2        /* IDLE flits received before Idle ends */

/* One ordered set of n symbols: each lane sends it serially, all lanes at once. */
static uint64_t os_ps(const struct side *s, unsigned nsym) {
  return ual_flit_time_ps(s->rate, 1) * nsym / UAL_FLIT_BYTES;
}

void phy_script_push(struct side *s, const struct pl_item *it) {
  if (s->sc_count >= PL_SCRIPT_MAX) return;
  s->script[(s->sc_head + s->sc_count++) % PL_SCRIPT_MAX] = *it;
}


void phy_go_normal(struct side *s) {
  s->mode = PL_NORMAL;
  s->cyc = 0;
  s->tail_naks = 0;
  s->tail_acked = false;
}

/* The link goes down: EIOS, electrical idle, silence. */
void phy_link_down(struct gen *g, struct side *s) {
  if (s->link_down) return;
  s->link_down = true;
  s->dl_active = false;
  s->sc_count = 0;
  struct pl_item it = { .kind = PLI_OS, .os_type = UAL_OS_EIOS, .count = 1 };
  phy_script_push(s, &it);
  it = (struct pl_item){ .kind = PLI_EVENT, .code = UAL_EV_EIDLE_ENTER, .count = 1 };
  phy_script_push(s, &it);
  it = (struct pl_item){ .kind = PLI_MODE, .value = PL_SILENT, .count = 1 };
  phy_script_push(s, &it);
  s->mode = PL_SCRIPT;
  if (s->t_next == PS_NEVER) s->t_next = g->now;
}

/* ---- the wire ---- */

struct wire_item *phy_wire_slot(struct gen *g, struct side *s) {
  struct wire *w = &g->w[s->id];
  if (w->count == WIRE_RING) { w->head = (w->head + 1) % WIRE_RING; w->count--; }
  struct wire_item *it = &w->it[(w->head + w->count++) % WIRE_RING];
  it->corrupt = 0;
  it->contained = 0;
  it->seq_ok = 1;
  it->fresh = 0;
  it->meta.n = 0;
  it->os_type = UAL_OS_UNKNOWN;
  memset(&it->fh, 0, sizeof it->fh);
  memset(&it->dllp, 0, sizeof it->dllp);
  return it;
}

/* ---- bit errors ---- */

static double ber_gap(struct gen *g, unsigned dir) {
  double u = gen_rng_unit(&g->ber_rng[dir]);
  if (u <= 0) u = 1e-300;
  return -log1p(-u) / -log1p(-g->ber);   /* geometric: bits to the next error */
}

/* Flips bits per the bit error rate; returns the number flipped. */
static unsigned apply_ber(struct gen *g, unsigned dir, uint8_t *flit) {
  if (g->ber <= 0) return 0;
  const double bits = UAL_FLIT_BYTES * 8.0;
  unsigned n = 0;
  double pos = g->ber_next[dir];
  while (pos < bits) {
    unsigned b = (unsigned)pos;
    flit[b / 8] ^= (uint8_t)(1u << (b % 8));
    n++;
    pos += 1.0 + ber_gap(g, dir);
  }
  g->ber_next[dir] = pos - bits;
  return n;
}

/* Labels a corrupted flit with what a receiver finds and returns whether it is valid. */
static bool classify_corrupt(struct gen *g, struct side *s, const uint8_t *raw, uint64_t frame,
                             int src) {
  struct ual_flit_info fi;
  struct ual_findings f;
  ual_findings_clear(&f);
  ual_flit_decode(raw, &fi, &f);
  for (unsigned i = 0; i < f.n; i++) {
    int r = f.v[i].rule;
    if (r == UAL_R_PL_FEC_CORRECTED || r == UAL_R_PL_FEC_UNCORRECTABLE || r == UAL_R_PL_CRC ||
        r == UAL_R_PL_CRC_INVERTED)
      gen_truth(g, frame, s->id, r, src, f.v[i].msg);
  }
  return fi.valid;
}

/* ---- emission ---- */

void phy_emit_flit(struct gen *g, struct side *s, uint8_t *flit, struct wire_item *wi,
                   bool payload) {
  uint64_t ft = side_flit_ps(s);
  if (g->hooks.pl_flit) g->hooks.pl_flit(g, s, flit, wi);
  int src = wi->corrupt ? s->corrupt_src : TRUTH_SRC_CHANNEL;
  unsigned flips = apply_ber(g, s->id, flit);
  uint64_t frame = g->frame + 1;
  gen_emit(g, s, UAL_REC_FLIT, flit, UAL_FLIT_BYTES, s->t_next);
  wi->frame = frame;
  wi->t_end = s->t_next + ft;
  s->last_flit_frame = frame;
  if (flips || wi->corrupt) {
    wi->corrupt = 1;
    memcpy(wi->raw, flit, UAL_FLIT_BYTES);
    g->st.corrupted[s->id]++;
    classify_corrupt(g, s, flit, frame, src);
  }
  s->prior_payload = payload;
  s->t_next += ft;
  s->flits_sent++;
  g->st.flits[s->id]++;
}

void phy_emit_idle_flit(struct gen *g, struct side *s) {
  uint8_t flit[UAL_FLIT_BYTES];
  ual_flit_build_idle(flit);
  struct wire_item *wi = phy_wire_slot(g, s);
  wi->kind = W_IDLE;
  phy_emit_flit(g, s, flit, wi, false);
  g->st.idle[s->id]++;
}

void phy_emit_nop(struct gen *g, struct side *s, const struct ual_fh *fh,
                  const struct ual_dllp *d, unsigned wkind) {
  uint8_t flit[UAL_FLIT_BYTES];
  ual_flit_build_nop(flit, fh, d);
  struct wire_item *wi = phy_wire_slot(g, s);
  wi->kind = (uint8_t)wkind;
  wi->fh = *fh;
  wi->fh.usage = UAL_USAGE_NOP_IDLE;
  wi->dllp = *d;
  if (fh->replay_cmd == UAL_RC_SEQ && fh->seq == 0) wi->kind = W_IDLE;
  phy_emit_flit(g, s, flit, wi, false);
  g->st.nop[s->id]++;
}

static void script_pop(struct side *s) {
  s->sc_head = (s->sc_head + 1) % PL_SCRIPT_MAX;
  s->sc_count--;
  s->sc_rep = 0;
  s->sc_lane = 0;
}

void phy_emit_script(struct gen *g, struct side *s) {
  if (s->sc_count == 0) { s->mode = PL_SILENT; s->t_next = PS_NEVER; return; }
  struct pl_item *it = &s->script[s->sc_head];
  uint8_t body[4 + UAL_OS_MAX_SYMBOLS];
  size_t n;
  struct wire_item *wi;
  switch (it->kind) {
  case PLI_TS: {
    struct ual_ts_params p = it->ts;
    unsigned lane = 255;
    if (it->per_lane) { lane = s->sc_lane; p.lane_number = (uint8_t)lane; }
    bool inject = it->flit_mode_off && s->sc_rep == 0 && s->sc_lane == 0;
    if (inject) p.rate_id &= (uint8_t)~1u;
    n = ual_os_build_ts(body, sizeof body, lane, (unsigned)ual_rate_encoding(s->rate), &p);
    if (inject) gen_truth(g, g->frame + 1, s->id, UAL_R_LT_NO_FLIT_MODE, TRUTH_SRC_INJECT,
                          "TS without Flit Mode Supported");
    gen_emit(g, s, UAL_REC_OS, body, n, s->t_next);
    wi = phy_wire_slot(g, s);
    wi->kind = W_OS;
    wi->os_type = p.ts2 ? UAL_OS_TS2 : UAL_OS_TS1;
    wi->t_end = s->t_next + os_ps(s, 16);
    g->st.os[s->id]++;
    if (it->per_lane && ++s->sc_lane < s->width) return;   /* lanes share the timestamp */
    s->sc_lane = 0;
    s->t_next += os_ps(s, 16);
    if (++s->sc_rep >= it->count) script_pop(s);
    return;
  }
  case PLI_OS:
    n = ual_os_build(body, sizeof body, 255, (unsigned)ual_rate_encoding(s->rate), it->os_type);
    if (n) {
      gen_emit(g, s, UAL_REC_OS, body, n, s->t_next);
      wi = phy_wire_slot(g, s);
      wi->kind = W_OS;
      wi->os_type = it->os_type;
      wi->t_end = s->t_next + os_ps(s, (unsigned)(n - 4));
      s->t_next += os_ps(s, (unsigned)(n - 4));
      g->st.os[s->id]++;
    }
    if (++s->sc_rep >= it->count) script_pop(s);
    return;
  case PLI_EVENT: {
    struct ual_event ev = { it->code, 0, it->value };
    ual_event_build(&ev, body);
    gen_emit(g, s, UAL_REC_EVENT, body, UAL_REC_EVENT_BYTES, s->t_next);
    wi = phy_wire_slot(g, s);
    wi->kind = W_EVENT;
    wi->t_end = s->t_next;
    g->st.events[s->id]++;
    script_pop(s);
    return;
  }
  case PLI_GAP:
    s->t_next += it->ps;
    script_pop(s);
    return;
  case PLI_RATE:
    side_set_rate(s, it->value);
    script_pop(s);
    return;
  case PLI_LABEL:
    gen_truth(g, g->frame + 1, s->id, (int)it->value, it->count ? TRUTH_SRC_CONSEQ : TRUTH_SRC_INJECT,
              "scripted");
    script_pop(s);
    return;
  case PLI_MODE:
    s->mode = (uint8_t)it->value;
    script_pop(s);
    if (s->mode == PL_IDLE) { s->idle_sent = 0; s->idle_rx_consec = 0; }
    if (s->mode == PL_HANDSHAKE) { s->hs_sent = 0; s->hs_rx_ack = false; }
    if (s->mode == PL_NORMAL) phy_go_normal(s);
    if (s->mode == PL_SILENT) s->t_next = PS_NEVER;
    if (s->mode == PL_SCRIPT && s->sc_count == 0) { s->mode = PL_SILENT; s->t_next = PS_NEVER; }
    return;
  }
}

static unsigned idle_needed(const struct side *s) {
  return ual_rate_encoding(s->rate) == UAL_ENC_1B1B ? 8 : 4;
}

void phy_step_idle(struct gen *g, struct side *s) {
  if (s->idle_sent >= idle_needed(s) && s->idle_rx_consec >= IDLE_RX_NEEDED) {
    if (s->after_idle == PL_HANDSHAKE) { s->mode = PL_HANDSHAKE; s->hs_sent = 0; s->hs_rx_ack = false; }
    else phy_go_normal(s);
    return;
  }
  s->idle_sent++;
  phy_emit_idle_flit(g, s);
}

/* ---- training scripts ---- */

static struct pl_item ts(unsigned ts2, unsigned link, bool per_lane, bool modified, unsigned count,
                         unsigned rate_id) {
  struct pl_item it = { .kind = PLI_TS, .per_lane = per_lane, .count = (uint16_t)count };
  it.ts.ts2 = (uint8_t)ts2;
  it.ts.link_number = (uint8_t)link;
  it.ts.lane_number = LINK_PAD;
  it.ts.rate_id = (uint8_t)rate_id;
  it.ts.training_control = TC_MTS;
  if (modified) {
    it.ts.modified = 1;
    it.ts.mts_usage = UAL_MTS_USAGE_ALT_PROTOCOL;
    it.ts.vendor_id = UAL_UALINK_VENDOR_ID;
  }
  return it;
}

static void push(struct side *s, struct pl_item it) { phy_script_push(s, &it); }
static void push_os(struct side *s, unsigned type) {
  push(s, (struct pl_item){ .kind = PLI_OS, .os_type = (uint8_t)type, .count = 1 });
}
static void push_event(struct side *s, unsigned code, unsigned value) {
  push(s, (struct pl_item){ .kind = PLI_EVENT, .code = (uint16_t)code, .value = value, .count = 1 });
}
static void push_mode(struct side *s, unsigned mode) {
  push(s, (struct pl_item){ .kind = PLI_MODE, .value = mode, .count = 1 });
}
static void push_label(struct side *s, int rule) {
  push(s, (struct pl_item){ .kind = PLI_LABEL, .value = (uint32_t)rule });
}

/* Recovery.RcvrLock or an equalization phase: EIEOS unless 8b/10b, TS1 on
 * each lane; in phases 1..3 the TS1 carry Equalization Control = the phase
 * (digest §5.4), the label (if any) goes on the first of them. */
static void rcvr_lock(struct side *s, unsigned k, bool enc8, unsigned phase, int label) {
  if (!enc8) push_os(s, UAL_OS_EIEOS);
  if (label >= 0) push_label(s, label);
  struct pl_item t = ts(0, 0, true, false, k, RID_SPEEDS);
  t.ts.eq_control = (uint8_t)(enc8 ? 0 : phase);
  push(s, t);
}

/* Recovery.RcvrCfg (TS2 on each lane, SDS unless 8b/10b), then Recovery.Idle into L0 */
static void rcvr_cfg_idle(struct side *s, unsigned k, bool enc8) {
  push(s, ts(1, 0, true, false, k, RID_SPEEDS));
  if (!enc8) push_os(s, UAL_OS_SDS);
  s->after_idle = PL_NORMAL;
  push_mode(s, PL_IDLE);
}

void phy_script_start(struct gen *g, struct side *s, uint64_t delay) {
  s->mode = PL_SCRIPT;
  s->t_next = g->now + delay;
}

/* Detect, Polling, Configuration with the UALink alternate protocol
 * negotiation (Modified TS1/TS2, vendor 20AEh), then Configuration.Idle. */
void phy_train(struct gen *g, struct side *s, bool mts, bool flit_mode_off) {
  unsigned n = g->o.train_os;
  push_event(s, UAL_EV_RX_DETECT, 0);
  push(s, (struct pl_item){ .kind = PLI_GAP, .ps = DETECT_PS });
  struct pl_item t = ts(0, LINK_PAD, false, false, n, RID_SPEEDS);      /* Polling.Active */
  t.flit_mode_off = s->id == 0 && flit_mode_off;
  push(s, t);
  push(s, ts(1, LINK_PAD, false, false, n, RID_SPEEDS));                /* Polling.Configuration */
  push(s, ts(0, 0, false, false, n, RID_SPEEDS));                       /* Linkwidth.Start/Accept */
  push(s, ts(0, 0, true, mts, (n + 1) / 2, RID_SPEEDS));                /* Lanenum.Wait/Accept */
  push(s, ts(1, 0, true, mts, (n + 1) / 2, RID_SPEEDS));                /* Configuration.Complete */
  if (!mts && s->id == 0) push_label(s, UAL_R_LT_NO_ALT_PROTOCOL);
  s->after_idle = PL_HANDSHAKE;
  push_mode(s, PL_IDLE);                                                /* Configuration.Idle */
}

/* Recovery with a speed change: RcvrLock, RcvrCfg, Speed (electrical idle),
 * then at the new rate RcvrLock, optional Equalization phases 0..3,
 * RcvrCfg and Idle. */
void phy_speed_change(struct gen *g, struct side *s, unsigned rate, bool eq, int label_rate,
                      int label_eq) {
  unsigned k = g->o.train_os / 4 ? g->o.train_os / 4 : 1;
  push(s, ts(0, 0, true, false, k, RID_SPEEDS | RID_CHANGE));
  push(s, ts(1, 0, true, false, k, RID_SPEEDS | RID_CHANGE));
  push_os(s, UAL_OS_EIOS);
  push_event(s, UAL_EV_EIDLE_ENTER, 0);
  push(s, (struct pl_item){ .kind = PLI_GAP, .ps = SPEED_GAP_PS });
  push(s, (struct pl_item){ .kind = PLI_RATE, .value = rate });
  if (label_rate >= 0 && s->id == 0) push_label(s, label_rate);
  push_event(s, UAL_EV_RATE, rate);
  push_event(s, UAL_EV_EIDLE_EXIT, 0);
  bool enc8 = ual_rate_encoding(rate) == UAL_ENC_8B10B;
  rcvr_lock(s, k, enc8, 0, -1);
  if (eq)
    for (unsigned ph = 0; ph < 4; ph++) rcvr_lock(s, k, enc8, ph, ph == 1 && s->id == 0 ? label_eq : -1);
  rcvr_cfg_idle(s, k, enc8);
}

/* L1 exit: electrical idle exit, Recovery, Recovery.Idle. */
void phy_l1_exit(struct gen *g, struct side *s) {
  unsigned k = g->o.train_os / 4 ? g->o.train_os / 4 : 1;
  bool enc8 = ual_rate_encoding(s->rate) == UAL_ENC_8B10B;
  push_event(s, UAL_EV_EIDLE_EXIT, 0);
  rcvr_lock(s, k, enc8, 0, -1);
  rcvr_cfg_idle(s, k, enc8);
}

