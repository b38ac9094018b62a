#!/usr/bin/env python3
"""ualink-decode --chunk K/N parts joined by scripts/ualink-merge.py equal
the serial output byte for byte (issue 18), for N = 2, 3 and 5, in text and
JSON, on sample captures and a generated one, with a warm-up short enough
that some parts must be decoded again; a part's output with a record
dropped or duplicated must not merge into the serial output; and a Dask
LocalCluster of 2 workers (scripts/ualink-dask.py) gives the serial output.

  chunk_merge.py DECODER GEN SCRIPTS_DIR DASK_PYTHON SAMPLES_DIR WORKDIR
"""
import os
import shutil
import subprocess
import sys

DECODER, GEN, SCRIPTS, DASK_PY, SAMPLES, WORK = sys.argv[1:7]
MERGE = os.path.join(SCRIPTS, "ualink-merge.py")
DASK = os.path.join(SCRIPTS, "ualink-dask.py")
os.makedirs(WORK, exist_ok=True)
failures = []


def serial(cap, mode):
    return subprocess.run([DECODER] + mode + [cap], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout


def merged(cap, n, mode, extra=()):
    r = subprocess.run([sys.executable, MERGE, "--decoder", DECODER, "-N", str(n), "-j", "2", "--warmup", "200",
                        "--overlap", "20", *extra, cap, "--"] + mode, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.stdout, r.returncode, r.stderr.decode(errors="replace")


def check(name, got, want):
    if got != want:
        failures.append(name)
        print("FAIL %s: %d bytes merged, %d serial" % (name, len(got), len(want)))


gen = os.path.join(WORK, "gen-errors.pcap")
subprocess.run([GEN, "-s", "errors", "-c", "3000", "--seed", "5", "-w", gen], check=True, stdout=subprocess.DEVNULL)
inputs = [os.path.join(SAMPLES, s) for s in ("bringup.pcap", "l1.pcap", "traffic.pcap", "pcie-dllp.pcap")] + [gen]
redone = 0
for cap in inputs:
    for mode in ([], ["--json"]):
        want = serial(cap, mode)
        if want.count(b"\n") < 100:
            failures.append("%s: serial output too short to test" % cap)
        for n in (2, 3, 5):
            got, rc, err = merged(cap, n, mode)
            redone += err.count("decoding it again")
            check("%s -N %d %s (rc %d)" % (os.path.basename(cap), n, " ".join(mode), rc), got, want)
if not redone:
    failures.append("no part was decoded again: the warm-up check was not exercised")

# a part that lost or repeated a record does not give the serial output
cap, want = gen, serial(gen, ["--json"])
for damage in ("drop", "duplicate"):
    wd = os.path.join(WORK, "damaged-" + damage)
    shutil.rmtree(wd, ignore_errors=True)
    got, rc, _ = merged(cap, 3, ["--json"], ("--workdir", wd))
    check("undamaged parts in %s" % wd, got, want)
    part = os.path.join(wd, "part-2.out")
    lines = open(part, "rb").read().splitlines(keepends=True)
    lines = lines[:-1] if damage == "drop" else lines + lines[-1:]
    open(part, "wb").writelines(lines)
    got, rc, _ = merged(cap, 3, ["--json"], ("--merge-only", wd))
    if got == want:
        failures.append("a %sd record in part 2 still merged into the serial output" % damage)

# Dask: a LocalCluster of 2 workers
for cap, mode in ((os.path.join(SAMPLES, "l1.pcap"), []), (gen, ["--json"])):
    r = subprocess.run([DASK_PY, DASK, "--decoder", DECODER, "-N", "3", "--workers", "2", "--threads",
                        "--warmup", "200", "--overlap", "20", cap, "--"] + mode,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    if r.returncode:
        failures.append("dask on %s: exit %d: %s" % (cap, r.returncode, r.stderr.decode(errors="replace")[-400:]))
    check("dask %s %s" % (os.path.basename(cap), " ".join(mode)), r.stdout, serial(cap, mode))

# --stats needs the whole capture: refused, not faked
r = subprocess.run([sys.executable, MERGE, "--decoder", DECODER, "-N", "2", gen, "--", "--stats"],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
if r.returncode != 2 or b"not supported in chunked mode" not in r.stderr:
    failures.append("--stats in chunked mode was not refused")

print("%d checks failed; %d parts decoded again" % (len(failures), redone))
for f in failures:
    print("  " + f)
sys.exit(1 if failures else 0)
