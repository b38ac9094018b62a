/* PCIe non-flit DLLPs (dllp.h): type table, CRC-16, decode, encode and the
 * stateless checks. Every field goes through the field table
 * (pcie/fields.h). */
#include "ualink/pcie/dllp.h"
#include "ualink/core/rules.h"
#include "core/field_access.h"

#include <string.h>

const struct ual_pcie_dllp_type ual_pcie_dllp_types[UAL_PCIE_DT_COUNT] = {
#define UAL_X_(e, n, c, m, l, cl, st) { n, c, m, UAL_PCIE_L_##l, UAL_PCIE_##cl, UAL_PCIE_##st },
  UAL_PCIE_DLLP_TYPES(UAL_X_)
#undef UAL_X_
  { "reserved", 0, 0, UAL_PCIE_L_NONE, UAL_PCIE_NO_CLASS, 0 },
};

enum ual_pcie_dllp_name ual_pcie_dllp_name_of(unsigned type) {
  for (unsigned i = 0; i < UAL_PCIE_DT_RESERVED; i++)
    if ((type & ual_pcie_dllp_types[i].mask) == ual_pcie_dllp_types[i].code) return (enum ual_pcie_dllp_name)i;
  return UAL_PCIE_DT_RESERVED;
}

const char *ual_pcie_dllp_name_str(unsigned name) {
  return name < UAL_PCIE_DT_COUNT ? ual_pcie_dllp_types[name].name : "?";
}

/* §2.3 in the reflected form: polynomial 100Bh reflected = D008h, init
 * FFFFh, bytes LSB first, complemented; byte 4 = low byte. */
uint16_t ual_pcie_crc16(const uint8_t b[4]) {
  uint16_t c = 0xFFFF;
  for (unsigned i = 0; i < 4; i++) {
    c ^= b[i];
    for (unsigned k = 0; k < 8; k++) c = (uint16_t)(c & 1 ? (c >> 1) ^ 0xD008 : c >> 1);
  }
  return (uint16_t)~c;
}

/* [P8]: 00b (no scaling) and 01b count single credits. */
unsigned ual_pcie_scale_factor(unsigned code) {
  static const unsigned f[4] = { 1, 1, 4, 16 };
  return f[code & 3];
}

unsigned ual_pcie_fdllp_layout(unsigned type) {
#define UAL_X_(e, n, c, l) if (type == (c)) return UAL_PCIE_L_##l;
  UAL_PCIE_FDLLP_ONLY(UAL_X_)
#undef UAL_X_
  unsigned l = ual_pcie_dllp_types[ual_pcie_dllp_name_of(type)].layout;
  return l == UAL_PCIE_L_ACK || l == UAL_PCIE_L_NONE ? UAL_PCIE_L_RAW : l;
}

unsigned ual_pcie_layout_scope(unsigned l) {
  switch (l) {
  case UAL_PCIE_L_ACK: return UAL_SC_PCIE_DLLP_ACK;
  case UAL_PCIE_L_FC: return UAL_SC_PCIE_DLLP_FC;
  case UAL_PCIE_L_PM: return UAL_SC_PCIE_DLLP_PM;
  case UAL_PCIE_L_LM: return UAL_SC_PCIE_FDLLP_LM;
  default: return UAL_SC_PCIE_DLLP_RAW;
  }
}

void ual_pcie_dllp_parse(const uint8_t p[UAL_PCIE_DLLP_BYTES], struct ual_pcie_dllp *d) {
  uint8_t framing = d->framing;
  memset(d, 0, sizeof *d);
  d->framing = framing;
  memcpy(d->bytes, p, UAL_PCIE_DLLP_BYTES);
  d->type = (uint8_t)ual_field_get(UAL_F_PCIE_DLLP_TYPE, p);
  d->name = (uint8_t)ual_pcie_dllp_name_of(d->type);
  const struct ual_pcie_dllp_type *t = &ual_pcie_dllp_types[d->name];
  d->layout = t->layout;
  d->fc_class = t->fc_class;
  d->stage = t->stage;
  d->raw = (uint32_t)ual_field_get(UAL_F_PCIE_RAW_DATA, p);
  d->crc_rx = (uint16_t)ual_field_get(UAL_F_PCIE_DLLP_CRC, p);
  d->crc_calc = ual_pcie_crc16(p);
  d->crc_ok = d->crc_rx == d->crc_calc;
  if (d->layout == UAL_PCIE_L_ACK) {
    d->seq = (uint16_t)ual_field_get(UAL_F_PCIE_ACK_SEQ, p);
  } else if (d->layout == UAL_PCIE_L_FC) {
    d->vc = (uint8_t)ual_field_get(UAL_F_PCIE_FC_VC, p);
    d->hdr_scale = (uint8_t)ual_field_get(UAL_F_PCIE_FC_HDR_SCALE, p);
    d->hdr_fc = (uint16_t)ual_field_get(UAL_F_PCIE_FC_HDR, p);
    d->data_scale = (uint8_t)ual_field_get(UAL_F_PCIE_FC_DATA_SCALE, p);
    d->data_fc = (uint16_t)ual_field_get(UAL_F_PCIE_FC_DATA, p);
  }
}

void ual_pcie_dllp_decode(const uint8_t body[UAL_PCIE_DLLP_BODY], struct ual_pcie_dllp *d, struct ual_findings *f) {
  d->framing = (uint8_t)ual_field_get(UAL_F_PCIE_FRAMING, body);
  /* the record's own bytes, judged whatever the DLLP holds */
  uint32_t rsvd = ual_field_get(UAL_F_PCIE_BODY_RSVD, body);
  if (rsvd)
    ual_findings_add(f, UAL_R_PD_RECORD, -1, "record byte 1 %s (%s) = %02xh", ual_fields[UAL_F_PCIE_BODY_RSVD].name,
                     ual_fields[UAL_F_PCIE_BODY_RSVD].abbrev, rsvd);
  if (!ual_field_value_name(UAL_F_PCIE_FRAMING, d->framing))
    ual_findings_add(f, UAL_R_PD_RECORD, -1, "record byte 0 %s (%s) = %u, not a defined value",
                     ual_fields[UAL_F_PCIE_FRAMING].name, ual_fields[UAL_F_PCIE_FRAMING].abbrev, d->framing);
  ual_pcie_dllp_parse(body + UAL_PCIE_DLLP_OFF, d);
  ual_pcie_dllp_check(d, f);
}

void ual_pcie_dllp_check(const struct ual_pcie_dllp *d, struct ual_findings *f) {
  if (!d->crc_ok) {
    ual_findings_add(f, UAL_R_PD_CRC, -1, "%s: CRC-16 %04xh received, %04xh computed", ual_pcie_dllp_name_str(d->name),
                     d->crc_rx, d->crc_calc);
    return;
  }
  if (d->name == UAL_PCIE_DT_RESERVED) {
    ual_findings_add(f, UAL_R_PD_TYPE, -1, "reserved DLLP type %02xh", d->type);
    return;
  }
  enum ual_field_id id;
  uint32_t v;
  if (d->layout != UAL_PCIE_L_RAW && ual_scope_reserved_set((enum ual_scope)ual_pcie_layout_scope(d->layout), d->bytes, &id, &v))
    ual_findings_add(f, UAL_R_PD_RESERVED, -1, "%s: %s (%s) = %xh", ual_pcie_dllp_name_str(d->name),
                     ual_fields[id].name, ual_fields[id].abbrev, v);
}

void ual_pcie_dllp_build(const struct ual_pcie_dllp *d, uint8_t p[UAL_PCIE_DLLP_BYTES]) {
  memset(p, 0, UAL_PCIE_DLLP_BYTES);
  ual_field_put(UAL_F_PCIE_DLLP_TYPE, p, d->type);
  const struct ual_pcie_dllp_type *t = &ual_pcie_dllp_types[ual_pcie_dllp_name_of(d->type)];
  switch (t->layout) {
  case UAL_PCIE_L_ACK:
    ual_field_put(UAL_F_PCIE_ACK_SEQ, p, d->seq);
    break;
  case UAL_PCIE_L_FC:
    ual_field_put(UAL_F_PCIE_FC_HDR_SCALE, p, d->hdr_scale);
    ual_field_put(UAL_F_PCIE_FC_HDR, p, d->hdr_fc);
    ual_field_put(UAL_F_PCIE_FC_DATA_SCALE, p, d->data_scale);
    ual_field_put(UAL_F_PCIE_FC_DATA, p, d->data_fc);
    break;
  case UAL_PCIE_L_PM:
    break;
  default:
    ual_field_put(UAL_F_PCIE_RAW_DATA, p, d->raw);
    break;
  }
  ual_field_put(UAL_F_PCIE_DLLP_CRC, p, ual_pcie_crc16(p));
}

void ual_pcie_dllp_encode(const struct ual_pcie_dllp *d, uint8_t body[UAL_PCIE_DLLP_BODY]) {
  memset(body, 0, UAL_PCIE_DLLP_BODY);
  ual_field_put(UAL_F_PCIE_FRAMING, body, d->framing);
  ual_pcie_dllp_build(d, body + UAL_PCIE_DLLP_OFF);
}

void ual_pcie_dllp_fc(struct ual_pcie_dllp *d, enum ual_pcie_dllp_name name, unsigned vc, unsigned hs, unsigned hdr,
                      unsigned ds, unsigned data) {
  memset(d, 0, sizeof *d);
  d->type = (uint8_t)(ual_pcie_dllp_types[name].code | (vc & 7));
  d->name = (uint8_t)name;
  d->layout = UAL_PCIE_L_FC;
  d->fc_class = ual_pcie_dllp_types[name].fc_class;
  d->stage = ual_pcie_dllp_types[name].stage;
  d->vc = (uint8_t)(vc & 7);
  d->hdr_scale = (uint8_t)hs;
  d->hdr_fc = (uint16_t)hdr;
  d->data_scale = (uint8_t)ds;
  d->data_fc = (uint16_t)data;
}
