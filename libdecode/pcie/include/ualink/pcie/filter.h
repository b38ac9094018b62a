/* PCIe's part of the display filters (core/filter.h): the protocol "pcie"
 * (Wireshark 4.0 registers none) and the analysis fields the plugin adds
 * beside the field table's pcie.* rows, in its registration order. The
 * analysis values are the sender's state after the record's step
 * (pcie/analysis.h), absent while unknown. */
#ifndef UALINK_PCIE_FILTER_H
#define UALINK_PCIE_FILTER_H

#include <stdbool.h>
#include "ualink/core/filter.h"
#include "ualink/pcie/analysis.h"

/* X(ID, "Name", "abbrev", type, bytes, base, value list, "blurb") */
#define UAL_FILTER_PCIE_FIELDS(X) \
  X(FC_PHASE, "FC state of the VC", "pcie.analysis.fc_phase", UAL_FT_UINT, 1, UAL_FB_DEC, ual_vals_pcie_fc_phase, "Sender's flow-control phase of the DLLP's VC") \
  X(HDR_FC, "Header credits advertised", "pcie.analysis.hdr_fc", UAL_FT_UINT, 2, UAL_FB_DEC, NULL, "Sender's last HdrFC of the DLLP's VC and class (raw field)") \
  X(DATA_FC, "Data credits advertised", "pcie.analysis.data_fc", UAL_FT_UINT, 2, UAL_FB_DEC, NULL, "Sender's last DataFC of the DLLP's VC and class (raw field)") \
  X(ACK_SEQ, "Last AckNak_Seq_Num", "pcie.analysis.ack_seq", UAL_FT_UINT, 2, UAL_FB_DEC, NULL, "Last Ack/Nak sequence number the sender sent") \
  X(PM_REQ, "PM request pending", "pcie.analysis.pm_req", UAL_FT_UINT, 1, UAL_FB_HEX, ual_vals_pcie_dllp_type, "PM request the sender sent and the other side has not acknowledged")

enum ual_fp {
  UAL_FP_PROTO,
#define UAL_X_(id, ...) UAL_FP_##id,
  UAL_FILTER_PCIE_FIELDS(UAL_X_)
#undef UAL_X_
  UAL_FP_COUNT
};

extern const struct ual_value_name ual_vals_pcie_fc_phase[];
extern const struct ual_filter_field ual_filter_pcie_fields[UAL_FP_COUNT];
extern const struct ual_filter_fabric ual_filter_pcie;

/* Whether a record kind is PCIe's (its tree's first group is the "pcie"
 * protocol item). */
bool ual_pcie_kind(unsigned kind);

/* The analysis values of a record, as the plugin's subtree shows them:
 * known[i] says whether value UAL_FP_<i> is present. */
struct ual_pcie_an_view {
  bool known[UAL_FP_COUNT];
  uint32_t v[UAL_FP_COUNT];
};
void ual_pcie_an_view(const struct ual_pcie_an *s, const struct ual_rec_result *r, struct ual_pcie_an_view *out);

#endif
