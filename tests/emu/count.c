/* count.c: counting (SPEC §1 and §2) with hand-computed expectations, each
 * checked on the three ways a run can be counted: the fast path without a
 * key, the fast path with a key (cache and batch), and the per-cycle
 * reference. Also overflow at 2^64, the identities of SPEC §1 on random
 * streams, and the cache's source rules.
 */
#include "config.h"

#include <stdlib.h>

#include "emu-test.h"

enum path { DIRECT, KEYED, REF, NR_PATHS };
static const char *const path_name[] = {"fast path, no key", "fast path, keyed", "reference"};

static int keyed_source; /* the identity of the keyed runs below */
static uint32_t next_key = 1;

/* Counts `run` along `path`. The keyed path splits it in two runs with the
 * same key, so the second one is a cache hit. */
static void count(struct emu_hart *h, struct emu_run run, enum path path)
{
	switch (path) {
	case DIRECT:
		run.key = 0;
		emu_hart_run(h, &run);
		break;
	case KEYED: {
		uint64_t all = run.cycles;
		run.key = next_key++;
		run.source = &keyed_source;
		run.cycles = all / 2;
		emu_hart_run(h, &run);
		run.cycles = all - all / 2;
		emu_hart_run(h, &run);
		break;
	}
	default:
		emu_ref_run(h, &run);
		break;
	}
}

#define END -1
#define FE  KMH_BANK_FRONTEND
#define BE  KMH_BANK_BACKEND
#define MB  KMH_BANK_MEMBLOCK
#define CA  KMH_BANK_CACHE

static uint64_t ev1(unsigned a)
{
	return a;
}

static uint64_t ev(unsigned e0, unsigned e1, unsigned e2, unsigned e3, unsigned op0, unsigned op1,
                   unsigned op2)
{
	return (uint64_t)e0 | (uint64_t)e1 << 10 | (uint64_t)e2 << 20 | (uint64_t)e3 << 30 |
	       (uint64_t)op0 << 40 | (uint64_t)op1 << 45 | (uint64_t)op2 << 50;
}

static void test_ops(enum path p)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	/* a = 44 (0b101100), b = 26 (0b011010), c = 3, d = 12 */
	const int vals[] = {FE, 2, 44, FE, 3, 26, FE, 4, 3, FE, 5, 12, END};

	wr(h, EMU_CSR_MHPMEVENT(3), ev1(2));                           /* a */
	wr(h, EMU_CSR_MHPMEVENT(4), ev(2, 3, 0, 0, KMH_OP_OR, 0, 0));  /* a|b = 62 */
	wr(h, EMU_CSR_MHPMEVENT(5), ev(2, 3, 0, 0, KMH_OP_AND, 0, 0)); /* a&b = 8 */
	wr(h, EMU_CSR_MHPMEVENT(6), ev(2, 3, 0, 0, KMH_OP_XOR, 0, 0)); /* a^b = 54 */
	wr(h, EMU_CSR_MHPMEVENT(7), ev(2, 3, 0, 0, KMH_OP_ADD, 0, 0)); /* 70 % 64 = 6 */
	wr(h, EMU_CSR_MHPMEVENT(8),
	   ev(2, 3, 4, 5, KMH_OP_ADD, KMH_OP_OR, KMH_OP_XOR)); /* 6^15 = 9 */
	wr(h, EMU_CSR_MHPMEVENT(9),
	   ev(2, 3, 4, 5, KMH_OP_AND, KMH_OP_ADD, KMH_OP_AND)); /* 8&15 = 8 */
	wr(h, EMU_CSR_MHPMEVENT(10),
	   ev(2, 0, 4, 0, KMH_OP_OR, KMH_OP_OR, KMH_OP_AND)); /* 44&3 = 0 */
	count(h, mkrun(10, EMU_MODE_HU, 0, vals), p);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(3)), 440, "%s: a = 44 x 10 cycles", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(4)), 620, "%s: a|b = 62 per cycle", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(5)), 80, "%s: a&b = 8 per cycle", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(6)), 540, "%s: a^b = 54 per cycle", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(7)), 60, "%s: a+b = 70 mod 64 = 6 per cycle",
	           path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(8)), 90, "%s: (a+b)^(c|d) = 6^15 = 9 per cycle",
	           path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(9)), 80, "%s: (a&b)&(c+d) = 8&15 = 8 per cycle",
	           path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(10)), 0, "%s: (a|0)&(c|0) = 44&3 = 0 per cycle",
	           path_name[p]);
	emu_free(emu);
}

static void test_banks(enum path p)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	/* index 2 of each bank delivers a different value (cache index 2,
	 * Slice0_l2_cache_rd_refill, is wired to index 1's signal on the RTL:
	 * index 1 carries the same value) */
	const int vals[] = {FE, 2, 1, BE, 2, 2, MB, 2, 3, CA, 1, 4, CA, 2, 4, END};
	static const unsigned first[4] = {3, 11, 19, 27}, last[4] = {10, 18, 26, 31};

	for (unsigned n = 3; n <= 31; n++)
		wr(h, EMU_CSR_MHPMEVENT(n), ev1(2));
	count(h, mkrun(100, EMU_MODE_HS, 0, vals), p);
	for (unsigned b = 0; b < 4; b++) {
		bool good = true;
		for (unsigned n = first[b]; n <= last[b]; n++)
			good &= rd(h, EMU_CSR_MHPMCOUNTER(n)) == 100 * (b + 1);
		tap_ok(good, "%s: mhpmcounter%u-%u see bank %u's event 2", path_name[p], first[b],
		       last[b], b);
	}
	emu_free(emu);
}

/* XiangShan's RTL, not the event names (../shared/xiangshan/README.md):
 * frontend 6 (ifu_req_cacheline_0_hit) is wired to index 7's signal, cache
 * 2 (Slice0_l2_cache_rd_refill) to index 1's (Slice0_l2_cache_refill);
 * frontend 20 (IBuffer_full) and 24 (icache_miss_penalty), backend 43
 * (dispatch_stall_cycle_lsq) and cache 3 (Slice0_l2_cache_wr_refill) read 0
 * whatever their own signal carries, and cache 68 (Slice3_l2_cache_inv) is
 * past what the CSR copies, so nothing drives it. Each fed signal carries
 * its own value, so a counter that reads the wrong one shows it. */
static void test_rtl_wiring(enum path p)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	const int vals[] = {FE, 6,  5, FE, 7,  9, FE, 20, 11, FE, 24, 13, BE, 43,
	                    17, CA, 1, 19, CA, 2, 23, CA, 3,  29, CA, 68, 31, END};

	wr(h, EMU_CSR_MHPMEVENT(3), ev1(6));
	wr(h, EMU_CSR_MHPMEVENT(4), ev1(7));
	wr(h, EMU_CSR_MHPMEVENT(5), ev1(20));
	wr(h, EMU_CSR_MHPMEVENT(6), ev1(24));
	wr(h, EMU_CSR_MHPMEVENT(11), ev1(43));
	wr(h, EMU_CSR_MHPMEVENT(27), ev1(2));
	wr(h, EMU_CSR_MHPMEVENT(28), ev1(3));
	wr(h, EMU_CSR_MHPMEVENT(29), ev1(68));
	wr(h, EMU_CSR_MHPMEVENT(30), ev(2, 3, 0, 0, KMH_OP_ADD, 0, 0));
	count(h, mkrun(10, EMU_MODE_HU, 0, vals), p);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(3)), 90,
	           "%s: ifu_req_cacheline_0_hit counts cacheline 1's hits (index 7)", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(4)), 90, "%s: ifu_req_cacheline_1_hit itself",
	           path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(5)), 0, "%s: IBuffer_full never counts", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(6)), 0, "%s: icache_miss_penalty reads 0",
	           path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(11)), 0, "%s: dispatch_stall_cycle_lsq reads 0",
	           path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(27)), 190,
	           "%s: Slice0_l2_cache_rd_refill counts Slice0_l2_cache_refill", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(28)), 0, "%s: Slice0_l2_cache_wr_refill reads 0",
	           path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(29)), 0,
	           "%s: cache 68, past the CSR's 68 entries, invents no count", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(30)), 190, "%s: rd_refill + wr_refill = refill",
	           path_name[p]);
	emu_free(emu);
}

static void test_noevent_and_range(enum path p)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	/* a misbehaving source: drives noEvent, writes past the table (58, 1023:
	 * the array has room), gives a value beyond 6 bits */
	const int vals[] = {FE, 0, 9,  FE,   2, 5,  FE, 57,     7,  FE,
	                    58, 9, FE, 1023, 9, BE, 3,  64 + 3, END};

	wr(h, EMU_CSR_MHPMEVENT(3), ev(0, 2, 0, 0, KMH_OP_ADD, 0, 0)); /* noEvent + a */
	wr(h, EMU_CSR_MHPMEVENT(4),
	   ev(58, 2, 0, 0, KMH_OP_ADD, 0, 0)); /* 58: first index past the table */
	wr(h, EMU_CSR_MHPMEVENT(5), ev(1023, 2, 0, 0, KMH_OP_ADD, 0, 0)); /* 1023 */
	wr(h, EMU_CSR_MHPMEVENT(6), ev1(57)); /* last index in the table */
	wr(h, EMU_CSR_MHPMEVENT(11), ev1(3));
	count(h, mkrun(10, EMU_MODE_HU, 0, vals), p);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(3)), 50, "%s: noEvent delivers 0", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(4)), 50, "%s: index 58 (past frontend's 58) counts 0",
	           path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(5)), 50, "%s: index 1023 counts 0", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(6)), 70, "%s: index 57 is in the table", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(11)), 30, "%s: a value is taken modulo 64",
	           path_name[p]);
	emu_free(emu);
}

static void test_inh(enum path p)
{
	static const uint64_t inh[EMU_NR_MODES] = {KMH_MINH, KMH_SINH, KMH_UINH, KMH_VSINH,
	                                           KMH_VUINH};
	static const char *const names[] = {"MINH", "SINH", "UINH", "VSINH", "VUINH"};
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	const int vals[] = {FE, 2, 1, END};

	/* counter 3+k inhibits mode k; counter 8 inhibits all five */
	for (unsigned k = 0; k < EMU_NR_MODES; k++)
		wr(h, EMU_CSR_MHPMEVENT(3 + k), ev1(2) | inh[k]);
	wr(h, EMU_CSR_MHPMEVENT(8), ev1(2) | KMH_INH_MASK);
	/* mode m runs 10^m cycles, so each total names its modes */
	static const uint64_t cyc[EMU_NR_MODES] = {1, 10, 100, 1000, 10000};
	for (unsigned m = 0; m < EMU_NR_MODES; m++)
		count(h, mkrun(cyc[m], (enum emu_mode)m, 1, vals), p);
	for (unsigned k = 0; k < EMU_NR_MODES; k++)
		tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(3 + k)), 11111 - cyc[k],
		           "%s: %s stops counting in %s only", path_name[p], names[k],
		           emu_mode_name(k));
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(8)), 0, "%s: all INH bits: counts nowhere",
	           path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MCYCLE), 11111, "%s: mcycle counts in every mode", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MINSTRET), 11111, "%s: minstret counts in every mode",
	           path_name[p]);
	emu_free(emu);
}

static void test_mcountinhibit(enum path p)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	const int vals[] = {FE, 2, 1, END};

	wr(h, EMU_CSR_MHPMEVENT(3), ev1(2));
	wr(h, EMU_CSR_MHPMEVENT(4), ev1(2));
	count(h, mkrun(10, EMU_MODE_M, 3, vals), p);
	wr(h, EMU_CSR_MCOUNTINHIBIT, EMU_CNT_HPM(4) | EMU_CNT_CY);
	count(h, mkrun(100, EMU_MODE_M, 3, vals), p);
	wr(h, EMU_CSR_MCOUNTINHIBIT, EMU_CNT_IR);
	count(h, mkrun(1000, EMU_MODE_M, 3, vals), p);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(3)), 1110, "%s: mhpmcounter3 never inhibited",
	           path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(4)), 1010, "%s: mcountinhibit.HPM4 stops counter 4",
	           path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MCYCLE), 1010, "%s: mcountinhibit.CY stops mcycle", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MINSTRET), 330,
	           "%s: minstret += instret x cycles; mcountinhibit.IR stops it", path_name[p]);
	emu_free(emu);
}

static void test_overflow(enum path p)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	const int vals[] = {FE, 2, 5, END};

	wr(h, EMU_CSR_MHPMEVENT(3), ev1(2));
	wr(h, EMU_CSR_MHPMEVENT(4), ev1(2) | KMH_OF);
	wr(h, EMU_CSR_MHPMCOUNTER(3), UINT64_MAX - 9); /* 10 below the wrap */
	wr(h, EMU_CSR_MHPMCOUNTER(4), UINT64_MAX - 9);
	wr(h, EMU_CSR_MCYCLE, UINT64_MAX);
	wr(h, EMU_CSR_MINSTRET, UINT64_MAX);
	count(h, mkrun(1, EMU_MODE_HU, 1, vals), p);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(3)), UINT64_MAX - 4, "%s: 5 below the wrap",
	           path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMEVENT(3)) & KMH_OF, 0, "%s: no OF before the wrap",
	           path_name[p]);
	tap_is_u64(emu_hart_mip(h), 0, "%s: mcycle/minstret wrapping raise nothing", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MCYCLE), 0, "%s: mcycle wraps to 0", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MINSTRET), 0, "%s: minstret wraps to 0", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_SCOUNTOVF), 0x10, "%s: no OF from mcycle/minstret", path_name[p]);

	count(h, mkrun(1, EMU_MODE_HU, 0, vals), p); /* exactly 2^64 */
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(3)), 0, "%s: 2^64 wraps to 0", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMEVENT(3)), ev1(2) | KMH_OF, "%s: the wrap sets OF",
	           path_name[p]);
	tap_is_u64(emu_hart_mip(h), EMU_MIP_LCOFIP, "%s: ... and LCOFIP (bit 13)", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMEVENT(4)), ev1(2) | KMH_OF, "%s: OF already set stays set",
	           path_name[p]);

	emu_hart_csr_clear(h, EMU_MODE_M, EMU_CSR_MIP, EMU_MIP_LCOFIP);
	wr(h, EMU_CSR_MHPMCOUNTER(4), UINT64_MAX);
	count(h, mkrun(1, EMU_MODE_HU, 0, vals), p);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(4)), 4, "%s: counter 4 wraps to 4", path_name[p]);
	tap_is_u64(emu_hart_mip(h), 0, "%s: a wrap with OF already set raises no interrupt",
	           path_name[p]);

	count(h, mkrun(10, EMU_MODE_HU, 0, vals), p);
	tap_is_u64(emu_hart_mip(h), 0, "%s: counting on does not raise LCOFIP", path_name[p]);
	emu_hart_csr_set(h, EMU_MODE_M, EMU_CSR_MIP, EMU_MIP_LCOFIP);
	count(h, mkrun(10, EMU_MODE_HU, 0, vals), p);
	tap_is_u64(emu_hart_mip(h), EMU_MIP_LCOFIP, "%s: LCOFIP stays set until software clears it",
	           path_name[p]);
	emu_hart_csr_clear(h, EMU_MODE_M, EMU_CSR_MIP, EMU_MIP_LCOFIP);

	/* software clears OF: the next wrap interrupts again */
	wr(h, EMU_CSR_MHPMEVENT(3), ev1(2));
	wr(h, EMU_CSR_MHPMCOUNTER(3), UINT64_MAX);
	count(h, mkrun(3, EMU_MODE_HU, 0, vals), p);
	tap_ok(rd(h, EMU_CSR_MHPMCOUNTER(3)) == 14 && (rd(h, EMU_CSR_MHPMEVENT(3)) & KMH_OF) &&
	           emu_hart_mip(h) == EMU_MIP_LCOFIP,
	       "%s: after OF is cleared, the next wrap sets OF and LCOFIP again", path_name[p]);

	/* an inhibited counter does not wrap */
	wr(h, EMU_CSR_MHPMEVENT(5), ev1(2) | KMH_UINH);
	wr(h, EMU_CSR_MHPMCOUNTER(5), UINT64_MAX);
	count(h, mkrun(3, EMU_MODE_HU, 0, vals), p);
	tap_ok(rd(h, EMU_CSR_MHPMCOUNTER(5)) == UINT64_MAX &&
	           !(rd(h, EMU_CSR_MHPMEVENT(5)) & KMH_OF),
	       "%s: a counter inhibited in the mode neither counts nor wraps", path_name[p]);
	emu_free(emu);
}

/* Runs far beyond 2^58 cycles: the fast path's products must stay exact. */
static void test_huge(enum path p)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	const int vals[] = {FE, 2, 63, FE, 3, 1, END};

	wr(h, EMU_CSR_MHPMEVENT(3), ev1(2));
	wr(h, EMU_CSR_MHPMEVENT(4), ev1(3));
	count(h, mkrun(UINT64_C(1) << 63, EMU_MODE_HS, 63, vals), p);
	/* 63 x 2^63 = 2^69 - 2^63 = 2^63 (mod 2^64) */
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(3)), UINT64_C(1) << 63, "%s: 63 x 2^63 cycles",
	           path_name[p]);
	tap_ok(rd(h, EMU_CSR_MHPMEVENT(3)) & KMH_OF, "%s: ... wrapped (OF)", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(4)), UINT64_C(1) << 63,
	           "%s: 1 x 2^63 cycles does not wrap", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MHPMEVENT(4)) & KMH_OF, 0, "%s: ... no OF", path_name[p]);
	tap_is_u64(rd(h, EMU_CSR_MINSTRET), UINT64_C(1) << 63, "%s: minstret 63 x 2^63 mod 2^64",
	           path_name[p]);
	count(h, mkrun(UINT64_C(1) << 63, EMU_MODE_HS, 0, vals), p);
	tap_ok(rd(h, EMU_CSR_MHPMCOUNTER(4)) == 0 && (rd(h, EMU_CSR_MHPMEVENT(4)) & KMH_OF),
	       "%s: 2 x 2^63 cycles of 1 wrap exactly to 0", path_name[p]);
	count(h, mkrun(UINT64_MAX, EMU_MODE_HS, 0, vals), p);
	tap_is_u64(rd(h, EMU_CSR_MCYCLE), UINT64_MAX, "%s: mcycle = 2^64 + 2^64-1 mod 2^64",
	           path_name[p]);

	/* one run whose product wraps once: 63 x 2^62 = 3 x 2^62 + 2^64 */
	wr(h, EMU_CSR_MHPMEVENT(5), ev1(2));
	count(h, mkrun(UINT64_C(1) << 62, EMU_MODE_HS, 0, vals), p);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(5)), UINT64_C(3) << 62, "%s: 63 x 2^62 cycles",
	           path_name[p]);
	tap_ok(rd(h, EMU_CSR_MHPMEVENT(5)) & KMH_OF, "%s: ... wrapped once (OF)", path_name[p]);
	emu_free(emu);
}

/* SPEC §1: count(a|b) + count(a&b) == count(a) + count(b) and
 * count(a^b) == count(a|b) - count(a&b), on random per-cycle values. */
static void test_identities(void)
{
	srand(12345);
	for (unsigned trial = 0; trial < 40; trial++) {
		struct emu *emu = emu_new(1);
		struct emu_hart *h = emu_hart(emu, 0);
		enum path p = (enum path)(trial % NR_PATHS);
		unsigned bank = trial % 4, base = 3 + 8 * bank;
		unsigned a = 1 + (unsigned)rand() % 5, b = 6 + (unsigned)rand() % 5;

		wr(h, EMU_CSR_MHPMEVENT(base), ev(a, b, 0, 0, KMH_OP_OR, 0, 0));
		wr(h, EMU_CSR_MHPMEVENT(base + 1), ev(a, b, 0, 0, KMH_OP_AND, 0, 0));
		wr(h, EMU_CSR_MHPMEVENT(base + 2), ev1(a));
		wr(h, EMU_CSR_MHPMEVENT(base + 3), ev1(b));
		wr(h, EMU_CSR_MHPMEVENT(base + 4), ev(a, b, 0, 0, KMH_OP_XOR, 0, 0));
		for (unsigned r = 0; r < 300; r++) {
			int vals[] = {(int)bank, (int)a,      rand() % 64, (int)bank,
			              (int)b,    rand() % 64, END};
			count(h,
			      mkrun(1 + (uint64_t)(rand() % 40), (enum emu_mode)(rand() % 5), 0,
			            vals),
			      p);
		}
		uint64_t or_ = rd(h, EMU_CSR_MHPMCOUNTER(base)),
		         and_ = rd(h, EMU_CSR_MHPMCOUNTER(base + 1)),
		         ca = rd(h, EMU_CSR_MHPMCOUNTER(base + 2)),
		         cb = rd(h, EMU_CSR_MHPMCOUNTER(base + 3)),
		         xor_ = rd(h, EMU_CSR_MHPMCOUNTER(base + 4));
		tap_ok(or_ + and_ == ca + cb && xor_ == or_ - and_ && or_ > 0,
		       "%s, bank %u: count(a|b)+count(a&b) = count(a)+count(b) (%llu), "
		       "count(a^b) = count(a|b)-count(a&b) (%llu)",
		       path_name[p], bank, (unsigned long long)(ca + cb), (unsigned long long)xor_);
		emu_free(emu);
	}
}

/* Keys are only comparable within one source, and a forgotten source's keys
 * are gone. */
static void test_sources(void)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	int src_a, src_b;
	const int va[] = {FE, 2, 1, END}, vb[] = {FE, 2, 2, END};

	wr(h, EMU_CSR_MHPMEVENT(3), ev1(2));
	struct emu_run r = mkrun(10, EMU_MODE_HS, 0, va);
	r.key = 7, r.source = &src_a;
	emu_hart_run(h, &r);
	r = mkrun(10, EMU_MODE_HS, 0, vb);
	r.key = 7, r.source = &src_b;
	emu_hart_run(h, &r);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(3)), 30,
	           "the same key from another source is another run");
	emu_forget_source(emu, &src_b);
	r = mkrun(10, EMU_MODE_HS, 0, va);
	r.key = 7, r.source = &src_b; /* a new source at the old address */
	emu_hart_run(h, &r);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(3)), 40, "a forgotten source's keys are not reused");
	r = mkrun(10, EMU_MODE_HS, 0, vb);
	r.key = 7, r.source = &src_b;
	emu_hart_run(h, &r); /* promise kept by the caller: key 7 is va */
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(3)), 50, "a known key uses the cached result");
	wr(h, EMU_CSR_MHPMEVENT(3), ev(2, 0, 0, 0, KMH_OP_OR, 0, KMH_OP_ADD));
	r = mkrun(10, EMU_MODE_HS, 0, vb);
	r.key = 7, r.source = &src_b;
	emu_hart_run(h, &r);
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(3)), 70, "an mhpmevent write empties the cache");
	emu_free(emu);
}

/* More keys than the cache holds: it grows, then starts over, and every run
 * is still counted with its own values. */
static void test_many_keys(void)
{
	struct emu *emu = emu_new(1);
	struct emu_hart *h = emu_hart(emu, 0);
	static uint8_t vals[64][64];
	int src;
	const unsigned nr = 70000; /* > 2^16 entries */
	uint64_t want = 0;

	for (unsigned v = 0; v < 64; v++)
		vals[v][2] = (uint8_t)v;
	wr(h, EMU_CSR_MHPMEVENT(3), ev1(2));
	for (unsigned pass = 0; pass < 2; pass++)
		for (unsigned k = 1; k <= nr; k++) {
			struct emu_run r;
			memset(&r, 0, sizeof(r));
			r.cycles = 1 + k % 3;
			r.key = k * 7919u; /* 7919 is prime: distinct keys, small and large */
			r.source = &src;
			r.mode = EMU_MODE_HU;
			r.vals[KMH_BANK_FRONTEND] = vals[k % 64];
			emu_hart_run(h, &r);
			want += (1 + k % 3) * (k % 64);
		}
	tap_is_u64(rd(h, EMU_CSR_MHPMCOUNTER(3)), want, "70000 keys, twice: every run counted");
	/* sum of 1 + k % 3 for k = 1..70000 is 70000 + 70000 */
	tap_is_u64(rd(h, EMU_CSR_MCYCLE), 2 * 140000, "... and every cycle");
	emu_free(emu);
}

int main(void)
{
	for (unsigned p = 0; p < NR_PATHS; p++) {
		test_ops((enum path)p);
		test_banks((enum path)p);
		test_rtl_wiring((enum path)p);
		test_noevent_and_range((enum path)p);
		test_inh((enum path)p);
		test_mcountinhibit((enum path)p);
		test_overflow((enum path)p);
		if (p != REF) /* 2^63 cycles one by one would take centuries */
			test_huge((enum path)p);
	}
	test_identities();
	test_sources();
	test_many_keys();
	return tap_done();
}
