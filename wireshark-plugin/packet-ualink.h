/* UALink 128G Wireshark plugin: what the dissector and the statistics share. */
#ifndef UAL_WS_PACKET_UALINK_H
#define UAL_WS_PACKET_UALINK_H

#include <wireshark.h>
#include <epan/packet.h>

#include "ualink/decode.h"

/* Name of the tap; its data is the struct ual_rec_result of the record,
 * allocated in the packet scope. */
#define UAL_WS_TAP "ualink"

void proto_register_ualink(void);
void proto_reg_handoff_ualink(void);
/* Registers the statistics (stats tree and "-z ualink,stat"). */
void ual_ws_register_stats(void);

#endif
