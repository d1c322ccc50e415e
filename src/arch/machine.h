/* machine.h: the emulated-machine interface: what the emulator back end
 * (backend/emu.c) needs of a PMU model's emulated machine.
 *
 * Owns: struct hpm_emu_machine (one model's emulator as data plus
 * operations, as struct hpm_pmu_model is one model), struct hpm_emu_vm
 * (one machine made by it: harts, each fed by the same kind of source),
 * its configuration, the programming steps the back end's --dry-run shows
 * in the machine's words (enum hpm_emu_step), and what works on any
 * machine (hpm_emu_counters_str).
 *
 * A model folder implements it beside its model (Kunminghu:
 * src/kmh/emu/machine.c) and the registry pairs the two
 * (core/models.h: hpm_model_machine); the back end never names a machine.
 * Counters are numbered as the model numbers them: its programmable
 * counters (struct hpm_model_counters first..last, in classes as
 * constraint_counters() says) and its fixed ones (model->fixed[].counter),
 * all below HPM_EMU_MAX_COUNTERS, so a set of counters is a bit mask (bit n:
 * counter n). A stopped counter keeps its value; a machine counts nothing
 * between runs. Like a model, a machine never prints and never exits: a
 * fallible operation returns 0 or a negative errno-style code with a
 * one-line message. Every operation but create() and free() is on one
 * hart and cheap: run() is the only one the back end calls per chunk of
 * emulated time, once per hart.
 */
#ifndef HPM_ARCH_MACHINE_H
#define HPM_ARCH_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/model.h"

#define HPM_EMU_MAX_COUNTERS 32u /* counter numbers 0..31 */

/* What a machine is made of. */
struct hpm_emu_vm_config {
	unsigned harts;      /* 1..machine->max_harts */
	const char *profile; /* the source: a workload profile, by the machine's name for it or a
	                      * file path; NULL: the machine's default_profile */
	const char *trace;   /* or a trace file replayed on every hart (replaces the profile) */
	uint64_t seed;       /* hart h's profile stream uses seed + h */
	const char *pmu;     /* the machine's PMU variant by its name for it (Arm: a feature
	                      * profile, n1 ... future); NULL: the model's own */
};

/* What create() failed on, so that the caller can name its option. */
enum hpm_emu_vm_error {
	HPM_EMU_EPROFILE = -1, /* err: what is wrong with the profile */
	HPM_EMU_ETRACE = -2,   /* err: "PATH: reason" or "PATH:LINE: reason" */
	HPM_EMU_EPMU = -3,     /* err: why the PMU variant is not one the machine has */
};

/* One machine; a machine's create() returns its own larger struct, which
 * begins with this. The fields are for the caller to read. */
struct hpm_emu_vm {
	const struct hpm_emu_machine *machine;
	unsigned harts;
	const char *profile; /* the profile's name, NULL with a trace */
	const char *trace;   /* the trace's path, NULL without */
	uint64_t length;     /* cycles of one pass of the source (a trace's, which then
	                      * starts again); 0: endless (a profile's stream) */
};

/* The steps of programming harts, for --dry-run: describe() gives the
 * machine's words for one, e.g. Kunminghu's "csrc mcountinhibit
 * 0x00000805" for START of counters 0, 2 and 11. */
enum hpm_emu_step {
	HPM_EMU_STEP_STOP,     /* stop the counters of mask (all of them: the reset state) */
	HPM_EMU_STEP_START,    /* start the counters of mask */
	HPM_EMU_STEP_PROGRAM,  /* counter `counter` counts event-select `value` */
	HPM_EMU_STEP_NO_EVENT, /* the programmable counters of mask count no event */
	HPM_EMU_STEP_ZERO,     /* the counters of mask become 0 */
	HPM_EMU_STEP_ROTATE,   /* a multiplex rotation, in words: stop the counters that
	                        * change, read them, program and zero them, start them */
};

struct hpm_emu_machine {
	unsigned max_harts;
	const char *default_profile; /* the profile a config without one gets */

	/* A machine of cfg->harts harts in reset state, every counter
	 * stopped, each hart with its source (cfg->harts is in range).
	 * Returns 0, or an enum hpm_emu_vm_error with the reason in err. */
	int (*create)(const struct hpm_emu_vm_config *cfg, struct hpm_emu_vm **out, char *err,
	              size_t errlen);
	void (*free)(struct hpm_emu_vm *vm);

	/* Programmable counter `counter` of hart h counts event-select value
	 * `value` (as the model encodes it, struct hpm_event_code.value), or
	 * no event when !used. */
	int (*set_event)(struct hpm_emu_vm *vm, unsigned h, unsigned counter, bool used,
	                 uint64_t value, char *err, size_t errlen);
	/* The counters of mask (fixed ones included) of hart h become 0 and
	 * forget that they wrapped. */
	int (*zero)(struct hpm_emu_vm *vm, unsigned h, uint32_t mask, char *err, size_t errlen);
	/* Stops (stop) or starts the counters of mask of hart h. */
	int (*inhibit)(struct hpm_emu_vm *vm, unsigned h, uint32_t mask, bool stop, char *err,
	               size_t errlen);
	/* Runs `cycles` cycles of hart h's source on it, going on where the
	 * previous run of h stopped. */
	void (*run)(struct hpm_emu_vm *vm, unsigned h, uint64_t cycles);
	/* Counter `counter` of hart h; *wrapped: it went past 2^64 - 1 since
	 * it was last zeroed. */
	uint64_t (*read)(struct hpm_emu_vm *vm, unsigned h, unsigned counter, bool *wrapped);

	/* The first event of c (an event of the machine's model) that the
	 * source never produces, as the model's label for messages
	 * ("backend:rob_interrupt_num"), or NULL when it produces them all
	 * (a trace produces what it lists: always NULL). */
	const char *(*unproduced)(const struct hpm_emu_vm *vm, const struct hpm_event_code *c,
	                          char *buf, size_t len);

	/* The machine's words for one step (see enum hpm_emu_step); mask,
	 * counter and value as the step says, the others unused. */
	const char *(*describe)(enum hpm_emu_step step, uint32_t mask, unsigned counter,
	                        uint64_t value, char *buf, size_t len);
	/* Optional: how read() takes this vm's counters, in the machine's
	 * words, when it is worth saying (Arm with FEAT_PMUv3_SS: one capture
	 * of the whole group, then the snapshot registers); NULL: no line. */
	const char *(*describe_read)(const struct hpm_emu_vm *vm, char *buf, size_t len);
};

/* Counter numbers of a mask as "3,4,11-18" ("" for none). */
const char *hpm_emu_counters_str(uint32_t mask, char *buf, size_t len);

#endif
