/* taskcount.h: per-task counts from per-CPU counters (libbpf).
 *
 * Owns: the sched_switch BPF program (taskcount.bpf.c, compiled at build
 * time with clang -target bpf, loaded through its bpftool skeleton), its
 * maps, and the per-task table built from them. The caller opens the
 * per-CPU counters (perf_event_open, one per event per CPU, any back end
 * that has fds) and hands the fds in; on every context switch the program
 * reads each counter of the CPU with bpf_perf_event_read_value and charges
 * the delta (value, enabled, running) since the last switch on that CPU to
 * the task switched out. So counters opened = events x CPUs, whatever the
 * number of tasks.
 *
 * Portability: the program uses no kernel type (the task switched out is
 * still `current` when the raw tracepoint sched_switch fires, so
 * bpf_get_current_pid_tgid and bpf_get_current_comm name it): no
 * vmlinux.h, no BTF needed on the target, no fentry (riscv64 6.1 has no
 * BPF trampoline).
 *
 * The library never prints or exits: functions return 0 or a negative
 * HPM_TC_E* / -errno code, with hpm_taskcount_strerror() for the
 * one-line reason a caller shows when it falls back to per-task groups.
 * Built only with libbpf (HAVE_LIBBPF); without it hpm_taskcount_open
 * returns -HPM_TC_ENOTBUILT.
 */
#ifndef HPM_BPF_TASKCOUNT_H
#define HPM_BPF_TASKCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HPM_TC_MAX_EVENTS 32    /* counters per CPU the program reads */
#define HPM_TC_MAX_CPUS   256   /* CPUs of the PERF_EVENT_ARRAY */
#define HPM_TC_DEF_TASKS  16384 /* tasks the hash map holds by default */

/* Error codes beyond errno (returned negated). */
enum {
	HPM_TC_EBASE = 4096,
	HPM_TC_ENOTBUILT = HPM_TC_EBASE, /* hpmstat built --without-libbpf */
	HPM_TC_ENOPERM,                  /* not root, no CAP_BPF+CAP_PERFMON */
	HPM_TC_ENOBPF,                   /* kernel without BPF (bpf() ENOSYS) */
	HPM_TC_ENOTP,                    /* no raw tracepoint sched_switch */
	HPM_TC_ELOAD,                    /* the verifier refused the program */
	HPM_TC_ETOOMANY,                 /* events or CPUs past the limits above */
	HPM_TC_EHOTPLUG,                 /* the CPUs online changed since start */
	HPM_TC_ENOSYNC,                  /* no BPF_PROG_TEST_RUN of the program */
	HPM_TC_ENOLIB,                   /* libbpf is not installed (util/dlib.h) */
	HPM_TC_EMAX,
};
const char *hpm_taskcount_strerror(int err);

/* The task map's size from HPMSTAT_BPF_MAX_TASKS (stat and top; the tests
 * fill a small map): *out 0 (the default) when it is unset or empty, else
 * a whole number from 1 to HPM_TC_MAX_TASKS. -1 with one sentence in err
 * naming the variable for anything else, which would otherwise load a map
 * of some other size. */
#define HPM_TC_MAX_TASKS 4194304 /* the kernel's PID_MAX_LIMIT: tasks at once */
int hpm_taskcount_max_tasks_env(unsigned *out, char *err, size_t errlen);

struct hpm_taskcount;

struct hpm_tc_value {
	uint64_t value, enabled, running;
};

/* One task's counts since open (cumulative), or a whole process's. A
 * pid the kernel reused during the session (its pids wrapped) is a row
 * per owner: (pid, gen) names a task, (tgid, tgid_gen) its process. */
struct hpm_tc_task {
	int pid;           /* thread id (tid); for a process row the tgid */
	unsigned gen;      /* which owner of that pid: 0, then 1, ... */
	int tgid;          /* process id */
	unsigned tgid_gen; /* which process of that tgid (its leader's gen) */
	char comm[16];     /* as the kernel names it at its last switch */
	bool exited;       /* it exited (sched_process_exit): counted until its last switch out */
	struct hpm_tc_value v[HPM_TC_MAX_EVENTS]; /* [nr_events] */
};

struct hpm_tc_stats {
	uint64_t switches; /* context switches the program saw */
	uint64_t missed;   /* switches whose task found the map full: not charged */
	/* (the CPU's delta still moves on: it is lost, never charged to another) */
	/* bpf_perf_event_read_value failures other than an empty slot (an
	 * event without fd on that CPU): that delta goes to the next task */
	uint64_t read_errors;
	unsigned tasks;     /* entries in the map now */
	unsigned max_tasks; /* its capacity */
};

/* Loads the program and its maps for nr_events counters per CPU on
 * nr_cpus CPUs (ids 0..nr_cpus-1) and a map of max_tasks (0: default).
 * Nothing is attached until hpm_taskcount_start. The counters must not
 * inherit (attr.inherit = 0: the kernel reads no inherited counter from
 * BPF) and are best opened disabled and enabled after start. */
int hpm_taskcount_open(struct hpm_taskcount **out, unsigned nr_events, unsigned nr_cpus,
                       unsigned max_tasks);
/* The counter of `event` on `cpu`: a perf fd opened with pid -1 on that
 * CPU. A CPU without fds (offline) is skipped by the program. */
int hpm_taskcount_set_fd(struct hpm_taskcount *tc, unsigned event, unsigned cpu, int fd);
/* Attaches to sched_switch: counting per task starts. */
int hpm_taskcount_start(struct hpm_taskcount *tc);
/* The per-thread table (cumulative since start, exited threads included
 * until hpm_taskcount_forget_exited): *rows malloc'ed, *nrows entries.
 * First it runs the program on every CPU (BPF_PROG_TEST_RUN on that CPU),
 * charging each running task what it counted since its CPU's last switch,
 * so a task that never switches (a pinned busy loop) is counted up to the
 * read. The idle tasks are one row, pid 0 ("swapper/N" of the last CPU
 * seen), so the rows add up to the per-CPU counts. st may be NULL.
 * -HPM_TC_EHOTPLUG, and no rows, once the CPUs online are not those of
 * start: a CPU taken offline turns its counters off, and the kernel does
 * not turn them on again when it comes back, so the tasks that ran there
 * from then on would be charged nothing: a wrong figure that looks right. */
int hpm_taskcount_read(struct hpm_taskcount *tc, struct hpm_tc_task **rows, unsigned *nrows,
                       struct hpm_tc_stats *st);
/* The order of processes (tgid, then tgid_gen) of two rows: 0 when they
 * are of the same process. Needs no libbpf. */
int hpm_taskcount_cmp_process(const struct hpm_tc_task *x, const struct hpm_tc_task *y);
/* Sums a thread table into processes (by tgid and tgid_gen): *procs
 * malloc'ed, pid = tgid, gen = tgid_gen, the main thread's comm (else the
 * first thread's), exited when all its threads have. Needs no libbpf. */
int hpm_taskcount_by_process(const struct hpm_tc_task *rows, unsigned nrows, unsigned nr_events,
                             struct hpm_tc_task **procs, unsigned *nprocs);
/* Removes from the map the exited threads whose last switch has come
 * (call it after their rows were reported once), so a long session does
 * not fill it with the dead. Returns how many, or a negative code. A tid
 * reused after that starts again at the gen it was removed at. */
int hpm_taskcount_forget_exited(struct hpm_taskcount *tc);
void hpm_taskcount_close(struct hpm_taskcount *tc);
/* The kernel's run time and run count of the sched_switch program (filled
 * only while sysctl kernel.bpf_stats_enabled is 1): its cost per switch. */
int hpm_taskcount_prog_stats(struct hpm_taskcount *tc, uint64_t *run_ns, uint64_t *run_cnt);

/* Whether this process may load BPF at all (root, or CAP_BPF and
 * CAP_PERFMON), without loading anything: 0 or a negative code. */
int hpm_taskcount_probe(void);

#endif
