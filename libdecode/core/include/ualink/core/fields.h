/* The one field table: every wire field of every record kind, described
 * once. Decoders, encoders, printers, JSON, the TUI tree and the Wireshark
 * hf array all use it. This header has the machinery and the rows of the
 * capture record itself (record header, link events); each fabric adds its
 * scopes, value lists and rows through core/fabrics.h.
 *
 * Bit-range convention (the only one in the project): a field lives in a
 * container of `size` bytes starting `offset` bytes after its scope's base,
 * read little- or big-endian, at bits [lsb, lsb+width) of that container. */
#ifndef UALINK_CORE_FIELDS_H
#define UALINK_CORE_FIELDS_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "ualink/core/fabrics.h"

struct ual_value_name {
  uint32_t value;
  const char *name;   /* display name; NULL terminates a list */
};

/* Scopes of the capture record, X(enum suffix of UAL_SC_). */
#define UAL_CORE_SCOPES(X) \
  X(REC)                /* record header, byte 0 of the record */ \
  X(EVENT)              /* link-event record body */ \
  X(REC_PCIE_ROLES)     /* record header, byte 0, when roles bit 7 selects the PCIe encoding */

/* Where a scope's base is: the record's own scopes, then each fabric's. */
enum ual_scope {
#define UAL_X_(s) UAL_SC_##s,
  UAL_CORE_SCOPES(UAL_X_)
  UAL_FABRIC_SCOPES(UAL_X_)
#undef UAL_X_
  UAL_SC_COUNT
};

#define UAL_LE 0
#define UAL_BE 1

/* flags */
#define UAL_FF_RESERVED 0x01  /* must be zero (DM-RESERVED, DL-SH-RESERVED, ...) */
#define UAL_FF_ENUM     0x02  /* only the listed values are valid (DM-FIELD) */
#define UAL_FF_HEX      0x04  /* display in hex */
#define UAL_FF_BOOL     0x08  /* one-bit flag */
#define UAL_FF_FRAME    0x10  /* a frame number (generated; Wireshark FT_FRAMENUM) */
#define UAL_FF_INPLACE  0x20  /* its low bits are implied zeros (an address): shown, filtered and exported
                                 as the container masked, not shifted (ual_field_shown) */
#define UAL_FF_BDF      0x40  /* a 16-bit bus/device/function ID: shown "bb:dd.f", filters take that form too */
#define UAL_FF_BYTES    0x80  /* generated: a run of record bytes (a payload), located by its tree row's offset
                                 and length, its value their count; Wireshark FT_BYTES, filters compare the bytes */

/* Value-name lists ual_vals_<name>; the record's are defined in core/fields.c. */
#define UAL_CORE_VALUE_LISTS(X) \
  X(rec_kind) X(dir) X(rate) X(role) X(event) X(rec_width) X(rec_link) X(pcie_role)
#define UAL_VALUE_LISTS(X) UAL_CORE_VALUE_LISTS(X) UAL_FABRIC_VALUE_LISTS(X)

#define UAL_X_(n) extern const struct ual_value_name ual_vals_##n[];
UAL_VALUE_LISTS(UAL_X_)
#undef UAL_X_

/* X(ID, scope, "Name", "filter name after ualink." (rows of
 *   their own protocol: the full name, core/fabrics.h), offset, size, endian,
 *   lsb, width, flags, value list or NULL, "spec section") */
#define UAL_V_(n) ual_vals_##n
#define UAL_CORE_FIELDS(X) \
  X(REC_VERSION,  UAL_SC_REC, "Version",        "rec.version",   0, 1, UAL_LE, 0, 8, 0, NULL, "capture-format") \
  X(REC_KIND,     UAL_SC_REC, "Kind",           "rec.kind",      1, 1, UAL_LE, 0, 8, UAL_FF_ENUM, UAL_V_(rec_kind), "capture-format") \
  X(REC_DIR,      UAL_SC_REC, "Direction",      "rec.dir",       2, 1, UAL_LE, 0, 1, 0, UAL_V_(dir), "capture-format") \
  X(REC_PHY_ERR,  UAL_SC_REC, "PHY error",      "rec.phy_err",   2, 1, UAL_LE, 1, 1, UAL_FF_BOOL, NULL, "capture-format") \
  X(REC_LOST,     UAL_SC_REC, "Records lost",   "rec.lost",      2, 1, UAL_LE, 2, 1, UAL_FF_BOOL, NULL, "capture-format") \
  X(REC_FLAGS_RSVD,UAL_SC_REC,"Reserved flags", "rec.flags_rsvd",2, 1, UAL_LE, 3, 5, UAL_FF_RESERVED, NULL, "capture-format") \
  X(REC_LINK,     UAL_SC_REC, "Link",           "rec.link",      3, 1, UAL_LE, 0, 8, 0, UAL_V_(rec_link), "capture-format") \
  X(REC_RATE,     UAL_SC_REC, "Rate",           "rec.rate",      4, 1, UAL_LE, 0, 8, UAL_FF_ENUM, UAL_V_(rate), "capture-format") \
  X(REC_WIDTH,    UAL_SC_REC, "Width",          "rec.width",     5, 1, UAL_LE, 0, 8, UAL_FF_ENUM, UAL_V_(rec_width), "capture-format") \
  X(REC_ROLE_A,   UAL_SC_REC, "Side A role",    "rec.role_a",    6, 1, UAL_LE, 0, 2, UAL_FF_ENUM, UAL_V_(role), "capture-format") \
  X(REC_ROLE_B,   UAL_SC_REC, "Side B role",    "rec.role_b",    6, 1, UAL_LE, 2, 2, UAL_FF_ENUM, UAL_V_(role), "capture-format") \
  X(REC_ROLES_RSVD,UAL_SC_REC,"Reserved roles", "rec.roles_rsvd",6, 1, UAL_LE, 4, 4, UAL_FF_RESERVED, NULL, "capture-format") \
  X(REC_RSVD,     UAL_SC_REC, "Reserved",       "rec.rsvd",      7, 1, UAL_LE, 0, 8, UAL_FF_RESERVED, NULL, "capture-format") \
  X(EV_CODE,      UAL_SC_EVENT, "Event",       "event.code",    0, 2, UAL_LE, 0, 16, UAL_FF_ENUM, UAL_V_(event), "capture-format") \
  X(EV_RSVD,      UAL_SC_EVENT, "Reserved",    "event.rsvd",    2, 2, UAL_LE, 0, 16, UAL_FF_RESERVED, NULL, "capture-format") \
  X(EV_VALUE,     UAL_SC_EVENT, "Value",       "event.value",   4, 4, UAL_LE, 0, 32, 0, NULL, "capture-format") \
  X(REC_PROLE_A,  UAL_SC_REC_PCIE_ROLES, "Side A role (PCIe)", "rec.pcie_role_a", 6, 1, UAL_LE, 0, 3, UAL_FF_ENUM, UAL_V_(pcie_role), "pcie.md [P3]") \
  X(REC_PROLE_B,  UAL_SC_REC_PCIE_ROLES, "Side B role (PCIe)", "rec.pcie_role_b", 6, 1, UAL_LE, 3, 3, UAL_FF_ENUM, UAL_V_(pcie_role), "pcie.md [P3]") \
  X(REC_PROLES_RSVD, UAL_SC_REC_PCIE_ROLES, "Reserved roles", "rec.pcie_roles_rsvd", 6, 1, UAL_LE, 6, 1, UAL_FF_RESERVED, NULL, "pcie.md [P3]") \
  X(REC_PROLES_SEL, UAL_SC_REC_PCIE_ROLES, "PCIe role encoding", "rec.pcie_roles", 6, 1, UAL_LE, 7, 1, UAL_FF_BOOL, NULL, "pcie.md [P3]")

/* The whole table, in scope order; by protocol as in core/fabrics.h. */
#define UAL_FIELDS(X) UAL_CORE_FIELDS(X) UAL_FABRIC_FIELDS(X)
#define UAL_FIELDS_BY_PROTO(XU, XF) UAL_CORE_FIELDS(XU) UAL_FABRIC_FIELDS_BY_PROTO(XU, XF)

enum ual_field_id {
#define UAL_X_(id, ...) UAL_F_##id,
  UAL_FIELDS(UAL_X_)
#undef UAL_X_
  UAL_F_COUNT
};

struct ual_field {
  const char *name;      /* display name */
  const char *abbrev;    /* display-filter name, "ualink.fh.seq" */
  uint8_t scope;         /* enum ual_scope */
  uint8_t offset;        /* container start, bytes after the scope base */
  uint8_t size;          /* container bytes, 0 for generated values */
  uint8_t endian;        /* UAL_LE or UAL_BE */
  uint8_t lsb, width;    /* bits [lsb, lsb+width) of the container */
  uint8_t flags;         /* UAL_FF_* */
  const struct ual_value_name *vals;
  const char *section;   /* specification section */
};

/* Initializer of one table row, shared by the exported table and the
 * library's private constant-folded copy (core/field_access.h). */
#define UAL_FIELD_ROW_(id, sc, name, abbrev, off, size, end, lsb, width, flags, vals, sec) \
  { name, "ualink." abbrev, sc, off, size, end, lsb, width, flags, vals, sec },
#define UAL_FIELD_ROW_FULL_(id, sc, name, abbrev, off, size, end, lsb, width, flags, vals, sec) \
  { name, abbrev, sc, off, size, end, lsb, width, flags, vals, sec },
#define UAL_FIELD_ROWS_ UAL_FIELDS_BY_PROTO(UAL_FIELD_ROW_, UAL_FIELD_ROW_FULL_)

extern const struct ual_field ual_fields[UAL_F_COUNT];

/* Extracts a field from the bytes at its scope base. */
uint64_t ual_field_get(enum ual_field_id id, const uint8_t *base);
/* Writes v (masked to the field width) into the bytes at its scope base. */
void ual_field_put(enum ual_field_id id, uint8_t *base, uint64_t v);
/* Mask of the field inside its container (for fields of size <= 8). */
uint64_t ual_field_mask(enum ual_field_id id);
/* The value a person reads, filters and exports from a value ual_field_get
 * returned: in place for UAL_FF_INPLACE fields, else unchanged. */
uint64_t ual_field_shown(enum ual_field_id id, uint64_t v);
/* A bus/device/function ID as "bb:dd.f" (bus 8 bits, device 5, function 3). */
void ual_field_bdf(char *buf, size_t cap, unsigned id);
/* Parses "bb:dd.f" (hex bus and device, function 0-7): the 16-bit ID, -1 when s is not one. */
long ual_field_bdf_parse(const char *s, size_t n);
/* Whether front-ends take the field from its container by mask and shift
 * (Wireshark's hf bitmask): narrower than its container, not in place. */
bool ual_field_bitmask(enum ual_field_id id);

/* Name of a value in a list, or NULL when it is not listed. */
const char *ual_value_name(const struct ual_value_name *vals, uint32_t v);
/* Field-aware: the value name, or NULL. */
const char *ual_field_value_name(enum ual_field_id id, uint32_t v);
/* Fields of a scope, in table order: fills ids[] and returns the count. */
size_t ual_scope_fields(enum ual_scope sc, enum ual_field_id *ids, size_t cap);
/* The same fields as one run of ids: the first, and the count returned. */
size_t ual_scope_span(enum ual_scope sc, enum ual_field_id *first);
/* OR of the masks of the reserved fields of a scope. */
uint64_t ual_scope_reserved_mask(enum ual_scope sc);
/* First field of scope sc flagged UAL_FF_ENUM whose value at base is not
 * listed; returns false when there is none. */
bool ual_scope_unlisted(enum ual_scope sc, const uint8_t *base, enum ual_field_id *id, uint32_t *v);
/* First reserved field of scope sc that is non-zero at base; false when none. */
bool ual_scope_reserved_set(enum ual_scope sc, const uint8_t *base, enum ual_field_id *id, uint32_t *v);

#endif
