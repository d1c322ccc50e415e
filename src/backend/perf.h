/* perf.h: the perf_event_open back end.
 *
 * Owns: hpm_backend_perf (struct hpm_backend, see core/evlist.h; its
 * instances hold the fds), the mapping of an evsel to the perf_event_attr
 * it is opened with (host events via host-events.h; a PMU model's events
 * through the model's perf_attr for the PMU of host-pmu.h), the -C CPU list
 * parser, and perf's error advice (evsel__open_strerror) as one-line
 * messages.
 *
 * What the back end does, as perf stat does it:
 * - Units: per CPU for -a / -C (one fd per CPU, unit_names "CPU0", ...; a
 *   pid next to them is the forked workload, which only bounds the run, so
 *   the CLI resolves -p with -a/-C as perf does, "PID/TID switch overriding
 *   CPU", by clearing them); else one unit ("task") for the pid: every thread
 *   of it for -p, the child alone when enable_on_exec, the calling process
 *   when pid is -1. open() sets the instance's nr_units and unit_names,
 *   which its rows point at.
 * - Rows: open() takes the host events among the rows it is given, and the
 *   model events unless cfg->leave_model leaves them to the emulator;
 *   others (tool events) it leaves alone. close() closes the fds and frees
 *   the instance; the rows' counts and placement strings stay (the list's
 *   owner frees them) so a run can be printed after close.
 * - Groups: evsels with the same group >= 0 open as one perf group, the
 *   first that opens is the leader; read with PERF_FORMAT_GROUP |
 *   PERF_FORMAT_ID | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING. A member the
 *   kernel does not support is left out and marked, the rest still count as
 *   a group (perf 6.1 gives up on the group instead).
 * - Leaders are opened disabled; with target->enable_on_exec (a task target
 *   only: it cannot act on CPU events, which enable() must start) the kernel
 *   enables them at exec and the first enable() is a no-op; inherit =
 *   target->inherit. FD_CLOEXEC on every fd.
 * - ENOENT, EOPNOTSUPP, ENODEV, ENXIO: that evsel is HPM_EV_NOT_SUPPORTED and
 *   the run goes on; EINVAL on a host event whose exclude_guest was only
 *   perf's default: retried without it, as perf does; anything else fails
 *   open() with perf's advice (paranoid setting, ulimit -n, ...).
 * - Weak groups ({...}:W, evsel.weak_group): when a member fails with
 *   EINVAL or EBADF the group cannot be opened as one; every member is then
 *   opened on its own (perf's evlist__reset_weak_group), and -v says so.
 * - Cgroups (-G, evsel.cgroup; CPU targets only): the event counts only
 *   tasks of that cgroup, opened with PERF_FLAG_PID_CGROUP and the fd of
 *   the cgroup's directory under the perf_event cgroup v1 mount, else the
 *   cgroup2 mount (<proc>/self/mounts), as perf's open_cgroup.
 * - A PMU/TERMS/ event whose PMU this host does not have is
 *   HPM_EV_NOT_SUPPORTED without being opened; the first such gives
 *   cfg->warning (why it cannot count).
 * - target->bpf (src/bpf/taskcount.h): the rows are opened once per online
 *   CPU (no inherit, no groups: perf's "bpf managed perf events do not yet
 *   support groups"), a BPF program charges their deltas to the task
 *   switched out, and read() takes the units from its table: one "task"
 *   for --bpf-counters' -p (the tgid's threads) or -t (those tids), a
 *   "comm-tid" per thread or "comm-tgid" per process for -a --per-thread
 *   or --per-task (rebuilt at each read: threads come and go). REQUIRE and
 *   BPF unavailable: open() fails with the reason; WANT: counted per thread
 *   as without it, the reason in cfg->bpf_reason (empty when built without
 *   libbpf); cfg->bpf_* hold the program's missed switches and read errors.
 * - read() refreshes counts[unit] = {val, ena, run}, the sums over the unit's
 *   fds; an evsel that never ran (run == 0) is HPM_EV_NOT_COUNTED until it
 *   does. Scaling (val * ena / run) is the reader's.
 *
 * Model events (HPM_EV_MODEL, HPM_EV_MODEL_FIXED; only when hpm_pmu.present):
 * - the attr is the model's (its perf_attr operation, arch/model.h), given
 *   what this host's driver offers (hpm_pmu_driver); its refusals become
 *   one line naming the event, -EINVAL (-ENODEV for an optional event of
 *   -d's set, a row that says so). Without the model's perf_attr the event
 *   is refused.
 * - An event the model could not pin to its counters gives the caller the
 *   model's one-time warning through struct hpm_perf_cfg; one that counts
 *   modes beyond those asked (the driver cannot exclude them) one note.
 */
#ifndef HPM_BACKEND_PERF_H
#define HPM_BACKEND_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "backend/host-pmu.h"
#include "core/evlist.h"

struct perf_event_attr; /* <linux/perf_event.h> */

extern const struct hpm_backend hpm_backend_perf;

/* The `cfg` of hpm_backend_perf.open and .dry_run; NULL means all defaults. */
struct hpm_perf_cfg {
	/* in */
	const struct hpm_pmu *pmu; /* NULL: hpm_pmu_detect() under HPMSTAT_SYSFS/PROCFS */
	bool leave_model;          /* --backend auto: without the PMU of their model, model
	                            * evsels are the emulator's: skip them (untouched)
	                            * instead of failing ("... events need that PMU") */
	/* out */
	bool warn;          /* print `warning` once */
	char warning[256];  /* the model's unpinned_warning, or why a PMU/TERMS/ event
	                     * cannot count */
	bool noted;         /* print `note` once */
	char note[400];     /* guest modes counted beyond those asked (first event) */
	unsigned nr_opened; /* evsels the back end took */
	/* target->bpf (src/bpf): bpf_active once the program is attached;
	 * bpf_reason why it is not (WANT: counted per thread instead); the
	 * program's statistics as of the last read */
	bool bpf_active;
	char bpf_reason[200];
	uint64_t bpf_switches, bpf_missed, bpf_read_errors;
	unsigned bpf_tasks, bpf_max_tasks;
};

/* What the back end programs for one evsel. */
struct hpm_perf_event {
	uint32_t type;
	uint64_t config, config1, config2;
	bool exclude_user, exclude_kernel, exclude_hv, exclude_host, exclude_guest;
	bool guest_default;           /* host event: exclude_guest is perf's default only */
	unsigned precise_ip;          /* host event: :p, :pp, :ppp */
	bool precise_max;             /* host event: :P */
	bool sysfs_pmu;               /* PMU/TERMS/ of a sysfs PMU: EINVAL is <not supported>,
	                               * as perf stat takes it */
	bool absent;                  /* its PMU is not on this host: never opened */
	bool pinned;                  /* the counter-mask term (counterid_mask) set */
	bool unpinned;                /* a model event left to the firmware's placement */
	const char *unpinned_warning; /* then the model's warning (static text) */
	unsigned extra_modes;         /* guest modes (the model's bits) counted beyond those
	                               * asked: the kernel's driver cannot exclude them (a note) */
	const char *unit;
	double scale;
};

/* Whether the perf back end counts ev (host events always; model events
 * when pmu->present). */
bool hpm_perf_owns(const struct hpm_evsel *ev, const struct hpm_pmu *pmu);

/* The attr of one evsel. pmu may be NULL for host events. Returns 0, or
 * -EINVAL / -ENOENT / -EOPNOTSUPP / -ENODEV with a one-line message naming
 * the event (unknown name, what the model's perf_attr refuses: bits beyond
 * the kernel's width, M-mode, a mode set the driver cannot select; no PMU
 * for the model). */
int hpm_perf_event_attr(const struct hpm_evsel *ev, const struct hpm_pmu *pmu,
                        struct hpm_perf_event *pe, char *err, size_t errlen);

/* Parse a -C list ("0-3,5") against the online CPUs (a list in the same
 * syntax; NULL: <sys>/devices/system/cpu/online, else sysconf). Sorted,
 * duplicates merged; *cpus is malloc'ed. 0 or -EINVAL with a message. */
int hpm_perf_parse_cpu_list(const char *list, const char *online, int **cpus, unsigned *nr,
                            char *err, size_t errlen);

/* perf's advice for a failed perf_event_open of ev (evsel__open_strerror),
 * as one line in buf; reads perf_event_paranoid and RLIMIT_NOFILE. */
const char *hpm_perf_open_strerror(int errnum, const struct hpm_evsel *ev,
                                   const struct hpm_target *t, char *buf, size_t len);

/* Clears *attr and fills its size, type, configs and exclude bits from pe:
 * what counting (this back end) and sampling (record) open alike. */
void hpm_perf_event_to_attr(const struct hpm_perf_event *pe, struct perf_event_attr *attr);

/* perf_event_open(2) itself (glibc has no wrapper): the fd, or -1 with
 * errno. Counting (this back end) and sampling (src/record) both open
 * their events through it. */
int hpm_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
                        unsigned long flags);

/* The fd counting row `row` (of the instance's list) on CPU `cpu`, pid -1,
 * of an open perf instance of a CPU target (-a / -C), or -1: not its row,
 * not open there, a task target. For readers that share the counters
 * instead of opening their own (top's BPF task counts, bpf/taskcount.h);
 * valid until close. */
int hpm_perf_cpu_fd(const struct hpm_backend_inst *b, unsigned row, int cpu);

/* <proc>/sys/kernel/perf_event_paranoid (HPMSTAT_PROCFS, then /proc), or
 * INT_MIN when unreadable. */
int hpm_perf_paranoid(void);

#endif
