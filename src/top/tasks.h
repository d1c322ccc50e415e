/* tasks.h: where the task rows of `hpmstat top` come from.
 *
 * Owns: the choice of the task source and the rows it gives each frame:
 * - BPF (perf back end, the default when this process may load BPF): the
 *   session's per-CPU counters, plus cpu-clock, context-switches and
 *   page-faults per CPU opened here, read at every context switch by the
 *   sched_switch program of bpf/taskcount.h and charged to the task
 *   switched out. Counters opened = events x CPUs, whatever the number of
 *   tasks; every counter of the session has a value per task and per
 *   thread, and the Topdown level 1 of a task comes from its own counts
 *   through the session's metric code (hpm_session_metrics_unit), as a
 *   hart's or CPU's does. A process row sums its threads; the tree view
 *   adds a row per thread. A task that exits is charged until its last
 *   switch out and shown once, marked exited (kept with --sticky). When
 *   fewer processes ran than the table has rows, the host's others follow
 *   from <proc> with zero counts (they did not run), as htop lists them.
 * - The emulator's synthetic task schedule (emulator back end, a profile
 *   that declares tasks): the emulated harts' per-task attribution at
 *   emulated context switches (hpm_session_emu_tasks), one row per task,
 *   its ground truth beside it (top_proc.truth).
 * - The per-task group fallback (procs.c): one perf group per busy task;
 *   the header says why BPF is not used.
 * Emulator profiles without tasks keep their rows per hart (view-state.c).
 *
 * The header line (struct top_frame.tasks) names the source: "tasks: BPF
 * sched_switch, 5 events x 2 CPUs = 10 counters" or "tasks: per-task
 * groups (BPF: <reason>)". Switches the program could not charge (its map
 * full) are said in the status line, never dropped silently.
 */
#ifndef HPM_TOP_TASKS_H
#define HPM_TOP_TASKS_H

#include <stdbool.h>
#include <stddef.h>

#include "top/top.h"

struct top_tasks;

struct top_tasks *top_tasks_new(void);
/* Before the session opens (each reprogram): whether it should open its
 * per-CPU counters for BPF (non-inherited: the kernel's BPF reads refuse
 * inherited counters). */
bool top_tasks_want_bpf(const struct top_tasks *t, const struct top_model *m);
/* After the session opened (or failed to): picks the source for m and
 * starts it; never fails (the fallback always works), the reason is in
 * the frame's task line. */
void top_tasks_attach(struct top_tasks *t, struct top_model *m);
/* Stops the BPF program and closes the counters opened here (before the
 * session they read is closed). */
void top_tasks_detach(struct top_tasks *t);
/* The rows of one frame: f->procs, f->nprocs, f->nprocs_total, f->npcols,
 * f->pcol_names, f->nev, f->ev_names, f->tasks, and a note appended to
 * f->status (missed switches). False when this source gives no rows (the
 * emulator without a task schedule): the caller fills its own. */
bool top_tasks_sample(struct top_tasks *t, struct top_model *m, struct top_frame *f,
                      double interval);
void top_tasks_free(struct top_tasks *t);

#endif
