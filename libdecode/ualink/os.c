/* Ordered sets in 8b/10b, 128b/130b and 1b/1b form (digest §5.4).
 *
 * Record body (capture-format.md, UAL_F_OS_*):
 *   byte 0 lane | 1 encoding | 2..3 K-symbol mask (LE, bit i = symbol i) | 4.. symbols
 *
 * TS1/TS2, 16 symbols (UAL_F_TS_* from symbol 0, UAL_F_MTS_* for Modified TS):
 *   sym  0        1      2      3      4        5         6 ...................... 15
 *      +--------+------+------+------+--------+---------+---------------------------+
 *      |COM/1Eh/|link  |lane  |N_FTS |rate id |training |8b/10b, 128b/130b: TS ident|
 *      |2Dh/1Bh/|number|number|      |0: flit |control  |  (4Ah TS1, 45h TS2)       |
 *      |39h     |      |      |      |5:1 spd |7:6 MTS  |1b/1b: 8..15 repeat 0..7   |
 *      +--------+------+------+------+--------+---------+---------------------------+
 *   Modified TS: 8..9 usage[2:0] + info 1, 10..11 vendor ID, 12..13 info 2 (0);
 *   in 8b/10b and 128b/130b symbols 6..7 and 14..15 keep the TS identifier,
 *   in 1b/1b symbols 12..15 keep repeating 4..7.
 * PCIe 128b/130b carries equalization fields in symbols 6..9; the builder
 * sends identifiers there and the decoder never reads them. */
#include "ualink/ualink/os.h"
#include "ualink/core/fields.h"
#include "core/field_access.h"

#include <string.h>

#define OS_HDR_BYTES 4u
#define TS_SYMBOLS   16u
#define TS_ID_FIRST  6u   /* 8b/10b, 128b/130b: identifier symbols 6..15 */
#define TS_ID_CHECK  10u  /* regular TS: symbols 10..13 are identifiers */
#define TS_ID_TAIL   14u  /* symbols 14..15 stay identifiers in Modified TS */
#define TS_REPEAT    8u   /* 1b/1b: symbols 8..15 repeat 0..7 */
#define MTS_FIRST    8u   /* Modified TS fields start at symbol 8 */
#define MTS_BYTES    6u   /* usage/info 1, vendor ID, info 2 */
#define MTS_BYTES_1B 4u   /* 1b/1b: no info 2, symbols 12..15 keep repeating 4..7 */

static const uint8_t ts_sym0[3][2] = {
  [UAL_ENC_8B10B]    = { UAL_K28_5, UAL_K28_5 },
  [UAL_ENC_128B130B] = { 0x1E, 0x2D },
  [UAL_ENC_1B1B]     = { 0x1B, 0x39 },
};
static const uint8_t ts_ident[2] = { 0x4A, 0x45 };  /* D10.2 TS1, D5.2 TS2 */

/* Fixed ordered sets, the one description used to build and to match.
 * Symbol i = s[i] for i < head, then s[head..head+period) repeats. */
struct os_pattern {
  uint8_t enc, type, n, head, period;
  uint16_t kmask;
  uint8_t s[16];
};

static const struct os_pattern patterns[] = {
  { UAL_ENC_8B10B, UAL_OS_EIOS, 4, 0, 4, 0xF, { UAL_K28_5, UAL_K28_3, UAL_K28_3, UAL_K28_3 } },
  { UAL_ENC_8B10B, UAL_OS_SKP,  4, 0, 4, 0xF, { UAL_K28_5, UAL_K28_0, UAL_K28_0, UAL_K28_0 } },
  { UAL_ENC_128B130B, UAL_OS_EIOS, 16, 0, 1, 0, { 0x66 } },
  /* the 32.0 GT/s form: four 00h, four FFh, twice */
  { UAL_ENC_128B130B, UAL_OS_EIEOS, 16, 0, 8, 0, { 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF } },
  /* 12 SKP symbols, SKP_END, 3 LFSR/parity symbols (sent as 0 here) */
  { UAL_ENC_128B130B, UAL_OS_SKP, 16, 0, 16, 0,
    { 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xE1, 0, 0, 0 } },
  { UAL_ENC_128B130B, UAL_OS_SDS, 16, 1, 1, 0, { 0xE1, 0x87 } },
  { UAL_ENC_1B1B, UAL_OS_EIOS,  16, 0, 2, 0, { 0x0F, 0xF0 } },
  { UAL_ENC_1B1B, UAL_OS_EIEOS, 16, 0, 16, 0,
    { 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF } },
  { UAL_ENC_1B1B, UAL_OS_SKP,   40, 0, 2, 0, { 0xF0, 0x0F } },
  { UAL_ENC_1B1B, UAL_OS_SDS,   16, 0, 4, 0, { 0xB1, 0xC6, 0xC6, 0xC6 } },
};
#define NPATTERNS (sizeof patterns / sizeof patterns[0])

static uint8_t pattern_sym(const struct os_pattern *p, unsigned i) {
  return i < p->head ? p->s[i] : p->s[p->head + (i - p->head) % p->period];
}

static const struct os_pattern *pattern_find(unsigned enc, unsigned type) {
  for (size_t i = 0; i < NPATTERNS; i++)
    if (patterns[i].enc == enc && patterns[i].type == type) return &patterns[i];
  return NULL;
}

const char *ual_os_encoding_name(unsigned e) {
  static const char *const n[] = { "8b10b", "128b130b", "1b1b" };
  return e < 3 ? n[e] : "unknown";
}

const char *ual_os_type_name(unsigned t) {
  static const char *const n[] = { "ts1", "ts2", "eios", "eieos", "skp", "sds", "unknown" };
  return t <= UAL_OS_UNKNOWN ? n[t] : "unknown";
}

/* ---- identification ---- */

static int is_k(const struct ual_os *os, unsigned i) {
  return i < 16 && (os->kmask >> i & 1u);
}

/* The K bits of symbols 0..n-1 (8b/10b only; the mask covers 16 symbols). */
static uint16_t kbits(const struct ual_os *os) {
  unsigned n = os->n < 16 ? os->n : 16;
  return (uint16_t)(os->kmask & ((1u << n) - 1u));
}

static int pattern_match(const struct os_pattern *p, const struct ual_os *os) {
  if (os->encoding != p->enc || os->n != p->n) return 0;
  for (unsigned i = 0; i < p->n; i++)
    if (os->sym[i] != pattern_sym(p, i)) return 0;
  return p->enc != UAL_ENC_8B10B || kbits(os) == p->kmask;
}

/* Symbols first..first+count-1 all equal v (and are data symbols in 8b/10b). */
static int run_of(const struct ual_os *os, unsigned first, unsigned count, uint8_t v) {
  for (unsigned i = first; i < first + count; i++)
    if (i >= os->n || os->sym[i] != v || is_k(os, i)) return 0;
  return 1;
}

/* TS1 = 0, TS2 = 1 by the identifier symbols, -1 if neither. A Modified TS
 * in 8b/10b overwrites symbols 8..13, so symbols 10..13 are tried first (the
 * digest's rule for regular TS) and symbols 14..15 second. Symbols 6..7 are
 * not used: PCIe lets symbol 6 carry equalization bits. */
static int ts_ident_of(const struct ual_os *os, unsigned first, unsigned count) {
  for (int t = 0; t < 2; t++)
    if (run_of(os, first, count, ts_ident[t])) return t;
  return -1;
}

static int ts_kind(const struct ual_os *os) {
  if (os->n != TS_SYMBOLS || os->encoding > UAL_ENC_1B1B) return -1;
  if (os->encoding != UAL_ENC_8B10B) {
    for (int t = 0; t < 2; t++)
      if (os->sym[0] == ts_sym0[os->encoding][t]) return t;
    return -1;
  }
  if (os->sym[0] != UAL_K28_5 || !is_k(os, 0)) return -1;
  int t = ts_ident_of(os, TS_ID_CHECK, 4);
  return t >= 0 ? t : ts_ident_of(os, TS_ID_TAIL, TS_SYMBOLS - TS_ID_TAIL);
}

/* 8b/10b SKP after clock compensation: COM and 1..5 K28.0. */
static int skp_8b10b(const struct ual_os *os) {
  if (os->n < 2 || os->n > 6 || os->sym[0] != UAL_K28_5 || !is_k(os, 0)) return 0;
  for (unsigned i = 1; i < os->n; i++)
    if (os->sym[i] != UAL_K28_0 || !is_k(os, i)) return 0;
  return 1;
}

/* 128b/130b SKP: 4..20 SKP symbols (a multiple of 4; AAh, or 99h per the
 * digest), SKP_END E1h or control SKP_END 78h, then 3 symbols. */
static int skp_128b130b(const struct ual_os *os) {
  unsigned l = 0;
  uint8_t v = os->n ? os->sym[0] : 0;
  if (v != 0xAA && v != 0x99) return 0;
  while (l < os->n && os->sym[l] == v) l++;
  if (l < 4 || l > 20 || l % 4 || os->n != l + 4) return 0;
  return os->sym[l] == 0xE1 || os->sym[l] == 0x78;
}

/* 128b/130b EIEOS: alternating blocks of 00h and FFh, 1, 2 or 4 symbols
 * long (the 8.0, 16.0 and 32.0 GT/s forms). */
static int eieos_128b130b(const struct ual_os *os) {
  if (os->n != TS_SYMBOLS) return 0;
  for (unsigned w = 1; w <= 4; w <<= 1) {
    unsigned i = 0;
    while (i < os->n && os->sym[i] == ((i / w) & 1 ? 0xFF : 0x00)) i++;
    if (i == os->n) return 1;
  }
  return 0;
}

static unsigned os_identify(const struct ual_os *os) {
  int t = ts_kind(os);
  if (t >= 0) return t ? UAL_OS_TS2 : UAL_OS_TS1;
  for (size_t i = 0; i < NPATTERNS; i++)
    if (pattern_match(&patterns[i], os)) return patterns[i].type;
  switch (os->encoding) {
  case UAL_ENC_8B10B:    if (skp_8b10b(os)) return UAL_OS_SKP; break;
  case UAL_ENC_128B130B:
    if (skp_128b130b(os)) return UAL_OS_SKP;
    if (eieos_128b130b(os)) return UAL_OS_EIEOS;
    break;
  }
  return UAL_OS_UNKNOWN;
}

/* ---- TS fields ---- */

static unsigned sym_of(enum ual_field_id id) { return ual_fields[id].offset; }

/* Symbols 8..15 still hold the regular TS content: the identifiers in
 * 8b/10b and 128b/130b, the repeat of symbols 0..3 in 1b/1b. */
static int ts_regular_tail(const struct ual_os *os, int t) {
  if (os->encoding == UAL_ENC_1B1B) return memcmp(os->sym + TS_REPEAT, os->sym, 4) == 0;
  return run_of(os, TS_ID_CHECK, 4, ts_ident[t]);
}

/* Modified TS: training control bits 7:6 = 11b, a non-zero Modified TS Usage
 * and symbols 8..15 no longer in the regular layout. Bits 7:6 alone are not
 * enough: PCIe sends regular TS1/TS2 with 11b to advertise support before
 * switching to Modified TS, and there symbol 8 (4Ah = ...010b, 45h = ...101b,
 * or the 1b/1b repeat of symbol 0) would read as a non-zero usage. */
static void ts_decode(struct ual_os *os, int t) {
  const uint8_t *s = os->sym;
  os->link_number = (uint8_t)ual_field_get(UAL_F_TS_LINK, s);
  os->lane_number = (uint8_t)ual_field_get(UAL_F_TS_LANE, s);
  os->n_fts = (uint8_t)ual_field_get(UAL_F_TS_NFTS, s);
  os->rate_id = s[sym_of(UAL_F_TS_FLIT_MODE)];
  os->flit_mode = (uint8_t)ual_field_get(UAL_F_TS_FLIT_MODE, s);
  os->speeds = (uint8_t)ual_field_get(UAL_F_TS_SPEEDS, s);
  os->training_control = s[sym_of(UAL_F_TS_MODIFIED)];
  if (!t && os->encoding != UAL_ENC_8B10B) os->eq_control = (uint8_t)ual_field_get(UAL_F_TS_EC, s);
  if (ual_field_get(UAL_F_TS_MODIFIED, s) == 3 && ual_field_get(UAL_F_MTS_USAGE, s) != 0 &&
      !ts_regular_tail(os, t)) {
    os->modified = 1;
    os->mts_usage = (uint8_t)ual_field_get(UAL_F_MTS_USAGE, s);
    os->vendor_id = (uint16_t)ual_field_get(UAL_F_MTS_VENDOR, s);
  }
}

int ual_os_decode(const uint8_t *body, size_t len, struct ual_os *os) {
  memset(os, 0, sizeof *os);
  os->type = UAL_OS_UNKNOWN;
  if (!body || len < OS_HDR_BYTES) return -1;
  os->lane = (uint8_t)ual_field_get(UAL_F_OS_LANE, body);
  os->encoding = (uint8_t)ual_field_get(UAL_F_OS_ENCODING, body);
  os->kmask = (uint16_t)ual_field_get(UAL_F_OS_KMASK, body);
  if (len - OS_HDR_BYTES > UAL_OS_MAX_SYMBOLS) return -1;
  os->n = (uint8_t)(len - OS_HDR_BYTES);
  memcpy(os->sym, body + OS_HDR_BYTES, os->n);
  os->type = (uint8_t)os_identify(os);
  if (os->type == UAL_OS_TS1 || os->type == UAL_OS_TS2) ts_decode(os, os->type == UAL_OS_TS2);
  return 0;
}

void ual_os_check(const struct ual_os *os, struct ual_findings *f) {
  if ((os->type == UAL_OS_TS1 || os->type == UAL_OS_TS2) && !os->flit_mode)
    ual_findings_add(f, UAL_R_LT_NO_FLIT_MODE, -1,
                     "%s on lane %u without Flit Mode Supported (data rate identifier %02Xh)",
                     os->type == UAL_OS_TS1 ? "TS1" : "TS2", os->lane, os->rate_id);
}

/* ---- builders ---- */

static void os_hdr_put(uint8_t *body, unsigned lane, unsigned enc, unsigned kmask) {
  memset(body, 0, OS_HDR_BYTES);
  ual_field_put(UAL_F_OS_LANE, body, lane);
  ual_field_put(UAL_F_OS_ENCODING, body, enc);
  ual_field_put(UAL_F_OS_KMASK, body, kmask);
}

size_t ual_os_build_ts(uint8_t *body, size_t cap, unsigned lane, unsigned enc,
                       const struct ual_ts_params *p) {
  if (enc > UAL_ENC_1B1B || cap < OS_HDR_BYTES + TS_SYMBOLS) return 0;
  const int t = p->ts2 ? 1 : 0;
  uint8_t *s = body + OS_HDR_BYTES;
  memset(s, 0, TS_SYMBOLS);
  s[0] = ts_sym0[enc][t];
  ual_field_put(UAL_F_TS_LINK, s, p->link_number);
  ual_field_put(UAL_F_TS_LANE, s, p->lane_number);
  ual_field_put(UAL_F_TS_NFTS, s, p->n_fts);
  s[sym_of(UAL_F_TS_FLIT_MODE)] = p->rate_id;
  s[sym_of(UAL_F_TS_MODIFIED)] = p->training_control;
  if (p->modified) ual_field_put(UAL_F_TS_MODIFIED, s, 3);

  /* 128b/130b TS1: symbols 6..9 are the equalization fields, the
   * identifiers start at 10 */
  const int eq = !t && enc != UAL_ENC_8B10B;
  if (enc == UAL_ENC_1B1B)
    memcpy(s + TS_REPEAT, s, TS_SYMBOLS - TS_REPEAT);
  else
    memset(s + (eq ? TS_ID_CHECK : TS_ID_FIRST), ts_ident[t], TS_SYMBOLS - (eq ? TS_ID_CHECK : TS_ID_FIRST));
  if (eq) {
    ual_field_put(UAL_F_TS_EC, s, p->eq_control);
    if (enc == UAL_ENC_1B1B) s[TS_REPEAT + sym_of(UAL_F_TS_EC)] = s[sym_of(UAL_F_TS_EC)];
  }
  if (p->modified) {
    memset(s + MTS_FIRST, 0, enc == UAL_ENC_1B1B ? MTS_BYTES_1B : MTS_BYTES);
    ual_field_put(UAL_F_MTS_USAGE, s, p->mts_usage);
    ual_field_put(UAL_F_MTS_VENDOR, s, p->vendor_id);
  }

  /* 8b/10b: COM is a K symbol, and so is PAD (K23.7) as link or lane number. */
  unsigned kmask = 0;
  if (enc == UAL_ENC_8B10B) {
    kmask = 1u;
    if (p->link_number == UAL_K23_7) kmask |= 1u << sym_of(UAL_F_TS_LINK);
    if (p->lane_number == UAL_K23_7) kmask |= 1u << sym_of(UAL_F_TS_LANE);
  }
  os_hdr_put(body, lane, enc, kmask);
  return OS_HDR_BYTES + TS_SYMBOLS;
}

size_t ual_os_build(uint8_t *body, size_t cap, unsigned lane, unsigned enc, unsigned type) {
  const struct os_pattern *p = pattern_find(enc, type);
  if (!p || cap < OS_HDR_BYTES + p->n) return 0;
  os_hdr_put(body, lane, enc, p->kmask);
  for (unsigned i = 0; i < p->n; i++) body[OS_HDR_BYTES + i] = pattern_sym(p, i);
  return OS_HDR_BYTES + p->n;
}
