#!/bin/sh
# smallfs.sh DIR CMD [ARG ...]: run CMD with a 4 KiB tmpfs mounted on
# DIR (a directory that exists), in a mount namespace of its own, so
# that a test can fill a file system: one page holds one small file.
# As root, or else in a user namespace of its own.
set -u
if [ "$(id -u)" -eq 0 ]; then
	ns=-m
else
	ns=-rm
fi
exec unshare "$ns" sh -c 'mount -t tmpfs -o size=4k tmpfs "$1" || exit 1
shift
exec "$@"' sh "$@"
