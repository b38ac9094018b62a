/* The analyzer: one record at a time through the stateless decode, the
 * LTSSM, the replay tracker (which flits are delivered), the unpacker of
 * each direction's delivered stream, the DL message protocols and the UART
 * streams (analysis.h). */
#include "ualink/ualink/analysis.h"
#include "ualink/core/fields.h"
#include "layout.h"
#include "core/field_access.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static char side_name(unsigned dir) { return dir ? 'B' : 'A'; }

/* ---- init, resets ---- */

void ual_analyzer_init(struct ual_analyzer *a) {
  memset(a, 0, sizeof *a);
  ual_unpack_init_midstream(&a->unpack[0]);
  ual_unpack_init_midstream(&a->unpack[1]);
  ual_replay_init(&a->rp);
  ual_ltssm_init(&a->lt);
  ual_dlproto_init(&a->dp);
  ual_uart_init(&a->ua);
  ual_fabric_an_init(&a->fab);
}

static void truncated(struct ual_analyzer *a, unsigned d, const char *why, struct ual_findings *f) {
  const struct ual_unpack *u = &a->unpack[d];
  if (u->tl_cands || u->tl_lost || !u->tl_have) return;
  a->truncated++;
  ual_findings_add(f, UAL_R_DL_TRUNCATED_TL, -1, "%s with %c's TL flit from frame %llu partly received (%u of 16 sectors)",
                   why, side_name(d), (unsigned long long)u->tl_frame, u->tl_have);
}

/* Port d went down or retrains: the DL state of what it sends restarts
 * from its reset values. The partner keeps sending until its own port
 * follows. */
static void dl_reset(struct ual_analyzer *a, unsigned d, struct ual_findings *f) {
  if (a->fresh[d] && !a->seen_payload[d]) return;
  truncated(a, d, "link down", f);
  ual_unpack_init(&a->unpack[d]);
  a->sync[d].hidden = 0;              /* what was hidden before the reset no longer counts */
  ual_replay_reset(&a->rp, d);
  ual_dlproto_reset(&a->dp, d);
  ual_uart_reset(&a->ua, d);
  a->fresh[d] = 1;
  a->seen_payload[d] = 0;
}

/* Records were lost before this one (capture, not link). */
static void forget(struct ual_analyzer *a, unsigned d) {
  ual_replay_forget(&a->rp, d);
  ual_dlproto_forget(&a->dp, d);
  ual_uart_forget(&a->ua, d);
  ual_unpack_init_midstream(&a->unpack[d]);
  memset(&a->sync[d], 0, sizeof a->sync[d]);
  a->sync[d].hidden = 1;              /* the lost records may have held requests */
  a->sync[d].hidden_ts = a->t_last_ns;
  a->sync[d].hidden_flits = a->flits[0] + a->flits[1];
}

/* ---- delivered flits ---- */

/* Alternate sectors holding UART messages or transport payload. */
static int uart_sectors(const struct ual_flit_view *v, const struct ual_unpack_out *uo) {
  int n = 0;
  for (int k = 0; k < UAL_SEGMENTS; k++) {
    if (uo->alt_role[k] == UAL_ALT_UART_PAYLOAD) {
      n++;
    } else if (uo->alt_role[k] == UAL_ALT_MESSAGE) {
      uint8_t dw[4];
      ual_put_le32(dw, v->first_dw[k]);
      if (ual_field_get(UAL_F_MSG_MCLASS, dw) == UAL_MCLASS_UART) n++;
    }
  }
  return n;
}

/* Where the direction's delivered stream became known (analysis.h): one
 * DL-PARTIAL-TL for the TL sectors skipped before, one AN-SYNC and a
 * timeline event when both TL flit and DL message boundaries are known. */
static void sync_step(struct ual_analyzer *a, unsigned d, const struct ual_unpack_out *uo, const struct ual_when *w,
                      struct ual_events *ev, struct ual_findings *f) {
  struct ual_sync *s = &a->sync[d];
  const struct ual_unpack *u = &a->unpack[d];
  if (s->reported) return;
  if (!s->flits++) s->first_frame = w->frame;
  if (uo->partial_sectors) {
    if (!s->partial) s->partial_frame = w->frame;
    s->partial += uo->partial_sectors;
  }
  if (uo->tl_synced_at >= 0) {
    s->tl_frame = w->frame;
    if (s->partial)
      ual_findings_add(f, UAL_R_DL_PARTIAL_TL, uo->tl_synced_at,
                       "%c: %u TL sector(s) from frame %llu on not unpacked: their TL flits began before the capture",
                       side_name(d), s->partial, (unsigned long long)s->partial_frame);
  }
  if (uo->msg_synced_at >= 0) s->msg_frame = w->frame;
  if (!ual_unpack_synced(u)) {
    a->unsynced_flits[d]++;
    return;
  }
  s->reported = 1;
  s->frame = w->frame;
  if (!s->tl_frame) s->tl_frame = s->first_frame;
  if (!s->msg_frame) s->msg_frame = s->first_frame;
  ual_findings_add(f, UAL_R_AN_SYNC, -1, "%c>%c synchronized after %llu delivered flit(s): TL flits from frame %llu, DL messages from frame %llu",
                   side_name(d), side_name(d ^ 1), (unsigned long long)s->flits, (unsigned long long)s->tl_frame,
                   (unsigned long long)s->msg_frame);
  ual_events_add(ev, w, UAL_TEV_SYNC, d, 1, 0, "%c>%c synchronized: TL flit and DL message boundaries known",
                 side_name(d), side_name(d ^ 1));
}

/* flit: its bytes after FEC correction; v: its view (ual_flit_view). */
static void deliver(struct ual_analyzer *a, unsigned d, const struct ual_flit_view *v, const uint8_t *flit,
                    const struct ual_when *wf, bool own, struct ual_rec_result *out, struct ual_events *ev) {
  struct ual_findings *f = &out->findings;
  struct ual_unpack_out local, *uo = own ? &out->unp : &local;
  if (a->unpack[d].msg_owed) {        /* a request may hide in this flit */
    a->sync[d].hidden = 1;
    a->sync[d].hidden_ts = wf->ts_ns;
    a->sync[d].hidden_flits = a->flits[0] + a->flits[1];
  }
  unsigned need_before = a->unpack[d].uart_need;
  ual_unpack_flit_viewed(&a->unpack[d], v, flit, !a->no_tl_bytes, wf->frame, uo, f);
  sync_step(a, d, uo, wf, ev, f);
  bool alt = need_before || uo->alt_role[0] || uo->alt_role[1] || uo->alt_role[2] || uo->alt_role[3];
  int usec = alt ? uart_sectors(v, uo) : 0;
  ual_dlproto_uart(&a->dp, d, a->unpack[d].uart_need, wf);
  if (own) {
    out->unpacked = true;
    ual_dlproto_flit(&a->dp, d, &out->flit, usec, wf, f);
  }
  if (alt) ual_uart_flit(&a->ua, d, v, need_before, uo, f);
  for (unsigned i = 0; i < uo->n_msg; i++) {
    const struct ual_dl_item *it = &uo->msg[i];
    struct ual_when w = *wf;
    w.segment = it->segment;
    uint8_t ch4[2] = { a->dp.s[0].ch4_changes, a->dp.s[1].ch4_changes };
    const struct ual_dlproto_side *me = &a->dp.s[d];
    ual_uart_step(&a->ua, d, it, me->ch4, me->after_l1 && me->ch4 != 1, &w, ev, f);
    ual_dlproto_step(&a->dp, d, it, &w, ev, f);
    for (unsigned p = 0; p < 2; p++)
      if (a->dp.s[p].ch4_changes != ch4[p]) ual_uart_channel(&a->ua, p, a->dp.s[p].ch4 == 1);
  }
  if (ev && ev->delivered) ev->delivered(ev->ctx, d, wf->frame, uo);
}

static void flit_step(struct ual_analyzer *a, struct ual_rec_result *out, struct ual_when *w, struct ual_events *ev) {
  const struct ual_flit_info *fi = &out->flit;
  unsigned d = out->dir;
  struct ual_replay_out ro;
  a->flits[d]++;
  ual_replay_step(&a->rp, d, fi, w, &ro, ev, &out->findings);
  /* a FEC-clean flit's bytes are its record's body (analysis.h) */
  const uint8_t *bytes = a->bytes_in_record && fi->fec.status == UAL_FEC_CLEAN ? out->rec.body : fi->bytes;
  if (ro.held) memcpy(ro.held->flit, bytes, sizeof ro.held->flit);
  if (fi->kind != UAL_FK_PAYLOAD || !fi->valid || !ro.placed) return;
  a->seen_payload[d] = 1;
  w->is_new = ro.is_new;
  if (ro.verdict != UAL_RPV_DELIVER) {
    if (ro.is_new && ro.verdict != UAL_RPV_DROPPED) ual_dlproto_flit(&a->dp, d, fi, -1, w, &out->findings);
    return;
  }
  if (ro.resync) {
    /* a run delivered before TL flit boundaries were known gave no TL
     * flits: its replayed copies are delivered again, in step */
    if (ro.save && !ual_unpack_synced(&a->unpack[d])) a->rp.d[d].seen_n = 0;
    else if (ro.save) a->unpack_kept[d] = a->unpack[d];
    ual_unpack_init_midstream(&a->unpack[d]);
  }
  if (ro.rejoin == 2) a->unpack[d] = a->unpack_kept[d];
  /* the link's numbering starts: nothing is carried over into the flit */
  if (ro.handshake && !ual_unpack_synced(&a->unpack[d])) ual_unpack_init(&a->unpack[d]);
  deliver(a, d, &fi->view, bytes, w, true, out, ev);
  const struct ual_hold_slot *s;
  while ((s = ual_replay_release(&a->rp, d)) != NULL) {
    struct ual_when hw = *w;
    hw.frame = s->frame;
    hw.ts_ns = s->ts_ns;
    hw.is_new = s->is_new;
    struct ual_flit_view hv;
    ual_flit_view(s->flit, &hv);
    deliver(a, d, &hv, s->flit, &hw, false, out, ev);
  }
}

static void ltssm_ctx(const struct ual_analyzer *a, struct ual_ltssm_ctx *c) {
  const struct ual_dlproto *dp = &a->dp;
  for (unsigned i = 0; i < 2; i++) c->role[i] = (uint8_t)ual_dlproto_role(dp, i);
  int8_t c0 = dp->s[0].ch0, c1 = dp->s[1].ch0;
  c->ch0_online = (int8_t)(c0 == 1 || c1 == 1 ? 1 : c0 == 0 && c1 == 0 ? 0 : UAL_UNKNOWN);
  c->speed_allowed = dp->speed_allowed;
  c->width_ready = dp->width_ready;
  c->l1_agreed = dp->s[0].l1_stopped || dp->s[1].l1_stopped || dp->s[0].lstate == 1 || dp->s[1].lstate == 1;
}

/* Flit time of a rate/width, remembered for the next records. */
static uint32_t flit_time(struct ual_analyzer *a, unsigned rate, unsigned width) {
  if (rate != a->ft_rate || width != a->ft_width) {
    a->ft_rate = (uint8_t)rate;
    a->ft_width = (uint8_t)width;
    a->ft_ps = (uint32_t)ual_flit_time_ps(rate, width);
  }
  return a->ft_ps;
}

void ual_analyzer_step(struct ual_analyzer *a, const uint8_t *rec, size_t len, uint64_t frame, uint64_t ts_ns,
                       struct ual_rec_result *out, struct ual_events *ev) {
  ual_decode_stateless(rec, len, frame, out);
  ual_analyzer_step_decoded(a, frame, ts_ns, out, ev);
}

static void step_decoded(struct ual_analyzer *a, uint64_t frame, uint64_t ts_ns, struct ual_rec_result *out,
                         struct ual_events *ev);

void ual_analyzer_step_decoded(struct ual_analyzer *a, uint64_t frame, uint64_t ts_ns, struct ual_rec_result *out,
                               struct ual_events *ev) {
  unsigned from = ev ? ev->n : 0;
  step_decoded(a, frame, ts_ns, out, ev);
  /* the events of a record are its link's */
  for (unsigned i = from; ev && i < ev->n; i++) ev->v[i].link = out->rec.h.link;
}

static void step_decoded(struct ual_analyzer *a, uint64_t frame, uint64_t ts_ns, struct ual_rec_result *out,
                         struct ual_events *ev) {
  a->records++;
  if (out->status != UAL_RS_OK && out->status != UAL_RS_RESERVED) return;
  const struct ual_rec_hdr *h = &out->rec.h;
  unsigned d = out->dir;
  struct ual_findings *f = &out->findings;

  if (ts_ns) {
    if (!a->t_first_ns) a->t_first_ns = ts_ns;
    if (ts_ns > a->t_last_ns) a->t_last_ns = ts_ns;
  }
  struct ual_fabric_step fs = { frame, ts_ns, ev };
  if (ual_fabric_an_step(&a->fab, out, &fs)) return;
  if (h->rate) ual_dlproto_rate(&a->dp, h->rate);
  if (h->role_a) a->dp.s[0].role_hdr = h->role_a;
  if (h->role_b) a->dp.s[1].role_hdr = h->role_b;
  /* records lost before this one, of either direction (a UDP receiver
   * cannot tell which a lost datagram held): both start over */
  if (h->flags & UAL_RF_LOST) { forget(a, 0); forget(a, 1); }
  struct ual_when w = { frame, ts_ns, flit_time(a, h->rate, h->width), -1, 1 };
  if (!w.ft_ps) w.ft_ps = flit_time(a, a->lt.p[d].rate, a->lt.p[d].width);
  /* A response is unsolicited only when its request could not have been
   * sent before the capture, nor in a flit of the requester whose DL
   * messages were not known: a response window (plus the flits a UART
   * transport may delay it) after either. */
  uint64_t window = UAL_RESPONSE_NS + ((uint64_t)w.ft_ps * (2 * UAL_SEGMENTS + UAL_UART_MAX_SEGS) / UAL_SEGMENTS + 999) / 1000;
  uint64_t all_flits = a->flits[0] + a->flits[1];
  if (!a->dp.history && ((ts_ns && w.ft_ps && ts_ns - a->t_first_ns > window) || all_flits >= UAL_HISTORY_FLITS))
    a->dp.history = 1;
  for (unsigned i = 0; i < 2; i++) {
    const struct ual_sync *s = &a->sync[i];
    a->dp.s[i].heard = !s->hidden || (ts_ns && w.ft_ps && s->hidden_ts && ts_ns - s->hidden_ts > window) ||
                       all_flits - s->hidden_flits >= UAL_HISTORY_FLITS;
    /* Decision Pending obliges a request within 10 ms: a switch's request
     * is judged once its last 10 ms (or everything since a link-up) are known */
    uint64_t dp_window = UAL_PENDING_NS + window;
    a->dp.s[i].heard_pending = (a->fresh[i] || (ts_ns && ts_ns - a->t_first_ns > dp_window)) &&
                               (!s->hidden || (ts_ns && s->hidden_ts && ts_ns - s->hidden_ts > dp_window));
  }

  ual_dlproto_tick(&a->dp, d, &w, ev, f);
  ual_uart_tick(&a->ua, &w, f);

  struct ual_ltssm_ctx c;
  struct ual_ltssm_out lo;
  ltssm_ctx(a, &c);
  ual_ltssm_step(&a->lt, d, out, &w, &c, &lo, ev, f);
  if (lo.dl_reset) dl_reset(a, d, f);
  if (lo.link_up && a->fresh[0] && a->fresh[1]) {
    int wc = ual_width_of_lanes(a->lt.trained_width);
    a->dp.max_width = (int8_t)wc;
    for (unsigned i = 0; i < 2; i++)
      if (a->dp.s[i].width == UAL_UNKNOWN) a->dp.s[i].width = (int8_t)wc;
    ual_replay_link_up(&a->rp);
  }
  if (lo.l1_exit) ual_dlproto_l1_exit(&a->dp);
  if (lo.lm_done) a->dp.width_ready = 0;

  switch (h->kind) {
  case UAL_REC_EVENT:
    if (out->ev.code == UAL_EV_DROPPED) { forget(a, 0); forget(a, 1); }
    break;
  case UAL_REC_FLIT:
    if (h->width) ual_dlproto_width(&a->dp, h->width);
    flit_step(a, out, &w, ev);
    break;
  }
}

void ual_analyzer_finish(struct ual_analyzer *a, struct ual_findings *f, struct ual_events *ev) {
  for (unsigned d = 0; d < 2; d++) {
    unsigned from = f ? f->n : 0;
    truncated(a, d, "capture ended", f);
    ual_findings_set_dir(f, from, d);
  }
  ual_dlproto_finish(&a->dp, a->t_last_ns, f);
  struct ual_fabric_step fs = { a->records, a->t_last_ns, ev };
  ual_fabric_an_finish(&a->fab, f, &fs);
}

/* ---- state ---- */

void ual_analyzer_summary(const struct ual_analyzer *a, struct ual_analysis_summary *s) {
  memset(s, 0, sizeof *s);
  for (unsigned d = 0; d < 2; d++) {
    const struct ual_dlproto_side *p = &a->dp.s[d];
    const struct ual_uart_stream *st = &a->ua.d[d].st;
    s->ltssm[d] = a->lt.p[d].state;
    s->rate[d] = a->lt.p[d].rate;
    s->width[d] = a->lt.p[d].width;
    s->role[d] = (uint8_t)ual_dlproto_role(&a->dp, d);
    s->ch0[d] = p->ch0;
    s->ch4[d] = p->ch4;
    s->neg_width[d] = p->width;
    s->neg_speed[d] = p->speed;
    s->neg_state[d] = p->lstate;
    s->tl_rate[d] = p->tl_rate_known ? p->tl_rate : UAL_UNKNOWN;
    s->unacked[d] = (int16_t)ual_replay_unacked(&a->rp, d);
    s->replay[d] = a->rp.d[d].st;
    memcpy(s->negs[d], p->negs, sizeof s->negs[d]);
    s->last_neg[d] = p->last;
    s->alt_protocol[d] = a->lt.p[d].mts_seen;
    s->uart_transports[d] = st->transports;
    s->uart_payload_dw[d] = st->payload_dw;
    s->uart_credits[d] = st->credits;
    s->uart_resets[d] = st->resets;
    s->vdps[d] = st->vdps;
    s->unsynced_flits[d] = a->unsynced_flits[d];
    s->sync_frame[d] = a->sync[d].reported ? a->sync[d].frame : 0;
  }
}

static const char *chan_text(int v) { return v == 1 ? "on" : v == 0 ? "off" : "?"; }

int ual_analyzer_state_text(const struct ual_analyzer *a, char *buf, size_t cap) {
  struct ual_analysis_summary s;
  ual_analyzer_summary(a, &s);
  int n = 0;
  for (unsigned d = 0; d < 2; d++) {
    char *at = buf && (size_t)n < cap ? buf + n : NULL;
    /* what is not known is "?", as in the timeline */
    char width[8] = "?";
    if (s.width[d]) snprintf(width, sizeof width, "%u", s.width[d]);
    int k = snprintf(at, at ? cap - (size_t)n : 0, "%s%c:%s x%s %s ch0=%s ch4=%s", d ? " | " : "", side_name(d),
                     s.ltssm[d] == UAL_LT_UNKNOWN ? "?" : ual_lt_state_name(s.ltssm[d]), width,
                     ual_rate_name(s.rate[d]) ? ual_rate_name(s.rate[d]) : "?", chan_text(s.ch0[d]),
                     chan_text(s.ch4[d]));
    if (k > 0) n += k;
  }
  return n;
}

/* ---- state hash ---- */

/* FNV-1a, 64 bits. */
static uint64_t hash_mem(uint64_t h, const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}
static uint64_t hash_u64(uint64_t h, uint64_t v) { return hash_mem(h, &v, sizeof v); }

/* The bytes [0, size) of a struct but the members in skip (sorted by offset). */
struct hash_skip { size_t off, len; };
#define SKIP(type, m) { offsetof(type, m), sizeof(((type *)0)->m) }
static uint64_t hash_except(uint64_t h, const void *base, size_t size, const struct hash_skip *sk, size_t n) {
  size_t at = 0;
  for (size_t i = 0; i < n; i++) {
    h = hash_mem(h, (const uint8_t *)base + at, sk[i].off - at);
    at = sk[i].off + sk[i].len;
  }
  return hash_mem(h, (const uint8_t *)base + at, size - at);
}

static uint64_t hash_unpack(uint64_t h, const struct ual_unpack *u) {
  static const struct hash_skip sk[] = { SKIP(struct ual_unpack, tl), SKIP(struct ual_unpack, uart) };
  h = hash_except(h, u, sizeof *u, sk, sizeof sk / sizeof sk[0]);
  h = hash_mem(h, u->tl, (size_t)(u->tl_have < UAL_TL_FLIT_BYTES / UAL_SECTOR_BYTES ? u->tl_have : 16) * UAL_SECTOR_BYTES);
  if (u->uart_need) {
    const struct ual_dl_item *it = &u->uart;
    h = hash_except(h, it, offsetof(struct ual_dl_item, payload), NULL, 0);
    h = hash_mem(h, it->payload, (it->n_payload < UAL_UART_MAX_PAYLOAD ? it->n_payload : UAL_UART_MAX_PAYLOAD) *
                                     sizeof it->payload[0]);
  }
  return h;
}

/* A later time minus an earlier one, saturated where every window the
 * analysis compares such a span with has passed: 10 ms plus a response
 * window, 85 us at the slowest flit time (8.2 us at 2.5 GT/s x1). */
static uint64_t span(uint64_t later, uint64_t earlier) {
  const uint64_t cap = UAL_PENDING_NS + 1000000u;
  return later < earlier ? 0 : later - earlier > cap ? cap : later - earlier;
}

uint64_t ual_analyzer_state_hash(const struct ual_analyzer *a) {
  uint64_t h = 0xcbf29ce484222325ull;
  uint64_t all_flits = a->flits[0] + a->flits[1];
  for (unsigned d = 0; d < 2; d++) {
    h = hash_unpack(h, &a->unpack[d]);
    h = hash_unpack(h, &a->unpack_kept[d]);
    /* once AN-SYNC is raised, where it was raised is no longer output */
    const struct ual_sync *s = &a->sync[d];
    static const struct hash_skip sk_sync[] = { SKIP(struct ual_sync, hidden_ts), SKIP(struct ual_sync, hidden_flits) };
    if (s->reported) h = hash_u64(h, 1);
    else h = hash_except(h, s, sizeof *s, sk_sync, 2);
    h = hash_u64(h, s->hidden);
    if (s->hidden) {
      h = hash_u64(h, s->hidden_ts ? 1 + span(a->t_last_ns, s->hidden_ts) : 0);
      h = hash_u64(h, all_flits - s->hidden_flits < UAL_HISTORY_FLITS ? all_flits - s->hidden_flits : UAL_HISTORY_FLITS);
    }
    h = hash_u64(h, a->fresh[d] | a->seen_payload[d] << 1);

    /* replay: not its counters nor the Ack latency probe (statistics);
     * where a provisional run began, a run seen and a replay was asked for
     * only while they are read */
    const struct ual_replay_dir *r = &a->rp.d[d];
    static const struct hash_skip sk_rp[] = {
      SKIP(struct ual_replay_dir, flits), SKIP(struct ual_replay_dir, timer_flit),
      SKIP(struct ual_replay_dir, rp_frame), SKIP(struct ual_replay_dir, exp_first),
      SKIP(struct ual_replay_dir, seen_lo), SKIP(struct ual_replay_dir, probe),
      SKIP(struct ual_replay_dir, probe_seq), SKIP(struct ual_replay_dir, probe_ts),
      SKIP(struct ual_replay_dir, probe_flit), SKIP(struct ual_replay_dir, st),
    };
    h = hash_except(h, r, offsetof(struct ual_replay_dir, hold), sk_rp, sizeof sk_rp / sizeof sk_rp[0]);
    h = hash_u64(h, r->rp_timer ? r->flits - r->timer_flit : 0);
    h = hash_u64(h, r->rp_expect ? r->rp_frame : 0);
    h = hash_u64(h, r->exp_known == 1 || r->exp_known == 3 ? r->exp_first : 0);
    h = hash_u64(h, r->seen_n ? r->seen_lo : 0);
    for (unsigned i = 0; i < UAL_REPLAY_HOLD; i++)
      if (r->hold[i].used) h = hash_u64(hash_except(h, &r->hold[i], sizeof r->hold[i], NULL, 0), i);

    /* DL message protocols: not the negotiation counters, nor the last
     * negotiation (the summary's) */
    static const struct hash_skip sk_dp[] = { SKIP(struct ual_dlproto_side, negs), SKIP(struct ual_dlproto_side, last) };
    h = hash_except(h, &a->dp.s[d], sizeof a->dp.s[d], sk_dp, 2);

    /* UART: not the counters; a Vendor Defined Packet's values received so far */
    const struct ual_uart_dir *u = &a->ua.d[d];
    static const struct hash_skip sk_ua[] = {
      SKIP(struct ual_uart_dir, st.vdp.value), SKIP(struct ual_uart_dir, st.transports),
      SKIP(struct ual_uart_dir, st.payload_dw), SKIP(struct ual_uart_dir, st.credits),
      SKIP(struct ual_uart_dir, st.resets), SKIP(struct ual_uart_dir, st.vdps),
    };
    h = hash_except(h, u, sizeof *u, sk_ua, sizeof sk_ua / sizeof sk_ua[0]);
    h = hash_mem(h, u->st.vdp.value, (u->st.vdp_have < 256 ? u->st.vdp_have : 256) * sizeof u->st.vdp.value[0]);
  }
  h = hash_except(h, &a->dp, sizeof a->dp, (const struct hash_skip[]){ SKIP(struct ual_dlproto, s) }, 1);
  h = hash_mem(h, &a->lt, sizeof a->lt);
  /* the flits and time seen matter only until the windows they open have passed */
  h = hash_u64(h, a->dp.history ? 0 : all_flits < UAL_HISTORY_FLITS ? all_flits : UAL_HISTORY_FLITS);
  h = hash_u64(h, a->t_first_ns ? 1 + span(a->t_last_ns, a->t_first_ns) : 0);
  h = hash_u64(h, a->t_last_ns);
  return h;
}
