/* samples-td.c: see samples-td.h. */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arch/model.h"
#include "metric/metric.h"
#include "registry/models.h"
#include "report/samples-td.h"
#include "util/str.h"
#include "util/xalloc.h"

/* The previous read of one (leader, cpu, tid). */
struct td_prev {
	int ev;
	uint32_t cpu, tid;
	uint64_t *v;
	unsigned nr;
	long entry; /* the entry the previous read was sampled in; -1: none yet */
};

struct td_state {
	struct td_prev *p;
	unsigned nr;
};

static struct td_state *state(struct rs_report *rs)
{
	/* kept in the report's td_name slot until finish: a small private
	 * struct, freed there */
	return (struct td_state *)(void *)rs->td_name;
}

/* The members of h's group, from the first sample's ids. */
static void members(struct rs_report *rs, struct rs_hist *h, const struct pd_record *r)
{
	h->nr_member = (unsigned)r->u.sample.read_nr;
	h->member = xcalloc(h->nr_member, sizeof(char *));
	for (unsigned i = 0; i < h->nr_member; i++) {
		uint64_t v, id;
		char b[64];
		pd_read_value(&rs->file, r, i, &v, &id);
		int ev = pd_event_of_id(&rs->file, id);
		if (ev < 0)
			snprintf(b, sizeof(b), "id %llu", (unsigned long long)id);
		/* the formulas know the event, not its levels: a name made
		 * from the attr without perf's modifiers ("cycles", not
		 * "cycles:u") */
		h->member[i] = xstrdup(
		    ev >= 0 ? pd_event_base_name(&rs->file, (unsigned)ev, b, sizeof(b)) : b);
	}
}

void rs_td_sample(struct rs_report *rs, struct rs_hist *h, struct rs_entry *e,
                  const struct pd_record *r)
{
	const struct pd_sample *s = &r->u.sample;
	if (r->ev < 0 || !s->read_values || s->read_nr > 64)
		return;
	if (!(rs->file.ev[r->ev].attr.read_format & PERF_FORMAT_GROUP))
		return;
	if (!h->member)
		members(rs, h, r);
	if (s->read_nr != h->nr_member)
		return;
	struct td_state *st = state(rs);
	if (!st) {
		st = xcalloc(1, sizeof(*st));
		rs->td_name = (const char **)(void *)st;
	}
	struct td_prev *p = NULL;
	for (unsigned i = 0; i < st->nr; i++)
		if (st->p[i].ev == r->ev && st->p[i].cpu == s->cpu && st->p[i].tid == s->tid)
			p = &st->p[i];
	if (!p) {
		st->p = xrealloc(st->p, (st->nr + 1) * sizeof(*st->p));
		p = &st->p[st->nr++];
		p->ev = r->ev;
		p->cpu = s->cpu;
		p->tid = s->tid;
		p->nr = h->nr_member;
		p->v = NULL;
		p->entry = -1;
	}
	if (!e->delta)
		e->delta = xcalloc(h->nr_member, sizeof(double));
	/* The counts between two reads go to the function only when both
	 * reads were sampled in it: a period that straddles two functions
	 * would mix their profiles into the later one (measured on the
	 * emulator's hotspots at -c 97: 8 points off the declared Topdown
	 * that way). The first read has no earlier one in a function. */
	if (!p->v)
		p->v = xcalloc(h->nr_member, sizeof(uint64_t));
	long idx = (long)(e - h->e);
	bool same = p->entry == idx;
	for (unsigned i = 0; i < h->nr_member; i++) {
		uint64_t v, id;
		pd_read_value(&rs->file, r, i, &v, &id);
		if (same && v >= p->v[i])
			e->delta[i] += (double)(v - p->v[i]);
		p->v[i] = v;
	}
	p->entry = idx;
}

struct td_ctx {
	const struct hpm_pmu_model *m;
	const struct rs_hist *h;
	const double *d;
};

/* A member's name as m's formulas spell it: a fixed counter by its own
 * name ("mcycle", what a Kunminghu recording may call it) or a generic
 * alias ("cpu-cycles") is the event the formulas name ("cycles"). */
static const char *formula_name(const struct hpm_pmu_model *m, const char *name)
{
	int f = -1;
	for (unsigned k = 0; k < m->nr_fixed && f < 0; k++)
		if (strcasecmp(name, m->fixed[k].name) == 0)
			f = (int)k;
	if (f < 0) {
		const struct hpm_model_generic *g = hpm_model_generic(m, name, strlen(name));
		if (g && g->event)
			return g->event;
		if (g)
			f = g->fixed;
	}
	if (f < 0 || (unsigned)f >= m->nr_fixed)
		return name;
	return m->fixed[f].event     ? m->fixed[f].event
	       : m->fixed[f].generic ? m->fixed[f].generic
	                             : name;
}

static const char *ev_name(void *c, unsigned i, bool *host)
{
	const struct td_ctx *t = c;
	*host = false;
	return formula_name(t->m, t->h->member[i]);
}

/* Whether a member of h gives event `name` of m's formulas: named so, or
 * a part of a member counted as a sum ("INST_SPEC+RECOVERY_BUBBLE"). */
static bool has_event(const struct hpm_pmu_model *m, const struct rs_hist *h, const char *name)
{
	size_t len = strlen(name);
	for (unsigned i = 0; i < h->nr_member; i++) {
		const char *f = formula_name(m, h->member[i]);
		for (const char *p = f; *p;) {
			size_t n = strcspn(p, "+");
			if (n == len && strncasecmp(p, name, len) == 0)
				return true;
			p += n + (p[n] == '+');
		}
	}
	return false;
}

/* The events m's level-1 Topdown needs that no member of h gives, joined
 * by ", " into buf; how many (UINT_MAX when m has no level-1 Topdown). */
static unsigned missing_events(const struct hpm_pmu_model *m, const struct rs_hist *h, char *buf,
                               size_t len)
{
	struct metric_set set;
	struct hpm_diag err;
	struct metric_names names = {0};
	struct str_buf b = {buf, len, 0};
	unsigned nr = 0;
	buf[0] = '\0';
	metric_set_init(&set, m->metrics);
	if (metric_set_add_topdown(&set, 1, &err) != 0 || !set.nr) {
		metric_set_free(&set);
		return UINT_MAX;
	}
	metric_set_events(&set, NULL, 0, 0, NULL, NULL, &names);
	for (unsigned i = 0; i < names.nr; i++)
		if (!has_event(m, h, names.name[i]))
			str_buf_add(&b, "%s%s", nr++ ? ", " : "", names.name[i]);
	metric_names_free(&names);
	metric_set_free(&set);
	return nr;
}

/* Why no model computes h's Topdown: the model asked for (--pmu), else the
 * one the file's cpuid names, else the one that misses the fewest events,
 * with the events its level 1 needs that the group lacks. */
static void explain_missing(struct rs_report *rs, const struct rs_hist *h,
                            const struct hpm_pmu_model *byid)
{
	const struct hpm_pmu_model *best = rs->opts.pmu ? hpm_model_by_name(rs->opts.pmu) : byid;
	char miss[256] = "", b[256];
	unsigned fewest = UINT_MAX;
	if (best && best->metrics)
		fewest = missing_events(best, h, miss, sizeof(miss));
	else
		for (unsigned i = 0; i < hpm_model_count(); i++) {
			const struct hpm_pmu_model *m = hpm_model_at(i);
			unsigned n;
			if (m->metrics && (n = missing_events(m, h, b, sizeof(b))) < fewest) {
				fewest = n;
				best = m;
				snprintf(miss, sizeof(miss), "%s", b);
			}
		}
	if (!best || fewest == UINT_MAX || !fewest)
		return; /* the generic reason stands */
	struct str_buf w = {rs->td_why, sizeof(rs->td_why), 0};
	str_buf_add(&w, "the %s model's level 1 needs %s, which the group {", best->name, miss);
	for (unsigned i = 0; i < h->nr_member; i++)
		str_buf_add(&w, "%s%s", i ? "," : "", h->member[i]);
	str_buf_add(&w, "} does not have");
}

/* Level-1 shares outside 0-100 % or not adding up to 100 %: no formula
 * gives that from counts a group read together, so the reads were damaged
 * (a member that wrapped or went back, a file edited). 1 point of slack
 * for the counts that cross a period's edge. */
static bool level1_damaged(const struct rs_report *rs, const double *td)
{
	double sum = 0;
	for (unsigned k = 0; k < rs->nr_td; k++) {
		if (rs->td_parent[k] >= 0 || isnan(td[k]))
			continue;
		if (td[k] < -1 || td[k] > 101)
			return true;
		sum += td[k];
	}
	return fabs(sum - 100) > 1;
}

static double ev_value(void *c, unsigned i, double *share)
{
	(void)share;
	const double *d = ((struct td_ctx *)c)->d;
	return d ? d[i] : (double)NAN;
}

/* Level-1 values of deltas d (NAN each when the set cannot evaluate), and
 * in *bn (when not NULL) the nodes on the bottleneck path, bit k for
 * set->m[k]. */
static bool eval(const struct hpm_pmu_model *m, const struct metric_set *set,
                 const struct rs_hist *h, const double *d, double *out, uint64_t *bn)
{
	struct td_ctx c = {m, h, d};
	struct metric_events evs = {
	    .nr = h->nr_member, .name = ev_name, .value = ev_value, .ctx = &c};
	struct metric_value *v = xcalloc(set->nr ? set->nr : 1, sizeof(*v));
	metric_set_eval_events(set, &evs, NULL, 0, v);
	bool all = set->nr > 0;
	if (bn)
		*bn = 0;
	for (unsigned k = 0; k < set->nr; k++) {
		out[k] = metric_value_shown(set->m[k], &v[k]);
		if (isnan(out[k]))
			all = false;
		if (bn && k < 64 && (v[k].flags & METRIC_F_BOTTLENECK))
			*bn |= UINT64_C(1) << k;
	}
	free(v);
	return all;
}

void rs_td_finish(struct rs_report *rs)
{
	struct td_state *st = state(rs);
	rs->td_name = NULL;
	if (st) {
		for (unsigned i = 0; i < st->nr; i++)
			free(st->p[i].v);
		free(st->p);
		free(st);
	}
	snprintf(rs->td_why, sizeof(rs->td_why),
	         "no group reads in the samples (record with -e '{leader,members}:S')");
	for (unsigned hi = 0; hi < rs->nr_hist; hi++) {
		struct rs_hist *h = &rs->hist[hi];
		if (!h->nr_member)
			continue;
		double *total = xcalloc(h->nr_member, sizeof(double));
		for (unsigned j = 0; j < h->nr_e; j++)
			for (unsigned i = 0; h->e[j].delta && i < h->nr_member; i++)
				total[i] += h->e[j].delta[i];
		if (rs->opts.pmu)
			snprintf(rs->td_why, sizeof(rs->td_why),
			         "the %s model's level-1 Topdown cannot be computed from the "
			         "group's events",
			         rs->opts.pmu);
		else
			snprintf(rs->td_why, sizeof(rs->td_why),
			         "no PMU model's level-1 Topdown can be computed from the group's "
			         "events");
		/* the model named by --pmu; else the one the file's cpuid
		 * names first, then every model in turn: cores that share
		 * event names (Neoverse N2, V1, V2) differ in their formulas,
		 * so the cpuid decides when the file has one */
		const struct hpm_pmu_model *byid = hpm_model_for_cpuid(rs->file.cpuid);
		for (unsigned mi = 0; mi <= hpm_model_count(); mi++) {
			const struct hpm_pmu_model *m;
			if (rs->opts.pmu)
				m = mi ? NULL : hpm_model_by_name(rs->opts.pmu);
			else if (byid)
				m = mi ? hpm_model_at(mi - 1) : byid;
			else
				m = mi < hpm_model_count() ? hpm_model_at(mi) : NULL;
			const struct metric_table *t = m ? m->metrics : NULL;
			if (!m || (mi && m == byid) || !t)
				continue;
			if (rs->opts.topdown_variant &&
			    metric_variant_find(m->metrics, rs->opts.topdown_variant, &t, NULL) !=
			        0)
				continue;
			/* the deepest level whose every node the group's
			 * events compute (level 2 and 3 need their own
			 * events in the group), else level 1 */
			struct metric_set set;
			bool found = false;
			for (unsigned lvl = metric_max_level(t); lvl >= 1 && !found; lvl--) {
				struct hpm_diag err;
				metric_set_init(&set, t);
				if (metric_set_add_topdown(&set, lvl, &err) == 0 && set.nr) {
					double *tot = xcalloc(set.nr, sizeof(double));
					found = eval(m, &set, h, total, tot, NULL);
					free(tot);
				}
				if (!found)
					metric_set_free(&set);
			}
			if (!found)
				continue;
			rs->td_model = m->name;
			rs->td_variant = metric_variant_name(t);
			rs->nr_td = set.nr;
			rs->td_name = xcalloc(set.nr, sizeof(char *));
			rs->td_parent = xcalloc(set.nr, sizeof(int));
			for (unsigned k = 0; k < set.nr; k++) {
				rs->td_name[k] = metric_str(set.m[k], set.m[k]->name);
				rs->td_parent[k] = -1;
				for (unsigned j = 0; j < k && set.m[k]->parent >= 0; j++)
					if (set.m[j] == &t->metrics[set.m[k]->parent])
						rs->td_parent[k] = (int)j;
			}
			for (unsigned j = 0; j < h->nr_e; j++) {
				struct rs_entry *e = &h->e[j];
				e->td = xcalloc(set.nr, sizeof(double));
				bool damaged = false;
				if (e->delta) {
					eval(m, &set, h, e->delta, e->td, &e->td_bn);
					damaged = level1_damaged(rs, e->td);
					rs->nr_td_damaged += damaged;
				}
				if (damaged)
					e->td_bn = 0; /* no bottleneck from reads that are wrong */
				if (!e->delta || damaged)
					for (unsigned k = 0; k < set.nr; k++)
						e->td[k] = (double)NAN;
			}
			metric_set_free(&set);
			rs->td_why[0] = '\0';
			break;
		}
		if (!rs->nr_td)
			explain_missing(rs, h, byid);
		free(total);
		if (rs->nr_td)
			break;
	}
}
