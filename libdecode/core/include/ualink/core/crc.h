/* CRC-64 and FEC of the 256-byte flit (digest §5.1, §5.2; PCIe 6.x). */
#ifndef UALINK_CORE_CRC_H
#define UALINK_CORE_CRC_H

#include <stdint.h>
#include <stdbool.h>

#define UAL_FLIT_BYTES    256
#define UAL_CRC_OFFSET    242   /* CRC covers bytes 0..241 */
#define UAL_CRC_BYTES     8
#define UAL_FEC_OFFSET    250   /* FEC covers bytes 0..249 */
#define UAL_FEC_BYTES     6

/* Computes the CRC over flit bytes 0..241 into crc[0..7] (= flit bytes 242..249). */
void ual_crc64(const uint8_t *flit, uint8_t crc[UAL_CRC_BYTES]);
/* Plain byte-serial reference of the same code (the digest's pseudo-code), for tests. */
void ual_crc64_ref(const uint8_t *flit, uint8_t crc[UAL_CRC_BYTES]);
bool ual_crc64_check(const uint8_t *flit);
/* The CRC-64 as one number, the one way every front-end shows it (-V, JSON,
 * ualink-tui, Wireshark: 0x and 16 hex digits): flit byte 242+k holds the
 * coefficient of x^k, so byte 242 is the lowest byte of the value (read
 * little-endian, as the field table's CRC-64 field is). */
uint64_t ual_crc64_value(const uint8_t crc[UAL_CRC_BYTES]);

/* FEC group status. */
enum ual_fec_status { UAL_FEC_CLEAN = 0, UAL_FEC_CORRECTED = 1, UAL_FEC_UNCORRECTABLE = 2 };
const char *ual_fec_status_name(enum ual_fec_status s); /* "clean", ... */

struct ual_fec_result {
  uint8_t status;        /* worst group status, enum ual_fec_status */
  uint8_t group[3];      /* per group, enum ual_fec_status */
  int16_t pos[3];        /* flit byte corrected in the group, -1 if none */
};

/* Computes flit bytes 250..255 from bytes 0..249. */
void ual_fec_encode(uint8_t *flit);
void ual_fec_encode_ref(uint8_t *flit);
/* True when all six syndromes are zero (the fast path for clean flits). */
bool ual_fec_clean(const uint8_t *flit);
/* Checks and corrects flit in place; fills r. Returns r->status. */
enum ual_fec_status ual_fec_correct(uint8_t *flit, struct ual_fec_result *r);

/* True when the FEC is clean and the CRC ok: ual_fec_clean and
 * ual_crc64_check in one pass, for the flits that pass both. */
bool ual_flit_check(const uint8_t *flit);

/* Computes CRC then FEC for a flit whose bytes 0..241 are set. */
void ual_flit_seal(uint8_t *flit);

#endif
