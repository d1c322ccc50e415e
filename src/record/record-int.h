/* record-int.h: the parts of hpmstat record's session (record.h), not
 * exported.
 *
 * Owns: the session's state (struct hpm_record: its events, ring buffers,
 * the processes' maps and the DSOs samples hit) and what its parts give
 * each other: record.c (the session: open, poll, write, the build ids),
 * record-maps.c (the maps and DSOs the records written tell of) and
 * record-synth.c (the records perf synthesizes for what existed before
 * the session: the kernel's map, each process's comm and maps).
 */
#ifndef HPM_RECORD_RECORD_INT_H
#define HPM_RECORD_RECORD_INT_H

#include <linux/perf_event.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/evlist.h"
#include "perfdata/writer.h"
#include "record/record.h"

struct rec_event {
	struct perf_event_attr attr;
	char *name;
	int *fds;      /* [nr_slots] */
	uint64_t *ids; /* [nr_slots] */
	bool leader;   /* leads its group (or is alone) */
	int leader_ix; /* index of its group's leader */
};

/* One ring buffer: the first fd of its CPU or thread, mapped. */
struct rec_buf {
	struct perf_event_mmap_page *meta;
	char *data;
	size_t size, map_len;
	int fd;
	bool hung; /* POLLHUP: its task is gone, nothing more comes */
};

/* A DSO some MMAP2 record named with the kernel's build id. */
struct rec_dso {
	char *filename;
	uint8_t id[PERF_FILE_BUILD_ID_MAX];
	unsigned size;
	bool hit;
	bool from_file; /* a synthesized map's: the id is read from the file */
};

struct rec_map {
	uint64_t start, end;
	unsigned dso;
};

/* The maps of one process (thread group), for finding the DSO a sample
 * hit. Chained by pid hash. */
struct rec_proc {
	pid_t pid;
	struct rec_map *maps;
	unsigned nr, cap;
	struct rec_proc *next;
};

#define PROC_HASH 256

struct hpm_record {
	struct hpm_evlist list;
	struct rec_event *ev;
	unsigned nr_ev;
	int *cpus;   /* per-CPU slots, or NULL */
	pid_t *tids; /* per-thread slots, or NULL */
	unsigned nr_slots;
	pid_t pid; /* -p (synthesis), -1 */
	bool system_wide;
	bool at_exec;         /* the events target the workload from its exec */
	bool no_buildid;      /* -B */
	unsigned synth_off;   /* HPM_RECORD_SYNTH_* left out */
	bool all_cgroups;     /* --all-cgroups */
	bool mmap_data;       /* data maps too (--call-graph dwarf) */
	struct rec_buf *bufs; /* [nr_slots] */
	struct pollfd *pfds;  /* [nr_slots + 1] */
	struct perf_writer *w;
	FILE *f;
	size_t id_hdr_size; /* the sample_id_all trailer of non-sample records */
	uint64_t sample_type;
	char *copy; /* a record that wraps around the end of a buffer */
	size_t copy_len;
	struct hpm_record_stats st;
	uint64_t first_time, last_time;
	bool kernel_hit;
	/* the PMU model whose table encoded the model events (the file's
	 * HPM_PMU), NULL when every event is the host's */
	const struct hpm_pmu_model *table;
	struct rec_dso *dsos;
	unsigned nr_dsos;
	struct rec_proc *procs[PROC_HASH];
	struct rec_proc *last_proc; /* the one the last sample hit */
	char note[256];
};

/* record-maps.c: the processes' maps and the DSOs samples hit. */
struct rec_proc *record_proc_get(struct hpm_record *r, pid_t pid, bool create);
void record_proc_add_map(struct rec_proc *p, uint64_t start, uint64_t len, unsigned dso);
unsigned record_dso_of_file(struct hpm_record *r, const char *filename);
void record_proc_free(struct rec_proc *p);
/* What the records written tell of the maps: a map (MMAP2), an exec
 * (COMM_EXEC: the maps start afresh), a child (FORK: the parent's maps),
 * a sample (its DSO is hit). */
void record_note_mmap2(struct hpm_record *r, const struct perf_event_header *h);
void record_note_exec(struct hpm_record *r, pid_t pid);
void record_note_fork(struct hpm_record *r, const struct perf_event_header *h);
void record_note_sample(struct hpm_record *r, const struct perf_event_header *h);

/* record-synth.c: the records of what existed before the session, written
 * as perf's synthesize does. 0 or a negative errno. */
int record_synthesize(struct hpm_record *r);

#endif
