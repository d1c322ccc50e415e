/* models.c: the one table of PMU models (see models.h). */
#include "core/models.h"

#include <string.h>

#include "kmh/model.h"

/* The models, one line each: a new PMU is a folder and a line here. */
static const struct hpm_pmu_model *const models[] = {
    &hpm_model_kunminghu,
};

unsigned hpm_model_count(void)
{
	return sizeof(models) / sizeof(models[0]);
}

const struct hpm_pmu_model *hpm_model_at(unsigned i)
{
	return i < hpm_model_count() ? models[i] : NULL;
}

const struct hpm_pmu_model *hpm_model_by_name(const char *name)
{
	for (unsigned i = 0; i < hpm_model_count(); i++)
		if (strcmp(models[i]->name, name) == 0)
			return models[i];
	return NULL;
}

const struct hpm_pmu_model *hpm_model_for_cpuid(const char *cpuid)
{
	for (unsigned i = 0; cpuid && i < hpm_model_count(); i++)
		if (models[i]->match_cpuid && models[i]->match_cpuid(cpuid))
			return models[i];
	return NULL;
}
