#!/usr/bin/env python3
"""cgraph-model.py: what analyze-cgraph-profiles(1) prints, from the JSON.

An independent model of the report, for the golden cases of
tests/pipelines/analyze-cgraph-profiles: it runs no sst program.  It
loads each trace whole with the json module, reads times as decimal
microseconds rounded half to even to whole nanoseconds, takes spans
(X events, B/E pairs) per thread (pid, tid) as trace2sst(1) documents
it (by start, longer first, then file order; a span that starts at or
after the end of the innermost open one closes it; one that ends after
its parent is cut to the parent's end), leaves out Kineto's
pseudo-process "Spans", and names python_function spans
"PATH(LINE): FUNC" as the frame FUNC at PATH:LINE, addresses
" at 0x..." cut.  Then, as the manual page says:

  Ray's loop (some trace holds do_exec_tasks or _compute): per actor the
  main thread (the heaviest running do_exec_tasks, else _compute, else
  the busiest), the window (the do_exec_tasks spans, else the main
  thread's extent), the time in _read, _compute, _write and the rest,
  the _compute spans, the methods (the Python frames right under
  _compute, not under ray/ and not built-ins), the top ten ops by self
  time inside the loop and the GPU kernel time of the kernels launched
  (args.correlation) under _compute; the bottleneck.

  Else the report of record_function traces: per file threads, busy
  time, spans, kernel time, top span and top ten ops, and across files.

  Then, when some trace has GPU events (sst-gpu(1)'s: an event with a
  ts, a dur, a cat other than Trace and python_function and an integer
  args.stream; times read as decimal microseconds rounded half away
  from zero to whole nanoseconds, as sst-gpu reads them), the GPU
  section: per such trace its kernel time (first start to last end),
  idle (what the union of its GPU events leaves), compute (the union
  of its computation kernels) and non-compute (the rest); the busiest
  (least idle share) and idlest GPU; the launch delays (each launch
  call, by name, joined by args.correlation to every GPU event of that
  correlation: the event's start minus the call's end, at least 0),
  their median and 95th percentile by linear interpolation (numpy's
  default), the events shorter than their call; its kernels by total
  time (synchronisation left out; ties by name), with Welford's mean
  printed as sst-gpu prints it (%.10g microseconds).

Traces compressed with gzip (the gzip module) or zstd (zstd -dc) are
read as well.

Usage: cgraph-model.py [--tsv] DIR [TITLE]; TITLE (default DIR) is the
heading's name for the directory.  The Markdown tables are written as
sst-table(1) writes them (widths in code points, '|' escaped, control
characters as spaces).
"""
import decimal
import glob
import gzip
import json
import os
import re
import subprocess
import sys

D = decimal.Decimal


class Num(str):
    """A JSON number, kept as written."""


def ns(v):
    return int((D(str(v)) * 1000).quantize(D(1), decimal.ROUND_HALF_EVEN))


def sec(n):
    return float(D(n) / D(10) ** 9)


def esc(s):
    """s escaped as sst(5) escapes names."""
    out = []
    for ch in s:
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
        elif ord(ch) < 0x20 or ord(ch) == 0x7f:
            out.append('\\x%02x' % ord(ch))
        else:
            out.append(ch)
    return ''.join(out)


PYNAME = re.compile(r'(.*?)\((\d+)\): (.+)', re.S)
ADDR = re.compile(r' at 0x[0-9a-fA-F]+')


def frame(name, cat):
    """The frame (name, location file:line or None) of a span."""
    if 'python_function' not in cat.split(','):
        return name, None
    name = ADDR.sub('', name)
    m = PYNAME.fullmatch(name)
    if m is None:
        return name, None
    return m.group(3), '%s:%s' % (m.group(1), m.group(2))


class Span:
    def __init__(self, start, dur, seq, name, loc, cat, corr):
        self.start, self.dur, self.seq = start, dur, seq
        self.name, self.loc, self.cat, self.corr = name, loc, cat, corr
        self.kids = []
        self.parent = None

    def self_time(self):
        return self.dur - sum(k.dur for k in self.kids)


def nest(spans):
    """The roots of spans nested by trace2sst's rules."""
    spans.sort(key=lambda s: (s.start, -s.dur, s.seq))
    roots, stack = [], []
    for s in spans:
        while stack and s.start >= stack[-1].start + stack[-1].dur:
            stack.pop()
        if stack:
            p = stack[-1]
            pend = p.start + p.dur
            if s.start + s.dur > pend:
                s.dur = pend - s.start
            p.kids.append(s)
            s.parent = p
        else:
            roots.append(s)
        stack.append(s)
    return roots


def preorder(roots):
    for r in roots:
        st = [r]
        while st:
            s = st.pop()
            yield s
            st.extend(reversed(s.kids))


def load(path):
    """Threads of a file: [(name, [span...])] in order of appearance."""
    with open(path, 'rb') as f:
        raw = f.read()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    elif raw[:4] == b'\x28\xb5\x2f\xfd':
        raw = subprocess.run(['zstd', '-dcq'], input=raw, check=True,
                             stdout=subprocess.PIPE).stdout
    doc = json.loads(raw, parse_int=Num, parse_float=Num)
    evs = doc['traceEvents'] if isinstance(doc, dict) else doc
    pname, tname, spans, opened, last, order = {}, {}, {}, {}, {}, []
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
        if 'ts' not in e or key[0] == 'Spans':
            continue
        ts = ns(e['ts'])
        end = ts + (ns(e['dur']) if ph == 'X' and 'dur' in e else 0)
        last[key] = max(last.get(key, end), end)
        cat = e.get('cat', '') or ''
        corr = e.get('args', {}).get('correlation')
        if ph == 'X':
            nm, loc = frame(e.get('name', ''), cat)
            spans.setdefault(key, []).append(
                Span(ts, end - ts, seq, nm, loc, cat, corr))
        elif ph == 'B':
            opened.setdefault(key, []).append((ts, seq, e, cat))
        elif ph == 'E' and opened.get(key):
            b, bseq, be, bcat = opened[key].pop()
            nm, loc = frame(be.get('name', ''), bcat)
            spans.setdefault(key, []).append(
                Span(b, ts - b, bseq, nm, loc, bcat, None))
        else:
            continue
        if key not in order and ph in 'XB':
            order.append(key)
    for key, st in opened.items():
        for b, bseq, be, bcat in st:
            nm, loc = frame(be.get('name', ''), bcat)
            spans.setdefault(key, []).append(
                Span(b, last[key] - b, bseq, nm, loc, bcat, None))
    out = []
    for key in order:
        pid, tid = key
        name = 'Process %s' % pid
        if pid in pname:
            name += ' "%s"' % pname[pid]
        name += ' Thread %s' % tid
        if key in tname:
            name += ' "%s"' % tname[key]
        out.append((name, spans[key]))
    return out


def matches(s, func):
    return re.search(r'(^|\): )%s$' % func, s.name) is not None


def outermost(roots, pred, inside=None):
    """The spans matching pred with no matching ancestor, in preorder."""
    out = []
    for s in preorder(roots):
        if not pred(s):
            continue
        a, ok, within = s.parent, True, inside is None
        while a is not None:
            if pred(a):
                ok = False
            if inside is not None and inside(a):
                within = True
            a = a.parent
        if ok and within:
            out.append(s)
    return out


def leaves(spanlist):
    """Self time and calls per (name, loc), in first-seen order."""
    res = {}
    for s in spanlist:
        k = (s.name, s.loc)
        if k not in res:
            res[k] = [0, 0, len(res)]
        res[k][0] += s.self_time()
        res[k][1] += 1
    rows = sorted(res.items(), key=lambda kv: (-kv[1][0], kv[1][2]))
    return [(k[0], k[1], v[0], v[1]) for k, v in rows]


def busy(roots):
    return sum(r.dur for r in roots)


def actor(path):
    """Everything one trace gives."""
    threads = load(path)
    full = [(n, nest(sp)) for n, sp in threads]
    a = {'threads': len(full)}
    # Legacy figures.
    a['busy'] = sum(busy(r) for _, r in full)
    a['spans'] = sum(len(sp) for _, sp in threads)
    a['allspans'] = [s for _, r in full for s in preorder(r)]
    rootw, rooto = {}, []
    for _, r in full:
        for s in preorder(r):
            if s.parent is None:
                if s.name not in rootw:
                    rooto.append(s.name)
                    rootw[s.name] = 0
            top = s
            while top.parent is not None:
                top = top.parent
            rootw[top.name] += s.self_time()
    a['root'] = max(rooto, key=lambda n: (rootw[n], -rooto.index(n))) \
        if rooto else ''
    kern = []
    for n, sp in threads:
        ks = [Span(s.start, s.dur, s.seq, s.name, s.loc, s.cat, s.corr)
              for s in sp if 'kernel' in s.cat.split(',')]
        kern.append(nest(ks))
    a['nkern'] = sum(len(k) for k in kern)
    a['gpu'] = sum(busy(k) for k in kern)
    # Ray's loop.
    def heaviest(cands):
        best = None
        for n, roots, w in cands:
            if best is None or w > best[2]:
                best = (n, roots, w)
        return best
    dx = lambda s: matches(s, 'do_exec_tasks')
    cp = lambda s: matches(s, '_compute')
    cands = []
    for n, r in full:
        o = outermost(r, dx)
        if o:
            cands.append((n, r, sum(s.dur for s in o)))
    kind = 'dx'
    if not cands:
        kind = 'cp'
        for n, r in full:
            o = outermost(r, cp)
            if o:
                cands.append((n, r, sum(s.dur for s in o)))
    if not cands:
        kind = 'none'
        cands = [(n, r, busy(r)) for n, r in full]
        cands.sort(key=lambda c: -c[2])
    main, roots, _ = heaviest(cands)
    a['kind'], a['main'] = kind, main
    inside = dx if kind == 'dx' else None
    if kind == 'dx':
        win = sum(s.dur for s in outermost(roots, dx))
        loop = [s for s in preorder(roots)
                if dx(s) or any_anc(s, dx)]
    elif kind == 'cp':
        win = max(r.start + r.dur for r in roots) - \
            min(r.start for r in roots)
        loop = list(preorder(roots))
    else:
        win = busy(roots)
        loop = list(preorder(roots))
    part = {}
    for f in ('_read', '_compute', '_write'):
        part[f] = sum(s.dur for s in outermost(
            roots, lambda s, f=f: matches(s, f), inside))
    any3 = lambda s: any(matches(s, f) for f in ('_read', '_compute',
                                                   '_write'))
    if kind == 'dx':
        other = win - sum(s.dur for s in outermost(roots, any3, inside))
    else:
        other = max(0, win - part['_read'] - part['_compute'] -
                    part['_write'])
    a.update(win=win, read=part['_read'], compute=part['_compute'],
             write=part['_write'], other=other)
    a['iterations'] = sum(1 for s in loop if cp(s))
    meths = []
    for c in outermost(roots, cp, inside):
        for s in c.kids:
            if s.loc is None or s.name.startswith('<built-in '):
                continue
            file = s.loc.rsplit(':', 1)[0]
            if re.search(r'(^|/)ray/', file):
                continue
            if s.name not in meths:
                meths.append(s.name)
    a['methods'] = meths
    a['top'] = leaves(loop)[:10]
    # GPU kernels launched under _compute on the main thread.
    a['gk'] = 0
    if a['nkern'] > 0 and kind != 'none':
        launch = {}
        for n, r in full:
            for s in preorder(r):
                if (s.cat in ('cuda_runtime', 'cuda_driver') and
                        s.corr is not None and s.corr not in launch):
                    launch[s.corr] = (n, s)
        for n, r in full:
            for s in preorder(r):
                if 'kernel' not in s.cat.split(',') or s.corr is None:
                    continue
                if s.corr in launch and launch[s.corr][0] == main and \
                        (cp(launch[s.corr][1]) or
                         any_anc(launch[s.corr][1], cp)):
                    a['gk'] += s.dur
    return a


def any_anc(s, pred):
    a = s.parent
    while a is not None:
        if pred(a):
            return True
        a = a.parent
    return False


def mdcell(s):
    out, run = [], 0
    for ch in s:
        if ch == '|':
            out.append('\\' * run + '\\|')
            run = 0
            continue
        run = run + 1 if ch == '\\' else 0
        out.append(' ' if ord(ch) < 0x20 or ord(ch) == 0x7f else ch)
    return ''.join(out)


def table(rows, align):
    rows = [[mdcell(c) for c in r] for r in rows]
    w = [max(len(r[i]) for r in rows) for i in range(len(align))]
    lines = []
    for j, r in enumerate(rows):
        cells = [c.rjust(w[i]) if align[i] == 'r' else c.ljust(w[i])
                 for i, c in enumerate(r)]
        lines.append('| ' + ' | '.join(cells) + ' |')
        if j == 0:
            lines.append('| ' + ' | '.join(
                ('-' * (w[i] - 1) + ':') if align[i] == 'r' and w[i] else
                '-' * w[i] for i in range(len(align))) + ' |')
    return '\n'.join(lines) + '\n'


def t(n):
    s = sec(n)
    if s >= 1:
        return '%.3f s' % s
    if s >= 0.001:
        return '%.3f ms' % (s * 1e3)
    if s > 0:
        return '%.3f µs' % (s * 1e6)
    return '0 s'


def pc(x, w):
    return '%.1f%%' % (100 * sec(x) / sec(w) if w > 0 else 0)


def ms(n):
    return '%.3f' % (sec(n) * 1000)


def labels(d):
    """(label, file) in the report's order."""
    names = []
    for pat in ('*.json', '*.json.gz', '*.json.zst'):
        names += sorted(os.path.basename(p)
                        for p in glob.glob(os.path.join(d, pat))
                        if not os.path.isdir(p))
    keys = []
    for i, f in enumerate(names):
        pre = f.split('.', 1)[0]
        rest = f.split('.', 1)[1] if '.' in f else f
        num = rest.split('.', 1)[0]
        if num.isdigit() and num.isascii():
            k = (0, int(num))
        else:
            k = (1, 0)
        keys.append((esc(pre).encode(), k, i, pre, f))
    keys.sort()
    out, prev, k = [], None, 0
    for e, _, _, pre, f in keys:
        k = k + 1 if e == prev else 1
        prev = e
        out.append((pre + ('.%d' % k if k > 1 else ''), f))
    return out


def head(s):
    return s.replace('\t', '\\t').replace('\n', '\\n').replace('\r', '\\r')


def legacy(title, acts):
    gpu = any(a['nkern'] > 0 for _, a in acts)
    hdr = ['Actor', 'Threads', 'Busy (ms)', 'Spans']
    if gpu:
        hdr.append('GPU kernels (ms)')
    hdr.append('Top span')
    rows = [hdr]
    for lab, a in acts:
        r = [lab, str(a['threads']), ms(a['busy']), str(a['spans'])]
        if gpu:
            r.append(ms(a['gpu']))
        r.append(a['root'])
        rows.append(r)
    out = '# Compiled Graph profiles: %s\n\n## Actors\n\n' % title
    out += table(rows, 'lrrrrl' if gpu else 'lrrrl')

    def top(spans, total):
        rows = [['Op', 'Spans', 'Self (ms)', 'Self %']]
        for name, loc, self, calls in leaves(spans)[:10]:
            rows.append([name, str(calls), ms(self),
                         '%.1f%%' % (100 * sec(self) / sec(total)
                                     if total else 0)])
        return table(rows, 'lrrr')
    for lab, a in acts:
        out += '\n## Top ops: %s\n\n' % head(lab)
        out += top(a['allspans'], a['busy'])
    out += '\n## Top ops across actors\n\n'
    out += top([s for _, a in acts for s in a['allspans']],
               sum(a['busy'] for _, a in acts))
    return out


def loopreport(title, acts):
    gpu = any(a['nkern'] > 0 for _, a in acts)
    hdr = ['Actor', 'Methods', 'Iterations', 'Window', 'Read', 'Compute',
           'Write', 'Other'] + (['GPU kernels'] if gpu else [])
    rows = [hdr]
    for lab, a in acts:
        w = a['win']
        r = [lab, ', '.join(a['methods']) or '-', str(a['iterations']),
             t(w)] + ['%s (%s)' % (t(a[k]), pc(a[k], w))
                      for k in ('read', 'compute', 'write', 'other')]
        if gpu:
            r.append(t(a['gk']))
        rows.append(r)
    out = '# Compiled Graph profiles: %s\n\n## Actors\n\n' % title
    out += table(rows, 'llrrrrrr' + ('r' if gpu else ''))
    b = 0
    for i, (_, a) in enumerate(acts):
        if a['compute'] > acts[b][1]['compute']:
            b = i
    bl, ba = acts[b]
    out += '\nBottleneck: %s (%s): compute %s, %s of its window.' % (
        head(bl), ', '.join(ba['methods']) or '-', t(ba['compute']),
        pc(ba['compute'], ba['win']))
    sh = [100 * sec(a['read']) / sec(a['win']) if a['win'] else 0
          for i, (_, a) in enumerate(acts) if i != b]
    if len(sh) == 1:
        out += ' The other actor waits in _read %.1f%% of its window.' % \
            sh[0]
    elif len(sh) > 1:
        out += (' The other %d actors wait in _read %.1f%% to %.1f%% of '
                'their windows.' % (len(sh), min(sh), max(sh)))
    out += '\n'
    for lab, a in acts:
        if a['kind'] == 'none':
            out += '\n## Top ops: %s (no Ray loop)\n\n' % head(lab)
        else:
            out += '\n## Top ops in the loop: %s\n\n' % head(lab)
        n = a['threads']
        out += 'Main thread: %s (%s); shares of its window, %s.\n\n' % (
            esc(a['main']), "the trace's only thread" if n == 1 else
            '1 of %d threads, the others left out' % n, t(a['win']))
        anyloc = any(loc for _, loc, _, _ in a['top'])
        rows = [['Op'] + (['Location'] if anyloc else []) +
                ['Calls', 'Self', '% of window']]
        for name, loc, self, calls in a['top']:
            rows.append([name] + ([loc or ''] if anyloc else []) +
                        [str(calls), t(self), pc(self, a['win'])])
        out += table(rows, 'llrrr' if anyloc else 'lrrr')
    return out


def tsv(acts):
    out = ('actor\tmethods\titerations\twindow_s\tread_s\tcompute_s\t'
           'write_s\tother_s\n')
    b = 0
    for i, (lab, a) in enumerate(acts):
        out += '%s\t%s\t%d\t%s\n' % (
            esc(lab), ','.join(esc(m) for m in a['methods']) or '-',
            a['iterations'], '\t'.join(
                '{:f}'.format(D(a[k]).scaleb(-9).quantize(D('1e-9')))
                for k in ('win', 'read', 'compute', 'write', 'other')))
        if a['compute'] > acts[b][1]['compute']:
            b = i
    return out + '# bottleneck %s\n' % esc(acts[b][0])



# The GPU section: sst-gpu(1)'s rules, from the JSON.

LAUNCHES = ('cudaLaunchKernel', 'cudaLaunchKernelExC', 'cuLaunchKernel',
            'cuLaunchKernelEx', 'cudaMemcpyAsync', 'cudaMemsetAsync',
            'hipLaunchKernel', 'hipExtModuleLaunchKernel', 'hipMemsetAsync',
            'hipMemcpyAsync', 'hipMemcpyWithStream')


def gns(v):
    """Microseconds (a JSON number) as whole ns, half away from zero."""
    return int((D(str(v)) * 1000).quantize(D(1), decimal.ROUND_HALF_UP))


def isint(v):
    return isinstance(v, int) and not isinstance(v, bool)


def ktype(name, sync):
    if sync:
        return 'sync'
    if name.startswith(('nccl', 'hccl')) or 'ncclKernel' in name:
        return 'communication'
    if 'Memcpy' in name or 'Memset' in name or name.startswith('dma'):
        return 'memory'
    return 'computation'


def union(iv):
    """Time covered by intervals [(start, end)]."""
    busy, s, e = 0, None, None
    for a, b in sorted(iv):
        if s is not None and a <= e:
            e = max(e, b)
            continue
        if s is not None:
            busy += e - s
        s, e = a, b
    if s is not None:
        busy += e - s
    return busy


def gpu(path):
    """The GPU figures of a trace, None without GPU events."""
    with open(path, 'rb') as f:
        raw = f.read()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    elif raw[:4] == b'\x28\xb5\x2f\xfd':
        raw = subprocess.run(['zstd', '-dcq'], input=raw, check=True,
                             stdout=subprocess.PIPE).stdout
    doc = json.loads(raw, parse_float=D)
    evs = doc['traceEvents'] if isinstance(doc, dict) else doc
    g, calls = [], []
    for e in evs:
        if not isinstance(e, dict) or 'ts' not in e or 'dur' not in e or \
                not isinstance(e.get('cat'), str):
            continue
        if e['cat'] in ('Trace', 'python_function'):
            continue
        args = e.get('args') if isinstance(e.get('args'), dict) else {}
        name = e.get('name') if isinstance(e.get('name'), str) else ''
        corr = args.get('correlation')
        corr = corr if isint(corr) else -1
        ts = gns(e['ts'])
        end = ts + gns(e['dur'])
        if isint(args.get('stream')):
            g.append((ts, end, name, ktype(name, e['cat'] == 'cuda_sync'),
                      corr))
        elif name in LAUNCHES:
            calls.append((ts, end, corr))
    if not g:
        return None
    kt = max(x[1] for x in g) - min(x[0] for x in g)
    idle = kt - union([(x[0], x[1]) for x in g])
    comp = union([(x[0], x[1]) for x in g if x[3] == 'computation'])
    # Kernels: by name, Welford's mean as sst-gpu keeps it.
    ks, order = {}, []
    for ts, end, name, ty, _ in g:
        if ty == 'sync':
            continue
        if name not in ks:
            ks[name] = {'n': 0, 'sum': 0, 'max': 0, 'mean': 0.0, 'ty': ty}
            order.append(name)
        k = ks[name]
        v = end - ts
        if k['n'] == 0 or v > k['max']:
            k['max'] = v
        k['n'] += 1
        k['sum'] += v
        k['mean'] += (float(v) - k['mean']) / k['n']
    order.sort(key=lambda n: (-ks[n]['sum'], n.encode()))
    # Launches: each call joined to the GPU events of its correlation.
    bycorr = {}
    for x in g:
        bycorr.setdefault(x[4], []).append(x)
    delays, short = [], 0
    for cs, ce, corr in calls:
        for x in bycorr.get(corr, []):
            delays.append(max(0, x[0] - ce))
            if x[1] - x[0] < ce - cs:
                short += 1
    delays.sort()
    return {'kt': kt, 'idle': idle, 'comp': comp,
            'noncomp': kt - comp - idle,
            'kernels': [(n, ks[n]) for n in order],
            'delays': delays, 'short': short}


def ts_(s):
    """Seconds s in the unit that keeps them readable."""
    if s >= 1:
        return '%.3f s' % s
    if s >= 0.001:
        return '%.3f ms' % (s * 1e3)
    if s > 0:
        return '%.3f µs' % (s * 1e6)
    return '0 s'


def quant(xs, p):
    """Quantile p of sorted xs, linear interpolation (numpy's default)."""
    pos = p * (len(xs) - 1)
    lo = int(pos)
    v = float(xs[lo])
    if lo + 1 < len(xs):
        v += (xs[lo + 1] - xs[lo]) * (pos - lo)
    return v


def gpusection(acts):
    gs = [(lab, a['gpu_']) for lab, a in acts if a['gpu_'] is not None]
    if not gs:
        return ''
    rows = [['Actor', 'Kernel time', 'Idle', 'Compute', 'Non-compute']]
    for lab, x in gs:
        rows.append([lab, t(x['kt'])] + ['%s (%s)' % (t(x[k]), pc(x[k],
                    x['kt'])) for k in ('idle', 'comp', 'noncomp')])
    out = '\n## GPU time\n\n' + table(rows, 'lrrrr')
    sh = [sec(x['idle']) / sec(x['kt']) if x['kt'] > 0 else 0
          for _, x in gs]
    b = l = 0
    for i in range(len(sh)):
        if sh[i] < sh[b]:
            b = i
        if sh[i] > sh[l]:
            l = i
    out += '\nBusiest GPU: %s, idle %.1f%% of its kernel time' % (
        head(gs[b][0]), 100 * sh[b] / 1)
    if len(gs) == 1:
        out += ' (the only actor with GPU events).\n'
    else:
        out += '; idlest: %s, idle %.1f%%.\n' % (head(gs[l][0]),
                                                  100 * sh[l] / 1)
    for lab, x in gs:
        out += '\n## GPU: %s\n\n' % head(lab)
        d = x['delays']
        if not d:
            out += 'No launch call joined to a GPU event.\n'
        else:
            out += ('Launch delay: median %s, p95 %s over %d launch%s; '
                    'kernels shorter than their launch call: %d.\n' % (
                        ts_(quant(d, 0.5) / 1e9), ts_(quant(d, 0.95) / 1e9),
                        len(d), '' if len(d) == 1 else 'es', x['short']))
        ks = x['kernels']
        tot = sum(k['sum'] for _, k in ks)
        out += '\nTop kernels by total time %s:\n\n' % (
            '(10 of %d)' % len(ks) if len(ks) > 10 else '(all %d)' % len(ks))
        rows = [['Kernel', 'Type', 'Total', 'Share', 'Mean', 'Max']]
        for n, k in ks[:10]:
            rows.append([n, k['ty'], t(k['sum']), pc(k['sum'], tot),
                         ts_(float('%.10g' % (k['mean'] / 1000.0)) / 1e6),
                         t(k['max'])])
        out += table(rows, 'llrrrr')
    return out


def main():
    args = sys.argv[1:]
    as_tsv = bool(args) and args[0] == '--tsv'
    if as_tsv:
        args = args[1:]
    d = args[0]
    title = args[1] if len(args) > 1 else d
    acts = [(lab, actor(os.path.join(d, f))) for lab, f in labels(d)]
    loop = any(a['kind'] != 'none' for _, a in acts)
    if as_tsv:
        sys.stdout.write(tsv(acts))
        return
    for lab, f in labels(d):
        dict(acts)[lab]['gpu_'] = gpu(os.path.join(d, f))
    if loop:
        sys.stdout.write(loopreport(title, acts) + gpusection(acts))
    else:
        sys.stdout.write(legacy(title, acts) + gpusection(acts))


main()
