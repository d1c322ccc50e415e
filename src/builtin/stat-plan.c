/* stat-plan.c: what hpmstat stat counts (stat-cmd.h): the events of -e,
 * -d, -M, --topdown and --nodes (perf's default set when none is given),
 * --all-user, --all-kernel and -G on each, then the split between the back
 * ends and what it decides (the target when none is given, the
 * aggregation, the checks that need both); --dry-run.
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

/* The Topdown tree down to o->topdown, or the --nodes selection from it;
 * o->topdown becomes the deepest level shown. */
static int add_topdown(struct hpm_session *s, struct stat_opts *o, char *err, size_t errlen)
{
	if (!o->nodes)
		return hpm_session_add_metrics(s, NULL, o->topdown, o->retired_minstret, err,
		                               errlen);
	struct metric_set sel;
	struct hpm_diag merr;
	metric_set_init(&sel, s->metrics.table);
	if (metric_set_add_nodes(&sel, o->topdown, o->nodes, &merr) != 0) {
		snprintf(err, errlen, "--nodes: %s", merr.msg);
		metric_set_free(&sel);
		return -1;
	}
	/* the selection as a -M list, in tree order */
	size_t len = 1;
	for (unsigned i = 0; i < sel.nr; i++)
		len += strlen(metric_str(sel.m[i], sel.m[i]->name)) + 1;
	char *list = xmalloc(len);
	list[0] = '\0';
	for (unsigned i = 0; i < sel.nr; i++) {
		if (i)
			strcat(list, ",");
		strcat(list, metric_str(sel.m[i], sel.m[i]->name));
	}
	o->topdown = metric_set_max_level(&sel);
	metric_set_free(&sel);
	int rc = hpm_session_add_metrics(s, list, 0, o->retired_minstret, err, errlen);
	free(list);
	/* a tree, if a pruned one: its bottleneck is marked as --topdown's */
	s->metrics.tree = true;
	return rc;
}

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
		/* perf's tool events (duration_time, ...) take a cgroup name as
		 * perf's do: the session's clock and rusage, not filtered */
		bool emulated = hpm_evsel_is_model(e);
		if (e->cgroup && emulated && !s->model_on_perf) {
			cli_error("-G '%s': '%s' is emulated, and the emulator has no cgroups",
			          e->cgroup, e->name);
			return EXIT_FAILURE;
		}
	}
	return 0;
}

/* The rows and metrics to count: -e, -d, -M, --topdown and perf's default
 * set when none is given. 0, or the exit status after a message. */
int stat_add_events(struct stat_cmd *c)
{
	struct stat_opts *o = &c->o;
	struct hpm_session *s = &c->s;
	char err[1024];

	/* --topdown on --backend perf needs a PMU it has formulas for: the one
	 * line says so, not what the first of its events would say */
	if (o->topdown && s->choice == HPM_BACKEND_PERF && !s->pmu.present) {
		cli_error("--topdown: Topdown needs a Kunminghu or Neoverse PMU, and this host "
		          "has none (use --backend emu or auto)");
		return EXIT_FAILURE;
	}
	/* an -e list that does not parse or name events is a usage error,
	 * as perf's parse_events_option makes it (status 129) */
	bool given = o->nr_events > 0;
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
		if (hpm_session_add_events(s, o->events[i], err, sizeof(err))) {
			cli_error("%s", err);
			return given ? EXIT_USAGE : EXIT_FAILURE;
		}
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
int stat_plan_counting(struct stat_cmd *c)
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
int stat_dry_run(struct stat_cmd *c)
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
