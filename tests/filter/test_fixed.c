/* A filter's fixed rows (core/filter.c) against the field tree: every
 * field-table row the filter reads from its fixed place (the record
 * header; the rows a kind lists in struct ual_kind.fixed) must have the
 * occurrences ual_tree_walk shows, as the Wireshark plugin shows them (wire
 * fields of an FEC-corrected flit from the corrected bytes), in the same
 * order. Records: every record of the given captures, and variants of each
 * (a flit header or CRC byte flipped, which FEC corrects; cut to 8 and to 5
 * bytes).
 * Programs: one per such row, and one of all of them at once. Fails as
 * well when a row was never compared on the fast path on a record of each
 * kind that lists it (a filter that walked the tree instead), or when no
 * variant was FEC-corrected.
 *
 *   test_fixed CAPTURE...
 */
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ualink/core/filter.h"
#include "ualink/core/tree.h"
#include "core/kind.h"

struct prog {
  struct ual_filter *f;
  const enum ual_field_id *ids;   /* slot -> table row */
  size_t n;
};

static enum ual_field_id fixed_ids[UAL_F_COUNT];
static size_t n_fixed;
static struct prog one[UAL_F_COUNT], all;
/* values of row id compared on the fast path, by record kind */
static unsigned long long compared[256][UAL_F_COUNT];
static unsigned long long records, corrected;
static int fails;

static bool header_row(enum ual_field_id id) {
  return ual_fields[id].scope == UAL_SC_REC || ual_fields[id].scope == UAL_SC_REC_PCIE_ROLES;
}

/* The rows a filter may read from a fixed place for some record. */
static bool fixed_somewhere(enum ual_field_id id) {
  if (header_row(id)) return true;
  for (unsigned k = 0; k < 256; k++)
    if (ual_kind_of(k) && ual_kind_fixed_row(ual_kind_of(k), id)) return true;
  return false;
}

static struct ual_filter *fields_program(const enum ual_field_id *ids, size_t n) {
  const char *names[UAL_F_COUNT];
  for (size_t i = 0; i < n; i++) names[i] = ual_fields[ids[i]].abbrev;
  struct ual_filter_error e;
  struct ual_filter *f = ual_filter_fields(names, n, &e);
  if (!f) {
    fprintf(stderr, "test_fixed: %s\n", e.msg);
    exit(2);
  }
  return f;
}

/* What the tree shows of the wanted rows, in its order. */
struct shown {
  const struct prog *p;
  size_t n;
  struct { int slot; uint64_t v; } v[1024];
};

static void tree_row(void *ctx, const struct ual_tree_row *row) {
  struct shown *s = ctx;
  if (!row->field) return;
  for (size_t i = 0; i < s->p->n; i++) {
    if (s->p->ids[i] != row->id || s->n == sizeof s->v / sizeof s->v[0]) continue;
    s->v[s->n].slot = (int)i;
    s->v[s->n].v = (ual_fields[row->id].flags & UAL_FF_BOOL) ? row->value != 0 : row->value;   /* FT_BOOLEAN */
    s->n++;
  }
}

static void compare(const struct prog *p, const struct ual_filter_record *fr, const uint8_t *view, const char *what) {
  ual_filter_collect(p->f, fr);
  if (ual_filter_walks(p->f, fr)) return;
  const struct ual_rec_result *r = fr->r;
  static struct shown s;
  s.p = p;
  s.n = 0;
  ual_tree_walk(r, view, fr->len, tree_row, &s);
  size_t n = ual_filter_nvalues(p->f);
  bool same = n == s.n;
  for (size_t i = 0; same && i < n; i++) {
    const struct ual_fvalue *x = ual_filter_value(p->f, i);
    same = x->slot == s.v[i].slot && x->v.u == s.v[i].v;
  }
  if (!same && fails++ < 10) {
    fprintf(stderr, "%s (kind %u, %zu bytes): the filter read %zu value(s) of %s, the tree shows %zu", what,
            fr->len >= 2 ? fr->rec[1] : 0u, fr->len, n, p->n == 1 ? ual_fields[p->ids[0]].abbrev : "the fixed rows",
            s.n);
    for (size_t i = 0; i < n && i < s.n; i++)
      fprintf(stderr, "%s slot %u %llu / slot %d %llu", i ? "," : ":", ual_filter_value(p->f, i)->slot,
              (unsigned long long)ual_filter_value(p->f, i)->v.u, s.v[i].slot, (unsigned long long)s.v[i].v);
    fputc('\n', stderr);
  }
  if (p->n == 1 && fr->len >= 2) compared[fr->rec[1]][p->ids[0]] += n;
}

/* One record through every program. */
static void check(const uint8_t *rec, size_t len, const struct ual_rec_result *r, const char *what) {
  static uint8_t view[1 << 16];
  const uint8_t *shown = rec;
  bool flit = r->rec.h.kind == UAL_REC_FLIT || r->rec.h.kind == UAL_REC_PCIE_FLIT;
  bool decoded = r->status == UAL_RS_OK || r->status == UAL_RS_RESERVED;
  if (len >= UAL_REC_HDR_BYTES && decoded && flit && r->flit.fec.status == UAL_FEC_CORRECTED && len <= sizeof view) {
    memcpy(view, rec, len);
    memcpy(view + UAL_REC_HDR_BYTES, r->flit.bytes, UAL_FLIT_BYTES);
    shown = view;
    corrected++;
  }
  struct ual_filter_record fr = { rec, len, (uint32_t)len, r->frame, 0, 0, r, NULL };
  for (size_t i = 0; i < n_fixed; i++) compare(&one[i], &fr, shown, what);
  compare(&all, &fr, shown, what);
  records++;
}

static void variants(const uint8_t *rec, size_t len, uint64_t frame, const char *what) {
  static uint8_t b[1 << 16];
  static struct ual_rec_result r;
  if (len > sizeof b) return;
  memcpy(b, rec, len);
  /* one symbol of a fixed row (the flit header, the CRC): FEC corrects it */
  static const unsigned flips[] = { 1, 245 };
  for (size_t i = 0; i < sizeof flips / sizeof flips[0] && len == UAL_REC_HDR_BYTES + UAL_FLIT_BYTES; i++) {
    b[UAL_REC_HDR_BYTES + flips[i]] ^= 0x5a;
    ual_decode_stateless(b, len, frame, &r);
    check(b, len, &r, what);
    b[UAL_REC_HDR_BYTES + flips[i]] ^= 0x5a;
  }
  static const size_t cuts[] = { 5, UAL_REC_HDR_BYTES };
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
    if (cuts[i] < len) {
      ual_decode_stateless(b, cuts[i], frame, &r);
      check(b, cuts[i], &r, what);
    }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_fixed CAPTURE...\n");
    return 2;
  }
  for (int id = 0; id < UAL_F_COUNT; id++)
    if (fixed_somewhere((enum ual_field_id)id)) fixed_ids[n_fixed++] = (enum ual_field_id)id;
  for (size_t i = 0; i < n_fixed; i++) one[i] = (struct prog){ fields_program(&fixed_ids[i], 1), &fixed_ids[i], 1 };
  all = (struct prog){ fields_program(fixed_ids, n_fixed), fixed_ids, n_fixed };
  unsigned long long seen[256] = { 0 };
  for (int a = 1; a < argc; a++) {
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *pc = pcap_open_offline(argv[a], err);
    if (!pc) {
      fprintf(stderr, "test_fixed: %s\n", err);
      return 2;
    }
    static struct ual_decoder d;
    static struct ual_rec_result r;
    ual_decoder_init(&d);
    struct pcap_pkthdr *h;
    const u_char *p;
    uint64_t frame = 0;
    while (pcap_next_ex(pc, &h, &p) == 1) {
      char what[300];
      snprintf(what, sizeof what, "%s frame %llu", argv[a], (unsigned long long)++frame);
      ual_decode_record(&d, p, h->caplen, frame, &r);
      if (r.status == UAL_RS_OK || r.status == UAL_RS_RESERVED) seen[r.rec.h.kind]++;
      check(p, h->caplen, &r, what);
      variants(p, h->caplen, frame, what);
    }
    pcap_close(pc);
  }
  /* every row compared on the fast path: a kind's fixed rows on records of
   * that kind, the header rows on some record */
  for (size_t i = 0; i < n_fixed; i++) {
    enum ual_field_id id = fixed_ids[i];
    unsigned long long any = 0;
    for (unsigned k = 0; k < 256; k++) {
      const struct ual_kind *kind = ual_kind_of(k);
      any += compared[k][id];
      if (kind && seen[k] && ual_kind_fixed_row(kind, id) && !compared[k][id] && fails++ < 20)
        fprintf(stderr, "test_fixed: %s never compared on a %s record\n", ual_fields[id].abbrev, kind->name);
    }
    if (!any && fails++ < 20) fprintf(stderr, "test_fixed: %s never compared\n", ual_fields[id].abbrev);
  }
  if (!corrected && fails++ < 20) fprintf(stderr, "test_fixed: no record was FEC-corrected\n");
  for (size_t i = 0; i < n_fixed; i++) ual_filter_free(one[i].f);
  ual_filter_free(all.f);
  printf("test_fixed: %zu fixed rows, %llu records (%llu FEC-corrected), %d failures\n", n_fixed, records, corrected,
         fails);
  return fails ? 1 : 0;
}
