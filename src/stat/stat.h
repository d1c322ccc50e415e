/* stat.h: what `hpmstat stat` computed, and the one config its printers
 * share.
 *
 * Owns: struct stat_config (output choices, as perf's stat_config), struct
 * stat_result (one measurement: the evlist's counts as values per unit, the
 * metric values, timing), and the printer entry points. There is one
 * printer per format (print-std.c, print-csv.c, print-json.c), all reading
 * the same stat_result, so the formats cannot disagree on a number.
 */
#ifndef HPM_STAT_STAT_H
#define HPM_STAT_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/evlist.h"

struct stat_aggr;
struct stat_aggr_view;

enum stat_format {
	STAT_FORMAT_STD,
	STAT_FORMAT_CSV,
	STAT_FORMAT_JSON,
};

/* Where emulated numbers came from: printed with every emulated figure. */
struct stat_emu_label {
	bool active;         /* some rows are emulated */
	const char *profile; /* profile name, or NULL with a trace */
	const char *trace;   /* --emu-trace path, or NULL */
	uint64_t seed;
	unsigned repeats; /* -r: repeat r used seed + r */
	unsigned harts;
	uint64_t cycles;      /* emulated cycles run (per hart) */
	double freq;          /* Hz */
	bool follows_command; /* emulated time followed a host command's wall time */
	bool multiplexed;     /* the emulator rotated counter groups */
	/* A run that stopped short: `cycles` of `cycles_wanted` ran, because
	 * of a signal (interrupted) or because the emulator could not keep up
	 * with the wall time it followed. */
	bool partial;
	bool interrupted;
	uint64_t cycles_wanted;
	unsigned run_interrupted; /* -r: the run (1-based) a signal cut short, 0: none */
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
	double value;        /* scaled for display (100% -> percent); NAN: n/a */
	double raw;          /* unscaled value */
	bool out_of_range;   /* a share outside [0, 1]: shown and flagged */
	bool over_threshold; /* MetricThreshold true */
	bool bottleneck;     /* on the <== path */
	bool multiplexed;    /* computed from scaled (multiplexed) counts */
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
	double user_s, sys_s; /* the command's rusage, when there is one */
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
};

/* Value of event i for unit u (-1: all), scaled by multiplexing and the
 * event's display scale, from res->delta when set; NAN when there is none. */
double stat_event_value(const struct stat_result *res, unsigned i, int unit, double *share);
/* perf-style derived value shown beside an event ("CPUs utilized",
 * "K/sec", "insn per cycle", "of all branches"); false when there is none.
 * Rates divide by the task-clock (or cpu-clock) of the same rows, as perf's:
 * a set without a counted clock has none. */
bool stat_shadow_metric(const struct stat_result *res, unsigned i, int unit, double *val,
                        const char **unit_text);

/* What a row without a number shows: "<not supported>", "<not modelled>",
 * "<not counted>" (never ran) or STAT_WRAPPED_TEXT; NULL when event i (unit
 * u, -1 all) has a number. */
#define STAT_WRAPPED_TEXT "<wrapped>"
const char *stat_no_count_text(const struct stat_result *res, unsigned i, int unit);
/* perf's pcnt-running of such a row (print_running: 100 when running equals
 * enabled, else 100 * running / enabled): 100.00 for one that never opened
 * or has no time at all, 0.00 for one that was enabled and never ran (a
 * riscv event no counter matched). */
double stat_no_count_pct(const struct stat_result *res, unsigned i, int unit);
/* The count of event i (unit u, -1 all) as format f writes it: exact
 * digits (in std output grouped as the locale groups numbers, perf's
 * printf("%'"): none in C, ',' in en_US; "%f"-style ".000000" in JSON, as
 * perf), or for a msec time or a -r mean the double with 2 (JSON: 6)
 * decimals. Only for rows stat_no_count_text gives no text for. buf holds
 * at least 64 bytes. */
const char *stat_count_text(const struct stat_result *res, unsigned i, int unit, enum stat_format f,
                            char *buf, size_t len);
/* -G: perf's cgroup field of event i, its cgroup's name ("" for an event
 * without one) when some event has a cgroup; NULL without -G, when the
 * field is not there at all. One rule for the std, CSV and JSON rows. */
const char *stat_cgroup_field(const struct stat_result *res, unsigned i);
/* perf's run-time field of event i (unit u, -1 all): nanoseconds; the
 * emulator's cycles converted at --emu-freq. */
hpm_u128 stat_run_ns(const struct stat_config *cfg, const struct stat_result *res, unsigned i,
                     int unit);
/* The printf width that puts text in `cols` columns: a locale's thousands
 * separator may be several bytes of one character (fr_FR's U+202F), and
 * perf's printf pads by characters. */
int stat_text_width(const char *text, int cols);
/* v with 2 decimals, never "-0.00". */
const char *stat_fixed2(double v, char *buf, size_t len);

/* The units of event i (CPUs or harts of its back end) and their names. */
unsigned stat_nr_units(const struct stat_result *res, unsigned i);
const char *stat_unit_name(const struct stat_result *res, unsigned i, unsigned u);

void stat_print_std(const struct stat_config *cfg, const struct stat_result *res);
void stat_print_csv(const struct stat_config *cfg, const struct stat_result *res);
void stat_print_json(const struct stat_config *cfg, const struct stat_result *res);
void stat_print(const struct stat_config *cfg, const struct stat_result *res);
/* The one-line description of the emulated source, e.g. "emulated Kunminghu:
 * profile balanced, seed 1, 1 hart, 1000000000 cycles at 100 MHz": l as
 * util/provenance.h's EMU_PROVENANCE_RUN label. */
const char *stat_emu_describe(const struct stat_emu_label *l, char *buf, size_t len);
/* What emulated figures must not be read as: "; they do not measure 'ls'"
 * (or the -p/-a target), "" for the emulated harts alone. */
const char *stat_emu_not_measured(const struct stat_config *cfg, char *buf, size_t len);
/* The mark at the end of every emulated row of the std output. */
#define STAT_EMU_MARK "[emu]"

#endif
