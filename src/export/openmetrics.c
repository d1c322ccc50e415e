/* openmetrics.c: the exposition of hpmstat's counts (openmetrics.h).
 *
 * The families, in the order they are written:
 *   hpm_build_info                    info: version, back end, model, profile, seed
 *   hpm_events_total                  counter: raw counts per event and CPU (hart)
 *   hpm_event_seconds_total           counter: the time events (cpu-clock, task-clock,
 *                                     duration_time ...) in seconds, per event and CPU
 *   hpm_event_enabled_seconds_total   counter: time enabled, per event and CPU
 *   hpm_event_running_seconds_total   counter: time on a counter, per event and CPU
 *   hpm_topdown_ratio                 gauge: Topdown node shares 0..1, last interval
 *   hpm_ipc                           gauge: instructions per cycle, last interval
 *   hpm_metric                        gauge: the other -M metrics, unscaled
 *   hpm_multiplexed                   gauge: 1 when an event ran part of the interval
 *   hpm_intervals_total               counter: intervals completed
 *   hpm_interval_seconds              gauge: the configured interval
 *   hpm_start_time_seconds            gauge: Unix time counting started
 *   hpm_last_update_timestamp_seconds gauge: Unix time of these values
 * Counts are raw (not scaled for multiplexing) so that a counter only ever
 * grows; enabled and running time let a reader scale them, as perf does
 * (count * enabled / running). Time is in seconds, Prometheus's base unit,
 * in families named _seconds. The two formats differ only in the
 * metadata of counters and info (OpenMetrics names the family without
 * _total and _info and has an info type and UNIT lines) and in "# EOF".
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "export/openmetrics.h"
#include "registry/models.h"
#include "stat/values.h"
#include "util/outfile.h"

int hpm_expo_format_parse(const char *name, enum hpm_expo_format *out)
{
	if (strcmp(name, "openmetrics") == 0)
		*out = HPM_EXPO_OPENMETRICS;
	else if (strcmp(name, "prometheus") == 0)
		*out = HPM_EXPO_PROMETHEUS;
	else
		return -1;
	return 0;
}

enum fam_type { FAM_COUNTER, FAM_GAUGE, FAM_INFO };

/* A family's metadata. base: its name without _total or _info (the
 * OpenMetrics family name); unit: the UNIT line's, already the name's
 * suffix, or NULL. */
static void family(FILE *o, enum hpm_expo_format f, const char *base, enum fam_type t,
                   const char *unit, const char *help)
{
	bool om = f == HPM_EXPO_OPENMETRICS;
	const char *suffix = "", *type = t == FAM_COUNTER ? "counter" : "gauge";
	if (t == FAM_INFO)
		type = om ? "info" : "gauge";
	if (!om)
		suffix = t == FAM_COUNTER ? "_total" : t == FAM_INFO ? "_info" : "";
	/* HELP first, as Prometheus's own clients write them; the help texts
	 * here hold no backslash, quote or newline to escape */
	fprintf(o, "# HELP %s%s %s\n", base, suffix, help);
	fprintf(o, "# TYPE %s%s %s\n", base, suffix, type);
	if (om && unit)
		fprintf(o, "# UNIT %s %s\n", base, unit);
}

/* A label value, escaped as both formats escape it: \\, \" and \n. */
static void label_value(FILE *o, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', o), fputc(*v, o);
		else if (*v == '\n')
			fputs("\\n", o);
		else
			fputc(*v, o);
	}
}

/* `name{k="v",...} ` from pairs of keys and values (NULL ends them). */
static void sample_start(FILE *o, const char *name, const char *const *kv)
{
	fputs(name, o);
	if (kv[0]) {
		fputc('{', o);
		for (unsigned i = 0; kv[i]; i += 2) {
			fprintf(o, "%s%s=\"", i ? "," : "", kv[i]);
			label_value(o, kv[i + 1]);
			fputc('"', o);
		}
		fputc('}', o);
	}
	fputc(' ', o);
}

/* A float as both formats spell one: NaN, +Inf, -Inf or digits. */
static void value(FILE *o, double v)
{
	if (isnan(v))
		fputs("NaN\n", o);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf\n" : "-Inf\n", o);
	else
		fprintf(o, "%.10g\n", v);
}

/* The cpu label of a unit: "CPU3" and "hart3" are "3" (the emulated label
 * tells harts from CPUs); any other name is itself. */
static const char *cpu_label(const char *unit)
{
	if (!unit)
		return "";
	size_t p = strcspn(unit, "0123456789");
	if (p && unit[p] && strspn(unit + p, "0123456789") == strlen(unit + p))
		return unit + p;
	return unit;
}

/* The pmu label of a row: the model's name for its events, perf's PMU for
 * a host event (its generic types: cpu, software, tracepoint), "tool" for
 * perf's tool events. */
static const char *pmu_label(const struct hpm_session *s, const struct hpm_evsel *e)
{
	switch (e->kind) {
	case HPM_EV_MODEL:
	case HPM_EV_MODEL_FIXED:
		return s->model ? s->model->name : "model";
	case HPM_EV_TOOL:
		return "tool";
	case HPM_EV_HOST:
		break;
	}
	switch (e->attr_type) {
	case 0: /* PERF_TYPE_HARDWARE */
	case 3: /* PERF_TYPE_HW_CACHE */
	case 4: /* PERF_TYPE_RAW */
		return "cpu";
	case 1:
		return "software";
	case 2:
		return "tracepoint";
	default:
		return "host";
	}
}

/* Rows with numbers to export: counted, not wrapped, and not a repeat of
 * an earlier row's name on the same PMU (two series of one label set
 * would make the scrape fail). */
static bool row_exported(const struct hpm_session *s, unsigned i)
{
	const struct hpm_evsel *e = &s->all.ev[i];
	if (!e->counts || (e->state != HPM_EV_OK && e->state != HPM_EV_NOT_COUNTED))
		return false;
	for (unsigned j = 0; j < i; j++) {
		const struct hpm_evsel *d = &s->all.ev[j];
		if (strcmp(d->name, e->name) == 0 && d->emulated == e->emulated &&
		    strcmp(pmu_label(s, d), pmu_label(s, e)) == 0)
			return false;
	}
	return true;
}

static const char *backend_label(const struct hpm_session *s)
{
	bool emu = hpm_session_uses_emu(s), perf = hpm_session_uses_perf(s);
	return emu && perf ? "perf+emu" : emu ? "emu" : perf ? "perf" : "tool";
}

static void info_family(FILE *o, enum hpm_expo_format f, const struct hpm_session *s,
                        const struct hpm_expo_info *info)
{
	char seed[32] = "";
	const char *profile = "";
	if (hpm_session_uses_emu(s)) {
		profile = hpm_session_emu_profile(s);
		if (s->emu_cfg.trace)
			profile = s->emu_cfg.trace;
		snprintf(seed, sizeof(seed), "%" PRIu64, (uint64_t)s->emu_cfg.seed);
	}
	/* the model is named when its events are counted, not for a
	 * session of host events alone */
	bool model_rows = false;
	for (unsigned i = 0; i < s->all.nr; i++)
		model_rows |= hpm_evsel_is_model(&s->all.ev[i]);
	/* the convention's name for what a program is (Prometheus's
	 * prometheus_build_info, node_exporter's node_exporter_build_info) */
	family(o, f, "hpm_build", FAM_INFO, NULL,
	       "hpmstat's version, back end (perf, emu or perf+emu), the PMU model whose events "
	       "are counted and its event table, and the emulator's profile and seed (empty when "
	       "unused).");
	/* table: which of a core's tables the counts mean (Kunminghu's
	 * kunminghu-v2 or kunminghu-v3, which detection cannot tell apart) */
	const char *kv[] = {"version", info->version ? info->version : "",
	                    "backend", backend_label(s),
	                    "model",   s->model && model_rows ? s->model->name : "",
	                    "table",   s->model && model_rows ? hpm_model_table_name(s->model) : "",
	                    "profile", profile ? profile : "",
	                    "seed",    seed,
	                    NULL};
	sample_start(o, "hpm_build_info", kv);
	fputs("1\n", o);
}

/* One per-event counter family: what(e, u) for every exported row and unit. */
enum ev_field { EV_COUNT, EV_SECONDS, EV_ENABLED, EV_RUNNING };

/* A row whose count is a time in nanoseconds: perf's two clocks (shown in
 * msec) and its tool events (duration_time, user_time, system_time). */
static bool time_row(const struct hpm_evsel *e)
{
	return e->kind == HPM_EV_TOOL || strcmp(e->unit, "msec") == 0;
}

/* Whether row i belongs in family fld: the time rows in seconds, the
 * others as counts; every row has enabled and running times. */
static bool row_in_family(const struct hpm_session *s, unsigned i, enum ev_field fld)
{
	if (!row_exported(s, i))
		return false;
	if (fld == EV_COUNT || fld == EV_SECONDS)
		return time_row(&s->all.ev[i]) == (fld == EV_SECONDS);
	return true;
}

/* nanoseconds as seconds, every digit kept */
static void ns_as_seconds(FILE *o, uint64_t t)
{
	fprintf(o, "%" PRIu64 ".%09" PRIu64 "\n", t / 1000000000u, t % 1000000000u);
}

static void event_family(FILE *o, enum hpm_expo_format f, const struct hpm_session *s,
                         const struct stat_result *res, enum ev_field fld)
{
	static const char *const base[] = {"hpm_events", "hpm_event_seconds",
	                                   "hpm_event_enabled_seconds",
	                                   "hpm_event_running_seconds"};
	static const char *const help[] = {
	    "Raw event counts since counting started, per event and CPU (hart when "
	    "emulated=\"true\"); not scaled for multiplexing: scale by enabled / running time.",
	    "The time events (cpu-clock, task-clock, duration_time, user_time, system_time) "
	    "since counting started, in seconds, per event and CPU; not scaled for "
	    "multiplexing.",
	    "Time each event was enabled since counting started (emulated events: their "
	    "cycles at the emulated clock).",
	    "Time each event was on a counter since counting started; less than enabled "
	    "when events were multiplexed."};
	char name[64];
	snprintf(name, sizeof(name), "%s_total", base[fld]);
	double freq = (double)hpm_session_emu_freq(s);
	bool any = false;
	for (unsigned i = 0; i < s->all.nr; i++)
		any |= row_in_family(s, i, fld);
	/* the counts' family always, the seconds' where there are time rows */
	if (fld == EV_SECONDS && !any)
		return;
	family(o, f, base[fld], FAM_COUNTER, fld == EV_COUNT ? NULL : "seconds", help[fld]);
	for (unsigned i = 0; i < s->all.nr; i++) {
		if (!row_in_family(s, i, fld))
			continue;
		const struct hpm_evsel *e = &s->all.ev[i];
		unsigned nu = stat_nr_units(res, i);
		if (fld != EV_COUNT && e->emulated && freq <= 0)
			continue;
		for (unsigned u = 0; u < nu; u++) {
			const struct hpm_count *c = &e->counts[u];
			if (c->wrapped)
				continue;
			const char *kv[] = {"event",    e->name,
			                    "pmu",      pmu_label(s, e),
			                    "cpu",      cpu_label(stat_unit_name(res, i, u)),
			                    "emulated", e->emulated ? "true" : "false",
			                    NULL};
			sample_start(o, name, kv);
			if (fld == EV_COUNT) {
				fprintf(o, "%" PRIu64 "\n", c->val);
				continue;
			}
			if (fld == EV_SECONDS) {
				ns_as_seconds(o, c->val);
				continue;
			}
			uint64_t t = fld == EV_ENABLED ? c->ena : c->run;
			if (e->emulated)
				value(o, (double)t / freq);
			else
				ns_as_seconds(o, t);
		}
	}
}

/* The metric rows of all units ("all") and of each unit. */
struct unit_metrics {
	unsigned nr_units;
	char *const *names;
	struct stat_metric **m; /* [nr_units] */
	unsigned nr;            /* rows of each */
};

static void unit_metrics_get(struct hpm_session *s, const struct stat_result *res,
                             struct unit_metrics *um)
{
	*um = (struct unit_metrics){0};
	if (!res->nr_metrics)
		return;
	um->nr_units = hpm_session_metric_units(s, &um->names);
	um->m = calloc(um->nr_units ? um->nr_units : 1, sizeof(*um->m));
	if (!um->m) {
		um->nr_units = 0;
		return;
	}
	for (unsigned u = 0; u < um->nr_units; u++)
		um->nr = hpm_session_metrics_unit(s, res->delta, (int)u, &um->m[u]);
}

static void unit_metrics_put(struct unit_metrics *um)
{
	for (unsigned u = 0; u < um->nr_units; u++)
		stat_metrics_free(um->m[u], um->nr);
	free(um->m);
}

/* The Topdown node's label: its metric name without toplev's "tma_". */
static const char *node_label(const char *name)
{
	return strncmp(name, "tma_", 4) == 0 ? name + 4 : name;
}

static void one_metric(FILE *o, const char *family_name, const struct stat_metric *m,
                       const char *cpu)
{
	char level[12];
	snprintf(level, sizeof(level), "%u", m->level);
	if (isnan(m->raw))
		return;
	if (strcmp(family_name, "hpm_topdown_ratio") == 0) {
		const char *kv[] = {"node", node_label(m->name), "level", level, "cpu", cpu, NULL};
		sample_start(o, family_name, kv);
	} else if (strcmp(family_name, "hpm_ipc") == 0) {
		const char *kv[] = {"cpu", cpu, NULL};
		sample_start(o, family_name, kv);
	} else {
		const char *kv[] = {"metric", m->name, "cpu", cpu, NULL};
		sample_start(o, family_name, kv);
	}
	value(o, m->raw);
}

enum metric_kind { MK_TOPDOWN, MK_IPC, MK_OTHER };

static enum metric_kind metric_kind(const struct stat_metric *m)
{
	if (m->level)
		return MK_TOPDOWN;
	return strcmp(m->name, "ipc") == 0 ? MK_IPC : MK_OTHER;
}

/* Every metric of kind k, all units first, then each unit. */
static unsigned metrics_of(FILE *o, const char *fam, enum metric_kind k,
                           const struct stat_result *res, const struct unit_metrics *um)
{
	unsigned n = 0;
	for (unsigned j = 0; j < res->nr_metrics; j++)
		if (metric_kind(&res->metrics[j]) == k)
			one_metric(o, fam, &res->metrics[j], "all"), n++;
	for (unsigned u = 0; u < um->nr_units; u++)
		for (unsigned j = 0; j < um->nr; j++)
			if (metric_kind(&um->m[u][j]) == k)
				one_metric(o, fam, &um->m[u][j], cpu_label(um->names[u])), n++;
	return n;
}

static bool has_metric(const struct stat_result *res, enum metric_kind k)
{
	for (unsigned j = 0; j < res->nr_metrics; j++)
		if (metric_kind(&res->metrics[j]) == k)
			return true;
	return false;
}

/* The first exported row named one of names, -1 when none. */
static int find_row(const struct hpm_session *s, const char *const *names)
{
	for (unsigned i = 0; i < s->all.nr; i++)
		for (const char *const *n = names; *n; n++)
			if (strcmp(s->all.ev[i].name, *n) == 0 && s->all.ev[i].state == HPM_EV_OK &&
			    row_exported(s, i))
				return (int)i;
	return -1;
}

/* IPC without an ipc metric: instructions over cycles of the interval,
 * perf's "insn per cycle", from the rows of those names. */
static void ipc_from_rows(FILE *o, const struct hpm_session *s, const struct stat_result *res)
{
	static const char *const insn[] = {"instructions", "minstret", "instret", NULL};
	static const char *const cyc[] = {"cycles", "cpu-cycles", "mcycle", NULL};
	int ri = find_row(s, insn), rc = find_row(s, cyc);
	if (ri < 0 || rc < 0)
		return;
	unsigned nu = stat_nr_units(res, (unsigned)ri);
	if (nu != stat_nr_units(res, (unsigned)rc))
		return;
	for (int u = -1; u < (int)nu; u++) {
		double i = stat_event_value(res, (unsigned)ri, u, NULL);
		double c = stat_event_value(res, (unsigned)rc, u, NULL);
		if (isnan(i) || isnan(c) || c <= 0)
			continue;
		const char *kv[] = {
		    "cpu",
		    u < 0 ? "all" : cpu_label(stat_unit_name(res, (unsigned)ri, (unsigned)u)),
		    NULL};
		sample_start(o, "hpm_ipc", kv);
		value(o, i / c);
	}
}

/* 1 when some counted row ran less than it was enabled over res's counts
 * (the interval's delta, or the whole run's): its count is an estimate. */
static bool multiplexed(const struct hpm_session *s, const struct stat_result *res)
{
	for (unsigned i = 0; i < s->all.nr; i++) {
		if (!row_exported(s, i))
			continue;
		const struct hpm_count *c = res->delta ? res->delta[i] : s->all.ev[i].counts;
		for (unsigned u = 0; c && u < stat_nr_units(res, i); u++)
			if (c[u].run && c[u].run < c[u].ena)
				return true;
	}
	return false;
}

static void run_families(FILE *o, enum hpm_expo_format f, const struct hpm_expo_info *info)
{
	const char *none[] = {NULL};
	family(o, f, "hpm_intervals", FAM_COUNTER, NULL,
	       "Intervals counted and exported since counting started.");
	sample_start(o, "hpm_intervals_total", none);
	fprintf(o, "%" PRIu64 "\n", info->intervals);
	family(o, f, "hpm_interval_seconds", FAM_GAUGE, "seconds",
	       "The configured length of one counting interval (0: one measurement).");
	sample_start(o, "hpm_interval_seconds", none);
	value(o, info->interval_s);
	if (info->start_time > 0) {
		family(o, f, "hpm_start_time_seconds", FAM_GAUGE, "seconds",
		       "Unix time at which counting started.");
		sample_start(o, "hpm_start_time_seconds", none);
		fprintf(o, "%.3f\n", info->start_time);
	}
	if (info->last_update > 0) {
		family(o, f, "hpm_last_update_timestamp_seconds", FAM_GAUGE, "seconds",
		       "Unix time at which these values were read.");
		sample_start(o, "hpm_last_update_timestamp_seconds", none);
		fprintf(o, "%.3f\n", info->last_update);
	}
}

int hpm_expo_render(FILE *o, enum hpm_expo_format f, struct hpm_session *s,
                    const struct stat_result *res, const struct hpm_expo_info *info)
{
	info_family(o, f, s, info);
	if (res) {
		event_family(o, f, s, res, EV_COUNT);
		event_family(o, f, s, res, EV_SECONDS);
		event_family(o, f, s, res, EV_ENABLED);
		event_family(o, f, s, res, EV_RUNNING);
		struct unit_metrics um;
		unit_metrics_get(s, res, &um);
		if (has_metric(res, MK_TOPDOWN)) {
			family(o, f, "hpm_topdown_ratio", FAM_GAUGE, "ratio",
			       "Topdown node shares (0..1 of the level's slots or cycles) over the "
			       "last interval, per CPU (hart) and for all (cpu=\"all\").");
			metrics_of(o, "hpm_topdown_ratio", MK_TOPDOWN, res, &um);
		}
		family(o, f, "hpm_ipc", FAM_GAUGE, NULL,
		       "Instructions retired per cycle over the last interval.");
		if (has_metric(res, MK_IPC))
			metrics_of(o, "hpm_ipc", MK_IPC, res, &um);
		else
			ipc_from_rows(o, s, res);
		if (has_metric(res, MK_OTHER)) {
			family(o, f, "hpm_metric", FAM_GAUGE, NULL,
			       "Other -M metrics over the last interval, unscaled (a share is "
			       "0..1).");
			metrics_of(o, "hpm_metric", MK_OTHER, res, &um);
		}
		unit_metrics_put(&um);
		family(o, f, "hpm_multiplexed", FAM_GAUGE, NULL,
		       "1 when an event ran on a counter for only part of the last interval "
		       "(its count is scaled, perf's multiplexing), else 0.");
		const char *none[] = {NULL};
		sample_start(o, "hpm_multiplexed", none);
		fputs(multiplexed(s, res) ? "1\n" : "0\n", o);
	}
	run_families(o, f, info);
	if (f == HPM_EXPO_OPENMETRICS)
		fputs("# EOF\n", o);
	return ferror(o) ? -EIO : 0;
}

char *hpm_expo_render_string(enum hpm_expo_format f, struct hpm_session *s,
                             const struct stat_result *res, const struct hpm_expo_info *info,
                             size_t *len)
{
	char *buf = NULL;
	FILE *o = open_memstream(&buf, len);
	if (!o)
		return NULL;
	int err = hpm_expo_render(o, f, s, res, info);
	if (fclose(o) || err) {
		free(buf);
		return NULL;
	}
	return buf;
}

int hpm_expo_write_file(const char *path, enum hpm_expo_format f, struct hpm_session *s,
                        const struct stat_result *res, const struct hpm_expo_info *info)
{
	struct outfile *of;
	int err = outfile_open(path, &of);
	if (err)
		return err;
	err = hpm_expo_render(outfile_stream(of), f, s, res, info);
	return outfile_finish(of, err);
}

int hpm_expo_check_path(const char *path)
{
	struct outfile *of;
	int err = outfile_open(path, &of);
	if (err)
		return err;
	outfile_abort(of);
	return 0;
}
