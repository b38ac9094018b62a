/* mkcap: writes the small, deterministic inputs of the ualink-decode tests
 * into a directory: well-formed traffic built with libdecode's own encoders
 * (packer, flit/OS/event builders), flits with deliberate PL/DL problems,
 * malformed and truncated records, a wrong link type, pcapng, raw and hex.
 *
 *   mkcap OUTDIR
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ualink/ualink.h"
#include "ualink/core/udp.h"
#include "ualink/pcie/flit.h"
#include "ualink/ub/flit.h"

#define TS_BASE 1700000000000000000ull  /* 2023-11-14T22:13:20Z, in ns */

static const char *outdir;

static void die(const char *what, const char *detail) {
  fprintf(stderr, "mkcap: %s: %s\n", what, detail);
  exit(1);
}

static char *path_of(const char *name) {
  static char p[4096];
  snprintf(p, sizeof p, "%s/%s", outdir, name);
  return p;
}

/* ---- pcap writing -------------------------------------------------------- */

struct cap {
  pcap_t *p;
  pcap_dumper_t *d;
  uint64_t ts;           /* next timestamp */
  uint64_t step;         /* ns between records */
  struct ual_rec_hdr hdr[2];
};

static void cap_open(struct cap *c, const char *name, int dlt) {
  c->p = pcap_open_dead_with_tstamp_precision(dlt, 65535, PCAP_TSTAMP_PRECISION_NANO);
  if (!c->p) die(name, "pcap_open_dead failed");
  c->d = pcap_dump_open(c->p, path_of(name));
  if (!c->d) die(name, pcap_geterr(c->p));
  c->ts = TS_BASE;
  c->step = ual_flit_time_ps(7, 8) / 1000u; /* 128 GT/s x8: 2 ns per flit */
  if (!c->step) c->step = 2;
  for (int dir = 0; dir < 2; dir++) {
    ual_rec_hdr_init(&c->hdr[dir], UAL_REC_FLIT, (unsigned)dir);
    c->hdr[dir].link = 0;
    c->hdr[dir].rate = 7;
    c->hdr[dir].width = 8;
    c->hdr[dir].role_a = UAL_ROLE_ACCEL;
    c->hdr[dir].role_b = UAL_ROLE_SWITCH;
  }
}

static void cap_close(struct cap *c) {
  pcap_dump_close(c->d);
  pcap_close(c->p);
}

/* Writes bytes as one record with caplen n and original length wire (>= n). */
static void cap_bytes(struct cap *c, const uint8_t *b, size_t n, size_t wire) {
  struct pcap_pkthdr h;
  memset(&h, 0, sizeof h);
  h.ts.tv_sec = (time_t)(c->ts / 1000000000u);
  h.ts.tv_usec = (suseconds_t)(c->ts % 1000000000u); /* nanoseconds with the NANO precision */
  h.caplen = (bpf_u_int32)n;
  h.len = (bpf_u_int32)wire;
  pcap_dump((u_char *)c->d, &h, b);
  c->ts += c->step;
}

static void cap_record(struct cap *c, int dir, unsigned kind, const uint8_t *body, size_t n) {
  uint8_t rec[UAL_REC_HDR_BYTES + 512];
  struct ual_rec_hdr h = c->hdr[dir];
  h.kind = (uint8_t)kind;
  size_t len = ual_record_build(&h, body, n, rec, sizeof rec);
  if (!len) die("record", "too long");
  cap_bytes(c, rec, len, len);
}

static void cap_flit(struct cap *c, int dir, const uint8_t *flit) { cap_record(c, dir, UAL_REC_FLIT, flit, UAL_FLIT_BYTES); }

static void cap_event(struct cap *c, int dir, unsigned code, uint32_t value) {
  struct ual_event e = { (uint16_t)code, 0, value };
  uint8_t b[UAL_REC_EVENT_BYTES];
  ual_event_build(&e, b);
  cap_record(c, dir, UAL_REC_EVENT, b, sizeof b);
}

static void cap_ts(struct cap *c, int dir, unsigned enc, int ts2, unsigned rate_id, int modified) {
  struct ual_ts_params p;
  memset(&p, 0, sizeof p);
  p.ts2 = (uint8_t)ts2;
  p.link_number = 0;
  p.lane_number = 0;
  p.n_fts = 0;
  p.rate_id = (uint8_t)rate_id;
  p.modified = (uint8_t)modified;
  p.training_control = 0;
  if (modified) {
    p.mts_usage = UAL_MTS_USAGE_ALT_PROTOCOL;
    p.vendor_id = UAL_UALINK_VENDOR_ID;
  }
  uint8_t b[4 + UAL_OS_MAX_SYMBOLS];
  size_t n = ual_os_build_ts(b, sizeof b, 255, enc, &p);
  if (!n) die("ts", "build failed");
  cap_record(c, dir, UAL_REC_OS, b, n);
}

static void cap_os(struct cap *c, int dir, unsigned enc, unsigned type) {
  uint8_t b[4 + UAL_OS_MAX_SYMBOLS];
  size_t n = ual_os_build(b, sizeof b, 0, enc, type);
  if (!n) die("os", "build failed");
  cap_record(c, dir, UAL_REC_OS, b, n);
}

/* ---- traffic ------------------------------------------------------------- */

/* One direction's transmitter: packer plus sequence numbering. */
struct tx {
  struct ual_pack pk;
  unsigned next_seq;      /* sequence number of the next payload flit */
  unsigned n;             /* payload flits sent */
};

static void tx_init(struct tx *t) {
  ual_pack_init(&t->pk);
  t->next_seq = 1;
  t->n = 0;
}

static void tl_pattern(uint8_t *d, unsigned seed) {
  for (unsigned i = 0; i < UAL_TL_FLIT_BYTES; i++) d[i] = (uint8_t)(seed * 16u + i);
}

static uint32_t msg(unsigned type, void (*set)(struct ual_dlmsg *, unsigned), unsigned arg) {
  struct ual_dlmsg m;
  memset(&m, 0, sizeof m);
  m.type = (uint8_t)type;
  m.mclass = ual_msg_types[type].mclass;
  m.mtype = ual_msg_types[type].mtype;
  if (set) set(&m, arg);
  return ual_dlmsg_encode(&m);
}

static void push1(struct tx *t, uint32_t dw) {
  if (!ual_pack_push_msg(&t->pk, &dw, 1)) die("pack", "message queue full");
}

static void set_width_req(struct ual_dlmsg *m, unsigned w) { m->command = UAL_CMD_REQUEST; m->target = (uint8_t)w; }
static void set_width_ack(struct ual_dlmsg *m, unsigned w) { m->command = UAL_CMD_ACK; m->target = (uint8_t)w; m->response = (uint8_t)w; }
static void set_rate_req(struct ual_dlmsg *m, unsigned r) { m->ack = 0; m->rate = (uint16_t)r; }
static void set_rate_ack(struct ual_dlmsg *m, unsigned r) { (void)r; m->ack = 1; }
static void set_devid(struct ual_dlmsg *m, unsigned a) {
  m->ack = (uint8_t)(a >> 16);
  m->id = (uint16_t)(a & 0x3ff);
  m->dev_type = (uint8_t)(a >> 12 & 3);
  m->valid = 1;
}
static void set_credit(struct ual_dlmsg *m, unsigned v) { m->data_fc_seq = (uint16_t)v; }

/* A UART Stream Transport with n payload DWords. */
static void push_uart(struct tx *t, unsigned n, uint32_t seed) {
  uint32_t dw[1 + UAL_UART_MAX_PAYLOAD];
  struct ual_dlmsg m;
  memset(&m, 0, sizeof m);
  m.type = UAL_MT_UART_TRANSPORT;
  m.mclass = UAL_MCLASS_UART;
  m.mtype = 0;
  m.length = (uint8_t)(n - 1);
  dw[0] = ual_dlmsg_encode(&m);
  for (unsigned i = 0; i < n; i++) dw[1 + i] = seed + i;
  if (!ual_pack_push_msg(&t->pk, dw, n + 1)) die("pack", "uart transport");
}

/* Next payload flit: explicit sequence numbers in groups of three, then one
 * flit acknowledging the partner's last payload flit (implicit number). */
static void tx_flit(struct tx *t, unsigned partner_last, uint8_t *flit) {
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, (uint16_t)t->next_seq };
  if (t->n % 4 == 3 && partner_last) {
    fh.replay_cmd = UAL_RC_ACK;
    fh.seq = (uint16_t)partner_last;
  }
  ual_pack_flit(&t->pk, &fh, true, flit);
  t->next_seq = t->next_seq % 1023u + 1u;
  t->n++;
}

static void nop_flit(uint8_t *flit, unsigned cmd, unsigned seq, uint8_t dllp_type) {
  struct ual_fh fh = { UAL_USAGE_NOP_IDLE, 1, (uint8_t)cmd, (uint16_t)seq };
  struct ual_dllp d;
  memset(&d, 0, sizeof d);
  d.type = dllp_type;
  ual_flit_build_nop(flit, &fh, &d);
}

/* Well-formed traffic between an accelerator (A) and a switch (B). Calls
 * emit for every flit so that the same stream also feeds raw and hex files. */
static void basic_traffic(struct cap *c) {
  struct tx a, b;
  uint8_t f[UAL_FLIT_BYTES], d[UAL_TL_FLIT_BYTES];
  tx_init(&a);
  tx_init(&b);

  cap_event(c, 0, UAL_EV_CAP_START, 0);
  cap_ts(c, 0, UAL_ENC_1B1B, 0, 0x3f, 0);
  cap_ts(c, 1, UAL_ENC_128B130B, 1, 0x3f, 1);
  cap_os(c, 0, UAL_ENC_1B1B, UAL_OS_SKP);
  ual_flit_build_idle(f);
  cap_flit(c, 0, f);
  cap_flit(c, 1, f);

  for (unsigned i = 0; i < 5; i++) {
    tl_pattern(d, i);
    ual_pack_push_tl(&a.pk, d, i & 1, i >> 1 & 1);
  }
  for (unsigned i = 0; i < 3; i++) {
    tl_pattern(d, 0x80 + i);
    ual_pack_push_tl(&b.pk, d, 0, 0);
  }
  push1(&a, msg(UAL_MT_LINK_WIDTH, set_width_req, 3));
  push1(&a, msg(UAL_MT_DEVICE_ID, set_devid, 0x1000 | 5));
  push1(&a, msg(UAL_MT_TL_RATE, set_rate_req, 36875));
  push1(&b, msg(UAL_MT_UART_CREDIT, set_credit, 128));
  push1(&b, msg(UAL_MT_DEVICE_ID, set_devid, 0x10000 | 9));

  unsigned a_last = 0, b_last = 0;
  for (unsigned i = 0; i < 6; i++) {
    if (i == 1) {
      push1(&b, msg(UAL_MT_LINK_WIDTH, set_width_ack, 3));
      push1(&b, msg(UAL_MT_TL_RATE, set_rate_ack, 0));
    }
    if (i == 2) {
      push1(&a, msg(UAL_MT_LINK_WIDTH, set_width_ack, 3));
      push_uart(&a, 3, 0x55410000u);
    }
    unsigned sa = a.next_seq;
    tx_flit(&a, b_last, f);
    a_last = sa;
    cap_flit(c, 0, f);
    unsigned sb = b.next_seq;
    tx_flit(&b, a_last, f);
    b_last = sb;
    cap_flit(c, 1, f);
  }
  nop_flit(f, UAL_RC_ACK, b_last, UAL_DLLP_NOP);
  cap_flit(c, 0, f);
  nop_flit(f, UAL_RC_ACK, a_last, UAL_DLLP_NOP2);
  cap_flit(c, 1, f);
  cap_event(c, 0, UAL_EV_CAP_STOP, 0);
}

/* A capture that ends inside a TL flit: A's one payload flit starts five TL
 * flits and completes three; B's IDLE flit follows. Read to its end, that is
 * DL-TRUNCATED-TL at the end of the capture; a selection that stops reading
 * early has not seen the end. */
static void tl_cut(struct cap *c) {
  struct tx a;
  uint8_t f[UAL_FLIT_BYTES], d[UAL_TL_FLIT_BYTES];
  tx_init(&a);
  cap_event(c, 0, UAL_EV_CAP_START, 0);
  ual_flit_build_idle(f);             /* IDLE then sequence number 1: the stream starts here */
  cap_flit(c, 0, f);
  for (unsigned i = 0; i < 5; i++) {
    tl_pattern(d, i);
    ual_pack_push_tl(&a.pk, d, 0, 0);
  }
  tx_flit(&a, 0, f);
  cap_flit(c, 0, f);
  ual_flit_build_idle(f);
  cap_flit(c, 1, f);
}

/* ---- deliberately broken flits ------------------------------------------- */

static void payload_flit(uint8_t *f, unsigned seq, unsigned tl_seed) {
  struct ual_pack pk;
  uint8_t d[UAL_TL_FLIT_BYTES];
  ual_pack_init(&pk);
  tl_pattern(d, tl_seed);
  ual_pack_push_tl(&pk, d, 0, 0);
  ual_pack_push_tl(&pk, d, 1, 1);
  ual_pack_push_tl(&pk, d, 0, 1);
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, (uint16_t)seq };
  ual_pack_flit(&pk, &fh, true, f);
}

/* Recomputes the FEC only: keeps a wrong CRC visible as a CRC error. */
static void refec(uint8_t *f) { ual_fec_encode(f); }

/* Flips two data bytes of FEC group 0 (bytes 30 and i, both = 0 mod 3) so
 * that the group is uncorrectable; the flit header stays intact. */
static void make_uncorrectable(uint8_t *f) {
  for (unsigned i = 33; i < 240; i += 3) {
    uint8_t t[UAL_FLIT_BYTES];
    memcpy(t, f, sizeof t);
    t[30] ^= 0x5a;
    t[i] ^= 0x33;
    struct ual_fec_result r;
    if (ual_fec_correct(t, &r) == UAL_FEC_UNCORRECTABLE) {
      f[30] ^= 0x5a;
      f[i] ^= 0x33;
      return;
    }
  }
  die("uncorrectable", "no byte pair found");
}

static void push_raw_msgs(struct ual_pack *pk, const uint32_t *dw, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    if (!ual_pack_push_msg(pk, &dw[i], 1)) die("pack", "raw message");
}

static void error_traffic(struct cap *c) {
  uint8_t f[UAL_FLIT_BYTES];

  cap_ts(c, 0, UAL_ENC_8B10B, 0, 0x3e, 0);          /* LT-NO-FLIT-MODE: rate id bit 0 clear */
  payload_flit(f, 1, 1);
  cap_flit(c, 0, f);                                 /* clean */
  payload_flit(f, 2, 2);
  f[100] ^= 0x10;
  cap_flit(c, 0, f);                                 /* PL-FEC-CORRECTED at byte 100 */
  payload_flit(f, 3, 3);
  f[50] ^= 0x01;
  refec(f);
  cap_flit(c, 0, f);                                 /* PL-CRC */
  payload_flit(f, 4, 4);
  for (int i = 0; i < UAL_CRC_BYTES; i++) f[UAL_CRC_OFFSET + i] ^= 0xff;
  refec(f);
  cap_flit(c, 0, f);                                 /* PL-CRC-INVERTED */
  payload_flit(f, 5, 5);
  make_uncorrectable(f);
  cap_flit(c, 0, f);                                 /* PL-FEC-UNCORRECTABLE */

  memset(f, 0, sizeof f);
  ual_field_put(UAL_F_FH_USAGE_LO, f, 1);
  ual_field_put(UAL_F_FH_SEQ, f, 6);
  ual_flit_seal(f);
  cap_flit(c, 0, f);                                 /* PL-USAGE (001b) */
  payload_flit(f, 0, 7);
  cap_flit(c, 0, f);                                 /* PL-SEQ-ZERO */

  memset(f, 0, sizeof f);
  f[100] = 0xee;
  ual_flit_seal(f);
  cap_flit(c, 1, f);                                 /* PL-IDLE-BODY */
  nop_flit(f, UAL_RC_ACK, 5, 0x10);
  cap_flit(c, 1, f);                                 /* PL-NOP-DLLP */
  nop_flit(f, UAL_RC_ACK, 5, UAL_DLLP_PM_ENTER_L23);
  cap_flit(c, 1, f);                                 /* LT-UNSUPPORTED-PM */
  nop_flit(f, UAL_RC_ACK, 5, UAL_DLLP_NOP);
  f[200] = 0x01;
  ual_flit_seal(f);
  cap_flit(c, 1, f);                                 /* PL-NOP-BODY */

  payload_flit(f, 8, 8);
  f[ual_segment_map[1].sh_byte] |= 0x80;             /* reserved bit 7 */
  f[ual_segment_map[2].sh_byte] = (uint8_t)(f[ual_segment_map[2].sh_byte] & 0x83) | (0x05 << 2); /* TLBeat 00101b */
  ual_flit_seal(f);
  cap_flit(c, 0, f);                                 /* DL-SH-RESERVED, DL-TLBEAT */

  struct ual_pack pk;
  ual_pack_init(&pk);
  uint32_t bad[3];
  bad[0] = msg(UAL_MT_NOOP, NULL, 0) | 1u;           /* DM-COMPRESSED */
  bad[1] = 0x7u << 2;                                /* mclass 0111b: DM-UNKNOWN */
  bad[2] = msg(UAL_MT_DEVICE_ID, set_devid, 0x1000 | 5) | 1u << 27; /* DM-RESERVED */
  push_raw_msgs(&pk, bad, 3);
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, 9 };
  ual_pack_flit(&pk, &fh, true, f);
  cap_flit(c, 1, f);

  ual_pack_init(&pk);
  fh.seq = 10;
  ual_pack_flit(&pk, &fh, true, f);
  f[230] = 0x77;                                     /* segment 3 is unallocated */
  ual_flit_seal(f);
  cap_flit(c, 1, f);                                 /* DL-ZERO-FILL */

  ual_pack_init(&pk);
  uint32_t r = msg(UAL_MT_TL_RATE, set_rate_req, 100);
  push_raw_msgs(&pk, &r, 1);
  fh.seq = 11;
  ual_pack_flit(&pk, &fh, true, f);
  cap_flit(c, 1, f);                                 /* DM-RATE-RANGE */
}

static void malformed_traffic(struct cap *c) {
  uint8_t f[UAL_FLIT_BYTES], rec[UAL_REC_HDR_BYTES + UAL_FLIT_BYTES];
  struct ual_rec_hdr h;
  ual_flit_build_idle(f);
  cap_flit(c, 0, f);

  ual_rec_hdr_init(&h, UAL_REC_FLIT, 0);
  size_t n = ual_record_build(&h, f, sizeof f, rec, sizeof rec);
  rec[0] = 2;                                        /* version 2 */
  cap_bytes(c, rec, n, n);
  rec[0] = 1;
  rec[1] = 9;                                        /* kind 9 */
  cap_bytes(c, rec, n, n);
  rec[1] = UAL_REC_FLIT;
  cap_bytes(c, rec, UAL_REC_HDR_BYTES + 100, UAL_REC_HDR_BYTES + 100); /* short flit body */
  cap_bytes(c, rec, 4, 4);                           /* shorter than a header */
  rec[2] = 0x80;                                     /* reserved flag bit: still decodes */
  cap_bytes(c, rec, n, n);
  rec[2] = 0x01;
  cap_bytes(c, rec, 100, n);                         /* cut by the snapshot length */
  ual_rec_hdr_init(&h, UAL_REC_EVENT, 1);
  uint8_t ev[6] = { 6, 0, 0, 0, 0, 0 };
  n = ual_record_build(&h, ev, sizeof ev, rec, sizeof rec);
  cap_bytes(c, rec, n, n);                           /* event body of 6 bytes */
  cap_flit(c, 1, f);
}

/* Records whose reserved header bits are set: they still decode. */
static void reserved_header(struct cap *c) {
  uint8_t f[UAL_FLIT_BYTES];
  ual_flit_build_idle(f);
  c->hdr[0].rsvd_flags = 1;                          /* flags bit 3 */
  cap_flit(c, 0, f);
  c->hdr[1].rsvd_roles = 1;                          /* roles bit 4 */
  cap_flit(c, 1, f);
}

/* An IDLE flit between two whose pcap seconds have the top bit set (written
 * as -5 and -7): the field is unsigned, so they are in 2106, whichever
 * libpcap version reads them. */
static void negative_time(struct cap *c) {
  uint8_t f[UAL_FLIT_BYTES], rec[UAL_REC_HDR_BYTES + UAL_FLIT_BYTES];
  ual_flit_build_idle(f);
  size_t len = ual_record_build(&c->hdr[0], f, sizeof f, rec, sizeof rec);
  for (int i = 0; i < 3; i++) {
    if (i == 1) {
      cap_bytes(c, rec, len, len);
      continue;
    }
    struct pcap_pkthdr h;
    memset(&h, 0, sizeof h);
    h.ts.tv_sec = -5 - i;
    h.caplen = h.len = (bpf_u_int32)len;
    pcap_dump((u_char *)c->d, &h, rec);
  }
}

/* Hostile input: records of random length and content, and sealed (valid
 * CRC and FEC) flits with random bodies, so that the unpacker and every
 * printer meet arbitrary segment headers, DL messages and DLLPs. */

/* ---- PCIe flit mode (kind 5) ----------------------------------------------- */

/* One direction's TLP stream, cut into the 59 DW of successive flits. */
struct tlps {
  uint8_t b[4096];
  unsigned n;                  /* bytes queued */
  unsigned seq;
};

static void tlp_put(struct tlps *s, const uint8_t *dw, unsigned n_dw) {
  memcpy(s->b + s->n, dw, 4u * n_dw);
  s->n += 4u * n_dw;
}

/* A TLP: DW0 (type, OHC, TS 0, Length), DW1 (id, tag), then words. */
static void tlp_hdr(struct tlps *s, unsigned type, unsigned ohc, unsigned len, unsigned id, unsigned tag,
                    const uint8_t *rest, unsigned rest_dw) {
  uint8_t h[8] = { (uint8_t)type, (uint8_t)ohc, (uint8_t)(len >> 8 & 3), (uint8_t)len, (uint8_t)(id >> 8), (uint8_t)id,
                   (uint8_t)(tag >> 8 & 0x3F), (uint8_t)tag };
  tlp_put(s, h, 2);
  tlp_put(s, rest, rest_dw);
}

static void tlp_payload(struct tlps *s, unsigned n_dw, unsigned seed) {
  for (unsigned i = 0; i < 4u * n_dw; i++) s->b[s->n + i] = (uint8_t)(0xA5 ^ (seed + i));
  s->n += 4u * n_dw;
}

/* The next flit of the stream (NOP TLPs after its end), sealed with seq
 * and a flit-mode DLLP; replay = 1 sends the previous flit again. */
static void pcie_flit(struct cap *c, int dir, struct tlps *s, uint8_t dllp, uint8_t *last) {
  uint8_t f[UAL_FLIT_BYTES] = { 0 };
  unsigned take = s->n < UAL_PCIE_FLIT_TLP_BYTES ? s->n : UAL_PCIE_FLIT_TLP_BYTES;
  memcpy(f, s->b, take);
  memmove(s->b, s->b + take, s->n - take);
  s->n -= take;
  struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, (uint16_t)s->seq++ };
  struct ual_dllp d;
  memset(&d, 0, sizeof d);
  d.type = d.b[0] = dllp;
  if (dllp == 0x80) d.b[1] = 0x04, d.b[2] = 0x00, d.b[3] = 0x40;   /* UpdateFC-P VC0 */
  ual_pcie_flit_seal(f, &fh, &d);
  memcpy(last, f, sizeof f);
  cap_record(c, dir, UAL_REC_PCIE_FLIT, f, sizeof f);
}

/* A Root Port (A) and an Endpoint (B) in flit mode from link training on: configuration write,
 * memory reads answered by completions (one split in two), a memory write
 * straddling two flits, a replayed flit, a completion nobody asked for and
 * a read left outstanding. */
static void pcie_flit_traffic(struct cap *c) {
  static struct tlps a, b;
  uint8_t last[UAL_FLIT_BYTES];
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  a.seq = 10;
  b.seq = 700;
  for (int d = 0; d < 2; d++) {
    c->hdr[d].roles_pcie = 1;
    c->hdr[d].role_a = 1;   /* Root Port */
    c->hdr[d].role_b = 4;   /* Endpoint */
    c->hdr[d].rate = 3;
    c->hdr[d].width = 16;
  }
  cap_event(c, 0, UAL_EV_RX_DETECT, 0);   /* the link trains from Detect: both TLP streams start in sync */
  /* A flit 1: CfgWr0 to 01:00.0 reg 010h with OHC-A3, MRd32 with OHC-A1, MRd64 of 128 bytes */
  const uint8_t cfg[12] = { 0x01, 0x00, 0x00, 0x10 >> 2 << 2, 0x00, 0x00, 0x00, 0x0F, 0x11, 0x22, 0x33, 0x44 };
  tlp_hdr(&a, 0x44, 1, 1, 0x0000, 1, cfg, 3);
  const uint8_t mrd32[8] = { 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x0F };
  tlp_hdr(&a, 0x03, 1, 1, 0x0000, 2, mrd32, 2);
  const uint8_t mrd64[8] = { 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x20, 0x00 };
  tlp_hdr(&a, 0x20, 0, 32, 0x0000, 3, mrd64, 2);
  pcie_flit(c, 0, &a, 0x31, last);
  /* B flit 1: Cpl of the CfgWr0, CplD of the MRd32. Every completion has
   * OHC-A5 (00h: DSV 0, segments 00h, SC): the functions' Segment
   * Captured is Clear after Detect, so none may omit it (PS-CPL-A5-OMIT) */
  const uint8_t cpl[8] = { 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00 };   /* to 00:00.0, BC 4; A5 */
  tlp_hdr(&b, 0x0A, 1, 0, 0x0100, 1, cpl, 2);
  const uint8_t cpld[12] = { 0x00, 0x00, 0x00, 0x04, 0, 0, 0, 0, 0xDE, 0xAD, 0xBE, 0xEF };
  tlp_hdr(&b, 0x4A, 1, 1, 0x0100, 2, cpld, 3);
  pcie_flit(c, 1, &b, 0x80, last);
  /* A flit 2: MRd64 tag 4 (never completed), MWr64 of 64 DW with OHC-C (straddles into flit 3) */
  const uint8_t mrd64b[8] = { 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00 };
  tlp_hdr(&a, 0x20, 0, 1, 0x0000, 4, mrd64b, 2);
  const uint8_t mwr64[12] = { 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x80, 0x00, 0x03, 0x00, 0x00, 0x70 };
  tlp_hdr(&a, 0x60, 4, 64, 0x0000, 0, mwr64, 3);
  tlp_payload(&a, 64, 1);
  pcie_flit(c, 0, &a, 0x31, last);
  /* B flit 2: the first part of the 128-byte read (64 bytes, Byte Count 128) */
  const uint8_t part1[8] = { 0x00, 0x00, 0x00, 0x80 };
  tlp_hdr(&b, 0x4A, 1, 16, 0x0100, 3, part1, 2);
  tlp_payload(&b, 16, 2);
  pcie_flit(c, 1, &b, 0x31, last);
  /* A flit 3: the MWr64's end, then a FlitModePrefix'd MRd32 tag 5 */
  const uint8_t pfx[4] = { 0x8D, 0x00, 0x00, 0x01 };
  tlp_put(&a, pfx, 1);
  const uint8_t mrd32b[4] = { 0x00, 0x00, 0x30, 0x00 };
  tlp_hdr(&a, 0x03, 0, 1, 0x0000, 5, mrd32b, 1);
  pcie_flit(c, 0, &a, 0x31, last);
  /* ... sent again: a replayed copy is not delivered twice */
  cap_record(c, 0, UAL_REC_PCIE_FLIT, last, sizeof last);
  /* B flit 3: the read's last part (Byte Count 64), the MRd32 tag 5's CplD, a Cpl for tag 9 nobody sent */
  tlp_hdr(&b, 0x4A, 1, 16, 0x0100, 3, (const uint8_t[8]){ 0x00, 0x00, 0x00, 0x40 }, 2);
  tlp_payload(&b, 16, 3);
  tlp_hdr(&b, 0x4A, 1, 1, 0x0100, 5, (const uint8_t[12]){ 0x00, 0x00, 0x00, 0x04, 0, 0, 0, 0, 1, 2, 3, 4 }, 3);
  tlp_hdr(&b, 0x0A, 1, 0, 0x0100, 9, (const uint8_t[8]){ 0x00, 0x00, 0x00, 0x04 }, 2);
  pcie_flit(c, 1, &b, 0x31, last);
  /* A flits 4-5: 70 local prefixes (more than a TLP's held header keeps)
   * before an MRd32 tag 6 with OHC-A1, across the flit boundary */
  for (unsigned i = 0; i < 70; i++) {
    const uint8_t prefix[4] = { (uint8_t)(i % 2 ? 0x8E : 0x8D), 0, 0, (uint8_t)i };
    tlp_put(&a, prefix, 1);
  }
  tlp_hdr(&a, 0x03, 1, 1, 0x0000, 6, (const uint8_t[8]){ 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x0F }, 2);
  pcie_flit(c, 0, &a, 0x31, last);
  pcie_flit(c, 0, &a, 0x31, last);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static void hostile_traffic(struct cap *c) {
  uint8_t rec[UAL_REC_HDR_BYTES + 600];
  for (int i = 0; i < 3000; i++) {
    size_t n;
    unsigned what = (unsigned)(rng() % 4);
    for (size_t k = 0; k < sizeof rec; k++) rec[k] = (uint8_t)rng();
    if (what == 0) {
      n = (size_t)(rng() % sizeof rec);                 /* anything at all */
    } else {
      rec[0] = UAL_REC_VERSION;
      rec[1] = (uint8_t)(1 + rng() % 3);
      rec[2] &= 0x07;
      rec[6] &= 0x0f;
      rec[7] = 0;
      if (rec[1] == UAL_REC_FLIT) {
        uint8_t *f = rec + UAL_REC_HDR_BYTES;
        if (what == 1) ual_field_put(UAL_F_FH_USAGE_LO, f, 2), ual_field_put(UAL_F_FH_USAGE_HI, f, 0);
        ual_flit_seal(f);
        n = UAL_REC_HDR_BYTES + UAL_FLIT_BYTES;
      } else if (rec[1] == UAL_REC_OS) {
        n = UAL_REC_HDR_BYTES + (size_t)(rng() % 80);
      } else {
        n = UAL_REC_HDR_BYTES + UAL_REC_EVENT_BYTES;
      }
    }
    cap_bytes(c, rec, n, n);
  }
}

/* ---- other containers ---------------------------------------------------- */

static FILE *create(const char *name) {
  FILE *fp = fopen(path_of(name), "wb");
  if (!fp) die(name, strerror(errno));
  return fp;
}

static void put32(FILE *fp, uint32_t v) { fwrite(&v, 4, 1, fp); }
static void put16(FILE *fp, uint16_t v) { fwrite(&v, 2, 1, fp); }

/* pcapng (host byte order) with if_tsresol = 9 (nanoseconds): IDLE, a
 * payload flit and an event. Before record bad_at (unless -1) a block header
 * whose length libpcap refuses: the framing is lost there. */
static void write_pcapng(const char *name, int bad_at) {
  FILE *fp = create(name);
  put32(fp, 0x0A0D0D0A); put32(fp, 28); put32(fp, 0x1A2B3C4D); put16(fp, 1); put16(fp, 0);
  put32(fp, 0xffffffffu); put32(fp, 0xffffffffu); put32(fp, 28);                 /* SHB */
  put32(fp, 1); put32(fp, 32); put16(fp, UAL_DLT_USER0); put16(fp, 0); put32(fp, 65535);
  put16(fp, 9); put16(fp, 1); put32(fp, 9); put32(fp, 0); put32(fp, 32);          /* IDB, if_tsresol */
  uint8_t f[UAL_FLIT_BYTES], rec[UAL_REC_HDR_BYTES + UAL_FLIT_BYTES];
  struct ual_rec_hdr h;
  for (int i = 0; i < 3; i++) {
    size_t n;
    if (i == bad_at) {
      put32(fp, 6); put32(fp, 0x7fffffffu);
    }
    if (i == 0) {
      ual_flit_build_idle(f);
      ual_rec_hdr_init(&h, UAL_REC_FLIT, 0);
      n = ual_record_build(&h, f, sizeof f, rec, sizeof rec);
    } else if (i == 1) {
      payload_flit(f, 1, 9);
      ual_rec_hdr_init(&h, UAL_REC_FLIT, 1);
      n = ual_record_build(&h, f, sizeof f, rec, sizeof rec);
    } else {
      struct ual_event e = { UAL_EV_RATE, 0, 7 };
      uint8_t b[UAL_REC_EVENT_BYTES];
      ual_event_build(&e, b);
      ual_rec_hdr_init(&h, UAL_REC_EVENT, 0);
      n = ual_record_build(&h, b, sizeof b, rec, sizeof rec);
    }
    uint64_t ts = TS_BASE + 1000u * (uint64_t)i + 1;
    uint32_t pad = (uint32_t)((4 - n % 4) % 4), blen = 32 + (uint32_t)n + pad;
    put32(fp, 6); put32(fp, blen); put32(fp, 0); put32(fp, (uint32_t)(ts >> 32)); put32(fp, (uint32_t)ts);
    put32(fp, (uint32_t)n); put32(fp, (uint32_t)n);
    fwrite(rec, 1, n, fp);
    fwrite("\0\0\0", 1, pad, fp);
    put32(fp, blen);                                                              /* EPB */
  }
  fclose(fp);
}

/* Raw and hex files from the payload flits of one transmitter. */
static void write_raw_hex(void) {
  struct tx a;
  uint8_t f[UAL_FLIT_BYTES], d[UAL_TL_FLIT_BYTES];
  tx_init(&a);
  for (unsigned i = 0; i < 4; i++) {
    tl_pattern(d, 0x40 + i);
    ual_pack_push_tl(&a.pk, d, 0, 0);
  }
  push1(&a, msg(UAL_MT_LINK_WIDTH, set_width_req, 2));
  FILE *raw = create("flits.raw"), *trunc = create("flits_trunc.raw"), *hex = create("flits.hex");
  fputs("# ualink-decode test input: one flit per line\n\n", hex);
  for (unsigned i = 0; i < 4; i++) {
    tx_flit(&a, 0, f);
    fwrite(f, 1, sizeof f, raw);
    fwrite(f, 1, sizeof f, trunc);
    fprintf(hex, "%s", i == 2 ? "B>" : i == 3 ? "A> " : "");
    for (int k = 0; k < UAL_FLIT_BYTES; k++) fprintf(hex, "%02x%s", f[k], i == 1 && k % 4 == 3 ? " " : "");
    fputs(i == 0 ? "   # first flit\n" : "\n", hex);
  }
  ual_flit_build_idle(f);
  fwrite(f, 1, 100, trunc);
  fclose(raw);
  fclose(trunc);
  fclose(hex);

  FILE *bad = create("bad.hex");
  fputs("# two bad lines between good flits\n", bad);
  ual_flit_build_idle(f);
  for (int k = 0; k < UAL_FLIT_BYTES; k++) fprintf(bad, "%02x", f[k]);
  fputs("\n00ff\nB>", bad);
  for (int k = 0; k < UAL_FLIT_BYTES; k++) fprintf(bad, "%02x", f[k]);
  fputs("zz\nB>", bad);
  for (int k = 0; k < UAL_FLIT_BYTES; k++) fprintf(bad, "%02x", f[k]);
  fputs("\n", bad);
  fclose(bad);
}

/* UB flits for --raw-kind ub: A's Retry_Idle, a NOP block, a 3-flit
 * DLLDP on VL2 and a Crd_Ack (CRC mode); the hex file has one B flit too. */
static void write_ub_raw_hex(void) {
  uint8_t f[8 * UAL_UB_FLIT_BYTES], pay[40];
  unsigned n = 0;
  struct ual_ub_dllcb idle = { .type = UAL_UB_CB_RETRY_IDLE, .flits = 1 }, nop = { .type = UAL_UB_CB_NOP, .flits = 1 };
  struct ual_ub_dllcb ca = { .type = UAL_UB_CB_CRD_ACK, .flits = 2 };
  ca.ca.ack_num = 7;
  ca.ca.crd[2] = 3;
  memset(f, 0, sizeof f);
  ual_ub_dllcb_put(f, &idle);
  ual_ub_seal(UAL_UB_MODE_CRC, f, 1, true, false);
  ual_ub_dllcb_put(f + UAL_UB_FLIT_BYTES, &nop);
  ual_ub_seal(UAL_UB_MODE_CRC, f + UAL_UB_FLIT_BYTES, 1, true, false);
  for (unsigned i = 0; i < sizeof pay; i++) pay[i] = (uint8_t)(0x11 * (i + 1));
  struct ual_ub_unit u = { .vl = 2, .cfg = 3 };
  n = 2 + ual_ub_dlldp_build(UAL_UB_MODE_CRC, &u, pay, sizeof pay, false, f + 2 * UAL_UB_FLIT_BYTES, 4);
  ual_ub_dllcb_put(f + (size_t)n * UAL_UB_FLIT_BYTES, &ca);
  ual_ub_seal(UAL_UB_MODE_CRC, f + (size_t)n * UAL_UB_FLIT_BYTES, 2, true, false);
  n += 2;
  FILE *raw = create("ub_flits.raw"), *hex = create("ub_flits.hex");
  fputs("# ualink-decode --raw-kind ub test input: one 20-byte UB flit per line\n", hex);
  for (unsigned i = 0; i < n; i++) {
    const uint8_t *p = f + (size_t)i * UAL_UB_FLIT_BYTES;
    fwrite(p, 1, UAL_UB_FLIT_BYTES, raw);
    for (int k = 0; k < UAL_UB_FLIT_BYTES; k++) fprintf(hex, "%02x%s", p[k], i == 1 && k % 4 == 3 ? " " : "");
    fputs("\n", hex);
  }
  fputs("B>", hex);
  for (int k = 0; k < UAL_UB_FLIT_BYTES; k++) fprintf(hex, "%02x", f[k]);
  fputs("   # B's Retry_Idle\n", hex);
  fclose(raw);
  fclose(hex);
}

static void truncate_tail(const char *name, long cut) {
  FILE *fp = fopen(path_of(name), "r+b");
  if (!fp) die(name, strerror(errno));
  fseek(fp, 0, SEEK_END);
  long size = ftell(fp);
  fclose(fp);
  if (truncate(path_of(name), size - cut) != 0) die(name, strerror(errno));
}

/* src again at microsecond resolution, as editcap -F pcap writes it. over: with fractions above 999999 in
 * records 3 (1234567) and 5 (2000000), as a writer that puts nanoseconds
 * under the microsecond magic leaves them: readers say so once, at 3. */
static void to_microseconds(const char *src, const char *dst, bool over) {
  char err[PCAP_ERRBUF_SIZE];
  pcap_t *in = pcap_open_offline_with_tstamp_precision(path_of(src), PCAP_TSTAMP_PRECISION_MICRO, err);
  if (!in) die(src, err);
  pcap_t *dead = pcap_open_dead_with_tstamp_precision(pcap_datalink(in), 65535, PCAP_TSTAMP_PRECISION_MICRO);
  pcap_dumper_t *d = dead ? pcap_dump_open(dead, path_of(dst)) : NULL;
  if (!d) die(dst, dead ? pcap_geterr(dead) : "pcap_open_dead failed");
  struct pcap_pkthdr *h;
  const u_char *b;
  for (unsigned n = 1; pcap_next_ex(in, &h, &b) == 1; n++) {
    struct pcap_pkthdr o = *h;
    if (over && n == 3) o.ts.tv_usec = 1234567;
    if (over && n == 5) o.ts.tv_usec = 2000000;
    pcap_dump((u_char *)d, &o, b);
  }
  pcap_dump_close(d);
  pcap_close(dead);
  pcap_close(in);
}

static void dump_at(pcap_dumper_t *d, const uint8_t *frame, size_t len, uint64_t *t, bool micro) {
  struct pcap_pkthdr o;
  memset(&o, 0, sizeof o);
  o.ts.tv_sec = (time_t)(*t / 1000000000u);
  o.ts.tv_usec = (suseconds_t)(micro ? *t % 1000000000u / 1000u : *t % 1000000000u);
  o.caplen = o.len = (bpf_u_int32)len;
  pcap_dump((u_char *)d, &o, frame);
  *t += 50000;
}

/* src's records as a capture of the UDP export on an interface would hold
 * them (tcpdump -w, dumpcap): one frame of linktype per record, IPv4 or IPv6,
 * to port 17762, at arrival times 50 us apart (far beyond every DL
 * deadline, so a tool that took them for link time would report late
 * responses), at microsecond or nanosecond resolution; with junk, an ARP
 * frame and a datagram to another port before every fourth record. */
static void to_udp_capture(const char *src, const char *dst, int linktype, bool ipv6, bool micro, bool junk) {
  char err[PCAP_ERRBUF_SIZE];
  pcap_t *in = pcap_open_offline_with_tstamp_precision(path_of(src), PCAP_TSTAMP_PRECISION_NANO, err);
  if (!in) die(src, err);
  int prec = micro ? PCAP_TSTAMP_PRECISION_MICRO : PCAP_TSTAMP_PRECISION_NANO;
  pcap_t *dead = pcap_open_dead_with_tstamp_precision(linktype, 65535, prec);
  pcap_dumper_t *d = dead ? pcap_dump_open(dead, path_of(dst)) : NULL;
  if (!d) die(dst, dead ? pcap_geterr(dead) : "pcap_open_dead failed");
  struct pcap_pkthdr *h;
  const u_char *b;
  uint8_t frame[600];
  uint64_t t = 1735689600000000000ull + 123456789u, n = 0;
  while (pcap_next_ex(in, &h, &b) == 1) {
    if (junk && n % 4 == 0) {
      size_t len = ual_udp_frame_build(linktype, ipv6, UAL_UDP_PORT, b, h->caplen, frame, sizeof frame);
      frame[12] = 0x08, frame[13] = 0x06; /* an Ethernet frame of ARP */
      dump_at(d, frame, len, &t, micro);
      len = ual_udp_frame_build(linktype, ipv6, 53, b, h->caplen, frame, sizeof frame);
      dump_at(d, frame, len, &t, micro);
    }
    size_t len = ual_udp_frame_build(linktype, ipv6, UAL_UDP_PORT, b, h->caplen, frame, sizeof frame);
    if (!len) die(dst, "frame too long");
    dump_at(d, frame, len, &t, micro);
    n++;
  }
  pcap_dump_close(d);
  pcap_close(dead);
  pcap_close(in);
}

/* ---- hostile framing and bodies (hostile_cases.txt) ----------------------- */

/* Around every bad record a beacon: a link event whose value counts the
 * beacons, then an IDLE flit the other way. The tests count what decoded
 * and check that the values run 0, 1, 2, ... with none missing. */
static uint32_t beacons;
static void beacon(struct cap *c) {
  uint8_t f[UAL_FLIT_BYTES];
  cap_event(c, 0, UAL_EV_CAP_START, beacons++);
  ual_flit_build_idle(f);
  cap_flit(c, 1, f);
}

static void open_beaconed(struct cap *c, const char *name) {
  cap_open(c, name, UAL_DLT_USER0);
  beacons = 0;
  beacon(c);
}

/* A pcap record header with any caplen and wire length, then n bytes:
 * what pcap_dump would not write as it is. */
static void cap_lying(struct cap *c, uint32_t caplen, uint32_t wire, const uint8_t *b, size_t n) {
  FILE *fp = pcap_dump_file(c->d);
  uint32_t h[4] = { (uint32_t)(c->ts / 1000000000u), (uint32_t)(c->ts % 1000000000u), caplen, wire };
  fwrite(h, sizeof h, 1, fp);
  if (n) fwrite(b, 1, n, fp);
  c->ts += c->step;
}

/* Overwrites 4 bytes of the file header (magic at 0, snaplen at 16). */
static void patch_header(const char *name, long off, uint32_t v) {
  FILE *fp = fopen(path_of(name), "r+b");
  if (!fp) die(name, strerror(errno));
  fseek(fp, off, SEEK_SET);
  put32(fp, v);
  fclose(fp);
}

static uint8_t big[262145];          /* records up to libpcap's limit and one byte over */

/* A record of n bytes whose header says version 1, kind flit, direction A. */
static const uint8_t *flit_header_then_zeros(size_t n) {
  struct ual_rec_hdr h;
  memset(big, 0, n);
  ual_rec_hdr_init(&h, UAL_REC_FLIT, 0);
  ual_record_build(&h, NULL, 0, big, n < UAL_REC_HDR_BYTES ? UAL_REC_HDR_BYTES : n);
  return big;
}

/* Records of 0, 1 and 7 bytes (no complete header) and one of 65535. */
static void write_bad_len(void) {
  struct cap c;
  static const size_t lens[] = { 0, 1, 7, 65535 };
  open_beaconed(&c, "bad_len.pcap");
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
    const uint8_t *b = flit_header_then_zeros(lens[i]);
    cap_bytes(&c, b, lens[i], lens[i]);
    beacon(&c);
  }
  cap_close(&c);
}

/* Every kind with no body, a short and a long one; unknown versions and
 * kinds; then the shortest and the longest valid ordered sets. */
static void write_bad_kinds(void) {
  static const struct { uint8_t version, kind; size_t body; } bad[] = {
    { 1, UAL_REC_FLIT, 0 },  { 1, UAL_REC_FLIT, UAL_FLIT_BYTES - 1 },  { 1, UAL_REC_FLIT, UAL_FLIT_BYTES + 1 },
    { 1, UAL_REC_OS, 0 },    { 1, UAL_REC_OS, 3 },                     { 1, UAL_REC_OS, 4 + UAL_OS_MAX_SYMBOLS + 1 },
    { 1, UAL_REC_EVENT, 0 }, { 1, UAL_REC_EVENT, UAL_REC_EVENT_BYTES - 1 }, { 1, UAL_REC_EVENT, UAL_REC_EVENT_BYTES + 1 },
    { 0, UAL_REC_EVENT, 8 }, { 2, UAL_REC_EVENT, 8 },                  { 255, UAL_REC_EVENT, 8 },
    { 1, 0, 8 },             { 1, 200, 8 },                            { 1, 255, 8 },
  };
  struct cap c;
  uint8_t rec[UAL_REC_HDR_BYTES + UAL_FLIT_BYTES + 1];
  open_beaconed(&c, "bad_kinds.pcap");
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    struct ual_rec_hdr h;
    ual_rec_hdr_init(&h, bad[i].kind, 0);
    memset(rec, 0xa5, sizeof rec);
    ual_record_build(&h, NULL, 0, rec, sizeof rec);
    rec[0] = bad[i].version;
    cap_bytes(&c, rec, UAL_REC_HDR_BYTES + bad[i].body, UAL_REC_HDR_BYTES + bad[i].body);
    beacon(&c);
  }
  uint8_t os[4 + UAL_OS_MAX_SYMBOLS];
  memset(os, 0, sizeof os);
  os[0] = 255;
  os[1] = UAL_ENC_1B1B;
  cap_record(&c, 0, UAL_REC_OS, os, 4);
  cap_record(&c, 1, UAL_REC_OS, os, sizeof os);
  beacon(&c);
  cap_close(&c);
}

/* snaplen 0 and 0xffffffff in the file header: libpcap reads with its own
 * maximum (262144), so nothing is cut; a record of 70000 bytes. */
static void write_bad_snaplen(const char *name, uint32_t snaplen) {
  struct cap c;
  open_beaconed(&c, name);
  const uint8_t *b = flit_header_then_zeros(70000);
  cap_bytes(&c, b, 70000, 70000);
  beacon(&c);
  cap_close(&c);
  patch_header(name, 16, snaplen);
}

/* snaplen 200: libpcap cuts every flit record to 200 bytes and skips the
 * rest; the 16-byte events still decode. */
static void write_small_snaplen(void) {
  struct cap c;
  open_beaconed(&c, "bad_snaplen_small.pcap");
  beacon(&c);
  beacon(&c);
  cap_close(&c);
  patch_header("bad_snaplen_small.pcap", 16, 200);
}

/* caplen above the file's snaplen (65535) but within libpcap's maximum:
 * cut to the snaplen, the framing holds. */
static void write_caplen_clip(void) {
  struct cap c;
  open_beaconed(&c, "bad_caplen_clip.pcap");
  cap_lying(&c, 70000, 70000, flit_header_then_zeros(70000), 70000);
  beacon(&c);
  cap_lying(&c, 262144, 262144, flit_header_then_zeros(262144), 262144);
  beacon(&c);
  cap_close(&c);
}

/* caplen beyond libpcap's maximum: it refuses the record header, and the
 * records after it (written out in full) cannot be reached. */
static void write_caplen_over(const char *name, uint32_t caplen, size_t follow) {
  struct cap c;
  open_beaconed(&c, name);
  beacon(&c);
  cap_lying(&c, caplen, caplen, flit_header_then_zeros(follow), follow);
  beacon(&c);
  cap_close(&c);
}

/* The end of the input inside a pcap record header. */
static void write_cut_record_header(void) {
  struct cap c;
  open_beaconed(&c, "bad_rechdr_cut.pcap");
  static const uint8_t part[7] = { 0 };
  fwrite(part, 1, sizeof part, pcap_dump_file(c.d));
  cap_close(&c);
}

/* Random bytes after two beacons. */
static void write_random_tail(void) {
  struct cap c;
  open_beaconed(&c, "bad_random.pcap");
  beacon(&c);
  FILE *fp = pcap_dump_file(c.d);
  for (int i = 0; i < 4096 / 8; i++) {
    uint64_t v = rng();
    fwrite(&v, 8, 1, fp);
  }
  cap_close(&c);
}

/* A file header and nothing else, a wrong magic, half a file header. */
static void write_bare_headers(void) {
  struct cap c;
  cap_open(&c, "header_only.pcap", UAL_DLT_USER0);
  cap_close(&c);
  open_beaconed(&c, "bad_magic.pcap");
  cap_close(&c);
  patch_header("bad_magic.pcap", 0, 0x12345678u);
  cap_open(&c, "short_header.pcap", UAL_DLT_USER0);
  cap_close(&c);
  if (truncate(path_of("short_header.pcap"), 10) != 0) die("short_header.pcap", strerror(errno));
}

static void write_hostile_framing(void) {
  write_bad_len();
  write_bad_kinds();
  write_bad_snaplen("bad_snaplen0.pcap", 0);
  write_bad_snaplen("bad_snaplen_max.pcap", 0xffffffffu);
  write_small_snaplen();
  write_caplen_clip();
  write_caplen_over("bad_caplen_over.pcap", 262145, 262145);
  write_caplen_over("bad_caplen_ffff.pcap", 0xffffffffu, 0);
  write_cut_record_header();
  write_random_tail();
  write_bare_headers();
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: mkcap OUTDIR\n");
    return 2;
  }
  outdir = argv[1];
  struct cap c;

  cap_open(&c, "basic.pcap", UAL_DLT_USER0);
  basic_traffic(&c);
  cap_close(&c);

  cap_open(&c, "errors.pcap", UAL_DLT_USER0);
  error_traffic(&c);
  cap_close(&c);

  cap_open(&c, "malformed.pcap", UAL_DLT_USER0);
  malformed_traffic(&c);
  cap_close(&c);

  cap_open(&c, "hostile.pcap", UAL_DLT_USER0);
  hostile_traffic(&c);
  cap_close(&c);

  cap_open(&c, "rsvdhdr.pcap", UAL_DLT_USER0);
  reserved_header(&c);
  cap_close(&c);

  cap_open(&c, "negts.pcap", UAL_DLT_USER0);
  negative_time(&c);
  cap_close(&c);

  cap_open(&c, "truncated.pcap", UAL_DLT_USER0);
  basic_traffic(&c);
  cap_close(&c);
  truncate_tail("truncated.pcap", 100);  /* the last record (an event, 16 bytes) and part of a flit */

  to_microseconds("basic.pcap", "basic_us.pcap", false);
  to_microseconds("basic.pcap", "usfrac.pcap", true);
  to_udp_capture("basic.pcap", "udp_eth.pcap", UAL_LT_EN10MB, false, true, true);
  to_udp_capture("basic.pcap", "udp_sll_v6.pcap", UAL_LT_LINUX_SLL, true, false, false);
  to_udp_capture("errors.pcap", "udp_errors_sll2.pcap", UAL_LT_LINUX_SLL2, false, true, false);
  to_udp_capture("basic.pcap", "udp_raw.pcap", UAL_LT_RAW_DLT, false, true, false);  /* LINKTYPE_RAW in the file */

  cap_open(&c, "pcie_flit.pcap", UAL_DLT_USER0);
  pcie_flit_traffic(&c);
  cap_close(&c);

  cap_open(&c, "tlcut.pcap", UAL_DLT_USER0);
  tl_cut(&c);
  cap_close(&c);

  cap_open(&c, "user5.pcap", UAL_DLT_USER0 + 5);
  basic_traffic(&c);
  cap_close(&c);

  cap_open(&c, "ethernet.pcap", 1);
  uint8_t eth[60] = { 0 };
  cap_bytes(&c, eth, sizeof eth, sizeof eth);
  cap_close(&c);

  cap_open(&c, "wifi.pcap", 105);   /* IEEE 802.11: neither records nor the UDP export */
  cap_bytes(&c, eth, sizeof eth, sizeof eth);
  cap_close(&c);

  write_pcapng("basic.pcapng", -1);
  write_pcapng("bad_block.pcapng", 2);
  write_raw_hex();
  write_ub_raw_hex();

  FILE *fp = create("notpcap.txt");
  fputs("this is not a capture file\n", fp);
  fclose(fp);
  fclose(create("empty.pcap"));
  write_hostile_framing();
  return 0;
}
