/* replay.h: a run file (hpmstat-run(5)) as the stat_result and stat_config
 * `hpmstat stat` printed it from, so that `hpmstat stat report` prints it
 * again through the same printers (src/stat/print*.c).
 *
 * Owns: struct stat_replay: the checked run (rf_load_buffer does every check
 * report does), its events as an hpm_evlist with the counts of the file, the
 * metrics, the -r statistics the file holds, and the intervals. The keys the
 * report model does not need (attr, placement, the emulator's label, the
 * target, the output options) are read here, each optional: a file of an
 * hpmstat before them prints with their defaults.
 *
 * Never prints, never exits.
 */
#ifndef HPM_REPORT_REPLAY_H
#define HPM_REPORT_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "report/runfile.h"
#include "stat/stat.h"

struct stat_replay {
	struct rf_run rf;
	struct hpm_evlist list;
	/* the output of the recording: format STD on stderr; the caller sets
	 * format, csv_sep and out */
	struct stat_config cfg;
	struct stat_result res; /* the whole run (-r: the means) */
	/* owned arrays behind res and the intervals */
	struct stat_metric *metrics;
	struct stat_noise *noise, *metric_noise;
	double *run_elapsed;
	char ***unit_names;                /* [nr_ev]: each event's unit names */
	struct stat_metric **unit_metrics; /* -A: [nr_unit_metrics][nr_metrics] */
	char **unit_metric_names;          /* [nr_unit_metrics] */
	unsigned nr_unit_metrics;
	struct hpm_count ***iv_counts;   /* [nr_iv][nr_ev] */
	struct stat_metric **iv_metrics; /* [nr_iv][nr_metrics] */
};

/* Reads the run file in buf (len bytes; name in messages, e.g. the path or
 * "standard input") into *r. 0, or -1 with one line "name: what is wrong"
 * in err; stat_replay_free is allowed either way. */
int stat_replay_load(const char *buf, size_t len, const char *name, struct stat_replay *r,
                     char *err, size_t errlen);
/* The number of intervals (-I runs), and interval k as printed live. */
unsigned stat_replay_nr_intervals(const struct stat_replay *r);
void stat_replay_interval(const struct stat_replay *r, unsigned k, struct stat_result *out);
void stat_replay_free(struct stat_replay *r);

#endif
