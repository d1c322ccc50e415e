/* perf-bpf.c: target->bpf, the rows' per-CPU counters charged to tasks
 * by the BPF program of src/bpf (perf's bpf_counter.c); see perf.h. */
#include "backend/perf-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/taskcount.h"
#include "util/xalloc.h"

/* target->bpf: the counters of the rows are opened once per CPU, and the
 * BPF program of src/bpf charges their deltas to the task switched out at
 * every context switch; the units are then the tasks of its table: the
 * target's (-p: the process's threads, -t: those threads, as perf's
 * --bpf-counters filters by tgid or pid), one unit "task" or one per thread
 * or per process. -a/-C without --per-thread or --per-task count per CPU as
 * without BPF (perf's global and CPU filters are the plain counts). */
bool perf_bpf_tasks(const struct hpm_target *t)
{
	if (t->bpf == HPM_TARGET_BPF_NO || (t->cpu_list && !t->system_wide))
		return false;
	if (t->system_wide)
		return t->per_thread || t->per_process;
	return t->bpf == HPM_TARGET_BPF_REQUIRE && (t->pid > 0 || t->tid_list);
}

/* The places of a BPF target: every online CPU, one unit "task" until the
 * first read. */
int perf_bpf_places(struct perf_inst *s, char ***units, unsigned *nr_units, char *err,
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
int perf_bpf_attach(struct perf_inst *s, const struct hpm_target *t, char *err, size_t errlen)
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
		perf_tid_list_threads(t->tid_list, &s->bpf_tids, &s->nr_bpf_tids, err, errlen);
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
int perf_bpf_read(struct perf_inst *s, char *err, size_t errlen)
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
