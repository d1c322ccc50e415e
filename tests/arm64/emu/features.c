/* features.c: the feature profiles and what each feature does: the
 * identification registers (PMDEVID against seed 002 through the PMDEVID
 * decoder, ID_AA64DFR0_EL1.PMUVer, PMMIR_EL1), EXTPMN's reserved counters,
 * PMSS snapshots, PC sampling, SW_INCR, and the registers of absent
 * features; expectations worked out in the comments.
 */
#include "arm-emu-test.h"
#include "arm64/pmdevid.h"

#define CNT ARM_EMU_PMEVCNTR_EL0

static uint64_t xr(struct arm_emu_pe *pe, unsigned reg)
{
	uint64_t v = 0xdead;
	arm_emu_ext_read(pe, reg, 0, &v);
	return v;
}

static uint64_t sr(struct arm_emu_pe *pe, unsigned el, unsigned reg, unsigned idx)
{
	uint64_t v = 0xdead;
	arm_emu_read(pe, el, reg, idx, &v);
	return v;
}

static void test_ids(void)
{
	/* per profile: PMDEVID (PCSample 3:0, PMSS 7:4, EXTPMN 11:8), the
	 * PMUVer of ID_AA64DFR0_EL1 11:8, PMSS 19:16 there, PMMIR SLOTS 7:0,
	 * THWIDTH 23:20, EDGE 27:24, SME 28 (the Arm ARM's PMMIR_EL1 field
	 * list: SME 28, EDGE 27:24, THWIDTH 23:20, BUS_WIDTH 19:16, BUS_SLOTS
	 * 15:8, SLOTS 7:0), and PMCR.N */
	static const struct {
		const char *name;
		uint64_t devid, pmuver, slots, thwidth, edge, sme, n;
		const char *features;
	} want[] = {
	    {"n1", 0x000, 5, 4, 0, 0, 0, 6, "PCSample=0 PMSS=0 EXTPMN=0"},
	    {"v1", 0x000, 5, 8, 0, 0, 0, 6, "PCSample=0 PMSS=0 EXTPMN=0"},
	    {"n2", 0x000, 6, 5, 0, 0, 0, 6, "PCSample=0 PMSS=0 EXTPMN=0"},
	    {"v2", 0x000, 8, 8, 12, 0, 0, 6, "PCSample=0 PMSS=0 EXTPMN=0"},
	    {"future", 0x112, 9, 8, 12, 1, 1, 31, "PCSample=2 PMSS=1 EXTPMN=1"},
	};
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char err[100], fields[200];
		struct arm_emu *m =
		    arm_emu_new(arm_emu_features_find(want[i].name), 1, 1, err, sizeof(err));
		struct arm_emu_pe *pe = arm_emu_pe(m, 0);
		uint64_t devid = xr(pe, ARM_EMU_EXT_PMDEVID);
		tap_is_u64(devid, want[i].devid, "%s: PMDEVID", want[i].name);
		struct arm64_pmdevid d;
		arm64_pmdevid_decode(devid, &d);
		tap_ok(d.nr_warnings == 0, "%s: PMDEVID has no reserved value", want[i].name);
		tap_ok(d.field[ARM64_DEVID_PCSAMPLE].value * 1 == (want[i].devid & 15) &&
		           d.field[ARM64_DEVID_PMSS].value == ((want[i].devid >> 4) & 15) &&
		           d.field[ARM64_DEVID_EXTPMN].value == ((want[i].devid >> 8) & 15),
		       "%s: PMDEVID decodes as %s", want[i].name, want[i].features);
		arm64_pmdevid_fields(&d, fields, sizeof(fields));
		tap_diag("%s: %s", want[i].name, fields);
		uint64_t dfr0 = sr(pe, 1, ARM_EMU_ID_AA64DFR0_EL1, 0);
		tap_is_u64((dfr0 >> 8) & 15, want[i].pmuver, "%s: PMUVer", want[i].name);
		tap_is_u64((dfr0 >> 16) & 15, (want[i].devid >> 4) & 15, "%s: ID_AA64DFR0.PMSS",
		           want[i].name);
		uint64_t mir = sr(pe, 1, ARM_EMU_PMMIR_EL1, 0);
		tap_is_u64(mir & 0xff, want[i].slots, "%s: PMMIR.SLOTS", want[i].name);
		tap_is_u64((mir >> 20) & 15, want[i].thwidth, "%s: PMMIR.THWIDTH", want[i].name);
		tap_is_u64((mir >> 24) & 15, want[i].edge, "%s: PMMIR.EDGE", want[i].name);
		tap_is_u64((mir >> 28) & 1, want[i].sme, "%s: PMMIR.SME", want[i].name);
		tap_is_u64(mir >> 29, 0, "%s: PMMIR 63:29 RES0", want[i].name);
		tap_is_u64(ARM_EMU_PMCR_N(sr(pe, 2, ARM_EMU_PMCR_EL0, 0)), want[i].n, "%s: PMCR.N",
		           want[i].name);
		arm_emu_free(m);
	}
	tap_is_str(arm_emu_features_find("neoverse-v2")->name, "v2", "neoverse-v2 is v2");
	tap_is_str(arm_emu_features_find("Neoverse-N1")->name, "n1", "neoverse-n1 is n1");
	tap_is_str(arm_emu_core_profile("neoverse-n2"), "n2", "neoverse-n2 maps to n2");
	tap_is_str(arm_emu_core_profile("neoverse-v1"), "v1", "neoverse-v1 maps to v1");
	tap_ok(arm_emu_features_find("cortex-a53") == NULL, "an unknown profile is NULL");
}

static void test_absent(void)
{
	/* n1 has no PMSS, PCSample or EXTPMN: the snapshot system registers
	 * are UNDEFINED, the external registers RES0 (read 0, ignore writes),
	 * and a snapshot cannot be taken */
	char err[100];
	struct arm_emu *m = arm_emu_new(arm_emu_features_find("n1"), 1, 1, err, sizeof(err));
	struct arm_emu_pe *pe = arm_emu_pe(m, 0);
	uint64_t v;
	tap_ok(arm_emu_read(pe, 1, ARM_EMU_PMSSCR_EL1, 0, &v) == ARM_EMU_UNDEFINED,
	       "n1: PMSSCR_EL1 UNDEFINED");
	tap_ok(arm_emu_read(pe, 3, ARM_EMU_PMEVCNTSVR_EL1, 0, &v) == ARM_EMU_UNDEFINED,
	       "n1: PMEVCNTSVR0_EL1 UNDEFINED");
	tap_ok(arm_emu_read(pe, 3, ARM_EMU_PMCCNTSVR_EL1, 0, &v) == ARM_EMU_UNDEFINED,
	       "n1: PMCCNTSVR_EL1 UNDEFINED");
	tap_ok(arm_emu_snapshot(pe) < 0, "n1: no snapshot");
	struct arm_emu_run r = {.cycles = 5, .el = 1, .pc = 0x1000};
	arm_emu_run(pe, &r);
	tap_is_u64(xr(pe, ARM_EMU_EXT_PMPCSR), 0, "n1: PMPCSR RES0");
	arm_emu_ext_write(pe, ARM_EMU_EXT_EPMN, 0, 2);
	tap_is_u64(xr(pe, ARM_EMU_EXT_EPMN), 0, "n1: EPMN RES0");
	tap_is_u64(ARM_EMU_PMCR_N(sr(pe, 2, ARM_EMU_PMCR_EL0, 0)), 6, "n1: N stays 6");
	r.sec = ARM_EMU_SEC_REALM;
	tap_ok(arm_emu_run(pe, &r) < 0 && arm_emu_run_check(m, &r, err, sizeof(err)) < 0,
	       "n1: a Realm run is refused: %s", err);
	r.sec = ARM_EMU_SEC_NS;
	r.streaming = true;
	tap_ok(arm_emu_run(pe, &r) < 0, "n1: a streaming run is refused");
	arm_emu_free(m);
}

static void test_extpmn(void)
{
	/* future: N = 31. The external agent reserves counters 28..30
	 * (EPMN = 28): PMCR.N reads 28 at EL2 and EL3 (and EL1, HPMN = 31 >
	 * 28 acting as 28); PMEVCNTR28 is UNDEFINED to the PE; bits 28..30 of
	 * its masks are RAZ/WI. The reserved counters count when the agent
	 * enables them (PMCNTEN through the block, EXTE), whatever PMCR.E. */
	struct pair p = pair_new("future", 1, 1);
	pxw(&p, 0, ARM_EMU_EXT_EPMN, 0, 28);
	struct arm_emu_pe *pe = arm_emu_pe(p.m[0], 0);
	tap_is_u64(ARM_EMU_PMCR_N(sr(pe, 2, ARM_EMU_PMCR_EL0, 0)), 28, "EPMN=28: PMCR.N at EL2");
	tap_is_u64(ARM_EMU_PMCR_N(sr(pe, 3, ARM_EMU_PMCR_EL0, 0)), 28, "EPMN=28: PMCR.N at EL3");
	tap_is_u64(ARM_EMU_PMCR_N(sr(pe, 1, ARM_EMU_PMCR_EL0, 0)), 28, "EPMN=28: PMCR.N at EL1");
	uint64_t v;
	tap_ok(arm_emu_read(pe, 3, ARM_EMU_PMEVCNTR_EL0, 28, &v) == ARM_EMU_UNDEFINED,
	       "EPMN=28: PMEVCNTR28 UNDEFINED at EL3");
	tap_ok(arm_emu_read(pe, 2, ARM_EMU_PMEVCNTR_EL0, 27, &v) == ARM_EMU_OK,
	       "EPMN=28: PMEVCNTR27 at EL2");
	/* counters 27 (the PE's) and 28 (reserved) count CPU_CYCLES */
	pxw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 27, EV_CPU_CYCLES);
	pxw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 28, EV_CPU_CYCLES);
	pw(&p, 0, ARM_EMU_PMCNTENSET_EL0, 0, 0xffffffffu);
	tap_is_u64(sr(pe, 2, ARM_EMU_PMCNTENSET_EL0, 0), 0x8fffffffu,
	           "the PE sets only its 28 counters and C");
	pw(&p, 0, ARM_EMU_PMCR_EL0, 0, ARM_EMU_PMCR_E);
	prun(&p, 0, 1, ARM_EMU_SEC_NS, false, 10, 0);
	pis(&p, 0, CNT, 27, 10, "the PE's counter counts");
	pis(&p, 0, CNT, 28, 0, "a reserved counter the agent has not enabled does not");
	pxw(&p, 0, ARM_EMU_PMCNTENSET_EL0, 0, UINT64_C(1) << 28);
	prun(&p, 0, 1, ARM_EMU_SEC_NS, false, 10, 0);
	pis(&p, 0, CNT, 28, 0, "PMCNTEN[28] without EXTE: still 0");
	pxw(&p, 0, ARM_EMU_EXT_EXTE, 0, 1);
	pw(&p, 0, ARM_EMU_PMCR_EL0, 0, 0);
	prun(&p, 0, 1, ARM_EMU_SEC_NS, false, 10, 0);
	pis(&p, 0, CNT, 28, 10, "EXTE and PMCNTEN[28]: counts with PMCR.E = 0");
	pis(&p, 0, CNT, 27, 20, "while the PE's counters stop (10 + 10 before PMCR.E = 0)");
	/* PMCR.P from EL3 resets only the PE's counters */
	pw(&p, 0, ARM_EMU_PMCR_EL0, 0, ARM_EMU_PMCR_P);
	pis(&p, 0, CNT, 27, 0, "PMCR.P resets the PE's counter 27");
	pis(&p, 0, CNT, 28, 10, "and not reserved counter 28");
	/* an overflow of a reserved counter is not the PE's interrupt */
	pxw(&p, 0, CNT, 28, UINT64_C(0xffffffff));
	pw(&p, 0, ARM_EMU_PMINTENSET_EL1, 0, 0xffffffffu);
	pw(&p, 0, ARM_EMU_PMCR_EL0, 0, ARM_EMU_PMCR_E);
	prun(&p, 0, 1, ARM_EMU_SEC_NS, false, 1, 0);
	pis(&p, 0, ARM_EMU_PMOVSSET_EL0, 0, UINT64_C(1) << 28, "the agent sees PMOVS[28]");
	tap_is_u64(sr(pe, 3, ARM_EMU_PMOVSSET_EL0, 0), 0, "the PE does not");
	tap_ok(!arm_emu_irq_pending(pe), "and has no interrupt");
	pair_free(&p);
}

static void test_snapshot(void)
{
	/* Counters 0 and 1 count CPU_CYCLES and STALL_SLOT (3 a cycle), the
	 * cycle counter too. PMSSCR_EL1 resets to NC = 1 (bit 32: nothing
	 * captured), SS = 0. After 10 cycles: 10, 30, 10; a write of 1 to SS
	 * through the external view requests a Capture event, which completes
	 * at once: PMSSCR reads 0 (NC = 0, SS = 0). 5 more cycles: 15, 45, 15
	 * live, the snapshot registers keep 10, 30, 10. A write of 0 to SS is
	 * ignored; a write of 1 at EL1 captures again (45). */
	char err[100];
	struct arm_emu *m = arm_emu_new(arm_emu_features_find("future"), 1, 1, err, sizeof(err));
	struct arm_emu_pe *pe = arm_emu_pe(m, 0);
	arm_emu_write(pe, 3, ARM_EMU_PMEVTYPER_EL0, 0, EV_CPU_CYCLES);
	arm_emu_write(pe, 3, ARM_EMU_PMEVTYPER_EL0, 1, EV_STALL_SLOT);
	arm_emu_write(pe, 3, ARM_EMU_PMCNTENSET_EL0, 0, 0x80000003u);
	arm_emu_write(pe, 3, ARM_EMU_PMCR_EL0, 0, ARM_EMU_PMCR_E);
	struct arm_emu_val v = {EV_STALL_SLOT, 3};
	struct arm_emu_run r = {.cycles = 10, .el = 1, .nr_vals = 1, .vals = &v};
	arm_emu_run(pe, &r);
	tap_is_u64(sr(pe, 1, ARM_EMU_PMSSCR_EL1, 0), UINT64_C(1) << 32,
	           "PMSSCR_EL1 before a capture: NC = 1, SS = 0");
	arm_emu_ext_write(pe, ARM_EMU_PMSSCR_EL1, 0, 1);
	r.cycles = 5;
	arm_emu_run(pe, &r);
	tap_is_u64(sr(pe, 1, ARM_EMU_PMSSCR_EL1, 0), 0,
	           "PMSSCR_EL1 after a capture: NC = 0, SS = 0 (completed)");
	tap_is_u64(sr(pe, 1, ARM_EMU_PMEVCNTSVR_EL1, 0), 10, "PMEVCNTSVR0: 10");
	tap_is_u64(sr(pe, 1, ARM_EMU_PMEVCNTSVR_EL1, 1), 30, "PMEVCNTSVR1: 30");
	tap_is_u64(sr(pe, 1, ARM_EMU_PMCCNTSVR_EL1, 0), 10, "PMCCNTSVR: 10");
	tap_is_u64(sr(pe, 1, ARM_EMU_PMEVCNTR_EL0, 1), 45, "live counter 1: 45");
	uint64_t x;
	tap_ok(arm_emu_read(pe, 0, ARM_EMU_PMEVCNTSVR_EL1, 0, &x) == ARM_EMU_UNDEFINED,
	       "PMEVCNTSVR0_EL1 UNDEFINED at EL0");
	tap_ok(arm_emu_read(pe, 0, ARM_EMU_PMSSCR_EL1, 0, &x) == ARM_EMU_UNDEFINED,
	       "PMSSCR_EL1 UNDEFINED at EL0");
	tap_ok(arm_emu_write(pe, 1, ARM_EMU_PMEVCNTSVR_EL1, 0, 1) == ARM_EMU_UNDEFINED,
	       "PMEVCNTSVR0_EL1 is read-only");
	arm_emu_write(pe, 1, ARM_EMU_PMSSCR_EL1, 0, 0);
	tap_is_u64(sr(pe, 1, ARM_EMU_PMEVCNTSVR_EL1, 1), 30, "a write of 0 to SS is ignored");
	arm_emu_write(pe, 1, ARM_EMU_PMSSCR_EL1, 0, 1);
	tap_is_u64(sr(pe, 1, ARM_EMU_PMEVCNTSVR_EL1, 1), 45, "a write of 1 at EL1 captures");
	tap_ok(arm_emu_snapshot(pe) == 0 && sr(pe, 1, ARM_EMU_PMCCNTSVR_EL1, 0) == 15,
	       "arm_emu_snapshot() takes one too");
	arm_emu_free(m);
}

static void test_pcsample(void)
{
	/* future: PCSample level 2. A run at NS EL1 with PC 0x4000_1234,
	 * CONTEXTIDR 7, VMID 3, then one without a PC (0): PMPCSR reads
	 * 0xFFFFFFFF while PMPCSCTL.EN = 0; with EN = 1 it reads the PC with
	 * EL 1 in 62:61 and NS in 63: 0xA000_0000_4000_1234, and PMCID1SR,
	 * PMVIDSR read 7 and 3. A Secure run's PC while MDCR_EL3.SPME = 0 is
	 * not sampled (0xFFFFFFFF). */
	char err[100];
	struct arm_emu *m = arm_emu_new(arm_emu_features_find("future"), 1, 1, err, sizeof(err));
	struct arm_emu_pe *pe = arm_emu_pe(m, 0);
	tap_is_u64(xr(pe, ARM_EMU_EXT_PMPCSR), 0xffffffffu, "no PC yet: 0xFFFFFFFF");
	struct arm_emu_run r = {.cycles = 5, .el = 1, .pc = 0x40001234u, .context = 7, .vmid = 3};
	arm_emu_run(pe, &r);
	struct arm_emu_run r2 = {.cycles = 5, .el = 0};
	arm_emu_run(pe, &r2);
	tap_is_u64(xr(pe, ARM_EMU_EXT_PMPCSR), 0xffffffffu, "PMPCSCTL.EN = 0: 0xFFFFFFFF");
	arm_emu_ext_write(pe, ARM_EMU_EXT_PMPCSCTL, 0, 1);
	tap_is_u64(xr(pe, ARM_EMU_EXT_PMPCSCTL), 1, "PMPCSCTL.EN reads 1");
	tap_is_u64(xr(pe, ARM_EMU_EXT_PMPCSR), UINT64_C(0xa000000040001234), "PMPCSR: PC, EL1, NS");
	tap_is_u64(xr(pe, ARM_EMU_EXT_PMCID1SR), 7, "PMCID1SR: the sample's context ID");
	tap_is_u64(xr(pe, ARM_EMU_EXT_PMVIDSR), 3, "PMVIDSR: the sample's VMID");
	struct arm_emu_run r3 = {.cycles = 5, .el = 1, .sec = ARM_EMU_SEC_S, .pc = 0x8000};
	arm_emu_run(pe, &r3);
	tap_is_u64(xr(pe, ARM_EMU_EXT_PMPCSR), 0xffffffffu, "Secure PC with SPME = 0: no sample");
	arm_emu_write(pe, 3, ARM_EMU_MDCR_EL3, 0, ARM_EMU_MDCR3_SPME);
	tap_is_u64(xr(pe, ARM_EMU_EXT_PMPCSR), UINT64_C(0x2000000000008000),
	           "SPME = 1: the Secure PC, EL1, NS = 0");
	arm_emu_free(m);
}

static void test_swincr(void)
{
	/* SW_INCR: counter 0 counts it with no filter, counter 1 with U = 1
	 * (not EL0), counter 2 counts CPU_CYCLES. PMSWINC writes: bits 0-2 at
	 * EL1 -> counters 0, 1 +1 (counter 2 is not SW_INCR); bits 0-1 at EL0
	 * (PMUSERENR.SW) -> counter 0 +1, counter 1 filtered. */
	struct pair p = pair_new("v2", 1, 1);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 0, EV_SW_INCR);
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 1, EV_SW_INCR | (UINT64_C(1) << 30));
	pw(&p, 0, ARM_EMU_PMEVTYPER_EL0, 2, EV_CPU_CYCLES);
	penable(&p, 0, 7, 0);
	pw(&p, 0, ARM_EMU_PMUSERENR_EL0, 0, ARM_EMU_USERENR_SW);
	for (int i = 0; i < 2; i++) {
		struct arm_emu_pe *pe = arm_emu_pe(p.m[i], 0);
		arm_emu_write(pe, 1, ARM_EMU_PMSWINC_EL0, 0, 7);
		arm_emu_write(pe, 0, ARM_EMU_PMSWINC_EL0, 0, 3);
	}
	pis(&p, 0, CNT, 0, 2, "SW_INCR counted at EL1 and EL0");
	pis(&p, 0, CNT, 1, 1, "SW_INCR with U=1: EL1 only");
	pis(&p, 0, CNT, 2, 0, "PMSWINC does not touch a CPU_CYCLES counter");
	pair_free(&p);
}

int main(void)
{
	test_ids();
	test_absent();
	test_extpmn();
	test_snapshot();
	test_pcsample();
	test_swincr();
	return tap_done();
}
