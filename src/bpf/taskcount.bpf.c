/* taskcount.bpf.c: charges the per-CPU counters' deltas to the task
 * switched out (see taskcount.h).
 *
 * Built with clang -target bpf against the kernel's UAPI headers and
 * libbpf's bpf_helpers.h only: no vmlinux.h and no kernel type, so the
 * object is the same on every architecture and needs no BTF on the target.
 * It attaches to raw tracepoints only (no fentry: riscv64 6.1 has no BPF
 * trampoline). At sched_switch the task switched out is still `current`,
 * which is all the program needs to know about it.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "bpf/taskcount-maps.h"

char LICENSE[] SEC("license") = "GPL";

/* The events and CPUs, written by the loader before it attaches. A map,
 * not a const global: libbpf makes .rodata only where its probe of global
 * data loads, a socket-filter program, and a kernel without CONFIG_NET has
 * none (riscv64 test kernels, small boards). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, unsigned int);
	__type(value, struct tc_config);
} config SEC(".maps");

/* The counters: index event * nr_cpus + cpu (max_entries set by the loader). */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(unsigned int));
	__uint(value_size, sizeof(unsigned int));
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, unsigned int);
	__type(value, struct tc_last);
} last SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, unsigned int);
	__type(value, struct tc_stats);
} stats SEC(".maps");

/* The tasks (max_entries set by the loader). Preallocated (about 13 MB
 * for the default 16384 tasks): an entry made at a context switch, with
 * the run queue locked, must not depend on an allocation there. Without
 * preallocation the kernel's per-CPU element caches run dry when many
 * tasks start at once, and the switch went uncharged though the map had
 * room (seen: 1 of 4 switches missed on a near-empty map). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, unsigned int);
	__type(value, struct tc_task);
} tasks SEC(".maps");

/* A zeroed entry to insert from (the stack is too small for one). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, unsigned int);
	__type(value, struct tc_task);
} blank SEC(".maps");

/* The entry of the current task, inserted if new; NULL when the map is
 * full (or on a failure the caller counts as missed). */
static struct tc_task *current_task(unsigned int tid, unsigned int tgid)
{
	unsigned int zero = 0;
	struct tc_task *t = bpf_map_lookup_elem(&tasks, &tid);
	if (t)
		return t;
	struct tc_task *b = bpf_map_lookup_elem(&blank, &zero);
	if (!b)
		return 0;
	b->tgid = tgid;
	b->exited = TC_LIVE;
	bpf_get_current_comm(b->comm, sizeof(b->comm));
	/* BPF_NOEXIST: another CPU cannot insert the same tid (a tid runs on
	 * one CPU at a time), but keep an entry already there */
	bpf_map_update_elem(&tasks, &tid, b, BPF_NOEXIST);
	return bpf_map_lookup_elem(&tasks, &tid);
}

SEC("raw_tp/sched_switch")
int tc_switch(struct bpf_raw_tracepoint_args *ctx)
{
	unsigned int zero = 0;
	unsigned int cpu = bpf_get_smp_processor_id();
	struct tc_last *l = bpf_map_lookup_elem(&last, &zero);
	struct tc_stats *s = bpf_map_lookup_elem(&stats, &zero);
	struct tc_config *c = bpf_map_lookup_elem(&config, &zero);
	if (!l || !s || !c)
		return 0;
	unsigned int nr_events = c->nr_events, nr_cpus = c->nr_cpus;
	int sync = ctx->args[0] == TC_SYNC_MAGIC;
	if (sync)
		s->syncs++;
	else
		s->switches++;
	if (cpu >= nr_cpus)
		return 0;

	unsigned long long pid_tgid = bpf_get_current_pid_tgid();
	unsigned int tid = (unsigned int)pid_tgid, tgid = (unsigned int)(pid_tgid >> 32);
	struct tc_task *t = 0;
	if (l->primed) {
		t = current_task(tid, tgid);
		if (!t)
			s->missed++;
	}
	for (unsigned int i = 0; i < TC_MAX_EVENTS; i++) {
		if (i >= nr_events)
			break;
		struct bpf_perf_event_value v;
		long err = bpf_perf_event_read_value(
		    &counters, (unsigned long long)(i * nr_cpus + cpu), &v, sizeof(v));
		if (err) {
			/* -ENOENT: no counter in that slot (an event the kernel
			 * does not support, an offline CPU); anything else is a
			 * counter that could not be read */
			if (err != -2)
				s->read_errors++;
			continue;
		}
		if (t) {
			t->v[i].value += v.counter - l->v[i].value;
			t->v[i].enabled += v.enabled - l->v[i].enabled;
			t->v[i].running += v.running - l->v[i].running;
		}
		l->v[i].value = v.counter;
		l->v[i].enabled = v.enabled;
		l->v[i].running = v.running;
	}
	l->primed = 1;
	if (t) {
		/* the comm it had last (exec renames) */
		bpf_get_current_comm(t->comm, sizeof(t->comm));
		/* an exiting task's last switch: nothing more to charge it */
		if (!sync && t->exited == TC_EXITING)
			t->exited = TC_EXITED;
	}
	return 0;
}

/* A task exits: mark its entry so its row says so; it is charged until its
 * last switch out, which follows. */
SEC("raw_tp/sched_process_exit")
int tc_exit(struct bpf_raw_tracepoint_args *ctx)
{
	(void)ctx;
	unsigned long long pid_tgid = bpf_get_current_pid_tgid();
	unsigned int tid = (unsigned int)pid_tgid;
	struct tc_task *t = bpf_map_lookup_elem(&tasks, &tid);
	if (!t) {
		unsigned int zero = 0;
		struct tc_last *l = bpf_map_lookup_elem(&last, &zero);
		/* not charged yet: make its entry now so the last switch finds
		 * it marked (before priming there is nothing to charge) */
		if (!l || !l->primed)
			return 0;
		/* map full: its switches count as missed */
		t = current_task(tid, (unsigned int)(pid_tgid >> 32));
		if (!t)
			return 0;
	}
	t->exited = TC_EXITING;
	return 0;
}

/* A CPU going offline turns its counters off, and they stay off when it
 * comes back: from then on its tasks would be charged nothing. Every
 * hotplug step is counted, so the loader can refuse the counts even when
 * the CPU is back online by the time it reads. Attached when the kernel
 * has the tracepoint (the loader does not need it to start). */
SEC("raw_tp/cpuhp_enter")
int tc_cpuhp(struct bpf_raw_tracepoint_args *ctx)
{
	(void)ctx;
	unsigned int zero = 0;
	struct tc_stats *s = bpf_map_lookup_elem(&stats, &zero);
	if (s)
		s->hotplug++;
	return 0;
}
