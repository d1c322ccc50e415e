/* report.c: the report (see report.h): slices, per-unit metrics, the summary across runs,
 * weights and the diff. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "metric/metric.h"
#include "arch/model.h"
#include "report/report.h"
#include "util/diag.h"
#include "util/str.h"
#include "util/xalloc.h"

int rp_format_parse(const char *s, enum rp_format *out)
{
	static const char *const names[] = {"text", "csv", "json", "md", "html"};
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum rp_format)i;
			return 0;
		}
	return -1;
}

void report_init(struct report *r)
{
	memset(r, 0, sizeof(*r));
}

/* ------------------------------------------------------ per-unit metrics */

/* The counts one evaluation reads: a run's or one interval's, of one unit. */
struct lookup_ctx {
	const struct rf_run *rf;
	const struct rf_count *const *counts; /* [nr_ev] */
	const unsigned *nr_counts;
	const char *unit;
};

/* The run file's events as the metric engine reads them (metric_events). */
static const char *event_name(void *p, unsigned i, bool *host)
{
	const struct rf_event *e = &((struct lookup_ctx *)p)->rf->ev[i];
	*host = e->host;
	return e->name;
}

/* The unit's count scaled by enabled / running. */
static double event_value(void *p, unsigned i, double *share)
{
	struct lookup_ctx *c = p;
	const struct rf_event *e = &c->rf->ev[i];
	if (strcmp(e->state, "ok") != 0)
		return (double)NAN;
	for (unsigned u = 0; u < c->nr_counts[i]; u++) {
		const struct rf_count *k = &c->counts[i][u];
		if (strcmp(k->unit, c->unit) != 0)
			continue;
		if (!k->running)
			return (double)NAN;
		*share = (double)k->running / (double)k->enabled;
		return (double)k->value * ((double)k->enabled / (double)k->running) * e->scale;
	}
	return (double)NAN;
}

/* The metric set of a run's nodes, in the run's order (nodes the table
 * does not know have no index: their per-unit value is n/a). */
struct nodeset {
	struct metric_set set;
	int *pos; /* [nr_node]: index in set, -1 */
};

static void nodeset_init(struct nodeset *ns, const struct rf_run *rf)
{
	metric_set_init(&ns->set, rf_metrics(rf));
	ns->pos = rf->nr_node ? xcalloc(rf->nr_node, sizeof(int)) : NULL;
	for (unsigned k = 0; k < rf->nr_node; k++) {
		const struct metric *m = metric_by_name(ns->set.table, rf->node[k].name);
		ns->pos[k] = -1;
		if (!m)
			continue;
		metric_set_add_metric(&ns->set, m);
		ns->pos[k] = metric_set_find(&ns->set, m);
	}
}

static void compute_unit(const struct rf_run *rf, const struct nodeset *ns,
                         const struct rf_count *const *counts, const unsigned *nr_counts,
                         const char *unit, struct rf_mval *out)
{
	struct lookup_ctx c = {.rf = rf, .counts = counts, .nr_counts = nr_counts, .unit = unit};
	const struct metric_events events = {
	    .nr = rf->nr_ev, .name = event_name, .value = event_value, .ctx = &c};
	/* hpmstat stat --topdown-retired=minstret counted minstret for the
	 * table's retired event (Kunminghu's rob_commitInstr): its run file
	 * has "instructions" and no row of that event */
	const struct metric_table *t = ns->set.table;
	unsigned nr_subst = metric_events_retired_subst(t, &events) ? 1 : 0;
	struct metric_value *v = ns->set.nr ? xcalloc(ns->set.nr, sizeof(*v)) : NULL;
	bool multiplexed = metric_set_eval_events(&ns->set, &events, &t->retired, nr_subst, v);
	for (unsigned k = 0; k < rf->nr_node; k++) {
		struct rf_mval *o = &out[k];
		memset(o, 0, sizeof(*o));
		o->value = o->raw = o->rel_stddev = (double)NAN;
		if (ns->pos[k] < 0)
			continue;
		const struct metric_value *mv = &v[ns->pos[k]];
		const struct metric *m = ns->set.m[ns->pos[k]];
		o->value = metric_value_shown(m, mv);
		if (!isnan(o->value))
			o->raw = mv->value;
		o->out_of_range = (mv->flags & METRIC_F_OUT_OF_RANGE) != 0;
		o->bottleneck = (mv->flags & METRIC_F_BOTTLENECK) != 0;
		o->over_threshold = mv->thresh == METRIC_THRESH_YES;
	}
	for (unsigned k = 0; k < rf->nr_node; k++)
		out[k].multiplexed = multiplexed;
	free(v);
}

static void level1_sum(const struct rf_run *rf, struct rp_slice *s)
{
	double sum = 0;
	unsigned n = 0;
	for (unsigned k = 0; k < rf->nr_node; k++) {
		if (rf->node[k].level != 1)
			continue;
		sum += s->mval[k].value;
		n++;
	}
	s->l1_sum = n ? sum : (double)NAN;
	s->l1_off = n && !isnan(sum) && fabs(sum - 100.0) > RP_L1_SLACK;
}

static void build_slices(struct rp_run *run)
{
	const struct rf_run *rf = &run->rf;
	/* per unit only where there are several: one hart is the aggregate */
	unsigned per = rf->nr_units > 1 ? rf->nr_units : 0;
	unsigned rows = 1 + per, nr = rows * (1 + rf->nr_iv);
	run->slice = xcalloc(nr, sizeof(*run->slice));
	run->nr_slice = nr;
	if (per && rf->nr_node)
		run->owned =
		    xcalloc((size_t)per * (1 + rf->nr_iv) * rf->nr_node, sizeof(*run->owned));
	struct nodeset ns;
	nodeset_init(&ns, rf);
	const struct rf_count **counts = rf->nr_ev ? xcalloc(rf->nr_ev, sizeof(*counts)) : NULL;
	unsigned *nrc = rf->nr_ev ? xcalloc(rf->nr_ev, sizeof(*nrc)) : NULL;
	size_t used = 0;
	for (unsigned i = 0; i <= rf->nr_iv; i++) {
		int iv = (int)i - 1;
		for (unsigned e = 0; e < rf->nr_ev; e++) {
			counts[e] = iv < 0 ? rf->ev[e].counts : rf->iv[iv].counts[e];
			nrc[e] = iv < 0 ? rf->ev[e].nr_counts : rf->iv[iv].nr_counts[e];
		}
		for (unsigned u = 0; u < rows; u++) {
			struct rp_slice *s = &run->slice[i * rows + u];
			s->interval = iv;
			s->unit = (int)u - 1;
			if (u == 0) {
				s->mval = iv < 0 ? rf->mval : rf->iv[iv].mval;
			} else {
				struct rf_mval *o = run->owned ? &run->owned[used] : NULL;
				used += rf->nr_node;
				if (o)
					compute_unit(rf, &ns, counts, nrc, rf->units[u - 1], o);
				s->mval = o;
			}
			level1_sum(rf, s);
		}
	}
	free(counts);
	free(nrc);
	free(ns.pos);
	metric_set_free(&ns.set);
}

/* Two event tables of one core: models named "CORE (TABLE)" after one core
 * and detected alike (Kunminghu's kunminghu-v2 and kunminghu-v3, which
 * detection cannot tell apart): one Topdown tree over renumbered events. */
static bool tables_of_one_core(const struct hpm_pmu_model *a, const struct hpm_pmu_model *b)
{
	const char *ta = strstr(a->display, " ("), *tb = strstr(b->display, " (");
	return a->match_cpuid == b->match_cpuid && ta && tb && ta - a->display == tb - b->display &&
	       strncmp(a->display, b->display, (size_t)(ta - a->display)) == 0;
}

/* --diff compares one model's Topdown tree node by node: NEW must count the
 * events of BASE's PMU model, or of another table of its core (with
 * report_diff_caveat's warning). Two models' trees share level-1 names, but
 * their shares are of different slots (issue widths, events, N1's cycles),
 * so their difference and its noise test would mean nothing; a report of
 * both runs shows them side by side. */
static int diff_models(const struct report *r, const struct rp_run *tmp, char *err, size_t errlen)
{
	const struct rf_run *a = r->nr_run == 1 ? &r->run[0].rf : NULL, *b = &tmp->rf;
	if (!r->diff || !a || !a->model || !b->model || a->model == b->model ||
	    tables_of_one_core(a->model, b->model))
		return 0;
	snprintf(err, errlen,
	         "--diff: %s counts %s events and %s %s events: the Topdown trees of two PMU "
	         "models are not compared node by node (report both runs without --diff to "
	         "see them side by side)",
	         a->path, a->model->display, b->path, b->model->display);
	return -1;
}

const char *report_diff_caveat(const struct report *r, char *buf, size_t len)
{
	if (!r->diff || r->nr_run != 2)
		return NULL;
	const struct rf_run *a = &r->run[0].rf, *b = &r->run[1].rf;
	if (a->model && b->model && a->model != b->model) {
		snprintf(buf, len,
		         "--diff: %s counts the %s table's events and %s the %s table's: the "
		         "figures are not comparable (an event may count something else in each)",
		         a->path, a->model->name, b->path, b->model->name);
		return buf;
	}
	const char *va = metric_variant_name(rf_metrics(a)),
	           *vb = metric_variant_name(rf_metrics(b));
	if (va && vb && strcmp(va, vb) != 0) {
		snprintf(buf, len,
		         "--diff: %s's Topdown formulas are the %s variant and %s's the %s "
		         "(--topdown-variant): the figures are not comparable",
		         a->path, va, b->path, vb);
		return buf;
	}
	return NULL;
}

static int add_loaded(struct report *r, struct rp_run *tmp, char *err, size_t errlen)
{
	if (diff_models(r, tmp, err, errlen)) {
		rf_free(&tmp->rf);
		return -1;
	}
	r->run = xreallocarray(r->run, r->nr_run + 1, sizeof(*r->run));
	r->run[r->nr_run] = *tmp;
	build_slices(&r->run[r->nr_run]);
	r->nr_run++;
	return 0;
}

int report_add_run(struct report *r, const char *path, char *err, size_t errlen)
{
	struct rp_run tmp = {0};
	if (rf_load_file(path, &tmp.rf, err, errlen) != 0)
		return -1;
	return add_loaded(r, &tmp, err, errlen);
}

int report_add_run_buffer(struct report *r, const char *buf, size_t len, const char *path,
                          char *err, size_t errlen)
{
	struct rp_run tmp = {0};
	if (rf_load_buffer(buf, len, path, &tmp.rf, err, errlen) != 0)
		return -1;
	return add_loaded(r, &tmp, err, errlen);
}

/* ---------------------------------------------------------------- weights */

/* s cut at max bytes and escaped (\x0a) as the CLI shows a message:
 * hpm_diag would turn a control byte into '?'. */
static const char *cut_escaped(const char *s, int max, char *buf, size_t len)
{
	char raw[256];
	snprintf(raw, sizeof(raw), "%.*s", max, s);
	return str_escape(raw, buf, len);
}

/* Takes the weights of doc into r's runs; false with what is wrong in d,
 * the whole file's (a JSON syntax error says its place as run files do). */
static bool weights_check(struct report *r, json_t *doc, const json_error_t *jerr,
                          struct hpm_diag *d)
{
	const char *key;
	json_t *v;
	double sum = 0;
	char a[4 * 160 + 1], b[4 * 80 + 1], c[4 * 80 + 1];
	if (!doc)
		return hpm_diag_set(d, 0, 0, "not valid JSON: %s at line %d, column %d",
		                    cut_escaped(jerr->text, 160, a, sizeof(a)), jerr->line,
		                    jerr->column);
	if (!json_is_object(doc))
		return hpm_diag_set(d, 0, 0, "expected an object {\"run name\": weight}");
	/* the names must say which run is which */
	for (unsigned i = 0; i < r->nr_run; i++)
		for (unsigned j = 0; j < i; j++)
			if (strcmp(r->run[i].rf.name, r->run[j].rf.name) == 0)
				return hpm_diag_set(
				    d, 0, 0, "two runs are named '%s' (%s and %s)",
				    cut_escaped(r->run[i].rf.name, 60, a, sizeof(a)),
				    cut_escaped(r->run[j].rf.path, 80, b, sizeof(b)),
				    cut_escaped(r->run[i].rf.path, 80, c, sizeof(c)));
	json_object_foreach(doc, key, v)
	{
		unsigned i = 0;
		while (i < r->nr_run && strcmp(r->run[i].rf.name, key) != 0)
			i++;
		if (i == r->nr_run)
			return hpm_diag_set(d, 0, 0, "'%s' is not the name of a run",
			                    cut_escaped(key, 60, a, sizeof(a)));
		double w = json_is_number(v) ? json_number_value(v) : -1;
		if (!(w >= 0) || isinf(w))
			return hpm_diag_set(d, 0, 0, "the weight of '%s' must be a number >= 0",
			                    cut_escaped(key, 60, a, sizeof(a)));
		r->run[i].weight = w;
		r->run[i].weighted = true;
		sum += w;
	}
	for (unsigned i = 0; i < r->nr_run; i++)
		if (!r->run[i].weighted)
			return hpm_diag_set(d, 0, 0, "no weight for run '%s'",
			                    cut_escaped(r->run[i].rf.name, 60, a, sizeof(a)));
	if (!(sum > 0))
		return hpm_diag_set(d, 0, 0, "the weights sum to 0");
	return true;
}

static int weights_doc(struct report *r, json_t *doc, const json_error_t *jerr, const char *path,
                       char *err, size_t errlen)
{
	struct hpm_diag d = {.file = path};
	r->weights = weights_check(r, doc, jerr, &d);
	if (!r->weights) {
		for (unsigned i = 0; i < r->nr_run; i++)
			r->run[i].weighted = false;
		hpm_diag_format(&d, err, errlen);
	}
	json_decref(doc);
	return r->weights ? 0 : -1;
}

int report_set_weights_buffer(struct report *r, const char *buf, size_t len, const char *path,
                              char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	return weights_doc(r, doc, &jerr, path, err, errlen);
}

int report_set_weights(struct report *r, const char *path, char *err, size_t errlen)
{
	json_error_t jerr;
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	bool too_big;
	json_t *doc = rf_json_load_bounded(f, REPORT_WEIGHTS_MAX_BYTES, &too_big, &jerr);
	fclose(f);
	if (too_big) {
		snprintf(err, errlen, "%s: cannot read: larger than %u bytes", path,
		         REPORT_WEIGHTS_MAX_BYTES);
		return -1;
	}
	return weights_doc(r, doc, &jerr, path, err, errlen);
}

/* ------------------------------------------------------ summary and diff */

static int find_node(const struct rf_run *rf, const char *name)
{
	for (unsigned k = 0; k < rf->nr_node; k++)
		if (strcmp(rf->node[k].name, name) == 0)
			return (int)k;
	return -1;
}

static void build_summary(struct report *r)
{
	for (unsigned i = 0; i < r->nr_run; i++) {
		const struct rf_run *rf = &r->run[i].rf;
		for (unsigned k = 0; k < rf->nr_node; k++) {
			unsigned j = 0;
			while (j < r->nr_srow && strcmp(r->srow[j].name, rf->node[k].name) != 0)
				j++;
			if (j < r->nr_srow)
				continue;
			r->srow = xreallocarray(r->srow, r->nr_srow + 1, sizeof(*r->srow));
			struct rp_srow *s = &r->srow[r->nr_srow++];
			s->name = rf->node[k].name;
			s->display = rf->node[k].display;
			s->unit = rf->node[k].unit;
			s->level = rf->node[k].level;
			s->v = xcalloc(r->nr_run, sizeof(double));
		}
	}
	/* weights are taken relative to the largest, so that sums of huge
	 * weights (1e308 each) do not overflow to inf/inf */
	double wmax = 0;
	for (unsigned i = 0; r->weights && i < r->nr_run; i++)
		if (r->run[i].weight > wmax)
			wmax = r->run[i].weight;
	for (unsigned j = 0; j < r->nr_srow; j++) {
		struct rp_srow *s = &r->srow[j];
		double num = 0, den = 0;
		for (unsigned i = 0; i < r->nr_run; i++) {
			int k = find_node(&r->run[i].rf, s->name);
			s->v[i] = k < 0 ? (double)NAN : r->run[i].rf.mval[k].value;
			if (r->weights) {
				/* a run of weight 0 takes no part, even with n/a */
				if (r->run[i].weight > 0) {
					num += r->run[i].weight / wmax * s->v[i];
					den += r->run[i].weight / wmax;
				}
			}
		}
		s->weighted = r->weights && den > 0 ? num / den : (double)NAN;
	}
}

/* The standard error of a value, from its relative standard error in
 * percent, as hpmstat stat --record writes it with -r. */
static double stderr_of(const struct rf_mval *v)
{
	return fabs(v->value) * v->rel_stddev / 100.0;
}

static void build_diff(struct report *r)
{
	const struct rf_run *a = &r->run[0].rf, *b = &r->run[1].rf;
	/* base's nodes in its order, then the nodes only new has */
	for (unsigned pass = 0; pass < 2; pass++) {
		const struct rf_run *rf = pass ? b : a;
		for (unsigned k = 0; k < rf->nr_node; k++) {
			if (pass && find_node(a, rf->node[k].name) >= 0)
				continue;
			r->drow = xreallocarray(r->drow, r->nr_drow + 1, sizeof(*r->drow));
			struct rp_drow *d = &r->drow[r->nr_drow++];
			memset(d, 0, sizeof(*d));
			d->name = rf->node[k].name;
			d->display = rf->node[k].display;
			d->unit = rf->node[k].unit;
			d->level = rf->node[k].level;
			int ka = find_node(a, d->name), kb = find_node(b, d->name);
			const struct rf_mval *va = ka >= 0 ? &a->mval[ka] : NULL;
			const struct rf_mval *vb = kb >= 0 ? &b->mval[kb] : NULL;
			d->a = va ? va->value : (double)NAN;
			d->b = vb ? vb->value : (double)NAN;
			d->d = d->b - d->a;
			d->bn_a = va && va->bottleneck;
			d->bn_b = vb && vb->bottleneck;
			d->se_a = va ? stderr_of(va) : (double)NAN;
			d->se_b = vb ? stderr_of(vb) : (double)NAN;
			d->noise = RP_NOISE_UNKNOWN;
			if (!isnan(d->d) && !isnan(d->se_a) && !isnan(d->se_b))
				d->noise =
				    fabs(d->d) > 2 * sqrt(d->se_a * d->se_a + d->se_b * d->se_b)
				        ? RP_NOISE_ABOVE
				        : RP_NOISE_WITHIN;
		}
	}
}

void report_finish(struct report *r)
{
	build_summary(r);
	if (r->diff && r->nr_run == 2)
		build_diff(r);
}

void report_free(struct report *r)
{
	for (unsigned i = 0; i < r->nr_run; i++) {
		rf_free(&r->run[i].rf);
		free(r->run[i].slice);
		free(r->run[i].owned);
	}
	free(r->run);
	for (unsigned j = 0; j < r->nr_srow; j++)
		free(r->srow[j].v);
	free(r->srow);
	free(r->drow);
	memset(r, 0, sizeof(*r));
}
