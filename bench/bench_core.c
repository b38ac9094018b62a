/* Core benchmark: libdecode's per-flit work on an in-memory buffer of
 * generated flits, next to memcpy and an XOR-reduce over the same buffer.
 *
 *   (0) ceiling: memcpy of the buffer; XOR of all its 64-bit words
 *   (a) ual_crc64_check + ual_fec_clean of every (clean) flit; each alone;
 *       ual_flit_check, both in one pass (what ual_flit_decode asks)
 *   (b) ual_flit_decode + ual_unpack_flit: the full stateless decode
 *
 * The flits come from the packer (pack.h): payload flits carrying TL flits and
 * DL messages (single DWords and UART Stream Transports). Each figure is the
 * best of several passes; prints flits/s, MB/s (10^6 bytes) and the ratio to
 * memcpy. No pass/fail: the targets are in bench/README.md.
 *
 *   bench_core [FLITS] [PASSES]        (default 131072 flits = 32 MiB, 5 passes)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ualink/ualink.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static uint64_t rnd(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return *s >> 24;
}

static uint32_t msg_dw(const struct ual_dlmsg *m) { return ual_dlmsg_encode(m); }

/* Queues the DL message of turn k: a credit update, a TL rate notification,
 * a link width request, or a UART transport with 1..8 payload DWords. */
static void push_message(struct ual_pack *p, uint64_t k, uint64_t *s) {
  struct ual_dlmsg m;
  memset(&m, 0, sizeof m);
  uint32_t dw[2 + UAL_UART_MAX_PAYLOAD];
  unsigned n = 1;
  switch (k % 4) {
  case 0:
    m.type = UAL_MT_UART_CREDIT;
    m.data_fc_seq = (uint16_t)(k & 0xFFF);
    break;
  case 1:
    m.type = UAL_MT_TL_RATE;
    m.rate = UAL_RATE_FULL;
    break;
  case 2:
    m.type = UAL_MT_LINK_WIDTH;
    m.command = UAL_CMD_REQUEST;
    m.target = 3;
    break;
  default:
    m.type = UAL_MT_UART_TRANSPORT;
    m.length = (uint8_t)(rnd(s) % 8);
    n = m.length + 2u;
    for (unsigned i = 1; i < n; i++) dw[i] = (uint32_t)rnd(s);
    break;
  }
  dw[0] = msg_dw(&m);
  ual_pack_push_msg(p, dw, n);
}

/* n sealed payload flits; *tl_sent / *msg_sent count what was queued. */
static void generate(uint8_t *buf, size_t n, uint64_t *tl_sent, uint64_t *msg_sent) {
  static struct ual_pack p;
  uint64_t s = 1;
  uint8_t tl[UAL_TL_FLIT_BYTES];
  unsigned seq = 1;
  ual_pack_init(&p);
  *tl_sent = *msg_sent = 0;
  for (size_t i = 0; i < n; i++) {
    while (ual_pack_tl_queued(&p) < 4) {
      for (unsigned b = 0; b < UAL_TL_FLIT_BYTES; b++) tl[b] = (uint8_t)rnd(&s);
      uint64_t r = rnd(&s);
      ual_pack_push_tl(&p, tl, (unsigned)r & 1, (unsigned)(r >> 1) & 1);
      ++*tl_sent;
    }
    if (i % 3 == 0 && ual_pack_msg_queued(&p) < 8) {
      push_message(&p, *msg_sent, &s);
      ++*msg_sent;
    }
    struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, (uint16_t)seq };
    if (i % 4 == 3) { fh.replay_cmd = UAL_RC_ACK; fh.seq = 100; }
    ual_pack_flit(&p, &fh, true, buf + i * UAL_FLIT_BYTES);
    seq = seq % 1023u + 1u;
  }
  *tl_sent -= ual_pack_tl_queued(&p); /* still queued or partly sent */
}

static double memcpy_ceiling;

static void report(const char *name, double sec, size_t n) {
  double bytes = (double)n * UAL_FLIT_BYTES;
  printf("%-34s %10.0f flits/s %7.0f MB/s", name, (double)n / sec, bytes / sec / 1e6);
  if (memcpy_ceiling > 0) printf("   %5.3f x memcpy", memcpy_ceiling / sec);
  printf("\n");
}

enum job { J_MEMCPY, J_XOR, J_CHECK, J_CRC, J_FEC, J_FLIT_CHECK, J_DECODE };

struct decode_tally { uint64_t tl, msg, findings; };

/* Job j over flits [i0, i1); returns something that depends on all of them. */
static uint64_t run(enum job j, const uint8_t *buf, uint8_t *dst, size_t i0, size_t i1,
                    struct ual_unpack *u, struct decode_tally *d) {
  const uint8_t *src = buf + i0 * UAL_FLIT_BYTES;
  size_t bytes = (i1 - i0) * UAL_FLIT_BYTES;
  uint64_t acc = 0;
  switch (j) {
  case J_MEMCPY:
    memcpy(dst + i0 * UAL_FLIT_BYTES, src, bytes);
    acc = dst[i0 * UAL_FLIT_BYTES + bytes - 1];
    break;
  case J_XOR: {
    uint64_t x0 = 0, x1 = 0, x2 = 0, x3 = 0;
    for (size_t i = 0; i < bytes; i += 32) {
      uint64_t w[4];
      memcpy(w, src + i, sizeof w);
      x0 ^= w[0]; x1 ^= w[1]; x2 ^= w[2]; x3 ^= w[3];
    }
    acc = x0 ^ x1 ^ x2 ^ x3;
    break;
  }
  case J_CHECK:
    for (size_t i = i0; i < i1; i++) {
      const uint8_t *f = buf + i * UAL_FLIT_BYTES;
      acc += (unsigned)ual_crc64_check(f) & (unsigned)ual_fec_clean(f);
    }
    break;
  case J_CRC:
    for (size_t i = i0; i < i1; i++) acc += ual_crc64_check(buf + i * UAL_FLIT_BYTES);
    break;
  case J_FEC:
    for (size_t i = i0; i < i1; i++) acc += ual_fec_clean(buf + i * UAL_FLIT_BYTES);
    break;
  case J_FLIT_CHECK:
    for (size_t i = i0; i < i1; i++) acc += ual_flit_check(buf + i * UAL_FLIT_BYTES);
    break;
  case J_DECODE: {
    static struct ual_flit_info fi;
    static struct ual_unpack_out out;
    static struct ual_findings fs;
    for (size_t i = i0; i < i1; i++) {
      ual_findings_clear(&fs);
      ual_flit_decode(buf + i * UAL_FLIT_BYTES, &fi, &fs);
      if (fi.valid && fi.kind == UAL_FK_PAYLOAD) {
        ual_unpack_flit(u, fi.bytes, i, &out, &fs);
        d->tl += out.n_tl;
        d->msg += out.n_msg;
        acc += out.n_tl ? out.tl[0].data[0] : 0;
      }
      d->findings += fs.n;
    }
    break;
  }
  }
  return acc;
}

/* Seconds for one pass of job j over the whole buffer. The pass is timed in
 * blocks and each block's best over the passes is kept, so that preemption
 * on a shared machine does not count; each pass still walks the whole
 * buffer, so caches see it as one pass. *acc and *d are from the last pass. */
#define BLOCK 2048  /* flits */
static double timed(enum job j, int passes, const uint8_t *buf, uint8_t *dst, size_t n, uint64_t *acc,
                    struct decode_tally *d) {
  size_t nb = (n + BLOCK - 1) / BLOCK;
  double *best = malloc(nb * sizeof *best), total = 0;
  static struct ual_unpack u;
  if (!best) exit(1);
  for (size_t b = 0; b < nb; b++) best[b] = 1e30;
  for (int r = 0; r < passes; r++) {
    ual_unpack_init(&u);
    memset(d, 0, sizeof *d);
    *acc = 0;
    for (size_t b = 0; b < nb; b++) {
      size_t i1 = (b + 1) * BLOCK < n ? (b + 1) * BLOCK : n;
      double t0 = now();
      *acc += run(j, buf, dst, b * BLOCK, i1, &u, d);
      double t = now() - t0;
      if (t < best[b]) best[b] = t;
    }
  }
  for (size_t b = 0; b < nb; b++) total += best[b];
  free(best);
  return total;
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? strtoul(argv[1], NULL, 0) : 131072;
  int passes = argc > 2 ? atoi(argv[2]) : 5;
  if (n < 1 || passes < 1) {
    fprintf(stderr, "usage: bench_core [FLITS] [PASSES]\n");
    return 2;
  }
  uint8_t *buf = malloc(n * UAL_FLIT_BYTES), *dst = malloc(n * UAL_FLIT_BYTES);
  if (!buf || !dst) {
    fprintf(stderr, "bench_core: out of memory\n");
    return 1;
  }
  uint64_t tl_sent, msg_sent, acc;
  generate(buf, n, &tl_sent, &msg_sent);
  memset(dst, 0, n * UAL_FLIT_BYTES);
  printf("bench_core: %zu payload flits (%.1f MB), %llu TL flits, %llu DL messages, best of %d passes\n",
         n, (double)n * UAL_FLIT_BYTES / 1e6, (unsigned long long)tl_sent, (unsigned long long)msg_sent, passes);

  int bad = 0;
  struct decode_tally d;
  memcpy_ceiling = 0;
  double t = timed(J_MEMCPY, passes, buf, dst, n, &acc, &d);
  report("(0) memcpy", t, n);
  memcpy_ceiling = t;
  report("(0) xor-reduce", timed(J_XOR, passes, buf, dst, n, &acc, &d), n);
  if (acc == 1) printf(" "); /* keeps the reduce */

  report("(a) crc64_check + fec_clean", timed(J_CHECK, passes, buf, dst, n, &acc, &d), n);
  if (acc != n) {
    fprintf(stderr, "bench_core: %llu of %zu flits clean\n", (unsigned long long)acc, n);
    bad = 1;
  }
  report("    crc64_check alone", timed(J_CRC, passes, buf, dst, n, &acc, &d), n);
  report("    fec_clean alone", timed(J_FEC, passes, buf, dst, n, &acc, &d), n);
  report("    flit_check (both, one pass)", timed(J_FLIT_CHECK, passes, buf, dst, n, &acc, &d), n);
  if (acc != n) {
    fprintf(stderr, "bench_core: %llu of %zu flits pass ual_flit_check\n", (unsigned long long)acc, n);
    bad = 1;
  }

  report("(b) flit_decode + unpack_flit", timed(J_DECODE, passes, buf, dst, n, &acc, &d), n);
  printf("    unpacked %llu TL flits, %llu DL messages, %llu findings\n",
         (unsigned long long)d.tl, (unsigned long long)d.msg, (unsigned long long)d.findings);
  if (d.tl != tl_sent || d.findings) {
    fprintf(stderr, "bench_core: decode does not match what was packed (%llu TL flits sent)\n",
            (unsigned long long)tl_sent);
    bad = 1;
  }
  free(buf);
  free(dst);
  return bad;
}
