/* -j N: the input in batches, the stateless half of the decode on N - 1
 * worker threads, everything stateful in order on the main thread (par.h).
 *
 *   workers (any order)                      main thread (batch order)
 *   read + frame a 256 KiB block (pcap file)
 *     or take a batch the main thread read   dc_step() per record, as -j 1:
 *   ual_decode_stateless() of each record      analyzer / --stateless unpacker,
 *     -> compact results (pre.h)               selection, statistics, output
 *
 * Exact by construction: the only work done off the main thread is
 * ual_decode_stateless, a pure function of the record's bytes, and its
 * result is handed to the very code path -j 1 runs (dc_step with pre set).
 * A record a worker could not keep (findings beyond the batch's room) is
 * decoded on the main thread instead, with the same result.
 *
 * Framing a block needs the offset of its first record, which the block
 * before knows: workers frame in block order (a short wait on one counter),
 * then decode in parallel; a single worker (-j 2) frames and decodes in one
 * pass. A record that runs past its block is read whole by the worker of
 * the block it starts in. */
#include "par.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input_file.h"
#include "pre.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#define BLOCK      (256u << 10)           /* file bytes per batch */
#define BUF_BYTES  (BLOCK + DC_FILE_MAX_REC + DC_FILE_MSG)
#define MAX_ITEMS  (BLOCK / DC_FILE_REC_HDR + 1) /* a pcap record takes at least its 16-byte header */
#define MAX_PRE    1024                    /* records decoded by a worker per batch (flit records: 936) */
#define MAX_FV     2048                    /* their findings */
/* Work sharing: a batch the main thread will want next (it runs or waits
 * for the one before) is handed to it undecoded, so the main thread decodes
 * whenever the workers do not keep ahead of it, and nothing else when they
 * do (a busy core, a slow worker: -j N does not fall behind -j 1). */
#define HANDOVER   1
/* UALINK_JOBS_SPLIT=decode or =hand (tests, files only): the workers decode
 * every batch, or hand every one over, so that both paths meet every input
 * whatever the timing. */
enum { SPLIT_TIMED, SPLIT_DECODE, SPLIT_HAND };

enum { B_FREE, B_FILLED, B_BUSY, B_READY };

#define NO_PRE UINT32_MAX

struct item {
  int8_t next;              /* enum dc_next: a record, or a hex line's problem */
  uint32_t at;              /* its stateless decode in the batch's pre, or NO_PRE */
  uint32_t off, len;        /* the record (or message) in buf */
  uint32_t wire_len;
  uint32_t frac_over;
  uint64_t ts_ns;
};
_Static_assert(sizeof(struct item) == 32, "two items fill a line of non-temporal stores");

struct batch {
  int state;
  uint64_t seq;
  size_t n;
  struct item *it;
  size_t used;              /* bytes of pre filled */
  unsigned char *pre;       /* compact results, one after another (pre.h) */
  struct ual_finding *fv;
  size_t nfv;
  int end;                  /* DC_NEXT_RECORD: more batches follow; else how the input ends */
  char msg[DC_FILE_MSG];
  uint64_t pos;             /* input position after the batch (progress) */
  uint8_t *buf;
} __attribute__((aligned(128))); /* a batch's fields off the lines of the batches beside it */

struct par {
  struct dc_input *in;
  bool blocks;              /* workers read and frame the file themselves */
  int split;                /* SPLIT_* */
  unsigned nw, nb;
  pthread_t *th;
  struct batch *b;
  pthread_mutex_t mu;
  pthread_cond_t cv;        /* any change of state */
  bool stop;
  uint64_t next_claim;      /* blocks: the next batch a worker takes */
  uint64_t framed;          /* blocks: batches framed so far */
  uint64_t carry;           /* blocks: where batch `framed` starts in its block; UINT64_MAX past the end */
  uint64_t run_seq;         /* the batch the main thread runs or waits for */
  struct ual_rec_result res[] __attribute__((aligned(128))); /* one per worker; off the lines the threads share */
};

/* Non-temporal stores: the lines go to memory without first being taken
 * from the main thread's cache, where the batch's last use left them. */
static void stream_copy(unsigned char *dst, const unsigned char *src, size_t n) {
#if defined(__x86_64__)
  for (size_t i = 0; i < n; i += 8) {
    long long w;
    memcpy(&w, src + i, 8);
    _mm_stream_si64((long long *)(void *)(dst + i), w);
  }
#else
  memcpy(dst, src, n);
#endif
}

static void plain_copy(unsigned char *dst, const unsigned char *src, size_t n) { memcpy(dst, src, n); }

static void stream_done(void) {
#if defined(__x86_64__)
  _mm_sfence();
#endif
}

/* The stateless decode of record i of b into the next free form: where
 * the form is, or NO_PRE when the main thread is to decode the record. */
static uint32_t decode_one(struct batch *b, size_t i, const struct item *it, struct ual_rec_result *r) {
  if (it->next != DC_NEXT_RECORD || i >= MAX_PRE) return NO_PRE;
  ual_decode_stateless(b->buf + it->off, it->len, 0, r);
  if (b->nfv + r->findings.n > MAX_FV) return NO_PRE;
  _Alignas(8) unsigned char form[DC_PRE_MAX];
  size_t len = dc_pre_store(form, r, b->fv, (uint32_t)b->nfv);
  stream_copy(b->pre + b->used, form, len);
  uint32_t at = (uint32_t)b->used;
  b->used += len;
  b->nfv += r->findings.n;
  return at;
}

/* Stateless decode of a batch framed before (its items' at NO_PRE). */
static void decode_batch(struct batch *b, struct ual_rec_result *r) {
  b->nfv = b->used = 0;
  for (size_t i = 0; i < b->n && i < MAX_PRE; i++) b->it[i].at = decode_one(b, i, &b->it[i], r);
  stream_done(); /* the streamed forms before the batch is handed over */
}

/* Frames the block read into b->buf[0..got) (file offset off) from its
 * first record at start, reading the rest of a record that runs past it.
 * Returns where the next block's first record starts in that block,
 * UINT64_MAX when the input ends in this one. */
static uint64_t frame_block(struct par *P, struct batch *b, uint64_t off, size_t got, uint64_t start,
                            struct ual_rec_result *fuse) {
  /* items final when framed (one worker) cross to the main thread's core with
   * no read of their lines first; items decode_batch completes stay cached */
  void (*put)(unsigned char *, const unsigned char *, size_t) = P->nw == 1 ? stream_copy : plain_copy;
  const struct dc_input *in = P->in;
  bool eof = got < BLOCK;
  if (start >= got) {
    if (!eof) return start - got; /* a record from an earlier block covers this one */
    b->end = DC_NEXT_EOF;
    return UINT64_MAX;
  }
  size_t at = (size_t)start, have = got;
  for (;;) {
    if (have == at && !eof) return 0; /* the last record ends with the block */
    struct dc_frame fr;
    int nx = dc_file_frame(in, b->buf + at, have - at, eof, &fr, b->msg);
    if (nx == DC_NEXT_RECORD) {
      struct item it = { DC_NEXT_RECORD, NO_PRE, (uint32_t)(at + DC_FILE_REC_HDR), (uint32_t)fr.len, fr.wire_len,
                         fr.frac_over, fr.ts_ns };
      if (fuse) it.at = decode_one(b, b->n, &it, fuse);
      put((unsigned char *)&b->it[b->n++], (const unsigned char *)&it, sizeof it);
      at += fr.used;
      if (at >= got) return at - got;
      continue;
    }
    if (nx != DC_FILE_MORE) {
      b->end = nx;
      return UINT64_MAX;
    }
    /* the record runs past the block: read what it still needs after it */
    size_t want = dc_file_need(in, b->buf + at, have - at) - (have - at);
    ssize_t r = dc_file_pread(in, b->buf + have, want, off + have, b->msg);
    if (r < 0) {
      b->end = DC_NEXT_ERROR;
      return UINT64_MAX;
    }
    have += (size_t)r;
    if ((size_t)r < want) eof = true;
  }
}

/* Batch seq is one the main thread runs or waits for the one before (under mu). */
static bool due(const struct par *P, uint64_t seq) { return seq <= P->run_seq + HANDOVER; }

/* blocks: read batch seq's block, frame it after the one before, decode. */
static void fill_block(struct par *P, struct batch *b, struct ual_rec_result *r) {
  uint64_t off = DC_FILE_FIRST + b->seq * (uint64_t)BLOCK;
  char msg[DC_FILE_MSG];
  ssize_t got = dc_file_pread(P->in, b->buf, BLOCK, off, msg);
  pthread_mutex_lock(&P->mu);
  while (P->framed != b->seq && !P->stop) pthread_cond_wait(&P->cv, &P->mu);
  uint64_t start = P->stop ? UINT64_MAX : P->carry;
  /* one worker frames and decodes in one pass over a block the main
   * thread is not about to need (else it frames it and hands it over);
   * more workers frame in turn, then decode in parallel */
  bool fuse = P->nw == 1 && (P->split == SPLIT_DECODE || (P->split == SPLIT_TIMED && !due(P, b->seq)));
  pthread_mutex_unlock(&P->mu);
  b->n = 0;
  b->nfv = b->used = 0;
  b->end = DC_NEXT_RECORD;
  uint64_t next = UINT64_MAX;
  if (start == UINT64_MAX) {
    b->end = DC_NEXT_EOF; /* past the end: the main thread stopped before this one */
  } else if (dc_interrupted) {
    b->end = DC_NEXT_INTR; /* the blocks before are decoded, not this one */
  } else if (got < 0) {
    b->end = DC_NEXT_ERROR;
    memcpy(b->msg, msg, sizeof msg);
  } else {
    next = frame_block(P, b, off, (size_t)got, start, fuse ? r : NULL);
    stream_done(); /* the streamed items before they are published */
  }
  b->pos = off + (got > 0 ? (uint64_t)got : 0);
  pthread_mutex_lock(&P->mu);
  P->carry = next;
  P->framed = b->seq + 1;
  bool give = !fuse && (P->split == SPLIT_HAND || (P->split == SPLIT_TIMED && due(P, b->seq)));
  pthread_cond_broadcast(&P->cv);
  pthread_mutex_unlock(&P->mu);
  if (!fuse && !give) decode_batch(b, r);
}

static void *worker(void *arg) {
  struct par *P = ((void **)arg)[0];
  struct ual_rec_result *r = ((void **)arg)[1];
  free(arg);
  pthread_mutex_lock(&P->mu);
  for (;;) {
    struct batch *b = NULL;
    if (P->stop) break;
    if (P->blocks) {
      struct batch *c = &P->b[P->next_claim % P->nb];
      if (c->state == B_FREE) {
        b = c;
        b->seq = P->next_claim++;
      }
    } else {
      for (unsigned i = 0; i < P->nb && !b; i++)
        if (P->b[i].state == B_FILLED) b = &P->b[i];
    }
    if (!b) {
      pthread_cond_wait(&P->cv, &P->mu);
      continue;
    }
    b->state = B_BUSY;
    pthread_mutex_unlock(&P->mu);
    if (P->blocks) fill_block(P, b, r);
    else decode_batch(b, r);
    pthread_mutex_lock(&P->mu);
    b->state = B_READY;
    pthread_cond_broadcast(&P->cv);
  }
  pthread_mutex_unlock(&P->mu);
  return NULL;
}

/* Not blocks: the main thread reads the next batch from the input. */
static void fill_stream(struct par *P, struct batch *b) {
  struct dc_input *in = P->in;
  size_t used = 0;
  b->n = 0;
  b->end = DC_NEXT_RECORD;
  while (b->n < MAX_ITEMS && used + DC_FILE_MAX_REC + DC_FILE_MSG <= BUF_BYTES) {
    const uint8_t *rec = NULL;
    size_t len = 0;
    uint64_t ts = 0;
    enum dc_next nx = dc_input_next(in, &rec, &len, &ts);
    if (nx == DC_NEXT_RECORD || nx == DC_NEXT_BADLINE) {
      struct item *it = &b->it[b->n++];
      if (nx == DC_NEXT_BADLINE) {
        rec = (const uint8_t *)in->msg;
        len = strlen(in->msg) + 1;
      }
      it->next = (int8_t)nx;
      it->at = NO_PRE;
      it->off = (uint32_t)used;
      it->len = (uint32_t)(nx == DC_NEXT_RECORD ? len : len - 1);
      it->wire_len = in->type == DC_IN_PCAP ? in->wire_len : 0;
      it->frac_over = in->type == DC_IN_PCAP ? in->frac_over : 0;
      it->ts_ns = ts;
      memcpy(b->buf + used, rec, len);
      used += (len + 7) & ~(size_t)7;
      continue;
    }
    b->end = nx;
    memcpy(b->msg, in->msg, sizeof b->msg);
    break;
  }
  b->pos = dc_input_pos(in);
}

static void *xcalloc(size_t n, size_t size, bool *ok) {
  void *p = calloc(n, size);
  if (!p) *ok = false;
  return p;
}

static void par_free(struct par *P) {
  for (unsigned i = 0; i < P->nb && P->b; i++) {
    free(P->b[i].buf);
    free(P->b[i].it);
    free(P->b[i].pre);
    free(P->b[i].fv);
  }
  free(P->b);
  free(P->th);
  pthread_mutex_destroy(&P->mu);
  pthread_cond_destroy(&P->cv);
  free(P);
}

enum { RUN_ON, RUN_STOP, RUN_PEEK };

/* Runs the records of batch b through dc_step. RUN_PEEK: -c or --frames
 * stopped at the batch's last record, and whether the input ended there is
 * the next batch's to say. */
static int run_batch(struct dc_ctx *c, struct batch *b) {
  /* read once: dc_step may not be assumed to leave them alone */
  const size_t n = b->n;
  const struct item *items = b->it;
  const uint8_t *buf = b->buf;
  const unsigned char *pre = b->pre;
  const struct ual_finding *fv = b->fv;
  const bool raw = !c->an.bytes_in_record;
  for (size_t i = 0; i < n; i++) {
    const struct item *it = &items[i];
    const uint8_t *p = buf + it->off;
    bool more;
    if (it->next != DC_NEXT_RECORD) {
      more = dc_step(c, (enum dc_next)it->next, (const char *)p, NULL, 0, 0, 0, 0, false);
    } else {
      bool has = it->at != NO_PRE;
      if (has) dc_pre_load(&c->res, pre + it->at, fv, raw);
      more = dc_step(c, DC_NEXT_RECORD, NULL, p, it->len, it->ts_ns, it->wire_len, it->frac_over, has);
    }
    if (more) continue;
    if (!c->sel_stop) return RUN_STOP;
    /* as -j 1: the input ended if the next thing it gives is its end */
    if (i + 1 < n) return RUN_STOP;
    if (b->end != DC_NEXT_RECORD) {
      c->ended = b->end == DC_NEXT_EOF;
      return RUN_STOP;
    }
    return RUN_PEEK;
  }
  if (b->end != DC_NEXT_RECORD) {
    dc_step(c, (enum dc_next)b->end, b->msg, NULL, 0, 0, 0, 0, false);
    return RUN_STOP;
  }
  dc_par_progress(c, b->pos);
  return RUN_ON;
}

bool dc_par_run(struct dc_ctx *c, struct dc_input *in) {
  unsigned nw = c->o->jobs - 1;
  size_t size = (sizeof(struct par) + nw * sizeof(struct ual_rec_result) + 127) & ~(size_t)127;
  struct par *P = aligned_alloc(128, size);
  if (!P) return false;
  memset(P, 0, size);
  bool ok = true;
  P->in = in;
  P->blocks = in->fb != NULL;
  const char *split = getenv("UALINK_JOBS_SPLIT");
  P->split = !split ? SPLIT_TIMED : !strcmp(split, "decode") ? SPLIT_DECODE : !strcmp(split, "hand") ? SPLIT_HAND : SPLIT_TIMED;
  P->nw = nw;
  P->nb = 2 * nw + 2;
  pthread_mutex_init(&P->mu, NULL);
  pthread_cond_init(&P->cv, NULL);
  P->b = aligned_alloc(128, P->nb * sizeof *P->b);
  if (P->b) memset(P->b, 0, P->nb * sizeof *P->b);
  else ok = false;
  P->th = xcalloc(nw, sizeof *P->th, &ok);
  for (unsigned i = 0; ok && i < P->nb; i++) {
    struct batch *b = &P->b[i];
    b->buf = xcalloc(1, BUF_BYTES, &ok);
    b->it = aligned_alloc(64, (MAX_ITEMS * sizeof *b->it + 63) & ~(size_t)63); /* lines of two items */
    if (!b->it) ok = false;
    b->pre = xcalloc(MAX_PRE, DC_PRE_MAX, &ok);
    b->fv = xcalloc(MAX_FV, sizeof *b->fv, &ok);
  }
  unsigned started = 0;
  for (; ok && started < nw; started++) {
    void **arg = malloc(2 * sizeof *arg);
    if (!arg) break;
    arg[0] = P;
    arg[1] = &P->res[started];
    if (pthread_create(&P->th[started], NULL, worker, arg) != 0) {
      free(arg);
      break;
    }
  }
  if (!ok || started == 0) {
    pthread_mutex_lock(&P->mu);
    P->stop = true;
    pthread_cond_broadcast(&P->cv);
    pthread_mutex_unlock(&P->mu);
    for (unsigned i = 0; i < started; i++) pthread_join(P->th[i], NULL);
    par_free(P);
    return false;
  }

  uint64_t fill_seq = 0;
  bool input_done = false, peek = false;
  for (uint64_t seq = 0;; seq++) {
    struct batch *b = &P->b[seq % P->nb];
    if (!P->blocks) { /* read ahead into every free batch, then wait for the next one in order */
      for (;;) {
        struct batch *f = &P->b[fill_seq % P->nb];
        pthread_mutex_lock(&P->mu);
        bool free_slot = f->state == B_FREE;
        pthread_mutex_unlock(&P->mu);
        if (input_done || !free_slot) break;
        fill_stream(P, f);
        if (f->end != DC_NEXT_RECORD) input_done = true;
        pthread_mutex_lock(&P->mu);
        f->seq = fill_seq++;
        f->state = B_FILLED;
        pthread_cond_broadcast(&P->cv);
        pthread_mutex_unlock(&P->mu);
      }
    }
    pthread_mutex_lock(&P->mu);
    P->run_seq = seq;
    while (!(b->state == B_READY && b->seq == seq)) {
      if (!P->blocks && b->state == B_FILLED && b->seq == seq) { /* no worker has it yet */
        b->state = B_BUSY; /* its items say: not decoded */
        break;
      }
      pthread_cond_wait(&P->cv, &P->mu);
    }
    pthread_mutex_unlock(&P->mu);
    int run = peek ? RUN_PEEK : run_batch(c, b);
    if (peek) { /* the batch after a selection stop: is it the input's end? */
      if (b->n) c->ended = false;
      else if (b->end != DC_NEXT_RECORD) c->ended = b->end == DC_NEXT_EOF;
      else run = RUN_PEEK + 1; /* empty: look further */
      run = run == RUN_PEEK + 1 ? RUN_PEEK : RUN_STOP;
    }
    peek = run == RUN_PEEK;
    pthread_mutex_lock(&P->mu);
    b->state = B_FREE;
    if (run == RUN_STOP) P->stop = true;
    pthread_cond_broadcast(&P->cv);
    pthread_mutex_unlock(&P->mu);
    if (run == RUN_STOP) break;
  }
  for (unsigned i = 0; i < started; i++) pthread_join(P->th[i], NULL);
  par_free(P);
  return true;
}
