/* TUI record sources (source.h). */
#include "source.h"

#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <poll.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ualink/core/pcapfile.h"
#include "ualink/core/record.h"
#include "ualink/core/udp.h"

/* Minimal pcap reader for -F: libpcap cannot resume after a partial record
 * at the end of a file that is still being written. */
struct follow {
  FILE *f;
  bool swapped, nano;
  long pos;
  uint64_t frame;
};

/* The first record whose microsecond fraction is above 999999, said once
 * (tui_source.note). */
static void frac_note(struct tui_source *s, uint64_t frame, uint32_t frac, int64_t read_us) {
  if (!frac || s->note_set) return;
  int n = snprintf(s->note, sizeof s->note, "frame %" PRIu64 ": ", frame);
  ual_pcap_frac_note(s->note + n, sizeof s->note - (size_t)n, frac, read_us);
  __atomic_store_n(&s->note_set, true, __ATOMIC_RELEASE);
}

/* A file of link-layer frames around the UDP export: its records are unwrapped. */
static bool accept_udp(struct tui_source *s, int linktype) {
  if (!ual_udp_linktype(linktype)) return false;
  ual_udp_rx_init(&s->udp_rx);
  s->udp = true;
  s->udp_lt = linktype;
  return true;
}

/* Hands one datagram of the export on: the record in it, marked when
 * datagrams were lost before it. */
static void deliver_dgram(struct tui_source *s, const uint8_t *dg, size_t n, uint64_t ts_ns) {
  size_t len;
  bool lost;
  const uint8_t *rec = ual_udp_rx_step(&s->udp_rx, dg, n, &len, &lost);
  if (lost) rec = ual_udp_mark_lost(rec, len, s->lost_rec, sizeof s->lost_rec);
  s->cb(s->ctx, rec, len, ts_ns);
}

/* Hands one captured packet on: as it is, or the record in its UDP datagram. */
static void deliver(struct tui_source *s, const uint8_t *p, size_t n, uint64_t ts_ns) {
  if (s->udp) {
    size_t len;
    const uint8_t *dg = ual_udp_payload(s->udp_lt, p, n, (unsigned)s->port, &len);
    if (dg) deliver_dgram(s, dg, len, ts_ns);
    return;
  }
  s->cb(s->ctx, p, n, ts_ns);
}

/* Reads the file header. With wait, a file shorter than the header is not
 * an error: -F waits for the writer as tail -F would (false, error empty). */
static bool follow_header(struct tui_source *s, struct follow *fw, bool wait) {
  uint8_t gh[UAL_PCAP_FILE_HDR];
  fseek(fw->f, 0, SEEK_SET);
  size_t got = fread(gh, 1, sizeof gh, fw->f);
  if (got != sizeof gh) {
    clearerr(fw->f);
    if (wait) return false;
    snprintf(s->error, sizeof s->error, "%s: %s", s->path, got ? "not a pcap file (too short)" : "empty file");
    return false;
  }
  struct ual_pcap_file pf;
  if (!ual_pcap_file_parse(gh, &pf)) {
    uint32_t magic;
    memcpy(&magic, gh, sizeof magic);
    snprintf(s->error, sizeof s->error, "%s: -F follows pcap files only (bad magic %08x)", s->path, magic);
    return false;
  }
  fw->swapped = pf.swapped;
  fw->nano = pf.nsec;
  uint32_t dlt = pf.linktype & 0x0FFFFFFF;
  if ((int)dlt != s->dlt && !accept_udp(s, (int)dlt)) {
    snprintf(s->error, sizeof s->error, "%s: link type %u, expected %d (use --dlt) or a capture of the UDP export",
             s->path, dlt, s->dlt);
    return false;
  }
  fw->pos = UAL_PCAP_FILE_HDR;
  s->header_pending = false;
  return true;
}

static void follow_run(struct tui_source *s, struct follow *fw) {
  uint8_t buf[65536];
  while (s->header_pending && !s->stop) {
    if (follow_header(s, fw, true)) break;
    if (s->error[0]) return;
    usleep(100000);
  }
  while (!s->stop) {
    uint8_t rh[UAL_PCAP_REC_HDR];
    fseek(fw->f, fw->pos, SEEK_SET);
    if (fread(rh, 1, sizeof rh, fw->f) != sizeof rh) { clearerr(fw->f); usleep(100000); continue; }
    struct ual_pcap_rec h;
    ual_pcap_rec_parse(rh, fw->swapped, &h);
    uint32_t caplen = h.caplen;
    if (caplen > sizeof buf) {
      snprintf(s->error, sizeof s->error, "%s: record with length %u, giving up", s->path, caplen);
      return;
    }
    if (fread(buf, 1, caplen, fw->f) != caplen) { clearerr(fw->f); usleep(100000); continue; }
    fw->frame++;
    if (ual_pcap_frac_over(h.frac, fw->nano)) frac_note(s, fw->frame, h.frac, h.frac);
    deliver(s, buf, caplen, ual_pcap_rec_ns(&h, fw->nano));
    fw->pos += UAL_PCAP_REC_HDR + (long)caplen;
  }
}

const uint8_t *tui_udp_payload(int dlt, const uint8_t *p, size_t n, int port, size_t *len) {
  return ual_udp_payload(dlt, p, n, (unsigned)port, len);
}

static bool open_pcap(struct tui_source *s) {
  char eb[PCAP_ERRBUF_SIZE] = "";
  pcap_t *p = NULL;
  if (s->kind == TUI_SRC_STDIN)
    p = pcap_fopen_offline_with_tstamp_precision(stdin, PCAP_TSTAMP_PRECISION_NANO, eb);
  else
    p = pcap_open_offline_with_tstamp_precision(s->path, PCAP_TSTAMP_PRECISION_NANO, eb);
  if (!p) {
    const char *name = s->kind == TUI_SRC_STDIN ? "stdin" : s->path;
    size_t nl = strlen(name);
    const char *why = eb;
    if (strncmp(eb, name, nl) == 0 && eb[nl] == ':' && eb[nl + 1] == ' ') why = eb + nl + 2; /* libpcap named it */
    if (strstr(why, "file header bytes, only got 0")) why = "empty file";
    snprintf(s->error, sizeof s->error, "%s: %s", name, why);
    return false;
  }
  if (pcap_datalink(p) != s->dlt && !accept_udp(s, pcap_datalink(p))) {
    snprintf(s->error, sizeof s->error, "%s: link type %d, expected %d (use --dlt) or a capture of the UDP export",
             s->kind == TUI_SRC_STDIN ? "stdin" : s->path, pcap_datalink(p), s->dlt);
    pcap_close(p);
    return false;
  }
  s->impl = p;
  /* libpcap hands on nanoseconds either way; a stream's magic is gone */
  s->usec_file = -1;
  FILE *f = s->kind == TUI_SRC_STDIN ? NULL : fopen(s->path, "rb");
  uint8_t fh[UAL_PCAP_FILE_HDR];
  struct ual_pcap_file pf;
  if (f) s->usec_file = fread(fh, 1, sizeof fh, f) == sizeof fh && ual_pcap_file_parse(fh, &pf) && !pf.nsec;
  if (f) fclose(f);
  return true;
}

static bool open_live(struct tui_source *s) {
  char eb[PCAP_ERRBUF_SIZE] = "";
  pcap_t *p = pcap_create(s->path, eb);
  if (!p) { snprintf(s->error, sizeof s->error, "%s: %s", s->path, eb); return false; }
  pcap_set_snaplen(p, 65535);
  /* Not immediate mode: libpcap then gives each packet a frame of the
   * snapshot length (TPACKET_V2: 64 MiB held about 1000 datagrams, a quarter
   * second of a busy export, and a loaded machine dropped them); blocks
   * packed to the byte hold about 200 000, handed over within 100 ms. */
  pcap_set_timeout(p, 100);
  pcap_set_buffer_size(p, 64 << 20);
  pcap_set_tstamp_precision(p, PCAP_TSTAMP_PRECISION_NANO);
  int rc = pcap_activate(p);
  if (rc < 0) {
    const char *why = rc == PCAP_ERROR_PERM_DENIED ? "permission denied (capture needs root or CAP_NET_RAW)"
                      : rc == PCAP_ERROR_NO_SUCH_DEVICE ? "no such device"
                      : pcap_geterr(p);
    snprintf(s->error, sizeof s->error, "%s: cannot capture: %s", s->path, why);
    pcap_close(p);
    return false;
  }
  char expr[64];
  snprintf(expr, sizeof expr, "udp port %d", s->port);
  struct bpf_program prog;
  if (pcap_compile(p, &prog, expr, 1, PCAP_NETMASK_UNKNOWN) != 0 || pcap_setfilter(p, &prog) != 0) {
    snprintf(s->error, sizeof s->error, "%s: filter '%s': %s", s->path, expr, pcap_geterr(p));
    pcap_close(p);
    return false;
  }
  pcap_freecode(&prog);
  /* Non-blocking with a poll() timeout, so that stopping never waits for a packet. */
  if (pcap_setnonblock(p, 1, eb) != 0 || pcap_get_selectable_fd(p) < 0) {
    snprintf(s->error, sizeof s->error, "%s: cannot poll the capture: %s", s->path, eb);
    pcap_close(p);
    return false;
  }
  /* Datagrams caught while the ring and the filter were being set up are
   * followed by a hole (measured on lo: 1-3 datagrams, then 1-3 missing, in
   * 3 of 8 starts), and the analysis would judge across it: the capture
   * starts when the set-up is done. */
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  s->live_start_ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
  s->impl = p;
  ual_udp_rx_init(&s->udp_rx);
  s->udp = true;
  s->udp_lt = pcap_datalink(p);
  return true;
}

/* The export received on a UDP socket bound to path:port. */
struct udp_sock { int fd; uint32_t ovfl; };

static bool open_udp(struct tui_source *s) {
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  char port[16];
  snprintf(port, sizeof port, "%d", s->port);
  int g = getaddrinfo(s->path, port, &hints, &res);
  if (g != 0) { snprintf(s->error, sizeof s->error, "%s: %s", s->path, gai_strerror(g)); return false; }
  int fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, res->ai_protocol);
  if (fd < 0) {
    snprintf(s->error, sizeof s->error, "socket: %s", strerror(errno));
    freeaddrinfo(res);
    return false;
  }
  /* A busy export outruns the default buffer (about 200 KiB) within a
   * fraction of a second: ask for 64 MiB, past rmem_max where allowed. */
  int big = 64 << 20, on = 1;
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big) != 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
  socklen_t sl = sizeof s->rcvbuf;
  getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &s->rcvbuf, &sl);
  setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &on, sizeof on);   /* the kernel's drop count with each datagram */
  if (bind(fd, res->ai_addr, res->ai_addrlen) != 0) {
    snprintf(s->error, sizeof s->error, "cannot listen on UDP %s port %d: %s", s->path, s->port, strerror(errno));
    freeaddrinfo(res);
    close(fd);
    return false;
  }
  freeaddrinfo(res);
  struct udp_sock *u = calloc(1, sizeof *u);
  if (!u) { close(fd); snprintf(s->error, sizeof s->error, "out of memory"); return false; }
  u->fd = fd;
  s->impl = u;
  ual_udp_rx_init(&s->udp_rx);
  s->udp = true;
  return true;
}

static void udp_run(struct tui_source *s, struct udp_sock *u) {
  static uint8_t buf[65536];
  union { char b[CMSG_SPACE(sizeof(uint32_t))]; struct cmsghdr align; } ctl;
  struct pollfd pfd = { u->fd, POLLIN, 0 };
  while (!s->stop) {
    if (poll(&pfd, 1, 100) < 0 && errno != EINTR) break;
    for (int k = 0; k < 256 && !s->stop; k++) {
      struct iovec iov = { buf, sizeof buf };
      struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b, .msg_controllen = sizeof ctl.b };
      ssize_t n = recvmsg(u->fd, &mh, 0);
      if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) break;
        snprintf(s->error, sizeof s->error, "UDP %s port %d: %s", s->path, s->port, strerror(errno));
        return;
      }
      for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL) {
          uint32_t v;
          memcpy(&v, CMSG_DATA(c), sizeof v);
          if (v != u->ovfl) {     /* the kernel dropped datagrams before this one */
            s->kernel_drops += (uint32_t)(v - u->ovfl);
            u->ovfl = v;
            ual_udp_rx_dropped(&s->udp_rx);
          }
        }
      struct timespec now;
      clock_gettime(CLOCK_REALTIME, &now);
      deliver_dgram(s, buf, (size_t)n, (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec);
    }
  }
}

bool tui_source_open(struct tui_source *s) {
  s->error[0] = 0;
  s->done = false;
  s->udp = false;
  switch (s->kind) {
  case TUI_SRC_FOLLOW: {
    struct follow *fw = calloc(1, sizeof *fw);
    if (!fw) return false;
    fw->f = fopen(s->path, "rb");
    if (!fw->f) {
      snprintf(s->error, sizeof s->error, "%s: %s", s->path, strerror(errno));
      free(fw);
      return false;
    }
    /* a file still without its header is waited for (follow_run) */
    s->header_pending = true;
    if (!follow_header(s, fw, true) && s->error[0]) { fclose(fw->f); free(fw); return false; }
    s->impl = fw;
    return true;
  }
  case TUI_SRC_LIVE: return open_live(s);
  case TUI_SRC_UDP: return open_udp(s);
  default: return open_pcap(s);
  }
}

struct live_ctx { struct tui_source *s; uint64_t frac_ns; };

static void live_packet(u_char *user, const struct pcap_pkthdr *h, const u_char *pkt) {
  struct live_ctx *lc = (struct live_ctx *)user;
  uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec * lc->frac_ns;
  if (ts >= lc->s->live_start_ns) deliver(lc->s, pkt, h->caplen, ts);
}

static void source_read(struct tui_source *s);

void tui_source_run(struct tui_source *s) {
  source_read(s);
  if (!s->stop && s->end) s->end(s->ctx);
}

static void source_read(struct tui_source *s) {
  if (s->kind == TUI_SRC_FOLLOW) {
    follow_run(s, s->impl);
    return;
  }
  if (s->kind == TUI_SRC_UDP) {
    udp_run(s, s->impl);
    return;
  }
  pcap_t *p = s->impl;
  if (s->kind == TUI_SRC_LIVE) {
    struct live_ctx lc = { s, pcap_get_tstamp_precision(p) == PCAP_TSTAMP_PRECISION_NANO ? 1u : 1000u };
    struct pollfd pfd = { pcap_get_selectable_fd(p), POLLIN, 0 };
    while (!s->stop) {
      if (poll(&pfd, 1, 100) < 0 && errno != EINTR) break;
      int rc = pcap_dispatch(p, 256, live_packet, (u_char *)&lc);
      if (rc < 0 && rc != PCAP_ERROR_BREAK) {
        snprintf(s->error, sizeof s->error, "%s: capture stopped: %s", s->path, pcap_geterr(p));
        break;
      }
      struct pcap_stat st;
      if (pcap_stats(p, &st) == 0 && st.ps_drop + st.ps_ifdrop != s->kernel_drops) {
        s->kernel_drops = st.ps_drop + st.ps_ifdrop;
        ual_udp_rx_dropped(&s->udp_rx);  /* after what the ring held: the next records of both directions */
      }
    }
    return;
  }
  struct pcap_pkthdr *h;
  const u_char *data;
  uint64_t frame = 0;
  while (!s->stop) {
    int rc = pcap_next_ex(p, &h, &data);
    if (rc == 1) {
      frame++;
      frac_note(s, frame, ual_pcap_frac_over_ns(h->ts.tv_usec, s->usec_file), h->ts.tv_usec / 1000);
      deliver(s, data, h->caplen, ual_pcap_tv_sec(h->ts.tv_sec) * 1000000000u + (uint64_t)h->ts.tv_usec);
    } else if (rc == PCAP_ERROR_BREAK) {
      break;
    } else if (rc < 0) {
      const char *why = pcap_geterr(p);
      snprintf(s->error, sizeof s->error, "%s: %s after frame %llu (%s)", s->kind == TUI_SRC_STDIN ? "stdin" : s->path,
               strstr(why, "truncated dump file") ? "the input ends inside the record" : "read error",
               (unsigned long long)frame, why);
      break;
    }
  }
  s->done = true;
}

void tui_source_close(struct tui_source *s) {
  if (!s->impl) return;
  if (s->kind == TUI_SRC_FOLLOW) {
    struct follow *fw = s->impl;
    fclose(fw->f);
    free(fw);
  } else if (s->kind == TUI_SRC_UDP) {
    struct udp_sock *u = s->impl;
    close(u->fd);
    free(u);
  } else {
    pcap_close(s->impl);
  }
  s->impl = NULL;
}
