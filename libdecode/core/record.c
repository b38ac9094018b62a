/* Capture records (docs/capture-format.md): header, body, link events.
 *
 *   byte  0        1      2          3      4      5       6          7
 *       +--------+------+----------+------+------+-------+----------+------+
 *       |version | kind |flags     | link | rate | width |roles     | rsvd |
 *       |        |      |7:3 rsvd  |      |      |       |7:4 rsvd  |      |
 *       |        |      |2 lost    |      |      |       |3:2 side B|      |
 *       |        |      |1 phy_err |      |      |       |1:0 side A|      |
 *       |        |      |0 dir     |      |      |       |          |      |
 *       +--------+------+----------+------+------+-------+----------+------+
 *   8.. body: flit (256) | ordered set (4 + n) | link event (8) | ...: the
 *       kind's decoder (core/kind.h) says which lengths are valid
 *
 * All positions come from the UAL_F_REC_* and UAL_F_EV_* fields. */
#include "ualink/core/record.h"
#include "ualink/core/fields.h"
#include "field_access.h"
#include "kind.h"

#include <string.h>

#define UAL_FLIT_BODY_BYTES 256u
#define UAL_LINK_UNKNOWN    255u

/* The flag bits of struct ual_rec_hdr.flags and the wire field of each. */
static const struct { enum ual_field_id field; uint8_t flag; } rec_flags[] = {
  { UAL_F_REC_DIR,     UAL_RF_DIR_B },
  { UAL_F_REC_PHY_ERR, UAL_RF_PHY_ERR },
  { UAL_F_REC_LOST,    UAL_RF_LOST },
};
#define REC_NFLAGS (sizeof rec_flags / sizeof rec_flags[0])

/* pcie.md [P3]: roles bit 7 = 1 selects the PCIe encoding (the
 * UAL_SC_REC_PCIE_ROLES rows). */
static void pcie_roles(const uint8_t *buf, struct ual_rec_hdr *h) {
  if (!ual_field_get(UAL_F_REC_PROLES_SEL, buf)) return;
  h->roles_pcie = 1;
  h->role_a = (uint8_t)ual_field_get(UAL_F_REC_PROLE_A, buf);
  h->role_b = (uint8_t)ual_field_get(UAL_F_REC_PROLE_B, buf);
  h->rsvd_roles = (uint8_t)ual_field_get(UAL_F_REC_PROLES_RSVD, buf);
}

static void pcie_roles_put(const struct ual_rec_hdr *h, uint8_t *buf) {
  ual_field_put(UAL_F_REC_PROLES_SEL, buf, 1);
  ual_field_put(UAL_F_REC_PROLE_A, buf, h->role_a);
  ual_field_put(UAL_F_REC_PROLE_B, buf, h->role_b);
  ual_field_put(UAL_F_REC_PROLES_RSVD, buf, h->rsvd_roles);
}

static void hdr_get(const uint8_t *buf, struct ual_rec_hdr *h) {
  h->version = (uint8_t)ual_field_get(UAL_F_REC_VERSION, buf);
  h->kind = (uint8_t)ual_field_get(UAL_F_REC_KIND, buf);
  h->flags = 0;
  for (size_t i = 0; i < REC_NFLAGS; i++)
    if (ual_field_get(rec_flags[i].field, buf)) h->flags |= rec_flags[i].flag;
  h->link = (uint8_t)ual_field_get(UAL_F_REC_LINK, buf);
  h->rate = (uint8_t)ual_field_get(UAL_F_REC_RATE, buf);
  h->width = (uint8_t)ual_field_get(UAL_F_REC_WIDTH, buf);
  h->role_a = (uint8_t)ual_field_get(UAL_F_REC_ROLE_A, buf);
  h->role_b = (uint8_t)ual_field_get(UAL_F_REC_ROLE_B, buf);
  h->rsvd_flags = (uint8_t)ual_field_get(UAL_F_REC_FLAGS_RSVD, buf);
  h->rsvd_roles = (uint8_t)ual_field_get(UAL_F_REC_ROLES_RSVD, buf);
  h->rsvd = (uint8_t)ual_field_get(UAL_F_REC_RSVD, buf);
  pcie_roles(buf, h);
}

/* rsvd_flags, rsvd_roles or rsvd of hdr_get set, read from the record:
 * reading them back from the header just stored would be a wide load of
 * byte stores, which waits for every store before it to drain (the -j
 * worker's compact results among them). */
static bool hdr_rsvd_any(const uint8_t *buf) {
  bool pcie = ual_field_get(UAL_F_REC_PROLES_SEL, buf) != 0;
  return ual_field_get(UAL_F_REC_FLAGS_RSVD, buf) || ual_field_get(UAL_F_REC_RSVD, buf) ||
         ual_field_get(pcie ? UAL_F_REC_PROLES_RSVD : UAL_F_REC_ROLES_RSVD, buf);
}

static void hdr_put(const struct ual_rec_hdr *h, uint8_t *buf) {
  memset(buf, 0, UAL_REC_HDR_BYTES);
  ual_field_put(UAL_F_REC_VERSION, buf, h->version);
  ual_field_put(UAL_F_REC_KIND, buf, h->kind);
  for (size_t i = 0; i < REC_NFLAGS; i++)
    ual_field_put(rec_flags[i].field, buf, (h->flags & rec_flags[i].flag) != 0);
  ual_field_put(UAL_F_REC_LINK, buf, h->link);
  ual_field_put(UAL_F_REC_RATE, buf, h->rate);
  ual_field_put(UAL_F_REC_WIDTH, buf, h->width);
  ual_field_put(UAL_F_REC_ROLE_A, buf, h->role_a);
  ual_field_put(UAL_F_REC_ROLE_B, buf, h->role_b);
  ual_field_put(UAL_F_REC_FLAGS_RSVD, buf, h->rsvd_flags);
  ual_field_put(UAL_F_REC_ROLES_RSVD, buf, h->rsvd_roles);
  ual_field_put(UAL_F_REC_RSVD, buf, h->rsvd);
  if (h->roles_pcie) pcie_roles_put(h, buf);
}

enum ual_rec_status ual_record_parse(const uint8_t *buf, size_t len, struct ual_record *r) {
  memset(r, 0, sizeof *r);
  if (!buf || len < UAL_REC_HDR_BYTES) return UAL_RS_SHORT;
  hdr_get(buf, &r->h);
  r->body = buf + UAL_REC_HDR_BYTES;
  r->body_len = len - UAL_REC_HDR_BYTES;
  if (r->h.version != UAL_REC_VERSION) return UAL_RS_VERSION;
  const struct ual_kind *k = ual_kind_of(r->h.kind);
  if (!k) return UAL_RS_KIND;
  if (!k->body_ok(r->body_len)) return UAL_RS_BODY_LEN;
  if (k->body_valid && !k->body_valid(r->body, r->body_len)) return UAL_RS_BODY;
  if (k->hdr_reserved ? k->hdr_reserved(&r->h) : hdr_rsvd_any(buf))
    return UAL_RS_RESERVED;
  return UAL_RS_OK;
}

size_t ual_record_build(const struct ual_rec_hdr *h, const uint8_t *body, size_t body_len,
                        uint8_t *out, size_t cap) {
  if (cap < UAL_REC_HDR_BYTES || cap - UAL_REC_HDR_BYTES < body_len) return 0;
  if (body_len && !body) return 0;
  hdr_put(h, out);
  if (body_len) memmove(out + UAL_REC_HDR_BYTES, body, body_len);
  return UAL_REC_HDR_BYTES + body_len;
}

void ual_rec_hdr_init(struct ual_rec_hdr *h, unsigned kind, unsigned dir_b) {
  memset(h, 0, sizeof *h);
  h->version = UAL_REC_VERSION;
  h->kind = (uint8_t)kind;
  h->flags = dir_b ? UAL_RF_DIR_B : 0;
  h->link = UAL_LINK_UNKNOWN;
  h->role_a = h->role_b = UAL_ROLE_UNKNOWN;
}

int ual_event_parse(const uint8_t *body, size_t len, struct ual_event *e) {
  memset(e, 0, sizeof *e);
  if (!body || len != UAL_REC_EVENT_BYTES) return -1;
  e->code = (uint16_t)ual_field_get(UAL_F_EV_CODE, body);
  e->rsvd = (uint16_t)ual_field_get(UAL_F_EV_RSVD, body);
  e->value = (uint32_t)ual_field_get(UAL_F_EV_VALUE, body);
  return 0;
}

void ual_event_build(const struct ual_event *e, uint8_t body[UAL_REC_EVENT_BYTES]) {
  memset(body, 0, UAL_REC_EVENT_BYTES);
  ual_field_put(UAL_F_EV_CODE, body, e->code);
  ual_field_put(UAL_F_EV_RSVD, body, e->rsvd);
  ual_field_put(UAL_F_EV_VALUE, body, e->value);
}

const char *ual_event_name(unsigned code) {
  switch (code) {
#define UAL_X_(e, c, n) case c: return n;
  UAL_EVENTS(UAL_X_)
#undef UAL_X_
  }
  return NULL;
}

const char *ual_rec_status_text(enum ual_rec_status s) {
  static const char *const text[UAL_RS_COUNT] = {
#define UAL_X_(e, t) t,
    UAL_REC_STATUS(UAL_X_)
#undef UAL_X_
  };
  return (unsigned)s < UAL_RS_COUNT ? text[s] : "?";
}

/* Rate codes of the record header: per-lane rate in units of 0.1 GT/s and the
 * line code it uses (digest §5.4; ESM rates are 1b/1b PAM4 like 64.0). */
static const struct rate_info {
  const char *name;
  uint16_t decigt;            /* GT/s x 10 */
  uint8_t code_bits, data_bits;  /* line-code overhead: code_bits per data_bits */
  uint8_t encoding;           /* enum ual_os_encoding */
} rates[] = {
  [1] = { "2.5",   25,   10,  8, UAL_ENC_8B10B },
  [2] = { "32.0",  320, 130, 128, UAL_ENC_128B130B },
  [3] = { "64.0",  640,   1,  1, UAL_ENC_1B1B },
  [4] = { "104",  1040,   1,  1, UAL_ENC_1B1B },
  [5] = { "112",  1120,   1,  1, UAL_ENC_1B1B },
  [6] = { "120",  1200,   1,  1, UAL_ENC_1B1B },
  [7] = { "128",  1280,   1,  1, UAL_ENC_1B1B },
  /* PCIe (pcie.md [P5]) */
  [8] = { "5.0",   50,   10,  8, UAL_ENC_8B10B },
  [9] = { "8.0",   80,  130, 128, UAL_ENC_128B130B },
  [10] = { "16.0", 160, 130, 128, UAL_ENC_128B130B },
};
#define NRATES (sizeof rates / sizeof rates[0])

static const struct rate_info *rate_lookup(unsigned code) {
  return code < NRATES && rates[code].name ? &rates[code] : NULL;
}

const char *ual_rate_name(unsigned code) {
  const struct rate_info *ri = rate_lookup(code);
  return ri ? ri->name : NULL;
}

int ual_rate_encoding(unsigned code) {
  const struct rate_info *ri = rate_lookup(code);
  return ri ? ri->encoding : -1;
}

uint64_t ual_flit_time_ps(unsigned rate_code, unsigned width) {
  const struct rate_info *ri = rate_lookup(rate_code);
  if (!ri || !(width == 1 || width == 2 || width == 4 || width == 8)) return 0;
  /* line bits = 2048 * code/data; ps = line bits / (lanes * decigt / 10 bits per ns) * 1000 */
  const uint64_t num = (uint64_t)UAL_FLIT_BODY_BYTES * 8u * ri->code_bits * 10000u;
  const uint64_t den = (uint64_t)ri->data_bits * width * ri->decigt;
  return (num + den / 2) / den;
}
