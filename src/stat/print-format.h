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

/* -M without --topdown (and without -A, an aggregation, --metric-only):
 * each metric in perf's '#' column of the event row it reads first
 * (stat_metric.beside), as perf prints -M; the others as rows of their own */
bool stat_metrics_beside(const struct stat_config *cfg, const struct stat_result *res);
/* The next metric after metric `after` (-1: the first) printed beside event
 * row i; -1: no more */
int stat_metric_beside_next(const struct stat_config *cfg, const struct stat_result *res,
                            unsigned i, int after);
/* A metric's figure in perf's '#' column, as perf's generic_metric gives
 * it: "%8.1f" and "unit  name" for a metric with a ScaleUnit, else "%8.2f"
 * and its name; "n/a" when it cannot be computed */
void stat_metric_beside_text(const struct stat_metric *m, char *val, size_t vlen, char *unit,
                             size_t ulen);

extern const struct stat_print_format stat_print_std;
extern const struct stat_print_format stat_print_csv;
extern const struct stat_print_format stat_print_json;

#endif
