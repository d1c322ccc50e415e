/* replay.c: see replay.h. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <linux/perf_event.h>

#include "metric/metric.h"
#include "report/replay.h"
#include "util/count-json.h"
#include "util/xalloc.h"

struct rctx {
	const char *name;
	char *err;
	size_t errlen;
};

static int bad(struct rctx *c, const char *path, const char *key, const char *want)
{
	snprintf(c->err, c->errlen, "%s: %s%s%s: expected %s", c->name, path, *path ? "." : "", key,
	         want);
	return -1;
}

/* The optional keys: absent (or null) gives the default; another type is
 * an error naming the key, as runfile.c names its keys. */
static int opt_bool(struct rctx *c, json_t *o, const char *path, const char *key, bool *out)
{
	json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_boolean(v))
		return bad(c, path, key, "true or false");
	*out = json_is_true(v);
	return 0;
}

static int opt_number(struct rctx *c, json_t *o, const char *path, const char *key, double *out)
{
	json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return bad(c, path, key, "a number");
	*out = json_number_value(v);
	return 0;
}

static int opt_string(struct rctx *c, json_t *o, const char *path, const char *key,
                      const char **out)
{
	json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return bad(c, path, key, "a string");
	*out = json_string_value(v);
	return 0;
}

static int opt_count(struct rctx *c, json_t *o, const char *path, const char *key, uint64_t *out)
{
	json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return 0;
	if (!count_from_json(v, out))
		return bad(c, path, key, "a count");
	return 0;
}

static enum hpm_evsel_state state_of(const char *s)
{
	if (strcmp(s, "ok") == 0)
		return HPM_EV_OK;
	if (strcmp(s, "not-supported") == 0)
		return HPM_EV_NOT_SUPPORTED;
	if (strcmp(s, "not-modelled") == 0)
		return HPM_EV_NOT_MODELLED;
	return HPM_EV_NOT_COUNTED;
}

/* rf counts as the evlist's; at least one unit, so a row without counts
 * (not supported) reads as one that never ran */
static struct hpm_count *counts_of(const struct rf_count *k, unsigned n, unsigned *nr)
{
	*nr = n ? n : 1;
	struct hpm_count *c = xcalloc(*nr, sizeof(*c));
	for (unsigned u = 0; u < n; u++)
		c[u] = (struct hpm_count){.val = k[u].value,
		                          .ena = k[u].enabled,
		                          .run = k[u].running,
		                          .wrapped = k[u].wrapped};
	return c;
}

static int read_event(struct rctx *c, struct stat_replay *r, unsigned i, json_t *o)
{
	const struct rf_event *f = &r->rf.ev[i];
	struct hpm_evsel *e = &r->list.ev[i];
	char path[48];
	const char *spec = f->name, *placement = NULL, *fixed = NULL, *cgroup = NULL;
	snprintf(path, sizeof(path), "events[%u]", i);
	e->group = -1;
	if (opt_string(c, o, path, "spec", &spec) ||
	    opt_bool(c, o, path, "emulated", &e->emulated) ||
	    opt_bool(c, o, path, "metric_only", &e->metric_only) ||
	    opt_string(c, o, path, "placement", &placement) ||
	    opt_string(c, o, path, "fixed", &fixed) || opt_string(c, o, path, "cgroup", &cgroup))
		return -1;
	e->cgroup = cgroup ? xstrdup(cgroup) : NULL;
	e->name = xstrdup(f->name);
	e->spec = xstrdup(spec);
	e->placement = placement ? xstrdup(placement) : NULL;
	e->kind = f->host ? HPM_EV_HOST : f->fixed ? HPM_EV_MODEL_FIXED : HPM_EV_MODEL;
	if (f->model) {
		int fx = fixed ? hpm_model_fixed_by_name(f->model, fixed, strlen(fixed)) : -1;
		e->enc.model = f->model;
		e->enc.fixed = f->fixed ? (fx >= 0 ? fx : 0) : -1;
	}
	e->state = state_of(f->state);
	e->unit = f->unit;
	e->scale = f->scale;
	json_t *attr = json_object_get(o, "attr");
	if (attr && json_is_object(attr)) {
		/* the writer's integers (json_int_t: a config above 2^63 - 1 reads
		 * back as its two's complement) */
		json_t *type = json_object_get(attr, "type"),
		       *config = json_object_get(attr, "config");
		snprintf(path, sizeof(path), "events[%u].attr", i);
		if ((type && !json_is_integer(type)) || (config && !json_is_integer(config)))
			return bad(c, path, type && !json_is_integer(type) ? "type" : "config",
			           "an integer");
		e->attr_type = type ? (uint32_t)json_integer_value(type) : 0;
		e->attr_config = config ? (uint64_t)json_integer_value(config) : 0;
	}
	e->counts = counts_of(f->counts, f->nr_counts, &e->nr_units);
	char **names = xcalloc(e->nr_units, sizeof(*names));
	for (unsigned u = 0; u < e->nr_units; u++)
		names[u] = xstrdup(u < f->nr_counts ? f->counts[u].unit : "task");
	e->unit_names = names;
	r->unit_names[i] = names;
	return 0;
}

/* -r: the means and spreads the file holds */
static int read_noise(struct rctx *c, struct stat_replay *r, json_t *events)
{
	r->noise = xcalloc(r->list.nr + 1, sizeof(*r->noise));
	for (unsigned i = 0; i < r->list.nr; i++) {
		json_t *o = json_array_get(events, i);
		struct stat_noise *n = &r->noise[i];
		char path[48];
		uint64_t mean;
		snprintf(path, sizeof(path), "events[%u]", i);
		n->rel_stddev = r->rf.ev[i].rel_stddev;
		n->mean = (double)NAN;
		n->sem = (double)NAN;
		json_t *m = json_object_get(o, "mean");
		if (m && count_from_json(m, &mean)) {
			n->count_exact = true;
			n->count_mean = mean;
			n->mean = (double)mean;
		} else if (opt_number(c, o, path, "mean", &n->mean)) {
			return -1;
		}
		if (opt_number(c, o, path, "mean_unrounded", &n->mean))
			return -1;
		if (opt_number(c, o, path, "running_mean", &n->run_mean))
			return -1;
	}
	return 0;
}

static void metric_of(const struct stat_replay *r, unsigned k, const struct rf_mval *v,
                      struct stat_metric *m)
{
	const struct rf_node *d = &r->rf.node[k];
	*m = (struct stat_metric){.name = d->name,
	                          .def = metric_by_name(rf_metrics(&r->rf), d->name),
	                          .display = xstrdup(d->display),
	                          .unit = d->unit,
	                          .level = d->level,
	                          .parent = d->parent,
	                          .under = -1,
	                          .beside = -1,
	                          .value = v->value,
	                          .raw = v->raw,
	                          .out_of_range = v->out_of_range,
	                          .over_threshold = v->over_threshold,
	                          .bottleneck = v->bottleneck,
	                          .multiplexed = v->multiplexed};
}

/* -A: the metrics of each unit (unit_metrics), in the order of metrics */
static int read_unit_metrics(struct rctx *c, struct stat_replay *r, json_t *um)
{
	if (!um || json_is_null(um))
		return 0;
	if (!json_is_array(um))
		return bad(c, "", "unit_metrics", "an array");
	unsigned n = (unsigned)json_array_size(um);
	r->unit_metric_names = xcalloc(n + 1, sizeof(*r->unit_metric_names));
	r->unit_metrics = xcalloc(n + 1, sizeof(*r->unit_metrics));
	for (unsigned u = 0; u < n; u++) {
		json_t *o = json_array_get(um, u), *a = json_object_get(o, "metrics");
		const char *name = NULL;
		char path[64];
		snprintf(path, sizeof(path), "unit_metrics[%u]", u);
		if (opt_string(c, o, path, "unit", &name))
			return -1;
		if (!name || !json_is_array(a) || json_array_size(a) != r->rf.nr_node)
			return bad(c, path, "metrics", "a unit and one entry per metric");
		r->unit_metric_names[u] = xstrdup(name);
		r->unit_metrics[u] = xcalloc(r->rf.nr_node + 1, sizeof(**r->unit_metrics));
		r->nr_unit_metrics++;
		for (unsigned k = 0; k < r->rf.nr_node; k++) {
			json_t *mo = json_array_get(a, k);
			struct rf_mval v = {.value = (double)NAN, .raw = (double)NAN};
			snprintf(path, sizeof(path), "unit_metrics[%u].metrics[%u]", u, k);
			if (opt_number(c, mo, path, "value", &v.value) ||
			    opt_number(c, mo, path, "raw", &v.raw) ||
			    opt_bool(c, mo, path, "bottleneck", &v.bottleneck) ||
			    opt_bool(c, mo, path, "out_of_range", &v.out_of_range) ||
			    opt_bool(c, mo, path, "over_threshold", &v.over_threshold) ||
			    opt_bool(c, mo, path, "multiplexed", &v.multiplexed))
				return -1;
			metric_of(r, k, &v, &r->unit_metrics[u][k]);
		}
	}
	return 0;
}

static int read_emu(struct rctx *c, struct stat_replay *r, json_t *emu)
{
	struct stat_emu_label *l = &r->cfg.emu;
	double freq = 0;
	uint64_t seed = 0, cycles = 0, wanted = 0;
	if (!emu || !json_is_object(emu))
		return 0;
	l->active = true;
	l->run.model = r->rf.model ? r->rf.model->display : NULL;
	l->run.profile = r->rf.profile;
	l->run.trace = r->rf.trace;
	l->run.harts = r->rf.harts;
	if (opt_count(c, emu, "emulated", "seed", &seed) ||
	    opt_count(c, emu, "emulated", "cycles", &cycles) ||
	    opt_number(c, emu, "emulated", "freq_hz", &freq) ||
	    opt_bool(c, emu, "emulated", "follows_command", &l->run.follows_command) ||
	    opt_bool(c, emu, "emulated", "multiplexed", &l->run.multiplexed) ||
	    opt_bool(c, emu, "emulated", "partial", &l->run.partial) ||
	    opt_bool(c, emu, "emulated", "interrupted", &l->run.interrupted) ||
	    opt_count(c, emu, "emulated", "cycles_wanted", &wanted))
		return -1;
	l->run.seed = seed;
	l->run.cycles = cycles;
	l->run.freq = freq;
	l->run.cycles_wanted = wanted;
	return 0;
}

/* What the recording printed with: its target and its output options */
static int read_output(struct rctx *c, struct stat_replay *r, json_t *root)
{
	struct stat_config *cfg = &r->cfg;
	json_t *out = json_object_get(root, "output");
	if (opt_string(c, root, "", "target", &cfg->target))
		return -1;
	if (!out || json_is_null(out))
		return 0;
	if (!json_is_object(out))
		return bad(c, "", "output", "an object");
	return opt_bool(c, out, "output", "per_unit", &cfg->per_unit) ||
	               opt_bool(c, out, "output", "metric_only", &cfg->metric_only) ||
	               opt_bool(c, out, "output", "verbose", &cfg->verbose) ||
	               opt_bool(c, out, "output", "no_big_num", &cfg->no_big_num) ||
	               opt_bool(c, out, "output", "summary", &cfg->summary) ||
	               opt_bool(c, out, "output", "table", &cfg->run_table)
	           ? -1
	           : 0;
}

int stat_replay_load(const char *buf, size_t len, const char *name, struct stat_replay *r,
                     char *err, size_t errlen)
{
	struct rctx c = {.name = name, .err = err, .errlen = errlen};
	memset(r, 0, sizeof(*r));
	if (rf_load_buffer(buf, len, name, &r->rf, err, errlen) != 0)
		return -1;
	json_t *root = r->rf.doc, *events = json_object_get(root, "events");
	struct rf_run *f = &r->rf;

	r->list.nr = f->nr_ev;
	r->list.ev = xcalloc(f->nr_ev + 1, sizeof(*r->list.ev));
	r->unit_names = xcalloc(f->nr_ev + 1, sizeof(*r->unit_names));
	for (unsigned i = 0; i < f->nr_ev; i++)
		if (read_event(&c, r, i, json_array_get(events, i)))
			return -1;

	struct stat_config *cfg = &r->cfg;
	cfg->out = stderr;
	cfg->csv_sep = ",";
	cfg->command = f->command;
	cfg->topdown_level = f->topdown_level;
	cfg->interval_ms = f->interval_ms;
	cfg->repeat = f->repeat;
	if (read_emu(&c, r, json_object_get(root, "emulated")) || read_output(&c, r, root))
		return -1;
	cfg->emu.run.repeats = f->nr_runs;

	struct stat_result *res = &r->res;
	res->list = &r->list;
	res->first = true;
	/* a run without the command's times (perf stat record keeps none):
	 * not printed, as perf stat report prints none */
	if (!json_object_get(root, "user_s"))
		res->user_s = res->sys_s = (double)NAN;
	if (opt_number(&c, root, "", "elapsed_ns", &res->elapsed_ns) ||
	    opt_number(&c, root, "", "user_s", &res->user_s) ||
	    opt_number(&c, root, "", "sys_s", &res->sys_s))
		return -1;
	/* -r: each run's wall time and the spread the recording printed */
	json_t *runs = json_object_get(root, "runs");
	r->run_elapsed = xcalloc(f->nr_runs + 1, sizeof(double));
	for (unsigned k = 0; k < f->nr_runs; k++) {
		char path[32];
		snprintf(path, sizeof(path), "runs[%u]", k);
		if (opt_number(&c, json_array_get(runs, k), path, "elapsed_ns", &r->run_elapsed[k]))
			return -1;
	}
	res->run_elapsed_ns = r->run_elapsed;
	res->nr_runs = f->nr_runs;
	res->elapsed_noise.mean = res->elapsed_ns;
	res->elapsed_noise.sem = (double)NAN;
	if (opt_number(&c, root, "", "elapsed_sem_ns", &res->elapsed_noise.sem))
		return -1;
	if (f->nr_runs > 1) {
		if (read_noise(&c, r, events))
			return -1;
		res->noise = r->noise;
		r->metric_noise = xcalloc(f->nr_node + 1, sizeof(*r->metric_noise));
		for (unsigned k = 0; k < f->nr_node; k++)
			r->metric_noise[k].rel_stddev = f->mval[k].rel_stddev;
		res->metric_noise = r->metric_noise;
	}
	r->metrics = xcalloc(f->nr_node + 1, sizeof(*r->metrics));
	for (unsigned k = 0; k < f->nr_node; k++)
		metric_of(r, k, &f->mval[k], &r->metrics[k]);
	res->metrics = r->metrics;
	res->nr_metrics = f->nr_node;
	if (read_unit_metrics(&c, r, json_object_get(root, "unit_metrics")))
		return -1;
	res->unit_metrics = r->unit_metrics;
	res->nr_metric_units = r->nr_unit_metrics;
	res->metric_unit_names = r->unit_metric_names;

	r->iv_counts = xcalloc(f->nr_iv + 1, sizeof(*r->iv_counts));
	r->iv_metrics = xcalloc(f->nr_iv + 1, sizeof(*r->iv_metrics));
	for (unsigned k = 0; k < f->nr_iv; k++) {
		const struct rf_interval *v = &f->iv[k];
		r->iv_counts[k] = xcalloc(f->nr_ev + 1, sizeof(**r->iv_counts));
		for (unsigned i = 0; i < f->nr_ev; i++) {
			unsigned nu;
			struct hpm_count *ivc = counts_of(v->counts[i], v->nr_counts[i], &nu);
			/* the printers read an interval's counts by the event's
			 * units: an interval that lists fewer has zero for the rest */
			unsigned want = r->list.ev[i].nr_units;
			if (nu < want) {
				ivc = xreallocarray(ivc, want, sizeof(*ivc));
				memset(ivc + nu, 0, (want - nu) * sizeof(*ivc));
			}
			r->iv_counts[k][i] = ivc;
		}
		r->iv_metrics[k] = xcalloc(f->nr_node + 1, sizeof(**r->iv_metrics));
		for (unsigned m = 0; m < f->nr_node; m++)
			metric_of(r, m, &v->mval[m], &r->iv_metrics[k][m]);
	}
	return 0;
}

unsigned stat_replay_nr_intervals(const struct stat_replay *r)
{
	return r->rf.nr_iv;
}

void stat_replay_interval(const struct stat_replay *r, unsigned k, struct stat_result *out)
{
	double start = k ? r->rf.iv[k - 1].time : 0;
	*out = (struct stat_result){.list = &r->list,
	                            .elapsed_ns = (r->rf.iv[k].time - start) * 1e9,
	                            .interval_nr = k,
	                            .timestamp = r->rf.iv[k].time,
	                            .first = k == 0,
	                            .metrics = r->iv_metrics[k],
	                            .nr_metrics = r->rf.nr_node,
	                            .delta = (const struct hpm_count *const *)r->iv_counts[k]};
}

void stat_replay_free(struct stat_replay *r)
{
	for (unsigned i = 0; i < r->list.nr; i++) {
		struct hpm_evsel *e = &r->list.ev[i];
		free(e->name);
		free(e->spec);
		free(e->placement);
		free(e->cgroup);
		free(e->counts);
		for (unsigned u = 0; r->unit_names[i] && u < e->nr_units; u++)
			free(r->unit_names[i][u]);
		free(r->unit_names[i]);
	}
	free(r->list.ev);
	free(r->unit_names);
	for (unsigned k = 0; r->iv_counts && k < r->rf.nr_iv; k++) {
		for (unsigned i = 0; r->iv_counts[k] && i < r->rf.nr_ev; i++)
			free(r->iv_counts[k][i]);
		free(r->iv_counts[k]);
		stat_metrics_free(r->iv_metrics[k], r->rf.nr_node);
	}
	free(r->iv_counts);
	free(r->iv_metrics);
	stat_metrics_free(r->metrics, r->rf.nr_node);
	for (unsigned u = 0; u < r->nr_unit_metrics; u++) {
		stat_metrics_free(r->unit_metrics[u], r->rf.nr_node);
		free(r->unit_metric_names[u]);
	}
	free(r->unit_metrics);
	free(r->unit_metric_names);
	free(r->noise);
	free(r->metric_noise);
	free(r->run_elapsed);
	rf_free(&r->rf);
	memset(r, 0, sizeof(*r));
}
