/* DL messages: one 32-bit DWord in an alternate sector (digest §3, §2.4).
 *
 *  31            9 8   6 5     2  1   0
 * +---------------+-----+-------+----+---+
 * | type specific |mtype|mclass |rsvd|Cmp|
 * +---------------+-----+-------+----+---+   Tables 2-4 .. 2-16
 */
#ifndef UALINK_UALINK_DLMSG_H
#define UALINK_UALINK_DLMSG_H

#include <stdint.h>
#include <stdbool.h>
#include "ualink/core/fields.h"
#include "ualink/core/rules.h"

#define UAL_MCLASS_BASIC   0x0
#define UAL_MCLASS_UART    0x1
#define UAL_MCLASS_CONTROL 0x8

/* X(enum suffix, mclass, mtype, "json name", "Display name", "short label", scope) */
#define UAL_MSG_TYPES(X) \
  X(NOOP,           UAL_MCLASS_BASIC,   0, "no_op",          "No-Op", "No-Op",                          UAL_SC_MSG_NOOP) \
  X(TL_RATE,        UAL_MCLASS_BASIC,   4, "tl_rate",        "TL Rate Notification", "TLRate",          UAL_SC_MSG_TL_RATE) \
  X(DEVICE_ID,      UAL_MCLASS_BASIC,   5, "device_id",      "Device ID", "DeviceID",                   UAL_SC_MSG_DEVICE_ID) \
  X(PORT_NUMBER,    UAL_MCLASS_BASIC,   6, "port_number",    "Port Number", "PortNumber",               UAL_SC_MSG_PORT_NUMBER) \
  X(LINK_WIDTH,     UAL_MCLASS_CONTROL, 0, "link_width",     "Link Width", "LinkWidth",                 UAL_SC_MSG_LINK_WIDTH) \
  X(LINK_SPEED,     UAL_MCLASS_CONTROL, 1, "link_speed",     "Link Speed", "LinkSpeed",                 UAL_SC_MSG_LINK_SPEED) \
  X(LINK_STATE,     UAL_MCLASS_CONTROL, 2, "link_state",     "Link State", "LinkState",                 UAL_SC_MSG_LINK_STATE) \
  X(CHANNEL,        UAL_MCLASS_CONTROL, 4, "channel",        "Channel Online/Offline", "Channel",       UAL_SC_MSG_CHANNEL) \
  X(UART_TRANSPORT, UAL_MCLASS_UART,    0, "uart_transport", "UART Stream Transport", "UART Transport", UAL_SC_MSG_UART_TRANSPORT) \
  X(UART_CREDIT,    UAL_MCLASS_UART,    1, "uart_credit",    "UART Credit Update", "UART Credit",       UAL_SC_MSG_UART_CREDIT) \
  X(UART_RESET_REQ, UAL_MCLASS_UART,    6, "uart_reset_req", "UART Reset Request", "UART ResetReq",     UAL_SC_MSG_UART_RESET_REQ) \
  X(UART_RESET_RSP, UAL_MCLASS_UART,    7, "uart_reset_rsp", "UART Reset Response", "UART ResetRsp",    UAL_SC_MSG_UART_RESET_RSP)

enum ual_msg_type {
#define UAL_X_(e, ...) UAL_MT_##e,
  UAL_MSG_TYPES(UAL_X_)
#undef UAL_X_
  UAL_MT_RESERVED,
  UAL_MT_COUNT
};

struct ual_msg_type_info {
  uint8_t mclass, mtype;
  const char *json;       /* "tl_rate"; "reserved" for UAL_MT_RESERVED */
  const char *display;
  const char *label;      /* compact, for one-line output */
  uint8_t scope;          /* enum ual_scope of its own fields */
};
extern const struct ual_msg_type_info ual_msg_types[UAL_MT_COUNT];
const char *ual_mclass_name(unsigned mclass); /* "basic", "control", "uart", "reserved" */

/* Control Command codes */
#define UAL_CMD_REQUEST 0x4
#define UAL_CMD_ACK     0x6
#define UAL_CMD_NACK    0x7
#define UAL_CMD_PENDING 0x8
const char *ual_ctrl_cmd_name(unsigned cmd); /* "request", "ack", "nack", "pending", "reserved" */
/* Link Width and Link Speed TargetState codes (Tables 2-8, 2-9). */
const char *ual_width_code_name(int code);   /* "x1".."x8", "?" */
const char *ual_speed_code_name(int code);   /* "2.5", "32.0", "64.0", "ESM", "?" */

/* Channel TargetState/Response: bit 3 online, bits 2:0 channel ID */
#define UAL_CHAN_ONLINE 0x8
#define UAL_CHAN_TL     0
#define UAL_CHAN_UART   4

/* TL rate units: 50 kHz per LSB */
#define UAL_RATE_REF   2000
#define UAL_RATE_FULL  40000

#define UAL_UART_MAX_PAYLOAD 32

/* A decoded message; fields not used by its type are 0. */
struct ual_dlmsg {
  uint32_t dw;
  uint8_t type;           /* enum ual_msg_type */
  uint8_t mclass, mtype, compressed;
  uint8_t ack;            /* tl_rate, device_id, port_number */
  uint16_t rate;          /* tl_rate */
  uint16_t id;            /* device_id */
  uint8_t dev_type;       /* device_id */
  uint8_t valid;          /* device_id, port_number */
  uint16_t port;          /* port_number */
  uint8_t priority;       /* link_width/speed/state */
  uint8_t target, command, response;  /* control and channel */
  uint8_t stream;         /* uart */
  uint8_t all_streams;    /* uart reset */
  uint8_t status;         /* uart reset response */
  uint8_t length;         /* uart transport: payload DWords - 1 */
  uint16_t data_fc_seq;   /* uart credit */
};

enum ual_msg_type ual_msg_classify(unsigned mclass, unsigned mtype);
void ual_dlmsg_decode(uint32_t dw, struct ual_dlmsg *m);
/* Encodes from type and fields (reserved bits 0). */
uint32_t ual_dlmsg_encode(const struct ual_dlmsg *m);
/* Stateless checks: DM-COMPRESSED, DM-UNKNOWN, DM-RESERVED, DM-FIELD,
 * DM-RATE-RANGE, DM-ID-FIELD, and the parts of DM-CTRL-ECHO one message
 * shows (Request with non-zero Response, Decision Pending with non-zero
 * TargetState). segment is passed through to the findings. */
void ual_dlmsg_check(const struct ual_dlmsg *m, int segment, struct ual_findings *f);
/* Short text, e.g. "LinkWidth Request x8 prio" (for one-line output); returns the
 * length it needed, like snprintf. */
int ual_dlmsg_summary(const struct ual_dlmsg *m, char *buf, size_t cap);

/* Vendor Defined Packet header in the UART byte stream (Figure 2-16). */
struct ual_vdp_hdr { uint16_t n_payload; uint8_t type; uint16_t vendor_id; };
void ual_vdp_decode(uint32_t dw, struct ual_vdp_hdr *h);  /* n_payload = Length + 1 */
uint32_t ual_vdp_encode(const struct ual_vdp_hdr *h);

#endif
