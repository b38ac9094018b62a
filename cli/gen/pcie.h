/* The PCIe non-flit link scenario of ualink-gen (scenario "pcie"): a Root
 * Port (side A) and an Endpoint (side B) exchanging kind-4 DLLP records,
 * built on libdecode's PCIe encoder. It runs outside the UALink link model
 * and keeps its own injection catalog (every PD- rule). */
#ifndef UALGEN_PCIE_H
#define UALGEN_PCIE_H

#include "gen.h"

/* X(rule enum suffix, "how") */
#define GEN_PCIE_INJECTIONS(X) \
  X(PD_CRC,             "an Ack with one CRC-16 bit flipped") \
  X(PD_TYPE,            "an extra DLLP with the reserved type 05h") \
  X(PD_RESERVED,        "an extra Ack repeating the last number with byte 1 = 01h") \
  X(PD_FC_ORDER,        "an InitFC2-P VC0 after UpdateFC") \
  X(PD_FC_INIT_CHANGED, "the last InitFC2-Cpl of VC2 from A with HdrFC 1 instead of 0") \
  X(PD_FC_BACKWARDS,    "an extra UpdateFC-P one header credit below the last") \
  X(PD_FC_INFINITE,     "an extra UpdateFC-NP with DataFC 1 (NP data advertised infinite)") \
  X(PD_FC_SCALE,        "an extra UpdateFC-P with HdrScale 01b (InitFC advertised 00b)") \
  X(PD_ACK_BACKWARDS,   "an extra Ack three below the last number") \
  X(PD_NAK,             "a Nak in place of an Ack") \
  X(PD_PM_ORDER,        "PM_Request_Ack from the Root Port without a PM request")

bool gen_pcie_inject_supported(int rule);
const char *gen_pcie_inject_how(int rule);
/* Runs the scenario to its end: records and truth through out; records
 * counts the records written. 0, or -1 with err set. */
int gen_pcie_run(const struct gen_opts *o, const struct gen_out *out, uint64_t *records, char *err, size_t cap);

#endif
