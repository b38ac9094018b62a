#!/usr/bin/env python3
"""ualink-decode --report: the page for one capture, checked against the
decoder's own --stats --json and --timeline --json, parsed as XML, and
rendered in headless Chromium (with --xhtml, also opened as XHTML there).

  report_check.py DECODER GEN OUTDIR (--capture FILE | --scenario NAME | --long)
                  [--chromium PATH [--xhtml]] [--maxrss PATH]
  report_check.py DECODER GEN OUTDIR --scenario-list NAME,NAME,...

--scenario generates a compact capture of that ualink-gen scenario; --long
streams two million generated records through a pipe and checks the page
and the decoder's memory stay bounded. --scenario-list checks that the
registered scenarios are exactly those `ualink-gen --list-scenarios` names.
Screenshots are kept in OUTDIR.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib

XHTML = '{http://www.w3.org/1999/xhtml}'
SVG = '{http://www.w3.org/2000/svg}'
DIRS = ('A>B', 'B>A')
WINDOW = (1200, 1800)

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    return p.returncode, p.stdout, p.stderr


def text_of(el):
    return ''.join(el.itertext())


def by_id(root, ident):
    for el in root.iter():
        if el.get('id') == ident:
            return el
    return None


def rows(table):
    """data-key -> [A, B, total] of a totals table."""
    out = {}
    for tr in table.iter(XHTML + 'tr'):
        k = tr.get('data-key')
        if k is None:
            continue
        cells = [text_of(td) for td in tr.findall(XHTML + 'td')]
        out[k] = [int(c) if c else None for c in cells[1:4]]
    return out


def lookup(d, key):
    for part in key.split('.'):
        d = d[part]
    return d


def tables(root, cls, fabric=None):
    """The tables of a class (one per link), of one fabric's links when given."""
    return [el for el in root.iter(XHTML + 'table')
            if el.get('class') == cls and (fabric is None or el.get('data-fabric') == fabric)]


def summed_rows(tabs):
    """data-key -> [A, B, total] summed over the links' tables."""
    out = {}
    for t in tabs:
        for k, v in rows(t).items():
            if k in out:
                out[k] = [None if x is None or y is None else x + y for x, y in zip(out[k], v)]
            else:
                out[k] = v
    return out


def check_totals(root, summary):
    totals = summed_rows(tables(root, 'totals'))
    check(len(tables(root, 'totals')) == len(summary['links']) or not summary['links'],
          'a totals table per link: %d tables, %d links' % (len(tables(root, 'totals')), len(summary['links'])))
    check(len(totals) >= (25 if fabrics(summary)['ualink'] else 3), 'totals table has %d rows' % len(totals))
    for k, (a, b, t) in totals.items():
        ja, jb = lookup(summary['dirs']['A>B'], k), lookup(summary['dirs']['B>A'], k)
        check((a, b) == (ja, jb), 'totals %s: report %d/%d, --stats %d/%d' % (k, a, b, ja, jb))
        check(t == a + b, 'totals %s: total %d is not %d + %d' % (k, t, a, b))
    # every DL message type --stats counts has a row
    for d in DIRS:
        for m, n in summary['dirs'][d]['dl_msgs'].items():
            if n:
                check('dl_msgs.' + m in totals, 'no totals row for dl_msgs.%s' % m)
    ualink_an = tables(root, 'analysis', 'ualink')
    if not fabrics(summary)['ualink']:   # the UALink analysis table only where UALink records are
        check(not ualink_an, 'UALink analysis table on a page without UALink records')
        return totals
    check(len(ualink_an) == 1, '%d UALink analysis tables' % len(ualink_an))
    an = rows(ualink_an[0])
    check(len(an) >= 15, 'analysis table has %d rows' % len(an))
    for k, (a, b, t) in an.items():
        ja, jb = lookup(summary['analysis']['A>B'], k), lookup(summary['analysis']['B>A'], k)
        check((a, b) == (ja, jb), 'analysis %s: report %d/%d, --stats %d/%d' % (k, a, b, ja, jb))
        # a maximum and a frame number have no total; counts add up
        check(t == (None if k.endswith('_max_ns') or k == 'sync_frame' else a + b), 'analysis %s: total %s' % (k, t))
    return totals


def check_findings(root, summary):
    table = by_id(root, 'findings')
    by_rule = {}
    if table is not None:
        for tr in table.iter(XHTML + 'tr'):
            rule = tr.get('data-rule')
            if not rule:
                continue
            cells = [text_of(td) for td in tr.findall(XHTML + 'td')]
            a, b, t, first, last = (int(c) for c in cells[3:8])
            check(t == a + b, '%s: total %d is not %d + %d' % (rule, t, a, b))
            check(1 <= first <= last, '%s: first frame %d, last %d' % (rule, first, last))
            by_rule[rule] = t
            # the first-frame link lands on a marker of the timeline
            link = tr.findall('.//' + XHTML + 'a')
            check(link and link[0].get('href') == '#tl-' + rule, '%s: first frame not linked to the timeline' % rule)
            check(by_id(by_id(root, 'timeline'), 'tl-' + rule) is not None, '%s: no timeline anchor tl-%s' % (rule, rule))
            check(tr.get('id') == 'rule-' + rule, '%s: row has no anchor' % rule)
    check(by_rule == summary['findings_by_rule'],
          'findings by rule: report %s, --stats %s' % (by_rule, summary['findings_by_rule']))
    cards = {}
    for card in by_id(root, 'summary'):
        b, span = card.find(XHTML + 'b'), card.find(XHTML + 'span')
        cards[text_of(span)] = text_of(b)
    sev = summary['findings_by_severity']
    for name, key in (('errors', 'error'), ('warnings', 'warning'), ('info findings', 'info')):
        check(int(cards[name]) == sev[key], 'card %s %s, --stats %d' % (name, cards[name], sev[key]))
    check(int(cards['records']) == summary['records'], 'card records %s, --stats %d' %
          (cards['records'], summary['records']))


def lane_texts(svg):
    """The text of every <text> and <title> of the timeline, in order."""
    return [text_of(el) for el in svg.iter() if el.tag in (SVG + 'text', SVG + 'title')]


def check_timeline(root, summary, events):
    svg = by_id(root, 'timeline')
    check(svg is not None and svg.tag == SVG + 'svg', 'no timeline SVG')
    texts = lane_texts(svg)
    joined = '\n'.join(texts)
    # the side headers split the marker labels of A from those of B
    heads = [i for i, t in enumerate(texts) if t.startswith('Side A') or t.startswith('Side B')]
    check(len(heads) == 2, 'timeline has %d side headers' % len(heads))
    if len(heads) != 2:
        return
    sides = (texts[heads[0]:heads[1]], texts[heads[1]:])
    for s in range(2):
        d = summary['dirs'][DIRS[s]]
        want = {'Nak flits': d['naks'], 'replays': d['replays'], 'FEC corrected': d['fec']['corrected'],
                'FEC uncorrectable': d['fec']['uncorrectable'], 'info': d['findings']['info'],
                'warning': d['findings']['warning'], 'error': d['findings']['error']}
        for name, n in want.items():
            lab = [t for t in sides[s] if re.fullmatch(re.escape(name) + r' \d+', t)]
            check(lab == ['%s %d' % (name, n)], 'side %s marker %s: %s, expected %d' % ('AB'[s], name, lab, n))
    # every LTSSM state class the analysis entered has a band with its name
    classes = set()
    for e in events:
        if e['event'] != 'ltssm':
            continue
        st = e['text'].split(' -> ')[-1]
        for prefix, cls in (('Recovery.', 'Recovery'), ('L1.', 'L1'), ('Configuration.', 'Configuration'),
                            ('Polling.', 'Polling'), ('Detect.', 'Detect'), ('L0p', 'L0p'), ('L0', 'L0')):
            if st.startswith(prefix):
                classes.add(cls)
                break
    for cls in classes:
        check(re.search(r'(^|\n)' + re.escape(cls) + r'( \d+% of the bin)?: ', joined),
              'timeline has no %s band' % cls)
    # data rates and widths the events name
    for e in events:
        if e['event'] == 'rate' and e['value'] > 0:
            rate = re.search(r'-> (\S+) GT/s', e['text']).group(1)
            check('%s GT/s: ' % rate in joined, 'timeline has no %s GT/s band' % rate)
        if e['event'] == 'width' and e['value'] > 0:
            check('\nx%d: ' % e['value'] in joined, 'timeline has no x%d width' % e['value'])
        if e['event'] == 'channel':
            on = e['value'] & 8
            name = 'ch0 (TL)' if (e['value'] & 7) == 0 else 'ch4 (UART)'
            check(re.search(re.escape(name) + (' online' if on else ' offline'), joined),
                  'timeline never shows %s %s' % (name, 'online' if on else 'offline'))


UB_DLL = {1: 'Disabled', 2: 'Param_Init', 3: 'Credit_Init', 4: 'Normal'}


def check_ub_lanes(root, summary, events):
    """A capture with UB flits: DLL bands of the states entered, the modes
    in force, and UB event counts equal to --stats."""
    if not any(summary['dirs'][DIRS[s]].get('ub', {}).get('flits', 0) for s in range(2)):
        return
    texts = lane_texts(by_id(root, 'timeline'))
    heads = [i for i, t in enumerate(texts) if t.startswith('Side A') or t.startswith('Side B')]
    if len(heads) != 2:
        return
    sides = (texts[heads[0]:heads[1]], texts[heads[1]:])
    rules = summary.get('findings_by_rule', {})
    tot = {'Retry_Req_Sets': 0, 'discarded blocks': 0}
    for s in range(2):
        joined = '\n'.join(sides[s])
        lab = [t for t in sides[s] if re.fullmatch(r'BCRC failures \d+', t)]
        want = summary['dirs'][DIRS[s]].get('ub', {}).get('bcrc_bad', 0)
        check(lab == ['BCRC failures %d' % want], 'side %s UB BCRC failures: %s, --stats %d' % ('AB'[s], lab, want))
        for name in tot:
            lab = [int(t.split()[-1]) for t in sides[s] if re.fullmatch(re.escape(name) + r' \d+', t)]
            check(len(lab) == 1, 'side %s has no UB %s row' % ('AB'[s], name))
            tot[name] += lab[0] if lab else 0
        for e in events:
            if e['event'] == 'ub_dll' and e['partner'] == 'AB'[s] and e['value'] in UB_DLL:
                st = UB_DLL[e['value']]
                check(re.search(r'(^|\n)' + st + r'( \d+% of the bin)?: ', joined), 'side %s has no UB %s band' % ('AB'[s], st))
            if e['event'] == 'ub_mode' and e['partner'] == 'link' and e['value'] in (1, 2):
                mode = 'CRC mode' if e['value'] == 1 else 'non-CRC mode'
                check(re.search(r'(^|\n)' + mode + ': ', joined), 'side %s has no %s band' % ('AB'[s], mode))
    check(tot['Retry_Req_Sets'] == rules.get('UB-RETRY-REQ', 0), 'UB Retry_Req_Sets %d, --stats %d' %
          (tot['Retry_Req_Sets'], rules.get('UB-RETRY-REQ', 0)))
    check(tot['discarded blocks'] == rules.get('UB-DISCARDED', 0), 'UB discarded blocks %d, --stats %d' %
          (tot['discarded blocks'], rules.get('UB-DISCARDED', 0)))


def check_ladders(root, events, fab):
    negs = by_id(root, 's-negotiations')
    h4 = [text_of(h) for h in root.iter(XHTML + 'h4')]
    neg_titles = [t for t in h4 if re.match(r'\d+\. .* by [AB]: ', t)]
    requests = [e for e in events if e['event'] == 'negotiation' and e['outcome'] == 'request']
    if not fab['phy']:
        check(not h4, 'ladders on a UB-only page: %s' % h4[:3])
        return
    check(negs is not None or not requests, 'no negotiation section for %d requests' % len(requests))
    check(len(neg_titles) == min(len(requests), 48),
          '%d negotiation ladders for %d requests' % (len(neg_titles), len(requests)))
    # each ladder holds its request's steps: arrows (message) per event of that request
    ladders = [d for d in root.iter(XHTML + 'div') if d.get('class') == 'ladder']
    for i, req in enumerate(requests[:48]):
        steps = [e for e in events if e['event'] == 'negotiation' and e['request_frame'] == req['frame']
                 and e['mtype'] == req['mtype']]
        svg = ladders[i].find(SVG + 'svg')
        texts = [text_of(t) for t in svg.iter(SVG + 'text')]
        for e in steps:
            check(e['text'] in texts, 'ladder %d lacks "%s"' % (i + 1, e['text']))
            check('#%d' % e['frame'] in texts, 'ladder %d lacks frame %d' % (i + 1, e['frame']))
    hs = [t for t in h4 if re.match(r'\d+\. (Link training|Recovery|L1 entry|L0p width)', t)]
    alltext = [text_of(t) for d in ladders for t in d.iter(SVG + 'text')]
    complete = len(hs) < 16 and not any(t.endswith('more steps not drawn') for t in alltext)
    if complete:
        l1 = sum(1 for e in events if e['event'] == 'l1' and e['value'] == 1)
        l0p = sum(1 for e in events if e['event'] == 'l0p')
        check(sum(1 for t in hs if 'L1 entry and exit' in t) == l1, 'L1 ladders for %d L1 entries' % l1)
        check(sum(1 for t in hs if 'L0p width change' in t) == l0p, 'L0p ladders for %d L0p Acks' % l0p)
        # every step of a handshake is in a ladder: power DLLPs, link up/down, L1, L0p,
        # rate changes, and every LTSSM change out of L0 or L0p
        for e in events:
            ev = e['event']
            step = ev in ('pm', 'link', 'l1', 'l0p') or (ev == 'rate' and e['old'] >= 0) or \
                (ev == 'ltssm' and re.search(r' L0p? -> ', e['text']) and not re.search(r'-> L0p?$', e['text']))
            if step:
                check(e['text'] in alltext, 'no ladder has "%s" (frame %d)' % (e['text'], e['frame']))
        recoveries = [t for t in hs if t.split('. ', 1)[1].startswith('Recovery')]
        entered = sum(1 for e in events if e['event'] == 'ltssm' and re.search(r' L0p? -> Recovery', e['text']))
        check(bool(recoveries) == bool(entered), '%d Recovery ladders, %d entries into Recovery from L0' %
              (len(recoveries), entered))
        trainings = [t for t in hs if 'Link training' in t]
        ups = sum(1 for e in events if e['event'] == 'link' and e['value'] == 1)
        check(len(trainings) >= ups, '%d training ladders for %d link-ups' % (len(trainings), ups))


def fabrics(summary):
    """The fabrics of the selection, as the report decides which sections to show."""
    pcie_dllps = sum(summary.get('pcie', {}).get(d, {}).get('dllps', 0) for d in DIRS)
    pcie_flits = sum(summary.get('pcie_flit', {}).get(d, {}).get('flits', 0) for d in DIRS)
    ub = sum(summary['dirs'][d].get('ub', {}).get('flits', 0) for d in DIRS)
    # ordered sets beside PCIe records are PCIe's (a PCIe link's TS1/TS2, SKP, EIOS)
    ualink = (sum(summary['dirs'][d]['flit'] for d in DIRS) > 0 or
              (sum(summary['dirs'][d]['os'] for d in DIRS) > 0 and not (pcie_dllps or pcie_flits)) or
              not (pcie_dllps or pcie_flits or ub))
    phy = ub == 0 or sum(summary['dirs'][d]['flit'] + summary['dirs'][d]['os'] for d in DIRS) > 0
    return {'ualink': ualink, 'phy': phy, 'pcie_dllp': pcie_dllps > 0, 'pcie_flit': pcie_flits > 0, 'ub': ub > 0}


def check_throughput(root, summary):
    """Each fabric's charts, each series summing to the --stats count of the direction; no other charts."""
    svg = by_id(root, 'throughput')
    got = {(p.get('data-series'), p.get('data-dir')): int(p.get('data-total')) for p in svg.iter(SVG + 'polyline')}
    fab = fabrics(summary)
    want = {}
    for d in DIRS:
        s = summary['dirs'][d]
        if fab['ualink']:
            want.update({('tl', d): s['tl_flits'], ('payload', d): s['usage']['payload'],
                         ('msgs', d): sum(s['dl_msgs'].values())})
        if fab['ub']:
            want[('ub_bytes', d)] = sum(v['bytes'] for k, v in s['ub'].items() if re.match(r'vl\d+$', k))
        if fab['pcie_flit']:
            want[('tlps', d)] = summary['pcie_flit'][d]['tlps']
        if fab['pcie_dllp']:
            want[('dllps', d)] = summary['pcie'][d]['dllps']
    check(set(got) == set(want), 'throughput charts %s, want %s' % (sorted(got), sorted(want)))
    for k, n in want.items():
        check(got.get(k) == n, 'throughput %s %s: chart %s, --stats %d' % (k[0], k[1], got.get(k), n))


def check_mix(root, summary):
    """The mix shows every record of a direction once: its parts sum to the --stats records."""
    svg = by_id(root, 'mix')
    got = {d: 0 for d in DIRS}
    for r in svg.iter(SVG + 'rect'):
        if r.get('data-dir') in got:
            got[r.get('data-dir')] += int(r.get('data-count'))
    for d in DIRS:
        n = summary['dirs'][d]['records']
        check(got[d] == n, 'mix %s: %d records in the chart, --stats %d' % (d, got[d], n))


def check_self_contained(html):
    check(not re.search(r'\ssrc\s*=', html), 'the page loads a resource (src=)')
    check('url(' not in html and '@import' not in html, 'the style loads a resource')
    check('<link' not in html and '<script' not in html, 'the page has <link> or <script>')
    for href in re.findall(r'href="([^"]*)"', html):
        check(href.startswith('#'), 'href %s leaves the page' % href)


def png_check(path, want_size):
    """Size from IHDR; the first rows decoded (zlib, PNG filters) for pixel variety."""
    data = open(path, 'rb').read()
    check(data[:8] == b'\x89PNG\r\n\x1a\n', '%s is not a PNG' % path)
    pos, idat, hdr = 8, b'', None
    while pos < len(data):
        n, typ = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b'IHDR':
            hdr = struct.unpack('>IIBBBBB', body)
        elif typ == b'IDAT':
            idat += body
        pos += 12 + n
    w, h, depth, ctype = hdr[:4]
    check((w, h) == want_size, 'screenshot is %dx%d, expected %dx%d' % (w, h, want_size[0], want_size[1]))
    check(depth == 8 and ctype in (2, 6), 'PNG depth %d colour type %d' % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    stride = w * bpp
    want_rows = min(h, 1000)
    raw = zlib.decompressobj().decompress(idat, want_rows * (stride + 1))
    prev = bytearray(stride)
    colours, nonbg = set(), 0
    for y in range(want_rows):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        ft, cur = line[0], bytearray(line[1:])
        if ft == 1:
            for i in range(bpp, stride):
                cur[i] = (cur[i] + cur[i - bpp]) & 255
        elif ft == 2:
            for i in range(stride):
                cur[i] = (cur[i] + prev[i]) & 255
        elif ft == 3:
            for i in range(stride):
                cur[i] = (cur[i] + ((cur[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif ft == 4:
            for i in range(stride):
                a = cur[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 4 == 0:
            for x in range(0, stride, bpp * 3):
                px = bytes(cur[x:x + 3])
                colours.add(px)
                if px != b'\xf6\xf7\xf9' and px != b'\xff\xff\xff':
                    nonbg += 1
        prev = cur
    sampled = (want_rows // 4) * (w // 3)
    check(len(colours) >= 40, 'screenshot has %d colours: blank?' % len(colours))
    check(nonbg > sampled * 0.05, 'screenshot: %d of %d sampled pixels are not background' % (nonbg, sampled))
    return len(colours), nonbg / max(sampled, 1)


def render(chromium, html_path, png_path, outdir, xhtml):
    base = [chromium, '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--enable-logging=stderr',
            '--v=0', '--user-data-dir=' + html_path[:-5] + '.chromium']   # one profile per test: they run in parallel
    url = 'file://' + os.path.abspath(html_path)
    rc, out, err = run(base + ['--window-size=%d,%d' % WINDOW, '--screenshot=' + png_path, url], timeout=120)
    check(rc == 0 and os.path.exists(png_path), 'chromium screenshot failed (%d): %s' % (rc, err.decode()[-500:]))
    console = [l for l in err.decode(errors='replace').splitlines() if ':CONSOLE' in l]
    check(not console, 'console messages: %s' % console)
    if xhtml:
        render_xhtml(base, html_path)
    if os.path.exists(png_path):
        return png_check(png_path, WINDOW)
    return None


def render_xhtml(base, html_path):
    """The same bytes as XHTML: Chromium's XML parser reports any error in
    the DOM. Every page is parsed as XML by ElementTree already; this is the
    browser's parser, on the pages that show every kind of part."""
    xpath = html_path[:-5] + '.xhtml'
    with open(html_path, 'rb') as f, open(xpath, 'wb') as g:
        g.write(f.read())
    rc, out, err = run(base + ['--dump-dom', 'file://' + os.path.abspath(xpath)], timeout=120)
    dom = out.decode(errors='replace')
    check(rc == 0 and 'id="timeline"' in dom, 'chromium --dump-dom of the XHTML copy failed')
    check('parsererror' not in dom, 'Chromium\'s XML parser rejects the page')
    console = [l for l in err.decode(errors='replace').splitlines() if ':CONSOLE' in l]
    check(not console, 'console messages (XHTML): %s' % console)


def report_for(args, capture, name):
    html_path = os.path.join(args.outdir, name + '.html')
    extra = args.args.split() if args.args else []
    inp = extra + [capture]
    rc, out, err = run([args.decoder, '--report', html_path] + inp)
    check(rc == 0, '--report exit %d: %s' % (rc, err.decode()))
    check(out == b'', '--report FILE wrote %d bytes to stdout' % len(out))
    rc, page, err = run([args.decoder, '--report', '-'] + inp)
    check(rc == 0, '--report - exit %d' % rc)
    html = open(html_path, encoding='utf-8').read()
    check(page.decode('utf-8') == html, '--report - differs from --report FILE')
    rc, out, err = run([args.decoder, '-q', '--stats', '--json'] + inp)
    summary = json.loads(out.decode().strip().splitlines()[-1])
    rc, out, err = run([args.decoder, '--timeline', '--json'] + inp)
    events = [json.loads(l) for l in out.decode().splitlines() if l.startswith('{"kind":"timeline"')]
    return html_path, html, summary, events


def check_page(html_path, html, summary, events, selection):
    try:
        root = ET.fromstring(html)
    except ET.ParseError as e:
        check(False, '%s is not well-formed XML: %s' % (html_path, e))
        return
    check(root.tag == XHTML + 'html', 'root element %s' % root.tag)
    fab = fabrics(summary)
    # UALink's DL sections; the PHY's (PCIe shares it), absent from a UB-only page
    want = {'s-negotiations': fab['ualink'], 's-power': fab['phy'], 'residency': fab['phy']}
    for ident in ('timeline', 'throughput', 'mix', 's-findings', 'totals', 's-negotiations', 's-power', 'residency'):
        shown = want.get(ident, True)
        check((by_id(root, ident) is not None) == shown, '#%s %s' % (ident, 'missing' if shown else 'on this page'))
    check_self_contained(html)
    check_totals(root, summary)
    check_findings(root, summary)
    check_throughput(root, summary)
    check_mix(root, summary)
    check_timeline(root, summary, events)
    check_ub_lanes(root, summary, events)
    if not selection:   # ladders show the whole capture, --timeline only the selection
        check_ladders(root, events, fab)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('decoder')
    ap.add_argument('gen')
    ap.add_argument('outdir')
    ap.add_argument('--capture')
    ap.add_argument('--args', help='decoder options before the capture (input type, selection)')
    ap.add_argument('--name', help='name of the page and screenshot')
    ap.add_argument('--scenario')
    ap.add_argument('--long', action='store_true')
    ap.add_argument('--scenario-list')
    ap.add_argument('--chromium')
    ap.add_argument('--xhtml', action='store_true', help='also open the page as XHTML in Chromium')
    ap.add_argument('--maxrss')
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)

    if args.scenario_list:
        rc, out, err = run([args.gen, '--list-scenarios'])
        listed = sorted(l.split()[0] for l in out.decode().splitlines() if l.strip())
        check(listed == sorted(args.scenario_list.split(',')),
              'ualink-gen lists %s, report tests cover %s' % (listed, args.scenario_list))
    elif args.long:
        # a long capture through a pipe: bounded page and memory, totals still equal
        gen = [args.gen, '-q', '-s', 'errors', '--duration', '2ms', '-w', '-']
        html_path = os.path.join(args.outdir, 'long.html')
        rss_path = os.path.join(args.outdir, 'long.rss')
        g = subprocess.Popen(gen, stdout=subprocess.PIPE)
        p = subprocess.run([args.maxrss, rss_path, args.decoder, '--report', html_path, '-'], stdin=g.stdout,
                           stderr=subprocess.PIPE)
        g.stdout.close()
        g.wait()
        check(p.returncode == 0, 'long --report exit %d: %s' % (p.returncode, p.stderr.decode()))
        rss = int(open(rss_path).read())
        check(rss < 32 * 1024, 'peak RSS %d KiB' % rss)
        html = open(html_path, encoding='utf-8').read()
        check(len(html) < 1500000, 'long report is %d bytes' % len(html))
        g = subprocess.Popen(gen, stdout=subprocess.PIPE)
        out = subprocess.run([args.decoder, '-q', '--stats', '--json', '-'], stdin=g.stdout, stdout=subprocess.PIPE).stdout
        g.wait()
        summary = json.loads(out.decode().strip().splitlines()[-1])
        check(summary['records'] > 1000000, 'long capture has %d records' % summary['records'])
        root = ET.fromstring(html)
        check_totals(root, summary)
        check_findings(root, summary)
        check_throughput(root, summary)
        m = re.search(r'One bin is ([\d.]+) (ns|\xb5s)', html)
        check(m is not None, 'no bin width in the legend')
        if m:
            ns = float(m.group(1)) * (1000 if m.group(2) != 'ns' else 1)
            check(ns * 480 >= 2000000 * 0.99, 'bins of %s %s do not cover 2 ms' % m.groups())
        print('long: %d records, page %d bytes, peak RSS %d KiB' % (summary['records'], len(html), rss))
        if args.chromium:
            render(args.chromium, html_path, os.path.join(args.outdir, 'long.png'), args.outdir, args.xhtml)
    else:
        if args.scenario:
            capture = os.path.join(args.outdir, 'gen-%s.pcap' % args.scenario)
            rc, out, err = run([args.gen, '-q', '-s', args.scenario, '--run-scale', '0.1', '--seed', '1',
                                '-w', capture])
            check(rc == 0, 'ualink-gen -s %s: %s' % (args.scenario, err.decode()))
            name = 'gen-' + args.scenario
        else:
            capture = args.capture
            name = args.name or os.path.splitext(os.path.basename(capture))[0]
        html_path, html, summary, events = report_for(args, capture, name)
        check_page(html_path, html, summary, events, bool(re.search(r'--(frames|dir|rule|severity)|-c', args.args or '')))
        shot = None
        if args.chromium:
            shot = render(args.chromium, html_path, os.path.join(args.outdir, name + '.png'), args.outdir, args.xhtml)
        print('%s: %d records, %d events, %d bytes%s' % (name, summary['records'], len(events), len(html),
              ', screenshot %d colours, %.0f%% drawn' % (shot[0], shot[1] * 100) if shot else ''))

    for f in failures[:40]:
        print('FAIL:', f)
    if len(failures) > 40:
        print('... %d more' % (len(failures) - 40))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
