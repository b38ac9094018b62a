/* Per-frame state: decoding a record needs the records before it (TL
 * flits and DL messages span flits; replay, LTSSM and DL protocols are
 * stateful), but Wireshark dissects frames again and in any order.
 *
 * Wireshark's first pass is sequential. During it each frame is decoded
 * once, in order, and what later dissections need is kept in file scope,
 * keyed by the frame:
 *   - with analysis (the default): libdecode's analyzer runs; the frame
 *     keeps its findings, what it delivered (TL flits, DL messages), its
 *     timeline events and the link state after it;
 *   - without: ual_decode_record runs; the frame keeps its direction's
 *     unpacker state before it.
 * A UB flit (kind 6) keeps, either way, what its direction's block receiver
 * found (struct ual_ub_flit: block position, BCRC, the DLLDP or DLLCB it
 * completed) and its findings.
 * Later dissections decode the record's own bytes again and take the rest
 * from the frame's copy, never from whatever was dissected last. */
#include <wireshark.h>
#include <epan/packet.h>
#include <epan/proto_data.h>

#include <string.h>

#include "ualink/ualink.h"
#include "ualink/ualink/analysis.h"
#include "ualink/ualink/antree.h"
#include "ualink/ualink/filter.h"
#include "ualink/pcie/filter.h"
#include "packet-ualink.h"

struct uw_frame {
  /* without analysis */
  struct ual_unpack *before;     /* unpacker of the frame's direction before it; NULL = initial */
  /* with analysis */
  uint8_t analyzed;
  uint8_t unpacked;
  uint8_t n_tl, n_msg, tl_started, tl_owed;
  int8_t uart_open;
  uint8_t alt_role[UAL_SEGMENTS];
  uint16_t n_find, find_dropped, n_ev;
  struct ual_tl_flit *tl;
  struct ual_dl_item *msg;
  struct ual_finding *find;
  struct ual_tevent *ev;
  struct ual_ws_released rel;    /* held flits a replay released in this frame */
  struct ual_ub_flit *ub;        /* UB flit: the receiver's result; NULL otherwise */
  struct ual_an_frame *an;       /* the analysis subtree (antree.h) */
  struct ual_pcie_an_view *pcie; /* PCIe records: the analysis values after the frame */
  struct ual_pcie_tlps *tlps;    /* PCIe flit: the TLPs walked to their end in it, NULL none */
  uint8_t fabric;                /* the record's view fabric (core/views.h) */
  int8_t slot;                   /* its link in uw_tally, -1 none */
  const char *link_state;        /* the model's state rows of its link after it (uw_state_text), NULL none */
};

static int uw_proto = -1;
/* Frames holding PCIe requests, by number: a completion's first pass
 * names its frame in its request's TLP (response_in). */
static wmem_map_t *uw_req_frames;
static struct ual_decoder uw_live;
static struct ual_unpack *uw_last_snap[2];
static struct ual_analyzer *uw_an;
/* The model's links and counters of the first pass, in frame order. */
static struct ual_view_tally *uw_tally;
/* The last state text kept per link: frames whose link state did not
 * change share it. */
static const char *uw_last_state[UAL_VIEW_LINKS];

void ual_ws_state_init(int proto) {
  uw_proto = proto;
  ual_decoder_init(&uw_live);
  uw_last_snap[0] = uw_last_snap[1] = NULL;
  if (!uw_an) uw_an = g_new(struct ual_analyzer, 1);
  ual_analyzer_init(uw_an);
  if (!uw_tally) uw_tally = g_new(struct ual_view_tally, 1);
  ual_view_tally_init(uw_tally);
  memset(uw_last_state, 0, sizeof uw_last_state);
  uw_req_frames = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
}

void ual_ws_state_cleanup(void) {
  g_free(uw_an);
  uw_an = NULL;
  g_free(uw_tally);
  uw_tally = NULL;
}

static void *uw_dup(const void *p, size_t n) {
  return n ? wmem_memdup(wmem_file_scope(), p, n) : NULL;
}

/* ---- without analysis ---- */

static struct ual_unpack *uw_snapshot(unsigned dir) {
  const struct ual_unpack *u = &uw_live.unpack[dir];
  if (!ual_unpack_partial(u)) return NULL;
  if (!uw_last_snap[dir] || memcmp(uw_last_snap[dir], u, sizeof *u) != 0)
    uw_last_snap[dir] = wmem_memdup(wmem_file_scope(), u, sizeof *u);
  return uw_last_snap[dir];
}

/* ---- with analysis ---- */

/* Held flits released by a replay are delivered during the step of the
 * frame that released them; the analyzer reports them through this callback. */
struct uw_collect {
  uint64_t frame;
  struct ual_ws_released rel;
  struct ual_tl_flit tl[UAL_WS_MAX_RELEASED];
  struct ual_dl_item msg[UAL_WS_MAX_RELEASED];
};

static void uw_on_delivered(void *ctx, unsigned dir _U_, uint64_t flit_frame, const struct ual_unpack_out *u) {
  struct uw_collect *c = ctx;
  if (flit_frame == c->frame) return;   /* the frame's own flit: in out->unp */
  for (unsigned i = 0; i < u->n_tl && c->rel.n_tl < UAL_WS_MAX_RELEASED; i++) c->tl[c->rel.n_tl++] = u->tl[i];
  for (unsigned i = 0; i < u->n_msg && c->rel.n_msg < UAL_WS_MAX_RELEASED; i++) c->msg[c->rel.n_msg++] = u->msg[i];
}

static void uw_keep_findings(struct uw_frame *fr, const struct ual_rec_result *r) {
  fr->n_find = r->findings.n;
  fr->find_dropped = r->findings.dropped;
  fr->find = uw_dup(r->findings.v, sizeof r->findings.v[0] * r->findings.n);
}

static void uw_restore_findings(const struct uw_frame *fr, struct ual_rec_result *r) {
  r->findings.n = fr->n_find;
  r->findings.dropped = fr->find_dropped;
  if (fr->n_find) memcpy(r->findings.v, fr->find, sizeof r->findings.v[0] * fr->n_find);
}

/* A UB flit's receiver result, with the payload of the DLLDP it completed. */
static void uw_keep_ub(struct uw_frame *fr, const struct ual_rec_result *r) {
  if (r->rec.h.kind != UAL_REC_UB_FLIT || (r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED)) return;
  fr->ub = uw_dup(&r->ub, sizeof r->ub);
  if (r->ub.payload) fr->ub->payload = uw_dup(r->ub.payload, r->ub.unit.payload_len);
}

/* A PCIe flit's TLPs; a completion that finishes a request tells the
 * request's frame where its response is. */
static void uw_keep_tlps(struct uw_frame *fr, const struct ual_rec_result *r) {
  const struct ual_pcie_tlps *t = &r->tlps;
  fr->tlps = wmem_new(wmem_file_scope(), struct ual_pcie_tlps);
  memcpy(fr->tlps, t, offsetof(struct ual_pcie_tlps, v) + t->n * sizeof t->v[0]);
  for (unsigned i = 0; i < t->n; i++) {
    const struct ual_pcie_tlp_rec *x = &t->v[i];
    if (x->link == UAL_PCIE_LK_REQ)
      wmem_map_insert(uw_req_frames, GUINT_TO_POINTER((guint)r->frame), fr);
    if (x->link != UAL_PCIE_LK_CPL) continue;
    struct uw_frame *q = wmem_map_lookup(uw_req_frames, GUINT_TO_POINTER((guint)x->peer_frame));
    if (q && q->tlps && x->peer_index < q->tlps->n && q->tlps->v[x->peer_index].link == UAL_PCIE_LK_REQ)
      q->tlps->v[x->peer_index].peer_frame = r->frame;
  }
}

static void uw_keep(struct uw_frame *fr, const struct ual_rec_result *r, const struct ual_events *ev,
                    const struct uw_collect *c) {
  fr->analyzed = 1;
  fr->unpacked = r->unpacked;
  if (r->unpacked) {
    const struct ual_unpack_out *u = &r->unp;
    fr->n_tl = u->n_tl;
    fr->n_msg = u->n_msg;
    fr->tl_started = u->tl_started;
    fr->tl_owed = u->tl_owed;
    fr->uart_open = u->uart_open;
    memcpy(fr->alt_role, u->alt_role, sizeof fr->alt_role);
    fr->tl = uw_dup(u->tl, sizeof u->tl[0] * u->n_tl);
    fr->msg = uw_dup(u->msg, sizeof u->msg[0] * u->n_msg);
  }
  uw_keep_findings(fr, r);
  fr->n_ev = ev->n;
  fr->ev = uw_dup(ev->v, sizeof ev->v[0] * ev->n);
  fr->rel.n_tl = c->rel.n_tl;
  fr->rel.n_msg = c->rel.n_msg;
  fr->rel.tl = uw_dup(c->tl, sizeof c->tl[0] * c->rel.n_tl);
  fr->rel.msg = uw_dup(c->msg, sizeof c->msg[0] * c->rel.n_msg);
  if (r->rec.h.kind == UAL_REC_PCIE_FLIT && (r->tlps.n || r->tlps.nops || r->tlps.dropped)) uw_keep_tlps(fr, r);
  if (ual_pcie_kind(r->rec.h.kind)) {
    struct ual_pcie_an_view pv;
    ual_pcie_an_view(&uw_an->fab.pcie, r, &pv);
    fr->pcie = uw_dup(&pv, sizeof pv);
  }
  struct ual_an_frame af;
  ual_an_frame_take(uw_an, r, &af);
  fr->an = uw_dup(&af, sizeof af);
}

/* Puts the first pass's stateful results back into a fresh decode. */
static void uw_restore(const struct uw_frame *fr, struct ual_rec_result *r) {
  r->unpacked = fr->unpacked;
  r->unp.n_tl = fr->n_tl;
  r->unp.n_msg = fr->n_msg;
  if (fr->unpacked) {
    r->unp.tl_started = fr->tl_started;
    r->unp.tl_owed = fr->tl_owed;
    r->unp.uart_open = fr->uart_open;
    memcpy(r->unp.alt_role, fr->alt_role, sizeof fr->alt_role);
    if (fr->n_tl) memcpy(r->unp.tl, fr->tl, sizeof r->unp.tl[0] * fr->n_tl);
    if (fr->n_msg) memcpy(r->unp.msg, fr->msg, sizeof r->unp.msg[0] * fr->n_msg);
  }
  uw_restore_findings(fr, r);
  if (fr->tlps) memcpy(&r->tlps, fr->tlps, offsetof(struct ual_pcie_tlps, v) + fr->tlps->n * sizeof fr->tlps->v[0]);
}

/* The link state as text, one row a line: "\tgroup" starts a group, a row
 * is "label: A | B" (or "label: value" for the link); the first line names
 * the link and its sides. */
struct uw_state_text {
  GString *g;
  char group[64];   /* the group of the last row */
};

static void uw_state_row(void *ctx, const struct ual_view_row *r) {
  struct uw_state_text *x = ctx;
  GString *g = x->g;
  if (r->group && strcmp(r->group, x->group) != 0) {
    g_string_append_printf(g, "\t%s\n", r->group);
    snprintf(x->group, sizeof x->group, "%s", r->group);
  }
  char v[2][80];
  for (unsigned d = 0; d < 2; d++)
    snprintf(v[d], sizeof v[d], "%s%s%s", r->known[d] ? r->value[d] : "?", r->known[d] && r->unit[0] ? " " : "",
             r->known[d] ? r->unit : "");
  if (r->link_wide) g_string_append_printf(g, "%s: %s\n", r->label, v[0]);
  else g_string_append_printf(g, "%s: %s | %s\n", r->label, v[0], v[1]);
}

/* The model's state rows of the frame's link after its step, for a fabric
 * whose rows the Analysis subtree does not show (UALink's are there). */
static void uw_keep_state(struct uw_frame *fr) {
  if (fr->slot < 0 || fr->fabric == UAL_VF_ualink) return;
  struct ual_view_src src;
  ual_analyzer_view_src(uw_an, uw_tally, &src);
  struct ual_view_link l;
  ual_view_link_get(&src, (unsigned)fr->slot, &l);
  GString *g = g_string_new(NULL);
  g_string_append_printf(g, "%s (A: %s, B: %s)\n", l.name, l.side[0], l.side[1]);
  struct uw_state_text x = { g, "" };
  ual_view_state(&src, (unsigned)fr->slot, uw_state_row, &x);
  const char **last = &uw_last_state[fr->slot];
  if (!*last || strcmp(*last, g->str) != 0) *last = wmem_strdup(wmem_file_scope(), g->str);
  fr->link_state = *last;
  g_string_free(g, TRUE);
}

static uint64_t uw_ts_ns(const packet_info *pinfo) {
  if (!pinfo->fd->has_ts || pinfo->abs_ts.secs < 0) return 0;
  return (uint64_t)pinfo->abs_ts.secs * 1000000000u + (uint64_t)pinfo->abs_ts.nsecs;
}

/* ---- both ---- */

struct ual_rec_result *ual_ws_decode(tvbuff_t *tvb, packet_info *pinfo, gboolean analyze) {
  guint len = tvb_captured_length(tvb);
  const guint8 *buf = tvb_get_ptr(tvb, 0, len);
  struct ual_rec_result *r = wmem_new(pinfo->pool, struct ual_rec_result);
  unsigned dir = len >= UAL_REC_HDR_BYTES ? (unsigned)ual_field_get(UAL_F_REC_DIR, buf) : 0;
  struct uw_frame *fr = p_get_proto_data(wmem_file_scope(), pinfo, uw_proto, 0);

  if (!fr && !PINFO_FD_VISITED(pinfo) && !pinfo->flags.in_error_pkt) {
    fr = wmem_new0(wmem_file_scope(), struct uw_frame);
    p_add_proto_data(wmem_file_scope(), pinfo, uw_proto, 0, fr);
    if (analyze) {
      static struct uw_collect c;   /* large; the first pass is single-threaded */
      struct ual_events ev;
      memset(&c.rel, 0, sizeof c.rel);
      c.frame = pinfo->num;
      ual_events_init(&ev);
      ev.delivered = uw_on_delivered;
      ev.ctx = &c;
      ual_analyzer_step(uw_an, buf, len, pinfo->num, uw_ts_ns(pinfo), r, &ev);
      uw_keep(fr, r, &ev, &c);
    } else {
      fr->before = uw_snapshot(dir);
      ual_decode_record(&uw_live, buf, len, pinfo->num, r);
      if (r->rec.h.kind == UAL_REC_UB_FLIT) uw_keep_findings(fr, r);
    }
    uw_keep_ub(fr, r);
    fr->fabric = (uint8_t)ual_view_fabric_of(uw_tally, r);
    fr->slot = (int8_t)ual_view_tally_add(uw_tally, r, uw_ts_ns(pinfo), true);
    if (analyze) uw_keep_state(fr);
    return r;
  }
  /* A later pass, or a record quoted inside an error packet. */
  struct ual_decoder d;
  ual_decoder_init(&d);
  if (fr && fr->before) d.unpack[dir] = *fr->before;
  ual_decode_record(&d, buf, len, pinfo->num, r);
  if (fr && fr->analyzed) uw_restore(fr, r);
  if (fr && fr->ub) {
    r->ub = *fr->ub;
    uw_restore_findings(fr, r);
  }
  return r;
}

void ual_ws_view_src(const struct ual_view_tally *t, struct ual_view_src *src) {
  if (uw_an) ual_analyzer_view_src(uw_an, t, src);
  else *src = (struct ual_view_src){ NULL, NULL, t };
}

unsigned ual_ws_fabric(packet_info *pinfo, const struct ual_rec_result *r) {
  const struct uw_frame *fr = p_get_proto_data(wmem_file_scope(), pinfo, uw_proto, 0);
  return fr ? fr->fabric : ual_view_fabric_of(NULL, r);
}

/* ---- analysis tree ---- */

static gint ett_analysis = -1;
static gint ett_event = -1;
static gint ett_pcie_analysis = -1;
static gint ett_link_state = -1;

void ual_ws_state_register(int proto _U_) {
  static gint *ett[] = { &ett_analysis, &ett_event, &ett_pcie_analysis, &ett_link_state };
  proto_register_subtree_array(ett, array_length(ett));
}

static void uw_gen(proto_item *ti) { proto_item_set_generated(ti); }

/* libdecode's rows (antree.h): subtrees, and the analysis fields (rows of
 * its UALink filter table, registered in packet-ualink.c) with the value
 * text it gives, the one ualink-decode -V prints. */
struct uw_an_build {
  tvbuff_t *tvb;
  proto_tree *tree[3];
};

static void uw_an_row(void *ctx, const struct ual_an_row *row) {
  struct uw_an_build *b = ctx;
  proto_tree *t = b->tree[row->depth ? row->depth - 1 : 0];
  if (row->field < 0) {
    if (row->depth < 2)
      b->tree[row->depth] = proto_tree_add_subtree_format(t, b->tvb, 0, 0, row->depth ? ett_event : ett_analysis, NULL,
                                                          "%s", row->text);
    return;
  }
  int hf = ual_ws_hf_fu[row->field];
  const struct ual_filter_field *ff = &ual_filter_ualink_fields[row->field];
  switch ((enum ual_ft)ff->type) {
  case UAL_FT_BOOLEAN:
    uw_gen(proto_tree_add_boolean_format_value(t, hf, b->tvb, 0, 0, row->value != 0, "%s", row->text));
    break;
  case UAL_FT_INT:
    uw_gen(proto_tree_add_int_format_value(t, hf, b->tvb, 0, 0, (gint32)row->value, "%s", row->text));
    break;
  case UAL_FT_STRING:
    uw_gen(proto_tree_add_string_format_value(t, hf, b->tvb, 0, 0, row->text, "%s", row->text));
    break;
  default:
    if (ff->bytes > 4)
      uw_gen(proto_tree_add_uint64_format_value(t, hf, b->tvb, 0, 0, (guint64)row->value, "%s", row->text));
    else
      uw_gen(proto_tree_add_uint_format_value(t, hf, b->tvb, 0, 0, (guint32)row->value, "%s", row->text));
    break;
  }
}

void ual_ws_state_tree(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo, const struct ual_rec_result *r,
                       const struct ual_ws_released **rel) {
  const struct uw_frame *fr = p_get_proto_data(wmem_file_scope(), pinfo, uw_proto, 0);
  *rel = fr && fr->analyzed ? &fr->rel : NULL;
  if (!tree || !fr || !fr->analyzed || !fr->an || (r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED)) return;
  struct uw_an_build b = { tvb, { tree, tree, tree } };
  ual_an_tree_walk(fr->an, fr->ev, fr->n_ev, uw_an_row, &b);
}

/* The model's state rows of the record's link, per side. */
static void uw_link_state_tree(proto_tree *tree, tvbuff_t *tvb, const char *text) {
  const char *nl = strchr(text, '\n');
  if (!nl) return;
  proto_tree *t = proto_tree_add_subtree_format(tree, tvb, 0, 0, ett_link_state, NULL, "Link state after this record: %.*s",
                                                (int)(nl - text), text), *g = t;
  for (const char *p = nl + 1; *p; p = nl + 1) {
    nl = strchr(p, '\n');
    if (!nl) break;
    if (*p == '\t') g = proto_tree_add_subtree_format(t, tvb, 0, 0, ett_link_state, NULL, "%.*s", (int)(nl - p - 1), p + 1);
    else proto_tree_add_subtree_format(g, tvb, 0, 0, ett_link_state, NULL, "%.*s", (int)(nl - p), p);
  }
}

void ual_ws_fabric_tree(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo) {
  const struct uw_frame *fr = p_get_proto_data(wmem_file_scope(), pinfo, uw_proto, 0);
  if (fr && fr->link_state) uw_link_state_tree(tree, tvb, fr->link_state);
  if (!fr || !fr->pcie) return;
  const struct ual_pcie_an_view *v = fr->pcie;
  const int *hf = ual_ws_protocol_hf(ual_filter_fabric_of(ual_filter_pcie_fields[UAL_FP_PROTO].abbrev));
  proto_tree *t = proto_tree_add_subtree(tree, tvb, 0, 0, ett_pcie_analysis, NULL, "PCIe analysis");
  for (unsigned i = UAL_FP_PROTO + 1; i < UAL_FP_COUNT; i++)
    if (v->known[i]) uw_gen(proto_tree_add_uint(t, hf[i], tvb, 0, 0, v->v[i]));
}
