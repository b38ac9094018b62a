#!/usr/bin/env python3
"""ualink-decode interrupted (SIGINT, SIGTERM) while it reads a pipe that a
slow writer keeps open: reading stops, the run ends as when -c stops it
(no end-of-capture findings), the totals are printed, --report and -w are
written in full, and the exit status is 128 + the signal's number.

The same records decoded from a file that ends after them give
end-of-capture findings (the capture stops inside TL flits): that is what
the interrupted runs must not say.

  interrupt_check.py DECODER CAPTURE WORKDIR"""
import fcntl
import json
import os
import re
import signal
import struct
import subprocess
import sys
import termios
import time
import xml.etree.ElementTree as ET

from save_check import check, failures, pcap_records

RECORDS = 300   # records fed before the signal


def pcap_prefix(data, n):
    """The file header and the first n records of a little-endian pcap, and
    the records as (ts_ns, bytes)."""
    off, recs = 24, []
    nsec = struct.unpack_from("<I", data, 0)[0] == 0xA1B23C4D
    while len(recs) < n:
        sec, frac, caplen, _ = struct.unpack_from("<IIII", data, off)
        recs.append((sec * 1000000000 + frac * (1 if nsec else 1000), data[off + 16:off + 16 + caplen]))
        off += 16 + caplen
    return data[:off], recs


def drained(p, w):
    """The pipe is empty and the decoder sleeps (in its read)."""
    buf = fcntl.ioctl(w, termios.FIONREAD, b"\0\0\0\0")
    if struct.unpack("i", buf)[0]:
        return False
    with open("/proc/%d/stat" % p.pid) as f:
        return f.read().rsplit(")", 1)[1].split()[0] == "S"


def interrupted(dec, args, feed, sig):
    """Feeds the bytes slowly, waits until the decoder has read them all,
    signals it and waits for it with the pipe still open."""
    r, w = os.pipe()
    p = subprocess.Popen([dec] + args + ["-"], stdin=r, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(r)
    try:
        step = (len(feed) + 9) // 10
        for i in range(0, len(feed), step):
            os.write(w, feed[i:i + step])
            time.sleep(0.02)
        deadline = time.time() + 30
        settled = 0
        while time.time() < deadline and settled < 5:  # asleep several polls in a row
            settled = settled + 1 if drained(p, w) else 0
            time.sleep(0.05)
        p.send_signal(sig)
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return None, b"", "did not stop"
    finally:
        os.close(w)
    return p.returncode, out, err.decode()


def totals(text):
    m = re.search(r"^Records\s+(\d+)\s+(\d+)\s+(\d+)$", text, re.M)
    return int(m.group(3)) if m else None


def main():
    dec, capture, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    with open(capture, "rb") as f:
        feed, recs = pcap_prefix(f.read(), RECORDS)
    ref_pcap = os.path.join(work, "prefix.pcap")
    with open(ref_pcap, "wb") as f:
        f.write(feed)
    ref_html = os.path.join(work, "prefix.html")
    ref = subprocess.run([dec, "--stats", "--report", ref_html, ref_pcap], stdout=subprocess.PIPE).stdout.decode()
    end_lines = [l for l in ref.splitlines() if l.startswith("end of capture:")]
    check("the file that ends there has end-of-capture findings", end_lines and totals(ref) == RECORDS, ref[-400:])
    with open(ref_html) as f:
        check("and its report names them", "DL-TRUNCATED-TL" in f.read())

    # totals, report and pcap
    html = os.path.join(work, "int.html")
    saved = os.path.join(work, "int.pcap")
    for path in (html, saved):
        if os.path.exists(path):
            os.unlink(path)
    rc, out, err = interrupted(dec, ["--stats", "--report", html, "-w", saved], feed, signal.SIGINT)
    out = out.decode()
    check("SIGINT: exit 130", rc == 130, "exit %s: %s" % (rc, err))
    check("SIGINT: totals of the records read", totals(out) == RECORDS, out[:300])
    check("SIGINT: no end-of-capture findings", "end of capture" not in out)
    check("SIGINT: stderr says so", "interrupted (SIGINT) after %d records" % RECORDS in err, err)
    page = open(html).read() if os.path.exists(html) else ""
    try:
        ET.fromstring(page)
        parsed = True
    except ET.ParseError:
        parsed = False
    check("SIGINT: report complete", len(page) > 1000 and page.rstrip().endswith("</html>") and parsed,
          "%d bytes" % len(page))
    check("SIGINT: report has no end-of-capture findings", "DL-TRUNCATED-TL" not in page)
    try:
        data = open(saved, "rb").read()
        dlt, got = pcap_records(data)
        whole = len(data) == 24 + sum(16 + len(r) for _, r in got)
    except (OSError, ValueError, struct.error) as e:
        data, dlt, got, whole = b"", None, [], str(e)
    check("SIGINT: -w holds the records read", dlt == 147 and whole is True and got == recs,
          "dlt %s, %d records, %s" % (dlt, len(got), whole))

    # records printed as they come, then the totals
    rc, out, err = interrupted(dec, ["-l", "--stats"], feed, signal.SIGTERM)
    out = out.decode()
    frames = [int(l.split()[0]) for l in out.splitlines() if re.match(r"^\s+\d+\s+\d", l)]
    check("SIGTERM: exit 143", rc == 143, "exit %s: %s" % (rc, err))
    check("SIGTERM: every record printed", frames == list(range(1, RECORDS + 1)), "%d lines" % len(frames))
    check("SIGTERM: totals", totals(out) == RECORDS)
    check("SIGTERM: no end-of-capture findings", "end of capture" not in out)

    # JSON, read in batches by two threads: the file's records, without its end
    ref = subprocess.run([dec, "--json", ref_pcap], stdout=subprocess.PIPE).stdout.decode().splitlines()
    ref_recs = [l for l in ref if json.loads(l)["kind"] != "end"]
    check("JSON reference has end objects", len(ref_recs) == RECORDS and len(ref) > RECORDS)
    rc, out, err = interrupted(dec, ["-j", "2", "--json", "--stats"], feed, signal.SIGINT)
    lines = out.decode().splitlines()
    check("-j 2 SIGINT: exit 130", rc == 130, "exit %s: %s" % (rc, err))
    check("-j 2 SIGINT: the records, then the summary", lines[:-1] == ref_recs, "%d lines" % len(lines))
    summary = json.loads(lines[-1]) if lines else {}
    check("-j 2 SIGINT: summary totals", summary.get("kind") == "summary" and summary.get("records") == RECORDS,
          lines[-1][:200] if lines else "")

    if failures:
        print("%d failed: %s" % (len(failures), ", ".join(failures)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
