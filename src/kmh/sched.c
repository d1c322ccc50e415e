/* sched.c: the Kunminghu counter scheduler (see sched.h for the rules).
 *
 * Owns: sharing of identical requests, the bin packing of perf {...} groups
 * into multiplex groups, counter numbering, the placement text and the ADD
 * merge helper.
 *
 * Only {...} groups make the problem hard: ungrouped requests need one free
 * counter of their bank in some group, and the total free room over G groups
 * is G x counters - (grouped demand) whatever the packing, so they fit as
 * soon as G reaches the per-bank lower bound. The search therefore packs
 * just the {...} groups (a handful in practice), exactly, and gives up on
 * exactness only past HPM_SCHED_MAX_NODES search nodes.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmh/sched.h"
#include "util/xalloc.h"

/* A perf {...} group to pack: its demand per bank and its owned requests. */
struct unit {
	int group; /* perf group id */
	unsigned demand[KMH_NR_BANKS];
	unsigned total;
	unsigned *members; /* request indices (owners only) */
	unsigned nr_members;
	unsigned bin; /* multiplex group chosen */
};

struct packer {
	struct unit **u; /* sorted, largest first */
	unsigned nr;
	unsigned cap[KMH_NR_BANKS];
	unsigned (*load)[KMH_NR_BANKS]; /* [bins] */
	unsigned bins;                  /* G being tried */
	unsigned long nodes;
	bool out_of_budget;
};

static unsigned bank_cap(int b)
{
	return kmh_banks[b].last_counter - kmh_banks[b].first_counter + 1;
}

static bool fits(const struct packer *p, unsigned bin, const struct unit *u)
{
	for (int b = 0; b < KMH_NR_BANKS; b++)
		if (p->load[bin][b] + u->demand[b] > p->cap[b])
			return false;
	return true;
}

static void put(struct packer *p, unsigned bin, struct unit *u, int sign)
{
	for (int b = 0; b < KMH_NR_BANKS; b++)
		p->load[bin][b] = (unsigned)((int)p->load[bin][b] + sign * (int)u->demand[b]);
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
			             : (o->bank != r->bank || o->value != r->value))
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
			if (o->fixed || o->group < 0 || o->owner != j || o->bank != r->bank ||
			    o->value != r->value)
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

int hpm_sched_build(struct hpm_sched_req *req, unsigned nr, struct hpm_sched *out, char *err,
                    size_t errlen)
{
	char nb[32];
	unsigned cap[KMH_NR_BANKS], total[KMH_NR_BANKS] = {0}, singles[KMH_NR_BANKS] = {0};
	int rc = -1;

	memset(out, 0, sizeof(*out));
	for (int b = 0; b < KMH_NR_BANKS; b++)
		cap[b] = bank_cap(b);
	for (unsigned i = 0; i < nr; i++) {
		struct hpm_sched_req *r = &req[i];
		r->mux = HPM_SCHED_ALWAYS;
		r->counter = 0;
		if (r->fixed) {
			if (r->fixed_counter != HPM_SCHED_MCYCLE &&
			    r->fixed_counter != HPM_SCHED_MINSTRET) {
				snprintf(err, errlen,
				         "%s: fixed counter %u is neither mcycle nor "
				         "minstret",
				         req_name(r, i, nb, sizeof(nb)), r->fixed_counter);
				return -1;
			}
		} else if (r->bank < 0 || r->bank >= KMH_NR_BANKS) {
			snprintf(err, errlen,
			         "%s: no bank known for this event, so no counter can count it",
			         req_name(r, i, nb, sizeof(nb)));
			return -1;
		}
	}
	share(req, nr);

	/* units: one per perf group that has bank requests of its own */
	struct unit *units = xcalloc(nr ? nr : 1, sizeof(*units));
	struct unit **order = xcalloc(nr ? nr : 1, sizeof(*order));
	unsigned nr_units = 0;
	for (unsigned i = 0; i < nr; i++) {
		struct hpm_sched_req *r = &req[i];
		if (r->fixed || r->owner != i)
			continue;
		total[r->bank]++;
		if (r->group < 0) {
			singles[r->bank]++;
			continue;
		}
		struct unit *u = NULL;
		for (unsigned k = 0; k < nr_units; k++)
			if (units[k].group == r->group)
				u = &units[k];
		if (!u) {
			u = &units[nr_units++];
			u->group = r->group;
			u->members = xcalloc(nr, sizeof(*u->members));
		}
		u->members[u->nr_members++] = i;
		u->demand[r->bank]++;
		u->total++;
	}
	for (unsigned k = 0; k < nr_units; k++) {
		for (int b = 0; b < KMH_NR_BANKS; b++) {
			if (units[k].demand[b] <= cap[b])
				continue;
			const struct hpm_sched_req *first = &req[units[k].members[0]];
			snprintf(err, errlen,
			         "the group of %s needs %u %s counters at once but the %s bank has "
			         "only %u (mhpmcounter%u-%u): it can never be counted whole",
			         req_name(first, units[k].members[0], nb, sizeof(nb)),
			         units[k].demand[b], kmh_banks[b].name, kmh_banks[b].name, cap[b],
			         kmh_banks[b].first_counter, kmh_banks[b].last_counter);
			goto out;
		}
		order[k] = &units[k];
	}
	qsort(order, nr_units, sizeof(*order), cmp_unit);

	/* rule 2: the fewest groups */
	unsigned lower = 1;
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		unsigned need = (total[b] + cap[b] - 1) / cap[b];
		if (need > lower)
			lower = need;
	}
	struct packer p = {.u = order, .nr = nr_units};
	memcpy(p.cap, cap, sizeof(cap));
	p.load = xcalloc(nr_units + lower + 1, sizeof(*p.load));
	unsigned ffd = pack_ffd(&p);
	unsigned *ffd_bin = xcalloc(nr_units ? nr_units : 1, sizeof(*ffd_bin));
	for (unsigned k = 0; k < nr_units; k++)
		ffd_bin[k] = order[k]->bin;
	unsigned groups = ffd > lower ? ffd : lower;
	out->exact = true;
	for (unsigned g = lower; g < groups; g++) {
		memset(p.load, 0, (nr_units + lower + 1) * sizeof(*p.load));
		p.bins = g;
		p.nodes = 0;
		p.out_of_budget = false;
		if (pack_dfs(&p, 0, 0)) {
			groups = g;
			memset(ffd_bin, 0xff, (nr_units ? nr_units : 1) * sizeof(*ffd_bin));
			break;
		}
		if (p.out_of_budget) {
			out->exact = false;
			break;
		}
	}
	/* the final loads: from the search when it won, else from FFD */
	memset(p.load, 0, (nr_units + lower + 1) * sizeof(*p.load));
	for (unsigned k = 0; k < nr_units; k++) {
		unsigned bin = ffd_bin[k] != UINT_MAX ? ffd_bin[k] : order[k]->bin;
		put(&p, bin, order[k], 1);
	}
	free(ffd_bin);

	out->nr_groups = groups;
	out->groups = xcalloc(groups, sizeof(*out->groups));
	for (unsigned g = 0; g < groups; g++)
		for (unsigned n = 0; n < 32; n++)
			out->groups[g].owner[n] = -1;

	/* rule 3/4: counters, bank by bank */
	for (int b = 0; b < KMH_NR_BANKS; b++) {
		unsigned maxload = 0;
		for (unsigned g = 0; g < groups; g++)
			if (p.load[g][b] > maxload)
				maxload = p.load[g][b];
		bool always = groups == 1 || maxload + singles[b] <= cap[b];
		unsigned first = kmh_banks[b].first_counter;
		unsigned *next = xcalloc(groups, sizeof(*next)); /* next free counter offset */

		for (unsigned i = 0; always && i < nr; i++) {
			struct hpm_sched_req *r = &req[i];
			if (r->fixed || r->owner != i || r->group >= 0 || r->bank != b)
				continue;
			unsigned n = first + next[0];
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
			for (unsigned m = 0; m < u->nr_members; m++) {
				struct hpm_sched_req *r = &req[u->members[m]];
				if (r->bank != b)
					continue;
				unsigned n = first + next[u->bin]++;
				out->groups[u->bin].used |= UINT32_C(1) << n;
				out->groups[u->bin].event[n] = r->value;
				out->groups[u->bin].owner[n] = (int)u->members[m];
				r->counter = n;
				r->mux = (int)u->bin;
			}
		}
		unsigned g = 0;
		for (unsigned i = 0; !always && i < nr; i++) {
			struct hpm_sched_req *r = &req[i];
			if (r->fixed || r->owner != i || r->group >= 0 || r->bank != b)
				continue;
			while (next[g] >= cap[b])
				g++; /* cannot run past the end: G x cap >= total */
			unsigned n = first + next[g]++;
			out->groups[g].used |= UINT32_C(1) << n;
			out->groups[g].event[n] = r->value;
			out->groups[g].owner[n] = (int)i;
			r->counter = n;
			r->mux = (int)g;
		}
		free(next);
	}
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
	for (unsigned k = 0; k < nr_units; k++)
		free(units[k].members);
	free(units);
	free(order);
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
	for (unsigned n = KMH_FIRST_COUNTER; n <= KMH_LAST_COUNTER; n++)
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
		snprintf(buf, len, "%s", q->counter == HPM_SCHED_MCYCLE ? "mcycle" : "minstret");
		return buf;
	}
	n = snprintf(buf, len, "mhpmcounter%u (0x%016" PRIx64 ")", q->counter, q->value);
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

/* ------------------------------------------------------------------ merge */

/* The one event slot of a single-event request whose counter counts exactly
 * that event (the tree passes it through unchanged), or -1. */
static int single_slot(const struct kmh_encoding *e)
{
	int slot = -1;
	if (e->nr_events != 1)
		return -1;
	for (unsigned s = 0; s < KMH_NR_SLOTS; s++) {
		if (!kmh_mhpmevent_event(e->value, s))
			continue;
		if (slot >= 0)
			return -1;
		slot = (int)s;
	}
	if (slot < 0)
		return -1;
	/* a raw value could hide the event behind an AND with noEvent */
	for (unsigned v = 1; v < 64; v++) {
		unsigned in[KMH_NR_SLOTS] = {0};
		in[slot] = v;
		if (kmh_mhpmevent_combine(e->value, in) != v)
			return -1;
	}
	return slot;
}

bool hpm_sched_can_merge(const struct kmh_encoding *a, const struct kmh_encoding *b)
{
	if (a->bank < 0 || a->bank >= KMH_NR_BANKS || a->bank != b->bank)
		return false;
	if (a->modes != b->modes || (a->value & KMH_INH_MASK) != (b->value & KMH_INH_MASK))
		return false;
	int sa = single_slot(a), sb = single_slot(b);
	if (sa < 0 || sb < 0)
		return false;
	return kmh_mhpmevent_event(a->value, (unsigned)sa) !=
	       kmh_mhpmevent_event(b->value, (unsigned)sb);
}

int hpm_sched_merge(const struct kmh_encoding *a, const struct kmh_encoding *b,
                    struct kmh_encoding *out)
{
	if (!hpm_sched_can_merge(a, b))
		return -1;
	unsigned ea = kmh_mhpmevent_event(a->value, (unsigned)single_slot(a));
	unsigned eb = kmh_mhpmevent_event(b->value, (unsigned)single_slot(b));
	uint64_t v = a->value & KMH_INH_MASK;
	v = kmh_mhpmevent_set_event(v, 0, ea);
	v = kmh_mhpmevent_set_event(v, 1, eb);
	v = kmh_mhpmevent_set_op(v, 0, KMH_OP_ADD);
	v = kmh_mhpmevent_set_op(v, 1, KMH_OP_OR);
	v = kmh_mhpmevent_set_op(v, 2, KMH_OP_OR);

	memset(out, 0, sizeof(*out));
	out->value = v;
	out->bank = a->bank;
	out->modes = a->modes;
	out->modes_given = a->modes_given || b->modes_given;
	out->nr_events = 2;
	struct kmh_decoded d;
	kmh_decode(v, a->bank, &d);
	if (d.exact)
		snprintf(out->canonical, sizeof(out->canonical), "%s", d.expr);
	else
		snprintf(out->canonical, sizeof(out->canonical), "r%" PRIx64, v);
	return 0;
}
