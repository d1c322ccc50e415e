/* fastpath.c: the fast path against the per-cycle reference on random
 * programs and random streams.
 *
 * Two harts get the same random program (any 64-bit mhpmevent value:
 * reserved ops, reserved bits, INH bits, OF, indices in and out of the
 * tables; random mcountinhibit; counters close to 2^64 so they wrap) and the
 * same random stream (random modes, lengths, keyed and unkeyed runs,
 * reprogramming and interrupt clearing in between). Hart 0 counts with
 * emu_hart_run(), hart 1 with emu_ref_run(); every CSR must agree. The
 * expectation is the reference, which is written from the spec (see
 * reference.c) and checked against hand-computed values in count.c.
 */
#include "config.h"

#include <stdlib.h>

#include "emu-test.h"

#define TRIALS         1000
#define POOL           8 /* keyed contents per trial */
#define RUNS_PER_TRIAL 120

static uint64_t rng_state;

static uint64_t rnd(void) /* splitmix64: reproducible on every libc */
{
	uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static unsigned rndn(unsigned n)
{
	return (unsigned)(rnd() % n);
}

/* Indices a random program uses: mostly 1..12 so streams hit them. */
static unsigned rnd_index(void)
{
	switch (rndn(8)) {
	case 0:
		return 0;
	case 1:
		return (unsigned)rnd() & 0x3ffu; /* anything, often out of the table */
	default:
		return 1 + rndn(12);
	}
}

static uint64_t rnd_event(void)
{
	uint64_t v = rnd(); /* every field random, then bias the indices */
	for (unsigned k = 0; k < 4; k++) {
		v &= ~(UINT64_C(0x3ff) << (10 * k));
		v |= (uint64_t)rnd_index() << (10 * k);
	}
	if (rndn(2)) /* half the time legal ops only, as an encoder writes */
		for (unsigned n = 0; n < 3; n++) {
			static const unsigned legal[4] = {0, 1, 2, 4};
			v &= ~(UINT64_C(0x1f) << (40 + 5 * n));
			v |= (uint64_t)legal[rndn(4)] << (40 + 5 * n);
		}
	if (rndn(3) == 0) /* fewer INH bits, more counting */
		v &= ~KMH_INH_MASK;
	return v;
}

static void both_write(struct emu_hart *a, struct emu_hart *b, unsigned csr, uint64_t v)
{
	wr(a, csr, v);
	wr(b, csr, v);
}

struct content {
	uint8_t vals[KMH_NR_BANKS][1024];
	uint8_t instret;
};

static void rnd_content(struct content *c)
{
	memset(c, 0, sizeof(*c));
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		if (rndn(6) == 0)
			continue; /* a bank left all zero */
		for (unsigned i = 1; i <= 12; i++)
			c->vals[b][i] = rndn(3) ? (uint8_t)rndn(64) : 0;
		for (unsigned k = 0; k < 3; k++) /* some noise elsewhere in the table */
			c->vals[b][1 + rndn(kmh_table_v2.banks[b].nr_events - 1)] =
			    (uint8_t)rndn(64);
	}
	c->instret = (uint8_t)rndn(7);
}

static struct emu_run content_run(const struct content *c, uint64_t cycles, unsigned mode,
                                  uint32_t key, const void *src, bool null_banks)
{
	struct emu_run r;
	memset(&r, 0, sizeof(r));
	r.cycles = cycles;
	r.mode = (uint8_t)mode;
	r.instret = c->instret;
	r.key = key;
	r.source = src;
	for (int b = 0; b < KMH_NR_BANKS; b++)
		r.vals[b] = null_banks && b == KMH_BANK_CACHE ? NULL : c->vals[b];
	return r;
}

static unsigned compare(struct emu_hart *fast, struct emu_hart *ref, unsigned trial)
{
	unsigned bad = 0;
	for (int i = 0; emu_csr_at((unsigned)i) >= 0; i++) {
		unsigned csr = (unsigned)emu_csr_at((unsigned)i);
		uint64_t a, b;
		emu_hart_csr_read(fast, EMU_MODE_M, csr, &a);
		emu_hart_csr_read(ref, EMU_MODE_M, csr, &b);
		if (a != b) {
			if (bad++ < 4)
				tap_diag("trial %u: %s fast 0x%016llx reference 0x%016llx", trial,
				         emu_csr_name(csr), (unsigned long long)a,
				         (unsigned long long)b);
		}
	}
	return bad;
}

int main(void)
{
	static struct content pool[POOL], loose;
	unsigned failed = 0, wraps = 0, checks = 0;
	uint64_t cycles_total = 0;

	rng_state = 20240601;
	for (unsigned trial = 0; trial < TRIALS; trial++) {
		struct emu *emu = emu_new(2);
		struct emu_hart *fast = emu_hart(emu, 0), *ref = emu_hart(emu, 1);
		int src; /* this trial's key space */
		unsigned bad = 0;

		for (unsigned n = 3; n <= 31; n++) {
			both_write(fast, ref, EMU_CSR_MHPMEVENT(n), rnd_event());
			uint64_t start = rndn(3) ? UINT64_MAX - rndn(3000) : rnd();
			both_write(fast, ref, EMU_CSR_MHPMCOUNTER(n), start);
		}
		both_write(fast, ref, EMU_CSR_MCOUNTINHIBIT, rndn(4) ? rnd() & rnd() : 0);
		both_write(fast, ref, EMU_CSR_MCYCLE, UINT64_MAX - rndn(5000));
		both_write(fast, ref, EMU_CSR_MINSTRET, rnd());
		for (unsigned k = 0; k < POOL; k++)
			rnd_content(&pool[k]);

		for (unsigned r = 0; r < RUNS_PER_TRIAL; r++) {
			uint64_t cycles = rndn(10) ? 1 + rndn(40) : 1 + rndn(400);
			unsigned mode = rndn(EMU_NR_MODES);
			struct emu_run run;
			bool nullb = rndn(8) == 0;
			if (rndn(4) == 0) { /* unkeyed, fresh values */
				rnd_content(&loose);
				run = content_run(&loose, cycles, mode, 0, &src, nullb);
			} else {
				unsigned k = rndn(POOL);
				/* null banks must be part of the key's promise */
				/* small keys (as sources number their contents) and large ones */
				uint32_t key = trial % 2 ? k + 1 : (k + 1) * 0x10001u + 300;
				run = content_run(&pool[k], cycles, mode, key, &src, k == 0);
			}
			emu_hart_run(fast, &run);
			emu_ref_run(ref, &run);
			cycles_total += cycles;

			switch (rndn(40)) {
			case 0: { /* reprogram one counter */
				unsigned n = 3 + rndn(29);
				both_write(fast, ref, EMU_CSR_MHPMEVENT(n), rnd_event());
				break;
			}
			case 1:
				both_write(fast, ref, EMU_CSR_MCOUNTINHIBIT, rnd() & rnd());
				break;
			case 2:
				emu_hart_csr_clear(fast, EMU_MODE_M, EMU_CSR_MIP, EMU_MIP_LCOFIP);
				emu_hart_csr_clear(ref, EMU_MODE_M, EMU_CSR_MIP, EMU_MIP_LCOFIP);
				break;
			case 3: { /* software clears one OF */
				unsigned n = 3 + rndn(29);
				emu_hart_csr_clear(fast, EMU_MODE_M, EMU_CSR_MHPMEVENT(n), KMH_OF);
				emu_hart_csr_clear(ref, EMU_MODE_M, EMU_CSR_MHPMEVENT(n), KMH_OF);
				break;
			}
			case 4: /* a mid-stream comparison (also forces a fold) */
				bad += compare(fast, ref, trial);
				checks++;
				break;
			default:
				break;
			}
		}
		bad += compare(fast, ref, trial);
		checks++;
		uint64_t ovf;
		emu_hart_csr_read(ref, EMU_MODE_M, EMU_CSR_SCOUNTOVF, &ovf);
		wraps += ovf != 0;
		if (bad)
			failed++;
		if (trial % 100 == 99) {
			tap_ok(failed == 0, "trials %u-%u: fast path == reference on every CSR",
			       trial - 99, trial);
			failed = 0;
		}
		emu_free(emu);
	}
	tap_diag("%u trials, %u comparisons, %llu cycles, %u x 29 random mhpmevent values", TRIALS,
	         checks, (unsigned long long)cycles_total, TRIALS);
	tap_ok(wraps > TRIALS / 2, "the random programs exercised overflow (%u of %u trials)",
	       wraps, TRIALS);
	return tap_done();
}
