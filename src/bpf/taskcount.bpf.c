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
	__type(key, unsigned long long); /* TC_KEY(tid, gen) */
	__type(value, struct tc_task);
} tasks SEC(".maps");

/* The current gen of each tid the kernel reused during the session (none:
 * 0). Sized as tasks by the loader; preallocated for the same reason. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, unsigned int);
	__type(value, unsigned int);
} gens SEC(".maps");

/* The entry (TC_KEY) of each task_struct address, so that the task's
 * freeing marks it TC_FREED. Sized as tasks. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, unsigned long long);
	__type(value, unsigned long long);
} bytask SEC(".maps");

/* A zeroed entry to insert from (the stack is too small for one). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, unsigned int);
	__type(value, struct tc_task);
} blank SEC(".maps");

/* gens stays empty until a tid is reused, which c->reused says: no
 * lookup of it at every switch until then. */
static unsigned int gen_of(struct tc_config *c, unsigned int tid)
{
	if (!c->reused)
		return 0;
	unsigned int *g = bpf_map_lookup_elem(&gens, &tid);
	return g ? *g : 0;
}

static int set_gen(struct tc_config *c, unsigned int tid, unsigned int gen)
{
	c->reused = 1;
	return (int)bpf_map_update_elem(&gens, &tid, &gen, BPF_ANY);
}

/* The incarnation of process tgid for a new thread of it: a new one when
 * the entry of its leader's tid is of a task that has gone (the pid was
 * reused for a new process; its leader's own entry then takes that gen
 * at its first switch). A process whose leader exited before its other
 * threads gets a second row: split, never summed with another process. */
static unsigned int process_gen(struct tc_config *c, unsigned int tgid)
{
	unsigned int g = gen_of(c, tgid);
	unsigned long long key = TC_KEY(tgid, g);
	struct tc_task *leader = bpf_map_lookup_elem(&tasks, &key);
	if (leader && leader->exited >= TC_EXITED) {
		g++;
		set_gen(c, tgid, g);
	}
	return g;
}

/* The entry of the current task, inserted if new; NULL when the map is
 * full (or on a failure the caller counts as missed). An entry of another
 * task_struct, or of one the kernel freed (its address may come back), is
 * of the tid's previous owner: the current task gets the next gen. */
static struct tc_task *current_task(struct tc_config *c, unsigned int tid, unsigned int tgid)
{
	unsigned int zero = 0, gen = gen_of(c, tid);
	unsigned long long key = TC_KEY(tid, gen), task = bpf_get_current_task();
	struct tc_task *t = bpf_map_lookup_elem(&tasks, &key);
	/* tid 0: the idle tasks, one per CPU, all one row */
	if (t && (tid == 0 || (t->exited != TC_FREED && t->task == task)))
		return t;
	if (t) {
		gen++;
		if (set_gen(c, tid, gen))
			return 0;
		key = TC_KEY(tid, gen);
	}
	struct tc_task *b = bpf_map_lookup_elem(&blank, &zero);
	if (!b)
		return 0;
	b->tgid = tgid;
	b->exited = TC_LIVE;
	b->tgid_gen = tid == tgid ? gen : process_gen(c, tgid);
	b->task = task;
	bpf_get_current_comm(b->comm, sizeof(b->comm));
	/* BPF_NOEXIST: another CPU cannot insert the same tid (a tid runs on
	 * one CPU at a time), but keep an entry already there */
	bpf_map_update_elem(&tasks, &key, b, BPF_NOEXIST);
	t = bpf_map_lookup_elem(&tasks, &key);
	if (t)
		bpf_map_update_elem(&bytask, &task, &key, BPF_ANY);
	return t;
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
		t = current_task(c, tid, tgid);
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
	unsigned int zero = 0;
	struct tc_config *c = bpf_map_lookup_elem(&config, &zero);
	if (!c)
		return 0;
	unsigned long long key = TC_KEY(tid, gen_of(c, tid));
	struct tc_task *t = bpf_map_lookup_elem(&tasks, &key);
	if (!t || t->exited == TC_FREED || t->task != bpf_get_current_task()) {
		struct tc_last *l = bpf_map_lookup_elem(&last, &zero);
		/* not charged yet (or its tid's previous owner's entry): make
		 * its entry now so the last switch finds it marked (before
		 * priming there is nothing to charge) */
		if (!l || !l->primed)
			return 0;
		/* map full: its switches count as missed */
		t = current_task(c, tid, (unsigned int)(pid_tgid >> 32));
		if (!t)
			return 0;
	}
	t->exited = TC_EXITING;
	return 0;
}

/* The kernel frees a task (after its last switch, an RCU grace period
 * after its tid was freed): its entry is of a task that will never run
 * again, which the loader may forget and a new owner of the tid (or of
 * the address) must not add to. */
SEC("raw_tp/sched_process_free")
int tc_free(struct bpf_raw_tracepoint_args *ctx)
{
	unsigned long long task = ctx->args[0];
	unsigned long long *key = bpf_map_lookup_elem(&bytask, &task);
	if (!key)
		return 0;
	struct tc_task *t = bpf_map_lookup_elem(&tasks, key);
	if (t && t->task == task)
		t->exited = TC_FREED;
	bpf_map_delete_elem(&bytask, &task);
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
