/* emu-tasks.h: the per-task table of an emulated run (stat --emu-tasks).
 *
 * Owns: how the emulator's per-task rows (backend/emu.h, struct
 * hpm_emu_task) are printed after the counts, in the std, CSV and JSON
 * formats of the stat output: one line per task and event, the count
 * attributed to the task at emulated context switches (scaled as perf
 * scales a multiplexed count, val x ena / run), and with `truth` the
 * emulator's ground truth beside it and their difference.
 */
#ifndef HPM_STAT_EMU_TASKS_H
#define HPM_STAT_EMU_TASKS_H

#include <stdbool.h>
#include <stddef.h>

#include "stat/session.h"
#include "stat/stat.h"

/* 0 when s's emulator runs a task schedule, else -1 with the reason in
 * err (checked right after open, before anything runs). */
int stat_emu_tasks_check(struct hpm_session *s, char *err, size_t errlen);
/* Prints the table of s's emulator to cfg->out. 0, or -1 with the reason in
 * err (no emulator open, or its source declares no tasks). */
int stat_print_emu_tasks(const struct stat_config *cfg, struct hpm_session *s, bool truth,
                         char *err, size_t errlen);

#endif
