/* Private to libdecode: field accessors that the compiler folds to shifts
 * and masks. They read a static copy of the same table rows (one X-macro),
 * so a constant field id resolves at compile time on the hot paths. */
#ifndef UAL_FIELD_ACCESS_H
#define UAL_FIELD_ACCESS_H

#include "ualink/core/fields.h"

static const struct ual_field ual_fields_folded_[UAL_F_COUNT] = { UAL_FIELD_ROWS_ };

static inline uint64_t ual_fa_width_mask(unsigned width) {
  return width >= 64 ? ~0ULL : ((1ULL << width) - 1);
}

/* Bit position of container byte i. */
static inline unsigned ual_fa_shift(const struct ual_field *fd, unsigned i) {
  return fd->endian == UAL_BE ? 8u * (fd->size - 1 - i) : 8u * i;
}

static inline uint64_t ual_fa_container(const struct ual_field *fd, const uint8_t *p) {
  uint64_t v = 0;
  for (unsigned i = 0; i < fd->size; i++) v |= (uint64_t)p[i] << ual_fa_shift(fd, i);
  return v;
}

static inline uint64_t ual_fa_get(enum ual_field_id id, const uint8_t *base) {
  const struct ual_field *fd = &ual_fields_folded_[id];
  return (ual_fa_container(fd, base + fd->offset) >> fd->lsb) & ual_fa_width_mask(fd->width);
}

static inline uint64_t ual_fa_mask(enum ual_field_id id) {
  return ual_fa_width_mask(ual_fields_folded_[id].width) << ual_fields_folded_[id].lsb;
}

/* ual_field_put's read-modify-write of the container, folded the same way
 * (the encoders of every flit: headers, segment headers, DLLPs). */
static inline void ual_fa_put(enum ual_field_id id, uint8_t *base, uint64_t v) {
  const struct ual_field *fd = &ual_fields_folded_[id];
  uint8_t *p = base + fd->offset;
  uint64_t m = ual_fa_mask(id), c = ual_fa_container(fd, p);
  c = (c & ~m) | ((v << fd->lsb) & m);
  for (unsigned i = 0; i < fd->size; i++) p[i] = (uint8_t)(c >> ual_fa_shift(fd, i));
}

#define ual_field_get(id, base) ual_fa_get((id), (base))
#define ual_field_mask(id) ual_fa_mask(id)
#define ual_field_put(id, base, v) ual_fa_put((id), (base), (v))

#endif
