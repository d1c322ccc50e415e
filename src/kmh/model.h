/* model.h (kmh): Kunminghu's instance of the PMU-model interface.
 *
 * Owns: hpm_model_kunminghu, the one object the registry (core/models.c)
 * lists; model.c builds it from the tables, encoder, modifiers, ADD merge
 * and metric table (metrics-gen.c) of this folder. Its emulated machine is
 * kmh/emu/machine.h.
 */
#ifndef HPM_KMH_MODEL_H
#define HPM_KMH_MODEL_H

#include "arch/model.h"

extern const struct hpm_pmu_model hpm_model_kunminghu;

#endif
