/* The record kind UB decodes (docs/capture-format.md, decision U1),
 * X(kind code, struct ual_kind defined in ub/kinds.c), its timeline event
 * kinds and its analysis. Pure X-macro lists with no includes, registered
 * in core/fabrics.h. */
#ifndef UALINK_UB_KINDS_H
#define UALINK_UB_KINDS_H

#define UAL_UB_KINDS(X) \
  X(UAL_REC_UB_FLIT, ual_kind_ub_flit)

/* Timeline event kinds of the UB analysis, X(enum suffix, "json name"). */
#define UAL_UB_TEV_KINDS(X) \
  X(UB_DLL,        "ub_dll")         /* a side's DLL state; value = enum ual_ub_dll */ \
  X(UB_NEGOTIATED, "ub_negotiated")  /* both Init Blocks seen: the negotiated parameters */ \
  X(UB_RETRY,      "ub_retry")       /* value 1 = Retry_Req_Set, 2 = Retry_Ack_Set, old = the pointer */ \
  X(UB_MODE,       "ub_mode")        /* value = enum ual_ub_mode in force, or a Block_Mode_Chg step */ \
  X(UB_LANES,      "ub_lanes")       /* value = TLW lanes after a Lane_Manage exchange or a width change */

/* The UB analysis (ub/analysis.c, state in ub/analysis.h) owns kind 6. */
#define UAL_UB_ANALYSES(X) X(ub)
#define UAL_UB_ANALYSIS_KINDS(X) X(UAL_REC_UB_FLIT, ub)
#define UAL_UB_STATE_TEXT_KINDS(X) X(UAL_REC_UB_FLIT, ub)
/* Presets of what a late capture never shows, X(analysis, preset, "option"):
 * the negotiated Init Block parameters and the credits (ub/analysis.h). */
#define UAL_UB_PRESETS(X) X(ub, init, "ub-init") X(ub, credits, "ub-credits")

/* Its presentation model (core/views.h): ual_view_ub in ub/views.c,
 * struct ual_ub_tally in ub/views.h. */
#define UAL_UB_VIEWS(X) X(ub)

#endif
