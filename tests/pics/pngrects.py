#!/usr/bin/env python3
"""pngrects.py SVG PNG: how many of the SVG's filled rects (the page's
background left out) a browser's screenshot PNG shows in their fill
colour at their centre.  A small PNG reader (8-bit RGB or RGBA, not
interlaced) over zlib; prints "rects N, drawn M" and each miss.
"""
import re
import struct
import sys
import zlib


def png(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('not a PNG: %s' % path)
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, lace = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6) or lace:
        sys.exit('unsupported PNG: depth %d type %d' % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        ft, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if ft == 1:
                line[x] = (line[x] + a) & 255
            elif ft == 2:
                line[x] = (line[x] + b) & 255
            elif ft == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pr) & 255
        rows.append(line)
        prev = line
    return w, h, lambda x, y: '#%02x%02x%02x' % tuple(
        rows[y][x * bpp:x * bpp + 3])


def main():
    svg = open(sys.argv[1], encoding='utf-8').read()
    w, h, pix = png(sys.argv[2])
    n = drawn = 0
    for m in re.finditer(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"'
                         r' height="([\d.]+)" fill="(#[0-9a-f]{6})"', svg):
        x, y, rw, rh = (float(v) for v in m.groups()[:4])
        if rw < 2:
            continue
        n += 1
        got = pix(int(x + rw / 2), int(y + rh / 2))
        if got == m.group(5):
            drawn += 1
        else:
            print('miss: rect at %s,%s: %s, not %s' % (
                m.group(1), m.group(2), got, m.group(5)))
    print('rects %d, drawn %d' % (n, drawn))


main()
