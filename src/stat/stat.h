/* stat.h: what `hpmstat stat` computed, and the one config its printers
 * share.
 *
 * Owns: struct stat_config (output choices, as perf's stat_config), struct
 * stat_result (one measurement: the evlist's counts as values per unit, the
 * metric values, timing), the printer entry point and the texts about the
 * emulator every format prints (values.c). One walk over the rows
 * (print.c) calls one set of leaves per format (print-std.c, print-csv.c,
 * print-json.c, print-format.h), all reading the same stat_result through
 * the same fields (values.h), so the formats cannot disagree on a number.
 */
#ifndef HPM_STAT_STAT_H
#define HPM_STAT_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/evlist.h"
#include "util/provenance.h"

struct metric; /* metric/metric.h */
struct stat_aggr;
struct stat_aggr_view;

enum stat_format {
	STAT_FORMAT_STD,
	STAT_FORMAT_CSV,
	STAT_FORMAT_JSON,
};

/* Where emulated numbers came from: printed with every emulated figure. */
struct stat_emu_label {
	bool active;               /* some rows are emulated */
	struct emu_provenance run; /* the facts the label says (util/provenance.h) */
};

struct stat_config {
	enum stat_format format;
	const char *csv_sep;    /* -x */
	FILE *out;              /* -o, or stdout */
	bool per_unit;          /* -A */
	bool metric_only;       /* --metric-only */
	bool verbose;           /* -v: placement */
	unsigned topdown_level; /* --topdown[=N]: 0 none */
	unsigned repeat;        /* -r */
	double interval_ms;     /* -I: 0 none */
	const char *command;    /* "true", "sleep 1", or NULL */
	const char *target;     /* "process id 123", "system wide", ... */
	struct stat_emu_label emu;
	/* output shapes of perf's options */
	bool no_big_num;     /* --no-big-num: std counts without the locale's grouping */
	bool summary;        /* --summary: CSV rows of the total start "summary" */
	bool no_csv_summary; /* --no-csv-summary: ... but without that field */
	bool run_table;      /* --table: each run's elapsed time (-r) */
	bool json_extra;     /* --json-extra: -j rows keep hpmstat's own keys */
	unsigned nomux_runs; /* --no-multiplex: runs of each measurement, one per group */
	/* --per-socket, --per-die, --per-core, --per-node, --per-thread
	 * (stat/aggr.h); NULL: perf's default or -A */
	const struct stat_aggr *aggr;
};

/* One metric row (a Topdown node or a -M metric). */
struct stat_metric {
	const char *name;    /* MetricName, e.g. tma_frontend_bound */
	char *display;       /* name shown in trees, e.g. Frontend_Bound (owned) */
	const char *unit;    /* "% slots", "% cycles", or the metric's ScaleUnit text */
	unsigned level;      /* Topdown level, 0 for others */
	int parent;          /* index of the parent row, -1 */
	int under;           /* a stage-2 metric: index of the Topdown node's row it
	                      * is listed under (metric_set_under), -1 */
	double value;        /* scaled for display (100% -> percent); NAN: n/a */
	double raw;          /* unscaled value */
	bool out_of_range;   /* a share outside [0, 1]: shown and flagged */
	bool over_threshold; /* MetricThreshold true */
	bool bottleneck;     /* on the <== path */
	bool multiplexed;    /* computed from scaled (multiplexed) counts */
	/* -M: the event row (list index) the metric is printed beside, in
	 * perf's '#' column: the first row it reads; -1: a row of its own */
	int beside;

	/* Its definition in the model's metric table (description, scale);
	 * NULL when the table has none (a replayed run's unknown metric). */
	const struct metric *def;
};

/* Per-event statistics over repeats (-r): mean of the values and the
 * relative standard error of the mean, as perf's "( +- x% )". */
struct stat_noise {
	double mean;
	double rel_stddev; /* percent; NAN with one run, or a mean of 0 from values
	                    * that differ (no relative figure exists) */
	double sem;        /* the standard error itself (NAN with one run) */
	/* events: the mean of the counts rounded to an integer, from their exact
	 * sum, when every run had an exact count (display scale 1) */
	bool count_exact;
	hpm_u128 count_mean;
	/* events: the mean over the runs of the time running (summed over
	 * units, the counts' own unit), perf's run-time field with -r */
	double run_mean;
};

struct stat_shadow_index;

struct stat_result {
	const struct hpm_evlist *list;
	/* wall time of the measurement: -r the mean of the runs, -I the
	 * interval's real length ("CPUs utilized" divides by it) */
	double elapsed_ns;
	/* -r: each run's wall time and their statistics, for perf's
	 * "x +- y seconds time elapsed ( +- z% )" and --table */
	const double *run_elapsed_ns;
	unsigned nr_runs;
	struct stat_noise elapsed_noise;
	unsigned interval_nr; /* -I: intervals printed before this one */
	double user_s, sys_s; /* the command's rusage, when there is one (NAN: not known,
	                       * not printed) */
	double timestamp;     /* -I: seconds from the start to this interval's end */
	bool first;           /* the first interval (or the only print) */
	struct stat_metric *metrics;
	unsigned nr_metrics;
	/* -A: the metrics of each unit too ([nr_metric_units][nr_metrics]) */
	struct stat_metric **unit_metrics;
	unsigned nr_metric_units;
	char *const *metric_unit_names;
	const struct stat_noise *noise; /* [list->nr] with -r > 1, else NULL */
	const struct stat_noise *metric_noise;
	/* Interval mode prints deltas: values come from these counts, which
	 * the caller computed as current - previous (NULL: list's counts). */
	const struct hpm_count *const *delta; /* [list->nr][nr_units] */
	/* A view through cfg->aggr (stat/aggr.h): its units are the
	 * aggregation ids, its rows print in view order; NULL otherwise. */
	const struct stat_aggr_view *aggr;
	/* The rows the shadow values and the cgroup column look up, found
	 * once for a print (stat/shadow.h); NULL: found at each lookup. */
	const struct stat_shadow_index *shadow;
};

/* Prints res in cfg->format (print.c: one walk over the rows, whose leaves
 * are the formats' print-std.c, print-csv.c and print-json.c); through
 * cfg->aggr's view when there is one. */
void stat_print(const struct stat_config *cfg, const struct stat_result *res);
/* The one-line description of the emulated source, e.g. "emulated Kunminghu:
 * profile balanced, seed 1, 1 hart, 1000000000 cycles at 100 MHz": l as
 * util/provenance.h's EMU_PROVENANCE_RUN label. */
/* Frees n metric rows of a stat_result (their display names and the array). */
void stat_metrics_free(struct stat_metric *m, unsigned n);

const char *stat_emu_describe(const struct stat_emu_label *l, char *buf, size_t len);
/* What emulated figures must not be read as: "; they do not measure 'ls'"
 * (or the -p/-a target), "" for the emulated harts alone. */
const char *stat_emu_not_measured(const struct stat_config *cfg, char *buf, size_t len);
/* The mark at the end of every emulated row of the std output. */
#define STAT_EMU_MARK "[emu]"

#endif
