/* cmd-list.c: hpmstat list: every name stat -e and -M take, as perf list.
 *
 * Owns: the listing of perf's generic hardware, software and cache names
 * (with what the emulator counts for them), perf's tool events, the host's
 * sysfs PMU events (PMU/EVENT/), the Kunminghu events and aliases
 * by bank, mcycle and minstret, libpfm4's names, and the metrics and metric
 * groups; perf list's filters (category words, globs), its --desc,
 * --long-desc, --details and --raw-dump, and hpmstat's --json and --bank.
 * Every name is taken from the table its parser reads, so a listed name is
 * a name stat accepts (tests/cli/list-names.sh checks that).
 */
#include <fnmatch.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "backend/host-events.h"
#include "backend/host-pmu.h"
#include "builtin/builtin.h"
#include "builtin/cli-opts.h"
#include "builtin/fields.h"
#include "metric/metric.h"
#include "registry/models.h"
#include "stat/session.h"
#include "util/pager.h"
#include "util/xalloc.h"

static const char list_usage_head[] =
    "Usage: hpmstat list [options] [hw|sw|cache|pmu|pfm|metric|metricgroup|GLOB]...\n"
    "\n"
    "List every event name 'hpmstat stat -e' takes and every metric and metric\n"
    "group '-M' takes, with descriptions: perf's generic hardware, software and\n"
    "cache events (and what the emulator counts for them), perf's tool events\n"
    "(duration_time, user_time, system_time), the host's sysfs PMU events\n"
    "(PMU/EVENT/, as perf's Kernel PMU events), the Kunminghu events and\n"
    "aliases by bank, mcycle and minstret, libpfm4's names, the metrics and\n"
    "the metric groups. Words pick categories, as in perf list: hw (hardware),\n"
    "sw (software, with the tool events), tool, cache (hwcache), pmu (sysfs PMU\n"
    "events and Kunminghu), pfm (libpfm4), metric (metrics), metricgroup\n"
    "(metricgroups); tracepoint and sdt list nothing here. Any other word is a\n"
    "GLOB (fnmatch, case-insensitive) matched anywhere in a name, as perf wraps\n"
    "it in '*...*'. Several words add up. On a terminal\n"
    "the list goes through $HPMSTAT_PAGER, $PAGER or less, as perf's does.\n"
    "\n";

static const char list_usage_tail[] =
    "\n"
    "Examples:\n"
    "  hpmstat list 'ifu_*' 'tma_*'       Kunminghu fetch events and Topdown metrics\n"
    "  hpmstat list metricgroup           the metric groups -M takes\n"
    "  hpmstat list --raw-dump pmu        every Kunminghu name, for scripts\n"
    "  hpmstat list --pmu neoverse-v2     the Arm Neoverse V2 events and metrics\n";

/* Categories, as perf list's words name them. */
enum list_cat {
	CAT_HW = 1u << 0,
	CAT_SW = 1u << 1,
	CAT_CACHE = 1u << 2,
	CAT_PMU = 1u << 3, /* Kunminghu events, aliases, mcycle and minstret */
	CAT_PFM = 1u << 4,
	CAT_METRIC = 1u << 5,
	CAT_METRICGROUP = 1u << 6,
	CAT_NONE_HERE = 1u << 7, /* tracepoint, sdt: nothing to list */
	CAT_TOOL = 1u << 8,      /* duration_time, user_time, system_time */
};

static const struct {
	const char *word;
	unsigned cat;
} list_words[] = {
    {"hw", CAT_HW},
    {"hardware", CAT_HW},
    /* perf list sw shows the tool events under the software ones */
    {"sw", CAT_SW | CAT_TOOL},
    {"software", CAT_SW | CAT_TOOL},
    {"tool", CAT_TOOL},
    {"cache", CAT_CACHE},
    {"hwcache", CAT_CACHE},
    {"pmu", CAT_PMU},
    {"pfm", CAT_PFM},
    {"libpfm4", CAT_PFM},
    {"metric", CAT_METRIC},
    {"metrics", CAT_METRIC},
    {"metricgroup", CAT_METRICGROUP},
    {"metricgroups", CAT_METRICGROUP},
    {"tracepoint", CAT_NONE_HERE},
    {"sdt", CAT_NONE_HERE},
};

struct list_opts {
	bool json, desc, long_desc, details, raw_dump, no_pager;
	int bank;                          /* --bank: a class of the model's counters; -1 all */
	const char *bank_name;             /* --bank as given, resolved after --pmu */
	const struct hpm_pmu_model *model; /* --pmu: only this model; NULL the default set */
	unsigned cats;                     /* words given; 0 with no globs: everything */
	char **globs;                      /* "*GLOB*", as perf builds them */
	unsigned *glob_hits;
	unsigned nr_globs;
};

/* One listed name, whatever its kind; the text and JSON writers take it. */
struct list_row {
	unsigned cat;
	const char *kind; /* JSON "kind" */
	const char *name;
	const char *alias; /* another spelling, or NULL */
	const char *desc, *long_desc;
	const char *encoding; /* how it is counted; NULL when nothing says */
	char encbuf[128];     /* encoding's storage, when built */
	const char *section;  /* text header above the row, NULL for none */
	const char *tag;      /* text: "[Hardware event]" style, or NULL */
	char where[48];       /* text: "frontend:5", "csr:0xb00" */
	/* per kind, for JSON */
	const struct hpm_pmu_model *model; /* a model's event row (index model_row) */
	unsigned model_row;
	int constraint;       /* its class, -1 none */
	const char *emulator; /* what the emulator counts for a generic name */
	const char *pmu;      /* libpfm4's or sysfs's PMU */
	const struct metric *metric;
	const char *group;
	const struct metric_table *metrics; /* the table of metric and group rows */
	const char *hw_note;                /* --details: what the hardware counts where the name
	                                     * misleads, or NULL */
};

struct list_out {
	const struct list_opts *o;
	json_t *arr;       /* --json */
	char section[160]; /* the last header printed, "" for none */
	unsigned shown, raw;
};

/* ------------------------------------------------------------- selection */

static bool glob_hit(struct list_opts *o, const char *name)
{
	bool hit = false;
	for (unsigned i = 0; name && i < o->nr_globs; i++)
		if (fnmatch(o->globs[i], name, FNM_CASEFOLD) == 0) {
			o->glob_hits[i]++;
			hit = true;
		}
	return hit;
}

static bool list_selected(struct list_opts *o, const struct list_row *r)
{
	if (o->bank >= 0 && (!r->model || r->constraint != o->bank))
		return false;
	/* every glob sees every row, so each can say whether it matched */
	bool hit_name = glob_hit(o, r->name);
	bool hit_alias = glob_hit(o, r->alias);
	bool hit = hit_name || hit_alias;
	if (!o->cats && !o->nr_globs)
		return true;
	return hit || (o->cats & r->cat);
}

/* ---------------------------------------------------------------- text */

/* perf's wordwrap: words from column start, a new line before one that
 * would reach max. */
static void wordwrap(const char *s, unsigned start, unsigned max)
{
	unsigned col = start;
	while (*s) {
		size_t w = strcspn(s, " \t\n");
		if (col + w >= max && col > start) {
			printf("\n%*s", (int)start, "");
			col = start;
		}
		col += (unsigned)printf("%s%.*s", col > start ? " " : "", (int)w, s);
		s += w;
		s += strspn(s, " \t\n");
	}
}

static void text_row(struct list_out *out, const struct list_row *r)
{
	const struct list_opts *o = out->o;
	const char *desc = o->long_desc && r->long_desc && *r->long_desc ? r->long_desc : r->desc;
	if (r->section && strcmp(r->section, out->section) != 0) {
		printf("%s%s\n", out->shown ? "\n" : "", r->section);
		snprintf(out->section, sizeof(out->section), "%s", r->section);
	} else if (!r->section && out->section[0]) {
		putchar('\n');
		out->section[0] = '\0';
	}
	if (r->tag) {
		/* perf's symbolic rows: "  cycles OR cpu-cycles   [Hardware event]" */
		char name[96];
		snprintf(name, sizeof(name), "%s%s%s", r->name, r->alias ? " OR " : "",
		         r->alias ? r->alias : "");
		printf("  %-50s %s\n", name, r->tag);
	} else if (r->where[0]) {
		/* Kunminghu rows: name, place, short description */
		if (o->desc)
			printf("  %-40s %-16s %s\n", r->name, r->where, r->desc);
		else
			printf("  %-40s %s\n", r->name, r->where);
		if (o->desc && o->long_desc && r->long_desc && *r->long_desc) {
			printf("      ");
			wordwrap(r->long_desc, 6, pager_columns());
			putchar('\n');
		}
	} else {
		/* perf's PMU and metric rows: the name, then "[description]" */
		printf("  %s\n", r->name);
		if (o->desc && desc && *desc) {
			printf("%*s", 8, "[");
			wordwrap(desc, 8, pager_columns());
			printf("]\n");
		}
	}
	/* perf prints a metric's MetricExpr in brackets, as its description;
	 * one with variants (stat --topdown-variant) each formula, labelled */
	if (o->details && r->metric && metric_has_variants(r->metrics, r->metric))
		for (unsigned v = 0; v < r->metrics->nr_variants; v++) {
			const struct metric *vm = metric_in_variant(r->metrics, r->metric, v);
			printf("%*s[%s%s: %s]\n", 7, "", r->metrics->variants[v].name,
			       v == 0 ? " (default)" : "", metric_str(vm, vm->expr));
		}
	else if (o->details && r->encoding && r->metric)
		printf("%*s[%s]\n", 7, "", r->encoding);
	else if (o->details && r->encoding)
		printf("%*s%s%s\n", 8, "", r->model ? "EventCode " : "", r->encoding);
	if (o->details && r->hw_note)
		printf("%*snote: %s\n", 8, "", r->hw_note);
	const struct metric *src =
	    o->details && r->metric ? metric_variant_source(r->metrics, r->metric) : NULL;
	if (src)
		printf("%*snote: its value follows the formula --topdown-variant chooses for %s\n",
		       8, "", metric_str(src, src->name));
	out->shown++;
}

/* ---------------------------------------------------------------- JSON */

static json_t *json_str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* A ';'-separated MetricGroup as an array. */
static json_t *json_groups(const char *groups)
{
	json_t *a = json_array();
	for (const char *p = groups; *p;) {
		size_t n = strcspn(p, ";");
		if (n)
			json_array_append_new(a, json_stringn(p, n));
		p += n + (p[n] == ';');
	}
	return a;
}

static void json_row(struct list_out *out, const struct list_row *r)
{
	json_t *j = json_object();
	json_object_set_new(j, "name", json_string(r->name));
	json_object_set_new(j, "kind", json_string(r->kind));
	if (r->model)
		r->model->event_json(r->model, r->model_row, j, false);
	json_object_set_new(j, "description", json_string(r->desc ? r->desc : ""));
	json_object_set_new(j, "long_description",
	                    json_string(r->long_desc ? r->long_desc
	                                : r->desc    ? r->desc
	                                             : ""));
	if (r->model)
		r->model->event_json(r->model, r->model_row, j, true);
	json_object_set_new(j, "encoding", json_str_or_null(r->encoding));
	if (r->cat & (CAT_HW | CAT_SW | CAT_CACHE)) {
		json_object_set_new(j, "alias", json_str_or_null(r->alias));
		json_object_set_new(j, "emulator", json_str_or_null(r->emulator));
	}
	if (r->pmu)
		json_object_set_new(j, "pmu", json_string(r->pmu));
	if (r->metric) {
		json_object_set_new(j, "groups",
		                    json_groups(metric_str(r->metric, r->metric->groups)));
		json_object_set_new(j, "unit", json_string(metric_str(r->metric, r->metric->unit)));
	}
	if (r->metric && metric_has_variants(r->metrics, r->metric)) {
		/* each formula of stat --topdown-variant, the default first */
		json_t *a = json_array();
		for (unsigned v = 0; v < r->metrics->nr_variants; v++) {
			const struct metric *vm = metric_in_variant(r->metrics, r->metric, v);
			json_array_append_new(
			    a, json_pack("{s:s, s:b, s:s, s:s, s:s}", "name",
			                 r->metrics->variants[v].name, "default", v == 0,
			                 "description", r->metrics->variants[v].description, "expr",
			                 metric_str(vm, vm->expr), "long_description",
			                 metric_str(vm, vm->description)));
		}
		json_object_set_new(j, "variants", a);
	}
	const struct metric *src = r->metric ? metric_variant_source(r->metrics, r->metric) : NULL;
	if (src)
		json_object_set_new(j, "variant_follows", json_string(metric_str(src, src->name)));
	if (r->group) {
		json_t *m = json_array();
		const struct metric_table *t = r->metrics;
		for (unsigned i = 0; i < t->nr; i++)
			if (metric_in_group(&t->metrics[i], r->group))
				json_array_append_new(
				    m, json_string(metric_str(&t->metrics[i], t->metrics[i].name)));
		json_object_set_new(j, "metrics", m);
	}
	json_array_append_new(out->arr, j);
	out->shown++;
}

static void emit(struct list_out *out, struct list_opts *o, const struct list_row *r)
{
	if (!list_selected(o, r))
		return;
	if (o->json) {
		json_row(out, r);
	} else if (o->raw_dump) {
		printf("%s%s", out->raw++ ? " " : "", r->name);
		if (r->alias)
			printf(" %s", r->alias);
		out->shown++;
	} else {
		text_row(out, r);
	}
}

/* -------------------------------------------------------------- sources */

static void list_tools(struct list_out *out, struct list_opts *o)
{
	for (unsigned t = 0; t < HPM_NR_TOOLS; t++) {
		struct list_row r = {.cat = CAT_TOOL, .kind = "tool"};
		r.name = hpm_host_tool_name((enum hpm_tool)t);
		r.tag = "[Tool event]";
		r.desc = hpm_host_tool_desc((enum hpm_tool)t);
		/* counted by hpmstat itself, as by perf */
		snprintf(r.encbuf, sizeof(r.encbuf), "no perf_event_attr: %s",
		         hpm_host_tool_source((enum hpm_tool)t));
		r.encoding = r.encbuf;
		emit(out, o, &r);
	}
}

static void list_host(struct list_out *out, struct list_opts *o)
{
	bool tools_done = false;
	for (unsigned i = 0; i < hpm_host_nr_events(); i++) {
		const struct hpm_host_event *e = hpm_host_event_at(i);
		/* perf's order: the tool events right after the software ones */
		if (!tools_done && i && hpm_host_event_at(i - 1)->kind == HPM_HOST_SOFTWARE &&
		    e->kind != HPM_HOST_SOFTWARE) {
			list_tools(out, o);
			tools_done = true;
		}
		struct hpm_host_attr a;
		char err[256], tag[96], desc[96];
		struct list_row r = {.name = e->name, .alias = e->alias};
		const char *what = e->kind == HPM_HOST_HARDWARE   ? "Hardware event"
		                   : e->kind == HPM_HOST_SOFTWARE ? "Software event"
		                                                  : "Hardware cache event";
		r.cat = e->kind == HPM_HOST_HARDWARE   ? CAT_HW
		        : e->kind == HPM_HOST_SOFTWARE ? CAT_SW
		                                       : CAT_CACHE;
		r.kind = e->kind == HPM_HOST_HARDWARE   ? "hardware"
		         : e->kind == HPM_HOST_SOFTWARE ? "software"
		                                        : "cache";
		r.emulator = hpm_model_generic_name(hpm_model_at(0), e->name);
		if (r.emulator) {
			snprintf(tag, sizeof(tag), "[%s; emulator: %s]", what, r.emulator);
			snprintf(desc, sizeof(desc), "%s; the emulator counts %s", what,
			         r.emulator);
		} else {
			snprintf(tag, sizeof(tag), "[%s]", what);
			snprintf(desc, sizeof(desc), "%s", what);
		}
		r.tag = tag;
		r.desc = desc;
		/* the attr the parser builds for the name, so --details cannot drift */
		if (hpm_host_event_parse(e->name, &a, err, sizeof(err)) == 0) {
			snprintf(r.encbuf, sizeof(r.encbuf), "type=%" PRIu32 ",config=0x%" PRIx64,
			         a.type, a.config);
			r.encoding = r.encbuf;
		}
		emit(out, o, &r);
	}
	if (!tools_done)
		list_tools(out, o);
}

/* perf's Kernel PMU events: every events/ file of the host's sysfs PMUs
 * that stat takes as PMU/EVENT/ */
struct kpmu_ctx {
	struct list_out *out;
	struct list_opts *o;
};

static void kpmu_visit(void *ctx, const struct hpm_pmu_named_event *ev)
{
	struct kpmu_ctx *c = ctx;
	struct hpm_host_attr a;
	char err[256];
	if (!hpm_host_event_is_host(ev->spec) ||
	    hpm_host_event_parse(ev->spec, &a, err, sizeof(err)))
		return;
	struct list_row r = {.cat = CAT_PMU, .kind = "kernel-pmu", .name = ev->spec};
	r.tag = "[Kernel PMU event]";
	r.desc = "Kernel PMU event";
	r.pmu = ev->pmu;
	snprintf(r.encbuf, sizeof(r.encbuf), "%s (type=%" PRIu32 ",config=0x%" PRIx64 ")",
	         ev->terms, a.type, a.config);
	r.encoding = r.encbuf;
	emit(c->out, c->o, &r);
}

static void list_kernel_pmus(struct list_out *out, struct list_opts *o)
{
	struct kpmu_ctx c = {.out = out, .o = o};
	hpm_pmu_list_events(NULL, kpmu_visit, &c);
}

/* Another model that has the event a glob of list --pmu names (the glob
 * "*NAME*" without wildcards of its own), NULL when none does: a
 * kunminghu-v2 event asked of kunminghu-v3 says which table has it. */
static const struct hpm_pmu_model *model_with_event(const struct hpm_pmu_model *asked,
                                                    const char *glob)
{
	char name[HPM_MODEL_TEXT_MAX];
	size_t n = strlen(glob);
	if (n < 3 || n - 2 >= sizeof(name) || strpbrk(glob + 1, "*?[") != glob + n - 1)
		return NULL;
	memcpy(name, glob + 1, n - 2);
	name[n - 2] = '\0';
	return hpm_model_other_with(asked, name, NULL);
}

static void list_model(struct list_out *out, struct list_opts *o, const struct hpm_pmu_model *m)
{
	char section[64] = "", fixed_section[64];
	int class_shown = -2;
	for (unsigned i = 0; i < m->nr_events(m); i++) {
		struct hpm_model_event ev;
		m->event_at(m, i, &ev);
		if (ev.constraint != class_shown) {
			unsigned first, last;
			class_shown = ev.constraint;
			m->constraint_counters(m, ev.constraint, &first, &last);
			/* one class (every counter takes every event): one heading */
			snprintf(section, sizeof(section), "%s events (%s%u-%u):",
			         m->nr_constraints == 1 ? m->display : ev.topic,
			         m->counters.counter_prefix, first, last);
		}
		struct list_row r = {.cat = CAT_PMU, .kind = m->name, .model = m};
		r.model_row = i;
		r.constraint = ev.constraint;
		r.section = section;
		r.name = ev.name, r.desc = ev.brief, r.long_desc = ev.description;
		r.hw_note = ev.note[0] ? ev.note : NULL;
		snprintf(r.where, sizeof(r.where), "%s", ev.where);
		snprintf(r.encbuf, sizeof(r.encbuf), "%s", ev.encoding);
		r.encoding = r.encbuf;
		emit(out, o, &r);
	}
	/* the fixed counters by their own names (hpmstat-events(7)) */
	snprintf(fixed_section, sizeof(fixed_section), "%s fixed counters:", m->display);
	for (unsigned i = 0; i < m->nr_fixed; i++) {
		struct list_row r = {.cat = CAT_PMU, .kind = "fixed", .name = m->fixed[i].name};
		r.constraint = -1;
		r.section = fixed_section;
		r.desc = m->fixed[i].description;
		snprintf(r.where, sizeof(r.where), "%s", m->fixed[i].where);
		r.encoding = m->fixed[i].where;
		emit(out, o, &r);
	}
}

struct pfm_ctx {
	struct list_out *out;
	struct list_opts *o;
	char section[160];
};

static void pfm_visit(void *ctx, const struct hpm_pfm_name *n)
{
	struct pfm_ctx *c = ctx;
	struct hpm_host_attr a;
	char err[256];
	struct list_row r = {.cat = CAT_PFM, .kind = "libpfm4", .name = n->name, .desc = n->desc};
	snprintf(c->section, sizeof(c->section), "libpfm4 PMU %s (%s):", n->pmu, n->pmu_desc);
	r.section = c->section;
	r.pmu = n->pmu;
	if (hpm_host_event_parse(n->name, &a, err, sizeof(err)) == 0) {
		snprintf(r.encbuf, sizeof(r.encbuf),
		         "type=%" PRIu32 ",config=0x%" PRIx64 ",config1=0x%" PRIx64, a.type,
		         a.config, a.config1);
		r.encoding = r.encbuf;
	}
	emit(c->out, c->o, &r);
}

/* The metrics and metric groups of one model's table. */
static void list_metrics(struct list_out *out, struct list_opts *o, const struct metric_table *t)
{
	for (unsigned i = 0; i < t->nr; i++) {
		const struct metric *m = &t->metrics[i];
		struct list_row r = {
		    .cat = CAT_METRIC, .kind = "metric", .name = metric_str(m, m->name)};
		r.section = "Metrics:\n"; /* perf leaves a blank line under these */
		r.desc = metric_str(m, m->brief), r.long_desc = metric_str(m, m->description);
		r.metric = m;
		r.metrics = t;
		r.encoding = metric_str(m, m->expr);
		emit(out, o, &r);
	}
	for (unsigned g = 0; g < t->nr_groups; g++) {
		char members[1024] = "";
		size_t n = 0;
		for (unsigned i = 0; i < t->nr && n < sizeof(members); i++)
			if (metric_in_group(&t->metrics[i], t->groups[g]))
				n += (size_t)snprintf(
				    members + n, sizeof(members) - n, "%s%s", n ? " " : "metrics: ",
				    metric_str(&t->metrics[i], t->metrics[i].name));
		struct list_row r = {.cat = CAT_METRICGROUP, .kind = "metricgroup"};
		r.name = t->groups[g];
		r.section = "Metric Groups:\n";
		r.desc = members;
		r.group = t->groups[g];
		r.metrics = t;
		emit(out, o, &r);
	}
}

/* ------------------------------------------------------------- command */

/* The option getopt refused, as the user wrote it: "-z" from "-zz", or
 * "--frob". */
static int list_bad_option(void *opts, int c, char **argv, const struct option *longopts)
{
	(void)opts;
	(void)longopts;
	const char *arg = argv[optind - 1];
	bool is_long = strncmp(arg, "--", 2) == 0;
	if (c == ':') {
		if (is_long)
			return cli_usage_error("option '%s' needs a value", arg);
		return cli_usage_error("option '-%c' needs a value", optopt);
	}
	if (optopt && !is_long)
		return cli_usage_error("unknown option '-%c'", optopt);
	return cli_usage_error("unknown option '%s'", arg);
}

static int opt_no_desc(void *opts, const char *arg)
{
	(void)arg;
	((struct list_opts *)opts)->desc = false;
	return 0;
}

/* perf's words for a CPU that is not hybrid */
static int opt_cputype(void *opts, const char *arg)
{
	(void)opts;
	cli_warn("--cputype '%s': this is not a hybrid CPU; listing every event", arg);
	return 0;
}

#define LO struct list_opts
static const struct cli_opt list_options[] = {
    CLI_FLAG("json", 'j', LO, json,
             .help = "one JSON array of objects (name, kind, description, long_description, "
                     "encoding, and per kind more keys; see hpmstat-list(1))"),
    CLI_STRING("bank", 'b', LO, bank_name, .argh = "BANK",
               .help = "only the Kunminghu events of BANK: frontend, backend, memblock or cache"),
    CLI_MODEL("pmu", 0, LO, model, .argh = "MODEL",
              .help =
                  "only the events, fixed counters and metrics of MODEL (kunminghu, kunminghu-v3, "
                  "neoverse-n1, neoverse-n2, neoverse-n2-r0p0, neoverse-v1, neoverse-v2); without "
                  "it the Arm cores and kunminghu-v3 are not listed but for an Arm host's own"),
    CLI_FLAG("desc", 'd', LO, desc, .help = "short descriptions (the default)"),
    CLI_CALL("no-desc", 0, no_argument, opt_no_desc, .help = "names only, without descriptions"),
    CLI_FLAG("long-desc", 'v', LO, long_desc, .help = "long descriptions (also -l, --long)"),
    CLI_FLAG("long", 'l', LO, long_desc),
    CLI_FLAG("details", 0, LO, details,
             .help = "how each name is counted: mhpmevent value, perf attr, CSR or MetricExpr"),
    CLI_FLAG("raw-dump", 0, LO, raw_dump, .help = "the names only, separated by spaces, as perf's"),
    CLI_FLAG("no-pager", 0, LO, no_pager, .help = "never start a pager"),
    CLI_IGNORE("deprecated", 0, no_argument,
               .help = "accepted, as perf's: no name here is deprecated"),
    CLI_CALL("cputype", 0, required_argument, opt_cputype, .argh = "TYPE",
             .help = "accepted, as perf's: no hybrid CPU here"),
    CLI_IGNORE("debug", 0, no_argument, .help = "accepted, as perf's: no debug output"),
    CLI_HELP("help", 'h', .help = "this text"),
    {0},
};
#undef LO

static const struct cli_opts list_spec = {
    .table = list_options, .prefix = ":", .bad_option = list_bad_option};

void cmd_list_usage(FILE *out)
{
	cli_opts_usage(out, &list_spec, list_usage_head, list_usage_tail);
}

static int parse_opts(int argc, char **argv, struct list_opts *o)
{
	int rc = cli_opts_parse(&list_spec, argc, argv, o);
	if (rc)
		return rc;
	if (o->json && o->raw_dump)
		return cli_usage_error("--json and --raw-dump exclude each other");
	/* --bank names a class of --pmu's model, wherever the two stand */
	if (o->bank_name && (o->bank = fields_class_by_name(o->model ? o->model : fields_model(),
	                                                    o->bank_name)) < 0)
		return EXIT_FAILURE;
	o->globs = xcalloc((size_t)(argc - optind) + 1, sizeof(*o->globs));
	o->glob_hits = xcalloc((size_t)(argc - optind) + 1, sizeof(*o->glob_hits));
	for (int i = optind; i < argc; i++) {
		unsigned cat = 0;
		for (unsigned w = 0; w < sizeof(list_words) / sizeof(list_words[0]); w++)
			if (strcmp(argv[i], list_words[w].word) == 0)
				cat = list_words[w].cat;
		if (cat == CAT_NONE_HERE)
			cli_warn("'%s': hpmstat counts no %s events (see perf list %s)", argv[i],
			         argv[i], argv[i]);
		if (cat == CAT_PFM && !hpm_host_have_pfm())
			cli_warn("'%s': libpfm4 is not built in, or knows no PMU of this host",
			         argv[i]);
		if (cat)
			o->cats |= cat;
		else if (!*argv[i])
			return cli_usage_error("empty GLOB");
		else
			o->globs[o->nr_globs++] = xasprintf("*%s*", argv[i]);
	}
	return 0;
}

static void list_opts_free(struct list_opts *o)
{
	for (unsigned i = 0; i < o->nr_globs; i++)
		free(o->globs[i]);
	free(o->globs);
	free(o->glob_hits);
}

/* Without --pmu: the models stat counts without being told (the default
 * model, and every model only an emulator runs), so that every listed name
 * is one stat takes. A model with a perf mapping besides its emulator (the
 * Arm cores) is a real core: stat counts it on a host of that core or with
 * --pmu, and refuses its names in a run of the default model, so it needs
 * --pmu here too. */
static bool listed_by_default(const struct hpm_pmu_model *m)
{
	return m == hpm_model_at(0) || (hpm_model_machine(m) != NULL && !m->perf_attr);
}

/* The host's core model when it is one listed_by_default leaves out (an
 * Arm core found by its MIDR, the revision included): stat counts it
 * without --pmu on this host, so its names and the formulas of its
 * revision are listed too. NULL otherwise. */
static const struct hpm_pmu_model *host_core_model(void)
{
	struct hpm_pmu pmu;
	char err[256];
	if (hpm_pmu_detect(&pmu, err, sizeof(err)) != 0 || !pmu.present || !pmu.model ||
	    listed_by_default(pmu.model))
		return NULL;
	return pmu.model;
}

int cmd_list(int argc, char **argv)
{
	struct list_opts o = {.bank = -1, .desc = true};
	int rc = parse_opts(argc, argv, &o);
	if (rc) {
		list_opts_free(&o);
		return rc < 0 ? 0 : rc;
	}
	if (!o.no_pager)
		pager_start();
	/* perf's heading, when a pager shows the list */
	if (pager_active() && !o.json && !o.raw_dump)
		printf("\nList of pre-defined events (to be used in -e or -M):\n\n");

	struct list_out out = {.o = &o};
	struct pfm_ctx pfm = {.out = &out, .o = &o};
	if (o.json)
		out.arr = json_array();
	if (o.model) {
		/* --pmu: that model's events, fixed counters and metrics only */
		list_model(&out, &o, o.model);
		if (o.model->metrics)
			list_metrics(&out, &o, o.model->metrics);
	} else {
		const struct hpm_pmu_model *host = host_core_model();
		list_host(&out, &o);
		list_kernel_pmus(&out, &o);
		for (unsigned m = 0; m < hpm_model_count(); m++)
			if (listed_by_default(hpm_model_at(m)))
				list_model(&out, &o, hpm_model_at(m));
		if (host)
			list_model(&out, &o, host);
		hpm_host_pfm_names(pfm_visit, &pfm);
		for (unsigned m = 0; m < hpm_model_count(); m++)
			if (listed_by_default(hpm_model_at(m)) && hpm_model_at(m)->metrics)
				list_metrics(&out, &o, hpm_model_at(m)->metrics);
		if (host && host->metrics)
			list_metrics(&out, &o, host->metrics);
	}

	if (o.json) {
		char *s = json_dumps(out.arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_decref(out.arr);
		if (!s) {
			cli_error("cannot format JSON");
			list_opts_free(&o);
			return EXIT_FAILURE;
		}
		puts(s);
		free(s);
	} else if (o.raw_dump && out.raw) {
		putchar('\n');
	}
	/* perf prints nothing for a glob that matches nothing and exits 0;
	 * the one line on stderr says why the list is short */
	for (unsigned i = 0; i < o.nr_globs; i++) {
		if (o.glob_hits[i])
			continue;
		const struct hpm_pmu_model *other =
		    o.model ? model_with_event(o.model, o.globs[i]) : NULL;
		if (other)
			cli_warn(
			    "'%.*s' matches no event of %s; it is an event of %s (list --pmu %s)",
			    (int)strlen(o.globs[i]) - 2, o.globs[i] + 1, o.model->display,
			    other->display, other->name);
		else
			cli_warn("'%.*s' matches no event, metric or metric group",
			         (int)strlen(o.globs[i]) - 2, o.globs[i] + 1);
	}
	list_opts_free(&o);
	return 0;
}
