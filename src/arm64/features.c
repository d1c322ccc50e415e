/* features.c: the Arm emulator's feature profiles and the table mapping
 * the Arm cores of arm64/model.c to them (see arm64/features.h).
 *
 * The profiles are PMUs "like" a core, not copies of one: they choose the
 * features an emulated run can exercise.
 *  - n1: Neoverse-N1-like. PMUv3p4 (PMMIR_EL1 exists), 6 counters of 32
 *    bits, no threshold, edge or linking, no MT, no Secure EL2, no Realm, no
 *    SME, nothing in PMDEVID. SLOTS 4 (N1 dispatches 4 per cycle).
 *  - v2: Neoverse-V2-like with FEAT_PMUv3_TH. 6 counters of 64 bits
 *    (PMUv3p5), THWIDTH 12, SLOTS 8, MT, Secure EL2. FEAT_PMUv3_TH is an
 *    Armv8.8 feature, so PMUVer reads 0b1000 (PMUv3p8), which includes p5.
 *    No edge, no linking, no SME, no RME, nothing in PMDEVID.
 *  - future: everything: PMUv3p9, 31 counters, THWIDTH 12, EDGE, TH2, MT,
 *    SEL2, RME, SME, HPMN0, PMDEVID PCSample 2 (PMPCSCTL), PMSS 1, EXTPMN 1,
 *    SLOTS 8.
 */
#include "config.h"

#include <stddef.h>
#include <strings.h>

#include "arm64/features.h"

static const struct arm_emu_features profiles[] = {
    {
        .name = "n1",
        .about = "Neoverse-N1-like: PMUv3p4, 6 32-bit counters, no threshold",
        .pmuver = 0x5,
        .nr_counters = 6,
        .slots = 4,
    },
    {
        .name = "v1",
        .about = "Neoverse-V1-like: PMUv3p4, 6 32-bit counters, 8 slots, no threshold",
        .pmuver = 0x5,
        .nr_counters = 6,
        .slots = 8,
    },
    {
        .name = "n2",
        .about = "Neoverse-N2-like (r0p3 and later): PMUv3p5 64-bit counters, 6 counters, "
                 "5 slots, no threshold",
        .pmuver = 0x6,
        .nr_counters = 6,
        .slots = 5,
    },
    {
        .name = "n2-r0p0",
        .about = "Neoverse-N2-like r0p0-r0p2: as n2, and STALL_SLOT_FRONTEND and STALL_SLOT "
                 "count one extra slot a cycle (the erratum Arm's r0p0-r0p2 metrics correct)",
        .pmuver = 0x6,
        .nr_counters = 6,
        .slots = 5,
        .slot_bias = 1,
    },
    {
        .name = "v2",
        .about = "Neoverse-V2-like: PMUv3p5 64-bit counters, 6 counters, threshold "
                 "(THWIDTH 12), MT",
        .pmuver = 0x8,
        .nr_counters = 6,
        .thwidth = 12,
        .slots = 8,
        .mtpmu = true,
        .sel2 = true,
    },
    {
        .name = "future",
        .about = "every feature: 31 counters, TH, EDGE, TH2 linking, MT, SME, RME, "
                 "PMSS snapshot, EXTPMN, PCSample level 2",
        .pmuver = 0x9,
        .nr_counters = 31,
        .thwidth = 12,
        .slots = 8,
        .edge = true,
        .th2 = true,
        .mtpmu = true,
        .sel2 = true,
        .rme = true,
        .sme = true,
        .hpmn0 = true,
        .pmss = 1,
        .extpmn = 1,
        .pcsample = 2,
    },
};

/* The one table from the Arm cores (arm64/model.c) to profiles. V1
 * (Armv8.4: PMUv3p4, 8 slots) and N2 (Armv9.0: PMUv3p5, 5 slots) have
 * their own slot counts, which their Topdown metrics use, and no threshold;
 * V2 is the threshold-capable stand-in the issue asks for. */
static const struct {
	const char *core;
	const char *profile;
} core_map[] = {
    {"neoverse-n1", "n1"}, {"neoverse-n2", "n2"}, {"neoverse-n2-r0p0", "n2-r0p0"},
    {"neoverse-v1", "v1"}, {"neoverse-v2", "v2"},
};

const struct arm_emu_features *arm_emu_features_at(unsigned i)
{
	return i < sizeof(profiles) / sizeof(profiles[0]) ? &profiles[i] : NULL;
}

const char *arm_emu_core_profile(const char *core)
{
	for (size_t i = 0; i < sizeof(core_map) / sizeof(core_map[0]); i++)
		if (strcasecmp(core_map[i].core, core) == 0)
			return core_map[i].profile;
	return NULL;
}

const struct arm_emu_features *arm_emu_features_find(const char *name)
{
	const char *p = arm_emu_core_profile(name);
	if (p)
		name = p;
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
		if (strcasecmp(profiles[i].name, name) == 0)
			return &profiles[i];
	return NULL;
}

struct arm64_ctx arm_emu_features_ctx(const struct arm_emu_features *f, int counter,
                                      const char *core)
{
	return (struct arm64_ctx){
	    .counter = counter,
	    .thwidth = (int)f->thwidth,
	    .pmuv3p1 = f->pmuver >= 4,
	    .edge = f->edge,
	    .th2 = f->th2,
	    .mt = f->mtpmu,
	    .sel2 = f->sel2,
	    .rme = f->rme,
	    .sme = f->sme,
	    .sebep = false, /* no profile has FEAT_SEBEP: SYNC is RES0 on all */
	    .tme = false,   /* nor FEAT_TME (no Neoverse core has it): T is RES0 */
	    .core = core ? core : f->name,
	};
}
