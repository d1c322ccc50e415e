/* runfile.c: see runfile.h. Every check names the JSON path of what it
 * checks, so the one-line error says exactly which key is wrong. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "metric/metric.h"
#include "perfdata/reader.h"
#include "registry/models.h"
#include "report/perf-run.h"
#include "report/runfile.h"
#include "util/count-json.h"
#include "util/run-schema.h"
#include "util/str.h"
#include "util/xalloc.h"

/* Bounds that no real run reaches but that keep a hostile file from asking
 * for absurd allocations (units x intervals x metrics). */
#define RF_MAX_UNITS 4096
#define RF_MAX_LEVEL 8
/* See read_mval. */
#define RF_ZERO_RESIDUE 1e-10

struct ctx {
	const char *path;
	char *err;
	size_t errlen;
};

static bool fail(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct ctx *c, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s: %s", c->path, msg);
	return false;
}

/* key of object o at path p, or a failure naming p.key */
static json_t *get(struct ctx *c, json_t *o, const char *p, const char *key)
{
	json_t *v = json_object_get(o, key);
	if (!v)
		fail(c, "%s%s%s: missing", p, *p ? "." : "", key);
	return v;
}

static bool want_string(struct ctx *c, json_t *o, const char *p, const char *key, bool null_ok,
                        const char **out)
{
	json_t *v = get(c, o, p, key);
	if (!v)
		return false;
	if (null_ok && json_is_null(v)) {
		*out = NULL;
		return true;
	}
	if (!json_is_string(v))
		return fail(c, "%s%s%s: expected a string%s", p, *p ? "." : "", key,
		            null_ok ? " or null" : "");
	*out = json_string_value(v);
	return true;
}

/* A string that may hold any bytes (hpmstat-run(5)): when KEY_hex is there
 * it holds the exact bytes, and the string shown is those bytes with each
 * one that is not UTF-8 written as \xNN; files without KEY_hex read as
 * before. The shown text replaces KEY in the parsed document, which owns it. */
static bool want_bytes(struct ctx *c, json_t *o, const char *p, const char *key, bool null_ok,
                       const char **out)
{
	char hkey[64];
	snprintf(hkey, sizeof(hkey), "%s_hex", key);
	json_t *h = json_object_get(o, hkey);
	if (h) {
		char *bytes = json_is_string(h) ? str_from_hex(json_string_value(h)) : NULL;
		if (!bytes)
			return fail(c, "%s%s%s: expected an even number of hex digits, no 00", p,
			            *p ? "." : "", hkey);
		char *shown = str_escape_utf8(bytes);
		json_object_set_new(o, key, json_string(shown));
		free(shown);
		free(bytes);
	}
	return want_string(c, o, p, key, null_ok, out);
}

static bool want_number(struct ctx *c, json_t *o, const char *p, const char *key, bool null_ok,
                        double *out)
{
	json_t *v = get(c, o, p, key);
	if (!v)
		return false;
	if (null_ok && json_is_null(v)) {
		*out = (double)NAN;
		return true;
	}
	if (!json_is_number(v))
		return fail(c, "%s%s%s: expected a number%s", p, *p ? "." : "", key,
		            null_ok ? " or null" : "");
	*out = json_number_value(v);
	return true;
}

static bool want_int(struct ctx *c, json_t *o, const char *p, const char *key, json_int_t min,
                     json_int_t max, json_int_t *out)
{
	json_t *v = get(c, o, p, key);
	if (!v)
		return false;
	if (!json_is_integer(v))
		return fail(c, "%s%s%s: expected an integer", p, *p ? "." : "", key);
	json_int_t i = json_integer_value(v);
	if (i < min || i > max)
		return fail(c, "%s%s%s: %lld is out of range %lld to %lld", p, *p ? "." : "", key,
		            (long long)i, (long long)min, (long long)max);
	*out = i;
	return true;
}

/* A count, as hpmstat-run(5) writes it: an integer >= 0, or above 2^63 - 1
 * a string of decimal digits (count_json). */
static bool want_count(struct ctx *c, json_t *o, const char *p, const char *key, uint64_t *out)
{
	json_t *v = get(c, o, p, key);
	if (!v)
		return false;
	if (json_is_integer(v) && json_integer_value(v) < 0)
		return fail(c, "%s%s%s: %lld is out of range 0 to %llu", p, *p ? "." : "", key,
		            (long long)json_integer_value(v), (unsigned long long)UINT64_MAX);
	if (!count_from_json(v, out))
		return fail(c,
		            "%s%s%s: expected a count (an integer >= 0, or a string of digits "
		            "below 2^64)",
		            p, *p ? "." : "", key);
	return true;
}

static bool want_bool(struct ctx *c, json_t *o, const char *p, const char *key, bool *out)
{
	json_t *v = get(c, o, p, key);
	if (!v)
		return false;
	if (!json_is_boolean(v))
		return fail(c, "%s%s%s: expected true or false", p, *p ? "." : "", key);
	*out = json_is_true(v);
	return true;
}

static json_t *want_array(struct ctx *c, json_t *o, const char *p, const char *key)
{
	json_t *v = get(c, o, p, key);
	if (v && !json_is_array(v)) {
		fail(c, "%s%s%s: expected an array", p, *p ? "." : "", key);
		return NULL;
	}
	return v;
}

static bool want_object_at(struct ctx *c, json_t *v, const char *p)
{
	if (!json_is_object(v))
		return fail(c, "%s: expected an object", p);
	return true;
}

static bool read_counts(struct ctx *c, json_t *a, const char *p, struct rf_count **out,
                        unsigned *nr)
{
	char q[160];
	size_t n = json_array_size(a);
	*out = NULL;
	*nr = 0;
	if (!json_is_array(a))
		return fail(c, "%s: expected an array", p);
	if (n > RF_MAX_UNITS)
		return fail(c, "%s: more than %d units", p, RF_MAX_UNITS);
	*out = n ? xcalloc(n, sizeof(**out)) : NULL;
	for (size_t i = 0; i < n; i++) {
		json_t *o = json_array_get(a, i);
		struct rf_count *k = &(*out)[i];
		snprintf(q, sizeof(q), "%s[%zu]", p, i);
		if (!want_object_at(c, o, q) || !want_string(c, o, q, "unit", false, &k->unit) ||
		    !want_count(c, o, q, "value", &k->value) ||
		    !want_count(c, o, q, "enabled", &k->enabled) ||
		    !want_count(c, o, q, "running", &k->running))
			return false;
		/* absent in files of hpmstat before wrap detection: not wrapped */
		if (json_object_get(o, "wrapped") && !want_bool(c, o, q, "wrapped", &k->wrapped))
			return false;
		(*nr)++;
	}
	return true;
}

/* An event's value: an exact count (an integer, or a string of digits above
 * 2^63 - 1), a number (a msec time; any value in files before exact
 * counts) or null. */
static bool want_value(struct ctx *c, json_t *o, const char *p, struct rf_event *e)
{
	json_t *v = get(c, o, p, "value");
	uint64_t n;
	if (!v)
		return false;
	e->value = (double)NAN;
	if (json_is_null(v))
		return true;
	if (count_from_json(v, &n)) {
		e->exact = true;
		e->count = n;
		e->value = (double)n;
		return true;
	}
	if (!json_is_number(v))
		return fail(c, "%s.value: expected a count, a number or null", p);
	e->value = json_number_value(v);
	e->inexact = true;
	return true;
}

/* The registered model a kind names: "NAME" or "NAME-fixed" (its fixed
 * counters), as the writer spells model rows; NULL for none. */
static const struct hpm_pmu_model *model_of_kind(const char *kind, bool *fixed)
{
	static const char suffix[] = "-fixed";
	size_t n = strlen(kind), s = sizeof(suffix) - 1;
	char name[64];
	*fixed = n > s && strcmp(kind + n - s, suffix) == 0;
	if (*fixed)
		n -= s;
	if (n >= sizeof(name))
		return NULL;
	memcpy(name, kind, n);
	name[n] = '\0';
	return hpm_model_by_name(name);
}

/* The model whose table encodes spec to the recorded value when the
 * table kind names does not: a run of one table labelled as another's
 * (Kunminghu's kunminghu-v2 and kunminghu-v3 number most events apart,
 * so the counts would be read with the other table's meanings). NULL when
 * the kind's table gives the value, or no table does (a generic name,
 * modes --all-user changed: nothing to compare with). */
static const struct hpm_pmu_model *encoded_by_other(const struct hpm_pmu_model *kind,
                                                    const char *spec, uint64_t value)
{
	struct hpm_event_code code;
	struct hpm_diag d = {0};
	if (kind->encode(kind, spec, &code, &d) == 0 && code.value == value)
		return NULL;
	return hpm_model_other_with(kind, spec, &value);
}

static bool read_event(struct ctx *c, json_t *o, unsigned i, struct rf_event *e)
{
	char p[64];
	snprintf(p, sizeof(p), "events[%u]", i);
	e->rel_stddev = (double)NAN;
	if (!want_object_at(c, o, p) || !want_string(c, o, p, "name", false, &e->name) ||
	    !want_string(c, o, p, "kind", false, &e->kind) ||
	    !want_string(c, o, p, "state", false, &e->state) ||
	    !want_string(c, o, p, "unit", false, &e->unit) ||
	    !want_number(c, o, p, "scale", false, &e->scale) || !want_value(c, o, p, e) ||
	    !want_number(c, o, p, "running_share", false, &e->running_share))
		return false;
	if (strcmp(e->kind, "host") != 0 && !(e->model = model_of_kind(e->kind, &e->fixed)))
		return fail(c, "%s.kind: unknown kind '%.40s'", p, e->kind);
	const char *spec = json_string_value(json_object_get(o, "spec"));
	const char *raw = json_string_value(json_object_get(o, "mhpmevent"));
	uint64_t value;
	const struct hpm_pmu_model *other =
	    e->model && !e->fixed && spec && raw && str_parse_u64(raw, &value, NULL, 0) == 0
	        ? encoded_by_other(e->model, spec, value)
	        : NULL;
	if (other)
		return fail(
		    c,
		    "%s: kind '%.40s' (the %s table), but mhpmevent %.24s is the %s table's "
		    "encoding of '%.60s': a run of one table read as the other's",
		    p, e->kind, hpm_model_table_name(e->model), raw, hpm_model_table_name(other),
		    spec);
	e->host = strcmp(e->kind, "host") == 0;
	if (json_object_get(o, "rel_stddev") &&
	    !want_number(c, o, p, "rel_stddev", true, &e->rel_stddev))
		return false;
	char q[80];
	if (json_object_get(o, "wrapped") && !want_bool(c, o, p, "wrapped", &e->wrapped))
		return false;
	snprintf(q, sizeof(q), "%s.counts", p);
	json_t *a = get(c, o, p, "counts");
	if (!a || !read_counts(c, a, q, &e->counts, &e->nr_counts))
		return false;
	for (unsigned u = 0; u < e->nr_counts; u++)
		e->wrapped |= e->counts[u].wrapped;
	/* Files written before values were exact hold a real (53 bits): the
	 * exact count comes from the counts themselves, when it is the real's
	 * count (a value given as an integer is the file's word) */
	if (e->inexact && e->scale == 1.0 && !isnan(e->value) && strcmp(e->state, "ok") == 0) {
		hpm_u128 sum = 0;
		bool ran = false;
		for (unsigned u = 0; u < e->nr_counts; u++) {
			const struct rf_count *k = &e->counts[u];
			if (!k->running)
				continue;
			ran = true;
			sum += k->running == k->enabled
			           ? k->value
			           : count_muldiv(k->value, k->enabled, k->running);
		}
		if (ran && (double)sum == e->value) {
			e->exact = true;
			e->count = sum;
		}
	}
	if (e->wrapped) {
		e->exact = false;
		e->value = (double)NAN;
	}
	return true;
}

static bool read_mval(struct ctx *c, json_t *o, const char *p, struct rf_mval *v)
{
	v->rel_stddev = (double)NAN;
	if (!want_number(c, o, p, "value", true, &v->value) ||
	    !want_number(c, o, p, "raw", true, &v->raw) ||
	    !want_bool(c, o, p, "bottleneck", &v->bottleneck) ||
	    !want_bool(c, o, p, "out_of_range", &v->out_of_range) ||
	    !want_bool(c, o, p, "over_threshold", &v->over_threshold) ||
	    !want_bool(c, o, p, "multiplexed", &v->multiplexed))
		return false;
	if (json_object_get(o, "rel_stddev") &&
	    !want_number(c, o, p, "rel_stddev", true, &v->rel_stddev))
		return false;
	/* Files of hpmstat before zero snapping hold rounding residues such as
	 * 1 - 0.7 - 0.2 - 0.1 = -2.8e-17 (metrics are shares, in percent, and
	 * ratios of magnitude ~1 to 100, rounding near 1e-14): such a value is
	 * 0, and its "noise" relative to it means nothing. */
	if (!isnan(v->value) && v->value != 0 && fabs(v->value) < RF_ZERO_RESIDUE) {
		v->value = 0;
		if (fabs(v->raw) < RF_ZERO_RESIDUE)
			v->raw = 0;
		v->rel_stddev = (double)NAN;
	}
	return true;
}

static bool read_metrics(struct ctx *c, struct rf_run *r, json_t *a)
{
	char p[64];
	r->nr_node = 0;
	size_t n = json_array_size(a);
	r->node = n ? xcalloc(n, sizeof(*r->node)) : NULL;
	r->mval = n ? xcalloc(n, sizeof(*r->mval)) : NULL;
	for (size_t i = 0; i < n; i++) {
		json_t *o = json_array_get(a, i);
		struct rf_node *d = &r->node[i];
		const char *parent;
		json_int_t level;
		snprintf(p, sizeof(p), "metrics[%zu]", i);
		if (!want_object_at(c, o, p) || !want_string(c, o, p, "name", false, &d->name) ||
		    !want_string(c, o, p, "display", false, &d->display) ||
		    !want_string(c, o, p, "unit", false, &d->unit) ||
		    !want_int(c, o, p, "level", 0, RF_MAX_LEVEL, &level) ||
		    !want_string(c, o, p, "parent", true, &parent) ||
		    !read_mval(c, o, p, &r->mval[i]))
			return false;
		d->level = (unsigned)level;
		d->parent = -1;
		for (size_t k = 0; k < i; k++)
			if (strcmp(r->node[k].name, d->name) == 0)
				return fail(c, "%s.name: '%.60s' appears twice", p, d->name);
		/* the writer lists each node after its parent, one level up; a
		 * parent elsewhere would make the tree a graph */
		if (parent) {
			for (size_t k = 0; k < i; k++)
				if (strcmp(r->node[k].name, parent) == 0)
					d->parent = (int)k;
			if (d->parent < 0)
				return fail(c, "%s.parent: '%.60s' is not an earlier metric", p,
				            parent);
			if (r->node[d->parent].level + 1 != d->level)
				return fail(c, "%s.level: %u is not one below its parent's", p,
				            d->level);
		}
		if (r->mval[i].rel_stddev == r->mval[i].rel_stddev)
			r->noise = true;
		r->nr_node++;
	}
	return true;
}

static void add_unit(struct rf_run *r, const char *u)
{
	for (unsigned i = 0; i < r->nr_units; i++)
		if (strcmp(r->units[i], u) == 0)
			return;
	r->units = xreallocarray(r->units, r->nr_units + 1, sizeof(*r->units));
	r->units[r->nr_units++] = u;
}

static bool read_intervals(struct ctx *c, struct rf_run *r, json_t *a)
{
	char p[64], q[96];
	size_t n = json_array_size(a);
	r->iv = n ? xcalloc(n, sizeof(*r->iv)) : NULL;
	r->nr_iv = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *o = json_array_get(a, i);
		struct rf_interval *v = &r->iv[i];
		snprintf(p, sizeof(p), "intervals[%zu]", i);
		r->nr_iv++; /* counted first, so rf_free frees what was read */
		v->counts = r->nr_ev ? xcalloc(r->nr_ev, sizeof(*v->counts)) : NULL;
		v->nr_counts = r->nr_ev ? xcalloc(r->nr_ev, sizeof(*v->nr_counts)) : NULL;
		v->mval = r->nr_node ? xcalloc(r->nr_node, sizeof(*v->mval)) : NULL;
		if (!want_object_at(c, o, p) || !want_number(c, o, p, "time", false, &v->time))
			return false;
		json_t *ev = want_array(c, o, p, "events");
		json_t *m = ev ? want_array(c, o, p, "metrics") : NULL;
		if (!m)
			return false;
		if (json_array_size(ev) != r->nr_ev)
			return fail(c, "%s.events: %zu entries for %u events", p,
			            json_array_size(ev), r->nr_ev);
		for (unsigned e = 0; e < r->nr_ev; e++) {
			snprintf(q, sizeof(q), "%s.events[%u]", p, e);
			if (!read_counts(c, json_array_get(ev, e), q, &v->counts[e],
			                 &v->nr_counts[e]))
				return false;
		}
		/* an interval's metrics are the run's metrics, in the same order */
		if (json_array_size(m) != r->nr_node)
			return fail(c, "%s.metrics: %zu entries for %u metrics", p,
			            json_array_size(m), r->nr_node);
		for (unsigned k = 0; k < r->nr_node; k++) {
			json_t *mo = json_array_get(m, k);
			const char *name;
			snprintf(q, sizeof(q), "%s.metrics[%u]", p, k);
			if (!want_object_at(c, mo, q) ||
			    !want_string(c, mo, q, "name", false, &name))
				return false;
			if (strcmp(name, r->node[k].name) != 0)
				return fail(c, "%s.name: '%.60s' where metrics has '%.60s'", q,
				            name, r->node[k].name);
			if (!read_mval(c, mo, q, &v->mval[k]))
				return false;
		}
	}
	return true;
}

/* topdown_variant (absent in files of hpmstat before it: the default):
 * null, or a variant of the run's model's metrics. */
static bool read_variant(struct ctx *c, struct rf_run *r, json_t *root)
{
	const struct metric_table *t =
	    r->model && r->model->metrics ? r->model->metrics : &metric_table_empty;
	json_t *v = json_object_get(root, "topdown_variant");
	struct hpm_diag merr;
	r->metrics = t;
	if (!v || json_is_null(v))
		return true;
	if (!json_is_string(v))
		return fail(c, "topdown_variant: expected a string or null");
	if (metric_variant_find(t, json_string_value(v), &r->metrics, &merr) == 0)
		return true;
	if (merr.code == METRIC_ERANGE && !r->model)
		return fail(c, "topdown_variant: '%.60s' in a run of host events only",
		            json_string_value(v));
	if (merr.code == METRIC_ERANGE)
		return fail(
		    c, "topdown_variant: '%.60s', but the %s PMU model has no Topdown variants",
		    json_string_value(v), r->model->display);
	return fail(c, "topdown_variant: %s", merr.msg);
}

static bool read_run(struct ctx *c, struct rf_run *r, json_t *root)
{
	const char *schema;
	json_int_t version, repeat, level;
	if (!json_is_object(root))
		return fail(c, "not a run file: the document is not a JSON object");
	json_t *s = json_object_get(root, "schema");
	if (!s)
		return fail(c, "not a run file: no \"schema\" key");
	if (!want_string(c, root, "", "schema", false, &schema))
		return false;
	if (strcmp(schema, HPM_RUN_SCHEMA) != 0)
		return fail(c, "schema is '%.60s', not '%s'", schema, HPM_RUN_SCHEMA);
	json_t *ver = get(c, root, "", "schema_version");
	if (!ver)
		return false;
	if (!json_is_integer(ver))
		return fail(c, "schema_version: expected an integer");
	version = json_integer_value(ver);
	if (version != HPM_RUN_SCHEMA_VERSION)
		return fail(c, "schema_version %lld is not supported (this hpmstat reads %d)",
		            (long long)version, HPM_RUN_SCHEMA_VERSION);
	if (!want_string(c, root, "", "created", false, &r->created) ||
	    !want_bytes(c, root, "", "command", true, &r->command) ||
	    !want_int(c, root, "", "repeat", 1, 1000000, &repeat) ||
	    !want_number(c, root, "", "interval_ms", false, &r->interval_ms) ||
	    !want_int(c, root, "", "topdown_level", 0, RF_MAX_LEVEL, &level))
		return false;
	r->repeat = (unsigned)repeat;
	r->topdown_level = (unsigned)level;
	json_t *emu = get(c, root, "", "emulated");
	if (!emu)
		return false;
	if (!json_is_null(emu)) {
		json_int_t harts;
		if (!want_object_at(c, emu, "emulated") ||
		    !want_bytes(c, emu, "emulated", "profile", true, &r->profile) ||
		    !want_bytes(c, emu, "emulated", "trace", true, &r->trace) ||
		    !want_int(c, emu, "emulated", "harts", 1, RF_MAX_UNITS, &harts))
			return false;
		r->harts = (unsigned)harts;
	}

	json_t *ev = want_array(c, root, "", "events");
	if (!ev)
		return false;
	size_t n = json_array_size(ev);
	r->ev = n ? xcalloc(n, sizeof(*r->ev)) : NULL;
	for (size_t i = 0; i < n; i++) {
		r->nr_ev++;
		if (!read_event(c, json_array_get(ev, i), (unsigned)i, &r->ev[i]))
			return false;
		if (!r->model)
			r->model = r->ev[i].model;
		else if (r->ev[i].model && r->ev[i].model != r->model)
			/* one run counts one model's events (stat refuses a mix) */
			return fail(c,
			            "events[%zu].kind: a %s event in a run of %s events (one run "
			            "counts one PMU model)",
			            i, r->ev[i].model->display, r->model->display);
		if (!r->ev[i].host)
			for (unsigned u = 0; u < r->ev[i].nr_counts; u++)
				add_unit(r, r->ev[i].counts[u].unit);
		if (r->nr_units > RF_MAX_UNITS)
			return fail(c, "events: more than %d units", RF_MAX_UNITS);
	}
	if (!read_variant(c, r, root))
		return false;
	json_t *m = want_array(c, root, "", "metrics");
	if (!m || !read_metrics(c, r, m))
		return false;
	json_t *runs = want_array(c, root, "", "runs");
	if (!runs)
		return false;
	r->nr_runs = (unsigned)json_array_size(runs);
	for (unsigned i = 0; i < r->nr_runs; i++) {
		char p[48];
		json_t *o = json_array_get(runs, i);
		snprintf(p, sizeof(p), "runs[%u]", i);
		json_t *vals;
		if (!want_object_at(c, o, p) || !(vals = want_array(c, o, p, "values")))
			return false;
		if (json_array_size(vals) != r->nr_ev)
			return fail(c, "%s.values: %zu values for %u events", p,
			            json_array_size(vals), r->nr_ev);
	}
	json_t *iv = want_array(c, root, "", "intervals");
	return iv && read_intervals(c, r, iv);
}

char *rf_run_name(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n > 5 && strcmp(b + n - 5, ".json") == 0)
		n -= 5;
	return xstrndup(b, n);
}

static int load(json_t *doc, const json_error_t *jerr, const char *path, struct rf_run *run,
                char *err, size_t errlen)
{
	struct ctx c = {.path = path, .err = err, .errlen = errlen};
	memset(run, 0, sizeof(*run));
	run->path = xstrdup(path);
	run->name = rf_run_name(path);
	if (!doc) {
		/* jansson's "premature end of input" is what a truncated file says */
		fail(&c, "not valid JSON: %s at line %d, column %d", jerr->text, jerr->line,
		     jerr->column);
		rf_free(run);
		return -1;
	}
	run->doc = doc;
	if (!read_run(&c, run, doc)) {
		rf_free(run);
		return -1;
	}
	return 0;
}

int rf_load_buffer(const char *buf, size_t len, const char *path, struct rf_run *run, char *err,
                   size_t errlen)
{
	json_error_t jerr;
	/* JSON_REJECT_DUPLICATES: two values for one key would make the
	 * report depend on which one jansson kept */
	json_t *doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	return load(doc, &jerr, path, run, err, errlen);
}

/* A FILE that gives jansson at most `left` bytes; `over` once it had more. */
struct bounded_file {
	FILE *f;
	size_t left;
	bool over;
};

static size_t bounded_read(void *buf, size_t len, void *data)
{
	struct bounded_file *b = data;
	if (b->left == 0) {
		if (getc(b->f) == EOF)
			return ferror(b->f) ? (size_t)-1 : 0;
		b->over = true;
		return (size_t)-1;
	}
	size_t n = fread(buf, 1, len < b->left ? len : b->left, b->f);
	if (n == 0 && ferror(b->f))
		return (size_t)-1;
	b->left -= n;
	return n;
}

json_t *rf_json_load_bounded(FILE *f, size_t max, bool *too_big, json_error_t *jerr)
{
	struct bounded_file b = {.f = f, .left = max};
	json_t *doc = json_load_callback(bounded_read, &b, JSON_REJECT_DUPLICATES, jerr);
	*too_big = b.over;
	if (b.over) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/* A perf.data of stat counts (stat record's, perf stat record's): its run. */
static int load_perf_stat(const char *path, struct rf_run *run, char *err, size_t errlen)
{
	struct pd_file f;
	char *buf;
	size_t len;
	memset(run, 0, sizeof(*run));
	if (pd_open(&f, path, err, errlen) != 0)
		return -1;
	int rc = perf_stat_run(f.buf, f.len, path, &buf, &len, err, errlen);
	pd_close(&f);
	if (rc)
		return -1;
	rc = rf_load_buffer(buf, len, path, run, err, errlen);
	free(buf);
	return rc;
}

int rf_load_file(const char *path, struct rf_run *run, char *err, size_t errlen)
{
	json_error_t jerr;
	FILE *f = fopen(path, "rb");
	if (!f) {
		memset(run, 0, sizeof(*run));
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	char magic[8];
	size_t nm = fread(magic, 1, sizeof(magic), f);
	if (pd_is_perf_data(magic, nm)) {
		fclose(f);
		return load_perf_stat(path, run, err, errlen);
	}
	rewind(f);
	errno = 0;
	bool too_big;
	json_t *doc = rf_json_load_bounded(f, RF_MAX_BYTES, &too_big, &jerr);
	int rd_err = ferror(f), e = errno;
	fclose(f);
	if (too_big) {
		memset(run, 0, sizeof(*run));
		snprintf(err, errlen, "%s: cannot read: larger than %u bytes", path, RF_MAX_BYTES);
		return -1;
	}
	if (rd_err) {
		/* a directory opens, and fails at the first read */
		json_decref(doc);
		memset(run, 0, sizeof(*run));
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(e ? e : EIO));
		return -1;
	}
	return load(doc, &jerr, path, run, err, errlen);
}

void rf_free(struct rf_run *r)
{
	for (unsigned i = 0; i < r->nr_ev; i++)
		free(r->ev[i].counts);
	free(r->ev);
	for (unsigned i = 0; i < r->nr_iv; i++) {
		for (unsigned e = 0; r->iv[i].counts && e < r->nr_ev; e++)
			free(r->iv[i].counts[e]);
		free(r->iv[i].counts);
		free(r->iv[i].nr_counts);
		free(r->iv[i].mval);
	}
	free(r->iv);
	free(r->node);
	free(r->mval);
	free(r->units);
	free(r->path);
	free(r->name);
	json_decref(r->doc);
	memset(r, 0, sizeof(*r));
}

const struct metric_table *rf_metrics(const struct rf_run *r)
{
	return r->metrics ? r->metrics : &metric_table_empty;
}
