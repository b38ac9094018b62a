#!/usr/bin/env python3
"""ID fields take the bus:device.function form in ualink-decode -Y
(issue 36): each BDF literal, unquoted and quoted, selects the same frames
as the 16-bit number it stands for, and those frames are the ones whose
-T fields value is that number; a malformed BDF is rejected (exit 2).
tshark takes the number only (tests/filter/filters.txt compares those).

usage: pcie_bdf_filter.py UALINK_DECODE CAPTURE"""
import subprocess, sys

decode, cap = sys.argv[1], sys.argv[2]


def frames(flt):
    p = subprocess.run([decode, '-Y', flt, '-T', 'fields', '-e', 'frame.number', cap], capture_output=True, text=True)
    if p.returncode:
        sys.exit('FAIL %s: exit %d %s' % (flt, p.returncode, p.stderr))
    return p.stdout.split()


def bdf(v):
    return '%02x:%02x.%u' % (v >> 8, v >> 3 & 0x1f, v & 7)


bad = 0
for field in ('pcie.tlp.requester_id', 'pcie.tlp.cpl_requester_id', 'pcie.tlp.completer_id',
              'pcie.tlp.cfg_completer_id', 'pcie.tlp.msg_requester_id'):
    p = subprocess.run([decode, '-T', 'fields', '-e', 'frame.number', '-e', field, cap], capture_output=True, text=True)
    seen = {}
    for line in p.stdout.splitlines():
        fr, _, vals = line.partition('\t')
        for v in filter(None, vals.split(',')):
            seen.setdefault(int(v, 16), set()).add(fr)
    if not seen:
        print('FAIL %s: no values in %s' % (field, cap))
        bad += 1
    for v, want in sorted(seen.items()):
        num = frames('%s == 0x%04x' % (field, v))
        for lit in (bdf(v), '"%s"' % bdf(v)):
            got = frames('%s == %s' % (field, lit))
            if got != num or set(got) != want:
                print('FAIL %s == %s: %s, the number selects %s, -T fields has %s' % (field, lit, got, num, sorted(want)))
                bad += 1
        print('ok   %s == %s: %d frames' % (field, bdf(v), len(num)))
for lit in ('01:00.8', '01:20.0', '"1:2:3"'):
    p = subprocess.run([decode, '-Y', 'pcie.tlp.requester_id == ' + lit, cap], capture_output=True, text=True)
    if p.returncode != 2:
        print('FAIL %s accepted (exit %d)' % (lit, p.returncode))
        bad += 1
sys.exit(1 if bad else 0)
