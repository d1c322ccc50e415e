/* overflow.c: overflow of 32- and 64-bit event counters and of the cycle
 * counter (PMCR_EL0.LP, LC; MDCR_EL2.HLP), PMOVS, and the overflow
 * interrupt, on both paths; the expected values are worked out in the
 * comments.
 */
#include "arm-emu-test.h"

#define CNT ARM_EMU_PMEVCNTR_EL0
#define OVS ARM_EMU_PMOVSSET_EL0

static void irq_is(struct pair *p, unsigned pe, bool want, const char *what)
{
	tap_ok(arm_emu_irq_pending(arm_emu_pe(p->m[0], pe)) == want, "%s (fast path)", what);
	tap_ok(arm_emu_irq_pending(arm_emu_pe(p->m[1], pe)) == want, "%s (reference)", what);
}

static void test_32bit(void)
{
	/* n1: counters are 32 bits (no PMUv3p5). Counter 0 counts CPU_CYCLES
	 * from 0xFFFFFFFE: 5 cycles give 0xFFFFFFFE + 5 = 0x1_00000003, kept
	 * to 32 bits: 3, with PMOVS[0] set. Counter 1 counts STALL_SLOT (4 a
	 * cycle) from 0xFFFFFFF0: 3 cycles add 12: 0xFFFFFFFC, no overflow;
	 * one more cycle: 0x1_00000000 -> 0 and PMOVS[1]. */
	struct pair p = pair_new("n1", 1, 1);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 0, EV_CPU_CYCLES);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 1, EV_STALL_SLOT);
	pw(&p, 0, CNT, 0, 0xfffffffeu);
	pw(&p, 0, CNT, 1, 0xfffffff0u);
	pw(&p, 0, ARM_EMU_PMINTENSET_EL1, 0, 1);
	penable(&p, 0, 3, ARM_EMU_PMCR_LP); /* LP is RES0 without PMUv3p5 */
	irq_is(&p, 0, false, "no overflow, no interrupt");
	prun(&p, 0, 1, ARM_EMU_SEC_NS, false, 3, 1, EV_STALL_SLOT, 4);
	pis(&p, 0, CNT, 1, 0xfffffffcu, "32-bit counter below the wrap");
	pis(&p, 0, CNT, 0, 1, "32-bit CPU_CYCLES wrapped after 2 cycles: 1");
	pis(&p, 0, OVS, 0, 1, "PMOVS[0] set by the wrap");
	irq_is(&p, 0, true, "PMOVS[0] & PMINTEN[0] & PMCR.E: interrupt pending");
	prun(&p, 0, 1, ARM_EMU_SEC_NS, false, 2, 1, EV_STALL_SLOT, 4);
	pis(&p, 0, CNT, 1, 4, "32-bit counter wraps to 0 and adds 4");
	pis(&p, 0, OVS, 0, 3, "PMOVS[1] set, [0] stays");
	pis(&p, 0, ARM_EMU_PMCR_EL0, 0, ARM_EMU_PMCR_E | (6u << 11),
	    "PMCR: E, N = 6, LP RES0 on n1");
	pw(&p, 0, ARM_EMU_PMCR_EL0, 0, 0);
	irq_is(&p, 0, false, "PMCR.E = 0: no interrupt");
	pw(&p, 0, ARM_EMU_PMCR_EL0, 0, ARM_EMU_PMCR_E);
	pw(&p, 0, ARM_EMU_PMOVSCLR_EL0, 0, 1);
	pis(&p, 0, OVS, 0, 2, "PMOVSCLR clears bit 0");
	irq_is(&p, 0, false, "PMOVS[1] without PMINTEN[1]: no interrupt");
	pw(&p, 0, ARM_EMU_PMINTENSET_EL1, 0, 2);
	irq_is(&p, 0, true, "PMINTEN[1] set: pending");
	pw(&p, 0, ARM_EMU_PMINTENCLR_EL1, 0, 2);
	irq_is(&p, 0, false, "PMINTENCLR: not pending");
	pair_free(&p);
}

static void test_64bit(void)
{
	/* v2: 64-bit counters (PMUv3p5).
	 * LP = 0: overflow when bits 31:0 wrap; the counter keeps 64 bits:
	 *   counter 0 from 0xFFFFFFFE + 5 cycles = 0x1_00000003, PMOVS[0].
	 * LP = 1: overflow when 64 bits wrap:
	 *   counter 1 from 0xFFFFFFFE + 5 = 0x1_00000003, no PMOVS[1];
	 *   counter 2 from 2^64 - 2 + 5 = 3, PMOVS[2].
	 * Counters reserved for EL2 (HPMN = 3: counters 3..5) take MDCR_EL2.HLP
	 * instead: counter 3 from 0xFFFFFFFE with HLP = 0: PMOVS[3], value
	 * 0x1_00000003; and HPME enables them. */
	struct pair p = pair_new("v2", 1, 1);
	for (unsigned n = 0; n < 4; n++)
		pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, n, EV_CPU_CYCLES);
	pw(&p, 0, CNT, 0, 0xfffffffeu);
	pw(&p, 0, CNT, 1, 0xfffffffeu);
	pw(&p, 0, CNT, 2, UINT64_MAX - 1);
	pw(&p, 0, CNT, 3, 0xfffffffeu);
	pw(&p, 0, ARM_EMU_MDCR_EL2, 0, 3 | ARM_EMU_MDCR2_HPME);
	/* LP = 0 first for counter 0: run 5 cycles with LP = 0, then look */
	penable(&p, 0, 0xf, 0);
	prun(&p, 0, 1, ARM_EMU_SEC_NS, false, 5, 0);
	pis(&p, 0, CNT, 0, UINT64_C(0x100000003), "LP=0: 64-bit counter keeps counting");
	pis(&p, 0, OVS, 0, 0xf, "LP=0: every counter's bits 31:0 wrapped (and 2^64 for 2)");
	pis(&p, 0, CNT, 2, 3, "2^64 - 2 + 5 = 3");
	pis(&p, 0, CNT, 3, UINT64_C(0x100000003), "HLP=0: EL2's counter overflows at 32 bits");
	pw(&p, 0, ARM_EMU_PMOVSCLR_EL0, 0, 0xffffffffu);
	pw(&p, 0, CNT, 0, 0xfffffffeu);
	pw(&p, 0, CNT, 1, 0xfffffffeu);
	pw(&p, 0, CNT, 2, UINT64_MAX - 1);
	pw(&p, 0, CNT, 3, 0xfffffffeu);
	pw(&p, 0, ARM_EMU_MDCR_EL2, 0, 3 | ARM_EMU_MDCR2_HPME | ARM_EMU_MDCR2_HLP);
	pw(&p, 0, ARM_EMU_PMCR_EL0, 0, ARM_EMU_PMCR_E | ARM_EMU_PMCR_LP);
	prun(&p, 0, 1, ARM_EMU_SEC_NS, false, 5, 0);
	pis(&p, 0, CNT, 1, UINT64_C(0x100000003), "LP=1: no overflow at 32 bits");
	pis(&p, 0, CNT, 2, 3, "LP=1: 2^64 - 2 + 5 wraps to 3");
	pis(&p, 0, OVS, 0, 0x4, "LP=1, HLP=1: only counter 2 overflowed");
	/* HPME = 0: counter 3 stops, PMCR.E does not gate it */
	pw(&p, 0, ARM_EMU_MDCR_EL2, 0, 3);
	prun(&p, 0, 1, ARM_EMU_SEC_NS, false, 5, 0);
	pis(&p, 0, CNT, 3, UINT64_C(0x100000003), "HPME=0 stops counters reserved for EL2");
	pis(&p, 0, CNT, 0, UINT64_C(0x100000008), "while PMCR.E keeps the others counting");
	pair_free(&p);
}

static void test_cycle_counter(void)
{
	/* PMCCNTR is 64 bits; LC = 0: overflow when bits 31:0 wrap; LC = 1:
	 * when 64 bits do. From 0xFFFFFFFF, 2 cycles: 0x1_00000001; LC=0
	 * sets PMOVS[31]. From 2^64 - 1 with LC = 1, 2 cycles: 1, PMOVS[31]. */
	struct pair p = pair_new("v2", 1, 1);
	pw(&p, 0, ARM_EMU_PMCCNTR_EL0, 0, 0xffffffffu);
	penable(&p, 0, 0x80000000u, 0);
	prun(&p, 0, 1, ARM_EMU_SEC_NS, false, 2, 0);
	pis(&p, 0, ARM_EMU_PMCCNTR_EL0, 0, UINT64_C(0x100000001), "PMCCNTR is 64 bits");
	pis(&p, 0, OVS, 0, 0x80000000u, "LC=0: PMOVS[31] at the 32-bit wrap");
	pw(&p, 0, ARM_EMU_PMOVSCLR_EL0, 0, 0x80000000u);
	pw(&p, 0, ARM_EMU_PMCR_EL0, 0, ARM_EMU_PMCR_E | ARM_EMU_PMCR_LC);
	pw(&p, 0, ARM_EMU_PMCCNTR_EL0, 0, 0xffffffffu);
	prun(&p, 0, 1, ARM_EMU_SEC_NS, false, 2, 0);
	pis(&p, 0, OVS, 0, 0, "LC=1: no overflow at the 32-bit wrap");
	pw(&p, 0, ARM_EMU_PMCCNTR_EL0, 0, UINT64_MAX);
	prun(&p, 0, 1, ARM_EMU_SEC_NS, false, 2, 0);
	pis(&p, 0, ARM_EMU_PMCCNTR_EL0, 0, 1, "LC=1: 2^64 - 1 + 2 = 1");
	pis(&p, 0, OVS, 0, 0x80000000u, "LC=1: PMOVS[31] at the 64-bit wrap");
	/* PMCR.C resets it, PMCR.P the event counters */
	pw(&p, 0, ARM_EMU_PMCR_EL0, 0, ARM_EMU_PMCR_E | ARM_EMU_PMCR_C);
	pis(&p, 0, ARM_EMU_PMCCNTR_EL0, 0, 0, "PMCR.C resets PMCCNTR");
	pair_free(&p);
}

int main(void)
{
	test_32bit();
	test_64bit();
	test_cycle_counter();
	return tap_done();
}
