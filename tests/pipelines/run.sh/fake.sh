#!/bin/sh
# fake.sh [VAR=VALUE ...]: run a copy of tests/run.sh in a tree of its
# own that has one Check suite source (tests/unit/test_x.c) but no
# build/tests, one golden case (golden/true/ok) and an empty malformed
# table, with the given variables set; print its output with the
# tree's path written as TOP, then its exit status.
t=$(mktemp -d "${TMPDIR:-/tmp}/fake.XXXXXXXXXX") || exit 1
trap 'rm -rf -- "$t"' EXIT
trap 'exit 1' HUP INT PIPE TERM
mkdir -p "$t/tests/unit" "$t/tests/malformed" "$t/tests/golden/true/ok" \
    "$t/bin" "$t/pipelines"
cp ../../../run.sh "$t/tests/run.sh"
: >"$t/tests/unit/test_x.c"
: >"$t/tests/malformed/cases.tsv"
echo true >"$t/tests/golden/true/ok/cmd"
: >"$t/tests/golden/true/ok/out"
env -u ONLY -u SHARD -u TESTOUT -u SANITIZE -u VALGRIND "$@" sh "$t/tests/run.sh" >"$t/log" 2>&1
st=$?
sed "s|$t|TOP|g" "$t/log"
echo "status $st"
