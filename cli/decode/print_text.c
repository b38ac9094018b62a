/* Text output: the one-line summary, the -V field tree (walked from the
 * field table by ual_tree_walk) and the -x hex dump. */
#include "dcli.h"
#include "ualink/ualink/antree.h"
#include "ualink/ualink/filter.h"

static const char *const dir_name[2] = { "A>B", "B>A" };

const struct dc_colors *dc_colors(bool on) {
  static const struct dc_colors off = { { "", "", "" }, "", "", "" };
  static const struct dc_colors ansi = { { "\033[36m", "\033[33m", "\033[1;31m" }, "\033[2m", "\033[1m", "\033[0m" };
  return on ? &ansi : &off;
}

size_t dc_rec_time(const struct dc_ctx *c, uint64_t ts_ns, char buf[DC_TIME_MAX]) {
  char t[DC_TIME_MAX];
  size_t n = dc_fmt_time(t, c->o->tfmt, ts_ns, &c->tref);
  size_t pad = n < 13 ? 13 - n : 0;
  memset(buf, ' ', pad);
  memcpy(buf + pad, t, n);
  return pad + n;
}

void dc_print_line(struct dc_ctx *c, const uint8_t *rec, size_t len, uint64_t ts_ns) {
  const struct ual_rec_result *r = &c->res;
  const struct dc_colors *k = dc_colors(c->o->color);
  struct dc_out *o = &c->out;
  char sum[512];
  (void)rec;
  (void)len;
  ual_rec_summary(r, sum, sizeof sum);
  dc_out_u64w(o, r->frame, 6);
  dc_out_ch(o, ' ');
  char t[DC_TIME_MAX];
  dc_out_mem(o, t, dc_rec_time(c, ts_ns, t));
  dc_out_ch(o, ' ');
  dc_out_str(o, dir_name[r->dir & 1]);
  dc_out_ch(o, ' ');
  dc_link_col(c, r->rec.h.link, o);
  bool bad = r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED;
  if (bad) dc_out_str(o, k->sev[UAL_SEV_ERROR]);
  dc_out_str(o, sum);
  if (bad) dc_out_str(o, k->off);
  if (r->findings.n) {
    dc_out_str(o, "  ");
    dc_out_str(o, k->sev[ual_findings_max_severity(&r->findings)]);
    dc_out_ch(o, '[');
    for (unsigned i = 0; i < r->findings.n; i++) {
      if (i) dc_out_ch(o, ' ');
      dc_out_str(o, ual_rule_id((enum ual_rule)r->findings.v[i].rule));
    }
    if (r->findings.dropped) dc_out_fmt(o, " +%u", r->findings.dropped);
    dc_out_ch(o, ']');
    dc_out_str(o, k->off);
  }
  dc_out_ch(o, '\n');
}

struct tree_ctx {
  struct dc_out *o;
  const struct dc_colors *k;
  bool flit;            /* the record is a flit: show flit byte offsets too */
  const uint8_t *flit_bytes;  /* the flit after FEC correction */
  int open_seg;         /* payload flit: the segment whose rows are being printed, -1 none */
  unsigned open_depth;
};

/* The offset columns of a row at record offset off. */
static void offsets(struct tree_ctx *t, unsigned off) {
  struct dc_out *o = t->o;
  dc_out_str(o, t->k->dim);
  dc_out_str(o, "0x");
  dc_out_hexu(o, off, 3);
  if (t->flit && off >= UAL_REC_HDR_BYTES && off < UAL_REC_HDR_BYTES + UAL_FLIT_BYTES) {
    dc_out_str(o, " 0x");
    dc_out_hexu(o, off - UAL_REC_HDR_BYTES, 2);
  } else {
    dc_out_pad(o, 5);
  }
  dc_out_str(o, t->k->off);
}

/* Segment k starts at its header byte. */
static int segment_at(unsigned off) {
  for (int k = 0; k < UAL_SEGMENTS; k++)
    if (off == UAL_REC_HDR_BYTES + (unsigned)ual_segment_map[k].sh_byte) return k;
  return -1;
}

/* The sectors of the open segment, after its header rows, as Wireshark's
 * tree has them: the flit's bytes after FEC correction, which every field
 * of the tree is read from. */
static void flush_sectors(struct tree_ctx *t) {
  if (t->open_seg < 0) return;
  const struct ual_segment_def *sd = &ual_segment_map[t->open_seg];
  for (unsigned s = sd->first_sector; s < (unsigned)sd->first_sector + sd->n_sectors; s++) {
    offsets(t, UAL_REC_HDR_BYTES + ual_sector_offset(s));
    dc_out_pad(t->o, 2 + 2 * (t->open_depth + 1));
    dc_out_str(t->o, "Sector: ");
    dc_out_hexbytes(t->o, t->flit_bytes + ual_sector_offset(s), UAL_SECTOR_BYTES);
    dc_out_fmt(t->o, " (sector %u)\n", s);
  }
  t->open_seg = -1;
}

/* ".... 01.. = " for a field taken from its container by mask and shift
 * (tshark's bits). */
static void bits(struct dc_out *o, const struct ual_field *fd, uint64_t v) {
  unsigned nb = 8u * fd->size;
  if (fd->size > 8 || !ual_field_bitmask((enum ual_field_id)(fd - ual_fields))) return;
  for (unsigned i = nb; i-- > 0;) {
    if (i >= fd->lsb && i < (unsigned)fd->lsb + fd->width) dc_out_ch(o, (char)('0' + (v >> (i - fd->lsb) & 1)));
    else dc_out_ch(o, '.');
    if (i && i % 4 == 0) dc_out_ch(o, ' ');
  }
  dc_out_str(o, " = ");
}

static void tree_row(void *ctx, const struct ual_tree_row *row) {
  struct tree_ctx *t = ctx;
  struct dc_out *o = t->o;
  if (t->open_seg >= 0 && row->depth <= t->open_depth) flush_sectors(t);
  if (t->flit && !row->field && strcmp(row->label, "Segment") == 0) {
    t->open_seg = segment_at(row->offset);
    t->open_depth = row->depth;
  }
  offsets(t, row->offset);
  dc_out_pad(o, 2 + 2 * row->depth);
  if (!row->field) {
    dc_out_str(o, t->k->bold);
    dc_out_str(o, row->label);
    dc_out_str(o, t->k->off);
  } else {
    bits(o, row->field, row->value);
    dc_out_str(o, row->label);
  }
  if (row->text[0]) {
    dc_out_str(o, ": ");
    bool rsvd = row->field && (row->field->flags & UAL_FF_RESERVED) && row->value;
    if (rsvd) dc_out_str(o, t->k->sev[UAL_SEV_WARNING]);
    dc_out_str(o, row->text);
    if (rsvd) dc_out_str(o, t->k->off);
  }
  if (row->copied) dc_out_str(o, " (in an earlier flit)");
  dc_out_ch(o, '\n');
}

/* What the unpacker completed in this flit, as --json's tl_flits and
 * dl_msgs have it: each TL flit with where it started and its 64 bytes,
 * each DL message with where it started (a UART transport with its payload). */
static void unpacked_block(struct dc_out *o, const struct dc_colors *k, const struct ual_rec_result *r) {
  if (!r->unpacked) return;
  const struct ual_unpack_out *u = &r->unp;
  dc_out_str(o, k->bold);
  dc_out_fmt(o, "          Unpacked: %u TL flit%s and %u DL message%s completed; %u TL flit%s started, %u sector%s owed\n",
             u->n_tl, u->n_tl == 1 ? "" : "s", u->n_msg, u->n_msg == 1 ? "" : "s", u->tl_started,
             u->tl_started == 1 ? "" : "s", u->tl_owed, u->tl_owed == 1 ? "" : "s");
  dc_out_str(o, k->off);
  for (unsigned i = 0; i < u->n_tl; i++) {
    const struct ual_tl_flit *tl = &u->tl[i];
    dc_out_fmt(o, "            TL flit %u (started in frame %llu segment %u, M0=%u M1=%u)\n", i + 1,
               (unsigned long long)tl->start_frame, tl->start_segment, tl->m0, tl->m1);
    for (unsigned b = 0; b < UAL_TL_FLIT_BYTES; b += 16) {
      dc_out_fmt(o, "              %02x  ", b);
      dc_out_hexbytes(o, tl->data + b, 16);
      dc_out_ch(o, '\n');
    }
  }
  for (unsigned i = 0; i < u->n_msg; i++) {
    const struct ual_dl_item *it = &u->msg[i];
    char s[128];
    ual_dlmsg_summary(&it->msg, s, sizeof s);
    dc_out_fmt(o, "            DL message completed: %s (started in frame %llu segment %u)\n", s,
               (unsigned long long)it->start_frame, it->segment);
    if (it->n_payload) {
      dc_out_str(o, "              Payload:");
      for (unsigned p = 0; p < it->n_payload; p++) dc_out_fmt(o, " %08x", it->payload[p]);
      dc_out_ch(o, '\n');
    }
  }
}

/* The analysis subtree (libdecode's rows, antree.h), as tshark -V shows
 * it with the plugin, without its brackets. */
struct an_ctx {
  struct dc_out *o;
  const struct dc_colors *k;
};

static void an_row(void *ctx, const struct ual_an_row *row) {
  struct an_ctx *a = ctx;
  dc_out_fmt(a->o, "%*s", 10 + 2 * (int)row->depth, "");
  if (row->field < 0 && row->depth == 0) dc_out_str(a->o, a->k->bold);
  if (row->field >= 0) dc_out_fmt(a->o, "%s: ", ual_filter_ualink_fields[row->field].name);
  dc_out_str(a->o, row->text);
  if (row->field < 0 && row->depth == 0) dc_out_str(a->o, a->k->off);
  dc_out_ch(a->o, '\n');
}

static void analysis_block(struct dc_ctx *c) {
  if (c->o->stateless) return;
  struct ual_an_frame f;
  ual_an_frame_take(&c->an, &c->res, &f);
  struct an_ctx a = { &c->out, dc_colors(c->o->color) };
  ual_an_tree_walk(&f, c->ev.v, c->ev.n, an_row, &a);
}

static void findings_block(struct dc_out *o, const struct dc_colors *k, const struct ual_findings *fs) {
  if (!fs->n) return;
  dc_out_fmt(o, "          Findings: %u\n", fs->n + fs->dropped);
  for (unsigned i = 0; i < fs->n; i++) {
    const struct ual_finding *x = &fs->v[i];
    enum ual_severity s = ual_rule_severity((enum ual_rule)x->rule);
    dc_out_str(o, "            ");
    dc_out_str(o, k->sev[s]);
    dc_out_fmt(o, "%-7s %s", ual_severity_name(s), ual_rule_id((enum ual_rule)x->rule));
    dc_out_str(o, k->off);
    if (x->segment >= 0) dc_out_fmt(o, " (segment %d)", x->segment);
    dc_out_str(o, ": ");
    dc_out_str(o, x->msg);
    dc_out_ch(o, '\n');
  }
  if (fs->dropped) dc_out_fmt(o, "            ... %u more not stored\n", fs->dropped);
}

void dc_print_tree(struct dc_ctx *c, const uint8_t *rec, size_t len, uint64_t ts_ns) {
  const struct ual_rec_result *r = &c->res;
  const struct dc_colors *k = dc_colors(c->o->color);
  struct dc_out *o = &c->out;
  dc_out_str(o, k->bold);
  dc_out_fmt(o, "Frame %llu: %zu bytes, %s, ", (unsigned long long)r->frame, len, dir_name[r->dir & 1]);
  char tm[DC_TIME_MAX];
  dc_out_mem(o, tm, dc_fmt_time(tm, c->o->tfmt, ts_ns, &c->tref));
  if (dc_tfmt_is_span(c->o->tfmt)) dc_out_str(o, " s");
  if (ts_ns) {
    dc_out_str(o, " (");
    dc_out_secs(o, (int64_t)ts_ns);
    dc_out_ch(o, ')');
  }
  dc_out_str(o, k->off);
  dc_out_ch(o, '\n');
  struct tree_ctx t = { o, k,
                        (r->status == UAL_RS_OK || r->status == UAL_RS_RESERVED) &&
                            (r->rec.h.kind == UAL_REC_FLIT || r->rec.h.kind == UAL_REC_PCIE_FLIT),
                        r->flit.bytes, -1, 0 };
  ual_tree_walk(r, rec, len, tree_row, &t);
  flush_sectors(&t);
  unpacked_block(o, k, r);
  analysis_block(c);
  findings_block(o, k, &r->findings);
}

void dc_print_hexdump(struct dc_out *o, const uint8_t *p, size_t n) {
  unsigned digits = 4; /* more past 64 KiB (pcap records reach 256 KiB): offsets must not wrap */
  while (digits < 8 && n > (size_t)1 << (4 * digits)) digits++;
  for (size_t off = 0; off < n; off += 16) {
    dc_out_hexu(o, off, digits);
    dc_out_str(o, "  ");
    for (size_t i = 0; i < 16; i++) {
      if (i == 8) dc_out_ch(o, ' ');
      if (off + i < n) {
        dc_out_hexbytes(o, p + off + i, 1);
        dc_out_ch(o, ' ');
      } else {
        dc_out_str(o, "   ");
      }
    }
    dc_out_ch(o, ' ');
    for (size_t i = 0; i < 16 && off + i < n; i++) {
      unsigned char ch = p[off + i];
      dc_out_ch(o, ch >= 0x20 && ch < 0x7f ? (char)ch : '.');
    }
    dc_out_ch(o, '\n');
  }
}
