/* bench.h: the engine of the Arm emulator's bench, which times the
 * counting fast path against the per-cycle reference on one stream (a
 * synthetic one, or one a caller produces, such as a workload profile's)
 * and checks that both count the same.
 *
 * Owns: the bench program (31 event counters of the "future" profile with
 * thresholds of every condition, edges of every mode, linking of every
 * form, filters, 32- and 64-bit overflow, some counters starting just below
 * it), the synthetic stream (a pool of distinct run contents, drawn from a
 * seed, at run lengths of 1 to a chosen maximum, over EL0 and EL1 and streaming
 * mode), the recording of a caller's stream (timed by the shared harness,
 * emukit/bench.h), and the comparison of every register at the end. Never
 * prints, never exits.
 *
 * The engine knows no source of runs but its synthetic one: a workload
 * profile's stream (arm64/emu/profile.h, another library) reaches it
 * through struct arm_emu_bench_source, so this library stays below the
 * sources.
 */
#ifndef HPM_ARM64_EMU_BENCH_H
#define HPM_ARM64_EMU_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arm64/emu/pmu.h"
#include "arm64/emu/source.h"
#include "emukit/bench.h"

struct arm_emu_bench;

/* Builds the stream of `cycles` (>= 1) cycles from `seed`, in runs of 1
 * to max_run cycles (1..65535; 2000 gives a mean of 1000), each run keyed
 * by its content (as a workload profile's runs are) when `keyed`, counts it with
 * the fast path (fast_passes times, each on its own machine) and once with
 * the reference, and fills *out, on feature profile f (NULL: "future").
 * NULL with the reason in err as arm_emu_bench_stream() says, or when
 * max_run is out of range. */
struct arm_emu_bench *arm_emu_bench_run(const struct arm_emu_features *f, uint64_t seed,
                                        uint64_t cycles, unsigned max_run, bool keyed,
                                        unsigned fast_passes, struct hpm_emu_bench_result *out,
                                        char *err, size_t errlen);

/* A caller's stream. next() fills *run with the next run of 1..max_cycles
 * cycles (source.h's contract; run->vals must stay valid until
 * arm_emu_bench_stream() returns); it is called outside any timing.
 * events[0..nr_events) are the events the program's counters count: the
 * events the stream delivers. */
struct arm_emu_bench_source {
	void (*next)(void *ctx, uint64_t max_cycles, struct arm_emu_run *run);
	void *ctx;
	const uint16_t *events;
	unsigned nr_events;
};

/* Programs the 31 counters of feature profile f (which must have 31
 * counters, TH, EDGE, TH2 and SME; seed draws the program) on fast_passes
 * fast-path machines and one reference machine, plays `cycles` (>= 1)
 * cycles of src's stream on each, and fills *out. NULL with the reason in
 * err when f lacks a feature, cycles is 0, src names no event, or the
 * stream gives a run outside source.h's contract or a VB above f's slots. */
struct arm_emu_bench *arm_emu_bench_stream(const struct arm_emu_features *f,
                                           const struct arm_emu_bench_source *src, uint64_t seed,
                                           uint64_t cycles, unsigned fast_passes,
                                           struct hpm_emu_bench_result *out, char *err,
                                           size_t errlen);

/* Compares every register (and the edge state) of each fast-path machine
 * with the reference machine's, calling mismatch (when not NULL) for each
 * difference. Returns the number of differences: 0 means exact. */
unsigned arm_emu_bench_compare(struct arm_emu_bench *b, hpm_emu_bench_mismatch_fn mismatch,
                               void *ctx);

void arm_emu_bench_free(struct arm_emu_bench *b);

#endif
