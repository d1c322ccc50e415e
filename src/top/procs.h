/* procs.h: the process sampler of `hpmstat top` on the perf back end.
 *
 * Owns: the /proc scan (CPU time per process between two samples), the
 * choice of the busiest N, and their per-task software counters
 * (task-clock, context-switches, page-faults: one perf group on the pid,
 * any CPU, which this host allows for its own processes even at
 * perf_event_paranoid 2). Counters are opened when a process enters the
 * busiest N and closed when it leaves or exits, so at most 3 x N fds are
 * open. A counter that cannot be opened (another user's process, a kernel
 * thread, a process gone between the scan and the open) stays NAN: '-'.
 */
#ifndef HPM_TOP_PROCS_H
#define HPM_TOP_PROCS_H

#include <stdbool.h>

#include "top/top.h"

struct top_procs *top_procs_new(void);
/* Scans /proc (HPMSTAT_PROCFS when set), picks the busiest n processes
 * (only `pid` when pid > 0) and fills *out (malloc'ed, *nout rows) with
 * the perf columns of enum top_pcol; *total is the number of processes.
 * interval: seconds since the previous sample (0: the first). With sticky,
 * processes that exited since they were shown stay, marked exited.
 * Returns 0 (why: "" or a note, such as counters that could not open for
 * want of descriptors), or -errno when /proc could not be listed or a
 * process's stat read for another reason than its exit (EMFILE under a
 * low fd limit): why says so, *out is NULL with no rows, and the previous
 * scan stays as the base of the next one (the processes did not exit). */
int top_procs_sample(struct top_procs *p, double interval, unsigned n, int pid, bool sticky,
                     struct top_proc **out, unsigned *nout, unsigned *total, char *why,
                     size_t whylen);
/* With `on`, each process sampled is followed by a row per other thread of
 * it (/proc/PID/task: tgid, thread set; %CPU its own, the counters '-'). */
void top_procs_set_threads(struct top_procs *p, bool on);
/* What any task source's row t (its pid and tgid set) shows of the task
 * besides its counts, from <procfs>: its state letter in t->extra when
 * that is empty (R, S, D, Z, T, ...), its user, and the VIRT, RES
 * (bytes) and NI columns. A task gone meanwhile keeps them empty / NAN.
 * p caches the user names. */
void top_procs_host_info(struct top_procs *p, struct top_proc *t);
void top_procs_free(struct top_procs *p);

#endif
