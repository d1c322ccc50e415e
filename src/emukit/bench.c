/* bench.c: the harness of both emulators' benches (see emukit/bench.h).
 *
 * Each chunk is recorded before any timing of it, and every machine plays
 * the recorded chunk: so both paths see the same runs, and neither timing
 * includes producing them (a workload's stream costs more per run than
 * the fast path).
 */
#include "config.h"

#include <string.h>
#include <time.h>

#include "emukit/bench.h"
#include "emukit/lines.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double timed_play(const struct hpm_emu_bench_player *p, void *m, bool ref, size_t nr)
{
	double t0 = now();
	p->play(p->ctx, m, ref, nr);
	return now() - t0;
}

int hpm_emu_bench_time(const struct hpm_emu_bench_machines *m, const struct hpm_emu_bench_player *p,
                       uint64_t cycles, size_t chunk_runs, struct hpm_emu_bench_result *out,
                       char *err, size_t errlen)
{
	uint64_t left = cycles, runs = 0;
	double t_fast = 0, t_ref = 0;

	memset(out, 0, sizeof(*out));
	while (left) {
		/* a run has at least a cycle: every chunk ends */
		size_t n = 0;
		for (; n < chunk_runs && left; n++) {
			uint64_t c = p->record(p->ctx, n, left, err, errlen);
			if (!c)
				return -1;
			left -= c;
		}
		runs += n;
		double best = 0;
		for (unsigned k = 0; k < m->nr_fast; k++) {
			double t = timed_play(p, m->fast[k], false, n);
			if (k == 0 || t < best)
				best = t;
		}
		t_fast += best;
		t_ref += timed_play(p, m->ref, true, n);
	}
	out->cycles = cycles;
	out->runs = runs;
	out->fast_seconds = t_fast;
	out->ref_seconds = t_ref;
	out->fast_passes = m->nr_fast;
	return 0;
}

void hpm_emu_bench_lines(const struct hpm_emu_bench_result *r,
                         void (*out)(void *ctx, const char *line), void *ctx)
{
	double cycles = (double)r->cycles;
	hpm_emu_linef(out, ctx, "fast path:  %.3g cycles/s (%.4f s, best of %u passes)\n",
	              cycles / r->fast_seconds, r->fast_seconds, r->fast_passes);
	hpm_emu_linef(out, ctx, "reference:  %.3g cycles/s (%.4f s)\n", cycles / r->ref_seconds,
	              r->ref_seconds);
	hpm_emu_linef(out, ctx, "ratio:      %.1fx\n", r->ref_seconds / r->fast_seconds);
}

void hpm_emu_bench_differ(struct hpm_emu_bench_diff *d, const char *reg, uint64_t fast,
                          uint64_t ref)
{
	d->n++;
	if (d->mismatch)
		d->mismatch(d->ctx, reg, fast, ref);
}

unsigned hpm_emu_bench_compare(const struct hpm_emu_bench_machines *m,
                               void (*compare)(void *fast, void *ref, struct hpm_emu_bench_diff *d),
                               hpm_emu_bench_mismatch_fn mismatch, void *ctx)
{
	struct hpm_emu_bench_diff d = {0, mismatch, ctx};
	for (unsigned k = 0; k < m->nr_fast; k++)
		compare(m->fast[k], m->ref, &d);
	return d.n;
}
