/* pcap file and record headers: a header as libpcap writes it (nanosecond,
 * little-endian, USER0), the same in big-endian, the microsecond magic,
 * and what is not a pcap file. */
#include "check.h"
#include "ualink/core/pcapfile.h"

static const uint8_t le_nsec[UAL_PCAP_FILE_HDR] = {
  0x4d, 0x3c, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0x00, 0x00, 0x04, 0x00,   /* snaplen 262144 */
  147, 0, 0, 0,             /* LINKTYPE_USER0 */
};

static const uint8_t be_usec[UAL_PCAP_FILE_HDR] = {
  0xa1, 0xb2, 0xc3, 0xd4, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0,
  0x00, 0x00, 0xff, 0xff,   /* snaplen 65535 */
  0x10, 0, 0, 1,            /* link type 1 with FCS bits set above bit 27 */
};

/* A pcap 2.4 header with these fields. */
static void check_file(const uint8_t *h, bool swapped, bool nsec, uint32_t snaplen, uint32_t linktype) {
  struct ual_pcap_file pf;
  CHECK(ual_pcap_file_parse(h, &pf));
  CHECK_EQ(pf.swapped, swapped);
  CHECK_EQ(pf.nsec, nsec);
  CHECK_EQ(pf.major, 2);
  CHECK_EQ(pf.minor, 4);
  CHECK_EQ(pf.snaplen, snaplen);
  CHECK_EQ(pf.linktype, linktype);
}

static void test_file(void) {
  check_file(le_nsec, false, true, 262144u, 147u);
  check_file(be_usec, true, false, 65535u, 0x10000001u);
  struct ual_pcap_file pf;
  uint8_t ng[UAL_PCAP_FILE_HDR] = { 0x0a, 0x0d, 0x0d, 0x0a }; /* a pcapng section header block */
  CHECK(!ual_pcap_file_parse(ng, &pf));
  uint8_t kuz[UAL_PCAP_FILE_HDR] = { 0x34, 0xcd, 0xb2, 0xa1 }; /* Kuznetzov's modified pcap */
  CHECK(!ual_pcap_file_parse(kuz, &pf));
}

static void test_record(void) {
  static const uint8_t le[UAL_PCAP_REC_HDR] = { 0x10, 0, 0, 0, 0x2a, 0, 0, 0, 0x08, 0x01, 0, 0, 0x10, 0x01, 0, 0 };
  static const uint8_t be[UAL_PCAP_REC_HDR] = { 0, 0, 0, 0x10, 0, 0, 0, 0x2a, 0, 0, 0x01, 0x08, 0, 0, 0x01, 0x10 };
  struct ual_pcap_rec r;
  ual_pcap_rec_parse(le, false, &r);
  CHECK_EQ(r.sec, 16u);
  CHECK_EQ(r.frac, 42u);
  CHECK_EQ(r.caplen, 264u);
  CHECK_EQ(r.len, 272u);
  CHECK_EQ(ual_pcap_rec_caplen(le, false), 264u);
  struct ual_pcap_rec s;
  ual_pcap_rec_parse(be, true, &s);
  CHECK_MEM(&s, &r, sizeof r);
  CHECK_EQ(ual_pcap_rec_caplen(be, true), 264u);
}

int main(void) {
  test_file();
  test_record();
  return check_done("test_pcapfile");
}
