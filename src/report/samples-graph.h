/* samples-graph.h: the call graphs of the samples report's text
 * (samples-graph.c).
 *
 * Owns: perf's drawing of an entry's call tree (rs_report's nodes, built
 * by samples.c) in its print types (rs_graph_mode: graph, fractal, flat,
 * folded), with its threshold, print limit and order of branches; and the
 * branches a threshold keeps, for the other formats' trees.
 */
#ifndef HPM_REPORT_SAMPLES_GRAPH_H
#define HPM_REPORT_SAMPLES_GRAPH_H

#include <stdint.h>
#include <stdio.h>

#include "report/samples.h"

/* e's call graph of the event h as perf prints it under its line (nothing
 * when no branch passes the threshold). */
void rs_entry_graph(const struct rs_report *rs, const struct rs_hist *h, const struct rs_entry *e,
                    FILE *out);
/* The children of node n that the graph threshold of min_base (the
 * event's period) keeps, in perf's order, in *out (to free); how many. */
unsigned rs_graph_children(const struct rs_report *rs, unsigned n, uint64_t min_base,
                           unsigned **out);

#endif
