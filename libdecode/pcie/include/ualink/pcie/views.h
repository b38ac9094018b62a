/* PCIE's part of the presentation model (core/views.h): what it counts of
 * the selected records of a link, per direction. Its registration,
 * ual_view_pcie, is in pcie/views.c. */
#ifndef UALINK_PCIE_VIEWS_H
#define UALINK_PCIE_VIEWS_H

#include <stdint.h>

struct ual_pcie_dir_tally {
  uint64_t records;
};

struct ual_pcie_tally {
  struct ual_pcie_dir_tally d[2];
};

#endif
