/* PCIe non-flit link-layer packets, record kind 7 (nonflit.h): CRCs, the
 * STP token, the record and header builders, the framing decode and the
 * header parser. Every header field goes through the field table
 * (pcie/fields.h). */
#include "ualink/pcie/nonflit.h"
#include "ualink/pcie/tlp.h"
#include "ualink/core/rules.h"
#include "core/field_access.h"

#include <string.h>

/* ---- CRC-32 (§7.3.2 [P23], §7.4.9) ---- */

/* Reflected CRC-32 (polynomial 04C11DB7h reflected = EDB88320h), a nibble
 * at a time. */
static uint32_t crc_upd(uint32_t c, const uint8_t *p, size_t n) {
  static const uint32_t t[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu, 0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
  };
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    c = (c >> 4) ^ t[c & 15];
    c = (c >> 4) ^ t[c & 15];
  }
  return c;
}

uint32_t ual_pcie_crc32(const uint8_t *p, size_t n) { return ~crc_upd(0xFFFFFFFFu, p, n); }

uint32_t ual_pcie_lcrc(unsigned seq_rsvd, unsigned seq, const uint8_t *tlp, size_t n) {
  const uint8_t ab[2] = { (uint8_t)((seq_rsvd & 0xF) << 4 | (seq >> 8 & 0xF)), (uint8_t)seq };
  return ~crc_upd(crc_upd(0xFFFFFFFFu, ab, 2), tlp, n);
}

void ual_pcie_crc32_put(uint32_t c, uint8_t out[4]) {
  for (unsigned i = 0; i < 4; i++) out[i] = (uint8_t)(c >> 8 * i);
}

uint32_t ual_pcie_crc32_get(const uint8_t in[4]) {
  return (uint32_t)in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 | (uint32_t)in[3] << 24;
}

static bool is_prefix(unsigned byte0) { return byte0 >> 5 == 4; }
static bool is_local_prefix(unsigned byte0) { return (byte0 & 0xF0) == 0x80; }

uint32_t ual_pcie_ecrc(const uint8_t *tlp, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  size_t off = 0;
  for (; off + 4 <= n && is_prefix(tlp[off]); off += 4)
    if (!is_local_prefix(tlp[off])) c = crc_upd(c, tlp + off, 4);
  if (off + 4 <= n) {
    uint8_t dw0[4];
    memcpy(dw0, tlp + off, 4);
    dw0[0] |= 0x01;   /* Type[0]: a switch may turn Type 1 config into Type 0 */
    dw0[2] |= 0x40;   /* EP */
    c = crc_upd(c, dw0, 4);
    off += 4;
  }
  if (off < n) c = crc_upd(c, tlp + off, n - off);
  return ~c;
}

/* ---- the STP token (§7.2.2 [P24]) ---- */

static unsigned bit(unsigned v, unsigned i) { return v >> i & 1u; }

unsigned ual_pcie_stp_fcrc(unsigned l) {
  unsigned c0 = bit(l, 10) ^ bit(l, 7) ^ bit(l, 6) ^ bit(l, 4) ^ bit(l, 2) ^ bit(l, 1) ^ bit(l, 0);
  unsigned c1 = bit(l, 10) ^ bit(l, 9) ^ bit(l, 7) ^ bit(l, 5) ^ bit(l, 4) ^ bit(l, 3) ^ bit(l, 2);
  unsigned c2 = bit(l, 9) ^ bit(l, 8) ^ bit(l, 6) ^ bit(l, 4) ^ bit(l, 3) ^ bit(l, 2) ^ bit(l, 1);
  unsigned c3 = bit(l, 8) ^ bit(l, 7) ^ bit(l, 5) ^ bit(l, 3) ^ bit(l, 2) ^ bit(l, 1) ^ bit(l, 0);
  return c3 << 3 | c2 << 2 | c1 << 1 | c0;
}

/* Even parity over L[10:0] and C[3:0]. */
unsigned ual_pcie_stp_parity(unsigned l) {
  unsigned v = (l & 0x7FF) | ual_pcie_stp_fcrc(l) << 11, p = 0;
  for (; v; v >>= 1) p ^= v & 1;
  return p;
}

void ual_pcie_stp_token(unsigned l, unsigned seq, uint8_t out[4]) {
  l &= 0x7FF;
  memset(out, 0, 4);
  ual_field_put(UAL_F_PCIE_NF_STP_L30, out, l & 0xF);
  ual_field_put(UAL_F_PCIE_NF_STP_ID, out, 0xF);
  ual_field_put(UAL_F_PCIE_NF_STP_P, out, ual_pcie_stp_parity(l));
  ual_field_put(UAL_F_PCIE_NF_STP_L104, out, l >> 4);
  ual_field_put(UAL_F_PCIE_NF_STP_FCRC, out, ual_pcie_stp_fcrc(l));
  ual_field_put(UAL_F_PCIE_NF_STP_SEQ, out, seq);
}

/* ---- Fmt/Type (§7.4.3) and message codes (§7.4.7) ---- */

static unsigned fm_kind(unsigned b, unsigned hdr) {
  switch (hdr) {
  case UAL_TLP_H_CFG: return UAL_NF_K_CFG;
  case UAL_TLP_H_CPL: return UAL_NF_K_CPL;
  case UAL_TLP_H_MSG: return UAL_NF_K_MSG;
  case UAL_TLP_H_MEM:
    if ((b & 0x1F) == 0x02) return UAL_NF_K_IO;
    if ((b & 0x1F) == 0x1B) return UAL_NF_K_DMWR;
    if ((b & 0x1C) == 0x0C) return UAL_NF_K_ATOMIC;
    return UAL_NF_K_MEM;
  }
  return UAL_NF_K_PREFIX;   /* the flit-mode local prefixes 8Eh/8Fh */
}

void ual_pcie_nf_type(unsigned b, struct ual_pcie_nf_type *t) {
  b &= 0xFF;
  memset(t, 0, sizeof *t);
  switch (b) {
#define UAL_X_(c, n, k, hd, d, f, rt) \
  case c: *t = (struct ual_pcie_nf_type){ n, UAL_NF_K_##k, hd, d, UAL_TLP_FC_##f, UAL_TLP_RT_##rt }; return;
    UAL_PCIE_NF_ONLY_TYPES(UAL_X_)
#undef UAL_X_
  default: break;
  }
  if (b != 0x03) {   /* 03h is flit mode's MRd32 only */
    const struct ual_pcie_tlp_type *fm = ual_pcie_tlp_type(b == 0x00 ? 0x03 : b);
    if (fm->nf) {
      *t = (struct ual_pcie_nf_type){ fm->name, (uint8_t)fm_kind(b, fm->hdr), fm->base_dw, fm->data, fm->fc, fm->route };
      if (t->kind == UAL_NF_K_PREFIX) t->hdr_dw = 1;
      return;
    }
  }
  /* reserved: sized by Fmt */
  if (is_prefix(b)) {
    t->kind = UAL_NF_K_PREFIX;
    t->hdr_dw = 1;
  } else {
    t->hdr_dw = b & 0x20 ? 4 : 3;
    t->data = b & 0x40 ? 1 : 0;
  }
}

static const struct ual_pcie_msg msgs[] = {
#define UAL_X_(c, n, fo, l, r, tc0, b) { n, c, UAL_PCIE_MF_##fo, l, (uint8_t)(r), tc0, UAL_PCIE_MB_##b },
  UAL_PCIE_MSG_CODES(UAL_X_)
#undef UAL_X_
};

const struct ual_pcie_msg *ual_pcie_msg(unsigned code) {
  for (size_t i = 0; i < sizeof msgs / sizeof msgs[0]; i++)
    if (msgs[i].code == code) return &msgs[i];
  return NULL;
}

const char *ual_pcie_msg_name(unsigned code) {
  const struct ual_pcie_msg *m = ual_pcie_msg(code);
  return m ? m->name : NULL;
}

/* ---- building ---- */

static size_t body_start(unsigned enc, unsigned info, size_t wire, uint8_t *body) {
  body[0] = (uint8_t)enc;
  body[1] = (uint8_t)info;
  body[2] = (uint8_t)(wire > 0xFFFF ? 0 : wire);
  body[3] = (uint8_t)(wire > 0xFFFF ? 0 : wire >> 8);
  return UAL_PCIE_NF_HDR;
}

size_t ual_pcie_nf_build_tlp(unsigned enc, unsigned seq, const uint8_t *tlp, size_t n, bool nullify,
                             size_t truncate_to, uint8_t *body, size_t cap) {
  size_t pkt = enc == UAL_PCIE_NF_8B10B ? n + 8 : enc == UAL_PCIE_NF_128B ? n + 8 + (nullify ? 4 : 0) : n + 6;
  if (enc == UAL_PCIE_NF_128B && n % 4) return 0;
  size_t keep = truncate_to && truncate_to < pkt ? truncate_to : pkt;
  if (cap < UAL_PCIE_NF_HDR + pkt) return 0;   /* built whole, then cut */
  unsigned info = UAL_PCIE_NF_CL_TLP | (keep < pkt ? UAL_PCIE_NF_INFO_TRUNC : 0) |
                  (nullify && enc == UAL_PCIE_NF_STRIPPED ? UAL_PCIE_NF_INFO_NULL : 0);
  uint8_t *p = body + body_start(enc, info, pkt, body);
  uint32_t lcrc = ual_pcie_lcrc(0, seq, tlp, n);
  if (nullify) lcrc = ~lcrc;
  size_t k = 0;
  if (enc == UAL_PCIE_NF_8B10B) {
    p[k++] = UAL_PCIE_K_STP;
  } else if (enc == UAL_PCIE_NF_128B) {
    ual_pcie_stp_token((unsigned)(n / 4 + 2), seq, p);
    k = 2;   /* Seq sits in token bytes 2-3 */
  }
  if (enc != UAL_PCIE_NF_128B) {
    p[k++] = (uint8_t)(seq >> 8 & 0xF);
    p[k++] = (uint8_t)seq;
  } else {
    k = 4;
  }
  memcpy(p + k, tlp, n);
  k += n;
  ual_pcie_crc32_put(lcrc, p + k);
  k += 4;
  if (enc == UAL_PCIE_NF_8B10B) p[k++] = nullify ? UAL_PCIE_K_EDB : UAL_PCIE_K_END;
  else if (enc == UAL_PCIE_NF_128B && nullify) {
    memset(p + k, UAL_PCIE_T_EDB, 4);
    k += 4;
  }
  return UAL_PCIE_NF_HDR + keep;
}

size_t ual_pcie_nf_build_dllp(unsigned enc, const uint8_t dllp[UAL_PCIE_DLLP_BYTES], uint8_t *body, size_t cap) {
  size_t pkt = enc == UAL_PCIE_NF_STRIPPED ? UAL_PCIE_DLLP_BYTES : UAL_PCIE_DLLP_BYTES + 2;
  if (cap < UAL_PCIE_NF_HDR + pkt) return 0;
  uint8_t *p = body + body_start(enc, UAL_PCIE_NF_CL_DLLP, pkt, body);
  size_t k = 0;
  if (enc == UAL_PCIE_NF_8B10B) p[k++] = UAL_PCIE_K_SDP;
  else if (enc == UAL_PCIE_NF_128B) {
    p[k++] = UAL_PCIE_T_SDP0;
    p[k++] = UAL_PCIE_T_SDP1;
  }
  memcpy(p + k, dllp, UAL_PCIE_DLLP_BYTES);
  k += UAL_PCIE_DLLP_BYTES;
  if (enc == UAL_PCIE_NF_8B10B) p[k++] = UAL_PCIE_K_END;
  return UAL_PCIE_NF_HDR + k;
}

size_t ual_pcie_tlp_header(const struct ual_pcie_tlp_fields *f, uint8_t *out, size_t cap) {
  struct ual_pcie_nf_type t;
  ual_pcie_nf_type(f->byte0, &t);
  size_t len = 4u * (t.kind == UAL_NF_K_PREFIX ? 1 : t.hdr_dw);
  if (cap < len) return 0;
  memset(out, 0, len);
  ual_field_put(UAL_F_PCIE_NF_FMT_TYPE, out, f->byte0);
  if (t.kind == UAL_NF_K_PREFIX) return len;
  ual_field_put(UAL_F_PCIE_NF_T9, out, f->tag >> 9);
  ual_field_put(UAL_F_PCIE_NF_TC, out, f->tc);
  ual_field_put(UAL_F_PCIE_NF_T8, out, f->tag >> 8);
  ual_field_put(UAL_F_PCIE_NF_IDO, out, f->attr >> 2);
  ual_field_put(UAL_F_PCIE_NF_TH, out, f->th);
  ual_field_put(UAL_F_PCIE_NF_TD, out, f->td);
  ual_field_put(UAL_F_PCIE_NF_EP, out, f->ep);
  ual_field_put(UAL_F_PCIE_NF_ATTR, out, f->attr);
  ual_field_put(UAL_F_PCIE_NF_AT, out, f->at);
  ual_field_put(UAL_F_PCIE_NF_LENGTH, out, f->length);
  switch (t.kind) {
  case UAL_NF_K_CPL:
    ual_field_put(UAL_F_PCIE_NF_CPL_CID, out, f->cid);
    ual_field_put(UAL_F_PCIE_NF_CPL_STATUS, out, f->status);
    ual_field_put(UAL_F_PCIE_NF_CPL_BCM, out, f->bcm);
    ual_field_put(UAL_F_PCIE_NF_CPL_BC, out, f->byte_count);
    ual_field_put(UAL_F_PCIE_NF_CPL_RID, out, f->rid);
    ual_field_put(UAL_F_PCIE_NF_CPL_TAG, out, f->tag);
    ual_field_put(UAL_F_PCIE_NF_CPL_LA, out, f->lower_addr);
    break;
  case UAL_NF_K_MSG:
    ual_field_put(UAL_F_PCIE_NF_MSG_RID, out, f->rid);
    ual_field_put(UAL_F_PCIE_NF_MSG_TAG, out, f->tag);
    ual_field_put(UAL_F_PCIE_NF_MSG_CODE, out, f->code);
    memcpy(out + 8, f->msg, 8);
    break;
  case UAL_NF_K_RESERVED:
    break;
  default:   /* requests: memory, IO, atomic, DMWr, config */
    ual_field_put(UAL_F_PCIE_NF_REQ_RID, out, f->rid);
    ual_field_put(UAL_F_PCIE_NF_REQ_TAG, out, f->tag);
    ual_field_put(UAL_F_PCIE_NF_LAST_BE, out, f->last_be);
    ual_field_put(UAL_F_PCIE_NF_FIRST_BE, out, f->first_be);
    if (t.kind == UAL_NF_K_CFG) {
      ual_field_put(UAL_F_PCIE_NF_CFG_TARGET, out, f->target);
      ual_field_put(UAL_F_PCIE_NF_CFG_EXTREG, out, f->reg >> 8);
      ual_field_put(UAL_F_PCIE_NF_CFG_REG, out, f->reg >> 2);
    } else if (t.hdr_dw == 4) {
      ual_field_put(UAL_F_PCIE_NF_ADDR64, out, f->addr >> 2);
      ual_field_put(UAL_F_PCIE_NF_PH64, out, f->ph);
    } else {
      ual_field_put(UAL_F_PCIE_NF_ADDR32, out, f->addr >> 2);
      ual_field_put(UAL_F_PCIE_NF_PH32, out, f->ph);
    }
    break;
  }
  return len;
}

size_t ual_pcie_tlp_build(const struct ual_pcie_tlp_fields *f, const uint8_t *data, size_t n_data, uint8_t *out,
                          size_t cap) {
  size_t h = ual_pcie_tlp_header(f, out, cap);
  if (!h || cap - h < n_data + (f->td ? 4u : 0u)) return 0;
  if (n_data) memcpy(out + h, data, n_data);
  size_t n = h + n_data;
  if (f->td) {
    ual_pcie_crc32_put(ual_pcie_ecrc(out, n), out + n);
    n += 4;
  }
  return n;
}

/* ---- the header (§7.4) ---- */

void ual_pcie_tlph_parse(const uint8_t *tlp, size_t n, struct ual_pcie_tlph *h) {
  memset(h, 0, sizeof *h);
  size_t off = 0;
  for (; off + 4 <= n && is_prefix(tlp[off]); off += 4) {
    if (h->prefixes < UAL_PCIE_NF_MAX_PREFIX) h->prefix[h->prefixes] = tlp[off];
    if (h->prefixes < 255) h->prefixes++;
  }
  h->hdr_off = (uint16_t)off;
  if (off + 4 > n) return;   /* no DW0 */
  uint8_t b[16] = { 0 };     /* the header, zero past the bytes present */
  memcpy(b, tlp + off, n - off < 16 ? n - off : 16);
  struct ual_pcie_nf_type t;
  h->byte0 = (uint8_t)ual_field_get(UAL_F_PCIE_NF_FMT_TYPE, b);
  ual_pcie_nf_type(h->byte0, &t);
  h->fmt = h->byte0 >> 5;
  h->type = h->byte0 & 0x1F;
  h->kind = t.kind;
  h->hdr_dw = t.hdr_dw;
  h->has_data = t.data;
  h->fc = t.fc;
  h->route = t.route;
  h->t9 = (uint8_t)ual_field_get(UAL_F_PCIE_NF_T9, b);
  h->tc = (uint8_t)ual_field_get(UAL_F_PCIE_NF_TC, b);
  h->t8 = (uint8_t)ual_field_get(UAL_F_PCIE_NF_T8, b);
  h->attr = (uint8_t)(ual_field_get(UAL_F_PCIE_NF_IDO, b) << 2 | ual_field_get(UAL_F_PCIE_NF_ATTR, b));
  h->rsvd_ln = (uint8_t)ual_field_get(UAL_F_PCIE_NF_LN, b);
  h->th = (uint8_t)ual_field_get(UAL_F_PCIE_NF_TH, b);
  h->td = (uint8_t)ual_field_get(UAL_F_PCIE_NF_TD, b);
  h->ep = (uint8_t)ual_field_get(UAL_F_PCIE_NF_EP, b);
  h->at = (uint8_t)ual_field_get(UAL_F_PCIE_NF_AT, b);
  h->length = (uint16_t)ual_field_get(UAL_F_PCIE_NF_LENGTH, b);
  h->len_dw = h->length ? h->length : 1024;
  size_t need = off + 4u * h->hdr_dw;
  h->complete = need <= n;
  unsigned tag_hi = (unsigned)h->t9 << 9 | (unsigned)h->t8 << 8;
  switch (h->kind) {
  case UAL_NF_K_CPL:
    h->cid = (uint16_t)ual_field_get(UAL_F_PCIE_NF_CPL_CID, b);
    h->status = (uint8_t)ual_field_get(UAL_F_PCIE_NF_CPL_STATUS, b);
    h->bcm = (uint8_t)ual_field_get(UAL_F_PCIE_NF_CPL_BCM, b);
    h->byte_count = (uint16_t)ual_field_get(UAL_F_PCIE_NF_CPL_BC, b);
    h->rid = (uint16_t)ual_field_get(UAL_F_PCIE_NF_CPL_RID, b);
    h->tag = (uint16_t)(tag_hi | ual_field_get(UAL_F_PCIE_NF_CPL_TAG, b));
    h->lower_addr = (uint8_t)ual_field_get(UAL_F_PCIE_NF_CPL_LA, b);
    break;
  case UAL_NF_K_MSG:
    h->rid = (uint16_t)ual_field_get(UAL_F_PCIE_NF_MSG_RID, b);
    h->tag = (uint16_t)ual_field_get(UAL_F_PCIE_NF_MSG_TAG, b);   /* raw [P27] */
    h->code = (uint8_t)ual_field_get(UAL_F_PCIE_NF_MSG_CODE, b);
    h->routing = h->type & 7;
    break;
  case UAL_NF_K_MEM: case UAL_NF_K_IO: case UAL_NF_K_ATOMIC: case UAL_NF_K_DMWR: case UAL_NF_K_CFG:
    h->rid = (uint16_t)ual_field_get(UAL_F_PCIE_NF_REQ_RID, b);
    h->tag = (uint16_t)(tag_hi | ual_field_get(UAL_F_PCIE_NF_REQ_TAG, b));
    h->last_be = (uint8_t)ual_field_get(UAL_F_PCIE_NF_LAST_BE, b);
    h->first_be = (uint8_t)ual_field_get(UAL_F_PCIE_NF_FIRST_BE, b);
    if (h->kind == UAL_NF_K_CFG) {
      h->target = (uint16_t)ual_field_get(UAL_F_PCIE_NF_CFG_TARGET, b);
      h->reg = (uint16_t)(ual_field_get(UAL_F_PCIE_NF_CFG_EXTREG, b) << 8 | ual_field_get(UAL_F_PCIE_NF_CFG_REG, b) << 2);
    } else if (h->hdr_dw == 4) {
      h->addr = ual_field_shown(UAL_F_PCIE_NF_ADDR64, ual_field_get(UAL_F_PCIE_NF_ADDR64, b));
      h->ph = (uint8_t)ual_field_get(UAL_F_PCIE_NF_PH64, b);
    } else {
      h->addr = ual_field_shown(UAL_F_PCIE_NF_ADDR32, ual_field_get(UAL_F_PCIE_NF_ADDR32, b));
      h->ph = (uint8_t)ual_field_get(UAL_F_PCIE_NF_PH32, b);
    }
    if (h->th) {   /* ST in place of the Tag (MWr) or the BEs (the others), §7.4.4 */
      if (h->byte0 == 0x40 || h->byte0 == 0x60) h->st = (uint8_t)ual_field_get(UAL_F_PCIE_NF_REQ_TAG, b);
      else h->st = b[7];
    }
    break;
  default:
    break;
  }
  unsigned data_dw = h->has_data ? h->len_dw : 0;
  h->size = (uint16_t)(4u * (h->prefixes + h->hdr_dw + data_dw + h->td));
  if (!h->complete) return;
  h->pay_off = (uint16_t)need;
  size_t have = n - need;
  if (n == h->size) {
    h->pay_len = (uint16_t)(4u * data_dw);
    if (h->td) {
      h->ecrc_rx = ual_pcie_crc32_get(tlp + n - 4);
      h->ecrc_calc = ual_pcie_ecrc(tlp, n - 4);
      h->ecrc = h->ecrc_rx == h->ecrc_calc ? UAL_PCIE_ECRC_GOOD : UAL_PCIE_ECRC_BAD;
    }
  } else {
    h->pay_len = (uint16_t)(have < 4u * data_dw ? have : 4u * data_dw);
    if (h->td) h->ecrc = UAL_PCIE_ECRC_UNCHECKED;
  }
}

/* ---- the record (§7.1, §7.2) ---- */

bool ual_pcie_nf_body_ok(const uint8_t *body, size_t len) {
  /* a packet longer than wire_len can say is no packet: offsets stay u16 */
  if (len <= UAL_PCIE_NF_HDR || len - UAL_PCIE_NF_HDR > 0xFFFF) return false;
  size_t n = len - UAL_PCIE_NF_HDR;
  unsigned enc = (unsigned)ual_field_get(UAL_F_PCIE_NF_ENCODING, body);
  unsigned cls = (unsigned)ual_field_get(UAL_F_PCIE_NF_CLASS, body);
  unsigned wl = (unsigned)ual_field_get(UAL_F_PCIE_NF_WIRE_LEN, body);
  bool trunc = ual_field_get(UAL_F_PCIE_NF_TRUNC, body) != 0;
  if (!ual_field_value_name(UAL_F_PCIE_NF_ENCODING, enc) || cls == 3) return false;
  if (ual_field_get(UAL_F_PCIE_NF_INFO_RSVD, body)) return false;
  if (enc == UAL_PCIE_NF_STRIPPED && cls == UAL_PCIE_NF_CL_FRAMING) return false;
  if (enc != UAL_PCIE_NF_STRIPPED && ual_field_get(UAL_F_PCIE_NF_NULL_BIT, body)) return false;
  if (wl && (trunc ? wl <= n : wl != n)) return false;
  unsigned b = body[UAL_PCIE_NF_HDR];
  if (enc == UAL_PCIE_NF_8B10B && ((cls == UAL_PCIE_NF_CL_TLP && b == UAL_PCIE_K_SDP) ||
                                   (cls == UAL_PCIE_NF_CL_DLLP && b == UAL_PCIE_K_STP)))
    return false;
  if (enc == UAL_PCIE_NF_128B && ((cls == UAL_PCIE_NF_CL_TLP && b == UAL_PCIE_T_SDP0) ||
                                  (cls == UAL_PCIE_NF_CL_DLLP && (b & 0x0F) == 0x0F)))
    return false;
  return true;
}

/* A framing finding that ends the decode: a TLP is unknown to the DL. */
static void stop(struct ual_pcie_nf *nf) {
  nf->framing_ok = 0;
  if (nf->cls == UAL_PCIE_NF_CL_TLP) nf->dl = UAL_PCIE_DL_UNKNOWN;
}

static void dllp_at(const uint8_t *p, unsigned framing, struct ual_pcie_nf *nf, struct ual_pcie_dllp *d,
                    struct ual_findings *f) {
  d->framing = (uint8_t)framing;
  ual_pcie_dllp_parse(p, d);
  ual_pcie_dllp_check(d, f);
  nf->dllp_decoded = 1;
}

/* The 128b/130b STP token, checks 2 of §7.2.2 in order [P44]. false: stop. */
static bool stp_check(const uint8_t *p, size_t n, struct ual_pcie_nf *nf, struct ual_findings *f) {
  if (n < 4) {
    if (nf->truncated) return false;
    ual_findings_add(f, UAL_R_PN_STP_LENGTH, -1, "STP token cut short: %zu bytes", n);
    return false;
  }
  unsigned l = (unsigned)(ual_field_get(UAL_F_PCIE_NF_STP_L104, p) << 4 | ual_field_get(UAL_F_PCIE_NF_STP_L30, p));
  nf->stp_len = (uint16_t)l;
  nf->fcrc_rx = (uint8_t)ual_field_get(UAL_F_PCIE_NF_STP_FCRC, p);
  nf->parity_rx = (uint8_t)ual_field_get(UAL_F_PCIE_NF_STP_P, p);
  nf->fcrc_calc = (uint8_t)ual_pcie_stp_fcrc(l);
  nf->parity_calc = (uint8_t)ual_pcie_stp_parity(l);
  nf->seq = (uint16_t)ual_field_get(UAL_F_PCIE_NF_STP_SEQ, p);
  if (l == 1) {
    ual_findings_add(f, UAL_R_PN_TOKEN, -1, "EDS-shaped token %02x %02x %02x %02x (TLP Length 1) starts the record",
                     p[0], p[1], p[2], p[3]);
    return false;
  }
  if (nf->fcrc_rx != nf->fcrc_calc) {
    ual_findings_add(f, UAL_R_PN_STP_CHECK, -1,
                     "STP Frame CRC %xh, %xh computed for TLP Length %u (bit order [P24], not yet verified on real "
                     "Gen3 bytes)", nf->fcrc_rx, nf->fcrc_calc, l);
    return false;
  }
  if (nf->parity_rx != nf->parity_calc) {
    ual_findings_add(f, UAL_R_PN_STP_CHECK, -1, "STP Frame Parity %u, %u computed for TLP Length %u", nf->parity_rx,
                     nf->parity_calc, l);
    return false;
  }
  if (l > 1535) {
    ual_findings_add(f, UAL_R_PN_STP_PMUX, -1, "TLP Length %u: a PMUX packet, not decoded", l);
    return false;
  }
  if (l == 0 || (l >= 2 && l <= 4) || (l >= 1152 && l <= 1535)) {
    ual_findings_add(f, UAL_R_PN_STP_LENGTH, -1, "TLP Length %u is a Framing Error", l);
    return false;
  }
  if (nf->truncated) {
    nf->nullified = nf->wire_len == 4u * l + 4;
    return true;
  }
  if (n == 4u * l + 4) {
    const uint8_t *e = p + 4u * l;
    if (e[0] != UAL_PCIE_T_EDB || e[1] != UAL_PCIE_T_EDB || e[2] != UAL_PCIE_T_EDB || e[3] != UAL_PCIE_T_EDB) {
      ual_findings_add(f, UAL_R_PN_TOKEN, -1, "%02x %02x %02x %02x after the LCRC is not an EDB token", e[0], e[1], e[2],
                       e[3]);
      return false;
    }
    nf->nullified = 1;
  } else if (n != 4u * l) {
    ual_findings_add(f, UAL_R_PN_STP_LENGTH, -1, "TLP Length %u (%u bytes) but %zu bytes framed", l, 4u * l, n);
    return false;
  }
  return true;
}

bool ual_pcie_nf_decode(const uint8_t *body, size_t len, struct ual_pcie_nf *nf, struct ual_pcie_dllp *d,
                        struct ual_findings *f) {
  memset(nf, 0, sizeof *nf);
  memset(d, 0, sizeof *d);
  if (!ual_pcie_nf_body_ok(body, len)) return false;
  const uint8_t *p = body + UAL_PCIE_NF_HDR;
  size_t n = len - UAL_PCIE_NF_HDR;
  nf->encoding = (uint8_t)ual_field_get(UAL_F_PCIE_NF_ENCODING, body);
  nf->info_class = (uint8_t)ual_field_get(UAL_F_PCIE_NF_CLASS, body);
  nf->truncated = (uint8_t)ual_field_get(UAL_F_PCIE_NF_TRUNC, body);
  nf->wire_len = (uint16_t)ual_field_get(UAL_F_PCIE_NF_WIRE_LEN, body);
  nf->n = (uint16_t)(n > 0xFFFF ? 0xFFFF : n);
  nf->framing_ok = 1;
  size_t whole = nf->truncated && nf->wire_len ? nf->wire_len : n;   /* the packet's length on the wire */
  if (nf->truncated) {
    if (nf->wire_len) ual_findings_add(f, UAL_R_PN_REC_TRUNC, -1, "%zu of %u bytes captured", n, nf->wire_len);
    else ual_findings_add(f, UAL_R_PN_REC_TRUNC, -1, "%zu bytes captured, length on the wire unknown", n);
  }
  /* the packet class: the first byte decides (§7.1) */
  size_t seq_at = 0, tlp_at = 0, tail = 4;   /* packet offsets of byte A and the TLP; bytes after the TLP */
  switch (nf->encoding) {
  case UAL_PCIE_NF_8B10B:
    if (p[0] == UAL_PCIE_K_STP) nf->cls = UAL_PCIE_NF_CL_TLP;
    else if (p[0] == UAL_PCIE_K_SDP) nf->cls = UAL_PCIE_NF_CL_DLLP;
    else {
      nf->cls = nf->info_class;
      ual_findings_add(f, UAL_R_PN_FRAME_END, -1, "start symbol %02xh is neither STP (FBh) nor SDP (5Ch)", p[0]);
      stop(nf);
      return true;
    }
    if (!nf->truncated) {
      unsigned e = p[n - 1];
      if (nf->cls == UAL_PCIE_NF_CL_DLLP ? e != UAL_PCIE_K_END : e != UAL_PCIE_K_END && e != UAL_PCIE_K_EDB) {
        ual_findings_add(f, UAL_R_PN_FRAME_END, -1, "%s ends in %02xh, not %s", nf->cls == UAL_PCIE_NF_CL_DLLP ? "DLLP" : "TLP",
                         e, nf->cls == UAL_PCIE_NF_CL_DLLP ? "END (FDh)" : "END (FDh) or EDB (FEh)");
        stop(nf);
        return true;
      }
      if (nf->cls == UAL_PCIE_NF_CL_DLLP ? n != 8 : n < 20) {
        ual_findings_add(f, UAL_R_PN_FRAME_SHORT, -1, "%s of %zu symbols between start and end%s",
                         nf->cls == UAL_PCIE_NF_CL_DLLP ? "DLLP" : "TLP", n - 2,
                         nf->cls == UAL_PCIE_NF_CL_DLLP ? ", not 6" : ", fewer than 18");
        stop(nf);
        return true;
      }
      nf->nullified = e == UAL_PCIE_K_EDB;
    }
    if (nf->cls == UAL_PCIE_NF_CL_DLLP) {
      if (n >= 1 + UAL_PCIE_DLLP_BYTES) dllp_at(p + 1, UAL_PCIE_FR_END, nf, d, f);
      return true;
    }
    seq_at = 1;
    tlp_at = 3;
    tail = 5;
    break;
  case UAL_PCIE_NF_128B:
    if (p[0] == UAL_PCIE_T_SDP0) {
      nf->cls = UAL_PCIE_NF_CL_DLLP;
      if (n >= 2 && p[1] != UAL_PCIE_T_SDP1) {
        ual_findings_add(f, UAL_R_PN_TOKEN, -1, "SDP token F0h %02xh, not F0h ACh", p[1]);
        stop(nf);
        return true;
      }
      if (!nf->truncated && n != 8) {
        ual_findings_add(f, UAL_R_PN_FRAME_SHORT, -1, "SDP record of %zu bytes, not 8", n);
        stop(nf);
        return true;
      }
      if (n >= 2 + UAL_PCIE_DLLP_BYTES) dllp_at(p + 2, UAL_PCIE_FR_SDP128, nf, d, f);
      return true;
    }
    if ((p[0] & 0x0F) != 0x0F) {
      nf->cls = nf->info_class;
      ual_findings_add(f, UAL_R_PN_TOKEN, -1, "first byte %02xh is neither an SDP (F0h) nor an STP token", p[0]);
      stop(nf);
      return true;
    }
    nf->cls = UAL_PCIE_NF_CL_TLP;
    if (!stp_check(p, n, nf, f)) {
      stop(nf);
      return true;
    }
    nf->seq_off = (uint16_t)(UAL_PCIE_NF_HDR + 2);
    tlp_at = 4;
    tail = nf->nullified ? 8 : 4;
    break;
  default:   /* stripped */
    nf->cls = nf->info_class;
    nf->nullified = (uint8_t)ual_field_get(UAL_F_PCIE_NF_NULL_BIT, body);
    if (nf->cls == UAL_PCIE_NF_CL_DLLP) {
      if (!nf->truncated && n != UAL_PCIE_DLLP_BYTES) {
        ual_findings_add(f, UAL_R_PN_FRAME_SHORT, -1, "stripped DLLP of %zu bytes, not 6", n);
        stop(nf);
        return true;
      }
      if (n >= UAL_PCIE_DLLP_BYTES) dllp_at(p, UAL_PCIE_FR_UNKNOWN, nf, d, f);
      return true;
    }
    if (!nf->truncated && n < 18) {
      ual_findings_add(f, UAL_R_PN_FRAME_SHORT, -1, "stripped TLP of %zu bytes, fewer than 18", n);
      stop(nf);
      return true;
    }
    seq_at = 0;
    tlp_at = 2;
    tail = 4;
    break;
  }
  /* a TLP: sequence number, LCRC, header */
  if (nf->encoding != UAL_PCIE_NF_128B) {
    if (n < seq_at + 2) {
      nf->dl = UAL_PCIE_DL_UNKNOWN;
      return true;
    }
    nf->seq_off = (uint16_t)(UAL_PCIE_NF_HDR + seq_at);
    nf->seq_rsvd = (uint8_t)ual_field_get(UAL_F_PCIE_NF_SEQ_RSVD, p + seq_at);
    nf->seq = (uint16_t)ual_field_get(UAL_F_PCIE_NF_SEQ, p + seq_at);
    if (nf->seq_rsvd)
      ual_findings_add(f, UAL_R_PN_SEQ_RESERVED, -1, "bits 7:4 before Seq[11:8] = %xh", nf->seq_rsvd);
  }
  size_t tlp_len = whole >= tlp_at + tail ? whole - tlp_at - tail : 0;
  nf->tlp_off = (uint16_t)(UAL_PCIE_NF_HDR + tlp_at);
  if (nf->truncated) {
    size_t have = n > tlp_at ? n - tlp_at : 0;
    nf->tlp_len = (uint16_t)(nf->wire_len && tlp_len < have ? tlp_len : have);
    nf->dl = UAL_PCIE_DL_UNKNOWN;
    ual_pcie_tlph_parse(p + tlp_at, nf->tlp_len, &nf->h);
    return true;
  }
  nf->tlp_len = (uint16_t)tlp_len;
  nf->lcrc_off = (uint16_t)(nf->tlp_off + tlp_len);
  nf->lcrc_rx = ual_pcie_crc32_get(p + tlp_at + tlp_len);
  nf->lcrc_calc = ual_pcie_lcrc(nf->seq_rsvd, nf->seq, p + tlp_at, tlp_len);
  if (nf->nullified) {
    if (nf->lcrc_rx == (uint32_t)~nf->lcrc_calc) {
      nf->lcrc = UAL_PCIE_LCRC_NULLIFIED;
      nf->dl = UAL_PCIE_DL_NULLIFIED;
      ual_findings_add(f, UAL_R_PN_NULLIFIED, -1, "seq %u nullified", nf->seq);
    } else {
      nf->lcrc = UAL_PCIE_LCRC_NULLIFIED_BAD;
      nf->dl = UAL_PCIE_DL_BAD;
      ual_findings_add(f, UAL_R_PN_NULLIFIED_BAD, -1, "seq %u: EDB with LCRC %08xh, inverse of %08xh expected", nf->seq,
                       nf->lcrc_rx, nf->lcrc_calc);
    }
  } else if (nf->lcrc_rx == nf->lcrc_calc) {
    nf->lcrc = UAL_PCIE_LCRC_GOOD;
    nf->dl = UAL_PCIE_DL_GOOD;
    nf->accepted = 1;
  } else {
    nf->lcrc = UAL_PCIE_LCRC_BAD;
    nf->dl = UAL_PCIE_DL_BAD;
    ual_findings_add(f, UAL_R_PN_LCRC, -1, "seq %u: LCRC %08xh, %08xh computed", nf->seq, nf->lcrc_rx, nf->lcrc_calc);
  }
  ual_pcie_tlph_parse(p + tlp_at, tlp_len, &nf->h);
  return true;
}
