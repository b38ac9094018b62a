#!/usr/bin/env python3
"""Seeds fuzz/corpus/<harness>/ from pcap captures (ualink-gen output or
captures/*.pcap): python3 fuzz/make-corpus.py OUTDIR CAPTURE..."""
import os
import struct
import sys

def records(path):
    data = open(path, 'rb').read()
    magic = struct.unpack('<I', data[:4])[0]
    end = '<' if magic in (0xa1b2c3d4, 0xa1b23c4d) else '>'
    off = 24
    while off + 16 <= len(data):
        caplen = struct.unpack(end + 'I', data[off + 8:off + 12])[0]
        yield data[off + 16:off + 16 + caplen]
        off += 16 + caplen

def write(d, name, blob):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(blob)

def main():
    out, caps = sys.argv[1], sys.argv[2:]
    n = 0
    for cap in caps:
        recs = list(records(cap))
        base = os.path.splitext(os.path.basename(cap))[0]
        # records harness: runs of 32 records, each with a 2-byte length
        for i in range(0, min(len(recs), 4096), 512):
            blob = b''.join(struct.pack('<H', len(r)) + r for r in recs[i:i + 32])
            write(os.path.join(out, 'fuzz_record'), f'{base}-{i}', blob)
        flits = [r[8:] for r in recs if len(r) == 264 and r[1] == 1]
        oss = [r[8:] for r in recs if len(r) > 8 and r[1] == 2]
        for i, fl in enumerate(flits[:64:4]):
            write(os.path.join(out, 'fuzz_flit'), f'{base}-{i}', fl)
        for i in range(0, min(len(flits), 256), 64):
            write(os.path.join(out, 'fuzz_unpack'), f'{base}-{i}', b''.join(f[:242] for f in flits[i:i + 8]))
        for i, o in enumerate(oss[:16]):
            write(os.path.join(out, 'fuzz_os'), f'{base}-{i}', o)
        # the analysis harness reads the same framing as fuzz_record, longer runs
        for i in range(0, min(len(recs), 4096), 1024):
            blob = b''.join(struct.pack('<H', len(r)) + r for r in recs[i:i + 64])
            write(os.path.join(out, 'fuzz_analysis'), f'{base}-{i}', blob)
        n += len(recs)
    # round trip: op streams (TL flit, message, transport, flit emit)
    import random
    rnd = random.Random(1)
    for i in range(8):
        blob = bytearray()
        for _ in range(40):
            op = rnd.randrange(256)
            blob.append(op)
            if op % 4 == 0: blob += bytes(rnd.randrange(256) for _ in range(64))
            elif op % 4 == 1: blob += bytes(rnd.randrange(256) for _ in range(4))
            elif op % 4 == 2: blob += bytes(rnd.randrange(256) for _ in range(4 * (((op >> 2) & 31) + 1)))
        write(os.path.join(out, 'fuzz_roundtrip'), f'ops-{i}', bytes(blob))
    print(f'make-corpus: {n} records from {len(caps)} captures')

main()
