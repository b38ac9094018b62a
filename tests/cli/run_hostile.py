#!/usr/bin/env python3
"""Runs the hostile-input cases of hostile_cases.txt through ualink-decode in
every output mode. All modes must exit alike with the same lines on stderr,
and each must account for every record: how many were decoded, how many of
them were valid, and the beacon events (values 0, 1, 2, ...) that mkcap puts
around each bad record.

usage: run_hostile.py BIN CASES SRCDIR GENDIR [--only NAME]
"""
import json
import xml.etree.ElementTree as ET
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_errors  # noqa: E402

PROG = 'ualink-decode'
FRAME_LINE = re.compile(r' *\d+ +-?\d+\.\d{9} (A>B|B>A) ')


def stats_total(out, label):
    """The row's total summed over the links' tables (one per link)."""
    m = re.findall(r'^' + re.escape(label) + r' +\d+ +\d+ +(\d+)$', out, re.M)
    return sum(int(x) for x in m) if m else None


def json_records(out):
    """(records, valid, beacon values) from --json output."""
    objs = [json.loads(line) for line in out.splitlines()]
    frames = [o['frame'] for o in objs]
    if frames != list(range(1, len(objs) + 1)):
        raise ValueError(f"frames not 1..{len(objs)} in order: {frames[:20]}")
    valid = sum(1 for o in objs if o['kind'] != 'malformed')
    beacons = [o['event']['value'] for o in objs
               if o['kind'] == 'event' and o['dir'] == 'A>B' and o['event']['name'] == 'capture_started']
    return len(objs), valid, beacons


def counted(mode, out):
    """(records, valid, beacons or None) as a mode's output tells them."""
    if mode == 'text':
        return sum(1 for line in out.splitlines() if FRAME_LINE.match(line)), None, None
    if mode == 'verbose':
        return len(re.findall(r'^Frame \d+: \d+ bytes?, ', out, re.M)), None, None
    if mode in ('json', 'json-stateless'):
        return json_records(out)
    if mode == 'stats':
        n, bad = stats_total(out, 'Records'), stats_total(out, '  malformed')
        return n, None if n is None or bad is None else n - bad, None
    if mode == 'stats-json':
        s = json.loads(out.splitlines()[-1]) if out else {'records': 0, 'by_kind': {'malformed': 0}}
        return s['records'], s['records'] - s['by_kind']['malformed'], None
    if mode == 'report':
        return report_records(out)
    return None, None, None


def report_records(out):
    """Records and valid records from the totals of a --report page, which must parse as XML."""
    if not out:
        return None, None, None
    try:
        root = ET.fromstring(out)
    except ET.ParseError as e:
        raise ValueError(f"report is not well-formed XML: {e}")
    tot = {'records': 0, 'malformed': 0}
    # one totals table per link: their rows add up
    for table in root.iter('{http://www.w3.org/1999/xhtml}table'):
        if table.get('class') != 'totals':
            continue
        for tr in table.iter('{http://www.w3.org/1999/xhtml}tr'):
            if tr.get('data-key') in ('records', 'malformed'):
                tot[tr.get('data-key')] += int(''.join(list(tr)[3].itertext()))
    return tot['records'], tot['records'] - tot['malformed'], None


MODES = [
    ('text', []),
    ('verbose', ['-V', '-x']),
    ('json', ['--json', '-x']),
    ('json-stateless', ['--json', '--stateless']),
    ('stats', ['-q', '--stats']),
    ('stats-json', ['-q', '--stats', '--json']),
    ('timeline', ['--timeline']),
    ('report', ['--report', '-']),
]


def want_stderr(spec, path):
    """Expected stderr as regexes, one a line; None = any lines naming the input."""
    if spec == '-':
        return None
    if spec == '':
        return []
    return [re.escape(f"{PROG}: {path}: ") + s for s in spec.split(' ;; ')]


def stderr_problems(err, want, path):
    lines = err.splitlines()
    if want is None:
        prefix = f"{PROG}: {path}: "
        bad = [x for x in lines if not x.startswith(prefix)]
        return [f"stderr line not naming the input: {bad[0]!r}"] if bad else []
    if len(lines) != len(want):
        return [f"{len(lines)} stderr lines, want {len(want)}"]
    return [f"stderr line {i + 1} does not match /{w}/" for i, (x, w) in enumerate(zip(lines, want))
            if not re.fullmatch(w, x)]


def run(binary, case, srcdir, gendir):
    name, code, strict, records, valid, beacons, err_spec, args = case
    argv, stdin = run_errors.split_args(args, srcdir, gendir)
    path = '-' if stdin else argv[-1]
    want = want_stderr(err_spec, path)
    ok = True
    for mode, extra in MODES + [('strict', ['--strict', '-q'])]:
        rc, out, err = run_errors.invoke(binary, extra + argv, stdin)
        problems = []
        want_rc = int(strict if mode == 'strict' else code)
        if rc != want_rc:
            problems.append(f"exit {rc}, want {want_rc}")
        problems += stderr_problems(err, want, path)
        if int(code) == 2 and out:
            problems.append("output although the input could not be read")
        try:
            n, v, b = counted(mode, out)
        except (ValueError, KeyError, json.JSONDecodeError) as e:
            problems.append(f"unreadable output: {e}")
            n = v = b = None
        if n is not None and n != int(records):
            problems.append(f"{n} records decoded, want {records}")
        if v is not None and v != int(valid):
            problems.append(f"{v} valid records, want {valid}")
        if b is not None and beacons != '-' and b != list(range(int(beacons))):
            problems.append(f"beacon values {b}, want 0..{int(beacons) - 1}")
        if problems:
            ok = False
            print(f"FAIL {name} [{mode}]: {' '.join(extra + argv)}")
            for x in problems:
                print(f"     {x}")
            print("     --- stderr ---\n" + err + "     --- stdout (first 2000 chars) ---\n" + out[:2000])
    if ok:
        print(f"ok   {name}")
    return ok


if __name__ == '__main__':
    run_errors.main(run, ncols=8, doc=__doc__)
