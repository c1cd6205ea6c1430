# The SVG of ../size's 200,000 spans in headless Chromium: a PNG
# screenshot of the whole picture into the test output directory
# ($TESTOUT, else tests/out), and its signature and size.  Where
# chromium is missing it says "skipped: ..." and exits 77.
out=${TESTOUT:-$FIX/../out}
if ! command -v chromium >/dev/null 2>&1; then
	echo "skipped: no chromium (apt-get install chromium)" >&2
	exit 77
fi
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
trap 'exit 1' HUP INT TERM
awk -f ../size/gen.awk | sst-timeline >"$t/t.svg" || exit
h=$(sed -n 's/^<svg .* height="\([0-9]*\)".*/\1/p' "$t/t.svg")
echo "svg 1200x$h"
mkdir -p "$out" || exit
# Chromium logs D-Bus and GPU noise on stderr: keep it aside.
timeout 120 chromium --headless --no-sandbox --disable-gpu \
    --hide-scrollbars --user-data-dir="$t/profile" \
    --screenshot="$out/sst-timeline_chromium.png" --window-size="1200,$h" \
    "file://$t/t.svg" >/dev/null 2>"$t/log" || { cat "$t/log" >&2; exit 1; }
p=$out/sst-timeline_chromium.png
sig=$(od -An -tx1 -N8 "$p" | tr -d ' ')
[ "$sig" = 89504e470d0a1a0a ] || { echo "not a PNG: $p" >&2; exit 1; }
set -- $(od -An -tu1 -j16 -N8 "$p")
echo "png $(($1 * 16777216 + $2 * 65536 + $3 * 256 + $4))x$(($5 * 16777216 + \
    $6 * 65536 + $7 * 256 + $8))"
