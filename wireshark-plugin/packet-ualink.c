/* UALink 128G dissector for capture records (docs/capture-format.md)
 * on LINKTYPE_USER0 and on the UDP export.
 *
 * The plugin holds no protocol logic. libdecode decodes the record (its
 * analyzer, or ual_decode_record); the hf array is generated from its field
 * table, the tree from its tree walker (ual_tree_walk), the expert fields
 * from its rule list and the Info column from its one-line summary.
 *
 * Per-frame state (first pass, later dissections) is in ualink-state.c. */
#include <wireshark.h>
#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/prefs.h>
#include <epan/tap.h>
#include <wiretap/wtap.h>

#include <string.h>

#include "ualink/ualink.h"
#include "ualink/ualink/filter.h"
#include "packet-ualink.h"
#include "ualink/core/udp.h"
#include <epan/proto_data.h>

static int proto_ualink = -1;
/* Each fabric's protocol, by its filter hook (ual_filter_fabric_at): 0 is
 * proto_ualink, the capture record's; the others are the items over their
 * records' bodies. */
static int *uw_proto_of;
static int uw_tap = -1;
static dissector_handle_t uw_handle, uw_udp_handle;
/* The UDP export's header (ualink/core/udp.h) and what its sequence says. */
#define hf_udp_hdr ual_ws_hf_fu[UAL_FU_UDP]
#define hf_udp_type ual_ws_hf_fu[UAL_FU_UDP_TYPE]
#define hf_udp_len ual_ws_hf_fu[UAL_FU_UDP_LEN]
#define hf_udp_seq ual_ws_hf_fu[UAL_FU_UDP_SEQ]
#define hf_udp_lost ual_ws_hf_fu[UAL_FU_UDP_LOST]
static gint ett_udp = -1;
static expert_field ei_udp_lost = EI_INIT;
static struct ual_udp_rx uw_udp_rx;   /* the first pass's, in frame order */
struct uw_udp_frame { uint64_t lost; gboolean mark; };

/* One hf per field-table row, indexed by enum ual_field_id. */
static int hf_field[UAL_F_COUNT];

/* The plugin's other fields (reassembly results, the analysis subtree,
 * findings as strings) come from libdecode's UALink filter table, the same
 * one ualink-decode -Y reads; indexed by enum ual_fu. */
int ual_ws_hf_fu[UAL_FU_COUNT];
/* The other fabrics' (ual_filter_fabric_at(i > 0)), by their tables' index. */
static int **uw_hf_of;
int *ual_ws_protocol_hf(size_t proto) { return proto > 0 && proto < ual_filter_fabric_count() ? uw_hf_of[proto] : NULL; }
#define hf_sector ual_ws_hf_fu[UAL_FU_SECTOR]
#define hf_tl_data ual_ws_hf_fu[UAL_FU_TL_DATA]
#define hf_tl_m0 ual_ws_hf_fu[UAL_FU_TL_M0]
#define hf_tl_m1 ual_ws_hf_fu[UAL_FU_TL_M1]
#define hf_tl_start_frame ual_ws_hf_fu[UAL_FU_TL_START_FRAME]
#define hf_tl_start_segment ual_ws_hf_fu[UAL_FU_TL_START_SEGMENT]
#define hf_dlm_summary ual_ws_hf_fu[UAL_FU_DLM_SUMMARY]
#define hf_dlm_start_frame ual_ws_hf_fu[UAL_FU_DLM_START_FRAME]
#define hf_dlm_segment ual_ws_hf_fu[UAL_FU_DLM_SEGMENT]
#define hf_dlm_payload ual_ws_hf_fu[UAL_FU_DLM_PAYLOAD]
#define hf_rule ual_ws_hf_fu[UAL_FU_RULE]
#define hf_severity ual_ws_hf_fu[UAL_FU_SEVERITY]

static gint ett_ualink = -1;
static gint ett_tl = -1;
static gint ett_dlm = -1;
/* Subtrees of the walker's groups get an ett per group label, from a pool. */
#define UW_ETT_POOL 24
static gint ett_pool[UW_ETT_POOL];
static GHashTable *ett_by_label;

static expert_field ei_rule[UAL_R_COUNT];
static expert_field ei_malformed = EI_INIT;
static expert_field ei_hdr_reserved = EI_INIT;
static expert_field ei_dropped = EI_INIT;

static uw_bool uw_analyze = TRUE;

/* ------------------------------------------------------------------ */
/* Registration tables generated from libdecode */

static enum ftenum uw_ftype(const struct ual_field *fd) {
  if (fd->flags & UAL_FF_BOOL) return FT_BOOLEAN;
  if (fd->flags & UAL_FF_FRAME) return FT_FRAMENUM;
  if (fd->flags & UAL_FF_BYTES) return FT_BYTES;
  unsigned bytes = fd->size ? fd->size : (fd->width + 7u) / 8u;
  switch (bytes) {
  case 1: return FT_UINT8;
  case 2: return FT_UINT16;
  case 3: return FT_UINT24;
  case 4: return FT_UINT32;
  case 5: return FT_UINT40;
  case 6: return FT_UINT48;
  case 7: return FT_UINT56;
  default: return FT_UINT64;
  }
}

static gboolean uw_is64(enum ftenum t) {
  return t == FT_UINT40 || t == FT_UINT48 || t == FT_UINT56 || t == FT_UINT64;
}

/* value_string copy of a libdecode value list; lists shared by several
 * fields are converted once. */
const value_string *ual_ws_vals(const struct ual_value_name *v) {
  static GHashTable *done;
  if (!done) done = g_hash_table_new(g_direct_hash, g_direct_equal);
  value_string *vs = g_hash_table_lookup(done, v);
  if (vs) return vs;
  size_t n = 0;
  while (v[n].name) n++;
  vs = g_new0(value_string, n + 1);
  for (size_t i = 0; i < n; i++) {
    vs[i].value = v[i].value;
    vs[i].strptr = v[i].name;
  }
  g_hash_table_insert(done, (gpointer)v, vs);
  return vs;
}

/* A field whose values have names: its tree text is libdecode's
 * (ual_field_format), the same as ualink-decode -V and ualink-tui show. */
static gboolean uw_named(const struct ual_field *fd) {
  return (fd->vals || (fd->flags & UAL_FF_BDF)) && !(fd->flags & UAL_FF_BOOL) && !uw_is64(uw_ftype(fd));
}

static gboolean hf_mask(const struct ual_field *fd) { return ual_field_bitmask((enum ual_field_id)(fd - ual_fields)); }

/* A fabric's protocol, registered once: before its first field-table row,
 * so that -G fields lists it where ualink-decode does. */
static int uw_protocol(size_t i) {
  if (uw_proto_of[i] < 0) {
    const struct ual_filter_field *p = &ual_filter_fabric_at(i)->fields[0];
    const char *short_name = p->abbrev;   /* the view fabric of that key names it */
    for (unsigned v = 0; v < UAL_VF_COUNT; v++)
      if (strcmp(ual_view_fabric_get(v)->key, p->abbrev) == 0) short_name = ual_view_fabric_get(v)->name;
    uw_proto_of[i] = proto_register_protocol(p->name, short_name, p->abbrev);
  }
  return uw_proto_of[i];
}

static void uw_register_fields(void) {
  hf_register_info *hf = g_new0(hf_register_info, UAL_F_COUNT);
  int run = 0, run_proto = proto_ualink;
  for (int i = 0; i < UAL_F_COUNT; i++) {
    const struct ual_field *fd = &ual_fields[i];
    header_field_info *h = &hf[i].hfinfo;
    enum ftenum t = uw_ftype(fd);
    gboolean masked = hf_mask(fd);
    hf_field[i] = -1;
    hf[i].p_id = &hf_field[i];
    h->name = fd->name;
    h->abbrev = fd->abbrev;
    h->type = t;
    h->bitmask = masked ? ual_field_mask((enum ual_field_id)i) : 0;
    if (t == FT_BOOLEAN)
      h->display = masked ? 8 * fd->size : BASE_NONE;
    else if (t == FT_FRAMENUM || t == FT_BYTES)
      h->display = BASE_NONE;
    else
      h->display = (fd->flags & UAL_FF_HEX) ? BASE_HEX : BASE_DEC;
    /* the names also in filters (ualink.flit.kind == Payload), as ualink-decode -Y takes them */
    if (uw_named(fd) && fd->vals) h->strings = VALS(ual_ws_vals(fd->vals));
    h->blurb = g_strdup_printf("%s (%s)", fd->name, fd->section);
    HFILL_INIT(hf[i]);
    size_t pi = ual_filter_fabric_of(fd->abbrev);
    if (uw_proto_of[pi] != run_proto) {   /* rows of one protocol go in one call */
      proto_register_field_array(run_proto, hf + run, i - run);
      run = i;
      run_proto = uw_protocol(pi);
    }
  }
  proto_register_field_array(run_proto, hf + run, UAL_F_COUNT - run);
}

/* One hf of the UALink filter table (ualink/filter.h). */
static void uw_hf_from_table(hf_register_info *h, int *id, const struct ual_filter_field *f) {
  static const enum ftenum uints[] = { FT_UINT8, FT_UINT16, FT_UINT24, FT_UINT32, FT_UINT40, FT_UINT48, FT_UINT56, FT_UINT64 };
  static const enum ftenum ints[] = { FT_INT8, FT_INT16, FT_INT24, FT_INT32, FT_INT40, FT_INT48, FT_INT56, FT_INT64 };
  header_field_info *hi = &h->hfinfo;
  unsigned bytes = f->bytes ? f->bytes : 1;
  *id = -1;
  h->p_id = id;
  hi->name = f->name;
  hi->abbrev = f->abbrev;
  hi->display = BASE_NONE;
  switch ((enum ual_ft)f->type) {
  case UAL_FT_BYTES: hi->type = FT_BYTES; break;
  case UAL_FT_STRING: hi->type = FT_STRING; break;
  case UAL_FT_FRAMENUM: hi->type = FT_FRAMENUM; break;
  case UAL_FT_BOOLEAN: hi->type = FT_BOOLEAN; hi->display = 8 * f->bytes; break;
  case UAL_FT_INT: hi->type = ints[bytes - 1]; break;
  default: hi->type = uints[bytes - 1]; break;
  }
  if (f->type == UAL_FT_UINT || f->type == UAL_FT_INT) hi->display = f->base == UAL_FB_HEX ? BASE_HEX : BASE_DEC;
  if (f->vals && bytes <= 4) hi->strings = VALS(ual_ws_vals(f->vals));
  hi->bitmask = f->mask;
  hi->blurb = f->blurb;
  HFILL_INIT(*h);
}

static void uw_register_table_fields(void) {
  const int n = UAL_FU_UDP_LOST - UAL_FU_SECTOR + 1;
  hf_register_info *hf = g_new0(hf_register_info, n);
  for (int i = 0; i < n; i++)
    uw_hf_from_table(&hf[i], &ual_ws_hf_fu[UAL_FU_SECTOR + i], &ual_filter_ualink_fields[UAL_FU_SECTOR + i]);
  proto_register_field_array(proto_ualink, hf, n);
}

/* The other fabrics' own fields (their tables after the protocol row),
 * after the expert fields (ualink-decode -G fields order). */
static void uw_register_fabric_fields(void) {
  size_t np = ual_filter_fabric_count();
  uw_hf_of = g_new0(int *, np);
  for (size_t p = 1; p < np; p++) {
    const struct ual_filter_fabric *fab = ual_filter_fabric_at(p);
    int n = (int)fab->n_fields - 1;
    uw_hf_of[p] = g_new0(int, fab->n_fields);
    uw_hf_of[p][0] = uw_protocol(p);
    if (n <= 0) continue;
    hf_register_info *hf = g_new0(hf_register_info, n);
    for (int i = 0; i < n; i++) uw_hf_from_table(&hf[i], &uw_hf_of[p][1 + i], &fab->fields[1 + i]);
    proto_register_field_array(uw_proto_of[p], hf, n);
  }
}

/* Expert group of a rule: CRC and FEC checks are Checksum, replay rules Sequence. */
static int uw_rule_group(enum ual_rule r) {
  if (ual_rule_checksum(r)) return PI_CHECKSUM;
  if (strncmp(ual_rule_id(r), "RP-", 3) == 0) return PI_SEQUENCE;
  return PI_PROTOCOL;
}

static int uw_severity(enum ual_severity s) {
  switch (s) {
  case UAL_SEV_ERROR: return PI_ERROR;
  case UAL_SEV_WARNING: return PI_WARN;
  case UAL_SEV_INFO: return PI_NOTE;
  }
  return PI_ERROR;
}

static void uw_register_expert(void) {
  static ei_register_info fixed[] = {
    { &ei_malformed, { "ualink.malformed", PI_MALFORMED, PI_ERROR, "Malformed capture record", EXPFILL } },
    { &ei_hdr_reserved, { "ualink.rec.reserved_set", PI_PROTOCOL, PI_WARN, "Reserved record header bits set", EXPFILL } },
    { &ei_dropped, { "ualink.findings_dropped", PI_PROTOCOL, PI_NOTE, "More findings than one record holds", EXPFILL } },
    { &ei_udp_lost, { "ualink.udp.lost_before", PI_SEQUENCE, PI_WARN,
                      "Datagrams of the UDP export lost before this one: the analysis starts over", EXPFILL } },
  };
  ei_register_info *ei = g_new0(ei_register_info, UAL_R_COUNT);
  for (int r = 0; r < UAL_R_COUNT; r++) {
    const char *id = ual_rule_id((enum ual_rule)r);
    ei_rule[r].ei = EI_INIT_EI;
    ei_rule[r].hf = EI_INIT_HF;
    ei[r].ids = &ei_rule[r];
    ei[r].eiinfo.name = g_strdup_printf("ualink.rule.%s", id);
    ei[r].eiinfo.group = uw_rule_group((enum ual_rule)r);
    ei[r].eiinfo.severity = uw_severity(ual_rule_severity((enum ual_rule)r));
    ei[r].eiinfo.summary = g_strdup_printf("%s: %s", id, ual_rule_what((enum ual_rule)r));
    HFILL_INIT(ei[r].eiinfo.hf_info);
  }
  expert_module_t *m = expert_register_protocol(proto_ualink);
  expert_register_field_array(m, ei, UAL_R_COUNT);
  expert_register_field_array(m, fixed, array_length(fixed));
}

static void uw_register_etts(void) {
  static gint *etts[3 + UW_ETT_POOL];
  etts[0] = &ett_ualink;
  etts[1] = &ett_tl;
  etts[2] = &ett_dlm;
  for (int i = 0; i < UW_ETT_POOL; i++) {
    ett_pool[i] = -1;
    etts[3 + i] = &ett_pool[i];
  }
  proto_register_subtree_array(etts, array_length(etts));
  ett_by_label = g_hash_table_new(g_str_hash, g_str_equal);
}

/* Each distinct group label keeps its own expansion state. */
static gint uw_ett(const char *label) {
  gpointer v = g_hash_table_lookup(ett_by_label, label);
  if (v) return ett_pool[GPOINTER_TO_INT(v) - 1];
  guint n = g_hash_table_size(ett_by_label);
  if (n >= UW_ETT_POOL) return ett_ualink;
  g_hash_table_insert(ett_by_label, (gpointer)label, GINT_TO_POINTER((gint)n + 1));
  return ett_pool[n];
}

/* ------------------------------------------------------------------ */
/* Decoding */

static void uw_init(void) {
  ual_ws_state_init(proto_ualink);
  ual_udp_rx_init(&uw_udp_rx);
}
static void uw_cleanup(void) { ual_ws_state_cleanup(); }

static gboolean uw_decoded(const struct ual_rec_result *r) {
  return r->status == UAL_RS_OK || r->status == UAL_RS_RESERVED;
}

/* ------------------------------------------------------------------ */
/* Tree */

#define UW_MAX_DEPTH 8

struct uw_build {
  packet_info *pinfo;
  tvbuff_t *tvb;
  proto_tree *tree[UW_MAX_DEPTH];   /* where rows of depth d go */
  proto_item *seg[UAL_SEGMENTS];    /* segment items, for segment findings */
  int open_seg;                     /* segment whose sectors are still to come, or -1 */
  unsigned open_depth;
  proto_tree *open_tree;
  proto_tree *top;                  /* the packet's tree: a body protocol's item goes there */
  int body_proto;                   /* the next depth-0 group of the body is this protocol's item ("pcie", "ub"), or -1 */
  proto_item *body_item;            /* that item */
  proto_tree *body_tree;            /* its subtree */
};

static int uw_segment_at(unsigned offset) {
  for (int k = 0; k < UAL_SEGMENTS; k++)
    if (offset == UAL_REC_HDR_BYTES + (unsigned)ual_segment_map[k].sh_byte) return k;
  return -1;
}

/* The sectors go after the segment's header fields and message. */
static void uw_flush_sectors(struct uw_build *b) {
  const struct ual_segment_def *sd = &ual_segment_map[b->open_seg];
  for (unsigned s = sd->first_sector; s < sd->first_sector + sd->n_sectors; s++) {
    gint off = (gint)(UAL_REC_HDR_BYTES + ual_sector_offset(s));
    proto_item *ti = proto_tree_add_item(b->open_tree, hf_sector, b->tvb, off, UAL_SECTOR_BYTES, ENC_NA);
    proto_item_append_text(ti, " (sector %u)", s);  /* no-op when the tree is not shown */
  }
  b->open_seg = -1;
}

static proto_item *uw_add_value(proto_tree *t, enum ual_field_id id, tvbuff_t *tvb, gint off,
                                uint64_t v) {
  enum ftenum ft = uw_ftype(&ual_fields[id]);
  proto_item *ti;
  char text[96];
  if (uw_named(&ual_fields[id])) {
    ual_field_format(id, v, text, sizeof text);
    ti = proto_tree_add_uint_format_value(t, hf_field[id], tvb, off, 0, (guint32)v, "%s", text);
  } else if (ft == FT_BOOLEAN)
    ti = proto_tree_add_boolean(t, hf_field[id], tvb, off, 0, v != 0);
  else if (uw_is64(ft))
    ti = proto_tree_add_uint64(t, hf_field[id], tvb, off, 0, v);
  else
    ti = proto_tree_add_uint(t, hf_field[id], tvb, off, 0, (guint32)v);
  proto_item_set_generated(ti);
  return ti;
}

/* A wire field whose bytes are in an earlier frame (a TLP header that
 * straddled in): its value as the walker kept it, placed in its container
 * so that Wireshark's mask and shift give it back. */
static void uw_add_copied(proto_tree *t, const struct ual_tree_row *row, tvbuff_t *tvb, gint off) {
  const struct ual_field *fd = row->field;
  uint64_t v = hf_mask(fd) ? (row->value << fd->lsb) & ual_field_mask(row->id) : row->value;
  enum ftenum ft = uw_ftype(fd);
  proto_item *ti;
  if (uw_named(fd))
    ti = proto_tree_add_uint_format_value(t, hf_field[row->id], tvb, off, 0, (guint32)v, "%s", row->text);
  else if (ft == FT_BOOLEAN)
    ti = proto_tree_add_boolean(t, hf_field[row->id], tvb, off, 0, v);
  else if (uw_is64(ft))
    ti = proto_tree_add_uint64(t, hf_field[row->id], tvb, off, 0, v);
  else
    ti = proto_tree_add_uint(t, hf_field[row->id], tvb, off, 0, (guint32)v);
  proto_item_append_text(ti, " (in an earlier flit)");
  proto_item_set_generated(ti);
}

static void uw_row(void *ctx, const struct ual_tree_row *row) {
  struct uw_build *b = ctx;
  unsigned d = row->depth < UW_MAX_DEPTH ? row->depth : UW_MAX_DEPTH - 1;
  if (b->open_seg >= 0 && d <= b->open_depth) uw_flush_sectors(b);
  proto_tree *parent = b->tree[d];
  gint off = (gint)row->offset;

  if (!row->field) {
    proto_item *ti;
    proto_tree *sub;
    if (b->body_proto >= 0 && d == 0 && row->offset >= UAL_REC_HDR_BYTES) {
      ti = proto_tree_add_protocol_format(b->top, b->body_proto, b->tvb, off, (gint)row->length, "%s: %s", row->label,
                                          row->text);
      sub = proto_item_add_subtree(ti, uw_ett(row->label));
      b->body_item = ti;
      b->body_tree = sub;
      b->body_proto = -1;
    } else {
      sub = proto_tree_add_subtree_format(parent, b->tvb, off, (gint)row->length, uw_ett(row->label), &ti, "%s: %s",
                                          row->label, row->text);
    }
    for (unsigned k = d + 1; k < UW_MAX_DEPTH; k++) b->tree[k] = sub;
    int seg = strcmp(row->label, "Segment") == 0 ? uw_segment_at(row->offset) : -1;
    if (seg >= 0) {
      b->seg[seg] = ti;
      b->open_seg = seg;
      b->open_depth = d;
      b->open_tree = sub;
    }
  } else if (row->field->flags & UAL_FF_BYTES) {
    /* libdecode's text, as ualink-decode -V shows it */
    proto_tree_add_bytes_format_value(parent, hf_field[row->id], b->tvb, off, (gint)row->length, NULL, "%s", row->text);
  } else if (row->copied) {
    uw_add_copied(parent, row, b->tvb, off);
  } else if (row->field->size && uw_named(row->field)) {
    /* a masked field takes its container's value: Wireshark masks and shifts it */
    guint32 in_place = (guint32)(row->value << row->field->lsb) & (guint32)ual_field_mask(row->id);
    proto_tree_add_uint_format_value(parent, hf_field[row->id], b->tvb, off, row->field->size,
                                     hf_mask(row->field) ? in_place : (guint32)row->value, "%s", row->text);
  } else if (row->field->size && (row->field->flags & UAL_FF_INPLACE)) {
    /* the container masked, as libdecode shows it (no hf bitmask: Wireshark would shift) */
    if (uw_is64(uw_ftype(row->field)))
      proto_tree_add_uint64(parent, hf_field[row->id], b->tvb, off, row->field->size, row->value);
    else
      proto_tree_add_uint(parent, hf_field[row->id], b->tvb, off, row->field->size, (guint32)row->value);
  } else if (row->field->size) {
    proto_tree_add_item(parent, hf_field[row->id], b->tvb, off, row->field->size,
                        row->field->endian == UAL_BE ? ENC_BIG_ENDIAN : ENC_LITTLE_ENDIAN);
  } else {
    uw_add_value(parent, row->id, b->tvb, off, row->value);
  }
}

/* TL flits and DL messages completed in this frame: n_tl/n_msg of them,
 * numbered from first. */
static void uw_add_completed(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo, unsigned first,
                             unsigned n_tl, const struct ual_tl_flit *tls,
                             unsigned n_msg, const struct ual_dl_item *msgs) {
  for (unsigned i = 0; i < n_tl; i++) {
    const struct ual_tl_flit *tl = &tls[i];
    tvbuff_t *t = tvb_new_child_real_data(tvb, tl->data, UAL_TL_FLIT_BYTES, UAL_TL_FLIT_BYTES);
    add_new_data_source(pinfo, t, wmem_strdup_printf(pinfo->pool, "TL flit %u", first + i + 1));
    proto_tree *st = proto_tree_add_subtree_format(tree, t, 0, UAL_TL_FLIT_BYTES, ett_tl, NULL,
        "TL flit %u (started in frame %" PRIu64 " segment %u, M0=%u M1=%u)", first + i + 1,
        tl->start_frame, tl->start_segment, tl->m0, tl->m1);
    proto_tree_add_item(st, hf_tl_data, t, 0, UAL_TL_FLIT_BYTES, ENC_NA);
    proto_item_set_generated(proto_tree_add_uint(st, hf_tl_m0, t, 0, 0, tl->m0));
    proto_item_set_generated(proto_tree_add_uint(st, hf_tl_m1, t, 0, 0, tl->m1));
    proto_item_set_generated(proto_tree_add_uint(st, hf_tl_start_frame, t, 0, 0, (guint32)tl->start_frame));
    proto_item_set_generated(proto_tree_add_uint(st, hf_tl_start_segment, t, 0, 0, tl->start_segment));
  }
  for (unsigned i = 0; i < n_msg; i++) {
    const struct ual_dl_item *it = &msgs[i];
    char s[128];
    ual_dlmsg_summary(&it->msg, s, sizeof s);
    proto_tree *st = proto_tree_add_subtree_format(tree, tvb, 0, 0, ett_dlm, NULL,
        "DL message completed: %s (started in frame %" PRIu64 " segment %u)", s, it->start_frame, it->segment);
    proto_item_set_generated(proto_tree_add_string(st, hf_dlm_summary, tvb, 0, 0, s));
    proto_item_set_generated(proto_tree_add_uint(st, hf_dlm_start_frame, tvb, 0, 0, (guint32)it->start_frame));
    proto_item_set_generated(proto_tree_add_uint(st, hf_dlm_segment, tvb, 0, 0, it->segment));
    for (unsigned k = 0; k < it->n_payload; k++)
      proto_item_set_generated(proto_tree_add_uint(st, hf_dlm_payload, tvb, 0, 0, it->payload[k]));
  }
}

/* Findings are expert infos of the record's fabric, on its item. */
static void uw_add_findings(packet_info *pinfo, proto_item *top, proto_tree *root, const struct uw_build *b,
                            const struct ual_rec_result *r, const struct ual_view_fabric *fab) {
  const gchar *was = pinfo->current_proto;
  pinfo->current_proto = fab->name;
  if (b->body_item) top = b->body_item;
  for (unsigned i = 0; i < r->findings.n; i++) {
    const struct ual_finding *f = &r->findings.v[i];
    if (f->rule >= UAL_R_COUNT) continue;
    enum ual_rule rule = (enum ual_rule)f->rule;
    proto_item_set_generated(proto_tree_add_string(root, hf_rule, b->tvb, 0, 0, ual_rule_id(rule)));
    proto_item_set_generated(proto_tree_add_string(root, hf_severity, b->tvb, 0, 0,
                                                   ual_severity_name(ual_rule_severity(rule))));
    proto_item *at = f->segment >= 0 && f->segment < UAL_SEGMENTS && b->seg[f->segment] ? b->seg[f->segment] : top;
    expert_add_info_format(pinfo, at, &ei_rule[f->rule], "%s: %s", ual_rule_id((enum ual_rule)f->rule), f->msg);
  }
  if (r->findings.dropped)
    expert_add_info_format(pinfo, top, &ei_dropped, "%u more findings not shown", r->findings.dropped);
  if (!uw_decoded(r))
    expert_add_info_format(pinfo, top, &ei_malformed, "Malformed record: %s", ual_rec_status_text(r->status));
  else if (r->status == UAL_RS_RESERVED)
    expert_add_info(pinfo, top, &ei_hdr_reserved);
  pinfo->current_proto = was;
}

/* ------------------------------------------------------------------ */
/* Dissector */

static const char uw_side_a[] = "Side A";
static const char uw_side_b[] = "Side B";

static void uw_columns(packet_info *pinfo, const struct ual_rec_result *r, const struct ual_view_fabric *fab) {
  char sum[256], rules[256];
  col_set_str(pinfo->cinfo, COL_PROTOCOL, fab->name);
  ual_rec_summary(r, sum, sizeof sum);
  ual_rec_rules(r, rules, sizeof rules);
  col_clear(pinfo->cinfo, COL_INFO);
  col_add_str(pinfo->cinfo, COL_INFO, sum);
  if (rules[0]) col_append_fstr(pinfo->cinfo, COL_INFO, " [%s]", rules);
}

static int dissect_ualink(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_) {
  struct ual_rec_result *r = ual_ws_decode(tvb, pinfo, uw_analyze);
  /* the record's fabric (the model's: a link event by its link) and that
   * fabric's protocol item over the body of the records it owns */
  const struct ual_view_fabric *fab = ual_view_fabric_get(ual_ws_fabric(pinfo, r));
  size_t proto = ual_filter_fabric_of(fab->key);

  uw_columns(pinfo, r, fab);
  if (tvb_captured_length(tvb) >= UAL_REC_HDR_BYTES) {
    set_address(&pinfo->src, AT_STRINGZ, (int)sizeof uw_side_a, r->dir ? uw_side_b : uw_side_a);
    set_address(&pinfo->dst, AT_STRINGZ, (int)sizeof uw_side_a, r->dir ? uw_side_a : uw_side_b);
    pinfo->p2p_dir = r->dir ? P2P_DIR_RECV : P2P_DIR_SENT;
  }

  proto_item *top = proto_tree_add_item(tree, proto_ualink, tvb, 0, -1, ENC_NA);
  proto_tree *root = proto_item_add_subtree(top, ett_ualink);

  /* Wire fields are shown as the flit is after FEC correction. */
  tvbuff_t *view = tvb;
  guint len = tvb_captured_length(tvb);
  gboolean flit = r->rec.h.kind == UAL_REC_FLIT || r->rec.h.kind == UAL_REC_PCIE_FLIT;   /* both in r->flit */
  if (uw_decoded(r) && flit && r->flit.fec.status == UAL_FEC_CORRECTED) {
    guint8 *fixed = (guint8 *)tvb_memdup(pinfo->pool, tvb, 0, len);
    memcpy(fixed + UAL_REC_HDR_BYTES, r->flit.bytes, UAL_FLIT_BYTES);
    view = tvb_new_child_real_data(tvb, fixed, len, len);
    add_new_data_source(pinfo, view, "FEC-corrected record");
  }

  struct uw_build b;
  memset(&b, 0, sizeof b);
  b.pinfo = pinfo;
  b.tvb = view;
  b.open_seg = -1;
  b.top = tree;
  b.body_proto = uw_decoded(r) && proto && fab->owns(r->rec.h.kind) ? uw_proto_of[proto] : -1;
  for (int k = 0; k < UW_MAX_DEPTH; k++) b.tree[k] = root;
  if (tree) {
    ual_tree_walk(r, tvb_get_ptr(view, 0, len), len, uw_row, &b);
    if (b.open_seg >= 0) uw_flush_sectors(&b);
    if (r->unpacked)
      uw_add_completed(root, tvb, pinfo, 0, r->unp.n_tl, r->unp.tl, r->unp.n_msg, r->unp.msg);
  }
  const struct ual_ws_released *rel;
  ual_ws_state_tree(root, tvb, pinfo, r, &rel);
  if (b.body_tree) ual_ws_fabric_tree(b.body_tree, tvb, pinfo);
  if (tree && rel && (rel->n_tl || rel->n_msg))
    uw_add_completed(root, tvb, pinfo, r->unpacked ? r->unp.n_tl : 0, rel->n_tl, rel->tl, rel->n_msg, rel->msg);
  uw_add_findings(pinfo, top, root, &b, r, fab);

  tap_queue_packet(uw_tap, pinfo, r);
  return (int)len;
}

/* Every enumerated field of the record header a listed value. With the
 * PCIe roles encoding (pcie.md [P3]) its rows stand for the UALink role
 * rows. */
static gboolean uw_hdr_listed(const guint8 *buf, gboolean pcie_roles) {
  enum ual_field_id ids[32], id;
  uint32_t v;
  size_t n = ual_scope_fields(UAL_SC_REC, ids, 32);
  for (size_t i = 0; i < n && i < 32; i++) {
    if (pcie_roles && (ids[i] == UAL_F_REC_ROLE_A || ids[i] == UAL_F_REC_ROLE_B || ids[i] == UAL_F_REC_ROLES_RSVD))
      continue;
    if ((ual_fields[ids[i]].flags & UAL_FF_ENUM) && !ual_field_value_name(ids[i], (uint32_t)ual_field_get(ids[i], buf)))
      return FALSE;
  }
  return !pcie_roles || !ual_scope_unlisted(UAL_SC_REC_PCIE_ROLES, buf, &id, &v);
}

/* The heuristic accepts exactly what a writer of version-1 records can
 * produce: the body length of the kind, every enumerated header field
 * (kind, rate, width, roles) a listed value, reserved bits 0, link 0-3 or
 * 255; on PCIe links (kind 4, or the PCIe roles encoding) link 0-254
 * (capture-format, pcie.md [P4]). */
static gboolean uw_plausible(tvbuff_t *tvb) {
  guint len = tvb_captured_length(tvb);
  if (len < UAL_REC_HDR_BYTES || len != tvb_reported_length(tvb)) return FALSE;
  const guint8 *buf = tvb_get_ptr(tvb, 0, len);
  struct ual_record rec;
  if (ual_record_parse(buf, len, &rec) != UAL_RS_OK) return FALSE;
  if (!uw_hdr_listed(buf, rec.h.roles_pcie)) return FALSE;
  if (rec.h.roles_pcie || rec.h.kind == UAL_REC_PCIE_DLLP) return TRUE;
  return rec.h.link <= 3 || rec.h.link == 255;
}

/* A datagram of the UDP export: the export header when there is one
 * (its sequence followed on the first pass: the datagrams lost before
 * this one are counted and the record is passed on with UAL_RF_LOST), then
 * the record. */
static int dissect_ualink_udp(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data) {
  guint len = tvb_captured_length(tvb);
  const guint8 *buf = tvb_get_ptr(tvb, 0, len);
  struct uw_udp_frame *uf = p_get_proto_data(wmem_file_scope(), pinfo, proto_ualink, 1);
  if (!uf) {
    uf = wmem_new0(wmem_file_scope(), struct uw_udp_frame);
    if (!PINFO_FD_VISITED(pinfo)) {
      uint64_t before = uw_udp_rx.lost;
      size_t n;
      bool lost;
      ual_udp_rx_step(&uw_udp_rx, buf, len, &n, &lost);
      uf->lost = uw_udp_rx.lost - before;
      uf->mark = lost;
    }
    p_add_proto_data(wmem_file_scope(), pinfo, proto_ualink, 1, uf);
  }
  struct ual_udp_rx one;   /* where the record starts: the same on every pass */
  ual_udp_rx_init(&one);
  size_t n;
  bool unused;
  const guint8 *rec = ual_udp_rx_step(&one, buf, len, &n, &unused);
  guint hlen = (guint)(rec - buf);
  if (hlen) {
    proto_item *hi = proto_tree_add_item(tree, hf_udp_hdr, tvb, 0, hlen, ENC_NA);
    proto_tree *ht = proto_item_add_subtree(hi, ett_udp);
    proto_tree_add_item(ht, hf_udp_type, tvb, 0, 1, ENC_NA);
    proto_tree_add_item(ht, hf_udp_len, tvb, 1, 1, ENC_NA);
    proto_tree_add_item(ht, hf_udp_seq, tvb, 4, 4, ENC_LITTLE_ENDIAN);
    if (uf->lost || uf->mark) {
      proto_item *li = proto_tree_add_uint64(ht, hf_udp_lost, tvb, 4, 4, uf->lost);
      proto_item_set_generated(li);
      expert_add_info_format(pinfo, li, &ei_udp_lost,
                             "%" PRIu64 " datagrams of the UDP export lost before this one: the analysis starts over",
                             uf->lost);
    }
  }
  tvbuff_t *rt = tvb_new_subset_remaining(tvb, (gint)hlen);
  if (uf->mark && n >= UAL_REC_HDR_BYTES) {
    guint8 *m = (guint8 *)tvb_memdup(pinfo->pool, rt, 0, (size_t)n);
    ual_udp_mark_lost(m, n, m, n);
    rt = tvb_new_child_real_data(tvb, m, (guint)n, (gint)n);
    add_new_data_source(pinfo, rt, "Record after lost datagrams");
  }
  int done = dissect_ualink(rt, pinfo, tree, data);
  if (uf->lost) col_prepend_fstr(pinfo->cinfo, COL_INFO, "[%" PRIu64 " lost] ", uf->lost);
  return (int)hlen + done;
}

static uw_bool dissect_ualink_heur(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data) {
  guint len = tvb_captured_length(tvb);
  guint hlen = 0;
  uint8_t h[2] = { 0, 0 };   /* tvb_get_guint8 is deprecated from 4.4 and tvb_get_uint8 new in it */
  if (len >= UAL_UDP_HDR_BYTES) tvb_memcpy(tvb, h, 0, sizeof h);
  if (len >= UAL_UDP_HDR_BYTES && h[0] == UAL_UDP_HDR_TYPE) {   /* the export header */
    hlen = h[1];
    if (hlen < UAL_UDP_HDR_BYTES || hlen > len || tvb_get_letohs(tvb, 2) != 0) return FALSE;
  }
  if (!uw_plausible(tvb_new_subset_remaining(tvb, (gint)hlen))) return FALSE;
  dissect_ualink_udp(tvb, pinfo, tree, data);
  return TRUE;
}

void proto_register_ualink(void) {
  size_t np = ual_filter_fabric_count();
  uw_proto_of = g_new(int, np);
  for (size_t i = 0; i < np; i++) uw_proto_of[i] = -1;
  proto_ualink = uw_protocol(0);
  uw_register_fields();
  uw_register_table_fields();
  uw_register_etts();
  uw_register_expert();
  uw_register_fabric_fields();
  ual_ws_state_register(proto_ualink);
  module_t *m = prefs_register_protocol(proto_ualink, NULL);
  prefs_register_bool_preference(m, "analyze", "Stateful analysis",
      "Run libdecode's analyzer: replay, LTSSM, DL message protocols and UART streams "
      "(off: stateless decode and unpacking only)", &uw_analyze);
  uw_handle = register_dissector("ualink", dissect_ualink, proto_ualink);
  uw_udp_handle = register_dissector("ualink.udp", dissect_ualink_udp, proto_ualink);
  static gint *udp_ett[] = { &ett_udp };
  proto_register_subtree_array(udp_ett, array_length(udp_ett));
  uw_tap = register_tap(UAL_WS_TAP);
  register_init_routine(uw_init);
  register_cleanup_routine(uw_cleanup);
}

void proto_reg_handoff_ualink(void) {
  dissector_add_uint("wtap_encap", WTAP_ENCAP_USER0, uw_handle);
  dissector_add_uint_with_preference("udp.port", UAL_UDP_PORT, uw_udp_handle);
  heur_dissector_add("udp", dissect_ualink_heur, "UALink capture records over UDP", "ualink_udp",
                     proto_ualink, HEURISTIC_ENABLE);
}
