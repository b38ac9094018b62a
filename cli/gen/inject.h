/* Violation injection of ualink-gen: the catalog of rules a transmitter can
 * break, and how. The layer wraps the producers below it through the hooks
 * of struct gen_hooks (which inj_init fills) and the knobs of struct side,
 * and adds the steps some injections need to the scenario. Uses the link
 * model, the DL messages, DL replay and the step lists. */
#ifndef UALGEN_INJECT_H
#define UALGEN_INJECT_H

#include "model.h"

enum inj_state { INJ_PENDING, INJ_ARMED, INJ_DONE };
struct inj {
  int rule;
  uint64_t at;
  uint8_t state;
  uint8_t side;
  uint32_t n;                    /* injection-specific progress */
  uint8_t fin;                   /* nothing left to do */
};
struct inj_set {                 /* the injections asked for, in the order given */
  struct inj inj[GEN_MAX_INJECT];
  unsigned n;
};

/* the injections of the options (g->ij), and the hooks; may fail the run */
void inj_init(struct gen *g);
/* adds the steps some injections need (carrier negotiations, resets) */
void inj_plan(struct gen *g);
struct inj *inj_find(struct gen *g, int rule);   /* NULL when not asked for */
static inline bool inj_asked(struct gen *g, int rule) { return inj_find(g, rule) != NULL; }
bool inj_any_pending(const struct gen *g);        /* an injection whose label has not gone out */
/* the run fails naming the first injection that found no opportunity */
int inj_check_all_done(struct gen *g);
/* Link Management request about to be queued: Priority / initiator injections */
void inj_lm(struct gen *g, struct side *s, struct pl_extra *x);
bool inj_drain_ready(struct gen *g);      /* DL-TRUNCATED-TL has had its chance */
bool inj_truncate_now(struct gen *g);     /* DL-TRUNCATED-TL: the capture ends here */
/* Queues a UART Credit Update labelled rule whatever the channel state (DM-UART-CH4-OFFLINE). */
void inj_send_credit(struct gen *g, struct side *s, int rule);

#endif
