/* PCIe's part of the presentation model (core/views.h): what it counts of
 * the selected records of a link, per direction. Its registration,
 * ual_view_pcie, is in pcie/views.c. */
#ifndef UALINK_PCIE_VIEWS_H
#define UALINK_PCIE_VIEWS_H

#include <stdint.h>
#include "ualink/pcie/dllp.h"

struct ual_pcie_dir_tally {
  uint64_t dllps, crc_bad;              /* non-flit DLLPs (kind 4, and kind 7's) */
  uint64_t nf_tlps;                     /* kind-7 records that are not DLLPs */
  uint64_t os;                          /* ordered sets of a PCIe link (kind 2, PCIe roles) */
  uint64_t by_type[UAL_PCIE_DT_COUNT];
  uint64_t flits, flit_crc_bad, flit_fec_corrected, tlps, nops;   /* flits (kind 5) */
  uint64_t tlp_by_type[256];
  /* the TLPs walked (kind 5): all their bytes (prefixes, header, OHC,
   * payload, trailer) and their data, in all and by Type */
  uint64_t tlp_bytes, payload_bytes;
  uint64_t bytes_by_type[256], payload_by_type[256];
  /* flow-control credits they consumed by class (P, NP, Cpl), all VCs:
   * a header credit each, a data credit per 4 DW of payload */
  uint64_t cr_hdr[3], cr_data[3];
};

struct ual_pcie_tally {
  struct ual_pcie_dir_tally d[2];
};

#endif
