/* script.h: the interpreter of the Arm emulator's script language, behind
 * `hpmstat emu --arch arm64` (hpmstat-emu(1), "ARM MACHINE").
 *
 * Owns: struct arm_script, the state a script runs in (the selected PE, the
 * EL of its register accesses and of its fed cycles, its security state
 * and streaming mode, the feed source, a trace being recorded) and its
 * commands:
 *   pe N, el 0|1|2|3, state ns|s|realm|root, streaming on|off,
 *   mrs REG, msr REG VALUE, feed CYCLES [EVENT=VB ...],
 *   run CYCLES PROFILE [seed=N], replay FILE, trace FILE|off, pending,
 *   snapshot, expect REG VALUE | expect TEXT, reset.
 * Registers of the external PMU block (PMDEVID, PMPCSR, ...) are read and
 * written through it; every other register as MRS/MSR at the current EL,
 * which prints the exception an access raises instead of its value.
 * Library code: output lines go to a callback, errors to the caller's
 * buffer (the caller adds FILE:LINE); nothing here prints or exits.
 */
#ifndef HPM_ARM64_EMU_SCRIPT_H
#define HPM_ARM64_EMU_SCRIPT_H

#include <signal.h>
#include <stddef.h>

#include "arm64/emu/pmu.h"

struct arm_script;
struct hpm_emu_script;

typedef void (*arm_script_output_fn)(void *ctx, const char *line);

/* The longest script line a reader should pass to the interpreter. */
#define ARM_SCRIPT_MAX_LINE 65536u

/* An interpreter on machine m (which it does not own); `core` names events
 * for `feed` (an Arm core name of arm64/events.h, or NULL: the standard
 * names and then every core's). */
struct arm_script *arm_script_new(struct arm_emu *m, const char *core, arm_script_output_fn out,
                                  void *ctx);
/* Frees the interpreter, not the machine; closes an open recording
 * (hpm_emu_script_finish() on its core reports its errors). */
void arm_script_free(struct arm_script *s);
/* The shared interpreter core under s (emukit/script.h): lines go to
 * hpm_emu_script_exec(), the stop flag, the recording. */
struct hpm_emu_script *arm_script_core(struct arm_script *s);

#endif
