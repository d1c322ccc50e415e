/* test-aggr.c: the aggregated view of stat/aggr.h on hand-made counts.
 *
 * Truth: perf's rule for an aggregate (its units' val, enabled and running
 * summed, then scaled once: 200 x 20 / 15 = 266 for two SMT siblings that
 * counted 100 of 10/5 and 100 of 10/10, where scaling each unit first would
 * give 300), perf's prefix formats ("S%d-D%d-C%-8d %4d ", "%16s-%-8d " in
 * std output; no padding in CSV), its orders (id by id; per thread, the
 * largest count first) and a topology written out by hand.
 */
#include <stdlib.h>
#include <string.h>

#include "stat/aggr.h"
#include "tap.h"

/* CPU0 and CPU1: core 0 of socket 0; CPU2: core 1 of socket 0; CPU3: core
 * 0 of socket 1, on node 1 (the others on node 0) */
static struct hpm_cpu_place places[4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 1, 0}, {1, 0, 0, 1}};
/* perf 6.12's --per-cluster and --per-cache: CPU0 and CPU1 in cluster 0,
 * CPU2 in 1, CPU3 in 2; an L2 per core (ids 0, 2, 3: the lowest CPU
 * sharing it), an L3 per socket (ids 0 and 3); CPU3 has no L2 */
static int clusters[4] = {0, 0, 1, 2};
static struct hpm_cpu_caches caches[4] = {
    {.id = {-1, 0, 0, 0, -1}, .top = 3},
    {.id = {-1, 1, 0, 0, -1}, .top = 3},
    {.id = {-1, 2, 2, 0, -1}, .top = 3},
    {.id = {-1, 3, -1, 3, -1}, .top = 3},
};
static const struct hpm_topology topo = {
    .cpu = places, .nr_cpus = 4, .cluster = clusters, .cache = caches};

static void fill(struct hpm_evlist *l)
{
	memset(l, 0, sizeof(*l));
	hpm_evlist_add(l, "A", -1);
	hpm_evlist_add(l, "B", -1);
	hpm_evlist_alloc_counts(l, 4, "CPU");
	const struct hpm_count a[4] = {
	    {100, 10, 5, false}, {100, 10, 10, false}, {7, 1, 1, false}, {3, 1, 1, false}};
	for (unsigned u = 0; u < 4; u++) {
		l->ev[0].counts[u] = a[u];
		l->ev[1].counts[u] = (struct hpm_count){u + 1, 1, 1, false};
	}
}

static hpm_u128 count_of(const struct stat_aggr_view *v, unsigned ev, unsigned id)
{
	struct hpm_total t;
	hpm_counts_total(v->list.ev[ev].counts, v->nr_ids, (int)id, &t);
	return t.count;
}

static void test_core(void)
{
	struct hpm_evlist l;
	fill(&l);
	struct stat_result in = {.list = &l};
	struct stat_aggr a = {.mode = STAT_AGGR_CORE, .topology = &topo};
	struct stat_config std = {.format = STAT_FORMAT_STD, .csv_sep = ","};
	struct stat_config csv = {.format = STAT_FORMAT_CSV, .csv_sep = ";"};
	struct stat_aggr_view *v = stat_aggr_view_new(&a, &in, false);
	char buf[64];
	tap_ok(v && v->nr_ids == 3, "--per-core: 3 cores");
	tap_is_str(v->id[0].name, "S0-D0-C0", "first core");
	tap_is_str(v->id[1].name, "S0-D0-C1", "second core");
	tap_is_str(v->id[2].name, "S1-D0-C0", "the core of socket 1");
	tap_is_u64((uint64_t)count_of(v, 0, 0), 266,
	           "SMT siblings: val, enabled, running summed, then scaled once");
	tap_is_u64((uint64_t)count_of(v, 1, 0), 3, "B on core 0: 1 + 2");
	tap_is_u64((uint64_t)count_of(v, 0, 2), 3, "A on socket 1's core");
	tap_is_u64(v->members[0 * v->nr_ids + 0], 2, "core 0 sums 2 CPUs");
	tap_is_str(stat_aggr_prefix(&std, &v->res, 0, 0, buf, sizeof(buf)), "S0-D0-C0           2 ",
	           "std prefix: perf's widths");
	tap_is_str(stat_aggr_prefix(&csv, &v->res, 0, 1, buf, sizeof(buf)), "S0-D0-C1;1;",
	           "CSV prefix with -x';'");
	tap_is_str(stat_aggr_prefix(&std, &v->res, 0, -1, buf, sizeof(buf)), "",
	           "no prefix for a total row");
	const char *key, *id;
	unsigned nr;
	tap_ok(stat_aggr_json(&v->res, 0, 0, &key, &id, &nr) && strcmp(key, "core") == 0 &&
	           strcmp(id, "S0-D0-C0") == 0 && nr == 2,
	       "JSON: \"core\", the id and aggregate-number 2");
	/* id by id, every event of an id together */
	unsigned want[6][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}};
	bool order = v->nr_rows == 6;
	for (unsigned r = 0; order && r < 6; r++)
		order = v->row[r].ev == want[r][0] && v->row[r].unit == want[r][1];
	tap_ok(order, "rows id by id, as perf prints them");
	tap_ok(v->res.aggr == v && v->res.list == &v->list && !v->res.delta,
	       "the view is a result of its own");
	stat_aggr_view_free(v);
	hpm_evlist_free(&l);
}

static void test_socket_die_node(void)
{
	struct hpm_evlist l;
	fill(&l);
	struct stat_result in = {.list = &l};
	struct stat_config std = {.format = STAT_FORMAT_STD, .csv_sep = ","};
	char buf[64];
	struct stat_aggr a = {.mode = STAT_AGGR_SOCKET, .topology = &topo};
	struct stat_aggr_view *v = stat_aggr_view_new(&a, &in, false);
	tap_ok(v->nr_ids == 2 && strcmp(v->id[0].name, "S0") == 0 &&
	           strcmp(v->id[1].name, "S1") == 0,
	       "--per-socket: S0 and S1");
	/* 207 x 21 / 16 = 271.6875 */
	tap_is_u64((uint64_t)count_of(v, 0, 0), 271, "socket 0: 207 of 21/16, scaled once");
	tap_is_str(stat_aggr_prefix(&std, &v->res, 0, 0, buf, sizeof(buf)), "S0        3 ",
	           "socket prefix: S%%-5d %%4d");
	stat_aggr_view_free(v);
	a.mode = STAT_AGGR_DIE;
	v = stat_aggr_view_new(&a, &in, false);
	tap_ok(v->nr_ids == 2 && strcmp(v->id[1].name, "S1-D0") == 0, "--per-die: S0-D0 and S1-D0");
	tap_is_str(stat_aggr_prefix(&std, &v->res, 1, 1, buf, sizeof(buf)), "S1-D0           1 ",
	           "die prefix: S%%d-D%%-8d %%4d");
	stat_aggr_view_free(v);
	a.mode = STAT_AGGR_NODE;
	v = stat_aggr_view_new(&a, &in, false);
	tap_ok(v->nr_ids == 2 && strcmp(v->id[0].name, "N0") == 0 && v->members[0] == 3 &&
	           v->members[1] == 1,
	       "--per-node: N0 of 3 CPUs, N1 of 1");
	tap_is_u64((uint64_t)count_of(v, 1, 1), 4, "B on node 1: CPU3's 4");
	stat_aggr_view_free(v);
	a.mode = STAT_AGGR_GLOBAL;
	tap_ok(!stat_aggr_view_new(&a, &in, false) && !stat_aggr_view_new(NULL, &in, false),
	       "perf's default: no view");
	hpm_evlist_free(&l);
}

static void test_cluster_cache(void)
{
	struct hpm_evlist l;
	fill(&l);
	struct stat_result in = {.list = &l};
	struct stat_aggr a = {.mode = STAT_AGGR_CLUSTER, .topology = &topo};
	struct stat_config std = {.format = STAT_FORMAT_STD, .csv_sep = ","};
	struct stat_config csv = {.format = STAT_FORMAT_CSV, .csv_sep = ";"};
	struct stat_aggr_view *v = stat_aggr_view_new(&a, &in, false);
	char buf[64];
	const char *key, *id;
	unsigned nr;
	tap_ok(v && v->nr_ids == 3 && strcmp(v->id[0].name, "S0-D0-CLS0") == 0 &&
	           strcmp(v->id[1].name, "S0-D0-CLS1") == 0 &&
	           strcmp(v->id[2].name, "S1-D0-CLS2") == 0 && v->members[0] == 2,
	       "--per-cluster: S0-D0-CLS0 of 2 CPUs, S0-D0-CLS1, S1-D0-CLS2");
	tap_is_str(stat_aggr_prefix(&std, &v->res, 0, 0, buf, sizeof(buf)),
	           "S0-D0-CLS0              2 ", "cluster prefix: perf 6.12's %%-20s %%4d");
	tap_is_str(stat_aggr_prefix(&csv, &v->res, 0, 0, buf, sizeof(buf)), "S0-D0-CLS0;2;",
	           "cluster CSV prefix");
	tap_ok(stat_aggr_json(&v->res, 0, 0, &key, &id, &nr) && strcmp(key, "cluster") == 0 &&
	           nr == 2,
	       "cluster JSON key");
	stat_aggr_view_free(v);
	/* the last level: L3, one per socket */
	a = (struct stat_aggr){.mode = STAT_AGGR_CACHE, .topology = &topo};
	v = stat_aggr_view_new(&a, &in, false);
	tap_ok(v && v->nr_ids == 2 && strcmp(v->id[0].name, "S0-D0-L3-ID0") == 0 &&
	           strcmp(v->id[1].name, "S1-D0-L3-ID3") == 0 && v->members[0] == 3,
	       "--per-cache: the last level, S0-D0-L3-ID0 of 3 CPUs and S1-D0-L3-ID3");
	tap_is_u64((uint64_t)count_of(v, 1, 0), 6, "B on the first L3: 1 + 2 + 3");
	tap_is_str(stat_aggr_prefix(&std, &v->res, 0, 0, buf, sizeof(buf)),
	           "S0-D0-L3-ID0              3 ", "cache prefix: perf 6.12's %%-22s %%4d");
	tap_ok(stat_aggr_json(&v->res, 0, 0, &key, &id, &nr) && strcmp(key, "cache") == 0,
	       "cache JSON key");
	stat_aggr_view_free(v);
	a.cache_level = 2;
	v = stat_aggr_view_new(&a, &in, false);
	/* perf sorts by node first: CPU3's (node 1, no L2) comes last */
	tap_ok(v && v->nr_ids == 3 && strcmp(v->id[0].name, "S0-D0-L2-ID0") == 0 &&
	           strcmp(v->id[1].name, "S0-D0-L2-ID2") == 0 &&
	           strcmp(v->id[2].name, "S1-D0-L-1-ID-1") == 0,
	       "--per-cache=L2: per core, a CPU without an L2 is L-1-ID-1");
	stat_aggr_view_free(v);
	hpm_evlist_free(&l);
}

static void test_harts(void)
{
	struct hpm_evlist l = {0};
	hpm_evlist_add(&l, "mcycle", -1);
	hpm_evlist_alloc_counts(&l, 4, "hart");
	for (unsigned u = 0; u < 4; u++)
		l.ev[0].counts[u] = (struct hpm_count){1000, 1000, 1000, false};
	struct stat_result in = {.list = &l};
	struct stat_aggr a = {.mode = STAT_AGGR_CORE, .topology = NULL};
	struct stat_aggr_view *v = stat_aggr_view_new(&a, &in, false);
	tap_ok(v->nr_ids == 4 && strcmp(v->id[3].name, "S0-D0-C3") == 0,
	       "emulated harts: hart3 is core 3 of socket 0, die 0");
	stat_aggr_view_free(v);
	a.mode = STAT_AGGR_SOCKET;
	v = stat_aggr_view_new(&a, &in, false);
	tap_ok(v->nr_ids == 1 && v->members[0] == 4 && count_of(v, 0, 0) == 4000,
	       "emulated harts: one socket of 4, their counts summed");
	stat_aggr_view_free(v);
	hpm_evlist_free(&l);
}

static void test_threads(void)
{
	struct hpm_evlist l = {0};
	hpm_evlist_add(&l, "cpu-clock", -1);
	hpm_evlist_add(&l, "hidden", -1);
	l.ev[1].metric_only = true;
	hpm_evlist_alloc_counts(&l, 3, "x");
	const char *names[3] = {"a-1", "spin-threads-22", "c-3"};
	const uint64_t vals[3] = {5, 0, 9};
	for (unsigned u = 0; u < 3; u++) {
		free(l.unit_names[u]);
		l.unit_names[u] = strdup(names[u]);
		l.ev[0].counts[u] = (struct hpm_count){vals[u], 1, 1, false};
		l.ev[1].counts[u] = (struct hpm_count){1, 1, 1, false};
	}
	struct stat_result in = {.list = &l};
	struct stat_aggr a = {.mode = STAT_AGGR_THREAD};
	struct stat_config std = {.format = STAT_FORMAT_STD, .csv_sep = ","};
	struct stat_config csv = {.format = STAT_FORMAT_CSV, .csv_sep = ","};
	char buf[64];
	struct stat_aggr_view *v = stat_aggr_view_new(&a, &in, false);
	tap_ok(v->nr_rows == 3 && strcmp(v->id[v->row[0].unit].name, "c-3") == 0 &&
	           strcmp(v->id[v->row[1].unit].name, "a-1") == 0 &&
	           strcmp(v->id[v->row[2].unit].name, "spin-threads-22") == 0,
	       "--per-thread: the largest count first, rows for metrics hidden");
	unsigned u = v->row[2].unit;
	tap_is_str(stat_aggr_prefix(&std, &v->res, 0, (int)u, buf, sizeof(buf)),
	           "    spin-threads-22       ", "std: comm right-aligned in 16, tid in 8");
	tap_is_str(stat_aggr_prefix(&csv, &v->res, 0, (int)u, buf, sizeof(buf)), "spin-threads-22,",
	           "CSV: comm-tid");
	const char *key, *id;
	unsigned nr = 1;
	tap_ok(stat_aggr_json(&v->res, 0, (int)u, &key, &id, &nr) && strcmp(key, "thread") == 0 &&
	           strcmp(id, "spin-threads-22") == 0 && nr == 0,
	       "JSON: \"thread\", no aggregate-number");
	stat_aggr_view_free(v);
	a.skip_zero = true;
	v = stat_aggr_view_new(&a, &in, true);
	tap_ok(v->nr_rows == 5, "-a: the thread that counted 0 left out; -v shows hidden rows");
	stat_aggr_view_free(v);
	hpm_evlist_free(&l);
}

int main(void)
{
	test_core();
	test_socket_die_node();
	test_cluster_cache();
	test_harts();
	test_threads();
	return tap_done();
}
