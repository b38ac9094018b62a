/* The link model's own functions: record output with its cached headers,
 * ground truth and deadline labels, errors, and a side's rate and width
 * (which set its flit time). */
#include "model.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define PROGRESS_EVERY    65536

static const struct { const char *name, *what; } scenarios[GEN_SC_ALL_COUNT] = {
#define GEN_X_(e, n, w) { n, w },
  GEN_SCENARIOS(GEN_X_)
  GEN_FABRIC_SCENARIOS(GEN_X_)
#undef GEN_X_
};

const char *gen_scenario_name(int sc) { return sc >= 0 && sc < GEN_SC_ALL_COUNT ? scenarios[sc].name : "?"; }
const char *gen_scenario_what(int sc) { return sc >= 0 && sc < GEN_SC_ALL_COUNT ? scenarios[sc].what : "?"; }

int gen_scenario_lookup(const char *name) {
  for (int i = 0; i < GEN_SC_ALL_COUNT; i++)
    if (strcmp(scenarios[i].name, name) == 0) return i;
  return -1;
}

void gen_fail(struct gen *g, const char *fmt, ...) {
  if (g->stop_error) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g->err, sizeof g->err, fmt, ap);
  va_end(ap);
  g->stop_error = true;
}

void gen_label_at(struct gen *g, uint64_t t_ps, unsigned dir, int rule, bool dir_only) {
  for (unsigned i = 0; i < TIME_LABELS; i++)
    if (!g->tlabel[i].on) {
      g->tlabel[i] = (struct time_label){ t_ps, (int16_t)rule, (uint8_t)dir, 1, dir_only };
      return;
    }
}

static void time_labels(struct gen *g, unsigned dir, uint64_t t_ps) {
  for (unsigned i = 0; i < TIME_LABELS; i++)
    if (g->tlabel[i].on && t_ps > g->tlabel[i].t_ps && (!g->tlabel[i].dir_only || g->tlabel[i].dir == dir)) {
      g->tlabel[i].on = 0;
      gen_truth(g, g->frame + 1, g->tlabel[i].dir, g->tlabel[i].rule, TRUTH_SRC_INJECT, "deadline passed");
    }
}

void gen_label_flush(struct gen *g) {
  for (unsigned i = 0; i < TIME_LABELS; i++) g->tlabel[i].on = 0;
}

void gen_emit(struct gen *g, struct side *s, unsigned kind, const uint8_t *body, size_t len,
              uint64_t t_ps) {
  if (g->stop_error) return;
  time_labels(g, s->id, t_ps);
  /* the header only changes with rate and width: built once per change */
  struct hdr_cache *hc = &s->hdr[kind & 3];
  uint32_t key = (uint32_t)s->rate << 8 | s->width | 1u << 16;
  if (hc->key != key) {
    struct ual_rec_hdr h;
    ual_rec_hdr_init(&h, kind, s->id);
    h.link = 0;
    h.rate = s->rate;
    h.width = s->width;
    h.role_a = g->s[0].role;
    h.role_b = g->s[1].role;
    ual_record_build(&h, NULL, 0, hc->b, sizeof hc->b);
    hc->key = key;
  }
  if (len > sizeof g->rec - UAL_REC_HDR_BYTES) { gen_fail(g, "record too long"); return; }
  memcpy(g->rec, hc->b, UAL_REC_HDR_BYTES);
  memcpy(g->rec + UAL_REC_HDR_BYTES, body, len);
  size_t n = UAL_REC_HDR_BYTES + len;
  g->frame++;
  g->st.records++;
  if (t_ps > g->st.end_ps) g->st.end_ps = t_ps;
  /* the model counts ps from the first record; records carry ns since the epoch */
  uint64_t ts_ns = g->o.start_ns + t_ps / PS_PER_NS;
  if (g->out.record(g->out.ctx, ts_ns, g->rec, n) != 0) gen_fail(g, "output failed");
  if (g->out.progress && g->frame % PROGRESS_EVERY == 0) g->out.progress(g->out.ctx, g->frame, ts_ns);
}

void gen_truth(struct gen *g, uint64_t frame, unsigned dir, int rule, int src, const char *note) {
  static const char *const srcs[] = { "inject", "consequence", "channel" };
  if (src == TRUTH_SRC_INJECT && g->hooks.labelled) g->hooks.labelled(g, rule);
  if (g->out.truth) g->out.truth(g->out.ctx, frame, dir, rule, srcs[src], note);
}

unsigned side_width_code(unsigned w) { return w >= 8 ? 3 : w >= 4 ? 2 : w >= 2 ? 1 : 0; }
unsigned side_speed_code(unsigned r) { return r <= 1 ? 0 : r == 2 ? 1 : r == 3 ? 2 : 3; }

void side_speed_changed(struct side *s) { s->ft_ps = ual_flit_time_ps(s->rate, s->width); }

void side_set_rate(struct side *s, unsigned rate) {
  s->rate = (uint8_t)rate;
  side_speed_changed(s);
}

void side_set_width(struct gen *g, struct side *s, unsigned width) {
  s->width = (uint8_t)width;
  side_speed_changed(s);
  struct ual_event ev = { UAL_EV_WIDTH, 0, width };
  uint8_t body[UAL_REC_EVENT_BYTES];
  ual_event_build(&ev, body);
  gen_emit(g, s, UAL_REC_EVENT, body, sizeof body, s->t_next);
}
