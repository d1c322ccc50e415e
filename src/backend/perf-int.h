/* perf-int.h: the parts of the perf back end (perf.h), not exported.
 *
 * Owns: an open instance's state (struct perf_inst, its rows' struct
 * perf_ev and its places), the small helpers every part uses, and what
 * each part gives the others. The parts follow perf's own seams:
 * perf.c the operations table, attrs and open/read (perf's evsel.c,
 * evlist.c); perf-target.c the places of a target: CPU lists, threads,
 * cgroups (perf's util/target.c, cpumap.c, thread_map.c, cgroup.c);
 * perf-strerror.c the one-line advice on a failed open
 * (evsel__open_strerror); perf-bpf.c the BPF task attribution
 * (perf's bpf_counter.c).
 */
#ifndef HPM_BACKEND_PERF_INT_H
#define HPM_BACKEND_PERF_INT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "backend/perf.h"

struct hpm_taskcount;

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

/* The text an evsel is named by in messages: what the user wrote. */
static inline const char *label(const struct hpm_evsel *ev)
{
	if (ev->spec && *ev->spec)
		return ev->spec;
	return ev->name ? ev->name : "?";
}

/* The errors perf stat shows as <not supported> and goes on. */
static inline bool errno_not_supported(int e)
{
	return e == ENOENT || e == EOPNOTSUPP || e == ENODEV || e == ENXIO;
}

/* -a or -C: count per CPU. A pid next to them is the forked workload, which
 * only bounds the run (the CLI resolves -p with -a/-C as perf does: the pid
 * wins, and it clears them). */
static inline bool cpu_target(const struct hpm_target *t)
{
	return t->system_wide || t->cpu_list;
}

/* The k-th row it took. */
static inline struct hpm_evsel *row(const struct perf_inst *s, unsigned k)
{
	return &s->base.list->ev[s->base.rows[k]];
}

/* perf-target.c */
int perf_make_places(struct perf_inst *s, const struct hpm_target *t, char ***units,
                     unsigned *nr_units, bool *task, char *err, size_t errlen);
int perf_tid_list_threads(const char *list, pid_t **out, unsigned *nr, char *err, size_t errlen);
void perf_format_cpus(const int *c, unsigned n, char *buf, size_t len);
int perf_open_cgroup(const struct hpm_evsel *ev, struct perf_ev *pv, const struct hpm_target *t,
                     char *err, size_t errlen);

/* perf-strerror.c */
const char *perf_errno_name(int e);

/* perf-bpf.c */
bool perf_bpf_tasks(const struct hpm_target *t);
int perf_bpf_places(struct perf_inst *s, char ***units, unsigned *nr_units, char *err,
                    size_t errlen);
int perf_bpf_attach(struct perf_inst *s, const struct hpm_target *t, char *err, size_t errlen);
int perf_bpf_read(struct perf_inst *s, char *err, size_t errlen);

#endif
