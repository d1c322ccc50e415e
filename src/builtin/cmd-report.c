/* cmd-report.c: hpmstat report: Topdown reports from the run files of
 * hpmstat stat --record, in text, CSV, JSON, Markdown or HTML, for one run,
 * several (with a summary across them and optional weights), or the diff
 * of two.
 *
 * The reading, checking and rendering are src/report (which never prints);
 * this file parses the options, refuses to overwrite an input, and writes
 * the report where -o says, as util/outfile.h writes every output (a
 * temporary file renamed into place, in place for a device or a FIFO).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "builtin/cli-opts.h"
#include "builtin/report-input.h"
#include "builtin/report-listing.h"
#include "registry/models.h"
#include "metric/metric.h"
#include "report/report.h"
#include "perfdata/reader.h"
#include "report/samples.h"
#include "record/emu.h"
#include "sym/sym.h"
#include "util/edit-distance.h"
#include "util/outfile.h"
#include "util/readall.h"
#include "util/str.h"
#include "util/xalloc.h"

static const char report_usage_head[] =
    "Usage: hpmstat report [OPTIONS] RUN...\n"
    "       hpmstat report [OPTIONS] --diff BASE NEW\n"
    "       hpmstat report [OPTIONS] [-i FILE | --samples FILE]\n"
    "\n"
    "Report the Topdown tree and the counts of run files written by\n"
    "'hpmstat stat --record FILE' (hpmstat-run(5)), or the hot functions of a\n"
    "perf.data (by its magic; default: ./perf.data, as perf report).\n"
    "\n"
    "Options:\n";
static const char report_usage_tail[] =
    "\n"
    "Examples:\n"
    "  hpmstat stat --record a.json --topdown=3 --emu-profile dram-bound\n"
    "  hpmstat report a.json\n"
    "  hpmstat report --format html -o suite.html a.json b.json c.json\n"
    "  hpmstat report --diff a.json b.json\n"
    "  hpmstat report -i perf.data --sort dso,sym -g caller\n";

struct opts {
	enum rp_format format;
	unsigned level;
	const char *output;
	const char *weights;
	bool diff;
	const char **runs;
	unsigned nr_runs;
	/* perf.data reports */
	const char *input;   /* -i: perf.data or run file, by its magic */
	const char *samples; /* --samples */
	bool folded;         /* --format folded */
	const char *sort;
	enum rs_graph graph;
	enum rs_graph_value graph_value; /* -g percent|period|count */
	enum rs_graph_mode graph_mode;   /* -g graph|fractal|flat|folded */
	unsigned graph_limit;            /* -g's print limit (0: none) */
	bool inverted;                   /* -G: caller order, after every -g */
	int order;                       /* -g's: 1 caller, 0 callee, -1 none given */
	unsigned max_stack;              /* --max-stack, when max_stack_given */
	bool max_stack_given;
	/* perf's filters: --comms, --pid, --tid, --dsos, --symbols */
	const char *comms, *pids, *tids, *dsos, *symbols;
	const char *symbol_filter; /* --symbol-filter: of the entries, not the samples */
	const char *cpu_list;      /* -C */
	const char *time_str;      /* --time */
	bool percent_relative;     /* --percentage relative */
	bool topdown;
	const char *pmu;
	/* --topdown-variant: a named variant of the formulas */
	const char *topdown_variant;
	const char *emu_profile;  /* --emu-profile: names an emulated recording's functions */
	const char *samples_only; /* the first option only a perf.data takes */
	int children;             /* --children 1, --no-children 0, -1: perf's default (on) */
	bool show_nr_samples;     /* -n */
	bool show_total_period;   /* --show-total-period */
	bool cpu_util;            /* --showcpuutilization */
	/* perf's header listing: --header before the report, --header-only
	 * alone; -I (--show-info) its details */
	bool header, header_only, show_info;
	bool list[3];         /* --stats, --tasks, --mmaps (enum rs_listing) */
	bool stdio;           /* --stdio: perf's header line */
	bool quiet;           /* -q: no '#' lines */
	bool hide_unresolved; /* -U: the samples of unnamed functions not counted */
	/* --no-demangle: C++ names as mangled; --demangle-kernel: taken as
	 * perf's, which demangles no kallsyms name either */
	bool no_demangle, demangle_kernel;
	double percent_limit; /* --percent-limit */
	double graph_min;     /* the graph threshold: -g's or --percent-limit's */
	bool graph_min_given;
	const char *fields; /* -F */
	char **argv;        /* the words, for the messages that quote one */
};

/* --topdown-variant NAME: with --topdown, a variant of the --pmu model's
 * formulas, else of some model's. 0, or -1 after the message. */
static int check_variant(const struct opts *o)
{
	const struct metric_table *t;
	struct hpm_diag err = {0};
	char esc[96];
	if (!o->topdown) {
		cli_error("--topdown-variant needs --topdown");
		return -1;
	}
	for (unsigned i = 0; i < hpm_model_count(); i++) {
		const struct hpm_pmu_model *m = hpm_model_at(i);
		if (o->pmu && strcmp(m->name, o->pmu) != 0)
			continue;
		/* the message of the first model that has variants, or of --pmu's */
		struct hpm_diag e;
		if (m->metrics && metric_variant_find(m->metrics, o->topdown_variant, &t, &e) == 0)
			return 0;
		if (m->metrics &&
		    (!err.code || (err.code == METRIC_ERANGE && e.code != METRIC_ERANGE)))
			err = e;
		if (o->pmu && err.code == METRIC_ERANGE) {
			cli_error(
			    "--topdown-variant '%s': the %s PMU model has no Topdown variants, one "
			    "set of formulas",
			    str_escape(o->topdown_variant, esc, sizeof(esc)), m->display);
			return -1;
		}
	}
	if (err.code == METRIC_EUNKNOWN)
		cli_error("--topdown-variant: %s", err.msg);
	else
		cli_error("--topdown-variant '%s': no PMU model has Topdown variants",
		          str_escape(o->topdown_variant, esc, sizeof(esc)));
	return -1;
}

/* A single-dash word that spells a long option ("-outfile", "-format"):
 * the long option it was meant as, else NULL. Without this check
 * "-outfile x" would be -o with the file "utfile" and x a run, a surprise
 * file on disk; "-oFILE" with any other FILE is still -o. */
static const char *meant_long_option(const char *a)
{
	static const char *const longs[] = {"format",   "level",   "output",       "diff",
	                                    "weights",  "help",    "input",        "samples",
	                                    "sort",     "topdown", "stdio",        "emu-profile",
	                                    "children", "fields",  "percent-limit"};
	const char *w = a + 1;

	if (a[0] != '-' || a[1] == '-' || strlen(w) < 3)
		return NULL;
	for (size_t k = 0; k < sizeof(longs) / sizeof(longs[0]); k++) {
		size_t common = 0;
		while (w[common] && w[common] == longs[k][common])
			common++;
		if (common >= 3 || edit_distance(w, longs[k], 2) <= 2)
			return longs[k];
	}
	return NULL;
}

/* An emulated workload's map ("[emu:hotspots]", hpmstat record --backend
 * emu) is named by the functions its profile declares: a built-in profile,
 * or the file --emu-profile names (ctx), never a path the recording names. */
static int emu_table(void *ctx, struct hpm_syms *syms, const char *dso, char *err, size_t errlen)
{
	struct hpm_record_emu_fn *fns = NULL;
	size_t n = 0;
	int rc = hpm_record_emu_functions(dso, ctx, &fns, &n, err, errlen);
	if (rc == -ENOENT) {
		err[0] = '\0'; /* not an emulator's map: nothing to say */
		return rc;
	}
	if (rc)
		return rc;
	struct hpm_sym_decl *d = xcalloc(n ? n : 1, sizeof(*d));
	for (size_t i = 0; i < n; i++)
		d[i] = (struct hpm_sym_decl){fns[i].name, fns[i].start, fns[i].end};
	rc = hpm_syms_add_table(syms, dso, d, n);
	if (rc)
		snprintf(err, errlen, "%s", hpm_syms_strerror(rc));
	free(d);
	hpm_record_emu_functions_free(fns, n);
	return rc;
}

/* perf's -g words (its parse_callchain_report_opt), each also as any
 * prefix of itself, as perf takes them, in its order of trying; with
 * numbers (the threshold, then the print limit), comma-separated. hpmstat
 * draws all but the keys other than function (address, srcline) and
 * branch. */
enum graph_word_kind { GW_MODE, GW_ORDER, GW_KEY, GW_REFUSED, GW_VALUE, GW_NONE };
static const struct graph_word {
	const char *word;
	enum graph_word_kind kind;
	int value; /* the mode, order (RS_GRAPH_*) or value */
} graph_words[] = {
    {"graph", GW_MODE, RS_MODE_GRAPH},
    {"flat", GW_MODE, RS_MODE_FLAT},
    {"fractal", GW_MODE, RS_MODE_FRACTAL},
    {"folded", GW_MODE, RS_MODE_FOLDED},
    {"caller", GW_ORDER, RS_GRAPH_CALLER},
    {"callee", GW_ORDER, RS_GRAPH_CALLEE},
    {"function", GW_KEY, 0},
    {"address", GW_REFUSED, 0},
    {"srcline", GW_REFUSED, 0},
    {"branch", GW_REFUSED, 0},
    {"percent", GW_VALUE, RS_VALUE_PERCENT},
    {"period", GW_VALUE, RS_VALUE_PERIOD},
    {"count", GW_VALUE, RS_VALUE_COUNT},
    {"none", GW_NONE, 0},
    {NULL, GW_NONE, 0},
};

/* perf's word that tok begins (its first in perf's order of trying), or
 * NULL. */
static const struct graph_word *graph_word(const char *tok)
{
	for (const struct graph_word *w = graph_words; w->word; w++)
		if (*tok && strncmp(w->word, tok, strlen(tok)) == 0)
			return w;
	return NULL;
}

static bool graph_number(const char *tok, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(tok, &end);
	return end != tok && !*end && !errno;
}

/* The next argument is -g's when every comma-separated part of it is one
 * of perf's words or a number: -g caller,0.5 takes it, -g perf.data not. */
static bool graph_spec(const char *arg)
{
	const char *p = arg;
	if (!*arg)
		return false;
	while (*p) {
		size_t n = strcspn(p, ",");
		char tok[32];
		double v;
		if (n && n < sizeof(tok)) {
			memcpy(tok, p, n);
			tok[n] = 0;
			if (!graph_word(tok) && !graph_number(tok, &v))
				return false;
		} else if (n) {
			return false;
		}
		p += n + (p[n] == ',');
	}
	return true;
}

/* perf's -g[SPEC], --call-graph[=SPEC]: print type, threshold, order,
 * sort key, value (a branch's percent, period or sample count). -g alone
 * is perf's default, graph,0.5,caller; an order not given leaves perf's
 * own (callee, caller with --children), a threshold given replaces
 * --percent-limit's as the graph's, whichever comes last, as in perf.
 * What hpmstat does not draw is refused. */
static int opt_graph(void *opts, const char *spec)
{
	struct opts *o = opts;
	char copy[128], *save = NULL;
	unsigned numbers = 0;
	if (!spec)
		spec = "graph,0.5,caller,function,percent";
	if (strlen(spec) >= sizeof(copy))
		return cli_usage_error("-g '%.40s...': too long", spec);
	strcpy(copy, spec);
	if (o->graph == RS_GRAPH_OFF)
		o->graph = RS_GRAPH_NONE;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct graph_word *w = graph_word(tok);
		double v;
		if (w && w->kind == GW_NONE) {
			o->graph = RS_GRAPH_OFF;
			break;
		} else if (w && w->kind == GW_ORDER) {
			o->graph = (enum rs_graph)w->value;
			o->order = w->value == RS_GRAPH_CALLER;
		} else if (w && w->kind == GW_VALUE) {
			o->graph_value = (enum rs_graph_value)w->value;
		} else if (w && w->kind == GW_MODE) {
			o->graph_mode = (enum rs_graph_mode)w->value;
		} else if (w && w->kind == GW_REFUSED) {
			return cli_usage_error(
			    "-g '%s': frames keyed by %s are not drawn here (the "
			    "function's only)",
			    spec, w->word);
		} else if (w) {
			/* function: hpmstat's only key */
		} else if (graph_number(tok, &v) && numbers == 0) {
			if (!(v >= 0 && v <= 100))
				return cli_usage_error(
				    "-g '%s': the threshold is a percentage from 0 to 100", spec);
			o->graph_min = v;
			o->graph_min_given = true;
			numbers++;
		} else if (graph_number(tok, &v)) {
			/* perf's print limit, the number after the threshold */
			if (!(v >= 0 && v <= UINT_MAX && v == (double)(unsigned)v))
				return cli_usage_error(
				    "-g '%s': the print limit is a whole number of branches", spec);
			o->graph_limit = (unsigned)v;
		} else {
			return cli_usage_error("-g '%s': not perf's "
			                       "TYPE,THRESHOLD,LIMIT,caller|callee,function,VALUE",
			                       spec);
		}
	}
	o->samples_only = o->samples_only ? o->samples_only : "-g";
	return 0;
}

/* perf's parse_percent_limit: a number, a '%' after it allowed. */
static int opt_percent_limit(void *opts, const char *v)
{
	struct opts *o = opts;
	char *end;
	errno = 0;
	double pc = strtod(v, &end);
	if (*end == '%')
		end++;
	if (end == v || *end || errno || !(pc >= 0 && pc <= 100))
		return cli_usage_error("--percent-limit '%s': a percentage from 0 to 100", v);
	o->percent_limit = pc;
	o->graph_min = pc;
	o->graph_min_given = true;
	o->samples_only = o->samples_only ? o->samples_only : "--percent-limit";
	return 0;
}

/* perf's --max-stack N: the frames of a chain kept (default 127). */
static int opt_max_stack(void *opts, const char *v)
{
	struct opts *o = opts;
	uint64_t n;
	if (cli_parse_u64("--max-stack", v, 0, INT_MAX, &n))
		return EXIT_FAILURE;
	o->max_stack = (unsigned)n;
	o->max_stack_given = true;
	o->samples_only = o->samples_only ? o->samples_only : "--max-stack";
	return 0;
}

/* The options that exclude or need each other, and perf report's default
 * input: 0 or the exit status. */
static int check_opts(struct opts *o)
{
	/* perf applies -G after the options: it wins over -g callee */
	if (o->inverted && o->graph != RS_GRAPH_OFF)
		o->graph = RS_GRAPH_CALLER;
	if (o->inverted)
		o->order = 1;
	if (o->topdown_variant && check_variant(o))
		return EXIT_FAILURE;
	if (o->input && o->samples)
		return cli_usage_error("-i and --samples exclude each other");
	if ((o->input || o->samples) && o->nr_runs)
		return cli_usage_error("give the input once: -i, --samples or run files");
	/* perf report's default input: a pipe on standard input
	 * (record -o - | report), else ./perf.data */
	struct stat st;
	if (!o->nr_runs && !o->input && !o->samples && fstat(STDIN_FILENO, &st) == 0 &&
	    S_ISFIFO(st.st_mode))
		o->input = "-";
	/* without either, perf report's words and its hint; the status is
	 * hpmstat's for a file it cannot open (perf's is 255) */
	if (!o->nr_runs && !o->input && !o->samples) {
		if (access("perf.data", F_OK) != 0) {
			cli_error("failed to open perf.data: %s (try 'hpmstat record' first)",
			          strerror(errno));
			return EXIT_FAILURE;
		}
		o->input = "perf.data";
	}
	if (o->input && (o->diff || o->weights))
		return cli_usage_error("--diff and --weights compare run files: give them as RUN");
	if (o->diff && o->nr_runs != 2)
		return cli_usage_error("--diff compares BASE and NEW: give no other run");
	if (o->diff && o->weights)
		return cli_usage_error("--weights and --diff exclude each other");
	if (o->output && !*o->output)
		return cli_usage_error("-o: the file name is empty");
	return 0;
}

/* A value glued to its short option that is rather a long option's name
 * with one dash ("-outfile" is not -o with the file "utfile"): the usage
 * error, else 0. */
static int glued_long_option(const struct opts *o, int c)
{
	/* the option took the rest of its word, or the next word */
	const char *w = o->argv[optind - 1], *meant = meant_long_option(w);
	if (w[0] == '-' && w[1] == c && w[2] && meant)
		return cli_usage_error("unknown option '%s' (did you mean --%s?)", w, meant);
	return 0;
}

/* The first option only a perf.data takes, as written: its short or its
 * long name. */
static void note_samples_only(struct opts *o, int c, const char *short_name, const char *long_name)
{
	const char *w = cli_current_word(o->argv, c);
	if (!o->samples_only)
		o->samples_only = strncmp(w, "--", 2) == 0 ? long_name : short_name;
}

/* As note_samples_only, for an option with a value v: the word before a
 * value of its own, else the word that holds it (-sVALUE, --sort=VALUE) */
static void note_samples_only_arg(struct opts *o, const char *v, const char *short_name,
                                  const char *long_name)
{
	const char *w =
	    o->argv[optind - 1] == v && optind >= 2 ? o->argv[optind - 2] : o->argv[optind - 1];
	if (!o->samples_only)
		o->samples_only = strncmp(w, "--", 2) == 0 ? long_name : short_name;
}

/* perf's filters, each a comma-separated list kept for the report; id
 * indexes filters[] */
enum { F_COMMS, F_PID, F_TID, F_DSOS, F_SYMBOLS, F_SYMBOL_FILTER, F_CPU, F_TIME };
static const struct {
	size_t field; /* the const char * in struct opts */
	const char *short_name, *long_name;
} filters[] = {
    [F_COMMS] = {offsetof(struct opts, comms), "-c", "--comms"},
    [F_PID] = {offsetof(struct opts, pids), "--pid", "--pid"},
    [F_TID] = {offsetof(struct opts, tids), "--tid", "--tid"},
    [F_DSOS] = {offsetof(struct opts, dsos), "-d", "--dsos"},
    [F_SYMBOLS] = {offsetof(struct opts, symbols), "-S", "--symbols"},
    [F_SYMBOL_FILTER] = {offsetof(struct opts, symbol_filter), "--symbol-filter",
                         "--symbol-filter"},
    [F_CPU] = {offsetof(struct opts, cpu_list), "-C", "--cpu"},
    [F_TIME] = {offsetof(struct opts, time_str), "--time", "--time"},
};

static int opt_filter(void *opts, int id, const char *v)
{
	*(const char **)(void *)((char *)opts + filters[id].field) = v;
	note_samples_only_arg(opts, v, filters[id].short_name, filters[id].long_name);
	return 0;
}

/* perf's --percentage: what the shares of a filtered report are of */
static int opt_percentage(void *opts, const char *v)
{
	struct opts *o = opts;
	if (strcmp(v, "relative") != 0 && strcmp(v, "absolute") != 0)
		return cli_usage_error("--percentage '%s': relative or absolute", v);
	o->percent_relative = v[0] == 'r';
	o->samples_only = o->samples_only ? o->samples_only : "--percentage";
	return 0;
}

static int opt_format(void *opts, const char *v)
{
	struct opts *o = opts;
	o->folded = strcmp(v, "folded") == 0;
	if (!o->folded && rp_format_parse(v, &o->format) != 0) {
		cli_error("--format '%s': must be text, csv, json, md or html", v);
		return EXIT_FAILURE;
	}
	return 0;
}

static int opt_output(void *opts, const char *v)
{
	((struct opts *)opts)->output = v;
	return glued_long_option(opts, 'o');
}

static int opt_input(void *opts, const char *v)
{
	((struct opts *)opts)->input = v;
	return glued_long_option(opts, 'i');
}

static int opt_diff(void *opts, const char *base, const char *new_run)
{
	struct opts *o = opts;
	if (o->diff)
		return cli_usage_error("--diff given twice");
	o->diff = true;
	o->runs[o->nr_runs++] = base;
	o->runs[o->nr_runs++] = new_run;
	return 0;
}

static int opt_samples(void *opts, const char *v)
{
	struct opts *o = opts;
	o->samples = v;
	o->samples_only = o->samples_only ? o->samples_only : "--samples";
	return 0;
}

static int opt_sort(void *opts, const char *v)
{
	struct opts *o = opts;
	o->sort = v;
	note_samples_only_arg(o, v, "-s", "--sort");
	return glued_long_option(o, 's');
}

static int opt_fields(void *opts, const char *v)
{
	struct opts *o = opts;
	o->fields = v;
	note_samples_only_arg(o, v, "-F", "--fields");
	return glued_long_option(o, 'F');
}

static int opt_children(void *opts, const char *v)
{
	struct opts *o = opts;
	(void)v;
	o->children = 1;
	o->samples_only = o->samples_only ? o->samples_only : "--children";
	return 0;
}

/* perf's --no-call-graph: no graph, as -g none */
static int opt_no_graph(void *opts, const char *v)
{
	struct opts *o = opts;
	(void)v;
	o->samples_only = o->samples_only ? o->samples_only : "--no-call-graph";
	return opt_graph(opts, "none");
}

/* perf's -G, --inverted: the caller graph, whatever -g's order */
static int opt_inverted(void *opts, const char *v)
{
	struct opts *o = opts;
	(void)v;
	o->inverted = true;
	note_samples_only(o, 'G', "-G", "--inverted");
	return 0;
}

static int opt_no_children(void *opts, const char *v)
{
	struct opts *o = opts;
	(void)v;
	o->children = 0;
	o->samples_only = o->samples_only ? o->samples_only : "--no-children";
	return 0;
}

static int opt_show_nr_samples(void *opts, const char *v)
{
	(void)v;
	((struct opts *)opts)->show_nr_samples = true;
	note_samples_only(opts, 'n', "-n", "--show-nr-samples");
	return 0;
}

static int opt_cpu_util(void *opts, const char *v)
{
	(void)v;
	((struct opts *)opts)->cpu_util = true;
	note_samples_only(opts, 0, "--showcpuutilization", "--showcpuutilization");
	return 0;
}

/* --header, --header-only, -I: perf's header listing of the perf.data */
enum { H_HEADER, H_ONLY, H_INFO };
static int opt_header(void *opts, int id, const char *v)
{
	struct opts *o = opts;
	(void)v;
	static const char *const name[] = {"--header", "--header-only", "--show-info"};
	if (id == H_HEADER)
		o->header = true;
	else if (id == H_ONLY)
		o->header_only = true;
	else
		o->show_info = true;
	note_samples_only(o, id == H_INFO ? 'I' : 0, id == H_INFO ? "-I" : name[id], name[id]);
	return 0;
}

/* --stats, --tasks, --mmaps: perf's listings of the perf.data's records */
static int opt_list(void *opts, int id, const char *v)
{
	(void)v;
	((struct opts *)opts)->list[id] = true;
	note_samples_only(opts, 0, report_listing_name(id), report_listing_name(id));
	return 0;
}

static int opt_show_total_period(void *opts, const char *v)
{
	(void)v;
	struct opts *o = opts;
	o->show_total_period = true;
	o->samples_only = o->samples_only ? o->samples_only : "--show-total-period";
	return 0;
}

static int opt_quiet(void *opts, const char *v)
{
	(void)v;
	((struct opts *)opts)->quiet = true;
	note_samples_only(opts, 'q', "-q", "--quiet");
	return 0;
}

static int opt_hide_unresolved(void *opts, const char *v)
{
	(void)v;
	((struct opts *)opts)->hide_unresolved = true;
	note_samples_only(opts, 'U', "-U", "--hide-unresolved");
	return 0;
}

/* perf's --demangle (its default) and --no-demangle: the last one counts */
static int opt_demangle(void *opts, const char *v)
{
	(void)v;
	((struct opts *)opts)->no_demangle = false;
	note_samples_only(opts, 0, "--demangle", "--demangle");
	return 0;
}

static int opt_no_demangle(void *opts, const char *v)
{
	(void)v;
	((struct opts *)opts)->no_demangle = true;
	note_samples_only(opts, 0, "--no-demangle", "--no-demangle");
	return 0;
}

static int opt_demangle_kernel(void *opts, const char *v)
{
	(void)v;
	((struct opts *)opts)->demangle_kernel = true;
	note_samples_only(opts, 0, "--demangle-kernel", "--demangle-kernel");
	return 0;
}

static int opt_topdown(void *opts, const char *v)
{
	struct opts *o = opts;
	(void)v;
	o->topdown = true;
	o->samples_only = o->samples_only ? o->samples_only : "--topdown";
	return 0;
}

static int opt_pmu(void *opts, const char *v)
{
	struct opts *o = opts;
	if (!hpm_model_by_name(v)) {
		char msg[512];
		hpm_model_unknown_msg(v, msg, sizeof(msg));
		cli_error("%s", msg);
		return EXIT_FAILURE;
	}
	o->pmu = v;
	o->samples_only = o->samples_only ? o->samples_only : "--pmu";
	return 0;
}

static int opt_topdown_variant(void *opts, const char *v)
{
	struct opts *o = opts;
	o->topdown_variant = v;
	o->samples_only = o->samples_only ? o->samples_only : "--topdown-variant";
	return 0;
}

static int opt_emu_profile(void *opts, const char *v)
{
	struct opts *o = opts;
	o->emu_profile = v;
	o->samples_only = o->samples_only ? o->samples_only : "--emu-profile";
	return 0;
}

/* a run, wherever it stands among the options */
static int add_run(void *opts, const char *run)
{
	struct opts *o = opts;
	o->runs[o->nr_runs++] = run;
	return 0;
}

/* getopt's message, or the long option a single-dash word spells
 * ("-format", "-quiet") */
static int report_bad_option(void *opts, int c, char **argv, const struct option *longopts)
{
	(void)opts;
	const char *w = c == '?' && optopt ? cli_current_word(argv, optopt) : NULL;
	const char *meant = w && w[0] == '-' && w[1] != '-' ? meant_long_option(w) : NULL;
	if (meant)
		return cli_usage_error("unknown option '%s' (did you mean --%s?)", w, meant);
	return cli_option_error(c, argv, longopts);
}

#define RO struct opts
#define FILTER_OPT(l, s, i, a, h)                                                                  \
	{                                                                                          \
		.name = l, .short_name = s, .has_arg = 1, .kind = CLI_OPT_CALL_ID, .id = i,        \
		.call_id = opt_filter, .argh = a, .help = h                                        \
	}
#define LIST_OPT(l, i, h)                                                                          \
	{                                                                                          \
		.name = l, .kind = CLI_OPT_CALL_ID, .id = i, .call_id = opt_list, .help = h        \
	}
static const struct cli_opt report_options[] = {
    CLI_CALL("format", 0, required_argument, opt_format, .argh = "FMT",
             .help = "text (default), csv, json, md or html; folded (perf.data: stacks for "
                     "FlameGraph and speedscope)"),
    CLI_LEVEL("level", 0, RO, level, .argh = "N",
              .help = "show the Topdown tree down to level N (1 to 3)"),
    CLI_CALL("output", 'o', required_argument, opt_output, .argh = "FILE",
             .help = "write to FILE ('-': standard output)"),
    CLI_PAIR("diff", opt_diff, "BASE", "NEW",
             .help = "compare two runs node by node, with a noise test when both were recorded "
                     "with -r"),
    CLI_STRING("weights", 0, RO, weights, .argh = "FILE",
               .help = "a JSON object {\"run name\": weight} for a weighted summary; a run's name "
                       "is its file name without .json"),
    CLI_CALL("input", 'i', required_argument, opt_input, .argh = "FILE",
             .help = "the file to report: a perf.data or a run file"),
    CLI_CALL("samples", 0, required_argument, opt_samples, .argh = "FILE",
             .help = "the perf.data to report"),
    CLI_CALL("sort", 's', required_argument, opt_sort, .argh = "KEYS",
             .help = "perf.data: comm,dso,sym (default), pid, cpu, socket, dso_size, "
                     "symbol_size; perf's overhead, sample, period fields allowed"),
    CLI_CALL(NULL, 'g', optional_argument, opt_graph, .argh = "SPEC", .is_word = graph_spec,
             .help = "perf.data: call graphs, perf's graph|fractal|flat|folded,THRESHOLD,"
                     "LIMIT,caller|callee,function,percent|period|count or none (-g alone: "
                     "graph,0.5,caller; without -g: "
                     "callee when samples have them, caller with --children, as perf)"),
    CLI_CALL("call-graph", 0, optional_argument, opt_graph, .argh = "SPEC", .is_word = graph_spec,
             .help = "perf.data: -g's long name"),
    CLI_CALL("no-call-graph", 0, no_argument, opt_no_graph,
             .help = "perf.data: no call graphs (-g none)"),
    CLI_CALL("inverted", 'G', no_argument, opt_inverted,
             .help = "perf.data: the caller graph, whatever -g's order (perf's alias)"),
    CLI_CALL("children", 0, no_argument, opt_children,
             .help = "perf.data: each function's Children (the samples with it in their chain) "
                     "beside its Self, as perf's default where samples have call chains"),
    CLI_CALL("no-children", 0, no_argument, opt_no_children,
             .help = "perf.data: the functions' own samples only"),
    CLI_CALL("show-nr-samples", 'n', no_argument, opt_show_nr_samples,
             .help = "perf.data: a Samples column"),
    CLI_CALL("showcpuutilization", 0, no_argument, opt_cpu_util,
             .help = "perf.data: sys and usr columns, the shares of the samples taken in the "
                     "kernel and in user mode"),
    CLI_CALL("show-total-period", 0, no_argument, opt_show_total_period,
             .help = "perf.data: a Period column"),
    CLI_CALL("fields", 'F', required_argument, opt_fields, .argh = "LIST",
             .help = "perf.data: the columns: overhead, overhead_children, sample, period, and "
                     "keys (comm, dso, sym, pid, cpu, socket, dso_size, symbol_size)"),
    CLI_CALL("max-stack", 0, required_argument, opt_max_stack, .argh = "N",
             .help = "perf.data: keep N frames of each call chain (default 127): the innermost "
                     "in callee order, the outermost in caller order, as perf"),
    FILTER_OPT("comms", 'c', F_COMMS, "COMM[,COMM...]",
               "perf.data: only the samples of threads of these commands"),
    FILTER_OPT("pid", 0, F_PID, "PID[,PID...]", "perf.data: only the samples of these processes"),
    FILTER_OPT("tid", 0, F_TID, "TID[,TID...]", "perf.data: only the samples of these threads"),
    FILTER_OPT("dsos", 'd', F_DSOS, "DSO[,DSO...]",
               "perf.data: only the samples in these files (name or path)"),
    FILTER_OPT("symbols", 'S', F_SYMBOLS, "SYM[,SYM...]",
               "perf.data: only the samples in these functions (a hex number: at that "
               "address)"),
    FILTER_OPT("symbol-filter", 0, F_SYMBOL_FILTER, "TEXT",
               "perf.data: only the entries whose function's name holds TEXT (an unnamed "
               "one goes too); the samples stay counted"),
    CLI_CALL("demangle", 0, no_argument, opt_demangle,
             .help = "perf.data: C++ function names demangled as perf shows them, without "
                     "their parameters (the default)"),
    CLI_CALL("no-demangle", 0, no_argument, opt_no_demangle,
             .help = "perf.data: C++ function names as the files have them, mangled"),
    CLI_CALL("demangle-kernel", 0, no_argument, opt_demangle_kernel,
             .help = "perf.data: taken for perf's: kernel names (kallsyms') are C, "
                     "never demangled"),
    FILTER_OPT("cpu", 'C', F_CPU, "CPUS",
               "perf.data: only the samples taken on these CPUs (\"0-3,5\"), the others not "
               "counted"),
    FILTER_OPT("time", 0, F_TIME, "SPANS",
               "perf.data: only the samples in these spans of time, the others not counted: "
               "start,stop in seconds (either end left out; spans apart by spaces), or "
               "shares of the recording's: 10%/2, 0%-10%, lists of them apart by commas"),
    CLI_CALL("percentage", 0, required_argument, opt_percentage, .argh = "HOW",
             .help = "perf.data: filtered shares of all samples (absolute, perf's default) "
                     "or of the kept ones (relative)"),
    CLI_CALL("percent-limit", 0, required_argument, opt_percent_limit, .argh = "P",
             .help = "perf.data: hide entries and graph branches below P percent"),
    {.name = "header",
     .kind = CLI_OPT_CALL_ID,
     .id = H_HEADER,
     .call_id = opt_header,
     .help = "perf.data: perf's header listing (the recording's machine, command line and "
             "events) before the report"},
    {.name = "header-only",
     .kind = CLI_OPT_CALL_ID,
     .id = H_ONLY,
     .call_id = opt_header,
     .help = "perf.data: the header listing alone"},
    {.name = "show-info",
     .short_name = 'I',
     .kind = CLI_OPT_CALL_ID,
     .id = H_INFO,
     .call_id = opt_header,
     .help = "perf.data: the listing's details (CPU and NUMA topology, caches, memory)"},
    LIST_OPT("stats", RS_LIST_STATS,
             "perf.data: perf's count of its records by type and of each event's samples"),
    LIST_OPT("tasks", RS_LIST_TASKS,
             "perf.data: perf's tree of the recorded processes and threads"),
    LIST_OPT("mmaps", RS_LIST_MMAPS, "perf.data: --tasks with each thread's memory maps"),
    CLI_FLAG("stdio", 0, RO, stdio, .help = "perf.data: perf's header line (the text is perf's)"),
    CLI_CALL("quiet", 'q', no_argument, opt_quiet,
             .help = "perf.data: the entries alone, without the '#' lines"),
    CLI_CALL("hide-unresolved", 'U', no_argument, opt_hide_unresolved,
             .help = "perf.data: leave out the samples of unnamed functions (not counted) "
                     "and unnamed callers from the call chains"),
    CLI_CALL("topdown", 0, no_argument, opt_topdown,
             .help = "perf.data: level-1 Topdown per function from the group reads of "
                     "'{leader,member,...}:S' samples"),
    CLI_CALL("pmu", 0, required_argument, opt_pmu, .argh = "MODEL",
             .help = "perf.data: --topdown with MODEL's formulas (default: the model of the "
                     "file's cpuid, else the first that the group's events can compute)"),
    CLI_CALL("topdown-variant", 0, required_argument, opt_topdown_variant, .argh = "NAME",
             .help = "perf.data: --topdown with that variant of the formulas (Kunminghu: "
                     "document, the default, or slots)"),
    CLI_CALL("emu-profile", 0, required_argument, opt_emu_profile, .argh = "FILE",
             .help = "perf.data of record --backend emu: the profile file that names its "
                     "functions (default: the built-in profile the recording names)"),
    CLI_HELP("help", 'h', .help = "show this help"),
    {0},
};
#undef FILTER_OPT
#undef LIST_OPT
#undef RO

/* Options and runs in any order, as users type them; "--" ends the
 * options ('-': getopt_long hands each run to add_run in its place). */
static const struct cli_opts report_spec = {
    .table = report_options, .prefix = "-:", .operand = add_run, .bad_option = report_bad_option};

void cmd_report_usage(FILE *out)
{
	cli_opts_usage(out, &report_spec, report_usage_head, report_usage_tail);
}

/* Returns -1 to exit 0 (--help), else 0 or the exit status. */
static int parse(int argc, char **argv, struct opts *o)
{
	o->runs = xcalloc((size_t)argc + 1, sizeof(*o->runs));
	o->argv = argv;
	int rc = cli_opts_parse(&report_spec, argc, argv, o);
	if (rc)
		return rc;
	while (optind < argc) /* after "--" */
		o->runs[o->nr_runs++] = argv[optind++];
	return check_opts(o);
}

/* The report on stdout, or in -o's file. The module keeps no temporary
 * file past a signal (it unlinks and re-raises) and reports every failed
 * write, so a full disk is an error, never a short report. */
static int write_report(const struct report *r, const struct opts *o)
{
	if (!o->output) {
		if (report_render(r, o->format, stdout) != 0)
			return EXIT_FAILURE; /* cli_finish names the write error */
		return 0;
	}
	struct cli_output out = {0};
	if (cli_output_open(&out, o->output, false))
		return EXIT_FAILURE;
	/* render fails only on a write error, which commit reports (and then
	 * puts nothing in place) */
	report_render(r, o->format, cli_output_stream(&out));
	return cli_output_commit(&out) ? EXIT_FAILURE : 0;
}

/* What of the options perf's listings take (report-listing.h). */
static struct report_listing listing_of(const struct opts *o)
{
	struct report_listing l = {.header = o->header,
	                           .header_only = o->header_only,
	                           .show_info = o->show_info,
	                           .text = o->format == RP_TEXT && !o->folded,
	                           .output = o->output,
	                           .sort = o->sort,
	                           .fields = o->fields,
	                           .comms = o->comms,
	                           .dsos = o->dsos,
	                           .symbols = o->symbols};
	memcpy(l.list, o->list, sizeof(l.list));
	return l;
}

/* The samples report's options from report's, in format f: 0, or the
 * usage error's status after its message. */
static int samples_opts(const struct opts *o, enum rs_format f, struct rs_opts *out)
{
	struct rs_opts ro = {.graph = o->graph,
	                     .graph_value = o->graph_value,
	                     .graph_mode = o->graph_mode,
	                     .graph_limit = o->graph_limit,
	                     .topdown = o->topdown,
	                     .pmu = o->pmu,
	                     .topdown_variant = o->topdown_variant,
	                     .dso_table = emu_table,
	                     .dso_table_ctx = (void *)(uintptr_t)o->emu_profile};
	char err[512];
	ro.folded = f == RS_FOLDED || f == RS_HTML;
	/* perf's --children is its default; every format has the text's
	 * Children columns but the folded stacks (the samples' own) */
	ro.children = o->children != 0 && f != RS_FOLDED;
	ro.show_samples = o->show_nr_samples;
	ro.show_period = o->show_total_period;
	ro.percent_limit = o->percent_limit;
	ro.graph_min = o->graph_min;
	ro.graph_min_given = o->graph_min_given;
	ro.max_stack = o->max_stack;
	ro.max_stack_given = o->max_stack_given;
	/* perf resolves the chains in the graph's order: -g's, else caller
	 * with --children */
	ro.caller_chains = o->order >= 0 ? o->order == 1 : ro.children;
	ro.comms = o->comms;
	ro.pids = o->pids;
	ro.tids = o->tids;
	ro.dsos = o->dsos;
	ro.symbols = o->symbols;
	ro.symbol_filter = o->symbol_filter;
	ro.no_demangle = o->no_demangle;
	ro.cpu_util = o->cpu_util;
	ro.percent_relative = o->percent_relative;
	ro.cpu_list = o->cpu_list;
	ro.time_str = o->time_str;
	ro.sort_sym_first = o->sort && !o->fields && strncmp(o->sort, "sym", 3) == 0;
	ro.perf_header = o->stdio;
	ro.after_listing = o->header;
	ro.quiet = o->quiet;
	ro.hide_unresolved = o->hide_unresolved;
	if (o->sort && rs_parse_sort(o->sort, &ro, err, sizeof(err)) != 0)
		return cli_usage_error("%s", err);
	if (o->fields) {
		struct rs_opts fo = ro;
		if (rs_parse_fields(o->fields, &fo, err, sizeof(err)) != 0)
			return cli_usage_error("%s", err);
		/* perf's entries: --sort's keys, then -F's others (-F's
		 * alone without --sort); --sort's keys that -F does not
		 * name are columns after -F's, and sort first */
		unsigned nsort = o->sort ? ro.nr_key : 0, nk = nsort;
		enum rs_key keys[RS_MAX_KEYS];
		memcpy(keys, ro.key, nsort * sizeof(*keys));
		for (unsigned i = 0; i < fo.nr_key; i++) {
			bool have = false;
			for (unsigned j = 0; j < nsort; j++)
				have = have || keys[j] == fo.key[i];
			if (!have && nk < RS_MAX_KEYS)
				keys[nk++] = fo.key[i];
		}
		for (unsigned j = 0; j < nsort; j++) {
			bool shown = false;
			for (unsigned i = 0; i < fo.nr_col; i++)
				shown = shown ||
				        (fo.col[i].kind == RS_COL_KEY && fo.col[i].key == keys[j]);
			if (!shown && fo.nr_col < RS_MAX_COLS)
				fo.col[fo.nr_col++] = (struct rs_col){RS_COL_KEY, keys[j]};
		}
		memcpy(fo.key, keys, nk * sizeof(*keys));
		fo.nr_key = nk;
		fo.nr_sort_key = nsort;
		/* -F's columns are all: perf drops -n's and
		 * --show-total-period's */
		ro = fo;
	}
	*out = ro;
	return 0;
}

/* hpmstat report on a perf.data: the samples report. What the reader
 * skipped or stopped at goes to stderr; a partial file is reported as far
 * as it was read, and fails only when it gave no sample. */
static int samples_report(const char *path, const struct opts *o)
{
	struct rs_opts ro;
	struct rs_report rs;
	char err[512];
	enum rs_format f = o->folded ? RS_FOLDED : (enum rs_format)o->format;
	int urc = samples_opts(o, f, &ro);
	if (urc)
		return urc;
	if (o->output && strcmp(o->output, "-") != 0 && outfile_same(o->output, path)) {
		cli_error("-o '%s' is the input '%s': refusing to overwrite it", o->output, path);
		return EXIT_FAILURE;
	}
	if (o->emu_profile && hpm_record_emu_profile_check(o->emu_profile, err, sizeof(err))) {
		cli_error("--emu-profile: %s", err);
		return EXIT_FAILURE;
	}
	const struct report_listing lo = listing_of(o);
	int hrc = report_check_listing(path, &lo);
	if (hrc || o->header_only)
		return hrc ? hrc : report_header_only(path, &lo);
	int in = -1;
	if (strcmp(path, "-") == 0 && (in = report_input_stdin()) < 0)
		return EXIT_FAILURE;
	int lrc = in >= 0 ? rs_load_fd(&rs, in, "standard input", &ro, err, sizeof(err))
	                  : rs_load(&rs, path, &ro, err, sizeof(err));
	/* the report holds its own mapping of the file */
	if (in > STDIN_FILENO)
		close(in);
	if (lrc != 0) {
		for (unsigned i = 0; i < rs.file.nr_note; i++)
			cli_warn("%s: %s", path, rs.file.note[i]);
		cli_error("%s", err);
		rs_free(&rs);
		return EXIT_FAILURE;
	}
	for (unsigned i = 0; i < rs.file.nr_note; i++)
		cli_warn("%s: %s", path, rs.file.note[i]);
	/* the demangler's library missing: said once, the names mangled */
	const char *dwhy = rs_demangle_why(&rs);
	if (dwhy)
		cli_warn("warning: %s: C++ function names left mangled", dwhy);
	/* a table of a newer hpmstat (or a file edited): its raw events'
	 * indices mean what that table says, which no table here can check */
	if (rs.file.hpm_pmu && !rs.model)
		cli_warn("%s: the raw events are of the '%.64s' table, which this hpmstat does not "
		         "know: shown by their recorded names, unchecked (--topdown takes a known "
		         "table's formulas for those names)",
		         path, rs.file.hpm_pmu);
	if (rs.file.partial)
		cli_warn("%s: partial: the report shows what could be read", path);
	if (rs.nr_lost)
		cli_warn("%s: the recording lost %llu events (LOST records): shares are of the "
		         "samples kept",
		         path, (unsigned long long)rs.nr_lost);
	if ((o->graph == RS_GRAPH_CALLER || o->graph == RS_GRAPH_CALLEE) && !rs.nr_node)
		cli_warn("-g: the samples have no callchains (record with -g)");
	/* the Topdown asked for and not computable is an error, as perf
	 * report -b on a file without branch stacks: no report without it */
	if (o->topdown && !rs.nr_td) {
		cli_error("--topdown: %s", rs.td_why);
		rs_free(&rs);
		return EXIT_FAILURE;
	}
	if (rs.nr_td_damaged)
		cli_warn("%s: --topdown: damaged group reads (level-1 shares outside 0-100 %% or "
		         "not adding up to 100 %%) in %u %s: their Topdown is shown as n/a",
		         path, rs.nr_td_damaged, rs.nr_td_damaged == 1 ? "entry" : "entries");
	/* perf's words when no sample is left to report: its text stops
	 * after the first header lines, and the status stays 0 */
	if (!rs.nr_hist && f == RS_TEXT)
		cli_warn("%s: no samples to report", path);
	int rc = 0;
	if (!o->output) {
		rc = report_header_before(path, &lo, stdout) || rs_render(&rs, f, stdout) != 0
		         ? EXIT_FAILURE
		         : 0;
	} else {
		struct cli_output out = {0};
		if (cli_output_open(&out, o->output, false)) {
			rc = EXIT_FAILURE;
		} else if (report_header_before(path, &lo, cli_output_stream(&out))) {
			cli_output_abort(&out);
			rc = EXIT_FAILURE;
		} else {
			rs_render(&rs, f, cli_output_stream(&out));
			rc = cli_output_commit(&out) ? EXIT_FAILURE : 0;
		}
	}
	rs_free(&rs);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct opts o = {.format = RP_TEXT, .children = -1, .order = -1};
	struct report r;
	char err[512];
	int rc = parse(argc, argv, &o);
	report_init(&r);
	if (rc) {
		free(o.runs);
		return rc < 0 ? 0 : rc;
	}
	/* a FIFO or socket named as an input would block on its open */
	bool special = (o.input && report_input_refused(o.input)) ||
	               (o.samples && report_input_refused(o.samples)) ||
	               (o.weights && report_input_refused(o.weights));
	for (unsigned i = 0; !special && i < o.nr_runs; i++)
		special = report_input_refused(o.runs[i]);
	if (special) {
		free(o.runs);
		return EXIT_FAILURE;
	}
	/* --header-only lists any perf.data, as perf: one of stat counts or
	 * a directory too, which the samples report does not take */
	if (o.header_only && !o.diff && !o.weights && (o.samples || o.input || o.nr_runs == 1)) {
		const char *path = o.samples ? o.samples : o.input ? o.input : o.runs[0];
		const struct report_listing lo = listing_of(&o);
		rc = report_check_listing(path, &lo);
		rc = rc ? rc : report_header_only(path, &lo);
		free(o.runs);
		return rc;
	}
	/* so do --stats, --tasks and --mmaps (a run file's error is theirs) */
	if ((o.list[RS_LIST_STATS] || o.list[RS_LIST_TASKS] || o.list[RS_LIST_MMAPS]) && !o.diff &&
	    !o.weights && (o.samples || o.input || o.nr_runs == 1)) {
		const struct report_listing lo = listing_of(&o);
		rc = report_records_listing(o.samples ? o.samples
		                            : o.input ? o.input
		                                      : o.runs[0],
		                            &lo);
		free(o.runs);
		return rc;
	}
	/* a perf.data (by its magic) gets the samples report; the run-file
	 * report is unchanged for everything else */
	if (o.samples ||
	    (o.input && (report_input_is_perf_data(o.input) || access(o.input, F_OK) != 0)) ||
	    (o.nr_runs == 1 && !o.diff && !o.weights && report_input_is_perf_data(o.runs[0]))) {
		const char *path = o.samples ? o.samples : o.input ? o.input : o.runs[0];
		rc = samples_report(path, &o);
		free(o.runs);
		return rc;
	}
	if (o.input)
		o.runs[o.nr_runs++] = o.input;
	if (o.samples_only) {
		rc = cli_usage_error("%s applies to a perf.data; '%s' is a run file",
		                     o.samples_only, o.runs[0]);
		free(o.runs);
		return rc;
	}
	if (o.folded) {
		cli_error("--format 'folded': must be text, csv, json, md or html for run files");
		free(o.runs);
		return EXIT_FAILURE;
	}
	r.level = o.level;
	r.diff = o.diff;
	rc = EXIT_FAILURE;
	/* "-o -" is standard output, whatever a run file named "-" is */
	bool to_file = o.output && strcmp(o.output, "-") != 0;
	for (unsigned i = 0; i < o.nr_runs; i++) {
		if (to_file && outfile_same(o.output, o.runs[i])) {
			cli_error("-o '%s' is the input '%s': refusing to overwrite it", o.output,
			          o.runs[i]);
			goto out;
		}
		if (report_add_run(&r, o.runs[i], err, sizeof(err)) != 0) {
			cli_error("%s", err);
			goto out;
		}
	}
	if (o.weights) {
		if (to_file && outfile_same(o.output, o.weights)) {
			cli_error("-o '%s' is the weights file: refusing to overwrite it",
			          o.output);
			goto out;
		}
		if (report_set_weights(&r, o.weights, err, sizeof(err)) != 0) {
			cli_error("%s", err);
			goto out;
		}
	}
	const char *caveat = report_diff_caveat(&r, err, sizeof(err));
	if (caveat)
		cli_warn("%s", caveat);
	report_finish(&r);
	rc = write_report(&r, &o);
out:
	report_free(&r);
	for (unsigned i = 0; i < hpm_model_count(); i++)
		if (hpm_model_at(i)->metrics)
			metric_release(hpm_model_at(i)->metrics);
	free(o.runs);
	return rc;
}
