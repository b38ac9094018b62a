/* DL messages: known encodings from the digest tables (§3), round trips both
 * ways, the stateless DM-* checks and summaries. */
#include "check.h"
#include "ualink/ualink/dlmsg.h"

#include <string.h>

/* Every member of struct ual_dlmsg, for field-by-field comparison. */
#define MSG_MEMBERS(X) \
  X(dw) X(type) X(mclass) X(mtype) X(compressed) X(ack) X(rate) X(id) X(dev_type) X(valid) \
  X(port) X(priority) X(target) X(command) X(response) X(stream) X(all_streams) X(status) \
  X(length) X(data_fc_seq)

static int msg_equal(const struct ual_dlmsg *a, const struct ual_dlmsg *b) {
#define X_(f) if (a->f != b->f) return 0;
  MSG_MEMBERS(X_)
#undef X_
  return 1;
}

static void check_msg(const struct ual_dlmsg *got, const struct ual_dlmsg *want, uint32_t dw) {
#define X_(f) do { check_count++; if (got->f != want->f) { check_failures++; \
  fprintf(stderr, "dw 0x%08x: member " #f ": got 0x%x want 0x%x\n", (unsigned)dw, \
          (unsigned)got->f, (unsigned)want->f); } } while (0);
  MSG_MEMBERS(X_)
#undef X_
}

/* Hand-computed DWords (bit positions from digest §3 / Tables 2-4..2-16). */
struct vec {
  uint32_t dw;
  struct ual_dlmsg m;   /* expected decode (dw filled in by the test) */
  const char *summary;
};

#define BASIC .mclass = 0x0
#define CTRL .mclass = 0x8
#define UART .mclass = 0x1

static const struct vec vecs[] = {
  /* No-Op: everything zero. */
  { 0x00000000, { .type = UAL_MT_NOOP, BASIC, .mtype = 0 }, "No-Op" },
  /* TL Rate request 40000: mtype 100b<<6 = 0x100, Rate 0x9C40<<16. */
  { 0x9C400100, { .type = UAL_MT_TL_RATE, BASIC, .mtype = 4, .rate = 40000 }, "TLRate req 40000 (2000 MHz)" },
  /* TL Rate request 36875 = 0x900B: 1843.75 MHz. */
  { 0x900B0100, { .type = UAL_MT_TL_RATE, BASIC, .mtype = 4, .rate = 36875 }, "TLRate req 36875 (1843.75 MHz)" },
  /* TL Rate response: Ack [12] = 0x1000. */
  { 0x00001100, { .type = UAL_MT_TL_RATE, BASIC, .mtype = 4, .ack = 1 }, "TLRate ack" },
  /* Device ID request: mtype 101b<<6 = 0x140, ID 5<<16, Type 1<<29, Valid 1<<31. */
  { 0xA0050140, { .type = UAL_MT_DEVICE_ID, BASIC, .mtype = 5, .id = 5, .dev_type = 1, .valid = 1 },
    "DeviceID req id=5 Accelerator Valid" },
  /* Device ID response, max ID 1023 = 0x3FF<<16, switch, valid. */
  { 0x83FF1140, { .type = UAL_MT_DEVICE_ID, BASIC, .mtype = 5, .ack = 1, .id = 1023, .valid = 1 },
    "DeviceID ack id=1023 Switch Valid" },
  /* Port Number response: mtype 110b<<6 = 0x180, Ack 0x1000, Port 0x123<<16, Valid. */
  { 0x81231180, { .type = UAL_MT_PORT_NUMBER, BASIC, .mtype = 6, .ack = 1, .port = 0x123, .valid = 1 },
    "PortNumber ack port=291 Valid" },
  /* Port Number request, not valid. */
  { 0x00000180, { .type = UAL_MT_PORT_NUMBER, BASIC, .mtype = 6 }, "PortNumber req port=0 Not valid" },
  /* Link Width Request x8: mclass 1000b<<2 = 0x20, TargetState 0011b<<16 = 0x30000,
   * Command 0100b<<20 = 0x400000. */
  { 0x00430020, { .type = UAL_MT_LINK_WIDTH, CTRL, .mtype = 0, .target = 3, .command = UAL_CMD_REQUEST },
    "LinkWidth Request x8" },
  /* Link Width Nack x4 resp=x8, Priority: 0x8000 | 2<<16 | 7<<20 | 3<<24. */
  { 0x03728020, { .type = UAL_MT_LINK_WIDTH, CTRL, .mtype = 0, .priority = 1, .target = 2,
                  .command = UAL_CMD_NACK, .response = 3 }, "LinkWidth Nack x4 resp=x8 prio" },
  /* Link Speed Ack 32 GT/s resp 32 GT/s: mtype 001b<<6 = 0x40, 1<<16, 6<<20, 1<<24. */
  { 0x01610060, { .type = UAL_MT_LINK_SPEED, CTRL, .mtype = 1, .target = 1, .command = UAL_CMD_ACK,
                  .response = 1 }, "LinkSpeed Ack 32.0 GT/s resp=32.0 GT/s" },
  /* Link State Request L1 with Priority: mtype 010b<<6 = 0x80, 0x8000, 1<<16, 4<<20. */
  { 0x004180A0, { .type = UAL_MT_LINK_STATE, CTRL, .mtype = 2, .priority = 1, .target = 1,
                  .command = UAL_CMD_REQUEST }, "LinkState Request L1 prio" },
  /* Channel Request ch0 online: mtype 100b<<6 = 0x100, TargetState 1000b<<16, 4<<20. */
  { 0x00480120, { .type = UAL_MT_CHANNEL, CTRL, .mtype = 4, .target = 0x8, .command = UAL_CMD_REQUEST },
    "Channel Request ch0 (TL) online" },
  /* Channel Decision Pending echoing ch4 online: 8<<20 | 1100b<<24. */
  { 0x0C800120, { .type = UAL_MT_CHANNEL, CTRL, .mtype = 4, .command = UAL_CMD_PENDING, .response = 0xC },
    "Channel Decision Pending resp=ch4 (UART) online" },
  /* UART Stream Transport, 3 payload DWords: mclass 0001b<<2 = 0x4, Length 2<<27. */
  { 0x10000004, { .type = UAL_MT_UART_TRANSPORT, UART, .mtype = 0, .length = 2 }, "UART Transport s0 len=3" },
  /* UART Credit Update DataFCSeq 128: mtype 001b<<6 = 0x40, 128<<20 = 0x08000000. */
  { 0x08000044, { .type = UAL_MT_UART_CREDIT, UART, .mtype = 1, .data_fc_seq = 128 }, "UART Credit s0 fcseq=128" },
  /* DataFCSeq 4095 = 0xFFF<<20. */
  { 0xFFF00044, { .type = UAL_MT_UART_CREDIT, UART, .mtype = 1, .data_fc_seq = 4095 }, "UART Credit s0 fcseq=4095" },
  /* UART Reset Request: mtype 110b<<6 = 0x180. */
  { 0x00000184, { .type = UAL_MT_UART_RESET_REQ, UART, .mtype = 6 }, "UART ResetReq s0" },
  /* allStreams [12]. */
  { 0x00001184, { .type = UAL_MT_UART_RESET_REQ, UART, .mtype = 6, .all_streams = 1 }, "UART ResetReq s0 all" },
  /* UART Reset Response success: mtype 111b<<6 = 0x1C0. */
  { 0x000001C4, { .type = UAL_MT_UART_RESET_RSP, UART, .mtype = 7 }, "UART ResetRsp s0 Success" },
  /* Reserved: mclass 0011b<<2 = 0xC, mtype 010b<<6 = 0x80. */
  { 0x0000008C, { .type = UAL_MT_RESERVED, .mclass = 3, .mtype = 2 }, "Reserved mclass=3 mtype=2" },
};
#define N_VECS (sizeof vecs / sizeof vecs[0])

static void test_known_encodings(void) {
  for (size_t i = 0; i < N_VECS; i++) {
    const struct vec *v = &vecs[i];
    struct ual_dlmsg want = v->m, got;
    want.dw = v->dw;
    ual_dlmsg_decode(v->dw, &got);
    check_msg(&got, &want, v->dw);
    CHECK_EQ(ual_dlmsg_encode(&want), v->dw);
    /* Encoding from the type alone, without mclass/mtype filled in. */
    struct ual_dlmsg bare = want;
    if (bare.type != UAL_MT_RESERVED) {
      bare.mclass = 0;
      bare.mtype = 0;
      CHECK_EQ(ual_dlmsg_encode(&bare), v->dw);
    }
    char buf[96];
    int n = ual_dlmsg_summary(&got, buf, sizeof buf);
    CHECK_STR(buf, v->summary);
    CHECK_EQ(n, strlen(v->summary));
    /* Clean messages produce no finding, reserved codes only DM-UNKNOWN. */
    struct ual_findings f;
    ual_findings_clear(&f);
    ual_dlmsg_check(&got, 1, &f);
    if (got.type == UAL_MT_RESERVED) {
      CHECK_EQ(f.n, 1);
      CHECK_EQ(f.v[0].rule, UAL_R_DM_UNKNOWN);
      CHECK_EQ(f.v[0].segment, 1);
    } else {
      CHECK_EQ(f.n, 0);
    }
  }
}

/* Every (mclass, mtype) of the digest table, typed in independently. */
static void test_classify(void) {
  static const struct { unsigned mclass, mtype; enum ual_msg_type t; } tab[] = {
    { 0x0, 0, UAL_MT_NOOP }, { 0x0, 4, UAL_MT_TL_RATE }, { 0x0, 5, UAL_MT_DEVICE_ID },
    { 0x0, 6, UAL_MT_PORT_NUMBER }, { 0x8, 0, UAL_MT_LINK_WIDTH }, { 0x8, 1, UAL_MT_LINK_SPEED },
    { 0x8, 2, UAL_MT_LINK_STATE }, { 0x8, 4, UAL_MT_CHANNEL }, { 0x1, 0, UAL_MT_UART_TRANSPORT },
    { 0x1, 1, UAL_MT_UART_CREDIT }, { 0x1, 6, UAL_MT_UART_RESET_REQ }, { 0x1, 7, UAL_MT_UART_RESET_RSP },
  };
  unsigned known = 0;
  for (unsigned mc = 0; mc < 16; mc++)
    for (unsigned mt = 0; mt < 8; mt++) {
      enum ual_msg_type want = UAL_MT_RESERVED;
      for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (tab[i].mclass == mc && tab[i].mtype == mt) want = tab[i].t;
      CHECK_EQ(ual_msg_classify(mc, mt), want);
      if (want != UAL_MT_RESERVED) known++;
    }
  CHECK_EQ(known, UAL_MT_RESERVED);
  CHECK_STR(ual_msg_types[UAL_MT_RESERVED].json, "reserved");
  CHECK_STR(ual_msg_types[UAL_MT_TL_RATE].json, "tl_rate");
  CHECK_EQ(ual_msg_types[UAL_MT_UART_RESET_RSP].mclass, UAL_MCLASS_UART);
  CHECK_EQ(ual_msg_types[UAL_MT_UART_RESET_RSP].mtype, 7);
  CHECK_EQ(ual_msg_types[UAL_MT_CHANNEL].scope, UAL_SC_MSG_CHANNEL);
  CHECK_STR(ual_mclass_name(0x0), "basic");
  CHECK_STR(ual_mclass_name(0x1), "uart");
  CHECK_STR(ual_mclass_name(0x8), "control");
  CHECK_STR(ual_mclass_name(0x2), "reserved");
  CHECK_STR(ual_ctrl_cmd_name(0x4), "request");
  CHECK_STR(ual_ctrl_cmd_name(0x6), "ack");
  CHECK_STR(ual_ctrl_cmd_name(0x7), "nack");
  CHECK_STR(ual_ctrl_cmd_name(0x8), "pending");
  CHECK_STR(ual_ctrl_cmd_name(0x5), "reserved");
}

/* A random message of type t; widths from the digest tables. */
static void random_msg(unsigned t, uint64_t *s, struct ual_dlmsg *m) {
  uint64_t r = check_rand(s);
  memset(m, 0, sizeof *m);
  m->type = (uint8_t)t;
  m->compressed = (uint8_t)(r & 1);
  r >>= 1;
  switch (t) {
  case UAL_MT_TL_RATE:
    m->ack = r & 1; m->rate = (uint16_t)(r >> 1);
    break;
  case UAL_MT_DEVICE_ID:
    m->ack = r & 1; m->id = (r >> 1) & 0x3FF; m->dev_type = (r >> 11) & 3; m->valid = (r >> 13) & 1;
    break;
  case UAL_MT_PORT_NUMBER:
    m->ack = r & 1; m->port = (r >> 1) & 0xFFF; m->valid = (r >> 13) & 1;
    break;
  case UAL_MT_LINK_WIDTH: case UAL_MT_LINK_SPEED: case UAL_MT_LINK_STATE:
    m->priority = r & 1;
    /* fall through */
  case UAL_MT_CHANNEL:
    m->target = (r >> 1) & 0xF; m->command = (r >> 5) & 0xF; m->response = (r >> 9) & 0xF;
    break;
  case UAL_MT_UART_TRANSPORT:
    m->stream = r & 7; m->length = (r >> 3) & 0x1F;
    break;
  case UAL_MT_UART_CREDIT:
    m->stream = r & 7; m->data_fc_seq = (r >> 3) & 0xFFF;
    break;
  case UAL_MT_UART_RESET_RSP:
    m->status = (r >> 4) & 7;
    /* fall through */
  case UAL_MT_UART_RESET_REQ:
    m->stream = r & 7; m->all_streams = (r >> 3) & 1;
    break;
  case UAL_MT_RESERVED:
    do { r = check_rand(s); m->mclass = r & 0xF; m->mtype = (r >> 4) & 7; }
    while (ual_msg_classify(m->mclass, m->mtype) != UAL_MT_RESERVED);
    break;
  default:
    break;
  }
  if (t != UAL_MT_RESERVED) {
    m->mclass = ual_msg_types[t].mclass;
    m->mtype = ual_msg_types[t].mtype;
  }
}

static void test_decode_encode_roundtrip(void) {
  uint64_t s = 0x5eed1234ULL;
  int bad = 0;
  for (unsigned t = 0; t < UAL_MT_COUNT; t++)
    for (int i = 0; i < 2000; i++) {
      struct ual_dlmsg m, d;
      random_msg(t, &s, &m);
      m.dw = ual_dlmsg_encode(&m);
      ual_dlmsg_decode(m.dw, &d);
      if (!msg_equal(&d, &m)) {
        if (bad++ < 3) check_msg(&d, &m, m.dw);
      }
    }
  CHECK_EQ(bad, 0);
}

static uint32_t reserved_mask(unsigned type) {
  return (uint32_t)(ual_scope_reserved_mask(UAL_SC_MSG) |
                    ual_scope_reserved_mask((enum ual_scope)ual_msg_types[type].scope));
}

/* encode(decode(dw)) == dw for every DWord of a known type without reserved
 * bits; with reserved bits, the encoder drops exactly those. */
static void test_encode_decode_roundtrip(void) {
  uint64_t s = 0xd1e55eedULL;
  unsigned clean = 0, bad = 0, reserved_type = 0, seen[UAL_MT_COUNT] = { 0 };
  for (int i = 0; i < 300000; i++) {
    uint32_t dw = (uint32_t)check_rand(&s);
    if (i & 1) {  /* steer half of them to a known type, reserved bits cleared */
      unsigned t = (unsigned)(check_rand(&s) % UAL_MT_RESERVED);
      struct ual_dlmsg k = { .type = (uint8_t)t };
      dw = (dw & ~0x1FCu) | ual_dlmsg_encode(&k);
      dw &= ~reserved_mask(t);
    }
    struct ual_dlmsg m;
    ual_dlmsg_decode(dw, &m);
    if (m.type == UAL_MT_RESERVED) { reserved_type++; continue; }
    seen[m.type]++;
    uint32_t rm = reserved_mask(m.type);
    if (ual_dlmsg_encode(&m) != (dw & ~rm)) bad++;
    if (dw & rm) continue;
    clean++;
    struct ual_findings f;
    ual_findings_clear(&f);
    ual_dlmsg_check(&m, 0, &f);
    /* a TL Rate response with a Rate is the one reserved case no mask expresses */
    bool rate_in_ack = m.type == UAL_MT_TL_RATE && m.ack && m.rate;
    if (ual_findings_has(&f, UAL_R_DM_RESERVED) != rate_in_ack || ual_findings_has(&f, UAL_R_DM_UNKNOWN)) bad++;
    if (ual_findings_has(&f, UAL_R_DM_COMPRESSED) != (int)(dw & 1)) bad++;
  }
  CHECK_EQ(bad, 0);
  CHECK(clean > 100000);
  CHECK(reserved_type > 1000);
  for (unsigned t = 0; t < UAL_MT_RESERVED; t++) CHECK(seen[t] > 1000);
}

/* Exactly one finding, of rule r, whose text contains `text` (or NULL). */
static void expect_one(uint32_t dw, enum ual_rule r, const char *text) {
  struct ual_dlmsg m;
  struct ual_findings f;
  ual_dlmsg_decode(dw, &m);
  ual_findings_clear(&f);
  ual_dlmsg_check(&m, 2, &f);
  CHECK_EQ(f.n, 1);
  if (f.n < 1) { fprintf(stderr, "  (dw 0x%08x)\n", (unsigned)dw); return; }
  if (f.v[0].rule != r) fprintf(stderr, "  dw 0x%08x: got %s: %s\n", (unsigned)dw, ual_rule_id(f.v[0].rule), f.v[0].msg);
  CHECK_EQ(f.v[0].rule, r);
  CHECK_EQ(f.v[0].segment, 2);
  if (text && !strstr(f.v[0].msg, text)) {
    fprintf(stderr, "  dw 0x%08x: \"%s\" lacks \"%s\"\n", (unsigned)dw, f.v[0].msg, text);
    CHECK(0);
  }
}

static void expect_clean(uint32_t dw) {
  struct ual_dlmsg m;
  struct ual_findings f;
  ual_dlmsg_decode(dw, &m);
  ual_findings_clear(&f);
  ual_dlmsg_check(&m, 0, &f);
  if (f.n) fprintf(stderr, "  dw 0x%08x: unexpected %s: %s\n", (unsigned)dw, ual_rule_id(f.v[0].rule), f.v[0].msg);
  CHECK_EQ(f.n, 0);
}

static void test_checks(void) {
  /* TL Rate response (Ack=1) carrying a Rate: Rate is reserved there (Table 2-4). */
  expect_one(0x9C401100, UAL_R_DM_RESERVED, "reserved in responses");
  expect_clean(0x00001100);
  /* DM-CTRL-ECHO: Width Request with Response x4; Decision Pending with TargetState x8. */
  expect_one(0x02430020, UAL_R_DM_CTRL_ECHO, "Response");
  expect_one(0x03830020, UAL_R_DM_CTRL_ECHO, "TargetState");
  expect_clean(0x03800020); /* Decision Pending echoing x8 in Response */
  /* DM-COMPRESSED: Link Width Request x8 with bit 0. */
  expect_one(0x00430021, UAL_R_DM_COMPRESSED, NULL);
  /* DM-UNKNOWN: basic mtype 001b, control mtype 011b, mclass 1111b. */
  expect_one(0x00000040, UAL_R_DM_UNKNOWN, "mtype=0x1");
  expect_one(0x000000E0, UAL_R_DM_UNKNOWN, "mclass=0x8");
  expect_one(0x0000003C, UAL_R_DM_UNKNOWN, "mclass=0xf");
  /* DM-RESERVED, naming the bits. */
  expect_one(0x00430022, UAL_R_DM_RESERVED, "[1]");            /* common bit 1 */
  expect_one(0x80000000, UAL_R_DM_RESERVED, "[31:9]");         /* No-Op bit 31 */
  expect_one(0x00000200, UAL_R_DM_RESERVED, "0x00000200");     /* No-Op bit 9 */
  expect_one(0x10430020, UAL_R_DM_RESERVED, "[31:28]");        /* Link Width bit 28 */
  expect_one(0x00438020 | (1u << 9), UAL_R_DM_RESERVED, "[14:9]");
  expect_one(0x00488120, UAL_R_DM_RESERVED, "[15:9]");         /* Channel has no Priority */
  expect_one(0x40000180, UAL_R_DM_RESERVED, "[30:28]");        /* Port Number bit 30 */
  expect_one(0x04000140, UAL_R_DM_RESERVED, "[28:26]");        /* Device ID bit 26 */
  expect_one(0x00003100, UAL_R_DM_RESERVED, "[15:13]");        /* TL Rate ack, bit 13 */
  expect_one(0x00001300, UAL_R_DM_RESERVED, "[11:9]");         /* TL Rate ack, bit 9 */
  expect_one(0x10001004, UAL_R_DM_RESERVED, "[26:12]");        /* UART Transport bit 12 */
  expect_one(0x08001044, UAL_R_DM_RESERVED, "[19:12]");        /* UART Credit bit 12 */
  expect_one(0x00002184, UAL_R_DM_RESERVED, "[31:13]");        /* Reset Request bit 13 */
  expect_one(0x000101C4, UAL_R_DM_RESERVED, "[31:16]");        /* Reset Response bit 16 */
  /* Several reserved fields in one finding. */
  expect_one(0x00430022 | (1u << 9) | (1u << 31), UAL_R_DM_RESERVED, "[1] [14:9] [31:28]");
  /* DM-FIELD */
  expect_one(0x00450020, UAL_R_DM_FIELD, "TargetState 0x5");   /* width x16? reserved */
  expect_one(0x00530020, UAL_R_DM_FIELD, "Command 0x5");
  expect_one(0x04630020, UAL_R_DM_FIELD, "Response 0x4");
  expect_one(0x00440060, UAL_R_DM_FIELD, "TargetState 0x4");   /* speed 0100b */
  expect_one(0x004200A0, UAL_R_DM_FIELD, "TargetState 0x2");   /* state L2 */
  expect_one(0x00410120, UAL_R_DM_FIELD, "TargetState 0x1");   /* channel 1 */
  expect_one(0xC0050140, UAL_R_DM_FIELD, "Type 0x2");          /* device type 2 */
  expect_one(0x10000204, UAL_R_DM_FIELD, "Stream ID 0x1");     /* transport stream 1 */
  expect_one(0x08000244, UAL_R_DM_FIELD, "Stream ID 0x1");     /* credit stream 1 */
  expect_one(0x00000F84, UAL_R_DM_FIELD, "Stream ID 0x7");     /* reset request stream 7 */
  expect_one(0x000021C4, UAL_R_DM_FIELD, "Status 0x1");        /* reset response status 1 */
  /* DM-RATE-RANGE: request outside 2000..40000; the bounds and responses are fine. */
  expect_one(0x07CF0100, UAL_R_DM_RATE_RANGE, "1999");
  expect_one(0x9C410100, UAL_R_DM_RATE_RANGE, "40001");
  expect_one(0x00000100, UAL_R_DM_RATE_RANGE, NULL);
  expect_clean(0x07D00100);
  expect_clean(0x9C400100);
  expect_clean(0x00001100);
  /* DM-ID-FIELD */
  expect_one(0x00050140, UAL_R_DM_ID_FIELD, "5");              /* Device ID, Valid 0, ID 5 */
  expect_one(0x00071180, UAL_R_DM_ID_FIELD, "7");              /* Port Number ack, Valid 0, Port 7 */
  expect_clean(0x00000140);
  expect_clean(0x20001140);                                    /* Valid 0, ID 0, accelerator */
  expect_clean(0x80000180);                                    /* Valid 1, Port 0 */

  /* Several rules at once: compressed, reserved bit, reserved command. */
  struct ual_dlmsg m;
  struct ual_findings f;
  ual_dlmsg_decode(0x10530021, &m);
  ual_findings_clear(&f);
  ual_dlmsg_check(&m, 3, &f);
  CHECK_EQ(f.n, 3);
  CHECK(ual_findings_has(&f, UAL_R_DM_COMPRESSED));
  CHECK(ual_findings_has(&f, UAL_R_DM_RESERVED));
  CHECK(ual_findings_has(&f, UAL_R_DM_FIELD));
  ual_dlmsg_check(&m, 3, NULL);  /* no findings list: must not crash */
}

static void test_summary_extras(void) {
  char buf[96];
  struct ual_dlmsg m;
  /* Compressed flag and a reserved value shown in hex. */
  ual_dlmsg_decode(0x00530021, &m);
  ual_dlmsg_summary(&m, buf, sizeof buf);
  CHECK_STR(buf, "LinkWidth 0x5 x8 resp=x1 compressed");
  /* Truncation: returns the full length, terminates the buffer. */
  ual_dlmsg_decode(0x00430020, &m);
  int n = ual_dlmsg_summary(&m, buf, 6);
  CHECK_EQ(n, strlen("LinkWidth Request x8"));
  CHECK_STR(buf, "LinkW");
  /* A message built by hand (not decoded) summarises the same. */
  struct ual_dlmsg h = { .type = UAL_MT_UART_RESET_RSP, .all_streams = 1, .status = 2 };
  ual_dlmsg_summary(&h, buf, sizeof buf);
  CHECK_STR(buf, "UART ResetRsp s0 all 0x2");
}

/* Vendor Defined Packet TL DWord: Length [7:0], Type [15:8], Vendor ID [31:16]. */
static void test_vdp(void) {
  struct ual_vdp_hdr h;
  ual_vdp_decode(0xFFFF0702, &h);   /* UALink-defined type 7, 3 payload DWords */
  CHECK_EQ(h.n_payload, 3);
  CHECK_EQ(h.type, 7);
  CHECK_EQ(h.vendor_id, 0xFFFF);
  CHECK_EQ(ual_vdp_encode(&h), 0xFFFF0702);
  ual_vdp_decode(0x1AB4C3FF, &h);   /* 0xFF = 256 DWords */
  CHECK_EQ(h.n_payload, 256);
  CHECK_EQ(h.type, 0xC3);
  CHECK_EQ(h.vendor_id, 0x1AB4);
  ual_vdp_decode(0x00000000, &h);   /* 0x00 = 1 DWord */
  CHECK_EQ(h.n_payload, 1);
  uint64_t s = 77;
  int bad = 0;
  for (int i = 0; i < 20000; i++) {
    uint32_t dw = (uint32_t)check_rand(&s);
    ual_vdp_decode(dw, &h);
    if (ual_vdp_encode(&h) != dw || h.n_payload < 1 || h.n_payload > 256) bad++;
  }
  CHECK_EQ(bad, 0);
}

int main(void) {
  test_known_encodings();
  test_classify();
  test_decode_encode_roundtrip();
  test_encode_decode_roundtrip();
  test_checks();
  test_summary_extras();
  test_vdp();
  return check_done("test_dlmsg");
}
