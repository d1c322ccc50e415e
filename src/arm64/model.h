/* model.h (arm64): the Arm cores as PMU models (arch/model.h).
 *
 * Owns: one hpm_pmu_model per core of events/arm64/mapfile.csv
 * (arm64_cores[]), the objects the registry (registry/models.c) lists. One set
 * of operations in model.c serves them all: each model's data names its
 * core, whose event table, MIDR and metric table the operations read; the
 * perf_event_attr mapping is perf-attr.c's. No emulated machine yet.
 */
#ifndef HPM_ARM64_MODEL_H
#define HPM_ARM64_MODEL_H

#include "arch/model.h"

extern const struct hpm_pmu_model hpm_model_neoverse_n1;
extern const struct hpm_pmu_model hpm_model_neoverse_n2;
extern const struct hpm_pmu_model hpm_model_neoverse_n2_r0p0;
extern const struct hpm_pmu_model hpm_model_neoverse_v1;
extern const struct hpm_pmu_model hpm_model_neoverse_v2;
/* The Arm PMUv3 architecture as a model: every standard event of
 * events/arm64, every field of the newest PMUv3 (ARM64_CTX_ANY). Not a
 * registered model (nothing detects it): hpm_model_arch() gives it. */
extern const struct hpm_pmu_model hpm_model_arm64;

#endif
