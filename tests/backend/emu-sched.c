/* emu-sched.c: the counter scheduler (src/core/sched.c) over the Kunminghu
 * model, and Kunminghu's ADD merge (src/kmh/merge.c), on hand-built
 * requests; expected placements and encodings are worked out by hand from
 * SPEC §1 (banks: frontend 3-10, backend 11-18, memblock 19-26, cache
 * 27-31).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sched.h"
#include "kmh/kmh.h"
#include "kmh/merge.h"
#include "kmh/model.h"
#include "tap.h"

#define MAXREQ 64

static const struct hpm_pmu_model *const KMH = &hpm_model_kunminghu;

struct set {
	struct hpm_sched_req r[MAXREQ];
	struct kmh_encoding enc[MAXREQ];
	char names[MAXREQ][64];
	unsigned n;
};

static unsigned add(struct set *s, const char *expr, int group)
{
	struct hpm_diag err;
	unsigned i = s->n++;
	memset(&s->r[i], 0, sizeof(s->r[i]));
	snprintf(s->names[i], sizeof(s->names[i]), "%s", expr);
	s->r[i].name = s->names[i];
	s->r[i].group = group;
	if (!strcmp(expr, "mcycle") || !strcmp(expr, "minstret")) {
		s->r[i].fixed = true;
		s->r[i].fixed_counter = expr[1] == 'c' ? 0 : 2; /* mcycle, minstret */
		return i;
	}
	if (kmh_encode(&kmh_table_v2, expr, &s->enc[i], &err)) {
		tap_diag("%s: %s", expr, err.msg);
		abort();
	}
	s->r[i].constraint = s->enc[i].bank;
	s->r[i].value = s->enc[i].value;
	return i;
}

/* n distinct events of one bank: BANK:1..BANK:n (indices are dense). */
static void add_n(struct set *s, const char *bank, unsigned first, unsigned n, int group)
{
	char buf[64];
	for (unsigned k = 0; k < n; k++) {
		snprintf(buf, sizeof(buf), "%s:%u", bank, first + k);
		add(s, buf, group);
	}
}

/* Structural checks every schedule must pass: a counter of the request's
 * bank, one owner per counter per group, each owner in exactly the groups
 * its mux says, followers on their owner's counter. */
static bool consistent(const struct set *s, const struct hpm_sched *sc)
{
	for (unsigned i = 0; i < s->n; i++) {
		const struct hpm_sched_req *r = &s->r[i];
		if (r->fixed) {
			if (r->counter != r->fixed_counter)
				return tap_diag("%s: fixed on %u", r->name, r->counter), false;
			continue;
		}
		if (r->owner != i) {
			const struct hpm_sched_req *o = &s->r[r->owner];
			if (o->owner != r->owner || o->counter != r->counter || o->mux != r->mux)
				return tap_diag("%s: follower off its owner", r->name), false;
			continue;
		}
		if (kmh_bank_of_counter(&kmh_table_v2, r->counter) != r->constraint)
			return tap_diag("%s: counter %u of another bank", r->name, r->counter),
			       false;
		for (unsigned g = 0; g < sc->nr_groups; g++) {
			bool in = sc->groups[g].owner[r->counter] == (int)i;
			bool want = r->mux == HPM_SCHED_ALWAYS || r->mux == (int)g;
			if (in != want)
				return tap_diag("%s: group %u membership wrong", r->name, g), false;
			if (in && sc->groups[g].event[r->counter] != r->value)
				return tap_diag("%s: wrong value programmed", r->name), false;
		}
	}
	for (unsigned g = 0; g < sc->nr_groups; g++)
		if (sc->groups[g].used & 7u)
			return tap_diag("group %u uses counter 0-2", g), false;
	return true;
}

static unsigned in_group(const struct set *s, int g)
{
	unsigned n = 0;
	for (unsigned i = 0; i < s->n; i++)
		n += !s->r[i].fixed && s->r[i].owner == i && s->r[i].mux == g;
	return n;
}

static void test_counts(void)
{
	static const struct {
		unsigned backend, groups;
	} cases[] = {{1, 1}, {8, 1}, {9, 2}, {16, 2}, {17, 3}, {24, 3}, {25, 4}};
	char err[256];
	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct set s = {.n = 0};
		struct hpm_sched sc;
		add_n(&s, "backend", 1, cases[c].backend, -1);
		int rc = hpm_sched_build(KMH, s.r, s.n, &sc, err, sizeof(err));
		tap_ok(rc == 0 && sc.nr_groups == cases[c].groups,
		       "%u backend requests -> %u groups (got %u)", cases[c].backend,
		       cases[c].groups, sc.nr_groups);
		tap_ok(consistent(&s, &sc), "%u backend requests: placement consistent",
		       cases[c].backend);
		bool filled = true;
		for (unsigned g = 0; g + 1 < sc.nr_groups; g++)
			filled &= in_group(&s, (int)g) == 8;
		unsigned total = 0;
		for (unsigned g = 0; g < sc.nr_groups; g++)
			total += in_group(&s, (int)g);
		if (sc.nr_groups > 1)
			tap_ok(filled && total == cases[c].backend,
			       "%u backend requests: groups filled in order, each request in "
			       "exactly one group",
			       cases[c].backend);
		hpm_sched_free(&sc);
	}
}

static void test_one_group(void)
{
	struct set s = {.n = 0};
	struct hpm_sched sc;
	char err[256], buf[256];
	add(&s, "rob_commitInstr", -1);
	add(&s, "Front_Bubble", -1);
	add(&s, "MEMSTALL_ANY_LOAD", -1);
	add(&s, "INST_SPEC", -1);
	add(&s, "mcycle", -1);
	add(&s, "minstret", -1);
	tap_ok(hpm_sched_build(KMH, s.r, s.n, &sc, err, sizeof(err)) == 0 && sc.nr_groups == 1,
	       "a mixed set that fits: one group");
	tap_ok(consistent(&s, &sc), "mixed set: consistent");
	tap_ok(s.r[0].counter == 11 && s.r[3].counter == 12 && s.r[1].counter == 3 &&
	           s.r[2].counter == 19,
	       "counters from the bank's lowest up: backend 11, 12; frontend 3; memblock 19");
	tap_ok(s.r[4].counter == 0 && s.r[5].counter == 2, "mcycle on 0, minstret on 2");
	tap_is_str(hpm_sched_describe(&sc, s.r, 0, buf, sizeof(buf)),
	           "mhpmcounter11 (0x4000000000000035)", "placement text, one group");
	tap_is_str(hpm_sched_describe(&sc, s.r, 4, buf, sizeof(buf)), "mcycle",
	           "placement text of mcycle");
	tap_ok(sc.always == ((1u << 11) | (1u << 12) | (1u << 3) | (1u << 19)),
	       "one group: every used counter is never reprogrammed");
	hpm_sched_free(&sc);
}

static void test_fixed(void)
{
	struct set s = {.n = 0};
	struct hpm_sched sc;
	char err[256];
	add_n(&s, "backend", 1, 8, -1);
	add(&s, "mcycle", -1);
	add(&s, "minstret", -1);
	add(&s, "mcycle", 0); /* even inside a group */
	tap_ok(hpm_sched_build(KMH, s.r, s.n, &sc, err, sizeof(err)) == 0 && sc.nr_groups == 1,
	       "8 backend + mcycle + minstret: still one group (fixed counters are extra)");
	tap_ok(consistent(&s, &sc), "fixed: consistent, no group uses counters 0-2");
	tap_ok(s.r[10].owner == 8 && s.r[10].counter == 0, "a second mcycle shares the first");
	hpm_sched_free(&sc);

	struct set m = {.n = 0};
	add_n(&m, "backend", 1, 9, -1);
	add(&m, "mcycle", -1);
	tap_ok(hpm_sched_build(KMH, m.r, m.n, &sc, err, sizeof(err)) == 0 && sc.nr_groups == 2 &&
	           m.r[9].mux == HPM_SCHED_ALWAYS,
	       "multiplexed: mcycle counted in every group");
	hpm_sched_free(&sc);
}

static void test_groups(void)
{
	struct set s = {.n = 0};
	struct hpm_sched sc;
	char err[256];

	/* three {...} groups of 5 backend events: 15 requests fit 2 x 8 by
	 * count, but no two groups fit one multiplex group together */
	add_n(&s, "backend", 1, 5, 0);
	add_n(&s, "backend", 6, 5, 1);
	add_n(&s, "backend", 11, 5, 2);
	int rc = hpm_sched_build(KMH, s.r, s.n, &sc, err, sizeof(err));
	tap_ok(rc == 0 && sc.nr_groups == 3,
	       "three {5 backend} groups need 3 multiplex groups "
	       "(got %u)",
	       sc.nr_groups);
	bool together = true;
	for (unsigned i = 0; i < s.n; i++)
		together &= s.r[i].mux == s.r[i - i % 5].mux;
	tap_ok(together && consistent(&s, &sc), "each {...} group in one multiplex group");
	hpm_sched_free(&sc);

	/* {4} {4} {4} {4} plus 4 singles: 20 -> lower bound 3; the exact
	 * packing gets 3 (two groups of 4 per multiplex group) */
	struct set t = {.n = 0};
	for (int g = 0; g < 4; g++)
		add_n(&t, "backend", 1 + 4 * (unsigned)g, 4, g);
	add_n(&t, "backend", 17, 4, -1);
	tap_ok(hpm_sched_build(KMH, t.r, t.n, &sc, err, sizeof(err)) == 0 && sc.nr_groups == 3 &&
	           sc.exact,
	       "4 x {4 backend} + 4 singles: 3 groups, proven minimal");
	together = true;
	for (unsigned i = 0; i < 16; i++)
		together &= t.r[i].mux == t.r[i - i % 4].mux;
	tap_ok(together && consistent(&t, &sc), "{4} groups kept whole");
	hpm_sched_free(&sc);

	/* a group spanning banks keeps its frontend member with it even
	 * though the frontend does not overflow */
	struct set u = {.n = 0};
	add(&u, "Front_Bubble", 0);
	add_n(&u, "backend", 1, 8, 0);
	add(&u, "backend:9", -1);
	add(&u, "Fetch_Latency_Bound", -1);
	tap_ok(hpm_sched_build(KMH, u.r, u.n, &sc, err, sizeof(err)) == 0 && sc.nr_groups == 2,
	       "{Front_Bubble + 8 backend} + 1 backend: 2 groups");
	tap_ok(u.r[0].mux == u.r[1].mux && u.r[0].mux != HPM_SCHED_ALWAYS && u.r[9].mux >= 0 &&
	           u.r[9].mux != u.r[0].mux && u.r[10].mux == HPM_SCHED_ALWAYS &&
	           consistent(&u, &sc),
	       "the group's frontend member rotates with it; the lone frontend single is "
	       "always counted");
	hpm_sched_free(&sc);
}

static void test_refused(void)
{
	struct set s = {.n = 0};
	struct hpm_sched sc;
	char err[256] = "";
	add_n(&s, "backend", 1, 9, 0);
	int rc = hpm_sched_build(KMH, s.r, s.n, &sc, err, sizeof(err));
	tap_ok(rc == -1 && strstr(err, "9 backend counters") && strstr(err, "only 8") &&
	           strstr(err, "mhpmcounter11-18"),
	       "a {...} group of 9 backend events is refused with the reason: %s", err);

	struct set c = {.n = 0};
	add_n(&c, "cache", 1, 6, 3);
	rc = hpm_sched_build(KMH, c.r, c.n, &sc, err, sizeof(err));
	tap_ok(rc == -1 && strstr(err, "only 5"), "a {...} group of 6 cache events: %s", err);

	struct set n = {.n = 0};
	add(&n, "r35", -1);
	rc = hpm_sched_build(KMH, n.r, n.n, &sc, err, sizeof(err));
	tap_ok(rc == -1 && strstr(err, "no bank"), "a request without bank: %s", err);
}

static void test_share(void)
{
	struct set s = {.n = 0};
	struct hpm_sched sc;
	char err[256], buf[256];
	add(&s, "rob_commitInstr", -1);         /* 0 */
	add(&s, "backend:rob_commitInstr", -1); /* 1: same value */
	add(&s, "rob_commitInstr:u", -1);       /* 2: other INH bits */
	add(&s, "backend:53", -1);              /* 3: same value again */
	tap_ok(hpm_sched_build(KMH, s.r, s.n, &sc, err, sizeof(err)) == 0 && sc.nr_groups == 1,
	       "identical requests: one group");
	tap_ok(s.r[1].owner == 0 && s.r[3].owner == 0 && s.r[1].counter == s.r[0].counter &&
	           s.r[3].counter == s.r[0].counter,
	       "identical values share one counter");
	tap_ok(s.r[2].owner == 2 && s.r[2].counter != s.r[0].counter,
	       "x:u is another request (its INH bits differ)");
	tap_is_str(hpm_sched_describe(&sc, s.r, 1, buf, sizeof(buf)),
	           "mhpmcounter11 (0x4000000000000035), shared with rob_commitInstr",
	           "placement text of a shared request");
	hpm_sched_free(&sc);

	/* 8 distinct + 8 duplicates still fit one group */
	struct set d = {.n = 0};
	add_n(&d, "backend", 1, 8, -1);
	add_n(&d, "backend", 1, 8, -1);
	tap_ok(hpm_sched_build(KMH, d.r, d.n, &sc, err, sizeof(err)) == 0 && sc.nr_groups == 1,
	       "8 events each asked twice: one group");
	hpm_sched_free(&sc);

	/* an ungrouped duplicate follows the grouped one, wherever it comes */
	struct set g = {.n = 0};
	add(&g, "backend:3", -1);
	add_n(&g, "backend", 1, 5, 0);
	add_n(&g, "backend", 6, 5, 1);
	tap_ok(hpm_sched_build(KMH, g.r, g.n, &sc, err, sizeof(err)) == 0 && g.r[0].owner == 3 &&
	           g.r[0].mux == g.r[3].mux && consistent(&g, &sc),
	       "an ungrouped request identical to a group member shares its counter");
	hpm_sched_free(&sc);

	/* two groups with the same event keep a counter each */
	struct set h = {.n = 0};
	add_n(&h, "backend", 1, 5, 0);
	add_n(&h, "backend", 1, 5, 1);
	tap_ok(hpm_sched_build(KMH, h.r, h.n, &sc, err, sizeof(err)) == 0 && sc.nr_groups == 2 &&
	           h.r[5].owner == 5 && h.r[5].mux != h.r[0].mux && consistent(&h, &sc),
	       "equal members of different {...} groups do not share");
	hpm_sched_free(&sc);
}

static void test_topdown(void)
{
	static const char *const ev[] = {"Front_Bubble",      "Fetch_Latency_Bound",
	                                 "rob_commitInstr",   "INST_SPEC",
	                                 "RECOVERY_BUBBLE",   "BR_MIS_PRED",
	                                 "TOTAL_FLUSH",       "EXEC_STALL_CYCLE",
	                                 "MEMSTALL_STORE",    "MEMSTALL_L1MISS",
	                                 "MEMSTALL_L2MISS",   "MEMSTALL_L3MISS",
	                                 "MEMSTALL_ANY_LOAD", "mcycle"};
	struct set s = {.n = 0};
	struct hpm_sched sc;
	char err[256], buf[256];
	for (unsigned i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		add(&s, ev[i], -1);
	tap_ok(hpm_sched_build(KMH, s.r, s.n, &sc, err, sizeof(err)) == 0 && sc.nr_groups == 2,
	       "Topdown level 3 (10 backend events): 2 groups");
	tap_ok(s.r[0].mux == HPM_SCHED_ALWAYS && s.r[1].mux == HPM_SCHED_ALWAYS &&
	           s.r[12].mux == HPM_SCHED_ALWAYS,
	       "its frontend and memblock events are counted in every group");
	tap_ok(in_group(&s, 0) == 8 && in_group(&s, 1) == 2 && consistent(&s, &sc),
	       "backend: 8 in group 0, 2 in group 1");
	uint32_t ch = hpm_sched_changes(&sc, 0, 1);
	tap_ok(ch == ((1u << 11) | (1u << 12) | (1u << 13) | (1u << 14) | (1u << 15) | (1u << 16) |
	              (1u << 17) | (1u << 18)) &&
	           (sc.always & ((1u << 3) | (1u << 4) | (1u << 19))) ==
	               ((1u << 3) | (1u << 4) | (1u << 19)),
	       "a rotation touches only the backend counters (changes 0x%08x)", ch);
	tap_is_str(hpm_sched_describe(&sc, s.r, 2, buf, sizeof(buf)),
	           "mhpmcounter11 (0x4000000000000035), group 0 of 2", "placement text, group");
	tap_is_str(hpm_sched_describe(&sc, s.r, 0, buf, sizeof(buf)),
	           "mhpmcounter3 (0x4000000000000015), every group",
	           "placement text, always counted");
	hpm_sched_free(&sc);

	/* with the ADD merge, 9 backend requests: still 2 groups */
	struct set m = {.n = 0};
	for (unsigned i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		if (i != 3 && i != 4)
			add(&m, ev[i], -1);
	add(&m, "INST_SPEC + RECOVERY_BUBBLE", -1);
	tap_ok(hpm_sched_build(KMH, m.r, m.n, &sc, err, sizeof(err)) == 0 && sc.nr_groups == 2 &&
	           in_group(&m, 0) == 8 && in_group(&m, 1) == 1,
	       "merged Topdown level 3 (9 backend requests): 2 groups, 8 + 1");
	hpm_sched_free(&sc);
}

static struct kmh_encoding enc(const char *expr)
{
	struct kmh_encoding e;
	struct hpm_diag err;
	if (kmh_encode(&kmh_table_v2, expr, &e, &err)) {
		tap_diag("%s: %s", expr, err.msg);
		abort();
	}
	return e;
}

static void test_merge(void)
{
	struct kmh_encoding a = enc("INST_SPEC"), b = enc("RECOVERY_BUBBLE"), m, x;
	struct hpm_diag err;

	tap_ok(kmh_can_merge(&a, &b), "INST_SPEC and RECOVERY_BUBBLE can merge");
	tap_ok(kmh_merge(&kmh_table_v2, &a, &b, &m) == 0, "merge builds an encoding");
	/* by hand: MINH (bit 62) | OP_TYPE0 = ADD (0b00100 << 40) | EVENT1 = 8 << 10 |
	 * EVENT0 = 7 */
	tap_is_u64(m.value, 0x4000040000002007, "INST_SPEC + RECOVERY_BUBBLE = 0x4000040000002007");
	tap_ok(m.bank == KMH_BANK_BACKEND && m.modes == KMH_MODES_DEFAULT && m.nr_events == 2,
	       "merged: backend, default modes, two events");
	tap_ok(kmh_encode(&kmh_table_v2, m.canonical, &x, &err) == 0 && x.value == m.value,
	       "its canonical form '%s' encodes back to the value", m.canonical);
	tap_is_u64(m.value, enc("INST_SPEC + RECOVERY_BUBBLE").value,
	           "the same value as the encoder gives the expression");

	struct kmh_encoding au = enc("INST_SPEC:u"), bu = enc("RECOVERY_BUBBLE:u");
	int rc = kmh_merge(&kmh_table_v2, &au, &bu, &m);
	tap_ok(rc == 0 && m.value == enc("INST_SPEC:u + RECOVERY_BUBBLE:u").value,
	       "x:u + y:u merges with the :u INH bits (0x%016" PRIx64 ")", m.value);

	struct kmh_encoding fe = enc("Front_Bubble"), two = enc("INST_SPEC | BR_MIS_PRED");
	tap_ok(!kmh_can_merge(&a, &fe), "different banks cannot merge");
	tap_ok(!kmh_can_merge(&a, &bu), "different modes cannot merge");
	tap_ok(!kmh_can_merge(&a, &two), "a two-event request cannot merge");
	tap_ok(!kmh_can_merge(&a, &a), "identical requests share instead of merging");
	struct kmh_encoding raw = enc("r4000000000000007");
	tap_ok(!kmh_can_merge(&raw, &b), "a raw value without bank cannot merge");
	tap_ok(kmh_merge(&kmh_table_v2, &a, &fe, &m) == -1, "merge refuses what cannot merge");
}

int main(void)
{
	test_counts();
	test_one_group();
	test_fixed();
	test_groups();
	test_refused();
	test_share();
	test_topdown();
	test_merge();
	return tap_done();
}
