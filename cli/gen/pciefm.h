/* The PCIe flit-mode link scenario of ualink-gen (scenario "pcie-flit"): a
 * Root Port (side A) and a two-function Endpoint (side B) exchanging kind-5
 * flit records (digest pcie.md §3) with TLPs built on libdecode's field
 * table. Like pcie.c it runs outside the UALink link model and keeps its
 * own injection catalog. */
#ifndef UALGEN_PCIEFM_H
#define UALGEN_PCIEFM_H

#include "gen.h"

/* X(rule enum suffix, "how"); each is one TLP changed or added. */
#define GEN_PCIEFM_INJECTIONS(X) \
  X(PS_TO_TAG_UNIQUE,    "a Root Port MRd32 reusing the Tag of its MRd32 just before, still outstanding") \
  X(PS_RP_RSEG_MISMATCH, "an Endpoint MRd64 with Requester Segment 04h (not the Root Port's 03h) completed SC (PS-REQ-RSEG-VALUE on the request follows)") \
  X(PS_REQ_RSEG_VALUE,   "an Endpoint MWr64 with Requester Segment 04h, its function captured 03h") \
  X(PS_REQ_CLEAR_NOC,    "an Endpoint MWr64 with OHC-C before any segment is captured (Clear)") \
  X(PS_REQ_MSG_RSEG,     "an Endpoint ERR_COR message without OHC-C after the segment is captured") \
  X(PS_REQ_ID_DSV_CLEAR, "an Endpoint ID-routed message with OHC-A4 DSV 1 while Clear") \
  X(PS_REQ_ID_DSV_SET,   "an Endpoint ID-routed message to 02:00.0 (segment 05h by the scenario's profile) without OHC-A4 while Set") \
  X(PS_CPL_SEG_CLEAR,    "an Endpoint completion with Completer Segment 03h while Clear") \
  X(PS_CPL_SEG_SET,      "an Endpoint completion with Completer Segment 04h, its function captured 03h") \
  X(PS_CPL_CFG,          "an Endpoint completion of a configuration read with OHC-A5 DSV 1, Destination Segment 03h") \
  X(PS_CPL_DSEG_NONE,    "an Endpoint completion of a Root Port read (no Requester Segment) with OHC-A5 DSV 1") \
  X(PS_CPL_DSEG_COPY,    "a Root Port completion of an Endpoint read with Requester Segment 03h carrying OHC-A5 DSV 0") \
  X(PS_CPL_A5_CROSS,     "an Endpoint completion without OHC-A5 of a Root Port MRd32 with Requester Segment 05h") \
  X(PS_CPL_A5_OMIT,      "an Endpoint completion without OHC-A5 while Clear")

/* The profile the scenario's topology gives ualink-decode: 02:00.0, the
 * target of some ID-routed messages, lives in segment 05h. */
#define GEN_PCIEFM_FAR_BDF     0x0200u
#define GEN_PCIEFM_FAR_SEG     0x05u
#define GEN_PCIEFM_DECODE_ARGS "--segment 02:00.0=5"

bool gen_pciefm_inject_supported(int rule);
const char *gen_pciefm_inject_how(int rule);
/* Runs the scenario to its end: records and truth through out; records
 * counts the records written. 0, or -1 with err set. */
int gen_pciefm_run(const struct gen_opts *o, const struct gen_out *out, uint64_t *records, char *err, size_t cap);

#endif
