/* samples.c: see samples.h: the model of a perf.data report. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/ordered.h"
#include "perfdata/perf-file.h"
#include "report/samples.h"
#include "registry/models.h"
#include "report/unwind.h"
#include "report/samples-td.h"
#include "report/samples-filter.h"
#include "sym/sym.h"
#include "util/hash.h"
#include "util/str.h"
#include "util/xalloc.h"

/* ----------------------------------------------------------- interning */

static const struct hpm_hash_key *report_key(const struct rs_report *rs);

static unsigned hash_str(const struct rs_report *rs, const char *s, size_t n)
{
	return (unsigned)hpm_hash_bytes(report_key(rs), s, n);
}

static unsigned intern_n(struct rs_report *rs, const char *s, size_t n)
{
	if (2 * (rs->nr_str + 1) > rs->str_hash_cap) {
		unsigned cap = rs->str_hash_cap ? 2 * rs->str_hash_cap : 1024;
		unsigned *t = xcalloc(cap, sizeof(*t));
		for (unsigned i = 0; i < rs->nr_str; i++) {
			unsigned h = hash_str(rs, rs->str[i], strlen(rs->str[i])) & (cap - 1);
			while (t[h])
				h = (h + 1) & (cap - 1);
			t[h] = i + 1;
		}
		free(rs->str_hash);
		rs->str_hash = t;
		rs->str_hash_cap = cap;
	}
	unsigned h = hash_str(rs, s, n) & (rs->str_hash_cap - 1);
	while (rs->str_hash[h]) {
		const char *c = rs->str[rs->str_hash[h] - 1];
		if (strncmp(c, s, n) == 0 && c[n] == '\0')
			return rs->str_hash[h] - 1;
		h = (h + 1) & (rs->str_hash_cap - 1);
	}
	if (rs->nr_str == rs->cap_str) {
		rs->cap_str = rs->cap_str ? 2 * rs->cap_str : 1024;
		rs->str = xrealloc(rs->str, rs->cap_str * sizeof(*rs->str));
	}
	char *c = xmalloc(n + 1);
	memcpy(c, s, n);
	c[n] = '\0';
	rs->str[rs->nr_str] = c;
	rs->str_hash[h] = rs->nr_str + 1;
	return rs->nr_str++;
}

static unsigned intern(struct rs_report *rs, const char *s)
{
	return intern_n(rs, s, strlen(s));
}

/* ------------------------------------------------------- private state */

/* An entry's key, for the entries' hash table. */
struct ekey {
	unsigned comm, dso, sym;
	int pid;
	uint64_t addr;
	bool known, kernel;
	/* the keys cpu, socket, dso_size and symbol_size (0 when not keys) */
	int cpu, socket;
	uint64_t dso_size, sym_size;
	bool mapped;    /* no key: whether a map holds the address */
	uint64_t start; /* no key: the function's start */
	/* no keys, the new entry's (rs_entry): the sample's thread, and
	 * whether its symbol is named, and which (fsym) */
	int thread;
	bool named;
	unsigned fsym;
};

#define PTR_CACHE 4096

/* A frame of a sample: its call-graph name, DSO, and the key perf merges
 * frames by (the function's start, else the address). */
struct frame {
	unsigned name, dso;
	uint64_t key;
	/* the frame's entry key (--children): its symbol as the sym key
	 * shows it, named or not, and the dso offset of an unnamed one */
	unsigned sym;
	bool known;
	uint64_t addr, ip;
	/* its map's and function's sizes (hpm_sym_loc's), and whether a map
	 * holds it: the dso_size and symbol_size keys of its entry */
	uint64_t dso_size, sym_size;
	bool mapped;
};

struct priv {
	/* the key of every table of the report, drawn for the run
	 * (util/hash.h): strings, pids, addresses and ids come from the
	 * file, which must not be able to put them all in one slot */
	struct hpm_hash_key key;
	struct hpm_syms *syms;
	struct rs_unwinder *unwind; /* --call-graph dwarf samples' user frames */
	uint64_t *pcs;              /* their program counters, scratch */
	unsigned *tabled;           /* interned names of the maps dso_table was asked for */
	unsigned nr_tabled;
	const char *pc_ptr[PTR_CACHE];
	unsigned pc_id[PTR_CACHE];
	struct hpm_u64map comm_of_tid; /* tid -> interned comm */
	struct hpm_u64map hist_of_ev;  /* event index -> index in rs->hist */
	/* entries by key: per hist, open addressing of entry index + 1 */
	unsigned **eh;
	unsigned *eh_cap;
	/* the children of every call-tree node that has more than
	 * CHILD_SCAN: hash of parent, dso and key (the next free key on a
	 * collision) -> node */
	struct hpm_u64map child_index;
	/* folded stacks by interned stack */
	unsigned *fh; /* stack id -> folded index + 1, sized to nr_str */
	unsigned fh_cap;
	struct hpm_u64map prev_of_id; /* group member's sample id -> its last read */
	/* frames of the current sample, scratch */
	struct frame *frames;
	bool *frame_kernel;
	size_t cap_frames;
	/* frames[0] is the sampled function's own frame (--max-stack may
	 * have left it out of the chain) */
	bool self_framed;
	struct frame self; /* the sampled function's frame, whatever --max-stack keeps */
	/* perf's filters (NULL: none), and whether they leave out the
	 * current sample (the entries it makes are then filtered) */
	struct rs_filter *filter;
	bool sample_filtered;
	char *buf;
	size_t cap_buf;
	unsigned unknown_frame;
};

static const struct hpm_hash_key *report_key(const struct rs_report *rs)
{
	const struct priv *p = rs->priv;
	return &p->key;
}

static void set_comm(struct rs_report *rs, uint32_t tid, unsigned comm)
{
	struct priv *p = rs->priv;
	*hpm_u64map_get(&p->comm_of_tid, tid, NULL) = comm;
}

/* The thread's command, as perf names a thread it has no COMM for. */
static unsigned comm_of(struct rs_report *rs, uint32_t tid)
{
	struct priv *p = rs->priv;
	const uint64_t *c = hpm_u64map_find(&p->comm_of_tid, tid);
	if (c)
		return (unsigned)*c;
	/* perf report's idle thread (machine__idle_thread): no recording
	 * has a COMM of its own for it */
	if (tid == 0)
		return intern(rs, "swapper");
	char b[32];
	snprintf(b, sizeof(b), ":%u", tid);
	return intern(rs, b);
}

/* intern for the symbolizer's strings, which live as long as it does: by
 * their address first, so a hot function costs no hashing of its name */
static unsigned intern_ptr(struct rs_report *rs, const char *s)
{
	struct priv *p = rs->priv;
	uintptr_t a = (uintptr_t)s;
	unsigned h = (unsigned)((a >> 3) ^ (a >> 15)) & (PTR_CACHE - 1);
	if (p->pc_ptr[h] == s)
		return p->pc_id[h];
	p->pc_ptr[h] = s;
	p->pc_id[h] = intern(rs, s);
	return p->pc_id[h];
}

/* ------------------------------------------------------------ entries */

static struct rs_hist *hist_of(struct rs_report *rs, int ev)
{
	struct priv *p = rs->priv;
	bool added;
	uint64_t *at = hpm_u64map_get(&p->hist_of_ev, (uint64_t)ev, &added);
	if (!added)
		return &rs->hist[*at];
	*at = rs->nr_hist;
	rs->hist = xgrow(rs->hist, rs->nr_hist, sizeof(*rs->hist));
	p->eh = xgrow(p->eh, rs->nr_hist, sizeof(*p->eh));
	p->eh_cap = xgrow(p->eh_cap, rs->nr_hist, sizeof(*p->eh_cap));
	p->eh[rs->nr_hist] = NULL;
	p->eh_cap[rs->nr_hist] = 0;
	struct rs_hist *h = &rs->hist[rs->nr_hist++];
	memset(h, 0, sizeof(*h));
	h->ev = ev;
	char b[64];
	/* interned first: interning may move rs->str, which the one
	 * expression could read before the call */
	unsigned name = intern(rs, pd_event_name(&rs->file, (unsigned)ev, b, sizeof(b)));
	h->name = rs->str[name];
	return h;
}

static bool has_key(const struct rs_report *rs, enum rs_key k)
{
	for (unsigned i = 0; i < rs->opts.nr_key; i++)
		if (rs->opts.key[i] == k)
			return true;
	return false;
}

/* The key as the sort keys see it: fields outside them are folded. */
static void mask_key(const struct rs_report *rs, struct ekey *k)
{
	/* the pid key is the thread, shown with its last command (perf's
	 * thread__comm_str): the command is a key of its own only with comm */
	if (!has_key(rs, RS_KEY_COMM))
		k->comm = 0;
	if (!has_key(rs, RS_KEY_PID))
		k->pid = 0;
	bool sym = has_key(rs, RS_KEY_SYM) || has_key(rs, RS_KEY_IPC_NULL);
	if (!has_key(rs, RS_KEY_DSO) && !sym)
		k->dso = 0;
	if (!has_key(rs, RS_KEY_CPU))
		k->cpu = 0;
	if (!has_key(rs, RS_KEY_SOCKET))
		k->socket = 0;
	if (!has_key(rs, RS_KEY_DSO_SIZE))
		k->dso_size = 0;
	if (!has_key(rs, RS_KEY_SYM_SIZE))
		k->sym_size = 0;
	if (!sym) {
		k->sym = 0;
		k->addr = 0;
		k->known = true;
	} else if (k->known) {
		/* perf's sort__sym_cmp tells named functions apart by their
		 * start, not by name: two overloads demangled to one name
		 * ("ns::spin" of spin(int) and spin(double)), a function and
		 * its .cold part, two static functions of one name */
		k->addr = k->start;
	}
}

static unsigned hash_key(const struct rs_report *rs, const struct ekey *k)
{
	uint64_t w[8] = {k->comm,     k->dso,
	                 k->sym,      (uint64_t)(uint32_t)k->pid << 1 | k->known,
	                 k->addr,     (uint64_t)(uint32_t)k->cpu << 32 | (uint32_t)k->socket,
	                 k->dso_size, k->sym_size};
	return (unsigned)hpm_hash_bytes(report_key(rs), w, sizeof(w));
}

static bool same_key(const struct rs_entry *e, const struct ekey *k)
{
	return e->comm == k->comm && e->dso == k->dso && e->sym == k->sym && e->pid == k->pid &&
	       e->addr == k->addr && e->known == k->known && e->cpu == k->cpu &&
	       e->socket == k->socket && e->dso_size == k->dso_size && e->sym_size == k->sym_size;
}

static struct rs_entry *entry_of(struct rs_report *rs, unsigned hi, const struct ekey *k)
{
	struct priv *p = rs->priv;
	struct rs_hist *h = &rs->hist[hi];
	if (2 * (h->nr_e + 1) > p->eh_cap[hi]) {
		unsigned cap = p->eh_cap[hi] ? 2 * p->eh_cap[hi] : 16;
		unsigned *t = xcalloc(cap, sizeof(*t));
		for (unsigned i = 0; i < h->nr_e; i++) {
			const struct rs_entry *e = &h->e[i];
			struct ekey ek = {.comm = e->comm,
			                  .dso = e->dso,
			                  .sym = e->sym,
			                  .pid = e->pid,
			                  .addr = e->addr,
			                  .known = e->known,
			                  .cpu = e->cpu,
			                  .socket = e->socket,
			                  .dso_size = e->dso_size,
			                  .sym_size = e->sym_size};
			unsigned x = hash_key(rs, &ek) & (cap - 1);
			while (t[x])
				x = (x + 1) & (cap - 1);
			t[x] = i + 1;
		}
		free(p->eh[hi]);
		p->eh[hi] = t;
		p->eh_cap[hi] = cap;
	}
	unsigned *t = p->eh[hi], cap = p->eh_cap[hi];
	unsigned x = hash_key(rs, k) & (cap - 1);
	while (t[x]) {
		if (same_key(&h->e[t[x] - 1], k))
			return &h->e[t[x] - 1];
		x = (x + 1) & (cap - 1);
	}
	if (h->nr_e == h->cap_e) {
		h->cap_e = h->cap_e ? 2 * h->cap_e : 8; /* small: a file may have 1e5 events */
		h->e = xrealloc(h->e, h->cap_e * sizeof(*h->e));
	}
	struct rs_entry *e = &h->e[h->nr_e];
	memset(e, 0, sizeof(*e));
	e->comm = k->comm;
	e->dso = k->dso;
	e->sym = k->sym;
	e->pid = k->pid;
	e->addr = k->addr;
	e->known = k->known;
	e->cpu = k->cpu;
	e->socket = k->socket;
	e->dso_size = k->dso_size;
	e->sym_size = k->sym_size;
	e->mapped = k->mapped;
	e->start = k->start;
	e->kernel = k->kernel;
	e->thread = k->thread;
	e->named = k->named;
	e->fsym = k->fsym;
	e->filtered = p->sample_filtered;
	t[x] = ++h->nr_e;
	return e;
}

/* ------------------------------------------------------------- frames */

static enum hpm_sym_space space_of(uint16_t misc)
{
	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL:
		return HPM_SYM_KERNEL;
	case PERF_RECORD_MISC_HYPERVISOR:
		return HPM_SYM_HV;
	case PERF_RECORD_MISC_GUEST_KERNEL:
	case PERF_RECORD_MISC_GUEST_USER:
		return HPM_SYM_GUEST;
	default:
		return HPM_SYM_USER;
	}
}

/* perf's call-graph name of a frame: the function, else the raw address. */
static unsigned chain_name(struct rs_report *rs, unsigned sym, bool known, uint64_t ip)
{
	if (known)
		return sym;
	char b[32];
	snprintf(b, sizeof(b), "%#llx", (unsigned long long)ip); /* perf's: 0 is "0" */
	return intern(rs, b);
}

/* The frame of an address: dso and sym interned (sym the function, or
 * perf's unknown form), known when a function is named, its call-graph
 * name, the key perf merges frames by, its map's and function's sizes. */
static struct frame resolve(struct rs_report *rs, uint32_t pid, uint64_t ip, enum hpm_sym_space sp)
{
	struct priv *p = rs->priv;
	struct hpm_sym_loc loc;
	memset(&loc, 0, sizeof(loc));
	if (hpm_syms_resolve(p->syms, (pid_t)pid, ip, sp, &loc) != 0 || !loc.dso) {
		loc.dso = "[unknown]";
		loc.name = NULL;
		loc.dso_offset = loc.file_offset = ip;
	}
	struct frame f = {.dso = intern_ptr(rs, loc.dso),
	                  .known = loc.name != NULL,
	                  .key = loc.name ? loc.sym_start : ip,
	                  .addr = loc.name ? 0 : loc.file_offset,
	                  .ip = ip,
	                  .dso_size = loc.map_size,
	                  .sym_size = loc.name ? loc.sym_size : 0,
	                  .mapped = strcmp(loc.dso, "[unknown]") != 0};
	if (loc.name) {
		f.sym = intern_ptr(rs, loc.name);
	} else {
		/* perf's unnamed symbol: its map_ip, the offset in the
		 * mapped file (an ET_EXEC's virtual address is not it), 0x
		 * and 16 digits */
		char b[32];
		/* perf's "%-#.*llx": 0 has no 0x */
		snprintf(b, sizeof(b), "%#.16llx", (unsigned long long)loc.file_offset);
		f.sym = intern(rs, b);
	}
	f.name = chain_name(rs, f.sym, f.known, ip);
	return f;
}

/* perf's --max-stack on the kernel's chain, frames[lo..n) after
 * frames[0..lo) (the ip, when the chain does not start with it): its first
 * max entries in callee order, its last (the outermost) in caller order,
 * as perf's thread__resolve_callchain_sample walks the chain from either
 * end; an ip of hpmstat's own in front goes with the innermost ones. The
 * number of frames left. */
static size_t limit_chain(struct priv *p, size_t n, size_t lo, size_t max, bool caller)
{
	if (n - lo <= max)
		return n;
	if (!caller)
		return lo + max;
	memmove(p->frames, p->frames + n - max, max * sizeof(*p->frames));
	memmove(p->frame_kernel, p->frame_kernel + n - max, max * sizeof(bool));
	p->self_framed = false;
	return max;
}

/* The sample's frames, the sampled function first, then its callers (the
 * callchain without perf's context markers; the ip alone without one),
 * as many as --max-stack keeps (p->self_framed: the first is still the
 * sampled function's). *first_sym is the entry's symbol (perf's 16-digit
 * form when unnamed); *first_kernel its level. */
static size_t frames(struct rs_report *rs, const struct pd_record *r, unsigned *first_sym,
                     unsigned *first_dso, bool *first_known, uint64_t *first_addr,
                     bool *first_kernel)
{
	struct priv *p = rs->priv;
	const struct pd_sample *s = &r->u.sample;
	enum hpm_sym_space sp = space_of(r->misc);
	size_t n = 0;
	uint64_t nr = s->callchain ? s->callchain_nr : 0;
	if (nr + 1 > p->cap_frames) {
		p->cap_frames = nr + 16;
		p->frames = xrealloc(p->frames, p->cap_frames * sizeof(*p->frames));
		p->frame_kernel = xrealloc(p->frame_kernel, p->cap_frames * sizeof(bool));
	}
	p->frames[0] = resolve(rs, s->pid, s->ip, sp);
	p->self = p->frames[0];
	p->frame_kernel[0] = sp == HPM_SYM_KERNEL;
	*first_sym = p->self.sym;
	*first_dso = p->self.dso;
	*first_known = p->self.known;
	*first_addr = p->self.addr;
	*first_kernel = p->frame_kernel[0];
	p->self_framed = true;
	n = 1;
	size_t max = rs->opts.max_stack;
	/* the kernel's chain is frames[chain_lo..n) after its loop */
	size_t chain_lo = 1;
	/* the callchain repeats the ip as its first entry after a marker */
	bool skipped_ip = false;
	enum hpm_sym_space csp = sp;
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t ip = pd_callchain_ip(s, i);
		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_KERNEL)
				csp = HPM_SYM_KERNEL;
			else if (ip == PERF_CONTEXT_USER)
				csp = HPM_SYM_USER;
			else if (ip == PERF_CONTEXT_HV)
				csp = HPM_SYM_HV;
			else
				csp = HPM_SYM_GUEST;
			continue;
		}
		if (!skipped_ip) {
			skipped_ip = true;
			if (ip == s->ip) {
				chain_lo = 0;
				continue;
			}
		}
		p->frames[n] = resolve(rs, s->pid, ip, csp);
		p->frame_kernel[n] = csp == HPM_SYM_KERNEL;
		n++;
	}
	bool caller = rs->opts.caller_chains;
	n = skipped_ip ? limit_chain(p, n, chain_lo, max, caller) : n;
	/* --call-graph dwarf: the kernel's chain stopped at the user
	 * boundary; the user frames come from the stack copy, as perf adds
	 * them after the kernel's: the innermost max, in either order (perf's
	 * unwinder stops there) */
	if (s->stack && p->unwind) {
		/* a copy of 64 KiB holds no more 16-byte frames */
		enum { MAX_USER = 4096 };
		if (!p->pcs)
			p->pcs = xmalloc(MAX_USER * sizeof(*p->pcs));
		size_t nu =
		    rs_unwind(p->unwind, s->pid, s, p->pcs, max < MAX_USER ? max : MAX_USER);
		if (n + nu > p->cap_frames) {
			p->cap_frames = n + nu;
			p->frames = xrealloc(p->frames, p->cap_frames * sizeof(*p->frames));
			p->frame_kernel = xrealloc(p->frame_kernel, p->cap_frames * sizeof(bool));
		}
		/* a user sample's first frame is its ip, already there */
		for (size_t i = sp == HPM_SYM_USER && nu && p->pcs[0] == s->ip ? 1 : 0; i < nu;
		     i++) {
			p->frames[n] = resolve(rs, s->pid, p->pcs[i], HPM_SYM_USER);
			p->frame_kernel[n] = false;
			n++;
		}
	}
	/* --max-stack 0, or a kernel chain without an entry and nothing
	 * perf would unwind (it unwinds only a sample with user registers
	 * and a stack copy: thread__resolve_callchain_unwind; a dwarf sample
	 * whose stack the kernel did not copy has none): perf's chain has no
	 * entry, not even the ip */
	bool unwound = s->regs && s->stack;
	if ((!max || (!skipped_ip && !unwound)) && (s->callchain || s->stack)) {
		p->self_framed = false;
		return 0;
	}
	/* --hide-unresolved: perf's add_callchain_ip and unwind_entry leave
	 * an unnamed frame out of the chain (after --max-stack counted it) */
	if (rs->opts.hide_unresolved) {
		size_t kept = 0;
		for (size_t i = 0; i < n; i++)
			if (p->frames[i].known) {
				p->frames[kept] = p->frames[i];
				p->frame_kernel[kept++] = p->frame_kernel[i];
			}
		n = kept;
	}
	return n;
}

static unsigned new_node(struct rs_report *rs, const struct frame *f)
{
	if (rs->nr_node == rs->cap_node) {
		rs->cap_node = rs->cap_node ? 2 * rs->cap_node : 1024;
		rs->node = xrealloc(rs->node, rs->cap_node * sizeof(*rs->node));
		if (!rs->nr_node) {
			memset(&rs->node[0], 0, sizeof(rs->node[0]));
			rs->nr_node = 1; /* 0 is "no node" */
		}
	}
	struct rs_cnode *n = &rs->node[rs->nr_node];
	memset(n, 0, sizeof(*n));
	if (f) {
		n->frame = f->name;
		n->dso = f->dso;
		n->key = f->key;
	}
	return rs->nr_node++;
}

/* A node of more children than this finds them through the child index,
 * not its list: a function called from thousands of places made each
 * sample walk them all (a report quadratic in the call sites). */
#define CHILD_SCAN 8

static uint64_t child_hash(const struct rs_report *rs, unsigned parent, unsigned dso, uint64_t key)
{
	uint64_t w[2] = {(uint64_t)parent << 32 | dso, key};
	return hpm_hash_bytes(report_key(rs), w, sizeof(w));
}

/* Files node c in the child index under the first free key from its hash
 * (keyed: a file cannot make such runs long). */
static void index_child(struct rs_report *rs, unsigned c)
{
	struct priv *p = rs->priv;
	const struct rs_cnode *n = &rs->node[c];
	uint64_t k = child_hash(rs, n->parent, n->dso, n->key);
	bool added;
	uint64_t *v;
	while (v = hpm_u64map_get(&p->child_index, k++, &added), !added)
		;
	*v = c;
}

/* The child of parent for frame f: perf merges frames of one function by
 * its DSO and start (an unnamed one by its address), not by name. */
static unsigned child_of(struct rs_report *rs, unsigned parent, const struct frame *f)
{
	struct priv *p = rs->priv;
	if (rs->node[parent].indexed) {
		for (uint64_t k = child_hash(rs, parent, f->dso, f->key);; k++) {
			const uint64_t *v = hpm_u64map_find(&p->child_index, k);
			if (!v)
				break;
			const struct rs_cnode *n = &rs->node[*v];
			if (n->parent == parent && n->dso == f->dso && n->key == f->key)
				return (unsigned)*v;
		}
	} else {
		unsigned nr = 0;
		for (unsigned c = rs->node[parent].child; c; c = rs->node[c].next, nr++)
			if (rs->node[c].dso == f->dso && rs->node[c].key == f->key)
				return c;
		if (nr >= CHILD_SCAN) {
			rs->node[parent].indexed = true;
			for (unsigned c = rs->node[parent].child; c; c = rs->node[c].next)
				index_child(rs, c);
		}
	}
	unsigned c = new_node(rs, f);
	rs->node[c].parent = parent;
	rs->node[c].next = rs->node[parent].child;
	rs->node[parent].child = c;
	if (rs->node[parent].indexed)
		index_child(rs, c);
	return c;
}

/* Adds the chain frames[from..to) (step +1 or -1) under root. The root
 * counts every sample, an empty chain's too (the graphs' base); what it
 * keeps beyond its children is no chain (samples-graph.c). */
static void add_chain(struct rs_report *rs, unsigned *root, const struct frame *f, size_t n,
                      bool reverse, uint64_t period)
{
	if (!*root)
		*root = new_node(rs, NULL);
	unsigned at = *root;
	rs->node[at].period += period;
	rs->node[at].samples++;
	for (size_t i = 0; i < n; i++) {
		at = child_of(rs, at, &f[reverse ? n - 1 - i : i]);
		rs->node[at].period += period;
		rs->node[at].samples++;
	}
}

/* A frame's name in the folded stacks: an unnamed one (perf's call-graph
 * address, "0x401136" or "0") is [unknown], as stackcollapse-perf.pl has
 * it. */
static const char *folded_name(const char *name)
{
	return name[0] == '0' && (name[1] == 'x' || !name[1]) ? "[unknown]" : name;
}

static void add_folded(struct rs_report *rs, unsigned comm, const struct frame *f, size_t n)
{
	struct priv *p = rs->priv;
	/* sized by the names written, not the ones they replace ("[unknown]"
	 * is longer than "0"): the comm, then ';' and a name per frame */
	size_t len = strlen(rs->str[comm]);
	for (size_t i = 0; i < n; i++)
		len += 1 + strlen(folded_name(rs->str[f[i].name]));
	if (len + 16 > p->cap_buf) {
		p->cap_buf = len + 256;
		p->buf = xrealloc(p->buf, p->cap_buf);
	}
	char *b = p->buf;
	size_t o = 0;
	/* a ';' or newline in a name would break the format: as
	 * stackcollapse-perf.pl, names keep their text but not these */
	for (const char *c = rs->str[comm]; *c; c++)
		b[o++] = (*c == ';' || *c == '\n' || *c == ' ') ? '_' : *c;
	for (size_t i = n; i-- > 0;) {
		b[o++] = ';';
		for (const char *c = folded_name(rs->str[f[i].name]); *c; c++)
			b[o++] = (*c == ';' || *c == '\n') ? '_' : *c;
	}
	unsigned id = intern_n(rs, b, o);
	if (id >= p->fh_cap) {
		unsigned cap = p->fh_cap ? p->fh_cap : 1024;
		while (cap <= id)
			cap *= 2;
		p->fh = xrealloc(p->fh, cap * sizeof(*p->fh));
		memset(p->fh + p->fh_cap, 0, (cap - p->fh_cap) * sizeof(*p->fh));
		p->fh_cap = cap;
	}
	if (!p->fh[id]) {
		rs->folded = xgrow(rs->folded, rs->nr_folded, sizeof(*rs->folded));
		rs->folded[rs->nr_folded].stack = id;
		rs->folded[rs->nr_folded].count = 0;
		p->fh[id] = ++rs->nr_folded;
	}
	rs->folded[p->fh[id] - 1].count++;
}

/* ------------------------------------------------------------ records */

/* Adds a sample of event ev with period to its histogram: the entry of
 * key k and its call trees (frames[0..n)). */
static struct rs_entry *add(struct rs_report *rs, int ev, const struct ekey *k, uint64_t period,
                            uint16_t cpumode, size_t n, bool chains, bool cumulate)
{
	struct priv *p = rs->priv;
	struct rs_hist *h = hist_of(rs, ev);
	struct rs_entry *e = entry_of(rs, (unsigned)(h - rs->hist), k);
	e->period += period;
	if (cpumode == PERF_RECORD_MISC_KERNEL)
		e->period_sys += period;
	else if (cpumode == PERF_RECORD_MISC_USER)
		e->period_usr += period;
	e->samples++;
	h->nr_samples++;
	h->total_period += period;
	if (!e->filtered) {
		h->kept_samples++;
		h->kept_period += period;
	}
	if (chains) {
		add_chain(rs, &e->callee, p->frames, n, false, period);
		add_chain(rs, &e->caller, p->frames, n, true, period);
	}
	if (rs->opts.children && cumulate) {
		/* perf's cumulative entries: the sampled function's Children
		 * has the sample with its whole chain; each caller's (once a
		 * sample, however often it recurs) the chain from it down */
		unsigned hi = (unsigned)(h - rs->hist);
		rs->cumulated = true;
		e->acc += period;
		if (n > e->depth)
			e->depth = e->depth_callee = (unsigned)n;
		/* each caller's entry once a sample, however often it recurs:
		 * perf walks its cursor leaf first in callee order and root
		 * first in caller order and keeps the first it meets, so an
		 * entry's callee chain and depth are its innermost frame's and
		 * its caller ones its outermost frame's (seen: entry indexes,
		 * which entry_of moves; first, last: their frames; level below) */
		unsigned *seen = xmalloc(4 * (n + 1) * sizeof(*seen));
		unsigned *first = seen + n + 1, *last = seen + 2 * (n + 1),
		         *level = seen + 3 * (n + 1);
		size_t nr_seen = 0;
		seen[nr_seen] = (unsigned)(e - h->e);
		first[nr_seen] = last[nr_seen] = 0;
		nr_seen++;
		/* frames[0], the sampled function's unless --max-stack left it
		 * out, is the entry's own; unnamed, perf keys its cumulative
		 * entry by the address where the entry has the file offset
		 * (two entries, unless the two are one) */

		/* perf's level of a cumulative entry no map holds: that of the
		 * last frame before it that a map holds, in the order perf
		 * walks the chain (callee or caller: its addr_location carries
		 * over, fill_callchain_info), the sample's before any */
		bool kernel = k->kernel;
		/* perf's iter_add_next_cumulative_entry compares each caller
		 * with the entries the sample added by a hist_entry that has
		 * no socket (0): under the socket key a sample of a socket
		 * other than 0 (-1 too) never finds one, and each of its
		 * frames adds the sample to the entry again */
		bool again = has_key(rs, RS_KEY_SOCKET) && k->socket != 0;
		size_t from = p->self_framed && p->frames[0].known && !again ? 1 : 0;
		for (size_t s = 0; s < n; s++) {
			size_t i = rs->opts.caller_chains ? n - 1 - s : s;
			if (!rs_unmapped(rs, p->frames[i].dso))
				kernel = p->frame_kernel[i];
			level[i] = kernel;
		}
		for (size_t i = from; i < n; i++) {
			struct ekey ck = *k;
			ck.dso = p->frames[i].dso;
			ck.sym = p->frames[i].sym;
			ck.known = ck.named = p->frames[i].known;
			ck.fsym = ck.known ? ck.sym : 0;
			ck.addr = p->frames[i].addr;
			ck.dso_size = p->frames[i].dso_size;
			ck.sym_size = p->frames[i].sym_size;
			ck.mapped = p->frames[i].mapped;
			ck.start = p->frames[i].key;
			if (!ck.known) {
				/* perf's fill_callchain_info: an unnamed caller's
				 * entry is its address, not its offset in the map */
				char b[32];
				snprintf(b, sizeof(b), "%#.16llx",
				         (unsigned long long)p->frames[i].ip);
				ck.sym = intern(rs, b);
				ck.addr = p->frames[i].ip;
			}
			ck.kernel = level[i];
			mask_key(rs, &ck);
			unsigned c = (unsigned)(entry_of(rs, hi, &ck) - h->e);
			size_t j = again ? nr_seen : 0;
			while (j < nr_seen && seen[j] != c)
				j++;
			if (j == nr_seen) {
				seen[nr_seen] = c;
				first[nr_seen] = (unsigned)i;
				nr_seen++;
			}
			/* the sampled function's own entry keeps its whole chain */
			if (j)
				last[j] = (unsigned)i;
		}
		for (size_t j = 1; j < nr_seen; j++) {
			struct rs_entry *ce = &h->e[seen[j]];
			size_t fi = first[j], la = last[j];
			ce->acc += period;
			/* perf snapshots its cursor at the caller: from it to
			 * the sampled function (caller order), or up to the
			 * root (callee order) */
			if (la + 1 > ce->depth)
				ce->depth = (unsigned)(la + 1);
			if (n - fi > ce->depth_callee)
				ce->depth_callee = (unsigned)(n - fi);
			if (chains) {
				add_chain(rs, &ce->callee, p->frames + fi, n - fi, false, period);
				add_chain(rs, &ce->caller, p->frames, la + 1, true, period);
			}
		}
		e = &h->e[seen[0]];
		free(seen);
	}
	return e;
}

/* The previous value of a group member's sample id (0 before its first
 * read, as perf counts it). */
static uint64_t *prev_of(struct rs_report *rs, uint64_t id)
{
	struct priv *p = rs->priv;
	return hpm_u64map_get(&p->prev_of_id, id, NULL);
}

static void sample(struct rs_report *rs, const struct pd_record *r)
{
	struct priv *p = rs->priv;
	const struct pd_sample *s = &r->u.sample;
	if (r->ev < 0) {
		rs->nr_unknown_ev++;
		return;
	}
	rs->nr_samples++;
	/* perf's -C and --time: another CPU's sample, or one out of the
	 * spans, is not counted at all; perf reads a sample without a time
	 * as time -1 */
	if (p->filter && (rs_filter_cpu_out(p->filter, s->cpu) ||
	                  rs_filter_time_out(p->filter, r->has_time ? r->time : UINT64_MAX)))
		return;
	unsigned dso, sym;
	bool known;
	uint64_t addr;
	bool kernel;
	size_t n = frames(rs, r, &sym, &dso, &known, &addr, &kernel);
	/* perf's --hide-unresolved: a sample it cannot name is not counted
	 * at all (process_sample_event), as -C's other CPUs */
	if (rs->opts.hide_unresolved && !known)
		return;
	/* perf's sample->cpu is -1 where the attr samples none, and its
	 * socket that of the file's topology (perf_env), else -1 */
	const struct perf_event_attr *sa = &rs->file.ev[r->ev].attr;
	int cpu = sa->sample_type & PERF_SAMPLE_CPU ? (int)s->cpu : -1, socket = -1;
	if (cpu >= 0 && rs->file.cpu_ids && (uint32_t)cpu < rs->file.nr_cpus_avail)
		socket = (int)pf_get32(rs->file.cpu_ids + 8 * (uint64_t)cpu + 4);
	struct ekey k = {.comm = comm_of(rs, s->tid),
	                 .dso = dso,
	                 .sym = sym,
	                 .pid = (int)s->tid,
	                 .addr = addr,
	                 .known = known,
	                 .kernel = kernel,
	                 .thread = (int)s->tid,
	                 .named = known,
	                 .fsym = known ? sym : 0,
	                 .cpu = cpu,
	                 .socket = socket,
	                 .dso_size = p->self.dso_size,
	                 .sym_size = p->self.sym_size,
	                 .mapped = p->self.mapped,
	                 .start = p->self.key};
	p->sample_filtered =
	    p->filter && rs_filter_out(p->filter, rs_str(rs, k.comm), (int)s->pid, (int)s->tid,
	                               rs_str(rs, dso), known ? rs_str(rs, sym) : NULL, s->ip);
	mask_key(rs, &k);
	bool chains = rs->opts.graph != RS_GRAPH_OFF && s->callchain;
	bool cumulate = s->callchain != NULL; /* -g none still adds up Children */
	uint16_t cpumode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const struct perf_event_attr *a = &rs->file.ev[r->ev].attr;
	struct rs_entry *e = NULL;
	if ((a->sample_type & PERF_SAMPLE_READ) && (a->read_format & PERF_FORMAT_GROUP) &&
	    (a->read_format & PERF_FORMAT_ID)) {
		/* perf report's group read: every member (the leader too) is
		 * a sample of its own event, its period the count it made
		 * since its previous read; a member that did not count is no
		 * sample */
		for (uint64_t i = 0; i < s->read_nr; i++) {
			uint64_t v, id;
			pd_read_value(&rs->file, r, i, &v, &id);
			int ev = pd_event_of_id(&rs->file, id);
			if (ev < 0)
				continue;
			uint64_t *prev = prev_of(rs, id);
			uint64_t d = v - *prev;
			*prev = v;
			if (!d)
				continue;
			struct rs_entry *x = add(rs, ev, &k, d, cpumode, n, chains, cumulate);
			if (ev == r->ev)
				e = x;
		}
	} else {
		e = add(rs, r->ev, &k, s->period, cpumode, n, chains, cumulate);
	}
	/* perf script leaves a filtered sample out */
	if (rs->opts.folded && !p->sample_filtered)
		add_folded(rs, comm_of(rs, s->tid), p->frames, n);
	if (rs->opts.topdown) {
		struct rs_hist *h = hist_of(rs, r->ev);
		if (!e)
			e = entry_of(rs, (unsigned)(h - rs->hist), &k);
		rs_td_sample(rs, h, e, r);
	}
}

/* The caller's table for a map that is no file, asked once per name. */
static void ask_table(struct rs_report *rs, const char *dso)
{
	struct priv *p = rs->priv;
	unsigned id = intern(rs, dso);
	for (unsigned i = 0; i < p->nr_tabled; i++)
		if (p->tabled[i] == id)
			return;
	p->tabled = xreallocarray(p->tabled, p->nr_tabled + 1, sizeof(*p->tabled));
	p->tabled[p->nr_tabled++] = id;
	char err[256] = "", line[320];
	if (rs->opts.dso_table(rs->opts.dso_table_ctx, p->syms, dso, err, sizeof(err)) && err[0] &&
	    rs->file.nr_note < PD_NOTE_MAX) {
		snprintf(line, sizeof(line), "%s: no function names: %s", dso, err);
		rs->file.note[rs->file.nr_note++] = xstrdup(line);
	}
}

static void record(struct rs_report *rs, const struct pd_record *r)
{
	struct priv *p = rs->priv;
	switch (r->type) {
	case PERF_RECORD_SAMPLE:
		sample(rs, r);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		enum hpm_sym_space sp = space_of(r->misc);
		const char *fn = r->u.mmap.filename;
		if (rs->opts.dso_table && fn[0] == '[' && strncmp(fn, "[kernel", 7) != 0 &&
		    strcmp(fn, "[vdso]") != 0)
			ask_table(rs, fn);
		hpm_syms_mmap(p->syms, (pid_t)r->u.mmap.pid, r->u.mmap.start, r->u.mmap.len,
		              r->u.mmap.pgoff, r->u.mmap.filename, r->u.mmap.build_id,
		              r->u.mmap.build_id_size, sp);
		break;
	}
	case PERF_RECORD_COMM: {
		/* perf keeps a process's maps across an exec (the new
		 * image's MMAP2 records replace what they overlap): a sample
		 * taken in execve still names the old image's frames.
		 * A command's name is any bytes: escaped once here, so that no
		 * format shows a control character raw (an escape sequence
		 * would reach the terminal) */
		char *comm = str_escape_controls(r->u.comm.comm);
		set_comm(rs, r->u.comm.tid, intern(rs, comm));
		free(comm);
		break;
	}
	case PERF_RECORD_FORK: {
		const uint64_t *c = hpm_u64map_find(&p->comm_of_tid, r->u.task.ptid);
		if (c)
			set_comm(rs, r->u.task.tid, (unsigned)*c);
		if (r->u.task.pid != r->u.task.ppid)
			hpm_syms_fork(p->syms, (pid_t)r->u.task.pid, (pid_t)r->u.task.ppid);
		break;
	}
	case PERF_RECORD_EXIT:
		/* a process's end (not one thread's): the symbolizer keeps its
		 * maps for samples still queued, until the pid comes again */
		if (r->u.task.pid == r->u.task.tid)
			hpm_syms_exit(p->syms, (pid_t)r->u.task.pid);
		break;
	case PERF_RECORD_LOST:
		rs->nr_lost += r->u.lost.lost;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		rs->nr_lost_samples += r->u.lost.lost;
		break;
	default:
		break;
	}
}

/* pd_ordered's delivery: a record in perf report's order */
static void deliver(void *rs, const struct pd_record *r)
{
	record(rs, r);
}

static int hist_cmp(const void *a, const void *b)
{
	const struct rs_hist *x = a, *y = b;
	return x->ev - y->ev;
}

static int load(struct rs_report *rs, const struct rs_opts *o, char *err, size_t errlen)
{
	struct priv *p = xcalloc(1, sizeof(*p));
	rs->priv = p;
	hpm_hash_key_new(&p->key);
	rs->opts = *o;
	if (!o->max_stack_given)
		rs->opts.max_stack = RS_MAX_STACK;
	int frc;
	p->filter = rs_filter_new(o, &rs->file, &frc, err, errlen);
	if (frc)
		return -1;
	/* the table the file's raw events are of: --pmu naming another would
	 * give their indices another table's meanings (Kunminghu's two are
	 * told apart by the file only); without --pmu it is the one whose
	 * formulas --topdown takes */
	rs->model = rs->file.hpm_pmu ? hpm_model_by_name(rs->file.hpm_pmu) : NULL;
	const struct hpm_pmu_model *asked = o->pmu ? hpm_model_by_name(o->pmu) : NULL;
	if (rs->model && o->pmu && asked != rs->model) {
		str_seterr(err, errlen,
		           "--pmu %s: the perf.data's raw events are of the %s table (%s); in %s's "
		           "their indices mean other events (leave out --pmu, or give --pmu %s)",
		           o->pmu, rs->model->name, rs->model->display,
		           asked ? asked->name : o->pmu, rs->model->name);
		return -1;
	}
	if (rs->model && !o->pmu)
		rs->opts.pmu = rs->model->name;
	/* -F names its keys: none is none (one entry), as perf */
	if (!rs->opts.nr_key && !rs->opts.fields) {
		rs->opts.nr_key = 3;
		rs->opts.key[0] = RS_KEY_COMM;
		rs->opts.key[1] = RS_KEY_DSO;
		rs->opts.key[2] = RS_KEY_SYM;
	}
	/* perf report decides on --children from the attrs it has before
	 * the first record: a pipe's come later, so a pipe is reported
	 * without Children (perf 6.1 and 6.12 alike) */
	bool children_asked = rs->opts.children; /* perf's graph order follows it still */
	if (rs->file.pipe)
		rs->opts.children = false;
	intern(rs, ""); /* id 0: the masked key */
	struct hpm_syms_opts so = {.kallsyms = o->kallsyms, .no_demangle = o->no_demangle};
	int e = hpm_syms_new(&so, &p->syms);
	if (e) {
		str_seterr(err, errlen, "symbols: %s", hpm_syms_strerror(e));
		return -1;
	}
	for (unsigned i = 0; i < rs->file.nr_bid; i++) {
		const struct pd_build_id *b = &rs->file.bid[i];
		hpm_syms_recorded_build_id(p->syms, b->filename, b->id, b->size);
	}
	p->unwind = rs_unwinder_new(p->syms);
	/* perf report's order (perfdata/ordered.h) */
	struct pd_ordered ord = {.deliver = deliver, .ctx = rs};
	struct pd_record r;
	while (pd_next(&rs->file, &r) == 1)
		if (r.type == PERF_RECORD_FINISHED_ROUND || r.type == PERF_RECORD_SAMPLE ||
		    r.type == PERF_RECORD_MMAP || r.type == PERF_RECORD_MMAP2 ||
		    r.type == PERF_RECORD_COMM || r.type == PERF_RECORD_FORK ||
		    r.type == PERF_RECORD_EXIT || r.type == PERF_RECORD_LOST ||
		    r.type == PERF_RECORD_LOST_SAMPLES)
			pd_ordered_add(&rs->file, &ord, &r);
	pd_ordered_end(&rs->file, &ord);
	if (p->filter)
		rs_filter_apply(p->filter, rs);
	/* the thread's last command, as perf's thread__comm_str, whatever
	 * the comm at each sample: the pid column shows it, and the text's
	 * Command column is as wide as the longest (thread__comm_len) */
	for (unsigned h = 0; h < rs->nr_hist; h++)
		for (unsigned i = 0; i < rs->hist[h].nr_e; i++) {
			struct rs_entry *en = &rs->hist[h].e[i];
			en->tcomm = comm_of(rs, (uint32_t)en->thread);
			if (has_key(rs, RS_KEY_PID) && !has_key(rs, RS_KEY_COMM))
				en->comm = en->tcomm;
		}
	if (rs->nr_hist > 1) {
		qsort(rs->hist, rs->nr_hist, sizeof(*rs->hist), hist_cmp);
		for (unsigned h = 0; h < rs->nr_hist; h++)
			*hpm_u64map_get(&p->hist_of_ev, (uint64_t)rs->hist[h].ev, NULL) = h;
	}
	/* perf's default order: callee, caller with --children */
	if (rs->opts.graph == RS_GRAPH_NONE)
		rs->opts.graph = !rs->nr_node     ? RS_GRAPH_OFF
		                 : children_asked ? RS_GRAPH_CALLER
		                                  : RS_GRAPH_CALLEE;
	if (rs->opts.topdown)
		rs_td_finish(rs);
	if (!rs->nr_samples && rs->file.partial) {
		str_seterr(err, errlen, "no sample could be read (%s)",
		           rs->file.nr_note ? rs->file.note[rs->file.nr_note - 1]
		                            : "the data section is empty");
		return -1;
	}
	return 0;
}

int rs_load(struct rs_report *rs, const char *path, const struct rs_opts *o, char *err,
            size_t errlen)
{
	memset(rs, 0, sizeof(*rs));
	if (pd_open(&rs->file, path, err, errlen) != 0)
		return -1;
	return load(rs, o, err, errlen);
}

int rs_load_fd(struct rs_report *rs, int fd, const char *name, const struct rs_opts *o, char *err,
               size_t errlen)
{
	memset(rs, 0, sizeof(*rs));
	if (pd_open_fd(&rs->file, fd, name, err, errlen) != 0)
		return -1;
	return load(rs, o, err, errlen);
}

int rs_load_buffer(struct rs_report *rs, const void *buf, size_t len, const struct rs_opts *o,
                   char *err, size_t errlen)
{
	memset(rs, 0, sizeof(*rs));
	if (pd_open_buffer(&rs->file, buf, len, err, errlen) != 0)
		return -1;
	return load(rs, o, err, errlen);
}

const char *rs_demangle_why(const struct rs_report *rs)
{
	const struct priv *p = rs->priv;
	return p ? hpm_syms_demangle_why(p->syms) : NULL;
}

void rs_free(struct rs_report *rs)
{
	struct priv *p = rs->priv;
	if (p) {
		rs_unwinder_free(p->unwind);
		rs_filter_free(p->filter);
		free(p->pcs);
		if (p->syms)
			hpm_syms_free(p->syms);
		free(p->tabled);
		hpm_u64map_free(&p->comm_of_tid);
		hpm_u64map_free(&p->hist_of_ev);
		for (unsigned i = 0; i < rs->nr_hist; i++)
			free(p->eh[i]);
		free(p->eh);
		free(p->eh_cap);
		free(p->fh);
		hpm_u64map_free(&p->child_index);
		hpm_u64map_free(&p->prev_of_id);
		free(p->frames);
		free(p->frame_kernel);
		free(p->buf);
		free(p);
	}
	for (unsigned i = 0; i < rs->nr_hist; i++) {
		for (unsigned j = 0; j < rs->hist[i].nr_e; j++) {
			free(rs->hist[i].e[j].delta);
			free(rs->hist[i].e[j].td);
		}
		free(rs->hist[i].e);
		for (unsigned j = 0; j < rs->hist[i].nr_member; j++)
			free(rs->hist[i].member[j]);
		free(rs->hist[i].member);
	}
	free(rs->hist);
	free(rs->node);
	free(rs->folded);
	for (unsigned i = 0; i < rs->nr_str; i++)
		free(rs->str[i]);
	free(rs->str);
	free(rs->str_hash);
	free(rs->td_name);
	free(rs->td_parent);
	pd_close(&rs->file);
	memset(rs, 0, sizeof(*rs));
}
