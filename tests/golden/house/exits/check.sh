# Every call that ends the program (exit, err, errx, verr, verrx, abort)
# in common/ is inside a function whose name says it exits: x-prefixed
# (xmalloc, xjson_fail) or with _x in it (sp_xfail, spdw_xread).  Prints
# each call outside one, "file:line: function", and ok when none is.
top=$FIX/../..
out=$(for f in "$top"/common/*/*.c; do
	awk -v f="${f#"$top"/}" '
	/^[A-Za-z_][A-Za-z0-9_]*\(/ { fn = $0; sub(/\(.*/, "", fn) }
	/^[ \t]*\*/ || /^\/\*/ { next }
	/(^|[^A-Za-z0-9_])(exit|_exit|err|errx|verr|verrx|abort)\(/ {
		if (fn !~ /^x/ && fn !~ /_x/)
			printf "%s:%d: %s\n", f, NR, fn
	}' "$f" || echo "check.sh: awk failed on $f"
done)
if [ -n "$out" ]; then
	printf '%s\n' "$out"
	exit 1
fi
echo ok
