/* Flit header, sector map, segment headers, DLLPs, classification and the
 * stateless PL/DL findings of ual_flit_decode. */
#include "check.h"
#include "ualink/ualink/flit.h"
#include "ualink/core/crc.h"

static void test_fh(void) {
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_NAK_SELECTIVE, 0x3FF }, back;
  uint8_t f[2] = {0, 0};
  ual_fh_encode(&fh, f);
  CHECK_EQ(f[0], 0xAF); /* 10 1 0 11 11 */
  CHECK_EQ(f[1], 0xFF);
  ual_fh_decode(f, &back);
  CHECK_EQ(back.usage, UAL_USAGE_PAYLOAD);
  CHECK_EQ(back.prior_payload, 1);
  CHECK_EQ(back.replay_cmd, UAL_RC_NAK_SELECTIVE);
  CHECK_EQ(back.seq, 0x3FF);
  for (unsigned v = 0; v < 1u << 16; v++) { /* encode(decode(x)) == x for all headers */
    uint8_t in[2] = { (uint8_t)(v >> 8), (uint8_t)v }, out[2] = {0, 0};
    ual_fh_decode(in, &back);
    ual_fh_encode(&back, out);
    if (memcmp(in, out, 2)) { CHECK_MEM(in, out, 2); break; }
  }
  CHECK_STR(ual_replay_cmd_name(UAL_RC_NAK), "nak");
  CHECK_STR(ual_flit_kind_name(UAL_FK_IDLE), "idle");
}

static void test_sectors(void) {
  /* Table 2-1 / D2 byte ranges */
  CHECK_EQ(ual_sector_offset(0), 3);
  CHECK_EQ(ual_sector_offset(15), 63);
  CHECK_EQ(ual_sector_offset(16), 68);
  CHECK_EQ(ual_sector_offset(30), 124);
  CHECK_EQ(ual_sector_offset(31), 129);
  CHECK_EQ(ual_sector_offset(46), 189);
  CHECK_EQ(ual_sector_offset(47), 194);
  CHECK_EQ(ual_sector_offset(58), 238);
  /* The map tiles bytes 2..241 exactly: SH bytes plus sectors, no gaps. */
  uint8_t used[256] = {0};
  unsigned total = 0;
  for (int k = 0; k < UAL_SEGMENTS; k++) {
    used[ual_segment_map[k].sh_byte]++;
    total += ual_segment_map[k].n_sectors;
  }
  CHECK_EQ(total, UAL_SECTORS);
  for (unsigned s = 0; s < UAL_SECTORS; s++)
    for (unsigned b = 0; b < 4; b++) used[ual_sector_offset(s) + b]++;
  for (unsigned i = 0; i < 256; i++) CHECK_EQ(used[i], (i >= 2 && i <= 241) ? 1 : 0);
  CHECK_EQ(ual_segment_map[2].sh_byte, 128);
}

static void test_sh(void) {
  struct ual_sh sh;
  ual_sh_decode(ual_sh_encode(true, true, 1, 1), &sh);
  CHECK_EQ(sh.raw, 0x79); /* 0 11110 0 1 */
  CHECK_EQ(sh.alt, 1);
  CHECK_EQ(sh.tlbeat, UAL_TB_TL_M0M1);
  CHECK_EQ(sh.m0, 1);
  CHECK_EQ(sh.m1, 1);
  ual_sh_decode(ual_sh_encode(false, true, 0, 1), &sh);
  CHECK_EQ(sh.raw, 0x12 << 2);
  CHECK_EQ(sh.tlbeat, UAL_TB_TL_M1);
  CHECK_EQ(sh.m0, 0);
  ual_sh_decode(ual_sh_encode(false, true, 1, 0), &sh);
  CHECK_EQ(sh.tlbeat, UAL_TB_TL_M0);
  ual_sh_decode(ual_sh_encode(false, false, 1, 1), &sh);
  CHECK_EQ(sh.raw, 0);
  CHECK_EQ(sh.tlbeat, UAL_TB_NONE);
  int invalid = 0;
  for (unsigned c = 0; c < 32; c++) {
    ual_sh_decode((uint8_t)(c << 2), &sh);
    invalid += sh.tlbeat == UAL_TB_INVALID;
  }
  CHECK_EQ(invalid, 27);
  ual_sh_decode(0x82, &sh);
  CHECK_EQ(sh.rsvd, 0x82);
}

static void test_dllp(void) {
  struct ual_dllp d = {0}, back;
  d.type = UAL_DLLP_LINK_MGMT;
  d.lm_type = 0; d.lm_priority = 1; d.lm_cmd = UAL_LM_ACK; d.lm_response = 0x5; d.lm_width = 0x3;
  uint8_t b[4];
  ual_dllp_encode(&d, b);
  CHECK_EQ(b[0], 0x28);
  CHECK_EQ(b[1], 0x00);
  CHECK_EQ(b[2], 0x16);
  CHECK_EQ(b[3], 0x53);
  ual_dllp_decode(b, &back);
  CHECK_EQ(back.name, UAL_DN_LINK_MGMT);
  CHECK_EQ(back.lm_priority, 1);
  CHECK_EQ(back.lm_cmd, UAL_LM_ACK);
  CHECK_EQ(back.lm_response, 5);
  CHECK_EQ(back.lm_width, 3);
  uint8_t pm[4] = { 0x20, 0, 0, 0 };
  ual_dllp_decode(pm, &back);
  CHECK_EQ(back.name, UAL_DN_PM_ENTER_L1);
  CHECK_STR(ual_dllp_name_str(UAL_DN_PM_REQUEST_ACK), "pm_request_ack");
}

/* Decodes and returns whether rule r was raised; *n gets the finding count. */
static int raises(const uint8_t *flit, enum ual_rule r, unsigned *n) {
  struct ual_flit_info fi;
  struct ual_findings f;
  ual_findings_clear(&f);
  ual_flit_decode(flit, &fi, &f);
  if (n) *n = f.n;
  return ual_findings_has(&f, r);
}

static void payload_flit(uint8_t *flit, unsigned seq) {
  memset(flit, 0, 256);
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, (uint16_t)seq };
  ual_fh_encode(&fh, flit);
  ual_flit_seal(flit);
}

static void test_classify_and_rules(void) {
  uint8_t f[256], g[256];
  struct ual_flit_info fi;
  struct ual_findings fs;
  unsigned n;

  ual_flit_build_idle(f);
  ual_findings_clear(&fs);
  ual_flit_decode(f, &fi, &fs);
  CHECK_EQ(fi.kind, UAL_FK_IDLE);
  CHECK(fi.valid);
  CHECK_EQ(fs.n, 0);

  struct ual_fh nfh = { 0, 1, UAL_RC_ACK, 17 };
  struct ual_dllp pm = {0};
  pm.type = UAL_DLLP_PM_ENTER_L1;
  ual_flit_build_nop(f, &nfh, &pm);
  ual_findings_clear(&fs);
  ual_flit_decode(f, &fi, &fs);
  CHECK_EQ(fi.kind, UAL_FK_NOP);
  CHECK_EQ(fi.dllp.name, UAL_DN_PM_ENTER_L1);
  CHECK_EQ(fi.fh.seq, 17);
  CHECK_EQ(fs.n, 0);

  payload_flit(f, 5);
  CHECK(!raises(f, UAL_R_PL_SEQ_ZERO, &n));
  CHECK_EQ(n, 0);
  payload_flit(f, 0);
  CHECK(raises(f, UAL_R_PL_SEQ_ZERO, NULL));

  /* PL-CRC: flip a data byte, then recompute FEC only so FEC sees no error. */
  payload_flit(f, 5);
  f[100] ^= 0x10;
  ual_fec_encode(f);
  CHECK(raises(f, UAL_R_PL_CRC, NULL));
  CHECK(!raises(f, UAL_R_PL_CRC_INVERTED, NULL));
  /* PL-CRC-INVERTED: containment poisoning */
  payload_flit(f, 5);
  for (int i = 242; i < 250; i++) f[i] = (uint8_t)~f[i];
  ual_fec_encode(f);
  CHECK(raises(f, UAL_R_PL_CRC_INVERTED, NULL));
  CHECK(!raises(f, UAL_R_PL_CRC, NULL));
  /* PL-FEC-CORRECTED: one byte error is corrected and the flit stays valid */
  payload_flit(f, 5);
  memcpy(g, f, 256);
  g[77] ^= 0x5A;
  ual_findings_clear(&fs);
  ual_flit_decode(g, &fi, &fs);
  CHECK(ual_findings_has(&fs, UAL_R_PL_FEC_CORRECTED));
  CHECK(fi.valid);
  CHECK_MEM(fi.bytes, f, 256);
  CHECK_EQ(fi.fec.pos[77 % 3], 77);
  CHECK(!raises(f, UAL_R_PL_FEC_CORRECTED, NULL));
  /* PL-FEC-UNCORRECTABLE: two errors in one group */
  int found = 0;
  for (int d = 3; d < 60 && !found; d += 3) {
    memcpy(g, f, 256);
    g[10] ^= 0x01;
    g[10 + d] ^= 0x80;
    found = raises(g, UAL_R_PL_FEC_UNCORRECTABLE, NULL);
  }
  CHECK(found);

  /* PL-USAGE: FH0[4] = 1 */
  payload_flit(f, 5);
  f[0] |= 0x10;
  ual_flit_seal(f);
  CHECK(raises(f, UAL_R_PL_USAGE, NULL));
  ual_flit_decode(f, &fi, NULL);
  CHECK_EQ(fi.kind, UAL_FK_RESERVED);

  /* PL-IDLE-BODY: body byte and DLLP type */
  ual_flit_build_idle(f);
  f[200] = 1;
  ual_flit_seal(f);
  CHECK(raises(f, UAL_R_PL_IDLE_BODY, NULL));
  ual_flit_build_idle(f);
  f[2] = UAL_DLLP_PM_ENTER_L1;
  ual_flit_seal(f);
  CHECK(raises(f, UAL_R_PL_IDLE_BODY, NULL));
  ual_flit_build_idle(f);
  f[2] = UAL_DLLP_NOP; /* D6: NOP is allowed in IDLE flits */
  ual_flit_seal(f);
  CHECK(!raises(f, UAL_R_PL_IDLE_BODY, &n));
  CHECK_EQ(n, 0);

  /* PL-NOP-DLLP: disallowed type, and NOP2 with non-zero bytes */
  struct ual_dllp other = {0};
  other.type = 0x30;
  ual_flit_build_nop(f, &nfh, &other);
  CHECK(raises(f, UAL_R_PL_NOP_DLLP, NULL));
  struct ual_dllp nop2 = {0};
  nop2.b[2] = 7;
  ual_flit_build_nop(f, &nfh, &nop2);
  CHECK(raises(f, UAL_R_PL_NOP_DLLP, NULL));
  nop2.b[2] = 0;
  ual_flit_build_nop(f, &nfh, &nop2);
  CHECK(!raises(f, UAL_R_PL_NOP_DLLP, &n));
  CHECK_EQ(n, 0);
  /* PL-NOP-BODY */
  f[150] = 0x42;
  ual_flit_seal(f);
  CHECK(raises(f, UAL_R_PL_NOP_BODY, NULL));
  /* LT-UNSUPPORTED-PM and LT-L0P-PRIORITY are visible in one flit */
  struct ual_dllp l23 = {0};
  l23.type = UAL_DLLP_PM_ENTER_L23;
  ual_flit_build_nop(f, &nfh, &l23);
  CHECK(raises(f, UAL_R_LT_UNSUPPORTED_PM, NULL));
  struct ual_dllp lm = {0};
  lm.type = UAL_DLLP_LINK_MGMT; lm.lm_cmd = UAL_LM_REQUEST; lm.lm_priority = 1;
  ual_flit_build_nop(f, &nfh, &lm);
  CHECK(raises(f, UAL_R_LT_L0P_PRIORITY, NULL));
  lm.lm_priority = 0;
  ual_flit_build_nop(f, &nfh, &lm);
  CHECK(!raises(f, UAL_R_LT_L0P_PRIORITY, &n));
  CHECK_EQ(n, 0);
  /* Link Management with a reserved command, type or reserved bits */
  lm.lm_cmd = 0x1;
  ual_flit_build_nop(f, &nfh, &lm);
  CHECK(raises(f, UAL_R_PL_NOP_DLLP, NULL));
  lm.lm_cmd = UAL_LM_REQUEST;
  lm.lm_type = 5;
  ual_flit_build_nop(f, &nfh, &lm);
  CHECK(raises(f, UAL_R_PL_NOP_DLLP, NULL));
  lm.lm_type = 0;
  ual_flit_build_nop(f, &nfh, &lm);
  f[UAL_DLLP_OFFSET + 2] |= 0xE0;
  ual_flit_seal(f);
  CHECK(raises(f, UAL_R_PL_NOP_DLLP, NULL));

  /* DL-SH-RESERVED and DL-TLBEAT */
  payload_flit(f, 5);
  f[128] = 0x80;
  ual_flit_seal(f);
  CHECK(raises(f, UAL_R_DL_SH_RESERVED, NULL));
  payload_flit(f, 5);
  f[67] = 0x01 << 2;
  ual_flit_seal(f);
  CHECK(raises(f, UAL_R_DL_TLBEAT, NULL));
  ual_findings_clear(&fs);
  ual_flit_decode(f, &fi, &fs);
  CHECK_EQ(fs.v[0].segment, 1);
  /* an invalid flit's content is not judged */
  payload_flit(f, 0);
  f[3] ^= 1;
  ual_fec_encode(f);
  CHECK(!raises(f, UAL_R_PL_SEQ_ZERO, NULL));
}

/* ual_flit_fec_crc as the definitions give it: FEC correction, then the
 * byte-serial CRC of the corrected bytes. */
static void ref_fec_crc(const uint8_t *raw, struct ual_flit_info *fi) {
  memcpy(fi->bytes, raw, UAL_FLIT_BYTES);
  ual_fec_correct(fi->bytes, &fi->fec);
  memcpy(fi->crc_rx, fi->bytes + UAL_CRC_OFFSET, UAL_CRC_BYTES);
  ual_crc64_ref(fi->bytes, fi->crc_calc);
  fi->crc_ok = memcmp(fi->crc_calc, fi->crc_rx, UAL_CRC_BYTES) == 0;
  fi->crc_inverted = true;
  for (int i = 0; i < UAL_CRC_BYTES; i++) fi->crc_inverted &= (fi->crc_calc[i] ^ fi->crc_rx[i]) == 0xFF;
  fi->valid = fi->fec.status != UAL_FEC_UNCORRECTABLE && fi->crc_ok;
}

/* Sealed flits, with an inverted CRC or not, then 0..3 wrong bytes anywhere
 * or in the CRC and FEC bytes, sometimes sealed again by the FEC: the one-pass
 * check for clean flits must give what the full path gives. */
static void test_fec_crc_paths(void) {
  uint64_t s = 5;
  unsigned n = 24000, same = 0, valid = 0, inverted = 0, corrected = 0;
  for (unsigned c = 0; c < n; c++) {
    uint8_t f[UAL_FLIT_BYTES];
    for (int i = 0; i < UAL_FLIT_BYTES; i++) f[i] = (uint8_t)check_rand(&s);
    ual_crc64_ref(f, f + UAL_CRC_OFFSET);
    if (c % 5 == 4)
      for (int i = 0; i < UAL_CRC_BYTES; i++) f[UAL_CRC_OFFSET + i] ^= 0xFF;
    ual_fec_encode_ref(f);
    unsigned from = c / 4 % 2 ? UAL_CRC_OFFSET : 0;
    for (unsigned e = 0; e < c % 4; e++)
      f[from + check_rand(&s) % (UAL_FLIT_BYTES - from)] ^= (uint8_t)(1 + check_rand(&s) % 255);
    if (c / 8 % 3 == 0) ual_fec_encode_ref(f);
    struct ual_flit_info a, b;
    memset(&a, 0xA5, sizeof a);
    memset(&b, 0x5A, sizeof b);
    ual_flit_fec_crc(f, &a);
    ref_fec_crc(f, &b);
    same += memcmp(a.bytes, b.bytes, sizeof a.bytes) == 0 && a.fec.status == b.fec.status &&
            memcmp(a.fec.group, b.fec.group, sizeof a.fec.group) == 0 &&
            memcmp(a.fec.pos, b.fec.pos, sizeof a.fec.pos) == 0 &&
            memcmp(a.crc_rx, b.crc_rx, sizeof a.crc_rx) == 0 && memcmp(a.crc_calc, b.crc_calc, sizeof a.crc_calc) == 0 &&
            a.crc_ok == b.crc_ok && a.crc_inverted == b.crc_inverted && a.valid == b.valid;
    valid += b.valid;
    inverted += b.crc_inverted;
    corrected += b.fec.status == UAL_FEC_CORRECTED;
  }
  printf("ual_flit_fec_crc: %u flits (%u valid, %u with inverted CRC, %u corrected), same as the reference %u\n",
         n, valid, inverted, corrected, same);
  CHECK_EQ(same, n);
  CHECK(valid && inverted && corrected && valid < n);
}

/* The view (ual_flit_view): segment header bytes, each segment's first
 * sector and its trailing zero sectors, by hand on built flits, and the
 * flit decode's own view of a sealed payload flit. */
static void test_view(void) {
  uint8_t f[UAL_FLIT_BYTES] = {0};
  struct ual_flit_view v;
  ual_flit_view(f, &v);
  for (int k = 0; k < UAL_SEGMENTS; k++) {
    CHECK_EQ(v.zero_tail[k], ual_segment_map[k].n_sectors); /* all zero */
    CHECK_EQ(v.first_dw[k], 0);
    CHECK_EQ(v.sh[k], 0);
  }
  f[2] = 0x79;                                    /* SH0 */
  f[3] = 0x11; f[4] = 0x22; f[5] = 0x33; f[6] = 0x44; /* sector 0 */
  f[ual_sector_offset(13) + 2] = 1;               /* segment 0: sectors 14, 15 zero */
  f[ual_sector_offset(30) + 3] = 0x80;            /* segment 1's last sector */
  f[ual_sector_offset(31)] = 5;                   /* segment 2: only its first sector */
  f[193] = 0x0F;                                  /* SH3, segment 3 all zero */
  ual_flit_view(f, &v);
  CHECK_EQ(v.sh[0], 0x79);
  CHECK_EQ(v.first_dw[0], 0x44332211u);
  CHECK_EQ(v.zero_tail[0], 2);
  CHECK_EQ(v.zero_tail[1], 0);
  CHECK_EQ(v.first_dw[2], 5);
  CHECK_EQ(v.zero_tail[2], 15);
  CHECK_EQ(v.sh[3], 0x0F);
  CHECK_EQ(v.zero_tail[3], 12);
  /* the decode fills it for a payload flit, from the bytes after FEC */
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 0, UAL_RC_SEQ, 7 };
  ual_fh_encode(&fh, f);
  ual_flit_seal(f);
  struct ual_flit_info fi;
  struct ual_findings fs;
  ual_findings_clear(&fs);
  ual_flit_decode(f, &fi, &fs);
  CHECK_EQ(fi.kind, UAL_FK_PAYLOAD);
  CHECK_MEM(&fi.view, &v, sizeof v);
  f[ual_sector_offset(40)] ^= 0x10;               /* one bit error: FEC corrects it */
  ual_flit_decode(f, &fi, &fs);
  CHECK_EQ(fi.fec.status, UAL_FEC_CORRECTED);
  CHECK_MEM(&fi.view, &v, sizeof v);
}

int main(void) {
  test_fh();
  test_sectors();
  test_sh();
  test_dllp();
  test_classify_and_rules();
  test_fec_crc_paths();
  test_view();
  return check_done("test_flit");
}
