/* render-text.c: the text report: toplev-style trees, counts, intervals,
 * the summary across runs and the diff. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metric/metric.h"
#include "report/cells.h"
#include "report/report-int.h"

#define NAME_W 40

static void tree(const struct report *r, const struct rp_run *run, const struct rp_slice *s,
                 FILE *out)
{
	const struct rf_run *rf = &run->rf;
	char v[32], e[32];
	bool other = false;
	for (unsigned k = 0; k < rf->nr_node; k++) {
		const struct rf_node *n = &rf->node[k];
		const struct rf_mval *m = &s->mval[k];
		if (n->level == 0) {
			other = true;
			continue;
		}
		if (!rp_shown(r, n))
			continue;
		int ind = 2 * (int)n->level;
		char line[256];
		size_t l = (size_t)snprintf(line, sizeof(line), " %*s%-*s %9s  %-9s", ind, "",
		                            NAME_W - ind, n->display,
		                            rp_num(v, sizeof(v), m->value, 2), n->unit);
		if (l < sizeof(line) && !isnan(m->rel_stddev))
			l += (size_t)snprintf(line + l, sizeof(line) - l, " ( +- %s%% )",
			                      rp_num(e, sizeof(e), m->rel_stddev, 2));
		if (l < sizeof(line) && m->bottleneck)
			l += (size_t)snprintf(line + l, sizeof(line) - l, "  <==");
		if (l < sizeof(line) && m->out_of_range)
			l += (size_t)snprintf(line + l, sizeof(line) - l, "  [out of range: %s]",
			                      metric_range_text(m->value, e, sizeof(e)));
		/* the unit column is padded for what follows it, not for the eye */
		l = strlen(line);
		while (l && line[l - 1] == ' ')
			line[--l] = '\0';
		fprintf(out, "%s\n", line);
	}
	if (!isnan(s->l1_sum))
		fprintf(out, "   Level 1 sums to %s %%%s\n", rp_num(v, sizeof(v), s->l1_sum, 2),
		        s->l1_off ? ", not 100 %  [level 1 does not add up]" : "");
	else if (rf->nr_node && rf->topdown_level)
		fputs("   Level 1 sum: n/a\n", out);
	if (!other)
		return;
	fputs("   Other metrics:\n", out);
	for (unsigned k = 0; k < rf->nr_node; k++) {
		const struct rf_node *n = &rf->node[k];
		if (n->level != 0)
			continue;
		fprintf(out, "   %-*s %9s  %s\n", NAME_W - 2, n->display,
		        rp_num(v, sizeof(v), s->mval[k].value, 2), n->unit);
	}
}

static void counts(const struct rp_run *run, FILE *out)
{
	const struct rf_run *rf = &run->rf;
	char v[48], sh[32];
	fputs("\n Counts (value as hpmstat stat prints it, running share):\n", out);
	for (unsigned i = 0; i < rf->nr_ev; i++) {
		const struct rf_event *e = &rf->ev[i];
		if (!rp_event_value(e, v, sizeof(v)))
			snprintf(v, sizeof(v), "<%s>", e->state);
		fprintf(out, "   %-*s %20s %-5s %7s %%\n", NAME_W - 2, e->name, v, e->unit,
		        rp_num(sh, sizeof(sh), e->running_share * 100.0, 2));
		if (e->nr_counts < 2)
			continue;
		for (unsigned u = 0; u < e->nr_counts; u++) {
			const struct rf_count *c = &e->counts[u];
			double share =
			    c->enabled ? (double)c->running / (double)c->enabled * 100.0 : 0.0;
			fprintf(out, "     %-*s %20s %-5s %7s %%\n", NAME_W - 4, c->unit,
			        rp_unit_value(e, c, v, sizeof(v)), e->unit,
			        rp_num(sh, sizeof(sh), share, 2));
		}
	}
}

static void intervals(const struct rp_run *run, FILE *out)
{
	const struct rf_run *rf = &run->rf;
	unsigned rows = rp_slice_rows(run);
	char v[32];
	bool any = false;
	for (unsigned k = 0; k < rf->nr_node; k++)
		any |= rf->node[k].level == 1;
	if (!rf->nr_iv || !any)
		return;
	fputs("\n Intervals, level 1 (% slots):\n", out);
	fprintf(out, "   %12s %-8s", "time", "unit");
	for (unsigned k = 0; k < rf->nr_node; k++)
		if (rf->node[k].level == 1)
			fprintf(out, " %16s", rf->node[k].display);
	fputc('\n', out);
	for (unsigned i = 0; i < rf->nr_iv; i++)
		for (unsigned u = 0; u < rows; u++) {
			const struct rp_slice *s = &run->slice[(i + 1) * rows + u];
			fprintf(out, "   %12.6f %-8s", rf->iv[i].time, rp_slice_unit(run, s));
			for (unsigned k = 0; k < rf->nr_node; k++)
				if (rf->node[k].level == 1)
					fprintf(out, " %16s",
					        rp_num(v, sizeof(v), s->mval[k].value, 2));
			fputs(s->l1_off ? "  [level 1 does not add up]\n" : "\n", out);
		}
}

static void run_head(const struct rp_run *run, const char *role, FILE *out)
{
	const struct rf_run *rf = &run->rf;
	char src[256];
	fprintf(out, "%s%s (%s)\n", role, rf->name, rf->path);
	fprintf(out, " %s; recorded %s; %u run%s", rp_run_source(run, src, sizeof(src)),
	        rf->created, rf->nr_runs, rf->nr_runs == 1 ? "" : "s");
	if (rf->repeat > 1)
		fprintf(out, " (-r %u)", rf->repeat);
	if (rf->nr_iv)
		fprintf(out, ", %u intervals of %g ms", rf->nr_iv, rf->interval_ms);
	/* a variant of the formulas other than the model's default: say which */
	const struct metric_table *t = rf_metrics(rf);
	if (t->nr_variants && t->variant)
		fprintf(out, "; Topdown formulas: %s (--topdown-variant)", metric_variant_name(t));
	fputc('\n', out);
}

static void one_run(const struct report *r, const struct rp_run *run, FILE *out)
{
	const struct rf_run *rf = &run->rf;
	unsigned rows = rp_slice_rows(run);
	run_head(run, "Run ", out);
	if (!rf->nr_node) {
		fputs("\n No metrics in this run (it was recorded without --topdown or -M).\n",
		      out);
	} else {
		for (unsigned u = 0; u < rows; u++) {
			const struct rp_slice *s = &run->slice[u];
			char idle[256];
			if (rows > 1 && u > 0 && rp_unit_idle(run, (unsigned)s->unit))
				fprintf(out,
				        "\n Topdown, %s: idle (no cycles counted, so no slots: its "
				        "Topdown is n/a):\n",
				        rp_slice_unit(run, s));
			else if (rows > 1 && u > 0)
				fprintf(out, "\n Topdown, %s (computed from its counts):\n",
				        rp_slice_unit(run, s));
			else
				fprintf(out,
				        "\n Topdown%s (%% of issue slots or of cycles; <== marks "
				        "the bottleneck path):\n",
				        rows <= 1       ? ""
				        : rf->harts > 0 ? ", all harts"
				                        : ", all units");
			/* the sum has no slots of the idle units: named */
			if (rows > 1 && u == 0 && rp_idle_units(run, idle, sizeof(idle))[0])
				fprintf(out,
				        " (%s idle (no cycles counted%s): not in the Topdown)\n",
				        idle, rf->harts > 0 ? ": in wfi, the clock gated" : "");
			tree(r, run, s, out);
		}
		if (rf->nr_node && rf->mval[0].multiplexed)
			fputs("   Some counters were multiplexed: the metrics come from scaled "
			      "counts.\n",
			      out);
	}
	intervals(run, out);
	counts(run, out);
}

static void summary(const struct report *r, FILE *out)
{
	char v[32];
	fputs("Summary across runs (value of each node, all harts):\n", out);
	fprintf(out, " %-*s", NAME_W, "node");
	for (unsigned i = 0; i < r->nr_run; i++)
		fprintf(out, " %12.12s", r->run[i].rf.name);
	if (r->weights)
		fprintf(out, " %12s", "weighted");
	fputc('\n', out);
	for (unsigned j = 0; j < r->nr_srow; j++) {
		const struct rp_srow *s = &r->srow[j];
		if (r->level && s->level > r->level)
			continue;
		int ind = 2 * (int)s->level;
		fprintf(out, " %*s%-*s", ind, "", NAME_W - ind, s->display);
		for (unsigned i = 0; i < r->nr_run; i++)
			fprintf(out, " %12s", rp_num(v, sizeof(v), s->v[i], 2));
		if (r->weights)
			fprintf(out, " %12s", rp_num(v, sizeof(v), s->weighted, 2));
		fputc('\n', out);
	}
	if (r->weights) {
		fputs(" weights:", out);
		for (unsigned i = 0; i < r->nr_run; i++)
			fprintf(out, " %s=%g", r->run[i].rf.name, r->run[i].weight);
		fputs(" (weighted = sum(w * value) / sum(w))\n", out);
	}
}

static void diff(const struct report *r, FILE *out)
{
	char a[32], b[32], d[32];
	run_head(&r->run[0], "BASE ", out);
	run_head(&r->run[1], "NEW  ", out);
	fprintf(out, "\n %-*s %10s %10s %10s  %s\n", NAME_W, "node", "base", "new", "diff (pts)",
	        "noise");
	for (unsigned j = 0; j < r->nr_drow; j++) {
		const struct rp_drow *w = &r->drow[j];
		if (r->level && w->level > r->level)
			continue;
		int ind = 2 * (int)w->level;
		rp_signed(d, sizeof(d), w->d);
		fprintf(out, " %*s%-*s %10s %10s %10s  %s%s%s\n", ind, "", NAME_W - ind, w->display,
		        rp_num(a, sizeof(a), w->a, 2), rp_num(b, sizeof(b), w->b, 2), d,
		        rp_noise_word(w->noise), w->bn_a ? "  <== base" : "",
		        w->bn_b ? "  <== new" : "");
	}
	fputs("\n diff = new - base, in points of the node's unit. A difference is above noise\n"
	      " when |diff| > 2 * sqrt(se_base^2 + se_new^2), se = value * rel_stddev / 100\n"
	      " from the runs' repeats (-r); without repeats in both runs it cannot be told.\n",
	      out);
}

void rp_render_text(const struct report *r, FILE *out)
{
	if (r->diff) {
		diff(r, out);
		return;
	}
	for (unsigned i = 0; i < r->nr_run; i++) {
		if (i)
			fputc('\n', out);
		one_run(r, &r->run[i], out);
	}
	if (r->nr_run > 1) {
		fputc('\n', out);
		summary(r, out);
	}
}
