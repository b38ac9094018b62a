/* ualink-extcap: Wireshark extcap program with two interfaces. "UALink
 * generator" runs ualink-gen and hands its records to Wireshark at a set
 * pace; "UALink UDP export" listens on a UDP port and hands on each
 * datagram's record, marking the record after datagrams lost (the export's
 * sequence numbers, the kernel's drops) and saying how many in a
 * records-dropped event. Both write a nanosecond pcap of LINKTYPE_USER0 to the
 * fifo Wireshark gives, flushed per record. */
#include "args.h"

#include <ualink/ualink.h>
#include <ualink/core/udp.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef UAL_EXTCAP_HELP_URL
#define UAL_EXTCAP_HELP_URL "https://github.com/ualink-tools/ualink-tools"
#endif
#ifndef UAL_EXTCAP_TO_BINDIR
#define UAL_EXTCAP_TO_BINDIR "../bin"
#endif
#ifndef UAL_EXTCAP_TO_DOC
#define UAL_EXTCAP_TO_DOC "../share/ualink-tools/wireshark/README-wireshark.md"
#endif

#define SNAPLEN 65535
#define GEN_STOP_WAIT_MS 5000   /* after the reader left: time the generator gets to write its truth */

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig) { stop_signal = sig; }

static void errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void errorf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("ualink-extcap: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static uint64_t mono_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static uint64_t real_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* ---- the fifo ---- */

struct sink {
  pcap_t *pd;
  pcap_dumper_t *dump;
  int fd;
  uint64_t records;
};

static int sink_open(struct sink *s, const char *path) {
  memset(s, 0, sizeof *s);
  s->pd = pcap_open_dead_with_tstamp_precision(UAL_DLT_USER0, SNAPLEN, PCAP_TSTAMP_PRECISION_NANO);
  if (!s->pd) { errorf("pcap_open_dead failed"); return -1; }
  s->dump = pcap_dump_open(s->pd, path);   /* a fifo: blocks until Wireshark opens it */
  if (!s->dump) {
    if (!stop_signal) errorf("%s: %s", path, pcap_geterr(s->pd));
    pcap_close(s->pd);
    return -1;
  }
  s->fd = fileno(pcap_dump_file(s->dump));
  if (pcap_dump_flush(s->dump) != 0) { errorf("%s: %s", path, strerror(errno)); return -1; }
  return 0;
}

/* The reader has closed the fifo: a pipe's write end then polls POLLERR. */
static bool sink_reader_gone(const struct sink *s) {
  struct stat st;
  if (fstat(s->fd, &st) != 0 || !S_ISFIFO(st.st_mode)) return false;
  struct pollfd p = { s->fd, 0, 0 };
  return poll(&p, 1, 0) > 0 && (p.revents & (POLLERR | POLLHUP));
}

/* 0, or -1 when the reader is gone (EPIPE) or the write failed (errno). */
static int sink_put(struct sink *s, uint64_t ts_ns, const uint8_t *rec, size_t len) {
  struct pcap_pkthdr h;
  h.ts.tv_sec = (time_t)(ts_ns / 1000000000ull);
  h.ts.tv_usec = (suseconds_t)(ts_ns % 1000000000ull);   /* nanoseconds: the dump is nano-precision */
  h.caplen = h.len = (bpf_u_int32)len;
  pcap_dump((u_char *)s->dump, &h, rec);
  if (pcap_dump_flush(s->dump) != 0) return -1;
  s->records++;
  return 0;
}

static void sink_close(struct sink *s) {
  if (s->dump) pcap_dump_close(s->dump);   /* a flush error here is a reader that left: nothing to tell */
  if (s->pd) pcap_close(s->pd);
  s->dump = NULL;
  s->pd = NULL;
}

static int report_write_error(void) {
  if (errno == EPIPE) return 0;            /* Wireshark stopped reading: a normal stop */
  errorf("writing to the fifo: %s", strerror(errno));
  return 1;
}

/* Waits until mono_ns() >= t, a signal, or the reader leaving. false when stopping. */
static bool wait_until(const struct sink *s, uint64_t t) {
  for (;;) {
    if (stop_signal) return false;
    uint64_t now = mono_ns();
    if (now >= t) return true;
    uint64_t left = t - now;
    if (left >= 1000000) {
      struct pollfd p = { s->fd, 0, 0 };
      int ms = left > 100000000 ? 100 : (int)(left / 1000000);
      if (poll(&p, 1, ms) > 0 && (p.revents & (POLLERR | POLLHUP))) return false;
    } else {
      struct timespec d = { 0, (long)left };
      nanosleep(&d, NULL);
    }
  }
}

/* ---- the generator ---- */

static bool executable(const char *p) { return p && *p && access(p, X_OK) == 0; }

/* dir (its first dirlen bytes) / rel / ualink-gen, if it fits and is executable. */
static bool gen_in(char *buf, size_t cap, const char *dir, size_t dirlen, const char *rel) {
  int n = snprintf(buf, cap, "%.*s/%s%sualink-gen", (int)dirlen, dir, rel, *rel ? "/" : "");
  return n > 0 && (size_t)n < cap && executable(buf);
}

/* --generator, $UALINK_GEN, next to this program, the bin folder of its
 * installation prefix, PATH. */
static const char *find_generator(const struct xc_conf *c, char *buf, size_t cap) {
  if (c->val[XA_GENERATOR]) {
    if (executable(c->val[XA_GENERATOR])) return c->val[XA_GENERATOR];
    errorf("--generator %s: not an executable file", c->val[XA_GENERATOR]);
    return NULL;
  }
  const char *env = getenv("UALINK_GEN");
  if (env && *env) {
    if (executable(env)) return env;
    errorf("UALINK_GEN=%s: not an executable file", env);
    return NULL;
  }
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (slash) {
      *slash = 0;
      if (gen_in(buf, cap, self, strlen(self), "")) return buf;
      if (gen_in(buf, cap, self, strlen(self), UAL_EXTCAP_TO_BINDIR)) return buf;
    }
  }
  const char *path = getenv("PATH");
  for (const char *p = path; p && *p;) {
    size_t len = strcspn(p, ":");
    if (len && gen_in(buf, cap, p, len, "")) return buf;
    p += len + (p[len] == ':');
  }
  errorf("ualink-gen not found: set its path in the interface options (--generator), or UALINK_GEN, "
         "or put it next to ualink-extcap or on PATH");
  return NULL;
}

/* Starts argv[0] with its standard output on a pipe (returned in *out) and
 * its standard error on errfd. SIGPIPE stays ignored in the child, so a
 * generator whose reader left sees EPIPE and still closes its truth file. */
static pid_t spawn(char *const argv[], int *out, int errfd) {
  int p[2];
  if (pipe(p) != 0) { errorf("pipe: %s", strerror(errno)); return -1; }
  pid_t pid = fork();
  if (pid < 0) { errorf("fork: %s", strerror(errno)); close(p[0]); close(p[1]); return -1; }
  if (pid == 0) {
    setpgid(0, 0);   /* a terminal's Ctrl-C reaches this program, which stops the child in order */
    dup2(p[1], STDOUT_FILENO);
    if (errfd >= 0) dup2(errfd, STDERR_FILENO);
    close(p[0]);
    close(p[1]);
    execv(argv[0], argv);
    fprintf(stderr, "ualink-extcap: %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  close(p[1]);
  *out = p[0];
  return pid;
}

/* Exit status of pid, waiting at most ms (then SIGKILL); -1 when killed. */
static int reap(pid_t pid, int ms) {
  int st = 0;
  for (int waited = 0;; waited += 10) {
    pid_t r = waitpid(pid, &st, ms < 0 ? 0 : WNOHANG);
    if (r == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (r < 0 && errno != EINTR) return -1;
    if (ms >= 0 && waited >= ms) {
      kill(pid, SIGKILL);
      waitpid(pid, &st, 0);
      return -1;
    }
    if (r == 0) {
      struct timespec d = { 0, 10000000 };
      nanosleep(&d, NULL);
    }
  }
}

/* The whole standard output of argv (NUL-terminated, malloc'd), or NULL. */
static char *run_output(char *const argv[]) {
  int fd;
  pid_t pid = spawn(argv, &fd, -1);
  if (pid < 0) return NULL;
  size_t cap = 16384, len = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (!buf) break;
    if (len + 4096 > cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) { free(buf); buf = NULL; break; }
      buf = nb;
    }
    ssize_t n = read(fd, buf + len, cap - len - 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    len += (size_t)n;
  }
  close(fd);
  int rc = reap(pid, -1);
  if (!buf || rc != 0) { free(buf); return NULL; }
  buf[len] = 0;
  return buf;
}

static int print_config(const struct xc_conf *c) {
  if (c->iface != XC_IF_GEN) { xc_print_config(stdout, c->iface, NULL, NULL); return 0; }
  char buf[PATH_MAX];
  const char *gen = find_generator(c, buf, sizeof buf);
  char *sc = NULL, *inj = NULL;
  if (gen) {
    char *a1[] = { (char *)gen, "--list-scenarios", NULL }, *a2[] = { (char *)gen, "--list-injections", NULL };
    sc = run_output(a1);
    inj = run_output(a2);
    if (!sc || !inj) errorf("%s --list-scenarios / --list-injections failed; the lists are left empty", gen);
  }
  xc_print_config(stdout, c->iface, sc, inj);
  free(sc);
  free(inj);
  return 0;
}

static void copy_out(FILE *from) {
  char line[1024];
  rewind(from);
  while (fgets(line, sizeof line, from)) fputs(line, stderr);
}

static int capture_gen(const struct xc_conf *c) {
  char genbuf[PATH_MAX];
  const char *gen = find_generator(c, genbuf, sizeof genbuf);
  if (!gen) return 1;
  char *argv[48], strbuf[2048];
  if (xc_gen_argv(c, gen, real_ns(), argv, sizeof argv / sizeof argv[0], strbuf, sizeof strbuf) != 0) {
    errorf("generator command line too long");
    return 1;
  }
  FILE *gen_err = tmpfile();      /* shown only when the generator fails on its own */
  int fd;
  pid_t pid = spawn(argv, &fd, gen_err ? fileno(gen_err) : -1);
  if (pid < 0) return 1;
  char perr[PCAP_ERRBUF_SIZE];
  FILE *in = fdopen(fd, "rb");
  pcap_t *rd = in ? pcap_fopen_offline_with_tstamp_precision(in, PCAP_TSTAMP_PRECISION_NANO, perr) : NULL;
  struct sink s = { 0 };
  int rc = 0;
  bool stopped = false;
  if (!rd) {
    if (in) fclose(in);
    else close(fd);
    if (stop_signal) stopped = true;
    else rc = 1;
  } else if (sink_open(&s, c->fifo) != 0) {
    if (stop_signal) stopped = true;
    else rc = 1;
  } else {
    const uint64_t pace = c->u[XA_PACE];
    uint64_t t0 = 0;
    struct pcap_pkthdr *h;
    const u_char *data;
    for (;;) {
      int r = pcap_next_ex(rd, &h, &data);
      if (r != 1) {
        if (stop_signal) stopped = true;
        else if (r == -1) { errorf("reading the generator's output: %s", pcap_geterr(rd)); rc = 1; }
        break;
      }
      if (!xc_filter_match(&c->filter, data, h->caplen)) continue;
      if (pace) {
        if (!t0) t0 = mono_ns();
        /* the pace counts what Wireshark gets, after the capture filter */
        if (!wait_until(&s, t0 + (uint64_t)((double)s.records * 1e9 / (double)pace))) { stopped = true; break; }
      } else if (stop_signal || sink_reader_gone(&s)) {
        stopped = true;
        break;
      }
      uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000000ull + (uint64_t)h->ts.tv_usec;
      if (sink_put(&s, ts, data, h->caplen) != 0) { rc = report_write_error(); stopped = true; break; }
    }
    pcap_close(rd);   /* closes the pipe: a generator still running sees EPIPE */
  }
  int grc = reap(pid, stopped ? GEN_STOP_WAIT_MS : -1);
  if (!stopped && grc != 0 && rc == 0) rc = 1;
  if (!stopped && grc != 0 && gen_err) {
    copy_out(gen_err);
    errorf("%s exited with status %d", gen, grc);
  }
  if (gen_err) fclose(gen_err);
  sink_close(&s);
  return rc;
}

/* ---- the UDP export ---- */

static int capture_udp(const struct xc_conf *c) {
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  const char *addr = c->val[XA_ADDRESS], *port = c->val[XA_PORT];
  int g = getaddrinfo(addr, port, &hints, &res);
  if (g != 0) { errorf("listen address %s: %s", addr, gai_strerror(g)); return 1; }
  int fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, res->ai_protocol);
  if (fd < 0) { errorf("socket: %s", strerror(errno)); freeaddrinfo(res); return 1; }
  int big = 64 << 20, on = 1;   /* bursts from ualink-gen --udp; past rmem_max only with CAP_NET_ADMIN */
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big) != 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
  setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &on, sizeof on);   /* the kernel's drop count with each datagram */
  if (bind(fd, res->ai_addr, res->ai_addrlen) != 0) {
    errorf("cannot listen on UDP %s port %s: %s", addr, port, strerror(errno));
    freeaddrinfo(res);
    close(fd);
    return 1;
  }
  freeaddrinfo(res);
  struct sink s;
  if (sink_open(&s, c->fifo) != 0) { close(fd); return stop_signal ? 0 : 1; }
  static uint8_t buf[65536], marked[65536];
  union { char b[CMSG_SPACE(sizeof(uint32_t))]; struct cmsghdr align; } ctl;
  struct ual_udp_rx rx;
  ual_udp_rx_init(&rx);
  uint64_t lost_seen = 0;    /* rx.lost as far as a records-dropped event has said it */
  uint32_t ovfl = 0;
  bool mark = false;         /* the next record handed on follows lost records */
  int rc = 0;
  while (!stop_signal) {
    struct pollfd p[2] = { { fd, POLLIN, 0 }, { s.fd, 0, 0 } };
    int n = poll(p, 2, -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      errorf("poll: %s", strerror(errno));
      rc = 1;
      break;
    }
    if (p[1].revents & (POLLERR | POLLHUP)) break;     /* Wireshark stopped reading */
    if (!(p[0].revents & POLLIN)) continue;
    struct iovec iov = { buf, sizeof buf };
    struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b, .msg_controllen = sizeof ctl.b };
    ssize_t len = recvmsg(fd, &mh, 0);
    if (len < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      errorf("recv: %s", strerror(errno));
      rc = 1;
      break;
    }
    for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
      if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SO_RXQ_OVFL) {
        uint32_t v;
        memcpy(&v, CMSG_DATA(cm), sizeof v);
        if (v != ovfl) ual_udp_rx_dropped(&rx);   /* the kernel dropped datagrams before this one */
        ovfl = v;
      }
    size_t rn;
    bool lost;
    const uint8_t *rec = ual_udp_rx_step(&rx, buf, (size_t)len, &rn, &lost);
    mark |= lost;
    uint64_t ts = real_ns();
    if (rx.lost > lost_seen && rn >= UAL_REC_HDR_BYTES) {
      /* said in the capture: a records-dropped event of the next record's link */
      struct ual_record r;
      ual_record_parse(rec, rn, &r);
      r.h.kind = UAL_REC_EVENT;
      r.h.flags &= UAL_RF_DIR_B;
      r.h.rsvd_flags = r.h.rsvd = 0;
      struct ual_event e = { .code = UAL_EV_DROPPED, .value = (uint32_t)(rx.lost - lost_seen) };
      uint8_t body[UAL_REC_EVENT_BYTES], ev[UAL_REC_HDR_BYTES + UAL_REC_EVENT_BYTES];
      ual_event_build(&e, body);
      size_t evn = ual_record_build(&r.h, body, sizeof body, ev, sizeof ev);
      lost_seen = rx.lost;
      if (evn && xc_filter_match(&c->filter, ev, evn) && sink_put(&s, ts, ev, evn) != 0) {
        rc = report_write_error();
        break;
      }
    }
    if (!xc_filter_match(&c->filter, rec, rn)) continue;
    if (mark) {   /* the analysis starts over here */
      rec = ual_udp_mark_lost(rec, rn, marked, sizeof marked);
      mark = false;
    }
    if (sink_put(&s, ts, rec, rn) != 0) { rc = report_write_error(); break; }
  }
  close(fd);
  sink_close(&s);
  return rc;
}

static const char usage[] =
  "usage: ualink-extcap --extcap-interfaces\n"
  "       ualink-extcap --extcap-interface IFACE --extcap-dlts | --extcap-config\n"
  "       ualink-extcap --extcap-interface IFACE --extcap-capture-filter FILTER\n"
  "       ualink-extcap --extcap-interface IFACE --capture --fifo PATH [--extcap-capture-filter FILTER] [options]\n"
  "Wireshark extcap program: live UALink capture records (LINKTYPE_USER0, nanosecond pcap).\n"
  "\n"
  "Interfaces:\n"
  "  ualink-generator  runs ualink-gen: --scenario NAME|auto --seed N --rate R --width W --load X\n"
  "                    --inject RULE[,RULE...] --inject-at N --count N --pace N (records/s, 0 = no pacing)\n"
  "                    --truth FILE --generator PATH\n"
  "  ualink-udp        listens for ualink-gen --udp and capture hardware: --port N (default 17762)\n"
  "                    --address A (default 127.0.0.1)\n"
  "Capture filter: space-separated terms, a record passes when it matches one term of\n"
  "every category given: a, b (direction); flit, os, event (kind); link N.\n"
  "  --extcap-version   the version; --help this text\n";

/* The help page of the install this program belongs to (found from where it
 * runs, so any --prefix is right), else the one of the source tree. */
static const char *help_url(char *buf, size_t cap) {
  char self[PATH_MAX], doc[PATH_MAX + 64], real[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return UAL_EXTCAP_HELP_URL;
  self[n] = 0;
  char *slash = strrchr(self, '/');
  if (!slash) return UAL_EXTCAP_HELP_URL;
  *slash = 0;
  if ((size_t)snprintf(doc, sizeof doc, "%s/%s", self, UAL_EXTCAP_TO_DOC) >= sizeof doc || !realpath(doc, real))
    return UAL_EXTCAP_HELP_URL;
  if ((size_t)snprintf(buf, cap, "file://%s", real) >= cap) return UAL_EXTCAP_HELP_URL;
  return buf;
}

int main(int argc, char **argv) {
  char url[PATH_MAX + 16];
  struct xc_conf c;
  char err[512];
  if (xc_parse(&c, argc, argv, err, sizeof err) != 0) {
    errorf("%s", err);
    return 2;
  }
  switch (c.mode) {
  case XM_HELP: fputs(usage, stdout); return 0;
  case XM_VERSION: printf("ualink-extcap %s\n", UAL_VERSION_STRING); return 0;
  case XM_INTERFACES: xc_print_interfaces(stdout, help_url(url, sizeof url)); return 0;
  case XM_DLTS: xc_print_dlts(stdout, c.iface); return 0;
  case XM_CONFIG: return print_config(&c);
  case XM_FILTER:
    /* Wireshark reads the verdict from standard output: empty = valid */
    if (xc_filter_parse(&c.filter, c.filter_text, err, sizeof err) != 0) printf("%s\n", err);
    return 0;
  case XM_CAPTURE: break;
  case XM_NONE: return 2;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;     /* no SA_RESTART: blocking reads and polls return EINTR */
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  return c.iface == XC_IF_GEN ? capture_gen(&c) : capture_udp(&c);
}
