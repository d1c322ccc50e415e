/* cmd-emu.c: `hpmstat emu`: the emulator's script runner, `emu profiles` and
 * `emu bench`.
 *
 * Owns: option parsing, printing and exit codes of the three: the CLI of
 * Kunminghu's emulator and, with --arch arm64, of the Arm PMUv3 emulator.
 * The work is in their libraries (src/kmh/emu/emu.h, src/kmh/emu/workload.h,
 * src/kmh/emu/bench.h; src/arm64/emu/pmu.h, script.h, profile.h, bench.h);
 * this file only reads files, prints what the libraries produce and
 * reports their errors as "hpmstat emu: FILE:LINE: reason".
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "arm64/emu/bench.h"
#include "arm64/emu/pmu.h"
#include "arm64/emu/profile.h"
#include "arm64/emu/script.h"
#include "builtin/builtin.h"
#include "kmh/emu/bench.h"
#include "kmh/emu/emu.h"
#include "kmh/emu/workload.h"
#include "util/line.h"
#include "util/xalloc.h"

const char cmd_emu_usage[] =
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

static int kmh_script_exec(void *s, const char *line, char *err, size_t errlen)
{
	return emu_script_exec(s, line, err, errlen);
}

static int arm64_script_exec(void *s, const char *line, char *err, size_t errlen)
{
	return arm_script_exec(s, line, err, errlen);
}

/* The lines of script f through exec, for either machine's interpreter:
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

static int run_script(FILE *f, const char *name, unsigned harts, const char *trace_out)
{
	struct emu *emu = emu_new(harts);
	struct emu_script *s = emu_script_new(emu, script_output, NULL);
	char err[1024];
	unsigned lineno = 0;
	int status = 0;

	catch_script_signals();
	emu_script_set_stop(s, &script_signal);
	if (trace_out && emu_script_trace(s, trace_out, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		status = 1;
	}
	if (!status)
		status = script_lines(f, name, EMU_SCRIPT_MAX_LINE, kmh_script_exec, s, &lineno);
	if (emu_script_finish(s, err, sizeof(err)) < 0 && !status) {
		cli_error("%s", err);
		status = 1;
	}
	emu_script_free(s);
	emu_free(emu);
	return script_end(status, name, lineno);
}

/* --------------------------------------------------------------- profiles */

/* A Topdown node: a number, or null where its formula divides by zero. */
static json_t *td_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *td_json(const struct emu_topdown *td)
{
	json_t *l1 = json_object(), *l2 = json_object(), *l3 = json_object(), *o = json_object();

	json_object_set_new(l1, "retiring", td_num(td->retiring));
	json_object_set_new(l1, "frontend_bound", td_num(td->frontend));
	json_object_set_new(l1, "bad_speculation", td_num(td->bad_spec));
	json_object_set_new(l1, "backend_bound", td_num(td->backend));
	json_object_set_new(l2, "fetch_latency", td_num(td->fetch_latency));
	json_object_set_new(l2, "fetch_bandwidth", td_num(td->fetch_bandwidth));
	json_object_set_new(l2, "branch_mispredict", td_num(td->branch_mispredict));
	json_object_set_new(l2, "machine_clears", td_num(td->machine_clears));
	json_object_set_new(l2, "core_bound", td_num(td->core_bound));
	json_object_set_new(l2, "memory_bound", td_num(td->memory_bound));
	json_object_set_new(l3, "l1_bound", td_num(td->l1));
	json_object_set_new(l3, "l2_bound", td_num(td->l2));
	json_object_set_new(l3, "l3_bound", td_num(td->l3));
	json_object_set_new(l3, "dram_bound", td_num(td->dram));
	json_object_set_new(l3, "store_bound", td_num(td->store));
	json_object_set_new(o, "level1", l1);
	json_object_set_new(o, "level2", l2);
	json_object_set_new(o, "level3", l3);
	return o;
}

/* A node in percent for the text listing: "n/a" where it divides by zero. */
static const char *td_pct(double v, char buf[16])
{
	if (!isfinite(v))
		return "n/a";
	snprintf(buf, 16, "%.1f", 100 * v);
	return buf;
}

/* emu_profile_unproduced()'s visitor: one "BANK:NAME" into the JSON array. */
static void append_unproduced(void *list, const char *bank_colon_name)
{
	json_array_append_new(list, json_string(bank_colon_name));
}

static int cmd_profiles(int argc, char **argv)
{
	bool json = false;

	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			cli_print_usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "--json") == 0)
			json = true;
		else
			return not_an_option("profiles", "--json", argv[i]);
	}
	if (json) {
		json_t *arr = json_array();
		for (unsigned i = 0; i < emu_profile_count(); i++) {
			const struct emu_profile *p = emu_profile_at(i);
			struct emu_topdown td;
			json_t *unp = json_array();
			struct emu_topdown slots;
			emu_profile_declared(p, &td);
			emu_profile_declared_slots(p, &slots);
			emu_profile_unproduced(p, append_unproduced, unp);
			json_t *o = json_pack("{s:s,s:s,s:b,s:o,s:o}", "name", emu_profile_name(p),
			                      "description", emu_profile_description(p), "emulated",
			                      1, "declared", td_json(&td), "not_produced", unp);
			/* what stat --topdown-variant=slots converges to */
			json_object_set_new(o, "declared_variants",
			                    json_pack("{s:o}", "slots", td_json(&slots)));
			/* the declared functions, only where there are some */
			unsigned nf = emu_profile_nr_functions(p);
			if (nf) {
				json_t *fa = json_array();
				for (unsigned k = 0; k < nf; k++) {
					struct emu_function f;
					emu_profile_function(p, k, &f);
					json_array_append_new(
					    fa, json_pack("{s:s,s:I,s:I,s:f,s:o}", "name", f.name,
					                  "start", (json_int_t)f.start, "end",
					                  (json_int_t)f.end, "share", f.share,
					                  "declared", td_json(&f.td)));
				}
				json_object_set_new(o, "functions", fa);
			}
			/* the declared task schedule, only where there is one */
			unsigned nt = emu_profile_nr_tasks(p);
			if (nt) {
				json_t *ta = json_array();
				for (unsigned k = 0; k < nt; k++) {
					struct emu_task t;
					emu_profile_task(p, k, &t);
					json_t *to = json_pack(
					    "{s:s,s:i,s:i,s:i,s:f,s:I,s:o}", "comm", t.name, "pid",
					    t.pid, "tgid", t.tgid, "hart", (int)t.hart, "share",
					    t.share, "start", (json_int_t)t.start, "exit",
					    t.exit == UINT64_MAX
					        ? json_null()
					        : json_integer((json_int_t)t.exit));
					json_object_set_new(to, "declared", td_json(&t.td));
					json_array_append_new(ta, to);
				}
				json_object_set_new(o, "tasks", ta);
			}
			json_array_append_new(arr, o);
		}
		char *text = json_dumps(arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_decref(arr);
		if (!text) {
			cli_error("cannot format JSON");
			return 1;
		}
		puts(text);
		free(text);
		return 0;
	}
	printf("Emulated workload profiles (declared Topdown breakdown, %%):\n");
	for (unsigned i = 0; i < emu_profile_count(); i++) {
		const struct emu_profile *p = emu_profile_at(i);
		struct emu_topdown td;
		emu_profile_declared(p, &td);
		printf("\n%s: %s\n", emu_profile_name(p), emu_profile_description(p));
		char b[15][16];
		printf("  level 1: retiring %s  frontend %s  bad-speculation %s  backend %s\n",
		       td_pct(td.retiring, b[0]), td_pct(td.frontend, b[1]),
		       td_pct(td.bad_spec, b[2]), td_pct(td.backend, b[3]));
		printf("  level 2: fetch-latency %s  fetch-bandwidth %s  branch-mispredict %s  "
		       "machine-clears %s  core-bound %s  memory-bound %s\n",
		       td_pct(td.fetch_latency, b[4]), td_pct(td.fetch_bandwidth, b[5]),
		       td_pct(td.branch_mispredict, b[6]), td_pct(td.machine_clears, b[7]),
		       td_pct(td.core_bound, b[8]), td_pct(td.memory_bound, b[9]));
		printf("  level 3: l1 %s  l2 %s  l3 %s  dram %s  store %s\n", td_pct(td.l1, b[10]),
		       td_pct(td.l2, b[11]), td_pct(td.l3, b[12]), td_pct(td.dram, b[13]),
		       td_pct(td.store, b[14]));
		for (unsigned k = 0; k < emu_profile_nr_functions(p); k++) {
			struct emu_function f;
			emu_profile_function(p, k, &f);
			printf("  function %s [0x%" PRIx64 ", 0x%" PRIx64
			       ") %.1f%% of cycles: retiring "
			       "%s  frontend %s  bad-speculation %s  backend %s\n",
			       f.name, f.start, f.end, 100 * f.share, td_pct(f.td.retiring, b[0]),
			       td_pct(f.td.frontend, b[1]), td_pct(f.td.bad_spec, b[2]),
			       td_pct(f.td.backend, b[3]));
		}
		for (unsigned k = 0; k < emu_profile_nr_tasks(p); k++) {
			struct emu_task t;
			emu_profile_task(p, k, &t);
			printf("  task %s pid %d tgid %d hart %u, %.1f%% of its hart: retiring %s  "
			       "frontend %s  bad-speculation %s  backend %s\n",
			       t.name, t.pid, t.tgid, t.hart, 100 * t.share,
			       td_pct(t.td.retiring, b[0]), td_pct(t.td.frontend, b[1]),
			       td_pct(t.td.bad_spec, b[2]), td_pct(t.td.backend, b[3]));
		}
		unsigned n = emu_profile_unproduced(p, NULL, NULL);
		if (n)
			printf("  not produced: %u events (listed by --json)\n", n);
	}
	return 0;
}

/* ------------------------------------------------------------------ bench */

/* emu_bench_compare()'s report of one CSR the fast path got wrong. */
static void bench_mismatch(void *ctx, const char *csr_name, uint64_t fast, uint64_t ref)
{
	(void)ctx;
	cli_error("bench: %s differs: fast path 0x%016" PRIx64 ", reference 0x%016" PRIx64,
	          csr_name, fast, ref);
}

static int cmd_bench(int argc, char **argv)
{
	uint64_t cycles = 20000000, seed = 1;
	const char *pname = NULL, *v;
	char err[512];

	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			cli_print_usage(stdout);
			return 0;
		} else if ((v = opt_value(argc, argv, &i, "--cycles"))) {
			if (cli_parse_u64_usage("bench: --cycles", v, 1, UINT64_MAX, &cycles))
				return EXIT_USAGE;
		} else if ((v = opt_value(argc, argv, &i, "--seed"))) {
			if (cli_parse_u64_usage("bench: --seed", v, 0, UINT64_MAX, &seed))
				return EXIT_USAGE;
		} else if ((v = opt_value(argc, argv, &i, "--profile"))) {
			pname = v;
		} else if (opt_is(argv[i], "--cycles") || opt_is(argv[i], "--seed") ||
		           opt_is(argv[i], "--profile")) {
			return cli_usage_error("bench: option '%s' needs a value", argv[i]);
		} else {
			return not_an_option("bench", NULL, argv[i]);
		}
	}
	const struct emu_profile *p = NULL;
	err[0] = '\0';
	if (pname)
		p = emu_profile_find(pname, err, sizeof(err));
	else if (!(p = emu_profile_find("balanced", err, sizeof(err))) && emu_profile_count())
		p = emu_profile_at(0);
	if (!p) {
		cli_error("bench: %s", err[0] ? err : "no workload profile");
		return 1;
	}

	struct hpm_emu_bench_result res;
	struct emu_bench *bench = emu_bench_run(p, seed, cycles, &res, err, sizeof(err));
	if (!bench) {
		cli_error("bench: %s", err);
		return 1;
	}
	uint64_t done = res.cycles;
	printf("profile:    %s (seed %" PRIu64 "), emulated\n", emu_profile_name(p), seed);
	printf("stream:     %" PRIu64 " cycles in %" PRIu64 " runs (%.1f cycles/run, %zu "
	       "distinct)\n",
	       done, res.runs, res.runs ? (double)done / (double)res.runs : 0.0, res.distinct);
	printf("counters:   29 programmed with 1-4 events each, ops or, and, xor, add\n");
	printf("fast path:  %.3g cycles/s (%.4f s, best of %u passes)\n",
	       (double)done / res.fast_seconds, res.fast_seconds, res.fast_passes);
	printf("reference:  %.3g cycles/s (%.4f s)\n", (double)done / res.ref_seconds,
	       res.ref_seconds);
	printf("ratio:      %.1fx\n", res.ref_seconds / res.fast_seconds);
	/* after the figures: they are worth seeing even when a counter differs */
	int status = emu_bench_compare(bench, bench_mismatch, NULL) ? 1 : 0;
	if (!status) {
		printf("check:      equal: mcycle, minstret, mhpmcounter3-31, mhpmevent3-31 "
		       "(OF), mip\n");
	}
	emu_bench_free(bench);
	return status;
}

/* ------------------------------------------------------------------- Arm */

/* The Arm machine's options, as `emu --arch arm64` takes them. */
struct arm_opts {
	const char *pmu; /* a feature profile or an Arm core; NULL: v2 */
	uint64_t pes, per_core;
	const char *trace_out;
};

static int run_arm_script(FILE *f, const char *name, const struct arm_opts *o)
{
	char err[1024];
	const char *pmu = o->pmu ? o->pmu : "v2";
	const struct arm_emu_features *feat = arm_emu_features_find(pmu);
	if (!feat) {
		cli_error("--pmu %s: no Arm emulator profile of that name (n1, v1, n2, v2, "
		          "future, or neoverse-n1, neoverse-n2, neoverse-v1, neoverse-v2)",
		          pmu);
		return EXIT_USAGE;
	}
	struct arm_emu *m =
	    arm_emu_new(feat, (unsigned)o->pes, (unsigned)o->per_core, err, sizeof(err));
	if (!m) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	/* an Arm core's name also names the events of `feed` */
	struct arm_script *s =
	    arm_script_new(m, arm_emu_core_profile(pmu) ? pmu : NULL, script_output, NULL);
	unsigned lineno = 0;
	int status = 0;

	catch_script_signals();
	arm_script_set_stop(s, &script_signal);
	if (o->trace_out && arm_script_trace(s, o->trace_out, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		status = 1;
	}
	if (!status)
		status = script_lines(f, name, ARM_SCRIPT_MAX_LINE, arm64_script_exec, s, &lineno);
	if (arm_script_finish(s, err, sizeof(err)) < 0 && !status) {
		cli_error("%s", err);
		status = 1;
	}
	arm_script_free(s);
	arm_emu_free(m);
	return script_end(status, name, lineno);
}

static json_t *arm_td_json(const struct arm_src_topdown *td)
{
	json_t *o = json_object();
	json_object_set_new(o, "retiring", td_num(td->retiring));
	json_object_set_new(o, "frontend_bound", td_num(td->frontend));
	json_object_set_new(o, "bad_speculation", td_num(td->bad_spec));
	json_object_set_new(o, "backend_bound", td_num(td->backend));
	return o;
}

static int cmd_arm_profiles(int argc, char **argv)
{
	bool json = false;
	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			cli_print_usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "--json") == 0)
			json = true;
		else
			return not_an_option("profiles", "--json", argv[i]);
	}
	if (json) {
		json_t *arr = json_array();
		for (unsigned i = 0; i < arm_src_profile_count(); i++) {
			const struct arm_src_profile *p = arm_src_profile_at(i);
			struct arm_src_topdown sl, cy, ksl, kcy;
			arm_src_profile_declared(p, &sl, &cy);
			arm_src_profile_declared_kernel(p, &ksl, &kcy);
			json_array_append_new(
			    arr,
			    json_pack("{s:s,s:s,s:b,s:i,s:i,s:o,s:o,s:o,s:o}", "name",
			              arm_src_profile_name(p), "description",
			              arm_src_profile_description(p), "emulated", 1, "slots",
			              (int)arm_src_profile_slots(p), "stall_slot_bias",
			              (int)arm_src_profile_stall_slot_bias(p), "declared_slots",
			              arm_td_json(&sl), "declared_cycles", arm_td_json(&cy),
			              "declared_kernel_slots", arm_td_json(&ksl),
			              "declared_kernel_cycles", arm_td_json(&kcy)));
			/* Arm's own formulas (BR_MIS_PRED moved between nodes) */
			json_t *o = json_array_get(arr, json_array_size(arr) - 1);
			for (unsigned f = 0; f < ARM_SRC_TD_NR; f++)
				for (int kernel = 0; kernel < 2; kernel++) {
					struct arm_src_topdown a;
					char key[40];
					arm_src_profile_declared_arm(p, f, kernel, &a);
					snprintf(key, sizeof(key), "declared_%sarm_%s",
					         kernel ? "kernel_" : "",
					         f == ARM_SRC_TD_V1 ? "v1" : "v2");
					json_object_set_new(o, key, arm_td_json(&a));
				}
		}
		char *text = json_dumps(arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_decref(arr);
		if (!text) {
			cli_error("cannot format JSON");
			return 1;
		}
		puts(text);
		free(text);
		return 0;
	}
	printf("Emulated Arm workload profiles (declared level-1 Topdown, %%):\n");
	for (unsigned i = 0; i < arm_src_profile_count(); i++) {
		const struct arm_src_profile *p = arm_src_profile_at(i);
		struct arm_src_topdown sl, cy, ksl, kcy;
		char b[8][16];
		arm_src_profile_declared(p, &sl, &cy);
		arm_src_profile_declared_kernel(p, &ksl, &kcy);
		printf("\n%s: %s\n", arm_src_profile_name(p), arm_src_profile_description(p));
		printf("  slots (%u): retiring %s  frontend %s  bad-speculation %s  backend %s\n",
		       arm_src_profile_slots(p), td_pct(sl.retiring, b[0]),
		       td_pct(sl.frontend, b[1]), td_pct(sl.bad_spec, b[2]),
		       td_pct(sl.backend, b[3]));
		printf("  cycles:    retiring %s  frontend %s  bad-speculation %s  backend %s\n",
		       td_pct(cy.retiring, b[4]), td_pct(cy.frontend, b[5]),
		       td_pct(cy.bad_spec, b[6]), td_pct(cy.backend, b[7]));
		for (unsigned f = 0; f < ARM_SRC_TD_NR; f++) {
			struct arm_src_topdown a;
			arm_src_profile_declared_arm(p, f, false, &a);
			printf("  %s retiring %s  frontend %s  bad-speculation %s  backend %s\n",
			       f == ARM_SRC_TD_V1 ? "Arm V1:   " : "Arm V2/N2:",
			       td_pct(a.retiring, b[0]), td_pct(a.frontend, b[1]),
			       td_pct(a.bad_spec, b[2]), td_pct(a.backend, b[3]));
		}
		if (memcmp(&sl, &ksl, sizeof(sl)) != 0)
			printf(
			    "  as a Non-secure kernel counts it (Secure, Root and EL3 prohibited), "
			    "slots: retiring %s  frontend %s  bad-speculation %s  backend %s\n",
			    td_pct(ksl.retiring, b[0]), td_pct(ksl.frontend, b[1]),
			    td_pct(ksl.bad_spec, b[2]), td_pct(ksl.backend, b[3]));
	}
	return 0;
}

static void arm_bench_mismatch(void *ctx, const char *reg, uint64_t fast, uint64_t ref)
{
	(void)ctx;
	cli_error("bench: %s differs: fast path 0x%016" PRIx64 ", reference 0x%016" PRIx64, reg,
	          fast, ref);
}

/* The bench's producer over a workload profile's stream (the engine
 * knows no sources library: see arm64/emu/bench.h). */
static void arm_bench_next(void *ctx, uint64_t max_cycles, struct arm_emu_run *run)
{
	arm_src_stream_next(ctx, max_cycles, run);
}

static int cmd_arm_bench(int argc, char **argv)
{
	uint64_t cycles = 20000000, seed = 1, max_run = 100;
	const char *v, *pname = NULL, *pmu = "future";
	bool max_run_given = false;
	char err[512];

	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			cli_print_usage(stdout);
			return 0;
		} else if ((v = opt_value(argc, argv, &i, "--cycles"))) {
			if (cli_parse_u64_usage("bench: --cycles", v, 1, UINT64_MAX, &cycles))
				return EXIT_USAGE;
		} else if ((v = opt_value(argc, argv, &i, "--seed"))) {
			if (cli_parse_u64_usage("bench: --seed", v, 0, UINT64_MAX, &seed))
				return EXIT_USAGE;
		} else if ((v = opt_value(argc, argv, &i, "--max-run"))) {
			if (cli_parse_u64_usage("bench: --max-run", v, 1, 1000000, &max_run))
				return EXIT_USAGE;
			max_run_given = true;
		} else if ((v = opt_value(argc, argv, &i, "--profile"))) {
			pname = v;
		} else if ((v = opt_value(argc, argv, &i, "--pmu"))) {
			pmu = v;
		} else if (opt_is(argv[i], "--cycles") || opt_is(argv[i], "--seed") ||
		           opt_is(argv[i], "--max-run") || opt_is(argv[i], "--profile") ||
		           opt_is(argv[i], "--pmu")) {
			return cli_usage_error("bench: option '%s' needs a value", argv[i]);
		} else {
			return not_an_option("bench", NULL, argv[i]);
		}
	}
	if (pname && max_run_given)
		return cli_usage_error("bench: --max-run shapes the synthetic stream; a profile's "
		                       "runs have the lengths it declares");
	const struct arm_emu_features *f = arm_emu_features_find(pmu);
	if (!f) {
		cli_error("bench: --pmu %s: no Arm emulator profile of that name (n1, v2, future, "
		          "or an Arm core such as neoverse-v2)",
		          pmu);
		return 1;
	}
	const struct arm_src_profile *p = NULL;
	if (pname && !(p = arm_src_profile_find(pname, err, sizeof(err)))) {
		cli_error("bench: %s", err);
		return 1;
	}

	struct hpm_emu_bench_result res;
	struct arm_emu_bench *b;
	if (p) {
		unsigned nr = arm_src_profile_nr_events(p);
		uint16_t *events = xcalloc(nr ? nr : 1, sizeof(*events));
		for (unsigned i = 0; i < nr; i++)
			events[i] = arm_src_profile_event(p, i);
		struct arm_src_stream *st = arm_src_stream_new(p, seed);
		struct arm_emu_bench_source src = {
		    .next = arm_bench_next, .ctx = st, .events = events, .nr_events = nr};
		b = arm_emu_bench_stream(f, &src, seed, cycles, 3, &res, err, sizeof(err));
		arm_src_stream_free(st);
		free(events);
	} else {
		b = arm_emu_bench_run(f, seed, cycles, (unsigned)max_run, true, 3, &res, err,
		                      sizeof(err));
	}
	if (!b) {
		cli_error("bench: %s", err);
		arm_src_profile_free(p);
		return 1;
	}
	if (p) {
		printf("machine:    Arm PMUv3 emulator, feature profile %s, emulated\n", f->name);
		printf("workload:   %s (%s, seed %" PRIu64 "), emulated\n", arm_src_profile_name(p),
		       arm_src_profile_origin(p), seed);
		printf("stream:     %" PRIu64 " cycles in %" PRIu64 " runs (%.1f cycles/run)\n",
		       res.cycles, res.runs,
		       res.runs ? (double)res.cycles / (double)res.runs : 0.0);
	} else {
		printf("machine:    Arm PMUv3 emulator, profile %s (seed %" PRIu64 "), emulated\n",
		       f->name, seed);
		printf("stream:     %" PRIu64 " cycles in %" PRIu64 " runs of 1-%" PRIu64
		       " cycles (%.1f cycles/run)\n",
		       res.cycles, res.runs, max_run,
		       res.runs ? (double)res.cycles / (double)res.runs : 0.0);
	}
	printf("counters:   31 programmed: thresholds, edges, linking, filters, overflow\n");
	printf("fast path:  %.3g cycles/s (%.4f s, best of %u passes)\n",
	       (double)res.cycles / res.fast_seconds, res.fast_seconds, res.fast_passes);
	printf("reference:  %.3g cycles/s (%.4f s)\n", (double)res.cycles / res.ref_seconds,
	       res.ref_seconds);
	printf("ratio:      %.1fx\n", res.ref_seconds / res.fast_seconds);
	int status = arm_emu_bench_compare(b, arm_bench_mismatch, NULL) ? 1 : 0;
	if (!status)
		printf("check:      equal: every register of every PE and the edge state\n");
	arm_emu_bench_free(b);
	arm_src_profile_free(p);
	return status;
}

/* `emu --arch arm64 ...` with --arch taken out. */
static int cmd_arm(int argc, char **argv)
{
	struct arm_opts o = {.pes = 1, .per_core = 1};
	const char *script = NULL, *v;
	int i;

	if (argc >= 2 && strcmp(argv[1], "profiles") == 0)
		return cmd_arm_profiles(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "bench") == 0)
		return cmd_arm_bench(argc - 1, argv + 1);
	for (i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			cli_print_usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if ((v = opt_value(argc, argv, &i, "--pes-per-core"))) {
			if (cli_parse_u64_usage("--pes-per-core", v, 1, ARM_EMU_MAX_PES_PER_CORE,
			                        &o.per_core))
				return EXIT_USAGE;
		} else if ((v = opt_value(argc, argv, &i, "--pes"))) {
			if (cli_parse_u64_usage("--pes", v, 1, ARM_EMU_MAX_PES, &o.pes))
				return EXIT_USAGE;
		} else if ((v = opt_value(argc, argv, &i, "--pmu"))) {
			o.pmu = v;
		} else if ((v = opt_value(argc, argv, &i, "--trace-out"))) {
			o.trace_out = v;
		} else if (opt_is(argv[i], "--pes") || opt_is(argv[i], "--pes-per-core") ||
		           opt_is(argv[i], "--pmu") || opt_is(argv[i], "--trace-out")) {
			return cli_usage_error("option '%s' needs a value", argv[i]);
		} else if (opt_is(argv[i], "--harts")) {
			return cli_usage_error("option '--harts' is Kunminghu's: the Arm machine "
			                       "takes --pes N and --pes-per-core K");
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
	if (o.pes % o.per_core)
		return cli_usage_error("--pes %" PRIu64
		                       " is not a multiple of --pes-per-core %" PRIu64,
		                       o.pes, o.per_core);

	if (!script || strcmp(script, "-") == 0)
		return run_arm_script(stdin, "-", &o);
	FILE *f = fopen(script, "r");
	if (!f) {
		cli_error("cannot open script '%s': %s", script, strerror(errno));
		return 1;
	}
	int status = run_arm_script(f, script, &o);
	fclose(f);
	return status;
}

/* Takes "--arch ARCH" (or "--arch=ARCH") out of argv, wherever it is:
 * *arm says whether it named the Arm machine. Returns 0, or a usage error's
 * exit code. */
static int take_arch(int *argc, char **argv, bool *arm)
{
	int out = 1;
	*arm = false;
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
			if (strcmp(v, "arm64") == 0 || strcmp(v, "aarch64") == 0)
				*arm = true;
			else if (strcmp(v, "riscv64") == 0 || strcmp(v, "riscv") == 0)
				*arm = false;
			else
				return cli_usage_error(
				    "--arch %s: the emulators are of arm64 (the Arm "
				    "PMUv3) and riscv64 (Kunminghu)",
				    v);
			continue;
		}
		argv[out++] = argv[i];
	}
	*argc = out;
	argv[out] = NULL;
	return 0;
}

/* ------------------------------------------------------------------- main */

int cmd_emu(int argc, char **argv)
{
	uint64_t harts = 1;
	const char *trace_out = NULL, *script = NULL, *v;
	int i;
	bool arm;

	if ((i = take_arch(&argc, argv, &arm)) != 0)
		return i;
	if (arm)
		return cmd_arm(argc, argv);

	if (argc >= 2 && strcmp(argv[1], "profiles") == 0)
		return cmd_profiles(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "bench") == 0)
		return cmd_bench(argc - 1, argv + 1);
	for (i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			cli_print_usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if ((v = opt_value(argc, argv, &i, "--harts"))) {
			if (cli_parse_u64_usage("--harts", v, 1, EMU_MAX_HARTS, &harts))
				return EXIT_USAGE;
		} else if ((v = opt_value(argc, argv, &i, "--trace-out"))) {
			trace_out = v;
		} else if (opt_is(argv[i], "--harts") || opt_is(argv[i], "--trace-out")) {
			return cli_usage_error("option '%s' needs a value", argv[i]);
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

	if (!script || strcmp(script, "-") == 0)
		return run_script(stdin, "-", (unsigned)harts, trace_out);
	FILE *f = fopen(script, "r");
	if (!f) {
		cli_error("cannot open script '%s': %s", script, strerror(errno));
		return 1;
	}
	int status = run_script(f, script, (unsigned)harts, trace_out);
	fclose(f);
	return status;
}
