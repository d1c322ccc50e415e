/* sample.c: sampling on the Kunminghu emulator (Sscofpmf overflow), with
 * ground truth.
 *
 *  1. The overflow cycle, hand-worked at the hart: a counter written to
 *     2^64 - P wraps in the cycle its count reaches P; the run stops there.
 *  2. The machine against an oracle: a two-function profile whose counted
 *     event has known per-cycle values (rob_commitInstr = the cycle's
 *     `commit`: 6 in cycle a, 1 in cycle b); the oracle walks an
 *     independent stream of the same profile and seed cycle by cycle, adds
 *     those values by hand and re-arms as Linux does (left = P - overshoot);
 *     every sample must be at the oracle's cycle, with its function and PC.
 *  3. hotspots' declared function shares recovered by sparse sampling
 *     (binomial, 4 sigma).
 *  4. hotspots' declared per-function Topdown recovered from group samples
 *     (leader: one count per cycle; members: the SPEC §3 events; member
 *     deltas between samples go to the sampled function).
 *  5. Bad input: counters that cannot sample, profiles whose functions are
 *     wrong, with FILE:LINE messages.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch/machine.h"
#include "kmh/emu/emu.h"
#include "kmh/emu/machine.h"
#include "kmh/emu/workload.h"
#include "kmh/kmh.h"
#include "kmh/mhpmevent.h"
#include "tap.h"

static const struct hpm_emu_machine *M = &hpm_machine_kunminghu;

static uint64_t enc(const char *expr)
{
	struct kmh_encoding e;
	struct hpm_diag err;
	if (kmh_encode(&kmh_table_v2, expr, &e, &err) != 0) {
		tap_diag("%s: %s", expr, err.msg);
		return 0;
	}
	return e.value & ~KMH_INH_MASK; /* every mode */
}

/* ------------------------------------------------ 1: the overflow cycle */

static void hand_worked(void)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	const struct kmh_event *ev =
	    kmh_event_by_name(&kmh_table_v2, KMH_BANK_BACKEND, "rob_commitInstr");
	static uint8_t be[1024];
	struct emu_run r;
	uint32_t ovf;
	uint64_t v, n;

	memset(&r, 0, sizeof(r));
	r.mode = EMU_MODE_HU;
	r.vals[KMH_BANK_BACKEND] = be;
	emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMEVENT(11), enc("rob_commitInstr"));
	emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMEVENT(12), enc("rob_commitInstr"));
	/* period 10: the counter is written to 2^64 - 10 */
	emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(11), 0 - UINT64_C(10));
	emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(12), 0 - UINT64_C(5));

	/* 2 cycles of 3: 6 of 10, no overflow (counter 12, not watched, wraps
	 * in cycle 2: 3 + 3 >= 5, and must not stop the run) */
	be[ev->index] = 3;
	r.cycles = 2;
	n = emu_hart_run_watch(h, &r, EMU_CNT_HPM(11), &ovf);
	emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(11), &v);
	tap_ok(n == 2 && ovf == 0 && v == 0 - UINT64_C(4),
	       "2 cycles of 3 from -10: no stop, counter -4 (ran %" PRIu64 ", at %" PRId64 ")", n,
	       (int64_t)v);
	/* 5 cycles of 1: -4 + 4 = 0 wraps in cycle 4: the run stops after it */
	be[ev->index] = 1;
	r.cycles = 5;
	n = emu_hart_run_watch(h, &r, EMU_CNT_HPM(11), &ovf);
	emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(11), &v);
	tap_ok(n == 4 && ovf == EMU_CNT_HPM(11) && v == 0,
	       "5 cycles of 1 from -4: stops after cycle 4 with counter 11 overflowed, value 0 "
	       "(ran %" PRIu64 ", ovf 0x%x, value %" PRIu64 ")",
	       n, ovf, v);
	tap_ok((emu_hart_mip(h) & EMU_MIP_LCOFIP) != 0, "the overflow set mip.LCOFIP");
	emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_SCOUNTOVF, &v);
	tap_ok(v == (EMU_CNT_HPM(11) | EMU_CNT_HPM(12)),
	       "scountovf shows counters 11 and 12 (0x%" PRIx64 ")", v);
	/* with OF set, the rest of the run raises nothing */
	r.cycles = 1;
	n = emu_hart_run_watch(h, &r, EMU_CNT_HPM(11), &ovf);
	tap_ok(n == 1 && ovf == 0, "a counter whose OF is set does not stop a run");

	/* re-armed at -4 (OF cleared): 5 cycles of 3 wrap in cycle 2 with
	 * overshoot 2, keyed (cached) and unkeyed runs alike */
	for (unsigned keyed = 0; keyed < 2; keyed++) {
		emu_hart_csr_clear(h, EMU_MODE_M, EMU_CSR_MHPMEVENT(11), KMH_OF);
		emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(11), 0 - UINT64_C(4));
		be[ev->index] = 3;
		r.cycles = 5;
		r.key = keyed ? 7 : 0;
		r.source = keyed ? (const void *)&r : NULL;
		n = emu_hart_run_watch(h, &r, EMU_CNT_HPM(11), &ovf);
		emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(11), &v);
		tap_ok(n == 2 && ovf == EMU_CNT_HPM(11) && v == 2,
		       "%s run, 3 per cycle from -4: stops after cycle 2, overshoot 2 (ran %" PRIu64
		       ", value %" PRIu64 ")",
		       keyed ? "keyed" : "unkeyed", n, v);
	}
	/* two watched counters wrapping in the same cycle */
	emu_hart_csr_clear(h, EMU_MODE_M, EMU_CSR_MHPMEVENT(11), KMH_OF);
	emu_hart_csr_clear(h, EMU_MODE_M, EMU_CSR_MHPMEVENT(12), KMH_OF);
	emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(11), 0 - UINT64_C(7));
	emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER(12), 0 - UINT64_C(9));
	r.key = 0;
	r.cycles = 10;
	n = emu_hart_run_watch(h, &r, EMU_CNT_HPM(11) | EMU_CNT_HPM(12), &ovf);
	tap_ok(n == 3 && ovf == (EMU_CNT_HPM(11) | EMU_CNT_HPM(12)),
	       "-7 and -9 at 3 per cycle both wrap in cycle 3 (ran %" PRIu64 ", ovf 0x%x)", n, ovf);
	emu_forget_source(emu, &r);
	emu_free(emu);
}

/* ------------------------------------------- 2: machine against oracle */

static const char two_profile[] = "name = two\n"
                                  "description = two functions with known per-cycle commits\n"
                                  "modes = HU:1\n"
                                  "function-classes = 1..3\n"
                                  "[cycle a]\n"
                                  "commit = 6\n"
                                  "[cycle b]\n"
                                  "commit = 1\n"
                                  "[class ab]\n"
                                  "runs = a:10 b:5\n"
                                  "[class c]\n"
                                  "runs = b:3..7\n"
                                  "[function f]\n"
                                  "address = 0x1000\n"
                                  "size = 0x100\n"
                                  "share = 0.5\n"
                                  "mix = ab:1\n"
                                  "[function g]\n"
                                  "address = 0x2000\n"
                                  "size = 0x40\n"
                                  "share = 0.5\n"
                                  "mix = c:1\n";

static char *write_temp(const char *text)
{
	char *path = strdup("/tmp/hpm-emu-sample-XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		tap_diag("cannot write a temporary profile");
		exit(99);
	}
	close(fd);
	return path;
}

static struct hpm_emu_vm *mkvm(const char *profile, uint64_t seed)
{
	struct hpm_emu_vm_config cfg = {.harts = 1, .profile = profile, .seed = seed};
	struct hpm_emu_vm *vm;
	char err[512];
	if (M->create(&cfg, &vm, err, sizeof(err)) != 0) {
		tap_diag("create: %s", err);
		exit(99);
	}
	return vm;
}

static int must(int rc, const char *err)
{
	if (rc)
		tap_diag("%s", err);
	return rc;
}

static void against_oracle(void)
{
	const uint64_t P = 37, SEED = 5;
	const unsigned NSAMPLES = 5000;
	char *path = write_temp(two_profile);
	char err[512];
	struct hpm_emu_vm *vm = mkvm(path, SEED);
	const struct emu_profile *p = emu_profile_find(path, err, sizeof(err));
	if (!p) {
		tap_diag("%s", err);
		exit(99);
	}
	must(M->set_event(vm, 0, 11, true, enc("rob_commitInstr"), err, sizeof(err)), err);
	must(M->inhibit(vm, 0, UINT32_C(1) << 11, false, err, sizeof(err)), err);
	must(M->set_period(vm, 0, 11, P, err, sizeof(err)), err);

	/* the oracle: an independent stream of (profile, seed + hart 0) */
	struct emu_workload *w = emu_workload_new(p, SEED);
	struct emu_run r = {0};
	uint64_t r_left = 0, cyc = 0, acc = 0, left = P;
	unsigned bad = 0, fbad = 0, done = 0;
	unsigned per_fn[2] = {0, 0};
	for (; done < NSAMPLES; done++) {
		/* oracle: the next cycle where the count since re-arming reaches left */
		uint64_t want_cycle = 0, want_pc = 0, over = 0;
		int want_fn = -1;
		for (;;) {
			if (!r_left) {
				emu_workload_next(w, UINT64_MAX, &r);
				r_left = r.cycles;
			}
			cyc++;
			r_left--;
			/* by hand from the profile: key 1 is cycle a (commit 6), key 2 is b (1) */
			acc += r.key == 1 ? 6 : 1;
			if (acc >= left) {
				want_cycle = cyc;
				want_fn = emu_workload_function(w);
				want_pc = emu_workload_pc(w);
				over = acc - left;
				acc = 0;
				left = over < P ? P - over : P;
				break;
			}
		}
		struct hpm_emu_sample s;
		uint64_t ran = M->run_sample(vm, 0, 1000000, &s);
		(void)ran;
		bool wrapped;
		uint64_t v = M->read(vm, 0, 11, &wrapped);
		if (s.overflowed != (UINT32_C(1) << 11) || s.cycle != want_cycle ||
		    s.pc != want_pc || s.function != want_fn || v != over || !wrapped) {
			if (bad++ < 3)
				tap_diag("sample %u: at cycle %" PRIu64 " fn %d pc 0x%" PRIx64
				         " overshoot %" PRIu64 "; oracle cycle %" PRIu64
				         " fn %d pc 0x%" PRIx64 " overshoot %" PRIu64,
				         done, s.cycle, s.function, s.pc, v, want_cycle, want_fn,
				         want_pc, over);
		}
		if (s.function < 0 || s.function > 1 ||
		    emu_profile_function_at(p, s.pc) != s.function)
			fbad++;
		else
			per_fn[s.function]++;
		must(M->set_period(vm, 0, 11, hpm_emu_period_left(P, v), err, sizeof(err)), err);
	}
	tap_ok(bad == 0,
	       "%u samples at period %" PRIu64 ": every one at the oracle's cycle, "
	       "function, PC and overshoot (%u differ)",
	       NSAMPLES, P, bad);
	tap_ok(fbad == 0 && per_fn[0] && per_fn[1],
	       "every sampled PC lies in its function (f %u, g %u samples)", per_fn[0], per_fn[1]);
	emu_workload_free(w);
	M->free(vm);
	unlink(path);
	free(path);
}

/* ------------------------------------------------------- 3, 4: hotspots */

/* one count per cycle on a programmable counter: the free-list occupancy
 * quarters are one-hot and never all 0 in hotspots (no cycle sets
 * freelist = 0); checked against mcycle below */
#define CYCLES_EXPR                                                                                \
	"me_freelist_1_4_valid + me_freelist_2_4_valid + me_freelist_3_4_valid + "                 \
	"me_freelist_4_4_valid"

static void shares(void)
{
	const uint64_t P = 100003, CYCLES = UINT64_C(1000000000);
	char err[512];
	struct hpm_emu_vm *vm = mkvm("hotspots", 11);
	const struct emu_profile *p = emu_profile_find("hotspots", err, sizeof(err));
	unsigned nf = M->nr_functions(vm);
	unsigned count[16] = {0}, n = 0, outside = 0;

	tap_ok(nf == 4 && nf == emu_profile_nr_functions(p), "hotspots declares 4 functions");
	must(M->set_event(vm, 0, 11, true, enc(CYCLES_EXPR), err, sizeof(err)), err);
	must(M->inhibit(vm, 0, (UINT32_C(1) << 11) | 1u, false, err, sizeof(err)), err);
	must(M->set_period(vm, 0, 11, P, err, sizeof(err)), err);
	for (uint64_t left = CYCLES; left;) {
		struct hpm_emu_sample s;
		left -= M->run_sample(vm, 0, left, &s);
		if (!s.overflowed)
			continue;
		struct hpm_emu_function f;
		if (s.function < 0 || !M->function(vm, (unsigned)s.function, &f) ||
		    s.pc < f.start || s.pc >= f.end)
			outside++;
		else
			count[s.function]++;
		n++;
		bool wr;
		uint64_t v = M->read(vm, 0, 11, &wr);
		must(M->set_period(vm, 0, 11, hpm_emu_period_left(P, v), err, sizeof(err)), err);
	}
	bool wr;
	uint64_t proxy = M->read(vm, 0, 11, &wr), mcycle = M->read(vm, 0, 0, &wr);
	/* the proxy counter was re-armed at every sample: its total is
	 * n x P (the periods) - (what is left of the last one) */
	(void)proxy;
	tap_ok(mcycle == CYCLES, "mcycle counted the %" PRIu64 " cycles run", CYCLES);
	tap_ok(outside == 0, "%u samples, every one in a declared function", n);
	for (unsigned i = 0; i < nf; i++) {
		struct hpm_emu_function f;
		M->function(vm, i, &f);
		double got = (double)count[i] / n;
		double sigma = sqrt(f.share * (1 - f.share) / n);
		tap_ok(fabs(got - f.share) <= 4 * sigma,
		       "%s: sampled share %.4f, declared %.4f (4 sigma = %.4f)", f.name, got,
		       f.share, 4 * sigma);
	}
	M->free(vm);
}

enum { L_CYC, L_RET, L_SPECRB, L_BRM, L_FLUSH, L_EXEC, L_STORE, L_FB, L_FLB, L_ANY, NR_L };

static void topdown(void)
{
	const uint64_t P = 11, CYCLES = UINT64_C(10000000);
	const double TOL = 0.02; /* 2 points: see the comment at the check */
	static const struct {
		unsigned ctr;
		const char *expr;
	} grp[NR_L] = {
	    [L_CYC] = {11, CYCLES_EXPR},
	    [L_RET] = {12, "rob_commitInstr"},
	    [L_SPECRB] = {13, "INST_SPEC + RECOVERY_BUBBLE"},
	    [L_BRM] = {14, "BR_MIS_PRED"},
	    [L_FLUSH] = {15, "TOTAL_FLUSH"},
	    [L_EXEC] = {16, "EXEC_STALL_CYCLE"},
	    [L_STORE] = {17, "MEMSTALL_STORE"},
	    [L_FB] = {3, "Front_Bubble"},
	    [L_FLB] = {4, "Fetch_Latency_Bound"},
	    [L_ANY] = {19, "MEMSTALL_ANY_LOAD"},
	};
	char err[512];
	struct hpm_emu_vm *vm = mkvm("hotspots", 3);
	unsigned nf = M->nr_functions(vm);
	double acc[16][NR_L];
	uint64_t prev[NR_L] = {0};
	uint32_t mask = 1;

	memset(acc, 0, sizeof(acc));
	for (unsigned k = 0; k < NR_L; k++) {
		must(M->set_event(vm, 0, grp[k].ctr, true, enc(grp[k].expr), err, sizeof(err)),
		     err);
		mask |= UINT32_C(1) << grp[k].ctr;
	}
	must(M->inhibit(vm, 0, mask, false, err, sizeof(err)), err);
	must(M->set_period(vm, 0, 11, P, err, sizeof(err)), err);
	uint64_t base = 0 - P; /* the leader's value at the last re-arm */
	for (uint64_t left = CYCLES; left;) {
		struct hpm_emu_sample s;
		left -= M->run_sample(vm, 0, left, &s);
		if (!s.overflowed || s.function < 0)
			continue;
		/* PERF_SAMPLE_READ: every member's count; the deltas since the
		 * last sample go to the sampled function */
		for (unsigned k = 0; k < NR_L; k++) {
			bool wr;
			uint64_t v = M->read(vm, 0, grp[k].ctr, &wr);
			uint64_t d = k == L_CYC ? v - base : v - prev[k];
			acc[s.function][k] += (double)d;
			prev[k] = v;
		}
		uint64_t nl = hpm_emu_period_left(P, prev[L_CYC]);
		must(M->set_period(vm, 0, 11, nl, err, sizeof(err)), err);
		base = 0 - nl;
	}
	/* Sampling attributes a period to the function of its last cycle, so a
	 * period that straddles a function switch counts partly for the wrong
	 * one. hotspots keeps a function for 2..8 class draws: the shortest
	 * stretches, dispatch's, average about 5 x 75 = 375 cycles, so about
	 * 11 / 375 = 3% of its periods straddle, and half of each belongs to
	 * the function before: a node moves by at most about 1.5% of the
	 * largest difference between functions (66 points), about 1 point. 2
	 * points is that plus the statistical error of 4e7 cycles. */
	for (unsigned i = 0; i < nf; i++) {
		struct emu_function f;
		emu_profile_function(emu_profile_find("hotspots", err, sizeof(err)), i, &f);
		const double *a = acc[i];
		double C = a[L_CYC], slots = 6 * C;
		double retiring = a[L_RET] / slots, frontend = a[L_FB] / slots;
		double bad = (a[L_SPECRB] - a[L_RET]) / slots;
		double backend = 1 - retiring - frontend - bad;
		double fetch_lat = a[L_FLB] / C;
		double mem = (a[L_ANY] + a[L_STORE]) / C;
		double core = (a[L_EXEC] - a[L_ANY] - a[L_STORE]) / C;
		struct {
			const char *node;
			double got, want;
		} chk[] = {
		    {"retiring", retiring, f.td.retiring},
		    {"frontend", frontend, f.td.frontend},
		    {"bad speculation", bad, f.td.bad_spec},
		    {"backend", backend, f.td.backend},
		    {"fetch latency", fetch_lat, f.td.fetch_latency},
		    {"core bound", core, f.td.core_bound},
		    {"memory bound", mem, f.td.memory_bound},
		};
		for (unsigned k = 0; k < sizeof(chk) / sizeof(chk[0]); k++)
			tap_ok(fabs(chk[k].got - chk[k].want) <= TOL,
			       "%s: %s from group samples %.2f%%, declared %.2f%%", f.name,
			       chk[k].node, 100 * chk[k].got, 100 * chk[k].want);
	}
	M->free(vm);
}

/* ------------------------------------------------------ 5: bad input */

static void bad_input(void)
{
	char err[512];
	struct hpm_emu_vm *vm = mkvm("hotspots", 1);
	tap_ok(M->set_period(vm, 0, 0, 100, err, sizeof(err)) == -EOPNOTSUPP &&
	           strstr(err, "no overflow interrupt"),
	       "mcycle cannot sample: %s", err);
	tap_ok(M->set_period(vm, 0, 11, (UINT64_C(1) << 63) + 1, err, sizeof(err)) == -EINVAL,
	       "a period above 2^63: %s", err);
	M->free(vm);

	static const struct {
		const char *text, *want;
	} cases[] = {
	    {"name = x\ndescription = d\n[cycle a]\ncommit = 6\n[class c]\nruns = a:10\n"
	     "[function f]\naddress = 0x100\nsize = 0x10\nshare = 0.5\nmix = c:1\n"
	     "[function g]\naddress = 0x200\nsize = 0x10\nshare = 0.4\nmix = c:1\n",
	     "t.profile:7: the functions' shares sum to 0.9, not 1"},
	    {"name = x\ndescription = d\n[cycle a]\ncommit = 6\n[class c]\nruns = a:10\n"
	     "[function f]\naddress = 0x100\nsize = 0x10\nshare = 0.5\nmix = c:1\n"
	     "[function g]\naddress = 0x10e\nsize = 0x10\nshare = 0.5\nmix = c:1\n",
	     "t.profile:12: function 'g' overlaps function 'f' (line 7)"},
	    {"name = x\ndescription = d\n[cycle a]\ncommit = 6\n[class c]\nruns = a:10\n"
	     "[function f]\naddress = 0x101\n",
	     "t.profile:8: bad address '0x101' (a 64-bit number, a multiple of 2)"},
	    {"name = x\ndescription = d\n[cycle a]\ncommit = 6\n[class c]\nruns = a:10\n"
	     "[function f]\naddress = 0x100\nsize = 0x10\nshare = 1\n",
	     "t.profile:7: function 'f' has no 'mix'"},
	    {"name = x\ndescription = d\n[cycle a]\ncommit = 6\n[class c]\nruns = a:10\n"
	     "[function f]\naddress = 0x100\nsize = 0x10\nshare = 1\nmix = c:0.5 d:0.5\n",
	     "t.profile:11: function 'f': unknown class 'd'"},
	    {"name = x\ndescription = d\n[cycle a]\ncommit = 6\n[class c]\nruns = a:10\n"
	     "[function f]\naddress = 0x100\nsize = 0x10\nshare = 1\nmix = c:0.5\n",
	     "t.profile:11: function 'f': class shares sum to 0.5, not 1"},
	    {"name = x\ndescription = d\n[cycle a]\ncommit = 6\n[class c]\nruns = a:10\n"
	     "share = 1\n[function f]\naddress = 0x100\nsize = 0x10\nshare = 1\nmix = c:1\n",
	     "t.profile:5: class 'c' has a 'share', but with [function] sections the shares are "
	     "the functions' 'mix'"},
	    {"name = x\ndescription = d\n[cycle a]\ncommit = 6\n[class c]\nruns = a:10\n"
	     "[phase p]\ncycles = 100\nmix = c:1\n"
	     "[function f]\naddress = 0x100\nsize = 0x10\nshare = 1\nmix = c:1\n",
	     "t.profile:7: a profile with [function] sections has no [phase] sections (each "
	     "function has its own mix)"},
	    {"name = x\ndescription = d\nfunction-classes = 0\n[cycle a]\ncommit = 6\n",
	     "t.profile:3: bad function-classes '0' (class draws: N or LO..HI, 1 <= LO <= HI)"},
	    {"name = x\ndescription = d\n[cycle a]\ncommit = 6\n[class c]\nruns = a:10\n"
	     "[function f]\naddress = 0xfffffffffffffff0\nsize = 0x20\nshare = 1\nmix = c:1\n",
	     "t.profile:7: function 'f' runs past 2^64 - 1"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		const struct emu_profile *p =
		    emu_profile_parse("t.profile", cases[i].text, err, sizeof(err));
		tap_ok(!p && strcmp(err, cases[i].want) == 0, "refused: %s", cases[i].want);
		if (p || strcmp(err, cases[i].want))
			tap_diag("got: %s", p ? "(loaded)" : err);
		emu_profile_free(p);
	}
}

int main(void)
{
	hand_worked();
	against_oracle();
	shares();
	topdown();
	bad_input();
	return tap_done();
}
