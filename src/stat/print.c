/* print.c: stat_print, the one walk over a measurement's rows that every
 * format shares (print-format.h has its leaves). Which rows print, and in
 * which order, is decided here once, so std, CSV and JSON cannot list
 * different rows. */
#include <stdio.h>
#include <string.h>

#include "stat/aggr.h"
#include "stat/shadow.h"
#include "stat/print-format.h"
#include "stat/stat.h"
#include "stat/values.h"

/* The event rows: an aggregated view's in perf's order; else every row
 * (those added for metrics only with -v), each unit with -A. Returns how
 * many rows (a -A row and its units being one) were printed. */
static unsigned walk_events(const struct stat_print_format *f, const struct stat_config *cfg,
                            const struct stat_result *res)
{
	const struct hpm_evlist *l = res->list;
	unsigned rows = 0;
	if (res->aggr) {
		for (unsigned r = 0; r < res->aggr->nr_rows; r++, rows++)
			f->event(cfg, res, res->aggr->row[r].ev, (int)res->aggr->row[r].unit);
		return rows;
	}
	for (unsigned i = 0; i < l->nr; i++) {
		if (l->ev[i].metric_only && !cfg->verbose)
			continue;
		rows++;
		if (cfg->per_unit)
			for (unsigned u = 0; u < stat_nr_units(res, i); u++)
				f->event(cfg, res, i, (int)u);
		else
			f->event(cfg, res, i, -1);
	}
	return rows;
}

/* The metric rows: the totals (not when an aggregation has each id's),
 * then each metric unit's (-A's harts or CPUs, or the aggregation ids). */
static void walk_metrics(const struct stat_print_format *f, const struct stat_config *cfg,
                         const struct stat_result *res, unsigned rows)
{
	bool per_id = res->aggr && res->aggr->metrics_per_id;
	if (f->metrics_begin)
		f->metrics_begin(cfg, res, rows);
	if (!per_id) {
		for (unsigned k = 0; k < res->nr_metrics; k++)
			f->metric(cfg, res, k, -1);
		if (f->unit_end)
			f->unit_end(cfg, res, -1);
	}
	for (unsigned u = 0; u < res->nr_metric_units; u++) {
		if (!res->unit_metrics[u])
			continue;
		if (f->unit_begin)
			f->unit_begin(cfg, res, u);
		for (unsigned k = 0; k < res->nr_metrics; k++)
			f->metric(cfg, res, k, (int)u);
		if (f->unit_end)
			f->unit_end(cfg, res, (int)u);
	}
	if (f->metrics_end)
		f->metrics_end(cfg, res);
}

/* --metric-only without metrics (no -M, no --topdown): perf's table of
 * the default events' shadow values (stat_shadow_column), the totals. std:
 * a line of the headers and one of the values, each right-aligned in 18
 * columns as hpmstat's metric table (wider for a longer header); CSV: the
 * headers, then the numbers as perf's CSV cuts them; JSON: one object of
 * "header" : "value" strings, as perf 6.12's print_metric_only_json. */
static void shadow_only(const struct stat_config *cfg, const struct stat_result *res)
{
	const struct hpm_evlist *l = res->list;
	bool csv = cfg->format == STAT_FORMAT_CSV, json = cfg->format == STAT_FORMAT_JSON;
	const char *s = cfg->csv_sep;
	char head[160], val[64];
	bool header = cfg->interval_ms <= 0 || res->first;
	for (int pass = header && !json ? 0 : 1; pass < 2; pass++) {
		unsigned n = 0;
		if (!csv && !json)
			fputc(' ', cfg->out);
		if (json)
			fputc('{', cfg->out);
		if (cfg->interval_ms > 0 && json)
			fprintf(cfg->out, "\"interval\" : %.9f", res->timestamp);
		else if (cfg->interval_ms > 0 && csv && pass)
			fprintf(cfg->out, "%.9f%s", res->timestamp, s);
		else if (cfg->interval_ms > 0 && csv)
			fprintf(cfg->out, "time%s", s);
		else if (cfg->interval_ms > 0 && pass)
			fprintf(cfg->out, "%16.9f ", res->timestamp);
		else if (cfg->interval_ms > 0)
			fprintf(cfg->out, "%16s ", "time");
		for (unsigned i = 0; i < l->nr; i++) {
			if ((l->ev[i].metric_only && !cfg->verbose) ||
			    !stat_shadow_column(res, i, head, sizeof(head)))
				continue;
			double m;
			const char *unit;
			val[0] = '\0';
			if (!stat_no_count_text(res, i, -1) &&
			    stat_shadow_metric(res, i, -1, &m, &unit))
				stat_shadow_text(m, unit, val, sizeof(val));
			const char *v = val + strspn(val, " ");
			int w = (int)strlen(head) > 18 ? (int)strlen(head) : 18;
			if (json && *v)
				fprintf(cfg->out, "%s\"%s\" : \"%.*s\"",
				        n || cfg->interval_ms > 0 ? ", " : "", head,
				        (int)strspn(v, "0123456789."), v);
			else if (csv)
				fprintf(cfg->out, "%s%.*s", n ? s : "",
				        pass ? (int)strspn(v, "0123456789.") : 160,
				        pass ? v : head);
			else if (!json)
				fprintf(cfg->out, " %*s", w, pass ? val : head);
			n++;
		}
		fputs(json ? "}\n" : "\n", cfg->out);
	}
}

static void display(const struct stat_print_format *f, const struct stat_config *cfg,
                    const struct stat_result *res)
{
	if (f->begin)
		f->begin(cfg, res);
	if (cfg->metric_only && !res->nr_metrics) {
		shadow_only(cfg, res);
	} else if (cfg->metric_only && f->metric_only) {
		f->metric_only(cfg, res);
	} else {
		unsigned rows = cfg->metric_only ? 0 : walk_events(f, cfg, res);
		if (res->nr_metrics)
			walk_metrics(f, cfg, res, rows);
	}
	if (f->end)
		f->end(cfg, res);
}

void stat_print(const struct stat_config *cfg, const struct stat_result *res)
{
	/* --per-core and the like: the same walk on the aggregated view */
	struct stat_aggr_view *view =
	    res->aggr ? NULL : stat_aggr_view_new(cfg->aggr, res, cfg->verbose);
	if (view)
		res = &view->res;
	/* every row's shadow value and cgroup column look up the same few
	 * rows: find them once, not once a row */
	struct stat_shadow_index ix;
	struct stat_result with_ix = *res;
	stat_shadow_index_build(res, &ix);
	with_ix.shadow = &ix;
	res = &with_ix;
	switch (cfg->format) {
	case STAT_FORMAT_CSV:
		display(&stat_print_csv, cfg, res);
		break;
	case STAT_FORMAT_JSON:
		display(&stat_print_json, cfg, res);
		break;
	default:
		display(&stat_print_std, cfg, res);
		break;
	}
	stat_shadow_index_free(&ix);
	stat_aggr_view_free(view);
}
