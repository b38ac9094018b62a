/* --chunk K/N: decode the K-th of N record-aligned parts of a regular pcap
 * file, so that the parts' outputs concatenate into the serial output
 * (scripts/ualink-merge.py). A part owns the records that start in its byte
 * range; it decodes a warm-up of W records before them with no output, so
 * that the trackers are synchronized as they are in a serial decode
 * (docs/architecture.md, "Captures that start mid-stream"), and writes its
 * output for the last V warm-up records to a side file: the merger compares
 * it with the previous part's real output for those records. */
#ifndef UAL_DC_CHUNK_H
#define UAL_DC_CHUNK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dcli.h"
#include "input.h"

#define DC_CHUNK_WARMUP  8192u  /* records: 4 x the 2048-flit history bound */
#define DC_CHUNK_OVERLAP 256u   /* warm-up records verified by the merger */

struct dc_chunk {
  unsigned k, n;
  uint64_t lo, hi;          /* the part's record starts: [lo, hi); hi UINT64_MAX in the last part */
  uint64_t first;           /* the first frame of the part */
  uint64_t warm_from;       /* the first frame decoded */
  uint64_t verify_from;     /* the first warm-up frame written to the side file */
  bool empty;               /* the framing ends before the part: nothing to decode */
  uint64_t first_ts;        /* the capture's first non-zero record time */
  /* the part's last V records: frame and offset of their output on stdout */
  uint64_t *tail_frame, *tail_off;
  size_t tail_cap, tail_n, tail_at;
  char *ov_buf;             /* the warm-up output of [verify_from, first) */
  size_t ov_len;
  FILE *ov_mem, *devnull;
  bool other_fabric;        /* a record of another fabric was decoded */
  char state_start[512];    /* the analysis state before the part's first record (JSON) */
  char state_end[512];      /* and before the next part's first record; "" when the part reads to the end */
};

/* Walks the record headers up to the part, seeks the input to the warm-up's
 * first record and sets c->frame and c->tref. false: msg says why. */
bool dc_chunk_plan(struct dc_chunk *ch, struct dc_ctx *c, struct dc_input *in, char *msg, size_t cap);
/* Before the record at input offset pos: false when it is past the part.
 * Switches the output between the warm-up sinks and stdout. */
bool dc_chunk_before(struct dc_chunk *ch, struct dc_ctx *c, uint64_t pos);
/* After the decode: the end-of-capture output goes to stdout. */
void dc_chunk_done(struct dc_chunk *ch, struct dc_ctx *c);
/* The side file: a JSON line (part, frames, the tail offsets, the overlap's
 * length) and the overlap's bytes. */
bool dc_chunk_write_side(struct dc_chunk *ch, const struct dc_ctx *c, const char *path, char *msg, size_t cap);
void dc_chunk_free(struct dc_chunk *ch);

#endif
