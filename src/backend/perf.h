/* perf.h: the perf_event_open back end.
 *
 * Owns: hpm_backend_perf (struct hpm_backend, see core/evlist.h; its
 * instances hold the fds), the mapping of an evsel to the perf_event_attr
 * it is opened with (host events
 * via host-events.h; Kunminghu events as raw events on the PMU of pmu.h, by
 * SPEC §4), the -C CPU list parser, and perf's error advice
 * (evsel__open_strerror) as one-line messages.
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
 *   Kunminghu events unless cfg->leave_kmh leaves them to the emulator;
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
 * - read() refreshes counts[unit] = {val, ena, run}, the sums over the unit's
 *   fds; an evsel that never ran (run == 0) is HPM_EV_NOT_COUNTED until it
 *   does. Scaling (val * ena / run) is the reader's.
 *
 * Kunminghu events (HPM_EV_MODEL, only when hpm_pmu.present):
 * - type = the cpu PMU's sysfs type (PERF_TYPE_RAW when absent), config =
 *   mhpmevent bits 54:0 (INH, OF and reserved bits 57:55 are not passed:
 *   OpenSBI writes MINH and OF itself). A config with bits outside the
 *   kernel's format/event is refused, naming the event.
 * - Counted modes become exclude_* flags, as riscv_pmu_sbi turns them into
 *   SBI filter flags (pmu_sbi_get_filter_flags): exclude_user -> UINH,
 *   exclude_kernel -> SINH, exclude_host -> UINH|SINH, exclude_guest ->
 *   VSINH|VUINH; with config1 bit 0 ("guest events") exclude_user -> VUINH,
 *   exclude_kernel -> VSINH, exclude_hv -> SINH. The back end picks the
 *   combination whose INH bits are exactly the mode set's (config1 = 0 when
 *   possible, fewest flags), so `u` (U, VU) is config1=1 exclude_kernel
 *   exclude_hv and `uG` (VU) is config1=1 exclude_host exclude_kernel. A set
 *   no combination gives exactly is refused rather than counted wrong: `k`
 *   (S and VS) is one (use :kH and :kG as two events). M-mode (`m`) is
 *   refused: Linux cannot count M-mode. A raw value without modifiers keeps
 *   its INH bits except MINH, which the kernel always sets.
 * - exclude_hv: with config1 = 0 the kernel ignores it; it is set whenever
 *   exclude_user or exclude_kernel is, as perf's u/k letters set it, so the
 *   attr reads like perf's (M-mode firmware, RISC-V's "hypervisor" level in
 *   perf's sense, is never counted).
 * - Bank pinning: with a format/counterid_mask term, its field (config2) gets
 *   the bank's counters (bit n = mhpmcounter n); else the caller gets the
 *   one-time warning HPM_PERF_BANK_WARNING through struct hpm_perf_cfg.
 * - mcycle / minstret (HPM_EV_MODEL_FIXED): PERF_TYPE_HARDWARE cycles /
 *   instructions with the same mode mapping (enc.modes; 0 = the default
 *   set; M in a larger set is dropped, as these counters count M-mode
 *   anyway without Smcntrpmf), pinned to counter 0 / 2 when counterid_mask
 *   exists.
 */
#ifndef HPM_BACKEND_PERF_H
#define HPM_BACKEND_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/pmu.h"
#include "core/evlist.h"

extern const struct hpm_backend hpm_backend_perf;

#define HPM_PERF_BANK_WARNING                                                                      \
	"bank placement is up to the firmware: this kernel has no counterid_mask format term, "    \
	"so OpenSBI may put a Kunminghu event on a counter of another bank, where the same "       \
	"index is another event"
#define HPM_PERF_RAW_BANK_WARNING                                                                  \
	"bank placement is up to the firmware for raw Kunminghu events: their bank is not known, " \
	"so they are not pinned to a bank's counters"
#define HPM_PERF_NO_PMU                                                                            \
	"Kunminghu events need a Kunminghu PMU, and this host has none (use --backend emu or "     \
	"auto)"

/* The `cfg` of hpm_backend_perf.open and .dry_run; NULL means all defaults. */
struct hpm_perf_cfg {
	/* in */
	const struct hpm_pmu *pmu; /* NULL: hpm_pmu_detect() under HPMSTAT_SYSFS/PROCFS */
	bool leave_kmh;            /* --backend auto: without a Kunminghu PMU, Kunminghu
	                            * evsels are the emulator's: skip them (untouched)
	                            * instead of failing with HPM_PERF_NO_PMU */
	/* out */
	bool warn;          /* print `warning` once */
	char warning[256];  /* HPM_PERF_BANK_WARNING or HPM_PERF_RAW_BANK_WARNING */
	bool noted;         /* print `note` once */
	char note[400];     /* guest modes counted beyond those asked (first event) */
	unsigned nr_opened; /* evsels the back end took */
};

/* What the back end programs for one evsel. */
struct hpm_perf_event {
	uint32_t type;
	uint64_t config, config1, config2;
	bool exclude_user, exclude_kernel, exclude_hv, exclude_host, exclude_guest;
	bool guest_default;   /* host event: exclude_guest is perf's default only */
	bool sysfs_pmu;       /* PMU/TERMS/ of a sysfs PMU: EINVAL is <not supported>,
	                       * as perf stat takes it */
	bool absent;          /* its PMU is not on this host: never opened */
	bool pinned;          /* counterid_mask set */
	bool unpinned_kmh;    /* a Kunminghu event left to the firmware's placement */
	unsigned extra_modes; /* guest modes counted beyond those asked: the
	                       * kernel's driver cannot exclude them (a note) */
	const char *unit;
	double scale;
};

/* Whether the perf back end counts ev (host events always; Kunminghu events
 * when pmu->present). */
bool hpm_perf_owns(const struct hpm_evsel *ev, const struct hpm_pmu *pmu);

/* The attr of one evsel. pmu may be NULL for host events. Returns 0, or
 * -EINVAL / -ENOENT / -EOPNOTSUPP with a one-line message naming the event
 * (unknown name, bits beyond the kernel's width, M-mode, a mode set Linux
 * cannot select, no Kunminghu PMU). */
int hpm_perf_event_attr(const struct hpm_evsel *ev, const struct hpm_pmu *pmu,
                        struct hpm_perf_event *pe, char *err, size_t errlen);

/* Exclude flags (and config1 bit 0) that make riscv_pmu_sbi count exactly
 * `modes` (enum kmh_mode_bit) as Linux 6.3 and later map them. Returns false
 * when no combination does. */
bool hpm_perf_modes_to_attr(unsigned modes, struct hpm_perf_event *pe);

/* The same for the kernel pmu describes (pmu->kernel_version picks the
 * driver's mapping; NULL or version 0: the newest): 1 when the flags count
 * exactly `modes`, 2 when they count `modes` plus guest modes (VS, VU) that
 * driver cannot exclude (*counted: what they count), 0 when the host part
 * of `modes` cannot be selected. */
int hpm_perf_modes_to_attr_for(const struct hpm_pmu *pmu, unsigned modes, struct hpm_perf_event *pe,
                               unsigned *counted);

/* Which driver mapping hpm_perf_modes_to_attr_for uses for pmu, as words. */
const char *hpm_perf_filter_driver(const struct hpm_pmu *pmu);

/* Parse a -C list ("0-3,5") against the online CPUs (a list in the same
 * syntax; NULL: <sys>/devices/system/cpu/online, else sysconf). Sorted,
 * duplicates merged; *cpus is malloc'ed. 0 or -EINVAL with a message. */
int hpm_perf_parse_cpu_list(const char *list, const char *online, int **cpus, unsigned *nr,
                            char *err, size_t errlen);

/* perf's advice for a failed perf_event_open of ev (evsel__open_strerror),
 * as one line in buf; reads perf_event_paranoid and RLIMIT_NOFILE. */
const char *hpm_perf_open_strerror(int errnum, const struct hpm_evsel *ev,
                                   const struct hpm_target *t, char *buf, size_t len);

/* <proc>/sys/kernel/perf_event_paranoid (HPMSTAT_PROCFS, then /proc), or
 * INT_MIN when unreadable. */
int hpm_perf_paranoid(void);

#endif
