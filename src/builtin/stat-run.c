/* stat-run.c: hpmstat stat's runs (stat-cmd.h): the loop of one run (run
 * control: -I, -D, --timeout, following the command with the emulator),
 * --no-multiplex's run per counter group, -r's repeats, and the signals
 * that stop them.
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
#include "bpf/taskcount.h"
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
volatile sig_atomic_t stat_signal; /* the last SIGINT/SIGTERM, 0: none */

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

/* The cycles of `ticks` periods of period_ms at freq Hz: exact integers, so
 * that ticks and wall time never drift from the emulated clock. */
static uint64_t cycles_at(double period_ms, uint64_t ticks, uint64_t freq)
{
	unsigned __int128 ns = (unsigned __int128)(period_ms * 1e6) * ticks;
	unsigned __int128 c = ns * freq / 1000000000u;
	return c > UINT64_MAX ? UINT64_MAX : (uint64_t)c;
}

/* How the target uses BPF (src/bpf, hpm_target.bpf): --bpf-counters needs
 * it; -a --per-thread and --per-task take it when it loads, except with -I
 * (the threads, the units, would change between intervals).
 * HPMSTAT_BPF_MAX_TASKS sets the size of its task map (tests fill a small
 * one); HPMSTAT_NO_BPF=1 counts per thread as without it (benchmarks).
 * 0, or -1 with the error in err. */
static int set_bpf_target(struct hpm_target *t, const struct stat_opts *o, char *err, size_t errlen)
{
	const char *no = getenv("HPMSTAT_NO_BPF");
	t->per_process = o->per_task;
	if (o->bpf_counters)
		t->bpf = HPM_TARGET_BPF_REQUIRE;
	else if (t->system_wide && o->aggr == STAT_AGGR_THREAD && o->interval_ms <= 0 &&
	         !(no && strcmp(no, "1") == 0))
		t->bpf = HPM_TARGET_BPF_WANT;
	else
		t->bpf = HPM_TARGET_BPF_NO;
	/* read only when BPF may count: a run without it has no map to size */
	if (t->bpf == HPM_TARGET_BPF_NO)
		return 0;
	return hpm_taskcount_max_tasks_env(&t->bpf_max_tasks, err, errlen);
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
	rc->start_unix = stat_unix_now();
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

/* One run's state between its phases (run_once). */
struct run_loop {
	struct hpm_workload w;
	int watch_pidfd;
	bool have_cmd, done;
	/* the emulated harts follow wall time (a host target, or a tool event
	 * beside them), and they are in the run */
	bool wall, emu_follows;
	bool interval, first; /* -I, and no interval printed yet */
	struct hpm_count **prev;
	double t0, deadline, next_tick;
	uint64_t freq;
	uint64_t emu_stop; /* following wall time, the harts' last cycle */
	char err[1024];
};

/* The run's target and its command, prepared (not started): 0 or the
 * exit status. */
static int run_prepare(struct run_ctx *rc, struct run_loop *L)
{
	struct stat_opts *o = rc->o;
	struct hpm_session *s = rc->s;

	rc->emu_wanted = 0;
	rc->emu_partial = rc->emu_interrupted = false;
	rc->last_tick_s = 0;
	rc->emu_base = rc->intervals = 0;
	rc->emu_stop = UINT64_MAX;
	rc->count_reached = rc->timed_out = false;

	rc->target = (struct hpm_target){.pid = -1, .inherit = true};
	if (L->have_cmd) {
		if (hpm_workload_prepare(&L->w, o->argv,
		                         (o->record && strcmp(o->record, "-") == 0) ||
		                             (o->data && strcmp(o->data, "-") == 0),
		                         L->err, sizeof(L->err))) {
			cli_error("%s", L->err);
			return EXIT_FAILURE;
		}
		/* -p/-t PID -- CMD: PID is counted for as long as CMD runs (perf's
		 * "-p 1234 -- sleep 5"); CMD alone is counted from its exec */
		rc->target.pid = o->pid > 0 ? o->pid : L->w.pid;
		/* -D: the counters wait for counting_after_delay, not the exec */
		rc->target.enable_on_exec = !o->delay_ms && o->pid <= 0;
		hpm_workload_forward_signals(&L->w);
	} else if (o->pid > 0) {
		rc->target.pid = o->pid;
		L->watch_pidfd = hpm_process_pidfd(o->pid);
	}
	/* perf: "PID/TID switch overriding CPU": -p counts the process */
	rc->target.system_wide = o->all_cpus && o->pid <= 0;
	rc->target.cpu_list = o->pid > 0 ? NULL : o->cpus;
	rc->target.per_unit = o->no_aggr;
	rc->target.tid_list = o->tids;
	rc->target.per_thread = o->aggr == STAT_AGGR_THREAD;
	if (set_bpf_target(&rc->target, o, L->err, sizeof(L->err))) {
		cli_error("%s", L->err);
		return EXIT_FAILURE;
	}
	/* with a host target, or a tool event that counts wall time beside
	 * them, the emulated harts follow wall time; alone they run as fast as
	 * the host can */
	L->wall = L->have_cmd || o->pid > 0 || o->all_cpus || o->cpus ||
	          (hpm_session_uses_emu(s) && hpm_session_uses_tool(s));
	s->emu_cfg.follow_wall = L->wall;
	return 0;
}

/* The counters opened, and what opening them has to say, once: 0 or the
 * exit status. */
static int run_open(struct run_ctx *rc, struct run_loop *L)
{
	struct stat_opts *o = rc->o;
	struct hpm_session *s = rc->s;

	if (hpm_session_open(s, &rc->target, L->err, sizeof(L->err))) {
		cli_error("%s", L->err);
		if (L->have_cmd) {
			hpm_workload_kill(&L->w, SIGKILL);
			hpm_workload_reap(&L->w, true);
			hpm_workload_forward_signals(NULL);
		}
		return EXIT_FAILURE;
	}
	if (o->emu_tasks && stat_emu_tasks_check(s, L->err, sizeof(L->err))) {
		if (o->emu_per_thread)
			return cli_usage_error(EMU_PER_THREAD_NO);
		cli_error("%s", L->err);
		return EXIT_FAILURE;
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
	return 0;
}

/* Counting started (after -D), the command started, and the run's clocks
 * set: 0 or the exit status. */
static int run_start(struct run_ctx *rc, struct run_loop *L)
{
	struct stat_opts *o = rc->o;
	struct hpm_session *s = rc->s;

	L->t0 = (double)hpm_clock_ns();
	rc->start_unix = stat_unix_now();
	if (counting_start(rc, L->err, sizeof(L->err))) {
		cli_error("%s", L->err);
		return EXIT_FAILURE;
	}
	if (L->have_cmd) {
		/* counted from its exec: started without waiting for the exec
		 * (hpm_workload_go), whose failure is known at its end */
		int e =
		    rc->target.enable_on_exec ? hpm_workload_go(&L->w) : hpm_workload_start(&L->w);
		if (e) {
			hpm_workload_reap(&L->w, true);
			cli_error("cannot run '%s': %s", o->argv[0], strerror(e));
			return 127;
		}
	}
	if (o->delay_ms && counting_after_delay(rc, L->have_cmd ? &L->w : NULL, L->watch_pidfd,
	                                        !L->wall, &L->t0, L->err, sizeof(L->err))) {
		cli_error("%s", L->err);
		return EXIT_FAILURE;
	}
	L->deadline = run_deadline(rc, L->t0);
	L->emu_follows = hpm_session_uses_emu(s) && L->wall;
	L->interval = o->interval_ms > 0;
	if (L->interval)
		L->prev = hpm_session_snapshot(s);
	L->next_tick = L->t0 + o->interval_ms * 1e6;
	L->first = true;
	struct hpm_emu_info info;
	L->freq = hpm_session_emu_info(s, &info) ? info.freq : 0;
	/* following wall time, the harts' --emu-cycles is a deadline like
	 * --timeout's, the sooner of the two */
	L->emu_stop = L->emu_follows ? emu_follow_stop(rc, &info) : UINT64_MAX;
	rc->emu_stop = L->emu_stop;
	if (L->emu_stop != UINT64_MAX) {
		double emu_end = L->t0 + (double)L->emu_stop / (double)L->freq * 1e9;
		if (L->deadline == 0 || emu_end < L->deadline)
			L->deadline = emu_end;
	}
	return 0;
}

/* Prints the interval that ends at emulated cycle `at`: 0 or the exit
 * status. */
static int print_emu_interval(struct run_ctx *rc, struct run_loop *L, uint64_t at)
{
	if (stat_print_interval(rc, (double)(at - rc->emu_base) / (double)L->freq, &L->prev,
	                        L->first))
		return EXIT_FAILURE;
	L->first = false;
	return 0;
}

/* Only the emulated harts: emulated time, no sleeping, in slices that
 * leave room to notice a signal; -I ticks are emulated time. 0 or the
 * exit status. */
static int run_harts_alone(struct run_ctx *rc, struct run_loop *L)
{
	struct stat_opts *o = rc->o;
	struct hpm_session *s = rc->s;
	struct hpm_emu_info info;
	uint64_t ran, ticks = 0, next = UINT64_MAX, stop = emu_stop_cycle(rc, L->freq);

	if (L->interval)
		next = rc->emu_base + cycles_at(o->interval_ms, 1, L->freq);
	while (!L->done && !stat_interrupted) {
		hpm_session_emu_info(s, &info);
		if (hpm_session_run_emu(s, (next < stop ? next : stop) - info.cycles_run,
		                        EMU_BUDGET_NS, &ran, &L->done, L->err, sizeof(L->err))) {
			cli_error("%s", L->err);
			return EXIT_FAILURE;
		}
		hpm_session_emu_info(s, &info);
		L->done |= info.cycles_run >= stop;
		if (L->interval && (info.cycles_run >= next || L->done)) {
			if (print_emu_interval(rc, L, info.cycles_run))
				return EXIT_FAILURE;
			next = rc->emu_base + cycles_at(o->interval_ms, ++ticks + 1, L->freq);
			L->done |= interval_count_reached(rc);
		}
	}
	rc->elapsed_ns = (double)hpm_clock_ns() - L->t0;
	hpm_session_emu_info(s, &info);
	if (L->done || !stat_interrupted)
		return 0;
	rc->emu_partial = rc->emu_interrupted = true;
	rc->emu_wanted = info.cycles_limit;
	if (L->interval &&
	    info.cycles_run > rc->emu_base + cycles_at(o->interval_ms, ticks, L->freq)) {
		if (print_emu_interval(rc, L, info.cycles_run))
			return EXIT_FAILURE;
	} else if (L->interval && rc->cfg->format != STAT_FORMAT_JSON) {
		/* stopped on a tick: the label alone says where */
		char label[512];
		struct stat_config *cfg = rc->cfg;
		hpm_session_emu_label(s, &cfg->emu);
		cfg->emu.run.partial = cfg->emu.run.interrupted = true;
		cfg->emu.run.cycles_wanted = rc->emu_wanted;
		fprintf(cfg->out, "# %s\n", stat_emu_describe(&cfg->emu, label, sizeof(label)));
	}
	return 0;
}

/* Following wall time, the harts after the end of the run: the rest up to
 * it, within EMU_CATCHUP_NS, and what fell behind said. 0 or the exit
 * status. */
static int emu_follow_end(struct run_ctx *rc, struct run_loop *L)
{
	struct hpm_emu_info info;
	uint64_t want = cycles_at(rc->elapsed_ns / 1e6, 1, L->freq);
	if (want > L->emu_stop)
		want = L->emu_stop;
	if (emu_catch_up(rc->s, want, L->err, sizeof(L->err))) {
		cli_error("%s", L->err);
		return EXIT_FAILURE;
	}
	hpm_session_emu_info(rc->s, &info);
	if (want > info.cycles_run) {
		rc->emu_partial = true;
		rc->emu_wanted = want;
		cli_warn("warning: the emulator fell behind wall time: emulated %.3g s "
		         "of "
		         "%.3g s (%u hart%s at %.6g MHz); %s counts cover the "
		         "emulated part only",
		         (double)info.cycles_run / (double)L->freq, rc->elapsed_ns / 1e9,
		         info.harts, info.harts == 1 ? "" : "s", (double)L->freq / 1e6,
		         rc->s->model->display);
	} else if (stat_interrupted && !L->have_cmd && rc->o->pid <= 0 &&
	           info.cycles_run < L->emu_stop) {
		/* a signal before the harts' end: "N of M cycles", as alone */
		rc->emu_partial = rc->emu_interrupted = true;
		rc->emu_wanted = L->emu_stop;
	}
	return 0;
}

/* One step of following wall time at `now`: an -I tick that is due
 * printed, or emulated harts that are behind run in a bounded slice. 1
 * when the step did something (look again at once), 2 when the run ends
 * (--interval-count), 0 when there is nothing to do but wait, else -1
 * after the message. */
static int follow_step(struct run_ctx *rc, struct run_loop *L, double now)
{
	struct hpm_session *s = rc->s;
	uint64_t ran;
	if (L->interval && now >= L->next_tick) {
		/* the harts' counts of the interval cover its wall time */
		uint64_t want = cycles_at((now - L->t0) / 1e6, 1, L->freq);
		if (L->emu_follows && emu_catch_up(s, want < L->emu_stop ? want : L->emu_stop,
		                                   L->err, sizeof(L->err))) {
			cli_error("%s", L->err);
			return -1;
		}
		if (stat_print_interval(rc, (now - L->t0) / 1e9, &L->prev, L->first))
			return -1;
		L->first = false;
		L->next_tick += rc->o->interval_ms * 1e6;
		/* perf then prints no more, but still waits for the command */
		return interval_count_reached(rc) ? 2 : 1;
	}
	if (L->emu_follows) {
		/* emulated time is the target's wall time since t0, not
		 * hpmstat's: catch up in bounded slices, then sleep */
		struct hpm_emu_info info;
		uint64_t want = cycles_at((now - L->t0) / 1e6, 1, L->freq);
		uint64_t slack = cycles_at(EMU_FOLLOW_SLACK_MS, 1, L->freq);
		if (want > L->emu_stop)
			want = L->emu_stop;
		hpm_session_emu_info(s, &info);
		if (want > info.cycles_run + slack) {
			if (hpm_session_run_emu(s, want - info.cycles_run, EMU_BUDGET_NS, &ran,
			                        &L->done, L->err, sizeof(L->err))) {
				cli_error("%s", L->err);
				return -1;
			}
			return 1;
		}
	}
	return 0;
}

/* A host target (or the harts following wall time): wait for the command,
 * the -p process, a signal or the deadline, with -I's ticks and the
 * harts' slices between. 0 or the exit status. */
static int run_following_wall(struct run_ctx *rc, struct run_loop *L)
{
	struct stat_opts *o = rc->o;
	for (;;) {
		if (L->have_cmd) {
			hpm_workload_reap(&L->w, false);
			if (L->w.exited)
				break;
		} else if (stat_interrupted) {
			break;
		}
		if (o->pid > 0 && !L->have_cmd && hpm_process_gone(o->pid))
			break;
		double now = (double)hpm_clock_ns();
		if (L->deadline != 0 && now >= L->deadline) {
			stop_at_timeout(rc, L->have_cmd ? &L->w : NULL);
			break;
		}
		int step = follow_step(rc, L, now);
		if (step < 0)
			return EXIT_FAILURE;
		if (step == 2)
			break;
		if (step)
			continue;
		int timeout = -1;
		if (L->emu_follows)
			timeout = EMU_FOLLOW_PERIOD_MS;
		if (L->interval) {
			int t = L->next_tick > now ? (int)((L->next_tick - now) / 1e6) + 1 : 0;
			if (timeout < 0 || t < timeout)
				timeout = t;
		}
		hpm_workload_wait(L->have_cmd ? &L->w : NULL, o->pid, L->watch_pidfd,
		                  wait_ms_until(timeout, now, L->deadline), &stat_signal);
	}
	double end = (double)hpm_clock_ns();
	rc->elapsed_ns = end - L->t0;
	return L->emu_follows ? emu_follow_end(rc, L) : 0;
}

/* The end of the run: the command waited for, the counters read, the last
 * interval, the command's status and times. 0 or the exit status. */
static int run_finish(struct run_ctx *rc, struct run_loop *L)
{
	struct stat_opts *o = rc->o;
	struct hpm_session *s = rc->s;

	if (L->have_cmd && !L->w.exited) {
		/* the command outlives a signal it traps: wait for it, as perf does */
		hpm_workload_reap(&L->w, true);
	}
	int exec_err = L->have_cmd ? hpm_workload_exec_error(&L->w) : 0;
	if (exec_err) {
		cli_error("cannot run '%s': %s", o->argv[0], strerror(exec_err));
		return 127;
	}
	/* one that outlives --timeout's SIGTERM is counted to its end, as perf */
	if (rc->timed_out)
		rc->elapsed_ns = (double)hpm_clock_ns() - L->t0;
	hpm_workload_forward_signals(NULL);
	hpm_session_disable(s, L->err, sizeof(L->err));
	if (hpm_session_read(s, L->err, sizeof(L->err))) {
		cli_error("%s", L->err);
		return EXIT_FAILURE;
	}
	bpf_warnings(rc);
	if (L->interval && (L->have_cmd || o->pid > 0 || rc->timed_out) && !rc->count_reached) {
		/* the partial interval since the last tick, as perf prints it;
		 * also at the end --emu-cycles put to the run (-I excludes
		 * --timeout), as the harts alone print it */
		if (stat_print_interval(rc, ((double)hpm_clock_ns() - L->t0) / 1e9, &L->prev,
		                        L->first))
			return EXIT_FAILURE;
	}
	if (L->have_cmd) {
		int sig, status = hpm_workload_exit_status(&L->w, &sig);
		hpm_workload_times(&L->w, &rc->user_s, &rc->sys_s);
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
	                          L->have_cmd ? (uint64_t)(rc->user_s * 1e9 + 0.5) : 0,
	                          L->have_cmd ? (uint64_t)(rc->sys_s * 1e9 + 0.5) : 0);
	return 0;
}

/* Counts one run of the workload (or the emulated harts); 0 or an exit
 * status for an error. */
static int run_once(struct run_ctx *rc)
{
	struct run_loop L = {
	    .w = {.pid = -1, .pidfd = -1}, .watch_pidfd = -1, .have_cmd = rc->o->argv != NULL};
	int rcode = run_prepare(rc, &L);
	if (rcode)
		return rcode;
	if (!(rcode = run_open(rc, &L)) && !(rcode = run_start(rc, &L)) &&
	    !(rcode = L.wall ? run_following_wall(rc, &L) : run_harts_alone(rc, &L)))
		rcode = run_finish(rc, &L);
	hpm_workload_forward_signals(NULL);
	hpm_session_snapshot_free(rc->s, L.prev);
	hpm_workload_close(&L.w);
	if (L.watch_pidfd >= 0)
		close(L.watch_pidfd);
	return rcode;
}

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

/* SIGINT and SIGTERM stop the counting (on_signal); no SA_RESTART: a
 * signal ends the poll or wait it interrupts. */
void stat_catch_signals(void)
{
	struct sigaction sa = {.sa_sigaction = on_signal, .sa_flags = SA_SIGINFO};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* The runs: -r N of them (a signal stops after the one it cuts short),
 * each one's counts, metrics and time added to the repeat statistics and
 * the run file. 0, or the exit status of the run that failed. */
int stat_measure(struct stat_cmd *c)
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
