/* Field tree of a record, from the field table (tree.h): the record header
 * here, the body by the kind's decoder (core/kind.h). */
#include "ualink/core/tree.h"
#include "kind.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ual_field_format(enum ual_field_id id, uint64_t v, char *buf, size_t cap) {
  const struct ual_field *fd = &ual_fields[id];
  const char *name = ual_value_name(fd->vals, (uint32_t)v);
  if (fd->flags & UAL_FF_BOOL)
    snprintf(buf, cap, "%s", v ? "True" : "False");
  else if (fd->flags & UAL_FF_BDF)
    ual_field_bdf(buf, cap, (unsigned)v);
  else if (name)
    snprintf(buf, cap, "%s (%" PRIu64 ")", name, v);
  else if (fd->vals && (fd->flags & UAL_FF_ENUM))
    snprintf(buf, cap, "reserved (%" PRIu64 ")", v);
  else if (fd->flags & UAL_FF_HEX)
    snprintf(buf, cap, "0x%0*" PRIx64, (fd->width + (fd->flags & UAL_FF_INPLACE ? fd->lsb : 0) + 3) / 4, v);
  else
    snprintf(buf, cap, "%" PRIu64, v);
}

void (ual_tb_group)(struct ual_tree_builder *w, unsigned depth, const char *label, unsigned off,
                    unsigned len, const char *fmt, ...) {
  if (w->quiet) return;
  struct ual_tree_row row = {0};
  row.depth = depth;
  row.label = label;
  row.offset = off;
  row.length = len;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(row.text, sizeof row.text, fmt, ap);
  va_end(ap);
  w->cb(w->ctx, &row);
}

void ual_tb_field(struct ual_tree_builder *w, unsigned depth, enum ual_field_id id, unsigned base,
                  uint64_t value) {
  const struct ual_field *fd = &ual_fields[id];
  if (w->fields && !w->fields[id]) return;
  struct ual_tree_row row;
  row.depth = depth;
  row.field = fd;
  row.id = id;
  row.label = fd->name;
  row.value = ual_field_shown(id, value);
  row.offset = base + fd->offset;
  row.length = fd->size;
  row.copied = false;
  row.text[0] = 0;
  if (!w->quiet) ual_field_format(id, row.value, row.text, sizeof row.text);
  w->cb(w->ctx, &row);
}

void ual_tb_bytes(struct ual_tree_builder *w, unsigned depth, enum ual_field_id id, unsigned off, unsigned len) {
  if ((w->fields && !w->fields[id]) || off > w->len || len > w->len - off) return;
  struct ual_tree_row row;
  row.depth = depth;
  row.field = &ual_fields[id];
  row.id = id;
  row.label = row.field->name;
  row.value = len;
  row.offset = off;
  row.length = len;
  row.copied = false;
  row.text[0] = 0;
  if (!w->quiet) {   /* the first bytes; a printer with the record shows them all (tree.h) */
    size_t k = 0, shown = len < 24 ? len : 24;
    for (size_t i = 0; i < shown; i++) k += (size_t)snprintf(row.text + k, sizeof row.text - k, "%s%02x", i ? " " : "", w->rec[off + i]);
    snprintf(row.text + k, sizeof row.text - k, "%s (%u bytes)", len > shown ? " ..." : "", len);
  }
  w->cb(w->ctx, &row);
}

bool ual_tree_wire(enum ual_field_id id, const uint8_t *rec, size_t len, unsigned base, uint64_t *v) {
  const struct ual_field *fd = &ual_fields[id];
  if (base + fd->offset + fd->size > len) return false;
  *v = ual_field_get(id, rec + base);
  return true;
}

void (ual_tb_scope)(struct ual_tree_builder *w, unsigned depth, enum ual_scope sc, unsigned base) {
  enum ual_field_id first;
  size_t n = ual_scope_span(sc, &first);
  for (size_t i = 0; i < n; i++) {
    enum ual_field_id id = (enum ual_field_id)(first + i);
    uint64_t v;
    if ((!w->fields || w->fields[id]) && ual_tree_wire(id, w->rec, w->len, base, &v)) ual_tb_field(w, depth, id, base, v);
  }
}

void ual_tb_fixed(struct ual_tree_builder *w, unsigned depth, const struct ual_fixed_rows *rows) {
  for (size_t i = 0; i < rows->n; i++) {
    const struct ual_fixed_row *x = &rows->v[i];
    if (x->gen) ual_tb_field(w, depth, (enum ual_field_id)x->what, x->off, x->get(w->r));
    else ual_tb_scope(w, depth, (enum ual_scope)x->what, x->off);
  }
}

const struct ual_fixed_row *ual_kind_fixed_row(const struct ual_kind *k, enum ual_field_id id) {
  for (const struct ual_fixed_rows *const *l = k->fixed; l && *l; l++)
    for (size_t i = 0; i < (*l)->n; i++) {
      const struct ual_fixed_row *x = &(*l)->v[i];
      if (x->gen ? x->what == id : x->what == ual_fields[id].scope) return x;
    }
  return NULL;
}

/* The header scope of h's kind, UAL_SC_REC when none. */
static enum ual_scope hdr_scope(const struct ual_rec_hdr *h) {
  const struct ual_kind *k = ual_kind_of(h->kind);
  return k ? k->hdr_scope : UAL_SC_REC;
}

/* Whether a row of the kind's header scope covers bits of record row id. */
static bool hdr_replaced(enum ual_scope hs, enum ual_field_id id) {
  if (hs == UAL_SC_REC) return false;
  enum ual_field_id first;
  size_t n = ual_scope_span(hs, &first);
  for (size_t i = 0; i < n; i++) {
    const struct ual_field *x = &ual_fields[first + i], *y = &ual_fields[id];
    if (x->offset == y->offset && x->size == y->size && (ual_field_mask(first + i) & ual_field_mask(id))) return true;
  }
  return false;
}

/* The roles byte in the PCIe encoding, unless the kind reads that byte its own way. */
static bool pcie_roles(const struct ual_rec_hdr *h, enum ual_scope hs) {
  return h->roles_pcie && !hdr_replaced(hs, UAL_F_REC_ROLES_RSVD);
}

bool ual_tree_rec_shows(const struct ual_rec_hdr *h, enum ual_field_id id) {
  enum ual_scope sc = ual_fields[id].scope, hs = hdr_scope(h);
  bool pcie = pcie_roles(h, hs);
  if (sc == UAL_SC_REC_PCIE_ROLES) return pcie;
  if (hs != UAL_SC_REC && sc == hs) return true;
  /* the roles byte in the PCIe encoding replaces the UALink role rows */
  return sc == UAL_SC_REC && !hdr_replaced(hs, id) &&
         !(pcie && (id == UAL_F_REC_ROLE_A || id == UAL_F_REC_ROLE_B || id == UAL_F_REC_ROLES_RSVD));
}

void ual_tb_field_copy(struct ual_tree_builder *w, unsigned depth, enum ual_field_id id, const uint8_t *bytes,
                       unsigned avail, const int *where, unsigned fallback) {
  const struct ual_field *fd = &ual_fields[id];
  if ((w->fields && !w->fields[id]) || !fd->size || fd->offset + fd->size > avail) return;
  const int *at = where + fd->offset;
  bool here = at[0] >= 0 && at[fd->size - 1] == at[0] + fd->size - 1;   /* the whole container in this record */
  struct ual_tree_row row;
  row.depth = depth;
  row.field = fd;
  row.id = id;
  row.label = fd->name;
  row.value = ual_field_shown(id, ual_field_get(id, bytes));
  row.offset = here ? (unsigned)at[0] : fallback;
  row.length = here ? fd->size : 0;
  row.copied = !here;
  row.text[0] = 0;
  if (!w->quiet) ual_field_format(id, row.value, row.text, sizeof row.text);
  w->cb(w->ctx, &row);
}

void ual_tb_scope_copy(struct ual_tree_builder *w, unsigned depth, enum ual_scope sc, const uint8_t *bytes,
                       unsigned avail, const int *where, unsigned fallback) {
  if (!ual_tb_wants(w, sc)) return;
  enum ual_field_id first;
  size_t n = ual_scope_span(sc, &first);
  for (size_t i = 0; i < n; i++) ual_tb_field_copy(w, depth, (enum ual_field_id)(first + i), bytes, avail, where, fallback);
}

static void tree_walk(struct ual_tree_builder *w, const struct ual_rec_result *r);

void ual_tree_walk(const struct ual_rec_result *r, const uint8_t *rec, size_t len,
                   ual_tree_cb cb, void *ctx) {
  struct ual_tree_builder w = { cb, ctx, r, rec, len, false, NULL, NULL };
  tree_walk(&w, r);
}

void ual_tree_walk_fields(const struct ual_rec_result *r, const uint8_t *rec, size_t len,
                          const uint8_t *scopes, const uint8_t *fields, ual_tree_cb cb, void *ctx) {
  struct ual_tree_builder w = { cb, ctx, r, rec, len, true, scopes, fields };
  tree_walk(&w, r);
}

/* Any scope of a record body (everything but the record header)? */
static bool body_wanted(const uint8_t *scopes) {
  return memchr(scopes, 1, UAL_SC_REC) || memchr(scopes + UAL_SC_REC + 1, 1, UAL_SC_COUNT - UAL_SC_REC - 1);
}

static void tree_walk(struct ual_tree_builder *w, const struct ual_rec_result *r) {
  size_t len = w->len;
  if (len < UAL_REC_HDR_BYTES) {
    ual_tb_group(w, 0, "Malformed record", 0, (unsigned)len, "%s", ual_rec_status_text(r->status));
    return;
  }
  ual_tb_group(w, 0, "Record header", 0, UAL_REC_HDR_BYTES, "v%u kind %u %s", r->rec.h.version, r->rec.h.kind,
               r->dir ? "B>A" : "A>B");
  enum ual_scope hs = hdr_scope(&r->rec.h);
  bool pcie = pcie_roles(&r->rec.h, hs);
  if (pcie || hs != UAL_SC_REC) {
    /* each bit once, in record order: the kind's rows where they cover record rows */
    enum ual_field_id first, hfirst = 0;
    size_t n = ual_scope_span(UAL_SC_REC, &first), hn = hs != UAL_SC_REC ? ual_scope_span(hs, &hfirst) : 0, hi = 0;
    for (size_t i = 0; i < n; i++) {
      enum ual_field_id id = (enum ual_field_id)(first + i);
      if (id == UAL_F_REC_ROLE_A && pcie) ual_tb_scope(w, 1, UAL_SC_REC_PCIE_ROLES, 0);
      if (ual_tree_rec_shows(&r->rec.h, id)) {
        ual_tb_field(w, 1, id, 0, ual_field_get(id, w->rec));
        continue;
      }
      for (; hi < hn && ual_fields[hfirst + hi].offset <= ual_fields[id].offset; hi++) {
        enum ual_field_id x = (enum ual_field_id)(hfirst + hi);
        ual_tb_field(w, 1, x, 0, ual_field_get(x, w->rec));
      }
    }
  } else {
    ual_tb_scope(w, 1, UAL_SC_REC, 0);
  }
  if (w->scopes && !body_wanted(w->scopes)) return;
  if (r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED) {
    ual_tb_group(w, 0, "Malformed record", UAL_REC_HDR_BYTES, (unsigned)(len - UAL_REC_HDR_BYTES), "%s",
                 ual_rec_status_text(r->status));
    return;
  }
  ual_kind_of(r->rec.h.kind)->tree(w, r);
}
