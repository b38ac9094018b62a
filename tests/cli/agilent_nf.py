#!/usr/bin/env python3
"""The real Agilent N5305A trace (captures/agilent-n5305a-link-power-off.*):
the converter, then ualink-decode against the trace's own decode.

  agilent_nf.py DECODER SRCDIR OUTDIR

1. scripts/packets2pcap.py turns the shipped JSON Lines into the shipped
   pcap byte for byte.
2. ualink-decode --json: every record decodes (none malformed); each JSON
   line's packet is the record of its position (ordered sets: kind 2 with
   their own symbols, an EIOS followed by its electrical-idle event); every
   TLP reads as the line's message with its sequence number and a good
   LCRC, every DLLP as the line's type with a good CRC-16 and its fields;
   no finding but the ones the trace's README expects (PN-SYNC per
   direction, PN-PM-L23-UNACKED once, from the data-link analysis).
"""
import collections
import json
import os
import subprocess
import sys

NAME = 'agilent-n5305a-link-power-off'


def fail(msg):
    print('FAIL:', msg)
    sys.exit(1)


def fields(rec):
    out = collections.defaultdict(list)
    for f in rec.get('fields', []):
        out[f['field']].append(f)
    return out


def one(fs, name):
    v = fs.get(name)
    if not v or len(v) != 1:
        fail('%s: %d rows' % (name, len(v or [])))
    return v[0]


def main():
    dec, src, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    jsonl = os.path.join(src, 'captures', NAME + '.jsonl')
    pcap = os.path.join(src, 'captures', NAME + '.pcap')
    made = os.path.join(out, NAME + '.pcap')
    subprocess.run([sys.executable, os.path.join(src, 'scripts', 'packets2pcap.py'), jsonl, made], check=True,
                   stdout=subprocess.DEVNULL)
    if open(made, 'rb').read() != open(pcap, 'rb').read():
        fail('the converter does not reproduce captures/%s.pcap' % NAME)
    lines = [json.loads(x) for x in open(jsonl, encoding='utf-8') if x.strip()]
    res = subprocess.run([dec, '--json', pcap], capture_output=True, text=True)
    if res.returncode != 0:
        fail('ualink-decode exit %d: %s' % (res.returncode, res.stderr))
    recs = [json.loads(x) for x in res.stdout.splitlines() if x.strip()]
    recs = [r for r in recs if 'frame' in r and r.get('kind') not in ('timeline', 'transaction', 'end', 'summary')]
    eios = sum(1 for d in lines if d['packet'] == 'ordered_set' and d['os_symbols'] == 'bc7c7c7c')
    if len(recs) != len(lines) + eios:
        fail('%d records for %d lines and %d EIOS' % (len(recs), len(lines), eios))
    counts = collections.Counter()
    i = 0
    tlps = dllps = 0
    for d in lines:
        r = recs[i]
        i += 1
        w = 'record %d (frame %d)' % (d['record'], r['frame'])
        if r['kind'] == 'malformed':
            fail('%s malformed: %s' % (w, r.get('error')))
        if r['dir'] != d['dir']:
            fail('%s: dir %s, the trace says %s' % (w, r['dir'], d['dir']))
        if r['ts_ns'] != d['ts_ns']:
            fail('%s: ts %d, the trace says %d' % (w, r['ts_ns'], d['ts_ns']))
        for f in r['findings']:
            counts[f['rule']] += 1
        dd = d.get('decoded', {})
        if d['packet'] == 'tlp':
            tlps += 1
            fs = fields(r)
            if r['kind'] != 'pcie_nf' or one(fs, 'pcie.nf.class')['value'] != 1:
                fail('%s: not a kind-7 TLP' % w)
            if one(fs, 'pcie.nf.seq')['value'] != dd['seq']:
                fail('%s: seq %d, the trace says %d' % (w, one(fs, 'pcie.nf.seq')['value'], dd['seq']))
            if one(fs, 'pcie.nf.fmt_type')['value'] != int(dd['fmt_type'], 16):
                fail('%s: Fmt/Type' % w)
            code = one(fs, 'pcie.nf.msg_code')
            if code['value'] != int(dd['msg_code'], 16) or code.get('name') != dd['msg']:
                fail('%s: message %s, the trace says %s' % (w, code, dd['msg']))
            lcrc = one(fs, 'pcie.nf.lcrc')['value'].to_bytes(4, 'little').hex()
            if lcrc != dd['lcrc'] or one(fs, 'pcie.nf.lcrc_calc')['value'] != one(fs, 'pcie.nf.lcrc')['value']:
                fail('%s: LCRC %s' % (w, lcrc))
            if one(fs, 'pcie.nf.lcrc_status').get('name') != 'good' or one(fs, 'pcie.nf.accepted')['value'] != 1:
                fail('%s: LCRC not good or not accepted' % w)
            words = r['summary'].split()
            if dd['msg'] not in words or words[-2:] != ['seq', str(dd['seq'])]:
                fail('%s: summary %r' % (w, r['summary']))
        elif d['packet'] == 'dllp':
            dllps += 1
            fs = fields(r)
            if r['kind'] != 'pcie_nf' or one(fs, 'pcie.nf.class')['value'] != 2:
                fail('%s: not a kind-7 DLLP' % w)
            t = one(fs, 'pcie.dllp.type')
            if t['value'] != int(dd['type'], 16) or t.get('name') != dd['name']:
                fail('%s: DLLP %s, the trace says %s' % (w, t, dd['name']))
            if one(fs, 'pcie.dllp.crc_ok')['value'] != 1 or one(fs, 'pcie.dllp.crc')['value'] != int.from_bytes(bytes.fromhex(dd['crc16']), 'little'):
                fail('%s: CRC-16' % w)
            for key, field in (('acknak_seq', 'pcie.dllp.seq'), ('hdr_fc', 'pcie.dllp.hdr_fc'),
                               ('data_fc', 'pcie.dllp.data_fc'), ('vc', 'pcie.dllp.vc')):
                if key in dd and one(fs, field)['value'] != dd[key]:
                    fail('%s: %s %d, the trace says %d' % (w, field, one(fs, field)['value'], dd[key]))
        else:
            if r['kind'] != 'os':
                fail('%s: kind %s, an ordered set expected' % (w, r['kind']))
            if d['os_symbols'] == 'bc7c7c7c':
                ev = recs[i]
                i += 1
                if ev['kind'] != 'event' or ev['event']['name'] != 'eidle_entered' or ev['dir'] != d['dir']:
                    fail('%s: no electrical idle event after the EIOS' % w)
    allowed = {'PN-SYNC': 2, 'PN-PM-L23-UNACKED': 1}
    for rule, n in counts.items():
        if n > allowed.get(rule, 0):
            fail('%d x %s' % (n, rule))
    if tlps != 2 or dllps != 73:
        fail('%d TLPs and %d DLLPs, the trace has 2 and 73' % (tlps, dllps))
    print('ok: %d records, %d TLPs, %d DLLPs, findings %s' % (len(recs), tlps, dllps, dict(counts)))


if __name__ == '__main__':
    main()
