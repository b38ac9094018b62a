/* The fabrics libdecode decodes, registered in one place. A fabric module
 * (libdecode/<fabric>/) keeps three leaf headers of X-macro lists, with no
 * includes and no code: its scopes, value lists and field rows (fields.h),
 * its rules (rules.h) and its record kinds with their decoders, its
 * timeline event kinds and its stateful analysis (kinds.h). This header
 * joins them with the capture record's own into the one field table
 * (core/fields.h), the one rule table (core/rules.h), the one dispatch
 * table by record kind (core/decode.c), the one list of timeline event
 * kinds (core/events.h), the analysis registry (core/analysis.h) and the
 * presentation model (core/views.h).
 *
 * Adding a fabric: include its three list headers here and append its
 * lists below; give struct ual_rec_result (core/decode.h) a member for
 * what its records decode into; include its analysis state header in
 * core/analysis.h when it has one; its presentation model (X(name) in
 * its kinds.h, its views.h included by core/views.h, its views.c); add
 * the module to
 * libdecode/CMakeLists.txt. Its fields, rules and records then reach every
 * front-end. */
#ifndef UALINK_CORE_FABRICS_H
#define UALINK_CORE_FABRICS_H

#include "ualink/ualink/fields.h"
#include "ualink/ualink/rules.h"
#include "ualink/ualink/kinds.h"
#include "ualink/pcie/fields.h"
#include "ualink/pcie/rules.h"
#include "ualink/pcie/kinds.h"
#include "ualink/ub/fields.h"
#include "ualink/ub/rules.h"
#include "ualink/ub/kinds.h"

#define UAL_FABRIC_SCOPES(X)      UAL_UALINK_SCOPES(X) UAL_PCIE_SCOPES(X) UAL_UB_SCOPES(X)
#define UAL_FABRIC_VALUE_LISTS(X) UAL_UALINK_VALUE_LISTS(X) UAL_PCIE_VALUE_LISTS(X) UAL_UB_VALUE_LISTS(X)
/* The field rows by display-filter protocol: XU gets the rows named under
 * the plugin's protocol "ualink" (their abbrev follows "ualink."), XF the
 * rows that carry their full name under a protocol of their own (PCIe's
 * "pcie" and UB's "ub": Wireshark 4.0 registers neither). */
#define UAL_FABRIC_FIELDS_BY_PROTO(XU, XF) UAL_UALINK_FIELDS(XU) UAL_PCIE_FIELDS(XF) UAL_UB_FIELDS(XF)
#define UAL_FABRIC_FIELDS(X)      UAL_FABRIC_FIELDS_BY_PROTO(X, X)
#define UAL_FABRIC_RULES(X)       UAL_UALINK_RULES(X) UAL_PCIE_RULES(X) UAL_UB_RULES(X)
#define UAL_FABRIC_KINDS(X)       UAL_UALINK_KINDS(X) UAL_PCIE_KINDS(X) UAL_UB_KINDS(X)
#define UAL_FABRIC_TEV_KINDS(X)   UAL_UALINK_TEV_KINDS(X) UAL_PCIE_TEV_KINDS(X) UAL_UB_TEV_KINDS(X)
/* Stateful analyses X(name) and the record kinds they own X(kind code,
 * name): core/analysis.h. */
#define UAL_FABRIC_ANALYSES(X)       UAL_UALINK_ANALYSES(X) UAL_PCIE_ANALYSES(X) UAL_UB_ANALYSES(X)
#define UAL_FABRIC_ANALYSIS_KINDS(X) UAL_UALINK_ANALYSIS_KINDS(X) UAL_PCIE_ANALYSIS_KINDS(X) UAL_UB_ANALYSIS_KINDS(X)
/* The kinds whose link state an analysis describes in one line (the title
 * of a record's analysis subtree), X(kind code, name):
 * ual_name_an_state_text. */
#define UAL_FABRIC_STATE_TEXT_KINDS(X) UAL_UALINK_STATE_TEXT_KINDS(X) UAL_PCIE_STATE_TEXT_KINDS(X) UAL_UB_STATE_TEXT_KINDS(X)
/* Presets of values a capture that starts late never shows, X(name,
 * preset, "option"): ual_name_an_preset_preset and its _text. */
#define UAL_FABRIC_PRESETS(X)     UAL_UALINK_PRESETS(X) UAL_PCIE_PRESETS(X) UAL_UB_PRESETS(X)
/* Each fabric's presentation model X(name): const struct ual_view_fabric
 * ual_view_name and struct ual_name_tally (core/views.h). */
#define UAL_FABRIC_VIEWS(X)       UAL_UALINK_VIEWS(X) UAL_PCIE_VIEWS(X) UAL_UB_VIEWS(X)
/* X(name): the analyses that get every record of a PCIe link (roles byte
 * in the PCIe encoding) whose kind no analysis owns, and those that take
 * settings by option name: ual_name_an_option (core/analysis.h). */
#define UAL_FABRIC_PCIE_LINK_ANALYSES(X) UAL_PCIE_LINK_ANALYSES(X)
#define UAL_FABRIC_OPTION_ANALYSES(X) UAL_PCIE_OPTION_ANALYSES(X)
/* Each fabric's display-filter hook (struct ual_filter_fabric,
 * core/filter.h): the fields its plugin registers beside the field table. */
#define UAL_FABRIC_FILTERS(X)     X(ual_filter_ualink) X(ual_filter_pcie) X(ual_filter_ub)
/* The rules whose check is a CRC, FEC or checksum over the bits
 * (Wireshark's Checksum expert group), X(enum suffix): ual_rule_checksum. */
#define UAL_FABRIC_CHECKSUM_RULES(X) UAL_UALINK_CHECKSUM_RULES(X) UAL_PCIE_CHECKSUM_RULES(X) UAL_UB_CHECKSUM_RULES(X)

#endif
