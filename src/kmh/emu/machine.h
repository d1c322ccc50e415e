/* machine.h (kmh/emu): Kunminghu's emulated machine.
 *
 * Owns: hpm_machine_kunminghu, the struct hpm_emu_machine (arch/machine.h)
 * that the registry (registry/models.c) pairs with hpm_model_kunminghu:
 * machine.c puts the harts of emu.h, fed by a workload profile's streams
 * (workload.h) or a trace, behind that interface, programming them as
 * firmware would, through M-mode CSR accesses.
 */
#ifndef HPM_KMH_EMU_MACHINE_H
#define HPM_KMH_EMU_MACHINE_H

#include "arch/machine.h"

extern const struct hpm_emu_machine hpm_machine_kunminghu;
/* hpm_model_kunminghu_v3's: the same harts and profiles, v3's event indices
 * fed by the signals of v2's events of the same names */
extern const struct hpm_emu_machine hpm_machine_kunminghu_v3;
/* what `hpmstat emu` runs on either (commands.c) */
extern const struct hpm_emu_commands kmh_emu_commands;

#endif
