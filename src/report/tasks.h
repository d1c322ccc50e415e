/* tasks.h: perf report's --stats, --tasks and --mmaps listings of a
 * perf.data, as Debian 12's perf 6.1 prints them, byte for byte.
 *
 * Owns: counting a file's records as perf_session__process_events counts
 * them (every record of the data section by its type, each event's
 * samples and lost samples) and printing perf_session__fprintf_nr_events
 * and evlist__fprintf_nr_events ("Aggregated stats:", then "<event>
 * stats:"); and replaying the COMM, FORK, EXIT, MMAP and MMAP2 records in
 * perf's time order (its ordered events, flushed at each FINISHED_ROUND)
 * into perf's model of the machine's threads (struct machine: threads by
 * tid, a process's threads sharing its maps, a fork's child a copy of its
 * parent's maps, a new map cutting the ones it overlaps) and printing
 * tasks_print's tree of them, with --mmaps each thread's maps.
 *
 * What perf takes from the live machine instead of the file is taken from
 * the file: the pid of an anonymous executable map's "/tmp/perf-PID.map"
 * is the thread's (perf's nsinfo reads /proc/PID, which for a process gone
 * gives the same pid); a [vdso] map is perf's 64-bit "[vdso]". An inode is
 * the file's: with a build id (PERF_RECORD_MISC_MMAP_BUILD_ID) whatever
 * the record's union holds where the inode would be, as perf prints it.
 *
 * Not as perf: a file cut short, or with records perf 6.1 cannot process
 * (a type it does not know, compressed records of perf record -z) is
 * refused where perf prints an error after part of its work and exits 0;
 * a perf.data directory (perf record --threads) is refused; so is a
 * perf.data of file mode on standard input, as perf refuses it. The
 * checks perf makes of its report options before listing (-g on a file
 * without call chains, -C on one without CPUs) are the caller's: it makes
 * none of them.
 *
 * Never exits, never prints anywhere but out, and prints nothing on a
 * failure.
 */
#ifndef HPM_REPORT_TASKS_H
#define HPM_REPORT_TASKS_H

#include <stddef.h>
#include <stdio.h>

enum rs_listing {
	RS_LIST_STATS, /* perf report --stats */
	RS_LIST_TASKS, /* --tasks */
	RS_LIST_MMAPS, /* --mmaps: --tasks with each thread's maps */
};

/* Prints the listing of the perf.data at path on out; fd >= 0: of
 * standard input, as the regular file open on fd (its spooled copy, named
 * path in messages), which perf reads as a pipe: a perf.data of pipe mode
 * (perf record -o -) only. 0, or -1 with one line in err (nothing printed
 * then, but for a write error on out). */
int rs_listing_fprintf(const char *path, int fd, enum rs_listing what, FILE *out, char *err,
                       size_t errlen);

#endif
