#!/usr/bin/env python3
"""Loss the receiver can see: generated captures are sent as the UDP export
(export header with sequence numbers) with datagrams left out on purpose,
and every receiver must count exactly the datagrams left out and raise no
finding after a gap that the whole capture does not raise at that record
(the analysis starts over there, as at the start of a capture).

Receivers: ualink-decode on a saved export (a raw-IP pcap of the datagrams
that were sent), and ualink-tui's UDP socket source (test_tui_model
--receive) over 127.0.0.1.

usage: udp_loss.py UALINK_GEN UALINK_DECODE TEST_TUI_MODEL"""
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time

gen, decode, tui_model = sys.argv[1:4]
fails = 0
# findings of a stream's (re)start: said where the analysis synchronizes
START = {"AN-SYNC", "DL-PARTIAL-TL", "PF-SYNC"}
# (scenario, seed, records), and datagrams left out: index ranges in the middle
CASES = [(s, seed, 6000) for s in ("traffic", "all", "errors", "uart", "negotiation", "l1", "l0p", "ub-all", "ub-init",
                                    "ub-mode", "pcie", "pcie-flit", "pcie-rc") for seed in (3, 11)]


def drops(seed):
    """Index ranges left out, in the middle of the capture; moved by the seed."""
    o = seed * 37
    return [range(700 + o, 705 + o), range(1500 + o, 1501 + o), range(2600 + o, 2660 + o), range(4100 + o, 4400 + o)]


def fail(msg):
    global fails
    fails += 1
    print("FAIL " + msg)


def records(path):
    """The capture records of a nanosecond pcap written by ualink-gen."""
    data = open(path, "rb").read()
    assert struct.unpack_from("<I", data)[0] == 0xA1B23C4D, path
    out, at = [], 24
    while at + 16 <= len(data):
        _, _, caplen, _ = struct.unpack_from("<IIII", data, at)
        out.append(data[at + 16:at + 16 + caplen])
        at += 16 + caplen
    return out


def dgram(seq, rec):
    return struct.pack("<BBHI", 0x81, 8, 0, seq & 0xFFFFFFFF) + rec


def raw_ip_pcap(path, dgrams, port=17762):
    """A capture of the export as tcpdump would save it (LINKTYPE_RAW)."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 101))
        for i, d in enumerate(dgrams):
            udp = struct.pack(">HHHH", 40000, port, 8 + len(d), 0) + d
            ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0x4000, 64, 17, 0,
                             bytes([127, 0, 0, 1]), bytes([127, 0, 0, 1]))
            fr = ip + udp
            f.write(struct.pack("<IIII", 1000 + i // 1000, (i % 1000) * 1000, len(fr), len(fr)) + fr)


def findings(path):
    """{frame: set of rule IDs} of ualink-decode --json."""
    out = subprocess.run([decode, "--json", path], capture_output=True, text=True)
    res = {}
    for line in out.stdout.splitlines():
        o = json.loads(line)
        if "frame" in o and o.get("findings"):
            res[o["frame"]] = {f["rule"] for f in o["findings"]}
    return res, out.stderr


def compare(name, got, whole, orig_of):
    """Every finding of the lossy stream is the whole capture's at the same record."""
    extra = []
    for frame, rules in got.items():
        o = orig_of(frame)
        for r in sorted(rules - START - whole.get(o, set())):
            extra.append(f"{r} at record {o} (received as {frame})")
    if extra:
        fail(f"{name}: {len(extra)} findings the whole capture does not raise there: {extra[:8]}")
    return not extra


with tempfile.TemporaryDirectory() as tmp:
    for scen, seed, n in CASES:
        cap = os.path.join(tmp, f"{scen}.pcap")
        subprocess.run([gen, "--scenario", scen, "--seed", str(seed), "-c", str(n), "-w", cap], check=True,
                       capture_output=True)
        recs = records(cap)
        DROPS = drops(seed)
        dropped = {i for r in DROPS for i in r if i < len(recs) - 1}
        gaps = sum(1 for r in DROPS if r.start < len(recs) - 1)
        kept = [i for i in range(len(recs)) if i not in dropped]
        sent = [dgram(i, recs[i]) for i in kept]
        whole, _ = findings(cap)
        orig = lambda f: kept[f - 1] + 1          # received record f (1-based) is the capture's record

        # the whole capture sent without a gap: nothing lost, the same findings
        raw_ip_pcap(os.path.join(tmp, "all.pcap"), [dgram(i, r) for i, r in enumerate(recs)])
        allf, err = findings(os.path.join(tmp, "all.pcap"))
        if "lost" in err:
            fail(f"{scen}: a complete export reported loss: {err.strip()}")
        if {k: v - START for k, v in allf.items() if v - START} != {k: v - START for k, v in whole.items() if v - START}:
            fail(f"{scen}: the complete export decodes to other findings than the capture")

        # ualink-decode on the saved export with gaps
        lossy = os.path.join(tmp, "lossy.pcap")
        raw_ip_pcap(lossy, sent)
        got, err = findings(lossy)
        want = f"{len(dropped)} datagrams of the UDP export lost in {gaps} gap{'s' if gaps > 1 else ''}"
        if want not in err:
            fail(f"{scen}: ualink-decode did not say '{want}': {err.strip()!r}")
        st = subprocess.run([decode, "-q", "--stats", "--json", lossy], capture_output=True, text=True).stdout
        summ = json.loads(st.splitlines()[-1])
        marked = sum(summ["dirs"][d].get("after_lost", 0) for d in ("A>B", "B>A"))
        if marked != gaps:
            fail(f"{scen}: {marked} records marked after lost records for {gaps} gaps")
        ok = compare(f"{scen} ualink-decode", got, whole, orig)
        print(f"{'ok' if ok else 'checked'}: {scen}: ualink-decode counted {len(dropped)} lost, {marked} marked, "
              f"{sum(len(v) for v in got.values())} findings")

        # ualink-tui's UDP socket over loopback
        port = 20000 + (os.getpid() + seed) % 20000
        p = subprocess.Popen([tui_model, "--receive", "127.0.0.1", str(port), str(len(sent))],
                             stdout=subprocess.PIPE, text=True)
        if p.stdout.readline().strip() != "ready":
            fail(f"{scen}: the TUI's UDP source did not start")
            p.kill()
            continue
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for k, d in enumerate(sent):
            s.sendto(d, ("127.0.0.1", port))
            if k % 200 == 199:
                time.sleep(0.002)    # a pace the receiver keeps up with: the drops are ours only
        s.close()
        out, _ = p.communicate(timeout=60)
        r = json.loads(out)
        if r["lost"] != len(dropped) + r["kernel_drops"] or r["gaps"] < gaps:
            fail(f"{scen}: TUI counted {r['lost']} lost in {r['gaps']} gaps, sent without {len(dropped)} "
                 f"in {gaps} gaps (kernel dropped {r['kernel_drops']})")
        if r["rcvbuf"] < 4 << 20:
            fail(f"{scen}: the TUI's receive buffer is {r['rcvbuf']} bytes")
        ok = True
        if r["kernel_drops"] == 0 and r["records"] == len(sent):
            tf = {}
            for frame, rule in r["findings"]:
                tf.setdefault(frame, set()).add(rule)
            ok = compare(f"{scen} ualink-tui", tf, whole, orig)
        else:
            print(f"note: {scen}: the kernel dropped {r['kernel_drops']}: records not compared one by one")
        print(f"{'ok' if ok else 'checked'}: {scen}: ualink-tui counted {r['lost']} lost "
              f"(kernel {r['kernel_drops']}), receive buffer {r['rcvbuf']}")

print(f"udp loss: {len(CASES)} captures, {fails} failures")
sys.exit(1 if fails else 0)
