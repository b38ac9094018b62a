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
#include <stddef.h>
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

/* A microsecond file's fraction above 999999 (nanoseconds written under
 * the microsecond magic, say). libpcap takes it as that many microseconds
 * and so do the readers here: 1234567 reads as 1.234567 s past the
 * record's second (above 2^31 - 1 libpcap 1.10 reads it as negative, the
 * readers here as unsigned). They say so once, with ual_pcap_frac_note. */
#define UAL_PCAP_USEC_MAX 999999u
static inline bool ual_pcap_frac_over(uint32_t frac, bool nsec) { return !nsec && frac > UAL_PCAP_USEC_MAX; }
/* The record's time in nanoseconds, its fraction in the file's unit. */
static inline uint64_t ual_pcap_rec_ns(const struct ual_pcap_rec *r, bool nsec) {
  return (uint64_t)r->sec * 1000000000u + (uint64_t)r->frac * (nsec ? 1u : 1000u);
}
/* The same for a record libpcap handed on at nanosecond precision:
 * tv_nsec is its tv_usec, the fraction times 1000 (libpcap 1.10 reads the
 * field as signed: above 2^31 - 1 it is negative). usec: the file has the
 * microsecond magic, -1 when the reader cannot tell (a stream): then only
 * a whole number of microseconds is taken for one. The file's fraction
 * when it is above 999999, else 0. */
uint32_t ual_pcap_frac_over_ns(int64_t tv_nsec, int usec);
/* What a reader says once, at the first such record: "microsecond pcap
 * with a fraction of 1234567 (> 999999): read as 1.234567 s past the
 * record's second"; read_us: the microseconds the
 * reader added to the record's second. Returns snprintf's count. */
int ual_pcap_frac_note(char *buf, size_t cap, uint32_t frac, int64_t read_us);

/* Only the record's captured length, for framing ahead. */
uint32_t ual_pcap_rec_caplen(const uint8_t h[UAL_PCAP_REC_HDR], bool swapped);

#endif
