/* models.h: the registry of PMU models.
 *
 * Owns: the one table of the models hpmstat knows (models.c), in order,
 * and its lookups: by name (run files, --pmu) and by the cpuid perf builds
 * from /proc/cpuinfo (detection). It sits above the model folders (src/kmh)
 * and the interface they implement (arch/model.h); everything above asks
 * here and never names a model.
 */
#ifndef HPM_CORE_MODELS_H
#define HPM_CORE_MODELS_H

#include "arch/model.h"

unsigned hpm_model_count(void);
const struct hpm_pmu_model *hpm_model_at(unsigned i);
/* By name ("kunminghu"), or NULL. */
const struct hpm_pmu_model *hpm_model_by_name(const char *name);
/* The model whose cores `cpuid` names, or NULL. */
const struct hpm_pmu_model *hpm_model_for_cpuid(const char *cpuid);

#endif
