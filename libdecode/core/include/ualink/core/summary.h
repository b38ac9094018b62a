/* One-line summaries of a decoded record, shared by the CLI, the TUI and the
 * Wireshark Info column. */
#ifndef UALINK_CORE_SUMMARY_H
#define UALINK_CORE_SUMMARY_H

#include <stddef.h>
#include "ualink/core/decode.h"

/* "payload seq 17 | TL+2 TL-1 | LinkWidth Request x8 | ..." style content:
 * flit kind, sequence/replay command, FEC/CRC status when not clean, TL flits
 * started (+) and completed (-), DL messages, DLLP; or the ordered set / event.
 * Returns the length written (truncated to cap-1). */
int ual_rec_summary(const struct ual_rec_result *r, char *buf, size_t cap);
/* Space-separated rule IDs of the findings ("" when none). */
int ual_rec_rules(const struct ual_rec_result *r, char *buf, size_t cap);

#endif
