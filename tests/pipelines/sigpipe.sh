#!/bin/sh
# sigpipe.sh PROG [ARG ...]: whether PROG stops quietly and removes its
# temporary files when its standard output is a pipe that nobody reads
# (as after "| head -c1").  The pipe is a FIFO opened for writing whose
# readers have all closed it before PROG starts, so that its first
# write fails with EPIPE, every time.  PROG runs with TMPDIR an empty
# directory; prints its exit status, its standard error and the names
# left in TMPDIR.
set -u
work=$(mktemp -d "${TMPDIR:-/tmp}/sigpipe.XXXXXXXXXX") || exit 1
trap 'rm -rf -- "$work"' EXIT
mkdir "$work/tmp" && mkfifo "$work/fifo" || exit 1
exec 4<>"$work/fifo"	# a reader, so that the writer's open returns
exec 5>"$work/fifo"
exec 4<&-		# no reader left
TMPDIR=$work/tmp "$@" >&5 2>"$work/err"
echo "status $?"
exec 5>&-
echo "stderr:"
cat "$work/err"
echo "left: $(ls -A "$work/tmp")"
