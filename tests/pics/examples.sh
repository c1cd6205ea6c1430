#!/bin/sh
# examples.sh PAGE: run the examples of man/PAGE's EXAMPLES section in
# order, in one shell inside a fresh directory holding profile.json
# (the demo profile) and p.sst (its stream), and after each print
# "== example N" and what it made: for each new file its name and kind,
# checked (PNG and PDF by signature, SVG well-formed by xmllint, DOT
# drawn by dot -Tsvg without a message) and, for DOT and flame graph
# SVG, how many nodes or frames it holds.
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
dir=$(mktemp -d "${TMPDIR:-/tmp}/examples.XXXXXXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' HUP INT TERM
cp "$top/tests/fixtures/demo.speedscope.json" "$dir/profile.json" &&
    sst-flatten "$dir/profile.json" >"$dir/p.sst" || exit 1
awk -v d="$dir" '
	/^\.Sh / { ex = ($2 == "EXAMPLES"); next }
	ex && /^\.Bd -literal/ {
		n++
		f = d "/example" n ".sh"
		on = 1
		next
	}
	/^\.Ed/ { on = 0; next }
	on { gsub(/\\e/, "\\"); print > f }
' "$top/man/$1" || exit 1
# What file $1 is, checked.
kind() {
	case $1 in
	*.png)
		[ "$(od -An -tx1 -N8 "$1" | tr -d ' ')" = 89504e470d0a1a0a ] &&
		    echo png ;;
	*.pdf)
		[ "$(head -c 5 "$1")" = %PDF- ] && echo pdf ;;
	*.svg)
		xmllint --noout "$1" || return
		if grep -q '<g id="frames">' "$1"; then
			echo "flame graph svg, $(grep -c '^<g><title>' "$1")" \
			    "frames"
		else
			echo svg
		fi ;;
	*.dot)
		dot -Tsvg "$1" >/dev/null 2>"$dir/dot.err" &&
		    [ ! -s "$dir/dot.err" ] &&
		    echo "dot, $(grep -c '^N[0-9]* \[' "$1") nodes" ;;
	*)
		echo "unexpected" ;;
	esac
}
cd "$dir" || exit 1
ls >"$dir/.before"
for ex in example*.sh; do
	echo "== ${ex%.sh}"
	sh -e "$ex" || echo "status $?"
	ls | grep -vxF -f .before -e dot.err | while read -r f; do
		echo "$f: $(kind "$f" || echo bad)"
		rm -f "$f"
	done
done
