/* emu.c: the emulator back end (see backend/emu.h for what it does).
 *
 * Owns: struct emu_inst, the state of one open emulator (the machine of
 * the rows' model, schedule, running totals and emulated time), which
 * embeds the struct hpm_backend_inst the operations take. It knows no
 * model: counters, classes and fixed counters are the model's
 * (arch/model.h), the harts and their sources the machine's
 * (arch/machine.h), found through the registry (registry/models.h).
 *
 * Cost model. The work here is one call of the machine's run() per hart per
 * chunk of time (Kunminghu's harts count a run of identical cycles in a few
 * ns, fed by its workload stream at about as much again), nothing per run,
 * and a handful of counter accesses per hart per rotation (never a read per
 * run: counters are read only at rotations and in read()). The Topdown
 * level-3 set over 1e9 cycles takes 0.2-0.5 s depending on the profile (the
 * `bench` point of tests/backend/emu-backend prints the figure;
 * HPM_EMU_BENCH_ONLY=1 HPM_EMU_BENCH_CYCLES=1e9 runs just that).
 * With a task schedule, each context switch adds a read of every request
 * on that hart: about 1.3 us a switch with the Topdown level-3 set (1e6
 * switches, tasks-mixed with task-slice = 1000, took 1.3 s more over 1e9
 * cycles than with slices of 1e7), so tasks-mixed's own slices (80000
 * cycles on average) add about 3% to a run.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/emu.h"
#include "emukit/rng.h"
#include "registry/models.h"
#include "util/xalloc.h"

#define NS_PER_S UINT64_C(1000000000)

/* What a row of ours maps to (map[k]: the k-th row we take). */
struct evmap {
	unsigned ev; /* index in list->ev */
	int own;     /* the evsel's own request, -1 when it has no number */
	int req;     /* the request owning its counter (own, or whom it shares with) */
};

/* One open emulator; a dry run plans one, its machine made but never
 * programmed, without opening it (base unset). */
struct emu_inst {
	struct hpm_backend_inst base; /* first: the handle is a pointer to it */

	/* the model and its machine */
	const struct hpm_pmu_model *model;
	const struct hpm_emu_machine *mach;
	uint32_t fixed_mask; /* the model's fixed counters */
	uint32_t prog_mask;  /* its programmable counters */

	/* configuration, defaults resolved */
	uint64_t seed, limit, freq, quantum;
	unsigned harts;
	bool follow_wall;
	bool dry; /* a dry run: nothing runs, so the profile need not fit the PMU */

	/* placement */
	struct hpm_sched_req *req;
	unsigned nr_req;
	struct hpm_sched sched;
	struct evmap *map;
	unsigned nr_map;

	/* machine */
	struct hpm_emu_vm *vm;
	uint64_t *acc; /* [nr_req][harts]: counts of rotated-out activations */
	bool *wrapped; /* [nr_req][harts]: one of them (or acc) passed 2^64 - 1 */

	/* time, in cycles per hart */
	bool enabled;
	uint64_t ran, ena, frac; /* frac: ns x freq remainder below 1e9 */
	uint64_t *grun;          /* [nr_groups]: enabled cycles each group was active */
	unsigned active;         /* active multiplex group */
	unsigned *perm, pos;     /* this round's order, position of `active` in it */
	uint64_t qleft;          /* enabled cycles left in the current quantum */
	uint64_t rotations;
	uint64_t rng;   /* splitmix64 state of the round orders */
	uint64_t slice; /* hpm_emu_run_bounded: cycles per hart between clock reads */

	/* tasks (the source declares none: nr_tasks 0, the rest NULL); task
	 * nr_tasks is the idle task */
	unsigned nr_tasks;
	int *cur;                   /* [harts]: the task it runs, -1 idle, -2 none yet */
	struct hpm_count *last;     /* [nr_req][harts]: each request's reading at the hart's last
	                             * switch */
	struct hpm_count *charged;  /* [nr_tasks + 1][nr_req]: the deltas charged at switches */
	uint64_t *switches;         /* [nr_tasks + 1] */
	unsigned *hart_last;        /* [nr_tasks + 1] */
	bool *ran_yet;              /* [nr_tasks + 1] */
	struct hpm_emu_task *trows; /* [nr_tasks + 1]: what hpm_emu_tasks() gives */
};

/* The emulator behind a handle; NULL when it is not one (or NULL). */
static struct emu_inst *emu_of(struct hpm_backend_inst *b)
{
	return b && b->ops == &hpm_backend_emu ? (struct emu_inst *)b : NULL;
}

static const struct emu_inst *emu_view(const struct hpm_backend_inst *b)
{
	return b && b->ops == &hpm_backend_emu ? (const struct emu_inst *)b : NULL;
}

/* A fresh random order of the groups for the next round (Fisher-Yates; the
 * modulo bias of 64-bit draws over a few groups is below 2^-50). */
static void new_round(struct emu_inst *s)
{
	unsigned g = s->sched.nr_groups;
	for (unsigned i = 0; i < g; i++)
		s->perm[i] = i;
	for (unsigned i = g; i > 1; i--) {
		unsigned j = (unsigned)(hpm_splitmix64(&s->rng) % i);
		unsigned t = s->perm[i - 1];
		s->perm[i - 1] = s->perm[j];
		s->perm[j] = t;
	}
	s->pos = 0;
}

void hpm_emu_config_init(struct hpm_emu_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->seed = HPM_EMU_DEFAULT_SEED;
	cfg->harts = HPM_EMU_DEFAULT_HARTS;
	cfg->freq = HPM_EMU_DEFAULT_FREQ;
}

/* ---------------------------------------------------------------- planning */

static void emu_inst_free(struct emu_inst *s)
{
	if (!s)
		return;
	if (s->vm)
		s->mach->free(s->vm);
	hpm_sched_free(&s->sched);
	free(s->acc);
	free(s->wrapped);
	free(s->grun);
	free(s->perm);
	free(s->req);
	free(s->map);
	free(s->cur);
	free(s->last);
	free(s->charged);
	free(s->switches);
	free(s->hart_last);
	free(s->ran_yet);
	for (unsigned i = 0; s->trows && i <= s->nr_tasks; i++) {
		free(s->trows[i].att);
		free(s->trows[i].truth);
	}
	free(s->trows);
	hpm_backend_inst_fini(&s->base);
	free(s);
}

static int check_config(const struct hpm_emu_config *c, const struct hpm_emu_machine *mach,
                        char *err, size_t errlen)
{
	if (c->harts < 1 || c->harts > mach->max_harts) {
		snprintf(err, errlen, "--emu-harts %u: must be 1..%u", c->harts, mach->max_harts);
		return -EINVAL;
	}
	if (c->freq < 1 || c->freq > HPM_EMU_MAX_FREQ) {
		snprintf(err, errlen, "--emu-freq %" PRIu64 ": must be 1..%" PRIu64 " Hz", c->freq,
		         HPM_EMU_MAX_FREQ);
		return -EINVAL;
	}
	if (c->profile && c->trace) {
		snprintf(err, errlen,
		         "--emu-profile and --emu-trace exclude each other: a trace "
		         "replaces the profile");
		return -EINVAL;
	}
	return 0;
}

static bool ours(const struct hpm_evsel *e, const void *ctx)
{
	(void)ctx;
	return hpm_evsel_is_model(e);
}

/* Whether e's class is one of its model's (the counters it may use are
 * known). */
static bool placeable(const struct hpm_evsel *e)
{
	return e->kind == HPM_EV_MODEL_FIXED ||
	       (e->enc.constraint >= 0 &&
	        (unsigned)e->enc.constraint < e->enc.model->nr_constraints);
}

bool hpm_emu_request(const struct hpm_evsel *e, struct hpm_sched_req *r)
{
	if (!ours(e, NULL) || !placeable(e))
		return false;
	memset(r, 0, sizeof(*r));
	r->fixed = e->kind == HPM_EV_MODEL_FIXED;
	if (r->fixed)
		r->fixed_counter = e->enc.model->fixed[e->enc.fixed].counter;
	r->constraint = e->enc.constraint;
	r->value = e->enc.value;
	r->group = e->group;
	r->name = e->name;
	const struct hpm_pmu_model *m = e->enc.model;
	int alt = !r->fixed && m->fixed_alt ? m->fixed_alt(m, &e->enc) : -1;
	if (alt >= 0 && (unsigned)alt < m->nr_fixed) {
		r->alt_fixed = true;
		r->alt_counter = m->fixed[alt].counter;
	}
	return true;
}

static void free_reasons(char ***reasons, enum hpm_evsel_state **states, unsigned nr)
{
	for (unsigned k = 0; *reasons && k < nr; k++)
		free((*reasons)[k]);
	free(*reasons);
	free(*states);
	*reasons = NULL;
	*states = NULL;
}

/* The model of the rows (one: a machine emulates one model), else the
 * first registered model that has a machine; its machine and counters. */
static int choose_machine(struct emu_inst *s, const struct hpm_evlist *list, const unsigned *rows,
                          unsigned nr_rows, char *err, size_t errlen)
{
	const struct hpm_pmu_model *m = NULL;
	for (unsigned k = 0; k < nr_rows; k++) {
		const struct hpm_pmu_model *r = list->ev[rows[k]].enc.model;
		if (r && m && r != m) {
			snprintf(err, errlen,
			         "emulator: events of %s and of %s: one machine emulates one model",
			         m->display, r->display);
			return -EINVAL;
		}
		if (r)
			m = r;
	}
	for (unsigned i = 0; !m && i < hpm_model_count(); i++)
		if (hpm_model_machine(hpm_model_at(i)))
			m = hpm_model_at(i);
	if (!m || !(s->mach = hpm_model_machine(m))) {
		snprintf(err, errlen, "emulator: no emulated machine for %s",
		         m ? m->display : "any PMU model");
		return -ENOTSUP;
	}
	s->model = m;
	for (unsigned i = 0; i < m->nr_fixed; i++)
		if (m->fixed[i].counter < HPM_EMU_MAX_COUNTERS)
			s->fixed_mask |= UINT32_C(1) << m->fixed[i].counter;
	for (unsigned n = m->counters.first; n <= m->counters.last && n < HPM_EMU_MAX_COUNTERS; n++)
		s->prog_mask |= UINT32_C(1) << n;
	return 0;
}

/* Why an event of no class of the model gets no number. */
static char *no_class_reason(const struct hpm_pmu_model *m)
{
	const char *w = m->counters.class_word;
	char up[32];
	size_t i;
	for (i = 0; w[i] && i + 1 < sizeof(up); i++)
		up[i] = (char)toupper((unsigned char)w[i]);
	up[i] = '\0';
	return xasprintf("no %s known: the emulator places an event by its %s, so it takes "
	                 "%s:NAME or %s:INDEX, not a raw value or term",
	                 w, w, up, up);
}

/* Resolves the configuration into s, makes the machine of the rows' model
 * (the harts and their source) and places the requests of rows[0..nr_rows)
 * of list (all of them ours). `reasons` and `states` receive, per row
 * without a number (by its position in rows), the text for its placement
 * and the state it gets. On failure the caller frees s. */
static int plan(struct emu_inst *s, const struct hpm_evlist *list, const unsigned *rows,
                unsigned nr_rows, const struct hpm_target *t, const struct hpm_emu_config *cfg,
                char ***reasons, enum hpm_evsel_state **states, char *err, size_t errlen)
{
	struct hpm_emu_config defaults;
	char buf[512];
	int rc;

	if (!cfg) {
		hpm_emu_config_init(&defaults);
		cfg = &defaults;
	}
	if ((rc = choose_machine(s, list, rows, nr_rows, err, errlen)) ||
	    (rc = check_config(cfg, s->mach, err, errlen)))
		return rc;

	s->seed = cfg->seed;
	s->harts = cfg->harts;
	s->freq = cfg->freq;
	s->quantum = cfg->quantum ? cfg->quantum : HPM_EMU_DEFAULT_QUANTUM;
	s->follow_wall = cfg->follow_wall || (t && (t->pid >= 0 || t->system_wide));

	struct hpm_emu_vm_config vc = {.harts = cfg->harts,
	                               .profile = cfg->profile,
	                               .trace = cfg->trace,
	                               .seed = cfg->seed,
	                               .pmu = cfg->pmu,
	                               .dry_run = s->dry};
	if ((rc = s->mach->create(&vc, &s->vm, buf, sizeof(buf)))) {
		if (rc == HPM_EMU_ETRACE)
			snprintf(err, errlen, "--emu-trace %s", buf);
		else if (rc == HPM_EMU_EPMU)
			snprintf(err, errlen, "--emu-pmu %s: %s", cfg->pmu ? cfg->pmu : "", buf);
		else if (cfg->profile)
			snprintf(err, errlen, "--emu-profile: %s", buf);
		else /* the default profile: no option to name */
			snprintf(err, errlen, "emulator: %s", buf);
		return -EINVAL;
	}
	s->limit = cfg->cycles     ? cfg->cycles
	           : s->vm->length ? s->vm->length
	                           : HPM_EMU_DEFAULT_CYCLES;

	/* requests: one per row that can be counted */
	s->req = xcalloc(nr_rows ? nr_rows : 1, sizeof(*s->req));
	s->map = xcalloc(nr_rows ? nr_rows : 1, sizeof(*s->map));
	*reasons = xcalloc(nr_rows ? nr_rows : 1, sizeof(**reasons));
	*states = xcalloc(nr_rows ? nr_rows : 1, sizeof(**states));
	for (unsigned k = 0; k < nr_rows; k++) {
		const struct hpm_evsel *e = &list->ev[rows[k]];
		struct evmap *m = &s->map[s->nr_map++];
		m->ev = rows[k];
		m->own = m->req = -1;
		if (e->kind == HPM_EV_MODEL) {
			const char *miss = NULL;
			if (!placeable(e)) {
				(*reasons)[k] = no_class_reason(s->model);
				(*states)[k] = HPM_EV_NOT_SUPPORTED;
				continue;
			}
			if (s->vm->profile &&
			    (miss = s->mach->unproduced(s->vm, &e->enc, buf, sizeof(buf)))) {
				(*reasons)[k] = xasprintf("profile %s does not produce %s",
				                          s->vm->profile, miss);
				(*states)[k] = HPM_EV_NOT_MODELLED;
				continue;
			}
		}
		hpm_emu_request(e, &s->req[s->nr_req]);
		m->own = m->req = (int)s->nr_req++;
	}
	if ((rc = hpm_sched_build(s->model, s->req, s->nr_req, &s->sched, err, errlen))) {
		free_reasons(reasons, states, nr_rows);
		return -EINVAL;
	}
	/* evmaps point at owners: shared requests read the owner's counter */
	for (unsigned k = 0; k < s->nr_map; k++)
		if (s->map[k].req >= 0)
			s->map[k].req = (int)s->req[s->map[k].req].owner;

	s->perm = xcalloc(s->sched.nr_groups, sizeof(*s->perm));
	s->grun = xcalloc(s->sched.nr_groups, sizeof(*s->grun));
	s->rng = s->seed ^ UINT64_C(0x6d75782d726f7461); /* "mux-rota": not the workload's stream */
	new_round(s);
	s->active = s->perm[0];
	s->qleft = s->quantum;
	return 0;
}

/* ---------------------------------------------------------- the machine */

/* Programs hart h for the active group, counters stopped and zeroed. */
static int program(struct emu_inst *s, unsigned h, char *err, size_t errlen)
{
	const struct hpm_sched_group *g = &s->sched.groups[s->active];
	const struct hpm_emu_machine *m = s->mach;
	int rc;

	if ((rc = m->inhibit(s->vm, h, s->fixed_mask | s->prog_mask, true, err, errlen)))
		return rc;
	for (unsigned n = s->model->counters.first; n <= s->model->counters.last; n++) {
		bool used = g->used & (UINT32_C(1) << n);
		if ((rc = m->set_event(s->vm, h, n, used, used ? g->event[n] : 0, err, errlen)))
			return rc;
	}
	/* a fixed counter that took an event (sched.h's rule 0) counts it
	 * with the event's filter */
	for (unsigned r = 0; r < s->nr_req; r++)
		if (s->req[r].moved && s->req[r].owner == r &&
		    (rc = m->set_event(s->vm, h, s->req[r].counter, true, s->req[r].value, err,
		                       errlen)))
			return rc;
	return m->zero(s->vm, h, s->fixed_mask | s->prog_mask, err, errlen);
}

/* Counter n of hart h is the request at `at`'s: what it counted joins the
 * request's total, and a wrap (the counter's own, or the total's) marks the
 * request's count on that hart as wrapped for good. */
static bool counter_add(struct emu_inst *s, size_t at, unsigned h, unsigned n, uint64_t *sum)
{
	bool of;
	uint64_t v = s->mach->read(s->vm, h, n, &of);
	return s->wrapped[at] || of || __builtin_add_overflow(*sum, v, sum);
}

static void acc_add(struct emu_inst *s, size_t at, unsigned h, unsigned n)
{
	s->wrapped[at] = counter_add(s, at, h, n, &s->acc[at]);
}

/* Request r on hart h as software reads it, `into` cycles into the chunk
 * run_all() is running (0 between chunks): its running total plus its
 * counter while its group is active, and the cycles it was enabled and
 * running (perf's value, enabled, running). */
static void req_view(struct emu_inst *s, unsigned r, unsigned h, uint64_t into, struct hpm_count *c)
{
	const struct hpm_sched_req *q = &s->req[r];
	const struct hpm_sched_group *g = &s->sched.groups[s->active];
	size_t at = (size_t)r * s->harts + h;
	uint64_t v = s->acc[at];
	bool wrapped = s->wrapped[at];
	uint64_t now = s->enabled ? into : 0;

	if (q->fixed)
		v = s->mach->read(s->vm, h, q->counter, &wrapped);
	else if (g->owner[q->counter] == (int)r)
		wrapped = counter_add(s, at, h, q->counter, &v);
	c->val = v;
	c->wrapped = wrapped;
	c->ena = s->ena + now;
	c->run = c->ena;
	if (!q->fixed && q->mux != HPM_SCHED_ALWAYS)
		c->run = s->grun[q->mux] + (q->mux == (int)s->active ? now : 0);
}

/* Switches every hart to the next group of the round. */
static int rotate(struct emu_inst *s, char *err, size_t errlen)
{
	if (++s->pos == s->sched.nr_groups)
		new_round(s);
	unsigned next = s->perm[s->pos];
	const struct hpm_sched_group *cur = &s->sched.groups[s->active];
	const struct hpm_sched_group *nxt = &s->sched.groups[next];
	const struct hpm_emu_machine *m = s->mach;
	uint32_t change = hpm_sched_changes(&s->sched, s->active, next);
	int rc;

	s->rotations++;
	if (change) {
		for (unsigned h = 0; h < s->harts; h++) {
			if ((rc = m->inhibit(s->vm, h, change, true, err, errlen)))
				return rc;
			for (unsigned n = 0; n < HPM_EMU_MAX_COUNTERS; n++) {
				if (!(change & (UINT32_C(1) << n)))
					continue;
				if (cur->owner[n] >= 0)
					acc_add(s, (size_t)cur->owner[n] * s->harts + h, h, n);
				bool used = nxt->owner[n] >= 0;
				if ((rc = m->set_event(s->vm, h, n, used, used ? nxt->event[n] : 0,
				                       err, errlen)) ||
				    (rc = m->zero(s->vm, h, UINT32_C(1) << n, err, errlen)))
					return rc;
			}
			/* unused counters stay stopped */
			if ((rc = m->inhibit(s->vm, h, change & nxt->used, false, err, errlen)))
				return rc;
		}
	}
	s->active = next;
	return 0;
}

/* The context switch of hart h `into` cycles into the chunk: what every
 * request counted since the hart's last switch goes to the task switched
 * out (the BPF program's work at sched_switch), and `next` runs. */
static void task_switch(struct emu_inst *s, unsigned h, uint64_t into, int next)
{
	int out = s->cur[h];
	if (out >= -1) {
		unsigned t = out < 0 ? s->nr_tasks : (unsigned)out;
		for (unsigned r = 0; r < s->nr_req; r++) {
			struct hpm_count now, *last = &s->last[(size_t)r * s->harts + h];
			struct hpm_count *c = &s->charged[(size_t)t * s->nr_req + r];
			req_view(s, r, h, into, &now);
			c->val += now.val - last->val;
			c->ena += now.ena - last->ena;
			c->run += now.run - last->run;
			c->wrapped |= now.wrapped;
			*last = now;
		}
		s->switches[t]++;
	}
	unsigned n = next < 0 ? s->nr_tasks : (unsigned)next;
	s->hart_last[n] = h;
	s->ran_yet[n] = true;
	s->cur[h] = next;
}

/* Runs `cycles` on hart h; with tasks, in pieces that end at its context
 * switches, each of which is charged as it happens. */
static void run_hart(struct emu_inst *s, unsigned h, uint64_t cycles)
{
	uint64_t into = 0;
	if (!s->nr_tasks) {
		s->mach->run(s->vm, h, cycles);
		return;
	}
	while (cycles) {
		uint64_t left;
		int t = s->mach->task_now(s->vm, h, &left);
		if (t != s->cur[h])
			task_switch(s, h, into, t);
		uint64_t n = cycles < left ? cycles : left;
		s->mach->run(s->vm, h, n);
		cycles -= n;
		into += n;
	}
}

/* Runs `cycles` on every hart, rotating at quantum boundaries of enabled
 * time and keeping the enabled/running totals. */
static int run_all(struct emu_inst *s, uint64_t cycles, char *err, size_t errlen)
{
	int rc;
	while (cycles) {
		uint64_t chunk = cycles;
		bool mux = s->enabled && s->sched.nr_groups > 1;
		if (mux && chunk > s->qleft)
			chunk = s->qleft;
		for (unsigned h = 0; h < s->harts; h++)
			run_hart(s, h, chunk);
		s->ran += chunk;
		cycles -= chunk;
		if (!s->enabled)
			continue;
		s->ena += chunk;
		s->grun[s->active] += chunk;
		if (!mux)
			continue;
		s->qleft -= chunk;
		if (!s->qleft) {
			s->qleft = s->quantum;
			if ((rc = rotate(s, err, errlen)))
				return rc;
		}
	}
	return 0;
}

/* ns of emulated time in cycles at freq, carrying the remainder below one
 * cycle so that many small steps add up to one big one exactly. */
static uint64_t ns_to_cycles(struct emu_inst *s, uint64_t ns)
{
	uint64_t whole, part, sum;
	/* (ns % 1e9) x freq < 1e9 x 1e10 < 2^64, and frac < 1e9 on top */
	uint64_t num = (ns % NS_PER_S) * s->freq + s->frac;
	if (__builtin_mul_overflow(ns / NS_PER_S, s->freq, &whole))
		return UINT64_MAX;
	part = num / NS_PER_S;
	s->frac = num % NS_PER_S;
	if (__builtin_add_overflow(whole, part, &sum))
		return UINT64_MAX;
	return sum;
}

/* --------------------------------------------------------------- operations */

static int emu_open(struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                    const struct hpm_target *t, void *cfgp, struct hpm_backend_inst **out,
                    char *err, size_t errlen)
{
	struct emu_inst *s = xcalloc(1, sizeof(*s));
	char **reasons = NULL;
	enum hpm_evsel_state *states = NULL;
	char buf[256];
	int rc;

	if (hpm_backend_inst_init(&s->base, &hpm_backend_emu, list, rows, nr_rows, ours, NULL)) {
		free(s);
		snprintf(err, errlen, "emulator: already open on this event list");
		return -EBUSY;
	}
	if ((rc = plan(s, list, s->base.rows, s->base.nr_rows, t, cfgp, &reasons, &states, err,
	               errlen)))
		goto fail;

	s->acc = xcalloc((size_t)(s->nr_req ? s->nr_req : 1) * s->harts, sizeof(*s->acc));
	s->wrapped = xcalloc((size_t)(s->nr_req ? s->nr_req : 1) * s->harts, sizeof(*s->wrapped));
	if (s->mach->nr_tasks && (s->nr_tasks = s->mach->nr_tasks(s->vm))) {
		size_t nt = s->nr_tasks + 1, nq = s->nr_req ? s->nr_req : 1;
		s->cur = xcalloc(s->harts, sizeof(*s->cur));
		for (unsigned h = 0; h < s->harts; h++)
			s->cur[h] = -2;
		s->last = xcalloc(nq * s->harts, sizeof(*s->last));
		s->charged = xcalloc(nt * nq, sizeof(*s->charged));
		s->switches = xcalloc(nt, sizeof(*s->switches));
		s->hart_last = xcalloc(nt, sizeof(*s->hart_last));
		s->ran_yet = xcalloc(nt, sizeof(*s->ran_yet));
		s->trows = xcalloc(nt, sizeof(*s->trows));
		for (size_t i = 0; i < nt; i++) {
			s->trows[i].att =
			    xcalloc(s->nr_map ? s->nr_map : 1, sizeof(*s->trows[i].att));
			s->trows[i].truth = xcalloc(s->nr_map ? s->nr_map : 1, sizeof(uint64_t));
		}
	}
	for (unsigned h = 0; h < s->harts; h++)
		if ((rc = program(s, h, err, errlen)))
			goto fail;

	hpm_backend_inst_name_units(&s->base, s->harts, "hart");
	for (unsigned k = 0; k < s->nr_map; k++) {
		struct hpm_evsel *e = &list->ev[s->map[k].ev];
		free(e->counts);
		e->counts = xcalloc(s->harts, sizeof(*e->counts));
		free(e->placement);
		if (s->map[k].req < 0) {
			e->state = states[k];
			e->placement = reasons[k];
			reasons[k] = NULL;
			continue;
		}
		e->state = HPM_EV_OK;
		e->placement = xstrdup(hpm_sched_describe(
		    &s->sched, s->req, (unsigned)s->map[k].own, buf, sizeof(buf)));
	}
	free_reasons(&reasons, &states, s->nr_map);
	*out = &s->base;
	return 0;
fail:
	free_reasons(&reasons, &states, s->nr_map);
	emu_inst_free(s);
	return rc;
}

static int emu_enable(struct hpm_backend_inst *b, char *err, size_t errlen)
{
	struct emu_inst *s = emu_of(b);
	if (!s) {
		snprintf(err, errlen, "emulator: not open");
		return -EINVAL;
	}
	if (s->enabled)
		return 0;
	uint32_t run = s->fixed_mask | s->sched.groups[s->active].used;
	for (unsigned h = 0; h < s->harts; h++) {
		int rc = s->mach->inhibit(s->vm, h, run, false, err, errlen);
		if (rc)
			return rc;
	}
	s->enabled = true;
	return 0;
}

static int emu_disable(struct hpm_backend_inst *b, char *err, size_t errlen)
{
	struct emu_inst *s = emu_of(b);
	if (!s) {
		snprintf(err, errlen, "emulator: not open");
		return -EINVAL;
	}
	if (!s->enabled)
		return 0;
	for (unsigned h = 0; h < s->harts; h++) {
		int rc =
		    s->mach->inhibit(s->vm, h, s->fixed_mask | s->prog_mask, true, err, errlen);
		if (rc)
			return rc;
	}
	s->enabled = false;
	return 0;
}

static int emu_read(struct hpm_backend_inst *b, char *err, size_t errlen)
{
	struct emu_inst *s = emu_of(b);
	if (!s) {
		snprintf(err, errlen, "emulator: not open");
		return -EINVAL;
	}
	for (unsigned k = 0; k < s->nr_map; k++) {
		int r = s->map[k].req;
		struct hpm_evsel *e = &b->list->ev[s->map[k].ev];
		if (r < 0)
			continue;
		for (unsigned h = 0; h < s->harts; h++)
			req_view(s, (unsigned)r, h, 0, &e->counts[h]);
	}
	return 0;
}

static int emu_advance(struct hpm_backend_inst *b, uint64_t ns, bool *done, char *err,
                       size_t errlen)
{
	struct emu_inst *s = emu_of(b);
	uint64_t cycles;

	if (done)
		*done = false;
	if (!s) {
		snprintf(err, errlen, "emulator: not open");
		return -EINVAL;
	}
	if (s->follow_wall) {
		cycles = ns ? ns_to_cycles(s, ns) : 0;
	} else {
		uint64_t left = s->limit - s->ran;
		cycles = ns ? ns_to_cycles(s, ns) : left;
		if (cycles > left)
			cycles = left;
	}
	int rc = run_all(s, cycles, err, errlen);
	if (done && !s->follow_wall)
		*done = s->ran >= s->limit;
	return rc;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* Slices aim at a quarter of the budget, so that the budget is overrun by
 * at most one slice even when the speed changes (a rotation, a slower
 * phase); the slice doubles or halves after each one to follow the speed of
 * this machine, profile and number of harts. The first slice is small
 * (2^16 hart-cycles, well under a millisecond) to learn the speed. */
int hpm_emu_run_bounded(struct hpm_backend_inst *b, uint64_t max_cycles, uint64_t budget_ns,
                        uint64_t *ran, bool *done, char *err, size_t errlen)
{
	struct emu_inst *s = emu_of(b);
	uint64_t start, now, total = 0;
	int rc = 0;

	*ran = 0;
	if (done)
		*done = false;
	if (!s) {
		snprintf(err, errlen, "emulator: not open");
		return -EINVAL;
	}
	if (!s->follow_wall && max_cycles > s->limit - s->ran)
		max_cycles = s->limit - s->ran;
	if (!s->slice)
		s->slice = (UINT64_C(1) << 16) / s->harts + 1;
	uint64_t target = budget_ns / 4 ? budget_ns / 4 : 1;
	start = now = mono_ns();
	while (total < max_cycles) {
		uint64_t n = max_cycles - total < s->slice ? max_cycles - total : s->slice;
		uint64_t t = now;
		if ((rc = run_all(s, n, err, errlen)))
			break;
		total += n;
		now = mono_ns();
		if (n == s->slice) {
			if (now - t < target / 2 && s->slice < (UINT64_C(1) << 40))
				s->slice *= 2;
			else if (now - t > target * 2 && s->slice > 1)
				s->slice /= 2;
		}
		if (now - start >= budget_ns)
			break;
	}
	*ran = total;
	if (done && !s->follow_wall)
		*done = s->ran >= s->limit;
	return rc;
}

static void emu_close(struct hpm_backend_inst *b)
{
	emu_inst_free(emu_of(b));
}

/* "hart0" or "hart0-3" */
static const char *harts_str(const struct emu_inst *s, char *buf, size_t len)
{
	if (s->harts == 1)
		snprintf(buf, len, "hart0");
	else
		snprintf(buf, len, "hart0-%u", s->harts - 1);
	return buf;
}

/* "(enable: mcycle, minstret, mhpmcounter3,4)": what START of the fixed
 * counters and those of `used` starts, in the model's names. */
static const char *enable_str(const struct emu_inst *s, uint32_t used, char *buf, size_t len)
{
	const struct hpm_pmu_model *m = s->model;
	char cb[128];
	size_t n = (size_t)snprintf(buf, len, "(enable: ");
	for (unsigned i = 0; i < m->nr_fixed && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", m->fixed[i].name);
	if (used && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s%s%s", m->nr_fixed ? ", " : "",
		                      m->counters.counter_prefix,
		                      hpm_emu_counters_str(used, cb, sizeof(cb)));
	if (n < len)
		snprintf(buf + n, len - n, ")");
	return buf;
}

static int emu_dry_run(const struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                       const struct hpm_target *t, void *cfgp, FILE *out, char *err, size_t errlen)
{
	struct emu_inst *s = xcalloc(1, sizeof(*s));
	char **reasons = NULL;
	enum hpm_evsel_state *states = NULL;
	char hb[32], sb[256], eb[256];
	unsigned *mine;
	unsigned nr = hpm_evlist_select(list, rows, nr_rows, ours, NULL, &mine);
	s->dry = true;
	int rc = plan(s, list, mine, nr, t, cfgp, &reasons, &states, err, errlen);
	free(mine);
	if (rc) {
		emu_inst_free(s);
		return rc;
	}
	const struct hpm_emu_machine *m = s->mach;
	const uint32_t all = s->fixed_mask | s->prog_mask;
	harts_str(s, hb, sizeof(hb));
	if (s->vm->profile)
		fprintf(out, "emu: profile %s, seed %" PRIu64 "%s, %u hart%s, ", s->vm->profile,
		        s->seed, s->harts > 1 ? " + hart index" : "", s->harts,
		        s->harts > 1 ? "s" : "");
	else
		fprintf(out, "emu: trace %s on every hart, %u hart%s, ", s->vm->trace, s->harts,
		        s->harts > 1 ? "s" : "");
	if (s->follow_wall)
		fprintf(out, "following the command's wall time at %" PRIu64 " Hz\n", s->freq);
	else
		fprintf(out, "%" PRIu64 " cycles\n", s->limit);
	fprintf(out, "emu: %s %s (stop every counter)\n", hb,
	        hpm_emu_describe(m, HPM_EMU_STEP_STOP, all, 0, 0, sb, sizeof(sb)));

	const struct hpm_sched *sc = &s->sched;
	for (unsigned k = 0; k < s->nr_map; k++) {
		unsigned i = s->map[k].ev;
		const struct hpm_evsel *e = &list->ev[i];
		int r = s->map[k].req;
		if (r < 0) {
			fprintf(out, "%s: %s%s\n", e->name,
			        states[k] == HPM_EV_NOT_MODELLED ? "<not modelled>: "
			                                         : "<not supported>: ",
			        reasons[k]);
			continue;
		}
		const struct hpm_sched_req *q = &s->req[r];
		const char *shared = s->map[k].own != r ? q->name : NULL;
		if (q->fixed) {
			const char *fname =
			    s->model->fixed[hpm_model_fixed_by_counter(s->model, q->counter)].name;
			if (q->moved) /* an event on a fixed counter: its filter */
				fprintf(out, "%s: %s %s (%s, always counted%s%s)\n", e->name, hb,
				        hpm_emu_describe(m, HPM_EMU_STEP_PROGRAM, 0, q->counter,
				                         q->value, sb, sizeof(sb)),
				        fname, shared ? ", shared with " : "",
				        shared ? shared : "");
			else
				fprintf(out, "%s: %s %s (fixed counter, always counted)\n", e->name,
				        hb, fname);
			continue;
		}
		fprintf(out, "%s: %s %s", e->name, hb,
		        hpm_emu_describe(m, HPM_EMU_STEP_PROGRAM, 0, q->counter, q->value, sb,
		                         sizeof(sb)));
		if (q->mux == HPM_SCHED_ALWAYS)
			fprintf(out, " (every group");
		else
			fprintf(out, " (group %d", q->mux);
		if (shared)
			fprintf(out, ", shared with %s", shared);
		fprintf(out, ")\n");
	}
	const uint32_t used = sc->groups[s->active].used;
	if (s->prog_mask & ~used)
		fprintf(out, "emu: %s %s (no event in group %u)\n", hb,
		        hpm_emu_describe(m, HPM_EMU_STEP_NO_EVENT, s->prog_mask & ~used, 0, 0, sb,
		                         sizeof(sb)),
		        s->active);
	fprintf(out, "emu: %s %s\n", hb,
	        hpm_emu_describe(m, HPM_EMU_STEP_ZERO, all, 0, 0, sb, sizeof(sb)));
	fprintf(out, "emu: %s %s %s\n", hb,
	        hpm_emu_describe(m, HPM_EMU_STEP_START, s->fixed_mask | used, 0, 0, sb, sizeof(sb)),
	        enable_str(s, used, eb, sizeof(eb)));
	if (m->describe_read && m->describe_read(s->vm, sb, sizeof(sb))[0])
		fprintf(out, "emu: %s reads: %s\n", hb, sb);
	if (sc->nr_groups > 1)
		fprintf(out,
		        "emu: %u multiplex groups, group %u first; every %" PRIu64
		        " counted cycles the next group of a round in random order: %s\n",
		        sc->nr_groups, s->active, s->quantum,
		        hpm_emu_describe(m, HPM_EMU_STEP_ROTATE, 0, 0, 0, sb, sizeof(sb)));
	fprintf(out, "emu: %s %s (disable)\n", hb,
	        hpm_emu_describe(m, HPM_EMU_STEP_STOP, all, 0, 0, sb, sizeof(sb)));
	free_reasons(&reasons, &states, s->nr_map);
	emu_inst_free(s);
	return 0;
}

const struct hpm_backend hpm_backend_emu = {
    .name = "emu",
    .open = emu_open,
    .enable = emu_enable,
    .disable = emu_disable,
    .read = emu_read,
    .advance = emu_advance,
    .dry_run = emu_dry_run,
    .close = emu_close,
};

/* --------------------------------------------------------------- accessors */

bool hpm_emu_info(const struct hpm_backend_inst *b, struct hpm_emu_info *info)
{
	const struct emu_inst *s = emu_view(b);
	memset(info, 0, sizeof(*info));
	if (!s)
		return false;
	info->profile = s->vm->profile;
	info->trace = s->vm->trace;
	info->seed = s->seed;
	info->harts = s->harts;
	info->freq = s->freq;
	info->cycles_run = s->ran;
	info->cycles_enabled = s->ena;
	info->cycles_limit = s->follow_wall ? 0 : s->limit;
	info->cycles_length = s->limit;
	info->follows_command = s->follow_wall;
	info->nr_groups = s->sched.nr_groups;
	info->multiplexed = s->sched.nr_groups > 1;
	info->quantum = s->quantum;
	info->rotations = s->rotations;
	return true;
}

const char *hpm_emu_profile_name(const struct hpm_backend_inst *b)
{
	const struct emu_inst *s = emu_view(b);
	return s ? s->vm->profile : NULL;
}

const char *hpm_emu_trace_path(const struct hpm_backend_inst *b)
{
	const struct emu_inst *s = emu_view(b);
	return s ? s->vm->trace : NULL;
}

uint64_t hpm_emu_seed(const struct hpm_backend_inst *b)
{
	const struct emu_inst *s = emu_view(b);
	return s ? s->seed : 0;
}

uint64_t hpm_emu_freq(const struct hpm_backend_inst *b)
{
	const struct emu_inst *s = emu_view(b);
	return s ? s->freq : 0;
}

uint64_t hpm_emu_cycles_run(const struct hpm_backend_inst *b)
{
	const struct emu_inst *s = emu_view(b);
	return s ? s->ran : 0;
}

unsigned hpm_emu_harts(const struct hpm_backend_inst *b)
{
	const struct emu_inst *s = emu_view(b);
	return s ? s->harts : 0;
}

bool hpm_emu_multiplexed(const struct hpm_backend_inst *b)
{
	const struct emu_inst *s = emu_view(b);
	return s && s->sched.nr_groups > 1;
}

uint64_t hpm_emu_group_run(const struct hpm_backend_inst *b, unsigned g)
{
	const struct emu_inst *s = emu_view(b);
	return s && g < s->sched.nr_groups ? s->grun[g] : 0;
}

/* ------------------------------------------------------------------- tasks */

bool hpm_emu_has_tasks(const struct hpm_backend_inst *b)
{
	const struct emu_inst *s = emu_view(b);
	return s && s->mach->nr_tasks && s->mach->nr_tasks(s->vm) > 0;
}

int hpm_emu_tasks(struct hpm_backend_inst *b, const struct hpm_emu_task **rows, unsigned *nrows)
{
	struct emu_inst *s = emu_of(b);
	*rows = NULL;
	*nrows = 0;
	if (!s)
		return -EINVAL;
	if (!s->nr_tasks)
		return -ENOENT;
	for (unsigned i = 0; i <= s->nr_tasks; i++) {
		struct hpm_emu_task *t = &s->trows[i];
		struct hpm_emu_task_info ti;
		memset(t->comm, 0, sizeof(t->comm));
		if (i < s->nr_tasks && s->mach->task(s->vm, i, &ti)) {
			t->pid = ti.pid;
			t->tgid = ti.tgid;
			snprintf(t->comm, sizeof(t->comm), "%s", ti.comm);
			t->exited = ti.exited;
			t->hart_last = s->ran_yet[i] ? s->hart_last[i] : ti.hart;
		} else {
			t->pid = t->tgid = 0;
			snprintf(t->comm, sizeof(t->comm), "swapper");
			t->exited = false;
			t->hart_last = s->hart_last[i];
		}
		t->running = false;
		for (unsigned h = 0; h < s->harts; h++)
			if (s->cur[h] == (i == s->nr_tasks ? -1 : (int)i))
				t->running = !t->exited; /* ran up to its exit, the last cycle */
		t->switches = s->switches[i];
		s->mach->task_truth(s->vm, i, 0, 0, &t->cycles);
		for (unsigned k = 0; k < s->nr_map; k++) {
			int r = s->map[k].req;
			memset(&t->att[k], 0, sizeof(t->att[k]));
			t->truth[k] = 0;
			if (r < 0)
				continue;
			const struct hpm_sched_req *q = &s->req[r];
			t->att[k] = s->charged[(size_t)i * s->nr_req + (unsigned)r];
			/* a running task: as if its hart switched now */
			for (unsigned h = 0; h < s->harts; h++) {
				if (s->cur[h] != (i == s->nr_tasks ? -1 : (int)i))
					continue;
				struct hpm_count now, *last = &s->last[(size_t)r * s->harts + h];
				req_view(s, (unsigned)r, h, 0, &now);
				t->att[k].val += now.val - last->val;
				t->att[k].ena += now.ena - last->ena;
				t->att[k].run += now.run - last->run;
				t->att[k].wrapped |= now.wrapped;
			}
			t->truth[k] = s->mach->task_truth(s->vm, i, q->counter,
			                                  q->fixed ? 0 : q->value, &t->cycles);
		}
	}
	*rows = s->trows;
	*nrows = s->nr_tasks + 1;
	return 0;
}
