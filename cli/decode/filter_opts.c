/* -Y display filters and -T fields output, as tshark 4.0 does them with
 * the UALink plugin (same fields, same answers, same bytes). */
#include "dcli.h"
#include "filter_opts.h"
#include "input.h"

#include "ualink/core/filter.h"
#include "ualink/ualink/filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "ualink-decode"

struct dc_filter {
  struct ual_filter *y;        /* -Y */
  struct ual_filter *e;        /* -e fields */
  struct ual_filter_ualink st; /* the analyzer's results for the filter */
  bool have_first;
  uint64_t first_ts, prev_ts;
  bool header_done;
  struct ual_rec_result end;   /* an end-of-capture finding, with no record */
};

void dc_fopts_init(struct dc_fopts *fo) {
  memset(fo, 0, sizeof *fo);
  fo->separator = '\t';
  fo->occurrence = 'a';
  fo->aggregator = ',';
}

static int fusage(const char *fmt, const char *arg) {
  fprintf(stderr, PROG ": ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry '" PROG " --help' for more information.\n");
  return DC_EXIT_USAGE;
}

/* "/t", "/s" or one character, as tshark's -E separator and aggregator. */
static bool one_char(const char *v, char *out) {
  if (strcmp(v, "/t") == 0) *out = '\t';
  else if (strcmp(v, "/s") == 0) *out = ' ';
  else if (v[0] && !v[1]) *out = v[0];
  else return false;
  return true;
}

static int e_option(struct dc_fopts *fo, const char *arg) {
  const char *eq = strchr(arg, '=');
  if (!eq) return fusage("-E needs NAME=VALUE, not '%s'", arg);
  size_t n = (size_t)(eq - arg);
  const char *v = eq + 1;
  if (n == 6 && strncmp(arg, "header", 6) == 0 && (!strcmp(v, "y") || !strcmp(v, "n"))) fo->header = *v == 'y';
  else if (n == 9 && strncmp(arg, "separator", 9) == 0 && one_char(v, &fo->separator)) {}
  else if (n == 10 && strncmp(arg, "aggregator", 10) == 0 && one_char(v, &fo->aggregator)) {}
  else if (n == 10 && strncmp(arg, "occurrence", 10) == 0 && (!strcmp(v, "f") || !strcmp(v, "l") || !strcmp(v, "a")))
    fo->occurrence = *v;
  else if (n == 5 && strncmp(arg, "quote", 5) == 0 && (!strcmp(v, "d") || !strcmp(v, "s") || !strcmp(v, "n")))
    fo->quote = *v == 'd' ? '"' : *v == 's' ? '\'' : 0;
  else return fusage("invalid -E option '%s' (header=y|n, separator=/t|/s|C, occurrence=f|l|a, aggregator=C, quote=d|s|n)", arg);
  return -1;
}

/* The protocol of a filter name: the part before its first dot. */
static size_t proto_len(const char *abbrev) {
  const char *dot = strchr(abbrev, '.');
  return dot ? (size_t)(dot - abbrev) : strlen(abbrev);
}

/* -G fields: the fields as tshark lists them, each protocol's line where
 * the plugin registers it (before its first field). */
static void list_fields(void) {
  size_t n = ual_filter_field_count();
  char listed[4][16];
  size_t n_listed = 0;
  for (size_t id = 0; id < n; id++) {
    struct ual_filter_field f;
    ual_filter_field_get(id, &f);
    if (strncmp(f.abbrev, "frame", 5) == 0 || f.type == UAL_FT_PROTOCOL) continue;
    size_t pl = proto_len(f.abbrev);
    char proto[16];
    snprintf(proto, sizeof proto, "%.*s", (int)pl, f.abbrev);
    size_t k = 0;
    while (k < n_listed && strcmp(listed[k], proto) != 0) k++;
    struct ual_filter_field p;
    int pid = ual_filter_field_lookup(proto, strlen(proto));
    if (k == n_listed && n_listed < 4 && pid >= 0 && ual_filter_field_get((size_t)pid, &p)) {
      printf("P\t%s\t%s\n", p.name, p.abbrev);
      snprintf(listed[n_listed++], sizeof listed[0], "%s", proto);
    }
    char display[16] = "";
    if (f.type == UAL_FT_BOOLEAN) snprintf(display, sizeof display, "%u", 8u * f.bytes);
    else if (f.type == UAL_FT_UINT || f.type == UAL_FT_INT)
      snprintf(display, sizeof display, "%s", f.base == UAL_FB_HEX ? "BASE_HEX" : "BASE_DEC");
    printf("F\t%s\t%s\t%s\t%s\t%s\t0x%llx\t", f.name, f.abbrev, ual_ft_name(&f), proto, display,
           (unsigned long long)f.mask);
    if (f.section) printf("%s (%s)\n", f.name, f.section);
    else printf("%s\n", f.blurb ? f.blurb : "");
  }
}

int dc_fopts_arg(struct dc_fopts *fo, int opt, const char *arg) {
  switch (opt) {
  case 'Y':
    fo->filter = arg;
    return -1;
  case 'T':
    if (strcmp(arg, "fields") != 0) return fusage("-T supports only 'fields', not '%s'", arg);
    fo->fields = true;
    return -1;
  case 'e':
    if (fo->n_e == DC_MAX_E_FIELDS) return fusage("%s", "too many -e fields (1024 at most)");
    fo->e[fo->n_e++] = arg;
    return -1;
  case 'E':
    return e_option(fo, arg);
  case 'G':
    if (strcmp(arg, "fields") != 0) return fusage("-G supports only 'fields', not '%s'", arg);
    list_fields();
    return DC_EXIT_OK;
  }
  return -1;
}

int dc_filter_setup(struct dc_ctx *c) {
  const struct dc_fopts *fo = &c->o->fo;
  if (fo->fields && !fo->n_e) return fusage("%s", "-T fields needs at least one -e FIELD");
  if (fo->n_e && !fo->fields) return fusage("%s", "-e FIELD needs -T fields");
  if (!fo->filter && !fo->fields) return -1;
  struct dc_filter *f = calloc(1, sizeof *f);
  if (!f) {
    fprintf(stderr, PROG ": out of memory\n");
    return DC_EXIT_USAGE;
  }
  c->flt = f;
  struct ual_filter_error err;
  if (fo->filter && !(f->y = ual_filter_compile(fo->filter, &err))) {
    char buf[1024];
    ual_filter_error_text(fo->filter, &err, buf, sizeof buf);
    fprintf(stderr, PROG ": %s", buf);
    return DC_EXIT_USAGE;
  }
  if (fo->fields && !(f->e = ual_filter_fields(fo->e, fo->n_e, &err))) {
    fprintf(stderr, PROG ": Some fields aren't valid:\n\t%s\n", err.msg);
    return DC_EXIT_USAGE;
  }
  /* only a program that reads the analysis needs what replays released */
  if ((f->y && ual_filter_uses_state(f->y)) || (f->e && ual_filter_uses_state(f->e))) {
    c->ev.delivered = ual_filter_ualink_delivered;
    c->ev.ctx = &f->st;
  }
  return -1;
}

bool dc_filter_tl_bytes(const struct dc_ctx *c) {
  const struct dc_filter *f = c->flt;
  return f && ((f->y && ual_filter_ualink_tl_bytes(f->y)) || (f->e && ual_filter_ualink_tl_bytes(f->e)));
}

void dc_filter_free(struct dc_ctx *c) {
  if (!c->flt) return;
  ual_filter_free(c->flt->y);
  ual_filter_free(c->flt->e);
  free(c->flt);
  c->flt = NULL;
}

void dc_filter_begin(struct dc_ctx *c, uint64_t frame) {
  if (c->flt) ual_filter_ualink_begin(&c->flt->st, frame);
}

bool dc_filter_pass(struct dc_ctx *c, const uint8_t *rec, size_t len, uint64_t frame, uint64_t ts_ns,
                    uint32_t wire_len) {
  struct dc_filter *f = c->flt;
  if (!f) return true;
  if (!f->have_first) {
    f->have_first = true;
    f->first_ts = f->prev_ts = ts_ns;
  }
  f->st.an = c->o->stateless ? NULL : &c->an;
  f->st.ev = c->o->stateless ? NULL : &c->ev;
  const struct dc_input *in = c->in;
  bool udp = in && in->udp_lt >= 0 && in->udp_hdr;
  f->st.udp_hdr = udp ? in->udp_hdr : NULL;
  f->st.udp_hlen = udp ? in->udp_hlen : 0;
  f->st.udp_lost = udp ? in->udp_lost : 0;
  f->st.lost_mark = udp && in->udp_lost_mark;
  struct ual_filter_record fr = {
    rec, len, wire_len ? wire_len : (uint32_t)len, frame,
    (int64_t)(ts_ns - f->first_ts), (int64_t)(ts_ns - f->prev_ts), &c->res, &f->st,
  };
  f->prev_ts = ts_ns;
  bool pass = true;
  if (f->y) {
    ual_filter_collect(f->y, &fr);
    pass = ual_filter_match(f->y);
  }
  if (pass && f->e) ual_filter_collect(f->e, &fr);
  return pass;
}

bool dc_filter_pass_end(struct dc_ctx *c, const struct ual_finding *x) {
  struct dc_filter *f = c->flt;
  if (!f || !f->y) return true;
  /* the filter sees the finding alone: its rule and severity, no record fields */
  f->end.status = UAL_RS_OK;
  f->end.findings.n = 1;
  f->end.findings.dropped = 0;
  f->end.findings.v[0] = *x;
  struct ual_filter_record fr = { NULL, 0, 0, 0, 0, 0, &f->end, NULL };
  ual_filter_collect(f->y, &fr);
  return ual_filter_match(f->y);
}

void dc_fields_header(struct dc_ctx *c) {
  const struct dc_fopts *fo = &c->o->fo;
  if (!c->flt || !fo->fields || !fo->header || c->flt->header_done) return;
  c->flt->header_done = true;
  for (size_t i = 0; i < fo->n_e; i++) {
    if (i) dc_out_ch(&c->out, fo->separator);
    dc_out_str(&c->out, fo->e[i]);
  }
  dc_out_ch(&c->out, '\n');
}

void dc_fields_line(struct dc_ctx *c) {
  const struct dc_fopts *fo = &c->o->fo;
  const struct ual_filter *e = c->flt->e;
  size_t nv = ual_filter_nvalues(e);
  for (size_t s = 0; s < fo->n_e; s++) {
    if (s) dc_out_ch(&c->out, fo->separator);
    size_t count = 0, first = nv, last = nv;
    for (size_t i = 0; i < nv; i++)
      if (ual_filter_value(e, i)->slot == s) {
        if (!count++) first = i;
        last = i;
      }
    if (!count) continue;
    if (fo->quote) dc_out_ch(&c->out, fo->quote);
    bool any = false;
    for (size_t i = 0; i < nv; i++) {
      const struct ual_fvalue *v = ual_filter_value(e, i);
      if (v->slot != s) continue;
      if ((fo->occurrence == 'f' && i != first) || (fo->occurrence == 'l' && i != last)) continue;
      char buf[16384];   /* a byte field: a whole TLP payload in hex */
      ual_fvalue_format(v, buf, sizeof buf);
      if (any) dc_out_ch(&c->out, fo->aggregator);
      dc_out_str(&c->out, buf);
      any = true;
    }
    if (fo->quote) dc_out_ch(&c->out, fo->quote);
  }
  dc_out_ch(&c->out, '\n');
}
