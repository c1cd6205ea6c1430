#!/usr/bin/env python3
"""trace_totals.py: per-thread span counts and busy time of Chrome traces.

An independent check of trace2sst(1): it loads each trace whole with
Python's json module and, for every thread (pid, tid), prints the number
of spans (X events, B/E pairs matched last-open-first, B events never
closed, which end at the thread's last time) and its busy time: the sum
of the durations of the top-level spans, those that start at or after
the end of the last top-level span when the spans are taken by start,
longer first, then input order.  Times are the decimal microseconds of
the file rounded half to even to whole nanoseconds.  A thread's busy
time is what the self times of its sst records add up to.

Output, per file: "# NAME", then per thread, sorted by name,
"THREAD TAB SPANS TAB SECONDS" with SECONDS to 9 decimals and THREAD
escaped as sst(5) escapes it.
"""
import decimal
import json
import sys

D = decimal.Decimal


class Num(str):
    """A JSON number, kept as written."""


def ns(v):
    return int((D(str(v)) * 1000).quantize(D(1), decimal.ROUND_HALF_EVEN))


def esc(s):
    out = []
    for b in s.encode('utf-8', 'surrogatepass'):
        c = chr(b)
        if c == '\\':
            out.append('\\\\')
        elif c == '\t':
            out.append('\\t')
        elif c == '\n':
            out.append('\\n')
        elif c == '\r':
            out.append('\\r')
        elif c == ';':
            out.append('\\x3b')
        elif b < 0x20 or b == 0x7f:
            out.append('\\x%02x' % b)
        else:
            out.append(None)
            out[-1] = bytes([b])
    res = b''
    for o in out:
        res += o if isinstance(o, bytes) else o.encode()
    return res.decode('utf-8', 'surrogateescape')


def totals(path):
    with open(path, 'rb') as f:
        doc = json.load(f, parse_int=Num, parse_float=Num)
    evs = doc['traceEvents'] if isinstance(doc, dict) else doc
    pname, tname, spans, opened, last = {}, {}, {}, {}, {}
    for seq, e in enumerate(evs):
        ph = e.get('ph')
        key = (e.get('pid', ''), e.get('tid', ''))
        if ph == 'M':
            name = e.get('args', {}).get('name')
            if e.get('name') == 'process_name' and isinstance(name, str):
                pname[key[0]] = name
            if e.get('name') == 'thread_name' and isinstance(name, str):
                tname[key] = name
            continue
        if 'ts' not in e:
            continue
        ts = ns(e['ts'])
        end = ts + (ns(e['dur']) if ph == 'X' and 'dur' in e else 0)
        last[key] = max(last.get(key, end), end)
        if ph == 'X':
            spans.setdefault(key, []).append((ts, end - ts, seq))
        elif ph == 'B':
            opened.setdefault(key, []).append((ts, seq))
        elif ph == 'E' and opened.get(key):
            b, bseq = opened[key].pop()
            spans.setdefault(key, []).append((b, ts - b, bseq))
    for key, stack in opened.items():
        for b, bseq in stack:
            spans.setdefault(key, []).append((b, last[key] - b, bseq))
    rows = []
    for key, sp in spans.items():
        sp.sort(key=lambda s: (s[0], -s[1], s[2]))
        busy, rootend = 0, None
        for start, dur, _ in sp:
            if rootend is None or start >= rootend:
                busy += dur
                rootend = start + dur
        pid, tid = key
        name = 'Process %s' % pid
        if pid in pname:
            name += ' "%s"' % pname[pid]
        name += ' Thread %s' % tid
        if key in tname:
            name += ' "%s"' % tname[key]
        rows.append((esc(name), len(sp), busy))
    print('#', path.rsplit('/', 1)[-1])
    for name, n, busy in sorted(rows):
        print('%s\t%d\t%.9f' % (name, n, busy / 1e9))


for p in sys.argv[1:]:
    totals(p)
