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
/* A shadow value of that unit text in perf's printf format, as its
 * stat-shadow.c prints it: "%7.2f%%" for the ratios in percent ("of all
 * branches", "frontend cycles idle"), "%7.2f " for "insn per cycle", else
 * "%8.3f". The std output prints it as is; CSV keeps its number (perf cuts
 * at the first character that is not a digit or '.'). Returns buf. */
const char *stat_shadow_text(double val, const char *unit_text, char *buf, size_t len);
/* --metric-only without -M or --topdown (perf's table of the default
 * events' metrics): whether row i is a column, with its header in head.
 * perf's columns are the shadow values other than the rates and "CPUs
 * utilized" (its valid_only_metric), whether counted or not: "GHz", "insn
 * per cycle", "frontend/backend cycles idle", and "EVENT of all branches"
 * (its fixunit puts the event's name before "of all"). */
bool stat_shadow_column(const struct stat_result *res, unsigned i, char *head, size_t len);

#endif
