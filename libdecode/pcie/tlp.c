/* Flit-mode TLP sizing and the TLP stream walker (tlp.h). */
#include "ualink/pcie/tlp.h"
#include "ualink/pcie/nonflit.h"
#include "ualink/core/fields.h"
#include "core/field_access.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const struct ual_pcie_tlp_type types[] = {
#define UAL_X_(lo, hi, named, n, fc, data, base, rt, h, nf) \
  { lo, hi, named ? n : NULL, UAL_TLP_FC_##fc, data, base, UAL_TLP_RT_##rt, UAL_TLP_H_##h, nf },
  UAL_PCIE_TLP_TYPES(UAL_X_)
#undef UAL_X_
};

const struct ual_pcie_tlp_type *ual_pcie_tlp_type(unsigned type) {
  size_t lo = 0, hi = sizeof types / sizeof types[0];
  type &= 0xFF;
  while (lo + 1 < hi) {   /* rows are sorted and cover 00h-FFh */
    size_t mid = (lo + hi) / 2;
    if (types[mid].first <= type) lo = mid;
    else hi = mid;
  }
  return &types[lo];
}

unsigned ual_pcie_ohc_dw(unsigned ohc) {
  static const uint8_t e[4] = { 0, 1, 2, 4 };
  return (ohc & 1) + ((ohc >> 1) & 1) + ((ohc >> 2) & 1) + e[(ohc >> 3) & 3];
}

unsigned ual_pcie_ts_dw(unsigned ts) {
  static const uint8_t n[8] = { 0, 1, 1, 2, 2, 3, 4, 5 };
  return n[ts & 7];
}

void ual_pcie_tlp_size(const uint8_t dw0[4], struct ual_pcie_tlp_size *s) {
  const struct ual_pcie_tlp_type *t = ual_pcie_tlp_type((unsigned)ual_field_get(UAL_F_PCIE_TLP_TYPE, dw0));
  memset(s, 0, sizeof *s);
  s->base_dw = t->base_dw;
  if (t->base_dw > 1) {   /* NOP and the 1-DW prefixes: all other fields reserved */
    unsigned len = (unsigned)ual_field_get(UAL_F_PCIE_TLP_LENGTH, dw0);
    s->ohc_dw = (uint8_t)ual_pcie_ohc_dw((unsigned)ual_field_get(UAL_F_PCIE_TLP_OHC, dw0));
    s->trailer_dw = (uint8_t)ual_pcie_ts_dw((unsigned)ual_field_get(UAL_F_PCIE_TLP_TS, dw0));
    s->payload_dw = (uint16_t)(t->data ? (len ? len : 1024u) : 0);
  }
  s->total_dw = (uint16_t)(s->base_dw + s->ohc_dw + s->payload_dw + s->trailer_dw);
}

void ual_pcie_walk_init(struct ual_pcie_walk *w) { memset(w, 0, sizeof *w); }

void ual_pcie_walk_lose(struct ual_pcie_walk *w) {
  w->synced = 0;
  w->confirm = 0;
  w->owed_dw = 0;
  memset(&w->cur, 0, sizeof w->cur);
}

static unsigned hdr_need(const struct ual_pcie_tlp *t) {
  return (unsigned)t->prefix_held + t->size.base_dw + t->size.ohc_dw;
}

static void keep(struct ual_pcie_tlp *t, const uint8_t *d) {
  if (t->hdr_dw < UAL_PCIE_TLP_MAX_HDR_DW) memcpy(t->hdr + 4u * t->hdr_dw++, d, 4);
}

/* A DW that can start a TLP: a named type, a NOP with nothing else set. */
static bool start_ok(const uint8_t *d) {
  return ual_pcie_tlp_type(d[0])->name && (d[0] != 0x00 || !(d[1] | d[2] | d[3]));
}

/* Walks DW from..58 of a flit. check: stop (return false) at a TLP start
 * that cannot be one (start_ok). */
static bool walk(struct ual_pcie_walk *w, const uint8_t *tlp, unsigned from, bool check, ual_pcie_tlp_cb cb,
                 void *ctx) {
  struct ual_pcie_tlp *c = &w->cur;
  for (unsigned i = from; i < UAL_PCIE_FLIT_TLP_DW; i++) {
    const uint8_t *d = tlp + 4u * i;
    if (w->owed_dw == 0) {
      if (c->hdr_dw == 0) {
        c->start_flit = w->flit;
        c->start_dw = (uint8_t)i;
      }
      if (check && !start_ok(d)) return false;
      if (ual_pcie_tlp_is_prefix(d[0])) {
        if (c->prefix_held < UAL_PCIE_TLP_MAX_PREFIX_HELD) {
          keep(c, d);
          c->prefix_held++;
        }
        if (c->prefix_dw < UINT16_MAX) c->prefix_dw++;
        continue;
      }
      keep(c, d);
      ual_pcie_tlp_size(d, &c->size);
      w->owed_dw = c->size.total_dw - 1u;
    } else {
      if (c->hdr_dw < hdr_need(c)) keep(c, d);
      w->owed_dw--;
    }
    if (w->owed_dw == 0) {
      c->end_dw = (uint8_t)(i + 1);
      if (cb) cb(ctx, c);
      memset(c, 0, sizeof *c);
    }
  }
  return true;
}

static bool at_tlp_start(const struct ual_pcie_walk *w) { return w->owed_dw == 0 && w->cur.hdr_dw == 0; }

/* Unsynchronized: the first DW from which a checked walk ends exactly at
 * the flit's end locks the walk; the flits after it confirm the lock when
 * one of them, within UAL_PCIE_SYNC_WINDOW, ends on a TLP start with every
 * TLP start on the way checked. Nothing is reported until then, so a lock
 * found inside payload bytes that only look like TLPs stays silent. */
enum ual_pcie_walk_result ual_pcie_walk_flit(struct ual_pcie_walk *w, const uint8_t tlp[UAL_PCIE_FLIT_TLP_BYTES],
                                             ual_pcie_tlp_cb cb, void *ctx, unsigned *sync_dw) {
  enum ual_pcie_walk_result res = UAL_PW_OK;
  if (w->synced) {
    walk(w, tlp, 0, false, cb, ctx);
  } else if (w->confirm && walk(w, tlp, 0, true, NULL, NULL) && (at_tlp_start(w) || --w->confirm)) {
    if (at_tlp_start(w)) {
      w->synced = 1;
      w->confirm = 0;
      if (sync_dw) *sync_dw = w->lock_dw;
      res = UAL_PW_SYNCED;
    } else {
      res = UAL_PW_UNSYNCED;
    }
  } else {
    ual_pcie_walk_lose(w);
    res = UAL_PW_UNSYNCED;
    for (unsigned k = 0; k < UAL_PCIE_FLIT_TLP_DW; k++) {
      struct ual_pcie_walk trial;
      ual_pcie_walk_init(&trial);
      if (walk(&trial, tlp, k, true, NULL, NULL) && at_tlp_start(&trial)) {
        w->confirm = UAL_PCIE_SYNC_WINDOW;
        w->lock_dw = (uint8_t)k;
        break;
      }
    }
  }
  w->flit++;
  return res;
}

int ual_pcie_tlp_byte_at(const struct ual_pcie_tlp *t, unsigned off, unsigned hdr_bytes) {
  unsigned k = off / 4u, from_first = k < t->prefix_held ? k : k - t->prefix_held + t->prefix_dw;
  int dw = (int)t->end_dw - (int)(t->prefix_dw + t->size.total_dw) + (int)from_first;   /* its DW in this flit */
  return dw < 0 ? -1 : (int)hdr_bytes + 4 * dw + (int)(off % 4u);
}

bool ual_pcie_tlp_payload_at(const struct ual_pcie_tlp *t, unsigned hdr_bytes, unsigned *off, unsigned *len,
                             unsigned *from) {
  if (!t->size.payload_dw) return false;
  /* DW of the TLP in this flit: the layout is prefixes, base, OHC, payload, trailer */
  int first = (int)t->end_dw - (int)(t->prefix_dw + t->size.total_dw) + (int)(t->prefix_dw + t->size.base_dw + t->size.ohc_dw);
  int end = first + (int)t->size.payload_dw, lo = first < 0 ? 0 : first;
  if (end <= lo) return false;
  *off = hdr_bytes + 4u * (unsigned)lo;
  *len = 4u * (unsigned)(end - lo);
  *from = 4u * (unsigned)(lo - first);
  return true;
}

int ual_pcie_ohc_a_scope(unsigned type) {
  const struct ual_pcie_tlp_type *t = ual_pcie_tlp_type(type);
  if (!t->name) return -1;
  switch (t->hdr) {
  case UAL_TLP_H_MEM: return type == 0x02 || type == 0x42 ? UAL_SC_PCIE_OHC_A2 : UAL_SC_PCIE_OHC_A1;
  case UAL_TLP_H_CFG: return UAL_SC_PCIE_OHC_A3;
  case UAL_TLP_H_CPL: return UAL_SC_PCIE_OHC_A5;
  case UAL_TLP_H_MSG:
    switch (type & 0x07) {   /* the routing of Msg / MsgD */
    case 0: case 1: return UAL_SC_PCIE_OHC_A1;
    case 2: return UAL_SC_PCIE_OHC_A4;
    }
    return -1;
  }
  return -1;
}

void ual_pcie_bdf(char *b, size_t cap, unsigned id) { ual_field_bdf(b, cap, id); }

const char *ual_pcie_cpl_status_abbrev(unsigned st) {
  switch (st) {
  case 0: return "SC";
  case 1: return "UR";
  case 2: return "RRS";
  case 4: return "CA";
  }
  return NULL;
}

void ual_pcie_tlp_line(const struct ual_pcie_tlp_info *i, char *buf, size_t cap) {
  char id[16];
  size_t k = 0;
  int n;
  if (!cap) return;
  buf[0] = 0;
#define PUT_(...) do { if (k < cap) { n = snprintf(buf + k, cap - k, __VA_ARGS__); if (n > 0) k += (size_t)n; } } while (0)
  if (i->name) PUT_("%s (%02xh)", i->name, i->type);
  else PUT_("Type %02xh", i->type);
  if (i->complete) {
    if (i->hdr == UAL_TLP_H_MSG) {
      const char *m = ual_pcie_msg_name(i->code);
      if (m) PUT_(" %s", m);
      else PUT_(" code %02xh", i->code);
    }
    if (i->has_len) PUT_(" len %u DW/%u B", i->len_dw, 4u * i->len_dw);
    switch (i->hdr) {
    case UAL_TLP_H_MEM: case UAL_TLP_H_CFG:
      ual_pcie_bdf(id, sizeof id, i->rid);
      PUT_(" RID %s tag %u", id, i->tag);
      if (i->has_target) {
        ual_pcie_bdf(id, sizeof id, i->target);
        PUT_(" to %s reg %03xh", id, i->reg);
      } else if (i->has_addr) {
        PUT_(" addr 0x%" PRIx64, i->addr);
      }
      if (i->has_be) PUT_(" BE %x/%x", i->last_be, i->first_be);
      break;
    case UAL_TLP_H_CPL: {
      const char *st = ual_pcie_cpl_status_abbrev(i->status);
      ual_pcie_bdf(id, sizeof id, i->cid);
      PUT_(" CID %s", id);
      if (st) PUT_(" %s", st);
      else PUT_(" status %u", i->status);
      PUT_(" bc %u", i->byte_count);
      if (i->has_la) PUT_(" la %02xh", i->lower_addr);
      ual_pcie_bdf(id, sizeof id, i->rid);
      PUT_(" RID %s tag %u", id, i->tag);
      break;
    }
    case UAL_TLP_H_MSG:
      ual_pcie_bdf(id, sizeof id, i->rid);
      PUT_(" RID %s", id);
      break;
    default:
      break;
    }
  }
  if (i->prefixes) PUT_(" +%u prefix", i->prefixes);
#undef PUT_
}

void ual_pcie_tlp_info(const struct ual_pcie_tlp *t, struct ual_pcie_tlp_info *i) {
  const uint8_t *dw0 = ual_pcie_tlp_dw0(t);
  const struct ual_pcie_tlp_type *ty = ual_pcie_tlp_type(dw0[0]);
  unsigned have = ual_pcie_tlp_dw0_bytes(t);
  memset(i, 0, sizeof *i);
  i->name = ty->name;
  i->type = dw0[0];
  i->hdr = ty->hdr;
  i->prefixes = t->prefix_dw;
  i->len_dw = t->size.payload_dw;
  if (!ty->data && (ty->hdr == UAL_TLP_H_MEM || ty->hdr == UAL_TLP_H_CFG)) {   /* a read: the length it asks for */
    unsigned len = (unsigned)ual_field_get(UAL_F_PCIE_TLP_LENGTH, dw0);
    i->len_dw = (uint16_t)(len ? len : 1024u);
  }
  i->has_len = ty->data || ty->hdr == UAL_TLP_H_MEM || ty->hdr == UAL_TLP_H_CFG;
  /* the OHC-A word, right after the header base */
  unsigned ohc = (unsigned)ual_field_get(UAL_F_PCIE_TLP_OHC, dw0), a_off = 4u * ty->base_dw;
  int a = (ohc & 1) && a_off + 4 <= have ? ual_pcie_ohc_a_scope(dw0[0]) : -1;
  const uint8_t *aw = dw0 + a_off;
  switch (ty->hdr) {
  case UAL_TLP_H_MEM: case UAL_TLP_H_CFG:
    if (have < 12) return;
    i->complete = 1;
    i->rid = (uint16_t)ual_field_get(UAL_F_PCIE_REQ_RID, dw0);
    i->tag = (uint16_t)ual_field_get(UAL_F_PCIE_REQ_TAG, dw0);
    if (ty->hdr == UAL_TLP_H_CFG) {
      i->has_target = 1;
      i->target = (uint16_t)ual_field_get(UAL_F_PCIE_CFG_CID, dw0);
      i->reg = (uint16_t)((unsigned)ual_field_get(UAL_F_PCIE_CFG_EXTREG, dw0) << 8 |
                          (unsigned)ual_field_shown(UAL_F_PCIE_CFG_REG, ual_field_get(UAL_F_PCIE_CFG_REG, dw0)));
    } else if ((ty->route == UAL_TLP_RT_A64 && have >= 16) || ty->route == UAL_TLP_RT_A32) {
      enum ual_field_id f = ty->route == UAL_TLP_RT_A64 ? UAL_F_PCIE_A64_ADDR : UAL_F_PCIE_A32_ADDR;
      i->has_addr = 1;
      i->addr = ual_field_shown(f, ual_field_get(f, dw0));
    }
    if (a == UAL_SC_PCIE_OHC_A1 || a == UAL_SC_PCIE_OHC_A2 || a == UAL_SC_PCIE_OHC_A3) {
      enum ual_field_id fb = a == UAL_SC_PCIE_OHC_A1 ? UAL_F_PCIE_A1_FBE : a == UAL_SC_PCIE_OHC_A2 ? UAL_F_PCIE_A2_FBE : UAL_F_PCIE_A3_FBE;
      enum ual_field_id lb = a == UAL_SC_PCIE_OHC_A1 ? UAL_F_PCIE_A1_LBE : a == UAL_SC_PCIE_OHC_A2 ? UAL_F_PCIE_A2_LBE : UAL_F_PCIE_A3_LBE;
      i->has_be = 1;
      i->first_be = (uint8_t)ual_field_get(fb, aw);
      i->last_be = (uint8_t)ual_field_get(lb, aw);
    }
    break;
  case UAL_TLP_H_CPL: {
    if (have < 12) return;
    i->complete = 1;
    unsigned bc = (unsigned)ual_field_get(UAL_F_PCIE_CPL_BC, dw0);
    i->cid = (uint16_t)ual_field_get(UAL_F_PCIE_CPL_CID, dw0);
    i->rid = (uint16_t)ual_field_get(UAL_F_PCIE_CPL_DEST, dw0);
    i->tag = (uint16_t)ual_field_get(UAL_F_PCIE_CPL_TAG, dw0);
    i->byte_count = (uint16_t)(bc ? bc : 4096u);
    i->has_la = 1;
    i->lower_addr = (uint8_t)(ual_field_get(UAL_F_PCIE_CPL_LA6, dw0) << 6 | ual_field_get(UAL_F_PCIE_CPL_LA52, dw0) << 2);
    if (a == UAL_SC_PCIE_OHC_A5) {   /* without it: Successful Completion, Lower Address[1:0] 0 (pcie.md §3.5) */
      i->status = (uint8_t)ual_field_get(UAL_F_PCIE_A5_STATUS, aw);
      i->lower_addr |= (uint8_t)ual_field_get(UAL_F_PCIE_A5_LA, aw);
    }
    break;
  }
  case UAL_TLP_H_MSG:
    if (have < 8) return;
    i->complete = 1;
    i->rid = (uint16_t)ual_field_get(UAL_F_PCIE_MSG_RID, dw0);
    i->code = (uint8_t)ual_field_get(UAL_F_PCIE_MSG_CODE, dw0);
    break;
  default:
    break;
  }
}

void ual_pcie_req_line(unsigned type, unsigned rid, unsigned tag, char *buf, size_t cap) {
  const struct ual_pcie_tlp_type *ty = ual_pcie_tlp_type(type);
  struct ual_pcie_tlp_info i;
  memset(&i, 0, sizeof i);
  i.name = ty->name;
  i.type = (uint8_t)type;
  i.hdr = ty->hdr == UAL_TLP_H_CFG ? UAL_TLP_H_MEM : ty->hdr;   /* the requester's fields only */
  i.complete = 1;
  i.rid = (uint16_t)rid;
  i.tag = (uint16_t)tag;
  ual_pcie_tlp_line(&i, buf, cap);
}

void ual_pcie_tlp_summary(const struct ual_pcie_tlp *t, char *buf, size_t cap) {
  struct ual_pcie_tlp_info i;
  ual_pcie_tlp_info(t, &i);
  ual_pcie_tlp_line(&i, buf, cap);
}

void ual_pcie_tlps_clear(struct ual_pcie_tlps *o) {
  o->n = o->dropped = o->nops = 0;
  o->synced_at = -1;
}

struct ual_pcie_tlp_rec *ual_pcie_tlps_add(struct ual_pcie_tlps *o, const struct ual_pcie_tlp *t) {
  if (ual_pcie_tlp_dw0(t)[0] == 0x00) {
    o->nops++;
    return NULL;
  }
  if (o->n >= UAL_PCIE_MAX_TLP_PER_FLIT) {
    o->dropped++;
    return NULL;
  }
  struct ual_pcie_tlp_rec *x = &o->v[o->n++];
  memset(x, 0, sizeof *x);
  x->t = *t;
  return x;
}
