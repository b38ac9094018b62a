/* Private to libdecode: what a fabric module implements for each record
 * kind it owns, and the builders core lends it for the field tree and the
 * one-line summary. A fabric defines one struct ual_kind per kind and lists
 * it in its kinds.h (registered in core/fabrics.h); core/decode.c turns the
 * lists into the dispatch table. */
#ifndef UAL_CORE_KIND_H
#define UAL_CORE_KIND_H

#include <stdarg.h>
#include "ualink/core/decode.h"
#include "ualink/core/tree.h"

/* The field tree being built for one record (ual_tree_walk). */
struct ual_tree_builder {
  ual_tree_cb cb;
  void *ctx;
  const struct ual_rec_result *r;
  const uint8_t *rec;   /* the whole record */
  size_t len;
  bool quiet;           /* fields only: group rows and texts are left out */
  const uint8_t *scopes;  /* quiet: the scopes wanted (enum ual_scope index), NULL all */
  const uint8_t *fields;  /* quiet: the fields wanted (enum ual_field_id index), NULL all */
};

/* A group row: label and printf-style detail text, covering record bytes
 * [off, off+len). */
void ual_tb_group(struct ual_tree_builder *w, unsigned depth, const char *label, unsigned off,
                  unsigned len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* A filter's walk is quiet: skip the call and its arguments' work. */
#define ual_tb_group(w, ...) ((w)->quiet ? (void)0 : (ual_tb_group)((w), __VA_ARGS__))
/* A field row with the value given (generated fields, or read by the caller). */
void ual_tb_field(struct ual_tree_builder *w, unsigned depth, enum ual_field_id id, unsigned base,
                  uint64_t value);
/* A UAL_FF_BYTES row: the record bytes [off, off+len), shown in hex. */
void ual_tb_bytes(struct ual_tree_builder *w, unsigned depth, enum ual_field_id id, unsigned off, unsigned len);
/* Every wire field of a scope whose base is at record offset base, read
 * from the record (fields past its end are left out). */
void ual_tb_scope(struct ual_tree_builder *w, unsigned depth, enum ual_scope sc, unsigned base);
/* Whether a walk wants scope sc (a quiet walk may want only some). */
static inline bool ual_tb_wants(const struct ual_tree_builder *w, enum ual_scope sc) {
  return !w->scopes || w->scopes[sc];
}
#define ual_tb_scope(w, depth, sc, base) \
  (ual_tb_wants((w), (sc)) ? (ual_tb_scope)((w), (depth), (sc), (base)) : (void)0)
/* Every wire field of a scope read from a copy of the bytes (bytes = its
 * scope base, avail bytes there): where[i] is the record offset of
 * bytes[i], -1 when that byte is not in this record (the row is then
 * marked copied and placed at offset fallback, length 0). */
void ual_tb_scope_copy(struct ual_tree_builder *w, unsigned depth, enum ual_scope sc, const uint8_t *bytes,
                       unsigned avail, const int *where, unsigned fallback);
/* The same for one field. */
void ual_tb_field_copy(struct ual_tree_builder *w, unsigned depth, enum ual_field_id id, const uint8_t *bytes,
                       unsigned avail, const int *where, unsigned fallback);

/* A row every decoded record of a kind shows, once and at the same place:
 * a wire scope whose base is at a record offset, or a generated field the
 * result holds. A tree shows a list of them with ual_tb_fixed and its kind
 * lists the same lists (struct ual_kind.fixed), from which a filter reads
 * those fields without walking the tree. */
struct ual_fixed_row {
  bool gen;               /* a generated field (what = its id), else a scope (what = its scope) */
  uint16_t what;
  uint16_t off;           /* record offset of the scope's base, or of the generated row */
  uint64_t (*get)(const struct ual_rec_result *r);   /* gen: the value */
};
#define UAL_FIXED_SCOPE(sc, off) { false, (sc), (off), NULL }
#define UAL_FIXED_GEN(id, off, get) { true, (id), (off), (get) }
struct ual_fixed_rows {
  const struct ual_fixed_row *v;
  size_t n;
};
#define UAL_FIXED_ROWS(a) { (a), sizeof (a) / sizeof (a)[0] }
void ual_tb_fixed(struct ual_tree_builder *w, unsigned depth, const struct ual_fixed_rows *rows);
/* The value of wire field id of a scope at record offset base, as the tree
 * reads it: false when the field runs past the record. */
bool ual_tree_wire(enum ual_field_id id, const uint8_t *rec, size_t len, unsigned base, uint64_t *v);
/* Whether the tree shows record header field id (scope REC or
 * REC_PCIE_ROLES, or the kind's hdr_scope) for a record of at least
 * UAL_REC_HDR_BYTES with header h. */
bool ual_tree_rec_shows(const struct ual_rec_hdr *h, enum ual_field_id id);

/* Rows both flit kinds (UALink 1, PCIe 5) show: the "CRC and FEC" group of
 * the flit (ualink/kinds.c) with its fixed rows, the values of the rows
 * generated from the flit header, and a flit-mode DLLP's rows at depth
 * under its group (pcie/flit.c). */
extern const struct ual_fixed_rows ual_fixed_flit_crc_fec;
uint64_t ual_flit_gen_usage(const struct ual_rec_result *r);
uint64_t ual_flit_gen_kind(const struct ual_rec_result *r);
void ual_tb_flit_crc_fec(struct ual_tree_builder *w, const struct ual_rec_result *r);
void ual_tb_fdllp(struct ual_tree_builder *w, unsigned depth, unsigned type, unsigned off);

/* A one-line summary being written: appends stop at cap-1. */
struct ual_text {
  char *buf;
  size_t cap, n;
};
void ual_text_put(struct ual_text *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* How one record kind is decoded and shown. */
struct ual_kind {
  const char *name;                                  /* "flit", "ordered set" */
  const char *key;                                   /* JSON: "flit", "os" */
  bool (*body_ok)(size_t len);                       /* body length valid for the kind */
  /* Stateless decode of r->rec.body into r's part for this kind, with the
   * stateless findings. */
  void (*decode)(struct ual_rec_result *r);
  /* ual_decode_record's per-capture step after decode (NULL: none). */
  void (*stream)(struct ual_decoder *d, struct ual_rec_result *r);
  /* The body's rows of the field tree (the record header is done). */
  void (*tree)(struct ual_tree_builder *w, const struct ual_rec_result *r);
  /* The one-line summary of a decoded record. */
  void (*summary)(struct ual_text *o, const struct ual_rec_result *r);
  /* Whether the header's reserved bits are set, for a kind that gives
   * some of them a meaning (NULL: flags 7:3, roles 7:4 and byte 7). */
  bool (*hdr_reserved)(const struct ual_rec_hdr *h);
  /* The kind's finding for a body of the wrong length (NULL: none; the
   * record stays undecoded either way). */
  void (*bad_len)(struct ual_rec_result *r);
  /* The lists of fixed rows its tree shows (ual_tb_fixed), NULL-terminated;
   * NULL: none. */
  const struct ual_fixed_rows *const *fixed;
  /* A scope of rows for the record header bits the kind gives a meaning
   * to (base: record byte 0): the tree shows them in place of the record
   * rows whose bits they cover. 0 (UAL_SC_REC): none. */
  enum ual_scope hdr_scope;
  /* Whether a body of a valid length is well formed (NULL: always); a
   * malformed one is UAL_RS_BODY, reported like any malformed record. */
  bool (*body_valid)(const uint8_t *body, size_t len);
};

/* Where kind shows field id as a fixed row (NULL: not one). */
const struct ual_fixed_row *ual_kind_fixed_row(const struct ual_kind *k, enum ual_field_id id);

/* The capture record's own kinds, X(kind code, struct ual_kind). */
#define UAL_CORE_KINDS(X) \
  X(UAL_REC_EVENT, ual_kind_event)

#define UAL_KINDS(X) UAL_CORE_KINDS(X) UAL_FABRIC_KINDS(X)

#define UAL_X_(code, kind) extern const struct ual_kind kind;
UAL_KINDS(UAL_X_)
#undef UAL_X_

/* The decoder of a record kind, NULL when none is registered. */
const struct ual_kind *ual_kind_of(unsigned kind);

#endif
