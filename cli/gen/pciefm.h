/* The PCIe flit-mode scenarios of ualink-gen. "pcie-flit": a
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

/* Scenario "pcie-switch": a switch's upstream link (index 0: Root Port,
 * Upstream Port) and a downstream link (index 1: Downstream Port,
 * Endpoint), the TLPs the switch forwards seen on both. */
#define GEN_PCIESW_INJECTIONS(X) \
  X(PS_SW_FM_KEEP,    "a Root Port MWr32 without OHC-C forwarded down with OHC-C Requester Segment 03h added") \
  X(PS_SW_DSEG_UP,    "a Root Port ID-routed message with OHC-A4 Destination Segment 05h (not the switch's 03h) forwarded down") \
  X(PS_SW_DSP_BLOCK,  "an Endpoint MWr64 with Requester Segment 04h forwarded up (PS-REQ-RSEG-VALUE on both links follows)") \
  X(PS_SW_CLEAR_DSV,  "a Root Port ID-routed message with OHC-A4 DSV 1 forwarded down while the switch is Clear") \
  X(PS_SW_CLEAR_RSEG, "a Root Port MWr32 with OHC-C forwarded down while the switch is Clear")

/* Scenario "pcie-rc": three Root Ports of one Root Complex (links 0-2,
 * hierarchy segments 03h, 05h, 07h), peer-to-peer reads between their
 * Endpoints: passed through to link 1, taken over to link 0. */
#define GEN_PCIERC_INJECTIONS(X) \
  X(PS_PT_ADD_RSEG,    "an Endpoint peer-to-peer MRd32 without OHC-C passed through without OHC-C") \
  X(PS_PT_CPL_ROUTE,   "a passed-through completion for segment 03h sent down link 2 (segment 07h)") \
  X(PS_PT_CPL_KEEP,    "a passed-through completion sent back with the Tag plus one") \
  X(PS_TO_REQUIRED,    "an Endpoint peer-to-peer MRd32 passed through to link 0, whose Root Port has an NFM subtree") \
  X(PS_TO_RESTORE,     "the completion of a taken-over MRd32 sent back with the Root Complex's Requester ID and Tag") \
  X(PS_TO_EGRESS_RSEG, "a taken-over MRd32 sent with the ingress Root Port's Requester Segment 05h, not link 0's 03h")

/* The profile the scenario's topology gives ualink-decode. pcie-flit:
 * 02:00.0, the target of some ID-routed messages, lives in segment 05h.
 * pcie-rc: Root Port 0 has an NFM subtree (takeover), Root Port 1 none
 * (pass-through), Root Port 2's setting is not given. */
#define GEN_PCIEFM_FAR_BDF     0x0200u
#define GEN_PCIEFM_FAR_SEG     0x05u
#define GEN_PCIEFM_DECODE_ARGS "--segment 02:00.0=5"
#define GEN_PCIERC_NFM_LINK    0u
#define GEN_PCIERC_NO_NFM_LINK 1u
#define GEN_PCIERC_DECODE_ARGS "--nfm-subtree=0 --no-nfm-subtree=1"

bool gen_pciefm_inject_supported(int rule);
const char *gen_pciefm_inject_how(int rule);
/* The scenario (GEN_SC_PCIE_FLIT, _SWITCH, _RC) a rule is injected in, -1 none. */
int gen_pciefm_inject_scenario(int rule);
/* Runs scenario sc (GEN_SC_PCIE_FLIT, GEN_SC_PCIE_SWITCH or
 * GEN_SC_PCIE_RC) to its end: records and truth through out; records
 * counts the records written. 0, or -1 with err set. */
int gen_pciefm_run(int sc, const struct gen_opts *o, const struct gen_out *out, uint64_t *records, char *err, size_t cap);

#endif
