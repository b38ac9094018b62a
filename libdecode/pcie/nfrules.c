/* The per-TLP rules of non-flit TLPs (nonflit.h; digest pcie.md §7.4,
 * §7.7): what one TLP the data link accepted says about itself, without
 * state. The analysis runs them on first deliveries only [P35]. */
#include "ualink/pcie/nonflit.h"
#include "ualink/pcie/tlp.h"
#include "ualink/core/rules.h"
#include "core/field_access.h"

#include <inttypes.h>
#include <string.h>

static const char *tname(const struct ual_pcie_tlph *h) {
  struct ual_pcie_nf_type t;
  ual_pcie_nf_type(h->byte0, &t);
  return t.name ? t.name : "TLP";
}

static bool mem_request(unsigned kind) {
  return kind == UAL_NF_K_MEM || kind == UAL_NF_K_ATOMIC || kind == UAL_NF_K_DMWR;
}

static bool request(unsigned kind) { return mem_request(kind) || kind == UAL_NF_K_IO || kind == UAL_NF_K_CFG; }

/* §7.4.8: order and counts of the prefixes. */
static void prefixes(const struct ual_pcie_tlph *h, struct ual_findings *f) {
  unsigned e2e = 0, pasid = 0, kept = h->prefixes < UAL_PCIE_NF_MAX_PREFIX ? h->prefixes : UAL_PCIE_NF_MAX_PREFIX;
  bool local_after = false, reserved = false;
  for (unsigned k = 0; k < kept; k++) {
    unsigned b = h->prefix[k];
    struct ual_pcie_nf_type t;
    ual_pcie_nf_type(b, &t);
    if (!t.name && !reserved) {
      reserved = true;
      ual_findings_add(f, UAL_R_PN_TLP_TYPE, -1, "prefix %u: %s prefix type %02xh", k,
                       b == 0x8D ? "FlitModePrefix (flit mode only)," : "reserved", b);
    }
    if (b & 0x10) e2e++;
    else if (e2e) local_after = true;
    if (b == 0x91) pasid++;
  }
  if (h->prefixes > kept) e2e += h->prefixes - kept;   /* past the kept ones: counted as end-end, the worst case */
  if (local_after) ual_findings_add(f, UAL_R_PN_TLP_PREFIX, -1, "a local prefix after an end-end prefix");
  if (e2e > 4) ual_findings_add(f, UAL_R_PN_TLP_PREFIX, -1, "%u end-end prefixes, at most 4", e2e);
  if (pasid > 1) ual_findings_add(f, UAL_R_PN_TLP_PREFIX, -1, "%u PASID prefixes, at most 1", pasid);
}

/* §7.4.4: the byte enables of a request of Length L. */
static void byte_enables(const struct ual_pcie_tlph *h, struct ual_findings *f) {
  unsigned fb = h->first_be, lb = h->last_be, l = h->len_dw;
  if (l == 1) {
    if (lb) ual_findings_add(f, UAL_R_PN_TLP_BE, -1, "%s Length 1 with Last DW BE %xh, not 0", tname(h), lb);
    return;
  }
  if (!fb || !lb) {
    ual_findings_add(f, UAL_R_PN_TLP_BE, -1, "%s Length %u with First DW BE %xh, Last DW BE %xh: both must be non-zero",
                     tname(h), l, fb, lb);
    return;
  }
  if (l == 2 && h->kind != UAL_NF_K_IO && h->kind != UAL_NF_K_CFG && !(h->addr & 4)) return;   /* QW aligned: any */
  bool first_ok = fb == 0xF || fb == 0xE || fb == 0xC || fb == 0x8, last_ok = lb == 0xF || lb == 0x7 || lb == 0x3 || lb == 0x1;
  if (!first_ok || !last_ok)
    ual_findings_add(f, UAL_R_PN_TLP_BE, -1, "%s Length %u with First DW BE %xh, Last DW BE %xh: enabled bytes not contiguous",
                     tname(h), l, fb, lb);
}

/* §7.4.7: the message's code, form, routing, TC, direction, and its
 * reserved bytes 8-15 [P47]. */
static void message(const struct ual_pcie_tlph *h, const uint8_t *dw0, const struct ual_pcie_nf_rules_cfg *c,
                    struct ual_findings *f) {
  const struct ual_pcie_msg *m = ual_pcie_msg(h->code);
  unsigned r = h->routing;
  if (r == 1 || r >= 6)
    ual_findings_add(f, UAL_R_PN_MSG_CODE, -1, "routing r = %u%u%ub %s", r >> 2 & 1, r >> 1 & 1, r & 1,
                     r == 1 ? "(by address: no message uses it)" : "(reserved: terminated at the receiver) [P26]");
  if (!m) {
    ual_findings_add(f, UAL_R_PN_MSG_CODE, -1, "undefined message code %02xh", h->code);
    return;
  }
  unsigned form = m->form, len = m->len, routes = m->routes;
  bool tc0 = m->tc0;
  if (m->b815 == UAL_PCIE_MB_VDM && ual_field_get(UAL_F_PCIE_NF_VDM_VID, dw0) == 0x0001) {   /* PCI-SIG VDMs [P31] */
    switch (ual_field_get(UAL_F_PCIE_NF_VDM_SUB, dw0)) {
#define UAL_X_(st, n, fo, l, rr) case st: form = UAL_PCIE_MF_##fo; len = l; routes = 1u << (rr); tc0 = true; break;
      UAL_PCIE_VDM_PCISIG(UAL_X_)
#undef UAL_X_
    default: break;
    }
  }
  if (routes && r != 1 && r < 6 && !(routes >> r & 1))
    ual_findings_add(f, UAL_R_PN_MSG_CODE, -1, "%s with routing r = %u%u%ub", m->name, r >> 2 & 1, r >> 1 & 1, r & 1);
  if ((form == UAL_PCIE_MF_MSG && h->has_data) || (form == UAL_PCIE_MF_MSGD && !h->has_data))
    ual_findings_add(f, UAL_R_PN_MSG_FORM, -1, "%s as %s, only %s is defined", m->name, h->has_data ? "MsgD" : "Msg",
                     h->has_data ? "Msg" : "MsgD");
  else if (len && h->has_data && h->len_dw != len)
    ual_findings_add(f, UAL_R_PN_MSG_FORM, -1, "%s with Length %u, not %u", m->name, h->len_dw, len);
  if (tc0 && h->tc) ual_findings_add(f, UAL_R_PN_MSG_TC, -1, "%s on TC%u, TC0 required", m->name, h->tc);
  bool intx = h->code >= 0x20 && h->code <= 0x27;
  if (intx) {
    unsigned fn = c->ari ? h->rid & 0xFF : h->rid & 7;
    if (fn) ual_findings_add(f, UAL_R_PN_MSG_INTX, -1, "%s with Function Number %u, not 0%s", m->name, fn, c->ari ? " (ARI)" : "");
    if (c->down == 0) ual_findings_add(f, UAL_R_PN_MSG_INTX, -1, "%s sent downstream", m->name);
  }
  if (c->down == 0 && (r == 0 || r == 5))
    ual_findings_add(f, UAL_R_PN_MSG_DIR, -1, "%s routed %s sent downstream", m->name, r ? "gathered to the Root Complex" : "to the Root Complex");
  if (c->down == 1 && r == 3) ual_findings_add(f, UAL_R_PN_MSG_DIR, -1, "%s broadcast from the Root Complex sent upstream", m->name);
  /* reserved bits [P47] */
  uint64_t b815 = ual_field_get(UAL_F_PCIE_NF_MSG_B8, dw0);
  bool rsvd = m->b815 == UAL_PCIE_MB_RSVD || (m->b815 == UAL_PCIE_MB_PTM && !h->has_data);
  if (rsvd && b815) ual_findings_add(f, UAL_R_PN_TLP_RESERVED, -1, "%s bytes 8-15 = %016" PRIx64 "h, reserved", m->name, b815);
  if (m->b815 == UAL_PCIE_MB_VDM) {
    if (r != 2 && ual_field_get(UAL_F_PCIE_NF_VDM_DEST, dw0))
      ual_findings_add(f, UAL_R_PN_TLP_RESERVED, -1, "%s bytes 8-9 = %04xh without routing by ID, reserved", m->name,
                       (unsigned)ual_field_get(UAL_F_PCIE_NF_VDM_DEST, dw0));
    if (h->tag & 0x80) ual_findings_add(f, UAL_R_PN_TLP_RESERVED, -1, "%s byte 6 bit 7 set, reserved", m->name);
  } else if (h->attr & 3) {
    ual_findings_add(f, UAL_R_PN_TLP_RESERVED, -1, "%s with Attr[1:0] = %u, reserved", m->name, h->attr & 3);
  }
  if (h->code == 0x1B && (h->rid & 7))
    ual_findings_add(f, UAL_R_PN_TLP_RESERVED, -1, "PME_TO_Ack with Function Number %u, reserved", h->rid & 7);
}

static void completion(const struct ual_pcie_tlph *h, const uint8_t *dw0, struct ual_findings *f) {
  const char *n = tname(h);
  switch (h->status) {
  case 0: break;
  case 1: ual_findings_add(f, UAL_R_PN_CPL_UR, -1, "%s Unsupported Request", n); break;
  case 2: ual_findings_add(f, UAL_R_PN_CPL_RRS, -1, "%s Request Retry Status", n); break;
  case 4: ual_findings_add(f, UAL_R_PN_CPL_CA, -1, "%s Completer Abort", n); break;
  default: ual_findings_add(f, UAL_R_PN_CPL_STATUS_RSVD, -1, "%s reserved status %u%u%ub", n, h->status >> 2 & 1,
                            h->status >> 1 & 1, h->status & 1); break;
  }
  if (h->status && h->has_data) ual_findings_add(f, UAL_R_PN_CPL_FORM, -1, "%s with status %u carries data", n, h->status);
  if (h->bcm) ual_findings_add(f, UAL_R_PN_CPL_BCM, -1, "%s with BCM set", n);
  if (ual_field_get(UAL_F_PCIE_NF_CPL_RSVD, dw0)) ual_findings_add(f, UAL_R_PN_TLP_RESERVED, -1, "%s byte 11 bit 7 set, reserved", n);
}

/* The DW0 bits reserved for this kind of TLP (§7.4.2, §7.4.4-§7.4.7). */
static void reserved_dw0(const struct ual_pcie_tlph *h, struct ual_findings *f) {
  const char *n = tname(h);
  bool posted = h->fc == UAL_TLP_FC_PR;
  if (h->rsvd_ln) ual_findings_add(f, UAL_R_PN_TLP_RESERVED, -1, "%s DW0 byte 1 bit 1 (was LN) set, reserved [P25]", n);
  if (posted && (h->t9 || h->t8)) ual_findings_add(f, UAL_R_PN_TLP_RESERVED, -1, "%s T9/T8 = %u/%u, reserved for posted requests", n, h->t9, h->t8);
  if ((h->kind == UAL_NF_K_IO || h->kind == UAL_NF_K_CFG) && (h->attr & 4))
    ual_findings_add(f, UAL_R_PN_TLP_RESERVED, -1, "%s Attr[2] (IDO) set, reserved", n);
  if (h->th && !mem_request(h->kind)) ual_findings_add(f, UAL_R_PN_TLP_RESERVED, -1, "%s TH set, reserved", n);
  if (h->ep && h->kind == UAL_NF_K_MSG && !h->has_data) ual_findings_add(f, UAL_R_PN_TLP_RESERVED, -1, "%s EP set, reserved", n);
  if (h->length && !h->has_data && (h->kind == UAL_NF_K_CPL || h->kind == UAL_NF_K_MSG))
    ual_findings_add(f, UAL_R_PN_TLP_RESERVED, -1, "%s Length %u, reserved", n, h->length);
}

void ual_pcie_nf_tlp_rules(const struct ual_pcie_nf *nf, const uint8_t *body, const struct ual_pcie_nf_rules_cfg *c,
                           struct ual_findings *f) {
  if (!nf->accepted) return;
  const struct ual_pcie_tlph *h = &nf->h;
  const uint8_t *tlp = body + nf->tlp_off;
  prefixes(h, f);
  if (nf->tlp_len < (unsigned)h->hdr_off + 4) {
    ual_findings_add(f, UAL_R_PN_TLP_PREFIX, -1, "%u prefix DW%s without a header", h->prefixes, h->prefixes == 1 ? "" : "s");
    return;
  }
  struct ual_pcie_nf_type t;
  ual_pcie_nf_type(h->byte0, &t);
  if (!t.name || t.kind == UAL_NF_K_PREFIX) {
    ual_findings_add(f, UAL_R_PN_TLP_TYPE, -1, "reserved Fmt/Type %02xh (Fmt %u%u%ub, Type %02xh)", h->byte0, h->fmt >> 2 & 1,
                     h->fmt >> 1 & 1, h->fmt & 1, h->type);
    return;
  }
  if (h->byte0 == UAL_PCIE_NF_TCFGRD) ual_findings_add(f, UAL_R_PN_TLP_DEPRECATED, -1, "TCfgRd (1Bh) is deprecated");
  if (!h->complete || nf->tlp_len != h->size) {
    ual_findings_add(f, UAL_R_PN_TLP_SIZE, -1, "%s: %u bytes framed, the header asks for %u (%u prefix + %u header + %u data + %u "
                     "digest DW)", tname(h), nf->tlp_len, h->size, h->prefixes, h->hdr_dw, h->has_data ? h->len_dw : 0, h->td);
    if (!h->complete) return;
  }
  const uint8_t *dw0 = tlp + h->hdr_off;
  reserved_dw0(h, f);
  if (h->at == 3 || (h->at && !mem_request(h->kind)))
    ual_findings_add(f, UAL_R_PN_TLP_AT, -1, "%s with AT = %u%ub", tname(h), h->at >> 1, h->at & 1);
  if (h->ep && h->has_data) ual_findings_add(f, UAL_R_PN_POISONED, -1, "%s poisoned (EP = 1)", tname(h));
  if (h->ecrc == UAL_PCIE_ECRC_BAD)
    ual_findings_add(f, UAL_R_PN_ECRC, -1, "%s: ECRC %08xh, %08xh computed", tname(h), h->ecrc_rx, h->ecrc_calc);
  if (request(h->kind)) {
    if (h->kind == UAL_NF_K_IO || h->kind == UAL_NF_K_CFG) {
      if (h->tc || (h->attr & 3) || h->len_dw != 1 || h->last_be)
        ual_findings_add(f, UAL_R_PN_TLP_IOCFG, -1, "%s with TC %u, Attr[1:0] %u, Length %u, Last DW BE %xh: must be 0, 0, 1, 0",
                         tname(h), h->tc, h->attr & 3, h->len_dw, h->last_be);
      if (h->kind == UAL_NF_K_CFG && (ual_field_get(UAL_F_PCIE_NF_CFG_RSVD10, dw0) || ual_field_get(UAL_F_PCIE_NF_CFG_RSVD11, dw0)))
        ual_findings_add(f, UAL_R_PN_TLP_RESERVED, -1, "%s DW2 reserved bits set", tname(h));
    }
    bool st_bes = h->th && !(h->byte0 == 0x40 || h->byte0 == 0x60);   /* ST in place of the BEs */
    if (h->kind == UAL_NF_K_ATOMIC) {
      unsigned l = h->len_dw, cas = (h->byte0 & 0x1F) == 0x0E;
      unsigned op = cas ? 2u * l : 4u * l;
      if (cas ? (l != 2 && l != 4 && l != 8) : (l != 1 && l != 2))
        ual_findings_add(f, UAL_R_PN_TLP_ATOMIC, -1, "%s with Length %u", tname(h), l);
      else if (h->addr % op)
        ual_findings_add(f, UAL_R_PN_TLP_ATOMIC, -1, "%s address %" PRIx64 "h not aligned to its %u-byte operand", tname(h), h->addr, op);
      if (!h->th && (h->first_be || h->last_be))
        ual_findings_add(f, UAL_R_PN_TLP_RESERVED, -1, "%s byte enables %x/%x, reserved", tname(h), h->last_be, h->first_be);
    } else if (!st_bes) {
      byte_enables(h, f);
    }
    if (mem_request(h->kind) && h->kind != UAL_NF_K_ATOMIC && (h->addr & 0xFFF) + 4u * h->len_dw > 0x1000)
      ual_findings_add(f, UAL_R_PN_TLP_4KB, -1, "%s at %" PRIx64 "h, %u bytes, crosses a 4-KB boundary", tname(h), h->addr,
                       4u * h->len_dw);
    if (mem_request(h->kind) && h->hdr_dw == 4 && !(h->addr >> 32))
      ual_findings_add(f, UAL_R_PN_TLP_ADDR64, -1, "%s with a 64-bit address below 4 GB (%" PRIx64 "h)", tname(h), h->addr);
    if (!h->th && h->kind != UAL_NF_K_CFG && h->ph)
      ual_findings_add(f, UAL_R_PN_TLP_RESERVED, -1, "%s address bits 1:0 = %u without TH, reserved", tname(h), h->ph);
  } else if (h->kind == UAL_NF_K_CPL) {
    completion(h, dw0, f);
  } else if (h->kind == UAL_NF_K_MSG) {
    message(h, dw0, c, f);
  }
}
