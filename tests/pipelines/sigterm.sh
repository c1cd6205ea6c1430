#!/bin/sh
# sigterm.sh PIPELINE [ARG ...]: whether PIPELINE removes its temporary
# files when it is killed.  It runs in a process group of its own, with
# TMPDIR an empty directory, its argument FIFO replaced by the path of a
# FIFO.  Once a writer has that FIFO open (so a filter of the pipeline
# has it open to read, after the temporary directory was made and the
# traps set), the whole group gets SIGTERM, as from a terminal's kill.
# Prints the pipeline's exit status, its standard error (which should
# be empty) and the names left in TMPDIR.
set -u
work=$(mktemp -d "${TMPDIR:-/tmp}/sigterm.XXXXXXXXXX") || exit 1
wpid=
trap 'rm -rf -- "$work"; [ -z "$wpid" ] || kill "$wpid" 2>/dev/null' EXIT
mkdir "$work/tmp" && mkfifo "$work/fifo" || exit 1
prog=$1
shift
for a; do
	[ "$a" = FIFO ] && a=$work/fifo
	set -- "$@" "$a"
	shift
done

# Not a group leader (no job control here), so setsid(1) does not fork.
TMPDIR=$work/tmp setsid "$prog" "$@" >/dev/null 2>"$work/err" &
pid=$!
sleep 60 >"$work/fifo" &
wpid=$!
# The writer's open returns, and it becomes sleep, once a reader opens.
i=0
while [ "$(cat "/proc/$wpid/comm" 2>/dev/null)" != sleep ]; do
	i=$((i + 1))
	if [ "$i" -gt 400 ]; then
		echo "sigterm.sh: $prog never opened the FIFO" >&2
		kill -s TERM -- "-$pid"
		exit 1
	fi
	sleep 0.05
done
kill -s TERM -- "-$pid"
# (Without the shell's own "Terminated" on its standard error.)
{ wait "$pid"; st=$?; } 2>/dev/null
# The rest of the group (GNU parallel, the jobs) may still be cleaning
# up after the script itself ended: list TMPDIR once all of it is gone
# (5 s at most), or the listing races their removal of their files.
i=0
while kill -0 -- "-$pid" 2>/dev/null && [ "$i" -lt 100 ]; do
	i=$((i + 1))
	sleep 0.05
done
echo "status $st"
# The script's shell may report "Terminated" for the filter it was
# waiting for, or may die first: that line is left out either way.
echo "stderr:"
grep -vx Terminated "$work/err"
echo "left: $(ls -A "$work/tmp")"
