#!/usr/bin/env python3
"""ualink-decode -Y and -T fields combined with the other options: the
frames -Y selects (listed with -T fields -e frame.number) are exactly the
records --json and -V show, the records --stats counts, the first N with
-c, those --strict judges; the older selections (--dir, --frames, --rule)
narrow -Y further; a bad filter is exit 2 with tshark's message.

usage: combos.py UALINK_DECODE SOURCE_DIR"""
import json, os, re, subprocess, sys

decode, src = sys.argv[1], sys.argv[2]
cap = os.path.join(src, 'captures', 'errors.pcap')
failures = checks = 0


def check(what, cond):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print('FAIL ' + what)


def run(*args):
    return subprocess.run([decode] + list(args), capture_output=True, text=True)


def frames(flt, *extra):
    r = run('-Y', flt, '-T', 'fields', '-e', 'frame.number', *extra, cap)
    assert r.returncode == 0, r.stderr
    return [int(x) for x in r.stdout.split()]


# ualink.tl.data: -q keeps the TL flit bytes for it (the no-TL-bytes unpack path otherwise)
for flt in ['ualink.rule == "RP-NAK"', 'ualink.severity == "error"', 'ualink.fh.replay_cmd == 2 && ualink.rec.dir == 1',
            'ualink.flit.fec_status == 1', 'frame.number in {3..9}', 'ualink.tl.data[1] == 0']:
    want = frames(flt)
    check('%s selects frames' % flt, len(want) > 0)
    js = [o for o in map(json.loads, run('-Y', flt, '--json', cap).stdout.splitlines()) if 'frame' in o]
    check('%s: --json shows the same records' % flt, [o['frame'] for o in js] == want)
    v = run('-Y', flt, '-V', cap).stdout
    check('%s: -V shows the same records' % flt, [int(x) for x in re.findall(r'^Frame (\d+):', v, re.M)] == want)
    lines = run('-Y', flt, cap).stdout.splitlines()
    check('%s: one line per record' % flt, [int(l.split()[0]) for l in lines] == want)
    s = run('-Y', flt, '-q', '--stats', '--json', cap).stdout.splitlines()
    check('%s: --stats counts the matching records' % flt, json.loads(s[-1])['records'] == len(want))
    check('%s: -c 2' % flt, frames(flt, '-c', '2') == want[:2])
    check('%s: --json -c 1' % flt, [o['frame'] for o in map(json.loads, run('-Y', flt, '--json', '-c', '1', cap).stdout.splitlines()) if 'frame' in o] == want[:1])
    errs = [f for f in want if any(x['severity'] == 'error' for o in js if o['frame'] == f for x in o.get('findings', []))]
    r = run('-Y', flt, '-q', '--strict', cap)
    check('%s: --strict exit %d' % (flt, r.returncode), r.returncode == (1 if errs else 0))
    both = frames(flt, '--dir', 'B')
    check('%s: with --dir B' % flt, both == [f for f in want if f in set(frames('ualink.rec.dir == 1'))])
    check('%s: with --frames 1-200' % flt, frames(flt, '--frames', '1-200') == [f for f in want if f <= 200])

# -T fields goes with the selections and --stats
r = run('-Y', 'ualink.rule', '-T', 'fields', '-e', 'frame.number', '-e', 'ualink.rule', '--rule', 'RP-NAK', cap)
rows = [l.split('\t') for l in r.stdout.splitlines()]
check('-T fields with --rule', rows and all('RP-NAK' in x[1].split(',') for x in rows))
r = run('-T', 'fields', '-e', 'frame.number', '--stats', '-c', '3', cap)
check('-T fields with --stats -c 3', r.stdout.splitlines()[:3] == ['1', '2', '3'] and re.search(r'^Records +2 +1 +3$', r.stdout, re.M))
r = run('-T', 'fields', '-e', 'frame.number', '--json', cap)
check('-T fields --json is a usage error', r.returncode == 2)

# stateless: no analysis fields, as the plugin with ualink.analyze off
check('--stateless has no analysis fields', frames('ualink.ltssm.state', '--stateless') == [])
check('analysis fields without --stateless', len(frames('ualink.ltssm.state')) > 0)

# errors: exit 2, tshark's message and caret
r = run('-Y', 'ualink.fh.seq == "abc"', cap)
check('bad filter: exit 2', r.returncode == 2)
check('bad filter: message and caret', r.stderr == 'ualink-decode: Unsigned integer (2 bytes) cannot be converted from a string ("abc").\n'
      '    ualink.fh.seq == "abc"\n                     ^~~~~\n')
r = run('-T', 'fields', '-e', 'ualink.nonesuch', cap)
check('unknown -e field: exit 2', r.returncode == 2 and 'ualink.nonesuch' in r.stderr)
r = run('-E', 'quote=x', cap)
check('bad -E: exit 2', r.returncode == 2)
print('%d checks, %d failures' % (checks, failures))
sys.exit(1 if failures else 0)
