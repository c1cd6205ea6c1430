#!/usr/bin/env python3
"""
cpuprofile-check.py PROFILE STREAM [-s]: an independent model of
cpuprofile2sst(1).  Loads the .cpuprofile whole with Python's json
module, gives sample i the time until sample i+1 (timeDeltas[i+1]; the
last one endTime minus the time of the last sample, or 0 if negative;
in the old format timestamps[i+1] - timestamps[i]), groups the samples
by their stack of frame names and url:line:col locations (1-based, the
(root) node left out, "(anonymous)" for empty names) and compares the
records of STREAM (sst, one thread) with it: the same stacks in the
same order, the same sample counts, weights equal to the summed
microseconds / 1e6 within 1e-12 relative.  With -s, STREAM must hold
one record per sample in input order, each weighing its microseconds /
1e6, with its start: the sum of the timeDeltas up to it (older format:
its timestamp less the first).  Prints one summary line, or the first difference and exits 1.
"""
import json
import sys


def esc(s):
    out = []
    for ch in s:
        o = ord(ch)
        if ch == '\\':
            out.append('\\\\')
        elif ch == '\t':
            out.append('\\t')
        elif ch == '\n':
            out.append('\\n')
        elif ch == '\r':
            out.append('\\r')
        elif ch == ';':
            out.append('\\x3b')
        elif o < 0x20 or o == 0x7f:
            out.append('\\x%02x' % o)
        else:
            out.append(ch)
    return ''.join(out)


def flatten_old(node, out):
    kids = node.get('children', [])
    out.append({'id': node['id'], 'callFrame': {
        'functionName': node.get('functionName', ''),
        'url': node.get('url', ''),
        'lineNumber': node.get('lineNumber', -1),
        'columnNumber': node.get('columnNumber', -1)},
        'children': [k['id'] for k in kids]})
    for k in kids:
        flatten_old(k, out)


def model(doc):
    if 'head' in doc:
        nodes = []
        flatten_old(doc['head'], nodes)
    else:
        nodes = doc['nodes']
    byid = {n['id']: n for n in nodes}
    parent = {}
    for n in nodes:
        for k in n.get('children', []):
            parent[k] = n['id']
    samples = doc['samples']
    if 'timeDeltas' in doc:
        d = doc['timeDeltas']
        at = [sum(d[:i + 1]) for i in range(len(d))]
        t = doc['startTime'] + sum(d)
        w = d[1:] + [max(doc['endTime'] - t, 0)]
    else:
        ts = doc['timestamps']
        at = [t - ts[0] for t in ts]
        w = [ts[i + 1] - ts[i] if i + 1 < len(ts) else 0
             for i in range(len(samples))]
    recs = {}
    seq = []
    for s, us, t in zip(samples, w, at):
        names, locs = [], []
        k = s
        while k in parent:
            cf = byid[k]['callFrame']
            names.append(esc(cf['functionName'] or '(anonymous)'))
            line = cf.get('lineNumber', -1)
            col = cf.get('columnNumber', -1)
            locs.append('%s:%s:%s:' % (esc(cf.get('url', '')),
                                       line + 1 if line >= 0 else '',
                                       col + 1 if col >= 0 else ''))
            k = parent[k]
        names.reverse()
        locs.reverse()
        if all(x == ':::' for x in locs):
            locs = []
        key = (';'.join(names), ';'.join(locs))
        seq.append((key, [1, us, t]))
        r = recs.setdefault(key, [0, 0])
        r[0] += 1
        r[1] += us
    return recs, seq


def main():
    with open(sys.argv[1], 'rb') as f:
        doc = json.load(f)
    recs, seq = model(doc)
    want = seq if sys.argv[3:] == ['-s'] else list(recs.items())
    got = []
    with open(sys.argv[2]) as f:
        for line in f:
            fl = line.rstrip('\n').split('\t')
            got.append(((fl[5], fl[6]), int(fl[1]), float(fl[2]), fl[0],
                        float(fl[7]) if len(fl) > 7 else None))
    if len(got) != len(want):
        print('records: %d, want %d' % (len(got), len(want)))
        sys.exit(1)
    total_n = total_us = 0
    for (key, n, w, thr, t), (wkey, wv) in zip(got, want):
        wn, wus = wv[0], wv[1]
        wt = wv[2] / 1e6 if len(wv) > 2 else None
        if key != wkey or n != wn or abs(w - wus / 1e6) > 1e-12 * wus or \
                (t is None) != (wt is None) or \
                (t is not None and abs(t - wt) > 1e-12 * wt):
            print('got %r %d %r, want %r %d %r' % (key, n, w, wkey, wn,
                                                   wus / 1e6))
            sys.exit(1)
        total_n += n
        total_us += wus
    print('%s: %d records, %d samples, %d us: ok' % (thr, len(got), total_n,
                                                    total_us))


main()
