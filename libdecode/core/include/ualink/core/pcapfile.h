/* The headers of a classic pcap file (libpcap's savefile format): the
 * 24-byte file header and each record's 16-byte header, in the byte order
 * the magic number says. Pure parsing; no I/O. Front-ends that read pcap
 * files without libpcap (ualink-decode's block reader, the TUI's -F follow)
 * parse them here and keep their own policy on what they accept.
 *
 *   file    magic(4) major(2) minor(2) thiszone(4) sigfigs(4) snaplen(4) linktype(4)
 *   record  ts_sec(4) ts_usec or ts_nsec(4) caplen(4) len(4)
 */
#ifndef UALINK_CORE_PCAPFILE_H
#define UALINK_CORE_PCAPFILE_H

#include <stdbool.h>
#include <stdint.h>

#define UAL_PCAP_FILE_HDR 24u
#define UAL_PCAP_REC_HDR  16u
#define UAL_PCAP_MAGIC_USEC 0xa1b2c3d4u
#define UAL_PCAP_MAGIC_NSEC 0xa1b23c4du

struct ual_pcap_file {
  bool swapped;           /* written in the other byte order */
  bool nsec;              /* nanosecond timestamps */
  uint16_t major, minor;
  uint32_t snaplen;
  uint32_t linktype;      /* the whole field: FCS length and flags above bit 27 included */
};

/* False when h does not start with either magic in either byte order. */
bool ual_pcap_file_parse(const uint8_t h[UAL_PCAP_FILE_HDR], struct ual_pcap_file *pf);

struct ual_pcap_rec {
  uint32_t sec;           /* unsigned, as the format defines it */
  uint32_t frac;          /* microseconds or nanoseconds (ual_pcap_file.nsec) */
  uint32_t caplen, len;
};

void ual_pcap_rec_parse(const uint8_t h[UAL_PCAP_REC_HDR], bool swapped, struct ual_pcap_rec *r);
/* The seconds of a record libpcap handed on: the file's field is unsigned
 * 32 bits, which libpcap 1.10.5 (Debian 13) keeps and 1.10.3 (Debian 12)
 * sign-extends into tv_sec, so both read the same time. */
static inline uint64_t ual_pcap_tv_sec(int64_t tv_sec) {
  return tv_sec < 0 ? (uint64_t)(uint32_t)tv_sec : (uint64_t)tv_sec;
}

/* Only the record's captured length, for framing ahead. */
uint32_t ual_pcap_rec_caplen(const uint8_t h[UAL_PCAP_REC_HDR], bool swapped);

#endif
