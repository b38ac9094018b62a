/* -w FILE: the selected records written back as a pcap (nanosecond
 * timestamps, the input's link type), as tshark -w and tcpdump -w do. */
#ifndef UAL_DC_SAVE_H
#define UAL_DC_SAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dc_save;

/* path "-" is standard output. NULL on failure, with a message naming path in err. */
struct dc_save *dc_save_open(const char *path, int dlt, char *err, size_t cap);
void dc_save_record(struct dc_save *s, const uint8_t *rec, size_t len, uint32_t wire_len, uint64_t ts_ns);
/* Flushes and closes; false when a write failed (errno says why). */
bool dc_save_close(struct dc_save *s);

#endif
