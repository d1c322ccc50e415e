/* stat-sample.h: toplev's sampling hint after a Topdown run of hpmstat stat.
 *
 * Owns: the line that says how to sample the bottleneck node, as toplev's
 * "Sampling events:" and its --show-sample command line: an hpmstat record
 * command whose {...}:S group reads the events that node's metric needs,
 * led by an event that counts every cycle and can sample, with the run's
 * target (the command, -a, -C, -p, -t) or the run's emulator (its
 * profile, seed and harts). The counting code stays in cmd-stat.c.
 */
#ifndef HPM_BUILTIN_STAT_SAMPLE_H
#define HPM_BUILTIN_STAT_SAMPLE_H

#include <stdbool.h>

#include "backend/emu.h"
#include "stat/session.h"
#include "stat/stat.h"

/* What the run measured, as stat's options said it. */
struct stat_sample_run {
	const struct hpm_session *s;
	const struct stat_metric *metrics; /* the Topdown rows printed */
	unsigned nr_metrics;
	bool emulated; /* the Topdown came from the emulator */
	const struct hpm_emu_config *emu;
	bool all_cpus;     /* -a */
	const char *cpus;  /* -C LIST, NULL */
	int pid;           /* -p PID, 0 */
	const char *tids;  /* -t LIST, NULL */
	char *const *argv; /* the command, NULL */
};

/* The hint line (no newline, malloc'ed), or NULL when there is none: no
 * Topdown row, or no node on the bottleneck path unless `always` (then the
 * level-1 nodes shown are sampled). */
char *stat_sample_hint(const struct stat_sample_run *r, bool always);

#endif
