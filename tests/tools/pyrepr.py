#!/usr/bin/env python3
# pyrepr.py: the expectations of tests/unit/test_shortest.c, from
# Python itself.  Writes N lines "BITS REPR G" for N doubles drawn with
# a fixed seed: BITS the double's IEEE bits in hex, REPR Python's
# repr() of it (what fmt_pyfloat must write) and G the model of
# fmt_double: the first of "%.15g" and "%.16g" (from "%.1g" for a
# subnormal) that reads back as the double, else "%.17g", with
# Python's own correctly rounded %-formatting and float().
#
#   python3 tests/tools/pyrepr.py [N [SEED]]
#
# The doubles: a quarter random bit patterns (every finite double
# equally likely by its bits, inf and nan left out), and the rest in
# the shapes profiles give: weights uniform in [0, 20000) and their
# quotients by a sampling rate, running sums of 0.01 (as Python's
# += makes them), log-uniform seconds from
# a nanosecond to a day, integers as floats, subnormals, doubles of few
# significand bits (powers of two and their neighbours), and the
# neighbours of powers of ten.

import math
import random
import struct
import sys

TINY = sys.float_info.min


def gtext(d):
    if d == 0:
        return "0"
    for p in range(1 if abs(d) < TINY else 15, 17):
        s = "%.*g" % (p, d)
        if float(s) == d:
            return s
    return "%.17g" % d


def bits(d):
    return struct.unpack("<Q", struct.pack("<d", d))[0]


def double(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


acc = [0.0]


def draw(r, k):
    kind = k % 12
    if kind < 3:
        return double(r.getrandbits(64))
    if kind == 3:
        return r.uniform(0, 20000)
    if kind == 4:
        return r.uniform(0, 20000) / r.choice((99, 100, 997, 1e9))
    if kind == 5:
        for _ in range(r.randrange(1, 4)):
            acc[0] += 0.01
        return acc[0]
    if kind == 6:
        return 10 ** r.uniform(-9, math.log10(86400))
    if kind == 7:
        return float(r.randrange(0, 1 << r.randrange(1, 64)))
    if kind == 8:
        return double(r.getrandbits(52) >> r.randrange(0, 52))
    if kind == 9:
        b = r.randrange(0, 0x7ff) << 52 | r.getrandbits(8)
        return -double(b) if r.random() < 0.5 else double(b)
    if kind == 10:
        e = r.randrange(-323, 309)
        return double(max(1, bits(float("1e%d" % e)) + r.randrange(-3, 4)))
    return r.uniform(-1e6, 1e6)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
    r = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 35)
    out = []
    k = 0
    while k < n:
        d = draw(r, k)
        if math.isinf(d) or math.isnan(d):
            continue
        out.append("%016x %r %s\n" % (bits(d), d, gtext(d)))
        k += 1
        if len(out) == 4096:
            sys.stdout.write("".join(out))
            out = []
    sys.stdout.write("".join(out))


main()
