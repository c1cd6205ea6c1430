# Every program of filters/ prints its usage for -h and --help on
# standard output with status 0, and each option letter of its usage
# line is one that tests/options.tsv gives it; each program that the
# table lists under a letter takes that letter.
top=$FIX/../..
tsv=$top/tests/options.tsv
bad=0
for src in "$top"/filters/*.c; do
	p=${src##*/}
	p=${p%.c}
	u=$("$p" -h 2>/dev/null)
	st=$?
	[ "$st" -eq 0 ] || { echo "$p: -h: status $st"; bad=1; }
	case $u in
	"usage: $p"*) ;;
	*) echo "$p: -h: no usage on standard output"; bad=1; continue ;;
	esac
	[ "$("$p" --help 2>/dev/null)" = "$u" ] ||
	    { echo "$p: --help differs from -h"; bad=1; }
	letters=$(printf '%s\n' "$u" | awk 'NR == 1 {
	    for (i = 2; i <= NF; i++) {
		t = $i
		if (t !~ /^\[?-[A-Za-z]/)
			continue
		sub(/^\[?-/, "", t)
		if (t ~ /\]$/) {
			sub(/\]$/, "", t)
			for (k = 1; k <= length(t); k++)
				print substr(t, k, 1)
		} else
			print substr(t, 1, 1)
	    } }')
	for l in $letters; do
		awk -F'\t' -v l="$l" -v p="$p" '
		    $1 == l { n = split($4, a, " ")
			for (i = 1; i <= n; i++)
				if (a[i] == p || a[i] == "*")
					found = 1 }
		    END { exit !found }' "$tsv" ||
		    { echo "$p: -$l is not in tests/options.tsv for $p"; bad=1; }
	done
	for l in $(awk -F'\t' -v p="$p" '!/^#/ { n = split($4, a, " ")
	    for (i = 1; i <= n; i++) if (a[i] == p) print $1 }' "$tsv"); do
		case " $(echo $letters) " in
		*" $l "*) ;;
		*) echo "$p: tests/options.tsv gives it -$l, its usage does not"
		    bad=1 ;;
		esac
	done
done
awk -F'\t' '!/^#/ && seen[$1]++ { print "tests/options.tsv: -" $1 " twice" }
    !/^#/ && NF != 4 { print "tests/options.tsv:" NR ": not 4 fields" }' "$tsv"
[ "$bad" -eq 0 ] && echo ok
