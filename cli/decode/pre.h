/* A record's ual_decode_stateless result in a compact form a -j worker hands
 * to the main thread (par.c): every byte of the struct ual_rec_result that
 * the decode writes, but not what the stream decode and the analysis fill in
 * later (unp, and the PCIe flit's TLPs right after it) nor the unused room
 * of the findings. Copied as byte ranges of the struct, not member by
 * member, so a member a fabric adds travels without an edit here
 * (tests/cli/test_pre.c checks that every byte the decode writes arrives).
 * The forms are packed one after another in a batch's buffer: what crosses
 * between the cores is what costs (bench/README.md, "bench_decode"). */
#ifndef UAL_DC_PRE_H
#define UAL_DC_PRE_H

#include <stdbool.h>
#include <stddef.h>

#include "ualink/ualink.h"

#define DC_PRE_UNP_AT   offsetof(struct ual_rec_result, unp)
#define DC_PRE_UNP_END  (offsetof(struct ual_rec_result, tlps) + sizeof(struct ual_pcie_tlps))
#define DC_PRE_FIND_AT  offsetof(struct ual_rec_result, findings)
#define DC_PRE_FIND_END (DC_PRE_FIND_AT + sizeof(struct ual_findings))
/* The largest form, and the alignment each one starts at. */
#define DC_PRE_ALIGN    8u
#define DC_PRE_MAX      (8u + DC_PRE_UNP_AT + (DC_PRE_FIND_AT - DC_PRE_UNP_END) + \
                         (sizeof(struct ual_rec_result) - DC_PRE_FIND_END) + DC_PRE_ALIGN)

/* Writes r's form at p (DC_PRE_MAX bytes of room, DC_PRE_ALIGN-aligned), its
 * findings at fv[f0..]; returns the bytes used, a multiple of DC_PRE_ALIGN. */
size_t dc_pre_store(unsigned char *p, const struct ual_rec_result *r, struct ual_finding *fv, uint32_t f0);
/* Gives r back what dc_pre_store kept, with nothing unpacked. A FEC-clean
 * UALink flit's bytes are in its record (r->rec.body), which must still be
 * where the decode read it: copied to r->flit.bytes when raw_bytes, else
 * left there for an analysis that reads them from the record
 * (ual_analyzer.bytes_in_record), so that the thread that loads r does not
 * read the lines another thread's read(2) will write next. */
void dc_pre_load(struct ual_rec_result *r, const unsigned char *p, const struct ual_finding *fv, bool raw_bytes);

#endif
