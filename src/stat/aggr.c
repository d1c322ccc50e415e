/* aggr.c: see aggr.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat/aggr.h"
#include "stat/values.h"
#include "util/count.h"
#include "util/xalloc.h"

/* The id of one unit, by its name. */
static struct stat_aggr_id unit_id(const struct stat_aggr *a, const char *unit)
{
	struct stat_aggr_id id = {.socket = -1, .die = -1, .core = -1, .node = -1};
	char *end;
	if (a->mode == STAT_AGGR_THREAD) {
		id.thread = unit;
		return id;
	}
	if (strncmp(unit, "CPU", 3) == 0) {
		long cpu = strtol(unit + 3, &end, 10);
		if (end != unit + 3 && !*end) {
			struct hpm_cpu_place p = hpm_topology_place(a->topology, (int)cpu);
			id = (struct stat_aggr_id){
			    .socket = p.socket, .die = p.die, .core = p.core, .node = p.node};
			id.cluster = hpm_topology_cluster(a->topology, (int)cpu);
			/* perf: a CPU without that cache is level -1, id -1 */
			if (!hpm_topology_cache(a->topology, (int)cpu, a->cache_level,
			                        &id.cache_lvl, &id.cache))
				id.cache_lvl = id.cache = -1;
		}
	} else if (strncmp(unit, "hart", 4) == 0) {
		long hart = strtol(unit + 4, &end, 10);
		/* the emulated harts are the cores of one socket, die and node */
		if (end != unit + 4 && !*end)
			id = (struct stat_aggr_id){.core = (int)hart, .cache_lvl = -1, .cache = -1};
	}
	/* only what the mode aggregates by tells ids apart */
	switch (a->mode) {
	case STAT_AGGR_SOCKET:
		id.die = id.core = id.node = id.cluster = id.cache_lvl = id.cache = 0;
		break;
	case STAT_AGGR_DIE:
		id.core = id.node = id.cluster = id.cache_lvl = id.cache = 0;
		break;
	case STAT_AGGR_CORE:
		id.node = id.cluster = id.cache_lvl = id.cache = 0;
		break;
	case STAT_AGGR_CLUSTER:
		id.core = id.node = id.cache_lvl = id.cache = 0;
		break;
	case STAT_AGGR_CACHE:
		id.core = id.node = id.cluster = 0;
		break;
	case STAT_AGGR_NODE:
		id.socket = id.die = id.core = id.cluster = id.cache_lvl = id.cache = 0;
		break;
	default:
		break;
	}
	return id;
}

static int id_cmp(const struct stat_aggr_id *x, const struct stat_aggr_id *y)
{
	if (x->thread || y->thread)
		return strcmp(x->thread ? x->thread : "", y->thread ? y->thread : "");
	/* perf's aggr_cpu_id__cmp order */
	const int a[7] = {x->node, x->socket, x->die, x->cluster, x->cache_lvl, x->cache, x->core};
	const int b[7] = {y->node, y->socket, y->die, y->cluster, y->cache_lvl, y->cache, y->core};
	for (unsigned k = 0; k < 7; k++)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return 0;
}

static int id_qsort_cmp(const void *x, const void *y)
{
	return id_cmp(x, y);
}

static char *id_name(enum stat_aggr_mode mode, const struct stat_aggr_id *id)
{
	switch (mode) {
	case STAT_AGGR_SOCKET:
		return xasprintf("S%d", id->socket);
	case STAT_AGGR_DIE:
		return xasprintf("S%d-D%d", id->socket, id->die);
	case STAT_AGGR_NODE:
		return xasprintf("N%d", id->node);
	case STAT_AGGR_CLUSTER:
		return xasprintf("S%d-D%d-CLS%d", id->socket, id->die, id->cluster);
	case STAT_AGGR_CACHE:
		return xasprintf("S%d-D%d-L%d-ID%d", id->socket, id->die, id->cache_lvl, id->cache);
	case STAT_AGGR_THREAD:
		return xstrdup(id->thread);
	default:
		return xasprintf("S%d-D%d-C%d", id->socket, id->die, id->core);
	}
}

static unsigned find_id(const struct stat_aggr_view *v, const struct stat_aggr_id *id)
{
	unsigned lo = 0, hi = v->nr_ids;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		int c = id_cmp(&v->id[mid], id);
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return v->nr_ids;
}

/* The ids of every unit of every row, sorted, without duplicates. */
static void collect_ids(struct stat_aggr_view *v, const struct stat_aggr *a,
                        const struct stat_result *in)
{
	unsigned cap = 0;
	for (unsigned i = 0; i < in->list->nr; i++)
		cap += stat_nr_units(in, i);
	v->id = xcalloc(cap ? cap : 1, sizeof(*v->id));
	for (unsigned i = 0; i < in->list->nr; i++)
		for (unsigned u = 0; u < stat_nr_units(in, i); u++)
			v->id[v->nr_ids++] = unit_id(a, stat_unit_name(in, i, u));
	qsort(v->id, v->nr_ids, sizeof(*v->id), id_qsort_cmp);
	unsigned n = 0;
	for (unsigned k = 0; k < v->nr_ids; k++)
		if (!n || id_cmp(&v->id[n - 1], &v->id[k]) != 0)
			v->id[n++] = v->id[k];
	v->nr_ids = n;
	for (unsigned k = 0; k < n; k++)
		v->id[k].name = id_name(a->mode, &v->id[k]);
}

/* Sums the units of row i into the view's ids, val, enabled and running
 * alike, as perf sums a counter's CPUs before scaling. */
static void sum_row(struct stat_aggr_view *v, const struct stat_aggr *a,
                    const struct stat_result *in, unsigned i)
{
	const struct hpm_count *c = in->delta ? in->delta[i] : in->list->ev[i].counts;
	unsigned nu = stat_nr_units(in, i);
	struct hpm_evsel *e = &v->list.ev[i];
	/* at least as many entries as the row had units: a metric reading a
	 * view's counts through the row's own unit count stays in bounds */
	e->counts = xcalloc((v->nr_ids > nu ? v->nr_ids : nu) + 1, sizeof(*e->counts));
	e->nr_units = v->nr_ids;
	e->unit_names = v->list.unit_names;
	for (unsigned u = 0; c && u < nu; u++) {
		struct stat_aggr_id id = unit_id(a, stat_unit_name(in, i, u));
		unsigned k = find_id(v, &id);
		if (k == v->nr_ids)
			continue;
		e->counts[k].val += c[u].val;
		e->counts[k].ena += c[u].ena;
		e->counts[k].run += c[u].run;
		e->counts[k].wrapped |= c[u].wrapped;
		v->members[i * v->nr_ids + k]++;
	}
}

struct sort_key {
	unsigned unit;
	hpm_u128 count;
};

/* largest count first; equal counts keep the units' order */
static int by_count(const void *x, const void *y)
{
	const struct sort_key *a = x, *b = y;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->unit < b->unit ? -1 : a->unit > b->unit;
}

static void add_row(struct stat_aggr_view *v, unsigned ev, unsigned unit)
{
	v->row[v->nr_rows++] = (struct stat_aggr_row){ev, unit};
}

static void order_rows(struct stat_aggr_view *v, const struct stat_aggr *a, bool verbose)
{
	const struct hpm_evlist *l = &v->list;
	v->row = xcalloc((size_t)l->nr * v->nr_ids + 1, sizeof(*v->row));
	if (a->mode != STAT_AGGR_THREAD) {
		for (unsigned k = 0; k < v->nr_ids; k++)
			for (unsigned i = 0; i < l->nr; i++)
				if ((!l->ev[i].metric_only || verbose) &&
				    v->members[i * v->nr_ids + k])
					add_row(v, i, k);
		return;
	}
	struct sort_key *keys = xcalloc(v->nr_ids + 1, sizeof(*keys));
	for (unsigned i = 0; i < l->nr; i++) {
		const struct hpm_evsel *e = &l->ev[i];
		unsigned n = 0;
		if (e->metric_only && !verbose)
			continue;
		for (unsigned k = 0; k < v->nr_ids; k++) {
			struct hpm_total t;
			if (!v->members[i * v->nr_ids + k])
				continue;
			hpm_counts_total(e->counts, v->nr_ids, (int)k, &t);
			if (a->skip_zero && t.count == 0)
				continue;
			keys[n++] = (struct sort_key){k, t.count};
		}
		qsort(keys, n, sizeof(*keys), by_count);
		for (unsigned j = 0; j < n; j++)
			add_row(v, i, keys[j].unit);
	}
	free(keys);
}

/* Each id's metrics where they are exact (see aggr.h). */
static void metrics_of_ids(struct stat_aggr_view *v, const struct stat_aggr *a,
                           const struct stat_result *in)
{
	v->metric_members = xcalloc(v->nr_ids + 1, sizeof(*v->metric_members));
	v->id_metrics = xcalloc(v->nr_ids + 1, sizeof(*v->id_metrics));
	if (a->mode == STAT_AGGR_THREAD || !in->nr_metrics)
		return;
	bool exact = in->unit_metrics && in->nr_runs <= 1;
	for (unsigned u = 0; u < in->nr_metric_units; u++) {
		struct stat_aggr_id id = unit_id(a, in->metric_unit_names[u]);
		unsigned k = find_id(v, &id);
		v->nr_metric_members++;
		if (k == v->nr_ids) {
			exact = false; /* a metric unit that no row counted on */
			continue;
		}
		if (v->metric_members[k]++)
			exact = false;
		else if (in->unit_metrics)
			v->id_metrics[k] = in->unit_metrics[u];
	}
	if (v->nr_ids == 1) {
		/* one id holds every unit: its metrics are the totals */
		v->id_metrics[0] = in->metrics;
		exact = true;
	} else if (in->metric_noise) {
		exact = false;
	}
	v->metrics_per_id = exact && v->nr_ids;
}

struct stat_aggr_view *stat_aggr_view_new(const struct stat_aggr *a, const struct stat_result *in,
                                          bool verbose)
{
	if (!a || a->mode == STAT_AGGR_GLOBAL)
		return NULL;
	struct stat_aggr_view *v = xcalloc(1, sizeof(*v));
	const struct hpm_evlist *l = in->list;
	v->mode = a->mode;
	collect_ids(v, a, in);
	v->list.nr = l->nr;
	v->list.nr_groups = l->nr_groups;
	v->list.ev = xcalloc(l->nr ? l->nr : 1, sizeof(*v->list.ev));
	v->list.nr_units = v->nr_ids;
	v->list.unit_names = xcalloc(v->nr_ids + 1, sizeof(char *));
	for (unsigned k = 0; k < v->nr_ids; k++)
		v->list.unit_names[k] = v->id[k].name;
	v->members = xcalloc((size_t)l->nr * v->nr_ids + 1, sizeof(*v->members));
	for (unsigned i = 0; i < l->nr; i++) {
		v->list.ev[i] = l->ev[i]; /* names, state, scale: the row's own */
		sum_row(v, a, in, i);
	}
	order_rows(v, a, verbose);
	v->res = *in;
	v->res.list = &v->list;
	v->res.shadow = NULL; /* the index of in's rows is not the view's */
	v->res.delta = NULL;
	/* Topdown and -M metrics: each id's, or the measurement's totals */
	metrics_of_ids(v, a, in);
	v->res.unit_metrics = v->metrics_per_id ? v->id_metrics : NULL;
	v->res.nr_metric_units = v->metrics_per_id ? v->nr_ids : 0;
	v->res.metric_unit_names = v->metrics_per_id ? v->list.unit_names : NULL;
	v->res.aggr = v;
	return v;
}

void stat_aggr_view_free(struct stat_aggr_view *v)
{
	if (!v)
		return;
	for (unsigned i = 0; i < v->list.nr; i++)
		free(v->list.ev[i].counts);
	for (unsigned k = 0; k < v->nr_ids; k++)
		free(v->id[k].name);
	free(v->list.ev);
	free(v->list.unit_names);
	free(v->id);
	free(v->members);
	free(v->row);
	free(v->metric_members);
	free(v->id_metrics);
	free(v);
}

static unsigned members_of(const struct stat_aggr_view *v, unsigned ev, unsigned unit)
{
	if (ev == STAT_AGGR_METRIC_ROW)
		return unit < v->nr_ids ? v->metric_members[unit] : 0;
	return ev < v->list.nr && unit < v->nr_ids ? v->members[ev * v->nr_ids + unit] : 0;
}

const char *stat_aggr_prefix(const struct stat_config *cfg, const struct stat_result *res,
                             unsigned ev, int unit, char *buf, size_t len)
{
	const struct stat_aggr_view *v = res->aggr;
	buf[0] = '\0';
	if (!v || unit < 0 || (unsigned)unit >= v->nr_ids)
		return buf;
	const struct stat_aggr_id *id = &v->id[unit];
	unsigned nr = members_of(v, ev, (unsigned)unit);
	bool csv = cfg->format == STAT_FORMAT_CSV;
	const char *s = csv ? cfg->csv_sep : " ";
	if (v->mode == STAT_AGGR_THREAD) {
		/* perf: the comm right-aligned in 16, '-', the tid in 8 */
		const char *dash = strrchr(id->name, '-');
		int comm = dash ? (int)(dash - id->name) : (int)strlen(id->name);
		snprintf(buf, len, "%*.*s-%-*s%s", csv ? 0 : 16, comm, id->name, csv ? 0 : 8,
		         dash ? dash + 1 : "", s);
		return buf;
	}
	/* perf: the last number of the id padded to 8 (core, die) or 5
	 * (socket, node), then the CPU count in 4 */
	int w = csv ? 0 : 8, nw = csv ? 0 : 4;
	switch (v->mode) {
	case STAT_AGGR_SOCKET:
		snprintf(buf, len, "S%-*d%s%*u%s", csv ? 0 : 5, id->socket, s, nw, nr, s);
		break;
	case STAT_AGGR_DIE:
		snprintf(buf, len, "S%d-D%-*d%s%*u%s", id->socket, w, id->die, s, nw, nr, s);
		break;
	case STAT_AGGR_NODE:
		snprintf(buf, len, "N%-*d%s%*u%s", csv ? 0 : 5, id->node, s, nw, nr, s);
		break;
	case STAT_AGGR_CLUSTER:
	case STAT_AGGR_CACHE:
		/* perf 6.12's print_aggr_id_std: the id padded to 20 (cluster)
		 * or 22 (cache), a blank, the CPU count in 4 */
		{
			int idw = csv ? 0 : v->mode == STAT_AGGR_CACHE ? 22 : 20;
			snprintf(buf, len, "%-*s%s%*u%s", idw, id->name, s, nw, nr, s);
			break;
		}
	default:
		snprintf(buf, len, "S%d-D%d-C%-*d%s%*u%s", id->socket, id->die, w, id->core, s, nw,
		         nr, s);
		break;
	}
	return buf;
}

const char *stat_aggr_metrics_note(const struct stat_result *res)
{
	const struct stat_aggr_view *v = res->aggr;
	if (!v || v->metrics_per_id || !res->nr_metrics || v->mode == STAT_AGGR_THREAD)
		return NULL;
	if (res->metric_noise)
		return "metrics are the whole run's: with -r they are not kept per id";
	return "metrics are the whole run's: an id holds several harts or CPUs, whose metrics "
	       "hpmstat cannot evaluate per id";
}

bool stat_aggr_json(const struct stat_result *res, unsigned ev, int unit, const char **key,
                    const char **id, unsigned *nr)
{
	const struct stat_aggr_view *v = res->aggr;
	static const char *const keys[] = {
	    [STAT_AGGR_SOCKET] = "socket", [STAT_AGGR_DIE] = "die",
	    [STAT_AGGR_CORE] = "core",     [STAT_AGGR_NODE] = "node",
	    [STAT_AGGR_THREAD] = "thread", [STAT_AGGR_CLUSTER] = "cluster",
	    [STAT_AGGR_CACHE] = "cache",
	};
	if (!v || unit < 0 || (unsigned)unit >= v->nr_ids)
		return false;
	*key = keys[v->mode];
	*id = v->id[unit].name;
	*nr = v->mode == STAT_AGGR_THREAD ? 0 : members_of(v, ev, (unsigned)unit);
	return true;
}
