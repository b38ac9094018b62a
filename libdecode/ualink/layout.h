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

/* A DL message DWord from / into its four sector bytes, little-endian (D1). */
static inline uint32_t ual_get_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void ual_put_le32(uint8_t *p, uint32_t dw) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(dw >> (8 * i));
}

static inline void ual_sh_decode_inline(uint8_t raw, struct ual_sh *sh) {
  sh->raw = raw;
  sh->alt = (uint8_t)ual_field_get(UAL_F_SH_ALT, &raw);
  sh->tlbeat_code = (uint8_t)ual_field_get(UAL_F_SH_TLBEAT, &raw);
  sh->rsvd = (uint8_t)(raw & (ual_field_mask(UAL_F_SH_RSVD1) | ual_field_mask(UAL_F_SH_RSVD7)));
  sh->m0 = sh->m1 = 0;
  switch (sh->tlbeat_code) {
  case UAL_TLBEAT_CODE_NONE: sh->tlbeat = UAL_TB_NONE; break;
  case UAL_TLBEAT_CODE_TL:   sh->tlbeat = UAL_TB_TL; break;
  case UAL_TLBEAT_CODE_M1:   sh->tlbeat = UAL_TB_TL_M1; sh->m1 = 1; break;
  case UAL_TLBEAT_CODE_M0:   sh->tlbeat = UAL_TB_TL_M0; sh->m0 = 1; break;
  case UAL_TLBEAT_CODE_M0M1: sh->tlbeat = UAL_TB_TL_M0M1; sh->m0 = sh->m1 = 1; break;
  default:                   sh->tlbeat = UAL_TB_INVALID; break;
  }
}

#endif
