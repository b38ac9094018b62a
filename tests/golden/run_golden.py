#!/usr/bin/env python3
"""Golden tests of ualink-decode in tcpdump's style.

Each line of the list file: NAME CAPTURE EXPECTED [ARGS...]
  CAPTURE  gen:FILE   a file written by tests/cli/mkcap into GENDIR
           PATH       relative to the source tree (captures/...)
  ARGS     passed before the capture; '{}' marks where the capture goes
           (e.g. --raw {}); without it the capture is the last argument.
The binary's stdout must equal tests/golden/EXPECTED byte for byte and it
must exit 0. --update rewrites the expected files (review them afterwards).

usage: run_golden.py BIN LIST SRCDIR GENDIR [--only NAME] [--update]
"""
import difflib
import os
import shlex
import subprocess
import sys


def entries(path):
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            parts = shlex.split(line)
            if len(parts) < 3:
                sys.exit(f"{path}:{n}: need NAME CAPTURE EXPECTED [ARGS...]")
            yield parts[0], parts[1], parts[2], parts[3:]


def resolve(capture, srcdir, gendir):
    """(working directory, capture path relative to it): outputs that name
    the input then do not depend on where the build tree is."""
    if capture.startswith('gen:'):
        return gendir, capture[4:]
    return srcdir, capture


def command(binary, capture, args):
    if '{}' in args:
        return [binary] + [capture if a == '{}' else a for a in args]
    return [binary] + args + [capture]


def run_one(binary, name, capture, expected, args, srcdir, gendir, update):
    exp_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), expected)
    cwd, cap = resolve(capture, srcdir, gendir)
    cmd = command(os.path.abspath(binary), cap, args)
    env = dict(os.environ, LC_ALL='C', TZ='UTC')
    env.pop('NO_COLOR', None)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd)
    shown = ' '.join(shlex.quote(c) for c in [os.path.basename(binary)] + cmd[1:])
    if p.returncode != 0:
        print(f"FAIL {name}: exit {p.returncode}: {shown}\n{p.stderr.decode(errors='replace')}")
        return False
    if update:
        with open(exp_path, 'wb') as f:
            f.write(p.stdout)
        print(f"UPDATED {name}: {expected}")
        return True
    try:
        with open(exp_path, 'rb') as f:
            want = f.read()
    except FileNotFoundError:
        print(f"FAIL {name}: {expected} missing (run with --update and review it)")
        return False
    if p.stdout == want:
        print(f"ok   {name}")
        return True
    diff = difflib.unified_diff(want.decode(errors='replace').splitlines(True),
                                p.stdout.decode(errors='replace').splitlines(True),
                                expected, 'actual')
    print(f"FAIL {name}: {shown}")
    sys.stdout.writelines(list(diff)[:200])
    return False


def main():
    argv = sys.argv[1:]
    update = '--update' in argv
    argv = [a for a in argv if a != '--update']
    only = None
    if '--only' in argv:
        i = argv.index('--only')
        only = argv[i + 1]
        del argv[i:i + 2]
    if len(argv) != 4:
        sys.exit(__doc__)
    binary, listfile, srcdir, gendir = argv
    ok = True
    ran = 0
    for name, capture, expected, args in entries(listfile):
        if only and name != only:
            continue
        ran += 1
        ok &= run_one(binary, name, capture, expected, args, srcdir, gendir, update)
    if only and not ran:
        sys.exit(f"no test named {only}")
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
