/* stat-output.c: hpmstat stat's outputs (stat-cmd.h): the counts (-o FILE,
 * "-" for standard output, else standard error as perf stat), the run file
 * (--record), stat record's perf.data and --openmetrics's file, opened
 * before the run, written at each -I interval and at the end, then put in
 * place by builtin/cli.h's struct cli_output.
 */
#include "config.h"

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
#include "util/child.h"
#include "metric/metric.h"
#include "stat/noise.h"
#include "stat/nomux.h"
#include "backend/topology.h"
#include "stat/aggr.h"
#include "stat/emu-tasks.h"
#include "stat/perf-stat.h"
#include "stat/runfile-write.h"
#include "stat/session.h"
#include "stat/stat.h"
#include "util/clock.h"
#include "util/outfile.h"
#include "util/xalloc.h"
#include "builtin/stat-cmd.h"

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
double stat_unix_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The values of res (an interval, or the whole run) to --openmetrics's
 * file and serve's sink. */
void stat_export_values(struct run_ctx *rc, const struct stat_result *res)
{
	const struct stat_opts *o = rc->o;
	struct hpm_expo_info info = {.version = PACKAGE_VERSION,
	                             .intervals = rc->nr_intervals,
	                             .interval_s = o->interval_ms / 1e3,
	                             .start_time = rc->start_unix,
	                             .last_update = stat_unix_now()};
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

int stat_print_interval(struct run_ctx *rc, double ts, struct hpm_count ***prev, bool first)
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
	stat_export_values(rc, &res);
	unit_metrics_free(&res);
	stat_metrics_free(res.metrics, res.nr_metrics);
	hpm_session_snapshot_free(rc->s, *prev);
	*prev = hpm_session_snapshot(rc->s);
	hpm_session_snapshot_free(rc->s, d);
	return 0;
}

/* The output paths, checked before anything runs, and a -p process that
 * is not there. 0, or the exit status after a message. */
int stat_open_outputs(struct stat_cmd *c)
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
void stat_configure_output(struct stat_cmd *c, int argc, char **argv)
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
	cfg->json_extra = o->json_extra;
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
int stat_print_results(struct stat_cmd *c)
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
		stat_export_values(&c->run, &res);
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
int stat_finish_outputs(struct stat_cmd *c, int status)
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
