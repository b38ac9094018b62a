/* ualink-gen: the command line. */
#include "gen.h"
#include "ub.h"
#include "pcie.h"
#include "pciefm.h"
#include "pcienf.h"
#include "output.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_head[] =
  "usage: ualink-gen [options] -w FILE|-  [--udp HOST[:PORT]]\n"
  "Synthesizes two-direction UALink 128G, PCIe or UB data-link traffic as capture records\n"
  "(pcap, nanosecond timestamps, LINKTYPE_USER0) or UDP datagrams.\n"
  "\n"
  "  -s, --scenario NAME     one of the scenarios below (--list-scenarios: what each shows);\n"
  "                          default traffic, or what the first --inject needs\n";

static const char usage[] =
  "  -w, --write FILE        write a pcap file; - writes to standard output\n"
  "      --udp HOST[:PORT]   send each record as one UDP datagram (default port 17762)\n"
  "      --rate-limit N      at most N datagrams per second (default: the capture's own pace)\n"
  "  -c, --count N           stop after about N records (the TL flit and messages in\n"
  "                          flight are finished first); --flits is the same\n"
  "      --duration T        stop after T of link time (ns, us, ms or s suffix)\n"
  "      --seed N            random seed; the same seed gives the same bytes (default 1)\n"
  "      --load X            TL load 0..1\n"
  "      --ber X             bit error rate (errors scenario default 2e-6)\n"
  "      --rate R            final link rate: 2.5, 32, 64, 104, 112, 120, 128 (default 128);\n"
  "                          pcie-gen1 2.5 or 5.0, pcie-gen3 8.0, 16.0 or 32\n"
  "      --width W           lanes: 1, 2, 4, 8 (default 8)\n"
  "      --peer switch|accel side B is a switch (default) or a second accelerator\n"
  "      --nak standard|selective|alternate\n"
  "                          how receivers ask for replays (default alternate)\n"
  "      --inject RULE[@N][,RULE[@N]...]\n"
  "                          break one rule on purpose, at the first chance at or after\n"
  "                          frame N; see --list-injections\n"
  "      --truth FILE        ground truth as JSON Lines (frame, dir, rule, source);\n"
  "                          with --inject and -w FILE it defaults to FILE.truth.jsonl;\n"
  "      --tlp-truth FILE    PCIe flit mode: every non-posted request and completion\n"
  "                          as JSON Lines (frame it ends in, link, dir, type, ID, tag)\n"
  "                          a scenario with a topology profile writes the ualink-decode\n"
  "                          options it needs to FILE.decode-args\n"
  "      --list-injections   the rules that can be injected, and how\n"
  "      --list-scenarios    the scenarios\n"
  "      --latency NS        receiver turnaround (default 20)\n"
  "      --train-os N        ordered sets per training state (default 8)\n"
  "      --run-scale X       scale the scenario's stretches of plain traffic (0.1 = compact)\n"
  "      --start-ns NS       timestamp of the first record (default 2025-01-01T00:00:00Z)\n"
  "  -q, --quiet             no progress line\n"
  "  -h, --help              this text\n"
  "      --version\n";

enum {
  O_UDP = 256, O_RATE_LIMIT, O_DURATION, O_SEED, O_LOAD, O_BER, O_RATE, O_WIDTH, O_PEER, O_NAK,
  O_INJECT, O_TRUTH, O_TLP_TRUTH, O_LIST_INJ, O_LIST_SC, O_LATENCY, O_TRAIN_OS, O_START, O_VERSION, O_RUN_SCALE
};

static const struct option longopts[] = {
  { "scenario", required_argument, NULL, 's' }, { "write", required_argument, NULL, 'w' },
  { "count", required_argument, NULL, 'c' }, { "flits", required_argument, NULL, 'c' },
  { "udp", required_argument, NULL, O_UDP }, { "rate-limit", required_argument, NULL, O_RATE_LIMIT },
  { "duration", required_argument, NULL, O_DURATION }, { "seed", required_argument, NULL, O_SEED },
  { "load", required_argument, NULL, O_LOAD }, { "ber", required_argument, NULL, O_BER },
  { "rate", required_argument, NULL, O_RATE }, { "width", required_argument, NULL, O_WIDTH },
  { "peer", required_argument, NULL, O_PEER }, { "nak", required_argument, NULL, O_NAK },
  { "inject", required_argument, NULL, O_INJECT }, { "truth", required_argument, NULL, O_TRUTH },
  { "tlp-truth", required_argument, NULL, O_TLP_TRUTH },
  { "list-injections", no_argument, NULL, O_LIST_INJ }, { "list-scenarios", no_argument, NULL, O_LIST_SC },
  { "latency", required_argument, NULL, O_LATENCY }, { "train-os", required_argument, NULL, O_TRAIN_OS },
  { "start-ns", required_argument, NULL, O_START }, { "run-scale", required_argument, NULL, O_RUN_SCALE }, { "quiet", no_argument, NULL, 'q' },
  { "help", no_argument, NULL, 'h' }, { "version", no_argument, NULL, O_VERSION },
  { NULL, 0, NULL, 0 }
};

static void die(const char *fmt, const char *arg) {
  fprintf(stderr, "ualink-gen: ");
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  exit(2);
}

/* A file the records or the ground truth could not be written to: exit 1. */
static int write_error(const struct gen_writer *w) {
  fprintf(stderr, "ualink-gen: %s: %s\n", w->werr_path ? w->werr_path : "output", strerror(w->werr ? w->werr : EIO));
  return 1;
}

/* After --help or a listing: 0, or 1 when standard output could not take it. */
static int stdout_done(void) {
  int before = errno; /* a large write goes past the buffer: its failure left errno */
  int err = fflush(stdout) != 0 ? errno : ferror(stdout) ? (before ? before : EIO) : 0;
  if (!err) return 0;
  fprintf(stderr, "ualink-gen: standard output: %s\n", strerror(err));
  return 1;
}

/* Every bad option is reported on a line of its own, then the run stops. */
static unsigned bad_args;

static bool bad(const char *opt, const char *val, const char *why) {
  fprintf(stderr, "ualink-gen: %s: '%s' %s\n", opt, val, why);
  bad_args++;
  return false;
}

static bool parse_u64(const char *s, const char *opt, uint64_t *v) {
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 0);
  if (errno || end == s || *end || *s == '-') return bad(opt, s, "is not a number");
  *v = x;
  return true;
}

static bool parse_double(const char *s, const char *opt, double lo, double hi, const char *range, double *v) {
  char *end;
  double x = strtod(s, &end);
  if (end == s || *end || x != x) return bad(opt, s, "is not a number");
  if (x < lo || x > hi) return bad(opt, s, range);
  *v = x;
  return true;
}

static bool parse_duration_ps(const char *s, uint64_t *ps) {
  char *end;
  double v = strtod(s, &end);
  if (end == s || !(v >= 0)) return bad("--duration", s, "is not a duration (a number with ps, ns, us, ms or s)");
  double mult = 1e3;                          /* plain numbers are ns */
  if (!strcmp(end, "ps")) mult = 1;
  else if (!strcmp(end, "ns") || !*end) mult = 1e3;
  else if (!strcmp(end, "us")) mult = 1e6;
  else if (!strcmp(end, "ms")) mult = 1e9;
  else if (!strcmp(end, "s")) mult = 1e12;
  else return bad("--duration", s, "has an unknown unit (ps, ns, us, ms, s)");
  *ps = (uint64_t)(v * mult);
  return true;
}

/* The record's rate codes: UALink's, and PCIe's 5.0, 8.0, 16.0 (pcie-gen1, pcie-gen3). */
static bool parse_rate(const char *s, unsigned *rate) {
  static const char *const names[] = { NULL, "2.5", "32", "64", "104", "112", "120", "128", "5", "8", "16" };
  for (unsigned i = 1; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(s, names[i]) || (ual_rate_name(i) && !strcmp(s, ual_rate_name(i)))) {
      *rate = i;
      return true;
    }
  return bad("--rate", s, "is not 2.5, 5.0, 8.0, 16.0, 32, 64, 104, 112, 120 or 128");
}

static void parse_inject(struct gen_opts *o, const char *arg) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", arg);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    if (o->n_inject >= GEN_MAX_INJECT) {
      bad("--inject", tok, "is one too many (at most 16 injections)");
      return;
    }
    char *at = strchr(tok, '@');
    uint64_t frame = GEN_AT_DEFAULT;
    if (at) {
      *at = 0;
      if (!parse_u64(at + 1, "--inject RULE@N", &frame)) continue;
    }
    int r = ual_rule_lookup(tok);
    if (r < 0) { bad("--inject", tok, "is not a rule ID (see --list-injections)"); continue; }
    if (!gen_inject_supported(r) && !gen_pcie_inject_supported(r) && !gen_pciefm_inject_supported(r) &&
        !gen_pcienf_inject_supported(r) && !ub_inject_supported(r)) { bad("--inject", tok, "cannot be injected (see --list-injections)"); continue; }
    o->inject[o->n_inject].rule = r;
    o->inject[o->n_inject].at_frame = frame;
    o->n_inject++;
  }
}

static void list_injections(void) {
  for (int r = 0; r < UAL_R_COUNT; r++) {
    const char *how = gen_inject_how(r);
    if (how)
      printf("%-24s %-8s %-11s %s\n", ual_rule_id((enum ual_rule)r),
             ual_severity_name(ual_rule_severity((enum ual_rule)r)), gen_scenario_name(gen_inject_scenario(r)), how);
    else if ((how = gen_pcie_inject_how(r)) != NULL)
      printf("%-24s %-8s %-11s %s\n", ual_rule_id((enum ual_rule)r),
             ual_severity_name(ual_rule_severity((enum ual_rule)r)), gen_scenario_name(GEN_SC_PCIE), how);
    else if ((how = gen_pciefm_inject_how(r)) != NULL)
      printf("%-24s %-8s %-11s %s\n", ual_rule_id((enum ual_rule)r),
             ual_severity_name(ual_rule_severity((enum ual_rule)r)), gen_scenario_name(gen_pciefm_inject_scenario(r)), how);
    else if ((how = gen_pcienf_inject_how(r)) != NULL)
      printf("%-24s %-8s %-11s %s\n", ual_rule_id((enum ual_rule)r),
             ual_severity_name(ual_rule_severity((enum ual_rule)r)), gen_scenario_name(gen_pcienf_inject_scenario(r)), how);
    else if ((how = ub_inject_how(r)) != NULL)
      printf("%-24s %-8s %-11s %s\n", ual_rule_id((enum ual_rule)r), ual_severity_name(ual_rule_severity((enum ual_rule)r)),
             ub_scenario_name(ub_inject_scenario(r)), how);
  }
}

/* The scenario names, from the tables, wrapped under the -s line. */
static void help(void) {
  fputs(usage_head, stdout);
  const int n = GEN_SC_ALL_COUNT + UB_SC_COUNT;
  int col = 0;
  for (int i = 0; i < n; i++) {
    const char *name = i < GEN_SC_ALL_COUNT ? gen_scenario_name(i) : ub_scenario_name(i - GEN_SC_ALL_COUNT);
    int w = (int)strlen(name) + (i + 1 < n ? 1 : 0);
    if (col && col + 1 + w > 88) {
      putchar('\n');
      col = 0;
    }
    col += printf("%s%s%s", col ? " " : "                          ", name, i + 1 < n ? "," : "");
  }
  putchar('\n');
  fputs(usage, stdout);
}

static void list_scenarios(void) {
  for (int i = 0; i < GEN_SC_ALL_COUNT; i++) printf("%-12s %s\n", gen_scenario_name(i), gen_scenario_what(i));
  for (int i = 0; i < UB_SC_COUNT; i++) printf("%-12s %s\n", ub_scenario_name(i), ub_scenario_what(i));
}

int main(int argc, char **argv) {
  struct gen_opts o;
  gen_opts_default(&o);
  const char *wpath = NULL, *udp = NULL, *truth = NULL, *tlp_truth = NULL;
  double rate_limit = 0;
  bool quiet = false;
  int ub_sc = -1;   /* a UB scenario (ub.h) instead of UALink's */
  int c;
  uint64_t v;
  opterr = 0; /* each problem is reported below, in one style */
  while ((c = getopt_long(argc, argv, ":s:w:c:qh", longopts, NULL)) != -1) {
    switch (c) {
    case 's':
      ub_sc = ub_scenario_lookup(optarg);
      if (ub_sc >= 0) break;
      o.scenario = gen_scenario_lookup(optarg);
      if (o.scenario < 0) bad("--scenario", optarg, "is not a scenario (see --list-scenarios)");
      break;
    case 'w': wpath = optarg; break;
    case 'c': if (parse_u64(optarg, "--count", &v)) o.count = v; break;
    case O_UDP: udp = optarg; break;
    case O_RATE_LIMIT: parse_double(optarg, "--rate-limit", 0, 1e12, "is negative", &rate_limit); break;
    case O_DURATION: parse_duration_ps(optarg, &o.duration_ps); break;
    case O_SEED: if (parse_u64(optarg, "--seed", &v)) o.seed = v; break;
    case O_LOAD: parse_double(optarg, "--load", 0, 1, "is not in 0..1", &o.load); break;
    case O_BER:
      if (parse_double(optarg, "--ber", 0, 1, "is not a bit error rate below 0.01", &o.ber) && o.ber >= 0.01)
        bad("--ber", optarg, "is not a bit error rate below 0.01");
      break;
    case O_RATE: parse_rate(optarg, &o.rate); break;
    case O_WIDTH:
      if (!strcmp(optarg, "1") || !strcmp(optarg, "2") || !strcmp(optarg, "4") || !strcmp(optarg, "8"))
        o.width = (unsigned)(optarg[0] - '0');
      else bad("--width", optarg, "is not 1, 2, 4 or 8");
      break;
    case O_PEER:
      if (!strcmp(optarg, "switch")) o.peer = GEN_PEER_SWITCH;
      else if (!strcmp(optarg, "accel") || !strcmp(optarg, "accelerator")) o.peer = GEN_PEER_ACCEL;
      else bad("--peer", optarg, "is not switch or accel");
      break;
    case O_NAK:
      if (!strcmp(optarg, "standard")) o.nak = GEN_NAK_STANDARD;
      else if (!strcmp(optarg, "selective")) o.nak = GEN_NAK_SELECTIVE;
      else if (!strcmp(optarg, "alternate")) o.nak = GEN_NAK_ALTERNATE;
      else bad("--nak", optarg, "is not standard, selective or alternate");
      break;
    case O_INJECT: parse_inject(&o, optarg); break;
    case O_TRUTH: truth = optarg; break;
    case O_TLP_TRUTH: tlp_truth = optarg; break;
    case O_LIST_INJ: list_injections(); return stdout_done();
    case O_LIST_SC: list_scenarios(); return stdout_done();
    case O_LATENCY:
      if (parse_u64(optarg, "--latency", &v)) {
        if (v > UINT32_MAX) bad("--latency", optarg, "is too long");
        else o.latency_ns = (uint32_t)v;
      }
      break;
    case O_TRAIN_OS:
      if (parse_u64(optarg, "--train-os", &v)) {
        if (v > 1u << 20) bad("--train-os", optarg, "is too many");
        else o.train_os = (unsigned)v;
      }
      break;
    case O_START: if (parse_u64(optarg, "--start-ns", &v)) o.start_ns = v; break;
    case O_RUN_SCALE:
      if (parse_double(optarg, "--run-scale", 0, 100, "is not in (0, 100]", &o.run_scale) && o.run_scale <= 0)
        bad("--run-scale", optarg, "is not in (0, 100]");
      break;
    case 'q': quiet = true; break;
    case 'h': help(); return stdout_done();
    case O_VERSION: printf("ualink-gen %s\n", UAL_VERSION_STRING); return stdout_done();
    case ':': /* the option ends its argument: a long one is all of it */
      if (!strncmp(argv[optind - 1], "--", 2)) fprintf(stderr, "ualink-gen: option '%s' needs a value\n", argv[optind - 1]);
      else fprintf(stderr, "ualink-gen: option '-%c' needs a value\n", optopt);
      bad_args++;
      break;
    default:
      if (optopt) fprintf(stderr, "ualink-gen: unknown option '-%c'\n", optopt);
      else fprintf(stderr, "ualink-gen: unknown option '%.*s'\n", (int)strcspn(argv[optind - 1], "="), argv[optind - 1]);
      bad_args++;
      break;
    }
  }
  for (int i = optind; i < argc; i++) {
    fprintf(stderr, "ualink-gen: extra operand '%s' (the output is -w FILE or --udp HOST)\n", argv[i]);
    bad_args++;
  }
  if (bad_args) {
    fputs("Try 'ualink-gen --help' for more information.\n", stderr);
    return 2;
  }
  if (wpath && !strcmp(wpath, "-") && isatty(STDOUT_FILENO))
    die("-w -: standard output is a terminal, not writing a binary pcap to it (redirect it or give -w FILE)%s", "");
  if (!wpath && !udp) {
    if (isatty(STDOUT_FILENO)) die("no output: give -w FILE, -w - or --udp HOST%s", "");
    wpath = "-";
  }

  char err[256];
  struct gen_writer w;
  memset(&w, 0, sizeof w);
  w.udp_fd = -1;
  w.rate_limit = rate_limit;
  w.realtime = rate_limit <= 0;
  w.t0_ns = o.start_ns;
  w.progress = !quiet && isatty(STDERR_FILENO) && !(wpath && !strcmp(wpath, "-") && isatty(STDOUT_FILENO));
  if (wpath && out_pcap_open(&w, wpath, err, sizeof err) != 0) die("%s", err);
  w.dump_is_stdout = wpath && !strcmp(wpath, "-");
  if (udp && out_udp_open(&w, udp, err, sizeof err) != 0) die("%s", err);
  char sidecar[4096];
  if (!truth && o.n_inject && wpath && strcmp(wpath, "-") != 0) {
    snprintf(sidecar, sizeof sidecar, "%s.truth.jsonl", wpath);
    truth = sidecar;
  }
  if (truth) {
    w.truth = fopen(truth, "w");
    w.truth_path = truth;
    if (!w.truth) {
      fprintf(stderr, "ualink-gen: %s: %s\n", truth, strerror(errno));
      out_close(&w);
      return 2;
    }
  }

  if (tlp_truth) {
    w.tlp_truth = fopen(tlp_truth, "w");
    w.tlp_truth_path = tlp_truth;
    if (!w.tlp_truth) {
      fprintf(stderr, "ualink-gen: %s: %s\n", tlp_truth, strerror(errno));
      out_close(&w);
      return 2;
    }
  }
  struct gen_out out = { .ctx = &w, .record = out_record, .truth = out_truth, .tlp = out_tlp, .progress = out_progress };
  if (ub_sc < 0 && o.n_inject && ub_inject_supported(o.inject[0].rule)) ub_sc = ub_inject_scenario(o.inject[0].rule);
  if (ub_sc >= 0) {
    int urc = ub_gen_run(ub_sc, &o, &out, err, sizeof err);
    if (out_close(&w) != 0) return write_error(&w);
    if (urc != 0) { fprintf(stderr, "ualink-gen: %s\n", err); return 1; }
    return 0;
  }
  struct gen *g = gen_new(&o, &out, err, sizeof err);
  if (!g) { out_close(&w); die("%s", err); }
  const char *dargs = gen_decode_args(g);
  if (dargs && wpath && strcmp(wpath, "-") != 0) {
    char argsfile[4096];
    snprintf(argsfile, sizeof argsfile, "%s.decode-args", wpath);
    FILE *fa = fopen(argsfile, "w");
    int bad = !fa || fprintf(fa, "%s\n", dargs) < 0;
    if (fa && fclose(fa) != 0) bad = 1;
    if (bad) {
      int e = errno;
      gen_free(g);
      out_close(&w);
      fprintf(stderr, "ualink-gen: %s: %s\n", argsfile, strerror(e));
      return 1;
    }
  }
  int rc = gen_run(g, err, sizeof err);
  gen_free(g);
  int lost = out_udp_lost(&w);
  if (out_close(&w) != 0) return write_error(&w);
  /* a UDP export that gave up has said so */
  if (rc != 0 && w.udp_fail_run < GEN_UDP_FAIL_RUN) { fprintf(stderr, "ualink-gen: %s\n", err); return 1; }
  if (rc != 0) return 1;
  return lost ? 1 : 0;
}
