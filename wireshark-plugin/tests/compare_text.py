#!/usr/bin/env python3
"""One presentation of values: every field row of ualink-decode -V (label and
value text, with the bits of narrow fields) appears as it is in tshark -V's
UALink tree of the same frame: the same value names, "reserved (N)" for an
unnamed value of an enumeration, "Link: 0" for link 0, the CRC-64 as
0x and 16 hex digits.

  compare_text.py DECODE_V.txt TSHARK_V.txt"""
import re
import sys


def tshark_frames(text):
    frames, cur, inside = {}, None, False
    for line in text.splitlines():
        m = re.match(r'^Frame (\d+):', line)
        if m:
            cur, inside = int(m.group(1)), False
            frames[cur] = set()
        elif line.startswith('UALink'):
            inside = True
        elif inside and line.strip():
            frames[cur].add(line.strip().strip('[]'))
    return frames


def decode_frames(text):
    frames, cur = {}, None
    for line in text.splitlines():
        m = re.match(r'^Frame (\d+):', line)
        if m:
            cur = int(m.group(1))
            frames[cur] = []
            continue
        m = re.match(r'^0x[0-9a-f]{3}(?: 0x[0-9a-f]{2}|     )\s+(.*)$', line)
        if m and cur:
            frames[cur].append(m.group(1).strip())
    return frames


def main():
    with open(sys.argv[1]) as f:
        dec = decode_frames(f.read())
    with open(sys.argv[2]) as f:
        ws = tshark_frames(f.read())
    missing = {}
    rows = 0
    for frame, lines in dec.items():
        for row in lines:
            rows += 1
            if row not in ws.get(frame, ()):
                missing.setdefault(row, []).append(frame)
    for row, frames in sorted(missing.items(), key=lambda x: -len(x[1]))[:20]:
        print("FAIL: %r (ualink-decode -V) not in tshark -V, frames %s" % (row, frames[:5]))
    print("%d frames, %d rows, %d rows differ" % (len(dec), rows, sum(len(v) for v in missing.values())))
    sys.exit(1 if missing or not rows else 0)


if __name__ == '__main__':
    main()
