#!/usr/bin/env python3
"""Checks the include graph of libdecode.

  check_includes.py LIBDECODE_DIR        the tree: exit 1 on any problem
  check_includes.py --self-test          the checks find what they must

Rules:
  1. No include cycle among libdecode's headers (public and private).
  2. A public header (under <module>/include/ or include/) includes only
     public headers: installed headers must not need the source tree.
  3. No cycle between modules through their private headers (a private
     header is a .h directly in libdecode/<module>/).
  4. Every include of a libdecode header resolves to exactly one file.
Includes are resolved like the build does: a quoted name first next to
the including file, then in libdecode/include, libdecode/<module>/include
and libdecode/ (where "core/kind.h" names core's private kind.h).
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def modules(root):
    return sorted(d for d in os.listdir(root)
                  if os.path.isdir(os.path.join(root, d, 'include')))


def files(root):
    out = []
    for dirpath, _, names in os.walk(root):
        out += [os.path.join(dirpath, n) for n in names if n.endswith(('.h', '.c'))]
    return sorted(out)


def module_of(root, path):
    rel = os.path.relpath(path, root).split(os.sep)
    return rel[0] if len(rel) > 1 and os.path.isdir(os.path.join(root, rel[0], 'include')) else None


def is_public(root, path):
    rel = os.path.relpath(path, root).split(os.sep)
    return rel[0] == 'include' or (len(rel) > 2 and rel[1] == 'include')


def is_private_header(root, path):
    rel = os.path.relpath(path, root).split(os.sep)
    return path.endswith('.h') and len(rel) == 2 and module_of(root, path) is not None


def check(root):
    root = os.path.abspath(root)
    search = [os.path.join(root, 'include')] + \
             [os.path.join(root, m, 'include') for m in modules(root)] + [root]
    problems = []
    edges = {}
    for f in files(root):
        text = open(f, encoding='utf-8', errors='replace').read()
        for quote, name in INCLUDE.findall(text):
            cands = []
            if quote == '"':
                near = os.path.normpath(os.path.join(os.path.dirname(f), name))
                if os.path.isfile(near):
                    cands = [near]
            if not cands:
                cands = [os.path.normpath(os.path.join(d, name)) for d in search
                         if os.path.isfile(os.path.join(d, name))]
            cands = sorted(set(cands))
            if not cands:
                continue  # system or out-of-tree header
            if len(cands) > 1:
                problems.append('%s: "%s" is ambiguous: %s' % (
                    os.path.relpath(f, root), name, ', '.join(os.path.relpath(c, root) for c in cands)))
            target = cands[0]
            edges.setdefault(f, []).append(target)
            if is_public(root, f) and not is_public(root, target):
                problems.append('%s: public header includes private %s' % (
                    os.path.relpath(f, root), os.path.relpath(target, root)))

    # 1. header cycles
    headers = [f for f in edges if f.endswith('.h')]
    state = {}

    def dfs(n, stack):
        state[n] = 1
        stack.append(n)
        for m in edges.get(n, []):
            if not m.endswith('.h'):
                continue
            if state.get(m) == 1:
                cyc = stack[stack.index(m):] + [m]
                problems.append('include cycle: ' + ' -> '.join(os.path.relpath(c, root) for c in cyc))
            elif m not in state:
                dfs(m, stack)
        stack.pop()
        state[n] = 2

    for h in headers:
        if h not in state:
            dfs(h, [])

    # 3. module cycles through private headers
    medges = {}
    for f, ts in edges.items():
        a = module_of(root, f)
        for t in ts:
            b = module_of(root, t)
            if a and b and a != b and is_private_header(root, t):
                medges.setdefault(a, set()).add(b)
    mstate = {}

    def mdfs(n, stack):
        mstate[n] = 1
        stack.append(n)
        for m in sorted(medges.get(n, ())):
            if mstate.get(m) == 1:
                problems.append('modules include each other\'s private headers: ' +
                                ' -> '.join(stack[stack.index(m):] + [m]))
            elif m not in mstate:
                mdfs(m, stack)
        stack.pop()
        mstate[n] = 2

    for m in sorted(medges):
        if m not in mstate:
            mdfs(m, [])
    return problems, len(files(root)), sum(len(v) for v in edges.values())


def self_test():
    """A small tree with one of each problem, and the same tree fixed."""
    def tree(d, fixed):
        def w(path, text):
            p = os.path.join(d, path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            open(p, 'w').write(text)
        w('core/include/ualink/core/a.h', '#include "ualink/core/b.h"\n')
        w('core/include/ualink/core/b.h', '' if fixed else '#include "ualink/core/a.h"\n')
        w('core/priv.h', '' if fixed else '#include "fab/fpriv.h"\n')
        w('core/x.c', '#include "priv.h"\n#include "ualink/core/a.h"\n')
        w('fab/include/ualink/fab/p.h', '#include "ualink/core/a.h"\n' if fixed else '#include "fab/fpriv.h"\n')
        w('fab/fpriv.h', '#include "core/priv.h"\n')
        w('fab/y.c', '#include "fpriv.h"\n#include <ualink/fab/p.h>\n')
    ok = True
    for fixed in (False, True):
        with tempfile.TemporaryDirectory() as d:
            tree(d, fixed)
            problems, _, _ = check(d)
            text = '\n'.join(problems)
            if fixed:
                if problems:
                    print('self-test: clean tree reported:\n' + text)
                    ok = False
            else:
                for want in ('include cycle: core/include/ualink/core/a.h',
                             'public header includes private fab/fpriv.h',
                             "modules include each other's private headers: core -> fab -> core"):
                    if want not in text:
                        print('self-test: missed "%s" in:\n%s' % (want, text))
                        ok = False
    print('self-test', 'passed' if ok else 'FAILED')
    return 0 if ok else 1


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    problems, nfiles, nedges = check(sys.argv[1])
    for p in problems:
        print(p)
    print('%d files, %d includes of libdecode headers, %d problems' % (nfiles, nedges, len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
