#!/usr/bin/env python3
"""layers.py [builddir]: check common/'s layers (common/README).

Reads the table of common/README (lines "layer NAME: module ..."), then
what each module uses: the symbols its objects (builddir/common/*.o,
default build; run make first) leave undefined and another module
defines (nm(1)), and the headers its files include.  A module's files
are NAME.c and NAME*.c sharing NAMEint.h (json, spd, trace), else
NAME.c and NAME.h.  Prints each use of a higher layer and each circle
of modules that use each other, and exits 1 if there is any; 0 if none.
"""
import collections
import glob
import os
import re
import subprocess
import sys

top = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, 'build')
layers, rank = [], {}
folder = {}    # layer -> its folder under common/
for line in open(os.path.join(top, 'common', 'README')):
    m = re.match(r'^layer (\w+) \((\w+)/\): (.*)$', line)
    if m:
        layers.append(m.group(1))
        folder[m.group(1)] = m.group(2)
        for mod in m.group(3).split():
            rank[mod] = len(layers) - 1
groups = [m for m in rank if os.path.exists(
    os.path.join(top, 'common', folder[layers[rank[m]]], m + 'int.h'))]


def module(path):
    """The module of file path (common/NAME.c, .h or .o)."""
    b = os.path.splitext(os.path.basename(path))[0]
    for g in groups:
        if b == g or b == g + 'int' or (b.startswith(g) and b not in rank):
            return g
    return b


bad = 0
mods = sorted({module(f) for f in
               glob.glob(os.path.join(top, 'common', '*', '*.c'))})
for m in mods:
    if m not in rank:
        print('layers: module %s is in no layer of common/README' % m)
        bad = 1
# Each file in the folder of its module's layer.
for f in glob.glob(os.path.join(top, 'common', '*', '*.[ch]')):
    m = module(f)
    d = os.path.basename(os.path.dirname(f))
    if m in rank and folder[layers[rank[m]]] != d:
        print('layers: %s is in %s/, its layer %s is %s/' % (
            os.path.relpath(f, top), d, layers[rank[m]],
            folder[layers[rank[m]]]))
        bad = 1
if glob.glob(os.path.join(top, 'common', '*.[ch]')):
    print("layers: files of common/ outside the layers' folders")
    bad = 1
uses = collections.defaultdict(dict)    # m -> {n: why}
defs, undef = {}, collections.defaultdict(set)
objs = glob.glob(os.path.join(build, 'common', '*', '*.o'))
if not objs:
    sys.exit('layers: no %s/common/*/*.o: run make first' % build)
for o in objs:
    m = module(o)
    out = subprocess.run(['nm', o], capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'TDBRC':
            defs[f[2]] = m
        elif len(f) == 2 and f[0] == 'U':
            undef[m].add(f[1])
for m, syms in undef.items():
    for s in sorted(syms):
        n = defs.get(s)
        if n is not None and n != m:
            uses[m].setdefault(n, 'calls ' + s + '()')
for f in glob.glob(os.path.join(top, 'common', '*', '*.[ch]')):
    m = module(f)
    for line in open(f, errors='replace'):
        r = re.match(r'#include "(\w+)\.h"', line)
        if r and r.group(1) not in ('digits', 'varint', 'mul128',
                                    'pow5tab', 'pow10tab'):
            n = module(r.group(1) + '.h')
            if n != m and n in rank:
                uses[m].setdefault(n, os.path.basename(f) + ' includes ' +
                                   r.group(1) + '.h')
for m in sorted(uses):
    for n, why in sorted(uses[m].items()):
        if m in rank and n in rank and rank[n] > rank[m]:
            print('layers: %s (%s) uses %s (%s): %s' % (
                m, layers[rank[m]], n, layers[rank[n]], why))
            bad = 1
# Circles: strongly connected sets of two modules or more.
index, low, stack, on, sccs = {}, {}, [], set(), []


def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on.add(v)
    for w in uses.get(v, {}):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        c = []
        while True:
            w = stack.pop()
            on.discard(w)
            c.append(w)
            if w == v:
                break
        if len(c) > 1:
            sccs.append(sorted(c))


sys.setrecursionlimit(10000)
for v in sorted(set(uses) | set(mods)):
    if v not in index:
        visit(v)
for c in sccs:
    print('layers: circle: ' + ' '.join(c) + ' (' + '; '.join(
        '%s: %s' % (a, uses[a][b]) for a in c for b in c
        if b in uses.get(a, {})) + ')')
    bad = 1
sys.exit(bad)
