/* count.c: every field of PMEVTYPER<n>_EL0 against per-cycle streams
 * worked out by hand from SPEC §5 (the arithmetic is in the comments),
 * on the fast path and on the per-cycle reference: the eight TC values
 * with TH 0 and TH 2, every edge mode with the first-cycle rule, every
 * TLC combination, the filters in every exception level and security
 * state, VS, and MT with two PEs per core.
 */
#include "arm-emu-test.h"

#define NS    ARM_EMU_SEC_NS
#define S     ARM_EMU_SEC_S
#define REALM ARM_EMU_SEC_REALM
#define ROOT  ARM_EMU_SEC_ROOT
#define CNT   ARM_EMU_PMEVCNTR_EL0

/* The stream of the threshold tests: STALL_SLOT's VB in eight cycles. */
static const unsigned vb_stream[8] = {0, 1, 2, 3, 4, 2, 0, 5};

/* Counter n = TC (0..7), all with the same TH, over vb_stream, each value
 * lasting `len` cycles (runs of identical cycles: the total is len times
 * the one-cycle total). */
static void thresholds(unsigned th, const uint64_t want[8], uint64_t len)
{
	struct pair p = pair_new("future", 1, 1);
	for (unsigned tc = 0; tc < 8; tc++)
		pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, tc, typer(tc, 0, 0, th, EV_STALL_SLOT));
	penable(&p, 0, 0xff, 0);
	for (unsigned c = 0; c < 8; c++)
		prun(&p, 0, 1, NS, false, len, 1, EV_STALL_SLOT, vb_stream[c]);
	for (unsigned tc = 0; tc < 8; tc++)
		pis(&p, 0, CNT, tc, want[tc] * len, "TC=%u%u%u TH=%u, runs of %llu cycles", tc >> 2,
		    (tc >> 1) & 1, tc & 1, th, (unsigned long long)len);
	pair_free(&p);
}

static void test_thresholds(void)
{
	/* vb_stream = 0 1 2 3 4 2 0 5, sum 17, TH = 2:
	 *  TC 000 VB != 2, add VB: 0+1+3+4+0+5 = 13
	 *  TC 001 VB != 2, add 1:  cycles 0,1,3,4,6,7 = 6
	 *  TC 010 VB == 2, add VB: 2+2 = 4
	 *  TC 011 VB == 2, add 1:  2
	 *  TC 100 VB >= 2, add VB: 2+3+4+2+5 = 16
	 *  TC 101 VB >= 2, add 1:  5
	 *  TC 110 VB < 2, add VB:  0+1+0 = 1
	 *  TC 111 VB < 2, add 1:   cycles 0,1,6 = 3 */
	static const uint64_t th2[8] = {13, 6, 4, 2, 16, 5, 1, 3};
	/* TH = 0:
	 *  000 VB != 0 add VB: 17 (no threshold: every VB)
	 *  001 VB != 0 add 1: 6 (cycles 1,2,3,4,5,7)
	 *  010 VB == 0 add VB: 0;  011 VB == 0 add 1: 2
	 *  100 VB >= 0 add VB: 17; 101: 8 (every cycle)
	 *  110 VB < 0: never, 0;   111: 0 */
	static const uint64_t th0[8] = {17, 6, 0, 2, 17, 8, 0, 0};
	thresholds(2, th2, 1);
	thresholds(0, th0, 1);
	thresholds(2, th2, 7);
	thresholds(0, th0, 1000);
}

/* The edge stream: VB of STALL_SLOT per cycle, TH = 2. */
static const unsigned edge_stream[9] = {2, 2, 3, 1, 2, 2, 0, 0, 5};

static void edges(uint64_t len)
{
	/* Ct per cycle (cycles 0..8, VB 2 2 3 1 2 2 0 0 5):
	 *  NE (VB != 2): F F T T F F T T T
	 *  EQ (VB == 2): T T F F T T F F F
	 *  GE (VB >= 2): T T T F T T F F T
	 *  LT (VB <  2): F F F T F F T T F
	 * No edge in cycle 0 (the first cycle after the counter is enabled).
	 *  TC 001 rising NE (equal -> not equal): cycles 2, 6       = 2
	 *  TC 010 EQ either way:                  cycles 2, 4, 6    = 3
	 *  TC 011 rising EQ (not equal -> equal): cycle 4           = 1
	 *  TC 101 rising GE (less -> >=):         cycles 4, 8       = 2
	 *  TC 110 LT either way:                  cycles 3, 4, 6, 8 = 4
	 *  TC 111 rising LT (>= -> less):         cycles 3, 6       = 2
	 *  TC 000 and 100 with TE=1 are reserved: 0.
	 * Runs of len identical cycles have the same edges: the condition
	 * does not change inside a run. */
	static const uint64_t want[8] = {0, 2, 3, 1, 0, 2, 4, 2};
	struct pair p = pair_new("future", 1, 1);
	for (unsigned tc = 0; tc < 8; tc++)
		pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, tc, typer(tc, 1, 0, 2, EV_STALL_SLOT));
	penable(&p, 0, 0xff, 0);
	for (unsigned c = 0; c < 9; c++)
		prun(&p, 0, 1, NS, false, len, 1, EV_STALL_SLOT, edge_stream[c]);
	for (unsigned tc = 0; tc < 8; tc++)
		pis(&p, 0, CNT, tc, want[tc], "edge TC=%u%u%u TH=2, runs of %llu cycles", tc >> 2,
		    (tc >> 1) & 1, tc & 1, (unsigned long long)len);
	pair_free(&p);
}

static void test_first_cycle(void)
{
	/* Counter 0: TE=1 TC=001 (rising edge of VB != 2), TH=2. */
	struct pair p = pair_new("future", 1, 1);
	uint64_t t = typer(1, 1, 0, 2, EV_STALL_SLOT);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 0, t);
	penable(&p, 0, 1, 0);
	/* VB 5 in the first cycle after enabling: Ct is true but no edge */
	prun(&p, 0, 1, NS, false, 1, 1, EV_STALL_SLOT, 5);
	pis(&p, 0, CNT, 0, 0, "no edge in the first cycle after enabling");
	/* 2 then 5: one rising edge */
	prun(&p, 0, 1, NS, false, 1, 1, EV_STALL_SLOT, 2);
	prun(&p, 0, 1, NS, false, 1, 1, EV_STALL_SLOT, 5);
	pis(&p, 0, CNT, 0, 1, "2 -> 5 is one edge");
	/* 2; disable; 5 (not counted, disabled); enable; 2; 5: the cycle
	 * with 2 after enabling is a first cycle (no edge; Ct false anyway),
	 * then 2 -> 5 counts: 1 + 1 = 2 */
	prun(&p, 0, 1, NS, false, 1, 1, EV_STALL_SLOT, 2);
	pw(&p, 0, ARM_EMU_PMCNTENCLR_EL0, 0, 1);
	prun(&p, 0, 1, NS, false, 1, 1, EV_STALL_SLOT, 5);
	pw(&p, 0, ARM_EMU_PMCNTENSET_EL0, 0, 1);
	prun(&p, 0, 1, NS, false, 1, 1, EV_STALL_SLOT, 2);
	prun(&p, 0, 1, NS, false, 1, 1, EV_STALL_SLOT, 5);
	pis(&p, 0, CNT, 0, 2, "enabling starts afresh");
	/* 2; PMCR.E 0 -> 1; 5: the first cycle after enabling, no edge: 2 */
	prun(&p, 0, 1, NS, false, 1, 1, EV_STALL_SLOT, 2);
	pw(&p, 0, ARM_EMU_PMCR_EL0, 0, 0);
	pw(&p, 0, ARM_EMU_PMCR_EL0, 0, ARM_EMU_PMCR_E);
	prun(&p, 0, 1, NS, false, 1, 1, EV_STALL_SLOT, 5);
	pis(&p, 0, CNT, 0, 2, "PMCR.E 0 -> 1 is an enabling too");
	/* 2; write PMEVTYPER0 (same value); 5: no edge: still 2 */
	prun(&p, 0, 1, NS, false, 1, 1, EV_STALL_SLOT, 2);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 0, t);
	prun(&p, 0, 1, NS, false, 1, 1, EV_STALL_SLOT, 5);
	pis(&p, 0, CNT, 0, 2, "no edge in the first cycle after a PMEVTYPER write");
	/* the filter does not hide the previous cycle's Ct: with U=1 an EL0
	 * cycle of VB 2 is not counted but is compared with: 2 at EL0, then 5
	 * at EL1 is an edge: 3. (The write itself is a first cycle: 2 at EL0
	 * first to settle.) */
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 0, t | (UINT64_C(1) << 30));
	prun(&p, 0, 0, NS, false, 1, 1, EV_STALL_SLOT, 2);
	prun(&p, 0, 1, NS, false, 1, 1, EV_STALL_SLOT, 5);
	pis(&p, 0, CNT, 0, 3, "the previous cycle's Ct counts whatever the filter did");
	/* and an edge in a filtered cycle is not counted: 5 -> 2 -> 5 with the
	 * 5 at EL0 (U=1): still 3 */
	prun(&p, 0, 1, NS, false, 1, 1, EV_STALL_SLOT, 2);
	prun(&p, 0, 0, NS, false, 1, 1, EV_STALL_SLOT, 5);
	pis(&p, 0, CNT, 0, 3, "an edge in a filtered cycle is not counted");
	pair_free(&p);
}

static void test_linking(void)
{
	/* Counter 0 (n-1) counts A's VB (TC 000, TH 0); odd counters link to
	 * their n-1 (counter 0, 2, 4, ...). Streams (A, B) per cycle:
	 *   A:  1 4 2 0 3      Vm = counter 0's increment = A
	 *   B:  3 1 2 0 5      Ct = B >= 2: T F T F T
	 * TC[0]:TLC with TC[2:1] = 10 (>=), TH = 2:
	 *   0:00 Ct ? VB : 0   3 + 0 + 2 + 0 + 5 = 10
	 *   0:01 Ct ? VB : Vm  3 + 4 + 2 + 0 + 5 = 14
	 *   0:10 Ct ? Vm : 0   1 + 0 + 2 + 0 + 3 = 6
	 *   1:00 Ct ? 1 : 0    3
	 *   1:01 Ct ? 1 : Vm   1 + 4 + 1 + 0 + 1 = 7
	 *   1:10, TLC=11, TLC on an even counter, TLC with TE: reserved, 0. */
	static const unsigned A[5] = {1, 4, 2, 0, 3}, B[5] = {3, 1, 2, 0, 5};
	static const struct {
		unsigned tc, te, tlc, n;
		uint64_t want;
		const char *what;
	} cases[] = {
	    {4, 0, 0, 1, 10, "0:00 Ct ? VB : 0"},     {4, 0, 1, 3, 14, "0:01 Ct ? VB : Vm"},
	    {4, 0, 2, 5, 6, "0:10 Ct ? Vm : 0"},      {5, 0, 0, 7, 3, "1:00 Ct ? 1 : 0"},
	    {5, 0, 1, 9, 7, "1:01 Ct ? 1 : Vm"},      {5, 0, 2, 11, 0, "1:10 reserved"},
	    {4, 0, 3, 13, 0, "TLC=11 reserved"},      {4, 0, 1, 18, 0, "TLC on an even counter"},
	    {5, 1, 1, 15, 0, "TLC with TE reserved"},
	};
	struct pair p = pair_new("future", 1, 1);
	uint32_t mask = 0;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned n = cases[i].n;
		if (n % 2)
			pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, n - 1, typer(0, 0, 0, 0, EV_A));
		pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, n,
		   typer(cases[i].tc, cases[i].te, cases[i].tlc, 2, EV_B));
		mask |= 1u << n;
	}
	penable(&p, 0, mask, 0);
	for (unsigned c = 0; c < 5; c++)
		prun(&p, 0, 1, NS, false, 1, 2, EV_A, A[c], EV_B, B[c]);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		pis(&p, 0, CNT, cases[i].n, cases[i].want, "TLC: %s", cases[i].what);
	pair_free(&p);

	/* Linking to an edge counter, in runs of 3 identical cycles.
	 * Counter 2: TE=1 TC=101 (rising edge of A >= 2), TH 2, over A
	 * 1 4 2 0 3 per run: GE = F T T F T; no edge in the first run, edges
	 * at the first cycles of runs 1 and 4: 2. Its increment Vm per cycle
	 * is 1 in those two cycles and 0 in the others.
	 * Counter 3: TC=010 (B == 2, add VB), TLC=01 (Ct ? VB : Vm) over B
	 * 3 1 2 0 5: Ct = F F T F F: run 0: Vm 0+0+0; run 1: 1+0+0; run 2:
	 * 3 x 2 = 6; run 3: 0; run 4: 1+0+0. Total 8. */
	p = pair_new("future", 1, 1);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 2, typer(5, 1, 0, 2, EV_A));
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 3, typer(2, 0, 1, 2, EV_B));
	penable(&p, 0, 0xc, 0);
	for (unsigned c = 0; c < 5; c++)
		prun(&p, 0, 1, NS, false, 3, 2, EV_A, A[c], EV_B, B[c]);
	pis(&p, 0, CNT, 2, 2, "edge counter n-1 in runs of 3");
	pis(&p, 0, CNT, 3, 8, "linked to an edge counter: Vm only in a run's first cycle");
	/* counter n-1 disabled: its increment still links (Vm is what n-1
	 * computes, not what it adds): the same stream again with counter 2
	 * disabled adds 8 - 0 (the runs start with A=1 after A=3: GE T -> F,
	 * no rising edge in run 0 this time either): +8 = 16; counter 2 stays */
	pw(&p, 0, ARM_EMU_PMCNTENCLR_EL0, 0, 0x4);
	for (unsigned c = 0; c < 5; c++)
		prun(&p, 0, 1, NS, false, 3, 2, EV_A, A[c], EV_B, B[c]);
	pis(&p, 0, CNT, 2, 2, "disabled counter n-1 adds nothing");
	pis(&p, 0, CNT, 3, 16, "its increment still links");
	pair_free(&p);
}

/* The contexts of the filter table, in column order. */
static const struct {
	unsigned el, sec;
	const char *name;
} ctxs[11] = {
    {0, NS, "NS EL0"},       {1, NS, "NS EL1"},       {2, NS, "NS EL2"},
    {0, S, "S EL0"},         {1, S, "S EL1"},         {2, S, "S EL2"},
    {3, S, "EL3"},           {0, REALM, "Realm EL0"}, {1, REALM, "Realm EL1"},
    {2, REALM, "Realm EL2"}, {3, ROOT, "Root EL3"},
};

#define P_   (UINT64_C(1) << 31)
#define U_   (UINT64_C(1) << 30)
#define NSK_ (UINT64_C(1) << 29)
#define NSU_ (UINT64_C(1) << 28)
#define NSH_ (UINT64_C(1) << 27)
#define M_   (UINT64_C(1) << 26)
#define SH_  (UINT64_C(1) << 24)
#define RLK_ (UINT64_C(1) << 22)
#define RLU_ (UINT64_C(1) << 21)
#define RLH_ (UINT64_C(1) << 20)

static void test_filters(void)
{
	/* From the Arm ARM's field descriptions (SPEC §5): EL0 NS counted
	 * when NSU == U, Secure when U == 0, Realm when RLU == U; EL1 the same
	 * with P, NSK, RLK; EL2 NS when NSH = 1, Secure when SH != NSH, Realm
	 * when RLH != NSH; EL3 (Secure or Root) when M == P. MDCR_EL3.SPME = 1
	 * here so that Secure and EL3 counting is allowed.
	 * Columns: NS0 NS1 NS2 S0 S1 S2 EL3 R0 R1 R2 Root3 */
	static const struct {
		uint64_t bits;
		const char *name;
		char want[12];
	} rows[] = {
	    {0, "none", "11011011101"},
	    {P_, "P", "10010001000"},
	    {U_, "U", "01001010101"},
	    {NSK_, "NSK", "10011011101"},
	    {NSU_, "NSU", "01011011101"},
	    {NSH_, "NSH", "11111111111"},
	    {M_, "M", "11011001100"},
	    {SH_, "SH", "11011111101"},
	    {NSH_ | SH_, "NSH SH", "11111011111"},
	    {RLK_, "RLK", "11011011001"},
	    {RLU_, "RLU", "11011010101"},
	    {RLH_, "RLH", "11011011111"},
	    {P_ | NSK_, "P NSK", "11010001000"},
	    {U_ | NSU_, "U NSU", "11001010101"},
	    {P_ | M_, "P M", "10010011001"},
	    {U_ | RLU_, "U RLU", "01001011101"},
	    {P_ | RLK_, "P RLK", "10010001100"},
	    {NSH_ | RLH_, "NSH RLH", "11111111101"},
	};
	const unsigned nrows = sizeof(rows) / sizeof(rows[0]);
	struct pair p = pair_new("future", 1, 1);
	pw(&p, 0, ARM_EMU_MDCR_EL3, 0, ARM_EMU_MDCR3_SPME);
	for (unsigned r = 0; r < nrows; r++)
		pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, r, rows[r].bits | EV_CPU_CYCLES);
	/* the cycle counter's PMCCFILTR takes the same bits: row "P U" */
	pw(&p, 0, ARM_EMU_PMCCFILTR_EL0, 0, P_ | U_);
	penable(&p, 0, 0x8003ffff, 0);
	/* context c runs 1 << c cycles, so each counter's total says which
	 * contexts it counted */
	for (unsigned c = 0; c < 11; c++)
		prun(&p, 0, ctxs[c].el, ctxs[c].sec, false, UINT64_C(1) << c, 0);
	for (unsigned r = 0; r < nrows; r++) {
		uint64_t want = 0;
		for (unsigned c = 0; c < 11; c++)
			if (rows[r].want[c] == '1')
				want |= UINT64_C(1) << c;
		pis(&p, 0, CNT, r, want, "filter %s in each EL and state", rows[r].name);
	}
	/* P U: NS0, NS1 no (NSU, NSK = 0 differ from U, P = 1); EL0 and EL1
	 * of the other states no; EL2 no (NSH = 0, SH = NSH, RLH = NSH); EL3
	 * no (M = 0 differs from P = 1) */
	pis(&p, 0, ARM_EMU_PMCCNTR_EL0, 0, 0, "PMCCFILTR P U: no EL0, EL1, EL2 (NSH=0), EL3");
	pair_free(&p);

	/* Prohibited regions: MDCR_EL3.SPME = 0 prohibits Secure and EL3
	 * (filter "none"); MDCR_EL2.HPMD prohibits EL2 for counters below
	 * HPMN (filter NSH). Counter 0: none; 1: NSH; HPMN = 1, HPME = 1
	 * (counter 1 is EL2's and is not prohibited). */
	p = pair_new("future", 1, 1);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 0, EV_CPU_CYCLES | NSH_);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 1, EV_CPU_CYCLES | NSH_);
	pw(&p, 0, ARM_EMU_MDCR_EL2, 0, 1 | ARM_EMU_MDCR2_HPME | ARM_EMU_MDCR2_HPMD);
	penable(&p, 0, 3, 0);
	for (unsigned c = 0; c < 11; c++)
		prun(&p, 0, ctxs[c].el, ctxs[c].sec, false, UINT64_C(1) << c, 0);
	/* counter 0: NS0 + NS1 + R0 + R1 (NS2 and Realm EL2 prohibited by
	 * HPMD, which is about EL2 in any state; S* and EL3 by SPME = 0)
	 * = 1 + 2 + 128 + 256 = 387
	 * counter 1: the same plus NS2 (4) and Realm EL2 (512): 903 */
	pis(&p, 0, CNT, 0, 387, "SPME=0 and HPMD prohibit counting");
	pis(&p, 0, CNT, 1, 903, "HPMD leaves counters at or above HPMN");
	pair_free(&p);
}

static void test_vs(void)
{
	/* 10 streaming cycles, then 7 non-streaming: VS=00 17, VS=01 (not in
	 * Streaming mode) 7, VS=10 (not in Non-streaming mode) 10, VS=11
	 * reserved 0. */
	struct pair p = pair_new("future", 1, 1);
	for (unsigned vs = 0; vs < 4; vs++)
		pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, vs, EV_CPU_CYCLES | ((uint64_t)vs << 56));
	penable(&p, 0, 0xf, 0);
	prun(&p, 0, 0, NS, true, 10, 0);
	prun(&p, 0, 0, NS, false, 7, 0);
	static const uint64_t want[4] = {17, 7, 10, 0};
	for (unsigned vs = 0; vs < 4; vs++)
		pis(&p, 0, CNT, vs, want[vs], "VS=%u%u", vs >> 1, vs & 1);
	pair_free(&p);
}

static void run_core(struct pair *p, const struct arm_emu_run *r0, const struct arm_emu_run *r1)
{
	const struct arm_emu_run *runs[2] = {r0, r1};
	arm_emu_run_core(p->m[0], 0, runs);
	arm_emu_ref_run_core(p->m[1], 0, runs);
}

static void test_mt(void)
{
	/* Two PEs per core. PE0 delivers STALL_SLOT 3 per cycle at EL1, PE1
	 * 2 per cycle at EL0; 10 cycles. On PE0:
	 *  c0 STALL_SLOT MT=0:           3 x 10 = 30
	 *  c1 STALL_SLOT MT=1:           (3 + 2) x 10 = 50
	 *  c2 MT=1, TC=100 TH=4:         5 >= 4 every cycle: 50
	 *  c3 MT=0, TC=100 TH=4:         3 < 4: 0
	 *  c4 MT=1, U=1:                 PE1's EL0 events left out: 30
	 *  c5 CPU_CYCLES MT=1:           once per cycle of the core: 10
	 *  c6 CPU_CYCLES MT=1 P=1:       PE0 at EL1 left out, PE1 at EL0 counts: 10
	 *  c7 CPU_CYCLES MT=1 P=1 U=1:   neither: 0
	 *  c8 MT=1 TE=1 TC=101 TH=4:     Ct on 5 every cycle, no edge: 0 */
	const uint64_t MT = UINT64_C(1) << 25;
	struct pair p = pair_new("future", 2, 2);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 0, EV_STALL_SLOT);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 1, EV_STALL_SLOT | MT);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 2, typer(4, 0, 0, 4, EV_STALL_SLOT) | MT);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 3, typer(4, 0, 0, 4, EV_STALL_SLOT));
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 4, EV_STALL_SLOT | MT | U_);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 5, EV_CPU_CYCLES | MT);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 6, EV_CPU_CYCLES | MT | P_);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 7, EV_CPU_CYCLES | MT | P_ | U_);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 8, typer(5, 1, 0, 4, EV_STALL_SLOT) | MT);
	penable(&p, 0, 0x1ff, 0);
	/* PE1: CPU_CYCLES without MT counts its own cycles */
	pw(&p, 1, ARM_EMU_PMEVTYPER_EL0, 0, EV_CPU_CYCLES);
	penable(&p, 1, 1, 0);
	struct arm_emu_val v0 = {EV_STALL_SLOT, 3}, v1 = {EV_STALL_SLOT, 2};
	struct arm_emu_run r0 = {.cycles = 10, .el = 1, .nr_vals = 1, .vals = &v0};
	struct arm_emu_run r1 = {.cycles = 10, .el = 0, .nr_vals = 1, .vals = &v1};
	run_core(&p, &r0, &r1);
	static const uint64_t want[9] = {30, 50, 50, 0, 30, 10, 10, 0, 0};
	static const char *const what[9] = {"MT=0",
	                                    "MT=1 sums the PEs",
	                                    "MT=1 threshold on the sum",
	                                    "MT=0 threshold on its own",
	                                    "MT=1 filters each PE",
	                                    "MT=1 cycles once",
	                                    "MT=1 cycles where any PE counts",
	                                    "MT=1 cycles where none counts",
	                                    "MT=1 edge: none"};
	for (unsigned n = 0; n < 9; n++)
		pis(&p, 0, CNT, n, want[n], "MT: %s", what[n]);
	pis(&p, 1, CNT, 0, 10, "MT: PE1 counts its own cycles");
	/* arm_emu_run on PE0 alone: PE1 runs idle (no events, its last
	 * context EL0) for the same 4 cycles: its CPU_CYCLES counter goes on
	 * (14) and PE0's MT counter 1 adds PE0's 3 x 4 = 12 (62) */
	prun(&p, 0, 1, NS, false, 4, 1, EV_STALL_SLOT, 3);
	pis(&p, 1, CNT, 0, 14, "MT: an idle PE's cycles pass with its core's");
	pis(&p, 0, CNT, 1, 62, "MT: an idle PE delivers no events");
	pair_free(&p);
}

int main(void)
{
	test_thresholds();
	edges(1);
	edges(5);
	test_first_cycle();
	test_linking();
	test_filters();
	test_vs();
	test_mt();
	return tap_done();
}
