/* Non-flit requests and completions (nftx.h, pcie.md §7.6). */
#include "nftx.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define TYPE_CPL    0x0Au
#define TYPE_CPLD   0x4Au
#define TYPE_CPLLK  0x0Bu
#define TYPE_CPLDLK 0x4Bu
#define ST_SC  0u
#define ST_RRS 2u

static const char *tname(unsigned b0) {
  struct ual_pcie_nf_type t;
  ual_pcie_nf_type(b0, &t);
  return t.name ? t.name : "TLP";
}

static bool locked_read(unsigned b0) { return (b0 & 0x1F) == 0x01; }   /* MRdLk */

/* Whether a request's successful completion carries data. */
static bool reads(const struct ual_pcie_req *q) {
  switch (q->nf_kind) {
  case UAL_NF_K_MEM: case UAL_NF_K_ATOMIC: return true;
  case UAL_NF_K_IO: case UAL_NF_K_CFG: return !(q->type & 0x40);   /* IORd, CfgRd, TCfgRd */
  }
  return false;   /* DMWr */
}

/* T Table 2-40: the bytes a memory read asks for, and the offset of its
 * first enabled byte. */
static unsigned read_bytes(unsigned len_dw, unsigned fbe, unsigned lbe, unsigned *first) {
  unsigned lo = 0, hi = 3;
  while (lo < 4 && !(fbe >> lo & 1)) lo++;
  *first = lo < 4 ? lo : 0;
  if (len_dw == 1) {
    if (!fbe) return 1;
    while (!(fbe >> hi & 1)) hi--;
    return hi - lo + 1;
  }
  unsigned end = 0;
  while (end < 3 && !(lbe >> (3 - end) & 1)) end++;
  return len_dw * 4 - (lo < 4 ? lo : 0) - end;
}

static void due(struct ual_pcie_nftx *w, uint64_t at) {
  if (!w->due_ns || at < w->due_ns) w->due_ns = at;
}

static void request(const struct ual_nftx_at *x, const struct ual_pcie_tlph *h) {
  struct ual_pcie_flow *me = x->me;
  unsigned tag = h->tag & 0x3FF;
  struct ual_pcie_req *slot = NULL;
  for (unsigned i = 0; i < UAL_PCIE_MAX_OUTSTANDING; i++) {
    struct ual_pcie_req *q = &me->req[i];
    if (q->used && q->rid == h->rid && q->tag == tag) { slot = q; break; }
    if (!q->used && !slot) slot = q;
  }
  if (!slot) {
    me->untracked++;
    return;
  }
  if (slot->used) {
    ual_findings_add(x->f, UAL_R_PN_REQ_TAG_REUSE, -1, "%s from %c: Requester ID %04xh Tag %u outstanding since frame %" PRIu64 " (%s)",
                     tname(h->byte0), x->side, h->rid, tag, slot->frame, tname(slot->type));
  } else {
    me->outstanding++;
  }
  unsigned first = 0, bytes = 4;
  if (h->kind == UAL_NF_K_MEM) bytes = read_bytes(h->len_dw, h->first_be, h->last_be, &first);
  else if (h->kind == UAL_NF_K_ATOMIC) bytes = (h->byte0 & 0x1F) == 0x0E ? h->len_dw * 2u : h->len_dw * 4u;   /* CAS: half */
  *slot = (struct ual_pcie_req){ .used = 1, .type = h->byte0, .index = 255, .rid = h->rid, .tag = (uint16_t)tag,
                                 .frame = x->frame, .ts_ns = x->ts_ns, .cfg = h->kind == UAL_NF_K_CFG, .nf = 1,
                                 .nf_kind = h->kind, .tc = h->tc, .attr = h->attr & 3, .left = (uint16_t)bytes,
                                 .next_la = (uint8_t)((h->addr & 0x7C) | first) };
  if (x->ts_ns && x->cpl_timeout_ns) due(x->win, x->ts_ns + x->cpl_timeout_ns);
}

/* The request closed: latency by its Type, as flit mode keeps it. */
static void close_req(struct ual_pcie_flow *req_side, struct ual_pcie_flow *cpl_side, struct ual_pcie_req *q, uint64_t ts) {
  uint64_t ns = ts >= q->ts_ns ? ts - q->ts_ns : 0;
  ual_pcie_lat_add(&cpl_side->lat[q->type], ns);
  cpl_side->pairs++;
  q->used = 0;
  req_side->outstanding--;
}

/* §7.6 comparisons of a completion with its request [P41] [P42]. */
static void compare(const struct ual_pcie_tlph *h, struct ual_pcie_req *q, char *why, size_t cap, bool *last) {
  size_t w = 0;
#define WHY(...) do { if (w < cap) w += (size_t)snprintf(why + w, cap - w, __VA_ARGS__); } while (0)
  unsigned b0 = h->byte0, bc = h->byte_count ? h->byte_count : 4096u;
  bool sc = h->status == ST_SC, lk = locked_read(q->type);
  unsigned want = sc && reads(q) ? (lk ? TYPE_CPLDLK : TYPE_CPLD) : (lk ? TYPE_CPLLK : TYPE_CPL);
  /* a non-SC completion with data is PN-CPL-FORM's; only the locked kind is paired here */
  if (b0 != want && (sc || (b0 & 0x01) != (want & 0x01))) WHY(", type %02xh for %02xh (expected %02xh)", b0, q->type, want);
  if (h->status == ST_RRS && q->nf_kind != UAL_NF_K_CFG && q->nf_kind != UAL_NF_K_DMWR) WHY(", RRS answering %02xh", q->type);
  if (h->tc != q->tc) WHY(", TC %u, request %u", h->tc, q->tc);
  if ((h->attr & 3) != q->attr) WHY(", Attr %u, request %u", h->attr & 3, q->attr);
  *last = true;
  if (!sc) return;
  unsigned data = h->has_data ? h->len_dw * 4u : 0;
  switch (q->nf_kind) {
  case UAL_NF_K_MEM: {
    unsigned la = h->lower_addr & 0x7F;
    if (bc != q->left) WHY(", Byte Count %u, %u remaining", bc, q->left);
    if (la != q->next_la) WHY(", Lower Address %02xh, expected %02xh", la, q->next_la);
    else if (q->got && la != 0x00 && la != 0x40) WHY(", split at Lower Address %02xh (not a 64-byte boundary)", la);
    unsigned need = ((la & 3) + bc + 3) & ~3u;
    if (data > need) WHY(", %u data bytes for %u remaining", data, bc);
    unsigned took = data > (la & 3u) ? data - (la & 3u) : 0;
    *last = took >= bc;
    /* go on from what the completion says (a mismatch is reported once) */
    q->left = (uint16_t)(*last ? 0 : bc - took);
    q->next_la = (uint8_t)(((la & 0x7C) + data) & 0x7F);
    break;
  }
  case UAL_NF_K_ATOMIC:
    if (bc != q->left) WHY(", Byte Count %u, operand size %u", bc, q->left);
    break;
  default:   /* IO, configuration, DMWr */
    if (bc != 4) WHY(", Byte Count %u (must be 4)", bc);
    if (h->lower_addr) WHY(", Lower Address %02xh (must be 0)", h->lower_addr);
    break;
  }
  q->got = 1;
#undef WHY
}

static void completion(const struct ual_nftx_at *x, const struct ual_pcie_tlph *h) {
  struct ual_pcie_flow *req_side = x->other;
  unsigned tag = h->tag & 0x3FF;
  for (unsigned i = 0; i < UAL_PCIE_MAX_OUTSTANDING; i++) {
    struct ual_pcie_req *q = &req_side->req[i];
    if (!q->used || q->rid != h->rid || q->tag != tag) continue;
    if (!q->nf) break;   /* a flit-mode request: not this layer's */
    char why[160] = "";
    bool last = true;
    if (q->parts < UINT16_MAX) q->parts++;
    compare(h, q, why, sizeof why, &last);
    if (why[0])
      ual_findings_add(x->f, UAL_R_PN_CPL_MISMATCH, -1, "%s from %c for %s of frame %" PRIu64 "%s",
                       tname(h->byte0), x->side, tname(q->type), q->frame, why);
    if (last) close_req(req_side, x->me, q, x->ts_ns);
    else x->me->split_parts++;
    return;
  }
  x->me->cpl_unmatched++;
  bool open = !x->win->closed && (!x->ts_ns || !x->cpl_timeout_ns || x->ts_ns - x->win->from_ns < x->cpl_timeout_ns ||
                                  x->ts_ns < x->win->from_ns);
  if (open)
    ual_findings_add(x->f, UAL_R_PN_CPL_NO_REQUEST, -1, "%s from %c to %04xh Tag %u: no request seen (it may precede the capture)",
                     tname(h->byte0), x->side, h->rid, tag);
  else
    ual_findings_add(x->f, UAL_R_PN_CPL_UNEXPECTED, -1, "%s from %c to %04xh Tag %u: no request outstanding",
                     tname(h->byte0), x->side, h->rid, tag);
}

void ual_nftx_tlp(const struct ual_nftx_at *x, const struct ual_pcie_tlph *h) {
  if (!h->complete) return;
  if (h->kind == UAL_NF_K_CPL) completion(x, h);
  else if (h->fc == UAL_TLP_FC_NPR && h->kind != UAL_NF_K_MSG && h->kind != UAL_NF_K_RESERVED) request(x, h);
}

void ual_nftx_timeouts(struct ual_pcie_flow fl[2], struct ual_pcie_nftx *win, uint64_t ts_ns, uint64_t timeout_ns,
                       struct ual_findings *f) {
  if (!win->due_ns || !ts_ns || ts_ns < win->due_ns) return;
  win->due_ns = 0;
  for (unsigned d = 0; d < 2; d++)
    for (unsigned i = 0; i < UAL_PCIE_MAX_OUTSTANDING; i++) {
      struct ual_pcie_req *q = &fl[d].req[i];
      if (!q->used || !q->nf || q->late) continue;
      if (ts_ns - q->ts_ns >= timeout_ns) {
        q->late = 1;
        ual_findings_add(f, UAL_R_PN_CPL_TIMEOUT, -1, "%s from %c (frame %" PRIu64 ", Requester ID %04xh Tag %u): no completion in %" PRIu64 " ns",
                         tname(q->type), d ? 'B' : 'A', q->frame, q->rid, q->tag, ts_ns - q->ts_ns);
      } else {
        due(win, q->ts_ns + timeout_ns);
      }
    }
}

void ual_nftx_reset(struct ual_pcie_flow fl[2], struct ual_pcie_nftx *win, bool dl_init, uint64_t ts_ns) {
  for (unsigned d = 0; d < 2; d++)
    for (unsigned i = 0; i < UAL_PCIE_MAX_OUTSTANDING; i++)
      if (fl[d].req[i].used && fl[d].req[i].nf) {
        fl[d].req[i].used = 0;
        fl[d].outstanding--;
      }
  win->closed = dl_init;
  win->from_ns = ts_ns;
  win->due_ns = 0;
}
