/* --stats of PCIe non-flit DLLPs: DLLPs by type and CRC-16 per direction
 * (from the records), the credits each side advertised last per VC and FC
 * class (from the analyzer's PCIe state). Only shown when the capture has
 * kind-4 records.
 * And of PCIe flits (kind 5): flits, CRC and FEC, TLPs by type per
 * direction (from the records' walked TLPs), completion latency
 * min/avg/max by request type and the requests outstanding at the end
 * (from the analyzer's PCIe state). Only with kind-5 records. */
#ifndef UAL_DC_STATS_PCIE_H
#define UAL_DC_STATS_PCIE_H

#include <stdbool.h>
#include <stdint.h>

#include "ualink/ualink.h"
#include "outbuf.h"

struct dc_pcie_stats {
  uint64_t dllps[2], crc_bad[2];
  uint64_t by_type[2][UAL_PCIE_DT_COUNT];
  const struct ual_pcie_link_an *an;   /* the analyzer's state of the first PCIe link, NULL when stateless */
  /* kind 5 */
  uint64_t flits[2], flit_crc_bad[2], flit_fec_corrected[2], tlps[2], nops[2];
  uint64_t tlp_by_type[2][256];
};

struct dc_stats_row;
void dc_pcie_stats_add(struct dc_pcie_stats *p, const struct ual_rec_result *r);
/* The rows of the per-direction table (none without DLLPs). */
void dc_pcie_stats_rows(const struct dc_pcie_stats *p, void (*fn)(void *ctx, const struct dc_stats_row *row),
                        void *ctx);
/* "PCIe credits advertised" lines (none without DLLPs or analyzer); the
 * completion latency and outstanding request lines (none without flits or
 * analyzer). */
void dc_pcie_credits_text(const struct dc_pcie_stats *p, struct dc_out *o);
/* The "pcie" member of the --stats --json summary (none without DLLPs),
 * then "pcie_flit" (none without PCIe flits). */
void dc_pcie_stats_json(const struct dc_pcie_stats *p, struct dc_out *o, bool *first);

#endif
