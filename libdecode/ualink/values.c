/* Value names of the UALink fields (ualink/fields.h). */
#include "ualink/core/fields.h"
#include "ualink/ualink/dlmsg.h"

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
const struct ual_value_name ual_vals_os_type[] = {
  {0, "TS1"}, {1, "TS2"}, {2, "EIOS"}, {3, "EIEOS"}, {4, "SKP"}, {5, "SDS"}, {6, "Unknown"}, END };
