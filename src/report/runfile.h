/* runfile.h: the reader and validator of hpmstat run files (hpmstat-run(5)).
 *
 * Owns: struct rf_run, everything `hpmstat report` knows about one run file
 * once it has been checked: its events with their per-unit counts, its
 * metrics (the Topdown tree and -M metrics) with their flags, its
 * intervals, and the PMU model its rows name, whose metric table reads them. A file of another
 * schema or schema_version, text that is not JSON, a missing key or a value of the wrong type is
 * refused with one line "FILE: what is wrong" (the JSON path of the bad key), so a report never
 * shows a number it did not understand.
 *
 * The library never prints and never exits (xmalloc may abort on OOM).
 * Strings of an rf_run are borrowed from its parsed document and live as
 * long as the rf_run.
 */
#ifndef HPM_REPORT_RUNFILE_H
#define HPM_REPORT_RUNFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "util/count.h"

struct hpm_pmu_model;
struct metric_table;

/* One unit's raw count, as in the file's counts arrays. */
struct rf_count {
	const char *unit; /* "hart0", "CPU1", "task" */
	uint64_t value, enabled, running;
	bool wrapped; /* the counter passed 2^64 - 1: value is mod 2^64 */
};

struct rf_event {
	const char *name; /* the name metrics look up, e.g. "cycles" */
	const char *kind; /* "host", a PMU model's name ("kunminghu"), or the model's
	                   * name and "-fixed" for its fixed counters */
	const struct hpm_pmu_model *model; /* the model kind names, NULL for host */
	bool fixed;                        /* one of the model's fixed counters */
	const char *state;
	const char *unit; /* "msec" or "" */
	bool host;        /* kind "host": metrics never read it */
	double scale;
	double value;         /* NAN when null or wrapped */
	bool exact;           /* count holds the exact value (scale 1) */
	bool inexact;         /* the file gave the value as a real */
	hpm_u128 count;       /* the scaled count, every digit */
	bool wrapped;         /* some unit's count wrapped: no number */
	double running_share; /* 0..1 */
	double rel_stddev;    /* percent; NAN when absent or null */
	struct rf_count *counts;
	unsigned nr_counts;
};

/* One metric row: where it sits in the tree ... */
struct rf_node {
	const char *name;    /* MetricName */
	const char *display; /* Backend_Bound */
	const char *unit;    /* "% slots", "% cycles", "MPKI" */
	unsigned level;      /* 1..3, 0 outside the tree */
	int parent;          /* index in rf_run.node, -1 */
};

/* ... and its value in one measurement (the run, an interval, a hart). */
struct rf_mval {
	double value;      /* as displayed (a percentage for shares); NAN: n/a */
	double raw;        /* before the ScaleUnit factor; NAN: n/a */
	double rel_stddev; /* percent, NAN when there is no noise estimate */
	bool bottleneck, out_of_range, over_threshold, multiplexed;
};

struct rf_interval {
	double time;              /* end of the interval, seconds */
	struct rf_count **counts; /* [nr_ev]: that interval's counts per event */
	unsigned *nr_counts;      /* [nr_ev] */
	struct rf_mval *mval;     /* [nr_node] */
};

struct rf_run {
	char *path; /* as given */
	char *name; /* basename without ".json": the run's name in reports */
	void *doc;  /* the parsed document (json_t), owner of the strings */
	const char *created;
	const char *command; /* NULL when none */
	const char *profile; /* emulated profile, NULL when none */
	const char *trace;   /* emulated trace, NULL when none */
	unsigned harts;      /* emulated harts, 0 without the emulator */
	unsigned repeat;
	unsigned nr_runs; /* entries of runs[] */
	double interval_ms;
	unsigned topdown_level;
	bool noise; /* some metric has a rel_stddev (-r with at least two runs) */

	struct rf_event *ev;
	unsigned nr_ev;
	/* The PMU model of its model rows (the first one's: the file names it
	 * in each row's kind), NULL when every row is a host event. */
	const struct hpm_pmu_model *model;
	/* The model's metric table its metrics were computed with: the
	 * variant "topdown_variant" names, else the model's default. */
	const struct metric_table *metrics;
	struct rf_node *node;
	struct rf_mval *mval; /* [nr_node]: the values of the file (means with -r) */
	unsigned nr_node;
	struct rf_interval *iv;
	unsigned nr_iv;
	/* The distinct units of the events metrics read (not host events), in
	 * order of first appearance: the harts of a multi-hart run. */
	const char **units;
	unsigned nr_units;
};

/* Read and check path into *run. On error return -1 with one line in err,
 * starting with path, and leave *run empty (rf_free is still allowed). */
int rf_load_file(const char *path, struct rf_run *run, char *err, size_t errlen);
/* The largest run file rf_load_file() reads (hpmstat-run(5)), so a FIFO or
 * device that never ends is an error, not a leak. */
#define RF_MAX_BYTES (1u << 30)
/* JSON from f (duplicate keys rejected), reading at most max bytes: NULL
 * with *too_big set when f holds more, else as json_loadf. */
json_t *rf_json_load_bounded(FILE *f, size_t max, bool *too_big, json_error_t *jerr);
/* The same from a buffer (need not be terminated); path names it in
 * messages and gives the run its name. */
int rf_load_buffer(const char *buf, size_t len, const char *path, struct rf_run *run, char *err,
                   size_t errlen);
void rf_free(struct rf_run *run);

/* The metric table of the run's model (the variant the run used), which
 * its metrics are read with (metric_table_empty when the model has none or
 * the run no model row). */
const struct metric_table *rf_metrics(const struct rf_run *run);

/* The run name of a path: its basename without a trailing ".json". Owned. */
char *rf_run_name(const char *path);

#endif
