/* arm-emu-bench.c: the Arm emulator's fast path against its per-cycle
 * reference (src/arm64/emu/bench.h): 31 event counters of the "future"
 * profile with thresholds, edges and linking on a synthetic stream.
 *
 * Usage: bench/arm-emu-bench [CYCLES [MAXRUN [SEED [unkeyed]]]]: runs of 1
 * to MAXRUN (default 2000) cycles, keyed by their contents unless the
 * fourth argument is "unkeyed". Prints the simulated cycles
 * per second of each path, their ratio, and whether every register is
 * equal at the end; exits 1 when they differ.
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm64/emu/bench.h"

static void mismatch(void *ctx, const char *reg, uint64_t fast, uint64_t ref)
{
	(void)ctx;
	printf("  %s: fast 0x%016" PRIx64 " reference 0x%016" PRIx64 "\n", reg, fast, ref);
}

int main(int argc, char **argv)
{
	uint64_t cycles = argc > 1 ? strtoull(argv[1], NULL, 0) : 20000000u;
	unsigned max_run = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 2000;
	uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 0) : 1;
	bool keyed = !(argc > 4 && strcmp(argv[4], "unkeyed") == 0);
	struct hpm_emu_bench_result r;
	char err[200];
	struct arm_emu_bench *b =
	    arm_emu_bench_run(NULL, seed, cycles, max_run, keyed, 3, &r, err, sizeof(err));
	if (!b) {
		fprintf(stderr, "arm-emu-bench: %s\n", err);
		return 2;
	}
	double fast = (double)r.cycles / r.fast_seconds, ref = (double)r.cycles / r.ref_seconds;
	printf("cycles %" PRIu64 " in %" PRIu64 " runs (%.1f cycles/run), 31 counters (profile "
	       "future, %s runs)\n",
	       r.cycles, r.runs, (double)r.cycles / (double)r.runs, keyed ? "keyed" : "unkeyed");
	printf("fast path  %.3g cycles/s (best of %u passes, %.3f s)\n", fast, r.fast_passes,
	       r.fast_seconds);
	printf("reference  %.3g cycles/s (%.3f s)\n", ref, r.ref_seconds);
	printf("speed-up   %.1fx\n", fast / ref);
	unsigned bad = arm_emu_bench_compare(b, mismatch, NULL);
	printf("registers  %s\n", bad ? "DIFFER" : "all equal to the reference");
	arm_emu_bench_free(b);
	return bad ? 1 : 0;
}
