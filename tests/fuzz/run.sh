#!/bin/sh
# tests/fuzz/run.sh SECONDS HARNESS...: run each libFuzzer harness of
# build/fuzz (make fuzz-build) for SECONDS, one after the other, and
# print one line per harness with its executions.  Each starts from a
# seed corpus: the fixtures and golden inputs of its kind (copied into
# build/fuzz/seed/NAME), the regression inputs of tests/fuzz/corpus/NAME
# and, when it is there, the public corpus read in place.  New inputs go
# to build/fuzz/corpus/NAME and are kept for the next run; a crash is
# saved in build/fuzz/crash/NAME/ and ends the run with status 1.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
secs=$1
shift
fz=build/fuzz
corpus=${CORPUS:-$top/../shared/corpus}
fail=0

# Copy the files named by the patterns into dir (skipping big ones).
seed() {
	dir=$1
	shift
	for f in "$@"; do
		[ -f "$f" ] || continue
		[ "$(wc -c <"$f")" -le 65536 ] || continue
		cp "$f" "$dir/$(printf '%s' "$f" | tr / _)"
	done
}

for h in "$@"; do
	s=$fz/seed/$h
	rm -rf "$s"
	mkdir -p "$s" "$fz/corpus/$h" "$fz/crash/$h"
	extra=
	[ -d "tests/fuzz/corpus/$h" ] && extra=tests/fuzz/corpus/$h
	maxlen=16384
	case $h in
	json|spd)
		seed "$s" tests/fixtures/*.json tests/golden/sst-flatten/*/in \
		    tests/golden/sst-categories/*/*.json
		[ "$h" = json ] && [ -d "$corpus/JSONTestSuite" ] &&
		    extra="$extra $corpus/JSONTestSuite"
		[ "$h" = spd ] && [ -d "$corpus/speedscope-other" ] &&
		    extra="$extra $corpus/speedscope-other" ;;
	rec)
		seed "$s" tests/fixtures/*.sst tests/fixtures/*.z \
		    tests/golden/sst-*/*/in ;;
	collapsed)
		seed "$s" tests/fixtures/cg-*.txt \
		    tests/golden/collapsed2sst/*/in* ;;
	categories)
		maxlen=4096
		seed "$s" tests/fixtures/*cats*.json \
		    tests/golden/sst-categories/*/*.json \
		    tests/golden/sst-categories/*/cat* ;;
	cpuprofile)
		seed "$s" tests/golden/cpuprofile2sst/*/in ;;
	gpu)
		seed "$s" tests/golden/sst-gpu/*/*.json \
		    tests/golden/trace2sst/*/in* ;;
	perf2sst)
		maxlen=65536
		seed "$s" tests/golden/perf2sst/*/in* ;;
	pprof2sst)
		seed "$s" tests/malformed/in/pp-*.pb ;;
	esac
	log=$fz/$h.log
	printf 'fuzz_%s: %ss ... ' "$h" "$secs"
	"$fz/fuzz_$h" -max_total_time="$secs" -max_len=$maxlen -timeout=20 \
	    -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix="$fz/crash/$h/" \
	    "$fz/corpus/$h" "$s" $extra >"$log" 2>&1
	st=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	if [ "$st" -eq 0 ]; then
		echo "${runs:-?} runs, $cov, ok"
	else
		echo "FAILED (status $st), see $log:"
		grep -E 'BUG|ERROR|SUMMARY|Test unit written' "$log" |
		    sed 's/^/    /'
		fail=1
	fi
done
exit $fail
