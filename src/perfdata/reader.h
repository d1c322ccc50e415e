/* reader.h: reading perf.data (PERFILE2, file and pipe mode) for hpmstat
 * report --samples.
 *
 * Owns: opening and checking a perf.data (the header, the attrs with their
 * ids, the feature sections hpmstat uses: BUILD_ID, HOSTNAME, OSRELEASE,
 * VERSION, ARCH, NRCPUS, CPUID, CMDLINE, EVENT_DESC), and walking the data section
 * record by record: SAMPLE parsed by its event's sample_type (up to and
 * including CALLCHAIN, which is all a report needs), MMAP, MMAP2, COMM,
 * FORK, EXIT, LOST, LOST_SAMPLES, FINISHED_ROUND, HEADER_ATTR (pipe mode's events),
 * HEADER_FEATURE, the sample_id_all trailer of the others (their time), and
 * the records of perf stat record (STAT, STAT_ROUND, STAT_CONFIG,
 * EVENT_UPDATE) with its features (STAT, hpmstat's run file); and two of
 * perf's readings of what a file holds: an event's name from its attr
 * alone, a feature's CPU list (pd_attr_name, pd_cpu_list).
 * The layout facts are perf-file.h's.
 *
 * What it cannot use it skips by size and says so once, in the file's
 * notes (pd_file.note): features it does not read, record types newer than
 * Linux 6.1's perf. A file cut short is read as far as it is whole, with
 * pd_file.partial set and a note: the caller reports what was read and
 * says it is partial. Byte-swapped files (written on a machine of the
 * other byte order) are refused: hpmstat has no big-endian target.
 *
 * Never prints, never exits; every read is bounds-checked against the
 * buffer (the fuzz target feeds it anything).
 */
#ifndef HPM_PERFDATA_READER_H
#define HPM_PERFDATA_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/perf-file.h"
#include "util/hash.h"

struct pd_event {
	struct perf_event_attr attr; /* zero beyond the file's attr size */
	char *name;                  /* EVENT_DESC's name, or NULL */
	uint64_t *ids;
	unsigned nr_ids;
};

struct pd_build_id {
	int32_t pid;
	uint16_t misc; /* PERF_RECORD_MISC_KERNEL, _USER, ... */
	uint8_t id[PERF_FILE_BUILD_ID_MAX];
	uint8_t size;
	char *filename;
};

/* A sample, as far as a report reads it. Absent fields are 0. */
struct pd_sample {
	uint64_t ip, addr, id, stream_id, time, period;
	uint32_t pid, tid, cpu;
	/* PERF_SAMPLE_READ: nr values (1 without PERF_FORMAT_GROUP); values
	 * through pd_read_value. */
	uint64_t read_nr, time_enabled, time_running;
	const uint8_t *read_values;
	unsigned read_stride; /* bytes per value entry */
	/* PERF_SAMPLE_CALLCHAIN: nr entries, through pd_callchain_ip
	 * (PERF_CONTEXT_* markers included, as the kernel wrote them). */
	uint64_t callchain_nr;
	const uint8_t *callchain;
	/* PERF_SAMPLE_BRANCH_STACK: nr {from, to, flags}, through pd_branch */
	uint64_t branch_nr;
	const uint8_t *branches;
	/* PERF_SAMPLE_REGS_USER: the abi (0: none), the registers of
	 * regs_mask (the attr's sample_regs_user) through pd_sample_reg */
	uint64_t regs_abi, regs_mask;
	const uint8_t *regs;
	/* PERF_SAMPLE_STACK_USER: the bytes copied from the user stack
	 * pointer up (stack_size: the kernel's dyn_size) */
	const uint8_t *stack;
	uint64_t stack_size;
};

struct pd_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	uint64_t offset; /* in the file */
	int ev;          /* the event (index in pd_file.ev), -1 when unknown */
	bool has_time;
	bool unread;   /* pd_file.every's record of a type not known or not parsed */
	uint64_t time; /* the sample's, or the sample_id_all trailer's */
	union {
		struct pd_sample sample;
		struct { /* MMAP, MMAP2 */
			uint32_t pid, tid;
			uint64_t start, len, pgoff;
			const char *filename;
			const uint8_t *build_id; /* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID */
			uint8_t build_id_size;
			/* MMAP2 (0 for MMAP): the protection and flags, and the
			 * file's device and inode as the union holds them (with
			 * a build id, its bytes: perf reads them so) */
			uint32_t prot, flags, maj, min;
			uint64_t ino, ino_generation;
		} mmap;
		struct {
			uint32_t pid, tid;
			const char *comm;
			bool exec;
		} comm;
		struct { /* FORK, EXIT */
			uint32_t pid, ppid, tid, ptid;
		} task;
		struct { /* LOST (id and lost), LOST_SAMPLES (lost) */
			uint64_t id, lost;
		} lost;
		struct { /* STAT: an event's count on one CPU and thread (ev: the
			  * id's event) */
			uint64_t id, val, ena, run;
			uint32_t cpu, thread;
		} stat;
		struct { /* STAT_ROUND */
			uint64_t type, time;
		} stat_round;
		struct { /* STAT_CONFIG: the terms it has (perf's defaults else) */
			uint64_t aggr_mode, interval, scale;
		} stat_config;
		struct { /* EVENT_UPDATE of a UNIT, NAME (str) or SCALE */
			uint64_t type, id;
			const char *str;
			double scale;
		} update;
	} u;
};

#define PD_NOTE_MAX 32

struct pd_file {
	const uint8_t *buf;
	size_t len;
	bool mapped; /* buf is mmap'ed (else borrowed) */
	bool pipe;   /* pipe mode: the events come as HEADER_ATTR records */
	bool partial;
	uint64_t data_off, data_end; /* the data section as far as it is in the file */

	struct pd_event *ev;
	unsigned nr_ev;

	char *hostname, *osrelease, *version, *arch;
	char *cpuid; /* perf's cpuid string (arm64: MIDR_EL1 in hex) */
	/* CPUDESC: the model name; hpmstat record --backend emu's says what
	 * was emulated ("emulated Kunminghu (kunminghu-v2): profile ...") */
	char *cpudesc;
	char **cmdline;
	unsigned nr_cmdline;
	bool has_nrcpus;
	uint32_t nr_cpus_avail, nr_cpus_online;
	/* CPU_TOPOLOGY's core and socket id of each of nr_cpus_avail CPUs
	 * (two u32 a CPU, in buf), where perf reads them; else NULL */
	const uint8_t *cpu_ids;
	/* SAMPLE_TIME: the first and the last sample's time as perf record
	 * wrote them (both 0 when it did not walk the samples, as under -B),
	 * which perf report's --time percentages are shares of */
	bool has_sample_time;
	uint64_t first_sample_time, last_sample_time;
	struct pd_build_id *bid;
	unsigned nr_bid;
	/* perf stat record's file (the STAT feature), and hpmstat's run file
	 * in it (PERF_FEAT_HPM_RUN: hpm_run_len bytes in buf, else NULL) */
	bool has_stat;
	const uint8_t *hpm_run;
	uint64_t hpm_run_len;
	/* the PMU model hpmstat record encoded the raw events with
	 * (PERF_FEAT_HPM_PMU: "kunminghu-v3"), else NULL */
	char *hpm_pmu;

	/* What the reader skipped or stopped at, one line each (no newline). */
	char *note[PD_NOTE_MAX];
	unsigned nr_note;

	/* Set by the caller: pd_next returns every whole record, those of a
	 * type it does not know and those it cannot parse too (type, misc,
	 * size and offset alone, ev -1), for a count of the records as perf
	 * report --stats counts them. */
	bool every;

	/* iteration and id lookup (the reader's) */
	uint64_t pos;
	uint8_t warned_type[256 / 8];
	/* sample id -> event index, keyed so that no file can choose ids
	 * that collide */
	struct hpm_u64map id_ev;
};

/* Open path (mmap'ed). On failure -1 with one line in err (missing file,
 * not a perf.data, byte-swapped, header or attrs cut short). */
int pd_open(struct pd_file *f, const char *path, char *err, size_t errlen);
/* The same over fd, a regular file the caller keeps open (mapped whole,
 * from its start), named name in errors and notes. */
int pd_open_fd(struct pd_file *f, int fd, const char *name, char *err, size_t errlen);
/* The same over a buffer the caller keeps alive (the fuzz target). */
int pd_open_buffer(struct pd_file *f, const void *buf, size_t len, char *err, size_t errlen);
void pd_close(struct pd_file *f);

/* True when buf begins with perf.data's magic (either byte order). */
bool pd_is_perf_data(const void *buf, size_t len);

/* The next record of the data section: 1 and *r, or 0 at the end (or where
 * the section stops being readable: then f->partial and a note say so).
 * Records the reader does not know are returned too (type only). */
int pd_next(struct pd_file *f, struct pd_record *r);
/* The record at offset (one pd_next returned before): 1, or 0 when it is
 * not readable. Pipe mode's HEADER_ATTR records are applied by pd_next
 * only. */
int pd_read_at(struct pd_file *f, uint64_t offset, struct pd_record *r);

/* Entry i of a sample's callchain. */
uint64_t pd_callchain_ip(const struct pd_sample *s, uint64_t i);
/* User register reg (the kernel's PERF_REG_* number) of a REGS_USER
 * sample; *ok false when the sample has none or not that one. */
uint64_t pd_sample_reg(const struct pd_sample *s, unsigned reg, bool *ok);
/* Branch i (< branch_nr) of a BRANCH_STACK sample. */
void pd_branch(const struct pd_sample *s, uint64_t i, uint64_t *from, uint64_t *to);
/* Value i of a sample's read (its id: 0 without PERF_FORMAT_ID). */
void pd_read_value(const struct pd_file *f, const struct pd_record *r, uint64_t i, uint64_t *value,
                   uint64_t *id);
/* The event of a sample id, -1 when no attr carries it. */
int pd_event_of_id(const struct pd_file *f, uint64_t id);
/* An event's name: EVENT_DESC's, else perf's from its attr
 * ("cpu-clock:u", "raw 0x...", with perf's modifiers; buf holds at least
 * 48 bytes). */
const char *pd_event_name(const struct pd_file *f, unsigned i, char *buf, size_t len);
/* The same without perf's modifiers ("cpu-clock"): the event, not its
 * levels. */
const char *pd_event_base_name(const struct pd_file *f, unsigned i, char *buf, size_t len);
/* The name pd_event_name makes for an event the file names none for,
 * from its attr alone (buf: at least 48 bytes): perf's evsel__name for
 * the software, hardware and raw events, "type T config 0x..." else. */
const char *pd_attr_name(const struct perf_event_attr *a, char *buf, size_t len);
/* A CPU list of a feature section ("0-3,5": NUMA_TOPOLOGY's), read as
 * perf's perf_cpu_map__new reads it and written into buf as
 * cpu_map__snprint writes the map back (sorted, in ranges, "-1" for an
 * empty list; cut at len - 1). 0, or -1 where perf's parse fails (a bad
 * number, a CPU twice; more than 2^20 CPUs, which perf takes hours over). */
int pd_cpu_list(const char *s, char *buf, size_t len);

#endif
