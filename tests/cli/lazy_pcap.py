#!/usr/bin/env python3
"""ualink-decode loads libpcap only when it needs it (cli/decode/lpcap.h).

A regular pcap file of the expected link type decodes without loading it;
a stream, pcapng, -w and --version load it, and give the same output as
ualink-decode gives for the file. Which libraries the process loads is read
from the dynamic loader's own log (LD_DEBUG=libs).

  lazy_pcap.py DECODER CAPTURE WORKDIR
"""
import os
import struct
import subprocess
import sys

DECODER, CAP, WORK = sys.argv[1:4]
failures = []


def run(args, stdin=None, debug=True):
    env = dict(os.environ)
    env.pop("UALINK_LIBPCAP", None)
    if debug:
        env["LD_DEBUG"] = "libs"
    fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
    try:
        p = subprocess.run([DECODER] + args, stdin=fin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    finally:
        if stdin:
            fin.close()
    loaded = any(b"calling init:" in l and b"libpcap" in l for l in p.stderr.splitlines())
    return p.returncode, p.stdout, loaded


def check(what, cond):
    if not cond:
        failures.append(what)


def pcapng(src, dst):
    """The records of pcap file src as a pcapng file (one interface)."""
    data = open(src, "rb").read()
    magic, _, _, _, _, snap, lt = struct.unpack("<IHHiIII", data[:24])
    assert magic in (0xA1B2C3D4, 0xA1B23C4D), hex(magic)
    nsec = magic == 0xA1B23C4D

    def block(t, body):
        body += bytes(-len(body) % 4)
        n = 12 + len(body)
        return struct.pack("<II", t, n) + body + struct.pack("<I", n)

    out = [block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))]
    # if_tsresol: 9 (nanoseconds) or 6
    opt = struct.pack("<HHB3x", 9, 1, 9 if nsec else 6) + struct.pack("<HH", 0, 0)
    out.append(block(1, struct.pack("<HHI", lt, 0, snap) + opt))
    at = 24
    while at + 16 <= len(data):
        sec, frac, caplen, wire = struct.unpack("<IIII", data[at:at + 16])
        ts = sec * (10**9 if nsec else 10**6) + frac
        out.append(block(6, struct.pack("<IIIII", 0, ts >> 32, ts & 0xFFFFFFFF, caplen, wire) +
                         data[at + 16:at + 16 + caplen]))
        at += 16 + caplen
    open(dst, "wb").write(b"".join(out))


os.makedirs(WORK, exist_ok=True)
rc, want, loaded = run(["--json", CAP])
check("a pcap file: exit %d" % rc, rc in (0, 1))
check("a pcap file loaded libpcap", not loaded)
check("a pcap file: no output", len(want) > 1000)
rc2, got, loaded = run(["--json", "-"], stdin=CAP)
check("a pcap stream did not load libpcap", loaded)
check("a pcap stream: not the file's output (exit %d vs %d)" % (rc2, rc), (rc2, got) == (rc, want))
ng = os.path.join(WORK, "lazy.pcapng")
pcapng(CAP, ng)
rc2, got, loaded = run(["--json", ng])
check("pcapng did not load libpcap", loaded)
check("pcapng: not the pcap file's output (exit %d vs %d)" % (rc2, rc), (rc2, got) == (rc, want))
out = os.path.join(WORK, "lazy-w.pcap")
rc2, _, loaded = run(["-q", "-w", out, CAP])
check("-w did not load libpcap", loaded)
rc3, got, _ = run(["--json", out], debug=False)
check("-w: the written file does not decode as the original (exit %d vs %d)" % (rc3, rc), (rc3, got) == (rc, want))
rc2, got, loaded = run(["--version"])
check("--version did not load libpcap", loaded)
check("--version does not name libpcap's version: %r" % got, rc2 == 0 and b"libpcap version" in got)
for f in failures:
    print("FAIL", f)
print("lazy libpcap: %d failures" % len(failures))
sys.exit(1 if failures else 0)
