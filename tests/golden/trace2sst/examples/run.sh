# Run every example of man/trace2sst.1, in order, in one shell inside a
# fresh directory holding the files the examples name (small traces
# written here, times in whole seconds), and print each example's output
# after a line "== example N"; bash -e -o pipefail stops at a failing
# stage, and "== status N" ends the output.
top=$FIX/../..
dir=$(mktemp -d "${TMPDIR:-/tmp}/trex.XXXXXXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
mkdir compiled_graph_torch_profiles
x() {	# an X event: cat name pid tid ts(s) dur(s) [correlation]
	printf ' {"ph": "X", "cat": "%s", "name": "%s", "pid": %s, "tid": %s, "ts": %s, "dur": %s%s}' \
	    "$1" "$2" "$3" "$4" $(($5 * 1000000)) $(($6 * 1000000)) "${7:+, \"args\": {\"correlation\": $7\}}"
}
{ echo '{"traceEvents": ['; x cpu_op aten::mm 1 1 0 2; echo ']}'; } \
    >compiled_graph_torch_profiles/vm_1.200.pt.trace.json
{ echo '{"traceEvents": ['; x cpu_op aten::relu 1 1 0 3; echo ']}'; } \
    >compiled_graph_torch_profiles/vm_1.30.pt.trace.json
d=ray/dag/compiled_dag_node.py
{ echo '{"traceEvents": ['
  x python_function "$d(110): exec_operation" 5 5 0 20; echo ,
  x python_function "$d(71): _read" 5 5 0 4; echo ,
  x python_function "<built-in method recv of socket object at 0x7f3a00>" \
      5 5 1 2; echo ,
  x python_function "$d(80): _compute" 5 5 4 10; echo ,
  x python_function "user_actors.py(60): double" 5 5 4 9; echo ,
  x cpu_op aten::mm 5 5 5 7; echo ,
  x python_function "$d(90): _write" 5 5 14 6; echo
  echo ']}'; } >compiled_graph_torch_profiles/vm_23535.5.pt.trace.json
{ echo '{"traceEvents": ['
  x cpu_op aten::mm 1 1 0 10; echo ,
  x cuda_runtime cudaLaunchKernel 1 1 1 1 7; echo ,
  x cuda_runtime cudaMemcpyAsync 1 1 5 1 8; echo ,
  x kernel ampere_sgemm_32x32_sliced1x4_tn 0 7 3 4 7; echo ,
  x gpu_memcpy "Memcpy HtoD" 0 7 8 1 8; echo
  echo ']}'; } >rank0.json
awk '
	/^\.Sh EXAMPLES/ { ex = 1 }
	/^\.Sh SEE ALSO/ { ex = 0 }
	ex && /^\.Bd -literal/ { n++; printf "echo \"== example %d\"\n", n; on = 1; next }
	/^\.Ed/ { on = 0; next }
	on { gsub(/\\e/, "\\"); print }
' "$top/man/trace2sst.1" >examples.sh
bash -e -o pipefail examples.sh 2>&1
echo "== status $?"
