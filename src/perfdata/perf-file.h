/* perf-file.h: the on-disk layout of perf.data (the PERFILE2 format of
 * Linux's tools/perf/Documentation/perf.data-file-format.txt), shared by
 * the writer (hpmstat record) and the reader (hpmstat report --samples).
 *
 * Owns: the file header, the sections, the attr entries, the feature bit
 * numbers, the user record types perf adds to the kernel's, and the
 * string forms of the feature sections, and the reading of its unaligned
 * integers. The records the kernel produces
 * (PERF_RECORD_SAMPLE, MMAP2, COMM, ...) are <linux/perf_event.h>'s.
 * Every field is in the writer's native byte order; a reader recognises a
 * file of the other order by the byte-swapped magic.
 */
#ifndef HPM_PERFDATA_PERF_FILE_H
#define HPM_PERFDATA_PERF_FILE_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>

/* A u32 and a u64 of the file at p, which need not be aligned (records
 * are 8-byte aligned, their fields and feature sections not always). */
static inline uint32_t pf_get32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t pf_get64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* "PERFILE2" read as a little-endian u64; a file of the other byte order
 * shows it byte-swapped. */
#define PERF_FILE_MAGIC2         0x32454c4946524550ULL
#define PERF_FILE_MAGIC2_SWAPPED 0x5045524649c45232ULL

struct perf_file_section {
	uint64_t offset; /* from the start of the file */
	uint64_t size;
};

#define PERF_FILE_FEAT_BITS 256

struct perf_file_header {
	uint64_t magic;     /* PERF_FILE_MAGIC2 */
	uint64_t size;      /* sizeof(struct perf_file_header) */
	uint64_t attr_size; /* size of one struct perf_file_attr in attrs */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types; /* unused: zero */
	uint64_t adds_features[PERF_FILE_FEAT_BITS / 64];
};

/* One entry of the attrs section: the event's attr as given to the
 * kernel, then where its sample ids (u64 each) are in the file. */
struct perf_file_attr {
	struct perf_event_attr attr;
	struct perf_file_section ids;
};

/* Feature bits of adds_features: a set bit N means a perf_file_section
 * for it follows the data section, in increasing N. */
enum perf_file_feature {
	PERF_FEAT_RESERVED = 0,
	PERF_FEAT_TRACING_DATA = 1,
	PERF_FEAT_BUILD_ID = 2,
	PERF_FEAT_HOSTNAME = 3,
	PERF_FEAT_OSRELEASE = 4,
	PERF_FEAT_VERSION = 5,
	PERF_FEAT_ARCH = 6,
	PERF_FEAT_NRCPUS = 7,
	PERF_FEAT_CPUDESC = 8,
	PERF_FEAT_CPUID = 9,
	PERF_FEAT_TOTAL_MEM = 10,
	PERF_FEAT_CMDLINE = 11,
	PERF_FEAT_EVENT_DESC = 12,
	PERF_FEAT_CPU_TOPOLOGY = 13,
	PERF_FEAT_NUMA_TOPOLOGY = 14,
	PERF_FEAT_BRANCH_STACK = 15,
	PERF_FEAT_PMU_MAPPINGS = 16,
	PERF_FEAT_GROUP_DESC = 17,
	PERF_FEAT_AUXTRACE = 18,
	PERF_FEAT_STAT = 19,
	PERF_FEAT_CACHE = 20,
	PERF_FEAT_SAMPLE_TIME = 21,
	PERF_FEAT_MEM_TOPOLOGY = 22,
	PERF_FEAT_CLOCKID = 23,
	PERF_FEAT_DIR_FORMAT = 24,
	PERF_FEAT_BPF_PROG_INFO = 25,
	PERF_FEAT_BPF_BTF = 26,
	PERF_FEAT_COMPRESSED = 27,
	PERF_FEAT_CPU_PMU_CAPS = 28,
	PERF_FEAT_CLOCK_DATA = 29,
	PERF_FEAT_HYBRID_TOPOLOGY = 30,
	PERF_FEAT_PMU_CAPS = 31,
	/* Linux 6.1's perf knows no feature from here on: a reader skips it
	 * by its section's size. */
	PERF_FEAT_LAST_KNOWN_6_1 = 31,
	/* hpmstat's own: the run file (hpmstat-run(5), JSON) of the `stat
	 * record` that wrote the file, so that `hpmstat stat report` prints
	 * the run as stat printed it. perf reads the sections of the bits
	 * it knows and passes over the rest; the last bit stays clear of
	 * the ones perf adds. */
	PERF_FEAT_HPM_RUN = 255,
	/* hpmstat's own: the name of the PMU model (event table) a record
	 * encoded its raw events with ("kunminghu-v3"), a perf string: detection
	 * cannot tell Kunminghu's two tables apart, so report needs the file
	 * to say which one gave the raw events their meaning. Not in a pipe:
	 * perf warns of a feature record it does not know. */
	PERF_FEAT_HPM_PMU = 254,
};

/* Record types perf itself writes into the data section, after the
 * kernel's (PERF_RECORD_MAX and below). */
enum perf_user_record_type {
	PERF_RECORD_HEADER_ATTR = 64,
	PERF_RECORD_HEADER_EVENT_TYPE = 65, /* deprecated */
	PERF_RECORD_HEADER_TRACING_DATA = 66,
	PERF_RECORD_HEADER_BUILD_ID = 67,
	PERF_RECORD_FINISHED_ROUND = 68,
	PERF_RECORD_ID_INDEX = 69,
	PERF_RECORD_AUXTRACE_INFO = 70,
	PERF_RECORD_AUXTRACE = 71,
	PERF_RECORD_AUXTRACE_ERROR = 72,
	PERF_RECORD_THREAD_MAP = 73,
	PERF_RECORD_CPU_MAP = 74,
	PERF_RECORD_STAT_CONFIG = 75,
	PERF_RECORD_STAT = 76,
	PERF_RECORD_STAT_ROUND = 77,
	PERF_RECORD_EVENT_UPDATE = 78,
	PERF_RECORD_TIME_CONV = 79,
	PERF_RECORD_HEADER_FEATURE = 80,
	PERF_RECORD_COMPRESSED = 81,
	PERF_RECORD_FINISHED_INIT = 82, /* the synthesized records end here */
	PERF_RECORD_USER_MAX_6_1 = 83,
};

/* The records of `perf stat record` (perf's tools/lib/perf event.h): the
 * counts of an event on one CPU and thread, their rounds, the
 * configuration of the count and the event's unit, scale and name. */
struct perf_file_stat {
	struct perf_event_header header;
	uint64_t id;     /* one of the event's ids (its attr's ids) */
	uint32_t cpu;    /* the CPU number, (uint32_t)-1 for any */
	uint32_t thread; /* the index in the thread map */
	uint64_t val, ena, run;
};

enum perf_file_stat_round_type {
	PERF_STAT_ROUND_INTERVAL = 0, /* time: since counting started (ns) */
	PERF_STAT_ROUND_FINAL = 1,    /* time: the run's wall time (ns) */
};

struct perf_file_stat_round {
	struct perf_event_header header;
	uint64_t type; /* enum perf_file_stat_round_type */
	uint64_t time;
};

/* STAT_CONFIG: u64 nr, then nr (tag, value) pairs. */
enum perf_file_stat_config_term {
	PERF_STAT_CONFIG_AGGR_MODE = 0, /* perf's enum aggr_mode: 1 global */
	PERF_STAT_CONFIG_INTERVAL = 1,  /* -I in ms, 0 without */
	PERF_STAT_CONFIG_SCALE = 2,     /* scale counts by enabled/running */
	PERF_STAT_CONFIG_TERMS = 3,
};
#define PERF_STAT_AGGR_GLOBAL 1

/* EVENT_UPDATE: u64 type, u64 id, then a NUL-padded string (UNIT, NAME)
 * or a double (SCALE). */
enum perf_file_event_update_type {
	PERF_EVENT_UPDATE_UNIT = 0,
	PERF_EVENT_UPDATE_SCALE = 1,
	PERF_EVENT_UPDATE_NAME = 2,
};

/* Feature sections built of strings: a u32 length (of the string with
 * its NUL, padded up to a multiple of 8 by NULs), then the bytes. A string
 * list is a u32 count, then that many strings. */
struct perf_file_string {
	uint32_t len;
	char string[];
};

/* PERF_FEAT_NRCPUS */
struct perf_file_nr_cpus {
	uint32_t nr_cpus_available;
	uint32_t nr_cpus_online;
};

/* One entry of PERF_FEAT_BUILD_ID (also the PERF_RECORD_HEADER_BUILD_ID
 * record): header.size covers the NUL-padded filename (a multiple of 8);
 * header.misc says the space (PERF_RECORD_MISC_KERNEL, _USER, ...) and,
 * with PERF_FILE_MISC_BUILD_ID_SIZE, that id.size holds the id's length
 * (otherwise 20 bytes, the SHA-1 length, are assumed). */
#define PERF_FILE_MISC_BUILD_ID_SIZE (1 << 15)
#define PERF_FILE_BUILD_ID_MAX       20
struct perf_file_build_id {
	struct perf_event_header header;
	int32_t pid;
	struct {
		uint8_t data[PERF_FILE_BUILD_ID_MAX];
		uint8_t size;
		uint8_t reserved[3];
	} id; /* 24 bytes */
	char filename[];
};

#endif
