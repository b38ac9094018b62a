#!/usr/bin/env python3
"""The TUI's display filter (test_tui_model --filter) selects exactly the
frames ualink-decode -Y selects (which tests/filter/compare.py holds to
tshark's), stateful fields included: with the filter set before the first
record, after half the capture, and after its last record, in a model whose
ring holds fewer records than the capture (a filter set late sees the
records still held, replayed from the analysis before the oldest of them).
usage: tui_filter.py TEST_TUI_MODEL UALINK_DECODE FILTERS_TXT CAPTURE..."""
import concurrent.futures
import os
import subprocess
import sys

model, decode, filters_txt, captures = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
RING = 64
# UAL_TEST_SAMPLE=N (the sanitizer build sets it): every N-th filter per
# capture, rotating, so each filter still meets some capture.
SAMPLE = max(1, int(os.environ.get('UAL_TEST_SAMPLE', '1')))
filters = [l.rstrip('\n') for l in open(filters_txt) if l.strip() and not l.startswith('#')]


def frames(out):
    return [int(x) for x in out.split()]


def check(cap, total, flt):
    d = subprocess.run([decode, '-Y', flt, '-T', 'fields', '-e', 'frame.number', cap], capture_output=True, text=True)
    if d.returncode != 0:
        return []  # not a filter ualink-decode takes: compile errors are the unit tests'
    want = frames(d.stdout)
    fails = []
    ats = (0, total // 2, total)
    t = subprocess.run([model, '--filter', cap, str(RING), ','.join(map(str, ats)), flt], capture_output=True, text=True)
    runs = {}  # at -> frames, one fresh model each
    for l in t.stdout.split('\n'):
        if l.startswith('at '):
            cur = runs.setdefault(int(l[3:]), [])
        elif l:
            cur.append(int(l))
    for at in ats:
        exp = [f for f in want if at == 0 or f > at - RING]
        got = runs.get(at) if t.returncode == 0 else None
        if got != exp:
            extra = sorted(set(got or []) - set(exp))[:5]
            missed = sorted(set(exp) - set(got or []))[:5]
            fails.append(f"FAIL {cap} [{flt}] set after {at}: TUI {len(got or [])} frames, ualink-decode {len(exp)}; "
                         f"extra {extra} missed {missed} {t.stderr.strip()}")
    return fails


fails, n = [], 0
with concurrent.futures.ThreadPoolExecutor(2) as pool:
    for cap in captures:
        st = subprocess.run([decode, '-T', 'fields', '-e', 'frame.number', cap], capture_output=True, text=True)
        total = len(st.stdout.split())
        assert total > 2 * RING, (cap, total)
        mine = [f for i, f in enumerate(filters) if (i + captures.index(cap)) % SAMPLE == 0]
        for r in pool.map(lambda f: check(cap, total, f), mine):
            fails += r
            n += 1
for f in fails:
    print(f)
print(f"tui filter: {n} filter runs on {len(captures)} captures, {len(fails)} differences")
sys.exit(1 if fails else 0)
