/* The decoded field tree of one record, generated from the field table.
 * The CLI's -V, the TUI's detail pane and any other printer walk it; none of
 * them describes a field on its own. */
#ifndef UALINK_CORE_TREE_H
#define UALINK_CORE_TREE_H

#include <stdint.h>
#include "ualink/core/decode.h"
#include "ualink/core/fields.h"

struct ual_tree_row {
  unsigned depth;                 /* 0 = top level */
  const struct ual_field *field;  /* NULL for a group row */
  enum ual_field_id id;           /* valid when field != NULL */
  const char *label;              /* group label, or the field's name */
  uint64_t value;                 /* field value as shown (ual_field_shown); UAL_FF_BYTES: the byte count */
  char text[96];                  /* value as text: "x8 (3)", "0x1f", "True", group detail; UAL_FF_BYTES: the
                                     first 24 bytes in hex and the count (the bytes: offset, length) */
  unsigned offset;                /* first byte, relative to the record start */
  unsigned length;                /* bytes covered (container size for fields) */
  bool copied;                    /* a wire field whose bytes are not in this record (a PCIe TLP
                                     header begun in an earlier flit): value given, length 0 */
};

typedef void (*ual_tree_cb)(void *ctx, const struct ual_tree_row *row);

/* Walks the record r decoded from the bytes rec (the whole record). */
void ual_tree_walk(const struct ual_rec_result *r, const uint8_t *rec, size_t len,
                   ual_tree_cb cb, void *ctx);

/* The same field rows without group rows or texts (row.text is empty),
 * only of the scopes with scopes[sc] != 0 and the fields with fields[id]
 * != 0 (NULL: all): what a display filter reads. */
void ual_tree_walk_fields(const struct ual_rec_result *r, const uint8_t *rec, size_t len,
                          const uint8_t *scopes, const uint8_t *fields, ual_tree_cb cb, void *ctx);

/* Formats a field value as the tree shows it (a shown value, ual_field_shown). */
void ual_field_format(enum ual_field_id id, uint64_t v, char *buf, size_t cap);

#endif
