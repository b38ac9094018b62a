/* UALink's part of the presentation model (core/views.h): what it counts
 * of the selected records of a link, per direction. Its registration,
 * ual_view_ualink, is in ualink/views.c. */
#ifndef UALINK_UALINK_VIEWS_H
#define UALINK_UALINK_VIEWS_H

#include <stdint.h>
#include "ualink/ualink/dlmsg.h"

struct ual_ualink_dir_tally {
  uint64_t flits, os;
  uint64_t usage[4];            /* enum ual_flit_kind */
  uint64_t crc_ok, crc_bad, crc_inverted;
  uint64_t fec[3];              /* enum ual_fec_status */
  uint64_t replay_cmd[4];       /* valid payload and NOP flits */
  uint64_t tl_started, tl_flits;
  uint64_t dl_msgs[UAL_MT_COUNT];
  uint64_t uart_payload_dw;
};

struct ual_ualink_tally {
  struct ual_ualink_dir_tally d[2];
};

#endif
