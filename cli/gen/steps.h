/* Scenario steps of ualink-gen: the list a scenario (and the injections
 * that need steps of their own) builds, which the sequencer runs. Each step
 * starts something on the link model and waits until the model says it is
 * over. Uses the link model only. */
#ifndef UALGEN_STEPS_H
#define UALGEN_STEPS_H

#include "model.h"

enum op_code {
  OP_EVENT, OP_TRAIN, OP_RUN, OP_BASIC, OP_NEGOTIATE, OP_CONFLICT, OP_SPEED, OP_L0P,
  OP_TL, OP_UART_ONLINE_WAIT, OP_UART_STOP, OP_UART_RESET, OP_RATE, OP_L1_ENTER, OP_L1_EXIT,
  OP_ERRBURST, OP_SET, OP_DRAIN, OP_RUN_LIMIT, OP_INJECT_POINT, OP_END
};
enum set_what {
  SET_LOAD, SET_BER, SET_UART_LOAD, SET_FORCE, SET_NAK, SET_LOCKOUT, SET_TL_INJECT, SET_CTRL_LABEL,
  SET_NOOPS, SET_ECHO, SET_FORCE_LABEL, SET_SKIP_CONFIRM, SET_SEND_CREDIT, SET_CTRL_CONSEQ,
  SET_CONFLICT_WRONG, SET_CONFLICT_PENDING
};
struct op {
  uint8_t code;
  uint8_t side;                  /* requester, or 2 = both */
  uint8_t a, b, c;               /* op specific */
  uint8_t keep;                  /* runs to its end even when the record limit is reached */
  uint32_t n;
  double x;
};
#define OPS_MAX 160
#define CONFLICT_B_SECOND 4   /* OP_CONFLICT n: bits 0/1 Priority of A/B, bit 2 B requests one flit later */
/* OP_NEGOTIATE n: no confirming Ack; a duplicate request; answered by Decision
 * Pending whose owed request never comes (the requester stops waiting) */
enum neg_flags { NF_NO_CONFIRM = 1, NF_DUPLICATE = 2, NF_PENDING_LAPSE = 4 };
/* OP_UART_RESET a = 1: the partner leaves the request unanswered (the step ends once it is out) */

struct steps {
  struct op ops[OPS_MAX];
  unsigned n, pc;                /* steps, the one running */
  bool keep_new;                 /* steps added now get keep */
  bool started;                  /* ops[pc] has started */
  uint64_t wake, frame;          /* wake-up time of the running step; frame it started at */
  uint32_t state;                /* progress of a multi-phase step */
};

/* a new step, zeroed but for code (and keep); a full list fails the run */
struct op *step_add(struct gen *g, unsigned code);
/* from now on (until false) the steps added run to their end whatever the record limit */
void step_keep(struct gen *g, bool on);
void step_run(struct gen *g, unsigned flits);   /* plain traffic, scaled by --run-scale */
struct op *step_nego(struct gen *g, unsigned side, unsigned mt, unsigned target, unsigned prio);
void step_set(struct gen *g, unsigned what, unsigned side, double x);
void step_speed(struct gen *g, unsigned rate, bool eq);
void step_l0p(struct gen *g, unsigned side, unsigned width);
void step_basic(struct gen *g, unsigned side, unsigned mt);   /* side 2: both */
void step_rate(struct gen *g, unsigned target);
void step_tl(struct gen *g, bool on);                          /* both sides' TL */
/* A requests target_a, B target_b of mt at once; flags: Priority bits and CONFLICT_B_SECOND */
void step_conflict(struct gen *g, unsigned mt, unsigned target_a, unsigned target_b, unsigned flags);
/* L1 entry (TL and UART stopped, channels 0 and 4 offline), residency_ns
 * in L1, exit and channels online again. The twists of injections: order,
 * L1 requested with the channels online; ch0_offline, a TL flit while
 * channel 0 goes offline; exit_content, a TL flit right after L1 exit. */
struct l1_twists { bool order, ch0_offline, exit_content; };
void step_l1(struct gen *g, uint32_t residency_ns, const struct l1_twists *tw);
/* the first step of code at or after from (n when none) */
unsigned step_find(const struct gen *g, unsigned from, unsigned code);

#endif
