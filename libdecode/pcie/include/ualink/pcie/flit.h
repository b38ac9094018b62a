/* PCIe 6.x flits (record kind 5, digest pcie.md §3.1 [P2] [P11] [P12]):
 *
 *   bytes   0-235  TLP bytes (59 DW; TLPs walked across flits: tlp.h)
 *         236-237  DLP0/DLP1: the UALink flit header fields (Flit Usage,
 *                  Prior Flit Type, Replay Command, Flit Sequence Number)
 *         238-241  DLP2-DLP5: one flit-mode DLLP (type in DLP2, no CRC-16)
 *         242-249  CRC-64 over 0-241   250-255 FEC over 0-249 (as UALink's)
 *
 * Decoded into struct ual_rec_result's flit member with UALink's FEC/CRC
 * and flit-header code: bytes (corrected), fec, crc_*, valid, fh (from
 * DLP0/1), kind, dllp (from DLP2-5); the segment headers stay 0. */
#ifndef UALINK_PCIE_FLIT_H
#define UALINK_PCIE_FLIT_H

#include "ualink/ualink/flit.h"

#define UAL_PCIE_FLIT_DLP_OFF   236u   /* DLP0 */
#define UAL_PCIE_FLIT_DLLP_OFF  238u   /* DLP2 */

struct ual_findings;
/* Raw 256-byte body (before FEC) into fi, with PL-FEC-* / PL-CRC* findings. */
void ual_pcie_flit_decode(const uint8_t *raw, struct ual_flit_info *fi, struct ual_findings *f);
/* Fills the DLP bytes from fh and d, then seals CRC-64 and FEC; the TLP
 * bytes 0-235 are the caller's. */
void ual_pcie_flit_seal(uint8_t flit[256], const struct ual_fh *fh, const struct ual_dllp *d);

#endif
