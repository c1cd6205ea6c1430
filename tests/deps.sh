#!/bin/sh
# Install the Debian packages named in the arguments when one is missing.
# Used by "make check", "make demo" and "make lint" on a fresh machine.
missing=
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	    grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing" >&2
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
$SUDO apt-get update -qq && $SUDO apt-get install -y -qq $missing >&2
