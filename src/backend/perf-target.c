/* perf-target.c: the places (pid, cpu) and units a target counts on, as
 * perf's util/target.c, cpumap.c, thread_map.c and cgroup.c find them:
 * -C CPU lists, the threads of -p, -t and -a --per-thread, and -G's
 * cgroup directory; see perf.h. */
#include "backend/perf-int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/cpulist.h"
#include "util/str.h"
#include "util/xalloc.h"

static void online_cpus(char *buf, size_t len)
{
	char path[512];
	const char *paths[2];
	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", hpm_sysfs_root());
	paths[0] = path;
	paths[1] = "/sys/devices/system/cpu/online";
	for (unsigned i = 0; i < 2; i++) {
		FILE *f = fopen(paths[i], "re");
		if (!f)
			continue;
		char *ok = fgets(buf, (int)len, f);
		fclose(f);
		if (ok) {
			buf[strcspn(buf, " \t\r\n")] = '\0';
			return;
		}
	}
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(buf, len, n > 1 ? "0-%ld" : "0", n - 1);
}

int hpm_perf_parse_cpu_list(const char *list, const char *online, int **cpus, unsigned *nr,
                            char *err, size_t errlen)
{
	char obuf[512], ebuf[160];
	int *on = NULL;
	unsigned non = 0;
	if (!online) {
		online_cpus(obuf, sizeof(obuf));
		online = obuf;
	}
	if (hpm_cpu_list_parse(online, &on, &non, ebuf, sizeof(ebuf))) {
		snprintf(err, errlen, "cannot read the online CPUs: %s", ebuf);
		return -EINVAL;
	}
	if (!list) {
		*cpus = on;
		*nr = non;
		return 0;
	}
	int rc = hpm_cpu_list_parse(list, cpus, nr, err, errlen);
	if (rc) {
		free(on);
		return rc;
	}
	for (unsigned i = 0, j = 0; i < *nr; i++) {
		while (j < non && on[j] < (*cpus)[i])
			j++;
		if (j == non || on[j] != (*cpus)[i]) {
			snprintf(err, errlen, "CPU %d is not online (online CPUs: %.64s)",
			         (*cpus)[i], online);
			free(*cpus);
			*cpus = NULL;
			free(on);
			return -EINVAL;
		}
	}
	free(on);
	return 0;
}

/* "0-3,5" from a sorted list, for placement strings. */
void perf_format_cpus(const int *c, unsigned n, char *buf, size_t len)
{
	size_t w = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < n && w < len;) {
		unsigned j = i;
		while (j + 1 < n && c[j + 1] == c[j] + 1)
			j++;
		int k = j > i ? snprintf(buf + w, len - w, "%s%d-%d", i ? "," : "", c[i], c[j])
		              : snprintf(buf + w, len - w, "%s%d", i ? "," : "", c[i]);
		if (k < 0)
			break;
		w += (size_t)k;
		i = j + 1;
	}
}

/* ------------------------------------------------------------ thread targets */

/* The threads of pid (/proc/PID/task), as perf -p counts them all. */
static int task_threads(pid_t pid, pid_t **out, unsigned *nr)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	size_t cap = 8;
	unsigned n = 0;
	pid_t *v = xmalloc(cap * sizeof(*v));
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);
		if (end == de->d_name || *end || tid <= 0)
			continue;
		if (n == cap)
			v = xreallocarray(v, cap *= 2, sizeof(*v));
		v[n++] = (pid_t)tid;
	}
	closedir(d);
	if (!n) {
		free(v);
		return -ESRCH;
	}
	*out = v;
	*nr = n;
	return 0;
}

/* The tids of -t LIST ("12,15"), each checked to exist. */
int perf_tid_list_threads(const char *list, pid_t **out, unsigned *nr, char *err, size_t errlen)
{
	unsigned n = 0;
	size_t cap = 4;
	pid_t *v = xmalloc(cap * sizeof(*v));
	for (const char *p = list; *p;) {
		char *end;
		long tid = strtol(p, &end, 10);
		if (end == p || tid <= 0 || tid > INT_MAX || (*end && *end != ',')) {
			snprintf(err, errlen, "-t '%s': not a thread id list", list);
			free(v);
			return -EINVAL;
		}
		char path[64];
		snprintf(path, sizeof(path), "/proc/%ld", tid);
		if (access(path, F_OK) != 0) {
			snprintf(err, errlen, "-t %ld: no such thread", tid);
			free(v);
			return -ESRCH;
		}
		if (n == cap)
			v = xreallocarray(v, cap *= 2, sizeof(*v));
		v[n++] = (pid_t)tid;
		p = *end ? end + 1 : end;
	}
	if (!n) {
		snprintf(err, errlen, "-t: no thread id");
		free(v);
		return -EINVAL;
	}
	*out = v;
	*nr = n;
	return 0;
}

/* Every thread of the system (/proc/N/task/M), for -a --per-thread. */
static int system_threads(pid_t **out, unsigned *nr)
{
	DIR *d = opendir("/proc");
	if (!d)
		return -errno;
	pid_t *all = NULL;
	unsigned n = 0;
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		pid_t *tids;
		unsigned nt;
		if (end == de->d_name || *end || pid <= 0 || task_threads((pid_t)pid, &tids, &nt))
			continue;
		if (n + nt > cap) {
			cap = 2 * (n + nt);
			all = xreallocarray(all, cap, sizeof(*all));
		}
		memcpy(all + n, tids, nt * sizeof(*tids));
		n += nt;
		free(tids);
	}
	closedir(d);
	if (!n)
		return -ESRCH;
	*out = all;
	*nr = n;
	return 0;
}

/* perf's thread name: "comm-tid", the comm read once, at open. */
static char *thread_unit_name(pid_t tid)
{
	char path[64], comm[64] = "";
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	FILE *f = fopen(path, "re");
	if (f) {
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
	}
	comm[strcspn(comm, "\n")] = '\0';
	return xasprintf("%s-%d", comm[0] ? comm : "?", (int)tid);
}

/* The places of a thread target: -t's tids, every thread of -p, or every
 * thread of the system (-a --per-thread); one unit each with per_thread,
 * else one unit ("task") for all. */
static int thread_places(struct perf_inst *s, const struct hpm_target *t, char ***units,
                         unsigned *nr_units, char *err, size_t errlen)
{
	pid_t *tids = NULL;
	unsigned n = 0;
	int rc;
	if (t->tid_list)
		rc = perf_tid_list_threads(t->tid_list, &tids, &n, err, errlen);
	else if (t->pid > 0 && !t->system_wide)
		rc = task_threads(t->pid, &tids, &n);
	else
		rc = system_threads(&tids, &n);
	if (rc) {
		if (!t->tid_list && t->pid > 0 && rc == -ESRCH)
			snprintf(err, errlen, "no such process: %d", t->pid);
		else if (!t->tid_list)
			snprintf(err, errlen, "cannot list the threads: %s", strerror(-rc));
		return rc;
	}
	if (t->per_process && t->system_wide && !t->tid_list) {
		/* --per-task without BPF: a unit per process, its threads' fds */
		pid_t *tg = xcalloc(n, sizeof(*tg));
		unsigned nu = 0;
		s->place = xcalloc(n, sizeof(*s->place));
		*units = xcalloc(n, sizeof(**units));
		for (unsigned i = 0; i < n; i++) {
			pid_t g = hpm_proc_tgid("/proc", tids[i]);
			unsigned u = 0;
			while (u < nu && tg[u] != g)
				u++;
			if (u == nu) {
				tg[nu++] = g;
				(*units)[u] = thread_unit_name(g);
			}
			s->place[i] = (struct perf_place){tids[i], -1, u};
		}
		s->nr_places = n;
		*nr_units = nu;
		free(tg);
		free(tids);
		return 0;
	}
	unsigned nu = t->per_thread ? n : 1;
	s->place = xcalloc(n, sizeof(*s->place));
	*units = xcalloc(nu, sizeof(**units));
	for (unsigned i = 0; i < n; i++) {
		s->place[i] = (struct perf_place){tids[i], -1, t->per_thread ? i : 0};
		if (t->per_thread)
			(*units)[i] = thread_unit_name(tids[i]);
	}
	if (!t->per_thread)
		(*units)[0] = xstrdup("task");
	s->nr_places = n;
	*nr_units = nu;
	free(tids);
	return 0;
}

/* Places (pid, cpu) and units of a target. */
int perf_make_places(struct perf_inst *s, const struct hpm_target *t, char ***units,
                     unsigned *nr_units, bool *task, char *err, size_t errlen)
{
	if (t->tid_list || ((t->per_thread || t->per_process) && (t->pid > 0 || t->system_wide))) {
		*task = true;
		return thread_places(s, t, units, nr_units, err, errlen);
	}
	if (cpu_target(t)) {
		int *cpus = NULL;
		unsigned n = 0;
		int rc = hpm_perf_parse_cpu_list(t->cpu_list, NULL, &cpus, &n, err, errlen);
		if (rc)
			return rc;
		s->place = xcalloc(n, sizeof(*s->place));
		*units = xcalloc(n, sizeof(**units));
		for (unsigned i = 0; i < n; i++) {
			s->place[i] = (struct perf_place){-1, cpus[i], i};
			(*units)[i] = xasprintf("CPU%d", cpus[i]);
		}
		s->nr_places = n;
		*nr_units = n;
		*task = false;
		free(cpus);
		return 0;
	}
	*task = true;
	if (t->pid <= 0 || t->enable_on_exec) {
		/* the calling process (pid 0), or a child stopped before exec:
		 * it has one thread and inherit covers what it starts */
		s->place = xcalloc(1, sizeof(*s->place));
		s->place[0] = (struct perf_place){t->pid > 0 ? t->pid : 0, -1, 0};
		s->nr_places = 1;
	} else {
		pid_t *tids = NULL;
		unsigned n = 0;
		int rc = task_threads(t->pid, &tids, &n);
		if (rc) {
			if (rc == -ESRCH)
				snprintf(err, errlen, "no such process: %d", t->pid);
			else
				snprintf(err, errlen, "cannot list the threads of %d: %s", t->pid,
				         strerror(-rc));
			return rc;
		}
		s->place = xcalloc(n, sizeof(*s->place));
		for (unsigned i = 0; i < n; i++)
			s->place[i] = (struct perf_place){tids[i], -1, 0};
		s->nr_places = n;
		free(tids);
	}
	*units = xcalloc(1, sizeof(**units));
	(*units)[0] = xstrdup("task");
	*nr_units = 1;
	return 0;
}

/* ------------------------------------------------------------ cgroups */

/* Where perf finds cgroups (cgroupfs_find_mountpoint("perf_event")): a
 * cgroup v1 mount with the perf_event controller, else the cgroup2 mount. */
static int cgroup_mount(char *out, size_t len)
{
	char path[512], line[1024], v2[512] = "";
	snprintf(path, sizeof(path), "%s/self/mounts", hpm_procfs_root());
	FILE *f = fopen(path, "re");
	if (!f && !(f = fopen("/proc/self/mounts", "re")))
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char dev[256], dir[512], type[64], opts[512];
		if (sscanf(line, "%255s %511s %63s %511s", dev, dir, type, opts) != 4)
			continue;
		bool perf_event = false;
		for (char *o = strtok(opts, ","); o; o = strtok(NULL, ","))
			perf_event |= strcmp(o, "perf_event") == 0;
		if (strcmp(type, "cgroup") == 0 && perf_event) {
			snprintf(out, len, "%s", dir);
			fclose(f);
			return 0;
		}
		if (strcmp(type, "cgroup2") == 0 && !v2[0])
			snprintf(v2, sizeof(v2), "%s", dir);
	}
	fclose(f);
	if (!v2[0])
		return -ENOENT;
	snprintf(out, len, "%s", v2);
	return 0;
}

/* -G NAME: the cgroup's directory, kept open for perf_event_open. */
int perf_open_cgroup(const struct hpm_evsel *ev, struct perf_ev *pv, const struct hpm_target *t,
                     char *err, size_t errlen)
{
	char mnt[512], path[1100];
	if (!cpu_target(t)) {
		snprintf(err, errlen,
		         "-G '%s' (for '%s'): cgroups are counted system wide only: add -a or -C",
		         ev->cgroup, label(ev));
		return -EINVAL;
	}
	if (cgroup_mount(mnt, sizeof(mnt)) != 0) {
		snprintf(err, errlen,
		         "-G '%s': no cgroup mount with the perf_event controller and no cgroup2 "
		         "mount in /proc/self/mounts",
		         ev->cgroup);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/%s", mnt, ev->cgroup);
	pv->cgroup_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pv->cgroup_fd < 0) {
		int e = errno;
		snprintf(err, errlen, "-G '%s': no access to cgroup %s: %s", ev->cgroup, path,
		         strerror(e));
		return -e;
	}
	return 0;
}
