/* test-taskmetrics.c: a task row's own Topdown tree (Enter on a process
 * row of hpmstat top) is computed from the task's counts as top_proc.ev
 * carries them (doubles in evlist order) the way a hart row's tree is
 * computed from the hart's counts. The counts of an emulated hart, given
 * as a task's ev[], give top_model_task_metrics the same tree as
 * hpm_session_metrics_unit gives for that hart; its level-1 nodes add up
 * to 100 % of the slots (Topdown's definition, not our code's output);
 * counters a task did not count (NAN) leave the metrics NAN, never a
 * number; an ev[] of another length gives no tree. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "top/top.h"

static void free_ms(struct stat_metric *ms, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		free(ms[k].display);
	free(ms);
}

int main(void)
{
	struct top_opts o;
	struct top_model m;
	char err[512];
	top_opts_init(&o);
	o.backend = HPM_BACKEND_EMU;
	o.level = 3;
	o.emu.harts = 2;
	if (!tap_ok(top_model_init(&m, &o, err, sizeof(err)) == 0 && m.session_ok,
	            "the emulator's top model opens (%s)", m.note)) {
		tap_diag("%s", err);
		return tap_done();
	}
	struct hpm_session *s = &m.s;
	uint64_t ran;
	bool done;
	tap_ok(hpm_session_run_emu(s, 2000000, UINT64_C(60000000000), &ran, &done, err,
	                           sizeof(err)) == 0 &&
	           hpm_session_read(s, err, sizeof(err)) == 0,
	       "2e6 emulated cycles counted (%s)", err);
	struct hpm_count **d = hpm_session_delta(s, m.prev);
	/* hart 1's counts as a task source would give them */
	double *ev = calloc(s->all.nr, sizeof(double));
	for (unsigned i = 0; i < s->all.nr; i++) {
		const struct hpm_evsel *e = &s->all.ev[i];
		unsigned nu = e->nr_units ? e->nr_units : 1;
		ev[i] = e->state == HPM_EV_OK && nu > 1
		            ? hpm_counts_value(d[i], nu, 1, e->scale, NULL)
		            : (double)NAN;
	}
	struct stat_metric *a, *b;
	unsigned na = hpm_session_metrics_unit(s, (const struct hpm_count *const *)d, 1, &a);
	unsigned nb = top_model_task_metrics(&m, ev, s->all.nr, &b);
	tap_ok(na > 0 && na == nb, "as many metrics from ev[] as from the hart (%u, %u)", nb, na);
	unsigned same = 0, l3 = 0;
	double l1 = 0;
	for (unsigned k = 0; k < na && k < nb; k++) {
		bool eq = !strcmp(a[k].name, b[k].name) &&
		          ((isnan(a[k].value) && isnan(b[k].value)) ||
		           fabs(a[k].value - b[k].value) <= 1e-9 * (1 + fabs(a[k].value))) &&
		          a[k].bottleneck == b[k].bottleneck;
		if (eq)
			same++;
		else
			tap_diag("%s: hart %g task %g", a[k].name, a[k].value, b[k].value);
		if (b[k].level == 3)
			l3++;
		if (b[k].level == 1)
			l1 += b[k].value;
	}
	tap_ok(same == na, "every node the same value and bottleneck mark (%u of %u)", same, na);
	tap_ok(l3 > 0, "the tree has level-3 nodes (%u)", l3);
	tap_ok(fabs(l1 - 100) < 0.5, "the level-1 nodes add up to 100 %% of the slots (%.3f)", l1);
	free_ms(b, nb);

	/* a task source that counted none of the events */
	for (unsigned i = 0; i < s->all.nr; i++)
		ev[i] = (double)NAN;
	nb = top_model_task_metrics(&m, ev, s->all.nr, &b);
	unsigned num = 0;
	for (unsigned k = 0; k < nb; k++)
		if (b[k].level && !isnan(b[k].value))
			num++;
	tap_ok(nb == na && num == 0, "no counts: every Topdown node NAN (%u numbers)", num);
	free_ms(b, nb);
	nb = top_model_task_metrics(&m, ev, s->all.nr - 1, &b);
	tap_ok(nb == 0 && !b, "an ev[] of another length: no tree");

	free_ms(a, na);
	free(ev);
	hpm_session_snapshot_free(s, d);
	top_model_free(&m);
	top_opts_free(&o);
	return tap_done();
}
