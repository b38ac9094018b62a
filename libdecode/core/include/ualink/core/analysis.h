/* The fabrics' per-capture stateful analysis, registered by record kind.
 *
 * A fabric that analyses its records statefully lists itself in its kinds.h
 * (joined in core/fabrics.h):
 *
 *   #define UAL_PCIE_ANALYSES(X)      X(pcie)
 *   #define UAL_PCIE_ANALYSIS_KINDS(X) X(UAL_REC_PCIE_DLLP, pcie)
 *
 * and provides, by that name m, in a public header included below:
 *
 *   struct ual_m_an                     its state: a plain struct, no
 *                                       pointers, no heap (copy = snapshot)
 *   void ual_m_an_init(struct ual_m_an *s);
 *   void ual_m_an_step(struct ual_m_an *s, struct ual_rec_result *r,
 *                      const struct ual_fabric_step *c);
 *   void ual_m_an_finish(struct ual_m_an *s, struct ual_findings *f,
 *                        const struct ual_fabric_step *c);
 *
 * step gets every decoded record (status OK or RESERVED) of the kinds the
 * fabric owns, and every link event record (kind 3, shared by all fabrics;
 * the roles byte tells whose link it is). It adds stateful findings to
 * r->findings and state changes to c->ev (timeline, core/events.h). It must
 * not allocate. ual_analyzer_step (ualink/analysis.h) calls
 * ual_fabric_an_step for every record; UALink's own kinds stay with
 * UALink's analyzer, except a PCIe link's (the PCIe role encoding of the
 * roles byte): its ordered sets and link events are the fabrics' alone.
 *
 * Like core/decode.h, this header includes the fabrics' state headers
 * (struct ual_fabric_an holds them by value). */
#ifndef UALINK_CORE_ANALYSIS_H
#define UALINK_CORE_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>
#include "ualink/core/decode.h"
#include "ualink/core/events.h"
/* The fabrics' analysis states. */
#include "ualink/pcie/analysis.h"
#include "ualink/ub/analysis.h"

/* Where the current record is. */
struct ual_fabric_step {
  uint64_t frame, ts_ns;        /* ts_ns 0 = no timestamps */
  struct ual_events *ev;        /* NULL: no timeline wanted */
};

/* Every registered fabric's analysis state, by value. */
struct ual_fabric_an {
  uint8_t none_;                /* keeps the struct non-empty */
#define UAL_X_(m) struct ual_##m##_an m;
  UAL_FABRIC_ANALYSES(UAL_X_)
#undef UAL_X_
};

void ual_fabric_an_init(struct ual_fabric_an *s);
/* Runs the analysis that owns r's kind (every analysis for a link event).
 * Returns true when r is the registered analyses' alone: its kind is owned
 * by one, or the record is a PCIe link's (the PCIe role encoding). */
bool ual_fabric_an_step(struct ual_fabric_an *s, struct ual_rec_result *r, const struct ual_fabric_step *c);
/* A setting the wire does not show, by its command-line option name
 * ("nak-new-tlps", value "2"), given to the analyses that take settings:
 * 1 taken, 0 nobody's, -1 a bad value. After ual_fabric_an_init. */
int ual_fabric_an_option(struct ual_fabric_an *s, const char *name, const char *value);
/* The state line of the analysis that describes kind's links
 * (UAL_FABRIC_STATE_TEXT_KINDS) into buf; false (buf "") for other kinds. */
bool ual_fabric_an_state_text(const struct ual_fabric_an *s, unsigned kind, char *buf, size_t cap);
/* End of capture: every analysis's end findings into f. */
void ual_fabric_an_finish(struct ual_fabric_an *s, struct ual_findings *f, const struct ual_fabric_step *c);

/* Presets of values a capture that starts late never shows (the PCIe
 * InitFC values, UB's Init Blocks and credits), as PETracer seeds credits:
 * the option name UAL_FABRIC_PRESETS gives it ("pcie-initfc") and its
 * argument, applied to s after ual_fabric_an_init, or only checked when s
 * is NULL. false, with the reason in err, for an unknown name or a bad
 * argument. */
bool ual_fabric_an_preset(struct ual_fabric_an *s, const char *name, const char *arg, char *err, size_t cap);
/* The presets that give a fresh analysis what s knows now, as options
 * ("--pcie-initfc A:VC0:P=32/256 --ub-init vl=0x000f,..."); "" when
 * nothing is known. Returns snprintf's count. */
int ual_fabric_an_preset_text(const struct ual_fabric_an *s, char *buf, size_t cap);

#endif
