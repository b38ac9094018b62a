/* The record kinds PCIe decodes (kind 4, non-flit DLLP; kind 5, PCIe flit;
 * kind 7, non-flit TLP or DLLP as framed), its timeline event
 * kinds and its stateful analysis (core/analysis.h). Pure X-macro lists
 * with no includes, registered in core/fabrics.h. */
#ifndef UALINK_PCIE_KINDS_H
#define UALINK_PCIE_KINDS_H

#define UAL_PCIE_KINDS(X) X(UAL_REC_PCIE_DLLP, ual_kind_pcie_dllp) X(UAL_REC_PCIE_FLIT, ual_kind_pcie_flit) \
  X(UAL_REC_PCIE_NF, ual_kind_pcie_nf)

/* X(enum suffix, "json name") */
#define UAL_PCIE_TEV_KINDS(X) \
  X(PCIE_FC, "pcie_fc")   /* a VC's FC state of one side: value = enum ual_pcie_fc_phase, old = VC */ \
  X(PCIE_PM, "pcie_pm")   /* a PM DLLP starting or answering a handshake: value = DLLP type */ \
  X(PCIE_DL, "pcie_dl")   /* non-flit DL of one side: value 1 synchronized, 2 DL initialization (link-wide), 0 desynchronized */ \
  X(PCIE_REPLAY, "pcie_replay")   /* a non-flit replay begins: value = its first sequence number, old = 1 after a Nak */ \
  X(PCIE_L23, "pcie_l23") /* electrical idle after an acknowledged PM_Enter_L23: value 1 = L2/L3 Ready entry */

#define UAL_PCIE_ANALYSES(X) X(pcie)
#define UAL_PCIE_ANALYSIS_KINDS(X) X(UAL_REC_PCIE_DLLP, pcie) X(UAL_REC_PCIE_FLIT, pcie) X(UAL_REC_PCIE_NF, pcie)
#define UAL_PCIE_STATE_TEXT_KINDS(X)
/* Presets of what a late capture never shows, X(analysis, preset, "option"):
 * the InitFC values (ual_pcie_an_preset_initfc). */
#define UAL_PCIE_PRESETS(X) X(pcie, initfc, "pcie-initfc")
/* Analyses that also get a PCIe link's records no analysis owns (its
 * ordered sets, kind 2), and that take settings by option name
 * (ual_m_an_option). */
#define UAL_PCIE_LINK_ANALYSES(X) X(pcie)
#define UAL_PCIE_OPTION_ANALYSES(X) X(pcie)

/* Its presentation model (core/views.h): ual_view_pcie in pcie/views.c,
 * struct ual_pcie_tally in pcie/views.h. */
#define UAL_PCIE_VIEWS(X) X(pcie)

#endif
