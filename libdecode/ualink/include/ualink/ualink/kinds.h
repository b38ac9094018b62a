/* The record kinds UALink decodes (docs/capture-format.md), X(kind code,
 * struct ual_kind defined in ualink/kinds.c). A pure X-macro list with no
 * includes, registered in core/fabrics.h. */
#ifndef UALINK_UALINK_KINDS_H
#define UALINK_UALINK_KINDS_H

#define UAL_UALINK_KINDS(X) \
  X(UAL_REC_FLIT, ual_kind_ualink_flit) \
  X(UAL_REC_OS,   ual_kind_ualink_os)

#endif
