#!/bin/sh
# bars.sh IN NAME: draw the table IN with sst-bars and open the SVG in
# headless Chromium: save a screenshot as NAME.png in the test output
# directory ($TESTOUT, else tests/out) and print its size, then what
# the browser's DOM holds: a parse error or not, and how many rect and
# text elements; then whether each bar and legend square shows in its
# colour at its centre in the screenshot (pngrects.py).  The window is
# 200 px taller than the picture: headless Chromium's viewport is
# smaller than its window.  Where chromium is missing it says
# "skipped: ..." and exits 77.
here=$(cd "$(dirname "$0")" && pwd) || exit 1
out=${TESTOUT:-$here/../out}
if ! command -v chromium >/dev/null 2>&1; then
	echo "skipped: no chromium (apt-get install chromium)" >&2
	exit 77
fi
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
trap 'exit 1' HUP INT TERM
png=$out/$2.png
sst-bars "$1" >"$t/b.svg" || exit
w=$(sed -n 's/^<svg .* width="\([0-9]*\)".*/\1/p' "$t/b.svg")
h=$(sed -n 's/^<svg .* height="\([0-9]*\)".*/\1/p' "$t/b.svg")
mkdir -p "$out" || exit
# Chromium logs D-Bus and GPU noise on stderr: keep it aside.
chrome() {
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	    --user-data-dir="$t/profile" "$@" 2>>"$t/log"
}
chrome --screenshot="$out/$2.png" --window-size="$w,$((h + 200))" \
    "file://$t/b.svg" >/dev/null || { cat "$t/log" >&2; exit 1; }
sig=$(od -An -tx1 -N8 "$out/$2.png" | tr -d ' ')
[ "$sig" = 89504e470d0a1a0a ] || { echo "not a PNG: $out/$2.png" >&2; exit 1; }
set -- $(od -An -tu1 -j16 -N8 "$out/$2.png")
echo "png $(($1 * 16777216 + $2 * 65536 + $3 * 256 + $4))x$(($5 * 16777216 + \
    $6 * 65536 + $7 * 256 + $8))"
chrome --dump-dom "file://$t/b.svg" >"$t/dom" ||
    { cat "$t/log" >&2; exit 1; }
echo "parse errors: $(grep -c parsererror "$t/dom")"
echo "rect: $(grep -o '<rect' "$t/dom" | wc -l)"
echo "text: $(grep -o '<text' "$t/dom" | wc -l)"
python3 "$here/pngrects.py" "$t/b.svg" "$png"
