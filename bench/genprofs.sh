#!/bin/sh
# genprofs.sh [-n profiles]: a speedscope document of many small
# profiles listed before "shared", on standard output: the case of
# sst-flatten's pending profiles (issue 34), each held until the
# frames at the end are read.  Profile i (from 0) is named "tI",
# samples one stack of two frames, [i % 64, 64 + i % 7], of weight
# 1 + i % 5 (unit "none"); 71 frames f0 ... f70.  300,000 profiles
# (the default) make about 23 MB.  Deterministic: the same -n gives the
# same bytes.
n=300000
while getopts n: o; do
	case $o in
	n) n=$OPTARG ;;
	*) echo "usage: genprofs.sh [-n profiles]" >&2; exit 2 ;;
	esac
done
exec awk -v n="$n" 'BEGIN {
	printf "{\"$schema\":\"https://www.speedscope.app/"
	printf "file-format-schema.json\",\"profiles\":["
	for (i = 0; i < n; i++) {
		printf "%s{\"type\":\"sampled\",\"name\":\"t%d\",", \
		    i ? "," : "", i
		printf "\"unit\":\"none\",\"samples\":[[%d,%d]]," \
		    "\"weights\":[%d]}", i % 64, 64 + i % 7, 1 + i % 5
	}
	printf "],\"shared\":{\"frames\":["
	for (i = 0; i < 71; i++)
		printf "%s{\"name\":\"f%d\"}", i ? "," : "", i
	printf "]}}\n"
}'
