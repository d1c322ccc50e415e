/* render-csv.c: RFC 4180 CSV: a header row, then one row per run x unit x
 * node (x interval). An n/a value is an empty field, so a spreadsheet or a
 * CSV reader sees "no number" rather than text in a numeric column. */
#include <math.h>
#include <stdio.h>

#include "report/cells.h"
#include "report/report-int.h"

static void num(FILE *out, double v)
{
	if (!isnan(v) && !isinf(v))
		fprintf(out, "%.10g", v + 0.0); /* + 0.0: never "-0" */
}

static void sep(FILE *out)
{
	fputc(',', out);
}

/* n fields, escaped, with commas between */
static void strs(FILE *out, const char *const *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (i)
			sep(out);
		rp_csv_field(out, v[i]);
	}
}

/* n numbers with commas between */
static void nums(FILE *out, const double *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (i)
			sep(out);
		num(out, v[i]);
	}
}

/* What every row of a node starts with: its name, display and level */
static void node(FILE *out, const char *name, const char *display, unsigned level)
{
	strs(out, (const char *const[]){name, display}, 2);
	fprintf(out, ",%u,", level);
}

static void runs(const struct report *r, FILE *out)
{
	fputs("run,file,hart,interval,time,node,display,level,parent,unit,value,rel_stddev,"
	      "bottleneck,out_of_range,over_threshold,emulated\r\n",
	      out);
	for (unsigned i = 0; i < r->nr_run; i++) {
		const struct rp_run *run = &r->run[i];
		const struct rf_run *rf = &run->rf;
		for (unsigned s = 0; s < run->nr_slice; s++) {
			const struct rp_slice *sl = &run->slice[s];
			for (unsigned k = 0; k < rf->nr_node; k++) {
				const struct rf_node *n = &rf->node[k];
				const struct rf_mval *m = &sl->mval[k];
				if (!rp_shown(r, n))
					continue;
				strs(out,
				     (const char *const[]){rf->name, rf->path,
				                           rp_slice_unit(run, sl)},
				     3);
				sep(out);
				if (sl->interval >= 0)
					fprintf(out, "%d,%.9f", sl->interval,
					        rf->iv[sl->interval].time);
				else
					sep(out);
				sep(out);
				node(out, n->name, n->display, n->level);
				strs(out,
				     (const char *const[]){
				         n->parent >= 0 ? rf->node[n->parent].name : "", n->unit},
				     2);
				sep(out);
				nums(out, (const double[]){m->value, m->rel_stddev}, 2);
				/* emulated: 1 for the emulator's figures, as stat
				 * labels them (JSON: "emulated") */
				fprintf(out, ",%d,%d,%d,%d\r\n", m->bottleneck, m->out_of_range,
				        m->over_threshold, rf->harts != 0);
			}
		}
	}
	/* the weighted summary: one more "run" of all harts, whole runs */
	for (unsigned j = 0; r->weights && j < r->nr_srow; j++) {
		const struct rp_srow *s = &r->srow[j];
		if (r->level && s->level > r->level)
			continue;
		fputs("(weighted),,all,,,", out);
		node(out, s->name, s->display, s->level);
		strs(out, (const char *const[]){"", s->unit}, 2);
		sep(out);
		num(out, s->weighted);
		fputs(",,,,,\r\n", out);
	}
}

static void diff(const struct report *r, FILE *out)
{
	fputs("node,display,level,unit,base,new,diff,se_base,se_new,noise,bottleneck_base,"
	      "bottleneck_new\r\n",
	      out);
	for (unsigned j = 0; j < r->nr_drow; j++) {
		const struct rp_drow *w = &r->drow[j];
		if (r->level && w->level > r->level)
			continue;
		node(out, w->name, w->display, w->level);
		rp_csv_field(out, w->unit);
		sep(out);
		nums(out, (const double[]){w->a, w->b, w->d, w->se_a, w->se_b}, 5);
		sep(out);
		fputs(w->noise == RP_NOISE_ABOVE    ? "above"
		      : w->noise == RP_NOISE_WITHIN ? "within"
		                                    : "",
		      out);
		fprintf(out, ",%d,%d\r\n", w->bn_a, w->bn_b);
	}
}

void rp_render_csv(const struct report *r, FILE *out)
{
	if (r->diff)
		diff(r, out);
	else
		runs(r, out);
}
