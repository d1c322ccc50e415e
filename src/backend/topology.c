/* topology.c: see topology.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/host-pmu.h"
#include "backend/perf.h"
#include "backend/topology.h"
#include "util/xalloc.h"

/* One integer from a sysfs file; `missing` when it cannot be read. */
static int read_int(const char *path, int missing)
{
	FILE *f = fopen(path, "re");
	int v;
	if (!f)
		return missing;
	if (fscanf(f, "%d", &v) != 1)
		v = missing;
	fclose(f);
	return v;
}

/* Highest N of the cpuN (or nodeN) entries of dir, -1 when there is none. */
static int highest_index(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	size_t plen = strlen(prefix);
	int max = -1;
	struct dirent *de;
	if (!d)
		return -2;
	while ((de = readdir(d))) {
		char *end;
		if (strncmp(de->d_name, prefix, plen) != 0 || !de->d_name[plen])
			continue;
		long n = strtol(de->d_name + plen, &end, 10);
		if (*end || n < 0 || n > 65535)
			continue;
		if (n > max)
			max = (int)n;
	}
	closedir(d);
	return max;
}

/* Each node's cpulist gives the node of its CPUs. */
static void read_nodes(struct hpm_topology *t, const char *sys)
{
	char dir[512], path[600], list[4096];
	snprintf(dir, sizeof(dir), "%s/devices/system/node", sys);
	int max = highest_index(dir, "node");
	for (int n = 0; n <= max; n++) {
		snprintf(path, sizeof(path), "%s/node%d/cpulist", dir, n);
		FILE *f = fopen(path, "re");
		if (!f)
			continue;
		char *ok = fgets(list, sizeof(list), f);
		fclose(f);
		list[ok ? strcspn(list, " \t\r\n") : 0] = '\0';
		int *cpus = NULL;
		unsigned nr = 0;
		char err[160];
		/* the list is its own "online" set: offline CPUs keep their node */
		if (!list[0] || hpm_perf_parse_cpu_list(list, list, &cpus, &nr, err, sizeof(err)))
			continue;
		for (unsigned i = 0; i < nr; i++)
			if (cpus[i] >= 0 && (unsigned)cpus[i] < t->nr_cpus)
				t->cpu[cpus[i]].node = n;
		free(cpus);
	}
}

/* The lowest CPU of a cpulist ("0-3,8"), or `self` for an empty one. */
static int first_cpu_of(const char *path, int self)
{
	FILE *f = fopen(path, "re");
	int first = -1;
	if (!f)
		return -1;
	/* the ranges' starts: the lowest is the first number of some range */
	int a, ch;
	while (fscanf(f, "%d", &a) == 1) {
		if (first < 0 || a < first)
			first = a;
		ch = fgetc(f);
		if (ch == '-' && fscanf(f, "%d", &a) == 1)
			ch = fgetc(f);
		if (ch != ',')
			break;
	}
	fclose(f);
	return first < 0 ? self : first;
}

/* CPU c's caches: index0.. up to the first missing one, as perf reads
 * them (a cache whose level or shared_cpu_list cannot be read ends the
 * list too); of two caches of one level (L1d and L1i) the later counts. */
static void read_caches(struct hpm_cpu_caches *cc, const char *cpudir, unsigned c)
{
	char path[800];
	for (int l = 0; l <= HPM_MAX_CACHE_LEVEL; l++)
		cc->id[l] = -1;
	cc->top = 0;
	for (int k = 0; k < HPM_MAX_CACHE_LEVEL; k++) {
		snprintf(path, sizeof(path), "%s/cpu%u/cache/index%d/level", cpudir, c, k);
		int level = read_int(path, -1);
		snprintf(path, sizeof(path), "%s/cpu%u/cache/index%d/shared_cpu_list", cpudir, c,
		         k);
		int id = first_cpu_of(path, (int)c);
		if (level < 1 || level > HPM_MAX_CACHE_LEVEL || id < 0)
			break;
		cc->id[level] = id;
		if (level > cc->top)
			cc->top = level;
	}
}

int hpm_topology_read(struct hpm_topology *t)
{
	const char *sys = hpm_sysfs_root();
	char dir[512], path[700];
	memset(t, 0, sizeof(*t));
	snprintf(dir, sizeof(dir), "%s/devices/system/cpu", sys);
	int max = highest_index(dir, "cpu");
	if (max < -1) {
		int e = errno;
		return e ? -e : -ENOENT;
	}
	t->nr_cpus = (unsigned)(max + 1);
	t->cpu = xcalloc(t->nr_cpus ? t->nr_cpus : 1, sizeof(*t->cpu));
	t->cluster = xcalloc(t->nr_cpus ? t->nr_cpus : 1, sizeof(*t->cluster));
	t->cache = xcalloc(t->nr_cpus ? t->nr_cpus : 1, sizeof(*t->cache));
	for (unsigned c = 0; c < t->nr_cpus; c++) {
		struct hpm_cpu_place *p = &t->cpu[c];
		snprintf(path, sizeof(path), "%s/cpu%u/topology/physical_package_id", dir, c);
		p->socket = read_int(path, -1);
		snprintf(path, sizeof(path), "%s/cpu%u/topology/die_id", dir, c);
		p->die = read_int(path, 0);
		snprintf(path, sizeof(path), "%s/cpu%u/topology/core_id", dir, c);
		p->core = read_int(path, -1);
		p->node = 0;
		snprintf(path, sizeof(path), "%s/cpu%u/topology/cluster_id", dir, c);
		/* perf: no cluster_id (or -1) is cluster 0 */
		int cluster = read_int(path, 0);
		t->cluster[c] = cluster == -1 ? 0 : cluster;
		read_caches(&t->cache[c], dir, c);
	}
	read_nodes(t, sys);
	return 0;
}

void hpm_topology_free(struct hpm_topology *t)
{
	free(t->cpu);
	free(t->cluster);
	free(t->cache);
	memset(t, 0, sizeof(*t));
}
