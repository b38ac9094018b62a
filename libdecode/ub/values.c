/* Value names of the UB fields (ub/fields.h). */
#include "ualink/core/fields.h"
#include "ualink/ub/flit.h"

#define END { 0, NULL }

const struct ual_value_name ual_vals_ub_cfg[] = {
  {0, "DLLCB"}, {3, "DLLDP (CFG 3)"}, {4, "DLLDP (CFG 4)"}, {5, "DLLDP (CFG 5)"}, {6, "DLLDP (CFG 6)"},
  {7, "DLLDP (CFG 7)"}, {9, "DLLDP (CFG 9)"}, END };
const struct ual_value_name ual_vals_ub_cb_type[] = {
#define UAL_X_(e, code, name, lo, hi, ctrl) { code, name },
  UAL_UB_CB_TYPES(UAL_X_)
#undef UAL_X_
  END };
const struct ual_value_name ual_vals_ub_modechg[] = { {0, "REQ"}, {1, "ACK"}, END };
const struct ual_value_name ual_vals_ub_lane_w[] = { {1, "X1"}, {2, "X2"}, {4, "X4"}, {8, "X8"}, END };
const struct ual_value_name ual_vals_ub_ack_nak[] = { {0, "NAK"}, {1, "ACK"}, END };
const struct ual_value_name ual_vals_ub_role[] = {
  {0, "unsynced"}, {1, "LPH (DLLDB 0)"}, {2, "LBH (later DLLDB)"}, {3, "LCH (DLLCB)"}, {4, "body"}, END };
const struct ual_value_name ual_vals_ub_mode[] = { {0, "unknown"}, {1, "CRC"}, {2, "non-CRC"}, END };
const struct ual_value_name ual_vals_ub_unit[] = { {0, "none"}, {1, "DLLDP"}, {2, "DLLCB"}, END };
