/* Records of an input, read ahead on a second thread when the input is a
 * regular file: reading (libpcap, the kernel's copy) then overlaps with
 * decoding. Everything dc_input_next says, records and problems, comes out
 * of dc_feed_next in the same order. Memory is a fixed ring of chunks. */
#ifndef UAL_DC_FEED_H
#define UAL_DC_FEED_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "input.h"

#define DC_FEED_CHUNKS 4
#define DC_FEED_CHUNK  (512u << 10) /* holds the largest pcap record libpcap reads (256 KiB) */

struct dc_feed_chunk {
  size_t used, at;     /* bytes filled; consumer's read offset */
  uint64_t pos;        /* input position after the chunk (progress) */
  uint8_t buf[DC_FEED_CHUNK];
};

struct dc_feed {
  struct dc_input *in;
  bool threaded;
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t more, room;
  unsigned head, tail, filled; /* ring: consumer at head, producer at tail */
  bool stop;                   /* the consumer wants no more */
  struct dc_feed_chunk *cur;   /* chunk being consumed, or NULL */
  uint64_t pos;
  char msg[sizeof ((struct dc_input *)0)->msg];
  uint32_t wire_len;           /* of the last record */
  uint32_t frac_over;          /* and its dc_input.frac_over */
  struct dc_feed_chunk *chunks;
};

/* Starts reading ahead when the input is a regular file. False when out of
 * memory or the thread cannot start (then it reads in the caller's thread). */
void dc_feed_start(struct dc_feed *f, struct dc_input *in);
/* As dc_input_next; the message of a problem is in f->msg. */
enum dc_next dc_feed_next(struct dc_feed *f, const uint8_t **rec, size_t *len, uint64_t *ts_ns);
uint64_t dc_feed_pos(const struct dc_feed *f);
/* Stops the reader (whatever it has not handed over is dropped). */
void dc_feed_stop(struct dc_feed *f);

#endif
