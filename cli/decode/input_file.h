/* The regular-file backend of the pcap input (input.c): a pcap file is read
 * in large blocks with pread(2) and its records are framed here, in place,
 * with libpcap 1.10's checks and messages; streams, pcapng, old pcap
 * versions and other link types stay with libpcap. UALINK_LIBPCAP=1 in the environment turns the
 * backend off (tests compare the two paths). */
#ifndef UAL_DC_INPUT_FILE_H
#define UAL_DC_INPUT_FILE_H

#include <sys/types.h>

#include "input.h"
#include "ualink/core/pcapfile.h"

#define DC_FILE_REC_HDR UAL_PCAP_REC_HDR
#define DC_PCAP_MAX_SNAP 262144u                 /* libpcap's max_snaplen_for_dlt of the USER link types */
#define DC_FILE_MAX_REC (DC_FILE_REC_HDR + DC_PCAP_MAX_SNAP) /* a pcap record at libpcap's largest caplen */
#define DC_FILE_READ    (256u << 10)           /* bytes per read */
#define DC_FILE_BLOCK   (DC_FILE_READ + DC_FILE_MAX_REC) /* a read after the tail of the last one */

struct dc_lpcap;
/* After libpcap accepted the file header: takes the file over when it can
 * (in->fb set). */
bool dc_file_open(struct dc_input *in, const struct dc_lpcap *L);
/* Without libpcap: takes the file over when its header is a pcap 2.4 one of
 * link type dlt (in->fb set); any other header is left to libpcap. */
bool dc_file_open_header(struct dc_input *in, int fd, int dlt);
void dc_file_close(struct dc_input *in);

/* A framed record: at p + 16, len bytes (cut to the snapshot length), used
 * bytes of the file in all. */
struct dc_frame {
  size_t used, len;
  uint64_t ts_ns;
  uint32_t wire_len;
  uint32_t frac_over;   /* a microsecond file's fraction above 999999, else 0 */
};
/* One record framed from p[0..avail): DC_NEXT_RECORD, or EOF, TRUNC or LOST
 * (the message in msg), or DC_FILE_MORE when the record is not all in p yet
 * and the file has more (at_eof false). Reads only the settings of in: any
 * thread may frame. */
#define DC_FILE_MORE (-1)
#define DC_FILE_MSG  320
int dc_file_frame(const struct dc_input *in, const uint8_t *p, size_t avail, bool at_eof, struct dc_frame *fr,
                  char msg[DC_FILE_MSG]);
/* Bytes the record at p[0..avail) needs in all: its pcap header (16) while
 * that is not all there, else the header and the captured length. */
size_t dc_file_need(const struct dc_input *in, const uint8_t *p, size_t avail);
/* Reads file bytes [off, off + cap) into buf, fewer at the end of the file:
 * bytes read, or -1 on a read error (msg). Any thread may read. */
ssize_t dc_file_pread(const struct dc_input *in, uint8_t *buf, size_t cap, uint64_t off, char msg[DC_FILE_MSG]);
/* Offset of the first record. */
#define DC_FILE_FIRST UAL_PCAP_FILE_HDR

/* dc_input_next and dc_input_pos of the backend. */
enum dc_next dc_file_next(struct dc_input *in, const uint8_t **rec, size_t *len, uint64_t *ts_ns);
uint64_t dc_file_pos(const struct dc_input *in);
/* The next record is read from file offset off (a record start). */
void dc_file_seek(struct dc_input *in, uint64_t off);

#endif
