#!/usr/bin/env python3
"""ualink-decode --chunk K/N parts joined by scripts/ualink-merge.py equal
the serial output byte for byte (issue 18), for N = 2, 3 and 5, in text and
JSON, on sample captures and a generated one, with a warm-up short enough
that some parts must be decoded again, and with warm-ups from 50 to 1000
records on every scenario (each boundary proved or decoded again); a part's output with a record
dropped or duplicated must not merge into the serial output; and a Dask
LocalCluster of 2 workers (scripts/ualink-dask.py) gives the serial output.

  chunk_merge.py DECODER GEN SCRIPTS_DIR DASK_PYTHON SAMPLES_DIR WORKDIR
"""
import json
import os
import shutil
import struct
import subprocess
import sys

DECODER, GEN, SCRIPTS, DASK_PY, SAMPLES, WORK = sys.argv[1:7]
MERGE = os.path.join(SCRIPTS, "ualink-merge.py")
DASK = os.path.join(SCRIPTS, "ualink-dask.py")
os.makedirs(WORK, exist_ok=True)
failures = []


def serial(cap, mode):
    return subprocess.run([DECODER] + mode + [cap], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout


def merged(cap, n, mode, extra=(), warmup=200):
    r = subprocess.run([sys.executable, MERGE, "--decoder", DECODER, "-N", str(n), "-j", "2", "--warmup", str(warmup),
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

# Short warm-ups over every scenario: each boundary is proved equal (the
# whole analysis state, ual_analyzer_state_hash) or decoded again, never
# merged wrong (issue 42: an l0p capture whose uncorrectable flit no replay
# follows lost an LT-L0P-WITHOUT-DL and gained negotiation lines).
def with_gaps(src, dst, every, gap_ns):
    """src with a pause of gap_ns before every every-th record: link time
    that passes the analysis' longest window (10 ms) within any warm-up
    longer than every, so that boundaries can be proved without the whole
    prefix."""
    data = open(src, "rb").read()
    assert data[:4] == b"\x4d\x3c\xb2\xa1", "nanosecond pcap expected"
    out, pos, k = bytearray(data[:24]), 24, 0
    while pos + 16 <= len(data):
        sec, frac, incl, orig = struct.unpack_from("<IIII", data, pos)
        sec, frac = divmod(sec * 1000000000 + frac + (k // every) * gap_ns, 1000000000)
        k += 1
        out += struct.pack("<IIII", sec, frac, incl, orig) + data[pos + 16:pos + 16 + incl]
        pos += 16 + incl
    open(dst, "wb").write(out)


sweep = []
for scen, extra in (("bringup", []), ("traffic", ["-c", "2500"]), ("uart", []), ("negotiation", []), ("l1", []),
                    ("l0p", []), ("l0p", ["--ber", "5e-5", "--seed", "2"]), ("l0p", ["--ber", "5e-5", "--seed", "3"]),
                    ("errors", ["-c", "2500"]), ("all", ["--run-scale", "0.1"]), ("pcie", []), ("pcie-flit", []),
                    ("ub-all", [])):
    path = os.path.join(WORK, "sweep-%s%s.pcap" % (scen, "".join(extra).replace("-", "")))
    subprocess.run([GEN, "-s", scen, "-q"] + extra + ["-w", path], check=True, stdout=subprocess.DEVNULL)
    sweep.append(path)
long_cap = os.path.join(WORK, "sweep-traffic-long.pcap")
subprocess.run([GEN, "-s", "traffic", "-q", "-c", "9000", "-w", long_cap], check=True, stdout=subprocess.DEVNULL)
gapped = os.path.join(WORK, "sweep-traffic-gap.pcap")
with_gaps(long_cap, gapped, 100, 12000000)
proved = {}
for cap, warmups in [(c, (50, 150, 300, 450, 600, 1000)) for c in sweep] + [(gapped, (1000, 3000))]:
    for mode in (["--timeline"], ["--json"]):
        want = serial(cap, mode)
        for w in warmups:
            wd = os.path.join(WORK, "sweep-part")
            shutil.rmtree(wd, ignore_errors=True)
            got, rc, err = merged(cap, 3, mode, ("--workdir", wd), warmup=w)
            check("%s --warmup %d %s (rc %d)" % (os.path.basename(cap), w, " ".join(mode), rc), got, want)
            for k in (2, 3):
                meta = json.loads(open(os.path.join(wd, "part-%d.side" % k), "rb").readline())
                if meta["warm_from"] > 1 and not meta["empty"]:
                    proved[cap] = proved.get(cap, 0) + 1
print("boundaries proved without the whole prefix: %s" % {os.path.basename(c): n for c, n in proved.items()})
if not proved.get(gapped):
    failures.append("no boundary of %s was proved: the state comparison was not exercised" % gapped)

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
