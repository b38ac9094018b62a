/* Non-flit PCIe packets, record kind 7 (digest pcie.md §7): the LCRC known
 * answers L1-L10 of §7.3.3 (the real Agilent and ECP5 bytes among them),
 * the STP token vectors of §7.2.2, the ECRC vectors E1-E8 of §7.4.9, the
 * kind-7 body examples of §7.1 decoded and built, and the framing findings. */
#include "check.h"
#include "ualink/core/decode.h"
#include "ualink/core/fields.h"
#include "ualink/core/summary.h"
#include "ualink/pcie/nonflit.h"

static size_t hex(const char *s, uint8_t *out, size_t cap) {
  size_t n = 0;
  for (const char *p = s; *p && n < cap;) {
    if (*p == ' ') {
      p++;
      continue;
    }
    unsigned v;
    if (sscanf(p, "%2x", &v) != 1) break;
    out[n++] = (uint8_t)v;
    p += 2;
  }
  return n;
}

/* §7.3.3: seq bytes + TLP, the wire LCRC, the nullified LCRC ("" none). */
static const struct { const char *in, *lcrc, *nul; } lcrc_kat[] = {
  { "0005 33000000 00000019 00000000 00000000", "fa 26 06 4b", "05 d9 f9 b4" },                        /* L1 AG */
  { "0004 35000000 0000001b 00000000 00000000", "db ac c7 b1", "24 53 38 4e" },                        /* L2 AG */
  { "0000 04000001 0000000f 01000000", "4f a6 2a ff", "b0 59 d5 00" },                                  /* L3 EC */
  { "0005 04000001 0000000f 0100000c", "77 59 b3 eb", "88 a6 4c 14" },                                  /* L4 EC */
  { "0006 44000001 0000000f 01000004 00001000", "63 60 a7 4b", "9c 9f 58 b4" },                         /* L5 EC */
  { "0000 74000001 00e20050 00000000 00000000 0a000000", "1e 19 a8 6c", "e1 e6 57 93" },                /* L6 EC */
  { "0000 74000001 00e40050 00000000 00000000 fa010000", "7c b1 f6 c9", "83 4e 09 36" },                /* L7 EC */
  { "0000 4a000001 00011004 00000000 34127856", "ed 4a 89 de", "12 b5 76 21" },                         /* L8 EC */
  { "0fff 33000000 00000019 00000000 00000000", "50 58 6d 51", "af a7 92 ae" },                         /* L9 */
  { "0123 40008001 0000200f dead0000 deadbeef 6f8b268b", "ac 7d ac a2", "" },                           /* L10 */
};

static void test_lcrc(void) {
  for (size_t i = 0; i < sizeof lcrc_kat / sizeof lcrc_kat[0]; i++) {
    uint8_t in[64], want[4], nul[4], got[4];
    size_t n = hex(lcrc_kat[i].in, in, sizeof in);
    CHECK_EQ(hex(lcrc_kat[i].lcrc, want, 4), 4);
    uint32_t c = ual_pcie_lcrc(in[0] >> 4, (unsigned)(in[0] & 0xF) << 8 | in[1], in + 2, n - 2);
    ual_pcie_crc32_put(c, got);
    if (memcmp(got, want, 4)) fprintf(stderr, "L%zu\n", i + 1);
    CHECK_MEM(got, want, 4);
    CHECK_EQ(ual_pcie_crc32(in, n), c);   /* the same CRC over the same bytes */
    if (hex(lcrc_kat[i].nul, nul, 4) == 4) {
      ual_pcie_crc32_put(~c, got);
      CHECK_MEM(got, nul, 4);
    }
  }
}

/* §7.2.2: L, seq, the token, FCRC, P. */
static void test_stp(void) {
  static const struct { unsigned l, seq; const char *tok; unsigned fcrc, p; } v[] = {
    { 1, 0x000, "1f 80 90 00", 0x9, 1 }, { 2, 0x001, "2f 00 d0 01", 0xD, 0 }, { 5, 0x000, "5f 00 60 00", 0x6, 0 },
    { 6, 0x005, "6f 80 20 05", 0x2, 1 }, { 7, 0x123, "7f 00 b1 23", 0xB, 0 }, { 1151, 0x800, "ff c7 e8 00", 0xE, 1 },
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    uint8_t want[4], got[4];
    hex(v[i].tok, want, 4);
    ual_pcie_stp_token(v[i].l, v[i].seq, got);
    CHECK_MEM(got, want, 4);
    CHECK_EQ(ual_pcie_stp_fcrc(v[i].l), v[i].fcrc);
    CHECK_EQ(ual_pcie_stp_parity(v[i].l), v[i].p);
    /* the field rows read the token back */
    CHECK_EQ(ual_field_get(UAL_F_PCIE_NF_STP_SEQ, want), v[i].seq);
    CHECK_EQ(ual_field_get(UAL_F_PCIE_NF_STP_L104, want) << 4 | ual_field_get(UAL_F_PCIE_NF_STP_L30, want), v[i].l);
  }
  /* the reduced equations against the polynomial form of the implementation
   * note, (L0 x^14 + ... + L10 x^4) mod (x^4 + x + 1), for every length */
  for (unsigned l = 0; l < 2048; l++) {
    unsigned r = 0;
    for (unsigned k = 0; k <= 10; k++)
      if (l >> k & 1) r ^= 1u << (14 - k);
    for (int d = 14; d >= 4; d--)
      if (r >> d & 1) r ^= 0x13u << (d - 4);
    CHECK_EQ(ual_pcie_stp_fcrc(l), r);
  }
}

/* §7.4.9 E1-E8: TLP without digest, digest bytes. */
static void test_ecrc(void) {
  static const struct { const char *tlp, *ecrc; } v[] = {
    { "40008001 0000200f dead0000 deadbeef", "6f 8b 26 8b" },
    { "44008001 0000000f 01000004 00100000", "d0 6b 75 5d" },
    { "45008001 0000000f 01000004 00100000", "d0 6b 75 5d" },
    { "4400c001 0000000f 01000004 00100000", "d0 6b 75 5d" },
    { "4a008001 01000004 00000000 34127856", "30 55 0e 44" },
    { "33008000 00000019 00000000 00000000", "7d 56 c2 f6" },
    { "91012345 20008001 0100ab0f 00000001 00001000", "b3 45 42 ec" },
    { "8e00beef 91012345 20008001 0100ab0f 00000001 00001000", "b3 45 42 ec" },
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    uint8_t t[64], want[4], got[4];
    size_t n = hex(v[i].tlp, t, sizeof t);
    hex(v[i].ecrc, want, 4);
    ual_pcie_crc32_put(ual_pcie_ecrc(t, n), got);
    if (memcmp(got, want, 4)) fprintf(stderr, "E%zu\n", i + 1);
    CHECK_MEM(got, want, 4);
    /* and the parser checks the digest of the whole TLP */
    memcpy(t + n, want, 4);
    struct ual_pcie_tlph h;
    ual_pcie_tlph_parse(t, n + 4, &h);
    CHECK_EQ(h.td, 1);
    CHECK_EQ(h.ecrc, UAL_PCIE_ECRC_GOOD);
    t[n + 1] ^= 0x10;
    ual_pcie_tlph_parse(t, n + 4, &h);
    CHECK_EQ(h.ecrc, UAL_PCIE_ECRC_BAD);
  }
}

/* A kind-7 record from a body in hex, decoded. */
static void decode_body(const char *body_hex, struct ual_rec_result *r, uint8_t *rec, size_t cap) {
  uint8_t body[256];
  size_t n = hex(body_hex, body, sizeof body);
  struct ual_rec_hdr hd;
  ual_rec_hdr_init(&hd, UAL_REC_PCIE_NF, 0);
  hd.rate = 1;
  hd.width = 1;
  size_t len = ual_record_build(&hd, body, n, rec, cap);
  ual_decode_stateless(rec, len, 1, r);
}

static unsigned nfind(const struct ual_rec_result *r) { return r->findings.n; }

/* §7.1: the examples, decoded and built from their parts. */
static void test_examples(void) {
  static struct ual_rec_result r;
  static uint8_t rec[512], body[512];
  char sum[200];
  /* 8b/10b PME_Turn_Off seq 5 (AG 3531075) */
  const char *turn_off = "00 01 18 00 fb 00 05 33 00 00 00 00 00 00 19 00 00 00 00 00 00 00 00 fa 26 06 4b fd";
  decode_body(turn_off, &r, rec, sizeof rec);
  CHECK_EQ(r.status, UAL_RS_OK);
  CHECK_EQ(nfind(&r), 0);
  CHECK(ual_pcie_nf_is_tlp(&r.nf));
  CHECK_EQ(r.nf.seq, 5);
  CHECK_EQ(r.nf.lcrc, UAL_PCIE_LCRC_GOOD);
  CHECK_EQ(r.nf.dl, UAL_PCIE_DL_GOOD);
  CHECK_EQ(r.nf.accepted, 1);
  CHECK_EQ(r.nf.lcrc_rx, 0x4b0626fa);
  CHECK_EQ(r.nf.tlp_off, 7);
  CHECK_EQ(r.nf.tlp_len, 16);
  CHECK_EQ(r.nf.h.byte0, 0x33);
  CHECK_EQ(r.nf.h.kind, UAL_NF_K_MSG);
  CHECK_EQ(r.nf.h.code, 0x19);
  CHECK_EQ(r.nf.h.routing, 3);
  CHECK_EQ(r.nf.h.hdr_dw, 4);
  CHECK_EQ(r.nf.h.size, 16);
  ual_rec_summary(&r, sum, sizeof sum);
  CHECK_STR(sum, "Msg-Bcast (33h) PME_Turn_Off RID 00:00.0 seq 5");
  uint8_t tlp[16];
  hex("33000000 00000019 00000000 00000000", tlp, 16);
  size_t bl = ual_pcie_nf_build_tlp(UAL_PCIE_NF_8B10B, 5, tlp, 16, false, 0, body, sizeof body);
  uint8_t want[64];
  size_t wl = hex(turn_off, want, sizeof want);
  CHECK_EQ(bl, wl);
  CHECK_MEM(body, want, wl);
  /* 128b/130b, the same TLP */
  const char *t128 = "01 01 18 00 6f 80 20 05 33 00 00 00 00 00 00 19 00 00 00 00 00 00 00 00 fa 26 06 4b";
  decode_body(t128, &r, rec, sizeof rec);
  CHECK_EQ(r.status, UAL_RS_OK);
  CHECK_EQ(nfind(&r), 0);
  CHECK_EQ(r.nf.seq, 5);
  CHECK_EQ(r.nf.stp_len, 6);
  CHECK_EQ(r.nf.lcrc, UAL_PCIE_LCRC_GOOD);
  CHECK_EQ(r.nf.h.code, 0x19);
  bl = ual_pcie_nf_build_tlp(UAL_PCIE_NF_128B, 5, tlp, 16, false, 0, body, sizeof body);
  wl = hex(t128, want, sizeof want);
  CHECK_EQ(bl, wl);
  CHECK_MEM(body, want, wl);
  /* 128b/130b nullified */
  const char *n128 = "01 01 1c 00 6f 80 20 05 33 00 00 00 00 00 00 19 00 00 00 00 00 00 00 00 05 d9 f9 b4 c0 c0 c0 c0";
  decode_body(n128, &r, rec, sizeof rec);
  CHECK_EQ(r.status, UAL_RS_OK);
  CHECK_EQ(r.nf.lcrc, UAL_PCIE_LCRC_NULLIFIED);
  CHECK_EQ(r.nf.dl, UAL_PCIE_DL_NULLIFIED);
  CHECK_EQ(r.nf.accepted, 0);
  CHECK_EQ(nfind(&r), 1);
  CHECK(ual_findings_has(&r.findings, UAL_R_PN_NULLIFIED));
  bl = ual_pcie_nf_build_tlp(UAL_PCIE_NF_128B, 5, tlp, 16, true, 0, body, sizeof body);
  wl = hex(n128, want, sizeof want);
  CHECK_EQ(bl, wl);
  CHECK_MEM(body, want, wl);
  /* stripped */
  const char *str = "ff 01 16 00 00 05 33 00 00 00 00 00 00 19 00 00 00 00 00 00 00 00 fa 26 06 4b";
  decode_body(str, &r, rec, sizeof rec);
  CHECK_EQ(r.status, UAL_RS_OK);
  CHECK_EQ(nfind(&r), 0);
  CHECK_EQ(r.nf.seq, 5);
  CHECK_EQ(r.nf.accepted, 1);
  bl = ual_pcie_nf_build_tlp(UAL_PCIE_NF_STRIPPED, 5, tlp, 16, false, 0, body, sizeof body);
  wl = hex(str, want, sizeof want);
  CHECK_EQ(bl, wl);
  CHECK_MEM(body, want, wl);
  /* 8b/10b DLLP Ack 5 (AG 3531076): decoded as kind 4 decodes it */
  const char *ack = "00 02 08 00 5c 00 00 00 05 96 17 fd";
  decode_body(ack, &r, rec, sizeof rec);
  CHECK_EQ(r.status, UAL_RS_OK);
  CHECK_EQ(nfind(&r), 0);
  CHECK(ual_pcie_nf_is_dllp(&r.nf));
  CHECK_EQ(r.nf.dllp_decoded, 1);
  CHECK_EQ(r.pcie.name, UAL_PCIE_DT_ACK);
  CHECK_EQ(r.pcie.seq, 5);
  CHECK_EQ(r.pcie.crc_ok, 1);
  ual_rec_summary(&r, sum, sizeof sum);
  CHECK_STR(sum, "Ack seq 5");
  uint8_t dl[6];
  hex("00 00 00 05 96 17", dl, 6);
  bl = ual_pcie_nf_build_dllp(UAL_PCIE_NF_8B10B, dl, body, sizeof body);
  wl = hex(ack, want, sizeof want);
  CHECK_EQ(bl, wl);
  CHECK_MEM(body, want, wl);
  /* the same DLLP 128b/130b and stripped */
  bl = ual_pcie_nf_build_dllp(UAL_PCIE_NF_128B, dl, body, sizeof body);
  CHECK_EQ(bl, 12);
  CHECK_EQ(body[4], 0xF0);
  CHECK_EQ(body[5], 0xAC);
  bl = ual_pcie_nf_build_dllp(UAL_PCIE_NF_STRIPPED, dl, body, sizeof body);
  CHECK_EQ(bl, 10);
  CHECK_EQ(body[1], UAL_PCIE_NF_CL_DLLP);
}

/* PME_TO_Ack (AG 3531078) and the ECP5 TLPs of §7.4.10, decoded. */
static void test_real_tlps(void) {
  static struct ual_rec_result r;
  static uint8_t rec[512], body[512];
  char sum[200];
  uint8_t tlp[64];
  size_t n = hex("35000000 0000001b 00000000 00000000", tlp, sizeof tlp);
  size_t bl = ual_pcie_nf_build_tlp(UAL_PCIE_NF_8B10B, 4, tlp, n, false, 0, body, sizeof body);
  CHECK_EQ(body[bl - 5], 0xdb);   /* L2's LCRC */
  struct ual_rec_hdr hd;
  ual_rec_hdr_init(&hd, UAL_REC_PCIE_NF, 1);
  size_t len = ual_record_build(&hd, body, bl, rec, sizeof rec);
  ual_decode_stateless(rec, len, 1, &r);
  CHECK_EQ(nfind(&r), 0);
  CHECK_EQ(r.nf.h.code, 0x1B);
  CHECK_EQ(r.nf.h.routing, 5);
  ual_rec_summary(&r, sum, sizeof sum);
  CHECK_STR(sum, "Msg-Gather (35h) PME_TO_Ack RID 00:00.0 seq 4");
  /* R2: CfgRd0 01:00.0 register 3 */
  n = hex("04000001 0000000f 0100000c", tlp, sizeof tlp);
  bl = ual_pcie_nf_build_tlp(UAL_PCIE_NF_8B10B, 5, tlp, n, false, 0, body, sizeof body);
  len = ual_record_build(&hd, body, bl, rec, sizeof rec);
  ual_decode_stateless(rec, len, 1, &r);
  CHECK_EQ(r.nf.accepted, 1);
  CHECK_EQ(r.nf.h.kind, UAL_NF_K_CFG);
  CHECK_EQ(r.nf.h.target, 0x0100);
  CHECK_EQ(r.nf.h.reg, 0x00C);
  CHECK_EQ(r.nf.h.first_be, 0xF);
  CHECK_EQ(r.nf.h.last_be, 0);
  CHECK_EQ(r.nf.h.len_dw, 1);
  ual_rec_summary(&r, sum, sizeof sum);
  CHECK_STR(sum, "CfgRd0 (04h) len 1 DW/4 B RID 00:00.0 tag 0 to 01:00.0 reg 00ch BE 0/f seq 5");
  /* R5: Set_Slot_Power_Limit 25 W from 00:1c.4 */
  n = hex("74000001 00e40050 00000000 00000000 fa010000", tlp, sizeof tlp);
  bl = ual_pcie_nf_build_tlp(UAL_PCIE_NF_8B10B, 0, tlp, n, false, 0, body, sizeof body);
  len = ual_record_build(&hd, body, bl, rec, sizeof rec);
  ual_decode_stateless(rec, len, 1, &r);
  CHECK_EQ(r.nf.h.rid, 0x00e4);
  CHECK_EQ(r.nf.h.code, 0x50);
  CHECK_EQ(r.nf.h.pay_len, 4);
  CHECK_EQ(r.nf.h.pay_off, 16);
  ual_rec_summary(&r, sum, sizeof sum);
  CHECK_STR(sum, "MsgD-Local (74h) Set_Slot_Power_Limit len 1 DW/4 B RID 00:1c.4 seq 0");
  /* the broken Intel frame: neither LCRC nor its inverse, reserved bits 1010b */
  const char *broken = "00 01 1c 00 fb ac 60 c2 00 00 01 00 00 00 50 00 00 00 00 00 00 00 00 00 00 00 00 b3 fd 2a a7 fd";
  uint8_t b2[64];
  size_t b2n = hex(broken, b2, sizeof b2);
  len = ual_record_build(&hd, b2, b2n, rec, sizeof rec);
  ual_decode_stateless(rec, len, 1, &r);
  CHECK_EQ(r.status, UAL_RS_OK);
  CHECK(ual_findings_has(&r.findings, UAL_R_PN_LCRC));
  CHECK(ual_findings_has(&r.findings, UAL_R_PN_SEQ_RESERVED));
  CHECK_EQ(r.nf.seq, 0xC60);
  CHECK_EQ(r.nf.seq_rsvd, 0xA);
  CHECK_EQ(r.nf.dl, UAL_PCIE_DL_BAD);
  CHECK_EQ(r.nf.accepted, 0);
}

/* Malformed records (§7.1) and framing findings (§7.2). */
static void test_framing(void) {
  static struct ual_rec_result r;
  static uint8_t rec[512];
  static const char *malformed[] = {
    "00 01 00 00",                                        /* n = 0 */
    "02 01 08 00 fb 00 05 33 00 00 00 fd",                /* reserved encoding */
    "00 03 00 00 fb 00 05 33",                            /* class 3 */
    "ff 00 06 00 00 00 00 05 96 17",                      /* class 0 stripped */
    "00 11 00 00 fb 00 05 33",                            /* info 7:4 */
    "00 05 00 00 fb 00 05 33",                            /* nullified bit with 8b/10b */
    "00 02 07 00 5c 00 00 00 05 96 17 fd",                /* wire_len != n, not truncated */
    "00 0a 08 00 5c 00 00 00 05 96 17 fd",                /* truncated with wire_len <= n */
    "00 01 08 00 5c 00 00 00 05 96 17 fd",                /* class TLP on SDP */
    "00 02 00 00 fb 00 00 00 05 96 17 fd",                /* class DLLP on STP */
    "01 01 00 00 f0 ac 00 00 00 05 96 17",                /* class TLP on SDP token */
    "01 02 00 00 6f 80 20 05 00 00 00 00",                /* class DLLP on an STP token */
  };
  for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
    decode_body(malformed[i], &r, rec, sizeof rec);
    if (r.status != (i ? UAL_RS_BODY : UAL_RS_BODY_LEN)) fprintf(stderr, "malformed %zu: status %d\n", i, r.status);
    CHECK_EQ(r.status, i ? UAL_RS_BODY : UAL_RS_BODY_LEN);   /* n = 0 is a body of the wrong length */
  }
  static const struct { const char *body; enum ual_rule rule; } bad[] = {
    { "00 00 00 00 bc 00 05 33", UAL_R_PN_FRAME_END },
    { "00 00 00 00 5c 00 00 00 05 96 17 fe", UAL_R_PN_FRAME_END },                /* EDB after a DLLP */
    { "00 00 00 00 fb 00 05 33 00 00 00 00 00 00 19 fa 26 06 4b fd", UAL_R_PN_FRAME_SHORT },
    { "00 00 00 00 5c 00 00 00 05 96 17 00 fd", UAL_R_PN_FRAME_SHORT },
    { "01 00 00 00 f0 ab 00 00 00 05 96 17", UAL_R_PN_TOKEN },
    { "01 00 00 00 1f 80 90 00 00 00 00 00", UAL_R_PN_TOKEN },                     /* EDS shape */
    { "01 00 00 00 12 34 56 78", UAL_R_PN_TOKEN },
    { "01 00 00 00 6f 80 30 05 33 00 00 00 00 00 00 19 00 00 00 00 00 00 00 00 fa 26 06 4b", UAL_R_PN_STP_CHECK },
    { "01 00 00 00 6f 00 20 05 33 00 00 00 00 00 00 19 00 00 00 00 00 00 00 00 fa 26 06 4b", UAL_R_PN_STP_CHECK },
    { "01 00 00 00 6f 80 20 05 33 00 00 00 00 00 00 19 00 00 00 00 00 00 00 00 fa 26 06", UAL_R_PN_STP_LENGTH },
    { "01 00 00 00 6f 80 20 05 33 00 00 00 00 00 00 19 00 00 00 00 00 00 00 00 05 d9 f9 b4 c0 c0 c1 c0", UAL_R_PN_TOKEN },
    { "ff 02 00 00 00 00 00 05 96", UAL_R_PN_FRAME_SHORT },
    { "ff 01 00 00 00 05 33 00 00 00 00 00 00 19 00 00 00 00 00 00 00", UAL_R_PN_FRAME_SHORT },
    { "00 00 00 00 fb 00 05 33 00 00 00 00 00 00 19 00 00 00 00 00 00 00 00 fa 26 06 4c fd", UAL_R_PN_LCRC },
    { "00 00 00 00 fb 00 05 33 00 00 00 00 00 00 19 00 00 00 00 00 00 00 00 fa 26 06 4b fe", UAL_R_PN_NULLIFIED_BAD },
    { "00 00 00 00 fb 00 05 33 00 00 00 00 00 00 19 00 00 00 00 00 00 00 00 05 d9 f9 b4 fe", UAL_R_PN_NULLIFIED },
    { "00 09 20 00 fb 00 05 33 00 00 00 00", UAL_R_PN_REC_TRUNC },
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    decode_body(bad[i].body, &r, rec, sizeof rec);
    CHECK_EQ(r.status, UAL_RS_OK);
    if (r.findings.n != 1 || !ual_findings_has(&r.findings, bad[i].rule))
      fprintf(stderr, "framing case %zu: %u findings, first %s\n", i, r.findings.n,
              r.findings.n ? ual_rule_id((enum ual_rule)r.findings.v[0].rule) : "-");
    CHECK_EQ(r.findings.n, 1);
    CHECK(ual_findings_has(&r.findings, bad[i].rule));
    CHECK(!r.nf.accepted);
  }
  /* a body longer than a u16 wire length can say is malformed */
  {
    static uint8_t big[8 + 4 + 0x10000];
    struct ual_rec_hdr hd;
    ual_rec_hdr_init(&hd, UAL_REC_PCIE_NF, 0);
    memset(big, 0x90, sizeof big);   /* all prefixes */
    uint8_t *b = big + 8;
    b[0] = 0; b[1] = 1; b[2] = 0; b[3] = 0; b[4] = 0xFB;
    size_t len = ual_record_build(&hd, b, sizeof big - 8, big, sizeof big);
    ual_decode_stateless(big, len, 1, &r);
    CHECK_EQ(r.status, UAL_RS_BODY);
    ual_decode_stateless(big, len - 1, 1, &r);   /* 65535 bytes: decoded, a TLP of prefixes without END */
    CHECK_EQ(r.status, UAL_RS_OK);
    CHECK(ual_findings_has(&r.findings, UAL_R_PN_FRAME_END));
  }
  /* the Frame CRC message names [P24] */
  decode_body(bad[7].body, &r, rec, sizeof rec);
  CHECK(strstr(r.findings.v[0].msg, "[P24]") != NULL);
  /* a truncated TLP is unknown to the DL and has its header as far as it goes */
  decode_body("00 09 18 00 fb 00 05 33 00 00 00 00 00 00 19", &r, rec, sizeof rec);
  CHECK_EQ(r.nf.dl, UAL_PCIE_DL_UNKNOWN);
  CHECK_EQ(r.nf.h.code, 0x19);
  CHECK_EQ(r.nf.seq, 5);
  /* every truncation of a valid record decodes without a crash */
  uint8_t tlp[16] = { 0x33, 0, 0, 0, 0, 0, 0, 0x19 }, body[64];
  for (unsigned enc = 0; enc < 3; enc++) {
    unsigned e = enc == 2 ? 255 : enc;
    size_t full = ual_pcie_nf_build_tlp(e, 7, tlp, 16, false, 0, body, sizeof body) - 4;
    for (size_t k = 1; k < full; k++) {
      size_t bl = ual_pcie_nf_build_tlp(e, 7, tlp, 16, false, k, body, sizeof body);
      CHECK_EQ(bl, 4 + k);
      struct ual_rec_hdr hd;
      ual_rec_hdr_init(&hd, UAL_REC_PCIE_NF, 0);
      size_t len = ual_record_build(&hd, body, bl, rec, sizeof rec);
      ual_decode_stateless(rec, len, 1, &r);
      CHECK_EQ(r.status, UAL_RS_OK);
      CHECK(ual_findings_has(&r.findings, UAL_R_PN_REC_TRUNC));
      CHECK_EQ(r.nf.dl, UAL_PCIE_DL_UNKNOWN);
    }
  }
}

/* The header builder: a TLP of every kind built from field values parses
 * back to them. */
static void test_header_build(void) {
  struct ual_pcie_tlp_fields f;
  struct ual_pcie_tlph h;
  uint8_t t[64];
  memset(&f, 0, sizeof f);
  f.byte0 = 0x00;   /* MRd32 */
  f.length = 1;
  f.rid = 0x0100;
  f.tag = 0x203;
  f.first_be = 0xF;
  f.addr = 0xfebf0000;
  size_t n = ual_pcie_tlp_build(&f, NULL, 0, t, sizeof t);
  CHECK_EQ(n, 12);
  ual_pcie_tlph_parse(t, n, &h);
  CHECK_EQ(h.kind, UAL_NF_K_MEM);
  CHECK_EQ(h.addr, 0xfebf0000);
  CHECK_EQ(h.tag, 0x203);
  CHECK_EQ(h.t9, 1);
  CHECK_EQ(h.rid, 0x0100);
  CHECK_EQ(h.size, 12);
  /* the real CfgWr0 of L5 */
  memset(&f, 0, sizeof f);
  f.byte0 = 0x44;
  f.length = 1;
  f.first_be = 0xF;
  f.target = 0x0100;
  f.reg = 0x004;
  const uint8_t data[4] = { 0x00, 0x00, 0x10, 0x00 };
  n = ual_pcie_tlp_build(&f, data, 4, t, sizeof t);
  uint8_t want[20];
  hex("44000001 0000000f 01000004 00001000", want, 16);
  CHECK_EQ(n, 16);
  CHECK_MEM(t, want, 16);
  /* E1 with its digest */
  memset(&f, 0, sizeof f);
  f.byte0 = 0x40;
  f.td = 1;
  f.length = 1;
  f.tag = 0x20;
  f.first_be = 0xF;
  f.addr = 0xdead0000;
  const uint8_t d1[4] = { 0xde, 0xad, 0xbe, 0xef };
  n = ual_pcie_tlp_build(&f, d1, 4, t, sizeof t);
  hex("40008001 0000200f dead0000 deadbeef 6f8b268b", want, 20);
  CHECK_EQ(n, 20);
  CHECK_MEM(t, want, 20);
  /* L8's CplD */
  memset(&f, 0, sizeof f);
  f.byte0 = 0x4A;
  f.length = 1;
  f.cid = 0x0001;
  f.status = 0;
  f.bcm = 1;
  f.byte_count = 4;
  const uint8_t d8[4] = { 0x34, 0x12, 0x78, 0x56 };
  n = ual_pcie_tlp_build(&f, d8, 4, t, sizeof t);
  hex("4a000001 00011004 00000000 34127856", want, 16);
  CHECK_MEM(t, want, 16);
}

/* The per-TLP rules (§7.7): each TLP built into an 8b/10b record with a good
 * LCRC, decoded, judged; the findings must be exactly the rules listed. The
 * ECP5 replies of §7.4.10 (F1-F6) and the real requests carry the
 * digest's verdicts. */
static void test_tlp_rules(void) {
  static const struct { const char *tlp; int down; const char *rules; } v[] = {
    { "33000000 00000019 00000000 00000000", 0, "" },                               /* AG PME_Turn_Off */
    { "35000000 0000001b 00000000 00000000", 1, "" },                               /* AG PME_TO_Ack */
    { "04000001 0000000f 01000000", 0, "" },                                        /* R1 */
    { "44000001 0000000f 01000004 00001000", 0, "" },                               /* R3 */
    { "74000001 00e20050 00000000 00000000 0a000000", 0, "" },                      /* R4 */
    { "00000000 00001000 00000000", 1, "PN-TLP-BE" },                               /* F1 */
    { "4a000002 02002000 00000068", 1, "PN-TLP-SIZE PN-CPL-UR PN-CPL-FORM" },       /* F2 */
    { "4a000001 01001000 00000034", 1, "PN-TLP-SIZE PN-CPL-BCM" },                  /* F3 */
    { "4a000001 01001000 00000034 12785600", 1, "PN-CPL-BCM" },                     /* F4 */
    { "4a000001 00011000 00000034 12785600", 1, "PN-CPL-BCM" },                     /* F5 */
    { "4a000001 00011004 00000000 34127856", 1, "PN-CPL-BCM" },                     /* F6 */
    { "a0000000 00000000 00000000", -1, "PN-TLP-TYPE" },                            /* Fmt 101b */
    { "10000000 00000000 00000000", -1, "PN-TLP-TYPE" },                            /* Msg with a 3-DW Fmt */
    { "1b000001 0000000f 01000000", 0, "PN-TLP-DEPRECATED" },                       /* TCfgRd */
    { "00020001 0100030f febf0000", 1, "PN-TLP-RESERVED" },                         /* LN */
    { "40800001 0100030f febf0000 00000000", 1, "PN-TLP-RESERVED" },                /* T9 on a posted request */
    { "00000c01 0100030f febf0000", 1, "PN-TLP-AT" },                               /* AT 11b */
    { "04000401 0000000f 01000000", 0, "PN-TLP-AT" },                               /* AT on a config request */
    { "04100001 0000000f 01000000", 0, "PN-TLP-IOCFG" },                            /* TC 1 */
    { "02000002 000000ff 00001000", 0, "PN-TLP-IOCFG" },                            /* IORd Length 2 */
    { "44000001 0000000f 01000005 00000000", 0, "PN-TLP-RESERVED" },                /* config DW2 bits 1:0 */
    { "40000002 0000005f 00001004 00000000 00000000", 1, "PN-TLP-BE" },             /* not contiguous, not QW aligned */
    { "40000002 00000055 00001000 00000000 00000000", 1, "" },                      /* QW aligned: allowed */
    { "40000003 0000008f 00001000 00000000 00000000 00000000", 1, "PN-TLP-BE" },   /* Last DW BE 1000b */
    { "00000002 000000ff 00000ffc", 1, "PN-TLP-4KB" },
    { "4c000003 00000000 00001000 00000000 00000000 00000000", 1, "PN-TLP-ATOMIC" },   /* FetchAdd Length 3 */
    { "4e000004 00000000 00001004 00000000 00000000 00000000 00000000", 1, "PN-TLP-ATOMIC" },   /* CAS 8-byte operand at 4 */
    { "4e000002 00000000 00001004 00000000 00000000", 1, "" },                      /* CAS 4-byte operand at 4 */
    { "20000001 0000000f 00000000 00001000", 1, "PN-TLP-ADDR64" },
    { "20000001 0000000f 00000001 00001000", 1, "" },
    { "40004001 0000000f 00001000 00000000", 1, "PN-POISONED" },
    { "40008001 0000200f dead0000 deadbeef 6f8b268c", 1, "PN-ECRC" },
    { "33100000 00000019 00000000 00000000", 0, "PN-MSG-TC" },
    { "34000000 00000050 00000000 00000000", 0, "PN-MSG-FORM" },                    /* SSPL without data */
    { "74000002 00000050 00000000 00000000 0a000000 00000000", 0, "PN-MSG-FORM" },  /* SSPL Length 2 */
    { "34000000 00000099 00000000 00000000", 1, "PN-MSG-CODE" },                    /* undefined code */
    { "34000000 00000019 00000000 00000000", 0, "PN-MSG-CODE" },                    /* PME_Turn_Off routed local */
    { "36000000 00000019 00000000 00000000", 0, "PN-MSG-CODE" },                    /* r = 110b */
    { "34000000 00010020 00000000 00000000", 1, "PN-MSG-INTX" },                    /* Function 1 */
    { "34000000 00000020 00000000 00000000", 0, "PN-MSG-INTX" },                    /* sent downstream */
    { "34000000 00000020 00000000 00000000", -1, "" },                              /* direction unknown */
    { "30000000 00000018 00000000 00000000", 0, "PN-MSG-DIR" },                     /* PM_PME downstream */
    { "33000000 00000019 00000000 00000000", 1, "PN-MSG-DIR" },                     /* PME_Turn_Off upstream */
    { "33000000 00000019 00000000 00000001", 0, "PN-TLP-RESERVED" },                /* bytes 8-15 [P47] */
    { "34000000 00000010 00000000 00000001", 1, "" },                               /* LTR: raw */
    { "34000000 0000007f 12340001 08000000", 1, "PN-TLP-RESERVED" },                /* DRS: dest ID without ID routing */
    { "34000000 0000007f 00000001 08000000", 1, "" },                               /* DRS */
    { "74000001 0000007f 00000001 08000000 00000000", 1, "PN-MSG-FORM" },           /* DRS with data */
    { "0a000000 01008000 00000000", 1, "PN-CPL-CA" },
    { "0a000000 01004000 00000000", 1, "PN-CPL-RRS" },
    { "0a000000 01006000 00000000", 1, "PN-CPL-STATUS-RSVD" },
    { "90000000 90000000 90000000", 1, "PN-TLP-PREFIX" },                           /* no header */
    { "90000000 8e000000 00000001 0000000f 00001000", 1, "PN-TLP-PREFIX" },         /* local after end-end */
    { "91000000 91000000 00000001 0000000f 00001000", 1, "PN-TLP-PREFIX" },         /* two PASID */
    { "85000000 00000001 0000000f 00001000", 1, "PN-TLP-TYPE" },                    /* reserved prefix */
    { "8d000000 00000001 0000000f 00001000", 1, "PN-TLP-TYPE" },                    /* FlitModePrefix */
    { "8e000000 91000000 00000001 0000000f 00001000", 1, "" },
    { "40000002 000000ff 00001000 00000000", 1, "PN-TLP-SIZE" },                    /* 1 data DW of 2 */
  };
  static struct ual_rec_result r;
  static uint8_t rec[512], body[512];
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    uint8_t tlp[128];
    size_t n = hex(v[i].tlp, tlp, sizeof tlp);
    size_t bl = ual_pcie_nf_build_tlp(UAL_PCIE_NF_8B10B, (unsigned)i, tlp, n, false, 0, body, sizeof body);
    struct ual_rec_hdr hd;
    ual_rec_hdr_init(&hd, UAL_REC_PCIE_NF, 0);
    size_t len = ual_record_build(&hd, body, bl, rec, sizeof rec);
    ual_decode_stateless(rec, len, 1, &r);
    CHECK_EQ(r.findings.n, 0);
    CHECK_EQ(r.nf.accepted, 1);
    struct ual_pcie_nf_rules_cfg c = { 0, (int8_t)v[i].down };
    ual_pcie_nf_tlp_rules(&r.nf, r.rec.body, &c, &r.findings);
    char got[256] = "";
    for (unsigned k = 0; k < r.findings.n; k++) {
      if (k) strcat(got, " ");
      strcat(got, ual_rule_id((enum ual_rule)r.findings.v[k].rule));
    }
    if (strcmp(got, v[i].rules)) fprintf(stderr, "rules case %zu (%s): got \"%s\"\n", i, v[i].tlp, got);
    CHECK_STR(got, v[i].rules);
  }
  /* ARI: the INTx Function Number is all of byte 5 */
  uint8_t tlp[16];
  size_t n = hex("34000000 00080020 00000000 00000000", tlp, sizeof tlp);
  size_t bl = ual_pcie_nf_build_tlp(UAL_PCIE_NF_8B10B, 0, tlp, n, false, 0, body, sizeof body);
  struct ual_rec_hdr hd;
  ual_rec_hdr_init(&hd, UAL_REC_PCIE_NF, 0);
  ual_decode_stateless(rec, ual_record_build(&hd, body, bl, rec, sizeof rec), 1, &r);
  struct ual_pcie_nf_rules_cfg c = { 0, 1 };
  ual_pcie_nf_tlp_rules(&r.nf, r.rec.body, &c, &r.findings);
  CHECK_EQ(r.findings.n, 0);   /* Device 1, Function 0 */
  c.ari = 1;
  ual_pcie_nf_tlp_rules(&r.nf, r.rec.body, &c, &r.findings);
  CHECK(ual_findings_has(&r.findings, UAL_R_PN_MSG_INTX));
  /* nothing on a TLP the DL did not accept */
  n = hex("00000000 00001000 00000000", tlp, sizeof tlp);
  bl = ual_pcie_nf_build_tlp(UAL_PCIE_NF_8B10B, 0, tlp, n, true, 0, body, sizeof body);
  ual_decode_stateless(rec, ual_record_build(&hd, body, bl, rec, sizeof rec), 1, &r);
  CHECK_EQ(r.findings.n, 1);   /* PN-NULLIFIED */
  ual_pcie_nf_tlp_rules(&r.nf, r.rec.body, &c, &r.findings);
  CHECK_EQ(r.findings.n, 1);
}

/* Every named Fmt/Type through the encoder and the decoder: random field
 * values built into a TLP (data, digest), framed in each encoding, decoded;
 * the parsed header equals the fields, and rebuilding from the parsed
 * fields gives the same bytes. */
static void test_round_trip(void) {
  static struct ual_rec_result r;
  static uint8_t rec[8192], body[8192], tlp[4200], again[4200], data[4096];
  uint64_t seed = 0x37;
  unsigned types = 0;
  for (unsigned b0 = 0; b0 < 256; b0++) {
    struct ual_pcie_nf_type t;
    ual_pcie_nf_type(b0, &t);
    if (!t.name || t.kind == UAL_NF_K_PREFIX) continue;
    types++;
    for (unsigned enc_i = 0; enc_i < 3; enc_i++) {
      unsigned enc = enc_i == 2 ? UAL_PCIE_NF_STRIPPED : enc_i;
      struct ual_pcie_tlp_fields f;
      memset(&f, 0, sizeof f);
      uint64_t x = check_rand(&seed);
      f.byte0 = (uint8_t)b0;
      f.tc = (uint8_t)(x & 7);
      f.attr = (uint8_t)(x >> 3 & 7);
      f.td = (uint8_t)(x >> 6 & 1);
      f.ep = (uint8_t)(x >> 7 & 1);
      f.at = (uint8_t)(x >> 8 & 3);
      f.length = (uint16_t)(t.data ? 1 + (x >> 10 & 31) : x >> 10 & 0x3FF);
      f.rid = (uint16_t)(x >> 20);
      f.tag = (uint16_t)(t.kind == UAL_NF_K_MSG ? x >> 36 & 0xFF : x >> 36 & 0x3FF);
      f.first_be = (uint8_t)(x >> 46 & 15);
      f.last_be = (uint8_t)(x >> 50 & 15);
      f.ph = (uint8_t)(x >> 54 & 3);
      uint64_t y = check_rand(&seed);
      f.addr = (t.hdr_dw == 4 ? y : y & 0xFFFFFFFFu) & ~3ull;
      f.target = (uint16_t)(y >> 8);
      f.reg = (uint16_t)(y >> 24 & 0xFFC);
      f.cid = (uint16_t)(y >> 32);
      f.status = (uint8_t)(y >> 48 & 7);
      f.bcm = (uint8_t)(y >> 51 & 1);
      f.byte_count = (uint16_t)(y >> 52 & 0xFFF);
      f.lower_addr = (uint8_t)(x >> 57 & 0x7F);
      f.code = (uint8_t)(y >> 40);
      for (unsigned k = 0; k < 8; k++) f.msg[k] = (uint8_t)(check_rand(&seed) >> 13);
      size_t nd = t.data ? 4u * f.length : 0;
      for (size_t k = 0; k < nd; k++) data[k] = (uint8_t)(k * 7 + b0);
      size_t n = ual_pcie_tlp_build(&f, data, nd, tlp, sizeof tlp);
      CHECK_EQ(n, 4u * (t.hdr_dw + nd / 4 + f.td));
      unsigned seq = (unsigned)(x >> 52 & 0xFFF);
      size_t bl = ual_pcie_nf_build_tlp(enc, seq, tlp, n, false, 0, body, sizeof body);
      struct ual_rec_hdr hd;
      ual_rec_hdr_init(&hd, UAL_REC_PCIE_NF, 0);
      ual_decode_stateless(rec, ual_record_build(&hd, body, bl, rec, sizeof rec), 1, &r);
      const struct ual_pcie_tlph *h = &r.nf.h;
      if (r.findings.n || !r.nf.accepted) fprintf(stderr, "round trip %02xh encoding %u\n", b0, enc);
      CHECK_EQ(r.status, UAL_RS_OK);
      CHECK_EQ(r.findings.n, 0);
      CHECK_EQ(r.nf.accepted, 1);
      CHECK_EQ(r.nf.seq, seq);
      CHECK_EQ(r.nf.tlp_len, n);
      CHECK_MEM(r.rec.body + r.nf.tlp_off, tlp, n);
      CHECK_EQ(h->byte0, b0);
      CHECK_EQ(h->kind, t.kind);
      CHECK_EQ(h->size, n);
      CHECK_EQ(h->tc, f.tc);
      CHECK_EQ(h->attr, f.attr);
      CHECK_EQ(h->td, f.td);
      CHECK_EQ(h->ep, f.ep);
      CHECK_EQ(h->at, f.at);
      CHECK_EQ(h->length, f.length);
      CHECK_EQ(h->pay_len, nd);
      CHECK_EQ(h->ecrc, f.td ? UAL_PCIE_ECRC_GOOD : UAL_PCIE_ECRC_NONE);
      if (nd) CHECK_MEM(r.rec.body + r.nf.tlp_off + h->pay_off, data, nd);
      switch (t.kind) {
      case UAL_NF_K_CPL:
        CHECK_EQ(h->cid, f.cid);
        CHECK_EQ(h->status, f.status);
        CHECK_EQ(h->bcm, f.bcm);
        CHECK_EQ(h->byte_count, f.byte_count);
        CHECK_EQ(h->rid, f.rid);
        CHECK_EQ(h->tag, f.tag);
        CHECK_EQ(h->lower_addr, f.lower_addr);
        break;
      case UAL_NF_K_MSG:
        CHECK_EQ(h->rid, f.rid);
        CHECK_EQ(h->tag, f.tag);
        CHECK_EQ(h->code, f.code);
        CHECK_EQ(h->routing, b0 & 7);
        CHECK_MEM(r.rec.body + r.nf.tlp_off + 8, f.msg, 8);
        break;
      default:
        CHECK_EQ(h->rid, f.rid);
        CHECK_EQ(h->tag, f.tag);
        CHECK_EQ(h->first_be, f.first_be);
        CHECK_EQ(h->last_be, f.last_be);
        if (t.kind == UAL_NF_K_CFG) {
          CHECK_EQ(h->target, f.target);
          CHECK_EQ(h->reg, f.reg);
        } else {
          CHECK_EQ(h->addr, f.addr);
          CHECK_EQ(h->ph, f.ph);
        }
        break;
      }
      /* encode(decode(b)) == b */
      struct ual_pcie_tlp_fields g;
      memset(&g, 0, sizeof g);
      g.byte0 = h->byte0;
      g.tc = h->tc;
      g.attr = h->attr;
      g.th = h->th;
      g.td = h->td;
      g.ep = h->ep;
      g.at = h->at;
      g.length = h->length;
      g.rid = h->rid;
      g.tag = h->tag;
      g.first_be = h->first_be;
      g.last_be = h->last_be;
      g.ph = h->ph;
      g.addr = h->addr;
      g.target = h->target;
      g.reg = h->reg;
      g.cid = h->cid;
      g.status = h->status;
      g.bcm = h->bcm;
      g.byte_count = h->byte_count;
      g.lower_addr = h->lower_addr;
      g.code = h->code;
      if (t.kind == UAL_NF_K_MSG) memcpy(g.msg, r.rec.body + r.nf.tlp_off + 8, 8);
      size_t n2 = ual_pcie_tlp_build(&g, r.rec.body + r.nf.tlp_off + h->pay_off, h->pay_len, again, sizeof again);
      CHECK_EQ(n2, n);
      CHECK_MEM(again, tlp, n);
    }
  }
  CHECK_EQ(types, 41);   /* the non-flit Fmt/Type values of §7.4.3 that are not prefixes */
}

int main(void) {
  test_lcrc();
  test_stp();
  test_ecrc();
  test_examples();
  test_real_tlps();
  test_framing();
  test_header_build();
  test_tlp_rules();
  test_round_trip();
  return check_done("test_nonflit");
}
