#!/usr/bin/env python3
"""ualink-decode --transactions against the generator's ground truth.

PCIe (pcie-flit, pcie-switch, pcie-rc): ualink-gen --tlp-truth lists every
non-posted request and completion by the frame its last DW went out in.
Each request must be one transaction of --transactions --json on its link:
start frame = the request's, end frame = the completion that finishes it,
parts = its completions, the requester's side, its Type, latency = the
time between the two records; nothing else is listed.

UALink (negotiation): every negotiation --timeline --json shows requested
is one transaction from that request frame, with the outcome of the
event that ended it and its latency.

usage: transactions_check.py UALINK_DECODE UALINK_GEN WORKDIR
"""
import json
import os
import re
import struct
import subprocess
import sys

decode, gen, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL", msg)


def pcap_times(path):
    """Frame number (1-based) -> timestamp in ns of a nanosecond pcap."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    assert magic == 0xa1b23c4d, "nanosecond pcap expected"
    at, n, ts = 24, 0, {}
    while at + 16 <= len(data):
        sec, nsec, incl, _ = struct.unpack("<IIII", data[at:at + 16])
        n += 1
        ts[n] = sec * 1000000000 + nsec
        at += 16 + incl
    return ts


def run_json(args):
    out = subprocess.run([decode] + args, check=True, capture_output=True, text=True).stdout
    return [json.loads(l) for l in out.splitlines() if l.strip()]


def pcie(scenario, seed):
    cap = os.path.join(work, "%s-%d.pcap" % (scenario, seed))
    truth = cap + ".tlp.jsonl"
    subprocess.run([gen, "-q", "-s", scenario, "--seed", str(seed), "-w", cap, "--tlp-truth", truth], check=True)
    ts = pcap_times(cap)
    tlps = [json.loads(l) for l in open(truth)]
    expect = {}
    open_req = {}    # (link, requester dir, rid, tag) -> key of the request waiting
    for t in tlps:
        d = 0 if t["dir"] == "A>B" else 1
        if not t["cpl"]:
            key = (t["link"], t["frame"], t["rid"], t["tag"])
            expect[key] = {"side": "AB"[d], "type": t["type"], "end": 0, "parts": 0}
            open_req[(t["link"], d, t["rid"], t["tag"])] = key
            continue
        k = open_req.get((t["link"], d ^ 1, t["rid"], t["tag"]))
        if k is None:
            fail("%s: completion at frame %d answers no request of the truth" % (scenario, t["frame"]))
            continue
        expect[k]["parts"] += 1
        if t["last"]:
            expect[k]["end"] = t["frame"]
            del open_req[(t["link"], d ^ 1, t["rid"], t["tag"])]
    got = {}
    for o in run_json(["--transactions", "--json", cap]):
        if o.get("kind") != "transaction":
            continue
        if o["fabric"] != "pcie":
            fail("%s: a %s transaction on a PCIe capture" % (scenario, o["fabric"]))
        rid, tag = o["what"].split("RID ")[1].split(" tag ")
        bus, dev, fn = re.fullmatch(r"([0-9a-f]{2}):([0-9a-f]{2})\.([0-7])", rid).groups()   # bus:device.function
        key = (o["link"], o["start_frame"], int(bus, 16) << 8 | int(dev, 16) << 3 | int(fn), int(tag))
        if key in got:
            fail("%s: transaction %s listed twice" % (scenario, key))
        got[key] = o
    for k, e in expect.items():
        o = got.get(k)
        if o is None:
            fail("%s: request link %d frame %d RID %04x tag %d not listed" % ((scenario,) + k))
            continue
        if o["end_frame"] != e["end"] or o["parts"] != e["parts"] or o["side"] != e["side"] or o["type"] != e["type"]:
            fail("%s: %s: got end %d parts %d side %s %s, truth end %d parts %d side %s %s" %
                 (scenario, k, o["end_frame"], o["parts"], o["side"], o["type"], e["end"], e["parts"], e["side"],
                  e["type"]))
        if e["end"]:
            want = ts[e["end"]] - ts[k[1]]
            if o["latency_ns"] != want or o["status"] != "ok":
                fail("%s: %s: latency %s status %s, truth %d ok" % (scenario, k, o["latency_ns"], o["status"], want))
        elif o["status"] != "open":
            fail("%s: %s unanswered in the truth, status %s" % (scenario, k, o["status"]))
    for k in got:
        if k not in expect:
            fail("%s: transaction %s is not in the truth" % (scenario, k))
    links = sorted({k[0] for k in expect})
    print("%s seed %d: %d requests on links %s, %d listed, %d open" %
          (scenario, seed, len(expect), links, len(got), sum(1 for e in expect.values() if not e["end"])))
    if not expect:
        fail("%s: the truth has no request" % scenario)
    # --link selects
    if len(links) > 1:
        sel = [o for o in run_json(["--transactions", "--json", "--link", str(links[1]), cap])
               if o.get("kind") == "transaction"]
        if not sel or any(o["link"] != links[1] for o in sel) or \
                len(sel) != sum(1 for k in got if k[0] == links[1]):
            fail("%s: --link %d lists %d transactions" % (scenario, links[1], len(sel)))


def ualink(scenario):
    cap = os.path.join(work, scenario + ".pcap")
    subprocess.run([gen, "-q", "-s", scenario, "-w", cap], check=True)
    ts = pcap_times(cap)
    events = [o for o in run_json(["-q", "--timeline", "--json", cap]) if o.get("event") == "negotiation"]
    txns = [o for o in run_json(["--transactions", "--json", cap]) if o.get("kind") == "transaction"]
    ends = {"complete": "ok", "nack": "reject", "pending": "deferred", "no_confirm": "error"}
    requests = [e for e in events if e["outcome"] == "request"]
    by_start = {}
    for t in txns:
        by_start.setdefault(t["start_frame"], []).append(t)
    for r in requests:
        end = [e for e in events if e["request_frame"] == r["frame"] and e["outcome"] in ends]
        cands = by_start.get(r["frame"], [])
        if not end:
            if not any(t["status"] == "open" for t in cands):
                fail("%s: the request at frame %d neither ends nor is open" % (scenario, r["frame"]))
            continue
        e = end[0]
        match = [t for t in cands if t["end_frame"] == e["frame"] and t["status"] == ends[e["outcome"]]]
        if len(match) != 1:
            fail("%s: request at frame %d: %d transactions end at %d as %s" %
                 (scenario, r["frame"], len(match), e["frame"], ends[e["outcome"]]))
            continue
        t = match[0]
        if t["latency_ns"] != ts[e["frame"]] - ts[r["frame"]] or t["type"] != r["mtype"]:
            fail("%s: request at frame %d: latency %s type %s, frames give %d %s" %
                 (scenario, r["frame"], t["latency_ns"], t["type"], ts[e["frame"]] - ts[r["frame"]], r["mtype"]))
    if len(txns) != len(requests):
        fail("%s: %d transactions for %d requests" % (scenario, len(txns), len(requests)))
    outcomes = sorted({t["status"] for t in txns})
    print("%s: %d negotiations, outcomes %s" % (scenario, len(requests), outcomes))
    if len(requests) < 5 or "reject" not in outcomes:
        fail("%s: expected negotiations with Nacks among them" % scenario)


for s in ("pcie-flit", "pcie-switch", "pcie-rc"):
    for seed in (1, 7):
        pcie(s, seed)
ualink("negotiation")
if failures:
    print("%d failures" % len(failures))
    sys.exit(1)
print("ok")
