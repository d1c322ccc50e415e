/* samples-filter.h: perf report's sample filters for the report of a
 * perf.data (samples.c): --comms, --pid, --tid, --dsos, --symbols, -C and
 * --time.
 *
 * Owns: the lists as perf reads them (a set of strings split at commas;
 * a --symbols entry that reads as a hex number is a sample address
 * instead, as perf's setup_addrlist moves it), the test of one sample
 * (perf's machine__resolve and thread__is_filtered), the removal of the
 * entries filtered samples made, and the one-entry lists whose column perf
 * leaves out of its text (sort__setup_elide).
 */
#ifndef HPM_REPORT_SAMPLES_FILTER_H
#define HPM_REPORT_SAMPLES_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/samples.h"

struct rs_filter;

/* The filters of o for the file f; NULL when o gives none, or on a bad
 * list, a -C for a file whose samples have no CPU or a bad --time (-1 in
 * *rc then, with one line in err). */
struct rs_filter *rs_filter_new(const struct rs_opts *o, const struct pd_file *f, int *rc,
                                char *err, size_t errlen);
void rs_filter_free(struct rs_filter *f);

/* Whether the filters leave out a sample of thread tid of process pid,
 * whose command is comm, at ip in the file dso ("[unknown]": no map)
 * and the function sym (NULL: unnamed). */
bool rs_filter_out(const struct rs_filter *f, const char *comm, int pid, int tid, const char *dso,
                   const char *sym, uint64_t ip);

/* Whether -C leaves out a sample taken on cpu: it is then not counted
 * at all. */
bool rs_filter_cpu_out(const struct rs_filter *f, uint32_t cpu);

/* Whether --time leaves out a sample of time t (UINT64_MAX: the sample
 * has no time, as perf reads it): it is then not counted at all. */
bool rs_filter_time_out(const struct rs_filter *f, uint64_t t);

/* After the samples: drops the entries filtered samples made, the totals
 * then the kept samples' with o's percent_relative, and sets rs->elided
 * for the keys perf leaves out of its text. */
void rs_filter_apply(const struct rs_filter *f, struct rs_report *rs);

#endif
