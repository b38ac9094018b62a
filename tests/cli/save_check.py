#!/usr/bin/env python3
"""ualink-decode -w: the records a selection chooses are written to a pcap
byte for byte with their timestamps, and only they (filter and save, as with
tshark -w); -w - writes the same stream to a pipe; -P prints while saving.

  save_check.py DECODER CAPTURE WORKDIR"""
import json
import os
import struct
import subprocess
import sys

failures = []


def run(argv, **kw):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    return p.returncode, p.stdout, p.stderr.decode()


def pcap_records(data):
    """(link type, [(ts_ns, bytes)]) of a nanosecond little-endian pcap."""
    magic, _, _, _, _, _, dlt = struct.unpack_from("<IHHiIII", data, 0)
    if magic != 0xA1B23C4D:
        raise ValueError("not a nanosecond pcap (magic %08x)" % magic)
    out, off = [], 24
    while off + 16 <= len(data):
        sec, ns, caplen, _ = struct.unpack_from("<IIII", data, off)
        out.append((sec * 1000000000 + ns, data[off + 16:off + 16 + caplen]))
        off += 16 + caplen
    return dlt, out


def selected(dec, capture, sel):
    """What the selection shows, as (ts_ns, bytes), from --json -x."""
    rc, out, err = run([dec, "--json", "-x"] + sel + [capture])
    if rc != 0:
        raise RuntimeError("%s: exit %d: %s" % (sel, rc, err))
    recs = []
    for line in out.decode().splitlines():
        o = json.loads(line)
        if "raw" in o:
            recs.append((o["ts_ns"], bytes.fromhex(o["raw"])))
    return recs


def check(name, cond, detail=""):
    if cond:
        print("ok   %s" % name)
    else:
        failures.append(name)
        print("FAIL %s %s" % (name, detail))


def main():
    dec, capture, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    for n, sel in enumerate([["--rule", "RP-NAK,PL-CRC"], ["--dir", "B", "--frames", "100-400"],
                             ["--severity", "error"], ["-c", "25", "--dir", "A"], []]):
        out = os.path.join(work, "saved-%d.pcap" % n)
        rc, stdout, err = run([dec, "-w", out] + sel + [capture])
        want = selected(dec, capture, sel)
        with open(out, "rb") as f:
            dlt, got = pcap_records(f.read())
        label = " ".join(sel) or "everything"
        check("%s: exit 0, nothing printed" % label, rc == 0 and stdout == b"" and err == "",
              "exit %d, %d bytes out, stderr %r" % (rc, len(stdout), err))
        check("%s: link type 147" % label, dlt == 147, "got %d" % dlt)
        check("%s: %d records, bytes and times" % (label, len(want)), got == want and len(want) > 0,
              "saved %d, selected %d" % (len(got), len(want)))
        if not sel:
            with open(capture, "rb") as f:
                check("everything: the records of the input", got == pcap_records(f.read())[1])
        os.unlink(out)
    # to a pipe, and read back from it
    p1 = subprocess.Popen([dec, "-w", "-", "--rule", "RP-NAK", capture], stdout=subprocess.PIPE)
    rc, out, err = run([dec, "--json", "-x", "-"], stdin=p1.stdout)
    p1.stdout.close()
    p1.wait()
    piped = [(o["ts_ns"], bytes.fromhex(o["raw"])) for o in map(json.loads, out.decode().splitlines()) if "raw" in o]
    check("-w - | ualink-decode -", p1.returncode == 0 and rc == 0 and piped == selected(dec, capture, ["--rule", "RP-NAK"]),
          "exit %d/%d, %d records" % (p1.returncode, rc, len(piped)))
    # -P prints what it saves
    out_p = os.path.join(work, "saved-p.pcap")
    rc, printed, err = run([dec, "-P", "-w", out_p, "--rule", "RP-NAK", capture])
    rc2, plain, _ = run([dec, "--rule", "RP-NAK", capture])
    check("-P prints the saved records", rc == 0 and printed == plain and len(plain) > 0)
    os.unlink(out_p)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
