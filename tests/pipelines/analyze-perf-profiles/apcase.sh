#!/bin/sh
# One case of analyze-perf-profiles: apcase.sh SCENARIO [option ...].
# Lay out the scenario's files in a new temporary directory, run
# analyze-perf-profiles with the options given on it, and print its
# standard output, its exit status, the summary it wrote and the files
# left in the directory with the MD5 of each JSON file.  Its messages
# go to the standard error as they are.  ANALYZE_PERF_PROFILES names
# another implementation to run instead (the reference, through a
# wrapper taking the same arguments), to make the expected outputs.
#
# Every out and err here is what this script printed with the reference
# analyze_perf_profiles.sh (bash, Python 3.11, LC_ALL=C), which has no
# -j; the fail cases, which the reference cannot run (it stops at the
# first failure), were edited by hand from its run on the same files:
# perf_b's conversion output cut after its stand-in's line, perf_b's
# JSON and summary section removed, perf_c's listing replaced by the
# stand-in's, the status set to 1 and err written by hand.
top=$(cd "$(dirname "$0")/../../.." && pwd) || exit 1
scenario=$1
shift
prog=${ANALYZE_PERF_PROFILES:-$top/pipelines/analyze-perf-profiles}
fix=$top/tests/fixtures
xz=$fix/cg-perf_xz_fp_collapsed.txt
gcc=$fix/ap-perf_gcc_cjson_fp_collapsed.txt

work=$(mktemp -d "${TMPDIR:-/tmp}/apcase.XXXXXXXXXX") || exit 1
trap 'rm -rf -- "$work"' EXIT
trap 'exit 1' HUP INT PIPE TERM
dir=$work/profiles
mkdir "$dir" || exit 1
arg=$dir

case $scenario in
two|concurrent)
	cp "$xz" "$dir/perf_xz_fp_collapsed.txt" &&
	    cp "$gcc" "$dir/perf_gcc_cjson_fp_collapsed.txt" || exit 1 ;;
corpus)
	for n in gcc_cjson_fp python311_fp system_wide_a xz_fp; do
		cp "$CORPUS/perf/perf_${n}_collapsed.txt" "$dir/" || exit 1
	done
	chmod u+w "$dir"/* ;;
names)
	# Odd file names, in a directory whose name starts with a dash,
	# given as a relative path; and files that are not converted.
	dir="$work/-my dir"
	arg="-my dir"
	mkdir "$dir" || exit 1
	for n in 'with space' "new
line" 'tab	tab' '-dash' '$(echo no)*?[x]' "quote'\"" 'back\sl\n' \
	    'pct%s%d' ''; do
		cp "$xz" "$dir/perf_${n}_collapsed.txt" || exit 1
	done
	ln -s 'perf_with space_collapsed.txt' "$dir/perf_link_collapsed.txt"
	ln -s nowhere "$dir/perf_dangling_collapsed.txt"
	mkdir "$dir/perf_dir_collapsed.txt"
	cp "$xz" "$dir/perf_xz_collapsed_pid.txt"
	cp "$xz" "$dir/xz_collapsed.txt" || exit 1 ;;
empty)
	echo 'not a profile' >"$dir/notes.txt" ;;
warnings)
	# Count weights, malformed lines and bad weights, in two files, so
	# that the warnings of both come in order.
	printf 'main;f 3\nmain;g 2\nbad\nmain;f x\n\nmain;h 1\n' \
	    >"$dir/perf_a_collapsed.txt"
	printf 't1;a 5\noops\nt2;b 7.5\n' >"$dir/perf_b_collapsed.txt"
	: >"$dir/perf_c_collapsed.txt" ;;
fail)
	# Stand-ins beside a copy of the script: the conversion of perf_b
	# and the listing of perf_c fail, the rest are the real ones.
	bin=$work/bin
	mkdir "$bin" &&
	    cp "$top/pipelines/analyze-perf-profiles" "$bin/" || exit 1
	cat >"$bin/collapsed-to-speedscope" <<EOF
#!/bin/sh
if [ "\$1" = perf_b_collapsed.txt ]; then
	echo "Reading \$1..."
	echo "stand-in: cannot convert \$1" >&2
	exit 1
fi
exec "$top/pipelines/collapsed-to-speedscope" "\$@"
EOF
	cat >"$bin/analyze-pyspy-profile" <<EOF
#!/bin/sh
if [ "\$1" = perf_c.speedscope.json ]; then
	echo "partial listing"
	echo "stand-in: cannot list \$1" >&2
	exit 1
fi
exec "$top/pipelines/analyze-pyspy-profile" "\$@"
EOF
	chmod +x "$bin/collapsed-to-speedscope" "$bin/analyze-pyspy-profile"
	prog=${ANALYZE_PERF_PROFILES:-$bin/analyze-perf-profiles}
	for n in a b c d; do
		cp "$xz" "$dir/perf_${n}_collapsed.txt" || exit 1
	done ;;
*)
	echo "apcase: unknown scenario: $scenario" >&2
	exit 1 ;;
esac

if [ "$scenario" = concurrent ]; then
	# Two runs at once in one directory: each prints what a run alone
	# prints, and the summary is one run's, whichever renames last.
	(cd "$work" && "$prog" "$@" -- "$arg" >"$work/o1" 2>"$work/e1") &
	p1=$!
	(cd "$work" && "$prog" "$@" -- "$arg" >"$work/o2" 2>"$work/e2")
	s2=$?
	wait "$p1"
	s1=$?
	for r in 1 2; do
		echo "== stdout $r"
		cat "$work/o$r"
		cat "$work/e$r" >&2
	done
	echo "== status $s1 $s2"
else
	echo "== stdout"
	(cd "$work" && "$prog" "$@" -- "$arg")
	echo "== status $?"
fi
echo "== perf_thread_summary.txt"
cat "$dir/perf_thread_summary.txt"
echo "== files"
cd "$dir" || exit 1
for f in * .*; do
	[ -e "$f" ] || [ -L "$f" ] || continue
	case $f in
	.|..) continue ;;
	*.json) printf '%s %s\n' "$(md5sum <"$f" | cut -c 1-32)" "$f" ;;
	*) printf '%s\n' "$f" ;;
	esac
done
