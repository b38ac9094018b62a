/* Ordered sets in 8b/10b, 128b/130b and 1b/1b form (digest §5.4). */
#ifndef UALINK_UALINK_OS_H
#define UALINK_UALINK_OS_H

#include <stdint.h>
#include <stddef.h>
#include "ualink/core/record.h"
#include "ualink/core/rules.h"

enum ual_os_type { UAL_OS_TS1, UAL_OS_TS2, UAL_OS_EIOS, UAL_OS_EIEOS, UAL_OS_SKP, UAL_OS_SDS, UAL_OS_UNKNOWN };
const char *ual_os_encoding_name(unsigned e); /* "8b10b", "128b130b", "1b1b" */
const char *ual_os_type_name(unsigned t);     /* "ts1", ..., "unknown" */

#define UAL_OS_MAX_SYMBOLS 64
#define UAL_UALINK_VENDOR_ID 0x20AE
#define UAL_MTS_USAGE_ALT_PROTOCOL 2

/* 8b/10b control symbols as decoded byte values */
#define UAL_K28_5 0xBC  /* COM */
#define UAL_K28_3 0x7C  /* IDL */
#define UAL_K28_0 0x1C  /* SKP */
#define UAL_K23_7 0xF7  /* PAD */
#define UAL_K28_7 0xFC

struct ual_os {
  uint8_t lane, encoding;
  uint16_t kmask;
  uint8_t n;
  uint8_t sym[UAL_OS_MAX_SYMBOLS];
  uint8_t type;                 /* enum ual_os_type */
  /* TS1/TS2 */
  uint8_t link_number, lane_number, n_fts, rate_id, flit_mode, speeds, training_control;
  uint8_t modified;             /* Modified TS (training control bits 7:6 = 11b and usage set) */
  uint8_t mts_usage;
  uint16_t vendor_id;
  uint8_t eq_control;           /* TS1 at 128b/130b and 1b/1b: EC, != 0 in equalization phases 1..3 */
};

/* Decodes an ordered-set record body (4-byte header + symbols).
 * Returns 0, or -1 when the body is shorter than its header or holds more
 * than UAL_OS_MAX_SYMBOLS symbols (type is then UAL_OS_UNKNOWN). */
int ual_os_decode(const uint8_t *body, size_t len, struct ual_os *os);
/* Stateless checks: LT-NO-FLIT-MODE for TS without Flit Mode Supported. */
void ual_os_check(const struct ual_os *os, struct ual_findings *f);

/* Builders write a record body; return its length (0 if cap is too small). */
struct ual_ts_params {
  uint8_t ts2;                  /* 0 = TS1, 1 = TS2 */
  uint8_t link_number, lane_number, n_fts, rate_id, training_control;
  uint8_t modified, mts_usage;
  uint16_t vendor_id;
  uint8_t eq_control;           /* TS1 at 128b/130b and 1b/1b: Equalization Control */
};
size_t ual_os_build_ts(uint8_t *body, size_t cap, unsigned lane, unsigned enc,
                       const struct ual_ts_params *p);
/* EIOS, EIEOS, SKP or SDS; 0 for TS1/TS2 (use ual_os_build_ts) and for sets
 * an encoding does not have (8b/10b EIEOS and SDS). */
size_t ual_os_build(uint8_t *body, size_t cap, unsigned lane, unsigned enc, unsigned type);

#endif
