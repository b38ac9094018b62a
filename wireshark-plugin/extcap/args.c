/* ualink-extcap: interfaces, configuration table, validation, capture filter. */
#include "args.h"

#include <ualink/ualink.h>

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const iface_names[XC_IF_COUNT] = { "ualink-generator", "ualink-udp" };
static const char *const iface_displays[XC_IF_COUNT] = { "UALink generator", "UALink UDP export" };

const char *xc_iface_name(int iface) { return iface >= 0 && iface < XC_IF_COUNT ? iface_names[iface] : NULL; }
const char *xc_iface_display(int iface) { return iface >= 0 && iface < XC_IF_COUNT ? iface_displays[iface] : NULL; }

int xc_iface_lookup(const char *name) {
  for (int i = 0; i < XC_IF_COUNT; i++)
    if (name && !strcmp(name, iface_names[i])) return i;
  return XC_IF_NONE;
}

#define U32MAX 4294967295.0

const struct xc_arg xc_args[XA_COUNT_ARGS] = {
  [XA_SCENARIO] = { XC_IF_GEN, "scenario", "Scenario", XT_SELECTOR, XC_SCENARIO_AUTO, 0, 0, NULL,
                    "What the link does (ualink-gen --list-scenarios)" },
  [XA_SEED] = { XC_IF_GEN, "seed", "Random seed", XT_UNSIGNED, "1", 0, U32MAX, NULL,
                "The same seed gives the same records" },
  [XA_RATE] = { XC_IF_GEN, "rate", "Link rate", XT_SELECTOR, "128", 0, 0, NULL, "Final link rate" },
  [XA_WIDTH] = { XC_IF_GEN, "width", "Link width", XT_SELECTOR, "8", 0, 0, NULL, "Active lanes" },
  [XA_LOAD] = { XC_IF_GEN, "load", "TL load", XT_DOUBLE, NULL, 0, 1, NULL,
                "TL load 0..1; empty: the scenario's own" },
  [XA_INJECT] = { XC_IF_GEN, "inject", "Inject violations", XT_MULTICHECK, NULL, 0, 0, "Injections",
                  "Rules to break on purpose (ualink-gen --list-injections)" },
  [XA_INJECT_AT] = { XC_IF_GEN, "inject-at", "Inject at or after frame", XT_UNSIGNED, "0", 0, U32MAX, "Injections",
                     "0: at the first chance" },
  [XA_COUNT] = { XC_IF_GEN, "count", "Records", XT_UNSIGNED, "0", 0, U32MAX, NULL,
                 "Stop after about this many records; 0: the scenario's own length" },
  [XA_PACE] = { XC_IF_GEN, "pace", "Pace (records/s)", XT_UNSIGNED, "1000", 0, 10000000, NULL,
                "Records per second handed to Wireshark; 0: as fast as it reads" },
  [XA_TRUTH] = { XC_IF_GEN, "truth", "Ground truth file", XT_FILE_OUT, NULL, 0, 0, "Output",
                 "Write the generator's ground truth (JSON Lines) here" },
  [XA_GENERATOR] = { XC_IF_GEN, "generator", "ualink-gen program", XT_FILE_IN, NULL, 0, 0, "Advanced",
                     "Empty: $UALINK_GEN, then next to ualink-extcap, then the bin folder, then PATH" },
  [XA_PORT] = { XC_IF_UDP, "port", "UDP port", XT_UNSIGNED, "17762", 1, 65535, NULL,
                "The port ualink-gen --udp and capture hardware send records to" },
  [XA_ADDRESS] = { XC_IF_UDP, "address", "Listen address", XT_STRING, "127.0.0.1", 0, 0, NULL,
                   "Local address to listen on (0.0.0.0 or :: for every interface)" },
};

static const char *const widths[] = { "1", "2", "4", "8", NULL };

const char *xc_fixed_value(enum xc_argid a, unsigned i) {
  if (a == XA_RATE) return i < 7 ? ual_rate_name(i + 1) : NULL;
  if (a == XA_WIDTH) return i < 4 ? widths[i] : NULL;
  return NULL;
}

const char *xc_fixed_display_fmt(enum xc_argid a) { return a == XA_RATE ? "%s GT/s" : a == XA_WIDTH ? "x%s" : "%s"; }

static int fail(char *err, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, cap, fmt, ap);
  va_end(ap);
  return -1;
}

/* ---- capture filter ---- */

static const struct { const char *name; unsigned kind; } kind_terms[] = {
  { "flit", UAL_REC_FLIT }, { "os", UAL_REC_OS }, { "event", UAL_REC_EVENT },
};

int xc_filter_parse(struct xc_filter *f, const char *text, char *err, size_t cap) {
  memset(f, 0, sizeof *f);
  f->any_link = true;
  char buf[1024];
  if (!text) return 0;
  if (strlen(text) >= sizeof buf) return fail(err, cap, "capture filter is too long");
  snprintf(buf, sizeof buf, "%s", text);
  for (char *save = NULL, *t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
    if (!strcmp(t, "a") || !strcmp(t, "A")) { f->dirs |= 1; continue; }
    if (!strcmp(t, "b") || !strcmp(t, "B")) { f->dirs |= 2; continue; }
    bool kind = false;
    for (size_t i = 0; i < sizeof kind_terms / sizeof kind_terms[0]; i++)
      if (!strcmp(t, kind_terms[i].name)) { f->kinds |= (uint8_t)(1u << kind_terms[i].kind); kind = true; }
    if (kind) continue;
    if (!strcmp(t, "link")) {
      char *n = strtok_r(NULL, " \t", &save), *end;
      if (!n) return fail(err, cap, "capture filter: 'link' needs a number 0..255");
      errno = 0;
      unsigned long v = strtoul(n, &end, 10);
      if (errno || *end || end == n || !isdigit((unsigned char)n[0]) || v > 255)
        return fail(err, cap, "capture filter: bad link number '%s' (0..255)", n);
      f->any_link = false;
      f->links[v / 64] |= 1ull << (v % 64);
      continue;
    }
    return fail(err, cap, "capture filter: unknown term '%s' (a, b, flit, os, event, link N)", t);
  }
  return 0;
}

bool xc_filter_match(const struct xc_filter *f, const uint8_t *rec, size_t len) {
  if (f->dirs && (len < 3 || !(f->dirs & ((rec[2] & UAL_RF_DIR_B) ? 2 : 1)))) return false;
  if (f->kinds && (len < 2 || rec[1] > 7 || !(f->kinds & (1u << rec[1])))) return false;
  if (!f->any_link && (len < 4 || !(f->links[rec[3] / 64] & (1ull << (rec[3] % 64))))) return false;
  return true;
}

/* ---- command line ---- */

static bool parse_unsigned(const char *s, double lo, double hi, uint64_t *out) {
  if (!*s) return false;
  for (const char *p = s; *p; p++)
    if (!isdigit((unsigned char)*p)) return false;
  errno = 0;
  unsigned long long v = strtoull(s, NULL, 10);
  if (errno || (double)v < lo || (double)v > hi) return false;
  *out = v;
  return true;
}

static bool parse_double(const char *s, double lo, double hi, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi) return false;
  *out = v;
  return true;
}

/* Lower-case names (the generator checks they exist). */
static bool is_name(const char *s) {
  if (!*s) return false;
  for (; *s; s++)
    if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-' && *s != '_') return false;
  return true;
}

/* RULE[,RULE...] with RULE = upper-case letters, digits and '-'; empty = none. */
static bool is_rule_list(const char *s) {
  bool need = false, empty = !*s;
  for (; *s; s++) {
    if (*s == ',') { if (!need) return false; need = false; continue; }
    if (!isupper((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-') return false;
    need = true;
  }
  return empty || need;
}

static int check_value(const struct xc_arg *a, enum xc_argid id, const char *v, struct xc_conf *c, char *err,
                       size_t cap) {
  switch (a->type) {
  case XT_UNSIGNED:
    if (!parse_unsigned(v, a->lo, a->hi, &c->u[id]))
      return fail(err, cap, "--%s: '%s' is not a whole number in %.0f..%.0f", a->call, v, a->lo, a->hi);
    return 0;
  case XT_DOUBLE:
    if (!parse_double(v, a->lo, a->hi, &c->d[id]))
      return fail(err, cap, "--%s: '%s' is not a number in %g..%g", a->call, v, a->lo, a->hi);
    return 0;
  case XT_SELECTOR:
    if (xc_fixed_value(id, 0)) {
      for (unsigned i = 0; xc_fixed_value(id, i); i++)
        if (!strcmp(v, xc_fixed_value(id, i))) return 0;
      char list[128] = "";
      for (unsigned i = 0; xc_fixed_value(id, i); i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", xc_fixed_value(id, i));
      return fail(err, cap, "--%s: '%s' is not one of %s", a->call, v, list);
    }
    if (!is_name(v)) return fail(err, cap, "--%s: '%s' is not a name", a->call, v);
    return 0;
  case XT_MULTICHECK:
    if (!is_rule_list(v)) return fail(err, cap, "--%s: '%s' is not a comma-separated list of rule IDs", a->call, v);
    return 0;
  case XT_FILE_IN:
  case XT_FILE_OUT:
    if (!*v) return fail(err, cap, "--%s: empty file name", a->call);
    return 0;
  case XT_STRING:
    if (!*v || strlen(v) > 255) return fail(err, cap, "--%s: '%s' is not an address", a->call, v);
    for (const char *p = v; *p; p++)
      if (isspace((unsigned char)*p)) return fail(err, cap, "--%s: '%s' is not an address", a->call, v);
    return 0;
  }
  return 0;
}

enum {
  O_INTERFACES = 1000, O_DLTS, O_CONFIG, O_INTERFACE, O_CAPTURE, O_FIFO, O_FILTER, O_EXT_VERSION, O_HELP,
  O_VERSION, O_IGNORED_ARG, O_IGNORED_FLAG, O_TABLE = 2000
};

int xc_parse(struct xc_conf *c, int argc, char **argv, char *err, size_t cap) {
  memset(c, 0, sizeof *c);
  c->iface = XC_IF_NONE;
  static const struct option fixed[] = {
    { "extcap-interfaces", no_argument, NULL, O_INTERFACES }, { "extcap-dlts", no_argument, NULL, O_DLTS },
    { "extcap-config", no_argument, NULL, O_CONFIG }, { "extcap-interface", required_argument, NULL, O_INTERFACE },
    { "capture", no_argument, NULL, O_CAPTURE }, { "fifo", required_argument, NULL, O_FIFO },
    { "extcap-capture-filter", required_argument, NULL, O_FILTER },
    { "extcap-version", optional_argument, NULL, O_EXT_VERSION }, { "help", no_argument, NULL, O_HELP },
    { "version", no_argument, NULL, O_VERSION },
    /* what Wireshark may add for logging and toolbars; this program offers neither */
    { "debug", no_argument, NULL, O_IGNORED_FLAG }, { "debug-file", required_argument, NULL, O_IGNORED_ARG },
    { "log-level", required_argument, NULL, O_IGNORED_ARG }, { "log-file", required_argument, NULL, O_IGNORED_ARG },
    { "extcap-control-in", required_argument, NULL, O_IGNORED_ARG },
    { "extcap-control-out", required_argument, NULL, O_IGNORED_ARG },
  };
  enum { NFIXED = sizeof fixed / sizeof fixed[0] };
  struct option opts[NFIXED + XA_COUNT_ARGS + 1];
  memcpy(opts, fixed, sizeof fixed);
  for (int i = 0; i < XA_COUNT_ARGS; i++)
    opts[NFIXED + i] = (struct option){ xc_args[i].call, required_argument, NULL, O_TABLE + i };
  opts[NFIXED + XA_COUNT_ARGS] = (struct option){ NULL, 0, NULL, 0 };

  bool interfaces = false, dlts = false, config = false, capture = false, help = false, version = false;
  bool ext_version_alone = false, given[XA_COUNT_ARGS] = { false };
  const char *iface = NULL;
  optind = 0;                       /* glibc: start over (the tests parse many command lines) */
  opterr = 0;
  int o;
  while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    switch (o) {
    case O_INTERFACES: interfaces = true; break;
    case O_DLTS: dlts = true; break;
    case O_CONFIG: config = true; break;
    case O_INTERFACE: iface = optarg; break;
    case O_CAPTURE: capture = true; break;
    case O_FIFO: c->fifo = optarg; break;
    case O_FILTER: c->filter_text = optarg; break;
    case O_EXT_VERSION: ext_version_alone = !optarg; break;
    case 'h': case O_HELP: help = true; break;
    case O_VERSION: version = true; break;
    case O_IGNORED_ARG: case O_IGNORED_FLAG: break;
    case '?':
      if (optopt && optopt < O_INTERFACES) return fail(err, cap, "unknown option -%c", optopt);
      if (optopt) return fail(err, cap, "%s needs a value", argv[optind - 1]);
      return fail(err, cap, "unknown option %s", argv[optind - 1]);
    default: {
      int id = o - O_TABLE;
      if (check_value(&xc_args[id], (enum xc_argid)id, optarg, c, err, cap) != 0) return -1;
      c->val[id] = optarg;
      given[id] = true;
    }
    }
  }
  if (optind < argc) return fail(err, cap, "unexpected argument %s", argv[optind]);

  if (help) c->mode = XM_HELP;
  else if (interfaces) c->mode = XM_INTERFACES;
  else if (dlts) c->mode = XM_DLTS;
  else if (config) c->mode = XM_CONFIG;
  else if (capture) c->mode = XM_CAPTURE;
  else if (c->filter_text) c->mode = XM_FILTER;
  else if (version || ext_version_alone) c->mode = XM_VERSION;
  else return fail(err, cap, "nothing to do: give --extcap-interfaces, --extcap-config or --capture (see --help)");
  if (c->mode == XM_HELP || c->mode == XM_INTERFACES || c->mode == XM_VERSION) return 0;

  if (!iface) return fail(err, cap, "--extcap-interface is missing");
  c->iface = xc_iface_lookup(iface);
  if (c->iface == XC_IF_NONE)
    return fail(err, cap, "unknown interface '%s' (%s or %s)", iface, iface_names[0], iface_names[1]);
  if (xc_filter_parse(&c->filter, c->filter_text, err, cap) != 0) return c->mode == XM_FILTER ? 0 : -1;
  if (c->mode != XM_CAPTURE) return 0;
  if (!c->fifo || !*c->fifo) return fail(err, cap, "--capture needs --fifo PATH");
  for (int i = 0; i < XA_COUNT_ARGS; i++) {
    if (given[i] && xc_args[i].iface != c->iface)
      return fail(err, cap, "--%s is not an option of %s", xc_args[i].call, iface_names[c->iface]);
    if (!given[i] && xc_args[i].iface == c->iface && xc_args[i].deflt) {
      c->val[i] = xc_args[i].deflt;
      if (check_value(&xc_args[i], (enum xc_argid)i, c->val[i], c, err, cap) != 0) return -1;
    }
  }
  return 0;
}

int xc_gen_argv(const struct xc_conf *c, const char *gen, uint64_t start_ns, char **argv, size_t cap,
                char *strbuf, size_t strcap) {
  size_t n = 0, used = 0;
#define PUSH(s) do { if (n + 1 >= cap) return -1; argv[n++] = (char *)(s); } while (0)
  PUSH(gen);
  PUSH("-q");
  PUSH("-w");
  PUSH("-");
  if (strcmp(c->val[XA_SCENARIO], XC_SCENARIO_AUTO) != 0) { PUSH("-s"); PUSH(c->val[XA_SCENARIO]); }
  PUSH("--seed"); PUSH(c->val[XA_SEED]);
  PUSH("--rate"); PUSH(c->val[XA_RATE]);
  PUSH("--width"); PUSH(c->val[XA_WIDTH]);
  if (c->val[XA_LOAD]) { PUSH("--load"); PUSH(c->val[XA_LOAD]); }
  if (c->u[XA_COUNT]) { PUSH("-c"); PUSH(c->val[XA_COUNT]); }
  if (c->val[XA_TRUTH]) { PUSH("--truth"); PUSH(c->val[XA_TRUTH]); }
  char *start = strbuf + used;
  int k = snprintf(start, strcap - used, "%llu", (unsigned long long)start_ns);
  if (k < 0 || (size_t)k >= strcap - used) return -1;
  used += (size_t)k + 1;
  PUSH("--start-ns"); PUSH(start);
  if (c->val[XA_INJECT] && *c->val[XA_INJECT]) {
    /* RULE@N for every rule when a frame is given */
    char *list = strbuf + used;
    size_t len = 0;
    const char *s = c->val[XA_INJECT];
    while (*s) {
      size_t tok = strcspn(s, ",");
      k = c->u[XA_INJECT_AT] ? snprintf(list + len, strcap - used - len, "%s%.*s@%llu", len ? "," : "", (int)tok, s,
                                        (unsigned long long)c->u[XA_INJECT_AT])
                             : snprintf(list + len, strcap - used - len, "%s%.*s", len ? "," : "", (int)tok, s);
      if (k < 0 || (size_t)k >= strcap - used - len) return -1;
      len += (size_t)k;
      s += tok + (s[tok] == ',');
    }
    used += len + 1;
    PUSH("--inject"); PUSH(list);
  }
#undef PUSH
  argv[n] = NULL;
  return 0;
}

/* ---- listings ---- */

/* Wireshark's parser takes '{' and '}' as delimiters. */
static void put_text(FILE *out, const char *s, size_t n) {
  for (size_t i = 0; i < n && s[i]; i++) {
    char ch = s[i];
    fputc(ch == '{' ? '(' : ch == '}' ? ')' : (unsigned char)ch < 0x20 ? ' ' : ch, out);
  }
}

static void print_arg_head(FILE *out, int num, const struct xc_arg *a) {
  static const char *const types[] = { [XT_UNSIGNED] = "unsigned", [XT_DOUBLE] = "double",
                                       [XT_SELECTOR] = "selector", [XT_MULTICHECK] = "multicheck",
                                       [XT_FILE_IN] = "fileselect", [XT_FILE_OUT] = "fileselect",
                                       [XT_STRING] = "string" };
  fprintf(out, "arg {number=%d}{call=--%s}{display=%s}{type=%s}", num, a->call, a->display, types[a->type]);
  if (a->type == XT_UNSIGNED || a->type == XT_DOUBLE) fprintf(out, "{range=%.17g,%.17g}", a->lo, a->hi);
  if (a->type == XT_FILE_IN) fputs("{mustexist=true}", out);
  if (a->type == XT_FILE_OUT) fputs("{mustexist=false}", out);
  if (a->deflt && a->type != XT_SELECTOR) fprintf(out, "{default=%s}", a->deflt);
  fputs("{tooltip=", out);
  put_text(out, a->tooltip, strlen(a->tooltip));
  fputc('}', out);
  if (a->group) fprintf(out, "{group=%s}", a->group);
  fputc('\n', out);
}

/* Each line of a listing: its first word, then (after spaces) the second
 * word and the rest. fn gets word and rest. */
static void each_line(const char *text, void (*fn)(FILE *, int, const char *, size_t, const char *, size_t),
                      FILE *out, int num) {
  for (const char *l = text; l && *l;) {
    size_t len = strcspn(l, "\n");
    size_t w = strcspn(l, " \t\n");
    const char *rest = l + w;
    while (rest < l + len && (*rest == ' ' || *rest == '\t')) rest++;
    if (w) fn(out, num, l, w, rest, (size_t)(l + len - rest));
    l += len + (l[len] == '\n');
  }
}

static void scenario_value(FILE *out, int num, const char *w, size_t wn, const char *rest, size_t rn) {
  fprintf(out, "value {arg=%d}{value=", num);
  put_text(out, w, wn);
  fputs("}{display=", out);
  put_text(out, w, wn);
  if (rn) {
    fputs(": ", out);
    put_text(out, rest, rn > 80 ? 80 : rn);
    if (rn > 80) fputs("...", out);
  }
  fputs("}\n", out);
}

/* "RULE  severity scenario how": display "RULE: how", tooltip "severity; scenario". */
static void inject_value(FILE *out, int num, const char *w, size_t wn, const char *rest, size_t rn) {
  const char *word[2], *how = rest, *end = rest + rn;
  size_t len[2];
  for (int i = 0; i < 2; i++) {
    while (how < end && (*how == ' ' || *how == '\t')) how++;
    word[i] = how;
    while (how < end && *how != ' ' && *how != '\t') how++;
    len[i] = (size_t)(how - word[i]);
  }
  while (how < end && (*how == ' ' || *how == '\t')) how++;
  fprintf(out, "value {arg=%d}{value=", num);
  put_text(out, w, wn);
  fputs("}{display=", out);
  put_text(out, w, wn);
  if (how < end) {
    fputs(": ", out);
    put_text(out, how, (size_t)(end - how));
  }
  fputs("}{enabled=true}{tooltip=", out);
  put_text(out, word[0], len[0]);
  fputs("; scenario ", out);
  put_text(out, word[1], len[1]);
  fputs("}\n", out);
}

void xc_print_config(FILE *out, int iface, const char *scenarios, const char *injections) {
  int num = 0;
  for (int i = 0; i < XA_COUNT_ARGS; i++) {
    const struct xc_arg *a = &xc_args[i];
    if (a->iface != iface) continue;
    print_arg_head(out, num, a);
    if (i == XA_SCENARIO) {
      fprintf(out, "value {arg=%d}{value=%s}{display=Default: traffic, or what the first injection needs}{default=true}\n",
              num, XC_SCENARIO_AUTO);
      each_line(scenarios, scenario_value, out, num);
    } else if (i == XA_INJECT) {
      each_line(injections, inject_value, out, num);
    } else if (a->type == XT_SELECTOR) {
      for (unsigned k = 0; xc_fixed_value((enum xc_argid)i, k); k++) {
        const char *v = xc_fixed_value((enum xc_argid)i, k);
        fprintf(out, "value {arg=%d}{value=%s}{display=", num, v);
        fprintf(out, xc_fixed_display_fmt((enum xc_argid)i), v);
        fprintf(out, "}%s\n", a->deflt && !strcmp(a->deflt, v) ? "{default=true}" : "");
      }
    }
    num++;
  }
}

void xc_print_interfaces(FILE *out, const char *help_url) {
  fprintf(out, "extcap {version=%s}{help=%s}\n", UAL_VERSION_STRING, help_url);
  for (int i = 0; i < XC_IF_COUNT; i++) fprintf(out, "interface {value=%s}{display=%s}\n", iface_names[i], iface_displays[i]);
}

void xc_print_dlts(FILE *out, int iface) {
  (void)iface;   /* both interfaces give capture records */
  fprintf(out, "dlt {number=%d}{name=USER0}{display=UALink capture records (LINKTYPE_USER0)}\n", UAL_DLT_USER0);
}
