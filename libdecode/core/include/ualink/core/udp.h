/* The UDP export inside a link-layer capture (docs/capture-format.md): a
 * capture of the export saved by tcpdump or dumpcap has Ethernet (or Linux
 * cooked, loopback, raw IP) frames around IPv4 or IPv6 around UDP, and each
 * datagram to the export's port is one capture record. Pure parsing and
 * building of those headers; no I/O.
 *
 *   Ethernet II   dst(6) src(6) [802.1Q/802.1ad tag(4)]... ethertype(2)
 *   Linux SLL     type(2) arphrd(2) addrlen(2) addr(8) protocol(2)
 *   Linux SLL2    protocol(2) rsvd(2) ifindex(4) arphrd(2) type(1) addrlen(1) addr(8)
 *   BSD loopback  family(4, host order)       raw IP   version nibble first
 *   IPv4          ver/ihl ... flags/frag(2 at 6) ... proto(1 at 9) ...
 *   IPv6          40 bytes, next header at 6, then extension headers
 *   UDP           src port(2) dst port(2) length(2) checksum(2) payload
 */
#ifndef UALINK_CORE_UDP_H
#define UALINK_CORE_UDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Link types (LINKTYPE_ numbers of pcap files; libpcap's DLT_ numbers where
 * they differ) that can carry the export. */
#define UAL_LT_NULL      0
#define UAL_LT_EN10MB    1
#define UAL_LT_RAW_DLT   12   /* DLT_RAW as libpcap reports LINKTYPE_RAW on Linux */
#define UAL_LT_RAW_BSD   14
#define UAL_LT_RAW       101
#define UAL_LT_LOOP      108
#define UAL_LT_LINUX_SLL 113
#define UAL_LT_IPV4      228
#define UAL_LT_IPV6      229
#define UAL_LT_LINUX_SLL2 276

/* True when frames of this link type can hold the UDP export. */
bool ual_udp_linktype(int linktype);

/* The UDP payload of a frame when it is one whole UDP datagram to port
 * (IPv4 or IPv6, not a fragment); NULL otherwise. *len is the payload's
 * length as far as the frame holds it. */
const uint8_t *ual_udp_payload(int linktype, const uint8_t *frame, size_t caplen, unsigned port, size_t *len);

/* Builds a frame of linktype (EN10MB, LINUX_SLL, LINUX_SLL2, NULL or RAW, any of its numbers)
 * around IPv4 (ipv6 false) or IPv6, UDP to port, then payload: what a
 * capture of the export on an interface holds. Returns the frame length, 0
 * when it does not fit or the link type is not one of these. Checksums are
 * left 0 (UDP: none; IPv4: computed). */
size_t ual_udp_frame_build(int linktype, bool ipv6, unsigned port, const uint8_t *payload, size_t len, uint8_t *out,
                           size_t cap);

/* The export's datagram (docs/capture-format.md, "UDP export"): an export
 * header, then one capture record. The header carries a sequence number so
 * that a receiver sees the datagrams it lost. A datagram that starts with
 * a record's version (1) is the plain form of older senders: read as it is.
 *
 *   offset 0  type      0x81 (export header, version 1)
 *          1  length    bytes of the header (8; a reader skips what it does not know)
 *          2  reserved  2 bytes, 0
 *          4  sequence  32 bits little-endian: the sender's datagrams from 0, mod 2^32
 *          8  the record
 */
#define UAL_UDP_HDR_TYPE  0x81
#define UAL_UDP_HDR_BYTES 8

/* Writes the export header of datagram seq (UAL_UDP_HDR_BYTES bytes). */
void ual_udp_hdr_build(uint32_t seq, uint8_t *out);

/* A receiver of the export: the sequence it expects and what it lost. One
 * sender per receiver (per port). */
struct ual_udp_rx {
  bool seq_known;
  uint32_t next;            /* the sequence number expected next */
  bool mark;                /* the next record follows lost datagrams */
  uint64_t datagrams;       /* with a record, either form */
  uint64_t lost;            /* datagrams missing from the sequence */
  uint64_t gaps;            /* places where datagrams were missing */
  uint64_t back;            /* a sequence number behind the expected one (reordered, repeated, a sender restarted) */
  uint64_t plain;           /* datagrams without an export header */
  uint64_t bad;             /* with an export header this reader does not know */
};

void ual_udp_rx_init(struct ual_udp_rx *rx);
/* One datagram's payload: returns the record in it and its length (*len).
 * A header of a type or length this reader does not know is counted (bad)
 * and the datagram returned as it is: its first byte is no record version,
 * so it decodes as a malformed record. *lost is true for the first record
 * after lost datagrams: the caller passes it on with UAL_RF_LOST set, where
 * the analysis starts over for every direction and link (a lost datagram
 * may have held any of them). */
const uint8_t *ual_udp_rx_step(struct ual_udp_rx *rx, const uint8_t *dgram, size_t n, size_t *len, bool *lost);
/* rec passed on as the record after lost datagrams: a copy in buf with
 * UAL_RF_LOST set; rec itself when it is shorter than a record header or
 * does not fit in cap. */
const uint8_t *ual_udp_mark_lost(const uint8_t *rec, size_t n, uint8_t *buf, size_t cap);
/* Datagrams lost as another counter says (the kernel's drops of a socket or
 * a capture ring): the next record is marked. */
void ual_udp_rx_dropped(struct ual_udp_rx *rx);

#endif
