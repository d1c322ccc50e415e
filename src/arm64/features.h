/* features.h: the Arm PMUv3 feature profiles: what a PMU implements.
 *
 * Owns: struct arm_emu_features, the emulator's feature profiles ("n1",
 * "v1", "n2", "v2", "future") and the one table from the Arm cores of
 * arm64/model.c to them (features.c), and the struct arm64_ctx of a
 * profile (what pmevtyper.c checks a value against). They are the one
 * source of what a core has: the emulator implements exactly these
 * registers and fields, and encode, decode and the Arm models refuse or
 * flag the fields a core has not got. Library code: never prints, never
 * exits.
 */
#ifndef HPM_ARM64_FEATURES_H
#define HPM_ARM64_FEATURES_H

#include <stdbool.h>

#include "arm64/pmevtyper.h"

/* What a PMU implements. Fields say which Arm ARM feature is present. */
struct arm_emu_features {
	const char *name;     /* "n1", "v2", "future" */
	const char *about;    /* one line for listings */
	unsigned pmuver;      /* ID_AA64DFR0_EL1.PMUVer: 0b0101 PMUv3p4, 0b0110 p5,
	                       * 0b1000 p8, 0b1001 p9 */
	unsigned nr_counters; /* PMCR_EL0.N as implemented (1..31) */
	unsigned thwidth;     /* PMMIR_EL1.THWIDTH: 0 no FEAT_PMUv3_TH */
	unsigned slots;       /* PMMIR_EL1.SLOTS: the most VB of a slot event */
	unsigned slot_bias;   /* slots STALL_SLOT_FRONTEND and STALL_SLOT count every cycle
	                       * besides stalls (1 on Neoverse N2, whose metrics subtract
	                       * CPU_CYCLES); what the workload source must deliver */
	bool edge;            /* FEAT_PMUv3_EDGE (PMEVTYPER.TE, PMMIR.EDGE) */
	bool th2;             /* FEAT_PMUv3_TH2 (PMEVTYPER.TLC) */
	bool mtpmu;           /* FEAT_MTPMU (PMEVTYPER.MT) */
	bool sel2;            /* FEAT_SEL2: Secure EL2 exists (PMEVTYPER.SH) */
	bool rme;             /* FEAT_RME: Realm and Root (RLK, RLU, RLH) */
	bool sme;             /* FEAT_SME: streaming mode (PMEVTYPER.VS) */
	bool hpmn0;           /* FEAT_HPMN0: MDCR_EL2.HPMN may be 0 */
	unsigned pmss;        /* PMDEVID.PMSS: 1 = FEAT_PMUv3_SS snapshots */
	unsigned extpmn;      /* PMDEVID.EXTPMN: 1 = FEAT_PMUv3_EXTPMN */
	unsigned pcsample;    /* PMDEVID.PCSample: 0 none, 1 PMPCSR, 2 + PMPCSCTL */
};

/* A profile by name: "n1", "v2", "future", or an Arm core name of
 * arm64/model.c ("neoverse-n1", ...) through the table of
 * arm_emu_core_profile(); case-insensitive. NULL when unknown. */
const struct arm_emu_features *arm_emu_features_find(const char *name);
/* The i-th profile, for listings; NULL past the end. */
const struct arm_emu_features *arm_emu_features_at(unsigned i);
/* The profile name an Arm core maps to ("neoverse-v2" -> "v2"), NULL if
 * the core is not in the table. */
const char *arm_emu_core_profile(const char *core);
/* What pmevtyper.c checks a PMEVTYPER<n>_EL0 value for counter `counter`
 * (-1 not known) against on PMU f; `core` names it in messages ("Neoverse
 * N1"; NULL: the profile's name). */
struct arm64_ctx arm_emu_features_ctx(const struct arm_emu_features *f, int counter,
                                      const char *core);

#endif
