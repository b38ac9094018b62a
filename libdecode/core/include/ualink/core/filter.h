/* Wireshark 4.0 display filters and field extraction over decoded records.
 *
 * A filter is compiled once (ual_filter_compile: the only allocation) into
 * a small program over the filter fields; per record, ual_filter_collect
 * gathers the occurrences of the fields the program uses into its view, and
 * ual_filter_match evaluates it. The filter fields are exactly what the
 * Wireshark plugin registers, with the same names, types and occurrences:
 *   - frame.number, frame.len, frame.time_relative, frame.time_delta;
 *   - every row of the field table (fields.h), where ual_tree_walk shows it;
 *   - each fabric's own fields (its protocol, reassembled data, analysis
 *     state, findings), through its hook (struct ual_filter_fabric).
 * Semantics follow Wireshark 4.0: a comparison holds when any occurrence
 * matches; "!=" is not "==" and "===" not "~=" (both false for an absent
 * field), "~=" any not equal; "matches" ignores case (PCRE2). */
#ifndef UALINK_CORE_FILTER_H
#define UALINK_CORE_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ualink/core/decode.h"
#include "ualink/core/fields.h"

/* Wireshark's field types, as far as ours use them. */
enum ual_ft {
  UAL_FT_NONE,      /* FT_NONE: presence only (expert items) */
  UAL_FT_PROTOCOL,  /* FT_PROTOCOL: the record's bytes */
  UAL_FT_BOOLEAN,
  UAL_FT_UINT,      /* FT_UINT8..FT_UINT64 by bytes */
  UAL_FT_INT,       /* FT_INT8..FT_INT64 by bytes */
  UAL_FT_FRAMENUM,
  UAL_FT_BYTES,
  UAL_FT_STRING,
  UAL_FT_RELTIME,   /* FT_RELATIVE_TIME, nanoseconds */
};

#define UAL_FB_DEC  0
#define UAL_FB_HEX  1
#define UAL_FB_NONE 2

/* One filter field, as Wireshark registers it. */
struct ual_filter_field {
  const char *name;                   /* display name */
  const char *abbrev;                 /* "ualink.fh.seq" */
  uint8_t type;                       /* enum ual_ft */
  uint8_t bytes;                      /* integer size; FT_BOOLEAN: container bits / 8 (0 none) */
  uint8_t base;                       /* UAL_FB_* */
  uint64_t mask;                      /* bitmask in the container, 0 none */
  const struct ual_value_name *vals;  /* value names, NULL none */
  const char *blurb;                  /* description, NULL none */
  const char *section;                /* field-table rows: the blurb is "name (section)" */
};

/* One occurrence of a field in a record. */
struct ual_fvalue {
  uint16_t field;      /* filter field id */
  uint16_t slot;       /* the program's index of the field */
  uint32_t len;        /* bytes/string length */
  union {
    uint64_t u;        /* UINT, FRAMENUM, BOOLEAN (0/1), RELTIME (ns, signed) */
    int64_t i;         /* INT, RELTIME */
    const uint8_t *p;  /* BYTES, PROTOCOL, STRING (not NUL-terminated) */
  } v;
  const char *label;   /* PROTOCOL: the item's text when it has one (tshark -e prints it), else NULL */
};

/* What a filter sees of one record. */
struct ual_filter_record {
  const uint8_t *rec;                 /* the capture record as captured */
  size_t len;
  uint32_t wire_len;                  /* frame.len (len when not known) */
  uint64_t frame;                     /* 1-based */
  int64_t rel_ns, delta_ns;           /* frame.time_relative, frame.time_delta */
  const struct ual_rec_result *r;
  const void *state;                  /* fabric-specific stateful results, NULL when not analysed
                                         (UALink: struct ual_filter_ualink) */
};

struct ual_fview;

/* A fabric's part: its fields and how they occur in a record. Listed in
 * core/fabrics.h (UAL_FABRIC_FILTERS). */
struct ual_filter_fabric {
  const struct ual_filter_field *fields;
  size_t n_fields;
  /* Adds the occurrences of the fabric's fields that v wants (ual_fview_want
   * with ids 0..n_fields-1 of its own table). */
  void (*collect)(struct ual_fview *v, const struct ual_filter_record *fr);
  /* The bytes the field tree is read from when not the record as captured
   * (UALink: the FEC-corrected flit), or NULL. May use ual_fview_text. */
  const uint8_t *(*tree_bytes)(struct ual_fview *v, const struct ual_filter_record *fr);
};

/* For a fabric's collect: the slot of its field i, or -1 when not wanted;
 * whether any of its fields lo..hi is wanted. */
int ual_fview_want(const struct ual_fview *v, const struct ual_filter_fabric *fab, size_t i);
bool ual_fview_want_any(const struct ual_fview *v, const struct ual_filter_fabric *fab, size_t lo, size_t hi);
/* Adds an occurrence; a string or bytes value must live until the record
 * is evaluated (or copy it with ual_fview_text). Full views drop values. */
void ual_fview_add_uint(struct ual_fview *v, int slot, uint64_t u);
void ual_fview_add_bytes(struct ual_fview *v, int slot, const void *p, size_t len);
/* Copies a string into the view's own buffer; returns where, or NULL. */
char *ual_fview_text(struct ual_fview *v, size_t cap);
void ual_fview_add_text(struct ual_fview *v, int slot, const char *s, size_t len);
/* Gives the last occurrence added (a PROTOCOL) its item text, copied. */
void ual_fview_label_last(struct ual_fview *v, const char *text);
/* A fabric's protocol item over the record body (the plugin's item for the
 * body's first top-level group): the body's bytes, labelled as that group. */
void ual_fview_add_body_protocol(struct ual_fview *v, int slot, const struct ual_filter_record *fr);

/* ---- the field registry ---- */

/* Number of filter fields; ids 0..n-1. */
size_t ual_filter_field_count(void);
/* Field id (fills *f), false when out of range. */
bool ual_filter_field_get(size_t id, struct ual_filter_field *f);
/* Field id of an abbreviation, -1 when unknown. */
int ual_filter_field_lookup(const char *abbrev, size_t n);
/* Wireshark's name of a field type: "FT_UINT16", and its description
 * "Unsigned integer (2 bytes)". */
const char *ual_ft_name(const struct ual_filter_field *f);
const char *ual_ft_desc(const struct ual_filter_field *f);

/* ---- the fabrics' hooks (UAL_FABRIC_FILTERS) ---- */

/* The hooks in registration order. fields[0] of each is its protocol,
 * named as the fabric's view key ("pcie": core/views.h); the first one's
 * ("ualink") is also the capture record's, the root of every record. */
size_t ual_filter_fabric_count(void);
const struct ual_filter_fabric *ual_filter_fabric_at(size_t i);
/* The hook whose protocol abbrev is abbrev ("pcie") or begins it with a
 * dot ("pcie.tlp.type"); 0 when none does. */
size_t ual_filter_fabric_of(const char *abbrev);

/* ---- compiling and evaluating ---- */

struct ual_filter;

struct ual_filter_error {
  char msg[256];       /* "foo is neither a field nor a protocol name." */
  int pos, len;        /* byte span of the offending token; pos < 0: none */
};

/* Compiles a display filter; NULL with *err filled when it is not one
 * (or on allocation failure). An empty filter (only spaces) matches every
 * record. */
struct ual_filter *ual_filter_compile(const char *text, struct ual_filter_error *err);
/* A program that only extracts fields (-T fields): fields[] are
 * abbreviations; NULL with err naming the first unknown one. */
struct ual_filter *ual_filter_fields(const char *const *fields, size_t n, struct ual_filter_error *err);
void ual_filter_free(struct ual_filter *f);

/* Gathers the record's occurrences of the fields f uses. */
void ual_filter_collect(struct ual_filter *f, const struct ual_filter_record *fr);
/* Whether ual_filter_collect walks the record's field tree for fr; false
 * when every field-table row f reads is at a fixed place of the record
 * (read from there, as the tree would show it). For tests. */
bool ual_filter_walks(const struct ual_filter *f, const struct ual_filter_record *fr);
/* Evaluates the compiled filter on the collected record. */
bool ual_filter_match(const struct ual_filter *f);
/* The collected occurrences, in the order the tree shows them; each names
 * its slot (the program's field number: for ual_filter_fields, the index
 * in its list). */
size_t ual_filter_nvalues(const struct ual_filter *f);
const struct ual_fvalue *ual_filter_value(const struct ual_filter *f, size_t i);
/* Slots and their field ids. */
size_t ual_filter_slots(const struct ual_filter *f);
int ual_filter_slot_field(const struct ual_filter *f, unsigned slot);
/* True when the program reads fabric state (the caller must provide it). */
bool ual_filter_uses_state(const struct ual_filter *f);
/* True when the program reads filter field id (false for -1). */
bool ual_filter_uses(const struct ual_filter *f, int id);

/* Writes "message\n    filter\n    ^~~~\n" (tshark's layout) into buf. */
void ual_filter_error_text(const char *text, const struct ual_filter_error *err, char *buf, size_t cap);

/* A value as tshark -T fields prints it (into buf, NUL-terminated). */
void ual_fvalue_format(const struct ual_fvalue *v, char *buf, size_t cap);

#endif
