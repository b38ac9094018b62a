/* ualink-decode: decode UALink 128G captures like tshark/tcpdump do.
 *
 *   input (pcap/pcapng, raw, hex) -> ual_decode_record -> select -> print
 *                                                       -> statistics
 */
#include "chunk.h"
#include "dcli.h"
#include "feed.h"
#include "input.h"
#include "json.h"
#include "par.h"
#include "save.h"
#include "ualink/core/pcapfile.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include "lpcap.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROG "ualink-decode"
#define DC_MAX_JOBS 64
/* Threads by default only from this file size on: below it, starting them
 * and first touching their buffers cost more than they save (a 18 MB capture
 * took 22 ms with -j 1 and 27 ms with -j 2; 36 MB: 36 and 34 ms). */
#define DC_JOBS_MIN_SIZE (32u << 20)
#define MAX_REPORTS 100        /* malformed-record messages before going quiet */

static void usage(FILE *fp) {
  fputs("Usage: " PROG " [options] FILE|-\n"
        "       " PROG " [options] --raw FILE|-   (bare 256-byte flits)\n"
        "       " PROG " [options] --hex FILE|-   (one flit per line, 512 hex digits)\n"
        "Decode UALink 128G, PCIe and UB data-link capture records (pcap/pcapng, LINKTYPE_USER0\n"
        "by default).\n"
        "\n"
        "Input:\n"
        "  FILE, -r FILE        pcap or pcapng file; '-' reads a pcap stream from stdin\n"
        "  --dlt N              expected link type, 147..162 (USER0..USER15; default 147)\n"
        "                       A capture of the UDP export (Ethernet, Linux cooked, raw IP;\n"
        "                       tcpdump -w, dumpcap) is read as well: one record per datagram\n"
        "  --udp-port N         the export's UDP port in such captures (default 17762)\n"
        "  --raw FILE           bare concatenated 256-byte flits of one direction\n"
        "  --hex FILE           hex text: one flit per line, optional A>/B> prefix, # comments\n"
        "  --raw-kind ualink|ub the flits of --raw/--hex: UALink 256-byte flits (default) or\n"
        "                       UB data-link flits (20 bytes, 40 hex digits a line)\n"
        "\n"
        "Output (default: one line per record):\n"
        "  -V, --verbose        full field tree with record/flit byte offsets\n"
        "  -x, --hex-dump       hex dump of each record (with --json: a \"raw\" key)\n"
        "  --json               JSON Lines, one object per record (schema version 1)\n"
        "  -q, --quiet          no per-record output\n"
        "  --stats              totals by direction at the end (JSON summary with --json)\n"
        "  --timeline           one line per state change (LTSSM, rate, width, channels,\n"
        "                       negotiations with outcome and latency, L1/L0p, replays);\n"
        "                       JSON Lines with --json\n"
        "  --transactions       one line per transaction (UALink negotiations, PCIe request\n"
        "                       and completions, UB retry episodes) with status and\n"
        "                       latency; JSON Lines with --json\n"
        "  --link N[,M...]      only the records, events and transactions of these links\n"
        "                       (the record header's link index; 255: none named)\n"
        "  --report FILE        HTML link report (timeline, throughput, negotiation and\n"
        "                       link-state ladders, findings, totals); '-' to stdout\n"
        "  --stateless          decode each record on its own: no replay, LTSSM or DL\n"
        "                       protocol tracking (every valid payload flit is unpacked)\n"        "  --segment BDF=SEG[,BDF=SEG...]  PCIe flit mode: preset a function's Segment\n"
        "                       Captured (BDF bus:dev.fn in hex, SEG 0-255 or 'clear') for the\n"
        "                       PS- rules; without it, it is inferred from configuration writes\n"
        "  --no-nfm-subtree=LINK[,LINK...]  PCIe: the Root Port of these link indexes has\n"
        "                       No NFM Subtree Below This Root Port set (--nfm-subtree=LINK:\n"
        "                       clear, the RC must take cross-hierarchy requests over);\n"
        "                       unknown by default, PS-TO-REQUIRED needs it\n"
        "  --pcie-initfc [LINK:]SIDE:VCn:CLASS=HDRFC/DATAFC[:HS/DS][,...]  PCIe: the InitFC\n"
        "                       values a capture that starts later never shows (SIDE A or B,\n"
        "                       CLASS P, NP or Cpl, the DLLP's fields: 0 = infinite), for\n"
        "                       PD-FC-INFINITE and PD-FC-SCALE: A:VC0:P=32/256,A:VC0:NP=16/0\n"
        "  --ub-init KEY=VAL[,...]  UB: the negotiated Init Block parameters (vl, fc,\n"
        "                       data-ack, ctrl-ack, ctrl-grain, data-grain, share)\n"
        "  --ub-credits SIDE:VLn=GRANTED[/HELD][,...]  UB: credit cells granted and held\n"
        "                       at the start (UB-VL-DISABLED, UB-CREDIT-UNDERFLOW need both);\n"
        "                       --stats prints the presets that give the state at the end\n"
        "  PCIe non-flit data link and transactions (kind 7):\n"
        "  --nak-new-tlps N     new TLPs tolerated after a Nak before its replay (default 1)\n"
        "  --cpl-timeout T      completion timeout and the window of completions without a\n"
        "                       request, T in ns or with us/ms/s (default 50ms)\n"
        "  --rx-mps N           Rx_MPS_Limit for the Ack latency limit, 128-4096 (default 4096)\n"
        "  --replay-timer N     REPLAY_TIMER limit in symbol times (default 31000)\n"
        "  --extended-synch     Extended Synch: REPLAY_TIMER 100000 symbol times by default\n"
        "  --l0s-exit N         the partner's L0s exit latency in symbol times (default 0)\n"
        "  --ari LINK[,LINK...] the IDs on these link indexes are ARI (8-bit function numbers)\n"
        "  -t FORMAT            record times as tshark -t: r since the first record (default),\n"
        "                       d since the previous record, dd since the previous one shown,\n"
        "                       e seconds since 1970, a/ad/adoy local time of day (with date,\n"
        "                       with year/day of year), u/ud/udoy the same in UTC; tcpdump's\n"
        "                       -tt, -ttt, -tttt, -ttttt work too (e, d, ad, r)\n"
        "  -w FILE              write the selected records to a pcap ('-' to stdout) and print\n"
        "                       none of them (like tshark -w); --stats still prints the totals\n"
        "  -P                   with -w: print the records too\n"
        "  -n                   accepted and ignored (there are no names to resolve)\n"
        "  -l                   flush output after every record\n"
        "  --color, --no-color  force colour on/off (default: on a terminal unless NO_COLOR is set)\n"
        "\n"
        "Selection (records are always decoded in order; these choose what is shown and counted):\n"
        "  -c, --count N        stop after N selected records\n"
        "  --frames A-B         frames A..B (also A-, -B or N)\n"
        "  --dir A|B            one direction (with --raw/--hex also the direction of\n"
        "                       flits without a prefix)\n"
        "  --rule ID[,ID...]    records with a finding of one of these rule IDs\n"
        "  --severity LEVEL     records with a finding of at least LEVEL (info, warning, error)\n"
        "  -Y FILTER            Wireshark display filter over the plugin's fields (ualink.*,\n"
        "                       pcie.*, ub.*, frame.number/len/time_relative/time_delta)\n"
        "\n"
        "Fields (like tshark): -T fields -e FIELD [-e FIELD ...] one line per selected record;\n"
        "  -E header=y|n, separator=/t|/s|C, occurrence=f|l|a, aggregator=C, quote=d|s|n;\n"
        "  -G fields lists the fields\n"
        "\n"
        "  -j, --jobs N         decode with N threads (default: the cores for a regular\n"
        "                       file of 32 MiB or more, else 1); the same output for every N\n"
        "  --chunk K/N          decode the K-th of N parts (split by bytes, at record starts) of\n"
        "                       a regular pcap file: output for the part's records only, with\n"
        "                       their frame numbers; end-of-capture findings in the part that\n"
        "                       reaches the end (scripts/ualink-merge.py joins the parts)\n"
        "  --warmup W           with --chunk: decode W records before the part first, printing\n"
        "                       nothing for them (default 8192)\n"
        "  --overlap V          with --chunk: the last V warm-up records checked (default 256)\n"
        "  --chunk-side FILE    with --chunk: write the part's frames, the output offsets of its\n"
        "                       last V records and the output of its last V warm-up records\n"
        "  --strict             exit 1 on findings of severity error or malformed input records\n"
        "  --list-rules         the rule IDs with their severity and meaning\n"
        "  -h, --help           this help\n"
        "  --version            version\n"
        "\n"
        "Exit status:\n"
        "  0  decoded (findings and malformed records are reported, not failures)\n"
        "  1  --strict and a selected record has an error finding, or a record was malformed\n"
        "     or truncated, or the pcap framing was lost\n"
        "  2  usage error, or the input could not be opened or read (missing file, not\n"
        "     pcap/pcapng, wrong link type, read error), or an output could not be written\n"
        "  130, 143  interrupted by SIGINT or SIGTERM (128 + the signal's number); the output,\n"
        "     --stats, --report and -w are complete for the records read before it\n",
        fp);
}

/* SIGINT or SIGTERM: reading stops (input.h, dc_interrupted) and the run
 * ends as when -c stops it, without the end-of-capture checks. No
 * SA_RESTART, so that a read blocked on a pipe returns; SA_RESETHAND: a
 * second signal ends the program at once. */
static void on_signal(int sig) { dc_interrupted = sig; }

static void catch_interrupts(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

/* Every problem with the command line is one line; all are reported, then
 * one hint. */
static unsigned arg_errors;

static void arg_error(const char *fmt, const char *arg) {
  fprintf(stderr, PROG ": ");
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  arg_errors++;
}

/* --no-nfm-subtree=LINK[,...] (none_below 1) or --nfm-subtree=LINK[,...]
 * (0): link indexes 0-254. */
static void parse_nfm_subtree(struct dc_opts *o, const char *arg, int none_below) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", arg);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    char *end;
    long link = strtol(tok, &end, 10);
    if (*end || end == tok || link < 0 || link > 254) {
      arg_error(none_below ? "--no-nfm-subtree needs link indexes 0-254, not '%s'"
                           : "--nfm-subtree needs link indexes 0-254, not '%s'", tok);
      continue;
    }
    o->nfm_subtree[link] = (int8_t)none_below;
  }
}

/* --link N[,M...]: link indexes 0-255 (255: records that name no link). */
static void parse_links(struct dc_opts *o, const char *arg) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", arg);
  o->link_sel = true;
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    char *end;
    long link = strtol(tok, &end, 10);
    if (*end || end == tok || link < 0 || link > 255) {
      arg_error("--link needs link indexes 0-255, not '%s'", tok);
      continue;
    }
    o->link_on[link] = 1;
  }
}

/* --segment BDF=SEG|clear[,...]: BDF as bus:dev.fn in hex (01:00.0). */
static void parse_segments(struct dc_opts *o, const char *arg) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", arg);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    unsigned bus, dev, fn;
    char val[16], tail;
    if (sscanf(tok, "%x:%x.%x=%15[^,]%c", &bus, &dev, &fn, val, &tail) != 4 || bus > 255 || dev > 31 || fn > 7) {
      arg_error("--segment needs BDF=SEG with BDF bus:dev.fn in hex (01:00.0), not '%s'", tok);
      continue;
    }
    char *end;
    long seg = strcmp(val, "clear") ? strtol(val, &end, 0) : -1;
    if (seg != -1 && (*end || seg < 0 || seg > 255)) {
      arg_error("--segment needs a segment 0-255 or 'clear', not '%s'", tok);
      continue;
    }
    if (o->n_seg == DC_MAX_SEGMENTS) {
      arg_error("--segment: at most 64 functions, '%s' is one too many", tok);
      return;
    }
    o->seg_bdf[o->n_seg] = (uint16_t)(bus << 8 | dev << 3 | fn);
    o->seg_val[o->n_seg++] = (int16_t)seg;
  }
}

static bool parse_u64(const char *s, uint64_t *v) {
  if (!*s || !isdigit((unsigned char)*s)) return false;
  errno = 0;
  char *end;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno || *end) return false;
  *v = x;
  return true;
}

static bool parse_frames(const char *s, uint64_t *lo, uint64_t *hi) {
  const char *dash = strchr(s, '-');
  char a[32];
  if (!dash) {
    if (!parse_u64(s, lo) || *lo == 0) return false;
    *hi = *lo;
    return true;
  }
  size_t n = (size_t)(dash - s);
  if (n >= sizeof a) return false;
  memcpy(a, s, n);
  a[n] = 0;
  *lo = 1;
  *hi = UINT64_MAX;
  if (n && (!parse_u64(a, lo) || *lo == 0)) return false;
  if (dash[1] && !parse_u64(dash + 1, hi)) return false;
  return (n || dash[1]) && *lo <= *hi;
}

static int parse_dir(const char *s) {
  if (strcmp(s, "A") == 0 || strcmp(s, "a") == 0 || strcmp(s, "A>B") == 0) return 0;
  if (strcmp(s, "B") == 0 || strcmp(s, "b") == 0 || strcmp(s, "B>A") == 0) return 1;
  return -1;
}

static int parse_severity(const char *s) {
  if (strcmp(s, "info") == 0) return UAL_SEV_INFO;
  if (strcmp(s, "warning") == 0 || strcmp(s, "warn") == 0) return UAL_SEV_WARNING;
  if (strcmp(s, "error") == 0) return UAL_SEV_ERROR;
  return -1;
}

/* Adds a comma-separated list of rule IDs; returns the first unknown one. */
static const char *parse_rules(struct dc_opts *o, const char *list) {
  static char bad[64];
  const char *p = list;
  while (*p) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char id[64];
    if (n == 0 || n >= sizeof id) {
      snprintf(bad, sizeof bad, "%.*s", (int)(n < 60 ? n : 60), p);
      return bad;
    }
    for (size_t i = 0; i < n; i++) id[i] = (char)toupper((unsigned char)p[i]);
    id[n] = 0;
    int r = ual_rule_lookup(id);
    if (r < 0) {
      snprintf(bad, sizeof bad, "%s", id);
      return bad;
    }
    o->rules[r] = 1;
    o->rule_filter = true;
    p += n;
    if (*p == ',') p++;
  }
  return NULL;
}

enum { OPT_JSON = 256, OPT_STATS, OPT_FRAMES, OPT_DIR, OPT_RULE, OPT_SEVERITY, OPT_DLT, OPT_RAW, OPT_HEX,
       OPT_NO_COLOR, OPT_COLOR, OPT_STRICT, OPT_VERSION, OPT_STATELESS, OPT_TIMELINE,
       OPT_REPORT, OPT_LIST_RULES, OPT_UDP_PORT, OPT_CHUNK, OPT_WARMUP, OPT_OVERLAP,
       OPT_CHUNK_SIDE, OPT_SEGMENT, OPT_RAW_KIND, OPT_NO_NFM_SUBTREE, OPT_NFM_SUBTREE, OPT_TRANSACTIONS, OPT_LINK,
       OPT_PRESET, OPT_AN, OPT_AN_FLAG };

static const struct option long_opts[] = {
  { "verbose", no_argument, NULL, 'V' },
  { "hex-dump", no_argument, NULL, 'x' },
  { "quiet", no_argument, NULL, 'q' },
  { "count", required_argument, NULL, 'c' },
  { "help", no_argument, NULL, 'h' },
  { "json", no_argument, NULL, OPT_JSON },
  { "stats", no_argument, NULL, OPT_STATS },
  { "frames", required_argument, NULL, OPT_FRAMES },
  { "dir", required_argument, NULL, OPT_DIR },
  { "rule", required_argument, NULL, OPT_RULE },
  { "severity", required_argument, NULL, OPT_SEVERITY },
  { "dlt", required_argument, NULL, OPT_DLT },
  { "raw", required_argument, NULL, OPT_RAW },
  { "hex", required_argument, NULL, OPT_HEX },
  { "raw-kind", required_argument, NULL, OPT_RAW_KIND },
  { "no-color", no_argument, NULL, OPT_NO_COLOR },
  { "color", no_argument, NULL, OPT_COLOR },
  { "strict", no_argument, NULL, OPT_STRICT },
  { "version", no_argument, NULL, OPT_VERSION },
  { "stateless", no_argument, NULL, OPT_STATELESS },
  { "timeline", no_argument, NULL, OPT_TIMELINE },
  { "transactions", no_argument, NULL, OPT_TRANSACTIONS },
  { "link", required_argument, NULL, OPT_LINK },
  { "report", required_argument, NULL, OPT_REPORT },
  { "list-rules", no_argument, NULL, OPT_LIST_RULES },
  { "udp-port", required_argument, NULL, OPT_UDP_PORT },
  { "write", required_argument, NULL, 'w' },
  { "jobs", required_argument, NULL, 'j' },
  { "chunk", required_argument, NULL, OPT_CHUNK },
  { "warmup", required_argument, NULL, OPT_WARMUP },
  { "overlap", required_argument, NULL, OPT_OVERLAP },
  { "chunk-side", required_argument, NULL, OPT_CHUNK_SIDE },
  { "segment", required_argument, NULL, OPT_SEGMENT },
  { "no-nfm-subtree", required_argument, NULL, OPT_NO_NFM_SUBTREE },
  { "nfm-subtree", required_argument, NULL, OPT_NFM_SUBTREE },
  /* --pcie-initfc, --ub-init, --ub-credits: libdecode's presets */
#define UAL_X_(m, p, opt) { opt, required_argument, NULL, OPT_PRESET },
  UAL_FABRIC_PRESETS(UAL_X_)
#undef UAL_X_
  /* settings of the fabrics' analyses, passed on by name (ual_fabric_an_option) */
  { "nak-new-tlps", required_argument, NULL, OPT_AN },
  { "cpl-timeout", required_argument, NULL, OPT_AN },
  { "ari", required_argument, NULL, OPT_AN },
  { "rx-mps", required_argument, NULL, OPT_AN },
  { "replay-timer", required_argument, NULL, OPT_AN },
  { "l0s-exit", required_argument, NULL, OPT_AN },
  { "extended-synch", no_argument, NULL, OPT_AN_FLAG },
  { NULL, 0, NULL, 0 },
};

/* The rule catalog: ID, severity, what the rule says. */
static void list_rules(void) {
  for (int r = 0; r < UAL_R_COUNT; r++)
    printf("%-24s %-8s %s\n", ual_rule_id((enum ual_rule)r), ual_severity_name(ual_rule_severity((enum ual_rule)r)),
           ual_rule_what((enum ual_rule)r));
}

/* The option getopt stopped at, as the user wrote it: "-Z" of "-qZ",
 * "--bogus" of "--bogus=1". An option missing its value ends its argument,
 * so argv[optind - 1] holds it; an unknown short one may sit inside a
 * cluster that optind has not passed yet, but then optopt names it. */
static void name_option(char *buf, size_t cap, char **argv, bool missing) {
  const char *arg = argv[optind - 1];
  bool is_long = missing ? strncmp(arg, "--", 2) == 0 : optopt == 0;
  if (is_long) snprintf(buf, cap, "%.*s", (int)strcspn(arg, "="), arg);
  else snprintf(buf, cap, "-%c", optopt);
}

/* Returns -1 to go on, else an exit code. */
static int parse_args(int argc, char **argv, struct dc_opts *o) {
  int color = -1; /* -1 auto */
  memset(o, 0, sizeof *o);
  o->dlt = UAL_DLT_USER0;
  o->frame_lo = 1;
  o->frame_hi = UINT64_MAX;
  o->sel_dir = -1;
  o->min_sev = -1;
  memset(o->nfm_subtree, -1, sizeof o->nfm_subtree);
  dc_fopts_init(&o->fo);
  o->tfmt = DC_T_REL;
  o->udp_port = UAL_UDP_PORT;
  o->warmup = DC_CHUNK_WARMUP;
  o->overlap = DC_CHUNK_OVERLAP;
  const char *input = NULL;
  int n_inputs = 0;
  int c, li = -1;
  char opt[64];
  opterr = 0;
  arg_errors = 0;
  while ((c = getopt_long(argc, argv, ":Vxqc:hlr:t:w:nPj:Y:T:e:E:G:", long_opts, &li)) != -1) {
    uint64_t v;
    switch (c) {
    case 'V': o->verbose = true; break;
    case 'x': o->hexdump = true; break;
    case 'q': o->quiet = true; break;
    case 'l': o->line_buffered = true; break;
    case 'n': break; /* tshark's "no name resolution": there are no names to resolve */
    case 'c':
      if (!parse_u64(optarg, &v) || v == 0) arg_error("-c needs a positive count, not '%s'", optarg);
      else o->count = v;
      break;
    case 't':
      if (!dc_tfmt_parse(optarg, &o->tfmt)) arg_error("-t needs a time format: " DC_TFMT_NAMES ", not '%s'", optarg);
      break;
    case 'w': o->save = optarg; break;
    case 'P': o->print_saved = true; break;
    case 'h': usage(stdout); return DC_EXIT_OK;
    case 'j':
      if (!parse_u64(optarg, &v) || v == 0 || v > DC_MAX_JOBS) arg_error("-j needs a thread count 1..64, not '%s'", optarg);
      else o->jobs = (unsigned)v;
      break;
    case 'r': input = optarg; n_inputs++; o->in_type = DC_IN_PCAP; break;
    case OPT_JSON: o->json = true; break;
    case OPT_STATS: o->stats = true; break;
    case OPT_FRAMES:
      if (!parse_frames(optarg, &o->frame_lo, &o->frame_hi))
        arg_error("--frames needs A-B, A-, -B or N (frames count from 1), not '%s'", optarg);
      break;
    case OPT_DIR:
      o->sel_dir = parse_dir(optarg);
      if (o->sel_dir < 0) arg_error("--dir needs A or B, not '%s'", optarg);
      break;
    case OPT_RULE: {
      const char *bad = parse_rules(o, optarg);
      if (bad) arg_error("unknown rule ID '%s' (see --list-rules)", bad);
      break;
    }
    case OPT_SEVERITY:
      o->min_sev = parse_severity(optarg);
      if (o->min_sev < 0) arg_error("--severity needs info, warning or error, not '%s'", optarg);
      break;
    case OPT_DLT:
      if (!parse_u64(optarg, &v) || v < 147 || v > 162) arg_error("--dlt needs a USER link type 147..162, not '%s'", optarg);
      else o->dlt = (int)v;
      break;
    case OPT_SEGMENT: parse_segments(o, optarg); break;
    case OPT_AN:
    case OPT_AN_FLAG:
      if (o->n_an_opt == DC_MAX_AN_OPTS) {
        arg_error("too many analysis settings (--%s)", long_opts[li].name);
        break;
      }
      o->an_opt[o->n_an_opt][0] = long_opts[li].name;
      o->an_opt[o->n_an_opt++][1] = c == OPT_AN ? optarg : "";
      break;
    case OPT_NO_NFM_SUBTREE: parse_nfm_subtree(o, optarg, 1); break;
    case OPT_NFM_SUBTREE: parse_nfm_subtree(o, optarg, 0); break;
    case OPT_PRESET: {
      char err[256];
      if (!ual_fabric_an_preset(NULL, long_opts[li].name, optarg, err, sizeof err)) arg_error("%s", err);
      else if (o->n_preset == DC_MAX_PRESETS) arg_error("at most 16 presets, '%s' is one too many", optarg);
      else {
        o->preset_name[o->n_preset] = long_opts[li].name;
        o->preset_arg[o->n_preset++] = optarg;
      }
      break;
    }
    case OPT_UDP_PORT:
      if (!parse_u64(optarg, &v) || v < 1 || v > 65535) arg_error("--udp-port needs a UDP port 1..65535, not '%s'", optarg);
      else o->udp_port = (unsigned)v;
      break;
    case OPT_CHUNK: {
      unsigned k = 0, n = 0;
      char tail;
      if (sscanf(optarg, "%u/%u%c", &k, &n, &tail) != 2 || k == 0 || n == 0 || k > n || n > 1000000)
        arg_error("--chunk needs K/N with 1 <= K <= N, not '%s'", optarg);
      o->chunk_k = k;
      o->chunk_n = n;
      break;
    }
    case OPT_WARMUP:
      if (!parse_u64(optarg, &v) || v > (1u << 28)) arg_error("--warmup needs a record count 0..268435456, not '%s'", optarg);
      else o->warmup = v;
      break;
    case OPT_OVERLAP:
      if (!parse_u64(optarg, &v) || v > (1u << 20)) arg_error("--overlap needs a record count 0..1048576, not '%s'", optarg);
      else o->overlap = v;
      break;
    case OPT_CHUNK_SIDE: o->chunk_side = optarg; break;
    case OPT_RAW: input = optarg; n_inputs++; o->in_type = DC_IN_RAW; break;
    case OPT_HEX: input = optarg; n_inputs++; o->in_type = DC_IN_HEX; break;
    case OPT_RAW_KIND:
      if (!strcmp(optarg, "ualink")) o->raw_kind = UAL_REC_FLIT;
      else if (!strcmp(optarg, "ub")) o->raw_kind = UAL_REC_UB_FLIT;
      else arg_error("--raw-kind is ualink or ub, not '%s'", optarg);
      break;
    case OPT_NO_COLOR: color = 0; break;
    case OPT_COLOR: color = 1; break;
    case OPT_STRICT: o->strict = true; break;
    case OPT_STATELESS: o->stateless = true; break;
    case OPT_TIMELINE: o->timeline = true; break;
    case OPT_TRANSACTIONS: o->transactions = true; break;
    case OPT_LINK: parse_links(o, optarg); break;
    case OPT_REPORT: o->report = optarg; break;
    case OPT_LIST_RULES: list_rules(); return DC_EXIT_OK;
    case OPT_VERSION: {
      char err[256];
      const struct dc_lpcap *L = dc_lpcap(err, sizeof err);
      printf(PROG " %s (libdecode %s, %s)\n", UAL_VERSION_STRING, UAL_VERSION_STRING, L ? L->lib_version() : err);
      return DC_EXIT_OK;
    }
    case 'Y': case 'T': case 'e': case 'E': case 'G': {
      int frc = dc_fopts_arg(&o->fo, c, optarg);
      if (frc >= 0) return frc;
      break;
    }
    case ':':
      name_option(opt, sizeof opt, argv, true);
      arg_error("option '%s' needs an argument", opt);
      break;
    default:
      name_option(opt, sizeof opt, argv, false);
      arg_error("unknown option '%s'", opt);
      break;
    }
  }
  for (int i = optind; i < argc; i++) {
    input = argv[i];
    n_inputs++;
    o->in_type = DC_IN_PCAP;
  }
  if (o->fo.fields && (o->json || o->timeline || o->report))
    arg_error("%s", "-T fields is an output format of its own: not with --json, --timeline or --report");
  if (n_inputs > 1) arg_error("%s", "one input at a time");
  if (n_inputs == 0 && !arg_errors) arg_error("%s", "no input: give a capture file, '-', --raw FILE or --hex FILE");
  o->path = input;
  if (o->report && o->stateless) arg_error("%s", "--report draws the analysis: not with --stateless");
  if (o->report && strcmp(o->report, "-") == 0 && (o->stats || o->timeline))
    arg_error("%s", "--report - writes the page to standard output: no --stats or --timeline with it");
  if (o->save && strcmp(o->save, "-") == 0) {
    if (o->stats || o->timeline || o->print_saved || (o->report && strcmp(o->report, "-") == 0))
      arg_error("%s", "-w - writes the pcap to standard output: no --stats, --timeline, -P or --report - with it");
    else if (isatty(STDOUT_FILENO))
      arg_error("%s", "-w -: standard output is a terminal, not writing a binary pcap to it (redirect it or give -w FILE)");
  }
  if (o->chunk_n) {
    /* these need the whole capture in one process: counts, totals, one file */
    if (o->stats || o->report || o->save || o->count)
      arg_error("%s", "--chunk: --stats, --report, -w and -c are not supported (they need the whole capture)");
    if (o->in_type != DC_IN_PCAP || (input && strcmp(input, "-") == 0))
      arg_error("%s", "--chunk needs a regular pcap file");
  } else if (o->chunk_side) {
    arg_error("%s", "--chunk-side goes with --chunk K/N");
  }
  if (o->print_saved && !o->save) arg_error("%s", "-P prints the records while -w saves them: give -w FILE");
  if (arg_errors) {
    fprintf(stderr, "Try '" PROG " --help' for more information.\n");
    return DC_EXIT_USAGE;
  }
  /* saving, like tshark -w, prints no records unless -P asks for them */
  if (o->save && !o->print_saved) o->quiet = true;
  o->raw_dir = o->sel_dir > 0 ? 1 : 0;
  if (color < 0) {
    const char *nc = getenv("NO_COLOR");
    color = isatty(STDOUT_FILENO) && !(nc && *nc);
  }
  o->color = color && !o->json;
  return -1;
}

static bool selected(const struct dc_opts *o, const struct ual_rec_result *r) {
  if (r->frame < o->frame_lo || r->frame > o->frame_hi) return false;
  if (o->sel_dir >= 0 && r->dir != o->sel_dir) return false;
  if (!dc_link_selected(o, r->rec.h.link)) return false;
  if (o->rule_filter) {
    bool hit = false;
    for (unsigned i = 0; i < r->findings.n && !hit; i++) hit = o->rules[r->findings.v[i].rule];
    if (!hit) return false;
  }
  if (o->min_sev >= 0) {
    if (!r->findings.n || (int)ual_findings_max_severity(&r->findings) < o->min_sev) return false;
  }
  return true;
}

/* Findings at the end of the capture belong to no record: --rule,
 * --severity, --dir (the direction a finding judges) and -Y choose among
 * them as among a record's. */
static void select_end_findings(struct dc_ctx *c, struct ual_findings *f) {
  const struct dc_opts *o = c->o;
  unsigned n = 0;
  for (unsigned i = 0; i < f->n; i++) {
    enum ual_rule r = (enum ual_rule)f->v[i].rule;
    if (o->rule_filter && !o->rules[r]) continue;
    if (o->min_sev >= 0 && (int)ual_rule_severity(r) < o->min_sev) continue;
    if (o->sel_dir >= 0 && f->v[i].dir >= 0 && f->v[i].dir != o->sel_dir) continue;
    if (!dc_filter_pass_end(c, &f->v[i])) continue;
    f->v[n++] = f->v[i];
  }
  f->n = n;
}

/* One line on stderr naming the input and frame. problem: counts for
 * --strict; notices (a record that still decodes) do not. */
static void report(struct dc_ctx *c, uint64_t frame, const char *what, const char *detail, bool problem) {
  if (c->warm) return; /* the part before reports it */
  if (problem) c->problems++;
  if (++c->reports > MAX_REPORTS) return;
  dc_out_flush(&c->out);
  fflush(stdout);
  if (c->progress_line) fputs("\r\033[K", stderr);
  c->progress_line = false;
  if (frame) fprintf(stderr, PROG ": %s: frame %llu: %s", c->o->path, (unsigned long long)frame, what);
  else fprintf(stderr, PROG ": %s: %s", c->o->path, what);
  if (detail && *detail) fprintf(stderr, " (%s)", detail);
  fputc('\n', stderr);
  if (c->reports == MAX_REPORTS) fprintf(stderr, PROG ": %s: further problems are counted, not shown\n", c->o->path);
}

/* The time of a record on the link: none when the input's times are when
 * the records arrived (a capture of the UDP export): they are shown, and
 * nothing is judged or measured by them. */
static uint64_t link_ts(const struct dc_ctx *c, uint64_t ts_ns) { return c->arrival_times ? 0 : ts_ns; }

/* The one place a record's result is produced: the stateless decode (here,
 * or done already by a -j worker into c->res: pre), then the per-capture
 * state in record order. The stateful analyzer, when present, steps here and
 * adds its findings to c->res.findings. */
static void produce(struct dc_ctx *c, const uint8_t *rec, size_t len, uint64_t frame, uint64_t ts_ns, bool pre) {
  if (pre) c->res.frame = frame;
  else ual_decode_stateless(rec, len, frame, &c->res);
  if (c->o->stateless) {
    ual_decode_stream(&c->dec, &c->res);
    return;
  }
  ual_events_clear(&c->ev);
  dc_filter_begin(c, frame);
  ual_analyzer_step_decoded(&c->an, frame, link_ts(c, ts_ns), &c->res, &c->ev);
  if (c->o->timeline) dc_print_events(c, &c->ev);
  if (c->rep) dc_report_events(c->rep, &c->ev);
}

/* A capture at microsecond resolution (editcap -F pcap, tcpdump's default)
 * puts flits 2 ns apart onto the same microsecond: said once, when a flit
 * has the time of the one before it in its direction and every time so far
 * is a whole microsecond. */
static void check_resolution(struct dc_ctx *c, const struct ual_rec_result *r, uint64_t ts_ns) {
  if (!ts_ns || c->ts_res_said) return;
  if (ts_ns % 1000) {
    c->ts_res_said = true; /* finer than a microsecond */
    return;
  }
  if (r->status != UAL_RS_OK || r->rec.h.kind != UAL_REC_FLIT) return;
  unsigned d = r->dir & 1;
  if (c->last_flit_ts[d] == ts_ns) {
    char what[160];
    snprintf(what, sizeof what, "timestamps have microsecond resolution: this %s flit has the time of the one before it",
             d ? "B>A" : "A>B");
    report(c, r->frame, what, "times, rates and latencies are rounded to the microsecond", false);
    c->ts_res_said = true;
  }
  c->last_flit_ts[d] = ts_ns;
}

static void show(struct dc_ctx *c, const uint8_t *rec, size_t len, uint64_t ts_ns, uint32_t wire_len);

/* A record after its decode: problems reported, then selected, then shown. */
static void consume(struct dc_ctx *c, const uint8_t *rec, size_t len, uint64_t ts_ns, uint32_t wire_len) {
  const struct dc_opts *o = c->o;
  const struct ual_rec_result *r = &c->res;
  if (r->status != UAL_RS_OK && r->status != UAL_RS_RESERVED) {
    char detail[64] = "";
    if (wire_len > len) snprintf(detail, sizeof detail, "captured %zu of %u bytes", len, (unsigned)wire_len);
    char what[128];
    snprintf(what, sizeof what, "malformed record: %s, %zu byte%s", ual_rec_status_text(r->status), len,
             len == 1 ? "" : "s");
    report(c, r->frame, what, detail, true);
  } else if (r->status == UAL_RS_RESERVED) {
    report(c, r->frame, "reserved record header bits set (decoded anyway)", NULL, false);
  }
  if (!c->tref.first && ts_ns) c->tref.first = ts_ns;
  check_resolution(c, r, link_ts(c, ts_ns));
  bool sel = selected(o, r) && dc_filter_pass(c, rec, len, r->frame, ts_ns, wire_len);
  if (c->rep) dc_report_record(c->rep, &c->an, r, link_ts(c, ts_ns), sel);
  dc_view_record(c, link_ts(c, ts_ns), sel);
  if (sel) show(c, rec, len, ts_ns, wire_len);
  c->tref.prev = ts_ns;
}

static void show(struct dc_ctx *c, const uint8_t *rec, size_t len, uint64_t ts_ns, uint32_t wire_len) {
  const struct dc_opts *o = c->o;
  const struct ual_rec_result *r = &c->res;
  c->shown++;
  if (c->save) dc_save_record(c->save, rec, len, wire_len, ts_ns);
  if (r->findings.n && ual_findings_max_severity(&r->findings) == UAL_SEV_ERROR) c->error_finding = true;
  if (o->quiet || o->timeline || o->transactions || o->report) return;
  if (o->fo.fields) {
    dc_fields_line(c);
  } else if (o->json) {
    dc_print_json(c, rec, len, ts_ns);
  } else {
    if (o->verbose) dc_print_tree(c, rec, len, ts_ns);
    else dc_print_line(c, rec, len, ts_ns);
    if (o->hexdump) dc_print_hexdump(&c->out, rec, len);
    if (o->verbose || o->hexdump) dc_out_ch(&c->out, '\n');
  }
  c->tref.prev_shown = ts_ns;
  if (o->line_buffered) {
    dc_out_flush(&c->out);
    fflush(stdout);
  }
}

struct progress {
  bool on;
  uint64_t size;
  struct timespec start, last;
};

static double since(const struct timespec *a, const struct timespec *b) {
  return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static void progress_tick(struct progress *p, struct dc_ctx *c, uint64_t pos, uint64_t frames) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (since(&p->start, &now) < 1.0 || since(&p->last, &now) < 0.25) return;
  p->last = now;
  fprintf(stderr, "\r" PROG ": %3u%% %llu records", (unsigned)(p->size ? pos * 100 / p->size : 0),
          (unsigned long long)frames);
  c->progress_line = true;
}

bool dc_step(struct dc_ctx *c, enum dc_next nx, const char *msg, const uint8_t *rec, size_t len, uint64_t ts_ns,
             uint32_t wire_len, uint32_t frac_over, bool pre) {
  switch (nx) {
  case DC_NEXT_EOF: c->ended = true; return false;
  case DC_NEXT_BADLINE: report(c, 0, msg, NULL, true); return true;
  case DC_NEXT_TRUNC:
    report(c, c->frame + 1, "truncated record", msg, true);
    c->ended = true;
    return false;
  case DC_NEXT_LOST:
    report(c, c->frame + 1, "bad pcap record header, decoding stops here: the pcap framing is lost", msg, true);
    return false;
  case DC_NEXT_ERROR:
    report(c, c->frame + 1, msg, NULL, true);
    c->read_error = true;
    return false;
  case DC_NEXT_INTR: c->interrupted = true; return false;
  case DC_NEXT_SKIP:
    c->frame++; /* frames keep the capture's numbers */
    c->skipped++;
    return true;
  case DC_NEXT_RECORD: break;
  }
  c->frame++;
  if (frac_over && !c->frac_said && !c->warm) {
    char what[200];
    ual_pcap_frac_note(what, sizeof what, frac_over, c->frac_signed ? (int32_t)frac_over : (int64_t)frac_over);
    report(c, c->frame, what, "said once", false);
    c->frac_said = true;
  }
  produce(c, rec, len, c->frame, ts_ns, pre);
  consume(c, rec, len, ts_ns, wire_len);
  const struct dc_opts *o = c->o;
  if ((o->count && c->shown >= o->count) || c->frame >= o->frame_hi) {
    c->sel_stop = true;
    return false;
  }
  return !c->out.failed;
}

void dc_par_progress(struct dc_ctx *c, uint64_t pos) {
  if (c->pg->on) progress_tick(c->pg, c, pos, c->frame);
}

/* Standard output flushed without error (err: a write that already
 * failed), else said so. */
static bool stdout_written(int err) {
  int before = errno; /* a large write goes past the buffer: its failure left errno */
  if (fflush(stdout) != 0) err = errno;
  else if (ferror(stdout) && !err) err = before ? before : EIO;
  if (!err) return true;
  fprintf(stderr, PROG ": error writing output: %s\n", strerror(err));
  return false;
}

int main(int argc, char **argv) {
  struct dc_opts opts;
  /* a listing fits the buffer: its write error is seen by the last flush */
  setvbuf(stdout, NULL, _IOFBF, 1u << 16);
  int rc = parse_args(argc, argv, &opts);
  if (rc >= 0) return stdout_written(0) ? rc : DC_EXIT_USAGE; /* --help, --list-rules, -G ... */

  int exit_code = DC_EXIT_OK;
  struct dc_chunk ch = { 0 };
  struct dc_ctx *c = calloc(1, sizeof *c);
  struct dc_input *in = calloc(1, sizeof *in);
  if (!c || !in || !dc_out_init(&c->out, stdout, 1u << 20)) {
    fprintf(stderr, PROG ": out of memory\n");
    exit_code = DC_EXIT_USAGE;
    goto done;
  }
  c->o = &opts;
  if (isatty(STDOUT_FILENO)) opts.line_buffered = true;

  if (!dc_input_open(in, &opts)) {
    fprintf(stderr, PROG ": %s\n", in->msg);
    exit_code = DC_EXIT_USAGE;
    goto done;
  }
  if (opts.save) {
    char err[320];
    int dlt = in->type == DC_IN_PCAP && in->udp_lt < 0 ? opts.dlt : UAL_DLT_USER0;
    if (!(c->save = dc_save_open(opts.save, dlt, err, sizeof err))) {
      fprintf(stderr, PROG ": %s\n", err);
      exit_code = DC_EXIT_USAGE;
      goto done;
    }
  }
  if (opts.report) {
    char err[256];
    if (!(c->rep = dc_report_open(opts.report, err, sizeof err))) {
      fprintf(stderr, PROG ": %s\n", err);
      exit_code = DC_EXIT_USAGE;
      goto done;
    }
  }
  c->arrival_times = in->arrival_times;
  c->in = in;
  c->frac_signed = !in->fb; /* libpcap 1.10 reads the fraction as signed */
  ual_decoder_init(&c->dec);
  ual_analyzer_init(&c->an);
  for (unsigned i = 0; i < opts.n_seg; i++) ual_pcie_an_preset(&c->an.fab.pcie, opts.seg_bdf[i], opts.seg_val[i]);
  for (unsigned l = 0; l < 256; l++)
    if (opts.nfm_subtree[l] >= 0) ual_pcie_an_nfm_subtree(&c->an.fab.pcie, l, opts.nfm_subtree[l]);
  for (unsigned i = 0; i < opts.n_preset; i++) {
    char err[256];
    if (!ual_fabric_an_preset(&c->an.fab, opts.preset_name[i], opts.preset_arg[i], err, sizeof err)) {
      fprintf(stderr, PROG ": %s\n", err);
      exit_code = DC_EXIT_USAGE;
      goto done;
    }
  }
  for (unsigned i = 0; i < opts.n_an_opt; i++)
    if (ual_fabric_an_option(&c->an.fab, opts.an_opt[i][0], opts.an_opt[i][1]) < 0) {
      fprintf(stderr, PROG ": --%s: bad value '%s' (see --help)\n", opts.an_opt[i][0], opts.an_opt[i][1]);
      exit_code = DC_EXIT_USAGE;
      goto done;
    }
  ual_events_init(&c->ev);
  ual_view_tally_init(&c->vt);
  dc_view_prescan(c);
  if ((rc = dc_filter_setup(c)) >= 0) {
    exit_code = rc;
    goto done;
  }
  /* only the record printers and ualink.tl.data read TL flit bytes */
  c->an.no_tl_bytes = (opts.quiet || opts.timeline || opts.report) && !dc_filter_tl_bytes(c);
  /* nothing but the analysis reads a flit's bytes after its decode: -j's
   * main thread leaves FEC-clean ones in the record (pre.h) */
  c->an.bytes_in_record = opts.quiet && !opts.stateless && !opts.timeline && !c->rep && !c->flt;
  if (opts.chunk_n) {
    char err[400];
    opts.jobs = 1;
    if (!dc_chunk_plan(&ch, c, in, err, sizeof err)) {
      fprintf(stderr, PROG ": %s\n", err);
      exit_code = DC_EXIT_USAGE;
      goto done;
    }
  }
  /* after --frames' last frame a part has nothing to show, nor the end */
  bool chunk_idle = opts.chunk_n && (ch.empty || ch.first > opts.frame_hi);
  if (!opts.quiet && (!opts.chunk_n || ch.k == 1)) dc_fields_header(c);

  struct progress pg = { 0 };
  pg.size = in->size;
  pg.on = isatty(STDERR_FILENO) && (opts.quiet || !isatty(STDOUT_FILENO)) && in->size >= (16u << 20);
  clock_gettime(CLOCK_MONOTONIC, &pg.start);
  pg.last = pg.start;

  c->pg = &pg;
  if (!opts.jobs) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    opts.jobs = in->size >= DC_JOBS_MIN_SIZE && !in->is_stdin && n > 1 ? (unsigned)(n < DC_MAX_JOBS ? n : DC_MAX_JOBS) : 1;
  }
  /* captures of the UDP export are unwrapped by the reading thread */
  if (in->udp_lt >= 0) opts.jobs = 1;
  /* c->ended: the input was read to its real end: only then are the
   * end-of-capture checks made. Selection (-c, --frames) stops reading early. */
  catch_interrupts();
  if (opts.jobs > 1) {
    if (!dc_par_run(c, in)) {
      fprintf(stderr, PROG ": out of memory or no threads for -j %u\n", opts.jobs);
      exit_code = DC_EXIT_USAGE;
      goto done;
    }
  } else if (!chunk_idle) {
    struct dc_feed feed;
    dc_feed_start(&feed, in);
    for (;;) {
      if (opts.chunk_n && !dc_chunk_before(&ch, c, dc_feed_pos(&feed))) break; /* the next part's record */
      const uint8_t *rec = NULL;
      size_t len = 0;
      uint64_t ts_ns = 0;
      enum dc_next nx = dc_feed_next(&feed, &rec, &len, &ts_ns);
      if (!dc_step(c, nx, feed.msg, rec, len, ts_ns, in->type == DC_IN_PCAP ? feed.wire_len : 0,
                   in->type == DC_IN_PCAP ? feed.frac_over : 0, false)) {
        /* the last record selectable was the input's last one: a real end */
        if (c->sel_stop) c->ended = dc_feed_next(&feed, &rec, &len, &ts_ns) == DC_NEXT_EOF;
        break;
      }
      if (pg.on && (c->frame & 0x3fff) == 0) progress_tick(&pg, c, dc_feed_pos(&feed), c->frame);
    }
    dc_feed_stop(&feed);
  }
  if (opts.chunk_n) dc_chunk_done(&ch, c); /* a part with no records of its own may hold the end */
  if (c->read_error) exit_code = DC_EXIT_USAGE;
  if (c->progress_line) fputs("\r\033[K", stderr);
  if (c->interrupted)
    fprintf(stderr, PROG ": %s: interrupted (%s) after %llu record%s: no end-of-capture checks\n", opts.path,
            dc_interrupted == SIGTERM ? "SIGTERM" : "SIGINT", (unsigned long long)c->frame, c->frame == 1 ? "" : "s");

  struct ual_analysis_summary sum;
  if (!opts.stateless) {
    struct ual_findings endf;
    ual_findings_clear(&endf);
    ual_events_clear(&c->ev);
    if (c->ended) {
      ual_analyzer_finish(&c->an, &endf, &c->ev);
      select_end_findings(c, &endf);
    }
    if (opts.timeline) dc_print_events(c, &c->ev);
    if (opts.transactions && c->ended) dc_view_end(c);
    if (!opts.fo.fields) dc_print_end_findings(c, &endf);   /* -T fields prints records only */
    ual_analyzer_summary(&c->an, &sum);
    if (c->rep) {
      dc_report_events(c->rep, &c->ev);
      dc_report_end(c->rep, &endf);
    }
  }
  struct ual_view_src src;
  ual_analyzer_view_src(opts.stateless ? NULL : &c->an, &c->vt, &src);
  if (opts.stats) {
    if (opts.json) dc_stats_json(&c->out, &src);
    else {
      if (!opts.quiet && c->shown) dc_out_ch(&c->out, '\n');
      dc_stats_text(&c->out, opts.path, &src, c->link_col);
    }
  }
  dc_out_flush(&c->out);
  if (c->rep && !dc_report_write(c->rep, opts.path, &src)) {
    fprintf(stderr, PROG ": error writing the report %s: %s\n", opts.report, strerror(errno));
    exit_code = DC_EXIT_USAGE;
  }
  if (c->save) {
    bool ok = dc_save_close(c->save);
    c->save = NULL;
    if (!ok) {
      fprintf(stderr, PROG ": error writing %s: %s\n", strcmp(opts.save, "-") ? opts.save : "the pcap to standard output",
              strerror(errno));
      exit_code = DC_EXIT_USAGE;
    }
  }
  if (!stdout_written(c->out.failed ? c->out.err : 0)) exit_code = DC_EXIT_USAGE;
  if (opts.chunk_n && opts.chunk_side) {
    char err[400];
    if (!dc_chunk_write_side(&ch, c, opts.chunk_side, err, sizeof err)) {
      fprintf(stderr, PROG ": %s\n", err);
      exit_code = DC_EXIT_USAGE;
    }
  }
  if (c->skipped)
    fprintf(stderr, PROG ": %s: %llu frame%s without a record skipped: not UDP datagrams to port %u (--udp-port N)\n",
            opts.path, (unsigned long long)c->skipped, c->skipped == 1 ? "" : "s", opts.udp_port);
  if (in->udp_lt >= 0 && (in->udp_rx.lost || in->udp_rx.back))
    fprintf(stderr, PROG ": %s: %llu datagram%s of the UDP export lost in %llu gap%s, %llu out of sequence "
            "(export sequence numbers): the analysis started over after each\n", opts.path,
            (unsigned long long)in->udp_rx.lost, in->udp_rx.lost == 1 ? "" : "s", (unsigned long long)in->udp_rx.gaps,
            in->udp_rx.gaps == 1 ? "" : "s", (unsigned long long)in->udp_rx.back);
  if (c->reports > MAX_REPORTS)
    fprintf(stderr, PROG ": %s: %llu problems in all\n", opts.path, (unsigned long long)c->problems);
  if (exit_code == DC_EXIT_OK && c->interrupted) exit_code = DC_EXIT_SIGNAL + dc_interrupted;
  if (exit_code == DC_EXIT_OK && opts.strict && (c->error_finding || c->problems)) exit_code = DC_EXIT_STRICT;

done:
  if (in) dc_input_close(in);
  if (c) dc_out_free(&c->out);
  if (c) dc_report_free(c->rep);
  if (c) dc_filter_free(c);
  if (c) dc_save_close(c->save);
  if (opts.chunk_n) dc_chunk_free(&ch);
  free(in);
  free(c);
  return exit_code;
}
