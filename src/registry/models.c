/* models.c: the one table of PMU models and their machines (see models.h). */
#include "registry/models.h"

#include <stdio.h>
#include <string.h>

#include "arm64/emu/machine.h"
#include "arm64/features.h"
#include "arm64/model.h"
#include "kmh/emu/machine.h"
#include "kmh/model.h"
#include "util/suggest.h"
#include "util/xalloc.h"

struct entry {
	const struct hpm_pmu_model *model;
	const struct hpm_emu_machine *machine; /* NULL: no emulator */
};

/* The models, one line each: a new PMU is a folder and a line here. */
static const struct entry builtin[] = {
    {&hpm_model_kunminghu, &hpm_machine_kunminghu},
    {&hpm_model_kunminghu_v3, &hpm_machine_kunminghu_v3},
    {&hpm_model_neoverse_n1, &hpm_machine_neoverse_n1},
    {&hpm_model_neoverse_n2, &hpm_machine_neoverse_n2},
    {&hpm_model_neoverse_n2_r0p0, &hpm_machine_neoverse_n2_r0p0},
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

/* Other names of a model: kunminghu is the name runs and scripts have always
 * used for Kunminghu's v2 table, kunminghu-v2 says which table it is. */
static const struct {
	const char *name, *model;
} other_names[] = {
    {"kunminghu-v2", "kunminghu"},
};

const struct hpm_pmu_model *hpm_model_by_name(const char *name)
{
	for (unsigned i = 0; i < sizeof(other_names) / sizeof(other_names[0]); i++)
		if (strcmp(name, other_names[i].name) == 0)
			name = other_names[i].model;
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

const char *hpm_model_table_name(const struct hpm_pmu_model *m)
{
	for (unsigned i = 0; i < sizeof(other_names) / sizeof(other_names[0]); i++)
		if (strcmp(m->name, other_names[i].model) == 0)
			return other_names[i].name;
	return m->name;
}

const struct hpm_pmu_model *hpm_model_other_with(const struct hpm_pmu_model *asked,
                                                 const char *name, const uint64_t *value)
{
	for (unsigned i = 0; i < hpm_model_count(); i++) {
		const struct hpm_pmu_model *m = hpm_model_at(i);
		struct hpm_event_code code;
		struct hpm_diag d = {0};
		/* by name: a raw value encodes in every model */
		if (m != asked && m->encode(m, name, &code, &d) == 0 && !code.raw &&
		    (!value || code.value == *value))
			return m;
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

void hpm_model_unknown_msg(const char *name, char *buf, size_t len)
{
	const char *close[3];
	struct suggest sg;
	size_t n = strlen(name);
	/* a model further away than about a third of the name is noise */
	suggest_init(&sg, name, n, (unsigned)(n / 3 + 1), true, close, 3);
	for (unsigned i = 0; i < hpm_model_count(); i++)
		suggest_offer(&sg, entry_at(i)->model->name);
	for (unsigned i = 0; i < sizeof(other_names) / sizeof(other_names[0]); i++)
		suggest_offer(&sg, other_names[i].name);
	size_t w = (size_t)snprintf(buf, len, "--pmu '%s': no such PMU model", name);
	for (unsigned i = 0; i < sg.n && w < len; i++)
		w += (size_t)snprintf(buf + w, len - w, "%s%s", i ? ", " : "; did you mean ",
		                      close[i]);
	if (sg.n && w < len)
		w += (size_t)snprintf(buf + w, len - w, "?");
	for (unsigned i = 0; i < hpm_model_count() && w < len; i++)
		w += (size_t)snprintf(buf + w, len - w, "%s%s",
		                      i ? ", " : " (known: ", entry_at(i)->model->name);
	if (w < len)
		snprintf(buf + w, len - w, ")");
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

const struct hpm_emu_commands *hpm_emu_commands_at(unsigned i)
{
	unsigned seen = 0;
	for (unsigned k = 0; k < hpm_model_count(); k++) {
		const struct hpm_emu_machine *m = entry_at(k)->machine;
		if (!m || !m->commands)
			continue;
		bool first = true; /* the first machine that has these commands */
		for (unsigned j = 0; j < k && first; j++)
			first =
			    !entry_at(j)->machine || entry_at(j)->machine->commands != m->commands;
		if (first && seen++ == i)
			return m->commands;
	}
	return NULL;
}

const struct hpm_emu_commands *hpm_emu_commands_for_arch(const char *arch)
{
	const struct hpm_emu_commands *c;
	for (unsigned i = 0; (c = hpm_emu_commands_at(i)); i++)
		if (strcmp(c->arch, arch) == 0 ||
		    (c->arch_alias && strcmp(c->arch_alias, arch) == 0))
			return c;
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
