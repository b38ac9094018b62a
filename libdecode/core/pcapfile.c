/* pcap file and record headers (pcapfile.h). */
#include "ualink/core/pcapfile.h"

#include <stdio.h>
#include <string.h>

static uint32_t rd32(const uint8_t *p, bool swapped) {
  uint32_t v;
  memcpy(&v, p, 4);
  return swapped ? __builtin_bswap32(v) : v;
}

static uint16_t rd16(const uint8_t *p, bool swapped) {
  uint16_t v;
  memcpy(&v, p, 2);
  return swapped ? __builtin_bswap16(v) : v;
}

bool ual_pcap_file_parse(const uint8_t h[UAL_PCAP_FILE_HDR], struct ual_pcap_file *pf) {
  uint32_t m = rd32(h, false);
  pf->swapped = m != UAL_PCAP_MAGIC_USEC && m != UAL_PCAP_MAGIC_NSEC;
  m = rd32(h, pf->swapped);
  if (m != UAL_PCAP_MAGIC_USEC && m != UAL_PCAP_MAGIC_NSEC) return false;
  pf->nsec = m == UAL_PCAP_MAGIC_NSEC;
  pf->major = rd16(h + 4, pf->swapped);
  pf->minor = rd16(h + 6, pf->swapped);
  pf->snaplen = rd32(h + 16, pf->swapped);
  pf->linktype = rd32(h + 20, pf->swapped);
  return true;
}

void ual_pcap_rec_parse(const uint8_t h[UAL_PCAP_REC_HDR], bool swapped, struct ual_pcap_rec *r) {
  r->sec = rd32(h, swapped);
  r->frac = rd32(h + 4, swapped);
  r->caplen = rd32(h + 8, swapped);
  r->len = rd32(h + 12, swapped);
}

uint32_t ual_pcap_rec_caplen(const uint8_t h[UAL_PCAP_REC_HDR], bool swapped) { return rd32(h + 8, swapped); }

uint32_t ual_pcap_frac_over_ns(int64_t tv_nsec, int usec) {
  if (!usec || tv_nsec % 1000) return 0;
  uint32_t frac = (uint32_t)(int32_t)(tv_nsec / 1000);
  return frac > UAL_PCAP_USEC_MAX ? frac : 0;
}

int ual_pcap_frac_note(char *buf, size_t cap, uint32_t frac, int64_t read_us) {
  uint64_t a = read_us < 0 ? (uint64_t)-read_us : (uint64_t)read_us;
  return snprintf(buf, cap, "microsecond pcap with a fraction of %u (> %u): read as %llu.%06u s %s the record's second", frac, UAL_PCAP_USEC_MAX, (unsigned long long)(a / 1000000u),
                  (unsigned)(a % 1000000u), read_us < 0 ? "before" : "past");
}
