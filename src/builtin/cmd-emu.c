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
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/machine.h"
#include "builtin/builtin.h"
#include "registry/models.h"
#include "util/line.h"

static const char emu_usage_text[] =
    "Usage: hpmstat emu [--harts N] [--trace-out FILE] [SCRIPT | -]\n"
    "       hpmstat emu profiles [--json]\n"
    "       hpmstat emu bench [--cycles N] [--profile P] [--seed N]\n"
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
    "Options:\n"
    "  --arch ARCH       the emulator: riscv64 (default) or arm64, anywhere on the\n"
    "                    line; profiles, bench and scripts work the same on each\n"
    "  --harts N         emulate N harts (default 1)\n"
    "  --trace-out FILE  record every counted run to FILE\n"
    "  -h, --help        show this help\n"
    "\n"
    "emu profiles lists the workload profiles and the Topdown breakdown (levels\n"
    "1-3) each declares; --json prints the same as JSON.\n"
    "emu bench programs all 29 counters, runs a profile's stream through the fast\n"
    "path and through the per-cycle reference, checks that every counter agrees\n"
    "and prints the simulated cycles per second of both (default --cycles\n"
    "20000000, --profile balanced, --seed 1).\n"
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

void cmd_emu_usage(FILE *out)
{
	fputs(emu_usage_text, out);
}

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

static bool is_help(const char *arg)
{
	return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

/* The usage error for an argument that SUB (NULL: emu itself) does not
 * take, naming it as the user wrote it: --help or its FLAG (NULL: none)
 * given a value, an unknown option (without its "=value"), or a stray
 * operand. */
static int not_an_option(const char *sub, const char *flag, const char *arg)
{
	const char *pre = sub ? sub : "", *sep = sub ? ": " : "";
	int len = (int)strcspn(arg, "=");
	if (arg[0] != '-' || arg[1] == '\0')
		return cli_usage_error("%s%sunexpected argument '%s'", pre, sep, arg);
	if (arg[len] == '=' && (opt_is(arg, "--help") || (flag && opt_is(arg, flag))))
		return cli_usage_error("%s%soption '%.*s' takes no value", pre, sep, len, arg);
	return cli_usage_error("%s%sunknown option '%.*s'", pre, sep, len, arg);
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

static int cmd_profiles(const struct hpm_emu_commands *c, int argc, char **argv)
{
	struct hpm_emu_options o = {.harts = 1};
	char err[512];

	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			cli_print_usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "--json") == 0)
			o.json = true;
		else
			return not_an_option("profiles", "--json", argv[i]);
	}
	if (c->profiles(&o, script_output, NULL, err, sizeof(err)) < 0) {
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

static int cmd_bench(const struct hpm_emu_commands *c, int argc, char **argv)
{
	struct hpm_emu_options o = {.harts = 1, .per_core = 1, .cycles = 20000000, .seed = 1};
	bool pmu = c->options & HPM_EMU_OPT_PMU, max_run = c->options & HPM_EMU_OPT_MAX_RUN;
	const char *v;
	char err[512];

	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			cli_print_usage(stdout);
			return 0;
		} else if ((v = opt_value(argc, argv, &i, "--cycles"))) {
			if (cli_parse_u64_usage("bench: --cycles", v, 1, UINT64_MAX, &o.cycles))
				return EXIT_USAGE;
		} else if ((v = opt_value(argc, argv, &i, "--seed"))) {
			if (cli_parse_u64_usage("bench: --seed", v, 0, UINT64_MAX, &o.seed))
				return EXIT_USAGE;
		} else if (max_run && (v = opt_value(argc, argv, &i, "--max-run"))) {
			if (cli_parse_u64_usage("bench: --max-run", v, 1, 1000000, &o.max_run))
				return EXIT_USAGE;
		} else if ((v = opt_value(argc, argv, &i, "--profile"))) {
			o.profile = v;
		} else if (pmu && (v = opt_value(argc, argv, &i, "--pmu"))) {
			o.pmu = v;
		} else if (opt_is(argv[i], "--cycles") || opt_is(argv[i], "--seed") ||
		           opt_is(argv[i], "--profile") ||
		           (max_run && opt_is(argv[i], "--max-run")) ||
		           (pmu && opt_is(argv[i], "--pmu"))) {
			return cli_usage_error("bench: option '%s' needs a value", argv[i]);
		} else {
			return not_an_option("bench", NULL, argv[i]);
		}
	}
	int ret = c->bench(&o, script_output, bench_mismatch, NULL, err, sizeof(err));
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

int cmd_emu(int argc, char **argv)
{
	const struct hpm_emu_commands *c;
	struct hpm_emu_options o = {.harts = 1, .per_core = 1};
	const char *script = NULL, *v;
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
	bool harts = c->options & HPM_EMU_OPT_HARTS, pes = c->options & HPM_EMU_OPT_PES,
	     pmu = c->options & HPM_EMU_OPT_PMU;
	for (i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			cli_print_usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if (pes && (v = opt_value(argc, argv, &i, "--pes-per-core"))) {
			if (cli_parse_u64_usage("--pes-per-core", v, 1, c->max_per_core,
			                        &o.per_core))
				return EXIT_USAGE;
		} else if (pes && (v = opt_value(argc, argv, &i, "--pes"))) {
			if (cli_parse_u64_usage("--pes", v, 1, c->max_harts, &o.harts))
				return EXIT_USAGE;
		} else if (harts && (v = opt_value(argc, argv, &i, "--harts"))) {
			if (cli_parse_u64_usage("--harts", v, 1, c->max_harts, &o.harts))
				return EXIT_USAGE;
		} else if (pmu && (v = opt_value(argc, argv, &i, "--pmu"))) {
			o.pmu = v;
		} else if ((v = opt_value(argc, argv, &i, "--trace-out"))) {
			o.trace_out = v;
		} else if ((pes &&
		            (opt_is(argv[i], "--pes") || opt_is(argv[i], "--pes-per-core"))) ||
		           (harts && opt_is(argv[i], "--harts")) ||
		           (pmu && opt_is(argv[i], "--pmu")) || opt_is(argv[i], "--trace-out")) {
			return cli_usage_error("option '%s' needs a value", argv[i]);
		} else if (!harts && pes && opt_is(argv[i], "--harts")) {
			return harts_elsewhere(c);
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			return not_an_option(NULL, NULL, argv[i]);
		} else {
			break;
		}
	}
	if (i < argc)
		script = argv[i++];
	if (i < argc)
		return cli_usage_error("unexpected argument '%s'", argv[i]);
	if (pes && o.harts % o.per_core)
		return cli_usage_error("--pes %" PRIu64
		                       " is not a multiple of --pes-per-core %" PRIu64,
		                       o.harts, o.per_core);

	if (!script || strcmp(script, "-") == 0)
		return run_script(stdin, "-", c, &o);
	FILE *f = fopen(script, "r");
	if (!f) {
		cli_error("cannot open script '%s': %s", script, strerror(errno));
		return 1;
	}
	int status = run_script(f, script, c, &o);
	fclose(f);
	return status;
}
