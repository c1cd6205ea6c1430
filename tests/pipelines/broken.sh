#!/bin/sh
# broken.sh FILTER PIPELINE [ARG ...]: run a copy of PIPELINE beside the
# filters it finds in PATH, except FILTER, which is replaced by one that
# says "FILTER: broken" on standard error, writes a partial line and
# exits 1: so that a test can show that a failing stage of a pipeline
# makes the whole fail.  Prints nothing itself; the exit status is
# PIPELINE's.
set -u
d=$(mktemp -d "${TMPDIR:-/tmp}/broken.XXXXXXXXXX") || exit 1
trap 'rm -rf -- "$d"' EXIT
trap 'exit 1' HUP INT PIPE TERM
f=$1 p=$2
shift 2
bin=$(dirname -- "$(command -v sst-flatten)")
for x in "$bin"/*; do
	ln -s "$x" "$d/"
done
# (Not through the link just made, which may lead to the original.)
src=$(command -v "$p")
rm -f -- "$d/$p" "$d/$f"
cp -- "$src" "$d/$p"
printf '#!/bin/sh\necho "%s: broken" >&2\nprintf partial\nexit 1\n' "$f" \
    >"$d/$f"
chmod +x "$d/$f"
"$d/$p" "$@"
