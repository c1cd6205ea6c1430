#!/usr/bin/env python3
# pow5tab.py: writes common/base/pow5tab.h, the powers of five that
# common/base/shortest.c (Ryu's shortest digits of a double) multiplies by,
# and common/base/pow10tab.h, the powers of ten of common/base/eisel.c (the
# Eisel-Lemire reading of a decimal), each as two 64-bit halves, low
# half first.  pow5tab.h, to 125 significant bits:
#
#   pow5[i]    = floor(5^i * 2^(125 - bits(5^i))), the top 125 bits of
#                5^i, for 0 <= i <= 325 (binary exponents below zero);
#   pow5inv[q] = floor(2^(bits(5^q) - 1 + 125) / 5^q) + 1, 1 / 5^q
#                rounded up to 125 bits, for 0 <= q <= 290 (binary
#                exponents from zero up).
#
# The ranges are those of shortest.c's indices over every finite
# double, checked below with its own integer formulas.  pow10tab.h, to
# 128 bits, rounded down:
#
#   tenpow[e + 348] = 10^e scaled by a power of two into [2^127, 2^128),
#                    for -348 <= e <= 347.
#
# Run it from anywhere (python3 common/base/pow5tab.py); it writes both
# files beside itself.

import os

BITS = 125
MASK = (1 << 64) - 1


def pow5bits(e):
    return ((e * 1217359) >> 19) + 1


def log10pow2(e):
    return (e * 78913) >> 18


def log10pow5(e):
    return (e * 732923) >> 20


def ranges():
    """The largest pow5inv and pow5 index shortest.c uses."""
    qmax = imax = 0
    for ieee_exp in range(0, 2047):
        e2 = (ieee_exp if ieee_exp else 1) - 1023 - 52 - 2
        if e2 >= 0:
            q = log10pow2(e2) - (e2 > 3)
            qmax = max(qmax, q)
        else:
            q = log10pow5(-e2) - (-e2 > 1)
            imax = max(imax, -e2 - q)
    return qmax, imax


def rows(name, vals):
    out = ["static const uint64_t %s[%d][2] = {" % (name, len(vals))]
    for v in vals:
        assert v >> 128 == 0
        out.append("\t{ 0x%016xULL, 0x%016xULL }," % (v & MASK, v >> 64))
    out.append("};")
    return out


def main():
    qmax, imax = ranges()
    inv, pos = [], []
    for q in range(qmax + 1):
        p = 5 ** q
        assert p.bit_length() == pow5bits(q)
        inv.append((1 << (p.bit_length() - 1 + BITS)) // p + 1)
    for i in range(imax + 1):
        p = 5 ** i
        assert p.bit_length() == pow5bits(i)
        s = p.bit_length() - BITS
        pos.append(p >> s if s >= 0 else p << -s)
    lines = [
        "/*",
        " * pow5tab.h: powers of five to 125 bits for shortest.c, written",
        " * by common/base/pow5tab.py (do not edit; run it again instead).",
        " */",
        "#define POW5_BITS\t%d" % BITS,
        "#define POW5INV_N\t%d" % len(inv),
        "#define POW5_N\t\t%d" % len(pos),
        "",
    ]
    lines += rows("pow5inv", inv) + [""] + rows("pow5", pos)
    write("pow5tab.h", lines)
    ten = []
    for e in range(-348, 348):
        if e >= 0:
            p = 10 ** e
            s = p.bit_length() - 128
            ten.append(p >> s if s >= 0 else p << -s)
        else:
            p = 10 ** -e
            ten.append((1 << (127 + p.bit_length())) // p)
        assert ten[-1] >> 127 == 1
    lines = [
        "/*",
        " * pow10tab.h: powers of ten to 128 bits for eisel.c, written",
        " * by common/base/pow5tab.py (do not edit; run it again instead).",
        " */",
        "#define POW10_MIN\t(-348)",
        "#define POW10_MAX\t347",
        "",
    ]
    write("pow10tab.h", lines + rows("tenpow", ten))


def write(name, lines):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


main()
