#!/usr/bin/env python3
"""PCIe throughput and flow-control credits of the presentation model
(pcie/views.c) against values computed here from the TLPs ualink-decode
--json lists (issue 36): per direction and per Type the TLP bytes (4 x
(prefixes + size_dw)) and payload bytes (4 x payload_dw), their rates over
the span from the first to the last record, and the credits consumed by
class (a header credit per TLP, a data credit per 4 DW of payload) shown
against the receiving side's advertised credits. On ualink-gen pcie-flit
captures of two seeds; every value must be non-zero somewhere, so the
check cannot pass on an empty model.

usage: pcie_throughput.py UALINK_DECODE UALINK_GEN VIEW_COUNTERS WORKDIR"""
import json, os, subprocess, sys

decode, gen, counters, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
bad = 0


def fail(msg):
    global bad
    bad += 1
    print('FAIL ' + msg)


def fc_class(name):
    # T Table 2-5's FC column, written out here on purpose (not read from libdecode)
    if name.startswith('Cpl') or name.startswith('UIO') and 'Cpl' in name:
        return 'Cpl'
    if name.startswith('MWr') or name.startswith('Msg') or name == 'UIOMWr':
        return 'P'
    return 'NP'


for seed in (1, 7):
    cap = os.path.join(work, 'flit-%d.pcap' % seed)
    subprocess.run([gen, '-s', 'pcie-flit', '--seed', str(seed), '-c', '3000', '-w', cap], check=True,
                   stdout=subprocess.DEVNULL)
    out = subprocess.run([decode, '--json', cap], capture_output=True, text=True, check=True).stdout
    tot = [0, 0]
    pay = [0, 0]
    by = [{}, {}]
    cr = [{}, {}]
    first = last = None
    for line in out.splitlines():
        o = json.loads(line)
        if 'frame' not in o:
            continue
        t = o['ts_ns']
        first = t if first is None else min(first, t)
        last = t if last is None else max(last, t)
        d = 0 if o['dir'] == 'A>B' else 1
        for x in (o.get('pcie_flit') or {}).get('tlps', []):
            b, p = 4 * (x['prefixes'] + x['size_dw']), 4 * x['payload_dw']
            tot[d] += b
            pay[d] += p
            e = by[d].setdefault(x['type'], [0, 0])
            e[0] += b
            e[1] += p
            c = cr[d].setdefault(fc_class(x['name']), [0, 0])
            c[0] += 1
            c[1] += (x['payload_dw'] + 3) // 4
    span = (last - first) / 1e9
    got = {}
    rows = {}
    for line in subprocess.run([counters, cap], capture_output=True, text=True, check=True).stdout.splitlines():
        o = json.loads(line)
        if o['kind'] == 'counter' and o['key']:
            got[o['key']] = o
        elif o['kind'] == 'row':
            rows[(o['group'], o['label'])] = o['value']

    def check(key, want):
        o = got.get(key)
        if o is None:
            fail('seed %d: no counter %s' % (seed, key))
            return
        for d in (0, 1):
            if o['v'][d] != want[d] or abs(o['x'][d] - want[d] / span) > 1e-6 * max(1.0, want[d] / span):
                fail('seed %d: %s %s: %s %s, want %d bytes, %.3f B/s' % (seed, key, 'AB'[d], o['v'][d], o['x'][d],
                                                                         want[d], want[d] / span))
    check('pcie.tlp_bps', tot)
    check('pcie.payload_bps', pay)
    for t in set(by[0]) | set(by[1]):
        a, b = by[0].get(t, [0, 0]), by[1].get(t, [0, 0])
        check('pcie.tlp_bps.%02x' % t, [a[0], b[0]])
        check('pcie.payload_bps.%02x' % t, [a[1], b[1]])
    for c in ('P', 'NP', 'Cpl'):
        # the credits side d advertises are consumed by the other side's TLPs
        want = ['%d/%d' % tuple(cr[d ^ 1].get(c, [0, 0])) for d in (0, 1)]
        v = rows.get(('Flow control VC0', '%s credits consumed (hdr/data)' % c))
        if v != want:
            fail('seed %d: %s credits consumed %s, want %s' % (seed, c, v, want))
    if not (all(tot) and all(pay) and len(by[0]) + len(by[1]) > 4):
        fail('seed %d: too little traffic to check: %s %s %s' % (seed, tot, pay, by))
    print('ok   seed %d: %d/%d TLP bytes, %d/%d payload, %d Types, span %.0f ns' %
          (seed, tot[0], tot[1], pay[0], pay[1], len(set(by[0]) | set(by[1])), span * 1e9))
sys.exit(1 if bad else 0)
