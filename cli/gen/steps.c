/* Building step lists (the sequencer runs them). */
#include "steps.h"

#include <string.h>

struct op *step_add(struct gen *g, unsigned code) {
  struct steps *q = g->sq;
  if (q->n >= OPS_MAX) { gen_fail(g, "scenario too long"); return &q->ops[OPS_MAX - 1]; }
  struct op *o = &q->ops[q->n++];
  memset(o, 0, sizeof *o);
  o->code = (uint8_t)code;
  o->keep = q->keep_new;
  return o;
}

void step_keep(struct gen *g, bool on) { g->sq->keep_new = on; }

void step_run(struct gen *g, unsigned flits) { step_add(g, OP_RUN)->n = flits; }

struct op *step_nego(struct gen *g, unsigned side, unsigned mt, unsigned target, unsigned prio) {
  struct op *o = step_add(g, OP_NEGOTIATE);
  o->side = (uint8_t)side;
  o->a = (uint8_t)mt;
  o->b = (uint8_t)target;
  o->c = (uint8_t)prio;
  return o;
}

void step_set(struct gen *g, unsigned what, unsigned side, double x) {
  struct op *o = step_add(g, OP_SET);
  o->a = (uint8_t)what;
  o->side = (uint8_t)side;
  o->x = x;
}

void step_speed(struct gen *g, unsigned rate, bool eq) {
  struct op *o = step_add(g, OP_SPEED);
  o->a = (uint8_t)rate;
  o->b = eq;
}

void step_l0p(struct gen *g, unsigned side, unsigned width) {
  struct op *o = step_add(g, OP_L0P);
  o->side = (uint8_t)side;
  o->a = (uint8_t)width;
}

void step_basic(struct gen *g, unsigned side, unsigned mt) {
  struct op *o = step_add(g, OP_BASIC);
  o->side = (uint8_t)side;
  o->a = (uint8_t)mt;
}

void step_rate(struct gen *g, unsigned target) { step_add(g, OP_RATE)->n = target; }

void step_tl(struct gen *g, bool on) {
  struct op *o = step_add(g, OP_TL);
  o->side = 2;
  o->a = on;
}

void step_conflict(struct gen *g, unsigned mt, unsigned target_a, unsigned target_b, unsigned flags) {
  struct op *o = step_add(g, OP_CONFLICT);
  o->a = (uint8_t)mt;
  o->b = (uint8_t)target_a;
  o->c = (uint8_t)target_b;
  o->n = flags;
}

void step_l1(struct gen *g, uint32_t residency_ns, const struct l1_twists *tw) {
  step_tl(g, false);                     /* TL-TL link disconnect: the TLs stop first */
  step_add(g, OP_UART_STOP);
  if (!tw->order) {
    step_nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_TL, 0);
    if (tw->ch0_offline) {
      step_set(g, SET_TL_INJECT, 0, UAL_R_DL_CH0_OFFLINE);
      step_run(g, 8);
    }
    step_nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_UART, 0);
  }
  step_add(g, OP_L1_ENTER)->n = tw->order;
  step_add(g, OP_L1_EXIT)->n = residency_ns;
  step_run(g, 16);                       /* payload flits without TL flits or UART sectors */
  if (tw->exit_content) {
    step_set(g, SET_TL_INJECT, 0, UAL_R_LT_EXIT_L1_CONTENT);
    step_run(g, 8);
  }
  /* with LT-L1-ORDER the channels never went offline: asking for online again
   * is a request for the state the analyzer last saw */
  if (tw->order) step_set(g, SET_CTRL_CONSEQ, 0, UAL_R_DM_CTRL_SAME_STATE);
  step_nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_TL, 0);
  if (tw->order) step_set(g, SET_CTRL_CONSEQ, 0, UAL_R_DM_CTRL_SAME_STATE);
  step_nego(g, 0, UAL_MT_CHANNEL, UAL_CHAN_ONLINE | UAL_CHAN_UART, 0);
  step_tl(g, true);
  step_add(g, OP_UART_ONLINE_WAIT);
}

unsigned step_find(const struct gen *g, unsigned from, unsigned code) {
  for (unsigned i = from; i < g->sq->n; i++)
    if (g->sq->ops[i].code == code) return i;
  return g->sq->n;
}
