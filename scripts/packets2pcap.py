#!/usr/bin/env python3
"""Framed PCIe packets from an analyzer export -> a capture of record kind 7.

  packets2pcap.py IN.jsonl OUT.pcap [--link N] [--roles A,B]

IN is JSON Lines, one object per packet or ordered set as a protocol
analyzer recorded it (the form of shared/captures/*.jsonl, read from an
Agilent PAD file): `frame` (hex of the decoded 8b/10b byte values from the
start symbol on), `ts_ns` (the first symbol's time), `dir` ("A>B" / "B>A")
or `pad_flags` (hex; bit 28 = 1: side B, the channel "...:Upstream", sent by
the downstream component). The name says what it reads: framed packets, not
a PAD file itself.

Per pcie.md §7.1 "Converter from an analyzer export" [P22]:
- a frame starting FBh (STP) or 5Ch (SDP) becomes a kind-7 record, encoding
  0 (8b/10b), class 1 (TLP) or 2 (DLLP), wire length = the frame's length,
  the frame's bytes unchanged;
- a frame starting BCh (COM) becomes a kind-2 ordered set of its own symbols
  only, lane 255, 8b/10b: a SKP ordered set is the COM and the SKPs (1Ch)
  after it; an EIOS is COM IDL IDL IDL, followed by a kind-3 event 1
  (electrical idle entered) at the same time. The bytes the analyzer
  decoded from the idle line after an EIOS are dropped. Other ordered sets
  keep their first 16 symbols (TS1/TS2 length), COM marked as the K-symbol;
- anything else is reported on stderr and skipped.
Record header: direction from `dir` (or PAD flags bit 28); width from PAD
flags bits 2:0 (0 = x1, n = 2^n lanes); rate 2.5 GT/s, or 5.0 GT/s when flags
bits 8 (valid) and 9 are set; roles in the PCIe encoding (roles bit 7), the
ports unknown unless --roles gives them (codes of pcie.md [P3]: 1 Root Port,
2 Switch Upstream Port, 3 Switch Downstream Port, 4 Endpoint, 5 other
upstream port); link 0 unless --link. The pcap has nanosecond timestamps and
link type 147 (docs/capture-format.md).
"""
import argparse
import json
import struct
import sys

STP, SDP, COM, SKP, IDL = 0xFB, 0x5C, 0xBC, 0x1C, 0x7C
KIND_OS, KIND_EVENT, KIND_NF = 2, 3, 7
EV_EIDLE_ENTER = 1
RATE_2_5, RATE_5_0 = 1, 8


def header(kind, dir_b, rate, width, roles, link):
    return struct.pack('<BBBBBBBB', 1, kind, 1 if dir_b else 0, link, rate, width, roles, 0)


def os_symbols(frame):
    """The ordered set's own symbols and whether it is an EIOS."""
    if len(frame) >= 4 and frame[1:4] == bytes([IDL] * 3):
        return frame[:4], True
    if len(frame) >= 2 and frame[1] == SKP:
        n = 1
        while n < len(frame) and frame[n] == SKP:
            n += 1
        return frame[:n], False
    return frame[:16], False


def convert(lines, link, roles_ab):
    """Yields (ts_ns, record bytes) for each input line."""
    roles = 0x80 | (roles_ab[0] & 7) | (roles_ab[1] & 7) << 3
    for no, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        d = json.loads(line)
        frame = bytes.fromhex(d['frame'])
        flags = int(d.get('pad_flags', '0'), 16)
        dir_b = d['dir'] == 'B>A' if 'dir' in d else bool(flags >> 28 & 1)
        width = 1 << (flags & 7)
        rate = RATE_5_0 if (flags >> 8 & 3) == 3 else RATE_2_5
        ts = int(d['ts_ns'])
        if not frame:
            print('line %d: empty frame, skipped' % no, file=sys.stderr)
            continue
        if frame[0] in (STP, SDP):
            cls = 1 if frame[0] == STP else 2
            if len(frame) > 0xFFFF:
                print('line %d: frame of %d bytes, skipped' % (no, len(frame)), file=sys.stderr)
                continue
            body = struct.pack('<BBH', 0, cls, len(frame)) + frame
            yield ts, header(KIND_NF, dir_b, rate, width, roles, link) + body
        elif frame[0] == COM:
            sym, eios = os_symbols(frame)
            mask = 0
            for i, s in enumerate(sym):
                if s in (COM, SKP, IDL) and (i == 0 or eios or s == SKP):
                    mask |= 1 << i
            body = struct.pack('<BBH', 255, 0, mask & 0xFFFF) + sym
            yield ts, header(KIND_OS, dir_b, rate, width, roles, link) + body
            if eios:
                ev = struct.pack('<HHI', EV_EIDLE_ENTER, 0, 0)
                yield ts, header(KIND_EVENT, dir_b, rate, width, roles, link) + ev
        else:
            print('line %d: frame starts %02xh, neither a packet nor an ordered set, skipped' % (no, frame[0]),
                  file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('input')
    ap.add_argument('output')
    ap.add_argument('--link', type=int, default=0, help='link index of the records (0-254)')
    ap.add_argument('--roles', default='0,0', help='PCIe role codes of side A and side B [P3], e.g. 1,4')
    a = ap.parse_args()
    roles = [int(x) for x in a.roles.split(',')]
    if len(roles) != 2 or not all(0 <= r <= 5 for r in roles) or not 0 <= a.link <= 254:
        ap.error('--roles takes two codes 0-5, --link 0-254')
    with open(a.input, encoding='utf-8') as f:
        recs = list(convert(f, a.link, roles))
    with open(a.output, 'wb') as out:
        out.write(struct.pack('<IHHiIII', 0xA1B23C4D, 2, 4, 0, 0, 65535, 147))
        for ts, rec in recs:
            out.write(struct.pack('<IIII', ts // 1000000000, ts % 1000000000, len(rec), len(rec)) + rec)
    print('%s: %d records' % (a.output, len(recs)))


if __name__ == '__main__':
    main()
