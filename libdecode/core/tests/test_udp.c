/* The UDP export inside link-layer frames: a known frame as tcpdump saves
 * it on lo, every link type and both IP versions built and parsed back,
 * VLAN tags and IPv6 extension headers, and every frame that is not one
 * whole datagram to the port. */
#include "check.h"
#include "ualink/core/record.h"
#include "ualink/core/udp.h"

/* Ethernet (lo: zero addresses), IPv4 127.0.0.1 -> 127.0.0.1, UDP 40000 ->
 * 17762, payload "UAL!" (as tcpdump -w on lo writes it). */
static const uint8_t eth_frame[] = {
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0x00,
  0x45, 0x00, 0x00, 0x20, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x3c, 0xcb, 127, 0, 0, 1, 127, 0, 0, 1,
  0x9c, 0x40, 0x45, 0x62, 0x00, 0x0c, 0x00, 0x00,
  'U', 'A', 'L', '!',
};

static void test_known_frame(void) {
  size_t len = 0;
  const uint8_t *pl = ual_udp_payload(UAL_LT_EN10MB, eth_frame, sizeof eth_frame, 17762, &len);
  CHECK(pl == eth_frame + 42);
  CHECK_EQ(len, 4);
  CHECK(ual_udp_payload(UAL_LT_EN10MB, eth_frame, sizeof eth_frame, 17763, &len) == NULL);
  /* the builder writes the same bytes, IPv4 checksum included */
  uint8_t out[128];
  CHECK_EQ(ual_udp_frame_build(UAL_LT_EN10MB, false, 17762, (const uint8_t *)"UAL!", 4, out, sizeof out),
           sizeof eth_frame);
  CHECK_MEM(out, eth_frame, sizeof eth_frame);
  /* cut by the snapshot length: the payload as far as it was captured */
  CHECK(ual_udp_payload(UAL_LT_EN10MB, eth_frame, sizeof eth_frame - 1, 17762, &len) == eth_frame + 42);
  CHECK_EQ(len, 3);
  /* cut inside a header: nothing */
  for (size_t n = 0; n < 42; n++) CHECK(ual_udp_payload(UAL_LT_EN10MB, eth_frame, n, 17762, &len) == NULL);
}

static void test_round_trips(void) {
  static const int lts[] = { UAL_LT_EN10MB, UAL_LT_LINUX_SLL, UAL_LT_LINUX_SLL2, UAL_LT_NULL, UAL_LT_RAW };
  uint8_t rec[264], out[512];
  for (size_t i = 0; i < sizeof rec; i++) rec[i] = (uint8_t)(i * 7 + 1);
  for (size_t k = 0; k < sizeof lts / sizeof lts[0]; k++)
    for (int v6 = 0; v6 < 2; v6++) {
      size_t n = ual_udp_frame_build(lts[k], v6, 17762, rec, sizeof rec, out, sizeof out);
      CHECK(n > sizeof rec);
      CHECK(ual_udp_linktype(lts[k]));
      size_t len = 0;
      const uint8_t *pl = ual_udp_payload(lts[k], out, n, 17762, &len);
      CHECK(pl != NULL);
      CHECK_EQ(len, sizeof rec);
      if (pl) CHECK_MEM(pl, rec, sizeof rec);
      CHECK(ual_udp_payload(lts[k], out, n, 9999, &len) == NULL);
    }
  /* raw IP as libpcap reports it on Linux (DLT_RAW 12) and as LINKTYPE_IPV4/IPV6 */
  size_t n = ual_udp_frame_build(UAL_LT_RAW, true, 5000, rec, 10, out, sizeof out);
  size_t len;
  CHECK(ual_udp_payload(UAL_LT_RAW_DLT, out, n, 5000, &len) == out + 48);
  CHECK(ual_udp_payload(UAL_LT_IPV6, out, n, 5000, &len) == out + 48);
  CHECK(!ual_udp_linktype(147));
  CHECK(ual_udp_payload(147, out, n, 5000, &len) == NULL);
  CHECK_EQ(ual_udp_frame_build(UAL_LT_EN10MB, false, 1, rec, sizeof rec, out, 100), 0);
}

static void test_tags_and_extensions(void) {
  uint8_t base[128], f[160];
  size_t n = ual_udp_frame_build(UAL_LT_EN10MB, false, 17762, (const uint8_t *)"abcd", 4, base, sizeof base);
  /* two VLAN tags (802.1ad outer, 802.1Q inner) before the ethertype */
  memcpy(f, base, 12);
  static const uint8_t tags[8] = { 0x88, 0xa8, 0x00, 0x05, 0x81, 0x00, 0x00, 0x07 };
  memcpy(f + 12, tags, 8);
  memcpy(f + 20, base + 12, n - 12);
  size_t len;
  CHECK(ual_udp_payload(UAL_LT_EN10MB, f, n + 8, 17762, &len) == f + 50);
  CHECK_EQ(len, 4);

  /* IPv6 with a hop-by-hop options header (8 bytes) before UDP */
  n = ual_udp_frame_build(UAL_LT_EN10MB, true, 17762, (const uint8_t *)"abcd", 4, base, sizeof base);
  memcpy(f, base, 14 + 40);
  f[14 + 6] = 0;                       /* next header: hop-by-hop */
  f[14 + 5] += 8;                      /* payload length */
  uint8_t *hbh = f + 54;
  memset(hbh, 0, 8);
  hbh[0] = 17;                         /* then UDP */
  memcpy(f + 62, base + 54, n - 54);
  CHECK(ual_udp_payload(UAL_LT_EN10MB, f, n + 8, 17762, &len) == f + 70);
  CHECK_EQ(len, 4);
  /* a fragment header: not a whole datagram */
  f[14 + 6] = 44;
  CHECK(ual_udp_payload(UAL_LT_EN10MB, f, n + 8, 17762, &len) == NULL);
}

static void test_not_a_datagram(void) {
  uint8_t f[128];
  size_t n = ual_udp_frame_build(UAL_LT_EN10MB, false, 17762, (const uint8_t *)"abcd", 4, f, sizeof f);
  size_t len;
  uint8_t g[128];
  memcpy(g, f, n);
  g[12] = 0x08, g[13] = 0x06;          /* ARP */
  CHECK(ual_udp_payload(UAL_LT_EN10MB, g, n, 17762, &len) == NULL);
  memcpy(g, f, n);
  g[14 + 9] = 6;                       /* TCP */
  CHECK(ual_udp_payload(UAL_LT_EN10MB, g, n, 17762, &len) == NULL);
  memcpy(g, f, n);
  g[14 + 6] = 0x20;                    /* more fragments */
  CHECK(ual_udp_payload(UAL_LT_EN10MB, g, n, 17762, &len) == NULL);
  memcpy(g, f, n);
  g[14 + 7] = 0x10;                    /* a later fragment */
  CHECK(ual_udp_payload(UAL_LT_EN10MB, g, n, 17762, &len) == NULL);
  memcpy(g, f, n);
  g[14 + 20 + 5] = 4;                  /* UDP length below its header */
  CHECK(ual_udp_payload(UAL_LT_EN10MB, g, n, 17762, &len) == NULL);
  memcpy(g, f, n);
  g[14] = 0x44;                        /* IHL 4: below the header */
  CHECK(ual_udp_payload(UAL_LT_EN10MB, g, n, 17762, &len) == NULL);
  /* Ethernet padding after a short datagram is not payload */
  memcpy(g, f, n);
  memset(g + n, 0xee, 18);
  CHECK(ual_udp_payload(UAL_LT_EN10MB, g, n + 18, 17762, &len) == g + 42);
  CHECK_EQ(len, 4);
}

/* A datagram of the export: header of seq, then a record of direction dir. */
static size_t dgram(uint8_t *out, uint32_t seq, unsigned dir) {
  ual_udp_hdr_build(seq, out);
  uint8_t *r = out + UAL_UDP_HDR_BYTES;
  memset(r, 0, 16);
  r[0] = 1, r[1] = 3, r[2] = (uint8_t)dir;   /* a link event */
  return UAL_UDP_HDR_BYTES + 16;
}

static void test_export_header(void) {
  uint8_t d[64];
  /* the bytes the format gives: type, length, reserved, sequence LE */
  ual_udp_hdr_build(0x12345678u, d);
  static const uint8_t want[8] = { 0x81, 8, 0, 0, 0x78, 0x56, 0x34, 0x12 };
  CHECK_MEM(d, want, 8);

  struct ual_udp_rx rx;
  ual_udp_rx_init(&rx);
  size_t len;
  bool lost;
  /* the first datagram sets the sequence: nothing lost before it is known */
  size_t n = dgram(d, 41, 0);
  CHECK(ual_udp_rx_step(&rx, d, n, &len, &lost) == d + 8);
  CHECK_EQ(len, 16);
  CHECK(!lost);
  n = dgram(d, 42, 1);
  CHECK(ual_udp_rx_step(&rx, d, n, &len, &lost) == d + 8);
  CHECK(!lost);
  CHECK_EQ(rx.lost, 0);
  /* 43..47 lost: the next record is marked, once */
  n = dgram(d, 48, 1);
  ual_udp_rx_step(&rx, d, n, &len, &lost);
  CHECK(lost);
  CHECK_EQ(rx.lost, 5);
  CHECK_EQ(rx.gaps, 1);
  n = dgram(d, 49, 0);
  ual_udp_rx_step(&rx, d, n, &len, &lost);
  CHECK(!lost);
  n = dgram(d, 50, 0);
  ual_udp_rx_step(&rx, d, n, &len, &lost);
  CHECK(!lost);
  n = dgram(d, 51, 0);
  ual_udp_rx_step(&rx, d, n, &len, &lost);
  CHECK(!lost);
  /* a step back is no loss but no continuity either */
  n = dgram(d, 30, 0);
  ual_udp_rx_step(&rx, d, n, &len, &lost);
  CHECK(lost);
  CHECK_EQ(rx.lost, 5);
  CHECK_EQ(rx.back, 1);
  /* the sequence wraps at 2^32 */
  struct ual_udp_rx w;
  ual_udp_rx_init(&w);
  n = dgram(d, 0xfffffffeu, 0);
  ual_udp_rx_step(&w, d, n, &len, &lost);
  n = dgram(d, 0xffffffffu, 0);
  ual_udp_rx_step(&w, d, n, &len, &lost);
  n = dgram(d, 0, 0);
  ual_udp_rx_step(&w, d, n, &len, &lost);
  CHECK(!lost);
  n = dgram(d, 3, 1);
  ual_udp_rx_step(&w, d, n, &len, &lost);
  CHECK(lost);
  CHECK_EQ(w.lost, 2);
  CHECK_EQ(w.gaps, 1);
  CHECK_EQ(w.back, 0);
  CHECK_EQ(rx.datagrams, 7);
  /* the plain form: the datagram is the record */
  n = dgram(d, 4, 0);
  CHECK(ual_udp_rx_step(&rx, d + 8, n - 8, &len, &lost) == d + 8);
  CHECK_EQ(len, 16);
  CHECK_EQ(rx.plain, 1);
  /* a header that says more than the datagram holds, or an unknown type */
  d[1] = 200;
  CHECK(ual_udp_rx_step(&rx, d, n, &len, &lost) == d);
  CHECK_EQ(len, n);
  d[1] = 8, d[0] = 0x82;
  CHECK(ual_udp_rx_step(&rx, d, n, &len, &lost) == d);
  CHECK(ual_udp_rx_step(&rx, d, 3, &len, &lost) == d);
  CHECK_EQ(len, 3);
  CHECK_EQ(rx.bad, 3);
  /* a header of a later version, longer: its record is after it */
  d[0] = 0x81, d[1] = 12;
  CHECK(ual_udp_rx_step(&rx, d, n, &len, &lost) == d + 12);
  CHECK_EQ(len, n - 12);
  /* the record as one after lost datagrams: a copy with flags bit 2 */
  uint8_t m[64];
  n = dgram(d, 8, 1);
  CHECK(ual_udp_mark_lost(d + 8, n - 8, m, sizeof m) == m);
  CHECK_EQ(m[2], UAL_RF_DIR_B | UAL_RF_LOST);
  CHECK_MEM(m + 3, d + 11, n - 11);
  CHECK(ual_udp_mark_lost(d + 8, 7, m, sizeof m) == d + 8);
  CHECK(ual_udp_mark_lost(d + 8, n - 8, m, 10) == d + 8);
  /* drops counted elsewhere mark the next record */
  ual_udp_rx_dropped(&rx);
  n = dgram(d, 7, 1);
  ual_udp_rx_step(&rx, d, n, &len, &lost);
  CHECK(lost);
}

int main(void) {
  test_known_frame();
  test_round_trips();
  test_tags_and_extensions();
  test_not_a_datagram();
  test_export_header();
  return check_done("test_udp");
}
