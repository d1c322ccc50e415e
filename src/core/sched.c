/* sched.c: the counter scheduler (see sched.h for the rules).
 *
 * Owns: sharing of identical requests, the bin packing of perf {...} groups
 * into multiplex groups, counter numbering and the placement text, over the
 * constraint classes of any model.
 *
 * Only {...} groups make the problem hard: ungrouped requests need one free
 * counter of their class in some group, and the total free room over G
 * groups is G x counters - (grouped demand) whatever the packing, so they
 * fit as soon as G reaches the per-class lower bound. The search therefore
 * packs just the {...} groups (a handful in practice), exactly, and gives up
 * on exactness only past HPM_SCHED_MAX_NODES search nodes.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sched.h"
#include "util/xalloc.h"

/* A perf {...} group to pack: its demand per class and its owned requests. */
struct unit {
	int group;        /* perf group id */
	unsigned *demand; /* [classes] */
	unsigned total;
	unsigned *members; /* request indices (owners only) */
	unsigned nr_members;
	unsigned bin; /* multiplex group chosen */
};

struct packer {
	struct unit **u; /* sorted, largest first */
	unsigned nr;
	unsigned nc;         /* classes */
	const unsigned *cap; /* [nc]: counters of each class */
	unsigned *load;      /* [bins][nc] */
	unsigned bins;       /* G being tried */
	unsigned long nodes;
	bool out_of_budget;
};

static bool fits(const struct packer *p, unsigned bin, const struct unit *u)
{
	const unsigned *load = &p->load[(size_t)bin * p->nc];
	for (unsigned c = 0; c < p->nc; c++)
		if (load[c] + u->demand[c] > p->cap[c])
			return false;
	return true;
}

static void put(struct packer *p, unsigned bin, struct unit *u, int sign)
{
	unsigned *load = &p->load[(size_t)bin * p->nc];
	for (unsigned c = 0; c < p->nc; c++)
		load[c] = (unsigned)((int)load[c] + sign * (int)u->demand[c]);
	u->bin = bin;
}

/* Exact search: units i.. into the bins, `used` of them opened so far. An
 * empty bin is tried once (they are interchangeable). */
static bool pack_dfs(struct packer *p, unsigned i, unsigned used)
{
	if (i == p->nr)
		return true;
	if (++p->nodes > HPM_SCHED_MAX_NODES) {
		p->out_of_budget = true;
		return false;
	}
	struct unit *u = p->u[i];
	for (unsigned bin = 0; bin < used; bin++) {
		if (!fits(p, bin, u))
			continue;
		put(p, bin, u, 1);
		if (pack_dfs(p, i + 1, used))
			return true;
		put(p, bin, u, -1);
		if (p->out_of_budget)
			return false;
	}
	if (used < p->bins) {
		put(p, used, u, 1);
		if (pack_dfs(p, i + 1, used + 1))
			return true;
		put(p, used, u, -1);
	}
	return false;
}

/* First fit, largest first: the fallback, and an upper bound for G. */
static unsigned pack_ffd(struct packer *p)
{
	unsigned used = 0;
	for (unsigned i = 0; i < p->nr; i++) {
		unsigned bin = 0;
		while (bin < used && !fits(p, bin, p->u[i]))
			bin++;
		if (bin == used)
			used++;
		put(p, bin, p->u[i], 1);
	}
	return used;
}

static int cmp_unit(const void *a, const void *b)
{
	const struct unit *x = *(const struct unit *const *)a, *y = *(const struct unit *const *)b;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->group < y->group ? -1 : x->group > y->group; /* stable: by group id */
}

static const char *req_name(const struct hpm_sched_req *r, unsigned i, char *buf, size_t len)
{
	if (r->name)
		return r->name;
	snprintf(buf, len, "request %u", i);
	return buf;
}

/* Rule 1: owners. */
static void share(struct hpm_sched_req *req, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++) {
		struct hpm_sched_req *r = &req[i];
		r->owner = i;
		for (unsigned j = 0; j < i; j++) {
			const struct hpm_sched_req *o = &req[j];
			if (o->owner != j || o->fixed != r->fixed)
				continue;
			if (r->fixed ? o->fixed_counter != r->fixed_counter
			             : (o->constraint != r->constraint || o->value != r->value))
				continue;
			/* a grouped request only shares inside its own group; an
			 * ungrouped one with anything (fixed counters are always
			 * counted, so they share across groups too) */
			if (!r->fixed && r->group >= 0 && o->group != r->group)
				continue;
			r->owner = j;
			break;
		}
	}
	/* An ungrouped owner that a grouped request duplicates: the ungrouped
	 * one found no owner when it came first, so look again the other way
	 * round and let it follow the grouped one. */
	for (unsigned i = 0; i < nr; i++) {
		struct hpm_sched_req *r = &req[i];
		if (r->fixed || r->group >= 0 || r->owner != i)
			continue;
		for (unsigned j = i + 1; j < nr; j++) {
			const struct hpm_sched_req *o = &req[j];
			if (o->fixed || o->group < 0 || o->owner != j ||
			    o->constraint != r->constraint || o->value != r->value)
				continue;
			r->owner = j;
			break;
		}
	}
	/* followers of a request that now follows someone else */
	for (unsigned i = 0; i < nr; i++)
		while (req[req[i].owner].owner != req[i].owner)
			req[i].owner = req[req[i].owner].owner;
}

/* Rule 0: requests that a fixed counter counts as well go there while no
 * request asks for that counter: the first such request, and those
 * identical to it. */
static void take_alt_fixed(const struct hpm_pmu_model *m, struct hpm_sched_req *req, unsigned nr)
{
	uint32_t taken = 0;
	for (unsigned i = 0; i < nr; i++) {
		if (req[i].moved) /* a build before this one moved it */
			req[i].fixed = req[i].moved = false;
		if (req[i].fixed && req[i].fixed_counter < HPM_SCHED_MAX_COUNTERS)
			taken |= UINT32_C(1) << req[i].fixed_counter;
	}
	for (unsigned i = 0; i < nr; i++) {
		struct hpm_sched_req *r = &req[i];
		if (r->fixed || !r->alt_fixed || r->alt_counter >= HPM_SCHED_MAX_COUNTERS ||
		    (taken & (UINT32_C(1) << r->alt_counter)) ||
		    hpm_model_fixed_by_counter(m, r->alt_counter) < 0)
			continue;
		taken |= UINT32_C(1) << r->alt_counter;
		for (unsigned j = i; j < nr; j++) {
			struct hpm_sched_req *o = &req[j];
			if (o->fixed || !o->alt_fixed || o->alt_counter != r->alt_counter ||
			    o->value != r->value)
				continue;
			o->fixed = o->moved = true;
			o->fixed_counter = o->alt_counter;
		}
	}
}

/* The counters of every class: first..last, below HPM_SCHED_MAX_COUNTERS,
 * no counter in two classes or taken by a fixed counter. */
static int check_model(const struct hpm_pmu_model *m, unsigned *first, unsigned *cap, char *err,
                       size_t errlen)
{
	uint32_t seen = 0;
	for (unsigned i = 0; i < m->nr_fixed; i++) {
		if (m->fixed[i].counter >= HPM_SCHED_MAX_COUNTERS)
			goto bad;
		seen |= UINT32_C(1) << m->fixed[i].counter;
	}
	for (unsigned c = 0; c < m->nr_constraints; c++) {
		unsigned lo, hi;
		m->constraint_counters(m, (int)c, &lo, &hi);
		if (lo > hi || hi >= HPM_SCHED_MAX_COUNTERS)
			goto bad;
		for (unsigned n = lo; n <= hi; n++) {
			if (seen & (UINT32_C(1) << n))
				goto bad;
			seen |= UINT32_C(1) << n;
		}
		first[c] = lo;
		cap[c] = hi - lo + 1;
	}
	return 0;
bad:
	snprintf(err, errlen,
	         "%s: the scheduler needs counters numbered below %u, each in one %s or fixed",
	         m->name, HPM_SCHED_MAX_COUNTERS, m->counters.class_word);
	return -1;
}

/* What hpm_sched_build works with: the model's classes (each one's first
 * counter and capacity), the requests' demand per class, and the units. */
struct build {
	const struct hpm_pmu_model *m;
	struct hpm_sched_req *req;
	unsigned nr, nc;
	unsigned *first, *cap, *total, *singles;
	struct unit *units;
	struct unit **order; /* the units, largest first */
	unsigned nr_units;
};

/* Every request names a fixed counter of the model or a class it has. */
static int check_requests(struct build *b, char *err, size_t errlen)
{
	char nb[32];
	const struct hpm_pmu_model *m = b->m;
	struct hpm_sched_req *req = b->req;
	const unsigned nr = b->nr, nc = b->nc;
	for (unsigned i = 0; i < nr; i++) {
		struct hpm_sched_req *r = &req[i];
		r->mux = HPM_SCHED_ALWAYS;
		r->counter = 0;
		if (r->fixed) {
			if (hpm_model_fixed_by_counter(m, r->fixed_counter) < 0) {
				snprintf(err, errlen, "%s: counter %u is no fixed counter of %s",
				         req_name(r, i, nb, sizeof(nb)), r->fixed_counter,
				         m->display);
				return -1;
			}
		} else if (r->constraint < 0 || r->constraint >= (int)nc) {
			snprintf(err, errlen,
			         "%s: no %s known for this event, so no counter can count it",
			         req_name(r, i, nb, sizeof(nb)), m->counters.class_word);
			return -1;
		}
	}
	return 0;
}

/* Rule 1's units: one per perf group that has class requests of its own,
 * none needing more counters of a class than there are. */
static int make_units(struct build *b, char *err, size_t errlen)
{
	char nb[32];
	const struct hpm_pmu_model *m = b->m;
	struct hpm_sched_req *req = b->req;
	const unsigned nr = b->nr, nc = b->nc;
	const unsigned *first = b->first, *cap = b->cap;
	unsigned *total = b->total, *singles = b->singles;
	struct unit *units;
	struct unit **order;
	unsigned nr_units = 0;
	b->units = units = xcalloc(nr ? nr : 1, sizeof(*units));
	b->order = order = xcalloc(nr ? nr : 1, sizeof(*order));
	for (unsigned i = 0; i < nr; i++) {
		struct hpm_sched_req *r = &req[i];
		if (r->fixed || r->owner != i)
			continue;
		total[r->constraint]++;
		if (r->group < 0) {
			singles[r->constraint]++;
			continue;
		}
		struct unit *u = NULL;
		for (unsigned k = 0; k < nr_units; k++)
			if (units[k].group == r->group)
				u = &units[k];
		if (!u) {
			u = &units[nr_units++];
			u->group = r->group;
			u->demand = xcalloc(nc, sizeof(*u->demand));
			u->members = xcalloc(nr, sizeof(*u->members));
		}
		u->members[u->nr_members++] = i;
		u->demand[r->constraint]++;
		u->total++;
	}
	b->nr_units = nr_units; /* freed by the caller, also on a refusal */
	for (unsigned k = 0; k < nr_units; k++) {
		for (unsigned c = 0; c < nc; c++) {
			if (units[k].demand[c] <= cap[c])
				continue;
			const struct hpm_sched_req *r = &req[units[k].members[0]];
			const char *cname =
			    m->constraint_name ? m->constraint_name(m, (int)c) : NULL;
			if (!cname)
				cname = m->counters.class_word;
			snprintf(err, errlen,
			         "the group of %s needs %u %s counters at once but the %s %s has "
			         "only %u (%s%u-%u): it can never be counted whole",
			         req_name(r, units[k].members[0], nb, sizeof(nb)),
			         units[k].demand[c], cname, cname, m->counters.class_word, cap[c],
			         m->counters.counter_prefix, first[c], first[c] + cap[c] - 1);
			return -1;
		}
		order[k] = &units[k];
	}
	qsort(order, nr_units, sizeof(*order), cmp_unit);
	return 0;
}

/* Rule 2: the fewest groups, the units packed into them (FFD, then the
 * exact search below its count while the budget lasts); p->load holds the
 * final loads. */
static unsigned pack_groups(struct build *b, struct packer *p, struct hpm_sched *out)
{
	struct unit **order = b->order;
	const unsigned nr_units = b->nr_units, nc = b->nc;
	const unsigned *cap = b->cap, *total = b->total;
	unsigned lower = 1;
	for (unsigned c = 0; c < nc; c++) {
		unsigned need = (total[c] + cap[c] - 1) / cap[c];
		if (need > lower)
			lower = need;
	}
	*p = (struct packer){.u = order, .nr = nr_units, .nc = nc, .cap = cap};
	const size_t load_size = (size_t)(nr_units + lower + 1) * nc * sizeof(*p->load);
	p->load = xcalloc(1, load_size ? load_size : 1);
	unsigned ffd = pack_ffd(p);
	unsigned *ffd_bin = xcalloc(nr_units ? nr_units : 1, sizeof(*ffd_bin));
	for (unsigned k = 0; k < nr_units; k++)
		ffd_bin[k] = order[k]->bin;
	unsigned groups = ffd > lower ? ffd : lower;
	out->exact = true;
	for (unsigned g = lower; g < groups; g++) {
		memset(p->load, 0, load_size);
		p->bins = g;
		p->nodes = 0;
		p->out_of_budget = false;
		if (pack_dfs(p, 0, 0)) {
			groups = g;
			memset(ffd_bin, 0xff, (nr_units ? nr_units : 1) * sizeof(*ffd_bin));
			break;
		}
		if (p->out_of_budget) {
			out->exact = false;
			break;
		}
	}
	/* the final loads: from the search when it won, else from FFD */
	memset(p->load, 0, load_size);
	for (unsigned k = 0; k < nr_units; k++) {
		unsigned bin = ffd_bin[k] != UINT_MAX ? ffd_bin[k] : order[k]->bin;
		put(p, bin, order[k], 1);
	}
	free(ffd_bin);
	return groups;
}

/* Rules 3 and 4 for class c: its counters, group by group; a single that
 * fits beside every group's load counts always, else it is multiplexed. */
static void assign_class(struct build *b, unsigned c, const struct packer *p, unsigned groups,
                         struct hpm_sched *out)
{
	struct hpm_sched_req *req = b->req;
	const unsigned nr = b->nr, nc = b->nc, nr_units = b->nr_units;
	const unsigned *first = b->first, *cap = b->cap, *singles = b->singles;
	struct unit **order = b->order;
	unsigned maxload = 0;
	for (unsigned g = 0; g < groups; g++)
		if (p->load[(size_t)g * nc + c] > maxload)
			maxload = p->load[(size_t)g * nc + c];
	bool always = groups == 1 || maxload + singles[c] <= cap[c];
	unsigned *next = xcalloc(groups, sizeof(*next)); /* next free counter offset */

	for (unsigned i = 0; always && i < nr; i++) {
		struct hpm_sched_req *r = &req[i];
		if (r->fixed || r->owner != i || r->group >= 0 || r->constraint != (int)c)
			continue;
		unsigned n = first[c] + next[0];
		for (unsigned g = 0; g < groups; g++) {
			next[g]++;
			out->groups[g].used |= UINT32_C(1) << n;
			out->groups[g].event[n] = r->value;
			out->groups[g].owner[n] = (int)i;
		}
		r->counter = n;
		r->mux = groups == 1 ? 0 : HPM_SCHED_ALWAYS;
	}
	for (unsigned k = 0; k < nr_units; k++) {
		const struct unit *u = order[k];
		for (unsigned j = 0; j < u->nr_members; j++) {
			struct hpm_sched_req *r = &req[u->members[j]];
			if (r->constraint != (int)c)
				continue;
			unsigned n = first[c] + next[u->bin]++;
			out->groups[u->bin].used |= UINT32_C(1) << n;
			out->groups[u->bin].event[n] = r->value;
			out->groups[u->bin].owner[n] = (int)u->members[j];
			r->counter = n;
			r->mux = (int)u->bin;
		}
	}
	unsigned g = 0;
	for (unsigned i = 0; !always && i < nr; i++) {
		struct hpm_sched_req *r = &req[i];
		if (r->fixed || r->owner != i || r->group >= 0 || r->constraint != (int)c)
			continue;
		while (next[g] >= cap[c])
			g++; /* cannot run past the end: G x cap >= total */
		unsigned n = first[c] + next[g]++;
		out->groups[g].used |= UINT32_C(1) << n;
		out->groups[g].event[n] = r->value;
		out->groups[g].owner[n] = (int)i;
		r->counter = n;
		r->mux = (int)g;
	}
	free(next);
}

int hpm_sched_build(const struct hpm_pmu_model *m, struct hpm_sched_req *req, unsigned nr,
                    struct hpm_sched *out, char *err, size_t errlen)
{
	const unsigned nc = m->nr_constraints;
	struct build b = {
	    .m = m,
	    .req = req,
	    .nr = nr,
	    .nc = nc,
	    .first = xcalloc(nc ? nc : 1, sizeof(*b.first)),
	    .cap = xcalloc(nc ? nc : 1, sizeof(*b.cap)),
	    .total = xcalloc(nc ? nc : 1, sizeof(*b.total)),
	    .singles = xcalloc(nc ? nc : 1, sizeof(*b.singles)),
	};
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->model = m;
	if (check_model(m, b.first, b.cap, err, errlen))
		goto out;
	take_alt_fixed(m, req, nr);
	if (check_requests(&b, err, errlen))
		goto out;
	share(req, nr);
	if (make_units(&b, err, errlen))
		goto out;

	struct packer p;
	unsigned groups = pack_groups(&b, &p, out);
	out->nr_groups = groups;
	out->groups = xcalloc(groups, sizeof(*out->groups));
	for (unsigned g = 0; g < groups; g++)
		for (unsigned n = 0; n < HPM_SCHED_MAX_COUNTERS; n++)
			out->groups[g].owner[n] = -1;

	/* rule 3/4: counters, class by class */
	for (unsigned c = 0; c < nc; c++)
		assign_class(&b, c, &p, groups, out);
	free(p.load);

	/* fixed counters and followers */
	for (unsigned i = 0; i < nr; i++) {
		struct hpm_sched_req *r = &req[i];
		if (r->fixed) {
			r->counter = r->fixed_counter;
			r->mux = groups == 1 ? 0 : HPM_SCHED_ALWAYS;
		} else if (r->owner != i) {
			r->counter = req[r->owner].counter;
			r->mux = req[r->owner].mux;
		}
	}
	out->always = out->groups[0].used;
	for (unsigned g = 1; g < groups; g++)
		out->always &= ~hpm_sched_changes(out, 0, g);
	rc = 0;
out:
	for (unsigned k = 0; k < b.nr_units; k++) {
		free(b.units[k].demand);
		free(b.units[k].members);
	}
	free(b.units);
	free(b.order);
	free(b.first);
	free(b.cap);
	free(b.total);
	free(b.singles);
	return rc;
}

void hpm_sched_free(struct hpm_sched *s)
{
	free(s->groups);
	memset(s, 0, sizeof(*s));
}

uint32_t hpm_sched_changes(const struct hpm_sched *s, unsigned a, unsigned b)
{
	uint32_t m = 0;
	for (unsigned n = 0; n < HPM_SCHED_MAX_COUNTERS; n++)
		if (s->groups[a].owner[n] != s->groups[b].owner[n])
			m |= UINT32_C(1) << n;
	return m;
}

const char *hpm_sched_describe(const struct hpm_sched *s, const struct hpm_sched_req *req,
                               unsigned r, char *buf, size_t len)
{
	const struct hpm_sched_req *q = &req[r];
	char nb[32];
	int n;

	if (q->fixed) {
		int f = hpm_model_fixed_by_counter(s->model, q->counter);
		snprintf(buf, len, "%s", f >= 0 ? s->model->fixed[f].name : "?");
		return buf;
	}
	n = snprintf(buf, len, "%s%u (0x%016" PRIx64 ")", s->model->counters.counter_prefix,
	             q->counter, q->value);
	if (n >= 0 && (size_t)n < len && s->nr_groups > 1) {
		if (q->mux == HPM_SCHED_ALWAYS)
			n += snprintf(buf + n, len - (size_t)n, ", every group");
		else
			n += snprintf(buf + n, len - (size_t)n, ", group %d of %u", q->mux,
			              s->nr_groups);
	}
	if (n >= 0 && (size_t)n < len && q->owner != r)
		snprintf(buf + n, len - (size_t)n, ", shared with %s",
		         req_name(&req[q->owner], q->owner, nb, sizeof(nb)));
	return buf;
}
