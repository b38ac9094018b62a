/* Output sinks of ualink-gen (pcap, UDP, ground truth). */
#ifndef UALGEN_OUTPUT_H
#define UALGEN_OUTPUT_H

#include "gen.h"

#include <pcap/pcap.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/socket.h>

/* Failed sends in a row that end a UDP export. */
#define GEN_UDP_FAIL_RUN 100

struct gen_writer {
  pcap_t *pd;
  pcap_dumper_t *dump;
  bool dump_is_stdout;
  FILE *fp;                   /* the dump's file: records go there in blocks */
  uint8_t *buf;               /* records not yet written */
  size_t used;
  FILE *truth;
  FILE *tlp_truth;            /* --tlp-truth: PCIe requests and completions by frame */
  const char *path, *truth_path, *tlp_truth_path;   /* for messages */
  int werr;                   /* errno of the first failed write to a file, 0 none */
  const char *werr_path;      /* and the file's name */
  int udp_fd;                 /* -1 when not exporting */
  double rate_limit;          /* datagrams per second; 0 = none */
  bool realtime;              /* pace datagrams by the record timestamps */
  struct sockaddr_storage udp_addr;
  socklen_t udp_addrlen;
  char udp_dest[280];         /* HOST[:PORT] as given, for messages */
  uint64_t sent, wall0, ts0;  /* datagrams tried; pacing origin */
  uint64_t udp_failed;        /* datagrams that could not be sent */
  unsigned udp_fail_run;      /* failed in a row */
  int udp_errno;              /* of the last failure */
  uint64_t n_truth;
  bool progress, progress_shown;
  uint64_t t0_ns;
};

int out_pcap_open(struct gen_writer *w, const char *path, char *err, size_t cap);
int out_udp_open(struct gen_writer *w, const char *spec, char *err, size_t cap);
int out_record(void *ctx, uint64_t ts_ns, const uint8_t *rec, size_t len);
void out_truth(void *ctx, uint64_t frame, unsigned dir, int rule, const char *source, const char *note);
void out_progress(void *ctx, uint64_t records, uint64_t ts_ns);
void out_tlp(void *ctx, uint64_t frame, unsigned link, unsigned dir, const uint8_t *dw0);
/* Reports the datagrams that could not be sent; -1 when there were any. */
int out_udp_lost(const struct gen_writer *w);
/* Flushes and closes everything; -1 after any failed write (werr says
 * which file and why for pcap and truth files). */
int out_close(struct gen_writer *w);

#endif
