/* pmu-int.h: what the files of libarm64emu share beyond pmu.h.
 *
 * Owns: the register table (names, lowest EL, read-only/write-only,
 * indexed, external; regs.c defines it) and the bookkeeping of a run that
 * is not counting (context and PC sample), which both counting engines
 * call. Not for use outside src/arm64/emu.
 */
#ifndef HPM_ARM64_EMU_PMU_INT_H
#define HPM_ARM64_EMU_PMU_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "arm64/emu/pmu.h"

struct arm_emu_reg_info {
	const char *name;   /* without the index: "PMEVTYPER" + n + "_EL0" is split */
	const char *suffix; /* "_EL0" after the index of an indexed register */
	uint8_t min_el;     /* lowest EL whose access is not UNDEFINED */
	bool indexed;
	bool external;
	bool ro, wo;
};
extern const struct arm_emu_reg_info arm_emu_regs[ARM_EMU_NR_REGS];

/* Records the run's context as the PE's and, when run->pc is non-zero,
 * the PC, EL, state, context ID and VMID PC sampling returns. */
void arm_emu_note_run(struct arm_emu_pe *pe, const struct arm_emu_run *run);
/* Checks a core's runs: same cycles, each possible on the profile. */
int arm_emu_core_check(const struct arm_emu *m, unsigned core,
                       const struct arm_emu_run *const *runs);
/* Fills idle[] (K runs) with runs[k] = run for PE pe and idle runs of the
 * same cycles for the other PEs of its core; returns the core. */
unsigned arm_emu_idle_runs(struct arm_emu_pe *pe, const struct arm_emu_run *run,
                           struct arm_emu_run *idle, const struct arm_emu_run **runs);
/* MDCR_EL2.HPMN as it acts: never beyond the PE's counters. */
unsigned arm_emu_hpmn(const struct arm_emu_pe *pe);
/* Counts a software increment (PMSWINC_EL0) of the counters in bits at
 * el: the counting's part of the register's write (pmu-access.c). */
void arm_emu_sw_incr(struct arm_emu_pe *pe, unsigned el, uint32_t bits);

#endif
