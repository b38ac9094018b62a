/* Where ualink-gen's records go: a nanosecond pcap (file or stdout), UDP
 * datagrams (the export header and one record each), and the ground-truth JSON Lines file. */
#include "output.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ualink/core/udp.h"
#include "ualink/core/fields.h"
#include "ualink/pcie/tlp.h"

#define SNAPLEN 65535
/* Records are collected in one large buffer and written in blocks: pcap_dump
 * would make two stdio writes per record. Their layout is pcap_dump's (a
 * 16-byte header of seconds, nanoseconds, captured and original length in
 * host byte order, then the record); libpcap writes the file header. */
#define OUT_BUF   (1u << 20)
#define PCAP_RHDR 16

int out_pcap_open(struct gen_writer *w, const char *path, char *err, size_t cap) {
  w->pd = pcap_open_dead_with_tstamp_precision(UAL_DLT_USER0, SNAPLEN, PCAP_TSTAMP_PRECISION_NANO);
  if (!w->pd) { snprintf(err, cap, "pcap_open_dead failed"); return -1; }
  w->path = strcmp(path, "-") == 0 ? "standard output" : path;
  if (strcmp(path, "-") == 0) {
    w->dump = pcap_dump_fopen(w->pd, stdout);
  } else {
    w->dump = pcap_dump_open(w->pd, path);
  }
  if (!w->dump) {
    const char *why = pcap_geterr(w->pd);
    size_t n = strlen(path);
    if (!strncmp(why, path, n) && !strncmp(why + n, ": ", 2)) why += n + 2; /* libpcap named the file */
    snprintf(err, cap, "%s: %s", path, why);
    return -1;
  }
  w->fp = pcap_dump_file(w->dump);
  w->buf = malloc(OUT_BUF);
  if (!w->buf) { snprintf(err, cap, "out of memory"); return -1; }
  w->used = 0;
  return 0;
}

/* The first write error and its file, kept for the message. */
static int write_failed(struct gen_writer *w, const char *path) {
  if (!w->werr) {
    w->werr = errno ? errno : EIO;
    w->werr_path = path;
  }
  return -1;
}

static int pcap_flush(struct gen_writer *w) {
  if (w->used && fwrite(w->buf, 1, w->used, w->fp) != w->used) return write_failed(w, w->path);
  w->used = 0;
  return 0;
}

int out_udp_open(struct gen_writer *w, const char *spec, char *err, size_t cap) {
  char host[256];
  const char *port = NULL;
  snprintf(host, sizeof host, "%s", spec);
  char *colon = strrchr(host, ':');
  if (host[0] == '[') {                       /* [v6]:port */
    char *close = strchr(host, ']');
    if (!close) { snprintf(err, cap, "bad --udp address %s", spec); return -1; }
    *close = 0;
    memmove(host, host + 1, strlen(host));
    colon = close[1] == ':' ? close + 1 : NULL;
  } else if (colon && strchr(host, ':') != colon) {
    colon = NULL;                             /* bare IPv6 address */
  }
  char portbuf[16];
  if (colon) { *colon = 0; port = colon + 1; }
  else { snprintf(portbuf, sizeof portbuf, "%u", UAL_UDP_PORT); port = portbuf; }
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  int rc = getaddrinfo(host, port, &hints, &res);
  if (rc != 0) { snprintf(err, cap, "%s: %s", spec, gai_strerror(rc)); return -1; }
  /* Not connected: the kernel reports a remote ICMP error (port unreachable
   * when nothing listens) on a connected socket as the error of the next
   * send, which then drops that datagram. sendto on an unconnected socket
   * never sees them; every datagram goes out. */
  w->udp_fd = socket(res->ai_family, res->ai_socktype, res->ai_protocol);
  if (w->udp_fd < 0) { snprintf(err, cap, "socket: %s", strerror(errno)); freeaddrinfo(res); return -1; }
  memcpy(&w->udp_addr, res->ai_addr, res->ai_addrlen);
  w->udp_addrlen = res->ai_addrlen;
  freeaddrinfo(res);
  snprintf(w->udp_dest, sizeof w->udp_dest, "%s", spec);
  return 0;
}

static uint64_t wall_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t) {
  uint64_t now = wall_ns();
  if (t <= now) return;
  struct timespec d = { (time_t)((t - now) / 1000000000ull), (long)((t - now) % 1000000000ull) };
  nanosleep(&d, NULL);
}

/* Paces datagrams: records per second, or the capture's own timestamps. */
static void udp_pace(struct gen_writer *w, uint64_t ts_ns) {
  uint64_t now = wall_ns();
  if (!w->sent) { w->wall0 = now; w->ts0 = ts_ns; }
  if (w->rate_limit > 0) {
    sleep_until(w->wall0 + (uint64_t)((double)w->sent * 1e9 / w->rate_limit));
  } else if (w->realtime) {
    sleep_until(w->wall0 + (ts_ns - w->ts0));
  }
}

/* One datagram. A full socket buffer (ENOBUFS, EAGAIN) is waited out for a
 * while; a send that still fails is reported (the first one at once), counted
 * and, GEN_UDP_FAIL_RUN failures in a row, ends the run. */
static int udp_send(struct gen_writer *w, const uint8_t *rec, size_t len) {
  int e = 0;
  /* numbered by the datagrams tried: one that could not be sent is a gap the receiver sees */
  uint8_t hdr[UAL_UDP_HDR_BYTES];
  ual_udp_hdr_build((uint32_t)w->sent, hdr);
  struct iovec iov[2] = { { hdr, sizeof hdr }, { (void *)rec, len } };
  struct msghdr mh = { .msg_name = &w->udp_addr, .msg_namelen = w->udp_addrlen, .msg_iov = iov, .msg_iovlen = 2 };
  for (unsigned tries = 0; tries < 200; tries++) {
    if (sendmsg(w->udp_fd, &mh, 0) == (ssize_t)(sizeof hdr + len)) {
      w->sent++;
      w->udp_fail_run = 0;
      return 0;
    }
    e = errno;
    if (e != ENOBUFS && e != EAGAIN && e != EINTR) break;
    struct timespec d = { 0, 100000 };
    nanosleep(&d, NULL);
  }
  w->sent++;
  w->udp_failed++;
  w->udp_errno = e;
  if (w->udp_failed == 1)
    fprintf(stderr, "ualink-gen: udp: %s: datagram %llu not sent: %s (every failed send is counted)\n", w->udp_dest,
            (unsigned long long)w->sent, strerror(e));
  if (++w->udp_fail_run >= GEN_UDP_FAIL_RUN) {
    fprintf(stderr, "ualink-gen: udp: %s: %u sends in a row failed (%s), giving up\n", w->udp_dest,
            GEN_UDP_FAIL_RUN, strerror(e));
    return -1;
  }
  return 0;
}

int out_udp_lost(const struct gen_writer *w) {
  if (w->udp_fd < 0 || !w->udp_failed) return 0;
  fprintf(stderr, "ualink-gen: udp: %s: %llu of %llu datagrams not sent (last error: %s)\n", w->udp_dest,
          (unsigned long long)w->udp_failed, (unsigned long long)w->sent, strerror(w->udp_errno));
  return -1;
}

int out_record(void *ctx, uint64_t ts_ns, const uint8_t *rec, size_t len) {
  struct gen_writer *w = ctx;
  if (w->dump) {
    if (w->used + PCAP_RHDR + len > OUT_BUF && pcap_flush(w) != 0) return -1;
    /* nanoseconds in the second field: the pcap is nano-precision */
    uint32_t h[4] = { (uint32_t)(ts_ns / 1000000000ull), (uint32_t)(ts_ns % 1000000000ull), (uint32_t)len,
                      (uint32_t)len };
    memcpy(w->buf + w->used, h, PCAP_RHDR);
    memcpy(w->buf + w->used + PCAP_RHDR, rec, len);
    w->used += PCAP_RHDR + len;
    if (w->udp_fd >= 0 && pcap_flush(w) != 0) return -1;   /* paced: the file keeps up with the datagrams */
  }
  if (w->udp_fd >= 0) {
    udp_pace(w, ts_ns);
    if (udp_send(w, rec, len) != 0) return -1;
  }
  return 0;
}

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

void out_truth(void *ctx, uint64_t frame, unsigned dir, int rule, const char *source, const char *note) {
  struct gen_writer *w = ctx;
  w->n_truth++;
  if (!w->truth) return;
  fprintf(w->truth, "{\"frame\": %llu, \"dir\": \"%s\", \"rule\": \"%s\", \"severity\": \"%s\", \"source\": ",
          (unsigned long long)frame, dir ? "B>A" : "A>B", ual_rule_id((enum ual_rule)rule),
          ual_severity_name(ual_rule_severity((enum ual_rule)rule)));
  json_str(w->truth, source);
  fputs(", \"note\": ", w->truth);
  json_str(w->truth, note);
  fputs("}\n", w->truth);
}

/* {"frame", "link", "dir", "type", "cpl", "rid", "tag", "last"}: a request's
 * Requester ID and Tag, a completion's Destination BDF and Tag; last: the
 * completion that finishes its request (no data, or a Byte Count its
 * payload covers). */
void out_tlp(void *ctx, uint64_t frame, unsigned link, unsigned dir, const uint8_t *dw0) {
  struct gen_writer *w = ctx;
  if (!w->tlp_truth) return;
  const struct ual_pcie_tlp_type *ty = ual_pcie_tlp_type(dw0[0]);
  bool cpl = ty->hdr == UAL_TLP_H_CPL;
  unsigned rid = (unsigned)ual_field_get(cpl ? UAL_F_PCIE_CPL_DEST : UAL_F_PCIE_REQ_RID, dw0);
  unsigned tag = (unsigned)ual_field_get(cpl ? UAL_F_PCIE_CPL_TAG : UAL_F_PCIE_REQ_TAG, dw0);
  unsigned len = (unsigned)ual_field_get(UAL_F_PCIE_TLP_LENGTH, dw0), bc = cpl ? (unsigned)ual_field_get(UAL_F_PCIE_CPL_BC, dw0) : 0;
  bool last = cpl && (!ty->data || bc <= 4u * (len ? len : 1024u));
  fprintf(w->tlp_truth, "{\"frame\": %llu, \"link\": %u, \"dir\": \"%s\", \"type\": ", (unsigned long long)frame, link,
          dir ? "B>A" : "A>B");
  json_str(w->tlp_truth, ty->name ? ty->name : "?");
  fprintf(w->tlp_truth, ", \"cpl\": %s, \"rid\": %u, \"tag\": %u, \"last\": %s}\n", cpl ? "true" : "false", rid, tag,
          last ? "true" : "false");
}

void out_progress(void *ctx, uint64_t records, uint64_t ts_ns) {
  struct gen_writer *w = ctx;
  if (!w->progress) return;
  fprintf(stderr, "\r%llu records, %.3f us of link time", (unsigned long long)records,
          (double)(ts_ns - w->t0_ns) / 1e3);
  fflush(stderr);
  w->progress_shown = true;
}

int out_close(struct gen_writer *w) {
  int rc = 0;
  if (w->progress_shown) fputc('\n', stderr);
  if (w->dump) {
    if (pcap_flush(w) != 0) rc = -1;
    errno = 0;
    if (pcap_dump_flush(w->dump) != 0 || ferror(w->fp)) rc = write_failed(w, w->path);
    if (w->dump_is_stdout) {
      if (fflush(stdout) != 0) rc = write_failed(w, w->path);
      pcap_dump_close(w->dump);
    } else {
      /* pcap_dump_close fcloses the file without a word: flushed above */
      pcap_dump_close(w->dump);
    }
  }
  if (w->pd) pcap_close(w->pd);
  if (w->truth) {
    errno = 0;
    bool bad = ferror(w->truth);
    if (fclose(w->truth) != 0 || bad) rc = write_failed(w, w->truth_path);
  }
  if (w->tlp_truth) {
    errno = 0;
    bool bad = ferror(w->tlp_truth);
    if (fclose(w->tlp_truth) != 0 || bad) rc = write_failed(w, w->tlp_truth_path);
  }
  if (w->udp_fd >= 0) close(w->udp_fd);
  free(w->buf);
  return rc;
}
