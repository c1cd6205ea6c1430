"""Random traces against a model of sst-gpu's idle view (issue 32).

The model is HolisticTraceAnalysis's idle time breakdown as sst-gpu's
row path defines it (gpustat.c, gputrim.c), written again from that
definition: the GPU events (an integer args.stream, category not
cuda_sync) sorted by start, stably; per stream, the first event marks
`other`; the gap before each later one (its start minus the end of the
one before it in that order) is host_wait when its runtime call started
after that end, else kernel_wait when under 30 us, else other.  An
event's call: a kernel (stream >= 0 and correlation >= 0) that is the
last kernel of its correlation in the trace takes the last event of
that correlation that is not a kernel.  Times are whole microseconds.

The traces: 1 to 4 streams, gaps from overlapping to 60 us, the
streams interleaved, calls before their kernels (near or far), after
them (near, or past sst-gpu's window of 4,096 events), orphan kernels,
calls without a kernel, sync events, a second kernel or a second call
of a correlation (CUDA graphs' kernels share one), and now and then an
event on stream -1 with a correlation, a stream read out of order by
more than the window, or more calls (65,536) or pending events
(4,096) waiting than sst-gpu keeps (the cases where it lets one go, or
falls back on its rows).  sst-gpu -F idle (alone, and with -F temporal
in the same pass) must print the model's table byte for byte.  Prints
ok N.
"""
import json
import os
import random
import subprocess
import sys
import tempfile


def fmt_ratio(a, tot):
    return "%.2f" % (a / tot) if tot else ""


def model(evs, label):
    rows = []
    for i, e in enumerate(evs):
        a = e.get("args", {})
        st = a.get("stream")
        corr = a.get("correlation", -1)
        gk = (st is not None and st >= 0 and corr >= 0) or \
            e["name"] in ("Event Sync", "Context Sync")
        rows.append((i, e, st, corr, gk))
    lastk = {}
    for i, e, st, corr, gk in rows:
        if gk:
            lastk[corr] = i
    call = {}
    for i, e, st, corr, gk in rows:
        if not gk and corr != -1 and corr in lastk:
            call[lastk[corr]] = e
    gpu = [(e["ts"], i, e, st) for i, e, st, corr, gk in rows
           if st is not None and e["cat"] != "cuda_sync"]
    order = []
    for _, _, _, st in gpu:
        if st not in order:
            order.append(st)
    gpu.sort(key=lambda x: (x[0], x[1]))
    acc = {s: [0, 0, 0] for s in order}
    has = {s: [False, False, True] for s in order}
    prev = {}
    for ts, i, e, st in gpu:
        if st in prev:
            gap = ts - prev[st]
            c = call.get(i)
            if c is not None and c["ts"] > prev[st]:
                k = 0
            elif gap < 30:
                k = 1
            else:
                k = 2
            acc[st][k] += gap
            has[st][k] = True
        prev[st] = ts + e["dur"]
    out = ["rank\tstream\tidle_category\tidle_time\tidle_time_ratio"]
    for s in order:
        tot = sum(acc[s])
        for k, name in enumerate(("host_wait", "kernel_wait", "other")):
            if has[s][k]:
                out.append("%s\t%d\t%s\t%d\t%s" % (
                    label, s, name, acc[s][k], fmt_ratio(acc[s][k], tot)))
    return "\n".join(out) + "\n"


def kernel(rng, ts, st, name="gemm"):
    cat = "cuda_sync" if name == "Event Sync" else "kernel"
    return {"ph": "X", "cat": cat, "name": name, "ts": ts,
            "dur": rng.randint(1, 25), "args": {"stream": st}}


def runtime(ts, corr, name="cudaLaunchKernel"):
    return {"ph": "X", "cat": "cuda_runtime", "name": name, "ts": ts,
            "dur": 3, "args": {"correlation": corr}}


def streams(rng, long):
    per = []
    for s in range(rng.randint(1, 4)):
        t = rng.randint(0, 80)
        evs = []
        for _ in range(rng.randint(1, 30)):
            name = "Event Sync" if rng.random() < 0.05 else "gemm"
            evs.append(kernel(rng, t, 7 + s, name))
            t += evs[-1]["dur"] + rng.randint(-10, 60)
        per.append(evs)
    if long:
        per.append([kernel(rng, 100 + 3 * i, 40) for i in range(4200)])
    return per


def trace(rng):
    kind = rng.random()
    per = streams(rng, kind < 0.1)
    out = []
    while any(per):
        k = rng.choice([i for i, p in enumerate(per) if p])
        out.append(per[k].pop(0))
    if kind < 0.05:
        out.append(kernel(rng, 0, 40))     # too late for the window
    if 0.1 <= kind < 0.15 and len(out) > 2:
        i = rng.randrange(len(out) - 1)
        out[i], out[i + 1] = out[i + 1], out[i]
    corr = 0
    before = [[] for _ in range(len(out) + 1)]
    far = []
    for p, e in enumerate(out):
        r = rng.random()
        if r < 0.08:
            continue                        # an orphan kernel
        if r < 0.1 and corr > 0 and kind > 0.7:
            e["args"]["correlation"] = corr     # a second kernel
            continue
        corr += 1
        e["args"]["correlation"] = corr
        c = runtime(e["ts"] - rng.randint(-5, 40), corr)
        if rng.random() < 0.03:
            far.append(c)                   # read long after
            continue
        j = max(0, min(len(out), p + rng.randint(-6, 3)))
        before[j].append(c)
        if kind > 0.95 and rng.random() < 0.05:
            before[j].append(runtime(c["ts"] + 1, corr))  # a second call
    out = [x for i, e in enumerate(out) for x in before[i] + [e]] + \
        before[len(out)]
    for _ in range(rng.randint(0, 3)):
        corr += 1
        out.insert(rng.randint(0, len(out)), runtime(
            rng.randint(0, 500), corr, "cudaStreamSynchronize"))
    if 0.15 <= kind < 0.17:
        # More calls without a kernel than sst-gpu keeps waiting: at
        # the start (let go, none needed again), or in the middle
        # (calls of kernels read after them let go: the rows).
        syncs = [runtime(rng.randint(0, 500), corr + 1 + i,
                         "cudaStreamSynchronize") for i in range(70000)]
        corr += 70000
        p = 0 if kind < 0.16 else len(out) // 2
        out[p:p] = syncs
    if far:
        out += [kernel(rng, 100000 + i, 41) for i in range(4300)]
        out += far
    if 0.17 <= kind < 0.18:
        # More kernels waiting for calls read after them all than
        # sst-gpu keeps: the first let go, their calls come: the rows.
        ks = [kernel(rng, 200000 + 40 * i, 42) for i in range(70000)]
        for k in ks:
            corr += 1
            k["args"]["correlation"] = corr
        out += ks + [runtime(k["ts"] - 1, k["args"]["correlation"])
                     for k in ks]
    if 0.9 <= kind < 0.92:
        corr += 1
        out.append({"ph": "X", "cat": "kernel", "name": "odd", "ts": 5,
                    "dur": 1, "args": {"stream": -1, "correlation": 1}})
    return out


def sstgpu(*args):
    """sst-gpu's standard output for args (it must succeed)."""
    return subprocess.run(("sst-gpu",) + args, stdout=subprocess.PIPE,
                          text=True, check=True).stdout


def main():
    rng = random.Random(3232)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    differ = []
    with tempfile.TemporaryDirectory() as d:
        for i in range(n):
            evs = trace(rng)
            path = os.path.join(d, "t%d.json" % i)
            with open(path, "w") as f:
                json.dump({"traceEvents": evs}, f)
            want = model(evs, "t%d" % i)
            got = [sstgpu("-F", "idle", path), sstgpu(
                "-F", "temporal", "-F", "idle", path).split("\n\n")[1]]
            if got != [want, want]:
                differ.append(i)
                print("t%d differs:\n%s---\n%s" % (i, got[0], want))
    print("%d of %d differ" % (len(differ), n) if differ else "ok %d" % n)


main()
