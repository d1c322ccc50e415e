/* bench.c: the engine of the Arm emulator's bench (see arm64/emu/bench.h).
 *
 * The stream is built before any timing, as a pool of distinct run
 * contents and a list of (content, cycles) pairs, so both paths see the
 * same runs and neither timing includes drawing them.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arm64/emu/bench.h"
#include "arm64/emu/pmu.h"
#include "util/xalloc.h"

#define POOL       256 /* distinct run contents */
#define MAX_VALS   12
#define MAX_FAST   8
#define STALL_SLOT 0x003f

/* the events of the stream: slot events (VB up to SLOTS = 8) first */
static const uint16_t bench_events[MAX_VALS] = {0x0008 /* INST_RETIRED */,
                                                0x0010 /* BR_MIS_PRED */,
                                                0x0012 /* BR_PRED */,
                                                0x0023 /* STALL_FRONTEND */,
                                                0x0024 /* STALL_BACKEND */,
                                                STALL_SLOT,
                                                0x003d /* STALL_SLOT_BACKEND */,
                                                0x003e /* STALL_SLOT_FRONTEND */,
                                                0x0003 /* L1D_CACHE_REFILL */,
                                                0x0004 /* L1D_CACHE */,
                                                0x0001 /* L1I_CACHE_REFILL */,
                                                0x0002 /* L1I_TLB_REFILL */};

struct content {
	uint8_t el;
	bool streaming;
	unsigned nr;
	struct arm_emu_val vals[MAX_VALS];
};

struct arm_emu_bench {
	struct arm_emu *fast[MAX_FAST];
	unsigned nr_fast;
	struct arm_emu *ref;
};

static uint64_t rng_next(uint64_t *s)
{
	/* splitmix64 */
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static unsigned rng(uint64_t *s, unsigned n)
{
	return (unsigned)(rng_next(s) % n);
}

static int cmp_val(const void *a, const void *b)
{
	const struct arm_emu_val *x = a, *y = b;
	return (int)x->event - (int)y->event;
}

static void make_pool(struct content *pool, uint64_t *s)
{
	for (unsigned i = 0; i < POOL; i++) {
		struct content *c = &pool[i];
		c->el = (uint8_t)rng(s, 2);
		c->streaming = rng(s, 4) == 0;
		c->nr = 0;
		for (unsigned e = 0; e < MAX_VALS; e++) {
			unsigned vb = e >= 5 && e <= 7 ? rng(s, 9) : rng(s, 2);
			if (vb)
				c->vals[c->nr++] =
				    (struct arm_emu_val){bench_events[e], (uint16_t)vb};
		}
		qsort(c->vals, c->nr, sizeof(c->vals[0]), cmp_val);
	}
}

/* The program: every counter with a rule worth timing. Even counters
 * take thresholds (every TC) or edges, odd counters link to n-1 or take
 * edges; filters vary; the first counters start just below an overflow. */
static void program(struct arm_emu *m, uint64_t seed)
{
	uint64_t s = seed ^ UINT64_C(0x5eed);
	struct arm_emu_pe *pe = arm_emu_pe(m, 0);
	static const unsigned edge_tc[] = {1, 2, 3, 5, 6, 7};
	static const unsigned link[][2] = {{0, 1}, {0, 2}, {1, 1}, {0, 0}}; /* TC[0], TLC */

	arm_emu_write(pe, 3, ARM_EMU_MDCR_EL3, 0, ARM_EMU_MDCR3_SPME);
	for (unsigned n = 0; n < 31; n++) {
		uint64_t evt = bench_events[rng(&s, MAX_VALS)];
		uint64_t th = rng(&s, 6);
		uint64_t t = evt | (th << 32);
		unsigned kind = rng(&s, 3);
		if (n % 2 == 1 && kind == 0) {
			const unsigned *l = link[rng(&s, 4)];
			unsigned cond = rng(&s, 4);
			t |= ((uint64_t)(cond << 1 | l[0]) << 61) | ((uint64_t)l[1] << 54);
		} else if (kind == 1) {
			t |= ((uint64_t)edge_tc[rng(&s, 6)] << 61) | (UINT64_C(1) << 60);
		} else {
			t |= (uint64_t)rng(&s, 8) << 61;
		}
		if (rng(&s, 4) == 0)
			t |= UINT64_C(1) << 30; /* U: not EL0 */
		if (rng(&s, 6) == 0)
			t |= UINT64_C(1) << 56; /* VS=01: not in streaming mode */
		arm_emu_write(pe, 3, ARM_EMU_PMEVTYPER_EL0, n, t);
		if (n < 8)
			arm_emu_write(pe, 3, ARM_EMU_PMEVCNTR_EL0, n,
			              n % 2 ? UINT64_MAX - 5000 : UINT32_MAX - 5000);
	}
	arm_emu_write(pe, 3, ARM_EMU_PMCCNTR_EL0, 0, UINT32_MAX - 100000);
	arm_emu_write(pe, 3, ARM_EMU_PMINTENSET_EL1, 0, 0xffffffffu);
	arm_emu_write(pe, 3, ARM_EMU_PMCNTENSET_EL0, 0, 0xffffffffu);
	arm_emu_write(pe, 3, ARM_EMU_PMCR_EL0, 0, ARM_EMU_PMCR_E | ARM_EMU_PMCR_LP);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double play(struct arm_emu *m, const struct content *pool, const uint16_t *which,
                   const uint16_t *len, size_t nr, bool ref, bool keyed)
{
	struct arm_emu_pe *pe = arm_emu_pe(m, 0);
	struct arm_emu_run r;
	memset(&r, 0, sizeof(r));
	r.sec = ARM_EMU_SEC_NS;
	double t0 = now();
	for (size_t i = 0; i < nr; i++) {
		const struct content *c = &pool[which[i]];
		r.cycles = len[i];
		r.el = c->el;
		r.streaming = c->streaming;
		r.nr_vals = c->nr;
		r.vals = c->vals;
		r.pc = 0x400000u + (uint64_t)which[i] * 4u;
		r.key = keyed ? (uint32_t)which[i] + 1 : 0; /* a content per key */
		r.source = pool;
		if (ref)
			arm_emu_ref_run(pe, &r);
		else
			arm_emu_run(pe, &r);
	}
	arm_emu_sync(pe);
	return now() - t0;
}

struct arm_emu_bench *arm_emu_bench_run(uint64_t seed, uint64_t cycles, unsigned max_run,
                                        bool keyed, unsigned fast_passes,
                                        struct arm_emu_bench_result *out, char *err, size_t errlen)
{
	if (!cycles) {
		snprintf(err, errlen, "the bench needs at least 1 cycle");
		return NULL;
	}
	if (max_run < 1 || max_run > 65535) {
		snprintf(err, errlen, "runs of 1 to %u cycles: the longest run is 1 to 65535",
		         max_run);
		return NULL;
	}
	if (fast_passes < 1)
		fast_passes = 1;
	if (fast_passes > MAX_FAST)
		fast_passes = MAX_FAST;
	const struct arm_emu_features *f = arm_emu_features_find("future");
	struct content *pool = xcalloc(POOL, sizeof(*pool));
	uint64_t s = seed;
	make_pool(pool, &s);

	/* the stream: runs of 1..max_run cycles, the last cut to fit */
	size_t cap = 1024, nr = 0;
	uint16_t *which = xmalloc(cap * sizeof(*which)), *len = xmalloc(cap * sizeof(*len));
	for (uint64_t left = cycles; left;) {
		uint64_t l = 1 + rng(&s, max_run);
		if (l > left)
			l = left;
		if (nr == cap) {
			cap *= 2;
			which = xrealloc(which, cap * sizeof(*which));
			len = xrealloc(len, cap * sizeof(*len));
		}
		which[nr] = (uint16_t)rng(&s, POOL);
		len[nr++] = (uint16_t)l;
		left -= l;
	}

	struct arm_emu_bench *b = xcalloc(1, sizeof(*b));
	b->nr_fast = fast_passes;
	double best = 0;
	for (unsigned i = 0; i < fast_passes; i++) {
		b->fast[i] = arm_emu_new(f, 1, 1, err, errlen);
		program(b->fast[i], seed);
		double t = play(b->fast[i], pool, which, len, nr, false, keyed);
		if (i == 0 || t < best)
			best = t;
	}
	b->ref = arm_emu_new(f, 1, 1, err, errlen);
	program(b->ref, seed);
	double tr = play(b->ref, pool, which, len, nr, true, keyed);

	out->cycles = cycles;
	out->runs = nr;
	out->fast_seconds = best;
	out->ref_seconds = tr;
	out->fast_passes = fast_passes;
	free(which);
	free(len);
	free(pool);
	return b;
}

unsigned arm_emu_bench_compare(struct arm_emu_bench *b,
                               void (*mismatch)(void *ctx, const char *reg, uint64_t fast,
                                                uint64_t ref),
                               void *ctx)
{
	unsigned bad = 0;
	struct arm_emu_pe *rp = arm_emu_pe(b->ref, 0);
	for (unsigned i = 0; i < b->nr_fast; i++) {
		struct arm_emu_pe *fp = arm_emu_pe(b->fast[i], 0);
		for (unsigned reg = 0; reg < ARM_EMU_NR_REGS; reg++) {
			unsigned nidx = arm_emu_reg_indexed(reg) ? 31 : 1;
			for (unsigned idx = 0; idx < nidx; idx++) {
				uint64_t a = 0, r = 0;
				int ea = arm_emu_ext_read(fp, reg, idx, &a);
				int er = arm_emu_ext_read(rp, reg, idx, &r);
				if (ea == er && a == r)
					continue;
				bad++;
				if (mismatch) {
					char name[40];
					mismatch(ctx,
					         arm_emu_reg_name(reg, idx, name, sizeof(name)), a,
					         r);
				}
			}
		}
		for (unsigned n = 0; n < 31; n++) {
			struct arm_emu_edge ex = arm_emu_edge_get(fp, n),
			                    ey = arm_emu_edge_get(rp, n);
			const struct arm_emu_edge *x = &ex, *y = &ey;
			if (x->valid != y->valid || x->prev != y->prev) {
				bad++;
				if (mismatch)
					mismatch(ctx, "edge state", (uint64_t)x->prev,
					         (uint64_t)y->prev);
			}
		}
		if (arm_emu_irq_pending(fp) != arm_emu_irq_pending(rp)) {
			bad++;
			if (mismatch)
				mismatch(ctx, "PMUIRQ", arm_emu_irq_pending(fp),
				         arm_emu_irq_pending(rp));
		}
	}
	return bad;
}

void arm_emu_bench_free(struct arm_emu_bench *b)
{
	if (!b)
		return;
	for (unsigned i = 0; i < b->nr_fast; i++)
		arm_emu_free(b->fast[i]);
	arm_emu_free(b->ref);
	free(b);
}
