/* The record kind UB decodes (docs/capture-format.md, decision U1),
 * X(kind code, struct ual_kind defined in ub/kinds.c). A pure X-macro
 * list with no includes, registered in core/fabrics.h. */
#ifndef UALINK_UB_KINDS_H
#define UALINK_UB_KINDS_H

#define UAL_UB_KINDS(X) \
  X(UAL_REC_UB_FLIT, ual_kind_ub_flit)

#endif
