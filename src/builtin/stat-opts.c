/* stat-opts.c: hpmstat stat's command line (stat-cmd.h): its --help text,
 * its options as one table (cli-opts.h) and their checks, the words
 * `record` and `report` (cmd-stat-record.c), and serve's rules on the same
 * options.
 */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "builtin/backend-opts.h"
#include "builtin/builtin.h"
#include "builtin/cli-opts.h"
#include "builtin/stat-cmd.h"
#include "util/outfile.h"
#include "util/xalloc.h"

static const char stat_usage_head[] =
    "Usage: hpmstat stat [options] [-- command [args]]\n"
    "\n"
    "Count events while a command runs (or for a process, CPUs, or the emulated\n"
    "Kunminghu harts) and print them as perf stat does, with Topdown metrics.\n"
    "\n";

static const char stat_usage_tail[] =
    "\n"
    "  hpmstat stat [options] record [options] [-o FILE] [-- command]\n"
    "                            count and write perf stat record's format to FILE\n"
    "                            (perf.data; an old one becomes perf.data.old;\n"
    "                            '-': perf's pipe format on stdout)\n"
    "  hpmstat stat [-x SEP|-j] report [-i FILE]\n"
    "                            print a recorded run again (on stderr)\n"
    "\n"
    "Examples:\n"
    "  hpmstat stat --topdown=3                   Topdown of the emulated harts\n"
    "  hpmstat stat -e task-clock,page-faults -- make\n"
    "  hpmstat stat -x, -e 'ifu_req & ifu_miss' --emu-profile fetch-latency\n";

/* One reader of numbers for every subcommand (builtin.h): out of range is
 * told apart from not a number, with the option and its value. */
static int parse_number(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return cli_parse_u64(opt, s, min, max, out);
}

/* -D MS: perf's -1 starts with the events disabled for good; anything
 * else below 0 is refused (perf reads any negative number as -1). */
static int parse_delay(const char *s, int64_t *out)
{
	uint64_t v;
	if (strcmp(s, "-1") == 0) {
		*out = -1;
		return 0;
	}
	if (s[0] == '-') {
		cli_error("-D '%s': must be -1 (never enable) or 0 to %u ms", s, INT32_MAX);
		return -1;
	}
	if (parse_number("-D", s, 0, INT32_MAX, &v))
		return -1;
	*out = (int64_t)v;
	return 0;
}

/* perf 6.1's rules for the run-control options (cmd_stat): --interval-count
 * only with -I, --timeout not with -I and at least 10 ms (under 100 ms it
 * warns of the overhead). 0 or the usage error's status. */
static int run_control_check(const struct stat_opts *o)
{
	if (o->interval_count && o->interval_ms <= 0)
		return cli_usage_error("--interval-count needs -I");
	if (o->timeout_ms && o->interval_ms > 0)
		return cli_usage_error("--timeout and -I exclude each other");
	if (o->timeout_ms && o->timeout_ms < 10)
		return cli_usage_error("--timeout '%llu': must be at least 10 ms",
		                       (unsigned long long)o->timeout_ms);
	if (o->timeout_ms && o->timeout_ms < 100)
		cli_warn("warning: --timeout under 100 ms: hpmstat's own overhead may show "
		         "in the counts");
	return 0;
}

/* ------------------------------------------------------------ the options */

/* The options with a value or a rule of their own: each sets o from its
 * value (NULL for none): 0, -1 when done, else the exit status. */

static int opt_event(void *opts, const char *arg)
{
	struct stat_opts *o = opts;
	o->events = xreallocarray(o->events, o->nr_events + 1, sizeof(char *));
	o->events[o->nr_events++] = arg;
	return 0;
}

static int opt_metrics(void *opts, const char *arg)
{
	struct stat_opts *o = opts;
	/* -M help: what -M takes, as hpmstat list metric metricgroup */
	if (strcmp(arg, "help") == 0) {
		char w0[] = "list", w1[] = "metric", w2[] = "metricgroup";
		char *list_argv[] = {w0, w1, w2, NULL};
		int status = cmd_list(3, list_argv);
		return status ? status : -1;
	}
	o->metrics = xreallocarray(o->metrics, o->nr_metrics + 1, sizeof(char *));
	/* perf 6.12's -M Default, the metric group of its default run:
	 * on the cores whose Default perf defines (Intel) it is Topdown
	 * level 1, which is what hpmstat's models have */
	o->metrics[o->nr_metrics++] = strcasecmp(arg, "Default") == 0 ? "TopdownL1" : arg;
	return 0;
}

/* perf 6.12: --td-level N is --topdown=N, 0 the deepest level */
static int opt_td_level(void *opts, const char *arg)
{
	struct stat_opts *o = opts;
	uint64_t n;
	if (parse_number("--td-level", arg, 0, 3, &n))
		return EXIT_FAILURE;
	o->topdown = n ? (unsigned)n : 3;
	return 0;
}

static int opt_topdown(void *opts, const char *arg)
{
	struct stat_opts *o = opts;
	uint64_t n;
	o->topdown = 1;
	if (arg) {
		if (parse_number("--topdown", arg, 1, 3, &n))
			return EXIT_FAILURE;
		o->topdown = (unsigned)n;
	}
	return 0;
}

static int opt_topdown_retired(void *opts, const char *arg)
{
	struct stat_opts *o = opts;
	if (strcmp(arg, "minstret") != 0 && strcmp(arg, "rob_commitInstr") != 0) {
		cli_error("--topdown-retired '%s': must be minstret or rob_commitInstr", arg);
		return EXIT_FAILURE;
	}
	o->retired_minstret = strcmp(arg, "minstret") == 0;
	return 0;
}

static int opt_field_separator(void *opts, const char *arg)
{
	if (!*arg) {
		cli_error("-x: the separator is empty");
		return EXIT_FAILURE;
	}
	((struct stat_opts *)opts)->sep = arg;
	return 0;
}

static int opt_interval_print(void *opts, const char *arg)
{
	uint64_t n;
	/* perf's lower bound is 10 ms */
	if (parse_number("-I", arg, 10, 3600000, &n))
		return EXIT_FAILURE;
	((struct stat_opts *)opts)->interval_ms = (double)n;
	return 0;
}

static int opt_repeat(void *opts, const char *arg)
{
	uint64_t n;
	if (parse_number("-r", arg, 1, 100000, &n))
		return EXIT_FAILURE;
	((struct stat_opts *)opts)->repeat = (unsigned)n;
	return 0;
}

static int opt_pid(void *opts, const char *arg)
{
	uint64_t n;
	if (parse_number("-p", arg, 1, INT_MAX, &n))
		return EXIT_FAILURE;
	((struct stat_opts *)opts)->pid = (int)n;
	return 0;
}

static int opt_no_aggr(void *opts, const char *arg)
{
	struct stat_opts *o = opts;
	(void)arg;
	o->no_aggr = true;
	o->aggr = STAT_AGGR_GLOBAL;
	return 0;
}

static int opt_big_num(void *opts, const char *arg)
{
	(void)arg;
	((struct stat_opts *)opts)->big_num = 1;
	return 0;
}

static int opt_no_big_num(void *opts, const char *arg)
{
	(void)arg;
	((struct stat_opts *)opts)->big_num = 0;
	return 0;
}

static int opt_nodes(void *opts, const char *arg)
{
	if (!*arg) {
		cli_error("--nodes: the list is empty");
		return EXIT_FAILURE;
	}
	((struct stat_opts *)opts)->nodes = arg;
	return 0;
}

/* perf 6.12's --per-cache[=L<n>] */
static int opt_per_cache(void *opts, const char *arg)
{
	struct stat_opts *o = opts;
	/* perf's parse_cache_level: "L2" or "l2", 1 to MAX_CACHE_LVL */
	o->cache_level = 0;
	if (arg) {
		if (strlen(arg) != 2 || (arg[0] != 'l' && arg[0] != 'L') || arg[1] < '1' ||
		    arg[1] > '9')
			return cli_usage_error("Cache level must be of form L[1-%d], or l[1-%d]",
			                       HPM_MAX_CACHE_LEVEL, HPM_MAX_CACHE_LEVEL);
		o->cache_level = arg[1] - '0';
		if (o->cache_level > HPM_MAX_CACHE_LEVEL)
			return cli_usage_error("perf only supports max cache level of %d",
			                       HPM_MAX_CACHE_LEVEL);
	}
	o->aggr = STAT_AGGR_CACHE;
	o->per_task = false;
	return 0;
}

/* --per-socket, --per-die, ...: the last aggregation option wins, as in
 * perf; --per-task is the per-thread output, a process per row. */
static int set_aggr(struct stat_opts *o, enum stat_aggr_mode mode, bool per_task)
{
	o->aggr = mode;
	o->per_task = per_task;
	if (mode != STAT_AGGR_CLUSTER)
		o->no_aggr = false;
	return 0;
}

static int opt_per_socket(void *opts, const char *arg)
{
	(void)arg;
	return set_aggr(opts, STAT_AGGR_SOCKET, false);
}

static int opt_per_die(void *opts, const char *arg)
{
	(void)arg;
	return set_aggr(opts, STAT_AGGR_DIE, false);
}

static int opt_per_core(void *opts, const char *arg)
{
	(void)arg;
	return set_aggr(opts, STAT_AGGR_CORE, false);
}

static int opt_per_node(void *opts, const char *arg)
{
	(void)arg;
	return set_aggr(opts, STAT_AGGR_NODE, false);
}

/* perf 6.12's --per-cluster */
static int opt_per_cluster(void *opts, const char *arg)
{
	(void)arg;
	return set_aggr(opts, STAT_AGGR_CLUSTER, false);
}

static int opt_per_thread(void *opts, const char *arg)
{
	(void)arg;
	return set_aggr(opts, STAT_AGGR_THREAD, false);
}

static int opt_per_task(void *opts, const char *arg)
{
	(void)arg;
	return set_aggr(opts, STAT_AGGR_THREAD, true);
}

static int opt_delay(void *opts, const char *arg)
{
	return parse_delay(arg, &((struct stat_opts *)opts)->delay_ms) ? EXIT_FAILURE : 0;
}

static int opt_emu_tasks(void *opts, const char *arg)
{
	if (arg && strcmp(arg, "truth") != 0)
		return cli_usage_error("--emu-tasks=%s: the only value is 'truth'", arg);
	((struct stat_opts *)opts)->emu_tasks = arg ? 2 : 1;
	return 0;
}

static int opt_openmetrics(void *opts, const char *arg)
{
	if (!*arg) {
		cli_error("--openmetrics: the file name is empty");
		return EXIT_FAILURE;
	}
	((struct stat_opts *)opts)->openmetrics = arg;
	return 0;
}

static int opt_openmetrics_format(void *opts, const char *arg)
{
	if (hpm_expo_format_parse(arg, &((struct stat_opts *)opts)->om_format)) {
		cli_error("--openmetrics-format '%s': must be openmetrics or prometheus", arg);
		return EXIT_FAILURE;
	}
	return 0;
}

static int opt_cgroup(void *opts, const char *arg)
{
	struct stat_opts *o = opts;
	o->cgroups = xreallocarray(o->cgroups, o->nr_cgroups + 1, sizeof(char *));
	o->cgroups[o->nr_cgroups++] = arg;
	return 0;
}

static int opt_all_user(void *opts, const char *arg)
{
	struct stat_opts *o = opts;
	(void)arg;
	/* perf applies --all-kernel after --all-user: it wins */
	if (o->level != HPM_LEVEL_KERNEL)
		o->level = HPM_LEVEL_USER;
	return 0;
}

static int opt_all_kernel(void *opts, const char *arg)
{
	(void)arg;
	((struct stat_opts *)opts)->level = HPM_LEVEL_KERNEL;
	return 0;
}

#define SO struct stat_opts
/* stat's options, in the order of getopt's table before this one (the
 * order an ambiguous abbreviation lists its candidates in); the --backend
 * and --emu-* ones go in before --help. */
static const struct cli_opt stat_options[] = {
    CLI_CALL("event", 'e', required_argument, opt_event, .argh = "EVENTS",
             .help = "comma-separated events, {...} groups; Kunminghu expressions "
                     "(hpmstat-events(7)) and host events"),
    CLI_CALL("metrics", 'M', required_argument, opt_metrics, .argh = "LIST",
             .help = "metrics or metric groups (-M help lists them)"),
    CLI_CALL("topdown", 0, optional_argument, opt_topdown, .argh = "LEVEL",
             .help = "the Topdown tree down to LEVEL (1-3, default 1)"),
    CLI_CALL("topdown-retired", 0, required_argument, opt_topdown_retired, .argh = "minstret",
             .help = "take INST_RETIRED from minstret (the default is rob_commitInstr)"),
    CLI_STRING("topdown-variant", 0, SO, topdown_variant, .argh = "NAME",
               .help = "the model's formulas by name: Kunminghu has document (XiangShan's, the "
                       "default) and slots (RECOVERY_BUBBLE counted as 6 slots a cycle)"),
    CLI_FLAG("metric-only", 0, SO, metric_only,
             .help = "print metrics only (without -M or --topdown: the default events' ratios)"),
    CLI_CALL("field-separator", 'x', required_argument, opt_field_separator, .argh = "SEP",
             .help = "CSV output with perf stat's field order"),
    CLI_FLAG("json", 'j', SO, json, .help = "perf's JSON lines"),
    CLI_STRING("output", 'o', SO, output, .argh = "FILE", .help = "write the output to FILE"),
    CLI_CALL("interval-print", 'I', required_argument, opt_interval_print, .argh = "MS",
             .help = "print counts every MS milliseconds"),
    CLI_CALL("repeat", 'r', required_argument, opt_repeat, .argh = "N",
             .help = "run N times, print means and ( +- x% )"),
    CLI_CALL("pid", 'p', required_argument, opt_pid, .argh = "PID",
             .help = "count an existing process"),
    CLI_FLAG("all-cpus", 'a', SO, all_cpus, .help = "system-wide, every CPU"),
    CLI_STRING("cpu", 'C', SO, cpus, .argh = "LIST", .help = "only these CPUs (0-3,5)"),
    CLI_CALL("no-aggr", 'A', no_argument, opt_no_aggr, .help = "per CPU or per hart, not summed"),
    CLI_FLAG("verbose", 'v', SO, verbose,
             .help = "show where each event is counted; with --topdown, also describes each node "
                     "on the bottleneck path"),
    CLI_FLAG("dry-run", 0, SO, dry_run, .help = "print the perf_event_attr or CSR writes and exit"),
    CLI_STRING("record", 0, SO, record, .argh = "FILE",
               .help = "write a run file (hpmstat-run(5)) for hpmstat report"),
    CLI_INCLUDE(backend_options),
    CLI_HELP("help", 'h', .help = "this text"),
    /* output shapes */
    CLI_CALL("big-num", 'B', no_argument, opt_big_num,
             .help = "group std counts as the locale does (the default)"),
    CLI_CALL("no-big-num", 0, no_argument, opt_no_big_num,
             .help = "std counts without thousands separators"),
    CLI_FLAG("summary", 0, SO, summary, .help = "with -I: the whole run's counts at the end"),
    CLI_FLAG("no-csv-summary", 0, SO, no_csv_summary,
             .help = "with -x: no 'summary' field before them"),
    CLI_FLAG("json-extra", 0, SO, json_extra,
             .help = "with -j: add hpmstat's own keys (emulated, metric, topdown-level, "
                     "bottleneck, hart...) to perf's"),
    CLI_FLAG("table", 0, SO, run_table, .help = "with -r: each run's elapsed time"),
    CLI_CALL("cgroup", 'G', required_argument, opt_cgroup, .argh = "NAME[,NAME]",
             .help = "with -a: count the n-th event in the n-th cgroup (one NAME: every event), "
                     "relative to the cgroup mount"),
    CLI_CALL("all-user", 0, no_argument, opt_all_user,
             .help = "count every event in user mode only"),
    CLI_CALL("all-kernel", 0, no_argument, opt_all_kernel,
             .help = "count every event in kernel mode only"),
    CLI_COUNT("detailed", 'd', SO, detailed,
              .help = "add cache, TLB and branch events (-dd, -ddd more; Kunminghu's on Kunminghu, "
                      "perf's elsewhere)"),
    CLI_LEVEL("level", 'l', SO, topdown, .argh = "N",
              .help = "toplev's spelling of --topdown=N (-l1, -l 2)"),
    CLI_CALL("nodes", 0, required_argument, opt_nodes, .argh = "LIST",
             .help = "Topdown nodes, as toplev: NODE, +NODE adds, -NODE or ^NODE removes, NODE* "
                     "with its subtree, !LIST only those (implies --topdown)"),
    CLI_FLAG("show-sample", 0, SO, show_sample,
             .help = "the hpmstat record command that samples the Topdown even when no node is a "
                     "bottleneck (as toplev's)"),
    CLI_FLAG("no-multiplex", 0, SO, no_multiplex,
             .help = "run the workload (or the emulated stream) once per counter group instead of "
                     "multiplexing"),
    CLI_CALL("per-socket", 0, no_argument, opt_per_socket,
             .help = "counts per socket (with -a or -C; emulated harts: one socket)"),
    CLI_CALL("per-die", 0, no_argument, opt_per_die, .help = "counts per die (with -a or -C)"),
    CLI_CALL("per-core", 0, no_argument, opt_per_core,
             .help = "counts per core (with -a or -C; harts are cores)"),
    CLI_CALL("per-node", 0, no_argument, opt_per_node,
             .help = "counts per NUMA node (with -a or -C)"),
    CLI_CALL("per-cluster", 0, no_argument, opt_per_cluster,
             .help = "counts per CPU cluster (with -a or -C)"),
    CLI_CALL("per-cache", 0, optional_argument, opt_per_cache, .argh = "L<n>",
             .help = "counts per instance of the level n cache, by default of the last level (with "
                     "-a or -C)"),
    CLI_CALL("per-thread", 0, no_argument, opt_per_thread,
             .help = "counts per thread (with -p, -t or -a; -a through BPF when it loads; "
                     "emulated: per task of a profile's task schedule)"),
    CLI_CALL("per-task", 0, no_argument, opt_per_task,
             .help = "counts per process (with -a; through BPF when it loads)"),
    CLI_FLAG("bpf-counters", 0, SO, bpf_counters,
             .help = "count the target with per-CPU counters whose deltas BPF charges to its tasks "
                     "at each context switch (perf's)"),
    CLI_STRING("tid", 't', SO, tids, .argh = "TID[,TID...]", .help = "count existing threads"),
    CLI_FLAG("no-merge", 0, SO, no_merge,
             .help = "do not merge events of one name from several PMUs (hpmstat never does: "
                     "accepted for perf's scripts)"),
    CLI_CALL("td-level", 0, required_argument, opt_td_level, .argh = "N",
             .help = "perf's spelling of --topdown=N (0: level 3)"),
    /* perf's metric grouping: hpmstat schedules a metric's events by its
     * own rules (hpmstat-stat(1), --no-multiplex) */
    CLI_IGNORE("metric-no-group", 0, no_argument, .help = "accepted for perf's scripts"),
    CLI_IGNORE("metric-no-merge", 0, no_argument, .help = "accepted for perf's scripts"),
    CLI_U64("interval-count", 0, SO, interval_count, 0, UINT32_MAX, .argh = "N",
            .help = "with -I: stop after N intervals"),
    CLI_U64("timeout", 0, SO, timeout_ms, 0, UINT32_MAX, .argh = "MS",
            .help = "stop after MS ms (the command gets SIGTERM)"),
    CLI_CALL("delay", 'D', required_argument, opt_delay, .argh = "MS",
             .help = "count from MS ms after the command starts (-1: never; emulated: skip MS of "
                     "emulated time)"),
    CLI_FLAG("null", 'n', SO, null_run, .help = "no counters: the elapsed time only"),
    CLI_FLAG("append", 0, SO, append, .help = "with -o: add to the end of the file"),
    CLI_STRING("pmu", 0, SO, pmu, .argh = "MODEL",
               .help = "count MODEL's events (hpmstat list shows the models)"),
    CLI_CALL("emu-tasks", 0, optional_argument, opt_emu_tasks, .argh = "truth",
             .help = "per-task counts of a profile's task schedule, charged at each emulated "
                     "context switch (=truth: beside the emulator's ground truth)"),
    CLI_FLAG("quiet", 'q', SO, quiet, .help = "print no counts (errors still show)"),
    CLI_CALL("openmetrics", 0, required_argument, opt_openmetrics, .argh = "FILE",
             .help = "write the counts and Topdown for Prometheus to FILE (replaced atomically "
                     "after each -I interval)"),
    CLI_CALL("openmetrics-format", 0, required_argument, opt_openmetrics_format, .argh = "F",
             .help = "openmetrics (default) or prometheus (text 0.0.4, as node_exporter's textfile "
                     "collector reads)"),
    {0},
};
#undef SO

/* -t and the aggregation modes, with perf's rules and messages: 0 or the
 * exit status. */
static int check_target(struct stat_opts *o)
{
	if (o->tids) {
		uint64_t tid;
		char first[24];
		snprintf(first, sizeof(first), "%.*s", (int)strcspn(o->tids, ","), o->tids);
		if (o->pid > 0) {
			cli_warn("warning: PID/TID switch overriding TID");
			o->tids = NULL;
		} else if (parse_number("-t", first, 1, INT_MAX, &tid)) {
			return EXIT_FAILURE;
		} else {
			/* the first thread stands for the target: the run ends with it */
			o->pid = (int)tid;
			if (o->all_cpus || o->cpus)
				cli_warn("warning: PID/TID switch overriding %s",
				         o->cpus ? "CPU" : "SYSTEM");
			o->all_cpus = false;
			o->cpus = NULL;
		}
	}
	if (o->per_task && (o->tids || o->pid > 0 || o->cpus || (o->argv && !o->all_cpus)))
		return cli_usage_error("--per-task counts every process of the system: use it with "
		                       "-a (or no target)");
	if (o->aggr == STAT_AGGR_THREAD && !o->tids && o->pid <= 0 &&
	    (o->cpus || (o->argv && !o->all_cpus)))
		return cli_usage_error("The --per-thread option is only available when monitoring "
		                       "via -p -t -a options or only --per-thread.");
	if (o->bpf_counters && o->interval_ms > 0 && o->aggr == STAT_AGGR_THREAD && !o->tids &&
	    o->pid <= 0)
		return cli_usage_error("--bpf-counters with -a --per-thread or --per-task and -I "
		                       "exclude each other");
	if (o->aggr == STAT_AGGR_THREAD && o->metric_only)
		return cli_usage_error("--metric-only is not supported with --per-thread");
	if (o->aggr != STAT_AGGR_GLOBAL && o->aggr != STAT_AGGR_THREAD &&
	    (o->pid > 0 || (o->argv && !o->all_cpus && !o->cpus)))
		return cli_usage_error("both cgroup and no-aggregation modes only available in "
		                       "system-wide mode");
	return 0;
}

/* The options that exclude or need each other: 0 or the exit status. */
static int check_combinations(const struct stat_opts *o)
{
	if (o->sep && o->json)
		return cli_usage_error("-x and -j exclude each other");
	if (o->emu.profile && o->emu.trace)
		return cli_usage_error("--emu-profile and --emu-trace exclude each other");
	/* -a and -C: when their events are known (plan_counting) */
	if (o->repeat > 1 && !o->argv && o->pid > 0)
		return cli_usage_error("-r needs a command");
	if (o->repeat > 1 && o->interval_ms > 0)
		return cli_usage_error("-r and -I exclude each other");
	/* output shapes, as perf checks them */
	if (o->big_num == 1 && o->sep)
		return cli_usage_error("-B is not supported with -x");
	if (o->run_table && o->repeat <= 1)
		return cli_usage_error("--table is only supported with -r");
	if (o->no_multiplex && o->interval_ms > 0)
		return cli_usage_error("--no-multiplex and -I exclude each other");
	if (o->emu_tasks && o->no_multiplex)
		/* the groups run in sessions of their own: no one schedule to charge */
		return cli_usage_error("--emu-tasks and --no-multiplex exclude each other");
	if (o->no_multiplex && o->pid > 0)
		return cli_usage_error("--no-multiplex needs a command, not -p: it runs the "
		                       "workload once per counter group");
	return run_control_check(o);
}

/* stat's options: the back end's where they say stat's defaults */
static const struct cli_opt stat_backend_help[] = {
    {.name = "emu-cycles", .argh = "N", .help = "emulated cycles per hart; they end the run (1e9)"},
    {.name = "emu-freq", .argh = "HZ", .help = "emulated clock, for time and with a command"},
    {0},
};

static const struct cli_opts stat_spec = {.table = stat_options,
                                          .prefix = "+:",
                                          .features = BACKEND_OPTS_CYCLES,
                                          .help_override = stat_backend_help};

void cmd_stat_usage(FILE *out)
{
	cli_opts_usage(out, &stat_spec, stat_usage_head, stat_usage_tail);
}

/* The options into o: 0, -1 when done (--help), else the exit status. */
static int parse_opts(int argc, char **argv, struct stat_opts *o)
{
	struct backend_opts bo = {
	    .backend = &o->backend, .emu = &o->emu, .emu_given = &o->emu_given};
	struct cli_opts spec = stat_spec;
	spec.include_ctx = &bo;
	int rc = cli_opts_parse(&spec, argc, argv, o);
	if (rc)
		return rc;
	if (optind < argc)
		o->argv = argv + optind;
	/* toplev: --nodes works on the tree, by default from level 1 */
	if ((o->nodes || o->show_sample) && !o->topdown)
		o->topdown = 1;
	if ((rc = check_target(o)))
		return rc;
	if (o->argv && strcmp(argv[optind - 1], "--") != 0) {
		/* --topdown's level is optional, so getopt takes it only after '=':
		 * "--topdown 2" would run a command named 2 */
		if (strcmp(argv[optind - 1], "--topdown") == 0 &&
		    strspn(o->argv[0], "0123456789") == strlen(o->argv[0]))
			return cli_usage_error("'--topdown %s': the level is written --topdown=%s "
			                       "(put -- before a command named %s)",
			                       o->argv[0], o->argv[0], o->argv[0]);
	}
	return check_combinations(o);
}

/* The options, and perf's `stat report` and `stat record` (stat-record.c):
 * the options of stat go before and after the word, as in perf. 0, -1
 * when done (--help), else the exit status. */
int stat_cmd_parse(struct stat_cmd *c, int argc, char **argv)
{
	struct stat_opts *o = &c->o;
	int rc = parse_opts(argc, argv, o);
	c->sub = !rc && o->argv ? stat_subcommand(o->argv[0]) : STAT_SUB_NONE;
	if (c->sub == STAT_SUB_REPORT)
		return cmd_stat_report((int)(argc - (o->argv - argv)), o->argv, o->sep, o->json);
	if (c->sub == STAT_SUB_RECORD) {
		char **rest = o->argv;
		o->argv = NULL;
		rc = parse_opts((int)(argc - (rest - argv)), rest, o);
		if (!rc)
			rc = stat_record_paths(&o->output, o->record, &o->data, o->repeat);
	}
	if (rc)
		return rc;
	/* perf refuses an empty -o before anything runs; one file cannot
	 * hold both the counts and the run file */
	if (o->output && !*o->output)
		return cli_usage_error("-o: the file name is empty");
	if (o->record && !*o->record)
		return cli_usage_error("--record: the file name is empty");
	if (o->output && o->record && outfile_same(o->output, o->record))
		return cli_usage_error("-o '%s' and --record '%s' are the same file", o->output,
		                       o->record);
	return 0;
}

/* serve's rules (stat-sink.h), after the options: 0 or the exit status. */
int stat_serve_defaults(struct stat_opts *o)
{
	if (o->repeat > 1)
		return cli_usage_error("-r: serve counts continuously, it does not repeat");
	if (o->record)
		return cli_usage_error("--record: serve writes no run file");
	if (o->no_multiplex)
		return cli_usage_error("--no-multiplex: serve counts continuously, once");
	if (o->interval_ms <= 0)
		o->interval_ms = 1000;
	if (!o->argv && o->pid <= 0 && !o->cpus)
		o->all_cpus = true;
	if (!o->output)
		o->quiet = true;
	return 0;
}
