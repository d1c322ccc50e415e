/* bench.h: the harness of both emulators' benches, which time the counting
 * fast path against the per-cycle reference on one stream.
 *
 * Owns: the chunked timing (record a chunk of runs untimed, play it on
 * every fast-path machine and keep the best pass, play it once on the
 * reference, sum over the chunks), its result, and the shape of the
 * callback that reports a register where the paths differ. A machine
 * (kmh/emu/bench.c, arm64/emu/bench.c) hands in how it records and plays
 * its runs and compares its registers; the harness knows neither. Never
 * prints, never exits.
 */
#ifndef HPM_EMUKIT_BENCH_H
#define HPM_EMUKIT_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* A machine's recording and playing of its stream. */
struct hpm_emu_bench_player {
	/* Records (untimed) the next runs of the stream, at most max_runs
	 * and at most *cycles_left cycles, taking their cycles off
	 * *cycles_left. Returns the runs recorded, or -1 with the reason in
	 * err when the stream broke its contract. */
	long (*record)(void *ctx, size_t max_runs, uint64_t *cycles_left, char *err, size_t errlen);
	/* Plays the nr recorded runs on fast-path machine `fast`
	 * (0..fast_passes-1), or on the reference when ref, its final fold
	 * included: what is timed. */
	void (*play)(void *ctx, bool ref, unsigned fast, size_t nr);
	void *ctx;
};

/* Times `cycles` (>= 1) cycles of p's stream in chunks of at most
 * chunk_runs runs: every chunk played fast_passes times on the fast path
 * (the best pass counts: one pass over a chunk takes milliseconds) and
 * once on the reference. Fills *out (cycles: those played) and returns 0,
 * or -1 with record()'s reason in err. */
int hpm_emu_bench_time(const struct hpm_emu_bench_player *p, uint64_t cycles, size_t chunk_runs,
                       unsigned fast_passes, struct hpm_emu_bench_result *out, char *err,
                       size_t errlen);

/* The figures of r every bench prints, as lines to out: the fast path's
 * and the reference's cycles per second and their ratio. */
void hpm_emu_bench_lines(const struct hpm_emu_bench_result *r,
                         void (*out)(void *ctx, const char *line), void *ctx);

/* Told each register (or state) where the fast path and the reference
 * differ after a bench, by the machine's name for it. */
typedef void (*hpm_emu_bench_mismatch_fn)(void *ctx, const char *reg, uint64_t fast, uint64_t ref);

#endif
