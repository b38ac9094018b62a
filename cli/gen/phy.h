/* Physical layer of ualink-gen: the wire, bit errors, flit emission,
 * ordered-set scripts and training. Uses the link model only. */
#ifndef UALGEN_PHY_H
#define UALGEN_PHY_H

#include "model.h"

/* a slot in the wire of s for the flit or set about to go out */
struct wire_item *phy_wire_slot(struct gen *g, struct side *s);
/* sends a flit (the pl_flit hook first, then bit errors) and labels what a corruption causes */
void phy_emit_flit(struct gen *g, struct side *s, uint8_t *flit, struct wire_item *wi, bool payload);
void phy_emit_idle_flit(struct gen *g, struct side *s);
void phy_emit_nop(struct gen *g, struct side *s, const struct ual_fh *fh, const struct ual_dllp *d,
                  unsigned wkind);

/* ordered-set scripts */
void phy_script_push(struct side *s, const struct pl_item *it);
void phy_script_start(struct gen *g, struct side *s, uint64_t delay);
void phy_emit_script(struct gen *g, struct side *s);   /* the next item of the script */
void phy_step_idle(struct gen *g, struct side *s);     /* Configuration.Idle / Recovery.Idle */
void phy_go_normal(struct side *s);                    /* L0: the header cycle starts over */
/* The link goes down: EIOS, electrical idle, silence. */
void phy_link_down(struct gen *g, struct side *s);

/* Training scripts. Detect, Polling, Configuration (Modified TS1/TS2 when
 * mts; flit_mode_off: side A's first TS1 without Flit Mode Supported), then
 * Configuration.Idle and the sequence-number handshake. */
void phy_train(struct gen *g, struct side *s, bool mts, bool flit_mode_off);
/* Recovery to rate, with equalization when eq; label_rate / label_eq: a
 * rule side A labels at the rate change / at equalization, or -1 */
void phy_speed_change(struct gen *g, struct side *s, unsigned rate, bool eq, int label_rate, int label_eq);
/* L1 exit: electrical idle exit, Recovery, Recovery.Idle */
void phy_l1_exit(struct gen *g, struct side *s);

#endif
