/* top.h: the view state of `hpmstat top` (hpmtop), independent of any
 * terminal.
 *
 * Owns: struct top_opts (every setting of the live view: back end, event
 * and metric columns, refresh interval, Topdown level, sorting; filled from
 * the config file, then the command line, then keys), struct top_model (the
 * counting session, the previous counts, the drill-down stack and the
 * process sampler) and struct top_frame (one refresh: the rows per hart or
 * CPU, the Topdown tree, the process table) that the three views render:
 * the ncurses view (view.h), the plain-text batch frames and the JSON
 * frames (top_print_text / top_print_json here).
 *
 * The library never prints to the terminal or exits: errors come back as
 * a negative return with a one-line message; top_print_* write to the
 * FILE the caller gives.
 */
#ifndef HPM_TOP_TOP_H
#define HPM_TOP_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "backend/emu.h"
#include "stat/session.h"

#define TOP_MAX_LEVEL     3
#define TOP_MAX_DEPTH     3 /* drill-down stack: level-1 node, level-2 node, ... */
#define TOP_DEFAULT_PROCS 0 /* every process, as htop lists them */
/* per-task counter groups (procs.h) opened for the busiest processes when
 * every process is listed */
#define TOP_COUNTED_PROCS 20
#define TOP_MIN_DELAY     0.1
#define TOP_MAX_DELAY     3600.0

/* Every setting of the view. Strings are owned (malloc'ed) so keys and the
 * config file can replace them. */
struct top_opts {
	enum hpm_backend_choice backend; /* AUTO: perf, or emu when emu_asked */
	struct hpm_emu_config emu;
	bool emu_asked;  /* an --emu-* option on the command line */
	char *events;    /* -e: extra columns, perf's -e syntax; NULL none */
	char *metrics;   /* -M: extra metric columns; NULL none */
	char *cpus;      /* -C LIST (perf back end) */
	int pid;         /* -p PID (perf back end): count that task, list only it */
	double delay;    /* -d seconds */
	unsigned level;  /* Topdown tree depth shown, 1..3 */
	unsigned nprocs; /* process rows sampled (busiest N); 0: every process */
	char *user;      /* -u: only this user's tasks (a name, or a uid without
	                  * one); NULL: everyone's */
	char *pmu;       /* --pmu: the PMU model shown instead of the host's; NULL: default */
	/* --topdown-variant: a named variant of its formulas; NULL: the default */
	char *topdown_variant;
	char *sort;        /* process table column name to sort by; NULL: default */
	bool reverse;      /* ascending instead of descending */
	bool sticky;       /* keep exited processes, marked */
	bool no_bpf;       /* --no-bpf: task rows from per-task groups, not BPF (tasks.h) */
	bool tree;         /* F5/T: threads listed under their process */
	bool color;        /* colours wanted (NO_COLOR and --no-color clear it) */
	char *profile_buf; /* owns emu.profile when it came from the config file */

	/* "FILE:LINE" of the top.conf line that set events, to name it in their
	 * errors; NULL when the command line or a key set them */
	char *events_origin;
};

void top_opts_init(struct top_opts *o);
void top_opts_free(struct top_opts *o);
/* Replace a string setting (NULL or "" clears it). */
void top_opts_set(char **field, const char *value);

/* ---------------------------------------------------------- config file */

/* $XDG_CONFIG_HOME/hpmstat/top.conf, else ~/.config/hpmstat/top.conf
 * (malloc'ed; NULL when neither variable is set). */
char *top_config_path(void);
/* Loads `path` into o: "key = value" lines, '#' comments. Each bad line
 * is reported in warn (one "FILE:LINE: message" line each, "FILE:LINE:
 * column N: message" for a bad value, whole: those past warnlen are left
 * out) and skipped; the rest still loads. Returns 0
 * (a missing file too, unless `required`), or -1 with err when the file
 * cannot be read, is a directory, or passes TOP_CONFIG_MAX_LINE or
 * TOP_CONFIG_MAX_BYTES. */
#define TOP_CONFIG_MAX_LINE  4096u
#define TOP_CONFIG_MAX_BYTES (1u << 20)
int top_config_load(struct top_opts *o, const char *path, bool required, char *warn, size_t warnlen,
                    char *err, size_t errlen);
/* Saves o's settings to path (creating its directory) for W: the values of
 * delay, level, processes, backend, events, metrics, sort, reverse, sticky,
 * emu-profile and emu-harts change in their lines (or are added); every
 * other line of the file (comments, other keys, unknown keys) is kept.
 * Written as util/outfile.h writes (a symlink stays, its target gets the
 * content). 0 or -errno: -EFBIG, and the old file stays, when the file
 * written would pass TOP_CONFIG_MAX_LINE or TOP_CONFIG_MAX_BYTES (a
 * "key=VALUE" line is rewritten two bytes longer), since
 * top_config_load would then refuse it whole. */
int top_config_write(const struct top_opts *o, const char *path);
/* Applies one key = value; 0, or with a message -1 (a bad value) or
 * TOP_CONFIG_EKEY (an unknown key). Shared by the config file and the
 * command line's option checks. */
#define TOP_CONFIG_EKEY (-2)
int top_config_set(struct top_opts *o, const char *key, const char *value, char *err,
                   size_t errlen);

/* ---------------------------------------------------------------- frame */

enum { TD_RETIRING, TD_FRONTEND, TD_BADSPEC, TD_BACKEND, TD_NR };
/* Bar letters when colours are off (documented in hpmstat-top(1)). */
extern const char top_td_letter[TD_NR];
extern const char *const top_td_name[TD_NR];
/* the level-1 metrics behind them: tma_retiring, ... */
extern const char *const top_td_metric[TD_NR];
/* name is level-1 metric k: top_td_metric[k], or it without "tma_" */
bool top_td_metric_is(const char *name, unsigned k);
/* The bottleneck of one set of metrics (a hart's, a CPU's, a task's, the
 * sum's): the deepest node of the path the metric library marks
 * (metric_set_mark_bottleneck, the one rule by which stat, report and the
 * tree print <==), by its display name as the tree shows it
 * ("Retiring", "Backend_Bound"); "-" when no node is over its threshold.
 * The name points into ms. */
const char *top_bottleneck_of(const struct stat_metric *ms, unsigned nr);

struct top_value {
	double v;     /* NAN: no number, shown as '-' */
	double share; /* running/enabled: < 1 when the count was scaled; -1: a metric
	               * computed from scaled counts */
};

/* One hart or CPU. */
struct top_unit {
	char name[32];
	struct top_value cycles, instructions;
	double ipc;
	double td[TD_NR];    /* level 1, percent of slots; NAN when not counted */
	char bottleneck[32]; /* top_bottleneck_of this unit's own metrics, "idle" */
	/* counted no cycles over the interval (a hart in wfi: Kunminghu gates
	 * its clock, so nothing counts): no slots, left out of the sum's tree */
	bool idle;
	struct top_value *col; /* [frame.ncols]: the -e events then the -M metrics */
};

/* One node of the Topdown tree (summed over the units). */
struct top_node {
	const char *name; /* tma_... */
	char display[48]; /* Backend_Bound */
	unsigned level;
	int parent;   /* index in frame.nodes, -1 */
	double value; /* percent; NAN */
	bool bottleneck;
	bool multiplexed;
	bool drilled; /* a child of the drill-down focus */
	/* a share below 0 or over 100 % (stat_metric.out_of_range): shown as
	 * computed, flagged */
	bool out_of_range;
};

/* Process table columns (perf back end) and workload columns (emulator). */
enum top_pcol {
	PC_CPU,    /* %CPU from /proc over the interval */
	PC_TASK,   /* task-clock msec over the interval */
	PC_CSW,    /* context switches */
	PC_FAULTS, /* page faults */
	/* from <proc>, as htop's columns: bytes, and the nice value */
	PC_VIRT, /* virtual size */
	PC_RES,  /* resident */
	PC_NICE, /* NI */
	PC_NR_PERF,
	/* emulator workloads */
	PC_CYCLES = 0,
	PC_INSTR,
	PC_IPC,
	PC_NR_EMU,
};
#define TOP_MAX_PCOLS 8

struct top_proc {
	int pid;                 /* -1: an emulated workload */
	char name[64];           /* comm, or "hart0: balanced seed 1" */
	char extra[32];          /* emulator: the workload's bottleneck; perf: state */
	char user[32];           /* perf: the task's user; "" unknown */
	double v[TOP_MAX_PCOLS]; /* NAN: '-' (counter not opened) */
	bool exited;             /* --sticky: gone since */
	int tgid;                /* the process a thread belongs to (= pid for a
	                          * process row); 0 when unknown */
	bool thread;             /* a thread row (pid != tgid), listed under its
	                          * process in the tree view */
	/* [frame.nev] the session's evsel counts of this task over the interval,
	 * in evlist order (m->s.all.ev[]), scaled as hpm_counts_value scales;
	 * NULL when the task source has none. malloc'ed, owned by the frame
	 * (top_frame_free frees it). */
	double *ev;
	double td[TD_NR]; /* Topdown level 1 of this task's counts (tasks.h); NAN: none */
	/* [frame.nev] an emulated task's ground truth beside ev: what each
	 * row's event counted in its cycles, never multiplexed (hpm_emu_task);
	 * NAN: none; NULL off the emulator. Owned by the frame. */
	double *truth;
};

/* Every emulated frame's source ends with this: its harts are not this
 * machine (kept whole when a narrow terminal cuts the line). */
#define TOP_EMU_NOT_HOST " (synthetic workload, not this host)"

struct top_frame {
	unsigned seq;
	double t;            /* seconds since start */
	double interval;     /* seconds this frame covers */
	double delay;        /* refresh setting */
	const char *backend; /* "emu" or "perf" */
	char source[320];    /* "emulated Kunminghu: profile balanced, 2 harts at 5 MHz" */
	unsigned level;
	bool paused;
	bool multiplexed; /* some shown value came from scaled counts */
	char focus[128];  /* drill path "Backend_Bound > Memory_Bound", "" at the top */
	char row[96];     /* Enter on a row: whose tree the nodes are ("hart1",
	                   * "pid 42 (sleep)"), "" for the sum over the units */
	char status[512]; /* one-line note (counter trouble, config warnings) */

	unsigned nunits;
	struct top_unit *units;
	unsigned ncols;
	char **col_names; /* [ncols] */

	unsigned nnodes;
	struct top_node *nodes;

	unsigned npcols;
	const char *pcol_names[TOP_MAX_PCOLS];
	int sort_col; /* index into pcol_names; -1 by pid/name */
	bool reverse;
	unsigned nprocs;
	struct top_proc *procs;
	unsigned nprocs_total; /* processes seen in /proc */
	/* why the process table could not be listed this frame ("cannot list
	 * /proc: Too many open files"): every view shows it in place of the
	 * table's count, never an empty table; "" when it was listed */
	char procs_error[160];
	unsigned nev; /* length of each top_proc.ev: the session's evsels */
	/* why the process rows carry no ev (shown when Enter is pressed on one):
	 * "" when they do or no reason is known */
	char noev_reason[128];
	/* the rows of frame.ev shown as columns of the task rows (tasks.h):
	 * [nev], the name of each evsel shown per unit, NULL for the others
	 * (those only metrics read); NULL when no ev */
	char **ev_names;
	char tasks[400]; /* "tasks: BPF sched_switch, ..." (tasks.h); "" none */

	double lag_ms;  /* tick to frame ready (filled by the caller) */
	double work_ms; /* of that, sampling and formatting (the rest: waking up late) */
};

void top_frame_free(struct top_frame *f);

/* ---------------------------------------------------------------- model */

struct top_procs; /* procs.c */
struct top_tasks; /* tasks.c */

struct top_model {
	struct top_opts *o;
	bool emu;        /* the back end in use */
	bool session_ok; /* counters open */
	struct hpm_session s;
	struct hpm_count **prev; /* counts at the previous sample */
	double t0, last;         /* monotonic seconds */
	unsigned seq;
	/* drill-down: metric names (tma_...), outermost first */
	const char *focus[TOP_MAX_DEPTH];
	unsigned depth;
	char bottleneck[64]; /* the current bottleneck node (drill target) */
	/* -M's metrics (their columns), in the user's order: resolved when
	 * programming, not every frame */
	const char **user_metrics;
	unsigned nr_user_metrics;
	struct top_procs *procs;
	struct top_tasks *tasks; /* tasks.c: where the task rows come from */
	char note[512];          /* sticky status line from (re)programming */
	/* Enter on a row (top_model_drill_row): the tree is that unit's or that
	 * task's own, counted at level 3 whatever o->level says */
	int row_unit;      /* unit index, -1: none */
	int row_pid;       /* task, 0: none */
	char row_name[96]; /* as frame.row shows it */
	/* the command line's -e did not parse or named an unknown event:
	 * perf top's usage error (top.conf's events are bad input) */
	bool bad_events;
};

/* Builds the session from o and opens it. On failure the model still
 * works (rows show '-') and err says why; returns -1 only for bad input
 * (an unknown event or metric), which the caller reports. */
int top_model_init(struct top_model *m, struct top_opts *o, char *err, size_t errlen);
/* Re-reads o (events, metrics, level, back end) and reprograms the
 * counters; the old program is kept when the new one is rejected. */
int top_model_reprogram(struct top_model *m, char *err, size_t errlen);
/* One refresh: let emulated time pass, read, compute. */
int top_model_sample(struct top_model *m, struct top_frame *f, char *err, size_t errlen);
/* Drill into the current bottleneck / back up one level: 0, or -1 with
 * a message (no bottleneck, a leaf, already at the top). */
int top_model_drill(struct top_model *m, char *err, size_t errlen);
int top_model_up(struct top_model *m, char *err, size_t errlen);
/* Enter on a row: the Topdown tree (levels 1 to 3) of unit `unit` (>= 0),
 * or else of task `pid` from its top_proc.ev, replaces the sum over the
 * units until top_model_up; reprograms the counters for level 3 when
 * fewer levels are counted. 0, or -1 with a message (no Topdown here, a
 * task row without per-task counts: `why`). */
int top_model_drill_row(struct top_model *m, int unit, int pid, const char *name, const char *why,
                        char *err, size_t errlen);
void top_model_free(struct top_model *m);
/* The session's metrics (as hpm_session_metrics_unit's) of one task's
 * counts: ev[nev] as top_proc.ev holds them; 0 rows when nev is not the
 * session's number of events. *out is freed as those are (free each
 * display, then the array). */
unsigned top_model_task_metrics(struct top_model *m, const double *ev, unsigned nev,
                                struct stat_metric **out);

/* Sorting the process table by column: a process column, or one of
 * these (the columns that are not numbers). */
enum {
	TOP_SORT_PID = -1,
	TOP_SORT_NAME = -2,  /* COMMAND, WORKLOAD */
	TOP_SORT_USER = -3,  /* USER */
	TOP_SORT_STATE = -4, /* S */
	TOP_SORT_FIRST = TOP_SORT_STATE,
};
void top_sort_procs(struct top_frame *f);
/* The sort column a name means in f (a process column, PID, COMMAND, USER,
 * S; any case; %CPU also as CPU), or TOP_SORT_FIRST - 1 for none. */
int top_sort_col(const struct top_frame *f, const char *name);
/* The name of sort column col as the table heads it. */
const char *top_sort_name(const struct top_frame *f, int col);
/* 0 when `name` is a process column of m's back end (or pid) that -s can
 * sort by; else -1 with the valid ones in err. */
int top_model_check_sort(const struct top_model *m, const char *name, char *err, size_t errlen);
/* Column index of a process column name (case-insensitive), -1. */
int top_pcol_find(const struct top_frame *f, const char *name);

/* -------------------------------------------------------------- output */

/* A value as shown: 4 significant digits with K/M/G, "-" for NAN. */
void top_fmt_value(char *buf, size_t len, double v);
/* A count with its share as every view shows it: "1.2M", "1.2M(50%)"
 * (scaled), "1.2M*" (a metric of scaled counts), "-"; a negative count
 * or a share outside (0, 1] (running time over enabled time) cannot be
 * right: "?" (TOP_BAD_TEXT), never a number. */
#define TOP_BAD_TEXT "?"
void top_fmt_share(char *buf, size_t len, const struct top_value *v);
/* Process column k of f with value v: memory columns in binary units
 * (htop's K, M, G of 1024), the others as top_fmt_value; a negative value,
 * or a %CPU over 100 x the CPUs configured, cannot be right: "?". */
void top_fmt_pcol(char *buf, size_t len, const struct top_frame *f, unsigned k, double v);
/* Whether process column k's value v cannot be right (see top_fmt_pcol). */
bool top_pcol_bad(const struct top_frame *f, unsigned k, double v);
/* The Topdown bar of width w (letters R F B K), NUL-terminated, w+1 bytes. */
void top_fmt_bar(char *buf, unsigned w, const double td[TD_NR]);
/* The emulator's process table lists its workloads, one per hart (HART,
 * WORKLOAD), unless a task schedule gives it tasks (PID, COMMAND). */
bool top_rows_are_workloads(const struct top_frame *f);
/* The unit table's header and unit u's line without its Topdown bar, and
 * the process table's header and row i's line (prefix before its name: a
 * thread's place in the tree), as batch and full-screen views both show
 * them: every column at least as wide as its name, none cut; the sort
 * column's name followed by v (its own order: numbers largest first,
 * names and PIDs ascending) or ^ (reversed). Each returns the line's
 * length; *bar is where the row's Topdown bar of TOP_PROC_BAR_W letters
 * starts in it, -1 when the table has none. */
#define TOP_PROC_BAR_W 20
size_t top_unit_header(char *buf, size_t len, const struct top_frame *f);
size_t top_unit_line(char *buf, size_t len, const struct top_frame *f, unsigned u);
size_t top_proc_header(char *buf, size_t len, const struct top_frame *f);
size_t top_proc_line(char *buf, size_t len, const struct top_frame *f, unsigned i,
                     const char *prefix, int *bar);
void top_print_text(FILE *out, const struct top_frame *f);
/* One JSON object on one line. */
void top_print_json(FILE *out, const struct top_frame *f);

#endif
