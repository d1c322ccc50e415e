/* session.c: see session.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "backend/host-events.h"
#include "registry/models.h"
#include "stat/session.h"
#include "stat/uncounted.h"
#include "util/str.h"
#include "util/xalloc.h"

int hpm_backend_choice_parse(const char *name, enum hpm_backend_choice *out)
{
	static const char *const names[] = {
	    [HPM_BACKEND_AUTO] = "auto", [HPM_BACKEND_PERF] = "perf", [HPM_BACKEND_EMU] = "emu"};
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0) {
			*out = (enum hpm_backend_choice)i;
			return 0;
		}
	return -1;
}

void hpm_session_init(struct hpm_session *s, enum hpm_backend_choice choice)
{
	hpm_session_init_host(s, choice, true);
}

void hpm_session_init_host(struct hpm_session *s, enum hpm_backend_choice choice, bool host)
{
	char err[256];
	memset(s, 0, sizeof(*s));
	s->choice = choice;
	/* No PMU found (or an unreadable sysfs) is the common case: the
	 * emulator takes the Kunminghu events then. */
	if (host && hpm_pmu_detect(&s->pmu, err, sizeof(err)) != 0)
		memset(&s->pmu, 0, sizeof(s->pmu));
	s->model_on_perf =
	    choice == HPM_BACKEND_PERF || (choice == HPM_BACKEND_AUTO && s->pmu.present);
	s->model = s->model_on_perf && s->pmu.model ? s->pmu.model : hpm_model_at(0);
	metric_set_init(&s->metrics, s->model->metrics ? s->model->metrics : &metric_table_empty);
	hpm_emu_config_init(&s->emu_cfg);
}

/* What the host's core is, for messages about a model it does not have:
 * "; this host's core is Neoverse N1", "; on this host, MIDR 0x... is a
 * core of no PMU model hpmstat knows ..."; "" when the host names no core
 * at all (x86). */
static void host_note(const struct hpm_session *s, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!s->pmu.cpuid[0])
		return;
	if (s->pmu.present)
		snprintf(buf, len, "; this host's core is %s", s->pmu.model->display);
	else if (s->pmu.reason[0])
		snprintf(buf, len, "; on this host, %.250s", s->pmu.reason);
}

int hpm_session_set_model(struct hpm_session *s, const char *name, char *err, size_t errlen)
{
	const struct hpm_pmu_model *m = hpm_model_by_name(name);
	if (!m) {
		hpm_model_unknown_msg(name, err, errlen);
		return -1;
	}
	bool host = s->pmu.present && s->pmu.model == m;
	if (!host && s->pmu.nr_cores > 1 && s->choice != HPM_BACKEND_EMU) {
		/* big.LITTLE: m may be the core of another core PMU */
		struct hpm_pmu other;
		char derr[256];
		if (hpm_pmu_detect_model(&other, m, derr, sizeof(derr)) == 0 && other.present &&
		    other.model == m) {
			s->pmu = other;
			host = true;
		}
	}
	char why[300];
	host_note(s, why, sizeof(why));
	if (s->choice == HPM_BACKEND_PERF && !host) {
		snprintf(err, errlen, "--pmu %s --backend perf: this host has no %s PMU%s", m->name,
		         m->display, why);
		return -1;
	}
	bool emulated = s->choice == HPM_BACKEND_EMU || !host;
	s->model = m;
	s->model_on_perf = !emulated;
	/* no emulator of it (a model registered without a machine; every
	 * built-in model has one since the Arm emulator): its events are still
	 * read and checked, and a dry run shows them; split refuses the rest */
	s->model_uncounted = emulated && !hpm_model_machine(m);
	s->model_generic = emulated;
	snprintf(s->host_why, sizeof(s->host_why), "%s", why);
	metric_set_free(&s->metrics);
	metric_set_init(&s->metrics, m->metrics ? m->metrics : &metric_table_empty);
	return 0;
}

int hpm_session_set_variant(struct hpm_session *s, const char *name, char *err, size_t errlen)
{
	const struct metric_table *t;
	struct hpm_diag merr;
	char esc[96];
	if (metric_variant_find(s->metrics.table, name, &t, &merr) == 0) {
		metric_set_free(&s->metrics);
		metric_set_init(&s->metrics, t);
		return 0;
	}
	str_escape(name, esc, sizeof(esc));
	if (merr.code == METRIC_ERANGE)
		snprintf(err, errlen,
		         "--topdown-variant '%s': the %s PMU model has no Topdown variants, "
		         "one set of formulas",
		         esc, s->model->display);
	else
		snprintf(err, errlen, "--topdown-variant: %s", merr.msg);
	return -1;
}

/* A row of fixed counter f of the session's model. */
static void set_fixed(const struct hpm_session *s, struct hpm_evsel *e, int f)
{
	e->kind = HPM_EV_MODEL_FIXED;
	memset(&e->enc, 0, sizeof(e->enc));
	e->enc.model = s->model;
	e->enc.fixed = f;
	e->enc.constraint = -1;
	e->enc.modes = s->model->modes_all;
}

/* perf's generic names as the emulated model counts them (hpmstat-stat(1));
 * 1 when mapped, 0 when not a generic name, -1 on error. */
static int map_generic(const struct hpm_session *s, struct hpm_evsel *e, char *err, size_t errlen)
{
	const char *colon = strchr(e->spec, ':');
	size_t len = colon ? (size_t)(colon - e->spec) : strlen(e->spec);
	const struct hpm_model_generic *g = hpm_model_generic(s->model, e->spec, len);
	if (!g)
		return 0;
	if (!g->event) {
		if (colon) {
			char names[128];
			snprintf(err, errlen,
			         "'%s': %s count in every mode; the emulator has no privilege "
			         "filter for them",
			         e->spec,
			         hpm_model_fixed_list(s->model, " and ", names, sizeof(names)));
			return -1;
		}
		set_fixed(s, e, g->fixed);
		return 1;
	}
	char buf[128];
	struct hpm_diag merr;
	snprintf(buf, sizeof(buf), "%s%s", g->event, colon ? colon : "");
	if (s->model->encode(s->model, buf, &e->enc, &merr) != 0) {
		snprintf(err, errlen, "'%s': %s", e->spec, merr.msg);
		return -1;
	}
	e->kind = HPM_EV_MODEL;
	return 1;
}

static void unknown_event(const struct hpm_session *s, const char *spec,
                          const struct hpm_diag *merr, char *err, size_t errlen)
{
	const char *k[3], *h[3];
	char name[96];
	size_t n = strcspn(spec, ":");
	snprintf(name, sizeof(name), "%.*s", (int)(n < sizeof(name) ? n : sizeof(name) - 1), spec);
	unsigned nk = s->model->suggest(s->model, name, k, 2);
	unsigned nh = hpm_host_event_suggest(name, h, 2);
	if (merr->code != HPM_MODEL_EUNKNOWN && merr->code != HPM_MODEL_ESYNTAX) {
		snprintf(err, errlen, "'%s': %s", spec, merr->msg);
		return;
	}
	if (!nk && !nh) {
		if (merr->code == HPM_MODEL_ESYNTAX)
			snprintf(err, errlen, "'%s': %s (column %u)", spec, merr->msg,
			         merr->column);
		else {
			char why[300];
			host_note(s, why, sizeof(why));
			/* an Arm name on an Arm host of no known core: say why;
			 * a libpfm4 name without libpfm4 too */
			const char *nopfm = hpm_host_event_pfm_missing();
			snprintf(err, errlen,
			         "unknown event '%s' (see 'hpmstat list' and 'perf list')%s%s%s",
			         spec, s->pmu.present ? "" : why,
			         nopfm ? "; host event names are read by libpfm4: " : "",
			         nopfm ? nopfm : "");
		}
		return;
	}
	char hint[200] = "";
	size_t off = 0;
	for (unsigned i = 0; i < nk; i++)
		off +=
		    (size_t)snprintf(hint + off, sizeof(hint) - off, "%s%s", off ? ", " : "", k[i]);
	for (unsigned i = 0; i < nh; i++)
		off +=
		    (size_t)snprintf(hint + off, sizeof(hint) - off, "%s%s", off ? ", " : "", h[i]);
	snprintf(err, errlen, "unknown event '%s' (did you mean %s?)", spec, hint);
}

/* One run counts the events of one PMU model (its rows share the model's
 * counters and metric table): an event the session's model does not know
 * but another registered model does is refused naming both, rather than
 * as an unknown event. True when that message was written. */
static bool other_model_event(const struct hpm_session *s, const char *spec, char *err,
                              size_t errlen)
{
	char names[256];
	const struct hpm_pmu_model *know[16];
	unsigned count = 0;
	for (unsigned i = 0; i < hpm_model_count() && count < 16; i++) {
		const struct hpm_pmu_model *m = hpm_model_at(i);
		struct hpm_event_code enc;
		struct hpm_diag merr;
		if (m != s->model && m->encode(m, spec, &enc, &merr) == 0)
			know[count++] = m;
	}
	if (!count)
		return false;
	size_t n = 0;
	names[0] = '\0';
	for (unsigned i = 0; i < count && n < sizeof(names); i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
		                      !i              ? ""
		                      : i + 1 < count ? ", "
		                                      : " and ",
		                      know[i]->display);
	const struct hpm_pmu_model *first = know[0];
	char why[300];
	/* an Arm name on an Arm host of no known core: say why */
	host_note(s, why, sizeof(why));
	snprintf(err, errlen,
	         "'%s' is an event of %s, not of %s, whose events this run counts: one run "
	         "counts one PMU model (--pmu %s counts it)%s",
	         spec, names, s->model->display, first->name, s->pmu.present ? "" : why);
	return true;
}

static int route(struct hpm_session *s, struct hpm_evsel *e, char *err, size_t errlen)
{
	struct hpm_diag merr;
	enum hpm_tool tool;
	int is_tool = hpm_host_tool_parse(e->spec, &tool, err, errlen);
	if (is_tool < 0)
		return -1;
	if (is_tool) {
		e->kind = HPM_EV_TOOL;
		e->tool = (int)tool;
		/* perf's tool events are software dummies: no clock, no cycles, so
		 * the printers give them the plain rate */
		e->attr_type = PERF_TYPE_SOFTWARE;
		e->attr_config = PERF_COUNT_SW_DUMMY;
		e->unit = "ns";
		e->scale = 1.0;
		return 0;
	}
	/* the model's fixed counters by their own names (mcycle), on any back end */
	size_t base = strcspn(e->spec, ":");
	int f = hpm_model_fixed_by_name(s->model, e->spec, base);
	if (f >= 0) {
		set_fixed(s, e, f);
		if (e->spec[base] == ':') {
			/* Linux filters them by mode (SBI); the emulated CSRs, without
			 * Smcntrpmf, count in every mode */
			if (!s->model_on_perf) {
				snprintf(
				    err, errlen,
				    "'%s': the emulator's %.*s counts in every mode; it has no "
				    "privilege filter",
				    e->spec, (int)base, e->spec);
				return -1;
			}
			if (s->model->parse_modifiers(s->model, e->spec + base + 1, &e->enc.modes,
			                              &merr) != 0) {
				snprintf(err, errlen, "'%s': %s", e->spec, merr.msg);
				return -1;
			}
			e->enc.modes_given = true;
		}
		return 0;
	}
	if (s->choice == HPM_BACKEND_EMU || s->model_generic) {
		int rc = map_generic(s, e, err, errlen);
		if (rc)
			return rc < 0 ? -1 : 0;
	}
	/* at most one encoding decides between the namespaces (a generic or
	 * libpfm4 name wins, SPEC §1; a generic name needs none) and is the
	 * row's when it is Kunminghu's */
	struct hpm_model_attempt k = {.model = s->model};
	if (hpm_host_event_is_host_once(e->spec, &k)) {
		e->kind = HPM_EV_HOST;
		return hpm_host_event_fill(e, err, errlen) == 0 ? 0 : -1;
	}
	if (hpm_host_model_try(e->spec, &k)) {
		e->kind = HPM_EV_MODEL;
		e->enc = k.enc;
		return 0;
	}
	if ((k.err.code == HPM_MODEL_EUNKNOWN || k.err.code == HPM_MODEL_ESYNTAX) &&
	    other_model_event(s, e->spec, err, errlen))
		return -1;
	unknown_event(s, e->spec, &k.err, err, errlen);
	return -1;
}

/* "stall_slot:th>=2,count": a bare term after a comma is read as an event
 * (the list splits there, as perf's does); when it is a term of the event
 * before, say how to write it instead of only "unknown event 'count'". */
static void term_after_comma(const struct hpm_session *s, const char *prev, const char *spec,
                             char *err, size_t errlen)
{
	char joined[256];
	struct hpm_event_code enc;
	struct hpm_diag merr;
	if (!strchr(prev, ':') || strchr(spec, ':') || strchr(spec, '/') ||
	    (size_t)snprintf(joined, sizeof(joined), "%s:%s", prev, spec) >= sizeof(joined) ||
	    s->model->encode(s->model, joined, &enc, &merr) != 0)
		return;
	snprintf(err, errlen,
	         "unknown event '%s': a comma separates events; as a term of '%s' write it "
	         "after a colon: '%s'",
	         spec, prev, joined);
}

bool hpm_session_events_software(const char *const *lists, unsigned nr)
{
	struct hpm_evlist l = {0};
	char err[256];
	bool all = true;
	for (unsigned i = 0; all && i < nr; i++)
		all = hpm_evlist_parse(&l, lists[i], err, sizeof(err)) == 0;
	for (unsigned i = 0; all && i < l.nr; i++)
		all = hpm_host_event_is_software(l.ev[i].spec);
	hpm_evlist_free(&l);
	return all;
}

int hpm_session_add_events(struct hpm_session *s, const char *text, char *err, size_t errlen)
{
	unsigned first = s->all.nr;
	if (hpm_evlist_parse(&s->all, text, err, errlen) != 0)
		return -1;
	for (unsigned i = first; i < s->all.nr; i++)
		if (route(s, &s->all.ev[i], err, errlen) != 0) {
			if (i > first)
				term_after_comma(s, s->all.ev[i - 1].spec, s->all.ev[i].spec, err,
				                 errlen);
			return -1;
		}
	return 0;
}

static int find_model_row(const struct hpm_evlist *l, const char *name)
{
	for (unsigned i = 0; i < l->nr; i++)
		if (l->ev[i].kind != HPM_EV_HOST && strcmp(l->ev[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* The metric engine's question for merging A + B: one counter of the
 * session's model counts it when it encodes as one event (ctx: the
 * session). */
static bool model_counts_sum(void *ctx, const char *sum)
{
	const struct hpm_session *s = ctx;
	struct hpm_event_code enc;
	struct hpm_diag merr;
	return s->model->encode(s->model, sum, &enc, &merr) == 0;
}

int hpm_session_add_metrics(struct hpm_session *s, const char *list, unsigned level,
                            bool retired_minstret, char *err, size_t errlen)
{
	struct hpm_diag merr;
	struct metric_names names = {0};
	if (retired_minstret && s->metrics.table->retired.from) {
		s->subst[0] = s->metrics.table->retired;
		s->nr_subst = 1;
	}
	if (list && metric_set_add(&s->metrics, list, &merr) != 0) {
		snprintf(err, errlen, "%s", merr.msg);
		return -1;
	}
	if (level && metric_set_add_topdown(&s->metrics, level, &merr) != 0) {
		snprintf(err, errlen, "%s", merr.msg);
		return -1;
	}
	metric_set_events(&s->metrics, s->subst, s->nr_subst,
	                  METRIC_EV_MERGE | METRIC_EV_THRESHOLDS, model_counts_sum, s, &names);
	for (unsigned i = 0; i < names.nr; i++) {
		const char *n = names.name[i];
		if (find_model_row(&s->all, n) >= 0)
			continue;
		struct hpm_evsel *e = hpm_evlist_add(&s->all, n, -1);
		e->metric_only = true;
		struct hpm_diag eerr;
		int f = hpm_model_fixed_by_generic(s->model, n);
		if (f < 0)
			f = hpm_model_fixed_by_event(s->model, n);
		if (f >= 0) {
			/* in metrics, cycles and instructions are the model's fixed
			 * counters, and so is an event a fixed counter counts (Arm's
			 * CPU_CYCLES: PMCCNTR) */
			set_fixed(s, e, f);
		} else if (s->model->encode(s->model, n, &e->enc, &eerr) == 0) {
			e->kind = HPM_EV_MODEL;
		} else {
			snprintf(err, errlen, "metric event '%s': %s", n, eerr.msg);
			metric_names_free(&names);
			return -1;
		}
	}
	metric_names_free(&names);
	return 0;
}

/* ------------------------------------------------------------ back ends */

/* The back ends a session may use, in the order it runs them (a dry run
 * prints their lines in this order). */
static const struct hpm_backend *const known_backends[HPM_SESSION_MAX_BACKENDS] = {
    &hpm_backend_perf, &hpm_backend_emu, &hpm_backend_tool, &hpm_backend_uncounted};

/* The back end that counts row e. */
static const struct hpm_backend *backend_for(const struct hpm_session *s, const struct hpm_evsel *e)
{
	if (e->kind == HPM_EV_TOOL)
		return &hpm_backend_tool;
	if (e->kind == HPM_EV_HOST || s->model_on_perf)
		return &hpm_backend_perf;
	return s->model_uncounted ? &hpm_backend_uncounted : &hpm_backend_emu;
}

/* The options the session gives a back end (NULL: it has none). Resolved
 * at each use, not kept: callers move a session by value before opening
 * it (top's reprogramming). */
static void *backend_cfg(struct hpm_session *s, const struct hpm_backend *ops)
{
	if (ops == &hpm_backend_perf) {
		s->perf_cfg.pmu = &s->pmu;
		return &s->perf_cfg;
	}
	if (ops == &hpm_backend_uncounted)
		return s->host_why;
	return ops == &hpm_backend_emu ? &s->emu_cfg : NULL;
}

/* s->backend[] index of ops, or -1 when the session does not use it. */
static int backend_index(const struct hpm_session *s, const struct hpm_backend *ops)
{
	for (unsigned k = 0; k < s->nr_backends; k++)
		if (s->backend[k].ops == ops)
			return (int)k;
	return -1;
}

/* The open instance of ops, NULL when it is not open (or not used). */
static struct hpm_backend_inst *backend_inst(const struct hpm_session *s,
                                             const struct hpm_backend *ops)
{
	int k = backend_index(s, ops);
	return k < 0 ? NULL : s->backend[k].inst;
}

/* The list's own units: those of the first back end in use (the rows
 * carry their back end's). */
static void set_list_units(struct hpm_session *s)
{
	s->all.nr_units = s->nr_backends ? s->backend[0].nr_units : 0;
	s->all.unit_names = NULL; /* the back ends' own; never freed through `all` */
}

int hpm_session_split(struct hpm_session *s, char *err, size_t errlen)
{
	s->nr_backends = 0;
	for (unsigned k = 0; k < HPM_SESSION_MAX_BACKENDS; k++) {
		struct hpm_session_backend *b = &s->backend[s->nr_backends];
		memset(b, 0, sizeof(*b));
		b->ops = known_backends[k];
		for (unsigned i = 0; i < s->all.nr; i++) {
			if (backend_for(s, &s->all.ev[i]) != b->ops)
				continue;
			if (!b->rows)
				b->rows = xcalloc(s->all.nr, sizeof(*b->rows));
			b->rows[b->nr_rows++] = i;
		}
		if (b->nr_rows)
			s->nr_backends++;
	}
	for (unsigned i = 0; i < s->all.nr; i++)
		s->all.ev[i].emulated = backend_for(s, &s->all.ev[i]) == &hpm_backend_emu;
	if (!s->dry_run && backend_index(s, &hpm_backend_uncounted) >= 0) {
		hpm_uncounted_why(s->model, s->host_why, err, errlen);
		return -1;
	}
	return 0;
}

bool hpm_session_uses_emu(const struct hpm_session *s)
{
	return backend_index(s, &hpm_backend_emu) >= 0;
}

bool hpm_session_uses_perf(const struct hpm_session *s)
{
	return backend_index(s, &hpm_backend_perf) >= 0;
}

bool hpm_session_uses_tool(const struct hpm_session *s)
{
	return backend_index(s, &hpm_backend_tool) >= 0;
}

int hpm_session_open(struct hpm_session *s, const struct hpm_target *t, char *err, size_t errlen)
{
	for (unsigned k = 0; k < s->nr_backends; k++) {
		struct hpm_session_backend *b = &s->backend[k];
		int rc = b->ops->open(&s->all, b->rows, b->nr_rows, t, backend_cfg(s, b->ops),
		                      &b->inst, err, errlen);
		if (rc)
			return rc;
		/* the rows point at these units: the session keeps them past close */
		hpm_unit_names_free(b->unit_names, b->nr_units);
		b->nr_units = b->inst->nr_units;
		b->unit_names = b->inst->unit_names;
		b->inst->unit_names = NULL;
	}
	set_list_units(s);
	return 0;
}

int hpm_session_enable(struct hpm_session *s, char *err, size_t errlen)
{
	for (unsigned k = 0; k < s->nr_backends; k++) {
		struct hpm_session_backend *b = &s->backend[k];
		int rc;
		if (b->inst && (rc = b->ops->enable(b->inst, err, errlen)))
			return rc;
	}
	return 0;
}

int hpm_session_disable(struct hpm_session *s, char *err, size_t errlen)
{
	for (unsigned k = 0; k < s->nr_backends; k++) {
		struct hpm_session_backend *b = &s->backend[k];
		int rc;
		if (b->inst && (rc = b->ops->disable(b->inst, err, errlen)))
			return rc;
	}
	return 0;
}

int hpm_session_advance(struct hpm_session *s, uint64_t ns, bool *done, char *err, size_t errlen)
{
	*done = true;
	for (unsigned k = 0; k < s->nr_backends; k++) {
		struct hpm_session_backend *b = &s->backend[k];
		bool this_done = false;
		if (!b->inst || !b->ops->advance)
			continue;
		int rc = b->ops->advance(b->inst, ns, &this_done, err, errlen);
		*done = *done && this_done;
		if (rc)
			return rc;
	}
	return 0;
}

int hpm_session_run_emu(struct hpm_session *s, uint64_t max_cycles, uint64_t budget_ns,
                        uint64_t *ran, bool *done, char *err, size_t errlen)
{
	struct hpm_backend_inst *emu = backend_inst(s, &hpm_backend_emu);
	*ran = 0;
	*done = true;
	if (!emu)
		return 0;
	return hpm_emu_run_bounded(emu, max_cycles, budget_ns, ran, done, err, errlen);
}

int hpm_session_read(struct hpm_session *s, char *err, size_t errlen)
{
	for (unsigned k = 0; k < s->nr_backends; k++) {
		struct hpm_session_backend *b = &s->backend[k];
		int rc;
		if (b->inst && (rc = b->ops->read(b->inst, err, errlen)))
			return rc;
	}
	return 0;
}

void hpm_session_set_run_times(struct hpm_session *s, uint64_t elapsed_ns, uint64_t user_ns,
                               uint64_t sys_ns)
{
	hpm_tool_set_run_times(backend_inst(s, &hpm_backend_tool), elapsed_ns, user_ns, sys_ns);
}

int hpm_session_dry_run(struct hpm_session *s, const struct hpm_target *t, FILE *out, char *err,
                        size_t errlen)
{
	for (unsigned k = 0; k < s->nr_backends; k++) {
		struct hpm_session_backend *b = &s->backend[k];
		int rc = b->ops->dry_run(&s->all, b->rows, b->nr_rows, t, backend_cfg(s, b->ops),
		                         out, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

void hpm_session_close(struct hpm_session *s)
{
	for (unsigned k = 0; k < s->nr_backends; k++) {
		struct hpm_session_backend *b = &s->backend[k];
		if (b->inst)
			b->ops->close(b->inst);
		b->inst = NULL;
	}
}

void hpm_session_free(struct hpm_session *s)
{
	hpm_session_close(s);
	for (unsigned k = 0; k < s->nr_backends; k++) {
		free(s->backend[k].rows);
		hpm_unit_names_free(s->backend[k].unit_names, s->backend[k].nr_units);
	}
	hpm_evlist_free(&s->all);
	free(s->mvals);
	metric_set_free(&s->metrics);
	memset(s, 0, sizeof(*s));
}

/* ------------------------------------------------------------ metrics */

/* The session's rows as the metric engine reads them (metric_events). */
struct lookup_ctx {
	struct hpm_session *s;
	const struct hpm_count *const *delta;
	int unit; /* -1: every unit summed */
};

static const char *metric_row_name(void *ctx, unsigned i, bool *host)
{
	const struct hpm_evsel *e = &((struct lookup_ctx *)ctx)->s->all.ev[i];
	*host = e->kind == HPM_EV_HOST;
	return e->name;
}

static double metric_row_value(void *ctx, unsigned i, double *share)
{
	struct lookup_ctx *c = ctx;
	const struct hpm_evsel *e = &c->s->all.ev[i];
	if (!c->delta)
		return hpm_evsel_value(&c->s->all, e, c->unit, share);
	if (e->state != HPM_EV_OK)
		return (double)NAN;
	return hpm_counts_value(c->delta[i], e->nr_units, c->unit, e->scale, share);
}

unsigned hpm_session_metrics(struct hpm_session *s, const struct hpm_count *const *delta,
                             struct stat_metric **out)
{
	return hpm_session_metrics_unit(s, delta, -1, out);
}

unsigned hpm_session_metric_units(const struct hpm_session *s, char *const **names)
{
	/* metrics read Kunminghu events, which all live on one back end */
	int k = backend_index(s, s->model_on_perf ? &hpm_backend_perf : &hpm_backend_emu);
	*names = k < 0 ? NULL : s->backend[k].unit_names;
	return *names ? s->backend[k].nr_units : 0;
}
/* A node whose parent is not shown (--nodes removed it) is named by its
 * path from the nearest ancestor shown, as toplev's dotted names
 * (Backend_Bound.Memory_Bound): never a child floating under another
 * node's rows. Takes name (owned), returns the name to show (owned). */
static char *floating_node_name(const struct metric_set *set, const struct metric *d, char *name)
{
	for (const struct metric *p = metric_parent(set->table, d);
	     p && metric_set_find(set, p) < 0; p = metric_parent(set->table, p)) {
		char *parent = metric_node_display_name(p);
		char *path = xasprintf("%s.%s", parent, name);
		free(parent);
		free(name);
		name = path;
	}
	return name;
}

/* Whether metric m (or a metric it uses) reads row `row`: an event of its
 * expression, or a merged sum "a+b" of which one is. */
static bool metric_reads(const struct metric_table *t, const struct metric *m, const char *row,
                         unsigned depth)
{
	const struct mexpr *e = metric_expr(t, m);
	if (!e || depth > t->nr)
		return false;
	for (unsigned i = 0; i < mexpr_nr_names(e); i++) {
		const char *n = mexpr_name(e, i);
		const struct metric *r = metric_by_name(t, n);
		if (r) {
			if (metric_reads(t, r, row, depth + 1))
				return true;
			continue;
		}
		size_t len = strlen(n);
		for (const char *p = row; *p; p += strcspn(p, "+"), p += *p == '+')
			if (strncmp(p, n, len) == 0 && (p[len] == '+' || !p[len]))
				return true;
	}
	return false;
}

/* The row perf prints metric m beside: the first of the events it reads
 * (perf's first event of the metric's group); -1 when it reads none. */
static int metric_beside_row(const struct hpm_session *s, const struct metric *m)
{
	for (unsigned i = 0; i < s->all.nr; i++)
		if (s->all.ev[i].kind != HPM_EV_HOST &&
		    metric_reads(s->metrics.table, m, s->all.ev[i].name, 0))
			return (int)i;
	return -1;
}

unsigned hpm_session_metrics_unit(struct hpm_session *s, const struct hpm_count *const *delta,
                                  int unit, struct stat_metric **out)
{
	unsigned nr = s->metrics.nr;
	struct lookup_ctx ctx = {.s = s, .delta = delta, .unit = unit};
	const struct metric_events rows = {
	    .nr = s->all.nr, .name = metric_row_name, .value = metric_row_value, .ctx = &ctx};
	*out = NULL;
	if (!nr)
		return 0;
	s->mvals = xreallocarray(s->mvals, nr, sizeof(*s->mvals));
	bool multiplexed =
	    metric_set_eval_events(&s->metrics, &rows, s->subst, s->nr_subst, s->mvals);
	struct stat_metric *m = xcalloc(nr, sizeof(*m));
	for (unsigned k = 0; k < nr; k++) {
		const struct metric *d = s->metrics.m[k];
		const struct metric_value *v = &s->mvals[k];
		m[k].name = metric_str(d, d->name);
		m[k].def = d;
		m[k].display = metric_node_display_name(d);
		m[k].unit = d->share == METRIC_SHARE_SLOTS    ? "% slots"
		            : d->share == METRIC_SHARE_CYCLES ? "% cycles"
		                                              : metric_str(d, d->unit);
		m[k].level = d->level;
		m[k].parent = -1;
		m[k].under = metric_set_under(&s->metrics, k);
		const struct metric *p = metric_parent(s->metrics.table, d);
		if (p)
			m[k].parent = metric_set_find(&s->metrics, p);
		if (p && m[k].parent < 0)
			m[k].display = floating_node_name(&s->metrics, d, m[k].display);
		m[k].raw = v->value;
		m[k].value = metric_value_shown(d, v);
		m[k].out_of_range = (v->flags & METRIC_F_OUT_OF_RANGE) != 0;
		m[k].bottleneck = (v->flags & METRIC_F_BOTTLENECK) != 0;
		m[k].over_threshold = v->thresh == METRIC_THRESH_YES;
		m[k].multiplexed = multiplexed;
		m[k].beside = metric_beside_row(s, d);
	}
	*out = m;
	return nr;
}

bool hpm_session_emu_info(const struct hpm_session *s, struct hpm_emu_info *info)
{
	return hpm_emu_info(backend_inst(s, &hpm_backend_emu), info);
}

int hpm_session_emu_tasks(struct hpm_session *s, const struct hpm_emu_task **tasks,
                          unsigned *ntasks, const unsigned **evrows, unsigned *nrows)
{
	struct hpm_backend_inst *emu = backend_inst(s, &hpm_backend_emu);
	*evrows = emu ? emu->rows : NULL;
	*nrows = emu ? emu->nr_rows : 0;
	return hpm_emu_tasks(emu, tasks, ntasks);
}

uint64_t hpm_session_emu_freq(const struct hpm_session *s)
{
	return hpm_emu_freq(backend_inst(s, &hpm_backend_emu));
}

const char *hpm_session_emu_profile(const struct hpm_session *s)
{
	const struct hpm_emu_machine *machine = hpm_model_machine(s->model);
	if (s->emu_cfg.profile)
		return s->emu_cfg.profile;
	return machine ? machine->default_profile : NULL;
}

void hpm_session_emu_label(const struct hpm_session *s, struct stat_emu_label *l)
{
	memset(l, 0, sizeof(*l));
	if (!hpm_session_uses_emu(s))
		return;
	struct hpm_emu_info info;
	l->active = true;
	l->run.model = s->model->display;
	if (!hpm_emu_info(backend_inst(s, &hpm_backend_emu), &info)) {
		/* not open (yet): what the options say */
		l->run.profile = s->emu_cfg.trace ? NULL : hpm_session_emu_profile(s);
		l->run.trace = s->emu_cfg.trace;
		l->run.seed = s->emu_cfg.seed;
		l->run.harts = s->emu_cfg.harts;
		l->run.freq = (double)s->emu_cfg.freq;
		return;
	}
	l->run.profile = info.profile;
	l->run.trace = info.trace;
	l->run.seed = info.seed;
	l->run.harts = info.harts;
	l->run.cycles = info.cycles_run;
	l->run.freq = (double)info.freq;
	l->run.follows_command = info.follows_command;
	l->run.multiplexed = info.multiplexed;
}

/* ------------------------------------------------------------ --no-multiplex */

void hpm_session_take_row(struct hpm_session *s, unsigned to, struct hpm_session *src,
                          unsigned from)
{
	struct hpm_evsel *d = &s->all.ev[to];
	/* s and src route alike: the same back end counts both rows */
	struct hpm_session_backend *db = &s->backend[backend_index(s, backend_for(s, d))];
	free(d->counts);
	free(d->placement);
	d->counts = NULL;
	d->placement = NULL;
	if (!src) {
		/* a run that never came: the row never ran */
		d->counts = xcalloc(db->nr_units ? db->nr_units : 1, sizeof(*d->counts));
		d->state = HPM_EV_NOT_COUNTED;
	} else {
		struct hpm_evsel *e = &src->all.ev[from];
		struct hpm_session_backend *sb =
		    &src->backend[backend_index(src, backend_for(src, e))];
		/* src keeps neither: its free must not free what s now owns */
		d->counts = e->counts;
		d->placement = e->placement;
		e->counts = NULL;
		e->placement = NULL;
		d->state = e->state;
		d->unit = e->unit;
		d->scale = e->scale;
		d->attr_type = e->attr_type;
		d->attr_config = e->attr_config;
		d->attr_config1 = e->attr_config1;
		d->attr_config2 = e->attr_config2;
		if (!db->unit_names && sb->unit_names) {
			db->nr_units = sb->nr_units;
			db->unit_names = sb->unit_names;
			sb->unit_names = NULL;
		}
	}
	d->nr_units = db->nr_units;
	d->unit_names = db->unit_names;
	set_list_units(s);
}

/* ------------------------------------------------------------ snapshots */

struct hpm_count **hpm_session_snapshot(const struct hpm_session *s)
{
	const struct hpm_evlist *l = &s->all;
	struct hpm_count **snap = xcalloc(l->nr ? l->nr : 1, sizeof(*snap));
	for (unsigned i = 0; i < l->nr; i++) {
		unsigned nu = l->ev[i].nr_units ? l->ev[i].nr_units : 1;
		snap[i] = xcalloc(nu, sizeof(**snap));
		if (l->ev[i].counts)
			memcpy(snap[i], l->ev[i].counts, nu * sizeof(**snap));
	}
	return snap;
}

void hpm_session_snapshot_free(const struct hpm_session *s, struct hpm_count **snap)
{
	for (unsigned i = 0; snap && i < s->all.nr; i++)
		free(snap[i]);
	free(snap);
}

struct hpm_count **hpm_session_delta(const struct hpm_session *s, struct hpm_count *const *prev)
{
	struct hpm_count **cur = hpm_session_snapshot(s);
	for (unsigned i = 0; prev && i < s->all.nr; i++) {
		unsigned nu = s->all.ev[i].nr_units ? s->all.ev[i].nr_units : 1;
		for (unsigned u = 0; u < nu; u++) {
			cur[i][u].val -= prev[i][u].val;
			cur[i][u].ena -= prev[i][u].ena;
			cur[i][u].run -= prev[i][u].run;
			/* cur - prev mod 2^64 is the interval's count even across a
			 * wrap (an interval never counts 2^64): only a total is lost */
			cur[i][u].wrapped = false;
		}
	}
	return cur;
}
