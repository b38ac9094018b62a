#!/usr/bin/env python3
"""ualink-decode -j N gives byte for byte the output of -j 1 (issue 18).

Inputs: every sample capture, a generated capture of every ualink-gen
scenario large enough to span many of the 256 KiB blocks -j reads, mkcap's
malformed, truncated and hostile inputs, and captures written here whose
records straddle blocks, fill a block exactly, are cut to a small snapshot
length, end truncated inside a block-spanning record or lose their framing
after the first megabyte, in both byte orders and both time resolutions.

Each input is decoded in every output mode with -j 1, -j 2 and -j 3; stdout,
stderr and the exit status must be identical. Which batches the worker
decodes depends on timing, so -j 2 also runs in two modes with each
(UALINK_JOBS_SPLIT): the worker decoding every batch, and handing every
one over to the main thread. -j 1 itself is also compared
with libpcap's own framing (UALINK_LIBPCAP=1), and a pcap stream on stdin
with -j 2 (the main thread reads, the workers decode) with the file.

  jobs_identical.py DECODER GEN MKCAP SAMPLES_DIR WORKDIR
"""
import os
import random
import struct
import subprocess
import sys

DECODER, GEN, MKCAP, SAMPLES, WORK = sys.argv[1:6]

MODES = [
    [],
    ["-V"],
    ["-x", "--frames", "2-40"],
    ["--json"],
    ["--json", "-x", "--stats"],
    ["-q", "--stats"],
    ["-q", "--stats", "--json"],
    ["--timeline"],
    ["--timeline", "--json"],
    ["--stateless", "--json", "--stats"],
    ["--severity", "warning", "--stats"],
    ["--rule", "PL-CRC,DL-ZERO-FILL,RP-EXPLICIT-GROUP", "--json"],
    ["--dir", "B", "-c", "300"],
    ["--strict", "-q"],
    ["--report", "-"],
]

# UAL_TEST_SAMPLE=N (the sanitizer build sets it): each input in every N-th
# mode, rotating, so every mode still meets many inputs at 1/N of the runs;
# the same for the other checks of each input.
SAMPLE = max(1, int(os.environ.get("UAL_TEST_SAMPLE", "1")))

failures = []


def run(args, stdin=None, env=None):
    e = dict(os.environ)
    e.pop("UALINK_LIBPCAP", None)
    if env:
        e.update(env)
    fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
    try:
        p = subprocess.run([DECODER] + args, stdin=fin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e,
                           timeout=600)
    finally:
        if stdin:
            fin.close()
    return p.returncode, p.stdout, p.stderr


def same(what, a, b):
    if a == b:
        return True
    for part, x, y in (("exit status", a[0], b[0]), ("stdout", a[1], b[1]), ("stderr", a[2], b[2])):
        if x != y:
            detail = f"{x} vs {y}" if part == "exit status" else f"{len(x)} vs {len(y)} bytes"
            if part != "exit status":
                n = next((i for i in range(min(len(x), len(y))) if x[i] != y[i]), min(len(x), len(y)))
                detail += f", first difference at byte {n}: {x[max(0, n - 60):n + 60]!r} vs {y[max(0, n - 60):n + 60]!r}"
            failures.append(f"{what}: {part} differs ({detail})")
    return False


# ---- captures written here ----------------------------------------------

def record(kind, body, direction=0):
    # the 8-byte capture record header (docs/capture-format.md): version 1
    return bytes([1, kind, direction & 1, 0, 7, 8, 0, 0]) + body


def idle_flit():
    return record(1, bytes(256))


def pcap(path, records, snap=65535, swapped=False, nsec=True, tail=b""):
    e = ">" if swapped else "<"
    magic = 0xA1B23C4D if nsec else 0xA1B2C3D4
    out = [struct.pack(e + "IHHiIII", magic, 2, 4, 0, 0, snap, 147)]
    t = 1_700_000_000
    for i, r in enumerate(records):
        caplen, wire = (r[1], r[2]) if isinstance(r, tuple) else (len(r), len(r))
        data = r[0] if isinstance(r, tuple) else r
        out.append(struct.pack(e + "IIII", t + i // 1000, (i % 1000) * (1000 if nsec else 1), caplen, wire) + data)
    with open(path, "wb") as f:
        f.write(b"".join(out) + tail)
    return path


def crafted(rng):
    paths = []
    flits = [idle_flit() for _ in range(8)]
    # the first block ends exactly with a record: 24-byte file header, then
    # one record of 262144 - 16 bytes fills [24, 24 + 256 KiB)
    big = record(2, bytes(262128 - 8))
    paths.append(pcap(f"{WORK}/aligned.pcap", [big] + flits * 300, snap=262144))
    # records of every size up to libpcap's largest, straddling blocks
    recs = []
    for i in range(60):
        n = rng.choice([0, 3, 8, 264, 1000, 65535, 131072, 262144 - 16, 262144])
        if n < 8:
            recs.append(bytes(n))  # shorter than a record header: malformed
        else:
            head = bytes(rng.getrandbits(8) for _ in range(min(n - 8, 64)))
            recs.append(record(1, head + bytes(n - 8 - len(head))))
        recs += flits[: rng.randrange(1, 8)]
    paths.append(pcap(f"{WORK}/sizes.pcap", recs, snap=262144))
    # cut to a small snapshot length: libpcap keeps 200 bytes and skips the rest
    paths.append(pcap(f"{WORK}/snap200.pcap", flits * 2000, snap=200))
    # the last record spans a block boundary and the file ends inside it
    body = pcap(f"{WORK}/trunc_big.pcap", flits * 900 + [record(2, bytes(200000))], snap=262144)
    data = open(body, "rb").read()
    open(body, "wb").write(data[:-5000])
    # a truncated record header after many blocks
    paths.append(pcap(f"{WORK}/trunc_hdr.pcap", flits * 3000, tail=b"\x01\x02\x03\x04\x05\x06\x07"))
    paths.append(body)
    # a record header libpcap refuses after the first megabyte: framing lost
    paths.append(pcap(f"{WORK}/lost.pcap", flits * 4000, tail=struct.pack("<IIII", 0, 0, 262145, 262145) + bytes(64)))
    # big-endian, microseconds
    paths.append(pcap(f"{WORK}/swapped_usec.pcap", flits * 2500 + [record(2, bytes(100000))] + flits * 10,
                      snap=262144, swapped=True, nsec=False))
    # captured shorter than on the wire
    paths.append(pcap(f"{WORK}/clipped.pcap", [(f, 264, 300) for f in flits] * 1200))
    return paths


def generated():
    paths = []
    out = subprocess.run([GEN, "--list-scenarios"], stdout=subprocess.PIPE, text=True, check=True).stdout
    scenarios = [l.split()[0] for l in out.splitlines() if l.strip() and not l.startswith(" ")]
    for s in scenarios:
        p = f"{WORK}/gen-{s}.pcap"
        # at least a few blocks of 256 KiB each
        subprocess.run([GEN, "-s", s, "-c", "6000", "--seed", "7", "-w", p], check=True,
                       stdout=subprocess.DEVNULL)
        paths.append(p)
    p = f"{WORK}/gen-errors-ber.pcap"
    subprocess.run([GEN, "-s", "errors", "--ber", "1e-4", "-c", "6000", "--seed", "3", "-w", p], check=True,
                   stdout=subprocess.DEVNULL)
    paths.append(p)
    return paths


def main():
    os.makedirs(WORK, exist_ok=True)
    mk = f"{WORK}/mkcap"
    os.makedirs(mk, exist_ok=True)
    subprocess.run([MKCAP, mk], check=True, stdout=subprocess.DEVNULL)
    inputs = sorted(os.path.join(SAMPLES, f) for f in os.listdir(SAMPLES) if f.endswith((".pcap", ".pcapng")))
    inputs += sorted(os.path.join(mk, f) for f in os.listdir(mk) if f.endswith((".pcap", ".pcapng")))
    inputs += generated()
    inputs += crafted(random.Random(18))
    checked = 0
    for k, path in enumerate(inputs):
        name = os.path.basename(path)
        for i, mode in enumerate(MODES):
            if (i + k) % SAMPLE:
                continue
            args = mode + [path]
            ref = run(["-j", "1"] + args)
            for j in ("2", "3"):
                same(f"{name} {' '.join(mode)} -j {j}", ref, run(["-j", j] + args))
            checked += 1
        # both halves of -j 2's work sharing, whatever the timing (every
        # SAMPLE-th input under UAL_TEST_SAMPLE)
        for mode in (["-q", "--stats"], ["--json", "-x"]) if k % SAMPLE == 0 else ():
            ref = run(["-j", "1"] + mode + [path])
            for split in ("decode", "hand"):
                same(f"{name} {' '.join(mode)} -j 2 UALINK_JOBS_SPLIT={split}", ref,
                     run(["-j", "2"] + mode + [path], env={"UALINK_JOBS_SPLIT": split}))
        # the block reader frames as libpcap does (each input in every
        # SAMPLE-th mode, rotating)
        for m, mode in enumerate(([], ["-q", "--stats"], ["--json"])):
            if (m + k) % SAMPLE:
                continue
            same(f"{name} {' '.join(mode)} -j 1 blocks vs libpcap", run(["-j", "1"] + mode + [path], env={"UALINK_LIBPCAP": "1"}),
                 run(["-j", "1"] + mode + [path]))
        # a stream: libpcap reads on the main thread, workers decode (every
        # SAMPLE-th input, not those of the work-sharing check)
        if (k + 1) % SAMPLE:
            continue
        ref = run(["-j", "1", "--json", path])
        got = run(["-j", "2", "--json", "-"], stdin=path)
        # messages name the input: "-" instead of the path
        same(f"{name} --json stdin -j 2", (ref[0], ref[1], ref[2].replace(path.encode(), b"-")), got)
    # raw flits and hex text: read on the main thread, decoded by the workers
    for opt, name in (("--raw", "flits.raw"), ("--hex", "flits.hex"), ("--hex", "bad.hex"), ("--raw", "flits_trunc.raw")):
        for mode in ([], ["--json", "--stats"], ["--timeline"]):
            ref = run(["-j", "1"] + mode + [opt, f"{mk}/{name}"])
            for j in ("2", "3"):
                same(f"{name} {' '.join(mode)} -j {j}", ref, run(["-j", j] + mode + [opt, f"{mk}/{name}"]))
    for f in failures[:40]:
        print("FAIL", f)
    print(f"{len(inputs)} inputs, {checked} input x mode pairs with -j 1/2/3, {len(failures)} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
