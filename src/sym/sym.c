/* sym.c: the symbolizer's address maps, processes, DSO cache, kernel
 * symbols, declared tables and the lookup itself (sym.h). The ELF files
 * are read by sym-elf.c; without libelf the stand-ins at the end say so.
 *
 * Speed: a report resolves every sample, so everything on that path is a
 * binary search over sorted arrays or a descent of a treap, with the last
 * process, the last map and each map's last function remembered (samples
 * come in runs). Nothing a file chooses can make a path quadratic: the
 * processes and DSOs are hashed with a key drawn at run time
 * (util/hash.h), and a process's maps are a treap whose priorities come
 * from that key, so a map costs O(log n) whatever order the MMAP records
 * come in.
 */
#include "sym/sym.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym/sym-int.h"
#include "util/hash.h"
#include "util/xalloc.h"

struct sym_map {
	uint64_t start, end;
	/* the process's treap: ordered by start, a heap by prio (beside start
	 * and end: a lookup's descent reads one cache line a node) */
	struct sym_map *left, *right;
	uint64_t pgoff;
	struct sym_dso *dso;
	/* the build id the MMAP2 record carried, if any */
	uint8_t bid[SYM_BUILD_ID_MAX];
	uint8_t bid_len;
	/* the last function found through this map, valid for dso->gen */
	const struct sym_fn *last;
	unsigned last_gen;
	uint64_t prio;
};

struct sym_proc {
	pid_t pid;
	bool dead;
	unsigned gen;         /* bumped when the maps change (invalidates the cache) */
	struct sym_map *maps; /* the treap's root; maps do not overlap */
	size_t n;
	struct sym_map *last;
};

struct ksym {
	uint64_t addr;
	const char *name;
	const char *mod; /* "[mod]", or NULL for the kernel itself */
	bool text;
	bool
	    sized; /* a type perf keeps (symbol_type__filter: T, W, D, B): it ends the one before */
	unsigned rank; /* among aliases, higher preferred (as sym-elf.c) */
	size_t seq;    /* the line: on a full tie the first one wins */
};

/* The last answers, by address: profiles sample the same few addresses
 * over and over, and a hit here skips every search. An entry is good
 * while its process's maps (proc->gen) and the tables and recorded build
 * ids (hpm_syms.gen) are as they were. */
#define SYM_CACHE_SIZE 8192
struct sym_cache_ent {
	uint64_t addr;
	const struct sym_proc *proc; /* NULL: the kernel */
	unsigned pgen, sgen;
	bool used;
	struct hpm_sym_loc loc;
};

struct hpm_syms {
	struct sym_cache_ent *cache;
	unsigned gen;
	char **retired; /* strings of replaced tables (see retire) */
	size_t nretired, capretired;
	char *kallsyms_path; /* NULL: none wanted */
	char *debug_dir;
	char *kernel_notes;     /* NULL: no build id check of the kernel */
	unsigned char demangle; /* sym_dso's: 0 none, 1 perf's, 2 with parameters */
	/* the key of the DSO and process tables and of the maps' priorities */
	struct hpm_hash_key key;
	uint64_t nr_prio;
	/* DSOs by name: open addressing, power-of-two size */
	struct sym_dso **dsos;
	size_t ndsos, capdsos;
	/* processes in the order they came, and their index by pid */
	struct sym_proc **procs;
	size_t nprocs, capprocs;
	struct hpm_u64map proc_of_pid;
	struct sym_proc *last_proc;
	/* the kernel's maps (space KERNEL): an address in none is perf's
	 * [unknown] */
	struct sym_proc kernel;
	/* kallsyms, loaded at the first kernel address */
	bool ks_loaded;
	char *ks_buf;
	struct ksym *ks;
	size_t nks;
	/* the kernel's map as perf sizes it from kallsyms (map__fixup_start
	 * and map__fixup_end): from its first kept symbol to the end of its
	 * last, the next page past it; 0 when not known */
	uint64_t ks_map_size;
	char *ks_why;
};

/* ------------------------------------------------------------ DSOs */

/* *why becomes the formatted reason (a DSO's, the kernel symbols'). */
static void why_vset(char **why, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void why_vset(char **why, const char *fmt, va_list ap)
{
	char buf[512];
	vsnprintf(buf, sizeof buf, fmt, ap);
	free(*why);
	*why = xstrdup(buf);
}

void sym_dso_set_why(struct sym_dso *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	why_vset(&d->why, fmt, ap);
	va_end(ap);
}

void sym_dso_add_fn(struct sym_dso *d, uint64_t start, uint64_t size, const char *name,
                    uint64_t limit, unsigned rank)
{
	struct sym_fn *f;

	if (d->nfns == d->capfns) {
		d->capfns = d->capfns ? 2 * d->capfns : 64;
		d->fns = xreallocarray(d->fns, d->capfns, sizeof *d->fns);
	}
	if (d->nstrs == d->capstrs) {
		d->capstrs = d->capstrs ? 2 * d->capstrs : 64;
		d->strs = xreallocarray(d->strs, d->capstrs, sizeof *d->strs);
	}
	d->strs[d->nstrs] = xstrdup(name);
	f = &d->fns[d->nfns++];
	f->start = start;
	f->end = start + size;
	f->name = d->strs[d->nstrs++];
	f->limit = limit;
	f->rank = rank;
	f->seq = d->nfns - 1;
}

/* perf's last word among equal aliases: not the old "SyS" syscall ones */
static bool is_sys_alias(const char *name)
{
	return !strncmp(name, "SyS", 3) || !strncmp(name, "compat_SyS", 10);
}

static int fn_cmp(const void *a, const void *b)
{
	const struct sym_fn *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* the preferred one first: it is kept */
	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	if (is_sys_alias(x->name) != is_sys_alias(y->name))
		return is_sys_alias(x->name) ? 1 : -1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int fn_cmp_seq(const void *a, const void *b)
{
	const struct sym_fn *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorted, one function per address, and zero-size symbols stretched up to
 * the next one within their section. The one kept among aliases is the
 * one perf keeps: perf first stretches zero-size symbols to the next
 * symbol, which gives a size only to the last alias read (the others end
 * where it starts), and then prefers sized symbols (see SYM_RANK_SIZED). */
static void dso_finish(struct sym_dso *d)
{
	size_t i, n = 0;

	if (d->nfns) {
		qsort(d->fns, d->nfns, sizeof *d->fns, fn_cmp_seq);
		for (i = 0; i < d->nfns; i++)
			if (d->fns[i].end == d->fns[i].start &&
			    (i + 1 == d->nfns || d->fns[i + 1].start != d->fns[i].start))
				d->fns[i].rank |= SYM_RANK_SIZED;
		qsort(d->fns, d->nfns, sizeof *d->fns, fn_cmp);
	}
	for (i = 0; i < d->nfns; i++) {
		if (n && d->fns[n - 1].start == d->fns[i].start)
			continue;
		d->fns[n++] = d->fns[i];
	}
	d->nfns = n;
	for (i = 0; i < n; i++) {
		struct sym_fn *f = &d->fns[i];

		if (f->end > f->start)
			continue;
		f->end = f->limit > f->start ? f->limit : f->start;
		if (i + 1 < n && d->fns[i + 1].start < f->end)
			f->end = d->fns[i + 1].start;
	}
	d->gen++;
}

static void dso_clear_fns(struct sym_dso *d)
{
	size_t i;

	for (i = 0; i < d->nstrs; i++)
		free(d->strs[i]);
	free(d->strs);
	free(d->fns);
	d->strs = NULL;
	d->fns = NULL;
	d->nstrs = d->capstrs = d->nfns = d->capfns = 0;
}

static void dso_free(struct sym_dso *d)
{
	dso_clear_fns(d);
	free(d->segs);
	free(d->why);
	free(d->name);
	free(d);
}

static uint64_t hash_str(const struct hpm_syms *s, const char *str)
{
	return hpm_hash_bytes(&s->key, str, strlen(str));
}

static struct sym_dso *dso_get(struct hpm_syms *s, const char *name)
{
	size_t i, mask;
	struct sym_dso *d;

	if (2 * (s->ndsos + 1) > s->capdsos) {
		size_t cap = s->capdsos ? 2 * s->capdsos : 64, j;
		struct sym_dso **t = xcalloc(cap, sizeof *t);

		for (j = 0; j < s->capdsos; j++) {
			if (!s->dsos[j])
				continue;
			i = hash_str(s, s->dsos[j]->name) & (cap - 1);
			while (t[i])
				i = (i + 1) & (cap - 1);
			t[i] = s->dsos[j];
		}
		free(s->dsos);
		s->dsos = t;
		s->capdsos = cap;
	}
	mask = s->capdsos - 1;
	for (i = hash_str(s, name) & mask; s->dsos[i]; i = (i + 1) & mask)
		if (!strcmp(s->dsos[i]->name, name))
			return s->dsos[i];
	d = xcalloc(1, sizeof *d);
	d->name = xstrdup(name);
	s->dsos[i] = d;
	s->ndsos++;
	return d;
}

/* Maps with no ELF file behind them: anonymous memory, the heap, the
 * stack, JIT code; perf shows these without names too. */
static bool no_file(const char *name)
{
	return !strcmp(name, "//anon") || !strncmp(name, "[anon", 5) ||
	       !strncmp(name, "/memfd:", 7) || !strncmp(name, "/dev/", 5) ||
	       !strncmp(name, "/SYSV", 5) || (name[0] == '[' && strcmp(name, "[vdso]"));
}

/* A file deleted since it was mapped shows as "path (deleted)": perf
 * reads path, and so does this (its build id says if it is another). */
static void load_file(struct hpm_syms *s, struct sym_dso *d)
{
	static const char deleted[] = " (deleted)";
	size_t n = strlen(d->name), k = sizeof deleted - 1;

	if (n > k && !strcmp(d->name + n - k, deleted)) {
		char *path = xstrndup(d->name, n - k);

		sym_elf_load_file(d, path, s->debug_dir);
		free(path);
	} else {
		sym_elf_load_file(d, d->name, s->debug_dir);
	}
}

static void dso_load(struct hpm_syms *s, struct sym_dso *d)
{
	if (d->loaded)
		return;
	d->loaded = true;
	d->demangle = s->demangle;
	if (!strcmp(d->name, "[vdso]"))
		sym_elf_load_vdso(d);
	else if (no_file(d->name))
		sym_dso_set_why(d, "no file behind the map");
	else
		load_file(s, d);
	dso_finish(d);
}

/* ------------------------------------------------------------ processes */

static void maps_free(struct sym_map *t)
{
	while (t) {
		struct sym_map *r = t->right;

		maps_free(t->left); /* the treap's depth: O(log n) expected */
		free(t);
		t = r;
	}
}

static void proc_clear(struct sym_proc *p)
{
	p->gen++;
	maps_free(p->maps);
	p->maps = NULL;
	p->n = 0;
	p->last = NULL;
	p->dead = false;
}

static struct sym_proc *proc_find(struct hpm_syms *s, pid_t pid)
{
	const uint64_t *i;

	if (s->last_proc && s->last_proc->pid == pid)
		return s->last_proc;
	i = hpm_u64map_find(&s->proc_of_pid, (uint32_t)pid);
	if (!i)
		return NULL;
	s->last_proc = s->procs[*i];
	return s->last_proc;
}

static struct sym_proc *proc_get(struct hpm_syms *s, pid_t pid)
{
	bool added;
	uint64_t *i = hpm_u64map_get(&s->proc_of_pid, (uint32_t)pid, &added);
	struct sym_proc *p;

	if (!added)
		return s->procs[*i];
	if (s->nprocs == s->capprocs) {
		s->capprocs = s->capprocs ? 2 * s->capprocs : 16;
		s->procs = xreallocarray(s->procs, s->capprocs, sizeof *s->procs);
	}
	p = xcalloc(1, sizeof *p);
	p->pid = pid;
	*i = s->nprocs;
	s->procs[s->nprocs++] = p;
	return p;
}

/* ---------------------------------------------------- a process's maps */

/* The treap's priorities: a keyed hash of a counter, which no file can
 * predict, so the tree is balanced whatever the order of the maps. */
static struct sym_map *map_new(struct hpm_syms *s, const struct sym_map *m)
{
	struct sym_map *n = xmalloc(sizeof *n);

	*n = *m;
	n->left = n->right = NULL;
	n->prio = hpm_hash_u64(&s->key, ++s->nr_prio);
	return n;
}

/* t into *lo (maps starting before start) and *hi (the others). */
static void maps_split(struct sym_map *t, uint64_t start, struct sym_map **lo, struct sym_map **hi)
{
	while (t) {
		if (t->start < start) {
			*lo = t;
			lo = &t->right;
			t = t->right;
		} else {
			*hi = t;
			hi = &t->left;
			t = t->left;
		}
	}
	*lo = *hi = NULL;
}

/* Every map of a starts before every map of b. */
static struct sym_map *maps_join(struct sym_map *a, struct sym_map *b)
{
	struct sym_map *root = NULL, **at = &root;

	while (a && b) {
		if (a->prio >= b->prio) {
			*at = a;
			at = &a->right;
			a = a->right;
		} else {
			*at = b;
			at = &b->left;
			b = b->left;
		}
	}
	*at = a ? a : b;
	return root;
}

static struct sym_map *maps_max(struct sym_map *t)
{
	while (t && t->right)
		t = t->right;
	return t;
}

static size_t maps_count(const struct sym_map *t)
{
	size_t n = 0;

	for (; t; t = t->right)
		n += 1 + maps_count(t->left);
	return n;
}

static struct sym_map *maps_copy(struct hpm_syms *s, const struct sym_map *t)
{
	struct sym_map *c;

	if (!t)
		return NULL;
	c = map_new(s, t);
	c->prio = t->prio;
	c->left = maps_copy(s, t->left);
	c->right = maps_copy(s, t->right);
	return c;
}

/* The new map replaces whatever part of the old ones it overlaps, as a
 * new mmap() does in the process: the maps it covers whole go (each map
 * goes once, so this costs O(log n) a map over a stream); one that starts
 * before it keeps its head, one that ends after it its tail. */
static void proc_add_map(struct hpm_syms *s, struct sym_proc *p, const struct sym_map *m)
{
	struct sym_map *before, *rest, *covered, *after, *o, *tail = NULL;

	maps_split(p->maps, m->start, &before, &rest);
	o = maps_max(before);
	if (o && o->end > m->start) {
		o->last = NULL;
		if (o->end > m->end) { /* m lies inside o */
			tail = map_new(s, o);
			tail->pgoff += m->end - o->start;
			tail->start = m->end;
		}
		o->end = m->start;
	}
	maps_split(rest, m->end, &covered, &after);
	o = maps_max(covered);
	if (o && o->end > m->end) {
		tail = map_new(s, o);
		tail->last = NULL;
		tail->pgoff += m->end - o->start;
		tail->start = m->end;
	}
	p->n -= maps_count(covered);
	maps_free(covered);
	p->n += 1 + (tail != NULL);
	p->maps = maps_join(maps_join(before, map_new(s, m)), maps_join(tail, after));
	p->last = NULL;
	p->gen++;
}

static struct sym_map *proc_map_at(struct sym_proc *p, uint64_t addr)
{
	struct sym_map *t = p->maps, *at = NULL;

	if (p->last && addr >= p->last->start && addr < p->last->end)
		return p->last;
	while (t) { /* the last map starting at or before addr */
		if (t->start <= addr) {
			at = t;
			t = t->right;
		} else {
			t = t->left;
		}
	}
	if (at && addr < at->end) {
		p->last = at;
		return at;
	}
	return NULL;
}

/* ------------------------------------------------------------ API */

int hpm_syms_new(const struct hpm_syms_opts *opts, struct hpm_syms **out)
{
	struct hpm_syms *s = xcalloc(1, sizeof *s);
	const char *ks = opts && opts->kallsyms ? opts->kallsyms : "/proc/kallsyms";
	const char *dd = opts && opts->debug_dir ? opts->debug_dir : "/usr/lib/debug";

	s->kallsyms_path = *ks ? xstrdup(ks) : NULL;
	s->debug_dir = xstrdup(dd);
	if (opts && opts->kernel_notes)
		s->kernel_notes = *opts->kernel_notes ? xstrdup(opts->kernel_notes) : NULL;
	else if (!opts || !opts->kallsyms)
		s->kernel_notes = xstrdup("/sys/kernel/notes");
	s->demangle = opts && opts->no_demangle ? 0 : opts && opts->demangle_params ? 2 : 1;
	s->kernel.pid = -1;
	hpm_hash_key_new(&s->key);
	s->cache = xcalloc(SYM_CACHE_SIZE, sizeof *s->cache);
	*out = s;
	return 0;
}

void hpm_syms_free(struct hpm_syms *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->capdsos; i++)
		if (s->dsos[i])
			dso_free(s->dsos[i]);
	free(s->dsos);
	for (i = 0; i < s->nprocs; i++) {
		proc_clear(s->procs[i]);
		free(s->procs[i]);
	}
	free(s->procs);
	hpm_u64map_free(&s->proc_of_pid);
	proc_clear(&s->kernel);
	free(s->ks_buf);
	free(s->ks);
	free(s->ks_why);
	free(s->kallsyms_path);
	free(s->debug_dir);
	free(s->kernel_notes);
	free(s->cache);
	for (i = 0; i < s->nretired; i++)
		free(s->retired[i]);
	free(s->retired);
	free(s);
}

int hpm_syms_mmap(struct hpm_syms *s, pid_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
                  const char *filename, const uint8_t *build_id, size_t build_id_len,
                  enum hpm_sym_space space)
{
	struct sym_map m;
	struct sym_proc *p;

	if (!s || !filename || !len || start + len < start || build_id_len > SYM_BUILD_ID_MAX ||
	    (build_id_len && !build_id))
		return -EINVAL;
	memset(&m, 0, sizeof m);
	m.start = start;
	m.end = start + len;
	m.pgoff = pgoff;
	m.dso = dso_get(s, filename);
	if (build_id_len)
		memcpy(m.bid, build_id, build_id_len);
	m.bid_len = (uint8_t)build_id_len;
	if (space == HPM_SYM_KERNEL) {
		p = &s->kernel;
	} else {
		p = proc_get(s, pid);
		if (p->dead) /* a new process under a reused pid */
			proc_clear(p);
	}
	proc_add_map(s, p, &m);
	return 0;
}

int hpm_syms_exec(struct hpm_syms *s, pid_t pid)
{
	if (!s)
		return -EINVAL;
	proc_clear(proc_get(s, pid));
	return 0;
}

int hpm_syms_fork(struct hpm_syms *s, pid_t pid, pid_t ppid)
{
	struct sym_proc *parent, *child;

	if (!s)
		return -EINVAL;
	if (pid == ppid) /* a new thread: it shares the maps already */
		return 0;
	child = proc_get(s, pid);
	parent = proc_find(s, ppid);
	proc_clear(child);
	if (parent && parent != child) {
		child->maps = maps_copy(s, parent->maps);
		child->n = parent->n;
	}
	return 0;
}

void hpm_syms_exit(struct hpm_syms *s, pid_t pid)
{
	struct sym_proc *p = s ? proc_find(s, pid) : NULL;

	/* kept: samples of its last moments may still come after the EXIT
	 * (another CPU's buffer); a later process with the pid clears it */
	if (p)
		p->dead = true;
}

int hpm_syms_recorded_build_id(struct hpm_syms *s, const char *filename, const uint8_t *id,
                               size_t len)
{
	struct sym_dso *d;

	if (!s || !filename || !id || !len || len > SYM_BUILD_ID_MAX)
		return -EINVAL;
	d = dso_get(s, filename);
	memcpy(d->rec_id, id, len);
	d->rec_id_len = len;
	s->gen++;
	return 0;
}

/* A string answers may still point to, freed with s. */
static void retire(struct hpm_syms *s, char *str)
{
	if (s->nretired == s->capretired) {
		s->capretired = s->capretired ? 2 * s->capretired : 64;
		s->retired = xreallocarray(s->retired, s->capretired, sizeof *s->retired);
	}
	s->retired[s->nretired++] = str;
}

int hpm_syms_add_table(struct hpm_syms *s, const char *dso, const struct hpm_sym_decl *decls,
                       size_t n)
{
	struct sym_dso *d;
	size_t i;

	if (!s || !dso || (n && !decls))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!decls[i].name || decls[i].end < decls[i].start)
			return -EINVAL;
	d = dso_get(s, dso);
	/* the old names and reason stay alive: earlier answers point to them */
	for (i = 0; i < d->nstrs; i++)
		retire(s, d->strs[i]);
	d->nstrs = 0;
	dso_clear_fns(d);
	if (d->why)
		retire(s, d->why);
	d->why = NULL;
	free(d->segs);
	d->segs = NULL;
	d->nsegs = 0;
	d->build_id_len = 0;
	d->stripped = false;
	for (i = 0; i < n; i++)
		sym_dso_add_fn(d, decls[i].start, decls[i].end - decls[i].start, decls[i].name, 0,
		               0);
	d->table = true;
	d->loaded = true;
	dso_finish(d);
	s->gen++;
	return 0;
}

/* ------------------------------------------------------------ kernel */

static int ksym_cmp_seq(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* the text symbol first among aliases, then the preferred name */
	if (x->text != y->text)
		return (int)y->text - (int)x->text;
	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	if (is_sys_alias(x->name) != is_sys_alias(y->name))
		return is_sys_alias(x->name) ? 1 : -1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void ks_set_why(struct hpm_syms *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void ks_set_why(struct hpm_syms *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	why_vset(&s->ks_why, fmt, ap);
	va_end(ap);
}

/* perf's preference among aliases (see sym_rank in sym-elf.c): not weak,
 * global (an upper-case type), fewer leading underscores, longer name. */
static unsigned ksym_rank(char type, const char *name)
{
	bool weak = strchr("wWvV", type) != NULL, global = !weak && type >= 'A' && type <= 'Z';
	size_t u = 0, len = strlen(name);

	while (name[u] == '_' && u < 9)
		u++;
	return (weak ? 0 : 100000u) + (global ? 10000u : 0) + (unsigned)(9 - u) * 1000u +
	       (unsigned)(len < 999 ? len : 999);
}

/* Whether the file recorded a build id for the kernel and the running
 * kernel's notes (an ELF note list, in the machine's byte order) carry
 * another: then the kernel that was sampled is not the one kallsyms
 * describes. Unreadable notes check nothing. */
static bool kernel_build_id_differs(struct hpm_syms *s)
{
	struct sym_dso *k = dso_get(s, "[kernel.kallsyms]");
	unsigned char buf[4096];
	size_t len, off = 0, want;
	FILE *f;

	if (!k->rec_id_len || !s->kernel_notes)
		return false;
	f = fopen(s->kernel_notes, "rb");
	if (!f)
		return false;
	len = fread(buf, 1, sizeof buf, f);
	fclose(f);
	want = k->rec_id_len;
	while (off + 12 <= len) {
		uint32_t namesz, descsz, type;
		size_t name, desc;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		name = off + 12;
		desc = name + ((namesz + 3u) & ~3u);
		if (desc + descsz > len)
			break;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 &&
		    !memcmp(buf + name, "GNU", 4)) {
			/* perf pads build ids to 20 bytes with zeros */
			while (want > descsz && !k->rec_id[want - 1])
				want--;
			return want != descsz || memcmp(buf + desc, k->rec_id, want);
		}
		off = desc + ((descsz + 3u) & ~3u);
	}
	return false;
}

/* /proc/kallsyms: "address type name [module]" a line, no sizes: a symbol
 * runs to the next one, as perf takes it. */
static void ks_load(struct hpm_syms *s)
{
	FILE *f;
	size_t len = 0, cap = 0, got, n = 0, capk = 0;
	char *line, *save = NULL;
	bool nonzero = false;

	s->ks_loaded = true;
	if (!s->kallsyms_path) {
		ks_set_why(s, "no kernel symbols wanted");
		return;
	}
	if (kernel_build_id_differs(s)) {
		ks_set_why(s, "kernel build id differs from the recorded one");
		return;
	}
	f = fopen(s->kallsyms_path, "r");
	if (!f) {
		ks_set_why(s, "cannot read %s: %s", s->kallsyms_path, strerror(errno));
		return;
	}
	/* a /proc file has no size: read it in chunks */
	do {
		if (cap - len < 65536) {
			cap = cap ? 2 * cap : 1 << 20;
			s->ks_buf = xrealloc(s->ks_buf, cap + 1);
		}
		got = fread(s->ks_buf + len, 1, cap - len, f);
		len += got;
	} while (got);
	if (ferror(f)) {
		ks_set_why(s, "cannot read %s: %s", s->kallsyms_path, strerror(errno));
		fclose(f);
		return;
	}
	fclose(f);
	if (!s->ks_buf)
		s->ks_buf = xmalloc(1);
	s->ks_buf[len] = '\0';
	for (line = strtok_r(s->ks_buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *end, *type, *name, *mod, *sp;
		uint64_t addr = strtoull(line, &end, 16);

		if (end == line || *end != ' ')
			continue;
		type = end + 1;
		if (!type[0] || type[1] != ' ')
			continue;
		name = type + 2;
		mod = NULL;
		sp = strpbrk(name, " \t");
		if (sp) {
			*sp = '\0';
			mod = sp + 1;
			while (*mod == ' ' || *mod == '\t')
				mod++;
			if (*mod != '[')
				mod = NULL;
		}
		if (!*name)
			continue;
		if (addr)
			nonzero = true;
		if (n == capk) {
			capk = capk ? 2 * capk : 4096;
			s->ks = xreallocarray(s->ks, capk, sizeof *s->ks);
		}
		s->ks[n].addr = addr;
		s->ks[n].name = name;
		s->ks[n].mod = mod;
		s->ks[n].text = strchr("tTwW", *type) != NULL;
		s->ks[n].sized = strchr("tTwWdDbB", *type) != NULL;
		s->ks[n].rank = ksym_rank(*type, name);
		s->ks[n].seq = n;
		n++;
	}
	if (!n) {
		ks_set_why(s, "no symbols in %s", s->kallsyms_path);
		return;
	}
	if (!nonzero) {
		ks_set_why(s, "kernel addresses hidden in %s (kptr_restrict)", s->kallsyms_path);
		return;
	}
	/* perf's choice among aliases, as in dso_finish: the last one read
	 * counts as sized */
	qsort(s->ks, n, sizeof *s->ks, ksym_cmp_seq);
	for (size_t i = 0; i < n; i++)
		if (i + 1 == n || s->ks[i + 1].addr != s->ks[i].addr)
			s->ks[i].rank |= SYM_RANK_SIZED;
	qsort(s->ks, n, sizeof *s->ks, ksym_cmp);
	s->nks = n;
	/* perf's kernel map: its first and last kept symbols, the last
	 * running to the page after it (symbols__fixup_end) */
	uint64_t first = 0, last = 0;
	bool any = false;
	for (size_t i = 0; i < n; i++)
		if (!s->ks[i].mod && s->ks[i].sized) {
			if (!any)
				first = s->ks[i].addr;
			any = true;
			last = s->ks[i].addr;
		}
	if (any)
		s->ks_map_size = ((last + 4096 + 4095) & ~(uint64_t)4095) - first;
}

static void resolve_kernel(struct hpm_syms *s, uint64_t addr, struct hpm_sym_loc *loc)
{
	size_t lo = 0, hi;
	const struct ksym *k;

	/* perf's kernel maps are the recorded ones ([kernel.kallsyms]_text
	 * from _text to the end, the modules'): an address below them, such
	 * as an entry trampoline in cpu_entry_area, is in no map, perf's
	 * [unknown] (a file without a kernel map: perf makes one from this
	 * machine's kernel, so does kallsyms here) */
	if (s->kernel.maps && !proc_map_at(&s->kernel, addr)) {
		loc->why = "in no recorded kernel map";
		return;
	}
	loc->dso = "[kernel.kallsyms]";
	loc->dso_offset = addr;
	if (!s->ks_loaded)
		ks_load(s);
	if (!s->nks) {
		loc->why = s->ks_why;
		return;
	}
	hi = s->nks;
	while (lo < hi) { /* the first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (s->ks[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo) {
		loc->why = "below the kernel's first symbol";
		return;
	}
	k = &s->ks[lo - 1];
	/* back to the first alias at that address (the text one sorts first) */
	while (k > s->ks && k[-1].addr == k->addr)
		k--;
	if (k->mod)
		loc->dso = k->mod;
	if (!k->text) {
		loc->why = "not in a kernel function";
		return;
	}
	{
		/* the symbol runs to the next one, except that the last of the
		 * kernel or of a module ends at the next page, as perf takes it
		 * (the gap before the modules' code is no one's) */
		const struct ksym *next = lo < s->nks ? &s->ks[lo] : NULL;
		bool same = next && (next->mod == k->mod ||
		                     (next->mod && k->mod && !strcmp(next->mod, k->mod)));
		uint64_t end = same ? next->addr : (k->addr + 2 * 4096 - 1) & ~(uint64_t)4095;

		if (next && next->addr < end)
			end = next->addr;
		if (addr >= end) {
			loc->why = "past the last kernel symbol";
			return;
		}
		/* perf's size ends at the next symbol of a type it keeps (the
		 * others, rodata's, it never reads), the last of the kernel or
		 * a module at the next page */
		const struct ksym *z = next;
		while (z && z < s->ks + s->nks && !z->sized &&
		       (z->mod == k->mod || (z->mod && k->mod && !strcmp(z->mod, k->mod))))
			z++;
		bool in = z && z < s->ks + s->nks && z->sized &&
		          (z->mod == k->mod || (z->mod && k->mod && !strcmp(z->mod, k->mod)));
		loc->sym_size =
		    (in ? z->addr : (k->addr + 2 * 4096 - 1) & ~(uint64_t)4095) - k->addr;
	}
	if (!k->mod)
		loc->map_size = s->ks_map_size;
	loc->name = k->name;
	loc->sym_start = k->addr;
	loc->sym_offset = addr - k->addr;
}

/* ------------------------------------------------------------ resolve */

static bool dso_offset_of(const struct sym_dso *d, uint64_t fileoff, uint64_t *out)
{
	size_t i;

	if (d->table || !d->nsegs) {
		*out = fileoff;
		return d->table;
	}
	for (i = 0; i < d->nsegs; i++) {
		const struct sym_seg *g = &d->segs[i];

		if (fileoff >= g->off && fileoff - g->off < g->filesz) {
			*out = fileoff - g->off + g->vaddr;
			return true;
		}
	}
	*out = fileoff;
	return false;
}

static const struct sym_fn *fn_at(struct sym_map *m, uint64_t a)
{
	const struct sym_dso *d = m->dso;
	size_t lo = 0, hi = d->nfns;
	const struct sym_fn *f;

	if (m->last && m->last_gen == d->gen && a >= m->last->start && a < m->last->end)
		return m->last;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->fns[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	f = &d->fns[lo - 1];
	if (a >= f->end)
		return NULL;
	m->last = f;
	m->last_gen = d->gen;
	return f;
}

static const char *build_id_check(const struct sym_map *m, const struct sym_dso *d)
{
	const uint8_t *want = m->bid_len ? m->bid : d->rec_id;
	size_t len = m->bid_len ? m->bid_len : d->rec_id_len;

	if (!len || d->table)
		return NULL;
	if (!d->build_id_len)
		return "the file has no build id to check against the recorded one";
	/* perf pads build ids to 20 bytes with zeros: compare the real part */
	while (len > d->build_id_len && !want[len - 1])
		len--;
	if (len != d->build_id_len || memcmp(want, d->build_id, len))
		return "build id differs from the recorded one";
	return NULL;
}

/* An address of process p (found) in its maps and DSO. */
static void resolve_user(struct hpm_syms *s, struct sym_proc *p, uint64_t addr,
                         struct hpm_sym_loc *loc)
{
	struct sym_map *m = proc_map_at(p, addr);
	struct sym_dso *d;
	const struct sym_fn *f;
	const char *bad;
	uint64_t fileoff, a;

	if (!m) {
		loc->why = "no map of the process holds the address";
		return;
	}
	d = m->dso;
	loc->dso = d->name;
	loc->map_size = m->end - m->start;
	fileoff = addr - m->start + m->pgoff;
	loc->dso_offset = loc->file_offset = fileoff;
	dso_load(s, d);
	if (d->why) {
		loc->why = d->why;
		return;
	}
	bad = build_id_check(m, d);
	if (bad) {
		loc->why = bad;
		return;
	}
	if (!dso_offset_of(d, fileoff, &a)) {
		loc->why = "outside the file's loadable segments";
		return;
	}
	loc->dso_offset = a;
	f = fn_at(m, a);
	if (!f) {
		loc->why = d->stripped ? "stripped: no symbol covers the address"
		                       : "no symbol covers the address";
		return;
	}
	loc->name = f->name;
	loc->sym_start = f->start;
	loc->sym_offset = a - f->start;
	loc->sym_size = f->end - f->start;
}

int hpm_syms_resolve(struct hpm_syms *s, pid_t pid, uint64_t addr, enum hpm_sym_space space,
                     struct hpm_sym_loc *loc)
{
	struct sym_proc *p = NULL;
	struct sym_cache_ent *e;
	uint64_t h;

	if (!s || !loc)
		return -EINVAL;
	memset(loc, 0, sizeof *loc);
	loc->dso = "[unknown]";
	loc->dso_offset = loc->file_offset = addr;
	if (space != HPM_SYM_USER && space != HPM_SYM_KERNEL) {
		loc->why = space == HPM_SYM_HV ? "hypervisor addresses are not resolved"
		                               : "guest addresses are not resolved";
		return 0;
	}
	if (space == HPM_SYM_USER) {
		p = proc_find(s, pid);
		if (!p) {
			loc->why = "no maps recorded for the process";
			return 0;
		}
	}
	h = (addr ^ (addr >> 13) ^ (uint64_t)(uintptr_t)p) * 0x9e3779b97f4a7c15ull;
	e = &s->cache[h >> 51 & (SYM_CACHE_SIZE - 1)];
	if (e->used && e->addr == addr && e->proc == p && e->sgen == s->gen &&
	    (!p || e->pgen == p->gen)) {
		*loc = e->loc;
		return 0;
	}
	if (p)
		resolve_user(s, p, addr, loc);
	else
		resolve_kernel(s, addr, loc);
	e->used = true;
	e->addr = addr;
	e->proc = p;
	e->sgen = s->gen;
	e->pgen = p ? p->gen : 0;
	e->loc = *loc;
	return 0;
}

int hpm_sym_file_build_id(const char *path, uint8_t *id, size_t max, size_t *len)
{
	if (!path || !id || !len)
		return -EINVAL;
	return sym_elf_file_build_id(path, id, max, len);
}

const char *hpm_syms_demangle_why(const struct hpm_syms *s)
{
	return s && s->demangle ? sym_demangle_why() : NULL;
}

const char *hpm_syms_strerror(int err)
{
	switch (err) {
	case HPM_SYM_ENOTELF:
		return "not an ELF file";
	case HPM_SYM_ENOBUILDID:
		return "no build id in the file";
	case HPM_SYM_ENOLIBELF:
		return "built without libelf";
	case HPM_SYM_ENOTREG:
		return "not a regular file";
	default:
		return err < 0 ? strerror(-err) : "success";
	}
}

#ifndef HAVE_LIBELF
/* Without libelf, files give their DSO and offset only. */
void sym_elf_load_file(struct sym_dso *d, const char *path, const char *debug_dir)
{
	(void)path;
	(void)debug_dir;
	sym_dso_set_why(d, "built without libelf");
}

void sym_elf_load_vdso(struct sym_dso *d)
{
	sym_dso_set_why(d, "built without libelf");
}

int sym_elf_file_build_id(const char *path, uint8_t *id, size_t max, size_t *len)
{
	(void)path;
	(void)id;
	(void)max;
	(void)len;
	return HPM_SYM_ENOLIBELF;
}
#endif
