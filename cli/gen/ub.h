/* ualink-gen for a UB link (digest ub-dl.md): both sides of a UB data link
 * as scripted models built on libdecode's UB encoders, with ground truth.
 * A layer of its own beside the UALink model: it uses only gen.h's output
 * and option types and the PRNG. */
#ifndef UALGEN_UB_H
#define UALGEN_UB_H

#include "gen.h"

/* X(enum suffix, "name", "what") */
#define UB_SCENARIOS(X) \
  X(INIT,    "ub-init",    "UB link-up: Retry_Req/Ack sets, Init Blocks, initial credits, a little traffic") \
  X(TRAFFIC, "ub-traffic", "UB DLLDPs on four VLs, exclusive credits A>B and shared credits B>A, credit and ACK returns") \
  X(BER,     "ub-ber",     "UB traffic with bit errors: BCRC failures, Retry_Req_Sets, Retry_Ack_Sets, go-back-N replays") \
  X(MODE,    "ub-mode",    "UB CRC -> non-CRC mode switch: Block_Mode_Chg handshake, retrain, traffic in non-CRC mode") \
  X(LANES,   "ub-lanes",   "UB lane change: Lane_Manage request and response, x4 -> x2") \
  X(ALL,     "ub-all",     "every UB scenario in one link")

enum ub_scenario {
#define UB_X_(e, n, w) UB_SC_##e,
  UB_SCENARIOS(UB_X_)
#undef UB_X_
  UB_SC_COUNT
};

int ub_scenario_lookup(const char *name);   /* -1 when unknown */
const char *ub_scenario_name(int sc);
const char *ub_scenario_what(int sc);
bool ub_inject_supported(int rule);
const char *ub_inject_how(int rule);        /* NULL when not supported */
int ub_inject_scenario(int rule);           /* the scenario that has the chance */

/* Runs scenario sc with o's seed, count, ber and UB injections (o->inject
 * entries whose rule is a UB- rule). 0, or -1 with err set. */
int ub_gen_run(int sc, const struct gen_opts *o, const struct gen_out *out, char *err, size_t cap);

#endif
