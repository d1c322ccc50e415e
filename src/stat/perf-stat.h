/* perf-stat.h: the file of `hpmstat stat record`, in the format of `perf
 * stat record` (perf.data with PERF_RECORD_STAT records), so that `perf
 * stat report -i FILE` prints what hpmstat counted.
 *
 * Owns: how a stat run becomes perf's records: one attr per row (a host
 * event's own attr; an emulated event as a raw event of its mhpmevent
 * value, its fixed cycle and instret counters as perf's cycles and
 * instructions; a tool event as perf writes duration_time, a software
 * dummy), each with its name, unit and scale (EVENT_UPDATE); the thread and
 * CPU maps and the STAT_CONFIG that perf stat report needs before any
 * count; for each round (an -I interval, or the end of the run) one STAT
 * record per row and CPU holding the cumulative raw count with its enabled
 * and running times, then a STAT_ROUND (INTERVAL with the time since
 * counting started, or FINAL with the wall time). A system-wide run whose
 * rows all count on the same CPUs keeps a STAT per CPU (perf stat report
 * -A shows them); any other run one STAT per row, the sum of its units (a
 * hart's, a thread's), on "any CPU" as perf stat record writes a command's
 * counts. A file (not a pipe) also carries the STAT feature, the command
 * line, the host and hpmstat's own run file (PERF_FEAT_HPM_RUN).
 *
 * The perf.data layout itself is perfdata/writer.c's. Never prints, never
 * exits: errors are negative errno values (perf_writer_strerror).
 */
#ifndef HPM_STAT_PERF_STAT_H
#define HPM_STAT_PERF_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/evlist.h"

struct stat_perf;

/* A recording onto f: perf's pipe format when pipe, else a file (f
 * seekable). argv (argc words, borrowed until stat_perf_finish) is the
 * command line the file names, interval_ms -I's period (0 without). The
 * file starts with the first round, when the rows are open. */
struct stat_perf *stat_perf_new(FILE *f, bool pipe, int argc, char **argv, double interval_ms);
/* One round of the rows of l: their cumulative counts, then an INTERVAL
 * round at time_ns since counting started, or the FINAL round with the
 * run's wall time. 0 or -errno (also for an earlier failure). */
int stat_perf_round(struct stat_perf *p, const struct hpm_evlist *l, bool final, uint64_t time_ns);
/* Ends the file: the features, with run (len bytes, NULL: none) as
 * hpmstat's run file; frees p. 0 or -errno. */
int stat_perf_finish(struct stat_perf *p, const char *run, size_t len);
/* Frees p without ending the file (an error on the way). */
void stat_perf_free(struct stat_perf *p);

#endif
