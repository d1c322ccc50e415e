/* print-json.c: perf stat -j output: one JSON object per line, with perf's
 * keys ("counter-value", "unit", "event", "event-runtime", "pcnt-running",
 * "metric-value", "metric-unit", and "interval", "cpu", "variance" when they
 * apply) and no other, so that perf's own checker (perf_json_output_lint.py,
 * which refuses a key it does not know) passes every row. --json-extra adds
 * hpmstat's: "pmu-table" on a PMU model's rows (kunminghu-v2,
 * kunminghu-v3...), "emulated" with the profile and seed on emulated rows, the
 * Topdown flags on metric rows, "hart" for a hart's row. The JSON leaves of
 * the display walk (print-format.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "metric/metric.h"
#include "registry/models.h"
#include "stat/aggr.h"
#include "stat/nodes.h"
#include "stat/print-format.h"
#include "stat/shadow.h"
#include "stat/values.h"
#include "util/count.h"

/* The decimals perf prints for its real-valued keys (its "%.9f", "%.2f",
 * "%f"); -1: not one of them (12 significant digits) */
static int json_real_decimals(const char *key)
{
	static const struct {
		const char *key;
		int decimals;
	} formats[] = {
	    {"interval", 9},
	    {"variance", 2},
	    {"pcnt-running", 2},
	    {"metric-value", 6},
	};
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (strcmp(key, formats[i].key) == 0)
			return formats[i].decimals;
	return -1;
}

/* One row, spaced as perf writes it (`{"key" : value, "key" : value}`), so
 * that scripts matching perf's bytes match hpmstat's too; the keys in the
 * order they were set. */
static void json_line(const struct stat_config *cfg, json_t *o)
{
	const char *key;
	json_t *v;
	bool first = true;
	fputc('{', cfg->out);
	json_object_foreach(o, key, v)
	{
		char *name = NULL;
		json_t *ks = json_string(key);
		if (ks) {
			name = json_dumps(ks, JSON_ENCODE_ANY);
			json_decref(ks);
		}
		fprintf(cfg->out, "%s%s : ", first ? "" : ", ", name ? name : "\"\"");
		free(name);
		first = false;
		int decimals = json_is_real(v) ? json_real_decimals(key) : -1;
		if (decimals >= 0 && isfinite(json_real_value(v))) {
			fprintf(cfg->out, "%.*f", decimals, json_real_value(v));
		} else {
			char *txt =
			    json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(12));
			fputs(txt ? txt : "null", cfg->out);
			free(txt);
		}
	}
	fputs("}\n", cfg->out);
	json_decref(o);
}

/* A -A row's unit: perf's "cpu" with the number; a hart's number under
 * "cpu" too (perf's key for a unit of -A), or "hart" with --json-extra */
static void json_unit_key(const struct stat_config *cfg, json_t *o, const char *name)
{
	if (strncmp(name, "CPU", 3) == 0)
		json_object_set_new(o, "cpu", json_string(name + 3));
	else if (strncmp(name, "hart", 4) == 0)
		json_object_set_new(o, cfg->json_extra ? "hart" : "cpu", json_string(name + 4));
}

static void json_common(const struct stat_config *cfg, const struct stat_result *res, json_t *o,
                        unsigned i, int unit)
{
	if (cfg->interval_ms > 0)
		json_object_set_new(o, "interval", json_real(res->timestamp));
	const char *aggr_key, *aggr_id;
	unsigned aggr_nr;
	if (stat_aggr_json(res, i, unit, &aggr_key, &aggr_id, &aggr_nr)) {
		json_object_set_new(o, aggr_key, json_string(aggr_id));
		if (aggr_nr)
			json_object_set_new(o, "aggregate-number", json_integer(aggr_nr));
	} else if (cfg->per_unit && unit >= 0) {
		const char *name = stat_unit_name(res, i, (unsigned)unit);
		json_unit_key(cfg, o, name);
		/* a task target has one unit: no key, as perf prints it */
	}
}

static void json_emu(const struct stat_config *cfg, json_t *o)
{
	json_object_set_new(o, "emulated", json_true());
	if (cfg->emu.run.trace)
		json_object_set_new(o, "emu-trace", json_string(cfg->emu.run.trace));
	else
		json_object_set_new(o, "emu-profile", json_string(cfg->emu.run.profile));
	json_object_set_new(o, "emu-seed", json_integer((json_int_t)cfg->emu.run.seed));
	if (cfg->emu.run.partial) {
		json_object_set_new(o, "emu-partial", json_true());
		json_object_set_new(o, "emu-cycles", json_integer((json_int_t)cfg->emu.run.cycles));
		json_object_set_new(o, "emu-cycles-wanted",
		                    json_integer((json_int_t)cfg->emu.run.cycles_wanted));
		json_object_set_new(o, "emu-interrupted", json_boolean(cfg->emu.run.interrupted));
	}
}

/* The keys of metric k (of m: a unit's or the totals') on object o: perf's
 * metric-value and metric-unit, -r's variance and --json-extra's own.
 * Returns false when there is no value to write (perf's checker takes
 * none): left out, null with --json-extra. */
static bool json_metric_keys(const struct stat_config *cfg, const struct stat_result *res,
                             unsigned k, const struct stat_metric *m, json_t *o)
{
	char ubuf[160];
	if (isnan(m->value) && !cfg->json_extra)
		return false;
	/* 0 within rounding is 0, never -0.0 */
	json_object_set_new(o, "metric-value",
	                    isnan(m->value) ? json_null()
	                                    : json_real(m->value == 0 ? 0.0 : m->value));
	snprintf(ubuf, sizeof(ubuf), "%s %s", m->unit, m->name);
	json_object_set_new(o, "metric-unit", json_string(ubuf));
	if (res->metric_noise && !isnan(res->metric_noise[k].rel_stddev) &&
	    !json_object_get(o, "variance"))
		json_object_set_new(o, "variance", json_real(res->metric_noise[k].rel_stddev));
	if (!cfg->json_extra)
		return true;
	json_object_set_new(o, "metric", json_string(m->name));
	if (m->level)
		json_object_set_new(o, "topdown-level", json_integer(m->level));
	json_object_set_new(o, "bottleneck", json_boolean(m->bottleneck));
	json_object_set_new(o, "out-of-range", json_boolean(m->out_of_range));
	if (m->out_of_range) {
		char why[64];
		json_object_set_new(o, "out-of-range-by",
		                    json_string(metric_range_text(m->value, why, sizeof(why))));
	}
	json_object_set_new(o, "multiplexed", json_boolean(m->multiplexed));
	const char *desc = stat_node_desc(cfg, m);
	if (desc)
		json_object_set_new(o, "desc", json_string(desc));
	if (cfg->emu.active)
		json_emu(cfg, o);
	return true;
}

static void json_metric(const struct stat_config *cfg, const struct stat_result *res, unsigned k,
                        int unit)
{
	const struct stat_metric *m = unit >= 0 ? &res->unit_metrics[unit][k] : &res->metrics[k];
	json_t *o = json_object();
	/* an aggregation id's metric: the id and its units, as its events' */
	json_common(cfg, res, o, STAT_AGGR_METRIC_ROW, res->aggr ? unit : -1);
	if (unit >= 0 && !res->aggr) {
		json_unit_key(cfg, o, res->metric_unit_names[unit]);
		/* no cycles, no slots: why its values are null */
		if (cfg->json_extra && stat_unit_idle(res, (unsigned)unit))
			json_object_set_new(o, "idle", json_true());
	}
	/* the sum's rows name the units it has no slots of: "hart2,hart3" */
	const char *idle[64];
	unsigned nidle = cfg->json_extra && unit < 0 && !res->aggr && m->level
	                     ? stat_idle_units(res, idle, 64, NULL)
	                     : 0;
	if (nidle) {
		char list[512];
		size_t off = 0;
		for (unsigned i = 0; i < nidle && i < 64 && off < sizeof(list); i++)
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s",
			                        i ? "," : "", idle[i]);
		json_object_set_new(o, "idle-units", json_string(list));
	}
	if (!json_metric_keys(cfg, res, k, m, o)) {
		json_decref(o);
		return;
	}
	json_line(cfg, o);
}

static void json_event(const struct stat_config *cfg, const struct stat_result *res, unsigned i,
                       int unit)
{
	const struct hpm_evsel *e = &res->list->ev[i];
	double share = 0, m;
	const char *munit = NULL, *none = stat_no_count_text(res, i, unit);
	char num[HPM_COUNT_STR_MAX + 8];
	json_t *o = json_object();

	(void)stat_event_value(res, i, unit, &share);
	json_common(cfg, res, o, i, unit);
	/* perf's counter-value is a string: "%f" of the count, here with every
	 * digit; rows without a number say why, "<wrapped>" among them */
	json_object_set_new(
	    o, "counter-value",
	    json_string(none ? none
	                     : stat_count_text(res, i, unit, STAT_FORMAT_JSON, num, sizeof(num))));
	bool wrapped = none && strcmp(none, STAT_WRAPPED_TEXT) == 0;
	if (wrapped && cfg->json_extra)
		json_object_set_new(o, "wrapped", json_true());
	json_object_set_new(o, "unit", json_string(e->unit));
	json_object_set_new(o, "event", json_string(e->name));
	/* -G: perf's "cgroup" after "event" */
	const char *cgroup = stat_cgroup_field(res, i);
	if (cgroup)
		json_object_set_new(o, "cgroup", json_string(cgroup));
	/* perf: with -r every row has a variance, 0 for one without a count */
	if (res->noise && unit < 0) {
		double variance = none && !wrapped ? 0.0 : res->noise[i].rel_stddev;
		if (!isnan(variance))
			json_object_set_new(o, "variance", json_real(variance));
	}
	hpm_u128 run = stat_run_ns(cfg, res, i, unit);
	/* perf's integer; beyond what a JSON integer of jansson holds (2^63
	 * ns: 292 years, only emulated) the nearest double */
	json_object_set_new(o, "event-runtime",
	                    run > INT64_MAX ? json_real((double)run)
	                                    : json_integer((json_int_t)run));
	/* a row without a count: perf's rule, as the CSV row */
	json_object_set_new(o, "pcnt-running",
	                    json_real(none && !wrapped ? stat_no_count_pct(res, i, unit)
	                                               : round(10000 * share) / 100));
	/* perf 6.1 writes both metric keys on every row: 0 and "" without a
	 * metric; a wrapped count (no state of perf's) has no metric at all */
	bool shadow = !none && stat_shadow_metric(res, i, unit, &m, &munit);
	if (!shadow) {
		m = 0;
		munit = "";
	}
	if (!wrapped) {
		json_object_set_new(o, "metric-value", json_real(m));
		json_object_set_new(o, "metric-unit", json_string(munit));
	}
	/* a model's row names its event table: detection cannot tell
	 * Kunminghu's kunminghu-v2 from kunminghu-v3, so the figures say which
	 * table's meanings they have */
	if (cfg->json_extra && (e->kind == HPM_EV_MODEL || e->kind == HPM_EV_MODEL_FIXED))
		json_object_set_new(o, "pmu-table",
		                    json_string(hpm_model_table_name(e->enc.model)));
	if (e->emulated && cfg->json_extra)
		json_emu(cfg, o);
	/* -M's metrics read from this row: the first in its metric keys, as
	 * perf's, the others in objects of their own after it (perf's
	 * new_line_json) */
	int beside = unit < 0 ? stat_metric_beside_next(cfg, res, i, -1) : -1;
	if (!shadow && !wrapped && beside >= 0) {
		(void)json_metric_keys(cfg, res, (unsigned)beside, &res->metrics[beside], o);
		beside = stat_metric_beside_next(cfg, res, i, beside);
	}
	json_line(cfg, o);
	for (; beside >= 0; beside = stat_metric_beside_next(cfg, res, i, beside))
		json_metric(cfg, res, (unsigned)beside, -1);
}

/* --metric-only has no table of its own: the metric objects alone */
const struct stat_print_format stat_print_json = {
    .event = json_event,
    .metric = json_metric,
};
