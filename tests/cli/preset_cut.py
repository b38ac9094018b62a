#!/usr/bin/env python3
"""Presets of values a capture that starts late never shows (issue 42):
--pcie-initfc for PD-FC-INFINITE and PD-FC-SCALE, --ub-init and
--ub-credits for UB-VL-DISABLED and UB-CREDIT-UNDERFLOW.

For each rule: `ualink-gen --inject RULE` writes a capture that raises it;
the capture is cut (test_anywhere --cut K) just after the values are
exchanged (the last InitFC DLLP; both UB sides in DLL Normal). The cut
alone must not raise the rule (the values are unknown to it); with the
presets that `ualink-decode --stats --frames 1-(K-1)` prints for the whole
capture's first K-1 records, it must raise the rule at the same record as
the whole capture, and every warning or error it raises must be the whole
capture's at the same record. So must they be at later cuts (up to 8,
spread over the rest of the capture) and in cuts of the ub-all, pcie and
pcie-flit scenarios: the presets never add a false finding.

usage: preset_cut.py GEN DECODE ANYWHERE WORKDIR
"""
import json
import os
import shlex
import subprocess
import sys


def run(*argv):
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f'{" ".join(argv)}: exit {p.returncode}: {p.stderr}')
    return p.stdout


def findings(dec, cap, extra=(), offset=0):
    """(frame in the whole capture, rule) of every warning and error."""
    got = set()
    for line in run(dec, '--json', *extra, cap).splitlines():
        o = json.loads(line)
        for f in o.get('findings', []):
            if f['severity'] != 'info' and o.get('frame') is not None:
                got.add((o['frame'] + offset, f['rule']))
    return got


def cut_point(dec, cap, pcie):
    """The record after the last InitFC DLLP (PCIe), or after both UB
    sides reached DLL Normal."""
    last = 0
    if pcie:
        for line in run(dec, '--json', cap).splitlines():
            o = json.loads(line)
            if o.get('dllp', {}).get('name', '').startswith('InitFC'):
                last = o['frame']
    else:
        for line in run(dec, '--timeline', '--json', cap).splitlines():
            o = json.loads(line)
            if o.get('event') == 'ub_dll' and o.get('text', '').endswith('-> Normal'):
                last = max(last, o['frame'])
    return last + 1


def presets_at(dec, cap, k):
    """The options --stats prints for the state after record k - 1."""
    stats = run(dec, '-q', '--stats', '--frames', f'1-{k - 1}', cap)
    return [l.split(': ', 1)[1] for l in stats.splitlines() if l.startswith('  Presets at the end: ')]


def false_with_presets(dec, anywhere, cap, start, work):
    """Warnings and errors the cuts from start on raise with their presets
    that the whole capture does not raise at the same record."""
    whole = findings(dec, cap)
    n = len(run(dec, '-T', 'fields', '-e', 'frame.number', cap).split())
    problems = []
    for k in range(start, n, max(1, (n - start) // 8))[:8]:
        cut = cap + f'.{k}.pcap'
        run(anywhere, '--cut', str(k), cap, cut)
        p = presets_at(dec, cap, k)
        got = findings(dec, cut, shlex.split(p[0]) if p else (), k - 1)
        problems += [f'cut at {k} with its presets: {r} at record {fr}, not raised there by the whole capture'
                     for fr, r in sorted(got - whole)]
        os.remove(cut)
    return problems


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    gen, dec, anywhere, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    bad = 0
    for rule in ('PD-FC-INFINITE', 'PD-FC-SCALE', 'UB-VL-DISABLED', 'UB-CREDIT-UNDERFLOW'):
        cap = os.path.join(work, rule + '.pcap')
        cut = os.path.join(work, rule + '.cut.pcap')
        run(gen, '-q', '--seed', '1', '--inject', rule, '-w', cap)
        k = cut_point(dec, cap, rule.startswith('PD-'))
        run(anywhere, '--cut', str(k), cap, cut)
        whole = {f for f in findings(dec, cap) if f[0] >= k}
        at = sorted(f[0] for f in whole if f[1] == rule)
        presets = presets_at(dec, cap, k)
        bare = findings(dec, cut, (), k - 1)
        given = findings(dec, cut, shlex.split(presets[0]) if presets else (), k - 1)
        problems = []
        if not at:
            problems.append(f'the whole capture raises no {rule} after record {k}')
        if not presets:
            problems.append('--stats printed no presets')
        if any(r == rule for _, r in bare):
            problems.append(f'the cut without presets raises {rule}')
        if sorted(f[0] for f in given if f[1] == rule) != at:
            problems.append(f'with the presets {rule} at {sorted(f[0] for f in given if f[1] == rule)}, '
                            f'the whole capture at {at}')
        for f in sorted(given - whole):
            problems.append(f'with the presets {f[1]} at record {f[0]}, not raised there by the whole capture')
        problems += false_with_presets(dec, anywhere, cap, k + 1, work)
        print(f'{"FAIL" if problems else "ok  "} {rule}: cut at record {k}, the whole capture raises it at {at}; '
              f'presets {presets[0] if presets else None}')
        for p in problems:
            print('     ' + p)
        bad += bool(problems)
    for scen in ('ub-all', 'pcie', 'pcie-flit'):
        cap = os.path.join(work, scen + '.pcap')
        run(gen, '-q', '--seed', '3', '-s', scen, '-w', cap)
        problems = false_with_presets(dec, anywhere, cap, 2, work)
        print(f'{"FAIL" if problems else "ok  "} {scen}: no false finding in cuts with their presets')
        for p in problems[:10]:
            print('     ' + p)
        bad += bool(problems)
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
