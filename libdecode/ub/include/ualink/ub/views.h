/* UB's part of the presentation model (core/views.h): what it counts of
 * the selected records of a link, per direction. Its registration,
 * ual_view_ub, is in ub/views.c. */
#ifndef UALINK_UB_VIEWS_H
#define UALINK_UB_VIEWS_H

#include <stdint.h>

struct ual_ub_dir_tally {
  uint64_t records;
};

struct ual_ub_tally {
  struct ual_ub_dir_tally d[2];
};

#endif
