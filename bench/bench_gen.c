/* Generator benchmark: `ualink-gen -s traffic --load 1` into /dev/null, the
 * figure of issue #4 (>= 2 million flits/s on one core). Prints figures; no
 * pass/fail.
 *
 *   bench_gen GEN [RECORDS] [PASSES]     (default 2000000 records, 5 passes)
 *
 * Each pass runs GEN -q -s traffic --load 1 -c RECORDS -w /dev/null; the
 * best CPU time (user + system of the child) counts, so other work on the
 * machine does not, and the best wall time is shown next to it. One more run
 * of the same command writes to a pipe, where the records, flits and pcap
 * bytes are counted (the same seed gives the same bytes). The share of
 * ual_flit_seal (CRC-64 and FEC of every flit) is its time per flit, measured
 * here in-process, times the flits, over the generator's CPU time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ualink/ualink.h"

#define PCAP_FILE_HDR 24
#define PCAP_REC_HDR  16

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu_of(const struct rusage *ru) {
  return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6 + (double)ru->ru_stime.tv_sec +
         (double)ru->ru_stime.tv_usec / 1e6;
}

/* Starts the generator with its pcap on fd out, or into /dev/null when out < 0. */
static pid_t spawn_gen(const char *gen, const char *count, int out) {
  fflush(stdout);   /* the child must not inherit buffered output */
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    exit(1);
  }
  if (pid == 0) {
    if (out >= 0) {
      if (dup2(out, STDOUT_FILENO) < 0) _exit(127);
      execl(gen, gen, "-q", "-s", "traffic", "--load", "1", "-c", count, "-w", "-", (char *)NULL);
    } else {
      execl(gen, gen, "-q", "-s", "traffic", "--load", "1", "-c", count, "-w", "/dev/null", (char *)NULL);
    }
    _exit(127);
  }
  return pid;
}

static int reap(pid_t pid, struct rusage *ru) {
  int st = 0;
  if (wait4(pid, &st, 0, ru) < 0) {
    perror("wait4");
    exit(1);
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static size_t read_full(FILE *f, uint8_t *p, size_t n) { return fread(p, 1, n, f); }

/* The same run through a pipe: records, flit records and bytes of the pcap. */
static void count_output(const char *gen, const char *count, uint64_t *records, uint64_t *flits, uint64_t *bytes) {
  int fd[2];
  if (pipe(fd) != 0) {
    perror("pipe");
    exit(1);
  }
  pid_t pid = spawn_gen(gen, count, fd[1]);
  close(fd[1]);
  FILE *f = fdopen(fd[0], "rb");
  if (!f) {
    perror("fdopen");
    exit(1);
  }
  static uint8_t buf[65536];
  *records = *flits = 0;
  *bytes = read_full(f, buf, PCAP_FILE_HDR);
  for (;;) {
    uint8_t h[PCAP_REC_HDR];
    if (read_full(f, h, sizeof h) != sizeof h) break;
    uint32_t caplen = (uint32_t)h[8] | (uint32_t)h[9] << 8 | (uint32_t)h[10] << 16 | (uint32_t)h[11] << 24;
    if (caplen > sizeof buf || read_full(f, buf, caplen) != caplen) break;
    *records += 1;
    *flits += caplen > 1 && buf[1] == UAL_REC_FLIT;
    *bytes += PCAP_REC_HDR + caplen;
  }
  fclose(f);
  struct rusage ru;
  if (reap(pid, &ru) != 0) {
    fprintf(stderr, "bench_gen: %s failed writing to a pipe\n", gen);
    exit(1);
  }
}

/* ual_flit_seal per flit, ns: the best pass over a buffer of payload flits. */
static double seal_ns(void) {
  enum { N = 4096, PASSES = 20 };
  uint8_t (*fl)[UAL_FLIT_BYTES] = malloc((size_t)N * UAL_FLIT_BYTES);
  if (!fl) exit(1);
  uint64_t s = 1;
  for (size_t i = 0; i < N; i++)
    for (size_t b = 0; b < UAL_FLIT_BYTES; b++) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      fl[i][b] = (uint8_t)(s >> 56);
    }
  double best = 1e30;
  unsigned sum = 0;
  for (int p = 0; p < PASSES; p++) {
    double t0 = now();
    for (size_t i = 0; i < N; i++) ual_flit_seal(fl[i]);
    double t = now() - t0;
    if (t < best) best = t;
    sum += fl[p][UAL_FLIT_BYTES - 1];
  }
  if (sum == 0xFFFFFFFFu) fputc(' ', stderr);   /* keeps the loop from being optimised away */
  free(fl);
  return best / N * 1e9;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 4) {
    fprintf(stderr, "usage: bench_gen GEN [RECORDS] [PASSES]\n");
    return 2;
  }
  const char *gen = argv[1];
  const char *count = argc > 2 ? argv[2] : "2000000";
  int passes = argc > 3 ? atoi(argv[3]) : 5;
  if (passes < 1) passes = 1;

  uint64_t records, flits, bytes;
  count_output(gen, count, &records, &flits, &bytes);
  double best_cpu = 1e30, best_wall = 1e30;
  for (int i = 0; i < passes; i++) {
    struct rusage ru;
    double t0 = now();
    pid_t pid = spawn_gen(gen, count, -1);
    int st = reap(pid, &ru);
    double wall = now() - t0, cpu = cpu_of(&ru);
    if (st != 0) {
      fprintf(stderr, "bench_gen: %s exited with status %d\n", gen, st);
      return 1;
    }
    if (cpu < best_cpu) best_cpu = cpu;
    if (wall < best_wall) best_wall = wall;
  }
  double seal = seal_ns();
  double mb = (double)bytes / 1e6;

  printf("ualink-gen -s traffic --load 1 -c %s -w /dev/null, best of %d\n", count, passes);
  printf("  %llu records, %llu flits, %.1f MB of pcap\n", (unsigned long long)records, (unsigned long long)flits, mb);
  printf("  by CPU time  %.3f s: %6.2f M flits/s  %7.1f MB/s\n", best_cpu, (double)flits / best_cpu / 1e6,
         mb / best_cpu);
  printf("  by wall time %.3f s: %6.2f M flits/s  %7.1f MB/s\n", best_wall, (double)flits / best_wall / 1e6,
         mb / best_wall);
  printf("  ual_flit_seal %.1f ns/flit in-process: %.0f%% of the CPU time (%.0f ns/flit in all)\n", seal,
         100.0 * seal * (double)flits / (best_cpu * 1e9), best_cpu * 1e9 / (double)flits);
  return 0;
}
