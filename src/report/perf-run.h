/* perf-run.h: the run file (hpmstat-run(5)) of a `perf stat record` file,
 * for `hpmstat stat report` and `hpmstat report`.
 *
 * Owns: reading a perf.data of stat counts (PERF_RECORD_STAT and its
 * rounds, perfdata/reader.h) as a run: hpmstat's own run file when the file
 * carries one (hpmstat stat record writes it beside perf's records), else
 * one made from perf's records: each event with its name, unit and scale
 * (EVENT_DESC, EVENT_UPDATE), its counts per CPU (or per thread) of the
 * last round, the run's wall time (the FINAL round), the intervals of an -I
 * recording (the counts between two INTERVAL rounds, perf's records being
 * cumulative) and the command line (CMDLINE; none for a pipe, whose header
 * perf names 'pipe'). Every event is a host event: perf's file holds counts,
 * not metrics.
 *
 * Never prints, never exits.
 */
#ifndef HPM_REPORT_PERF_RUN_H
#define HPM_REPORT_PERF_RUN_H

#include <stdbool.h>
#include <stddef.h>

/* The run file of the perf.data in buf (len bytes; name in messages): 0
 * and *run (malloc'ed, *run_len bytes), or -1 with one line in err (not a
 * stat recording, no counts). */
int perf_stat_run(const void *buf, size_t len, const char *name, char **run, size_t *run_len,
                  char *err, size_t errlen);

#endif
