/* shadow.c: see shadow.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "stat/shadow.h"
#include "stat/values.h"

/* The value a derived metric starts from: with -r the mean of the runs
 * (perf's shadow statistics average every run), else the row's value. */
static double row_value(const struct stat_result *res, unsigned i, int unit)
{
	if (res->noise && unit < 0)
		return stat_no_count_text(res, i, -1) ? (double)NAN : res->noise[i].mean;
	return stat_event_value(res, i, unit, NULL);
}

/* The task time of the row set in nanoseconds: the first counted
 * task-clock or cpu-clock (for unit u, that unit's), as perf divides by its
 * STAT_NSECS; NAN when the set has no clock that counted. */
static double clock_ns(const struct stat_result *res, const struct stat_shadow_index *ix,
                       unsigned of, int unit)
{
	for (unsigned k = 0; k < ix->nr_clocks; k++) {
		unsigned j = ix->clocks[k];
		const struct hpm_evsel *c = &res->list->ev[j];
		if (stat_no_count_text(res, j, unit))
			continue;
		/* perf keeps shadow statistics per cgroup: -G rates divide by the
		 * clock of the same cgroup */
		const char *cg = res->list->ev[of].cgroup;
		if (c->cgroup != cg && (!c->cgroup || !cg || strcmp(c->cgroup, cg) != 0))
			continue;
		/* a unit of another unit set (an emulated hart) has no clock */
		if (unit >= 0 && stat_nr_units(res, j) != stat_nr_units(res, of))
			return (double)NAN;
		double v = row_value(res, j, unit);
		return isnan(v) ? v : v / c->scale;
	}
	return (double)NAN;
}

/* perf's two ratios of its generic events, instructions per cycle and
 * branch misses in percent of branches, for a row named `of` over the
 * counted row named `over` counted alike (both on the host, or both by the
 * emulated model: an Arm model's instructions is INST_RETIRED in an event
 * counter and its cycles PMCCNTR_EL0). -1 when row i is neither of them,
 * else whether it has its ratio. */
static int generic_ratio(const struct stat_result *res, const struct stat_shadow_index *ix,
                         unsigned i, int unit, double v, double *val, const char **unit_text)
{
	const struct {
		const char *of, *unit;
		int over; /* the row of the divisor, from the index */
		double scale;
	} ratios[] = {
	    {"instructions", "insn per cycle", ix->cycles, 1},
	    {"branch-misses", "of all branches", ix->branches, 100},
	    {"stalled-cycles-frontend", "frontend cycles idle", ix->cycles, 100},
	    {"stalled-cycles-backend", "backend cycles idle", ix->cycles, 100},
	};
	const struct hpm_evsel *e = &res->list->ev[i];
	for (unsigned k = 0; k < sizeof(ratios) / sizeof(ratios[0]); k++) {
		if (strcmp(e->name, ratios[k].of) != 0)
			continue;
		int c = ratios[k].over;
		if (c < 0 || (res->list->ev[c].kind == HPM_EV_HOST) != (e->kind == HPM_EV_HOST))
			return 0;
		double d = row_value(res, (unsigned)c, unit);
		if (isnan(v) || isnan(d) || d <= 0)
			return 0;
		*val = ratios[k].scale * v / d;
		*unit_text = ratios[k].unit;
		return 1;
	}
	return -1;
}

static bool shadow_metric(const struct stat_result *res, const struct stat_shadow_index *ix,
                          unsigned i, int unit, double *val, const char **unit_text);

bool stat_shadow_column(const struct stat_result *res, unsigned i, char *head, size_t len)
{
	static const struct {
		const char *name, *unit;
	} ratios[] = {
	    {"instructions", "insn per cycle"},
	    {"branch-misses", "of all branches"},
	    {"stalled-cycles-frontend", "frontend cycles idle"},
	    {"stalled-cycles-backend", "backend cycles idle"},
	};
	const struct hpm_evsel *e = &res->list->ev[i];
	const char *unit = NULL;
	for (unsigned k = 0; k < sizeof(ratios) / sizeof(ratios[0]) && !unit; k++)
		if (strcmp(e->name, ratios[k].name) == 0)
			unit = ratios[k].unit;
	if (!unit && e->kind == HPM_EV_HOST && e->attr_type == PERF_TYPE_HARDWARE &&
	    e->attr_config == PERF_COUNT_HW_CPU_CYCLES)
		unit = "GHz";
	if (!unit && e->kind == HPM_EV_MODEL_FIXED && hpm_model_fixed_is(&e->enc, "instructions"))
		unit = "insn per cycle";
	if (!unit)
		return false;
	if (strncmp(unit, "of all", 6) == 0)
		snprintf(head, len, "%s %s", e->name, unit);
	else
		snprintf(head, len, "%s", unit);
	return true;
}

const char *stat_shadow_text(double val, const char *unit_text, char *buf, size_t len)
{
	size_t n = strlen(unit_text);
	if (strncmp(unit_text, "of all ", 7) == 0 ||
	    (n >= 11 && strcmp(unit_text + n - 11, "cycles idle") == 0))
		snprintf(buf, len, "%7.2f%%", val);
	else if (strcmp(unit_text, "insn per cycle") == 0)
		snprintf(buf, len, "%7.2f ", val);
	else
		snprintf(buf, len, "%8.3f", val);
	return buf;
}

bool stat_shadow_metric(const struct stat_result *res, unsigned i, int unit, double *val,
                        const char **unit_text)
{
	struct stat_shadow_index tmp;
	const struct stat_shadow_index *ix = stat_shadow_index_of(res, &tmp);
	bool r = shadow_metric(res, ix, i, unit, val, unit_text);
	if (ix == &tmp)
		stat_shadow_index_free(&tmp);
	return r;
}

static bool shadow_metric(const struct stat_result *res, const struct stat_shadow_index *ix,
                          unsigned i, int unit, double *val, const char **unit_text)
{
	const struct hpm_evsel *e = &res->list->ev[i];
	double v = row_value(res, i, unit);
	int ratio = generic_ratio(res, ix, i, unit, v, val, unit_text);
	if (ratio >= 0)
		return ratio;
	/* tool events take perf's plain rate, as host events do */
	if (isnan(v) || (e->kind != HPM_EV_HOST && e->kind != HPM_EV_TOOL))
		goto kunminghu;
	if (stat_row_is_clock(e)) {
		/* task time over wall time (-I: the interval's own length; -r:
		 * the mean task time over the mean wall time); v is in the row's
		 * unit: msec for task-clock, ns as counted for a clock written as
		 * software/config=1/, which perf prints unscaled */
		if (res->elapsed_ns <= 0 || e->scale <= 0)
			return false;
		*val = v / e->scale / res->elapsed_ns;
		*unit_text = "CPUs utilized";
		return true;
	}
	double ns = clock_ns(res, ix, i, unit);
	if (isnan(ns))
		return false; /* perf prints no rate without a clock event */
	if (e->attr_type == PERF_TYPE_HARDWARE && e->attr_config == PERF_COUNT_HW_CPU_CYCLES) {
		*val = ns > 0 ? v / ns : 0;
		*unit_text = "GHz";
		return true;
	}
	/* perf's rate of any other event: per second of task time, scaled
	 * while above 1000 to K/sec, M/sec, G/sec */
	{
		double r = ns > 0 ? v * 1e9 / ns : 0;
		static const char *const units[] = {"/sec", "K/sec", "M/sec", "G/sec"};
		unsigned k = 0;
		while (r > 1000 && k < 3) {
			r /= 1000;
			k++;
		}
		*val = r;
		*unit_text = units[k];
		return true;
	}
kunminghu:
	if (isnan(v))
		return false;
	/* a model's fixed instructions counter (minstret) over its fixed cycle
	 * counter reads as IPC on the emulator too */
	if (e->kind == HPM_EV_MODEL_FIXED && hpm_model_fixed_is(&e->enc, "instructions")) {
		for (unsigned k = 0; k < ix->nr_fixed_cycles; k++) {
			double cy = stat_event_value(res, ix->fixed_cycles[k], unit, NULL);
			if (cy > 0) {
				*val = v / cy;
				*unit_text = "insn per cycle";
				return true;
			}
		}
	}
	return false;
}
