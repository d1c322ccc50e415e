/* values.c: see values.h. */
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <linux/perf_event.h>

#include "stat/values.h"
#include "util/count.h"
#include "util/provenance.h"
#include "util/xalloc.h"

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

static const struct hpm_count *counts_of(const struct stat_result *res, unsigned i)
{
	return res->delta ? res->delta[i] : res->list->ev[i].counts;
}

double stat_no_count_pct(const struct stat_result *res, unsigned i, int unit)
{
	enum hpm_evsel_state st = res->list->ev[i].state;
	const struct hpm_count *c =
	    st == HPM_EV_OK || st == HPM_EV_NOT_COUNTED ? counts_of(res, i) : NULL;
	uint64_t ena = 0, run = 0;
	for (unsigned u = 0; c && u < stat_nr_units(res, i); u++)
		if (unit < 0 || (unsigned)unit == u) {
			ena += c[u].ena;
			run += c[u].run;
		}
	return run == ena ? 100.0 : (double)(100 * run / ena);
}

const char *stat_no_count_text(const struct stat_result *res, unsigned i, int unit)
{
	const struct hpm_evsel *e = &res->list->ev[i];
	struct hpm_total t;
	switch (e->state) {
	case HPM_EV_OK:
		break;
	case HPM_EV_NOT_SUPPORTED:
		return "<not supported>";
	case HPM_EV_NOT_MODELLED:
		return "<not modelled>";
	default:
		return "<not counted>";
	}
	hpm_counts_total(counts_of(res, i), stat_nr_units(res, i), unit, &t);
	/* before "never ran": a wrapped count is the thing to know */
	if (t.wrapped)
		return STAT_WRAPPED_TEXT;
	if (!t.ran)
		return "<not counted>";
	/* -r: some earlier repeat had no number (it wrapped or never ran) */
	if (res->noise && unit < 0 && isnan(res->noise[i].mean))
		return "<not counted>";
	return NULL;
}

/* The numeric conventions of the user's locale (LC_ALL, LC_NUMERIC, LANG),
 * which perf's counts follow: perf calls setlocale(LC_ALL, "") and prints
 * them with printf's ' flag, so the C locale groups nothing, en_US groups
 * with ',' and de_DE with '.' (and a decimal ','). Read once through a
 * locale object: hpmstat never sets LC_NUMERIC, so its parsing and every
 * other number (CSV, JSON, rates, times) keep the C locale's '.'. */
struct numeric_conv {
	char thousep[16]; /* "" when the locale does not group */
	char radix[16];
	char grouping[16]; /* struct lconv's: group sizes from the right */
};

static const struct numeric_conv *user_numeric(void)
{
	static struct numeric_conv nc = {.radix = "."};
	static bool done;
	if (done)
		return &nc;
	done = true;
	/* the locale setlocale would take for LC_NUMERIC: the C locale's own
	 * names and glibc's C.UTF-8 (whose LC_NUMERIC is POSIX's) need no
	 * locale files read (locale.alias, LC_NUMERIC and gconv's cache were
	 * opened at each run for LANG=C.UTF-8) */
	const char *name = getenv("LC_ALL");
	if (!name || !*name)
		name = getenv("LC_NUMERIC");
	if (!name || !*name)
		name = getenv("LANG");
	if (!name || !*name || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0 ||
	    strcasecmp(name, "C.UTF-8") == 0 || strcasecmp(name, "C.utf8") == 0)
		return &nc;
	/* a locale that is not installed is the C locale, as for setlocale */
	locale_t loc = newlocale(LC_NUMERIC_MASK, "", (locale_t)0);
	if (!loc)
		return &nc;
	locale_t old = uselocale(loc);
	const struct lconv *lc = localeconv();
	snprintf(nc.thousep, sizeof(nc.thousep), "%s", lc->thousands_sep);
	snprintf(nc.radix, sizeof(nc.radix), "%s", *lc->decimal_point ? lc->decimal_point : ".");
	snprintf(nc.grouping, sizeof(nc.grouping), "%s", lc->grouping);
	uselocale(old);
	freelocale(loc);
	return &nc;
}

/* raw ("[-]digits[.fraction]", the C locale's text) with the locale's
 * thousands separators and decimal point, as printf's %' would write it;
 * the digits are raw's, so none is lost to a double */
static const char *big_num_text(const char *raw, char *buf, size_t len)
{
	const struct numeric_conv *nc = user_numeric();
	size_t lead = raw[0] == '-' ? 1 : 0;
	size_t nd = strspn(raw + lead, "0123456789"), n = 0;
	char sep_at[400] = {0}; /* sep_at[d]: a separator d digits from the right */
	size_t d = 0;
	for (const char *g = nc->grouping; *nc->thousep && *g > 0 && *g != CHAR_MAX;) {
		if (d + (size_t)*g >= nd || d + (size_t)*g >= sizeof(sep_at))
			break;
		d += (size_t)*g;
		sep_at[d] = 1;
		/* the last size repeats */
		if (g[1])
			g++;
	}
	if (lead && n + 1 < len)
		buf[n++] = '-';
	for (size_t i = 0; i < nd && n + 1 < len; i++) {
		if (i && sep_at[nd - i])
			n += (size_t)snprintf(buf + n, len - n, "%s", nc->thousep);
		if (n + 1 < len)
			buf[n++] = raw[lead + i];
	}
	const char *frac = raw + lead + nd;
	if (n < len)
		snprintf(buf + n, len - n, "%s%s", *frac == '.' ? nc->radix : "",
		         *frac == '.' ? frac + 1 : frac);
	return buf;
}

static const char *big_num(double v, int decimals, char *buf, size_t len)
{
	char raw[400];
	snprintf(raw, sizeof(raw), "%.*f", decimals, v);
	return big_num_text(raw, buf, len);
}

static const char *big_count(hpm_u128 v, char *buf, size_t len)
{
	char raw[HPM_COUNT_STR_MAX];
	return big_num_text(count_str(v, false, raw, sizeof(raw)), buf, len);
}

const char *stat_count_text(const struct stat_result *res, unsigned i, int unit, enum stat_format f,
                            char *buf, size_t len)
{
	const struct hpm_evsel *e = &res->list->ev[i];
	bool mean = res->noise && unit < 0;
	if (mean && res->noise[i].count_exact) {
		if (f == STAT_FORMAT_STD)
			return big_count(res->noise[i].count_mean, buf, len);
		count_str(res->noise[i].count_mean, false, buf, len);
		if (f == STAT_FORMAT_JSON)
			snprintf(buf + strlen(buf), len - strlen(buf), ".000000");
		return buf;
	}
	if (e->scale != 1.0 || mean) {
		/* a time in msec, or the mean of -r repeats: not an integer count */
		double v = mean ? res->noise[i].mean : stat_event_value(res, i, unit, NULL);
		int decimals = f == STAT_FORMAT_JSON ? 6 : e->unit[0] ? 2 : 0;
		if (f == STAT_FORMAT_STD)
			return big_num(v, decimals, buf, len);
		snprintf(buf, len, "%.*f", decimals, v);
		return buf;
	}
	struct hpm_total t;
	hpm_counts_total(counts_of(res, i), stat_nr_units(res, i), unit, &t);
	if (f == STAT_FORMAT_STD)
		return big_count(t.count, buf, len);
	count_str(t.count, false, buf, len);
	/* perf -j writes counter-value as "%f" of the count */
	if (f == STAT_FORMAT_JSON)
		snprintf(buf + strlen(buf), len - strlen(buf), ".000000");
	return buf;
}

bool stat_row_is_clock(const struct hpm_evsel *e)
{
	return e->kind == HPM_EV_HOST && e->attr_type == PERF_TYPE_SOFTWARE &&
	       (e->attr_config == PERF_COUNT_SW_TASK_CLOCK ||
	        e->attr_config == PERF_COUNT_SW_CPU_CLOCK);
}

void stat_shadow_index_build(const struct stat_result *res, struct stat_shadow_index *ix)
{
	const struct hpm_evlist *l = res->list;
	memset(ix, 0, sizeof(*ix));
	ix->cycles = ix->branches = -1;
	for (unsigned i = 0; i < l->nr; i++) {
		const struct hpm_evsel *e = &l->ev[i];
		bool ok = e->state == HPM_EV_OK;
		if (e->cgroup)
			ix->any_cgroup = true;
		if (ok && ix->cycles < 0 && strcmp(e->name, "cycles") == 0)
			ix->cycles = (int)i;
		if (ok && ix->branches < 0 && strcmp(e->name, "branches") == 0)
			ix->branches = (int)i;
		if (stat_row_is_clock(e)) {
			if (!ix->clocks)
				ix->clocks = xcalloc(l->nr, sizeof(*ix->clocks));
			ix->clocks[ix->nr_clocks++] = i;
		}
		if (ok && e->kind == HPM_EV_MODEL_FIXED && hpm_model_fixed_is(&e->enc, "cycles")) {
			if (!ix->fixed_cycles)
				ix->fixed_cycles = xcalloc(l->nr, sizeof(*ix->fixed_cycles));
			ix->fixed_cycles[ix->nr_fixed_cycles++] = i;
		}
	}
}

void stat_shadow_index_free(struct stat_shadow_index *ix)
{
	free(ix->clocks);
	free(ix->fixed_cycles);
	memset(ix, 0, sizeof(*ix));
}

const struct stat_shadow_index *stat_shadow_index_of(const struct stat_result *res,
                                                     struct stat_shadow_index *tmp)
{
	if (res->shadow)
		return res->shadow;
	stat_shadow_index_build(res, tmp);
	return tmp;
}

const char *stat_cgroup_field(const struct stat_result *res, unsigned i)
{
	struct stat_shadow_index tmp;
	const struct stat_shadow_index *ix = stat_shadow_index_of(res, &tmp);
	bool any = ix->any_cgroup;
	if (ix == &tmp)
		stat_shadow_index_free(&tmp);
	if (!any)
		return NULL;
	return res->list->ev[i].cgroup ? res->list->ev[i].cgroup : "";
}

hpm_u128 stat_run_ns(const struct stat_config *cfg, const struct stat_result *res, unsigned i,
                     int unit)
{
	const struct hpm_evsel *e = &res->list->ev[i];
	const struct hpm_count *c = counts_of(res, i);
	hpm_u128 run = 0;
	for (unsigned u = 0; c && u < stat_nr_units(res, i); u++)
		if (unit < 0 || (unsigned)unit == u)
			run += c[u].run;
	/* -r: perf prints the mean time running beside the mean count */
	if (res->noise && unit < 0)
		run = (hpm_u128)llround(res->noise[i].run_mean);
	if (e->emulated && cfg->emu.run.freq > 0) {
		/* cycles x 1e9 / Hz in integers when the clock is whole Hz */
		double hz = cfg->emu.run.freq;
		if (hz == (double)(uint64_t)hz && run <= UINT64_MAX)
			run = count_muldiv((uint64_t)run, UINT64_C(1000000000), (uint64_t)hz);
		else
			run = (hpm_u128)((double)run * 1e9 / hz);
	}
	return run;
}

int stat_text_width(const char *text, int cols)
{
	int extra = 0;
	/* UTF-8 continuation bytes take no column */
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		extra += (*p & 0xC0) == 0x80;
	return cols + extra;
}

const char *stat_fixed2(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.2f", v);
	/* a value that rounds to zero is 0.00, whatever its sign */
	if (strcmp(buf, "-0.00") == 0)
		snprintf(buf, len, "0.00");
	return buf;
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

const char *stat_emu_describe(const struct stat_emu_label *l, char *buf, size_t len)
{
	return emu_provenance_text(&l->run, EMU_PROVENANCE_RUN, buf, len);
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

void stat_metrics_free(struct stat_metric *m, unsigned n)
{
	for (unsigned k = 0; m && k < n; k++)
		free(m[k].display);
	free(m);
}

/* the row the Topdown formulas divide by: the model's "cycles" */
static int cycles_row(const struct stat_result *res)
{
	for (unsigned i = 0; res->list && i < res->list->nr; i++) {
		const struct hpm_evsel *e = &res->list->ev[i];
		if (e->state == HPM_EV_OK && e->name && !strcasecmp(e->name, "cycles"))
			return (int)i;
	}
	return -1;
}

static bool row_unit_idle(const struct stat_result *res, int i, unsigned u)
{
	if (i < 0 || u >= stat_nr_units(res, (unsigned)i))
		return false;
	const struct hpm_count *c = counts_of(res, (unsigned)i);
	/* it ran (a counter multiplexed out never did: not counted, not idle)
	 * and counted nothing */
	return c && c[u].run > 0 && c[u].val == 0 && !c[u].wrapped;
}

unsigned stat_idle_units(const struct stat_result *res, const char **names, unsigned max, int *row)
{
	int i = cycles_row(res);
	unsigned n = 0;
	if (row)
		*row = i;
	/* one unit is the whole machine: nothing to leave out */
	if (i < 0 || stat_nr_units(res, (unsigned)i) < 2)
		return 0;
	for (unsigned u = 0; u < stat_nr_units(res, (unsigned)i); u++) {
		if (!row_unit_idle(res, i, u))
			continue;
		if (names && n < max)
			names[n] = stat_unit_name(res, (unsigned)i, u);
		n++;
	}
	return n;
}

bool stat_unit_idle(const struct stat_result *res, unsigned u)
{
	int i = cycles_row(res);
	return i >= 0 && stat_nr_units(res, (unsigned)i) > 1 && row_unit_idle(res, i, u);
}

const char *stat_idle_note(const struct stat_result *res, char *buf, size_t len)
{
	enum { SHOWN = 16 };
	const char *names[SHOWN];
	int row;
	unsigned n = stat_idle_units(res, names, SHOWN, &row);
	size_t off = 0;
	buf[0] = '\0';
	for (unsigned k = 0; k < n && k < SHOWN && off < len; k++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", k ? ", " : "", names[k]);
	if (n > SHOWN && off < len)
		off += (size_t)snprintf(buf + off, len - off, " and %u more", n - SHOWN);
	if (n && off < len)
		snprintf(buf + off, len - off, " idle (no cycles counted%s)",
		         res->list->ev[row].emulated ? ": in wfi, the clock gated" : "");
	return buf;
}
