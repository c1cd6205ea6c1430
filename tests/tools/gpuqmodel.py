"""A model of sst-gpu's queue, annotations and cpu-annotations tables
(without --hta or -b), written from sst-gpu(1), gpu.c's head comment and
the definitions of HTA's queue length summary; it runs no sst program.

load(path): a Chrome/Kineto trace's events that count, as sst-gpu reads
them: a ts, a dur and a cat other than Trace and python_function; times
read exactly from the decimal text into nanoseconds (rounded half to
even past three decimals); on the GPU when args.stream is an integer.

queue(evs): HTA's GPU kernel: a GPU event with stream >= 0 and
correlation >= 0, or named Event Sync or Context Sync.  A launch: a
runtime launch call (LAUNCHES) that is no HTA GPU kernel, with a
correlation (not -1) that an HTA GPU kernel among the events sst-gpu
keeps (the GPU events and launch calls) has; its stream is the first
GPU event's (cat not cuda_sync) of that correlation in trace order,
none: not counted.  A start: each GPU event not cuda_sync.  The
launches (in trace order) then the starts (in trace order), sorted
stably by time; per stream the queue length after each step; per stream
(by number) count, mean (the sorted lengths summed in doubles, over n),
std (n-1; the squared deviations summed in sorted order), min, pandas'
linear quartiles, max, %.10g.  Rows without the rank column.

annotations(evs, cat): the spans of cat (gpu_user_annotation or
user_annotation) not on a stream, by name in trace order: sum, max, min
(microseconds, up to three decimals), stddev (n-1, Welford in doubles;
0 alone) and mean (%.10g of the ns figure over 1000); rows by name
(bytewise).  Rows without the rank column.
"""
import decimal
import gzip
import json
import math

LAUNCHES = {"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel",
            "cuLaunchKernelEx", "cudaMemcpyAsync", "cudaMemsetAsync",
            "hipLaunchKernel", "hipExtModuleLaunchKernel",
            "hipMemsetAsync", "hipMemcpyAsync", "hipMemcpyWithStream"}
SYNCS = {"Event Sync", "Context Sync"}


def ns(v):
    d = decimal.Decimal(str(v)) * 1000
    return int(d.to_integral_value(rounding=decimal.ROUND_HALF_EVEN))


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    evs = doc["traceEvents"] if isinstance(doc, dict) else doc
    out = []
    for e in evs:
        if not isinstance(e, dict) or "ts" not in e or "dur" not in e:
            continue
        cat = e.get("cat")
        if not isinstance(cat, str) or cat in ("Trace", "python_function"):
            continue
        a = e.get("args") if isinstance(e.get("args"), dict) else {}
        st = a.get("stream")
        c = a.get("correlation", -1)
        out.append({"cat": cat, "name": str(e.get("name", "")),
                    "ts": ns(e["ts"]), "dur": ns(e["dur"]),
                    "stream": st if type(st) is int else None,
                    "corr": c if type(c) is int else -1})
    return out


def us(v):
    """ns as sst-gpu prints microseconds: up to three decimals."""
    s = "-" if v < 0 else ""
    q, f = divmod(abs(v), 1000)
    return s + str(q) + ("." + ("%03d" % f).rstrip("0") if f else "")


def isgk(e):
    return e["stream"] is not None and ((e["stream"] >= 0 and
                                         e["corr"] >= 0) or
                                        e["name"] in SYNCS)


def quant(v, p):
    x = p * (len(v) - 1)
    lo = math.floor(x)
    i = int(lo)
    if i + 1 >= len(v):
        return float(v[-1])
    return v[i] + (v[i + 1] - v[i]) * (x - lo)


def queue(evs):
    gk = set(e["corr"] for e in evs if isgk(e))
    first = {}
    starts = [e for e in evs if e["stream"] is not None and
              e["cat"] != "cuda_sync"]
    for e in starts:
        first.setdefault(e["corr"], e["stream"])
    steps = []
    for e in evs:
        if (e["name"] in LAUNCHES and not isgk(e) and e["corr"] != -1 and
                e["corr"] in gk and e["corr"] in first):
            steps.append((e["ts"], first[e["corr"]], 1))
    steps += [(e["ts"], e["stream"], -1) for e in starts]
    steps.sort(key=lambda s: s[0])
    lens, cur = {}, {}
    for _, st, d in steps:
        cur[st] = cur.get(st, 0) + d
        lens.setdefault(st, []).append(cur[st])
    rows = []
    for st in sorted(lens):
        v = sorted(lens[st])
        n = len(v)
        tot = 0.0
        for x in v:
            tot += x
        mean = tot / n
        m2 = 0.0
        for x in v:
            m2 += (x - mean) * (x - mean)
        sd = "%.10g" % math.sqrt(m2 / (n - 1)) if n > 1 else ""
        rows.append("%d\t%d\t%.10g\t%s\t%d\t%.10g\t%.10g\t%.10g\t%d" % (
            st, n, mean, sd, v[0], quant(v, .25), quant(v, .5),
            quant(v, .75), v[-1]))
    return rows


def stats(pairs):
    """Per name, in first-seen order, of (name, ns) pairs taken in order:
    count, sum, max, min, and Welford's mean and m2 in doubles, the
    additions sst-gpu makes (kernels and annotations)."""
    agg = {}
    for name, d in pairs:
        a = agg.setdefault(name, [0, 0, None, None, 0.0, 0.0])
        a[0] += 1
        a[1] += d
        a[2] = d if a[2] is None or d > a[2] else a[2]
        a[3] = d if a[3] is None or d < a[3] else a[3]
        x = float(d) - a[4]
        a[4] += x / float(a[0])
        a[5] += x * (float(d) - a[4])
    return agg


def statcols(a):
    """A name's sum, max, min (us), stddev (n-1, 0 for one) and mean, as
    sst-gpu prints them."""
    n, s, mx, mn, mean, m2 = a
    sd = math.sqrt(m2 / float(n - 1)) if n > 1 else 0.0
    return [us(s), us(mx), us(mn), "%.10g" % (sd / 1000.0),
            "%.10g" % (mean / 1000.0)]


def annotations(evs, cat):
    agg = stats((e["name"], e["dur"]) for e in evs
                if e["cat"] == cat and e["stream"] is None)
    return ["\t".join([name] + statcols(agg[name]))
            for name in sorted(agg, key=lambda k: k.encode())]
