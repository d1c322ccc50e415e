/* sources.c: tests of the Arm emulator's event sources (src/arm64/emu:
 * stimulus.h, profile.h, trace.h).
 *
 * Independent truth: each built-in profile's stream is summed over 1e8
 * cycles (sum of VB x cycles per event) and Arm's level-1 Topdown formulas
 * (events/arm64/arm/neoverse-v2/metrics.json, written out again here) are
 * applied to the sums; the result must be within 0.5 points of what the
 * profile declares. Shares of exception levels, security states, streaming
 * mode and functions are measured from the runs the same way and compared
 * with the declarations within a sampling tolerance (2 points). Every run
 * is checked against the per-cycle rules of profile.h written out here.
 * Determinism: two streams of one seed, consumed with different max_cycles,
 * give the same cycles. Traces: written, replayed, written again: same
 * bytes, same runs. Bad inputs give their message with line or column.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arm64/emu/profile.h"
#include "arm64/emu/stimulus.h"
#include "arm64/emu/trace.h"
#include "emukit/trace.h"
#include "../tap.h"

static unsigned vb(const struct arm_emu_run *r, uint16_t code)
{
	for (unsigned i = 0; i < r->nr_vals; i++)
		if (r->vals[i].event == code)
			return r->vals[i].vb;
	return 0;
}

#define NEV 65536
static double *sums, *ksums; /* ksums: only where a Non-secure kernel counts */

static void check_profile(const struct arm_src_profile *p)
{
	const char *name = arm_src_profile_name(p);
	unsigned slots = arm_src_profile_slots(p);
	/* stall_slot_bias: a PMU like Neoverse N2's counts that many slots in
	 * STALL_SLOT_FRONTEND and STALL_SLOT every cycle besides stalls */
	unsigned bias = arm_src_profile_stall_slot_bias(p);
	struct arm_src_stream *s = arm_src_stream_new(p, 42);
	double el[4] = {0}, sec[4] = {0}, sm = 0, total = 0;
	unsigned nfn = arm_src_profile_nr_functions(p);
	double *fn = calloc(nfn + 1, sizeof(double));
	bool rules = true, sorted = true, keys = true;
	uint32_t maxkey = arm_src_profile_max_key(p);
	const uint64_t N = 100000000;

	memset(sums, 0, NEV * sizeof(double));
	memset(ksums, 0, NEV * sizeof(double));
	while (total < (double)N) {
		struct arm_emu_run r;
		arm_src_stream_next(s, N - (uint64_t)total, &r);
		double c = (double)r.cycles;
		total += c;
		/* counting is prohibited in Secure state, Root and EL3 (reset
		 * MDCR_EL3.SPME = 0); Realm and Non-secure EL0-2 count */
		bool counted = r.sec != ARM_EMU_SEC_S && r.sec != ARM_EMU_SEC_ROOT && r.el != 3;
		for (unsigned i = 0; i < r.nr_vals; i++) {
			sums[r.vals[i].event] += c * r.vals[i].vb;
			if (counted)
				ksums[r.vals[i].event] += c * r.vals[i].vb;
			if (i && r.vals[i].event <= r.vals[i - 1].event)
				sorted = false;
			if (!r.vals[i].vb || r.vals[i].event == 0x11 || r.vals[i].event == 0)
				sorted = false;
		}
		if (!r.key || r.key > maxkey)
			keys = false;
		/* per-cycle rules, written out again */
		unsigned fe = vb(&r, 0x3e), be = vb(&r, 0x3d), ss = vb(&r, 0x3f), op = vb(&r, 0x3b);
		if (ss > slots || fe + be > ss || fe < bias || op + ss - bias > slots ||
		    vb(&r, 0x3a) > op || vb(&r, 0x23) + vb(&r, 0x24) > 1 ||
		    vb(&r, 0x08) > vb(&r, 0x1b))
			rules = false;
		el[r.el & 3] += c;
		sec[r.sec & 3] += c;
		if (r.streaming)
			sm += c;
		for (unsigned f = 0; f < nfn; f++) {
			struct arm_src_function af;
			arm_src_profile_function(p, f, &af);
			if (r.pc >= af.lo && r.pc < af.hi)
				fn[f] += c;
		}
	}
	arm_src_stream_free(s);
	tap_ok(rules, "%s: every run obeys the per-cycle rules", name);
	tap_ok(sorted, "%s: values sorted, no zeros, no CPU_CYCLES/SW_INCR", name);
	tap_ok(keys, "%s: keys in 1..%u", name, maxkey);

	/* Arm's level-1 Topdown on the sums (CPU_CYCLES = total); with a bias,
	 * N2's form: STALL_SLOT_FRONTEND and STALL_SLOT less CPU_CYCLES */
	double S = slots * total, ssf = sums[0x3e] - bias * total, ss = sums[0x3f] - bias * total;
	double td[4] = {ssf / S, sums[0x3d] / S, sums[0x3a] / sums[0x3b] * (1 - ss / S),
	                (1 - sums[0x3a] / sums[0x3b]) * (1 - ss / S)};
	struct arm_src_topdown d;
	arm_src_profile_declared(p, &d, NULL);
	double dd[4] = {d.frontend, d.backend, d.retiring, d.bad_spec};
	const char *node[4] = {"frontend", "backend", "retiring", "bad_spec"};
	for (int i = 0; i < 4; i++)
		tap_ok(fabs(td[i] - dd[i]) < 0.005, "%s: %s measured %.4f declared %.4f", name,
		       node[i], td[i], dd[i]);
	/* the kernel's view: the same formulas on the counted events over
	 * every cycle (CPU_CYCLES on PMCCNTR_EL0 with PMCR_EL0.DP = 0) */
	double kssf = ksums[0x3e] - bias * total, kss = ksums[0x3f] - bias * total;
	double ktd[4] = {kssf / S, ksums[0x3d] / S, ksums[0x3a] / ksums[0x3b] * (1 - kss / S),
	                 (1 - ksums[0x3a] / ksums[0x3b]) * (1 - kss / S)};
	arm_src_profile_declared_kernel(p, &d, NULL);
	double kd[4] = {d.frontend, d.backend, d.retiring, d.bad_spec};
	for (int i = 0; i < 4; i++)
		tap_ok(fabs(ktd[i] - kd[i]) < 0.005,
		       "%s: %s as a kernel counts it %.4f declared %.4f", name, node[i], ktd[i],
		       kd[i]);
	/* Arm's own level-1 formulas on the same sums, with BM = BR_MIS_PRED
	 * (0x10) per cycle (issue 29, from Arm's Neoverse telemetry
	 * specifications): V1 frontend - 4 BM, bad_speculation + 4 BM; V2 and
	 * N2 frontend - BM, backend - 3 BM, bad_speculation + 4 BM */
	double bm = sums[0x10] / total;
	double av[2][4] = {{td[0] - 4 * bm, td[1], td[2], td[3] + 4 * bm},
	                   {td[0] - bm, td[1] - 3 * bm, td[2], td[3] + 4 * bm}};
	for (int f = 0; f < 2; f++) {
		struct arm_src_topdown a;
		arm_src_profile_declared_arm(p, f ? ARM_SRC_TD_V2 : ARM_SRC_TD_V1, false, &a);
		double ad[4] = {a.frontend, a.backend, a.retiring, a.bad_spec};
		for (int i = 0; i < 4; i++) {
			tap_ok(fabs(av[f][i] - ad[i]) < 0.005,
			       "%s: Arm %s %s measured %.4f declared %.4f", name,
			       f ? "V2/N2" : "V1", node[i], av[f][i], ad[i]);
			tap_ok(av[f][i] >= 0 && av[f][i] <= 1, "%s: Arm %s %s %.4f in [0, 1]", name,
			       f ? "V2/N2" : "V1", node[i], av[f][i]);
		}
	}
	tap_ok(sums[0x10] > 0, "%s: BR_MIS_PRED counted (%.0f)", name, sums[0x10]);
	/* every event of Arm's stage-2 groups (each core's metrics.json: branch,
	 * ITLB, L1I, L2, last-level cache, DTLB, L1D effectiveness, operation
	 * mix) is delivered */
	static const uint16_t stage2[] = {
	    0x0001 /* L1I_CACHE_REFILL */,
	    0x0002 /* L1I_TLB_REFILL */,
	    0x0003 /* L1D_CACHE_REFILL */,
	    0x0004 /* L1D_CACHE */,
	    0x0005 /* L1D_TLB_REFILL */,
	    0x0008 /* INST_RETIRED */,
	    0x0010 /* BR_MIS_PRED */,
	    0x0014 /* L1I_CACHE */,
	    0x0016 /* L2D_CACHE */,
	    0x0017 /* L2D_CACHE_REFILL */,
	    0x001b /* INST_SPEC */,
	    0x0021 /* BR_RETIRED */,
	    0x0022 /* BR_MIS_PRED_RETIRED */,
	    0x0025 /* L1D_TLB */,
	    0x0026 /* L1I_TLB */,
	    0x002a /* L3D_CACHE_REFILL */,
	    0x002b /* L3D_CACHE */,
	    0x002d /* L2D_TLB_REFILL */,
	    0x002f /* L2D_TLB */,
	    0x0034 /* DTLB_WALK */,
	    0x0035 /* ITLB_WALK */,
	    0x0036 /* LL_CACHE_RD */,
	    0x0037 /* LL_CACHE_MISS_RD */,
	    0x003a /* OP_RETIRED */,
	    0x003b /* OP_SPEC */,
	    0x003e /* STALL_SLOT_FRONTEND */,
	    0x0070 /* LD_SPEC */,
	    0x0071 /* ST_SPEC */,
	    0x0073 /* DP_SPEC */,
	    0x0074 /* ASE_SPEC */,
	    0x0075 /* VFP_SPEC */,
	    0x0077 /* CRYPTO_SPEC */,
	    0x0078 /* BR_IMMED_SPEC */,
	    0x0079 /* BR_RETURN_SPEC */,
	    0x007a /* BR_INDIRECT_SPEC */,
	    0x8006 /* SVE_INST_SPEC */,
	};
	char missing[256] = "";
	for (size_t i = 0; i < sizeof(stage2) / sizeof(stage2[0]); i++)
		if (!(sums[stage2[i]] > 0))
			snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing),
			         " 0x%04x", stage2[i]);
	tap_ok(!missing[0], "%s: every event of the stage-2 groups delivered (missing:%s)", name,
	       missing);
	tap_ok(fabs(td[0] + td[1] + td[2] + td[3] - 1) < 1e-9 || fabs(ss - ssf - sums[0x3d]) > 0,
	       "%s: the four nodes add up to 1 where STALL_SLOT = FE + BE", name);
	for (unsigned e = 0; e < 4; e++)
		tap_ok(fabs(el[e] / total - arm_src_profile_el_share(p, e)) < 0.02,
		       "%s: EL%u share %.4f declared %.4f", name, e, el[e] / total,
		       arm_src_profile_el_share(p, e));
	for (unsigned e = 0; e < 4; e++)
		tap_ok(fabs(sec[e] / total - arm_src_profile_sec_share(p, e)) < 0.02,
		       "%s: security state %u share %.4f declared %.4f", name, e, sec[e] / total,
		       arm_src_profile_sec_share(p, e));
	tap_ok(fabs(sm / total - arm_src_profile_streaming_share(p)) < 0.02,
	       "%s: streaming share %.4f declared %.4f", name, sm / total,
	       arm_src_profile_streaming_share(p));
	for (unsigned f = 0; f < nfn; f++) {
		struct arm_src_function af;
		arm_src_profile_function(p, f, &af);
		tap_ok(fabs(fn[f] / total - af.share) < 0.02,
		       "%s: function %s share %.4f declared %.4f", name, af.name, fn[f] / total,
		       af.share);
	}
	free(fn);
}

static bool same_run(const struct arm_emu_run *a, const struct arm_emu_run *b)
{
	return a->cycles == b->cycles && a->el == b->el && a->sec == b->sec &&
	       a->streaming == b->streaming && a->pc == b->pc && a->context == b->context &&
	       a->vmid == b->vmid && a->nr_vals == b->nr_vals &&
	       (!a->nr_vals || memcmp(a->vals, b->vals, a->nr_vals * sizeof(*a->vals)) == 0);
}

static void determinism(const struct arm_src_profile *p)
{
	/* the same seed read in pieces of different sizes: the same cycles */
	struct arm_src_stream *a = arm_src_stream_new(p, 7), *b = arm_src_stream_new(p, 7),
	                      *c = arm_src_stream_new(p, 8);
	struct arm_emu_run ra = {0}, rb = {0}, rc;
	uint64_t la = 0, lb = 0, n = 0;
	bool same = true, differ = false;
	while (n < 3000000 && same) {
		if (!la) {
			arm_src_stream_next(a, 1000, &ra);
			la = ra.cycles;
		}
		if (!lb) {
			arm_src_stream_next(b, 7, &rb);
			lb = rb.cycles;
		}
		if (ra.key != rb.key || ra.pc != rb.pc || ra.el != rb.el)
			same = false;
		uint64_t k = la < lb ? la : lb;
		la -= k;
		lb -= k;
		n += k;
	}
	tap_ok(same, "%s: one seed, any max_cycles: the same cycles", arm_src_profile_name(p));
	arm_src_stream_free(a);
	a = arm_src_stream_new(p, 7);
	for (int i = 0; i < 1000; i++) {
		arm_src_stream_next(a, 1000, &ra);
		arm_src_stream_next(c, 1000, &rc);
		differ |= !same_run(&ra, &rc);
	}
	tap_ok(differ, "%s: another seed, other cycles", arm_src_profile_name(p));
	arm_src_stream_free(a);
	arm_src_stream_free(b);
	arm_src_stream_free(c);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = malloc(1 << 24);
	*len = fread(buf, 1, 1 << 24, f);
	fclose(f);
	return buf;
}

static void trace_round_trip(const struct arm_src_profile *p)
{
	char t1[] = "/tmp/armsrc-t1-XXXXXX", t2[] = "/tmp/armsrc-t2-XXXXXX", err[320];
	int f1 = mkstemp(t1), f2 = mkstemp(t2);
	close(f1);
	close(f2);
	struct hpm_emu_trace_writer *w =
	    hpm_emu_trace_writer_open(&arm_src_trace_format, t1, err, sizeof(err));
	struct arm_src_stream *s = arm_src_stream_new(p, 3);
	struct arm_emu_run *runs = calloc(20000, sizeof(*runs));
	for (int i = 0; i < 20000; i++) {
		arm_src_stream_next(s, 5000, &runs[i]);
		arm_src_trace_write(w, &runs[i], err, sizeof(err));
	}
	tap_ok(hpm_emu_trace_writer_close(w, err, sizeof(err)) == 0, "trace written");
	unsigned line;
	struct hpm_emu_trace *t =
	    hpm_emu_trace_load(&arm_src_trace_format, t1, &line, err, sizeof(err));
	tap_ok(t && hpm_emu_trace_nr_runs(t) == 20000, "trace of %s loads: 20000 runs",
	       arm_src_profile_name(p));
	bool same = t != NULL;
	w = hpm_emu_trace_writer_open(&arm_src_trace_format, t2, err, sizeof(err));
	for (size_t i = 0; t && i < hpm_emu_trace_nr_runs(t); i++) {
		struct arm_emu_run r;
		arm_src_trace_run_at(t, i, &r);
		same &= same_run(&r, &runs[i]);
		arm_src_trace_write(w, &r, err, sizeof(err));
	}
	hpm_emu_trace_writer_close(w, err, sizeof(err));
	tap_ok(same, "replay gives back every run");
	size_t l1, l2;
	char *b1 = slurp(t1, &l1), *b2 = slurp(t2, &l2);
	tap_ok(b1 && b2 && l1 == l2 && memcmp(b1, b2, l1) == 0, "rewritten trace: same bytes");
	free(b1);
	free(b2);
	free(runs);
	hpm_emu_trace_free(t);
	arm_src_stream_free(s);
	unlink(t1);
	unlink(t2);
}

static void feed_error(const char *line, unsigned want_col, const char *want)
{
	struct arm_src_feed *f = arm_src_feed_new(NULL, 8);
	char err[320] = "";
	unsigned col = 0;
	uint64_t cyc;
	int r = arm_src_feed_parse(f, line, &cyc, &col, err, sizeof(err));
	tap_ok(r < 0 && col == want_col && strstr(err, want),
	       "feed '%s': column %u '%s' (got %u '%s')", line, want_col, want, col, err);
	arm_src_feed_free(f);
}

static void feed_tests(void)
{
	struct arm_src_feed *f = arm_src_feed_new(NULL, 8);
	char err[320];
	unsigned col;
	uint64_t cyc;
	struct arm_emu_run r = {0};
	int ret = arm_src_feed_parse(f, "feed 100 stall_slot=8 0x3b=0 INST_RETIRED=0x3 l1d_cache=2",
	                             &cyc, &col, err, sizeof(err));
	arm_src_feed_run(f, cyc, &r);
	tap_ok(ret == 0 && cyc == 100 && r.nr_vals == 3 && r.vals[0].event == 0x04 &&
	           r.vals[0].vb == 2 && r.vals[1].event == 0x08 && r.vals[1].vb == 3 &&
	           r.vals[2].event == 0x3f && r.vals[2].vb == 8,
	       "feed: names and numbers, sorted, zeros dropped");
	arm_src_feed_free(f);
	feed_error("feed", 5, "missing CYCLES");
	feed_error("feed x", 6, "bad cycle count 'x'");
	feed_error("feed 0", 6, "bad cycle count");
	feed_error("feed 10 FOO=1", 9, "unknown event 'FOO'");
	feed_error("feed 10 OP_SPEC", 9, "expected EVENT=VB");
	feed_error("feed 10 STALL_SLOT_FRONTEND=9", 9, "more than PMMIR_EL1.SLOTS (8)");
	feed_error("feed 10 STALL_FRONTEND=2", 9, "it counts cycles");
	feed_error("feed 10 OP_SPEC=1 op_spec=2", 19, "OP_SPEC given twice");
	feed_error("feed 10 OP_SPEC=x", 17, "bad value 'x' for OP_SPEC");
	feed_error("feed 10 CPU_CYCLES=1", 9, "counted by the machine");
	feed_error("feed 10 0x10000=1", 9, "out of range");
	feed_error("feed 10 0=1", 9, "SW_INCR");
	feed_error("10 L1D_CACHE=70000", 4, "out of range");
}

static void profile_error(const char *text, const char *want)
{
	char err[320] = "";
	const struct arm_src_profile *p =
	    arm_src_profile_parse("bad.profile", text, err, sizeof(err));
	tap_ok(!p && strstr(err, want), "bad profile: '%s' (got '%s')", want, err);
	arm_src_profile_free(p);
}

#define HEAD "name = t\ndescription = d\nslots = 8\n"
#define TAIL "[class c]\nruns = a:1..3\nshare = 1\n"

static void profile_tests(void)
{
	profile_error(HEAD "[cycle a]\nSTALL_SLOT_BACKEND = 9\n" TAIL,
	              "bad.profile:5: STALL_SLOT_BACKEND = 9 is impossible: more than the 8 slots");
	profile_error(HEAD "[cycle a]\nOP_SPEC = 2\nOP_RETIRED = 3\n" TAIL,
	              "bad.profile:4: cycle 'a': OP_RETIRED (3) is more than OP_SPEC (2)");
	profile_error(HEAD "[cycle a]\nSTALL_SLOT_BACKEND = 3\nSTALL_SLOT_FRONTEND = 3\nSTALL_SLOT "
	                   "= 4\n" TAIL,
	              "bad.profile:4: cycle 'a': STALL_SLOT (4) is less than");
	profile_error(
	    HEAD "[cycle a]\nOP_SPEC = 6\nSTALL_SLOT_BACKEND = 3\n" TAIL,
	    "bad.profile:4: cycle 'a': OP_SPEC + STALL_SLOT = 9 is more than the 8 slots");
	profile_error(HEAD "[cycle a]\nSTALL_FRONTEND = 2\n" TAIL,
	              "bad.profile:5: STALL_FRONTEND = 2 is impossible: it counts cycles");
	profile_error(HEAD "[cycle a]\nNO_SUCH = 1\n" TAIL,
	              "bad.profile:5: unknown event 'NO_SUCH'");
	profile_error(HEAD "[cycle a]\nCPU_CYCLES = 1\n" TAIL, "bad.profile:5: CPU_CYCLES");
	profile_error(HEAD "[cycle a]\nOP_SPEC = 1\n[class c]\nruns = b\nshare = 1\n",
	              "bad.profile:7: unknown cycle 'b'");
	profile_error(HEAD "[cycle a]\nOP_SPEC = 1\n[class c]\nruns = a\nshare = 0.5\n",
	              "bad.profile: the classes' shares sum to 0.5, not 1");
	profile_error(HEAD "slots = 300\n", "bad.profile:4: bad slots '300'");
	/* shares read as Kunminghu's do (the profile kit): at most 15
	 * significant digits, so that each is the correctly rounded double */
	profile_error(HEAD "[cycle a]\nOP_SPEC = 1\n[class c]\nruns = a\n"
	                   "share = 0.1234567890123456\n",
	              "bad.profile:8: bad share '0.1234567890123456' (a fraction 0..1)");
	/* stall_slot_bias: 0 or 1, and then every cycle's STALL_SLOT_FRONTEND
	 * carries it; the slot check leaves it out (5 + 4 - 1 = 8 is fine,
	 * 6 + 4 - 1 = 9 is not) */
	profile_error(HEAD "stall_slot_bias = 2\n", "bad.profile:4: bad stall_slot_bias '2'");
	profile_error(HEAD "stall_slot_bias = 1\n[cycle a]\nOP_SPEC = 8\n" TAIL,
	              "bad.profile:5: cycle 'a': STALL_SLOT_FRONTEND 0 is below stall_slot_bias 1");
	profile_error(
	    HEAD "stall_slot_bias = 1\n[cycle a]\nOP_SPEC = 6\nSTALL_SLOT_FRONTEND = "
	         "1\nSTALL_SLOT_BACKEND = 3\n" TAIL,
	    "bad.profile:5: cycle 'a': OP_SPEC + STALL_SLOT - stall_slot_bias = 9 is more "
	    "than the 8 slots");
	{
		char err[200];
		const struct arm_src_profile *ok8 = arm_src_profile_parse(
		    "ok.profile",
		    HEAD "stall_slot_bias = 1\n[cycle a]\nOP_SPEC = 5\nOP_RETIRED = "
		         "5\nSTALL_SLOT_FRONTEND = 1\nSTALL_SLOT_BACKEND = 3\n" TAIL,
		    err, sizeof(err));
		struct arm_src_topdown d = {0};
		if (ok8)
			arm_src_profile_declared(ok8, &d, NULL);
		/* per cycle: 5 ops retire, 3 slots wait on the backend, the 1
		 * frontend slot is the bias: frontend 0, backend 3/8, retiring
		 * 1 - 3/8 = 5/8 */
		tap_ok(ok8 && d.frontend == 0 && d.backend == 0.375 && d.retiring == 0.625 &&
		           d.bad_spec == 0,
		       "stall_slot_bias 1: declared 0 / 37.5 / 62.5 / 0 %% (%s)",
		       ok8 ? "parsed" : err);
		arm_src_profile_free(ok8);
	}
	/* Arm's formulas, worked by hand on 32 cycles (r, a x 7, c x 24; 8
	 * slots): r and a stall 5 frontend and 3 backend slots, r resolves a
	 * mispredicted branch (BM = 1/32), c sends 8 operations of which 4
	 * retire. SBSA: frontend 8 x 5 / 256 = 0.15625, backend 8 x 3 / 256 =
	 * 0.09375, STALL_SLOT 64 / 256 = 0.25, retiring 0.5 x 0.75 = 0.375,
	 * bad speculation 0.375. V1: frontend 0.15625 - 4/32 = 0.03125, bad
	 * 0.375 + 4/32 = 0.5. V2/N2: frontend 0.15625 - 1/32 = 0.125, backend
	 * 0.09375 - 3/32 = 0, bad 0.5. */
	{
		char err[200];
		const struct arm_src_profile *bm = arm_src_profile_parse(
		    "bm.profile",
		    HEAD
		    "[cycle r]\nSTALL_SLOT_FRONTEND = 5\nSTALL_SLOT_BACKEND = 3\nBR_MIS_PRED = "
		    "1\n[cycle a]\nSTALL_SLOT_FRONTEND = 5\nSTALL_SLOT_BACKEND = 3\n[cycle "
		    "c]\nOP_SPEC = 8\nOP_RETIRED = 4\n[class k]\nruns = r a:7 c:24\nshare = 1\n",
		    err, sizeof(err));
		struct arm_src_topdown v1 = {0}, v2 = {0};
		if (bm) {
			arm_src_profile_declared_arm(bm, ARM_SRC_TD_V1, false, &v1);
			arm_src_profile_declared_arm(bm, ARM_SRC_TD_V2, false, &v2);
		}
		tap_ok(bm && fabs(v1.frontend - 0.03125) < 1e-12 &&
		           fabs(v1.backend - 0.09375) < 1e-12 &&
		           fabs(v1.retiring - 0.375) < 1e-12 && fabs(v1.bad_spec - 0.5) < 1e-12,
		       "Arm V1 declared 3.125 / 9.375 / 37.5 / 50 %% (%s: %g %g %g %g)",
		       bm ? "parsed" : err, v1.frontend, v1.backend, v1.retiring, v1.bad_spec);
		tap_ok(bm && fabs(v2.frontend - 0.125) < 1e-12 && fabs(v2.backend) < 1e-12 &&
		           fabs(v2.retiring - 0.375) < 1e-12 && fabs(v2.bad_spec - 0.5) < 1e-12,
		       "Arm V2/N2 declared 12.5 / 0 / 37.5 / 50 %% (%g %g %g %g)", v2.frontend,
		       v2.backend, v2.retiring, v2.bad_spec);
		arm_src_profile_free(bm);
	}
	/* the same with 3 stall cycles of 6 frontend and 2 backend slots:
	 * V1's frontend 4 x 6 / 256 - 4/32 < 0, which no profile may declare */
	profile_error(HEAD
	              "[cycle r]\nSTALL_SLOT_FRONTEND = 6\nSTALL_SLOT_BACKEND = 2\nBR_MIS_PRED = "
	              "1\n[cycle a]\nSTALL_SLOT_FRONTEND = 6\nSTALL_SLOT_BACKEND = 2\n[cycle "
	              "c]\nOP_SPEC = 8\nOP_RETIRED = 4\n[class k]\nruns = r a:3 c:28\nshare = 1\n",
	              "bad.profile: frontend_bound is -0.0312 by Neoverse V1's formula");
	profile_error(HEAD "[cycle a]\nOP_SPEC = 1\n" TAIL
	                   "[context k]\nel = 3\nstate = ns\nshare = "
	                   "1\n",
	              "bad.profile:9: context 'k': EL3 is never Non-secure");
	profile_error(HEAD "[cycle a]\nOP_SPEC = 1\n" TAIL "[function f]\naddress = 0x1000\nsize = "
	                   "16\nshare = 0.5\n",
	              "bad.profile: the functions of context 'default' sum to 0.5");
	profile_error(HEAD "[cycle a]\nOP_SPEC = 1\n" TAIL "[function f]\naddress = 0x1001\n",
	              "bad.profile:10: bad address '0x1001'");
	profile_error(HEAD "[cycle a]\nOP_SPEC = 1\n" TAIL "[frob x]\n",
	              "bad.profile:9: unknown section 'frob'");
	profile_error("description = d\n[cycle a]\n", "bad.profile: no 'name = ...'");
	char err[320];
	tap_ok(!arm_src_profile_find("nope", err, sizeof(err)) &&
	           strstr(err, "unknown Arm profile 'nope' (known: arm-backend-memory"),
	       "unknown profile name lists the built-ins (%s)", err);
}

static void trace_error(const char *text, unsigned want_line, const char *want)
{
	char err[320] = "";
	unsigned line = 99;
	struct hpm_emu_trace *t =
	    hpm_emu_trace_parse(&arm_src_trace_format, text, strlen(text), &line, err, sizeof(err));
	tap_ok(!t && line == want_line && strstr(err, want),
	       "bad trace: line %u '%s' (got %u '%s')", want_line, want, line, err);
	hpm_emu_trace_free(t);
}

#define MAGIC "hpmstat-arm-emu-trace 1\n"

static void trace_tests(void)
{
	trace_error("", 0, "empty trace");
	trace_error("hello\n", 1, "not an Arm trace");
	trace_error(MAGIC "0 0 ns 0 0x0 0x0 0\n", 2, "bad cycle count '0'");
	trace_error(MAGIC "# c\n10 4 ns 0 0x0 0x0 0\n", 3, "bad exception level '4'");
	trace_error(MAGIC "10 0 xx 0 0x0 0x0 0\n", 2, "bad security state 'xx'");
	trace_error(MAGIC "10 3 ns 0 0x0 0x0 0\n", 2, "EL3 runs in Secure or Root state");
	trace_error(MAGIC "10 1 root 0 0x0 0x0 0\n", 2, "Root state is EL3's only");
	trace_error(MAGIC "10 0 ns 2 0x0 0x0 0\n", 2, "bad streaming mode '2'");
	trace_error(MAGIC "10 0 ns 0 0xg 0x0 0\n", 2, "bad PC '0xg'");
	trace_error(MAGIC "10 0 ns 0 0x0 0x100000000 0\n", 2, "bad context ID");
	trace_error(MAGIC "10 0 ns 0 0x0 0x0 65536\n", 2, "bad VMID '65536'");
	trace_error(MAGIC "10 0 ns 0 0x0 0x0\n", 2, "missing VMID");
	trace_error(MAGIC "10 0 ns 0 0x0 0x0 0 0x3b\n", 2, "expected EVENT=VB");
	trace_error(MAGIC "10 0 ns 0 0x0 0x0 0 0x0011=1\n", 2, "bad event number '0x0011'");
	trace_error(MAGIC "10 0 ns 0 0x0 0x0 0 0x003b=0\n", 2, "bad value '0' for event 0x003b");
	trace_error(MAGIC "10 0 ns 0 0x0 0x0 0 0x003b=1 0x3b=2\n", 2, "event 0x003b given twice");
	trace_error(MAGIC "10 0 ns 0 0x0 0x0 0\n\n10 0 ns 0 0x0 0x0 0 x\n", 4, "bad event 'x'");
	char err[320];
	unsigned line;
	tap_ok(
	    !hpm_emu_trace_load(&arm_src_trace_format, "/nonexistent/t", &line, err, sizeof(err)) &&
	        strstr(err, "cannot open trace '/nonexistent/t'"),
	    "missing trace file: %s", err);
}

int main(void)
{
	sums = calloc(NEV, sizeof(double));
	ksums = calloc(NEV, sizeof(double));
	unsigned n = arm_src_profile_count();
	tap_ok(n == 7, "7 built-in Arm profiles (%u)", n);
	for (unsigned i = 0; i < n; i++)
		check_profile(arm_src_profile_at(i));
	for (unsigned i = 0; i < n; i++)
		determinism(arm_src_profile_at(i));
	char err[320];
	const struct arm_src_profile *sys = arm_src_profile_find("arm-system", err, sizeof(err));
	tap_ok(sys && arm_src_profile_nr_phases(sys) == 2 && arm_src_profile_nr_functions(sys) == 9,
	       "arm-system: 2 phases, 9 functions");
	if (sys)
		trace_round_trip(sys);
	/* a built-in read from its file by path: the same declaration */
	const char *top = getenv("top_srcdir");
	for (unsigned i = 0; top && i < n; i++) {
		const struct arm_src_profile *b = arm_src_profile_at(i);
		char path[4096];
		snprintf(path, sizeof(path), "%s/profiles/arm64/%s.profile", top,
		         arm_src_profile_name(b));
		const struct arm_src_profile *f = arm_src_profile_find(path, err, sizeof(err));
		struct arm_src_topdown tb, tf;
		arm_src_profile_declared(b, &tb, NULL);
		if (f)
			arm_src_profile_declared(f, &tf, NULL);
		tap_ok(f && f != b && !strcmp(arm_src_profile_origin(f), path) &&
		           memcmp(&tb, &tf, sizeof(tb)) == 0,
		       "%s loads by path, declaring the same Topdown", path);
		arm_src_profile_free(f);
	}
	feed_tests();
	profile_tests();
	trace_tests();
	free(sums);
	free(ksums);
	return tap_done();
}
