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

typedef void (*arm_script_output_fn)(void *ctx, const char *line);

/* The longest script line a reader should pass to arm_script_exec(). */
#define ARM_SCRIPT_MAX_LINE 65536u

/* An interpreter on machine m (which it does not own); `core` names events
 * for `feed` (an Arm core name of arm64/events.h, or NULL: the standard
 * names and then every core's). */
struct arm_script *arm_script_new(struct arm_emu *m, const char *core, arm_script_output_fn out,
                                  void *ctx);
/* Closes an open recording (see arm_script_finish for its errors). */
void arm_script_free(struct arm_script *s);
/* Executes one line; 0, or -1 with the reason in err. */
int arm_script_exec(struct arm_script *s, const char *line, char *err, size_t errlen);
/* `run` and `replay` stop with an error once *stop is non-zero. */
void arm_script_set_stop(struct arm_script *s, const volatile sig_atomic_t *stop);
/* Starts recording every counted run to path (as `trace FILE`). */
int arm_script_trace(struct arm_script *s, const char *path, char *err, size_t errlen);
/* Ends a recording and reports its write errors. */
int arm_script_finish(struct arm_script *s, char *err, size_t errlen);

#endif
