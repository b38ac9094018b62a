#!/usr/bin/env python3
"""Helpers for test_extcap.sh.

  xctool.py records FILE            one line per record: ts_ns hex (pcap or pcapng)
  xctool.py hex FILE [N]            the first N records (all by default), hex, one a line
  xctool.py info FILE               linktype, timestamp resolution, record count, first timestamp (ns)
  xctool.py config IFACE < LISTING  checks every line of an --extcap-config listing
  xctool.py rules JSONL             "frame dir rule" of every finding in ualink-decode --json output
  xctool.py findings JSONL TRUTH N  stateless decode findings against the truth, frames <= N
  xctool.py freeport                a free UDP port on 127.0.0.1
  xctool.py bound PORT              exit 0 when some socket is bound to UDP PORT
  xctool.py send FILE PORT A-B,...  the records of FILE as the UDP export (export header, sequence
                                    numbers from 0) to 127.0.0.1:PORT, leaving out datagrams A..B
"""
import json
import re
import socket
import struct
import sys
import time


def read_pcap(data):
    magic = struct.unpack('<I', data[:4])[0]
    if magic in (0xa1b2c3d4, 0xa1b23c4d):
        e = '<'
    else:
        e = '>'
        magic = struct.unpack('>I', data[:4])[0]
    nano = magic == 0xa1b23c4d
    linktype = struct.unpack(e + 'I', data[20:24])[0]
    off, recs = 24, []
    while off + 16 <= len(data):
        sec, frac, cap, _ = struct.unpack(e + 'IIII', data[off:off + 16])
        recs.append((sec * 10**9 + (frac if nano else frac * 1000), data[off + 16:off + 16 + cap]))
        off += 16 + cap
    return linktype, 9 if nano else 6, recs


def read_pcapng(data):
    off, e, recs, links, tsres = 0, '<', [], [], []
    while off + 12 <= len(data):
        btype = struct.unpack('<I', data[off:off + 4])[0]
        if btype == 0x0A0D0D0A:
            e = '<' if data[off + 8:off + 12] == b'\x4d\x3c\x2b\x1a' else '>'
        btype, blen = struct.unpack(e + 'II', data[off:off + 8])
        body = data[off + 8:off + blen - 4]
        if btype == 1:                      # interface description
            links.append(struct.unpack(e + 'H', body[:2])[0])
            res, o = 6, 8
            while o + 4 <= len(body):
                code, ln = struct.unpack(e + 'HH', body[o:o + 4])
                if code == 0:
                    break
                if code == 9:
                    res = body[o + 4]
                o += 4 + ((ln + 3) & ~3)
            tsres.append(res)
        elif btype == 6:                    # enhanced packet
            iface, hi, lo, cap, _ = struct.unpack(e + 'IIIII', body[:20])
            ticks = (hi << 32) | lo
            r = tsres[iface]
            ns = ticks * 10**(9 - r) if r <= 9 else ticks // 10**(r - 9)
            recs.append((ns, body[20:20 + cap]))
        off += blen
    return (links[0] if links else None), (tsres[0] if tsres else None), recs


def read_any(path):
    data = open(path, 'rb').read()
    if data[:4] == b'\x0a\x0d\x0d\x0a':
        return read_pcapng(data)
    return read_pcap(data)


ARG_KEYS = {'number', 'call', 'display', 'type', 'default', 'range', 'tooltip', 'group', 'required',
            'mustexist', 'validation', 'placeholder', 'reload', 'fileext', 'prefix', 'save'}
VALUE_KEYS = {'arg', 'value', 'display', 'default', 'enabled', 'parent', 'tooltip'}
TYPES = {'integer', 'unsigned', 'long', 'double', 'string', 'password', 'selector', 'editselector', 'radio',
         'multicheck', 'boolean', 'boolflag', 'fileselect', 'timestamp'}


def check_config(text):
    """Every line is 'arg' or 'value' followed by {key=value} items only."""
    errors, args, values = [], {}, {}
    for n, line in enumerate(text.splitlines(), 1):
        m = re.fullmatch(r'(arg|value) ((?:\{[a-z]+=[^{}]*\})+)', line)
        if not m:
            errors.append('line %d does not parse: %r' % (n, line))
            continue
        items = dict(re.findall(r'\{([a-z]+)=([^{}]*)\}', m.group(2)))
        kind = m.group(1)
        keys = ARG_KEYS if kind == 'arg' else VALUE_KEYS
        for k in items:
            if k not in keys:
                errors.append('line %d: unknown key %s' % (n, k))
        if kind == 'arg':
            num = int(items.get('number', '-1'))
            if num != len(args):
                errors.append('line %d: arg number %d, want %d' % (n, num, len(args)))
            if not items.get('call', '').startswith('--') or not items.get('display'):
                errors.append('line %d: call or display missing' % n)
            if items.get('type') not in TYPES:
                errors.append('line %d: type %r' % (n, items.get('type')))
            if 'range' in items:
                lo, hi = (float(x) for x in items['range'].split(','))
                if lo > hi:
                    errors.append('line %d: range %s' % (n, items['range']))
                if 'default' in items and not lo <= float(items['default']) <= hi:
                    errors.append('line %d: default %s outside %s' % (n, items['default'], items['range']))
            args[num] = items
            values[num] = []
        else:
            a = int(items.get('arg', '-1'))
            if a not in args:
                errors.append('line %d: value for unknown arg %d' % (n, a))
                continue
            if not items.get('value') or not items.get('display'):
                errors.append('line %d: value or display missing' % n)
            values[a].append(items)
    for num, a in args.items():
        if a.get('type') in ('selector', 'radio', 'multicheck', 'editselector'):
            if not values[num]:
                errors.append('arg %s has no values' % a['call'])
            if sum(1 for v in values[num] if v.get('default') == 'true') > 1:
                errors.append('arg %s has several defaults' % a['call'])
        elif values[num]:
            errors.append('arg %s is not a selector but has values' % a['call'])
    return errors, args, values


def decoded(path):
    got = set()
    for line in open(path):
        o = json.loads(line)
        for f in o.get('findings', []):
            got.add((o['frame'], o['dir'], f['rule']))
    return got


def main():
    cmd = sys.argv[1]
    if cmd == 'records':
        for ts, rec in read_any(sys.argv[2])[2]:
            print(ts, rec.hex())
    elif cmd == 'hex':
        recs = read_any(sys.argv[2])[2]
        n = int(sys.argv[3]) if len(sys.argv) > 3 else len(recs)
        for _, rec in recs[:n]:
            print(rec.hex())
    elif cmd == 'info':
        lt, res, recs = read_any(sys.argv[2])
        print(lt, res, len(recs), recs[0][0] if recs else '-')
    elif cmd == 'config':
        errors, args, values = check_config(sys.stdin.read())
        for e in errors:
            print('config: ' + e, file=sys.stderr)
        for num, a in args.items():
            print(a['call'], a['type'], len(values[num]))
        sys.exit(1 if errors else 0)
    elif cmd == 'rules':
        for x in sorted(decoded(sys.argv[2])):
            print('%d %s %s' % x)
    elif cmd == 'findings':
        n = int(sys.argv[4])
        got = decoded(sys.argv[2])
        want = set()
        for line in open(sys.argv[3]):
            t = json.loads(line)
            if t['frame'] <= n:
                want.add((t['frame'], t['dir'], t['rule']))
        for x in sorted(want - got):
            print('truth not decoded: frame %d %s %s' % x, file=sys.stderr)
        for x in sorted(got - want):
            print('decoded, not in the truth: frame %d %s %s' % x, file=sys.stderr)
        print(' '.join('%d:%s' % (f, r) for f, _, r in sorted(want)))
        sys.exit(0 if got == want and want else 1)
    elif cmd == 'freeport':
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(('127.0.0.1', 0))
        print(s.getsockname()[1])
    elif cmd == 'bound':
        port = '%04X' % int(sys.argv[2])
        for f in ('/proc/net/udp', '/proc/net/udp6'):
            try:
                for line in open(f).readlines()[1:]:
                    if line.split()[1].endswith(':' + port):
                        sys.exit(0)
            except OSError:
                pass
        sys.exit(1)
    elif cmd == 'send':
        skip = set()
        for r in sys.argv[4].split(','):
            a, b = r.split('-')
            skip.update(range(int(a), int(b) + 1))
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for i, (_, rec) in enumerate(read_any(sys.argv[2])[2]):
            if i in skip:
                continue
            s.sendto(struct.pack('<BBHI', 0x81, 8, 0, i) + rec, ('127.0.0.1', int(sys.argv[3])))
            if i % 200 == 199:
                time.sleep(0.002)
    else:
        sys.exit('unknown command ' + cmd)


if __name__ == '__main__':
    main()
