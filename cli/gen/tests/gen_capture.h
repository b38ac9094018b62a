/* A generated capture held in memory, with its truth, for the fabric
 * scenario tests (test_pcie_gen.c, test_pciefm_gen.c): define
 * CAP_REC_BYTES (the longest record) before including. */
#ifndef UALGEN_TESTS_GEN_CAPTURE_H
#define UALGEN_TESTS_GEN_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define CAP_MAXREC 4096
struct cap {
  size_t n;
  uint8_t rec[CAP_MAXREC][CAP_REC_BYTES];
  size_t len[CAP_MAXREC];
  uint64_t ts[CAP_MAXREC];
  size_t nt;
  uint64_t tframe[16];
  int trule[16];
};

static int on_record(void *ctx, uint64_t ts, const uint8_t *rec, size_t len) {
  struct cap *c = ctx;
  if (c->n >= CAP_MAXREC || len > sizeof c->rec[0]) return 1;
  memcpy(c->rec[c->n], rec, len);
  c->len[c->n] = len;
  c->ts[c->n++] = ts;
  return 0;
}

static void on_truth(void *ctx, uint64_t frame, unsigned dir, int rule, const char *src, const char *note) {
  (void)dir; (void)src; (void)note;
  struct cap *c = ctx;
  if (c->nt < 16) { c->tframe[c->nt] = frame; c->trule[c->nt++] = rule; }
}

static bool in_truth(const struct cap *c, uint64_t frame, int rule) {
  for (size_t i = 0; i < c->nt; i++) if (c->tframe[i] == frame && c->trule[i] == rule) return true;
  return false;
}

#endif
