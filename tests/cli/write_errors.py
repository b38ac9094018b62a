#!/usr/bin/env python3
"""Every output of ualink-decode and ualink-gen reports a write error with
its cause and exits non-zero (issue 42): /dev/full as standard output, as
-w, --report, --chunk-side and --truth. Each case also runs to a writable
place, where it must succeed.

  write_errors.py DECODER GEN CAPTURE WORKDIR
"""
import os
import subprocess
import sys

DECODER, GEN, CAP, WORK = sys.argv[1:5]
FULL = "/dev/full"
if not os.path.exists(FULL):
    print("no /dev/full here: skipped")
    sys.exit(77)
os.makedirs(WORK, exist_ok=True)
ENOSPC = os.strerror(28)
env = dict(os.environ, LC_ALL="C")
failures = []


def run(argv, stdout_path):
    with open(stdout_path, "wb") as out:
        p = subprocess.run(argv, stdout=out, stderr=subprocess.PIPE, env=env)
    return p.returncode, p.stderr.decode(errors="replace")


def case(name, argv, to_stdout, want_rc, want_msg, ok_argv=None):
    """argv writes to /dev/full (to_stdout: through standard output);
    ok_argv (default: argv with /dev/full replaced) writes to a file."""
    rc, err = run(argv, FULL if to_stdout else os.devnull)
    if rc != want_rc or want_msg not in err:
        failures.append("%s: exit %d, stderr %r; want exit %d and %r" % (name, rc, err[-300:], want_rc, want_msg))
    ok = ok_argv or [a.replace(FULL, os.path.join(WORK, "out")) for a in argv]
    rc, err = run(ok, os.path.join(WORK, "stdout"))
    if rc != 0:
        failures.append("%s to a writable place: exit %d, %r" % (name, rc, err[-300:]))


dec_out = "ualink-decode: error writing output: " + ENOSPC
for opts in ([], ["--json"], ["--timeline"], ["-V"], ["-x"], ["-T", "fields", "-e", "frame.number"], ["--stats"],
             ["--stats", "--json"], ["--list-rules"], ["-G", "fields"], ["--help"], ["--version"]):
    case("ualink-decode %s > /dev/full" % " ".join(opts), [DECODER] + opts + [CAP], True, 2, dec_out)
case("ualink-decode -w /dev/full", [DECODER, "-q", "-w", FULL, CAP], False, 2,
     "ualink-decode: error writing /dev/full: " + ENOSPC)
case("ualink-decode -w - > /dev/full", [DECODER, "-w", "-", CAP], True, 2,
     "ualink-decode: error writing the pcap to standard output: " + ENOSPC,
     [DECODER, "-w", os.path.join(WORK, "save.pcap"), CAP])
case("ualink-decode --report /dev/full", [DECODER, "-q", "--report", FULL, CAP], False, 2,
     "ualink-decode: error writing the report /dev/full: " + ENOSPC)
for k in (1, 2, 3):
    case("ualink-decode --chunk %d/3 --chunk-side /dev/full" % k,
         [DECODER, "--chunk", "%d/3" % k, "--warmup", "50", "--chunk-side", FULL, CAP], False, 2,
         "ualink-decode: error writing /dev/full: " + ENOSPC)

gen_full = "ualink-gen: /dev/full: " + ENOSPC
for scen in ("l1", "traffic", "pcie", "pcie-flit", "ub-all"):
    case("ualink-gen -s %s -w /dev/full" % scen, [GEN, "-q", "-s", scen, "-c", "3000", "-w", FULL], False, 1, gen_full)
case("ualink-gen -w - > /dev/full", [GEN, "-q", "-s", "l1", "-w", "-"], True, 1,
     "ualink-gen: standard output: " + ENOSPC)
case("ualink-gen --truth /dev/full",
     [GEN, "-q", "-s", "traffic", "-c", "500", "--inject", "DL-TLBEAT", "-w", os.path.join(WORK, "t.pcap"),
      "--truth", FULL], False, 1, gen_full)
for opt in ("--list-injections", "--list-scenarios", "--help", "--version"):
    case("ualink-gen %s > /dev/full" % opt, [GEN, opt], True, 1, "ualink-gen: standard output: " + ENOSPC)

print("%d write-error cases failed" % len(failures))
for f in failures:
    print("  " + f)
sys.exit(1 if failures else 0)
