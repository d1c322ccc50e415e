/* print-csv.c: perf stat -x output, field for field:
 *   [interval,][unit,]value,unit,event,[variance,]run-time,pcnt-running,metric-value,metric-unit
 * Numbers use '.' whatever the locale (printf in the C locale: hpmstat never
 * calls setlocale for LC_NUMERIC). Emulated figures are announced by a
 * leading '#' comment line, as perf announces "# started on". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stat/stat.h"

static void csv_prefix(const struct stat_config *cfg, const struct stat_result *res, unsigned i,
                       int unit)
{
	const char *s = cfg->csv_sep;
	if (cfg->interval_ms > 0)
		fprintf(cfg->out, "%.9f%s", res->timestamp, s);
	if (cfg->per_unit && unit >= 0)
		fprintf(cfg->out, "%s%s", stat_unit_name(res, i, (unsigned)unit), s);
}

/* perf's run-time field is nanoseconds; the emulator counts time in cycles */
static double run_ns(const struct stat_config *cfg, const struct hpm_evsel *e,
                     const struct stat_result *res, int unit)
{
	double run = 0;
	const struct hpm_count *c = res->delta ? res->delta[e - res->list->ev] : e->counts;
	for (unsigned u = 0; c && u < stat_nr_units(res, (unsigned)(e - res->list->ev)); u++)
		if (unit < 0 || (unsigned)unit == u)
			run += (double)c[u].run;
	if (e->emulated && cfg->emu.freq > 0)
		run = run * 1e9 / cfg->emu.freq;
	return run;
}

static void csv_event(const struct stat_config *cfg, const struct stat_result *res, unsigned i,
                      int unit)
{
	const struct hpm_evsel *e = &res->list->ev[i];
	const char *s = cfg->csv_sep;
	double share = 0, v = stat_event_value(res, i, unit, &share), m;
	const char *munit;

	csv_prefix(cfg, res, i, unit);
	if (e->state != HPM_EV_OK || isnan(v)) {
		const char *t = e->state == HPM_EV_NOT_SUPPORTED  ? "<not supported>"
		                : e->state == HPM_EV_NOT_MODELLED ? "<not modelled>"
		                                                  : "<not counted>";
		fprintf(cfg->out, "%s%s%s%s%s%s", t, s, e->unit, s, e->name, s);
		if (res->noise)
			fprintf(cfg->out, "%s", s);
		fprintf(cfg->out, "0%s100.00%s%s\n", s, s, s);
		return;
	}
	if (res->noise && unit < 0)
		v = res->noise[i].mean;
	if (e->unit[0])
		fprintf(cfg->out, "%.2f", v);
	else
		fprintf(cfg->out, "%.0f", v);
	fprintf(cfg->out, "%s%s%s%s%s", s, e->unit, s, e->name, s);
	if (res->noise) {
		if (unit < 0 && !isnan(res->noise[i].rel_stddev))
			fprintf(cfg->out, "%.2f%%", res->noise[i].rel_stddev);
		fputs(s, cfg->out);
	}
	fprintf(cfg->out, "%.0f%s%.2f%s", run_ns(cfg, e, res, unit), s, 100 * share, s);
	if (stat_shadow_metric(res, i, unit, &m, &munit))
		fprintf(cfg->out, "%.3f%s%s", m, s, munit);
	else
		fputs(s, cfg->out);
	fputc('\n', cfg->out);
}

static void csv_metric(const struct stat_config *cfg, const struct stat_result *res, unsigned k,
                       int unit)
{
	const struct stat_metric *m = unit >= 0 ? &res->unit_metrics[unit][k] : &res->metrics[k];
	const char *s = cfg->csv_sep;
	if (cfg->interval_ms > 0)
		fprintf(cfg->out, "%.9f%s", res->timestamp, s);
	if (cfg->per_unit)
		fprintf(cfg->out, "%s%s", unit >= 0 ? res->metric_unit_names[unit] : "all", s);
	/* no counter fields: value, unit, event, [variance,] run-time, pcnt empty */
	fprintf(cfg->out, "%s%s%s%s%s", s, s, s, s, s);
	if (res->noise)
		fputs(s, cfg->out);
	if (isnan(m->value))
		fputs("n/a", cfg->out);
	else
		fprintf(cfg->out, "%.2f", m->value);
	fprintf(cfg->out, "%s%s %s%s%s\n", s, m->unit, m->name,
	        m->out_of_range ? " (out of range)" : "", m->bottleneck ? " <==" : "");
}

void stat_print_csv(const struct stat_config *cfg, const struct stat_result *res)
{
	const struct hpm_evlist *l = res->list;
	const char *s = cfg->csv_sep;
	char label[512], not_measured[512];

	/* a comment line, which perf's CSV readers skip: no field is added to
	 * perf's rows */
	if (cfg->emu.active && res->first)
		fprintf(cfg->out, "# %s%s\n", stat_emu_describe(&cfg->emu, label, sizeof(label)),
		        stat_emu_not_measured(cfg, not_measured, sizeof(not_measured)));
	if (cfg->metric_only) {
		if (res->first) {
			if (cfg->interval_ms > 0)
				fprintf(cfg->out, "time%s", s);
			for (unsigned k = 0; k < res->nr_metrics; k++)
				fprintf(cfg->out, "%s%s %s", k ? s : "", res->metrics[k].unit,
				        res->metrics[k].name);
			fputc('\n', cfg->out);
		}
		csv_prefix(cfg, res, 0, -1);
		for (unsigned k = 0; k < res->nr_metrics; k++) {
			if (isnan(res->metrics[k].value))
				fprintf(cfg->out, "%sn/a", k ? s : "");
			else
				fprintf(cfg->out, "%s%.2f", k ? s : "", res->metrics[k].value);
		}
		fputc('\n', cfg->out);
		return;
	}
	for (unsigned i = 0; i < l->nr; i++) {
		if (l->ev[i].metric_only && !cfg->verbose)
			continue;
		if (cfg->per_unit)
			for (unsigned u = 0; u < stat_nr_units(res, i); u++)
				csv_event(cfg, res, i, (int)u);
		else
			csv_event(cfg, res, i, -1);
	}
	for (unsigned k = 0; k < res->nr_metrics; k++)
		csv_metric(cfg, res, k, -1);
	for (unsigned u = 0; u < res->nr_metric_units; u++)
		for (unsigned k = 0; k < res->nr_metrics; k++)
			csv_metric(cfg, res, k, (int)u);
}
