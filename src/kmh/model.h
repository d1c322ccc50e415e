/* model.h (kmh): Kunminghu's instance of the PMU-model interface.
 *
 * Owns: hpm_model_kunminghu and hpm_model_kunminghu_v3, the objects the
 * registry (registry/models.c) lists, one per XiangShan event table;
 * model.c builds it from the tables,
 * encoder, modifiers, ADD merge and metric table (metrics-gen.c) of this folder. Its emulated
 * machine is kmh/emu/machine.h.
 */
#ifndef HPM_KMH_MODEL_H
#define HPM_KMH_MODEL_H

#include "arch/model.h"

extern const struct hpm_pmu_model hpm_model_kunminghu;    /* kunminghu-v2's table */
extern const struct hpm_pmu_model hpm_model_kunminghu_v3; /* kunminghu-v3's table */

#endif
