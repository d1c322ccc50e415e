/* view-state.c: the state behind `hpmstat top`'s views, struct top_model
 * (see top.h): its counting session, drill-down and the frames it samples.
 *
 * One hpm_session counts everything; a refresh takes the difference of
 * the cumulative counts since the previous refresh, so every figure on
 * screen is a rate over the last interval, not since start. Topdown per
 * hart or CPU is the same metric evaluation as `hpmstat stat`'s, the
 * session's of one unit (hpm_session_metrics_unit) on those differences.
 *
 * Reprogramming (t, d, u, e) rebuilds the session: the counters and the
 * scheduler's multiplex groups depend on the whole event list, and the
 * emulated harts restart their workload streams (documented in
 * hpmstat-top(1)).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "top/procs.h"
#include "top/tasks.h"
#include "top/top.h"
#include "util/clock.h"
#include "util/provenance.h"
#include "util/xalloc.h"

static const char *const perf_pcols[PC_NR_PERF] = {"%CPU", "TASK-MS", "CSW", "FAULTS",
                                                   "VIRT", "RES",     "NI"};
static const char *const emu_pcols[PC_NR_EMU] = {"CYCLES", "INSTR", "IPC"};

/* rows of the session: [0] cycles, [1] instructions, then the -e columns */
enum { ROW_CYCLES, ROW_INSTR, ROW_FIRST_COL };

static unsigned units_of(const struct hpm_session *s, unsigned i)
{
	return s->all.ev[i].nr_units ? s->all.ev[i].nr_units : 1;
}

/* ------------------------------------------------------------- program */

/* The metric table of the session's model, which -M and the tree read. */
static const struct metric_table *metrics_of(const struct hpm_session *s)
{
	return s->metrics.table;
}

static char *join_children(const struct metric_table *t, const struct metric *m)
{
	/* the focus itself, so its value shows above its children */
	size_t len = strlen(metric_str(m, m->name)) + 2;
	for (unsigned i = 0; i < m->nr_children; i++) {
		const struct metric *c = metric_child(t, m, i);
		len += strlen(metric_str(c, c->name)) + 1;
	}
	char *s = xmalloc(len);
	strcpy(s, metric_str(m, m->name));
	for (unsigned i = 0; i < m->nr_children; i++) {
		const struct metric *c = metric_child(t, m, i);
		strcat(s, ",");
		strcat(s, metric_str(c, c->name));
	}
	return s;
}

/* the -e column count: rows between the fixed pair and the metric rows */
static unsigned nr_event_cols(const struct hpm_session *s)
{
	unsigned n = 0;
	for (unsigned i = ROW_FIRST_COL; i < s->all.nr; i++)
		if (!s->all.ev[i].metric_only)
			n++;
	return n;
}

static int build(struct top_model *m, struct hpm_session *s, char *err, size_t errlen)
{
	struct top_opts *o = m->o;
	hpm_session_init(s, m->emu ? HPM_BACKEND_EMU : HPM_BACKEND_PERF);
	if (o->pmu && hpm_session_set_model(s, o->pmu, err, errlen))
		return -1;
	if (o->topdown_variant && hpm_session_set_variant(s, o->topdown_variant, err, errlen))
		return -1;
	s->emu_cfg = o->emu;
	/* the live view runs until quit: emulated time follows wall time */
	s->emu_cfg.follow_wall = true;
	/* rows [ROW_CYCLES] and [ROW_INSTR]: on the emulator, what its model
	 * counts for them (Kunminghu: mcycle, minstret) */
	char first[2 * HPM_MODEL_TEXT_MAX + 2] = "cycles,instructions";
	if (m->emu) {
		const char *cy = hpm_model_generic_name(s->model, "cycles");
		const char *in = hpm_model_generic_name(s->model, "instructions");
		if (!cy || !in) {
			snprintf(err, errlen, "the emulated %s counts no cycles or no instructions",
			         s->model->display);
			return -1;
		}
		snprintf(first, sizeof(first), "%s,%s", cy, in);
	}
	if (hpm_session_add_events(s, first, err, errlen))
		return -1;
	if (o->events && hpm_session_add_events(s, o->events, err, errlen)) {
		if (o->events_origin) {
			/* from top.conf: say which line to fix */
			char *why = xstrdup(err);
			snprintf(err, errlen, "%s: events: %s", o->events_origin, why);
			free(why);
		} else {
			m->bad_events = true;
		}
		return -1;
	}
	bool counted = m->emu || s->pmu.present; /* the model's events are counted */
	/* a model without Topdown metrics (a test model) shows its units alone */
	bool topdown = counted && metric_max_level(metrics_of(s)) > 0;
	if (topdown) {
		/* a row's own tree (Enter) shows every level */
		unsigned level = m->row_unit >= 0 || m->row_pid ? TOP_MAX_LEVEL : o->level;
		if (hpm_session_add_metrics(s, NULL, level, false, err, errlen))
			return -1;
		if (m->depth) {
			const struct metric_table *t = metrics_of(s);
			char *list = join_children(t, metric_by_name(t, m->focus[m->depth - 1]));
			int rc = hpm_session_add_metrics(s, list, 0, false, err, errlen);
			free(list);
			if (rc)
				return -1;
		}
	}
	if (o->metrics) {
		if (!counted) {
			snprintf(err, errlen,
			         "metrics need %s events, and this host has no %s PMU (use "
			         "--backend emu)",
			         s->model->display, s->model->display);
			return -1;
		}
		if (hpm_session_add_metrics(s, o->metrics, 0, false, err, errlen))
			return -1;
	}
	return hpm_session_split(s, err, errlen);
}

static int open_session(struct top_model *m, char *err, size_t errlen)
{
	struct top_opts *o = m->o;
	struct hpm_target t = {.pid = -1, .per_unit = true, .inherit = true};
	/* per-CPU counters the BPF task counts share (tasks.h) cannot be
	 * inherited; on CPUs (pid -1) inherit changes nothing else */
	if (top_tasks_want_bpf(m->tasks, m))
		t.inherit = false;
	if (!m->emu) {
		if (o->pid > 0)
			t.pid = o->pid;
		else
			t.system_wide = true;
		t.cpu_list = o->pid > 0 ? NULL : o->cpus;
	}
	if (hpm_session_open(&m->s, &t, err, errlen))
		return -1;
	if (hpm_session_enable(&m->s, err, errlen))
		return -1;
	return 0;
}

/* the -M metrics of the session's table, by name, in the user's order */
static unsigned user_metrics(const struct top_opts *o, const struct hpm_session *s,
                             const char ***names)
{
	struct metric_set set;
	struct hpm_diag merr;
	unsigned n = 0;
	*names = NULL;
	metric_set_init(&set, metrics_of(s));
	if (o->metrics && metric_set_add(&set, o->metrics, &merr) == 0) {
		*names = xcalloc(set.nr ? set.nr : 1, sizeof(char *));
		for (unsigned k = 0; k < set.nr; k++)
			(*names)[n++] = metric_str(set.m[k], set.m[k]->name);
	}
	metric_set_free(&set);
	return n;
}

int top_model_reprogram(struct top_model *m, char *err, size_t errlen)
{
	struct hpm_session ns;
	if (build(m, &ns, err, errlen)) {
		hpm_session_free(&ns);
		return -1;
	}
	/* the new program is valid: the old one goes */
	if (m->prev)
		hpm_session_snapshot_free(&m->s, m->prev);
	m->prev = NULL;
	top_tasks_detach(m->tasks);
	hpm_session_free(&m->s);
	m->s = ns;
	free(m->user_metrics);
	m->nr_user_metrics = user_metrics(m->o, &m->s, &m->user_metrics);
	m->note[0] = '\0';
	m->session_ok = open_session(m, m->note, sizeof(m->note)) == 0;
	if (m->session_ok) {
		if (m->s.perf_cfg.warn)
			snprintf(m->note, sizeof(m->note), "%s", m->s.perf_cfg.warning);
		m->prev = hpm_session_snapshot(&m->s);
	}
	top_tasks_attach(m->tasks, m);
	m->last = hpm_clock_s();
	return 0;
}

int top_model_init(struct top_model *m, struct top_opts *o, char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	m->o = o;
	m->row_unit = -1;
	if (o->backend == HPM_BACKEND_AUTO) {
		/* the host's own processes unless the emulator is asked for: the
		 * emulated harts run a synthetic workload, not this machine's */
		struct hpm_session probe;
		hpm_session_init(&probe, HPM_BACKEND_AUTO);
		/* --pmu asks for that model's harts: the emulator's unless the
		 * host has its PMU */
		bool host_has =
		    probe.pmu.present &&
		    (!o->pmu || (probe.pmu.model && !strcmp(probe.pmu.model->name, o->pmu)));
		m->emu = !host_has && (o->emu_asked || o->pmu);
		hpm_session_free(&probe);
	} else {
		m->emu = o->backend == HPM_BACKEND_EMU;
	}
	if (!m->emu)
		m->procs = top_procs_new();
	m->tasks = top_tasks_new();
	m->t0 = hpm_clock_s();
	if (top_model_reprogram(m, err, errlen))
		return -1;
	if (m->emu && !m->session_ok) {
		/* the host's counters may fail to open for reasons top shows in
		 * its header and outlives (privileges, a busy PMU); the
		 * emulator's fail only on what the user asked for (an unknown
		 * profile, a bad trace), as stat refuses it */
		snprintf(err, errlen, "%s", m->note);
		return -1;
	}
	return 0;
}

void top_model_free(struct top_model *m)
{
	if (m->prev)
		hpm_session_snapshot_free(&m->s, m->prev);
	hpm_session_free(&m->s);
	free(m->user_metrics);
	top_tasks_free(m->tasks);
	top_procs_free(m->procs);
	memset(m, 0, sizeof(*m));
}

int top_model_drill(struct top_model *m, char *err, size_t errlen)
{
	if (m->row_unit >= 0 || m->row_pid) {
		snprintf(err, errlen, "d drills the sum over the units: u first (showing %s)",
		         m->row_name);
		return -1;
	}
	if (!m->bottleneck[0]) {
		snprintf(err, errlen, "no bottleneck to drill into yet");
		return -1;
	}
	const struct metric *b = metric_by_name(metrics_of(&m->s), m->bottleneck);
	if (!b || !b->nr_children) {
		snprintf(err, errlen, "%s has no children to drill into", m->bottleneck);
		return -1;
	}
	if (m->depth >= TOP_MAX_DEPTH) {
		snprintf(err, errlen, "already at the deepest level");
		return -1;
	}
	m->focus[m->depth++] = metric_str(b, b->name);
	if (top_model_reprogram(m, err, errlen)) {
		m->depth--;
		return -1;
	}
	return 0;
}

int top_model_drill_row(struct top_model *m, int unit, int pid, const char *name, const char *why,
                        char *err, size_t errlen)
{
	/* a task without counts says so, whatever else is missing */
	if (unit < 0 && why) {
		snprintf(err, errlen, "no per-task counts: %s", why);
		return -1;
	}
	if (!m->session_ok || !metric_max_level(metrics_of(&m->s)) ||
	    !(m->emu || m->s.pmu.present)) {
		snprintf(err, errlen, "no Topdown tree here: %s",
		         !m->session_ok ? "the counters are not open"
		                        : "this host has no Topdown PMU (try --backend emu)");
		return -1;
	}
	if (unit < 0 && pid <= 0) {
		snprintf(err, errlen, "no row selected");
		return -1;
	}
	int ou = m->row_unit, op = m->row_pid;
	char oname[sizeof(m->row_name)];
	snprintf(oname, sizeof(oname), "%s", m->row_name);
	bool reprogram = ou < 0 && !op && m->o->level < TOP_MAX_LEVEL;
	m->row_unit = unit;
	m->row_pid = unit >= 0 ? 0 : pid;
	snprintf(m->row_name, sizeof(m->row_name), "%s", name);
	if (reprogram && top_model_reprogram(m, err, errlen)) {
		m->row_unit = ou;
		m->row_pid = op;
		snprintf(m->row_name, sizeof(m->row_name), "%s", oname);
		return -1;
	}
	return 0;
}

int top_model_up(struct top_model *m, char *err, size_t errlen)
{
	if (m->row_unit >= 0 || m->row_pid) {
		/* out of a row's tree: back to the sum, at the level set */
		int ou = m->row_unit, op = m->row_pid;
		m->row_unit = -1;
		m->row_pid = 0;
		if (m->o->level < TOP_MAX_LEVEL && top_model_reprogram(m, err, errlen)) {
			m->row_unit = ou;
			m->row_pid = op;
			return -1;
		}
		return 0;
	}
	if (!m->depth) {
		snprintf(err, errlen, "already at the top of the Topdown tree");
		return -1;
	}
	m->depth--;
	if (top_model_reprogram(m, err, errlen)) {
		m->depth++;
		return -1;
	}
	return 0;
}

/* --------------------------------------------------------------- sample */

static void free_metrics(struct stat_metric *ms, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		free(ms[k].display);
	free(ms);
}

static int find_metric(const struct stat_metric *ms, unsigned n, const char *name)
{
	for (unsigned k = 0; k < n; k++)
		if (!strcmp(ms[k].name, name))
			return (int)k;
	return -1;
}

static bool in_focus(const struct top_model *m, const char *name)
{
	if (!m->depth)
		return false;
	const struct metric_table *t = metrics_of(&m->s);
	const struct metric *f = metric_by_name(t, m->focus[m->depth - 1]);
	if (!strcmp(metric_str(f, f->name), name))
		return true;
	for (unsigned i = 0; i < f->nr_children; i++) {
		const struct metric *c = metric_child(t, f, i);
		if (!strcmp(metric_str(c, c->name), name))
			return true;
	}
	return false;
}

static void fill_units(struct top_model *m, struct top_frame *f, struct hpm_count **d)
{
	struct hpm_session *s = &m->s;
	const char **mnames = m->user_metrics;
	unsigned nm = m->nr_user_metrics;
	unsigned ne = nr_event_cols(s);
	f->ncols = ne + nm;
	f->col_names = xcalloc(f->ncols ? f->ncols : 1, sizeof(char *));
	unsigned c = 0;
	for (unsigned i = ROW_FIRST_COL; i < s->all.nr; i++)
		if (!s->all.ev[i].metric_only)
			f->col_names[c++] = xstrdup(s->all.ev[i].name);
	for (unsigned k = 0; k < nm; k++) {
		const char *n = mnames[k];
		f->col_names[c++] = xstrdup(strncmp(n, "tma_", 4) ? n : n + 4);
	}
	unsigned nu = units_of(s, 0);
	f->nunits = nu;
	f->units = xcalloc(nu, sizeof(*f->units));
	for (unsigned u = 0; u < nu; u++) {
		struct top_unit *tu = &f->units[u];
		const struct hpm_evsel *e0 = &s->all.ev[0];
		snprintf(tu->name, sizeof(tu->name), "%s",
		         e0->unit_names && e0->unit_names[u] ? e0->unit_names[u] : "all");
		tu->col = xcalloc(f->ncols ? f->ncols : 1, sizeof(*tu->col));
		struct top_value *fx[2] = {&tu->cycles, &tu->instructions};
		for (unsigned i = 0; i < 2; i++) {
			const struct hpm_evsel *e = &s->all.ev[i];
			fx[i]->v = e->state == HPM_EV_OK
			               ? hpm_counts_value(d[i], units_of(s, i), (int)u, e->scale,
			                                  &fx[i]->share)
			               : (double)NAN;
		}
		tu->ipc = tu->cycles.v > 0 ? tu->instructions.v / tu->cycles.v : (double)NAN;
		c = 0;
		for (unsigned i = ROW_FIRST_COL; i < s->all.nr; i++) {
			const struct hpm_evsel *e = &s->all.ev[i];
			if (e->metric_only)
				continue;
			struct top_value *v = &tu->col[c++];
			v->share = 1;
			v->v = e->state == HPM_EV_OK && u < units_of(s, i)
			           ? hpm_counts_value(d[i], units_of(s, i), (int)u, e->scale,
			                              &v->share)
			           : (double)NAN;
			if (v->share < 0.999 && v->share > 0)
				f->multiplexed = true;
		}
		for (unsigned k = 0; k < TD_NR; k++)
			tu->td[k] = (double)NAN;
		/* the session's metrics of this unit's counts alone */
		struct stat_metric *ms;
		unsigned nr =
		    hpm_session_metrics_unit(s, (const struct hpm_count *const *)d, (int)u, &ms);
		for (unsigned k = 0; k < TD_NR; k++) {
			for (unsigned j = 0; j < nr; j++)
				if (top_td_metric_is(ms[j].name, k))
					tu->td[k] = ms[j].value;
		}
		snprintf(tu->bottleneck, sizeof(tu->bottleneck), "%s", top_bottleneck_of(ms, nr));
		/* no cycles counted: no slots, no Topdown of its own, none of
		 * the sum's (one unit is the whole machine: nothing left out) */
		tu->idle = nu > 1 && tu->cycles.v == 0;
		if (tu->idle)
			snprintf(tu->bottleneck, sizeof(tu->bottleneck), "idle");
		for (unsigned k = 0; k < nm; k++) {
			int j = find_metric(ms, nr, mnames[k]);
			struct top_value *v = &tu->col[ne + k];
			v->v = j >= 0 ? ms[j].value : (double)NAN;
			/* a metric mixes counts of several shares: -1 marks it as
			 * computed from scaled counts without one figure */
			v->share = j >= 0 && ms[j].multiplexed ? -1 : 1;
			if (v->share < 0)
				f->multiplexed = true;
		}
		free_metrics(ms, nr);
	}
}

/* the tree of ms (the session's metrics of the sum, of a unit or of a task) */
static void fill_nodes(struct top_model *m, struct top_frame *f, struct stat_metric *ms,
                       unsigned nr)
{
	int *map = xcalloc(nr ? nr : 1, sizeof(int));
	f->nodes = xcalloc(nr ? nr : 1, sizeof(*f->nodes));
	const struct metric_table *t = metrics_of(&m->s);
	const struct metric *focus = m->depth ? metric_by_name(t, m->focus[m->depth - 1]) : NULL;
	double best = -1;
	m->bottleneck[0] = '\0';
	for (unsigned k = 0; k < nr; k++) {
		map[k] = -1;
		if (!ms[k].level)
			continue;
		struct top_node *n = &f->nodes[f->nnodes];
		map[k] = (int)f->nnodes++;
		n->name = ms[k].name;
		snprintf(n->display, sizeof(n->display), "%s", ms[k].display);
		n->level = ms[k].level;
		n->parent = ms[k].parent >= 0 ? map[ms[k].parent] : -1;
		n->value = ms[k].value;
		n->bottleneck = ms[k].bottleneck;
		n->multiplexed = ms[k].multiplexed;
		n->out_of_range = ms[k].out_of_range;
		n->drilled = in_focus(m, ms[k].name) &&
		             (!focus || strcmp(metric_str(focus, focus->name), n->name));
		if (n->multiplexed)
			f->multiplexed = true;
		/* the drill target: the largest level-1 node, or the largest
		 * child of the focus */
		const struct metric *md = metric_by_name(t, n->name);
		bool candidate = focus ? metric_parent(t, md) == focus : n->level == 1;
		/* the metric library's bottleneck path first; else the largest
		 * node that has children (Retiring is not a bottleneck) */
		double score = n->value + (n->bottleneck ? 1000 : 0);
		if (candidate && !isnan(n->value) && md->nr_children && score > best) {
			best = score;
			snprintf(m->bottleneck, sizeof(m->bottleneck), "%s", n->name);
		}
	}
	/* parent indices must name nodes of this list: recompute by metric */
	for (unsigned i = 0; i < f->nnodes; i++) {
		const struct metric *p = metric_parent(t, metric_by_name(t, f->nodes[i].name));
		f->nodes[i].parent = -1;
		for (unsigned j = 0; p && j < f->nnodes; j++)
			if (!strcmp(f->nodes[j].name, metric_str(p, p->name)))
				f->nodes[i].parent = (int)j;
	}
	/* depth-first order, so drilled children sit under their parent */
	struct top_node *ord = xcalloc(f->nnodes ? f->nnodes : 1, sizeof(*ord));
	int *newidx = xcalloc(f->nnodes ? f->nnodes : 1, sizeof(int));
	unsigned no = 0;
	int *stack = xcalloc(f->nnodes ? f->nnodes : 1, sizeof(int));
	for (unsigned r = 0; r < f->nnodes; r++) {
		if (f->nodes[r].parent >= 0)
			continue;
		unsigned sp = 0;
		stack[sp++] = (int)r;
		while (sp) {
			int i = stack[--sp];
			newidx[i] = (int)no;
			ord[no++] = f->nodes[i];
			/* children pushed in reverse keep table order */
			for (int j = (int)f->nnodes - 1; j >= 0; j--)
				if (f->nodes[j].parent == i)
					stack[sp++] = j;
		}
	}
	for (unsigned i = 0; i < no; i++)
		if (ord[i].parent >= 0)
			ord[i].parent = newidx[ord[i].parent];
	free(f->nodes);
	f->nodes = ord;
	f->nnodes = no;
	free(stack);
	free(newidx);
	free(map);
}

/* A task row's counts come as doubles in evlist order (top_proc.ev): they
 * are put in unit 0 of counts the metric evaluation reads, as a one-unit
 * run that counted all the time. */
unsigned top_model_task_metrics(struct top_model *m, const double *ev, unsigned nev,
                                struct stat_metric **out)
{
	struct hpm_session *s = &m->s;
	*out = NULL;
	if (!ev || nev != s->all.nr)
		return 0;
	struct hpm_count **tc = xcalloc(s->all.nr ? s->all.nr : 1, sizeof(*tc));
	for (unsigned i = 0; i < s->all.nr; i++) {
		tc[i] = xcalloc(units_of(s, i), sizeof(**tc));
		/* ev is scaled as hpm_counts_value scales (by the event's unit
		 * scale), which the evaluation applies again; NAN: not counted,
		 * a count that never ran */
		const struct hpm_evsel *e = &s->all.ev[i];
		double v = ev[i];
		if (e->scale != 0 && e->scale != 1)
			v /= e->scale;
		if (isnan(v) || v < 0)
			continue;
		tc[i][0].val = (uint64_t)llround(v);
		tc[i][0].ena = tc[i][0].run = 1;
	}
	unsigned nr = hpm_session_metrics_unit(s, (const struct hpm_count *const *)tc, 0, out);
	for (unsigned i = 0; i < s->all.nr; i++)
		free(tc[i]);
	free(tc);
	return nr;
}

/* The tree shown: the sum over the units, or the drilled row's own. */
static void fill_tree(struct top_model *m, struct top_frame *f, struct hpm_count **d)
{
	struct hpm_session *s = &m->s;
	struct stat_metric *ms = NULL;
	unsigned nr = 0;
	if (m->row_unit >= 0 && (unsigned)m->row_unit < f->nunits) {
		nr = hpm_session_metrics_unit(s, (const struct hpm_count *const *)d, m->row_unit,
		                              &ms);
	} else if (m->row_unit >= 0) {
		snprintf(f->status, sizeof(f->status), "%s: no such unit now (u: back)",
		         m->row_name);
	} else if (m->row_pid) {
		const struct top_proc *p = NULL;
		for (unsigned i = 0; i < f->nprocs && !p; i++)
			if (f->procs[i].pid == m->row_pid && !f->procs[i].exited)
				p = &f->procs[i];
		if (!p || !p->ev || f->nev != s->all.nr) {
			snprintf(f->status, sizeof(f->status), "%s: %s (u: back)", m->row_name,
			         !p ? "not in the table now (exited?)" : "no per-task counts now");
		} else {
			nr = top_model_task_metrics(m, p->ev, f->nev, &ms);
		}
	} else {
		nr = hpm_session_metrics(s, (const struct hpm_count *const *)d, &ms);
	}
	fill_nodes(m, f, ms, nr);
	free_metrics(ms, nr);
	if (m->row_unit >= 0 || m->row_pid) {
		snprintf(f->row, sizeof(f->row), "%s", m->row_name);
		f->level = TOP_MAX_LEVEL;
	}
}

static void fill_focus(const struct top_model *m, struct top_frame *f)
{
	size_t off = 0;
	f->focus[0] = '\0';
	for (unsigned i = 0; i < m->depth; i++) {
		const char *n = m->focus[i];
		if (!strncmp(n, "tma_", 4))
			n += 4;
		off += (size_t)snprintf(f->focus + off, sizeof(f->focus) - off, "%s%s",
		                        i ? " > " : "", n);
		if (off >= sizeof(f->focus))
			break;
	}
	/* toplev's capitals: backend_bound -> Backend_Bound */
	for (char *p = f->focus; *p; p++)
		if (p == f->focus || p[-1] == '_' || p[-1] == ' ')
			*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
}

/* The units that counted no cycles, named in the frame's note: the tree
 * above sums the others' counts only. */
static void note_idle(const struct top_model *m, struct top_frame *f)
{
	char names[256];
	size_t off = 0;
	unsigned n = 0;
	names[0] = '\0';
	for (unsigned u = 0; u < f->nunits; u++)
		if (f->units[u].idle && off < sizeof(names)) {
			off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s",
			                        n ? ", " : "", f->units[u].name);
			n++;
		}
	if (!n)
		return;
	size_t at = strlen(f->status);
	if (at < sizeof(f->status))
		snprintf(f->status + at, sizeof(f->status) - at,
		         "%s%s idle (no cycles counted%s): not in the Topdown", at ? "; " : "",
		         names, m->emu ? ": in wfi, the clock gated" : "");
}

/* the emulated workloads: one row per hart */
static void fill_workloads(struct top_model *m, struct top_frame *f)
{
	f->nprocs = f->nunits;
	f->nprocs_total = f->nunits;
	f->procs = xcalloc(f->nunits ? f->nunits : 1, sizeof(*f->procs));
	struct hpm_emu_info info;
	bool have = hpm_session_emu_info(&m->s, &info);
	for (unsigned u = 0; u < f->nunits; u++) {
		struct top_proc *p = &f->procs[u];
		const struct top_unit *tu = &f->units[u];
		p->pid = -1;
		if (have && info.profile)
			snprintf(p->name, sizeof(p->name), "%s: %s seed %llu", tu->name,
			         info.profile, (unsigned long long)(info.seed + u));
		else if (have && info.trace)
			snprintf(p->name, sizeof(p->name), "%s: trace %s", tu->name, info.trace);
		else
			snprintf(p->name, sizeof(p->name), "%s", tu->name);
		snprintf(p->extra, sizeof(p->extra), "%s", tu->bottleneck);
		for (unsigned k = 0; k < TOP_MAX_PCOLS; k++)
			p->v[k] = (double)NAN;
		/* the hart's Topdown is its unit row's bar */
		for (unsigned k = 0; k < TD_NR; k++)
			p->td[k] = (double)NAN;
		p->v[PC_CYCLES] = tu->cycles.v;
		p->v[PC_INSTR] = tu->instructions.v;
		p->v[PC_IPC] = tu->ipc;
	}
	f->sort_col = -1;
}

/* -u: only the user's rows (htop's -u) */
static void keep_user(struct top_frame *f, const char *user)
{
	unsigned n = 0;
	for (unsigned i = 0; i < f->nprocs; i++) {
		if (!strcmp(f->procs[i].user, user)) {
			f->procs[n++] = f->procs[i];
		} else {
			free(f->procs[i].ev);
			free(f->procs[i].truth);
		}
	}
	f->nprocs = n;
}

static void fill_procs(struct top_model *m, struct top_frame *f, double interval)
{
	if (!m->emu) {
		f->npcols = PC_NR_PERF;
		for (unsigned k = 0; k < PC_NR_PERF; k++)
			f->pcol_names[k] = perf_pcols[k];
		/* BPF's per-task counts, or the per-task groups (tasks.h) */
		top_tasks_sample(m->tasks, m, f, interval);
		f->sort_col = PC_CPU;
		/* the per-task groups of procs.c count the three software events
		 * only; a task source with the session's events fills ev */
		if (!f->nev && !f->noev_reason[0])
			snprintf(f->noev_reason, sizeof(f->noev_reason),
			         "the per-task counter groups count task-clock, context "
			         "switches and page faults only");
	} else {
		f->npcols = PC_NR_EMU;
		for (unsigned k = 0; k < PC_NR_EMU; k++)
			f->pcol_names[k] = emu_pcols[k];
		/* the emulator's task schedule (tasks.h), busiest first */
		f->sort_col = PC_CYCLES;
		if (!top_tasks_sample(m->tasks, m, f, interval))
			fill_workloads(m, f);
	}
	if (m->o->sort) {
		int c = top_sort_col(f, m->o->sort);
		if (c >= TOP_SORT_FIRST)
			f->sort_col = c;
	}
	if (m->o->user && !m->emu)
		keep_user(f, m->o->user);
	f->reverse = m->o->reverse;
	top_sort_procs(f);
}

/* "Kunminghu PMU", or "no Kunminghu PMU (no Topdown)" */
static const char *host_pmu(const struct top_model *m, char *buf, size_t len)
{
	if (m->s.pmu.present)
		snprintf(buf, len, "%s PMU", m->s.model->display);
	else
		snprintf(buf, len, "no %s PMU (no Topdown)", m->s.model->display);
	return buf;
}

static void fill_source(const struct top_model *m, struct top_frame *f)
{
	struct hpm_emu_info info;
	char pmu[64];
	if (m->emu && hpm_session_emu_info(&m->s, &info)) {
		const struct emu_provenance p = {.model = m->s.model->display,
		                                 .profile = info.profile,
		                                 .trace = info.trace,
		                                 .seed = info.seed,
		                                 .harts = info.harts,
		                                 .freq = (double)info.freq,
		                                 .multiplexed = info.multiplexed};
		char label[sizeof(f->source)];
		snprintf(f->source, sizeof(f->source), "%s%s",
		         emu_provenance_text(&p, EMU_PROVENANCE_LIVE, label, sizeof(label)),
		         TOP_EMU_NOT_HOST);
	} else if (m->emu) {
		const char *profile = hpm_session_emu_profile(&m->s);
		snprintf(f->source, sizeof(f->source), "emulated %s: profile %s%s",
		         m->s.model->display, profile ? profile : "?", TOP_EMU_NOT_HOST);
	} else if (m->o->pid > 0) {
		snprintf(f->source, sizeof(f->source), "perf: process %d, %s", m->o->pid,
		         host_pmu(m, pmu, sizeof(pmu)));
	} else {
		snprintf(f->source, sizeof(f->source), "perf: CPUs %s, %s",
		         m->o->cpus ? m->o->cpus : "all", host_pmu(m, pmu, sizeof(pmu)));
	}
}

int top_model_sample(struct top_model *m, struct top_frame *f, char *err, size_t errlen)
{
	memset(f, 0, sizeof(*f));
	double now = hpm_clock_s();
	double interval = now - m->last;
	f->backend = m->emu ? "emu" : "perf";
	f->delay = m->o->delay;
	f->level = m->o->level;
	f->sort_col = -1;
	struct hpm_count **d = NULL;
	if (m->session_ok) {
		bool done;
		uint64_t ran;
		/* each refresh lets the refresh interval of emulated time pass, or
		 * what of it 50 ms of real time can emulate: a refresh (and a
		 * quit) is never held up by many harts at a high --emu-freq */
		if (m->emu && hpm_session_run_emu(
		                  &m->s, (uint64_t)(interval * (double)hpm_session_emu_freq(&m->s)),
		                  UINT64_C(50000000), &ran, &done, err, errlen))
			return -1;
		if (hpm_session_read(&m->s, err, errlen))
			return -1;
		d = hpm_session_delta(&m->s, m->prev);
		fill_units(m, f, d);
	}
	fill_source(m, f);
	fill_focus(m, f);
	/* before the rows: their source may add a note (tasks.h) */
	snprintf(f->status, sizeof(f->status), "%s", m->note);
	note_idle(m, f);
	fill_procs(m, f, interval);
	/* after the process rows: a task's own tree reads its counts */
	if (d) {
		fill_tree(m, f, d);
		hpm_session_snapshot_free(&m->s, m->prev);
		m->prev = hpm_session_snapshot(&m->s);
		hpm_session_snapshot_free(&m->s, d);
	}
	m->last = now;
	f->seq = ++m->seq;
	f->t = now - m->t0;
	f->interval = interval;
	return 0;
}

void top_frame_free(struct top_frame *f)
{
	for (unsigned u = 0; u < f->nunits; u++)
		free(f->units[u].col);
	free(f->units);
	for (unsigned c = 0; c < f->ncols; c++)
		free(f->col_names[c]);
	free(f->col_names);
	free(f->nodes);
	for (unsigned i = 0; i < f->nprocs; i++) {
		free(f->procs[i].ev);
		free(f->procs[i].truth);
	}
	free(f->procs);
	for (unsigned k = 0; f->ev_names && k < f->nev; k++)
		free(f->ev_names[k]);
	free(f->ev_names);
	memset(f, 0, sizeof(*f));
}

/* ---------------------------------------------------------------- sort */

int top_pcol_find(const struct top_frame *f, const char *name)
{
	for (unsigned k = 0; k < f->npcols; k++)
		if (!strcasecmp(f->pcol_names[k], name) ||
		    (f->pcol_names[k][0] == '%' && !strcasecmp(f->pcol_names[k] + 1, name)))
			return (int)k;
	return -1;
}

/* the columns that are not numbers, by their sort value */
static const char *text_col_name(const struct top_frame *f, int col)
{
	bool emu = f->backend && !strcmp(f->backend, "emu");
	bool work = top_rows_are_workloads(f);
	switch (col) {
	case TOP_SORT_PID:
		return work ? "HART" : "PID";
	case TOP_SORT_NAME:
		return work ? "WORKLOAD" : "COMMAND";
	case TOP_SORT_USER:
		return emu ? NULL : "USER";
	case TOP_SORT_STATE:
		return emu ? NULL : "S";
	default:
		return NULL;
	}
}

int top_sort_col(const struct top_frame *f, const char *name)
{
	int c = top_pcol_find(f, name);
	if (c >= 0)
		return c;
	/* pid keeps its old spelling on the emulator (the hart order), and
	 * its tables' names hold for either kind of row (a task schedule's
	 * PID and COMMAND, the workloads' HART and WORKLOAD) */
	bool emu = f->backend && !strcmp(f->backend, "emu");
	if (!strcasecmp(name, "pid") || (emu && !strcasecmp(name, "hart")))
		return TOP_SORT_PID;
	if (emu && (!strcasecmp(name, "command") || !strcasecmp(name, "workload")))
		return TOP_SORT_NAME;
	for (int k = TOP_SORT_PID; k >= TOP_SORT_FIRST; k--) {
		const char *t = text_col_name(f, k);
		if (t &&
		    (!strcasecmp(t, name) || (k == TOP_SORT_NAME && !strcasecmp(name, "name")) ||
		     (k == TOP_SORT_STATE && !strcasecmp(name, "state"))))
			return k;
	}
	return TOP_SORT_FIRST - 1;
}

const char *top_sort_name(const struct top_frame *f, int col)
{
	if (col >= 0 && (unsigned)col < f->npcols)
		return f->pcol_names[col];
	const char *t = text_col_name(f, col);
	return t ? t : "PID";
}

int top_model_check_sort(const struct top_model *m, const char *name, char *err, size_t errlen)
{
	struct top_frame f;
	char list[256] = "";
	memset(&f, 0, sizeof(f));
	f.backend = m->emu ? "emu" : "perf";
	f.npcols = m->emu ? PC_NR_EMU : PC_NR_PERF;
	for (unsigned k = 0; k < f.npcols; k++)
		f.pcol_names[k] = m->emu ? emu_pcols[k] : perf_pcols[k];
	if (top_sort_col(&f, name) >= TOP_SORT_FIRST)
		return 0;
	for (unsigned k = 0; k < f.npcols; k++) {
		size_t off = strlen(list);
		snprintf(list + off, sizeof(list) - off, "%s, ", f.pcol_names[k]);
	}
	for (int k = TOP_SORT_NAME; k >= TOP_SORT_FIRST; k--) {
		const char *t = text_col_name(&f, k);
		size_t off = strlen(list);
		if (t)
			snprintf(list + off, sizeof(list) - off, "%s, ", t);
	}
	snprintf(err, errlen, "'%s': not a column to sort by (%spid)", name, list);
	return -1;
}

/* names with numbers in their order: hart2 before hart10 (the emulated
 * workloads, which all have pid -1) */
static int cmp_natural(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0')
				a++;
			while (*b == '0')
				b++;
			size_t la = strspn(a, "0123456789"), lb = strspn(b, "0123456789");
			if (la != lb)
				return la < lb ? -1 : 1;
			int r = strncmp(a, b, la);
			if (r)
				return r;
			a += la;
			b += lb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return (*a != 0) - (*b != 0);
}

static int sort_col_g;
static bool sort_rev_g;

static int cmp_proc(const void *a, const void *b)
{
	const struct top_proc *x = a, *y = b;
	int r;
	if (sort_col_g == TOP_SORT_NAME || sort_col_g == TOP_SORT_USER ||
	    sort_col_g == TOP_SORT_STATE) {
		/* the text columns ascending, as htop sorts them */
		r = sort_col_g == TOP_SORT_NAME   ? cmp_natural(x->name, y->name)
		    : sort_col_g == TOP_SORT_USER ? strcmp(x->user, y->user)
		                                  : strcmp(x->extra, y->extra);
		if (!r)
			r = (x->pid > y->pid) - (x->pid < y->pid);
	} else if (sort_col_g < 0) {
		/* by pid (workloads: by hart) ascending */
		r = (x->pid > y->pid) - (x->pid < y->pid);
		if (!r)
			r = cmp_natural(x->name, y->name);
	} else {
		double vx = x->v[sort_col_g], vy = y->v[sort_col_g];
		/* '-' sorts last either way */
		if (isnan(vx) || isnan(vy))
			return isnan(vx) - isnan(vy);
		r = (vx < vy) - (vx > vy); /* descending */
		if (!r)
			r = (x->pid > y->pid) - (x->pid < y->pid);
	}
	return sort_rev_g ? -r : r;
}

/* threads by process, then as cmp_proc */
static int cmp_thread(const void *a, const void *b)
{
	const struct top_proc *x = a, *y = b;
	if (x->tgid != y->tgid)
		return (x->tgid > y->tgid) - (x->tgid < y->tgid);
	return cmp_proc(a, b);
}

void top_sort_procs(struct top_frame *f)
{
	if (!f->nprocs)
		return;
	/* qsort has no context argument in C11; the view is single-threaded */
	sort_col_g = f->sort_col;
	sort_rev_g = f->reverse;
	unsigned nth = 0;
	for (unsigned i = 0; i < f->nprocs; i++)
		nth += f->procs[i].thread;
	if (!nth) {
		qsort(f->procs, f->nprocs, sizeof(*f->procs), cmp_proc);
		return;
	}
	/* thread rows (tasks.h) stay under their process, sorted among
	 * themselves; the processes sort as without them */
	unsigned np = f->nprocs - nth, a = 0, b = 0;
	struct top_proc *pr = xcalloc(np ? np : 1, sizeof(*pr)), *th = xcalloc(nth, sizeof(*th));
	for (unsigned i = 0; i < f->nprocs; i++) {
		if (f->procs[i].thread)
			th[b++] = f->procs[i];
		else
			pr[a++] = f->procs[i];
	}
	qsort(pr, np, sizeof(*pr), cmp_proc);
	qsort(th, nth, sizeof(*th), cmp_thread);
	bool *used = xcalloc(nth, sizeof(bool));
	unsigned o = 0;
	for (unsigned i = 0; i < np; i++) {
		f->procs[o++] = pr[i];
		for (unsigned j = 0; j < nth; j++)
			if (!used[j] && th[j].tgid == pr[i].tgid) {
				f->procs[o++] = th[j];
				used[j] = true;
			}
	}
	/* threads whose process row is not shown: last */
	for (unsigned j = 0; j < nth; j++)
		if (!used[j])
			f->procs[o++] = th[j];
	free(used);
	free(pr);
	free(th);
}
