#!/usr/bin/env python3
"""pb.py NAME: write the hand-encoded profile.proto NAME to standard
output, made byte by byte here (not by sst, not by pprof-format), for
the cases that pprof-format does not write: repeated fields unpacked,
unknown fields of every wire type, the string table first, and the
malformed profiles of tests/malformed (truncated, mutated).

    unpacked   two samples, one with location_id and value unpacked,
               the other packed, unknown fields everywhere, a Line with
               a column, a negative value
"""
import sys


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while v >= 0x80:
        out.append(v & 0x7f | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def key(num, wire):
    return varint(num << 3 | wire)


def vfield(num, v):
    return key(num, 0) + varint(v)


def lfield(num, b):
    return key(num, 2) + varint(len(b)) + b


def fixed64(num, v):
    return key(num, 1) + v.to_bytes(8, 'little')


def fixed32(num, v):
    return key(num, 5) + v.to_bytes(4, 'little')


STR = ['', 'samples', 'count', 'cpu', 'nanoseconds', 'thread', 'T1',
       'main', 'main.c', 'work', 'lib.c']


def strings():
    return b''.join(lfield(6, s.encode()) for s in STR)


def S(s):
    return STR.index(s)


def vt(t, u):
    return vfield(1, S(t)) + vfield(2, S(u))


def profile(sample2=None):
    p = strings()
    p += vfield(99, 12345) + fixed64(100, 7) + fixed32(101, 9)
    p += lfield(102, b'\x01\x02\x03')
    p += lfield(1, vt('samples', 'count')) + lfield(1, vt('cpu', 'nanoseconds'))
    p += lfield(5, vfield(1, 1) + vfield(2, S('main')) +
                vfield(4, S('main.c')) + vfield(9, 4))
    p += lfield(5, vfield(1, 2) + vfield(2, S('work')) +
                vfield(3, S('work')) + vfield(4, S('lib.c')))
    line1 = vfield(1, 1) + vfield(2, 7) + fixed32(8, 1)
    line2 = vfield(1, 2) + vfield(2, 40) + vfield(3, 5)
    p += lfield(4, vfield(1, 1) + lfield(4, line1) + vfield(9, 3))
    p += lfield(4, vfield(1, 2) + lfield(4, line2))
    # Unpacked: leaf (2) then root (1), value 2 then 20 ms.
    s1 = (vfield(1, 2) + vfield(1, 1) + vfield(2, 2) + vfield(2, 20000000) +
          lfield(3, vfield(1, S('thread')) + vfield(2, S('T1')) +
                 vfield(7, 1)) + fixed64(15, 0))
    # Packed, no thread, a negative weight.
    s2 = (lfield(1, varint(1)) + lfield(2, varint(1) + varint(-5000000)) +
          lfield(16, b'xy'))
    p += lfield(2, s1) + lfield(2, sample2 if sample2 is not None else s2)
    p += lfield(11, vt('cpu', 'nanoseconds')) + vfield(12, 10000000)
    return p


def main():
    name = sys.argv[1]
    p = profile()
    out = {
        'unpacked': p,
        # Cut inside the last field (the period's varint).
        'trunc-varint': p[:-1],
        # Cut inside a sample: its length runs past the end.
        'trunc-len': p[:p.rindex(b'\x12')] + b'\x12\x30\x08',
        # A key of wire type 3 (start group).
        'wire-group': p + key(20, 3),
        # A varint of 11 bytes.
        'long-varint': p + key(20, 0) + b'\xff' * 10 + b'\x01',
        # The string table does not begin with "".
        'str0': lfield(6, b'x') + p,
        # A sample naming location 9, which is not there.
        'no-location': profile(lfield(1, varint(9)) +
                               lfield(2, varint(1) + varint(1))),
        # A sample of one value for two sample types.
        'values': profile(lfield(1, varint(1)) + lfield(2, varint(1))),
        # A label whose string index is past the table.
        'label-str': profile(lfield(2, varint(1) + varint(1)) +
                             lfield(3, vfield(1, 5) + vfield(2, 99))),
        # Two locations with id 1.
        'dup-location': p + lfield(4, vfield(1, 1)),
        # A location naming function 5, which is not there.
        'no-function': p + lfield(4, vfield(1, 3) + lfield(4, vfield(1, 5))),
        # A sample type given as a varint, not a message.
        'wire-mismatch': vfield(1, 3) + p,
        # Samples 0 with a weight of 5 ms.
        'zero-count': profile(lfield(1, varint(1)) +
                              lfield(2, varint(0) + varint(5000000))),
    }[name]
    sys.stdout.buffer.write(out)


main()
