/* Violation injection: for each rule a transmitter can break, how the
 * generator breaks it, and nothing else. Every injection writes its ground
 * truth (frame, rule) through gen_truth; consequences that follow from it
 * (the Nak after a bad flit, the replay) are labelled "consequence".
 *
 * Flit mutations of the DL (segment headers, zero fill) are checked against
 * libdecode's own unpacker running on a copy of the receiver's state, so a
 * mutation is only used where it raises exactly its rule and leaves the
 * unpacked TL flits and DL messages as they were. */
#include "inject.h"
#include "dl.h"
#include "replay.h"
#include "steps.h"

#include <stdio.h>
#include <string.h>

enum inj_kind { K_DLMUT, K_CORRUPT, K_EXTRA, K_IDLE, K_SEQ, K_MSG, K_PLAN, K_SCEN, K_PACK };

#define NEED_SWITCH 1
#define NEED_ACCEL  2   /* both partners accelerators: both may request */

/* X(rule suffix, kind, default scenario, flags, "how") */
#define GEN_INJECTIONS(X) \
  X(PL_CRC,               K_CORRUPT, TRAFFIC, 0, "a CRC-64 bit flipped (FEC recomputed); the receiver Naks, the flit is replayed") \
  X(PL_CRC_INVERTED,      K_CORRUPT, TRAFFIC, 0, "containment: a DL flit with its CRC inverted, then the link goes down") \
  X(PL_FEC_CORRECTED,     K_CORRUPT, TRAFFIC, 0, "one corrupted byte, corrected by the FEC") \
  X(PL_FEC_UNCORRECTABLE, K_CORRUPT, TRAFFIC, 0, "two corrupted bytes in one FEC group; Nak and replay") \
  X(PL_USAGE,             K_EXTRA,   TRAFFIC, 0, "an extra flit with reserved Flit Usage 101b") \
  X(PL_SEQ_ZERO,          K_EXTRA,   TRAFFIC, 0, "an empty payload flit with explicit sequence number 0") \
  X(PL_IDLE_BODY,         K_IDLE,    BRINGUP, 0, "an IDLE flit with a non-zero body byte") \
  X(PL_NOP_DLLP,          K_EXTRA,   TRAFFIC, 0, "a NOP flit carrying DLLP type 30h") \
  X(PL_NOP_BODY,          K_EXTRA,   TRAFFIC, 0, "a NOP flit with a non-zero byte after the DLLP") \
  X(RP_SEQ_GAP,           K_SEQ,     TRAFFIC, 0, "the transmitter skips a sequence number") \
  X(RP_REPLAY_WRONG_START,K_CORRUPT, TRAFFIC, 0, "after a go-back-N Nak the replay starts one flit late") \
  X(RP_ACK_AHEAD,         K_SEQ,     TRAFFIC, 0, "an Ack for a sequence number never sent") \
  X(RP_UNACKED_LIMIT,     K_SEQ,     TRAFFIC, 0, "the receiver holds Acks back and the transmitter ignores the 511 limit") \
  X(RP_ACK_TIMEOUT,       K_SEQ,     TRAFFIC, 0, "the receiver holds Acks back for 1800 flit times; the replay timer fires") \
  X(RP_EXPLICIT_GROUP,    K_SEQ,     TRAFFIC, 0, "a group of 2 explicit sequence numbers") \
  X(DL_SH_RESERVED,       K_DLMUT,   TRAFFIC, 0, "segment header bit 7 set") \
  X(DL_TLBEAT,            K_DLMUT,   TRAFFIC, 0, "invalid TLBeat code 01h in a segment that starts no TL flit") \
  X(DL_TL_NO_ROOM,        K_DLMUT,   TRAFFIC, 0, "a TLBeat start in a segment filled by its alt sector and carry-over") \
  X(DL_ZERO_FILL,         K_DLMUT,   TRAFFIC, 0, "a non-zero byte in an unallocated sector") \
  X(DL_CH0_OFFLINE,       K_SCEN,    BRINGUP, 0, "a TL flit before channel 0 is online") \
  X(DL_AFTER_CONTAIN,     K_CORRUPT, TRAFFIC, 0, "new payload flits after a containment (inverted CRC) flit") \
  X(DL_TRUNCATED_TL,      K_SCEN,    TRAFFIC, 0, "the capture ends in the middle of a TL flit") \
  X(DM_RESERVED,          K_MSG,     TRAFFIC, 0, "a UART Credit Update with reserved bit 12 set") \
  X(DM_COMPRESSED,        K_MSG,     TRAFFIC, 0, "a UART Credit Update with the Compressed bit set") \
  X(DM_UNKNOWN,           K_MSG,     TRAFFIC, 0, "a DL message with reserved mclass 0011b") \
  X(DM_FIELD,             K_MSG,     TRAFFIC, 0, "a UART Credit Update for reserved stream 1") \
  X(DM_BASIC_OUTSTANDING, K_MSG,     TRAFFIC, 0, "a second Device ID request before the answer to the first") \
  X(DM_RESPONSE_LATE,     K_MSG,     TRAFFIC, 0, "a Device ID response 2 us late") \
  X(DM_UNSOLICITED,       K_MSG,     TRAFFIC, 0, "a Device ID response nobody asked for") \
  X(DM_CTRL_OUTSTANDING,  K_PLAN,    TRAFFIC, 0, "a second channel request while the first is outstanding") \
  X(DM_CTRL_INITIATOR,    K_PLAN,    TRAFFIC, NEED_SWITCH, "the switch requests channel 4 offline (mid-link after a 10 ms L1 rest)") \
  X(DM_CTRL_RESPONSE_RULE,K_PLAN,    BRINGUP, 0, "the switch Nacks a channel offline request") \
  X(DM_CTRL_ECHO,         K_PLAN,    TRAFFIC, 0, "an Ack whose Response does not echo the TargetState received") \
  X(DM_CTRL_SAME_STATE,   K_PLAN,    BRINGUP, 0, "a request for channel 0 online while it is online") \
  X(DM_CTRL_NO_CONFIRM,   K_PLAN,    TRAFFIC, 0, "a granted channel request without the confirming Ack") \
  X(DM_CTRL_PENDING_ILLEGAL,K_PLAN,  NEGOTIATION, NEED_ACCEL, "Decision Pending from a partner with its own width request out") \
  X(DM_CTRL_PENDING_TIMEOUT,K_PLAN,  TRAFFIC, 0, "Decision Pending to a Link Speed request, then no request; the link rests 10 ms in L1") \
  X(DM_CTRL_RESOLUTION,   K_PLAN,    NEGOTIATION, NEED_ACCEL, "conflicting width requests: the winner's request is Nacked") \
  X(DM_CTRL_LOSER_RETRY,  K_PLAN,    NEGOTIATION, NEED_ACCEL, "the loser of a width conflict asks again for the same width") \
  X(DM_UART_CH4_OFFLINE,  K_PLAN,    TRAFFIC, 0, "a UART Credit Update after channel 4 went offline") \
  X(DM_UART_INTERLEAVE,   K_PACK,    TRAFFIC, 0, "a segment without its alternate sector between two DWords of a UART Stream Transport") \
  X(DM_UART_CREDIT,       K_MSG,     UART,    0, "a UART transport one DWord beyond the credit") \
  X(DM_UART_RESET_NOOPS,  K_PLAN,    UART,    0, "a Stream Reset Request without the 40 No-Ops") \
  X(DM_UART_RESET_TIMEOUT,K_PLAN,    TRAFFIC, 0, "a Stream Reset Request left unanswered; the link rests 10 ms in L1") \
  X(DM_RATE_RANGE,        K_MSG,     TRAFFIC, 0, "a TL Rate Notification of 41000 (2050 MHz)") \
  X(DM_NOOP_CONTEXT,      K_MSG,     TRAFFIC, 0, "a lone No-Op message") \
  X(DM_ID_FIELD,          K_MSG,     TRAFFIC, 0, "a Device ID request with Valid = 0 and a non-zero ID") \
  X(DM_RATE_SEQUENCE,     K_MSG,     TRAFFIC, 0, "a rate change straight from 40000 to 30000") \
  X(DM_RATE_SWITCH,       K_MSG,     TRAFFIC, NEED_SWITCH, "the switch sends a TL Rate Notification request") \
  X(LT_NO_FLIT_MODE,      K_SCEN,    BRINGUP, 0, "a TS1 without Flit Mode Supported") \
  X(LT_NO_ALT_PROTOCOL,   K_SCEN,    BRINGUP, 0, "Configuration with regular TS1/TS2: no alternate protocol negotiation") \
  X(LT_SPEED_BEFORE_DL,   K_SCEN,    BRINGUP, 0, "the change to 32.0 GT/s without a DL Link Speed negotiation") \
  X(LT_EQ_CH0_ONLINE,     K_SCEN,    BRINGUP, 0, "channel 0 online before the last equalization") \
  X(LT_L1_ORDER,          K_SCEN,    ALL,     0, "Link State L1 requested with channels 0 and 4 online") \
  X(LT_L1_DLLP_ROLE,      K_SCEN,    L1,      0, "PM_Request_Ack from the downstream port before PM_Enter_L1") \
  X(LT_PAYLOAD_IN_L1,     K_SCEN,    L1,      0, "a new payload flit from the switch after its L1 Ack") \
  X(LT_UNSUPPORTED_PM,    K_EXTRA,   TRAFFIC, 0, "a NOP flit with PM_Enter_L23") \
  X(LT_L0P_WITHOUT_DL,    K_SCEN,    ALL,     0, "a Link Management request without the DL Link Width negotiation") \
  X(LT_L0P_PRIORITY,      K_SCEN,    L0P,     0, "a Link Management request with Priority set") \
  X(LT_L0P_INITIATOR,     K_SCEN,    L0P,     NEED_SWITCH, "a Link Management request from the switch") \
  X(LT_EXIT_L1_CONTENT,   K_SCEN,    L1,      0, "a TL flit right after L1 exit, before channel 0 is online")

struct inj_info { int rule; uint8_t kind; uint8_t scenario; uint8_t flags; const char *how; };

static const struct inj_info catalog[] = {
#define GEN_X_(r, k, sc, fl, how) { UAL_R_##r, k, GEN_SC_##sc, fl, how },
  GEN_INJECTIONS(GEN_X_)
#undef GEN_X_
};
#define N_CATALOG (sizeof catalog / sizeof catalog[0])

static const struct inj_info *info_of(int rule) {
  for (size_t i = 0; i < N_CATALOG; i++)
    if (catalog[i].rule == rule) return &catalog[i];
  return NULL;
}

bool gen_inject_supported(int rule) { return info_of(rule) != NULL; }
const char *gen_inject_how(int rule) { const struct inj_info *i = info_of(rule); return i ? i->how : NULL; }
int gen_inject_scenario(int rule) { const struct inj_info *i = info_of(rule); return i ? i->scenario : GEN_SC_TRAFFIC; }

struct inj *inj_find(struct gen *g, int rule) {
  for (unsigned i = 0; i < g->ij->n; i++)
    if (g->ij->inj[i].rule == rule) return &g->ij->inj[i];
  return NULL;
}


static bool inj_pending(struct gen *g, int rule) {
  struct inj *in = inj_find(g, rule);
  return in && in->state != INJ_DONE && g->frame >= in->at;
}

/* the side that breaks the rule */
static unsigned inj_side(int rule) {
  switch (rule) {
  case UAL_R_DM_UNSOLICITED: case UAL_R_DM_RATE_SWITCH: case UAL_R_DM_CTRL_INITIATOR:
  case UAL_R_DM_CTRL_RESPONSE_RULE: case UAL_R_DM_CTRL_ECHO: case UAL_R_LT_PAYLOAD_IN_L1:
  case UAL_R_LT_L0P_INITIATOR: case UAL_R_DM_RESPONSE_LATE: case UAL_R_DM_CTRL_PENDING_ILLEGAL:
  case UAL_R_DM_CTRL_RESOLUTION: case UAL_R_DM_CTRL_LOSER_RETRY: case UAL_R_DM_CTRL_PENDING_TIMEOUT:
  case UAL_R_DM_UART_RESET_TIMEOUT:
    return 1;
  }
  return 0;
}

/* Where an injection goes when no @N is given: after some traffic, and late
 * enough that the analyzer knows what it needs (unsolicited answers need
 * 1024 flits of history, UART credits a stream reset). */
static uint64_t default_at(int rule, bool mid_link) {
  switch (rule) {
  case UAL_R_DM_UNSOLICITED: return 3000;
  case UAL_R_DM_UART_CREDIT: return 2400;
  }
  return mid_link ? 400 : 0;
}

/* The capture starts with the link up: the analyzer does not know the past. */
static bool starts_mid_link(const struct gen *g) { return g->scenario != GEN_SC_BRINGUP && g->scenario != GEN_SC_ALL; }

static void inj_labelled(struct gen *g, int rule);
static void inj_slot(struct gen *g, struct side *s);
static void inj_pack(struct gen *g, struct side *s);
static void inj_dl_flit(struct gen *g, struct side *s, uint8_t *flit);
static void inj_flit(struct gen *g, struct side *s, uint8_t *flit, struct wire_item *wi);
static void inj_l1_stopped(struct gen *g, struct side *s);

void inj_init(struct gen *g) {
  g->hooks = (struct gen_hooks){ .slot = inj_slot, .pack = inj_pack, .dl_flit = inj_dl_flit,
                                 .pl_flit = inj_flit, .l1_stopped = inj_l1_stopped,
                                 .labelled = inj_labelled };
  bool mid_link = starts_mid_link(g);
  for (unsigned i = 0; i < g->o.n_inject; i++) {
    const struct inj_info *ii = info_of(g->o.inject[i].rule);
    if (!ii) continue;
    if (inj_find(g, ii->rule)) continue;
    if ((ii->flags & NEED_SWITCH) && g->s[1].role != UAL_ROLE_SWITCH) {
      gen_fail(g, "%s needs a switch as side B (not --peer accel)", ual_rule_id(ii->rule));
      return;
    }
    if ((ii->flags & NEED_ACCEL) && g->s[1].role != UAL_ROLE_ACCEL) {
      gen_fail(g, "%s needs two accelerators (--peer accel)", ual_rule_id(ii->rule));
      return;
    }
    struct inj *in = &g->ij->inj[g->ij->n++];
    memset(in, 0, sizeof *in);
    in->rule = ii->rule;
    in->at = g->o.inject[i].at_frame;
    if (in->at == GEN_AT_DEFAULT) {
      in->at = default_at(ii->rule, mid_link);
      /* a short run asked for: inject early enough to fit in it */
      if (g->user_count && in->at > g->user_count / 3) in->at = g->user_count / 3;
    }
    in->side = (uint8_t)inj_side(ii->rule);
  }
}

bool inj_any_pending(const struct gen *g) {
  for (unsigned i = 0; i < g->ij->n; i++)
    if (g->ij->inj[i].state != INJ_DONE) return true;
  return false;
}

int inj_check_all_done(struct gen *g) {
  for (unsigned i = 0; i < g->ij->n; i++)
    if (g->ij->inj[i].state != INJ_DONE) {
      gen_fail(g, "%s: no opportunity to inject it in scenario %s%s", ual_rule_id(g->ij->inj[i].rule),
               gen_scenario_name(g->scenario),
               g->ij->inj[i].at ? " at or after the requested frame" : "");
      return -1;
    }
  return 0;
}

/* gen_truth marks an injection done when its label goes out. */
static void inj_labelled(struct gen *g, int rule) {
  struct inj *in = inj_find(g, rule);
  if (in) in->state = INJ_DONE;
}

static bool armed(struct gen *g, struct inj *in, const struct side *s) {
  return in->state != INJ_DONE && g->frame >= in->at && in->side == s->id;
}

/* ---- DL flit mutations, checked by libdecode's unpacker ---- */

static bool unpack_same(const struct ual_unpack *a, const struct ual_unpack_out *oa,
                        const struct ual_unpack *b, const struct ual_unpack_out *ob) {
  if (a->tl_have != b->tl_have || a->uart_need != b->uart_need || a->m0 != b->m0 || a->m1 != b->m1) return false;
  if (memcmp(a->tl, b->tl, UAL_SECTOR_BYTES * a->tl_have) != 0) return false;
  if (oa->n_tl != ob->n_tl || oa->n_msg != ob->n_msg) return false;
  for (unsigned i = 0; i < oa->n_tl; i++)
    if (memcmp(oa->tl[i].data, ob->tl[i].data, UAL_TL_FLIT_BYTES) || oa->tl[i].m0 != ob->tl[i].m0 ||
        oa->tl[i].m1 != ob->tl[i].m1)
      return false;
  for (unsigned i = 0; i < oa->n_msg; i++)
    if (oa->msg[i].msg.dw != ob->msg[i].msg.dw || oa->msg[i].n_payload != ob->msg[i].n_payload)
      return false;
  return true;
}

static void mutate(int rule, unsigned k, uint8_t *flit) {
  switch (rule) {
  case UAL_R_DL_SH_RESERVED:
    ual_field_put(UAL_F_SH_RSVD7, flit + ual_segment_map[k].sh_byte, 1);
    break;
  case UAL_R_DL_TLBEAT:
    if (ual_field_get(UAL_F_SH_TLBEAT, flit + ual_segment_map[k].sh_byte) == UAL_TLBEAT_CODE_NONE)
      ual_field_put(UAL_F_SH_TLBEAT, flit + ual_segment_map[k].sh_byte, 0x01);
    break;
  case UAL_R_DL_TL_NO_ROOM:
    if (ual_field_get(UAL_F_SH_TLBEAT, flit + ual_segment_map[k].sh_byte) == UAL_TLBEAT_CODE_NONE)
      ual_field_put(UAL_F_SH_TLBEAT, flit + ual_segment_map[k].sh_byte, UAL_TLBEAT_CODE_TL);
    break;
  case UAL_R_DL_ZERO_FILL: {
    uint8_t *p = flit + ual_sector_offset(UAL_SECTORS - 1 - k);
    if (!(p[0] | p[1] | p[2] | p[3])) p[1] = 0x5A;
    break;
  }
  }
  ual_flit_seal(flit);
}

static unsigned candidates(int rule) { return rule == UAL_R_DL_ZERO_FILL ? UAL_SECTORS : UAL_SEGMENTS; }

static void inj_dl_flit(struct gen *g, struct side *s, uint8_t *flit) {
  struct inj *in = NULL;
  for (unsigned i = 0; i < g->ij->n; i++) {
    const struct inj_info *ii = info_of(g->ij->inj[i].rule);
    if (ii->kind == K_DLMUT && armed(g, &g->ij->inj[i], s)) { in = &g->ij->inj[i]; break; }
  }
  if (!in) { s->shadow_on = false; s->tl_boost = false; return; }
  s->tl_boost = in->rule == UAL_R_DL_TL_NO_ROOM;
  if (!s->shadow_on) {
    if (!s->pack_idle_before) return;      /* start where the receiver has nothing open */
    ual_unpack_init(&s->shadow);
    s->shadow_on = true;
  }
  uint64_t frame = g->frame + 1;
  struct ual_unpack u0 = s->shadow;
  struct ual_unpack_out o0, o1;
  struct ual_findings f0, f1;
  ual_findings_clear(&f0);
  ual_unpack_flit(&u0, flit, frame, &o0, &f0);
  if (f0.n == 0) {
    uint8_t copy[UAL_FLIT_BYTES];
    for (unsigned k = 0; k < candidates(in->rule); k++) {
      memcpy(copy, flit, UAL_FLIT_BYTES);
      mutate(in->rule, k, copy);
      if (memcmp(copy, flit, UAL_CRC_OFFSET) == 0) continue;
      struct ual_flit_info fi;
      ual_findings_clear(&f1);
      ual_flit_decode(copy, &fi, &f1);
      struct ual_unpack u1 = s->shadow;
      ual_unpack_flit(&u1, fi.bytes, frame, &o1, &f1);
      if (f1.n != 1 || f1.v[0].rule != in->rule || !unpack_same(&u0, &o0, &u1, &o1)) continue;
      memcpy(flit, copy, UAL_FLIT_BYTES);
      gen_truth(g, frame, s->id, in->rule, TRUTH_SRC_INJECT, f1.v[0].msg);
      break;
    }
  }
  s->shadow = u0;
  if (in->state == INJ_DONE) s->shadow_on = s->tl_boost = false;
}

/* ---- packer knobs ---- */

/* DM-UART-INTERLEAVE: the transport at the head of what the packer holds
 * skips a segment, so its next DWord comes one segment late: SH0 when it is
 * open from an earlier flit, SH1 when its header goes into SH0. */
static void inj_pack(struct gen *g, struct side *s) {
  struct inj *in = inj_find(g, UAL_R_DM_UART_INTERLEAVE);
  if (!in || !armed(g, in, s) || !s->infl.count) return;
  const struct msg_item *m = &s->infl.it[s->infl.head];
  if (m->n < 2) return;
  unsigned k = s->infl.left[s->infl.head] < m->n ? 0 : 1;
  s->pack.alt_gap = (uint8_t)(1u << k);
  gen_truth(g, g->frame + 1, s->id, in->rule, TRUTH_SRC_INJECT,
            k ? "UART Stream Transport paused in SH1" : "UART Stream Transport paused in SH0");
}

/* ---- PL corruption ---- */

static bool packer_empty(const struct side *s) {
  return ual_pack_tl_queued(&s->pack) == 0 && !ual_pack_busy(&s->pack) &&
         ual_pack_msg_queued(&s->pack) == 0 && s->pack.uart_left == 0 && s->infl.count == 0;
}

/* Two bytes of one FEC group changed so that the FEC gives up (not a miscorrection). */
static void corrupt_uncorrectable(struct gen *g, struct side *s, uint8_t *flit) {
  uint8_t copy[UAL_FLIT_BYTES];
  for (unsigned tries = 0; tries < 64; tries++) {
    unsigned p = 3 * (1 + gen_rng_below(&s->rng, 70));
    uint8_t e1 = (uint8_t)(1 + gen_rng_below(&s->rng, 255)), e2 = (uint8_t)(1 + gen_rng_below(&s->rng, 255));
    memcpy(copy, flit, UAL_FLIT_BYTES);
    copy[p] ^= e1;
    copy[p + 3] ^= e2;
    struct ual_fec_result r;
    if (ual_fec_correct(copy, &r) == UAL_FEC_UNCORRECTABLE) {
      flit[p] ^= e1;
      flit[p + 3] ^= e2;
      return;
    }
  }
  (void)g;
}

/* A 16-bit burst on one lane: two consecutive symbols of the lane, which
 * fall in different FEC groups, so the FEC corrects it. */
static void burst_correctable(struct side *s, uint8_t *flit) {
  unsigned w = s->width ? s->width : 1;
  unsigned lane = gen_rng_below(&s->rng, w);
  unsigned sym = gen_rng_below(&s->rng, UAL_FLIT_BYTES / w - 1);
  flit[lane + w * sym] ^= (uint8_t)(1 + gen_rng_below(&s->rng, 255));
  flit[lane + w * (sym + 1)] ^= (uint8_t)(1 + gen_rng_below(&s->rng, 255));
}

static void corrupt_flit(struct gen *g, struct side *s, int rule, uint8_t *flit, struct wire_item *wi) {
  uint64_t v;
  switch (rule) {
  case UAL_R_PL_CRC:
    v = ual_field_get(UAL_F_FLIT_CRC, flit);
    ual_field_put(UAL_F_FLIT_CRC, flit, v ^ 1);
    ual_fec_encode(flit);
    break;
  case UAL_R_PL_CRC_INVERTED:
  case UAL_R_DL_AFTER_CONTAIN:
    v = ual_field_get(UAL_F_FLIT_CRC, flit);
    ual_field_put(UAL_F_FLIT_CRC, flit, ~v);
    ual_fec_encode(flit);
    wi->contained = 1;
    break;
  case UAL_R_PL_FEC_CORRECTED:
    flit[3 + gen_rng_below(&s->rng, 200)] ^= 0x10;
    break;
  default:
    corrupt_uncorrectable(g, s, flit);
    break;
  }
}

static void inj_flit(struct gen *g, struct side *s, uint8_t *flit, struct wire_item *wi) {
  if (s->err_burst && wi->kind == W_PAYLOAD && wi->fresh) {
    if (s->err_burst == 1) burst_correctable(s, flit);
    else corrupt_uncorrectable(g, s, flit);
    s->err_burst = 0;
    wi->corrupt = 1;
    s->corrupt_src = TRUTH_SRC_CHANNEL;
  }
  if (s->label_fresh >= 0 && wi->kind == W_PAYLOAD && wi->fresh) {
    gen_truth(g, g->frame + 1, s->id, s->label_fresh, TRUTH_SRC_INJECT, "new payload flit");
    s->label_fresh = -1;
  }
  for (unsigned i = 0; i < g->ij->n; i++) {
    struct inj *in = &g->ij->inj[i];
    if (!armed(g, in, s)) continue;
    const struct inj_info *ii = info_of(in->rule);
    if (ii->kind == K_IDLE && wi->kind == W_IDLE && s->mode == PL_IDLE) {
      flit[UAL_FLIT_BYTES / 2] = 0x5A;
      ual_flit_seal(flit);
      gen_truth(g, g->frame + 1, s->id, in->rule, TRUTH_SRC_INJECT, "IDLE flit body not zero");
    }
    if (ii->kind == K_CORRUPT && in->n == 2 && wi->kind == W_PAYLOAD && wi->fresh) {
      corrupt_flit(g, s, in->rule, flit, wi);
      wi->corrupt = 1;
      bool main = in->rule == UAL_R_PL_CRC || in->rule == UAL_R_PL_CRC_INVERTED ||
                  in->rule == UAL_R_PL_FEC_CORRECTED || in->rule == UAL_R_PL_FEC_UNCORRECTABLE;
      s->corrupt_src = main ? TRUTH_SRC_INJECT : TRUTH_SRC_CONSEQ;
      s->corrupt_seq = wi->seq;
      in->n = 3;
    }
  }
}

/* ---- per slot: arming behaviours ---- */

static uint32_t dw_put(uint32_t dw, enum ual_field_id f, uint64_t v) {
  uint8_t b[4] = { (uint8_t)dw, (uint8_t)(dw >> 8), (uint8_t)(dw >> 16), (uint8_t)(dw >> 24) };
  ual_field_put(f, b, v);
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void queue_labelled(struct side *s, unsigned cls, uint32_t dw, int rule) {
  struct msg_item m;
  dl_msg_init(&m, cls, &dw, 1);
  m.label = (int16_t)rule;
  dl_queue_msg(s, &m);
}

static void slot_corrupt(struct gen *g, struct side *s, struct inj *in) {
  struct side *p = peer_of(g, s);
  bool contain = in->rule == UAL_R_PL_CRC_INVERTED || in->rule == UAL_R_DL_AFTER_CONTAIN;
  switch (in->n) {
  case 0:                                   /* empty flits around it: nothing to carry over a loss */
    s->quiet = true;
    if (contain) p->quiet = true;           /* the link goes down: nothing half sent either way */
    in->n = 1;
    break;
  case 1:
    if (!packer_empty(s) || s->rp_active || s->rp_pending || !rp_calm_rx(p)) break;
    if (contain && !packer_empty(p)) break;
    if (in->rule == UAL_R_RP_REPLAY_WRONG_START) { s->rp_wrong_start = 1; p->force_standard_nak = true; }
    in->n = 2;
    break;
  case 3:
    if (in->rule == UAL_R_PL_CRC_INVERTED) {
      /* the DL passes nothing more; the receiver sees the containment and the link goes down */
      s->mode = PL_SILENT;
      s->t_next = PS_NEVER;
      in->n = 4;
      in->fin = 1;
      break;
    }
    if (in->rule == UAL_R_DL_AFTER_CONTAIN) { s->label_fresh = UAL_R_DL_AFTER_CONTAIN; in->n = 4; in->fin = 1; break; }
    if (p->rx_state != RX_NORMAL || s->rp_active || s->rp_pending) break;
    if (ual_seq_dist(s->corrupt_seq, p->next_exp) == 0 || ual_seq_dist(s->corrupt_seq, p->next_exp) > UAL_SEQ_MAX_UNACKED) break;
    s->quiet = false;
    in->n = 4;
    in->fin = 1;
    break;
  }
}

static void slot_extra(struct gen *g, struct side *s, struct inj *in) {
  struct pl_extra x = { .label = (int16_t)in->rule };
  switch (in->rule) {
  case UAL_R_PL_SEQ_ZERO:
    if (in->n == 0) { s->quiet = true; in->n = 1; return; }
    if (in->n == 1) {
      if (!packer_empty(s) || s->rp_active || s->rp_pending) return;
      x.kind = X_SEQ0;
      rp_extra_push(s, &x);
      in->n = 2;
      return;
    }
    if (in->n == 2 && s->n_extra == 0) { s->quiet = false; in->n = 3; in->fin = 1; }
    return;
  case UAL_R_PL_USAGE: x.kind = X_USAGE; x.dllp.type = UAL_DLLP_NOP2; break;
  case UAL_R_PL_NOP_DLLP: x.kind = X_NOP_DLLP; x.dllp.type = 0x30; break;
  case UAL_R_PL_NOP_BODY: x.kind = X_NOP_BODY; x.dllp.type = UAL_DLLP_NOP2; break;
  case UAL_R_LT_UNSUPPORTED_PM: x.kind = X_NOP_DLLP; x.dllp.type = UAL_DLLP_PM_ENTER_L23; break;
  }
  if (in->n == 0) { rp_extra_push(s, &x); in->n = 1; in->fin = 1; }
  (void)g;
}

static bool requests_idle(struct gen *g) {
  return !dl_busy_requests(&g->s[0]) && !dl_busy_requests(&g->s[1]);
}

static void slot_seq(struct gen *g, struct side *s, struct inj *in) {
  struct side *p = peer_of(g, s);
  if (in->n) {                              /* Acks held back: wait until the link recovered */
    if (p->withhold_acks_until > p->flits_sent || rp_outstanding(s) > 64 || s->rp_active) return;
    g->hold_requests = false;
    in->fin = 1;
    return;
  }
  switch (in->rule) {
  case UAL_R_RP_SEQ_GAP:
    if (s->rp_active || s->rp_pending || p->rx_state != RX_NORMAL) return;
    s->skip_seq = 1;
    p->accept_gap = true;
    break;
  case UAL_R_RP_ACK_AHEAD:
    if (!p->dl_active) return;
    s->ack_ahead = true;
    break;
  case UAL_R_RP_EXPLICIT_GROUP:
    if (s->cyc != 0) return;
    s->explicit_group = 2;
    s->label_next_tail = true;
    break;
  case UAL_R_RP_UNACKED_LIMIT:
  case UAL_R_RP_ACK_TIMEOUT:
    /* the partner sends Ack 0 (ignored) instead of progress; nobody asks
     * for anything meanwhile, so no answer is late */
    if (!requests_idle(g)) return;
    g->hold_requests = true;
    p->withhold_acks_until = p->flits_sent + (in->rule == UAL_R_RP_UNACKED_LIMIT ? 600 : 1800);
    p->withheld_ack = 0;
    if (in->rule == UAL_R_RP_UNACKED_LIMIT) s->ignore_limit = true;
    else s->timeout_inject = true;
    in->n = 1;
    return;
  }
  in->n = 1;
  in->fin = 1;
}

static bool credit_carrier(const struct side *s) {
  const struct uart_state *u = &s->uart;
  return u->enabled && !u->credit_first_due && !u->credit_queued && s->ch_online[UAL_CHAN_UART];
}

static uint32_t credit_update(uint16_t fcseq) {
  struct ual_dlmsg m = { .type = UAL_MT_UART_CREDIT, .data_fc_seq = fcseq };
  return ual_dlmsg_encode(&m);
}

static void slot_msg(struct gen *g, struct side *s, struct inj *in) {
  struct side *p = peer_of(g, s);
  struct ual_dlmsg m;
  memset(&m, 0, sizeof m);
  switch (in->rule) {
  case UAL_R_DM_UNKNOWN:
    if (in->n) return;
    queue_labelled(s, MC_BASIC, dw_put(0, UAL_F_MSG_MCLASS, 3), in->rule);
    break;
  case UAL_R_DM_COMPRESSED:
  case UAL_R_DM_RESERVED:
  case UAL_R_DM_FIELD: {
    if (in->n || !credit_carrier(s)) return;
    uint32_t dw = credit_update(s->uart.rx_cnt_sent);
    if (in->rule == UAL_R_DM_COMPRESSED) dw = dw_put(dw, UAL_F_MSG_COMPRESSED, 1);
    else if (in->rule == UAL_R_DM_RESERVED) dw = dw_put(dw, UAL_F_UCR_RSVD12, 1);
    else dw = dw_put(dw, UAL_F_UCR_STREAM, 1);
    queue_labelled(s, MC_UART, dw, in->rule);
    break;
  }
  case UAL_R_DM_ID_FIELD:
    if (in->n || s->basic_out[UAL_MT_DEVICE_ID]) return;
    m.type = UAL_MT_DEVICE_ID;
    m.id = 0x155;
    m.dev_type = s->role == UAL_ROLE_ACCEL;
    queue_labelled(s, MC_BASIC, ual_dlmsg_encode(&m), in->rule);
    s->basic_out[UAL_MT_DEVICE_ID] = true;
    break;
  case UAL_R_DM_UNSOLICITED:
    if (in->n || p->basic_out[UAL_MT_DEVICE_ID]) return;
    m.type = UAL_MT_DEVICE_ID;
    m.ack = 1;
    m.id = s->dev_id;
    m.valid = 1;
    m.dev_type = s->role == UAL_ROLE_ACCEL;
    queue_labelled(s, MC_BASIC, ual_dlmsg_encode(&m), in->rule);
    break;
  case UAL_R_DM_NOOP_CONTEXT: {
    if (in->n) return;
    m.type = UAL_MT_NOOP;
    uint32_t dw = ual_dlmsg_encode(&m);
    struct msg_item it;
    dl_msg_init(&it, MC_BASIC, &dw, 1);
    it.hook = H_LONE_NOOP;
    dl_queue_msg(s, &it);
    s->noop_label = 1;
    break;
  }
  case UAL_R_DM_BASIC_OUTSTANDING:
    if (in->n || s->basic_out[UAL_MT_DEVICE_ID]) return;
    dl_basic_request(g, s, UAL_MT_DEVICE_ID);
    m.type = UAL_MT_DEVICE_ID;
    m.id = s->dev_id;
    m.valid = 1;
    m.dev_type = s->role == UAL_ROLE_ACCEL;
    queue_labelled(s, MC_BASIC, ual_dlmsg_encode(&m), in->rule);
    p->dup_basic = 2;
    break;
  case UAL_R_DM_RESPONSE_LATE:
    /* a UART transport of the responder open at the request extends its
     * deadline (digest 3.2): none runs from here to the late answer */
    if (in->n || p->basic_out[UAL_MT_DEVICE_ID] || s->uart.transport_busy) return;
    s->late_pending = true;
    s->response_delay_ps = 2 * PS_PER_US + 2 * side_flit_ps(s);
    dl_basic_request(g, p, UAL_MT_DEVICE_ID);
    break;
  case UAL_R_DM_RATE_RANGE:
    if (in->n || s->rate_fsm != RC_IDLE) return;
    s->rate_label = (int16_t)in->rule;
    dl_rate_change(s, 41000, false);
    break;
  case UAL_R_DM_RATE_SEQUENCE:
    if (s->rate_fsm != RC_IDLE) return;
    if (in->n == 0) { dl_rate_change(s, UAL_RATE_FULL, false); in->n = 1; return; }
    if (in->n == 1) { s->rate_label = (int16_t)in->rule; dl_rate_change(s, 30000, true); in->n = 2; return; }
    if (in->n == 2) { dl_rate_change(s, UAL_RATE_FULL, false); in->n = 3; in->fin = 1; }
    return;
  case UAL_R_DM_RATE_SWITCH:
    if (in->n) return;
    m.type = UAL_MT_TL_RATE;
    m.rate = UAL_RATE_FULL;
    queue_labelled(s, MC_BASIC, ual_dlmsg_encode(&m), in->rule);
    break;
  case UAL_R_DM_UART_CREDIT:
    if (in->n || !s->uart.enabled) return;
    s->uart.over_credit = 1;
    break;
  }
  in->n = 1;
  in->fin = 1;
}

/* An injection works from its first chance until it says it is finished,
 * which may be after its label went out (a replay to wait for, a flag to clear). */
static void inj_slot(struct gen *g, struct side *s) {
  s->l1_early_ack = inj_pending(g, UAL_R_LT_L1_DLLP_ROLE);
  s->tl_past_drain = inj_pending(g, UAL_R_DL_TRUNCATED_TL);
  for (unsigned i = 0; i < g->ij->n; i++) {
    struct inj *in = &g->ij->inj[i];
    if (in->fin || in->side != s->id) continue;
    if (in->n == 0 && !armed(g, in, s)) continue;
    switch (info_of(in->rule)->kind) {
    case K_CORRUPT: slot_corrupt(g, s, in); break;
    case K_EXTRA: slot_extra(g, s, in); break;
    case K_SEQ: slot_seq(g, s, in); break;
    case K_MSG: if (s->dl_active && s->mode == PL_NORMAL) slot_msg(g, s, in); break;
    default: in->fin = 1; break;
    }
  }
}

/* LT-PAYLOAD-IN-L1: the switch sends one more payload flit after its L1 Ack. */
static void inj_l1_stopped(struct gen *g, struct side *s) {
  if (s->role == UAL_ROLE_SWITCH && inj_pending(g, UAL_R_LT_PAYLOAD_IN_L1)) s->l1_payload_extra = 1;
}

void inj_lm(struct gen *g, struct side *s, struct pl_extra *x) {
  if (inj_find(g, UAL_R_LT_L0P_PRIORITY) && inj_find(g, UAL_R_LT_L0P_PRIORITY)->state != INJ_DONE) {
    x->dllp.lm_priority = 1;
    x->label = UAL_R_LT_L0P_PRIORITY;
  }
  if (s->role == UAL_ROLE_SWITCH && inj_find(g, UAL_R_LT_L0P_INITIATOR)) x->label = UAL_R_LT_L0P_INITIATOR;
  if (inj_find(g, UAL_R_LT_L0P_WITHOUT_DL) && inj_find(g, UAL_R_LT_L0P_WITHOUT_DL)->state != INJ_DONE)
    x->label = UAL_R_LT_L0P_WITHOUT_DL;
}

/* DL-TRUNCATED-TL: stop right after a flit that leaves a TL flit half sent. */
bool inj_drain_ready(struct gen *g) {
  struct inj *in = inj_find(g, UAL_R_DL_TRUNCATED_TL);
  if (!in || in->state == INJ_DONE) return true;
  return false;
}

bool inj_truncate_now(struct gen *g) {
  struct inj *in = inj_find(g, UAL_R_DL_TRUNCATED_TL);
  if (!in || in->state == INJ_DONE) return false;
  struct side *a = &g->s[0];
  bool time = in->at ? g->frame >= in->at : g->draining;
  if (!time || !ual_pack_busy(&a->pack) || a->mode != PL_NORMAL) return false;
  gen_truth(g, a->last_flit_frame, 0, in->rule, TRUTH_SRC_INJECT,
            "capture ends with a TL flit partly sent (reported at the end of the capture)");
  return true;
}

/* ---- steps some injections need ---- */

static void plan_nego_mt(struct gen *g, unsigned side, unsigned mt, unsigned target, unsigned flags) {
  step_nego(g, side, mt, target, 0)->n = flags;
}

static void plan_nego(struct gen *g, unsigned side, unsigned target, unsigned flags) {
  plan_nego_mt(g, side, UAL_MT_CHANNEL, target, flags);
}

/* Timeouts of 10 ms: the link rests in L1 a little longer, so the deadline
 * passes where no record is sent, whatever the rate. */
static void plan_rest(struct gen *g, uint32_t timeout_ns) {
  static const struct l1_twists plain;
  step_l1(g, timeout_ns + 2000, &plain);
}

void inj_plan(struct gen *g) {
  step_keep(g, true);                       /* the record limit does not cut an injection short */
  for (unsigned i = 0; i < g->ij->n; i++) {
    struct inj *in = &g->ij->inj[i];
    if (info_of(in->rule)->kind != K_PLAN) continue;
    step_add(g, OP_INJECT_POINT)->n = (uint32_t)in->at;
    const unsigned off = UAL_CHAN_UART, on = UAL_CHAN_ONLINE | UAL_CHAN_UART;
    unsigned w = side_width_code(g->s[0].width);
    switch (in->rule) {
    case UAL_R_DM_CTRL_PENDING_ILLEGAL:
    case UAL_R_DM_CTRL_RESOLUTION:
    case UAL_R_DM_CTRL_LOSER_RETRY: {
      /* A asks for x2, B for x4 at the same time: without Priority the widest
       * wins. No UART meanwhile, so each answer goes out in the next flit. */
      /* B breaks the rule: it asks for the narrower width, sends second, and so
       * receives A's request, and answers it, first */
      step_add(g, OP_UART_STOP);
      if (in->rule == UAL_R_DM_CTRL_PENDING_ILLEGAL) step_set(g, SET_CONFLICT_PENDING, 1, 1);
      if (in->rule == UAL_R_DM_CTRL_RESOLUTION) step_set(g, SET_CONFLICT_WRONG, 1, 1);
      unsigned wa = w >= 1 ? w - 1 : 0, wb = w >= 2 ? w - 2 : 0;
      step_conflict(g, UAL_MT_LINK_WIDTH, wa, wb, CONFLICT_B_SECOND);
      if (in->rule == UAL_R_DM_CTRL_LOSER_RETRY) {
        step_set(g, SET_CTRL_LABEL, 1, in->rule);
        plan_nego_mt(g, 1, UAL_MT_LINK_WIDTH, wb, 0);
      }
      plan_nego_mt(g, 0, UAL_MT_LINK_WIDTH, w, 0);   /* back to the trained width */
      step_add(g, OP_UART_ONLINE_WAIT);
      continue;
    }
    case UAL_R_DM_CTRL_SAME_STATE:
      step_set(g, SET_CTRL_LABEL, 0, in->rule);
      plan_nego(g, 0, UAL_CHAN_ONLINE | UAL_CHAN_TL, 0);
      continue;
    case UAL_R_DM_UART_RESET_NOOPS:
      step_set(g, SET_NOOPS, 0, 0);
      step_add(g, OP_UART_RESET)->side = 0;
      step_set(g, SET_NOOPS, 0, 40);
      continue;
    case UAL_R_DM_CTRL_PENDING_TIMEOUT: {
      /* a speed other than the current one: Decision Pending is a legal answer */
      unsigned sp = g->s[0].max_speed_code;
      plan_nego_mt(g, 0, UAL_MT_LINK_SPEED, sp ? sp - 1 : 1, NF_PENDING_LAPSE);
      plan_rest(g, UAL_PENDING_NS);
      continue;
    }
    case UAL_R_DM_UART_RESET_TIMEOUT: {
      struct op *o = step_add(g, OP_UART_RESET);
      o->side = 0;
      o->a = 1;
      plan_rest(g, UAL_UART_RESET_NS);
      continue;
    }
    }
    /* a switch's request may follow a Decision Pending sent in the 10 ms
     * before the capture: the analyzer judges it once 10 ms are known */
    if (in->rule == UAL_R_DM_CTRL_INITIATOR && starts_mid_link(g)) plan_rest(g, UAL_PENDING_NS);
    step_add(g, OP_UART_STOP);
    switch (in->rule) {
    case UAL_R_DM_CTRL_ECHO:
      step_set(g, SET_ECHO, 1, 1);
      plan_nego(g, 0, off, 0);
      plan_nego(g, 0, on, 0);
      break;
    case UAL_R_DM_CTRL_RESPONSE_RULE:
      step_set(g, SET_FORCE, 1, UAL_CMD_NACK);
      step_set(g, SET_FORCE_LABEL, 1, in->rule);
      plan_nego(g, 0, off, 0);
      break;
    case UAL_R_DM_CTRL_OUTSTANDING:
      plan_nego(g, 0, off, NF_DUPLICATE);
      plan_nego(g, 0, on, 0);
      break;
    case UAL_R_DM_CTRL_NO_CONFIRM:
      step_set(g, SET_SKIP_CONFIRM, 0, 1);
      plan_nego(g, 0, off, NF_NO_CONFIRM);
      /* long enough for the analyzer to stop waiting for the confirmation */
      step_run(g, (unsigned)(12 * PS_PER_US / side_flit_ps(&g->s[0])));
      break;
    case UAL_R_DM_CTRL_INITIATOR:
      step_set(g, SET_CTRL_LABEL, 1, in->rule);
      plan_nego(g, 1, off, 0);
      plan_nego(g, 0, on, 0);
      break;
    case UAL_R_DM_UART_CH4_OFFLINE:
      plan_nego(g, 0, off, 0);
      step_set(g, SET_SEND_CREDIT, 0, in->rule);
      step_run(g, 16);
      plan_nego(g, 0, on, 0);
      break;
    }
    step_add(g, OP_UART_ONLINE_WAIT);
  }
  step_keep(g, false);
}

/* Queues a UART Credit Update whatever the channel state (DM-UART-CH4-OFFLINE). */
void inj_send_credit(struct gen *g, struct side *s, int rule) {
  (void)g;
  queue_labelled(s, MC_UART, credit_update(s->uart.rx_cnt), rule);
}
