/* perf.c: the perf_event_open back end; see perf.h for what it does. */
#include "backend/perf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "backend/host-events.h"
#include "bpf/taskcount.h"
#include "util/str.h"
#include "util/xalloc.h"

#define MAX_CPU_ID 65535 /* far above any NR_CPUS; bounds a -C range */

/* ------------------------------------------------------------ helpers */

static const char *label(const struct hpm_evsel *ev)
{
	if (ev->spec && *ev->spec)
		return ev->spec;
	return ev->name ? ev->name : "?";
}

static const char *errno_name(int e)
{
	switch (e) {
	case EPERM:
		return "EPERM";
	case ENOENT:
		return "ENOENT";
	case ESRCH:
		return "ESRCH";
	case E2BIG:
		return "E2BIG";
	case EBADF:
		return "EBADF";
	case EACCES:
		return "EACCES";
	case EBUSY:
		return "EBUSY";
	case ENODEV:
		return "ENODEV";
	case EINVAL:
		return "EINVAL";
	case ENFILE:
		return "ENFILE";
	case EMFILE:
		return "EMFILE";
	case ENOSPC:
		return "ENOSPC";
	case ENOSYS:
		return "ENOSYS";
	case ENXIO:
		return "ENXIO";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	default:
		return "errno";
	}
}

/* The errors perf stat shows as <not supported> and goes on. */
static bool errno_not_supported(int e)
{
	return e == ENOENT || e == EOPNOTSUPP || e == ENODEV || e == ENXIO;
}

static bool is_model_event(const struct hpm_evsel *ev)
{
	return ev->kind == HPM_EV_MODEL || ev->kind == HPM_EV_MODEL_FIXED;
}

/* -a or -C: count per CPU. A pid next to them is the forked workload, which
 * only bounds the run (the CLI resolves -p with -a/-C as perf does: the pid
 * wins, and it clears them). */
static bool cpu_target(const struct hpm_target *t)
{
	return t->system_wide || t->cpu_list;
}

bool hpm_perf_owns(const struct hpm_evsel *ev, const struct hpm_pmu *pmu)
{
	return ev->kind == HPM_EV_HOST || (is_model_event(ev) && pmu && pmu->present);
}

int hpm_perf_paranoid(void)
{
	char path[512], buf[32];
	const char *roots[2] = {hpm_procfs_root(), "/proc"};
	for (unsigned i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/sys/kernel/perf_event_paranoid", roots[i]);
		FILE *f = fopen(path, "re");
		if (!f)
			continue;
		char *ok = fgets(buf, sizeof(buf), f);
		fclose(f);
		char *end;
		long v;
		if (ok && (v = strtol(buf, &end, 10), end != buf) && v > INT_MIN && v < INT_MAX)
			return (int)v;
	}
	return INT_MIN;
}

/* ------------------------------------------------------------ attrs */

/* A model event's attr: the model's mapping for the host's driver
 * (arch/model.h perf_attr), its message after the event's text. */
static int model_attr(const struct hpm_evsel *ev, const struct hpm_pmu *pmu,
                      struct hpm_perf_event *pe, char *err, size_t errlen)
{
	const struct hpm_pmu_model *m = ev->enc.model;
	char buf[200];
	str_escape(label(ev), buf, sizeof(buf));
	if (!m->perf_attr) {
		snprintf(err, errlen,
		         "'%s' cannot be counted through perf: the %s model has no "
		         "mapping to a kernel driver",
		         buf, m->display);
		return -EOPNOTSUPP;
	}
	struct hpm_model_perf_pmu drv;
	struct hpm_model_perf_attr a;
	struct hpm_model_error e;
	hpm_pmu_driver(pmu, &drv);
	int rc = m->perf_attr(&ev->enc, ev->optional, &drv, &a, &e);
	pe->type = a.type;
	pe->config = a.config;
	pe->config1 = a.config1;
	pe->config2 = a.config2;
	pe->exclude_user = a.exclude_user;
	pe->exclude_kernel = a.exclude_kernel;
	pe->exclude_hv = a.exclude_hv;
	pe->exclude_host = a.exclude_host;
	pe->exclude_guest = a.exclude_guest;
	pe->pinned = a.pinned;
	pe->unpinned = a.unpinned;
	pe->unpinned_warning = a.unpinned_warning;
	pe->extra_modes = a.extra_modes;
	pe->absent = a.absent;
	if (rc == 0)
		return 0;
	snprintf(err, errlen, "'%s' %s", buf, e.msg);
	return a.absent ? -ENODEV : -EINVAL;
}

/* --all-user / --all-kernel on a host event, as perf's evsel__config:
 * exclude_kernel and exclude_user set and cleared whatever the modifiers
 * said; exclude_hv stays. */
static void apply_level(const struct hpm_evsel *ev, struct hpm_perf_event *pe)
{
	if (ev->level_only == HPM_LEVEL_USER) {
		pe->exclude_kernel = true;
		pe->exclude_user = false;
	} else if (ev->level_only == HPM_LEVEL_KERNEL) {
		pe->exclude_kernel = false;
		pe->exclude_user = true;
	}
}

int hpm_perf_event_attr(const struct hpm_evsel *ev, const struct hpm_pmu *pmu,
                        struct hpm_perf_event *pe, char *err, size_t errlen)
{
	memset(pe, 0, sizeof(*pe));
	pe->unit = "";
	pe->scale = 1.0;
	if (ev->kind == HPM_EV_HOST) {
		struct hpm_host_attr a;
		int rc = hpm_host_event_parse(ev->spec ? ev->spec : ev->name, &a, err, errlen);
		if (rc == -ENODEV)
			pe->absent = true;
		if (rc)
			return rc;
		pe->type = a.type;
		pe->config = a.config;
		pe->config1 = a.config1;
		pe->config2 = a.config2;
		pe->exclude_user = a.exclude_user;
		pe->exclude_kernel = a.exclude_kernel;
		pe->exclude_hv = a.exclude_hv;
		pe->exclude_host = a.exclude_host;
		pe->exclude_guest = a.exclude_guest;
		pe->guest_default = a.guest_default;
		pe->precise_ip = a.precise_ip;
		pe->precise_max = a.precise_max;
		pe->unit = a.unit;
		pe->scale = a.scale;
		pe->sysfs_pmu = a.kind == HPM_HOST_PMU;
		apply_level(ev, pe);
		/* cpu/config=.../ on the RISC-V PMU: bits no format/ term covers
		 * are dropped by riscv_pmu_sbi as silently as a raw value's */
		if (pe->sysfs_pmu && pmu && pmu->present && a.type == pmu->type &&
		    (a.config & ~pmu->config_mask)) {
			char buf[200];
			uint64_t extra = a.config & ~pmu->config_mask;
			str_escape(label(ev), buf, sizeof(buf));
			snprintf(err, errlen,
			         "'%s' sets config bits %u:%u, which no term of this kernel's PMU "
			         "covers (it takes %s): the kernel would drop them silently",
			         buf, 63u - (unsigned)__builtin_clzll(extra),
			         (unsigned)__builtin_ctzll(extra), pmu->event.text);
			return -EINVAL;
		}
		return 0;
	}
	if (!pmu || !pmu->present) {
		const char *m = ev->enc.model->display;
		snprintf(
		    err, errlen,
		    "%s events need a %s PMU, and this host has none (use --backend emu or auto)",
		    m, m);
		return -ENODEV;
	}
	return model_attr(ev, pmu, pe, err, errlen);
}

/* ------------------------------------------------------------ CPU lists */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static bool parse_cpu(const char **pp, int *out)
{
	const char *p = *pp;
	if (*p < '0' || *p > '9')
		return false;
	long v = 0;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (*p - '0');
		if (v > MAX_CPU_ID)
			return false;
		p++;
	}
	*out = (int)v;
	*pp = p;
	return true;
}

/* "0-3,5" -> sorted unique CPUs. */
static int parse_list(const char *s, int **cpus, unsigned *nr, char *err, size_t errlen)
{
	char buf[96];
	size_t cap = 16;
	unsigned n = 0;
	int *v = xmalloc(cap * sizeof(*v));
	const char *p = s;

	str_escape(s, buf, sizeof(buf));
	if (!*p) {
		snprintf(err, errlen, "empty CPU list");
		goto fail;
	}
	for (;;) {
		int lo, hi;
		const char *at = p;
		if (!parse_cpu(&p, &lo)) {
			snprintf(err, errlen,
			         "bad CPU list '%s': expected a CPU number (0..%d) at '%.16s'", buf,
			         MAX_CPU_ID, at);
			goto fail;
		}
		hi = lo;
		if (*p == '-') {
			p++;
			at = p;
			if (!parse_cpu(&p, &hi)) {
				snprintf(
				    err, errlen,
				    "bad CPU list '%s': expected a CPU number after '-' at '%.16s'",
				    buf, at);
				goto fail;
			}
			if (hi < lo) {
				snprintf(err, errlen,
				         "bad CPU list '%s': range %d-%d ends before it starts",
				         buf, lo, hi);
				goto fail;
			}
		}
		for (int c = lo; c <= hi; c++) {
			if (n == cap)
				v = xreallocarray(v, cap *= 2, sizeof(*v));
			v[n++] = c;
		}
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p) {
			snprintf(err, errlen, "bad CPU list '%s': unexpected '%c'", buf, *p);
			goto fail;
		}
		break;
	}
	qsort(v, n, sizeof(*v), cmp_int);
	unsigned u = 0;
	for (unsigned i = 0; i < n; i++)
		if (u == 0 || v[u - 1] != v[i])
			v[u++] = v[i];
	*cpus = v;
	*nr = u;
	return 0;
fail:
	free(v);
	return -EINVAL;
}

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
	if (parse_list(online, &on, &non, ebuf, sizeof(ebuf))) {
		snprintf(err, errlen, "cannot read the online CPUs: %s", ebuf);
		return -EINVAL;
	}
	if (!list) {
		*cpus = on;
		*nr = non;
		return 0;
	}
	int rc = parse_list(list, cpus, nr, err, errlen);
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
static void format_cpus(const int *c, unsigned n, char *buf, size_t len)
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

/* ------------------------------------------------------------ advice */

/* A RISC-V host whose cpuinfo isa line lacks Sscofpmf. */
static bool no_sscofpmf(void)
{
	struct hpm_pmu pmu;
	char e[256];
	return hpm_pmu_detect(&pmu, e, sizeof(e)) == 0 && pmu.sscofpmf == 0;
}

const char *hpm_perf_open_strerror(int e, const struct hpm_evsel *ev, const struct hpm_target *t,
                                   char *out, size_t len)
{
	char name[160];
	str_escape(label(ev), name, sizeof(name));
	bool cpu_wide = t && cpu_target(t);

	switch (e) {
	case EACCES:
	case EPERM: {
		int p = hpm_perf_paranoid();
		char pv[16];
		const char *why, *fix;
		if (p == INT_MIN)
			snprintf(pv, sizeof(pv), "unreadable");
		else
			snprintf(pv, sizeof(pv), "%d", p);
		if (p >= 3) {
			why = "3 and above (a Debian addition) forbid perf_event_open to users "
			      "without CAP_PERFMON";
			fix =
			    "lower it: sysctl kernel.perf_event_paranoid=2 (or less), or run with "
			    "CAP_PERFMON";
		} else if (cpu_wide && p >= 1) {
			why = "1 and above forbid CPU-wide counting (-a, -C) without CAP_PERFMON";
			fix = "count a command or -p PID instead, or lower it: sysctl "
			      "kernel.perf_event_paranoid=0, or run with CAP_PERFMON";
		} else if (!ev->exclude_kernel && p >= 2) {
			why = "2 forbids counting kernel mode without CAP_PERFMON";
			fix = "count user space only (add :u), or lower it: sysctl "
			      "kernel.perf_event_paranoid=1, or run with CAP_PERFMON";
		} else {
			why = "that allows this request, so the kernel refused for another reason "
			      "(another user's process needs ptrace rights; a security module may "
			      "forbid perf)";
			fix = "run as the process's owner or with CAP_PERFMON";
		}
		snprintf(out, len,
		         "cannot count '%s': permission denied (%s); "
		         "/proc/sys/kernel/perf_event_paranoid is %s: %s; %s",
		         name, errno_name(e), pv, why, fix);
		break;
	}
	case ESRCH:
		snprintf(out, len, "cannot count '%s': no such process (pid %d)", name,
		         t ? t->pid : -1);
		break;
	case EMFILE: {
		struct rlimit rl;
		char lim[32] = "?";
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
			snprintf(lim, sizeof(lim), "%llu", (unsigned long long)rl.rlim_cur);
		snprintf(out, len,
		         "cannot count '%s': too many open files (EMFILE): hpmstat needs one file "
		         "descriptor per event and CPU, and the limit is %s; raise it with "
		         "'ulimit -n <limit>' or count fewer events",
		         name, lim);
		break;
	}
	case ENFILE:
		snprintf(
		    out, len,
		    "cannot count '%s': the system's file table is full (ENFILE); close files or "
		    "raise fs.file-max",
		    name);
		break;
	case EBUSY:
		snprintf(
		    out, len,
		    "cannot count '%s': the PMU is busy (EBUSY): another tool holds its counters "
		    "exclusively",
		    name);
		break;
	case ENOSYS:
		snprintf(out, len,
		         "cannot count '%s': this kernel has no perf_event_open (ENOSYS: built "
		         "without CONFIG_PERF_EVENTS?)",
		         name);
		break;
	case EINVAL: {
		const char *hint;
		bool generic = ev->attr_type == PERF_TYPE_HARDWARE ||
		               ev->attr_type == PERF_TYPE_SOFTWARE ||
		               ev->attr_type == PERF_TYPE_HW_CACHE;
		if (!cpu_wide && !generic && !is_model_event(ev))
			/* perf: "Invalid event (%s) in per-thread mode, enable system wide with
			 * '-a'." */
			hint =
			    "an uncore or CPU-wide-only event cannot be counted per task: count it "
			    "system wide with -a";
		else if ((ev->exclude_user || ev->exclude_kernel || ev->exclude_hv ||
		          ev->exclude_host || (ev->exclude_guest && is_model_event(ev))) &&
		         no_sscofpmf())
			/* riscv_pmu_sbi sets PERF_PMU_CAP_NO_EXCLUDE without the
			 * overflow interrupt; perf core then refuses any exclude_* */
			hint =
			    "this RISC-V core has no Sscofpmf (cpuinfo's isa line), and without it "
			    "Linux's PMU driver filters no privilege mode: count without :u/:k";
		else if (ev->exclude_user || ev->exclude_kernel || ev->exclude_host ||
		         (ev->exclude_guest && is_model_event(ev)))
			hint =
			    "the PMU may not filter by privilege mode (RISC-V needs Sscofpmf): try "
			    "without modifiers";
		else
			hint = "the PMU does not accept this configuration; 'dmesg | grep -i perf' "
			       "may "
			       "say why";
		snprintf(
		    out, len,
		    "cannot count '%s': the kernel rejected its perf_event_attr (EINVAL: type %u "
		    "config 0x%llx): %s",
		    name, ev->attr_type, (unsigned long long)ev->attr_config, hint);
		break;
	}
	default:
		if (errno_not_supported(e))
			snprintf(out, len, "'%s' is not supported by this kernel or PMU (%s)", name,
			         errno_name(e));
		else
			snprintf(out, len,
			         "cannot count '%s': perf_event_open failed: %s (%s %d); "
			         "'dmesg | grep -i perf' may say why",
			         name, strerror(e), errno_name(e), e);
		break;
	}
	return out;
}

/* ------------------------------------------------------------ sessions */

struct perf_place {
	pid_t pid;
	int cpu;
	unsigned unit;
};

/* One row the back end took (perf_inst.ev[k] for its k-th row). */
struct perf_ev {
	struct hpm_perf_event pe;
	int *fd;      /* [nr_places], -1 when not open */
	uint64_t *id; /* [nr_places], PERF_EVENT_IOC_ID, group members only */
	bool in_group;
	bool leader;   /* opened as a leader (solo evsels lead themselves) */
	int err;       /* errno that made it NOT_SUPPORTED */
	bool retried;  /* EINVAL retry without the default exclude_guest done */
	bool decided;  /* leader or member: fixed where it first opened */
	bool split;    /* a weak group's member, opened on its own */
	int cgroup_fd; /* -G: the cgroup's directory, else -1 */
	unsigned nr_fds;
};

/* One open perf back end: the handle open gives is &base. */
struct perf_inst {
	struct hpm_backend_inst base; /* first; base.rows: the rows it took */
	struct perf_ev *ev;           /* [base.nr_rows] */
	struct perf_place *place;
	unsigned nr_places;
	bool enable_on_exec; /* the first enable() is the kernel's, at exec */
	bool enabled;
	bool has_cgroup; /* some evsel has -G: read with CPU affinity */
	uint64_t *buf;   /* group read buffer */
	size_t buf_words;
	/* target->bpf: the places are CPUs whose counters the BPF program
	 * charges to tasks; units come from its table (bpf_read) */
	struct hpm_taskcount *tc;
	struct hpm_perf_cfg *cfg;
	int bpf_tgid;    /* only this process's threads, else 0 */
	pid_t *bpf_tids; /* -t: only these threads */
	unsigned nr_bpf_tids;
	bool bpf_per_thread;  /* a unit per thread */
	bool bpf_per_process; /* a unit per process */
};

extern const struct hpm_backend hpm_backend_perf;

/* The perf back end behind a handle; NULL when it is not one (or NULL). */
static struct perf_inst *perf_of(struct hpm_backend_inst *b)
{
	return b && b->ops == &hpm_backend_perf ? (struct perf_inst *)b : NULL;
}

/* The k-th row it took. */
static struct hpm_evsel *row(const struct perf_inst *s, unsigned k)
{
	return &s->base.list->ev[s->base.rows[k]];
}

static void perf_inst_free(struct perf_inst *s)
{
	for (unsigned k = 0; s->ev && k < s->base.nr_rows; k++) {
		struct perf_ev *pv = &s->ev[k];
		for (unsigned p = 0; pv->fd && p < s->nr_places; p++)
			if (pv->fd[p] >= 0)
				close(pv->fd[p]);
		if (pv->cgroup_fd >= 0)
			close(pv->cgroup_fd);
		free(pv->fd);
		free(pv->id);
	}
	hpm_taskcount_close(s->tc);
	free(s->bpf_tids);
	free(s->ev);
	free(s->place);
	free(s->buf);
	hpm_backend_inst_fini(&s->base);
	free(s);
}

int hpm_perf_cpu_fd(const struct hpm_backend_inst *b, unsigned row, int cpu)
{
	/* perf_of's test, on a const handle */
	const struct perf_inst *s =
	    b && b->ops == &hpm_backend_perf ? (const struct perf_inst *)b : NULL;
	for (unsigned k = 0; s && k < s->base.nr_rows; k++) {
		if (s->base.rows[k] != row)
			continue;
		for (unsigned p = 0; s->ev[k].fd && p < s->nr_places; p++)
			if (s->place[p].pid == -1 && s->place[p].cpu == cpu)
				return s->ev[k].fd[p];
	}
	return -1;
}

int hpm_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
                        unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static void to_attr(const struct hpm_perf_event *pe, bool in_group, bool leader,
                    const struct hpm_target *t, bool task, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = pe->type;
	a->config = pe->config;
	a->config1 = pe->config1;
	a->config2 = pe->config2;
	a->exclude_user = pe->exclude_user;
	a->exclude_kernel = pe->exclude_kernel;
	a->exclude_hv = pe->exclude_hv;
	a->exclude_host = pe->exclude_host;
	a->exclude_guest = pe->exclude_guest;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (in_group)
		a->read_format |= PERF_FORMAT_ID | PERF_FORMAT_GROUP;
	a->inherit = t->inherit;
	/* as perf stat: leaders start disabled, members follow their leader */
	a->disabled = leader;
	/* enable_on_exec acts on the task's own context: never on CPU events,
	 * nor on the threads of the whole system (-a --per-thread) */
	a->enable_on_exec = leader && task && t->enable_on_exec && !t->system_wide;
}

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

/* ------------------------------------------------------------ thread targets */

/* The tids of -t LIST ("12,15"), each checked to exist. */
static int tid_list_threads(const char *list, pid_t **out, unsigned *nr, char *err, size_t errlen)
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
		rc = tid_list_threads(t->tid_list, &tids, &n, err, errlen);
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
static int make_places(struct perf_inst *s, const struct hpm_target *t, char ***units,
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

static void describe(struct hpm_evsel *ev, const struct perf_ev *pv, const struct perf_inst *s,
                     const char *where, const char *leader_name)
{
	const struct hpm_perf_event *pe = &pv->pe;
	char c1[40] = "", c2[40] = "", grp[200] = "";
	unsigned nfd = 0;
	for (unsigned p = 0; p < s->nr_places; p++)
		nfd += pv->fd[p] >= 0;
	if (pe->config1)
		snprintf(c1, sizeof(c1), " config1 0x%llx", (unsigned long long)pe->config1);
	if (pe->config2)
		snprintf(c2, sizeof(c2), " config2 0x%llx", (unsigned long long)pe->config2);
	if (pv->in_group)
		snprintf(grp, sizeof(grp), pv->leader ? ", group leader" : ", in %.150s's group",
		         leader_name);
	else if (pv->split)
		snprintf(grp, sizeof(grp), ", alone: its weak group could not be opened as one");
	free(ev->placement);
	if (pe->absent)
		ev->placement = xasprintf("not supported: no such PMU on this host");
	else if (ev->state == HPM_EV_NOT_SUPPORTED)
		ev->placement =
		    xasprintf("perf type %u config 0x%llx%s%s: not supported (%s)", pe->type,
		              (unsigned long long)pe->config, c1, c2, errno_name(pv->err));
	else
		ev->placement = xasprintf("perf type %u config 0x%llx%s%s on %s (%u fd%s)%s%s",
		                          pe->type, (unsigned long long)pe->config, c1, c2, where,
		                          nfd, nfd == 1 ? "" : "s", grp,
		                          pe->unpinned ? ", counter chosen by the firmware"
		                          : pe->pinned ? ", pinned by counterid_mask"
		                                       : "");
}

/* The first event the driver places on a counter it may not use: one
 * warning, the model's. */
static void set_warning(struct hpm_perf_cfg *cfg, const struct hpm_perf_event *pe)
{
	if (!pe->unpinned || cfg->warn)
		return;
	cfg->warn = true;
	snprintf(cfg->warning, sizeof(cfg->warning), "%s",
	         pe->unpinned_warning ? pe->unpinned_warning : "");
}

/* The first event that counts guest modes it did not ask for: one note. */
static void set_note(struct hpm_perf_cfg *cfg, const struct hpm_perf_event *pe,
                     const struct hpm_evsel *ev, const struct hpm_pmu *pmu)
{
	if (!pe->extra_modes || cfg->noted)
		return;
	const struct hpm_pmu_model *m = ev->enc.model;
	struct hpm_model_perf_pmu drv;
	char buf[120], mbuf[24];
	str_escape(label(ev), buf, sizeof(buf));
	hpm_pmu_driver(pmu, &drv);
	cfg->noted = true;
	snprintf(cfg->note, sizeof(cfg->note),
	         "'%s' also counts %s (guest modes, which run only inside a KVM guest): %.100s "
	         "cannot exclude them on kernel %.40s",
	         buf, m->modes_str(pe->extra_modes, mbuf, sizeof(mbuf)),
	         m->perf_driver ? m->perf_driver(&drv) : "its driver",
	         pmu->kernel_release[0] ? pmu->kernel_release : "?");
}

/* Some of rows[0..nr_rows) of list (every row when rows is NULL) is an
 * event of a PMU model. */
static bool any_model_event(const struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows)
{
	unsigned n = rows ? nr_rows : list->nr;
	for (unsigned k = 0; k < n; k++)
		if (is_model_event(&list->ev[rows ? rows[k] : k]))
			return true;
	return false;
}

/* What open and dry_run take: host events, and model events unless they
 * are left to the emulator (leave_model without the model's PMU). */
struct takes_ctx {
	const struct hpm_pmu *pmu;
	bool leave_model;
};

static bool takes(const struct hpm_evsel *ev, const void *vctx)
{
	const struct takes_ctx *c = vctx;
	if (is_model_event(ev))
		return !c->leave_model || (c->pmu && c->pmu->present);
	return ev->kind == HPM_EV_HOST;
}

static void copy_to_evsel(struct hpm_evsel *ev, const struct hpm_perf_event *pe)
{
	ev->attr_type = pe->type;
	ev->attr_config = pe->config;
	ev->attr_config1 = pe->config1;
	ev->attr_config2 = pe->config2;
	ev->exclude_user = pe->exclude_user;
	ev->exclude_kernel = pe->exclude_kernel;
	ev->exclude_hv = pe->exclude_hv;
	ev->exclude_host = pe->exclude_host;
	ev->exclude_guest = pe->exclude_guest;
	ev->unit = pe->unit;
	ev->scale = pe->scale;
}

/* The leader of the group of the k-th row the back end took, among those
 * before it (its index j), or -1 (ungrouped, or the first of its group to
 * open). */
static int group_leader(const struct perf_inst *s, unsigned k)
{
	const struct hpm_evsel *ev = row(s, k);
	if (!s->ev[k].in_group)
		return -1;
	for (unsigned j = 0; j < k; j++) {
		const struct hpm_evsel *o = row(s, j);
		if (o->group == ev->group && s->ev[j].leader && o->state != HPM_EV_NOT_SUPPORTED)
			return (int)j;
	}
	return -1;
}

/* Open one evsel at one place. Returns the fd or -errno. */
static int open_one(struct perf_ev *pv, const struct perf_place *pl, int group_fd,
                    const struct hpm_target *t, bool task)
{
	struct perf_event_attr a;
	for (;;) {
		to_attr(&pv->pe, pv->in_group, group_fd < 0, t, task, &a);
		unsigned long flags = PERF_FLAG_FD_CLOEXEC;
		pid_t pid = pl->pid;
		if (pv->cgroup_fd >= 0) {
			/* perf -G: the "pid" is the cgroup's directory */
			pid = pv->cgroup_fd;
			flags |= PERF_FLAG_PID_CGROUP;
		}
		int fd = hpm_perf_event_open(&a, pid, pl->cpu, group_fd, flags);
		if (fd >= 0)
			return fd;
		int e = errno;
		/* perf's evsel__detect_missing_features(): kernels and PMUs
		 * without guest filtering reject exclude_guest; perf then drops
		 * the flag it set by default */
		if (e == EINVAL && !pv->retried && pv->pe.guest_default &&
		    (pv->pe.exclude_guest || pv->pe.exclude_host)) {
			pv->retried = true;
			pv->pe.exclude_guest = pv->pe.exclude_host = false;
			continue;
		}
		return -e;
	}
}

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
static int open_cgroup(const struct hpm_evsel *ev, struct perf_ev *pv, const struct hpm_target *t,
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

/* Closes what the back end opened of every evsel and makes the members of
 * group `group` solo events, for a fresh pass of the open loop. */
static void split_weak_group(struct perf_inst *s, int group)
{
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *ev = row(s, k);
		struct perf_ev *pv = &s->ev[k];
		for (unsigned p = 0; p < s->nr_places; p++) {
			if (pv->fd[p] >= 0)
				close(pv->fd[p]);
			pv->fd[p] = -1;
			pv->id[p] = 0;
		}
		pv->nr_fds = 0;
		pv->decided = false;
		pv->leader = false;
		if (ev->state != HPM_EV_NOT_SUPPORTED || !pv->pe.absent) {
			ev->state = pv->pe.absent ? HPM_EV_NOT_SUPPORTED : HPM_EV_OK;
			pv->err = pv->pe.absent ? ENODEV : 0;
		}
		if (ev->group == group) {
			pv->in_group = false;
			pv->split = true;
		}
	}
}

/* ------------------------------------------------------------ BPF */

/* target->bpf: the counters of the rows are opened once per CPU, and the
 * BPF program of src/bpf charges their deltas to the task switched out at
 * every context switch; the units are then the tasks of its table: the
 * target's (-p: the process's threads, -t: those threads, as perf's
 * --bpf-counters filters by tgid or pid), one unit "task" or one per thread
 * or per process. -a/-C without --per-thread or --per-task count per CPU as
 * without BPF (perf's global and CPU filters are the plain counts). */
static bool bpf_tasks(const struct hpm_target *t)
{
	if (t->bpf == HPM_TARGET_BPF_NO || (t->cpu_list && !t->system_wide))
		return false;
	if (t->system_wide)
		return t->per_thread || t->per_process;
	return t->bpf == HPM_TARGET_BPF_REQUIRE && (t->pid > 0 || t->tid_list);
}

/* The places of a BPF target: every online CPU, one unit "task" until the
 * first read. */
static int bpf_places(struct perf_inst *s, char ***units, unsigned *nr_units, char *err,
                      size_t errlen)
{
	int *cpus = NULL;
	unsigned n = 0;
	int rc = hpm_perf_parse_cpu_list(NULL, NULL, &cpus, &n, err, errlen);
	if (rc)
		return rc;
	s->place = xcalloc(n, sizeof(*s->place));
	for (unsigned i = 0; i < n; i++)
		s->place[i] = (struct perf_place){-1, cpus[i], 0};
	s->nr_places = n;
	free(cpus);
	*units = xcalloc(1, sizeof(**units));
	(*units)[0] = xstrdup("task");
	*nr_units = 1;
	return 0;
}

/* Loads the program over the open per-CPU fds and attaches it. 0, or a
 * negative code with the reason in err. */
static int bpf_attach(struct perf_inst *s, const struct hpm_target *t, char *err, size_t errlen)
{
	int max_cpu = -1;
	for (unsigned p = 0; p < s->nr_places; p++)
		if (s->place[p].cpu > max_cpu)
			max_cpu = s->place[p].cpu;
	int rc = hpm_taskcount_open(&s->tc, s->base.nr_rows ? s->base.nr_rows : 1,
	                            (unsigned)max_cpu + 1, t->bpf_max_tasks);
	for (unsigned k = 0; !rc && k < s->base.nr_rows; k++)
		for (unsigned p = 0; !rc && p < s->nr_places; p++)
			if (s->ev[k].fd[p] >= 0)
				rc = hpm_taskcount_set_fd(s->tc, k, (unsigned)s->place[p].cpu,
				                          s->ev[k].fd[p]);
	if (!rc)
		rc = hpm_taskcount_start(s->tc);
	if (rc) {
		snprintf(err, errlen, "%s", hpm_taskcount_strerror(rc));
		hpm_taskcount_close(s->tc);
		s->tc = NULL;
		return rc;
	}
	if (t->tid_list)
		tid_list_threads(t->tid_list, &s->bpf_tids, &s->nr_bpf_tids, err, errlen);
	else if (!t->system_wide)
		s->bpf_tgid = t->pid;
	s->bpf_per_thread = t->per_thread && !t->per_process;
	s->bpf_per_process = t->per_process;
	return 0;
}

/* The rows counted: -t's threads or -p's process (those that lived at the
 * start: the first owner of each pid, gen 0, not a task the kernel gave
 * the pid to after it), or every task but the idle ones. */
static bool bpf_wanted(const struct perf_inst *s, const struct hpm_tc_task *r)
{
	if (s->bpf_tids) {
		for (unsigned i = 0; i < s->nr_bpf_tids; i++)
			if (s->bpf_tids[i] == r->pid && r->gen == 0)
				return true;
		return false;
	}
	if (s->bpf_tgid > 0)
		return r->tgid == s->bpf_tgid && r->tgid_gen == 0;
	/* the idle tasks (pid 0) are no thread perf would list */
	return r->pid > 0;
}

/* The counts of the rows from the program's table, and its statistics
 * into cfg. */
static int bpf_read(struct perf_inst *s, char *err, size_t errlen)
{
	struct hpm_tc_task *rows = NULL, *procs = NULL;
	unsigned n = 0, np = 0;
	struct hpm_tc_stats st;
	int rc = hpm_taskcount_read(s->tc, &rows, &n, &st);
	if (rc) {
		snprintf(err, errlen, "cannot read the BPF task table: %s",
		         hpm_taskcount_strerror(rc));
		return rc;
	}
	if (s->cfg) {
		s->cfg->bpf_switches = st.switches;
		s->cfg->bpf_missed = st.missed;
		s->cfg->bpf_read_errors = st.read_errors;
		s->cfg->bpf_tasks = st.tasks;
		s->cfg->bpf_max_tasks = st.max_tasks;
	}
	if (s->bpf_per_process) {
		rc = hpm_taskcount_by_process(rows, n, s->base.nr_rows, &procs, &np);
		if (rc) {
			free(rows);
			snprintf(err, errlen, "%s", hpm_taskcount_strerror(rc));
			return rc;
		}
		free(rows);
		rows = procs;
		n = np;
	}
	bool per_unit = s->bpf_per_thread || s->bpf_per_process;
	unsigned nu = 0;
	for (unsigned i = 0; i < n; i++)
		nu += bpf_wanted(s, &rows[i]);
	if (per_unit) {
		char **names = xcalloc(nu ? nu : 1, sizeof(*names));
		unsigned u = 0;
		/* perf's comm-pid; a pid the kernel gave again during the run
		 * (its pids wrapped) names its later owners comm-pid#1, #2... */
		for (unsigned i = 0; i < n; i++) {
			if (!bpf_wanted(s, &rows[i]))
				continue;
			const char *comm = rows[i].comm[0] ? rows[i].comm : "?";
			names[u++] = rows[i].gen
			                 ? xasprintf("%s-%d#%u", comm, rows[i].pid, rows[i].gen)
			                 : xasprintf("%s-%d", comm, rows[i].pid);
		}
		hpm_backend_inst_set_units(&s->base, nu, names);
	}
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *ev = row(s, k);
		if (per_unit) {
			free(ev->counts);
			ev->counts = xcalloc(nu ? nu : 1, sizeof(*ev->counts));
		} else {
			memset(ev->counts, 0, sizeof(*ev->counts));
		}
		unsigned u = 0;
		for (unsigned i = 0; i < n; i++) {
			if (!bpf_wanted(s, &rows[i]))
				continue;
			struct hpm_count *c = &ev->counts[per_unit ? u++ : 0];
			c->val += rows[i].v[k].value;
			c->ena += rows[i].v[k].enabled;
			c->run += rows[i].v[k].running;
		}
		if (ev->state != HPM_EV_OK && ev->state != HPM_EV_NOT_COUNTED)
			continue;
		uint64_t run = 0;
		for (unsigned i = 0; i < (per_unit ? nu : 1); i++)
			run += ev->counts[i].run;
		ev->state = run ? HPM_EV_OK : HPM_EV_NOT_COUNTED;
	}
	free(rows);
	return 0;
}

static int perf_open_target(struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                            const struct hpm_target *t, void *vcfg, struct hpm_backend_inst **out,
                            char *err, size_t errlen);

/* Open, and with target->bpf set what BPF takes: on a failure, --bpf-counters
 * (REQUIRE) fails with the reason; -a --per-thread/--per-task (WANT) count
 * per thread (per process) as without BPF, the reason in cfg->bpf_reason. */
static int perf_open(struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                     const struct hpm_target *t, void *vcfg, struct hpm_backend_inst **out,
                     char *err, size_t errlen)
{
	struct hpm_perf_cfg *cfg = vcfg;
	if (cfg) {
		cfg->bpf_active = false;
		cfg->bpf_reason[0] = '\0';
	}
	struct hpm_target plain = *t;
	plain.bpf = HPM_TARGET_BPF_NO;
	if (t->bpf != HPM_TARGET_BPF_NO) {
		/* whether BPF can load at all, before any counter is opened (perf
		 * loads it first too); -a or -C alone count per CPU as without it,
		 * but --bpf-counters still needs it, as perf loads it for them */
		int rc = hpm_taskcount_probe();
		if (rc < 0 && t->bpf == HPM_TARGET_BPF_REQUIRE) {
			snprintf(err, errlen, "--bpf-counters: cannot use BPF: %s",
			         hpm_taskcount_strerror(rc));
			return rc;
		}
		if (rc < 0 && bpf_tasks(t)) {
			/* built without libbpf: per thread as ever, nothing to say */
			if (cfg && rc != -HPM_TC_ENOTBUILT)
				snprintf(cfg->bpf_reason, sizeof(cfg->bpf_reason), "%s",
				         hpm_taskcount_strerror(rc));
			return perf_open_target(list, rows, nr_rows, &plain, vcfg, out, err,
			                        errlen);
		}
	}
	if (!bpf_tasks(t))
		return perf_open_target(list, rows, nr_rows, t, vcfg, out, err, errlen);
	/* the kernel reads no inherited counter from BPF (perf_event_read_local:
	 * EOPNOTSUPP); per-CPU counters inherit nothing anyway */
	struct hpm_target cpu = *t;
	cpu.inherit = false;
	int rc = perf_open_target(list, rows, nr_rows, &cpu, vcfg, out, err, errlen);
	if (rc != -EAGAIN)
		return rc;
	/* the reason is in err */
	if (t->bpf == HPM_TARGET_BPF_REQUIRE) {
		char why[200];
		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "--bpf-counters: cannot use BPF: %s", why);
		return -EPERM;
	}
	if (cfg)
		snprintf(cfg->bpf_reason, sizeof(cfg->bpf_reason), "%s", err);
	return perf_open_target(list, rows, nr_rows, &plain, vcfg, out, err, errlen);
}

/* One open of the target; -EAGAIN with the reason in err when BPF was
 * wanted and cannot count (nothing is left open then). */
static int perf_open_target(struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                            const struct hpm_target *t, void *vcfg, struct hpm_backend_inst **out,
                            char *err, size_t errlen)
{
	struct hpm_perf_cfg dflt = {0}, *cfg = vcfg ? vcfg : &dflt;
	struct hpm_pmu pmu_buf;
	const struct hpm_pmu *pmu = cfg->pmu;
	int rc;

	cfg->warn = false;
	cfg->warning[0] = '\0';
	cfg->noted = false;
	cfg->note[0] = '\0';
	cfg->nr_opened = 0;
	if (!pmu && any_model_event(list, rows, nr_rows)) {
		if ((rc = hpm_pmu_detect(&pmu_buf, err, errlen)))
			return rc;
		pmu = &pmu_buf;
	}

	struct perf_inst *s = xcalloc(1, sizeof(*s));
	struct takes_ctx tc = {pmu, cfg->leave_model};
	if (hpm_backend_inst_init(&s->base, &hpm_backend_perf, list, rows, nr_rows, takes, &tc)) {
		free(s);
		snprintf(err, errlen, "perf: already open on this event list");
		return -EBUSY;
	}
	s->ev = xcalloc(s->base.nr_rows ? s->base.nr_rows : 1, sizeof(*s->ev));
	for (unsigned k = 0; k < s->base.nr_rows; k++)
		s->ev[k].cgroup_fd = -1;

	/* 1. every attr first, so a refusal happens before anything is opened */
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *ev = row(s, k);
		struct perf_ev *pv = &s->ev[k];
		rc = hpm_perf_event_attr(ev, pmu, &pv->pe, err, errlen);
		if (rc == -ENODEV && pv->pe.absent) {
			/* parsed, but its PMU is not here: a row that says so */
			if (!cfg->warn) {
				cfg->warn = true;
				snprintf(cfg->warning, sizeof(cfg->warning), "%s", err);
			}
			rc = 0;
		}
		if (!rc && ev->cgroup) {
			rc = open_cgroup(ev, pv, t, err, errlen);
			s->has_cgroup = true;
		}
		if (rc)
			goto fail;
		pv->in_group = ev->group >= 0;
		set_warning(cfg, &pv->pe);
		set_note(cfg, &pv->pe, ev, pmu);
	}

	/* 2. where */
	bool task;
	unsigned nr_units = 0;
	char **units = NULL;
	bool bpf = bpf_tasks(t);
	if (bpf) {
		/* perf: "bpf managed perf events do not yet support groups." */
		for (unsigned k = 0; k < s->base.nr_rows; k++)
			if (s->ev[k].in_group) {
				snprintf(err, errlen,
				         "bpf managed perf events do not yet support groups");
				rc = t->bpf == HPM_TARGET_BPF_REQUIRE ? -EINVAL : -EAGAIN;
				goto fail;
			}
		if (s->base.nr_rows > HPM_TC_MAX_EVENTS) {
			snprintf(err, errlen, "%s", hpm_taskcount_strerror(-HPM_TC_ETOOMANY));
			rc = -EAGAIN;
			goto fail;
		}
		task = false;
		rc = bpf_places(s, &units, &nr_units, err, errlen);
	} else {
		rc = make_places(s, t, &units, &nr_units, &task, err, errlen);
	}
	if (rc)
		goto fail;
	hpm_backend_inst_set_units(&s->base, nr_units, units);
	s->enable_on_exec = task && t->enable_on_exec && !t->system_wide;
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *ev = row(s, k);
		struct perf_ev *pv = &s->ev[k];
		pv->fd = xmalloc(s->nr_places * sizeof(*pv->fd));
		pv->id = xcalloc(s->nr_places, sizeof(*pv->id));
		for (unsigned p = 0; p < s->nr_places; p++)
			pv->fd[p] = -1;
		free(ev->counts);
		ev->counts = xcalloc(nr_units, sizeof(*ev->counts));
		ev->state = pv->pe.absent ? HPM_EV_NOT_SUPPORTED : HPM_EV_OK;
		if (pv->pe.absent)
			pv->err = ENODEV;
	}

	/* 3. open, place by place, leaders before their members */
	unsigned live;
reopen:
	live = 0;
	for (unsigned p = 0; p < s->nr_places; p++) {
		bool dead = false;
		for (unsigned k = 0; k < s->base.nr_rows && !dead; k++) {
			struct hpm_evsel *ev = row(s, k);
			struct perf_ev *pv = &s->ev[k];
			if (ev->state == HPM_EV_NOT_SUPPORTED)
				continue;
			int group_fd = -1;
			int lead = group_leader(s, k);
			if (lead >= 0)
				group_fd = s->ev[lead].fd[p];
			if (!pv->decided) {
				/* the first member the kernel takes leads its group */
				pv->leader = lead < 0;
				pv->decided = true;
			}
			int fd = open_one(pv, &s->place[p], pv->leader ? -1 : group_fd, t, task);
			if (fd >= 0) {
				pv->fd[p] = fd;
				pv->nr_fds++;
				if (pv->in_group && ioctl(fd, PERF_EVENT_IOC_ID, &pv->id[p]) < 0) {
					int e = errno;
					snprintf(err, errlen,
					         "cannot count '%s': PERF_EVENT_IOC_ID: %s",
					         label(ev), strerror(e));
					rc = -e;
					goto fail;
				}
				continue;
			}
			int e = -fd;
			copy_to_evsel(ev, &pv->pe);
			if ((e == EINVAL || e == EBADF) && ev->weak_group && pv->in_group &&
			    !pv->leader) {
				/* perf's weak group: it cannot be one, so each alone */
				split_weak_group(s, ev->group);
				goto reopen;
			}
			if (e == EINVAL && pv->pe.sysfs_pmu)
				e = EOPNOTSUPP; /* perf stat: not supported */
			if (e == ESRCH && task && s->nr_places > 1) {
				/* a thread of -p that exited since it was listed:
				 * perf forgets it too */
				for (unsigned j = 0; j < s->base.nr_rows; j++) {
					struct perf_ev *pj = &s->ev[j];
					if (pj->fd[p] >= 0) {
						close(pj->fd[p]);
						pj->fd[p] = -1;
						pj->nr_fds--;
					}
				}
				dead = true;
				continue;
			}
			/* a leader others already joined elsewhere cannot drop out */
			if (errno_not_supported(e) && !(pv->leader && pv->nr_fds > 0)) {
				ev->state = HPM_EV_NOT_SUPPORTED;
				pv->err = e;
				for (unsigned q = 0; q < p; q++)
					if (pv->fd[q] >= 0) {
						close(pv->fd[q]);
						pv->fd[q] = -1;
					}
				pv->nr_fds = 0;
				continue;
			}
			if (e == ESRCH && task && t->pid > 0)
				snprintf(err, errlen, "cannot count '%s': no such process (pid %d)",
				         label(ev), (int)s->place[p].pid);
			else
				hpm_perf_open_strerror(e, ev, t, err, errlen);
			rc = -e;
			goto fail;
		}
		live += !dead;
	}
	if (!live) {
		snprintf(err, errlen, "no such process: %d (its threads are gone)", t->pid);
		rc = -ESRCH;
		goto fail;
	}

	if (bpf && (rc = bpf_attach(s, t, err, errlen))) {
		rc = -EAGAIN;
		goto fail;
	}
	s->cfg = vcfg;
	if (s->cfg)
		s->cfg->bpf_active = s->tc != NULL;

	/* 4. describe */
	char where[160];
	if (bpf) {
		snprintf(where, sizeof(where), "the %u CPUs, charged to tasks by BPF",
		         s->nr_places);
	} else if (task) {
		if (t->tid_list)
			snprintf(where, sizeof(where), "thread%s %.100s",
			         strchr(t->tid_list, ',') ? "s" : "", t->tid_list);
		else if (t->per_thread && t->system_wide)
			snprintf(where, sizeof(where), "the %u threads of the system",
			         s->nr_places);
		else if (t->pid > 0)
			snprintf(where, sizeof(where), "pid %d", t->pid);
		else
			snprintf(where, sizeof(where), "this process");
	} else {
		int *c = xmalloc(s->nr_places * sizeof(*c));
		for (unsigned p = 0; p < s->nr_places; p++)
			c[p] = s->place[p].cpu;
		char cl[128];
		format_cpus(c, s->nr_places, cl, sizeof(cl));
		snprintf(where, sizeof(where), "CPU%s %s", s->nr_places > 1 ? "s" : "", cl);
		free(c);
	}
	size_t words = 3;
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *ev = row(s, k);
		struct perf_ev *pv = &s->ev[k];
		const char *leader_name = "";
		copy_to_evsel(ev, &pv->pe);
		int lead = pv->leader ? -1 : group_leader(s, k);
		if (lead >= 0) {
			const struct hpm_evsel *l = row(s, (unsigned)lead);
			leader_name = l->name ? l->name : label(l);
		}
		describe(ev, pv, s, where, leader_name);
		words += 2;
	}
	s->buf_words = words;
	s->buf = xcalloc(words, sizeof(*s->buf));
	cfg->nr_opened = s->base.nr_rows;
	*out = &s->base;
	return 0;

fail:
	perf_inst_free(s);
	return rc < 0 ? rc : -EINVAL;
}

static int for_leaders(struct perf_inst *s, unsigned long req, const char *what, char *err,
                       size_t errlen)
{
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *ev = row(s, k);
		struct perf_ev *pv = &s->ev[k];
		if (!pv->leader || ev->state == HPM_EV_NOT_SUPPORTED)
			continue;
		for (unsigned p = 0; p < s->nr_places; p++)
			if (pv->fd[p] >= 0 && ioctl(pv->fd[p], req, 0) < 0) {
				snprintf(err, errlen, "cannot %s '%s': %s", what, label(ev),
				         strerror(errno));
				return -errno;
			}
	}
	return 0;
}

static int perf_enable(struct hpm_backend_inst *b, char *err, size_t errlen)
{
	struct perf_inst *s = perf_of(b);
	if (!s)
		return 0;
	if (s->enable_on_exec && !s->enabled) {
		/* the kernel enables the counters at exec; enabling now would
		 * count the fork-to-exec part */
		s->enabled = true;
		return 0;
	}
	s->enabled = true;
	return for_leaders(s, PERF_EVENT_IOC_ENABLE, "enable", err, errlen);
}

static int perf_disable(struct hpm_backend_inst *b, char *err, size_t errlen)
{
	struct perf_inst *s = perf_of(b);
	if (!s)
		return 0;
	s->enabled = true;
	return for_leaders(s, PERF_EVENT_IOC_DISABLE, "disable", err, errlen);
}

static int read_words(int fd, uint64_t *buf, size_t words, const char *name, char *err,
                      size_t errlen)
{
	ssize_t n = read(fd, buf, words * sizeof(*buf));
	if (n < 0) {
		int e = errno;
		snprintf(err, errlen, "cannot read '%s': %s", name, strerror(e));
		return -e;
	}
	if (n < (ssize_t)(3 * sizeof(*buf))) {
		snprintf(err, errlen, "cannot read '%s': short read (%zd bytes)", name, n);
		return -EIO;
	}
	return 0;
}

/* A disabled cgroup event's times are computed on the reading CPU from that
 * CPU's cgroup clock: read it from its own CPU, as perf reads with
 * affinity (else enabled/running come out as another CPU's). */
static void read_on_cpu(int cpu)
{
	cpu_set_t one;
	if (cpu < 0)
		return;
	CPU_ZERO(&one);
	CPU_SET((unsigned)cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
}

static int perf_read(struct hpm_backend_inst *b, char *err, size_t errlen)
{
	struct perf_inst *s = perf_of(b);
	int rc;
	if (!s)
		return 0;
	if (s->tc)
		return bpf_read(s, err, errlen);
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *ev = row(s, k);
		memset(ev->counts, 0, s->base.nr_units * sizeof(*ev->counts));
	}
	cpu_set_t saved;
	bool pinned = s->has_cgroup && sched_getaffinity(0, sizeof(saved), &saved) == 0;
	for (unsigned p = 0; p < s->nr_places; p++) {
		unsigned unit = s->place[p].unit;
		if (pinned)
			read_on_cpu(s->place[p].cpu);
		for (unsigned k = 0; k < s->base.nr_rows; k++) {
			struct hpm_evsel *ev = row(s, k);
			struct perf_ev *pv = &s->ev[k];
			if (pv->fd[p] < 0 || ev->state == HPM_EV_NOT_SUPPORTED)
				continue;
			if (!pv->in_group) {
				uint64_t v[3];
				if ((rc = read_words(pv->fd[p], v, 3, label(ev), err, errlen)))
					goto out;
				ev->counts[unit].val += v[0];
				ev->counts[unit].ena += v[1];
				ev->counts[unit].run += v[2];
				continue;
			}
			if (!pv->leader)
				continue;
			/* { nr, time_enabled, time_running, { value, id } x nr } */
			uint64_t *gb = s->buf;
			if ((rc = read_words(pv->fd[p], gb, s->buf_words, label(ev), err, errlen)))
				goto out;
			uint64_t nr = gb[0];
			if (nr > (s->buf_words - 3) / 2)
				nr = (s->buf_words - 3) / 2;
			for (uint64_t i = 0; i < nr; i++) {
				uint64_t val = gb[3 + 2 * i], id = gb[4 + 2 * i];
				for (unsigned j = 0; j < s->base.nr_rows; j++) {
					struct hpm_evsel *m = row(s, j);
					struct perf_ev *pm = &s->ev[j];
					if (m->group != ev->group || pm->fd[p] < 0 ||
					    pm->id[p] != id)
						continue;
					m->counts[unit].val += val;
					m->counts[unit].ena += gb[1];
					m->counts[unit].run += gb[2];
					break;
				}
			}
		}
	}
	for (unsigned k = 0; k < s->base.nr_rows; k++) {
		struct hpm_evsel *ev = row(s, k);
		if (ev->state != HPM_EV_OK && ev->state != HPM_EV_NOT_COUNTED)
			continue;
		uint64_t run = 0;
		for (unsigned u = 0; u < s->base.nr_units; u++)
			run += ev->counts[u].run;
		ev->state = run ? HPM_EV_OK : HPM_EV_NOT_COUNTED;
	}
	rc = 0;
out:
	if (pinned)
		sched_setaffinity(0, sizeof(saved), &saved);
	return rc;
}

static void perf_close(struct hpm_backend_inst *b)
{
	struct perf_inst *s = perf_of(b);
	if (s)
		perf_inst_free(s);
}

static int perf_dry_run(const struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                        const struct hpm_target *t, void *vcfg, FILE *out, char *err, size_t errlen)
{
	struct hpm_perf_cfg dflt = {0}, *cfg = vcfg ? vcfg : &dflt;
	struct hpm_pmu pmu_buf;
	const struct hpm_pmu *pmu = cfg->pmu;
	int rc;

	cfg->warn = false;
	cfg->warning[0] = '\0';
	cfg->noted = false;
	cfg->note[0] = '\0';
	cfg->nr_opened = 0;
	if (!pmu && any_model_event(list, rows, nr_rows)) {
		if ((rc = hpm_pmu_detect(&pmu_buf, err, errlen)))
			return rc;
		pmu = &pmu_buf;
	}
	if (t && cpu_target(t)) {
		int *cpus;
		unsigned n;
		if ((rc = hpm_perf_parse_cpu_list(t->cpu_list, NULL, &cpus, &n, err, errlen)))
			return rc;
		free(cpus);
	}
	struct takes_ctx tc = {pmu, cfg->leave_model};
	unsigned *mine;
	unsigned nr = hpm_evlist_select(list, rows, nr_rows, takes, &tc, &mine);
	for (unsigned k = 0; k < nr; k++) {
		const struct hpm_evsel *ev = &list->ev[mine[k]];
		struct hpm_perf_event pe;
		rc = hpm_perf_event_attr(ev, pmu, &pe, err, errlen);
		if (rc == -ENODEV && pe.absent) {
			fprintf(out, "%s: not supported: %s\n", ev->name ? ev->name : label(ev),
			        err);
			continue;
		}
		if (rc) {
			free(mine);
			return rc;
		}
		set_warning(cfg, &pe);
		set_note(cfg, &pe, ev, pmu);
		cfg->nr_opened++;
		fprintf(out,
		        "%s: perf_event_attr type=%u config=0x%llx config1=0x%llx config2=0x%llx "
		        "exclude_user=%d exclude_kernel=%d exclude_hv=%d exclude_host=%d "
		        "exclude_guest=%d\n",
		        ev->name ? ev->name : label(ev), pe.type, (unsigned long long)pe.config,
		        (unsigned long long)pe.config1, (unsigned long long)pe.config2,
		        pe.exclude_user, pe.exclude_kernel, pe.exclude_hv, pe.exclude_host,
		        pe.exclude_guest);
		if (ev->cgroup)
			fprintf(out, "%s: cgroup %s (PERF_FLAG_PID_CGROUP)\n",
			        ev->name ? ev->name : label(ev), ev->cgroup);
	}
	free(mine);
	return 0;
}

const struct hpm_backend hpm_backend_perf = {
    .name = "perf",
    .open = perf_open,
    .enable = perf_enable,
    .disable = perf_disable,
    .read = perf_read,
    .advance = NULL,
    .dry_run = perf_dry_run,
    .close = perf_close,
};
