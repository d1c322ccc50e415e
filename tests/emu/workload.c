/* workload.c: tests of the workload profiles (src/kmh/emu/workload.h).
 *
 * The checks here are written against SPEC §3 and the invariants listed in
 * workload.h, independently of the library's own checker and Topdown code:
 * every distinct cycle vector of every built-in profile is checked, sums
 * over 1e8 cycles are turned into a Topdown breakdown with the SPEC
 * formulas and compared with the declaration (0.5 percentage points), the
 * stream is shown to depend on (profile, seed) only, and bad profiles are
 * shown to be refused with the right message. At the end it reports (TAP
 * comments, not test points) how fast the stream alone is; set
 * HPM_NO_SPEED=1 to skip that.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kmh/emu/workload.h"
#include "kmh/kmh.h"
#include "../tap.h"

static const char *const builtin_names[] = {
    "balanced",        "branch-mispredict", "core-bound",     "dram-bound",
    "fetch-bandwidth", "fetch-latency",     "hotspots",       "l1-bound",
    "l2-bound",        "l3-bound",          "machine-clears", "phased",
    "retiring",        "store-bound",       "tasks-mixed",
};
#define NR_BUILTINS (sizeof(builtin_names) / sizeof(builtin_names[0]))

#define FE KMH_BANK_FRONTEND
#define BE KMH_BANK_BACKEND
#define MB KMH_BANK_MEMBLOCK
#define CA KMH_BANK_CACHE

static unsigned idx(int bank, const char *name)
{
	const struct kmh_event *e = kmh_event_by_name(&kmh_table_v2, bank, name);
	if (!e || e->bank != bank) {
		printf("Bail out! no event %s:%s\n", kmh_table_v2.banks[bank].name, name);
		exit(1);
	}
	return e->index;
}

/* ------------------------------------------------------------ invariants */

/* The event indices the checks use, looked up once. */
static struct {
	unsigned ifu_req, ifu_miss, line0, line1, bp_instr, bp_right, bp_wrong, bp_b_instr, bpr[5],
	    bpw[5], front_bubble, fetch_latency, itlb_access, itlb_miss;
	unsigned commit, spec, recovery, br_mis_pred, total_flush, exec_stall, st, l1, l2, l3,
	    commit_branch, commit_load, commit_store;
	unsigned any, s0[3], s1[3], s2[3], s1_tlb[3], s2_miss[3], dtlb_ld_access, dtlb_ld_miss,
	    sb_valid, sb_fire;
	unsigned hit[4], miss[4], access[4];
} I;

static void lookup(void)
{
	static const char *const t[5] = {"B", "J", "I", "C", "R"};
	char name[64];
	I.ifu_req = idx(FE, "ifu_req");
	I.ifu_miss = idx(FE, "ifu_miss");
	I.line0 = idx(FE, "ifu_req_cacheline_0");
	I.line1 = idx(FE, "ifu_req_cacheline_1");
	I.bp_instr = idx(FE, "BpInstr");
	I.bp_right = idx(FE, "BpRight");
	I.bp_wrong = idx(FE, "BpWrong");
	I.bp_b_instr = idx(FE, "BpBInstr");
	for (unsigned k = 0; k < 5; k++) {
		snprintf(name, sizeof(name), "Bp%sRight", t[k]);
		I.bpr[k] = idx(FE, name);
		snprintf(name, sizeof(name), "Bp%sWrong", t[k]);
		I.bpw[k] = idx(FE, name);
	}
	I.front_bubble = idx(FE, "Front_Bubble");
	I.fetch_latency = idx(FE, "Fetch_Latency_Bound");
	I.itlb_access = idx(FE, "itlb_access");
	I.itlb_miss = idx(FE, "itlb_miss");
	I.commit = idx(BE, "rob_commitInstr");
	I.spec = idx(BE, "INST_SPEC");
	I.recovery = idx(BE, "RECOVERY_BUBBLE");
	I.br_mis_pred = idx(BE, "BR_MIS_PRED");
	I.total_flush = idx(BE, "TOTAL_FLUSH");
	I.exec_stall = idx(BE, "EXEC_STALL_CYCLE");
	I.st = idx(BE, "MEMSTALL_STORE");
	I.l1 = idx(BE, "MEMSTALL_L1MISS");
	I.l2 = idx(BE, "MEMSTALL_L2MISS");
	I.l3 = idx(BE, "MEMSTALL_L3MISS");
	I.commit_branch = idx(BE, "rob_commitInstrBranch");
	I.commit_load = idx(BE, "rob_commitInstrLoad");
	I.commit_store = idx(BE, "rob_commitInstrStore");
	I.any = idx(MB, "MEMSTALL_ANY_LOAD");
	for (unsigned k = 0; k < 3; k++) {
		snprintf(name, sizeof(name), "load_s0_in_fire.%u", k);
		I.s0[k] = idx(MB, name);
		snprintf(name, sizeof(name), "load_s1_in_fire.%u", k);
		I.s1[k] = idx(MB, name);
		snprintf(name, sizeof(name), "load_s2_in_fire.%u", k);
		I.s2[k] = idx(MB, name);
		snprintf(name, sizeof(name), "load_s1_tlb_miss.%u", k);
		I.s1_tlb[k] = idx(MB, name);
		snprintf(name, sizeof(name), "load_s2_dcache_miss.%u", k);
		I.s2_miss[k] = idx(MB, name);
	}
	I.dtlb_ld_access = idx(MB, "dtlb_ld_access");
	I.dtlb_ld_miss = idx(MB, "dtlb_ld_miss");
	I.sb_valid = idx(MB, "sbuffer_req_valid");
	I.sb_fire = idx(MB, "sbuffer_req_fire");
	for (unsigned s = 0; s < 4; s++) {
		snprintf(name, sizeof(name), "Slice%u_l2_cache_hit", s);
		I.hit[s] = idx(CA, name);
		snprintf(name, sizeof(name), "Slice%u_l2_cache_miss", s);
		I.miss[s] = idx(CA, name);
		snprintf(name, sizeof(name), "Slice%u_l2_cache_access", s);
		I.access[s] = idx(CA, name);
	}
}

/* Sums of events (or one cycle's values: the same relations must hold for
 * both), by bank and index. */
struct sums {
	double v[KMH_NR_BANKS][160];
	double cycles;
};

static char why[256];

#define REQUIRE(cond, ...)                                                                         \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			snprintf(why, sizeof(why), __VA_ARGS__);                                   \
			return false;                                                              \
		}                                                                                  \
	} while (0)

/* The invariants of workload.h that the issue names, on sums over `cycles`
 * cycles (1 for a single cycle vector). */
static bool invariants(const struct sums *s)
{
	const double *f = s->v[FE], *b = s->v[BE], *m = s->v[MB], *c = s->v[CA];
	double C = s->cycles;
	REQUIRE(f[I.ifu_miss] <= f[I.ifu_req], "ifu_miss %g > ifu_req %g", f[I.ifu_miss],
	        f[I.ifu_req]);
	REQUIRE(f[I.line1] <= f[I.line0] && f[I.line0] <= f[I.ifu_req], "cacheline requests");
	REQUIRE(f[I.bp_right] + f[I.bp_wrong] == f[I.bp_instr], "BpRight + BpWrong != BpInstr");
	double r = 0, w = 0;
	for (unsigned k = 0; k < 5; k++) {
		r += f[I.bpr[k]];
		w += f[I.bpw[k]];
	}
	REQUIRE(r == f[I.bp_right] && w == f[I.bp_wrong], "per-type Bp sums");
	REQUIRE(f[I.bpr[0]] + f[I.bpw[0]] == f[I.bp_b_instr], "BpBRight + BpBWrong != BpBInstr");
	REQUIRE(f[I.bp_instr] == b[I.commit_branch], "BpInstr != rob_commitInstrBranch");
	REQUIRE(f[I.bp_wrong] == b[I.br_mis_pred], "BpWrong != BR_MIS_PRED");
	REQUIRE(f[I.itlb_miss] <= f[I.itlb_access], "itlb_miss > itlb_access");
	REQUIRE(f[I.fetch_latency] <= C, "Fetch_Latency_Bound %g > cycles %g", f[I.fetch_latency],
	        C);
	REQUIRE(f[I.front_bubble] <= 6 * C, "Front_Bubble %g > 6 x cycles", f[I.front_bubble]);
	/* Fetch bandwidth >= 0: a latency cycle is one with all 6 slots empty */
	REQUIRE(6 * f[I.fetch_latency] <= f[I.front_bubble],
	        "Fetch_Latency_Bound without 6 bubbles");
	REQUIRE(b[I.commit] <= 6 * C, "rob_commitInstr %g > 6 x cycles", b[I.commit]);
	REQUIRE(b[I.spec] >= b[I.commit], "INST_SPEC %g < rob_commitInstr %g", b[I.spec],
	        b[I.commit]);
	/* RECOVERY_BUBBLE is a 1-bit flag a cycle on the RTL: it counts cycles,
	 * each of them all 6 slots lost */
	REQUIRE(b[I.recovery] <= C, "RECOVERY_BUBBLE %g > cycles %g", b[I.recovery], C);
	REQUIRE(b[I.spec] + 6 * b[I.recovery] + f[I.front_bubble] <= 6 * C,
	        "INST_SPEC + 6 x RECOVERY_BUBBLE + Front_Bubble > 6 x cycles");
	REQUIRE(b[I.br_mis_pred] <= b[I.total_flush], "BR_MIS_PRED > TOTAL_FLUSH");
	REQUIRE(b[I.l3] <= b[I.l2] && b[I.l2] <= b[I.l1] && b[I.l1] <= m[I.any],
	        "MEMSTALL_L3MISS <= L2MISS <= L1MISS <= ANY_LOAD (%g %g %g %g)", b[I.l3], b[I.l2],
	        b[I.l1], m[I.any]);
	REQUIRE(m[I.any] + b[I.st] <= b[I.exec_stall] && b[I.exec_stall] <= C,
	        "MEMSTALL_ANY_LOAD + MEMSTALL_STORE <= EXEC_STALL_CYCLE <= cycles");
	REQUIRE(b[I.commit_load] + b[I.commit_store] + b[I.commit_branch] <= b[I.commit],
	        "committed loads + stores + branches > committed");
	for (unsigned k = 0; k < 3; k++) {
		REQUIRE(m[I.s2[k]] <= m[I.s1[k]] && m[I.s1[k]] <= m[I.s0[k]], "load pipe %u stages",
		        k);
		REQUIRE(m[I.s1_tlb[k]] <= m[I.s1[k]] && m[I.s2_miss[k]] <= m[I.s2[k]],
		        "load pipe %u misses", k);
	}
	REQUIRE(m[I.dtlb_ld_miss] <= m[I.dtlb_ld_access], "dtlb_ld_miss > dtlb_ld_access");
	REQUIRE(m[I.sb_fire] <= m[I.sb_valid], "sbuffer_req_fire > sbuffer_req_valid");
	for (unsigned k = 0; k < 4; k++)
		REQUIRE(c[I.hit[k]] + c[I.miss[k]] == c[I.access[k]],
		        "Slice%u hit + miss != access (%g + %g != %g)", k, c[I.hit[k]],
		        c[I.miss[k]], c[I.access[k]]);
	return true;
}

/* One cycle vector: the relations above, plus the per-cycle bounds. */
static bool vector_ok(const uint8_t *const vals[KMH_NR_BANKS], unsigned instret)
{
	static struct sums s;
	memset(&s, 0, sizeof(s));
	s.cycles = 1;
	for (unsigned b = 0; b < KMH_NR_BANKS; b++) {
		REQUIRE(vals[b] != NULL, "bank %u is NULL", b);
		REQUIRE(vals[b][0] == 0, "%s:noEvent is %u", kmh_table_v2.banks[b].name,
		        vals[b][0]);
		for (unsigned i = 0; i < kmh_table_v2.banks[b].nr_events; i++) {
			REQUIRE(vals[b][i] <= 63, "%s:%s = %u", kmh_table_v2.banks[b].name,
			        kmh_str(&kmh_table_v2, kmh_table_v2.banks[b].events[i].name),
			        vals[b][i]);
			s.v[b][i] = vals[b][i];
		}
	}
	REQUIRE(instret == vals[BE][I.commit], "instret %u != rob_commitInstr %u", instret,
	        vals[BE][I.commit]);
	REQUIRE(vals[FE][I.fetch_latency] <= 1, "Fetch_Latency_Bound %u > 1",
	        vals[FE][I.fetch_latency]);
	REQUIRE(vals[FE][I.front_bubble] <= 6, "Front_Bubble %u > 6", vals[FE][I.front_bubble]);
	REQUIRE(vals[BE][I.commit] <= 6, "rob_commitInstr %u > 6", vals[BE][I.commit]);
	REQUIRE(vals[BE][I.spec] >= vals[BE][I.commit], "INST_SPEC < rob_commitInstr");
	return invariants(&s);
}

/* ---------------------------------------------------------------- Topdown */

/* SPEC §3, on sums over C cycles; written here independently of the
 * library's wl_topdown(). */
static void topdown(const struct sums *s, struct emu_topdown *t)
{
	const double *f = s->v[FE], *b = s->v[BE], *m = s->v[MB];
	double C = s->cycles, slots = 6 * C;
	t->retiring = b[I.commit] / slots;
	t->frontend = f[I.front_bubble] / slots;
	t->bad_spec = (b[I.spec] - b[I.commit] + b[I.recovery]) / slots;
	t->backend = 1 - (t->frontend + t->bad_spec + t->retiring);
	t->fetch_latency = f[I.fetch_latency] / C;
	t->fetch_bandwidth = t->frontend - t->fetch_latency;
	t->branch_mispredict = t->bad_spec * b[I.br_mis_pred] / b[I.total_flush];
	t->machine_clears = t->bad_spec - t->branch_mispredict;
	t->core_bound = (b[I.exec_stall] - m[I.any] - b[I.st]) / C;
	t->memory_bound = (m[I.any] + b[I.st]) / C;
	t->l1 = (m[I.any] - b[I.l1]) / C;
	t->l2 = (b[I.l1] - b[I.l2]) / C;
	t->l3 = (b[I.l2] - b[I.l3]) / C;
	t->dram = b[I.l3] / C;
	t->store = b[I.st] / C;
}

static const char *const node_names[15] = {
    "retiring",
    "frontend",
    "bad_spec",
    "backend",
    "fetch_latency",
    "fetch_bandwidth",
    "branch_mispredict",
    "machine_clears",
    "core_bound",
    "memory_bound",
    "l1",
    "l2",
    "l3",
    "dram",
    "store",
};

static double node(const struct emu_topdown *t, unsigned i)
{
	const double v[15] = {t->retiring,
	                      t->frontend,
	                      t->bad_spec,
	                      t->backend,
	                      t->fetch_latency,
	                      t->fetch_bandwidth,
	                      t->branch_mispredict,
	                      t->machine_clears,
	                      t->core_bound,
	                      t->memory_bound,
	                      t->l1,
	                      t->l2,
	                      t->l3,
	                      t->dram,
	                      t->store};
	return v[i];
}

/* Largest deviation over the 15 nodes, in percentage points; the worst in
 * *which. */
static double max_dev(const struct emu_topdown *a, const struct emu_topdown *b, unsigned *which)
{
	double worst = 0;
	*which = 0;
	for (unsigned i = 0; i < 15; i++) {
		double d = fabs(node(a, i) - node(b, i)) * 100;
		if (!(d <= worst)) { /* NaN counts as worst */
			worst = isnan(d) ? HUGE_VAL : d;
			*which = i;
		}
	}
	return worst;
}

static void add_run(struct sums *s, const struct emu_run *r)
{
	/* Only the events the checks use, to keep 1e8 cycles fast: the
	 * Topdown ones and the invariant ones. */
	static const unsigned *const fe[] = {&I.ifu_req,       &I.ifu_miss,    &I.line0,
	                                     &I.line1,         &I.bp_instr,    &I.bp_right,
	                                     &I.bp_wrong,      &I.bp_b_instr,  &I.front_bubble,
	                                     &I.fetch_latency, &I.itlb_access, &I.itlb_miss};
	static const unsigned *const be[] = {
	    &I.commit,        &I.spec,        &I.recovery,    &I.br_mis_pred, &I.total_flush,
	    &I.exec_stall,    &I.st,          &I.l1,          &I.l2,          &I.l3,
	    &I.commit_branch, &I.commit_load, &I.commit_store};
	double c = (double)r->cycles;
	s->cycles += c;
	for (unsigned i = 0; i < sizeof(fe) / sizeof(fe[0]); i++)
		s->v[FE][*fe[i]] += c * r->vals[FE][*fe[i]];
	for (unsigned k = 0; k < 5; k++) {
		s->v[FE][I.bpr[k]] += c * r->vals[FE][I.bpr[k]];
		s->v[FE][I.bpw[k]] += c * r->vals[FE][I.bpw[k]];
	}
	for (unsigned i = 0; i < sizeof(be) / sizeof(be[0]); i++)
		s->v[BE][*be[i]] += c * r->vals[BE][*be[i]];
	const uint8_t *m = r->vals[MB];
	s->v[MB][I.any] += c * m[I.any];
	s->v[MB][I.dtlb_ld_access] += c * m[I.dtlb_ld_access];
	s->v[MB][I.dtlb_ld_miss] += c * m[I.dtlb_ld_miss];
	s->v[MB][I.sb_valid] += c * m[I.sb_valid];
	s->v[MB][I.sb_fire] += c * m[I.sb_fire];
	for (unsigned k = 0; k < 3; k++) {
		s->v[MB][I.s0[k]] += c * m[I.s0[k]];
		s->v[MB][I.s1[k]] += c * m[I.s1[k]];
		s->v[MB][I.s2[k]] += c * m[I.s2[k]];
		s->v[MB][I.s1_tlb[k]] += c * m[I.s1_tlb[k]];
		s->v[MB][I.s2_miss[k]] += c * m[I.s2_miss[k]];
	}
	for (unsigned k = 0; k < 4; k++) {
		s->v[CA][I.hit[k]] += c * r->vals[CA][I.hit[k]];
		s->v[CA][I.miss[k]] += c * r->vals[CA][I.miss[k]];
		s->v[CA][I.access[k]] += c * r->vals[CA][I.access[k]];
	}
}

/* ------------------------------------------------------------ built-ins */

static void test_registry(void)
{
	tap_is_u64(emu_profile_count(), NR_BUILTINS, "%zu built-in profiles", NR_BUILTINS);
	for (unsigned i = 0; i < NR_BUILTINS; i++) {
		const struct emu_profile *p = emu_profile_at(i);
		tap_is_str(p ? emu_profile_name(p) : NULL, builtin_names[i],
		           "built-in %u is %s (sorted)", i, builtin_names[i]);
		char err[512] = "";
		tap_ok(p && emu_profile_find(builtin_names[i], err, sizeof(err)) == p,
		       "emu_profile_find(\"%s\") finds the built-in", builtin_names[i]);
		tap_ok(p && strlen(emu_profile_description(p)) > 10 &&
		           strcmp(emu_profile_origin(p), "built-in") == 0,
		       "%s has a description and origin built-in", builtin_names[i]);
	}
	tap_ok(emu_profile_at(NR_BUILTINS) == NULL, "emu_profile_at past the end is NULL");
}

/* The shipped files load by path and say exactly what the embedded copies
 * say: the embedding is faithful. */
static void test_files(void)
{
	const char *srcdir = getenv("top_srcdir");
	if (!srcdir) {
		tap_skip("top_srcdir not set: the profile files are not at hand");
		return;
	}
	for (unsigned i = 0; i < NR_BUILTINS; i++) {
		char path[1024], err[512] = "";
		snprintf(path, sizeof(path), "%s/profiles/%s.profile", srcdir, builtin_names[i]);
		const struct emu_profile *f = emu_profile_find(path, err, sizeof(err));
		const struct emu_profile *b = emu_profile_at(i);
		struct emu_topdown tf, tb;
		bool same = false;
		if (f && b) {
			emu_profile_declared(f, &tf);
			emu_profile_declared(b, &tb);
			unsigned w;
			same = max_dev(&tf, &tb, &w) == 0 &&
			       strcmp(emu_profile_name(f), emu_profile_name(b)) == 0 &&
			       strcmp(emu_profile_origin(f), path) == 0;
		}
		if (!tap_ok(same, "profiles/%s.profile loads by path, same as the built-in",
		            builtin_names[i]))
			tap_diag("%s", err);
		emu_profile_free(f);
	}
}

/* Declarations are well-formed trees: level 1 sums to 1, level 2 and 3 sum
 * to their parents, every node in [0, 1]. */
static void test_declared_shape(void)
{
	for (unsigned i = 0; i < emu_profile_count(); i++) {
		const struct emu_profile *p = emu_profile_at(i);
		struct emu_topdown t;
		emu_profile_declared(p, &t);
		bool ok = fabs(t.retiring + t.frontend + t.bad_spec + t.backend - 1) < 1e-12 &&
		          fabs(t.fetch_latency + t.fetch_bandwidth - t.frontend) < 1e-12 &&
		          fabs(t.branch_mispredict + t.machine_clears - t.bad_spec) < 1e-12 &&
		          fabs(t.l1 + t.l2 + t.l3 + t.dram + t.store - t.memory_bound) < 1e-12;
		for (unsigned n = 0; n < 15; n++)
			ok = ok && node(&t, n) >= 0 && node(&t, n) <= 1;
		tap_ok(ok, "%s: declared breakdown is a well-formed tree", emu_profile_name(p));
		double sum = 0;
		for (unsigned m = 0; m < EMU_NR_MODES; m++)
			sum += emu_profile_mode_share(p, m);
		tap_ok(fabs(sum - 1) < 1e-12 && emu_profile_mode_share(p, EMU_MODE_M) == 0,
		       "%s: mode shares sum to 1, none in M-mode", emu_profile_name(p));
	}
}

/* The profile named X makes X the largest node among its siblings, and so
 * for each ancestor of X. */
struct bottleneck {
	const char *profile;
	unsigned path[3]; /* node indices from level 1 down; 99 = none */
};

static const struct bottleneck bottlenecks[] = {
    {"retiring", {0, 99, 99}},       {"fetch-latency", {1, 4, 99}},
    {"fetch-bandwidth", {1, 5, 99}}, {"branch-mispredict", {2, 6, 99}},
    {"machine-clears", {2, 7, 99}},  {"core-bound", {3, 8, 99}},
    {"l1-bound", {3, 9, 10}},        {"l2-bound", {3, 9, 11}},
    {"l3-bound", {3, 9, 12}},        {"dram-bound", {3, 9, 13}},
    {"store-bound", {3, 9, 14}},
};

static bool largest_among(const struct emu_topdown *t, unsigned n)
{
	static const unsigned groups[][5] = {
	    {0, 1, 2, 3, 99},   {4, 5, 99, 99, 99},   {6, 7, 99, 99, 99},
	    {8, 9, 99, 99, 99}, {10, 11, 12, 13, 14},
	};
	for (unsigned g = 0; g < 5; g++)
		for (unsigned k = 0; k < 5; k++)
			if (groups[g][k] == n) {
				for (unsigned j = 0; j < 5 && groups[g][j] != 99; j++)
					if (groups[g][j] != n &&
					    node(t, groups[g][j]) >= node(t, n))
						return false;
				return true;
			}
	return false;
}

static bool is_bottleneck(const struct bottleneck *b, const struct emu_topdown *t)
{
	for (unsigned l = 0; l < 3 && b->path[l] != 99; l++)
		if (!largest_among(t, b->path[l]))
			return false;
	return true;
}

/* -------------------------------------------------- long runs of streams */

#define LONG_CYCLES UINT64_C(100000000)
#define MAX_KEYS    4096

struct seen {
	const uint8_t *vals[MAX_KEYS][KMH_NR_BANKS];
	uint8_t instret[MAX_KEYS];
	bool have[MAX_KEYS];
};

static void test_long_run(const struct emu_profile *p)
{
	const char *name = emu_profile_name(p);
	static struct seen seen;
	memset(&seen, 0, sizeof(seen));
	static struct sums total, per_phase[8];
	memset(&total, 0, sizeof(total));
	memset(per_phase, 0, sizeof(per_phase));
	double mode_cycles[EMU_NR_MODES] = {0};
	struct emu_workload *w = emu_workload_new(p, 20240601);
	unsigned nr_phases = emu_profile_nr_phases(p);
	bool vectors_ok = true, keys_ok = true, shape_ok = true;
	unsigned distinct = 0;
	uint64_t runs = 0;
	char first_bad[300] = "";
	while (total.cycles < (double)LONG_CYCLES) {
		unsigned phase = emu_workload_phase(w);
		struct emu_run r;
		uint64_t left = LONG_CYCLES - (uint64_t)total.cycles;
		emu_workload_next(w, left, &r);
		runs++;
		if (r.cycles < 1 || r.cycles > left || r.key == 0 || r.key >= MAX_KEYS ||
		    r.source != w || r.mode >= EMU_NR_MODES || phase >= 8) {
			shape_ok = false;
			break;
		}
		if (!seen.have[r.key]) {
			seen.have[r.key] = true;
			memcpy(seen.vals[r.key], r.vals, sizeof(r.vals));
			seen.instret[r.key] = r.instret;
			distinct++;
			if (!vector_ok(r.vals, r.instret) && vectors_ok) {
				vectors_ok = false;
				snprintf(first_bad, sizeof(first_bad), "key %u: %s", r.key, why);
			}
			char err[256];
			if (!emu_profile_check_vals(r.vals, err, sizeof(err)) && vectors_ok) {
				vectors_ok = false;
				snprintf(first_bad, sizeof(first_bad), "key %u: library: %s", r.key,
				         err);
			}
			/* never a nonzero value for an event said not to be produced */
			for (int b = 0; b < KMH_NR_BANKS; b++)
				for (unsigned i = 1; i < kmh_table_v2.banks[b].nr_events; i++)
					if (r.vals[b][i] && !emu_profile_produces(p, b, i) &&
					    vectors_ok) {
						vectors_ok = false;
						snprintf(
						    first_bad, sizeof(first_bad),
						    "%s:%s is not produced but is %u",
						    kmh_table_v2.banks[b].name,
						    kmh_str(&kmh_table_v2,
						            kmh_table_v2.banks[b].events[i].name),
						    r.vals[b][i]);
					}
		} else if (memcmp(seen.vals[r.key], r.vals, sizeof(r.vals)) != 0 ||
		           seen.instret[r.key] != r.instret) {
			keys_ok = false;
		}
		add_run(&total, &r);
		add_run(&per_phase[phase], &r);
		mode_cycles[r.mode] += (double)r.cycles;
	}
	emu_workload_free(w);
	tap_ok(shape_ok && total.cycles == (double)LONG_CYCLES,
	       "%s: every run has 1..max cycles, a key, a mode, source = w", name);
	if (!tap_ok(vectors_ok, "%s: invariants hold in all %u cycle vectors", name, distinct))
		tap_diag("%s", first_bad);
	tap_ok(keys_ok, "%s: runs with one key have one vector (%" PRIu64 " runs, %.1f cycles/run)",
	       name, runs, total.cycles / (double)runs);
	if (!tap_ok(invariants(&total), "%s: invariants hold over 1e8 cycles", name))
		tap_diag("%s", why);

	struct emu_topdown measured, declared;
	topdown(&total, &measured);
	emu_profile_declared(p, &declared);
	unsigned worst;
	double dev = max_dev(&measured, &declared, &worst);
	tap_ok(dev < 0.5, "%s: measured Topdown within 0.5 pp of declared (worst %s, %.3f pp)",
	       name, node_names[worst], dev);
	tap_diag("%s: declared retiring %.1f%% frontend %.1f%% bad_spec %.1f%% backend %.1f%%; "
	         "measured %.1f%% %.1f%% %.1f%% %.1f%%",
	         name, 100 * declared.retiring, 100 * declared.frontend, 100 * declared.bad_spec,
	         100 * declared.backend, 100 * measured.retiring, 100 * measured.frontend,
	         100 * measured.bad_spec, 100 * measured.backend);
	double ipc = total.v[BE][I.commit] / total.cycles;
	tap_ok(fabs(ipc - emu_profile_mean_instret(p)) < 0.005 * emu_profile_mean_instret(p) + 1e-9,
	       "%s: IPC %.3f, expected %.3f", name, ipc, emu_profile_mean_instret(p));
	for (unsigned b = 0; b < sizeof(bottlenecks) / sizeof(bottlenecks[0]); b++)
		if (strcmp(bottlenecks[b].profile, name) == 0)
			tap_ok(is_bottleneck(&bottlenecks[b], &declared) &&
			           is_bottleneck(&bottlenecks[b], &measured),
			       "%s: its node is the largest at every level (declared and measured)",
			       name);
	/* Mode stretches are tens of thousands of cycles, so 1e8 cycles hold
	 * only a few thousand of them: the tolerance is wider. */
	double mdev = 0;
	for (unsigned m = 0; m < EMU_NR_MODES; m++)
		mdev =
		    fmax(mdev, fabs(mode_cycles[m] / total.cycles - emu_profile_mode_share(p, m)));
	tap_ok(mdev < 0.03, "%s: time per mode within 3 pp of the profile's shares (%.2f pp)", name,
	       100 * mdev);
	if (nr_phases > 1) {
		uint64_t period = 0;
		for (unsigned ph = 0; ph < nr_phases; ph++)
			period += emu_profile_phase_cycles(p, ph);
		/* 1e8 cycles must be whole periods for the overall comparison */
		tap_ok(LONG_CYCLES % period == 0, "%s: 1e8 cycles are %" PRIu64 " whole periods",
		       name, LONG_CYCLES / period);
		for (unsigned ph = 0; ph < nr_phases; ph++) {
			struct emu_topdown pm, pd;
			topdown(&per_phase[ph], &pm);
			emu_profile_phase_declared(p, ph, &pd);
			double d = max_dev(&pm, &pd, &worst);
			tap_ok(
			    per_phase[ph].cycles == (double)(LONG_CYCLES / period *
			                                     emu_profile_phase_cycles(p, ph)) &&
			        d < 0.5,
			    "%s: phase %s: %.0f cycles, measured within 0.5 pp (worst %s, %.3f pp)",
			    name, emu_profile_phase_name(p, ph), per_phase[ph].cycles,
			    node_names[worst], d);
		}
	}
}

/* ---------------------------------------------------------- determinism */

struct cyc_stream {
	struct emu_workload *w;
	struct emu_run r;
	uint64_t left; /* cycles left in r */
	uint64_t max;  /* 0: unlimited; else max_cycles drawn from 1..max */
	uint64_t x;    /* for the max_cycles sequence */
};

static void cs_refill(struct cyc_stream *s)
{
	while (s->left == 0) {
		uint64_t max = UINT64_MAX;
		if (s->max) {
			s->x = s->x * 6364136223846793005u + 1442695040888963407u;
			max = 1 + (s->x >> 33) % s->max;
		}
		emu_workload_next(s->w, max, &s->r);
		s->left = s->r.cycles;
	}
}

/* The same (profile, seed) gives the same cycles however the consumer
 * slices the stream. */
static bool same_cycles(const struct emu_profile *p, uint64_t seed, uint64_t max_a, uint64_t max_b,
                        uint64_t cycles)
{
	struct cyc_stream a = {emu_workload_new(p, seed), {0}, 0, max_a, 1};
	struct cyc_stream b = {emu_workload_new(p, seed), {0}, 0, max_b, 7};
	bool same = true;
	for (uint64_t done = 0; done < cycles && same;) {
		cs_refill(&a);
		cs_refill(&b);
		uint64_t n = a.left < b.left ? a.left : b.left;
		same = a.r.key == b.r.key && a.r.mode == b.r.mode && a.r.instret == b.r.instret &&
		       memcmp(a.r.vals, b.r.vals, sizeof(a.r.vals)) == 0;
		a.left -= n;
		b.left -= n;
		done += n;
	}
	emu_workload_free(a.w);
	emu_workload_free(b.w);
	return same;
}

static void test_determinism(void)
{
	char err[256];
	const struct emu_profile *p = emu_profile_find("balanced", err, sizeof(err));
	const struct emu_profile *ph = emu_profile_find("phased", err, sizeof(err));
	tap_ok(same_cycles(p, 1, 0, 0, 20000000), "balanced: same seed, same run sequence");
	tap_ok(same_cycles(p, 99, 0, 37, 20000000),
	       "balanced: same cycles whether taken whole or in slices of 1..37");
	tap_ok(same_cycles(ph, 5, 1000, 1, 12000000),
	       "phased: same cycles in slices of 1..1000 and of 1, across a phase change");

	/* identical run sequences, field by field */
	struct emu_workload *a = emu_workload_new(p, 12345), *b = emu_workload_new(p, 12345);
	bool same = true;
	for (unsigned i = 0; i < 200000 && same; i++) {
		struct emu_run ra, rb;
		emu_workload_next(a, UINT64_MAX, &ra);
		emu_workload_next(b, UINT64_MAX, &rb);
		same = ra.cycles == rb.cycles && ra.key == rb.key && ra.mode == rb.mode;
	}
	tap_ok(same, "balanced: seed 12345 twice gives 200000 identical runs");
	emu_workload_free(b);
	b = emu_workload_new(p, 12346);
	unsigned differ = 0;
	for (unsigned i = 0; i < 1000; i++) {
		struct emu_run ra, rb;
		emu_workload_next(a, UINT64_MAX, &ra);
		emu_workload_next(b, UINT64_MAX, &rb);
		differ += ra.cycles != rb.cycles || ra.key != rb.key;
	}
	tap_ok(differ > 500, "balanced: seeds 12345 and 12346 differ (%u of 1000 runs)", differ);
	emu_workload_free(a);
	emu_workload_free(b);

	/* max_cycles = 0 consumes nothing */
	a = emu_workload_new(p, 3);
	b = emu_workload_new(p, 3);
	struct emu_run r0, ra, rb;
	emu_workload_next(a, 0, &r0);
	emu_workload_next(a, UINT64_MAX, &ra);
	emu_workload_next(b, UINT64_MAX, &rb);
	tap_ok(r0.cycles == 0 && ra.cycles == rb.cycles && ra.key == rb.key,
	       "max_cycles 0 gives an empty run and consumes nothing");
	emu_workload_free(a);
	emu_workload_free(b);

	/* other seeds, same converged shares */
	double worst = 0;
	for (uint64_t seed = 100; seed < 103; seed++) {
		static struct sums s;
		memset(&s, 0, sizeof(s));
		struct emu_workload *w = emu_workload_new(p, seed);
		while (s.cycles < 3e7) {
			struct emu_run r;
			emu_workload_next(w, UINT64_MAX, &r);
			add_run(&s, &r);
		}
		emu_workload_free(w);
		struct emu_topdown m, d;
		topdown(&s, &m);
		emu_profile_declared(p, &d);
		unsigned which;
		worst = fmax(worst, max_dev(&m, &d, &which));
	}
	tap_ok(worst < 0.5, "balanced: seeds 100-102 converge to the declaration (worst %.3f pp)",
	       worst);
}

/* The events the issue names are produced by every built-in profile; a few
 * the model leaves out are not; the exported checker agrees with ours. */
static void test_produced(void)
{
	static const struct {
		int bank;
		const char *name;
	} must[] = {
	    {BE, "rob_commitInstr"},
	    {BE, "INST_SPEC"},
	    {BE, "RECOVERY_BUBBLE"},
	    {BE, "BR_MIS_PRED"},
	    {BE, "TOTAL_FLUSH"},
	    {BE, "EXEC_STALL_CYCLE"},
	    {BE, "MEMSTALL_STORE"},
	    {BE, "MEMSTALL_L1MISS"},
	    {BE, "MEMSTALL_L2MISS"},
	    {BE, "MEMSTALL_L3MISS"},
	    {MB, "MEMSTALL_ANY_LOAD"},
	    {FE, "Front_Bubble"},
	    {FE, "Fetch_Latency_Bound"},
	    {FE, "ifu_req"},
	    {FE, "ifu_miss"},
	    {FE, "ifu_req_cacheline_1"},
	    {FE, "miss_0_hit_1"},
	    {FE, "BpInstr"},
	    {FE, "BpRight"},
	    {FE, "BpWrong"},
	    {FE, "BpJRight"},
	    {FE, "BpRWrong"},
	    {FE, "IBuffer_3_4_valid"},
	    {FE, "IBuffer_full"},
	    {FE, "itlb_miss"},
	    {BE, "rename_in"},
	    {BE, "dispatch_stall_cycle_rob"},
	    {BE, "rob_walkCycle"},
	    {BE, "rob_4_4_valid"},
	    {MB, "load_s0_in_fire.2"},
	    {MB, "load_s2_dcache_miss.0"},
	    {MB, "dtlb_ld_miss"},
	    {MB, "sbuffer_full_valid"},
	    {MB, "stld_rollback"},
	    {CA, "Slice3_l2_cache_miss"},
	    {CA, "Slice1_l2_cache_access"},
	};
	static const struct {
		int bank;
		const char *name;
	} never[] = {
	    {FE, "tage_tht_hit"},      {BE, "std_freelist_1_4_valid.0"},
	    {BE, "rob_interrupt_num"}, {MB, "mmioCnt"},
	    {MB, "PTW_l2_hit"},        {CA, "Slice0_l2_cache_inv"},
	};
	for (unsigned i = 0; i < emu_profile_count(); i++) {
		const struct emu_profile *p = emu_profile_at(i);
		bool ok = true;
		for (unsigned k = 0; k < sizeof(must) / sizeof(must[0]); k++)
			ok = ok &&
			     emu_profile_produces(p, must[k].bank, idx(must[k].bank, must[k].name));
		for (unsigned k = 0; k < sizeof(never) / sizeof(never[0]); k++)
			ok = ok && !emu_profile_produces(p, never[k].bank,
			                                 idx(never[k].bank, never[k].name));
		tap_ok(ok, "%s: produces the Topdown and related events, not the unmodelled ones",
		       emu_profile_name(p));
	}
	static uint8_t v[KMH_NR_BANKS][160];
	const uint8_t *vals[KMH_NR_BANKS] = {v[0], v[1], v[2], v[3]};
	char err[256] = "";
	memset(v, 0, sizeof(v));
	tap_ok(emu_profile_check_vals(vals, err, sizeof(err)),
	       "an all-zero cycle passes the checker");
	v[FE][I.ifu_miss] = 1;
	tap_ok(!emu_profile_check_vals(vals, err, sizeof(err)) &&
	           strcmp(err, "ifu_miss <= ifu_req (1 > 0)") == 0,
	       "the checker refuses ifu_miss > ifu_req: '%s'", err);
	memset(v, 0, sizeof(v));
	v[BE][I.l3] = 1;
	v[BE][I.l2] = 1;
	v[BE][I.l1] = 1;
	v[BE][I.exec_stall] = 1;
	tap_ok(!emu_profile_check_vals(vals, err, sizeof(err)) &&
	           strcmp(err, "MEMSTALL_L1MISS <= MEMSTALL_ANY_LOAD (1 > 0)") == 0,
	       "the checker refuses MEMSTALL_L1MISS > MEMSTALL_ANY_LOAD: '%s'", err);
	const uint8_t *none[KMH_NR_BANKS] = {NULL, NULL, NULL, NULL};
	tap_ok(emu_profile_check_vals(none, err, sizeof(err)), "NULL banks read as 0");
}

/* ------------------------------------------------------------ bad input */

static const char good_head[] = "name = t\n"
                                "description = test profile\n";

/* Parses head + body and checks the message ends with `want` (messages
 * start with "FILE:LINE: "). */
static void refused(const char *body, const char *want, const char *what)
{
	char text[4096], err[512] = "";
	snprintf(text, sizeof(text), "%s%s", good_head, body);
	const struct emu_profile *p = emu_profile_parse("t.profile", text, err, sizeof(err));
	bool ok = !p && strstr(err, want) != NULL;
	if (!tap_ok(ok, "refused: %s", what))
		tap_diag("got '%s', want '%s'", p ? "(accepted)" : err, want);
	emu_profile_free(p);
}

static void test_bad_input(void)
{
	char err[1024] = "";
	const struct emu_profile *p = emu_profile_find("no-such-profile", err, sizeof(err));
	static const char prefix[] = "unknown profile 'no-such-profile' (known: ";
	bool lists = !p && strncmp(err, prefix, strlen(prefix)) == 0;
	for (unsigned i = 0; i < NR_BUILTINS; i++)
		lists = lists && strstr(err, builtin_names[i]);
	if (!tap_ok(lists, "an unknown profile name lists the known ones"))
		tap_diag("%s", err);
	p = emu_profile_find("/nonexistent/dir/x.profile", err, sizeof(err));
	tap_is_str(p ? "(found)" : err,
	           "/nonexistent/dir/x.profile: cannot read: No such file or directory",
	           "a missing file says so");

	static const char one_class[] =
	    "[cycle a]\ncommit = 6\n[class k]\nruns = a:10..20\nshare = 1\n";
	char body[2048];

	refused("[cycle a]\ncommit 6\n", "t.profile:4: expected KEY = VALUE or [SECTION NAME]",
	        "a line without '='");
	refused("[cycle a]\ncomit = 6\n", "t.profile:4: unknown cycle parameter 'comit'",
	        "an unknown cycle parameter");
	refused("[cycle a]\ncommit = 7\n", "t.profile:4: commit 7 out of range 0..6",
	        "a parameter out of range");
	refused("[cycle a]\ncommit = -1\n", "t.profile:4: commit: negative value -1",
	        "a negative value");
	refused("[cycle a]\nfrontend:ifu_req = 64\n",
	        "t.profile:4: frontend:ifu_req = 64: per-cycle values are 0..63", "a value > 63");
	refused("[cycle a]\nfrontend:ifu_rq = 1\n",
	        "t.profile:4: unknown event 'ifu_rq' in bank frontend", "an unknown event");
	refused("[cycle a]\nmemblock:load_s0_in_fire = 1\n", "names several events",
	        "a repeated name without its instance");
	refused("[cycle a]\nstall = sideways\n",
	        "t.profile:4: bad stall 'sideways' (one of: none, core", "a bad word");
	refused("[cyclo a]\n", "t.profile:3: unknown section 'cyclo'", "an unknown section");

	snprintf(body, sizeof(body), "[cycle a]\ncommit = 6\nfrontend:ifu_miss = 2\n%s",
	         one_class + strlen("[cycle a]\ncommit = 6\n"));
	refused(body, "t.profile:3: cycle 'a' breaks ifu_miss <= ifu_req (2 > 1)",
	        "a cycle with ifu_miss > ifu_req");
	snprintf(body, sizeof(body), "[cycle a]\ncommit = 6\nfrontend:BpWrong = 1\n%s",
	         one_class + strlen("[cycle a]\ncommit = 6\n"));
	refused(body, "cycle 'a' breaks BpInstr = BpRight + BpWrong (1 != 2)",
	        "a cycle with BpRight + BpWrong != BpInstr");
	snprintf(body, sizeof(body), "[cycle a]\ncommit = 6\nbackend:MEMSTALL_L2MISS = 1\n%s",
	         one_class + strlen("[cycle a]\ncommit = 6\n"));
	refused(body, "cycle 'a' breaks MEMSTALL_L2MISS <= MEMSTALL_L1MISS (1 > 0)",
	        "a cycle with MEMSTALL_L2MISS > MEMSTALL_L1MISS");
	snprintf(body, sizeof(body), "[cycle a]\ncommit = 6\ncache:Slice2_l2_cache_hit = 1\n%s",
	         one_class + strlen("[cycle a]\ncommit = 6\n"));
	refused(body, "cycle 'a' breaks Slice2_l2_cache_access = hit + miss (0 != 1)",
	        "a cycle with L2 hits + misses != accesses");
	snprintf(body, sizeof(body), "[cycle a]\nbubble = 5\nfrontend:Fetch_Latency_Bound = 1\n%s",
	         one_class + strlen("[cycle a]\ncommit = 6\n"));
	refused(body, "Fetch_Latency_Bound only when Front_Bubble = 6",
	        "Fetch_Latency_Bound with fewer than 6 bubbles");
	snprintf(body, sizeof(body), "[cycle a]\ncommit = 6\nspec = 5\n%s",
	         one_class + strlen("[cycle a]\ncommit = 6\n"));
	refused(body, "cycle 'a' breaks rob_commitInstr <= INST_SPEC (6 > 5)",
	        "INST_SPEC < rob_commitInstr in a cycle");
	snprintf(body, sizeof(body), "[cycle a]\ncommit = 4\nbubble = 4\n%s",
	         one_class + strlen("[cycle a]\ncommit = 6\n"));
	refused(body, "INST_SPEC + 6 x RECOVERY_BUBBLE + Front_Bubble <= 6 (8)",
	        "more than 6 slots");
	snprintf(body, sizeof(body), "[cycle a]\ncommit = 6\nbackend:RECOVERY_BUBBLE = 2\n%s",
	         one_class + strlen("[cycle a]\ncommit = 6\n"));
	refused(body, "cycle 'a' breaks RECOVERY_BUBBLE <= 1 (2)",
	        "RECOVERY_BUBBLE over 1 in a cycle (a 1-bit flag on the RTL)");
	snprintf(body, sizeof(body), "[cycle a]\ncommit = 1\nrecovery = 1\n%s",
	         one_class + strlen("[cycle a]\ncommit = 6\n"));
	refused(body, "recovery = 1 is a cycle that decodes nothing",
	        "a recovery cycle that decodes");
	snprintf(body, sizeof(body), "[cycle a]\ncommit = 2\nloads = 3\n%s",
	         one_class + strlen("[cycle a]\ncommit = 6\n"));
	refused(
	    body,
	    "rob_commitInstrLoad + rob_commitInstrStore + rob_commitInstrBranch <= rob_commitInstr",
	    "more loads than instructions");
	refused("[cycle a]\ncommit = 6\n[class k]\nruns = a:10..20\nshare = 0.9\n",
	        "t.profile:5: class shares sum to 0.9, not 1", "class shares that do not sum to 1");
	refused("[cycle a]\ncommit = 6\n[class k]\nruns = a:10..20\nshare = -0.5\n",
	        "share -0.5 is negative", "a negative share");
	refused("[cycle a]\ncommit = 6\n[class k]\nruns = a:20..10\nshare = 1\n",
	        "t.profile:6: bad run length '20..10'", "an empty length range");
	refused("[cycle a]\ncommit = 6\n[class k]\nruns = b:10\nshare = 1\n",
	        "t.profile:6: class 'k': unknown cycle 'b'", "an unknown cycle in runs");
	refused("[cycle a]\ncommit = 6\n[cycle b]\n[class k]\nruns = a:10\nshare = 1\n",
	        "t.profile:5: cycle 'b' is not used by any class", "an unused cycle");
	refused("[cycle a]\ncommit = 6\n[cycle a]\n", "t.profile:5: cycle 'a' defined twice",
	        "a cycle defined twice");
	refused("[cycle a]\ncommit = 6\n[class k]\nruns = a:10\n[phase p]\nmix = k:1\n",
	        "t.profile:7: phase 'p' has no 'cycles'", "a phase without cycles");
	refused(
	    "[cycle a]\ncommit = 6\n[class k]\nruns = a:10\n[phase p]\ncycles = 100\nmix = k:0.5\n",
	    "t.profile:9: phase 'p': class shares sum to 0.5, not 1",
	    "a phase mix that does not sum to 1");
	refused("[cycle a]\ncommit = 6\n[class k]\nruns = a:10\nshare = 1\n[phase p]\ncycles = "
	        "100\nmix = k:1\n",
	        "with [phase] sections the shares are the phases' 'mix'",
	        "a class share with phases");
	char text[1024];
	snprintf(text, sizeof(text), "name = t\ndescription = d\nmodes = HU:0.5 HS:0.4\n%s",
	         one_class);
	p = emu_profile_parse("m.profile", text, err, sizeof(err));
	tap_is_str(p ? "(accepted)" : err, "m.profile:3: mode shares sum to 0.9, not 1",
	           "mode shares that do not sum to 1");
	p = emu_profile_parse("e.profile", "description = d\n[cycle a]\n", err, sizeof(err));
	tap_is_str(p ? "(accepted)" : err, "e.profile: no 'name'", "a profile without a name");

	/* a file: FILE:LINE comes from the path */
	char path[] = "/tmp/hpmstat-workload-XXXXXX";
	int fd = mkstemp(path);
	bool wrote = false;
	if (fd >= 0) {
		FILE *f = fdopen(fd, "w");
		if (f) {
			fprintf(f,
			        "%s[cycle a]\ncommit = 6\nfrontend:ifu_miss = 2\n[class k]\nruns = "
			        "a\nshare = 1\n",
			        good_head);
			wrote = fclose(f) == 0;
		}
	}
	if (wrote) {
		char want[600];
		snprintf(want, sizeof(want), "%s:3: cycle 'a' breaks ifu_miss <= ifu_req (2 > 1)",
		         path);
		p = emu_profile_find(path, err, sizeof(err));
		tap_is_str(p ? "(accepted)" : err, want,
		           "a profile file is refused with FILE:LINE");
	} else {
		tap_skip("cannot write a temporary file");
	}
	unlink(path);
}

/* A profile of one's own: explicit values, produced events, phases. */
static void test_custom(void)
{
	static const char text[] =
	    "# a custom profile\n"
	    "name = mine\n"
	    "description = two cycles and two phases\n"
	    "modes = U:0.5 VS:0.5\n"
	    "mode-switch = 100\n"
	    "[cycle fast]\n"
	    "commit = 6\n"
	    "cache:Slice0_l2_cache_inv = 3   # not produced by the model: produced here\n"
	    "[cycle slow]\n"
	    "stall = dram\n"
	    "[class fast]\n"
	    "runs = fast:10\n"
	    "[class slow]\n"
	    "runs = slow:30\n"
	    "[phase a]\n"
	    "cycles = 1000\n"
	    "mix = fast:0.75 slow:0.25\n"
	    "[phase b]\n"
	    "cycles = 3000\n"
	    "mix = slow:1\n";
	char err[512] = "";
	const struct emu_profile *p = emu_profile_parse("mine.profile", text, err, sizeof(err));
	if (!tap_ok(p != NULL, "a custom profile with phases loads")) {
		tap_diag("%s", err);
		return;
	}
	unsigned inv = idx(CA, "Slice0_l2_cache_inv"), tage = idx(FE, "tage_tht_hit");
	tap_ok(emu_profile_produces(p, CA, inv) && !emu_profile_produces(p, FE, tage) &&
	           emu_profile_produces(p, BE, I.commit) && !emu_profile_produces(p, BE, 0) &&
	           !emu_profile_produces(p, 7, 1) && !emu_profile_produces(p, BE, 999),
	       "produces(): explicit values yes, unmodelled events, noEvent and bad indices no");
	tap_ok(emu_profile_nr_phases(p) == 2 && emu_profile_phase_cycles(p, 1) == 3000 &&
	           strcmp(emu_profile_phase_name(p, 0), "a") == 0,
	       "phases are listed in file order");
	struct emu_topdown a, b, all;
	emu_profile_phase_declared(p, 0, &a);
	emu_profile_phase_declared(p, 1, &b);
	emu_profile_declared(p, &all);
	tap_ok(fabs(a.retiring - 0.75) < 1e-12 && fabs(a.dram - 0.25) < 1e-12 && b.dram == 1 &&
	           fabs(all.dram - (0.25 * 1000 + 3000) / 4000) < 1e-12 &&
	           isnan(all.branch_mispredict),
	       "declared per phase and overall (cycle-weighted); no flushes gives NAN mispredicts");
	tap_ok(fabs(emu_profile_mean(p, CA, inv) - 3 * 0.75 * 1000 / 4000) < 1e-12,
	       "emu_profile_mean of an explicit event");
	/* exact phase lengths and mode stretches of exactly 100 cycles */
	struct emu_workload *w = emu_workload_new(p, 1);
	uint64_t cyc = 0, phase_cycles[2] = {0, 0};
	bool modes_ok = true, runs_ok = true;
	while (cyc < 400000) {
		unsigned ph = emu_workload_phase(w);
		struct emu_run r;
		emu_workload_next(w, UINT64_MAX, &r);
		/* runs never cross a mode change (every 100 cycles) */
		modes_ok = modes_ok && (r.mode == EMU_MODE_HU || r.mode == EMU_MODE_VS) &&
		           cyc / 100 == (cyc + r.cycles - 1) / 100;
		runs_ok = runs_ok && (ph == 1 ? r.key == 2 : 1) && r.cycles <= 30;
		phase_cycles[ph] += r.cycles;
		cyc += r.cycles;
	}
	emu_workload_free(w);
	tap_ok(modes_ok, "runs are split at every mode change, modes as the profile says");
	tap_ok(runs_ok && phase_cycles[0] == 100000 && phase_cycles[1] == 300000,
	       "phases last exactly their cycles (%" PRIu64 ", %" PRIu64 ")", phase_cycles[0],
	       phase_cycles[1]);
	emu_profile_free(p);
}

/* Not a timed test: how fast the stream alone is, for the record. */
static void report_speed(void)
{
	for (unsigned i = 0; i < emu_profile_count(); i++) {
		const struct emu_profile *p = emu_profile_at(i);
		struct emu_workload *w = emu_workload_new(p, 7);
		struct timespec t0, t1;
		uint64_t cycles = 0, runs = 0;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		while (cycles < 200000000) {
			struct emu_run r;
			emu_workload_next(w, UINT64_MAX, &r);
			cycles += r.cycles;
			runs++;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		emu_workload_free(w);
		double s =
		    (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
		tap_diag("%-18s stream alone: %.1f M runs/s, %.2f G cycles/s, %.1f cycles/run "
		         "(expected %.1f)",
		         emu_profile_name(p), (double)runs / s / 1e6, (double)cycles / s / 1e9,
		         (double)cycles / (double)runs, emu_profile_mean_run_cycles(p));
	}
}

int main(void)
{
	lookup();
	test_registry();
	test_files();
	test_declared_shape();
	test_produced();
	for (unsigned i = 0; i < emu_profile_count(); i++)
		test_long_run(emu_profile_at(i));
	test_determinism();
	test_bad_input();
	test_custom();
	if (!getenv("HPM_NO_SPEED"))
		report_speed();
	return tap_done();
}
