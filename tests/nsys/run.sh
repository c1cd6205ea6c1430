#!/bin/sh
# run.sh [nsys2sst option ...] -- file.sql ...: build one database per
# file (tests/nsys/schema.sql, then the file's INSERTs) with sqlite3(1)
# in a temporary directory, named after the file (a.sql -> a.sqlite),
# and run nsys2sst on them there with the options; with NSYS_STDIN=1
# the one database is given on standard input.  Exits with nsys2sst's
# status.
schema=$(cd "$(dirname "$0")" && pwd)/schema.sql
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
opts=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	opts="$opts $1"
	shift
done
shift
dbs=
for f; do
	b=$(basename "$f" .sql)
	cat "$schema" "$f" | sqlite3 "$tmp/$b.sqlite" || exit 1
	dbs="$dbs $b.sqlite"
done
cd "$tmp" || exit 1
if [ "${NSYS_STDIN:-0}" = 1 ]; then
	# shellcheck disable=SC2086
	nsys2sst $opts < "${dbs# }"
else
	# shellcheck disable=SC2086
	nsys2sst $opts $dbs
fi
