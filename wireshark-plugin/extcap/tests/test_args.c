/* ualink-extcap's command line: validation, defaults, the generator's
 * command line, the capture filter and the --extcap-config listing. */
#include "args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); failures++; } } while (0)

#define MAXA 32

/* Splits a command line at spaces; '' is an empty argument, '+' a space inside one. */
static int split(char *line, char **argv) {
  int n = 0;
  argv[n++] = "ualink-extcap";
  for (char *save = NULL, *t = strtok_r(line, " ", &save); t && n < MAXA - 1; t = strtok_r(NULL, " ", &save))
  {
    for (char *p = t; *p; p++)
      if (*p == '+') *p = ' ';
    argv[n++] = strcmp(t, "''") ? t : "";
  }
  argv[n] = NULL;
  return n;
}

static int parse(struct xc_conf *c, const char *cmd, char *err, size_t cap) {
  static char buf[1024];
  char *argv[MAXA];
  snprintf(buf, sizeof buf, "%s", cmd);
  int argc = split(buf, argv);
  err[0] = 0;
  return xc_parse(c, argc, argv, err, cap);
}

#define GEN "--extcap-interface ualink-generator --capture --fifo /tmp/f "
#define UDP "--extcap-interface ualink-udp --capture --fifo /tmp/f "

static const struct { const char *cmd; const char *want_err; } cases[] = {
  /* protocol calls Wireshark makes */
  { "--extcap-interfaces", NULL },
  { "--extcap-interfaces --extcap-version=4.0.17", NULL },
  { "--extcap-version", NULL },
  { "--extcap-interface ualink-generator --extcap-dlts", NULL },
  { "--extcap-interface ualink-udp --extcap-config", NULL },
  { "--extcap-capture-filter a --extcap-interface ualink-udp", NULL },
  { GEN, NULL },
  { UDP, NULL },
  { GEN "--extcap-capture-filter b+flit+link+3", NULL },
  { GEN "--debug --log-level debug --log-file /tmp/x", NULL },
  /* what is wrong and where */
  { "", "nothing to do" },
  { "--extcap-dlts", "--extcap-interface is missing" },
  { "--extcap-interface eth0 --extcap-dlts", "unknown interface 'eth0'" },
  { "--extcap-interface ualink-generator --capture", "--capture needs --fifo" },
  { "--bogus", "unknown option --bogus" },
  { "--extcap-interfaces stray", "unexpected argument stray" },
  { GEN "--seed", "--seed needs a value" },
  { GEN "--seed -1", "--seed: '-1' is not a whole number in 0..4294967295" },
  { GEN "--seed 4294967296", "--seed: '4294967296' is not a whole number" },
  { GEN "--seed 12x", "--seed: '12x'" },
  { GEN "--seed ''", "--seed: ''" },
  { GEN "--pace 10000001", "--pace: '10000001' is not a whole number in 0..10000000" },
  { GEN "--rate 100", "--rate: '100' is not one of 2.5, 32.0, 64.0, 104, 112, 120, 128" },
  { GEN "--width 3", "--width: '3' is not one of 1, 2, 4, 8" },
  { GEN "--load 1.5", "--load: '1.5' is not a number in 0..1" },
  { GEN "--load nan", "--load: 'nan'" },
  { GEN "--load 0.5x", "--load: '0.5x'" },
  { GEN "--scenario Traffic", "--scenario: 'Traffic' is not a name" },
  { GEN "--inject DL-TLBEAT,,PL-CRC", "--inject: 'DL-TLBEAT,,PL-CRC' is not a comma-separated list of rule IDs" },
  { GEN "--inject dl-tlbeat", "--inject: 'dl-tlbeat'" },
  { GEN "--inject PL-CRC,", "--inject: 'PL-CRC,'" },
  { GEN "--port 5000", "--port is not an option of ualink-generator" },
  { UDP "--seed 3", "--seed is not an option of ualink-udp" },
  { UDP "--port 0", "--port: '0' is not a whole number in 1..65535" },
  { UDP "--port 65536", "--port: '65536'" },
  { UDP "--address ''", "--address: '' is not an address" },
  { GEN "--extcap-capture-filter c", "capture filter: unknown term 'c'" },
  { GEN "--extcap-capture-filter link", "capture filter: 'link' needs a number" },
  { GEN "--extcap-capture-filter link+256", "capture filter: bad link number '256'" },
  { GEN "--extcap-capture-filter link+-1", "capture filter: bad link number '-1'" },
};

static void test_cases(void) {
  char err[512];
  struct xc_conf c;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int rc = parse(&c, cases[i].cmd, err, sizeof err);
    if (!cases[i].want_err) {
      if (rc != 0) fprintf(stderr, "'%s': unexpected error: %s\n", cases[i].cmd, err);
      CHECK(rc == 0);
    } else {
      if (rc == 0 || !strstr(err, cases[i].want_err))
        fprintf(stderr, "'%s': want error '%s', got rc %d '%s'\n", cases[i].cmd, cases[i].want_err, rc, err);
      CHECK(rc != 0 && strstr(err, cases[i].want_err));
    }
  }
  printf("%zu command lines\n", sizeof cases / sizeof cases[0]);
}

static void test_modes(void) {
  char err[256];
  struct xc_conf c;
  CHECK(parse(&c, "--extcap-interfaces --extcap-version=4.0.17", err, sizeof err) == 0 && c.mode == XM_INTERFACES);
  CHECK(parse(&c, "--extcap-version", err, sizeof err) == 0 && c.mode == XM_VERSION);
  CHECK(parse(&c, "--extcap-interface ualink-udp --extcap-dlts", err, sizeof err) == 0 && c.mode == XM_DLTS &&
        c.iface == XC_IF_UDP);
  CHECK(parse(&c, "--extcap-capture-filter x --extcap-interface ualink-udp", err, sizeof err) == 0 &&
        c.mode == XM_FILTER);
  CHECK(parse(&c, GEN "--extcap-capture-filter a", err, sizeof err) == 0 && c.mode == XM_CAPTURE &&
        c.iface == XC_IF_GEN && !strcmp(c.fifo, "/tmp/f"));
}

/* Wireshark passes only what the user changed: the rest are the table's defaults. */
static void test_defaults(void) {
  char err[256];
  struct xc_conf c;
  CHECK(parse(&c, GEN, err, sizeof err) == 0);
  CHECK(!strcmp(c.val[XA_SCENARIO], "auto") && c.u[XA_SEED] == 1 && c.u[XA_PACE] == 1000 && c.u[XA_COUNT] == 0);
  CHECK(!strcmp(c.val[XA_RATE], "128") && !strcmp(c.val[XA_WIDTH], "8"));
  CHECK(!c.val[XA_LOAD] && !c.val[XA_INJECT] && !c.val[XA_TRUTH] && !c.val[XA_PORT]);
  CHECK(parse(&c, UDP, err, sizeof err) == 0);
  CHECK(c.u[XA_PORT] == 17762 && !strcmp(c.val[XA_ADDRESS], "127.0.0.1") && !c.val[XA_SEED]);
  CHECK(parse(&c, UDP "--port=40000 --address ::1", err, sizeof err) == 0);
  CHECK(c.u[XA_PORT] == 40000 && !strcmp(c.val[XA_ADDRESS], "::1"));
  CHECK(parse(&c, GEN "--load 0.25 --seed 4294967295 --pace 0", err, sizeof err) == 0);
  CHECK(c.d[XA_LOAD] == 0.25 && c.u[XA_SEED] == 4294967295ull && c.u[XA_PACE] == 0);
}

static void join(char **argv, char *out, size_t cap) {
  out[0] = 0;
  for (int i = 0; argv[i]; i++) snprintf(out + strlen(out), cap - strlen(out), "%s%s", i ? " " : "", argv[i]);
}

static void test_gen_argv(void) {
  char err[256], sbuf[512], line[1024];
  char *argv[48];
  struct xc_conf c;
  CHECK(parse(&c, GEN, err, sizeof err) == 0);
  CHECK(xc_gen_argv(&c, "/x/ualink-gen", 1700000000123456789ull, argv, 48, sbuf, sizeof sbuf) == 0);
  join(argv, line, sizeof line);
  CHECK(!strcmp(line, "/x/ualink-gen -q -w - --seed 1 --rate 128 --width 8 --start-ns 1700000000123456789"));
  CHECK(parse(&c, GEN "--scenario errors --seed 7 --rate 32.0 --width 4 --load 0.5 --count 2000 --truth /t.jsonl "
                  "--inject DL-TLBEAT,PL-CRC --inject-at 300", err, sizeof err) == 0);
  CHECK(xc_gen_argv(&c, "g", 5, argv, 48, sbuf, sizeof sbuf) == 0);
  join(argv, line, sizeof line);
  CHECK(!strcmp(line, "g -q -w - -s errors --seed 7 --rate 32.0 --width 4 --load 0.5 -c 2000 --truth /t.jsonl "
                      "--start-ns 5 --inject DL-TLBEAT@300,PL-CRC@300"));
  CHECK(parse(&c, GEN "--inject DL-TLBEAT", err, sizeof err) == 0);
  CHECK(xc_gen_argv(&c, "g", 5, argv, 48, sbuf, sizeof sbuf) == 0);
  join(argv, line, sizeof line);
  CHECK(strstr(line, " --inject DL-TLBEAT") && !strchr(line, '@'));
  /* too small buffers are refused, not overrun */
  CHECK(xc_gen_argv(&c, "g", 5, argv, 6, sbuf, sizeof sbuf) != 0);
  CHECK(xc_gen_argv(&c, "g", 5, argv, 48, sbuf, 8) != 0);
}

static void test_filter(void) {
  struct xc_filter f;
  char err[256];
  /* version, kind, flags (bit 0 = B), link */
  const uint8_t fa[] = { 1, 1, 0, 0 }, fb[] = { 1, 1, 1, 2 }, osb[] = { 1, 2, 1, 0 }, ev[] = { 1, 3, 0, 255 };
  CHECK(xc_filter_parse(&f, "", err, sizeof err) == 0);
  CHECK(xc_filter_match(&f, fa, 4) && xc_filter_match(&f, fa, 0));
  CHECK(xc_filter_parse(&f, "b", err, sizeof err) == 0);
  CHECK(!xc_filter_match(&f, fa, 4) && xc_filter_match(&f, fb, 4) && xc_filter_match(&f, osb, 4));
  CHECK(!xc_filter_match(&f, fb, 2));   /* too short to tell */
  CHECK(xc_filter_parse(&f, "a b", err, sizeof err) == 0);
  CHECK(xc_filter_match(&f, fa, 4) && xc_filter_match(&f, fb, 4));
  CHECK(xc_filter_parse(&f, "b flit", err, sizeof err) == 0);
  CHECK(xc_filter_match(&f, fb, 4) && !xc_filter_match(&f, osb, 4) && !xc_filter_match(&f, fa, 4));
  CHECK(xc_filter_parse(&f, "os  event", err, sizeof err) == 0);
  CHECK(!xc_filter_match(&f, fb, 4) && xc_filter_match(&f, osb, 4) && xc_filter_match(&f, ev, 4));
  CHECK(xc_filter_parse(&f, "link 2 link 255", err, sizeof err) == 0);
  CHECK(xc_filter_match(&f, fb, 4) && xc_filter_match(&f, ev, 4) && !xc_filter_match(&f, fa, 4) &&
        !xc_filter_match(&f, fb, 3));
  CHECK(xc_filter_parse(&f, "flit link", err, sizeof err) != 0);
  CHECK(xc_filter_parse(&f, "A", err, sizeof err) == 0 && xc_filter_match(&f, fa, 4));
}

/* Every arg line of the listing: its default passes validation, a value
 * past its range does not, and every selector value is accepted. */
static void test_config(void) {
  const char *scen = "bringup      Detect, Polling {x}\ntraffic      steady TL flits\n";
  const char *inj = "PL-CRC                   error    traffic     a CRC-64 bit flipped\n"
                    "DL-TLBEAT                error    traffic     invalid TLBeat code 01h\n";
  for (int iface = 0; iface < XC_IF_COUNT; iface++) {
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    xc_print_config(m, iface, scen, inj);
    fclose(m);
    unsigned args = 0, values = 0;
    char call[64] = "", err[256], cmd[512];
    struct xc_conf c;
    const char *pre = iface == XC_IF_GEN ? GEN : UDP;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
      CHECK(!strncmp(l, "arg {number=", 12) || !strncmp(l, "value {arg=", 11));
      /* braces balance: a '{' or '}' inside a text would break Wireshark's parser */
      int depth = 0;
      for (char *p = l; *p; p++) {
        if (*p == '{') { CHECK(depth == 0); depth++; }
        if (*p == '}') { CHECK(depth == 1); depth--; }
      }
      CHECK(depth == 0);
      if (!strncmp(l, "arg ", 4)) {
        args++;
        CHECK(sscanf(strstr(l, "{call=--") + 8, "%63[^}]", call) == 1);
        char *d = strstr(l, "{default=");
        if (d) {
          char v[64];
          CHECK(sscanf(d + 9, "%63[^}]", v) == 1);
          snprintf(cmd, sizeof cmd, "%s--%s %s", pre, call, v);
          CHECK(parse(&c, cmd, err, sizeof err) == 0);
        }
        char *r = strstr(l, "{range=");
        if (r) {
          double lo, hi;
          CHECK(sscanf(r + 7, "%lf,%lf", &lo, &hi) == 2);
          snprintf(cmd, sizeof cmd, "%s--%s %.0f", pre, call, hi + 1);
          CHECK(parse(&c, cmd, err, sizeof err) != 0);
          snprintf(cmd, sizeof cmd, "%s--%s %.17g", pre, call, hi);
          CHECK(parse(&c, cmd, err, sizeof err) == 0);
        }
      } else {
        values++;
        char v[64];
        CHECK(sscanf(strstr(l, "{value=") + 7, "%63[^}]", v) == 1);
        snprintf(cmd, sizeof cmd, "%s--%s %s", pre, call, v);
        if (parse(&c, cmd, err, sizeof err) != 0) fprintf(stderr, "value '%s': %s\n", cmd, err);
        CHECK(parse(&c, cmd, err, sizeof err) == 0);
      }
    }
    if (iface == XC_IF_GEN) CHECK(args == 11 && values == 3 + 2 + 7 + 4);   /* auto + 2 scenarios, 2 rules, rates, widths */
    else CHECK(args == 2 && values == 0);
    free(text);
  }
}

int main(void) {
  test_cases();
  test_modes();
  test_defaults();
  test_gen_argv();
  test_filter();
  test_config();
  if (failures) { fprintf(stderr, "%d check(s) failed\n", failures); return 1; }
  printf("ok\n");
  return 0;
}
