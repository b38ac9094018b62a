/* ualink-gen: synthesizes two-direction UALink 128G traffic on libdecode's
 * encoders. This is the interface the command line and the tests use; the
 * model itself is in model.h. */
#ifndef UALGEN_GEN_H
#define UALGEN_GEN_H

#include <ualink/ualink.h>

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

/* X(enum suffix, "name", "what it shows") */
#define GEN_SCENARIOS(X) \
  X(BRINGUP,     "bringup",     "Detect, Polling, Configuration with Modified TS, IDLE and sequence handshakes, speed negotiations to 32.0 GT/s and ESM, Device ID, Port Number, channels online") \
  X(TRAFFIC,     "traffic",     "steady TL flits both ways, UART firmware chatter, periodic DL messages, a TL rate change through the 100 MHz reference") \
  X(UART,        "uart",        "UART streams: credits, Vendor Defined Packets spanning transports, a stream reset with 40 No-Ops") \
  X(NEGOTIATION, "negotiation", "width/speed/channel negotiations: Nack, Decision Pending, conflicts, identical requests, Priority and soft lockout") \
  X(L1,          "l1",          "L1 entry (channels offline, Link State L1, PM DLLPs, EIOS) and exit (Recovery, channels online)") \
  X(L0P,         "l0p",         "width change: Link Width negotiation then Link Management DLLPs") \
  X(ERRORS,      "errors",      "bit errors: FEC corrections, uncorrectable flits, Naks, go-back-N and selective replay") \
  X(ALL,         "all",         "bring-up, traffic, errors and replay, L0p, L1 entry and exit, traffic again")

enum gen_scenario {
#define GEN_X_(e, n, w) GEN_SC_##e,
  GEN_SCENARIOS(GEN_X_)
#undef GEN_X_
  GEN_SC_COUNT
};

/* Scenarios of the other fabrics, numbered after the UALink ones and run by
 * their own producers (not by the UALink link model, so the UALink suites
 * that loop to GEN_SC_COUNT leave them out). X(enum suffix, "name", "what") */
#define GEN_FABRIC_SCENARIOS(X) \
  X(PCIE, "pcie", "PCIe non-flit link (kind-4 DLLPs): FC init of VC0-2 on both sides, Acks, UpdateFC with wrapping credits, NOPs, PM L1 entry") \
  X(PCIE_FLIT, "pcie-flit", "PCIe flit mode (kind-5 flits): configuration writes that capture the hierarchy segment, memory reads both ways with split completions, writes, messages with OHC-C, completions with or without OHC-A5, NOP TLPs, TLPs across flits, Acks and flit-mode DLLPs in DLP0-5") \
  X(PCIE_SWITCH, "pcie-switch", "PCIe flit mode, a switch on two links (upstream and downstream, link index 0/1): configuration writes that capture its and the Endpoint's segment (Type 1 forwarded as Type 0), reads both ways with completions, writes and messages forwarded with identical segment fields, Clear then Set") \
  X(PCIE_RC, "pcie-rc", "PCIe flit mode, three Root Ports of one Root Complex (links 0-2, segments 03h/05h/07h): host reads and writes, peer-to-peer reads passed through (No NFM Subtree Below) or taken over with a new Requester ID and Tag restored on the completion") \
  X(PCIE_GEN1, "pcie-gen1", "PCIe non-flit TLPs and DLLPs (kind 7) in 8b/10b at 2.5 GT/s x1: training, DL initialization, enumeration, memory/IO/configuration requests with split completions, messages, ECRC, UpdateFC, coalesced Acks, PME_Turn_Off to electrical idle") \
  X(PCIE_GEN3, "pcie-gen3", "the same in 128b/130b: trained and initialized at 2.5 GT/s, Recovery to 8.0 GT/s x8, then STP/SDP tokens")

enum gen_fabric_scenario {
  GEN_SC_FABRIC_BASE_ = GEN_SC_COUNT - 1,
#define GEN_X_(e, n, w) GEN_SC_##e,
  GEN_FABRIC_SCENARIOS(GEN_X_)
#undef GEN_X_
  GEN_SC_ALL_COUNT
};

const char *gen_scenario_name(int sc);
const char *gen_scenario_what(int sc);
int gen_scenario_lookup(const char *name); /* -1 when unknown */

#define GEN_MAX_INJECT 16
#define GEN_AT_DEFAULT UINT64_MAX

struct gen_inject_req {
  int rule;              /* enum ual_rule */
  uint64_t at_frame;     /* first opportunity at or after this frame; GEN_AT_DEFAULT */
};

enum gen_peer { GEN_PEER_DEFAULT, GEN_PEER_SWITCH, GEN_PEER_ACCEL };
enum gen_nak { GEN_NAK_ALTERNATE, GEN_NAK_STANDARD, GEN_NAK_SELECTIVE };

struct gen_opts {
  int scenario;          /* enum gen_scenario, or -1 = chosen from the injections (else traffic) */
  uint64_t seed;
  uint64_t count;        /* records; 0 = the scenario's own length */
  uint64_t duration_ps;  /* 0 = no limit */
  double load;           /* TL load 0..1; < 0 = scenario default */
  double ber;            /* bit error rate; < 0 = scenario default */
  unsigned rate;         /* record rate code of the final link speed; 0 = 128 GT/s */
  unsigned width;        /* lanes; 0 = 8 */
  int peer;              /* enum gen_peer */
  int nak;               /* enum gen_nak */
  unsigned train_os;     /* ordered sets per training state (per lane where lanes differ) */
  double run_scale;      /* scales the scenario's stretches of plain traffic (compact captures) */
  uint32_t latency_ns;   /* receiver turnaround */
  uint64_t start_ns;     /* timestamp of the first record, ns since the epoch */
  unsigned n_inject;
  struct gen_inject_req inject[GEN_MAX_INJECT];
};

void gen_opts_default(struct gen_opts *o);

/* Where the generator's output goes. Every callback but record may be NULL. */
struct gen_out {
  void *ctx;
  /* One capture record, time stamped in ns since the epoch. Non-zero return stops the run. */
  int (*record)(void *ctx, uint64_t ts_ns, const uint8_t *rec, size_t len);
  /* Ground truth: a finding the analyzer should raise at frame (1-based).
   * source: "inject" (asked for), "consequence" (follows from an injection)
   * or "channel" (a bit error of --ber or the errors scenario). */
  void (*truth)(void *ctx, uint64_t frame, unsigned dir, int rule, const char *source,
                const char *note);
  /* What the packer was given, in order per direction (round-trip checks). */
  void (*tl_packed)(void *ctx, unsigned dir, const uint8_t data[UAL_TL_FLIT_BYTES],
                    unsigned m0, unsigned m1);
  void (*msg_packed)(void *ctx, unsigned dir, const uint32_t *dw, unsigned n);
  /* Progress, called every few thousand records. */
  void (*progress)(void *ctx, uint64_t records, uint64_t ts_ns);
  /* PCIe flit mode: a non-posted request or a completion TLP whose last DW
   * went out at frame on link index link, direction dir; dw0 = its header
   * base (transaction checks of ualink-decode --transactions). NULL: none. */
  void (*tlp)(void *ctx, uint64_t frame, unsigned link, unsigned dir, const uint8_t *dw0);
};

struct gen_stats {
  uint64_t records, flits[2], payload[2], nop[2], idle[2], os[2], events[2];
  uint64_t tl[2], msgs[2], replayed[2], naks[2], corrupted[2];
  uint64_t end_ps;
};

struct gen;

/* Returns NULL with err set when the options cannot be honoured. */
struct gen *gen_new(const struct gen_opts *o, const struct gen_out *out, char *err, size_t cap);
/* Runs to the end. 0, or -1 with err set (output stopped, an injection that
 * found no opportunity, a model dead end). */
int gen_run(struct gen *g, char *err, size_t cap);
void gen_stats(const struct gen *g, struct gen_stats *st);
void gen_free(struct gen *g);
/* The ualink-decode options (a profile: --segment, --no-nfm-subtree) the
 * scenario's topology needs for every rule it can show; NULL when none.
 * ualink-gen -w FILE writes them to FILE.decode-args. */
const char *gen_decode_args(const struct gen *g);

/* Injection catalog: rules a transmitter can cause. */
bool gen_inject_supported(int rule);
const char *gen_inject_how(int rule);     /* one line, NULL when unsupported */
int gen_inject_scenario(int rule);        /* the scenario used when none is given */

#endif
