/* topdown-counters.c: every built-in profile's Topdown breakdown measured as
 * firmware would measure it: through programmed mhpmevent/mhpmcounter CSRs
 * of an emulated hart, and the SPEC §3 formulas written here again, within
 * 0.5 percentage points of the profile's declaration over 1e8 cycles.
 *
 * The backend needs 10 events for 8 counters; INST_SPEC + RECOVERY_BUBBLE
 * share one ADD counter (SPEC §3), and MEMSTALL_L3MISS is counted in a second
 * pass over the same stream (same profile and seed give the same stream).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kmh/emu/emu.h"
#include "kmh/emu/workload.h"
#include "kmh/kmh.h"
#include "tap.h"

#define CYCLES    UINT64_C(100000000)
#define TOLERANCE 0.005

static uint64_t encode(const char *expr)
{
	struct kmh_encoding enc;
	struct hpm_diag err;
	if (kmh_encode(&kmh_table_v2, expr, &enc, &err) != 0) {
		tap_diag("%s: %s", expr, err.msg);
		return 0;
	}
	/* count in every mode the profiles use: clear MINH too */
	return enc.value & ~KMH_INH_MASK;
}

/* Programs counters from `prog` (NULL-terminated pairs), runs the stream,
 * reads the counters back through M-mode CSR reads. */
static void measure(const struct emu_profile *p, const char *const *prog, uint64_t *out,
                    uint64_t *cycles)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	unsigned n = 0;
	for (; prog[2 * n]; n++) {
		unsigned ctr = (unsigned)prog[2 * n + 1][0];
		emu_hart_csr_write(h, EMU_MODE_M, EMU_CSR_MHPMEVENT(ctr), encode(prog[2 * n]));
	}
	struct emu_workload *w = emu_workload_new(p, 1);
	for (uint64_t left = CYCLES; left;) {
		struct emu_run r;
		emu_workload_next(w, left, &r);
		emu_hart_run(h, &r);
		left -= r.cycles;
	}
	for (unsigned i = 0; i < n; i++)
		emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_MHPMCOUNTER((unsigned)prog[2 * i + 1][0]),
		                  &out[i]);
	emu_hart_csr_read(h, EMU_MODE_M, EMU_CSR_MCYCLE, cycles);
	emu_forget_source(emu, w);
	emu_workload_free(w);
	emu_free(emu);
}

static bool close_to(double got, double want)
{
	if (isnan(want))
		return isnan(got);
	return fabs(got - want) <= TOLERANCE;
}

int main(void)
{
	/* counter numbers as one-byte strings: frontend 3-10, backend 11-18, memblock 19-26 */
	static const char *const pass1[] = {
	    "Front_Bubble",
	    "\x03",
	    "Fetch_Latency_Bound",
	    "\x04",
	    "rob_commitInstr",
	    "\x0b",
	    "INST_SPEC + RECOVERY_BUBBLE",
	    "\x0c",
	    "BR_MIS_PRED",
	    "\x0d",
	    "TOTAL_FLUSH",
	    "\x0e",
	    "EXEC_STALL_CYCLE",
	    "\x0f",
	    "MEMSTALL_STORE",
	    "\x10",
	    "MEMSTALL_L1MISS",
	    "\x11",
	    "MEMSTALL_L2MISS",
	    "\x12",
	    "MEMSTALL_ANY_LOAD",
	    "\x13",
	    NULL,
	    NULL,
	};
	static const char *const pass2[] = {"MEMSTALL_L3MISS", "\x0b", NULL, NULL};

	for (unsigned i = 0; i < emu_profile_count(); i++) {
		const struct emu_profile *p = emu_profile_at(i);
		const char *name = emu_profile_name(p);
		uint64_t v[11], l3[1], c, c2;
		struct emu_topdown d;

		measure(p, pass1, v, &c);
		measure(p, pass2, l3, &c2);
		emu_profile_declared(p, &d);
		double C = (double)c, slots = 6.0 * C;
		double fb = (double)v[0], flb = (double)v[1], ret = (double)v[2];
		double spec_rb = (double)v[3], brm = (double)v[4], flush = (double)v[5];
		double exec = (double)v[6], st = (double)v[7], l1m = (double)v[8];
		double l2m = (double)v[9], any = (double)v[10], l3m = (double)l3[0];

		double retiring = ret / slots, frontend = fb / slots;
		double bad = (spec_rb - ret) / slots;
		double backend = 1 - (frontend + bad + retiring);
		double fetch_lat = flb / C, fetch_bw = frontend - fetch_lat;
		double br = flush != 0 ? bad * brm / flush : (double)NAN, mc = bad - br;
		double core = (exec - any - st) / C, mem = (any + st) / C;
		double got[15] = {retiring,
		                  frontend,
		                  bad,
		                  backend,
		                  fetch_lat,
		                  fetch_bw,
		                  br,
		                  mc,
		                  core,
		                  mem,
		                  (any - l1m) / C,
		                  (l1m - l2m) / C,
		                  (l2m - l3m) / C,
		                  l3m / C,
		                  st / C};
		double want[15] = {d.retiring,
		                   d.frontend,
		                   d.bad_spec,
		                   d.backend,
		                   d.fetch_latency,
		                   d.fetch_bandwidth,
		                   d.branch_mispredict,
		                   d.machine_clears,
		                   d.core_bound,
		                   d.memory_bound,
		                   d.l1,
		                   d.l2,
		                   d.l3,
		                   d.dram,
		                   d.store};
		static const char *const node[15] = {
		    "retiring",      "frontend",        "bad speculation",   "backend",
		    "fetch latency", "fetch bandwidth", "branch mispredict", "machine clears",
		    "core bound",    "memory bound",    "L1 bound",          "L2 bound",
		    "L3 bound",      "DRAM bound",      "store bound"};
		tap_ok(c == CYCLES && c2 == CYCLES, "%s: mcycle counted %" PRIu64 " cycles", name,
		       c);
		for (unsigned k = 0; k < 15; k++)
			tap_ok(close_to(got[k], want[k]),
			       "%s: %s measured %.3f%% declared %.3f%% (within 0.5 points)", name,
			       node[k], 100 * got[k], 100 * want[k]);
	}
	return tap_done();
}
