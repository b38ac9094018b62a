/* UB's part of the presentation model (core/views.h): what it counts of
 * the selected records of a link, per direction. Its registration,
 * ual_view_ub, is in ub/views.c. */
#ifndef UALINK_UB_VIEWS_H
#define UALINK_UB_VIEWS_H

#include <stdint.h>
#include "ualink/ub/flit.h"

struct ual_ub_dir_tally {
  uint64_t flits, bcrc_bad;
  uint64_t dllcbs[UAL_UB_CB_UNKNOWN + 1];
  uint64_t dlldps[UAL_UB_VLS], bytes[UAL_UB_VLS];
};

struct ual_ub_tally {
  struct ual_ub_dir_tally d[2];
};

#endif
