/* The TL traffic of a link partner: TL flits with a recognisable number
 * and side in their first bytes, in bursts at the mean rate the TL Rate
 * Notifications and the link's rate and width allow. */
#include "tl.h"

#include <string.h>

#define TL_TOKENS_MAX    8.0
#define TL_BURST_MAX     6
#define TL_PER_FLIT_MAX  (59.0 / 16.0)

double tl_pace(const struct side *s) {
  unsigned pace = s->own_rate < s->peer_rate ? s->own_rate : s->peer_rate;
  /* the Rate field is normalised to a 512-bit datapath on x8 (one TL flit
   * per clock), 256-bit on x4, 128-bit on x2 */
  double dp = (s->width >= 2 ? s->width : 1) / 8.0;
  double per_flit = pace * 50e3 * dp * (double)side_flit_ps(s) * 1e-12;
  return per_flit < TL_PER_FLIT_MAX ? per_flit : TL_PER_FLIT_MAX;
}

void tl_make(struct gen *g, struct side *s) {
  uint8_t *d = ual_pack_tl_slot(&s->pack);   /* built in place in the packer's queue */
  if (!d) return;
  uint32_t n = s->tl_sent++;
  /* one draw per TL flit, spread over its 64 bytes by an odd-multiplier mix:
   * word i is (r + 8i K) M, a running sum of 8 K M (mod 2^64) from r M.
   * Bytes 0-3 are the TL flit's number and byte 4 its side, set in the first
   * word (little-endian, as the words are stored). */
  const uint64_t k = 0x9E3779B97F4A7C15ull, mul = 0xBF58476D1CE4E5B9ull;
  uint64_t w = gen_rng_next(&s->rng) * mul;
  for (unsigned i = 0; i < UAL_TL_FLIT_BYTES; i += 8, w += 8 * k * mul) {
    uint64_t x = w ^ w >> 31;
    if (i == 0) x = (x & ~0xFFFFFFFFFFull) | n | (uint64_t)('A' + s->id) << 32;
    memcpy(d + i, &x, 8);
  }
  unsigned m = gen_rng_below(&s->rng, 4);
  ual_pack_push_tl_slot(&s->pack, m & 1, m >> 1);
  if (g->out.tl_packed) g->out.tl_packed(g->out.ctx, s->id, d, m & 1, m >> 1);
  g->st.tl[s->id]++;
}

void tl_feed(struct gen *g, struct side *s) {
  if (s->tl_inject_offline && ual_pack_tl_queued(&s->pack) == 0) {
    s->tl_inject_offline--;
    tl_make(g, s);
    if (s->tl_inject_label >= 0)
      gen_truth(g, g->frame + 1, s->id, s->tl_inject_label, TRUTH_SRC_INJECT, "TL flit while channel 0 is offline");
    s->tl_inject_label = -1;
    return;
  }
  bool draining = g->draining && !s->tl_past_drain;
  if (s->quiet || s->wind_down || draining || !s->tl_enable || !s->ch_online[UAL_CHAN_TL] || s->link_state != 0)
    return;
  /* TL flits come in bursts of 1..6 at the mean rate, so they queue up and
   * carry over segment and flit boundaries as on a real link */
  double pace = tl_pace(s);
  /* at full load on a link slower than the TL (the pace is capped by the
   * flit) the TL always has a flit waiting: every segment with room starts
   * one, as on a saturated link */
  if (g->load >= 1.0 && pace >= TL_PER_FLIT_MAX) {
    while (ual_pack_tl_queued(&s->pack) < UAL_PACK_TL_QUEUE) tl_make(g, s);
    return;
  }
  s->tl_tokens += (s->tl_boost ? 1.0 : g->load) * pace;
  if (s->tl_tokens > TL_TOKENS_MAX) s->tl_tokens = TL_TOKENS_MAX;
  if (!s->tl_burst) s->tl_burst = 1 + gen_rng_below(&s->rng, TL_BURST_MAX);
  if (s->tl_tokens < s->tl_burst) return;
  unsigned made = 0;
  for (; made < s->tl_burst && ual_pack_tl_queued(&s->pack) < UAL_PACK_TL_QUEUE; made++) tl_make(g, s);
  s->tl_tokens -= made;              /* exact, as one at a time: whole numbers off a value below 9 */
  s->tl_burst = 0;
}
