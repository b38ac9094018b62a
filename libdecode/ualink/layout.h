/* Private to libdecode: the segment map and the segment header decode as
 * inline code for the per-flit paths (ual_sector_offset and ual_sh_decode
 * are their public forms). The map rows are flit.h's, folded here. */
#ifndef UAL_LAYOUT_H
#define UAL_LAYOUT_H

#include "ualink/ualink/flit.h"
#include "core/field_access.h"

static const struct ual_segment_def ual_segs_folded_[UAL_SEGMENTS] = UAL_SEGMENT_MAP_INIT;

/* Flit byte of flit-wide sector s (0..58). */
static inline unsigned ual_sector_byte(unsigned s) {
  unsigned k = (s >= ual_segs_folded_[1].first_sector) + (s >= ual_segs_folded_[2].first_sector) +
               (s >= ual_segs_folded_[3].first_sector);
  return ual_segs_folded_[k].sh_byte + 1u + UAL_SECTOR_BYTES * (s - ual_segs_folded_[k].first_sector);
}

/* TLBeat code -> enum ual_tlbeat | m0 << 3 | m1 << 4, a table rather than a
 * switch: successive segments' codes are not predictable branches. Stored
 * XOR the invalid entry, so that the codes not listed read as invalid. */
#define UAL_TBE_(tb, m0, m1) (((tb) | (m0) << 3 | (m1) << 4) ^ UAL_TB_INVALID)
static const uint8_t ual_tlbeat_folded_[32] = {
  [UAL_TLBEAT_CODE_NONE] = UAL_TBE_(UAL_TB_NONE, 0, 0),
  [UAL_TLBEAT_CODE_TL]   = UAL_TBE_(UAL_TB_TL, 0, 0),
  [UAL_TLBEAT_CODE_M1]   = UAL_TBE_(UAL_TB_TL_M1, 0, 1),
  [UAL_TLBEAT_CODE_M0]   = UAL_TBE_(UAL_TB_TL_M0, 1, 0),
  [UAL_TLBEAT_CODE_M0M1] = UAL_TBE_(UAL_TB_TL_M0M1, 1, 1),
};
_Static_assert(UAL_TB_INVALID < 8, "the enum fits bits 0-2");

static inline void ual_sh_decode_inline(uint8_t raw, struct ual_sh *sh) {
  sh->raw = raw;
  sh->alt = (uint8_t)ual_field_get(UAL_F_SH_ALT, &raw);
  sh->tlbeat_code = (uint8_t)ual_field_get(UAL_F_SH_TLBEAT, &raw);
  sh->rsvd = (uint8_t)(raw & (ual_field_mask(UAL_F_SH_RSVD1) | ual_field_mask(UAL_F_SH_RSVD7)));
  unsigned t = ual_tlbeat_folded_[sh->tlbeat_code & 31u] ^ UAL_TB_INVALID;
  sh->tlbeat = (uint8_t)(t & 7u);
  sh->m0 = (uint8_t)(t >> 3 & 1u);
  sh->m1 = (uint8_t)(t >> 4 & 1u);
}

#endif
