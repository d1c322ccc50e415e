/* taskcount.c: the loader of taskcount.bpf.c (see taskcount.h). */
#include "bpf/taskcount.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/str.h"

#ifdef HAVE_LIBBPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/taskcount-maps.h"
#include "util/dlib.h"
/* the skeleton bpftool generated (in the build directory): its embedded
 * object and inline functions are not ours to keep warning-free */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wmissing-declarations"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "bpf/taskcount.skel.h"
#pragma GCC diagnostic pop

_Static_assert(TC_MAX_EVENTS == HPM_TC_MAX_EVENTS, "taskcount-maps.h and taskcount.h disagree");
#endif

static const char *const reasons[] = {
    [HPM_TC_ENOTBUILT - HPM_TC_EBASE] = "hpmstat was built without libbpf",
    [HPM_TC_ENOPERM - HPM_TC_EBASE] = "loading BPF needs root or CAP_BPF and CAP_PERFMON",
    [HPM_TC_ENOBPF - HPM_TC_EBASE] = "the kernel has no BPF (bpf() not implemented)",
    [HPM_TC_ENOTP - HPM_TC_EBASE] = "the kernel has no raw tracepoint sched_switch",
    [HPM_TC_ELOAD - HPM_TC_EBASE] = "the kernel's BPF verifier refused the per-task program",
    [HPM_TC_ENOSYNC - HPM_TC_EBASE] =
        ("the kernel cannot run the per-task program on demand (BPF_PROG_TEST_RUN: Linux 5.10 "
         "and CONFIG_NET)"),
    [HPM_TC_ETOOMANY - HPM_TC_EBASE] = "more events or CPUs than the per-task program reads",
#if defined(HAVE_LIBBPF) && defined(HPM_DLOPEN)
    [HPM_TC_ENOLIB - HPM_TC_EBASE] =
        LIBBPF_SONAME " is not installed (Debian package " LIBBPF_PACKAGE ")",
#else
    [HPM_TC_ENOLIB - HPM_TC_EBASE] = "libbpf is not installed",
#endif
    [HPM_TC_EHOTPLUG - HPM_TC_EBASE] =
        "the CPUs online changed during the run (hotplug), which stops their counters",
};

const char *hpm_taskcount_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= HPM_TC_EBASE && err < HPM_TC_EMAX)
		return reasons[err - HPM_TC_EBASE];
	return strerror(err);
}

#ifdef HAVE_LIBBPF
/* Capability bits of CapEff in /proc/self/status (linux/capability.h). */
#define CAP_PERFMON_BIT 38
#define CAP_BPF_BIT     39

static int have_caps(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return 0;
	char line[256];
	unsigned long long eff = 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	unsigned long long need = (1ULL << CAP_PERFMON_BIT) | (1ULL << CAP_BPF_BIT);
	return (eff & need) == need;
}
#endif

int hpm_taskcount_max_tasks_env(unsigned *out, char *err, size_t errlen)
{
	const char *v = getenv("HPMSTAT_BPF_MAX_TASKS");
	uint64_t n = 0;
	*out = 0;
	if (!v || !*v)
		return 0;
	if (str_parse_u64(v, &n, NULL, 0) != STR_PARSE_OK || n < 1 || n > HPM_TC_MAX_TASKS) {
		char shown[64];
		snprintf(err, errlen, "HPMSTAT_BPF_MAX_TASKS '%s': must be 1 to %u",
		         str_escape(v, shown, sizeof(shown)), HPM_TC_MAX_TASKS);
		return -1;
	}
	*out = (unsigned)n;
	return 0;
}

int hpm_taskcount_probe(void)
{
#ifndef HAVE_LIBBPF
	return -HPM_TC_ENOTBUILT;
#else
	/* libbpf is opened here, the first time per-task counting is asked for */
	if (hpm_dl_bpf_load(NULL, 0))
		return -HPM_TC_ENOLIB;
	if (geteuid() != 0 && !have_caps())
		return -HPM_TC_ENOPERM;
	/* an invalid command: EINVAL from a kernel with bpf(), ENOSYS without */
	if (syscall(__NR_bpf, -1, NULL, 0) < 0 && errno == ENOSYS)
		return -HPM_TC_ENOBPF;
	return 0;
#endif
}

int hpm_taskcount_cmp_process(const struct hpm_tc_task *x, const struct hpm_tc_task *y)
{
	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	if (x->tgid_gen != y->tgid_gen)
		return x->tgid_gen < y->tgid_gen ? -1 : 1;
	return 0;
}

static int by_tgid(const void *a, const void *b)
{
	const struct hpm_tc_task *x = a, *y = b;
	int c = hpm_taskcount_cmp_process(x, y);
	if (c)
		return c;
	/* the main thread (pid == tgid, of that incarnation) first: it names
	 * the process */
	bool xm = x->pid == x->tgid && x->gen == x->tgid_gen;
	bool ym = y->pid == y->tgid && y->gen == y->tgid_gen;
	return (int)ym - (int)xm;
}

#ifndef HAVE_LIBBPF

int hpm_taskcount_open(struct hpm_taskcount **out, unsigned nr_events, unsigned nr_cpus,
                       unsigned max_tasks)
{
	(void)nr_events, (void)nr_cpus, (void)max_tasks;
	*out = NULL;
	return -HPM_TC_ENOTBUILT;
}
int hpm_taskcount_set_fd(struct hpm_taskcount *tc, unsigned event, unsigned cpu, int fd)
{
	(void)tc, (void)event, (void)cpu, (void)fd;
	return -HPM_TC_ENOTBUILT;
}
int hpm_taskcount_start(struct hpm_taskcount *tc)
{
	(void)tc;
	return -HPM_TC_ENOTBUILT;
}
int hpm_taskcount_read(struct hpm_taskcount *tc, struct hpm_tc_task **rows, unsigned *nrows,
                       struct hpm_tc_stats *st)
{
	(void)tc, (void)st;
	*rows = NULL;
	*nrows = 0;
	return -HPM_TC_ENOTBUILT;
}
int hpm_taskcount_forget_exited(struct hpm_taskcount *tc)
{
	(void)tc;
	return -HPM_TC_ENOTBUILT;
}
void hpm_taskcount_close(struct hpm_taskcount *tc)
{
	(void)tc;
}
int hpm_taskcount_prog_stats(struct hpm_taskcount *tc, uint64_t *run_ns, uint64_t *run_cnt)
{
	(void)tc, (void)run_ns, (void)run_cnt;
	return -HPM_TC_ENOTBUILT;
}

#else

struct hpm_taskcount {
	struct taskcount_bpf *skel;
	unsigned nr_events, nr_cpus, max_tasks;
	int started;
	bool no_batch; /* the kernel has no BPF_MAP_LOOKUP_BATCH: walk the keys */
	/* tids the last read saw after their last switch (max_tasks room),
	 * which forget_exited removes without walking the map again */
	unsigned long long *dead; /* task map keys (TC_KEY) */
	unsigned ndead;
	bool dead_fresh;            /* dead[] is from a read since the last forget */
	char online[256];           /* the CPUs online at start (sysfs's list) */
	unsigned long long hotplug; /* hotplug steps the program saw (read_stats) */
	struct bpf_link *cpuhp;     /* the cpuhp_enter program's link, NULL: none */
};

/* The kernel's list of online CPUs ("0-1\n"), "" when unreadable. */
static void read_online(char *buf, size_t len)
{
	buf[0] = 0;
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	fclose(f);
}

/* The library never prints: libbpf's messages are dropped (the caller
 * gets the error code and its reason). */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

/* Why loading failed, from libbpf's errno. */
static int load_error(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case EPERM:
	case EACCES:
		return geteuid() != 0 && !have_caps() ? -HPM_TC_ENOPERM : -HPM_TC_ELOAD;
	case ENOSYS:
		return -HPM_TC_ENOBPF;
	case EINVAL:
	case E2BIG:
		return -HPM_TC_ELOAD;
	default:
		return -err;
	}
}

int hpm_taskcount_open(struct hpm_taskcount **out, unsigned nr_events, unsigned nr_cpus,
                       unsigned max_tasks)
{
	*out = NULL;
	if (nr_events == 0 || nr_cpus == 0)
		return -EINVAL;
	if (nr_events > HPM_TC_MAX_EVENTS || nr_cpus > HPM_TC_MAX_CPUS)
		return -HPM_TC_ETOOMANY;
	int rc = hpm_taskcount_probe();
	if (rc < 0)
		return rc;
	libbpf_set_print(quiet);
	struct hpm_taskcount *tc = calloc(1, sizeof(*tc));
	if (!tc)
		return -ENOMEM;
	tc->nr_events = nr_events;
	tc->nr_cpus = nr_cpus;
	tc->max_tasks = max_tasks ? max_tasks : HPM_TC_DEF_TASKS;
	tc->dead = malloc(tc->max_tasks * sizeof(*tc->dead));
	if (!tc->dead) {
		free(tc);
		return -ENOMEM;
	}
	tc->skel = taskcount_bpf__open();
	if (!tc->skel) {
		rc = load_error(errno);
		goto fail;
	}
	if ((rc = bpf_map__set_max_entries(tc->skel->maps.counters, nr_events * nr_cpus)) < 0 ||
	    (rc = bpf_map__set_max_entries(tc->skel->maps.tasks, tc->max_tasks)) < 0 ||
	    (rc = bpf_map__set_max_entries(tc->skel->maps.gens, tc->max_tasks)) < 0 ||
	    (rc = bpf_map__set_max_entries(tc->skel->maps.bytask, tc->max_tasks)) < 0)
		goto fail;
	/* attached by hand in start (see there) */
	bpf_program__set_autoattach(tc->skel->progs.tc_cpuhp, false);
	if ((rc = taskcount_bpf__load(tc->skel)) < 0) {
		rc = load_error(rc);
		goto fail;
	}
	struct tc_config cfg = {nr_events, nr_cpus, 0, 0};
	unsigned zero = 0;
	if ((rc = bpf_map__update_elem(tc->skel->maps.config, &zero, sizeof(zero), &cfg,
	                               sizeof(cfg), BPF_ANY)) < 0)
		goto fail;
	*out = tc;
	return 0;
fail:
	hpm_taskcount_close(tc);
	return rc;
}

int hpm_taskcount_set_fd(struct hpm_taskcount *tc, unsigned event, unsigned cpu, int fd)
{
	if (event >= tc->nr_events || cpu >= tc->nr_cpus || fd < 0)
		return -EINVAL;
	unsigned key = event * tc->nr_cpus + cpu;
	int rc = bpf_map__update_elem(tc->skel->maps.counters, &key, sizeof(key), &fd, sizeof(fd),
	                              BPF_ANY);
	return rc < 0 ? rc : 0;
}

/* Runs the program on every CPU (BPF_PROG_TEST_RUN with
 * BPF_F_TEST_RUN_ON_CPU): it charges the task running there what it
 * counted since that CPU's last switch, so a task that runs without
 * switching (a pinned busy loop) is counted up to now, and the first run
 * takes each CPU's baseline. Offline CPUs fail (ENXIO) and are skipped.
 * Returns 0 when some CPU ran it, else the first other error: a kernel
 * without BPF_PROG_TEST_RUN for raw tracepoints (before 5.10, or without
 * CONFIG_NET, where net/bpf/test_run.c lives). */
static int sync_cpus(struct hpm_taskcount *tc)
{
	uint64_t args[1] = {TC_SYNC_MAGIC};
	int fd = bpf_program__fd(tc->skel->progs.tc_switch), err = 0;
	bool ran = false;
	for (unsigned c = 0; c < tc->nr_cpus; c++) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = args, .ctx_size_in = sizeof(args),
		            .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = c);
		int rc = bpf_prog_test_run_opts(fd, &o);
		if (rc == 0)
			ran = true;
		else if (rc != -ENXIO && !err)
			err = rc;
	}
	return ran ? 0 : err;
}

int hpm_taskcount_start(struct hpm_taskcount *tc)
{
	if (tc->started)
		return 0;
	int rc = taskcount_bpf__attach(tc->skel);
	/* the hotplug tracepoint is attached apart: a kernel without it still
	 * counts, and the CPUs online are compared at each read instead */
	tc->cpuhp = bpf_program__attach(tc->skel->progs.tc_cpuhp);
	if (rc < 0)
		return rc == -ENOENT ? -HPM_TC_ENOTP : load_error(rc);
	read_online(tc->online, sizeof(tc->online));
	/* without it a task that never switches out (a pinned loop) would be
	 * charged nothing until it does: refuse rather than count late */
	if (sync_cpus(tc) < 0) {
		bpf_link__destroy(tc->cpuhp);
		tc->cpuhp = NULL;
		taskcount_bpf__detach(tc->skel);
		return -HPM_TC_ENOSYNC;
	}
	tc->started = 1;
	return 0;
}

static void read_stats(struct hpm_taskcount *tc, struct hpm_tc_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->max_tasks = tc->max_tasks;
	tc->hotplug = 0;
	int n = libbpf_num_possible_cpus();
	if (n <= 0)
		return;
	struct tc_stats *per = calloc((size_t)n, sizeof(*per));
	if (!per)
		return;
	unsigned key = 0;
	if (bpf_map__lookup_elem(tc->skel->maps.stats, &key, sizeof(key), per,
	                         (size_t)n * sizeof(*per), 0) == 0)
		for (int i = 0; i < n; i++) {
			st->switches += per[i].switches;
			st->missed += per[i].missed;
			st->read_errors += per[i].read_errors;
			tc->hotplug += per[i].hotplug;
		}
	free(per);
}

/* The rows of a read, grown as the map is read: a map sized for many
 * tasks usually holds a few hundred. */
struct rowbuf {
	struct hpm_tc_task *r;
	unsigned n, cap;
};

/* One task map entry into a new row; false when out of memory or past
 * max_tasks. */
static bool to_row(const struct hpm_taskcount *tc, unsigned long long key, const struct tc_task *t,
                   struct rowbuf *b)
{
	if (b->n >= tc->max_tasks)
		return false;
	if (b->n == b->cap) {
		unsigned cap = b->cap ? b->cap * 2 : 256;
		struct hpm_tc_task *r = realloc(b->r, (size_t)cap * sizeof(*r));
		if (!r)
			return false;
		b->r = r;
		b->cap = cap;
	}
	struct hpm_tc_task *o = &b->r[b->n++];
	memset(o, 0, sizeof(*o));
	o->pid = (int)TC_KEY_TID(key);
	o->gen = TC_KEY_GEN(key);
	o->tgid = (int)t->tgid;
	o->tgid_gen = t->tgid_gen;
	memcpy(o->comm, t->comm, sizeof(o->comm));
	o->comm[sizeof(o->comm) - 1] = 0;
	o->exited = t->exited != TC_LIVE;
	for (unsigned e = 0; e < tc->nr_events; e++)
		o->v[e] = (struct hpm_tc_value){t->v[e].value, t->v[e].enabled, t->v[e].running};
	return true;
}

/* Remembers a task seen after its last switch, for forget_exited. */
static void note_dead(struct hpm_taskcount *tc, unsigned long long key)
{
	if (tc->ndead < tc->max_tasks)
		tc->dead[tc->ndead++] = key;
}

/* The task map, whole, by BPF_MAP_LOOKUP_BATCH: a few hundred entries a
 * system call (a walk with get_next_key and one lookup per task costs two
 * system calls a task, most of a frame on a machine that starts and ends
 * many processes). -EOPNOTSUPP when the kernel has no batch operations
 * (before 5.6). */
#define TC_BATCH 256
static int read_batched(struct hpm_taskcount *tc, struct rowbuf *b)
{
	int fd = bpf_map__fd(tc->skel->maps.tasks);
	unsigned long long keys[TC_BATCH];
	struct tc_task *vals = malloc(TC_BATCH * sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	unsigned long long token = 0;
	bool first = true;
	for (;;) {
		__u32 count = TC_BATCH;
		LIBBPF_OPTS(bpf_map_batch_opts, opts);
		int rc = bpf_map_lookup_batch(fd, first ? NULL : &token, &token, keys, vals, &count,
		                              &opts);
		int err = rc < 0 ? errno : 0;
		first = false;
		/* ENOENT ends the walk; its batch may still hold entries */
		for (unsigned i = 0; i < count; i++) {
			if (!to_row(tc, keys[i], &vals[i], b))
				break;
			if (vals[i].exited == TC_FREED)
				note_dead(tc, keys[i]);
		}
		if (rc < 0) {
			free(vals);
			if (err == ENOENT)
				return 0;
			return err == EINVAL || err == ENOTSUP || err == EOPNOTSUPP ? -EOPNOTSUPP
			                                                            : -err;
		}
	}
}

/* The same by walking the keys (kernels without batch operations). A key
 * deleted under the walk restarts it from the first, which only costs
 * time; the rows are bounded by max_tasks. */
static int read_walked(struct hpm_taskcount *tc, struct rowbuf *b)
{
	int fd = bpf_map__fd(tc->skel->maps.tasks);
	unsigned long long cur, next;
	const void *prev = NULL;
	while (b->n < tc->max_tasks && bpf_map_get_next_key(fd, prev, &next) == 0) {
		struct tc_task t;
		cur = next;
		prev = &cur;
		if (bpf_map_lookup_elem(fd, &cur, &t) < 0)
			continue; /* deleted meanwhile */
		if (!to_row(tc, cur, &t, b))
			return -ENOMEM;
		if (t.exited == TC_FREED)
			note_dead(tc, cur);
	}
	return 0;
}

/* The whole map into *rows (malloc'ed), the dead among them noted.
 * Returns the number of rows. */
static int read_map(struct hpm_taskcount *tc, struct hpm_tc_task **rows)
{
	struct rowbuf b = {0};
	tc->ndead = 0;
	int rc = tc->no_batch ? -EOPNOTSUPP : read_batched(tc, &b);
	if (rc == -EOPNOTSUPP) {
		tc->no_batch = true;
		tc->ndead = 0;
		b.n = 0;
		rc = read_walked(tc, &b);
	}
	if (rc < 0) {
		free(b.r);
		return rc;
	}
	tc->dead_fresh = true;
	*rows = b.r ? b.r : calloc(1, sizeof(**rows));
	if (!*rows)
		return -ENOMEM;
	return (int)b.n;
}

int hpm_taskcount_read(struct hpm_taskcount *tc, struct hpm_tc_task **rows, unsigned *nrows,
                       struct hpm_tc_stats *st)
{
	*rows = NULL;
	*nrows = 0;
	if (tc->started) {
		char now[sizeof(tc->online)];
		read_online(now, sizeof(now));
		struct hpm_tc_stats hs;
		read_stats(tc, &hs);
		if (strcmp(now, tc->online) != 0 || tc->hotplug)
			return -HPM_TC_EHOTPLUG;
		sync_cpus(tc);
	}
	struct hpm_tc_task *r;
	int n = read_map(tc, &r);
	if (n < 0)
		return n;
	if (st) {
		read_stats(tc, st);
		st->tasks = (unsigned)n;
	}
	*rows = r;
	*nrows = (unsigned)n;
	return 0;
}

int hpm_taskcount_forget_exited(struct hpm_taskcount *tc)
{
	/* the dead the last read saw; without a read since the last forget,
	 * a read of its own finds them */
	if (!tc->dead_fresh) {
		struct hpm_tc_task *r;
		int n = read_map(tc, &r);
		if (n < 0)
			return n;
		free(r);
	}
	int fd = bpf_map__fd(tc->skel->maps.tasks);
	int removed = 0;
	/* only once the kernel freed the task (TC_FREED), after its last
	 * switch: an entry removed before that would be made again, live, by
	 * a switch still to come (a task may switch more than once on its way
	 * out). A freed task's entry is never written again: a new owner of
	 * its tid makes an entry of the next gen. */
	for (unsigned i = 0; i < tc->ndead; i++)
		if (bpf_map_delete_elem(fd, &tc->dead[i]) == 0)
			removed++;
	tc->ndead = 0;
	tc->dead_fresh = false;
	return removed;
}

int hpm_taskcount_prog_stats(struct hpm_taskcount *tc, uint64_t *run_ns, uint64_t *run_cnt)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);
	memset(&info, 0, sizeof(info));
	int rc = bpf_obj_get_info_by_fd(bpf_program__fd(tc->skel->progs.tc_switch), &info, &len);
	if (rc < 0)
		return rc;
	*run_ns = info.run_time_ns;
	*run_cnt = info.run_cnt;
	return 0;
}

void hpm_taskcount_close(struct hpm_taskcount *tc)
{
	if (!tc)
		return;
	bpf_link__destroy(tc->cpuhp);
	taskcount_bpf__destroy(tc->skel);
	free(tc->dead);
	free(tc);
}

#endif

int hpm_taskcount_by_process(const struct hpm_tc_task *rows, unsigned nrows, unsigned nr_events,
                             struct hpm_tc_task **procs, unsigned *nprocs)
{
	*procs = NULL;
	*nprocs = 0;
	if (nr_events > HPM_TC_MAX_EVENTS)
		return -HPM_TC_ETOOMANY;
	struct hpm_tc_task *s = malloc((nrows ? nrows : 1) * sizeof(*s));
	struct hpm_tc_task *p = calloc(nrows ? nrows : 1, sizeof(*p));
	if (!s || !p) {
		free(s);
		free(p);
		return -ENOMEM;
	}
	if (nrows)
		memcpy(s, rows, nrows * sizeof(*s));
	qsort(s, nrows, sizeof(*s), by_tgid);
	unsigned n = 0;
	for (unsigned i = 0; i < nrows; i++) {
		struct hpm_tc_task *o;
		if (n == 0 || hpm_taskcount_cmp_process(&p[n - 1], &s[i]) != 0) {
			o = &p[n++];
			o->pid = o->tgid = s[i].tgid;
			o->gen = o->tgid_gen = s[i].tgid_gen;
			memcpy(o->comm, s[i].comm, sizeof(o->comm));
			o->exited = true;
		} else
			o = &p[n - 1];
		/* a process has exited when all its threads have */
		o->exited = o->exited && s[i].exited;
		for (unsigned e = 0; e < nr_events; e++) {
			o->v[e].value += s[i].v[e].value;
			o->v[e].enabled += s[i].v[e].enabled;
			o->v[e].running += s[i].v[e].running;
		}
	}
	free(s);
	*procs = p;
	*nprocs = n;
	return 0;
}
