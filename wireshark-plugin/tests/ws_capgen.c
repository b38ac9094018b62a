/* Test helper for the Wireshark plugin, built on libdecode.
 *
 *   ws_capgen gen DIR        writes DIR/clean.pcap, DIR/bad.pcap, DIR/udp.pcap
 *                            and the expectations next to them (see gen_all)
 *   ws_capgen fields         prints every field-table display-filter name
 *   ws_capgen rules          prints every rule ID
 *   ws_capgen found [--stateless] PCAP
 *                            prints "ID severity" of each rule libdecode raises
 *   ws_capgen state PCAP     prints per frame what the plugin's analysis subtree
 *                            shows: frame, sender and partner LTSSM state,
 *                            unacknowledged flits, event kinds, negotiation
 *                            latencies (tab-separated, lists joined by '|')
 *   ws_capgen compare [--stateless] [--two-pass] PCAP TSHARK_OUT
 *                            checks tshark's "-T fields -E aggregator='|'
 *                            -e frame.number -e <all fields> -e
 *                            _ws.expert.message" output against libdecode;
 *                            --two-pass: tshark ran with -2, so a PCIe
 *                            request names its completion's frame
 *                            (pcie.tlp.response_in)
 *
 * The decode runs over the records in file order like the plugin's first
 * pass: libdecode's analyzer (the plugin's default), or with --stateless
 * ual_decode_record (the plugin with ualink.analyze off). compare walks
 * libdecode's field tree over each record as the plugin shows it (flit after
 * FEC correction), so every field of every frame is checked, and compares
 * the rule IDs of the frame's expert items with its findings. */
#include "ualink/ualink.h"
#include "ualink/core/udp.h"
#include "ualink/ualink/analysis.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINKTYPE_ETHERNET 1
#define MAX_REC 512

static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "ws_capgen: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  exit(2);
}

/* ------------------------------------------------------------------ */
/* pcap (nanosecond) writing and reading */

static void put32(FILE *f, uint32_t v) { fwrite(&v, 4, 1, f); }
static void put16(FILE *f, uint16_t v) { fwrite(&v, 2, 1, f); }

static FILE *pcap_create(const char *path, uint32_t linktype) {
  FILE *f = fopen(path, "wb");
  if (!f) die("%s: %s", path, strerror(errno));
  put32(f, 0xa1b23c4d);   /* nanosecond magic */
  put16(f, 2);
  put16(f, 4);
  put32(f, 0);
  put32(f, 0);
  put32(f, 65535);
  put32(f, linktype);
  return f;
}

static void pcap_put(FILE *f, uint64_t ts_ns, const uint8_t *p, size_t n) {
  put32(f, (uint32_t)(ts_ns / 1000000000u));
  put32(f, (uint32_t)(ts_ns % 1000000000u));
  put32(f, (uint32_t)n);
  put32(f, (uint32_t)n);
  fwrite(p, 1, n, f);
}

/* Reader of the captures this helper and ualink-gen write: USER0 records,
 * or records in Ethernet/IPv4/UDP. */
struct pcap_in {
  FILE *f;
  const char *path;
  uint32_t linktype;
  int nano;
  uint64_t ts_ns;          /* of the last record read */
  uint8_t buf[65536];
};

static void pcap_open(struct pcap_in *in, const char *path) {
  uint32_t gh[6];
  in->path = path;
  in->f = fopen(path, "rb");
  if (!in->f) die("%s: %s", path, strerror(errno));
  if (fread(gh, 4, 6, in->f) != 6 || (gh[0] != 0xa1b23c4d && gh[0] != 0xa1b2c3d4))
    die("%s: not a little-endian pcap file", path);
  in->linktype = gh[5];
  in->nano = gh[0] == 0xa1b23c4d;
  if (in->linktype != UAL_DLT_USER0 && in->linktype != LINKTYPE_ETHERNET)
    die("%s: link type %u", path, in->linktype);
}

/* Next record, or NULL at the end. */
static const uint8_t *pcap_next(struct pcap_in *in, size_t *len) {
  uint32_t rh[4];
  if (fread(rh, 4, 4, in->f) != 4) return NULL;
  in->ts_ns = (uint64_t)rh[0] * 1000000000u + (uint64_t)rh[1] * (in->nano ? 1u : 1000u);
  if (rh[2] > sizeof in->buf || fread(in->buf, 1, rh[2], in->f) != rh[2]) die("%s: truncated", in->path);
  size_t skip = 0;
  if (in->linktype == LINKTYPE_ETHERNET) {
    if (rh[2] < 14 + 20 + 8) die("%s: short frame", in->path);
    skip = 14u + 4u * (in->buf[14] & 0x0f) + 8u;
  }
  if (skip > rh[2]) die("%s: short frame", in->path);
  *len = rh[2] - skip;
  return in->buf + skip;
}

/* ------------------------------------------------------------------ */
/* Building records */

struct side {
  struct ual_pack pack;
  unsigned seq;            /* own sequence number of the last payload flit */
  unsigned since_explicit; /* payload flits since the last group of explicit numbers began */
};

struct cap {
  FILE *f;
  uint64_t ts;
  unsigned frame;          /* frames written */
  struct side s[2];
  FILE *seq_out;           /* "seq\treplay_cmd" per frame, as built */
};

static void hdr_for(struct ual_rec_hdr *h, unsigned kind, unsigned dir) {
  ual_rec_hdr_init(h, kind, dir);
  h->link = 0;
  h->rate = 7;
  h->width = 8;
  h->role_a = UAL_ROLE_ACCEL;
  h->role_b = UAL_ROLE_SWITCH;
}

static void emit(struct cap *c, const uint8_t *rec, size_t n, int seq, int cmd) {
  c->ts += 2;  /* one flit time at 128 GT/s x8 */
  pcap_put(c->f, c->ts, rec, n);
  c->frame++;
  if (c->seq_out) {
    if (seq >= 0) fprintf(c->seq_out, "%d\t%d\n", seq, cmd);
    else fprintf(c->seq_out, "\t\n");
  }
}

static void emit_body(struct cap *c, unsigned kind, unsigned dir, const uint8_t *body, size_t n,
                      int seq, int cmd) {
  struct ual_rec_hdr h;
  uint8_t rec[MAX_REC];
  hdr_for(&h, kind, dir);
  size_t len = ual_record_build(&h, body, n, rec, sizeof rec);
  if (!len) die("record too long");
  emit(c, rec, len, seq, cmd);
}

static void emit_flit(struct cap *c, unsigned dir, const uint8_t *flit) {
  struct ual_fh fh;
  ual_fh_decode(flit, &fh);
  emit_body(c, UAL_REC_FLIT, dir, flit, UAL_FLIT_BYTES, (int)fh.seq, fh.replay_cmd);
}

/* Flit header of the next payload flit of a side: explicit numbers in groups
 * of 3, then an Ack for the other direction. */
static struct ual_fh next_fh(struct cap *c, unsigned dir) {
  struct side *s = &c->s[dir];
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, 0 };
  s->seq = s->seq % 1023 + 1;
  unsigned other = c->s[dir ^ 1].seq;
  if (s->since_explicit == 3 && other) {
    fh.replay_cmd = UAL_RC_ACK;
    fh.seq = (uint16_t)other;
    s->since_explicit = 0;
  } else {
    fh.seq = (uint16_t)s->seq;
    s->since_explicit++;
  }
  return fh;
}

static void payload(struct cap *c, unsigned dir, uint8_t *flit) {
  struct ual_fh fh = next_fh(c, dir);
  ual_pack_flit(&c->s[dir].pack, &fh, true, flit);
}

static void emit_payload(struct cap *c, unsigned dir) {
  uint8_t flit[UAL_FLIT_BYTES];
  payload(c, dir, flit);
  emit_flit(c, dir, flit);
}

static void push_tl(struct cap *c, unsigned dir, unsigned salt, unsigned m0, unsigned m1) {
  uint8_t d[UAL_TL_FLIT_BYTES];
  for (unsigned i = 0; i < sizeof d; i++) d[i] = (uint8_t)(salt * 37u + i * 11u + 1u);
  if (!ual_pack_push_tl(&c->s[dir].pack, d, m0, m1)) die("TL queue full");
}

static void push_msg(struct cap *c, unsigned dir, const struct ual_dlmsg *m) {
  uint32_t dw = ual_dlmsg_encode(m);
  if (!ual_pack_push_msg(&c->s[dir].pack, &dw, 1)) die("message queue full");
}

static void push_ctrl(struct cap *c, unsigned dir, unsigned type, unsigned cmd, unsigned target, unsigned resp) {
  struct ual_dlmsg m = { 0 };
  m.type = (uint8_t)type;
  m.command = (uint8_t)cmd;
  m.target = (uint8_t)target;
  m.response = (uint8_t)resp;
  push_msg(c, dir, &m);
}

static void emit_os(struct cap *c, unsigned dir, unsigned enc, unsigned type) {
  uint8_t body[4 + UAL_OS_MAX_SYMBOLS];
  size_t n = ual_os_build(body, sizeof body, 255, enc, type);
  if (!n) die("ordered set %u/%u", enc, type);
  emit_body(c, UAL_REC_OS, dir, body, n, -1, 0);
}

static void emit_ts(struct cap *c, unsigned dir, unsigned enc, unsigned ts2) {
  uint8_t body[4 + UAL_OS_MAX_SYMBOLS];
  struct ual_ts_params p = { 0 };
  p.ts2 = (uint8_t)ts2;
  p.link_number = 1;
  p.lane_number = 0;
  p.rate_id = 0x3f;               /* flit mode, all speeds */
  p.training_control = 0xc0;      /* Modified TS supported */
  p.modified = enc == UAL_ENC_8B10B;
  p.mts_usage = UAL_MTS_USAGE_ALT_PROTOCOL;
  p.vendor_id = UAL_UALINK_VENDOR_ID;
  size_t n = ual_os_build_ts(body, sizeof body, 255, enc, &p);
  if (!n) die("TS");
  emit_body(c, UAL_REC_OS, dir, body, n, -1, 0);
}

static void emit_event(struct cap *c, unsigned code, uint32_t value) {
  struct ual_event e = { (uint16_t)code, 0, value };
  uint8_t body[UAL_REC_EVENT_BYTES];
  ual_event_build(&e, body);
  emit_body(c, UAL_REC_EVENT, 0, body, sizeof body, -1, 0);
}

static void emit_idle(struct cap *c, unsigned dir) {
  uint8_t flit[UAL_FLIT_BYTES];
  ual_flit_build_idle(flit);
  emit_flit(c, dir, flit);
}

static void emit_nop(struct cap *c, unsigned dir, unsigned dllp_type) {
  uint8_t flit[UAL_FLIT_BYTES];
  struct ual_dllp d = { 0 };
  d.type = (uint8_t)dllp_type;
  struct ual_fh fh = { UAL_USAGE_NOP_IDLE, 1, UAL_RC_SEQ, (uint16_t)c->s[dir].seq };
  ual_flit_build_nop(flit, &fh, &d);
  emit_flit(c, dir, flit);
}

static void cap_open(struct cap *c, const char *dir, const char *name, FILE *seq_out) {
  char path[1024];
  memset(c, 0, sizeof *c);
  snprintf(path, sizeof path, "%s/%s", dir, name);
  c->f = pcap_create(path, UAL_DLT_USER0);
  c->ts = 1700000000ull * 1000000000ull;
  c->seq_out = seq_out;
  ual_pack_init(&c->s[0].pack);
  ual_pack_init(&c->s[1].pack);
}

/* A conformant exchange after link-up: training sets, IDLE flits, payload
 * flits with TL flits spanning flits, basic and control negotiations, a
 * UART transport spanning two flits, NOP flits and link events. */
static void gen_clean(const char *dir) {
  char path[1024];
  snprintf(path, sizeof path, "%s/clean.seq", dir);
  FILE *seq = fopen(path, "w");
  if (!seq) die("%s: %s", path, strerror(errno));
  struct cap c;
  cap_open(&c, dir, "clean.pcap", seq);

  emit_event(&c, UAL_EV_CAP_START, 0);
  emit_ts(&c, 0, UAL_ENC_8B10B, 0);
  emit_ts(&c, 1, UAL_ENC_8B10B, 1);
  emit_ts(&c, 0, UAL_ENC_128B130B, 0);
  emit_os(&c, 1, UAL_ENC_1B1B, UAL_OS_SKP);
  emit_os(&c, 0, UAL_ENC_1B1B, UAL_OS_SDS);
  for (int i = 0; i < 2; i++) { emit_idle(&c, 0); emit_idle(&c, 1); }

  struct ual_dlmsg m = { 0 };
  m.type = UAL_MT_DEVICE_ID;
  m.id = 5;
  m.dev_type = 1;
  m.valid = 1;
  push_msg(&c, 0, &m);
  m.ack = 1;
  m.id = 9;
  m.dev_type = 0;
  for (unsigned i = 0; i < 6; i++) push_tl(&c, 0, i, i & 1, (i >> 1) & 1);
  emit_payload(&c, 0);
  push_msg(&c, 1, &m);
  for (unsigned i = 0; i < 3; i++) push_tl(&c, 1, 10 + i, 0, 0);
  emit_payload(&c, 1);

  push_ctrl(&c, 0, UAL_MT_LINK_WIDTH, UAL_CMD_REQUEST, 3, 0);
  emit_payload(&c, 0);
  push_ctrl(&c, 1, UAL_MT_LINK_WIDTH, UAL_CMD_ACK, 3, 3);
  emit_payload(&c, 1);
  push_ctrl(&c, 0, UAL_MT_LINK_WIDTH, UAL_CMD_ACK, 3, 3);
  emit_payload(&c, 0);

  memset(&m, 0, sizeof m);
  m.type = UAL_MT_TL_RATE;
  m.rate = UAL_RATE_FULL;
  push_msg(&c, 0, &m);
  for (unsigned i = 0; i < 4; i++) push_tl(&c, 0, 20 + i, 1, 1);
  emit_payload(&c, 0);
  m.ack = 1;
  m.rate = 0;
  push_msg(&c, 1, &m);
  emit_payload(&c, 1);

  memset(&m, 0, sizeof m);
  m.type = UAL_MT_UART_CREDIT;
  m.data_fc_seq = 128;
  push_msg(&c, 1, &m);
  emit_payload(&c, 1);

  /* A UART Stream Transport of 6 payload DWords: one per segment, so it
   * completes in the flit after the one carrying its header. */
  uint32_t ut[8];
  memset(&m, 0, sizeof m);
  m.type = UAL_MT_UART_TRANSPORT;
  m.length = 5;
  ut[0] = ual_dlmsg_encode(&m);
  for (unsigned i = 1; i < 7; i++) ut[i] = 0x11110000u * i + i;
  if (!ual_pack_push_msg(&c.s[0].pack, ut, 7)) die("transport");
  for (unsigned i = 0; i < 8; i++) push_tl(&c, 0, 30 + i, 0, 1);
  for (int i = 0; i < 4; i++) { emit_payload(&c, 0); emit_payload(&c, 1); }

  emit_nop(&c, 1, UAL_DLLP_NOP2);
  emit_nop(&c, 0, UAL_DLLP_NOP);
  emit_payload(&c, 0);
  emit_payload(&c, 0);
  emit_event(&c, UAL_EV_CAP_STOP, 0);
  fclose(c.f);
  fclose(seq);
}

static void reseal_crc_bad(uint8_t *flit) { flit[UAL_CRC_OFFSET] ^= 0x5a; ual_fec_encode(flit); }

/* One violation per frame; DIR/bad.frames lists "frame rule" for each. */
static void gen_bad(const char *dir) {
  char path[1024];
  snprintf(path, sizeof path, "%s/bad.frames", dir);
  FILE *out = fopen(path, "w");
  if (!out) die("%s: %s", path, strerror(errno));
  struct cap c;
  cap_open(&c, dir, "bad.pcap", NULL);
  uint8_t flit[UAL_FLIT_BYTES];

  for (unsigned i = 0; i < 4; i++) push_tl(&c, 0, 40 + i, 0, 0);
  emit_payload(&c, 0);

  payload(&c, 0, flit);
  reseal_crc_bad(flit);
  emit_flit(&c, 0, flit);
  fprintf(out, "%u PL-CRC\n", c.frame);

  payload(&c, 0, flit);
  flit[100] ^= 0x81;  /* one byte: FEC corrects it */
  emit_flit(&c, 0, flit);
  fprintf(out, "%u PL-FEC-CORRECTED\n", c.frame);

  payload(&c, 0, flit);
  for (int i = 0; i < UAL_CRC_BYTES; i++) flit[UAL_CRC_OFFSET + i] ^= 0xff;
  ual_fec_encode(flit);
  emit_flit(&c, 0, flit);
  fprintf(out, "%u PL-CRC-INVERTED\n", c.frame);

  payload(&c, 1, flit);
  flit[0] |= 0x10;    /* Flit Usage[2]: reserved usage 110b */
  ual_flit_seal(flit);
  emit_flit(&c, 1, flit);
  fprintf(out, "%u PL-USAGE\n", c.frame);

  payload(&c, 1, flit);
  ual_field_put(UAL_F_SH_TLBEAT, flit + ual_segment_map[2].sh_byte, 0x05);
  ual_flit_seal(flit);
  emit_flit(&c, 1, flit);
  fprintf(out, "%u DL-TLBEAT\n", c.frame);

  struct ual_dlmsg m = { 0 };
  m.type = UAL_MT_PORT_NUMBER;
  m.port = 7;
  m.valid = 1;
  push_msg(&c, 1, &m);
  payload(&c, 1, flit);
  unsigned off = ual_sector_offset(ual_segment_map[0].first_sector);
  ual_field_put(UAL_F_MSG_COMPRESSED, flit + off, 1);
  ual_flit_seal(flit);
  emit_flit(&c, 1, flit);
  fprintf(out, "%u DM-COMPRESSED\n", c.frame);

  emit_nop(&c, 0, UAL_DLLP_PM_ENTER_L23);
  fprintf(out, "%u LT-UNSUPPORTED-PM\n", c.frame);

  ual_flit_build_idle(flit);
  flit[50] = 0x33;
  ual_flit_seal(flit);
  emit_flit(&c, 1, flit);
  fprintf(out, "%u PL-IDLE-BODY\n", c.frame);

  {
    struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, 0 };
    ual_pack_flit(&c.s[0].pack, &fh, true, flit);
    emit_flit(&c, 0, flit);
    fprintf(out, "%u PL-SEQ-ZERO\n", c.frame);
  }

  /* A record of a reserved kind: malformed. */
  uint8_t rec[UAL_REC_HDR_BYTES + 8] = { 1, 9, 0, 0, 7, 8, 0x09, 0 };
  emit(&c, rec, sizeof rec, -1, 0);
  fclose(c.f);
  fclose(out);
}

/* A go-back-N replay that resends flits the receiver already delivered:
 * the copies are duplicates. DIR/replay.frames lists "frame RP-DUPLICATE". */
static void gen_replay(const char *dir) {
  char path[1024];
  snprintf(path, sizeof path, "%s/replay.frames", dir);
  FILE *out = fopen(path, "w");
  if (!out) die("%s: %s", path, strerror(errno));
  struct cap c;
  cap_open(&c, dir, "replay.pcap", NULL);
  uint8_t sent[8][UAL_FLIT_BYTES];
  for (int i = 0; i < 2; i++) { emit_idle(&c, 0); emit_idle(&c, 1); }
  for (unsigned i = 0; i < 8; i++) push_tl(&c, 0, 50 + i, 0, 0);
  for (int i = 0; i < 8; i++) {
    payload(&c, 0, sent[i]);
    emit_flit(&c, 0, sent[i]);
    if (i % 2) emit_payload(&c, 1);
  }
  /* B Naks A's flit 5 although it arrived (NEXT_EXPECTED - 1 = 5): A
   * replays from 6, which B already has. */
  struct ual_fh nak = { UAL_USAGE_PAYLOAD, 1, UAL_RC_NAK, 5 };
  uint8_t flit[UAL_FLIT_BYTES];
  c.s[1].seq = c.s[1].seq % 1023 + 1;
  ual_pack_flit(&c.s[1].pack, &nak, true, flit);
  emit_flit(&c, 1, flit);
  for (int i = 5; i < 8; i++) {
    struct ual_fh fh;
    ual_fh_decode(sent[i], &fh);
    if (fh.replay_cmd != UAL_RC_SEQ) continue;
    emit_flit(&c, 0, sent[i]);
    fprintf(out, "%u RP-DUPLICATE\n", c.frame);
  }
  fclose(c.f);
  fclose(out);
}

/* One Ethernet/IPv4/UDP frame 127.0.0.1:50000 -> 127.0.0.2:port. */
static void udp_put(FILE *f, uint64_t ts, unsigned port, const uint8_t *payload, size_t len) {
  uint8_t p[14 + 20 + 8 + MAX_REC] = { 0 };
  static const uint8_t eth[14] = { 0, 0x11, 0x22, 0x33, 0x44, 0x55, 0, 0x11, 0x22, 0x33, 0x44, 0x66, 0x08, 0x00 };
  size_t ulen = 8 + len, ilen = 20 + ulen;
  if (len > MAX_REC) die("datagram too long");
  memcpy(p, eth, 14);
  uint8_t *ip = p + 14, *udp = ip + 20;
  ip[0] = 0x45;
  ip[2] = (uint8_t)(ilen >> 8);
  ip[3] = (uint8_t)ilen;
  ip[8] = 64;
  ip[9] = 17;
  ip[12] = 127; ip[15] = 1;
  ip[16] = 127; ip[19] = 2;
  uint32_t sum = 0;
  for (int k = 0; k < 20; k += 2) sum += (uint32_t)ip[k] << 8 | ip[k + 1];
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  ip[10] = (uint8_t)(~sum >> 8);
  ip[11] = (uint8_t)~sum;
  udp[0] = 0xc3; udp[1] = 0x50;   /* source port 50000 */
  udp[2] = (uint8_t)(port >> 8);
  udp[3] = (uint8_t)port;
  udp[4] = (uint8_t)(ulen >> 8);
  udp[5] = (uint8_t)ulen;
  memcpy(udp + 8, payload, len);
  pcap_put(f, ts, p, 14 + ilen);
}

/* The clean capture again as UDP datagrams: the first half to the default
 * port, the rest to another port (found by the heuristic). udp-noise.pcap:
 * datagrams on another port that look almost like records, which the
 * heuristic must refuse. */
static void gen_udp(const char *dir) {
  char in_path[1024], path[1024];
  struct pcap_in in;
  snprintf(in_path, sizeof in_path, "%s/clean.pcap", dir);
  pcap_open(&in, in_path);
  size_t n = 0, len;
  while (pcap_next(&in, &len)) n++;
  fclose(in.f);
  pcap_open(&in, in_path);
  snprintf(path, sizeof path, "%s/udp.pcap", dir);
  FILE *f = pcap_create(path, LINKTYPE_ETHERNET);
  uint64_t ts = 1700000000ull * 1000000000ull;
  const uint8_t *rec;
  uint8_t good[MAX_REC];
  size_t good_len = 0;
  for (size_t i = 0; (rec = pcap_next(&in, &len)) != NULL; i++) {
    ts += 2;
    udp_put(f, ts, i < n / 2 ? UAL_UDP_PORT : 40001, rec, len);
    if (len == UAL_REC_HDR_BYTES + UAL_FLIT_BYTES && !good_len) memcpy(good, rec, good_len = len);
  }
  fclose(in.f);
  /* PCIe DLLP records (kind 4, PCIe roles, link 9) for the heuristic */
  for (unsigned k = 0; k < 4; k++) {
    struct ual_pcie_dllp d;
    ual_pcie_dllp_fc(&d, UAL_PCIE_DT_UPDATEFC_P, k, 0, 40 + k, 0, 300 + k);
    uint8_t body[UAL_PCIE_DLLP_BODY], prec[UAL_REC_HDR_BYTES + UAL_PCIE_DLLP_BODY];
    ual_pcie_dllp_encode(&d, body);
    struct ual_rec_hdr h;
    ual_rec_hdr_init(&h, UAL_REC_PCIE_DLLP, k & 1);
    h.link = 9;
    h.rate = 1;
    h.width = 1;
    h.roles_pcie = 1;
    h.role_a = 1;
    h.role_b = 4;
    size_t plen = ual_record_build(&h, body, sizeof body, prec, sizeof prec);
    ts += 2;
    udp_put(f, ts, 40001, prec, plen);
  }
  fclose(f);

  snprintf(path, sizeof path, "%s/udp-noise.pcap", dir);
  f = pcap_create(path, LINKTYPE_ETHERNET);
  uint8_t bad[MAX_REC];
  static const struct { uint8_t off, val; int dlen; } muts[] = {
    { 0, 2, 0 },        /* version 2 */
    { 1, 4, 0 },        /* kind 4 (PCIe DLLP) with a flit's body */
    { 1, 8, 0 },        /* reserved kind (7 is the non-flit PCIe record) */
    { 2, 0x08, 0 },     /* reserved flag bit */
    { 3, 7, 0 },        /* link 7 */
    { 4, 11, 0 },       /* reserved rate */
    { 5, 3, 0 },        /* width 3 */
    { 6, 0x03, 0 },     /* reserved role */
    { 7, 1, 0 },        /* reserved byte */
    { 0, 1, -1 },       /* body one byte short */
    { 0, 1, 1 },        /* one byte too many */
  };
  for (size_t i = 0; i < sizeof muts / sizeof muts[0]; i++) {
    memcpy(bad, good, good_len);
    bad[muts[i].off] = muts[i].val;
    ts += 2;
    udp_put(f, ts, 40002, bad, (size_t)((int)good_len + muts[i].dlen));
  }
  fclose(f);

  /* udp-seq.pcap: the clean capture as the export sends it (export header,
   * sequence numbers), datagrams 5-7, 12 and 20-24 left out; the first
   * half to the default port, the rest to another (the heuristic). */
  pcap_open(&in, in_path);
  snprintf(path, sizeof path, "%s/udp-seq.pcap", dir);
  f = pcap_create(path, LINKTYPE_ETHERNET);
  uint8_t dg[UAL_UDP_HDR_BYTES + MAX_REC];
  for (size_t i = 0; (rec = pcap_next(&in, &len)) != NULL; i++) {
    ts += 2;
    if ((i >= 5 && i <= 7) || i == 12 || (i >= 20 && i <= 24)) continue;
    if (len > MAX_REC) die("record too long");
    ual_udp_hdr_build((uint32_t)i, dg);
    memcpy(dg + UAL_UDP_HDR_BYTES, rec, len);
    udp_put(f, ts, i < n / 2 ? UAL_UDP_PORT : 40001, dg, UAL_UDP_HDR_BYTES + len);
  }
  fclose(in.f);
  fclose(f);
}

/* libdecode over a capture, as the plugin's first pass runs it. */
struct dec {
  int stateless;
  struct ual_decoder d;
  struct ual_analyzer a;
};

static void dec_init(struct dec *x, int stateless) {
  x->stateless = stateless;
  ual_decoder_init(&x->d);
  ual_analyzer_init(&x->a);
}

static void dec_step(struct dec *x, const uint8_t *rec, size_t len, uint64_t frame, uint64_t ts_ns,
                     struct ual_rec_result *r) {
  if (x->stateless) ual_decode_record(&x->d, rec, len, frame, r);
  else ual_analyzer_step(&x->a, rec, len, frame, ts_ns, r, NULL);
}

/* Rules libdecode raises in a capture, "ID severity" per line, in rule order. */
static void print_rules(const char *pcap, int stateless, FILE *f) {
  static struct pcap_in in;
  static struct dec dec;
  static struct ual_rec_result r;
  int seen[UAL_R_COUNT] = { 0 };
  const uint8_t *rec;
  size_t len;
  pcap_open(&in, pcap);
  dec_init(&dec, stateless);
  for (uint64_t frame = 1; (rec = pcap_next(&in, &len)) != NULL; frame++) {
    dec_step(&dec, rec, len, frame, in.ts_ns, &r);
    for (unsigned k = 0; k < r.findings.n; k++) seen[r.findings.v[k].rule] = 1;
  }
  fclose(in.f);
  for (int k = 0; k < UAL_R_COUNT; k++)
    if (seen[k])
      fprintf(f, "%s %s\n", ual_rule_id((enum ual_rule)k), ual_severity_name(ual_rule_severity((enum ual_rule)k)));
}

static void print_state(const char *pcap) {
  static struct pcap_in in;
  static struct ual_analyzer a;
  static struct ual_rec_result r;
  static struct ual_events ev;
  struct ual_analysis_summary s;
  const uint8_t *rec;
  size_t len;
  pcap_open(&in, pcap);
  ual_analyzer_init(&a);
  ual_events_init(&ev);
  for (uint64_t frame = 1; (rec = pcap_next(&in, &len)) != NULL; frame++) {
    ual_events_clear(&ev);
    ual_analyzer_step(&a, rec, len, frame, in.ts_ns, &r, &ev);
    printf("%" PRIu64, frame);
    if (r.status != UAL_RS_OK && r.status != UAL_RS_RESERVED) {
      printf("\t\t\t\t\t\n");
      continue;
    }
    ual_analyzer_summary(&a, &s);
    unsigned d = r.dir;
    printf("\t%u\t%u\t", s.ltssm[d], s.ltssm[d ^ 1]);
    if (s.unacked[d] != UAL_UNKNOWN) printf("%d", s.unacked[d]);
    printf("\t");
    for (unsigned i = 0; i < ev.n; i++) printf("%s%u", i ? "|" : "", ev.v[i].kind);
    printf("\t");
    for (unsigned i = 0, k = 0; i < ev.n; i++)
      if (ev.v[i].kind == UAL_TEV_NEGOTIATION && ev.v[i].latency_ns)
        printf("%s%" PRIu64, k++ ? "|" : "", ev.v[i].latency_ns);
    printf("\n");
  }
  fclose(in.f);
}

static void write_rules(const char *dir, const char *pcap, const char *out_name) {
  char in_path[1024], path[1024];
  snprintf(in_path, sizeof in_path, "%s/%s", dir, pcap);
  snprintf(path, sizeof path, "%s/%s", dir, out_name);
  FILE *f = fopen(path, "w");
  if (!f) die("%s: %s", path, strerror(errno));
  print_rules(in_path, 0, f);
  fclose(f);
}

static void gen_all(const char *dir) {
  gen_clean(dir);
  gen_bad(dir);
  gen_udp(dir);
  gen_replay(dir);
  write_rules(dir, "clean.pcap", "clean.rules");
  write_rules(dir, "bad.pcap", "bad.rules");
}

/* ------------------------------------------------------------------ */
/* compare */

#define MAX_VALS 16

struct vals { unsigned n; uint64_t v[MAX_VALS]; };

struct collect { struct vals f[UAL_F_COUNT]; };

static void on_row(void *ctx, const struct ual_tree_row *row) {
  struct collect *c = ctx;
  if (!row->field) return;
  struct vals *v = &c->f[row->id];
  if (v->n < MAX_VALS) v->v[v->n++] = row->value;
}

/* The record as the plugin shows it: a FEC-corrected flit replaces the raw one. */
static const uint8_t *shown_record(const struct ual_rec_result *r, const uint8_t *rec, size_t len,
                                   uint8_t *buf) {
  if ((r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED) || r->rec.h.kind != UAL_REC_FLIT ||
      r->flit.fec.status != UAL_FEC_CORRECTED)
    return rec;
  memcpy(buf, rec, len);
  memcpy(buf + UAL_REC_HDR_BYTES, r->flit.bytes, UAL_FLIT_BYTES);
  return buf;
}

/* tshark's text of one value: decimal, 0x-hex, or True/False. */
static int parse_value(const char *s, uint64_t *v) {
  if (strcmp(s, "True") == 0) { *v = 1; return 0; }
  if (strcmp(s, "False") == 0) { *v = 0; return 0; }
  char *end;
  errno = 0;
  *v = strtoull(s, &end, 0);
  return errno || end == s || *end ? -1 : 0;
}

static int compare_column(unsigned frame, enum ual_field_id id, char *col, const struct vals *want) {
  struct vals got = { 0 };
  int bad = 0;
  if (*col) {
    for (char *tok = strtok(col, "|"); tok; tok = strtok(NULL, "|")) {
      uint64_t v;
      if (ual_fields[id].flags & UAL_FF_BYTES) v = strlen(tok) / 2;   /* hex bytes against the row's count */
      else if (parse_value(tok, &v)) { bad = 1; break; }
      if (got.n < MAX_VALS) got.v[got.n++] = v;
    }
  }
  if (!bad && got.n == want->n && memcmp(got.v, want->v, sizeof(uint64_t) * got.n) == 0) return 0;
  fprintf(stderr, "frame %u %s: tshark [", frame, ual_fields[id].abbrev);
  for (unsigned i = 0; i < got.n; i++) fprintf(stderr, "%s%" PRIu64, i ? "," : "", got.v[i]);
  fprintf(stderr, "%s] libdecode [", bad ? " unparsable" : "");
  for (unsigned i = 0; i < want->n; i++) fprintf(stderr, "%s%" PRIu64, i ? "," : "", want->v[i]);
  fprintf(stderr, "]\n");
  return 1;
}

static int cmp_rule(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* Rule IDs of the frame's expert messages ("PL-CRC: ...") against its findings. */
static int compare_rules(unsigned frame, char *col, const struct ual_findings *f) {
  int got[64], want[UAL_MAX_FINDINGS];
  unsigned ng = 0, nw = 0;
  for (char *tok = *col ? strtok(col, "|") : NULL; tok; tok = strtok(NULL, "|")) {
    char id[32];
    size_t n = strcspn(tok, ":");
    if (n >= sizeof id || !tok[n]) continue;
    memcpy(id, tok, n);
    id[n] = 0;
    int r = ual_rule_lookup(id);
    if (r >= 0 && ng < 64) got[ng++] = r;
  }
  for (unsigned i = 0; i < f->n; i++) want[nw++] = f->v[i].rule;
  qsort(got, ng, sizeof got[0], cmp_rule);
  qsort(want, nw, sizeof want[0], cmp_rule);
  if (ng == nw && memcmp(got, want, sizeof got[0] * ng) == 0) return 0;
  fprintf(stderr, "frame %u expert: tshark [", frame);
  for (unsigned i = 0; i < ng; i++) fprintf(stderr, "%s%s", i ? " " : "", ual_rule_id((enum ual_rule)got[i]));
  fprintf(stderr, "] libdecode [");
  for (unsigned i = 0; i < nw; i++) fprintf(stderr, "%s%s", i ? " " : "", ual_rule_id((enum ual_rule)want[i]));
  fprintf(stderr, "]\n");
  return 1;
}

/* What a second pass knows: the completion frame of each PCIe request
 * (frame, index of its TLP there), from one analysed pass over the file. */
struct answer { uint64_t req, cpl; unsigned idx; };
static struct answer *answers;
static size_t n_answers;

static void collect_answers(const char *pcap) {
  static struct pcap_in in;
  static struct dec dec;
  static struct ual_rec_result r;
  const uint8_t *rec;
  size_t len, cap = 0;
  pcap_open(&in, pcap);
  dec_init(&dec, 0);
  for (uint64_t i = 1; (rec = pcap_next(&in, &len)) != NULL; i++) {
    dec_step(&dec, rec, len, i, in.ts_ns, &r);
    if (r.rec.h.kind != UAL_REC_PCIE_FLIT || (r.status != UAL_RS_OK && r.status != UAL_RS_RESERVED)) continue;
    for (unsigned k = 0; k < r.tlps.n; k++) {
      if (r.tlps.v[k].link != UAL_PCIE_LK_CPL) continue;
      if (n_answers == cap && !(answers = realloc(answers, (cap = cap ? 2 * cap : 256) * sizeof *answers)))
        die("out of memory");
      answers[n_answers++] = (struct answer){ r.tlps.v[k].peer_frame, i, r.tlps.v[k].peer_index };
    }
  }
  fclose(in.f);
}

static void add_answers(struct ual_rec_result *r) {
  if (r->rec.h.kind != UAL_REC_PCIE_FLIT) return;
  for (size_t a = 0; a < n_answers; a++)
    if (answers[a].req == r->frame && answers[a].idx < r->tlps.n && r->tlps.v[answers[a].idx].link == UAL_PCIE_LK_REQ)
      r->tlps.v[answers[a].idx].peer_frame = answers[a].cpl;
}

static int compare(const char *pcap, const char *tshark_out, int stateless, int two_pass) {
  static struct pcap_in in;
  pcap_open(&in, pcap);
  FILE *t = fopen(tshark_out, "r");
  if (!t) die("%s: %s", tshark_out, strerror(errno));
  static struct dec dec;
  static struct ual_rec_result r;
  static struct collect col;
  static char line[1 << 16];
  static uint8_t buf[sizeof in.buf];
  unsigned errors = 0, checked = 0, nonempty = 0;
  const uint8_t *rec;
  size_t i, len;
  dec_init(&dec, stateless);
  if (two_pass && !stateless) collect_answers(pcap);
  for (i = 0; (rec = pcap_next(&in, &len)) != NULL; i++) {
    if (!fgets(line, sizeof line, t)) die("%s: only %zu lines", tshark_out, i);
    line[strcspn(line, "\r\n")] = 0;
    dec_step(&dec, rec, len, i + 1, in.ts_ns, &r);
    add_answers(&r);
    memset(&col, 0, sizeof col);
    ual_tree_walk(&r, shown_record(&r, rec, len, buf), len, on_row, &col);
    /* columns: frame.number, the fields in table order, _ws.expert.message */
    char *p = line, *cols[UAL_F_COUNT + 2];
    for (int k = 0; k <= UAL_F_COUNT + 1; k++) {
      cols[k] = p ? p : (char *)"";
      if (p) {
        char *tab = strchr(p, '\t');
        if (tab) { *tab = 0; p = tab + 1; } else p = NULL;
      }
    }
    if (strtoul(cols[0], NULL, 10) != i + 1) die("line %zu is frame %s", i + 1, cols[0]);
    for (int k = 0; k < UAL_F_COUNT; k++) {
      errors += (unsigned)compare_column((unsigned)(i + 1), (enum ual_field_id)k, cols[k + 1], &col.f[k]);
      checked++;
      nonempty += col.f[k].n;
    }
    errors += (unsigned)compare_rules((unsigned)(i + 1), cols[UAL_F_COUNT + 1], &r.findings);
  }
  if (fgets(line, sizeof line, t)) die("%s: more lines than the %zu frames", tshark_out, i);
  fclose(t);
  fclose(in.f);
  printf("compared %zu frames, %u columns, %u values: %u mismatches\n", i, checked, nonempty, errors);
  return errors ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "gen") == 0) {
    gen_all(argv[2]);
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "fields") == 0) {
    for (int i = 0; i < UAL_F_COUNT; i++) printf("%s\n", ual_fields[i].abbrev);
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "rules") == 0) {
    for (int r = 0; r < UAL_R_COUNT; r++) printf("%s\n", ual_rule_id((enum ual_rule)r));
    return 0;
  }
  if (argc == 3 && strcmp(argv[1], "state") == 0) {
    print_state(argv[2]);
    return 0;
  }
  int stateless = argc > 2 && strcmp(argv[2], "--stateless") == 0;
  if (argc == 3 + stateless && strcmp(argv[1], "found") == 0) {
    print_rules(argv[2 + stateless], stateless, stdout);
    return 0;
  }
  int two = argc > 2 + stateless && strcmp(argv[2 + stateless], "--two-pass") == 0;
  if (argc == 4 + stateless + two && strcmp(argv[1], "compare") == 0)
    return compare(argv[2 + stateless + two], argv[3 + stateless + two], stateless, two);
  fprintf(stderr, "usage: ws_capgen gen DIR | fields | rules | found [--stateless] PCAP | state PCAP |\n"
                  "       compare [--stateless] [--two-pass] PCAP TSHARK_OUT\n");
  return 2;
}
