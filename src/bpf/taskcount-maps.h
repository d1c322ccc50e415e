/* taskcount-maps.h: the layout of taskcount.bpf.c's maps, shared by the
 * program and its loader (taskcount.c).
 *
 * Owns: the map value and key types and the constants both sides must
 * agree on. Plain C types only (unsigned long long, not __u64 or
 * uint64_t): the header is compiled by clang -target bpf with the kernel's
 * UAPI headers and by the host compiler with <stdint.h>.
 */
#ifndef HPM_BPF_TASKCOUNT_MAPS_H
#define HPM_BPF_TASKCOUNT_MAPS_H

#define TC_MAX_EVENTS 32 /* = HPM_TC_MAX_EVENTS */

/* ctx->args[0] of a run through BPF_PROG_TEST_RUN: the loader asks the
 * program to charge what the task running on a CPU counted so far (a
 * real sched_switch has a bool `preempt` there, 0 or 1). */
#define TC_SYNC_MAGIC 0x7463737963ULL

/* exited: set by sched_process_exit, then by the task's last switch. */
enum { TC_LIVE = 0, TC_EXITING = 1, TC_EXITED = 2 };

struct tc_val {
	unsigned long long value, enabled, running;
};

/* The hash map's value, keyed by tid (unsigned int). */
struct tc_task {
	unsigned int tgid;
	unsigned int exited;
	char comm[16];
	struct tc_val v[TC_MAX_EVENTS];
};

/* The per-CPU array's one value: the readings at the last switch. */
struct tc_last {
	unsigned long long primed;
	struct tc_val v[TC_MAX_EVENTS];
};

/* The config array's one value: what the loader opened. */
struct tc_config {
	unsigned int nr_events, nr_cpus;
};

/* The per-CPU statistics. */
struct tc_stats {
	unsigned long long switches, missed, read_errors, syncs;
	unsigned long long hotplug; /* CPU hotplug steps seen (cpuhp_enter) */
};

#endif
