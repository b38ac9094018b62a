/* Value names of the UALink fields (ualink/fields.h). */
#include "ualink/core/fields.h"
#include "ualink/ualink/dlmsg.h"
#include "ualink/ualink/os.h"

#define END { 0, NULL }

const struct ual_value_name ual_vals_fh_usage[] = { {0, "NOP/IDLE"}, {2, "Payload"}, END };
const struct ual_value_name ual_vals_prior[] = { {0, "NOP/IDLE"}, {1, "Payload"}, END };
const struct ual_value_name ual_vals_replay_cmd[] = {
  {0, "Explicit sequence number"}, {1, "Ack"}, {2, "Nak (replay all)"}, {3, "Nak (selective)"}, END };
const struct ual_value_name ual_vals_tlbeat[] = {
  {0x00, "No TL flit start"}, {0x0F, "TL flit (M0=0 M1=0)"}, {0x12, "TL flit (M1=1)"},
  {0x1B, "TL flit (M0=1)"}, {0x1E, "TL flit (M0=1 M1=1)"}, END };
const struct ual_value_name ual_vals_mclass[] = { {0x0, "Basic"}, {0x1, "UART"}, {0x8, "Control"}, END };
const struct ual_value_name ual_vals_ack[] = { {0, "Request"}, {1, "Response"}, END };
const struct ual_value_name ual_vals_dev_type[] = { {0, "Switch"}, {1, "Accelerator"}, END };
const struct ual_value_name ual_vals_valid[] = { {0, "Not valid"}, {1, "Valid"}, END };
const struct ual_value_name ual_vals_ctrl_cmd[] = {
  {0x4, "Request"}, {0x6, "Ack"}, {0x7, "Nack"}, {0x8, "Decision Pending"}, END };
const struct ual_value_name ual_vals_width[] = { {0, "x1"}, {1, "x2"}, {2, "x4"}, {3, "x8"}, END };
const struct ual_value_name ual_vals_speed[] = {
  {0, "2.5 GT/s"}, {1, "32.0 GT/s"}, {2, "64.0 GT/s"}, {3, "ESM"}, END };
const struct ual_value_name ual_vals_state[] = { {0, "L0"}, {1, "L1"}, END };
const struct ual_value_name ual_vals_channel[] = {
  {0x0, "ch0 (TL) offline"}, {0x4, "ch4 (UART) offline"},
  {0x8, "ch0 (TL) online"}, {0xC, "ch4 (UART) online"}, END };
const struct ual_value_name ual_vals_stream[] = { {0, "Stream 0"}, END };
const struct ual_value_name ual_vals_status[] = { {0, "Success"}, END };
const struct ual_value_name ual_vals_os_encoding[] = { {0, "8b/10b"}, {1, "128b/130b"}, {2, "1b/1b"}, END };
const struct ual_value_name ual_vals_mts_usage[] = {
  {0, "PCIe protocol only"}, {1, "Training Set Message"}, {2, "Alternate Protocol"}, END };
const struct ual_value_name ual_vals_flit_kind[] = {
  {0, "Payload"}, {1, "NOP"}, {2, "IDLE"}, {3, "Reserved"}, END };
const struct ual_value_name ual_vals_msg_type[] = {
#define UAL_X_(e, mc, mt, json, disp, label, sc) { UAL_MT_##e, disp },
  UAL_MSG_TYPES(UAL_X_)
#undef UAL_X_
  { UAL_MT_RESERVED, "Reserved" }, END };
const struct ual_value_name ual_vals_fec_status[] = {
  {0, "Clean"}, {1, "Corrected"}, {2, "Uncorrectable"}, END };
/* TS symbol 4 bits 6:1, one bit a rate (PCIe 6.4 4.2.5: bit 1 2.5 GT/s ...
 * bit 6 64.0 GT/s, which ESM's rates also use, §3.5): every combination,
 * so that each front-end shows the set by name from this list. */
const struct ual_value_name ual_vals_ts_speeds[] = {
  {0x00, "none"}, {0x01, "2.5 GT/s"}, {0x02, "5 GT/s"}, {0x03, "2.5/5 GT/s"}, {0x04, "8 GT/s"},
  {0x05, "2.5/8 GT/s"}, {0x06, "5/8 GT/s"}, {0x07, "2.5/5/8 GT/s"}, {0x08, "16 GT/s"}, {0x09, "2.5/16 GT/s"},
  {0x0a, "5/16 GT/s"}, {0x0b, "2.5/5/16 GT/s"}, {0x0c, "8/16 GT/s"}, {0x0d, "2.5/8/16 GT/s"},
  {0x0e, "5/8/16 GT/s"}, {0x0f, "2.5/5/8/16 GT/s"}, {0x10, "32 GT/s"}, {0x11, "2.5/32 GT/s"},
  {0x12, "5/32 GT/s"}, {0x13, "2.5/5/32 GT/s"}, {0x14, "8/32 GT/s"}, {0x15, "2.5/8/32 GT/s"},
  {0x16, "5/8/32 GT/s"}, {0x17, "2.5/5/8/32 GT/s"}, {0x18, "16/32 GT/s"}, {0x19, "2.5/16/32 GT/s"},
  {0x1a, "5/16/32 GT/s"}, {0x1b, "2.5/5/16/32 GT/s"}, {0x1c, "8/16/32 GT/s"}, {0x1d, "2.5/8/16/32 GT/s"},
  {0x1e, "5/8/16/32 GT/s"}, {0x1f, "2.5/5/8/16/32 GT/s"}, {0x20, "64 GT/s"}, {0x21, "2.5/64 GT/s"},
  {0x22, "5/64 GT/s"}, {0x23, "2.5/5/64 GT/s"}, {0x24, "8/64 GT/s"}, {0x25, "2.5/8/64 GT/s"},
  {0x26, "5/8/64 GT/s"}, {0x27, "2.5/5/8/64 GT/s"}, {0x28, "16/64 GT/s"}, {0x29, "2.5/16/64 GT/s"},
  {0x2a, "5/16/64 GT/s"}, {0x2b, "2.5/5/16/64 GT/s"}, {0x2c, "8/16/64 GT/s"}, {0x2d, "2.5/8/16/64 GT/s"},
  {0x2e, "5/8/16/64 GT/s"}, {0x2f, "2.5/5/8/16/64 GT/s"}, {0x30, "32/64 GT/s"}, {0x31, "2.5/32/64 GT/s"},
  {0x32, "5/32/64 GT/s"}, {0x33, "2.5/5/32/64 GT/s"}, {0x34, "8/32/64 GT/s"}, {0x35, "2.5/8/32/64 GT/s"},
  {0x36, "5/8/32/64 GT/s"}, {0x37, "2.5/5/8/32/64 GT/s"}, {0x38, "16/32/64 GT/s"}, {0x39, "2.5/16/32/64 GT/s"},
  {0x3a, "5/16/32/64 GT/s"}, {0x3b, "2.5/5/16/32/64 GT/s"}, {0x3c, "8/16/32/64 GT/s"},
  {0x3d, "2.5/8/16/32/64 GT/s"}, {0x3e, "5/8/16/32/64 GT/s"}, {0x3f, "2.5/5/8/16/32/64 GT/s"}, END };
/* Link and Lane Number: PAD (K23.7 at 8b/10b, F7h at 128b/130b). */
const struct ual_value_name ual_vals_ts_number[] = { {UAL_K23_7, "PAD"}, END };
const struct ual_value_name ual_vals_os_type[] = {
  {0, "TS1"}, {1, "TS2"}, {2, "EIOS"}, {3, "EIEOS"}, {4, "SKP"}, {5, "SDS"}, {6, "Unknown"}, END };
