/* Non-flit transaction tracking (pcie.md §7.6 [P30] [P40]-[P42]) on the
 * request tables flit mode keeps (analysis.h, struct ual_pcie_flow): each
 * non-posted request a direction sends, keyed by (Requester ID, Tag[9:0]),
 * until the completions from the other direction finish it. Only TLPs the
 * DL accepted and delivered first come here [P35]. */
#ifndef UALINK_PCIE_NFTX_H
#define UALINK_PCIE_NFTX_H

#include "ualink/pcie/analysis.h"
#include "ualink/pcie/nonflit.h"

struct ual_nftx_at {
  struct ual_pcie_flow *me, *other;   /* the sender's flow, the receiver's */
  struct ual_pcie_nftx *win;          /* the link's window */
  struct ual_findings *f;
  char side;
  uint64_t frame, ts_ns;
  uint64_t cpl_timeout_ns;
};

/* One accepted, first-delivered TLP of the sender. */
void ual_nftx_tlp(const struct ual_nftx_at *x, const struct ual_pcie_tlph *h);
/* PN-CPL-TIMEOUT of the requests both directions of a link keep, at ts_ns. */
void ual_nftx_timeouts(struct ual_pcie_flow fl[2], struct ual_pcie_nftx *win, uint64_t ts_ns, uint64_t timeout_ns,
                       struct ual_findings *f);
/* A DL initialization (window closed) or desynchronization (reopened at
 * ts_ns): the link's requests are void either way. */
void ual_nftx_reset(struct ual_pcie_flow fl[2], struct ual_pcie_nftx *win, bool dl_init, uint64_t ts_ns);

#endif
