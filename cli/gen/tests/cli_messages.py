#!/usr/bin/env python3
"""ualink-gen's command line as a person meets it: -w - onto a terminal is
refused (like tcpdump), every bad option is named with its value on a line of
its own, extra operands are an error.

  cli_messages.py GEN"""
import os
import pty
import re
import subprocess
import sys

failures = []


def run(gen, args, tty_out=False):
    """Runs gen; returns (exit status, stdout bytes, stderr text)."""
    if tty_out:
        master, slave = pty.openpty()
        p = subprocess.run([gen] + args, stdout=slave, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=60)
        os.close(slave)
        out = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        os.close(master)
        return p.returncode, out, p.stderr.decode()
    p = subprocess.run([gen] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                       timeout=60)
    return p.returncode, p.stdout, p.stderr.decode()


def expect(name, got, want_rc, err_re, out_empty=True):
    rc, out, err = got
    problems = []
    if rc != want_rc:
        problems.append("exit %d, want %d" % (rc, want_rc))
    if not re.search(err_re, err, re.S):
        problems.append("stderr does not match /%s/" % err_re)
    if out_empty and out:
        problems.append("%d bytes on stdout" % len(out))
    if problems:
        failures.append(name)
        print("FAIL %s: %s\n  stderr: %r" % (name, "; ".join(problems), err))
    else:
        print("ok   %s" % name)


def main():
    gen = sys.argv[1]
    expect("stdout-tty", run(gen, ["-q", "-c", "10", "-w", "-"], tty_out=True), 2,
           r"^ualink-gen: -w -: standard output is a terminal, not writing a binary pcap to it "
           r"\(redirect it or give -w FILE\)\n$")
    expect("no-output-tty", run(gen, ["-q", "-c", "10"], tty_out=True), 2, r"^ualink-gen: no output: ")
    rc, out, err = run(gen, ["-q", "-c", "10", "-w", "-"])
    if rc != 0 or not out.startswith(b"\x4d\x3c\xb2\xa1"):
        failures.append("stdout-pipe")
        print("FAIL stdout-pipe: exit %d, %d bytes, stderr %r" % (rc, len(out), err))
    else:
        print("ok   stdout-pipe")
    expect("extra-operand", run(gen, ["-q", "-w", "/dev/null", "extra.pcap"]), 2,
           r"^ualink-gen: extra operand 'extra\.pcap'")
    expect("each-bad-option", run(gen, ["--count", "x", "--width", "3", "--load", "2", "--rate", "7",
                                        "--bogus", "-Z", "-w", "/dev/null"]), 2,
           r"^ualink-gen: --count: 'x' is not a number\n"
           r"ualink-gen: --width: '3' is not 1, 2, 4 or 8\n"
           r"ualink-gen: --load: '2' is not in 0\.\.1\n"
           r"ualink-gen: --rate: '7' is not 2\.5, 5\.0, 8\.0, 16\.0, 32, 64, 104, 112, 120 or 128\n"
           r"ualink-gen: unknown option '--bogus'\n"
           r"ualink-gen: unknown option '-Z'\n"
           r"Try 'ualink-gen --help' for more information\.\n$")
    expect("missing-value", run(gen, ["-w"]), 2,
           r"^ualink-gen: option '-w' needs a value\nTry 'ualink-gen --help'")
    expect("unwritable-pcap", run(gen, ["-q", "-c", "10", "-w", "/nonexistent/x.pcap"]), 2,
           r"^ualink-gen: /nonexistent/x\.pcap: No such file or directory\n$")
    expect("unwritable-truth", run(gen, ["-q", "-c", "10", "-w", "/dev/null", "--truth", "/nonexistent/t.jsonl"]), 2,
           r"^ualink-gen: /nonexistent/t\.jsonl: No such file or directory\n$")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
