/* Display filters (core/filter.h): the parser's errors with the span of
 * the offending token, the semantics of each operator over real decoded
 * records (a payload flit with sequence number 5 sent B>A, an event
 * record), and tshark's value formats. The comparison with tshark itself
 * is tests/filter/compare.py. */
#include "check.h"
#include "ualink/core/filter.h"
#include "ualink/ualink/filter.h"
#include "ualink/core/views.h"

#include <string.h>

static const struct { const char *f, *msg; int pos, len; } errors[] = {
  { "foo", "foo is neither a field nor a protocol name.", 0, 3 },
  { "foo == 1", "Left side of \"==\" expression must be a field or function, not foo.", 0, 3 },
  { "ualink.fh.seq == ", "Unexpected end of filter expression.", -1, 0 },
  { "(ualink.fh.seq == 1", "Unexpected end of filter expression.", -1, 0 },
  { "ualink.fh.seq == 1)", "\")\" was unexpected in this context.", 18, 1 },
  { "== 1", "\"==\" was unexpected in this context.", 0, 2 },
  { "ualink.fh.seq == 1 ualink", "\"ualink\" was unexpected in this context.", 19, 6 },
  { "ualink.fh.seq == \"abc\"", "Unsigned integer (2 bytes) cannot be converted from a string (\"abc\").", 17, 5 },
  { "ualink.fh.seq == foo", "\"foo\" is not a valid number.", 17, 3 },
  { "ualink.fh.seq == 1.5", "\"1.5\" is not a valid number.", 17, 3 },
  { "ualink.fh.seq == 99999999", "\"99999999\" too big for this field, maximum 65535.", 17, 8 },
  { "ualink.fh.seq == 0x10000", "\"0x10000\" too big for this field, maximum 65535.", 17, 7 },
  { "ualink.fh.seq[0:1] == 1",
    "\"ualink.fh.seq\" is a Unsigned integer (2 bytes) and cannot be sliced into a sequence of bytes.", 0, 13 },
  { "ualink.fh.seq in {1 2}", "\"2\" was unexpected in this context.", 20, 1 },
  { "ualink.fh.seq in {}", "\"}\" was unexpected in this context.", 18, 1 },
  { "ualink.fh.seq in {\"a\"}", "Unsigned integer (2 bytes) cannot be converted from a string (\"a\").", 18, 3 },
  { "ualink.fh.seq matches \"x\"",
    "ualink.fh.seq (type=Unsigned integer (2 bytes)) cannot participate in matches comparison.", 0, 13 },
  { "ualink.fh.seq contains 1",
    "ualink.fh.seq (type=Unsigned integer (2 bytes)) cannot participate in contains comparison.", 0, 13 },
  { "ualink.rule.PL-CRC == 1", "ualink.rule.PL-CRC (type=Label) cannot participate in == comparison.", 0, 18 },
  { "ualink.rec.dir == B>A", "\"B\" cannot be found among the possible values for ualink.rec.dir.", 18, 1 },
  { "ualink.rec.phy_err == yes", "\"yes\" cannot be found among the possible values for ualink.rec.phy_err.", 22, 3 },
  { "ualink.sector contains \"ab", "The final quote was missing from a quoted string.", 26, 0 },
  { "ualink.sector matches \"(x\"", "Regex compilation error: missing closing parenthesis.", -1, 0 },
  { "ualink.sector matches \"\\x\"", "\\x is not a valid character escape sequence", 23, 2 },
  { "ualink.sector[0:x] == 1", "\"0:x\" is not a valid range.", 14, 3 },
  { "ualink.sector[0:2", "The right bracket was missing from a slice.", 17, 0 },
  { "ualink.sector == zz", "\"zz\" is not a valid byte string.", 17, 2 },
  { "frame.time_relative > x", "\"x\" is not a valid time.", 22, 1 },
  { "ualink.fh.seq > 1 xor ualink", "\"xor\" was unexpected in this context.", 18, 3 },
  { "ualink.fh.seq == ualink.sector", "ualink.fh.seq and ualink.sector are not of compatible types.", 17, 13 },
  { "ualink & 1", "FT_PROTOCOL cannot &.", 0, 6 },
  { "ualink.flit.crc_ok & 1", "FT_BOOLEAN cannot &.", 0, 18 },
  { "ualink.fh.seq & \"a\"", "\"a\" is not a valid arithmetic operand.", 16, 3 },
  { "ualink.flit.kind & Payload", "\"Payload\" is not a valid number.", 19, 7 },
  { "ualink.fh.seq & 1 in {1}", "\"in\" was unexpected in this context.", 18, 2 },
  { "ualink.sector & 44 contains 44", "\"contains\" was unexpected in this context.", 19, 8 },
  { "ualink.flit.crc_ok == -1", "FT_BOOLEAN cannot -.", 23, 1 },
  { "ualink.sector == -10", "FT_BYTES cannot -.", 18, 2 },
  { "ualink.fh.seq > -65536", "\"65536\" too big for this field, maximum 65535.", 17, 5 },
  { "ualink.sector[0] in {44}", "Only a field may be tested for membership in a set.", -1, 0 },
  { "ualink.sector == 44:", "\":\" was unexpected in this context.", 19, 1 },
  { "ualink.sector == 01:1", "\":1\" was unexpected in this context.", 19, 2 },
  { "ualink.sector == 44::00", "\"44::00\" is not a valid byte string.", 17, 6 },
  { "ualink.rec.dir == 256", "\"256\" cannot be found among the possible values for ualink.rec.dir.", 18, 3 },
  { "ualink.fh.seq == 'ab'", "'ab' is too long to be a valid character constant.", 17, 4 },
  { "ualink.fh.seq == ''", "Empty character constant.", 17, 2 },
  { "ualink.fh.seq == 18446744073709551616", "\"18446744073709551616\" causes an integer overflow.", 17, 20 },
  { "ualink.tev.value == 2147483648", "\"2147483648\" too big for this field, maximum 2147483647.", 20, 10 },
  { "ualink.tev.value == -2147483648", "\"2147483648\" too big for this field, maximum 2147483647.", 21, 10 },
  { "ualink.fh.seq == \"a\" and )", "\")\" was unexpected in this context.", 25, 1 },
  { "foo and )", "\")\" was unexpected in this context.", 8, 1 },
  { "ualink.fh.seq == 1 == 2", "Left side of \"==\" expression must be a field or function, not 1.", 17, 1 },
  { "frame.time_relative > \"abc\"", "Time offset cannot be converted from a string (\"abc\").", 22, 5 },
  { "ualink.rec.dir in {\"Nope\"..\"B>A\"}", "\"Nope\" cannot be found among the possible values for ualink.rec.dir.", 19, 6 },
};

static void test_errors(void) {
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
    struct ual_filter_error e;
    struct ual_filter *f = ual_filter_compile(errors[i].f, &e);
    CHECK(f == NULL);
    ual_filter_free(f);
    if (f) continue;
    CHECK_STR(e.msg, errors[i].msg);
    CHECK_EQ(e.pos, errors[i].pos);
    if (errors[i].pos >= 0) CHECK_EQ(e.len, errors[i].len);
  }
  /* tshark's layout: message, the filter indented by 4, a caret and tildes. */
  struct ual_filter_error e;
  CHECK(!ual_filter_compile("ualink.fh.seq == \"abc\"", &e));
  char buf[512];
  ual_filter_error_text("ualink.fh.seq == \"abc\"", &e, buf, sizeof buf);
  CHECK_STR(buf, "Unsigned integer (2 bytes) cannot be converted from a string (\"abc\").\n"
                 "    ualink.fh.seq == \"abc\"\n"
                 "                     ^~~~~\n");
}

/* Two records: a payload flit B>A with explicit sequence number 5 and a
 * link event (no flit fields at all). */
struct recs {
  uint8_t flit[8 + 256], ev[16];
  size_t flit_len, ev_len;
  struct ual_rec_result rf, re;
};

static void make(struct recs *x) {
  uint8_t flit[256] = {0};
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 0, UAL_RC_SEQ, 5 };
  ual_fh_encode(&fh, flit);
  flit[ual_sector_offset(0)] = 0x44;   /* the first sector's first byte */
  ual_flit_seal(flit);
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, UAL_REC_FLIT, 1);
  x->flit_len = ual_record_build(&h, flit, sizeof flit, x->flit, sizeof x->flit);
  struct ual_decoder d;
  ual_decoder_init(&d);
  ual_decode_record(&d, x->flit, x->flit_len, 7, &x->rf);
  uint8_t body[8];
  struct ual_event ev = { UAL_EV_CAP_START, 0, 0 };
  ual_event_build(&ev, body);
  ual_rec_hdr_init(&h, UAL_REC_EVENT, 0);
  x->ev_len = ual_record_build(&h, body, sizeof body, x->ev, sizeof x->ev);
  ual_decode_record(&d, x->ev, x->ev_len, 8, &x->re);
}

/* 1 when the filter selects the flit, 2 the event, 3 both, 0 none. */
static int sel(const struct recs *x, const char *text) {
  struct ual_filter_error e;
  struct ual_filter *f = ual_filter_compile(text, &e);
  if (!f) {
    fprintf(stderr, "does not compile: %s: %s\n", text, e.msg);
    return -1;
  }
  struct ual_filter_record a = { x->flit, x->flit_len, (uint32_t)x->flit_len, 7, 12, 3, &x->rf, NULL };
  struct ual_filter_record b = { x->ev, x->ev_len, (uint32_t)x->ev_len, 8, 20, 8, &x->re, NULL };
  int r = 0;
  ual_filter_collect(f, &a);
  if (ual_filter_match(f)) r |= 1;
  ual_filter_collect(f, &b);
  if (ual_filter_match(f)) r |= 2;
  ual_filter_free(f);
  return r;
}

static void test_semantics(void) {
  struct recs x;
  make(&x);
  CHECK_EQ(x.rf.flit.fh.seq, 5);
  CHECK_EQ(x.rf.findings.n, 1);   /* the 0x44 lies in an unallocated sector: DL-ZERO-FILL */
  static const struct { const char *f; int want; } t[] = {
    { "", 3 }, { "ualink", 3 }, { "frame", 3 }, { "ualink.fh.seq", 1 }, { "!ualink.fh.seq", 2 },
    { "ualink.fh.seq == 5", 1 }, { "ualink.fh.seq eq 0x5", 1 }, { "ualink.fh.seq == 05", 1 },
    { "ualink.fh.seq != 5", 0 }, { "ualink.fh.seq != 4", 1 },  /* false when absent */
    { "!(ualink.fh.seq == 5)", 2 }, { "ualink.fh.seq ~= 4", 1 }, { "ualink.fh.seq === 5", 1 },
    { "ualink.fh.seq > 4 && ualink.fh.seq < 6", 1 }, { "ualink.fh.seq >= 6 || ualink.fh.seq <= 4", 0 },
    { "ualink.fh.seq ge 5 and ualink.fh.seq le 5", 1 }, { "ualink.fh.seq gt 5 or not ualink.fh.seq", 2 },
    { "ualink.fh.seq in {1, 3..6}", 1 }, { "ualink.fh.seq in {1, 6..9}", 0 },
    { "ualink.fh.seq not in {1, 6..9}", 3 }, { "ualink.fh.seq & 4", 1 }, { "ualink.fh.seq & 2", 0 },
    { "ualink.fh.seq & 0x7 == 5", 1 }, { "ualink.rec.dir == 1", 1 }, { "ualink.rec.dir == \"B>A\"", 1 },
    { "ualink.rec.dir == \"b>a\"", 1 }, { "ualink.rec.kind == 3", 2 }, { "ualink.flit.kind == Payload", 1 },
    { "ualink.flit.crc_ok == True", 1 }, { "ualink.flit.crc_ok == 0", 0 }, { "ualink.flit.crc_ok", 1 },
    { "ualink.flit.crc == ualink.flit.crc_calc", 1 }, { "ualink.flit.crc ~= ualink.flit.crc_calc", 0 },
    { "ualink.sector[0] == 44", 1 }, { "ualink.sector[0] == 0x44", 1 }, { "ualink.sector[0:2] == 44:00", 1 },
    { "ualink.sector[0:2] == 4400", 1 }, { "ualink.sector[0-1] == 44.00", 1 }, { "ualink.sector[-4:1] == 44", 1 },
    { "ualink.sector[1:] == 00:00:00", 3 & 1 }, { "ualink.sector contains 44:00", 1 },
    { "ualink.sector contains \"D\"", 1 }, { "ualink.sector matches \"^d\"", 1 },  /* caseless */
    { "ualink.sector matches \"^\\x44\\x00\"", 1 }, { "ualink.sector[0:1] == \"D\"", 1 },
    { "ualink[0] == 01", 3 }, { "ualink[1] == 01", 1 }, { "ualink.rule", 1 }, { "ualink.rule == \"DL-ZERO-FILL\"", 1 },
    { "ualink.rule.DL-ZERO-FILL", 1 }, { "ualink.severity == \"error\"", 1 }, { "ualink.severity == \"info\"", 0 }, { "ualink.rule != \"DL-ZERO-FILL\"", 0 }, { "ualink.event.code", 2 },
    { "frame.number == 7", 1 }, { "frame.number in {8}", 2 }, { "frame.len > 100", 1 },
    { "frame.time_relative == 0.000000012", 1 }, { "frame.time_delta > 0.000000005", 2 },
    { "frame.time_relative < 0.00000002", 1 },
    /* bitwise and on bytes: cut to the shorter; masks in a row */
    { "ualink.sector & 0f", 1 }, { "ualink.sector & 0x80", 0 }, { "ualink.sector[0] & 0x40 == 40", 1 },
    { "ualink.sector[0:2] & ff:ff:ff == 44:00", 1 }, { "ualink.sector & ff == 44", 1 },
    { "ualink.fh.seq & 7 & 6 == 4", 1 }, { "ualink.fh.seq & -2 == 4", 1 }, { "ualink[0:2] & 00:ff", 3 }, { "ualink[0:2] & 00:02", 2 },
    /* a slice past the end is empty, not absent */
    { "ualink.sector[2:4] != 00:00:00:00", 1 }, { "ualink.sector[2:4] == 00:00:00:00", 0 },
    { "ualink.sector[2:4] < 00", 1 }, { "ualink.sector[2:4]", 0 }, { "ualink.sector[0:1,9:1] == 44", 1 },
    /* a negative value relates to no unsigned one */
    { "ualink.fh.seq > -1", 0 }, { "ualink.fh.seq < -1", 0 }, { "ualink.fh.seq != -1", 1 },
    { "ualink.fh.seq ~= -1", 0 }, { "ualink.fh.seq === -1", 1 }, { "ualink.fh.seq in {-1, 5}", 1 },
    { "ualink.fh.seq in {-1..9}", 0 }, { "ualink.fh.seq > -0", 1 }, { "ualink.fh.seq > - 0", 1 },
    { "frame.time_relative > -1", 3 },
    /* quoted names as range bounds, ".." its own token, chained relations */
    { "ualink.rec.dir in {\"A>B\"..\"B>A\"}", 3 }, { "ualink.rec.dir in {\"B>A\" .. 1}", 1 },
    { "ualink.fh.seq == ualink.fh.seq > 4", 1 }, { "ualink.fh.seq == ualink.fh.seq > 5", 0 },
    /* byte strings as Wireshark reads them */
    { "ualink.sector[0:2] == 44.0", 1 }, { "ualink.sector[0:3] == 44000", 1 }, { "ualink.sector[0:2] == :44:00", 1 },
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    int got = sel(&x, t[i].f);
    if (got != t[i].want) fprintf(stderr, "filter %s: %d, want %d\n", t[i].f, got, t[i].want);
    CHECK_EQ(got, t[i].want);
  }
}

static void test_fields(void) {
  struct recs x;
  make(&x);
  const char *names[] = { "frame.number", "ualink.fh.seq", "ualink.flit.crc", "ualink.sector", "ualink",
                          "frame.time_relative", "ualink.rec.phy_err" };
  struct ual_filter_error e;
  struct ual_filter *f = ual_filter_fields(names, 7, &e);
  CHECK(f != NULL);
  if (!f) return;
  struct ual_filter_record a = { x.flit, x.flit_len, (uint32_t)x.flit_len, 7, 1500000012, 3, &x.rf, NULL };
  ual_filter_collect(f, &a);
  char buf[64], want[32];
  unsigned per[7] = {0};
  for (size_t i = 0; i < ual_filter_nvalues(f); i++) {
    const struct ual_fvalue *v = ual_filter_value(f, i);
    ual_fvalue_format(v, buf, sizeof buf);
    if (per[v->slot]++) continue;
    switch (v->slot) {
    case 0: CHECK_STR(buf, "7"); break;
    case 1: CHECK_STR(buf, "5"); break;
    case 2:
      snprintf(want, sizeof want, "0x%016llx", (unsigned long long)v->v.u);
      CHECK_STR(buf, want);
      break;
    case 3: CHECK_STR(buf, "44000000"); break;
    case 4: CHECK_STR(buf, "ualink"); break;
    case 5: CHECK_STR(buf, "1.500000012"); break;
    case 6: CHECK_STR(buf, "0"); break;
    }
  }
  CHECK_EQ(per[0], 1);
  CHECK_EQ(per[3], 59);   /* every sector of the four segments */
  ual_filter_free(f);
  const char *bad[] = { "ualink.fh.seq", "ualink.nonesuch" };
  CHECK(!ual_filter_fields(bad, 2, &e));
  CHECK_STR(e.msg, "ualink.nonesuch");
}

static void test_registry(void) {
  size_t n = ual_filter_field_count();
  CHECK(n > UAL_F_COUNT + UAL_FU_COUNT);
  for (size_t i = 0; i < n; i++) {
    struct ual_filter_field f;
    CHECK(ual_filter_field_get(i, &f));
    CHECK_EQ(ual_filter_field_lookup(f.abbrev, strlen(f.abbrev)), i);   /* unique names */
  }
  CHECK(ual_filter_field_lookup("ualink.rule", 11) >= 0);
  CHECK(ual_filter_field_lookup("ualink.severity", 15) >= 0);
  CHECK(ual_filter_field_lookup("ualink.rule.RP-NAK", 18) >= 0);
}

/* The fabrics' hooks: the capture record's protocol first, each view
 * fabric's protocol named by its key, each field-table row under the
 * protocol its name begins with; and the Checksum property of rules. */
static void test_protocols(void) {
  size_t n = ual_filter_fabric_count();
  CHECK_EQ(n, UAL_VF_COUNT);
  CHECK_STR(ual_filter_fabric_at(0)->fields[0].abbrev, "ualink");
  CHECK(!ual_filter_fabric_at(n));
  for (unsigned v = 0; v < UAL_VF_COUNT; v++) {
    const char *key = ual_view_fabric_get(v)->key;
    const struct ual_filter_field *p = &ual_filter_fabric_at(ual_filter_fabric_of(key))->fields[0];
    CHECK_STR(p->abbrev, key);
    CHECK_EQ(p->type, UAL_FT_PROTOCOL);
  }
  size_t pcie = ual_filter_fabric_of("pcie"), ub = ual_filter_fabric_of("ub");
  CHECK(pcie > 0 && ub > 0 && pcie != ub);
  CHECK_STR(ual_filter_fabric_at(ub)->fields[0].name, "UnifiedBus data link");
  CHECK_EQ(ual_filter_fabric_of("pcie.tlp.type"), pcie);
  CHECK_EQ(ual_filter_fabric_of("ub.lph.vl"), ub);
  CHECK_EQ(ual_filter_fabric_of("ualink.fh.seq"), 0);
  CHECK_EQ(ual_filter_fabric_of("pciex.a"), 0);
  CHECK_EQ(ual_filter_fabric_of("ubx"), 0);
  for (int i = 0; i < UAL_F_COUNT; i++) {   /* each row named under its protocol's prefix */
    const char *p = ual_filter_fabric_at(ual_filter_fabric_of(ual_fields[i].abbrev))->fields[0].abbrev;
    CHECK(strncmp(ual_fields[i].abbrev, p, strlen(p)) == 0 && ual_fields[i].abbrev[strlen(p)] == '.');
  }
  const char *sums[] = { "PL-CRC", "PL-CRC-INVERTED", "PL-FEC-CORRECTED", "PL-FEC-UNCORRECTABLE", "PD-CRC", "UB-BCRC",
                         "UB-FEC-UNCORRECTABLE", "PN-STP-CHECK", "PN-LCRC", "PN-NULLIFIED-BAD", "PN-ECRC" };
  for (size_t i = 0; i < sizeof sums / sizeof sums[0]; i++) CHECK(ual_rule_checksum((enum ual_rule)ual_rule_lookup(sums[i])));
  /* a rule named after a CRC or FEC is a check of it, but for these; no
   * rule besides those listed above is one */
  const char *not_checks[] = { "UB-BCRC-RSVD", "UB-MODE-NOFEC" };
  unsigned n_sum = 0;
  for (int r = 0; r < UAL_R_COUNT; r++) {
    const char *id = ual_rule_id((enum ual_rule)r);
    bool named = strstr(id, "CRC") || strstr(id, "FEC"), excepted = false, sum = ual_rule_checksum((enum ual_rule)r);
    for (size_t i = 0; i < sizeof not_checks / sizeof not_checks[0]; i++) excepted |= strcmp(id, not_checks[i]) == 0;
    if ((named && !excepted && !sum) || (excepted && sum)) printf("checksum property of %s\n", id);
    CHECK(!(named && !excepted) || sum);
    CHECK(!excepted || !sum);
    n_sum += sum;
  }
  CHECK_EQ(n_sum, sizeof sums / sizeof sums[0]);
  CHECK(!ual_rule_checksum(UAL_R_COUNT));
}

int main(void) {
  test_errors();
  test_semantics();
  test_fields();
  test_registry();
  test_protocols();
  return check_done("test_filter");
}
