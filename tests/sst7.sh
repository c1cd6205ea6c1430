#!/bin/sh
# Run every example of man/sst.7, in order, in one shell inside a fresh
# directory holding the profiles the examples name, and print each
# example's output after a line "== example N".  The shell is bash with
# -e and -o pipefail, so that a failing stage of any pipeline stops the
# run there (the examples themselves stay POSIX sh), and "== status N"
# ends the output.
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/sst7.XXXXXXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cp "$top/tests/fixtures/demo.speedscope.json" "$dir/profile.json"
cp "$top/tests/fixtures/cg-perf_xz_fp_collapsed.txt" \
    "$dir/perf_xz_collapsed.txt"
cp "$top/tests/fixtures/pf-xz.txt" "$dir/perf.txt"
gzip -c "$top/tests/fixtures/gpu-two-streams.json" >"$dir/trace.json.gz"
mkdir "$dir/perf"
cp "$top/tests/fixtures/cg-perf_xz_fp_collapsed.txt" \
    "$dir/perf/perf_xz_fp_collapsed.txt"
cp "$top/tests/fixtures/ap-perf_gcc_cjson_fp_collapsed.txt" \
    "$dir/perf/perf_gcc_cjson_fp_collapsed.txt"
awk '
	/^\.Bd -literal/ { n++; printf "echo \"== example %d\"\n", n; on = 1; next }
	/^\.Ed/ { on = 0; next }
	on { gsub(/\\e/, "\\"); print }
' "$top/man/sst.7" >"$dir/examples.sh"
cd "$dir" && bash -e -o pipefail examples.sh 2>&1
echo "== status $?"
