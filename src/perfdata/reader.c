/* reader.c: see reader.h. Every field is read with memcpy from a
 * bounds-checked offset: records are 8-byte aligned in a good file, but
 * the fuzz target's buffer and a damaged file need not be. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/reader.h"
#include "util/str.h"
#include "util/xalloc.h"

static void note(struct pd_file *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct pd_file *f, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	if (f->nr_note >= PD_NOTE_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	f->note[f->nr_note++] = xstrdup(buf);
}

bool pd_is_perf_data(const void *buf, size_t len)
{
	if (len < 8)
		return false;
	uint64_t m = pf_get64(buf);
	return m == PERF_FILE_MAGIC2 || m == PERF_FILE_MAGIC2_SWAPPED;
}

/* [off, off + n) lies in [0, lim). */
static bool fits(uint64_t off, uint64_t n, uint64_t lim)
{
	return off <= lim && n <= lim - off;
}

/* ------------------------------------------------------------ event ids */

static void id_insert(struct pd_file *f, uint64_t id, int ev)
{
	bool added;
	uint64_t *v = hpm_u64map_get(&f->id_ev, id, &added);
	if (added) /* the first attr with an id keeps it */
		*v = (uint64_t)ev;
}

int pd_event_of_id(const struct pd_file *f, uint64_t id)
{
	const uint64_t *v = hpm_u64map_find(&f->id_ev, id);
	return v ? (int)*v : -1;
}

/* One attr (size bytes at p, its own attr.size telling how much is the
 * attr) and its ids. */
static void add_event(struct pd_file *f, const uint8_t *p, uint64_t size, const uint8_t *ids,
                      uint64_t nr_ids)
{
	struct pd_event *e;
	f->ev = xgrow(f->ev, f->nr_ev, sizeof(*f->ev));
	e = &f->ev[f->nr_ev];
	memset(e, 0, sizeof(*e));
	uint64_t n = size < sizeof(e->attr) ? size : sizeof(e->attr);
	memcpy(&e->attr, p, n);
	if (e->attr.size && e->attr.size < n)
		memset((uint8_t *)&e->attr + e->attr.size, 0, n - e->attr.size);
	if (nr_ids > (1u << 24))
		nr_ids = 1u << 24;
	e->nr_ids = (unsigned)nr_ids;
	e->ids = nr_ids ? xcalloc(nr_ids, sizeof(uint64_t)) : NULL;
	f->nr_ev++;
	for (uint64_t i = 0; i < nr_ids; i++) {
		e->ids[i] = pf_get64(ids + 8 * i);
		id_insert(f, e->ids[i], (int)f->nr_ev - 1);
	}
}

/* --------------------------------------------------------------- features */

/* A perf string at *off in [*off, end): u32 len then len bytes holding a
 * NUL. */
static char *get_string(const uint8_t *b, uint64_t *off, uint64_t end)
{
	if (!fits(*off, 4, end))
		return NULL;
	uint32_t n = pf_get32(b + *off);
	if (!fits(*off + 4, n, end) || !n || !memchr(b + *off + 4, 0, n))
		return NULL;
	char *s = xstrdup((const char *)b + *off + 4);
	*off += 4 + (uint64_t)n;
	return s;
}

static bool read_build_ids(struct pd_file *f, const uint8_t *b, uint64_t off, uint64_t end)
{
	while (off < end) {
		if (!fits(off, sizeof(struct perf_event_header), end))
			return false;
		uint16_t misc, size;
		memcpy(&misc, b + off + 4, 2);
		memcpy(&size, b + off + 6, 2);
		/* header 8, pid 4, id 24, then the filename */
		if (size < 36 + 1 || !fits(off, size, end))
			return false;
		const uint8_t *p = b + off;
		if (!memchr(p + 36, 0, size - 36))
			return false;
		struct pd_build_id *bi;
		f->bid = xgrow(f->bid, f->nr_bid, sizeof(*f->bid));
		bi = &f->bid[f->nr_bid++];
		memcpy(&bi->pid, p + 8, 4);
		bi->misc = misc;
		memcpy(bi->id, p + 12, PERF_FILE_BUILD_ID_MAX);
		bi->size = (misc & PERF_FILE_MISC_BUILD_ID_SIZE) ? p[32] : PERF_FILE_BUILD_ID_MAX;
		if (bi->size > PERF_FILE_BUILD_ID_MAX)
			bi->size = PERF_FILE_BUILD_ID_MAX;
		bi->filename = xstrdup((const char *)p + 36);
		off += size;
	}
	return true;
}

static bool read_event_desc(struct pd_file *f, const uint8_t *b, uint64_t off, uint64_t end)
{
	if (!fits(off, 8, end))
		return false;
	uint32_t nr = pf_get32(b + off), asz = pf_get32(b + off + 4);
	off += 8;
	for (uint32_t i = 0; i < nr; i++) {
		if (!fits(off, asz, end))
			return false;
		off += asz;
		if (!fits(off, 4, end))
			return false;
		uint32_t nr_ids = pf_get32(b + off);
		off += 4;
		char *name = get_string(b, &off, end);
		if (!name || !fits(off, 8 * (uint64_t)nr_ids, end)) {
			free(name);
			return false;
		}
		/* the entry's event: by its first id, else by position */
		int ev = nr_ids ? pd_event_of_id(f, pf_get64(b + off)) : -1;
		if (ev < 0 && i < f->nr_ev)
			ev = (int)i;
		if (ev >= 0 && !f->ev[ev].name)
			f->ev[ev].name = name;
		else
			free(name);
		off += 8 * (uint64_t)nr_ids;
	}
	return true;
}

/* CPU_TOPOLOGY as perf's process_cpu_topology reads it: two lists of
 * strings (sibling cores, threads), then, where the section's size says a
 * newer perf wrote them, a core and a socket id per CPU of NRCPUS. perf
 * counts each string as written aligned to 64 (string_size), however it is
 * laid out, and drops the ids whose socket exceeds the CPU count (but on
 * s390 and arm64); then no CPU has a socket (perf_env's cpu NULL). */
static void read_cpu_topology(struct pd_file *f, const uint8_t *b, uint64_t off, uint64_t end)
{
	uint64_t size = 0, start = off;
	for (int list = 0; list < 2; list++) {
		if (!fits(off, 4, end))
			return;
		uint32_t n = pf_get32(b + off);
		off += 4;
		size += 4;
		for (uint32_t i = 0; i < n; i++) {
			if (!fits(off, 4, end))
				return;
			uint32_t len = pf_get32(b + off);
			const uint8_t *str = b + off + 4;
			if (!fits(off + 4, len, end) || !len || !memchr(str, 0, len))
				return;
			size += ((strlen((const char *)str) + 1 + 63) & ~(uint64_t)63) + 4;
			off += 4 + (uint64_t)len;
		}
	}
	uint32_t nr = f->nr_cpus_avail;
	if (end - start <= size || !nr || !fits(off, 8 * (uint64_t)nr, end))
		return;
	bool test = !f->arch || (strncmp(f->arch, "s390", 4) && strncmp(f->arch, "aarch64", 7));
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t socket = pf_get32(b + off + 8 * (uint64_t)i + 4);
		if (test && socket != UINT32_MAX && socket > nr)
			return;
	}
	f->cpu_ids = b + off;
}

static const char *const feat_names[] = {
    "reserved",        "tracing_data", "build_id",     "hostname",     "osrelease",
    "version",         "arch",         "nrcpus",       "cpudesc",      "cpuid",
    "total_mem",       "cmdline",      "event_desc",   "cpu_topology", "numa_topology",
    "branch_stack",    "pmu_mappings", "group_desc",   "auxtrace",     "stat",
    "cache",           "sample_time",  "mem_topology", "clockid",      "dir_format",
    "bpf_prog_info",   "bpf_btf",      "compressed",   "cpu_pmu_caps", "clock_data",
    "hybrid_topology", "pmu_caps"};

/* One feature section [off, off + size). Features a report has no use for
 * are skipped quietly; ones that change how the data must be read (a
 * compressed or directory file) and ones newer than perf 6.1 get a note. */
static const char *feat_name(unsigned feat)
{
	if (feat == PERF_FEAT_HPM_PMU)
		return "hpm_pmu";
	if (feat == PERF_FEAT_HPM_RUN)
		return "hpm_run";
	return feat < sizeof(feat_names) / sizeof(feat_names[0]) ? feat_names[feat] : "unknown";
}

/* false: the section lies beyond the end of the file (not read; the
 * caller says so, once for all such sections) */
static bool read_feature(struct pd_file *f, unsigned feat, uint64_t off, uint64_t size)
{
	const uint8_t *b = f->buf;
	uint64_t end = off + size;
	bool ok = true;
	if (!fits(off, size, f->len)) {
		f->partial = true;
		return false;
	}
	switch (feat) {
	case PERF_FEAT_BUILD_ID:
		ok = read_build_ids(f, b, off, end);
		break;
	case PERF_FEAT_HOSTNAME:
	case PERF_FEAT_OSRELEASE:
	case PERF_FEAT_VERSION:
	case PERF_FEAT_ARCH:
	case PERF_FEAT_CPUDESC:
	case PERF_FEAT_CPUID: {
		char **dst = feat == PERF_FEAT_HOSTNAME    ? &f->hostname
		             : feat == PERF_FEAT_OSRELEASE ? &f->osrelease
		             : feat == PERF_FEAT_VERSION   ? &f->version
		             : feat == PERF_FEAT_CPUID     ? &f->cpuid
		             : feat == PERF_FEAT_CPUDESC   ? &f->cpudesc
		                                           : &f->arch;
		char *s = get_string(b, &off, end);
		ok = s != NULL;
		if (s) {
			free(*dst);
			*dst = s;
		}
		break;
	}
	case PERF_FEAT_NRCPUS:
		ok = fits(off, 8, end);
		if (ok) {
			f->has_nrcpus = true;
			f->nr_cpus_avail = pf_get32(b + off);
			f->nr_cpus_online = pf_get32(b + off + 4);
		}
		break;
	case PERF_FEAT_SAMPLE_TIME:
		ok = fits(off, 16, end);
		if (ok) {
			f->has_sample_time = true;
			f->first_sample_time = pf_get64(b + off);
			f->last_sample_time = pf_get64(b + off + 8);
		}
		break;
	case PERF_FEAT_CMDLINE: {
		ok = fits(off, 4, end);
		if (!ok)
			break;
		uint32_t n = pf_get32(b + off);
		off += 4;
		for (uint32_t i = 0; i < n && ok; i++) {
			char *s = get_string(b, &off, end);
			ok = s != NULL;
			if (s) {
				f->cmdline =
				    xrealloc(f->cmdline, (f->nr_cmdline + 1) * sizeof(char *));
				f->cmdline[f->nr_cmdline++] = s;
			}
		}
		break;
	}
	case PERF_FEAT_CPU_TOPOLOGY:
		read_cpu_topology(f, b, off, end);
		break;
	case PERF_FEAT_EVENT_DESC:
		ok = read_event_desc(f, b, off, end);
		break;
	case PERF_FEAT_STAT:
		f->has_stat = true;
		break;
	case PERF_FEAT_HPM_RUN:
		f->hpm_run = b + off;
		f->hpm_run_len = size;
		break;
	case PERF_FEAT_HPM_PMU:
		free(f->hpm_pmu);
		f->hpm_pmu = get_string(b, &off, end);
		ok = f->hpm_pmu != NULL;
		break;
	case PERF_FEAT_COMPRESSED:
		note(f,
		     "skipped feature %u (compressed): the data's PERF_RECORD_COMPRESSED "
		     "records are not read",
		     feat);
		break;
	case PERF_FEAT_DIR_FORMAT:
		note(f, "skipped feature %u (dir_format): only the header file's data is read",
		     feat);
		break;
	default:
		if (feat > PERF_FEAT_LAST_KNOWN_6_1)
			note(f, "skipped feature %u (newer than this reader) by its size", feat);
		break;
	}
	if (!ok)
		note(f, "feature %u (%s) is malformed: not read", feat, feat_name(feat));
	return true;
}

/* ------------------------------------------------------------------ open */

static int open_common(struct pd_file *f, char *err, size_t errlen, const char *name)
{
	const uint8_t *b = f->buf;
	if (f->len < 8 || !pd_is_perf_data(b, f->len)) {
		str_seterr(err, errlen, "%s: not a perf.data file (no PERFILE2 magic)", name);
		return -1;
	}
	if (pf_get64(b) == PERF_FILE_MAGIC2_SWAPPED) {
		str_seterr(err, errlen,
		           "%s: a perf.data of the other byte order (written on a big-endian "
		           "machine): not supported",
		           name);
		return -1;
	}
	if (f->len < 16) {
		str_seterr(err, errlen, "%s: truncated perf.data header", name);
		return -1;
	}
	uint64_t hsize = pf_get64(b + 8);
	if (hsize == 16) {
		/* pipe mode: the stream follows the magic and size */
		f->pipe = true;
		f->data_off = 16;
		f->data_end = f->len;
		f->pos = 16;
		return 0;
	}
	if (hsize < sizeof(struct perf_file_header) || f->len < sizeof(struct perf_file_header)) {
		str_seterr(err, errlen, "%s: truncated perf.data header (%zu bytes)", name, f->len);
		return -1;
	}
	struct perf_file_header h;
	memcpy(&h, b, sizeof(h));
	if (h.attr_size < sizeof(struct perf_file_section) + 64 || h.attr_size > (1u << 16)) {
		str_seterr(err, errlen, "%s: attr size %llu is not perf's", name,
		           (unsigned long long)h.attr_size);
		return -1;
	}
	if (!fits(h.attrs.offset, h.attrs.size, f->len)) {
		str_seterr(err, errlen, "%s: truncated: the attrs section is not in the file",
		           name);
		return -1;
	}
	uint64_t nattr = h.attrs.size / h.attr_size;
	if (!nattr) {
		str_seterr(err, errlen, "%s: no events (empty attrs section)", name);
		return -1;
	}
	uint64_t asz = h.attr_size - sizeof(struct perf_file_section);
	for (uint64_t i = 0; i < nattr; i++) {
		const uint8_t *a = b + h.attrs.offset + i * h.attr_size;
		struct perf_file_section ids;
		memcpy(&ids, a + asz, sizeof(ids));
		uint64_t nr = ids.size / 8;
		if (!fits(ids.offset, nr * 8, f->len)) {
			note(f, "the ids of event %llu are not in the file", (unsigned long long)i);
			f->partial = true;
			nr = 0;
		}
		add_event(f, a, asz, nr ? b + ids.offset : b, nr);
	}
	f->data_off = h.data.offset;
	f->data_end = h.data.offset + h.data.size;
	if (h.data.offset > f->len || h.data.size > f->len - h.data.offset) {
		f->partial = true;
		note(f, "truncated: the data section ends at byte %llu, the file at %zu",
		     (unsigned long long)(h.data.offset + h.data.size), f->len);
		f->data_end = f->len;
		if (f->data_off > f->len)
			f->data_off = f->len;
	}
	f->pos = f->data_off;
	/* the feature sections' table follows the data section */
	uint64_t sec = h.data.offset + h.data.size;
	char beyond[256] = "";
	size_t nb = 0;
	for (unsigned bit = 1; bit < PERF_FILE_FEAT_BITS; bit++) {
		if (!(h.adds_features[bit / 64] >> (bit % 64) & 1))
			continue;
		if (!fits(sec, sizeof(struct perf_file_section), f->len)) {
			if (!f->partial)
				note(f, "truncated: the feature sections are not in the file");
			f->partial = true;
			break;
		}
		struct perf_file_section s;
		memcpy(&s, b + sec, sizeof(s));
		sec += sizeof(s);
		if (!read_feature(f, bit, s.offset, s.size) && nb < sizeof(beyond))
			nb += (size_t)snprintf(beyond + nb, sizeof(beyond) - nb, "%s%s",
			                       nb ? ", " : "", feat_name(bit));
	}
	if (nb)
		note(f, "the feature sections %s lie beyond the end of the file: not read", beyond);
	return 0;
}

int pd_open_buffer(struct pd_file *f, const void *buf, size_t len, char *err, size_t errlen)
{
	memset(f, 0, sizeof(*f));
	f->buf = buf;
	f->len = len;
	if (open_common(f, err, errlen, "input") != 0) {
		pd_close(f);
		return -1;
	}
	return 0;
}

int pd_open(struct pd_file *f, const char *path, char *err, size_t errlen)
{
	memset(f, 0, sizeof(*f));
	/* O_NONBLOCK: a FIFO's open would wait for a writer (it is refused
	 * below); a regular file's reads through mmap are unaffected */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		str_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	int rc = pd_open_fd(f, fd, path, err, errlen);
	close(fd);
	return rc;
}

int pd_open_fd(struct pd_file *f, int fd, const char *name, char *err, size_t errlen)
{
	struct stat st;
	memset(f, 0, sizeof(*f));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		str_seterr(err, errlen, "%s: not a regular file", name);
		return -1;
	}
	if (st.st_size == 0) {
		str_seterr(err, errlen, "%s: empty file, not a perf.data", name);
		return -1;
	}
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		str_seterr(err, errlen, "%s: %s", name, strerror(errno));
		return -1;
	}
	madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
	f->buf = m;
	f->len = (size_t)st.st_size;
	f->mapped = true;
	if (open_common(f, err, errlen, name) != 0) {
		pd_close(f);
		return -1;
	}
	return 0;
}

void pd_close(struct pd_file *f)
{
	if (f->mapped)
		munmap((void *)(uintptr_t)f->buf, f->len);
	for (unsigned i = 0; i < f->nr_ev; i++) {
		free(f->ev[i].name);
		free(f->ev[i].ids);
	}
	free(f->ev);
	free(f->hostname);
	free(f->osrelease);
	free(f->version);
	free(f->arch);
	free(f->cpuid);
	free(f->cpudesc);
	free(f->hpm_pmu);
	for (unsigned i = 0; i < f->nr_cmdline; i++)
		free(f->cmdline[i]);
	free(f->cmdline);
	for (unsigned i = 0; i < f->nr_bid; i++)
		free(f->bid[i].filename);
	free(f->bid);
	for (unsigned i = 0; i < f->nr_note; i++)
		free(f->note[i]);
	hpm_u64map_free(&f->id_ev);
	memset(f, 0, sizeof(*f));
}

/* --------------------------------------------------------------- records */

/* The event of a sample: perf requires every event of a file to place the
 * id alike, so the first event's sample_type says where it is. */
static int sample_event(const struct pd_file *f, const uint8_t *p, uint64_t n)
{
	if (f->nr_ev <= 1)
		return f->nr_ev ? 0 : -1;
	uint64_t st = f->ev[0].attr.sample_type;
	uint64_t pos;
	if (st & PERF_SAMPLE_IDENTIFIER)
		pos = 0;
	else if (st & PERF_SAMPLE_ID)
		pos = !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
		      !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR);
	else
		return 0;
	if ((pos + 1) * 8 > n)
		return -1;
	return pd_event_of_id(f, pf_get64(p + pos * 8));
}

/* The sample_id_all trailer at the end of [p, p + n): its time. */
static void trailer(const struct pd_file *f, struct pd_record *r, const uint8_t *p, uint64_t n)
{
	if (!f->nr_ev || !f->ev[0].attr.sample_id_all)
		return;
	uint64_t st = f->ev[0].attr.sample_type;
	uint64_t after = 0; /* u64s after the wanted field */
	int ev = f->nr_ev == 1 ? 0 : -1;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		if (n >= 8 && f->nr_ev > 1)
			ev = pd_event_of_id(f, pf_get64(p + n - 8));
		after++;
	}
	if (st & PERF_SAMPLE_CPU)
		after++;
	if (st & PERF_SAMPLE_STREAM_ID)
		after++;
	if ((st & PERF_SAMPLE_ID) && ev < 0 && n >= (after + 1) * 8 && f->nr_ev > 1)
		ev = pd_event_of_id(f, pf_get64(p + n - (after + 1) * 8));
	if (st & PERF_SAMPLE_ID)
		after++;
	r->ev = ev;
	if ((st & PERF_SAMPLE_TIME) && n >= (after + 1) * 8) {
		r->has_time = true;
		r->time = pf_get64(p + n - (after + 1) * 8);
	}
}

static bool parse_sample(const struct pd_file *f, struct pd_record *r, const uint8_t *p, uint64_t n)
{
	struct pd_sample *s = &r->u.sample;
	uint64_t o = 0;
	r->ev = sample_event(f, p, n);
	if (r->ev < 0)
		return true; /* kept as a sample of no event: the caller counts it */
	const struct perf_event_attr *a = &f->ev[r->ev].attr;
	uint64_t st = a->sample_type;
#define TAKE(dst)                                                                                  \
	do {                                                                                       \
		if (o + 8 > n)                                                                     \
			return false;                                                              \
		dst = pf_get64(p + o);                                                             \
		o += 8;                                                                            \
	} while (0)
	uint64_t skip;
	if (st & PERF_SAMPLE_IDENTIFIER)
		TAKE(skip);
	(void)skip;
	if (st & PERF_SAMPLE_IP)
		TAKE(s->ip);
	if (st & PERF_SAMPLE_TID) {
		if (o + 8 > n)
			return false;
		s->pid = pf_get32(p + o);
		s->tid = pf_get32(p + o + 4);
		o += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		TAKE(s->time);
		r->has_time = true;
		r->time = s->time;
	}
	if (st & PERF_SAMPLE_ADDR)
		TAKE(s->addr);
	if (st & PERF_SAMPLE_ID)
		TAKE(s->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		TAKE(s->stream_id);
	if (st & PERF_SAMPLE_CPU) {
		if (o + 8 > n)
			return false;
		s->cpu = pf_get32(p + o);
		o += 8;
	}
	if (st & PERF_SAMPLE_PERIOD)
		TAKE(s->period);
	else
		s->period = a->freq ? 1 : a->sample_period;
	if (st & PERF_SAMPLE_READ) {
		uint64_t rf = a->read_format;
		unsigned stride = 8 * (1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST));
		if (rf & PERF_FORMAT_GROUP) {
			TAKE(s->read_nr);
			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
				TAKE(s->time_enabled);
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
				TAKE(s->time_running);
			if (s->read_nr > (n - o) / stride)
				return false;
			s->read_values = p + o;
			s->read_stride = stride;
			o += s->read_nr * stride;
		} else {
			/* value, [enabled], [running], [id], [lost]: the
			 * value and its id are apart (pd_read_value) */
			uint64_t te = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED),
			         tr = !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
			uint64_t total = stride + 8 * (te + tr);
			if (o + total > n)
				return false;
			s->read_nr = 1;
			s->read_values = p + o;
			s->read_stride = 0;
			if (te)
				s->time_enabled = pf_get64(p + o + 8);
			if (tr)
				s->time_running = pf_get64(p + o + 8 + 8 * te);
			o += total;
		}
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		TAKE(s->callchain_nr);
		if (s->callchain_nr > (n - o) / 8)
			return false;
		s->callchain = p + o;
		o += 8 * s->callchain_nr;
	}
	if (st & PERF_SAMPLE_RAW) {
		if (o + 4 > n || pf_get32(p + o) > n - o - 4)
			return false;
		o += 4 + pf_get32(p + o);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		/* nr, hw_idx with PERF_SAMPLE_BRANCH_HW_INDEX, nr {from, to,
		 * flags} */
		TAKE(s->branch_nr);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			TAKE(skip);
		if (s->branch_nr > (n - o) / 24)
			return false;
		s->branches = p + o;
		o += 24 * s->branch_nr;
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		/* abi (0: no registers: a kernel thread), then one u64 per bit
		 * of sample_regs_user */
		TAKE(s->regs_abi);
		if (s->regs_abi) {
			unsigned nr = (unsigned)__builtin_popcountll(a->sample_regs_user);
			if (nr > (n - o) / 8)
				return false;
			s->regs = p + o;
			s->regs_mask = a->sample_regs_user;
			o += 8 * (uint64_t)nr;
		}
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		/* size, data[size], and with a size the bytes the kernel
		 * actually copied (dyn_size) */
		uint64_t size;
		TAKE(size);
		if (size) {
			if (size > n - o || n - o - size < 8)
				return false;
			s->stack = p + o;
			uint64_t dyn = pf_get64(p + o + size);
			s->stack_size = dyn < size ? dyn : size;
			o += size + 8;
		}
	}
#undef TAKE
	return true;
}

uint64_t pd_sample_reg(const struct pd_sample *s, unsigned reg, bool *ok)
{
	*ok = s->regs && reg < 64 && (s->regs_mask >> reg & 1);
	if (!*ok)
		return 0;
	unsigned at = (unsigned)__builtin_popcountll(s->regs_mask & ((1ULL << reg) - 1));
	return pf_get64(s->regs + 8 * at);
}

void pd_branch(const struct pd_sample *s, uint64_t i, uint64_t *from, uint64_t *to)
{
	*from = pf_get64(s->branches + 24 * i);
	*to = pf_get64(s->branches + 24 * i + 8);
}

uint64_t pd_callchain_ip(const struct pd_sample *s, uint64_t i)
{
	return pf_get64(s->callchain + 8 * i);
}

void pd_read_value(const struct pd_file *f, const struct pd_record *r, uint64_t i, uint64_t *value,
                   uint64_t *id)
{
	const struct pd_sample *s = &r->u.sample;
	uint64_t rf = r->ev >= 0 ? f->ev[r->ev].attr.read_format : 0;
	*value = *id = 0;
	if (!s->read_values || i >= s->read_nr)
		return;
	if (s->read_stride) {
		const uint8_t *e = s->read_values + i * s->read_stride;
		*value = pf_get64(e);
		if (rf & PERF_FORMAT_ID)
			*id = pf_get64(e + 8);
		return;
	}
	*value = pf_get64(s->read_values);
	if (rf & PERF_FORMAT_ID) {
		unsigned k = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		             !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
		*id = pf_get64(s->read_values + 8 * k);
	}
}

/* A NUL-terminated string at p + o inside [p, p + n). */
static const char *str_in(const uint8_t *p, uint64_t o, uint64_t n)
{
	if (o >= n || !memchr(p + o, 0, n - o))
		return NULL;
	return (const char *)p + o;
}

/* Parses the record at off (its header already checked to fit). false:
 * its body is malformed. */
static bool parse(struct pd_file *f, uint64_t off, struct pd_record *r)
{
	const uint8_t *h = f->buf + off;
	memset(r, 0, sizeof(*r));
	r->type = pf_get32(h);
	memcpy(&r->misc, h + 4, 2);
	memcpy(&r->size, h + 6, 2);
	r->offset = off;
	r->ev = -1;
	const uint8_t *p = h + 8;
	uint64_t n = r->size - 8;
	switch (r->type) {
	case PERF_RECORD_SAMPLE:
		return parse_sample(f, r, p, n);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		uint64_t fo = r->type == PERF_RECORD_MMAP ? 32 : 64;
		if (n < fo + 1)
			return false;
		r->u.mmap.pid = pf_get32(p);
		r->u.mmap.tid = pf_get32(p + 4);
		r->u.mmap.start = pf_get64(p + 8);
		r->u.mmap.len = pf_get64(p + 16);
		r->u.mmap.pgoff = pf_get64(p + 24);
		if (r->type == PERF_RECORD_MMAP2) {
			r->u.mmap.maj = pf_get32(p + 32);
			r->u.mmap.min = pf_get32(p + 36);
			r->u.mmap.ino = pf_get64(p + 40);
			r->u.mmap.ino_generation = pf_get64(p + 48);
			r->u.mmap.prot = pf_get32(p + 56);
			r->u.mmap.flags = pf_get32(p + 60);
		}
		if (r->type == PERF_RECORD_MMAP2 && (r->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
			uint8_t sz = p[32];
			if (sz > 20)
				sz = 20;
			r->u.mmap.build_id_size = sz;
			r->u.mmap.build_id = p + 36;
		}
		r->u.mmap.filename = str_in(p, fo, n);
		if (!r->u.mmap.filename)
			return false;
		uint64_t used = (fo + strlen(r->u.mmap.filename) + 1 + 7) & ~7ULL;
		if (used < n)
			trailer(f, r, p + used, n - used);
		return true;
	}
	case PERF_RECORD_COMM: {
		if (n < 9)
			return false;
		r->u.comm.pid = pf_get32(p);
		r->u.comm.tid = pf_get32(p + 4);
		r->u.comm.exec = (r->misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
		r->u.comm.comm = str_in(p, 8, n);
		if (!r->u.comm.comm)
			return false;
		uint64_t used = (8 + strlen(r->u.comm.comm) + 1 + 7) & ~7ULL;
		if (used < n)
			trailer(f, r, p + used, n - used);
		return true;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (n < 24)
			return false;
		r->u.task.pid = pf_get32(p);
		r->u.task.ppid = pf_get32(p + 4);
		r->u.task.tid = pf_get32(p + 8);
		r->u.task.ptid = pf_get32(p + 12);
		r->has_time = true;
		r->time = pf_get64(p + 16);
		if (n > 24)
			trailer(f, r, p + 24, n - 24);
		return true;
	case PERF_RECORD_LOST_SAMPLES:
		if (n < 8)
			return false;
		r->u.lost.lost = pf_get64(p);
		if (n > 8)
			trailer(f, r, p + 8, n - 8);
		return true;
	case PERF_RECORD_LOST:
		if (n < 16)
			return false;
		r->u.lost.id = pf_get64(p);
		r->u.lost.lost = pf_get64(p + 8);
		r->ev = pd_event_of_id(f, r->u.lost.id);
		if (n > 16)
			trailer(f, r, p + 16, n - 16);
		return true;
	case PERF_RECORD_STAT:
		/* id, cpu, thread, then value, enabled, running */
		if (n < 40)
			return false;
		r->u.stat.id = pf_get64(p);
		r->u.stat.cpu = pf_get32(p + 8);
		r->u.stat.thread = pf_get32(p + 12);
		r->u.stat.val = pf_get64(p + 16);
		r->u.stat.ena = pf_get64(p + 24);
		r->u.stat.run = pf_get64(p + 32);
		r->ev = pd_event_of_id(f, r->u.stat.id);
		return true;
	case PERF_RECORD_STAT_ROUND:
		if (n < 16)
			return false;
		r->u.stat_round.type = pf_get64(p);
		r->u.stat_round.time = pf_get64(p + 8);
		return true;
	case PERF_RECORD_STAT_CONFIG: {
		if (n < 8)
			return false;
		uint64_t nr = pf_get64(p);
		if (nr > (n - 8) / 16)
			return false;
		r->u.stat_config.aggr_mode = PERF_STAT_AGGR_GLOBAL;
		r->u.stat_config.scale = 1;
		for (uint64_t i = 0; i < nr; i++) {
			uint64_t tag = pf_get64(p + 8 + 16 * i), val = pf_get64(p + 16 + 16 * i);
			if (tag == PERF_STAT_CONFIG_AGGR_MODE)
				r->u.stat_config.aggr_mode = val;
			else if (tag == PERF_STAT_CONFIG_INTERVAL)
				r->u.stat_config.interval = val;
			else if (tag == PERF_STAT_CONFIG_SCALE)
				r->u.stat_config.scale = val;
		}
		return true;
	}
	case PERF_RECORD_EVENT_UPDATE:
		if (n < 16)
			return false;
		r->u.update.type = pf_get64(p);
		r->u.update.id = pf_get64(p + 8);
		r->ev = pd_event_of_id(f, r->u.update.id);
		if (r->u.update.type == PERF_EVENT_UPDATE_SCALE) {
			if (n < 24)
				return false;
			memcpy(&r->u.update.scale, p + 16, 8);
		} else if (r->u.update.type == PERF_EVENT_UPDATE_UNIT ||
		           r->u.update.type == PERF_EVENT_UPDATE_NAME) {
			r->u.update.str = str_in(p, 16, n);
			if (!r->u.update.str)
				return false;
		}
		return true;
	default:
		return true;
	}
}

static bool known_type(uint32_t t)
{
	return (t > 0 && t < PERF_RECORD_MAX) ||
	       (t >= PERF_RECORD_HEADER_ATTR && t < PERF_RECORD_USER_MAX_6_1);
}

/* A record pd_next returns without reading it (pd_file.every) */
static void bare(const struct pd_file *f, struct pd_record *r, uint64_t off, uint32_t type,
                 uint16_t size)
{
	memset(r, 0, sizeof(*r));
	r->type = type;
	memcpy(&r->misc, f->buf + off + 4, 2);
	r->size = size;
	r->offset = off;
	r->ev = -1;
	r->unread = true;
}

int pd_next(struct pd_file *f, struct pd_record *r)
{
	for (;;) {
		uint64_t off = f->pos;
		if (off >= f->data_end)
			return 0;
		if (!fits(off, 8, f->data_end)) {
			note(f,
			     "truncated: %llu bytes at the end of the data section are not a "
			     "whole record",
			     (unsigned long long)(f->data_end - off));
			f->partial = true;
			f->pos = f->data_end;
			return 0;
		}
		uint16_t size;
		uint32_t type = pf_get32(f->buf + off);
		memcpy(&size, f->buf + off + 6, 2);
		if (size < 8) {
			note(f, "record at byte %llu has size %u: the data stops there",
			     (unsigned long long)off, size);
			f->partial = true;
			f->pos = f->data_end;
			return 0;
		}
		if (!fits(off, size, f->data_end)) {
			note(f,
			     "record at byte %llu (type %u, %u bytes) goes beyond the data "
			     "section: the data stops there",
			     (unsigned long long)off, type, size);
			f->partial = true;
			f->pos = f->data_end;
			return 0;
		}
		f->pos = off + size;
		if (!known_type(type)) {
			if (f->every) {
				bare(f, r, off, type, size);
				return 1;
			}
			if (type < 256 && !(f->warned_type[type / 8] & (1u << (type % 8)))) {
				f->warned_type[type / 8] |= (uint8_t)(1u << (type % 8));
				note(f, "skipped records of unknown type %u by their size", type);
			}
			continue;
		}
		if (type == PERF_RECORD_HEADER_ATTR) {
			/* the attr (its own size), then its ids */
			const uint8_t *p = f->buf + off + 8;
			uint32_t asz = size >= 8 + 72 ? pf_get32(p + 4) : 0;
			if (asz < 64 || asz > (uint32_t)size - 8) {
				note(f, "HEADER_ATTR record at byte %llu is malformed: skipped",
				     (unsigned long long)off);
				continue;
			}
			add_event(f, p, asz, p + asz, (size - 8 - asz) / 8);
		} else if (type == PERF_RECORD_HEADER_FEATURE) {
			if (size >= 16) {
				uint64_t feat = pf_get64(f->buf + off + 8);
				if (feat < PERF_FILE_FEAT_BITS)
					if (!read_feature(f, (unsigned)feat, off + 16, size - 16))
						note(f,
						     "feature %u (%s) lies beyond the end of the "
						     "file: not read",
						     (unsigned)feat, feat_name((unsigned)feat));
			}
		}
		if (!parse(f, off, r)) {
			note(f, "record at byte %llu (type %u) is malformed: skipped",
			     (unsigned long long)off, type);
			if (f->every) {
				bare(f, r, off, type, size);
				return 1;
			}
			continue;
		}
		return 1;
	}
}

int pd_read_at(struct pd_file *f, uint64_t off, struct pd_record *r)
{
	if (!fits(off, 8, f->data_end))
		return 0;
	uint16_t size;
	memcpy(&size, f->buf + off + 6, 2);
	if (size < 8 || !fits(off, size, f->data_end))
		return 0;
	return parse(f, off, r) ? 1 : 0;
}

/* perf's evsel__add_modifiers: ":" and the levels counted (k, u, h) when
 * one is excluded, the precision ("p", "pp", "ppp"), H and G when the
 * host or guest is excluded otherwise than by default; appended to the
 * name in buf. */
static void add_modifiers(const struct perf_event_attr *a, char *buf, size_t len)
{
	char m[16];
	size_t r = 0;
	bool guest_default = false;
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			m[r++] = 'k';
		if (!a->exclude_user)
			m[r++] = 'u';
		if (!a->exclude_hv)
			m[r++] = 'h';
		guest_default = true;
	}
	for (unsigned p = 0; p < a->precise_ip && p < 3; p++)
		m[r++] = 'p';
	guest_default |= a->precise_ip != 0;
	if (a->exclude_host || a->exclude_guest == guest_default) {
		if (!a->exclude_host)
			m[r++] = 'H';
		if (!a->exclude_guest)
			m[r++] = 'G';
	}
	size_t n = strlen(buf);
	if (r && n + 1 < len)
		snprintf(buf + n, len - n, ":%.*s", (int)r, m);
}

/* An event's name made from its attr alone (the file names none), with
 * perf's modifiers when modifiers. */
static const char *attr_name(const struct perf_event_attr *a, char *buf, size_t len, bool modifiers)
{
	static const char *const sw[] = {
	    "cpu-clock",        "task-clock",   "page-faults",  "context-switches",
	    "cpu-migrations",   "minor-faults", "major-faults", "alignment-faults",
	    "emulation-faults", "dummy",        "bpf-output",   "cgroup-switches"};
	static const char *const hw[] = {"cycles",
	                                 "instructions",
	                                 "cache-references",
	                                 "cache-misses",
	                                 "branches",
	                                 "branch-misses",
	                                 "bus-cycles",
	                                 "stalled-cycles-frontend",
	                                 "stalled-cycles-backend",
	                                 "ref-cycles"};
	/* without the file's name (HEADER_EVENT_DESC), perf's evsel__name
	 * before its modifiers */
	if (a->type == PERF_TYPE_SOFTWARE && a->config < sizeof(sw) / sizeof(sw[0]))
		snprintf(buf, len, "%s", sw[a->config]);
	else if (a->type == PERF_TYPE_HARDWARE && a->config < sizeof(hw) / sizeof(hw[0]))
		snprintf(buf, len, "%s", hw[a->config]);
	else if (a->type == PERF_TYPE_RAW)
		snprintf(buf, len, "raw 0x%llx", (unsigned long long)a->config);
	else {
		snprintf(buf, len, "type %u config 0x%llx", a->type, (unsigned long long)a->config);
		return buf; /* not perf's name: no modifiers */
	}
	if (modifiers)
		add_modifiers(a, buf, len);
	return buf;
}

/* An event's name: the file's, else made from its attr. */
static const char *event_name(const struct pd_file *f, unsigned i, char *buf, size_t len,
                              bool modifiers)
{
	if (i >= f->nr_ev)
		return "unknown";
	if (f->ev[i].name)
		return f->ev[i].name;
	return attr_name(&f->ev[i].attr, buf, len, modifiers);
}

const char *pd_event_name(const struct pd_file *f, unsigned i, char *buf, size_t len)
{
	return event_name(f, i, buf, len, true);
}

const char *pd_event_base_name(const struct pd_file *f, unsigned i, char *buf, size_t len)
{
	return event_name(f, i, buf, len, false);
}

const char *pd_attr_name(const struct perf_event_attr *a, char *buf, size_t len)
{
	return attr_name(a, buf, len, true);
}

/* ----------------------------------------------------------- cpu lists */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int pd_cpu_list(const char *s, char *buf, size_t len)
{
	int *cpu = NULL, rc = -1;
	size_t n = 0, k = 0;
	char *p = NULL;
	buf[0] = 0;
	if (!isdigit((unsigned char)*s) && *s)
		return -1;
	/* perf_cpu_map__new: numbers (strtoul's, any base) and ranges below
	 * INT_MAX, each CPU once; the rest of s after a list is ignored */
	while (isdigit((unsigned char)*s)) {
		unsigned long start = strtoul(s, &p, 0), end = start;
		if (start >= INT_MAX || (*p && *p != ',' && *p != '-'))
			goto out;
		if (*p == '-') {
			s = ++p;
			end = strtoul(s, &p, 0);
			if (end >= INT_MAX || (*p && *p != ',') || end < start)
				goto out;
		}
		if (end - start >= (1u << 20) - n) /* perf would take hours */
			goto out;
		for (; start <= end; start++) {
			cpu = xgrow(cpu, n, sizeof(*cpu));
			cpu[n++] = (int)start;
		}
		s = *p ? p + 1 : p;
	}
	if (n)
		qsort(cpu, n, sizeof(*cpu), cmp_int);
	for (size_t i = 1; i < n; i++)
		if (cpu[i] == cpu[i - 1])
			goto out;
	if (!n) /* perf's dummy map */
		snprintf(buf, len, "-1");
	/* cpu_map__snprint: ranges of consecutive CPUs */
	for (size_t i = 0, start = 0; i < n; i++) {
		if (i + 1 < n && cpu[i + 1] == cpu[i] + 1)
			continue;
		int w = start == i ? snprintf(buf + k, len - k, "%s%d", start ? "," : "", cpu[i])
		                   : snprintf(buf + k, len - k, "%s%d-%d", start ? "," : "",
		                              cpu[start], cpu[i]);
		k = w >= 0 && k + (size_t)w < len ? k + (size_t)w : len - 1;
		start = i + 1;
	}
	rc = 0;
out:
	free(cpu);
	return rc;
}
