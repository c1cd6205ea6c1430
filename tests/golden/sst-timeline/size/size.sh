# The size bound: 200,000 spans (gen.awk) at the default width, 1180
# px of rows.  Prints the spans made, whether the SVG is well-formed,
# the spans it accounts for (a bar 1, a block its count), whether its
# marks stay within 2 x 1180 + 1 for each of its 8 rows, and whether it
# stays under 1 MB.
t=$(mktemp) || exit 1
trap 'rm -f "$t" "$t.svg"' EXIT
trap 'exit 1' HUP INT TERM
awk -f gen.awk >"$t" || exit
echo "spans $(wc -l <"$t")"
sst-timeline "$t" >"$t.svg" || exit
xmllint --noout "$t.svg" && echo well-formed
awk '/^<g><title>/ { n++
	if (match($0, /^<g><title>[0-9]+ spans narrower/))
		c += substr($0, 11, index($0, " spans") - 11)
	else
		c++ }
    END { print "spans drawn " c
	print "marks within 8 x 2361: " (n <= 8 * 2361 ? "yes" : "no " n) }' \
    "$t.svg"
b=$(wc -c <"$t.svg")
echo "under 1 MB: $([ "$b" -lt 1048576 ] && echo yes || echo "no $b")"
