/* model.h (kmh): Kunminghu's instance of the PMU-model interface.
 *
 * Owns: hpm_model_kunminghu and hpm_model_kunminghu_v3, the objects the
 * registry (registry/models.c) lists, one per XiangShan event table;
 * model.c builds it from the tables, encoder, modifiers, ADD merge and
 * metric table (metrics-gen.c) of this folder. Its emulated machine is
 * kmh/emu/machine.h. Also the index of each of its fixed counters in its
 * fixed[] (enum kmh_fixed), for code that programs or tests a Kunminghu
 * counter by name; the layers above ask the model what a fixed counter is
 * (hpm_model_fixed_is).
 */
#ifndef HPM_KMH_MODEL_H
#define HPM_KMH_MODEL_H

#include "arch/model.h"

extern const struct hpm_pmu_model hpm_model_kunminghu;    /* kunminghu-v2's table */
extern const struct hpm_pmu_model hpm_model_kunminghu_v3; /* kunminghu-v3's table */

/* The models' fixed counters: their index in fixed[] (struct
 * hpm_event_code's fixed), the same in both tables. */
enum kmh_fixed {
	KMH_FIXED_MCYCLE,
	KMH_FIXED_MINSTRET,
};

#endif
