#!/usr/bin/env python3
"""ualink-gen --udp with nothing listening on the port, as in the README's
live set-up where ualink-tui -i lo only sniffs: a capture of lo must see
every record as one datagram, in order, byte for byte after the export
header that numbers the datagrams from 0 (docs/capture-format.md; the ICMP port
unreachable of one datagram must not drop the next), and the run must end
cleanly. Then a destination every send fails for (broadcast without
SO_BROADCAST): the failures are reported, the run gives up, exit status 1.

  udp_export.py GEN WORKDIR [DECODER]

With DECODER, the capture of lo is saved as tcpdump would (Ethernet,
microseconds) and decoded directly: the records and findings of the
generator's own pcap.

Captures with an AF_PACKET socket on lo: needs root or CAP_NET_RAW (exit 77,
skipped, without)."""
import json
import os
import select
import socket
import struct
import subprocess
import sys
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
SO_RCVBUFFORCE = 33


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def pcap_records(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack_from("<I", data, 0)[0]
    if magic != 0xA1B23C4D:
        fail("%s: not a little-endian nanosecond pcap (magic %08x)" % (path, magic))
    out, off = [], 24
    while off + 16 <= len(data):
        _, _, caplen, _ = struct.unpack_from("<IIII", data, off)
        out.append(data[off + 16:off + 16 + caplen])
        off += 16 + caplen
    return out


def free_udp_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def udp_payload(frame, port):
    """The UDP payload of an Ethernet/IPv4 frame on lo to port, else None."""
    if len(frame) < 14 + 20 + 8 or frame[12:14] != b"\x08\x00":
        return None
    ip = frame[14:]
    if ip[0] >> 4 != 4 or ip[9] != 17:
        return None
    udp = ip[(ip[0] & 15) * 4:]
    dport, ulen = struct.unpack_from(">HH", udp, 2)
    if dport != port:
        return None
    return bytes(udp[8:ulen])


def write_eth_pcap(path, frames):
    """frames: [(arrival ns, bytes)] as a microsecond Ethernet pcap."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for t, b in frames:
            f.write(struct.pack("<IIII", t // 1000000000, t % 1000000000 // 1000, len(b), len(b)))
            f.write(b)


def decoded(dec, path, args=()):
    """The records and findings ualink-decode finds, without frame numbers and times."""
    p = subprocess.run([dec, "--json"] + list(args) + [path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        fail("%s: exit %d: %s" % (path, p.returncode, p.stderr))
    out = []
    for line in p.stdout.splitlines():
        o = json.loads(line)
        for k in ("frame", "ts_ns", "ts", "rel_ns"):
            o.pop(k, None)
        for t in o.get("flit", {}).get("tl_flits", []) + o.get("flit", {}).get("dl_msgs", []):
            t.pop("start_frame", None)
        out.append(o)
    return out


def no_listener(gen, work, dec):
    try:
        cap = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    except PermissionError:
        print("skip: capturing on lo needs root or CAP_NET_RAW")
        sys.exit(77)
    cap.bind(("lo", 0))
    try:
        cap.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 64 << 20)
    except OSError:
        cap.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 << 20)
    port = free_udp_port()
    pcap = os.path.join(work, "udp-export.pcap")
    p = subprocess.Popen([gen, "-q", "-s", "traffic", "-c", "2000", "--seed", "5",
                          "--udp", "127.0.0.1:%d" % port, "-w", pcap],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    got, frames = [], []
    quiet_since = None
    while True:
        r, _, _ = select.select([cap], [], [], 0.2)
        if r:
            frame, addr = cap.recvfrom(65536)
            quiet_since = None
            if addr[2] == PACKET_OUTGOING:   # lo shows each packet going out and coming in
                continue
            pl = udp_payload(frame, port)
            if pl is not None:
                got.append(pl)
                frames.append((time.time_ns(), frame))
            continue
        if p.poll() is None:
            continue
        if quiet_since is None:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since > 0.5:
            break
    err = p.stderr.read().decode()
    cap.close()
    if p.returncode != 0:
        fail("ualink-gen exited %d: %s" % (p.returncode, err))
    if err:
        fail("ualink-gen reported problems on a clean run: %s" % err)
    want = pcap_records(pcap)
    print("no listener on port %d: %d records written, %d datagrams captured on lo" % (port, len(want), len(got)))
    if len(got) != len(want):
        dirs = [sum(1 for r in got if r[8 + 2] & 1 == d) for d in (0, 1)]
        fail("captured %d of %d datagrams (A>B %d, B>A %d)" % (len(got), len(want), dirs[0], dirs[1]))
    for i, (a, b) in enumerate(zip(got, want)):
        if a[:8] != struct.pack("<BBHI", 0x81, 8, 0, i):
            fail("datagram %d: export header %s, want type 0x81, length 8, sequence %d" % (i + 1, a[:8].hex(), i))
        if a[8:] != b:
            fail("datagram %d differs from record %d of the pcap" % (i + 1, i + 1))
    if dec:
        lo = os.path.join(work, "udp-export-lo.pcap")
        write_eth_pcap(lo, frames)
        a, b = decoded(dec, lo, ["--udp-port", str(port)]), decoded(dec, pcap)
        if a != b:
            fail("ualink-decode of the capture of lo differs from the decode of the records")
        print("ualink-decode of the capture of lo: %d records as in the pcap" % len(a))
        os.unlink(lo)
    os.unlink(pcap)


def every_send_fails(gen):
    p = subprocess.run([gen, "-q", "-s", "traffic", "-c", "500", "--udp", "255.255.255.255:%d" % free_udp_port()],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)
    err = p.stderr.decode()
    print("broadcast: exit %d\n%s" % (p.returncode, err), end="")
    if p.returncode != 1:
        fail("exit status %d, not 1, when no datagram can be sent" % p.returncode)
    lines = err.splitlines()
    if not any("datagram 1 not sent" in l for l in lines):
        fail("the first failed send is not reported")
    if not any("in a row failed" in l and "giving up" in l for l in lines):
        fail("the run does not give up")
    if not any("100 of 100 datagrams not sent" in l for l in lines):
        fail("the count of failed sends is not reported")


def main():
    gen, work = sys.argv[1], sys.argv[2]
    dec = sys.argv[3] if len(sys.argv) > 3 else None
    every_send_fails(gen)
    no_listener(gen, work, dec)
    print("ok")


if __name__ == "__main__":
    main()
