/* topology.c: see topology.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/perf.h"
#include "backend/pmu.h"
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
	for (unsigned c = 0; c < t->nr_cpus; c++) {
		struct hpm_cpu_place *p = &t->cpu[c];
		snprintf(path, sizeof(path), "%s/cpu%u/topology/physical_package_id", dir, c);
		p->socket = read_int(path, -1);
		snprintf(path, sizeof(path), "%s/cpu%u/topology/die_id", dir, c);
		p->die = read_int(path, 0);
		snprintf(path, sizeof(path), "%s/cpu%u/topology/core_id", dir, c);
		p->core = read_int(path, -1);
		p->node = 0;
	}
	read_nodes(t, sys);
	return 0;
}

void hpm_topology_free(struct hpm_topology *t)
{
	free(t->cpu);
	memset(t, 0, sizeof(*t));
}
