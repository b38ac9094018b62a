#!/usr/bin/env python3
"""The analysis subtree reads the same in ualink-decode -V and tshark -V
with the plugin: for every frame, the lines of ualink-decode's "Analysis:"
block equal, in order, the lines of tshark's "Analysis:" subtree (without
the brackets of generated items). Each NEED is a row the capture must show
somewhere ("Event: replay (9)"), so that a capture without replays or
negotiations cannot pass for one with them.

  compare_analysis.py DECODE_V.txt TSHARK_V.txt [NEED...]"""
import re
import sys


def blocks(text, indent):
    """{frame: [lines of its Analysis block]}: the block starts with
    'Analysis:' at the given indent and holds the deeper lines after it."""
    out, cur, block = {}, None, None
    for line in text.splitlines():
        m = re.match(r'^Frame (\d+):', line)
        if m:
            cur, block = int(m.group(1)), None
            continue
        depth = len(line) - len(line.lstrip(' '))
        if block is not None and line.strip() and depth > indent:
            block.append(line.strip().strip('[]'))
            continue
        block = None
        if depth == indent and line.lstrip().startswith('Analysis: ') and cur is not None:
            block = out.setdefault(cur, [])
            block.append(line.strip())
    return out


def main():
    with open(sys.argv[1]) as f:
        dec = blocks(f.read(), 10)
    with open(sys.argv[2]) as f:
        ws = blocks(f.read(), 4)
    need = sys.argv[3:]
    bad = 0
    for frame in sorted(set(dec) | set(ws)):
        a, b = dec.get(frame), ws.get(frame)
        if a != b:
            bad += 1
            if bad <= 10:
                print("FAIL frame %d:\n  ualink-decode -V: %s\n  tshark -V:        %s" % (frame, a, b))
    rows = sum(len(v) for v in dec.values())
    events = sum(1 for v in dec.values() for l in v if l.startswith('Event: '))
    negs = sum(1 for v in dec.values() for l in v if l.startswith('Negotiation outcome: '))
    print("%d frames, %d analysis rows, %d events, %d negotiation rows; %d frames differ"
          % (len(dec), rows, events, negs, bad))
    seen = {l for v in dec.values() for l in v}
    missing = [n for n in need if n not in seen]
    for n in missing:
        print("FAIL: no row %r" % n)
    ok = not bad and dec and not missing
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
