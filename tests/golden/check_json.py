#!/usr/bin/env python3
"""Validates `ualink-decode --json --stats` output against the keys and types
required by docs/json.md (schema version 1).

usage: check_json.py BIN CAPTURE [EXTRA ARGS...]   ('{}' in the extra args
marks where the capture goes, e.g. --raw {})
"""
import json
import re
import subprocess
import sys

HEX = re.compile(r'^[0-9a-f]*$')
DIRS = {'A>B', 'B>A'}
KINDS = {'flit', 'os', 'event', 'malformed', 'pcie_dllp', 'pcie_flit', 'ub', 'pcie_nf'}
FIELD = re.compile(r'^(ualink|pcie|ub)(\.[a-z0-9_]+)+$')
PCIE_FC = {'P', 'NP', 'Cpl', 'MR'}
UB_MODES = {'CRC', 'non-CRC', 'unknown'}
UB_ROLES = {'unsynced', 'LPH (DLLDB 0)', 'LBH (later DLLDB)', 'LCH (DLLCB)', 'body'}
SEVS = {'error', 'warning', 'info'}
USAGE = {'payload', 'nop', 'idle', 'reserved'}
REPLAY = {'seq', 'ack', 'nak', 'nak_selective'}
FEC = {'clean', 'corrected', 'uncorrectable'}
TLBEAT = {'none', 'tl', 'tl_m1', 'tl_m0', 'tl_m0m1', 'invalid'}
DLLP = {'nop2', 'nop', 'pm_enter_l1', 'pm_request_ack', 'link_mgmt', 'other'}
MCLASS = {'basic', 'control', 'uart', 'reserved'}
MTYPE = {'no_op', 'tl_rate', 'device_id', 'port_number', 'link_width', 'link_speed',
         'link_state', 'channel', 'uart_transport', 'uart_credit', 'uart_reset_req',
         'uart_reset_rsp', 'reserved'}
CMD_NAMES = {'request', 'ack', 'nack', 'pending', 'reserved'}
MSG_KEYS = {
    'tl_rate': ['ack', 'rate'],
    'device_id': ['ack', 'id', 'type', 'valid'],
    'port_number': ['ack', 'port', 'valid'],
    'link_width': ['priority', 'target', 'command', 'response'],
    'link_speed': ['priority', 'target', 'command', 'response'],
    'link_state': ['priority', 'target', 'command', 'response'],
    'channel': ['target', 'command', 'response'],
    'uart_reset_req': ['stream', 'all_streams'],
    'uart_reset_rsp': ['stream', 'all_streams', 'status'],
    'uart_transport': ['stream', 'length'],
    'uart_credit': ['stream', 'data_fc_seq'],
}
ENCODINGS = {'8b10b', '128b130b', '1b1b'}
OS_TYPES = {'ts1', 'ts2', 'eios', 'eieos', 'skp', 'sds', 'unknown'}


class Bad(Exception):
    pass


def need(obj, key, where):
    if not isinstance(obj, dict) or key not in obj:
        raise Bad(f"{where}: missing key '{key}'")
    return obj[key]


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def int_key(obj, key, where, lo=None, hi=None, nullable=False):
    v = need(obj, key, where)
    if v is None and nullable:
        return v
    if not is_int(v):
        raise Bad(f"{where}.{key}: {v!r} is not an integer")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise Bad(f"{where}.{key}: {v} outside {lo}..{hi}")
    return v


def bool_key(obj, key, where):
    v = need(obj, key, where)
    if not isinstance(v, bool):
        raise Bad(f"{where}.{key}: {v!r} is not a boolean")
    return v


def enum_key(obj, key, where, values):
    v = need(obj, key, where)
    if v not in values:
        raise Bad(f"{where}.{key}: {v!r} not one of {sorted(values)}")
    return v


CRC = re.compile(r'^0x[0-9a-f]{16}$')


def crc_key(obj, key, where):
    """A CRC-64 value: 0x and 16 lower-case hex digits, as -V shows it."""
    v = need(obj, key, where)
    if not isinstance(v, str) or not CRC.match(v):
        raise Bad(f"{where}.{key}: {v!r} is not 0x and 16 hex digits")
    return v


def hex_key(obj, key, where, digits=None):
    v = need(obj, key, where)
    if not isinstance(v, str) or not HEX.match(v) or len(v) % 2:
        raise Bad(f"{where}.{key}: {v!r} is not lower-case hex")
    if digits is not None and len(v) != digits:
        raise Bad(f"{where}.{key}: {len(v)} hex digits, want {digits}")
    return v


def list_key(obj, key, where, n=None):
    v = need(obj, key, where)
    if not isinstance(v, list):
        raise Bad(f"{where}.{key}: not an array")
    if n is not None and len(v) != n:
        raise Bad(f"{where}.{key}: {len(v)} elements, want {n}")
    return v


def check_msg(m, w):
    int_key(m, 'start_frame', w, 1)
    int_key(m, 'segment', w, 0, 3)
    hex_key(m, 'dw', w, 8)
    enum_key(m, 'mclass', w, MCLASS)
    mt = enum_key(m, 'mtype', w, MTYPE)
    for k in MSG_KEYS.get(mt, []):
        int_key(m, k, w, 0)
    if mt in ('link_width', 'link_speed', 'link_state', 'channel'):
        enum_key(m, 'command_name', w, CMD_NAMES)
    if mt == 'uart_transport':
        payload = list_key(m, 'payload', w)
        for i, dw in enumerate(payload):
            if not isinstance(dw, str) or not HEX.match(dw) or len(dw) != 8:
                raise Bad(f"{w}.payload[{i}]: {dw!r} is not 8 hex digits")
        if len(payload) > m['length'] + 1:
            raise Bad(f"{w}: {len(payload)} payload DWords for length {m['length']}")


def check_flit_head(f, w, raw):
    """The keys both flit kinds have (UALink flit, PCIe flit)."""
    usage = enum_key(f, 'usage', w, USAGE)
    int_key(f, 'usage_raw', w, 0, 7)
    bool_key(f, 'prior_payload', w)
    enum_key(f, 'replay_cmd', w, REPLAY)
    int_key(f, 'seq', w, 0, 1023)
    crc_ok = bool_key(f, 'crc_ok', w)
    rx, calc = crc_key(f, 'crc_rx', w), crc_key(f, 'crc_calc', w)
    if crc_ok != (rx == calc):
        raise Bad(f"{w}: crc_ok {crc_ok} but crc_rx {rx} crc_calc {calc}")
    if raw is not None and len(raw) == 2 * 264 and f.get('fec') == 'clean':
        # the value of flit bytes 242..249 read little-endian (record bytes 250..257)
        want = int.from_bytes(bytes.fromhex(raw[500:516]), 'little')
        if int(rx, 16) != want:
            raise Bad(f"{w}: crc_rx {rx} is not flit bytes 242..249 as a little-endian value ({want:#018x})")
    enum_key(f, 'fec', w, FEC)
    for i, g in enumerate(list_key(f, 'fec_groups', w, 3)):
        enum_key(g, 'status', f"{w}.fec_groups[{i}]", FEC)
        int_key(g, 'pos', f"{w}.fec_groups[{i}]", 0, 255, nullable=True)
    return usage


LINKS = {'request', 'request (not tracked)', 'completion', 'split completion part', 'completion without request'}
ADDR = re.compile(r'^0x[0-9a-f]{16}$')


def check_pcie_flit(f, w, raw=None):
    check_flit_head(f, w, raw)
    d = need(f, 'dllp', w)
    int_key(d, 'type', w + '.dllp', 0, 255)
    if not isinstance(need(d, 'name', w + '.dllp'), str):
        raise Bad(f"{w}.dllp.name: not a string")
    hex_key(d, 'bytes', w + '.dllp', 8)
    tlps = list_key(f, 'tlps', w)
    int_key(f, 'tlps_dropped', w, 0)
    int_key(f, 'nops', w, 0, 59)
    int_key(f, 'synced_at', w, 0, 58, nullable=True)
    for i, t in enumerate(tlps):
        wt = f"{w}.tlps[{i}]"
        if not isinstance(need(t, 'name', wt), str):
            raise Bad(f"{wt}.name: not a string")
        int_key(t, 'type', wt, 1, 255)
        for k, hi in (('tc', 7), ('ohc', 31), ('ts', 7), ('attr', 7), ('length', 1023), ('prefixes', 65535),
                      ('size_dw', 1024 + 7 + 7 + 5), ('payload_dw', 1024), ('end_dw', 59)):
            int_key(t, k, wt, 0, hi)
        int_key(t, 'start_frame', wt, 1)
        int_key(t, 'start_dw', wt, 0, 58, nullable=True)
        link = need(t, 'transaction', wt)
        if link is not None and link not in LINKS:
            raise Bad(f"{wt}.transaction: {link!r} not one of {sorted(LINKS)}")
        if link in ('completion', 'split completion part'):
            int_key(t, 'response_to', wt, 1)
            int_key(t, 'latency_ns', wt, 0)
        if 'address' in t and (not isinstance(t['address'], str) or not ADDR.match(t['address'])):
            raise Bad(f"{wt}.address: {t['address']!r} is not 0x and 16 hex digits")


def check_flit(f, w, raw=None):
    usage = check_flit_head(f, w, raw)
    if usage == 'payload':
        for i, s in enumerate(list_key(f, 'segments', w, 4)):
            ws = f"{w}.segments[{i}]"
            int_key(s, 'sh', ws, 0, 255)
            bool_key(s, 'alt', ws)
            enum_key(s, 'tlbeat', ws, TLBEAT)
            int_key(s, 'm0', ws, 0, 1)
            int_key(s, 'm1', ws, 0, 1)
    elif 'segments' in f:
        raise Bad(f"{w}: segments on a {usage} flit")
    if usage in ('nop', 'idle'):
        d = need(f, 'dllp', w)
        int_key(d, 'type', w + '.dllp', 0, 255)
        enum_key(d, 'name', w + '.dllp', DLLP)
    elif 'dllp' in f:
        raise Bad(f"{w}: dllp on a {usage} flit")
    for i, m in enumerate(list_key(f, 'dl_msgs', w)):
        check_msg(m, f"{w}.dl_msgs[{i}]")
    for i, t in enumerate(list_key(f, 'tl_flits', w)):
        wt = f"{w}.tl_flits[{i}]"
        int_key(t, 'm0', wt, 0, 1)
        int_key(t, 'm1', wt, 0, 1)
        hex_key(t, 'data', wt, 128)
        int_key(t, 'start_frame', wt, 1)
        int_key(t, 'start_segment', wt, 0, 3)


def check_os(o, w):
    int_key(o, 'lane', w, 0, 255)
    raw = int_key(o, 'encoding_raw', w, 0, 255)
    # the schema lists three encodings; a record with another code says "unknown"
    enum_key(o, 'encoding', w, ENCODINGS if raw <= 2 else {'unknown'})
    t = enum_key(o, 'type', w, OS_TYPES)
    hex_key(o, 'symbols', w)
    if t in ('ts1', 'ts2'):
        for k in ('link_number', 'lane_number', 'rate_id', 'training_control'):
            int_key(o, k, w, 0, 255)
        bool_key(o, 'flit_mode', w)
        if bool_key(o, 'modified', w):
            int_key(o, 'usage', w, 0, 7)
            int_key(o, 'vendor_id', w, 0, 0xffff)


def check_pcie_dllp(d, w):
    for k in ('framing', 'name'):
        if not isinstance(need(d, k, w), str):
            raise Bad(f"{w}.{k}: not a string")
    int_key(d, 'type', w, 0, 255)
    int_key(d, 'crc', w, 0, 0xffff)
    int_key(d, 'crc_calc', w, 0, 0xffff)
    if not isinstance(need(d, 'crc_ok', w), bool):
        raise Bad(f"{w}.crc_ok: not a boolean")
    if d['name'] in ('Ack', 'Nak'):
        int_key(d, 'seq', w, 0, 4095)
    if 'fc_class' in d:
        enum_key(d, 'fc_class', w, PCIE_FC)
        int_key(d, 'vc', w, 0, 7)
        for k, hi in (('hdr_scale', 3), ('hdr_fc', 255), ('data_scale', 3), ('data_fc', 4095)):
            int_key(d, k, w, 0, hi)
        int_key(d, 'hdr_credits', w, 0)
        int_key(d, 'data_credits', w, 0)


def check_fields(r, w):
    """A kind given as its summary and its field rows (docs/json.md)."""
    if not isinstance(need(r, 'summary', w), str) or not r['summary']:
        raise Bad(f"{w}.summary: not a non-empty string")
    rows = list_key(r, 'fields', w)
    if not rows:
        raise Bad(f"{w}.fields: empty")
    for i, f in enumerate(rows):
        wf = f"{w}.fields[{i}]"
        name = need(f, 'field', wf)
        if not isinstance(name, str) or not FIELD.match(name):
            raise Bad(f"{wf}.field: {name!r} is not a filter name")
        int_key(f, 'value', wf, 0)
        if 'name' in f and not isinstance(f['name'], str):
            raise Bad(f"{wf}.name: not a string")


def check_record(r, w):
    int_key(r, 'frame', w, 1)
    int_key(r, 'ts_ns', w, 0)
    enum_key(r, 'dir', w, DIRS)
    int_key(r, 'link', w, 0, 254, nullable=True)
    kind = enum_key(r, 'kind', w, KINDS)
    for i, f in enumerate(list_key(r, 'findings', w)):
        wf = f"{w}.findings[{i}]"
        if not isinstance(need(f, 'rule', wf), str) or not re.match(r'^[A-Z]{2}(-[A-Z0-9]+)+$', f['rule']):
            raise Bad(f"{wf}.rule: {f['rule']!r}")
        enum_key(f, 'severity', wf, SEVS)
        if not isinstance(need(f, 'msg', wf), str):
            raise Bad(f"{wf}.msg: not a string")
    if kind == 'flit':
        check_flit(need(r, 'flit', w), w + '.flit', r.get('raw'))
    elif kind == 'os':
        check_os(need(r, 'os', w), w + '.os')
    elif kind == 'pcie_dllp':
        check_pcie_dllp(need(r, 'dllp', w), w + '.dllp')
    elif kind == 'pcie_flit':
        check_pcie_flit(need(r, 'pcie_flit', w), w + '.pcie_flit', r.get('raw'))
    elif kind == 'ub':
        u = need(r, 'ub', w)
        enum_key(u, 'mode', w + '.ub', UB_MODES)
        enum_key(u, 'role', w + '.ub', UB_ROLES)
        int_key(u, 'block_flits', w + '.ub', 0, 32)
        int_key(u, 'flit_in_block', w + '.ub', 0, 31)
        if 'dlldp' in u:
            int_key(u['dlldp'], 'vl', w + '.ub.dlldp', 0, 15)
            int_key(u['dlldp'], 'flits', w + '.ub.dlldp', 1, 512)
            int_key(u['dlldp'], 'payload_len', w + '.ub.dlldp', 0, 10240)
        if 'dllcb' in u and not isinstance(need(u['dllcb'], 'name', w + '.ub.dllcb'), str):
            raise Bad(f"{w}.ub.dllcb.name: not a string")
    elif kind == 'pcie_nf':
        check_fields(r, w)
    elif kind == 'event':
        e = need(r, 'event', w)
        if not isinstance(need(e, 'name', w + '.event'), str):
            raise Bad(f"{w}.event.name: not a string")
        int_key(e, 'code', w + '.event', 0, 0xffff)
        int_key(e, 'value', w + '.event', 0, 0xffffffff)


def secs(ts_ns):
    """ts_ns as the decimal string of seconds "ts" carries."""
    return '%d.%09d' % divmod(ts_ns, 10**9)


def check_time(r, w, first):
    """"ts" says ts_ns exactly; "rel_ns" is the time since the first record
    with a time (0 without a time)."""
    if not isinstance(need(r, 'ts', w), str) or r['ts'] != secs(r['ts_ns']):
        raise Bad(f"{w}.ts: {r['ts']!r} is not ts_ns {r['ts_ns']} in seconds")
    rel = r['ts_ns'] - first if r['ts_ns'] and first else 0
    if not isinstance(need(r, 'rel_ns', w), int) or r['rel_ns'] != rel:
        raise Bad(f"{w}.rel_ns: {r['rel_ns']!r}, not {rel}")


def check_summary(s, records):
    w = 'summary'
    int_key(s, 'records', w, 0)
    if s['records'] != records:
        raise Bad(f"summary.records {s['records']} but {records} record lines")
    dirs = need(s, 'dirs', w)
    total = 0
    for d in DIRS:
        dd = need(dirs, d, w + '.dirs')
        wd = f"{w}.dirs.{d}"
        total += int_key(dd, 'records', wd, 0)
        for k in ('usage', 'crc', 'fec', 'replay_cmd', 'dl_msgs', 'findings'):
            need(dd, k, wd)
        for k in ('flit', 'os', 'event', 'malformed', 'tl_flits'):
            int_key(dd, k, wd, 0)
        for m in MTYPE:
            int_key(dd['dl_msgs'], m, wd + '.dl_msgs', 0)
    if total != records:
        raise Bad(f"summary: per-direction records add up to {total}, not {records}")
    for k in ('first', 'last'):
        if need(s, 'ts_' + k, w) != secs(int_key(s, f'ts_{k}_ns', w, 0)):
            raise Bad(f"summary.ts_{k}: {s['ts_' + k]!r} is not ts_{k}_ns in seconds")
    need(s, 'findings_by_rule', w)
    need(s, 'by_kind', w)
    if 'pcie' in s:
        for d in DIRS:
            pd = need(s['pcie'], d, w + '.pcie')
            int_key(pd, 'dllps', f"{w}.pcie.{d}", 0)
            int_key(pd, 'crc_bad', f"{w}.pcie.{d}", 0)
            need(pd, 'by_type', f"{w}.pcie.{d}")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, capture, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    args = [capture if a == '{}' else a for a in extra]
    if '{}' not in extra:
        args.append(capture)
    # -x: each record's bytes, against which the CRC value is checked
    p = subprocess.run([binary, '--json', '-x', '--stats'] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit(f"{capture}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
    lines = p.stdout.decode().splitlines()
    if not lines:
        sys.exit(f"{capture}: no output")
    frames = []
    first = 0
    try:
        for n, line in enumerate(lines[:-1], 1):
            r = json.loads(line)
            check_record(r, f"line {n} (frame {r.get('frame')})")
            first = first or r['ts_ns']
            check_time(r, f"line {n} (frame {r.get('frame')})", first)
            frames.append(r['frame'])
        s = json.loads(lines[-1])
        if s.get('kind') != 'summary':
            raise Bad("last line is not the summary object")
        check_summary(s, len(frames))
        if frames != list(range(1, len(frames) + 1)):
            raise Bad("frames are not numbered 1..N in order")
    except (Bad, json.JSONDecodeError) as e:
        sys.exit(f"{capture}: {e}")
    print(f"{capture}: {len(frames)} records valid")


if __name__ == '__main__':
    main()
