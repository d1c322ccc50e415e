/* values.h: what every output format prints for a row of a measurement.
 *
 * Owns: the fields of an event row computed once for the std, CSV and JSON
 * leaves (and the run time and units the aggregation reads): its value and
 * share, the text of a row without a count, its count as digits (grouped
 * as the user's locale groups numbers), perf's run time and -G fields, the
 * units and their names, the index of the rows the shadow values divide
 * by, and the small number formats. The printers'
 * dispatcher (print.c) and the leaves call these; these call neither.
 */
#ifndef HPM_STAT_VALUES_H
#define HPM_STAT_VALUES_H

#include <stdbool.h>
#include <stddef.h>

#include "stat/stat.h"
#include "util/count.h"

/* Value of event i for unit u (-1: all), scaled by multiplexing and the
 * event's display scale, from res->delta when set; NAN when there is none. */
double stat_event_value(const struct stat_result *res, unsigned i, int unit, double *share);
/* What a row without a number shows: "<not supported>", "<not modelled>",
 * "<not counted>" (never ran) or STAT_WRAPPED_TEXT; NULL when event i (unit
 * u, -1 all) has a number. */
#define STAT_WRAPPED_TEXT "<wrapped>"
const char *stat_no_count_text(const struct stat_result *res, unsigned i, int unit);
/* perf's pcnt-running of such a row (print_running: 100 when running equals
 * enabled, else 100 * running / enabled): 100.00 for one that never opened
 * or has no time at all, 0.00 for one that was enabled and never ran (a
 * riscv event no counter matched). */
double stat_no_count_pct(const struct stat_result *res, unsigned i, int unit);
/* The count of event i (unit u, -1 all) as format f writes it: exact
 * digits (in std output grouped as the locale groups numbers, perf's
 * printf("%'"): none in C, ',' in en_US; "%f"-style ".000000" in JSON, as
 * perf), or for a msec time or a -r mean the double with 2 (JSON: 6)
 * decimals. Only for rows stat_no_count_text gives no text for. buf holds
 * at least 64 bytes. */
const char *stat_count_text(const struct stat_result *res, unsigned i, int unit, enum stat_format f,
                            char *buf, size_t len);
/* -G: perf's cgroup field of event i, its cgroup's name ("" for an event
 * without one) when some event has a cgroup; NULL without -G, when the
 * field is not there at all. One rule for the std, CSV and JSON rows. */
const char *stat_cgroup_field(const struct stat_result *res, unsigned i);
/* perf's run-time field of event i (unit u, -1 all): nanoseconds; the
 * emulator's cycles converted at --emu-freq. */
hpm_u128 stat_run_ns(const struct stat_config *cfg, const struct stat_result *res, unsigned i,
                     int unit);
/* The printf width that puts text in `cols` columns: a locale's thousands
 * separator may be several bytes of one character (fr_FR's U+202F), and
 * perf's printf pads by characters. */
int stat_text_width(const char *text, int cols);
/* v with 2 decimals, never "-0.00". */
const char *stat_fixed2(double v, char *buf, size_t len);

/* The units of event i (CPUs or harts of its back end) and their names. */
unsigned stat_nr_units(const struct stat_result *res, unsigned i);
const char *stat_unit_name(const struct stat_result *res, unsigned i, unsigned u);

/* Idle units: those whose cycles (the row the Topdown formulas divide by,
 * "cycles") ran and counted none. An emulated hart that only
 * waited in wfi is one: Kunminghu gates the core clock in wfi, so no
 * counter counts, mcycle included (kmh/emu/machine.c); it had no slots, and
 * the Topdown of all harts, a sum of counts, has none of it. Returns how
 * many, with their names (stat_unit_name) in names[] when names is not
 * NULL (at most max of them), and in *row the cycles row. */
unsigned stat_idle_units(const struct stat_result *res, const char **names, unsigned max, int *row);
/* Unit u of the metric units (-A's blocks, the session's harts or CPUs) is
 * idle as stat_idle_units says. */
bool stat_unit_idle(const struct stat_result *res, unsigned u);
/* The note printed where idle units are left out: "hart2, hart3 idle (no
 * cycles counted: in wfi, the clock gated)"; "" when there are none. */
const char *stat_idle_note(const struct stat_result *res, char *buf, size_t len);

/* The rows those values divide by, found in one pass over the rows, so
 * that a print of n rows costs O(n) and not a scan of every row for each
 * row (stat_print builds one and hangs it on the result it walks). The
 * shadow values (stat/shadow.h) and the -G column read it. */
struct stat_shadow_index {
	bool any_cgroup;             /* some row has a -G cgroup */
	int cycles, branches;        /* the first counted row of that name, or -1 */
	unsigned *clocks, nr_clocks; /* the task-clock and cpu-clock rows, in order */
	/* the counted rows of a model's fixed cycle counter (mcycle), in order */
	unsigned *fixed_cycles, nr_fixed_cycles;
};
void stat_shadow_index_build(const struct stat_result *res, struct stat_shadow_index *ix);
void stat_shadow_index_free(struct stat_shadow_index *ix);
/* res->shadow, else one built into *tmp (free it with
 * stat_shadow_index_free when the return is tmp). */
const struct stat_shadow_index *stat_shadow_index_of(const struct stat_result *res,
                                                     struct stat_shadow_index *tmp);
/* A task-clock or cpu-clock row: perf's clock events, which the rates
 * divide by. */
bool stat_row_is_clock(const struct hpm_evsel *e);

#endif
