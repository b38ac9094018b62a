#!/usr/bin/env python3
"""No UALink rule and no UALink state on PCIe records (issue 36).

  pcie_no_ualink.py DECODE GEN SRCDIR WORKDIR

A record in the PCIe role encoding is judged and tracked by PCIe's analysis
only. Scans every PCIe golden (tests/golden, the golden.list entries named
pcie*) and the output of every PCIe scenario of ualink-gen (seeds 1-3, a
64 GT/s link or another rate of the scenario's encoding, and each PCIe
injection) for the rule IDs of UALink's rule
table (libdecode/ualink/include/ualink/ualink/rules.h) and for UALink's
LTSSM in the timeline; fails on any. Each scenario's decode must also
raise findings when an injection asks for one (the scan is not of empty
output).
"""
import json
import os
import re
import subprocess
import sys


def ualink_ids(src):
    text = open(os.path.join(src, 'libdecode/ualink/include/ualink/ualink/rules.h')).read()
    ids = set(re.findall(r'X\(\s*\w+\s*,\s*"([A-Z]+(?:-[A-Z0-9]+)+)"', text))
    if len(ids) < 20:
        sys.exit(f'only {len(ids)} UALink rule IDs read from rules.h')
    return ids


def pcie_scenarios(gen):
    out = subprocess.run([gen, '--list-scenarios'], capture_output=True, text=True, check=True).stdout
    names = [line.split()[0] for line in out.splitlines() if line.strip().startswith('pcie')]
    if not names:
        sys.exit('no pcie scenario listed by ualink-gen --list-scenarios')
    return names


def pcie_injections(gen):
    out = subprocess.run([gen, '--list-injections'], capture_output=True, text=True, check=True).stdout
    return [m.group(1) for m in re.finditer(r'^\s*(P[DFSN]-[A-Z0-9-]+)\b', out, re.M)]


def found_ids(text, ids):
    return sorted(set(re.findall(r'\b[A-Z]+(?:-[A-Z0-9]+)+\b', text)) & ids)


def main():
    decode, gen, src, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    ids = ualink_ids(src)
    bad = []
    checked = 0

    listing = open(os.path.join(src, 'tests/golden/golden.list')).read()
    for line in listing.splitlines():
        f = line.split()
        if len(f) < 3 or not f[0].startswith('pcie'):
            continue
        path = os.path.join(src, 'tests/golden', f[2])
        hit = found_ids(open(path).read(), ids)
        checked += 1
        if hit:
            bad.append(f'golden {f[2]}: {", ".join(hit)}')

    runs = []
    for sc in pcie_scenarios(gen):
        for seed in (1, 2, 3):
            runs.append((f'{sc}-s{seed}', ['-s', sc, '--seed', str(seed)], False))
        # the non-flit TLP scenarios take their own encoding's rates only
        rate = {'pcie-gen1': '5.0', 'pcie-gen3': '16'}.get(sc, '64')
        runs.append((f'{sc}-{rate}', ['-s', sc, '--rate', rate], False))
    for rule in pcie_injections(gen):
        runs.append((f'inject-{rule}', ['--inject', rule], True))
    for name, args, injected in runs:
        cap = os.path.join(work, name + '.pcap')
        subprocess.run([gen, '-q', '-w', cap] + args, check=True, capture_output=True)
        extra = []
        if os.path.exists(cap + '.decode-args'):
            extra = open(cap + '.decode-args').read().split()
        lines = subprocess.run([decode, '--json'] + extra + [cap], capture_output=True, text=True).stdout.splitlines()
        rules = set()
        for ln in lines:
            rec = json.loads(ln)
            for fd in rec.get('findings', []):
                rules.add(fd.get('rule', fd.get('id', '')))
        timeline = subprocess.run([decode, '-q', '--timeline'] + extra + [cap], capture_output=True, text=True).stdout
        checked += 1
        hit = sorted(rules & ids) + found_ids(timeline, ids)
        if hit:
            bad.append(f'{name}: {", ".join(sorted(set(hit)))}')
        if re.search(r'^\s*\d+\s+\S+\s+\S+\s+ltssm\s', timeline, re.M):
            bad.append(f'{name}: UALink LTSSM events in the timeline')
        if injected and not rules:
            bad.append(f'{name}: no finding at all (the scan read nothing)')
    for b in bad:
        print('FAIL', b)
    print(f'{checked} goldens and decodes scanned for {len(ids)} UALink rule IDs: {len(bad)} failures')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
