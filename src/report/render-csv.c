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
				rp_csv_field(out, rf->name);
				sep(out);
				rp_csv_field(out, rf->path);
				sep(out);
				rp_csv_field(out, rp_slice_unit(run, sl));
				sep(out);
				if (sl->interval >= 0)
					fprintf(out, "%d,%.9f", sl->interval,
					        rf->iv[sl->interval].time);
				else
					sep(out);
				sep(out);
				rp_csv_field(out, n->name);
				sep(out);
				rp_csv_field(out, n->display);
				fprintf(out, ",%u,", n->level);
				rp_csv_field(out, n->parent >= 0 ? rf->node[n->parent].name : "");
				sep(out);
				rp_csv_field(out, n->unit);
				sep(out);
				num(out, m->value);
				sep(out);
				num(out, m->rel_stddev);
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
		rp_csv_field(out, s->name);
		sep(out);
		rp_csv_field(out, s->display);
		fprintf(out, ",%u,,", s->level);
		rp_csv_field(out, s->unit);
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
		rp_csv_field(out, w->name);
		sep(out);
		rp_csv_field(out, w->display);
		fprintf(out, ",%u,", w->level);
		rp_csv_field(out, w->unit);
		sep(out);
		num(out, w->a);
		sep(out);
		num(out, w->b);
		sep(out);
		num(out, w->d);
		sep(out);
		num(out, w->se_a);
		sep(out);
		num(out, w->se_b);
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
