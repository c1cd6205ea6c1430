#!/bin/sh
# tests/malformed/gen.sh NAME: write the generated input NAME (a row
# of cases.tsv whose input is @NAME) to standard output.  These inputs
# are too big to keep in the tree.
n=1000000	# frames of the huge stacks
case $1 in
deep.json)
	# One more level than JSON_MAXDEPTH (1024), in a member that
	# sst-flatten skips.
	awk 'BEGIN { printf "{\"x\":"; for (i = 0; i < 1025; i++)
	    printf "["; for (i = 0; i < 1025; i++) printf "]"; print "}" }' ;;
longtoken.json)
	# A string 1 MiB longer than JSON_MAXTOKEN (64 MiB).
	printf '{"x":"'
	head -c 68157440 /dev/zero | tr '\0' a
	printf '"}\n' ;;
deepstack.json)
	awk -v n=$n 'BEGIN { printf "{\"shared\":{\"frames\":[{\"name\":" \
	    "\"a\"},{\"name\":\"b\"}]},\"profiles\":[{\"type\":" \
	    "\"sampled\",\"samples\":[[0"
	    for (i = 1; i < n; i++) printf ",%d", i % 2
	    print "]],\"weights\":[1]}]}" }' ;;
deepstack.sst)
	awk -v n=$n 'BEGIN { printf "t\t1\t1\tseconds\t1\tf0"
	    for (i = 1; i < n; i++) printf ";f%d", i % 1000
	    printf "\t\n" }' ;;
deepstack.txt)
	awk -v n=$n 'BEGIN { printf "t"
	    for (i = 1; i < n; i++) printf ";f%d", i % 1000
	    printf " 1\n" }' ;;
longline.sst)
	# A record, then a line 1 byte longer than SST_MAXLINE (64 MiB)
	# with no newline.
	printf 't\t1\t1\tseconds\t1\tf\t\n'
	head -c 67108865 /dev/zero | tr '\0' '[' ;;
*)
	echo "gen.sh: unknown input: $1" >&2
	exit 2 ;;
esac
