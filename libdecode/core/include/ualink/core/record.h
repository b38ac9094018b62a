/* Capture records (docs/capture-format.md): pure byte-buffer parse/build of
 * the record header and link events, and the rate codes of the header. What
 * a record body holds is the business of the fabric its kind is registered
 * to (core/fabrics.h). */
#ifndef UALINK_CORE_RECORD_H
#define UALINK_CORE_RECORD_H

#include <stdint.h>
#include <stddef.h>

#define UAL_REC_VERSION   1
#define UAL_REC_HDR_BYTES 8
#define UAL_REC_FLIT      1   /* UALink flit */
#define UAL_REC_OS        2   /* ordered set */
#define UAL_REC_EVENT     3   /* link event */
/* The other fabrics' kinds. Those without a registered decoder parse as
 * UAL_RS_KIND (malformed), as version 1 readers must. */
#define UAL_REC_PCIE_DLLP 4   /* PCIe non-flit DLLP (pcie/dllp.h) */
#define UAL_REC_PCIE_FLIT 5   /* PCIe flit */
#define UAL_REC_UB_FLIT   6   /* UB data-link flit (libdecode/ub) */
#define UAL_REC_PCIE_NF   7   /* PCIe non-flit TLP or DLLP as framed (pcie/nonflit.h) */
#define UAL_REC_EVENT_BYTES 8
#define UAL_DLT_USER0     147
#define UAL_UDP_PORT      17762

#define UAL_RF_DIR_B    0x01
#define UAL_RF_PHY_ERR  0x02
#define UAL_RF_LOST     0x04

enum ual_role { UAL_ROLE_UNKNOWN = 0, UAL_ROLE_ACCEL = 1, UAL_ROLE_SWITCH = 2 };

/* Line codes: the encoding byte of ordered-set records, and the code each
 * rate uses. */
enum ual_os_encoding { UAL_ENC_8B10B = 0, UAL_ENC_128B130B = 1, UAL_ENC_1B1B = 2 };

/* X(enum suffix, code, "name") */
#define UAL_EVENTS(X) \
  X(EIDLE_ENTER, 1, "eidle_entered") \
  X(EIDLE_EXIT,  2, "eidle_exited") \
  X(RX_DETECT,   3, "receiver_detected") \
  X(RATE,        4, "rate_changed") \
  X(WIDTH,       5, "width_changed") \
  X(CAP_START,   6, "capture_started") \
  X(CAP_STOP,    7, "capture_stopped") \
  X(DROPPED,     8, "records_dropped") \
  X(UB_LINKUP,   9, "ub_linkup") \
  X(UB_LINKDOWN, 10, "ub_linkdown") \
  X(UB_RETRAIN_START, 11, "ub_retrain_start") \
  X(UB_RETRAIN_END, 12, "ub_retrain_end") \
  X(UB_MODE,     13, "ub_mode")

enum ual_event_code {
#define UAL_X_(e, c, n) UAL_EV_##e = c,
  UAL_EVENTS(UAL_X_)
#undef UAL_X_
};
const char *ual_event_name(unsigned code); /* NULL when unknown */

/* Status codes of record parsing: X(enum suffix, "text") */
#define UAL_REC_STATUS(X) \
  X(OK,          "ok") \
  X(SHORT,       "record shorter than its 8-byte header") \
  X(VERSION,     "unknown record version") \
  X(KIND,        "unknown record kind") \
  X(BODY_LEN,    "body length wrong for its kind") \
  X(RESERVED,    "reserved header bits set") \
  X(BODY,        "body malformed for its kind")

enum ual_rec_status {
#define UAL_X_(e, t) UAL_RS_##e,
  UAL_REC_STATUS(UAL_X_)
#undef UAL_X_
  UAL_RS_COUNT
};
const char *ual_rec_status_text(enum ual_rec_status s);

struct ual_rec_hdr {
  uint8_t version, kind, flags, link, rate, width;
  uint8_t role_a, role_b;       /* enum ual_role; PCIe role codes when roles_pcie */
  uint8_t roles_pcie;           /* roles bit 7: the PCIe encoding (pcie.md [P3]) */
  uint8_t rsvd_flags, rsvd_roles, rsvd;
};

struct ual_record {
  struct ual_rec_hdr h;
  const uint8_t *body;
  size_t body_len;
};

struct ual_event { uint16_t code; uint16_t rsvd; uint32_t value; };

/* Parses buf; body points into buf. Header fields are filled whenever at
 * least 8 bytes are present, even when the status is not OK. UAL_RS_RESERVED
 * is reported only when everything else is fine (the record still decodes). */
enum ual_rec_status ual_record_parse(const uint8_t *buf, size_t len, struct ual_record *r);
/* Writes header+body into out; returns the length, 0 if cap is too small. */
size_t ual_record_build(const struct ual_rec_hdr *h, const uint8_t *body, size_t body_len,
                        uint8_t *out, size_t cap);
void ual_rec_hdr_init(struct ual_rec_hdr *h, unsigned kind, unsigned dir_b);

int ual_event_parse(const uint8_t *body, size_t len, struct ual_event *e);
void ual_event_build(const struct ual_event *e, uint8_t body[UAL_REC_EVENT_BYTES]);

/* Data rate codes of the record header. */
const char *ual_rate_name(unsigned code);   /* "2.5", "32.0", ..., NULL if unknown */
/* Line code of a rate code: enum ual_os_encoding, or -1 if unknown. */
int ual_rate_encoding(unsigned code);
/* Duration of one 256-byte flit in picoseconds at a rate code and width (0 if unknown). */
uint64_t ual_flit_time_ps(unsigned rate_code, unsigned width);

#endif
