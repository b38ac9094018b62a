/* What the capture record header means for UB flits (kind 6, digest
 * ub-dl.md §2): decisions U2 (flags), U4 (width), U5 (roles), U6 (byte 7),
 * U7 (link events 9-13) and U22 (FEC bypass), in one place. */
#ifndef UALINK_UB_RECORD_H
#define UALINK_UB_RECORD_H

#include "ualink/core/record.h"

/* flags: bit 1 = FEC uncorrectable (UAL_RF_PHY_ERR), bit 3 = FEC corrected (U2) */
#define UAL_UB_RF_FEC_CORRECTED 0x08u
/* roles bits 5:4: PHY primary port, 0 unknown, 1 A, 2 B (U5) */
#define UAL_UB_PRIMARY_SHIFT 4u
/* byte 7 bits 1:0: mode hint (U6) */
#define UAL_UB_MODE_HINT_MASK 0x03u
/* byte 7 bit 2: the PHY reports its FEC bypassed (U22) */
#define UAL_UB_FEC_BYPASS 0x04u

/* Link events of a UB link (U7) are UAL_EV_UB_* of core/record.h; the
 * value of UAL_EV_UB_MODE is enum ual_ub_mode. */

/* The mode hint of a kind-6 header: enum ual_ub_mode. */
static inline unsigned ual_ub_rec_mode_hint(const struct ual_rec_hdr *h) { return h->rsvd & UAL_UB_MODE_HINT_MASK; }
/* The primary port: 0 unknown, 1 A, 2 B. */
static inline unsigned ual_ub_rec_primary(const struct ual_rec_hdr *h) { return (h->rsvd_roles >> 0) & 0x3u; }

#endif
