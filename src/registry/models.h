/* models.h: the registry of PMU models.
 *
 * Owns: the one table of the models hpmstat knows (models.c), in order,
 * each paired with its emulated machine (arch/machine.h) or none, and its
 * lookups: by name (run files, --pmu), by the cpuid perf builds from
 * /proc/cpuinfo (detection) and a model's machine (the emulator back end).
 * It sits above the model folders (src/kmh) and the interfaces they
 * implement (arch/model.h, arch/machine.h); everything above asks here and
 * never names a model. The built-in models come first; a program may add
 * its own after them (hpm_model_register: the tests' throwaway models).
 */
#ifndef HPM_REGISTRY_MODELS_H
#define HPM_REGISTRY_MODELS_H

#include "arch/machine.h"
#include "arch/model.h"

unsigned hpm_model_count(void);
const struct hpm_pmu_model *hpm_model_at(unsigned i);
/* By name ("kunminghu", "kunminghu-v3"), another name of one
 * ("kunminghu-v2", v2's explicit name), or an Arm core's short name ("v2",
 * as emu's --pmu spells it), or NULL. */
const struct hpm_pmu_model *hpm_model_by_name(const char *name);
/* The name that says which event table m is ("kunminghu-v2" for
 * kunminghu, whose other name it is; m's own name for the others): what
 * output names when detection cannot tell two tables of one core apart. */
const char *hpm_model_table_name(const struct hpm_pmu_model *m);
/* Another registered model than `asked` in which `name` is an event by
 * name (not a raw value), encoded to *value when value is not NULL; NULL
 * when there is none: which table a name (list's "an event of ..."), or a
 * run file's recorded encoding of it, belongs to when asked's does not. */
const struct hpm_pmu_model *hpm_model_other_with(const struct hpm_pmu_model *asked,
                                                 const char *name, const uint64_t *value);
/* The message for --pmu NAME that names no model, one line without the
 * program's name: "--pmu 'NAME': no such PMU model; did you mean X? (known:
 * ...)", the closest names offered when there are close ones. */
void hpm_model_unknown_msg(const char *name, char *buf, size_t len);
/* The architecture `arch` itself as a model, where it has one apart from
 * its cores ("arm64": every standard event and field of the newest PMUv3),
 * or NULL. Not among hpm_model_at()'s. */
const struct hpm_pmu_model *hpm_model_arch(const char *arch);
/* The model whose cores `cpuid` names, or NULL. */
const struct hpm_pmu_model *hpm_model_for_cpuid(const char *cpuid);
/* The emulated machine of model m, NULL when it has none (or m is no
 * registered model). */
const struct hpm_emu_machine *hpm_model_machine(const struct hpm_pmu_model *m);
/* The commands `hpmstat emu` runs on the emulators (arch/machine.h): the
 * i-th distinct one among the models' machines, in the models' order (the
 * first is the default of `hpmstat emu`), or NULL past the last. */
const struct hpm_emu_commands *hpm_emu_commands_at(unsigned i);
/* The one whose arch or arch_alias is `arch`, or NULL. */
const struct hpm_emu_commands *hpm_emu_commands_for_arch(const char *arch);
/* Adds model m, with its machine or NULL, after the models registered so
 * far, for the rest of the process. Returns 0, or -1 when m has no name or
 * a model of that name is registered already. Not thread-safe: call it
 * before anything looks models up. */
int hpm_model_register(const struct hpm_pmu_model *m, const struct hpm_emu_machine *machine);

#endif
