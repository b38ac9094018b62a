/* Value names of the PCIe fields (fields.h). The type names come from the
 * one type table (dllp.h); the FC types are listed for VC 0-7. */
#include "ualink/core/fields.h"
#include "ualink/pcie/dllp.h"
#include "ualink/pcie/tlp.h"
#include "ualink/pcie/nonflit.h"

#define END { 0, NULL }

const struct ual_value_name ual_vals_pcie_framing[] = {
  { UAL_PCIE_FR_END, "8b/10b SDP..END" }, { UAL_PCIE_FR_EDB, "8b/10b SDP..EDB" },
  { UAL_PCIE_FR_SDP128, "128b/130b SDP token" }, { UAL_PCIE_FR_UNKNOWN, "unknown" }, END };

#define VC8_(c, n) { (c), n }, { (c) + 1, n }, { (c) + 2, n }, { (c) + 3, n }, \
                   { (c) + 4, n }, { (c) + 5, n }, { (c) + 6, n }, { (c) + 7, n },
#define ONE_0xFF(c, n) { (c), n },
#define ONE_0xF0(c, n) VC8_(c, n)
#define ONE_0xF8(c, n) VC8_(c, n)
const struct ual_value_name ual_vals_pcie_dllp_type[] = {
#define UAL_X_(e, n, c, m, l, cl, st) ONE_##m(c, n)
  UAL_PCIE_DLLP_TYPES(UAL_X_)
#undef UAL_X_
  END };

/* Flit mode: the flit-only types, then the table's without Ack/Nak. */
#define FL_ACK(c, m, n)
#define FL_FC(c, m, n) ONE_##m(c, n)
#define FL_PM(c, m, n) ONE_##m(c, n)
#define FL_RAW(c, m, n) ONE_##m(c, n)
const struct ual_value_name ual_vals_pcie_fdllp_type[] = {
#define UAL_X_(e, n, c, l) { c, n },
  UAL_PCIE_FDLLP_ONLY(UAL_X_)
#undef UAL_X_
#define UAL_X_(e, n, c, m, l, cl, st) FL_##l(c, m, n)
  UAL_PCIE_DLLP_TYPES(UAL_X_)
#undef UAL_X_
  END };

const struct ual_value_name ual_vals_pcie_lm_type[] = { { 0x00, "L0p" }, END };
const struct ual_value_name ual_vals_pcie_lm_cmd[] = { { 0x4, "Request" }, { 0x6, "Ack" }, { 0x7, "Nak" }, END };

/* The named TLP types of the one Type table (tlp.h). */
#define TLP_VAL_1(lo, n) { lo, n },
#define TLP_VAL_0(lo, n)
const struct ual_value_name ual_vals_pcie_tlp_type[] = {
#define UAL_X_(lo, hi, named, n, fc, data, base, rt, h, nf) TLP_VAL_##named(lo, n)
  UAL_PCIE_TLP_TYPES(UAL_X_)
#undef UAL_X_
  END };

const struct ual_value_name ual_vals_pcie_ts[] = {
  { 0, "none" }, { 1, "1 DW (ECRC)" }, { 2, "1 DW" }, { 3, "2 DW" }, { 4, "2 DW" }, { 5, "3 DW" }, { 6, "4 DW" },
  { 7, "5 DW" }, END };
const struct ual_value_name ual_vals_pcie_cpl_status[] = {
  { 0, "Successful Completion" }, { 1, "Unsupported Request" }, { 2, "Config Request Retry Status" },
  { 4, "Completer Abort" }, END };
const struct ual_value_name ual_vals_pcie_substream[] = {
  { 0, "IDE 000b" }, { 1, "IDE 001b" }, { 2, "IDE 010b" }, { 7, "non-IDE" }, END };

/* [P8] */
const struct ual_value_name ual_vals_pcie_scale[] = {
  { 0, "no scaling" }, { 1, "x1" }, { 2, "x4" }, { 3, "x16" }, END };

const struct ual_value_name ual_vals_pcie_fc_class[] = {
  { UAL_PCIE_P, "P" }, { UAL_PCIE_NP, "NP" }, { UAL_PCIE_CPL, "Cpl" }, { UAL_PCIE_MR, "MR" }, END };

const struct ual_value_name ual_vals_pcie_link[] = {
  { UAL_PCIE_LK_REQ, "request" }, { UAL_PCIE_LK_REQ_UNTRACKED, "request (not tracked)" },
  { UAL_PCIE_LK_CPL, "completion" }, { UAL_PCIE_LK_CPL_PART, "split completion part" },
  { UAL_PCIE_LK_CPL_UNMATCHED, "completion without request" }, END };

/* Non-flit packets, kind 7 (nonflit.h, pcie.md §7) */
const struct ual_value_name ual_vals_pcie_nf_encoding[] = {
  { UAL_PCIE_NF_8B10B, "8b/10b" }, { UAL_PCIE_NF_128B, "128b/130b" }, { UAL_PCIE_NF_STRIPPED, "framing stripped" }, END };
const struct ual_value_name ual_vals_pcie_nf_class[] = {
  { UAL_PCIE_NF_CL_FRAMING, "from the framing" }, { UAL_PCIE_NF_CL_TLP, "TLP" }, { UAL_PCIE_NF_CL_DLLP, "DLLP" }, END };
const struct ual_value_name ual_vals_pcie_k_symbol[] = {
  { UAL_PCIE_K_STP, "STP" }, { UAL_PCIE_K_SDP, "SDP" }, { UAL_PCIE_K_END, "END" }, { UAL_PCIE_K_EDB, "EDB" },
  { 0xF7, "PAD" }, END };
/* Byte 0 names: the flit-mode table's non-flit types (MRd32 at 00h), then
 * the non-flit-only ones. */
#define NF_VAL_1(lo, n) { (lo) == 0x03 ? 0x00 : (lo), n },
#define NF_VAL_0(lo, n)
const struct ual_value_name ual_vals_pcie_nf_type[] = {
#define UAL_X_(lo, hi, named, n, fc, data, base, rt, h, nf) NF_VAL_##nf(lo, n)
  UAL_PCIE_TLP_TYPES(UAL_X_)
#undef UAL_X_
#define UAL_X_(c, n, k, hd, d, fc, rt) { c, n },
  UAL_PCIE_NF_ONLY_TYPES(UAL_X_)
#undef UAL_X_
  END };
const struct ual_value_name ual_vals_pcie_nf_fmt[] = {
  { 0, "3 DW, no data" }, { 1, "4 DW, no data" }, { 2, "3 DW, data" }, { 3, "4 DW, data" }, { 4, "TLP prefix" }, END };
const struct ual_value_name ual_vals_pcie_nf_at[] = {
  { 0, "untranslated" }, { 1, "translation request" }, { 2, "translated" }, { 3, "reserved" }, END };
const struct ual_value_name ual_vals_pcie_msg_code[] = {
#define UAL_X_(c, n, fo, l, r, tc0, b) { c, n },
  UAL_PCIE_MSG_CODES(UAL_X_)
#undef UAL_X_
  END };
const struct ual_value_name ual_vals_pcie_lcrc[] = {
  { UAL_PCIE_LCRC_NONE, "not checked" }, { UAL_PCIE_LCRC_GOOD, "good" }, { UAL_PCIE_LCRC_BAD, "bad" },
  { UAL_PCIE_LCRC_NULLIFIED, "nullified" }, { UAL_PCIE_LCRC_NULLIFIED_BAD, "nullified, LCRC bad" }, END };
const struct ual_value_name ual_vals_pcie_ecrc[] = {
  { UAL_PCIE_ECRC_NONE, "no digest" }, { UAL_PCIE_ECRC_GOOD, "good" }, { UAL_PCIE_ECRC_BAD, "bad" },
  { UAL_PCIE_ECRC_UNCHECKED, "not checked" }, END };
