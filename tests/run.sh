#!/bin/sh
# Run every test: the Check suites in build/tests, then every golden case
# under tests/golden and tests/pipelines, then every row of
# tests/malformed/cases.tsv.  A golden case is a directory holding "cmd"
# (one sh command line, run inside the case directory), "out" (the exact
# expected stdout), and optionally "err" (the exact expected stderr) and
# "status" (the expected exit status, default 0).  The cmd runs under
# bash --posix -o pipefail, so that a failing stage of a pipeline is not
# hidden by the ones after it.
# The last line printed is "N passed, N failed, N skipped".
#
# SANITIZE=1: run the ASan/UBSan builds of build/san (make SANITIZE=1
# all units); any sanitizer report, leaks included, fails the test.
# VALGRIND=1: run every filter of bin/ under valgrind (the Check suites
# run as usual: under valgrind some take many minutes, and SANITIZE=1
# covers them); any error or definite leak fails the test.  In both
# modes the programs are reached through tests/out/path/, which holds a
# link (or valgrind wrapper) per filter and a link per pipeline, so
# the pipelines, which take the filters beside them, use them too.
# TESTOUT=DIR: keep the outputs in DIR instead of tests/out.
# ONLY='PATTERN ...': run only the tests whose names match one of the
# sh patterns (unit/test_NAME, golden/PROG/CASE, pipelines/SCRIPT/CASE,
# malformed/ID); the others are neither run nor counted.
# SHARD=K/N: of those, only every Nth from the Kth (for parallel runs).
# JOBS=2 (make check's): the pipelines' cases (the slowest, and the ones
# with servers) in one run and the rest in another, side by side, each
# with a directory of the output directory; their lines are printed one
# run after the other and their counts summed.
top=$(cd "$(dirname "$0")/.." && pwd)
FIX="$top/tests/fixtures"
CORPUS="$top/../shared/corpus"
LC_ALL=C
pass=0 fail=0 skip=0
only=${ONLY:-*}
nth=0
SHARD=${SHARD:-1/1}
case $SHARD in
*/*)	shard=${SHARD%/*} nshard=${SHARD#*/} ;;
*)	shard= nshard= ;;
esac
case $shard$nshard in
''|*[!0-9]*)
	echo "run.sh: SHARD: expected K/N, got $SHARD" >&2
	exit 2
	;;
esac
if [ "$shard" -lt 1 ] || [ "$shard" -gt "$nshard" ]; then
	echo "run.sh: SHARD: expected K/N with 1 <= K <= N, got $SHARD" >&2
	exit 2
fi
out=${TESTOUT:-$top/tests/out}
rm -rf "$out"
mkdir -p "$out"
case ${JOBS:-1} in
''|*[!0-9]*)
	echo "run.sh: JOBS: expected a number, got $JOBS" >&2
	exit 2
	;;
esac
# This run's part, kept from the tests (tests/pipelines/run.sh runs
# run.sh).
part=${SST_PART:-}
unset SST_PART

# Print the counts, a run of no test (but a part's) failing, and exit
# with them.
finish() {
	if [ $((pass + fail + skip)) -eq 0 ] && [ -z "$part" ]; then
		echo "FAIL: no test ran (ONLY='$only', SHARD=$SHARD)"
		fail=1
	fi
	echo "$pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
	exit
}

if [ "${JOBS:-1}" -gt 1 ] && [ -z "$part" ]; then
	pids=
	trap 'kill $pids 2>/dev/null; exit 1' HUP INT TERM
	for p in pipelines rest; do
		SST_PART=$p TESTOUT=$out/$p JOBS=1 sh "$0" >"$out/$p.log" 2>&1 &
		pids="$pids $!"
	done
	st=0
	for pid in $pids; do
		wait "$pid" || st=1
	done
	trap - HUP INT TERM
	for p in pipelines rest; do
		sed '$d' "$out/$p.log"
		set -- $(tail -n 1 "$out/$p.log")
		case $1$3$5 in
		''|*[!0-9]*)
			echo "FAIL: the $p run ended with: $*"
			fail=$((fail + 1))
			continue
			;;
		esac
		pass=$((pass + $1)) fail=$((fail + $3)) skip=$((skip + $5))
	done
	[ "$fail" -eq 0 ] && [ "$st" -ne 0 ] && fail=1
	finish
fi
bindir=$top/bin
unitdir=$top/build/tests
report=
if [ "${SANITIZE:-}" = 1 ] && [ "${VALGRIND:-}" = 1 ]; then
	echo "run.sh: SANITIZE=1 and VALGRIND=1 do not mix" >&2
	exit 2
fi
if [ "${SANITIZE:-}" = 1 ]; then
	bindir=$top/build/san/bin
	unitdir=$top/build/san/tests
	report=$out/sanitizer
	mkdir -p "$report"
	# Reports go to files (so that golden stderr stays comparable) and
	# the first one ends the program with status 86.
	ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:exitcode=86"
	ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$report/asan"
	ASAN_OPTIONS="$ASAN_OPTIONS:strict_string_checks=1"
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_stack_use_after_return=1"
	UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=86"
	UBSAN_OPTIONS="$UBSAN_OPTIONS:log_path=$report/ubsan"
	export ASAN_OPTIONS UBSAN_OPTIONS
fi
# The Check suites' time limits guard against hangs, not slowness: on a
# loaded machine (the suites beside other jobs) give them four times
# their time; slower programs (sanitizers, valgrind) ten times.
CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-4}
export CK_TIMEOUT_MULTIPLIER
if [ "${SANITIZE:-}" = 1 ] || [ "${VALGRIND:-}" = 1 ]; then
	[ "$CK_TIMEOUT_MULTIPLIER" -ge 10 ] || CK_TIMEOUT_MULTIPLIER=10
	export CK_TIMEOUT_MULTIPLIER
	if [ ! -x "$bindir/sst-flatten" ]; then
		echo "run.sh: no $bindir/sst-flatten: build first" >&2
		exit 2
	fi
	mkdir -p "$out/path"
	for p in "$top"/pipelines/*; do
		ln -s "$p" "$out/path/"
	done
fi
if [ "${VALGRIND:-}" = 1 ]; then
	report=$out/valgrind
	mkdir -p "$report"
	# Errors and definite leaks: exit status 99 and a non-empty log.
	VG="valgrind -q --error-exitcode=99 --leak-check=full"
	VG="$VG --errors-for-leak-kinds=definite --log-file=$report/%p"
	# Kept apart: the storage of threads still running at an exit.
	VG="$VG --suppressions=$top/tests/valgrind.supp"
	# valgrind finds the program in PATH, so that its argv[0] is
	# the bare name, as when the shell finds it.
	for p in "$bindir"/*; do
		printf '#!/bin/sh\nPATH=%s:$PATH exec %s %s "$@"\n' \
		    "'$bindir'" "$VG" "${p##*/}" >"$out/path/${p##*/}"
		chmod +x "$out/path/${p##*/}"
	done
	PATH="$out/path:$PATH"
elif [ "${SANITIZE:-}" = 1 ]; then
	for p in "$bindir"/*; do
		ln -s "$p" "$out/path/"
	done
	PATH="$out/path:$PATH"
else
	PATH="$top/bin:$top/pipelines:$PATH"
fi
export PATH FIX CORPUS LC_ALL

# Move the sanitizer or valgrind reports of the last test ($1) to
# $out/reports; false if there was one, its name then in $rep.
reports() {
	rep=
	[ -n "$report" ] || return 0
	for f in "$report"/*; do
		[ -s "$f" ] || { rm -f "$f"; continue; }
		mkdir -p "$out/reports"
		rep="$rep $out/reports/$1.${f##*/}"
		mv "$f" "$out/reports/$1.${f##*/}"
	done
	[ -z "$rep" ]
}

# Is test $1 one that ONLY asks for, and in this SHARD?
picked() {
	case $part in
	pipelines)
		case $1 in pipelines/*) ;; *) return 1 ;; esac ;;
	rest)
		case $1 in pipelines/*) return 1 ;; esac ;;
	esac
	set -f
	for p in $only; do
		case $1 in
		$p)
			set +f
			nth=$((nth + 1))
			[ $((nth % nshard)) -eq $((shard - 1)) ]
			return
			;;
		esac
	done
	set +f
	return 1
}

# Print the reports named in $rep.
showreports() {
	for f in $rep; do
		echo "    $f:"
		grep -v '^ *$' "$f" | head -n 30 | sed 's/^/    /'
	done
}

# One Check suite per tests/unit/test_*.c: a suite that was not built
# is a failure, not a test less.
for src in "$top"/tests/unit/test_*.c; do
	[ -f "$src" ] || continue
	n=$(basename "$src" .c)
	t=$unitdir/$n
	picked "unit/$n" || continue
	if [ ! -x "$t" ]; then
		echo "FAIL unit $n: no $t: build it first (make units)"
		fail=$((fail + 1))
		continue
	fi
	CK_FORK=yes "$t" >"$out/$n.log" 2>&1
	if ! reports "unit_$n"; then
		echo "FAIL unit $n: sanitizer or valgrind report"
		showreports
		fail=$((fail + 1))
		continue
	fi
	line=$(grep 'Checks: ' "$out/$n.log" | tail -n 1)
	c=$(printf '%s\n' "$line" | sed -n 's/.*Checks: \([0-9]*\).*/\1/p')
	f=$(printf '%s\n' "$line" | sed -n 's/.*Failures: \([0-9]*\).*/\1/p')
	e=$(printf '%s\n' "$line" | sed -n 's/.*Errors: \([0-9]*\).*/\1/p')
	if [ -z "$c" ] || [ "$c" -eq 0 ]; then
		echo "FAIL unit $n: no Check summary, or no checks run"
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
	picked "$name" || continue
	if grep -q 'CORPUS' "$d/cmd" && [ ! -d "$CORPUS" ]; then
		echo "skipped: no corpus: $name"
		skip=$((skip + 1))
		continue
	fi
	o="$out/$(printf '%s' "$name" | tr / _)"
	(cd "$d" && bash --posix -o pipefail ./cmd >"$o.out" 2>"$o.err" </dev/null)
	st=$?
	want=0
	[ -f "$d/status" ] && want=$(cat "$d/status")
	# A case that cannot run here (a tool it needs is missing) exits
	# 77 with a line "skipped: why" (stdout or stderr), as automake's
	# tests do.
	if [ "$st" -eq 77 ] && [ "$want" -ne 77 ] &&
	    cat "$o.out" "$o.err" | grep -q '^skipped: '; then
		echo "$(cat "$o.out" "$o.err" | grep -m 1 '^skipped: '): $name"
		skip=$((skip + 1))
		continue
	fi
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
	if ! reports "$(printf '%s' "$name" | tr / _)"; then
		echo "FAIL $name: sanitizer or valgrind report"
		showreports
		ok=0
	fi
	if [ "$ok" -eq 1 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done
# The malformed inputs: one test per row of tests/malformed/cases.tsv
# (see tests/malformed/README).
mdir=$top/tests/malformed
gen=$out/malformed
mkdir -p "$gen"
tab=$(printf '\t')
while IFS= read -r row; do
	case $row in ''|'#'*) continue ;; esac
	IFS=$tab read -r id prog args input want st outto <<EOF
$row
EOF
	name=malformed/$id
	picked "$name" || continue
	o="$out/malformed_$id"
	dir=$mdir/in
	stdin=/dev/null
	case $input in
	@*)
		dir=$gen
		input=${input#@}
		[ -f "$gen/$input" ] || sh "$mdir/gen.sh" "$input" \
		    >"$gen/$input" ;;
	'<'*)
		stdin=${input#<}
		input= ;;
	-)
		input= ;;
	esac
	[ "$args" = - ] && args=
	[ "$want" = - ] && want=
	[ "$outto" = full ] && outto=/dev/full || outto=$o.out
	(cd "$dir" && eval "set -- $args" &&
	    if [ -n "$input" ]; then set -- "$@" "$input"; fi &&
	    exec "$prog" "$@" <"$stdin" >"$outto" 2>"$o.err")
	got=$?
	ok=1
	if [ "$got" -ne "$st" ]; then
		echo "FAIL $name: exit status $got, expected $st"
		ok=0
	fi
	if [ -n "$want" ]; then
		# \n in the field separates the lines of the message.
		printf '%s\n' "$want" | sed 's/\\n/\
/g' >"$o.want"
	else
		: >"$o.want"
	fi
	if ! cmp -s "$o.want" "$o.err"; then
		echo "FAIL $name: stderr differs"
		diff "$o.want" "$o.err" | head -n 6 | sed 's/^/    /'
		ok=0
	fi
	# Standard output: exactly out/ID, or what the script out/ID.sh
	# writes (the outputs too big to keep), or nothing.
	if [ "$outto" != /dev/full ]; then
		if [ -f "$mdir/out/$id" ]; then
			cp "$mdir/out/$id" "$o.wantout"
		elif [ -f "$mdir/out/$id.sh" ]; then
			(cd "$mdir/in" && GEN="sh $mdir/gen.sh" \
			    sh "$mdir/out/$id.sh") >"$o.wantout"
		else
			: >"$o.wantout"
		fi
		if ! cmp -s "$o.wantout" "$o.out"; then
			echo "FAIL $name: stdout differs"
			if [ -s "$o.wantout" ] && [ -s "$o.out" ]; then
				diff "$o.wantout" "$o.out" | cut -c 1-200 |
				    head -n 6 | sed 's/^/    /'
			else
				echo "    expected $(wc -c <"$o.wantout") bytes," \
				    "got $(wc -c <"$o.out")"
			fi
			ok=0
		fi
		rm -f "$o.wantout"
	fi
	if ! reports "malformed_$id"; then
		echo "FAIL $name: sanitizer or valgrind report"
		showreports
		ok=0
	fi
	if [ "$ok" -eq 1 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done <"$mdir/cases.tsv"
rm -rf "$gen"

finish
