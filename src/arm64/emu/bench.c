/* bench.c: the engine of the Arm emulator's bench (see arm64/emu/bench.h).
 *
 * The stream is recorded from its producer in chunks of runs before any
 * timing of that chunk, and every machine plays the recorded chunk: so
 * both paths see the same runs and neither timing includes producing them
 * (a profile's stream costs more per run than the fast path). The
 * synthetic stream is one producer, a workload profile's (given by the
 * caller, which knows the sources library) another.
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm64/emu/bench.h"
#include "arm64/emu/pmu.h"
#include "emukit/rng.h"
#include "util/xalloc.h"

#define POOL       256 /* distinct run contents */
#define MAX_VALS   12
#define STALL_SLOT 0x003f
#define CHUNK      (1u << 16) /* runs recorded, then timed, at a time */

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

/* The harness's machines (struct arm_emu *), each counting on its PE 0. */
struct arm_emu_bench {
	struct hpm_emu_bench_machines m;
};

/* 0..n-1 from the splitmix64 sequence *s (the draws this bench always made) */
static unsigned rng(uint64_t *s, unsigned n)
{
	return (unsigned)(hpm_splitmix64(s) % n);
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

/* The program: every counter with a rule worth timing, on an event drawn
 * from events[0..nr_events). Even counters
 * take thresholds (every TC) or edges, odd counters link to n-1 or take
 * edges; filters vary; the first counters start just below an overflow. */
static void program(struct arm_emu *m, const uint16_t *events, unsigned nr_events, uint64_t seed)
{
	uint64_t s = seed ^ UINT64_C(0x5eed);
	struct arm_emu_pe *pe = arm_emu_pe(m, 0);
	static const unsigned edge_tc[] = {1, 2, 3, 5, 6, 7};
	static const unsigned link[][2] = {{0, 1}, {0, 2}, {1, 1}, {0, 0}}; /* TC[0], TLC */

	arm_emu_write(pe, 3, ARM_EMU_MDCR_EL3, 0, ARM_EMU_MDCR3_SPME);
	for (unsigned n = 0; n < 31; n++) {
		uint64_t evt = events[rng(&s, nr_events)];
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

/* The synthetic stream as a producer: runs of 1..max_run cycles of a pool
 * content, drawn in the order the synthetic bench always drew them. */
struct synth {
	const struct content *pool;
	uint64_t s;
	unsigned max_run;
	bool keyed;
};

static void synth_next(void *ctx, uint64_t max_cycles, struct arm_emu_run *r)
{
	struct synth *y = ctx;
	uint64_t l = 1 + rng(&y->s, y->max_run);
	if (l > max_cycles)
		l = max_cycles;
	unsigned which = rng(&y->s, POOL);
	const struct content *c = &y->pool[which];
	*r = (struct arm_emu_run){
	    .sec = ARM_EMU_SEC_NS,
	    .cycles = l,
	    .el = c->el,
	    .streaming = c->streaming,
	    .nr_vals = c->nr,
	    .vals = c->vals,
	    .pc = 0x400000u + (uint64_t)which * 4u,
	    .key = y->keyed ? (uint32_t)which + 1 : 0, /* a content per key */
	    .source = y->pool,
	};
}

/* Why f cannot run the bench program, or NULL. */
static const char *unfit(const struct arm_emu_features *f)
{
	if (f->nr_counters < 31)
		return "31 event counters";
	if (f->thwidth < 3)
		return "FEAT_PMUv3_TH with THWIDTH >= 3";
	if (!f->edge)
		return "FEAT_PMUv3_EDGE";
	if (!f->th2)
		return "FEAT_PMUv3_TH2";
	if (!f->sme)
		return "FEAT_SME";
	return NULL;
}

/* Checks one produced run against the contract of source.h and f. */
static bool run_ok(const struct arm_emu_features *f, const struct arm_emu_run *r,
                   uint64_t max_cycles, char *err, size_t errlen)
{
	if (r->cycles == 0 || r->cycles > max_cycles || r->el >= ARM_EMU_NR_EL ||
	    r->sec >= ARM_EMU_NR_SEC) {
		snprintf(err, errlen, "the stream produced a bad run (%" PRIu64 " cycles, EL%u)",
		         r->cycles, r->el);
		return false;
	}
	for (unsigned v = 0; v < r->nr_vals; v++) {
		if (r->vals[v].vb > f->slots) {
			snprintf(err, errlen,
			         "the stream delivers VB %u of event 0x%04x, above the %u slots of "
			         "feature profile %s",
			         r->vals[v].vb, r->vals[v].event, f->slots, f->name);
			return false;
		}
	}
	return true;
}

/* The recorded chunk and its producer. */
struct bench_player {
	const struct arm_emu_features *f;
	const struct arm_emu_bench_source *src;
	struct arm_emu_run *runs;
};

static uint64_t bench_record(void *ctx, size_t i, uint64_t max_cycles, char *err, size_t errlen)
{
	struct bench_player *pl = ctx;
	pl->src->next(pl->src->ctx, max_cycles, &pl->runs[i]);
	return run_ok(pl->f, &pl->runs[i], max_cycles, err, errlen) ? pl->runs[i].cycles : 0;
}

/* Plays the chunk on PE 0 of a machine, the final fold included. */
static void bench_play(void *ctx, void *m, bool ref, size_t nr)
{
	struct bench_player *pl = ctx;
	const struct arm_emu_run *runs = pl->runs;
	struct arm_emu_pe *pe = arm_emu_pe(m, 0);
	if (ref)
		for (size_t i = 0; i < nr; i++)
			arm_emu_ref_run(pe, &runs[i]);
	else
		for (size_t i = 0; i < nr; i++)
			arm_emu_run(pe, &runs[i]);
	arm_emu_sync(pe);
}

struct arm_emu_bench *arm_emu_bench_stream(const struct arm_emu_features *f,
                                           const struct arm_emu_bench_source *src, uint64_t seed,
                                           uint64_t cycles, unsigned fast_passes,
                                           struct hpm_emu_bench_result *out, char *err,
                                           size_t errlen)
{
	if (!cycles) {
		snprintf(err, errlen, "the bench needs at least 1 cycle");
		return NULL;
	}
	const char *need = unfit(f);
	if (need) {
		snprintf(err, errlen,
		         "feature profile %s cannot run the bench: its program of thresholds, "
		         "edges and linking needs %s (the future profile has them)",
		         f->name, need);
		return NULL;
	}
	if (!src->nr_events) {
		snprintf(err, errlen, "the stream delivers no event to count");
		return NULL;
	}
	if (fast_passes < 1)
		fast_passes = 1;
	if (fast_passes > HPM_EMU_BENCH_MAX_FAST)
		fast_passes = HPM_EMU_BENCH_MAX_FAST;

	struct arm_emu_bench *b = xcalloc(1, sizeof(*b));
	b->m.nr_fast = fast_passes;
	for (unsigned i = 0; i < fast_passes; i++) {
		b->m.fast[i] = arm_emu_new(f, 1, 1, err, errlen);
		program(b->m.fast[i], src->events, src->nr_events, seed);
	}
	b->m.ref = arm_emu_new(f, 1, 1, err, errlen);
	program(b->m.ref, src->events, src->nr_events, seed);

	struct bench_player pl = {.f = f, .src = src, .runs = xmalloc(CHUNK * sizeof(*pl.runs))};
	struct hpm_emu_bench_player player = {
	    .record = bench_record, .play = bench_play, .ctx = &pl};
	int ret = hpm_emu_bench_time(&b->m, &player, cycles, CHUNK, out, err, errlen);
	free(pl.runs);
	if (ret < 0) {
		arm_emu_bench_free(b);
		return NULL;
	}
	return b;
}

struct arm_emu_bench *arm_emu_bench_run(const struct arm_emu_features *f, uint64_t seed,
                                        uint64_t cycles, unsigned max_run, bool keyed,
                                        unsigned fast_passes, struct hpm_emu_bench_result *out,
                                        char *err, size_t errlen)
{
	if (max_run < 1 || max_run > 65535) {
		snprintf(err, errlen, "runs of 1 to %u cycles: the longest run is 1 to 65535",
		         max_run);
		return NULL;
	}
	struct content *pool = xcalloc(POOL, sizeof(*pool));
	struct synth y = {.pool = pool, .s = seed, .max_run = max_run, .keyed = keyed};
	make_pool(pool, &y.s);
	struct arm_emu_bench_source src = {
	    .next = synth_next, .ctx = &y, .events = bench_events, .nr_events = MAX_VALS};
	struct arm_emu_bench *b =
	    arm_emu_bench_stream(f ? f : arm_emu_features_find("future"), &src, seed, cycles,
	                         fast_passes, out, err, errlen);
	free(pool);
	return b;
}

/* Every register of PE 0, the edge state and the interrupt line of a
 * fast-path machine against the reference's. */
static void bench_compare(void *fast, void *ref, struct hpm_emu_bench_diff *d)
{
	struct arm_emu_pe *fp = arm_emu_pe(fast, 0), *rp = arm_emu_pe(ref, 0);
	for (unsigned reg = 0; reg < ARM_EMU_NR_REGS; reg++) {
		unsigned nidx = arm_emu_reg_indexed(reg) ? 31 : 1;
		for (unsigned idx = 0; idx < nidx; idx++) {
			uint64_t a = 0, r = 0;
			int ea = arm_emu_ext_read(fp, reg, idx, &a);
			int er = arm_emu_ext_read(rp, reg, idx, &r);
			char name[40];
			if (ea != er || a != r)
				hpm_emu_bench_differ(
				    d, arm_emu_reg_name(reg, idx, name, sizeof(name)), a, r);
		}
	}
	for (unsigned n = 0; n < 31; n++) {
		struct arm_emu_edge x = arm_emu_edge_get(fp, n), y = arm_emu_edge_get(rp, n);
		if (x.valid != y.valid || x.prev != y.prev)
			hpm_emu_bench_differ(d, "edge state", (uint64_t)x.prev, (uint64_t)y.prev);
	}
	if (arm_emu_irq_pending(fp) != arm_emu_irq_pending(rp))
		hpm_emu_bench_differ(d, "PMUIRQ", arm_emu_irq_pending(fp), arm_emu_irq_pending(rp));
}

unsigned arm_emu_bench_compare(struct arm_emu_bench *b, hpm_emu_bench_mismatch_fn mismatch,
                               void *ctx)
{
	return hpm_emu_bench_compare(&b->m, bench_compare, mismatch, ctx);
}

void arm_emu_bench_free(struct arm_emu_bench *b)
{
	if (!b)
		return;
	for (unsigned i = 0; i < b->m.nr_fast; i++)
		arm_emu_free(b->m.fast[i]);
	arm_emu_free(b->m.ref);
	free(b);
}
