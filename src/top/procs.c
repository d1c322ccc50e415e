/* procs.c: see procs.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backend/host-pmu.h"
#include "top/procs.h"
#include "util/xalloc.h"

enum { NR_SW = 3 };

/* task-clock, context-switches, page-faults: the per-task events every
 * kernel with perf has, so the table works on any host */
static const uint64_t sw_config[NR_SW] = {PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES,
                                          PERF_COUNT_SW_PAGE_FAULTS};

struct pent {
	int pid;
	char comm[64];
	char state;
	uint64_t ticks; /* utime + stime */
	/* nice, vsize (bytes), rss (pages): NAN when the stat line stops before */
	double nice, vsize, rss;
	uint64_t prev_ticks;
	bool have_prev;
	int fd[NR_SW];        /* -1: closed or could not open */
	uint64_t last[NR_SW]; /* scaled count at the previous read */
	bool have_last;
	bool chosen;
	double v[PC_NR_PERF];
};

/* a thread's CPU time at the previous scan (the tree view) */
struct tent {
	int tid;
	uint64_t ticks;
};

struct top_procs {
	struct pent *e; /* sorted by pid */
	unsigned nr;
	bool threads;    /* list threads under their processes */
	struct tent *th; /* sorted by tid */
	unsigned nr_th;
	struct top_proc *gone; /* --sticky: exited rows */
	unsigned nr_gone;
	long hz;
	long page; /* bytes */
	/* user names by uid, looked up once (the password database is a file) */
	struct uname {
		unsigned uid;
		char name[32];
	} * users;
	unsigned nr_users;
};

struct top_procs *top_procs_new(void)
{
	struct top_procs *p = xcalloc(1, sizeof(*p));
	p->hz = sysconf(_SC_CLK_TCK);
	if (p->hz <= 0)
		p->hz = 100;
	p->page = sysconf(_SC_PAGESIZE);
	if (p->page <= 0)
		p->page = 4096;
	return p;
}

static void close_counters(struct pent *e)
{
	for (unsigned k = 0; k < NR_SW; k++) {
		if (e->fd[k] >= 0)
			close(e->fd[k]);
		e->fd[k] = -1;
	}
	e->have_last = false;
}

/* One group per task, task-clock leading: one read() gives all three, so
 * 200 processes cost 200 reads a frame, not 600. */
/* per-process counter groups opened in one frame at most */
#define TOP_OPENS_PER_FRAME 64

/* 0, or the errno of the leader's open when the row's counters could not
 * open at all */
static int open_counters(struct pent *e)
{
	int leader = -1, err = 0;
	for (unsigned k = 0; k < NR_SW; k++) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = sw_config[k];
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
		                PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.exclude_hv = 1;
		long fd =
		    syscall(SYS_perf_event_open, &a, e->pid, -1, leader, PERF_FLAG_FD_CLOEXEC);
		e->fd[k] = fd < 0 ? -1 : (int)fd;
		if (k == 0) {
			if (fd < 0) {
				err = errno;
				break; /* no leader: the whole row is '-' */
			}
			leader = (int)fd;
		}
	}
	e->have_last = false;
	return err;
}

/* reads the group: v[] deltas since the previous read, NAN without one */
static void read_counters(struct pent *e)
{
	uint64_t cur[NR_SW] = {0};
	bool ok[NR_SW] = {false};
	/* nr, time_enabled, time_running, then one value per member that opened */
	uint64_t buf[3 + NR_SW];
	ssize_t n = e->fd[0] >= 0 ? read(e->fd[0], buf, sizeof(buf)) : -1;
	if (n >= (ssize_t)(4 * sizeof(uint64_t))) {
		unsigned slot = 0;
		for (unsigned k = 0; k < NR_SW && slot < buf[0]; k++) {
			if (e->fd[k] < 0)
				continue;
			/* software events are never multiplexed, but scale as perf does */
			cur[k] = buf[2] ? (uint64_t)((double)buf[3 + slot] * (double)buf[1] /
			                             (double)buf[2])
			                : 0;
			ok[k] = true;
			slot++;
		}
	}
	for (unsigned k = 0; k < NR_SW; k++) {
		double d = ok[k] && e->have_last ? (double)(cur[k] - e->last[k]) : (double)NAN;
		if (k == 0)
			d /= 1e6; /* task-clock: ns -> msec, as perf shows it */
		e->v[PC_TASK + k] = d;
		e->last[k] = cur[k];
	}
	e->have_last = true;
}

/* A task that went away between readdir and a read of its files: skipped.
 * Any other errno (EMFILE, ENFILE, ENOMEM, ...) is this program's trouble,
 * which the frame must show instead of a table without the task. */
static bool task_gone(int err)
{
	return err == ENOENT || err == ESRCH;
}

/* /proc/PID/stat: comm is in parentheses and may contain anything, so the
 * fields are counted from the last ')'. false with *err 0 when the task is
 * gone or its line unreadable as stat, with *err an errno when the file
 * could not be read for another reason. */
static bool read_stat_path(const char *path, struct pent *e, int *err)
{
	char buf[1024];
	*err = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = task_gone(errno) ? 0 : errno;
		return false;
	}
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0 && !task_gone(errno))
		*err = errno;
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	char *l = strchr(buf, '('), *r = strrchr(buf, ')');
	if (!l || !r || r < l)
		return false;
	size_t cl = (size_t)(r - l - 1);
	if (cl >= sizeof(e->comm))
		cl = sizeof(e->comm) - 1;
	memcpy(e->comm, l + 1, cl);
	e->comm[cl] = '\0';
	char *p = r + 2;
	e->state = *p;
	/* after the state: ppid pgrp session tty tpgid flags minflt cminflt
	 * majflt cmajflt utime stime, then cutime cstime priority nice
	 * num_threads itrealvalue starttime vsize rss (proc(5)) */
	long long f[21];
	int got =
	    sscanf(p + 1,
	           "%lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld "
	           "%lld %lld %lld %lld %lld %lld %lld",
	           &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &f[10],
	           &f[11], &f[12], &f[13], &f[14], &f[15], &f[16], &f[17], &f[18], &f[19], &f[20]);
	if (got < 12)
		return false;
	e->ticks = (uint64_t)f[10] + (uint64_t)f[11];
	e->nice = got > 15 ? (double)f[15] : (double)NAN;
	e->vsize = got > 19 ? (double)(unsigned long long)f[19] : (double)NAN;
	e->rss = got > 20 ? (double)f[20] : (double)NAN;
	return true;
}

static bool read_stat(const char *procfs, int pid, struct pent *e, int *err)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%d/stat", procfs, pid);
	return read_stat_path(path, e, err);
}

/* The name of user uid ("1000" when the password database has none). */
static const char *user_name(struct top_procs *p, unsigned uid)
{
	for (unsigned i = 0; i < p->nr_users; i++)
		if (p->users[i].uid == uid)
			return p->users[i].name;
	p->users = xreallocarray(p->users, p->nr_users + 1, sizeof(*p->users));
	struct uname *u = &p->users[p->nr_users++];
	u->uid = uid;
	char buf[1024];
	struct passwd pw, *r = NULL;
	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &r) == 0 && r)
		snprintf(u->name, sizeof(u->name), "%s", r->pw_name);
	else
		snprintf(u->name, sizeof(u->name), "%u", uid);
	return u->name;
}

/* What the row shows of the task in directory dir (<procfs>/PID or
 * <procfs>/PID/task/TID) besides its counts: state, user, memory and nice.
 * The owner of the directory is the task's effective uid (proc(5)). */
static void fill_host(struct top_procs *p, const char *dir, const struct pent *e,
                      struct top_proc *t)
{
	char path[300];
	struct stat st;
	if (!t->extra[0] && e->state)
		snprintf(t->extra, sizeof(t->extra), "%c", e->state);
	if (stat(dir, &st) == 0)
		snprintf(t->user, sizeof(t->user), "%s", user_name(p, (unsigned)st.st_uid));
	t->v[PC_NICE] = e->nice;
	/* statm: size resident ... in pages, both from one read as htop takes
	 * them (stat's rss is read apart and may differ by the pages faulted
	 * in between); stat's when statm cannot be read */
	snprintf(path, sizeof(path), "%s/statm", dir);
	FILE *fp = fopen(path, "re");
	unsigned long long size, res;
	if (fp && fscanf(fp, "%llu %llu", &size, &res) == 2) {
		t->v[PC_VIRT] = (double)size * (double)p->page;
		t->v[PC_RES] = (double)res * (double)p->page;
	} else {
		t->v[PC_VIRT] = e->vsize;
		t->v[PC_RES] = e->rss * (double)p->page;
	}
	if (fp)
		fclose(fp);
}

void top_procs_host_info(struct top_procs *p, struct top_proc *t)
{
	char dir[256], path[300];
	struct pent e;
	int err;
	memset(&e, 0, sizeof(e));
	if (t->tgid > 0 && t->tgid != t->pid)
		snprintf(dir, sizeof(dir), "%s/%d/task/%d", hpm_procfs_root(), t->tgid, t->pid);
	else
		snprintf(dir, sizeof(dir), "%s/%d", hpm_procfs_root(), t->pid);
	snprintf(path, sizeof(path), "%s/stat", dir);
	if (t->pid > 0 && read_stat_path(path, &e, &err))
		fill_host(p, dir, &e, t);
}

void top_procs_set_threads(struct top_procs *p, bool on)
{
	p->threads = on;
}

static int cmp_tid(const void *a, const void *b)
{
	const struct tent *x = a, *y = b;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* The other threads of process `pid` as rows appended to *rows (*nrows,
 * *cap), and their CPU time into *nt (the next scan's previous). */
static void add_threads(struct top_procs *p, const char *procfs, int pid, double interval,
                        struct top_proc **rows, unsigned *nrows, unsigned *cap, struct tent **nt,
                        unsigned *nnt, unsigned *ntcap)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%d/task", procfs, pid);
	DIR *d = opendir(path);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		long tid = strtol(de->d_name, NULL, 10);
		if (tid <= 0 || tid > INT32_MAX || tid == pid)
			continue;
		struct pent e;
		memset(&e, 0, sizeof(e));
		snprintf(path, sizeof(path), "%s/%d/task/%ld/stat", procfs, pid, tid);
		int err;
		if (!read_stat_path(path, &e, &err))
			continue; /* gone since readdir (a thread row, not the table) */
		struct tent key = {.tid = (int)tid}, *old = NULL;
		if (p->nr_th)
			old = bsearch(&key, p->th, p->nr_th, sizeof(*p->th), cmp_tid);
		if (*nnt == *ntcap) {
			*ntcap = *ntcap ? *ntcap * 2 : 64;
			*nt = xreallocarray(*nt, *ntcap, sizeof(**nt));
		}
		(*nt)[(*nnt)++] = (struct tent){.tid = (int)tid, .ticks = e.ticks};
		if (*nrows == *cap) {
			*cap = *cap ? *cap * 2 : 64;
			*rows = xreallocarray(*rows, *cap, sizeof(**rows));
		}
		struct top_proc *t = &(*rows)[(*nrows)++];
		memset(t, 0, sizeof(*t));
		t->pid = (int)tid;
		t->tgid = pid;
		t->thread = true;
		snprintf(t->name, sizeof(t->name), "%s", e.comm);
		for (unsigned k = 0; k < TOP_MAX_PCOLS; k++)
			t->v[k] = (double)NAN;
		snprintf(path, sizeof(path), "%s/%d/task/%ld", procfs, pid, tid);
		fill_host(p, path, &e, t);
		/* a thread new since the last scan: all its CPU time is recent,
		 * as for a process */
		uint64_t prev = old ? old->ticks : 0;
		t->v[PC_CPU] = interval > 0
		                   ? 100.0 * (double)(e.ticks - prev) / (double)p->hz / interval
		                   : (double)NAN;
	}
	if (d)
		closedir(d);
}

static int cmp_pid(const void *a, const void *b)
{
	const struct pent *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static struct pent *find(struct top_procs *p, int pid)
{
	struct pent key = {.pid = pid};
	return p->nr ? bsearch(&key, p->e, p->nr, sizeof(*p->e), cmp_pid) : NULL;
}

static int cmp_busy(const void *a, const void *b)
{
	const struct pent *const *x = a, *const *y = b;
	uint64_t dx = (*x)->ticks - (*x)->prev_ticks, dy = (*y)->ticks - (*y)->prev_ticks;
	if (dx != dy)
		return dx < dy ? 1 : -1;
	if ((*x)->ticks != (*y)->ticks)
		return (*x)->ticks < (*y)->ticks ? 1 : -1;
	return ((*x)->pid > (*y)->pid) - ((*x)->pid < (*y)->pid);
}

static void add_gone(struct top_procs *p, const struct pent *e, unsigned max)
{
	if (p->nr_gone >= max && p->nr_gone) {
		/* the oldest goes */
		memmove(p->gone, p->gone + 1, (p->nr_gone - 1) * sizeof(*p->gone));
		p->nr_gone--;
	}
	p->gone = xreallocarray(p->gone, p->nr_gone + 1, sizeof(*p->gone));
	struct top_proc *g = &p->gone[p->nr_gone++];
	memset(g, 0, sizeof(*g));
	g->pid = e->pid;
	snprintf(g->name, sizeof(g->name), "%s", e->comm);
	snprintf(g->extra, sizeof(g->extra), "exited");
	for (unsigned k = 0; k < TOP_MAX_PCOLS; k++)
		g->v[k] = (double)NAN;
	g->exited = true;
}

/* Every process of procfs (only pid when pid > 0) with its stat read, by
 * pid; a process that exits meanwhile is skipped. 0, or -errno with why. */
static int scan_procs(const char *procfs, int pid, struct pent **out, unsigned *nout, char *why,
                      size_t whylen)
{
	struct pent *ne = NULL;
	unsigned nn = 0, cap = 0;
	int fail = 0;
	DIR *d = opendir(procfs);
	if (!d) {
		fail = errno;
		snprintf(why, whylen, "cannot list %s: %s", procfs, strerror(fail));
		return -fail;
	}
	struct dirent *de;
	for (;;) {
		errno = 0;
		if (!(de = readdir(d))) {
			if (errno) {
				fail = errno;
				snprintf(why, whylen, "cannot list %s: %s", procfs, strerror(fail));
			}
			break;
		}
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		long v = strtol(de->d_name, NULL, 10);
		if (v <= 0 || v > INT32_MAX || (pid > 0 && v != pid))
			continue;
		if (nn == cap) {
			cap = cap ? cap * 2 : 256;
			ne = xreallocarray(ne, cap, sizeof(*ne));
		}
		struct pent *e = &ne[nn];
		memset(e, 0, sizeof(*e));
		e->pid = (int)v;
		for (unsigned k = 0; k < NR_SW; k++)
			e->fd[k] = -1;
		/* a process that exits between readdir and the read is skipped */
		int err;
		if (read_stat(procfs, e->pid, e, &err)) {
			nn++;
		} else if (err) {
			fail = err;
			snprintf(why, whylen, "cannot read %s/%d/stat: %s", procfs, e->pid,
			         strerror(err));
			break;
		}
	}
	closedir(d);
	if (fail) {
		/* the processes did not exit: the previous scan and its counters
		 * stay, and the frame says why it has no table */
		free(ne);
		return -fail;
	}
	*out = ne;
	*nout = nn;
	return 0;
}

/* The new scan ne[0..nn) takes over each process's counters and last CPU
 * time from the previous scan; what is left of it exited (kept as gone
 * rows when sticky). */
static void replace_scan(struct top_procs *p, struct pent *ne, unsigned nn, unsigned n, bool sticky)
{
	if (nn)
		qsort(ne, nn, sizeof(*ne), cmp_pid);
	/* carry state over from the previous scan */
	for (unsigned i = 0; i < nn; i++) {
		struct pent *o = find(p, ne[i].pid);
		if (!o)
			continue;
		ne[i].prev_ticks = o->ticks;
		ne[i].have_prev = true;
		memcpy(ne[i].fd, o->fd, sizeof(o->fd));
		memcpy(ne[i].last, o->last, sizeof(o->last));
		ne[i].have_last = o->have_last;
		ne[i].chosen = o->chosen;
		o->fd[0] = o->fd[1] = o->fd[2] = -1; /* moved */
		o->chosen = false;
	}
	/* the rest of the old list exited */
	for (unsigned i = 0; i < p->nr; i++) {
		/* room for several tables' worth, so churn elsewhere does not
		 * push out the exit being watched at once */
		if (p->e[i].chosen && sticky)
			add_gone(p, &p->e[i], 4 * n + 16);
		close_counters(&p->e[i]);
	}
	free(p->e);
	p->e = ne;
	p->nr = nn;
	if (!nn)
		p->e = NULL;
}

/* The busiest processes first; the first take of them (at most counted)
 * get counters, a few opens per frame. Returns the order (the caller frees
 * it); *short_of_fds processes could not open for lack of descriptors or
 * memory (*open_err). */
static struct pent **choose_counted(struct pent *ne, unsigned nn, unsigned take, unsigned counted,
                                    unsigned *short_of_fds_out, int *open_err_out)
{
	/* the busiest n */
	struct pent **order = xcalloc(nn ? nn : 1, sizeof(*order));
	for (unsigned i = 0; i < nn; i++)
		order[i] = &ne[i];
	if (nn)
		qsort(order, nn, sizeof(*order), cmp_busy);
	unsigned opened = 0, short_of_fds = 0;
	int open_err = 0;
	for (unsigned i = 0; i < nn; i++) {
		struct pent *e = order[i];
		bool want = i < take && i < counted;
		if (!want && e->chosen)
			close_counters(e);
		if (want && !e->chosen) {
			/* A full table is three syscalls per process: spread the opens
			 * over a few frames so no frame misses its tick; the rest show
			 * '-' until their turn, as a new process does anyway. */
			if (opened++ >= TOP_OPENS_PER_FRAME)
				continue;
			int err = open_counters(e);
			/* another user's process or a kernel thread is '-' as perf
			 * would refuse it; running out of descriptors or memory is
			 * this program's trouble, and the frame says so */
			if (err == EMFILE || err == ENFILE || err == ENOMEM) {
				short_of_fds++;
				open_err = err;
			}
		}
		e->chosen = want;
	}
	*short_of_fds_out = short_of_fds;
	*open_err_out = open_err;
	return order;
}

int top_procs_sample(struct top_procs *p, double interval, unsigned n, int pid, bool sticky,
                     struct top_proc **out, unsigned *nout, unsigned *total, char *why,
                     size_t whylen)
{
	const char *procfs = hpm_procfs_root();
	struct pent *ne = NULL;
	unsigned nn = 0;
	*out = NULL;
	*nout = *total = 0;
	int rc = scan_procs(procfs, pid, &ne, &nn, why, whylen);
	if (rc)
		return rc;
	replace_scan(p, ne, nn, n, sticky);

	/* n 0: every process is listed, as htop lists them, and the busiest
	 * TOP_COUNTED_PROCS have counters (3 descriptors each) */
	unsigned take = n && nn > n ? n : nn, short_of_fds;
	unsigned counted = n ? n : TOP_COUNTED_PROCS;
	int open_err;
	struct pent **order = choose_counted(ne, nn, take, counted, &short_of_fds, &open_err);
	unsigned rows = take + (sticky ? p->nr_gone : 0);
	struct top_proc *r = xcalloc(rows ? rows : 1, sizeof(*r));
	for (unsigned i = 0; i < take; i++) {
		struct pent *e = order[i];
		read_counters(e);
		struct top_proc *t = &r[i];
		t->pid = e->pid;
		t->tgid = e->pid;
		snprintf(t->name, sizeof(t->name), "%s", e->comm);
		for (unsigned k = 0; k < TOP_MAX_PCOLS; k++)
			t->v[k] = (double)NAN;
		char dir[256];
		snprintf(dir, sizeof(dir), "%s/%d", procfs, e->pid);
		fill_host(p, dir, e, t);
		/* signed: CPU time that went backwards (a pid reused between two
		 * scans) is a negative share, which the views flag */
		t->v[PC_CPU] = interval > 0 ? 100.0 * ((double)e->ticks - (double)e->prev_ticks) /
		                                  (double)p->hz / interval
		                            : (double)NAN;
		for (unsigned k = PC_TASK; k <= PC_FAULTS; k++)
			t->v[k] = e->v[k];
	}
	for (unsigned i = 0; sticky && i < p->nr_gone; i++)
		r[take + i] = p->gone[i];
	free(order);
	struct tent *nt = NULL;
	unsigned nnt = 0, ntcap = 0;
	if (p->threads) {
		unsigned rcap = rows ? rows : 1;
		for (unsigned i = 0; i < take; i++)
			add_threads(p, procfs, r[i].pid, interval, &r, &rows, &rcap, &nt, &nnt,
			            &ntcap);
		if (nnt)
			qsort(nt, nnt, sizeof(*nt), cmp_tid);
	}
	free(p->th);
	p->th = nt;
	p->nr_th = nnt;
	*out = r;
	*nout = rows;
	*total = nn;
	if (short_of_fds)
		snprintf(why, whylen, "per-task counters of %u processes could not open: %s",
		         short_of_fds, strerror(open_err));
	return 0;
}

void top_procs_free(struct top_procs *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->nr; i++)
		close_counters(&p->e[i]);
	free(p->e);
	free(p->gone);
	free(p->th);
	free(p->users);
	free(p);
}
