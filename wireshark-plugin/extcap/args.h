/* ualink-extcap: its interfaces, the configuration arguments of each (one
 * table: the --extcap-config listing, the defaults and the validation of a
 * capture's command line all come from it) and the capture filter. No I/O
 * here, so the unit test drives it directly. */
#ifndef UALINK_EXTCAP_ARGS_H
#define UALINK_EXTCAP_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum xc_iface { XC_IF_GEN, XC_IF_UDP, XC_IF_COUNT, XC_IF_NONE = -1 };

const char *xc_iface_name(int iface);     /* the interface's value, e.g. "ualink-generator" */
const char *xc_iface_display(int iface);
int xc_iface_lookup(const char *name);    /* XC_IF_NONE when unknown */

enum xc_type { XT_UNSIGNED, XT_DOUBLE, XT_SELECTOR, XT_MULTICHECK, XT_FILE_IN, XT_FILE_OUT, XT_STRING };

/* The configuration arguments, in dialog order. */
enum xc_argid {
  XA_SCENARIO, XA_SEED, XA_RATE, XA_WIDTH, XA_LOAD, XA_INJECT, XA_INJECT_AT, XA_COUNT, XA_PACE, XA_TRUTH,
  XA_GENERATOR, XA_PORT, XA_ADDRESS, XA_COUNT_ARGS
};

struct xc_arg {
  int iface;
  const char *call;           /* without the leading "--" */
  const char *display;
  enum xc_type type;
  const char *deflt;          /* NULL: not passed on unless given */
  double lo, hi;              /* XT_UNSIGNED / XT_DOUBLE range */
  const char *group;          /* NULL: the dialog's first tab */
  const char *tooltip;
};

extern const struct xc_arg xc_args[XA_COUNT_ARGS];

/* Values of a selector with a fixed list (NULL for the scenario and the
 * injections, which the generator lists); display format "%s ...". */
const char *xc_fixed_value(enum xc_argid a, unsigned i);   /* NULL past the end */
const char *xc_fixed_display_fmt(enum xc_argid a);

#define XC_SCENARIO_AUTO "auto"

/* Capture filter: space-separated terms; a record passes when it matches one
 * term of every category given. Terms: a, b (direction), flit, os, event
 * (kind), link N (0..255). */
struct xc_filter {
  uint8_t dirs;               /* bit 0 side A, bit 1 side B; 0 = any */
  uint8_t kinds;              /* bit k = record kind k; 0 = any */
  bool any_link;
  uint64_t links[4];          /* bit n = link n */
};

int xc_filter_parse(struct xc_filter *f, const char *text, char *err, size_t cap);
bool xc_filter_match(const struct xc_filter *f, const uint8_t *rec, size_t len);

enum xc_mode { XM_NONE, XM_INTERFACES, XM_DLTS, XM_CONFIG, XM_CAPTURE, XM_FILTER, XM_VERSION, XM_HELP };

struct xc_conf {
  enum xc_mode mode;
  int iface;
  const char *fifo;
  const char *filter_text;
  struct xc_filter filter;
  const char *val[XA_COUNT_ARGS];   /* given, else the default, else NULL */
  uint64_t u[XA_COUNT_ARGS];        /* XT_UNSIGNED values */
  double d[XA_COUNT_ARGS];          /* XT_DOUBLE values */
};

/* Parses and validates a command line as Wireshark gives it. 0 when valid;
 * else -1 with a message naming the argument in err. */
int xc_parse(struct xc_conf *c, int argc, char **argv, char *err, size_t cap);

/* The generator's command line for a capture (after xc_parse): argv[0] is
 * gen, then the options; at most cap - 1 entries, NULL-terminated. strbuf
 * holds the strings made here. -1 when it does not fit. */
int xc_gen_argv(const struct xc_conf *c, const char *gen, uint64_t start_ns, char **argv, size_t cap,
                char *strbuf, size_t strcap);

/* --extcap-config lines of one interface. scenarios / injections: the
 * generator's --list-scenarios / --list-injections output (may be NULL). */
void xc_print_config(FILE *out, int iface, const char *scenarios, const char *injections);
void xc_print_interfaces(FILE *out, const char *help_url);
void xc_print_dlts(FILE *out, int iface);

#endif
