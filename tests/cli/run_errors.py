#!/usr/bin/env python3
"""Runs the error-path cases of error_cases.txt against ualink-decode and
checks exit code, stderr and stdout.

usage: run_errors.py BIN CASES SRCDIR GENDIR [--only NAME]
"""
import os
import re
import shlex
import subprocess
import sys


def cases(path, ncols):
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            cols = [c.strip() for c in (line.rstrip() + ' ').split(' | ')]
            if len(cols) != ncols:
                sys.exit(f"{path}:{n}: need {ncols} columns separated by ' | ', got {len(cols)}")
            yield cols


def subst_re(s, srcdir, gendir):
    return s.replace('{gen}', re.escape(gendir)).replace('{src}', re.escape(srcdir))


def split_args(args, srcdir, gendir):
    """ARGS column -> (argv, stdin path or None)."""
    argv, stdin = [], None
    for a in shlex.split(args.replace('{gen}', gendir).replace('{src}', srcdir)):
        if a.startswith('<'):
            stdin = a[1:]
        else:
            argv.append(a)
    return argv, stdin


def invoke(binary, argv, stdin):
    """Runs the decoder; returns (exit code, stdout, stderr) as text."""
    env = dict(os.environ, LC_ALL='C')
    env.pop('NO_COLOR', None)
    fin = open(stdin, 'rb') if stdin else subprocess.DEVNULL
    p = subprocess.run([binary] + argv, stdin=fin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    if stdin:
        fin.close()
    return p.returncode, p.stdout.decode(errors='replace'), p.stderr.decode(errors='replace')


def run(binary, case, srcdir, gendir):
    name, code, err_re, out_re, args = case
    argv, stdin = split_args(args, srcdir, gendir)
    rc, out, err = invoke(binary, argv, stdin)
    problems = []
    if rc != int(code):
        problems.append(f"exit {rc}, want {code}")
    if err_re != '-':
        if err_re == '':
            if err:
                problems.append("stderr not empty")
        elif not re.search(subst_re(err_re, srcdir, gendir), err, re.S):
            problems.append(f"stderr does not match /{err_re}/")
    if out_re != '-' and not re.search(subst_re(out_re, srcdir, gendir), out, re.S):
        problems.append(f"stdout does not match /{out_re}/")
    if problems:
        print(f"FAIL {name}: {' '.join(shlex.quote(a) for a in argv)}")
        for x in problems:
            print(f"     {x}")
        print("     --- stderr ---\n" + err + "     --- stdout (first 2000 chars) ---\n" + out[:2000])
        return False
    print(f"ok   {name}")
    return True


def main(run_case=run, ncols=5, doc=__doc__):
    """Shared with run_hostile.py: one case per line, --only NAME."""
    argv = sys.argv[1:]
    only = None
    if '--only' in argv:
        i = argv.index('--only')
        only = argv[i + 1]
        del argv[i:i + 2]
    if len(argv) != 4:
        sys.exit(doc)
    binary, path, srcdir, gendir = argv
    ok, ran = True, 0
    for c in cases(path, ncols):
        if only and c[0] != only:
            continue
        ran += 1
        ok &= run_case(binary, c, srcdir, gendir)
    if not ran:
        sys.exit(f"no case named {only}")
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
