/* print.c: what the three printers share: values, perf's derived "shadow"
 * metrics beside an event, and the description of emulated sources. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stat/stat.h"

double stat_event_value(const struct stat_result *res, unsigned i, int unit, double *share)
{
	const struct hpm_evlist *l = res->list;
	const struct hpm_evsel *e = &l->ev[i];
	if (!res->delta)
		return hpm_evsel_value(l, e, unit, share);
	/* interval deltas: the same scaling rule on the interval's counts */
	if (share)
		*share = 0;
	if (e->state != HPM_EV_OK)
		return (double)NAN;
	return hpm_counts_value(res->delta[i], e->nr_units ? e->nr_units : l->nr_units, unit,
	                        e->scale, share);
}

unsigned stat_nr_units(const struct stat_result *res, unsigned i)
{
	const struct hpm_evsel *e = &res->list->ev[i];
	return e->nr_units ? e->nr_units : res->list->nr_units;
}

const char *stat_unit_name(const struct stat_result *res, unsigned i, unsigned u)
{
	const struct hpm_evsel *e = &res->list->ev[i];
	char *const *names = e->unit_names ? e->unit_names : res->list->unit_names;
	return names && u < stat_nr_units(res, i) ? names[u] : "?";
}

static int find_event(const struct stat_result *res, const char *name)
{
	for (unsigned i = 0; i < res->list->nr; i++)
		if (strcmp(res->list->ev[i].name, name) == 0 && res->list->ev[i].state == HPM_EV_OK)
			return (int)i;
	return -1;
}

bool stat_shadow_metric(const struct stat_result *res, unsigned i, int unit, double *val,
                        const char **unit_text)
{
	const struct hpm_evsel *e = &res->list->ev[i];
	double v = stat_event_value(res, i, unit, NULL);
	double secs = res->elapsed_ns / 1e9;
	if (isnan(v) || e->kind != HPM_EV_HOST)
		goto kunminghu;
	if (strcmp(e->name, "task-clock") == 0 || strcmp(e->name, "cpu-clock") == 0) {
		/* v is msec: task time over wall time */
		if (res->elapsed_ns <= 0)
			return false;
		*val = v * 1e6 / res->elapsed_ns;
		*unit_text = "CPUs utilized";
		return true;
	}
	if (strcmp(e->name, "instructions") == 0) {
		int c = find_event(res, "cycles");
		double cy = c >= 0 ? stat_event_value(res, (unsigned)c, unit, NULL) : (double)NAN;
		if (!isnan(cy) && cy > 0) {
			*val = v / cy;
			*unit_text = "insn per cycle";
			return true;
		}
		return false;
	}
	if (strcmp(e->name, "branch-misses") == 0) {
		int b = find_event(res, "branches");
		double br = b >= 0 ? stat_event_value(res, (unsigned)b, unit, NULL) : (double)NAN;
		if (!isnan(br) && br > 0) {
			*val = 100 * v / br;
			*unit_text = "of all branches";
			return true;
		}
		return false;
	}
	if (secs <= 0)
		return false;
	/* perf's rate for software events: /sec, K/sec, M/sec, G/sec */
	{
		double r = v / secs;
		static const char *const units[] = {"/sec", "K/sec", "M/sec", "G/sec"};
		unsigned k = 0;
		while (r >= 1000 && k < 3) {
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
	/* minstret over mcycle reads as IPC on the emulator too */
	if (e->kind == HPM_EV_KMH_FIXED && e->fixed == HPM_FIXED_MINSTRET) {
		for (unsigned j = 0; j < res->list->nr; j++) {
			const struct hpm_evsel *c = &res->list->ev[j];
			if (c->kind == HPM_EV_KMH_FIXED && c->fixed == HPM_FIXED_MCYCLE &&
			    c->state == HPM_EV_OK) {
				double cy = stat_event_value(res, j, unit, NULL);
				if (cy > 0) {
					*val = v / cy;
					*unit_text = "insn per cycle";
					return true;
				}
			}
		}
	}
	return false;
}

const char *stat_emu_describe(const struct stat_emu_label *l, char *buf, size_t len)
{
	char src[300];
	if (l->trace)
		snprintf(src, sizeof(src), "trace %s", l->trace);
	else if (l->repeats > 1)
		snprintf(
		    src, sizeof(src), "profile %s, seeds %llu-%llu", l->profile ? l->profile : "?",
		    (unsigned long long)(l->seed - l->repeats + 1), (unsigned long long)l->seed);
	else
		snprintf(src, sizeof(src), "profile %s, seed %llu", l->profile ? l->profile : "?",
		         (unsigned long long)l->seed);
	snprintf(buf, len, "emulated Kunminghu: %s, %u hart%s, %llu cycles%s%s at %.6g MHz%s", src,
	         l->harts, l->harts == 1 ? "" : "s", (unsigned long long)l->cycles,
	         l->harts == 1 ? "" : " each", l->follows_command ? " (following wall time)" : "",
	         l->freq / 1e6, l->multiplexed ? ", counters multiplexed" : "");
	return buf;
}

const char *stat_emu_not_measured(const struct stat_config *cfg, char *buf, size_t len)
{
	/* the figures come from a synthetic profile or a trace, whatever runs */
	if (cfg->command)
		snprintf(buf, len, "; they do not measure '%s'", cfg->command);
	else if (cfg->target)
		snprintf(buf, len, "; they do not measure %s", cfg->target);
	else
		snprintf(buf, len, "%s", "");
	return buf;
}

void stat_print(const struct stat_config *cfg, const struct stat_result *res)
{
	switch (cfg->format) {
	case STAT_FORMAT_CSV:
		stat_print_csv(cfg, res);
		break;
	case STAT_FORMAT_JSON:
		stat_print_json(cfg, res);
		break;
	default:
		stat_print_std(cfg, res);
		break;
	}
}
