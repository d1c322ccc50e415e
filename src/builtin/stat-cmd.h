/* stat-cmd.h: what the files of hpmstat stat share (private to them).
 *
 * Owns: the command's options (struct stat_opts, every default in
 * cmd_stat_run), the state of one run (struct run_ctx) and of the whole
 * command (struct stat_cmd), and the phases each file implements:
 * stat-opts.c reads the command line, stat-plan.c picks the events and the
 * target, stat-run.c counts (run control, signals), stat-output.c opens,
 * prints and puts in place the outputs. cmd-stat.c runs the phases in order.
 */
#ifndef HPM_BUILTIN_STAT_CMD_H
#define HPM_BUILTIN_STAT_CMD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "backend/topology.h"
#include "builtin/cli.h"
#include "builtin/cmd-stat-record.h"
#include "builtin/stat-sink.h"
#include "export/openmetrics.h"
#include "stat/aggr.h"
#include "stat/noise.h"
#include "stat/perf-stat.h"
#include "stat/runfile-write.h"
#include "stat/session.h"
#include "stat/stat.h"

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
	bool json_extra;
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
	const char *pmu;  /* --pmu: the model counted instead of the host's */
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

/* The last SIGINT/SIGTERM, 0: none (stat-run.c: what it stops). */
extern volatile sig_atomic_t stat_signal;
#define stat_interrupted (stat_signal != 0)

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

/* stat-opts.c: the options, and perf's `stat report` and `stat record`
 * (cmd-stat-record.c): the options of stat go before and after the word,
 * as in perf. 0, -1 when done (--help), else the exit status. */
int stat_cmd_parse(struct stat_cmd *c, int argc, char **argv);
/* serve's rules (stat-sink.h), after the options: 0 or the exit status. */
int stat_serve_defaults(struct stat_opts *o);

/* stat-plan.c: the rows and metrics to count, then the events split
 * between the back ends and what that decides; --dry-run. 0, or the exit
 * status after a message. */
int stat_add_events(struct stat_cmd *c);
int stat_plan_counting(struct stat_cmd *c);
int stat_dry_run(struct stat_cmd *c);

/* stat-run.c: SIGINT and SIGTERM stop the counting; the runs (-r N) into
 * the repeat statistics and the run file. 0, or an exit status. */
void stat_catch_signals(void);
int stat_measure(struct stat_cmd *c);

/* stat-output.c */
int stat_open_outputs(struct stat_cmd *c);
void stat_configure_output(struct stat_cmd *c, int argc, char **argv);
int stat_print_results(struct stat_cmd *c);
int stat_finish_outputs(struct stat_cmd *c, int status);
/* One -I interval: read, printed, recorded and exported. 0 or -1. */
int stat_print_interval(struct run_ctx *rc, double ts, struct hpm_count ***prev, bool first);
/* The values of res to --openmetrics's file and serve's sink. */
void stat_export_values(struct run_ctx *rc, const struct stat_result *res);
/* Unix time in seconds, for the exposition's timestamps. */
double stat_unix_now(void);

#endif
