/* The PCIe non-flit link scenario (pcie.h). One DLLP record every 32 ns
 * (8 symbols at 2.5 GT/s x1), both directions interleaved:
 *
 *   FC init of VC0, VC1, VC2 on both sides: two rounds of InitFC1 P/NP/Cpl,
 *   two of InitFC2; then rounds of Acks, UpdateFC-P/-NP and an occasional
 *   NOP; credits and sequence numbers start near the wrap so they wrap;
 *   then L1 entry: PM_Enter_L1 from the Endpoint, PM_Request_Ack from the
 *   Root Port, electrical idle (a kind-3 event).
 *
 * Credits: P hdr 32 data 256, NP hdr 16 data 0 (infinite), Cpl 0/0
 * (infinite), so UpdateFC-NP carries data 0 and no UpdateFC-Cpl is sent.
 * Each injection is one DLLP changed or added, labelled at its frame. */
#include "pcie.h"
#include "rng.h"

#include <stdio.h>
#include <string.h>

#define DLLP_PS        32000u     /* 8 symbols at 2.5 GT/s */
#define ROLE_RP        1u         /* pcie.md [P3] */
#define ROLE_EP        4u
#define VCS            3u
#define ROUNDS_DEFAULT 120u
#define INJECT_FIRST   80u        /* default frame of an injection: in the traffic */

struct pg {
  const struct gen_opts *o;
  const struct gen_out *out;
  struct gen_rng rng;
  uint64_t frame, ts_ns;
  uint16_t ack[2];                 /* last Ack number sent by each side */
  uint16_t hdr[2][VCS], data[2][VCS], np_hdr[2][VCS];
  bool want[UAL_R_COUNT], done[UAL_R_COUNT];
  uint64_t at[UAL_R_COUNT];
  int stop;
};

static const struct { int rule; const char *how; } catalog[] = {
#define GEN_X_(e, h) { UAL_R_##e, h },
  GEN_PCIE_INJECTIONS(GEN_X_)
#undef GEN_X_
};
#define N_CATALOG (sizeof catalog / sizeof catalog[0])

bool gen_pcie_inject_supported(int rule) { return gen_pcie_inject_how(rule) != NULL; }

const char *gen_pcie_inject_how(int rule) {
  for (size_t i = 0; i < N_CATALOG; i++)
    if (catalog[i].rule == rule) return catalog[i].how;
  return NULL;
}

static void emit(struct pg *p, unsigned dir, unsigned kind, const uint8_t *body, size_t n) {
  if (p->stop) return;
  struct ual_rec_hdr h;
  ual_rec_hdr_init(&h, kind, dir);
  h.rate = 1;
  h.width = 1;
  h.roles_pcie = 1;
  h.role_a = ROLE_RP;
  h.role_b = ROLE_EP;
  uint8_t rec[UAL_REC_HDR_BYTES + UAL_PCIE_DLLP_BODY];
  size_t len = ual_record_build(&h, body, n, rec, sizeof rec);
  p->frame++;
  p->ts_ns += DLLP_PS / 1000;
  p->stop = p->out->record(p->out->ctx, p->o->start_ns + p->ts_ns, rec, len);
}

static void send(struct pg *p, unsigned dir, const struct ual_pcie_dllp *d) {
  uint8_t body[UAL_PCIE_DLLP_BODY];
  ual_pcie_dllp_encode(d, body);
  emit(p, dir, UAL_REC_PCIE_DLLP, body, sizeof body);
}

static void label(struct pg *p, unsigned dir, int rule, const char *note) {
  p->done[rule] = true;
  if (p->out->truth) p->out->truth(p->out->ctx, p->frame, dir, rule, "inject", note);
}

/* The injection is wanted and its frame has come. */
static bool due(const struct pg *p, int rule) {
  return p->want[rule] && !p->done[rule] && p->frame + 1 >= p->at[rule];
}

static void fc(struct pg *p, unsigned dir, enum ual_pcie_dllp_name n, unsigned vc, unsigned hdr, unsigned data) {
  struct ual_pcie_dllp d;
  ual_pcie_dllp_fc(&d, n, vc, 0, hdr, 0, data);
  send(p, dir, &d);
}

static void simple(struct pg *p, unsigned dir, unsigned type, unsigned seq) {
  struct ual_pcie_dllp d;
  memset(&d, 0, sizeof d);
  d.type = (uint8_t)type;
  d.seq = (uint16_t)seq;
  send(p, dir, &d);
}

static void fc_init(struct pg *p) {
  static const enum ual_pcie_dllp_name i1[3] = { UAL_PCIE_DT_INITFC1_P, UAL_PCIE_DT_INITFC1_NP, UAL_PCIE_DT_INITFC1_CPL };
  static const enum ual_pcie_dllp_name i2[3] = { UAL_PCIE_DT_INITFC2_P, UAL_PCIE_DT_INITFC2_NP, UAL_PCIE_DT_INITFC2_CPL };
  static const unsigned hdr[3] = { 32, 16, 0 }, data[3] = { 256, 0, 0 };
  for (unsigned vc = 0; vc < VCS; vc++)
    for (unsigned stage = 0; stage < 2; stage++)
      for (unsigned round = 0; round < 2; round++)
        for (unsigned c = 0; c < 3; c++)
          for (unsigned dir = 0; dir < 2; dir++) {
            unsigned h = hdr[c];
            bool inj = stage == 1 && round == 1 && c == 2 && vc == 2 && dir == 0 && p->want[UAL_R_PD_FC_INIT_CHANGED];
            if (inj) h = 1;
            fc(p, dir, stage ? i2[c] : i1[c], vc, h, data[c]);
            if (inj) label(p, dir, UAL_R_PD_FC_INIT_CHANGED, "InitFC2-Cpl VC2 HdrFC 1 after InitFC1 0");
          }
  for (unsigned dir = 0; dir < 2; dir++)
    for (unsigned vc = 0; vc < VCS; vc++) {
      p->hdr[dir][vc] = 32;
      p->data[dir][vc] = 256;
      p->np_hdr[dir][vc] = 16;
    }
}

/* The injections that add or change one DLLP in the traffic. */
static void traffic_injections(struct pg *p, unsigned dir, unsigned vc) {
  struct ual_pcie_dllp d;
  if (due(p, UAL_R_PD_TYPE)) {
    simple(p, dir, 0x05, 0);
    label(p, dir, UAL_R_PD_TYPE, "reserved DLLP type 05h");
  }
  if (due(p, UAL_R_PD_RESERVED)) {
    memset(&d, 0, sizeof d);
    d.type = 0x00;
    d.seq = p->ack[dir];
    uint8_t body[UAL_PCIE_DLLP_BODY];
    ual_pcie_dllp_encode(&d, body);
    body[UAL_PCIE_DLLP_OFF + 1] = 0x01;   /* reserved; the CRC covers it */
    uint16_t crc = ual_pcie_crc16(body + UAL_PCIE_DLLP_OFF);
    body[UAL_PCIE_DLLP_OFF + 4] = (uint8_t)crc;
    body[UAL_PCIE_DLLP_OFF + 5] = (uint8_t)(crc >> 8);
    emit(p, dir, UAL_REC_PCIE_DLLP, body, sizeof body);
    label(p, dir, UAL_R_PD_RESERVED, "Ack byte 1 = 01h");
  }
  if (due(p, UAL_R_PD_FC_ORDER)) {
    fc(p, dir, UAL_PCIE_DT_INITFC2_P, 0, 32, 256);
    label(p, dir, UAL_R_PD_FC_ORDER, "InitFC2-P VC0 after UpdateFC");
  }
  if (due(p, UAL_R_PD_FC_BACKWARDS)) {
    fc(p, dir, UAL_PCIE_DT_UPDATEFC_P, vc, (p->hdr[dir][vc] - 1u) & 0xFF, p->data[dir][vc]);
    label(p, dir, UAL_R_PD_FC_BACKWARDS, "UpdateFC-P one header credit back");
  }
  if (due(p, UAL_R_PD_FC_INFINITE)) {
    fc(p, dir, UAL_PCIE_DT_UPDATEFC_NP, vc, p->np_hdr[dir][vc], 1);
    label(p, dir, UAL_R_PD_FC_INFINITE, "UpdateFC-NP DataFC 1 for infinite data credits");
  }
  if (due(p, UAL_R_PD_FC_SCALE)) {
    ual_pcie_dllp_fc(&d, UAL_PCIE_DT_UPDATEFC_P, vc, 1, p->hdr[dir][vc], 0, p->data[dir][vc]);
    send(p, dir, &d);
    label(p, dir, UAL_R_PD_FC_SCALE, "UpdateFC-P HdrScale 01b, InitFC 00b");
  }
  if (due(p, UAL_R_PD_ACK_BACKWARDS)) {
    simple(p, dir, 0x00, (p->ack[dir] - 3u) & 0xFFF);
    label(p, dir, UAL_R_PD_ACK_BACKWARDS, "Ack three below the last");
  }
  if (dir == 0 && due(p, UAL_R_PD_PM_ORDER)) {
    simple(p, 0, 0x24, 0);
    label(p, 0, UAL_R_PD_PM_ORDER, "PM_Request_Ack from the Root Port without a request");
  }
}

static void traffic(struct pg *p, unsigned rounds) {
  for (unsigned r = 0; r < rounds && !p->stop; r++) {
    for (unsigned dir = 0; dir < 2; dir++) {
      unsigned vc = r % VCS;
      traffic_injections(p, dir, vc);
      p->ack[dir] = (uint16_t)((p->ack[dir] + 1u + gen_rng_below(&p->rng, 5)) & 0xFFF);
      if (due(p, UAL_R_PD_CRC)) {
        struct ual_pcie_dllp d;
        memset(&d, 0, sizeof d);
        d.seq = p->ack[dir];
        uint8_t body[UAL_PCIE_DLLP_BODY];
        ual_pcie_dllp_encode(&d, body);
        body[UAL_PCIE_DLLP_OFF + 5] ^= 0x10;
        emit(p, dir, UAL_REC_PCIE_DLLP, body, sizeof body);
        label(p, dir, UAL_R_PD_CRC, "Ack CRC-16 bit flipped");
      } else if (due(p, UAL_R_PD_NAK)) {
        simple(p, dir, 0x10, p->ack[dir]);
        label(p, dir, UAL_R_PD_NAK, "Nak in place of an Ack");
      } else {
        simple(p, dir, 0x00, p->ack[dir]);
      }
      p->hdr[dir][vc] = (uint16_t)((p->hdr[dir][vc] + 1u + gen_rng_below(&p->rng, 6)) & 0xFF);
      p->data[dir][vc] = (uint16_t)((p->data[dir][vc] + 4u + gen_rng_below(&p->rng, 60)) & 0xFFF);
      fc(p, dir, UAL_PCIE_DT_UPDATEFC_P, vc, p->hdr[dir][vc], p->data[dir][vc]);
      if (r % 2) {
        p->np_hdr[dir][vc] = (uint16_t)((p->np_hdr[dir][vc] + 1u) & 0xFF);
        fc(p, dir, UAL_PCIE_DT_UPDATEFC_NP, vc, p->np_hdr[dir][vc], 0);
      }
      if (r % 7 == 3) simple(p, dir, 0x31, 0);
    }
  }
}

static void l1_entry(struct pg *p) {
  for (int i = 0; i < 3; i++) simple(p, 1, 0x20, 0);
  for (int i = 0; i < 3; i++) {
    simple(p, 0, 0x24, 0);
    if (i == 0) simple(p, 1, 0x20, 0);
  }
  struct ual_event e = { UAL_EV_EIDLE_ENTER, 0, 0 };
  uint8_t body[UAL_REC_EVENT_BYTES];
  ual_event_build(&e, body);
  emit(p, 0, UAL_REC_EVENT, body, sizeof body);
}

int gen_pcie_run(const struct gen_opts *o, const struct gen_out *out, uint64_t *records, char *err, size_t cap) {
  struct pg p;
  memset(&p, 0, sizeof p);
  p.o = o;
  p.out = out;
  gen_rng_seed(&p.rng, o->seed ^ 0x9C1Eull);
  for (unsigned i = 0; i < o->n_inject; i++) {
    int r = o->inject[i].rule;
    if (!gen_pcie_inject_supported(r)) {
      snprintf(err, cap, "%s cannot be injected in the pcie scenario", ual_rule_id((enum ual_rule)r));
      return -1;
    }
    p.want[r] = true;
    p.at[r] = o->inject[i].at_frame == GEN_AT_DEFAULT ? INJECT_FIRST + 8 * i : o->inject[i].at_frame;
  }
  /* near the wrap, so that sequence numbers and credits wrap in the traffic */
  p.ack[0] = 4060;
  p.ack[1] = 4000;
  fc_init(&p);
  unsigned rounds = ROUNDS_DEFAULT;
  if (o->count) rounds = (unsigned)(o->count / 6 + 1);
  traffic(&p, rounds);
  /* an injection whose frame came late still gets its traffic */
  for (unsigned extra = 0; extra < 1000 && !p.stop; extra++) {
    bool pending = false;
    for (unsigned i = 0; i < o->n_inject; i++) pending |= !p.done[o->inject[i].rule];
    if (!pending) break;
    traffic(&p, 1);
  }
  l1_entry(&p);
  *records = p.frame;
  for (unsigned i = 0; i < o->n_inject; i++)
    if (!p.done[o->inject[i].rule]) {
      snprintf(err, cap, "%s: no opportunity", ual_rule_id((enum ual_rule)o->inject[i].rule));
      return -1;
    }
  if (p.stop) {
    snprintf(err, cap, "output stopped");
    return -1;
  }
  return 0;
}
