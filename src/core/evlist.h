/* evlist.h: the events of one measurement and their counts (core types).
 *
 * Owns: struct hpm_evsel (one requested event: one output row), struct
 * hpm_evlist (all of them, their groups, the units they are counted on and
 * the counts read back), and struct hpm_backend (the operations every back
 * end implements, one file each under src/backend/). It sits below the back
 * ends, the session and the printers, and uses only util and the Kunminghu
 * model. The stat command, the printers and the run-file writer read these;
 * the back ends fill them.
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

#include "kmh/kmh.h"
#include "util/count.h"

enum hpm_evsel_kind {
	HPM_EV_KMH,       /* a Kunminghu mhpmevent expression (bank counter) */
	HPM_EV_KMH_FIXED, /* a Kunminghu fixed counter: mcycle or minstret */
	HPM_EV_HOST,      /* anything perf_event_open counts on this host */
	HPM_EV_TOOL,      /* perf's tool events: the session's clock and the
	                   * workload's rusage (backend/host-events.h) */
};

enum hpm_fixed {
	HPM_FIXED_MCYCLE,
	HPM_FIXED_MINSTRET,
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
	/* --all-user / --all-kernel: count only that level, whatever the
	 * event's own modifiers say (perf sets exclude_kernel/exclude_user on
	 * every event; hpm_evsel_set_level does it for Kunminghu events) */
	enum hpm_level_only { HPM_LEVEL_ANY, HPM_LEVEL_USER, HPM_LEVEL_KERNEL } level_only;
	char *cgroup; /* -G: count only in this cgroup (relative to the cgroup
	               * mount, as perf), NULL everywhere */
	/* HPM_EV_KMH */
	struct kmh_encoding enc; /* value, bank, modes */
	/* HPM_EV_KMH_FIXED */
	enum hpm_fixed fixed;
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
	struct hpm_count *counts; /* [evlist->nr_units], cumulative */
	unsigned nr_units;        /* when set: the units of `counts` (a session's combined list
	                           * holds rows of several back ends); else the list's */
	char *const *unit_names;
	void *priv; /* back end state */
};

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
};

/* The operations of one back end (src/backend/<name>.c). All return 0 or a
 * negative errno-style code with a one-line message in err. The library
 * never prints; the CLI does. */
struct hpm_backend {
	const char *name; /* "perf", "emu" */
	/* Resolve and place every evsel the back end owns; set state and
	 * placement; allocate counts. Events it cannot count get
	 * HPM_EV_NOT_SUPPORTED, not an error, unless nothing at all can run. */
	int (*open)(struct hpm_evlist *list, const struct hpm_target *t, void *cfg, char *err,
	            size_t errlen);
	int (*enable)(struct hpm_evlist *list, char *err, size_t errlen);
	int (*disable)(struct hpm_evlist *list, char *err, size_t errlen);
	/* Refresh every evsel's cumulative counts. */
	int (*read)(struct hpm_evlist *list, char *err, size_t errlen);
	/* Emulator only (NULL elsewhere: real time passes by itself): let `ns`
	 * of emulated time pass, ns x --emu-freq cycles on every hart; ns == 0
	 * runs what is left of --emu-cycles. *done is set once --emu-cycles have
	 * run (never, when a host command sets the length). */
	int (*advance)(struct hpm_evlist *list, uint64_t ns, bool *done, char *err, size_t errlen);
	/* What open would program, one line per event, without counting. */
	int (*dry_run)(const struct hpm_evlist *list, const struct hpm_target *t, void *cfg,
	               FILE *out, char *err, size_t errlen);
	void (*close)(struct hpm_evlist *list);
};

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
