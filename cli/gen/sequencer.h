/* The sequencer of ualink-gen: runs the step list (steps.h) against the
 * link model. Uses every layer below it. */
#ifndef UALGEN_SEQUENCER_H
#define UALGEN_SEQUENCER_H

#include "model.h"

/* starts and finishes steps as far as the model allows now */
void seq_tick(struct gen *g);
/* when the running step wants to look again (PS_NEVER: at the next record) */
uint64_t seq_wake(const struct gen *g);

#endif
