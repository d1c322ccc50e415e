/* render-json.c: the report as one JSON document, schema "hpmstat-report"
 * version 1 (man hpmstat-report(1) lists its keys). Built with jansson,
 * whose number formatting does not follow the locale. */
#include <math.h>
#include <stdio.h>

#include <jansson.h>

#include "metric/metric.h"
#include "report/cells.h"
#include "report/report-int.h"
#include "util/count-json.h"

static json_t *num(double v)
{
	/* + 0.0: a -0 is written 0.0 */
	return isnan(v) || isinf(v) ? json_null() : json_real(v + 0.0);
}

static json_t *nodes(const struct report *r, const struct rf_run *rf, const struct rf_mval *mv)
{
	json_t *a = json_array();
	for (unsigned k = 0; k < rf->nr_node; k++) {
		const struct rf_node *n = &rf->node[k];
		const struct rf_mval *m = &mv[k];
		if (!rp_shown(r, n))
			continue;
		json_array_append_new(
		    a, json_pack("{s:s, s:s, s:i, s:s?, s:s, s:o, s:o, s:b, s:b, s:b}", "name",
		                 n->name, "display", n->display, "level", (int)n->level, "parent",
		                 n->parent >= 0 ? rf->node[n->parent].name : NULL, "unit", n->unit,
		                 "value", num(m->value), "rel_stddev", num(m->rel_stddev),
		                 "bottleneck", m->bottleneck, "out_of_range", m->out_of_range,
		                 "over_threshold", m->over_threshold));
	}
	return a;
}

/* counts as the run file has them: exact (hpmstat-run(5)) */
static json_t *counts(const struct rf_count *c, unsigned n)
{
	json_t *a = json_array();
	for (unsigned u = 0; u < n; u++) {
		json_t *o = json_pack("{s:s, s:o, s:o, s:o}", "unit", c[u].unit, "value",
		                      count_json(c[u].value), "enabled", count_json(c[u].enabled),
		                      "running", count_json(c[u].running));
		if (c[u].wrapped)
			json_object_set_new(o, "wrapped", json_true());
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *event_value(const struct rf_event *e)
{
	return e->exact && !e->wrapped ? count_json(e->count) : num(e->value);
}

static json_t *run_json(const struct report *r, const struct rp_run *run)
{
	const struct rf_run *rf = &run->rf;
	json_t *o = json_object(), *units = json_array(), *sl = json_array(), *ev = json_array();
	json_object_set_new(o, "name", json_string(rf->name));
	json_object_set_new(o, "file", json_string(rf->path));
	json_object_set_new(o, "created", json_string(rf->created));
	json_object_set_new(o, "command", rf->command ? json_string(rf->command) : json_null());
	json_object_set_new(o, "profile", rf->profile ? json_string(rf->profile) : json_null());
	json_object_set_new(o, "harts", json_integer(rf->harts));
	/* stat's key for emulated figures, and the words the text gives them */
	json_object_set_new(o, "emulated", json_boolean(rf->harts != 0));
	if (rf->harts) {
		char src[256];
		json_object_set_new(o, "emulation",
		                    json_string(rp_run_source(run, src, sizeof(src))));
	}
	json_object_set_new(o, "repeat", json_integer(rf->repeat));
	json_object_set_new(o, "runs", json_integer(rf->nr_runs));
	json_object_set_new(o, "interval_ms", json_real(rf->interval_ms));
	/* only a variant other than the model's default: the formulas used */
	if (rf_metrics(rf)->variant)
		json_object_set_new(o, "topdown_variant",
		                    json_string(metric_variant_name(rf_metrics(rf))));
	json_object_set_new(o, "weight", run->weighted ? json_real(run->weight) : json_null());
	for (unsigned u = 0; u < rf->nr_units; u++)
		json_array_append_new(units, json_string(rf->units[u]));
	json_object_set_new(o, "units", units);
	for (unsigned s = 0; s < run->nr_slice; s++) {
		const struct rp_slice *x = &run->slice[s];
		json_t *so = json_object();
		json_object_set_new(so, "hart", json_string(rp_slice_unit(run, x)));
		/* no cycles counted: why its nodes are null */
		if (x->unit >= 0 && rp_unit_idle(run, (unsigned)x->unit))
			json_object_set_new(so, "idle", json_true());
		json_object_set_new(so, "interval",
		                    x->interval >= 0 ? json_integer(x->interval) : json_null());
		json_object_set_new(so, "time",
		                    x->interval >= 0 ? json_real(rf->iv[x->interval].time)
		                                     : json_null());
		json_object_set_new(so, "level1_sum", num(x->l1_sum));
		json_object_set_new(so, "level1_off", json_boolean(x->l1_off));
		json_object_set_new(so, "nodes", nodes(r, rf, x->mval));
		json_array_append_new(sl, so);
	}
	json_object_set_new(o, "slices", sl);
	for (unsigned i = 0; i < rf->nr_ev; i++) {
		const struct rf_event *e = &rf->ev[i];
		json_t *eo =
		    json_pack("{s:s, s:s, s:o, s:s, s:f, s:o}", "name", e->name, "state", e->state,
		              "value", event_value(e), "unit", e->unit, "running_share",
		              e->running_share, "counts", counts(e->counts, e->nr_counts));
		if (e->wrapped)
			json_object_set_new(eo, "wrapped", json_true());
		json_array_append_new(ev, eo);
	}
	json_object_set_new(o, "events", ev);
	return o;
}

static json_t *summary(const struct report *r)
{
	json_t *o = json_object(), *a = json_array();
	if (r->weights) {
		json_t *w = json_object();
		for (unsigned i = 0; i < r->nr_run; i++)
			json_object_set_new(w, r->run[i].rf.name, json_real(r->run[i].weight));
		json_object_set_new(o, "weights", w);
	} else {
		json_object_set_new(o, "weights", json_null());
	}
	for (unsigned j = 0; j < r->nr_srow; j++) {
		const struct rp_srow *s = &r->srow[j];
		if (r->level && s->level > r->level)
			continue;
		json_t *v = json_array();
		for (unsigned i = 0; i < r->nr_run; i++)
			json_array_append_new(v, num(s->v[i]));
		json_array_append_new(a, json_pack("{s:s, s:s, s:i, s:s, s:o, s:o}", "name",
		                                   s->name, "display", s->display, "level",
		                                   (int)s->level, "unit", s->unit, "values", v,
		                                   "weighted", num(s->weighted)));
	}
	json_object_set_new(o, "nodes", a);
	return o;
}

static json_t *diff(const struct report *r)
{
	json_t *a = json_array();
	for (unsigned j = 0; j < r->nr_drow; j++) {
		const struct rp_drow *w = &r->drow[j];
		if (r->level && w->level > r->level)
			continue;
		json_array_append_new(
		    a,
		    json_pack("{s:s, s:s, s:i, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:b}",
		              "name", w->name, "display", w->display, "level", (int)w->level,
		              "unit", w->unit, "base", num(w->a), "new", num(w->b), "diff",
		              num(w->d), "se_base", num(w->se_a), "se_new", num(w->se_b), "noise",
		              w->noise == RP_NOISE_ABOVE    ? json_string("above")
		              : w->noise == RP_NOISE_WITHIN ? json_string("within")
		                                            : json_null(),
		              "bottleneck_base", w->bn_a, "bottleneck_new", w->bn_b));
	}
	return json_pack("{s:s, s:s, s:s, s:o}", "base", r->run[0].rf.name, "new",
	                 r->run[1].rf.name, "rule",
	                 "above when |diff| > 2*sqrt(se_base^2+se_new^2)", "nodes", a);
}

void rp_render_json(const struct report *r, FILE *out)
{
	json_t *root = json_object(), *runs = json_array();
	json_object_set_new(root, "schema", json_string(RP_SCHEMA));
	json_object_set_new(root, "schema_version", json_integer(RP_SCHEMA_VERSION));
	json_object_set_new(root, "level", r->level ? json_integer(r->level) : json_null());
	for (unsigned i = 0; i < r->nr_run; i++)
		json_array_append_new(runs, run_json(r, &r->run[i]));
	json_object_set_new(root, "runs", runs);
	json_object_set_new(root, "summary", summary(r));
	json_object_set_new(root, "diff", r->diff && r->nr_run == 2 ? diff(r) : json_null());
	json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	fputc('\n', out);
	json_decref(root);
}
