#!/bin/sh
# chromium.sh IN NAME: draw the sst stream IN with sst-flame --width 1020
# and open it in headless Chromium: save a screenshot as NAME.png in the
# test output directory ($TESTOUT, else tests/out) and print its size;
# load it with "#s=^f$" (search) and with "#z=7" (zoom into frame 7)
# and print what the page then shows.  Where chromium is missing it
# says "skipped: ..." and exits 77.
here=$(cd "$(dirname "$0")" && pwd) || exit 1
out=${TESTOUT:-$here/../out}
if ! command -v chromium >/dev/null 2>&1; then
	echo "skipped: no chromium (apt-get install chromium)" >&2
	exit 77
fi
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
trap 'exit 1' HUP INT TERM
sst-flame --width 1020 "$1" >"$t/f.svg" || exit
h=$(sed -n 's/^<svg .* height="\([0-9]*\)".*/\1/p' "$t/f.svg")
mkdir -p "$out" || exit
# Chromium logs D-Bus and GPU noise on stderr: keep it aside.
chrome() {
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	    --user-data-dir="$t/profile" "$@" 2>>"$t/log"
}
chrome --screenshot="$out/$2.png" --window-size="1020,$h" \
    "file://$t/f.svg" >/dev/null || { cat "$t/log" >&2; exit 1; }
# The PNG signature, then width and height in IHDR (bytes 17 to 24).
sig=$(od -An -tx1 -N8 "$out/$2.png" | tr -d ' ')
[ "$sig" = 89504e470d0a1a0a ] || { echo "not a PNG: $out/$2.png" >&2; exit 1; }
set -- $(od -An -tu1 -j16 -N8 "$out/$2.png")
echo "png $(($1 * 16777216 + $2 * 65536 + $3 * 256 + $4))x$(($5 * 16777216 + \
    $6 * 65536 + $7 * 256 + $8))"
chrome --dump-dom "file://$t/f.svg#s=%5Ef%24" >"$t/dom" ||
    { cat "$t/log" >&2; exit 1; }
sed -n 's/.*<text id="matched"[^>]*>\([^<]*\)<.*/search ^f$: \1/p' "$t/dom"
echo "highlighted: $(grep -c 'fill="#e600e6"' "$t/dom")"
chrome --dump-dom "file://$t/f.svg#z=7" >"$t/dom" ||
    { cat "$t/log" >&2; exit 1; }
echo "zoom 7: hidden $(grep -c '<g class="hide">' "$t/dom")," \
    "greyed $(grep -c '<g class="parent">' "$t/dom")"
