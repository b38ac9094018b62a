#!/usr/bin/env python3
"""Streams hostile records from the garbage generator (garbage.c) into
ualink-decode -q --stats --json and checks that the decoder ends with status
0, accounts for every record the generator wrote, keeps stderr to its
bounded report, and stays under a maximum resident set size.

usage: run_garbage.py GARBAGE MAXRSS DECODER MODE [--bytes N] [--max-rss-mb M]
                      [--file DIR] [DECODER OPTION...]

MAXRSS is maxrss.c, which measures the decoder's peak RSS. MODE is garbage's:
framed, headers or raw. --bytes defaults to 1 GB, the size the tests run at
(framed: 7-8 s on two loaded cores, peak RSS about 3 MiB). --file DIR writes
the stream to a file in DIR first, so that the decoder reads a regular file
(read-ahead thread) instead of a pipe.
"""
import json
import re
import subprocess
import sys
import tempfile

PROG = 'ualink-decode'
MAX_REPORTS = 100   # main.c: lines about the input before it goes quiet


def parse(argv):
    o = {'bytes': 10 ** 9, 'rss': 64, 'file': None, 'extra': []}
    if len(argv) < 4:
        sys.exit(__doc__)
    o['garbage'], o['maxrss'], o['decoder'], o['mode'] = argv[:4]
    it = iter(argv[4:])
    for a in it:
        if a == '--bytes':
            o['bytes'] = int(next(it))
        elif a == '--max-rss-mb':
            o['rss'] = int(next(it))
        elif a == '--file':
            o['file'] = next(it)
        else:
            o['extra'].append(a)
    return o


def decode(o, stdin, name):
    """Runs the decoder to the end; returns (status, stdout, stderr, max RSS in KiB)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(mode='r') as rss:
        argv = [o['maxrss'], rss.name, o['decoder'], '-q', '--stats', '--json'] + o['extra'] + [name]
        p = subprocess.Popen(argv, stdin=stdin, stdout=out, stderr=err)
        if stdin is not subprocess.DEVNULL:
            stdin.close()   # the generator must see the decoder go away
        rc = p.wait()
        out.seek(0)
        err.seek(0)
        return rc, out.read().decode(), err.read().decode(errors='replace'), int(rss.read() or -1)


def counts(text):
    m = re.fullmatch(r'records (\d+) malformed (\d+) bytes (\d+)\n', text)
    if not m:
        sys.exit(f"garbage said {text!r}")
    return int(m.group(1)), int(m.group(2))


def check_stderr(err, name, mode, malformed):
    prefix = f"{PROG}: {name}: "
    lines = err.splitlines()
    problems = [f"stderr line not naming the input: {x!r}" for x in lines if not x.startswith(prefix)][:1]
    if mode == 'raw':
        framing = re.escape(prefix) + r'frame 1: bad pcap record header, decoding stops here: ' \
            r'the pcap framing is lost \(invalid packet capture length \d+, bigger than snaplen of 65535\)'
        if len(lines) != 1 or not re.fullmatch(framing, lines[0]):
            problems.append("want one line: frame 1 lost the pcap framing")
        return problems
    if len(lines) > MAX_REPORTS + 2:
        problems.append(f"{len(lines)} stderr lines: the report is not bounded")
    if malformed > MAX_REPORTS and (not lines or lines[-1] != f"{prefix}{malformed} problems in all"):
        problems.append(f"last stderr line is not '{malformed} problems in all'")
    return problems


def main():
    o = parse(sys.argv[1:])
    gen_argv = [o['garbage'], o['mode'], str(o['bytes'])]
    with tempfile.TemporaryFile() as gerr:
        if o['file']:
            with tempfile.NamedTemporaryFile(dir=o['file'], suffix='.pcap') as f:
                if subprocess.call(gen_argv, stdout=f, stderr=gerr) != 0:
                    sys.exit("garbage failed")
                rc, out, err, rss = decode(o, subprocess.DEVNULL, f.name)
                name = f.name
        else:
            gen = subprocess.Popen(gen_argv, stdout=subprocess.PIPE, stderr=gerr)
            name = '-'
            rc, out, err, rss = decode(o, gen.stdout, name)
            gen.wait()   # raw: killed by SIGPIPE once the decoder has stopped reading
        gerr.seek(0)
        said = gerr.read().decode()
    problems = []
    if rc != 0:
        problems.append(f"exit {rc}, want 0")
    summary = json.loads(out.splitlines()[-1]) if out else {}
    if o['mode'] == 'raw':
        records, malformed = 0, 0
    else:
        records, malformed = counts(said)
    if summary.get('records') != records or summary.get('by_kind', {}).get('malformed') != malformed:
        problems.append(f"decoded {summary.get('records')} records, {summary.get('by_kind', {}).get('malformed')} "
                        f"malformed; garbage wrote {records}, {malformed} malformed")
    problems += check_stderr(err, name, o['mode'], malformed)
    if rss > o['rss'] * 1024:
        problems.append(f"max RSS {rss} KiB, limit {o['rss']} MiB")
    print(f"{o['mode']} {o['bytes']} bytes {' '.join(o['extra'])}: {records} records, {malformed} malformed, "
          f"max RSS {rss} KiB")
    if problems:
        print("FAIL\n     " + "\n     ".join(problems) + "\n     --- stderr (last 2000 chars) ---\n" + err[-2000:])
        sys.exit(1)
    print("ok")


if __name__ == '__main__':
    main()
