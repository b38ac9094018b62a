/* UB's part of the display filters (core/filter.h): the protocol "ub"
 * (Wireshark 4.0 registers none) over the body of a UB flit record, as
 * the plugin adds it; the field table's ub.* rows are registered under it. */
#ifndef UALINK_UB_FILTER_H
#define UALINK_UB_FILTER_H

#include <stdbool.h>
#include "ualink/core/filter.h"

enum ual_fub { UAL_FUB_PROTO, UAL_FUB_COUNT };

extern const struct ual_filter_field ual_filter_ub_fields[UAL_FUB_COUNT];
extern const struct ual_filter_fabric ual_filter_ub;

/* Whether a record kind is UB's (its tree's first body group is the "ub"
 * protocol item). */
bool ual_ub_kind(unsigned kind);

#endif
