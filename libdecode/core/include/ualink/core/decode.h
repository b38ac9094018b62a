/* One record in, everything decodable out: the record header, the flit (or
 * ordered set, or link event), the unpacked TL flits and DL messages, and
 * all findings. Front-ends call this; they hold no protocol logic.
 *
 * The one dispatch point: the record's kind picks the decoder registered for
 * it (core/fabrics.h); ual_tree_walk (tree.h) and ual_rec_summary
 * (summary.h) dispatch the same way. A kind nobody registered parses as
 * UAL_RS_KIND. */
#ifndef UALINK_CORE_DECODE_H
#define UALINK_CORE_DECODE_H

#include <stdbool.h>
#include "ualink/core/record.h"
#include "ualink/core/rules.h"
/* What the fabrics' records decode into. */
#include "ualink/ualink/flit.h"
#include "ualink/ualink/pack.h"
#include "ualink/ualink/os.h"
#include "ualink/pcie/dllp.h"
#include "ualink/pcie/tlp.h"
#include "ualink/pcie/nonflit.h"
#include "ualink/ub/flit.h"

struct ual_rec_result {
  uint64_t frame;
  enum ual_rec_status status;   /* OK or RESERVED: decoded; others: malformed */
  struct ual_record rec;
  uint8_t dir;                  /* 0 = A>B, 1 = B>A */
  /* UALink, kind == UAL_REC_FLIT; PCIe flits (UAL_REC_PCIE_FLIT) too: pcie/flit.h */
  struct ual_flit_info flit;
  bool unpacked;                /* the flit went through the unpacker */
  struct ual_unpack_out unp;
  /* PCIe flits: the TLPs the analysis walked to their end in this flit (pcie/tlp.h) */
  struct ual_pcie_tlps tlps;
  /* kind == UAL_REC_OS */
  struct ual_os os;
  /* PCIe, kind == UAL_REC_PCIE_DLLP; kind UAL_REC_PCIE_NF holding a DLLP too */
  struct ual_pcie_dllp pcie;
  /* PCIe, kind == UAL_REC_PCIE_NF: the packet, a TLP's fields (pcie/nonflit.h) */
  struct ual_pcie_nf nf;
  /* UB, kind == UAL_REC_UB_FLIT */
  struct ual_ub_flit ub;
  /* kind == UAL_REC_EVENT (every fabric) */
  struct ual_event ev;
  struct ual_findings findings;
};

/* Per-capture decoding state of the fabrics: UALink's unpacker and UB's
 * block receiver per direction. Copyable. */
struct ual_decoder {
  struct ual_unpack unpack[2];
  struct ual_ub_rx ub_rx[2];
};

void ual_decoder_init(struct ual_decoder *d);
/* Parses and decodes one record with no state at all: the record header,
 * the flit (or ordered set, or event) and its stateless findings. Nothing is
 * unpacked (out->unpacked = false); which flits reach an unpacker is the
 * caller's decision (ual_decode_record below, or the analyzer's replay
 * tracker). */
void ual_decode_stateless(const uint8_t *buf, size_t len, uint64_t frame, struct ual_rec_result *out);
/* Decodes one record; frame is the 1-based record number. Valid payload
 * flits are fed to the direction's unpacker. */
void ual_decode_record(struct ual_decoder *d, const uint8_t *buf, size_t len, uint64_t frame,
                       struct ual_rec_result *out);
/* The per-capture half of ual_decode_record, for a record whose
 * ual_decode_stateless result is already in *out. */
void ual_decode_stream(struct ual_decoder *d, struct ual_rec_result *out);

/* Name of a record kind that has a decoder ("flit", "ordered set", "link
 * event"), NULL for a kind nobody registered. */
const char *ual_rec_kind_name(unsigned kind);
/* Its short name, the JSON "kind" ("flit", "os", "event"); NULL likewise. */
const char *ual_rec_kind_key(unsigned kind);

#endif
