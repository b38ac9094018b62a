/* Prints the presentation model's counters and state rows of every link
 * of a capture (core/views.h) as JSON lines, for scripts that check them
 * against values computed from ualink-decode --json (pcie_throughput.py).
 * usage: view_counters CAPTURE */
#include <pcap/pcap.h>
#include <stdio.h>
#include <ualink/ualink.h>
#include <ualink/ualink/analysis.h>
#include <ualink/core/views.h>

static void on_counter(void *ctx, const struct ual_view_counter *c) {
  unsigned k = *(const unsigned *)ctx;
  if (c->heading) return;
  printf("{\"link\":%u,\"kind\":\"counter\",\"table\":%u,\"key\":\"%s\",\"label\":\"%s\",\"v\":[%llu,%llu],"
         "\"x\":[%.6f,%.6f]}\n", k, c->table, c->key ? c->key : "", c->label, (unsigned long long)c->v[0],
         (unsigned long long)c->v[1], c->x[0], c->x[1]);
}

static void on_row(void *ctx, const struct ual_view_row *r) {
  unsigned k = *(const unsigned *)ctx;
  printf("{\"link\":%u,\"kind\":\"row\",\"group\":\"%s\",\"label\":\"%s\",\"value\":[\"%s\",\"%s\"]}\n", k,
         r->group ? r->group : "", r->label, r->value[0], r->value[1]);
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  char err[PCAP_ERRBUF_SIZE];
  pcap_t *pc = pcap_open_offline_with_tstamp_precision(argv[1], PCAP_TSTAMP_PRECISION_NANO, err);
  if (!pc) {
    fprintf(stderr, "view_counters: %s\n", err);
    return 2;
  }
  static struct ual_analyzer an;
  static struct ual_view_tally t;
  static struct ual_rec_result r;
  ual_analyzer_init(&an);
  ual_view_tally_init(&t);
  struct pcap_pkthdr *h;
  const u_char *p;
  uint64_t frame = 0;
  while (pcap_next_ex(pc, &h, &p) == 1) {
    uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec;   /* tv_usec holds ns here */
    struct ual_events ev;
    ual_events_init(&ev);
    ual_analyzer_step(&an, p, h->caplen, ++frame, ts, &r, &ev);
    ual_view_tally_add(&t, &r, ts, true);
  }
  pcap_close(pc);
  struct ual_view_src src;
  ual_analyzer_view_src(&an, &t, &src);
  for (unsigned k = 0; k < t.n; k++) {
    ual_view_counters(&src, k, on_counter, &k);
    ual_view_state(&src, k, on_row, &k);
  }
  return 0;
}
