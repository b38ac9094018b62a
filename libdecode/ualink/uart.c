/* UART streams over DL messages (digest §3.3): credits, stream reset with
 * its 40 No-Ops, consecutive transport DWords, and the Vendor Defined
 * Packets carried in the stream.
 *
 * Credits, per sender and stream, modulo 4096 DWords:
 *
 *   sender:   tx_cnt += payload DWords of each transport
 *   receiver: Credit Update DataFCSeq = its Rx counter  -> sender's limit
 *   a transport of n DWords needs n <= (limit - tx_cnt) mod 4096
 *
 * Both start at 0 when channel 4 goes online and after a stream reset;
 * before either is seen the counters are unknown and not judged.
 *
 * Stream (Figure 2-16):  [VDP TL DWord: Length, Type, Vendor ID][value 0]...
 * independent of transport boundaries. */
#include "ualink/ualink/uart.h"
#include "ualink/core/fields.h"
#include "layout.h"
#include "core/field_access.h"
#include "ualink/ualink/flit.h"

#include <string.h>

static char side_name(unsigned dir) { return dir ? 'B' : 'A'; }

static void stream_zero(struct ual_uart_stream *st) {
  st->known = 1;
  st->tx_cnt = st->limit = 0;
  st->vdp_sync = 1;
  st->vdp_need = st->vdp_have = 0;
}

void ual_uart_init(struct ual_uart *u) { memset(u, 0, sizeof *u); }

void ual_uart_reset(struct ual_uart *u, unsigned dir) {
  struct ual_uart_dir *d = &u->d[dir & 1];
  stream_zero(&d->st);
  d->st.resetting = d->st.reset_pending = 0;
  d->noop_run = 0;
  d->noop_known = 1;
  d->gap_flagged = 0;
}

void ual_uart_channel(struct ual_uart *u, unsigned dir, int online) {
  struct ual_uart_stream *st = &u->d[dir & 1].st;
  if (online) {
    stream_zero(st);
    st->resetting = st->reset_pending = 0;
  }
}

void ual_uart_forget(struct ual_uart *u, unsigned dir) {
  struct ual_uart_dir *d = &u->d[dir & 1];
  d->noop_run = 0;
  d->noop_known = 0;
  d->st.known = 0;                    /* its transports were lost */
  d->st.vdp_sync = 0;
  d->st.reset_pending = 0;
  u->d[(dir & 1) ^ 1].st.known = 0;   /* its credit updates were lost */
}

static void vdp_feed(struct ual_uart_stream *st, unsigned dir, uint32_t dw, const struct ual_when *w,
                     struct ual_events *ev) {
  if (st->vdp_need == 0) {            /* a TL DWord starts the next packet */
    struct ual_vdp_hdr h;
    ual_vdp_decode(dw, &h);
    st->vdp.type = h.type;
    st->vdp.vendor_id = h.vendor_id;
    st->vdp.n_payload = h.n_payload;
    st->vdp_need = h.n_payload;
    st->vdp_have = 0;
    return;
  }
  st->vdp.value[st->vdp_have++] = dw;
  if (--st->vdp_need) return;
  st->vdps++;
  st->vdp.frame = w->frame;
  st->vdp.dir = (uint8_t)dir;
  st->vdp.stream = 0;
  if (ev && ev->vdp) ev->vdp(ev->ctx, &st->vdp);
}

static void transport(struct ual_uart_stream *st, unsigned dir, const struct ual_dl_item *it, const struct ual_when *w,
                      struct ual_events *ev, struct ual_findings *f) {
  unsigned n = it->n_payload;
  st->transports++;
  st->payload_dw += n;
  if (st->known && !st->resetting) {
    unsigned avail = (unsigned)(st->limit - st->tx_cnt) & 0xFFFu;
    if (n > avail)
      ual_findings_add(f, UAL_R_DM_UART_CREDIT, w->segment,
                       "%c UART transport of %u DWords, credit allows %u (DataFCSeq %u, sent %u)", side_name(dir), n,
                       avail, st->limit, st->tx_cnt);
    st->tx_cnt = (uint16_t)((st->tx_cnt + n) & 0xFFFu);
  }
  if (!st->vdp_sync || st->resetting) return;
  for (unsigned i = 0; i < n; i++) vdp_feed(st, dir, it->payload[i], w, ev);
}

void ual_uart_step(struct ual_uart *u, unsigned dir, const struct ual_dl_item *it, int ch4, int after_l1,
                   const struct ual_when *w, struct ual_events *ev, struct ual_findings *f) {
  struct ual_uart_dir *me = &u->d[dir & 1], *peer = &u->d[(dir & 1) ^ 1];
  const struct ual_dlmsg *m = &it->msg;
  dir &= 1;
  if (m->type == UAL_MT_NOOP) {
    if (me->noop_run == 0) me->noop_frame = w->frame;
    if (me->noop_run < UINT16_MAX) me->noop_run++;
    return;
  }
  unsigned run = me->noop_run;
  bool run_known = me->noop_known;
  me->noop_run = 0;
  me->noop_known = 1;
  if (run && run_known && m->type != UAL_MT_UART_RESET_REQ)
    ual_findings_add(f, UAL_R_DM_NOOP_CONTEXT, w->segment,
                     "%u No-Op message(s) from frame %llu not followed by a UART Stream Reset Request", run,
                     (unsigned long long)me->noop_frame);
  if (m->mclass != UAL_MCLASS_UART || m->type == UAL_MT_RESERVED || m->compressed) return;
  if (ch4 == 0 && w->is_new && !after_l1)
    ual_findings_add(f, UAL_R_DM_UART_CH4_OFFLINE, w->segment, "%c %s while its channel 4 is offline", side_name(dir),
                     ual_msg_types[m->type].display);
  if (m->stream != 0) return;         /* reserved stream: DM-FIELD */

  struct ual_uart_stream *st = &me->st, *pst = &peer->st;
  switch (m->type) {
  case UAL_MT_UART_RESET_REQ:
    if (run_known && run < UAL_UART_RESET_NOOPS)
      ual_findings_add(f, UAL_R_DM_UART_RESET_NOOPS, w->segment,
                       "%c UART Stream Reset Request after %u No-Op message(s), not %u", side_name(dir), run,
                       UAL_UART_RESET_NOOPS);
    stream_zero(st);
    stream_zero(pst);
    st->resetting = pst->resetting = 1;
    st->reset_pending = 1;
    st->reset_flagged = 0;
    st->reset_frame = w->frame;
    st->reset_ts_ns = w->ts_ns;
    st->resets++;
    ual_events_add(ev, w, UAL_TEV_UART_RESET, dir, 1, 0, "%c requests a UART stream reset", side_name(dir));
    return;
  case UAL_MT_UART_RESET_RSP:          /* answers the partner's request */
    if (!pst->reset_pending) {
      if (pst->known)
        ual_findings_add(f, UAL_R_DM_UNSOLICITED, w->segment, "%c UART Stream Reset Response with no request",
                         side_name(dir));
      return;
    }
    if (m->status != 0) return;        /* the requester tries again */
    pst->reset_pending = 0;
    stream_zero(st);
    stream_zero(pst);
    st->resetting = pst->resetting = 0;
    ual_events_add(ev, w, UAL_TEV_UART_RESET, dir ^ 1, 0, 1, "UART stream reset of %c complete", side_name(dir ^ 1));
    return;
  case UAL_MT_UART_CREDIT:             /* credit for the partner's transmitter */
    st->credits++;
    if (!pst->resetting) pst->limit = m->data_fc_seq;
    return;
  case UAL_MT_UART_TRANSPORT:
    transport(st, dir, it, w, ev, f);
    return;
  default:
    return;
  }
}

void ual_uart_flit(struct ual_uart *u, unsigned dir, const struct ual_flit_view *v, unsigned need_before,
                   const struct ual_unpack_out *uo, struct ual_findings *f) {
  struct ual_uart_dir *me = &u->d[dir & 1];
  unsigned need = need_before;
  for (int k = 0; k < UAL_SEGMENTS; k++) {
    switch (uo->alt_role[k]) {
    case UAL_ALT_UART_PAYLOAD:
      if (need) need--;
      break;
    case UAL_ALT_MESSAGE: {
      uint8_t dw[4];
      ual_put_le32(dw, v->first_dw[k]);
      if (ual_msg_classify((unsigned)ual_field_get(UAL_F_MSG_MCLASS, dw), (unsigned)ual_field_get(UAL_F_MSG_MTYPE, dw)) ==
          UAL_MT_UART_TRANSPORT) {
        need = (unsigned)ual_field_get(UAL_F_UTX_LENGTH, dw) + 1u;
        me->gap_flagged = 0;
      }
      break;
    }
    default:
      if (need && !me->gap_flagged) {
        me->gap_flagged = 1;
        ual_findings_add(f, UAL_R_DM_UART_INTERLEAVE, k,
                         "SH%d has no alternate sector while a UART Stream Transport still owes %u DWord(s)", k, need);
      }
      break;
    }
  }
}

void ual_uart_tick(struct ual_uart *u, const struct ual_when *w, struct ual_findings *f) {
  if (!w->ts_ns) return;
  for (unsigned d = 0; d < 2; d++) {
    struct ual_uart_stream *st = &u->d[d].st;
    if (!st->reset_pending || st->reset_flagged || !st->reset_ts_ns || w->ts_ns <= st->reset_ts_ns + UAL_UART_RESET_NS)
      continue;
    st->reset_flagged = 1;
    ual_findings_add(f, UAL_R_DM_UART_RESET_TIMEOUT, -1,
                     "no successful UART Stream Reset Response within 10 ms of %c's request at frame %llu",
                     side_name(d), (unsigned long long)st->reset_frame);
  }
}
