/* gen-perfdata.c: writes small perf.data files by hand, byte by byte from
 * the format document (tools/perf/Documentation/perf.data-file-format.txt
 * and <linux/perf_event.h>), for the samples report's tests: its own
 * layout code, not src/perfdata's, so a shared misreading cannot hide.
 *
 * Usage: gen-perfdata MODE FILE, MODE one of
 *   topdown   a Kunminghu group {cycles,Front_Bubble,INST_SPEC,
 *             RECOVERY_BUBBLE,rob_commitInstr}:S sampled at two functions
 *             (ips 0x1000 and 0x2000, no map: [unknown]); the deltas are in
 *             tests/samples/topdown.sh with their Topdown worked by hand
 *   topdown-damaged  topdown with reads at 0x2000 that no counter gives:
 *             cycles advances by 1 while the others advance by hundreds
 *             (level-1 shares of thousands of %)
 *   topdown-arm  a Neoverse group {CPU_CYCLES,STALL_SLOT_FRONTEND,
 *             STALL_SLOT_BACKEND,STALL_SLOT,OP_RETIRED,OP_SPEC,
 *             BR_MIS_PRED}:S sampled
 *             twice at 0x1000, with a CPUID feature naming Neoverse V2
 *             (MIDR 0x410fd4f0); its Topdown in tests/samples/topdown.sh
 *   simple    cpu-clock, 3 samples: 0x1000 twice, 0x2000 once (period 100)
 *   unknown   simple with a record of type 200 between the samples and a
 *             feature section of bit 40
 *   zero      simple with a record of size 0 after the first sample
 *   beyond    simple whose last record runs past the data section
 *   swapped   simple with the byte-swapped magic
 *   pipe      simple in pipe mode (header of 16 bytes, HEADER_ATTR)
 *   empty     a header and attrs but a data section cut off in the file
 *   zeros     cpu-clock with callchains, 2 samples at 0x1000 (no map), each
 *             called from a stack of 40 zero frames (what an unwinder that
 *             lost its way gives); folded: prog then 41 [unknown] frames
 *   threads   cpu-clock samples (0x1000) of N threads, tids 1000 to
 *             1000+N-1 (N the third argument), then one task-clock sample
 *             of tid 100: the second event comes after N thread names
 *   attrs     pipe mode, 2000 raw events (configs 0x1000...0x17cf, ids 1 to
 *             2000), one sample each at 0x1000 of tid 100
 */
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t buf[1 << 20];
static size_t len;

static void put(const void *p, size_t n)
{
	memcpy(buf + len, p, n);
	len += n;
}
static void u64(uint64_t v)
{
	put(&v, 8);
}
static void u32(uint32_t v)
{
	put(&v, 4);
}
static void u16(uint16_t v)
{
	put(&v, 2);
}
static void at64(size_t off, uint64_t v)
{
	memcpy(buf + off, &v, 8);
}

/* perf string: u32 length (NUL included, padded to 8), then the bytes */
static void pstr(const char *s)
{
	uint32_t n = (uint32_t)((strlen(s) + 1 + 7) & ~7u);
	u32(n);
	uint8_t z[64] = {0};
	memcpy(z, s, strlen(s));
	put(z, n);
}

#define NR_GRP 7
static const char *kmh_names[] = {"cycles", "Front_Bubble", "INST_SPEC", "RECOVERY_BUBBLE",
                                  "rob_commitInstr"};
static const char *arm_names[] = {"CPU_CYCLES", "STALL_SLOT_FRONTEND", "STALL_SLOT_BACKEND",
                                  "STALL_SLOT", "OP_RETIRED",          "OP_SPEC",
                                  "BR_MIS_PRED"};
static const char **grp_names = kmh_names;
static int nr_grp = 5, nr_td = 4;
static const char *sw_names[] = {"cpu-clock", "task-clock"};
static bool callchains; /* zeros: samples carry a callchain */

#define NR_ZEROS 40
#define NR_ATTRS 2000

static struct perf_event_attr attr_of(int mode, int i)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sample_id_all = 1;
	if (mode == 't' || mode == 'a') {
		a.type = PERF_TYPE_RAW;
		a.config = 0x10 + (uint64_t)i;
		a.sample_period = 1000;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		                PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
		                PERF_SAMPLE_READ;
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	} else {
		a.type = PERF_TYPE_SOFTWARE;
		a.config = i ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_CPU_CLOCK;
		a.sample_period = 100;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		                PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
		if (callchains)
			a.sample_type |= PERF_SAMPLE_CALLCHAIN;
	}
	return a;
}

/* COMM "prog" for pid/tid 100 */
static void comm(void)
{
	u32(PERF_RECORD_COMM);
	u16(PERF_RECORD_MISC_COMM_EXEC);
	u16(8 + 8 + 8 + 32); /* header, pid/tid, "prog\0" padded, trailer */
	u32(100);
	u32(100);
	put("prog\0\0\0\0", 8);
	/* sample_id_all: tid, time, id, cpu */
	u32(100);
	u32(100);
	u64(1);
	u64(1);
	u64(0);
}

/* a sample of the event of id by thread tid (pid tid); with callchains,
 * perf's user marker, the ip again, then NR_ZEROS zero frames */
static void sample_of(uint64_t ip, uint64_t t, uint32_t tid, uint64_t id)
{
	u32(PERF_RECORD_SAMPLE);
	u16(PERF_RECORD_MISC_USER);
	u16((uint16_t)(8 + 6 * 8 + (callchains ? 8 * (1 + 2 + NR_ZEROS) : 0)));
	u64(ip);
	u32(tid);
	u32(tid);
	u64(t);
	u64(id);
	u64(0); /* cpu */
	u64(100);
	if (callchains) {
		u64(2 + NR_ZEROS);
		u64(PERF_CONTEXT_USER);
		u64(ip);
		for (int i = 0; i < NR_ZEROS; i++)
			u64(0);
	}
}

static void simple_sample(uint64_t ip, uint64_t t)
{
	sample_of(ip, t, 100, 1);
}

/* the group's cumulative counts at each sample (see topdown.sh) */
static const uint64_t td_ip[4] = {0x1000, 0x1000, 0x2000, 0x2000};
static const uint64_t kmh_v[4][NR_GRP] = {
    {1000, 600, 3000, 300, 2400},
    {2000, 1200, 6000, 600, 4800},
    {3000, 1500, 7200, 600, 6000},
    {4000, 1800, 8400, 600, 7200},
};
static const uint64_t kmh_damaged_v[4][NR_GRP] = {
    {1000, 600, 3000, 300, 2400},
    {2000, 1200, 6000, 600, 4800},
    {3000, 1500, 7200, 600, 6000},
    {3001, 1800, 8400, 600, 7200},
};
static const uint64_t arm_v[2][NR_GRP] = {
    {500, 1000, 1500, 2500, 1050, 1400, 25},
    {1000, 2000, 3000, 5000, 2100, 2800, 50},
};
static const uint64_t (*td_v)[NR_GRP] = kmh_v;

static void td_sample(int k)
{
	u32(PERF_RECORD_SAMPLE);
	u16(PERF_RECORD_MISC_USER);
	u16((uint16_t)(8 + 6 * 8 + 8 + nr_grp * 16));
	u64(td_ip[k]);
	u32(100);
	u32(100);
	u64(10 + (uint64_t)k);
	u64(1); /* the leader's id */
	u64(0);
	u64(1000);
	u64((uint64_t)nr_grp);
	for (int i = 0; i < nr_grp; i++) {
		u64(td_v[k][i]);
		u64(1 + (uint64_t)i);
	}
}

int main(int argc, char **argv)
{
	if (argc != 3 && !(argc == 4 && strcmp(argv[1], "threads") == 0)) {
		fprintf(stderr, "usage: gen-perfdata MODE FILE (threads: MODE FILE N)\n");
		return 2;
	}
	const char *m = argv[1];
	int mode = strcmp(m, "topdown") == 0 || strcmp(m, "topdown-damaged") == 0 ? 't'
	           : strcmp(m, "topdown-arm") == 0                                ? 'a'
	                                                                          : 's';
	if (strcmp(m, "topdown-damaged") == 0)
		td_v = kmh_damaged_v;
	int nr_threads = argc == 4 ? atoi(argv[3]) : 0;
	callchains = strcmp(m, "zeros") == 0;
	if (mode == 'a') {
		grp_names = arm_names;
		td_v = arm_v;
		nr_grp = 7;
		nr_td = 2;
	}
	int nr_ev = mode == 's' ? (nr_threads ? 2 : 1) : nr_grp;
	if (strcmp(m, "attrs") == 0) {
		u64(0x32454c4946524550ULL);
		u64(16);
		for (int i = 0; i < NR_ATTRS; i++) {
			struct perf_event_attr a = attr_of(mode, 0);
			a.type = PERF_TYPE_RAW;
			a.config = 0x1000 + (uint64_t)i;
			u32(64); /* PERF_RECORD_HEADER_ATTR */
			u16(0);
			u16((uint16_t)(8 + sizeof(a) + 8));
			put(&a, sizeof(a));
			u64(1 + (uint64_t)i);
		}
		comm();
		for (int i = 0; i < NR_ATTRS; i++)
			sample_of(0x1000, 10 + (uint64_t)i, 100, 1 + (uint64_t)i);
		goto out;
	}
	if (strcmp(m, "pipe") == 0) {
		u64(0x32454c4946524550ULL);
		u64(16);
		struct perf_event_attr a = attr_of(mode, 0);
		u32(64); /* PERF_RECORD_HEADER_ATTR */
		u16(0);
		u16((uint16_t)(8 + sizeof(a) + 8));
		put(&a, sizeof(a));
		u64(1);
		comm();
		simple_sample(0x1000, 10);
		simple_sample(0x1000, 11);
		simple_sample(0x2000, 12);
		goto out;
	}
	/* header: magic, size, attr_size, attrs, data, event_types, features */
	u64(strcmp(m, "swapped") == 0 ? 0x5045524649c45232ULL : 0x32454c4946524550ULL);
	u64(104);
	u64(sizeof(struct perf_event_attr) + 16);
	size_t h_attrs = len;
	u64(0);
	u64(0);
	size_t h_data = len;
	u64(0);
	u64(0);
	u64(0);
	u64(0);
	size_t h_feat = len;
	for (int i = 0; i < 4; i++)
		u64(0);
	/* ids */
	size_t ids = len;
	for (int i = 0; i < nr_ev; i++)
		u64(1 + (uint64_t)i);
	size_t attrs = len;
	for (int i = 0; i < nr_ev; i++) {
		struct perf_event_attr a = attr_of(mode, i);
		put(&a, sizeof(a));
		u64(ids + 8 * (uint64_t)i);
		u64(8);
	}
	at64(h_attrs, attrs);
	at64(h_attrs + 8, len - attrs);
	size_t data = len;
	comm();
	if (mode != 's') {
		for (int k = 0; k < nr_td; k++)
			td_sample(k);
	} else if (nr_threads) {
		for (int i = 0; i < nr_threads; i++)
			sample_of(0x1000, 10 + (uint64_t)i, 1000 + (uint32_t)i, 1);
		sample_of(0x1000, 10 + (uint64_t)nr_threads, 100, 2);
	} else if (callchains) {
		simple_sample(0x1000, 10);
		simple_sample(0x1000, 11);
	} else {
		simple_sample(0x1000, 10);
		if (strcmp(m, "zero") == 0) {
			u32(PERF_RECORD_SAMPLE);
			u16(0);
			u16(0);
		}
		if (strcmp(m, "unknown") == 0) {
			u32(200);
			u16(0);
			u16(24);
			u64(0xdead);
			u64(0xbeef);
		}
		simple_sample(0x1000, 11);
		simple_sample(0x2000, 12);
	}
	size_t data_size = len - data;
	if (strcmp(m, "beyond") == 0)
		buf[len - (8 + 6 * 8) + 6] = 200; /* the last sample's size: past the end */
	at64(h_data, data);
	at64(h_data + 8, data_size);
	/* features: EVENT_DESC (bit 12) for the names; bit 40 for "unknown" */
	/* CPUID (bit 9) for topdown-arm */
	uint64_t bits = 1ULL << 12;
	int nfeat = 1;
	if (strcmp(m, "unknown") == 0) {
		nfeat = 2;
		bits |= 1ULL << 40;
	}
	if (mode == 'a') {
		nfeat = 2;
		bits |= 1ULL << 9;
	}
	at64(h_feat, bits);
	size_t sect = len;
	for (int i = 0; i < nfeat; i++) {
		u64(0);
		u64(0);
	}
	/* sections in increasing bit order: CPUID (9) before EVENT_DESC (12),
	 * EVENT_DESC before bit 40 */
	size_t fi = 0;
	if (mode == 'a') {
		size_t fc = len;
		pstr("0x00000000410fd4f0");
		at64(sect, fc);
		at64(sect + 8, len - fc);
		fi = 1;
	}
	size_t f0 = len;
	u32((uint32_t)nr_ev);
	u32(sizeof(struct perf_event_attr));
	for (int i = 0; i < nr_ev; i++) {
		struct perf_event_attr a = attr_of(mode, i);
		put(&a, sizeof(a));
		u32(1);
		pstr(mode != 's' ? grp_names[i] : sw_names[i]);
		u64(1 + (uint64_t)i);
	}
	at64(sect + 16 * fi, f0);
	at64(sect + 16 * fi + 8, len - f0);
	if (strcmp(m, "unknown") == 0) {
		size_t f1 = len;
		u64(0x1234);
		u64(0x5678);
		at64(sect + 16, f1);
		at64(sect + 24, len - f1);
	}
	if (strcmp(m, "empty") == 0)
		len = data; /* the data section and what follows are cut off */
out:;
	FILE *f = fopen(argv[2], "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		perror(argv[2]);
		return 1;
	}
	return 0;
}
