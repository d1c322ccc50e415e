/* counted.c: metrics evaluated on the events a run counted (see metric.h,
 * "counted events"): the one reading of counted rows that the stat session
 * and the report share, whatever holds the counts. */
#include <math.h>
#include <string.h>

#include "metric/metric.h"

/* The row a metric reads for name: the first PMU row of that name, never a
 * host event that happens to share it (perf's "cycles" beside mcycle's). */
static int find_pmu_row(const struct metric_events *ev, const char *name)
{
	for (unsigned i = 0; i < ev->nr; i++) {
		bool host = false;
		const char *n = ev->name(ev->ctx, i, &host);
		if (!host && strcmp(n, name) == 0)
			return (int)i;
	}
	return -1;
}

bool metric_events_retired_subst(const struct metric_table *t, const struct metric_events *ev)
{
	return t->retired.from && find_pmu_row(ev, t->retired.from) < 0 &&
	       find_pmu_row(ev, t->retired.to) >= 0;
}

struct lookup_ctx {
	const struct metric_events *ev;
	bool multiplexed;
};

static int lookup(void *p, const char *name, double *val)
{
	struct lookup_ctx *c = p;
	int i = find_pmu_row(c->ev, name);
	if (i < 0)
		return METRIC_ENAME;
	double share = 1;
	*val = c->ev->value(c->ev->ctx, (unsigned)i, &share);
	/* a share of 0 never ran: n/a, not a scaled guess */
	if (share < 1.0 && share > 0)
		c->multiplexed = true;
	return 0;
}

bool metric_set_eval_events(const struct metric_set *s, const struct metric_events *ev,
                            const struct metric_subst *subst, unsigned nr_subst,
                            struct metric_value *vals)
{
	struct lookup_ctx c = {.ev = ev};
	/* merged: a sum the session counted in one counter is read as one */
	const struct metric_env env = {
	    .lookup = lookup, .ctx = &c, .subst = subst, .nr_subst = nr_subst, .merged = true};
	if (s->nr)
		metric_set_eval(s, &env, vals);
	return c.multiplexed;
}

double metric_value_shown(const struct metric *m, const struct metric_value *v)
{
	return (v->flags & (METRIC_F_NA | METRIC_F_ERROR)) ? (double)NAN : v->value * m->scale;
}
