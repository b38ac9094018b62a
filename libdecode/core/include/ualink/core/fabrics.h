/* The fabrics libdecode decodes, registered in one place. A fabric module
 * (libdecode/<fabric>/) keeps three leaf headers of X-macro lists, with no
 * includes and no code: its scopes, value lists and field rows (fields.h),
 * its rules (rules.h) and its record kinds with their decoders (kinds.h).
 * This header joins them with the capture record's own into the one field
 * table (core/fields.h), the one rule table (core/rules.h) and the one
 * dispatch table by record kind (core/decode.c).
 *
 * Adding a fabric: include its three list headers here and append its
 * lists below; give struct ual_rec_result (core/decode.h) a member for
 * what its records decode into; add the module to libdecode/CMakeLists.txt.
 * Its fields, rules and records then reach every front-end. */
#ifndef UALINK_CORE_FABRICS_H
#define UALINK_CORE_FABRICS_H

#include "ualink/ualink/fields.h"
#include "ualink/ualink/rules.h"
#include "ualink/ualink/kinds.h"

#define UAL_FABRIC_SCOPES(X)      UAL_UALINK_SCOPES(X)
#define UAL_FABRIC_VALUE_LISTS(X) UAL_UALINK_VALUE_LISTS(X)
#define UAL_FABRIC_FIELDS(X)      UAL_UALINK_FIELDS(X)
#define UAL_FABRIC_RULES(X)       UAL_UALINK_RULES(X)
#define UAL_FABRIC_KINDS(X)       UAL_UALINK_KINDS(X)
/* Each fabric's display-filter hook (struct ual_filter_fabric, core/filter.h). */
#define UAL_FABRIC_FILTERS(X)     X(ual_filter_ualink)

#endif
