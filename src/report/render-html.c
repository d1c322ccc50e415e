/* render-html.c: one self-contained HTML file: inline CSS and inline SVG,
 * no script, no font, no link to anything, so it reads the same offline,
 * in a mail attachment or with JavaScript off. Every bar is an SVG rect
 * with class and data-* attributes naming its run and node, so tests (and
 * users' scripts) can find them in the DOM; every chart also has a table. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metric/tdcolor.h"
#include "report/cells.h"
#include "report/report-int.h"

#define BAR_W   360.0 /* px for 100 % */
#define LABEL_W 230.0
#define ROW_H   18.0

static const char *const palette[] = {"#4e79a7", "#e15759", "#f28e2b", "#59a14f",
                                      "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};

/* The colour of a node: that of its level-1 ancestor, so one area of the
 * tree has one colour everywhere: the Topdown categories' own colours
 * (metric/tdcolor.h, the ones hpmstat top shows too), else by position
 * among the level-1 nodes. */
static const char *colour(const struct rf_run *rf, unsigned k)
{
	int top = (int)k;
	for (unsigned guard = 0; rf->node[top].parent >= 0 && guard < 16; guard++)
		top = rf->node[top].parent;
	unsigned idx = 0;
	for (int j = 0; j < top; j++)
		idx += rf->node[j].level == 1;
	if (rf->node[top].level != 1)
		return "#999999";
	int cat = td_category(rf->node[top].name);
	if (cat >= 0)
		return td_colours[cat].rgb;
	return palette[idx % (sizeof(palette) / sizeof(palette[0]))];
}

/* width in px of a percentage, clamped to the chart: a value outside
 * [0, 100] is drawn to the edge and flagged in its label */
static double width(double v)
{
	if (isnan(v) || v < 0)
		return 0;
	return v > 100 ? BAR_W : v / 100.0 * BAR_W;
}

static void style(FILE *out)
{
	fputs("<style>\n"
	      "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1100px}\n"
	      "table{border-collapse:collapse;margin:.5em 0 1em}\n"
	      "th,td{border:1px solid #ccc;padding:2px 8px;text-align:right}\n"
	      "th:first-child,td:first-child{text-align:left}\n"
	      "td.na{color:#999}\n"
	      ".bn{font-weight:bold;color:#b00}\n"
	      ".flag{color:#b00}\n"
	      "svg text{font-size:12px;font-family:sans-serif}\n"
	      ".side{display:flex;gap:2em;flex-wrap:wrap}\n"
	      ".side>div{flex:1;min-width:20em}\n"
	      "</style>\n",
	      out);
}

static void cell(FILE *out, double v, const char *extra)
{
	char b[32];
	fprintf(out, "<td%s>%s%s</td>", isnan(v) ? " class=\"na\"" : "", rp_num(b, sizeof(b), v, 2),
	        extra);
}

/* The Topdown tree of one slice as nested bars: one row per node,
 * indented by level, its bar as long as its share. */
static void tree_svg(const struct report *r, const struct rp_run *run, const struct rp_slice *s,
                     FILE *out)
{
	const struct rf_run *rf = &run->rf;
	unsigned rows = 0;
	char v[32];
	for (unsigned k = 0; k < rf->nr_node; k++)
		rows += rf->node[k].level && rp_shown(r, &rf->node[k]);
	if (!rows)
		return;
	double h = ROW_H * rows + 24;
	fprintf(out,
	        "<svg class=\"tree\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
	        "height=\"%.0f\" role=\"img\" aria-label=\"Topdown tree of ",
	        LABEL_W + BAR_W + 140, h);
	rp_html_text(out, rf->name);
	fprintf(out, ", %s\">\n", rp_slice_unit(run, s));
	fprintf(out,
	        "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#bbb\"/>"
	        "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\" "
	        "stroke-dasharray=\"3\"/>\n",
	        LABEL_W, LABEL_W, h - 20, LABEL_W + BAR_W, LABEL_W + BAR_W, h - 20);
	unsigned row = 0;
	for (unsigned k = 0; k < rf->nr_node; k++) {
		const struct rf_node *n = &rf->node[k];
		const struct rf_mval *m = &s->mval[k];
		if (!n->level || !rp_shown(r, n))
			continue;
		double y = ROW_H * row++;
		double ind = 12.0 * (n->level - 1);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\"%s>", 4 + ind, y + 13,
		        m->bottleneck ? " font-weight=\"bold\"" : "");
		rp_html_text(out, n->display);
		fputs("</text>", out);
		/* a deeper node's bar is thinner, so the nesting shows in the bars */
		double bh = ROW_H - 4 - 2.0 * (n->level - 1);
		fprintf(out,
		        "<rect class=\"bar node\" data-run=\"%u\" data-hart=\"%s\" "
		        "data-node=\"",
		        (unsigned)(run - r->run), rp_slice_unit(run, s));
		rp_html_text(out, n->name);
		fprintf(out,
		        "\" data-value=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
		        "fill=\"%s\"%s><title>",
		        rp_num(v, sizeof(v), m->value, 4), LABEL_W, y + 2 + (ROW_H - 4 - bh) / 2,
		        width(m->value), bh, colour(rf, k),
		        n->level > 1 ? " fill-opacity=\"0.75\"" : "");
		rp_html_text(out, n->display);
		fprintf(out, " %s %s</title></rect>", rp_num(v, sizeof(v), m->value, 2), n->unit);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s%s%s</text>\n",
		        LABEL_W + width(m->value) + 4, y + 13, rp_num(v, sizeof(v), m->value, 2),
		        m->bottleneck ? " &lt;==" : "", m->out_of_range ? " (out of range)" : "");
	}
	fprintf(out,
	        "<text x=\"%.1f\" y=\"%.0f\">0 %%</text><text x=\"%.1f\" y=\"%.0f\" "
	        "text-anchor=\"end\">100 %%</text>\n</svg>\n",
	        LABEL_W, h - 6, LABEL_W + BAR_W, h - 6);
}

static void node(FILE *out, unsigned level, bool bn, const char *display)
{
	fprintf(out, "<tr><td style=\"padding-left:%upx\"%s>", 8 + 16 * (level ? level - 1 : 0),
	        bn ? " class=\"bn\"" : "");
	rp_html_text(out, display);
	fputs("</td>", out);
}

static void value(FILE *out, double v, bool bn, bool out_of_range)
{
	cell(out, v,
	     bn             ? " <span class=\"bn\">&lt;==</span>"
	     : out_of_range ? " <span class=\"flag\">out of range</span>"
	                    : "");
}

static const struct rp_tree_cells tree_cells = {node, value};

static void tree_table(const struct report *r, const struct rp_run *run, FILE *out)
{
	char v[32];
	fputs("<table class=\"tree\">", out);
	rp_tree_table(r, run, &rp_html_markup, &tree_cells, out);
	fputs("</table>\n", out);
	for (unsigned u = 0; u < rp_slice_rows(run); u++) {
		const struct rp_slice *s = &run->slice[u];
		if (s->l1_off)
			fprintf(out,
			        "<p class=\"flag\">Level 1 (%s) sums to %s %%, not 100 %%: the "
			        "counts do not add up.</p>\n",
			        rp_slice_unit(run, s), rp_num(v, sizeof(v), s->l1_sum, 2));
	}
}

/* Level-1 shares over the intervals: one polyline per level-1 node. */
static void series_svg(const struct rp_run *run, FILE *out)
{
	const struct rf_run *rf = &run->rf;
	unsigned rows = rp_slice_rows(run);
	const double W = 600, H = 200, L = 40, T = 10;
	double t0 = 0, t1 = rf->nr_iv ? rf->iv[rf->nr_iv - 1].time : 1;
	if (!(t1 > t0))
		t1 = t0 + 1;
	unsigned n1 = 0;
	for (unsigned k = 0; k < rf->nr_node; k++)
		n1 += rf->node[k].level == 1;
	if (!rf->nr_iv || !n1)
		return;
	fputs("<h3>Level 1 over time (all harts)</h3>\n", out);
	fprintf(out,
	        "<svg class=\"series\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
	        "height=\"%.0f\" role=\"img\" aria-label=\"level 1 shares over time\">\n",
	        L + W + 160, T + H + 30);
	for (int p = 0; p <= 100; p += 25) {
		double y = T + H - H * p / 100.0;
		fprintf(out,
		        "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#eee\"/>"
		        "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n",
		        L, y, L + W, y, L - 4, y + 4, p);
	}
	fprintf(out,
	        "<text x=\"%.0f\" y=\"%.0f\">0 s</text><text x=\"%.0f\" y=\"%.0f\" "
	        "text-anchor=\"end\">%.3f s</text>\n",
	        L, T + H + 16, L + W, T + H + 16, t1);
	unsigned idx = 0;
	for (unsigned k = 0; k < rf->nr_node; k++) {
		if (rf->node[k].level != 1)
			continue;
		fputs("<polyline class=\"series-line\" data-node=\"", out);
		rp_html_text(out, rf->node[k].name);
		fprintf(out, "\" fill=\"none\" stroke-width=\"2\" stroke=\"%s\" points=\"",
		        colour(rf, k));
		for (unsigned i = 0; i < rf->nr_iv; i++) {
			double v = run->slice[(i + 1) * rows].mval[k].value;
			if (isnan(v))
				continue;
			v = v < 0 ? 0 : v > 100 ? 100 : v;
			fprintf(out, "%s%.1f,%.1f", i ? " " : "",
			        L + W * (rf->iv[i].time - t0) / (t1 - t0), T + H - H * v / 100.0);
		}
		fputs("\"/>", out);
		/* a dot per interval, so a run of one interval still shows */
		for (unsigned i = 0; i < rf->nr_iv; i++) {
			double v = run->slice[(i + 1) * rows].mval[k].value;
			if (isnan(v))
				continue;
			v = v < 0 ? 0 : v > 100 ? 100 : v;
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>",
			        L + W * (rf->iv[i].time - t0) / (t1 - t0), T + H - H * v / 100.0,
			        colour(rf, k));
		}
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" fill=\"%s\">", L + W + 8,
		        T + 14 + 16.0 * idx++, colour(rf, k));
		rp_html_text(out, rf->node[k].display);
		fputs("</text>\n", out);
	}
	fputs("</svg>\n", out);
}

static void counts_table(const struct rp_run *run, FILE *out)
{
	const struct rf_run *rf = &run->rf;
	char v[48], sh[32];
	fputs("<details><summary>Counts</summary>\n<table class=\"counts\"><tr><th>Event</th>"
	      "<th>Value</th><th>Unit</th><th>Running share</th></tr>\n",
	      out);
	for (unsigned i = 0; i < rf->nr_ev; i++) {
		const struct rf_event *e = &rf->ev[i];
		fputs("<tr><td>", out);
		rp_html_text(out, e->name);
		if (!rp_event_value(e, v, sizeof(v)) || e->wrapped) {
			fputs("</td><td class=\"na\">", out);
			rp_html_text(out, e->wrapped ? v : e->state);
			fputs("</td>", out);
		} else {
			fprintf(out, "</td><td>%s</td>", v);
		}
		fputs("<td>", out);
		rp_html_text(out, e->unit);
		fprintf(out, "</td><td>%s %%</td></tr>\n",
		        rp_num(sh, sizeof(sh), e->running_share * 100.0, 2));
	}
	fputs("</table></details>\n", out);
}

static void run_head(const struct rp_run *run, const char *role, FILE *out)
{
	char src[256];
	fprintf(out, "<h2>%s", role);
	rp_html_text(out, run->rf.name);
	fputs("</h2>\n<p>", out);
	rp_html_text(out, rp_run_source(run, src, sizeof(src)));
	fputs("; file <code>", out);
	rp_html_text(out, run->rf.path);
	fprintf(out, "</code>; recorded ");
	rp_html_text(out, run->rf.created);
	fprintf(out, "; %u run%s</p>\n", run->rf.nr_runs, run->rf.nr_runs == 1 ? "" : "s");
}

static void one_run(const struct report *r, const struct rp_run *run, FILE *out)
{
	unsigned rows = rp_slice_rows(run);
	fprintf(out, "<section class=\"run\" id=\"run-%u\">\n", (unsigned)(run - r->run));
	run_head(run, "", out);
	if (!run->rf.nr_node) {
		fputs("<p>No metrics in this run (recorded without --topdown or -M).</p>\n", out);
	} else {
		fputs("<div class=\"side\">\n", out);
		for (unsigned u = 0; u < rows; u++) {
			fputs("<figure>", out);
			tree_svg(r, run, &run->slice[u], out);
			fputs("<figcaption>", out);
			rp_html_text(out, rp_slice_unit(run, &run->slice[u]));
			fputs("</figcaption></figure>\n", out);
		}
		fputs("</div>\n", out);
		tree_table(r, run, out);
		series_svg(run, out);
	}
	counts_table(run, out);
	fputs("</section>\n", out);
}

/* One stacked bar of the level-1 shares per run (and the weighted one). */
static void stacks(const struct report *r, FILE *out)
{
	unsigned n = r->nr_run + (r->weights ? 1u : 0u);
	double h = 26.0 * n + 40;
	char v[32];
	fputs("<h2>Level 1 across runs</h2>\n", out);
	fprintf(out,
	        "<svg class=\"stacks\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
	        "height=\"%.0f\" role=\"img\" aria-label=\"level 1 across runs\">\n",
	        LABEL_W + BAR_W + 240, h);
	for (unsigned i = 0; i < n; i++) {
		bool w = i == r->nr_run;
		double y = 26.0 * i, x = LABEL_W;
		fprintf(out, "<text x=\"4\" y=\"%.0f\">", y + 16);
		rp_html_text(out, w ? "weighted" : r->run[i].rf.name);
		fputs("</text>", out);
		unsigned col = 0;
		for (unsigned j = 0; j < r->nr_srow; j++) {
			const struct rp_srow *s = &r->srow[j];
			if (s->level != 1)
				continue;
			double val = w ? s->weighted : s->v[i];
			double wd = width(val);
			if (x + wd > LABEL_W + BAR_W)
				wd = LABEL_W + BAR_W - x;
			if (w)
				fputs(
				    "<rect class=\"bar stack\" data-run=\"weighted\" data-node=\"",
				    out);
			else
				fprintf(out,
				        "<rect class=\"bar stack\" data-run=\"%u\" data-node=\"",
				        i);
			rp_html_text(out, s->name);
			fprintf(out,
			        "\" data-value=\"%s\" x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" "
			        "height=\"20\" fill=\"%s\"><title>",
			        rp_num(v, sizeof(v), val, 4), x, y + 2, wd > 0 ? wd : 0,
			        palette[col % (sizeof(palette) / sizeof(palette[0]))]);
			rp_html_text(out, s->display);
			fprintf(out, " %s %%</title></rect>", rp_num(v, sizeof(v), val, 2));
			x += wd > 0 ? wd : 0;
			col++;
		}
		fputc('\n', out);
	}
	/* the legend */
	unsigned col = 0;
	double lx = LABEL_W;
	for (unsigned j = 0; j < r->nr_srow; j++) {
		if (r->srow[j].level != 1)
			continue;
		fprintf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"10\" height=\"10\" fill=\"%s\"/>",
		        lx, 26.0 * n + 6, palette[col++ % (sizeof(palette) / sizeof(palette[0]))]);
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\">", lx + 14, 26.0 * n + 15);
		rp_html_text(out, r->srow[j].display);
		fputs("</text>", out);
		lx += 14 + 7.0 * (double)strlen(r->srow[j].display) + 10;
	}
	fputs("\n</svg>\n", out);
}

static void summary_table(const struct report *r, FILE *out)
{
	fputs("<table class=\"summary\">", out);
	rp_summary_table(r, &rp_html_markup, &tree_cells, "weighted", out);
	fputs("</table>\n", out);
	if (r->weights)
		fputs("<p>weighted = &#8721;(w &#183; value) / &#8721;w over the runs.</p>\n", out);
}

static void diff(const struct report *r, FILE *out)
{
	char d[32];
	unsigned rows = 0;
	for (unsigned j = 0; j < r->nr_drow; j++)
		rows += r->drow[j].level && !(r->level && r->drow[j].level > r->level);
	fputs("<h1>hpmstat report: diff</h1>\n<div class=\"side\"><div>", out);
	run_head(&r->run[0], "Base: ", out);
	fputs("</div><div>", out);
	run_head(&r->run[1], "New: ", out);
	fputs("</div></div>\n", out);
	/* both values of a node side by side: base above, new below */
	double h = 2 * ROW_H * rows + 24;
	fprintf(out,
	        "<svg class=\"diff\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
	        "height=\"%.0f\" role=\"img\" aria-label=\"base and new per node\">\n",
	        LABEL_W + BAR_W + 200, h);
	unsigned row = 0;
	for (unsigned j = 0; j < r->nr_drow; j++) {
		const struct rp_drow *w = &r->drow[j];
		if (!w->level || (r->level && w->level > r->level))
			continue;
		double y = 2 * ROW_H * row++;
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", 4 + 12.0 * (w->level - 1), y + 20);
		rp_html_text(out, w->display);
		fputs("</text>", out);
		for (int side = 0; side < 2; side++) {
			double v = side ? w->b : w->a;
			char b[32];
			fprintf(out, "<rect class=\"bar diff-bar\" data-side=\"%s\" data-node=\"",
			        side ? "new" : "base");
			rp_html_text(out, w->name);
			fprintf(out,
			        "\" data-value=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" "
			        "height=\"14\" fill=\"%s\"><title>%s %s</title></rect>",
			        rp_num(b, sizeof(b), v, 4), LABEL_W, y + 2 + 16.0 * side, width(v),
			        side ? "#f28e2b" : "#4e79a7", side ? "new" : "base",
			        rp_num(d, sizeof(d), v, 2));
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s %s</text>",
			        LABEL_W + width(v) + 4, y + 13 + 16.0 * side, side ? "new" : "base",
			        rp_num(d, sizeof(d), v, 2));
		}
		fputc('\n', out);
	}
	fputs("</svg>\n", out);
	fputs("<table class=\"diff\"><tr><th>Node</th><th>Base</th><th>New</th><th>Diff "
	      "(points)</th><th>Noise</th></tr>\n",
	      out);
	for (unsigned j = 0; j < r->nr_drow; j++) {
		const struct rp_drow *w = &r->drow[j];
		if (r->level && w->level > r->level)
			continue;
		fprintf(out, "<tr><td style=\"padding-left:%upx\">",
		        8 + 16 * (w->level ? w->level - 1 : 0));
		rp_html_text(out, w->display);
		fputs("</td>", out);
		cell(out, w->a, w->bn_a ? " <span class=\"bn\">&lt;==</span>" : "");
		cell(out, w->b, w->bn_b ? " <span class=\"bn\">&lt;==</span>" : "");
		rp_signed(d, sizeof(d), w->d);
		fprintf(out, "<td>%s</td><td%s>%s</td></tr>\n", d,
		        w->noise == RP_NOISE_ABOVE ? " class=\"bn\"" : "", rp_noise_word(w->noise));
	}
	fputs("</table>\n<p>A difference is above noise when |diff| &gt; 2&#183;&#8730;(se<sub>base"
	      "</sub>&#178; + se<sub>new</sub>&#178;), se = value &#183; rel_stddev / 100, from "
	      "the repeats (-r) of both runs; without repeats in both it cannot be told.</p>\n",
	      out);
}

void rp_render_html(const struct report *r, FILE *out)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"hpmstat report\">\n<title>hpmstat report",
	      out);
	for (unsigned i = 0; i < r->nr_run && i < 4; i++) {
		fputs(i ? ", " : ": ", out);
		rp_html_text(out, r->run[i].rf.name);
	}
	fputs("</title>\n", out);
	style(out);
	fputs("</head>\n<body>\n", out);
	if (r->diff) {
		diff(r, out);
	} else {
		fputs("<h1>hpmstat report</h1>\n", out);
		if (r->nr_run > 1) {
			stacks(r, out);
			summary_table(r, out);
		}
		for (unsigned i = 0; i < r->nr_run; i++)
			one_run(r, &r->run[i], out);
	}
	fputs("</body>\n</html>\n", out);
}
