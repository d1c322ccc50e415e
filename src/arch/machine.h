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
 * (registry/models.h: hpm_model_machine); the back end never names a machine.
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

#include <signal.h>
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
	bool builtin_only;   /* profile names one of the machine's built-in profiles, never a
	                      * file (a name read from a recording): a file is not opened */
	const char *trace;   /* or a trace file replayed on every hart (replaces the profile) */
	uint64_t seed;       /* hart h's profile stream uses seed + h */
	const char *pmu;     /* the machine's PMU variant by its name for it (Arm: a feature
	                      * profile, n1 ... future); NULL: the model's own */
	bool dry_run;        /* nothing will run (stat --dry-run): a profile that does not
	                      * fit the PMU (Arm: its slots) is no error */
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

/* The steps of programming harts, for --dry-run: hpm_emu_describe() gives
 * the machine's words for one, e.g. Kunminghu's "csrc mcountinhibit
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

/* A machine's words for the steps, as data (hpm_emu_describe()):
 * both emulated machines program their counters by writing a mask to a
 * register, an event select per counter and a 0 per counter, so only the
 * instructions differ. Masks are written 0x%08x, values 0x%016x, counter
 * lists as hpm_emu_counters_str(). */
struct hpm_emu_step_words {
	const char *stop;     /* before the mask of STOP */
	const char *stop_all; /* before all_mask when STOP's mask holds all of it (one
	                       * write from any state); NULL: as any other */
	uint32_t all_mask;
	const char *start;           /* before the mask of START */
	const char *program[2];      /* around the counter number of PROGRAM, before the value */
	uint32_t programmable;       /* the counters NO_EVENT and ZERO list */
	const char *no_event;        /* before the list of NO_EVENT */
	const char *zero;            /* before the list of ZERO */
	struct hpm_emu_fixed_words { /* the fixed counters, by name */
		unsigned counter;
		const char *zero;    /* the whole ZERO of it, after the list's */
		const char *program; /* before the value of its PROGRAM (its filter);
		                      * NULL: never programmed */
	} fixed[2];
	unsigned nr_fixed;
	const char *rotate; /* ROTATE, whole */
};

/* Sampling. A counter samples as Linux's riscv_pmu_sbi makes one sample:
 * it is written to 2^64 - left, so that it overflows after `left` more
 * events; the overflow interrupt is taken at the end of the cycle in
 * which the counter wraps (the emulator has no skid), and the sample is
 * the context of that cycle. */
struct hpm_emu_sample {
	uint32_t overflowed; /* sampling counters that overflowed in the cycle (mask); 0: the
	                      * run reached its cycles without an overflow */
	uint64_t cycle;      /* cycles hart h has run since create(), that cycle included */
	uint64_t pc;         /* the workload's PC in that cycle; 0 where none is declared */
	int function;        /* its declared function (function()), -1: none */
};

/* A function the source declares (a workload profile's [function]). */
struct hpm_emu_function {
	const char *name;    /* valid as long as the vm */
	uint64_t start, end; /* [start, end) */
	double share;        /* its declared share of all cycles */
};

/* A task of the source's schedule (a workload profile's [task] sections):
 * each hart runs the tasks placed on it in slices, round robin weighted by
 * their shares, and runs its idle task when none is runnable. */
struct hpm_emu_task_info {
	int pid, tgid;
	const char *comm;     /* valid as long as the vm */
	unsigned hart;        /* the hart it runs on */
	double share;         /* of its hart's cycles while it is runnable */
	uint64_t start, exit; /* hart cycles: runnable from start, exits at exit (UINT64_MAX:
	                       * never) */
	bool exited;          /* its hart has run past its exit */
};

/* The options of `hpmstat emu`, `emu bench` and `emu profiles`; a machine
 * takes those its commands->options name (HPM_EMU_OPT_*), the others keep
 * these defaults. */
enum hpm_emu_option {
	HPM_EMU_OPT_HARTS = 1u << 0,   /* --harts N (Kunminghu's harts) */
	HPM_EMU_OPT_PES = 1u << 1,     /* --pes N and --pes-per-core K (Arm's PEs) */
	HPM_EMU_OPT_PMU = 1u << 2,     /* --pmu NAME: the machine's PMU variant */
	HPM_EMU_OPT_MAX_RUN = 1u << 3, /* bench --max-run N: a synthetic stream */
};

struct hpm_emu_options {
	uint64_t harts;        /* --harts N or --pes N (default 1) */
	uint64_t per_core;     /* --pes-per-core K (default 1) */
	const char *pmu;       /* --pmu NAME; NULL: the machine's default */
	const char *trace_out; /* script: record every counted run to this file */
	uint64_t cycles;       /* bench: --cycles N (default 20000000) */
	uint64_t seed;         /* bench: --seed N (default 1) */
	const char *profile;   /* bench: --profile P; NULL: the machine's default */
	uint64_t max_run;      /* bench: --max-run N; 0: not given */
	bool json;             /* profiles: --json */
};

/* Where a machine's command hands its output, a line at a time (without
 * its newline). */
typedef void (*hpm_emu_line_fn)(void *ctx, const char *line);

/* What the commands return besides 0: the caller prints err as its one-line
 * message and exits 1, or 2 for HPM_EMU_EUSAGE. */
#define HPM_EMU_EFAIL  (-1)
#define HPM_EMU_EUSAGE (-2)

/* What `hpmstat emu` runs on a machine. Library code: output goes to the
 * caller's callbacks, errors to its buffer; nothing prints or exits. */
struct hpm_emu_commands {
	const char *arch;       /* the --arch that picks it: "riscv64", "arm64" */
	const char *arch_alias; /* another spelling: "riscv", "aarch64" */
	const char *title;      /* what it emulates, for messages: "Kunminghu" */
	unsigned options;       /* the enum hpm_emu_option it takes */
	unsigned max_harts;     /* --harts N, --pes N: 1..max_harts */
	unsigned max_per_core;  /* --pes-per-core K: 1..max_per_core */

	/* `emu profiles`: the listing of the machine's workload profiles with
	 * what each declares, as text lines, or with o->json one JSON text. */
	int (*profiles)(const struct hpm_emu_options *o, hpm_emu_line_fn out, void *ctx, char *err,
	                size_t errlen);
	/* `emu bench`: the bench of the machine's fast path against its
	 * per-cycle reference, its figures as lines to out and then each
	 * register that differs to mismatch. 0: both counted the same; 1:
	 * some register differs; or HPM_EMU_EFAIL / HPM_EMU_EUSAGE. */
	int (*bench)(const struct hpm_emu_options *o, hpm_emu_line_fn out,
	             void (*mismatch)(void *ctx, const char *reg, uint64_t fast, uint64_t ref),
	             void *ctx, char *err, size_t errlen);

	/* `emu [SCRIPT]`: the machine's script language. script_new() makes
	 * the machine of o and an interpreter on it, whose output lines go to
	 * out, which stops at the next look once *stop is set; 0, or
	 * HPM_EMU_EFAIL / HPM_EMU_EUSAGE with *s NULL. Each line (at most
	 * script_max_line bytes, no NUL) goes to script_exec(): 0, or -1 with
	 * the reason in err. script_end() closes a recording (0, or -1 with
	 * the reason in err) and frees the interpreter and its machine. */
	unsigned script_max_line;
	int (*script_new)(const struct hpm_emu_options *o, hpm_emu_line_fn out, void *ctx,
	                  const volatile sig_atomic_t *stop, void **s, char *err, size_t errlen);
	int (*script_exec)(void *s, const char *line, char *err, size_t errlen);
	int (*script_end)(void *s, char *err, size_t errlen);
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
	 * no event when !used. Also called for a fixed counter that took an
	 * event of the model's fixed_alt (core/sched.h's rule 0): it counts
	 * with that event's filters (Arm: PMCCFILTR_EL0). */
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

	/* The machine's words for the steps (see hpm_emu_describe()): a table
	 * (words), or where they are no table a function (describe: mask,
	 * counter and value as the step says, the others unused). */
	const struct hpm_emu_step_words *words;
	const char *(*describe)(enum hpm_emu_step step, uint32_t mask, unsigned counter,
	                        uint64_t value, char *buf, size_t len);
	/* Optional: how read() takes this vm's counters, in the machine's
	 * words, when it is worth saying (Arm with FEAT_PMUv3_SS: one capture
	 * of the whole group, then the snapshot registers); NULL: no line. */
	const char *(*describe_read)(const struct hpm_emu_vm *vm, char *buf, size_t len);

	/* Sampling (see struct hpm_emu_sample). Optional: all NULL on a
	 * machine that cannot sample yet (the Arm machines: PMUv3's overflow
	 * interrupt is not modelled there yet; hpm_emu_can_sample() says). */
	/* Counter `counter` of hart h overflows after `left` (1..2^63) more
	 * events: written to 2^64 - left, its overflow flag cleared, and it
	 * becomes a sampling counter. left 0: it stops sampling (value and
	 * flag untouched). -EOPNOTSUPP for a counter that cannot interrupt
	 * (Kunminghu's mcycle and minstret have no OF bit). */
	int (*set_period)(struct hpm_emu_vm *vm, unsigned h, unsigned counter, uint64_t left,
	                  char *err, size_t errlen);
	/* An event of a counter that can interrupt and counts one every
	 * cycle, to lead a sampling group where the cycle counter cannot
	 * (Kunminghu's mcycle): the leader that record suggests; NULL: none. */
	const char *cycle_sampler;
	/* Runs up to `cycles` cycles of hart h as run() does, but stops at the
	 * end of the first cycle in which a sampling counter overflows; *s
	 * says which and the context. Returns the cycles run. */
	uint64_t (*run_sample)(struct hpm_emu_vm *vm, unsigned h, uint64_t cycles,
	                       struct hpm_emu_sample *s);
	/* The functions the vm's source declares: their number, and function
	 * i (false when out of range), so that samples can be symbolized. */
	unsigned (*nr_functions)(const struct hpm_emu_vm *vm);
	bool (*function)(const struct hpm_emu_vm *vm, unsigned i, struct hpm_emu_function *f);

	/* Tasks (see struct hpm_emu_task_info). Optional: all NULL on a
	 * machine whose sources declare none; nr_tasks() 0 for a vm whose
	 * source declares none. Task nr_tasks() is the idle task (every
	 * hart's), for task_truth(). */
	unsigned (*nr_tasks)(const struct hpm_emu_vm *vm);
	bool (*task)(const struct hpm_emu_vm *vm, unsigned i, struct hpm_emu_task_info *t);
	/* The task hart h runs now, as an index (-1: its idle task), and in
	 * *left the cycles (>= 1) before its next context switch: a run() of
	 * up to *left cycles stays in that task, and the switch happens in the
	 * first task_now() after they ran. Only task_now() switches, so the
	 * caller sees every switch and can read the counters at it. */
	int (*task_now)(struct hpm_emu_vm *vm, unsigned h, uint64_t *left);
	/* The ground truth of task i: what counter `counter` programmed with
	 * event-select `value` (ignored for a fixed counter) would have counted
	 * in the cycles task i ran while its hart's cycle counter (the model's
	 * first fixed counter) was running, computed from the cycles the task
	 * ran, never read from a counter. *cycles (unless NULL): those cycles. */
	uint64_t (*task_truth)(const struct hpm_emu_vm *vm, unsigned i, unsigned counter,
	                       uint64_t value, uint64_t *cycles);

	/* What `hpmstat emu` runs on the machine; NULL: nothing (the
	 * machines of one emulator share one). */
	const struct hpm_emu_commands *commands;
};

/* Whether machine m can sample (has the sampling operations). */
bool hpm_emu_can_sample(const struct hpm_emu_machine *m);

/* The `left` of the next period after a sampling counter overflowed and
 * then read `since_wrap` (the events it counted past 2^64 - 1), as
 * riscv_pmu_event_set_period computes it: period - since_wrap, so that
 * the periods average exactly `period`; a whole period when the overshoot
 * is a period or more. */
uint64_t hpm_emu_period_left(uint64_t period, uint64_t since_wrap);

/* Counter numbers of a mask as "3,4,11-18" ("" for none). */
const char *hpm_emu_counters_str(uint32_t mask, char *buf, size_t len);

/* m's words for one step (see enum hpm_emu_step) in buf, from its words
 * or its describe(); mask, counter and value as the step says, the others
 * unused. Returns buf. */
const char *hpm_emu_describe(const struct hpm_emu_machine *m, enum hpm_emu_step step, uint32_t mask,
                             unsigned counter, uint64_t value, char *buf, size_t len);

#endif
