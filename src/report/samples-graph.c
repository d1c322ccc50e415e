/* samples-graph.c: the call graphs of the samples report's text, as perf
 * report --stdio draws them (ui/stdio/hist.c, util/callchain.c's sorts):
 * the graph, the fractal, flat and folded print types, the threshold and
 * print limit, and perf's order of equal branches. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/samples-graph.h"
#include "util/xalloc.h"

/* the report the comparators of qsort read */
static const struct rs_report *graph_rs;

/* perf's merge tree of a node's children (its rb_root_in), in order: by
 * DSO then function start (or address), descending (the DSO by first
 * appearance: perf's by its allocation; an address no map holds last, its
 * DSO pointer being NULL, whenever it came: match_chain_dso_addresses) */
static int merge_cmp(const struct rs_cnode *x, const struct rs_cnode *y)
{
	bool ux = rs_unmapped(graph_rs, x->dso), uy = rs_unmapped(graph_rs, y->dso);
	if (ux != uy)
		return ux ? 1 : -1;
	if (x->dso != y->dso)
		return x->dso > y->dso ? -1 : 1;
	return (x->key < y->key) - (x->key > y->key);
}

static int merge_order(const void *a, const void *b)
{
	return merge_cmp(&graph_rs->node[*(const unsigned *)a],
	                 &graph_rs->node[*(const unsigned *)b]);
}

/* perf's order of a node's shown children: by period; equal ones in the
 * order of its merge tree (its rb-tree puts an equal one after) */
static int node_cmp(const void *a, const void *b)
{
	const struct rs_cnode *x = &graph_rs->node[*(const unsigned *)a];
	const struct rs_cnode *y = &graph_rs->node[*(const unsigned *)b];
	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	return merge_cmp(x, y);
}

/* The period and samples of n's callees' chains: perf's children_hit and
 * children_count (the rest of n's are its hit and count, the samples that
 * end at n) */
static uint64_t callee_period(const struct rs_report *rs, unsigned n)
{
	uint64_t p = 0;
	for (unsigned k = rs->node[n].child; k; k = rs->node[k].next)
		p += rs->node[k].period;
	return p;
}

static uint64_t callee_samples(const struct rs_report *rs, unsigned n)
{
	uint64_t s = 0;
	for (unsigned k = rs->node[n].child; k; k = rs->node[k].next)
		s += rs->node[k].samples;
	return s;
}

static double graph_min(const struct rs_report *rs)
{
	return rs->opts.graph_min_given ? rs->opts.graph_min : 0.5;
}

/* The least period of a branch of n shown: perf's graph threshold, of the
 * event's period (min_base; perf's min_hit = (u64)(total x 0.5 / 100), the
 * kept samples' with --percentage relative, 0 included), in the fractal
 * of the period of n's callees (__sort_chain_graph_rel: rounded up). */
static uint64_t min_hit(const struct rs_report *rs, unsigned n, uint64_t min_base)
{
	if (rs->opts.graph_mode == RS_MODE_FRACTAL)
		return (uint64_t)ceil((double)callee_period(rs, n) * (graph_min(rs) / 100));
	return (uint64_t)((double)min_base * (graph_min(rs) / 100));
}

/* The children of n of at least min period, in perf's order. */
static unsigned children(const struct rs_report *rs, unsigned n, uint64_t min, unsigned **out)
{
	unsigned nr = 0, cap = 0;
	unsigned *c = NULL;
	for (unsigned k = rs->node[n].child; k; k = rs->node[k].next) {
		if (rs->node[k].period < min)
			continue;
		if (nr == cap) {
			cap = cap ? 2 * cap : 8;
			c = xrealloc(c, cap * sizeof(*c));
		}
		c[nr++] = k;
	}
	graph_rs = rs;
	if (nr > 1)
		qsort(c, nr, sizeof(*c), node_cmp);
	*out = c;
	return nr;
}

/* Whether n's shown children c[0..nr) go on its run of frames: one child
 * with all of n's period (perf's callchain node goes on to it) */
static bool one_run(const struct rs_report *rs, unsigned n, const unsigned *c, unsigned nr)
{
	return nr == 1 && rs->node[c[0]].period == rs->node[n].period;
}

/* Follows n's run (perf's callchain node): each next frame printed in the
 * column at indent (up to *room of them when room, perf's print limit of
 * the first run), then the run's last node, its shown children in *c. */
static unsigned run_end(const struct rs_report *rs, unsigned n, uint64_t min_base,
                        const char *indent, unsigned *room, FILE *out, unsigned **c, unsigned *nr)
{
	for (;;) {
		*nr = children(rs, n, min_hit(rs, n, min_base), c);
		if (!one_run(rs, n, *c, *nr))
			return n;
		if (!room || *room) {
			fprintf(out, "%s%s\n", indent, rs_str(rs, rs->node[(*c)[0]].frame));
			if (room)
				--*room;
		}
		n = (*c)[0];
		free(*c);
	}
}

/* A branch's value: perf's callchain_node__fprintf_value. */
static void graph_value(const struct rs_report *rs, uint64_t period, uint64_t samples,
                        uint64_t total, char *p, size_t len)
{
	if (rs->opts.graph_value == RS_VALUE_PERIOD)
		snprintf(p, len, "%llu", (unsigned long long)period);
	else if (rs->opts.graph_value == RS_VALUE_COUNT)
		snprintf(p, len, "%llu", (unsigned long long)samples);
	else
		snprintf(p, len, "%.2f%%", total ? 100.0 * (double)period / (double)total : 0.0);
}

/* perf's graph (and fractal): a run of frames as a column of names, a
 * branch as "|--P%--name" lines (the last " --P%--name"), P of total, the
 * branches under the threshold of min_base left out, at most the print
 * limit of them. In the fractal P is of the callees of the run's last node
 * (of total at the top), and what no branch shown has is a last "[...]"
 * branch. Whether it drew a line. */
static bool graph(const struct rs_report *rs, unsigned n, uint64_t total, uint64_t min_base,
                  bool top, const char *indent, FILE *out)
{
	bool rel = rs->opts.graph_mode == RS_MODE_FRACTAL;
	unsigned *c, nr, start = n;
	n = run_end(rs, n, min_base, indent, NULL, out, &c, &nr);
	if (rel && !top)
		total = callee_period(rs, n);
	unsigned limit =
	    rs->opts.graph_limit && rs->opts.graph_limit < nr ? rs->opts.graph_limit : nr;
	uint64_t remaining = total, samples = 0;
	char p[32];
	for (unsigned i = 0; i < limit; i++) {
		const struct rs_cnode *k = &rs->node[c[i]];
		remaining -= k->period;
		samples += k->samples;
		/* perf's depth mask: the last shown branch ends the column,
		 * unless the fractal's remainder comes after it */
		bool last = i + 1 == nr && !(rel && remaining);
		graph_value(rs, k->period, k->samples, total, p, sizeof(p));
		fprintf(out, "%s|          \n", indent);
		fprintf(out, "%s%s--%s--%s\n", indent, last ? " " : "|", p, rs_str(rs, k->frame));
		/* perf's margin: a column of '|' or ' ', then 10 spaces,
		 * whatever the percentage's width */
		size_t il = strlen(indent);
		char *sub = xmalloc(il + 12);
		memcpy(sub, indent, il);
		sub[il] = last ? ' ' : '|';
		memset(sub + il + 1, ' ', 10);
		sub[il + 11] = '\0';
		graph(rs, c[i], total, min_base, false, sub, out);
		free(sub);
	}
	/* perf's "[...]": the period of the branches not shown, the
	 * samples that end at n with them at the top */
	if (rel && remaining && remaining != total && nr) {
		uint64_t all = callee_samples(rs, n);
		if (rs->opts.graph_value != RS_VALUE_COUNT || all > samples) {
			graph_value(rs, remaining, all - samples, total, p, sizeof(p));
			fprintf(out, "%s --%s--[...]\n", indent, p);
			limit++;
		}
	}
	free(c);
	return n != start || limit;
}

/* The chains of perf's flat and folded print types: every node that
 * samples end at (perf's hit), of at least min, after its callees, the
 * callees in the merge tree's order (perf's __sort_chain_flat) */
/* A chain's end, its hit and its place in the post-order. */
struct chain_end {
	unsigned node, order;
	uint64_t hit;
};

static void chain_ends(const struct rs_report *rs, unsigned n, uint64_t min, struct chain_end **v,
                       unsigned *nr, unsigned *cap)
{
	unsigned nc = 0;
	for (unsigned k = rs->node[n].child; k; k = rs->node[k].next)
		nc++;
	unsigned *c = xcalloc(nc ? nc : 1, sizeof(*c));
	nc = 0;
	for (unsigned k = rs->node[n].child; k; k = rs->node[k].next)
		c[nc++] = k;
	graph_rs = rs;
	qsort(c, nc, sizeof(*c), merge_order);
	for (unsigned i = 0; i < nc; i++)
		chain_ends(rs, c[i], min, v, nr, cap);
	free(c);
	/* the root's own are the samples whose chain is empty: no chain
	 * ends there (perf's callchain_append adds them to no node) */
	uint64_t hit = rs->node[n].period - callee_period(rs, n);
	if (!hit || hit < min || !rs->node[n].parent)
		return;
	if (*nr == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*v = xrealloc(*v, *cap * sizeof(**v));
	}
	(*v)[*nr] = (struct chain_end){n, *nr, hit};
	(*nr)++;
}

/* by the period that ends at the node, equal ones in the order found
 * (perf's rb-tree puts an equal one after) */
static int end_cmp(const void *a, const void *b)
{
	const struct chain_end *x = a, *y = b;
	if (x->hit != y->hit)
		return x->hit > y->hit ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* perf's flat and folded print types (callchain__fprintf_flat, _folded):
 * each chain that samples end at, by their period, at most the print
 * limit of them; flat: its value (of the chains through it too) then its
 * frames from the root, a line each; folded: the value of those that end
 * there, then the frames joined by ';'. */
static void chains(const struct rs_report *rs, unsigned root, uint64_t total, uint64_t min_base,
                   FILE *out)
{
	struct chain_end *e = NULL;
	unsigned nr = 0, cap = 0;
	chain_ends(rs, root, min_hit(rs, root, min_base), &e, &nr, &cap);
	if (nr > 1)
		qsort(e, nr, sizeof(*e), end_cmp);
	if (rs->opts.graph_limit && rs->opts.graph_limit < nr)
		nr = rs->opts.graph_limit;
	bool flat = rs->opts.graph_mode == RS_MODE_FLAT;
	unsigned *path = NULL, cap_path = 0;
	for (unsigned i = 0; i < nr; i++) {
		const struct rs_cnode *k = &rs->node[e[i].node];
		char p[32];
		if (flat)
			graph_value(rs, k->period, k->samples, total, p, sizeof(p));
		else
			graph_value(rs, e[i].hit, k->samples - callee_samples(rs, e[i].node), total,
			            p, sizeof(p));
		unsigned depth = 0;
		for (unsigned n = e[i].node; n != root; n = rs->node[n].parent) {
			if (depth == cap_path) {
				cap_path = cap_path ? 2 * cap_path : 64;
				path = xrealloc(path, cap_path * sizeof(*path));
			}
			path[depth++] = n;
		}
		if (flat) {
			fprintf(out, "           %s\n", p);
			while (depth)
				fprintf(out, "                %s\n",
				        rs_str(rs, rs->node[path[--depth]].frame));
			fputc('\n', out);
		} else {
			fprintf(out, "%s ", p);
			for (const char *sep = ""; depth; sep = ";")
				fprintf(out, "%s%s", sep,
				        rs_str(rs, rs->node[path[--depth]].frame));
			fputc('\n', out);
		}
	}
	free(path);
	free(e);
}

/* An entry's graph: its branches' shares of all the samples, even where
 * the entries' are of the kept ones (perf's --percentage relative); the
 * fractal's first branches' of the entry's own period (perf's
 * parent_samples, the Children one with --children). */
void rs_entry_graph(const struct rs_report *rs, const struct rs_hist *h, const struct rs_entry *e,
                    FILE *out)
{
	unsigned root = rs->opts.graph == RS_GRAPH_CALLER ? e->caller : e->callee;
	if (!root)
		return;
	uint64_t total = h->graph_period ? h->graph_period : h->total_period;
	uint64_t min_base = h->min_period ? h->min_period : h->total_period;
	if (rs->opts.graph_mode == RS_MODE_FLAT || rs->opts.graph_mode == RS_MODE_FOLDED) {
		chains(rs, root, total, min_base, out);
		return;
	}
	if (rs->opts.graph_mode == RS_MODE_FRACTAL)
		total = rs->opts.children && rs->cumulated ? e->acc : e->period;
	unsigned *c;
	unsigned nr = children(rs, root, min_hit(rs, root, min_base), &c);
	if (!nr) {
		free(c);
		return; /* perf shows no graph when no branch passes the threshold */
	}
	/* perf's callchain__fprintf_graph: a single first run of frames is
	 * a column under "---" (at most the print limit of them); with
	 * --sort sym... (and no -F) without its first frame, the entry's
	 * own symbol ("displayed twice" otherwise) */
	unsigned top = root; /* the node whose children the graph draws */
	if (rs->opts.sort_sym_first && one_run(rs, top, c, nr)) {
		top = c[0];
		free(c);
		nr = children(rs, top, min_hit(rs, top, min_base), &c);
	}
	bool drawn;
	if (one_run(rs, top, c, nr)) {
		fputs("            |\n", out);
		fprintf(out, "            ---%s\n", rs_str(rs, rs->node[c[0]].frame));
		unsigned limit = rs->opts.graph_limit, room = limit - 1, *rest, nr_rest;
		unsigned end = run_end(rs, c[0], min_base, "               ", limit ? &room : NULL,
		                       out, &rest, &nr_rest);
		free(rest);
		graph(rs, end, total, min_base, true, "               ", out);
		drawn = true;
	} else {
		drawn = graph(rs, top, total, min_base, true, "            ", out);
	}
	free(c);
	if (drawn)
		fputc('\n', out); /* perf: no blank line after no graph */
}

unsigned rs_graph_children(const struct rs_report *rs, unsigned n, uint64_t min_base,
                           unsigned **out)
{
	return children(rs, n, min_hit(rs, n, min_base), out);
}
