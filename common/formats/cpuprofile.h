/*
 * cpuprofile.h: Chrome and node .cpuprofile documents as sst records
 * (cpuprofile2sst).
 */
#ifndef CPUPROFILE_H
#define CPUPROFILE_H
#include "buf.h"
#include "json.h"
#include "spd.h"

/*
 * Read one .cpuprofile document from j and hand its records, all of
 * thread thr[0..thrlen) (escaped), to emit: one per distinct stack in
 * the order of its first sample, or with persample one per sample in
 * input order.  0 ok; -1 on malformed input, with a message
 * "name:line:col: what" (or "name: what") in err[0..errlen).
 */
int	 cpuprof_read(struct json *, const char *, size_t, int, spd_emit,
	    void *, char *, size_t);
/*
 * Into the buffer (appended, escaped): the thread of the file at path,
 * "Process PID Thread TID" when its name is node's --cpu-prof default
 * CPU.DATE.TIME.PID.TID.SEQ.cpuprofile, else "Profile".
 */
void	 cpuprof_thread(struct buf *, const char *);
#endif
