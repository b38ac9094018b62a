/* How fast a live UDP export the TUI keeps up with: the TUI's own capture
 * source (libpcap on lo, BPF on the port) and model (the analyzer per record,
 * the ring, the counters) on their thread, a redraw-like reader taking the
 * model lock every 100 ms, and a sender on 127.0.0.1 at rising rates. For
 * each rate it prints records sent, received and the drops libpcap reports.
 * Needs capture rights (root). usage: bench_tui_live [PORT] [SECONDS] */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "model.h"
#include "source.h"

#define NREC 4096

struct bench {
  struct tui_model model;
  pthread_mutex_t lock;
  struct tui_source src;
  volatile uint64_t received;
  volatile int stop_reader;
};

static void on_record(void *ctx, const uint8_t *rec, size_t len, uint64_t ts) {
  struct bench *b = ctx;
  pthread_mutex_lock(&b->lock);
  tui_model_add(&b->model, rec, len, ts, 0);
  b->received++;
  pthread_mutex_unlock(&b->lock);
}

static void *source_thread(void *arg) {
  tui_source_run(&((struct bench *)arg)->src);
  return NULL;
}

static void *reader_thread(void *arg) {
  struct bench *b = arg;
  while (!b->stop_reader) {
    pthread_mutex_lock(&b->lock);
    size_t n = tui_model_count(&b->model);
    volatile uint64_t sum = 0;
    for (size_t i = n > 50 ? n - 50 : 0; i < n; i++) sum += tui_model_at(&b->model, i)->frame;
    pthread_mutex_unlock(&b->lock);
    usleep(100000);
  }
  return NULL;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  int port = argc > 1 ? atoi(argv[1]) : 27762;
  double secs = argc > 2 ? atof(argv[2]) : 2.0;
  static uint8_t recs[NREC][TUI_REC_MAX];
  static size_t lens[NREC];
  struct ual_pack pk[2];
  ual_pack_init(&pk[0]);
  ual_pack_init(&pk[1]);
  uint8_t tl[64];
  for (int i = 0; i < NREC; i++) {
    unsigned d = (unsigned)i & 1;
    while (ual_pack_tl_queued(&pk[d]) < 4) {
      for (int k = 0; k < 64; k++) tl[k] = (uint8_t)(i + k);
      ual_pack_push_tl(&pk[d], tl, 0, 0);
    }
    uint8_t flit[UAL_FLIT_BYTES];
    struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, (uint16_t)(1 + (i / 2) % 1023) };
    ual_pack_flit(&pk[d], &fh, true, flit);
    struct ual_rec_hdr h;
    ual_rec_hdr_init(&h, UAL_REC_FLIT, d);
    h.rate = 7;
    h.width = 8;
    lens[i] = ual_record_build(&h, flit, UAL_FLIT_BYTES, recs[i], TUI_REC_MAX);
  }

  int fd = socket(AF_INET, SOCK_DGRAM, 0);
  struct sockaddr_in to = { 0 };
  to.sin_family = AF_INET;
  to.sin_port = htons((uint16_t)port);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

  printf("bench_tui_live: UDP export on lo port %d, %.1f s per rate, records of %zu bytes\n", port, secs, lens[0]);
  printf("%12s %12s %12s %12s %10s\n", "offered/s", "sent", "received", "pcap drops", "kept up");
  static const unsigned rates[] = { 25000, 50000, 100000, 200000, 400000, 800000 };
  unsigned best = 0;
  for (size_t ri = 0; ri < sizeof rates / sizeof rates[0]; ri++) {
    static struct bench b;
    memset(&b, 0, sizeof b);
    if (!tui_model_init(&b.model, 200000)) return 2;
    pthread_mutex_init(&b.lock, NULL);
    b.src.kind = TUI_SRC_LIVE;
    b.src.path = "lo";
    b.src.port = port;
    b.src.dlt = UAL_DLT_USER0;
    b.src.cb = on_record;
    b.src.ctx = &b;
    if (!tui_source_open(&b.src)) {
      fprintf(stderr, "bench_tui_live: %s\n", b.src.error);
      return 2;
    }
    pthread_t st, rt;
    pthread_create(&st, NULL, source_thread, &b);
    pthread_create(&rt, NULL, reader_thread, &b);
    usleep(200000);
    uint64_t sent = 0;
    double t0 = now(), t;
    while ((t = now() - t0) < secs) {
      uint64_t due = (uint64_t)(t * rates[ri]);
      while (sent < due) {
        size_t i = sent % NREC;
        if (sendto(fd, recs[i], lens[i], 0, (struct sockaddr *)&to, sizeof to) < 0) break;
        sent++;
      }
    }
    usleep(500000);
    b.src.stop = true;
    pthread_join(st, NULL);
    b.stop_reader = 1;
    pthread_join(rt, NULL);
    tui_source_close(&b.src);
    bool ok = b.received == sent && b.src.kernel_drops == 0;
    if (ok) best = rates[ri];
    printf("%12u %12llu %12llu %12llu %10s\n", rates[ri], (unsigned long long)sent,
           (unsigned long long)b.received, (unsigned long long)b.src.kernel_drops, ok ? "yes" : "no");
    tui_model_free(&b.model);
    if (!ok) break;
  }
  close(fd);
  printf("highest rate kept up with, no drops: %u records/s\n", best);
  return 0;
}
