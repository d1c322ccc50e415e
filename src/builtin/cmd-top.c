/* cmd-top.c: hpmstat top (hpmtop): the live Topdown view.
 *
 * Reads the config file, then the options (which win), builds the view
 * state (src/top/view-state.c) and runs one of three loops over it: the ncurses view
 * with keys, batch text frames (-b) or JSON frames (--json). Keys map to
 * settings in struct top_opts and to top_model calls here, so the view
 * stays a renderer.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "builtin/backend-opts.h"
#include "builtin/builtin.h"
#include "builtin/cli-opts.h"
#include "top/top.h"
#include "util/clock.h"
#include "util/outfile.h"
#ifdef HAVE_NCURSES
#include "top/view.h"
#endif
#include "util/xalloc.h"

static const char top_usage_head[] =
    "Usage: hpmstat top [options]    (also: hpmtop [options])\n"
    "\n"
    "A live, top-like view of Topdown per hart or CPU and of the busiest processes.\n"
    "\n";

static const char top_usage_tail[] =
    "\n"
    "Keys: q quit, h help, < > s sort, r reverse, p pause, + - interval, t level,\n"
    "d drill down, u up, e edit events, W write the config file; arrows PgUp PgDn\n"
    "Home End select, Tab units/processes, Enter the row's tree, Esc back, F follow,\n"
    "/ filter, F5 T tree, k signal, U user; htop's F1 help, F2 setup, F3 search,\n"
    "F4 filter, F5 tree, F6 sort, F7 nice -, F8 nice +, F9 kill, F10 quit.\n";

enum top_mode { MODE_TUI, MODE_BATCH, MODE_JSON };

struct cli {
	enum top_mode mode;
	unsigned long iterations; /* 0: forever */
	const char *config;
	bool no_config;
	bool sort_opt; /* -s given (else any sort came from top.conf) */
};

/* Signals. SIGINT, SIGTERM and SIGHUP end the loops (no SA_RESTART: the
 * wait for a key or for the next tick returns at once), the terminal is
 * given back, and hpmstat then dies of the same signal, as perf top and
 * hpmstat stat do, so that the shell sees 128+N (130 after Ctrl-C, 143
 * after kill) and a script running hpmstat top stops as well; q exits 0. */
static volatile sig_atomic_t top_signal; /* the last one caught, 0: none */

#define top_stop (top_signal != 0)

static void on_signal(int sig)
{
	top_signal = sig;
}

/* option -> the config key it sets, so both share one validation */
static int set_option(struct top_opts *o, const char *opt, const char *key, const char *val)
{
	char err[256];
	if (top_config_set(o, key, val, err, sizeof(err)) == 0)
		return 0;
	/* "delay 'x': ..." reads as "-d 'x': ..." on the command line */
	const char *msg = strchr(err, '\'');
	cli_error("%s %s", opt, msg ? msg : err);
	return -1;
}

/* backend-opts.h's set_key: the back-end options are checked as their
 * top.conf keys are */
static int set_backend_key(void *o, const char *opt, const char *key, const char *val)
{
	return set_option(o, opt, key, val);
}

/* What top's options set: its settings (those of top.conf) and the
 * command line's own. */
struct top_cli_opts {
	struct top_opts *o;
	struct cli *c;
};

/* The options that share top.conf's keys are checked as the keys are. */
static int opt_delay(void *ctx, const char *arg)
{
	return set_option(((struct top_cli_opts *)ctx)->o, "-d", "delay", arg) ? EXIT_FAILURE : 0;
}

static int opt_level(void *ctx, const char *arg)
{
	return set_option(((struct top_cli_opts *)ctx)->o, "-t", "level", arg) ? EXIT_FAILURE : 0;
}

static int opt_processes(void *ctx, const char *arg)
{
	return set_option(((struct top_cli_opts *)ctx)->o, "-N", "processes", arg) ? EXIT_FAILURE
	                                                                           : 0;
}

static int opt_user(void *ctx, const char *arg)
{
	return set_option(((struct top_cli_opts *)ctx)->o, "-u", "user", arg) ? EXIT_FAILURE : 0;
}

static int opt_pmu(void *ctx, const char *arg)
{
	return set_option(((struct top_cli_opts *)ctx)->o, "--pmu", "pmu", arg) ? EXIT_FAILURE : 0;
}

static int opt_topdown_variant(void *ctx, const char *arg)
{
	return set_option(((struct top_cli_opts *)ctx)->o, "--topdown-variant", "topdown-variant",
	                  arg)
	           ? EXIT_FAILURE
	           : 0;
}

static int opt_batch(void *ctx, const char *arg)
{
	(void)arg;
	((struct top_cli_opts *)ctx)->c->mode = MODE_BATCH;
	return 0;
}

static int opt_json(void *ctx, const char *arg)
{
	(void)arg;
	((struct top_cli_opts *)ctx)->c->mode = MODE_JSON;
	return 0;
}

static int opt_iterations(void *ctx, const char *arg)
{
	uint64_t n;
	if (cli_parse_u64("-n", arg, 1, UINT_MAX, &n))
		return EXIT_FAILURE;
	((struct top_cli_opts *)ctx)->c->iterations = (unsigned long)n;
	return 0;
}

static int opt_event(void *ctx, const char *arg)
{
	struct top_opts *o = ((struct top_cli_opts *)ctx)->o;
	top_opts_set(&o->events, arg);
	top_opts_set(&o->events_origin, NULL);
	return 0;
}

static int opt_metrics(void *ctx, const char *arg)
{
	top_opts_set(&((struct top_cli_opts *)ctx)->o->metrics, arg);
	return 0;
}

static int opt_cpu(void *ctx, const char *arg)
{
	top_opts_set(&((struct top_cli_opts *)ctx)->o->cpus, arg);
	return 0;
}

static int opt_pid(void *ctx, const char *arg)
{
	uint64_t n;
	if (cli_parse_u64("-p", arg, 1, INT_MAX, &n))
		return EXIT_FAILURE;
	((struct top_cli_opts *)ctx)->o->pid = (int)n;
	return 0;
}

static int opt_sort(void *ctx, const char *arg)
{
	struct top_cli_opts *t = ctx;
	top_opts_set(&t->o->sort, arg);
	t->c->sort_opt = true;
	return 0;
}

static int opt_reverse(void *ctx, const char *arg)
{
	(void)arg;
	((struct top_cli_opts *)ctx)->o->reverse = true;
	return 0;
}

static int opt_sticky(void *ctx, const char *arg)
{
	(void)arg;
	((struct top_cli_opts *)ctx)->o->sticky = true;
	return 0;
}

static int opt_no_color(void *ctx, const char *arg)
{
	(void)arg;
	((struct top_cli_opts *)ctx)->o->color = false;
	return 0;
}

static int opt_no_bpf(void *ctx, const char *arg)
{
	(void)arg;
	((struct top_cli_opts *)ctx)->o->no_bpf = true;
	return 0;
}

static int opt_tree(void *ctx, const char *arg)
{
	(void)arg;
	((struct top_cli_opts *)ctx)->o->tree = true;
	return 0;
}

/* top's options, then the --backend and --emu-* ones (backend-opts.h; top
 * has no --emu-cycles: it runs until quit), then --help: the order an
 * ambiguous abbreviation lists its candidates in. --config and
 * --no-config are read before the file (find_config), and ignored here. */
static const struct cli_opt top_options[] = {
    CLI_CALL("delay", 'd', required_argument, opt_delay, .argh = "SECONDS",
             .help = "refresh interval (default 1, 0.1 to 3600)"),
    CLI_CALL("batch", 'b', no_argument, opt_batch,
             .help = "plain-text frames on stdout, no terminal needed"),
    CLI_CALL("json", 'j', no_argument, opt_json, .help = "one JSON object per frame"),
    CLI_CALL("iterations", 'n', required_argument, opt_iterations, .argh = "N",
             .help = "stop after N frames (default: until q or Ctrl-C)"),
    CLI_CALL("event", 'e', required_argument, opt_event, .argh = "EVENTS",
             .help = "extra event columns (perf -e syntax)"),
    CLI_CALL("metrics", 'M', required_argument, opt_metrics, .argh = "LIST",
             .help = "extra metric columns"),
    CLI_CALL("topdown", 't', required_argument, opt_level, .argh = "LEVEL",
             .help = "Topdown tree depth shown, 1-3 (default 1)"),
    CLI_CALL("cpu", 'C', required_argument, opt_cpu, .argh = "LIST",
             .help = "perf: only these CPUs"),
    CLI_CALL("pid", 'p', required_argument, opt_pid, .argh = "PID",
             .help = "perf: count and list only this process"),
    CLI_CALL("processes", 'N', required_argument, opt_processes, .argh = "N|all",
             .help = "process rows: the busiest N, or all (default: all)"),
    CLI_CALL("user", 'u', required_argument, opt_user, .argh = "USER",
             .help = "only USER's processes (a name or a uid)"),
    CLI_CALL("sort", 's', required_argument, opt_sort, .argh = "COLUMN",
             .help = "sort the process table by COLUMN (PID, COMMAND, USER, S, %CPU, TASK-MS, CSW, "
                     "FAULTS, VIRT, RES, SHR, NI)"),
    CLI_CALL("reverse", 'r', no_argument, opt_reverse, .help = "ascending sort"),
    CLI_CALL("sticky", 0, no_argument, opt_sticky, .help = "keep exited processes, marked"),
    CLI_CALL("no-color", 0, no_argument, opt_no_color,
             .help = "no colours (NO_COLOR does the same)"),
    CLI_IGNORE("config", 0, required_argument, .argh = "FILE",
               .help = "settings file (default $XDG_CONFIG_HOME/hpmstat/top.conf)"),
    CLI_IGNORE("no-config", 0, no_argument, .help = "ignore the settings file"),
    CLI_CALL("pmu", 0, required_argument, opt_pmu, .argh = "MODEL",
             .help = "show MODEL's harts (its emulator unless this host has it)"),
    CLI_CALL("topdown-variant", 0, required_argument, opt_topdown_variant, .argh = "NAME",
             .help = "the model's formulas by name (Kunminghu: document, the default, or slots)"),
    CLI_CALL("no-bpf", 0, no_argument, opt_no_bpf,
             .help = "task rows from per-task counters, not BPF"),
    CLI_CALL("tree", 0, no_argument, opt_tree,
             .help = "threads listed under their process (F5, T)"),
    CLI_INCLUDE(backend_options),
    CLI_HELP("help", 'h', .help = "this text"),
    {0},
};

/* top's options: the back end's where they say top's defaults */
static const struct cli_opt top_backend_help[] = {
    {.name = "emu-freq", .argh = "HZ", .help = "emulated clock (default 5 MHz)"},
    {0},
};

static const struct cli_opts top_spec = {
    .table = top_options, .prefix = "+:", .help_override = top_backend_help};

void cmd_top_usage(FILE *out)
{
	cli_opts_usage(out, &top_spec, top_usage_head, top_usage_tail);
}

/* first pass: only where the config file is, so the file can be loaded
 * before the options that override it (errors are the second pass's) */
static void find_config(int argc, char **argv, struct cli *c)
{
	struct option *longopts;
	char *shortopts;
	int ch;
	cli_opts_getopt_tables(&top_spec, &longopts, &shortopts);
	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct cli_opt *e = cli_opts_entry(&top_spec, ch);
		if (e && e->name && strcmp(e->name, "config") == 0)
			c->config = optarg;
		else if (e && e->name && strcmp(e->name, "no-config") == 0)
			c->no_config = true;
	}
	free(shortopts);
	free(longopts);
}

static int parse_opts(int argc, char **argv, struct top_opts *o, struct cli *c)
{
	struct backend_opts bo = {.backend = &o->backend,
	                          .emu = &o->emu,
	                          .emu_given = &o->emu_asked,
	                          .set_key = set_backend_key,
	                          .ctx = o};
	struct top_cli_opts ctx = {.o = o, .c = c};
	struct cli_opts spec = top_spec;
	spec.include_ctx = &bo;
	int rc = cli_opts_parse(&spec, argc, argv, &ctx);
	if (rc)
		return rc;
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (o->emu.profile && o->emu.trace)
		return cli_usage_error("--emu-profile and --emu-trace exclude each other");
	if (o->backend == HPM_BACKEND_EMU && (o->pid > 0 || o->cpus))
		return cli_usage_error("-p and -C need the perf back end");
	return 0;
}

static void sleep_until(double t)
{
	while (!top_stop) {
		double left = t - hpm_clock_s();
		if (left <= 0)
			return;
		struct timespec ts = {(time_t)left, (long)((left - floor(left)) * 1e9)};
		if (nanosleep(&ts, NULL) == 0)
			return;
	}
}

/* -b and --json: frames on stdout, one per tick */
static int run_batch(struct top_model *m, struct top_opts *o, const struct cli *c)
{
	char err[512];
	double next = hpm_clock_s() + o->delay;
	for (unsigned long i = 0; !top_stop && (!c->iterations || i < c->iterations); i++) {
		sleep_until(next);
		if (top_stop)
			break;
		struct top_frame f;
		double woke = hpm_clock_s();
		if (top_model_sample(m, &f, err, sizeof(err))) {
			cli_error("%s", err);
			return EXIT_FAILURE;
		}
		/* the JSON frame carries the time to here; its own formatting is
		 * part of the next frame's budget, not measurable inside it */
		f.lag_ms = (hpm_clock_s() - next) * 1e3;
		f.work_ms = (hpm_clock_s() - woke) * 1e3;
		if (c->mode == MODE_JSON)
			top_print_json(stdout, &f);
		else
			top_print_text(stdout, &f);
		top_frame_free(&f);
		if (fflush(stdout) != 0)
			return EXIT_FAILURE; /* a closed pipe: cli_finish says so */
		next += o->delay;
		/* a late frame does not make the next ones bunch up */
		if (next < hpm_clock_s())
			next = hpm_clock_s() + o->delay;
	}
	return 0;
}

#ifdef HAVE_NCURSES
/* frame statistics for bench/top-bench.sh (HPMSTAT_TOP_STATS=FILE) */
struct lag_stats {
	unsigned n;
	double sum, max;
	double work_sum, work_max; /* sampling and drawing, without the wake-up */
};

static void reprogram_msg(struct top_view *v, int rc, const char *err, const char *ok)
{
	snprintf(v->msg, sizeof(v->msg), "%s", rc ? err : ok);
}

/* the signals k offers by name, as kill(1) names them */
static const struct {
	int sig;
	const char *name;
} signames[] = {
    {SIGHUP, "HUP"},   {SIGINT, "INT"},   {SIGQUIT, "QUIT"}, {SIGKILL, "KILL"},
    {SIGUSR1, "USR1"}, {SIGUSR2, "USR2"}, {SIGTERM, "TERM"}, {SIGCONT, "CONT"},
    {SIGSTOP, "STOP"}, {SIGTSTP, "TSTP"}, {SIGALRM, "ALRM"}, {SIGPIPE, "PIPE"},
};

/* "15", "TERM", "sigterm": the signal, or -1 */
static int parse_signal(const char *s)
{
	while (*s == ' ')
		s++;
	if (*s >= '0' && *s <= '9') {
		char *end;
		long n = strtol(s, &end, 10);
		while (*end == ' ')
			end++;
		return *end || n < 1 || n > SIGRTMAX ? -1 : (int)n;
	}
	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	for (size_t i = 0; i < sizeof(signames) / sizeof(signames[0]); i++)
		if (!strcasecmp(s, signames[i].name))
			return signames[i].sig;
	return -1;
}

static const char *signal_name(int sig, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(signames) / sizeof(signames[0]); i++)
		if (signames[i].sig == sig) {
			snprintf(buf, len, "SIG%s (%d)", signames[i].name, sig);
			return buf;
		}
	snprintf(buf, len, "signal %d", sig);
	return buf;
}

/* k: a signal to the selected task, after its choice and a y/n */
static void kill_key(struct top_view *v, const struct top_frame *f)
{
	char buf[64], q[256], sn[32];
	const struct top_proc *p = top_view_selected(v, f);
	if (!p) {
		snprintf(v->msg, sizeof(v->msg), "k: select a process row first (Tab)");
		return;
	}
	if (p->pid <= 0) {
		snprintf(v->msg, sizeof(v->msg), "k: %s is an emulated workload, not a process",
		         p->name);
		return;
	}
	if (p->exited) {
		snprintf(v->msg, sizeof(v->msg), "k: %d (%s) has exited", p->pid, p->name);
		return;
	}
	int pid = p->pid;
	char name[64];
	snprintf(name, sizeof(name), "%s", p->name);
	snprintf(q, sizeof(q), "signal to %d (%s), number or name [15 TERM]: ", pid, name);
	if (!top_view_prompt(v, q, "15", buf, sizeof(buf))) {
		snprintf(v->msg, sizeof(v->msg), "no signal sent");
		return;
	}
	int sig = parse_signal(buf);
	if (sig < 0) {
		snprintf(v->msg, sizeof(v->msg),
		         "k: '%s' is not a signal (a number or HUP INT "
		         "QUIT KILL USR1 USR2 TERM CONT STOP TSTP ALRM PIPE)",
		         buf);
		return;
	}
	snprintf(q, sizeof(q), "send %s to %d (%s)? y/n ", signal_name(sig, sn, sizeof(sn)), pid,
	         name);
	if (!top_view_confirm(v, q)) {
		snprintf(v->msg, sizeof(v->msg), "no signal sent");
		return;
	}
	if (kill(pid, sig))
		snprintf(v->msg, sizeof(v->msg), "kill %d (%s): %s", pid, name, strerror(errno));
	else
		snprintf(v->msg, sizeof(v->msg), "sent %s to %d (%s)", sn, pid, name);
}

/* F7 / F8: the selected task's nice value by step (-1 or +1), as htop's;
 * lowering it needs CAP_SYS_NICE, which setpriority's error says */
static void nice_key(struct top_view *v, const struct top_frame *f, int step)
{
	const struct top_proc *p = top_view_selected(v, f);
	const char *key = step < 0 ? "F7" : "F8";
	if (!p) {
		snprintf(v->msg, sizeof(v->msg), "%s: select a process row first (Tab)", key);
		return;
	}
	if (p->pid <= 0 || p->exited) {
		snprintf(v->msg, sizeof(v->msg), "%s: %s %s", key, p->name,
		         p->pid <= 0 ? "is an emulated workload, not a process" : "has exited");
		return;
	}
	errno = 0;
	int now = getpriority(PRIO_PROCESS, (id_t)p->pid);
	if (now == -1 && errno) {
		snprintf(v->msg, sizeof(v->msg), "%s: %d (%s): %s", key, p->pid, p->name,
		         strerror(errno));
		return;
	}
	int want = now + step;
	if (want < -20 || want > 19) {
		snprintf(v->msg, sizeof(v->msg), "%s: %d (%s) is at nice %d already", key, p->pid,
		         p->name, now);
		return;
	}
	if (setpriority(PRIO_PROCESS, (id_t)p->pid, want))
		snprintf(v->msg, sizeof(v->msg), "nice %d (%s) to %d: %s", p->pid, p->name, want,
		         strerror(errno));
	else
		snprintf(v->msg, sizeof(v->msg), "nice %d (%s): %d -> %d", p->pid, p->name, now,
		         want);
}

/* F6: the sort column by name, as htop's sort menu picks one */
static void sort_key(struct top_view *v, struct top_opts *o, struct top_frame *f)
{
	char buf[64];
	const char *now = top_sort_name(f, f->sort_col);
	if (!top_view_prompt(v, "sort by (PID COMMAND USER S or a column): ", now, buf,
	                     sizeof(buf)))
		return;
	int col = top_sort_col(f, buf);
	if (col < TOP_SORT_FIRST) {
		snprintf(v->msg, sizeof(v->msg), "sort: '%s' is not a column", buf);
		return;
	}
	top_opts_set(&o->sort, top_sort_name(f, col));
	f->sort_col = col;
	top_sort_procs(f);
	top_view_sync(v, f);
	snprintf(v->msg, sizeof(v->msg), "sort: %s", o->sort);
}

/* Enter: the selected unit's or task's own Topdown tree */
static int enter_key(struct top_view *v, struct top_model *m, const struct top_frame *f)
{
	char err[512], name[96];
	int unit = top_view_selected_unit(v, f), rc;
	const struct top_proc *p = unit < 0 ? top_view_selected(v, f) : NULL;
	if (unit < 0 && p && p->pid < 0) {
		/* an emulated workload row is its hart: "hart1: balanced seed 2" */
		size_t n = strcspn(p->name, ":");
		for (unsigned u = 0; u < f->nunits; u++)
			if (strlen(f->units[u].name) == n && !strncmp(f->units[u].name, p->name, n))
				unit = (int)u;
	}
	if (unit >= 0) {
		snprintf(name, sizeof(name), "%s", f->units[unit].name);
		rc = top_model_drill_row(m, unit, 0, name, NULL, err, sizeof(err));
	} else if (p) {
		snprintf(name, sizeof(name), "pid %d (%.60s)", p->pid, p->name);
		const char *why = NULL;
		if (!p->ev || !f->nev)
			why = f->noev_reason[0] ? f->noev_reason : "the task source has none";
		rc = top_model_drill_row(m, -1, p->pid, name, why, err, sizeof(err));
	} else {
		snprintf(v->msg, sizeof(v->msg), "no row selected");
		return -1;
	}
	snprintf(v->msg, sizeof(v->msg), "%s%s", rc ? "" : "Topdown of ", rc ? err : name);
	return rc;
}

/* One key; returns true to quit. *resample: the counters changed. */
/* '<', '>' and 's': the sort column one to the left or right, round
 * through the text columns (S, USER, COMMAND, PID: TOP_SORT_FIRST to -1),
 * then the number columns; the emulator's rows have no S or USER. */
static void sort_cycle_key(struct top_view *v, struct top_opts *o, struct top_frame *f, int ch)
{
	int n = (int)f->npcols, col = f->sort_col;
	do
		col = ch == '<' ? (col <= TOP_SORT_FIRST ? n - 1 : col - 1)
		                : (col + 1 >= n ? TOP_SORT_FIRST : col + 1);
	while (top_sort_col(f, top_sort_name(f, col)) != col);
	top_opts_set(&o->sort, top_sort_name(f, col));
	f->sort_col = col;
	top_sort_procs(f);
	top_view_sync(v, f);
	snprintf(v->msg, sizeof(v->msg), "sort: %s", o->sort);
}

/* 'U': the user whose processes are shown, asked for. True when the
 * table must be sampled again. */
static bool user_key(struct top_view *v, const struct top_model *m, struct top_opts *o)
{
	char err[512], buf[1024];
	bool resample = false;
	if (m->emu) {
		snprintf(v->msg, sizeof(v->msg), "U: the emulated workloads have no users");
		return false;
	}
	if (top_view_prompt(v, "user (name or uid; empty: everyone's): ", o->user, buf,
	                    sizeof(buf))) {
		if (!buf[0]) {
			top_opts_set(&o->user, NULL);
		} else if (top_config_set(o, "user", buf, err, sizeof(err))) {
			snprintf(v->msg, sizeof(v->msg), "%s", err);
			return false;
		}
		resample = true;
	}
	snprintf(v->msg, sizeof(v->msg), "user: %s", o->user ? o->user : "everyone");
	return resample;
}

/* 'e': the events, asked for; a list the model rejects leaves the
 * running one. True when the table must be sampled again. */
static bool events_key(struct top_view *v, struct top_model *m, struct top_opts *o)
{
	char err[512], buf[1024];
	bool resample = false;
	char *old = o->events ? xstrdup(o->events) : NULL;
	if (!top_view_prompt(v, "events: ", o->events, buf, sizeof(buf))) {
		free(old);
		snprintf(v->msg, sizeof(v->msg), "events unchanged");
		return false;
	}
	top_opts_set(&o->events, buf);
	top_opts_set(&o->events_origin, NULL);
	if (top_model_reprogram(m, err, sizeof(err))) {
		/* the rejected list goes; the running program stays */
		top_opts_set(&o->events, old);
		snprintf(v->msg, sizeof(v->msg), "%s", err);
	} else {
		snprintf(v->msg, sizeof(v->msg), "events: %s", o->events ? o->events : "(none)");
		resample = true;
	}
	free(old);
	return resample;
}

/* F3: htop's search, the bar on the first process whose name has it. */
static void search_key(struct top_view *v, struct top_frame *f)
{
	char buf[1024];
	if (top_view_prompt(v, "search (name, any case): ", v->search, buf, sizeof(v->search))) {
		memcpy(v->search, buf, sizeof(v->search));
		if (!top_view_search(v, f, v->search))
			snprintf(v->msg, sizeof(v->msg), "search: no process has '%s'", v->search);
	}
}

/* '/': the name filter, asked for. */
static void filter_key(struct top_view *v, struct top_frame *f)
{
	char buf[1024];
	if (top_view_prompt(v, "filter (name, any case; empty: none): ", v->filter, buf,
	                    sizeof(v->filter))) {
		/* the prompt took at most sizeof(v->filter) - 1 bytes */
		memcpy(v->filter, buf, sizeof(v->filter));
		top_view_sync(v, f);
	}
	snprintf(v->msg, sizeof(v->msg), "filter: %s", v->filter[0] ? v->filter : "none");
}

/* 'W': the settings written to cfgpath; the file's other keys and
 * comments stay (top_config_write). */
static void write_config_key(struct top_view *v, const struct top_opts *o, const char *cfgpath)
{
	int rc;
	if (!cfgpath)
		snprintf(v->msg, sizeof(v->msg), "no config file path (HOME unset)");
	else if ((rc = top_config_write(o, cfgpath)) != 0)
		snprintf(v->msg, sizeof(v->msg), "cannot write '%s': %s", cfgpath, strerror(-rc));
	else
		snprintf(v->msg, sizeof(v->msg), "wrote %s", cfgpath);
}

static bool handle_key(int ch, struct top_view *v, struct top_model *m, struct top_opts *o,
                       struct top_frame *f, bool *paused, bool *resample, const char *cfgpath)
{
	char err[512], buf[1024];
	int rc;
	v->msg[0] = '\0';
	if (v->help) {
		v->help = false;
		return false;
	}
	/* htop's function keys, beside the letters */
	switch (ch) {
	case TOP_KEY_F(1):
		ch = 'h';
		break;
	case TOP_KEY_F(2):
		ch = 'e';
		break;
	case TOP_KEY_F(4):
		ch = '/';
		break;
	case TOP_KEY_F(9):
		ch = 'k';
		break;
	case TOP_KEY_F(10):
		ch = 'q';
		break;
	}
	switch (ch) {
	case 'q':
	case 'Q':
		return true;
	case 'h':
	case '?':
		v->help = true;
		break;
	case '<':
	case '>':
	case 's':
		sort_cycle_key(v, o, f, ch);
		break;
	case 'r':
		o->reverse = !o->reverse;
		f->reverse = o->reverse;
		top_sort_procs(f);
		top_view_sync(v, f);
		snprintf(v->msg, sizeof(v->msg), "sort order: %s",
		         o->reverse ? "reversed" : "normal");
		break;
	case 'p':
		*paused = !*paused;
		f->paused = *paused;
		snprintf(v->msg, sizeof(v->msg), "%s", *paused ? "paused" : "resumed");
		break;
	case '+':
	case '-':
		o->delay = ch == '+' ? o->delay * 2 : o->delay / 2;
		if (o->delay < TOP_MIN_DELAY)
			o->delay = TOP_MIN_DELAY;
		if (o->delay > TOP_MAX_DELAY)
			o->delay = TOP_MAX_DELAY;
		f->delay = o->delay;
		snprintf(v->msg, sizeof(v->msg), "refresh every %g s", o->delay);
		break;
	case 't':
		o->level = o->level % TOP_MAX_LEVEL + 1;
		rc = top_model_reprogram(m, err, sizeof(err));
		snprintf(buf, sizeof(buf), "Topdown level %u", o->level);
		reprogram_msg(v, rc, err, buf);
		*resample = true;
		break;
	case 'd':
		rc = top_model_drill(m, err, sizeof(err));
		snprintf(buf, sizeof(buf), "drilled into %s",
		         m->depth ? m->focus[m->depth - 1] : "");
		reprogram_msg(v, rc, err, buf);
		*resample = rc == 0;
		break;
	case 27: /* Escape: out of a row's tree, else clears the filter */
		if (m->row_unit < 0 && !m->row_pid && v->filter[0]) {
			v->filter[0] = '\0';
			top_view_sync(v, f);
			snprintf(v->msg, sizeof(v->msg), "filter cleared");
			break;
		}
		__attribute__((fallthrough));
	case 'u':
	case 127:
	case 8:
		rc = top_model_up(m, err, sizeof(err));
		reprogram_msg(v, rc, err, "up one level");
		*resample = rc == 0;
		break;
	case '\n':
	case '\r':
		*resample = enter_key(v, m, f) == 0;
		break;
	case 'F':
		v->follow = !v->follow;
		top_view_sync(v, f);
		if (v->follow && v->sel_pid > 0)
			snprintf(v->msg, sizeof(v->msg), "follow: %d (%s)", v->sel_pid,
			         v->sel_name);
		else
			snprintf(v->msg, sizeof(v->msg), "follow: %s",
			         v->follow ? v->sel_name : "off");
		break;
	case '/':
		filter_key(v, f);
		break;
	case 'T':
	case TOP_KEY_F5:
		o->tree = !o->tree;
		v->tree = o->tree;
		top_view_sync(v, f);
		snprintf(v->msg, sizeof(v->msg), "tree view %s", o->tree ? "on" : "off");
		/* the threads are listed from the next scan on */
		*resample = true;
		break;
	case 'k':
		kill_key(v, f);
		break;
	case TOP_KEY_F(3):
		search_key(v, f);
		break;
	case TOP_KEY_F(6):
		sort_key(v, o, f);
		break;
	case TOP_KEY_F(7):
	case TOP_KEY_F(8):
		nice_key(v, f, ch == TOP_KEY_F(7) ? -1 : 1);
		break;
	case 'U':
		*resample |= user_key(v, m, o);
		break;
	case 'e':
		*resample |= events_key(v, m, o);
		break;
	case 'W':
		write_config_key(v, o, cfgpath);
		break;
	default:
		if (top_view_nav(v, f, ch))
			break;
		snprintf(v->msg, sizeof(v->msg), "unknown key (h: help)");
		break;
	}
	return false;
}

static int run_tui(struct top_view *v, struct top_model *m, struct top_opts *o, const struct cli *c,
                   const char *cfgpath, const char *warn)
{
	char err[512];
	struct top_frame f;
	struct lag_stats st = {0};
	bool paused = false, have = false;
	unsigned long frames = 0;
	memset(&f, 0, sizeof(f));
	if (warn && warn[0]) {
		/* the first bad line; the rest are on stderr after exit */
		snprintf(v->msg, sizeof(v->msg), "%.*s", (int)strcspn(warn, "\n"), warn);
	}
	double next = hpm_clock_s() + o->delay;
	snprintf(f.source, sizeof(f.source), "starting...");
	f.backend = m->emu ? "emu" : "perf";
	f.delay = o->delay;
	f.level = o->level;
	top_view_draw(v, &f);
	int status = 0;
	while (!top_stop) {
		double now = hpm_clock_s();
		int ch = top_view_key(v, (int)ceil((next - now) * 1e3));
		bool resample = false;
		if (ch == TOP_KEY_HANGUP) {
			/* the terminal went away: what its SIGHUP would do, when
			 * none came (top in another session than the terminal's),
			 * so top dies of it as of the signal, without exit's
			 * handlers (a sanitizer's leak check, stopping every
			 * thread, deadlocked when the signal came in during it) */
			if (!top_signal)
				top_signal = SIGHUP;
			break;
		}
		if (ch == TOP_KEY_REDRAW) {
			top_view_draw(v, &f);
		} else if (ch != TOP_KEY_NONE) {
			if (handle_key(ch, v, m, o, &f, &paused, &resample, cfgpath))
				break;
			if (resample) {
				/* a new program shows itself at once, not a tick later */
				next = hpm_clock_s() + (o->delay < 0.5 ? o->delay : 0.5);
			}
			top_view_draw(v, &f);
		}
		now = hpm_clock_s();
		if (now < next)
			continue;
		if (!paused) {
			struct top_frame nf;
			double woke = hpm_clock_s();
			if (top_model_sample(m, &nf, err, sizeof(err))) {
				snprintf(v->msg, sizeof(v->msg), "%s", err);
				status = EXIT_FAILURE;
				break;
			}
			if (have)
				top_frame_free(&f);
			f = nf;
			have = true;
			top_view_sync(v, &f);
			top_view_draw(v, &f);
			double lag = (hpm_clock_s() - next) * 1e3,
			       work = (hpm_clock_s() - woke) * 1e3;
			st.work_sum += work;
			if (work > st.work_max)
				st.work_max = work;
			st.n++;
			st.sum += lag;
			if (lag > st.max)
				st.max = lag;
			frames++;
			if (c->iterations && frames >= c->iterations)
				break;
		}
		next += o->delay;
		if (next < hpm_clock_s())
			next = hpm_clock_s() + o->delay;
	}
	if (have)
		top_frame_free(&f);
	const char *sp = getenv("HPMSTAT_TOP_STATS");
	struct outfile *sf;
	if (sp && *sp) {
		int e = outfile_open(sp, &sf);
		if (!e) {
			fprintf(outfile_stream(sf),
			        "frames %u lag_mean_ms %.3f lag_max_ms %.3f work_mean_ms %.3f "
			        "work_max_ms %.3f\n",
			        st.n, st.n ? st.sum / st.n : 0.0, st.max,
			        st.n ? st.work_sum / st.n : 0.0, st.work_max);
			e = outfile_commit(sf);
		}
		if (e && !status) {
			snprintf(v->msg, sizeof(v->msg), "cannot write '%s': %s", sp, strerror(-e));
			status = EXIT_FAILURE;
		}
	}
	if (status)
		cli_error("%s", v->msg);
	return status;
}
#endif

/* top.conf's warnings, one "FILE:LINE: message" a line: cli_warn would
 * escape the newlines between them. */
static void print_warnings(const char *warn)
{
	while (*warn) {
		size_t n = strcspn(warn, "\n");
		cli_warn("warning: %.*s", (int)n, warn);
		warn += n + (warn[n] == '\n');
	}
}

int cmd_top(int argc, char **argv)
{
	struct top_opts o;
	struct cli c = {.mode = MODE_TUI};
	struct top_model m;
	char err[1024], warn[2048] = "";
	int status = 0;

	/* Each frame allocates its task tables anew (a few hundred KB with a
	 * few hundred tasks, bpf/taskcount.h's rows are ~800 bytes a task):
	 * keep what one frame freed for the next instead of giving it back and
	 * faulting it in again, which cost top a fifth of its CPU. */
	mallopt(M_MMAP_THRESHOLD, 16 << 20);
	mallopt(M_TRIM_THRESHOLD, 32 << 20);
	top_opts_init(&o);
	find_config(argc, argv, &c);
	char *cfgpath = c.config ? xstrdup(c.config) : top_config_path();
	/* a --config file must be there; the default one need not be */
	if (cfgpath && !c.no_config &&
	    top_config_load(&o, cfgpath, c.config != NULL, warn, sizeof(warn), err, sizeof(err))) {
		if (c.config) {
			cli_error("%s", err);
			free(cfgpath);
			top_opts_free(&o);
			return EXIT_FAILURE;
		}
		cli_warn("warning: %s", err);
	}
	int rc = parse_opts(argc, argv, &o, &c);
	if (rc) {
		free(cfgpath);
		top_opts_free(&o);
		return rc < 0 ? 0 : rc;
	}
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		o.color = false; /* https://no-color.org */
	if (c.mode != MODE_TUI)
		print_warnings(warn);

#ifdef HAVE_NCURSES
	struct top_view v;
	if (c.mode == MODE_TUI) {
		if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
			cli_warn("warning: not a terminal: batch mode");
			c.mode = MODE_BATCH;
		} else if (top_view_init(&v, o.color, err, sizeof(err))) {
			cli_warn("warning: %s: batch mode", err);
			c.mode = MODE_BATCH;
		} else {
			v.tree = o.tree; /* --tree, or tree = yes in top.conf */
		}
		if (c.mode == MODE_BATCH)
			print_warnings(warn);
	}
#else
	if (c.mode == MODE_TUI) {
		cli_warn("warning: built without ncurses: batch mode");
		c.mode = MODE_BATCH;
		print_warnings(warn);
	}
#endif
	if (top_model_init(&m, &o, err, sizeof(err))) {
#ifdef HAVE_NCURSES
		if (c.mode == MODE_TUI)
			top_view_end(&v);
#endif
		cli_error("%s", err);
		/* a bad -e is perf top's usage error */
		int failed = m.bad_events ? EXIT_USAGE : EXIT_FAILURE;
		top_model_free(&m);
		free(cfgpath);
		top_opts_free(&o);
		return failed;
	}
	if (o.sort && !c.sort_opt && top_model_check_sort(&m, o.sort, err, sizeof(err))) {
		/* top.conf's sort: by default, as any other bad setting there */
		cli_warn("warning: %s: sort: %s", cfgpath ? cfgpath : "top.conf", err);
		top_opts_set(&o.sort, NULL);
	}
	if (o.sort && top_model_check_sort(&m, o.sort, err, sizeof(err))) {
#ifdef HAVE_NCURSES
		if (c.mode == MODE_TUI)
			top_view_end(&v);
#endif
		cli_error("-s %s", err);
		top_model_free(&m);
		free(cfgpath);
		top_opts_free(&o);
		return EXIT_FAILURE;
	}
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (c.mode != MODE_TUI) {
		if (m.note[0])
			cli_warn("warning: %s", m.note);
		status = run_batch(&m, &o, &c);
	}
#ifdef HAVE_NCURSES
	else {
		status = run_tui(&v, &m, &o, &c, cfgpath, warn);
		top_view_end(&v);
		print_warnings(warn);
	}
#endif
	top_model_free(&m);
	free(cfgpath);
	top_opts_free(&o);
	if (top_signal) {
		/* die of the signal, as perf top does */
		return cli_die_of_signal(top_signal);
	}
	return status;
}
