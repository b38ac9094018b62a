/* Scenarios of ualink-gen: the starting state of the link and the step
 * list of each scenario (enum gen_scenario in gen.h). Uses the producers,
 * the step lists and the injection plan. */
#ifndef UALGEN_SCENARIO_H
#define UALGEN_SCENARIO_H

#include "model.h"

/* the starting state and the step list of g->scenario, with the injections' steps */
void scen_build(struct gen *g);

#endif
