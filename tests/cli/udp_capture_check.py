#!/usr/bin/env python3
"""Captures of the UDP export (Ethernet, Linux cooked v1/v2, raw IP; IPv4 and
IPv6; tcpdump's microsecond and dumpcap's nanosecond timestamps) decode
directly: the same records and findings as the records themselves, frame
numbers of the capture (frames without a record are skipped, and counted
on stderr), and the arrival times shown but never judged as link time (the
datagrams are 50 us apart: taken for link time they would make
DM-RESPONSE-LATE and others).

  udp_capture_check.py DECODER GENDIR"""
import json
import os
import subprocess
import sys

failures = []


def check(name, cond, detail=""):
    if cond:
        print("ok   %s" % name)
    else:
        failures.append(name)
        print("FAIL %s %s" % (name, detail))


def decode(dec, args):
    p = subprocess.run([dec] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, [json.loads(l) for l in p.stdout.splitlines() if l.strip()], p.stderr


def content(objs):
    """Records without their frame number and time, the start frame of a TL
    flit or DL message given by the position of its record."""
    frames = {o["frame"]: i for i, o in enumerate(objs) if "frame" in o}
    out = []
    for o in objs:
        if o.get("kind") == "summary":
            continue
        o = {k: v for k, v in o.items() if k not in ("frame", "ts_ns", "ts", "rel_ns")}
        # AN-SYNC's text names frames, which differ between the two captures
        o["findings"] = [{k: v for k, v in f.items() if not (f["rule"] == "AN-SYNC" and k == "msg")}
                         for f in o.get("findings", [])]
        for t in o.get("flit", {}).get("tl_flits", []) + o.get("flit", {}).get("dl_msgs", []):
            t["start_frame"] = frames.get(t["start_frame"])
        out.append(o)
    return out


def main():
    dec, gen = sys.argv[1], sys.argv[2]
    cases = [("udp_eth.pcap", "basic.pcap", 12), ("udp_sll_v6.pcap", "basic.pcap", 0),
             ("udp_errors_sll2.pcap", "errors.pcap", 0), ("udp_raw.pcap", "basic.pcap", 0)]
    for cap, native, skipped in cases:
        rc, got, err = decode(dec, ["--json", "--stats", os.path.join(gen, cap)])
        rc2, want, _ = decode(dec, ["--json", "--stats", os.path.join(gen, native)])
        check("%s: exit 0" % cap, rc == 0 and rc2 == 0, "exit %d: %s" % (rc, err))
        check("%s: the records and findings of %s" % (cap, native), content(got) == content(want),
              "%d vs %d objects" % (len(got), len(want)))
        gs, ws = got[-1], want[-1]
        check("%s: findings by rule as %s" % (cap, native),
              gs.get("findings_by_rule") == ws.get("findings_by_rule"),
              "%s vs %s" % (gs.get("findings_by_rule"), ws.get("findings_by_rule")))
        timed = {"DM-RESPONSE-LATE", "DM-CTRL-NO-CONFIRM", "DM-UNSOLICITED", "DM-CTRL-PENDING-TIMEOUT",
                 "DM-UART-RESET-TIMEOUT"}
        late = [f["rule"] for o in got for f in o.get("findings", []) if f["rule"] in timed]
        check("%s: no deadline judged on arrival times" % cap, not late, str(late))
        times = [o["ts_ns"] for o in got if o.get("kind") != "summary"]
        check("%s: arrival times shown, 50 us apart" % cap,
              all(b - a == (150000 if skipped and i % 4 == 3 else 50000) or not skipped and b - a == 50000
                  for i, (a, b) in enumerate(zip(times, times[1:]))),
              str(times[:6]))
        if skipped:
            frames = [o["frame"] for o in got if o.get("kind") != "summary"]
            check("%s: the capture's frame numbers" % cap, frames[:5] == [3, 4, 5, 6, 9], str(frames[:5]))
            check("%s: skipped frames counted" % cap,
                  err.endswith("%s: %d frames without a record skipped: not UDP datagrams to port 17762 "
                               "(--udp-port N)\n" % (os.path.join(gen, cap), skipped)), repr(err))
        else:
            check("%s: nothing on stderr" % cap, err == "", repr(err))
    # another port: every frame skipped
    rc, got, err = decode(dec, ["--json", "--udp-port", "9", os.path.join(gen, "udp_sll_v6.pcap")])
    check("--udp-port 9: no records", rc == 0 and got == [] and "21 frames without a record skipped" in err
          and "port 9 " in err, repr(err))
    rc, got, err = decode(dec, ["--json", "--udp-port", "53", os.path.join(gen, "udp_eth.pcap")])
    check("--udp-port 53: the datagrams to port 53", rc == 0 and len(got) == 6, "%d records" % len(got))
    # -w saves the records themselves (LINKTYPE_USER0)
    out = os.path.join(gen, "udp_saved.pcap")
    rc, _, err = decode(dec, ["-w", out, os.path.join(gen, "udp_eth.pcap")])
    rc2, back, _ = decode(dec, ["--json", "-x", "--stateless", out])
    rc3, want, _ = decode(dec, ["--json", "-x", "--stateless", os.path.join(gen, "basic.pcap")])
    check("-w: the records", rc == 0 and rc2 == 0 and [o["raw"] for o in back] == [o["raw"] for o in want])
    os.unlink(out)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
