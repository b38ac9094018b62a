/* -j's compact result (cli/decode/pre.c) carries every byte that a record's
 * ual_decode_stateless writes: each record of the given captures is decoded
 * twice, into structs filled with two patterns (the bytes where the two
 * agree are the ones the decode wrote), stored, and loaded into structs
 * filled with two other patterns; outside unp (only its counts matter) and
 * the unused findings every written byte must match, so a member that is
 * not carried shows as the loading struct's pattern. Every registered record
 * kind must occur in the captures, so a fabric's member is not left
 * untested.
 *
 *   test_pre CAPTURE...
 */
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pre.h"

static struct ual_rec_result src, twin, dst;
static struct ual_finding fv[UAL_MAX_FINDINGS];
static unsigned char keep[sizeof(struct ual_rec_result)]; /* 1: outside unp and the findings */

static int check(const char *path, unsigned long long frame) {
  static _Alignas(8) unsigned char p[DC_PRE_MAX];
  static const unsigned char pat[] = { 0xa5, 0x3c };
  int bad = 0;
  size_t used = dc_pre_store(p, &src, fv, 0);
  if (used > DC_PRE_MAX || used % DC_PRE_ALIGN) {
    fprintf(stderr, "%s: frame %llu: dc_pre_store used %zu bytes\n", path, frame, used);
    return 1;
  }
  /* a FEC-clean flit: its bytes are its record's body, which the analysis
   * reads instead when the load leaves them (ual_analyzer.bytes_in_record) */
  bool clean = src.rec.h.kind == UAL_REC_FLIT && (src.status == UAL_RS_OK || src.status == UAL_RS_RESERVED) &&
               src.flit.fec.status == UAL_FEC_CLEAN;
  if (clean && memcmp(src.rec.body, src.flit.bytes, sizeof src.flit.bytes)) {
    fprintf(stderr, "%s: frame %llu: a FEC-clean flit's bytes are not its record's body\n", path, frame);
    return 1;
  }
  const size_t bytes_at = offsetof(struct ual_rec_result, flit.bytes), bytes_end = bytes_at + sizeof src.flit.bytes;
  for (unsigned k = 0; k < 2 * sizeof pat && !bad; k++) {
    bool raw = k < sizeof pat; /* else the bytes are left in the record */
    memset(&dst, pat[k % sizeof pat], sizeof dst);
    dc_pre_load(&dst, p, fv, raw);
    const unsigned char *a = (const unsigned char *)&src, *b = (const unsigned char *)&dst,
                      *t = (const unsigned char *)&twin;
    size_t fend = DC_PRE_FIND_AT + offsetof(struct ual_findings, v) + src.findings.n * sizeof(struct ual_finding);
    for (size_t i = 0; i < sizeof src; i++) {
      bool must = (keep[i] && a[i] == t[i]) || (i >= DC_PRE_FIND_AT && i < fend);
      if (!raw && clean && i >= bytes_at && i < bytes_end) must = false;
      if (must && a[i] != b[i]) {
        fprintf(stderr, "%s: frame %llu (kind %u): byte %zu of struct ual_rec_result not carried by dc_pre\n", path,
                frame, src.rec.h.kind, i);
        bad = 1;
        break;
      }
    }
    if (!bad && (dst.unpacked || dst.unp.n_tl || dst.unp.n_msg || dst.tlps.n)) {
      fprintf(stderr, "%s: frame %llu: loaded as unpacked\n", path, frame);
      bad = 1;
    }
  }
  return bad;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_pre CAPTURE...\n");
    return 2;
  }
  for (size_t i = 0; i < sizeof keep; i++)
    keep[i] = !(i >= DC_PRE_UNP_AT && i < DC_PRE_UNP_END) && !(i >= DC_PRE_FIND_AT && i < DC_PRE_FIND_END);
  unsigned long long seen[256] = { 0 }, records = 0;
  int fails = 0;
  for (int f = 1; f < argc && fails < 10; f++) {
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *pc = pcap_open_offline(argv[f], err);
    if (!pc) {
      fprintf(stderr, "test_pre: %s\n", err);
      return 2;
    }
    struct pcap_pkthdr *h;
    const u_char *d;
    unsigned long long frame = 0;
    while (pcap_next_ex(pc, &h, &d) == 1 && fails < 10) {
      memset(&src, 0x5a, sizeof src);
      ual_decode_stateless(d, h->caplen, ++frame, &src);
      memset(&twin, 0xa5, sizeof twin);
      ual_decode_stateless(d, h->caplen, frame, &twin);
      records++;
      if (h->caplen >= 2) seen[d[1]]++;
      fails += check(argv[f], frame);
    }
    pcap_close(pc);
  }
  for (unsigned k = 0; k < 256 && fails < 10; k++) {
    if (ual_rec_kind_name(k) && !seen[k]) {
      fprintf(stderr, "test_pre: no record of kind %u (%s) in the captures\n", k, ual_rec_kind_name(k));
      fails++;
    }
  }
  printf("test_pre: %llu records, %d failures\n", records, fails);
  return fails ? 1 : 0;
}
