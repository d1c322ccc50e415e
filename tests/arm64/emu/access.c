/* access.c: the access rules of the PMU system registers, written from
 * the Arm ARM's descriptions (PMUSERENR_EL0 for EL0, MDCR_EL2.HPMN, TPM and
 * TPMCR for EL1 and EL0, PMSELR_EL0 for PMXEV*, the lowest EL of each
 * register), with the values and exceptions expected worked out here; and
 * the names table.
 */
#include "arm-emu-test.h"

static struct arm_emu *m;
static struct arm_emu_pe *pe;

static void exc_is(int got, int want, const char *what)
{
	tap_ok(got == want, "%s: %s (got %s)", what, arm_emu_exc_name(want), arm_emu_exc_name(got));
}

static int rd(unsigned el, unsigned reg, unsigned idx)
{
	uint64_t v;
	return arm_emu_read(pe, el, reg, idx, &v);
}

static uint64_t val(unsigned el, unsigned reg, unsigned idx)
{
	uint64_t v = 0xdead;
	if (arm_emu_read(pe, el, reg, idx, &v) != ARM_EMU_OK)
		tap_diag("read refused");
	return v;
}

static void test_userenr(void)
{
	/* PMUSERENR_EL0 = 0: every EL0 access traps to EL1, PMUSERENR itself
	 * reads, its write is UNDEFINED; EL1 registers are UNDEFINED at EL0 */
	exc_is(rd(0, ARM_EMU_PMCR_EL0, 0), ARM_EMU_TRAP_EL1, "EN=0: PMCR read at EL0");
	exc_is(rd(0, ARM_EMU_PMCCNTR_EL0, 0), ARM_EMU_TRAP_EL1, "EN=0: PMCCNTR read at EL0");
	exc_is(arm_emu_write(pe, 0, ARM_EMU_PMSWINC_EL0, 0, 1), ARM_EMU_TRAP_EL1,
	       "EN=0: PMSWINC write at EL0");
	exc_is(rd(0, ARM_EMU_PMUSERENR_EL0, 0), ARM_EMU_OK, "PMUSERENR read at EL0");
	exc_is(arm_emu_write(pe, 0, ARM_EMU_PMUSERENR_EL0, 0, 1), ARM_EMU_UNDEFINED,
	       "PMUSERENR write at EL0");
	exc_is(rd(0, ARM_EMU_PMINTENSET_EL1, 0), ARM_EMU_UNDEFINED, "PMINTENSET_EL1 at EL0");
	exc_is(rd(0, ARM_EMU_PMMIR_EL1, 0), ARM_EMU_UNDEFINED, "PMMIR_EL1 at EL0");
	exc_is(rd(1, ARM_EMU_MDCR_EL2, 0), ARM_EMU_UNDEFINED, "MDCR_EL2 at EL1");
	exc_is(rd(2, ARM_EMU_MDCR_EL3, 0), ARM_EMU_UNDEFINED, "MDCR_EL3 at EL2");
	/* SW: PMSWINC only */
	arm_emu_write(pe, 1, ARM_EMU_PMUSERENR_EL0, 0, ARM_EMU_USERENR_SW);
	exc_is(arm_emu_write(pe, 0, ARM_EMU_PMSWINC_EL0, 0, 1), ARM_EMU_OK, "SW=1: PMSWINC");
	exc_is(rd(0, ARM_EMU_PMEVCNTR_EL0, 0), ARM_EMU_TRAP_EL1, "SW=1: PMEVCNTR read");
	/* CR: PMCCNTR reads, not writes */
	arm_emu_write(pe, 1, ARM_EMU_PMUSERENR_EL0, 0, ARM_EMU_USERENR_CR);
	exc_is(rd(0, ARM_EMU_PMCCNTR_EL0, 0), ARM_EMU_OK, "CR=1: PMCCNTR read");
	exc_is(arm_emu_write(pe, 0, ARM_EMU_PMCCNTR_EL0, 0, 1), ARM_EMU_TRAP_EL1,
	       "CR=1: PMCCNTR write");
	exc_is(arm_emu_write(pe, 0, ARM_EMU_PMSWINC_EL0, 0, 1), ARM_EMU_TRAP_EL1,
	       "CR=1: PMSWINC write");
	/* ER: event counter reads and PMSELR reads and writes */
	arm_emu_write(pe, 1, ARM_EMU_PMUSERENR_EL0, 0, ARM_EMU_USERENR_ER);
	exc_is(rd(0, ARM_EMU_PMEVCNTR_EL0, 2), ARM_EMU_OK, "ER=1: PMEVCNTR2 read");
	exc_is(arm_emu_write(pe, 0, ARM_EMU_PMEVCNTR_EL0, 2, 1), ARM_EMU_TRAP_EL1,
	       "ER=1: PMEVCNTR2 write");
	exc_is(arm_emu_write(pe, 0, ARM_EMU_PMSELR_EL0, 0, 2), ARM_EMU_OK, "ER=1: PMSELR write");
	exc_is(rd(0, ARM_EMU_PMXEVCNTR_EL0, 0), ARM_EMU_OK, "ER=1: PMXEVCNTR read");
	exc_is(rd(0, ARM_EMU_PMXEVTYPER_EL0, 0), ARM_EMU_TRAP_EL1, "ER=1: PMXEVTYPER read");
	exc_is(rd(0, ARM_EMU_PMEVTYPER_EL0, 2), ARM_EMU_TRAP_EL1, "ER=1: PMEVTYPER read");
	/* EN: everything EL0 may reach */
	arm_emu_write(pe, 1, ARM_EMU_PMUSERENR_EL0, 0, ARM_EMU_USERENR_EN);
	exc_is(rd(0, ARM_EMU_PMCR_EL0, 0), ARM_EMU_OK, "EN=1: PMCR read");
	exc_is(arm_emu_write(pe, 0, ARM_EMU_PMEVTYPER_EL0, 1, 0x11), ARM_EMU_OK,
	       "EN=1: PMEVTYPER write");
	exc_is(rd(0, ARM_EMU_PMINTENSET_EL1, 0), ARM_EMU_UNDEFINED, "EN=1: PMINTENSET still EL1");
	/* the EL0 check comes before EL2's traps */
	arm_emu_write(pe, 2, ARM_EMU_MDCR_EL2, 0, 6 | ARM_EMU_MDCR2_TPM);
	exc_is(rd(0, ARM_EMU_PMCR_EL0, 0), ARM_EMU_TRAP_EL2, "TPM: PMCR at EL0 with EN=1");
	exc_is(rd(1, ARM_EMU_PMCCNTR_EL0, 0), ARM_EMU_TRAP_EL2, "TPM: PMCCNTR at EL1");
	exc_is(rd(1, ARM_EMU_ID_AA64DFR0_EL1, 0), ARM_EMU_OK, "TPM: ID_AA64DFR0_EL1 not trapped");
	exc_is(rd(2, ARM_EMU_PMCCNTR_EL0, 0), ARM_EMU_OK, "TPM: EL2 not trapped");
	exc_is(arm_emu_write(pe, 1, ARM_EMU_PMUSERENR_EL0, 0, 0), ARM_EMU_TRAP_EL2,
	       "TPM: PMUSERENR write at EL1");
	arm_emu_write(pe, 2, ARM_EMU_PMUSERENR_EL0, 0, 0);
	exc_is(rd(0, ARM_EMU_PMCR_EL0, 0), ARM_EMU_TRAP_EL1, "EN=0 with TPM: EL1 first");
	arm_emu_write(pe, 2, ARM_EMU_MDCR_EL2, 0, 6 | ARM_EMU_MDCR2_TPMCR);
	exc_is(rd(1, ARM_EMU_PMCR_EL0, 0), ARM_EMU_TRAP_EL2, "TPMCR: PMCR at EL1");
	exc_is(rd(1, ARM_EMU_PMCCNTR_EL0, 0), ARM_EMU_OK, "TPMCR: PMCCNTR at EL1");
	arm_emu_write(pe, 2, ARM_EMU_MDCR_EL2, 0, 6);
}

static void test_hpmn(void)
{
	/* v2: N = 6. HPMN = 4: EL1 sees N = 4, EL2 and EL3 6; counters 4, 5
	 * trap to EL2 from EL1 and EL0; counter 6 does not exist (UNDEFINED at
	 * every EL); bits 4, 5 of the masks are RAZ/WI at EL1. */
	arm_emu_write(pe, 2, ARM_EMU_MDCR_EL2, 0, 4);
	tap_is_u64(ARM_EMU_PMCR_N(val(1, ARM_EMU_PMCR_EL0, 0)), 4, "HPMN=4: PMCR.N at EL1");
	tap_is_u64(ARM_EMU_PMCR_N(val(2, ARM_EMU_PMCR_EL0, 0)), 6, "HPMN=4: PMCR.N at EL2");
	tap_is_u64(ARM_EMU_PMCR_N(val(3, ARM_EMU_PMCR_EL0, 0)), 6, "HPMN=4: PMCR.N at EL3");
	exc_is(rd(1, ARM_EMU_PMEVCNTR_EL0, 3), ARM_EMU_OK, "HPMN=4: PMEVCNTR3 at EL1");
	exc_is(rd(1, ARM_EMU_PMEVCNTR_EL0, 4), ARM_EMU_TRAP_EL2, "HPMN=4: PMEVCNTR4 at EL1");
	exc_is(rd(1, ARM_EMU_PMEVTYPER_EL0, 5), ARM_EMU_TRAP_EL2, "HPMN=4: PMEVTYPER5 at EL1");
	exc_is(rd(2, ARM_EMU_PMEVCNTR_EL0, 5), ARM_EMU_OK, "HPMN=4: PMEVCNTR5 at EL2");
	exc_is(rd(1, ARM_EMU_PMEVCNTR_EL0, 6), ARM_EMU_UNDEFINED, "PMEVCNTR6 at EL1 (N=6)");
	exc_is(rd(3, ARM_EMU_PMEVCNTR_EL0, 6), ARM_EMU_UNDEFINED, "PMEVCNTR6 at EL3 (N=6)");
	arm_emu_write(pe, 1, ARM_EMU_PMUSERENR_EL0, 0, ARM_EMU_USERENR_EN);
	exc_is(rd(0, ARM_EMU_PMEVCNTR_EL0, 4), ARM_EMU_TRAP_EL2, "HPMN=4: PMEVCNTR4 at EL0");
	arm_emu_write(pe, 1, ARM_EMU_PMSELR_EL0, 0, 5);
	exc_is(rd(1, ARM_EMU_PMXEVCNTR_EL0, 0), ARM_EMU_TRAP_EL2, "HPMN=4: PMXEVCNTR, SEL=5");
	arm_emu_write(pe, 1, ARM_EMU_PMSELR_EL0, 0, 9);
	exc_is(rd(2, ARM_EMU_PMXEVTYPER_EL0, 0), ARM_EMU_UNDEFINED, "PMXEVTYPER, SEL=9 (N=6)");
	arm_emu_write(pe, 1, ARM_EMU_PMSELR_EL0, 0, 31);
	exc_is(rd(1, ARM_EMU_PMXEVCNTR_EL0, 0), ARM_EMU_UNDEFINED, "PMXEVCNTR, SEL=31");
	arm_emu_write(pe, 1, ARM_EMU_PMXEVTYPER_EL0, 0, UINT64_C(1) << 31);
	tap_is_u64(val(1, ARM_EMU_PMCCFILTR_EL0, 0), UINT64_C(1) << 31,
	           "PMXEVTYPER with SEL=31 is PMCCFILTR");
	arm_emu_write(pe, 1, ARM_EMU_PMCNTENSET_EL0, 0, 0xffffffffu);
	tap_is_u64(val(1, ARM_EMU_PMCNTENSET_EL0, 0), 0x8000000fu, "EL1 sets counters 0-3 and C");
	tap_is_u64(val(2, ARM_EMU_PMCNTENSET_EL0, 0), 0x8000000fu, "bits 4, 5 were WI at EL1");
	arm_emu_write(pe, 2, ARM_EMU_PMCNTENSET_EL0, 0, 0x30);
	tap_is_u64(val(1, ARM_EMU_PMCNTENSET_EL0, 0), 0x8000000fu, "bits 4, 5 RAZ at EL1");
	tap_is_u64(val(2, ARM_EMU_PMCNTENSET_EL0, 0), 0x8000003fu, "EL2 sees all six");
	/* PMCR.P at EL1 resets counters 0..HPMN-1 only */
	for (unsigned n = 0; n < 6; n++)
		arm_emu_write(pe, 2, ARM_EMU_PMEVCNTR_EL0, n, 100 + n);
	arm_emu_write(pe, 1, ARM_EMU_PMCR_EL0, 0, ARM_EMU_PMCR_P);
	tap_is_u64(val(2, ARM_EMU_PMEVCNTR_EL0, 3), 0, "PMCR.P at EL1 resets counter 3");
	tap_is_u64(val(2, ARM_EMU_PMEVCNTR_EL0, 4), 104, "and not counter 4 (EL2's)");
	arm_emu_write(pe, 2, ARM_EMU_PMCR_EL0, 0, ARM_EMU_PMCR_P);
	tap_is_u64(val(2, ARM_EMU_PMEVCNTR_EL0, 5), 0, "PMCR.P at EL2 resets counter 5");
	/* HPMN > N is taken as N; HPMN = 0 without FEAT_HPMN0 as 1 */
	arm_emu_write(pe, 2, ARM_EMU_MDCR_EL2, 0, 20);
	tap_is_u64(ARM_EMU_MDCR2_HPMN(val(2, ARM_EMU_MDCR_EL2, 0)), 6, "HPMN=20 reads 6");
	arm_emu_write(pe, 2, ARM_EMU_MDCR_EL2, 0, 0);
	tap_is_u64(ARM_EMU_MDCR2_HPMN(val(2, ARM_EMU_MDCR_EL2, 0)), 1,
	           "HPMN=0 without FEAT_HPMN0 reads 1");
}

static void test_fields(void)
{
	/* Fields of absent features are RES0. n1: no TH, TE, TLC, VS, MT, SH,
	 * RL*: writing all ones keeps evtCount, P, U, NSK, NSU, NSH, M. */
	char err[100];
	struct arm_emu *n1 = arm_emu_new(arm_emu_features_find("n1"), 1, 1, err, sizeof(err));
	uint64_t v = 0;
	arm_emu_write(arm_emu_pe(n1, 0), 3, ARM_EMU_PMEVTYPER_EL0, 0, UINT64_MAX);
	arm_emu_read(arm_emu_pe(n1, 0), 3, ARM_EMU_PMEVTYPER_EL0, 0, &v);
	tap_is_u64(v, UINT64_C(0xfc00ffff), "n1: PMEVTYPER keeps P U NSK NSU NSH M evtCount");
	arm_emu_write(arm_emu_pe(n1, 0), 3, ARM_EMU_PMCCFILTR_EL0, 0, UINT64_MAX);
	arm_emu_read(arm_emu_pe(n1, 0), 3, ARM_EMU_PMCCFILTR_EL0, 0, &v);
	tap_is_u64(v, UINT64_C(0xfc000000), "n1: PMCCFILTR keeps P U NSK NSU NSH M");
	arm_emu_free(n1);
	/* v2: TC, TH (12 bits), MT, SH, but no TE, TLC, VS, RL* */
	arm_emu_write(pe, 3, ARM_EMU_PMEVTYPER_EL0, 0, UINT64_MAX);
	/* TC 63:61, TH 43:32, P U NSK NSU NSH M 31:26, MT 25, SH 24, evtCount */
	tap_is_u64(val(3, ARM_EMU_PMEVTYPER_EL0, 0), UINT64_C(0xe0000fffff00ffff),
	           "v2: PMEVTYPER keeps TC TH P U NSK NSU NSH M MT SH evtCount");
	/* a reserved combination reads back as written */
	arm_emu_write(pe, 3, ARM_EMU_PMEVTYPER_EL0, 0,
	              typer(0, 0, 0, 0, 0x11) | (UINT64_C(4) << 61));
	tap_is_u64(val(3, ARM_EMU_PMEVTYPER_EL0, 0), (UINT64_C(4) << 61) | 0x11,
	           "v2: TC=100 with TH=0 is kept");
}

static void test_names(void)
{
	unsigned reg, idx;
	char err[100], buf[40];
	tap_ok(arm_emu_reg_parse("pmevtyper3_el0", &reg, &idx, err, sizeof(err)) == 0 &&
	           reg == ARM_EMU_PMEVTYPER_EL0 && idx == 3,
	       "PMEVTYPER3_EL0 parses (any case)");
	tap_ok(arm_emu_reg_parse("PMEVCNTR31_EL0", &reg, &idx, err, sizeof(err)) < 0,
	       "PMEVCNTR31_EL0 refused: %s", err);
	tap_ok(arm_emu_reg_parse("PMEVCNTR03_EL0", &reg, &idx, err, sizeof(err)) < 0,
	       "PMEVCNTR03_EL0 refused");
	tap_ok(arm_emu_reg_parse("PMFOO_EL0", &reg, &idx, err, sizeof(err)) < 0,
	       "unknown register refused: %s", err);
	tap_ok(arm_emu_reg_parse("PMDEVID", &reg, &idx, err, sizeof(err)) == 0 &&
	           reg == ARM_EMU_EXT_PMDEVID && arm_emu_reg_external(reg),
	       "PMDEVID is the external block's");
	/* every name round-trips */
	bool all = true;
	for (unsigned r = 0; r < ARM_EMU_NR_REGS; r++) {
		arm_emu_reg_name(r, arm_emu_reg_indexed(r) ? 30 : 0, buf, sizeof(buf));
		if (arm_emu_reg_parse(buf, &reg, &idx, err, sizeof(err)) || reg != r)
			all = false;
	}
	tap_ok(all, "every register name parses back to its register");
}

int main(void)
{
	char err[100];
	m = arm_emu_new(arm_emu_features_find("v2"), 1, 1, err, sizeof(err));
	pe = arm_emu_pe(m, 0);
	test_userenr();
	test_hpmn();
	test_fields();
	test_names();
	arm_emu_free(m);
	tap_ok(arm_emu_new(arm_emu_features_find("v2"), 3, 2, err, sizeof(err)) == NULL,
	       "3 PEs at 2 per core refused: %s", err);
	return tap_done();
}
