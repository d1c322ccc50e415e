/* tasks.c: perf report's --stats, --tasks and --mmaps (tasks.h), after
 * perf 6.1's builtin-report.c (stats_print, tasks_print), ui/stdio/hist.c
 * (events_stats__fprintf), util/machine.c, thread.c, maps.c, map.c and
 * ordered-events.c. Everything is read and built first and printed at the
 * end, so that a failure prints nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/perf-file.h"
#include "perfdata/reader.h"
#include "report/tasks.h"
#include "util/hash.h"
#include "util/str.h"
#include "util/xalloc.h"

#define HEADER_MAX 83 /* perf 6.1's PERF_RECORD_HEADER_MAX: a type beyond fails */
#define NONE       SIZE_MAX

/* perf_event__names: "" where perf has none (its "UNKNOWN", not listed) */
static const char *const rec_names[HEADER_MAX] = {
    [0] = "TOTAL",
    [PERF_RECORD_MMAP] = "MMAP",
    [PERF_RECORD_LOST] = "LOST",
    [PERF_RECORD_COMM] = "COMM",
    [PERF_RECORD_EXIT] = "EXIT",
    [PERF_RECORD_THROTTLE] = "THROTTLE",
    [PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
    [PERF_RECORD_FORK] = "FORK",
    [PERF_RECORD_READ] = "READ",
    [PERF_RECORD_SAMPLE] = "SAMPLE",
    [PERF_RECORD_MMAP2] = "MMAP2",
    [11] = "AUX",
    [12] = "ITRACE_START",
    [13] = "LOST_SAMPLES",
    [14] = "SWITCH",
    [15] = "SWITCH_CPU_WIDE",
    [16] = "NAMESPACES",
    [17] = "KSYMBOL",
    [18] = "BPF_EVENT",
    [19] = "CGROUP",
    [20] = "TEXT_POKE",
    [21] = "AUX_OUTPUT_HW_ID",
    [PERF_RECORD_HEADER_ATTR] = "ATTR",
    [PERF_RECORD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
    [PERF_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
    [PERF_RECORD_HEADER_BUILD_ID] = "BUILD_ID",
    [PERF_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
    [PERF_RECORD_ID_INDEX] = "ID_INDEX",
    [PERF_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
    [PERF_RECORD_AUXTRACE] = "AUXTRACE",
    [PERF_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
    [PERF_RECORD_THREAD_MAP] = "THREAD_MAP",
    [PERF_RECORD_CPU_MAP] = "CPU_MAP",
    [PERF_RECORD_STAT_CONFIG] = "STAT_CONFIG",
    [PERF_RECORD_STAT] = "STAT",
    [PERF_RECORD_STAT_ROUND] = "STAT_ROUND",
    [PERF_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
    [PERF_RECORD_TIME_CONV] = "TIME_CONV",
    [PERF_RECORD_HEADER_FEATURE] = "FEATURE",
    [PERF_RECORD_COMPRESSED] = "COMPRESSED",
    [PERF_RECORD_FINISHED_INIT] = "FINISHED_INIT",
};

/* ------------------------------------------------------------ --stats */

/* perf's evlist__id2evsel: the only event, or the id's; of a record
 * without an id the first event unless the records carry ids. */
static int event_of(const struct pd_file *f, const struct pd_record *r)
{
	if (f->nr_ev == 1)
		return 0;
	if (r->ev >= 0)
		return r->ev;
	return f->nr_ev && !f->ev[0].attr.sample_id_all ? 0 : -1;
}

static void stats_print(struct pd_file *f, const uint32_t *nr, const uint32_t *samples,
                        const uint32_t *lost, bool auxtrace, FILE *o)
{
	fprintf(o, "\nAggregated stats:%s\n",
	        auxtrace ? " (excludes AUX area (e.g. instruction trace) decoded / synthesized "
	                   "events)"
	                 : "");
	for (unsigned t = 0; t < HEADER_MAX; t++) {
		if (!rec_names[t] || !nr[t])
			continue;
		/* perf's %d of a u32 */
		if (t && nr[0])
			fprintf(o, "%16s events: %10d  (%4.1f%%)\n", rec_names[t], (int)nr[t],
			        100.0 * nr[t] / nr[0]);
		else
			fprintf(o, "%16s events: %10d\n", rec_names[t], (int)nr[t]);
	}
	for (unsigned i = 0; i < f->nr_ev; i++) {
		char buf[256];
		if (!samples[i] && !lost[i])
			continue;
		fprintf(o, "%s stats:\n", pd_event_name(f, i, buf, sizeof(buf)));
		if (samples[i])
			fprintf(o, "%16s events: %10d\n", "SAMPLE", (int)samples[i]);
		if (lost[i])
			fprintf(o, "%16s events: %10d\n", "LOST_SAMPLES", (int)lost[i]);
	}
}

/* ------------------------------------------------- perf's struct machine */

struct dso {
	const char *name;
	uint32_t maj, min;
	uint64_t ino, ino_gen;
};

struct map {
	uint64_t start, end, pgoff;
	uint32_t prot, flags;
	size_t dso;
};

struct maps { /* a process's, by start (perf's rb tree: equal starts after) */
	struct map *m;
	size_t n;
};

struct thr {
	int32_t pid, tid, ppid;
	const char *comm; /* the latest (perf's comm list's first), NULL: own */
	char own[16];     /* ":TID", the comm of a thread none was given */
	bool comm_set, live, has_ns;
	int32_t ns_pid; /* perf's nsinfo: the pid it was made with (none for 0) */
	size_t maps;
	/* tasks_print's lists */
	bool listed;
	size_t child, last_child, next;
};

struct machine {
	struct thr *t;
	size_t nt;
	struct hpm_u64map by_tid; /* live threads: tid -> index + 1 */
	struct maps *g;
	size_t ng;
	struct dso *d;
	size_t nd;
	size_t vdso; /* NONE until a [vdso] map */
	bool mmaps;
	char **names; /* the /tmp/perf-PID.map names made */
	size_t nnames;
};

static size_t new_maps(struct machine *m)
{
	m->g = xgrow(m->g, m->ng, sizeof(*m->g));
	m->g[m->ng] = (struct maps){0};
	return m->ng++;
}

static size_t lookup(struct machine *m, int32_t tid)
{
	uint64_t *v = hpm_u64map_find(&m->by_tid, (uint32_t)tid);
	return v ? (size_t)*v - 1 : NONE;
}

static size_t findnew(struct machine *m, int32_t pid, int32_t tid, bool create);

/* machine__update_thread_pid: a thread first seen without its pid joins
 * its process's maps once a record names the pid */
static void update_pid(struct machine *m, size_t i, int32_t pid)
{
	if (pid == m->t[i].pid || pid == -1 || m->t[i].pid != -1)
		return;
	m->t[i].pid = pid;
	if (pid == m->t[i].tid)
		return;
	size_t l = findnew(m, pid, pid, true);
	m->t[i].maps = m->t[l].maps;
}

/* ____machine__findnew_thread: the live thread of tid (its pid updated),
 * else with create a new one, which shares its leader's maps */
static size_t findnew(struct machine *m, int32_t pid, int32_t tid, bool create)
{
	size_t i = lookup(m, tid);
	if (i != NONE) {
		update_pid(m, i, pid);
		return i;
	}
	if (!create)
		return NONE;
	m->t = xgrow(m->t, m->nt, sizeof(*m->t));
	i = m->nt++;
	struct thr *t = &m->t[i];
	*t = (struct thr){.pid = pid, .tid = tid, .ppid = -1, .live = true};
	snprintf(t->own, sizeof(t->own), ":%d", tid);
	t->has_ns = pid != 0;
	t->ns_pid = pid;
	t->child = t->last_child = t->next = NONE;
	*hpm_u64map_get(&m->by_tid, (uint32_t)tid, NULL) = i + 1;
	if (pid == tid || pid == -1) {
		size_t g = new_maps(m);
		m->t[i].maps = g;
	} else {
		size_t l = findnew(m, pid, pid, true);
		m->t[i].maps = m->t[l].maps;
	}
	return i;
}

static void remove_thread(struct machine *m, size_t i)
{
	hpm_u64map_del(&m->by_tid, (uint32_t)m->t[i].tid);
	m->t[i].live = false;
}

/* maps__insert: after the maps of the same start */
static void maps_insert(struct maps *g, struct map mp)
{
	size_t at = g->n;
	while (at && g->m[at - 1].start > mp.start)
		at--;
	g->m = xgrow(g->m, g->n, sizeof(*g->m));
	memmove(g->m + at + 1, g->m + at, (g->n - at) * sizeof(*g->m));
	g->m[at] = mp;
	g->n++;
}

/* maps__fixup_overlappings: the maps mp overlaps lose what it covers */
static void fixup_overlaps(struct maps *g, struct map mp)
{
	size_t i = 0;
	while (i < g->n && g->m[i].end <= mp.start)
		i++;
	while (i < g->n) {
		struct map pos = g->m[i];
		if (pos.start >= mp.end)
			break;
		memmove(g->m + i, g->m + i + 1, (g->n - i - 1) * sizeof(*g->m));
		g->n--;
		if (mp.start > pos.start) {
			struct map before = pos;
			before.end = mp.start;
			maps_insert(g, before);
			i++;
		}
		if (mp.end < pos.end) {
			struct map after = pos;
			after.start = mp.end;
			after.pgoff += mp.end - pos.start;
			maps_insert(g, after);
			i++;
		}
	}
}

/* dsos__findnew_id: one dso a name; an id given where it had none is
 * its id from then on; two different ids make two dsos */
static size_t findnew_dso(struct machine *m, const char *name, const struct dso *id)
{
	bool empty = !id || (!id->maj && !id->min && !id->ino && !id->ino_gen);
	for (size_t i = 0; i < m->nd; i++) {
		struct dso *d = &m->d[i];
		bool dempty = !d->maj && !d->min && !d->ino && !d->ino_gen;
		if (strcmp(d->name, name) != 0)
			continue;
		if (!empty && !dempty &&
		    (d->maj != id->maj || d->min != id->min || d->ino != id->ino ||
		     d->ino_gen != id->ino_gen))
			continue;
		if (dempty && !empty) {
			d->maj = id->maj;
			d->min = id->min;
			d->ino = id->ino;
			d->ino_gen = id->ino_gen;
		}
		return i;
	}
	m->d = xgrow(m->d, m->nd, sizeof(*m->d));
	m->d[m->nd] = id ? *id : (struct dso){0};
	m->d[m->nd].name = name;
	return m->nd++;
}

/* machine__process_mmap{,2}_event and map__new */
static void do_mmap(struct machine *m, const struct pd_record *r)
{
	unsigned mode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL)
		return; /* the kernel's maps: no thread's */
	size_t i = findnew(m, (int32_t)r->u.mmap.pid, (int32_t)r->u.mmap.tid, true);
	bool two = r->type == PERF_RECORD_MMAP2;
	const char *name = r->u.mmap.filename;
	struct map mp = {.start = r->u.mmap.start,
	                 .end = r->u.mmap.start + r->u.mmap.len,
	                 .pgoff = r->u.mmap.pgoff};
	struct dso id = {0};
	if (two) {
		mp.prot = r->u.mmap.prot;
		mp.flags = r->u.mmap.flags;
		id = (struct dso){.maj = r->u.mmap.maj,
		                  .min = r->u.mmap.min,
		                  .ino = r->u.mmap.ino,
		                  .ino_gen = r->u.mmap.ino_generation};
	} else if (!(r->misc & PERF_RECORD_MISC_MMAP_DATA)) {
		mp.prot = PROT_EXEC;
	}
	bool anon = !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	            !strncmp(name, "/anon_hugepage", 14) || mp.flags & MAP_HUGETLB;
	bool no_dso =
	    !strncmp(name, "[stack", 6) || !strncmp(name, "/SYSV", 5) || !strcmp(name, "[heap]");
	if ((anon || no_dso) && m->t[i].has_ns && mp.prot & PROT_EXEC) {
		m->names = xgrow(m->names, m->nnames, sizeof(*m->names));
		name = m->names[m->nnames++] = xasprintf("/tmp/perf-%d.map", m->t[i].ns_pid);
	}
	if (!strcmp(name, "[vdso]")) {
		/* perf's vdso dso: found by name, never given an id */
		mp.pgoff = 0;
		if (m->vdso == NONE)
			m->vdso = findnew_dso(m, "[vdso]", NULL), m->d[m->vdso].ino = 0;
		mp.dso = m->vdso;
	} else {
		mp.dso = findnew_dso(m, name, two ? &id : NULL);
	}
	struct maps *g = &m->g[m->t[i].maps];
	fixup_overlaps(g, mp);
	maps_insert(g, mp);
}

/* machine__process_fork_event and thread__fork */
static void do_fork(struct machine *m, const struct pd_record *r)
{
	int32_t pid = (int32_t)r->u.task.pid, tid = (int32_t)r->u.task.tid;
	int32_t ppid = (int32_t)r->u.task.ppid, ptid = (int32_t)r->u.task.ptid;
	size_t th = findnew(m, pid, tid, false);
	size_t pa = findnew(m, ppid, ptid, true);
	/* a thread of that tid that is not the parent: its fork was lost */
	if (m->t[pa].pid != ppid) {
		remove_thread(m, pa);
		pa = findnew(m, ppid, ptid, true);
	}
	if (th != NONE && m->t[th].live)
		remove_thread(m, th);
	th = findnew(m, pid, tid, true);
	if (m->t[pa].comm_set) {
		m->t[th].comm = m->t[pa].comm;
		m->t[th].comm_set = true;
	}
	m->t[th].ppid = m->t[pa].tid;
	/* a new process copies its parent's maps (not a synthesized fork) */
	if (m->t[th].pid == m->t[pa].pid || m->t[th].maps == m->t[pa].maps ||
	    r->misc & PERF_RECORD_MISC_FORK_EXEC || !m->mmaps)
		return;
	struct maps *from = &m->g[m->t[pa].maps];
	for (size_t k = 0; k < from->n; k++) {
		struct map mp = m->g[m->t[pa].maps].m[k];
		maps_insert(&m->g[m->t[th].maps], mp);
	}
}

static void deliver(struct machine *m, const struct pd_record *r)
{
	switch (r->type) {
	case PERF_RECORD_COMM: {
		size_t i = findnew(m, (int32_t)r->u.comm.pid, (int32_t)r->u.comm.tid, true);
		m->t[i].comm = r->u.comm.comm;
		m->t[i].comm_set = true;
		break;
	}
	case PERF_RECORD_FORK:
		do_fork(m, r);
		break;
	case PERF_RECORD_EXIT: /* perf marks the thread dead: it stays listed */
		findnew(m, (int32_t)r->u.task.pid, (int32_t)r->u.task.tid, false);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (m->mmaps)
			do_mmap(m, r);
		break;
	}
}

/* perf's ordered events: the records with a time wait in time order (the
 * same time: in file order) until a FINISHED_ROUND lets out those up to
 * the previous round's latest time; the others go at once */
struct queue {
	struct pd_record *r;
	size_t n;
	uint64_t next_flush, max_ts;
};

static int by_time(const void *a, const void *b)
{
	const struct pd_record *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static void flush(struct machine *m, struct queue *q, uint64_t limit)
{
	size_t k = 0;
	if (!limit)
		return;
	qsort(q->r, q->n, sizeof(*q->r), by_time);
	while (k < q->n && q->r[k].time <= limit)
		deliver(m, &q->r[k++]);
	memmove(q->r, q->r + k, (q->n - k) * sizeof(*q->r));
	q->n -= k;
}

/* tasks_list and task__print_level, without recursion (a file can make
 * chains as long as it has threads) */
static int tasks_print(struct machine *m, FILE *o)
{
	size_t *order = xcalloc(m->nt + 1, sizeof(*order)), n = 0;
	for (size_t i = 0; i < m->nt; i++)
		if (m->t[i].live)
			order[n++] = i;
	/* perf's table: by tid modulo 256, then by tid */
	for (size_t a = 1; a < n; a++) {
		size_t v = order[a], b = a;
		uint32_t kv = (uint32_t)m->t[v].tid % 256;
		while (b > 0) {
			const struct thr *u = &m->t[order[b - 1]];
			uint32_t ku = (uint32_t)u->tid % 256;
			if (ku < kv || (ku == kv && u->tid <= m->t[v].tid))
				break;
			order[b] = order[b - 1];
			b--;
		}
		order[b] = v;
	}
	size_t roots = NONE, last_root = NONE;
	for (size_t k = 0; k < n; k++) {
		size_t i = order[k];
		for (;;) { /* tasks_list */
			struct thr *t = &m->t[i];
			if (t->listed)
				break;
			if (t->ppid == -1) {
				t->listed = true;
				if (last_root == NONE)
					roots = i;
				else
					m->t[last_root].next = i;
				last_root = i;
				break;
			}
			size_t p = lookup(m, t->ppid);
			if (p == NONE) {
				free(order);
				return -1;
			}
			t->listed = true;
			if (m->t[p].last_child == NONE)
				m->t[p].child = i;
			else
				m->t[m->t[p].last_child].next = i;
			m->t[p].last_child = i;
			i = p;
		}
	}
	fprintf(o, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
	/* depth first: the stack holds each level's next sibling */
	size_t *stack = order, depth = 0, i = roots;
	while (i != NONE) {
		const struct thr *t = &m->t[i];
		int ind = fprintf(o, "  %8d %8d %8d |%*s", t->pid, t->tid, t->ppid, (int)depth, "");
		fprintf(o, "%s\n", t->comm ? t->comm : t->own);
		const struct maps *g = &m->g[t->maps];
		for (size_t k = 0; m->mmaps && k < g->n; k++) {
			const struct map *mp = &g->m[k];
			fprintf(
			    o,
			    "%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64 " %" PRIu64 " %s\n",
			    ind < 0 ? 0 : ind, "", mp->start, mp->end,
			    mp->prot & PROT_READ ? 'r' : '-', mp->prot & PROT_WRITE ? 'w' : '-',
			    mp->prot & PROT_EXEC ? 'x' : '-', mp->flags & MAP_SHARED ? 's' : 'p',
			    mp->pgoff, m->d[mp->dso].ino, m->d[mp->dso].name);
		}
		if (t->child != NONE) {
			stack[depth++] = t->next;
			i = t->child;
			continue;
		}
		i = t->next;
		while (i == NONE && depth)
			i = stack[--depth];
	}
	free(order);
	return 0;
}

/* ------------------------------------------------------------ the file */

/* Whether perf would read past the end of the file: a data section or the
 * ids of an event beyond it (perf's reads of a feature section cut short
 * only leave that feature out: the reader's partial covers those too). */
static bool cut_short(const struct pd_file *f)
{
	const uint8_t *b = f->buf;
	if (f->pipe)
		return false;
	uint64_t asz = pf_get64(b + 16), aoff = pf_get64(b + 24),
	         an = asz ? pf_get64(b + 32) / asz : 0;
	uint64_t doff = pf_get64(b + 40), dsz = pf_get64(b + 48);
	if (doff > f->len || dsz > f->len - doff)
		return true;
	for (uint64_t i = 0; asz > 16 && i < an && aoff + (i + 1) * asz <= f->len; i++) {
		uint64_t io = pf_get64(b + aoff + i * asz + asz - 16);
		uint64_t is = pf_get64(b + aoff + i * asz + asz - 8);
		if (io > f->len || is > f->len - io)
			return true;
	}
	return false;
}

static int listing(struct pd_file *f, enum rs_listing what, FILE *out, const char *path, char *err,
                   size_t errlen)
{
	struct pd_record r;
	uint32_t nr[HEADER_MAX] = {0};
	uint32_t *samples = NULL, *lost = NULL;
	size_t nev = 0;
	bool auxtrace =
	    !f->pipe && f->len >= 104 && pf_get64(f->buf + 72) >> PERF_FEAT_AUXTRACE & 1;
	struct machine m = {.vdso = NONE, .mmaps = what == RS_LIST_MMAPS};
	struct queue q = {0};
	int rc = -1;
	f->every = true;
	/* the data section's records whole (pd_next sets partial where they
	 * stop being readable; what was set before is of the header) */
	f->partial = false;
	/* perf_session__register_idle_thread */
	size_t idle = findnew(&m, 0, 0, true);
	m.t[idle].comm = "swapper";
	m.t[idle].comm_set = true;
	while (pd_next(f, &r)) {
		if (r.type >= HEADER_MAX) {
			str_seterr(err, errlen,
			           "%s: record at byte %" PRIu64
			           " has type %u, which perf 6.1 does not "
			           "know: perf stops there",
			           path, r.offset, r.type);
			goto out;
		}
		if (r.type == PERF_RECORD_COMPRESSED) {
			str_seterr(err, errlen,
			           "%s: compressed records (perf record -z): not supported", path);
			goto out;
		}
		nr[0]++;
		nr[r.type]++;
		if (r.type == PERF_RECORD_HEADER_FEATURE && r.size >= 16 &&
		    pf_get64(f->buf + r.offset + 8) == PERF_FEAT_AUXTRACE)
			auxtrace = true;
		if (nev < f->nr_ev) { /* pipe mode: the events come as records */
			samples = xreallocarray(samples, f->nr_ev, sizeof(*samples));
			lost = xreallocarray(lost, f->nr_ev, sizeof(*lost));
			memset(samples + nev, 0, (f->nr_ev - nev) * sizeof(*samples));
			memset(lost + nev, 0, (f->nr_ev - nev) * sizeof(*lost));
			nev = f->nr_ev;
		}
		if (what == RS_LIST_STATS) {
			int ev = event_of(f, &r);
			if (r.type == PERF_RECORD_SAMPLE && r.ev >= 0 && ev >= 0)
				samples[ev]++;
			else if (r.type == PERF_RECORD_LOST_SAMPLES && ev >= 0)
				lost[ev] += (uint32_t)r.u.lost.lost;
			continue;
		}
		if (r.type == PERF_RECORD_FINISHED_ROUND) {
			flush(&m, &q, q.next_flush);
			q.next_flush = q.max_ts;
			continue;
		}
		/* perf's user records are not queued; a record perf could not
		 * make sense of either (this reads it as garbage) */
		if (r.type >= PERF_RECORD_HEADER_ATTR || r.unread)
			continue;
		if (!r.has_time || !r.time || r.time == UINT64_MAX) {
			deliver(&m, &r);
			continue;
		}
		if (r.time > q.max_ts)
			q.max_ts = r.time;
		if (r.type == PERF_RECORD_COMM || r.type == PERF_RECORD_FORK ||
		    r.type == PERF_RECORD_EXIT || r.type == PERF_RECORD_MMAP ||
		    r.type == PERF_RECORD_MMAP2) {
			q.r = xgrow(q.r, q.n, sizeof(*q.r));
			q.r[q.n++] = r;
		}
	}
	bool records_cut = f->partial;
	if (records_cut || cut_short(f)) {
		str_seterr(err, errlen, "%s: %s: no listing of a file cut short or damaged", path,
		           records_cut
		               ? "the data section's records stop being whole"
		               : "the file ends inside its data section or its events' ids");
		goto out;
	}
	if (what == RS_LIST_STATS) {
		stats_print(f, nr, samples, lost, auxtrace, out);
	} else {
		flush(&m, &q, UINT64_MAX);
		if (tasks_print(&m, out) != 0) {
			str_seterr(err, errlen,
			           "%s: a thread's parent is not in the file: perf's \"failed to "
			           "process tasks\"",
			           path);
			goto out;
		}
	}
	rc = 0;
out:
	free(samples);
	free(lost);
	free(q.r);
	for (size_t i = 0; i < m.ng; i++)
		free(m.g[i].m);
	free(m.g);
	free(m.t);
	free(m.d);
	for (size_t i = 0; i < m.nnames; i++)
		free(m.names[i]);
	free(m.names);
	hpm_u64map_free(&m.by_tid);
	return rc;
}

int rs_listing_fprintf(const char *path, int fd, enum rs_listing what, FILE *out, char *err,
                       size_t errlen)
{
	struct pd_file f;
	struct stat st;
	int rc;
	bool stdin_fd = fd >= 0;
	if (fd < 0) {
		if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
			char *data = xasprintf("%s/data", path);
			bool pd = !access(data, F_OK);
			free(data);
			str_seterr(
			    err, errlen, "%s: %s", path,
			    pd ? "a perf.data directory (perf record --threads): not supported"
			       : "a directory, not a perf.data");
			return -1;
		}
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			str_seterr(err, errlen, "failed to open %s: %s", path, strerror(errno));
			return -1;
		}
		if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size == 0) {
			str_seterr(err, errlen, "zero-sized data (%s), nothing to do!", path);
			close(fd);
			return -1;
		}
		rc = pd_open_fd(&f, fd, path, err, errlen);
		close(fd);
	} else {
		if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size == 0) {
			str_seterr(err, errlen, "zero-sized data (%s), nothing to do!", path);
			return -1;
		}
		rc = pd_open_fd(&f, fd, path, err, errlen);
	}
	if (rc != 0)
		return -1;
	if (stdin_fd && !f.pipe) {
		str_seterr(err, errlen,
		           "%s: incompatible file format (perf reads standard input as a pipe: a "
		           "perf.data of file mode is read with -i FILE)",
		           path);
		pd_close(&f);
		return -1;
	}
	rc = listing(&f, what, out, path, err, errlen);
	pd_close(&f);
	if (rc == 0 && (fflush(out) || ferror(out))) {
		str_seterr(err, errlen, "writing the listing: %s", strerror(errno));
		rc = -1;
	}
	return rc;
}
