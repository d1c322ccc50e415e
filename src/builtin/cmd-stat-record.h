/* cmd-stat-record.h: perf's `stat record` and `stat report` subcommands of
 * hpmstat stat (stat-record.c).
 *
 * Owns: recognising the subcommand word, the paths of a recording (its -o
 * is the run file, perf.data by default, an old one kept as perf.data.old)
 * and all of `stat report`. cmd-stat.c calls these from one hook.
 */
#ifndef HPM_BUILTIN_STAT_RECORD_H
#define HPM_BUILTIN_STAT_RECORD_H

#include <stdbool.h>

enum stat_subcommand {
	STAT_SUB_NONE,
	STAT_SUB_RECORD,
	STAT_SUB_REPORT,
};

/* The file `stat record` writes and `stat report` reads by default. */
#define STAT_RECORD_DEFAULT "perf.data"

/* "record" or "report", or (as perf) a prefix of one of at least 3 letters. */
enum stat_subcommand stat_subcommand(const char *word);
/* A recording's paths after its options: the file (*data) is -o's
 * (*output), else standard output when it is a pipe (as perf), else
 * perf.data; *output becomes what the counts go to: standard error
 * (NULL), or nothing (/dev/null) when the file is standard output, as perf
 * prints nothing when recording to a pipe. 0, or the exit status after a
 * message (-r, as perf refuses it; --record, a run file of stat's own). */
int stat_record_paths(const char **output, const char *record, const char **data, unsigned repeat);
/* As perf: an existing non-empty run file at path becomes path.old before
 * the new one is written. 0, or -1 after a message. */
int stat_record_backup(const char *path);
/* hpmstat stat report [-i FILE] [-x SEP | -j]: argv[0] is the word
 * "report"; sep and json are the stat options given before it. */
int cmd_stat_report(int argc, char **argv, const char *sep, bool json);

#endif
