/* stimulus.h: the Arm emulator's exact per-cycle source (`feed`) and the
 * event-name rules every Arm source shares (issue 14, item 4).
 *
 * Owns: how a source names an event (an Arm name from a core's table or the
 * standard table, or a number), how much one event may deliver in one
 * cycle (arm_src_event_max_vb), and struct arm_src_feed: the values of one
 * `feed CYCLES EVENT=VB ...` line, turned into struct arm_emu_run
 * (arm64/emu/source.h).
 *
 * Library rules: nothing here prints or exits (out of memory aborts through
 * xalloc). Errors are one line in the caller's buffer, with the 1-based
 * column of the offending token where the input is a line.
 */
#ifndef HPM_ARM64_EMU_STIMULUS_H
#define HPM_ARM64_EMU_STIMULUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arm64/emu/source.h"
#include "arm64/events.h"

/* The events whose per-cycle bounds the sources check (Arm ARM numbers). */
enum {
	ARM_SRC_SW_INCR = 0x0000,
	ARM_SRC_CPU_CYCLES = 0x0011,
	ARM_SRC_STALL_FRONTEND = 0x0023,
	ARM_SRC_STALL_BACKEND = 0x0024,
	ARM_SRC_OP_RETIRED = 0x003a,
	ARM_SRC_OP_SPEC = 0x003b,
	ARM_SRC_STALL = 0x003c,
	ARM_SRC_STALL_SLOT_BACKEND = 0x003d,
	ARM_SRC_STALL_SLOT_FRONTEND = 0x003e,
	ARM_SRC_STALL_SLOT = 0x003f,
	ARM_SRC_STALL_BACKEND_MEM = 0x4005,
};

/* Largest PMMIR_EL1.SLOTS (an 8-bit field). */
#define ARM_SRC_MAX_SLOTS 255u

/* The largest VB event `code` may deliver in one cycle with `slots` issue
 * slots: 1 for the events that count cycles (STALL_FRONTEND, STALL_BACKEND,
 * STALL, STALL_BACKEND_MEM), `slots` for the slot family (OP_RETIRED,
 * OP_SPEC, STALL_SLOT_BACKEND, STALL_SLOT_FRONTEND, STALL_SLOT: the Arm ARM
 * counts them per slot, at most PMMIR_EL1.SLOTS per cycle), 0 for
 * CPU_CYCLES and SW_INCR (never delivered by a source), and 65535 (what
 * struct arm_emu_val holds) for every other event. */
unsigned arm_src_event_max_vb(uint16_t code, unsigned slots);

/* The name of event `code`: from core's table (NULL: skip it), else the
 * standard table, else NULL. */
const char *arm_src_event_name(const struct arm64_core *core, uint16_t code);

/* The name of event `code` as arm_src_event_name() gives it, else "event
 * 0x%04x" written in buf: what a message calls an event. */
const char *arm_src_event_label(const struct arm64_core *core, uint16_t code, char *buf,
                                size_t len);

/* Resolves the event written as s[0..len): an Arm name, compared without
 * regard to case, looked up in core's table and then in the standard table
 * (core NULL: the standard table and then every core's), or a number
 * (decimal or 0x hex, 1..0xffff). CPU_CYCLES and SW_INCR are refused: the
 * machine makes them, no source delivers them. Returns 0, or -1 with one
 * line in err:
 *   unknown event 'X'
 *   event number 0x10000 is out of range (0..0xffff)
 *   CPU_CYCLES is 1 in every cycle and counted by the machine; a source cannot deliver it
 *   SW_INCR counts writes of PMSWINC_EL0; a source cannot deliver it */
int arm_src_event_parse(const struct arm64_core *core, const char *s, size_t len, uint16_t *code,
                        char *err, size_t errlen);

/* Decimal or 0x hex, no sign, no overflow: the number syntax of every Arm
 * source. s[0..len); returns 0 or -1. */
int arm_src_parse_u64(const char *s, size_t len, uint64_t *out);

/* ------------------------------------------------------------------ feed */

struct arm_src_feed;

/* A feed source for a PMU with `slots` issue slots (PMMIR_EL1.SLOTS,
 * 1..255), naming events from core's table (NULL: see arm_src_event_parse). */
struct arm_src_feed *arm_src_feed_new(const struct arm64_core *core, unsigned slots);
void arm_src_feed_free(struct arm_src_feed *f);

/* Parses one feed line, "[feed] CYCLES [EVENT=VB ...]" (blanks separate
 * tokens; CYCLES 1..2^64-1 and VB decimal or 0x hex). A feed states all its
 * values: every event it does not name delivers 0. On success the values
 * replace the feed's and *cycles is set. On failure the feed is unchanged,
 * *col is the 1-based column of the offending token in line, and err says
 * what is wrong, e.g.
 *   missing CYCLES
 *   bad cycle count 'x' (1..2^64-1)
 *   bad assignment 'x': expected EVENT=VB
 *   unknown event 'FOO'
 *   bad value 'x' for STALL_SLOT (0..8)
 *   STALL_SLOT_FRONTEND=9 is more than PMMIR_EL1.SLOTS (8) per cycle
 *   STALL_FRONTEND=2 is more than 1 per cycle: it counts cycles
 *   OP_SPEC given twice */
int arm_src_feed_parse(struct arm_src_feed *f, const char *line, uint64_t *cycles, unsigned *col,
                       char *err, size_t errlen);

/* The feed as a run of `cycles` cycles: sets run->cycles, key (0: a feed
 * promises nothing about later feeds), source, nr_vals and vals (sorted,
 * no zeros; valid until the feed changes); leaves the context fields (el,
 * sec, streaming, pc, context, vmid) as the caller set them, since they are
 * the PE's state and not the feed's. */
void arm_src_feed_run(const struct arm_src_feed *f, uint64_t cycles, struct arm_emu_run *run);

#endif
