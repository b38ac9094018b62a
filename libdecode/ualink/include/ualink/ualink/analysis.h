/* Stateful analysis: replay/Ack-Nak, LTSSM and power, DL message protocols
 * and UART streams, tied together by struct ual_analyzer.
 *
 * Every tracker is a plain struct (no pointers, no heap): copy it to take a
 * snapshot, keep stepping the copy and the original independently.
 *
 *   record bytes --> ual_analyzer_step --------------------------------+
 *                      | parse + stateless decode (like ual_decode_record)
 *                      | LTSSM <- ordered sets, link events, IDLE/NOP flits, DLLPs
 *                      | replay: which payload flits are delivered
 *                      |   (valid, in order, once) --> unpacker per direction
 *                      |        --> DL message protocols, UART streams
 *                      +--> out->findings (rules.md IDs), ev (timeline)
 *
 * Typical use (CLI):
 *
 *   static struct ual_analyzer a;          // large: keep it off the stack
 *   struct ual_rec_result r;
 *   struct ual_events ev;
 *   ual_analyzer_init(&a);
 *   ual_events_init(&ev);                  // optional callbacks: ev.delivered, ev.vdp
 *   for each record:
 *     ual_events_clear(&ev);
 *     ual_analyzer_step(&a, rec, len, frame, ts_ns, &r, &ev);
 *     print r (as from ual_decode_record; r.unp holds this flit's delivered
 *     TL flits and DL messages), r.findings, and ev.v[0..ev.n) for --timeline
 *   ual_analyzer_finish(&a, &end_findings, &ev);   // end-of-capture checks
 *   ual_analyzer_summary(&a, &sum);                // state and --stats totals
 *
 * Wireshark: run the analyzer over the capture once in order and keep per
 * frame what it produced (findings, events) plus a struct
 * ual_analysis_summary (small) for "state after this frame". The analyzer
 * itself is about 270 KB (mostly the selective-replay hold buffers, see
 * UAL_REPLAY_HOLD): copies suit sparse checkpoints (TUI seek), not one per
 * frame.
 *
 * Flits held for a selective replay are unpacked when the replay releases
 * them: their TL flits and messages reach ev->delivered and the trackers
 * then, and their findings land on the releasing record.
 *
 * Digest §7: state the capture has not shown is unknown and rules that
 * depend on it are not raised. Sequence numbers and Ack state are learned
 * from the first flits; TL flit boundaries from the first flit whose SH0
 * starts no TL flit (DL messages are decoded before that); channel state
 * from negotiations, or from TL/UART traffic (which shows a channel online);
 * UART credits and VDP boundaries from channel 4 going online or a stream
 * reset. A link-up seen in the capture (training) sets everything to its
 * reset value: channels offline, 2.5 GT/s, the trained width, L0.
 *
 * Records of a kind another fabric owns go to that fabric's analysis
 * (core/analysis.h, a.fab) and nowhere else; link events go to UALink's
 * trackers and to every fabric's analysis.
 */
#ifndef UALINK_UALINK_ANALYSIS_H
#define UALINK_UALINK_ANALYSIS_H

#include <stdint.h>
#include <stdbool.h>
#include "ualink/core/decode.h"
#include "ualink/core/analysis.h"
#include "ualink/ualink/timeline.h"
#include "ualink/ualink/replay.h"
#include "ualink/ualink/ltssm.h"
#include "ualink/ualink/dlproto.h"
#include "ualink/ualink/uart.h"

/* The trackers' state lives in their own headers (replay.h, ltssm.h,
 * dlproto.h, uart.h), each included by its tracker alone; it is complete
 * here only so an analyzer can be held and copied by value. Front-ends
 * read the state through ual_analyzer_summary. */
/* Where a direction's delivered stream became known (AN-SYNC). */
struct ual_sync {
  uint8_t reported;              /* AN-SYNC raised: TL flit and DL message boundaries known */
  uint64_t flits;                /* delivered until then */
  uint64_t first_frame, tl_frame, msg_frame, frame;   /* 0 = known from the stream's start */
  uint32_t partial;              /* TL sectors skipped (DL-PARTIAL-TL) */
  uint8_t hidden;                /* a flit delivered while DL message boundaries were unknown, */
  uint64_t hidden_ts, hidden_flits;   /* the last one: its time and the flits counted then */
  uint64_t partial_frame;
};

struct ual_analyzer {
  struct ual_unpack unpack[2];   /* the delivered stream of each direction */
  struct ual_unpack unpack_kept[2]; /* the stream before a replay from before the flits delivered (replay.h save) */
  struct ual_sync sync[2];
  uint8_t fresh[2];              /* the direction's DL state is known from a reset */
  uint8_t seen_payload[2];       /* payload flits since that reset */
  uint64_t records, flits[2];
  uint64_t t_first_ns, t_last_ns;
  uint64_t unsynced_flits[2];    /* delivered before TL flit boundaries were known: messages only */
  uint64_t truncated;
  uint8_t ft_rate, ft_width;     /* flit time cache */
  uint32_t ft_ps;
  struct ual_replay rp;
  struct ual_ltssm lt;
  struct ual_dlproto dp;
  struct ual_uart ua;
  struct ual_fabric_an fab;      /* the other fabrics' analyses (core/analysis.h) */
  /* Set after init by a front-end that never reads r->unp.tl[i].data (nor
   * ev->delivered's): the unpackers then copy no TL flit bytes
   * (ual_unpack_flit_nobytes), a fifth of the analysis of a busy link. */
  bool no_tl_bytes;
  /* Set after init by a front-end whose results may lack a FEC-clean UALink
   * flit's bytes (ual_flit_info.bytes left as they were: ualink-decode -j
   * hands its workers' results over without them): those are read from the
   * record (ual_rec_result.rec.body), which must be alive during the step.
   * The analysis reads a flit's view (ual_flit_info.view) and, with
   * no_tl_bytes, its bytes only before its stream is synchronized, for a
   * zero-fill finding's text and to hold it for a selective replay. */
  bool bytes_in_record;
};

void ual_analyzer_init(struct ual_analyzer *a);
/* Decodes one record exactly as ual_decode_record does (r->unp = what this
 * flit delivered, r->unpacked when it reached the unpacker), then runs the
 * trackers; stateful findings are added to r->findings. ev may be NULL. */
void ual_analyzer_step(struct ual_analyzer *a, const uint8_t *rec, size_t len, uint64_t frame,
                       uint64_t ts_ns, struct ual_rec_result *out, struct ual_events *ev);
/* The trackers' half of ual_analyzer_step, for a record whose
 * ual_decode_stateless result is already in *out (computed elsewhere, e.g.
 * on another thread): the two calls give exactly ual_analyzer_step. */
void ual_analyzer_step_decoded(struct ual_analyzer *a, uint64_t frame, uint64_t ts_ns, struct ual_rec_result *out,
                               struct ual_events *ev);
/* End of capture: DL-TRUNCATED-TL, unconfirmed negotiations, timeouts, and
 * the fabric analyses' end findings. */
void ual_analyzer_finish(struct ual_analyzer *a, struct ual_findings *f, struct ual_events *ev);

/* State after the last step, small enough to keep per frame. */
struct ual_analysis_summary {
  uint8_t ltssm[2];              /* enum ual_lt_state per port */
  uint8_t rate[2], width[2];     /* record rate code / lanes per direction, 0 unknown */
  uint8_t role[2];               /* enum ual_role */
  int8_t ch0[2], ch4[2];         /* per partner: 1 online, 0 offline, UAL_UNKNOWN */
  int8_t neg_width[2], neg_speed[2], neg_state[2];   /* codes, UAL_UNKNOWN */
  int32_t tl_rate[2];            /* 50 kHz units, UAL_UNKNOWN */
  int16_t unacked[2];            /* UAL_UNKNOWN */
  struct ual_replay_stats replay[2];
  uint64_t negs[2][UAL_NEG_COUNT];
  struct ual_neg_last last_neg[2];   /* what each partner did last in a negotiation */
  uint8_t alt_protocol[2];           /* port sent Modified TS with vendor 20AEh in its last training */
  uint64_t uart_transports[2], uart_payload_dw[2], uart_credits[2], uart_resets[2], vdps[2];
  uint64_t unsynced_flits[2];
  uint64_t sync_frame[2];            /* frame of AN-SYNC; 0 = not yet, or known from a link-up */
};
void ual_analyzer_summary(const struct ual_analyzer *a, struct ual_analysis_summary *s);
/* One line: "A:L0 x8 128 ch0=on ch4=on | B:L0 ..."; returns the length needed. */
int ual_analyzer_state_text(const struct ual_analyzer *a, char *buf, size_t cap);
/* A hash of everything in the UALink trackers that decides their output
 * from the next record on: two analyzers with the same hash (one that
 * decoded the whole capture, one that began later) give the same findings,
 * events and delivered flits from here. Statistics counters are not in it;
 * spans of time and flits are, until the windows they open have passed.
 * Other fabrics' analyses (a->fab) are not in it. */
uint64_t ual_analyzer_state_hash(const struct ual_analyzer *a);

/* What the presentation model reads (core/views.h): the analyzer's state
 * (a may be NULL: stateless) and a front-end's tally. */
struct ual_view_tally;
struct ual_view_src;
void ual_analyzer_view_src(const struct ual_analyzer *a, const struct ual_view_tally *t, struct ual_view_src *out);

#endif
