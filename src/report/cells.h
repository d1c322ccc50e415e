/* cells.h: what every renderer of src/report writes the same way.
 *
 * Owns: the level filter and the slice rows, number formatting with "n/a"
 * (values, counts, signed differences), a run's source line, the noise
 * verdict as words, the escaping rules of CSV, Markdown and HTML, and the
 * markup of Markdown and HTML tables with the Topdown tree and summary
 * tables written in it (each format hands in its node and value cells).
 * The renderers (render-*.c, samples-render.c) call these; these call no
 * renderer.
 */
#ifndef HPM_REPORT_CELLS_H
#define HPM_REPORT_CELLS_H

#include <stdio.h>

#include "report/report.h"

/* The node is shown at the report's --level (metrics outside the tree,
 * level 0, always are). */
bool rp_shown(const struct report *r, const struct rf_node *n);
/* v with prec decimals, or "n/a" for NAN. */
const char *rp_num(char *buf, size_t len, double v, int prec);
/* An event's value as the counts tables show it: every digit of an exact
 * count, "<wrapped>" for a count that passed 2^64 - 1, a msec time with 2
 * decimals; NULL when it has none (the caller shows its state). buf holds
 * at least HPM_COUNT_STR_MAX bytes. */
const char *rp_event_value(const struct rf_event *e, char *buf, size_t len);
/* The same for one unit's count of e ("n/a" when it never ran). */
const char *rp_unit_value(const struct rf_event *e, const struct rf_count *c, char *buf,
                          size_t len);
/* A difference with 2 decimals and its sign: "+0.30", "-1.25", "+0.00"
 * (never "-0.00"), or "n/a". */
const char *rp_signed(char *buf, size_t len, double v);
/* The unit a slice is about: "all" or the unit's name. */
const char *rp_slice_unit(const struct rp_run *run, const struct rp_slice *s);
/* The run has per-unit slices: slices per interval = 1 + units. */
unsigned rp_slice_rows(const struct rp_run *run);
/* Unit u (index in rf.units) of a run with several is idle: its cycles
 * (the event the Topdown divides by) ran and counted none (one that never
 * ran is not counted, not idle), as a
 * hart in wfi counts (stat's stat_idle_units): no slots, so the all-units
 * Topdown has none of it. */
bool rp_unit_idle(const struct rp_run *run, unsigned u);
/* "hart2, hart3" of a run's idle units, "" when none. */
const char *rp_idle_units(const struct rp_run *run, char *buf, size_t len);
/* Short description of a run's source, e.g. "emulated, profile dram-bound,
 * 2 harts" or "command: true". */
const char *rp_run_source(const struct rp_run *run, char *buf, size_t len);
/* The noise verdict as words. */
const char *rp_noise_word(enum rp_noise n);

void rp_csv_field(FILE *out, const char *s);
void rp_md_text(FILE *out, const char *s);
void rp_html_text(FILE *out, const char *s);

/* A table in Markdown or in HTML: what opens and closes a row and each
 * kind of cell, how text is escaped and "±" written, whether a rule line
 * (Markdown's) follows the headings. */
struct rp_tag {
	const char *open, *close;
};
struct rp_markup {
	struct rp_tag row, head, num, text;
	void (*escape)(FILE *out, const char *s);
	const char *plus_minus;
	bool rule;
};
extern const struct rp_markup rp_md_markup, rp_html_markup;

/* A format's cells of the Topdown tables: a node's name (its row's start,
 * indented by level; bn: on the run's bottleneck path) and a value with
 * its marks. */
struct rp_tree_cells {
	void (*node)(FILE *out, unsigned level, bool bn, const char *display);
	void (*value)(FILE *out, double v, bool bn, bool out_of_range);
};

/* A cell of a markup's kind (head, num or text) holding s as it is, or
 * escaped (rp_markup_text). */
void rp_markup_cell(FILE *out, const struct rp_tag *cell, const char *s);
void rp_markup_text(const struct rp_markup *mk, FILE *out, const struct rp_tag *cell,
                    const char *s);
/* The Topdown tree of a run, a column per slice: its rows (the caller
 * writes what opens and closes the table). */
void rp_tree_table(const struct report *r, const struct rp_run *run, const struct rp_markup *mk,
                   const struct rp_tree_cells *tc, FILE *out);
/* The summary across runs, a column per run (and the weighted one, headed
 * `weighted`): its rows. */
void rp_summary_table(const struct report *r, const struct rp_markup *mk,
                      const struct rp_tree_cells *tc, const char *weighted, FILE *out);

#endif
