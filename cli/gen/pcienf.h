/* The PCIe non-flit TLP scenarios of ualink-gen: "pcie-gen1" (8b/10b, 2.5
 * GT/s) and "pcie-gen3" (128b/130b, 8.0 GT/s), a Root Port (side A) and an
 * Endpoint (side B) exchanging TLPs and DLLPs as kind-7 records (digest
 * pcie.md §7), built on libdecode's encoders. Like pcie.c it runs outside
 * the UALink link model and keeps its own injection catalog (PN- rules). */
#ifndef UALGEN_PCIENF_H
#define UALGEN_PCIENF_H

#include "gen.h"

/* Where an injection is possible: 1 pcie-gen1, 2 pcie-gen3, 3 both; the
 * first of them is its default scenario. NF_LATER: not offered yet, the
 * analysis does not raise its rule yet (the data link and transaction
 * tracking PN- rules come with the tracker). */
#define NF_G1 1
#define NF_G3 2
#define NF_ANY 3
#define NF_LATER 4

/* X(enum suffix, "rule ID", where, "how"). The data link ones: the Root
 * Port sends, the Endpoint receives and acknowledges. */
#define GEN_PCIENF_INJECTIONS(X) \
  X(LCRC,               "PN-LCRC",             NF_ANY, "an Endpoint TLP with one LCRC bit flipped; the Root Port Naks, the Endpoint replays") \
  X(NULLIFIED,          "PN-NULLIFIED",        NF_ANY, "a Root Port TLP nullified (EDB, inverted LCRC), sent again with the same number") \
  X(NULLIFIED_BAD,      "PN-NULLIFIED-BAD",    NF_ANY, "a nullified Root Port TLP whose LCRC is not the inverse; the Endpoint Naks, the Root Port replays") \
  X(ECRC,               "PN-ECRC",             NF_ANY, "an Endpoint MWr with TD 1 and one digest bit flipped") \
  X(FRAME_END,          "PN-FRAME-END",        NF_G1,  "an Endpoint TLP ending in an IDL symbol instead of END; the Root Port Naks") \
  X(FRAME_SHORT,        "PN-FRAME-SHORT",      NF_G1,  "an Endpoint TLP cut to 12 symbols between STP and END; the Root Port Naks") \
  X(SEQ_RESERVED,       "PN-SEQ-RESERVED",     NF_G1,  "a Root Port TLP with 0001b in the 4 bits before its sequence number") \
  X(STP_CHECK,          "PN-STP-CHECK",        NF_G3,  "an Endpoint STP token with a Frame CRC bit flipped; Recovery, the Root Port Naks") \
  X(STP_LENGTH,         "PN-STP-LENGTH",       NF_G3,  "an Endpoint STP token one DW longer than the TLP (Frame CRC and parity of that length); Recovery, Nak") \
  X(TOKEN,              "PN-TOKEN",            NF_G3,  "an Endpoint UpdateFC DLLP whose SDP token is F0h ADh; Recovery") \
  X(REC_TRUNC,          "PN-REC-TRUNC",        NF_ANY, "an Endpoint MWr record truncated by the capture to its first 16 bytes") \
  X(TLP_TYPE,           "PN-TLP-TYPE",         NF_ANY, "an Endpoint 3-DW TLP with the reserved Fmt/Type 03h") \
  X(TLP_SIZE,           "PN-TLP-SIZE",         NF_ANY, "an Endpoint MWr with Length 2 carrying one DW") \
  X(TLP_BE,             "PN-TLP-BE",           NF_ANY, "an Endpoint MWr of one DW with Last DW BE 1111b") \
  X(TLP_4KB,            "PN-TLP-4KB",          NF_ANY, "an Endpoint MWr of 8 DW at a page offset FF0h") \
  X(TLP_IOCFG,          "PN-TLP-IOCFG",        NF_ANY, "a Root Port CfgRd0 with Attr No Snoop; no completion") \
  X(TLP_ATOMIC,         "PN-TLP-ATOMIC",       NF_ANY, "an Endpoint FetchAdd of 3 DW; no completion") \
  X(TLP_ADDR64,         "PN-TLP-ADDR64",       NF_ANY, "an Endpoint MWr64 with Address[63:32] = 0") \
  X(TLP_RESERVED,       "PN-TLP-RESERVED",     NF_ANY, "an Endpoint MWr with DW0 byte 1 bit 1 (formerly LN) set") \
  X(TLP_AT,             "PN-TLP-AT",           NF_ANY, "an Endpoint Assert_INTA with AT 01b") \
  X(TLP_DEPRECATED,     "PN-TLP-DEPRECATED",   NF_ANY, "a Root Port TCfgRd (1Bh); the Endpoint answers UR") \
  X(TLP_PREFIX,         "PN-TLP-PREFIX",       NF_ANY, "an Endpoint MWr behind five End-End vendor prefixes") \
  X(POISONED,           "PN-POISONED",         NF_ANY, "an Endpoint MWr with EP 1") \
  X(MSG_TC,             "PN-MSG-TC",           NF_ANY, "an Endpoint LTR message in TC 1") \
  X(MSG_FORM,           "PN-MSG-FORM",         NF_ANY, "a Root Port Set_Slot_Power_Limit with Length 2") \
  X(MSG_CODE,           "PN-MSG-CODE",         NF_ANY, "an Endpoint local message with the undefined code 60h") \
  X(MSG_INTX,           "PN-MSG-INTX",         NF_ANY, "an Endpoint Assert_INTA with Function Number 1") \
  X(MSG_DIR,            "PN-MSG-DIR",          NF_ANY, "a Root Port ERR_COR (routed to the Root Complex) sent downstream") \
  X(CPL_UR,             "PN-CPL-UR",           NF_ANY, "a Root Port MRd of an unimplemented Endpoint address, answered UR") \
  X(CPL_CA,             "PN-CPL-CA",           NF_ANY, "a Root Port MRd answered with Completer Abort") \
  X(CPL_RRS,            "PN-CPL-RRS",          NF_ANY, "a Root Port CfgRd0 answered Request Retry Status") \
  X(CPL_STATUS_RSVD,    "PN-CPL-STATUS-RSVD",  NF_ANY, "a Root Port MRd answered with the reserved status 011b") \
  X(CPL_BCM,            "PN-CPL-BCM",          NF_ANY, "an Endpoint CplD with BCM set") \
  X(CPL_FORM,           "PN-CPL-FORM",         NF_ANY, "a Root Port IORd answered with a CplD of status UR") \
  X(CPL_MISMATCH,       "PN-CPL-MISMATCH",     NF_ANY | NF_LATER, "an Endpoint CplD whose Byte Count is 4 more than the read asked") \
  X(CPL_UNEXPECTED,     "PN-CPL-UNEXPECTED",   NF_ANY | NF_LATER, "an Endpoint CplD with a Tag no request carries") \
  X(CPL_TIMEOUT,        "PN-CPL-TIMEOUT",      NF_ANY | NF_LATER, "an Endpoint MRd the Root Port never completes, the link idle 51 ms before PM") \
  X(REPLAY,             "PN-REPLAY",           NF_ANY | NF_LATER, "the Endpoint Naks a Root Port TLP it received with a Receiver Error the probe did not see; the replay") \
  X(REPLAY_DIFFERS,     "PN-REPLAY-DIFFERS",   NF_ANY | NF_LATER, "as PN-REPLAY, the retransmitted TLP's last byte changed (LCRC recomputed)") \
  X(NAK_NO_REPLAY,      "PN-NAK-NO-REPLAY",    NF_ANY | NF_LATER, "as PN-REPLAY, the Root Port sends two new TLPs before it replays") \
  X(REPLAY_START,       "PN-REPLAY-START",     NF_ANY | NF_LATER, "as PN-REPLAY with two TLPs outstanding, the replay starts at the second; the REPLAY_TIMER replays again") \
  X(REPLAY_ORDER,       "PN-REPLAY-ORDER",     NF_ANY | NF_LATER, "as PN-REPLAY with three TLPs outstanding, the replay leaves out the second; the Endpoint Naks again") \
  X(REPLAY_NUM,         "PN-REPLAY-NUM",       NF_ANY | NF_LATER, "the Endpoint Naks one Root Port TLP four times (Receiver Errors), the Root Port replays four times without Recovery") \
  X(SEQ_GAP,            "PN-SEQ-GAP",          NF_ANY | NF_LATER, "a Root Port TLP the capture lost (no records-lost flag); the Endpoint Acks (PN-NO-NAK follows)") \
  X(NO_NAK,             "PN-NO-NAK",           NF_ANY | NF_LATER, "a Root Port TLP with a bad LCRC the Endpoint answers with an Ack; REPLAY_TIMER replays it") \
  X(ACK_LATENCY,        "PN-ACK-LATENCY",      NF_ANY | NF_LATER, "the Endpoint sends nothing for 6000 symbol times after a Root Port TLP, then Acks") \
  X(ACK_AHEAD,          "PN-ACK-AHEAD",        NF_ANY | NF_LATER, "the Root Port Acks the number after the Endpoint's newest TLP") \
  X(REPLAY_TIMEOUT,     "PN-REPLAY-TIMEOUT",   NF_ANY | NF_LATER, "the Endpoint sends nothing for 33000 symbol times after a Root Port TLP, the Root Port does not replay") \
  X(OUTSTANDING,        "PN-OUTSTANDING",      NF_G3 | NF_LATER, "the Endpoint stops acknowledging, the Root Port sends 2048 small writes unacknowledged") \
  X(PM_L23_UNACKED,     "PN-PM-L23-UNACKED",   NF_ANY | NF_LATER, "the Endpoint sends PM_Enter_L23 right after PME_TO_Ack, before its Ack (as the Agilent trace)") \
  X(PM_UNACKED,         "PN-PM-UNACKED",       NF_ANY | NF_LATER, "the Root Port sends a message and PM_Request_Ack before that message is acknowledged")

bool gen_pcienf_inject_supported(int rule);
const char *gen_pcienf_inject_how(int rule);
/* The rule can be injected in scenario sc. */
bool gen_pcienf_inject_in(int rule, int sc);
/* The scenario a rule is injected in by default (GEN_SC_PCIE_GEN1 or _GEN3), -1 none. */
int gen_pcienf_inject_scenario(int rule);
/* Runs scenario sc (GEN_SC_PCIE_GEN1 or GEN_SC_PCIE_GEN3) to its end:
 * records and truth through out; records counts the records written. 0,
 * or -1 with err set. */
int gen_pcienf_run(int sc, const struct gen_opts *o, const struct gen_out *out, uint64_t *records, char *err, size_t cap);

#endif
