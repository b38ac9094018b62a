#!/usr/bin/env python3
"""Compares tshark's UALink fields with `ualink-decode --json` for every frame.

    compare_json.py DECODE.jsonl TSHARK.tsv

TSHARK.tsv is `tshark -T fields -E aggregator='|' -e frame.number -e <FIELDS>`
with FIELDS as printed by `compare_json.py --fields`. Checked per frame: the
record header, flit header, CRC/FEC, segments, DLLP, completed TL flits and
DL messages (with every message field, matched to the frame where the message
starts), ordered sets, link events and the rule IDs of the findings.
"""
import json
import os
import sys

FIELDS = [
    "ualink.rec.dir", "ualink.rec.link", "ualink.rec.kind", "ualink.malformed",
    "ualink.fh.usage", "ualink.fh.prior", "ualink.fh.replay_cmd", "ualink.fh.seq",
    "ualink.flit.kind", "ualink.flit.crc", "ualink.flit.crc_calc", "ualink.flit.crc_ok",
    "ualink.flit.fec_status",
    "ualink.sh.alt", "ualink.sh.tlbeat",
    "pcie.fdllp.type",
    "ualink.tl.data", "ualink.tl.m0", "ualink.tl.m1", "ualink.tl.start_frame", "ualink.tl.start_segment",
    "ualink.dlm.start_frame", "ualink.dlm.segment", "ualink.dlm.payload",
    "ualink.msg.type",
    "ualink.os.lane", "ualink.os.encoding", "ualink.os.type", "ualink.ts.link_number",
    "ualink.ts.lane_number", "ualink.ts.flit_mode", "ualink.ts.mts_usage", "ualink.ts.vendor_id",
    "ualink.event.code", "ualink.event.value",
    "pcie.framing", "pcie.dllp.type", "pcie.dllp.crc", "pcie.dllp.crc_calc",
    "pcie.dllp.crc_ok", "pcie.dllp.seq", "pcie.dllp.vc", "pcie.dllp.hdr_scale",
    "pcie.dllp.hdr_fc", "pcie.dllp.data_scale", "pcie.dllp.data_fc", "pcie.dllp.data",
    "pcie.tlp.type", "pcie.tlp.length",
    "ub.flit.role", "ub.bcrc.ok", "ub.bcrc.crc30_calc", "ub.unit.flits",
    "_ws.expert.message",
]
# Kind 7 (PCIe non-flit packets): these rows of the JSON "fields" list
# against tshark's, every occurrence in order.
NF_FIELDS = [
    "pcie.nf.encoding", "pcie.nf.class", "pcie.nf.truncated", "pcie.nf.wire_len", "pcie.nf.start", "pcie.nf.end",
    "pcie.nf.sdp_token", "pcie.nf.edb_token", "pcie.nf.stp.parity", "pcie.nf.stp.fcrc", "pcie.nf.stp.seq",
    "pcie.nf.stp.len", "pcie.nf.stp.fcrc_calc", "pcie.nf.seq", "pcie.nf.seq_rsvd", "pcie.nf.lcrc",
    "pcie.nf.lcrc_calc", "pcie.nf.lcrc_status", "pcie.nf.accepted", "pcie.nf.prefix", "pcie.nf.fmt_type",
    "pcie.nf.fmt", "pcie.nf.type", "pcie.nf.tc", "pcie.nf.td", "pcie.nf.ep", "pcie.nf.attr", "pcie.nf.at",
    "pcie.nf.length", "pcie.nf.requester_id", "pcie.nf.tag", "pcie.nf.first_be", "pcie.nf.last_be",
    "pcie.nf.addr32", "pcie.nf.addr64", "pcie.nf.cfg_target", "pcie.nf.reg_offset", "pcie.nf.completer_id",
    "pcie.nf.cpl_status", "pcie.nf.bcm", "pcie.nf.byte_count", "pcie.nf.cpl_requester_id", "pcie.nf.lower_addr",
    "pcie.nf.msg_requester_id", "pcie.nf.msg_code", "pcie.nf.msg_bytes", "pcie.nf.payload_len", "pcie.nf.ecrc",
    "pcie.nf.ecrc_calc", "pcie.nf.ecrc_status",
]
FIELDS += NF_FIELDS
# Per message type, the JSON keys that are fields "ualink.<mtype>.<key>":
# the schema's own list, kept once in the CLI's JSON check.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "golden"))
from check_json import MSG_KEYS  # noqa: E402

for t, keys in MSG_KEYS.items():
    FIELDS += ["ualink.%s.%s" % (t, k) for k in keys]

USAGE = {"payload": 0, "nop": 1, "idle": 2, "reserved": 3}
REPLAY = {"seq": 0, "ack": 1, "nak": 2, "nak_selective": 3}
FEC = {"clean": 0, "corrected": 1, "uncorrectable": 2}
TLBEAT = {"none": 0, "tl": 0x0F, "tl_m1": 0x12, "tl_m0": 0x1B, "tl_m0m1": 0x1E}
KIND = {"flit": 1, "os": 2, "event": 3, "pcie_dllp": 4, "pcie_flit": 5, "ub": 6, "pcie_nf": 7}
UB_ROLE = {"unsynced": 0, "LPH (DLLDB 0)": 1, "LBH (later DLLDB)": 2, "LCH (DLLCB)": 3, "body": 4}
ENC = {"8b10b": 0, "128b130b": 1, "1b1b": 2}
OS_TYPE = {"ts1": 0, "ts2": 1, "eios": 2, "eieos": 3, "skp": 4, "sds": 5, "unknown": 6}


def num(s):
    if s in ("True", "False"):
        return int(s == "True")
    return int(s, 0)


def parse_line(line):
    cols = line.rstrip("\n").split("\t")
    cols += [""] * (len(FIELDS) + 1 - len(cols))
    frame = int(cols[0])
    vals = {}
    for name, col in zip(FIELDS, cols[1:]):
        vals[name] = col.split("|") if col else []
    return frame, vals


def ints(vals, name):
    return [num(v) for v in vals[name]]


class Checker:
    def __init__(self):
        self.errors = 0
        self.checks = 0

    def eq(self, frame, what, got, want):
        self.checks += 1
        if got != want:
            self.errors += 1
            if self.errors <= 40:
                print("frame %d %s: tshark %r, ualink-decode %r" % (frame, what, got, want))


def flit_head(c, frame, f, t):
    """What both flit kinds (UALink, PCIe) have: the flit header fields, CRC and FEC."""
    c.eq(frame, "usage", ints(t, "ualink.fh.usage"), [f["usage_raw"]])
    c.eq(frame, "flit kind", ints(t, "ualink.flit.kind"), [USAGE[f["usage"]]])
    c.eq(frame, "prior", ints(t, "ualink.fh.prior"), [int(f["prior_payload"])])
    c.eq(frame, "replay_cmd", ints(t, "ualink.fh.replay_cmd"), [REPLAY[f["replay_cmd"]]])
    c.eq(frame, "seq", ints(t, "ualink.fh.seq"), [f["seq"]])
    c.eq(frame, "crc", ints(t, "ualink.flit.crc"), [int(f["crc_rx"], 16)])
    c.eq(frame, "crc_calc", ints(t, "ualink.flit.crc_calc"), [int(f["crc_calc"], 16)])
    c.eq(frame, "crc_ok", ints(t, "ualink.flit.crc_ok"), [int(f["crc_ok"])])
    c.eq(frame, "fec", ints(t, "ualink.flit.fec_status"), [FEC[f["fec"]]])


def check_frame(c, frame, j, t, msgs_seen):
    c.eq(frame, "dir", ints(t, "ualink.rec.dir"), [0 if j["dir"] == "A>B" else 1])
    if j["kind"] == "malformed":
        c.eq(frame, "malformed", len(t["ualink.malformed"]) > 0, True)
        return
    c.eq(frame, "link", ints(t, "ualink.rec.link"), [255 if j["link"] is None else j["link"]])
    c.eq(frame, "kind", ints(t, "ualink.rec.kind"), [KIND[j["kind"]]])
    rules = sorted(m.split(":")[0] for m in t["_ws.expert.message"] if ":" in m and m[2] == "-")
    c.eq(frame, "findings", rules, sorted(f["rule"] for f in j["findings"]))
    if j["kind"] == "pcie_flit":
        f = j["pcie_flit"]
        flit_head(c, frame, f, t)
        c.eq(frame, "dllp.type", ints(t, "pcie.fdllp.type"), [f["dllp"]["type"]])
        c.eq(frame, "tlp.type", ints(t, "pcie.tlp.type"), [x["type"] for x in f["tlps"]])
        c.eq(frame, "tlp.length", ints(t, "pcie.tlp.length"), [x["length"] for x in f["tlps"]])
    elif j["kind"] == "flit":
        f = j["flit"]
        flit_head(c, frame, f, t)
        segs = f.get("segments", [])
        c.eq(frame, "sh.alt", ints(t, "ualink.sh.alt"), [int(s["alt"]) for s in segs])
        beats = ints(t, "ualink.sh.tlbeat")
        c.eq(frame, "sh.tlbeat", [b if b in TLBEAT.values() else "invalid" for b in beats],
             [TLBEAT.get(s["tlbeat"], "invalid") for s in segs])
        c.eq(frame, "dllp.type", ints(t, "pcie.fdllp.type"), [f["dllp"]["type"]] if "dllp" in f else [])
        tls = f.get("tl_flits", [])
        c.eq(frame, "tl.data", t["ualink.tl.data"], [x["data"] for x in tls])
        for k in ("m0", "m1", "start_frame", "start_segment"):
            c.eq(frame, "tl." + k, ints(t, "ualink.tl." + k), [x[k] for x in tls])
        dls = f.get("dl_msgs", [])
        c.eq(frame, "dlm.start_frame", ints(t, "ualink.dlm.start_frame"), [m["start_frame"] for m in dls])
        c.eq(frame, "dlm.segment", ints(t, "ualink.dlm.segment"), [m["segment"] for m in dls])
        c.eq(frame, "dlm.payload", ints(t, "ualink.dlm.payload"),
             [int(p, 16) for m in dls for p in m.get("payload", [])])
        for m in dls:
            msgs_seen.setdefault(m["start_frame"], []).append(m)
    elif j["kind"] == "ub":
        u = j["ub"]
        c.eq(frame, "ub.role", ints(t, "ub.flit.role"), [UB_ROLE[u["role"]]])
        if "bcrc_ok" in u:
            c.eq(frame, "ub.bcrc.ok", ints(t, "ub.bcrc.ok"), [int(u["bcrc_ok"])])
            c.eq(frame, "ub.bcrc.crc30_calc", ints(t, "ub.bcrc.crc30_calc"), [u["crc30_calc"]])
        unit = u.get("dlldp") or u.get("dllcb")
        c.eq(frame, "ub.unit.flits", ints(t, "ub.unit.flits"), [unit["flits"]] if unit else [])
    elif j["kind"] == "os":
        o = j["os"]
        c.eq(frame, "os.lane", ints(t, "ualink.os.lane"), [o["lane"]])
        c.eq(frame, "os.encoding", ints(t, "ualink.os.encoding"), [ENC[o["encoding"]]])
        c.eq(frame, "os.type", ints(t, "ualink.os.type"), [OS_TYPE[o["type"]]])
        if o["type"] in ("ts1", "ts2"):
            c.eq(frame, "ts.link_number", ints(t, "ualink.ts.link_number"), [o["link_number"]])
            c.eq(frame, "ts.lane_number", ints(t, "ualink.ts.lane_number"), [o["lane_number"]])
            c.eq(frame, "ts.flit_mode", ints(t, "ualink.ts.flit_mode"), [int(o["flit_mode"])])
            if o.get("modified"):
                c.eq(frame, "ts.mts_usage", ints(t, "ualink.ts.mts_usage"), [o["usage"]])
                c.eq(frame, "ts.vendor_id", ints(t, "ualink.ts.vendor_id"), [o["vendor_id"]])
    elif j["kind"] == "pcie_dllp":
        d = j["dllp"]
        c.eq(frame, "pcie.framing", len(t["pcie.framing"]), 1)
        for k in ("type", "crc", "crc_calc", "crc_ok", "seq", "vc", "hdr_scale", "hdr_fc", "data_scale", "data_fc",
                  "data"):
            c.eq(frame, "pcie.dllp." + k, ints(t, "pcie.dllp." + k), [int(d[k])] if k in d else [])
    elif j["kind"] == "pcie_nf":
        rows = {}
        for f in j["fields"]:
            rows.setdefault(f["field"], []).append(f["value"])
        for name in NF_FIELDS + ["pcie.dllp.type", "pcie.dllp.crc", "pcie.dllp.crc_ok", "pcie.dllp.seq",
                                 "pcie.dllp.hdr_fc", "pcie.dllp.data_fc"]:
            c.eq(frame, name, ints(t, name), rows.get(name, []))
    elif j["kind"] == "event":
        e = j["event"]
        c.eq(frame, "event.code", ints(t, "ualink.event.code"), [e["code"]])
        c.eq(frame, "event.value", ints(t, "ualink.event.value"), [e["value"]])


def main():
    if sys.argv[1:] == ["--fields"]:
        print("\n".join(FIELDS))
        return 0
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    records = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    records = [r for r in records if r.get("kind") != "summary"]
    lines = [parse_line(l) for l in open(sys.argv[2]) if l.strip()]
    c = Checker()
    c.eq(0, "frame count", len(lines), len(records))
    msgs_seen = {}
    shown = {}
    for (frame, t), j in zip(lines, records):
        c.eq(frame, "frame number", frame, j["frame"])
        check_frame(c, frame, j, t, msgs_seen)
        shown[frame] = t
    # Message fields: tshark shows them in the frame holding the first DWord.
    for start, msgs in msgs_seen.items():
        t = shown.get(start)
        if t is None:
            continue
        for mtype, keys in MSG_KEYS.items():
            mine = [m for m in msgs if m["mtype"] == mtype]
            for k in keys:
                got = ints(t, "ualink.%s.%s" % (mtype, k))
                c.eq(start, "%s.%s" % (mtype, k), got[:len(mine)], [m[k] for m in mine])
    print("compared %d frames with ualink-decode --json: %d checks, %d mismatches"
          % (len(records), c.checks, c.errors))
    return 1 if c.errors else 0


if __name__ == "__main__":
    sys.exit(main())
