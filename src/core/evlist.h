/* evlist.h: the events of one measurement and their counts (core types).
 *
 * Owns: struct hpm_evsel (one requested event: one output row), struct
 * hpm_evlist (all of them, their groups, the units they are counted on and
 * the counts read back), struct hpm_backend (the operations every back end
 * implements, one file each under src/backend/) and struct hpm_backend_inst
 * (the base of an open back end, which each back end embeds in its own
 * state). It sits below the back ends, the session and the printers, and
 * uses only util and the model interface (arch/model.h). The stat command,
 * the printers and the run-file writer read these; the back ends fill them.
 *
 * Counts are cumulative since the start of counting and kept per unit (a CPU
 * for perf, a hart for the emulator), with perf's enabled/running times so a
 * multiplexed count can be scaled: scaled = raw * enabled / running.
 */
#ifndef HPM_STAT_EVLIST_H
#define HPM_STAT_EVLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arch/model.h"
#include "util/count.h"

struct hpm_backend;
struct hpm_backend_inst;

enum hpm_evsel_kind {
	HPM_EV_MODEL,       /* an event of a PMU model on a programmable counter
	                     * (Kunminghu: an mhpmevent expression on a bank counter) */
	HPM_EV_MODEL_FIXED, /* one of a PMU model's fixed counters (mcycle, minstret) */
	HPM_EV_HOST,        /* anything perf_event_open counts on this host */
	HPM_EV_TOOL,        /* perf's tool events: the session's clock and the
	                     * workload's rusage (backend/host-events.h) */
};

/* Why a row has no number. */
enum hpm_evsel_state {
	HPM_EV_OK,
	HPM_EV_NOT_SUPPORTED, /* perf: <not supported> (EOPNOTSUPP, ENOENT, ...) */
	HPM_EV_NOT_COUNTED,   /* opened but never ran (running == 0): <not counted> */
	HPM_EV_NOT_MODELLED,  /* emulator: the workload model does not produce it */
};

struct hpm_count {
	uint64_t val; /* raw count */
	uint64_t ena; /* time enabled (ns; emulator: cycles) */
	uint64_t run; /* time running (same unit as ena) */
	/* The counter went past 2^64 - 1 since counting started (the OF bit of
	 * an mhpmcounter, or a wrap the back end saw otherwise): val is the
	 * count mod 2^64 and no number can be given. Sticky. */
	bool wrapped;
};

/* The exact value of a count: the sum over units of val * ena / run,
 * rounded down, computed in integers so no digit is lost. */
struct hpm_total {
	hpm_u128 count;
	bool ran;     /* some unit ran (running > 0) */
	bool wrapped; /* some unit wrapped: count means nothing */
};

struct hpm_evsel {
	char *name; /* as shown: the user's spelling, or a metric's event name */
	char *spec; /* the text it was parsed from */
	enum hpm_evsel_kind kind;
	int group;        /* index of its {...} group, -1 when ungrouped */
	bool emulated;    /* counted by the emulator: ena/run are in cycles */
	bool metric_only; /* added for a metric, not asked for by -e */
	bool optional;    /* added by -d: what the kernel cannot take is a
	                   * <not supported> row, as in perf, not an error */
	bool weak_group;  /* its group was written {...}:W: split it when the kernel
	                   * cannot open it as one (perf's weak group) */
	bool sample_read; /* its group was written {...}:S: when recording, only the
	                   * leader samples and each sample reads the whole group
	                   * (perf's leader sampling); nothing for counting */
	/* --all-user / --all-kernel: count only that level, whatever the
	 * event's own modifiers say (perf sets exclude_kernel/exclude_user on
	 * every event; hpm_evsel_set_level does it for Kunminghu events) */
	enum hpm_level_only { HPM_LEVEL_ANY, HPM_LEVEL_USER, HPM_LEVEL_KERNEL } level_only;
	char *cgroup; /* -G: count only in this cgroup (relative to the cgroup
	               * mount, as perf), NULL everywhere */
	/* HPM_EV_MODEL and _FIXED: the event as its model encoded it (enc.model;
	 * for a fixed counter enc.fixed is its index in the model's fixed[]) */
	struct hpm_event_code enc;
	/* HPM_EV_TOOL: which one (enum hpm_tool) */
	int tool;
	/* HPM_EV_HOST: what perf_event_open gets (filled by the perf back end) */
	uint32_t attr_type;
	uint64_t attr_config, attr_config1, attr_config2;
	bool exclude_user, exclude_kernel, exclude_hv, exclude_host, exclude_guest;
	const char *unit; /* "msec" for task-clock/cpu-clock, else "" */
	double scale;     /* multiply the raw count for display (task-clock: 1e-6) */

	enum hpm_evsel_state state;
	char *placement;          /* back end's words for where it runs: "mhpmcounter11
	                           * (0x4000000000000035)", "cpu/cycles/ fd 5" (for -v) */
	struct hpm_count *counts; /* [nr_units], cumulative */
	unsigned nr_units;        /* when set: the units of `counts`, those of the back end
	                           * that counts the row (a session's list holds rows of
	                           * several back ends); else the list's */
	char *const *unit_names;
	/* the open back end that fills this row, NULL when none: two cannot */
	const struct hpm_backend_inst *counted_by;
};

/* Whether e is a PMU model's event (programmable or fixed counter): what
 * the emulator counts, or perf through the model's raw encoding. */
static inline bool hpm_evsel_is_model(const struct hpm_evsel *e)
{
	return e->kind == HPM_EV_MODEL || e->kind == HPM_EV_MODEL_FIXED;
}

struct hpm_evlist {
	struct hpm_evsel *ev;
	unsigned nr;
	unsigned nr_groups;
	unsigned nr_units; /* CPUs or harts counted on */
	char **unit_names; /* "CPU0", "hart0" */
};

/* What to count on. */
struct hpm_target {
	int pid;              /* -p, or the forked child; -1 none */
	bool system_wide;     /* -a */
	const char *cpu_list; /* -C LIST, NULL all */
	bool per_unit;        /* -A: keep per-CPU / per-hart counts apart in output */
	bool enable_on_exec;  /* pid is a child stopped before exec: count from exec */
	bool inherit;         /* count the pid's future children too (perf's default) */
	/* -t TID[,TID...]: these threads only (pid is -1 then) */
	const char *tid_list;
	/* --per-thread: one unit per thread ("comm-tid"); with system_wide,
	 * every thread of the system, as perf stat -a --per-thread */
	bool per_thread;
	/* --per-task: with system_wide, one unit per process ("comm-tgid") */
	bool per_process;
	/* Counting through BPF (src/bpf/taskcount.h): per-CPU counters whose
	 * deltas a sched_switch program charges to the task switched out.
	 * HPM_TARGET_BPF_WANT: -a --per-thread/--per-task take their units from
	 * it when it loads, else count per thread as without it (the reason in
	 * hpm_perf_cfg); HPM_TARGET_BPF_REQUIRE: --bpf-counters, an error when
	 * it cannot load. */
	enum { HPM_TARGET_BPF_NO, HPM_TARGET_BPF_WANT, HPM_TARGET_BPF_REQUIRE } bpf;
	unsigned bpf_max_tasks; /* its task map (0: HPM_TC_DEF_TASKS) */
};

/* An open back end: what hpm_backend.open gives and the other operations
 * take. Each back end embeds it as the first member of its own state (perf's
 * fds, the emulator's machine) and casts the handle back, so that an
 * instance is all there is of what is open: no back end keeps a record of
 * its own, and any number can be open at once. */
struct hpm_backend_inst {
	const struct hpm_backend *ops;
	struct hpm_evlist *list; /* the list its rows are in */
	unsigned *rows;          /* list->ev[rows[k]]: the rows it counts, in list order */
	unsigned nr_rows;
	/* The units the counts of its rows are kept per (CPUs, threads, harts);
	 * open points every row it counts at them (evsel.nr_units, .unit_names).
	 * unit_names is the instance's and close frees it; a caller that wants
	 * the rows to keep their names past close (a run printed later, rows
	 * handed to another list) takes the array by setting this to NULL. */
	unsigned nr_units;
	char **unit_names;
};

/* The operations of one back end (src/backend/<name>.c). All return 0 or a
 * negative errno-style code with a one-line message in err. The library
 * never prints; the CLI does.
 *
 * A back end is given some rows of a list: rows[0..nr_rows) (indices into
 * list->ev, in order), or every row when rows is NULL; of those it takes the
 * kinds it counts and leaves the others alone. It writes what it finds into
 * those rows themselves (state, placement, counts, units, the attr fields),
 * so the list's owner reads them there. Counts and placement are the row's:
 * they stay after close (the list's owner frees them), and an open frees
 * those it finds from an earlier one. */
struct hpm_backend {
	const char *name; /* "perf", "emu", "tool" */
	/* Resolve and place every row it takes; set state and placement;
	 * allocate counts. Events it cannot count get HPM_EV_NOT_SUPPORTED, not
	 * an error, unless nothing at all can run. -EBUSY when one of the rows
	 * is counted by another open instance. On success *out is the handle
	 * the other operations take, until close. */
	int (*open)(struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
	            const struct hpm_target *t, void *cfg, struct hpm_backend_inst **out, char *err,
	            size_t errlen);
	int (*enable)(struct hpm_backend_inst *b, char *err, size_t errlen);
	int (*disable)(struct hpm_backend_inst *b, char *err, size_t errlen);
	/* Refresh every row's cumulative counts. */
	int (*read)(struct hpm_backend_inst *b, char *err, size_t errlen);
	/* Emulator only (NULL elsewhere: real time passes by itself): let `ns`
	 * of emulated time pass, ns x --emu-freq cycles on every hart; ns == 0
	 * runs what is left of --emu-cycles. *done is set once --emu-cycles have
	 * run (never, when a host command sets the length). */
	int (*advance)(struct hpm_backend_inst *b, uint64_t ns, bool *done, char *err,
	               size_t errlen);
	/* What open would program for the same rows, one line per event,
	 * without counting and without an instance. */
	int (*dry_run)(const struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
	               const struct hpm_target *t, void *cfg, FILE *out, char *err, size_t errlen);
	/* Stops counting and frees the instance (and b->unit_names, unless
	 * taken); the rows keep their counts and placement. */
	void (*close)(struct hpm_backend_inst *b);
};

/* Which rows a back end takes: rows[0..nr_rows) of list (every row when
 * rows is NULL) that `takes` accepts, in order, into *out (malloc'ed, even
 * when empty). Returns how many. */
unsigned hpm_evlist_select(const struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                           bool (*takes)(const struct hpm_evsel *e, const void *ctx),
                           const void *ctx, unsigned **out);
/* The start of every open: fills the base b of a new instance of ops with
 * the rows it takes (hpm_evlist_select) and marks them counted by it.
 * Returns -EBUSY, leaving b and the rows as they were, when one of them is
 * counted by another instance. */
int hpm_backend_inst_init(struct hpm_backend_inst *b, const struct hpm_backend *ops,
                          struct hpm_evlist *list, const unsigned *rows, unsigned nr_rows,
                          bool (*takes)(const struct hpm_evsel *e, const void *ctx),
                          const void *ctx);
/* Gives b nr_units units named PREFIX0.. (b owns them) and points every row
 * of b at them. */
void hpm_backend_inst_name_units(struct hpm_backend_inst *b, unsigned nr_units, const char *prefix);
/* Gives b these units (b owns names) and points every row of b at them. */
void hpm_backend_inst_set_units(struct hpm_backend_inst *b, unsigned nr_units, char **names);
/* The end of every close (and of a failed open): the rows are no longer
 * counted by b; frees what the base holds. */
void hpm_backend_inst_fini(struct hpm_backend_inst *b);
/* Frees an array of nr unit names (NULL is fine). */
void hpm_unit_names_free(char **names, unsigned nr);

/* The status of an operation (record's open) whose -e list does not
 * parse or names an event that no table has: perf's parse_events failure,
 * which perf's commands take as a usage error. Outside the -errno range. */
#define HPM_EVLIST_EBADEVENT (-4096)

/* Appends an evsel for `spec` (name and spec are copies) in group `group`
 * (-1: none); the caller fills kind and the rest. */
struct hpm_evsel *hpm_evlist_add(struct hpm_evlist *list, const char *spec, int group);
/* Splits perf's -e syntax: comma-separated events and {...} groups; commas
 * inside parentheses and perf-style /terms/ belong to the event. Blanks
 * around events, commas, braces and ':' and inside /terms/ are dropped, as
 * perf's lexer ignores them (blanks between the operands of a Kunminghu
 * expression stay: "ifu_req & ifu_miss"). A group may carry modifiers,
 * "{a,b}:uW": W makes it a weak group (weak_group), S (perf's sample read)
 * means nothing for counting and is accepted, the other letters are added
 * to every member's own (a:u, b:u). Appends one evsel per event. Returns 0,
 * or -1 with a message. */
int hpm_evlist_parse(struct hpm_evlist *list, const char *text, char *err, size_t errlen);
/* Gives every evsel zeroed counts for nr_units units named PREFIX0.. */
void hpm_evlist_alloc_counts(struct hpm_evlist *list, unsigned nr_units, const char *prefix);
void hpm_evlist_free(struct hpm_evlist *list);

/* --all-user / --all-kernel for one evsel: level_only for host events (the
 * perf back end applies it to the attr), and for Kunminghu events the same
 * virtualization states at that level only (U, S, VU, VS -> U, VU for
 * user), INH bits re-encoded. Returns false for a fixed counter that must
 * count every mode (the emulator's mcycle/minstret): left unchanged. */
bool hpm_evsel_set_level(struct hpm_evsel *e, enum hpm_level_only level, bool fixed_unfiltered);

/* Assigns -G cgroups to the evsels in order, as perf: the n-th name of the
 * comma list to the n-th event (an empty name skips one), one name alone to
 * every event. Several calls go on where the last stopped (*next). Returns
 * 0, or -1 with a message when there are more names than events. */
int hpm_evlist_set_cgroups(struct hpm_evlist *list, const char *names, unsigned *next, char *err,
                           size_t errlen);

/* Sum of the scaled counts of one evsel over all units (or unit `unit`
 * only); sets *share to running/enabled (1.0 when not multiplexed, 0 when
 * it never ran). Returns NAN when the evsel has no number (state !=
 * HPM_EV_OK, it never ran, or it wrapped). A double, for metrics: printers
 * show counts from hpm_counts_total, which keeps every digit. */
double hpm_evsel_value(const struct hpm_evlist *list, const struct hpm_evsel *e, int unit,
                       double *share);
/* The same for a bare counts array (e.g. one interval's deltas). */
double hpm_counts_value(const struct hpm_count *c, unsigned nr_units, int unit, double scale,
                        double *share);
/* The exact total of a counts array over all units (unit -1) or one. */
void hpm_counts_total(const struct hpm_count *c, unsigned nr_units, int unit, struct hpm_total *t);
/* Some unit (or unit `unit`) of the counts wrapped. */
bool hpm_counts_wrapped(const struct hpm_count *c, unsigned nr_units, int unit);

#endif
