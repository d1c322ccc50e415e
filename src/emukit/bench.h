/* bench.h: the harness of both emulators' benches, which time the counting
 * fast path against the per-cycle reference on one stream and check that
 * both count the same.
 *
 * Owns: the bench's machines (the model's handles), the chunked timing
 * (record a chunk of runs untimed, play it on every fast-path machine and
 * keep the best pass, play it once on the reference), its result and
 * figures, and the comparison (each fast-path machine against the
 * reference, the differing registers counted and told). A model
 * (kmh/emu/bench.c, arm64/emu/bench.c) hands in how it records, plays
 * and compares; the harness knows none of its types. Never prints, never
 * exits.
 */
#ifndef HPM_EMUKIT_BENCH_H
#define HPM_EMUKIT_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HPM_EMU_BENCH_MAX_FAST 8 /* fast-path machines at the most */

/* What one bench measured. */
struct hpm_emu_bench_result {
	uint64_t cycles;      /* cycles of the stream */
	uint64_t runs;        /* runs of the stream */
	size_t distinct;      /* distinct run contents among them (0: not counted) */
	double fast_seconds;  /* the fast path: the best of its passes over each chunk of
	                       * runs, summed */
	double ref_seconds;   /* the reference, one pass */
	unsigned fast_passes; /* fast-path passes (each on a machine of its own) */
};

/* The machines of a bench, as the model's handles: fast[0..nr_fast) count
 * on the fast path, ref with the reference. */
struct hpm_emu_bench_machines {
	void *fast[HPM_EMU_BENCH_MAX_FAST];
	unsigned nr_fast;
	void *ref;
};

/* A model's recording and playing of its stream. */
struct hpm_emu_bench_player {
	/* Records (untimed) the stream's next run, of at most max_cycles
	 * cycles, as run i of the chunk. Returns its cycles, or 0 with the
	 * reason in err when the stream broke its contract. */
	uint64_t (*record)(void *ctx, size_t i, uint64_t max_cycles, char *err, size_t errlen);
	/* Plays the chunk's nr recorded runs on machine m, with the reference
	 * when ref, its final fold included: what is timed. */
	void (*play)(void *ctx, void *m, bool ref, size_t nr);
	void *ctx;
};

/* Times `cycles` (>= 1) cycles of p's stream in chunks of at most
 * chunk_runs runs: every chunk played on each of m's fast-path machines
 * (the best pass counts: one pass over a chunk takes milliseconds) and
 * once on its reference. Fills *out (cycles: those played) and returns 0,
 * or -1 with record()'s reason in err. */
int hpm_emu_bench_time(const struct hpm_emu_bench_machines *m, const struct hpm_emu_bench_player *p,
                       uint64_t cycles, size_t chunk_runs, struct hpm_emu_bench_result *out,
                       char *err, size_t errlen);

/* The figures of r every bench prints, as lines to out: the fast path's
 * and the reference's cycles per second and their ratio. */
void hpm_emu_bench_lines(const struct hpm_emu_bench_result *r,
                         void (*out)(void *ctx, const char *line), void *ctx);

/* Told each register (or state) where the fast path and the reference
 * differ after a bench, by the machine's name for it. */
typedef void (*hpm_emu_bench_mismatch_fn)(void *ctx, const char *reg, uint64_t fast, uint64_t ref);

/* The differences a comparison has found. */
struct hpm_emu_bench_diff {
	unsigned n;
	hpm_emu_bench_mismatch_fn mismatch; /* NULL: counted only */
	void *ctx;
};

/* Counts a register that differs and tells d's mismatch. */
void hpm_emu_bench_differ(struct hpm_emu_bench_diff *d, const char *reg, uint64_t fast,
                          uint64_t ref);

/* Compares each fast-path machine of m with the reference: compare()
 * calls hpm_emu_bench_differ() for every register where they differ.
 * Returns the number of differences: 0 means exact. */
unsigned hpm_emu_bench_compare(const struct hpm_emu_bench_machines *m,
                               void (*compare)(void *fast, void *ref, struct hpm_emu_bench_diff *d),
                               hpm_emu_bench_mismatch_fn mismatch, void *ctx);

#endif
