/* Inputs of ualink-decode: pcap files (input_file.c), other pcap and pcapng
 * input through libpcap, raw flits (256-byte UALink or 20-byte UB,
 * --raw-kind) and hex text. Raw and hex flits are wrapped into capture records so that
 * everything decodes through the same path. */
#ifndef UAL_DC_INPUT_H
#define UAL_DC_INPUT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dcli.h"
#include "ualink/core/udp.h"

enum dc_next {
  DC_NEXT_RECORD,   /* a record is available */
  DC_NEXT_EOF,
  DC_NEXT_TRUNC,    /* the last record is cut short: msg says how; no record */
  DC_NEXT_LOST,     /* pcap: a record header libpcap refuses; the rest cannot be framed (msg) */
  DC_NEXT_BADLINE,  /* hex: an unusable line (msg), go on reading */
  DC_NEXT_SKIP,     /* a UDP capture's frame that holds no record: counts as a frame, go on */
  DC_NEXT_ERROR,    /* read error: msg */
  DC_NEXT_INTR      /* dc_interrupted is set: reading stops, as at an end that is not the input's */
};

/* The number of the signal (SIGINT, SIGTERM) that asks reading to stop, else
 * 0; main.c's handler sets it. A read the signal cut short ends as
 * DC_NEXT_INTR, not as a read error. */
extern volatile sig_atomic_t dc_interrupted;

struct dc_lpcap;

struct dc_input {
  const char *name;             /* for messages: the path, or "-" */
  enum dc_input_type type;
  void *pcap;                   /* pcap_t *, when libpcap reads the input */
  const struct dc_lpcap *lp;    /* and its functions (lpcap.h) */
  struct dc_file *fb;           /* a regular pcap file read in blocks (input_file.c), else NULL */
  FILE *fp;
  bool is_stdin;
  int dir;                      /* raw/hex default direction */
  unsigned kind;                /* raw/hex: the record kind of the flits */
  unsigned flit_bytes;          /* raw/hex: bytes of one flit (256 UALink, 20 UB) */
  uint64_t line;                /* hex: current line number */
  char *linebuf;
  size_t linecap;
  uint64_t size;                /* input size in bytes when known, else 0 */
  uint8_t rec[UAL_REC_HDR_BYTES + UAL_FLIT_BYTES];
  uint32_t wire_len;            /* pcap: original length of the last record */
  uint32_t frac_over;           /* pcap: the last record's fraction when a microsecond file's is above 999999, else 0 */
  int8_t usec_file;             /* libpcap: the file has the microsecond magic (1, 0; -1 a stream: unknown) */
  int udp_lt;                   /* a capture of the UDP export: its link type, else -1 */
  unsigned udp_port;            /* and the export's port */
  struct ual_udp_rx udp_rx;     /* the export's sequence: what was lost */
  uint8_t udp_rec[65536];       /* a record passed on with UAL_RF_LOST set */
  /* the last record's datagram: its export header (NULL: it has none),
   * and the datagrams found missing before it (lost_mark: it follows
   * lost ones), for the ualink.udp fields */
  const uint8_t *udp_hdr;
  uint8_t udp_hlen;
  bool udp_lost_mark;
  uint64_t udp_lost;
  bool arrival_times;           /* times are when records arrived, not link time */
  char msg[320];
};

/* Opens the input; on failure returns false with a message in in->msg. */
bool dc_input_open(struct dc_input *in, const struct dc_opts *o);
/* Next record: *rec points into the input's buffers until the next call. */
enum dc_next dc_input_next(struct dc_input *in, const uint8_t **rec, size_t *len, uint64_t *ts_ns);
/* Bytes consumed so far (for progress), 0 when unknown. */
uint64_t dc_input_pos(const struct dc_input *in);
void dc_input_close(struct dc_input *in);

/* udp_input.c: a capture of the UDP export (Ethernet, Linux cooked, raw IP
 * frames): true when link type dlt can carry it. */
bool dc_udp_input_accepts(int dlt);
/* The record in a captured frame; false when the frame holds none (another
 * protocol, port or a fragment). *wire_len becomes the record's. The
 * export's sequence numbers are followed in in->udp_rx: the first record of
 * a direction after lost datagrams comes with UAL_RF_LOST set. */
bool dc_udp_unwrap(struct dc_input *in, const uint8_t **rec, size_t *len, uint32_t *wire_len);

#endif
