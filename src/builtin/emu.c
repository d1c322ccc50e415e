/* emu.c: `hpmstat emu`: the emulator's script runner, `emu profiles` and
 * `emu bench`.
 *
 * Owns: option parsing, printing and exit codes of the three. The work is in
 * libemu (src/emu/emu.h, src/emu/workload.h); this file only reads files,
 * prints what the library produces and reports its errors as
 * "hpmstat emu: FILE:LINE: reason".
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "builtin/builtin.h"
#include "emu/emu.h"
#include "emu/workload.h"
#include "kmh/mhpmevent.h"
#include "util/line.h"
#include "util/xalloc.h"

const char cmd_emu_usage[] =
    "Usage: hpmstat emu [--harts N] [--trace-out FILE] [SCRIPT | -]\n"
    "       hpmstat emu profiles [--json]\n"
    "       hpmstat emu bench [--cycles N] [--profile P] [--seed N]\n"
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

static int run_script(FILE *f, const char *name, unsigned harts, const char *trace_out)
{
	struct emu *emu = emu_new(harts);
	struct emu_script *s = emu_script_new(emu, script_output, NULL);
	char err[1024];
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	int status = 0;
	ssize_t n = 0;

	/* no SA_RESTART: a signal also ends a read of the script */
	struct sigaction sa = {.sa_handler = on_script_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	emu_script_set_stop(s, &script_signal);

	if (trace_out && emu_script_trace(s, trace_out, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		status = 1;
	}
	/* line by line, each bounded, so /dev/zero is an error, not a leak */
	while (!status && !script_signal &&
	       (n = util_read_line(f, &line, &cap, EMU_SCRIPT_MAX_LINE)) != UTIL_LINE_EOF &&
	       n != UTIL_LINE_ERROR) {
		lineno++;
		if (n == UTIL_LINE_TOO_LONG) {
			cli_error("%s:%u: line longer than %u bytes", name, lineno,
			          EMU_SCRIPT_MAX_LINE);
			status = 1;
		} else if (strlen(line) != (size_t)n) {
			/* the interpreter reads C strings: a NUL would cut the line */
			cli_error("%s:%u: column %zu: NUL byte in the line", name, lineno,
			          strlen(line) + 1);
			status = 1;
		} else if (emu_script_exec(s, line, err, sizeof(err)) < 0) {
			cli_error("%s:%u: %s", name, lineno, err);
			status = 1;
		}
	}
	if (!status && n == UTIL_LINE_ERROR && !script_signal) {
		cli_error("%s: read error: %s", name, strerror(errno));
		status = 1;
	}
	if (emu_script_finish(s, err, sizeof(err)) < 0 && !status) {
		cli_error("%s", err);
		status = 1;
	}
	free(line);
	emu_script_free(s);
	emu_free(emu);
	if (script_signal) {
		int sig = script_signal;
		if (!status)
			cli_error("%s:%u: interrupted", name, lineno);
		return cli_die_of_signal(sig);
	}
	return status;
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
			emu_profile_declared(p, &td);
			emu_profile_unproduced(p, append_unproduced, unp);
			json_array_append_new(
			    arr, json_pack("{s:s,s:s,s:b,s:o,s:o}", "name", emu_profile_name(p),
			                   "description", emu_profile_description(p), "emulated", 1,
			                   "declared", td_json(&td), "not_produced", unp));
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
		unsigned n = emu_profile_unproduced(p, NULL, NULL);
		if (n)
			printf("  not produced: %u events (listed by --json)\n", n);
	}
	return 0;
}

/* ------------------------------------------------------------------ bench */

/* The recorded stream: each distinct run content once, runs as references. */
struct rec {
	uint8_t *dense;   /* per content: all banks' values, concatenated */
	uint8_t *instret; /* per content */
	uint64_t *hash;   /* per content */
	size_t nr;
	size_t cap;
	unsigned size; /* bytes of one content */
	unsigned off[KMH_NR_BANKS];
	uint32_t *bykey;  /* open addressing on workload keys: content + 1 */
	uint32_t *keyof;  /* the workload key of each bykey slot */
	uint32_t *byhash; /* open addressing on content hashes: content + 1 */
	size_t nr_keys;   /* entries in bykey */
	size_t tabsize;
};

static uint64_t rec_hash(const uint8_t *d, size_t n, uint8_t instret)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325) ^ instret;
	for (size_t i = 0; i < n; i++)
		h = (h ^ d[i]) * UINT64_C(0x100000001b3);
	return h ^ (h >> 31);
}

/* Rebuilds the tables at `size` slots. The key map starts empty again:
 * forgetting keys only costs hashing their contents once more. */
static void rec_rehash(struct rec *r, size_t size)
{
	free(r->bykey);
	free(r->keyof);
	free(r->byhash);
	r->bykey = xcalloc(size, sizeof(*r->bykey));
	r->keyof = xcalloc(size, sizeof(*r->keyof));
	r->byhash = xcalloc(size, sizeof(*r->byhash));
	r->tabsize = size;
	for (size_t c = 0; c < r->nr; c++) {
		size_t s = r->hash[c] & (size - 1);
		while (r->byhash[s])
			s = (s + 1) & (size - 1);
		r->byhash[s] = (uint32_t)c + 1;
	}
	r->nr_keys = 0;
}

/* Content id of a workload run. Runs with a key are looked up by key (the
 * key promises equal contents); others by hashing their values. */
static uint32_t rec_intern(struct rec *r, const struct emu_run *run)
{
	if (2 * (r->nr + 1) > r->tabsize)
		rec_rehash(r, r->tabsize ? 2 * r->tabsize : 1024);
	else if (2 * (r->nr_keys + 1) > r->tabsize)
		rec_rehash(r, r->tabsize);
	size_t mask = r->tabsize - 1, ks = 0;
	if (run->key) {
		ks = (run->key * (size_t)0x9e3779b1u) & mask;
		for (; r->bykey[ks]; ks = (ks + 1) & mask)
			if (r->keyof[ks] == run->key)
				return r->bykey[ks] - 1;
	}
	uint8_t *tmp = xcalloc(1, r->size);
	for (int b = 0; b < KMH_NR_BANKS; b++)
		if (run->vals[b])
			for (unsigned i = 1; i < kmh_banks[b].nr_events; i++)
				tmp[r->off[b] + i] = run->vals[b][i] & 63u;
	uint8_t instret = run->instret & 63u;
	uint64_t h = rec_hash(tmp, r->size, instret);
	size_t s = h & mask;
	uint32_t id = UINT32_MAX;
	for (; r->byhash[s]; s = (s + 1) & mask) {
		uint32_t c = r->byhash[s] - 1;
		if (r->hash[c] == h && r->instret[c] == instret &&
		    memcmp(r->dense + (size_t)c * r->size, tmp, r->size) == 0) {
			id = c;
			break;
		}
	}
	if (id == UINT32_MAX) {
		if (r->nr == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 256;
			r->dense = xreallocarray(r->dense, r->cap, r->size);
			r->instret = xreallocarray(r->instret, r->cap, 1);
			r->hash = xreallocarray(r->hash, r->cap, sizeof(*r->hash));
		}
		id = (uint32_t)r->nr++;
		memcpy(r->dense + (size_t)id * r->size, tmp, r->size);
		r->instret[id] = instret;
		r->hash[id] = h;
		r->byhash[s] = id + 1;
	}
	if (run->key) {
		r->bykey[ks] = id + 1;
		r->keyof[ks] = run->key;
		r->nr_keys++;
	}
	free(tmp);
	return id;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The bench program: counter n gets 1 + (n % 4) events of its bank (events
 * the profile produces where it has enough), ops rotating through OR, AND,
 * XOR and ADD with AND kept away from empty slots (SPEC §1), and a rotating
 * set of modes. */
static uint64_t bench_event(const struct emu_profile *p, unsigned n, unsigned *nr_events)
{
	static const unsigned ops[4] = {KMH_OP_OR, KMH_OP_AND, KMH_OP_XOR, KMH_OP_ADD};
	static const uint64_t inh[5] = {
	    KMH_MINH,                        /* U, S, VU, VS: what Linux sets */
	    KMH_MINH | KMH_SINH | KMH_VSINH, /* u */
	    KMH_MINH | KMH_UINH | KMH_VUINH, /* k */
	    0,                               /* every mode, M included */
	    KMH_MINH | KMH_SINH | KMH_UINH,  /* G */
	};
	int bank = kmh_bank_of_counter(n);
	unsigned nr = kmh_banks[bank].nr_events, have = 0, pick[KMH_NR_SLOTS];
	unsigned want = 1 + n % 4;

	/* spread the picks over the produced events, starting at a counter-specific one */
	unsigned produced[1024], np = 0;
	for (unsigned i = 1; i < nr && np < 1024; i++)
		if (emu_profile_produces(p, bank, i))
			produced[np++] = i;
	for (unsigned k = 0; k < want; k++) {
		if (np >= want)
			pick[k] = produced[(n * 7 + k * (np / want + 1)) % np];
		else
			pick[k] = 1 + (n * 5 + k * 11) % (nr - 1);
		have++;
	}
	unsigned a = ops[n % 4], b = ops[(n + 1) % 4], c = ops[(n + 2) % 4];
	uint64_t v = inh[n % 5];
	for (unsigned k = 0; k < have; k++)
		v = kmh_mhpmevent_set_event(v, k, pick[k]);
	switch (want) {
	case 1: /* all ops OR: a | 0 | 0 */
		break;
	case 2: /* (a op b) op2 (0 | 0) */
		v = kmh_mhpmevent_set_op(v, 0, a);
		v = kmh_mhpmevent_set_op(v, 2, c == KMH_OP_AND ? KMH_OP_ADD : c);
		break;
	case 3: /* (a op b) op2 (c op1 0) */
		v = kmh_mhpmevent_set_op(v, 0, a);
		v = kmh_mhpmevent_set_op(v, 1, b == KMH_OP_AND ? KMH_OP_XOR : b);
		v = kmh_mhpmevent_set_op(v, 2, c);
		break;
	default:
		v = kmh_mhpmevent_set_op(v, 0, a);
		v = kmh_mhpmevent_set_op(v, 1, b);
		v = kmh_mhpmevent_set_op(v, 2, c);
		break;
	}
	*nr_events = want;
	return v;
}

static void bench_program(struct emu_hart *h, const struct emu_profile *p)
{
	for (unsigned n = KMH_FIRST_COUNTER; n <= KMH_LAST_COUNTER; n++) {
		unsigned nev;
		uint64_t v = bench_event(p, n, &nev);
		if (n % 6 == 0)
			v |= KMH_OF; /* a wrap with OF already set: no new interrupt */
		emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMEVENT(n), v);
		/* some counters start just below 2^64 so that the stream wraps them */
		uint64_t start = n % 3 == 0 ? UINT64_MAX - (UINT64_C(1000003) * n) : 0;
		emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(n), start);
	}
}

static int bench_compare(struct emu_hart *fast, struct emu_hart *ref)
{
	int bad = 0;
	for (int i = 0; emu_csr_at((unsigned)i) >= 0; i++) {
		unsigned csr = (unsigned)emu_csr_at((unsigned)i);
		uint64_t a, b;
		if (emu_hart_csr_read(fast, EMU_MODE_M, csr, &a) != EMU_OK)
			continue;
		emu_hart_csr_read(ref, EMU_MODE_M, csr, &b);
		if (a != b) {
			cli_error("bench: %s differs: fast path 0x%016" PRIx64
			          ", reference 0x%016" PRIx64,
			          emu_csr_name(csr), a, b);
			bad = 1;
		}
	}
	return bad;
}

#define BENCH_CHUNK (1u << 18) /* runs recorded, then timed, at a time */
#define BENCH_FAST  3          /* fast-path passes over each chunk */

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

	/* BENCH_FAST harts count the stream on the fast path, one more with the
	 * reference; the fast path's time per chunk is the best of its passes,
	 * since one pass over a chunk takes only milliseconds. */
	struct emu *emu = emu_new(BENCH_FAST + 1);
	struct emu_hart *ref = emu_hart(emu, BENCH_FAST);
	for (unsigned k = 0; k <= BENCH_FAST; k++)
		bench_program(emu_hart(emu, k), p);

	struct rec rec;
	memset(&rec, 0, sizeof(rec));
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		rec.off[b] = rec.size;
		rec.size += kmh_banks[b].nr_events;
	}
	uint64_t *cyc = xmalloc(BENCH_CHUNK * sizeof(*cyc));
	uint32_t *cid = xmalloc(BENCH_CHUNK * sizeof(*cid));
	uint8_t *mode = xmalloc(BENCH_CHUNK);
	struct emu_workload *w = emu_workload_new(p, seed);
	double t_fast = 0, t_ref = 0;
	uint64_t runs = 0, left = cycles;
	int status = 0;

	while (left && !status) {
		unsigned n = 0;
		for (; n < BENCH_CHUNK && left; n++) {
			struct emu_run run;
			memset(&run, 0, sizeof(run));
			emu_workload_next(w, left, &run);
			if (run.cycles == 0 || run.cycles > left || run.mode >= EMU_NR_MODES) {
				cli_error("bench: profile '%s' produced a bad run",
				          emu_profile_name(p));
				status = 1;
				break;
			}
			cyc[n] = run.cycles;
			mode[n] = run.mode;
			cid[n] = rec_intern(&rec, &run);
			left -= run.cycles;
		}
		runs += n;

		struct emu_run r;
		memset(&r, 0, sizeof(r));
		r.source = &rec;
		double best = 0;
		for (unsigned k = 0; k < BENCH_FAST; k++) {
			struct emu_hart *fast = emu_hart(emu, k);
			double t0 = now();
			for (unsigned i = 0; i < n; i++) {
				const uint8_t *d = rec.dense + (size_t)cid[i] * rec.size;
				r.cycles = cyc[i];
				r.key = cid[i] + 1;
				r.mode = mode[i];
				r.instret = rec.instret[cid[i]];
				for (int b = 0; b < KMH_NR_BANKS; b++)
					r.vals[b] = d + rec.off[b];
				emu_hart_run(fast, &r);
			}
			emu_hart_sync(fast);
			double t = now() - t0;
			if (k == 0 || t < best)
				best = t;
		}
		t_fast += best;
		double t1 = now();
		for (unsigned i = 0; i < n; i++) {
			const uint8_t *d = rec.dense + (size_t)cid[i] * rec.size;
			r.cycles = cyc[i];
			r.key = cid[i] + 1;
			r.mode = mode[i];
			r.instret = rec.instret[cid[i]];
			for (int b = 0; b < KMH_NR_BANKS; b++)
				r.vals[b] = d + rec.off[b];
			emu_ref_run(ref, &r);
		}
		t_ref += now() - t1;
	}
	emu_workload_free(w);

	if (!status) {
		uint64_t done = cycles - left;
		printf("profile:    %s (seed %" PRIu64 "), emulated\n", emu_profile_name(p), seed);
		printf("stream:     %" PRIu64 " cycles in %" PRIu64 " runs (%.1f cycles/run, %zu "
		       "distinct)\n",
		       done, runs, runs ? (double)done / (double)runs : 0.0, rec.nr);
		printf("counters:   29 programmed with 1-4 events each, ops or, and, xor, add\n");
		printf("fast path:  %.3g cycles/s (%.4f s, best of %d passes)\n",
		       (double)done / t_fast, t_fast, BENCH_FAST);
		printf("reference:  %.3g cycles/s (%.4f s)\n", (double)done / t_ref, t_ref);
		printf("ratio:      %.1fx\n", t_ref / t_fast);
		for (unsigned k = 0; k < BENCH_FAST; k++)
			if (bench_compare(emu_hart(emu, k), ref))
				status = 1;
		if (!status) {
			printf(
			    "check:      equal: mcycle, minstret, mhpmcounter3-31, mhpmevent3-31 "
			    "(OF), mip\n");
		}
	}
	free(cyc);
	free(cid);
	free(mode);
	free(rec.dense);
	free(rec.instret);
	free(rec.hash);
	free(rec.bykey);
	free(rec.keyof);
	free(rec.byhash);
	emu_free(emu);
	return status;
}

/* ------------------------------------------------------------------- main */

int cmd_emu(int argc, char **argv)
{
	uint64_t harts = 1;
	const char *trace_out = NULL, *script = NULL, *v;
	int i;

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
