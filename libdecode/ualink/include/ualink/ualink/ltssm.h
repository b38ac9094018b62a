/* The LTSSM tracker's state and step (ualink/ltssm.c): each port's LTSSM
 * and power state from what it transmits. */
#ifndef UALINK_UALINK_LTSSM_H
#define UALINK_UALINK_LTSSM_H

#include <stdint.h>
#include "ualink/core/decode.h"
#include "ualink/ualink/timeline.h"

/* X(enum suffix, "name") — PCIe 6.x LTSSM states (digest §5.4). */
#define UAL_LT_STATES(X) \
  X(UNKNOWN,        "Unknown") \
  X(DETECT_QUIET,   "Detect.Quiet") \
  X(DETECT_ACTIVE,  "Detect.Active") \
  X(POLL_ACTIVE,    "Polling.Active") \
  X(POLL_CONFIG,    "Polling.Configuration") \
  X(POLL_COMPLIANCE,"Polling.Compliance") \
  X(CFG_LW_START,   "Configuration.Linkwidth.Start") \
  X(CFG_LW_ACCEPT,  "Configuration.Linkwidth.Accept") \
  X(CFG_LN_WAIT,    "Configuration.Lanenum.Wait") \
  X(CFG_LN_ACCEPT,  "Configuration.Lanenum.Accept") \
  X(CFG_COMPLETE,   "Configuration.Complete") \
  X(CFG_IDLE,       "Configuration.Idle") \
  X(L0,             "L0") \
  X(L0P,            "L0p") \
  X(REC_LOCK,       "Recovery.RcvrLock") \
  X(REC_EQ0,        "Recovery.Equalization.Phase0") \
  X(REC_EQ1,        "Recovery.Equalization.Phase1") \
  X(REC_EQ2,        "Recovery.Equalization.Phase2") \
  X(REC_EQ3,        "Recovery.Equalization.Phase3") \
  X(REC_SPEED,      "Recovery.Speed") \
  X(REC_CFG,        "Recovery.RcvrCfg") \
  X(REC_IDLE,       "Recovery.Idle") \
  X(L1_ENTRY,       "L1.Entry") \
  X(L1_IDLE,        "L1.Idle") \
  X(DISABLED,       "Disabled") \
  X(LPBK_ENTRY,     "Loopback.Entry") \
  X(LPBK_ACTIVE,    "Loopback.Active") \
  X(LPBK_EXIT,      "Loopback.Exit") \
  X(HOT_RESET,      "Hot Reset")

enum ual_lt_state {
#define UAL_X_(e, n) UAL_LT_##e,
  UAL_LT_STATES(UAL_X_)
#undef UAL_X_
  UAL_LT_COUNT
};
const char *ual_lt_state_name(unsigned s);

struct ual_ltssm_port {
  uint8_t state;            /* enum ual_lt_state */
  uint8_t rate, width;      /* this direction's, from record headers and link events; 0 unknown */
  uint8_t mts_seen;         /* Modified TS with vendor 0x20AE in this training */
  uint8_t cfg_seen;         /* TS of this training's Configuration seen */
  uint8_t new_rate;         /* Recovery.Speed passed: next RcvrLock is at a new rate */
  uint8_t lock_ts;          /* TS1 seen in RcvrLock at the new rate */
  uint8_t from_l1;          /* this Recovery exits L1 */
  uint8_t pm_enter, pm_ack; /* PM_Enter_L1 / PM_Request_Ack sent in this L1 entry */
  uint8_t role_flagged;
  uint8_t lm_req;           /* Link Management request outstanding */
  uint32_t idle_sent;
};

struct ual_ltssm {
  struct ual_ltssm_port p[2];
  uint8_t trained_width;    /* lanes when the link came up, 0 unknown */
  uint8_t alt_checked;      /* LT-NO-ALT-PROTOCOL judged for this training */
  uint8_t speed_flagged;    /* rate code LT-SPEED-BEFORE-DL was raised for */
  uint8_t eq_flagged;
  uint8_t up;               /* a port reached L0 after training (LINK event sent) */
  uint8_t in_l1;            /* a port entered L1 (L1 event sent) */
};

/* What the LTSSM needs from the DL trackers. */
struct ual_ltssm_ctx {
  uint8_t role[2];          /* enum ual_role of each side */
  int8_t ch0_online;        /* 1 if channel 0 is online for either partner, 0, UAL_UNKNOWN */
  int8_t speed_allowed;     /* speed code allowed by completed negotiations, UAL_UNKNOWN */
  int8_t width_ready;       /* a completed width negotiation awaits L0p: 1, 0, UAL_UNKNOWN */
  uint8_t l1_agreed;        /* Link State L1 negotiated (L1 entry in progress) */
};

struct ual_ltssm_out {
  uint8_t dl_reset;         /* the DL restarts: link down, detect, polling, hot reset */
  uint8_t link_up;          /* a port entered L0 from Configuration */
  uint8_t l1_entry, l1_exit;/* a port entered L1 / came back to L0 from L1 */
  uint8_t lm_done;          /* a Link Management Ack: width changed by L0p */
};

void ual_ltssm_init(struct ual_ltssm *lt);
/* One decoded record (ordered set, link event or flit) of direction dir. */
void ual_ltssm_step(struct ual_ltssm *lt, unsigned dir, const struct ual_rec_result *r,
                    const struct ual_when *w, const struct ual_ltssm_ctx *ctx,
                    struct ual_ltssm_out *o, struct ual_events *ev, struct ual_findings *f);

#endif
