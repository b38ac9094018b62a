/* The field table, the record's value lists and the accessors (fields.h). */
#include "ualink/core/fields.h"

#include <stdio.h>

#define END { 0, NULL }

const struct ual_value_name ual_vals_rec_kind[] = { {1, "Flit"}, {2, "Ordered set"}, {3, "Link event"}, {4, "PCIe DLLP"}, {5, "PCIe flit"}, {6, "UB flit"}, {7, "PCIe packet"}, END };
const struct ual_value_name ual_vals_dir[] = { {0, "A>B"}, {1, "B>A"}, END };
const struct ual_value_name ual_vals_rate[] = {
  {0, "unknown"}, {1, "2.5 GT/s"}, {2, "32.0 GT/s"}, {3, "64.0 GT/s"},
  {4, "104 GT/s"}, {5, "112 GT/s"}, {6, "120 GT/s"}, {7, "128 GT/s"},
  {8, "5.0 GT/s"}, {9, "8.0 GT/s"}, {10, "16.0 GT/s"}, END };   /* 8-10: PCIe, pcie.md [P5] */
const struct ual_value_name ual_vals_role[] = { {0, "unknown"}, {1, "accelerator"}, {2, "switch"}, END };
const struct ual_value_name ual_vals_event[] = {
  {1, "Electrical idle entered"}, {2, "Electrical idle exited"}, {3, "Receiver detected"},
  {4, "Data rate changed"}, {5, "Link width changed"}, {6, "Capture started"},
  {7, "Capture stopped"}, {8, "Records dropped"}, {9, "UB LinkUp 1"}, {10, "UB LinkUp 0"},
  {11, "UB retrain start"}, {12, "UB retrain end"}, {13, "UB mode in force"}, END };
const struct ual_value_name ual_vals_rec_width[] = { {0, "unknown"}, {1, "x1"}, {2, "x2"}, {4, "x4"}, {8, "x8"}, {12, "x12"}, {16, "x16"}, END };
const struct ual_value_name ual_vals_rec_link[] = { {255, "unknown"}, END };
const struct ual_value_name ual_vals_pcie_role[] = {   /* pcie.md [P3] */
  {0, "unknown"}, {1, "Root Port"}, {2, "Switch Upstream Port"}, {3, "Switch Downstream Port"}, {4, "Endpoint"},
  {5, "other upstream port"}, END };

const struct ual_field ual_fields[UAL_F_COUNT] = { UAL_FIELD_ROWS_ };

static uint64_t width_mask(unsigned width) {
  return width >= 64 ? ~0ULL : ((1ULL << width) - 1);
}

static uint64_t container_get(const struct ual_field *fd, const uint8_t *p) {
  uint64_t v = 0;
  for (unsigned i = 0; i < fd->size; i++) {
    unsigned shift = fd->endian == UAL_BE ? 8u * (fd->size - 1 - i) : 8u * i;
    v |= (uint64_t)p[i] << shift;
  }
  return v;
}

static void container_put(const struct ual_field *fd, uint8_t *p, uint64_t v) {
  for (unsigned i = 0; i < fd->size; i++) {
    unsigned shift = fd->endian == UAL_BE ? 8u * (fd->size - 1 - i) : 8u * i;
    p[i] = (uint8_t)(v >> shift);
  }
}

uint64_t ual_field_mask(enum ual_field_id id) {
  const struct ual_field *fd = &ual_fields[id];
  return width_mask(fd->width) << fd->lsb;
}

uint64_t ual_field_shown(enum ual_field_id id, uint64_t v) {
  const struct ual_field *fd = &ual_fields[id];
  return fd->flags & UAL_FF_INPLACE ? v << fd->lsb : v;
}

void ual_field_bdf(char *buf, size_t cap, unsigned id) {
  snprintf(buf, cap, "%02x:%02x.%u", id >> 8 & 0xFF, id >> 3 & 0x1F, id & 7);
}

long ual_field_bdf_parse(const char *s, size_t n) {
  unsigned v[3] = { 0, 0, 0 }, digits[3] = { 0, 0, 0 }, k = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if ((k == 0 && c == ':') || (k == 1 && c == '.')) {
      k++;
      continue;
    }
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0 || (k == 2 && d > 7) || ++digits[k] > (k == 2 ? 1u : 2u)) return -1;
    v[k] = v[k] * 16u + (unsigned)d;
  }
  if (k != 2 || !digits[0] || !digits[1] || !digits[2] || v[1] > 0x1F) return -1;
  return (long)(v[0] << 8 | v[1] << 3 | v[2]);
}

bool ual_field_bitmask(enum ual_field_id id) {
  const struct ual_field *fd = &ual_fields[id];
  return fd->size && fd->width < 8u * fd->size && !(fd->flags & UAL_FF_INPLACE);
}

uint64_t ual_field_get(enum ual_field_id id, const uint8_t *base) {
  const struct ual_field *fd = &ual_fields[id];
  if (fd->size == 0) return 0;
  return (container_get(fd, base + fd->offset) >> fd->lsb) & width_mask(fd->width);
}

void ual_field_put(enum ual_field_id id, uint8_t *base, uint64_t v) {
  const struct ual_field *fd = &ual_fields[id];
  if (fd->size == 0) return;
  uint64_t m = ual_field_mask(id);
  uint64_t c = container_get(fd, base + fd->offset);
  c = (c & ~m) | ((v << fd->lsb) & m);
  container_put(fd, base + fd->offset, c);
}

const char *ual_value_name(const struct ual_value_name *vals, uint32_t v) {
  if (!vals) return NULL;
  for (; vals->name; vals++)
    if (vals->value == v) return vals->name;
  return NULL;
}

const char *ual_field_value_name(enum ual_field_id id, uint32_t v) {
  return ual_value_name(ual_fields[id].vals, v);
}

/* The table is ordered by scope (test_fields checks it): a scope is one run. */
static void scope_range(enum ual_scope sc, int *lo, int *hi) {
  int a = 0, b = UAL_F_COUNT;
  while (a < b) {
    int mid = (a + b) / 2;
    if (ual_fields[mid].scope < sc) a = mid + 1; else b = mid;
  }
  int e = a;
  while (e < UAL_F_COUNT && ual_fields[e].scope == sc) e++;
  *lo = a;
  *hi = e;
}

size_t ual_scope_fields(enum ual_scope sc, enum ual_field_id *ids, size_t cap) {
  int lo, hi;
  scope_range(sc, &lo, &hi);
  for (int i = lo; i < hi && (size_t)(i - lo) < cap; i++) ids[i - lo] = (enum ual_field_id)i;
  return (size_t)(hi - lo);
}

size_t ual_scope_span(enum ual_scope sc, enum ual_field_id *first) {
  int lo, hi;
  scope_range(sc, &lo, &hi);
  *first = (enum ual_field_id)lo;
  return (size_t)(hi - lo);
}

uint64_t ual_scope_reserved_mask(enum ual_scope sc) {
  int lo, hi;
  uint64_t m = 0;
  scope_range(sc, &lo, &hi);
  for (int i = lo; i < hi; i++)
    if (ual_fields[i].flags & UAL_FF_RESERVED) m |= ual_field_mask((enum ual_field_id)i);
  return m;
}

static bool scope_find(enum ual_scope sc, const uint8_t *base, bool reserved, enum ual_field_id *id, uint32_t *v) {
  int lo, hi;
  scope_range(sc, &lo, &hi);
  for (int i = lo; i < hi; i++) {
    const struct ual_field *fd = &ual_fields[i];
    if (!(fd->flags & (reserved ? UAL_FF_RESERVED : UAL_FF_ENUM)) || fd->size == 0) continue;
    uint32_t x = (uint32_t)ual_field_get((enum ual_field_id)i, base);
    if (reserved ? x != 0 : ual_value_name(fd->vals, x) == NULL) {
      *id = (enum ual_field_id)i;
      *v = x;
      return true;
    }
  }
  return false;
}

bool ual_scope_unlisted(enum ual_scope sc, const uint8_t *base, enum ual_field_id *id, uint32_t *v) {
  return scope_find(sc, base, false, id, v);
}

bool ual_scope_reserved_set(enum ual_scope sc, const uint8_t *base, enum ual_field_id *id, uint32_t *v) {
  return scope_find(sc, base, true, id, v);
}
