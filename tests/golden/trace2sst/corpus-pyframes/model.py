#!/usr/bin/env python3
"""model.py: an independent model of trace2sst's Python frames for
corpus-pyframes: per file (Python's json module, numbers as written),
the python_function X spans named "PATH(LINE): FUNC" with FUNC one of
the arguments, their count and summed duration (decimal microseconds
rounded half to even to nanoseconds), which is each function's
inclusive time, as none of them is recursive, and its locations
PATH:LINE:: (sst(5): column and frame index empty)."""
import decimal
import json
import re
import sys

D = decimal.Decimal
funcs = sys.argv[1].split(',')
for path in sys.argv[2:]:
    with open(path) as f:
        doc = json.load(f, parse_float=str, parse_int=str)
    n = dict.fromkeys(funcs, 0)
    ns = dict.fromkeys(funcs, 0)
    locs = {k: set() for k in funcs}
    for e in doc['traceEvents']:
        if e.get('ph') != 'X' or 'python_function' not in \
                e.get('cat', '').split(','):
            continue
        m = re.match(r'^(.+?)\((\d+)\): (.+)$', e.get('name', ''), re.S)
        if m and m.group(3) in n:
            n[m.group(3)] += 1
            locs[m.group(3)].add('%s:%s::' % (m.group(1), m.group(2)))
            ns[m.group(3)] += int((D(e['dur']) * 1000).quantize(
                D(1), decimal.ROUND_HALF_EVEN))
    print('#', path.rsplit('/', 1)[-1])
    for k in funcs:
        print('%s\t%d\t%.9f\t%s' % (k, n[k], ns[k] / 1e9,
            ','.join(sorted(locs[k]))))
