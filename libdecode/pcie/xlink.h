/* The cross-link correlator of the PCIe analysis (analysis.h, struct
 * ual_pcie_xl): the two-link rules of pcie.md §4 on TLPs a switch or the
 * Root Complex forwards from one captured link to another. */
#ifndef UALINK_PCIE_XLINK_H
#define UALINK_PCIE_XLINK_H

#include "ualink/pcie/analysis.h"

/* One TLP whose header base and OHC words the walk holds. */
struct ual_pcie_xl_in {
  unsigned link;             /* its link's slot in lk[] */
  int up;                    /* sent by the link's downstream component */
  unsigned type;
  const struct ual_pcie_tlp_type *ty;
  const uint8_t *dw0, *a, *c;   /* OHC-A and OHC-C words, NULL when absent */
  unsigned base_dw;
  uint64_t frame;
  bool unanswered;           /* a completion that answers no request seen on its link */
};

void ual_pcie_xl_tlp(struct ual_pcie_an *s, const struct ual_pcie_xl_in *t, struct ual_findings *f);
/* A link lost records or went down: what was kept of it is void. */
void ual_pcie_xl_forget(struct ual_pcie_xl *x, unsigned link);

#endif
