/* trace.h: the Arm emulator's trace source: runs written as text and
 * replayed exactly (issue 14, item 4).
 *
 * Owns: the Arm trace format (arm_src_trace_format, for the shared trace
 * core of emukit/trace.h, whose struct hpm_emu_trace holds a trace in
 * memory and whose functions count, free and close it). The format (documented in hpmstat-emu(1),
 * "ARM TRACE FORMAT"): a text file whose first line that is not blank or a
 * comment (#) is ARM_SRC_TRACE_MAGIC, then one run per line:
 *   CYCLES EL STATE SM PC CONTEXT VMID [EVENT=VB ...]
 * CYCLES 1..2^64-1; EL 0..3; STATE ns, s, realm or root; SM 0 or 1 (SME
 * streaming mode); PC and CONTEXT numbers (the writer writes 0x hex); VMID
 * 0..65535; EVENT an event number (the writer writes 0x and four hex
 * digits) and VB 1..65535 (the writer writes decimal, sorted by event,
 * without zeros). Numbers are decimal or 0x hex. Writing a replayed trace
 * gives back the same bytes, and replaying gives back the same runs.
 *
 * A trace is validated whole before anything is replayed from it (load
 * returns every run or nothing), read a line at a time, and bounded by the
 * limits of emukit/trace.h (HPM_EMU_TRACE_MAX_*), so no input makes it grow without bound.
 * Identical lines but for CYCLES share one stored copy and one key.
 *
 * Library rules: nothing here prints or exits.
 */
#ifndef HPM_ARM64_EMU_TRACE_H
#define HPM_ARM64_EMU_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "arm64/emu/source.h"

#define ARM_SRC_TRACE_MAGIC "hpmstat-arm-emu-trace 1"

/* The format as the shared trace core reads and writes it (emukit/trace.h).
 * hpm_emu_trace_writer_open(&arm_src_trace_format, ...) opens a path for
 * writing (replaced at close, so no half trace is left where the trace
 * goes; "cannot write 'PATH': REASON"). hpm_emu_trace_load() reads and
 * validates a whole trace; NULL on failure with *errline the 1-based line
 * (0 when the error is not on a line) and err the reason:
 *   cannot open trace 'PATH': REASON
 *   not an Arm trace: expected 'hpmstat-arm-emu-trace 1' as the first line
 *   bad cycle count 'x' (1..2^64-1)
 *   bad exception level 'x' (0..3)
 *   bad security state 'x' (ns, s, realm or root)
 *   EL3 runs in Secure or Root state, not 'ns'
 *   bad streaming mode 'x' (0 or 1)
 *   bad PC 'x' / bad context ID 'x' (32 bits) / bad VMID 'x' (0..65535)
 *   bad event 'x': expected EVENT=VB
 *   bad event number 'x' (1..0xffff, not CPU_CYCLES 0x0011)
 *   bad value 'x' for event 0x003b (1..65535)
 *   event 0x003b given twice
 *   more than N runs (the limit of a trace) ... */
extern const struct hpm_emu_trace_format arm_src_trace_format;
struct hpm_emu_trace;
struct hpm_emu_trace_writer;

/* Writes one run (a run of 0 cycles writes nothing). Values of 0 are
 * skipped. -1 with the error once writing failed, or for a run whose el or
 * sec is out of range (nothing is written then). */
int arm_src_trace_write(struct hpm_emu_trace_writer *w, const struct arm_emu_run *run, char *err,
                        size_t errlen);

/* Run i (0-based): vals valid while t lives; key = 1 + the index of the
 * line's distinct content; source = t. */
void arm_src_trace_run_at(const struct hpm_emu_trace *t, size_t i, struct arm_emu_run *run);

#endif
