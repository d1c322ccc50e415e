/* cmd-emu.c: `hpmstat emu`: an emulator's script runner, `emu profiles` and
 * `emu bench`, the same for every machine.
 *
 * Owns: option parsing, printing and exit codes of the three. The machine
 * is the emulator of --arch (the first model's without it), and the work
 * is its struct hpm_emu_commands (arch/machine.h; the model
 * registry, registry/models.h, finds it): this file names no machine, reads script
 * files, prints what the commands produce and reports their errors as
 * "hpmstat emu: FILE:LINE: reason".
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/machine.h"
#include "builtin/builtin.h"
#include "builtin/cli-opts.h"
#include "registry/models.h"
#include "util/line.h"

static const char emu_usage_head[] =
    "Usage: hpmstat emu [--pmu TABLE] [--harts N] [--trace-out FILE] [SCRIPT | -]\n"
    "       hpmstat emu profiles [--json]\n"
    "       hpmstat emu bench [--pmu TABLE] [--cycles N] [--profile P] [--seed N]\n"
    "       hpmstat emu --arch arm64 [--pmu MODEL] [--pes N] [--pes-per-core K]\n"
    "                   [--trace-out FILE] [SCRIPT | -]\n"
    "       hpmstat emu profiles --arch arm64 [--json]\n"
    "       hpmstat emu bench --arch arm64 [--pmu MODEL] [--cycles N] [--seed N]\n"
    "                   [--max-run N | --profile P]\n"
    "\n"
    "Run the software emulator of the Kunminghu hardware performance monitor.\n"
    "Everything it produces is emulated, not measured on hardware.\n"
    "\n"
    "A script (the file SCRIPT, or standard input for '-' or no argument) has\n"
    "one command a line; '#' starts a comment:\n"
    "  hart N                   select hart N (0-based) for the next commands\n"
    "  mode M|HS|HU|VS|VU       set the current hart's mode (S = HS, U = HU)\n"
    "  csrr CSR                 print the CSR (0x + 16 hex digits) or the exception\n"
    "  csrw|csrs|csrc CSR VALUE write, set or clear bits; print ok or the exception\n"
    "  feed CYCLES [EVENT=VALUE ...] [instret=N]\n"
    "                           CYCLES cycles in which each named event delivers\n"
    "                           VALUE (0..63) per cycle, every other event 0\n"
    "  run CYCLES PROFILE [seed=N]\n"
    "                           CYCLES cycles of a workload profile (or profile file)\n"
    "  replay FILE              count every run of a trace file\n"
    "  trace FILE | trace off   record every counted run to FILE\n"
    "  time VALUE | time +DELTA set or advance the machine timer\n"
    "  pending                  print mip=0x... and the names of the pending bits\n"
    "  expect TEXT              fail unless the previous output line is TEXT\n"
    "  reset                    reset the current hart\n"
    "CSRs are names (mhpmevent3, hpmcounter3, stimecmp, ...) or numbers (0xB03).\n"
    "EVENT is BANK:NAME, BANK:INDEX or a NAME unique to one bank. Numbers are\n"
    "decimal, 0x hex or 0b binary; '_' may separate digits.\n"
    "\n"
    "Options:\n";
static const char emu_usage_tail[] =
    "\n"
    "emu profiles lists the workload profiles and the Topdown breakdown (levels\n"
    "1-3) each declares; --json prints the same as JSON.\n"
    "emu bench programs all 29 counters, runs a profile's stream through the fast\n"
    "path and through the per-cycle reference, checks that every counter agrees\n"
    "and prints the simulated cycles per second of both (default --cycles\n"
    "20000000, --profile balanced, --seed 1).\n"
    "\n"
    "--pmu TABLE picks Kunminghu's event table, as stat --backend emu --pmu does:\n"
    "kunminghu (kunminghu-v2, the default) or kunminghu-v3. mhpmevent's EVENTn\n"
    "fields and feed's events are that table's; a v3 event counts the signal of\n"
    "v2's event of its name (v2 has none of dispatch_stall_cycle_iq).\n"
    "\n"
    "With --arch arm64 the machine is the Arm PMUv3 emulator: --pmu MODEL picks\n"
    "its feature profile (n1, v1, n2, v2, future, or an Arm core: neoverse-v2; default\n"
    "v2), --pes N its PEs (default 1) and --pes-per-core K the PEs of a core (MT).\n"
    "Its script commands: pe N, el 0|1|2|3, state ns|s|realm|root, streaming\n"
    "on|off, mrs REG, msr REG VALUE, feed CYCLES [EVENT=VB ...], run CYCLES\n"
    "PROFILE [seed=N], replay FILE, trace FILE|off, pending, snapshot, expect REG\n"
    "VALUE, expect TEXT, reset. Its profiles are the Arm workload profiles with\n"
    "their declared level-1 Topdown; its bench programs 31 counters with\n"
    "thresholds, edges and linking (--pmu future, the default, has them), on\n"
    "runs of 1 to --max-run cycles or on the stream of the Arm workload profile\n"
    "--profile P (default --cycles 20000000, --seed 1, --max-run 100).\n"
    "\n"
    "See hpmstat-emu(1) for the script language and the trace format.\n";

/* "--opt VALUE" or "--opt=VALUE": the value, advancing *i; NULL if absent. */
static const char *opt_value(int argc, char **argv, int *i, const char *opt)
{
	size_t n = strlen(opt);
	if (strncmp(argv[*i], opt, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] == '\0' && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static bool opt_is(const char *arg, const char *opt)
{
	size_t n = strlen(opt);
	return strncmp(arg, opt, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/* ---------------------------------------------------------------- scripts */

/* The commands' output lines (arch/machine.h's hpm_emu_line_fn). */
static void script_output(void *ctx, const char *line)
{
	(void)ctx;
	puts(line);
}

/* SIGINT/SIGTERM: the script stops at the next look (a run looks every 1024
 * of its runs), what it printed stays printed, a recording is closed, and
 * hpmstat dies of the signal (130/143), as perf does. */
static volatile sig_atomic_t script_signal;

static void on_script_signal(int sig)
{
	script_signal = sig;
}

/* no SA_RESTART: a signal also ends a read of the script */
static void catch_script_signals(void)
{
	struct sigaction sa = {.sa_handler = on_script_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

typedef int (*script_exec_fn)(void *s, const char *line, char *err, size_t errlen);

/* The lines of script f through exec, for any machine's interpreter:
 * line by line, each bounded (so /dev/zero is an error, not a leak), a NUL
 * refused (the interpreters read C strings), an error said as NAME:LINE:,
 * until the first error, the end or a signal. Returns the exit status so
 * far (0 or 1); *lineno is the number of the last line read. */
static int script_lines(FILE *f, const char *name, unsigned max_line, script_exec_fn exec, void *s,
                        unsigned *lineno)
{
	char err[1024];
	char *line = NULL;
	size_t cap = 0;
	int status = 0;
	ssize_t n = 0;
	while (!status && !script_signal &&
	       (n = util_read_line(f, &line, &cap, max_line)) != UTIL_LINE_EOF &&
	       n != UTIL_LINE_ERROR) {
		++*lineno;
		if (n == UTIL_LINE_TOO_LONG) {
			cli_error("%s:%u: line longer than %u bytes", name, *lineno, max_line);
			status = 1;
		} else if (strlen(line) != (size_t)n) {
			cli_error("%s:%u: column %zu: NUL byte in the line", name, *lineno,
			          strlen(line) + 1);
			status = 1;
		} else if (exec(s, line, err, sizeof(err)) < 0) {
			cli_error("%s:%u: %s", name, *lineno, err);
			status = 1;
		}
	}
	if (!status && n == UTIL_LINE_ERROR && !script_signal) {
		cli_error("%s: read error: %s", name, strerror(errno));
		status = 1;
	}
	free(line);
	return status;
}

/* A script's exit status, or hpmstat's death by the signal that stopped
 * it (130/143, as perf) once what it printed is printed. */
static int script_end(int status, const char *name, unsigned lineno)
{
	if (script_signal) {
		int sig = script_signal;
		if (!status)
			cli_error("%s:%u: interrupted", name, lineno);
		return cli_die_of_signal(sig);
	}
	return status;
}

static int run_script(FILE *f, const char *name, const struct hpm_emu_commands *c,
                      const struct hpm_emu_options *o)
{
	char err[1024];
	unsigned lineno = 0;
	int status = 0;
	void *s;

	catch_script_signals();
	int ret = c->script_new(o, script_output, NULL, &script_signal, &s, err, sizeof(err));
	if (ret < 0) {
		cli_error("%s", err);
		return ret == HPM_EMU_EUSAGE ? EXIT_USAGE : 1;
	}
	status = script_lines(f, name, c->script_max_line, c->script_exec, s, &lineno);
	if (c->script_end(s, err, sizeof(err)) < 0 && !status) {
		cli_error("%s", err);
		status = 1;
	}
	return script_end(status, name, lineno);
}

/* --------------------------------------------------------------- profiles */

/* What a subcommand's and emu's own options fill: hpm_emu_options, and
 * the machine whose ranges they are read in. */
struct emu_cli {
	struct hpm_emu_options o;
	const struct hpm_emu_commands *c;
};

static const struct cli_opt profiles_options[] = {
    CLI_FLAG("json", 0, struct emu_cli, o.json, .help = "the same as JSON"),
    CLI_HELP("help", 'h', .help = "show this help"),
    {0},
};

/* A subcommand's options, its messages "bench: ..." (prefix): 0, -1 when
 * done (--help), else the exit status. A word left is an unexpected
 * argument. */
static int subcommand_opts(const struct cli_opt *table, const char *prefix, int argc, char **argv,
                           struct emu_cli *e)
{
	const struct cli_opts spec = {.table = table, .prefix = "+:", .features = e->c->options};
	cli_set_usage_prefix(prefix);
	int rc = cli_opts_parse(&spec, argc, argv, e);
	if (!rc && optind < argc)
		rc = cli_usage_error("unexpected argument '%s'", argv[optind]);
	cli_set_usage_prefix(NULL);
	return rc;
}

static int cmd_profiles(const struct hpm_emu_commands *c, int argc, char **argv)
{
	struct emu_cli e = {.o = {.harts = 1}, .c = c};
	char err[512];
	int rc = subcommand_opts(profiles_options, "profiles: ", argc, argv, &e);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (c->profiles(&e.o, script_output, NULL, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ bench */

/* The report of one register the fast path got wrong. */
static void bench_mismatch(void *ctx, const char *reg, uint64_t fast, uint64_t ref)
{
	(void)ctx;
	cli_error("bench: %s differs: fast path 0x%016" PRIx64 ", reference 0x%016" PRIx64, reg,
	          fast, ref);
}

/* A number in lo..hi into *field of e (a usage error, exit 2, past them). */
static int emu_number(const char *opt, const char *v, uint64_t lo, uint64_t hi, uint64_t *field)
{
	return cli_parse_u64_usage(opt, v, lo, hi, field) ? EXIT_USAGE : 0;
}

static int opt_cycles(void *opts, const char *v)
{
	return emu_number("--cycles", v, 1, UINT64_MAX, &((struct emu_cli *)opts)->o.cycles);
}

static int opt_seed(void *opts, const char *v)
{
	return emu_number("--seed", v, 0, UINT64_MAX, &((struct emu_cli *)opts)->o.seed);
}

static int opt_max_run(void *opts, const char *v)
{
	return emu_number("--max-run", v, 1, 1000000, &((struct emu_cli *)opts)->o.max_run);
}

static const struct cli_opt bench_options[] = {
    CLI_CALL("cycles", 0, required_argument, opt_cycles, .argh = "N",
             .help = "simulated cycles (default 20000000)"),
    CLI_CALL("seed", 0, required_argument, opt_seed, .argh = "N",
             .help = "the stream's seed (default 1)"),
    CLI_CALL("max-run", 0, required_argument, opt_max_run, .argh = "N",
             .needs = HPM_EMU_OPT_MAX_RUN, .help = "runs of 1 to N cycles (default 100)"),
    CLI_STRING("profile", 0, struct emu_cli, o.profile, .argh = "P",
               .help = "the workload profile's stream"),
    CLI_STRING("pmu", 0, struct emu_cli, o.pmu, .argh = "MODEL", .needs = HPM_EMU_OPT_PMU,
               .help = "the machine's PMU variant"),
    CLI_HELP("help", 'h', .help = "show this help"),
    {0},
};

static int cmd_bench(const struct hpm_emu_commands *c, int argc, char **argv)
{
	struct emu_cli e = {.o = {.harts = 1, .per_core = 1, .cycles = 20000000, .seed = 1},
	                    .c = c};
	char err[512];
	int rc = subcommand_opts(bench_options, "bench: ", argc, argv, &e);
	if (rc)
		return rc < 0 ? 0 : rc;
	int ret = c->bench(&e.o, script_output, bench_mismatch, NULL, err, sizeof(err));
	if (ret == HPM_EMU_EUSAGE)
		return cli_usage_error("bench: %s", err);
	if (ret < 0) {
		cli_error("bench: %s", err);
		return 1;
	}
	return ret;
}

/* ------------------------------------------------------------------- main */

/* The message for --harts on a machine that counts PEs: whose option it is. */
static int harts_elsewhere(const struct hpm_emu_commands *c)
{
	const struct hpm_emu_commands *h;
	for (unsigned i = 0; (h = hpm_emu_commands_at(i)); i++)
		if (h->options & HPM_EMU_OPT_HARTS)
			return cli_usage_error(
			    "option '--harts' is %s's: %s emulator takes --pes N "
			    "and --pes-per-core K",
			    h->title, c->title);
	return cli_usage_error("unknown option '--harts'");
}

/* The usage error for an --arch of no emulator: the emulators there are,
 * by their arch names in order ("arm64 (the Arm PMUv3) and riscv64
 * (Kunminghu)"). */
static int unknown_arch(const char *arch)
{
	const struct hpm_emu_commands *e, *prev = NULL;
	char list[256];
	size_t w = 0;
	unsigned n = 0;
	while (hpm_emu_commands_at(n))
		n++;
	for (unsigned k = 0; k < n && w < sizeof(list); k++) {
		/* the next in arch order after prev */
		const struct hpm_emu_commands *next = NULL;
		for (unsigned j = 0; (e = hpm_emu_commands_at(j)); j++)
			if ((!prev || strcmp(e->arch, prev->arch) > 0) &&
			    (!next || strcmp(e->arch, next->arch) < 0))
				next = e;
		w += (size_t)snprintf(list + w, sizeof(list) - w, "%s%s (%s)",
		                      k == 0      ? ""
		                      : k + 1 < n ? ", "
		                                  : " and ",
		                      next->arch, next->title);
		prev = next;
	}
	return cli_usage_error("--arch %s: the emulators are of %s", arch, list);
}

/* Takes "--arch ARCH" (or "--arch=ARCH") out of argv, wherever it is, and
 * sets *c to the emulator it names (the first one without it). Returns 0,
 * or a usage error's exit code. */
static int take_arch(int *argc, char **argv, const struct hpm_emu_commands **c)
{
	int out = 1;
	*c = hpm_emu_commands_at(0);
	for (int i = 1; i < *argc; i++) {
		const char *v = NULL;
		if (strcmp(argv[i], "--") == 0) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		if (opt_is(argv[i], "--arch")) {
			if (!(v = opt_value(*argc, argv, &i, "--arch")))
				return cli_usage_error("option '--arch' needs a value");
			if (!(*c = hpm_emu_commands_for_arch(v)))
				return unknown_arch(v);
			continue;
		}
		argv[out++] = argv[i];
	}
	*argc = out;
	argv[out] = NULL;
	return 0;
}

static int opt_harts(void *opts, const char *v)
{
	struct emu_cli *e = opts;
	return emu_number("--harts", v, 1, e->c->max_harts, &e->o.harts);
}

static int opt_pes(void *opts, const char *v)
{
	struct emu_cli *e = opts;
	return emu_number("--pes", v, 1, e->c->max_harts, &e->o.harts);
}

static int opt_pes_per_core(void *opts, const char *v)
{
	struct emu_cli *e = opts;
	return emu_number("--pes-per-core", v, 1, e->c->max_per_core, &e->o.per_core);
}

/* emu's options; a machine has those its options bits name (arch/machine.h):
 * --help lists every machine's. --arch is read before them (take_arch). */
static const struct cli_opt emu_options[] = {
    CLI_IGNORE("arch", 0, required_argument, .argh = "ARCH",
               .help = "the emulator: riscv64 (default) or arm64, anywhere on the line; "
                       "profiles, bench and scripts work the same on each"),
    CLI_CALL("harts", 0, required_argument, opt_harts, .argh = "N", .needs = HPM_EMU_OPT_HARTS,
             .help = "emulate N harts (default 1)"),
    CLI_STRING("pmu", 0, struct emu_cli, o.pmu, .argh = "MODEL", .needs = HPM_EMU_OPT_PMU,
               .help = "the machine's PMU variant (Kunminghu: its event table; Arm: its "
                       "feature profile)"),
    CLI_CALL("pes", 0, required_argument, opt_pes, .argh = "N", .needs = HPM_EMU_OPT_PES,
             .help = "emulate N PEs (default 1)"),
    CLI_CALL("pes-per-core", 0, required_argument, opt_pes_per_core, .argh = "K",
             .needs = HPM_EMU_OPT_PES, .help = "the PEs of a core (MT)"),
    CLI_STRING("trace-out", 0, struct emu_cli, o.trace_out, .argh = "FILE",
               .help = "record every counted run to FILE"),
    CLI_HELP("help", 'h', .help = "show this help"),
    {0},
};

/* The options of every machine, for --help and --list-opts. */
static unsigned every_machine_option(void)
{
	const struct hpm_emu_commands *h;
	unsigned all = 0;
	for (unsigned i = 0; (h = hpm_emu_commands_at(i)); i++)
		all |= h->options;
	return all;
}

void cmd_emu_usage(FILE *out)
{
	const struct cli_opts spec = {
	    .table = emu_options, .prefix = "+:", .features = every_machine_option()};
	cli_opts_usage(out, &spec, emu_usage_head, emu_usage_tail);
}

/* getopt's message; --harts on a machine that counts PEs says whose
 * option it is */
static int emu_bad_option(void *opts, int c, char **argv, const struct option *longopts)
{
	struct emu_cli *e = opts;
	const char *w = argv[optind - 1];
	if (c == '?' && !(e->c->options & HPM_EMU_OPT_HARTS) && (e->c->options & HPM_EMU_OPT_PES) &&
	    strncmp(w, "--harts", 7) == 0 && (w[7] == '\0' || w[7] == '='))
		return harts_elsewhere(e->c);
	return cli_option_error(c, argv, longopts);
}

int cmd_emu(int argc, char **argv)
{
	const struct hpm_emu_commands *c;
	int i;

	if ((i = take_arch(&argc, argv, &c)) != 0)
		return i;
	if (!c) {
		cli_error("no emulator is built in");
		return 1;
	}
	if (argc >= 2 && strcmp(argv[1], "profiles") == 0)
		return cmd_profiles(c, argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "bench") == 0)
		return cmd_bench(c, argc - 1, argv + 1);
	struct emu_cli e = {.o = {.harts = 1, .per_core = 1}, .c = c};
	bool list = argc >= 2 && strcmp(argv[1], "--list-opts") == 0;
	const struct cli_opts spec = {.table = emu_options,
	                              .prefix = "+:",
	                              .features = list ? every_machine_option() : c->options,
	                              .bad_option = emu_bad_option};
	int rc = cli_opts_parse(&spec, argc, argv, &e);
	if (rc)
		return rc < 0 ? 0 : rc;
	i = optind;
	const char *script = i < argc ? argv[i++] : NULL;
	if (i < argc)
		return cli_usage_error("unexpected argument '%s'", argv[i]);
	if ((c->options & HPM_EMU_OPT_PES) && e.o.harts % e.o.per_core)
		return cli_usage_error("--pes %" PRIu64
		                       " is not a multiple of --pes-per-core %" PRIu64,
		                       e.o.harts, e.o.per_core);

	if (!script || strcmp(script, "-") == 0)
		return run_script(stdin, "-", c, &e.o);
	FILE *f = fopen(script, "r");
	if (!f) {
		cli_error("cannot open script '%s': %s", script, strerror(errno));
		return 1;
	}
	int status = run_script(f, script, c, &e.o);
	fclose(f);
	return status;
}
