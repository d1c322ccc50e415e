/* machine.h (arm64/emu): the Arm models' emulated machines.
 *
 * Owns: hpm_machine_neoverse_n1, _n2, _n2_r0p0, _v1 and _v2, the struct
 * hpm_emu_machine (arch/machine.h) that the registry (registry/models.c) pairs
 * with each Arm model of arm64/model.h. machine.c puts the Arm PMUv3
 * emulator (pmu.h) on the feature profile of the model's core
 * (arm_emu_core_profile) behind that interface, each PE fed by a workload
 * profile's stream (profile.h) or a trace (trace.h), and programs it
 * through its system registers as a kernel does.
 */
#ifndef HPM_ARM64_EMU_MACHINE_H
#define HPM_ARM64_EMU_MACHINE_H

#include "arch/machine.h"

extern const struct hpm_emu_machine hpm_machine_neoverse_n1;
extern const struct hpm_emu_machine hpm_machine_neoverse_n2;
extern const struct hpm_emu_machine hpm_machine_neoverse_n2_r0p0;
extern const struct hpm_emu_machine hpm_machine_neoverse_v1;
extern const struct hpm_emu_machine hpm_machine_neoverse_v2;
/* what `hpmstat emu --arch arm64` runs on any of them (commands.c) */
extern const struct hpm_emu_commands arm_emu_commands;

#endif
