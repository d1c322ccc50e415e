/* models.c: the one table of PMU models and their machines (see models.h). */
#include "core/models.h"

#include <string.h>

#include "arm64/emu/machine.h"
#include "arm64/features.h"
#include "arm64/model.h"
#include "kmh/emu/machine.h"
#include "kmh/model.h"
#include "util/xalloc.h"

struct entry {
	const struct hpm_pmu_model *model;
	const struct hpm_emu_machine *machine; /* NULL: no emulator */
};

/* The models, one line each: a new PMU is a folder and a line here. */
static const struct entry builtin[] = {
    {&hpm_model_kunminghu, &hpm_machine_kunminghu},
    {&hpm_model_neoverse_n1, &hpm_machine_neoverse_n1},
    {&hpm_model_neoverse_n2, &hpm_machine_neoverse_n2},
    {&hpm_model_neoverse_v1, &hpm_machine_neoverse_v1},
    {&hpm_model_neoverse_v2, &hpm_machine_neoverse_v2},
};
#define NR_BUILTIN (sizeof(builtin) / sizeof(builtin[0]))

/* hpm_model_register()'s, after the built-in ones */
static struct entry *added;
static unsigned nr_added;

/* Entry i < hpm_model_count(). */
static const struct entry *entry_at(unsigned i)
{
	return i < NR_BUILTIN ? &builtin[i] : &added[i - NR_BUILTIN];
}

unsigned hpm_model_count(void)
{
	return (unsigned)NR_BUILTIN + nr_added;
}

const struct hpm_pmu_model *hpm_model_at(unsigned i)
{
	return i < hpm_model_count() ? entry_at(i)->model : NULL;
}

const struct hpm_pmu_model *hpm_model_by_name(const char *name)
{
	for (unsigned i = 0; i < hpm_model_count(); i++)
		if (strcmp(entry_at(i)->model->name, name) == 0)
			return entry_at(i)->model;
	/* an Arm core's short name (v2 for neoverse-v2): the one emu's --pmu
	 * takes, from the same table (arm64/features.c) */
	for (unsigned i = 0; i < hpm_model_count(); i++) {
		const char *s = arm_emu_core_profile(entry_at(i)->model->name);
		if (s && strcmp(s, name) == 0)
			return entry_at(i)->model;
	}
	return NULL;
}

const struct hpm_pmu_model *hpm_model_arch(const char *arch)
{
	static const struct hpm_pmu_model *const archs[] = {&hpm_model_arm64};
	for (unsigned i = 0; i < sizeof(archs) / sizeof(archs[0]); i++)
		if (strcmp(archs[i]->arch, arch) == 0)
			return archs[i];
	return NULL;
}

const struct hpm_pmu_model *hpm_model_for_cpuid(const char *cpuid)
{
	for (unsigned i = 0; cpuid && i < hpm_model_count(); i++) {
		const struct hpm_pmu_model *m = entry_at(i)->model;
		if (m->match_cpuid && m->match_cpuid(m, cpuid))
			return m;
	}
	return NULL;
}

const struct hpm_emu_machine *hpm_model_machine(const struct hpm_pmu_model *m)
{
	for (unsigned i = 0; m && i < hpm_model_count(); i++)
		if (entry_at(i)->model == m)
			return entry_at(i)->machine;
	return NULL;
}

int hpm_model_register(const struct hpm_pmu_model *m, const struct hpm_emu_machine *machine)
{
	if (!m || !m->name || hpm_model_by_name(m->name))
		return -1;
	added = xreallocarray(added, nr_added + 1, sizeof(*added));
	added[nr_added].model = m;
	added[nr_added].machine = machine;
	nr_added++;
	return 0;
}
