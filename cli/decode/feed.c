/* Read-ahead of records (feed.h). A chunk holds items: a header, then the
 * record bytes or the message of a problem. */
#include "feed.h"

#include <stdlib.h>
#include <string.h>

struct item {
  uint8_t next;        /* enum dc_next */
  uint32_t len;        /* record bytes, or message bytes */
  uint32_t wire_len;
  uint32_t frac_over;
  uint64_t ts_ns;
};

static size_t item_size(size_t len) { return (sizeof(struct item) + len + 7) & ~(size_t)7; }

/* Waits for a free chunk; NULL when the consumer stopped. */
static struct dc_feed_chunk *take_free(struct dc_feed *f) {
  pthread_mutex_lock(&f->mu);
  while (f->filled == DC_FEED_CHUNKS && !f->stop) pthread_cond_wait(&f->room, &f->mu);
  struct dc_feed_chunk *c = f->stop ? NULL : &f->chunks[f->tail];
  pthread_mutex_unlock(&f->mu);
  if (c) c->used = c->at = 0;
  return c;
}

static void publish(struct dc_feed *f, struct dc_feed_chunk *c) {
  c->pos = dc_input_pos(f->in);
  pthread_mutex_lock(&f->mu);
  f->tail = (f->tail + 1) % DC_FEED_CHUNKS;
  f->filled++;
  pthread_cond_signal(&f->more);
  pthread_mutex_unlock(&f->mu);
}

static void *reader(void *arg) {
  struct dc_feed *f = arg;
  struct dc_feed_chunk *c = take_free(f);
  while (c) {
    const uint8_t *rec = NULL;
    size_t len = 0;
    uint64_t ts = 0;
    enum dc_next nx = dc_input_next(f->in, &rec, &len, &ts);
    const void *body = rec;
    if (nx != DC_NEXT_RECORD) {
      body = f->in->msg;
      len = nx == DC_NEXT_EOF ? 0 : strlen(f->in->msg) + 1;
    }
    if (item_size(len) > DC_FEED_CHUNK) len = DC_FEED_CHUNK - sizeof(struct item); /* libpcap stops at 256 KiB */
    if (c->used + item_size(len) > DC_FEED_CHUNK) {
      publish(f, c);
      if (!(c = take_free(f))) break;
    }
    struct item it = { (uint8_t)nx, (uint32_t)len, f->in->wire_len, f->in->frac_over, ts };
    memcpy(c->buf + c->used, &it, sizeof it);
    memcpy(c->buf + c->used + sizeof it, body, len);
    c->used += item_size(len);
    /* the same ends as the caller's loop: no record comes after these */
    if (nx == DC_NEXT_EOF || nx == DC_NEXT_TRUNC || nx == DC_NEXT_LOST || nx == DC_NEXT_ERROR || nx == DC_NEXT_INTR) {
      publish(f, c);
      break;
    }
  }
  return NULL;
}

void dc_feed_start(struct dc_feed *f, struct dc_input *in) {
  memset(f, 0, sizeof *f);
  f->in = in;
  if (in->is_stdin || !in->size) return; /* pipes: no read-ahead delay */
  if (in->udp_lt >= 0) return;            /* the ualink.udp fields read the datagram the record is in */
  if (in->fb) return;                    /* read in blocks, in place: nothing to read ahead */
  f->chunks = malloc(DC_FEED_CHUNKS * sizeof *f->chunks);
  if (!f->chunks) return;
  pthread_mutex_init(&f->mu, NULL);
  pthread_cond_init(&f->more, NULL);
  pthread_cond_init(&f->room, NULL);
  if (pthread_create(&f->thread, NULL, reader, f) != 0) {
    pthread_mutex_destroy(&f->mu);
    pthread_cond_destroy(&f->more);
    pthread_cond_destroy(&f->room);
    free(f->chunks);
    f->chunks = NULL;
    return;
  }
  f->threaded = true;
}

static void release_cur(struct dc_feed *f) {
  pthread_mutex_lock(&f->mu);
  f->head = (f->head + 1) % DC_FEED_CHUNKS;
  f->filled--;
  pthread_cond_signal(&f->room);
  pthread_mutex_unlock(&f->mu);
  f->cur = NULL;
}

enum dc_next dc_feed_next(struct dc_feed *f, const uint8_t **rec, size_t *len, uint64_t *ts_ns) {
  if (!f->threaded) {
    enum dc_next nx = dc_input_next(f->in, rec, len, ts_ns);
    f->wire_len = f->in->wire_len;
    f->frac_over = f->in->frac_over;
    if (nx != DC_NEXT_RECORD) memcpy(f->msg, f->in->msg, sizeof f->msg);
    return nx;
  }
  if (f->cur && f->cur->at >= f->cur->used) release_cur(f);
  if (!f->cur) {
    pthread_mutex_lock(&f->mu);
    while (f->filled == 0) pthread_cond_wait(&f->more, &f->mu);
    f->cur = &f->chunks[f->head];
    pthread_mutex_unlock(&f->mu);
    f->pos = f->cur->pos;
  }
  struct dc_feed_chunk *c = f->cur;
  struct item it;
  memcpy(&it, c->buf + c->at, sizeof it);
  const uint8_t *body = c->buf + c->at + sizeof it;
  c->at += item_size(it.len);
  f->wire_len = it.wire_len;
  f->frac_over = it.frac_over;
  if (it.next == DC_NEXT_RECORD) {
    *rec = body;
    *len = it.len;
    *ts_ns = it.ts_ns;
  } else if (it.len) {
    memcpy(f->msg, body, it.len < sizeof f->msg ? it.len : sizeof f->msg);
    f->msg[sizeof f->msg - 1] = 0;
  }
  return (enum dc_next)it.next;
}

uint64_t dc_feed_pos(const struct dc_feed *f) { return f->threaded ? f->pos : dc_input_pos(f->in); }

void dc_feed_stop(struct dc_feed *f) {
  if (!f->threaded) return;
  pthread_mutex_lock(&f->mu);
  f->stop = true;
  pthread_cond_signal(&f->room);
  pthread_mutex_unlock(&f->mu);
  pthread_join(f->thread, NULL);
  pthread_mutex_destroy(&f->mu);
  pthread_cond_destroy(&f->more);
  pthread_cond_destroy(&f->room);
  free(f->chunks);
  f->chunks = NULL;
  f->threaded = false;
}
