/* LTSSM and power state per port (digest §5.4, §6; PCIe 6.x LTSSM),
 * reconstructed from what each port transmits: ordered sets, link events,
 * IDLE/NOP/payload flits and the DLLPs of NOP flits.
 *
 *  Detect -> Polling.Active -> Polling.Configuration -> Configuration.*
 *    -> Configuration.Idle (IDLE flits / SDS) -> L0 <-> L0p (Link Management)
 *  L0 -> Recovery.RcvrLock -> [Equalization 0..3] -> RcvrCfg -> [Speed ->
 *    RcvrLock at the new rate ...] -> Recovery.Idle -> L0
 *  L0 -> (L1 agreed, EIOS) L1.Entry -> (electrical idle) L1.Idle
 *    -> (exit) Recovery.RcvrLock ... -> L0
 *
 * Training sets with PAD link and lane numbers belong to Polling or
 * Configuration.Linkwidth; numbered ones to Configuration (after Polling)
 * or to Recovery (after L0/L1, or when the history is unknown: a capture
 * that starts mid-stream must not be taken for a link-up). */
#include "ualink/ualink/ltssm.h"
#include "ualink/ualink/dl_limits.h"
#include "ualink/core/fields.h"
#include "core/field_access.h"

#include <stdio.h>
#include <string.h>

const char *ual_lt_state_name(unsigned s) {
  static const char *const n[UAL_LT_COUNT] = {
#define UAL_X_(e, s) s,
    UAL_LT_STATES(UAL_X_)
#undef UAL_X_
  };
  return s < UAL_LT_COUNT ? n[s] : "?";
}

static char side_name(unsigned dir) { return dir ? 'B' : 'A'; }

void ual_ltssm_init(struct ual_ltssm *lt) { memset(lt, 0, sizeof *lt); }

static bool in_training(unsigned s) {
  return (s >= UAL_LT_POLL_ACTIVE && s <= UAL_LT_CFG_IDLE);
}
static bool in_reset(unsigned s) {
  return s == UAL_LT_DETECT_QUIET || s == UAL_LT_DETECT_ACTIVE || s == UAL_LT_POLL_ACTIVE ||
         s == UAL_LT_POLL_CONFIG || s == UAL_LT_POLL_COMPLIANCE || s == UAL_LT_HOT_RESET ||
         s == UAL_LT_DISABLED;
}
static bool in_l0(unsigned s) { return s == UAL_LT_L0 || s == UAL_LT_L0P; }
static bool in_l1(unsigned s) { return s == UAL_LT_L1_ENTRY || s == UAL_LT_L1_IDLE; }
static bool in_eq(unsigned s) { return s >= UAL_LT_REC_EQ0 && s <= UAL_LT_REC_EQ3; }

/* The speed code (Table 2-9) a record rate code needs. */

struct step {
  struct ual_ltssm *lt;
  unsigned dir;
  const struct ual_when *w;
  const struct ual_ltssm_ctx *ctx;
  struct ual_ltssm_out *o;
  struct ual_events *ev;
  struct ual_findings *f;
};

static void training_restart(struct ual_ltssm *lt) {
  for (int i = 0; i < 2; i++) {
    lt->p[i].mts_seen = lt->p[i].cfg_seen = 0;
    lt->p[i].pm_enter = lt->p[i].pm_ack = lt->p[i].role_flagged = lt->p[i].lm_req = 0;
    lt->p[i].new_rate = lt->p[i].lock_ts = lt->p[i].from_l1 = 0;
  }
  lt->alt_checked = 0;
  lt->speed_flagged = 0;
  lt->eq_flagged = 0;
  lt->up = 0;
  lt->in_l1 = 0;
  lt->trained_width = 0;
}

/* LT-NO-ALT-PROTOCOL, judged once per training when the first port leaves
 * Configuration.Complete; only ports whose Configuration was seen count. */
static void check_alt_protocol(struct step *s) {
  struct ual_ltssm *lt = s->lt;
  if (lt->alt_checked) return;
  lt->alt_checked = 1;
  bool both = lt->p[0].mts_seen && lt->p[1].mts_seen;
  ual_events_add(s->ev, s->w, UAL_TEV_ALT_PROTOCOL, UAL_PARTNER_LINK, both, UAL_UNKNOWN,
                 both ? "alternate protocol: UALink (vendor %04xh)" : "alternate protocol %04xh not negotiated",
                 UAL_UALINK_VENDOR_ID);
  for (unsigned i = 0; i < 2; i++) {
    if (!lt->p[i].cfg_seen || lt->p[i].mts_seen) continue;
    ual_findings_add(s->f, UAL_R_LT_NO_ALT_PROTOCOL, -1,
                     "%c reached Configuration.Idle without Modified TS1/TS2 for vendor %04xh", side_name(i),
                     UAL_UALINK_VENDOR_ID);
    return;
  }
}

/* Timeline texts write an unknown value as "?", whatever its kind. */
static const char *state_text(unsigned st) { return st == UAL_LT_UNKNOWN ? "?" : ual_lt_state_name(st); }
static const char *rate_text(unsigned code) { return ual_rate_name(code) ? ual_rate_name(code) : "?"; }
static const char *width_text(unsigned lanes, char buf[16]) {
  if (!lanes) return "?";
  snprintf(buf, 16, "x%u", lanes);
  return buf;
}

static void set_state(struct step *s, unsigned st) {
  struct ual_ltssm *lt = s->lt;
  struct ual_ltssm_port *p = &lt->p[s->dir];
  unsigned old = p->state;
  if (old == st) return;
  p->state = (uint8_t)st;
  ual_events_add(s->ev, s->w, UAL_TEV_LTSSM, s->dir, (int32_t)st, old == UAL_LT_UNKNOWN ? UAL_UNKNOWN : (int32_t)old,
                 "%c LTSSM %s -> %s", side_name(s->dir), state_text(old), state_text(st));

  if (in_reset(st) && !in_reset(old)) {
    s->o->dl_reset = 1;
    if (lt->up) ual_events_add(s->ev, s->w, UAL_TEV_LINK, UAL_PARTNER_LINK, 0, 1, "link down (%c: %s)",
                               side_name(s->dir), ual_lt_state_name(st));
    training_restart(lt);
  }
  if (st == UAL_LT_CFG_IDLE) check_alt_protocol(s);
  if (in_l1(st) && !in_l1(old) && !lt->in_l1) {
    lt->in_l1 = 1;
    s->o->l1_entry = 1;
    ual_events_add(s->ev, s->w, UAL_TEV_L1, UAL_PARTNER_LINK, 1, 0, "L1 entry (%c)", side_name(s->dir));
  }
  if (in_l0(st) && !in_l0(old)) {
    if (old == UAL_LT_CFG_IDLE || old == UAL_LT_CFG_COMPLETE) {
      s->o->link_up = 1;
      if (!lt->trained_width && p->width) lt->trained_width = p->width;
      if (!lt->up) {
        lt->up = 1;
        char wb[16];
        ual_events_add(s->ev, s->w, UAL_TEV_LINK, UAL_PARTNER_LINK, 1, 0, "link up (%s, %s GT/s)",
                       width_text(p->width, wb), rate_text(p->rate));
      }
    }
    if (p->from_l1) {
      p->from_l1 = 0;
      s->o->l1_exit = 1;
      if (lt->in_l1) {
        lt->in_l1 = 0;
        ual_events_add(s->ev, s->w, UAL_TEV_L1, UAL_PARTNER_LINK, 0, 1, "L1 exit (%c)", side_name(s->dir));
      }
    }
    p->new_rate = p->lock_ts = 0;
    p->pm_enter = p->pm_ack = p->role_flagged = 0;
    lt->eq_flagged = 0;
  }
}

/* ---- rate and width ---- */

static void rate_seen(struct step *s, unsigned code) {
  struct ual_ltssm_port *p = &s->lt->p[s->dir];
  if (!code || code == p->rate) return;
  ual_events_rate_seen(s->ev, s->w->frame, s->w->ts_ns, s->dir, &p->rate, code);
  if (code < 2 || s->ctx->speed_allowed == UAL_UNKNOWN || code <= s->lt->speed_flagged) return;
  if (ual_speed_of_rate(code) > s->ctx->speed_allowed) {
    s->lt->speed_flagged = (uint8_t)code;
    ual_findings_add(s->f, UAL_R_LT_SPEED_BEFORE_DL, -1, "%c at %s GT/s, completed Link Speed negotiations allow %s",
                     side_name(s->dir), ual_rate_name(code), ual_speed_code_name(s->ctx->speed_allowed));
  }
}

static void width_seen(struct step *s, unsigned lanes) {
  ual_events_width_seen(s->ev, s->w->frame, s->w->ts_ns, s->dir, &s->lt->p[s->dir].width, lanes);
}

/* ---- ordered sets ---- */

static void on_ts(struct step *s, const struct ual_os *os) {
  struct ual_ltssm_port *p = &s->lt->p[s->dir];
  bool ts2 = os->type == UAL_OS_TS2;
  bool link_pad = os->link_number == UAL_K23_7, lane_pad = os->lane_number == UAL_K23_7;
  unsigned st = p->state;

  if (ual_field_get(UAL_F_TS_HOT_RESET, os->sym)) { set_state(s, UAL_LT_HOT_RESET); return; }
  if (ual_field_get(UAL_F_TS_DISABLE, os->sym)) { set_state(s, UAL_LT_DISABLED); return; }
  if (ual_field_get(UAL_F_TS_LOOPBACK, os->sym)) {
    set_state(s, st == UAL_LT_LPBK_ENTRY || st == UAL_LT_LPBK_ACTIVE ? UAL_LT_LPBK_ACTIVE : UAL_LT_LPBK_ENTRY);
    return;
  }
  if (os->modified && os->mts_usage == UAL_MTS_USAGE_ALT_PROTOCOL && os->vendor_id == UAL_UALINK_VENDOR_ID)
    p->mts_seen = 1;
  /* Equalization shows on the wire as TS1 with EC != 00b (phases 1..3,
   * digest §5.4); an EIEOS alone is no proof. */
  if (!ts2 && os->eq_control) {
    if (s->ctx->ch0_online == 1 && !s->lt->eq_flagged) {
      s->lt->eq_flagged = 1;
      ual_findings_add(s->f, UAL_R_LT_EQ_CH0_ONLINE, -1, "%c in equalization phase %u while channel 0 is online",
                       side_name(s->dir), os->eq_control);
    }
    set_state(s, UAL_LT_REC_EQ0 + os->eq_control);
    return;
  }

  if (link_pad && lane_pad) {          /* Polling, or Configuration.Linkwidth.Start */
    if (ts2) set_state(s, UAL_LT_POLL_CONFIG);
    else if (st == UAL_LT_POLL_CONFIG || (in_training(st) && st >= UAL_LT_CFG_LW_START))
      set_state(s, UAL_LT_CFG_LW_START);
    else
      set_state(s, UAL_LT_POLL_ACTIVE);
    return;
  }
  if (in_training(st) || st == UAL_LT_DETECT_QUIET || st == UAL_LT_DETECT_ACTIVE) {   /* Configuration */
    p->cfg_seen = 1;
    if (ts2) set_state(s, UAL_LT_CFG_COMPLETE);
    else if (lane_pad) set_state(s, st == UAL_LT_CFG_LW_START || st == UAL_LT_CFG_LW_ACCEPT ? UAL_LT_CFG_LW_ACCEPT
                                                                                          : UAL_LT_CFG_LW_START);
    else if (st == UAL_LT_CFG_LN_WAIT || st == UAL_LT_CFG_LN_ACCEPT) set_state(s, UAL_LT_CFG_LN_ACCEPT);
    else set_state(s, UAL_LT_CFG_LN_WAIT);
    return;
  }
  /* Recovery (from L0, L1, Recovery, or an unknown history) */
  if (ts2) {
    set_state(s, UAL_LT_REC_CFG);
    return;
  }
  if (in_l1(st)) p->from_l1 = 1;
  if (in_eq(st)) return;
  if (st == UAL_LT_REC_LOCK && p->new_rate) p->lock_ts = 1;
  if (st == UAL_LT_REC_SPEED) p->lock_ts = 1;
  set_state(s, UAL_LT_REC_LOCK);
}

static void on_os(struct step *s, const struct ual_os *os) {
  struct ual_ltssm_port *p = &s->lt->p[s->dir];
  unsigned st = p->state;
  switch (os->type) {
  case UAL_OS_TS1:
  case UAL_OS_TS2:
    on_ts(s, os);
    return;
  case UAL_OS_EIOS:
    if (in_l0(st)) set_state(s, s->ctx->l1_agreed || p->pm_enter || p->pm_ack || s->lt->p[s->dir ^ 1].pm_enter
                                    ? UAL_LT_L1_ENTRY : UAL_LT_DETECT_QUIET);
    else if (st == UAL_LT_REC_LOCK || st == UAL_LT_REC_CFG) set_state(s, UAL_LT_REC_SPEED);
    else if (in_training(st)) set_state(s, UAL_LT_DETECT_QUIET);
    else if (st == UAL_LT_LPBK_ACTIVE) set_state(s, UAL_LT_LPBK_EXIT);
    return;
  case UAL_OS_EIEOS:                   /* each equalization phase starts with EIEOS */
    if (st == UAL_LT_REC_LOCK && p->new_rate && p->lock_ts) set_state(s, UAL_LT_REC_EQ0);
    else if (st >= UAL_LT_REC_EQ0 && st < UAL_LT_REC_EQ3) set_state(s, st + 1);
    return;
  case UAL_OS_SDS:
    if (st == UAL_LT_CFG_COMPLETE) set_state(s, UAL_LT_CFG_IDLE);
    else if (st == UAL_LT_REC_CFG) set_state(s, UAL_LT_REC_IDLE);
    return;
  default:
    return;
  }
}

/* ---- link events ---- */

static void on_event(struct step *s, const struct ual_event *e) {
  struct ual_ltssm_port *p = &s->lt->p[s->dir];
  unsigned st = p->state;
  switch (e->code) {
  case UAL_EV_EIDLE_ENTER:
    if (st == UAL_LT_L1_ENTRY) set_state(s, UAL_LT_L1_IDLE);
    else if (in_l0(st)) set_state(s, s->ctx->l1_agreed ? UAL_LT_L1_IDLE : UAL_LT_DETECT_QUIET);
    return;
  case UAL_EV_EIDLE_EXIT:
    if (in_l1(st)) {
      p->from_l1 = 1;
      set_state(s, UAL_LT_REC_LOCK);
    } else if (st == UAL_LT_REC_SPEED) {
      p->new_rate = 1;
    }
    return;
  case UAL_EV_RX_DETECT:
    set_state(s, UAL_LT_DETECT_ACTIVE);
    return;
  case UAL_EV_RATE:
    if (st == UAL_LT_REC_SPEED) p->new_rate = 1;
    rate_seen(s, e->value);
    return;
  case UAL_EV_WIDTH:
    width_seen(s, e->value);
    return;
  default:
    return;
  }
}

/* ---- flits and their DLLPs ---- */

static void on_dllp(struct step *s, const struct ual_dllp *d) {
  struct ual_ltssm_port *p = &s->lt->p[s->dir], *q = &s->lt->p[s->dir ^ 1];
  unsigned role = s->ctx->role[s->dir], prole = s->ctx->role[s->dir ^ 1];
  /* port roles: switch = upstream, accelerator = downstream, on accelerator-switch links */
  bool roles = (role == UAL_ROLE_SWITCH && prole == UAL_ROLE_ACCEL) || (role == UAL_ROLE_ACCEL && prole == UAL_ROLE_SWITCH);
  bool upstream = role == UAL_ROLE_SWITCH;
  switch (d->type) {
  case UAL_DLLP_PM_ENTER_L1:
    if (p->pm_enter) return;
    p->pm_enter = 1;
    ual_events_add(s->ev, s->w, UAL_TEV_PM, s->dir, d->type, UAL_UNKNOWN, "%c sends PM_Enter_L1", side_name(s->dir));
    if (roles && !upstream && !p->role_flagged) {
      p->role_flagged = 1;
      ual_findings_add(s->f, UAL_R_LT_L1_DLLP_ROLE, -1, "PM_Enter_L1 from %c, the downstream port (accelerator)",
                       side_name(s->dir));
    }
    return;
  case UAL_DLLP_PM_REQUEST_ACK:
    if (p->pm_ack) return;
    p->pm_ack = 1;
    ual_events_add(s->ev, s->w, UAL_TEV_PM, s->dir, d->type, UAL_UNKNOWN, "%c sends PM_Request_Ack", side_name(s->dir));
    if (p->role_flagged) return;
    if (roles && upstream) {
      p->role_flagged = 1;
      ual_findings_add(s->f, UAL_R_LT_L1_DLLP_ROLE, -1, "PM_Request_Ack from %c, the upstream port (switch)",
                       side_name(s->dir));
    } else if (!q->pm_enter && s->ctx->l1_agreed) {
      p->role_flagged = 1;
      ual_findings_add(s->f, UAL_R_LT_L1_DLLP_ROLE, -1, "PM_Request_Ack from %c before PM_Enter_L1 from %c",
                       side_name(s->dir), side_name(s->dir ^ 1));
    }
    return;
  case UAL_DLLP_LINK_MGMT:
    if (d->lm_cmd == UAL_LM_REQUEST) {
      if (p->lm_req) return;
      p->lm_req = 1;
      ual_events_add(s->ev, s->w, UAL_TEV_PM, s->dir, d->type, d->lm_cmd, "%c requests L0p x%u (Link Management)",
                     side_name(s->dir), 1u << (d->lm_width & 3));
      if (role == UAL_ROLE_SWITCH)
        ual_findings_add(s->f, UAL_R_LT_L0P_INITIATOR, -1, "Link Management request from %c, a switch", side_name(s->dir));
      if (s->ctx->width_ready == 0)
        ual_findings_add(s->f, UAL_R_LT_L0P_WITHOUT_DL, -1,
                         "Link Management request for x%u without a completed DL Link Width negotiation",
                         1u << (d->lm_width & 3));
    } else if (d->lm_cmd == UAL_LM_ACK || d->lm_cmd == UAL_LM_NAK) {
      q->lm_req = 0;
      if (d->lm_cmd != UAL_LM_ACK) {
        ual_events_add(s->ev, s->w, UAL_TEV_PM, s->dir, d->type, d->lm_cmd, "%c Naks the L0p request (Link Management)",
                       side_name(s->dir));
        return;
      }
      unsigned lanes = 1u << (d->lm_width & 3);
      s->o->lm_done = 1;
      ual_events_add(s->ev, s->w, UAL_TEV_L0P, UAL_PARTNER_LINK, (int32_t)lanes, UAL_UNKNOWN,
                     "L0p: Link Management Ack for x%u (%c)", lanes, side_name(s->dir));
      unsigned tw = s->lt->trained_width;
      for (unsigned i = 0; i < 2; i++) {
        struct step t = *s;
        t.dir = i;
        if (in_l0(s->lt->p[i].state))
          set_state(&t, tw && lanes < tw ? UAL_LT_L0P : UAL_LT_L0);
      }
    }
    return;
  default:
    return;
  }
}

static void on_flit(struct step *s, const struct ual_flit_info *fi) {
  struct ual_ltssm_port *p = &s->lt->p[s->dir];
  unsigned st = p->state;
  if (!fi->valid) return;              /* its header cannot be trusted */
  if (fi->kind == UAL_FK_IDLE) {
    if (st == UAL_LT_CFG_COMPLETE || st == UAL_LT_CFG_LN_ACCEPT) set_state(s, UAL_LT_CFG_IDLE);
    else if (st == UAL_LT_REC_CFG || st == UAL_LT_REC_LOCK || in_eq(st)) set_state(s, UAL_LT_REC_IDLE);
    if (p->state == UAL_LT_CFG_IDLE || p->state == UAL_LT_REC_IDLE) p->idle_sent++;
    return;
  }
  if (fi->kind != UAL_FK_NOP && fi->kind != UAL_FK_PAYLOAD) return;
  if (!in_l0(st) && !in_l1(st)) {
    p->idle_sent = 0;
    set_state(s, UAL_LT_L0);
  }
  if (fi->kind == UAL_FK_NOP) on_dllp(s, &fi->dllp);
}

void ual_ltssm_step(struct ual_ltssm *lt, unsigned dir, const struct ual_rec_result *r, const struct ual_when *w,
                    const struct ual_ltssm_ctx *ctx, struct ual_ltssm_out *o, struct ual_events *ev,
                    struct ual_findings *f) {
  struct step s = { lt, dir & 1, w, ctx, o, ev, f };
  memset(o, 0, sizeof *o);
  rate_seen(&s, r->rec.h.rate);
  width_seen(&s, r->rec.h.width);
  switch (r->rec.h.kind) {
  case UAL_REC_OS:
    if (r->os.type != UAL_OS_UNKNOWN) on_os(&s, &r->os);
    break;
  case UAL_REC_EVENT:
    on_event(&s, &r->ev);
    break;
  case UAL_REC_FLIT:
    on_flit(&s, &r->flit);
    break;
  }
}
