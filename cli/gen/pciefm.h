/* The PCIe flit-mode link scenario of ualink-gen (scenario "pcie-flit"): a
 * Root Port (side A) and a two-function Endpoint (side B) exchanging kind-5
 * flit records (digest pcie.md §3) with TLPs built on libdecode's field
 * table. Like pcie.c it runs outside the UALink link model and keeps its
 * own injection catalog. */
#ifndef UALGEN_PCIEFM_H
#define UALGEN_PCIEFM_H

#include "gen.h"

bool gen_pciefm_inject_supported(int rule);
const char *gen_pciefm_inject_how(int rule);
/* Runs the scenario to its end: records and truth through out; records
 * counts the records written. 0, or -1 with err set. */
int gen_pciefm_run(const struct gen_opts *o, const struct gen_out *out, uint64_t *records, char *err, size_t cap);

#endif
