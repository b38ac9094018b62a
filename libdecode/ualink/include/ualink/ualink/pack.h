/* TL flit packing and unpacking (digest §2.4, §2.3.5). Streaming, with
 * carry-over across segments and flits; fixed-size state, no allocation. */
#ifndef UALINK_UALINK_PACK_H
#define UALINK_UALINK_PACK_H

#include <stdint.h>
#include <stdbool.h>
#include "ualink/ualink/flit.h"
#include "ualink/ualink/dlmsg.h"
#include "ualink/core/rules.h"

/* A complete 64-byte TL flit. */
struct ual_tl_flit {
  uint8_t data[UAL_TL_FLIT_BYTES];
  uint8_t m0, m1;
  uint8_t start_segment;
  uint64_t start_frame;
};

/* A complete DL message: one DWord, or a UART Stream Transport with its payload. */
struct ual_dl_item {
  struct ual_dlmsg msg;
  uint64_t start_frame;
  uint8_t segment;                      /* where the first DWord sits */
  uint8_t n_payload;                    /* UART transport payload DWords present */
  uint32_t payload[UAL_UART_MAX_PAYLOAD];
};

/* What a segment's alternate sector held. */
/* UAL_ALT_UNSYNCED: a DWord of a stream whose start was not captured: a
 * message or the payload of a transport begun earlier, not yet known which. */
enum ual_alt_role { UAL_ALT_NONE = 0, UAL_ALT_MESSAGE = 1, UAL_ALT_UART_PAYLOAD = 2, UAL_ALT_UNSYNCED = 3 };

/* Upper bounds per flit: 59 sectors hold at most 4 TL flit ends and 4 alt sectors. */
#define UAL_MAX_TL_PER_FLIT  4
#define UAL_MAX_MSG_PER_FLIT 4

struct ual_unpack_out {
  uint8_t n_tl, n_msg;
  struct ual_tl_flit tl[UAL_MAX_TL_PER_FLIT];
  struct ual_dl_item msg[UAL_MAX_MSG_PER_FLIT];
  uint8_t tl_started;                   /* TL flits that began in this flit */
  uint8_t tl_owed;                      /* sectors still owed by the carry-over after this flit */
  int8_t uart_open;                     /* payload DWords a transport still owes, or -1 */
  uint8_t alt_role[UAL_SEGMENTS];       /* enum ual_alt_role of each segment's first sector */
  uint8_t partial_sectors;              /* non-zero TL sectors skipped: TL flits begun before the capture */
  int8_t tl_synced_at, msg_synced_at;   /* segment where that part of the stream became known in
                                           this flit, or -1 */
};

struct ual_unpack {
  uint8_t tl[UAL_TL_FLIT_BYTES];
  uint8_t tl_have;                      /* sectors of the current TL flit received; 0 = none open */
  uint8_t m0, m1, tl_seg;
  uint64_t tl_frame;
  struct ual_dl_item uart;              /* transport being assembled */
  uint8_t uart_need;                    /* payload DWords still to come; 0 = none open */
  /* A stream whose start was not captured (ual_unpack_init_midstream).
   * tl_cands: the carry-overs into the next segment still possible, bit c
   * = "c sectors of a TL flit are still owed" (c = 0..15) with every rule
   * kept, bit 16 + c = the same with one packing rule broken since the
   * capture began; 0 once the TL flit boundaries are known. tl_lost: the open TL flit began before they
   * were known; its sectors are skipped and it is not delivered. msg_owed:
   * the readings of the alternate sectors still possible, bit h = "h
   * payload DWords of a transport are still owed" (h = 0..32); 0 once the
   * message stream is known. */
  uint32_t tl_cands;
  uint8_t tl_lost;
  uint64_t msg_owed;
};

/* A stream from its start (link up): nothing carried over. */
void ual_unpack_init(struct ual_unpack *u);
/* A stream joined in the middle (capture start, lost records). TL flit
 * boundaries are known once the segment sizes and TL starts leave one
 * candidate carry-over (a start needs an unallocated sector, a segment
 * without one ends every carry-over it has room for, unless that leaves
 * non-zero fill); TL sectors before are skipped (partial_sectors), and a TL
 * flit still open then is taken from the segment that started it, or
 * skipped to its end when it began earlier (tl_lost). DL
 * messages are known after the first segment without an alternate sector (a
 * transport fills consecutive segments, spec §2.4.1.2), or once every
 * reading of the alternate sectors agrees that the next one is a header;
 * alternate sectors before are UAL_ALT_UNSYNCED and raise nothing. */
void ual_unpack_init_midstream(struct ual_unpack *u);
/* Both boundaries known. */
bool ual_unpack_synced(const struct ual_unpack *u);
/* Feeds one valid payload flit (bytes after FEC correction, header already
 * known to be payload). Raises DL-TL-NO-ROOM, DL-ZERO-FILL and the stateless
 * DL message checks. */
void ual_unpack_flit(struct ual_unpack *u, const uint8_t *flit, uint64_t frame,
                     struct ual_unpack_out *out, struct ual_findings *f);
/* The same for a caller that never reads the TL flits' bytes: out->tl[i].data
 * is left as it was, everything else is as ual_unpack_flit gives it (no
 * bytes are copied, staged ones neither: a stream stays with one form). */
void ual_unpack_flit_nobytes(struct ual_unpack *u, const uint8_t *flit, uint64_t frame,
                             struct ual_unpack_out *out, struct ual_findings *f);
/* Either of the two, with the flit's view (ual_flit_view) already made, as
 * the flit decode makes it (ual_flit_info.view). */
void ual_unpack_flit_viewed(struct ual_unpack *u, const struct ual_flit_view *v, const uint8_t *flit, bool tl_bytes,
                            uint64_t frame, struct ual_unpack_out *out, struct ual_findings *f);
/* True when a TL flit or UART transport is partly received. */
bool ual_unpack_partial(const struct ual_unpack *u);

/* Packer: queue TL flits and DL messages, then take payload flits. */
#define UAL_PACK_TL_QUEUE   16
#define UAL_PACK_MSG_QUEUE  128   /* DWords */

struct ual_pack {
  uint8_t tlq[UAL_PACK_TL_QUEUE][UAL_TL_FLIT_BYTES];
  uint8_t tlq_m[UAL_PACK_TL_QUEUE];    /* m0 | m1 << 1 */
  unsigned tl_head, tl_count;
  uint32_t msgq[UAL_PACK_MSG_QUEUE];
  unsigned msg_head, msg_count;
  uint8_t tl_sent;                      /* sectors of the carry-over already sent; 0 = none */
  uint8_t uart_left;                    /* transport DWords still to place (one per segment) */
  uint8_t alt_gap;                      /* segments (bit k = SHk) of the next flit left without an
                                           alternate sector although messages are queued; cleared
                                           by ual_pack_flit. Within a UART Stream Transport that
                                           breaks DM-UART-INTERLEAVE: for making violations only */
};

void ual_pack_init(struct ual_pack *p);
/* Returns false when the queue is full. */
bool ual_pack_push_tl(struct ual_pack *p, const uint8_t data[UAL_TL_FLIT_BYTES],
                      unsigned m0, unsigned m1);
/* The same without the copy, for a source that builds TL flits anyway: the
 * queue slot of the next TL flit (NULL when the queue is full), written in
 * place, then queued by ual_pack_push_tl_slot. */
uint8_t *ual_pack_tl_slot(struct ual_pack *p);
void ual_pack_push_tl_slot(struct ual_pack *p, unsigned m0, unsigned m1);
/* A message of n DWords: 1, or a UART Stream Transport header plus Length+1
 * payload DWords. Returns false when it does not fit or n does not match
 * dw[0] (a transport header needs n = Length + 2, anything else n = 1). */
bool ual_pack_push_msg(struct ual_pack *p, const uint32_t *dw, unsigned n);
/* TL flits in the queue (including one partly sent); DL message DWords not yet placed. */
unsigned ual_pack_tl_queued(const struct ual_pack *p);
unsigned ual_pack_msg_queued(const struct ual_pack *p);
/* True when a TL flit is partly sent (carry-over pending). */
bool ual_pack_busy(const struct ual_pack *p);
/* Builds one payload flit with header fh (usage forced to payload), sealed.
 * tl_allowed = false keeps new TL flits from starting (channel 0 offline;
 * a carry-over in progress still completes). */
void ual_pack_flit(struct ual_pack *p, const struct ual_fh *fh, bool tl_allowed,
                   uint8_t *flit);

#endif
