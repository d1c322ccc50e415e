/* record-maps.c: the processes' maps and the DSOs a recording's samples
 * hit, kept from the MMAP2, COMM, FORK and SAMPLE records as they are
 * written (and the synthesized maps), so that the file's build-id table
 * lists the DSOs with samples, as perf's build-id.c marks them; see
 * record-int.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "record/record-int.h"
#include "util/xalloc.h"

struct rec_proc *record_proc_get(struct hpm_record *r, pid_t pid, bool create)
{
	unsigned h = (unsigned)pid % PROC_HASH;
	for (struct rec_proc *p = r->procs[h]; p; p = p->next)
		if (p->pid == pid)
			return p;
	if (!create)
		return NULL;
	struct rec_proc *p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	p->next = r->procs[h];
	r->procs[h] = p;
	return p;
}

static unsigned dso_get(struct hpm_record *r, const char *filename, const uint8_t *id,
                        unsigned size)
{
	for (unsigned i = 0; i < r->nr_dsos; i++)
		if (!r->dsos[i].from_file && r->dsos[i].size == size &&
		    memcmp(r->dsos[i].id, id, size) == 0 &&
		    strcmp(r->dsos[i].filename, filename) == 0)
			return i;
	r->dsos = xrealloc(r->dsos, (r->nr_dsos + 1) * sizeof(*r->dsos));
	struct rec_dso *d = &r->dsos[r->nr_dsos];
	memset(d, 0, sizeof(*d));
	d->filename = xstrdup(filename);
	if (size)
		memcpy(d->id, id, size);
	d->size = size;
	return r->nr_dsos++;
}

/* The DSO of a file a synthesized map names; its build id is read from
 * the file at the end, for the DSOs with samples only (as perf does). */
unsigned record_dso_of_file(struct hpm_record *r, const char *filename)
{
	for (unsigned i = 0; i < r->nr_dsos; i++)
		if (r->dsos[i].from_file && strcmp(r->dsos[i].filename, filename) == 0)
			return i;
	unsigned d = dso_get(r, filename, NULL, 0);
	r->dsos[d].from_file = true;
	return d;
}

void record_proc_add_map(struct rec_proc *p, uint64_t start, uint64_t len, unsigned dso)
{
	/* a new map over an old range replaces it (munmap is not recorded) */
	for (unsigned i = 0; i < p->nr;)
		if (p->maps[i].start < start + len && start < p->maps[i].end)
			p->maps[i] = p->maps[--p->nr];
		else
			i++;
	if (p->nr == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->maps = xrealloc(p->maps, p->cap * sizeof(*p->maps));
	}
	p->maps[p->nr++] = (struct rec_map){start, start + len, dso};
}

/* MMAP2 with the kernel's build id: remember where that DSO is. */
void record_note_mmap2(struct hpm_record *r, const struct perf_event_header *h)
{
	if (!(h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID))
		return;
	const char *p = (const char *)(h + 1);
	uint32_t pid;
	uint64_t start, len;
	uint8_t bsize;
	memcpy(&pid, p, 4);
	memcpy(&start, p + 8, 8);
	memcpy(&len, p + 16, 8);
	memcpy(&bsize, p + 32, 1);
	const uint8_t *bid = (const uint8_t *)p + 36;
	const char *name = p + 32 + 24 + 8;
	size_t maxlen = h->size - sizeof(*h) - (32 + 24 + 8);
	if (h->size < sizeof(*h) + 32 + 24 + 8 + 1 || bsize > PERF_FILE_BUILD_ID_MAX ||
	    !memchr(name, '\0', maxlen))
		return;
	unsigned d = dso_get(r, name, bid, bsize);
	record_proc_add_map(record_proc_get(r, (pid_t)pid, true), start, len, d);
}

void record_proc_free(struct rec_proc *p)
{
	free(p->maps);
	free(p);
}

void record_note_exec(struct hpm_record *r, pid_t pid)
{
	struct rec_proc *p = record_proc_get(r, pid, false);
	if (p)
		p->nr = 0;
}

void record_note_fork(struct hpm_record *r, const struct perf_event_header *h)
{
	uint32_t v[4]; /* pid, ppid, tid, ptid */
	memcpy(v, h + 1, sizeof(v));
	if (v[0] == v[1])
		return; /* a thread: it shares its process's maps */
	struct rec_proc *parent = record_proc_get(r, (pid_t)v[1], false);
	if (!parent || !parent->nr)
		return;
	struct rec_proc *child = record_proc_get(r, (pid_t)v[0], true);
	child->nr = 0;
	for (unsigned i = 0; i < parent->nr; i++)
		record_proc_add_map(child, parent->maps[i].start,
		                    parent->maps[i].end - parent->maps[i].start,
		                    parent->maps[i].dso);
	r->last_proc = NULL;
}

void record_note_sample(struct hpm_record *r, const struct perf_event_header *h)
{
	const uint64_t *p = (const uint64_t *)(h + 1);
	uint64_t ip = p[0];
	uint32_t pid;
	uint64_t t = p[2];
	memcpy(&pid, &p[1], 4);
	if (!r->first_time || t < r->first_time)
		r->first_time = t;
	if (t > r->last_time)
		r->last_time = t;
	unsigned mode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (mode == PERF_RECORD_MISC_KERNEL) {
		r->kernel_hit = true;
		return;
	}
	if (mode != PERF_RECORD_MISC_USER)
		return;
	struct rec_proc *pr = r->last_proc && r->last_proc->pid == (pid_t)pid
	                          ? r->last_proc
	                          : record_proc_get(r, (pid_t)pid, false);
	if (!pr)
		return;
	r->last_proc = pr;
	for (unsigned i = 0; i < pr->nr; i++)
		if (ip >= pr->maps[i].start && ip < pr->maps[i].end) {
			r->dsos[pr->maps[i].dso].hit = true;
			return;
		}
}
