/* header.c: perf report's header listing (header.h), after perf 6.1's
 * util/header.c, perf_event_attr_fprintf.c, session.c and bpf-event.c.
 * The file is mapped whole; every read goes through struct rd, bounded by
 * the end of the file as perf's reads on its descriptor are (perf does not
 * stop a feature at its section's size). Each feature has one function
 * that reads its section as perf's process_* does (-1 where that fails:
 * perf reads no later section) and, given a FILE, prints it as print_*
 * prints what process left in perf's env: the print pass reads the
 * section again where the process pass read it whole, else nothing (an
 * empty rd), perf's env then holding nothing of it; but for the features
 * of which perf's env keeps what it read before failing (PARTIAL), whose
 * print pass reads as far again. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "perfdata/perf-file.h"
#include "perfdata/reader.h"
#include "report/header.h"
#include "util/str.h"
#include "util/xalloc.h"

#define ATTR_SZ     128 /* perf 6.1's struct perf_event_attr (PERF_ATTR_SIZE_VER7) */
#define NFEAT       32  /* perf 6.1's HEADER_LAST_FEATURE */
#define FILE_HDR_SZ 104 /* struct perf_file_header */
#define BI_SIZE     232 /* perf 6.1's struct bpf_prog_info */
/* the features perf's env keeps part of when it fails to read them */
#define PARTIAL                                                                                    \
	(1u << PERF_FEAT_CPU_TOPOLOGY | 1u << PERF_FEAT_CLOCKID | 1u << PERF_FEAT_DIR_FORMAT |     \
	 1u << PERF_FEAT_COMPRESSED | 1u << PERF_FEAT_BPF_PROG_INFO | 1u << PERF_FEAT_BPF_BTF)
/* the features perf prints only with -I */
#define FULL_ONLY                                                                                  \
	(1u << PERF_FEAT_CPU_TOPOLOGY | 1u << PERF_FEAT_NUMA_TOPOLOGY | 1u << PERF_FEAT_CACHE |    \
	 1u << PERF_FEAT_MEM_TOPOLOGY | 1u << PERF_FEAT_HYBRID_TOPOLOGY)

/* ------------------------------------------------------------- memory */

/* Everything the listing reads is freed at once at the end. */
struct arena {
	void **p;
	size_t n;
};

static void *anew(struct arena *a, size_t n)
{
	a->p = xgrow(a->p, a->n, sizeof(*a->p));
	return a->p[a->n++] = xcalloc(1, n ? n : 1);
}

/* A string of at most n bytes at s, cut at its first NUL (perf's strings
 * are NUL-padded; a bad one need not hold a NUL at all). */
static char *astrn(struct arena *a, const void *s, size_t n)
{
	const char *e = memchr(s, 0, n);
	size_t len = e ? (size_t)(e - (const char *)s) : n;
	char *d = anew(a, len + 1);
	memcpy(d, s, len);
	return d;
}

/* A string built as perf's scnprintf builds one: cut at size - 1. */
struct sbuf {
	char *b;
	size_t size, len;
};

static void sb_add(struct sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(struct sbuf *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(s->b + s->len, s->size - s->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		s->len = s->len + (size_t)n < s->size ? s->len + (size_t)n : s->size - 1;
}

/* ------------------------------------------------------------- reading */

/* A read position in the file: perf's lseek and readn. A read past the
 * end fails; as readn, it reads what there is (the rest zeroed). */
struct rd {
	const uint8_t *b;
	uint64_t pos, end;
};

static uint64_t rd_left(const struct rd *r)
{
	return r->pos < r->end ? r->end - r->pos : 0;
}

static bool rd_get(struct rd *r, void *dst, uint64_t n)
{
	uint64_t k = n < rd_left(r) ? n : rd_left(r);
	if (k)
		memcpy(dst, r->b + r->pos, k);
	memset((uint8_t *)dst + k, 0, n - k);
	r->pos += k;
	return k == n;
}

/* perf's do_read_string: a u32 length, then that many bytes. A string
 * NUL-padded as perf writes it is the file's; another is copied, cut at
 * its length (perf's has no end then). */
static const char *rd_str(struct rd *r, struct arena *a)
{
	uint32_t len;
	if (!rd_get(r, &len, 4) || len > rd_left(r))
		return NULL;
	r->pos += len;
	const char *s = (const char *)r->b + r->pos - len;
	return !len ? "" : s[len - 1] ? astrn(a, s, len) : s;
}

/* How many entries of at least min bytes each an array announcing count
 * can hold before r runs out: perf allocates count, then fails reading. */
static size_t fitcount(uint64_t count, const struct rd *r, uint64_t min)
{
	uint64_t room = rd_left(r) / min + 1;
	return (size_t)(count < room ? count : room);
}

/* ----------------------------------------------------------- the state */

struct evs { /* an evsel of perf's session evlist */
	uint8_t attr[ATTR_SZ];
	const char *name; /* EVENT_DESC's, else made from attr */
	const char *group_name;
	unsigned leader;
	uint32_t nr_members;
};

/* a BPF_PROG_INFO program or a BPF_BTF node */
struct bpfent {
	uint32_t id;
	size_t order;               /* as read: perf keeps the first of an id */
	const uint8_t *info, *data; /* info_len bytes of struct bpf_prog_info */
	uint32_t il, dl;
	uint64_t arrays; /* which of the PERF_BPIL_* arrays the data holds */
};

struct hdr {
	struct arena a;
	int fd;
	const uint8_t *b;
	uint64_t len;
	bool dir, tracing;
	uint64_t feat[PERF_FILE_FEAT_BITS / 64];
	struct {
		uint64_t off, size;
		bool present, tried, ok; /* ok: perf's process read it */
	} sec[NFEAT];
	struct evs *ev;
	unsigned nr_ev;
	unsigned cur;      /* the feature being read */
	int nr_cpus_avail; /* what NRCPUS and ARCH left for CPU_TOPOLOGY */
	const char *arch;
	struct bpfent *btf; /* BPF_BTF's nodes, by id, once a program needs them */
	size_t nr_btf;
};

/* Whether perf's lseek to off succeeds: not past the file system's
 * largest file (ext4: 16 TiB), where perf reads on from where it was. */
static bool seekable(const struct hdr *h, uint64_t off)
{
	return off <= INT64_MAX && lseek(h->fd, (off_t)off, SEEK_SET) != -1;
}

/* Word i (from 0) of a list separated by sep: its length, *w its start. */
static int word(const char *list, char sep, unsigned i, const char **w)
{
	while (i--)
		list = strchr(list, sep) + 1;
	*w = list;
	const char *e = strchr(list, sep);
	return e ? (int)(e - list) : (int)strlen(list);
}

/* perf's feat_ops names, bit 1 on */
static const char feat_names[] =
    "TRACING_DATA BUILD_ID HOSTNAME OSRELEASE VERSION ARCH NRCPUS CPUDESC CPUID TOTAL_MEM "
    "CMDLINE EVENT_DESC CPU_TOPOLOGY NUMA_TOPOLOGY BRANCH_STACK PMU_MAPPINGS GROUP_DESC "
    "AUXTRACE STAT CACHE SAMPLE_TIME MEM_TOPOLOGY CLOCKID DIR_FORMAT BPF_PROG_INFO BPF_BTF "
    "COMPRESSED CPU_PMU_CAPS CLOCK_DATA HYBRID_TOPOLOGY PMU_CAPS";

/* ------------------------------------------------------------ the attr */

/* perf_event_attr_fprintf.c's names, in its order (not bit order; it
 * has no name for TRANSACTION), and their bits */
static const char sample_names[] =
    "IP TID TIME ADDR READ CALLCHAIN ID CPU PERIOD STREAM_ID RAW BRANCH_STACK REGS_USER "
    "STACK_USER IDENTIFIER REGS_INTR DATA_SRC WEIGHT PHYS_ADDR AUX CGROUP DATA_PAGE_SIZE "
    "CODE_PAGE_SIZE WEIGHT_STRUCT";
static const uint8_t sample_bits[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                      12, 13, 16, 18, 15, 14, 19, 20, 21, 22, 23, 24};
static const char branch_names[] =
    "USER KERNEL HV ANY ANY_CALL ANY_RETURN IND_CALL ABORT_TX IN_TX NO_TX COND CALL_STACK "
    "IND_JUMP CALL NO_FLAGS NO_CYCLES TYPE_SAVE HW_INDEX PRIV_SAVE";
static const char read_names[] = "TOTAL_TIME_ENABLED TOTAL_TIME_RUNNING ID GROUP LOST";

/* The flags of the attr's u64 at 40, one bit each from bit 0 but for
 * precise_ip (bits 15 and 16). */
static const char flag_names[] =
    "disabled inherit pinned exclusive exclude_user exclude_kernel exclude_hv exclude_idle "
    "mmap comm freq inherit_stat enable_on_exec task watermark precise_ip mmap_data "
    "sample_id_all exclude_host exclude_guest exclude_callchain_kernel exclude_callchain_user "
    "mmap2 comm_exec use_clockid context_switch write_backward namespaces ksymbol bpf_event "
    "aux_output cgroup text_poke build_id inherit_thread remove_on_exec sigtrap";

/* The other fields in perf's order ('|' apart), then each one's offset,
 * size and format: u unsigned, x hex, d signed, S sample_type, R
 * read_format, B branch_sample_type; the flags come after the sixth. */
static const char field_names[] =
    "type|size|config|{ sample_period, sample_freq }|sample_type|read_format|"
    "{ wakeup_events, wakeup_watermark }|bp_type|{ bp_addr, config1 }|{ bp_len, config2 }|"
    "branch_sample_type|sample_regs_user|sample_stack_user|clockid|sample_regs_intr|"
    "aux_watermark|sample_max_stack|aux_sample_size|sig_data";
static const struct {
	uint8_t off, size;
	char fmt;
} fields[] = {{0, 4, 'u'},   {4, 4, 'u'},   {8, 8, 'x'},   {16, 8, 'u'}, {24, 8, 'S'},
              {32, 8, 'R'},  {48, 4, 'u'},  {52, 4, 'u'},  {56, 8, 'x'}, {64, 8, 'x'},
              {72, 8, 'B'},  {80, 8, 'x'},  {88, 4, 'u'},  {92, 4, 'd'}, {96, 8, 'x'},
              {104, 4, 'u'}, {108, 2, 'u'}, {112, 4, 'u'}, {120, 8, 'u'}};

/* perf's __p_bits over the n names of list (bits: their bits, NULL: from
 * 0 on). A value with none of them leaves buf as the field before left
 * it, as perf's one buffer does. */
static void p_bits(char *buf, size_t size, uint64_t v, const char *list, const uint8_t *bits,
                   unsigned n)
{
	size_t len = 0;
	for (unsigned i = 0; i < n; i++) {
		const char *w;
		int wl = word(list, ' ', i, &w);
		if (v >> (bits ? bits[i] : i) & 1)
			len += (size_t)snprintf(buf + len, size - len, "%s%.*s", len ? "|" : "", wl,
			                        w);
	}
}

/* perf's perf_event_attr__fprintf with __desc_attr__fprintf: each
 * non-zero field, ", name = value". */
static void attr_fprintf(FILE *o, const uint8_t *a)
{
	char buf[1024] = "";
	const char *w;
	for (unsigned i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		uint64_t v = 0, flags = pf_get64(a + 40);
		memcpy(&v, a + fields[i].off, fields[i].size);
		for (unsigned f = 0; i == 6 && f < 37; f++) {
			uint64_t fv = flags >> (f <= 15 ? f : f + 1) & (f == 15 ? 3 : 1);
			int wl = word(flag_names, ' ', f, &w);
			if (fv && snprintf(buf, sizeof(buf), "%" PRIu64, fv))
				fprintf(o, ", %.*s = %s", wl, w, buf);
		}
		if (!v)
			continue;
		if (fields[i].fmt == 'x')
			snprintf(buf, sizeof(buf), "%#" PRIx64, v);
		else if (fields[i].fmt == 'd')
			snprintf(buf, sizeof(buf), "%" PRId64, (int64_t)(int32_t)v);
		else if (fields[i].fmt == 'u')
			snprintf(buf, sizeof(buf), "%" PRIu64, v);
		else if (fields[i].fmt == 'S')
			p_bits(buf, sizeof(buf), v, sample_names, sample_bits, sizeof(sample_bits));
		else
			p_bits(buf, sizeof(buf), v,
			       fields[i].fmt == 'R' ? read_names : branch_names, NULL,
			       fields[i].fmt == 'R' ? 5 : 19);
		int wl = word(field_names, '|', i, &w);
		fprintf(o, ", %.*s = %s", wl, w, buf);
	}
}

/* perf's perf_attr_check: EVENT_DESC refuses what perf 6.1 cannot name
 * (reserved bits, unknown sample, read or branch bits). */
static bool attr_ok(const uint8_t *a)
{
	uint64_t st = pf_get64(a + 24);
	if (pf_get64(a + 40) >> 38 || pf_get32(a + 108) >> 16 || pf_get32(a + 116) || st >> 25 ||
	    pf_get64(a + 32) >> 5)
		return false;
	return !(st & PERF_SAMPLE_BRANCH_STACK) || !(pf_get64(a + 72) >> 19);
}

/* perf's evsel__name: the name EVENT_DESC gave, else one made from the
 * attr: the reader's, which is perf's for software, hardware and raw
 * events (but software config 10 and 11, perf 6.1's "unknown-software")
 * and not for other types. Only a file whose EVENT_DESC cannot be read
 * has groups listed with such names. */
static const char *ev_name(const struct evs *e, char *buf, size_t len)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	memcpy(&a, e->attr, sizeof(a) < ATTR_SZ ? sizeof(a) : ATTR_SZ);
	return e->name ? e->name : pd_attr_name(&a, buf, len);
}

/* ------------------------------------------------------------ features */

static int f_string(struct hdr *h, struct rd *r, FILE *o)
{
	static const char labels[] = "hostname|os release|perf version|arch||cpudesc|cpuid";
	const char *w;
	int wl = word(labels, '|', h->cur - PERF_FEAT_HOSTNAME, &w);
	const char *s = rd_str(r, &h->a);
	if (o)
		fprintf(o, "# %.*s : %s\n", wl, w, s ? s : "(null)");
	else if (h->cur == PERF_FEAT_ARCH)
		h->arch = s;
	return s ? 0 : -1;
}

/* perf's print_cmdline: each argument and a space, its ' as \' */
static int f_cmdline(struct hdr *h, struct rd *r, FILE *o)
{
	uint32_t nr;
	int rc = rd_get(r, &nr, 4) ? 0 : -1;
	if (o)
		fputs("# cmdline : ", o);
	for (uint32_t i = 0; !rc && i < nr; i++) {
		const char *s = rd_str(r, &h->a), *q;
		rc = s ? 0 : -1;
		for (; o && s && (q = strchr(s, '\'')); s = q + 1)
			fprintf(o, "%.*s\\'", (int)(q - s), s);
		if (o && s)
			fprintf(o, "%s ", s);
	}
	if (o)
		fputc('\n', o);
	return rc;
}

/* perf's read_event_desc reads every entry (or fails: "not available");
 * its process names the evsels that have no name yet, by index. Both stop
 * at the first entry whose attr size is 0 (perf's end mark). perf prints
 * it from the file whether or not its process got that far. */
static int f_event_desc(struct hdr *h, struct rd *r, FILE *o)
{
	uint32_t nre, sz, nr = 0;
	uint8_t attr[ATTR_SZ];
	const char *name = NULL;
	bool ok = rd_get(r, &nre, 4) && rd_get(r, &sz, 4), end = false;
	struct rd at = *r;
	/* the read, then (when it succeeds) the names or the print */
	for (int pass = 0; pass < 2; pass++, *r = at) {
		for (uint32_t i = 0; ok && !end && i < nre; i++) {
			memset(attr, 0, sizeof(attr));
			if ((ok = sz <= rd_left(r)))
				memcpy(attr, r->b + r->pos, sz < ATTR_SZ ? sz : ATTR_SZ);
			r->pos += ok ? sz : 0;
			ok = ok && attr_ok(attr) && rd_get(r, &nr, 4) &&
			     (name = rd_str(r, &h->a)) && (uint64_t)nr * 8 <= rd_left(r);
			end = pass && !pf_get32(attr + 4);
			if (pass && !end && !o && i < h->nr_ev && !h->ev[i].name)
				h->ev[i].name = name;
			if (pass && !end && o) {
				fprintf(o, "# event : name = %s, %s", name, nr ? ", id = {" : "");
				for (uint32_t j = 0; j < nr; j++)
					fprintf(o, "%s %" PRIu64, j ? "," : "",
					        pf_get64(r->b + r->pos + 8 * (uint64_t)j));
				fputs(nr ? " }" : "", o);
				attr_fprintf(o, attr);
				fputc('\n', o);
			}
			r->pos += ok ? (uint64_t)nr * 8 : 0;
		}
	}
	if (o && !ok)
		fputs("# event desc: not available or unable to read\n", o);
	return 0;
}

/* A sibling list of CPU_TOPOLOGY: a count, then strings; *size grows as
 * perf counts (each string's length and NUL rounded up to 64, and 4).
 * Given o, prints it. The count; -2 where the count cannot be read, -1
 * where a string cannot. */
static int64_t topo_list(struct hdr *h, struct rd *r, uint64_t *size, const char *label, FILE *o)
{
	uint32_t nr;
	if (!rd_get(r, &nr, 4))
		return -2;
	*size += 4;
	for (uint32_t i = 0; i < nr; i++) {
		const char *s = rd_str(r, &h->a);
		if (!s)
			return -1;
		*size += ((strlen(s) + 64) & ~(uint64_t)63) + 4;
		if (o)
			fprintf(o, "# sibling %s : %s\n", label, s);
	}
	return nr;
}

/* perf's process_cpu_topology: sibling cores and threads, then (a newer
 * perf's) core and socket ids, then dies and their ids; the section's
 * size says which of them the writer wrote. Where a read fails perf keeps
 * the lists read before and, at some points, its table of ids (zeroed if
 * not read yet): print_cpu_topology prints that (where perf itself would
 * crash, on a string it could not read, the lists before). It prints the
 * dies between the cores and the threads. */
static int f_cpu_topology(struct hdr *h, struct rd *r, FILE *o)
{
	struct rd cores = *r, threads = *r, dies = *r;
	int nr = h->nr_cpus_avail, rc = -1, cpu = 0; /* the ids: 0 none, 1 zeros, 2 read */
	uint64_t size = 0, fsize = h->sec[PERF_FEAT_CPU_TOPOLOGY].size, ids = 0;
	int64_t nc = -1, nt = -1, nd = -1;
	uint32_t v[2];
	/* perf checks socket ids against the CPU count but on s390, arm64 */
	bool test = !h->arch || (strncmp(h->arch, "s390", 4) && strncmp(h->arch, "aarch64", 7));
	if (nr < 0 || (nc = topo_list(h, r, &size, NULL, NULL)) < 0)
		goto print;
	threads = *r;
	if ((nt = topo_list(h, r, &size, NULL, NULL)) < 0 || fsize <= size) {
		cpu = nt == -2; /* perf returns there with its table */
		rc = nt < 0 ? -1 : 0;
		goto print;
	}
	ids = r->pos;
	for (uint32_t i = 0; i < (uint32_t)nr; i++)
		if (!rd_get(r, v, 8) || (test && v[1] != UINT32_MAX && v[1] > (uint32_t)nr))
			goto print;
	size += 8 * (uint64_t)(uint32_t)nr;
	cpu = 2;
	rc = 0;
	if (fsize <= size)
		goto print;
	dies = *r;
	nd = topo_list(h, r, &size, NULL, NULL);
	rc = nd >= 0 && (uint64_t)(uint32_t)nr * 4 <= rd_left(r) ? 0 : -1;
	cpu = nd == -2 || !rc ? 2 : 0;
print:
	if (!o)
		return rc;
	if (nc >= 0)
		topo_list(h, &cores, &size, "sockets", o);
	if (nd > 0)
		topo_list(h, &dies, &size, "dies   ", o);
	if (nt >= 0)
		topo_list(h, &threads, &size, "threads", o);
	if (!cpu)
		fprintf(o, "# Core ID%s and Socket ID information is not available\n",
		        nd > 0 ? ", Die ID" : "");
	for (uint32_t i = 0; cpu && i < (uint32_t)nr; i++) {
		const uint8_t *c = h->b + ids + 8 * (uint64_t)i;
		fprintf(o, "# CPU %d: Core ID %d, ", (int)i, cpu == 2 ? (int)pf_get32(c) : 0);
		if (nd > 0)
			fprintf(o, "Die ID %d, ", (int)pf_get32(h->b + r->pos + 4 * (uint64_t)i));
		fprintf(o, "Socket ID %d\n", cpu == 2 ? (int)pf_get32(c + 4) : 0);
	}
	return 0;
}

static int f_numa(struct hdr *h, struct rd *r, FILE *o)
{
	uint32_t nr, node;
	uint64_t mem[2];
	const char *s;
	char cpus[1024]; /* perf's cpu_map__fprintf buffer */
	if (!rd_get(r, &nr, 4))
		return -1;
	for (uint32_t i = 0; i < nr; i++) {
		if (!rd_get(r, &node, 4) || !rd_get(r, mem, sizeof(mem)) ||
		    !(s = rd_str(r, &h->a)) || pd_cpu_list(s, cpus, sizeof(cpus)))
			return -1;
		if (o)
			fprintf(o,
			        "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64
			        " kB\n# node%u cpu list : %s\n",
			        node, mem[0], mem[1], node, cpus);
	}
	return 0;
}

static int f_pmu_mappings(struct hdr *h, struct rd *r, FILE *o)
{
	uint32_t nr, type;
	bool ok = rd_get(r, &nr, 4);
	const char *name;
	if (o && !nr)
		fputs("# pmu mappings: not available\n", o);
	for (uint32_t i = 0; ok && i < nr; i++) {
		ok = rd_get(r, &type, 4) && (name = rd_str(r, &h->a));
		if (ok && o)
			fprintf(o, "%s%s = %" PRIu32, i ? ", " : "# pmu mappings: ", name, type);
	}
	if (o && nr)
		fputc('\n', o);
	return ok ? 0 : -1;
}

/* perf's process_group_desc rebuilds the groups on the evlist, keeping
 * what it set before it finds the description invalid; print_group_desc
 * prints the evlist's groups. */
static int f_group_desc(struct hdr *h, struct rd *r, FILE *o)
{
	uint32_t nr_groups, nr = 0, i = 0, leader = 0;
	char buf[128];
	for (unsigned k = 0; o && k < h->nr_ev; k++) {
		struct evs *e = &h->ev[k];
		if (e->leader == k && e->nr_members > 1) {
			fprintf(o, "# group: %s{%s", e->group_name ? e->group_name : "",
			        ev_name(e, buf, sizeof(buf)));
			nr = e->nr_members - 1;
		} else if (nr) {
			fprintf(o, ",%s%s", ev_name(e, buf, sizeof(buf)), --nr ? "" : "}\n");
		}
	}
	if (o || !rd_get(r, &nr_groups, 4))
		return o ? 0 : -1;
	struct gd {
		const char *name;
		uint32_t leader, nr;
	} *d = anew(&h->a, fitcount(nr_groups, r, 12) * sizeof(*d));
	for (uint32_t k = 0; k < nr_groups; k++)
		if (!(d[k].name = rd_str(r, &h->a)) || !rd_get(r, &d[k].leader, 4) ||
		    !rd_get(r, &d[k].nr, 4))
			return -1;
	for (unsigned k = 0; nr_groups && k < h->nr_ev; k++) {
		struct evs *e = &h->ev[k];
		/* perf reads d[i] even past the last group: no evsel matches */
		if (i < nr_groups && (int)k == (int)d[i].leader) {
			if (strcmp(d[i].name, "{anon_group}"))
				e->group_name = d[i].name;
			e->nr_members = d[i].nr;
			if (nr > 0)
				return -1;
			leader = k;
			nr = e->nr_members - 1;
			i++;
		} else if (nr) {
			e->leader = leader;
			nr--;
		}
	}
	return i != nr_groups || nr ? -1 : 0;
}

static int f_cache(struct hdr *h, struct rd *r, FILE *o)
{
	uint32_t ver, cnt, v[4];
	const char *type = NULL, *size = NULL, *map = NULL;
	bool ok = rd_get(r, &ver, 4) && ver == 1 && rd_get(r, &cnt, 4);
	if (o)
		fputs("# CPU cache info:\n", o);
	for (uint32_t i = 0; ok && i < cnt; i++) {
		ok = rd_get(r, v, sizeof(v)) && (type = rd_str(r, &h->a)) &&
		     (size = rd_str(r, &h->a)) && (map = rd_str(r, &h->a));
		if (ok && o)
			fprintf(o, "#  L%d %-15s %8s [%s]\n", (int)v[0], type, size, map);
	}
	return ok ? 0 : -1;
}

static int f_sample_time(struct hdr *h, struct rd *r, FILE *o)
{
	uint64_t t[2];
	bool ok = rd_get(r, t, sizeof(t));
	(void)h;
	for (int i = 0; o && i < 2; i++) /* perf's timestamp__scnprintf_usec */
		fprintf(o, "# time of %s sample : %" PRIu64 ".%06" PRIu64 "\n",
		        i ? "last" : "first", t[i] / 1000000000, t[i] % 1000000000 / 1000);
	if (o)
		fprintf(o, "# sample duration : %10.3f ms\n", (double)(t[1] - t[0]) / 1000000);
	return ok ? 0 : -1;
}

/* perf's memory_node__fprintf: the node, its size (its set blocks times
 * the block size, perf's unit_number__scnprintf), its blocks as ranges
 * (bitmap_scnprintf into 100 bytes). */
static void mem_node(FILE *o, uint64_t node, uint64_t bsize, const uint8_t *set, uint64_t nbits)
{
	char map[100] = "", size[50];
	struct sbuf sb = {map, sizeof(map), 0};
	unsigned long long weight = 0, n;
	unsigned nb = (unsigned)nbits, i = 0, u = 0; /* perf passes it as unsigned int */
	while (i < nb) {
		uint64_t w = pf_get64(set + 8 * (uint64_t)(i / 64)) >> (i % 64);
		if (!(w & 1)) { /* on to the next set bit */
			i = w ? i + (unsigned)__builtin_ctzll(w) : (i | 63) + 1;
			continue;
		}
		unsigned lo = i;
		while (i < nb && pf_get64(set + 8 * (uint64_t)(i / 64)) >> (i % 64) & 1)
			i++;
		weight += i - lo;
		sb_add(&sb, "%s%d", sb.len ? "," : "", (int)lo);
		if (i - 1 > lo)
			sb_add(&sb, "-%d", (int)(i - 1));
	}
	for (n = bsize * weight; n / 1024 > 1 && u < 3; u++)
		n /= 1024;
	snprintf(size, sizeof(size), "%llu%c", n, "BKMG"[u]);
	fprintf(o, "#  %3" PRIu64 " [%s]: %s\n", node, size, map);
}

static int f_mem_topology(struct hdr *h, struct rd *r, FILE *o)
{
	uint64_t ver, bsize = 0, nr = 0, v[3];
	(void)h;
	bool ok = rd_get(r, &ver, 8) && ver == 1 && rd_get(r, &bsize, 8) && rd_get(r, &nr, 8);
	if (o)
		fprintf(o, "# memory nodes (nr %d, block size 0x%llx):\n", (int)nr,
		        (unsigned long long)bsize);
	for (uint64_t i = 0; ok && i < nr; i++) {
		/* node, size, then a bitmap: its bit count, BITS_TO_U64 words */
		ok = rd_get(r, v, sizeof(v)) && (v[2] + 63) / 64 <= rd_left(r) / 8;
		uint64_t words = (v[2] + 63) / 64;
		if (ok && o && (int64_t)i < (int)nr)
			mem_node(o, v[0], bsize, r->b + r->pos,
			         v[2] < words * 64 ? v[2] : words * 64);
		r->pos += ok ? words * 8 : 0;
	}
	return ok ? 0 : -1;
}

static int f_clock_data(struct hdr *h, struct rd *r, FILE *o)
{
	uint32_t ver, id = 0;
	uint64_t t[2] = {0, 0};
	char date[40] = "", tstr[64] = "<error>";
	struct tm tm;
	bool ok = rd_get(r, &ver, 4) && ver == 1 && rd_get(r, &id, 4) && rd_get(r, t, sizeof(t));
	(void)h;
	if (!o || !ok) {
		if (o)
			fputs("# reference time disabled\n", o);
		return ok ? 0 : -1;
	}
	static const char *const names[12] = {
	    "realtime", "monotonic", [4] = "monotonic_raw", [7] = "boottime", [11] = "tai"};
	const char *name = id < 12 && names[id] ? names[id] : "(not found)"; /* clockid_name */
	time_t sec = (time_t)(t[0] / 1000000000);
	int usec = (int)(t[0] % 1000000000 / 1000);
	if (localtime_r(&sec, &tm) && strftime(date, sizeof(date), "%F %T", &tm))
		snprintf(tstr, sizeof(tstr), "%s.%06d", date, usec);
	fprintf(o, "# clockid: %s (%u)\n", name, id);
	fprintf(o, "# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", tstr, (long)sec,
	        usec, (long)(t[1] / 1000000000), (long)(t[1] % 1000000000), name);
	return 0;
}

static int f_hybrid(struct hdr *h, struct rd *r, FILE *o)
{
	uint32_t nr;
	const char *pmu, *cpus = NULL;
	bool ok = rd_get(r, &nr, 4);
	if (o)
		fputs("# hybrid cpu system:\n", o);
	for (uint32_t i = 0; ok && i < nr; i++) {
		ok = (pmu = rd_str(r, &h->a)) && (cpus = rd_str(r, &h->a));
		if (ok && o)
			fprintf(o, "# %s cpu list : %s\n", pmu, cpus);
	}
	return ok ? 0 : -1;
}

/* A PMU's capabilities: a count, then name and value strings; given o,
 * printed as perf's __print_pmu_caps prints them, once they are read. */
static bool pmu_caps(struct hdr *h, struct rd *r, const char *pmu, FILE *o)
{
	uint32_t nr;
	bool ok = rd_get(r, &nr, 4);
	struct rd at = *r;
	for (uint32_t i = 0; ok && i < 2 * (uint64_t)nr; i++)
		ok = rd_str(r, &h->a) != NULL;
	nr = ok ? nr : 0;
	if (o)
		fprintf(o, "# %s pmu capabilities: %s", pmu, nr ? "" : "not available\n");
	for (uint32_t i = 0; o && i < nr; i++) {
		const char *name = rd_str(&at, &h->a);
		fprintf(o, "%s%s=%s%s", i ? ", " : "", name, rd_str(&at, &h->a),
		        i + 1 < nr ? "" : "\n");
	}
	return ok;
}

static int f_cpu_pmu_caps(struct hdr *h, struct rd *r, FILE *o)
{
	return pmu_caps(h, r, "cpu", o) ? 0 : -1;
}

/* PMU_CAPS: each PMU's capabilities, then its name */
static int f_pmu_caps(struct hdr *h, struct rd *r, FILE *o)
{
	uint32_t nr;
	const char *pmu;
	if (!rd_get(r, &nr, 4))
		return -1;
	for (uint32_t i = 0; i < nr; i++) {
		struct rd at = *r;
		if (!pmu_caps(h, r, NULL, NULL) || !(pmu = rd_str(r, &h->a)))
			return -1;
		if (o)
			pmu_caps(h, &at, pmu, o);
	}
	return 0;
}

/* perf's trace_report, as far as it is checked here: its magic (the
 * formats that follow, libtraceevent's to parse, are not). */
static int f_tracing(struct hdr *h, struct rd *r, FILE *o)
{
	uint8_t m[10];
	if (o) /* perf has no print for it */
		return 0;
	h->tracing = rd_get(r, m, sizeof(m)) && !memcmp(m, "\x17\x08\x44tracing", 10);
	return h->tracing ? 0 : -1;
}

/* ----------------------------------------------------------------- bpf */

static int cmp_ent(const void *a, const void *b)
{
	const struct bpfent *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* perf's process_bpf_prog_info (prog: info_len, data_len, the arrays
 * mask, the info, the data) or process_bpf_btf (id, size, the data);
 * given out, every entry sorted by id. */
static int bpf_read(struct hdr *h, struct rd *r, bool prog, struct bpfent **out, size_t *n)
{
	uint32_t count, a, b;
	uint8_t id[8];
	int rc = 0;
	if (!rd_get(r, &count, 4))
		return -1;
	size_t cap = fitcount(count, r, 8);
	if (out)
		*out = anew(&h->a, cap * sizeof(**out));
	for (uint32_t i = 0; !rc && i < count; i++) {
		struct bpfent e = {.order = i};
		if (i >= cap || !rd_get(r, &a, 4) || !rd_get(r, &b, 4) ||
		    (prog && (a > BI_SIZE || !rd_get(r, &e.arrays, 8))) ||
		    (uint64_t)(prog ? a : 0) + b > rd_left(r)) {
			rc = -1; /* perf keeps the entries before */
			break;
		}
		e.info = r->b + r->pos;
		memset(id, 0, sizeof(id));
		memcpy(id, e.info, prog ? (a < 8 ? a : 8) : 0);
		e.id = prog ? pf_get32(id + 4) : a;
		e.il = prog ? a : 0;
		e.data = e.info + e.il;
		e.dl = b;
		r->pos += (uint64_t)e.il + b;
		if (out)
			(*out)[(*n)++] = e;
	}
	if (out && *n)
		qsort(*out, *n, sizeof(**out), cmp_ent);
	return rc;
}

/* Array field (at off in info) of a program, n elements of size bytes:
 * perf turns its offset into an address in the data when the arrays
 * mask says the data holds it. NULL when it does not or does not fit
 * (perf would read garbage). */
static const uint8_t *bpil(const struct bpfent *p, const uint8_t *info, unsigned bit, unsigned off,
                           uint64_t n, uint64_t size)
{
	uint64_t at = pf_get64(info + off);
	if (!(p->arrays >> bit & 1) || at > p->dl || (size && n > (p->dl - at) / size))
		return NULL;
	return p->data + at;
}

/* libbpf's btf__new as far as it checks (header, strings, type sizes),
 * then btf__name_by_offset of type id's name: NULL when the BTF does not
 * parse (*parsed false) or has no such type (perf crashes), "(null)" for
 * a name past the strings. */
static const char *btf_name(const struct bpfent *b, uint32_t id, bool *parsed)
{
	static const uint8_t fixed[20] = {0, 4, 0, 12, 0, 0, 0, 0, 0, 0,
	                                  0, 0, 0, 0,  4, 0, 0, 4, 0, 0};
	static const uint8_t per[20] = {0, 0, 0, 0, 12, 12, 8, 0, 0, 0,
	                                0, 0, 0, 8, 0,  12, 0, 0, 0, 12};
	const uint8_t *d = b->data, *t, *end, *want = NULL;
	*parsed = false;
	if (b->dl < 24 || (pf_get32(d) & 0xffff) != 0xeb9f || pf_get32(d + 4) > b->dl)
		return NULL;
	uint32_t hl = pf_get32(d + 4), to = pf_get32(d + 8), tl = pf_get32(d + 12),
	         so = pf_get32(d + 16), sl = pf_get32(d + 20);
	const char *str = (const char *)d + hl + so;
	if (b->dl - hl < (uint64_t)so + sl || (uint64_t)to + tl > so || to % 4 || !sl ||
	    str[sl - 1] || str[0])
		return NULL;
	uint32_t n = 0;
	for (t = d + hl + to, end = t + tl; end - t >= 12;) {
		uint32_t info = pf_get32(t + 4), kind = info >> 24 & 0x1f;
		uint64_t sz =
		    12 + (kind < 20 ? fixed[kind] + per[kind] * (uint64_t)(info & 0xffff) : 0);
		if (!kind || kind >= 20 || sz > (uint64_t)(end - t))
			return NULL;
		want = ++n == id ? t : want;
		t += sz;
	}
	if (t != end)
		return NULL;
	*parsed = true;
	if (id && !want)
		return NULL;
	uint32_t name = want ? pf_get32(want) : 0;
	return name < sl ? str + name : "(null)";
}

/* A (sub)program's line: perf's synthesize_bpf_prog_name (the tag in
 * hex, then the function's name from the program's BTF, else its own name
 * when it is one function, else "F"), its address and size. */
static void bpf_line(struct hdr *h, const struct bpfent *p, const uint8_t *info, uint32_t i,
                     uint32_t cnt, FILE *o)
{
	char name[512]; /* perf's KSYM_NAME_LEN */
	struct sbuf sb = {name, sizeof(name), 0};
	const char *suffix = NULL;
	const uint8_t *tags = bpil(p, info, 8, 184, cnt, 8), *fi;
	uint32_t want = pf_get32(info + 128), rec = pf_get32(info + 132);
	size_t lo = 0, hi = h->nr_btf;
	bool btf = false;
	sb_add(&sb, "bpf_prog_");
	for (unsigned k = 0; k < 8; k++)
		sb_add(&sb, "%02x", tags[8 * (uint64_t)i + k]);
	while (want && lo < hi) { /* the first BTF node of the program's id */
		size_t mid = lo + (hi - lo) / 2;
		if (h->btf[mid].id < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (want && lo < h->nr_btf && h->btf[lo].id == want) {
		fi = bpil(p, info, 5, 136, cnt, rec);
		suffix = btf_name(
		    &h->btf[lo], fi && rec >= 8 ? pf_get32(fi + (uint64_t)i * rec + 4) : UINT32_MAX,
		    &btf);
	}
	if (!btf)
		suffix = cnt != 1 ? "F" : info[64] ? astrn(&h->a, info + 64, 16) : NULL;
	if (suffix)
		sb_add(&sb, "_%s", suffix);
	if (cnt == 1)
		fprintf(o, "# bpf_prog_info %u: %s", p->id, name);
	else
		fprintf(o, "# \tsub_prog %u: %s", i, name);
	fprintf(o, " addr 0x%llx size %u\n",
	        (unsigned long long)pf_get64(bpil(p, info, 3, 112, cnt, 8) + 8 * (uint64_t)i),
	        pf_get32(bpil(p, info, 4, 120, cnt, 4) + 4 * (uint64_t)i));
}

/* perf's __bpf_event__print_bpf_prog_info of each program, by id, once
 * BPF_BTF (the next feature) has been read */
static int f_bpf_prog_info(struct hdr *h, struct rd *r, FILE *o)
{
	struct bpfent *p = NULL;
	size_t n = 0;
	uint8_t info[BI_SIZE];
	int rc = bpf_read(h, r, true, o ? &p : NULL, &n);
	if (o && h->sec[PERF_FEAT_BPF_BTF].tried && !h->btf) {
		struct rd b = {h->b, h->sec[PERF_FEAT_BPF_BTF].off, h->len};
		bpf_read(h, &b, false, &h->btf, &h->nr_btf);
	}
	for (size_t k = 0; k < n; k++) {
		memset(info, 0, sizeof(info));
		memcpy(info, p[k].info, p[k].il);
		uint32_t cnt = pf_get32(info + 104);
		const uint8_t *tags = bpil(&p[k], info, 8, 184, cnt, 8),
		              *ksyms = bpil(&p[k], info, 3, 112, cnt, 8),
		              *lens = bpil(&p[k], info, 4, 120, cnt, 4);
		if ((k && p[k].id == p[k - 1].id) || cnt != pf_get32(info + 180) ||
		    cnt != pf_get32(info + 108) || (cnt && (!tags || !ksyms || !lens)))
			continue;
		if (cnt != 1)
			fprintf(o, "# bpf_prog_info %u:\n", p[k].id);
		for (uint32_t i = 0; i < cnt; i++)
			bpf_line(h, &p[k], info, i, cnt, o);
	}
	return rc;
}

static int f_bpf_btf(struct hdr *h, struct rd *r, FILE *o)
{
	struct bpfent *b = NULL;
	size_t n = 0;
	int rc = bpf_read(h, r, false, o ? &b : NULL, &n);
	for (size_t i = 0; i < n; i++)
		if (!i || b[i].id != b[i - 1].id)
			fprintf(o, "# btf info of id %u\n", b[i].id);
	return rc;
}

/* ------------------------------------------------------------- listing */

/* The features of fixed size: NRCPUS (avail, then online), TOTAL_MEM,
 * CLOCKID, DIR_FORMAT (which perf refuses but in a directory), COMPRESSED
 * (version, type, level, ratio, mmap length), and those of one line:
 * BRANCH_STACK, STAT, AUXTRACE (whose index perf reads: a count, 16
 * bytes an entry, in the section). */
static int f_fixed(struct hdr *h, struct rd *r, FILE *o)
{
	uint32_t v[5];
	uint64_t q = 0;
	bool ok = true;
	switch (h->cur) {
	case PERF_FEAT_NRCPUS:
		ok = rd_get(r, v, 8);
		if (o)
			fprintf(o, "# nrcpus online : %u\n# nrcpus avail : %u\n", v[1], v[0]);
		else if (ok)
			h->nr_cpus_avail = (int)v[0];
		break;
	case PERF_FEAT_TOTAL_MEM:
	case PERF_FEAT_CLOCKID:
	case PERF_FEAT_DIR_FORMAT:
		ok = (h->cur != PERF_FEAT_DIR_FORMAT || h->dir) && rd_get(r, &q, 8);
		if (o && h->cur == PERF_FEAT_TOTAL_MEM)
			fprintf(o, "# total memory : %llu kB\n", (unsigned long long)q);
		else if (o && h->cur == PERF_FEAT_CLOCKID)
			fprintf(o, "# clockid frequency: %" PRIu64 " MHz\n", q * 1000);
		else if (o)
			fprintf(o, "# directory data version : %" PRIu64 "\n", q);
		break;
	case PERF_FEAT_COMPRESSED:
		ok = rd_get(r, v, sizeof(v));
		if (o)
			fprintf(o, "# compressed : %s, level = %d, ratio = %d\n",
			        v[1] == 1 ? "Zstd" : "Unknown", (int)v[2], (int)v[3]);
		break;
	case PERF_FEAT_AUXTRACE:
		ok = o || (rd_get(r, &q, 8) && 8 + q * 16 <= h->sec[h->cur].size &&
		           q <= rd_left(r) / 16);
		__attribute__((fallthrough)); /* its line */
	default:
		if (o)
			fprintf(o, "# contains %s\n",
			        h->cur == PERF_FEAT_STAT ? "stat data"
			        : h->cur == PERF_FEAT_AUXTRACE
			            ? "AUX area data (e.g. instruction trace)"
			            : "samples with branch stack");
	}
	return ok ? 0 : -1;
}

/* One feature through perf's process (o NULL) or print function. */
static int feature(struct hdr *h, unsigned f, struct rd *r, FILE *o)
{
	/* by bit; BUILD_ID: nothing the listing shows */
	static int (*const fn[NFEAT])(struct hdr *, struct rd *, FILE *) = {
	    NULL,         f_tracing,       NULL,      f_string,      f_string,       f_string,
	    f_string,     f_fixed,         f_string,  f_string,      f_fixed,        f_cmdline,
	    f_event_desc, f_cpu_topology,  f_numa,    f_fixed,       f_pmu_mappings, f_group_desc,
	    f_fixed,      f_fixed,         f_cache,   f_sample_time, f_mem_topology, f_fixed,
	    f_fixed,      f_bpf_prog_info, f_bpf_btf, f_fixed,       f_cpu_pmu_caps, f_clock_data,
	    f_hybrid,     f_pmu_caps};
	h->cur = f;
	return fn[f] ? fn[f](h, r, o) : 0;
}

/* perf_session__read_header's attrs: each entry's own attr size (0: 64)
 * says how far its attr goes, then come its ids' offset and size; the
 * ids must be in the file. */
static bool read_attrs(struct hdr *h, uint64_t attr_size)
{
	const uint8_t *b = h->b;
	int nr = (int)(pf_get64(b + 32) / attr_size); /* perf's int */
	uint64_t ids[2];
	/* where perf's lseek fails, it reads on after the header */
	struct rd r = {b, seekable(h, pf_get64(b + 24)) ? pf_get64(b + 24) : FILE_HDR_SZ, h->len};
	size_t cap = fitcount(nr > 0 ? (uint64_t)nr : 0, &r, 80);
	h->ev = anew(&h->a, cap * sizeof(*h->ev));
	for (int i = 0; i < nr; i++) {
		struct evs *e = &h->ev[i];
		if ((size_t)i >= cap || !rd_get(&r, e->attr, 64))
			return false;
		uint32_t sz = pf_get32(e->attr + 4) ? pf_get32(e->attr + 4) : 64;
		/* below 64 perf's read overruns its attr: refused here */
		if (sz < 64 || sz > ATTR_SZ || !rd_get(&r, e->attr + 64, sz - 64) ||
		    !rd_get(&r, ids, sizeof(ids)))
			return false;
		struct rd at = {b, seekable(h, ids[0]) ? ids[0] : r.pos, h->len};
		if ((int)(ids[1] / 8) < 0 || (uint64_t)(int)(ids[1] / 8) * 8 > rd_left(&at))
			return false;
		e->leader = (unsigned)i;
		h->nr_ev++;
	}
	return true;
}

/* perf's evsel id positions: in a sample, and from the end of others */
static int id_pos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 1 << 8;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	return (!!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
	        !!(st & PERF_SAMPLE_ADDR)) |
	       (1 + !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_STREAM_ID)) << 8;
}

/* perf_session__read_header and perf_session__open: NULL, or why perf
 * refuses the file. Reads the feature table and processes the sections
 * up to the first one perf cannot read. */
static const char *read_header(struct hdr *h)
{
	const uint8_t *b = h->b;
	uint64_t magic = h->len >= 8 ? pf_get64(b) : 0, hsize = h->len >= 16 ? pf_get64(b + 8) : 0;
	if (magic == PERF_FILE_MAGIC2 && hsize == 16)
		return "a pipe-mode perf.data (perf record -o -): not supported";
	if (magic == PERF_FILE_MAGIC2_SWAPPED)
		return "a perf.data of the other byte order: not supported";
	if (h->len >= 8 && !memcmp(b, "PERFFILE", 8))
		return "a perf.data of the legacy format (PERFFILE): not supported";
	if (h->len < FILE_HDR_SZ || magic != PERF_FILE_MAGIC2 || (hsize != 104 && hsize != 72))
		return "incompatible file format (not a perf.data, or its header is cut short)";
	if (hsize == 104) /* 72: the format before feature bits */
		memcpy(h->feat, b + 72, sizeof(h->feat));
	if (!pf_get64(b + 16))
		return "the file's attr size field is 0 which is unexpected";
	if (!read_attrs(h, pf_get64(b + 16)))
		return "incompatible file format (its attrs or their ids are cut short or bad)";
	/* the sections' table follows the data, an entry a set bit */
	uint64_t table = pf_get64(b + 40) + pf_get64(b + 48);
	unsigned nsec = 0, k = 0;
	for (unsigned i = 0; i < PERF_FILE_FEAT_BITS / 64; i++)
		nsec += (unsigned)__builtin_popcountll(h->feat[i]);
	struct rd t = {b, table, h->len};
	/* perf reads no section then (nor, where it cannot lseek there, a
	 * table from where it was: garbage) */
	if (!seekable(h, table) || (uint64_t)nsec * 16 > rd_left(&t))
		nsec = 0;
	for (unsigned f = 0; nsec && f < NFEAT; f++) {
		if (!(h->feat[0] >> f & 1)) /* f < 64 */
			continue;
		h->sec[f].off = pf_get64(b + table + 16 * k);
		h->sec[f].size = pf_get64(b + table + 16 * k++ + 8);
		/* perf passes over a section it cannot lseek to */
		h->sec[f].present = seekable(h, h->sec[f].off);
	}
	for (unsigned f = 0; f < NFEAT; f++) {
		struct rd r = {b, h->sec[f].off, h->len};
		if (!h->sec[f].present)
			continue;
		h->sec[f].tried = true;
		if (!(h->sec[f].ok = feature(h, f, &r, NULL) == 0))
			break;
	}
	/* perf refuses a tracepoint it has no format for and, but for a STAT
	 * file, events whose records it cannot tell apart */
	for (unsigned i = 0; i < h->nr_ev; i++)
		if (pf_get32(h->ev[i].attr) == PERF_TYPE_TRACEPOINT && !h->tracing)
			return "incompatible file format (a tracepoint event without tracing data)";
	if (h->feat[0] >> PERF_FEAT_STAT & 1 || !h->nr_ev)
		return NULL;
	const uint8_t *first = h->ev[0].attr;
	uint64_t st = pf_get64(first + 24);
	for (unsigned i = 0; h->nr_ev > 1 && i < h->nr_ev; i++)
		if (id_pos(st) < 0 || id_pos(pf_get64(h->ev[i].attr + 24)) != id_pos(st))
			return "non matching sample_type";
	for (unsigned i = 1; i < h->nr_ev; i++)
		if ((pf_get64(h->ev[i].attr + 40) ^ pf_get64(first + 40)) >> 18 & 1)
			return "non matching sample_id_all";
	return st & PERF_SAMPLE_READ && !(pf_get64(first + 32) & PERF_FORMAT_ID)
	           ? "non matching read_format"
	           : NULL;
}

static void listing(struct hdr *h, const struct stat *st, bool full, FILE *o)
{
	char tbuf[64];
	const char *w;
	time_t mtime = st->st_mtime;
	uint64_t off = pf_get64(h->b + 40), size = pf_get64(h->b + 48);
	fprintf(o, "# ========\n# captured on    : %s", ctime_r(&mtime, tbuf) ? tbuf : "(null)");
	fprintf(o,
	        "# header version : 1\n# data offset    : %" PRIu64 "\n# data size      : %" PRIu64
	        "\n# feat offset    : %" PRIu64 "\n",
	        off, size, off + size);
	for (unsigned f = PERF_FEAT_TRACING_DATA; f < NFEAT; f++) {
		int wl = word(feat_names, ' ', f - 1, &w);
		struct rd r = {h->b, h->sec[f].off, h->len}, none = {h->b, 0, 0};
		if (!h->sec[f].present || f == PERF_FEAT_TRACING_DATA || f == PERF_FEAT_BUILD_ID)
			continue;
		if (FULL_ONLY >> f & 1 && !full)
			fprintf(o, "# %.*s info available, use -I to display\n", wl, w);
		else /* perf prints EVENT_DESC from the file, the others from its env */
			feature(h, f,
			        h->sec[f].ok || f == PERF_FEAT_EVENT_DESC ||
			                (PARTIAL >> f & 1 && h->sec[f].tried)
			            ? &r
			            : &none,
			        o);
	}
	fputs("# missing features: ", o);
	for (unsigned f = 1; f < NFEAT; f++) {
		int wl = word(feat_names, ' ', f - 1, &w);
		if (!(h->feat[0] >> f & 1))
			fprintf(o, "%.*s ", wl, w);
	}
	fputs("\n# ========\n#\n", o);
}

int rs_header_fprintf(const char *path, bool full, FILE *out, char *err, size_t errlen)
{
	struct hdr h = {0};
	struct stat st;
	char *data = NULL;
	void *map = MAP_FAILED;
	const char *why;
	int fd, rc = -1;
	/* a directory (perf record --threads): its header is in "data" */
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		h.dir = true;
		path = data = xasprintf("%s/data", path);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		str_seterr(err, errlen, "failed to open %s: %s", path, strerror(errno));
		goto out;
	}
	if (st.st_size <= 0) {
		str_seterr(err, errlen, "zero-sized data (%s), nothing to do!", path);
		goto out;
	}
	h.len = (uint64_t)st.st_size;
	h.fd = fd;
	map = mmap(NULL, (size_t)h.len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED || (h.b = map, why = read_header(&h))) {
		str_seterr(err, errlen, "%s: %s", path, map == MAP_FAILED ? strerror(errno) : why);
		goto out;
	}
	listing(&h, &st, full, out);
	if ((rc = fflush(out) || ferror(out) ? -1 : 0))
		str_seterr(err, errlen, "writing the header listing: %s", strerror(errno));
out:
	if (map != MAP_FAILED)
		munmap(map, (size_t)h.len);
	if (fd >= 0)
		close(fd);
	free(data);
	for (size_t i = 0; i < h.a.n; i++)
		free(h.a.p[i]);
	free(h.a.p);
	return rc;
}
