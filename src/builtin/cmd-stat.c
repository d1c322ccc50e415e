/* cmd-stat.c: hpmstat stat: count events of a command, a process, CPUs or the
 * emulated harts, as perf stat does, and compute Topdown.
 *
 * Owns: the order of the phases. cmd_stat is a straight line over one
 * struct (struct stat_cmd, stat-cmd.h, every default in its options) with
 * one cleanup label; the phases are stat-opts.c (the options and their
 * checks), stat-plan.c (the events and the target), stat-run.c (the loop of
 * one run: -I, -D, --timeout, following the command with the emulator) and
 * stat-output.c (the outputs). The measurement itself is src/stat/session.c,
 * the workload child src/util/child.c, the repeat statistics
 * src/stat/noise.c, the output src/stat/print-*.c and builtin/cli.c's
 * struct cli_output, the run file src/stat/runfile-write.c, the --openmetrics
 * file src/export/openmetrics.c. `hpmstat serve` is this command with a
 * sink that gets each interval's values (stat-sink.h, cmd-serve.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "builtin/builtin.h"
#include "builtin/stat-cmd.h"
#include "util/xalloc.h"

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
	status = stat_cmd_parse(&c, argc, argv);
	if (status || c.sub == STAT_SUB_REPORT)
		goto out;
	if (sink && (status = stat_serve_defaults(&c.o)))
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
	if ((status = stat_add_events(&c)) || (status = stat_plan_counting(&c)))
		goto out;
	if (c.o.dry_run) {
		status = stat_dry_run(&c);
		goto out;
	}
	if ((status = stat_open_outputs(&c)))
		goto out;
	stat_configure_output(&c, argc, argv);
	if (sink && sink->start) {
		struct hpm_expo_info info = {.version = PACKAGE_VERSION,
		                             .interval_s = c.o.interval_ms / 1e3};
		if ((status = sink->start(sink->ctx, &c.s, &info)))
			goto out;
		c.sink_started = true;
	}
	stat_catch_signals();
	status = stat_measure(&c);
	if (!status)
		status = stat_print_results(&c);
	if (!status)
		status = c.run.exit_status;
	status = stat_finish_outputs(&c, status);
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
