/* PCIe non-flit DLLPs: the digest's CRC-16 known-answer vectors (pcie.md
 * §2.3), every field of every type through decode/encode, the stateless
 * rules, and the kind-4 record through the dispatch point. */
#include "check.h"
#include <ualink/ualink.h>
#include <ualink/pcie/dllp.h>
#include <ualink/core/decode.h>
#include <ualink/core/tree.h>
#include <ualink/core/summary.h>

static const struct { uint8_t b[6]; } kat[] = {
  { { 0x00, 0x00, 0x00, 0x00, 0xB3, 0x62 } }, { { 0x00, 0x00, 0x00, 0x2A, 0xFB, 0xBC } },
  { { 0x00, 0x00, 0x0F, 0xFF, 0x25, 0xA8 } }, { { 0x10, 0x00, 0x0F, 0xFF, 0xCE, 0xCF } },
  { { 0x20, 0x00, 0x00, 0x00, 0x65, 0xAD } }, { { 0x23, 0x00, 0x00, 0x00, 0xEB, 0x05 } },
  { { 0x24, 0x00, 0x00, 0x00, 0x93, 0x0C } }, { { 0x31, 0x00, 0x00, 0x00, 0xFB, 0x32 } },
  { { 0x40, 0x08, 0x01, 0x00, 0x4B, 0x75 } }, { { 0x40, 0x08, 0x00, 0xE0, 0xF5, 0x06 } },
  { { 0x50, 0x08, 0x00, 0x20, 0x12, 0xD9 } }, { { 0x60, 0x00, 0x00, 0x00, 0xD8, 0x92 } },
  { { 0xC0, 0x08, 0x01, 0x00, 0x31, 0x0A } }, { { 0x80, 0x11, 0x46, 0xA0, 0xB3, 0x87 } },
  { { 0x93, 0x3F, 0xCF, 0xFF, 0x09, 0x74 } }, { { 0x40, 0x48, 0x11, 0x00, 0x1C, 0x51 } },
  { { 0x80, 0xE0, 0x28, 0x00, 0xA8, 0xA8 } },
};
#define NKAT (sizeof kat / sizeof kat[0])

static void test_kat(void) {
  for (size_t i = 0; i < NKAT; i++) {
    uint16_t c = ual_pcie_crc16(kat[i].b);
    CHECK_EQ(c & 0xFF, kat[i].b[4]);
    CHECK_EQ(c >> 8, kat[i].b[5]);
    struct ual_pcie_dllp d = {0};
    ual_pcie_dllp_parse(kat[i].b, &d);
    CHECK(d.crc_ok);
    uint8_t out[6];
    ual_pcie_dllp_build(&d, out);
    CHECK_MEM(out, kat[i].b, 6);   /* encode(decode(b)) == b */
  }
}

/* The fields of the digest's vectors, byte-exact. */
static void test_kat_fields(void) {
  struct ual_pcie_dllp d = {0};
  ual_pcie_dllp_parse(kat[1].b, &d);
  CHECK_EQ(d.name, UAL_PCIE_DT_ACK);
  CHECK_EQ(d.seq, 0x2A);
  ual_pcie_dllp_parse(kat[3].b, &d);
  CHECK_EQ(d.name, UAL_PCIE_DT_NAK);
  CHECK_EQ(d.seq, 0xFFF);
  ual_pcie_dllp_parse(kat[8].b, &d);   /* InitFC1-P VC0 H=32 D=256 */
  CHECK_EQ(d.name, UAL_PCIE_DT_INITFC1_P);
  CHECK_EQ(d.fc_class, UAL_PCIE_P);
  CHECK_EQ(d.stage, UAL_PCIE_INIT1);
  CHECK_EQ(d.vc, 0);
  CHECK_EQ(d.hdr_fc, 32);
  CHECK_EQ(d.data_fc, 256);
  CHECK_EQ(d.hdr_scale, 0);
  ual_pcie_dllp_parse(kat[13].b, &d);  /* UpdateFC-P VC0 H=45h D=6A0h */
  CHECK_EQ(d.name, UAL_PCIE_DT_UPDATEFC_P);
  CHECK_EQ(d.hdr_fc, 0x45);
  CHECK_EQ(d.data_fc, 0x6A0);
  ual_pcie_dllp_parse(kat[14].b, &d);  /* UpdateFC-NP VC3 H=FFh D=FFFh */
  CHECK_EQ(d.name, UAL_PCIE_DT_UPDATEFC_NP);
  CHECK_EQ(d.vc, 3);
  CHECK_EQ(d.hdr_fc, 0xFF);
  CHECK_EQ(d.data_fc, 0xFFF);
  CHECK_EQ(d.hdr_scale, 0);
  CHECK_EQ(d.data_scale, 0);
  ual_pcie_dllp_parse(kat[15].b, &d);  /* HS=01 H=32 DS=01 D=256 */
  CHECK_EQ(d.hdr_scale, 1);
  CHECK_EQ(d.hdr_fc, 32);
  CHECK_EQ(d.data_scale, 1);
  CHECK_EQ(d.data_fc, 256);
  ual_pcie_dllp_parse(kat[16].b, &d);  /* HS=11 H=80h DS=10 D=800h */
  CHECK_EQ(d.hdr_scale, 3);
  CHECK_EQ(d.hdr_fc, 0x80);
  CHECK_EQ(d.data_scale, 2);
  CHECK_EQ(d.data_fc, 0x800);
  CHECK_EQ(ual_pcie_scale_factor(d.hdr_scale), 16);
  CHECK_EQ(ual_pcie_scale_factor(d.data_scale), 4);
  CHECK_EQ(ual_pcie_scale_factor(0), 1);
  CHECK_EQ(ual_pcie_scale_factor(1), 1);
}

/* Every type code: decode(encode(x)) == x with random field values. */
static void test_round_trip(void) {
  uint64_t seed = 20;
  unsigned named = 0;
  for (unsigned t = 0; t < 256; t++) {
    enum ual_pcie_dllp_name n = ual_pcie_dllp_name_of(t);
    if (n == UAL_PCIE_DT_RESERVED) continue;
    const struct ual_pcie_dllp_type *ty = &ual_pcie_dllp_types[n];
    if (ty->mask == 0xF0 && (t & 8)) continue;   /* reserved bit 3 */
    named++;
    for (int k = 0; k < 20; k++) {
      uint64_t r = check_rand(&seed);
      struct ual_pcie_dllp d = {0}, e = {0};
      d.type = (uint8_t)t;
      d.framing = (uint8_t)(r % 3);
      d.seq = (uint16_t)(r >> 8 & 0xFFF);
      d.hdr_scale = (uint8_t)(r >> 20 & 3);
      d.hdr_fc = (uint16_t)(r >> 22 & 0xFF);
      d.data_scale = (uint8_t)(r >> 30 & 3);
      d.data_fc = (uint16_t)(r >> 32 & 0xFFF);
      d.raw = (uint32_t)(r >> 40 & 0xFFFFFF);
      uint8_t body[8], again[8];
      ual_pcie_dllp_encode(&d, body);
      struct ual_findings f;
      ual_findings_clear(&f);
      ual_pcie_dllp_decode(body, &e, &f);
      CHECK_EQ(f.n, 0);
      CHECK(e.crc_ok);
      CHECK_EQ(e.type, t);
      CHECK_EQ(e.name, n);
      CHECK_EQ(e.framing, d.framing);
      CHECK_EQ(body[1], 0);
      switch (ty->layout) {
      case UAL_PCIE_L_ACK: CHECK_EQ(e.seq, d.seq); break;
      case UAL_PCIE_L_FC:
        CHECK_EQ(e.vc, t & 7);
        CHECK_EQ(e.fc_class, ty->fc_class);
        CHECK_EQ(e.hdr_scale, d.hdr_scale);
        CHECK_EQ(e.hdr_fc, d.hdr_fc);
        CHECK_EQ(e.data_scale, d.data_scale);
        CHECK_EQ(e.data_fc, d.data_fc);
        break;
      case UAL_PCIE_L_PM: CHECK_EQ(e.raw, 0); break;
      default: CHECK_EQ(e.raw, d.raw); break;
      }
      ual_pcie_dllp_encode(&e, again);
      CHECK_MEM(again, body, 8);
    }
  }
  /* 10 single codes + 12 FC families of 8 VCs */
  CHECK_EQ(named, 10 + 12 * 8);
}

static unsigned decode_rules(const uint8_t b[6], enum ual_rule *first) {
  uint8_t body[8] = { 0, 0 };
  memcpy(body + 2, b, 6);
  struct ual_pcie_dllp d = {0};
  struct ual_findings f;
  ual_findings_clear(&f);
  ual_pcie_dllp_decode(body, &d, &f);
  *first = f.n ? (enum ual_rule)f.v[0].rule : UAL_R_COUNT;
  return f.n;
}

static void with_crc(uint8_t b[6]) {
  uint16_t c = ual_pcie_crc16(b);
  b[4] = (uint8_t)c;
  b[5] = (uint8_t)(c >> 8);
}

static void test_stateless_rules(void) {
  enum ual_rule r;
  uint8_t b[6] = { 0x00, 0x00, 0x00, 0x2A, 0xFB, 0xBD };   /* CRC one bit off */
  CHECK_EQ(decode_rules(b, &r), 1);
  CHECK_EQ(r, UAL_R_PD_CRC);
  /* every reserved type code is PD-TYPE, every named one is clean */
  unsigned reserved = 0;
  for (unsigned t = 0; t < 256; t++) {
    uint8_t c[6] = { (uint8_t)t, 0, 0, 0 };
    with_crc(c);
    unsigned n = decode_rules(c, &r);
    bool named = ual_pcie_dllp_name_of(t) != UAL_PCIE_DT_RESERVED;
    unsigned cls = t >> 4;
    bool mr = cls == 0x7 || cls == 0xB || cls == 0xF;
    /* S3:L24: the FC types are xxxx 0xxxb; 48h-4Fh ... E8h-EFh are reserved types */
    if (cls >= 4 && !mr && (t & 8)) CHECK(!named);
    if (!named) {
      reserved++;
      CHECK_EQ(n, 1);
      CHECK_EQ(r, UAL_R_PD_TYPE);
    } else if (mr && (t & 8)) {
      CHECK_EQ(n, 1);   /* the MR* FC types' byte 0 [3] */
      CHECK_EQ(r, UAL_R_PD_RESERVED);
    } else {
      CHECK_EQ(n, 0);
    }
  }
  CHECK_EQ(reserved, 256 - 10 - 9 * 8 - 3 * 16);
  /* reserved bits of Ack/Nak (byte 1, byte 2 [7:4]) and PM (bytes 1-3) */
  static const uint8_t rsvd[][4] = { { 0x00, 0x01, 0, 0 }, { 0x10, 0, 0x10, 0 }, { 0x20, 0, 0, 1 },
                                     { 0x24, 0x80, 0, 0 }, { 0x21, 0, 0x40, 0 } };
  for (size_t i = 0; i < sizeof rsvd / sizeof rsvd[0]; i++) {
    uint8_t c[6];
    memcpy(c, rsvd[i], 4);
    with_crc(c);
    CHECK_EQ(decode_rules(c, &r), 1);
    CHECK_EQ(r, UAL_R_PD_RESERVED);
  }
  /* NOP, vendor, MRInit, Data_Link_Feature bytes 1-3 are not reserved [P7] */
  static const uint8_t raw[] = { 0x31, 0x30, 0x01, 0x02 };
  for (size_t i = 0; i < sizeof raw; i++) {
    uint8_t c[6] = { raw[i], 0xAB, 0xCD, 0xEF };
    with_crc(c);
    CHECK_EQ(decode_rules(c, &r), 0);
  }
  /* a bad CRC hides the reserved type: the DLLP is discarded */
  uint8_t c[6] = { 0x05, 0, 0, 0, 0, 0 };
  CHECK_EQ(decode_rules(c, &r), 1);
  CHECK_EQ(r, UAL_R_PD_CRC);
}

/* Every DLLP bit is described by the type/CRC rows plus the layout's rows. */
static void test_field_cover(void) {
  static const enum ual_scope sc[] = { UAL_SC_PCIE_DLLP_ACK, UAL_SC_PCIE_DLLP_FC, UAL_SC_PCIE_DLLP_PM,
                                       UAL_SC_PCIE_DLLP_RAW };
  for (size_t s = 0; s < 4; s++) {
    uint8_t seen[6] = {0};
    for (unsigned i = 0; i < UAL_F_COUNT; i++) {
      const struct ual_field *fd = &ual_fields[i];
      if (fd->scope != UAL_SC_PCIE_DLLP && fd->scope != sc[s]) continue;
      uint8_t buf[6] = {0};
      ual_field_put((enum ual_field_id)i, buf, ~0ULL);
      /* byte 0 of the FC types: the type row and, inside it, the reserved bit and the VC */
      for (int k = 1; k < 6; k++) CHECK_EQ(seen[k] & buf[k], 0);
      for (int k = 0; k < 6; k++) seen[k] |= buf[k];
    }
    for (int k = 0; k < 6; k++) CHECK_EQ(seen[k], 0xFF);
  }
}

struct rows { unsigned n; char text[64][200]; };
static void collect(void *ctx, const struct ual_tree_row *row) {
  struct rows *t = ctx;
  if (t->n < 64) snprintf(t->text[t->n++], 200, "%s=%s", row->label, row->text);
}

static void test_record(void) {
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, UAL_REC_PCIE_DLLP, 1);
  uint8_t body[8] = { 1, 0 }, rec[16];
  memcpy(body + 2, kat[13].b, 6);
  size_t n = ual_record_build(&h, body, 8, rec, sizeof rec);
  struct ual_rec_result r;
  ual_decode_stateless(rec, n, 3, &r);
  CHECK_EQ(r.status, UAL_RS_OK);
  CHECK_STR(ual_rec_kind_key(UAL_REC_PCIE_DLLP), "pcie_dllp");
  CHECK_EQ(r.pcie.name, UAL_PCIE_DT_UPDATEFC_P);
  CHECK_EQ(r.pcie.framing, UAL_PCIE_FR_EDB);
  char s[128];
  ual_rec_summary(&r, s, sizeof s);
  CHECK_STR(s, "UpdateFC-P VC0 hdr 69 data 1696 EDB");
  struct rows t = {0};
  ual_tree_walk(&r, rec, n, collect, &t);
  bool hdr = false, crc = false;
  for (unsigned i = 0; i < t.n; i++) {
    if (strstr(t.text[i], "HdrFC=69")) hdr = true;
    if (strstr(t.text[i], "CRC-16 good=")) crc = true;
  }
  CHECK(hdr);
  CHECK(crc);
  CHECK_EQ(r.findings.n, 0);
  /* the record's reserved byte 1 and an undefined framing byte: PD-RECORD each */
  static const uint8_t bad[][2] = { { 1, 0x40 }, { 3, 0 }, { 254, 0x01 } };
  static const unsigned want[] = { 1, 1, 2 };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    body[0] = bad[i][0];
    body[1] = bad[i][1];
    n = ual_record_build(&h, body, 8, rec, sizeof rec);
    ual_decode_stateless(rec, n, 3, &r);
    CHECK_EQ(r.status, UAL_RS_OK);
    CHECK_EQ(r.findings.n, want[i]);
    for (unsigned k = 0; k < r.findings.n; k++) CHECK_EQ(r.findings.v[k].rule, UAL_R_PD_RECORD);
    CHECK_EQ(r.pcie.name, UAL_PCIE_DT_UPDATEFC_P);   /* the DLLP is decoded all the same */
  }
  body[0] = 1;
  body[1] = 0;
  ual_decode_stateless(rec, n - 1, 3, &r);   /* a body of 7 bytes */
  CHECK_EQ(r.status, UAL_RS_BODY_LEN);
}

int main(void) {
  test_kat();
  test_kat_fields();
  test_round_trip();
  test_stateless_rules();
  test_field_cover();
  test_record();
  return check_done("test_dllp");
}
