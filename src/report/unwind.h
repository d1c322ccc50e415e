/* unwind.h: the user frames of a --call-graph dwarf sample (hpmstat record
 * --call-graph dwarf, perf record --call-graph dwarf), from its user
 * registers and the copy of its user stack, unwound with the DWARF call
 * frame information of the mapped files, as perf's unwind-libdw does.
 *
 * Owns: one unwinding session per process (the files it mapped reported
 * as they are met, the CFI read once). The maps come from the report's
 * symbolizer (sym/sym.h): a frame's file and load bias are where its
 * address resolves. unwind-libdw.c is the only file that calls libdw;
 * built without libdw (configure --without-libdw), rs_unwinder_new gives
 * NULL and reports show those samples without their user callers.
 *
 * Never prints, never exits.
 */
#ifndef HPM_REPORT_UNWIND_H
#define HPM_REPORT_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include "perfdata/reader.h"

struct hpm_syms;
struct rs_unwinder;

/* An unwinder naming files through syms (which must outlive it), or NULL
 * when there is no unwinder in this build. */
struct rs_unwinder *rs_unwinder_new(struct hpm_syms *syms);
void rs_unwinder_free(struct rs_unwinder *u);

/* The user frames of sample s of process pid: at most max program
 * counters into pcs, the interrupted one first, each caller's return
 * address less one (inside its call, as perf's). 0 when the sample has no
 * registers or stack, or its first frame cannot be unwound. */
size_t rs_unwind(struct rs_unwinder *u, uint32_t pid, const struct pd_sample *s, uint64_t *pcs,
                 size_t max);

#endif
