/* toolkit.c: the shared emulator toolkit (src/emukit) on its own: splitmix64's
 * published first outputs, xoshiro256** against the reference algorithm
 * (Blackman and Vigna's C, run by hand in Python for seed 1), exact
 * uniformity of hpm_rng_below() where it can be counted, the alias table
 * giving each entry exactly its weight's share (up to the 2^-32 coin), and
 * the bench harness's contract: chunks, passes, totals and errors, and a
 * trace cursor's pieces, worked by hand.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emukit/alias.h"
#include "emukit/bench.h"
#include "emukit/lines.h"
#include "emukit/rng.h"
#include "emukit/trace.h"
#include "tap.h"

static void test_rng(void)
{
	/* splitmix64 from state 0: the values its authors' and Java's
	 * SplittableRandom tests publish */
	uint64_t x = 0;
	tap_is_u64(hpm_splitmix64(&x), UINT64_C(0xe220a8397b1dcdaf), "splitmix64(0) 1st");
	tap_is_u64(hpm_splitmix64(&x), UINT64_C(0x6e789e6aa1b965f4), "splitmix64(0) 2nd");
	tap_is_u64(hpm_splitmix64(&x), UINT64_C(0x06c45d188009454f), "splitmix64(0) 3rd");

	struct hpm_rng g;
	x = 1;
	hpm_rng_seed(&g, &x);
	static const uint64_t want[4] = {UINT64_C(0xb3f2af6d0fc710c5), UINT64_C(0x853b559647364cea),
	                                 UINT64_C(0x92f89756082a4514),
	                                 UINT64_C(0x642e1c7bc266a3a7)};
	for (unsigned i = 0; i < 4; i++)
		tap_is_u64(hpm_rng_next(&g), want[i],
		           "xoshiro256** seeded from splitmix64(1): draw %u", i);

	/* hpm_rng_below(span): over draws whose high 32 bits run through every
	 * value of a short cycle we cannot force, so check instead what makes
	 * it exact: no result >= span, and the rejection bound's identity
	 * (2^32 - reject) is a multiple of span */
	bool below = true;
	for (uint32_t span = 1; span < 2000; span += 37) {
		for (unsigned k = 0; k < 200; k++)
			below &= hpm_rng_below(&g, span, NULL) < span;
		uint32_t reject = (0u - span) % span;
		below &= ((UINT64_C(1) << 32) - reject) % span == 0;
	}
	tap_ok(below, "hpm_rng_below: always below span, the accepted range a multiple of span");
	tap_ok(hpm_rng_scale(UINT64_MAX, 10) == 9 && hpm_rng_scale(0, 10) == 0,
	       "hpm_rng_scale spans 0..span-1");
}

/* The probability of entry i of the alias table: its own column's kept
 * share plus what other columns give it, each column 1/n. */
static double alias_share(const uint32_t *thr, const unsigned *alias, unsigned n, unsigned i)
{
	double p = 0;
	for (unsigned c = 0; c < n; c++) {
		double keep = thr[c] == UINT32_MAX ? 1.0 : thr[c] / 4294967296.0;
		if (c == i)
			p += keep / n;
		if (alias[c] == i && c != i)
			p += (1 - keep) / n;
	}
	return p;
}

static void test_alias(void)
{
	static const double w[][6] = {{1, 1, 1, 1, 1, 1},
	                              {5, 1, 0, 3, 0.5, 0.5},
	                              {0.001, 100, 7, 7, 7, 0},
	                              {1, 0, 0, 0, 0, 0}};
	for (unsigned t = 0; t < 4; t++) {
		double total = 0;
		for (unsigned i = 0; i < 6; i++)
			total += w[t][i];
		uint32_t *thr;
		unsigned *alias;
		hpm_alias_build(w[t], 6, total, &thr, &alias);
		double worst = 0;
		bool self = true;
		for (unsigned i = 0; i < 6; i++) {
			double d = fabs(alias_share(thr, alias, 6, i) - w[t][i] / total);
			worst = d > worst ? d : worst;
			self &= thr[i] != UINT32_MAX || alias[i] == i;
		}
		tap_ok(worst < 1e-9,
		       "alias table %u: every entry drawn with its weight's share "
		       "(worst off by %g)",
		       t, worst);
		tap_ok(self, "alias table %u: a column kept whole is its own alias", t);
		/* draws: a zero weight is never drawn */
		bool never = true;
		struct hpm_rng g;
		uint64_t x = t;
		hpm_rng_seed(&g, &x);
		for (unsigned k = 0; k < 100000; k++) {
			unsigned e = hpm_alias_pick(hpm_rng_next(&g), 6, thr, alias);
			never &= e < 6 && w[t][e] > 0;
		}
		tap_ok(never, "alias table %u: 1e5 draws, none of a zero weight", t);
		free(thr);
		free(alias);
	}
}

/* A fake model for the harness: runs of 3 cycles (the last one what is
 * left), counting the calls; its machines count the chunks played on them. */
struct fake {
	unsigned records, fast_plays, ref_plays;
	size_t played_fast, played_ref;
	size_t last_run; /* the highest run of a chunk recorded */
	long fail_at;    /* the record() call that fails, -1: none */
};

static uint64_t fake_record(void *ctx, size_t i, uint64_t max_cycles, char *err, size_t errlen)
{
	struct fake *f = ctx;
	if (f->fail_at >= 0 && f->records == (unsigned)f->fail_at) {
		snprintf(err, errlen, "bad run");
		return 0;
	}
	f->records++;
	if (i > f->last_run)
		f->last_run = i;
	return max_cycles < 3 ? max_cycles : 3;
}

static void fake_play(void *ctx, void *m, bool ref, size_t nr)
{
	struct fake *f = ctx;
	(*(unsigned *)m)++;
	if (ref) {
		f->ref_plays++;
		f->played_ref += nr;
	} else {
		f->fast_plays++;
		f->played_fast += nr;
	}
}

/* The machines differ where their counts of chunks do. */
static void fake_compare(void *fast, void *ref, struct hpm_emu_bench_diff *d)
{
	unsigned a = *(unsigned *)fast, r = *(unsigned *)ref;
	if (a != r)
		hpm_emu_bench_differ(d, "chunks", a, r);
}

static void fake_mismatch(void *ctx, const char *reg, uint64_t fast, uint64_t ref)
{
	snprintf(ctx, 64, "%s %llu %llu", reg, (unsigned long long)fast, (unsigned long long)ref);
}

static void collect(void *ctx, const char *line)
{
	strncat(ctx, line, 255 - strlen(ctx));
	strncat(ctx, "|", 255 - strlen(ctx));
}

static void test_bench(void)
{
	struct fake f = {.fail_at = -1};
	unsigned on[4] = {0}; /* chunks played on fast machines 0..2, the reference */
	struct hpm_emu_bench_machines m = {{&on[0], &on[1], &on[2]}, 3, &on[3]};
	struct hpm_emu_bench_player p = {.record = fake_record, .play = fake_play, .ctx = &f};
	struct hpm_emu_bench_result r;
	char err[128];
	/* 100 cycles in runs of 3: 34 runs, chunks of 10: 4 chunks */
	int ret = hpm_emu_bench_time(&m, &p, 100, 10, &r, err, sizeof(err));
	tap_ok(ret == 0 && r.cycles == 100 && r.runs == 34 && r.fast_passes == 3,
	       "bench: 100 cycles in 34 runs, 3 fast passes");
	tap_ok(
	    f.fast_plays == 12 && f.ref_plays == 4 && f.played_fast == 3 * 34 &&
	        f.played_ref == 34 && on[0] == 4 && on[1] == 4 && on[2] == 4 && on[3] == 4,
	    "bench: each of the 4 chunks played once on each fast machine, once on the reference");
	tap_ok(f.records == 34 && f.last_run == 9, "bench: a chunk's runs recorded as runs 0..9");

	struct fake bad = {.fail_at = 25};
	p.ctx = &bad;
	ret = hpm_emu_bench_time(&m, &p, 100, 10, &r, err, sizeof(err));
	tap_ok(ret == -1 && strcmp(err, "bad run") == 0 && bad.ref_plays == 2,
	       "bench: a bad run ends it with record()'s reason, nothing of its chunk played");

	char said[64] = "";
	on[1]++;
	tap_ok(hpm_emu_bench_compare(&m, fake_compare, fake_mismatch, said) == 1 &&
	           strcmp(said, "chunks 7 6") == 0,
	       "bench compare: each fast machine against the reference, a difference told");
	on[1]--;
	tap_ok(hpm_emu_bench_compare(&m, fake_compare, NULL, NULL) == 0,
	       "bench compare: none where the machines agree");
	on[2]++;
	tap_ok(hpm_emu_bench_compare(&m, fake_compare, NULL, NULL) == 1,
	       "bench compare: a difference counted without a mismatch callback");

	char text[256] = "";
	struct hpm_emu_bench_result fig = {
	    .cycles = 1000, .fast_seconds = 0.5, .ref_seconds = 10, .fast_passes = 3};
	hpm_emu_bench_lines(&fig, collect, text);
	tap_is_str(text,
	           "fast path:  2e+03 cycles/s (0.5000 s, best of 3 passes)|"
	           "reference:  100 cycles/s (10.0000 s)|ratio:      20.0x|",
	           "bench figures: cycles over seconds, the ratio of the times");
	char pct[16];
	tap_ok(strcmp(hpm_emu_pct(0.1234, pct), "12.3") == 0 &&
	           strcmp(hpm_emu_pct((double)NAN, pct), "n/a") == 0,
	       "percentages: one decimal, n/a where no number");
}

/* Runs of 3, 1 and 2 cycles taken 2 at most at a time: 2 and 1 of the
 * first, the second whole, the third whole, then the first again from the
 * trace's start. */
static void test_cursor(void)
{
	static const uint64_t runs[3] = {3, 1, 2};
	static const uint64_t want[6] = {2, 1, 1, 2, 2, 1};
	static const size_t at[6] = {0, 1, 2, 0, 0, 1}; /* the cursor's run after each */
	struct hpm_emu_trace_cursor c = {0, 0};
	bool ok = true;
	for (unsigned i = 0; i < 6; i++) {
		uint64_t got = hpm_emu_trace_cursor_take(&c, runs[c.run], 2, 3);
		if (got != want[i] || c.run != at[i]) {
			tap_diag("take %u: %llu cycles, then run %zu", i, (unsigned long long)got,
			         c.run);
			ok = false;
		}
	}
	tap_ok(ok, "trace cursor: pieces of at most max, the next run after a run's last cycle, "
	           "the start again after the last run");
	c = (struct hpm_emu_trace_cursor){0, 0};
	tap_ok(hpm_emu_trace_cursor_take(&c, UINT64_MAX, UINT64_MAX, 1) == UINT64_MAX &&
	           c.run == 0 && c.done == 0,
	       "... a run of 2^64-1 cycles taken whole, in a one-run trace");
}

int main(void)
{
	test_rng();
	test_cursor();
	test_alias();
	test_bench();
	return tap_done();
}
