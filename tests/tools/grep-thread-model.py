#!/usr/bin/env python3
"""grep-thread-model.py [-EIvx] PATTERN [FILE ...]: a model of
sst-grep-thread(1) on the text form of sst(5), written from the manual
page and Python's own str.lower and re, to check the program against:
print the records whose thread name, unescaped, matches PATTERN.
By default a match is Python's `pattern.lower() in name.lower()` (a
name that is not UTF-8 lower-cased in ASCII only); -x the whole name or the whole short name (Python's
`name.rsplit('"', 2)[-2]`, when the name holds two double quotes);
-I neither side lower-cased; -E PATTERN a regular expression searched
for with Python's re over the name's UTF-8 bytes (enough for the ERE
the cases use), lower-cased but for each backslash and the character
after it.  A last line without a newline is written with one.  -v prints the
records that do not match.  Compact lines (\\D, \\F, \\R) are not
modelled.
"""
import re
import sys


def unescape(s):
    out = bytearray()
    i = 0
    while i < len(s):
        c = s[i]
        if c != 0x5C or i + 1 >= len(s):
            out.append(c)
            i += 1
            continue
        n = s[i + 1]
        if n == 0x78:  # \xHH
            out.append(int(s[i + 2:i + 4], 16))
            i += 4
            continue
        out.extend({0x5C: b"\\", 0x74: b"\t", 0x6E: b"\n", 0x72: b"\r",
                    0x65: b""}[n])
        i += 2
    return bytes(out)


def lower(b):
    try:
        return b.decode("utf-8").lower()
    except UnicodeDecodeError:
        return b.decode("latin-1").encode("latin-1").lower().decode(
            "latin-1")


def lower_re(p):
    return re.sub(r"\\.|[^\\]+", lambda m: m.group(0) if
                  m.group(0).startswith("\\") else m.group(0).lower(), p)


def main(argv):
    opts = set()
    while argv and argv[0].startswith("-") and len(argv[0]) > 1:
        a = argv.pop(0)
        if a == "--":
            break
        opts.update(a[1:])
    pat = argv.pop(0)
    files = argv or ["-"]
    fold = "I" not in opts
    if "E" in opts:
        rx = re.compile((lower_re(pat) if fold else pat).encode(
            "utf-8", "surrogateescape"))
    else:
        want = pat.lower() if fold else pat
    for f in files:
        fh = sys.stdin.buffer if f == "-" else open(f, "rb")
        for line in fh:
            name = unescape(line.split(b"\t", 1)[0])
            name = lower(name) if fold else name.decode("utf-8",
                                                         "surrogateescape")
            short = name.rsplit('"', 2)[-2] if name.count('"') >= 2 \
                else None
            if "E" in opts:
                enc = [n.encode("utf-8", "surrogateescape") for n in
                       (name, short) if n is not None]
                if "x" in opts:
                    hit = any(rx.fullmatch(n) for n in enc)
                else:
                    hit = rx.search(enc[0]) is not None
            elif "x" in opts:
                hit = want in (name, short)
            else:
                hit = want in name
            if hit != ("v" in opts):
                sys.stdout.buffer.write(line if line.endswith(b"\n")
                                        else line + b"\n")
        if fh is not sys.stdin.buffer:
            fh.close()


if __name__ == "__main__":
    main(sys.argv[1:])
