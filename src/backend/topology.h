/* topology.h: where each CPU sits, from sysfs, for perf stat's
 * aggregation modes (--per-socket, --per-die, --per-core, --per-node).
 *
 * Owns: struct hpm_topology (socket, die, core and NUMA node of every CPU
 * in <sys>/devices/system/cpu/cpuN/topology/{physical_package_id,die_id,
 * core_id} and <sys>/devices/system/node/nodeN/cpulist, <sys> being
 * HPMSTAT_SYSFS or /sys), read once, as perf's cpu__get_*_id read them.
 * A file that is missing reads as 0 for the die (kernels before die_id)
 * and the node (no NUMA), and as -1 for socket and core, as perf prints
 * them then. Never prints.
 * For --per-cluster and --per-cache (perf 6.12) also each CPU's
 * topology/cluster_id (missing: 0, as perf) and its caches,
 * cpuN/cache/index0..3/{level,shared_cpu_list} as perf's
 * build_caches_for_cpu reads them: a cache's id is the lowest CPU of its
 * shared_cpu_list (the CPU itself when the list is empty).
 */
#ifndef HPM_BACKEND_TOPOLOGY_H
#define HPM_BACKEND_TOPOLOGY_H

#include <stdbool.h>

struct hpm_cpu_place {
	int socket, die, core, node;
};

/* perf's MAX_CACHE_LVL: the cache levels (and indexK folders) it reads */
#define HPM_MAX_CACHE_LEVEL 4

/* One CPU's caches: id[L] of level L (1..HPM_MAX_CACHE_LEVEL), -1 for a
 * level it has not; top, its highest level (0: none was read). */
struct hpm_cpu_caches {
	int id[HPM_MAX_CACHE_LEVEL + 1];
	int top;
};

struct hpm_topology {
	struct hpm_cpu_place *cpu; /* [nr_cpus], indexed by CPU number */
	unsigned nr_cpus;
	int *cluster;                 /* [nr_cpus]; NULL: all 0 */
	struct hpm_cpu_caches *cache; /* [nr_cpus]; NULL: none */
};

/* Reads the topology of every CPU sysfs lists (cpu0 .. the highest
 * present). Returns 0, or -errno when <sys>/devices/system/cpu cannot be
 * read at all. */
int hpm_topology_read(struct hpm_topology *t);
/* The place of CPU n; an unknown CPU sits at -1 everywhere. Inline, so
 * that the printers (stat/aggr.c) need no back end to link. */
static inline struct hpm_cpu_place hpm_topology_place(const struct hpm_topology *t, int cpu)
{
	if (cpu >= 0 && t && (unsigned)cpu < t->nr_cpus)
		return t->cpu[cpu];
	return (struct hpm_cpu_place){-1, -1, -1, -1};
}
/* CPU n's cluster (0 when unknown, as perf without cluster_id). */
static inline int hpm_topology_cluster(const struct hpm_topology *t, int cpu)
{
	if (cpu >= 0 && t && t->cluster && (unsigned)cpu < t->nr_cpus)
		return t->cluster[cpu];
	return 0;
}
/* CPU n's cache of `level` (1..HPM_MAX_CACHE_LEVEL; 0: its highest, perf's
 * last level cache): true with *lvl and *id set; false when sysfs has no
 * such cache, where perf prints level and id as -1. */
static inline bool hpm_topology_cache(const struct hpm_topology *t, int cpu, int level, int *lvl,
                                      int *id)
{
	if (cpu < 0 || !t || !t->cache || (unsigned)cpu >= t->nr_cpus ||
	    level > HPM_MAX_CACHE_LEVEL)
		return false;
	const struct hpm_cpu_caches *c = &t->cache[cpu];
	int l = level > 0 ? level : c->top;
	if (l <= 0 || c->id[l] < 0)
		return false;
	*lvl = l;
	*id = c->id[l];
	return true;
}
void hpm_topology_free(struct hpm_topology *t);

#endif
