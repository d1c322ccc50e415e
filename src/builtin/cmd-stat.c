/* cmd-stat.c: hpmstat stat: count events of a command, a process, CPUs or the
 * emulated harts, as perf stat does, and compute Topdown.
 *
 * Owns: the command: its options and their checks, the loop of one run
 * (run control: -I, -D, --timeout, following the command with the
 * emulator) and the order of the phases. cmd_stat is a straight line over
 * one struct (struct stat_cmd, every default in its options) with one
 * cleanup label. The measurement itself is src/stat/session.c, the
 * workload child src/core/workload.c, the repeat statistics
 * src/stat/noise.c, the output src/stat/print-*.c and builtin/cli.c's
 * struct cli_output, the run file src/stat/record.c, the --openmetrics
 * file src/export/openmetrics.c. `hpmstat serve` is this command with a
 * sink that gets each interval's values (stat-sink.h, cmd-serve.c).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "builtin/backend-opts.h"
#include "builtin/builtin.h"
#include "builtin/cmd-stat-record.h"
#include "builtin/stat-sample.h"
#include "builtin/stat-sink.h"
#include "export/openmetrics.h"
#include "core/workload.h"
#include "metric/metric.h"
#include "stat/noise.h"
#include "stat/nomux.h"
#include "backend/topology.h"
#include "stat/aggr.h"
#include "stat/emu-tasks.h"
#include "stat/perf-stat.h"
#include "stat/record.h"
#include "stat/session.h"
#include "stat/stat.h"
#include "util/clock.h"
#include "util/outfile.h"
#include "util/xalloc.h"

const char cmd_stat_usage[] =
    "Usage: hpmstat stat [options] [-- command [args]]\n"
    "\n"
    "Count events while a command runs (or for a process, CPUs, or the emulated\n"
    "Kunminghu harts) and print them as perf stat does, with Topdown metrics.\n"
    "\n"
    "  -e, --event EVENTS        comma-separated events, {...} groups; Kunminghu\n"
    "                            expressions (hpmstat-events(7)) and host events\n"
    "  -M, --metrics LIST        metrics or metric groups (-M help lists them)\n"
    "      --topdown[=LEVEL]     the Topdown tree down to LEVEL (1-3, default 1)\n"
    "      --topdown-retired=minstret  take INST_RETIRED from minstret (the\n"
    "                            default is rob_commitInstr)\n"
    "      --topdown-variant=NAME  the model's formulas by name: Kunminghu has\n"
    "                            document (XiangShan's, the default) and slots\n"
    "                            (RECOVERY_BUBBLE counted as 6 slots a cycle)\n"
    "      --metric-only         print metrics only (without -M or --topdown: the\n"
    "                            default events' ratios)\n"
    "      --td-level N          perf's spelling of --topdown=N (0: level 3)\n"
    "      --metric-no-group, --metric-no-merge  accepted for perf's scripts\n"
    "  -x, --field-separator SEP CSV output with perf stat's field order\n"
    "  -j, --json                perf's JSON lines\n"
    "  -o, --output FILE         write the output to FILE\n"
    "  -I, --interval-print MS   print counts every MS milliseconds\n"
    "  -r, --repeat N            run N times, print means and ( +- x% )\n"
    "  -p, --pid PID             count an existing process\n"
    "  -a, --all-cpus            system-wide, every CPU\n"
    "  -C, --cpu LIST            only these CPUs (0-3,5)\n"
    "  -A, --no-aggr             per CPU or per hart, not summed\n"
    "  -v, --verbose             show where each event is counted\n"
    "      --dry-run             print the perf_event_attr or CSR writes and exit\n"
    "      --record FILE         write a run file (hpmstat-run(5)) for hpmstat report\n"
    "      --backend B           auto (default), perf or emu\n"
    "      --pmu MODEL           count MODEL's events (hpmstat list shows the models)\n"
    "      --emu-profile NAME    emulator workload profile or file (default balanced)\n"
    "      --emu-trace FILE      replay a trace instead of a profile\n"
    "      --emu-pmu NAME        Arm emulator feature profile (n1, v1, n2, v2, future)\n"
    "      --emu-seed N          workload seed (default 1)\n"
    "      --emu-cycles N        emulated cycles per hart; they end the run (1e9)\n"
    "      --emu-harts N         emulated harts (default 1)\n"
    "      --emu-freq HZ         emulated clock, for time and with a command\n"
    "      --emu-tasks[=truth]   per-task counts of a profile's task schedule, charged\n"
    "                            at each emulated context switch (=truth: beside the\n"
    "                            emulator's ground truth)\n"
    "  -l, --level N             toplev's spelling of --topdown=N (-l1, -l 2)\n"
    "      --nodes LIST          Topdown nodes, as toplev: NODE, +NODE adds, -NODE or\n"
    "                            ^NODE removes, NODE* with its subtree, !LIST only\n"
    "                            those (implies --topdown)\n"
    "      --show-sample         the hpmstat record command that samples the Topdown\n"
    "                            even when no node is a bottleneck (as toplev's)\n"
    "      --no-multiplex        run the workload (or the emulated stream) once per\n"
    "                            counter group instead of multiplexing\n"
    "  -v with --topdown         also describes each node on the bottleneck path\n"
    "      --per-socket          counts per socket (with -a or -C; emulated harts:\n"
    "                            one socket)\n"
    "      --per-die             counts per die (with -a or -C)\n"
    "      --per-core            counts per core (with -a or -C; harts are cores)\n"
    "      --per-node            counts per NUMA node (with -a or -C)\n"
    "      --per-cluster         counts per CPU cluster (with -a or -C)\n"
    "      --per-cache[=L<n>]    counts per instance of the level n cache, by default\n"
    "                            of the last level (with -a or -C)\n"
    "      --per-thread          counts per thread (with -p, -t or -a; -a through BPF\n"
    "                            when it loads; emulated: per task of a profile's\n"
    "                            task schedule)\n"
    "      --per-task            counts per process (with -a; through BPF when it loads)\n"
    "      --bpf-counters        count the target with per-CPU counters whose deltas BPF\n"
    "                            charges to its tasks at each context switch (perf's)\n"
    "  -t, --tid TID[,TID...]    count existing threads\n"
    "      --no-merge            do not merge events of one name from several PMUs\n"
    "                            (hpmstat never does: accepted for perf's scripts)\n"
    "      --interval-count N    with -I: stop after N intervals\n"
    "      --timeout MS          stop after MS ms (the command gets SIGTERM)\n"
    "  -D, --delay MS            count from MS ms after the command starts\n"
    "                            (-1: never; emulated: skip MS of emulated time)\n"
    "  -n, --null                no counters: the elapsed time only\n"
    "      --append              with -o: add to the end of the file\n"
    "  -q, --quiet               print no counts (errors still show)\n"
    "      --openmetrics FILE    write the counts and Topdown for Prometheus to FILE\n"
    "                            (replaced atomically after each -I interval)\n"
    "      --openmetrics-format F  openmetrics (default) or prometheus (text 0.0.4,\n"
    "                            as node_exporter's textfile collector reads)\n"
    "  -h, --help                this text\n"
    "  -B, --big-num             group std counts as the locale does (the default)\n"
    "      --no-big-num          std counts without thousands separators\n"
    "      --summary             with -I: the whole run's counts at the end\n"
    "      --no-csv-summary      with -x: no 'summary' field before them\n"
    "      --table               with -r: each run's elapsed time\n"
    "  -G, --cgroup NAME[,NAME]  with -a: count the n-th event in the n-th cgroup\n"
    "                            (one NAME: every event), relative to the cgroup mount\n"
    "      --all-user            count every event in user mode only\n"
    "      --all-kernel          count every event in kernel mode only\n"
    "  -d, --detailed            add cache, TLB and branch events (-dd, -ddd more;\n"
    "                            Kunminghu's on Kunminghu, perf's elsewhere)\n"
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

enum {
	OPT_TOPDOWN = 256,
	OPT_TOPDOWN_RETIRED,
	OPT_TOPDOWN_VARIANT,
	OPT_METRIC_ONLY,
	OPT_DRY_RUN,
	OPT_RECORD,
	/* output shapes */
	OPT_NO_BIG_NUM,
	OPT_SUMMARY,
	OPT_NO_CSV_SUMMARY,
	OPT_TABLE,
	OPT_ALL_USER,
	OPT_ALL_KERNEL,
	OPT_NODES,
	OPT_SHOW_SAMPLE,
	OPT_NO_MULTIPLEX,
	OPT_PER_SOCKET,
	OPT_PER_DIE,
	OPT_PER_CORE,
	OPT_PER_NODE,
	OPT_PER_CLUSTER,
	OPT_PER_CACHE,
	OPT_PER_THREAD,
	OPT_PER_TASK,
	OPT_BPF_COUNTERS,
	OPT_NO_MERGE,
	/* perf 6.12's metric spellings */
	OPT_TD_LEVEL,
	OPT_METRIC_NO_GROUP,
	OPT_METRIC_NO_MERGE,
	OPT_INTERVAL_COUNT,
	OPT_TIMEOUT,
	OPT_APPEND,
	OPT_PMU,
	OPT_EMU_TASKS,
	OPT_OPENMETRICS,
	OPT_OPENMETRICS_FORMAT,
};

/* --per-thread on emulated events without a task schedule to show. */
#define EMU_PER_THREAD_NO                                                                          \
	"--per-thread: emulated events count harts, not threads (use --per-core, or a "            \
	"profile with [task] sections)"

/* Every default in one place. */
struct stat_opts {
	const char **events;
	unsigned nr_events;
	const char **metrics;
	unsigned nr_metrics;
	unsigned topdown;
	bool retired_minstret;
	const char *topdown_variant; /* --topdown-variant: a named variant of the metrics */
	bool metric_only;
	const char *sep;
	bool json;
	const char *output;
	double interval_ms;
	unsigned repeat;
	int pid;
	bool all_cpus;
	const char *cpus;
	bool no_aggr;
	bool verbose;
	bool dry_run;
	const char *record;
	const char *data; /* stat record: perf's stat file (-o, perf.data) */
	const char *pmu; /* --pmu: the model counted instead of the host's */
	enum hpm_backend_choice backend;
	struct hpm_emu_config emu;
	bool emu_given; /* any --emu-* option */
	char **argv;    /* the command */
	/* output shapes */
	int big_num; /* -B 1, --no-big-num 0, neither -1 */
	bool summary;
	bool no_csv_summary;
	bool run_table;

	/* -G lists in order; --all-user / --all-kernel; how many -d */
	const char **cgroups;
	unsigned nr_cgroups;
	enum hpm_level_only level;
	unsigned detailed;

	/* toplev's Topdown options */
	const char *nodes; /* --nodes LIST */
	bool show_sample;  /* --show-sample: the sampling hint always */
	bool no_multiplex; /* --no-multiplex: one run per counter group */
	/* aggregation (stat/aggr.h): --per-*, -A clears it; the last one wins */
	enum stat_aggr_mode aggr;
	bool per_task;     /* --per-task: STAT_AGGR_THREAD with a unit per process */
	int cache_level;   /* --per-cache=L<n>: n; 0 (no level) the last level */
	bool bpf_counters; /* --bpf-counters (hpm_target.bpf) */
	const char *tids;  /* -t LIST */
	bool no_merge;     /* --no-merge: nothing to split, see hpmstat-stat(1) */
	/* run control, as perf stat's options of the same names */
	uint64_t interval_count; /* --interval-count: 0 no limit */
	uint64_t timeout_ms;     /* --timeout: 0 none */
	int64_t delay_ms;        /* -D: 0 none, -1 never enabled */
	bool null_run;           /* -n: no default events */
	bool append;             /* --append to -o FILE */
	bool quiet;              /* -q: no counts printed */
	/* --emu-tasks[=truth]: the emulator's per-task table after the counts
	 * (0 none, 1 attributed, 2 with the ground truth); with --per-thread on
	 * the emulator alone, that table in place of the counts */
	int emu_tasks;
	bool emu_per_thread;
	/* --openmetrics FILE and its format (export/openmetrics.h) */
	const char *openmetrics;
	enum hpm_expo_format om_format;
};

/* Signals. SIGINT and SIGTERM stop the counting: the loops look at
 * stat_signal at least every EMU_BUDGET_NS, the counts so far are printed
 * (labelled partial where emulated cycles were cut short), and hpmstat
 * then dies of the same signal, as perf stat does (sig_atexit re-raises
 * it), so that the shell sees 130 or 143 and a script running hpmstat
 * stops as well. A command is never left behind: a signal sent to hpmstat
 * alone (kill, si_code SI_USER) is passed on to it, one from the terminal
 * (SI_KERNEL) already reached its process group, and hpmstat waits for it
 * to end (perf's wait4) however many signals it traps, then reports its
 * real status, times and counts. */
static volatile sig_atomic_t stat_signal; /* the last SIGINT/SIGTERM, 0: none */

#define stat_interrupted (stat_signal != 0)

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	stat_signal = sig;
	hpm_workload_pass_signal(sig, si);
}

/* Real time the emulator runs between looks at signals, the clock and the
 * command: far under the 100 ms in which a signal must be noticed. */
#define EMU_BUDGET_NS UINT64_C(20000000)
/* Following a command, the emulator wakes this often when it has caught up
 * with wall time (the CPU cost per second is the same at any period; a
 * short one keeps the work left when the command ends small). */
#define EMU_FOLLOW_PERIOD_MS 100
/* ... and runs once it is this far behind: less, and it would chase the
 * clock a few cycles at a time instead of sleeping. */
#define EMU_FOLLOW_SLACK_MS 10
/* Once the command has ended, the emulator may spend this long catching up
 * with its end; what is still missing then is reported as falling behind. */
#define EMU_CATCHUP_NS UINT64_C(50000000)

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

/* stat's own long options, before and after the back-end ones
 * (backend-opts.h) */
static const struct option stat_longopts_head[] = {
    {"event", required_argument, NULL, 'e'},
    {"metrics", required_argument, NULL, 'M'},
    {"topdown", optional_argument, NULL, OPT_TOPDOWN},
    {"topdown-retired", required_argument, NULL, OPT_TOPDOWN_RETIRED},
    {"topdown-variant", required_argument, NULL, OPT_TOPDOWN_VARIANT},
    {"metric-only", no_argument, NULL, OPT_METRIC_ONLY},
    {"field-separator", required_argument, NULL, 'x'},
    {"json", no_argument, NULL, 'j'},
    {"output", required_argument, NULL, 'o'},
    {"interval-print", required_argument, NULL, 'I'},
    {"repeat", required_argument, NULL, 'r'},
    {"pid", required_argument, NULL, 'p'},
    {"all-cpus", no_argument, NULL, 'a'},
    {"cpu", required_argument, NULL, 'C'},
    {"no-aggr", no_argument, NULL, 'A'},
    {"verbose", no_argument, NULL, 'v'},
    {"dry-run", no_argument, NULL, OPT_DRY_RUN},
    {"record", required_argument, NULL, OPT_RECORD},
    {NULL, 0, NULL, 0},
};
static const struct option stat_longopts_tail[] = {
    {"help", no_argument, NULL, 'h'},
    /* output shapes */
    {"big-num", no_argument, NULL, 'B'},
    {"no-big-num", no_argument, NULL, OPT_NO_BIG_NUM},
    {"summary", no_argument, NULL, OPT_SUMMARY},
    {"no-csv-summary", no_argument, NULL, OPT_NO_CSV_SUMMARY},
    {"table", no_argument, NULL, OPT_TABLE},
    {"cgroup", required_argument, NULL, 'G'},
    {"all-user", no_argument, NULL, OPT_ALL_USER},
    {"all-kernel", no_argument, NULL, OPT_ALL_KERNEL},
    {"detailed", no_argument, NULL, 'd'},
    {"level", required_argument, NULL, 'l'},
    {"nodes", required_argument, NULL, OPT_NODES},
    {"show-sample", no_argument, NULL, OPT_SHOW_SAMPLE},
    {"no-multiplex", no_argument, NULL, OPT_NO_MULTIPLEX},
    {"per-socket", no_argument, NULL, OPT_PER_SOCKET},
    {"per-die", no_argument, NULL, OPT_PER_DIE},
    {"per-core", no_argument, NULL, OPT_PER_CORE},
    {"per-node", no_argument, NULL, OPT_PER_NODE},
    {"per-cluster", no_argument, NULL, OPT_PER_CLUSTER},
    {"per-cache", optional_argument, NULL, OPT_PER_CACHE},
    {"per-thread", no_argument, NULL, OPT_PER_THREAD},
    {"per-task", no_argument, NULL, OPT_PER_TASK},
    {"bpf-counters", no_argument, NULL, OPT_BPF_COUNTERS},
    {"tid", required_argument, NULL, 't'},
    {"no-merge", no_argument, NULL, OPT_NO_MERGE},
    {"td-level", required_argument, NULL, OPT_TD_LEVEL},
    {"metric-no-group", no_argument, NULL, OPT_METRIC_NO_GROUP},
    {"metric-no-merge", no_argument, NULL, OPT_METRIC_NO_MERGE},
    {"interval-count", required_argument, NULL, OPT_INTERVAL_COUNT},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"delay", required_argument, NULL, 'D'},
    {"null", no_argument, NULL, 'n'},
    {"append", no_argument, NULL, OPT_APPEND},
    {"pmu", required_argument, NULL, OPT_PMU},
    {"emu-tasks", optional_argument, NULL, OPT_EMU_TASKS},
    {"quiet", no_argument, NULL, 'q'},
    {"openmetrics", required_argument, NULL, OPT_OPENMETRICS},
    {"openmetrics-format", required_argument, NULL, OPT_OPENMETRICS_FORMAT},
    {NULL, 0, NULL, 0},
};

static int parse_opts_in(int argc, char **argv, struct stat_opts *o, const struct option *longopts)
{
	const struct backend_opts backend = {
	    .backend = &o->backend, .emu = &o->emu, .emu_given = &o->emu_given};
	uint64_t n;
	int c;

	opterr = 0;
	optind = 1;
	/* '+': the first non-option starts the command, as in perf */
	while ((c = getopt_long(argc, argv, "+:e:M:x:jo:I:r:p:aC:AvhBG:dl:t:D:nq", longopts,
	                        NULL)) != -1) {
		switch (c) {
		case 'e':
			o->events = xreallocarray(o->events, o->nr_events + 1, sizeof(char *));
			o->events[o->nr_events++] = optarg;
			break;
		case 'M':
			/* -M help: what -M takes, as hpmstat list metric metricgroup */
			if (strcmp(optarg, "help") == 0) {
				char w0[] = "list", w1[] = "metric", w2[] = "metricgroup";
				char *list_argv[] = {w0, w1, w2, NULL};
				int status = cmd_list(3, list_argv);
				return status ? status : -1;
			}
			o->metrics = xreallocarray(o->metrics, o->nr_metrics + 1, sizeof(char *));
			/* perf 6.12's -M Default, the metric group of its default run:
			 * on the cores whose Default perf defines (Intel) it is Topdown
			 * level 1, which is what hpmstat's models have */
			o->metrics[o->nr_metrics++] =
			    strcasecmp(optarg, "Default") == 0 ? "TopdownL1" : optarg;
			break;
		/* perf 6.12: --td-level N is --topdown=N, 0 the deepest level */
		case OPT_TD_LEVEL:
			if (parse_number("--td-level", optarg, 0, 3, &n))
				return EXIT_FAILURE;
			o->topdown = n ? (unsigned)n : 3;
			break;
		/* perf's metric grouping: hpmstat schedules a metric's events by
		 * its own rules (hpmstat-stat(1), --no-multiplex) */
		case OPT_METRIC_NO_GROUP:
		case OPT_METRIC_NO_MERGE:
			break;
		case OPT_TOPDOWN:
			o->topdown = 1;
			if (optarg) {
				if (parse_number("--topdown", optarg, 1, 3, &n))
					return EXIT_FAILURE;
				o->topdown = (unsigned)n;
			}
			break;
		case OPT_TOPDOWN_RETIRED:
			if (strcmp(optarg, "minstret") != 0 &&
			    strcmp(optarg, "rob_commitInstr") != 0) {
				cli_error(
				    "--topdown-retired '%s': must be minstret or rob_commitInstr",
				    optarg);
				return EXIT_FAILURE;
			}
			o->retired_minstret = strcmp(optarg, "minstret") == 0;
			break;
		case OPT_TOPDOWN_VARIANT:
			o->topdown_variant = optarg;
			break;
		case OPT_METRIC_ONLY:
			o->metric_only = true;
			break;
		case 'x':
			if (!*optarg) {
				cli_error("-x: the separator is empty");
				return EXIT_FAILURE;
			}
			o->sep = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'I':
			/* perf's lower bound is 10 ms */
			if (parse_number("-I", optarg, 10, 3600000, &n))
				return EXIT_FAILURE;
			o->interval_ms = (double)n;
			break;
		case 'r':
			if (parse_number("-r", optarg, 1, 100000, &n))
				return EXIT_FAILURE;
			o->repeat = (unsigned)n;
			break;
		case 'p':
			if (parse_number("-p", optarg, 1, INT_MAX, &n))
				return EXIT_FAILURE;
			o->pid = (int)n;
			break;
		case 'a':
			o->all_cpus = true;
			break;
		case 'C':
			o->cpus = optarg;
			break;
		case 'A':
			o->no_aggr = true;
			o->aggr = STAT_AGGR_GLOBAL;
			break;
		case 'v':
			o->verbose = true;
			break;
		case OPT_DRY_RUN:
			o->dry_run = true;
			break;
		case OPT_RECORD:
			o->record = optarg;
			break;
		/* output shapes */
		case 'B':
			o->big_num = 1;
			break;
		case OPT_NO_BIG_NUM:
			o->big_num = 0;
			break;
		case OPT_SUMMARY:
			o->summary = true;
			break;
		case OPT_NO_CSV_SUMMARY:
			o->no_csv_summary = true;
			break;
		case OPT_TABLE:
			o->run_table = true;
			break;
		case 'l':
			/* toplev's -l N: the Topdown level */
			if (cli_parse_topdown_level("-l", optarg, &n))
				return EXIT_FAILURE;
			o->topdown = (unsigned)n;
			break;
		case OPT_SHOW_SAMPLE:
			o->show_sample = true;
			break;
		case OPT_NODES:
			if (!*optarg) {
				cli_error("--nodes: the list is empty");
				return EXIT_FAILURE;
			}
			o->nodes = optarg;
			break;
		case OPT_NO_MULTIPLEX:
			o->no_multiplex = true;
			break;
		/* perf 6.12's --per-cluster and --per-cache[=L<n>] */
		case OPT_PER_CLUSTER:
			o->aggr = STAT_AGGR_CLUSTER;
			o->per_task = false;
			break;
		case OPT_PER_CACHE:
			/* perf's parse_cache_level: "L2" or "l2", 1 to MAX_CACHE_LVL */
			o->cache_level = 0;
			if (optarg) {
				if (strlen(optarg) != 2 || (optarg[0] != 'l' && optarg[0] != 'L') ||
				    optarg[1] < '1' || optarg[1] > '9')
					return cli_usage_error(
					    "Cache level must be of form L[1-%d], or l[1-%d]",
					    HPM_MAX_CACHE_LEVEL, HPM_MAX_CACHE_LEVEL);
				o->cache_level = optarg[1] - '0';
				if (o->cache_level > HPM_MAX_CACHE_LEVEL)
					return cli_usage_error(
					    "perf only supports max cache level of %d",
					    HPM_MAX_CACHE_LEVEL);
			}
			o->aggr = STAT_AGGR_CACHE;
			o->per_task = false;
			break;
		case OPT_PER_SOCKET:
		case OPT_PER_DIE:
		case OPT_PER_CORE:
		case OPT_PER_NODE:
		case OPT_PER_THREAD:
		case OPT_PER_TASK:
			o->aggr = c == OPT_PER_SOCKET ? STAT_AGGR_SOCKET
			          : c == OPT_PER_DIE  ? STAT_AGGR_DIE
			          : c == OPT_PER_CORE ? STAT_AGGR_CORE
			          : c == OPT_PER_NODE ? STAT_AGGR_NODE
			                              : STAT_AGGR_THREAD;
			/* --per-task: the per-thread output, a process per row */
			o->per_task = c == OPT_PER_TASK;
			o->no_aggr = false; /* perf: the last aggregation option wins */
			break;
		case OPT_BPF_COUNTERS:
			o->bpf_counters = true;
			break;
		case 't':
			o->tids = optarg;
			break;
		case OPT_NO_MERGE:
			o->no_merge = true;
			break;
		case OPT_INTERVAL_COUNT:
			if (parse_number("--interval-count", optarg, 0, UINT32_MAX,
			                 &o->interval_count))
				return EXIT_FAILURE;
			break;
		case OPT_TIMEOUT:
			if (parse_number("--timeout", optarg, 0, UINT32_MAX, &o->timeout_ms))
				return EXIT_FAILURE;
			break;
		case 'D':
			if (parse_delay(optarg, &o->delay_ms))
				return EXIT_FAILURE;
			break;
		case 'n':
			o->null_run = true;
			break;
		case OPT_APPEND:
			o->append = true;
			break;
		case OPT_PMU:
			o->pmu = optarg;
			break;
		case OPT_EMU_TASKS:
			if (optarg && strcmp(optarg, "truth") != 0)
				return cli_usage_error("--emu-tasks=%s: the only value is 'truth'",
				                       optarg);
			o->emu_tasks = optarg ? 2 : 1;
			break;
		case 'q':
			o->quiet = true;
			break;
		case OPT_OPENMETRICS:
			if (!*optarg) {
				cli_error("--openmetrics: the file name is empty");
				return EXIT_FAILURE;
			}
			o->openmetrics = optarg;
			break;
		case OPT_OPENMETRICS_FORMAT:
			if (hpm_expo_format_parse(optarg, &o->om_format)) {
				cli_error("--openmetrics-format '%s': must be openmetrics or "
				          "prometheus",
				          optarg);
				return EXIT_FAILURE;
			}
			break;
		case 'h':
			cli_print_usage(stdout);
			return -1;
		case 'G':
			o->cgroups = xreallocarray(o->cgroups, o->nr_cgroups + 1, sizeof(char *));
			o->cgroups[o->nr_cgroups++] = optarg;
			break;
		case OPT_ALL_USER:
			/* perf applies --all-kernel after --all-user: it wins */
			if (o->level != HPM_LEVEL_KERNEL)
				o->level = HPM_LEVEL_USER;
			break;
		case OPT_ALL_KERNEL:
			o->level = HPM_LEVEL_KERNEL;
			break;
		case 'd':
			o->detailed++;
			break;
		case ':':
		default:
			if (backend_opts_has(c)) {
				if (backend_opts_parse(&backend, c, optarg))
					return EXIT_FAILURE;
				break;
			}
			return cli_option_error(c, argv, longopts);
		}
	}
	if (optind < argc)
		o->argv = argv + optind;
	/* toplev: --nodes works on the tree, by default from level 1 */
	if ((o->nodes || o->show_sample) && !o->topdown)
		o->topdown = 1;
	/* -t and the aggregation modes, with perf's rules and messages */
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
	if (o->argv && strcmp(argv[optind - 1], "--") != 0) {
		/* --topdown's level is optional, so getopt takes it only after '=':
		 * "--topdown 2" would run a command named 2 */
		if (strcmp(argv[optind - 1], "--topdown") == 0 &&
		    strspn(o->argv[0], "0123456789") == strlen(o->argv[0]))
			return cli_usage_error("'--topdown %s': the level is written --topdown=%s "
			                       "(put -- before a command named %s)",
			                       o->argv[0], o->argv[0], o->argv[0]);
	}
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

/* The options into o: 0, -1 when done (--help), else the exit status. */
static int parse_opts(int argc, char **argv, struct stat_opts *o)
{
	struct option *longopts =
	    backend_opts_longopts(stat_longopts_head, stat_longopts_tail, true);
	int rc = parse_opts_in(argc, argv, o, longopts);
	free(longopts);
	return rc;
}

/* ------------------------------------------------------------ output files */

/* The counts (-o FILE, "-" for standard output, else standard error as
 * perf stat) and the run file (--record), as builtin/cli.h's struct
 * cli_output writes them. */

/* The counts' destination: -o FILE (added to with --append) headed by
 * perf's "# started on DATE" line, "-" or standard error, or with -q
 * nowhere (perf then opens no file). With -j the file holds only JSON
 * lines, as perf 6.12 writes it (its linter reads every line as JSON). */
static int out_open_counts(struct cli_output *out, const struct stat_opts *o)
{
	const char *path = o->quiet ? "/dev/null" : o->output;
	bool to_file = !o->quiet && path && strcmp(path, "-") != 0;
	out->dash_named = true;
	if (cli_output_open(out, path, to_file && o->append))
		return -1;
	if (to_file && !o->json) {
		time_t now = time(NULL);
		fprintf(cli_output_stream(out), "# started on %s\n", ctime(&now));
	}
	return 0;
}

/* ------------------------------------------------------------ clocks */

/* The cycles of `ticks` periods of period_ms at freq Hz: exact integers, so
 * that ticks and wall time never drift from the emulated clock. */
static uint64_t cycles_at(double period_ms, uint64_t ticks, uint64_t freq)
{
	unsigned __int128 ns = (unsigned __int128)(period_ms * 1e6) * ticks;
	unsigned __int128 c = ns * freq / 1000000000u;
	return c > UINT64_MAX ? UINT64_MAX : (uint64_t)c;
}

static char *join_argv(char **argv)
{
	size_t len = 1;
	for (char **a = argv; *a; a++)
		len += strlen(*a) + 1;
	char *s = xmalloc(len);
	s[0] = '\0';
	for (char **a = argv; *a; a++) {
		strcat(s, *a);
		if (a[1])
			strcat(s, " ");
	}
	return s;
}

/* ------------------------------------------------------------ one run */

struct run_ctx {
	struct stat_opts *o;
	struct stat_config *cfg;
	struct hpm_session *s;
	struct hpm_target target;
	struct record *rec;
	struct stat_perf *perf; /* stat record's file */
	int exit_status;
	/* the emulated harts stopped short of emu_wanted cycles (emu_partial),
	 * because of a signal (emu_interrupted) or because they fell behind */
	bool emu_partial, emu_interrupted;
	uint64_t emu_wanted;
	double elapsed_ns;
	double user_s, sys_s;
	double last_tick_s;    /* -I: where the last printed interval ended */
	unsigned nr_intervals; /* -I: intervals printed */
	/* --no-multiplex: the runs of one measurement (0 before the first),
	 * and the emulated cycles of each */
	unsigned nomux_runs;
	uint64_t nomux_cycles;
	/* run control: the emulated cycle at which counting started (-D), the
	 * intervals printed (--interval-count), the run ended by --timeout */
	uint64_t emu_base;
	uint64_t intervals;
	uint64_t emu_stop; /* following wall time, the cycle that ends the run
	                    * (UINT64_MAX: none; emu_follow_stop) */
	bool count_reached, timed_out;
	/* the values' other readers: --openmetrics's file (the last write
	 * failed: warned once until one succeeds) and serve's sink; the Unix
	 * time counting started */
	const struct stat_sink *sink;
	bool om_failed;
	double start_unix;
	bool bpf_noted; /* the fallback's note was shown */
	bool why_noted; /* the emulated rows that count nothing said why */
};

/* ------------------------------------------------------------ BPF */

/* How the target uses BPF (src/bpf, hpm_target.bpf): --bpf-counters needs
 * it; -a --per-thread and --per-task take it when it loads, except with -I
 * (the threads, the units, would change between intervals).
 * HPMSTAT_BPF_MAX_TASKS sets the size of its task map (tests fill a small
 * one); HPMSTAT_NO_BPF=1 counts per thread as without it (benchmarks). */
static void set_bpf_target(struct hpm_target *t, const struct stat_opts *o)
{
	const char *no = getenv("HPMSTAT_NO_BPF");
	const char *max = getenv("HPMSTAT_BPF_MAX_TASKS");
	t->per_process = o->per_task;
	if (o->bpf_counters)
		t->bpf = HPM_TARGET_BPF_REQUIRE;
	else if (t->system_wide && o->aggr == STAT_AGGR_THREAD && o->interval_ms <= 0 &&
	         !(no && strcmp(no, "1") == 0))
		t->bpf = HPM_TARGET_BPF_WANT;
	else
		t->bpf = HPM_TARGET_BPF_NO;
	t->bpf_max_tasks = max ? (unsigned)strtoul(max, NULL, 10) : 0;
}

/* What the BPF program could not charge, once the counts are read: never
 * a silent shortfall. */
static void bpf_warnings(const struct run_ctx *rc)
{
	const struct hpm_perf_cfg *c = &rc->s->perf_cfg;
	if (!c->bpf_active)
		return;
	if (c->bpf_missed)
		cli_warn("warning: BPF task map full (%u tasks): %llu of %llu context switches "
		         "not charged to any task; their counts are missing",
		         c->bpf_max_tasks, (unsigned long long)c->bpf_missed,
		         (unsigned long long)c->bpf_switches);
	if (c->bpf_read_errors)
		cli_warn("warning: BPF: %llu counter reads at context switches failed; those "
		         "deltas are charged to the next task that reads",
		         (unsigned long long)c->bpf_read_errors);
}

/* An aggregation by CPU topology (--per-core, --per-socket, ...), whose
 * view takes each unit's metrics to its id (stat/aggr.h). */
static bool metrics_per_id_mode(const struct stat_config *cfg)
{
	return cfg->aggr && cfg->aggr->mode != STAT_AGGR_GLOBAL &&
	       cfg->aggr->mode != STAT_AGGR_THREAD;
}

/* Each metric unit's metrics (from `delta` when set) into res. */
static void unit_metrics_new(struct hpm_session *s, const struct hpm_count *const *delta,
                             struct stat_result *res)
{
	res->nr_metric_units = hpm_session_metric_units(s, &res->metric_unit_names);
	res->unit_metrics = xcalloc(res->nr_metric_units + 1, sizeof(*res->unit_metrics));
	for (unsigned u = 0; u < res->nr_metric_units; u++)
		hpm_session_metrics_unit(s, delta, (int)u, &res->unit_metrics[u]);
}

static void unit_metrics_free(struct stat_result *res)
{
	for (unsigned u = 0; u < res->nr_metric_units; u++)
		stat_metrics_free(res->unit_metrics[u], res->nr_metrics);
	free(res->unit_metrics);
}

/* Unix time in seconds, for the exposition's timestamps. */
static double unix_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The values of res (an interval, or the whole run) to --openmetrics's
 * file and serve's sink. */
static void export_values(struct run_ctx *rc, const struct stat_result *res)
{
	const struct stat_opts *o = rc->o;
	struct hpm_expo_info info = {.version = PACKAGE_VERSION,
	                             .intervals = rc->nr_intervals,
	                             .interval_s = o->interval_ms / 1e3,
	                             .start_time = rc->start_unix,
	                             .last_update = unix_now()};
	if (o->openmetrics) {
		int e = hpm_expo_write_file(o->openmetrics, o->om_format, rc->s, res, &info);
		if (e && !rc->om_failed)
			cli_warn("warning: --openmetrics: cannot write '%s': %s", o->openmetrics,
			         strerror(-e));
		rc->om_failed = e != 0;
	}
	if (rc->sink && rc->sink->interval)
		rc->sink->interval(rc->sink->ctx, rc->s, res, &info);
}

static int print_interval(struct run_ctx *rc, double ts, struct hpm_count ***prev, bool first)
{
	char err[512];
	if (hpm_session_read(rc->s, err, sizeof(err))) {
		cli_error("%s", err);
		return -1;
	}
	struct hpm_count **d = hpm_session_delta(rc->s, *prev);
	struct stat_result res = {.list = &rc->s->all,
	                          .elapsed_ns = (ts - rc->last_tick_s) * 1e9,
	                          .interval_nr = rc->nr_intervals++,
	                          .timestamp = ts,
	                          .first = first,
	                          .delta = (const struct hpm_count *const *)d};
	res.nr_metrics = hpm_session_metrics(rc->s, res.delta, &res.metrics);
	/* --per-core and the like: each id's metrics of the interval */
	if (res.nr_metrics && metrics_per_id_mode(rc->cfg))
		unit_metrics_new(rc->s, res.delta, &res);
	hpm_session_emu_label(rc->s, &rc->cfg->emu);
	/* an interval's label speaks of the whole run: the configured length,
	 * also while following wall time up to it, else none */
	struct hpm_emu_info info;
	if (hpm_session_emu_info(rc->s, &info))
		rc->cfg->emu.run.cycles = !info.follows_command        ? info.cycles_limit
		                          : rc->emu_stop != UINT64_MAX ? rc->emu_stop
		                                                       : 0;
	if (rc->emu_partial) {
		/* the last interval of a run cut short says so */
		rc->cfg->emu.run.partial = true;
		rc->cfg->emu.run.interrupted = rc->emu_interrupted;
		rc->cfg->emu.run.cycles = info.cycles_run;
		rc->cfg->emu.run.cycles_wanted = rc->emu_wanted;
	}
	rc->last_tick_s = ts;
	stat_print(rc->cfg, &res);
	fflush(rc->cfg->out);
	if (rc->rec)
		record_add_interval(rc->rec, &res);
	/* a failed write is reported once, at the end (stat_perf_finish) */
	if (rc->perf)
		(void)stat_perf_round(rc->perf, &rc->s->all, false, (uint64_t)(ts * 1e9 + 0.5));
	export_values(rc, &res);
	unit_metrics_free(&res);
	stat_metrics_free(res.metrics, res.nr_metrics);
	hpm_session_snapshot_free(rc->s, *prev);
	*prev = hpm_session_snapshot(rc->s);
	hpm_session_snapshot_free(rc->s, d);
	return 0;
}

/* ------------------------------------------------------------ run control */

/* Counting starts here unless -D delays it: perf's "Events disabled". */
static int counting_start(struct run_ctx *rc, char *err, size_t errlen)
{
	if (rc->o->delay_ms) {
		fprintf(stderr, "Events disabled\n");
		return 0;
	}
	return hpm_session_enable(rc->s, err, errlen);
}

/* -D MS, once the command has started: wait MS ms (less if the command or
 * the -p process ends, or a signal comes), or on the emulated harts alone
 * run MS ms of emulated time with counting inhibited; then enable, with
 * perf's "Events enabled". Counting time (t0) starts there, as perf's.
 * -1 never enables. 0 or -1 with err. */
static int counting_after_delay(struct run_ctx *rc, struct hpm_workload *w, int watch_pidfd,
                                bool harts_only, double *t0, char *err, size_t errlen)
{
	const struct stat_opts *o = rc->o;
	if (o->delay_ms < 0)
		return 0;
	if (harts_only) {
		struct hpm_emu_info info;
		uint64_t ran;
		bool done = false;
		hpm_session_emu_info(rc->s, &info);
		uint64_t skip = cycles_at((double)o->delay_ms, 1, info.freq);
		while (info.cycles_run < skip && !done && !stat_interrupted) {
			if (hpm_session_run_emu(rc->s, skip - info.cycles_run, EMU_BUDGET_NS, &ran,
			                        &done, err, errlen))
				return -1;
			hpm_session_emu_info(rc->s, &info);
		}
		rc->emu_base = info.cycles_run;
	} else {
		double end = (double)hpm_clock_ns() + (double)o->delay_ms * 1e6;
		for (double now = (double)hpm_clock_ns(); now < end && !stat_interrupted;
		     now = (double)hpm_clock_ns()) {
			if (w && (hpm_workload_reap(w, false), w->exited))
				break;
			if (o->pid > 0 && hpm_process_gone(o->pid))
				break;
			hpm_workload_wait(w, o->pid, watch_pidfd, (int)((end - now) / 1e6) + 1,
			                  &stat_signal);
		}
	}
	if (hpm_session_enable(rc->s, err, errlen))
		return -1;
	fprintf(stderr, "Events enabled\n");
	*t0 = (double)hpm_clock_ns();
	rc->start_unix = unix_now();
	return 0;
}

/* --timeout: when counting ends (0: never), from the start of counting
 * as perf's timer. */
static double run_deadline(const struct run_ctx *rc, double t0)
{
	return rc->o->timeout_ms ? t0 + (double)rc->o->timeout_ms * 1e6 : 0;
}

/* A poll timeout (ms, negative: none) that wakes by the deadline. */
static int wait_ms_until(int timeout, double now, double deadline)
{
	if (deadline == 0)
		return timeout;
	int t = deadline > now ? (int)((deadline - now) / 1e6) + 1 : 0;
	return timeout < 0 || t < timeout ? t : timeout;
}

/* The deadline has come: the command gets SIGTERM, as from perf, and is
 * then waited for (it may trap it); a -p process or the CPUs are simply
 * no longer counted. */
static void stop_at_timeout(struct run_ctx *rc, struct hpm_workload *w)
{
	rc->timed_out = true;
	if (w)
		hpm_workload_kill(w, SIGTERM);
}

/* --interval-count: true once the N-th interval has been printed. */
static bool interval_count_reached(struct run_ctx *rc)
{
	if (rc->o->interval_count && ++rc->intervals >= rc->o->interval_count)
		rc->count_reached = true;
	return rc->count_reached;
}

/* The emulated harts alone: the cycle --timeout stops them at (emulated
 * time from the start of counting), UINT64_MAX without one. */
static uint64_t emu_stop_cycle(const struct run_ctx *rc, uint64_t freq)
{
	if (!rc->o->timeout_ms)
		return UINT64_MAX;
	return rc->emu_base + cycles_at((double)rc->o->timeout_ms, 1, freq);
}

/* An emulated row that can count nothing (a raw value or a term without
 * its bank: no counter to place it on) says why, once per row, beside its
 * <not supported>, which alone would leave the user to the man page. */
static void emu_rows_why(struct run_ctx *rc)
{
	const struct hpm_evlist *l = &rc->s->all;
	if (rc->why_noted)
		return;
	rc->why_noted = true;
	for (unsigned i = 0; i < l->nr; i++) {
		const struct hpm_evsel *e = &l->ev[i];
		if (e->emulated && !e->metric_only && e->state == HPM_EV_NOT_SUPPORTED &&
		    e->placement)
			cli_warn("warning: '%s' is <not supported>: %s", e->name, e->placement);
	}
}

/* Emulated harts that follow wall time (a host or tool event or a host
 * target in the run): the cycle at which they end the run, as they end it
 * alone (hpmstat-stat(1), --emu-cycles). A run that has no end of its own
 * (no command, no -p) ends at --emu-cycles, given or the default; a command
 * or -p process ends it sooner, and a given --emu-cycles ends it before
 * them. serve counts on until stopped unless --emu-cycles is given.
 * UINT64_MAX: no such end. */
static uint64_t emu_follow_stop(const struct run_ctx *rc, const struct hpm_emu_info *info)
{
	const struct stat_opts *o = rc->o;
	if (o->emu.cycles)
		return o->emu.cycles;
	return o->argv || o->pid > 0 || rc->sink ? UINT64_MAX : info->cycles_length;
}

/* Following wall time: runs the harts up to `want` cycles, for at most
 * EMU_CATCHUP_NS of real time (what is left then, they fell behind). 0, or
 * -1 with err. */
static int emu_catch_up(struct hpm_session *s, uint64_t want, char *err, size_t errlen)
{
	struct hpm_emu_info info;
	uint64_t ran;
	bool done;
	double start = (double)hpm_clock_ns();
	hpm_session_emu_info(s, &info);
	while (want > info.cycles_run && (double)hpm_clock_ns() - start < (double)EMU_CATCHUP_NS) {
		if (hpm_session_run_emu(s, want - info.cycles_run, EMU_BUDGET_NS, &ran, &done, err,
		                        errlen))
			return -1;
		hpm_session_emu_info(s, &info);
	}
	return 0;
}

/* Counts one run of the workload (or the emulated harts); 0 or an exit
 * status for an error. */
static int run_once(struct run_ctx *rc)
{
	struct stat_opts *o = rc->o;
	struct hpm_session *s = rc->s;
	struct hpm_workload w = {.pid = -1, .pidfd = -1};
	char err[1024];
	int rcode = 0, watch_pidfd = -1;
	bool have_cmd = o->argv != NULL, done = false;
	struct hpm_count **prev = NULL;

	rc->emu_wanted = 0;
	rc->emu_partial = rc->emu_interrupted = false;
	rc->last_tick_s = 0;
	rc->emu_base = rc->intervals = 0;
	rc->emu_stop = UINT64_MAX;
	rc->count_reached = rc->timed_out = false;

	rc->target = (struct hpm_target){.pid = -1, .inherit = true};
	if (have_cmd) {
		if (hpm_workload_prepare(&w, o->argv,
		                         (o->record && strcmp(o->record, "-") == 0) ||
		                             (o->data && strcmp(o->data, "-") == 0),
		                         err, sizeof(err))) {
			cli_error("%s", err);
			return EXIT_FAILURE;
		}
		/* -p/-t PID -- CMD: PID is counted for as long as CMD runs (perf's
		 * "-p 1234 -- sleep 5"); CMD alone is counted from its exec */
		rc->target.pid = o->pid > 0 ? o->pid : w.pid;
		/* -D: the counters wait for counting_after_delay, not the exec */
		rc->target.enable_on_exec = !o->delay_ms && o->pid <= 0;
		hpm_workload_forward_signals(&w);
	} else if (o->pid > 0) {
		rc->target.pid = o->pid;
		watch_pidfd = hpm_process_pidfd(o->pid);
	}
	/* perf: "PID/TID switch overriding CPU": -p counts the process */
	rc->target.system_wide = o->all_cpus && o->pid <= 0;
	rc->target.cpu_list = o->pid > 0 ? NULL : o->cpus;
	rc->target.per_unit = o->no_aggr;
	rc->target.tid_list = o->tids;
	rc->target.per_thread = o->aggr == STAT_AGGR_THREAD;
	set_bpf_target(&rc->target, o);
	/* with a host target, or a tool event that counts wall time beside
	 * them, the emulated harts follow wall time; alone they run as fast as
	 * the host can */
	bool wall = have_cmd || o->pid > 0 || o->all_cpus || o->cpus ||
	            (hpm_session_uses_emu(s) && hpm_session_uses_tool(s));
	s->emu_cfg.follow_wall = wall;

	if (hpm_session_open(s, &rc->target, err, sizeof(err))) {
		cli_error("%s", err);
		if (have_cmd) {
			hpm_workload_kill(&w, SIGKILL);
			hpm_workload_reap(&w, true);
			hpm_workload_forward_signals(NULL);
		}
		return EXIT_FAILURE;
	}
	if (o->emu_tasks && stat_emu_tasks_check(s, err, sizeof(err))) {
		if (o->emu_per_thread) {
			rcode = cli_usage_error(EMU_PER_THREAD_NO);
			goto out;
		}
		cli_error("%s", err);
		rcode = EXIT_FAILURE;
		goto out;
	}
	if (s->perf_cfg.warn) {
		cli_warn("warning: %s", s->perf_cfg.warning);
		s->perf_cfg.warn = false; /* once */
	}
	if (s->perf_cfg.noted) {
		cli_warn("note: %s", s->perf_cfg.note);
		s->perf_cfg.noted = false; /* once */
	}
	emu_rows_why(rc);
	if (rc->target.bpf == HPM_TARGET_BPF_WANT && s->perf_cfg.bpf_reason[0] && !rc->bpf_noted) {
		cli_warn("note: counting per %s without BPF: %s",
		         o->per_task ? "process" : "thread", s->perf_cfg.bpf_reason);
		rc->bpf_noted = true; /* once */
	}
	double t0 = (double)hpm_clock_ns();
	rc->start_unix = unix_now();
	if (counting_start(rc, err, sizeof(err))) {
		cli_error("%s", err);
		rcode = EXIT_FAILURE;
		goto out;
	}
	if (have_cmd) {
		/* counted from its exec: started without waiting for the exec
		 * (hpm_workload_go), whose failure is known at its end */
		int e = rc->target.enable_on_exec ? hpm_workload_go(&w) : hpm_workload_start(&w);
		if (e) {
			hpm_workload_reap(&w, true);
			cli_error("cannot run '%s': %s", o->argv[0], strerror(e));
			rcode = 127;
			goto out;
		}
	}
	if (o->delay_ms && counting_after_delay(rc, have_cmd ? &w : NULL, watch_pidfd, !wall, &t0,
	                                        err, sizeof(err))) {
		cli_error("%s", err);
		rcode = EXIT_FAILURE;
		goto out;
	}
	double deadline = run_deadline(rc, t0);
	bool emu_follows = hpm_session_uses_emu(s) && wall;
	bool interval = o->interval_ms > 0;
	if (interval)
		prev = hpm_session_snapshot(s);
	double next_tick = t0 + o->interval_ms * 1e6;
	bool first = true;
	struct hpm_emu_info info;
	uint64_t freq = hpm_session_emu_info(s, &info) ? info.freq : 0;
	uint64_t ran;
	/* following wall time, the harts' --emu-cycles is a deadline like
	 * --timeout's, the sooner of the two */
	uint64_t emu_stop = emu_follows ? emu_follow_stop(rc, &info) : UINT64_MAX;
	rc->emu_stop = emu_stop;
	if (emu_stop != UINT64_MAX) {
		double emu_end = t0 + (double)emu_stop / (double)freq * 1e9;
		if (deadline == 0 || emu_end < deadline)
			deadline = emu_end;
	}

	if (!wall) {
		/* only the emulated harts: emulated time, no sleeping, in slices
		 * that leave room to notice a signal; -I ticks are emulated time */
		uint64_t ticks = 0, next = UINT64_MAX, stop = emu_stop_cycle(rc, freq);
		if (interval)
			next = rc->emu_base + cycles_at(o->interval_ms, 1, freq);
		while (!done && !stat_interrupted) {
			hpm_session_emu_info(s, &info);
			if (hpm_session_run_emu(s, (next < stop ? next : stop) - info.cycles_run,
			                        EMU_BUDGET_NS, &ran, &done, err, sizeof(err))) {
				cli_error("%s", err);
				rcode = EXIT_FAILURE;
				goto out;
			}
			hpm_session_emu_info(s, &info);
			done |= info.cycles_run >= stop;
			if (interval && (info.cycles_run >= next || done)) {
				if (print_interval(
				        rc, (double)(info.cycles_run - rc->emu_base) / (double)freq,
				        &prev, first)) {
					rcode = EXIT_FAILURE;
					goto out;
				}
				first = false;
				next = rc->emu_base + cycles_at(o->interval_ms, ++ticks + 1, freq);
				done |= interval_count_reached(rc);
			}
		}
		rc->elapsed_ns = (double)hpm_clock_ns() - t0;
		hpm_session_emu_info(s, &info);
		if (!done && stat_interrupted) {
			rc->emu_partial = rc->emu_interrupted = true;
			rc->emu_wanted = info.cycles_limit;
			if (interval && info.cycles_run >
			                    rc->emu_base + cycles_at(o->interval_ms, ticks, freq)) {
				if (print_interval(
				        rc, (double)(info.cycles_run - rc->emu_base) / (double)freq,
				        &prev, first)) {
					rcode = EXIT_FAILURE;
					goto out;
				}
			} else if (interval && rc->cfg->format != STAT_FORMAT_JSON) {
				/* stopped on a tick: the label alone says where */
				char label[512];
				struct stat_config *cfg = rc->cfg;
				hpm_session_emu_label(s, &cfg->emu);
				cfg->emu.run.partial = cfg->emu.run.interrupted = true;
				cfg->emu.run.cycles_wanted = rc->emu_wanted;
				fprintf(cfg->out, "# %s\n",
				        stat_emu_describe(&cfg->emu, label, sizeof(label)));
			}
		}
	} else {
		for (;;) {
			if (have_cmd) {
				hpm_workload_reap(&w, false);
				if (w.exited)
					break;
			} else if (stat_interrupted) {
				break;
			}
			if (o->pid > 0 && !have_cmd && hpm_process_gone(o->pid))
				break;
			double now = (double)hpm_clock_ns();
			if (deadline != 0 && now >= deadline) {
				stop_at_timeout(rc, have_cmd ? &w : NULL);
				break;
			}
			if (interval && now >= next_tick) {
				/* the harts' counts of the interval cover its wall time */
				uint64_t want = cycles_at((now - t0) / 1e6, 1, freq);
				if (emu_follows &&
				    emu_catch_up(s, want < emu_stop ? want : emu_stop, err,
				                 sizeof(err))) {
					cli_error("%s", err);
					rcode = EXIT_FAILURE;
					goto out;
				}
				if (print_interval(rc, (now - t0) / 1e9, &prev, first)) {
					rcode = EXIT_FAILURE;
					goto out;
				}
				first = false;
				next_tick += o->interval_ms * 1e6;
				/* perf then prints no more, but still waits for the command */
				if (interval_count_reached(rc))
					break;
				continue;
			}
			if (emu_follows) {
				/* emulated time is the target's wall time since t0, not
				 * hpmstat's: catch up in bounded slices, then sleep */
				uint64_t want = cycles_at((now - t0) / 1e6, 1, freq);
				uint64_t slack = cycles_at(EMU_FOLLOW_SLACK_MS, 1, freq);
				if (want > emu_stop)
					want = emu_stop;
				hpm_session_emu_info(s, &info);
				if (want > info.cycles_run + slack) {
					if (hpm_session_run_emu(s, want - info.cycles_run,
					                        EMU_BUDGET_NS, &ran, &done, err,
					                        sizeof(err))) {
						cli_error("%s", err);
						rcode = EXIT_FAILURE;
						goto out;
					}
					continue;
				}
			}
			int timeout = -1;
			if (emu_follows)
				timeout = EMU_FOLLOW_PERIOD_MS;
			if (interval) {
				int t = next_tick > now ? (int)((next_tick - now) / 1e6) + 1 : 0;
				if (timeout < 0 || t < timeout)
					timeout = t;
			}
			hpm_workload_wait(have_cmd ? &w : NULL, o->pid, watch_pidfd,
			                  wait_ms_until(timeout, now, deadline), &stat_signal);
		}
		double end = (double)hpm_clock_ns();
		rc->elapsed_ns = end - t0;
		if (emu_follows) {
			/* the rest up to the end, within EMU_CATCHUP_NS */
			uint64_t want = cycles_at(rc->elapsed_ns / 1e6, 1, freq);
			if (want > emu_stop)
				want = emu_stop;
			if (emu_catch_up(s, want, err, sizeof(err))) {
				cli_error("%s", err);
				rcode = EXIT_FAILURE;
				goto out;
			}
			hpm_session_emu_info(s, &info);
			if (want > info.cycles_run) {
				rc->emu_partial = true;
				rc->emu_wanted = want;
				cli_warn(
				    "warning: the emulator fell behind wall time: emulated %.3g s "
				    "of "
				    "%.3g s (%u hart%s at %.6g MHz); %s counts cover the "
				    "emulated part only",
				    (double)info.cycles_run / (double)freq, rc->elapsed_ns / 1e9,
				    info.harts, info.harts == 1 ? "" : "s", (double)freq / 1e6,
				    rc->s->model->display);
			} else if (stat_interrupted && !have_cmd && o->pid <= 0 &&
			           info.cycles_run < emu_stop) {
				/* a signal before the harts' end: "N of M cycles", as alone */
				rc->emu_partial = rc->emu_interrupted = true;
				rc->emu_wanted = emu_stop;
			}
		}
	}
	if (have_cmd && !w.exited) {
		/* the command outlives a signal it traps: wait for it, as perf does */
		hpm_workload_reap(&w, true);
	}
	int exec_err = have_cmd ? hpm_workload_exec_error(&w) : 0;
	if (exec_err) {
		cli_error("cannot run '%s': %s", o->argv[0], strerror(exec_err));
		rcode = 127;
		goto out;
	}
	/* one that outlives --timeout's SIGTERM is counted to its end, as perf */
	if (rc->timed_out)
		rc->elapsed_ns = (double)hpm_clock_ns() - t0;
	hpm_workload_forward_signals(NULL);
	hpm_session_disable(s, err, sizeof(err));
	if (hpm_session_read(s, err, sizeof(err))) {
		cli_error("%s", err);
		rcode = EXIT_FAILURE;
		goto out;
	}
	bpf_warnings(rc);
	if (interval && (have_cmd || o->pid > 0 || rc->timed_out) && !rc->count_reached) {
		/* the partial interval since the last tick, as perf prints it;
		 * also at the end --emu-cycles put to the run (-I excludes
		 * --timeout), as the harts alone print it */
		if (print_interval(rc, ((double)hpm_clock_ns() - t0) / 1e9, &prev, first)) {
			rcode = EXIT_FAILURE;
			goto out;
		}
	}
	if (have_cmd) {
		int sig, status = hpm_workload_exit_status(&w, &sig);
		hpm_workload_times(&w, &rc->user_s, &rc->sys_s);
		if (status >= 0)
			/* perf exits 0 when its --timeout's SIGTERM ended the command */
			rc->exit_status = sig && rc->timed_out ? 0 : status;
		if (sig)
			/* as perf: "sleep: Interrupt" */
			fprintf(stderr, "%s: %s\n", o->argv[0], strsignal(sig));
	}
	/* the tool events count what perf's do: the elapsed time printed below
	 * and the workload's rusage (none without a workload) */
	hpm_session_set_run_times(s, (uint64_t)rc->elapsed_ns,
	                          have_cmd ? (uint64_t)(rc->user_s * 1e9 + 0.5) : 0,
	                          have_cmd ? (uint64_t)(rc->sys_s * 1e9 + 0.5) : 0);
out:
	hpm_workload_forward_signals(NULL);
	hpm_session_snapshot_free(s, prev);
	hpm_workload_close(&w);
	if (watch_pidfd >= 0)
		close(watch_pidfd);
	return rcode;
}

/* ------------------------------------------------------------ Topdown */

/* The Topdown tree down to o->topdown, or the --nodes selection from it;
 * o->topdown becomes the deepest level shown. */
static int add_topdown(struct hpm_session *s, struct stat_opts *o, char *err, size_t errlen)
{
	if (!o->nodes)
		return hpm_session_add_metrics(s, NULL, o->topdown, o->retired_minstret, err,
		                               errlen);
	struct metric_set sel;
	struct metric_error merr;
	metric_set_init(&sel, s->metrics.table);
	if (metric_set_add_nodes(&sel, o->topdown, o->nodes, &merr) != 0) {
		snprintf(err, errlen, "--nodes: %s", merr.msg);
		metric_set_free(&sel);
		return -1;
	}
	/* the selection as a -M list, in tree order */
	size_t len = 1;
	for (unsigned i = 0; i < sel.nr; i++)
		len += strlen(sel.m[i]->name) + 1;
	char *list = xmalloc(len);
	list[0] = '\0';
	for (unsigned i = 0; i < sel.nr; i++) {
		if (i)
			strcat(list, ",");
		strcat(list, sel.m[i]->name);
	}
	o->topdown = metric_set_max_level(&sel);
	metric_set_free(&sel);
	int rc = hpm_session_add_metrics(s, list, 0, o->retired_minstret, err, errlen);
	free(list);
	return rc;
}

/* ------------------------------------------------------------ --no-multiplex */

/* toplev's --no-multiplex: when the Kunminghu events need several
 * multiplex groups, one run per group, each counting only its group for the
 * whole run (the emulated stream of a seed is the same in every run; a
 * command must behave the same every time); the rows of the first run keep
 * its time, user and sys. The counts come back to rc->s. */
static int run_no_multiplex(struct run_ctx *rc)
{
	struct hpm_session *s = rc->s;
	struct hpm_nomux plan;
	char err[1024];
	int rcode = 0, exit_status = 0;
	double elapsed = 0, user = 0, sys = 0;

	if (hpm_nomux_plan(s, &plan, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_FAILURE;
	}
	if (plan.nr_runs == 1) {
		hpm_nomux_free(&plan);
		rc->nomux_runs = 1;
		return run_once(rc);
	}
	/* said once, as toplev does; not into CSV or JSON on the same stream */
	if (!rc->nomux_runs && (rc->cfg->format == STAT_FORMAT_STD || rc->o->output))
		fprintf(stderr, "Running %u times to avoid multiplexing\n", plan.nr_runs);
	rc->nomux_runs = plan.nr_runs;
	for (unsigned r = 0; r < plan.nr_runs && !stat_interrupted; r++) {
		struct hpm_session sub;
		struct hpm_emu_info info;
		hpm_nomux_session(&plan, s, r, &sub);
		rc->s = &sub;
		rcode = run_once(rc);
		rc->s = s;
		if (!rcode) {
			if (hpm_session_emu_info(&sub, &info))
				rc->nomux_cycles = info.cycles_run;
			hpm_nomux_take(&plan, s, r, &sub);
		}
		if (!r) {
			elapsed = rc->elapsed_ns;
			user = rc->user_s;
			sys = rc->sys_s;
		}
		if (!exit_status)
			exit_status = rc->exit_status;
		hpm_session_free(&sub);
		if (rcode)
			break;
	}
	hpm_nomux_finish(&plan, s);
	hpm_nomux_free(&plan);
	rc->elapsed_ns = elapsed;
	rc->user_s = user;
	rc->sys_s = sys;
	rc->exit_status = exit_status;
	return rcode;
}

/* ------------------------------------------------------------ -d, -G, --all-* */

/* -d, -dd, -ddd: perf's detailed sets (builtin-stat.c add_default_attributes)
 * on host targets; on a PMU model (the emulator or the host's model PMU) the
 * same questions asked of the model's events (its detailed sets). */
static const char *const host_detailed[3] = {
    "L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
    ("L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,iTLB-loads,"
     "iTLB-load-misses"),
    "L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

/* -d, -dd, -ddd: the detailed sets, after the events given. An event of
 * the set that this kernel cannot take (a 6.1 riscv kernel passes only
 * config bits 0-47, too few for some Kunminghu encodings) is a
 * <not supported> row with a warning, as perf's -d shows what the hardware
 * lacks, instead of failing the run. */
static int add_detailed(const struct stat_opts *o, struct hpm_session *s, char *err, size_t errlen)
{
	bool harts_only = !o->argv && o->pid <= 0 && !o->all_cpus && !o->cpus;
	bool model = o->backend == HPM_BACKEND_EMU || s->pmu.present ||
	             (harts_only && o->backend != HPM_BACKEND_PERF);
	unsigned first = s->all.nr;
	for (unsigned d = 0; d < o->detailed && d < 3; d++)
		if (hpm_session_add_events(s, model ? s->model->detailed[d] : host_detailed[d], err,
		                           errlen))
			return -1;
	for (unsigned i = first; i < s->all.nr; i++)
		s->all.ev[i].optional = true;
	return 0;
}

/* --all-user / --all-kernel and -G on every event, before the session is
 * split between the back ends. 0, or the exit status after a message. */
static int apply_event_options(const struct stat_opts *o, struct hpm_session *s)
{
	char err[512];
	bool warned = false;
	for (unsigned i = 0; o->level != HPM_LEVEL_ANY && i < s->all.nr; i++) {
		struct hpm_evsel *e = &s->all.ev[i];
		if (!hpm_evsel_set_level(e, o->level, !s->model_on_perf) && !warned) {
			char names[128];
			cli_warn("warning: %s: the emulator's %s count in every mode; they are not "
			         "filtered",
			         o->level == HPM_LEVEL_USER ? "--all-user" : "--all-kernel",
			         hpm_model_fixed_list(s->model, " and ", names, sizeof(names)));
			warned = true;
		}
	}
	if (!o->nr_cgroups)
		return 0;
	/* perf: "both cgroup and no-aggregation modes only available in
	 * system-wide mode"; no command and no target is system wide */
	bool system_wide = o->all_cpus || o->cpus || (!o->argv && o->pid <= 0);
	if (!system_wide || o->pid > 0)
		return cli_usage_error("-G needs system-wide counting (-a or -C), as in perf");
	unsigned next = 0;
	for (unsigned i = 0; i < o->nr_cgroups; i++)
		if (hpm_evlist_set_cgroups(&s->all, o->cgroups[i], &next, err, sizeof(err))) {
			cli_error("%s", err);
			return EXIT_FAILURE;
		}
	for (unsigned i = 0; i < s->all.nr; i++) {
		const struct hpm_evsel *e = &s->all.ev[i];
		if (e->cgroup && e->kind != HPM_EV_HOST && !s->model_on_perf) {
			cli_error("-G '%s': '%s' is emulated, and the emulator has no cgroups",
			          e->cgroup, e->name);
			return EXIT_FAILURE;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ the command */

/* Everything one hpmstat stat holds between its phases; cmd_stat frees it
 * at one label. */
struct stat_cmd {
	struct stat_opts o;
	enum stat_subcommand sub;
	struct hpm_session s;
	bool have_session;
	struct stat_config cfg;
	struct stat_aggr aggr;
	struct hpm_topology topology; /* --per-socket and the like */
	struct cli_output out, recf;  /* the counts, the run file */
	struct cli_output dataf;      /* stat record's perf.data */
	struct record *rec;
	struct stat_perf *perf;
	FILE *runtmp; /* stat record: the run file, for perf.data's copy */
	char *command;
	char target[64];
	struct run_ctx run;
	struct stat_repeats reps;
	struct stat_metric *metrics; /* the last run's, then the means */
	unsigned nr_metrics;
	const struct stat_sink *sink; /* serve's (stat-sink.h), else NULL */
	bool sink_started;
};

/* The options, and perf's `stat report` and `stat record` (stat-record.c):
 * the options of stat go before and after the word, as in perf. 0, -1
 * when done (--help), else the exit status. */
static int parse_command_line(struct stat_cmd *c, int argc, char **argv)
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

/* The rows and metrics to count: -e, -d, -M, --topdown and perf's default
 * set when none is given. 0, or the exit status after a message. */
static int add_events(struct stat_cmd *c)
{
	struct stat_opts *o = &c->o;
	struct hpm_session *s = &c->s;
	char err[1024];

	if (!o->nr_events && !o->nr_metrics && !o->topdown && !o->null_run) {
		/* perf's default set for host targets; the emulated harts alone
		 * get their fixed counters and the Topdown level 1 */
		static const char *const host_default =
		    "task-clock,context-switches,cpu-migrations,page-faults,cycles,"
		    "instructions,branches,branch-misses";
		/* perf counts CPUs (-a, -C, or no command) with cpu-clock */
		static const char *const cpus_default =
		    "cpu-clock,context-switches,cpu-migrations,page-faults,cycles,"
		    "instructions,branches,branch-misses";
		bool harts_only = !o->argv && o->pid <= 0 && !o->all_cpus && !o->cpus;
		bool on_cpus = o->pid <= 0 && (!o->argv || o->all_cpus || o->cpus);
		o->events = xcalloc(1, sizeof(char *));
		if (harts_only || o->backend == HPM_BACKEND_EMU) {
			static char fixed[256];
			/* a model without a fixed instruction counter (Arm: only
			 * PMCCNTR) counts perf's cycles and instructions, so that
			 * IPC is shown as perf shows it */
			if (hpm_model_fixed_by_generic(s->model, "instructions") < 0 &&
			    hpm_model_generic(s->model, "instructions", strlen("instructions")))
				o->events[o->nr_events++] = "cycles,instructions";
			else
				o->events[o->nr_events++] =
				    hpm_model_fixed_list(s->model, ",", fixed, sizeof(fixed));
			o->topdown =
			    s->model->metrics && metric_max_level(s->model->metrics) ? 1 : 0;
		} else {
			o->events[o->nr_events++] = on_cpus ? cpus_default : host_default;
		}
	}
	for (unsigned i = 0; i < o->nr_events; i++)
		if (hpm_session_add_events(s, o->events[i], err, sizeof(err)))
			goto fail;
	if (add_detailed(o, s, err, sizeof(err)))
		goto fail;
	for (unsigned i = 0; i < o->nr_metrics; i++)
		if (hpm_session_add_metrics(s, o->metrics[i], 0, o->retired_minstret, err,
		                            sizeof(err)))
			goto fail;
	if (o->topdown && add_topdown(s, o, err, sizeof(err)))
		goto fail;
	if (o->retired_minstret && !o->topdown && !o->nr_metrics) {
		cli_error("--topdown-retired needs --topdown or -M");
		return EXIT_FAILURE;
	}
	if (o->topdown_variant && !o->topdown && !o->nr_metrics) {
		cli_error("--topdown-variant needs --topdown or -M");
		return EXIT_FAILURE;
	}
	cli_note_event_facts(&s->all);
	return apply_event_options(o, s);
fail:
	cli_error("%s", err);
	return EXIT_FAILURE;
}

/* The events split between the back ends, and what that decides: the
 * target when none is given, the aggregation, the checks that need both.
 * 0, or the exit status after a message. */
static int plan_counting(struct stat_cmd *c)
{
	struct stat_opts *o = &c->o;
	struct hpm_session *s = &c->s;
	char err[1024];

	if (hpm_session_split(s, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_FAILURE;
	}
	if (o->no_multiplex && hpm_session_uses_perf(s) && !o->argv)
		/* perf counts the host while it runs: nothing to run again */
		return cli_usage_error("--no-multiplex needs a command to run once per "
		                       "counter group");
	if (!o->argv && o->pid <= 0 && !o->all_cpus && !o->cpus && hpm_session_uses_perf(s)) {
		/* perf: no command and no target is system-wide until Ctrl-C
		 * (setup_system_wide); emulated harts in the run end it at their
		 * --emu-cycles, as they do alone */
		o->all_cpus = true;
	}
	/* a run without a command is repeated only when it ends by itself:
	 * emulated harts end it */
	if (o->repeat > 1 && !o->argv && !hpm_session_uses_emu(s) && (o->all_cpus || o->cpus))
		return cli_usage_error("-r needs a command");
	/* the aggregation: threads are the perf back end's, CPUs sit in sysfs */
	c->aggr = (struct stat_aggr){
	    .mode = o->aggr, .topology = &c->topology, .cache_level = o->cache_level};
	if (o->bpf_counters && hpm_session_uses_emu(s))
		return cli_usage_error("--bpf-counters: emulated events are not perf counters "
		                       "(use --backend perf)");
	if (o->per_task && hpm_session_uses_emu(s))
		return cli_usage_error("--per-task counts host processes: emulated events have "
		                       "none (--per-thread shows a profile's task schedule)");
	if (o->aggr == STAT_AGGR_THREAD && hpm_session_uses_emu(s)) {
		/* emulated harts have threads only in a profile's task schedule:
		 * then --per-thread is the per-task table of --emu-tasks in place
		 * of the totals (checked once the emulator is open) */
		if (hpm_session_uses_perf(s) || o->no_multiplex)
			return cli_usage_error(EMU_PER_THREAD_NO);
		o->aggr = STAT_AGGR_GLOBAL;
		o->emu_per_thread = true;
		if (!o->emu_tasks)
			o->emu_tasks = 1;
	}
	if (o->aggr != STAT_AGGR_GLOBAL && o->aggr != STAT_AGGR_THREAD &&
	    hpm_topology_read(&c->topology) != 0) {
		cli_error("cannot read the CPU topology under %s/devices/system/cpu",
		          hpm_sysfs_root());
		return EXIT_FAILURE;
	}
	c->aggr.skip_zero = o->aggr == STAT_AGGR_THREAD && o->pid <= 0;
	c->cfg.aggr = o->aggr != STAT_AGGR_GLOBAL ? &c->aggr : NULL;
	if (o->emu_given && !hpm_session_uses_emu(s))
		cli_warn("warning: --emu-* options given but no event is emulated");
	/* perf's --null with no command: the elapsed time system-wide */
	if (o->null_run && !s->all.nr && !o->argv && o->pid <= 0 && !o->cpus)
		o->all_cpus = true;
	if (!s->all.nr && !o->null_run) {
		cli_error("no event to count");
		return EXIT_FAILURE;
	}
	return 0;
}

/* --dry-run: the perf_event_attr or CSR writes, on standard output. */
static int dry_run(struct stat_cmd *c)
{
	const struct stat_opts *o = &c->o;
	char err[1024];
	struct hpm_target t = {.pid = o->pid,
	                       .system_wide = o->all_cpus,
	                       .cpu_list = o->cpus,
	                       .per_unit = o->no_aggr,
	                       .enable_on_exec = o->argv != NULL && o->pid <= 0,
	                       .inherit = true,
	                       .tid_list = o->tids,
	                       .per_thread = o->aggr == STAT_AGGR_THREAD};
	if (o->no_multiplex ? hpm_nomux_dry_run(&c->s, &t, stdout, err, sizeof(err))
	                    : hpm_session_dry_run(&c->s, &t, stdout, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_FAILURE;
	}
	return 0;
}

/* The output paths, checked before anything runs, and a -p process that
 * is not there. 0, or the exit status after a message. */
static int open_outputs(struct stat_cmd *c)
{
	const struct stat_opts *o = &c->o;
	if (out_open_counts(&c->out, o))
		return EXIT_FAILURE;
	c->cfg.out = cli_output_stream(&c->out);
	if (o->record && cli_output_open(&c->recf, o->record, false))
		return EXIT_FAILURE;
	if (o->data && (stat_record_backup(o->data) || cli_output_open(&c->dataf, o->data, false)))
		return EXIT_FAILURE;
	if (o->pid > 0 && hpm_process_gone(o->pid)) {
		cli_error("-p %d: no such process", o->pid);
		return EXIT_FAILURE;
	}
	if (o->openmetrics) {
		int e = hpm_expo_check_path(o->openmetrics);
		if (e) {
			cli_error("--openmetrics: cannot write '%s': %s", o->openmetrics,
			          strerror(-e));
			return EXIT_FAILURE;
		}
	}
	return 0;
}

/* The printers' settings from the options, the header's command and
 * target, and the run file's writer. */
static void configure_output(struct stat_cmd *c, int argc, char **argv)
{
	const struct stat_opts *o = &c->o;
	struct stat_config *cfg = &c->cfg;
	cfg->format = o->json ? STAT_FORMAT_JSON : o->sep ? STAT_FORMAT_CSV : STAT_FORMAT_STD;
	if (o->sep)
		cfg->csv_sep = o->sep;
	cfg->per_unit = o->no_aggr;
	cfg->metric_only = o->metric_only;
	cfg->verbose = o->verbose;
	cfg->topdown_level = o->topdown;
	cfg->repeat = o->repeat;
	cfg->interval_ms = o->interval_ms;
	/* output shapes */
	cfg->no_big_num = o->big_num == 0;
	cfg->summary = o->summary;
	cfg->no_csv_summary = o->no_csv_summary;
	cfg->run_table = o->run_table;
	c->command = o->argv ? join_argv(o->argv) : NULL;
	cfg->command = c->command;
	/* perf names -a and -C in the header even with a command */
	if (o->tids)
		snprintf(c->target, sizeof(c->target), "thread id '%.40s'", o->tids);
	else if (o->pid > 0)
		snprintf(c->target, sizeof(c->target), "process id '%d'", o->pid);
	else if (o->cpus)
		snprintf(c->target, sizeof(c->target), "'CPU(s) %s'", o->cpus);
	else if (o->all_cpus)
		snprintf(c->target, sizeof(c->target), "'system wide'");
	cfg->target = c->target[0] ? c->target : NULL;
	if (o->record)
		c->rec = record_new(&o->emu, argc, argv, c->command, cli_output_stream(&c->recf));
	if (o->data) {
		bool pipe = strcmp(o->data, "-") == 0;
		c->perf =
		    stat_perf_new(cli_output_stream(&c->dataf), pipe, argc, argv, o->interval_ms);
		/* a file carries the run file too, for hpmstat stat report
		 * (a pipe's feature records are too small for it) */
		if (!pipe && (c->runtmp = tmpfile()) != NULL)
			c->rec = record_new(&o->emu, argc, argv, c->command, c->runtmp);
	}
}

/* SIGINT and SIGTERM stop the counting (on_signal); no SA_RESTART: a
 * signal ends the poll or wait it interrupts. */
static void catch_signals(void)
{
	struct sigaction sa = {.sa_sigaction = on_signal, .sa_flags = SA_SIGINFO};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* The runs: -r N of them (a signal stops after the one it cuts short),
 * each one's counts, metrics and time added to the repeat statistics and
 * the run file. 0, or the exit status of the run that failed. */
static int measure(struct stat_cmd *c)
{
	struct hpm_session *s = &c->s;
	c->run = (struct run_ctx){
	    .o = &c->o, .cfg = &c->cfg, .s = s, .rec = c->rec, .perf = c->perf, .sink = c->sink};
	stat_repeats_init(&c->reps, s->all.nr, s->metrics.nr, c->o.repeat);
	for (unsigned r = 0; r < c->o.repeat && !stat_interrupted; r++) {
		if (r) {
			hpm_session_close(s);
			/* each repeat sees another stream of the same profile */
			s->emu_cfg.seed = c->o.emu.seed + r;
		}
		int rc = c->o.no_multiplex ? run_no_multiplex(&c->run) : run_once(&c->run);
		if (rc)
			return rc;
		stat_metrics_free(c->metrics, c->nr_metrics);
		c->nr_metrics = hpm_session_metrics(s, NULL, &c->metrics);
		stat_repeats_add(&c->reps, &s->all, c->metrics, c->nr_metrics, c->run.elapsed_ns);
		if (c->rec)
			record_add_run(c->rec, s, c->run.elapsed_ns);
	}
	return 0;
}

/* The emulator's label for the whole measurement: what it ran, and
 * whether a signal or falling behind cut it short. */
static void label_emulated_runs(struct stat_cmd *c)
{
	const struct run_ctx *run = &c->run;
	struct stat_config *cfg = &c->cfg;
	unsigned nr_runs = c->reps.n;
	hpm_session_emu_label(&c->s, &cfg->emu);
	if (run->nomux_runs > 1) {
		/* s itself never ran: what each of its runs emulated */
		cfg->emu.run.cycles = run->nomux_cycles;
		cfg->emu.run.follows_command = c->s.emu_cfg.follow_wall;
		cfg->nomux_runs = run->nomux_runs;
	}
	cfg->emu.run.repeats = nr_runs;
	/* the runs actually done, the one a signal cut short included */
	cfg->repeat = nr_runs;
	if (run->emu_partial) {
		cfg->emu.run.partial = true;
		cfg->emu.run.interrupted = run->emu_interrupted;
		cfg->emu.run.cycles_wanted = run->emu_wanted;
	}
	if (stat_interrupted && c->o.repeat > 1 && nr_runs < c->o.repeat) {
		cfg->emu.run.run_interrupted = nr_runs;
		if (!cfg->emu.run.partial && cfg->emu.active) {
			/* a command's run: its emulated time followed it to the end */
			cfg->emu.run.partial = cfg->emu.run.interrupted = true;
			cfg->emu.run.cycles_wanted = cfg->emu.run.cycles;
		}
	}
}

/* The whole file in a buffer of its own: 0, or -errno. */
static int read_back(FILE *f, char **buf, size_t *len)
{
	if (fflush(f) != 0 || fseek(f, 0, SEEK_END) != 0)
		return -errno;
	long n = ftell(f);
	if (n < 0 || fseek(f, 0, SEEK_SET) != 0)
		return -errno;
	*buf = xmalloc((size_t)n + 1);
	*len = fread(*buf, 1, (size_t)n, f);
	if (*len != (size_t)n) {
		free(*buf);
		return ferror(f) ? -EIO : -ENODATA;
	}
	return 0;
}

/* stat record's perf.data: the final round (an -I run ends with its last
 * interval, as perf's), the run file beside it, the features. 0, or the
 * exit status after a message. */
static int finish_perf_stat(struct stat_cmd *c, const struct stat_result *res)
{
	char *run = NULL;
	size_t len = 0;
	int e = 0;
	struct stat_perf *p = c->perf;
	c->perf = NULL;
	if (c->o.interval_ms <= 0)
		e = stat_perf_round(p, &c->s.all, true, (uint64_t)(res->elapsed_ns + 0.5));
	else if (!c->run.nr_intervals)
		e = stat_perf_round(p, &c->s.all, false, (uint64_t)(res->elapsed_ns + 0.5));
	if (!e && c->runtmp && (e = read_back(c->runtmp, &run, &len)) != 0) {
		stat_perf_free(p);
		p = NULL;
	}
	if (p)
		e = stat_perf_finish(p, run, len);
	free(run);
	if (e) {
		cli_output_error(&c->dataf, -e);
		cli_output_abort(&c->dataf);
		return EXIT_FAILURE;
	}
	return 0;
}

/* toplev's sampling hint after the Topdown (stat-sample.h): the bottleneck
 * node's, or with --show-sample always. In the std output after the run's
 * closing lines; CSV and JSON (whose readers expect their rows only) get
 * none, and --show-sample's goes to standard error there. */
static void print_sample_hint(const struct stat_cmd *c)
{
	const struct stat_opts *o = &c->o;
	if (!o->topdown || o->quiet || o->interval_ms > 0)
		return;
	bool std = c->cfg.format == STAT_FORMAT_STD;
	if (!std && !o->show_sample)
		return;
	struct stat_sample_run r = {
	    .s = &c->s,
	    .metrics = c->metrics,
	    .nr_metrics = c->nr_metrics,
	    .emulated = c->cfg.emu.active,
	    .emu = &c->s.emu_cfg,
	    .all_cpus = o->all_cpus,
	    .cpus = o->cpus,
	    .pid = o->pid,
	    .tids = o->tids,
	    .argv = o->argv,
	};
	char *line = stat_sample_hint(&r, o->show_sample);
	if (line)
		fprintf(std ? c->cfg.out : stderr, "%s\n\n", line);
	free(line);
}

/* The counts (their means with -r) as perf stat prints them, and the run
 * file. 0, or the exit status after a message. */
static int print_results(struct stat_cmd *c)
{
	const struct stat_config *cfg = &c->cfg;
	int status = 0;
	label_emulated_runs(c);
	struct stat_result res = {
	    .list = &c->s.all,
	    .user_s = c->run.user_s,
	    .sys_s = c->run.sys_s,
	    .metrics = c->metrics,
	    .nr_metrics = c->nr_metrics,
	    .first = true,
	};
	stat_repeats_finish(&c->reps, &c->s.all, c->metrics, c->nr_metrics, &res);
	/* -A prints each unit's metrics; --per-core and the like print them
	 * per id where an id is one unit (stat/aggr.h) */
	if ((cfg->per_unit || metrics_per_id_mode(cfg)) && c->nr_metrics)
		unit_metrics_new(&c->s, NULL, &res);
	if (c->o.emu_per_thread && c->o.interval_ms <= 0) {
		/* the tasks' rows are the output, as perf's --per-thread rows */
	} else if (c->o.interval_ms <= 0) {
		stat_print(cfg, &res);
	} else if (c->o.summary) {
		/* --summary: after the intervals the whole run, as without -I */
		struct stat_config total = *cfg;
		total.interval_ms = 0;
		stat_print(&total, &res);
	}
	print_sample_hint(c);
	/* --openmetrics without -I: the whole run's values once */
	if (c->o.interval_ms <= 0)
		export_values(&c->run, &res);
	if (c->o.emu_tasks && !c->o.quiet) {
		char err[512];
		if (stat_print_emu_tasks(cfg, &c->s, c->o.emu_tasks == 2, err, sizeof(err))) {
			cli_error("%s", err);
			return EXIT_FAILURE;
		}
	}
	if (c->rec) {
		/* the run file keeps each unit's metrics for -A only: `stat
		 * report` replays no aggregation mode */
		struct stat_result recorded = res;
		if (!cfg->per_unit)
			recorded.nr_metric_units = 0;
		record_finish(c->rec, cfg, &c->s, &recorded);
		if (record_write(c->rec) != 0) {
			/* a half run file never takes the old one's place */
			struct cli_output *of = c->runtmp ? &c->dataf : &c->recf;
			cli_output_error(of, errno ? errno : EIO);
			cli_output_abort(of);
			status = EXIT_FAILURE;
		}
	}
	if (c->perf && !status)
		status = finish_perf_stat(c, &res);
	unit_metrics_free(&res);
	return status;
}

/* The output files put in place, unless hpmstat itself failed (a failing
 * command's status is its own: its counts still count). Returns the exit
 * status, EXIT_FAILURE when a file cannot be put in place. */
static int finish_outputs(struct stat_cmd *c, int status)
{
	if (status && status != c->run.exit_status) {
		cli_output_abort(&c->out);
		cli_output_abort(&c->recf);
		cli_output_abort(&c->dataf);
		return status;
	}
	if (cli_output_commit(&c->out) && !status)
		status = EXIT_FAILURE;
	if (cli_output_commit(&c->recf) && !status)
		status = EXIT_FAILURE;
	if (cli_output_commit(&c->dataf) && !status)
		status = EXIT_FAILURE;
	return status;
}

/* serve's rules (stat-sink.h), after the options: 0 or the exit status. */
static int serve_defaults(struct stat_opts *o)
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

int cmd_stat(int argc, char **argv)
{
	return cmd_stat_run(argc, argv, NULL);
}

int cmd_stat_run(int argc, char **argv, const struct stat_sink *sink)
{
	struct stat_cmd c = {
	    .sink = sink,
	    .o = {.repeat = 1, .pid = -1, .backend = HPM_BACKEND_AUTO, .big_num = -1},
	    /* perf stat writes its counts to stderr, leaving stdout to the command */
	    .cfg = {.out = stderr, .csv_sep = ",", .repeat = 1},
	    .recf = {.dash_named = true},
	    .dataf = {.dash_named = true},
	};
	int status;

	hpm_emu_config_init(&c.o.emu);
	status = parse_command_line(&c, argc, argv);
	if (status || c.sub == STAT_SUB_REPORT)
		goto out;
	if (sink && (status = serve_defaults(&c.o)))
		goto out;
	hpm_session_init(&c.s, c.o.backend);
	c.have_session = true;
	c.s.dry_run = c.o.dry_run;
	if (c.o.pmu) {
		char err[512];
		if (hpm_session_set_model(&c.s, c.o.pmu, err, sizeof(err))) {
			cli_error("%s", err);
			status = EXIT_FAILURE;
			goto out;
		}
	}
	if (c.o.topdown_variant) {
		char err[512];
		if (hpm_session_set_variant(&c.s, c.o.topdown_variant, err, sizeof(err))) {
			cli_error("%s", err);
			status = EXIT_FAILURE;
			goto out;
		}
	}
	c.s.emu_cfg = c.o.emu;
	if ((status = add_events(&c)) || (status = plan_counting(&c)))
		goto out;
	if (c.o.dry_run) {
		status = dry_run(&c);
		goto out;
	}
	if ((status = open_outputs(&c)))
		goto out;
	configure_output(&c, argc, argv);
	if (sink && sink->start) {
		struct hpm_expo_info info = {.version = PACKAGE_VERSION,
		                             .interval_s = c.o.interval_ms / 1e3};
		if ((status = sink->start(sink->ctx, &c.s, &info)))
			goto out;
		c.sink_started = true;
	}
	catch_signals();
	status = measure(&c);
	if (!status)
		status = print_results(&c);
	if (!status)
		status = c.run.exit_status;
	status = finish_outputs(&c, status);
out:
	if (c.sink_started && sink->stop)
		sink->stop(sink->ctx);
	/* an error on the way: no temporary file stays behind */
	cli_output_abort(&c.out);
	cli_output_abort(&c.recf);
	cli_output_abort(&c.dataf);
	stat_perf_free(c.perf);
	if (c.runtmp)
		fclose(c.runtmp);
	stat_metrics_free(c.metrics, c.nr_metrics);
	stat_repeats_free(&c.reps);
	record_free(c.rec);
	free(c.command);
	if (c.have_session)
		hpm_session_free(&c.s);
	hpm_topology_free(&c.topology);
	free(c.o.events);
	free(c.o.metrics);
	free(c.o.cgroups);
	if (stat_signal) {
		/* die of the signal, as perf stat does */
		return cli_die_of_signal(stat_signal);
	}
	return status < 0 ? 0 : status;
}
