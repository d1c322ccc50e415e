/* render-md.c: Markdown (GitHub-flavoured tables, as code hosts render
 * them). Tree depth is shown by em spaces, which table cells keep. */
#include <math.h>
#include <stdio.h>

#include "report/cells.h"
#include "report/report-int.h"

static void indent(FILE *out, unsigned level)
{
	for (unsigned l = 1; l < level; l++)
		fputs("&emsp;", out);
}

/* "| " and the name, indented by em spaces (tables have no other indent) */
static void node(FILE *out, unsigned level, bool bn, const char *display)
{
	(void)bn; /* the value cells mark the path */
	fputs("| ", out);
	indent(out, level);
	rp_md_text(out, display);
	fputs(" |", out);
}

static void value(FILE *out, double v, bool bn, bool out_of_range)
{
	char b[32];
	fprintf(out, " %s%s%s |", rp_num(b, sizeof(b), v, 2), bn ? " &lt;==" : "",
	        out_of_range ? " out of range" : "");
}

static const struct rp_tree_cells tree_cells = {node, value};

static void tree(const struct report *r, const struct rp_run *run, FILE *out)
{
	char v[32];
	fputc('\n', out);
	rp_tree_table(r, run, &rp_md_markup, &tree_cells, out);
	fputc('\n', out);
	for (unsigned u = 0; u < rp_slice_rows(run); u++) {
		const struct rp_slice *s = &run->slice[u];
		if (isnan(s->l1_sum))
			continue;
		fprintf(out, "- Level 1 (%s) sums to %s %%%s\n", rp_slice_unit(run, s),
		        rp_num(v, sizeof(v), s->l1_sum, 2),
		        s->l1_off ? ", **not 100 %: level 1 does not add up**" : "");
	}
}

static void intervals(const struct rp_run *run, FILE *out)
{
	const struct rf_run *rf = &run->rf;
	unsigned rows = rp_slice_rows(run), n1 = 0;
	char v[32];
	for (unsigned k = 0; k < rf->nr_node; k++)
		n1 += rf->node[k].level == 1;
	if (!rf->nr_iv || !n1)
		return;
	fputs("\n#### Intervals, level 1\n\n| Time (s) | Hart |", out);
	for (unsigned k = 0; k < rf->nr_node; k++)
		if (rf->node[k].level == 1) {
			fputc(' ', out);
			rp_md_text(out, rf->node[k].display);
			fputs(" |", out);
		}
	fputs("\n|---:|:---|", out);
	for (unsigned k = 0; k < n1; k++)
		fputs("---:|", out);
	fputc('\n', out);
	for (unsigned i = 0; i < rf->nr_iv; i++)
		for (unsigned u = 0; u < rows; u++) {
			const struct rp_slice *s = &run->slice[(i + 1) * rows + u];
			fprintf(out, "| %.6f | ", rf->iv[i].time);
			rp_md_text(out, rp_slice_unit(run, s));
			fputs(" |", out);
			for (unsigned k = 0; k < rf->nr_node; k++)
				if (rf->node[k].level == 1)
					fprintf(out, " %s |",
					        rp_num(v, sizeof(v), s->mval[k].value, 2));
			fputc('\n', out);
		}
}

static void counts(const struct rp_run *run, FILE *out)
{
	const struct rf_run *rf = &run->rf;
	char v[48], sh[32];
	fputs("\n#### Counts\n\n| Event | Value | Unit | Running share |\n|:---|---:|:---|---:|\n",
	      out);
	for (unsigned i = 0; i < rf->nr_ev; i++) {
		const struct rf_event *e = &rf->ev[i];
		fputs("| ", out);
		rp_md_text(out, e->name);
		if (!rp_event_value(e, v, sizeof(v)))
			fprintf(out, " | %s |", e->state);
		else if (e->wrapped)
			fputs(" | &lt;wrapped&gt; |", out);
		else
			fprintf(out, " | %s |", v);
		fputc(' ', out);
		rp_md_text(out, e->unit);
		fprintf(out, " | %s %% |\n", rp_num(sh, sizeof(sh), e->running_share * 100.0, 2));
	}
}

static void head(const struct rp_run *run, const char *role, FILE *out)
{
	char src[256];
	fprintf(out, "\n## %s", role);
	rp_md_text(out, run->rf.name);
	fputs("\n\n", out);
	rp_md_text(out, rp_run_source(run, src, sizeof(src)));
	fputs("; file `", out);
	/* a code span ends only at a backtick run of the same length */
	for (const char *p = run->rf.path; *p; p++)
		fputc(*p == '`' ? '\'' : *p, out);
	fprintf(out, "`; %u run%s\n", run->rf.nr_runs, run->rf.nr_runs == 1 ? "" : "s");
}

static void summary(const struct report *r, FILE *out)
{
	fputs("\n## Summary across runs\n\n", out);
	rp_summary_table(r, &rp_md_markup, &tree_cells, "Weighted", out);
}

static void diff(const struct report *r, FILE *out)
{
	char a[32], b[32], d[32];
	fputs("# hpmstat report: diff\n", out);
	head(&r->run[0], "Base: ", out);
	head(&r->run[1], "New: ", out);
	fputs("\n| Node | Base | New | Diff (points) | Noise |\n|:---|---:|---:|---:|:---|\n", out);
	for (unsigned j = 0; j < r->nr_drow; j++) {
		const struct rp_drow *w = &r->drow[j];
		if (r->level && w->level > r->level)
			continue;
		fputs("| ", out);
		indent(out, w->level);
		rp_md_text(out, w->display);
		rp_signed(d, sizeof(d), w->d);
		fprintf(out, " | %s%s | %s%s | %s | %s |\n", rp_num(a, sizeof(a), w->a, 2),
		        w->bn_a ? " &lt;==" : "", rp_num(b, sizeof(b), w->b, 2),
		        w->bn_b ? " &lt;==" : "", d, rp_noise_word(w->noise));
	}
	fputs("\nA difference is above noise when \\|diff\\| > 2·sqrt(se_base² + se_new²), "
	      "se = value · rel_stddev / 100, from repeats (-r) of both runs.\n",
	      out);
}

void rp_render_md(const struct report *r, FILE *out)
{
	if (r->diff) {
		diff(r, out);
		return;
	}
	fputs("# hpmstat report\n", out);
	for (unsigned i = 0; i < r->nr_run; i++) {
		const struct rp_run *run = &r->run[i];
		head(run, "", out);
		if (run->rf.nr_node)
			tree(r, run, out);
		else
			fputs("\nNo metrics in this run.\n", out);
		intervals(run, out);
		counts(run, out);
	}
	if (r->nr_run > 1)
		summary(r, out);
}
