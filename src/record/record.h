/* record.h: a sampling session of hpmstat record on the perf back end.
 *
 * Owns: the events of a recording (perf's -e grammar, read by core's
 * evlist parser, host events resolved by the perf back end's
 * hpm_perf_event_attr, as hpmstat stat does), their sampling attrs as perf
 * record 6.1 sets them, one ring buffer per CPU (a workload, -a, -C) or per
 * thread (-p, -t) with every event of that CPU or thread writing into it
 * (PERF_EVENT_IOC_SET_OUTPUT), the draining of those buffers into a
 * perf.data file (perfdata/writer.h) with FINISHED_ROUND after each pass,
 * the records perf synthesizes for what existed before the recording (the
 * kernel map, COMM and MMAP2 of existing processes and threads), the
 * counting of samples and lost records, the build ids of the DSOs that had
 * samples (from the kernel's MMAP2 build ids, and the running kernel's from
 * <sys>/kernel/notes) and the feature sections that describe the machine.
 *
 * What perf record does and this does the same:
 * - sample_type IP|TID|TIME|CPU|PERIOD, + CALLCHAIN with -g, + ID when
 *   there are several events (perf uses ID while every event has the same
 *   sample_type), + READ for a {...}:S group, whose members do not sample
 *   and whose leader reads them all (read_format GROUP|ID, inherit off);
 * - the first event tracks mmap, mmap2 (with the kernel's build ids where
 *   it has them: attr.build_id, dropped when the kernel refuses it), comm
 *   (comm_exec) and task (FORK/EXIT); sample_id_all on every event;
 * - a workload is recorded per CPU with inherit and enable_on_exec (with
 *   --per-thread in its own thread, without inherit); -a and -C record
 *   every task on those CPUs; -p and -t the threads given (a command run
 *   with them only says how long);
 * - the default event is cycles, and cpu-clock where the kernel has no
 *   hardware cycles (perf's evsel__fallback; note() says so for -v).
 *
 * Never prints, never exits: errors are negative errno values with a
 * one-line message.
 */
#ifndef HPM_RECORD_RECORD_H
#define HPM_RECORD_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define HPM_RECORD_DEFAULT_FREQ 4000 /* perf record's -F default (Hz) */

struct hpm_record;

struct hpm_record_opts {
	const char *events; /* -e text (perf's grammar), NULL: cycles or cpu-clock */
	uint64_t period;    /* -c: sample every PERIOD events; 0: by frequency */
	uint64_t freq;      /* -F (Hz) when period is 0 */
	bool callchain;     /* -g, --call-graph: PERF_SAMPLE_CALLCHAIN */
	/* --call-graph dwarf[,SIZE]: the user registers and SIZE bytes of the
	 * user stack in each sample (unwound by report), the kernel's chain
	 * without its user part (exclude_callchain_user); 0: not dwarf */
	unsigned stack_dump;
	unsigned max_stack;   /* --call-graph fp,N: sample_max_stack; 0: the kernel's */
	bool lbr;             /* --call-graph lbr: the hardware's call stack */
	bool branch_any;      /* -b: every taken branch (PERF_SAMPLE_BRANCH_ANY) */
	bool system_wide;     /* -a */
	const char *cpu_list; /* -C */
	pid_t pid;            /* -p, -1 none */
	const char *tid_list; /* -t, NULL none */
	pid_t workload;       /* the forked command, held before exec; -1 none */
	unsigned mmap_pages;  /* data pages per buffer (a power of 2); 0: perf's 512 KiB */
	/* --per-thread: perf's per-thread mmaps, one buffer per thread and
	 * inherit off (a workload is recorded in its own thread only) */
	bool per_thread;
	bool no_buildid;    /* -B: no build-id section */
	unsigned synth_off; /* HPM_RECORD_SYNTH_* that --synth leaves out */
	/* --all-cgroups: each sample's cgroup id (PERF_SAMPLE_CGROUP), and a
	 * CGROUP record naming each cgroup (existing ones synthesized) */
	bool all_cgroups;
	/* -d: each sample's data address and its source (PERF_SAMPLE_ADDR
	 * and DATA_SRC, as perf's --data), and the data maps (mmap_data) */
	bool sample_addr;
	/* -s: per-thread counts: each inherited counter's count as its
	 * thread exits (inherit_stat: PERF_RECORD_READ, with the times
	 * enabled and running, as perf's --stat) */
	bool inherit_stat;
};

/* What perf's --synth synthesizes for what existed before the recording
 * (the kernel's map is always written): the tasks' COMM records, their
 * maps (MMAP2), the cgroups (CGROUP) */
#define HPM_RECORD_SYNTH_TASK   1u
#define HPM_RECORD_SYNTH_MMAP   2u
#define HPM_RECORD_SYNTH_CGROUP 4u /* the cgroups' names, with all_cgroups */

struct hpm_record_stats {
	uint64_t samples;     /* PERF_RECORD_SAMPLE records written */
	uint64_t lost;        /* samples the kernel dropped (PERF_RECORD_LOST) */
	uint64_t lost_chunks; /* PERF_RECORD_LOST records */
	uint64_t wakeups;     /* polls that returned with data ("Woken up N times") */
	uint64_t file_size;   /* bytes of the finished file (or of the stream) */
};

/* The maximum -F of this kernel (<proc>/sys/kernel/perf_event_max_sample_rate;
 * HPMSTAT_PROCFS replaces /proc), 0 when unreadable. */
unsigned hpm_record_max_sample_rate(void);

/* Parses the events and opens them (disabled) on the target. 0 and *out;
 * HPM_EVLIST_EBADEVENT for an event that does not parse, -EOPNOTSUPP for one
 * the kernel cannot sample ("'E': <not supported>: why"), other -errno
 * with perf's advice. */
int hpm_record_open(const struct hpm_record_opts *o, struct hpm_record **out, char *err,
                    size_t errlen);
/* A note to show with -v (the default event's fallback), or NULL. */
const char *hpm_record_note(const struct hpm_record *r);
/* Starts the file on f (seekable: -ESPIPE otherwise), or with pipe
 * perf's pipe format on any stream, with the events' attrs and the
 * features describing the machine and the command line (CMDLINE: exe,
 * then argv, as perf's), then the synthesized records (kernel map; the
 * processes and threads of -p, -t, -a). */
int hpm_record_start(struct hpm_record *r, FILE *f, bool pipe, const char *exe, int argc,
                     char *const *argv, char *err, size_t errlen);
/* Enables the events (a workload's start at exec enables them itself). */
int hpm_record_enable(struct hpm_record *r, char *err, size_t errlen);
/* Whether the recording starts at the workload's exec (its events
 * enable_on_exec): the workload need not be waited for until then. */
bool hpm_record_starts_at_exec(const struct hpm_record *r);
/* Waits up to timeout_ms (-1: until something happens) for data, the
 * end of every traced task, or extra_fd (-1: none) to become readable,
 * and writes what the buffers hold. A signal ends the wait early.
 * Returns 1 when extra_fd is readable or every buffer hung up (the traced
 * tasks are gone), 0 otherwise, or -errno (a failed write). */
int hpm_record_poll(struct hpm_record *r, int extra_fd, int timeout_ms, char *err, size_t errlen);
/* Disables the events, writes what is left in the buffers, then the
 * last feature sections (sample times, build ids) and, for a file, the
 * final header. 0 or -errno. */
int hpm_record_finish(struct hpm_record *r, char *err, size_t errlen);
void hpm_record_stats(const struct hpm_record *r, struct hpm_record_stats *s);
/* Closes the events and frees r (an unfinished file is left as it is). */
void hpm_record_free(struct hpm_record *r);

#endif
