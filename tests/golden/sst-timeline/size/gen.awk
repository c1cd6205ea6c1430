# 200,000 spans as trace2sst -s writes them: 4 threads, each 5,000
# steps "step#J" of 1 ms end to end, each step 0.1 ms of its own and
# nine children "opM" of 0.1 ms from its start.
BEGIN {
	for (t = 1; t <= 4; t++)
		for (j = 0; j < 5000; j++) {
			s = j * 0.001
			printf "T%d\t1\t0.0001\tseconds\t0.0001\tstep#%d\t\t%.4f\n", t, j, s
			for (m = 0; m < 9; m++)
				printf "T%d\t1\t0.0001\tseconds\t0.0001\tstep#%d;op%d\t\t%.4f\n", t, j, m, s + m * 0.0001
		}
}
