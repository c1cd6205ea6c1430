# raycollapse.awk: a model of the collapsing rules of Ray's perf.py
# (generate_collapsed_stacks), written from its behaviour to check
# perf2sst's default view against.  Reads `perf script` text, writes one
# "comm;outer;...;leaf 1" line per sample, as that script does.  ASCII
# input only: Python's wider idea of white space is not modelled.
function rstrip(s) {
	sub(/[ \t\r\n\v\f]+$/, "", s)
	return s
}
function flush() {
	if (n == 0)
		return
	out = comm != "" ? comm ";" : ""
	for (i = n; i >= 1; i--)
		out = out st[i] (i > 1 ? ";" : "")
	print out " 1"
	n = 0
	comm = ""
}
{
	line = rstrip($0)
	if (line == "") {
		flush()
		next
	}
	if (line ~ /^[ \t]/) {
		sub(/^[ \t\r\n\v\f]+/, "", line)
		p = index(line, " ")
		if (p == 0)
			next
		addr = substr(line, 1, p - 1)
		rest = substr(line, p + 1)
		dso = ""
		# The last " (" of rest: a greedy match ends there.
		if (rest ~ /\)$/ && match(rest, /.* \(/)) {
			q = RLENGTH - 1
			dso = substr(rest, q + 2, length(rest) - q - 2)
			sub(/^[ \t\r\n\v\f]+/, "", dso)
			dso = rstrip(dso)
			rest = substr(rest, 1, q - 1)
		}
		sub(/\+0x[0-9a-f]+$/, "", rest)
		gsub(/;/, ":", rest)
		if (rest == "[unknown]") {
			if (dso != "" && dso != "unknown" && dso != "[unknown]") {
				b = dso
				sub(/.*\//, "", b)
				gsub(/;/, ":", b)
				rest = "unk_" b "@0x" addr
			} else
				rest = "unk_0x" addr
		}
		st[++n] = rest
		next
	}
	if (match(line, /^[ \t\r\n\v\f]*[^ \t\r\n\v\f]+[ \t\r\n\v\f]+[0-9]/)) {
		h = line
		sub(/^[ \t\r\n\v\f]*/, "", h)
		sub(/[ \t\r\n\v\f].*/, "", h)
		comm = h
	}
}
END {
	flush()
}
