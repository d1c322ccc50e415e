/* cmd-record.c: hpmstat record, perf record's sampling into perf.data.
 *
 * Reads perf record's options, checks them as perf does (frequency and
 * period), opens the output (so an unwritable -o stops before anything
 * runs), forks the command held before its exec, opens the sampling
 * session (src/record) and lets the command run while the buffers are
 * drained; then finishes the file, keeps an older one as FILE.old as perf
 * does, and prints perf's two closing lines. SIGINT and SIGTERM end the
 * recording with a complete file (the command gets them as under perf
 * stat: util/child.h).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin/backend-opts.h"
#include "builtin/builtin.h"
#include "builtin/cli-opts.h"
#include "builtin/fields.h"
#include "core/evlist.h"
#include "record/emu.h"
#include "record/record.h"
#include "util/child.h"
#include "util/outfile.h"

static const char record_usage_head[] =
    "Usage: hpmstat record [options] [-- command [args]]\n"
    "\n"
    "Sample a command, a process or the system into perf.data, as perf record;\n"
    "perf report, perf script and hpmstat report read the file.\n"
    "\n";

static volatile sig_atomic_t rec_signal;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	rec_signal = sig;
	hpm_workload_pass_signal(sig, si);
}

struct rec_cli {
	struct hpm_record_opts o;
	enum hpm_backend_choice backend;
	struct hpm_emu_config emu;
	bool emu_given;
	const char *output;
	bool period_given, freq_given, quiet, verbose;
	char **argv;                       /* the command, or NULL */
	const struct hpm_pmu_model *model; /* --pmu, or NULL */
};

/* perf's parse_callchain_record: fp[,N], dwarf[,SIZE] (SIZE rounded up to
 * 8 bytes, at most 65528), lbr. 0, or -1 after perf's one line. */
static int parse_call_graph(const char *v, struct hpm_record_opts *o)
{
	enum { MAX_DUMP = 65535 / 8 * 8 };
	const char *comma = strchr(v, ',');
	size_t n = comma ? (size_t)(comma - v) : strlen(v);
	char *end;
	o->callchain = true;
	o->stack_dump = 0;
	o->lbr = false;
	o->max_stack = 0;
	if (n == 2 && strncmp(v, "fp", 2) == 0) {
		if (comma) {
			/* perf: a depth under the sysctl's limit, else ignored */
			unsigned long d = strtoul(comma + 1, &end, 0);
			if (d < 127)
				o->max_stack = (unsigned)d;
		}
		return 0;
	}
	if (n == 5 && strncmp(v, "dwarf", 5) == 0) {
		unsigned long long size = 8192;
		if (comma) {
			errno = 0;
			size = strtoull(comma + 1, &end, 0);
			if (errno || *end || end == comma + 1)
				size = 0;
			size = size > MAX_DUMP ? size : (size + 7) / 8 * 8;
			if (!size || size > MAX_DUMP) {
				cli_error("callchain: Incorrect stack dump size (max %d): %s",
				          MAX_DUMP, comma + 1);
				return -1;
			}
		}
		o->stack_dump = (unsigned)size;
		return 0;
	}
	if (n == 3 && strncmp(v, "lbr", 3) == 0) {
		if (comma) {
			cli_error("callchain: No more arguments needed for --call-graph lbr");
			return -1;
		}
		o->lbr = true;
		return 0;
	}
	cli_error("callchain: Unknown --call-graph option value: %s", v);
	return -1;
}

/* The options with a value or a rule of their own: each sets c from its
 * value: 0, else the exit status after the message. */

static int opt_event(void *ctx, const char *arg)
{
	struct rec_cli *c = ctx;
	if (c->o.events) {
		/* perf adds the events of every -e */
		size_t len = strlen(c->o.events) + strlen(arg) + 2;
		char *both = malloc(len);
		if (!both)
			return EXIT_FAILURE;
		snprintf(both, len, "%s,%s", c->o.events, arg);
		c->o.events = both; /* lives until exit */
	} else
		c->o.events = arg;
	return 0;
}

static int opt_count(void *ctx, const char *arg)
{
	struct rec_cli *c = ctx;
	uint64_t n;
	if (cli_parse_u64("-c", arg, 0, INT64_MAX, &n))
		return EXIT_FAILURE;
	if (!n) {
		cli_error("-c 0: the sample period must be at least 1 event");
		return EXIT_FAILURE;
	}
	c->o.period = n;
	c->period_given = true;
	return 0;
}

static int opt_freq(void *ctx, const char *arg)
{
	struct rec_cli *c = ctx;
	uint64_t n;
	if (strcmp(arg, "max") == 0) {
		n = hpm_record_max_sample_rate();
		if (!n) {
			cli_error(
			    "-F max: cannot read /proc/sys/kernel/perf_event_max_sample_rate");
			return EXIT_FAILURE;
		}
	} else if (cli_parse_u64("-F", arg, 0, UINT_MAX, &n))
		return EXIT_FAILURE;
	if (!n) {
		cli_error("-F 0: the sample frequency must be at least 1 Hz");
		return EXIT_FAILURE;
	}
	c->o.freq = n;
	c->freq_given = true;
	return 0;
}

/* perf's -g: record_mode fp */
static int opt_g(void *ctx, const char *arg)
{
	struct rec_cli *c = ctx;
	(void)arg;
	c->o.callchain = true;
	c->o.stack_dump = 0;
	c->o.lbr = false;
	return 0;
}

static int opt_call_graph(void *ctx, const char *arg)
{
	return parse_call_graph(arg, &((struct rec_cli *)ctx)->o) ? EXIT_USAGE : 0;
}

static int opt_pid(void *ctx, const char *arg)
{
	uint64_t n;
	if (cli_parse_u64("-p", arg, 1, INT_MAX, &n))
		return EXIT_FAILURE;
	((struct rec_cli *)ctx)->o.pid = (pid_t)n;
	return 0;
}

static int opt_mmap_pages(void *ctx, const char *arg)
{
	uint64_t n;
	if (cli_parse_u64("-m", arg, 1, 1u << 20, &n))
		return EXIT_FAILURE;
	if (n & (n - 1)) {
		cli_error("-m %s: the number of pages must be a power of 2", arg);
		return EXIT_FAILURE;
	}
	((struct rec_cli *)ctx)->o.mmap_pages = (unsigned)n;
	return 0;
}

/* perf's parse_synth_opt: no (none), all, or a list of task, mmap
 * (task's maps too) and cgroup (with --all-cgroups); the
 * HPM_RECORD_SYNTH_* left out */
static int opt_synth(void *ctx, const char *arg)
{
	struct rec_cli *c = ctx;
	const unsigned all =
	    HPM_RECORD_SYNTH_TASK | HPM_RECORD_SYNTH_MMAP | HPM_RECORD_SYNTH_CGROUP;
	unsigned on = 0;
	const char *p = arg;
	while (*p) {
		size_t n = strcspn(p, ",");
		if (n == 2 && strncasecmp(p, "no", 2) == 0) {
			on = 0;
			break;
		}
		if (n == 4 && strncasecmp(p, "none", 4) == 0) {
			on = 0;
			break;
		}
		if (n == 3 && strncasecmp(p, "all", 3) == 0) {
			on = all;
			break;
		}
		if (n == 4 && strncasecmp(p, "task", 4) == 0)
			on |= HPM_RECORD_SYNTH_TASK;
		else if (n == 4 && strncasecmp(p, "mmap", 4) == 0)
			on |= HPM_RECORD_SYNTH_TASK | HPM_RECORD_SYNTH_MMAP;
		else if (n == 6 && strncasecmp(p, "cgroup", 6) == 0)
			on |= HPM_RECORD_SYNTH_CGROUP;
		else {
			cli_error("Invalid synth option: %s", arg);
			return EXIT_USAGE;
		}
		p += n + (p[n] == ',');
	}
	c->o.synth_off = all & ~on;
	return 0;
}

/* perf's --threads writes perf.data as a directory of per-thread files
 * (its parallel trace streaming); hpmstat writes one file */
static int opt_threads(void *ctx, const char *arg)
{
	(void)ctx;
	cli_error("--threads%s%s: parallel trace streaming (perf's perf.data directory) is not "
	          "supported by hpmstat record",
	          arg ? "=" : "", arg ? arg : "");
	return EXIT_USAGE;
}

#define RC struct rec_cli
/* record's options, then the --backend and --emu-* ones (backend-opts.h),
 * in the order an ambiguous abbreviation lists its candidates */
static const struct cli_opt record_options[] = {
    CLI_CALL("event", 'e', required_argument, opt_event, .argh = "EVENTS",
             .help =
                 "events to sample (perf -e syntax; default cycles, cpu-clock without a hardware "
                 "PMU); '{a,b}:S' samples on a and reads the whole group in each sample"),
    CLI_CALL("count", 'c', required_argument, opt_count, .argh = "PERIOD",
             .help = "sample every PERIOD events"),
    CLI_CALL("freq", 'F', required_argument, opt_freq, .argh = "HZ",
             .help = "sample HZ times a second (default 4000)"),
    CLI_STRING("output", 'o', RC, output, .argh = "FILE",
               .help = "output file (default perf.data; an older one is kept as FILE.old); '-' "
                       "writes perf's pipe format to standard output"),
    CLI_FLAG("all-cpus", 'a', RC, o.system_wide, .help = "every CPU"),
    CLI_STRING("cpu", 'C', RC, o.cpu_list, .argh = "LIST", .help = "these CPUs"),
    CLI_CALL("pid", 'p', required_argument, opt_pid, .argh = "PID",
             .help = "an existing process, until it ends or Ctrl-C"),
    CLI_STRING("tid", 't', RC, o.tid_list, .argh = "TID[,TID...]", .help = "these threads"),
    CLI_CALL("mmap-pages", 'm', required_argument, opt_mmap_pages, .argh = "N",
             .help = "data pages per ring buffer (a power of 2)"),
    CLI_CALL("call-graph", 0, required_argument, opt_call_graph, .argh = "MODE",
             .help = "call chains by MODE: fp[,N] (as -g; N: at most N frames), dwarf[,SIZE] (user "
                     "registers and SIZE bytes of user stack, default 8192, unwound by report with "
                     "DWARF CFI), lbr (the PMU's call stack)"),
    CLI_FLAG("branch-any", 'b', RC, o.branch_any,
             .help = "sample every taken branch (the PMU's branch stack)"),
    CLI_FLAG("data", 'd', RC, o.sample_addr,
             .help = "each sample's data address and data source (report and perf script "
                     "read them)"),
    CLI_FLAG("stat", 's', RC, o.inherit_stat,
             .help = "per-thread counts: each thread's count as it exits (inherit_stat)"),
    CLI_FLAG("per-thread", 0, RC, o.per_thread,
             .help = "one buffer per thread, without inherit (a command: its own thread only)"),
    CLI_FLAG("no-buildid", 'B', RC, o.no_buildid, .help = "no build ids in the file"),
    CLI_CALL("synth", 0, required_argument, opt_synth, .argh = "WHAT",
             .help = "what to write of the tasks that existed before: all (default), no, or "
                     "task,mmap,cgroup"),
    CLI_FLAG("all-cgroups", 0, RC, o.all_cgroups,
             .help = "each sample's cgroup (perf report --sort cgroup)"),
    CLI_CALL("threads", 0, optional_argument, opt_threads, .argh = "SPEC",
             .help = "refused: perf's parallel trace streaming"),
    CLI_FLAG("quiet", 'q', RC, quiet, .help = "no closing lines"),
    CLI_FLAG("verbose", 'v', RC, verbose,
             .help = "say which event was used instead of the default"),
    CLI_HELP("help", 'h', .help = "this text"),
    CLI_MODEL("pmu", 0, RC, model, .argh = "MODEL",
              .help = "with --backend emu: MODEL's emulated machine and events (kunminghu, the "
                      "default; kunminghu-v3)"),
    CLI_INCLUDE(backend_options),
    CLI_CALL(NULL, 'g', no_argument, opt_g, .help = "record call chains (frame pointers)"),
    {0},
};
#undef RC

/* --backend emu's rules: 0 or the exit status. */
static int check_emu_opts(struct rec_cli *c)
{
	if (c->argv || c->o.system_wide || c->o.cpu_list || c->o.pid > 0 || c->o.tid_list)
		return cli_usage_error("--backend emu records the emulated workload: no "
		                       "command, -a, -C, -p or -t");
	/* its file is the emulator's: its maps and build ids name the
	 * emulated functions, and it has no threads or cgroups of its own */
	if (c->o.per_thread || c->o.no_buildid || c->o.synth_off || c->o.all_cgroups ||
	    c->o.sample_addr || c->o.inherit_stat)
		return cli_usage_error("--backend emu writes the emulated workload's own file: no "
		                       "--per-thread, -B, --synth, --all-cgroups, -d or -s");
	if (c->o.callchain) {
		cli_error("-g: the emulated workload has no call stacks");
		return EXIT_FAILURE;
	}
	if (c->o.branch_any) {
		cli_error("-b: the emulated workload has no branch stacks");
		return EXIT_FAILURE;
	}
	if (!c->o.period && !c->freq_given)
		c->o.freq = HPM_RECORD_DEFAULT_FREQ;
	if (!c->o.period && c->o.freq > c->emu.freq) {
		cli_error("-F %llu: above the emulated clock (--emu-freq %llu Hz)",
		          (unsigned long long)c->o.freq, (unsigned long long)c->emu.freq);
		return EXIT_FAILURE;
	}
	if (!c->output)
		c->output = "perf.data";
	return 0;
}

/* The perf back end's rules, as perf checks its target and frequency: 0
 * or the exit status. */
static int check_perf_opts(struct rec_cli *c)
{
	if (c->o.lbr && c->o.branch_any) {
		/* perf's evsel__config_callchain: one branch stack only (a
		 * warning -q silences, as perf's) */
		if (!c->quiet)
			cli_warn("Cannot use LBR callstack with branch stack. Falling back to "
			         "framepointers.");
		c->o.lbr = false;
	}
	if (!c->argv && !c->o.system_wide && !c->o.cpu_list && c->o.pid <= 0 && !c->o.tid_list)
		return cli_usage_error("nothing to record: give a command, -p, -t, -a or -C");
	if (c->o.pid > 0 && c->o.tid_list)
		return cli_usage_error("-p and -t exclude each other");
	if (c->o.per_thread && (c->o.system_wide || c->o.cpu_list) && c->o.pid <= 0 &&
	    !c->o.tid_list)
		return cli_usage_error("--per-thread records threads, not CPUs: not with -a or -C");
	/* perf's target__validate: a process or thread wins over CPUs */
	if ((c->o.pid > 0 || c->o.tid_list) && c->o.cpu_list) {
		cli_warn("warning: PID/TID switch overriding CPU");
		c->o.cpu_list = NULL;
	}
	if ((c->o.pid > 0 || c->o.tid_list) && c->o.system_wide) {
		cli_warn("warning: PID/TID switch overriding SYSTEM");
		c->o.system_wide = false;
	}
	unsigned max = hpm_record_max_sample_rate();
	if (!c->o.period) {
		if (!c->freq_given)
			c->o.freq =
			    HPM_RECORD_DEFAULT_FREQ < max || !max ? HPM_RECORD_DEFAULT_FREQ : max;
		else if (max && c->o.freq > max) {
			/* perf's --strict-freq error (without it perf throttles) */
			cli_error("Maximum frequency rate (%u Hz) exceeded by -F %llu: use a lower "
			          "value, or raise /proc/sys/kernel/perf_event_max_sample_rate",
			          max, (unsigned long long)c->o.freq);
			return EXIT_FAILURE;
		}
	}
	if (!c->output)
		c->output = "perf.data";
	return 0;
}

/* record's options: the back end's where they say record's defaults */
static const struct cli_opt record_backend_help[] = {
    {.name = "backend",
     .argh = "B",
     .help = "perf (default) or emu: sample the Kunminghu emulator's workload instead of a command "
             "(-c or -F, -e, -o)"},
    {.name = "emu-profile",
     .argh = "NAME",
     .help = "emulator workload profile or file (default balanced; hotspots declares functions)"},
    {.name = "emu-harts", .argh = "N", .help = "emulated harts (default 1), one thread each"},
    {.name = "emu-freq", .argh = "HZ", .help = "emulated clock: sample times, and -F's period"},
    {0},
};

static const struct cli_opts record_spec = {.table = record_options,
                                            .prefix = "+:",
                                            .features = BACKEND_OPTS_CYCLES,
                                            .help_override = record_backend_help};

void cmd_record_usage(FILE *out)
{
	cli_opts_usage(out, &record_spec, record_usage_head, NULL);
}

static int parse_opts(int argc, char **argv, struct rec_cli *c)
{
	struct backend_opts bo = {
	    .backend = &c->backend, .emu = &c->emu, .emu_given = &c->emu_given};
	struct cli_opts spec = record_spec;
	spec.include_ctx = &bo;
	int rc = cli_opts_parse(&spec, argc, argv, c);
	if (rc)
		return rc;
	if (optind < argc)
		c->argv = argv + optind;
	if (c->period_given && c->freq_given) {
		cli_error("cannot set frequency and period at the same time");
		return EXIT_FAILURE;
	}
	if (c->backend != HPM_BACKEND_EMU && c->emu_given) {
		cli_error("the --emu-* options need --backend emu");
		return EXIT_FAILURE;
	}
	if (c->backend != HPM_BACKEND_EMU && c->model) {
		cli_error("--pmu %s needs --backend emu: the perf back end records this host's PMU",
		          c->model->name);
		return EXIT_FAILURE;
	}
	return c->backend == HPM_BACKEND_EMU ? check_emu_opts(c) : check_perf_opts(c);
}

/* perf keeps the file it replaces as FILE.old (a regular file that is not
 * empty); a hard link leaves FILE in place until the new one is renamed
 * over it, so a failure in between loses nothing. */
static void keep_old(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !st.st_size)
		return;
	size_t len = strlen(path) + 5;
	char *old = malloc(len);
	if (!old)
		return;
	snprintf(old, len, "%s.old", path);
	unlink(old);
	if (link(path, old) != 0 && rename(path, old) != 0)
		cli_warn("cannot keep '%s' as '%s': %s", path, old, strerror(errno));
	free(old);
}

/* perf's CMDLINE starts with the path of the running program. */
static const char *self_exe(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	if (n <= 0)
		return "hpmstat";
	buf[n] = '\0';
	return buf;
}

static volatile int emu_stop;

static void on_emu_signal(int sig)
{
	emu_stop = sig;
}

/* --backend emu: the whole recording is one library call (record/emu.h). */
static int record_emu(struct rec_cli *c, int argc, char **argv)
{
	struct cli_output out = {0};
	if (cli_output_open(&out, c->output, false))
		return EXIT_FAILURE;
	struct sigaction sa = {.sa_handler = on_emu_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	char exe[PATH_MAX], err[512], cache[PATH_MAX] = "";
	/* perf's build-id cache, where perf record puts what perf report
	 * reads symbols from: $HOME/.debug (perf's buildid.dir aside) */
	const char *home = getenv("HOME");
	if (home && *home)
		snprintf(cache, sizeof(cache), "%s/.debug", home);
	struct hpm_record_emu_opts o = {.events = c->o.events,
	                                .buildid_dir = cache[0] ? cache : NULL,
	                                .period = c->o.period,
	                                .freq = c->o.freq,
	                                .emu = c->emu,
	                                .model = c->model,
	                                .pipe = strcmp(c->output, "-") == 0,
	                                .exe = self_exe(exe, sizeof(exe)),
	                                .argc = argc,
	                                .argv = argv};
	struct hpm_record_emu_stats st;
	int rc = hpm_record_emu(&o, cli_output_stream(&out), &emu_stop, &st, err, sizeof(err));
	if (rc) {
		/* bad events and options say why; a failed write names the file */
		if (rc == -EINVAL || rc == -EOPNOTSUPP || rc == -ESPIPE ||
		    rc == HPM_EVLIST_EBADEVENT)
			cli_error("%s", err);
		else
			cli_output_error(&out, -rc);
		cli_output_abort(&out);
		/* a bad -e is perf's usage error */
		return rc == HPM_EVLIST_EBADEVENT ? EXIT_USAGE : EXIT_FAILURE;
	}
	if (!o.pipe)
		keep_old(c->output);
	if (cli_output_commit(&out))
		return EXIT_FAILURE;
	/* the recording is whole without it; perf then shows addresses */
	if (st.cache_warning[0])
		cli_warn("warning: the build-id cache: %s (perf report will not name the "
		         "emulated functions)",
		         st.cache_warning);
	if (!c->quiet)
		fprintf(stderr,
		        "[ hpmstat record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
		        (double)st.file_size / 1024.0 / 1024.0, c->output,
		        (unsigned long long)st.samples);
	return 0;
}

/* Drains the buffers until the command (w) ends, the -p process (its
 * pidfd, or polled for) or every -t thread is gone (with a command too, as
 * perf: whichever comes first), or a signal comes: 0, or -errno of a
 * failed write. */
static int drain_until_done(const struct rec_cli *c, struct hpm_record *r, struct hpm_workload *w,
                            int watch_pidfd)
{
	char err[512];
	int extra = w ? w->pidfd : watch_pidfd;
	while (!rec_signal) {
		/* without a pidfd the end of the command is polled for */
		int p = hpm_record_poll(r, extra, extra >= 0 ? -1 : 100, err, sizeof(err));
		if (p < 0)
			return p;
		if (w) {
			hpm_workload_reap(w, false);
			if (w->exited)
				break;
			/* not the command's end: the -p or -t threads' buffers
			 * hung up */
			if (p > 0 && (c->o.pid > 0 || c->o.tid_list))
				break;
		} else if (c->o.pid > 0 && (p > 0 || hpm_process_gone(c->o.pid)))
			break;
		else if (p > 0 && extra < 0 && !c->o.system_wide && !c->o.cpu_list)
			break; /* -t: every thread is gone */
	}
	return 0;
}

/* perf's closing lines on stderr (the lost samples' even with -q). */
static void print_closing_lines(const struct rec_cli *c, const struct hpm_record_stats *st)
{
	if (st->lost)
		fprintf(stderr,
		        "[ hpmstat record: lost %llu samples in %llu chunks: check IO/CPU "
		        "overload ]\n",
		        (unsigned long long)st->lost, (unsigned long long)st->lost_chunks);
	if (!c->quiet) {
		fprintf(stderr, "[ hpmstat record: Woken up %llu times to write data ]\n",
		        (unsigned long long)st->wakeups);
		fprintf(stderr, "[ hpmstat record: Captured and wrote %.3f MB %s",
		        (double)st->file_size / 1024.0 / 1024.0, c->output);
		if (st->samples)
			fprintf(stderr, " (%llu samples)", (unsigned long long)st->samples);
		fprintf(stderr, " ]\n");
	}
}

int cmd_record(int argc, char **argv)
{
	struct rec_cli c;
	memset(&c, 0, sizeof(c));
	c.o.pid = -1;
	c.o.workload = -1;
	hpm_emu_config_init(&c.emu);
	int rc = parse_opts(argc, argv, &c);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (c.backend == HPM_BACKEND_EMU)
		return record_emu(&c, argc, argv);

	struct cli_output out = {.dash_named = true};
	if (cli_output_open(&out, c.output, false))
		return EXIT_FAILURE;

	char err[512];
	struct hpm_workload w = {.pid = -1, .pidfd = -1};
	bool have_cmd = c.argv != NULL;
	if (have_cmd) {
		if (hpm_workload_prepare(&w, c.argv, false, err, sizeof(err))) {
			cli_error("%s", err);
			cli_output_abort(&out);
			return EXIT_FAILURE;
		}
		c.o.workload = w.pid;
	}
	struct sigaction sa = {.sa_sigaction = on_signal, .sa_flags = SA_SIGINFO};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (have_cmd)
		hpm_workload_forward_signals(&w);

	struct hpm_record *r = NULL;
	int status = 0;
	char exe[PATH_MAX];
	/* -o - is perf's pipe format, as perf record -o - */
	bool pipe = strcmp(c.output, "-") == 0;
	rc = hpm_record_open(&c.o, &r, err, sizeof(err));
	if (rc) {
		cli_error("%s", err);
		/* a bad -e is perf's usage error */
		status = rc == HPM_EVLIST_EBADEVENT ? EXIT_USAGE : EXIT_FAILURE;
		goto fail;
	}
	rc = hpm_record_start(r, cli_output_stream(&out), pipe, self_exe(exe, sizeof(exe)), argc,
	                      argv, err, sizeof(err));
	if (rc) {
		/* a failed write names the file; -ESPIPE says why in full */
		if (rc == -ESPIPE)
			cli_error("%s", err);
		else
			cli_output_error(&out, -rc);
		status = EXIT_FAILURE;
		goto fail;
	}
	if (c.verbose && hpm_record_note(r))
		fprintf(stderr, "Warning:\n%s\n", hpm_record_note(r));
	if (hpm_record_enable(r, err, sizeof(err))) {
		cli_error("%s", err);
		status = EXIT_FAILURE;
		goto fail;
	}
	int watch_pidfd = -1;
	if (have_cmd) {
		/* recorded from its exec: started without waiting for the exec
		 * (hpm_workload_go), whose failure is known at its end */
		int e = hpm_record_starts_at_exec(r) ? hpm_workload_go(&w) : hpm_workload_start(&w);
		if (e) {
			hpm_workload_reap(&w, true);
			cli_error("cannot run '%s': %s", c.argv[0], strerror(e));
			status = 127;
			goto fail;
		}
	} else if (c.o.pid > 0) {
		watch_pidfd = hpm_process_pidfd(c.o.pid);
	}
	int p = drain_until_done(&c, r, have_cmd ? &w : NULL, watch_pidfd);
	if (p < 0) {
		cli_output_error(&out, -p);
		status = EXIT_FAILURE;
		goto fail;
	}
	/* -p or -t with a command: the target ended first */
	bool target_ended = have_cmd && !w.exited && !rec_signal;
	if (have_cmd && !w.exited) {
		/* perf ends a command still running when the recording stops */
		hpm_workload_kill(&w, SIGTERM);
	}
	if (have_cmd)
		hpm_workload_reap(&w, true);
	if (have_cmd && (rc = hpm_workload_exec_error(&w))) {
		cli_error("cannot run '%s': %s", c.argv[0], strerror(rc));
		status = 127;
		goto fail;
	}
	hpm_workload_forward_signals(NULL);
	if (watch_pidfd >= 0)
		close(watch_pidfd);
	rc = hpm_record_finish(r, err, sizeof(err));
	if (rc) {
		cli_output_error(&out, -rc);
		status = EXIT_FAILURE;
		goto fail;
	}
	struct hpm_record_stats st;
	hpm_record_stats(r, &st);
	hpm_record_free(r);
	r = NULL;
	if (!pipe)
		keep_old(c.output);
	if (cli_output_commit(&out))
		return EXIT_FAILURE;
	print_closing_lines(&c, &st);
	if (have_cmd) {
		int sig = 0;
		int es = hpm_workload_exit_status(&w, &sig);
		hpm_workload_close(&w);
		/* perf record exits with the command's status; the one
		 * ended because the -p or -t target ended leaves it 0 */
		if (target_ended)
			return 0;
		if (sig)
			return cli_die_of_signal(sig);
		return es > 0 ? es : 0;
	}
	/* -a, -C, -p, -t: ended by their target or a signal, as perf */
	return 0;
fail:
	hpm_record_free(r);
	if (have_cmd) {
		hpm_workload_kill(&w, SIGKILL);
		hpm_workload_reap(&w, true);
		hpm_workload_forward_signals(NULL);
		hpm_workload_close(&w);
	}
	cli_output_abort(&out);
	return status;
}
