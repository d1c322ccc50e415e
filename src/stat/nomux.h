/* nomux.h: --no-multiplex, toplev's way to count every Topdown event for a
 * whole run: the workload (or the emulated stream, which the seed makes the
 * same every time) runs once per multiplex group of the model's events,
 * each run counting only its group.
 *
 * Owns: the plan (which run counts which row of a session, from the counter
 * scheduler of core/sched.h, the one the emulator places requests with) and
 * the session of each run. The caller runs each run's session as it runs
 * any session, then hands its counts back with hpm_nomux_take. The rows
 * counted in every group of a multiplexed schedule (fixed counters, classes
 * that do not overflow) and host events are counted in the first run.
 */
#ifndef HPM_STAT_NOMUX_H
#define HPM_STAT_NOMUX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stat/session.h"

struct hpm_nomux {
	unsigned nr_runs; /* 1: everything fits at once, nothing to split */
	unsigned *run_of; /* [s->all.nr]: the run that counts row i */
	bool *taken;      /* [s->all.nr]: hpm_nomux_take gave row i its counts */
	unsigned nr_rows;
};

/* Plans the runs of session s (after hpm_session_split). Returns 0, or -1
 * with a one-line reason (a {...} group that cannot fit, as opening the
 * session would say). */
int hpm_nomux_plan(const struct hpm_session *s, struct hpm_nomux *p, char *err, size_t errlen);
/* Builds run r's session into *out: the rows of s that run r counts, with
 * s's back end choice and emulator options, no metrics; split, not open.
 * Free it with hpm_session_free after hpm_nomux_take. */
void hpm_nomux_session(const struct hpm_nomux *p, const struct hpm_session *s, unsigned r,
                       struct hpm_session *out);
/* After run r counted *sub: its rows' counts become those of s's rows. */
void hpm_nomux_take(struct hpm_nomux *p, struct hpm_session *s, unsigned r,
                    struct hpm_session *sub);
/* The rows no run gave counts (runs a signal stopped) become <not counted>. */
void hpm_nomux_finish(struct hpm_nomux *p, struct hpm_session *s);
void hpm_nomux_free(struct hpm_nomux *p);
/* --dry-run --no-multiplex: what each run would program, each run's lines
 * after a "# run R of N:" line (as hpm_session_dry_run alone when one run
 * suffices). */
int hpm_nomux_dry_run(const struct hpm_session *s, const struct hpm_target *t, FILE *out, char *err,
                      size_t errlen);

#endif
