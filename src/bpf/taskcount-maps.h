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

/* exited: set by sched_process_exit, then by a switch out after it (the
 * task may switch more than once on its way out), then when the kernel
 * frees the task (sched_process_free, after its last switch). */
enum { TC_LIVE = 0, TC_EXITING = 1, TC_EXITED = 2, TC_FREED = 3 };

struct tc_val {
	unsigned long long value, enabled, running;
};

/* The task map's key: a tid and its incarnation during the session. The
 * kernel gives the tid of a task that has gone to a new one once its pids
 * wrap (pid_max is 32768 on a small machine: minutes of a busy build);
 * the new task then gets the next gen (the gens map holds the current one
 * of each tid reused), so it never adds to the row of the one before. */
#define TC_KEY(tid, gen) (((unsigned long long)(gen) << 32) | (unsigned long long)(tid))
#define TC_KEY_TID(key)  ((unsigned int)(key))
#define TC_KEY_GEN(key)  ((unsigned int)((key) >> 32))

/* The task map's value. tgid_gen: the incarnation of the process (its
 * leader tid's gen) the task belongs to, so that a process of a reused
 * pid never sums with the one before. task: the address of its
 * task_struct (never read), which tells the task that owns an entry from
 * another given its tid while the first is not freed yet. */
struct tc_task {
	unsigned int tgid;
	unsigned int exited;
	unsigned int tgid_gen;
	unsigned int pad;
	unsigned long long task;
	char comm[16];
	struct tc_val v[TC_MAX_EVENTS];
};

/* The per-CPU array's one value: the readings at the last switch. */
struct tc_last {
	unsigned long long primed;
	struct tc_val v[TC_MAX_EVENTS];
};

/* The config array's one value: what the loader opened, and whether the
 * program has seen a tid reused (set by it; gens is empty until then). */
struct tc_config {
	unsigned int nr_events, nr_cpus;
	unsigned int reused, pad;
};

/* The per-CPU statistics. */
struct tc_stats {
	unsigned long long switches, missed, read_errors, syncs;
	unsigned long long hotplug; /* CPU hotplug steps seen (cpuhp_enter) */
};

#endif
