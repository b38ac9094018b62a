/* Validates the field table itself, and pins field positions to the spec. */
#include "check.h"
#include "ualink/core/fields.h"
#include "ualink/ualink/dlmsg.h"
#include "core/kind.h"

/* Bytes each scope spans from its base. */
static unsigned scope_bytes(unsigned sc) {
  switch (sc) {
  case UAL_SC_REC: case UAL_SC_REC_PCIE_ROLES: case UAL_SC_UB_REC: return 8;
  case UAL_SC_FH: return 2;
  case UAL_SC_FLIT: return 256;
  case UAL_SC_SH: return 1;
  case UAL_SC_PCIE_FDLLP: case UAL_SC_PCIE_FDLLP_LM: return 4;
  case UAL_SC_OS: return 4;
  case UAL_SC_TS: case UAL_SC_TS_EQ: case UAL_SC_MTS: return 16;
  case UAL_SC_EVENT: return 8;
  case UAL_SC_GEN: case UAL_SC_PCIE_GEN: case UAL_SC_UB_GEN: return 0;
  case UAL_SC_PCIE_BODY: return 2;
  case UAL_SC_PCIE_DLLP: case UAL_SC_PCIE_DLLP_ACK: case UAL_SC_PCIE_DLLP_FC: case UAL_SC_PCIE_DLLP_PM:
  case UAL_SC_PCIE_DLLP_RAW: return 6;
  case UAL_SC_PCIE_TLP: case UAL_SC_PCIE_TLP_NOP: return 4;
  case UAL_SC_PCIE_TLP_REQ: case UAL_SC_PCIE_TLP_MSG: return 8;
  case UAL_SC_PCIE_TLP_A32: case UAL_SC_PCIE_TLP_CFG: case UAL_SC_PCIE_TLP_CPL: return 12;
  case UAL_SC_PCIE_TLP_A64: return 16;
  case UAL_SC_PCIE_OHC_A1: case UAL_SC_PCIE_OHC_A2: case UAL_SC_PCIE_OHC_A3: case UAL_SC_PCIE_OHC_A4:
  case UAL_SC_PCIE_OHC_A5: case UAL_SC_PCIE_OHC_B: case UAL_SC_PCIE_OHC_C: return 4;
  case UAL_SC_PCIE_NF_START: case UAL_SC_PCIE_NF_END: return 1;
  case UAL_SC_PCIE_NF_SDPT: case UAL_SC_PCIE_NF_SEQ: return 2;
  case UAL_SC_PCIE_NF_BODY: case UAL_SC_PCIE_NF_EDBT: case UAL_SC_PCIE_NF_STP: case UAL_SC_PCIE_NF_LCRC:
  case UAL_SC_PCIE_NF_PREFIX: case UAL_SC_PCIE_NF_DW0: case UAL_SC_PCIE_NF_ECRC: return 4;
  case UAL_SC_PCIE_NF_REQ: return 8;
  case UAL_SC_PCIE_NF_A32: case UAL_SC_PCIE_NF_CFG: case UAL_SC_PCIE_NF_CPL: return 12;
  case UAL_SC_PCIE_NF_A64: case UAL_SC_PCIE_NF_MSG: case UAL_SC_PCIE_NF_VDM: return 16;
  default:
    if (sc >= UAL_SC_UB_LPH && sc < UAL_SC_UB_GEN) return 20;   /* a UB flit */
    return 4; /* DL message and VDP DWords */
  }
}

static int is_msg_type_scope(unsigned sc) { return sc >= UAL_SC_MSG_NOOP && sc <= UAL_SC_MSG_UART_RESET_RSP; }

/* Marks the absolute bits (byte*8 + bit) of field i; returns overlaps. */
static int mark_bits(int i, uint8_t *bits, unsigned nbits) {
  const struct ual_field *fd = &ual_fields[i];
  int overlaps = 0;
  for (unsigned b = fd->lsb; b < (unsigned)fd->lsb + fd->width; b++) {
    unsigned byte = b / 8, bit = b % 8;
    if (fd->endian == UAL_BE) byte = fd->size - 1 - byte;
    unsigned abs = (fd->offset + byte) * 8 + bit;
    if (abs >= nbits) { overlaps++; continue; }
    if (bits[abs]) overlaps++;
    bits[abs] = 1;
  }
  return overlaps;
}

static void check_scope_layout(unsigned sc, int full) {
  uint8_t bits[256 * 8] = {0};
  unsigned nbits = scope_bytes(sc) * 8;
  int overlaps = 0;
  for (int i = 0; i < UAL_F_COUNT; i++) {
    unsigned s = ual_fields[i].scope;
    if (s == sc || (is_msg_type_scope(sc) && s == UAL_SC_MSG)) overlaps += mark_bits(i, bits, nbits);
  }
  if (overlaps) fprintf(stderr, "scope %u: %d overlapping bits\n", sc, overlaps);
  CHECK_EQ(overlaps, 0);
  if (full) {
    unsigned covered = 0;
    for (unsigned b = 0; b < nbits; b++) covered += bits[b];
    if (covered != nbits) fprintf(stderr, "scope %u: %u of %u bits described\n", sc, covered, nbits);
    CHECK_EQ(covered, nbits);
  }
}

static void test_table_shape(void) {
  for (int i = 1; i < UAL_F_COUNT; i++) CHECK(ual_fields[i - 1].scope <= ual_fields[i].scope); /* one run per scope */
  for (int i = 0; i < UAL_F_COUNT; i++) {
    const struct ual_field *fd = &ual_fields[i];
    CHECK(fd->name && fd->name[0]);
    /* under the plugin's protocols: "ualink", "pcie" for the PCIe scopes, "ub" for UB's (core/fabrics.h) */
    bool pcie_scope = fd->scope >= UAL_SC_PCIE_BODY && fd->scope <= UAL_SC_PCIE_GEN;
    bool ub_scope = fd->scope >= UAL_SC_UB_REC && fd->scope <= UAL_SC_UB_GEN;
    const char *proto = pcie_scope ? "pcie." : ub_scope ? "ub." : "ualink.";
    CHECK(fd->abbrev && strncmp(fd->abbrev, proto, strlen(proto)) == 0 && fd->abbrev[strlen(proto)]);
    CHECK(fd->section && fd->section[0]);
    CHECK(fd->scope < UAL_SC_COUNT);
    CHECK(fd->width > 0 && fd->width <= 64);
    if (fd->scope == UAL_SC_GEN || fd->scope == UAL_SC_PCIE_GEN || fd->scope == UAL_SC_UB_GEN) {
      CHECK_EQ(fd->size, 0);
    } else {
      CHECK(fd->size >= 1 && fd->size <= 8);
      CHECK((unsigned)fd->lsb + fd->width <= 8u * fd->size);
      CHECK((unsigned)fd->offset + fd->size <= scope_bytes(fd->scope));
    }
    if (fd->flags & UAL_FF_BOOL) CHECK_EQ(fd->width, 1);
    if (fd->flags & UAL_FF_ENUM) CHECK(fd->vals != NULL);
    if (fd->flags & UAL_FF_RESERVED) CHECK(fd->vals == NULL);
    for (const char *c = fd->abbrev; *c; c++)
      CHECK((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '.' || *c == '_');
    for (int j = 0; j < i; j++)
      if (strcmp(ual_fields[j].abbrev, fd->abbrev) == 0) {
        fprintf(stderr, "duplicate abbrev %s\n", fd->abbrev);
        CHECK(0);
      }
    if (fd->vals) {
      int n = 0;
      for (const struct ual_value_name *v = fd->vals; v->name && n < 300; v++, n++) {
        CHECK(v->name[0]);
        if (fd->width < 32) CHECK(v->value < (1u << fd->width));
        for (const struct ual_value_name *w = fd->vals; w < v; w++) CHECK(w->value != v->value);
      }
      CHECK(n > 0 && n < 300); /* terminated */
    }
  }
}

static void test_layouts(void) {
  check_scope_layout(UAL_SC_REC, 1);
  check_scope_layout(UAL_SC_FH, 1);
  check_scope_layout(UAL_SC_SH, 1);
  check_scope_layout(UAL_SC_EVENT, 1);
  check_scope_layout(UAL_SC_VDP, 1);
  check_scope_layout(UAL_SC_OS, 1);
  for (unsigned sc = UAL_SC_MSG_NOOP; sc <= UAL_SC_MSG_UART_RESET_RSP; sc++) check_scope_layout(sc, 1);
  check_scope_layout(UAL_SC_MSG, 0);
  check_scope_layout(UAL_SC_FLIT, 0);
  check_scope_layout(UAL_SC_PCIE_FDLLP, 0);
  /* flit-mode TLP DW0 and every OHC word: every bit described once; header bases: no overlaps */
  check_scope_layout(UAL_SC_PCIE_TLP, 1);
  for (unsigned sc = UAL_SC_PCIE_OHC_A1; sc <= UAL_SC_PCIE_OHC_C; sc++) check_scope_layout(sc, 1);
  for (unsigned sc = UAL_SC_PCIE_TLP_REQ; sc <= UAL_SC_PCIE_TLP_CPL; sc++) check_scope_layout(sc, 0);
  check_scope_layout(UAL_SC_PCIE_FDLLP_LM, 0);
  /* kind 7: the record body, the framing, DW0 and a prefix: every bit once; header rows: no overlaps */
  for (unsigned sc = UAL_SC_PCIE_NF_BODY; sc <= UAL_SC_PCIE_NF_DW0; sc++) check_scope_layout(sc, 1);
  for (unsigned sc = UAL_SC_PCIE_NF_REQ; sc <= UAL_SC_PCIE_NF_ECRC; sc++) check_scope_layout(sc, 0);
  check_scope_layout(UAL_SC_TS, 0);
  check_scope_layout(UAL_SC_MTS, 0);
  /* Every message type has a scope with fields. */
  for (int t = 0; t < UAL_MT_RESERVED; t++) {
    enum ual_field_id ids[32];
    CHECK(ual_scope_fields((enum ual_scope)ual_msg_types[t].scope, ids, 32) > 0);
    /* a filter's walk finds message fields in this one run of scopes (ualink/kinds.c) */
    CHECK(ual_msg_types[t].scope > UAL_SC_MSG && ual_msg_types[t].scope <= UAL_SC_MSG_UART_RESET_RSP);
  }
}

/* Positions typed in from the spec tables, independent of the table. */
static void test_spec_positions(void) {
  CHECK_EQ(ual_field_mask(UAL_F_MSG_COMPRESSED), 0x1);
  CHECK_EQ(ual_field_mask(UAL_F_MSG_MCLASS), 0x3C);
  CHECK_EQ(ual_field_mask(UAL_F_MSG_MTYPE), 0x1C0);
  CHECK_EQ(ual_field_mask(UAL_F_RATE_ACK), 1u << 12);
  CHECK_EQ(ual_field_mask(UAL_F_RATE_RATE), 0xFFFF0000u);
  CHECK_EQ(ual_field_mask(UAL_F_DEVID_ID), 0x03FF0000u);
  CHECK_EQ(ual_field_mask(UAL_F_DEVID_TYPE), 0x60000000u);
  CHECK_EQ(ual_field_mask(UAL_F_PORT_PORT), 0x0FFF0000u);
  CHECK_EQ(ual_field_mask(UAL_F_WIDTH_PRIO), 1u << 15);
  CHECK_EQ(ual_field_mask(UAL_F_SPEED_TARGET), 0x000F0000u);
  CHECK_EQ(ual_field_mask(UAL_F_STATE_CMD), 0x00F00000u);
  CHECK_EQ(ual_field_mask(UAL_F_CHAN_RESP), 0x0F000000u);
  CHECK_EQ(ual_field_mask(UAL_F_UTX_LENGTH), 0xF8000000u);
  CHECK_EQ(ual_field_mask(UAL_F_UCR_FCSEQ), 0xFFF00000u);
  CHECK_EQ(ual_field_mask(UAL_F_URS_STATUS), 0x0000E000u);
  CHECK_EQ(ual_field_mask(UAL_F_SH_TLBEAT), 0x7C);

  /* Flit header: FH0 = 1000 0110, FH1 = 0xA5 -> payload, Ack, seq 2A5h. */
  uint8_t fh[2] = { 0x86, 0xA5 };
  CHECK_EQ(ual_field_get(UAL_F_FH_USAGE_LO, fh), 2);
  CHECK_EQ(ual_field_get(UAL_F_FH_USAGE_HI, fh), 0);
  CHECK_EQ(ual_field_get(UAL_F_FH_PRIOR, fh), 0);
  CHECK_EQ(ual_field_get(UAL_F_FH_REPLAY_CMD, fh), 1);
  CHECK_EQ(ual_field_get(UAL_F_FH_SEQ, fh), 0x2A5);
  uint8_t out[2] = {0, 0};
  ual_field_put(UAL_F_FH_USAGE_LO, out, 2);
  ual_field_put(UAL_F_FH_REPLAY_CMD, out, 1);
  ual_field_put(UAL_F_FH_SEQ, out, 0x2A5);
  CHECK_MEM(out, fh, 2);

  /* D1: a DWord is little-endian over its bytes. */
  uint8_t dw[4] = { 0x20, 0x01, 0x43, 0x00 }; /* 0x00430120 */
  CHECK_EQ(ual_field_get(UAL_F_MSG_MCLASS, dw), 0x8);
  CHECK_EQ(ual_field_get(UAL_F_MSG_MTYPE, dw), 0x4);
  CHECK_EQ(ual_field_get(UAL_F_CHAN_TARGET, dw), 0x3);
  CHECK_EQ(ual_field_get(UAL_F_CHAN_CMD, dw), 0x4);
  /* put touches only its own bits */
  uint8_t ones[4] = { 0xFF, 0xFF, 0xFF, 0xFF };
  ual_field_put(UAL_F_UTX_RSVD12, ones, 0);
  CHECK_EQ(ones[0] | ones[1] << 8 | ones[2] << 16 | (uint32_t)ones[3] << 24, 0xF8000FFFu);

  CHECK_EQ(ual_scope_reserved_mask(UAL_SC_SH), 0x82);
  CHECK_EQ(ual_scope_reserved_mask(UAL_SC_MSG_LINK_WIDTH), 0xF0007E00u);
  CHECK_STR(ual_field_value_name(UAL_F_WIDTH_TARGET, 3), "x8");
  CHECK(ual_field_value_name(UAL_F_WIDTH_CMD, 5) == NULL);
  CHECK_STR(ual_fields[UAL_F_FH_SEQ].abbrev, "ualink.fh.seq");
  CHECK_STR(ual_fields[UAL_F_PCIE_DLLP_TYPE].abbrev, "pcie.dllp.type");
  CHECK_STR(ual_fields[UAL_F_UB_LPH_VL].abbrev, "ub.lph.vl");
}

/* The record header rows the tree shows for a kind (its hdr_scope in
 * place of the record rows it covers, the PCIe roles encoding in place of
 * the role rows): every one of the 64 header bits exactly once. */
static void test_header_rows(void) {
  for (unsigned kind = 0; kind < 256; kind++) {
    const struct ual_kind *k = ual_kind_of(kind);
    if (!k) continue;
    for (unsigned pcie = 0; pcie < 2; pcie++) {
      struct ual_rec_hdr h = { .version = 1, .kind = (uint8_t)kind, .roles_pcie = (uint8_t)pcie };
      uint8_t bits[64] = {0};
      int overlaps = 0;
      unsigned covered = 0;
      for (int i = 0; i < UAL_F_COUNT; i++) {
        if (!ual_tree_rec_shows(&h, (enum ual_field_id)i)) continue;
        CHECK(ual_fields[i].offset + ual_fields[i].size <= 8);
        overlaps += mark_bits(i, bits, 64);
      }
      for (unsigned b = 0; b < 64; b++) covered += bits[b];
      if (overlaps || covered != 64)
        fprintf(stderr, "kind %u%s: header rows overlap in %d bits, cover %u of 64\n", kind, pcie ? " (PCIe roles)" : "",
                overlaps, covered);
      CHECK_EQ(overlaps, 0);
      CHECK_EQ(covered, 64);
    }
    /* a kind's header rows cover bits of the record's reserved rows only */
    if (k->hdr_scope != UAL_SC_REC) {
      check_scope_layout(k->hdr_scope, 0);
      enum ual_field_id first;
      size_t n = ual_scope_span(k->hdr_scope, &first);
      CHECK(n > 0);
      struct ual_rec_hdr h = { .version = 1, .kind = (uint8_t)kind };
      for (int i = 0; i < UAL_F_COUNT; i++)
        if (ual_fields[i].scope == UAL_SC_REC && !ual_tree_rec_shows(&h, (enum ual_field_id)i))
          CHECK(ual_fields[i].flags & UAL_FF_RESERVED);
    }
  }
}

int main(void) {
  test_table_shape();
  test_layouts();
  test_header_rows();
  test_spec_positions();
  return check_done("test_fields");
}
