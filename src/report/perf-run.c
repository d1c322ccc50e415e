/* perf-run.c: see perf-run.h. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "perfdata/reader.h"
#include "report/perf-run.h"
#include "report/runfile.h"
#include "util/count-json.h"
#include "util/run-schema.h"
#include "util/str.h"
#include "util/xalloc.h"

/* What a crafted file cannot make unbounded: the CPUs and threads (as a
 * run file's units), the cells of the count table, and the counts of all
 * intervals together (a run file of them would be gigabytes). */
#define PR_MAX_UNITS     4096
#define PR_MAX_CELLS     (1u << 24)
#define PR_MAX_IV_COUNTS (1u << 23)

struct unit_key {
	uint32_t cpu, thread;
};

struct stat_rec {
	unsigned round; /* the round it belongs to: the next STAT_ROUND */
	unsigned ev;
	struct unit_key key; /* its unit (an index once all are known) */
	uint64_t val, ena, run;
};

struct round {
	uint64_t type, time;
};

struct perf_stat {
	struct pd_file f;
	struct unit_key *units;
	unsigned nr_units;
	struct stat_rec *recs;
	size_t nr_recs;
	struct round *rounds;
	unsigned nr_rounds;
	uint64_t interval_ms;
	/* per event: what EVENT_UPDATE said */
	const char **name, **unit;
	double *scale;
	unsigned nr_sized;
};

/* The per-event arrays for every event read so far (pipe mode's come as
 * records), zero for the new ones. */
static void size_events(struct perf_stat *ps)
{
	unsigned n = ps->f.nr_ev;
	if (ps->name && n <= ps->nr_sized)
		return;
	ps->name = xreallocarray(ps->name, n + 1, sizeof(*ps->name));
	ps->unit = xreallocarray(ps->unit, n + 1, sizeof(*ps->unit));
	ps->scale = xreallocarray(ps->scale, n + 1, sizeof(*ps->scale));
	for (unsigned i = ps->nr_sized; i <= n; i++) {
		ps->name[i] = ps->unit[i] = NULL;
		ps->scale[i] = 0;
	}
	ps->nr_sized = n;
}

static int key_cmp(struct unit_key a, struct unit_key b)
{
	if (a.cpu != b.cpu)
		return a.cpu < b.cpu ? -1 : 1;
	return a.thread < b.thread ? -1 : a.thread > b.thread;
}

/* Where key is in the sorted units, or where it would go (*found false). */
static unsigned unit_find(const struct perf_stat *ps, struct unit_key key, bool *found)
{
	unsigned lo = 0, hi = ps->nr_units;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		int c = key_cmp(ps->units[mid], key);
		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

/* Adds key to the units (sorted: CPUs in order, "any CPU" last); false
 * when there would be more than PR_MAX_UNITS. */
static bool unit_add(struct perf_stat *ps, struct unit_key key)
{
	bool found;
	unsigned at = unit_find(ps, key, &found);
	if (found)
		return true;
	if (ps->nr_units >= PR_MAX_UNITS)
		return false;
	ps->units = xreallocarray(ps->units, ps->nr_units + 1, sizeof(*ps->units));
	memmove(ps->units + at + 1, ps->units + at, (ps->nr_units - at) * sizeof(*ps->units));
	ps->units[at] = key;
	ps->nr_units++;
	return true;
}

/* The records: 0, or -1 with err. */
static int read_records(struct perf_stat *ps, const char *name, char *err, size_t errlen)
{
	struct pd_record r;
	size_t cap = 0;
	unsigned rcap = 0;
	while (pd_next(&ps->f, &r) > 0) {
		size_events(ps);
		switch (r.type) {
		case PERF_RECORD_STAT:
			if (r.ev < 0) {
				str_seterr(err, errlen,
				           "%s: a count of id %llu, which no event of the file has",
				           name, (unsigned long long)r.u.stat.id);
				return -1;
			}
			struct unit_key key = {r.u.stat.cpu, r.u.stat.thread};
			if (!unit_add(ps, key)) {
				str_seterr(err, errlen,
				           "%s: counts of more than %d CPUs and threads", name,
				           PR_MAX_UNITS);
				return -1;
			}
			if (ps->nr_recs == cap) {
				cap = cap ? 2 * cap : 64;
				ps->recs = xreallocarray(ps->recs, cap, sizeof(*ps->recs));
			}
			ps->recs[ps->nr_recs++] = (struct stat_rec){.round = ps->nr_rounds,
			                                            .ev = (unsigned)r.ev,
			                                            .key = key,
			                                            .val = r.u.stat.val,
			                                            .ena = r.u.stat.ena,
			                                            .run = r.u.stat.run};
			break;
		case PERF_RECORD_STAT_ROUND:
			if (ps->nr_rounds == rcap) {
				rcap = rcap ? 2 * rcap : 16;
				ps->rounds = xreallocarray(ps->rounds, rcap, sizeof(*ps->rounds));
			}
			ps->rounds[ps->nr_rounds++] =
			    (struct round){r.u.stat_round.type, r.u.stat_round.time};
			break;
		case PERF_RECORD_STAT_CONFIG:
			ps->interval_ms = r.u.stat_config.interval;
			break;
		case PERF_RECORD_EVENT_UPDATE:
			if (r.ev < 0)
				break;
			if (r.u.update.type == PERF_EVENT_UPDATE_NAME)
				ps->name[r.ev] = r.u.update.str;
			else if (r.u.update.type == PERF_EVENT_UPDATE_UNIT)
				ps->unit[r.ev] = r.u.update.str;
			else if (r.u.update.type == PERF_EVENT_UPDATE_SCALE)
				ps->scale[r.ev] = r.u.update.scale;
			break;
		default:
			break;
		}
	}
	size_events(ps);
	unsigned nu = ps->nr_units ? ps->nr_units : 1, nr_iv = 0;
	for (unsigned k = 0; k < ps->nr_rounds; k++)
		nr_iv += ps->rounds[k].type == PERF_STAT_ROUND_INTERVAL;
	if ((uint64_t)ps->f.nr_ev * nu > PR_MAX_CELLS ||
	    (uint64_t)ps->f.nr_ev * nu * nr_iv > PR_MAX_IV_COUNTS) {
		str_seterr(err, errlen,
		           "%s: %u events on %u CPUs and threads in %u intervals: more counts than "
		           "stat report reads (%u)",
		           name, ps->f.nr_ev, nu, nr_iv, PR_MAX_IV_COUNTS);
		return -1;
	}
	return 0;
}

static char *unit_name(const struct unit_key *k, bool many_threads)
{
	if (k->cpu != UINT32_MAX)
		return xasprintf("CPU%u", k->cpu);
	return many_threads ? xasprintf("thread%u", k->thread) : xstrdup("task");
}

struct tally {
	uint64_t val, ena, run;
	bool seen;
};

/* The counts of an event in one table ([nr_units]), minus base when given
 * (an interval's), as a run file's counts array. */
static json_t *counts_json(const struct tally *t, const struct tally *base, const bool *has,
                           char **names, unsigned nr_units)
{
	json_t *a = json_array();
	for (unsigned u = 0; u < nr_units; u++) {
		/* every unit the event has in the run, so that each interval
		 * lists the run's units (one not counted yet: zero) */
		if (!has[u])
			continue;
		uint64_t v = t[u].val, e = t[u].ena, r = t[u].run;
		if (base && base[u].seen) {
			/* perf's records are cumulative: an interval is the
			 * difference, as perf stat report computes it */
			v -= base[u].val;
			e -= base[u].ena;
			r -= base[u].run;
		}
		json_array_append_new(a, json_pack("{s:s, s:o, s:o, s:o}", "unit", names[u],
		                                   "value", count_json(v), "enabled", count_json(e),
		                                   "running", count_json(r)));
	}
	return a;
}

/* An event's value over its units: scaled by enabled/running as perf
 * does when it multiplexed, times the display scale. */
static json_t *value_json(const struct tally *t, unsigned nr_units, double scale, bool *ran,
                          double *share)
{
	uint64_t v = 0, e = 0, r = 0;
	for (unsigned u = 0; u < nr_units; u++)
		if (t[u].seen) {
			v += t[u].val;
			e += t[u].ena;
			r += t[u].run;
		}
	*ran = r > 0;
	*share = e ? (double)r / (double)e : 0;
	if (!r)
		return json_null();
	if (r < e)
		return json_real((double)v * ((double)e / (double)r) * scale);
	return scale == 1.0 ? count_json(v) : json_real((double)v * scale);
}

/* A string of the file as JSON text holds it: UTF-8, other bytes as \xNN
 * (a crafted name must not make the document fail). */
static char *text(const char *s)
{
	return str_is_utf8(s) ? xstrdup(s) : str_escape_utf8(s);
}

static char *command_of(const struct pd_file *f)
{
	if (!f->nr_cmdline)
		return xstrdup("pipe"); /* as perf stat report names a pipe's */
	size_t n = 1;
	for (unsigned i = 0; i < f->nr_cmdline; i++)
		n += strlen(f->cmdline[i]) + 1;
	char *s = xcalloc(1, n);
	for (unsigned i = 0; i < f->nr_cmdline; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, f->cmdline[i]);
	}
	return s;
}

static json_t *build(struct perf_stat *ps)
{
	unsigned nr_ev = ps->f.nr_ev, nu = ps->nr_units ? ps->nr_units : 1;
	bool many_threads = false;
	for (unsigned u = 0; u < ps->nr_units; u++)
		many_threads |= ps->units[u].thread != 0;
	char **names = xcalloc(nu, sizeof(*names));
	for (unsigned u = 0; u < ps->nr_units; u++)
		names[u] = unit_name(&ps->units[u], many_threads);
	/* the tables after each round: a STAT not repeated keeps its value */
	struct tally *cur = xcalloc((size_t)nr_ev * nu + 1, sizeof(*cur));
	struct tally *prev_iv = xcalloc((size_t)nr_ev * nu + 1, sizeof(*prev_iv));
	/* the units of each event in the run: those of a count before the
	 * last round (a count after it belongs to no round) */
	bool *has = xcalloc((size_t)nr_ev * nu + 1, sizeof(*has));
	for (size_t k = 0; k < ps->nr_recs && ps->recs[k].round < ps->nr_rounds; k++) {
		bool found;
		has[(size_t)ps->recs[k].ev * nu + unit_find(ps, ps->recs[k].key, &found)] = true;
	}
	json_t *intervals = json_array();
	double elapsed_ns = 0;
	size_t k = 0;
	for (unsigned rd = 0; rd < ps->nr_rounds; rd++) {
		for (; k < ps->nr_recs && ps->recs[k].round == rd; k++) {
			const struct stat_rec *s = &ps->recs[k];
			bool found;
			unsigned u = unit_find(ps, s->key, &found);
			cur[(size_t)s->ev * nu + u] = (struct tally){s->val, s->ena, s->run, true};
		}
		const struct round *r = &ps->rounds[rd];
		elapsed_ns = (double)r->time;
		if (r->type != PERF_STAT_ROUND_INTERVAL)
			continue;
		json_t *ev = json_array();
		for (unsigned i = 0; i < nr_ev; i++)
			json_array_append_new(
			    ev, counts_json(cur + (size_t)i * nu, prev_iv + (size_t)i * nu,
			                    has + (size_t)i * nu, names, ps->nr_units));
		json_array_append_new(intervals,
		                      json_pack("{s:f, s:o, s:[]}", "time", (double)r->time / 1e9,
		                                "events", ev, "metrics"));
		memcpy(prev_iv, cur, (size_t)nr_ev * nu * sizeof(*cur));
	}
	double interval_ms = (double)ps->interval_ms;
	if (interval_ms == 0 && json_array_size(intervals))
		interval_ms = (double)ps->rounds[0].time / 1e6;

	json_t *events = json_array(), *values = json_array();
	for (unsigned i = 0; i < nr_ev; i++) {
		char buf[64];
		const char *name = ps->f.ev[i].name ? ps->f.ev[i].name : ps->name[i];
		if (!name)
			name = pd_event_name(&ps->f, i, buf, sizeof(buf));
		double scale = ps->scale[i];
		if (!isfinite(scale) || scale == 0)
			scale = 1.0; /* none, or none a count can be shown by */
		char *name_t = text(name), *unit_t = text(ps->unit[i] ? ps->unit[i] : "");
		const struct tally *t = cur + (size_t)i * nu;
		bool seen = false, ran;
		double share;
		for (unsigned u = 0; u < ps->nr_units; u++)
			seen |= t[u].seen;
		json_t *value = value_json(t, ps->nr_units, scale, &ran, &share);
		json_array_append(values, value);
		const struct perf_event_attr *a = &ps->f.ev[i].attr;
		json_t *o =
		    json_pack("{s:s, s:s, s:s, s:s, s:s, s:f, s:o, s:o, s:f}", "name", name_t,
		              "spec", name_t, "kind", "host", "state",
		              !seen ? "not-supported"
		              : ran ? "ok"
		                    : "not-counted",
		              "unit", unit_t, "scale", scale, "counts",
		              counts_json(t, NULL, has + (size_t)i * nu, names, ps->nr_units),
		              "value", value, "running_share", share);
		/* what perf's derived values beside a count go by */
		json_object_set_new(o, "attr",
		                    json_pack("{s:I, s:I, s:I, s:I}", "type", (json_int_t)a->type,
		                              "config", (json_int_t)a->config, "config1",
		                              (json_int_t)a->config1, "config2",
		                              (json_int_t)a->config2));
		json_array_append_new(events, o);
		free(name_t);
		free(unit_t);
	}
	char *c = command_of(&ps->f), *command = text(c),
	     *version = text(ps->f.version ? ps->f.version : "");
	free(c);
	json_t *doc =
	    json_pack("{s:s, s:i, s:{s:s, s:s}, s:s, s:s, s:n, s:n, s:f, s:i, s:f, s:i, s:o, s:[], "
	              "s:[{s:f, s:o}], s:o}",
	              "schema", HPM_RUN_SCHEMA, "schema_version", HPM_RUN_SCHEMA_VERSION, "tool",
	              "name", "perf", "version", version, "created", "", "command", command,
	              "emulated", "target", "elapsed_ns", elapsed_ns, "repeat", 1, "interval_ms",
	              interval_ms, "topdown_level", 0, "events", events, "metrics", "runs",
	              "elapsed_ns", elapsed_ns, "values", values, "intervals", intervals);
	free(command);
	free(version);
	for (unsigned u = 0; u < ps->nr_units; u++)
		free(names[u]);
	free(names);
	free(cur);
	free(prev_iv);
	free(has);
	return doc;
}

int perf_stat_run(const void *buf, size_t len, const char *name, char **run, size_t *run_len,
                  char *err, size_t errlen)
{
	struct perf_stat ps = {0};
	int rc = -1;
	if (pd_open_buffer(&ps.f, buf, len, err, errlen) != 0) {
		/* the reader names a buffer "input": the file's name instead */
		char *why = xstrdup(strncmp(err, "input: ", 7) == 0 ? err + 7 : err);
		str_seterr(err, errlen, "%s: %s", name, why);
		free(why);
		return -1;
	}
	if (ps.f.hpm_run && ps.f.hpm_run_len > RF_MAX_BYTES) {
		str_seterr(err, errlen, "%s: its run file is larger than %u bytes", name,
		           RF_MAX_BYTES);
		pd_close(&ps.f);
		return -1;
	}
	if (ps.f.hpm_run) {
		/* hpmstat's own recording: the run as stat printed it */
		*run = xmalloc(ps.f.hpm_run_len + 1);
		memcpy(*run, ps.f.hpm_run, ps.f.hpm_run_len);
		*run_len = ps.f.hpm_run_len;
		pd_close(&ps.f);
		return 0;
	}
	if (read_records(&ps, name, err, errlen) != 0)
		goto out;
	if (!ps.nr_rounds) {
		if (!ps.nr_recs && !ps.f.has_stat)
			str_seterr(
			    err, errlen,
			    "%s: a perf.data of samples, not of perf stat record: read it with "
			    "hpmstat report",
			    name);
		else
			str_seterr(err, errlen, "%s: no round of counts (PERF_RECORD_STAT_ROUND)%s",
			           name, ps.f.partial ? ": the file is cut short" : "");
		goto out;
	}
	json_t *doc = build(&ps);
	if (!doc) {
		str_seterr(err, errlen, "%s: its counts cannot be read as a run", name);
		goto out;
	}
	*run = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(17));
	json_decref(doc);
	if (!*run) {
		str_seterr(err, errlen, "%s: out of memory", name);
		goto out;
	}
	*run_len = strlen(*run);
	rc = 0;
out:
	free(ps.units);
	free(ps.recs);
	free(ps.rounds);
	free(ps.name);
	free(ps.unit);
	free(ps.scale);
	pd_close(&ps.f);
	return rc;
}
