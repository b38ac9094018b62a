/* garbage: writes a nanosecond pcap stream of hostile records to stdout for
 * the bounded-memory test of ualink-decode (run_garbage.py).
 *
 *   garbage framed|headers|raw BYTES [SEED]
 *
 * framed:  plausible pcap record headers (caplen 0..600 or 264) around
 *          random records: random bytes, record headers of any kind with a
 *          random body length, flits with random bodies, and sealed flits
 *          (valid CRC and FEC) with random content for the unpacker.
 * headers: random pcap record headers that libpcap still accepts: caplen
 *          0..262144 (clipped to the file's snaplen 65535), random wire
 *          length and timestamp, random bodies.
 * raw:     the pcap file header, then random bytes.
 *
 * Stops after about BYTES bytes and prints on stderr what it wrote:
 * "records N malformed M bytes B", classified with ual_record_parse on the
 * bytes libpcap hands over (raw: records 0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ualink/ualink.h"

#define SNAPLEN    65535u
#define MAX_CAPLEN 262144u          /* libpcap's limit for the USER link types */
#define POOL_BYTES (1u << 20)       /* random bytes that bodies are cut from */
#define SEALED     1024             /* pool of sealed random flits */

static uint64_t rng_state;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t written;
static void out(const void *p, size_t n) {
  if (fwrite(p, 1, n, stdout) != n) exit(0); /* the reader went away */
  written += n;
}

static void pcap_rec(uint32_t sec, uint32_t nsec, uint32_t caplen, uint32_t wire) {
  uint8_t h[16];
  put32(h, sec);
  put32(h + 4, nsec);
  put32(h + 8, caplen);
  put32(h + 12, wire);
  out(h, sizeof h);
}

static uint64_t n_rec, n_bad;
static void classify(const uint8_t *rec, size_t len) {
  struct ual_record r;
  enum ual_rec_status s = ual_record_parse(rec, len, &r);
  n_rec++;
  if (s != UAL_RS_OK && s != UAL_RS_RESERVED) n_bad++;
}

static uint8_t *pool;
static uint8_t sealed[SEALED][UAL_FLIT_BYTES];

static const uint8_t *pool_slice(size_t n) { return pool + rng() % (POOL_BYTES - n + 1); }

/* One record of the framed mode into rec; returns its length. */
static size_t framed_record(uint8_t *rec) {
  unsigned what = (unsigned)(rng() % 8);
  size_t n;
  if (what == 0) {
    n = (size_t)(rng() % 601);
    memcpy(rec, pool_slice(n), n);
    return n;
  }
  uint64_t h = rng();
  memcpy(rec, &h, UAL_REC_HDR_BYTES);
  rec[0] = UAL_REC_VERSION;
  if (what <= 2) {
    rec[1] = (uint8_t)(rng() % 5);
    n = UAL_REC_HDR_BYTES + (size_t)(rng() % 300);
    memcpy(rec + UAL_REC_HDR_BYTES, pool_slice(n), n - UAL_REC_HDR_BYTES);
    return n;
  }
  rec[1] = UAL_REC_FLIT;
  rec[2] &= 0x07;
  rec[6] &= 0x0f;
  rec[7] = 0;
  const uint8_t *body = what <= 5 ? pool_slice(UAL_FLIT_BYTES) : sealed[rng() % SEALED];
  memcpy(rec + UAL_REC_HDR_BYTES, body, UAL_FLIT_BYTES);
  return UAL_REC_HDR_BYTES + UAL_FLIT_BYTES;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: garbage framed|headers|raw BYTES [SEED]\n");
    return 2;
  }
  const char *mode = argv[1];
  uint64_t limit = strtoull(argv[2], NULL, 0);
  rng_state = argc > 3 ? strtoull(argv[3], NULL, 0) | 1 : 0x2545f4914f6cdd1dull;
  if (strcmp(mode, "framed") && strcmp(mode, "headers") && strcmp(mode, "raw")) {
    fprintf(stderr, "garbage: unknown mode '%s'\n", mode);
    return 2;
  }
  pool = malloc(POOL_BYTES);
  if (!pool) return 1;
  for (size_t i = 0; i < POOL_BYTES; i += 8) {
    uint64_t v = rng();
    memcpy(pool + i, &v, 8);
  }
  for (int i = 0; i < SEALED; i++) {
    memcpy(sealed[i], pool_slice(UAL_FLIT_BYTES), UAL_FLIT_BYTES);
    ual_flit_seal(sealed[i]);
  }
  static char obuf[1u << 20];
  setvbuf(stdout, obuf, _IOFBF, sizeof obuf);

  uint8_t fh[24];
  put32(fh, 0xa1b23c4du);              /* nanosecond pcap */
  fh[4] = 2, fh[5] = 0, fh[6] = 4, fh[7] = 0;
  put32(fh + 8, 0);
  put32(fh + 12, 0);
  put32(fh + 16, SNAPLEN);
  put32(fh + 20, UAL_DLT_USER0);
  out(fh, sizeof fh);

  uint64_t ts = 1700000000000000000ull;
  uint8_t rec[UAL_REC_HDR_BYTES + 600];
  while (written < limit) {
    if (!strcmp(mode, "raw")) {
      out(pool_slice(65536), 65536);
    } else if (!strcmp(mode, "framed")) {
      size_t n = framed_record(rec);
      uint32_t wire = (uint32_t)n + (rng() % 16 == 0 ? (uint32_t)(rng() % 1000) : 0);
      pcap_rec((uint32_t)(ts / 1000000000u), (uint32_t)(ts % 1000000000u), (uint32_t)n, wire);
      out(rec, n);
      classify(rec, n);
      ts += 2;
    } else {
      uint32_t caplen = (uint32_t)(rng() % (MAX_CAPLEN + 1));
      const uint8_t *body = pool_slice(caplen);
      pcap_rec((uint32_t)rng(), (uint32_t)rng(), caplen, (uint32_t)rng());
      out(body, caplen);
      classify(body, caplen < SNAPLEN ? caplen : SNAPLEN); /* libpcap clips to the snaplen */
    }
  }
  if (fflush(stdout) != 0) return 0;
  fprintf(stderr, "records %llu malformed %llu bytes %llu\n", (unsigned long long)n_rec,
          (unsigned long long)n_bad, (unsigned long long)written);
  return 0;
}
