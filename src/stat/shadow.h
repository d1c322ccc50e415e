/* shadow.h: perf's "shadow" value beside a count, as perf's stat-shadow.c.
 *
 * Owns: the one derived value a std, CSV or JSON event row shows after its
 * count ("CPUs utilized", "GHz", "K/sec", "insn per cycle", "of all
 * branches"): which rows get one, what they are divided by (the row set's
 * task-clock or cpu-clock, cycles, branches; minstret over mcycle on the
 * emulator) and its unit text. It prints nothing: the format leaves
 * print what it returns. Metrics proper (Topdown, -M) are
 * the session's.
 */
#ifndef HPM_STAT_SHADOW_H
#define HPM_STAT_SHADOW_H

#include <stdbool.h>

#include "stat/stat.h"

/* perf-style derived value shown beside event i (unit u, -1 all) in *val
 * with its unit text; false when there is none. Rates divide by the
 * task-clock (or cpu-clock) of the same rows (with -G, of the same cgroup),
 * as perf's: a set without a counted clock has none. */
bool stat_shadow_metric(const struct stat_result *res, unsigned i, int unit, double *val,
                        const char **unit_text);

/* The rows those values divide by, found in one pass over the rows, so
 * that a print of n rows costs O(n) and not a scan of every row for each
 * row (stat_print builds one and hangs it on the result it walks). */
struct stat_shadow_index {
	bool any_cgroup;               /* some row has a -G cgroup */
	int cycles, branches;          /* the first counted row of that name, or -1 */
	unsigned *clocks, nr_clocks;   /* the task-clock and cpu-clock rows, in order */
	unsigned *mcycles, nr_mcycles; /* the emulator's counted mcycle rows, in order */
};
void stat_shadow_index_build(const struct stat_result *res, struct stat_shadow_index *ix);
void stat_shadow_index_free(struct stat_shadow_index *ix);
/* res->shadow, else one built into *tmp (free it with
 * stat_shadow_index_free when the return is tmp). */
const struct stat_shadow_index *stat_shadow_index_of(const struct stat_result *res,
                                                     struct stat_shadow_index *tmp);

#endif
