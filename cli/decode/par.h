/* -j N: N threads decode one input; the output is that of -j 1 (par.c
 * says why, README "Threads" the design). */
#ifndef UAL_DC_PAR_H
#define UAL_DC_PAR_H

#include <stdbool.h>

#include "dcli.h"
#include "input.h"

/* main.c: one item of the input, in input order, whichever thread read it:
 * a record (pre: its ual_decode_stateless result is in c->res already) or
 * how the input ends or a problem (msg). False when decoding stops. */
bool dc_step(struct dc_ctx *c, enum dc_next nx, const char *msg, const uint8_t *rec, size_t len, uint64_t ts_ns,
             uint32_t wire_len, uint32_t frac_over, bool pre);
/* The progress line, at input position pos. */
void dc_par_progress(struct dc_ctx *c, uint64_t pos);

/* Decodes the whole input with c->o->jobs threads, each record through
 * dc_step in input order. False when the threads cannot start (nothing
 * decoded). */
bool dc_par_run(struct dc_ctx *c, struct dc_input *in);

#endif
