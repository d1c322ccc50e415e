/* writer.c: perf.data's PERFILE2 layout, as perf 6.1 writes it (see
 * writer.h and perf-file.h). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "perfdata/writer.h"
#include "util/xalloc.h"

/* perf pads the strings of feature sections to 64 bytes (its NAME_ALIGN);
 * a reader takes any length, but perf's own files are the model. */
#define NAME_ALIGN 64

struct build_id_entry {
	int32_t pid;
	uint16_t misc;
	uint8_t id[PERF_FILE_BUILD_ID_MAX];
	unsigned size;
	char *filename;
};

/* An event as the writer keeps it: copies of the caller's. */
struct wevent {
	struct perf_event_attr attr;
	char *name;
	uint64_t *ids;
	unsigned nr_ids;
};

struct group_entry {
	char *name;
	uint32_t leader, nr_members;
};

struct perf_writer {
	FILE *f;
	struct wevent *ev;
	unsigned nr_ev;
	uint64_t data_offset, data_size;
	int err; /* the first failed write */
	char *strings[PERF_FILE_FEAT_BITS];
	char **cmdline;
	unsigned nr_cmdline;
	bool has_nrcpus, has_mem, has_time;
	struct perf_file_nr_cpus nrcpus;
	uint64_t total_mem;
	uint64_t first_time, last_time;
	struct build_id_entry *bids;
	unsigned nr_bids;
	struct group_entry *groups;
	unsigned nr_groups;
	bool has_stat; /* STAT: the file holds perf stat record's counts */
	char *hpm_run; /* HPM_RUN: the run file's bytes */
	size_t hpm_run_len;
	/* perf's pipe format: no header to rewrite, the attrs and features
	 * are records in the stream */
	bool pipe;
	bool sent[PERF_FILE_FEAT_BITS]; /* pipe: features already in the stream */
	uint64_t written;               /* bytes put (a pipe's size) */
};

static void put(struct perf_writer *w, const void *p, size_t n)
{
	if (w->err || !n)
		return;
	if (fwrite(p, 1, n, w->f) != n)
		w->err = errno ? -errno : -EIO;
	w->written += n;
}

static int64_t pos(struct perf_writer *w)
{
	long p = ftell(w->f);
	if (p < 0 && !w->err)
		w->err = -errno;
	return p;
}

static void put_u32(struct perf_writer *w, uint32_t v)
{
	put(w, &v, sizeof(v));
}

/* A string of a feature section: its padded length, then the string and
 * NULs up to that length (perf's do_write_string). */
static void put_string(struct perf_writer *w, const char *s)
{
	static const char zeros[NAME_ALIGN];
	size_t olen = strlen(s) + 1;
	size_t len = (olen + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
	put_u32(w, (uint32_t)len);
	put(w, s, olen);
	put(w, zeros, len - olen);
}

static void free_events(struct perf_writer *w)
{
	for (unsigned i = 0; i < w->nr_ev; i++) {
		free(w->ev[i].ids);
		free(w->ev[i].name);
	}
	free(w->ev);
}

/* Whether the file has feature f: what the setters gave. */
static bool feature_on(const struct perf_writer *w, unsigned f)
{
	switch (f) {
	case PERF_FEAT_BUILD_ID:
		return w->nr_bids > 0;
	case PERF_FEAT_CMDLINE:
		return w->cmdline != NULL;
	case PERF_FEAT_NRCPUS:
		return w->has_nrcpus;
	case PERF_FEAT_TOTAL_MEM:
		return w->has_mem;
	case PERF_FEAT_EVENT_DESC:
		return w->nr_ev > 0;
	case PERF_FEAT_SAMPLE_TIME:
		return w->has_time;
	case PERF_FEAT_GROUP_DESC:
		return w->nr_groups > 0;
	case PERF_FEAT_STAT:
		return w->has_stat;
	case PERF_FEAT_HPM_RUN:
		return w->hpm_run != NULL;
	default:
		return w->strings[f] != NULL;
	}
}

/* The header as it stands: the data size grows until finish. */
static void put_header(struct perf_writer *w, uint64_t attrs_offset)
{
	struct perf_file_header h;
	memset(&h, 0, sizeof(h));
	h.magic = PERF_FILE_MAGIC2;
	h.size = sizeof(h);
	h.attr_size = sizeof(struct perf_file_attr);
	h.attrs.offset = attrs_offset;
	h.attrs.size = w->nr_ev * sizeof(struct perf_file_attr);
	h.data.offset = w->data_offset;
	h.data.size = w->data_size;
	for (unsigned f = 0; f < PERF_FILE_FEAT_BITS; f++)
		if (feature_on(w, f))
			h.adds_features[f / 64] |= 1ULL << (f % 64);
	put(w, &h, sizeof(h));
}

/* A writer on f with copies of the events. */
static struct perf_writer *writer_new(FILE *f, const struct perf_writer_event *ev, unsigned nr)
{
	struct perf_writer *w = xcalloc(1, sizeof(*w));
	w->f = f;
	w->ev = xcalloc(nr ? nr : 1, sizeof(*w->ev));
	w->nr_ev = nr;
	for (unsigned i = 0; i < nr; i++) {
		w->ev[i].attr = ev[i].attr;
		w->ev[i].nr_ids = ev[i].nr_ids;
		uint64_t *ids = xmalloc((ev[i].nr_ids ? ev[i].nr_ids : 1) * sizeof(*ids));
		if (ev[i].nr_ids)
			memcpy(ids, ev[i].ids, ev[i].nr_ids * sizeof(*ids));
		w->ev[i].ids = ids;
		w->ev[i].name = xstrdup(ev[i].name ? ev[i].name : "");
	}
	return w;
}

int perf_writer_start(FILE *f, const struct perf_writer_event *ev, unsigned nr,
                      struct perf_writer **out)
{
	if (fseek(f, 0, SEEK_SET) != 0)
		return errno == ESPIPE || errno == EBADF ? -ESPIPE : -errno;
	struct perf_writer *w = writer_new(f, ev, nr);
	/* header, then each event's ids, then the attrs pointing at them;
	 * the data follows (perf's own order) */
	put_header(w, 0);
	uint64_t off = sizeof(struct perf_file_header);
	struct perf_file_attr *fa = xcalloc(nr ? nr : 1, sizeof(*fa));
	for (unsigned i = 0; i < nr; i++) {
		fa[i].attr = w->ev[i].attr;
		fa[i].ids.offset = off;
		fa[i].ids.size = w->ev[i].nr_ids * sizeof(uint64_t);
		put(w, w->ev[i].ids, fa[i].ids.size);
		off += fa[i].ids.size;
	}
	uint64_t attrs = off;
	put(w, fa, nr * sizeof(*fa));
	free(fa);
	w->data_offset = attrs + nr * sizeof(struct perf_file_attr);
	/* the header again, now that the attrs' place is known */
	if (!w->err && fseek(f, 0, SEEK_SET) != 0)
		w->err = -errno;
	put_header(w, attrs);
	if (!w->err && fseek(f, (long)w->data_offset, SEEK_SET) != 0)
		w->err = -errno;
	if (w->err) {
		int e = w->err;
		perf_writer_free(w);
		return e;
	}
	*out = w;
	return 0;
}

/* perf's pipe header: the magic and its own size, nothing else */
struct pipe_header {
	uint64_t magic;
	uint64_t size;
};

int perf_writer_start_pipe(FILE *f, const struct perf_writer_event *ev, unsigned nr,
                           struct perf_writer **out)
{
	struct perf_writer *w = writer_new(f, ev, nr);
	w->pipe = true;
	struct pipe_header ph = {PERF_FILE_MAGIC2, sizeof(ph)};
	put(w, &ph, sizeof(ph));
	/* one HEADER_ATTR record per event: the attr, then its ids */
	for (unsigned i = 0; i < nr && !w->err; i++) {
		size_t size = sizeof(struct perf_event_header) + sizeof(w->ev[i].attr) +
		              w->ev[i].nr_ids * sizeof(uint64_t);
		if (size > UINT16_MAX) {
			w->err = -E2BIG;
			break;
		}
		struct perf_event_header h = {PERF_RECORD_HEADER_ATTR, 0, (uint16_t)size};
		put(w, &h, sizeof(h));
		put(w, &w->ev[i].attr, sizeof(w->ev[i].attr));
		put(w, w->ev[i].ids, w->ev[i].nr_ids * sizeof(uint64_t));
	}
	if (w->err) {
		int e = w->err;
		perf_writer_free(w);
		return e;
	}
	*out = w;
	return 0;
}

int perf_writer_add(struct perf_writer *w, const void *rec, size_t size)
{
	put(w, rec, size);
	if (!w->err)
		w->data_size += size;
	return w->err;
}

uint64_t perf_writer_data_size(const struct perf_writer *w)
{
	return w->data_size;
}

int perf_writer_set_string(struct perf_writer *w, enum perf_file_feature f, const char *s)
{
	switch (f) {
	case PERF_FEAT_HOSTNAME:
	case PERF_FEAT_OSRELEASE:
	case PERF_FEAT_VERSION:
	case PERF_FEAT_ARCH:
	case PERF_FEAT_CPUDESC:
	case PERF_FEAT_CPUID:
	case PERF_FEAT_HPM_PMU:
		break;
	default:
		return -EINVAL;
	}
	free(w->strings[f]);
	w->strings[f] = xstrdup(s);
	return 0;
}

void perf_writer_set_cmdline(struct perf_writer *w, const char *exe, int argc, char *const *argv)
{
	for (unsigned i = 0; i < w->nr_cmdline; i++)
		free(w->cmdline[i]);
	free(w->cmdline);
	w->nr_cmdline = (unsigned)argc + 1;
	w->cmdline = xcalloc(w->nr_cmdline, sizeof(*w->cmdline));
	w->cmdline[0] = xstrdup(exe);
	for (int i = 0; i < argc; i++)
		w->cmdline[i + 1] = xstrdup(argv[i]);
}

void perf_writer_set_nrcpus(struct perf_writer *w, uint32_t available, uint32_t online)
{
	w->has_nrcpus = true;
	w->nrcpus.nr_cpus_available = available;
	w->nrcpus.nr_cpus_online = online;
}

void perf_writer_set_total_mem(struct perf_writer *w, uint64_t kb)
{
	w->has_mem = true;
	w->total_mem = kb;
}

void perf_writer_set_sample_time(struct perf_writer *w, uint64_t first, uint64_t last)
{
	w->has_time = true;
	w->first_time = first;
	w->last_time = last;
}

void perf_writer_add_build_id(struct perf_writer *w, int32_t pid, uint16_t misc, const uint8_t *id,
                              unsigned size, const char *filename)
{
	if (size > PERF_FILE_BUILD_ID_MAX)
		size = PERF_FILE_BUILD_ID_MAX;
	w->bids = xrealloc(w->bids, (w->nr_bids + 1) * sizeof(*w->bids));
	struct build_id_entry *b = &w->bids[w->nr_bids++];
	memset(b, 0, sizeof(*b));
	b->pid = pid;
	b->misc = misc;
	memcpy(b->id, id, size);
	b->size = size;
	b->filename = xstrdup(filename);
}

void perf_writer_add_group(struct perf_writer *w, const char *name, uint32_t leader,
                           uint32_t nr_members)
{
	w->groups = xrealloc(w->groups, (w->nr_groups + 1) * sizeof(*w->groups));
	w->groups[w->nr_groups].name = xstrdup(name ? name : "{anon_group}");
	w->groups[w->nr_groups].leader = leader;
	w->groups[w->nr_groups].nr_members = nr_members;
	w->nr_groups++;
}

void perf_writer_set_stat(struct perf_writer *w)
{
	w->has_stat = true;
}

void perf_writer_set_hpm_run(struct perf_writer *w, const char *run, size_t len)
{
	free(w->hpm_run);
	w->hpm_run = xmalloc(len ? len : 1);
	memcpy(w->hpm_run, run, len);
	w->hpm_run_len = len;
}

static void put_feature(struct perf_writer *w, unsigned f)
{
	switch (f) {
	case PERF_FEAT_STAT:
		break; /* its bit is all it says (perf's write_stat is empty) */
	case PERF_FEAT_HPM_RUN:
		put(w, w->hpm_run, w->hpm_run_len);
		break;
	case PERF_FEAT_BUILD_ID:
		for (unsigned i = 0; i < w->nr_bids; i++) {
			static const char zeros[NAME_ALIGN];
			const struct build_id_entry *b = &w->bids[i];
			struct perf_file_build_id e;
			size_t olen = strlen(b->filename) + 1;
			size_t len = (olen + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
			memset(&e, 0, sizeof(e));
			e.header.type = PERF_RECORD_HEADER_BUILD_ID;
			e.header.misc = (uint16_t)(b->misc | PERF_FILE_MISC_BUILD_ID_SIZE);
			e.header.size = (uint16_t)(sizeof(e) + len);
			e.pid = b->pid;
			memcpy(e.id.data, b->id, b->size);
			e.id.size = (uint8_t)b->size;
			put(w, &e, sizeof(e));
			put(w, b->filename, olen);
			put(w, zeros, len - olen);
		}
		break;
	case PERF_FEAT_CMDLINE:
		put_u32(w, w->nr_cmdline);
		for (unsigned i = 0; i < w->nr_cmdline; i++)
			put_string(w, w->cmdline[i]);
		break;
	case PERF_FEAT_NRCPUS:
		put(w, &w->nrcpus, sizeof(w->nrcpus));
		break;
	case PERF_FEAT_TOTAL_MEM:
		put(w, &w->total_mem, sizeof(w->total_mem));
		break;
	case PERF_FEAT_SAMPLE_TIME:
		put(w, &w->first_time, sizeof(w->first_time));
		put(w, &w->last_time, sizeof(w->last_time));
		break;
	case PERF_FEAT_GROUP_DESC:
		/* u32 groups, then per group: its name, the leader's index
		 * among the attrs, the number of members with the leader */
		put_u32(w, w->nr_groups);
		for (unsigned i = 0; i < w->nr_groups; i++) {
			put_string(w, w->groups[i].name);
			put_u32(w, w->groups[i].leader);
			put_u32(w, w->groups[i].nr_members);
		}
		break;
	case PERF_FEAT_EVENT_DESC:
		/* u32 events, u32 attr size, then per event: the attr, u32 ids,
		 * its name, the ids (perf's write_event_desc) */
		put_u32(w, w->nr_ev);
		put_u32(w, (uint32_t)sizeof(struct perf_event_attr));
		for (unsigned i = 0; i < w->nr_ev; i++) {
			put(w, &w->ev[i].attr, sizeof(w->ev[i].attr));
			put_u32(w, w->ev[i].nr_ids);
			put_string(w, w->ev[i].name);
			put(w, w->ev[i].ids, w->ev[i].nr_ids * sizeof(uint64_t));
		}
		break;
	default:
		put_string(w, w->strings[f]);
	}
}

/* Pipe format: feature f as a HEADER_FEATURE record (its body rendered
 * first, for the record's size). */
static void put_feature_record(struct perf_writer *w, unsigned f)
{
	char *body = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&body, &len);
	if (!mem) {
		if (!w->err)
			w->err = -errno;
		return;
	}
	FILE *real = w->f;
	w->f = mem;
	put_feature(w, f);
	w->f = real;
	if (fclose(mem) != 0 && !w->err)
		w->err = -ENOMEM;
	struct {
		struct perf_event_header h;
		uint64_t feat_id;
	} rec = {{PERF_RECORD_HEADER_FEATURE, 0, 0}, f};
	if (sizeof(rec) + len > UINT16_MAX) {
		if (!w->err)
			w->err = -E2BIG;
	} else {
		rec.h.size = (uint16_t)(sizeof(rec) + len);
		put(w, &rec, sizeof(rec));
		put(w, body, len);
	}
	free(body);
}

/* Pipe format: every feature set and not yet sent, in increasing order;
 * build ids as HEADER_BUILD_ID records, which perf reads in a stream.
 * hpmstat's own features stay out: perf warns of a feature record newer
 * than it knows ("invalid record type"), where a file's section it passes
 * over by its size. */
static void put_pipe_features(struct perf_writer *w)
{
	for (unsigned f = 0; f <= PERF_FEAT_LAST_KNOWN_6_1; f++) {
		if (!feature_on(w, f) || w->sent[f])
			continue;
		w->sent[f] = true;
		if (f == PERF_FEAT_BUILD_ID)
			put_feature(w, f); /* its entries are HEADER_BUILD_ID records */
		else
			put_feature_record(w, f);
	}
}

int perf_writer_put_features(struct perf_writer *w)
{
	if (w->pipe)
		put_pipe_features(w);
	return w->err;
}

static int finish_pipe(struct perf_writer *w, uint64_t *size)
{
	put_pipe_features(w);
	if (size)
		*size = w->written;
	if (!w->err && fflush(w->f) != 0)
		w->err = -errno;
	int e = w->err;
	perf_writer_free(w);
	return e;
}

int perf_writer_finish(struct perf_writer *w, uint64_t *size)
{
	if (w->pipe)
		return finish_pipe(w, size);
	/* the feature table sits right after the data (perf looks for it at
	 * data.offset + data.size), one section per bit set, bodies after */
	int64_t end = (int64_t)(w->data_offset + w->data_size);
	if (!w->err && fseek(w->f, (long)end, SEEK_SET) != 0)
		w->err = -errno;
	unsigned feats[PERF_FILE_FEAT_BITS], nr = 0;
	for (unsigned f = 0; f < PERF_FILE_FEAT_BITS; f++)
		if (feature_on(w, f))
			feats[nr++] = f;
	struct perf_file_section *sec = xcalloc(nr ? nr : 1, sizeof(*sec));
	put(w, sec, nr * sizeof(*sec));
	for (unsigned i = 0; i < nr; i++) {
		int64_t start = pos(w);
		put_feature(w, feats[i]);
		sec[i].offset = (uint64_t)start;
		sec[i].size = (uint64_t)(pos(w) - start);
	}
	if (size)
		*size = (uint64_t)pos(w);
	if (!w->err && fseek(w->f, (long)end, SEEK_SET) != 0)
		w->err = -errno;
	put(w, sec, nr * sizeof(*sec));
	free(sec);
	/* the header last, with the final data size: until here a reader
	 * of the file would have seen the data size of the start */
	uint64_t attrs = sizeof(struct perf_file_header);
	for (unsigned i = 0; i < w->nr_ev; i++)
		attrs += w->ev[i].nr_ids * sizeof(uint64_t);
	if (!w->err && fseek(w->f, 0, SEEK_SET) != 0)
		w->err = -errno;
	put_header(w, attrs);
	if (!w->err && fflush(w->f) != 0)
		w->err = -errno;
	int e = w->err;
	perf_writer_free(w);
	return e;
}

void perf_writer_free(struct perf_writer *w)
{
	if (!w)
		return;
	free_events(w);
	for (unsigned f = 0; f < PERF_FILE_FEAT_BITS; f++)
		free(w->strings[f]);
	for (unsigned i = 0; i < w->nr_cmdline; i++)
		free(w->cmdline[i]);
	free(w->cmdline);
	for (unsigned i = 0; i < w->nr_bids; i++)
		free(w->bids[i].filename);
	free(w->bids);
	for (unsigned i = 0; i < w->nr_groups; i++)
		free(w->groups[i].name);
	free(w->groups);
	free(w->hpm_run);
	free(w);
}

int perf_writer_begin(FILE *f, const struct perf_writer_event *ev, unsigned nr, bool pipe,
                      struct perf_writer **out)
{
	return pipe ? perf_writer_start_pipe(f, ev, nr, out) : perf_writer_start(f, ev, nr, out);
}

const char *perf_writer_strerror(int err)
{
	if (err == -ESPIPE)
		return "perf.data is rewritten at the end, which this output cannot be "
		       "(-o - writes perf's pipe format)";
	return strerror(-err);
}

void perf_writer_set_host(struct perf_writer *w)
{
	struct utsname u;
	if (uname(&u) == 0) {
		perf_writer_set_string(w, PERF_FEAT_HOSTNAME, u.nodename);
		perf_writer_set_string(w, PERF_FEAT_OSRELEASE, u.release);
		perf_writer_set_string(w, PERF_FEAT_ARCH, u.machine);
	}
	perf_writer_set_string(w, PERF_FEAT_VERSION, "hpmstat " PACKAGE_VERSION);
}
