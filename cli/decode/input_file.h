/* The regular-file backend of the pcap input (input.c): a pcap file is read
 * in large blocks with pread(2) and its records are framed here, in place,
 * with libpcap 1.10's checks and messages; streams, pcapng and old pcap
 * versions stay with libpcap. UALINK_LIBPCAP=1 in the environment turns the
 * backend off (tests compare the two paths). */
#ifndef UAL_DC_INPUT_FILE_H
#define UAL_DC_INPUT_FILE_H

#include <sys/types.h>

#include "input.h"

#define DC_FILE_MAX_REC (16u + 262144u)          /* pcap record header + libpcap's largest caplen */
#define DC_FILE_READ    (1u << 20)               /* bytes per read */
#define DC_FILE_BLOCK   (DC_FILE_READ + DC_FILE_MAX_REC) /* a read after the tail of the last one */

/* After libpcap accepted the file header: takes the file over when it can
 * (in->fb set). */
bool dc_file_open(struct dc_input *in);
void dc_file_close(struct dc_input *in);

/* One record framed from p[0..avail): DC_NEXT_RECORD with the record at
 * p + 16 (*rec_len bytes; *used bytes of the input consumed), EOF, TRUNC or
 * LOST (in->msg), or DC_FILE_MORE when the record is not all in p yet and
 * the input has more (at_eof false). */
#define DC_FILE_MORE (-1)
int dc_file_frame(struct dc_input *in, const uint8_t *p, size_t avail, bool at_eof, size_t *used, size_t *rec_len,
                  uint64_t *ts_ns);
/* Reads the next bytes of the file into buf[0..cap): bytes read, 0 at the
 * end, -1 on a read error (in->msg). */
ssize_t dc_file_read(struct dc_input *in, uint8_t *buf, size_t cap);

/* dc_input_next and dc_input_pos of the backend. */
enum dc_next dc_file_next(struct dc_input *in, const uint8_t **rec, size_t *len, uint64_t *ts_ns);
uint64_t dc_file_pos(const struct dc_input *in);

#endif
