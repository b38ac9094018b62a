#!/usr/bin/env python3
"""ualink-decode reads a regular pcap file in blocks (-j: on worker threads),
the same file left to libpcap (UALINK_LIBPCAP=1) ahead on a second thread,
and a pipe in its own thread. Over a capture of many blocks and read-ahead
chunks, all three must give the same output, messages and exit status: whole
runs, an early stop (-c), a frame range near the end, and a file cut inside
its last record.

usage: readahead.py DECODER SAMPLE.pcap WORKDIR
"""
import os
import struct
import subprocess
import sys

decoder, sample, work = sys.argv[1:4]
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def records(path):
    data = open(path, 'rb').read()
    hdr, pos, out = data[:24], 24, []
    while pos + 16 <= len(data):
        caplen = struct.unpack_from('<I', data, pos + 8)[0]
        out.append(data[pos:pos + 16 + caplen])
        pos += 16 + caplen
    return hdr, out


hdr, recs = records(sample)
body = b''.join(recs)
reps = (6 << 20) // len(body) + 1   # several 512 KiB chunks and more than the ring of four
os.makedirs(work, exist_ok=True)
big = os.path.join(work, 'readahead.pcap')
cut = os.path.join(work, 'readahead-cut.pcap')
with open(big, 'wb') as f:
    f.write(hdr + body * reps)
with open(cut, 'wb') as f:
    flit = next(r for r in recs if len(r) == 16 + 264)
    f.write(hdr + body * reps + flit[:16 + 100])
n_records = len(recs) * reps


def frames(out):
    """frame numbers of the record lines (not the end-of-capture findings)"""
    return [int(l.split()[0]) for l in out.decode().splitlines() if l[:1] == ' ' and l.split()[0].isdigit()]


def run(args, path, stdin, libpcap=False):
    env = dict(os.environ, LC_ALL='C')
    if libpcap:
        env['UALINK_LIBPCAP'] = '1'
        args = args + ['-j', '1']
    if stdin:
        with open(path, 'rb') as fin:
            p = subprocess.run([decoder] + args + ['-'], stdin=fin, capture_output=True, env=env)
    else:
        p = subprocess.run([decoder] + args + [path], capture_output=True, env=env)
    # messages name the input: make the two names alike
    return p.returncode, p.stdout.replace(path.encode(), b'-'), p.stderr.replace(path.encode(), b'-')


for args, path in [(['--json'], big), (['-q', '--stats'], big), (['-c', '7'], big),
                   (['--frames', '%d-%d' % (n_records - 3, n_records + 5)], big),
                   (['--json', '--strict'], cut), ([], cut)]:
    a, b = run(args, path, False), run(args, path, True)
    name = ' '.join(args) + ' ' + os.path.basename(path)
    check(a == b, name + ': file and pipe differ (exit %d/%d, stdout %d/%d bytes, stderr %r / %r)'
          % (a[0], b[0], len(a[1]), len(b[1]), a[2][:200], b[2][:200]))
    c = run(args, path, False, libpcap=True)
    check(c == b, name + ': file read ahead by libpcap and pipe differ (exit %d/%d, stdout %d/%d bytes)'
          % (c[0], b[0], len(c[1]), len(b[1])))
    if args == ['--json']:
        check(a[1].count(b'\n') == n_records, 'json lines %d, records %d' % (a[1].count(b'\n'), n_records))
    if args == ['-c', '7']:
        check(frames(a[1]) == list(range(1, 8)), '-c 7 printed frames %s' % frames(a[1]))
    if path == cut:
        want = b'frame %d: truncated record' % (n_records + 1)
        check(want in a[2], 'cut file: stderr %r lacks %r' % (a[2][:300], want))
    if args[:1] == ['--frames']:
        check(frames(a[1]) == list(range(n_records - 3, n_records + 1)),
              '--frames at the end printed frames %s' % frames(a[1]))

print("readahead: %d records in %d bytes, 6 x 3 runs compared, %d failed" % (n_records, os.path.getsize(big), failures))
sys.exit(1 if failures else 0)
