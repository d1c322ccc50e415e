/* bench.h: the engine of `hpmstat emu bench`, which times the counting fast
 * path against the per-cycle reference on one workload stream and checks
 * that both count the same.
 *
 * Owns: the bench program (every counter of the model programmed with 1-4
 * events, rotating ops and modes, some counters starting just below 2^64),
 * the recorded stream it replays (each distinct run content stored once)
 * and the comparison of every CSR afterwards; the timing is the shared
 * harness's (emukit/bench.h). commands.c finds the profile and formats the
 * figures, the command (builtin/cmd-emu.c) parses options and prints; like
 * the rest of libemu this never prints or exits.
 */
#ifndef HPM_KMH_EMU_BENCH_H
#define HPM_KMH_EMU_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "emukit/bench.h"

struct emu_profile;
struct emu_bench;

/* Programs fast-path harts and one reference hart with the bench program of
 * profile p, feeds all of them `cycles` (>= 1) cycles of the workload (p,
 * seed) in chunks, timing the fast path and the reference, and fills *out.
 * Returns the bench, whose harts stay for emu_bench_compare(); or NULL with
 * "profile 'NAME' produced a bad run" in err when the workload breaks the
 * run contract (kmh/emu/source.h). */
struct emu_bench *emu_bench_run(const struct emu_profile *p, uint64_t seed, uint64_t cycles,
                                struct hpm_emu_bench_result *out, char *err, size_t errlen);

/* Compares every readable CSR of each fast-path hart with the reference
 * hart's, calling mismatch (when not NULL) for each that differs, in hart
 * and then CSR order. Returns the number of differences: 0 means the fast
 * path counted exactly what the reference did. It is separate from the run
 * so that a caller can show the figures before any difference. */
unsigned emu_bench_compare(struct emu_bench *b, hpm_emu_bench_mismatch_fn mismatch, void *ctx);

void emu_bench_free(struct emu_bench *b);

#endif
