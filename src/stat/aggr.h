/* aggr.h: perf stat's aggregation modes: --per-socket, --per-die,
 * --per-core, --per-node, --per-thread and perf 6.12's --per-cluster and
 * --per-cache[=L<n>] ("S0-D0-CLS1", "S0-D0-L3-ID0": socket, die, cache
 * level and the cache's id, the lowest CPU sharing it).
 *
 * Owns: struct stat_aggr (the mode, and the CPU topology it reads), and
 * struct stat_aggr_view: a measurement (struct stat_result) seen through
 * the mode, whose units are the aggregation ids ("S0-D0-C1", "N0",
 * "worker-4242") with the counts of their CPUs (or threads) summed, val,
 * enabled and running alike, before scaling, as perf sums them. The view
 * also holds the order perf prints rows in: id by id, every event of an
 * id together, for the topology modes; event by event, threads by count
 * (largest first) for --per-thread, without the threads that counted
 * nothing when every thread of the system is counted (-a). The printers
 * print a view like any result and ask here for the prefix columns.
 *
 * Metrics (Topdown, -M) go per id where that is exact: an id holding
 * exactly one metric unit (a hart, or a Kunminghu CPU: no SMT, so one per
 * core) gets that unit's metrics (stat_result.unit_metrics, as -A has them),
 * a mode with a single id gets the run's totals. Otherwise (an id of
 * several metric units, or -r, whose units keep only the last run) the
 * view keeps the totals and stat_aggr_metrics_note says why.
 *
 * Units map to ids by name: "CPU<n>" through the topology, "hart<n>" (the
 * emulator) as core n of socket 0, die 0, node 0; thread units ("comm-tid",
 * from the perf back end with hpm_target.per_thread) are their own ids.
 */
#ifndef HPM_STAT_AGGR_H
#define HPM_STAT_AGGR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "backend/topology.h"
#include "stat/stat.h"

enum stat_aggr_mode {
	STAT_AGGR_GLOBAL, /* perf's default: every unit summed */
	STAT_AGGR_SOCKET,
	STAT_AGGR_DIE,
	STAT_AGGR_CORE,
	STAT_AGGR_NODE,
	STAT_AGGR_THREAD,
	STAT_AGGR_CLUSTER,
	STAT_AGGR_CACHE,
};

struct stat_aggr {
	enum stat_aggr_mode mode;
	const struct hpm_topology *topology; /* the topology modes; NULL: CPUs unknown */
	bool skip_zero;                      /* --per-thread -a: hide threads that counted 0 */
	int cache_level;                     /* --per-cache=L<n>: n; 0 the last level */
};

/* One aggregation id. */
struct stat_aggr_id {
	int socket, die, core, node;
	int cluster, cache_lvl, cache; /* --per-cluster, --per-cache */
	char *name;         /* "S0-D0-C1", "S0-D0", "S0", "N0", or the thread's "comm-tid" */
	const char *thread; /* --per-thread: the unit's name, while the view is built */
};

/* One printed row: event row `ev` of the view's list, unit (id) `unit`. */
struct stat_aggr_row {
	unsigned ev, unit;
};

struct stat_aggr_view {
	struct stat_result res; /* what the printers print (res.aggr = this) */
	struct hpm_evlist list; /* the rows, counts per id */
	enum stat_aggr_mode mode;
	struct stat_aggr_id *id; /* [nr_ids], sorted */
	unsigned nr_ids;
	unsigned *members; /* [ev * nr_ids + id]: units of the row in the id */
	struct stat_aggr_row *row;
	unsigned nr_rows;
	/* true: res.unit_metrics[id] are each id's metrics (NULL for an id
	 * without a metric unit) and no total is printed; false: res.metrics
	 * are the run's totals, as without the mode */
	bool metrics_per_id;
	unsigned *metric_members;        /* [nr_ids]: metric units of each id */
	unsigned nr_metric_members;      /* metric units in all */
	struct stat_metric **id_metrics; /* [nr_ids], not owned */
};

/* The `ev` of a metric row for stat_aggr_prefix and stat_aggr_json: its
 * count column is the id's metric units. */
#define STAT_AGGR_METRIC_ROW UINT_MAX

/* The view of `in` under `a` (NULL for STAT_AGGR_GLOBAL); rows hidden from
 * output (events added for metrics) are left out unless `verbose`. */
struct stat_aggr_view *stat_aggr_view_new(const struct stat_aggr *a, const struct stat_result *in,
                                          bool verbose);
void stat_aggr_view_free(struct stat_aggr_view *v);

/* The prefix columns of row ev, unit u of a view, as perf prints them:
 * std "S0-D0-C1           1 ", CSV "S0-D0-C1,1," (sep = cfg->csv_sep);
 * "" for unit -1 or a result that is not a view. */
const char *stat_aggr_prefix(const struct stat_config *cfg, const struct stat_result *res,
                             unsigned ev, int unit, char *buf, size_t len);
/* Why a view's metrics are the run's totals rather than each id's, one
 * line without a newline; NULL when they are per id, or there are none. */
const char *stat_aggr_metrics_note(const struct stat_result *res);
/* perf's JSON keys for them: *key "core", "die", "socket", "node",
 * "cluster", "cache" or "thread", *id its text, *nr the "aggregate-number" (0: none, --per-thread).
 * False when there is no prefix. */
bool stat_aggr_json(const struct stat_result *res, unsigned ev, int unit, const char **key,
                    const char **id, unsigned *nr);

#endif
