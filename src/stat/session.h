/* session.h: one `hpmstat stat` measurement, from the event list to counts.
 *
 * Owns: the routing of each requested event to a back end (perf for host
 * events and for Kunminghu events on a Kunminghu host, the emulator for
 * Kunminghu events elsewhere, the tool back end for perf's tool events),
 * the back ends a session counts with (struct hpm_session_backend: which of
 * its rows each takes, its open instance, its units), the events metrics
 * need, and the evaluation of metrics on the counts. The back ends fill the
 * session's rows themselves; every operation is one loop over the back ends
 * in use. builtin/cmd-stat.c drives a session (workload, intervals, repeats,
 * output); this file knows nothing of the command line.
 */
#ifndef HPM_STAT_SESSION_H
#define HPM_STAT_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/emu.h"
#include "backend/perf.h"
#include "backend/tool.h"
#include "metric/metric.h"
#include "core/evlist.h"
#include "stat/stat.h"

enum hpm_backend_choice {
	HPM_BACKEND_AUTO,
	HPM_BACKEND_PERF,
	HPM_BACKEND_EMU,
};

/* "auto", "perf" or "emu" (the --backend values of stat and top); -1 for
 * anything else. */
int hpm_backend_choice_parse(const char *name, enum hpm_backend_choice *out);

/* The most back ends one session uses: perf, the emulator, the tool events,
 * and the one of a model nothing here counts (stat/uncounted.h). */
#define HPM_SESSION_MAX_BACKENDS 4

/* One back end a session counts some of its rows with. */
struct hpm_session_backend {
	const struct hpm_backend *ops;
	unsigned *rows; /* the rows of the session's list it counts (indices, in order) */
	unsigned nr_rows;
	struct hpm_backend_inst *inst; /* while open, else NULL */
	/* the units of its rows' counts, from its last open (or taken with a
	 * row from another session): the session's, so that the rows keep them
	 * past close */
	unsigned nr_units;
	char **unit_names;
};

struct hpm_session {
	enum hpm_backend_choice choice;
	struct hpm_pmu pmu; /* what this host has */
	bool model_on_perf; /* the model's events go to perf (the host has its PMU) */
	/* --pmu named the model and the host has not got its PMU: perf's
	 * generic names (cycles, instructions) are the model's, as on the
	 * emulator back end, not the host's */
	bool model_generic;
	/* nothing on this host counts the model's events: no PMU of it here and
	 * no emulator of it (stat/uncounted.h); only a dry run may use them */
	bool model_uncounted;
	/* what the host is, for the uncounted back end's messages ("; this
	 * host's core is Neoverse V2"); "" when nothing is known */
	char host_why[300];
	bool dry_run; /* set before split: the session is only dry-run */
	/* the PMU model whose events the session counts: the host's, or the
	 * emulated one (the first registered) */
	const struct hpm_pmu_model *model;
	struct hpm_evlist all; /* every row, in order: the back ends fill them */
	/* the back ends in use, each with rows, in the order they run and print
	 * their dry-run lines (perf, emulator, tool events); set by split */
	struct hpm_session_backend backend[HPM_SESSION_MAX_BACKENDS];
	unsigned nr_backends;
	struct hpm_perf_cfg perf_cfg;  /* the perf back end's options */
	struct hpm_emu_config emu_cfg; /* the emulator's */
	/* metrics */
	struct metric_set metrics;
	struct metric_subst subst[1];
	unsigned nr_subst;
	struct metric_value *mvals;
};

void hpm_session_init(struct hpm_session *s, enum hpm_backend_choice choice);
/* hpm_session_init, without asking the host about its PMU when host is
 * false (no /proc/cpuinfo, no sysfs scan: they cost a start-up of stat a
 * tenth of its time): s->pmu stays empty, as on a host without a model's
 * PMU. For sessions of perf's software and tool events only
 * (hpm_session_events_software), which count the same on any host. */
void hpm_session_init_host(struct hpm_session *s, enum hpm_backend_choice choice, bool host);
/* Whether every event of the -e lists is one of perf's software or tool
 * events (hpm_host_event_is_software); false for a list that does not
 * parse (the session's own parse says why). */
bool hpm_session_events_software(const char *const *lists, unsigned nr);
void hpm_session_free(struct hpm_session *s);
/* --pmu NAME, before any event is added: the session counts the events of
 * that registered model instead of the host's (or the first registered
 * one): on perf when the host's PMU is that model and the choice allows,
 * else on its emulator. -1 with the message when there is no such model
 * or --backend perf asks for a PMU the host does not have. A model that
 * would need an emulator it has not got is taken as model_uncounted: its
 * events are checked as any model's, and hpm_session_split refuses them
 * unless the session is a dry run. */
int hpm_session_set_model(struct hpm_session *s, const char *name, char *err, size_t errlen);

/* --topdown-variant NAME, after the model is chosen and before any metric
 * is added: the session's metrics are that named variant of its model's
 * (struct metric_variant). -1 with a one-line message when the model has no
 * variants or none of that name (the known names, the closest one). */
int hpm_session_set_variant(struct hpm_session *s, const char *name, char *err, size_t errlen);

/* Adds the events of one -e argument. Unknown events get a message with
 * the closest names of both namespaces. */
int hpm_session_add_events(struct hpm_session *s, const char *text, char *err, size_t errlen);
/* Adds -M metrics or groups, or the Topdown tree to `level`, and the events
 * they need (hidden rows). retired_minstret: INST_RETIRED from minstret. */
int hpm_session_add_metrics(struct hpm_session *s, const char *list, unsigned level,
                            bool retired_minstret, char *err, size_t errlen);
/* Which back end counts each row, after every add. -1 with a message when
 * a row is the events of a model nothing here counts (model_uncounted) and
 * the session is no dry run. */
int hpm_session_split(struct hpm_session *s, char *err, size_t errlen);
bool hpm_session_uses_emu(const struct hpm_session *s);
bool hpm_session_uses_perf(const struct hpm_session *s);
/* Whether a tool event (duration_time, ...) is counted: wall time. */
bool hpm_session_uses_tool(const struct hpm_session *s);

int hpm_session_open(struct hpm_session *s, const struct hpm_target *t, char *err, size_t errlen);
int hpm_session_enable(struct hpm_session *s, char *err, size_t errlen);
int hpm_session_disable(struct hpm_session *s, char *err, size_t errlen);
/* Emulated time passes (see hpm_backend.advance); no-op without the emulator. */
int hpm_session_advance(struct hpm_session *s, uint64_t ns, bool *done, char *err, size_t errlen);
/* Runs the emulated harts for up to max_cycles each, returning after about
 * budget_ns of real time at the latest (hpm_emu_run_bounded), so that the
 * caller notices signals and its command between calls; *ran: cycles per
 * hart run, *done: --emu-cycles reached (true without the emulator). */
int hpm_session_run_emu(struct hpm_session *s, uint64_t max_cycles, uint64_t budget_ns,
                        uint64_t *ran, bool *done, char *err, size_t errlen);
int hpm_session_read(struct hpm_session *s, char *err, size_t errlen);
/* The run is over: the stat command hands over what the tool events count,
 * as perf's do: duration_time the elapsed time it reports, user_time and
 * system_time the workload's rusage (0 without a workload: <not counted>,
 * as a zero time is in perf). Until then (and in -I intervals) duration_time
 * is the time since enable and the rusage ones count nothing. */
void hpm_session_set_run_times(struct hpm_session *s, uint64_t elapsed_ns, uint64_t user_ns,
                               uint64_t sys_ns);
int hpm_session_dry_run(struct hpm_session *s, const struct hpm_target *t, FILE *out, char *err,
                        size_t errlen);
void hpm_session_close(struct hpm_session *s);

/* The workload profile the emulator runs: --emu-profile, or the default of
 * the session model's machine (NULL when it has none). */
const char *hpm_session_emu_profile(const struct hpm_session *s);
/* Evaluates the metrics on the counts (or on `delta` counts for one
 * interval) into out[nr] (allocated); returns nr. */
unsigned hpm_session_metrics(struct hpm_session *s, const struct hpm_count *const *delta,
                             struct stat_metric **out);
/* The same for one unit (hart or CPU) of the Kunminghu events' back end;
 * unit -1 sums them. */
unsigned hpm_session_metrics_unit(struct hpm_session *s, const struct hpm_count *const *delta,
                                  int unit, struct stat_metric **out);
/* How many units the metrics' events are counted on, and their names. */
unsigned hpm_session_metric_units(const struct hpm_session *s, char *const **names);
/* The emulator back end's state (hpm_emu_info); false (zeroed) when the
 * session has no emulator open. Callers above the session use this, never
 * the back end's evlist. */
bool hpm_session_emu_info(const struct hpm_session *s, struct hpm_emu_info *info);
/* Its clock in Hz; 0 without an open emulator. */
uint64_t hpm_session_emu_freq(const struct hpm_session *s);
/* The emulator's per-task rows (hpm_emu_tasks: attributed at emulated
 * context switches, and ground truth) and the rows of s->all they are
 * counted per: att[k] and truth[k] of each task are those of
 * s->all.ev[(*evrows)[k]], k < *nrows. -ENOENT when the emulator's source
 * declares no tasks, -EINVAL when the session has no emulator open. */
int hpm_session_emu_tasks(struct hpm_session *s, const struct hpm_emu_task **tasks,
                          unsigned *ntasks, const unsigned **evrows, unsigned *nrows);
/* Fills the emulator label of cfg from the emulator back end. */
void hpm_session_emu_label(const struct hpm_session *s, struct stat_emu_label *l);

/* --no-multiplex (stat/nomux.h): row `to` of s, a session that is never
 * opened, takes over the counts, state and placement of row `from` of src,
 * a session that counted a part of its rows (src keeps none of them, and
 * its free leaves them alone). src NULL: the row gets zero counts that
 * never ran (<not counted>). Counts s had for the row are freed. */
void hpm_session_take_row(struct hpm_session *s, unsigned to, struct hpm_session *src,
                          unsigned from);

/* Snapshots of the counts, for rates over an interval (stat -I, top): a
 * copy of every row's counts per unit, [s->all.nr][units], freed with
 * hpm_session_snapshot_free while s has the same rows. */
struct hpm_count **hpm_session_snapshot(const struct hpm_session *s);
void hpm_session_snapshot_free(const struct hpm_session *s, struct hpm_count **snap);
/* The counts since prev (a snapshot; NULL: since the start) as a new
 * snapshot: value, enabled and running time, perf's deltas. */
struct hpm_count **hpm_session_delta(const struct hpm_session *s, struct hpm_count *const *prev);

#endif
