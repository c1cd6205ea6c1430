#!/bin/sh
# fake.sh [VAR=VALUE ...]: run a copy of tests/run.sh in a tree of its
# own that has one Check suite source (tests/unit/test_x.c) but no
# build/tests, two golden cases (golden/true/ok, and golden/pipe/left
# whose pipeline's first stage fails with status 3) and an empty
# malformed table, with the given variables set; print its output with the
# tree's path written as TOP, then its exit status.
t=$(mktemp -d "${TMPDIR:-/tmp}/fake.XXXXXXXXXX") || exit 1
trap 'rm -rf -- "$t"' EXIT
trap 'exit 1' HUP INT PIPE TERM
mkdir -p "$t/tests/unit" "$t/tests/malformed" "$t/tests/golden/true/ok" \
    "$t/tests/golden/pipe/left" "$t/bin" "$t/pipelines"
cp ../../../run.sh "$t/tests/run.sh"
: >"$t/tests/unit/test_x.c"
: >"$t/tests/malformed/cases.tsv"
echo true >"$t/tests/golden/true/ok/cmd"
: >"$t/tests/golden/true/ok/out"
echo "sh -c 'echo x; exit 3' | cat" >"$t/tests/golden/pipe/left/cmd"
echo x >"$t/tests/golden/pipe/left/out"
echo 3 >"$t/tests/golden/pipe/left/status"
env -u ONLY -u SHARD -u TESTOUT -u SANITIZE -u VALGRIND -u JOBS \
    -u SST_PART "$@" sh "$t/tests/run.sh" >"$t/log" 2>&1
st=$?
sed "s|$t|TOP|g" "$t/log"
echo "status $st"
