#!/bin/sh
# corpus-compare.sh BINDIR OUTDIR: run every program of BINDIR with its
# main options over the corpus (../shared/corpus, or $CORPUS) and
# tests/fixtures, writing each run's standard output, standard error
# and exit status into OUTDIR (one file per run, named after the
# program, the options and the input).  Two such directories, made by
# two builds, are compared with diff -r: a change that only moves code
# must leave no difference.
#
#	sh tests/tools/corpus-compare.sh /tmp/before-bin /tmp/cmp-before
#	sh tests/tools/corpus-compare.sh bin /tmp/cmp-after
#	diff -r /tmp/cmp-before /tmp/cmp-after
#
# Readers run on every input file (most files are not in their format:
# the error message is compared too); the stream filters run on each
# stream the readers made from the fixtures, read from standard input so
# that no temporary path shows in a message.  Files over $MAXKB (4096)
# kilobytes are skipped.  Needs sqlite3(1) for nsys2sst.
# shellcheck disable=SC2086
set -u
[ $# -eq 2 ] || { echo "usage: corpus-compare.sh bindir outdir" >&2; exit 2; }
root=$(cd "$(dirname -- "$0")/../.." && pwd) || exit 1
bin=$(cd "$1" && pwd) || exit 1
out=$(mkdir -p "$2" && cd "$2" && pwd) || exit 1
corpus=${CORPUS:-$root/../shared/corpus}
[ -d "$corpus" ] || corpus=/work/wt/shared/corpus
maxkb=${MAXKB:-4096}
rm -rf "$out" && mkdir -p "$out/r" "$out/f" "$out/s" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# A file name for a run: the words joined, slashes and blanks as _.
key() {
	printf '%s' "$*" | tr '/ \t' '___' | cut -c1-200
}

# run DIR NAME PROG ARGS...: PROG's output, errors and status in DIR/NAME.
run() {
	d=$1 n=$2
	shift 2
	p=$1
	shift
	"$bin/$p" "$@" >"$d/$n.out" 2>"$d/$n.err" </dev/null
	echo $? >"$d/$n.rc"
}

# runin DIR NAME INPUT PROG ARGS...: the same with INPUT on stdin.
runin() {
	d=$1 n=$2 in=$3
	shift 3
	p=$1
	shift
	"$bin/$p" "$@" <"$in" >"$d/$n.out" 2>"$d/$n.err"
	echo $? >"$d/$n.rc"
}

# The readers' option sets, one per line: program and options.
readers='sst-flatten
sst-flatten -s
sst-flatten -z
sst-flatten -k inclusive
trace2sst
trace2sst -s
trace2sst -g
trace2sst -A -K
cpuprofile2sst
cpuprofile2sst -s -H
collapsed2sst
collapsed2sst -s
perf2sst
perf2sst -s
perf2sst -F lines
sst-gpu -F temporal -F kernel-types -F kernels -F idle -F overlap -F queue -F annotations -F cpu-annotations -F launch
sst-gpu --hta -F temporal -F kernel-types -F kernels -F idle -F overlap -F queue -F annotations -F cpu-annotations -F launch'

cd "$root" || exit 1
find "$corpus" tests/fixtures -type f -size -"$maxkb"k | LC_ALL=C sort \
    >"$tmp/files"
while IFS= read -r f; do
	rel=${f#"$corpus"/}
	echo "$readers" | while IFS= read -r r; do
		run "$out/r" "$(key "$r $rel")" $r "$f"
	done
done <"$tmp/files"

# nsys2sst: a database per golden .sql file.
for f in tests/golden/nsys2sst/*/*.sql; do
	b=$tmp/$(key "$f").sqlite
	cat tests/nsys/schema.sql "$f" | sqlite3 "$b" 2>/dev/null || continue
	for o in '' '-s' '-H'; do
		runin "$out/r" "$(key "nsys2sst $o $f")" "$b" nsys2sst $o
	done
done

# The streams to filter: every non-empty text stream made from the
# fixtures, plus the fixtures' own .sst files.
for s in "$out"/r/sst-flatten__tests_fixtures_*.out \
    "$out"/r/trace2sst__tests_fixtures_*.out \
    "$out"/r/collapsed2sst__tests_fixtures_*.out \
    "$out"/r/sst-flatten_-s_tests_fixtures_*.out tests/fixtures/*.sst; do
	[ -s "$s" ] && echo "$s"
done >"$tmp/streams"

filters='sst-callees -d 3 main
sst-callers -d 3 main
sst-callers -O -T main
sst-categories
sst-categories -r
sst-dot
sst-dot -n 5
sst-flame
sst-flame -i -R
sst-flame -T --title x
sst-flatten
sst-flatten -z
sst-flatten -k stack
sst-focus a
sst-focus -v -l x
sst-from a
sst-grep-thread a
sst-grep-thread -v -x MainThread
sst-hide a
sst-ignore a
sst-inclusive main
sst-inclusive -r -k stack main
sst-leaf
sst-leaf -r -n 5
sst-merge
sst-merge -L x
sst-prune a
sst-slice -t 0,1
sst-stacks
sst-stacks -n 3
sst-stats
sst-stats -r -n 3
sst-threads
sst-threads -r -U
sst-timeline
sst-tree
sst-tree -n 5 -F folded
sst2collapsed
sst2collapsed -T -w
sst2speedscope
sst2speedscope -S -D d -e e'

i=0
while IFS= read -r s; do
	i=$((i + 1))
	sk=$(key "${s#"$out"/r/}")
	echo "$filters" | while IFS= read -r c; do
		runin "$out/f" "$(key "$c") $i" "$s" $c
	done
	# sst-table reads what the table filters write.
	for c in sst-leaf sst-threads sst-stats sst-tree; do
		"$bin/$c" <"$s" >"$tmp/t" 2>/dev/null || continue
		runin "$out/f" "$(key "sst-table $c") $i" "$tmp/t" sst-table
	done
	# sst-diff against the first stream, both named in $tmp.
	[ -f "$tmp/a.sst" ] || cp "$s" "$tmp/a.sst"
	cp "$s" "$tmp/b.sst"
	(cd "$tmp" && run "$out/f" "$(key "sst-diff") $i" sst-diff a.sst b.sst)
	echo "$i $sk" >>"$out/s/streams"
done <"$tmp/streams"
exit 0
