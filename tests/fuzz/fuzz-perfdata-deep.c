/* fuzz-perfdata-deep.c: fuzz target for the perf.data reader and the
 * samples report with what random bytes seldom reach: many threads, comms
 * and DSO names (strings to intern), many events, and deep call chains
 * (recursion, unresolved and zero frames, context markers). The input is
 * a program that builds a well-formed perf.data through the writer of
 * hpmstat record (src/perfdata/writer.c), so the mutator works on
 * structure, not on offsets; the file then goes through the checks of
 * fuzz-perfdata.h.
 *
 * The program: a flags byte (bit 0: pipe format; bit 1: sample_id_all;
 * bits 2-3: 1-4 events, or with bit 4 1 + 8 x the next byte events: up to
 * 2,041 attrs; bits 5-7: the call-graph order and sort keys), then
 * operations, an opcode byte each (operands read past the end are 0):
 *   0 COMM       pid, tid, a name (up to 15 bytes)
 *   1 MMAP2      pid, a 1 MiB slot, a name from the table or the input
 *   2 FORK       pid, parent
 *   3 EXIT       pid
 *   4 SAMPLE     event, pid, ip, period, kernel bit, a call chain: depth
 *                (up to MAX_DEPTH) and a shape (see chain())
 *   5 THREADS    n threads (up to 4,095) from pid p: a COMM named after
 *                the input and numbered, and a SAMPLE with a short chain each
 *   6 REPEAT     the last SAMPLE again, up to 255 times, later each time
 *   7 LOST, LOST_SAMPLES or FINISHED_ROUND
 * The file stops growing at MAX_DATA bytes of records.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-perfdata.h"
#include "perfdata/perf-file.h"
#include "perfdata/writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_EVENTS 2041
#define MAX_DEPTH  8000 /* a SAMPLE record is at most 64 KiB */
#define MAX_DATA   (4u << 20)
#define FILE_CAP   (MAX_DATA + (1u << 20)) /* the data, attrs and features */
#define ID_BASE    1000u

#define SAMPLE_TYPE                                                                                \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |  \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

struct gen {
	const uint8_t *in;
	size_t len, at;
	struct perf_writer *w;
	unsigned nr_ev;
	bool id_all;
	uint64_t time;
	uint64_t rec[8 + 2 + MAX_DEPTH]; /* one record being built */
	size_t nr_rec;                   /* u64 words of rec */
	uint64_t last[8 + 2 + MAX_DEPTH];
	size_t nr_last;
	size_t data; /* bytes of records written */
};

static unsigned u8(struct gen *g)
{
	return g->at < g->len ? g->in[g->at++] : 0;
}

static unsigned u16(struct gen *g)
{
	unsigned lo = u8(g);
	return lo | u8(g) << 8;
}

static uint32_t pid_of(unsigned v)
{
	return 1 + v;
}

/* The start of 1 MiB slot `slot`: user space low, kernel space for 0x80 and up. */
static uint64_t slot_addr(unsigned slot)
{
	return slot & 0x80 ? 0xffffffff81000000u + ((uint64_t)(slot & 0x7f) << 20)
	                   : 0x400000u + ((uint64_t)slot << 20);
}

static void word(struct gen *g, uint64_t v)
{
	if (g->nr_rec < sizeof(g->rec) / sizeof(g->rec[0]))
		g->rec[g->nr_rec++] = v;
}

static void begin(struct gen *g, uint32_t type, uint16_t misc)
{
	g->nr_rec = 1;
	g->rec[0] = (uint64_t)misc << 32 | type; /* struct perf_event_header: size set at the end */
}

/* A string padded with NULs to whole words (perf pads names to 8 bytes). */
static void string(struct gen *g, const char *s, size_t n)
{
	size_t words = n / 8 + 1;
	for (size_t i = 0; i < words; i++) {
		char b[8] = {0};
		for (size_t k = 0; k < 8 && 8 * i + k < n; k++)
			b[k] = s[8 * i + k];
		uint64_t v;
		memcpy(&v, b, 8);
		word(g, v);
	}
}

/* Writes the record; with sample_id_all, non-sample kernel records carry
 * the trailer (pid/tid, time, id, cpu). */
static void end(struct gen *g, uint32_t pid, bool trailer)
{
	if (trailer && g->id_all) {
		word(g, (uint64_t)pid << 32 | pid);
		word(g, g->time);
		word(g, ID_BASE);
		word(g, 0);
	}
	size_t bytes = g->nr_rec * 8;
	if (bytes > UINT16_MAX || g->data + bytes > MAX_DATA)
		return;
	g->rec[0] |= (uint64_t)bytes << 48;
	if (perf_writer_add(g->w, g->rec, bytes) == 0)
		g->data += bytes;
}

static size_t name_from_input(struct gen *g, char *buf, size_t max)
{
	size_t n = u8(g) % (max + 1);
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)u8(g);
	buf[n] = '\0';
	return strlen(buf); /* a NUL inside ends it, as it ends the kernel's */
}

static void comm(struct gen *g, uint32_t pid, uint32_t tid, const char *name)
{
	begin(g, PERF_RECORD_COMM, 0);
	word(g, (uint64_t)tid << 32 | pid);
	string(g, name, strlen(name) > 15 ? 15 : strlen(name));
	end(g, pid, true);
}

static void mmap2(struct gen *g)
{
	static const char *const known[] = {"",       "[kernel.kallsyms]", "[vdso]",   "//anon",
	                                    "[heap]", "[stack]",           "[unknown]"};
	uint32_t pid = pid_of(u16(g));
	unsigned slot = u8(g), pick = u8(g);
	char name[160] = "/nonexistent/hpm-fuzz/"; /* never a file: no disk read */
	if (pick < sizeof(known) / sizeof(known[0]))
		snprintf(name, sizeof(name), "%s", known[pick]);
	else
		name_from_input(g, name + strlen(name), 128);
	begin(g, PERF_RECORD_MMAP2, slot & 0x80 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
	word(g, (uint64_t)pid << 32 | pid);
	word(g, slot_addr(slot));
	word(g, 1u << 20);
	word(g, (uint64_t)u8(g) << 12); /* pgoff */
	word(g, 0);                     /* maj, min */
	word(g, 0);                     /* ino */
	word(g, 0);                     /* ino_generation */
	word(g, 5);                     /* prot READ|EXEC, flags 0 */
	string(g, name, strlen(name));
	end(g, pid, true);
}

static void task(struct gen *g, uint32_t type)
{
	uint32_t pid = pid_of(u16(g)), ppid = type == PERF_RECORD_FORK ? pid_of(u16(g)) : pid;
	begin(g, type, 0);
	word(g, (uint64_t)ppid << 32 | pid);
	word(g, (uint64_t)ppid << 32 | pid);
	word(g, g->time);
	end(g, pid, true);
}

/* The call chain of `depth` entries in one of eight shapes: zeros (frames
 * the unwinder lost), one function recursing, a cycle of k functions, a
 * walk over the slots, each of those behind a kernel and a user context
 * marker, and entries from the input. */
static void chain(struct gen *g, uint64_t ip, unsigned depth, unsigned shape)
{
	unsigned k = 1 + (shape >> 3) % 8, at = 0;
	word(g, depth);
	if (shape & 4 && depth >= 2) {
		word(g, PERF_CONTEXT_KERNEL);
		word(g, ip);
		at = 2;
	}
	for (unsigned i = at; i < depth; i++) {
		uint64_t v;
		switch (shape & 3) {
		case 0:
			v = 0;
			break;
		case 1:
			v = ip + 4 * (i % k);
			break;
		case 2:
			v = slot_addr(i % 256) + 0x10 * (i % k);
			break;
		default:
			v = i == depth / 2 ? PERF_CONTEXT_USER : slot_addr(u8(g)) + u16(g);
			break;
		}
		word(g, v);
	}
}

static void sample(struct gen *g, unsigned ev, uint32_t pid, uint32_t tid, uint64_t ip, bool kernel,
                   unsigned depth, unsigned shape, uint64_t period)
{
	begin(g, PERF_RECORD_SAMPLE, kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
	word(g, ip);
	word(g, (uint64_t)tid << 32 | pid);
	word(g, g->time++);
	word(g, ID_BASE + ev % g->nr_ev);
	word(g, ev % 4); /* cpu, res */
	word(g, period);
	chain(g, ip, depth, shape);
	memcpy(g->last, g->rec, g->nr_rec * 8);
	g->nr_last = g->nr_rec;
	end(g, pid, false);
}

static void op_sample(struct gen *g)
{
	unsigned ev = u8(g);
	uint32_t pid = pid_of(u16(g));
	unsigned slot = u8(g);
	uint64_t ip = slot_addr(slot) + u16(g);
	uint64_t period = 1 + u16(g);
	unsigned depth = u16(g) % (MAX_DEPTH + 1), shape = u8(g);
	sample(g, ev, pid, pid + (shape >> 6), ip, slot & 0x80, depth, shape, period);
}

static void op_threads(struct gen *g)
{
	unsigned n = u16(g) % 4096, ev = u8(g);
	uint32_t base = pid_of(u16(g));
	char stem[16];
	size_t len = name_from_input(g, stem, 8);
	for (unsigned i = 0; i < n; i++) {
		char name[24];
		snprintf(name, sizeof(name), "%.*s%u", (int)len, stem, i);
		comm(g, base, base + i, name);
		/* zeros, recursion or a walk, without input bytes */
		sample(g, ev + i, base, base + i, slot_addr(i % 64) + 8 * i, false, 1 + i % 8,
		       (i % 3) | (i & 4), 1);
	}
}

static void op_repeat(struct gen *g)
{
	unsigned n = u8(g);
	if (!g->nr_last)
		return;
	for (unsigned i = 0; i < n; i++) {
		memcpy(g->rec, g->last, g->nr_last * 8);
		g->nr_rec = g->nr_last;
		g->rec[3] = g->time++; /* after ip and pid/tid */
		g->rec[0] &= ~((uint64_t)UINT16_MAX << 48);
		end(g, 0, false);
	}
}

static void op_lost(struct gen *g)
{
	switch (u8(g) % 3) {
	case 0:
		begin(g, PERF_RECORD_LOST, 0);
		word(g, ID_BASE);
		word(g, u16(g));
		end(g, 0, true);
		break;
	case 1:
		begin(g, PERF_RECORD_LOST_SAMPLES, 0);
		word(g, u16(g));
		end(g, 0, true);
		break;
	default:
		begin(g, PERF_RECORD_FINISHED_ROUND, 0);
		end(g, 0, false);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gen g;
	static uint8_t file[FILE_CAP];
	static struct perf_writer_event ev[MAX_EVENTS];
	static uint64_t ids[MAX_EVENTS];
	static char names[MAX_EVENTS][32];
	memset(&g, 0, sizeof(g));
	g.in = data;
	g.len = size;
	unsigned flags = u8(&g);
	bool pipe = flags & 1;
	g.id_all = flags & 2;
	g.nr_ev = flags & 16 ? 1 + 8 * u8(&g) : 1 + (flags >> 2) % 4;
	for (unsigned i = 0; i < g.nr_ev; i++) {
		memset(&ev[i], 0, sizeof(ev[i]));
		ev[i].attr.size = sizeof(ev[i].attr);
		ev[i].attr.type = PERF_TYPE_HARDWARE;
		ev[i].attr.config = i % 2 ? PERF_COUNT_HW_INSTRUCTIONS : PERF_COUNT_HW_CPU_CYCLES;
		ev[i].attr.sample_period = 4000;
		ev[i].attr.sample_type = SAMPLE_TYPE;
		ev[i].attr.sample_id_all = g.id_all;
		snprintf(names[i], sizeof(names[i]), "%s%u", i % 2 ? "instructions" : "cycles", i);
		ev[i].name = names[i];
		ids[i] = ID_BASE + i;
		ev[i].ids = &ids[i];
		ev[i].nr_ids = 1;
	}
	FILE *f = fmemopen(file, sizeof(file), "w+");
	if (!f)
		abort();
	/* a pipe's feature records are at most 64 KiB: the writer refuses
	 * EVENT_DESC of too many events there, and that file is not made */
	if (perf_writer_begin(f, ev, g.nr_ev, pipe, &g.w) != 0) {
		fclose(f);
		return 0;
	}
	if (perf_writer_put_features(g.w) != 0) {
		perf_writer_free(g.w);
		fclose(f);
		return 0;
	}
	while (g.at < g.len) {
		switch (u8(&g) % 8) {
		case 0: {
			uint32_t pid = pid_of(u16(&g));
			char name[16];
			uint32_t tid = pid + u8(&g) % 4;
			name_from_input(&g, name, 15);
			comm(&g, pid, tid, name);
			break;
		}
		case 1:
			mmap2(&g);
			break;
		case 2:
			task(&g, PERF_RECORD_FORK);
			break;
		case 3:
			task(&g, PERF_RECORD_EXIT);
			break;
		case 4:
			op_sample(&g);
			break;
		case 5:
			op_threads(&g);
			break;
		case 6:
			op_repeat(&g);
			break;
		default:
			op_lost(&g);
			break;
		}
	}
	uint64_t len = 0;
	int rc = perf_writer_finish(g.w, &len);
	fclose(f);
	if (rc == 0 && len <= sizeof(file))
		fuzz_perfdata_check(file, (size_t)len, flags >> 5);
	return 0;
}
