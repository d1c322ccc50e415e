/* print.c: stat_print, the one walk over a measurement's rows that every
 * format shares (print-format.h has its leaves). Which rows print, and in
 * which order, is decided here once, so std, CSV and JSON cannot list
 * different rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric/metric.h"
#include "stat/aggr.h"
#include "stat/shadow.h"
#include "stat/print-format.h"
#include "stat/stat.h"
#include "stat/values.h"

bool stat_metrics_beside(const struct stat_config *cfg, const struct stat_result *res)
{
	if (cfg->topdown_level || cfg->metric_only || res->aggr || cfg->per_unit)
		return false;
	/* a replayed run file knows no metric's events: its rows as before */
	for (unsigned k = 0; k < res->nr_metrics; k++)
		if (res->metrics[k].beside >= 0)
			return true;
	return false;
}

int stat_metric_beside_next(const struct stat_config *cfg, const struct stat_result *res,
                            unsigned i, int after)
{
	if (!stat_metrics_beside(cfg, res))
		return -1;
	for (unsigned k = (unsigned)(after + 1); k < res->nr_metrics; k++)
		if (res->metrics[k].beside == (int)i)
			return (int)k;
	return -1;
}

void stat_metric_beside_text(const struct stat_metric *m, char *val, size_t vlen, char *unit,
                             size_t ulen)
{
	bool scaled = m->def && m->def->scale_unit;
	if (isnan(m->value))
		snprintf(val, vlen, "%8s", "n/a");
	else
		snprintf(val, vlen, scaled ? "%8.1f" : "%8.2f", m->value);
	if (scaled)
		snprintf(unit, ulen, "%s  %s", m->unit, m->name);
	else
		snprintf(unit, ulen, "%s", m->name);
}

/* The event rows: an aggregated view's in perf's order; else every row
 * (those added for metrics only with -v, or beside their metrics as perf
 * shows -M's events), each unit with -A. Returns how many rows (a -A row
 * and its units being one) were printed. */
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
		if (l->ev[i].metric_only && !cfg->verbose && !stat_metrics_beside(cfg, res))
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

bool stat_metric_only_per_unit(const struct stat_config *cfg, const struct stat_result *res)
{
	return cfg->metric_only && cfg->per_unit && res->nr_metric_units > 0;
}

/* The metric rows: the totals (not when an aggregation has each id's, nor
 * with --metric-only -A), then each metric unit's (-A's harts or CPUs, or
 * the aggregation ids). */
static void walk_metrics(const struct stat_print_format *f, const struct stat_config *cfg,
                         const struct stat_result *res, unsigned rows)
{
	bool per_id = (res->aggr && res->aggr->metrics_per_id) ||
	              (!res->aggr && stat_metric_only_per_unit(cfg, res));
	bool beside = stat_metrics_beside(cfg, res);
	unsigned own = 0;
	for (unsigned k = 0; k < res->nr_metrics; k++)
		own += !beside || res->metrics[k].beside < 0;
	/* every metric beside its event: no title nor blank line before no
	 * metric rows; their notes still follow */
	if (f->metrics_begin && own)
		f->metrics_begin(cfg, res, rows);
	if (!per_id) {
		for (unsigned k = 0; k < res->nr_metrics; k++)
			if (!beside || res->metrics[k].beside < 0)
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

void stat_metric_only_csv_header(const struct stat_config *cfg, const struct stat_result *res)
{
	const char *key, *id;
	unsigned nr;
	if (!stat_aggr_json(res, STAT_AGGR_METRIC_ROW, 0, &key, &id, &nr))
		return;
	/* perf's aggr_header_csv: no "cpus" field for --per-node (its rows
	 * have the count all the same) */
	if (strcmp(key, "node") == 0)
		fprintf(cfg->out, "%s%s", key, cfg->csv_sep);
	else
		fprintf(cfg->out, "%s%scpus%s", key, cfg->csv_sep, cfg->csv_sep);
}

/* shadow_only's rows: the view's ids (--per-core and the like), -A's units
 * (those of `first`, the first event shown), or 0: the totals alone */
static unsigned shadow_rows(const struct stat_config *cfg, const struct stat_result *res,
                            unsigned first)
{
	if (res->aggr)
		return res->aggr->nr_ids;
	return cfg->per_unit && first < res->list->nr ? stat_nr_units(res, first) : 0;
}

/* The prefix of row `unit` (-1: the header, or the totals' row) of
 * shadow_only: the time of -I, then the id's columns as the event rows
 * have them (perf's "S0-D0-C1           1 ", "CPU1       "; CSV's fields
 * and, in the header, their names "core,cpus,"; JSON's keys). */
static void shadow_prefix(const struct stat_config *cfg, const struct stat_result *res,
                          unsigned first, int unit, bool header, unsigned nr_rows)
{
	bool csv = cfg->format == STAT_FORMAT_CSV, json = cfg->format == STAT_FORMAT_JSON;
	const char *s = cfg->csv_sep;
	if (json)
		fputc('{', cfg->out);
	else if (!csv && !nr_rows)
		fputc(' ', cfg->out);
	if (cfg->interval_ms > 0 && json)
		fprintf(cfg->out, "\"interval\" : %.9f%s", res->timestamp, nr_rows ? ", " : "");
	else if (cfg->interval_ms > 0 && csv && header)
		fprintf(cfg->out, "time%s", s);
	else if (cfg->interval_ms > 0 && csv)
		fprintf(cfg->out, "%.9f%s", res->timestamp, s);
	else if (cfg->interval_ms > 0 && header)
		fprintf(cfg->out, "%16s ", "time");
	else if (cfg->interval_ms > 0)
		fprintf(cfg->out, "%16.9f ", res->timestamp);
	if (!nr_rows)
		return;
	const char *key, *id;
	unsigned nr;
	char aggr[64];
	if (res->aggr) {
		/* the header: the names of the fields (CSV), blanks as wide as
		 * the columns (std) */
		if (json && !header && stat_aggr_json(res, first, unit, &key, &id, &nr)) {
			fprintf(cfg->out, "\"%s\" : \"%s\"", key, id);
			if (nr)
				fprintf(cfg->out, ", \"aggregate-number\" : %u", nr);
		} else if (csv && header) {
			stat_metric_only_csv_header(cfg, res);
		} else if (!json) {
			const char *p = stat_aggr_prefix(cfg, res, first, header ? 0 : unit, aggr,
			                                 sizeof(aggr));
			fprintf(cfg->out, "%-*s", (int)strlen(p), header && !csv ? "" : p);
		}
		return;
	}
	const char *name = header ? "" : stat_unit_name(res, first, (unsigned)unit);
	/* -A: perf's key and field "cpu" with the number (a hart's too) */
	const char *number = name + strcspn(name, "0123456789");
	if (json && !header)
		fprintf(cfg->out, "\"cpu\" : \"%s\"", number);
	else if (csv)
		fprintf(cfg->out, "%s%s", header ? "cpu" : name, s);
	else if (!json)
		fprintf(cfg->out, "%-10s ", name);
}

/* --metric-only without metrics (no -M, no --topdown): perf's table of
 * the default events' shadow values (stat_shadow_column): the totals, or
 * with an aggregation mode or -A a row per id, after the id's columns.
 * std: a line of the headers and one of the values, each right-aligned in
 * 18 columns as hpmstat's metric table (wider for a longer header); CSV:
 * the headers, then the numbers as perf's CSV cuts them; JSON: one object
 * of "header" : "value" strings a row, as perf 6.12's
 * print_metric_only_json, and "metric-value" : "none" in a row without a
 * value, as its print_metric_end (never an empty object). */
static void shadow_only(const struct stat_config *cfg, const struct stat_result *res)
{
	const struct hpm_evlist *l = res->list;
	bool csv = cfg->format == STAT_FORMAT_CSV, json = cfg->format == STAT_FORMAT_JSON;
	const char *s = cfg->csv_sep;
	char head[160], val[64];
	bool header = cfg->interval_ms <= 0 || res->first;
	unsigned first = 0;
	while (first < l->nr && l->ev[first].metric_only && !cfg->verbose)
		first++;
	unsigned nr_rows = shadow_rows(cfg, res, first);
	for (int row = header && !json ? -2 : -1; row < (int)nr_rows; row++) {
		/* -2: the header; -1: the totals (when there are no ids) */
		if (row == -1 && nr_rows)
			continue;
		int unit = row < 0 ? -1 : row;
		bool pass = row != -2;
		unsigned n = 0, json_values = 0;
		shadow_prefix(cfg, res, first, unit, !pass, nr_rows);
		for (unsigned i = 0; i < l->nr; i++) {
			if ((l->ev[i].metric_only && !cfg->verbose) ||
			    !stat_shadow_column(res, i, head, sizeof(head)))
				continue;
			double m;
			const char *munit;
			val[0] = '\0';
			bool has = unit < 0 || (unsigned)unit < shadow_rows(cfg, res, i);
			if (pass && has && !stat_no_count_text(res, i, unit) &&
			    stat_shadow_metric(res, i, unit, &m, &munit))
				stat_shadow_text(m, munit, val, sizeof(val));
			const char *v = val + strspn(val, " ");
			int w = (int)strlen(head) > 18 ? (int)strlen(head) : 18;
			bool keyed = n || cfg->interval_ms > 0 || nr_rows;
			if (json && *v) {
				fprintf(cfg->out, "%s\"%s\" : \"%.*s\"", keyed ? ", " : "", head,
				        (int)strspn(v, "0123456789."), v);
				json_values++;
			} else if (csv)
				fprintf(cfg->out, "%s%.*s", n ? s : "",
				        pass ? (int)strspn(v, "0123456789.") : 160,
				        pass ? v : head);
			else if (!json)
				fprintf(cfg->out, " %*s", w, pass ? val : head);
			n++;
		}
		if (json && !json_values)
			fprintf(cfg->out, "%s\"metric-value\" : \"none\"",
			        cfg->interval_ms > 0 || nr_rows ? ", " : "");
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
	const struct stat_print_format *f = cfg->format == STAT_FORMAT_CSV    ? &stat_print_csv
	                                    : cfg->format == STAT_FORMAT_JSON ? &stat_print_json
	                                                                      : &stat_print_std;
	/* The report is composed in memory and handed to cfg->out in one
	 * piece: standard error is unbuffered, and the std report is a dozen
	 * prints, each its own write(2) there (issue 30: ten system calls a
	 * run); one piece also keeps another writer's lines out of its middle.
	 * Without the memory (or when it ran out on the way), straight to
	 * cfg->out. */
	char *text = NULL;
	size_t text_len = 0;
	bool composed = false;
	FILE *mem = open_memstream(&text, &text_len);
	if (mem) {
		struct stat_config to_memory = *cfg;
		to_memory.out = mem;
		display(f, &to_memory, res);
		composed = !ferror(mem);
		composed = fclose(mem) == 0 && composed;
		if (composed && text_len)
			fwrite(text, 1, text_len, cfg->out);
		free(text);
	}
	if (!composed)
		display(f, cfg, res);
	stat_shadow_index_free(&ix);
	stat_aggr_view_free(view);
}
