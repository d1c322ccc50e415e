/* print-std.c: perf stat's human-readable output, plus the Topdown tree:
 * the std leaves of the display walk (print-format.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric/metric.h"
#include "stat/aggr.h"
#include "stat/nodes.h"
#include "stat/print-format.h"
#include "stat/shadow.h"
#include "stat/values.h"
#include "util/count.h"

/* Where -r's spread starts on a row past its prefix columns: after the
 * count (18), the unit (4), the name (32) and perf's metric column (35),
 * with their separators, as perf prints it. */
#define STAT_NOISE_COL (18 + 1 + 4 + 1 + 32 + 35)
#define STAT_NOISE_FMT "  ( +-%6.2f%% )"

static void prefix(const struct stat_config *cfg, const struct stat_result *res, unsigned i,
                   int unit)
{
	if (cfg->interval_ms > 0)
		fprintf(cfg->out, "%16.9f ", res->timestamp);
	char aggr[64];
	if (res->aggr)
		fputs(stat_aggr_prefix(cfg, res, i, unit, aggr, sizeof(aggr)), cfg->out);
	/* perf's "CPU%-7d" and its blank separator */
	else if (unit >= 0)
		fprintf(cfg->out, "%-10s ", stat_unit_name(res, i, (unsigned)unit));
}

/* perf's metric column: " # ", the value in its format, the unit in what
 * is left of the 35 columns (METRIC_LEN) */
static void metric_column(const struct stat_config *cfg, const char *val, const char *unit)
{
	int n = 3 + (int)strlen(val);
	fprintf(cfg->out, " # %s %-*s", val, 35 - n - 1, unit);
}

/* -M's metric k in the metric column */
static void print_beside(const struct stat_config *cfg, const struct stat_result *res, unsigned k)
{
	char val[64], unit[160];
	stat_metric_beside_text(&res->metrics[k], val, sizeof(val), unit, sizeof(unit));
	metric_column(cfg, val, unit);
}

/* The flags at the end of a line with metric k (-1: none) beside its
 * event, as on metric rows: a share out of [0, 1] never shown as a plain
 * number, and the bottleneck of a level -M asked for */
static void print_beside_flags(const struct stat_config *cfg, const struct stat_result *res, int k)
{
	char why[64];
	if (k < 0)
		return;
	const struct stat_metric *m = &res->metrics[k];
	if (m->out_of_range)
		fprintf(cfg->out, "  [out of range: %s]",
		        metric_range_text(m->value, why, sizeof(why)));
	if (m->bottleneck)
		fputs("  <==", cfg->out);
}

/* The metrics of row i from metric k on, each on a line of its own:
 * perf's new_line_std, blank count, unit and name columns */
static void print_beside_lines(const struct stat_config *cfg, const struct stat_result *res,
                               unsigned i, int unit, int k)
{
	for (; k >= 0; k = stat_metric_beside_next(cfg, res, i, k)) {
		prefix(cfg, res, i, unit);
		fprintf(cfg->out, "%18s %-4s %-32s", "", "", "");
		print_beside(cfg, res, (unsigned)k);
		const struct stat_metric *m = &res->metrics[k];
		if (res->metric_noise && !isnan(m->value) &&
		    !isnan(res->metric_noise[k].rel_stddev))
			fprintf(cfg->out, STAT_NOISE_FMT, res->metric_noise[k].rel_stddev);
		if (cfg->emu.active)
			fputs("  " STAT_EMU_MARK, cfg->out);
		print_beside_flags(cfg, res, k);
		fputc('\n', cfg->out);
	}
}

static void print_event_row(const struct stat_config *cfg, const struct stat_result *res,
                            unsigned i, int unit)
{
	const struct hpm_evsel *e = &res->list->ev[i];
	double share = 0;
	/* a locale's separator may be 3 bytes (fr_FR) */
	char num[3 * HPM_COUNT_STR_MAX], mval[64];
	const char *munit = NULL, *none = stat_no_count_text(res, i, unit);
	double m;

	(void)stat_event_value(res, i, unit, &share);
	prefix(cfg, res, i, unit);
	const char *cgroup = stat_cgroup_field(res, i);
	if (none) {
		/* perf's row without a count: the name in 25 columns where more
		 * follows (-G's field; the running share of an event that was
		 * enabled and never ran, after perf's empty metric column) */
		double pct = stat_no_count_pct(res, i, unit);
		fprintf(cfg->out, "%18s %-4s ", none, e->unit);
		if (cgroup || pct < 100)
			fprintf(cfg->out, "%-25s", e->name);
		else
			fputs(e->name, cfg->out);
		if (cgroup)
			fprintf(cfg->out, " %s", cgroup);
		if (pct < 100)
			fprintf(cfg->out, "%35s  (%.2f%%)", "", pct);
		fprintf(cfg->out, "%s\n", e->emulated ? "  " STAT_EMU_MARK : "");
		print_beside_lines(cfg, res, i, unit,
		                   unit < 0 ? stat_metric_beside_next(cfg, res, i, -1) : -1);
		return;
	}
	stat_count_text(res, i, unit, cfg->no_big_num ? STAT_FORMAT_CSV : STAT_FORMAT_STD, num,
	                sizeof(num));
	fprintf(cfg->out, "%*s %-4s %-32s", stat_text_width(num, 18), num, e->unit, e->name);
	if (cgroup)
		fprintf(cfg->out, " %s", cgroup);
	/* -M's metrics read from this row, when its own shadow value does not
	 * take the column: the first here, the others on lines of their own */
	int beside = unit < 0 ? stat_metric_beside_next(cfg, res, i, -1) : -1, on_row = -1;
	if (stat_shadow_metric(res, i, unit, &m, &munit)) {
		stat_shadow_text(m, munit, mval, sizeof(mval));
		metric_column(cfg, mval, munit);
	} else if (beside >= 0) {
		print_beside(cfg, res, (unsigned)beside);
		on_row = beside;
		beside = stat_metric_beside_next(cfg, res, i, beside);
	} else {
		fprintf(cfg->out, "   %8s %-23s", "", "");
	}
	/* perf leaves out a spread of exactly 0 */
	if (res->noise && unit < 0 && !isnan(res->noise[i].rel_stddev) &&
	    res->noise[i].rel_stddev != 0)
		fprintf(cfg->out, STAT_NOISE_FMT, res->noise[i].rel_stddev);
	if (share < 1.0 && share > 0)
		fprintf(cfg->out, "  (%.2f%%)", 100 * share);
	if (e->emulated)
		fputs("  " STAT_EMU_MARK, cfg->out);
	print_beside_flags(cfg, res, on_row);
	fputc('\n', cfg->out);
	print_beside_lines(cfg, res, i, unit, beside);
	if (cfg->verbose && e->placement && unit < 0)
		fprintf(cfg->out, "%18s       on %s\n", "", e->placement);
}

/* How many ancestors of metric row k are shown above it. */
static unsigned shown_depth(const struct stat_result *res, unsigned k)
{
	unsigned depth = 0;
	for (int p = res->metrics[k].parent; p >= 0 && depth < res->nr_metrics;
	     p = res->metrics[p].parent)
		depth++;
	return depth;
}

/* One metric row; `unit`: the aggregation id whose prefix columns lead the
 * row (-I), or -1. */
static void print_metric_row(const struct stat_config *cfg, const struct stat_result *res,
                             unsigned k, int unit)
{
	const struct stat_metric *m = &res->metrics[k];
	/* a node two columns in from its parent row (one whose parent is not
	 * shown is named by its path instead), a stage-2 metric one step in
	 * from the node it is listed under */
	unsigned indent = m->level        ? 2 * shown_depth(res, k)
	                  : m->under >= 0 ? 2 * (shown_depth(res, (unsigned)m->under) + 1)
	                                  : 0;
	/* -M's metrics by the names perf prints and -M takes (tma_frontend_bound
	 * beside ipc), a Topdown tree's nodes by toplev's (Frontend_Bound) */
	char name[64];
	snprintf(name, sizeof(name), "%*s%s", (int)indent, "",
	         cfg->topdown_level ? m->display : m->name);
	prefix(cfg, res, STAT_AGGR_METRIC_ROW, unit);
	char v[64], why[64];
	int width = fprintf(cfg->out, "   %-34s %10s  %-10s", name,
	                    isnan(m->value) ? "n/a" : stat_fixed2(m->value, v, sizeof(v)), m->unit);
	/* -r's spread where an event row has it (past perf's 35-column metric
	 * column), then the emulated mark as on event rows */
	if (res->metric_noise && !isnan(m->value) && !isnan(res->metric_noise[k].rel_stddev)) {
		fprintf(cfg->out, "%*s" STAT_NOISE_FMT,
		        width < STAT_NOISE_COL ? STAT_NOISE_COL - width : 0, "",
		        res->metric_noise[k].rel_stddev);
		if (cfg->emu.active)
			fputs("  " STAT_EMU_MARK, cfg->out);
	} else if (cfg->emu.active) {
		/* metrics are Kunminghu formulas: emulated when the emulator
		 * runs; the mark in its own column, before the flags */
		fputs(" " STAT_EMU_MARK, cfg->out);
	}
	if (m->out_of_range)
		fprintf(cfg->out, "  [out of range: %s]",
		        metric_range_text(m->value, why, sizeof(why)));
	if (m->bottleneck)
		fputs("  <==", cfg->out);
	fputc('\n', cfg->out);
}

/* --metric-only: a header of the metric names, then one row of values;
 * --per-core and the like: one row per id, after its prefix columns; -A:
 * one row per unit, after perf's "CPU1       " (no total, as perf) */
static void print_metric_only(const struct stat_config *cfg, const struct stat_result *res,
                              bool header)
{
	bool per_unit = !res->aggr && stat_metric_only_per_unit(cfg, res);
	bool per_id = (res->aggr && res->aggr->metrics_per_id) || per_unit;
	const char *note = stat_aggr_metrics_note(res);
	if (header) {
		char aggr[64];
		if (note)
			fprintf(cfg->out, "%s%s%s\n", cfg->interval_ms > 0 ? "# " : " (", note,
			        cfg->interval_ms > 0 ? "" : ")");
		prefix(cfg, res, 0, -1);
		/* the names above the values, past the prefix columns */
		if (per_unit)
			fprintf(cfg->out, "%-10s ", "");
		else if (per_id)
			fprintf(cfg->out, "%*s",
			        (int)strlen(stat_aggr_prefix(cfg, res, STAT_AGGR_METRIC_ROW, 0,
			                                     aggr, sizeof(aggr))),
			        "");
		for (unsigned k = 0; k < res->nr_metrics; k++)
			fprintf(cfg->out, " %18s", res->metrics[k].display);
		fputc('\n', cfg->out);
	}
	for (int u = per_id ? 0 : -1; u < (per_id ? (int)res->nr_metric_units : 0); u++) {
		const struct stat_metric *m = u >= 0 ? res->unit_metrics[u] : res->metrics;
		if (!m)
			continue;
		/* -A: the time of -I, then the unit's name */
		prefix(cfg, res, STAT_AGGR_METRIC_ROW, per_unit ? -1 : u);
		if (per_unit)
			fprintf(cfg->out, "%-10s ", res->metric_unit_names[u]);
		for (unsigned k = 0; k < res->nr_metrics; k++) {
			char v[40], num[32];
			if (isnan(m[k].value))
				snprintf(v, sizeof(v), "n/a");
			else
				snprintf(v, sizeof(v), "%s%s%s",
				         stat_fixed2(m[k].value, num, sizeof(num)),
				         m[k].out_of_range ? "!" : "",
				         m[k].bottleneck ? " <==" : "");
			fprintf(cfg->out, " %18s", v);
		}
		if (cfg->emu.active)
			fputs("  " STAT_EMU_MARK, cfg->out);
		fputc('\n', cfg->out);
	}
}

/* perf's -I column header, at the first interval and every 25th after:
 * "#           time             counts unit events", with a CPU column
 * under -A; "unit" is as wide as the widest unit (4 at least). */
#define STAT_HEADER_EVERY 25
static void print_interval_header(const struct stat_config *cfg, const struct stat_result *res)
{
	int unit_width = 4;
	for (unsigned i = 0; i < res->list->nr; i++) {
		int w = (int)strlen(res->list->ev[i].unit);
		if (w > unit_width)
			unit_width = w;
	}
	if (cfg->per_unit)
		fprintf(cfg->out, "#           time CPU                    counts %*s events\n",
		        unit_width, "unit");
	else
		fprintf(cfg->out, "#           time             counts %*s events\n", unit_width,
		        "unit");
}

/* perf's --table: each run's wall time, its difference from the mean and
 * a bar of one '#' per 5% of it, aligned on the elapsed line below */
static void print_run_table(const struct stat_config *cfg, const struct stat_result *res,
                            int precision, double avg)
{
	char tmp[64];
	int indent = 0;
	snprintf(tmp, sizeof(tmp), " %17.*f", precision, avg);
	while (tmp[indent] == ' ')
		indent++;
	fprintf(cfg->out, "%*s# Table of individual measurements:\n", indent, "");
	for (unsigned r = 0; r < res->nr_runs; r++) {
		double run = res->run_elapsed_ns[r] / 1e9;
		int bars = 1 + abs((int)(100.0 * (run - avg) / run) / 5);
		fprintf(cfg->out, " %17.*f (%+.*f) ", precision, run, precision, run - avg);
		for (int h = 0; h < bars; h++)
			fputc('#', cfg->out);
		fputc('\n', cfg->out);
	}
	fprintf(cfg->out, "\n%*s# Final result:\n", indent, "");
}

/* perf's "seconds time elapsed" line; with -r the mean, its standard error
 * and the relative one, with 2 more decimals than the error's first digit */
static void print_elapsed(const struct stat_config *cfg, const struct stat_result *res)
{
	double avg = res->elapsed_ns / 1e9;
	if (res->nr_runs < 2) {
		fprintf(cfg->out, " %17.9f seconds time elapsed\n", avg);
		return;
	}
	double sd = isnan(res->elapsed_noise.sem) ? 0 : res->elapsed_noise.sem / 1e9;
	int precision = 2 + (sd > 1 ? 0 : sd > 0 ? (int)lround(ceil(-log10(sd))) : 7);
	if (cfg->run_table)
		print_run_table(cfg, res, precision, avg);
	fprintf(cfg->out, " %17.*f +- %.*f seconds time elapsed", precision, avg, precision, sd);
	double pct = avg > 0 ? 100 * sd / avg : 0;
	if (pct != 0)
		fprintf(cfg->out, "  ( +-%6.2f%% )", pct);
	fputc('\n', cfg->out);
}

/* The title block (after a run) or -I's comment line, and -I's header. */
/* The model whose figures are emulated, for the lines that say so. */
static const char *emu_model(const struct stat_config *cfg)
{
	return cfg->emu.run.model ? cfg->emu.run.model : "PMU";
}

static void std_begin(const struct stat_config *cfg, const struct stat_result *res)
{
	bool interval = cfg->interval_ms > 0;
	char label[512], not_measured[512];

	/* the first line says what the emulated figures are not, before any
	 * header could read as the command's own counts */
	if (interval && (res->first || cfg->emu.run.partial) && cfg->emu.active)
		fprintf(cfg->out, "# %s figures marked " STAT_EMU_MARK " are emulated%s (%s)\n",
		        emu_model(cfg),
		        stat_emu_not_measured(cfg, not_measured, sizeof(not_measured)),
		        stat_emu_describe(&cfg->emu, label, sizeof(label)));
	if (!interval) {
		if (cfg->emu.active)
			fprintf(cfg->out, " %s figures marked " STAT_EMU_MARK " are emulated%s.\n",
			        emu_model(cfg),
			        stat_emu_not_measured(cfg, not_measured, sizeof(not_measured)));
		fputc('\n', cfg->out);
		if (cfg->target)
			fprintf(cfg->out, " Performance counter stats for %s", cfg->target);
		else if (cfg->command)
			fprintf(cfg->out, " Performance counter stats for '%s'", cfg->command);
		else
			fprintf(cfg->out, " Performance counter stats for the emulated harts");
		if (cfg->repeat > 1)
			fprintf(cfg->out, " (%u runs)", cfg->repeat);
		fputs(":\n", cfg->out);
		if (cfg->emu.active)
			fprintf(cfg->out, " (%s)\n",
			        stat_emu_describe(&cfg->emu, label, sizeof(label)));
		if (cfg->nomux_runs > 1)
			fprintf(cfg->out,
			        " (%u runs, one per counter group, to avoid multiplexing)\n",
			        cfg->nomux_runs);
		fputc('\n', cfg->out);
	}
	if (interval && !cfg->metric_only && res->interval_nr % STAT_HEADER_EVERY == 0)
		print_interval_header(cfg, res);
}

static void std_metric_only(const struct stat_config *cfg, const struct stat_result *res)
{
	print_metric_only(cfg, res,
	                  cfg->interval_ms <= 0 || res->timestamp <= cfg->interval_ms / 1e3 * 1.5);
}

static void std_event(const struct stat_config *cfg, const struct stat_result *res, unsigned i,
                      int unit)
{
	print_event_row(cfg, res, i, unit);
}

/* The Topdown title and the note on an aggregation's metrics. */
static void std_metrics_begin(const struct stat_config *cfg, const struct stat_result *res,
                              unsigned rows)
{
	bool interval = cfg->interval_ms > 0;
	const char *note = stat_aggr_metrics_note(res);
	if (!interval && rows)
		fputc('\n', cfg->out);
	if (cfg->topdown_level && !interval)
		fprintf(cfg->out,
		        " Topdown level %u (%% of issue slots or of cycles; <== marks the "
		        "bottleneck path)\n",
		        cfg->topdown_level);
	if (note && !interval)
		fprintf(cfg->out, " (%s)\n", note);
	else if (note && res->first)
		fprintf(cfg->out, "# %s\n", note);
	/* harts that had no cycles have no slots in the sum: named, so a
	 * reader knows whose counts the Topdown is */
	char idle[512];
	if (cfg->topdown_level && !res->aggr && stat_idle_note(res, idle, sizeof(idle))[0])
		fprintf(cfg->out,
		        interval ? "# %s: not in the Topdown\n" : " (%s: not in the Topdown)\n",
		        idle);
}

/* -A: the tree of every hart (or CPU) after the aggregate; an aggregation
 * id's tree under its id (-I: the id's prefix columns on every row instead,
 * as perf's) */
static void std_unit_begin(const struct stat_config *cfg, const struct stat_result *res, unsigned u)
{
	bool per_id = res->aggr && res->aggr->metrics_per_id;
	if ((cfg->interval_ms <= 0 || !per_id) && !res->aggr && stat_unit_idle(res, u))
		fprintf(cfg->out,
		        "\n %s: idle (no cycles counted, so no slots: its Topdown is n/a)\n",
		        res->metric_unit_names[u]);
	else if (cfg->interval_ms <= 0 || !per_id)
		fprintf(cfg->out, "\n %s:\n", res->metric_unit_names[u]);
}

/* A metric row, with the description -v gives a bottleneck node: of the
 * totals, or of an aggregation id's tree (not -A's, after the totals). */
static void std_metric(const struct stat_config *cfg, const struct stat_result *res, unsigned k,
                       int unit)
{
	bool per_id = res->aggr && res->aggr->metrics_per_id;
	if (unit < 0) {
		print_metric_row(cfg, res, k, -1);
		stat_print_node_desc(cfg, &res->metrics[k]);
		return;
	}
	struct stat_result one = *res;
	one.metrics = res->unit_metrics[unit];
	if (!per_id)
		one.metric_noise = NULL;
	print_metric_row(cfg, &one, k, per_id && cfg->interval_ms > 0 ? unit : -1);
	if (per_id)
		stat_print_node_desc(cfg, &one.metrics[k]);
}

/* Whether a metric row printed (the totals, or each id's) came from scaled
 * counts. */
static bool any_metric_multiplexed(const struct stat_result *res)
{
	bool per_id = res->aggr && res->aggr->metrics_per_id;
	for (unsigned k = 0; k < res->nr_metrics && !per_id; k++)
		if (res->metrics[k].multiplexed)
			return true;
	for (unsigned u = 0; per_id && u < res->nr_metric_units; u++)
		for (unsigned k = 0; res->unit_metrics[u] && k < res->nr_metrics; k++)
			if (res->unit_metrics[u][k].multiplexed)
				return true;
	return false;
}

static void std_metrics_end(const struct stat_config *cfg, const struct stat_result *res)
{
	if (any_metric_multiplexed(res) && cfg->interval_ms <= 0)
		fputs("\n Some counters were multiplexed: those metrics come from "
		      "scaled counts.\n",
		      cfg->out);
}

/* The wrapped-count note, perf's elapsed and rusage lines, and the
 * emulator's label again at the end of a run. */
static void std_end(const struct stat_config *cfg, const struct stat_result *res)
{
	const struct hpm_evlist *l = res->list;
	bool interval = cfg->interval_ms > 0;
	char label[512];

	if (!cfg->metric_only && !interval)
		for (unsigned i = 0; i < l->nr; i++) {
			const char *none = stat_no_count_text(res, i, -1);
			if (none && strcmp(none, STAT_WRAPPED_TEXT) == 0 &&
			    (!l->ev[i].metric_only || cfg->verbose || res->nr_metrics)) {
				fputs("\n " STAT_WRAPPED_TEXT
				      ": the counter passed 2^64 - 1; its count "
				      "and the metrics from it are invalid (n/a).\n",
				      cfg->out);
				break;
			}
		}
	if (interval)
		return;
	/* perf: a blank line between the counts and the elapsed time, none
	 * when nothing was counted (--null) */
	if (l->nr || res->nr_metrics)
		fputc('\n', cfg->out);
	print_elapsed(cfg, res);
	/* perf: the command's own times, not with -a or -C (a CPU target) */
	bool times = cfg->command && !cfg->target && cfg->repeat <= 1 && !isnan(res->user_s);
	if (times) {
		fprintf(cfg->out, "\n %17.9f seconds user\n", res->user_s);
		fprintf(cfg->out, " %17.9f seconds sys\n", res->sys_s);
	}
	if (cfg->emu.active)
		fprintf(cfg->out, "\n %s figures are emulated (%s).\n", emu_model(cfg),
		        stat_emu_describe(&cfg->emu, label, sizeof(label)));
	/* perf ends the block with "\n\n" after the last line it printed,
	 * which after the sys line leaves two blank lines */
	fputc('\n', cfg->out);
	if (times)
		fputc('\n', cfg->out);
}

const struct stat_print_format stat_print_std = {
    .begin = std_begin,
    .metric_only = std_metric_only,
    .event = std_event,
    .metrics_begin = std_metrics_begin,
    .unit_begin = std_unit_begin,
    .metric = std_metric,
    .metrics_end = std_metrics_end,
    .end = std_end,
};
