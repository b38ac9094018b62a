/* Display filters (filter.h): lexer, parser into a small program, the
 * per-record view of field occurrences, and evaluation.
 *
 *   text --lex--> tokens --parse--> nodes (checked against field types,
 *   literals converted, regexes compiled) ; per record: collect the used
 *   fields' occurrences into the view, then evaluate the nodes.
 *
 * Everything is allocated by ual_filter_compile; collecting and evaluating
 * allocate nothing. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "ualink/core/filter.h"
#include "ualink/core/tree.h"
#include "kind.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* The field registry: frame fields, the field table, the fabrics' fields */

#define UAL_X_(f) extern const struct ual_filter_fabric f;
UAL_FABRIC_FILTERS(UAL_X_)
#undef UAL_X_

static const struct ual_filter_fabric *const fabrics[] = {
#define UAL_X_(f) &f,
  UAL_FABRIC_FILTERS(UAL_X_)
#undef UAL_X_
};
#define N_FABRICS (sizeof fabrics / sizeof fabrics[0])

size_t ual_filter_fabric_count(void) { return N_FABRICS; }

const struct ual_filter_fabric *ual_filter_fabric_at(size_t i) { return i < N_FABRICS ? fabrics[i] : NULL; }

size_t ual_filter_fabric_of(const char *abbrev) {
  for (size_t i = 1; i < N_FABRICS; i++) {
    const char *p = fabrics[i]->fields[0].abbrev;
    size_t n = strlen(p);
    if (strncmp(abbrev, p, n) == 0 && (abbrev[n] == '.' || !abbrev[n])) return i;
  }
  return 0;
}

enum { FF_FRAME, FF_NUMBER, FF_LEN, FF_TIME_REL, FF_TIME_DELTA, FF_FRAME_COUNT };

static const struct ual_filter_field frame_fields[FF_FRAME_COUNT] = {
  { "Frame", "frame", UAL_FT_PROTOCOL, 0, UAL_FB_NONE, 0, NULL, NULL, NULL },
  { "Frame Number", "frame.number", UAL_FT_FRAMENUM, 4, UAL_FB_NONE, 0, NULL, NULL, NULL },
  { "Frame length on the wire", "frame.len", UAL_FT_UINT, 4, UAL_FB_DEC, 0, NULL, NULL, NULL },
  { "Time since reference or first frame", "frame.time_relative", UAL_FT_RELTIME, 0, UAL_FB_NONE, 0, NULL, NULL, NULL },
  { "Time delta from previous captured frame", "frame.time_delta", UAL_FT_RELTIME, 0, UAL_FB_NONE, 0, NULL, NULL, NULL },
};

#define TABLE_FIRST FF_FRAME_COUNT
#define FABRIC_FIRST (TABLE_FIRST + UAL_F_COUNT)

size_t ual_filter_field_count(void) {
  size_t n = FABRIC_FIRST;
  for (size_t i = 0; i < N_FABRICS; i++) n += fabrics[i]->n_fields;
  return n;
}

/* The Wireshark type of a field-table row: what the plugin registers. */
static void table_field(enum ual_field_id id, struct ual_filter_field *f) {
  const struct ual_field *fd = &ual_fields[id];
  unsigned bytes = fd->size ? fd->size : (fd->width + 7u) / 8u;
  bool masked = ual_field_bitmask(id);
  memset(f, 0, sizeof *f);
  f->name = fd->name;
  f->abbrev = fd->abbrev;
  f->mask = masked ? ual_field_mask(id) : 0;
  f->section = fd->section;
  if (fd->flags & UAL_FF_BOOL) {
    f->type = UAL_FT_BOOLEAN;
    f->bytes = masked ? fd->size : 0;
    f->base = UAL_FB_NONE;
    return;
  }
  if (fd->flags & UAL_FF_FRAME) {
    f->type = UAL_FT_FRAMENUM;
    f->bytes = 4;
    f->base = UAL_FB_NONE;
    return;
  }
  if (fd->flags & UAL_FF_BYTES) {
    f->type = UAL_FT_BYTES;
    f->bytes = 0;
    f->base = UAL_FB_NONE;
    return;
  }
  f->type = UAL_FT_UINT;
  f->bytes = (uint8_t)(bytes > 8 ? 8 : bytes);
  f->base = (fd->flags & UAL_FF_HEX) ? UAL_FB_HEX : UAL_FB_DEC;
  if (f->bytes <= 4) f->vals = fd->vals;   /* Wireshark has no 64-bit value_string here */
}

bool ual_filter_field_get(size_t id, struct ual_filter_field *f) {
  if (id < FF_FRAME_COUNT) {
    *f = frame_fields[id];
    return true;
  }
  if (id < FABRIC_FIRST) {
    table_field((enum ual_field_id)(id - TABLE_FIRST), f);
    return true;
  }
  id -= FABRIC_FIRST;
  for (size_t i = 0; i < N_FABRICS; i++) {
    if (id < fabrics[i]->n_fields) {
      *f = fabrics[i]->fields[id];
      return true;
    }
    id -= fabrics[i]->n_fields;
  }
  return false;
}

int ual_filter_field_lookup(const char *abbrev, size_t n) {
  size_t total = ual_filter_field_count();
  for (size_t id = 0; id < total; id++) {
    struct ual_filter_field f;
    ual_filter_field_get(id, &f);
    if (strlen(f.abbrev) == n && memcmp(f.abbrev, abbrev, n) == 0) return (int)id;
  }
  return -1;
}

/* Wireshark's name and description of each type; integers by size. */
static const struct { const char *name, *desc; } ft_names[] = {
  [UAL_FT_NONE] = { "FT_NONE", "Label" },
  [UAL_FT_PROTOCOL] = { "FT_PROTOCOL", "Protocol" },
  [UAL_FT_BOOLEAN] = { "FT_BOOLEAN", "Boolean" },
  [UAL_FT_FRAMENUM] = { "FT_FRAMENUM", "Frame number" },
  [UAL_FT_BYTES] = { "FT_BYTES", "Byte sequence" },
  [UAL_FT_STRING] = { "FT_STRING", "Character string" },
  [UAL_FT_RELTIME] = { "FT_RELATIVE_TIME", "Time offset" },
};
static const char *const int_names[2][8] = {
  { "FT_UINT8", "FT_UINT16", "FT_UINT24", "FT_UINT32", "FT_UINT40", "FT_UINT48", "FT_UINT56", "FT_UINT64" },
  { "FT_INT8", "FT_INT16", "FT_INT24", "FT_INT32", "FT_INT40", "FT_INT48", "FT_INT56", "FT_INT64" },
};
static const char *const int_descs[2][8] = {
  { "Unsigned integer (1 byte)", "Unsigned integer (2 bytes)", "Unsigned integer (3 bytes)",
    "Unsigned integer (4 bytes)", "Unsigned integer (5 bytes)", "Unsigned integer (6 bytes)",
    "Unsigned integer (7 bytes)", "Unsigned integer (8 bytes)" },
  { "Signed integer (1 byte)", "Signed integer (2 bytes)", "Signed integer (3 bytes)",
    "Signed integer (4 bytes)", "Signed integer (5 bytes)", "Signed integer (6 bytes)",
    "Signed integer (7 bytes)", "Signed integer (8 bytes)" },
};

static bool is_int(const struct ual_filter_field *f) { return f->type == UAL_FT_UINT || f->type == UAL_FT_INT; }
static unsigned int_index(const struct ual_filter_field *f) { return (f->bytes ? f->bytes : 1u) - 1u; }

const char *ual_ft_name(const struct ual_filter_field *f) {
  return is_int(f) ? int_names[f->type == UAL_FT_INT][int_index(f)] : ft_names[f->type].name;
}

const char *ual_ft_desc(const struct ual_filter_field *f) {
  return is_int(f) ? int_descs[f->type == UAL_FT_INT][int_index(f)] : ft_names[f->type].desc;
}

/* ------------------------------------------------------------------ */
/* Lexer */

enum tk {
  TK_END, TK_LPAREN, TK_RPAREN, TK_LBRACE, TK_RBRACE, TK_COMMA, TK_LBRACKET,
  TK_AND, TK_OR, TK_NOT, TK_IN, TK_REL, TK_AMP, TK_MINUS, TK_DOTDOT, TK_WORD, TK_STRING, TK_CHAR, TK_BAD,
};

enum rel { R_EQ, R_NE, R_ALL_EQ, R_ANY_NE, R_GT, R_GE, R_LT, R_LE, R_CONTAINS, R_MATCHES };

struct token {
  enum tk t;
  int rel;           /* TK_REL */
  int pos, len;      /* span in the text */
};

struct lexer {
  const char *s;
  int n, pos;
  struct token cur;
};

static bool word_char(int c) { return isalnum(c) || c == '_' || c == '.' || c == '-'; }

static bool hex2(const char *s) { return isxdigit((unsigned char)s[0]) && isxdigit((unsigned char)s[1]); }

/* The length of Wireshark 4.0's byte string token xx:xx[:xx...] at s, or
 * of an IPv6-like run of hex digits, ':' and '.' with "::" (0: none). */
static int colon_bytes(const char *s, int n) {
  int r = 0;
  while (r < n && (isxdigit((unsigned char)s[r]) || s[r] == ':' || s[r] == '.')) r++;
  for (int i = 0; i + 1 < r; i++)
    if (s[i] == ':' && s[i + 1] == ':') return r;
  if (n < 5 || !hex2(s)) return 0;
  int k = 2;
  while (k + 3 <= n && s[k] == ':' && hex2(s + k + 1)) k += 3;
  return k > 2 ? k : 0;
}

static const struct { const char *w; enum tk t; int rel; } keywords[] = {
  { "and", TK_AND, 0 }, { "or", TK_OR, 0 }, { "not", TK_NOT, 0 }, { "in", TK_IN, 0 },
  { "eq", TK_REL, R_EQ }, { "any_eq", TK_REL, R_EQ }, { "ne", TK_REL, R_NE }, { "all_ne", TK_REL, R_NE },
  { "all_eq", TK_REL, R_ALL_EQ }, { "any_ne", TK_REL, R_ANY_NE }, { "gt", TK_REL, R_GT },
  { "ge", TK_REL, R_GE }, { "lt", TK_REL, R_LT }, { "le", TK_REL, R_LE },
  { "contains", TK_REL, R_CONTAINS }, { "matches", TK_REL, R_MATCHES }, { "bitand", TK_AMP, 0 },
};

static const struct { const char *s; enum tk t; int rel; } symbols[] = {
  /* longest first */
  { "===", TK_REL, R_ALL_EQ }, { "!==", TK_REL, R_ANY_NE },
  { "==", TK_REL, R_EQ }, { "!=", TK_REL, R_NE }, { "~=", TK_REL, R_ANY_NE }, { ">=", TK_REL, R_GE },
  { "<=", TK_REL, R_LE }, { "&&", TK_AND, 0 }, { "||", TK_OR, 0 },
  { ">", TK_REL, R_GT }, { "<", TK_REL, R_LT }, { "~", TK_REL, R_MATCHES }, { "!", TK_NOT, 0 },
  { "&", TK_AMP, 0 }, { "(", TK_LPAREN, 0 }, { ")", TK_RPAREN, 0 }, { "{", TK_LBRACE, 0 },
  { "}", TK_RBRACE, 0 }, { ",", TK_COMMA, 0 }, { "[", TK_LBRACKET, 0 },
};

static void lex_next(struct lexer *lx) {
  const char *s = lx->s;
  while (lx->pos < lx->n && isspace((unsigned char)s[lx->pos])) lx->pos++;
  struct token *t = &lx->cur;
  t->pos = lx->pos;
  t->rel = 0;
  if (lx->pos >= lx->n) {
    t->t = TK_END;
    t->len = 0;
    return;
  }
  char c = s[lx->pos];
  if (c == '"') {
    int p = lx->pos + 1;
    while (p < lx->n && s[p] != '"') p += (s[p] == '\\' && p + 1 < lx->n) ? 2 : 1;
    t->t = p < lx->n ? TK_STRING : TK_BAD;
    t->len = (p < lx->n ? p + 1 : lx->n) - lx->pos;
    lx->pos += t->len;
    return;
  }
  if (c == '\'') {
    int p = lx->pos + 1;
    while (p < lx->n && s[p] != '\'') p += (s[p] == '\\' && p + 1 < lx->n) ? 2 : 1;
    t->t = p < lx->n ? TK_CHAR : TK_BAD;
    t->len = (p < lx->n ? p + 1 : lx->n) - lx->pos;
    lx->pos += t->len;
    return;
  }
  /* As Wireshark 4.0's scanner: "-" is always the minus operator, ".." a
   * token of its own, and ':' joins only pairs of hex digits (a word
   * stops before it; ":1" after "1" is a token of its own). */
  if (c == '-' || (c == '.' && lx->pos + 1 < lx->n && s[lx->pos + 1] == '.')) {
    t->t = c == '-' ? TK_MINUS : TK_DOTDOT;
    t->len = c == '-' ? 1 : 2;
    lx->pos += t->len;
    return;
  }
  if (c == ':' && lx->pos + 1 < lx->n && s[lx->pos + 1] == ':') {
    t->t = TK_WORD;
    t->len = colon_bytes(s + lx->pos, lx->n - lx->pos);
    lx->pos += t->len;
    return;
  }
  if (c == ':') {
    int p = lx->pos + 1, k = colon_bytes(s + p, lx->n - p);
    if (!k)
      while (p + k < lx->n && isxdigit((unsigned char)s[p + k])) k++;
    t->t = k ? TK_WORD : TK_BAD;
    t->len = k + 1;
    lx->pos += t->len;
    return;
  }
  if (word_char((unsigned char)c)) {
    int p = lx->pos;
    while (p < lx->n && word_char((unsigned char)s[p]) && !(s[p] == '.' && p + 1 < lx->n && s[p + 1] == '.')) p++;
    int k = colon_bytes(s + lx->pos, lx->n - lx->pos);
    /* "bb:dd.f", a bus/device/function ID: one word (Wireshark 4.0 splits it at the '.') */
    if (k == 5 && lx->pos + 7 <= lx->n && s[lx->pos + 5] == '.' && isdigit((unsigned char)s[lx->pos + 6]) &&
        (lx->pos + 7 == lx->n || !word_char((unsigned char)s[lx->pos + 7])))
      k = 7;
    if (lx->pos + k > p) p = lx->pos + k;
    t->t = TK_WORD;
    t->len = p - lx->pos;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
      if ((int)strlen(keywords[i].w) == t->len && memcmp(keywords[i].w, s + lx->pos, (size_t)t->len) == 0) {
        t->t = keywords[i].t;
        t->rel = keywords[i].rel;
      }
    lx->pos = p;
    return;
  }
  for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
    size_t k = strlen(symbols[i].s);
    if ((size_t)(lx->n - lx->pos) >= k && memcmp(symbols[i].s, s + lx->pos, k) == 0) {
      t->t = symbols[i].t;
      t->rel = symbols[i].rel;
      t->len = (int)k;
      lx->pos += (int)k;
      return;
    }
  }
  t->t = TK_BAD;
  t->len = 1;
  lx->pos++;
}

/* ------------------------------------------------------------------ */
/* Program */

enum vclass { VC_NUM, VC_BYTES, VC_STRING, VC_NONE };

struct lit {
  enum vclass vc;
  bool bad;              /* an unsigned field's negated value: Wireshark 4.0 relates it to nothing */
  bool is_signed;
  uint64_t u;
  int64_t s;
  uint8_t *bytes;        /* VC_BYTES, VC_STRING */
  size_t len;
  bool range;            /* set element lo..hi: hi in *hi */
  struct lit *hi;
};

struct range { int32_t start; int32_t len; bool to_end; };  /* len < 0: to the end */

/* One side of a comparison: a field (sliced or masked) or a literal. */
struct operand {
  bool is_field;
  int field, slot;
  struct ual_filter_field fd;
  struct range *slice;   /* NULL: none */
  size_t n_slice;
  bool masked;
  uint64_t mask;         /* a number's mask */
  const uint8_t *mbytes; /* a byte sequence's mask: the value is cut to its length */
  size_t mlen;
  struct lit lit;
  int pos, len;          /* its text, for errors */
};

enum nk { N_TRUE, N_EXISTS, N_NOT, N_AND, N_OR, N_CMP, N_IN, N_TEST };

struct node {
  enum nk k;
  int rel;
  int a, b;                 /* children */
  struct operand l, r;
  struct lit *set;          /* N_IN */
  size_t n_set;
  pcre2_code *re;
  pcre2_match_data *md;
};

/* A wanted field-table row that a record shows at a fixed place: read
 * straight from there (kind.h's fixed rows, the record header) instead of
 * walking the record's tree. */
struct fixed_use {
  int slot;
  enum ual_field_id id;
  const struct ual_fixed_row *row;   /* NULL: a record header row */
};

/* The wanted body rows of one record kind, in the order its tree shows them. */
struct kind_plan {
  bool walk;                /* some wanted body row is no fixed row of the kind */
  struct fixed_use *u;
  size_t n;
};

struct ual_fview {
  struct ual_filter *f;
  uint16_t *slot_of;        /* per field id: slot + 1; 0 = not wanted */
  uint16_t *wanted_before;  /* per field id: how many ids below it are wanted */
  uint8_t scopes[UAL_SC_COUNT];   /* scopes of the wanted field-table rows */
  uint8_t fields[UAL_F_COUNT];    /* the wanted field-table rows */
  bool table;               /* some field-table row is wanted */
  struct fixed_use *hdr;    /* the wanted record header rows, in tree order */
  size_t n_hdr;
  bool body;                /* some other field-table row is wanted */
  struct kind_plan *plan;   /* per record kind code */
  bool fabric[N_FABRICS];   /* some field of the fabric is wanted */
  size_t fabric_base[N_FABRICS];  /* field id of each fabric's first field */
  const uint8_t *rec;       /* the record being collected: UAL_FF_BYTES rows read it */
  size_t rec_len;
  struct ual_fvalue *v;
  size_t n, cap;
  char *text;
  size_t tn, tcap;
};

struct ual_filter {
  struct node *nodes;
  size_t n_nodes, cap_nodes;
  int root;                 /* -1: matches everything */
  int *slot_field;          /* slot -> field id */
  size_t n_slots;
  size_t n_fields;
  bool uses_state;
  struct ual_fview view;
  /* compile-time scratch */
  void **allocs;
  size_t n_allocs, cap_allocs;
};

/* ---- compile-time allocation: everything is freed with the filter ---- */

static void *falloc(struct ual_filter *f, size_t n) {
  if (f->n_allocs == f->cap_allocs) {
    size_t cap = f->cap_allocs ? 2 * f->cap_allocs : 16;
    void **a = realloc(f->allocs, cap * sizeof *a);
    if (!a) return NULL;
    f->allocs = a;
    f->cap_allocs = cap;
  }
  void *p = calloc(1, n ? n : 1);
  if (p) f->allocs[f->n_allocs++] = p;
  return p;
}

static void want_scope(struct ual_filter *f, int field) {
  size_t base = FABRIC_FIRST;
  for (size_t i = 0; i < N_FABRICS; i++) {
    if ((size_t)field >= base && (size_t)field < base + fabrics[i]->n_fields) f->view.fabric[i] = true;
    base += fabrics[i]->n_fields;
  }
  if (field < TABLE_FIRST || field >= FABRIC_FIRST) return;
  f->view.scopes[ual_fields[field - TABLE_FIRST].scope] = 1;
  f->view.fields[field - TABLE_FIRST] = 1;
  f->view.table = true;
}

static int slot_for(struct ual_filter *f, int field) {
  uint16_t s = f->view.slot_of[field];
  if (s) return s - 1;
  want_scope(f, field);
  f->slot_field[f->n_slots] = field;
  f->view.slot_of[field] = (uint16_t)(++f->n_slots);
  return (int)f->n_slots - 1;
}

/* ---- parser ---- */

/* A syntax error stops the parser (perr); a semantic one (serr) is kept
 * while parsing goes on, so that a later syntax error is reported instead,
 * as Wireshark checks types only once the whole filter has parsed. */
struct parser {
  struct lexer lx;
  struct ual_filter *f;
  struct ual_filter_error *err;
  bool failed;
  bool sem;
  struct ual_filter_error sem_err;
};

static void set_err(struct ual_filter_error *e, int pos, int len, const char *fmt, va_list ap) {
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  e->pos = pos;
  e->len = len;
}

#if defined(__GNUC__)
#define UAL_PRINTF_ __attribute__((format(printf, 4, 5)))
#else
#define UAL_PRINTF_
#endif

static UAL_PRINTF_ void perr(struct parser *p, int pos, int len, const char *fmt, ...) {
  if (p->failed) return;
  p->failed = true;
  va_list ap;
  va_start(ap, fmt);
  set_err(p->err, pos, len, fmt, ap);
  va_end(ap);
}

static UAL_PRINTF_ void serr(struct parser *p, int pos, int len, const char *fmt, ...) {
  if (p->sem) return;
  p->sem = true;
  va_list ap;
  va_start(ap, fmt);
  set_err(&p->sem_err, pos, len, fmt, ap);
  va_end(ap);
}

static void unexpected(struct parser *p) {
  const struct token *t = &p->lx.cur;
  if (t->t == TK_END) perr(p, -1, 0, "Unexpected end of filter expression.");
  else perr(p, t->pos, t->len, "\"%.*s\" was unexpected in this context.", t->len, p->lx.s + t->pos);
}

static int new_node(struct parser *p, enum nk k) {
  struct ual_filter *f = p->f;
  if (f->n_nodes == f->cap_nodes) {
    size_t cap = f->cap_nodes ? 2 * f->cap_nodes : 16;
    struct node *n = realloc(f->nodes, cap * sizeof *n);
    if (!n) {
      perr(p, -1, 0, "Out of memory.");
      return -1;
    }
    f->nodes = n;
    f->cap_nodes = cap;
  }
  struct node *n = &f->nodes[f->n_nodes];
  memset(n, 0, sizeof *n);
  n->k = k;
  n->a = n->b = -1;
  return (int)f->n_nodes++;
}

/* Unescapes a quoted string token into allocated bytes. */
static bool unquote(struct parser *p, int pos, int len, uint8_t **out, size_t *n) {
  const char *s = p->lx.s + pos + 1;
  int m = len - 2;
  uint8_t *b = falloc(p->f, (size_t)m + 1);
  if (!b) {
    perr(p, -1, 0, "Out of memory.");
    return false;
  }
  size_t k = 0;
  for (int i = 0; i < m; i++) {
    if (s[i] != '\\') {
      b[k++] = (uint8_t)s[i];
      continue;
    }
    int e = pos + 1 + i;
    char c = s[++i];
    switch (c) {
    case '\\': case '"': case '\'': b[k++] = (uint8_t)c; break;
    case 'a': b[k++] = '\a'; break;
    case 'b': b[k++] = '\b'; break;
    case 'f': b[k++] = '\f'; break;
    case 'n': b[k++] = '\n'; break;
    case 'r': b[k++] = '\r'; break;
    case 't': b[k++] = '\t'; break;
    case 'v': b[k++] = '\v'; break;
    case 'x':
      if (i + 2 < m + 1 && isxdigit((unsigned char)s[i + 1]) && isxdigit((unsigned char)s[i + 2])) {
        char h[3] = { s[i + 1], s[i + 2], 0 };
        b[k++] = (uint8_t)strtoul(h, NULL, 16);
        i += 2;
        break;
      }
      perr(p, e, 2, "\\%c is not a valid character escape sequence", c);
      return false;
    default:
      if (c >= '0' && c <= '7') {
        unsigned v = 0, d = 0;
        while (d < 3 && i < m && s[i] >= '0' && s[i] <= '7') {
          v = v * 8 + (unsigned)(s[i] - '0');
          i++;
          d++;
        }
        i--;
        b[k++] = (uint8_t)v;
        break;
      }
      perr(p, e, 2, "\\%c is not a valid character escape sequence", c);
      return false;
    }
  }
  *out = b;
  *n = k;
  return true;
}

static bool is_seq(const struct ual_filter_field *fd) {
  return fd->type == UAL_FT_BYTES || fd->type == UAL_FT_PROTOCOL || fd->type == UAL_FT_STRING;
}

/* The class of the values an operand yields. */
static enum vclass opd_class(const struct operand *o) {
  if (o->slice) return VC_BYTES;
  switch ((enum ual_ft)o->fd.type) {
  case UAL_FT_BYTES: case UAL_FT_PROTOCOL: return VC_BYTES;
  case UAL_FT_STRING: return VC_STRING;
  case UAL_FT_NONE: return VC_NONE;
  default: return VC_NUM;
  }
}

static uint64_t uint_max(const struct ual_filter_field *fd) {
  unsigned bits = fd->type == UAL_FT_FRAMENUM ? 32 : 8u * (fd->bytes ? fd->bytes : 1);
  return bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
}

static bool is_byte_sep(char c) { return c == ':' || c == '-' || c == '.'; }

/* A byte string as Wireshark 4.0 reads one (hex_str_to_bytes without
 * forced separators): pairs or quads of hex digits, a lone digit before a
 * separator or at the end, separators ':' '-' '.'; "0xNN" is one byte. */
static bool parse_bytes(const char *s, int n, struct lit *l, struct parser *p) {
  if (n > 0 && s[0] == ':') {   /* the token ":xx:xx" */
    s++;
    n--;
  }
  if (n == 4 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s += 2;
    n = 2;
  }
  uint8_t *b = falloc(p->f, (size_t)n + 1);
  if (!b) return false;
  size_t k = 0;
  int i = 0;
  while (i < n) {
    int d = 0;   /* hex digits in a row, up to 4 */
    while (d < 4 && i + d < n && isxdigit((unsigned char)s[i + d])) d++;
    if (d == 3) d = 2;
    if (d == 0 || (d == 1 && i + 1 < n && !is_byte_sep(s[i + 1]))) return false;
    for (int j = 0; j < d; j += 2) {
      char h[3] = { s[i + j], d - j > 1 ? s[i + j + 1] : 0, 0 };
      b[k++] = (uint8_t)strtoul(h, NULL, 16);
    }
    i += d;
    if (i < n && is_byte_sep(s[i])) i++;
  }
  l->vc = VC_BYTES;
  l->bytes = b;
  l->len = k;
  return true;
}

static bool parse_time(const char *s, int n, int64_t *ns) {
  int i = 0;
  if (i >= n) return false;
  int64_t sec = 0, frac = 0;
  int digits = 0, fd = 0;
  while (i < n && isdigit((unsigned char)s[i])) { sec = sec * 10 + (s[i++] - '0'); digits++; }
  if (i < n && s[i] == '.') {
    i++;
    while (i < n && isdigit((unsigned char)s[i])) {
      if (fd < 9) { frac = frac * 10 + (s[i] - '0'); fd++; }
      i++;
      digits++;
    }
  }
  if (i != n || !digits) return false;
  while (fd < 9) { frac *= 10; fd++; }
  *ns = sec * 1000000000 + frac;
  return true;
}

/* A decimal, hex or octal number: 1, 0 not a number, -1 more than 64 bits. */
static int parse_int(const char *s, int n, uint64_t *v) {
  char buf[72];
  if (n <= 0 || n >= (int)sizeof buf || !isdigit((unsigned char)s[0])) return 0;
  memcpy(buf, s, (size_t)n);
  buf[n] = 0;
  char *end;
  errno = 0;
  unsigned long long u = strtoull(buf, &end, 0);
  if (*end) return 0;
  if (errno) return -1;
  *v = u;
  return 1;
}

static bool same_nocase(const char *a, const char *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i])) return false;
  return true;
}

/* Names of a value list, case-insensitive as Wireshark's. */
static bool lookup_value(const struct ual_value_name *vals, const char *s, size_t n, uint64_t *v) {
  if (!vals) return false;
  for (size_t i = 0; vals[i].name; i++)
    if (strlen(vals[i].name) == n && same_nocase(vals[i].name, s, n)) {
      *v = vals[i].value;
      return true;
    }
  return false;
}

/* The largest value of an integer field: a signed one's positive range. */
static uint64_t int_max(const struct ual_filter_field *fd) {
  if (fd->type != UAL_FT_INT) return uint_max(fd);
  return (1ULL << (8u * (fd->bytes ? fd->bytes : 1) - 1)) - 1;
}

/* Converts the literal token at [pos, pos+len) to the value class of the
 * field operand o (what Wireshark's semantic check does). An operand of
 * arithmetic (the right side of '&', the value after a unary minus) is a
 * plain number: no value names, no strings or character constants.
 * False when it cannot: a syntax error stops the parser, a semantic one is
 * kept. */
static bool convert_literal(struct parser *p, const struct operand *o, enum tk t, int pos, int len, struct lit *l,
                            bool arith) {
  const char *s = p->lx.s + pos;
  enum vclass vc = opd_class(o);
  const struct ual_filter_field *fd = &o->fd;
  memset(l, 0, sizeof *l);
  uint8_t *qs = NULL;
  size_t qn = 0;
  if (t == TK_STRING && !unquote(p, pos, len, &qs, &qn)) return false;
  uint8_t *cb = NULL;
  size_t cn = 0;
  if (t == TK_CHAR) {
    if (!unquote(p, pos, len, &cb, &cn)) return false;
    if (cn > 1) perr(p, pos, len, "%.*s is too long to be a valid character constant.", len, s);
    if (cn == 0) perr(p, pos, len, "Empty character constant.");
    if (cn != 1) return false;
  }
  if (arith && t != TK_WORD) {
    serr(p, pos, len, "%.*s is not a valid arithmetic operand.", len, s);
    return false;
  }
  if (t == TK_CHAR) {
    if (vc == VC_NUM) {
      l->vc = VC_NUM;
      l->u = cb[0];
      l->s = cb[0];
      return true;
    }
    l->vc = vc;
    l->bytes = cb;
    l->len = 1;
    return true;
  }
  if (vc == VC_NONE) {
    serr(p, o->pos, o->len, "%s (type=%s) cannot participate in comparison.", fd->abbrev, ual_ft_desc(fd));
    return false;
  }
  if (vc == VC_STRING) {
    l->vc = VC_STRING;
    if (t == TK_STRING) {
      l->bytes = qs;
      l->len = qn;
    } else {
      l->bytes = falloc(p->f, (size_t)len + 1);
      if (!l->bytes) return false;
      memcpy(l->bytes, s, (size_t)len);
      l->len = (size_t)len;
    }
    return true;
  }
  if (vc == VC_BYTES) {
    if (t == TK_STRING) {
      l->vc = VC_BYTES;
      l->bytes = qs;
      l->len = qn;
      return true;
    }
    if (parse_bytes(s, len, l, p)) return true;
    serr(p, pos, len, "\"%.*s\" is not a valid byte string.", len, s);
    return false;
  }
  if (fd->type == UAL_FT_RELTIME) {
    int64_t ns;
    if (t == TK_WORD && parse_time(s, len, &ns)) {
      l->vc = VC_NUM;
      l->is_signed = true;
      l->s = ns;
      l->u = (uint64_t)ns;
      return true;
    }
    if (t == TK_STRING)
      serr(p, pos, len, "%s cannot be converted from a string (\"%.*s\").", ual_ft_desc(fd), (int)qn, (const char *)qs);
    else serr(p, pos, len, "\"%.*s\" is not a valid time.", len, s);
    return false;
  }
  /* an ID field also takes its bus:device.function form, as it is shown */
  bool bdf = o->is_field && o->field >= TABLE_FIRST && o->field < FABRIC_FIRST &&
             (ual_fields[o->field - TABLE_FIRST].flags & UAL_FF_BDF);
  if (bdf && !arith) {
    long id = t == TK_STRING ? ual_field_bdf_parse((const char *)qs, qn) : ual_field_bdf_parse(s, (size_t)len);
    if (id >= 0) {
      l->vc = VC_NUM;
      l->u = (uint64_t)id;
      l->s = id;
      return true;
    }
  }
  /* numbers: a number that does not fit is looked up among the value
   * names, as Wireshark tries them before giving up */
  uint64_t v;
  int r = t == TK_WORD ? parse_int(s, len, &v) : 0;
  if (r > 0 && fd->type == UAL_FT_BOOLEAN) v = v != 0;
  if (r > 0 && v <= int_max(fd)) {
    l->vc = VC_NUM;
    l->u = v;
    l->s = (int64_t)v;
    l->is_signed = fd->type == UAL_FT_INT;
    return true;
  }
  if (r != 0 && (arith || !fd->vals)) {
    if (r < 0) serr(p, pos, len, "\"%.*s\" causes an integer overflow.", len, s);
    else serr(p, pos, len, "\"%.*s\" too big for this field, maximum %" PRIu64 ".", len, s, int_max(fd));
    return false;
  }
  if (arith) {
    serr(p, pos, len, "\"%.*s\" is not a valid number.", len, s);
    return false;
  }
  const char *name = t == TK_STRING ? (const char *)qs : s;
  size_t nn = t == TK_STRING ? qn : (size_t)len;
  if (fd->type == UAL_FT_BOOLEAN) {
    if ((nn == 4 && same_nocase(name, "true", 4)) || (nn == 5 && same_nocase(name, "false", 5))) {
      l->vc = VC_NUM;
      l->u = nn == 4;
      return true;
    }
    serr(p, pos, len, "\"%.*s\" cannot be found among the possible values for %s.", (int)nn, name, fd->abbrev);
    return false;
  }
  if (lookup_value(fd->vals, name, nn, &v)) {
    l->vc = VC_NUM;
    l->u = v;
    l->s = (int64_t)v;
    return true;
  }
  if (fd->vals)
    serr(p, pos, len, "\"%.*s\" cannot be found among the possible values for %s.", (int)nn, name, fd->abbrev);
  else if (t == TK_STRING)
    serr(p, pos, len, "%s cannot be converted from a string (\"%.*s\").", ual_ft_desc(fd), (int)qn, (const char *)qs);
  else serr(p, pos, len, "\"%.*s\" is not a valid number.", len, s);
  return false;
}

/* "[i:j]", "[i-j]", "[i]", "[:j]", "[i:]", comma-separated. */
static bool parse_slice(struct parser *p, struct operand *o) {
  const char *s = p->lx.s;
  int start = p->lx.pos;   /* after '[' */
  int end = start;
  while (end < p->lx.n && s[end] != ']') end++;
  if (end >= p->lx.n) {
    perr(p, p->lx.n, 0, "The right bracket was missing from a slice.");
    return false;
  }
  size_t n = 1;
  for (int i = start; i < end; i++) n += s[i] == ',';
  o->slice = falloc(p->f, n * sizeof *o->slice);
  if (!o->slice) return false;
  int i = start;
  while (i <= end) {
    int e = i;
    while (e < end && s[e] != ',') e++;
    char buf[48];
    int m = e - i;
    while (m > 0 && isspace((unsigned char)s[i])) { i++; m--; }
    while (m > 0 && isspace((unsigned char)s[i + m - 1])) m--;
    if (m <= 0 || m >= (int)sizeof buf) {
      perr(p, i, m > 0 ? m : 1, "\"%.*s\" is not a valid range.", m > 0 ? m : 0, s + i);
      return false;
    }
    memcpy(buf, s + i, (size_t)m);
    buf[m] = 0;
    struct range *r = &o->slice[o->n_slice++];
    char *q = buf, *x;
    long a = 0, b = 0;
    bool ok = true;
    if (*q == ':') {
      a = 0;
      b = strtol(q + 1, &x, 10);
      ok = x != q + 1 && !*x && b > 0;
      r->len = (int32_t)b;
    } else {
      a = strtol(q, &x, 10);
      ok = x != q;
      if (ok && *x == ':') {
        q = x + 1;
        if (!*q) r->len = -1;
        else {
          b = strtol(q, &x, 10);
          ok = x != q && !*x && b > 0;
          r->len = (int32_t)b;
        }
      } else if (ok && *x == '-') {
        q = x + 1;
        b = strtol(q, &x, 10);
        ok = x != q && !*x && ((a >= 0 && b >= a) || (a < 0 && b < 0 && b >= a));
        r->len = (int32_t)(b - a + 1);
      } else {
        ok = ok && !*x;
        r->len = 1;
      }
    }
    if (!ok) {
      perr(p, i, m, "\"%.*s\" is not a valid range.", m, s + i);
      return false;
    }
    r->start = (int32_t)a;
    i = e + 1;
  }
  if (!is_seq(&o->fd))
    serr(p, o->pos, o->len, "\"%s\" is a %s and cannot be sliced into a sequence of bytes.", o->fd.abbrev,
         ual_ft_desc(&o->fd));
  p->lx.pos = end + 1;
  lex_next(&p->lx);
  return true;
}

static bool parse_field(struct parser *p, struct operand *o) {
  const struct token *t = &p->lx.cur;
  int id = ual_filter_field_lookup(p->lx.s + t->pos, (size_t)t->len);
  if (id < 0) return false;
  memset(o, 0, sizeof *o);
  o->is_field = true;
  o->field = id;
  o->slot = slot_for(p->f, id);
  ual_filter_field_get((size_t)id, &o->fd);
  o->pos = t->pos;
  o->len = t->len;
  if (id >= FABRIC_FIRST) p->f->uses_state = true;
  if (p->lx.pos < p->lx.n && p->lx.s[p->lx.pos] == '[') {
    p->lx.pos++;
    return parse_slice(p, o);
  }
  lex_next(&p->lx);
  return true;
}

static const char *rel_text(int rel) {
  static const char *const r[] = { "==", "!=", "===", "~=", ">", ">=", "<", "<=", "contains", "matches" };
  return r[rel];
}

static bool literal_token(enum tk t) { return t == TK_WORD || t == TK_STRING || t == TK_CHAR; }

static void bad_token(struct parser *p) {
  const struct token *t = &p->lx.cur;
  if (t->t == TK_BAD && t->len > 1 && (p->lx.s[t->pos] == '"' || p->lx.s[t->pos] == '\'')) {
    int at = p->lx.n;
    if (p->lx.s[at - 1] == '\\') at--;
    perr(p, at, 0, "The final quote was missing from a quoted string.");
    return;
  }
  unexpected(p);
}

/* Wireshark 4.0's unary minus before the literal l (token t): applied when
 * the filter runs, to a value of the field's type. An unsigned value turns
 * into a signed 32-bit one (64 for 64-bit fields): as a mask, its two's
 * complement; compared with the field, a negative value relates to nothing
 * (every comparison false, so "!=" and "===" true). */
static void negate(struct parser *p, const struct operand *o, const struct token *t, bool mask, struct lit *l) {
  const struct ual_filter_field *fd = &o->fd;
  if (opd_class(o) != VC_NUM || fd->type == UAL_FT_BOOLEAN) {
    serr(p, t->pos, t->len, "%s cannot -.", o->slice ? "FT_BYTES" : ual_ft_name(fd));
    return;
  }
  if (fd->type == UAL_FT_INT || fd->type == UAL_FT_RELTIME) {
    l->s = -l->s;
    l->u = (uint64_t)l->s;
    return;
  }
  if (!l->u) return;
  if (mask) l->u = fd->bytes > 4 ? 0 - l->u : (uint32_t)(0u - (uint32_t)l->u);
  else l->bad = true;
}

/* A literal for operand o: an optional unary minus and a value. False only
 * on a syntax error. */
static bool parse_value(struct parser *p, const struct operand *o, bool mask, struct lit *l) {
  memset(l, 0, sizeof *l);
  bool minus = p->lx.cur.t == TK_MINUS;
  if (minus) lex_next(&p->lx);
  struct token t = p->lx.cur;
  if (t.t == TK_BAD) {
    bad_token(p);
    return false;
  }
  if (!literal_token(t.t)) {
    unexpected(p);
    return false;
  }
  bool ok = convert_literal(p, o, t.t, t.pos, t.len, l, mask || minus);
  if (p->failed) return false;
  if (ok && minus) negate(p, o, &t, mask, l);
  lex_next(&p->lx);
  return true;
}

/* The right side of a comparison with field operand l. */
static bool parse_rhs(struct parser *p, const struct operand *l, struct operand *r, int rel) {
  struct token t = p->lx.cur;
  if (t.t == TK_WORD && parse_field(p, r)) {
    if (p->failed) return false;
    enum vclass a = opd_class(l), b = opd_class(r);
    if (a != b || a == VC_NONE) serr(p, r->pos, r->len, "%s and %s are not of compatible types.", l->fd.abbrev, r->fd.abbrev);
    return true;
  }
  memset(r, 0, sizeof *r);
  r->pos = t.pos;
  r->len = t.len;
  if (rel != R_MATCHES || t.t == TK_MINUS || t.t == TK_BAD || !literal_token(t.t)) return parse_value(p, l, false, &r->lit);
  if (t.t != TK_STRING)
    serr(p, t.pos, t.len, "\"%.*s\" is not a valid regular expression string.", t.len, p->lx.s + t.pos);
  else if (!unquote(p, t.pos, t.len, &r->lit.bytes, &r->lit.len)) return false;
  r->lit.vc = VC_STRING;
  lex_next(&p->lx);
  return true;
}

static void check_rel(struct parser *p, const struct operand *l, int rel) {
  enum vclass vc = opd_class(l);
  bool ok = vc != VC_NONE;
  if (rel == R_CONTAINS || rel == R_MATCHES) ok = vc == VC_BYTES || vc == VC_STRING;
  if (!ok) serr(p, l->pos, l->len, "%s (type=%s) cannot participate in %s comparison.", l->fd.abbrev,
                ual_ft_desc(&l->fd), rel_text(rel));
}

/* "{a, b, c..d}": each bound a literal, ".." a token of its own. */
static int parse_set(struct parser *p, const struct operand *l, int neg) {
  lex_next(&p->lx);
  if (p->lx.cur.t != TK_LBRACE) {
    unexpected(p);
    return -1;
  }
  lex_next(&p->lx);
  size_t cap = 8, n = 0;
  struct lit *set = falloc(p->f, cap * sizeof *set);
  if (!set) return -1;
  for (;;) {
    if (n == cap) {
      struct lit *b = falloc(p->f, 2 * cap * sizeof *b);
      if (!b) return -1;
      memcpy(b, set, cap * sizeof *b);
      set = b;
      cap *= 2;
    }
    struct lit *e = &set[n++];
    if (!parse_value(p, l, false, e)) return -1;
    if (p->lx.cur.t == TK_DOTDOT) {
      lex_next(&p->lx);
      struct lit *hi = falloc(p->f, sizeof *hi);
      if (!hi || !parse_value(p, l, false, hi)) return -1;
      e->range = true;
      e->hi = hi;
    }
    if (p->lx.cur.t == TK_COMMA) {
      lex_next(&p->lx);
      continue;
    }
    if (p->lx.cur.t == TK_RBRACE) break;
    unexpected(p);
    return -1;
  }
  lex_next(&p->lx);
  int k = new_node(p, N_IN);
  if (k < 0) return -1;
  struct node *nd = &p->f->nodes[k];
  nd->l = *l;
  nd->set = set;
  nd->n_set = n;
  if (!neg) return k;
  int m = new_node(p, N_NOT);
  if (m < 0) return -1;
  p->f->nodes[m].a = k;
  return m;
}

/* A comparison of operand l: the relation and its right side r. */
static int parse_cmp(struct parser *p, const struct operand *l, struct operand *r) {
  int rel = p->lx.cur.rel;
  if (l->masked && (rel == R_CONTAINS || rel == R_MATCHES)) {
    unexpected(p);
    return -1;
  }
  check_rel(p, l, rel);
  lex_next(&p->lx);
  if (!parse_rhs(p, l, r, rel)) return -1;
  int k = new_node(p, N_CMP);
  if (k < 0) return -1;
  struct node *nd = &p->f->nodes[k];
  nd->rel = rel;
  nd->l = *l;
  nd->r = *r;
  if (rel == R_MATCHES && !r->is_field && !p->sem) {
    int code;
    PCRE2_SIZE off;
    nd->re = pcre2_compile(r->lit.bytes, r->lit.len, PCRE2_NEVER_UTF | PCRE2_CASELESS, &code, &off, NULL);
    if (!nd->re) {
      PCRE2_UCHAR msg[160];
      pcre2_get_error_message(code, msg, sizeof msg);
      serr(p, -1, 0, "Regex compilation error: %s.", (const char *)msg);
      return k;
    }
    nd->md = pcre2_match_data_create_from_pattern(nd->re, NULL);
    if (!nd->md) {
      perr(p, -1, 0, "Out of memory.");
      return -1;
    }
  }
  return k;
}

static int parse_or(struct parser *p);

static int parse_relation(struct parser *p) {
  struct token t = p->lx.cur;
  if (t.t == TK_LPAREN) {
    lex_next(&p->lx);
    int k = parse_or(p);
    if (k < 0) return -1;
    if (p->lx.cur.t != TK_RPAREN) {
      unexpected(p);
      return -1;
    }
    lex_next(&p->lx);
    return k;
  }
  if (t.t == TK_BAD) {
    bad_token(p);
    return -1;
  }
  if (!literal_token(t.t)) {
    unexpected(p);
    return -1;
  }
  struct operand l;
  if (t.t != TK_WORD || !parse_field(p, &l)) {
    if (t.t != TK_WORD) {
      perr(p, t.pos, t.len, "\"%.*s\" was unexpected in this context.", t.len, p->lx.s + t.pos);
      return -1;
    }
    /* What follows decides the message, as in Wireshark; parsing goes on
     * with an operand of no type. */
    lex_next(&p->lx);
    if (p->lx.cur.t == TK_REL)
      serr(p, t.pos, t.len, "Left side of \"%.*s\" expression must be a field or function, not %.*s.",
           p->lx.cur.len, p->lx.s + p->lx.cur.pos, t.len, p->lx.s + t.pos);
    else serr(p, t.pos, t.len, "%.*s is neither a field nor a protocol name.", t.len, p->lx.s + t.pos);
    memset(&l, 0, sizeof l);
    l.fd.abbrev = "";
    l.pos = t.pos;
    l.len = t.len;
    if (p->lx.cur.t == TK_LBRACKET && !parse_slice(p, &l)) return -1;
  }
  if (p->failed) return -1;
  if (p->lx.cur.t == TK_AMP) {
    /* Wireshark 4.0's bitwise and: on integers, and on byte sequences (a
     * byte field or any slice), cut to the shorter; masks in a row combine. */
    bool bytes = opd_class(&l) == VC_BYTES;
    if (bytes ? !l.slice && l.fd.type != UAL_FT_BYTES : !is_int(&l.fd) && l.fd.type != UAL_FT_FRAMENUM)
      serr(p, l.pos, l.len, "%s cannot &.", ual_ft_name(&l.fd));
    l.masked = true;
    l.mask = UINT64_MAX;
    while (p->lx.cur.t == TK_AMP) {
      lex_next(&p->lx);
      struct lit ml;
      if (!parse_value(p, &l, true, &ml)) return -1;
      if (!bytes) {
        l.mask &= ml.u;
      } else if (ml.vc == VC_BYTES) {
        size_t n = l.mbytes && l.mlen < ml.len ? l.mlen : ml.len;
        for (size_t i = 0; l.mbytes && i < n; i++) ml.bytes[i] &= l.mbytes[i];
        l.mbytes = ml.bytes;
        l.mlen = n;
      }
    }
  }
  bool not_in = false;
  if (p->lx.cur.t == TK_NOT && p->lx.pos < p->lx.n) {
    struct lexer save = p->lx;
    lex_next(&p->lx);
    not_in = p->lx.cur.t == TK_IN;
    p->lx = save;
  }
  if (p->lx.cur.t == TK_IN || not_in) {
    if (l.masked) {
      unexpected(p);
      return -1;
    }
    if (l.slice) serr(p, -1, 0, "Only a field may be tested for membership in a set.");
    if (not_in) lex_next(&p->lx);
    return parse_set(p, &l, not_in);
  }
  if (p->lx.cur.t != TK_REL) {
    int k = new_node(p, l.masked ? N_TEST : N_EXISTS);
    if (k >= 0) p->f->nodes[k].l = l;
    return k;
  }
  struct operand r;
  int k = parse_cmp(p, &l, &r);
  while (k >= 0 && p->lx.cur.t == TK_REL) {
    /* Wireshark 4.0 chains relations: "a == b > c" is "a == b and b > c". */
    struct operand m = r;
    if (!m.is_field) {
      serr(p, m.pos, m.len, "Left side of \"%.*s\" expression must be a field or function, not %.*s.",
           p->lx.cur.len, p->lx.s + p->lx.cur.pos, m.len, p->lx.s + m.pos);
      memset(&m.fd, 0, sizeof m.fd);
      m.fd.abbrev = "";
    }
    int b = parse_cmp(p, &m, &r);
    int c = b < 0 ? -1 : new_node(p, N_AND);
    if (c < 0) return -1;
    p->f->nodes[c].a = k;
    p->f->nodes[c].b = b;
    k = c;
  }
  return k;
}

static int parse_not(struct parser *p) {
  if (p->lx.cur.t == TK_NOT) {
    lex_next(&p->lx);
    int a = parse_not(p);
    if (a < 0) return -1;
    int k = new_node(p, N_NOT);
    if (k >= 0) p->f->nodes[k].a = a;
    return k;
  }
  return parse_relation(p);
}

static int parse_binary(struct parser *p, enum tk op, enum nk kind, int (*sub)(struct parser *)) {
  int a = sub(p);
  while (a >= 0 && p->lx.cur.t == op) {
    lex_next(&p->lx);
    int b = sub(p);
    if (b < 0) return -1;
    int k = new_node(p, kind);
    if (k < 0) return -1;
    p->f->nodes[k].a = a;
    p->f->nodes[k].b = b;
    a = k;
  }
  return a;
}

static int parse_and(struct parser *p) { return parse_binary(p, TK_AND, N_AND, parse_not); }
static int parse_or(struct parser *p) { return parse_binary(p, TK_OR, N_OR, parse_and); }

/* ---- lifetime ---- */

static struct ual_filter *filter_new(void) {
  struct ual_filter *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->n_fields = ual_filter_field_count();
  f->slot_field = calloc(f->n_fields, sizeof *f->slot_field);
  f->view.slot_of = calloc(f->n_fields, sizeof *f->view.slot_of);
  f->view.wanted_before = calloc(f->n_fields + 1, sizeof *f->view.wanted_before);
  f->view.cap = 1024;
  f->view.v = calloc(f->view.cap, sizeof *f->view.v);
  f->view.tcap = 16384;
  f->view.text = malloc(f->view.tcap);
  f->view.f = f;
  f->root = -1;
  size_t base = FABRIC_FIRST;
  for (size_t i = 0; i < N_FABRICS; i++) {
    f->view.fabric_base[i] = base;
    base += fabrics[i]->n_fields;
  }
  if (!f->slot_field || !f->view.slot_of || !f->view.wanted_before || !f->view.v || !f->view.text) {
    ual_filter_free(f);
    return NULL;
  }
  return f;
}

void ual_filter_free(struct ual_filter *f) {
  if (!f) return;
  for (size_t i = 0; i < f->n_nodes; i++) {
    pcre2_match_data_free(f->nodes[i].md);
    pcre2_code_free(f->nodes[i].re);
  }
  for (size_t i = 0; i < f->n_allocs; i++) free(f->allocs[i]);
  free(f->allocs);
  free(f->nodes);
  free(f->slot_field);
  free(f->view.slot_of);
  free(f->view.wanted_before);
  free(f->view.v);
  free(f->view.text);
  free(f);
}

static bool header_scope(enum ual_scope sc) { return sc == UAL_SC_REC || sc == UAL_SC_REC_PCIE_ROLES; }

/* Appends the use of table row id when it is wanted (u NULL: counts it). */
static void use_fixed(struct ual_fview *v, struct fixed_use *u, size_t *n, enum ual_field_id id,
                      const struct ual_fixed_row *row) {
  int slot = (int)v->slot_of[TABLE_FIRST + id] - 1;
  if (slot < 0) return;
  if (u) u[*n] = (struct fixed_use){ slot, id, row };
  (*n)++;
}

/* The uses of a scope's wanted rows; a header scope inserts the PCIe roles
 * where the tree does (core/tree.c). */
static void use_scope(struct ual_fview *v, struct fixed_use *u, size_t *n, enum ual_scope sc,
                      const struct ual_fixed_row *row) {
  enum ual_field_id first;
  size_t k = ual_scope_span(sc, &first);
  for (size_t i = 0; i < k; i++) {
    enum ual_field_id id = (enum ual_field_id)(first + i);
    if (sc == UAL_SC_REC && id == UAL_F_REC_ROLE_A) use_scope(v, u, n, UAL_SC_REC_PCIE_ROLES, NULL);
    use_fixed(v, u, n, id, row);
  }
}

/* The uses of a kind's wanted fixed rows, in its lists' order (u NULL: counts them). */
static void use_kind(struct ual_fview *v, const struct ual_kind *k, struct fixed_use *u, size_t *n) {
  for (const struct ual_fixed_rows *const *l = k->fixed; *l; l++)
    for (size_t i = 0; i < (*l)->n; i++) {
      const struct ual_fixed_row *x = &(*l)->v[i];
      if (x->gen) use_fixed(v, u, n, (enum ual_field_id)x->what, x);
      else use_scope(v, u, n, (enum ual_scope)x->what, x);
    }
}

/* Which wanted table rows each record kind shows as fixed rows. */
static bool plan_fixed(struct ual_filter *f) {
  struct ual_fview *v = &f->view;
  size_t wanted = 0;
  for (size_t id = 0; id < UAL_F_COUNT; id++) {
    if (!v->fields[id]) continue;
    wanted++;
    if (!header_scope((enum ual_scope)ual_fields[id].scope)) v->body = true;
  }
  if (!wanted) return true;
  v->hdr = falloc(f, wanted * sizeof *v->hdr);
  v->plan = falloc(f, 256 * sizeof *v->plan);
  if (!v->hdr || !v->plan) return false;
  use_scope(v, v->hdr, &v->n_hdr, UAL_SC_REC, NULL);
  for (unsigned code = 0; code < 256; code++) {
    struct kind_plan *kp = &v->plan[code];
    const struct ual_kind *k = ual_kind_of(code);
    kp->walk = !k;
    if (!k || !v->body) continue;
    for (size_t id = 0; id < UAL_F_COUNT; id++)
      if (v->fields[id] && !header_scope((enum ual_scope)ual_fields[id].scope) &&
          !ual_kind_fixed_row(k, (enum ual_field_id)id))
        kp->walk = true;
    if (kp->walk || !k->fixed) continue;
    size_t n = 0;
    use_kind(v, k, NULL, &n);
    if (!(kp->u = falloc(f, n * sizeof *kp->u))) return false;
    use_kind(v, k, kp->u, &kp->n);
  }
  return true;
}

/* After compiling: the counts behind ual_fview_want_any, the fixed rows. */
static bool finish(struct ual_filter *f) {
  for (size_t i = 0; i < f->n_fields; i++)
    f->view.wanted_before[i + 1] = (uint16_t)(f->view.wanted_before[i] + (f->view.slot_of[i] != 0));
  return plan_fixed(f);
}

static void oom(struct ual_filter_error *err) {
  snprintf(err->msg, sizeof err->msg, "Out of memory.");
  err->pos = -1;
  err->len = 0;
}

struct ual_filter *ual_filter_compile(const char *text, struct ual_filter_error *err) {
  struct ual_filter *f = filter_new();
  if (!f) {
    oom(err);
    return NULL;
  }
  struct parser p = { { text, (int)strlen(text), 0, { 0 } }, f, err, false, false, { { 0 }, 0, 0 } };
  lex_next(&p.lx);
  if (p.lx.cur.t != TK_END) {
    f->root = parse_or(&p);
    if (!p.failed && p.lx.cur.t != TK_END) bad_token(&p);
    if (!p.failed && f->root < 0) perr(&p, -1, 0, "Out of memory.");
    if (!p.failed && p.sem) {
      *err = p.sem_err;
      p.failed = true;
    }
  }
  if (p.failed) {
    ual_filter_free(f);
    return NULL;
  }
  if (!finish(f)) {
    ual_filter_free(f);
    oom(err);
    return NULL;
  }
  return f;
}

struct ual_filter *ual_filter_fields(const char *const *fields, size_t n, struct ual_filter_error *err) {
  struct ual_filter *f = filter_new();
  int *slots = f && n > f->n_fields ? realloc(f->slot_field, n * sizeof *slots) : NULL;
  if (slots) f->slot_field = slots;   /* a field may be given more than once */
  if (!f || (n > f->n_fields && !slots)) {
    ual_filter_free(f);
    oom(err);
    return NULL;
  }
  for (size_t i = 0; i < n; i++) {
    int id = ual_filter_field_lookup(fields[i], strlen(fields[i]));
    if (id < 0) {
      snprintf(err->msg, sizeof err->msg, "%s", fields[i]);
      err->pos = -1;
      err->len = 0;
      ual_filter_free(f);
      return NULL;
    }
    /* Each -e is its own slot; a field given twice has its values in its
     * last slot only, as in tshark. */
    f->slot_field[f->n_slots++] = id;
    f->view.slot_of[id] = (uint16_t)f->n_slots;
    want_scope(f, id);
    if (id >= FABRIC_FIRST) f->uses_state = true;
  }
  if (!finish(f)) {
    ual_filter_free(f);
    oom(err);
    return NULL;
  }
  return f;
}

bool ual_filter_uses_state(const struct ual_filter *f) { return f->uses_state; }
bool ual_filter_uses(const struct ual_filter *f, int id) {
  return id >= 0 && (size_t)id < f->n_fields && f->view.slot_of[id] != 0;
}
int ual_filter_slot_field(const struct ual_filter *f, unsigned slot) {
  return slot < f->n_slots ? f->slot_field[slot] : -1;
}
size_t ual_filter_slots(const struct ual_filter *f) { return f->n_slots; }

/* ------------------------------------------------------------------ */
/* The view */

static int want_id(const struct ual_fview *v, size_t id) { return (int)v->slot_of[id] - 1; }

int ual_fview_want(const struct ual_fview *v, const struct ual_filter_fabric *fab, size_t i) {
  for (size_t k = 0; k < N_FABRICS; k++)
    if (fabrics[k] == fab) return want_id(v, v->fabric_base[k] + i);
  return -1;
}

bool ual_fview_want_any(const struct ual_fview *v, const struct ual_filter_fabric *fab, size_t lo, size_t hi) {
  for (size_t k = 0; k < N_FABRICS; k++)
    if (fabrics[k] == fab) return v->wanted_before[v->fabric_base[k] + hi + 1] != v->wanted_before[v->fabric_base[k] + lo];
  return false;
}

static struct ual_fvalue *add(struct ual_fview *v, int slot) {
  if (slot < 0 || v->n == v->cap) return NULL;
  struct ual_fvalue *x = &v->v[v->n++];
  x->slot = (uint16_t)slot;
  x->field = (uint16_t)v->f->slot_field[slot];
  x->len = 0;
  x->label = NULL;
  return x;
}

void ual_fview_add_uint(struct ual_fview *v, int slot, uint64_t u) {
  struct ual_fvalue *x = add(v, slot);
  if (x) x->v.u = u;
}

void ual_fview_add_bytes(struct ual_fview *v, int slot, const void *p, size_t len) {
  struct ual_fvalue *x = add(v, slot);
  if (!x) return;
  x->v.p = p;
  x->len = (uint32_t)len;
}

char *ual_fview_text(struct ual_fview *v, size_t cap) {
  if (v->tcap - v->tn < cap) return NULL;
  char *s = v->text + v->tn;
  v->tn += cap;
  return s;
}

void ual_fview_add_text(struct ual_fview *v, int slot, const char *s, size_t len) {
  ual_fview_add_bytes(v, slot, s, len);
}

void ual_fview_label_last(struct ual_fview *v, const char *text) {
  size_t n = strlen(text) + 1;
  char *t = v->n ? ual_fview_text(v, n) : NULL;
  if (!t) return;
  memcpy(t, text, n);
  v->v[v->n - 1].label = t;
}

/* "label: text" of the body's first top-level group */
#define BODY_LABEL_CAP (sizeof ((struct ual_tree_row *)0)->text + 64)

static void body_group(void *ctx, const struct ual_tree_row *row) {
  char *label = ctx;
  if (label[0] || row->field || row->depth != 0 || row->offset < UAL_REC_HDR_BYTES) return;
  snprintf(label, BODY_LABEL_CAP, "%s: %s", row->label, row->text);
}

void ual_fview_add_body_protocol(struct ual_fview *v, int slot, const struct ual_filter_record *fr) {
  if (fr->len < UAL_REC_HDR_BYTES) return;
  ual_fview_add_bytes(v, slot, fr->rec + UAL_REC_HDR_BYTES, fr->len - UAL_REC_HDR_BYTES);
  char label[BODY_LABEL_CAP] = "";
  ual_tree_walk(fr->r, fr->rec, fr->len, body_group, label);
  if (label[0]) ual_fview_label_last(v, label);
}

static void add_row(struct ual_fview *v, int slot, enum ual_field_id id, uint64_t val) {
  if (ual_fields[id].flags & UAL_FF_BOOL) val = val != 0;
  ual_fview_add_uint(v, slot, val);
}

static void tree_row(void *ctx, const struct ual_tree_row *row) {
  struct ual_fview *v = ctx;
  if (!row->field) return;
  int slot = want_id(v, TABLE_FIRST + (size_t)row->id);
  if (slot < 0) return;
  if (row->field->flags & UAL_FF_BYTES) {
    if (row->offset <= v->rec_len && row->length <= v->rec_len - row->offset)
      ual_fview_add_bytes(v, slot, v->rec + row->offset, row->length);
  } else {
    add_row(v, slot, row->id, row->value);
  }
}

static bool decoded(const struct ual_rec_result *r) { return r->status == UAL_RS_OK || r->status == UAL_RS_RESERVED; }

/* The plan for the wanted body rows of a record; NULL when it shows none
 * (the tree shows a body only for a decoded record). */
static const struct kind_plan *body_plan(const struct ual_fview *v, const struct ual_filter_record *fr) {
  bool body = v->body && fr->len >= UAL_REC_HDR_BYTES && decoded(fr->r);
  return body ? &v->plan[fr->r->rec.h.kind] : NULL;
}

bool ual_filter_walks(const struct ual_filter *f, const struct ual_filter_record *fr) {
  const struct kind_plan *kp = f->view.table ? body_plan(&f->view, fr) : NULL;
  return kp && kp->walk;
}

/* The wanted rows of a record whose kind shows them all as fixed rows (kp;
 * NULL: no body row), as its tree would. */
static void fixed_rows(struct ual_fview *v, const struct ual_filter_record *fr, const uint8_t *bytes,
                       const struct kind_plan *kp) {
  const struct ual_rec_result *r = fr->r;
  uint64_t val;
  if (fr->len < UAL_REC_HDR_BYTES) return;
  for (size_t i = 0; i < v->n_hdr; i++) {
    const struct fixed_use *u = &v->hdr[i];
    if (ual_tree_rec_shows(&r->rec.h, u->id) && ual_tree_wire(u->id, bytes, fr->len, 0, &val)) add_row(v, u->slot, u->id, val);
  }
  for (size_t i = 0; kp && i < kp->n; i++) {
    const struct fixed_use *u = &kp->u[i];
    if (u->row->gen) add_row(v, u->slot, u->id, u->row->get(r));
    else if (ual_tree_wire(u->id, bytes, fr->len, u->row->off, &val)) add_row(v, u->slot, u->id, val);
  }
}

void ual_filter_collect(struct ual_filter *f, const struct ual_filter_record *fr) {
  struct ual_fview *v = &f->view;
  v->n = 0;
  v->tn = 0;
  int s;
  if ((s = want_id(v, FF_FRAME)) >= 0) ual_fview_add_bytes(v, s, fr->rec, fr->len);
  if ((s = want_id(v, FF_NUMBER)) >= 0) ual_fview_add_uint(v, s, fr->frame);
  if ((s = want_id(v, FF_LEN)) >= 0) ual_fview_add_uint(v, s, fr->wire_len ? fr->wire_len : fr->len);
  if ((s = want_id(v, FF_TIME_REL)) >= 0) ual_fview_add_uint(v, s, (uint64_t)fr->rel_ns);
  if ((s = want_id(v, FF_TIME_DELTA)) >= 0) ual_fview_add_uint(v, s, (uint64_t)fr->delta_ns);
  if (v->table) {
    const uint8_t *bytes = NULL;
    for (size_t i = 0; i < N_FABRICS && !bytes; i++)
      if (fabrics[i]->tree_bytes) bytes = fabrics[i]->tree_bytes(v, fr);
    const struct kind_plan *kp = body_plan(v, fr);
    v->rec = bytes ? bytes : fr->rec;
    v->rec_len = fr->len;
    if (kp && kp->walk) ual_tree_walk_fields(fr->r, bytes ? bytes : fr->rec, fr->len, v->scopes, v->fields, tree_row, v);
    else fixed_rows(v, fr, bytes ? bytes : fr->rec, kp);
  }
  for (size_t i = 0; i < N_FABRICS; i++)
    if (v->fabric[i]) fabrics[i]->collect(v, fr);
}

/* ------------------------------------------------------------------ */
/* Evaluation */

/* The value of occurrence x through operand o: its slice and mask
 * applied. A range of a slice that does not fit adds nothing, as in
 * Wireshark 4.0 (a slice past the end is an empty byte string). False only
 * when the result does not fit the buffer. */
struct cval {
  enum vclass vc;
  bool is_signed;
  uint64_t u;
  const uint8_t *p;
  size_t len;
  uint8_t buf[256];
};

static bool take(const struct operand *o, const struct ual_fvalue *x, struct cval *c) {
  c->vc = opd_class(o);
  c->is_signed = o->fd.type == UAL_FT_INT || o->fd.type == UAL_FT_RELTIME;
  c->u = x->v.u;
  if (c->vc == VC_NUM) {
    if (o->masked) c->u &= o->mask;
    return true;
  }
  c->p = x->v.p;
  c->len = x->len;
  if (o->slice) {
    size_t n = 0;
    for (size_t i = 0; i < o->n_slice; i++) {
      const struct range *r = &o->slice[i];
      int64_t a = r->start < 0 ? (int64_t)x->len + r->start : r->start;
      int64_t len = r->len < 0 ? (int64_t)x->len - a : r->len;
      if (a < 0 || len <= 0 || a + len > (int64_t)x->len) continue;
      if (n + (size_t)len > sizeof c->buf) return false;
      memcpy(c->buf + n, x->v.p + a, (size_t)len);
      n += (size_t)len;
    }
    c->p = c->buf;
    c->len = n;
  }
  if (o->masked) {
    size_t n = c->len < o->mlen ? c->len : o->mlen;
    if (n > sizeof c->buf) return false;
    for (size_t i = 0; i < n; i++) c->buf[i] = c->p[i] & o->mbytes[i];
    c->p = c->buf;
    c->len = n;
  }
  return true;
}

static int cmp_bytes(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  size_t n = an < bn ? an : bn;
  int c = n ? memcmp(a, b, n) : 0;
  if (c) return c < 0 ? -1 : 1;
  return an < bn ? -1 : an > bn;
}

static int cmp_num(bool is_signed, uint64_t a, const struct lit *l) {
  if (is_signed) {
    int64_t x = (int64_t)a, y = l->s;
    return x < y ? -1 : x > y;
  }
  return a < l->u ? -1 : a > l->u;
}

static int cmp_lit(const struct cval *c, const struct lit *l) {
  if (c->vc == VC_NUM) return cmp_num(c->is_signed, c->u, l);
  return cmp_bytes(c->p, c->len, l->bytes, l->len);
}

static int cmp_vals(const struct cval *a, const struct cval *b) {
  if (a->vc == VC_NUM) {
    if (a->is_signed || b->is_signed) {
      int64_t x = (int64_t)a->u, y = (int64_t)b->u;
      return x < y ? -1 : x > y;
    }
    return a->u < b->u ? -1 : a->u > b->u;
  }
  return cmp_bytes(a->p, a->len, b->p, b->len);
}

static bool contains(const uint8_t *h, size_t hn, const uint8_t *n, size_t nn) {
  if (nn == 0) return true;
  for (size_t i = 0; i + nn <= hn; i++)
    if (h[i] == n[0] && memcmp(h + i, n, nn) == 0) return true;
  return false;
}

static bool rel_holds(int rel, int c) {
  switch (rel) {
  case R_EQ: case R_ALL_EQ: return c == 0;
  case R_ANY_NE: return c != 0;
  case R_GT: return c > 0;
  case R_GE: return c >= 0;
  case R_LT: return c < 0;
  case R_LE: return c <= 0;
  }
  return false;
}

/* One pair: does left value a relate by rel to the right side? */
static bool pair(const struct node *nd, int rel, const struct cval *a, const struct cval *b) {
  if (!b && nd->r.lit.bad) return false;
  switch (rel) {
  case R_CONTAINS:
    return b ? contains(a->p, a->len, b->p, b->len) : contains(a->p, a->len, nd->r.lit.bytes, nd->r.lit.len);
  case R_MATCHES:
    if (!nd->re) return false;
    return pcre2_match(nd->re, a->p, a->len, 0, 0, nd->md, NULL) >= 0;
  default: {
    int c = b ? cmp_vals(a, b) : cmp_lit(a, &nd->r.lit);
    return rel_holds(rel, c);
  }
  }
}

static bool eval(const struct ual_filter *f, int k);

/* "!=" is "not ==" and "===" is "not ~=" (both false when the field is
 * absent): Wireshark 4.0's definitions, which differ from "all not equal"
 * and "all equal" for a value that relates to nothing. */
static bool eval_cmp(const struct ual_filter *f, const struct node *nd) {
  const struct ual_fview *v = &f->view;
  bool negate = nd->rel == R_NE || nd->rel == R_ALL_EQ;
  int rel = nd->rel == R_NE ? R_EQ : nd->rel == R_ALL_EQ ? R_ANY_NE : nd->rel;
  bool any = false, seen = false;
  struct cval a, b;
  for (size_t i = 0; i < v->n && !any; i++) {
    if (v->v[i].slot != nd->l.slot || !take(&nd->l, &v->v[i], &a)) continue;
    if (!nd->r.is_field) {
      seen = true;
      any = pair(nd, rel, &a, NULL);
      continue;
    }
    for (size_t j = 0; j < v->n && !any; j++) {
      if (v->v[j].slot != nd->r.slot || !take(&nd->r, &v->v[j], &b)) continue;
      seen = true;
      any = pair(nd, rel, &a, &b);
    }
  }
  return negate ? seen && !any : any;
}

static bool eval_in(const struct ual_filter *f, const struct node *nd) {
  const struct ual_fview *v = &f->view;
  struct cval a;
  for (size_t i = 0; i < v->n; i++) {
    if (v->v[i].slot != nd->l.slot || !take(&nd->l, &v->v[i], &a)) continue;
    for (size_t e = 0; e < nd->n_set; e++) {
      const struct lit *l = &nd->set[e];
      if (l->bad || (l->range && l->hi->bad)) continue;
      if (l->range ? cmp_lit(&a, l) >= 0 && cmp_lit(&a, l->hi) <= 0 : cmp_lit(&a, l) == 0) return true;
    }
  }
  return false;
}

/* A bare value is true when not zero: a number, or a byte with a bit set. */
static bool nonzero(const struct cval *c) {
  if (c->vc == VC_NUM) return c->u != 0;
  for (size_t i = 0; i < c->len; i++)
    if (c->p[i]) return true;
  return false;
}

static bool eval(const struct ual_filter *f, int k) {
  const struct node *nd = &f->nodes[k];
  const struct ual_fview *v = &f->view;
  switch (nd->k) {
  case N_TRUE: return true;
  case N_NOT: return !eval(f, nd->a);
  case N_AND: return eval(f, nd->a) && eval(f, nd->b);
  case N_OR: return eval(f, nd->a) || eval(f, nd->b);
  case N_EXISTS: {
    /* a slice is there when it has a byte */
    struct cval a;
    for (size_t i = 0; i < v->n; i++)
      if (v->v[i].slot == nd->l.slot && (!nd->l.slice || (take(&nd->l, &v->v[i], &a) && a.len))) return true;
    return false;
  }
  case N_TEST: {
    struct cval a;
    for (size_t i = 0; i < v->n; i++)
      if (v->v[i].slot == nd->l.slot && take(&nd->l, &v->v[i], &a) && nonzero(&a)) return true;
    return false;
  }
  case N_CMP: return eval_cmp(f, nd);
  case N_IN: return eval_in(f, nd);
  }
  return false;
}

bool ual_filter_match(const struct ual_filter *f) { return f->root < 0 || eval(f, f->root); }

size_t ual_filter_nvalues(const struct ual_filter *f) { return f->view.n; }
const struct ual_fvalue *ual_filter_value(const struct ual_filter *f, size_t i) {
  return i < f->view.n ? &f->view.v[i] : NULL;
}

/* ------------------------------------------------------------------ */
/* Text */

void ual_filter_error_text(const char *text, const struct ual_filter_error *err, char *buf, size_t cap) {
  int n = snprintf(buf, cap, "%s\n", err->msg);
  if (err->pos < 0 || n < 0 || (size_t)n >= cap) return;
  n += snprintf(buf + n, cap - (size_t)n, "    %s\n    %*s^", text, err->pos, "");
  for (int i = 1; i < err->len && (size_t)n + 2 < cap; i++) buf[n++] = '~';
  if ((size_t)n + 2 <= cap) {
    buf[n++] = '\n';
    buf[n] = 0;
  }
}

void ual_fvalue_format(const struct ual_fvalue *x, char *buf, size_t cap) {
  struct ual_filter_field fd;
  ual_filter_field_get(x->field, &fd);
  switch ((enum ual_ft)fd.type) {
  case UAL_FT_NONE:
    snprintf(buf, cap, "1");   /* tshark's presence value of a label */
    return;
  case UAL_FT_PROTOCOL:
    snprintf(buf, cap, "%s", x->label ? x->label : fd.abbrev);
    return;
  case UAL_FT_BOOLEAN:
    snprintf(buf, cap, "%u", x->v.u ? 1u : 0u);
    return;
  case UAL_FT_UINT:
    /* Wireshark pads to the integer it stores: 32 or 64 bits above 3 bytes. */
    if (fd.base == UAL_FB_HEX)
      snprintf(buf, cap, "0x%0*" PRIx64, fd.bytes > 4 ? 16 : 2 * (fd.bytes ? fd.bytes : 1), x->v.u);
    else snprintf(buf, cap, "%" PRIu64, x->v.u);
    return;
  case UAL_FT_FRAMENUM:
    snprintf(buf, cap, "%" PRIu64, x->v.u);
    return;
  case UAL_FT_INT:
    snprintf(buf, cap, "%" PRId64, x->v.i);
    return;
  case UAL_FT_RELTIME: {
    int64_t ns = x->v.i;
    const char *sign = ns < 0 ? "-" : "";
    uint64_t a = ns < 0 ? (uint64_t)-ns : (uint64_t)ns;
    snprintf(buf, cap, "%s%" PRIu64 ".%09" PRIu64, sign, a / 1000000000u, a % 1000000000u);
    return;
  }
  case UAL_FT_BYTES: {
    size_t k = 0;
    for (size_t i = 0; i < x->len && k + 3 <= cap; i++) k += (size_t)snprintf(buf + k, cap - k, "%02x", x->v.p[i]);
    if (cap) buf[k < cap ? k : cap - 1] = 0;
    return;
  }
  case UAL_FT_STRING:
    snprintf(buf, cap, "%.*s", (int)x->len, (const char *)x->v.p);
    return;
  }
}
