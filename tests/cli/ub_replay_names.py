#!/usr/bin/env python3
"""Which rule names a go-back-N replay that goes wrong (issue 38 bug 5).

From a `ub-traffic` capture with one damaged DLLDP of A (ualink-gen
--inject UB-BCRC), B asks for a replay and A replays. Edited twins of it:
  skip   A's replay leaves out its first block, the one only ever seen
         damaged: UB-REPLAY-START at the block it starts with;
  short  A's replay leaves out its last DLLDP and goes on with new blocks:
         UB-REPLAY-COUNT (the second new block shows the replay ended);
  idle   after its first replayed block A sends only Null blocks to the
         end: UB-REPLAY-COUNT at the end of the capture;
none of them UB-ACK-STATE-SEND (a new block the replay goes on after; the
generator's UB-ACK-STATE-SEND injection covers it in inject_truth.py), and
the unedited capture raises no replay finding at all.

usage: ub_replay_names.py GEN DECODE WORKDIR
"""
import json
import os
import struct
import subprocess
import sys

REPLAY_RULES = ('UB-REPLAY-START', 'UB-REPLAY-COUNT', 'UB-REPLAY-CONTENT', 'UB-ACK-STATE-SEND')


def records(path):
    b = open(path, 'rb').read()
    off, out = 24, []
    while off + 16 <= len(b):
        n = struct.unpack_from('<I', b, off + 8)[0]
        out.append(b[off:off + 16 + n])
        off += 16 + n
    return b[:24], out


def decode(dec, path):
    p = subprocess.run([dec, '--json', path], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f'{path}: ualink-decode exit {p.returncode}: {p.stderr}')
    return [json.loads(l) for l in p.stdout.splitlines()]


def replay_findings(objs):
    return [(o.get('frame'), f['rule'], f['msg']) for o in objs for f in o.get('findings', [])
            if f['rule'] in REPLAY_RULES]


def main():
    gen, dec, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    cap = os.path.join(work, 'bcrc.pcap')
    subprocess.run([gen, '--seed', '1', '--inject', 'UB-BCRC', '-w', cap], check=True, capture_output=True)
    hdr, recs = records(cap)
    objs = decode(dec, cap)
    problems = []
    whole = replay_findings(objs)
    if whole:
        problems.append(f'unedited capture: {whole}')
    bad = next(o['frame'] for o in objs if any(f['rule'] == 'UB-BCRC' for f in o.get('findings', [])))
    a = [o for o in objs if o.get('dir') == 'A>B' and o.get('frame', 0) > bad]
    ack = max(o['frame'] for o in a if o['ub'].get('dllcb', {}).get('name') == 'Retry_Ack')
    null = next(o['frame'] for o in a if o['ub'].get('dllcb', {}).get('name') == 'Null')
    # A's blocks after its Retry_Ack_Set: (frames, DLLCB name or DLLDP)
    blocks, cur = [], []
    for o in a:
        if o['frame'] <= ack:
            continue
        cur.append(o['frame'])
        u = o['ub']
        if u['flit_in_block'] == u['block_flits'] - 1:
            blocks.append((cur, u.get('dllcb', {}).get('name', 'DLLDP')))
            cur = []
    # the replay: the damaged 6-flit DLLDP, a 9-flit one, a 39-flit one (32 + 7)
    sizes = [len(b[0]) for b in blocks[:4]]
    if sizes != [6, 9, 32, 7] or any(b[1] != 'DLLDP' for b in blocks[:4]):
        sys.exit(f'the generated replay is not the one this test edits: {sizes}')

    def twin(name, drop=(), nulls=()):
        out = []
        for i, r in enumerate(recs, 1):
            if i in drop:
                continue
            out.append(r[:-20] + recs[null - 1][-20:] if i in nulls else r)
        path = os.path.join(work, name + '.pcap')
        open(path, 'wb').write(hdr + b''.join(out))
        return replay_findings(decode(dec, path)), [i for i in range(1, len(recs) + 1) if i not in drop]

    def frame_of(kept, old):   # an unedited frame's number in the twin
        return kept.index(old) + 1

    got, kept = twin('skip', drop=set(blocks[0][0]))
    want = [(frame_of(kept, blocks[1][0][-1]), 'UB-REPLAY-START')]
    if [(f, r) for f, r, _ in got] != want:
        problems.append(f'skip: {got}, want {want}')

    got, kept = twin('short', drop=set(blocks[2][0]) | set(blocks[3][0]))
    new = [b for b in blocks[4:] if b[1] not in ('Null', 'Retry_Idle', 'Retry_Req', 'Retry_Ack')]
    want = [(frame_of(kept, new[1][0][-1]), 'UB-REPLAY-COUNT')]
    if [(f, r) for f, r, _ in got] != want or 'ended after 15 of 54 flits' not in got[0][2]:
        problems.append(f'short: {got}, want {want} after 15 of 54 flits')

    rest = {o['frame'] for o in a if o['frame'] > blocks[0][0][-1]}
    got, _ = twin('idle', nulls=rest)
    if [(f, r) for f, r, _ in got] != [(None, 'UB-REPLAY-COUNT')] or 'ended after 6 of 54 flits' not in got[0][2]:
        problems.append(f'idle: {got}, want UB-REPLAY-COUNT at the end after 6 of 54 flits')

    for p in problems:
        print('FAIL', p)
    if problems:
        sys.exit(1)
    print('ok: REPLAY-START for a skipped damaged block, REPLAY-COUNT for a short and an idle replay, none unedited')


main()
