/* Decode benchmark: `ualink-decode -q --stats` throughput on a generated
 * capture of at least 512 MB, next to a loop that only reads the same file
 * with libpcap (pcap_next_ex, no decoding), in the same run. Also prints the
 * decoder's maximum RSS on the whole file and on its first eighth, to show
 * that memory use does not grow with the file, and how much faster two `-j 1`
 * processes at once get through the file than one: the most any two-thread
 * split can give on this machine, and how long a cache line takes to go
 * from one core to another (what -j's hand-over of each record pays).
 * Prints figures; no pass/fail.
 *
 *   bench_decode DECODER FILE [MB]      (FILE is written when missing or short)
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ualink/ualink.h"
#include "ualink/ualink/dl_limits.h"

/* runs of each kind; the best counts: the VMs this is measured on change
 * speed from second to second */
#define ROUNDS 9

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static uint64_t file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* Busy link traffic from libdecode's own encoders: payload flits packed with
 * TL flits and now and then a DL message, an Ack every fourth flit, a NOP
 * flit every 64th, both directions. Each direction starts with an IDLE flit,
 * so the TL flit boundaries are known from the start and every TL flit is
 * unpacked (a capture that starts mid-stream skips its TL sectors until they
 * are known: a cheaper path that would flatter the decoder). */
static uint64_t generate(const char *path, uint64_t bytes) {
  pcap_t *p = pcap_open_dead_with_tstamp_precision(UAL_DLT_USER0, 65535, PCAP_TSTAMP_PRECISION_NANO);
  pcap_dumper_t *d = p ? pcap_dump_open(p, path) : NULL;
  if (!d) {
    fprintf(stderr, "bench_decode: %s: %s\n", path, p ? pcap_geterr(p) : "pcap_open_dead failed");
    exit(1);
  }
  static struct ual_pack pk[2];
  unsigned seq[2] = { 1, 1 }, last[2] = { 0, 0 }; /* next to send; last sent (0: none) */
  uint8_t rec[UAL_REC_HDR_BYTES + UAL_FLIT_BYTES], flit[UAL_FLIT_BYTES], tl[UAL_TL_FLIT_BYTES];
  uint64_t ts = 1700000000000000000ull, n = 0, written = 24;
  for (int i = 0; i < 2; i++) ual_pack_init(&pk[i]);
  while (written < bytes) {
    int dir = (int)(n & 1);
    struct ual_rec_hdr h;
    ual_rec_hdr_init(&h, UAL_REC_FLIT, (unsigned)dir);
    h.link = 0;
    h.rate = 7;
    h.width = 8;
    h.role_a = UAL_ROLE_ACCEL;
    h.role_b = UAL_ROLE_SWITCH;
    uint64_t k = n >> 1;
    uint16_t ack = (uint16_t)(last[!dir] ? last[!dir] : UAL_SEQ_MOD);
    if (k == 0) {
      ual_flit_build_idle(flit);
    } else if (k % 64 == 63) {
      struct ual_fh fh = { UAL_USAGE_NOP_IDLE, 1, UAL_RC_ACK, ack };
      struct ual_dllp dl;
      memset(&dl, 0, sizeof dl);
      ual_flit_build_nop(flit, &fh, &dl);
    } else {
      while (ual_pack_tl_queued(&pk[dir]) < 4) {
        for (unsigned i = 0; i < UAL_TL_FLIT_BYTES; i++) tl[i] = (uint8_t)(k * 7u + i);
        ual_pack_push_tl(&pk[dir], tl, (unsigned)k & 1, (unsigned)(k >> 1) & 1);
      }
      if (k % 16 == 5) {
        struct ual_dlmsg m;
        memset(&m, 0, sizeof m);
        m.type = UAL_MT_UART_CREDIT;
        m.mclass = UAL_MCLASS_UART;
        m.mtype = ual_msg_types[UAL_MT_UART_CREDIT].mtype;
        m.data_fc_seq = (uint16_t)(k & 0xfff);
        uint32_t dw = ual_dlmsg_encode(&m);
        ual_pack_push_msg(&pk[dir], &dw, 1);
      }
      struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, (uint16_t)seq[dir] };
      if (k % 4 == 3) {
        fh.replay_cmd = UAL_RC_ACK;
        fh.seq = ack;
      }
      ual_pack_flit(&pk[dir], &fh, true, flit);
      last[dir] = seq[dir];
      seq[dir] = ual_seq_inc((uint16_t)seq[dir]);
    }
    size_t len = ual_record_build(&h, flit, sizeof flit, rec, sizeof rec);
    struct pcap_pkthdr ph;
    memset(&ph, 0, sizeof ph);
    ph.ts.tv_sec = (time_t)(ts / 1000000000u);
    ph.ts.tv_usec = (suseconds_t)(ts % 1000000000u);
    ph.caplen = ph.len = (bpf_u_int32)len;
    pcap_dump((u_char *)d, &ph, rec);
    written += 16 + len;
    ts += 1 + (n & 1);
    n++;
  }
  pcap_dump_close(d);
  pcap_close(p);
  return n;
}

static double cpu_self(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
         (double)ru.ru_stime.tv_usec / 1e6;
}

/* libpcap alone: open, pcap_next_ex over every record, touch the data.
 * Returns wall time; *cpu its CPU time. */
static double read_only(const char *path, uint64_t *records, double *cpu) {
  char err[PCAP_ERRBUF_SIZE];
  double c0 = cpu_self();
  double t0 = now();
  pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
  if (!p) {
    fprintf(stderr, "bench_decode: %s: %s\n", path, err);
    exit(1);
  }
  struct pcap_pkthdr *h;
  const u_char *data;
  uint64_t n = 0, sum = 0;
  while (pcap_next_ex(p, &h, &data) == 1) {
    n++;
    sum += data[1] + h->caplen;
  }
  pcap_close(p);
  double t = now() - t0;
  *cpu = cpu_self() - c0;
  if (sum == 1) fputc(' ', stderr); /* keeps the loop from being optimised away */
  *records = n;
  return t;
}

/* Starts the decoder on FILE with its output to /dev/null. */
static pid_t spawn(const char *decoder, const char *path, const char *jobs, const char *count) {
  fflush(stdout); /* the child must not inherit buffered output */
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    exit(1);
  }
  if (pid == 0) {
    if (!freopen("/dev/null", "w", stdout)) _exit(127);
    if (count) execl(decoder, decoder, "-q", "--stats", "-j", jobs, "-c", count, path, (char *)NULL);
    else execl(decoder, decoder, "-q", "--stats", "-j", jobs, path, (char *)NULL);
    _exit(127);
  }
  return pid;
}

/* Waits for a decoder; fills max RSS (KiB) and CPU time (user + system, all
 * threads); exits when it failed. */
static void reap(const char *decoder, pid_t pid, long *maxrss_kb, double *cpu) {
  struct rusage ru;
  int st = 0;
  if (wait4(pid, &st, 0, &ru) < 0) {
    perror("wait4");
    exit(1);
  }
  int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  if (status != 0) {
    fprintf(stderr, "bench_decode: %s exited with status %d\n", decoder, status);
    exit(1);
  }
  *maxrss_kb = ru.ru_maxrss;
  *cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
         (double)ru.ru_stime.tv_usec / 1e6;
}

/* Runs the decoder; returns wall time. */
static double run_decoder(const char *decoder, const char *path, const char *jobs, const char *count, long *maxrss_kb,
                          double *cpu) {
  double t0 = now();
  reap(decoder, spawn(decoder, path, jobs, count), maxrss_kb, cpu);
  return now() - t0;
}

/* Two `-j 1` decoders at once, each on the whole file: returns the wall time
 * until both are done. Twice the one-process time over this is what two
 * threads with nothing to share could reach on this machine. */
static double run_pair(const char *decoder, const char *path, double *cpu) {
  double t0 = now(), ca, cb;
  long rss;
  pid_t a = spawn(decoder, path, "1", NULL), b = spawn(decoder, path, "1", NULL);
  reap(decoder, a, &rss, &ca);
  reap(decoder, b, &rss, &cb);
  *cpu = ca + cb;
  return now() - t0;
}

/* Cache-line ping-pong between the first two CPUs this process may run on:
 * each side waits for the other's store, so a round trip is two transfers
 * of the line between the cores. */
#define PINGS 200000

static _Alignas(64) volatile uint64_t ping;
static volatile int ping_stop;

static bool pin(pthread_t t, int cpu) {
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(cpu, &s);
  return pthread_setaffinity_np(t, sizeof s, &s) == 0;
}

static void *pong(void *arg) {
  uint64_t pings = *(const uint64_t *)arg;
  for (uint64_t i = 1; i < 2 * pings; i += 2) {
    while (ping != i)
      if (ping_stop) return NULL;
    ping = i + 1;
  }
  return NULL;
}

/* One way, in ns, best of three runs of `pings`; 0 when two CPUs cannot be had. */
static double line_transfer_ns(uint64_t pings) {
  cpu_set_t all;
  if (sched_getaffinity(0, sizeof all, &all) != 0 || CPU_COUNT(&all) < 2) return 0;
  int cpu[2], n = 0;
  for (int i = 0; i < CPU_SETSIZE && n < 2; i++)
    if (CPU_ISSET(i, &all)) cpu[n++] = i;
  double best = 0;
  for (int round = 0; round < 3; round++) {
    pthread_t t;
    ping = 0;
    ping_stop = 0;
    if (pthread_create(&t, NULL, pong, &pings) != 0) break;
    /* both pinned, or no ping-pong: on one CPU it would take turns by time slice */
    bool pinned = pin(t, cpu[1]) && pin(pthread_self(), cpu[0]);
    double t0 = now();
    for (uint64_t i = 0; pinned && i < 2 * pings; i += 2) {
      ping = i + 1;
      while (ping != i + 2) {}
    }
    double dt = now() - t0;
    ping_stop = 1;
    pthread_join(t, NULL);
    sched_setaffinity(0, sizeof all, &all);
    if (!pinned) return 0;
    double one_way = dt / (double)pings / 2 * 1e9;
    if (!best || one_way < best) best = one_way;
  }
  return best;
}

/* Where the two vCPUs were during a round's decodes (core-to-core time
 * just before -j 1 and just after -j 2): a VM's host may move them between
 * dies, and every line -j 2 hands over pays for the distance. */
struct round {
  double near[2];
  double wall[2]; /* -j 1, -j 2 */
};

/* Below this, the two CPUs share a die (on the development VM: about 50 ns
 * on one, 200-600 ns across). */
#define NEAR_NS 100.0

/* Each round, then the speed-up of the rounds whose cores were near both
 * times: the figure two cores that share a die give. */
static void near_cores(const struct round *r, int rounds) {
  double best[2] = { 1e30, 1e30 };
  int n = 0;
  printf("rounds: core to core before / after, -j 1, -j 2, speed-up\n");
  for (int i = 0; i < rounds; i++) {
    const double *w = r[i].wall;
    bool near = r[i].near[0] > 0 && r[i].near[0] < NEAR_NS && r[i].near[1] > 0 && r[i].near[1] < NEAR_NS;
    printf("  %2d %6.0f / %4.0f ns  %.3f s  %.3f s  %.2f%s\n", i + 1, r[i].near[0], r[i].near[1], w[0], w[1],
           w[0] / w[1], near ? "  (near)" : "");
    if (!near) continue;
    n++;
    for (int k = 0; k < 2; k++)
      if (w[k] < best[k]) best[k] = w[k];
  }
  if (n)
    printf("speed-up, cores near        %8.2f      (best -j 1 / best -j 2 of the %d rounds with both times < %.0f ns)\n",
           best[0] / best[1], n, NEAR_NS);
  else
    printf("speed-up, cores near             -      (no round had both times < %.0f ns: the vCPUs were on two dies)\n",
           NEAR_NS);
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: bench_decode DECODER FILE [MB]\n");
    return 2;
  }
  const char *decoder = argv[1], *path = argv[2];
  uint64_t mb = argc == 4 ? strtoull(argv[3], NULL, 10) : 512;
  if (mb < 1) mb = 1;
  uint64_t want = mb << 20;
  if (file_size(path) < want) {
    printf("generating %s (%llu MB) ...\n", path, (unsigned long long)mb);
    fflush(stdout);
    double t0 = now();
    uint64_t n = generate(path, want);
    printf("  %llu records in %.1f s\n", (unsigned long long)n, now() - t0);
  }
  uint64_t size = file_size(path);
  double mbytes = (double)size / 1e6;

  uint64_t records = 0;
  double cpu;
  read_only(path, &records, &cpu); /* warms the page cache */
  /* best of ROUNDS of each, interleaved so that the machine's load falls on
   * all four alike */
  struct { const char *jobs; double wall, cpu; long rss; } run[2] = { { "1", 1e30, 1e30, 0 }, { "2", 1e30, 1e30, 0 } };
  double best_read = 1e30, best_read_cpu = 1e30, best_pair = 1e30, best_pair_cpu = 1e30;
  struct round round[ROUNDS];
  for (int i = 0; i < ROUNDS; i++) {
    double t = read_only(path, &records, &cpu);
    if (t < best_read) best_read = t;
    if (cpu < best_read_cpu) best_read_cpu = cpu;
    round[i].near[0] = line_transfer_ns(PINGS / 10);
    for (int k = 0; k < 2; k++) {
      long r;
      t = run_decoder(decoder, path, run[k].jobs, NULL, &r, &cpu);
      round[i].wall[k] = t;
      if (t < run[k].wall) run[k].wall = t;
      if (cpu < run[k].cpu) run[k].cpu = cpu;
      if (r > run[k].rss) run[k].rss = r;
    }
    round[i].near[1] = line_transfer_ns(PINGS / 10);
    t = run_pair(decoder, path, &cpu);
    if (t < best_pair) best_pair = t;
    if (cpu < best_pair_cpu) best_pair_cpu = cpu;
  }
  char eighth[32];
  snprintf(eighth, sizeof eighth, "%llu", (unsigned long long)(records / 8 ? records / 8 : 1));
  long rss_small = 0;
  double t_small = run_decoder(decoder, path, "1", eighth, &rss_small, &cpu);

  printf("file                        %s: %.1f MB, %llu records\n", path, mbytes, (unsigned long long)records);
  printf("libpcap pcap_next_ex only   %8.1f MB/s  %6.2f Mrec/s  (%.3f s; CPU %.3f s)\n", mbytes / best_read,
         (double)records / best_read / 1e6, best_read, best_read_cpu);
  for (int k = 0; k < 2; k++)
    printf("ualink-decode -q --stats -j %s %6.1f MB/s  %6.2f Mrec/s  (%.3f s; CPU %.3f s, user + system, all threads)\n",
           run[k].jobs, mbytes / run[k].wall, (double)records / run[k].wall / 1e6, run[k].wall, run[k].cpu);
  printf("ratio -j 1 to libpcap       %8.2f      (wall time; target >= 1.0)\n", best_read / run[0].wall);
  printf("ratio -j 1 to libpcap, CPU  %8.2f      (CPU time: what one core does, whatever else runs)\n",
         best_read_cpu / run[0].cpu);
  printf("speed-up -j 2 / -j 1        %8.2f      (wall time)\n", run[0].wall / run[1].wall);
  /* two threads on two idle cores take at least half their CPU time: on a
   * loaded machine this bound says more than the wall times do */
  printf("-j 2 / -j 1 at most         %8.2f      (2 x CPU -j 1 / CPU -j 2: the best two idle cores can do)\n",
         2 * run[0].cpu / run[1].cpu);
  /* what the machine allows: cores that share caches or memory bandwidth
   * slow each other down even with no data in common */
  double ceiling = 2 * run[0].wall / best_pair;
  printf("two -j 1 at once / one      %8.2f      (wall time: the machine's ceiling for any two-thread split)\n",
         ceiling);
  printf("CPU of each of the two       %7.2f      (x CPU -j 1 alone: what sharing the machine costs)\n",
         best_pair_cpu / 2 / run[0].cpu);
  printf("-j 2 share of that ceiling  %8.2f      (speed-up -j 2 / ceiling)\n", run[0].wall / run[1].wall / ceiling);
  double xfer = line_transfer_ns(PINGS);
  if (xfer > 0) {
    printf("cache line, core to core    %8.0f ns   (one way, a ping-pong between two pinned threads: what\n"
           "                                           each line -j 2 hands over between its threads waits)\n", xfer);
    near_cores(round, ROUNDS);
  }
  double load[3] = { 0, 0, 0 };
  if (getloadavg(load, 3) > 0)
    printf("load average                %8.2f      (1 min; %ld cores online: wall times above %s)\n", load[0],
           sysconf(_SC_NPROCESSORS_ONLN), load[0] > 0.5 * (double)sysconf(_SC_NPROCESSORS_ONLN) ? "are shared" : "ok");
  printf("max RSS, whole file         %8ld KiB (-j 1)  %ld KiB (-j 2)\n", run[0].rss, run[1].rss);
  printf("max RSS, first 1/8          %8ld KiB (-j 1; %.3f s, -c %s)\n", rss_small, t_small, eighth);
  return 0;
}
