/* decode(encode(x)) == x and encode(decode(b)) == b: the input drives the
 * packer with TL flits and DL messages; what the unpacker gives back must be
 * exactly what went in. Single DWords, headers and DLLPs round-trip too. */
#include "ualink/ualink.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS 256

struct cursor { const uint8_t *p; size_t n; };

static int take(struct cursor *c, void *out, size_t n) {
  if (c->n < n) return 0;
  memcpy(out, c->p, n);
  c->p += n;
  c->n -= n;
  return 1;
}

static void require(int ok) {
  if (!ok) abort();
}

static void dword_roundtrip(uint32_t dw) {
  struct ual_dlmsg a, b;
  ual_dlmsg_decode(dw, &a);
  uint32_t again = ual_dlmsg_encode(&a);
  ual_dlmsg_decode(again, &b);
  b.dw = a.dw;
  require(memcmp(&a, &b, sizeof a) == 0);
  struct ual_findings f;
  ual_findings_clear(&f);
  ual_dlmsg_check(&a, 0, &f);
  if (a.type != UAL_MT_RESERVED && !ual_findings_has(&f, UAL_R_DM_RESERVED))
    require(again == dw);
}

static void header_roundtrip(const uint8_t *b) {
  struct ual_fh fh;
  uint8_t out[2];
  ual_fh_decode(b, &fh);
  ual_fh_encode(&fh, out);
  require(memcmp(out, b, 2) == 0);
  struct ual_dllp d;
  uint8_t o4[4];
  ual_dllp_decode(b, &d);
  ual_dllp_encode(&d, o4);
  if (d.type != UAL_DLLP_LINK_MGMT || (b[2] & 0xE0) == 0) require(memcmp(o4, b, 4) == 0);
}

/* Makes a valid single-DWord message (not a transport) from fuzzer bits, or 0. */
static int valid_single(uint32_t seed, uint32_t *dw) {
  struct ual_dlmsg m;
  ual_dlmsg_decode(seed, &m);
  if (m.type == UAL_MT_RESERVED || m.type == UAL_MT_UART_TRANSPORT) return 0;
  m.compressed = 0;
  *dw = ual_dlmsg_encode(&m);
  /* only messages a conformant sender could send: the unpacker checks them */
  struct ual_findings f;
  ual_findings_clear(&f);
  ual_dlmsg_decode(*dw, &m);
  ual_dlmsg_check(&m, 0, &f);
  return f.n == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct cursor c = { data, size };
  static struct ual_pack p;
  static uint8_t tl_in[MAX_ITEMS][UAL_TL_FLIT_BYTES];
  static uint8_t tl_m[MAX_ITEMS];
  static uint32_t msg_in[MAX_ITEMS][1 + UAL_UART_MAX_PAYLOAD];
  static uint8_t msg_len[MAX_ITEMS];
  static uint8_t flits[64][UAL_FLIT_BYTES];
  unsigned n_tl = 0, n_msg = 0, n_flits = 0;
  ual_pack_init(&p);

  uint8_t op;
  while (take(&c, &op, 1) && n_flits < 64) {
    switch (op % 4) {
    case 0: /* TL flit */
      if (n_tl < MAX_ITEMS && take(&c, tl_in[n_tl], UAL_TL_FLIT_BYTES) &&
          ual_pack_push_tl(&p, tl_in[n_tl], op >> 2 & 1, op >> 3 & 1)) {
        tl_m[n_tl] = op >> 2 & 3;
        n_tl++;
      }
      break;
    case 1: { /* single DWord message */
      uint32_t seed, dw;
      if (n_msg < MAX_ITEMS && take(&c, &seed, 4) && valid_single(seed, &dw) &&
          ual_pack_push_msg(&p, &dw, 1)) {
        msg_in[n_msg][0] = dw;
        msg_len[n_msg++] = 1;
      }
      break;
    }
    case 2: { /* UART Stream Transport with 1..32 payload DWords */
      if (n_msg >= MAX_ITEMS) break;
      struct ual_dlmsg m = {0};
      m.type = UAL_MT_UART_TRANSPORT;
      m.length = (uint8_t)((op >> 2) & 31);
      uint32_t *w = msg_in[n_msg];
      w[0] = ual_dlmsg_encode(&m);
      unsigned n = 1u + m.length + 1u;
      if (!take(&c, w + 1, 4u * (n - 1))) break;
      if (ual_pack_push_msg(&p, w, n)) msg_len[n_msg++] = (uint8_t)n;
      break;
    }
    default: { /* emit a flit */
      struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, (uint16_t)(1 + n_flits) };
      ual_pack_flit(&p, &fh, (op >> 2 & 3) != 0, flits[n_flits++]);
      break;
    }
    }
  }
  /* drain what is queued */
  while ((ual_pack_tl_queued(&p) || ual_pack_msg_queued(&p) || ual_pack_busy(&p)) && n_flits < 64) {
    struct ual_fh fh = { UAL_USAGE_PAYLOAD, 1, UAL_RC_SEQ, (uint16_t)(1 + n_flits) };
    ual_pack_flit(&p, &fh, true, flits[n_flits++]);
  }

  struct ual_unpack u;
  static struct ual_unpack_out out;
  struct ual_findings f;
  ual_unpack_init(&u);
  unsigned got_tl = 0, got_msg = 0;
  for (unsigned i = 0; i < n_flits; i++) {
    struct ual_flit_info fi;
    ual_findings_clear(&f);
    ual_flit_decode(flits[i], &fi, &f);
    require(fi.valid && fi.kind == UAL_FK_PAYLOAD && f.n == 0);
    ual_unpack_flit(&u, fi.bytes, i + 1, &out, &f);
    require(f.n == 0);
    for (unsigned k = 0; k < out.n_tl; k++, got_tl++) {
      require(got_tl < n_tl);
      require(memcmp(out.tl[k].data, tl_in[got_tl], UAL_TL_FLIT_BYTES) == 0);
      require((out.tl[k].m0 | out.tl[k].m1 << 1) == tl_m[got_tl]);
    }
    for (unsigned k = 0; k < out.n_msg; k++, got_msg++) {
      require(got_msg < n_msg);
      require(out.msg[k].msg.dw == msg_in[got_msg][0]);
      require(1u + out.msg[k].n_payload == msg_len[got_msg]);
      require(memcmp(out.msg[k].payload, msg_in[got_msg] + 1, 4u * out.msg[k].n_payload) == 0);
    }
  }
  if (n_flits < 64) { /* everything was drained */
    require(got_tl == n_tl);
    require(got_msg == n_msg);
  }

  for (size_t i = 0; i + 4 <= size; i += 4) {
    uint32_t dw;
    memcpy(&dw, data + i, 4);
    dword_roundtrip(dw);
    header_roundtrip(data + i);
  }
  return 0;
}
