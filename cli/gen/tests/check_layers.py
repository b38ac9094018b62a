#!/usr/bin/env python3
"""Checks that the generator's files only call downward.

  check_layers.py LAYERS FILE...        FILE: object files or static archives (read with nm)
  check_layers.py LAYERS --nm-text F    the output of `nm -A` on the objects, as text

LAYERS lists the layers bottom to top, one a line: "name: file.c file.c ...".
A file may use a symbol defined in a lower layer; files of one layer do not
use each other. Every object must be declared, and every declared file must
be there. Fails (exit 1) naming each upward use and each cycle of files."""
import os
import re
import subprocess
import sys


def read_layers(path):
    rank, names = {}, []
    with open(path) as f:
        for line in f:
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
        if src not in defs:
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


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    rank, names = read_layers(argv[1])
    if argv[2] == '--nm-text':
        with open(argv[3]) as f:
            text = f.read()
    else:
        text = subprocess.run(['nm', '-A'] + argv[2:], check=True, capture_output=True, text=True).stdout
    defs, uses = parse_nm(text)
    errors = check(rank, names, defs, uses)
    for e in errors:
        print("layers: " + e)
    n_edges = sum(len(v) for v in uses.values())
    if errors:
        print(f"layers: {len(errors)} problem(s) in {len(defs)} files")
        return 1
    print(f"layers: {len(defs)} files in {len(names)} layers, {n_edges} external uses, all downward")
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
