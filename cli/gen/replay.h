/* DL replay and the flit slots of L0 in ualink-gen: sequence numbers,
 * Acks/Naks, the replay buffer, the receiver, one step of a side. Uses the
 * link model, the physical layer and the DL messages. */
#ifndef UALGEN_REPLAY_H
#define UALGEN_REPLAY_H

#include "model.h"

/* allocates the replay buffers (s->rb, s->sel_buf, s->sel_have: NULL when out of memory) */
void rp_side_init(struct gen *g, struct side *s, unsigned id);
void rp_side_free(struct side *s);
/* s is in L0 with channels 0 and 4 online and next_tx its next sequence
 * number (the receiver's next_exp is the partner's, set by the caller) */
void rp_start_l0(struct gen *g, struct side *s, uint16_t next_tx);
/* One step of s at its t_next: receives what reached it, then sends its
 * next ordered set, IDLE flit or L0 flit (slot hook first). */
void rp_step(struct gen *g, struct side *s);
/* queues an extra flit for the tail of the header cycle (X_SEQ0: the next explicit slot) */
void rp_extra_push(struct side *s, const struct pl_extra *x);
unsigned rp_outstanding(const struct side *s);   /* payload flits sent, not acknowledged */
/* nothing in flight in either direction of this side's transmitter/receiver */
bool rp_settled(const struct gen *g, const struct side *s);
bool rp_calm_rx(const struct side *s);           /* no Nak asked for or being sent */

#endif
