/* Stateful PCIe DLLP analysis through the analyzer's dispatch
 * (core/analysis.h): every stateful PD- rule fires on its violation and
 * not on conformant traffic, and nothing is raised from unknown state. */
#include "pcie_an_tx.h"

static void fc(struct tx *t, unsigned dir, enum ual_pcie_dllp_name n, unsigned vc, unsigned hdr, unsigned data) {
  struct ual_pcie_dllp d;
  ual_pcie_dllp_fc(&d, n, vc, 0, hdr, 0, data);
  dllp(t, dir, &d);
}

static void fc_scaled(struct tx *t, unsigned dir, enum ual_pcie_dllp_name n, unsigned vc, unsigned hs, unsigned hdr,
                      unsigned ds, unsigned data) {
  struct ual_pcie_dllp d;
  ual_pcie_dllp_fc(&d, n, vc, hs, hdr, ds, data);
  dllp(t, dir, &d);
}

static void simple(struct tx *t, unsigned dir, unsigned type, unsigned seq) {
  struct ual_pcie_dllp d = {0};
  d.type = (uint8_t)type;
  d.seq = (uint16_t)seq;
  dllp(t, dir, &d);
}

/* InitFC1 P/NP/Cpl, InitFC2 P/NP/Cpl of one VC from one side. */
static void init_vc(struct tx *t, unsigned dir, unsigned vc, unsigned hdr, unsigned data) {
  fc(t, dir, UAL_PCIE_DT_INITFC1_P, vc, hdr, data);
  fc(t, dir, UAL_PCIE_DT_INITFC1_NP, vc, hdr, 0);
  fc(t, dir, UAL_PCIE_DT_INITFC1_CPL, vc, 0, 0);
  fc(t, dir, UAL_PCIE_DT_INITFC2_P, vc, hdr, data);
  fc(t, dir, UAL_PCIE_DT_INITFC2_NP, vc, hdr, 0);
  fc(t, dir, UAL_PCIE_DT_INITFC2_CPL, vc, 0, 0);
}

static void test_clean(struct tx *t) {
  tx_init(t);
  for (unsigned d = 0; d < 2; d++) {
    init_vc(t, d, 0, 32, 256);
    init_vc(t, d, 1, 16, 128);
  }
  CHECK_EQ(t->a->fab.pcie.lk[0].s[A].vc[0].phase, UAL_PCIE_PH_INIT2);
  /* credits advance and wrap modulo 2^8 / 2^12 */
  unsigned h = 32, dt = 256;
  for (int i = 0; i < 600; i++) {
    h = (h + 3) & 0xFF;
    dt = (dt + 37) & 0xFFF;
    fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 0, h, dt);
    fc(t, B, UAL_PCIE_DT_UPDATEFC_P, 1, (16u + 2u * (unsigned)i) & 0xFF, dt);
    simple(t, B, 0x00, (unsigned)(i * 7) & 0xFFF);
  }
  CHECK_EQ(t->a->fab.pcie.lk[0].s[A].vc[0].phase, UAL_PCIE_PH_UPDATE);
  CHECK(t->events[UAL_TEV_PCIE_FC] >= 1);
  /* PM L1: request from the Endpoint (B), Acks from the Root Port (A) */
  simple(t, B, 0x20, 0);
  simple(t, B, 0x20, 0);
  simple(t, A, 0x24, 0);
  simple(t, A, 0x24, 0);
  CHECK_EQ(t->events[UAL_TEV_PCIE_PM], 2);
  link_event(t, UAL_EV_EIDLE_ENTER);
  /* after a link event the FC init may start again */
  init_vc(t, A, 0, 32, 256);
  CHECK_EQ(total(t), 0);
  CHECK_EQ(t->a->fab.pcie.lk[0].s[B].by_type[UAL_PCIE_DT_ACK], 600);
  /* no UALink rule and no UALink state from PCIe records */
  CHECK_EQ(t->a->flits[0] + t->a->flits[1], 0);
}

static void test_fc_order(struct tx *t) {
  /* InitFC2 before all three InitFC1 */
  tx_init(t);
  fc(t, A, UAL_PCIE_DT_INITFC1_P, 0, 32, 256);
  fc(t, A, UAL_PCIE_DT_INITFC1_NP, 0, 32, 0);
  CHECK_EQ(total(t), 0);
  fc(t, A, UAL_PCIE_DT_INITFC2_P, 0, 32, 256);
  CHECK_EQ(t->counts[UAL_R_PD_FC_ORDER], 1);
  /* UpdateFC before InitFC2 */
  tx_init(t);
  fc(t, A, UAL_PCIE_DT_INITFC1_P, 2, 32, 256);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 2, 33, 256);
  CHECK_EQ(t->counts[UAL_R_PD_FC_ORDER], 1);
  CHECK_EQ(total(t), 1);
  /* InitFC after UpdateFC, and not after a link event in between */
  tx_init(t);
  init_vc(t, A, 0, 32, 256);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 0, 40, 300);
  tx_clear(t);
  fc(t, A, UAL_PCIE_DT_INITFC1_P, 0, 32, 256);
  CHECK_EQ(t->counts[UAL_R_PD_FC_ORDER], 1);
  CHECK_EQ(total(t), 1);
  tx_init(t);
  init_vc(t, A, 0, 32, 256);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 0, 40, 300);
  link_event(t, UAL_EV_EIDLE_ENTER);
  init_vc(t, A, 0, 32, 256);
  CHECK_EQ(total(t), 0);
  /* start anywhere: a capture that begins after InitFC1-P of the VC */
  tx_init(t);
  fc(t, A, UAL_PCIE_DT_INITFC1_NP, 0, 32, 0);
  fc(t, A, UAL_PCIE_DT_INITFC1_CPL, 0, 0, 0);
  fc(t, A, UAL_PCIE_DT_INITFC2_P, 0, 32, 256);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 0, 33, 256);
  CHECK_EQ(total(t), 0);
  /* lost records forget the direction's state */
  tx_init(t);
  fc(t, A, UAL_PCIE_DT_INITFC1_P, 0, 32, 256);
  t->flags = UAL_RF_LOST;
  fc(t, A, UAL_PCIE_DT_INITFC2_P, 0, 32, 256);
  CHECK_EQ(total(t), 0);
}

static void test_fc_values(struct tx *t) {
  /* InitFC2 values differ from InitFC1 */
  tx_init(t);
  fc(t, A, UAL_PCIE_DT_INITFC1_P, 0, 32, 256);
  fc(t, A, UAL_PCIE_DT_INITFC1_NP, 0, 32, 0);
  fc(t, A, UAL_PCIE_DT_INITFC1_CPL, 0, 0, 0);
  fc(t, A, UAL_PCIE_DT_INITFC1_P, 0, 32, 256);   /* a repeat, same values */
  CHECK_EQ(total(t), 0);
  fc(t, A, UAL_PCIE_DT_INITFC2_P, 0, 32, 255);
  CHECK_EQ(t->counts[UAL_R_PD_FC_INIT_CHANGED], 1);
  CHECK_EQ(total(t), 1);
  /* backwards modulo the width; forwards across the wrap is fine */
  tx_init(t);
  init_vc(t, A, 0, 250, 4000);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 0, 3, 50);     /* both wrapped forwards */
  CHECK_EQ(total(t), 0);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 0, 2, 50);
  CHECK_EQ(t->counts[UAL_R_PD_FC_BACKWARDS], 1);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 0, 2, 4095);
  CHECK_EQ(t->counts[UAL_R_PD_FC_BACKWARDS], 2);
  /* start anywhere: the first UpdateFC seen has nothing to compare with */
  tx_init(t);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_NP, 5, 10, 0);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_NP, 5, 11, 0);
  CHECK_EQ(total(t), 0);
  /* infinite credits [P9]: NP data advertised 0 stays 0 */
  tx_init(t);
  init_vc(t, A, 0, 32, 256);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_NP, 0, 33, 0);
  CHECK_EQ(total(t), 0);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_NP, 0, 34, 5);
  CHECK_EQ(t->counts[UAL_R_PD_FC_INFINITE], 1);
  CHECK_EQ(total(t), 1);
}

static void test_fc_scale(struct tx *t) {
  /* scale differs from InitFC */
  tx_init(t);
  fc_scaled(t, A, UAL_PCIE_DT_INITFC1_P, 0, 1, 32, 1, 256);
  fc_scaled(t, A, UAL_PCIE_DT_INITFC1_NP, 0, 1, 32, 1, 0);
  fc_scaled(t, A, UAL_PCIE_DT_INITFC1_CPL, 0, 1, 0, 1, 0);
  fc_scaled(t, A, UAL_PCIE_DT_INITFC2_P, 0, 1, 32, 1, 256);
  fc_scaled(t, A, UAL_PCIE_DT_UPDATEFC_P, 0, 1, 33, 1, 256);
  CHECK_EQ(total(t), 0);
  fc_scaled(t, A, UAL_PCIE_DT_UPDATEFC_P, 0, 1, 34, 2, 256);
  CHECK_EQ(t->counts[UAL_R_PD_FC_SCALE], 1);
  CHECK_EQ(total(t), 1);
  /* x4 while the other side advertised no scaling */
  tx_init(t);
  fc(t, B, UAL_PCIE_DT_INITFC1_P, 0, 32, 256);
  fc_scaled(t, A, UAL_PCIE_DT_INITFC1_P, 0, 2, 32, 2, 256);
  CHECK_EQ(t->counts[UAL_R_PD_FC_SCALE], 1);
  /* unknown for the other side: nothing */
  tx_init(t);
  fc_scaled(t, A, UAL_PCIE_DT_INITFC1_P, 0, 3, 32, 3, 256);
  CHECK_EQ(total(t), 0);
}

static void test_ack(struct tx *t) {
  tx_init(t);
  simple(t, A, 0x00, 4090);
  simple(t, A, 0x00, 5);       /* wraps forwards */
  simple(t, A, 0x00, 5);
  CHECK_EQ(total(t), 0);
  simple(t, A, 0x10, 5);       /* Nak of the last acked number */
  CHECK_EQ(t->counts[UAL_R_PD_NAK], 1);
  CHECK_EQ(total(t), 1);
  simple(t, A, 0x00, 4000);    /* 5 -> 4000 is backwards modulo 4096 */
  CHECK_EQ(t->counts[UAL_R_PD_ACK_BACKWARDS], 1);
  simple(t, B, 0x00, 17);      /* the other direction is its own sequence */
  CHECK_EQ(t->counts[UAL_R_PD_ACK_BACKWARDS], 1);
}

static void test_pm(struct tx *t) {
  /* Ack without a request, the requester known to be silent on PM */
  tx_init(t);
  simple(t, B, 0x00, 1);
  simple(t, A, 0x24, 0);
  CHECK_EQ(t->counts[UAL_R_PD_PM_ORDER], 1);
  /* start anywhere: nothing seen from B yet */
  tx_init(t);
  simple(t, A, 0x24, 0);
  CHECK_EQ(total(t), 0);
  /* wrong roles: the Root Port requests, the Endpoint acks */
  tx_init(t);
  simple(t, A, 0x20, 0);
  CHECK_EQ(t->counts[UAL_R_PD_PM_ORDER], 1);
  simple(t, B, 0x24, 0);
  CHECK_EQ(t->counts[UAL_R_PD_PM_ORDER], 2);
  /* roles unknown: only the handshake order */
  tx_init(t);
  t->roles = 0;
  simple(t, A, 0x23, 0);
  simple(t, B, 0x24, 0);
  CHECK_EQ(total(t), 0);
  /* every request type opens a handshake */
  static const unsigned req[] = { 0x20, 0x21, 0x23 };
  for (int i = 0; i < 3; i++) {
    tx_init(t);
    simple(t, B, 0x00, 3);
    simple(t, B, req[i], 0);
    simple(t, A, 0x24, 0);
    CHECK_EQ(total(t), 0);
  }
}

/* Issue 39 item 5: byte 0 bit 3 set inside an FC type's range is a
 * reserved type (S3:L24 lists the FC types as xxxx 0xxxb): PD-TYPE, and
 * the DLLP changes no flow-control state. Broken twin: such a DLLP whose
 * bytes 1-3 read as FC fields would step credits back; clean twin: the
 * same traffic without it. */
static void test_reserved_fc_type(struct tx *t) {
  static const unsigned base[] = { 0x40, 0x50, 0x60, 0x80, 0x90, 0xA0, 0xC0, 0xD0, 0xE0 };
  for (unsigned i = 0; i < sizeof base / sizeof base[0]; i++)
    for (int bad = 0; bad < 2; bad++) {
      tx_init(t);
      init_vc(t, A, 0, 32, 256);
      fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 0, 40, 300);
      struct ual_pcie_side before = t->a->fab.pcie.lk[0].s[A];
      CHECK_EQ(total(t), 0);
      if (bad) {
        struct ual_pcie_dllp d = {0};
        d.type = (uint8_t)(base[i] | 8);   /* VC0 with bit 3 */
        d.raw = 0x000401;                  /* as FC fields: Hdr 0, Data 1 */
        dllp(t, A, &d);
        CHECK_EQ(t->r.pcie.name, UAL_PCIE_DT_RESERVED);
        CHECK_EQ(t->counts[UAL_R_PD_TYPE], 1);
        CHECK_EQ(total(t), 1);
        CHECK(memcmp(before.vc, t->a->fab.pcie.lk[0].s[A].vc, sizeof before.vc) == 0);
        CHECK(memcmp(before.adv, t->a->fab.pcie.lk[0].s[A].adv, sizeof before.adv) == 0);
      }
      fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 0, 41, 310);
      CHECK_EQ(total(t), (unsigned)bad);
      CHECK_EQ(t->a->fab.pcie.lk[0].s[A].vc[0].phase, UAL_PCIE_PH_UPDATE);
    }
}

/* Issue 39 item 7: once the capture shows a side's DL initialisation from
 * its start (VC0 initialises first: its InitFC1-P), a VC that never sent
 * InitFC1/InitFC2 is known not initialised: its UpdateFC is PD-FC-ORDER.
 * Broken twin: VC1's UpdateFC without VC1's initialisation; clean twin:
 * VC1 initialised first. */
static void test_fc_never_initialised(struct tx *t) {
  for (int bad = 0; bad < 2; bad++) {
    tx_init(t);
    init_vc(t, A, 0, 32, 256);
    init_vc(t, B, 0, 32, 256);
    if (!bad) init_vc(t, A, 1, 16, 128);
    CHECK_EQ(total(t), 0);
    fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 1, 20, 140);
    CHECK_EQ(t->counts[UAL_R_PD_FC_ORDER], (unsigned)bad);
    CHECK_EQ(total(t), (unsigned)bad);
    fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 1, 21, 150);   /* judged once: the VC's updates go on */
    CHECK_EQ(total(t), (unsigned)bad);
  }
  /* InitFC2 of a VC with no InitFC1 after the side's initialisation began */
  tx_init(t);
  init_vc(t, A, 0, 32, 256);
  fc(t, A, UAL_PCIE_DT_INITFC2_P, 2, 16, 128);
  CHECK_EQ(t->counts[UAL_R_PD_FC_ORDER], 1);
  CHECK_EQ(total(t), 1);
  /* a receiver-detected link event: every VC of both sides not initialised */
  tx_init(t);
  link_event(t, UAL_EV_RX_DETECT);
  fc(t, B, UAL_PCIE_DT_UPDATEFC_NP, 0, 20, 0);
  CHECK_EQ(t->counts[UAL_R_PD_FC_ORDER], 1);
  CHECK_EQ(total(t), 1);
  /* start anywhere: the side's initialisation not seen from its start */
  tx_init(t);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 0, 40, 300);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 1, 20, 140);
  fc(t, A, UAL_PCIE_DT_INITFC1_NP, 2, 20, 0);   /* inside VC2's round: VC2 first seen here */
  fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 3, 20, 140);
  CHECK_EQ(total(t), 0);
  /* A's VC0 initialisation says nothing of B's VCs, nor lost records after it */
  tx_init(t);
  init_vc(t, A, 0, 32, 256);
  fc(t, B, UAL_PCIE_DT_UPDATEFC_P, 1, 20, 140);
  t->flags = UAL_RF_LOST;
  fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 2, 20, 140);
  CHECK_EQ(total(t), 0);
}

/* Issue 36: a PCIe link's records are PCIe's alone (no UALink rule, no
 * UALink state), its rate and width are timeline events from its first
 * record, and a PM_Enter_L1 handshake followed by electrical idle is an
 * L1 entry in the timeline. */
static void test_link_events(struct tx *t) {
  tx_init(t);
  t->rate = 3;   /* 64 GT/s: a UALink link would need Link Speed negotiations first */
  t->width = 4;
  link_event(t, UAL_EV_RX_DETECT);
  CHECK_EQ(t->events[UAL_TEV_RATE], 1);
  CHECK_EQ(t->events[UAL_TEV_WIDTH], 1);
  uint8_t body[64];
  struct ual_ts_params tp = { 0 };   /* no Flit Mode Supported: a non-flit PCIe link */
  size_t n = ual_os_build_ts(body, sizeof body, 0, 0, &tp);
  CHECK(n > 0);
  for (unsigned d = 0; d < 2; d++) rec(t, d, UAL_REC_OS, body, n);
  CHECK_EQ(t->r.os.type, UAL_OS_TS1);
  CHECK_EQ(total(t), 0);
  CHECK_EQ(t->events[UAL_TEV_LTSSM], 0);
  CHECK_EQ(t->a->lt.p[0].state, UAL_LT_UNKNOWN);
  CHECK_EQ(t->a->lt.p[1].state, UAL_LT_UNKNOWN);
  init_vc(t, A, 0, 32, 256);
  init_vc(t, B, 0, 32, 256);
  CHECK_EQ(t->events[UAL_TEV_RATE] + t->events[UAL_TEV_WIDTH], 4);
  t->rate = 1;
  simple(t, B, 0x00, 1);
  CHECK_EQ(t->last_ev.kind, UAL_TEV_RATE);
  CHECK_EQ(t->last_ev.value, 1);
  CHECK_EQ(t->last_ev.old, 3);
  /* PM_Enter_L1 from the Endpoint, acknowledged, then electrical idle */
  simple(t, B, 0x20, 0);
  simple(t, B, 0x20, 0);
  simple(t, A, 0x24, 0);
  CHECK_EQ(t->events[UAL_TEV_L1], 0);
  link_event(t, UAL_EV_EIDLE_ENTER);
  CHECK_EQ(t->events[UAL_TEV_L1], 1);
  CHECK_EQ(t->last_ev.kind, UAL_TEV_L1);
  CHECK_EQ(t->last_ev.value, 1);
  CHECK_EQ(t->last_ev.partner, UAL_PARTNER_LINK);
  link_event(t, UAL_EV_EIDLE_EXIT);
  CHECK_EQ(t->events[UAL_TEV_L1], 2);
  CHECK_EQ(t->last_ev.value, 0);
  CHECK_EQ(total(t), 0);
  /* an Ack before the request acknowledged nothing: idle is no L1 entry */
  tx_init(t);
  simple(t, B, 0x00, 1);
  simple(t, A, 0x24, 0);
  simple(t, B, 0x20, 0);
  link_event(t, UAL_EV_EIDLE_ENTER);
  CHECK_EQ(t->events[UAL_TEV_L1], 0);
  CHECK_EQ(t->counts[UAL_R_PD_PM_ORDER], 1);
  /* PM_Enter_L23 leads to L2/L3 Ready, not L1 */
  tx_init(t);
  simple(t, B, 0x21, 0);
  simple(t, A, 0x24, 0);
  link_event(t, UAL_EV_EIDLE_ENTER);
  CHECK_EQ(t->events[UAL_TEV_L1], 0);
  CHECK_EQ(t->events[UAL_TEV_PCIE_L23], 1);
  CHECK_EQ(t->last_ev.kind, UAL_TEV_PCIE_L23);
  /* the link's next DLLP ends an L1 whose idle exit was not captured */
  tx_init(t);
  simple(t, B, 0x23, 0);
  simple(t, A, 0x24, 0);
  link_event(t, UAL_EV_EIDLE_ENTER);
  simple(t, A, 0x00, 5);
  CHECK_EQ(t->events[UAL_TEV_L1], 2);
  CHECK_EQ(total(t), 0);
}

/* Snapshots: a copy of the analyzer steps on independently. */
/* --pcie-initfc: a capture that starts after the InitFC judges its
 * UpdateFCs as the whole capture does; the text round-trips. */
static void test_initfc_preset(struct tx *t) {
  char err[256], text[1024];
  CHECK(!ual_fabric_an_preset(NULL, "pcie-initfc", "A:VC0:P=32", err, sizeof err));
  CHECK(strstr(err, "'A:VC0:P=32'") != NULL);
  CHECK(!ual_fabric_an_preset(NULL, "pcie-initfc", "C:VC0:P=1/1", err, sizeof err));
  CHECK(!ual_fabric_an_preset(NULL, "pcie-initfc", "A:VC8:P=1/1", err, sizeof err));
  CHECK(!ual_fabric_an_preset(NULL, "pcie-initfc", "A:VC0:X=1/1", err, sizeof err));
  CHECK(!ual_fabric_an_preset(NULL, "pcie-initfc", "A:VC0:P=256/1", err, sizeof err));
  CHECK(!ual_fabric_an_preset(NULL, "pcie-initfc", "A:VC0:P=1/1:4/0", err, sizeof err));
  CHECK(!ual_fabric_an_preset(NULL, "pcie-initfc", "A:VC0:P=1/1:", err, sizeof err));
  CHECK(!ual_fabric_an_preset(NULL, "no-such-preset", "x", err, sizeof err));
  CHECK(ual_fabric_an_preset(NULL, "pcie-initfc", "3:B:VC7:Cpl=0/4095:3/3", err, sizeof err));
  /* without it, the first UpdateFC after a cut is not judged */
  tx_init(t);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_NP, 0, 34, 5);
  CHECK_EQ(total(t), 0);
  /* with it: NP data advertised infinite, P without scaling */
  tx_init(t);
  CHECK(ual_fabric_an_preset(&t->a->fab, "pcie-initfc", "A:VC0:P=32/256,A:VC0:NP=16/0", err, sizeof err));
  fc(t, A, UAL_PCIE_DT_UPDATEFC_NP, 0, 34, 5);
  CHECK_EQ(t->counts[UAL_R_PD_FC_INFINITE], 1);
  fc_scaled(t, A, UAL_PCIE_DT_UPDATEFC_P, 0, 1, 40, 0, 300);
  CHECK_EQ(t->counts[UAL_R_PD_FC_SCALE], 1);
  CHECK_EQ(total(t), 2);
  ual_fabric_an_preset_text(&t->a->fab, text, sizeof text);
  CHECK_STR(text, "--pcie-initfc A:VC0:P=32/256,A:VC0:NP=16/0");
  /* a new InitFC round replaces the preset: NP data infinite after all */
  tx_init(t);
  CHECK(ual_fabric_an_preset(&t->a->fab, "pcie-initfc", "A:VC0:NP=16/200", err, sizeof err));
  init_vc(t, A, 0, 32, 256);
  CHECK_EQ(total(t), 0);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_NP, 0, 34, 5);
  CHECK_EQ(t->counts[UAL_R_PD_FC_INFINITE], 1);
}

static void test_copy(struct tx *t) {
  tx_init(t);
  init_vc(t, A, 0, 32, 256);
  struct ual_analyzer *copy = malloc(sizeof *copy);
  memcpy(copy, t->a, sizeof *copy);
  fc(t, A, UAL_PCIE_DT_UPDATEFC_P, 0, 40, 300);
  CHECK_EQ(t->a->fab.pcie.lk[0].s[A].vc[0].phase, UAL_PCIE_PH_UPDATE);
  CHECK_EQ(copy->fab.pcie.lk[0].s[A].vc[0].phase, UAL_PCIE_PH_INIT2);
  free(copy);
}

int main(void) {
  struct tx t;
  t.a = malloc(sizeof *t.a);
  test_clean(&t);
  test_fc_order(&t);
  test_fc_values(&t);
  test_fc_scale(&t);
  test_ack(&t);
  test_pm(&t);
  test_reserved_fc_type(&t);
  test_fc_never_initialised(&t);
  test_link_events(&t);
  test_copy(&t);
  test_initfc_preset(&t);
  free(t.a);
  return check_done("test_pcie_analysis");
}
