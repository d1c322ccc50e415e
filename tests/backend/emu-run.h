/* emu-run.h: driving the emulator back end in the tests of tests/backend.
 *
 * Owns: the two sequences every emulator back-end test runs, so that
 * emu-backend.c (the Kunminghu machine) and emu-toy.c (the throwaway model)
 * run them the same way: a whole measurement, and a dry run as text.
 * Errors go to err (errlen bytes) and to a TAP diagnostic line.
 */
#ifndef HPM_TESTS_EMU_RUN_H
#define HPM_TESTS_EMU_RUN_H

#include <stddef.h>

#include "backend/emu.h"

/* open, enable, run all of --emu-cycles, disable, read; 0 when it ran
 * to the end (*h is then open: close it), else the failing step's code. */
int emu_run_whole(struct hpm_evlist *l, struct hpm_emu_config *c, struct hpm_backend_inst **h,
                  char *err, size_t errlen);
/* The dry run's text (malloc'ed), or NULL on an error. */
char *emu_run_dry(struct hpm_evlist *l, struct hpm_emu_config *c, char *err, size_t errlen);

#endif
