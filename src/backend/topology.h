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
 */
#ifndef HPM_BACKEND_TOPOLOGY_H
#define HPM_BACKEND_TOPOLOGY_H

struct hpm_cpu_place {
	int socket, die, core, node;
};

struct hpm_topology {
	struct hpm_cpu_place *cpu; /* [nr_cpus], indexed by CPU number */
	unsigned nr_cpus;
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
void hpm_topology_free(struct hpm_topology *t);

#endif
