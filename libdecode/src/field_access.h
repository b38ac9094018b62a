/* Private to libdecode: field accessors that the compiler folds to shifts
 * and masks. They read a static copy of the same table rows (one X-macro),
 * so a constant field id resolves at compile time on the hot paths. */
#ifndef UAL_FIELD_ACCESS_H
#define UAL_FIELD_ACCESS_H

#include "ualink/fields.h"

static const struct ual_field ual_fields_folded_[UAL_F_COUNT] = { UAL_FIELDS(UAL_FIELD_ROW_) };

static inline uint64_t ual_fa_width_mask(unsigned width) {
  return width >= 64 ? ~0ULL : ((1ULL << width) - 1);
}

static inline uint64_t ual_fa_get(enum ual_field_id id, const uint8_t *base) {
  const struct ual_field *fd = &ual_fields_folded_[id];
  const uint8_t *p = base + fd->offset;
  uint64_t v = 0;
  for (unsigned i = 0; i < fd->size; i++)
    v |= (uint64_t)p[i] << (fd->endian == UAL_BE ? 8u * (fd->size - 1 - i) : 8u * i);
  return (v >> fd->lsb) & ual_fa_width_mask(fd->width);
}

static inline uint64_t ual_fa_mask(enum ual_field_id id) {
  return ual_fa_width_mask(ual_fields_folded_[id].width) << ual_fields_folded_[id].lsb;
}

#define ual_field_get(id, base) ual_fa_get((id), (base))
#define ual_field_mask(id) ual_fa_mask(id)

#endif
