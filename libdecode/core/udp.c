/* The UDP export inside link-layer frames (udp.h). */
#include "ualink/core/udp.h"

#include <string.h>

#include "ualink/core/record.h"

#define ETH_IPV4 0x0800
#define ETH_IPV6 0x86DD
#define ETH_VLAN 0x8100
#define ETH_QINQ 0x88A8
#define IPPROTO_UDP_ 17

static unsigned be16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }
static void put16(uint8_t *p, unsigned v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }

bool ual_udp_linktype(int lt) {
  switch (lt) {
  case UAL_LT_NULL: case UAL_LT_EN10MB: case UAL_LT_RAW_DLT: case UAL_LT_RAW_BSD: case UAL_LT_RAW:
  case UAL_LT_LOOP: case UAL_LT_LINUX_SLL: case UAL_LT_IPV4: case UAL_LT_IPV6: case UAL_LT_LINUX_SLL2:
    return true;
  }
  return false;
}

/* Offset of the IP header and its ethertype; false when the frame holds no IP. */
static bool link_header(int lt, const uint8_t *p, size_t n, size_t *off, unsigned *et) {
  switch (lt) {
  case UAL_LT_EN10MB:
    if (n < 14) return false;
    *off = 14;
    *et = be16(p + 12);
    for (int tags = 0; (*et == ETH_VLAN || *et == ETH_QINQ) && tags < 2; tags++) {
      if (n < *off + 4) return false;
      *et = be16(p + *off + 2);
      *off += 4;
    }
    return true;
  case UAL_LT_LINUX_SLL:
    if (n < 16) return false;
    *off = 16;
    *et = be16(p + 14);
    return true;
  case UAL_LT_LINUX_SLL2:
    if (n < 20) return false;
    *off = 20;
    *et = be16(p);
    return true;
  case UAL_LT_NULL:
  case UAL_LT_LOOP: {
    if (n < 4) return false;
    /* AF_INET is 2 everywhere; AF_INET6 is 10, 24, 28 or 30 by system. The
     * family is in host order (NULL) or network order (LOOP): try both. */
    uint32_t fam = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    if (fam > 0xffff) fam = p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
    *off = 4;
    *et = fam == 2 ? ETH_IPV4 : (fam == 10 || fam == 24 || fam == 28 || fam == 30) ? ETH_IPV6 : 0;
    return *et != 0;
  }
  case UAL_LT_RAW_DLT:
  case UAL_LT_RAW_BSD:
  case UAL_LT_RAW:
  case UAL_LT_IPV4:
  case UAL_LT_IPV6:
    if (n < 1) return false;
    *off = 0;
    *et = (p[0] >> 4) == 6 ? ETH_IPV6 : ETH_IPV4;
    return true;
  }
  return false;
}

/* Offset of the UDP header after the IP header at off; false when the packet
 * is not a whole UDP datagram. */
static bool ip_header(const uint8_t *p, size_t n, size_t off, unsigned et, size_t *l4, size_t *end) {
  if (et == ETH_IPV4) {
    if (n < off + 20 || (p[off] >> 4) != 4 || p[off + 9] != IPPROTO_UDP_) return false;
    if ((p[off + 6] & 0x3F) | p[off + 7]) return false; /* more fragments, or not the first */
    size_t ihl = (size_t)(p[off] & 0x0F) * 4, total = be16(p + off + 2);
    if (ihl < 20) return false;
    *l4 = off + ihl;
    *end = total >= ihl ? off + total : n;
    return true;
  }
  if (et != ETH_IPV6 || n < off + 40 || (p[off] >> 4) != 6) return false;
  *end = off + 40 + be16(p + off + 4);
  unsigned next = p[off + 6];
  size_t at = off + 40;
  /* hop-by-hop, routing, destination options; a fragment header means a fragment */
  for (int k = 0; k < 8 && (next == 0 || next == 43 || next == 60); k++) {
    if (n < at + 8) return false;
    next = p[at];
    at += 8 + (size_t)p[at + 1] * 8;
  }
  if (next != IPPROTO_UDP_) return false;
  *l4 = at;
  return true;
}

const uint8_t *ual_udp_payload(int lt, const uint8_t *p, size_t n, unsigned port, size_t *len) {
  size_t off, l4, end;
  unsigned et;
  if (!link_header(lt, p, n, &off, &et) || !ip_header(p, n, off, et, &l4, &end)) return NULL;
  if (n < l4 + 8 || be16(p + l4 + 2) != port) return NULL;
  size_t ulen = be16(p + l4 + 4);
  if (ulen < 8) return NULL;
  size_t stop = l4 + ulen;
  if (stop > end && end > l4) stop = end;  /* the IP length bounds the datagram */
  if (stop > n) stop = n;                  /* cut by the snapshot length */
  *len = stop - (l4 + 8);
  return p + l4 + 8;
}

static unsigned ip_checksum(const uint8_t *h, size_t n) {
  uint32_t s = 0;
  for (size_t i = 0; i + 1 < n; i += 2) s += be16(h + i);
  while (s >> 16) s = (s & 0xffff) + (s >> 16);
  return ~s & 0xffff;
}

size_t ual_udp_frame_build(int lt, bool ipv6, unsigned port, const uint8_t *payload, size_t len, uint8_t *out,
                           size_t cap) {
  bool raw = lt == UAL_LT_RAW || lt == UAL_LT_RAW_DLT || lt == UAL_LT_RAW_BSD;
  size_t link = lt == UAL_LT_EN10MB ? 14 : lt == UAL_LT_LINUX_SLL ? 16 : lt == UAL_LT_LINUX_SLL2 ? 20
                : lt == UAL_LT_NULL ? 4 : raw ? 0 : (size_t)-1;
  size_t iph = ipv6 ? 40 : 20, total = link + iph + 8 + len;
  if (link == (size_t)-1 || total > cap || iph + 8 + len > 0xffff) return 0;
  memset(out, 0, link + iph + 8);
  unsigned et = ipv6 ? ETH_IPV6 : ETH_IPV4;
  uint8_t *ip = out + link;
  switch (lt) {
  case UAL_LT_EN10MB: put16(out + 12, et); break;      /* addresses 0, as on lo */
  case UAL_LT_LINUX_SLL: put16(out + 2, 772); put16(out + 14, et); break;   /* ARPHRD_LOOPBACK */
  case UAL_LT_LINUX_SLL2: put16(out, et); put16(out + 8, 772); break;
  case UAL_LT_NULL: out[0] = ipv6 ? 10 : 2; break;     /* host order, little-endian */
  }
  if (ipv6) {
    ip[0] = 0x60;
    put16(ip + 4, (unsigned)(8 + len));
    ip[6] = IPPROTO_UDP_;
    ip[7] = 64;
    ip[23] = 1;                                          /* ::1 to ::1 */
    ip[39] = 1;
  } else {
    ip[0] = 0x45;
    put16(ip + 2, (unsigned)(20 + 8 + len));
    ip[6] = 0x40;                                        /* don't fragment */
    ip[8] = 64;
    ip[9] = IPPROTO_UDP_;
    ip[12] = ip[16] = 127;                               /* 127.0.0.1 to 127.0.0.1 */
    ip[15] = ip[19] = 1;
    put16(ip + 10, ip_checksum(ip, 20));
  }
  uint8_t *udp = ip + iph;
  put16(udp, 40000);
  put16(udp + 2, port);
  put16(udp + 4, (unsigned)(8 + len));
  memcpy(udp + 8, payload, len);
  return total;
}

void ual_udp_hdr_build(uint32_t seq, uint8_t *out) {
  out[0] = UAL_UDP_HDR_TYPE;
  out[1] = UAL_UDP_HDR_BYTES;
  out[2] = out[3] = 0;
  for (int i = 0; i < 4; i++) out[4 + i] = (uint8_t)(seq >> (8 * i));
}

void ual_udp_rx_init(struct ual_udp_rx *rx) { memset(rx, 0, sizeof *rx); }

void ual_udp_rx_dropped(struct ual_udp_rx *rx) { rx->mark = 1; }

const uint8_t *ual_udp_mark_lost(const uint8_t *rec, size_t n, uint8_t *buf, size_t cap) {
  if (n < UAL_REC_HDR_BYTES || n > cap) return rec;
  memcpy(buf, rec, n);
  buf[2] |= UAL_RF_LOST;
  return buf;
}

const uint8_t *ual_udp_rx_step(struct ual_udp_rx *rx, const uint8_t *p, size_t n, size_t *len, bool *lost) {
  *lost = false;
  const uint8_t *rec = p;
  *len = n;
  if (n && p[0] >= 0x80) {   /* an export header; records start with version 1 */
    if (p[0] != UAL_UDP_HDR_TYPE || n < UAL_UDP_HDR_BYTES || p[1] < UAL_UDP_HDR_BYTES || p[1] > n) {
      rx->bad++;
      return p;   /* its first byte is no record version: it decodes as malformed */
    }
    uint32_t seq = p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
    if (rx->seq_known && seq != rx->next) {
      uint32_t ahead = seq - rx->next;
      if (ahead < 0x80000000u) {
        rx->lost += ahead;
        rx->gaps++;
      } else {
        rx->back++;
      }
      rx->mark = 1;   /* either way the stream is not continuous here */
    }
    rx->seq_known = true;
    rx->next = seq + 1;
    rec = p + p[1];
    *len = n - p[1];
  } else {
    rx->plain++;
  }
  rx->datagrams++;
  *lost = rx->mark;
  rx->mark = 0;
  return rec;
}
