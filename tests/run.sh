#!/bin/sh
# Run every test: the Check suites in build/tests, then every golden case
# under tests/golden and tests/pipelines.  A golden case is a directory
# holding "cmd" (one sh command line, run inside the case directory),
# "out" (the exact expected stdout), and optionally "err" (the exact
# expected stderr) and "status" (the expected exit status, default 0).
# The last line printed is "N passed, N failed, N skipped".
top=$(cd "$(dirname "$0")/.." && pwd)
PATH="$top/bin:$top/pipelines:$PATH"
FIX="$top/tests/fixtures"
CORPUS="$top/../shared/corpus"
LC_ALL=C
export PATH FIX CORPUS LC_ALL
pass=0 fail=0 skip=0
out="$top/tests/out"
rm -rf "$out"
mkdir -p "$out"

for t in "$top"/build/tests/test_*; do
	[ -x "$t" ] || continue
	n=$(basename "$t")
	if CK_FORK=yes "$t" >"$out/$n.log" 2>&1; then :; fi
	line=$(grep 'Checks: ' "$out/$n.log" | tail -n 1)
	c=$(printf '%s\n' "$line" | sed -n 's/.*Checks: \([0-9]*\).*/\1/p')
	f=$(printf '%s\n' "$line" | sed -n 's/.*Failures: \([0-9]*\).*/\1/p')
	e=$(printf '%s\n' "$line" | sed -n 's/.*Errors: \([0-9]*\).*/\1/p')
	if [ -z "$c" ]; then
		echo "FAIL unit $n: no Check summary"
		sed 's/^/    /' "$out/$n.log" | tail -n 20
		fail=$((fail + 1))
		continue
	fi
	pass=$((pass + c - f - e))
	fail=$((fail + f + e))
	if [ "$((f + e))" -gt 0 ]; then
		echo "FAIL unit $n"
		grep -v '^[0-9]*%' "$out/$n.log" | sed 's/^/    /'
	fi
done

for d in "$top"/tests/golden/*/*/ "$top"/tests/pipelines/*/*/; do
	[ -f "$d/cmd" ] || continue
	name=${d#"$top"/tests/}
	name=${name%/}
	if grep -q 'CORPUS' "$d/cmd" && [ ! -d "$CORPUS" ]; then
		echo "skipped: no corpus: $name"
		skip=$((skip + 1))
		continue
	fi
	o="$out/$(printf '%s' "$name" | tr / _)"
	(cd "$d" && sh ./cmd >"$o.out" 2>"$o.err" </dev/null)
	st=$?
	want=0
	[ -f "$d/status" ] && want=$(cat "$d/status")
	ok=1
	if [ "$st" -ne "$want" ]; then
		echo "FAIL $name: exit status $st, expected $want"
		ok=0
	fi
	if ! cmp -s "$o.out" "$d/out"; then
		echo "FAIL $name: stdout differs"
		diff "$d/out" "$o.out" | head -n 20 | sed 's/^/    /'
		ok=0
	fi
	if [ -f "$d/err" ] && ! cmp -s "$o.err" "$d/err"; then
		echo "FAIL $name: stderr differs"
		diff "$d/err" "$o.err" | head -n 20 | sed 's/^/    /'
		ok=0
	fi
	if [ "$ok" -eq 1 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
