/* runfile-write.c: the run file writer (see runfile-write.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "stat/runfile-write.h"
#include "util/count-json.h"
#include "util/run-schema.h"
#include "util/str.h"
#include "util/xalloc.h"

/* The document is written as it is produced: the head (schema, tool,
 * command) at record_new, each interval as it ends, the rest (events,
 * metrics, runs) at record_write, so memory does not grow with the number
 * of intervals. Only the few repeats (runs) are kept until the end. */
struct record {
	FILE *f;
	bool failed; /* a write failed: record_write reports it */
	unsigned nr_intervals;
	json_t *tail; /* the members written last */
	json_t *runs;
};

#define RECORD_JSON_FLAGS (JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17) | JSON_ENCODE_ANY)

/* One member of the top-level object, `,\n "key": value` (the first without
 * the comma), indented one blank deeper than jansson does on its own, so
 * the file reads as one document dumped with JSON_INDENT(1). */
static void emit_member(struct record *r, bool first, const char *key, json_t *value)
{
	if (r->failed)
		return;
	json_t *k = json_string(key);
	char *kt = json_dumps(k, JSON_ENCODE_ANY),
	     *vt = json_dumps(value, RECORD_JSON_FLAGS | JSON_INDENT(1));
	if (!kt || !vt || fprintf(r->f, "%s %s: ", first ? "" : ",\n", kt) < 0)
		r->failed = true;
	/* a JSON text has no raw newline inside a string: each one is layout */
	for (const char *p = vt; !r->failed && *p; p++)
		if ((*p == '\n' ? fputs("\n ", r->f) : fputc(*p, r->f)) == EOF)
			r->failed = true;
	free(kt);
	free(vt);
	json_decref(k);
}

/* A string member that may hold any bytes (hpmstat-run(5), "Strings that
 * are not UTF-8"): valid UTF-8 as it is; otherwise the text with each
 * invalid byte as \xNN, and KEY_hex with the exact bytes in hex. */
static void set_bytes(json_t *o, const char *key, const char *s)
{
	if (!s) {
		json_object_set_new(o, key, json_null());
		return;
	}
	if (str_is_utf8(s)) {
		json_object_set_new(o, key, json_string(s));
		return;
	}
	char *shown = str_escape_utf8(s), *hex = str_to_hex(s), *hkey = xasprintf("%s_hex", key);
	json_object_set_new(o, key, json_string(shown));
	json_object_set_new(o, hkey, json_string(hex));
	free(shown);
	free(hex);
	free(hkey);
}

static json_t *num_or_null(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

struct record *record_new(const struct hpm_emu_config *emu, int argc, char **argv,
                          const char *command, FILE *f)
{
	struct record *r = xcalloc(1, sizeof(*r));
	json_t *head = json_object(), *args = json_array(), *args_hex = NULL;
	char when[32];
	time_t t = time(NULL);
	struct tm tm;
	(void)emu;
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	r->f = f;
	json_object_set_new(head, "schema", json_string(HPM_RUN_SCHEMA));
	json_object_set_new(head, "schema_version", json_integer(HPM_RUN_SCHEMA_VERSION));
	json_object_set_new(head, "tool",
	                    json_pack("{s:s, s:s}", "name", "hpmstat", "version", PACKAGE_VERSION));
	json_object_set_new(head, "created", json_string(when));
	/* argv_hex, parallel to argv, only when some argument is not UTF-8 */
	for (int i = 0; i < argc; i++)
		if (!args_hex && !str_is_utf8(argv[i]))
			args_hex = json_array();
	for (int i = 0; i < argc; i++) {
		json_t *one = json_object();
		set_bytes(one, "a", argv[i]);
		json_array_append(args, json_object_get(one, "a"));
		if (args_hex) {
			json_t *h = json_object_get(one, "a_hex");
			json_array_append(args_hex, h ? h : json_null());
		}
		json_decref(one);
	}
	json_object_set_new(head, "argv", args);
	if (args_hex)
		json_object_set_new(head, "argv_hex", args_hex);
	set_bytes(head, "command", command);

	fputs("{\n", f);
	const char *key;
	json_t *value;
	bool first = true;
	json_object_foreach(head, key, value)
	{
		emit_member(r, first, key, value);
		first = false;
	}
	json_decref(head);
	if (!r->failed && fputs(",\n \"intervals\": [", f) == EOF)
		r->failed = true;
	r->tail = json_object();
	r->runs = json_array();
	return r;
}

static const char *state_name(enum hpm_evsel_state s)
{
	switch (s) {
	case HPM_EV_OK:
		return "ok";
	case HPM_EV_NOT_SUPPORTED:
		return "not-supported";
	case HPM_EV_NOT_MODELLED:
		return "not-modelled";
	default:
		return "not-counted";
	}
}

/* Counts and times are exact integers (count_json: a string of digits
 * above 2^63 - 1); a count that wrapped says so (hpmstat-run(5)). */
static json_t *counts_json(const struct hpm_evsel *e, const struct hpm_count *c)
{
	json_t *a = json_array();
	for (unsigned u = 0; c && u < e->nr_units; u++) {
		json_t *o =
		    json_pack("{s:s, s:o, s:o, s:o}", "unit", e->unit_names ? e->unit_names[u] : "",
		              "value", count_json(c[u].val), "enabled", count_json(c[u].ena),
		              "running", count_json(c[u].run));
		if (c[u].wrapped)
			json_object_set_new(o, "wrapped", json_true());
		json_array_append_new(a, o);
	}
	return a;
}

/* An event's value: the exact scaled count when its display scale is 1, the
 * double (a msec time) otherwise, null without a number (wrapped too). */
static json_t *value_json(const struct hpm_evlist *l, const struct hpm_evsel *e)
{
	struct hpm_total t;
	if (e->scale != 1.0 || e->state != HPM_EV_OK)
		return num_or_null(hpm_evsel_value(l, e, -1, NULL));
	hpm_counts_total(e->counts, e->nr_units ? e->nr_units : l->nr_units, -1, &t);
	return t.ran && !t.wrapped ? count_json(t.count) : json_null();
}

static json_t *metrics_of(const struct stat_result *res, const struct stat_metric *metrics,
                          const struct stat_noise *noise)
{
	json_t *a = json_array();
	for (unsigned k = 0; k < res->nr_metrics; k++) {
		const struct stat_metric *m = &metrics[k];
		json_t *o = json_object();
		json_object_set_new(o, "name", json_string(m->name));
		json_object_set_new(o, "display", json_string(m->display));
		json_object_set_new(o, "unit", json_string(m->unit));
		json_object_set_new(o, "level", json_integer(m->level));
		json_object_set_new(o, "parent",
		                    m->parent >= 0 ? json_string(res->metrics[m->parent].name)
		                                   : json_null());
		json_object_set_new(o, "value", num_or_null(m->value));
		json_object_set_new(o, "raw", num_or_null(m->raw));
		json_object_set_new(o, "bottleneck", json_boolean(m->bottleneck));
		json_object_set_new(o, "out_of_range", json_boolean(m->out_of_range));
		json_object_set_new(o, "over_threshold", json_boolean(m->over_threshold));
		json_object_set_new(o, "multiplexed", json_boolean(m->multiplexed));
		if (noise)
			json_object_set_new(o, "rel_stddev", num_or_null(noise[k].rel_stddev));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *metrics_json(const struct stat_result *res)
{
	return metrics_of(res, res->metrics, res->metric_noise);
}

void record_add_interval(struct record *r, const struct stat_result *res)
{
	json_t *o = json_object(), *ev = json_array();
	json_object_set_new(o, "time", json_real(res->timestamp));
	for (unsigned i = 0; i < res->list->nr; i++) {
		const struct hpm_evsel *e = &res->list->ev[i];
		json_array_append_new(ev, counts_json(e, res->delta ? res->delta[i] : e->counts));
	}
	json_object_set_new(o, "events", ev);
	json_object_set_new(o, "metrics", metrics_json(res));
	char *txt = json_dumps(o, RECORD_JSON_FLAGS | JSON_COMPACT);
	if (!r->failed && (!txt || fprintf(r->f, "%s\n  %s", r->nr_intervals ? "," : "", txt) < 0))
		r->failed = true;
	r->nr_intervals++;
	free(txt);
	json_decref(o);
}

void record_add_run(struct record *r, const struct hpm_session *s, double elapsed_ns)
{
	json_t *vals = json_array();
	for (unsigned i = 0; i < s->all.nr; i++)
		json_array_append_new(vals, value_json(&s->all, &s->all.ev[i]));
	json_array_append_new(r->runs,
	                      json_pack("{s:f, s:o}", "elapsed_ns", elapsed_ns, "values", vals));
}

static json_t *event_json(const struct hpm_session *s, unsigned i, const struct stat_result *res)
{
	const struct hpm_evsel *e = &s->all.ev[i];
	json_t *o = json_object();
	char hex[24], modes[24];
	double share = 0;
	(void)hpm_evsel_value(&s->all, e, -1, &share);
	json_object_set_new(o, "name", json_string(e->name));
	json_object_set_new(o, "spec", json_string(e->spec));
	/* kind: "host", the PMU model's name, or that and "-fixed" */
	char kind[80];
	if (e->kind == HPM_EV_HOST || e->kind == HPM_EV_TOOL)
		snprintf(kind, sizeof(kind), "host");
	else
		snprintf(kind, sizeof(kind), "%s%s", e->enc.model->name,
		         e->kind == HPM_EV_MODEL_FIXED ? "-fixed" : "");
	json_object_set_new(o, "kind", json_string(kind));
	json_object_set_new(o, "backend", json_string(e->emulated ? "emu" : "perf"));
	json_object_set_new(o, "emulated", json_boolean(e->emulated));
	json_object_set_new(o, "metric_only", json_boolean(e->metric_only));
	json_object_set_new(o, "group", e->group >= 0 ? json_integer(e->group) : json_null());
	if (e->kind == HPM_EV_MODEL) {
		snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)e->enc.value);
		json_object_set_new(o, "mhpmevent", json_string(hex));
		const char *bank = e->enc.model->constraint_name(e->enc.model, e->enc.constraint);
		json_object_set_new(o, "bank", bank ? json_string(bank) : json_null());
		json_object_set_new(o, "modes",
		                    json_string(e->enc.model->modes_str(e->enc.model, e->enc.modes,
		                                                        modes, sizeof(modes))));
	} else if (e->kind == HPM_EV_MODEL_FIXED) {
		json_object_set_new(o, "fixed",
		                    json_string(e->enc.model->fixed[e->enc.fixed].name));
	}
	if (!e->emulated)
		json_object_set_new(
		    o, "attr",
		    json_pack("{s:I, s:I, s:I, s:I}", "type", (json_int_t)e->attr_type, "config",
		              (json_int_t)e->attr_config, "config1", (json_int_t)e->attr_config1,
		              "config2", (json_int_t)e->attr_config2));
	json_object_set_new(o, "placement", e->placement ? json_string(e->placement) : json_null());
	if (e->cgroup)
		json_object_set_new(o, "cgroup", json_string(e->cgroup));
	json_object_set_new(o, "state", json_string(state_name(e->state)));
	json_object_set_new(o, "unit", json_string(e->unit ? e->unit : ""));
	json_object_set_new(o, "scale", json_real(e->scale));
	json_object_set_new(o, "time_unit", json_string(e->emulated ? "cycles" : "ns"));
	json_object_set_new(o, "counts", counts_json(e, e->counts));
	json_object_set_new(o, "value", value_json(&s->all, e));
	if (hpm_counts_wrapped(e->counts, e->nr_units ? e->nr_units : s->all.nr_units, -1))
		json_object_set_new(o, "wrapped", json_true());
	json_object_set_new(o, "running_share", json_real(share));
	if (res->noise) {
		json_object_set_new(o, "mean",
		                    res->noise[i].count_exact ? count_json(res->noise[i].count_mean)
		                                              : num_or_null(res->noise[i].mean));
		json_object_set_new(o, "rel_stddev", num_or_null(res->noise[i].rel_stddev));
		/* the mean of the counts before rounding (rates divide it) and
		 * of the time running, for `stat report` */
		json_object_set_new(o, "mean_unrounded", num_or_null(res->noise[i].mean));
		json_object_set_new(o, "running_mean", json_real(res->noise[i].run_mean));
	}
	return o;
}

void record_finish(struct record *r, const struct stat_config *cfg, const struct hpm_session *s,
                   const struct stat_result *res)
{
	json_t *root = r->tail;
	bool emu = hpm_session_uses_emu(s), perf = hpm_session_uses_perf(s);
	json_object_set_new(root, "backend",
	                    json_pack("{s:s?, s:b, s:b}", s->model->name,
	                              emu                ? "emu"
	                              : s->model_on_perf ? "perf"
	                                                 : NULL,
	                              "emulator", emu, "perf", perf));
	if (cfg->emu.active) {
		const struct stat_emu_label *l = &cfg->emu;
		json_t *e = json_object();
		/* paths may be any bytes */
		set_bytes(e, "profile", l->run.profile);
		set_bytes(e, "trace", l->run.trace);
		json_t *rest = json_pack(
		    "{s:I, s:i, s:o, s:f, s:b, s:b}", "seed", (json_int_t)l->run.seed, "harts",
		    (int)l->run.harts, "cycles", count_json(l->run.cycles), "freq_hz", l->run.freq,
		    "follows_command", l->run.follows_command, "multiplexed", l->run.multiplexed);
		json_object_update(e, rest);
		json_decref(rest);
		if (l->run.partial) {
			json_object_set_new(e, "partial", json_true());
			json_object_set_new(e, "cycles_wanted", count_json(l->run.cycles_wanted));
			json_object_set_new(e, "interrupted", json_boolean(l->run.interrupted));
		}
		json_object_set_new(root, "emulated", e);
	} else {
		json_object_set_new(root, "emulated", json_null());
	}
	json_object_set_new(root, "elapsed_ns", json_real(res->elapsed_ns));
	/* what `stat report` needs to print the run as it was printed */
	if (res->nr_runs > 1)
		json_object_set_new(root, "elapsed_sem_ns", num_or_null(res->elapsed_noise.sem));
	json_object_set_new(root, "target", cfg->target ? json_string(cfg->target) : json_null());
	json_object_set_new(root, "output",
	                    json_pack("{s:b, s:b, s:b, s:b, s:b, s:b}", "per_unit", cfg->per_unit,
	                              "metric_only", cfg->metric_only, "verbose", cfg->verbose,
	                              "no_big_num", cfg->no_big_num, "summary", cfg->summary,
	                              "table", cfg->run_table));
	json_object_set_new(root, "user_s", json_real(res->user_s));
	json_object_set_new(root, "sys_s", json_real(res->sys_s));
	json_object_set_new(root, "repeat", json_integer(cfg->repeat));
	json_object_set_new(root, "interval_ms", json_real(cfg->interval_ms));
	json_object_set_new(root, "topdown_level", json_integer(cfg->topdown_level));
	/* the named variant of the model's formulas the metrics used: report
	 * computes them again with it (null: the model has one set, or the
	 * run counted none of its events, which report reads as host only) */
	const char *variant = NULL;
	for (unsigned i = 0; i < s->all.nr; i++)
		if (s->all.ev[i].kind != HPM_EV_HOST && s->all.ev[i].kind != HPM_EV_TOOL)
			variant = metric_variant_name(s->metrics.table);
	json_object_set_new(root, "topdown_variant", variant ? json_string(variant) : json_null());
	json_object_set_new(root, "no_multiplex_runs", json_integer(cfg->nomux_runs));
	json_t *ev = json_array();
	for (unsigned i = 0; i < s->all.nr; i++)
		json_array_append_new(ev, event_json(s, i, res));
	json_object_set_new(root, "events", ev);
	json_object_set_new(root, "metrics", metrics_json(res));
	/* -A: each hart's (or CPU's) metrics, as stat printed them */
	if (res->nr_metric_units) {
		json_t *um = json_array();
		for (unsigned u = 0; u < res->nr_metric_units; u++)
			json_array_append_new(
			    um, json_pack("{s:s, s:o}", "unit", res->metric_unit_names[u],
			                  "metrics", metrics_of(res, res->unit_metrics[u], NULL)));
		json_object_set_new(root, "unit_metrics", um);
	}
	json_object_set_new(root, "runs", json_incref(r->runs));
}

int record_write(struct record *r)
{
	const char *key;
	json_t *value;
	if (!r->failed && fputs(r->nr_intervals ? "\n ]" : "]", r->f) == EOF)
		r->failed = true;
	json_object_foreach(r->tail, key, value) emit_member(r, false, key, value);
	if (!r->failed && fputs("\n}\n", r->f) == EOF)
		r->failed = true;
	if (r->failed || ferror(r->f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

void record_free(struct record *r)
{
	if (!r)
		return;
	json_decref(r->tail);
	json_decref(r->runs);
	free(r);
}
