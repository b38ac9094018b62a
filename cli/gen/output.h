/* Output sinks of ualink-gen (pcap, UDP, ground truth). */
#ifndef UALGEN_OUTPUT_H
#define UALGEN_OUTPUT_H

#include "gen.h"

#include <pcap/pcap.h>
#include <stdbool.h>
#include <stdio.h>

struct gen_writer {
  pcap_t *pd;
  pcap_dumper_t *dump;
  bool dump_is_stdout;
  FILE *fp;                   /* the dump's file: records go there in blocks */
  uint8_t *buf;               /* records not yet written */
  size_t used;
  FILE *truth;
  int udp_fd;                 /* -1 when not exporting */
  double rate_limit;          /* datagrams per second; 0 = none */
  bool realtime;              /* pace datagrams by the record timestamps */
  uint64_t sent, wall0, ts0;
  uint64_t n_truth;
  bool progress, progress_shown;
  uint64_t t0_ns;
};

int out_pcap_open(struct gen_writer *w, const char *path, char *err, size_t cap);
int out_udp_open(struct gen_writer *w, const char *spec, char *err, size_t cap);
int out_record(void *ctx, uint64_t ts_ns, const uint8_t *rec, size_t len);
void out_truth(void *ctx, uint64_t frame, unsigned dir, int rule, const char *source, const char *note);
void out_progress(void *ctx, uint64_t records, uint64_t ts_ns);
int out_close(struct gen_writer *w);

#endif
