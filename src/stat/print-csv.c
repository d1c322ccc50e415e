/* print-csv.c: perf stat -x output, field for field:
 *   [interval,][unit,]value,unit,event,[cgroup,][variance,]run-time,pcnt-running,metric-value,
 *   metric-unit
 * Numbers use '.' whatever the locale (printf in the C locale: hpmstat never
 * calls setlocale for LC_NUMERIC). Emulated figures are announced by a
 * leading '#' comment line, as perf announces "# started on"; the Topdown
 * bottleneck path and range flags follow the metric rows the same way, so
 * every field holds only what perf's holds. The CSV leaves of the display
 * walk (print-format.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metric/metric.h"
#include "stat/aggr.h"
#include "stat/print-format.h"
#include "stat/shadow.h"
#include "stat/values.h"
#include "util/count.h"

/* A text field (an event name, a unit): perf writes it as is, so a name
 * with the separator in it ("kunminghu/event0=1,event1=2/" with -x,)
 * would shift every later column. A field holding the separator, a '"' or
 * a line break is quoted as RFC 4180 says ("a,b" -> "\"a,b\"", '"' doubled);
 * every other field is exactly perf's. */
static void csv_text(const struct stat_config *cfg, const char *t)
{
	const char *sep = cfg->csv_sep;
	bool quote = strpbrk(t, "\"\r\n") || (*sep && strstr(t, sep));
	if (!quote) {
		fputs(t, cfg->out);
		return;
	}
	fputc('"', cfg->out);
	for (; *t; t++) {
		if (*t == '"')
			fputc('"', cfg->out);
		fputc(*t, cfg->out);
	}
	fputc('"', cfg->out);
}

/* perf's --summary: the rows of the total (after -I's intervals, or alone)
 * start with a "summary" field, right-aligned in 16 columns, unless
 * --no-csv-summary */
static void csv_summary(const struct stat_config *cfg)
{
	if (cfg->summary && !cfg->no_csv_summary && cfg->interval_ms <= 0)
		fprintf(cfg->out, "%16s%s", "summary", cfg->csv_sep);
}

static void csv_prefix(const struct stat_config *cfg, const struct stat_result *res, unsigned i,
                       int unit)
{
	const char *s = cfg->csv_sep;
	csv_summary(cfg);
	/* perf pads the time stamp as in std output: "%6lu.%09lu" */
	if (cfg->interval_ms > 0)
		fprintf(cfg->out, "%16.9f%s", res->timestamp, s);
	char aggr[64];
	if (res->aggr)
		fputs(stat_aggr_prefix(cfg, res, i, unit, aggr, sizeof(aggr)), cfg->out);
	else if (cfg->per_unit && unit >= 0) {
		csv_text(cfg, stat_unit_name(res, i, (unsigned)unit));
		fputs(s, cfg->out);
	}
}

/* -M's metric k in the metric-value and metric-unit fields, as perf's
 * print_metric_csv cuts the value: its digits and '.' */
static void csv_beside(const struct stat_config *cfg, const struct stat_result *res, unsigned k)
{
	char val[64], unit[160];
	stat_metric_beside_text(&res->metrics[k], val, sizeof(val), unit, sizeof(unit));
	const char *v = val + strspn(val, " ");
	fprintf(cfg->out, "%.*s%s",
	        isnan(res->metrics[k].value) ? 3 : (int)strspn(v, "0123456789."), v, cfg->csv_sep);
	csv_text(cfg, unit);
}

/* The metrics of row i from metric k on, each on a line of its own:
 * perf's new_line_csv, the counter fields empty */
static void csv_beside_lines(const struct stat_config *cfg, const struct stat_result *res,
                             unsigned i, int unit, int k)
{
	const char *s = cfg->csv_sep;
	for (; k >= 0; k = stat_metric_beside_next(cfg, res, i, k)) {
		csv_prefix(cfg, res, i, unit);
		/* value, unit, event, [cgroup,] [variance,] run-time, pcnt */
		fprintf(cfg->out, "%s%s%s%s%s", s, s, s, s, s);
		if (stat_cgroup_field(res, i))
			fputs(s, cfg->out);
		if (res->noise)
			fputs(s, cfg->out);
		csv_beside(cfg, res, (unsigned)k);
		fputc('\n', cfg->out);
	}
}

static void csv_event(const struct stat_config *cfg, const struct stat_result *res, unsigned i,
                      int unit)
{
	const struct hpm_evsel *e = &res->list->ev[i];
	const char *s = cfg->csv_sep;
	double share = 0, m;
	const char *munit, *none = stat_no_count_text(res, i, unit);
	char num[HPM_COUNT_STR_MAX + 8];
	/* -M's metrics read from this row (the first on it, as perf's) */
	int beside = unit < 0 ? stat_metric_beside_next(cfg, res, i, -1) : -1;

	(void)stat_event_value(res, i, unit, &share);
	csv_prefix(cfg, res, i, unit);
	fputs(none ? none : stat_count_text(res, i, unit, STAT_FORMAT_CSV, num, sizeof(num)),
	      cfg->out);
	fputs(s, cfg->out);
	csv_text(cfg, e->unit);
	fputs(s, cfg->out);
	csv_text(cfg, e->name);
	fputs(s, cfg->out);
	/* -G: perf's cgroup field after the event */
	const char *cgroup = stat_cgroup_field(res, i);
	if (cgroup) {
		csv_text(cfg, cgroup);
		fputs(s, cfg->out);
	}
	/* a wrapped count ran: its run-time and share are real */
	if (none && strcmp(none, STAT_WRAPPED_TEXT) != 0) {
		/* perf: the spread of no values is 0.00% */
		if (res->noise)
			fprintf(cfg->out, "0.00%%%s", s);
		fprintf(cfg->out, "0%s%.2f%s%s\n", s, stat_no_count_pct(res, i, unit), s, s);
		csv_beside_lines(cfg, res, i, unit, beside);
		return;
	}
	if (res->noise) {
		if (unit < 0 && !none && !isnan(res->noise[i].rel_stddev))
			fprintf(cfg->out, "%.2f%%", res->noise[i].rel_stddev);
		fputs(s, cfg->out);
	}
	fprintf(cfg->out, "%s%s%.2f%s",
	        count_str(stat_run_ns(cfg, res, i, unit), false, num, sizeof(num)), s, 100 * share,
	        s);
	if (!none && stat_shadow_metric(res, i, unit, &m, &munit)) {
		/* perf's print_metric_csv: the value in its format, from the
		 * first digit up to the first character that is not one or '.' */
		char buf[64];
		const char *v = stat_shadow_text(m, munit, buf, sizeof(buf));
		v += strspn(v, " ");
		fprintf(cfg->out, "%.*s%s", (int)strspn(v, "0123456789."), v, s);
		csv_text(cfg, munit);
	} else if (beside >= 0) {
		csv_beside(cfg, res, (unsigned)beside);
		beside = stat_metric_beside_next(cfg, res, i, beside);
	} else
		fputs(s, cfg->out);
	fputc('\n', cfg->out);
	csv_beside_lines(cfg, res, i, unit, beside);
}

static void csv_metric(const struct stat_config *cfg, const struct stat_result *res, unsigned k,
                       int unit)
{
	const struct stat_metric *m = unit >= 0 ? &res->unit_metrics[unit][k] : &res->metrics[k];
	const char *s = cfg->csv_sep;
	csv_summary(cfg);
	if (cfg->interval_ms > 0)
		fprintf(cfg->out, "%16.9f%s", res->timestamp, s);
	char v[64], text[256], aggr[64];
	if (res->aggr && unit >= 0) {
		/* an id's metric: perf's prefix fields, its count the id's units */
		fputs(stat_aggr_prefix(cfg, res, STAT_AGGR_METRIC_ROW, unit, aggr, sizeof(aggr)),
		      cfg->out);
	} else if (res->aggr) {
		/* the totals of a view: as many fields, the id "all" as -A's */
		csv_text(cfg, "all");
		fprintf(cfg->out, "%s%u%s", s, res->aggr->nr_metric_members, s);
	} else if (cfg->per_unit) {
		csv_text(cfg, unit >= 0 ? res->metric_unit_names[unit] : "all");
		fputs(s, cfg->out);
	}
	/* no counter fields: value, unit, event, [variance,] run-time, pcnt empty */
	fprintf(cfg->out, "%s%s%s%s%s", s, s, s, s, s);
	if (res->noise)
		fputs(s, cfg->out);
	if (res->list->nr && stat_cgroup_field(res, 0))
		fputs(s, cfg->out);
	fputs(isnan(m->value) ? "n/a" : stat_fixed2(m->value, v, sizeof(v)), cfg->out);
	fputs(s, cfg->out);
	/* the unit field is the unit and the name alone: the bottleneck mark
	 * and the range flag go to csv_metric_notes' comment lines */
	snprintf(text, sizeof(text), "%s %s", m->unit, m->name);
	csv_text(cfg, text);
	fputc('\n', cfg->out);
}

/* What hpmstat knows beyond perf's fields, as '#' comment lines after the
 * metric rows (perf's CSV readers skip them): the Topdown bottleneck path
 * (std output's "<==") and the metrics outside their range. */
static void csv_metric_notes(const struct stat_config *cfg, const struct stat_metric *m, unsigned n,
                             const char *unit_name)
{
	char v[64];
	bool any = false;
	for (unsigned k = 0; k < n; k++) {
		if (!m[k].bottleneck)
			continue;
		if (!any)
			fprintf(cfg->out, "# %s%sbottleneck <==:", unit_name ? unit_name : "",
			        unit_name ? " " : "");
		fprintf(cfg->out, " %s", m[k].name);
		any = true;
	}
	if (any)
		fputc('\n', cfg->out);
	for (unsigned k = 0; k < n; k++)
		if (m[k].out_of_range)
			fprintf(cfg->out, "# %s%s%s out of range: %s\n", unit_name ? unit_name : "",
			        unit_name ? " " : "", m[k].name,
			        metric_range_text(m[k].value, v, sizeof(v)));
}

/* The emulator's label and the note on an aggregation's metrics, as
 * comment lines, which perf's CSV readers skip: no field is added to
 * perf's rows. */
static void csv_begin(const struct stat_config *cfg, const struct stat_result *res)
{
	char label[512], not_measured[512];
	if (cfg->emu.active && (res->first || cfg->emu.run.partial))
		fprintf(cfg->out, "# %s%s\n", stat_emu_describe(&cfg->emu, label, sizeof(label)),
		        stat_emu_not_measured(cfg, not_measured, sizeof(not_measured)));
	const char *note = stat_aggr_metrics_note(res);
	if (note && res->first)
		fprintf(cfg->out, "# %s\n", note);
}

/* --metric-only: a header of the metrics (each "unit name"), then a row of
 * their values; --per-core and the like: each id's row, and no total */
static void csv_metric_only(const struct stat_config *cfg, const struct stat_result *res)
{
	const char *s = cfg->csv_sep;
	char num[32];
	bool per_unit = !res->aggr && stat_metric_only_per_unit(cfg, res);
	bool per_id = (res->aggr && res->aggr->metrics_per_id) || per_unit;
	if (res->first) {
		if (cfg->interval_ms > 0)
			fprintf(cfg->out, "time%s", s);
		/* per id: the prefix fields' names, as perf's "core,cpus,";
		 * -A's "cpu," */
		if (per_unit)
			fprintf(cfg->out, "cpu%s", s);
		else if (per_id)
			stat_metric_only_csv_header(cfg, res);
		for (unsigned k = 0; k < res->nr_metrics; k++) {
			char h[256];
			snprintf(h, sizeof(h), "%s %s", res->metrics[k].unit, res->metrics[k].name);
			fputs(k ? s : "", cfg->out);
			csv_text(cfg, h);
		}
		fputc('\n', cfg->out);
	}
	for (int u = per_id ? 0 : -1; u < (per_id ? (int)res->nr_metric_units : 0); u++) {
		const struct stat_metric *m = u >= 0 ? res->unit_metrics[u] : res->metrics;
		if (!m)
			continue;
		csv_prefix(cfg, res, STAT_AGGR_METRIC_ROW, per_unit ? -1 : u);
		if (per_unit) {
			csv_text(cfg, res->metric_unit_names[u]);
			fputs(s, cfg->out);
		}
		for (unsigned k = 0; k < res->nr_metrics; k++) {
			if (isnan(m[k].value))
				fprintf(cfg->out, "%sn/a", k ? s : "");
			else
				fprintf(cfg->out, "%s%s", k ? s : "",
				        stat_fixed2(m[k].value, num, sizeof(num)));
		}
		fputc('\n', cfg->out);
		csv_metric_notes(cfg, m, res->nr_metrics,
		                 u >= 0 ? res->metric_unit_names[u] : NULL);
	}
}

/* After the metric rows of the totals or of one unit: their notes. */
static void csv_unit_end(const struct stat_config *cfg, const struct stat_result *res, int unit)
{
	char idle[512];
	if (unit < 0 && !res->aggr && stat_idle_note(res, idle, sizeof(idle))[0])
		fprintf(cfg->out, "# %s: not in the Topdown\n", idle);
	if (unit < 0)
		csv_metric_notes(cfg, res->metrics, res->nr_metrics, NULL);
	else
		csv_metric_notes(cfg, res->unit_metrics[unit], res->nr_metrics,
		                 res->metric_unit_names[unit]);
}

const struct stat_print_format stat_print_csv = {
    .begin = csv_begin,
    .metric_only = csv_metric_only,
    .event = csv_event,
    .metric = csv_metric,
    .unit_end = csv_unit_end,
};
