/* A record's ual_decode_stateless result in a compact form a -j worker hands
 * to the main thread (par.c): every byte of the struct ual_rec_result but
 * what the stream decode and the analysis fill in later (unp, and the PCIe
 * flit's TLPs right after it) and the unused room of the
 * findings. Copied as the byte ranges around those two, not member by
 * member, so a member a fabric adds travels without an edit here
 * (tests/cli/test_pre.c checks that every byte arrives). */
#ifndef UAL_DC_PRE_H
#define UAL_DC_PRE_H

#include <stddef.h>

#include "ualink/ualink.h"

#define DC_PRE_UNP_AT   offsetof(struct ual_rec_result, unp)
#define DC_PRE_UNP_END  (offsetof(struct ual_rec_result, tlps) + sizeof(struct ual_pcie_tlps))
#define DC_PRE_FIND_AT  offsetof(struct ual_rec_result, findings)
#define DC_PRE_FIND_END (DC_PRE_FIND_AT + sizeof(struct ual_findings))

struct dc_pre {
  uint16_t nf, dropped;
  uint32_t f0;                                               /* its first finding in the batch's array */
  unsigned char head[DC_PRE_UNP_AT];                         /* before unp */
  unsigned char mid[DC_PRE_FIND_AT - DC_PRE_UNP_END];        /* between tlps and the findings */
  unsigned char end[sizeof(struct ual_rec_result) - DC_PRE_FIND_END + 1]; /* after them (+1: never empty) */
};

/* Keeps r in p, its findings at fv[f0..]. */
void dc_pre_store(struct dc_pre *p, const struct ual_rec_result *r, struct ual_finding *fv, uint32_t f0);
/* Gives r back what dc_pre_store kept, with nothing unpacked. */
void dc_pre_load(struct ual_rec_result *r, const struct dc_pre *p, const struct ual_finding *fv);

#endif
