/* PCIe's display-filter hook (pcie/filter.h): the "pcie" protocol item
 * over the record body of a PCIe kind, and the analysis subtree, exactly
 * where the Wireshark plugin adds them (packet-ualink.c, ualink-state.c). */
#include "ualink/pcie/filter.h"
#include "ualink/ualink/filter.h"

#include "ualink/core/tree.h"

#include <stdio.h>
#include <string.h>

/* "label: text" of a group row */
#define LABEL_CAP (sizeof ((struct ual_tree_row *)0)->text + 64)

const struct ual_value_name ual_vals_pcie_fc_phase[] = {
  { UAL_PCIE_PH_INIT1, "FC_INIT1" }, { UAL_PCIE_PH_INIT2, "FC_INIT2" }, { UAL_PCIE_PH_UPDATE, "FC_UPDATE" },
  { 0, NULL } };

const struct ual_filter_field ual_filter_pcie_fields[UAL_FP_COUNT] = {
  { "PCI Express", "pcie", UAL_FT_PROTOCOL, 0, UAL_FB_NONE, 0, NULL, NULL, NULL },
#define UAL_X_(id, name, abbrev, type, bytes, base, vals, blurb) { name, abbrev, type, bytes, base, 0, vals, blurb, NULL },
  UAL_FILTER_PCIE_FIELDS(UAL_X_)
#undef UAL_X_
};

bool ual_pcie_kind(unsigned kind) {
  return kind == UAL_REC_PCIE_DLLP || kind == UAL_REC_PCIE_FLIT || kind == UAL_REC_PCIE_NF;
}

static bool decoded(const struct ual_rec_result *r) { return r->status == UAL_RS_OK || r->status == UAL_RS_RESERVED; }

void ual_pcie_an_view(const struct ual_pcie_an *s, const struct ual_rec_result *r, struct ual_pcie_an_view *o) {
  memset(o, 0, sizeof *o);
  if (!decoded(r) || r->rec.h.kind != UAL_REC_PCIE_DLLP) return;
  const struct ual_pcie_link_an *l = ual_pcie_an_link(s, r->rec.h.link);
  if (!l) return;
  const struct ual_pcie_side *me = &l->s[r->dir];
  const struct ual_pcie_dllp *p = &r->pcie;
  if (p->crc_ok && p->layout == UAL_PCIE_L_FC && p->fc_class <= UAL_PCIE_CPL) {
    const struct ual_pcie_vc *v = &me->vc[p->vc];
    const struct ual_pcie_fc_vals *l = &v->last[p->fc_class];
    if (v->phase != UAL_PCIE_PH_UNKNOWN) {
      o->known[UAL_FP_FC_PHASE] = true;
      o->v[UAL_FP_FC_PHASE] = v->phase;
    }
    if (l->known) {
      o->known[UAL_FP_HDR_FC] = o->known[UAL_FP_DATA_FC] = true;
      o->v[UAL_FP_HDR_FC] = l->hdr;
      o->v[UAL_FP_DATA_FC] = l->data;
    }
  }
  if (me->ack_known) {
    o->known[UAL_FP_ACK_SEQ] = true;
    o->v[UAL_FP_ACK_SEQ] = me->ack_seq;
  }
  if (me->pm_req) {
    o->known[UAL_FP_PM_REQ] = true;
    o->v[UAL_FP_PM_REQ] = me->pm_req;
  }
}

/* The plugin's pcie item is the body's first top-level group, labelled as
 * the tree shows it (packet-ualink.c); tshark -e pcie prints that label. */
static void body_group(void *ctx, const struct ual_tree_row *row) {
  char *label = ctx;
  if (label[0] || row->field || row->depth != 0 || row->offset < UAL_REC_HDR_BYTES) return;
  snprintf(label, LABEL_CAP, "%s: %s", row->label, row->text);
}

static void collect(struct ual_fview *v, const struct ual_filter_record *fr) {
  const struct ual_rec_result *r = fr->r;
  if (!decoded(r) || !ual_pcie_kind(r->rec.h.kind)) return;
  int s = ual_fview_want(v, &ual_filter_pcie, UAL_FP_PROTO);
  if (s >= 0) {
    ual_fview_add_bytes(v, s, fr->rec + UAL_REC_HDR_BYTES, fr->len - UAL_REC_HDR_BYTES);
    char label[LABEL_CAP] = "";
    ual_tree_walk(r, fr->rec, fr->len, body_group, label);
    if (label[0]) ual_fview_label_last(v, label);
  }
  const struct ual_filter_ualink *st = fr->state;
  if (!st || !st->an || !ual_fview_want_any(v, &ual_filter_pcie, UAL_FP_PROTO + 1, UAL_FP_COUNT - 1)) return;
  struct ual_pcie_an_view av;
  ual_pcie_an_view(&st->an->fab.pcie, r, &av);
  for (unsigned i = UAL_FP_PROTO + 1; i < UAL_FP_COUNT; i++)
    if (av.known[i] && (s = ual_fview_want(v, &ual_filter_pcie, i)) >= 0) ual_fview_add_uint(v, s, av.v[i]);
}

const struct ual_filter_fabric ual_filter_pcie = { ual_filter_pcie_fields, UAL_FP_COUNT, collect, NULL };
