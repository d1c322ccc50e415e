/* print-format.h: the leaves of the stat printers' one display walk.
 *
 * Owns: struct stat_print_format, what a format does at each step of the
 * walk in print.c (the shape of perf's stat-display.c: one walk over the
 * rows, std/CSV/JSON leaves), and the three formats' instances. The walk
 * decides which rows print and in which order (an aggregated view's order,
 * the rows -v shows, -A's units, each metric unit's tree); a leaf only
 * writes the row it is given, with the fields of stat/values.h. Leaves
 * never call the walk.
 */
#ifndef HPM_STAT_PRINT_FORMAT_H
#define HPM_STAT_PRINT_FORMAT_H

#include "stat/stat.h"

/* A step that is NULL prints nothing. */
struct stat_print_format {
	/* before any row: titles, comment lines, -I's column header */
	void (*begin)(const struct stat_config *cfg, const struct stat_result *res);
	/* --metric-only's own table, in place of the event and metric rows;
	 * NULL: the metric rows as usual, without the event rows */
	void (*metric_only)(const struct stat_config *cfg, const struct stat_result *res);
	/* event row i of unit `unit` (-1: all units) */
	void (*event)(const struct stat_config *cfg, const struct stat_result *res, unsigned i,
	              int unit);
	/* before the metric rows (there are some); rows: event rows printed */
	void (*metrics_begin)(const struct stat_config *cfg, const struct stat_result *res,
	                      unsigned rows);
	/* before metric unit u's rows */
	void (*unit_begin)(const struct stat_config *cfg, const struct stat_result *res,
	                   unsigned u);
	/* metric k of metric unit `unit`'s (res->unit_metrics), -1: the totals */
	void (*metric)(const struct stat_config *cfg, const struct stat_result *res, unsigned k,
	               int unit);
	/* after the metric rows of `unit` (-1: the totals) */
	void (*unit_end)(const struct stat_config *cfg, const struct stat_result *res, int unit);
	/* after every metric row */
	void (*metrics_end)(const struct stat_config *cfg, const struct stat_result *res);
	/* after everything: totals, times, closing lines */
	void (*end)(const struct stat_config *cfg, const struct stat_result *res);
};

/* --metric-only -A with metrics: a row per metric unit (perf's per CPU),
 * and no total, as perf prints it */
bool stat_metric_only_per_unit(const struct stat_config *cfg, const struct stat_result *res);

/* --metric-only -x with an aggregation: the names of the prefix fields
 * before the metrics' headers, as perf's ("core,cpus,", "node,") */
void stat_metric_only_csv_header(const struct stat_config *cfg, const struct stat_result *res);

extern const struct stat_print_format stat_print_std;
extern const struct stat_print_format stat_print_csv;
extern const struct stat_print_format stat_print_json;

#endif
