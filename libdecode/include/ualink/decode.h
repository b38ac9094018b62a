/* One record in, everything decodable out: the record header, the flit (or
 * ordered set, or link event), the unpacked TL flits and DL messages, and
 * all findings. Front-ends call this; they hold no protocol logic. */
#ifndef UALINK_DECODE_H
#define UALINK_DECODE_H

#include "record.h"
#include "flit.h"
#include "pack.h"
#include "os.h"
#include "rules.h"

struct ual_rec_result {
  uint64_t frame;
  enum ual_rec_status status;   /* OK or RESERVED: decoded; others: malformed */
  struct ual_record rec;
  uint8_t dir;                  /* 0 = A>B, 1 = B>A */
  /* kind == UAL_REC_FLIT */
  struct ual_flit_info flit;
  bool unpacked;                /* the flit went through the unpacker */
  struct ual_unpack_out unp;
  /* kind == UAL_REC_OS */
  struct ual_os os;
  /* kind == UAL_REC_EVENT */
  struct ual_event ev;
  struct ual_findings findings;
};

/* Per-capture decoding state: one unpacker per direction. Copyable. */
struct ual_decoder {
  struct ual_unpack unpack[2];
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

#endif
