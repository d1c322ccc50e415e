/* tasks.c: see tasks.h. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "backend/host-pmu.h"
#include "backend/perf.h"
#include "bpf/taskcount.h"
#include "top/procs.h"
#include "top/tasks.h"
#include "util/clock.h"
#include "util/xalloc.h"

enum src { SRC_NONE, SRC_BPF, SRC_GROUPS, SRC_EMU };

#define HOST_PROCS_S 10.0 /* the host's process count is refreshed that often */

/* The per-task software columns (enum top_pcol PC_TASK.. order), opened
 * per CPU here for BPF: cpu-clock gives %CPU and TASK-MS (the time each
 * task ran on the CPU between its switches), context-switches and
 * page-faults the others. Events 0..NR_SW-1 of the program. */
enum { SW_CLOCK, SW_CSW, SW_FAULTS, NR_SW };
static const uint64_t sw_config[NR_SW] = {PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES,
                                          PERF_COUNT_SW_PAGE_FAULTS};

/* a thread's cumulative counts at the previous frame */
struct prev {
	int pid;
	unsigned gen;           /* which owner of the pid (hpm_tc_task) */
	bool exited;            /* shown as exited already */
	struct hpm_tc_value *v; /* [nr_events], in prev_v */
};

struct top_tasks {
	enum src src;
	char line[sizeof(((struct top_frame *)0)->tasks)]; /* the frame's task line */
	/* BPF */
	struct hpm_taskcount *tc;
	unsigned nr_events;            /* handed to the program */
	int ev_row[HPM_TC_MAX_EVENTS]; /* session row of event k; -1: one of ours */
	int *cpus;                     /* the CPUs counted */
	unsigned nr_cpus;
	int *own;                    /* [NR_SW * nr_cpus] our software counters */
	struct prev *prev;           /* sorted by pid */
	struct hpm_tc_value *prev_v; /* their counts */
	unsigned nr_prev;
	double procs_at; /* when the host's processes were counted */
	unsigned nr_host_procs;
	/* the emulator's tasks (in the order hpm_emu_tasks gives them) at the
	 * previous frame: [nr_emu x nr_emu_rows] counts, [nr_emu] cycles */
	unsigned nr_emu, nr_emu_rows;
	struct hpm_count *emu_att;
	uint64_t *emu_truth, *emu_cycles;
	bool *emu_shown_exit;
	struct top_proc *gone; /* --sticky: exited rows, values '-' */
	unsigned nr_gone;
	/* --sticky with BPF: the processes the previous frame listed, sorted;
	 * one that exits is kept although its last interval is too short to
	 * rank among the busiest */
	int *listed;
	unsigned nr_listed;
};

struct top_tasks *top_tasks_new(void)
{
	struct top_tasks *t = xcalloc(1, sizeof(*t));
	return t;
}

/* why BPF is not used for m, or NULL when it may be tried */
static const char *bpf_refused(const struct top_model *m, int *code)
{
	*code = 0;
	if (m->emu)
		return "the emulator";
	if (m->o->no_bpf)
		return "--no-bpf";
	/* as stat's: benchmarks and tests turn it off without an option */
	const char *env = getenv("HPMSTAT_NO_BPF");
	if (env && *env && strcmp(env, "0"))
		return "HPMSTAT_NO_BPF is set";
	if (m->o->pid > 0)
		return "-p counts one process";
	int rc = hpm_taskcount_probe();
	if (rc < 0) {
		*code = rc;
		return hpm_taskcount_strerror(-rc);
	}
	return NULL;
}

bool top_tasks_want_bpf(const struct top_tasks *t, const struct top_model *m)
{
	int code;
	(void)t;
	return !bpf_refused(m, &code);
}

void top_tasks_detach(struct top_tasks *t)
{
	if (t->tc)
		hpm_taskcount_close(t->tc);
	t->tc = NULL;
	for (unsigned i = 0; t->own && i < NR_SW * t->nr_cpus; i++)
		if (t->own[i] >= 0)
			close(t->own[i]);
	free(t->own);
	t->own = NULL;
	free(t->cpus);
	t->cpus = NULL;
	t->nr_cpus = 0;
	t->nr_events = 0;
	free(t->prev);
	t->prev = NULL;
	free(t->prev_v);
	t->prev_v = NULL;
	t->nr_prev = 0;
	free(t->emu_att);
	free(t->emu_truth);
	free(t->emu_cycles);
	free(t->emu_shown_exit);
	t->emu_att = NULL;
	t->emu_truth = t->emu_cycles = NULL;
	t->emu_shown_exit = NULL;
	t->nr_emu = t->nr_emu_rows = 0;
	t->src = SRC_NONE;
	t->line[0] = '\0';
}

static int open_sw(uint64_t config, int cpu)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* enabled once the program runs (taskcount.h), so that nothing it
	 * counted before is charged to the first task switched out */
	a.disabled = 1;
	/* not inherit: the kernel's BPF reads refuse inherited counters */
	return hpm_perf_event_open(&a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* the session's per-CPU counter of `row` on the CPU, -1 */
static int session_fd(const struct hpm_session *s, unsigned row, int cpu)
{
	for (unsigned b = 0; b < s->nr_backends; b++) {
		int fd = s->backend[b].inst ? hpm_perf_cpu_fd(s->backend[b].inst, row, cpu) : -1;
		if (fd >= 0)
			return fd;
	}
	return -1;
}

/* 0, or a negative code (-errno or -HPM_TC_E*) with the reason in why */
static int start_bpf(struct top_tasks *t, const struct top_model *m, char *why, size_t whylen)
{
	const struct hpm_session *s = &m->s;
	char err[256];
	int rc = hpm_perf_parse_cpu_list(m->o->cpus, NULL, &t->cpus, &t->nr_cpus, err, sizeof(err));
	if (rc) {
		snprintf(why, whylen, "%s", err);
		return rc;
	}
	unsigned slots = 0;
	for (unsigned c = 0; c < t->nr_cpus; c++)
		if ((unsigned)t->cpus[c] + 1 > slots)
			slots = (unsigned)t->cpus[c] + 1;
	/* the events: ours, then every session row with a counter on some CPU */
	t->nr_events = 0;
	for (unsigned k = 0; k < NR_SW; k++)
		t->ev_row[t->nr_events++] = -1;
	for (unsigned r = 0; m->session_ok && r < s->all.nr; r++) {
		bool has = false;
		for (unsigned c = 0; c < t->nr_cpus && !has; c++)
			has = session_fd(s, r, t->cpus[c]) >= 0;
		if (!has)
			continue;
		if (t->nr_events == HPM_TC_MAX_EVENTS) {
			snprintf(why, whylen, "%s (more than %d counters per CPU)",
			         hpm_taskcount_strerror(HPM_TC_ETOOMANY), HPM_TC_MAX_EVENTS);
			return -HPM_TC_ETOOMANY;
		}
		t->ev_row[t->nr_events++] = (int)r;
	}
	t->own = xmalloc(NR_SW * t->nr_cpus * sizeof(*t->own));
	for (unsigned i = 0; i < NR_SW * t->nr_cpus; i++)
		t->own[i] = -1;
	for (unsigned c = 0; c < t->nr_cpus; c++)
		for (unsigned k = 0; k < NR_SW; k++) {
			int fd = open_sw(sw_config[k], t->cpus[c]);
			if (fd < 0) {
				rc = -errno;
				snprintf(why, whylen,
				         "cannot open a per-CPU software counter on CPU%d: %s",
				         t->cpus[c], strerror(errno));
				return rc;
			}
			t->own[c * NR_SW + k] = fd;
		}
	/* HPMSTAT_BPF_MAX_TASKS: the task map's size, as stat's (tests fill
	 * a small one); else the library's default */
	unsigned max_tasks;
	if (hpm_taskcount_max_tasks_env(&max_tasks, why, whylen))
		return -EINVAL;
	if ((rc = hpm_taskcount_open(&t->tc, t->nr_events, slots, max_tasks)) < 0) {
		t->tc = NULL;
		snprintf(why, whylen, "%s", hpm_taskcount_strerror(-rc));
		return rc;
	}
	for (unsigned c = 0; c < t->nr_cpus; c++)
		for (unsigned e = 0; e < t->nr_events; e++) {
			int fd = t->ev_row[e] < 0
			             ? t->own[c * NR_SW + e]
			             : session_fd(s, (unsigned)t->ev_row[e], t->cpus[c]);
			/* a session counter not open on this CPU: the program skips it */
			if (fd < 0)
				continue;
			if ((rc = hpm_taskcount_set_fd(t->tc, e, (unsigned)t->cpus[c], fd)) < 0) {
				snprintf(why, whylen, "%s", hpm_taskcount_strerror(-rc));
				return rc;
			}
		}
	if ((rc = hpm_taskcount_start(t->tc)) < 0) {
		snprintf(why, whylen, "%s", hpm_taskcount_strerror(-rc));
		return rc;
	}
	for (unsigned i = 0; i < NR_SW * t->nr_cpus; i++)
		if (ioctl(t->own[i], PERF_EVENT_IOC_ENABLE, 0) < 0) {
			rc = -errno;
			snprintf(why, whylen, "cannot enable a per-CPU software counter: %s",
			         strerror(errno));
			return rc;
		}
	return 0;
}

void top_tasks_attach(struct top_tasks *t, struct top_model *m)
{
	top_tasks_detach(t);
	if (m->emu) {
		/* the profile's task schedule, else the rows per hart (view-state.c) */
		const struct hpm_emu_task *rows;
		const unsigned *evrows;
		unsigned n, nr;
		struct hpm_emu_info info;
		if (!m->session_ok || hpm_session_emu_tasks(&m->s, &rows, &n, &evrows, &nr))
			return;
		unsigned tasks = 0;
		for (unsigned i = 0; i < n; i++)
			tasks += rows[i].pid != 0;
		hpm_session_emu_info(&m->s, &info);
		t->src = SRC_EMU;
		snprintf(t->line, sizeof(t->line),
		         "tasks: emulated task schedule of profile %s, %u tasks on %u hart%s, "
		         "attributed at emulated context switches",
		         info.profile ? info.profile : "?", tasks, info.harts,
		         info.harts == 1 ? "" : "s");
		return;
	}
	int code;
	char why[300];
	const char *no = bpf_refused(m, &code);
	if (!no) {
		int rc = start_bpf(t, m, why, sizeof(why));
		if (!rc) {
			t->src = SRC_BPF;
			snprintf(t->line, sizeof(t->line),
			         "tasks: BPF sched_switch, %u events x %u CPUs = %u counters",
			         t->nr_events, t->nr_cpus, t->nr_events * t->nr_cpus);
			return;
		}
		top_tasks_detach(t);
		no = why;
	}
	t->src = SRC_GROUPS;
	snprintf(t->line, sizeof(t->line), "tasks: per-task groups (BPF: %s)", no);
}

/* ---------------------------------------------------------------- BPF */

static int cmp_prev(const void *a, const void *b)
{
	const struct prev *x = a, *y = b;
	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->gen > y->gen) - (x->gen < y->gen);
}

static int cmp_task_tgid(const void *a, const void *b)
{
	const struct hpm_tc_task *x = a, *y = b;
	int c = hpm_taskcount_cmp_process(x, y);
	if (c)
		return c;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* the first of the rows (sorted by process) of process p, n if none */
static unsigned first_of(const struct hpm_tc_task *rows, unsigned n, const struct hpm_tc_task *p)
{
	unsigned lo = 0, hi = n;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (hpm_taskcount_cmp_process(&rows[mid], p) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* the end of process p's rows from its first */
static unsigned end_of(const struct hpm_tc_task *rows, unsigned n, const struct hpm_tc_task *p,
                       unsigned j)
{
	while (j < n && hpm_taskcount_cmp_process(&rows[j], p) == 0)
		j++;
	return j;
}

static int cmp_task_clock(const void *a, const void *b)
{
	const struct hpm_tc_task *const *x = a, *const *y = b;
	uint64_t cx = (*x)->v[SW_CLOCK].value, cy = (*y)->v[SW_CLOCK].value;
	if (cx != cy)
		return cx < cy ? 1 : -1;
	return ((*x)->tgid > (*y)->tgid) - ((*x)->tgid < (*y)->tgid);
}

/* scaled as perf does; a task that did not run counted 0 */
static double scaled(const struct hpm_tc_value *v)
{
	if (!v->running)
		return 0;
	return (double)v->value *
	       (v->enabled > v->running ? (double)v->enabled / (double)v->running : 1.0);
}

/* The value of a task's count as a column: scaled as hpm_counts_value
 * scales (top.h), but 0, not '-', for a task that did not run */
static double count_value(const struct hpm_count *c, double scale)
{
	if (!c->run)
		return 0;
	double v = (double)c->val;
	if (c->ena > c->run)
		v *= (double)c->ena / (double)c->run;
	return v * scale;
}

/* What every source fills alike from a task's counts of the session's
 * rows over the interval (cnt[r]: row r's, NULL when not counted per
 * task): ev, and Topdown level 1 through the session's metric code, as a
 * hart's or CPU's (the counts put in unit 0). */
static void fill_counts(struct top_model *m, const struct top_frame *f,
                        const struct hpm_count *const *cnt, struct top_proc *p, char *bn,
                        size_t bnlen)
{
	struct hpm_session *s = &m->s;
	if (bn)
		snprintf(bn, bnlen, "-");
	for (unsigned c = 0; c < TD_NR; c++)
		p->td[c] = (double)NAN;
	if (f->nev) {
		p->ev = xcalloc(f->nev, sizeof(double));
		for (unsigned r = 0; r < f->nev; r++) {
			const struct hpm_evsel *e = &s->all.ev[r];
			p->ev[r] = cnt[r] && e->state == HPM_EV_OK ? count_value(cnt[r], e->scale)
			                                           : (double)NAN;
		}
	}
	if (!s->metrics.nr)
		return;
	struct hpm_count **d = xcalloc(s->all.nr ? s->all.nr : 1, sizeof(*d));
	for (unsigned r = 0; r < s->all.nr; r++) {
		unsigned nu = s->all.ev[r].nr_units ? s->all.ev[r].nr_units : 1;
		d[r] = xcalloc(nu, sizeof(**d));
		if (cnt[r])
			d[r][0] = *cnt[r];
	}
	struct stat_metric *ms;
	unsigned nr = hpm_session_metrics_unit(s, (const struct hpm_count *const *)d, 0, &ms);
	for (unsigned c = 0; c < TD_NR; c++)
		for (unsigned j = 0; j < nr; j++)
			if (top_td_metric_is(ms[j].name, c))
				p->td[c] = ms[j].value;
	if (bn)
		snprintf(bn, bnlen, "%s", top_bottleneck_of(ms, nr));
	for (unsigned j = 0; j < nr; j++)
		free(ms[j].display);
	free(ms);
	for (unsigned r = 0; r < s->all.nr; r++)
		free(d[r]);
	free(d);
}

/* One task's row from its BPF counts over the interval: the software
 * columns, then fill_counts. */
static void fill_row(const struct top_tasks *t, struct top_model *m, const struct top_frame *f,
                     const struct hpm_tc_task *k, double interval, struct top_proc *p)
{
	struct hpm_session *s = &m->s;
	memset(p, 0, sizeof(*p));
	p->pid = k->pid;
	p->tgid = k->tgid;
	snprintf(p->name, sizeof(p->name), "%s", k->comm);
	snprintf(p->extra, sizeof(p->extra), "%s", k->exited ? "exited" : "");
	p->exited = k->exited;
	for (unsigned c = 0; c < TOP_MAX_PCOLS; c++)
		p->v[c] = (double)NAN;
	double ns = scaled(&k->v[SW_CLOCK]);
	p->v[PC_CPU] = interval > 0 ? 100.0 * ns / 1e9 / interval : (double)NAN;
	p->v[PC_TASK] = ns / 1e6;
	p->v[PC_CSW] = scaled(&k->v[SW_CSW]);
	p->v[PC_FAULTS] = scaled(&k->v[SW_FAULTS]);
	const struct hpm_count **cnt = xcalloc(s->all.nr ? s->all.nr : 1, sizeof(*cnt));
	struct hpm_count *c = xcalloc(t->nr_events, sizeof(*c));
	for (unsigned e = NR_SW; e < t->nr_events; e++) {
		c[e] = (struct hpm_count){
		    .val = k->v[e].value, .ena = k->v[e].enabled, .run = k->v[e].running};
		cnt[t->ev_row[e]] = &c[e];
	}
	fill_counts(m, f, cnt, p, NULL, 0);
	free(c);
	free(cnt);
	if (!p->exited)
		top_procs_host_info(m->procs, p);
}

static void add_gone(struct top_tasks *t, const struct top_proc *p, unsigned max)
{
	if (t->nr_gone >= max && t->nr_gone) {
		/* the oldest goes (kept rows own no ev) */
		memmove(t->gone, t->gone + 1, (t->nr_gone - 1) * sizeof(*t->gone));
		t->nr_gone--;
	}
	t->gone = xreallocarray(t->gone, t->nr_gone + 1, sizeof(*t->gone));
	struct top_proc *g = &t->gone[t->nr_gone++];
	*g = *p;
	g->ev = NULL;
	g->truth = NULL;
	for (unsigned k = 0; k < TOP_MAX_PCOLS; k++)
		g->v[k] = (double)NAN;
	for (unsigned k = 0; k < TD_NR; k++)
		g->td[k] = (double)NAN;
	snprintf(g->extra, sizeof(g->extra), "exited");
	g->exited = true;
}

/* the frame's ev: every row of the session, in its order (top.h); the
 * columns shown are those shown per unit, not the rows only metrics read */
static void ev_columns(const struct top_model *m, struct top_frame *f)
{
	const struct hpm_session *s = &m->s;
	f->nev = 0;
	f->ev_names = NULL;
	if (!m->session_ok || !s->all.nr)
		return;
	f->nev = s->all.nr;
	f->ev_names = xcalloc(s->all.nr, sizeof(char *));
	for (unsigned r = 0; r < s->all.nr; r++)
		if (!s->all.ev[r].metric_only)
			f->ev_names[r] = xstrdup(s->all.ev[r].name);
}

/* the frame's note gets `text` after what it already says */
/* -N: the rows listed at most (0: every task) */
static unsigned rows_max(const struct top_model *m)
{
	return m->o->nprocs ? m->o->nprocs : UINT_MAX;
}

/* the exited rows --sticky keeps */
static unsigned gone_max(const struct top_model *m)
{
	return 4 * (m->o->nprocs ? m->o->nprocs : TOP_COUNTED_PROCS) + 16;
}

static void append_status(struct top_frame *f, const char *text)
{
	size_t off = strlen(f->status);
	if (off < sizeof(f->status))
		snprintf(f->status + off, sizeof(f->status) - off, "%s%s", off ? "; " : "", text);
}

/* <procfs> could not be listed: the frame says why (the busy rows stay,
 * the idle ones and the total are unknown) */
static void procfs_failed(struct top_frame *f, int err)
{
	snprintf(f->procs_error, sizeof(f->procs_error), "cannot list %s: %s", hpm_procfs_root(),
	         strerror(err));
}

/* the processes of this host, as the per-task groups count them: not
 * only those that ran since the program started; -errno when <procfs>
 * cannot be listed */
static int host_processes(void)
{
	DIR *d = opendir(hpm_procfs_root());
	if (!d)
		return -errno;
	struct dirent *de;
	int n = 0;
	for (;;) {
		errno = 0;
		if (!(de = readdir(d)))
			break;
		n += de->d_name[0] > '0' && de->d_name[0] <= '9';
	}
	int err = errno;
	closedir(d);
	return err ? -err : n;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* <procfs>/PATH's first line (a comm), "" when unreadable */
static void read_comm(const char *path, char *buf, size_t len)
{
	buf[0] = '\0';
	FILE *fp = fopen(path, "re");
	if (!fp)
		return;
	if (fgets(buf, (int)len, fp))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(fp);
}

/* A task that has not run since the program started: in no map entry,
 * so every count of it is 0 (the rows the program counts; the others
 * '-'). */
static void idle_row(const struct top_tasks *t, const struct top_frame *f, int pid, int tgid,
                     const char *comm, struct top_proc *p)
{
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->tgid = tgid;
	p->thread = pid != tgid;
	snprintf(p->name, sizeof(p->name), "%s", comm);
	for (unsigned c = 0; c < TOP_MAX_PCOLS; c++)
		p->v[c] = (double)NAN;
	for (unsigned c = 0; c < TD_NR; c++)
		p->td[c] = (double)NAN;
	p->v[PC_CPU] = p->v[PC_TASK] = p->v[PC_CSW] = p->v[PC_FAULTS] = 0;
	if (!f->nev)
		return;
	p->ev = xcalloc(f->nev, sizeof(double));
	for (unsigned r = 0; r < f->nev; r++)
		p->ev[r] = (double)NAN;
	for (unsigned e = NR_SW; e < t->nr_events; e++)
		if ((unsigned)t->ev_row[e] < f->nev)
			p->ev[t->ev_row[e]] = 0;
}

/* Fewer processes ran since the program started than the table has rows:
 * the host's others (<procfs>, as the per-task groups list them), with
 * their threads in the tree view, after the busy ones. A /proc scan costs
 * about what the busy rows do, so it is made only then. Returns the
 * processes seen there (0: not scanned), -errno when <procfs> cannot be
 * listed. */
static int add_idle(const struct top_tasks *t, const struct top_model *m, const struct top_frame *f,
                    const int *ran, unsigned nran, unsigned shown, struct top_proc **out,
                    unsigned *nout, unsigned *cap)
{
	const char *procfs = hpm_procfs_root();
	DIR *d = opendir(procfs);
	if (!d)
		return -errno;
	int *pids = NULL;
	unsigned n = 0, pcap = 0;
	struct dirent *de;
	for (;;) {
		errno = 0;
		if (!(de = readdir(d))) {
			int err = errno;
			if (!err)
				break;
			closedir(d);
			free(pids);
			return -err;
		}
		if (de->d_name[0] <= '0' || de->d_name[0] > '9')
			continue;
		if (n == pcap) {
			pcap = pcap ? 2 * pcap : 256;
			pids = xreallocarray(pids, pcap, sizeof(*pids));
		}
		pids[n++] = (int)strtol(de->d_name, NULL, 10);
	}
	closedir(d);
	if (n)
		qsort(pids, n, sizeof(*pids), cmp_int);
	char path[512], comm[64];
	for (unsigned i = 0; i < n && shown < rows_max(m); i++) {
		if (nran && bsearch(&pids[i], ran, nran, sizeof(*ran), cmp_int))
			continue;
		snprintf(path, sizeof(path), "%s/%d/comm", procfs, pids[i]);
		read_comm(path, comm, sizeof(comm));
		if (!comm[0])
			continue; /* gone meanwhile */
		int *tids = NULL;
		unsigned nt = 0, tcap = 0;
		DIR *td = NULL;
		if (m->o->tree) {
			snprintf(path, sizeof(path), "%s/%d/task", procfs, pids[i]);
			td = opendir(path);
		}
		while (td && (de = readdir(td))) {
			int tid = (int)strtol(de->d_name, NULL, 10);
			if (tid <= 0 || tid == pids[i])
				continue;
			if (nt == tcap) {
				tcap = tcap ? 2 * tcap : 8;
				tids = xreallocarray(tids, tcap, sizeof(*tids));
			}
			tids[nt++] = tid;
		}
		if (td)
			closedir(td);
		if (*nout + 1 + nt > *cap) {
			*cap = 2 * (*cap + 1 + nt);
			*out = xreallocarray(*out, *cap, sizeof(**out));
		}
		idle_row(t, f, pids[i], pids[i], comm, &(*out)[(*nout)++]);
		top_procs_host_info(m->procs, &(*out)[*nout - 1]);
		shown++;
		if (nt)
			qsort(tids, nt, sizeof(*tids), cmp_int);
		for (unsigned j = 0; j < nt; j++) {
			snprintf(path, sizeof(path), "%s/%d/task/%d/comm", procfs, pids[i],
			         tids[j]);
			read_comm(path, comm, sizeof(comm));
			if (comm[0]) {
				idle_row(t, f, tids[j], pids[i], comm, &(*out)[(*nout)++]);
				top_procs_host_info(m->procs, &(*out)[*nout - 1]);
			}
		}
		free(tids);
	}
	free(pids);
	return (int)n;
}

/* The program's rows as deltas since the previous frame (a row without a
 * previous one is all new), the rows a stale exited task left out; the
 * new previous table kept, and the dead shown forgotten. Returns the rows
 * kept. */
static unsigned take_deltas(struct top_tasks *t, struct hpm_tc_task *rows, unsigned n)
{
	struct prev *np = xcalloc(n ? n : 1, sizeof(*np));
	struct hpm_tc_value *npv = xcalloc(n ? (size_t)n * t->nr_events : 1, sizeof(*npv));
	unsigned nnp = 0, kept = 0;
	for (unsigned i = 0; i < n; i++) {
		struct hpm_tc_task *k = &rows[i];
		struct prev key = {.pid = k->pid, .gen = k->gen};
		const struct prev *o =
		    t->nr_prev ? bsearch(&key, t->prev, t->nr_prev, sizeof(*t->prev), cmp_prev)
		               : NULL;
		/* a tid reused after its first owner was forgotten starts again */
		if (o && o->v[SW_CLOCK].enabled > k->v[SW_CLOCK].enabled)
			o = NULL;
		/* an exited task stays in the map until forgotten (below): shown
		 * once, and again only if its last switch came after that */
		bool stale =
		    o && o->exited && k->exited && o->v[SW_CLOCK].enabled == k->v[SW_CLOCK].enabled;
		np[nnp].pid = k->pid;
		np[nnp].gen = k->gen;
		np[nnp].exited = k->exited;
		np[nnp].v = npv + (size_t)nnp * t->nr_events;
		memcpy(np[nnp].v, k->v, t->nr_events * sizeof(k->v[0]));
		nnp++;
		for (unsigned e = 0; o && e < t->nr_events; e++) {
			k->v[e].value -= o->v[e].value;
			k->v[e].enabled -= o->v[e].enabled;
			k->v[e].running -= o->v[e].running;
		}
		if (!stale)
			rows[kept++] = *k;
	}
	n = kept;
	free(t->prev);
	free(t->prev_v);
	t->prev = np;
	t->prev_v = npv;
	t->nr_prev = nnp;
	if (nnp)
		qsort(t->prev, nnp, sizeof(*t->prev), cmp_prev);
	/* The dead go from the map once shown, so that a long session does
	 * not fill it with them (a busy machine starts and ends ~100
	 * processes a second); forgetting deletes those this read saw, one
	 * system call each, without another walk of the map. */
	(void)hpm_taskcount_forget_exited(t->tc);
	return kept;
}

/* The host's process count for the frame: seen by add_idle's walk when it
 * made one (seen > 0; < 0: its error), else a walk of <proc> now and then:
 * it costs a few hundred microseconds with a few hundred processes, not
 * for every frame. */
static void count_host_procs(struct top_tasks *t, struct top_frame *f, int seen)
{
	double now = hpm_clock_s();
	if (seen < 0) {
		procfs_failed(f, -seen);
	} else if (seen) {
		t->nr_host_procs = (unsigned)seen;
		t->procs_at = now;
	} else if (t->procs_at == 0 || now - t->procs_at >= HOST_PROCS_S) {
		int nhost = host_processes();
		if (nhost < 0) {
			procfs_failed(f, -nhost);
		} else {
			t->nr_host_procs = (unsigned)nhost;
			t->procs_at = now;
		}
	}
}

/* What the program could not count: switches missed, reads that failed. */
static void note_bpf_losses(struct top_frame *f, const struct hpm_tc_stats *st)
{
	size_t off = strlen(f->status);
	if (st->missed)
		off += (size_t)snprintf(f->status + off, sizeof(f->status) - off,
		                        "%s%llu switches missed (task map full: %u tasks)",
		                        off ? "; " : "", (unsigned long long)st->missed,
		                        st->max_tasks);
	if (st->read_errors && off < sizeof(f->status))
		snprintf(f->status + off, sizeof(f->status) - off,
		         "%s%llu counter reads failed at switches", off ? "; " : "",
		         (unsigned long long)st->read_errors);
}

/* false when the program's counts cannot be read any more (a CPU went
 * offline or came back): the caller falls back to per-task groups. */
static bool sample_bpf(struct top_tasks *t, struct top_model *m, struct top_frame *f,
                       double interval)
{
	struct hpm_tc_task *rows = NULL;
	struct hpm_tc_stats st;
	unsigned n = 0;
	int rc = hpm_taskcount_read(t->tc, &rows, &n, &st);
	if (rc < 0) {
		char why[200];
		snprintf(why, sizeof(why), "%s", hpm_taskcount_strerror(rc));
		top_tasks_detach(t);
		t->src = SRC_GROUPS;
		snprintf(t->line, sizeof(t->line), "tasks: per-task groups (BPF: %s)", why);
		snprintf(f->tasks, sizeof(f->tasks), "%s", t->line);
		return false;
	}
	/* deltas since the previous frame; the new previous table */
	n = take_deltas(t, rows, n);

	/* processes: the program's sum by tgid; one is alive while a thread is */
	struct hpm_tc_task *procs = NULL;
	unsigned np_ = 0;
	if (n && hpm_taskcount_by_process(rows, n, t->nr_events, &procs, &np_) < 0)
		np_ = 0;
	qsort(rows, n, sizeof(*rows), cmp_task_tgid);
	struct hpm_tc_task **order = xcalloc(np_ ? np_ : 1, sizeof(*order));
	unsigned no = 0;
	for (unsigned i = 0; i < np_; i++) {
		struct hpm_tc_task *p = &procs[i];
		if (p->tgid <= 0)
			continue; /* the idle task of each CPU */
		bool alive = false;
		for (unsigned j = first_of(rows, n, p), e = end_of(rows, n, p, j); j < e; j++)
			alive |= !rows[j].exited;
		p->exited = !alive;
		p->pid = p->tgid;
		order[no++] = p;
	}
	qsort(order, no, sizeof(*order), cmp_task_clock);
	unsigned take = no < rows_max(m) ? no : rows_max(m);
	/* rows: the busiest processes, the threads of those with several,
	 * and the kept exited ones */
	unsigned cap = take + (m->o->sticky ? t->nr_gone : 0);
	for (unsigned i = 0; i < take; i++) {
		unsigned j0 = first_of(rows, n, order[i]), j = end_of(rows, n, order[i], j0);
		if (m->o->tree && j - j0 > 1)
			cap += j - j0;
	}
	ev_columns(m, f);
	if (!f->nev)
		snprintf(f->noev_reason, sizeof(f->noev_reason),
		         "the session's counters are not open (only the software columns are "
		         "counted per task)");
	struct top_proc *out = xcalloc(cap ? cap : 1, sizeof(*out));
	unsigned nout = 0;
	for (unsigned i = take; m->o->sticky && i < no; i++) {
		if (!order[i]->exited || !t->nr_listed ||
		    !bsearch(&order[i]->tgid, t->listed, t->nr_listed, sizeof(int), cmp_int))
			continue;
		/* a kept row shows no counts (add_gone): who it was is all */
		struct top_proc gone = {.pid = order[i]->pid, .tgid = order[i]->tgid};
		snprintf(gone.name, sizeof(gone.name), "%s", order[i]->comm);
		add_gone(t, &gone, gone_max(m));
	}
	for (unsigned i = 0; i < take; i++) {
		struct top_proc *pr = &out[nout++];
		fill_row(t, m, f, order[i], interval, pr);
		if (pr->exited && m->o->sticky)
			add_gone(t, pr, gone_max(m));
		unsigned j0 = first_of(rows, n, order[i]), j1 = end_of(rows, n, order[i], j0);
		for (unsigned j = j0; m->o->tree && j1 - j0 > 1 && j < j1; j++) {
			struct top_proc *th = &out[nout++];
			fill_row(t, m, f, &rows[j], interval, th);
			th->thread = true;
		}
	}
	int seen = 0;
	if (take < rows_max(m)) {
		int *ran = xcalloc(no ? no : 1, sizeof(int));
		for (unsigned i = 0; i < no; i++)
			ran[i] = order[i]->tgid;
		qsort(ran, no, sizeof(int), cmp_int);
		seen = add_idle(t, m, f, ran, no, take, &out, &nout, &cap);
		free(ran);
	}
	if (m->o->sticky && nout + t->nr_gone > cap) {
		cap = nout + t->nr_gone;
		out = xreallocarray(out, cap, sizeof(*out));
	}
	for (unsigned i = 0; m->o->sticky && i < t->nr_gone; i++) {
		/* shown once with its last counts above: from the next frame on */
		bool now = false;
		for (unsigned j = 0; j < nout && !now; j++)
			now = out[j].exited && !out[j].thread && out[j].pid == t->gone[i].pid;
		if (!now)
			out[nout++] = t->gone[i];
	}
	if (m->o->sticky) {
		t->listed = xreallocarray(t->listed, take ? take : 1, sizeof(int));
		for (unsigned i = 0; i < take; i++)
			t->listed[i] = order[i]->tgid;
		t->nr_listed = take;
		qsort(t->listed, take, sizeof(int), cmp_int);
	}
	f->procs = out;
	f->nprocs = nout;
	count_host_procs(t, f, seen);
	f->nprocs_total = t->nr_host_procs;
	if (rc >= 0 && (st.missed || st.read_errors))
		note_bpf_losses(f, &st);
	free(order);
	free(procs);
	free(rows);
	return true;
}

/* ----------------------------------------------------------- emulator */

static int cmp_cycles_desc(const void *a, const void *b)
{
	const struct top_proc *x = a, *y = b;
	double cx = isnan(x->v[PC_CYCLES]) ? -1 : x->v[PC_CYCLES];
	double cy = isnan(y->v[PC_CYCLES]) ? -1 : y->v[PC_CYCLES];
	if (cx != cy)
		return cx < cy ? 1 : -1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The emulated tasks over the interval: their attributed counts (what the
 * counters read at the emulated switches gave them) as ev, the machine's
 * ground truth beside them, Topdown from the attributed counts. */
static void sample_emu(struct top_tasks *t, struct top_model *m, struct top_frame *f)
{
	struct hpm_session *s = &m->s;
	const struct hpm_emu_task *rows;
	const unsigned *evrows;
	unsigned n = 0, nr = 0;
	if (hpm_session_emu_tasks(s, &rows, &n, &evrows, &nr)) {
		size_t off = strlen(f->status);
		snprintf(f->status + off, sizeof(f->status) - off,
		         "%sthe emulator's tasks cannot be read", off ? "; " : "");
		n = 0;
	}
	if (n != t->nr_emu || nr != t->nr_emu_rows) {
		/* a new schedule (reprogrammed): counted from the start */
		free(t->emu_att);
		free(t->emu_truth);
		free(t->emu_cycles);
		free(t->emu_shown_exit);
		t->emu_att = xcalloc((size_t)n * nr + 1, sizeof(*t->emu_att));
		t->emu_truth = xcalloc((size_t)n * nr + 1, sizeof(*t->emu_truth));
		t->emu_cycles = xcalloc((size_t)n + 1, sizeof(*t->emu_cycles));
		t->emu_shown_exit = xcalloc((size_t)n + 1, sizeof(bool));
		t->nr_emu = n;
		t->nr_emu_rows = nr;
	}
	ev_columns(m, f);
	struct top_proc *out = xcalloc(n + t->nr_gone + 1, sizeof(*out));
	unsigned nout = 0, alive = 0;
	const struct hpm_count **cnt = xcalloc(s->all.nr ? s->all.nr : 1, sizeof(*cnt));
	struct hpm_count *c = xcalloc(nr + 1, sizeof(*c));
	for (unsigned i = 0; i < n; i++) {
		const struct hpm_emu_task *k = &rows[i];
		struct hpm_count *pa = &t->emu_att[(size_t)i * nr];
		uint64_t *pt = &t->emu_truth[(size_t)i * nr];
		/* shown exited once: from then on only with --sticky */
		bool stale = k->exited && t->emu_shown_exit[i] && k->cycles == t->emu_cycles[i];
		memset(cnt, 0, (s->all.nr ? s->all.nr : 1) * sizeof(*cnt));
		for (unsigned j = 0; j < nr; j++) {
			c[j] = (struct hpm_count){.val = k->att[j].val - pa[j].val,
			                          .ena = k->att[j].ena - pa[j].ena,
			                          .run = k->att[j].run - pa[j].run};
			if (evrows[j] < s->all.nr)
				cnt[evrows[j]] = &c[j];
		}
		uint64_t cycles = k->cycles - t->emu_cycles[i];
		struct top_proc p;
		memset(&p, 0, sizeof(p));
		/* the idle task (pid 0) is no row, as on the host */
		if (k->pid != 0 && !stale) {
			p.pid = k->pid;
			p.tgid = k->tgid;
			p.thread = k->pid != k->tgid;
			snprintf(p.name, sizeof(p.name), "%s", k->comm);
			p.exited = k->exited;
			for (unsigned j = 0; j < TOP_MAX_PCOLS; j++)
				p.v[j] = (double)NAN;
			char bn[sizeof(p.extra)];
			fill_counts(m, f, cnt, &p, bn, sizeof(bn));
			/* rows [0] and [1] of the session: the model's cycles and
			 * instructions (view-state.c) */
			if (p.ev && f->nev >= 2) {
				p.v[PC_CYCLES] = p.ev[0];
				p.v[PC_INSTR] = p.ev[1];
				p.v[PC_IPC] = p.ev[0] > 0 ? p.ev[1] / p.ev[0] : (double)NAN;
			}
			if (!f->nev || isnan(p.v[PC_CYCLES]))
				p.v[PC_CYCLES] = (double)cycles;
			if (f->nev) {
				p.truth = xcalloc(f->nev, sizeof(double));
				for (unsigned r = 0; r < f->nev; r++)
					p.truth[r] = (double)NAN;
				for (unsigned j = 0; j < nr; j++)
					if (evrows[j] < f->nev)
						p.truth[evrows[j]] = (double)(k->truth[j] - pt[j]) *
						                     s->all.ev[evrows[j]].scale;
			}
			snprintf(p.extra, sizeof(p.extra), "%s", k->exited ? "exited" : bn);
			out[nout++] = p;
			/* processes, as <proc> on the host counts them: a
			 * thread is a row but no process of its own */
			alive += !k->exited && !p.thread;
			if (k->exited) {
				t->emu_shown_exit[i] = true;
				if (m->o->sticky)
					add_gone(t, &p, gone_max(m));
			}
		}
		memcpy(pa, k->att, nr * sizeof(*pa));
		memcpy(pt, k->truth, nr * sizeof(*pt));
		t->emu_cycles[i] = k->cycles;
	}
	free(c);
	free(cnt);
	/* the busiest N */
	qsort(out, nout, sizeof(*out), cmp_cycles_desc);
	while (nout > rows_max(m)) {
		nout--;
		free(out[nout].ev);
		free(out[nout].truth);
	}
	for (unsigned i = 0; m->o->sticky && i < t->nr_gone; i++) {
		bool now = false;
		for (unsigned j = 0; j < nout && !now; j++)
			now = out[j].exited && out[j].pid == t->gone[i].pid;
		if (!now)
			out[nout++] = t->gone[i];
	}
	f->procs = out;
	f->nprocs = nout;
	f->nprocs_total = alive;
}

bool top_tasks_sample(struct top_tasks *t, struct top_model *m, struct top_frame *f,
                      double interval)
{
	snprintf(f->tasks, sizeof(f->tasks), "%s", t->line);
	switch (t->src) {
	case SRC_BPF:
		if (sample_bpf(t, m, f, interval))
			return true;
		/* BPF gave up: the groups count from now on */
		__attribute__((fallthrough));
	case SRC_GROUPS:
		top_procs_set_threads(m->procs, m->o->tree);
		char why[sizeof(f->procs_error)] = "";
		if (top_procs_sample(m->procs, m->seq ? interval : 0, m->o->nprocs, m->o->pid,
		                     m->o->sticky, &f->procs, &f->nprocs, &f->nprocs_total, why,
		                     sizeof(why)))
			snprintf(f->procs_error, sizeof(f->procs_error), "%s", why);
		else if (why[0])
			append_status(f, why);
		for (unsigned i = 0; i < f->nprocs; i++) {
			if (!f->procs[i].tgid)
				f->procs[i].tgid = f->procs[i].pid;
			for (unsigned k = 0; k < TD_NR; k++)
				f->procs[i].td[k] = (double)NAN;
		}
		return true;
	case SRC_EMU:
		sample_emu(t, m, f);
		return true;
	default:
		return false;
	}
}

void top_tasks_free(struct top_tasks *t)
{
	if (!t)
		return;
	top_tasks_detach(t);
	free(t->gone);
	free(t->listed);
	free(t);
}
