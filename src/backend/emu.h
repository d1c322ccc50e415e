/* emu.h: the emulator back end of `hpmstat stat` (--backend emu).
 *
 * Owns: struct hpm_emu_config (the --emu-* options), hpm_backend_emu (the
 * struct hpm_backend operations on the emulated machine of the rows' PMU
 * model, arch/machine.h), the scheduler request an evsel makes
 * (hpm_emu_request) and the accessors the stat layer labels emulated
 * figures with, all on the handle open() gives. It names no model: the
 * registry (registry/models.h) gives the model's machine (Kunminghu's is
 * src/kmh/emu/machine.c).
 *
 * What it does. open() takes the rows of kind HPM_EV_MODEL and
 * HPM_EV_MODEL_FIXED (HPM_EV_HOST belong to perf), has the machine of
 * their model (without rows: of the first registered model that has one)
 * build --emu-harts harts, each with its source (the profile's workload
 * with seed + hart index, so harts differ and runs are reproducible; or
 * the --emu-trace file, replayed from its start on every hart and looped
 * when it ends), places the requests with the scheduler (core/sched.h) and
 * programs every hart as firmware would (Kunminghu: through M-mode CSR
 * writes): every counter stopped, each programmable counter given its
 * request's event-select value (Kunminghu: mhpmevent<n>, whose INH bits
 * select the modes; the encoder's default MINH=1 counts U, S, VU and VS,
 * where the profiles spend their time) or no event, the counters zeroed.
 * Counting starts at enable() (the model's fixed counters and the counters
 * in use started) and stops at disable(); counts are read from the
 * counters.
 *
 * Time. The emulator's unit of time is a cycle: advance(ns) runs
 * ns x freq / 1e9 cycles on every hart, carrying the fraction so that many
 * small steps run exactly what one big step would; advance(0) runs what is
 * left of --emu-cycles. Once --emu-cycles have run, *done is set and
 * further advances do nothing. When a host command (or -p / -a) sets the
 * length, the harts follow its wall time: advance(ns) is never clipped and
 * *done is never set (--emu-cycles is then ignored).
 *
 * Multiplexing. When the scheduler needs several multiplex groups, the
 * back end rotates them every `quantum` enabled cycles (default
 * HPM_EMU_DEFAULT_QUANTUM), in rounds: each round activates every group
 * once, in an order drawn per round from a generator seeded by the seed.
 * Each round thus gives every group exactly one quantum (run/ena is the
 * group's share of the quanta, 1/G after whole rounds), and the random
 * order keeps a workload whose behaviour repeats with some period from
 * always landing the same part of its period on the same group, which a
 * fixed round robin does (a period of 2 quanta with 2 groups would give
 * each group only one half of it). A rotation stops the counters that
 * change, reads them into the running totals of their requests, programs
 * the next group's events, zeroes and restarts them;
 * counters that keep their request in every group (banks that do not
 * overflow, fixed counters) are never touched, so they count all the time.
 * Counts keep perf's meaning: counts[h].val is the raw count while the
 * request's group was active, .ena the cycles counted in total, .run the
 * cycles its group was active (== ena when it never rotates), so the stat
 * layer's scaled value raw x ena / run estimates the whole run.
 *
 * Rows that get no number: an expression using an event the profile does
 * not produce (the machine's unproduced()) is HPM_EV_NOT_MODELLED (with a
 * trace every event is taken as modelled: a trace lists what it lists); an
 * expression without a known class (Kunminghu: bank; rHEX,
 * kunminghu/.../ terms, noEvent) is HPM_EV_NOT_SUPPORTED, since only the
 * class says which counters see it.
 * Neither takes a counter.
 *
 * Tasks. See struct hpm_emu_task below.
 *
 * Units. One per hart, "hart0", "hart1", ...: the instance's units, which
 * every row it takes points at.
 */
#ifndef HPM_BACKEND_EMU_H
#define HPM_BACKEND_EMU_H

#include <stdbool.h>
#include <stdint.h>

#include "core/evlist.h"
#include "core/sched.h"

/* The default profile of the built-in model's machine, for labels before
 * open() (the machine's default_profile is the one it runs). */
#define HPM_EMU_DEFAULT_SEED   1u
#define HPM_EMU_DEFAULT_CYCLES UINT64_C(1000000000)
#define HPM_EMU_DEFAULT_HARTS  1u
#define HPM_EMU_MAX_HARTS      1024u /* --emu-harts bound; a machine may take fewer */
/* --emu-freq default: 5 MHz. While a host command runs, emulated time
 * follows wall time at this rate, and each emulated cycle costs hpmstat
 * real CPU time: with all 29 counters programmed and read every 100 ms of
 * emulated time, the back end runs 2.6e9 (machine-clears, the slowest
 * built-in profile) to 6.3e9 (dram-bound) cycles/s per hart on this
 * project's 2-core VM, so 5 MHz costs 0.08-0.19% of one core per hart
 * (10 MHz 0.16-0.38%, 100 MHz 1.6-3.8%). Issue 4's budget is 1% of a core
 * for all of hpmstat with `-I 100`, 29 Kunminghu events and 4 software
 * events, and the rest of hpmstat (perf reads, metrics, printing 33 rows
 * ten times a second, wake-ups) measured about 0.7% on its own: the whole
 * command measured 0.81-1.00% at 5 MHz and 0.96-1.14% at 10 MHz (perf stat
 * -e task-clock of `hpmstat stat -I 100 ... -- sleep 10`), so 5 MHz is the
 * highest round rate that keeps the budget. The trade-off: a slower clock
 * means fewer emulated cycles per wall second (5e6 in `sleep 1`), so short
 * commands get short, noisier samples; --emu-freq raises it for whoever can
 * spend the CPU. Without a command the rate does not matter: --emu-cycles
 * run as fast as the machine can. */
#define HPM_EMU_DEFAULT_FREQ UINT64_C(5000000)
#define HPM_EMU_MAX_FREQ     UINT64_C(10000000000) /* 10 GHz: keeps ns x freq exact */
/* Multiplex quantum: 1e5 cycles, 1e4 rotations per 1e9 cycles (a rotation
 * costs a few microseconds: the changed counters' CSR accesses and the
 * harts re-evaluating their cached per-key results), 20 ms of wall time at
 * the default frequency. It must be small against the length over which a
 * workload changes: the built-in phased profile has 5M-cycle phases, which
 * with 1e5 are 25 whole rounds of 2 groups each; measured over 1e9 cycles,
 * every profile's multiplexed Topdown level 3 is within 0.05 points of its
 * declaration with 1e5, but phased is 0.42 points off with 1e6 (rounds
 * straddle phases), and 1e4 is no better than 1e5 while costing twice the
 * time (for a stationary stream the sampling error does not depend on the
 * quantum: each group still sees half of the cycles). */
#define HPM_EMU_DEFAULT_QUANTUM UINT64_C(100000)

/* The --emu-* options. hpm_emu_config_init() fills the defaults. */
struct hpm_emu_config {
	const char *profile; /* --emu-profile: built-in name or file path; NULL: default */
	const char *trace;   /* --emu-trace FILE: replaces the profile; NULL: none */
	const char *pmu;     /* --emu-pmu: the emulated PMU's variant (Arm feature profile);
	                      * NULL: the model's own */
	uint64_t seed;       /* --emu-seed; hart h uses seed + h */
	uint64_t cycles;     /* --emu-cycles per hart; 0: default (the trace's length with a
	                      * trace, HPM_EMU_DEFAULT_CYCLES otherwise) */
	unsigned harts;      /* --emu-harts, 1..the machine's max_harts (<= HPM_EMU_MAX_HARTS) */
	uint64_t freq;       /* --emu-freq Hz, 1..HPM_EMU_MAX_FREQ */
	uint64_t quantum;    /* multiplex rotation period in cycles; 0: default */
	bool follow_wall;    /* emulated time follows a host command's wall time (also implied
	                      * by a target with pid >= 0 or system_wide) */
};

void hpm_emu_config_init(struct hpm_emu_config *cfg);

extern const struct hpm_backend hpm_backend_emu;

/* The counter request the emulator makes for e (class and value, or a
 * fixed counter; its {...} group); false for an event it places on no
 * counter: a host or tool event, or one without a known class. The
 * --no-multiplex planner asks the same scheduler with the same requests. */
bool hpm_emu_request(const struct hpm_evsel *e, struct hpm_sched_req *r);

/* Runs up to max_cycles on every hart (clipped to what is left of
 * --emu-cycles unless following wall time) in slices, and returns once
 * they have run or once budget_ns of real time have passed, whichever is
 * first: the caller looks at signals, the clock and its command between
 * calls, so a run of any length stays responsive. *ran: the cycles per
 * hart this call ran; *done as for advance(). Slices never change the
 * counts: the sources continue where they stopped. */
int hpm_emu_run_bounded(struct hpm_backend_inst *b, uint64_t max_cycles, uint64_t budget_ns,
                        uint64_t *ran, bool *done, char *err, size_t errlen);

/* What the stat layer prints beside emulated figures, valid from open()
 * to close() of the instance (all zero / NULL for a NULL handle or one of
 * another back end). */
struct hpm_emu_info {
	const char *profile; /* profile name, NULL with a trace */
	const char *trace;   /* trace path, NULL without */
	uint64_t seed;
	unsigned harts;
	uint64_t freq;           /* Hz */
	uint64_t cycles_run;     /* cycles emulated per hart so far (enabled or not) */
	uint64_t cycles_enabled; /* of those, while counting was enabled */
	uint64_t cycles_limit;   /* --emu-cycles in effect; 0 when following wall time */
	uint64_t cycles_length;  /* --emu-cycles or its default (the trace's length), also
	                          * when following wall time: the caller ends such a run
	                          * there (hpmstat-stat(1), mixed runs) */
	bool follows_command;    /* emulated time follows wall time */
	bool multiplexed;        /* more than one multiplex group */
	unsigned nr_groups;
	uint64_t quantum;   /* rotation period, cycles */
	uint64_t rotations; /* rotations done so far */
};

/* Fills *info; returns false (and zeroes it) when b is not an open
 * emulator (NULL included). */
bool hpm_emu_info(const struct hpm_backend_inst *b, struct hpm_emu_info *info);
/* Individual labels (NULL / 0 / false when not open). */
const char *hpm_emu_profile_name(const struct hpm_backend_inst *b);
const char *hpm_emu_trace_path(const struct hpm_backend_inst *b);
uint64_t hpm_emu_seed(const struct hpm_backend_inst *b);
uint64_t hpm_emu_freq(const struct hpm_backend_inst *b);
uint64_t hpm_emu_cycles_run(const struct hpm_backend_inst *b);
unsigned hpm_emu_harts(const struct hpm_backend_inst *b);
bool hpm_emu_multiplexed(const struct hpm_backend_inst *b);
/* Cycles group g was active while enabled (the `run` of its requests). */
uint64_t hpm_emu_group_run(const struct hpm_backend_inst *b, unsigned g);

/* Per-task counts: the emulator's side of per-task attribution (issue 16).
 * A profile may declare a schedule of tasks (hpmstat-emu-profile(5),
 * [task NAME]); each hart then runs its tasks in slices and switches
 * between them. At every emulated context switch the back end does what
 * the BPF program does on Linux at sched_switch: it reads every counter of
 * the instance on that hart as software sees it (the running total of each
 * row's request plus its live mhpmcounter when its group is active, with
 * the row's enabled and running cycles) and charges the delta since the
 * hart's previous switch to the task switched out. Beside that attributed
 * count, the machine keeps each task's ground truth: what each row's event
 * would have counted during the task's cycles had its counter counted all
 * the time (never multiplexed) -- counted by the emulator directly, not
 * read from a counter. Without multiplexing the two are equal exactly. */
struct hpm_emu_task {
	int pid, tgid;      /* the task's; the idle task (what a hart runs when no task is
	                     * runnable) is pid 0, comm "swapper", as on Linux */
	char comm[16];      /* TASK_COMM_LEN, NUL-terminated */
	bool exited;        /* it exited: its counts are final (charged at its last switch) */
	bool running;       /* a hart runs it now */
	unsigned hart_last; /* the hart it ran on last (its hart, before it first runs) */
	uint64_t cycles;    /* enabled cycles it ran (the ground truth of its ena) */
	uint64_t switches;  /* times it was switched out */
	/* per row of the instance (b->rows[k], k < b->nr_rows; rows without a
	 * number stay 0): */
	struct hpm_count *att; /* attributed: the deltas charged at its switches, plus, for a
	                        * running task, those since its hart's last switch (as perf's
	                        * bperf reads a running task: as if it switched out now) */
	uint64_t *truth;       /* ground truth: val as if never multiplexed; ena = run = cycles */
};

/* The tasks of an open emulator whose source declares a schedule: *rows
 * gets nrows rows (every declared task in profile order, then the idle
 * task), owned by b and valid until the next call or close(); each call
 * brings them up to date. Returns 0; -EINVAL when b is not an open
 * emulator; -ENOENT when its source declares no tasks (a trace, or a
 * profile without [task] sections). */
int hpm_emu_tasks(struct hpm_backend_inst *b, const struct hpm_emu_task **rows, unsigned *nrows);
/* Whether b's source declares tasks (false for NULL or another back end). */
bool hpm_emu_has_tasks(const struct hpm_backend_inst *b);

#endif
