/* source.h: the contract between the Arm emulator's event sources and its
 * PEs (issue 14).
 *
 * Owns: the numbering of exception levels and security states, one cycle's
 * context, and struct arm_emu_run. A source (exact per-cycle values from a
 * script's `feed`, a workload profile's stream, a trace's replay) produces
 * runs of identical cycles for one PE; the machine (pmu.c) consumes them.
 * Runs are the unit of the fast path: a counter whose rule gives the same
 * increment in every cycle of a run adds cycles x increment; a rule with
 * state from cycle to cycle (an edge, a link to counter n-1 of such a
 * rule) is still exact because the run says that its cycles are identical.
 *
 * What a source does not deliver: CPU_CYCLES (0x0011) is 1 in every cycle
 * of every run, added by the machine; SW_INCR (0x0000) comes from writes of
 * PMSWINC_EL0, never from a source. Every other event delivers, in each
 * cycle of a run, the VB its entry says (0 when it has no entry). VB is the
 * event's increment in one cycle (SPEC §5): 0 or 1 for most events, up to
 * PMMIR_EL1.SLOTS for the STALL_SLOT family; a source checks what it
 * declares against the profile's slot count and refuses more.
 */
#ifndef HPM_ARM64_EMU_SOURCE_H
#define HPM_ARM64_EMU_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

/* The exception level a cycle runs at. */
enum arm_emu_el {
	ARM_EMU_EL0,
	ARM_EMU_EL1,
	ARM_EMU_EL2,
	ARM_EMU_EL3,
	ARM_EMU_NR_EL,
};

/* The security state of a cycle (EL3 is always Root/Secure as the Arm ARM
 * says; a run at EL3 gives ARM_EMU_SEC_S unless FEAT_RME makes it Root). */
enum arm_emu_sec {
	ARM_EMU_SEC_NS,    /* Non-secure */
	ARM_EMU_SEC_S,     /* Secure */
	ARM_EMU_SEC_REALM, /* Realm (FEAT_RME) */
	ARM_EMU_SEC_ROOT,  /* Root (FEAT_RME, EL3 only) */
	ARM_EMU_NR_SEC,
};

/* One event's per-cycle value in a run. */
struct arm_emu_val {
	uint16_t event; /* the PMU event number (evtCount) */
	uint16_t vb;    /* its increment in each cycle of the run */
};

/* `cycles` consecutive identical cycles of one PE: the context they run in
 * and the events they deliver. vals is sorted by event number, without
 * duplicates and without CPU_CYCLES or SW_INCR. */
struct arm_emu_run {
	uint64_t cycles;
	uint32_t key;       /* 0, or a source-chosen id promising that every field but cycles
	                     * equals those of every earlier run with the same key from this
	                     * source, so a consumer may cache per-run results */
	const void *source; /* identity of the producer: keys are only comparable within one */
	uint8_t el;         /* enum arm_emu_el */
	uint8_t sec;        /* enum arm_emu_sec */
	bool streaming;     /* SME streaming mode (PSTATE.SM), for PMEVTYPER.VS */
	uint64_t pc;        /* a PC executed in the run, for PCSample; 0: none */
	uint32_t context;   /* CONTEXTIDR_EL1 of the run (PCSample's context ID) */
	uint16_t vmid;      /* VTTBR_EL2.VMID (PCSample's VMID) */
	unsigned nr_vals;
	const struct arm_emu_val *vals;
};

#endif
