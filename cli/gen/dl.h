/* DL messages of ualink-gen: queues, packing a payload flit (with the TL
 * layer's flits), basic requests, TL rate notifications, control
 * negotiations, the UART stream. Uses the link model and the TL layer. */
#ifndef UALGEN_DL_H
#define UALGEN_DL_H

#include "model.h"

void dl_init(struct side *s);
/* fills the packer before a payload flit and builds it (pack and dl_flit hooks) */
void dl_build_payload(struct gen *g, struct side *s, const struct ual_fh *fh, uint8_t *flit,
                      struct flit_meta *meta);
/* the payload flit just built went out as frame: labels and hooks of the messages it completed */
void dl_after_sent(struct gen *g, struct side *s, uint64_t frame);
/* the messages a flit completed, received in order by rx */
void dl_deliver(struct gen *g, struct side *rx, const struct flit_meta *meta);
void dl_tick(struct gen *g, struct side *s);   /* once per flit time of the side */
bool dl_queue_msg(struct side *s, const struct msg_item *m);
void dl_msg_init(struct msg_item *m, unsigned cls, const uint32_t *dw, unsigned n);
bool dl_idle(const struct side *s);           /* nothing queued, nothing partly packed */
bool dl_busy_requests(const struct side *s);  /* requests awaiting answers */
void dl_ctrl_request(struct gen *g, struct side *s, unsigned mtype, unsigned target,
                     unsigned prio);
void dl_basic_request(struct gen *g, struct side *s, unsigned mtype);
void dl_rate_change(struct side *s, uint16_t target, bool direct);
void dl_uart_reset(struct gen *g, struct side *s);
void dl_uart_fill(struct gen *g, struct side *s, unsigned dwords);
void dl_apply_channel(struct gen *g, struct side *s, unsigned ch, bool online);
uint32_t dl_ctrl_dw(unsigned mtype, unsigned prio, unsigned target, unsigned cmd,
                    unsigned response);

#endif
