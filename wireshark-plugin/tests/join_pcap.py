#!/usr/bin/env python3
"""Joins pcap files into one: the first file's header, then every file's
records one after another. The files must have the same header. Prints the
frame number each file starts at, and its name, one file a line.

  join_pcap.py OUT CAPTURE...
"""
import os
import sys


def main():
    out, caps = sys.argv[1], sys.argv[2:]
    head, frame = None, 1
    with open(out, "wb") as o:
        for c in caps:
            d = open(c, "rb").read()
            if head is None:
                head = d[:24]
                o.write(head)
            elif d[:24] != head:
                sys.exit("%s: its pcap header differs from %s's" % (c, caps[0]))
            print(frame, os.path.basename(c))
            little = head[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1")
            at = 24
            while at + 16 <= len(d):
                at += 16 + int.from_bytes(d[at + 8:at + 12], "little" if little else "big")
                frame += 1
            o.write(d[24:])
    os.chmod(out, 0o644)


if __name__ == "__main__":
    main()
