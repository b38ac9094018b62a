#!/usr/bin/env python3
"""Generator truth against the analysis, for every rule of
`ualink-gen --list-injections` (issue 16 item 3).

For each rule: `ualink-gen --seed 1 --inject RULE -w CAP` writes the capture
and CAP.truth.jsonl; `ualink-decode --json [CAP.decode-args] CAP` reports findings (the
scenario's topology profile, when ualink-gen wrote one). They must
agree frame by frame: every truth entry is reported at its frame (an
end-of-capture finding, which has no record, matches the truth entry of its
rule), and no warning or error is reported that the truth does not list.
Info findings beyond the truth are allowed (RP-DUPLICATE during a replay).
Each agreement is checked to be able to fail: the same comparison with every
truth frame moved by one must report a problem.

usage: inject_truth.py GEN DECODE WORKDIR [RULE...]
"""
import json
import os
import subprocess
import sys


def injections(gen):
    out = subprocess.run([gen, '--list-injections'], capture_output=True, text=True, check=True).stdout
    return [l.split()[0] for l in out.splitlines() if l and not l[0].isspace()]


def findings(dec, cap):
    # the scenario's topology profile, when it has one (ualink-gen writes it)
    args = open(cap + '.decode-args').read().split() if os.path.exists(cap + '.decode-args') else []
    p = subprocess.run([dec, '--json'] + args + [cap], capture_output=True, text=True)
    if p.returncode:
        sys.exit(f'{cap}: ualink-decode exit {p.returncode}: {p.stderr}')
    got = []
    for line in p.stdout.splitlines():
        o = json.loads(line)
        frame = o.get('frame')          # None: the end of the capture
        for f in o.get('findings', []):
            got.append((frame, f['rule'], f['severity']))
    return got


def compare(truth, got):
    tset = set(truth)
    end_rules = {r for fr, r, _ in got if fr is None}
    problems = []
    for t in sorted(tset):
        if t in got or t[1] in end_rules:
            continue
        problems.append(f'truth {t[1]} at frame {t[0]} not reported there')
    for fr, r, sev in got:
        if sev == 'info' or fr is None and any(t[1] == r for t in tset) or (fr, r, sev) in tset:
            continue
        problems.append(f'{sev} {r} at frame {fr} not in the truth')
    return problems


def check(gen, dec, work, rule):
    cap = os.path.join(work, rule + '.pcap')
    if os.path.exists(cap + '.decode-args'):
        os.remove(cap + '.decode-args')
    subprocess.run([gen, '-q', '--seed', '1', '--inject', rule, '-w', cap], check=True)
    truth = [json.loads(l) for l in open(cap + '.truth.jsonl')]
    truth = [(t['frame'], t['rule'], t['severity']) for t in truth]
    if not any(r == rule for _, r, _ in truth):
        return [f'the truth file does not list {rule}']
    got = findings(dec, cap)
    problems = compare(truth, got)
    end_rules = {r for fr, r, _ in got if fr is None}
    for d in (-1, 1):
        moved = [(fr + d if fr is not None and r not in end_rules else fr, r, sev) for fr, r, sev in truth]
        if not problems and moved != truth and not compare(moved, got):
            problems.append(f'a truth frame off by {d:+d} would pass')
    return problems


def main():
    gen, dec, work = sys.argv[1:4]
    only = sys.argv[4:]
    os.makedirs(work, exist_ok=True)
    bad = n = 0
    for rule in injections(gen):
        if only and rule not in only:
            continue
        n += 1
        problems = check(gen, dec, work, rule)
        for p in problems:
            print(f'FAIL {rule}: {p}')
        bad += bool(problems)
    print(f'{n - bad} of {n} injections pass')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
