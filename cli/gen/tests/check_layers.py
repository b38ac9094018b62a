#!/usr/bin/env python3
"""Checks that the generator's files only call downward.

  check_layers.py LAYERS [--src DIR] FILE...   FILE: object files or static archives (read with nm)
  check_layers.py LAYERS --nm-text F           the output of `nm -A` on the objects, as text
  check_layers.py --self-test                  the checks on made-up objects

LAYERS lists the layers bottom to top, one a line: "name: file.c file.c ...".
A file may use a symbol defined in a lower layer; files of one layer do not
use each other. Every object must be declared, and every declared file must
be there. With --src, the #include "x.h" lines of DIR's sources and headers
are checked the same way (x.h belongs to the layer of x.c, or to its own
line in LAYERS). Fails (exit 1) naming each upward use and each cycle of files."""
import os
import re
import subprocess
import sys


def read_layers(path):
    with open(path) as f:
        return parse_layers(f.read().splitlines(), path)


def parse_layers(lines, path='LAYERS'):
    rank, names = {}, []
    if True:
        for line in lines:
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            name, _, files = line.partition(':')
            for fn in files.split():
                if fn in rank:
                    raise SystemExit(f"{path}: {fn} is declared twice")
                rank[fn] = len(names)
            names.append(name.strip())
    return rank, names


def source_of(obj):
    """dl.c.o -> dl.c (CMake object names), dl.o -> dl.c"""
    base = os.path.basename(obj)
    if base.endswith('.c.o'):
        return base[:-2]
    if base.endswith('.o'):
        return base[:-2] + '.c'
    return base


def parse_nm(text):
    """nm -A lines: 'archive:member: [addr] TYPE name' or 'obj: [addr] TYPE name'."""
    defs, uses = {}, {}
    for line in text.splitlines():
        m = re.match(r'^(.*?):\s*(?:[0-9a-fA-F]+\s+)?([A-Za-z?])\s+(\S+)$', line)
        if not m:
            continue
        where, typ, sym = m.groups()
        src = source_of(where.split(':')[-1])
        uses.setdefault(src, set())
        defs_of_src = defs.setdefault(src, set())
        if typ == 'U':
            uses[src].add(sym)
        elif typ in 'TDBRCGSV' or typ in 'W':
            defs_of_src.add(sym)
    return defs, uses


def check(rank, names, defs, uses):
    errors = []
    for src in sorted(defs):
        if src not in rank:
            errors.append(f"{src}: not declared in a layer")
    for src in sorted(rank):
        if src.endswith('.c') and src not in defs:
            errors.append(f"{src}: declared but no object given")
    owner = {}
    for src, syms in defs.items():
        for s in syms:
            owner[s] = src
    edges = {}
    for src, syms in sorted(uses.items()):
        for s in sorted(syms):
            dst = owner.get(s)
            if dst is None or dst == src:
                continue
            edges.setdefault(src, {}).setdefault(dst, []).append(s)
    for src, dsts in sorted(edges.items()):
        for dst, syms in sorted(dsts.items()):
            if src not in rank or dst not in rank:
                continue
            if rank[dst] > rank[src]:
                errors.append(f"{src} ({names[rank[src]]}) calls up into {dst} ({names[rank[dst]]}): "
                              + ", ".join(syms))
            elif rank[dst] == rank[src]:
                errors.append(f"{src} and {dst} share layer {names[rank[src]]} but {src} uses "
                              + ", ".join(syms))
    # cycles of any length among files
    state, stack, seen_cycles = {}, [], set()

    def visit(n):
        state[n] = 1
        stack.append(n)
        for d in sorted(edges.get(n, {})):
            if state.get(d) == 1:
                cyc = stack[stack.index(d):]
                key = frozenset(cyc)
                if key not in seen_cycles:
                    seen_cycles.add(key)
                    errors.append("cycle: " + " -> ".join(cyc + [d]))
            elif d not in state:
                visit(d)
        stack.pop()
        state[n] = 2

    for n in sorted(edges):
        if n not in state:
            visit(n)
    return errors


def check_includes(rank, names, src_dir):
    """#include "x.h" of a file in DIR whose layer is below x.h's layer."""
    errors = []

    def layer_of(fn):
        if fn in rank:
            return rank[fn]
        if fn.endswith('.h') and fn[:-2] + '.c' in rank:
            return rank[fn[:-2] + '.c']
        return None

    for fn in sorted(os.listdir(src_dir)):
        if not fn.endswith(('.c', '.h')):
            continue
        me = layer_of(fn)
        if me is None:
            if fn.endswith('.c'):
                errors.append(f"{fn}: not declared in a layer")
            continue
        with open(os.path.join(src_dir, fn)) as f:
            for no, line in enumerate(f, 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m:
                    continue
                inc = os.path.basename(m.group(1))
                other = layer_of(inc)
                if other is not None and other > me:
                    errors.append(f"{fn}:{no} ({names[me]}) includes {inc} of layer {names[other]}")
    return errors


def self_test():
    """The checks find an upward call, a same-layer use, a cycle, an undeclared
    file and an upward include, and pass a clean tree."""
    import tempfile
    rank, names = parse_layers(["low: a.c", "mid: b.c c.c", "top: d.c"])
    clean = ("x/a.c.o: 0000 T a_f\nx/b.c.o: 0000 T b_f\nx/b.c.o: U a_f\nx/c.c.o: 0000 T c_f\n"
             "x/c.c.o: U a_f\nx/d.c.o: 0000 T d_f\nx/d.c.o: U b_f\nx/d.c.o: U c_f\nx/d.c.o: U printf\n")
    bad = clean + "x/a.c.o: U d_f\nx/b.c.o: U c_f\nx/e.c.o: 0000 T e_f\n"
    ok = check(rank, names, *parse_nm(clean))
    found = check(rank, names, *parse_nm(bad))
    want = ["a.c (low) calls up into d.c (top): d_f", "b.c and c.c share layer mid but b.c uses c_f",
            "e.c: not declared in a layer"]
    failures = []
    if ok:
        failures.append(f"clean objects reported: {ok}")
    for w in want:
        if w not in found:
            failures.append(f"not reported: {w} (got {found})")
    if not any(e.startswith("cycle: a.c -> d.c") for e in found):
        failures.append(f"cycle a.c -> d.c -> ... not reported (got {found})")
    with tempfile.TemporaryDirectory() as d:
        for fn, text in [("a.c", '#include "a.h"\n'), ("a.h", '#include "d.h"\n'), ("d.c", '#include "a.h"\n')]:
            with open(os.path.join(d, fn), "w") as f:
                f.write(text)
        inc = check_includes(rank, names, d)
        if inc != ["a.h:1 (low) includes d.h of layer top"]:
            failures.append(f"include check gave {inc}")
    for f in failures:
        print("layers self-test: " + f)
    print("layers self-test: " + ("FAILED" if failures else "the checks find each kind of problem"))
    return 1 if failures else 0


def main(argv):
    if len(argv) == 2 and argv[1] == '--self-test':
        return self_test()
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    rank, names = read_layers(argv[1])
    args = argv[2:]
    src_dir = None
    if args[:1] == ['--src']:
        src_dir, args = args[1], args[2:]
    if args[:1] == ['--nm-text']:
        with open(args[1]) as f:
            text = f.read()
    else:
        files = [f for a in args for f in a.split(';') if f]   # CMake passes object lists joined by ';'
        text = subprocess.run(['nm', '-A'] + files, check=True, capture_output=True, text=True).stdout
    defs, uses = parse_nm(text)
    errors = check(rank, names, defs, uses)
    if src_dir:
        errors += check_includes(rank, names, src_dir)
    for e in errors:
        print("layers: " + e)
    if errors:
        print(f"layers: {len(errors)} problem(s) in {len(defs)} files")
        return 1
    owner = {s: src for src, syms in defs.items() for s in syms}
    n_calls = sum(1 for src, syms in uses.items() for s in syms if owner.get(s, src) != src)
    print(f"layers: {len(defs)} files in {len(names)} layers, {n_calls} uses of other files' symbols, all downward")
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
