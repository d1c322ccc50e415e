/* test-metrics.c: the built-in metric table: every metric parses and names
 * only known things; the Topdown tree; -M and --topdown selections; the
 * Topdown formulas on hand-picked counts; event lists, mergeable sums and
 * merged evaluation; substitution; thresholds, the out-of-range flag and the
 * bottleneck marker on hand-made values.
 *
 * Truth: SPEC §3 (formulas, IssueBW = 6, counter budget) and the marker rule
 * in metric.h. Expected values are worked out by hand from the formulas:
 * counts set A are chosen so every value is a short binary fraction, exact
 * in a double, so identities must hold exactly; set B is arbitrary, with
 * values worked out on a calculator to 16 digits.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmh/kmh.h"
#include "kmh/model.h"
#include "metric/metric.h"
#include "tap.h"

#define NA ((double)NAN)

/* Kunminghu's table, as its model carries it */
static const struct metric_table *T;

struct count {
	const char *name;
	double val;
};

/* Set A: C = 1024 cycles, 6C = 6144 slots. */
static const struct count set_a[] = {
    {"cycles", 1024},
    {"rob_commitInstr", 1536}, /* Retiring 1536/6144 = 0.25 */
    {"Front_Bubble", 768},     /* FE 768/6144 = 0.125 */
    {"INST_SPEC", 1800},       /* BS (1800 + 120 - 1536)/6144 = 384/6144 = 0.0625 */
    {"RECOVERY_BUBBLE", 120},
    {"Fetch_Latency_Bound", 64}, /* FL 64/1024 = 0.0625, FB 0.125 - 0.0625 = 0.0625 */
    {"BR_MIS_PRED", 3},          /* BM 0.0625 * 3/4 = 0.046875, MC 0.015625 */
    {"TOTAL_FLUSH", 4},
    {"EXEC_STALL_CYCLE", 512},  /* CB (512 - 256 - 64)/1024 = 0.1875 */
    {"MEMSTALL_ANY_LOAD", 256}, /* MB (256 + 64)/1024 = 0.3125 */
    {"MEMSTALL_STORE", 64},     /* Store 64/1024 = 0.0625 */
    {"MEMSTALL_L1MISS", 128},   /* L1 (256 - 128)/1024 = 0.125 */
    {"MEMSTALL_L2MISS", 64},    /* L2 (128 - 64)/1024 = 0.0625 */
    {"MEMSTALL_L3MISS", 32},    /* L3 (64 - 32)/1024 = 0.03125, DRAM 32/1024 = 0.03125 */
    {"BpRight", 90},            /* misprediction ratio 10/100 = 0.1 */
    {"BpWrong", 10},
    {"Slice0_l2_cache_hit", 1}, /* L2 hit ratio (1+2+3+4)/40 = 0.25 */
    {"Slice1_l2_cache_hit", 2},
    {"Slice2_l2_cache_hit", 3},
    {"Slice3_l2_cache_hit", 4},
    {"Slice0_l2_cache_access", 10},
    {"Slice1_l2_cache_access", 10},
    {"Slice2_l2_cache_access", 10},
    {"Slice3_l2_cache_access", 10},
    {NULL, 0},
};

/* BL = BE = 1 - (0.125 + 0.0625 + 0.25) = 0.5625 */
static const struct count want_a[] = {
    {"tma_frontend_bound", 0.125},
    {"tma_fetch_latency", 0.0625},
    {"tma_fetch_bandwidth", 0.0625},
    {"tma_bad_speculation", 0.0625},
    {"tma_branch_mispredicts", 0.046875},
    {"tma_machine_clears", 0.015625},
    {"tma_backend_bound", 0.5625},
    {"tma_core_bound", 0.1875},
    {"tma_memory_bound", 0.3125},
    {"tma_l1_bound", 0.125},
    {"tma_l2_bound", 0.0625},
    {"tma_l3_bound", 0.03125},
    {"tma_dram_bound", 0.03125},
    {"tma_store_bound", 0.0625},
    {"tma_retiring", 0.25},
    {NULL, 0},
};

/* Set B: arbitrary counts, C = 1000003. */
static const struct count set_b[] = {
    {"cycles", 1000003},           {"rob_commitInstr", 1234567}, {"Front_Bubble", 987654},
    {"INST_SPEC", 2000000},        {"RECOVERY_BUBBLE", 54321},   {"Fetch_Latency_Bound", 100000},
    {"BR_MIS_PRED", 777},          {"TOTAL_FLUSH", 1000},        {"EXEC_STALL_CYCLE", 400000},
    {"MEMSTALL_ANY_LOAD", 250000}, {"MEMSTALL_STORE", 30000},    {"MEMSTALL_L1MISS", 150000},
    {"MEMSTALL_L2MISS", 70000},    {"MEMSTALL_L3MISS", 20000},   {NULL, 0},
};

/* e.g. Retiring 1234567 / 6000018, BS (2000000 - 1234567 + 54321) / 6000018 */
static const struct count want_b[] = {
    {"tma_retiring", 0.2057605493850185},
    {"tma_frontend_bound", 0.16460850617448147},
    {"tma_bad_speculation", 0.1366252567908963},
    {"tma_backend_bound", 0.49300568764960373},
    {"tma_fetch_latency", 0.0999997000009},
    {"tma_fetch_bandwidth", 0.06460880617358147},
    {"tma_branch_mispredicts", 0.10615782452652643},
    {"tma_machine_clears", 0.030467432264369862},
    {"tma_core_bound", 0.11999964000108},
    {"tma_memory_bound", 0.27999916000252},
    {"tma_l1_bound", 0.0999997000009},
    {"tma_l2_bound", 0.07999976000072},
    {"tma_l3_bound", 0.04999985000045},
    {"tma_dram_bound", 0.01999994000018},
    {"tma_store_bound", 0.02999991000027},
    {NULL, 0},
};

struct counts {
	const struct count *c;
	const char *drop;          /* answer METRIC_ENAME for this one */
	const struct count *extra; /* checked first */
	unsigned calls;
	char last_merged[64]; /* the last "A+B" asked for */
};

static int lookup(void *ctx, const char *name, double *val)
{
	struct counts *k = ctx;
	k->calls++;
	if (strchr(name, '+'))
		snprintf(k->last_merged, sizeof(k->last_merged), "%s", name);
	if (k->drop && strcmp(k->drop, name) == 0)
		return METRIC_ENAME;
	for (const struct count *c = k->extra; c && c->name; c++)
		if (strcmp(c->name, name) == 0) {
			*val = c->val;
			return 0;
		}
	for (const struct count *c = k->c; c->name; c++)
		if (strcmp(c->name, name) == 0) {
			*val = c->val;
			return 0;
		}
	return METRIC_ENAME;
}

static const struct metric *M(const char *name)
{
	const struct metric *m = metric_by_name(T, name);
	if (!m) {
		tap_diag("no metric %s", name);
		abort();
	}
	return m;
}

static double eval(const char *name, const struct metric_env *env)
{
	double v = -1;
	struct hpm_diag err;
	if (metric_eval(T, M(name), env, &v, &err)) {
		tap_diag("%s: %s", name, err.msg);
		return -999;
	}
	return v;
}

static bool is_known(const char *n)
{
	return metric_by_name(T, n) || !strcmp(n, "cycles") || !strcmp(n, "instructions") ||
	       kmh_event_by_name(&kmh_table_v2, KMH_BANK_NONE, n) ||
	       kmh_alias_by_name(&kmh_table_v2, KMH_BANK_NONE, n);
}

static void test_table(void)
{
	tap_ok(T->nr >= 15, "the table has the 15 Topdown metrics and more (%u)", T->nr);
	for (unsigned i = 0; i < T->nr; i++) {
		const struct metric *m = &T->metrics[i];
		const struct mexpr *e = metric_expr(T, m);
		bool good = e != NULL;
		for (unsigned k = 0; e && k < mexpr_nr_names(e); k++)
			if (!is_known(mexpr_name(e, k))) {
				tap_diag("%s: unknown name %s", metric_str(m, m->name),
				         mexpr_name(e, k));
				good = false;
			}
		if (m->threshold) {
			const struct mexpr *t = metric_threshold_expr(T, m);
			good = good && t;
			for (unsigned k = 0; t && k < mexpr_nr_names(t); k++)
				good = good && is_known(mexpr_name(t, k));
		}
		good = good && metric_str(m, m->brief)[0] && metric_str(m, m->description)[0] &&
		       m->unit;
		tap_ok(good, "%s parses and names only metrics, events, cycles, instructions",
		       metric_str(m, m->name));
	}
}

static void test_tree(void)
{
	static const struct {
		const char *name;
		unsigned level;
		const char *parent;
		enum metric_share share;
	} tree[] = {
	    {"tma_frontend_bound", 1, NULL, METRIC_SHARE_SLOTS},
	    {"tma_bad_speculation", 1, NULL, METRIC_SHARE_SLOTS},
	    {"tma_backend_bound", 1, NULL, METRIC_SHARE_SLOTS},
	    {"tma_retiring", 1, NULL, METRIC_SHARE_SLOTS},
	    {"tma_fetch_latency", 2, "tma_frontend_bound", METRIC_SHARE_CYCLES},
	    {"tma_fetch_bandwidth", 2, "tma_frontend_bound", METRIC_SHARE_SLOTS},
	    {"tma_branch_mispredicts", 2, "tma_bad_speculation", METRIC_SHARE_SLOTS},
	    {"tma_machine_clears", 2, "tma_bad_speculation", METRIC_SHARE_SLOTS},
	    {"tma_core_bound", 2, "tma_backend_bound", METRIC_SHARE_CYCLES},
	    {"tma_memory_bound", 2, "tma_backend_bound", METRIC_SHARE_CYCLES},
	    {"tma_l1_bound", 3, "tma_memory_bound", METRIC_SHARE_CYCLES},
	    {"tma_l2_bound", 3, "tma_memory_bound", METRIC_SHARE_CYCLES},
	    {"tma_l3_bound", 3, "tma_memory_bound", METRIC_SHARE_CYCLES},
	    {"tma_dram_bound", 3, "tma_memory_bound", METRIC_SHARE_CYCLES},
	    {"tma_store_bound", 3, "tma_memory_bound", METRIC_SHARE_CYCLES},
	};
	for (size_t i = 0; i < sizeof(tree) / sizeof(tree[0]); i++) {
		const struct metric *m = metric_by_name(T, tree[i].name);
		const struct metric *p = m ? metric_parent(T, m) : NULL;
		bool good =
		    m && m->level == tree[i].level && m->share == tree[i].share &&
		    (tree[i].parent ? p && !strcmp(metric_str(p, p->name), tree[i].parent) : !p) &&
		    m->threshold && !strcmp(metric_str(m, m->scale_unit), "100%") &&
		    m->scale == 100 && !strcmp(metric_str(m, m->unit), "%");
		if (m && p) {
			bool listed = false;
			for (unsigned k = 0; k < p->nr_children; k++)
				listed |= metric_child(T, p, k) == m;
			good = good && listed;
		}
		tap_ok(good, "tree: %s level %u under %s, share of %s", tree[i].name, tree[i].level,
		       tree[i].parent ? tree[i].parent : "the root",
		       tree[i].share == METRIC_SHARE_SLOTS ? "slots" : "cycles");
	}
	tap_ok(M("tma_frontend_bound")->nr_children == 2 &&
	           M("tma_bad_speculation")->nr_children == 2 &&
	           M("tma_backend_bound")->nr_children == 2 &&
	           M("tma_memory_bound")->nr_children == 5 && M("tma_retiring")->nr_children == 0 &&
	           M("tma_core_bound")->nr_children == 0,
	       "tree: children counts 2, 2, 2, 5 and leaves");
	tap_ok(metric_child(T, M("tma_memory_bound"), 5) == NULL, "tree: no sixth child");
	tap_ok(metric_max_level(T) == 3, "tree: three levels");
	tap_ok(M("ipc")->level == 0 && M("ipc")->parent == -1 &&
	           M("ipc")->share == METRIC_SHARE_NONE,
	       "ipc is outside the tree");
	tap_ok(!strcmp(metric_str(M("tma_l2_bound"), M("tma_l2_bound")->threshold),
	               "tma_l2_bound > 0.05 & (tma_memory_bound > 0.2 & tma_backend_bound > 0.2)"),
	       "thresholds follow Intel's (tma_l2_bound)");
	tap_ok(!strcmp(metric_str(M("tma_bad_speculation"), M("tma_bad_speculation")->expr),
	               "((INST_SPEC + RECOVERY_BUBBLE) - rob_commitInstr) / (6 * cycles)"),
	       "bad speculation keeps INST_SPEC + RECOVERY_BUBBLE visible");
	tap_ok(metric_in_group(M("tma_l1_bound"), "topdownl3") &&
	           metric_in_group(M("tma_l1_bound"), "tma_memory_bound_group") &&
	           !metric_in_group(M("tma_l1_bound"), "TopdownL"),
	       "groups: whole names, case ignored");
	tap_ok(metric_by_name(T, "TMA_RETIRING") == NULL &&
	           metric_by_name_icase(T, "TMA_RETIRING") == M("tma_retiring"),
	       "names: exact in expressions, case ignored for -M");
	tap_ok(metric_index(T, M("tma_retiring")) < T->nr, "metric_index");
}

static bool set_is(const struct metric_set *s, const char *const *names, unsigned n)
{
	if (s->nr != n)
		return false;
	for (unsigned i = 0; i < n; i++)
		if (strcmp(metric_str(s->m[i], s->m[i]->name), names[i]) != 0)
			return false;
	return true;
}

static void test_select(void)
{
	static const char *const l1[] = {"tma_frontend_bound", "tma_bad_speculation",
	                                 "tma_backend_bound", "tma_retiring"};
	static const char *const l3[] = {
	    "tma_frontend_bound",  "tma_fetch_latency",      "tma_fetch_bandwidth",
	    "tma_bad_speculation", "tma_branch_mispredicts", "tma_machine_clears",
	    "tma_backend_bound",   "tma_core_bound",         "tma_memory_bound",
	    "tma_l1_bound",        "tma_l2_bound",           "tma_l3_bound",
	    "tma_dram_bound",      "tma_store_bound",        "tma_retiring"};
	struct metric_set s;
	struct hpm_diag err;

	metric_set_init(&s, T);
	tap_ok(metric_set_add_topdown(&s, 1, &err) == 0 && set_is(&s, l1, 4),
	       "--topdown=1: the four level-1 metrics");
	metric_set_free(&s);
	tap_ok(metric_set_add_topdown(&s, 2, &err) == 0 && s.nr == 10, "--topdown=2: ten metrics");
	metric_set_free(&s);
	tap_ok(metric_set_add_topdown(&s, 3, &err) == 0 && set_is(&s, l3, 15),
	       "--topdown=3: fifteen, each node followed by its children");
	metric_set_free(&s);
	tap_ok(metric_set_add_topdown(&s, 0, &err) == METRIC_ERANGE && s.nr == 0 &&
	           strstr(err.msg, "1 to 3"),
	       "--topdown=0 is out of range: %s", err.msg);
	tap_ok(metric_set_add_topdown(&s, 4, &err) == METRIC_ERANGE, "--topdown=4 is out of range");

	tap_ok(metric_set_add(&s, "TopdownL1", &err) == 0 && set_is(&s, l1, 4),
	       "-M TopdownL1: the group");
	tap_ok(metric_set_add(&s, "tma_retiring,TMA_FRONTEND_BOUND", &err) == 0 && s.nr == 4,
	       "-M: no duplicates");
	metric_set_free(&s);
	tap_ok(metric_set_add(&s, "topdownl2", &err) == 0 && s.nr == 6 &&
	           !strcmp(metric_str(s.m[0], s.m[0]->name), "tma_fetch_latency"),
	       "-M topdownl2: case ignored, table order");
	metric_set_free(&s);
	tap_ok(metric_set_add(&s, "IPC,tma_memory_bound_group", &err) == 0 && s.nr == 6 &&
	           !strcmp(metric_str(s.m[0], s.m[0]->name), "ipc") &&
	           !strcmp(metric_str(s.m[1], s.m[1]->name), "tma_l1_bound"),
	       "-M: a metric and a group");
	metric_set_free(&s);
	tap_ok(metric_set_add(&s, "tma_frontend", &err) == METRIC_EUNKNOWN && s.nr == 0 &&
	           strstr(err.msg, "'tma_frontend'") && strstr(err.msg, "tma_frontend_bound"),
	       "-M unknown: suggests: %s", err.msg);
	tap_ok(metric_set_add(&s, "TopdwnL1", &err) == METRIC_EUNKNOWN &&
	           strstr(err.msg, "did you mean 'TopdownL1'"),
	       "-M unknown group: suggests: %s", err.msg);
	tap_ok(metric_set_add(&s, "ipc,nosuch", &err) == METRIC_EUNKNOWN && s.nr == 0,
	       "-M: one unknown item adds nothing");
	tap_ok(metric_set_add(&s, "ipc,", &err) == METRIC_EUNKNOWN && s.nr == 0,
	       "-M: an empty item is refused");
	tap_ok(metric_set_add(&s, "", &err) == METRIC_EUNKNOWN, "-M '' is refused");
	metric_set_free(&s);
}

static bool close_to(double got, double want)
{
	return fabs(got - want) <= 1e-12 * fabs(want);
}

static void test_formulas(void)
{
	struct counts ka = {.c = set_a}, kb = {.c = set_b};
	struct metric_env ea = {.lookup = lookup, .ctx = &ka};
	struct metric_env eb = {.lookup = lookup, .ctx = &kb};

	for (const struct count *w = want_a; w->name; w++) {
		double v = eval(w->name, &ea);
		if (!tap_ok(v == w->val, "set A: %s = %g exactly", w->name, w->val))
			tap_diag("got %.17g", v);
	}
	for (const struct count *w = want_b; w->name; w++) {
		double v = eval(w->name, &eb);
		if (!tap_ok(close_to(v, w->val), "set B: %s = %.16g", w->name, w->val))
			tap_diag("got %.17g", v);
	}

	/* identities, exact on set A */
	double fe = eval("tma_frontend_bound", &ea), bs = eval("tma_bad_speculation", &ea);
	double be = eval("tma_backend_bound", &ea), ret = eval("tma_retiring", &ea);
	tap_ok(fe + bs + be + ret == 1.0, "set A: level 1 sums to 1 exactly");
	tap_ok(eval("tma_fetch_bandwidth", &ea) + eval("tma_fetch_latency", &ea) == fe,
	       "set A: Fetch Bandwidth + Fetch Latency = Frontend Bound");
	tap_ok(eval("tma_branch_mispredicts", &ea) + eval("tma_machine_clears", &ea) == bs,
	       "set A: Branch Mispredicts + Machine Clears = Bad Speculation");
	tap_ok(eval("tma_l1_bound", &ea) + eval("tma_l2_bound", &ea) + eval("tma_l3_bound", &ea) +
	               eval("tma_dram_bound", &ea) ==
	           256.0 / 1024,
	       "set A: L1 + L2 + L3 + DRAM = MEMSTALL_ANY_LOAD / cycles");
	tap_ok(eval("tma_core_bound", &ea) + eval("tma_memory_bound", &ea) == 512.0 / 1024,
	       "set A: Core + Memory Bound = EXEC_STALL_CYCLE / cycles");
	/* the same identities on set B, to rounding */
	fe = eval("tma_frontend_bound", &eb);
	bs = eval("tma_bad_speculation", &eb);
	be = eval("tma_backend_bound", &eb);
	ret = eval("tma_retiring", &eb);
	tap_ok(fabs(fe + bs + be + ret - 1.0) < 1e-15, "set B: level 1 sums to 1");
	tap_ok(fabs(eval("tma_fetch_bandwidth", &eb) + eval("tma_fetch_latency", &eb) - fe) < 1e-15,
	       "set B: Fetch Bandwidth + Fetch Latency = Frontend Bound");
	tap_ok(fabs(eval("tma_branch_mispredicts", &eb) + eval("tma_machine_clears", &eb) - bs) <
	           1e-15,
	       "set B: Branch Mispredicts + Machine Clears = Bad Speculation");
	tap_ok(fabs(eval("tma_l1_bound", &eb) + eval("tma_l2_bound", &eb) +
	            eval("tma_l3_bound", &eb) + eval("tma_dram_bound", &eb) - 250000.0 / 1000003) <
	           1e-15,
	       "set B: L1 + L2 + L3 + DRAM = MEMSTALL_ANY_LOAD / cycles");

	/* other metrics */
	tap_ok(eval("ipc", &ea) == 1.5, "ipc = 1536 / 1024 = 1.5");
	tap_ok(eval("branch_misprediction_ratio", &ea) == 0.1, "branch misprediction 10 / 100");
	tap_ok(eval("l2_hit_ratio", &ea) == 0.25, "L2 hit ratio 10 / 40");
	tap_ok(eval("l2_slice3_hit_ratio", &ea) == 0.4, "L2 slice 3 hit ratio 4 / 10");

	/* no cycles: every Topdown value is NaN, never a number */
	static const struct count zero[] = {{"cycles", 0}, {NULL, 0}};
	struct counts kz = {.c = set_a, .extra = zero};
	struct metric_env ez = {.lookup = lookup, .ctx = &kz};
	bool all_nan = true;
	for (const struct count *w = want_a; w->name; w++)
		if (!isnan(eval(w->name, &ez))) {
			tap_diag("%s is a number", w->name);
			all_nan = false;
		}
	tap_ok(all_nan, "zero cycles: all 15 Topdown metrics are NaN");
	tap_ok(isnan(eval("ipc", &ez)), "zero cycles: ipc is NaN");
	/* no flushes: Branch Mispredicts and Machine Clears are NaN, BS is not */
	static const struct count noflush[] = {{"TOTAL_FLUSH", 0}, {NULL, 0}};
	struct counts kf = {.c = set_a, .extra = noflush};
	struct metric_env ef = {.lookup = lookup, .ctx = &kf};
	tap_ok(isnan(eval("tma_branch_mispredicts", &ef)) &&
	           isnan(eval("tma_machine_clears", &ef)) &&
	           eval("tma_bad_speculation", &ef) == 0.0625,
	       "zero TOTAL_FLUSH: mispredicts and clears n/a, bad speculation not");

	/* a missing event is an error that names it and the metric */
	struct counts km = {.c = set_a, .drop = "Front_Bubble"};
	struct metric_env em = {.lookup = lookup, .ctx = &km};
	struct hpm_diag err;
	double v;
	tap_ok(metric_eval(T, M("tma_backend_bound"), &em, &v, &err) == METRIC_ENAME && isnan(v) &&
	           strstr(err.msg, "'Front_Bubble'") && strstr(err.msg, "tma_backend_bound"),
	       "missing event: %s", err.msg);
}

static bool bank_count(const struct metric_names *n, int bank, unsigned want)
{
	unsigned c = 0;
	for (unsigned i = 0; i < n->nr; i++) {
		struct kmh_encoding enc;
		struct hpm_diag kerr;
		if (kmh_encode(&kmh_table_v2, n->name[i], &enc, &kerr) == 0 && enc.bank == bank)
			c++;
	}
	if (c != want)
		tap_diag("bank %d: %u counters, want %u", bank, c, want);
	return c == want;
}

static bool not_metric(void *ctx, const char *name)
{
	(void)ctx;
	return metric_by_name(T, name) == NULL;
}

/* What the stat session answers the engine: "A+B" merges when it encodes
 * as one Kunminghu mhpmevent. */
static bool kmh_counts_sum(void *ctx, const char *sum)
{
	(void)ctx;
	struct kmh_encoding enc;
	struct hpm_diag kerr;
	return kmh_encode(&kmh_table_v2, sum, &enc, &kerr) == 0;
}

static void test_merge(void)
{
	struct mexpr_sum sums[4];
	unsigned n =
	    mexpr_sums(metric_expr(T, M("tma_bad_speculation")), not_metric, NULL, sums, 4);
	tap_ok(n == 1 && !strcmp(sums[0].merged, "INST_SPEC+RECOVERY_BUBBLE"),
	       "the merge finder finds INST_SPEC + RECOVERY_BUBBLE in tma_bad_speculation");
	n = mexpr_sums(metric_expr(T, M("tma_backend_bound")), not_metric, NULL, sums, 4);
	tap_ok(n == 0, "metric + metric is no hardware sum");

	tap_ok(metric_sum_mergeable(T, "INST_SPEC", "RECOVERY_BUBBLE", kmh_counts_sum, NULL),
	       "INST_SPEC+RECOVERY_BUBBLE fits one counter");
	tap_ok(metric_sum_mergeable(T, "BpRight", "BpWrong", kmh_counts_sum, NULL),
	       "BpRight+BpWrong fits one counter");
	tap_ok(
	    !metric_sum_mergeable(T, "MEMSTALL_ANY_LOAD", "MEMSTALL_STORE", kmh_counts_sum, NULL),
	    "two banks do not merge");
	tap_ok(!metric_sum_mergeable(T, "cycles", "INST_SPEC", kmh_counts_sum, NULL),
	       "a fixed counter does not merge");
	tap_ok(!metric_sum_mergeable(T, "tma_retiring", "INST_SPEC", kmh_counts_sum, NULL),
	       "a metric does not merge");
	tap_ok(!metric_sum_mergeable(T, "l1D_read_dcache_access", "l1D_read_dcache_miss",
	                             kmh_counts_sum, NULL),
	       "six instances do not fit four slots");

	struct metric_set s;
	struct metric_names ev = {0}, sm = {0};
	struct hpm_diag err;
	metric_set_init(&s, T);
	metric_set_add_topdown(&s, 3, &err);
	metric_set_sums(&s, NULL, 0, 0, kmh_counts_sum, NULL, &sm);
	tap_ok(sm.nr == 1 && !strcmp(sm.name[0], "INST_SPEC+RECOVERY_BUBBLE"),
	       "the full tree has one mergeable sum (%u)", sm.nr);
	metric_names_free(&sm);

	/* SPEC §3's budget: 2 frontend, 1 memblock, 10 backend events, 9 merged */
	metric_set_events(&s, NULL, 0, 0, NULL, NULL, &ev);
	tap_ok(ev.nr == 14 && metric_names_find(&ev, "cycles") >= 0 &&
	           metric_names_find(&ev, "INST_SPEC") >= 0 &&
	           metric_names_find(&ev, "INST_SPEC+RECOVERY_BUBBLE") < 0,
	       "full tree, unmerged: 13 events and cycles (%u)", ev.nr);
	tap_ok(bank_count(&ev, KMH_BANK_FRONTEND, 2) && bank_count(&ev, KMH_BANK_MEMBLOCK, 1) &&
	           bank_count(&ev, KMH_BANK_BACKEND, 10),
	       "full tree, unmerged: 2 frontend, 1 memblock, 10 backend");
	tap_is_str(ev.name[0], "Front_Bubble", "events in order of first appearance");
	metric_names_free(&ev);
	metric_set_events(&s, NULL, 0, METRIC_EV_MERGE, kmh_counts_sum, NULL, &ev);
	tap_ok(ev.nr == 13 && metric_names_find(&ev, "INST_SPEC+RECOVERY_BUBBLE") >= 0 &&
	           metric_names_find(&ev, "INST_SPEC") < 0 &&
	           metric_names_find(&ev, "RECOVERY_BUBBLE") < 0,
	       "full tree, merged: INST_SPEC+RECOVERY_BUBBLE replaces its parts");
	tap_ok(bank_count(&ev, KMH_BANK_BACKEND, 9), "full tree, merged: 9 backend counters");
	metric_names_free(&ev);

	/* merged evaluation: the lookup only knows the sum */
	static const struct count merged[] = {{"INST_SPEC+RECOVERY_BUBBLE", 1920}, {NULL, 0}};
	struct counts k = {.c = set_a, .extra = merged, .drop = "INST_SPEC"};
	struct metric_env env = {.lookup = lookup, .ctx = &k, .merged = true};
	tap_ok(eval("tma_bad_speculation", &env) == 0.0625 &&
	           !strcmp(k.last_merged, "INST_SPEC+RECOVERY_BUBBLE"),
	       "merged lookup: asked for INST_SPEC+RECOVERY_BUBBLE, same value");
	double v;
	env.merged = false;
	tap_ok(metric_eval(T, M("tma_bad_speculation"), &env, &v, &err) == METRIC_ENAME &&
	           strstr(err.msg, "INST_SPEC"),
	       "unmerged evaluation needs the parts");
	/* merged evaluation falls back when the sum was not counted */
	struct counts k2 = {.c = set_a};
	struct metric_env env2 = {.lookup = lookup, .ctx = &k2, .merged = true};
	tap_ok(eval("tma_bad_speculation", &env2) == 0.0625 &&
	           eval("tma_machine_clears", &env2) == 0.015625,
	       "merged evaluation without the sum: same values from the parts");

	/* one merged sum in the cache bank per pair of slices */
	metric_set_free(&s);
	metric_set_add(&s, "l2_hit_ratio", &err);
	metric_set_events(&s, NULL, 0, METRIC_EV_MERGE, kmh_counts_sum, NULL, &ev);
	tap_ok(ev.nr == 4 && bank_count(&ev, KMH_BANK_CACHE, 4),
	       "l2_hit_ratio: four cache counters, not eight (%u)", ev.nr);
	metric_names_free(&ev);
	/* a part that is needed alone keeps the sum unmerged */
	metric_set_add(&s, "l2_slice0_hit_ratio", &err);
	metric_set_events(&s, NULL, 0, METRIC_EV_MERGE, kmh_counts_sum, NULL, &ev);
	tap_ok(metric_names_find(&ev, "Slice0_l2_cache_hit") >= 0 &&
	           metric_names_find(&ev, "Slice0_l2_cache_hit+Slice1_l2_cache_hit") < 0 &&
	           metric_names_find(&ev, "Slice2_l2_cache_hit+Slice3_l2_cache_hit") >= 0,
	       "a sum whose part is needed alone is counted as parts");
	metric_names_free(&ev);
	metric_set_free(&s);
}

static void test_subst(void)
{
	static const struct metric_subst minstret[] = {{"rob_commitInstr", "instructions"}};
	static const struct count instr[] = {{"instructions", 3072}, {NULL, 0}};
	struct counts k = {.c = set_a, .extra = instr, .drop = "rob_commitInstr"};
	struct metric_env env = {.lookup = lookup, .ctx = &k, .subst = minstret, .nr_subst = 1};
	struct metric_set s;
	struct metric_names ev = {0};
	struct hpm_diag err;

	tap_ok(eval("tma_retiring", &env) == 0.5,
	       "substitution: Retiring from instructions 3072 / 6144");
	/* BS = (1800 + 120 - 3072) / 6144 = -0.1875: shown, not clamped */
	tap_ok(eval("tma_bad_speculation", &env) == -0.1875,
	       "substitution reaches referenced metrics");
	metric_set_init(&s, T);
	metric_set_add_topdown(&s, 1, &err);
	metric_set_events(&s, minstret, 1, METRIC_EV_MERGE, kmh_counts_sum, NULL, &ev);
	tap_ok(metric_names_find(&ev, "instructions") >= 0 &&
	           metric_names_find(&ev, "rob_commitInstr") < 0,
	       "substitution in the event list");
	tap_ok(bank_count(&ev, KMH_BANK_BACKEND, 1), "level 1 with minstret: one backend counter");
	metric_names_free(&ev);
	/* substitution inside a merged name */
	static const struct metric_subst rb[] = {{"RECOVERY_BUBBLE", "RB2"}};
	metric_set_sums(&s, rb, 1, 0, kmh_counts_sum, NULL, &ev);
	tap_ok(ev.nr == 0, "a substituted name that is no event does not merge");
	metric_names_free(&ev);
	static const struct count rbv[] = {{"INST_SPEC+RB2", 1920}, {NULL, 0}};
	struct counts k2 = {.c = set_a, .extra = rbv, .drop = "INST_SPEC"};
	struct metric_env env2 = {
	    .lookup = lookup, .ctx = &k2, .subst = rb, .nr_subst = 1, .merged = true};
	tap_ok(eval("tma_bad_speculation", &env2) == 0.0625 &&
	           !strcmp(k2.last_merged, "INST_SPEC+RB2"),
	       "merged name after substitution: INST_SPEC+RB2");
	metric_set_free(&s);
}

static int find(const struct metric_set *s, const char *name)
{
	return metric_set_find(s, M(name));
}

/* Fill a value set by name; everything else 0. */
static void fill(const struct metric_set *s, struct metric_value *v, const struct count *vals)
{
	memset(v, 0, sizeof(*v) * s->nr);
	for (const struct count *c = vals; c->name; c++)
		v[find(s, c->name)].value = c->val;
}

static const char *marked(const struct metric_set *s, const struct metric_value *v, char *buf,
                          size_t len)
{
	buf[0] = '\0';
	for (unsigned i = 0; i < s->nr; i++)
		if (v[i].flags & METRIC_F_BOTTLENECK) {
			size_t n = strlen(buf);
			snprintf(buf + n, len - n, "%s%s%s", n ? " " : "",
			         metric_str(s->m[i], s->m[i]->name) + 4,
			         v[i].flags & METRIC_F_BOTTLENECK_LEAF ? "*" : "");
		}
	return buf;
}

static void test_bottleneck(void)
{
	struct metric_set s;
	struct hpm_diag err;
	struct metric_value v[32];
	char buf[256];
	metric_set_init(&s, T);
	metric_set_add_topdown(&s, 3, &err);

	/* backend, then memory over core, then L3 (0.2) over L2 (0.1) */
	static const struct count c1[] = {
	    {"tma_frontend_bound", 0.1}, {"tma_bad_speculation", 0.05},
	    {"tma_backend_bound", 0.6},  {"tma_retiring", 0.25},
	    {"tma_fetch_latency", 0.05}, {"tma_fetch_bandwidth", 0.05},
	    {"tma_core_bound", 0.15},    {"tma_memory_bound", 0.45},
	    {"tma_l1_bound", 0.05},      {"tma_l2_bound", 0.1},
	    {"tma_l3_bound", 0.2},       {"tma_dram_bound", 0.08},
	    {"tma_store_bound", 0.02},   {NULL, 0}};
	fill(&s, v, c1);
	metric_set_judge(&s, NULL, v);
	tap_is_str(marked(&s, v, buf, sizeof(buf)), "backend_bound memory_bound l3_bound*",
	           "bottleneck: backend > memory > L3");
	tap_ok(v[find(&s, "tma_frontend_bound")].thresh == METRIC_THRESH_NO &&
	           v[find(&s, "tma_core_bound")].thresh == METRIC_THRESH_YES &&
	           v[find(&s, "tma_l2_bound")].thresh == METRIC_THRESH_YES &&
	           v[find(&s, "tma_dram_bound")].thresh == METRIC_THRESH_NO,
	       "thresholds: FE 0.1 no, core 0.15 yes, L2 0.1 yes, DRAM 0.08 no");

	/* the largest sibling does not win when its threshold is false */
	static const struct count c2[] = {{"tma_backend_bound", 0.7},
	                                  {"tma_core_bound", 0.3},
	                                  {"tma_memory_bound", 0.19},
	                                  {NULL, 0}};
	fill(&s, v, c2);
	metric_set_judge(&s, NULL, v);
	tap_is_str(marked(&s, v, buf, sizeof(buf)), "backend_bound core_bound*",
	           "bottleneck: memory 0.19 is under its threshold, core 0.3 wins");
	static const struct count c3[] = {{"tma_backend_bound", 0.7},
	                                  {"tma_memory_bound", 0.5},
	                                  {"tma_l1_bound", 0.09},
	                                  {"tma_l2_bound", 0.06},
	                                  {NULL, 0}};
	fill(&s, v, c3);
	metric_set_judge(&s, NULL, v);
	tap_is_str(marked(&s, v, buf, sizeof(buf)), "backend_bound memory_bound l2_bound*",
	           "bottleneck: L1 0.09 is larger but under 0.1, L2 0.06 is over 0.05");

	/* out of range: shown as is, flagged, and still compared */
	static const struct count c4[] = {{"tma_frontend_bound", 0.2},
	                                  {"tma_bad_speculation", 0.1},
	                                  {"tma_retiring", -0.5},
	                                  {"tma_backend_bound", 1.2},
	                                  {"tma_core_bound", 0.05},
	                                  {"tma_memory_bound", 0.15},
	                                  {NULL, 0}};
	fill(&s, v, c4);
	metric_set_judge(&s, NULL, v);
	int be = find(&s, "tma_backend_bound"), ret = find(&s, "tma_retiring");
	tap_ok(v[be].value == 1.2 && (v[be].flags & METRIC_F_OUT_OF_RANGE) &&
	           v[ret].value == -0.5 && (v[ret].flags & METRIC_F_OUT_OF_RANGE) &&
	           !(v[find(&s, "tma_frontend_bound")].flags & METRIC_F_OUT_OF_RANGE),
	       "out of range: 1.2 and -0.5 flagged, not clamped");
	tap_is_str(marked(&s, v, buf, sizeof(buf)), "backend_bound*",
	           "out of range: 1.2 still the largest; no child over its threshold");

	/* NaN: never a bottleneck, threshold unknown */
	static const struct count c5[] = {{"tma_backend_bound", 0.1}, {NULL, 0}};
	fill(&s, v, c5);
	v[find(&s, "tma_frontend_bound")].value = NA;
	metric_set_judge(&s, NULL, v);
	int fe = find(&s, "tma_frontend_bound");
	tap_ok((v[fe].flags & METRIC_F_NA) && v[fe].thresh == METRIC_THRESH_UNKNOWN &&
	           !(v[fe].flags & METRIC_F_OUT_OF_RANGE),
	       "NaN: n/a, threshold unknown, not out of range");
	tap_is_str(marked(&s, v, buf, sizeof(buf)), "",
	           "NaN and nothing over threshold: no marker");

	/* a tie: the first in the set */
	static const struct count c6[] = {
	    {"tma_frontend_bound", 0.3}, {"tma_backend_bound", 0.3}, {NULL, 0}};
	fill(&s, v, c6);
	metric_set_judge(&s, NULL, v);
	tap_is_str(marked(&s, v, buf, sizeof(buf)), "frontend_bound*", "a tie goes to the first");

	/* an error value: flagged, n/a, and thresholds that need it unknown */
	fill(&s, v, c1);
	v[be].err = METRIC_ENAME;
	metric_set_judge(&s, NULL, v);
	tap_ok((v[be].flags & METRIC_F_ERROR) && isnan(v[be].value) &&
	           v[find(&s, "tma_memory_bound")].thresh == METRIC_THRESH_UNKNOWN,
	       "error: flagged, n/a, children's thresholds unknown");
	tap_is_str(marked(&s, v, buf, sizeof(buf)), "", "error: no marker below level 1 either");

	/* computed from counts: set A */
	struct counts ka = {.c = set_a};
	struct metric_env ea = {.lookup = lookup, .ctx = &ka, .merged = true};
	metric_set_eval(&s, &ea, v);
	tap_ok(v[be].value == 0.5625 && v[be].err == 0 && v[be].flags == METRIC_F_BOTTLENECK,
	       "eval set A: backend 0.5625 on the path");
	tap_is_str(marked(&s, v, buf, sizeof(buf)), "backend_bound memory_bound l1_bound*",
	           "eval set A: backend > memory (0.3125) > L1 (0.125)");
	metric_set_free(&s);

	/* a level-3 metric alone: its threshold needs metrics outside the set */
	metric_set_add(&s, "tma_l1_bound", &err);
	metric_set_eval(&s, &ea, v);
	tap_ok(v[0].value == 0.125 && v[0].thresh == METRIC_THRESH_YES,
	       "-M tma_l1_bound: threshold computed through the events");
	metric_set_judge(&s, NULL, v);
	tap_ok(v[0].thresh == METRIC_THRESH_UNKNOWN && !(v[0].flags & METRIC_F_BOTTLENECK),
	       "-M tma_l1_bound without events: threshold unknown, no marker");
	struct metric_names ev = {0};
	metric_set_events(&s, NULL, 0, 0, NULL, NULL, &ev);
	unsigned plain = ev.nr;
	metric_names_free(&ev);
	metric_set_events(&s, NULL, 0, METRIC_EV_THRESHOLDS, NULL, NULL, &ev);
	tap_ok(plain == 3 && ev.nr == 8,
	       "threshold events: 3 for the value, 8 with thresholds (%u, %u)", plain, ev.nr);
	metric_names_free(&ev);
	metric_set_free(&s);

	/* missing event in an evaluated set */
	metric_set_add_topdown(&s, 1, &err);
	struct counts km = {.c = set_a, .drop = "Front_Bubble"};
	struct metric_env em = {.lookup = lookup, .ctx = &km};
	metric_set_eval(&s, &em, v);
	tap_ok(v[0].err == METRIC_ENAME && !strcmp(v[0].missing, "Front_Bubble") &&
	           (v[0].flags & METRIC_F_ERROR) && v[2].err == METRIC_ENAME &&
	           !strcmp(v[2].missing, "Front_Bubble") && v[1].err == 0 && v[1].value == 0.0625,
	       "missing event: frontend and backend fail naming it, bad speculation stands");
	metric_set_free(&s);

	/* metrics outside the tree are never marked; a node -M gives alone has
	 * no sibling to be the largest of, in a tree (--nodes) it has */
	metric_set_add(&s, "ipc,tma_retiring", &err);
	v[0] = (struct metric_value){.value = 5};
	v[1] = (struct metric_value){.value = 0.9};
	metric_set_judge(&s, NULL, v);
	tap_ok(v[0].thresh == METRIC_THRESH_NONE && !(v[0].flags & METRIC_F_BOTTLENECK) &&
	           !(v[0].flags & METRIC_F_OUT_OF_RANGE) && !(v[1].flags & METRIC_F_BOTTLENECK),
	       "ipc 5: no threshold, no marker, not out of range; -M's tma_retiring alone: none");
	s.tree = true;
	metric_set_judge(&s, NULL, v);
	tap_ok(!(v[0].flags & METRIC_F_BOTTLENECK) && (v[1].flags & METRIC_F_BOTTLENECK),
	       "the same node as a pruned tree (--nodes): marked");
	metric_set_free(&s);
}

static void test_range(void)
{
	const struct metric *be = M("tma_backend_bound");
	tap_ok(metric_out_of_range(be, 1.2) && metric_out_of_range(be, -0.01) &&
	           !metric_out_of_range(be, 1.0) && !metric_out_of_range(be, 0.0) &&
	           !metric_out_of_range(be, -1e-17) && !metric_out_of_range(be, NA),
	       "range: [0, 1] with rounding slack; NaN is n/a, not out of range");
	tap_ok(!metric_out_of_range(M("ipc"), 5.0) && !metric_out_of_range(M("branch_mpki"), 30),
	       "range: only shares are ranged");
	tap_ok(metric_out_of_range(M("l2_hit_ratio"), 1.5), "range: any 100%% metric");
}

/* The table the model carries, its retired-instructions substitution, and
 * the empty table of a model without metrics. */
static void test_tables(void)
{
	tap_ok(T != NULL, "Kunminghu's model carries its metric table");
	tap_ok(T->retired.from && !strcmp(T->retired.from, "rob_commitInstr") &&
	           !strcmp(T->retired.to, "instructions"),
	       "--topdown-retired=minstret reads rob_commitInstr as instructions");
	const struct metric_table *e = &metric_table_empty;
	struct metric_set s;
	struct hpm_diag err;
	metric_set_init(&s, e);
	tap_ok(e->nr == 0 && metric_max_level(e) == 0 && !metric_by_name(e, "ipc") &&
	           !metric_group_exists(e, "TopdownL1"),
	       "the empty table has no metric, group or level");
	tap_ok(metric_set_add(&s, "ipc", &err) == METRIC_EUNKNOWN &&
	           !strcmp(err.msg, "unknown metric or metric group 'ipc'"),
	       "-M on the empty table: unknown, nothing to suggest (%s)", err.msg);
	tap_ok(metric_set_add_topdown(&s, 1, &err) == METRIC_ERANGE && s.nr == 0,
	       "--topdown on the empty table: out of range (%s)", err.msg);
	metric_set_free(&s);
	metric_release(e);
}

/* Set A under the slots variant (metrics.json's MetricVariants): Bad
 * Speculation counts each RECOVERY_BUBBLE cycle as 6 slots:
 * (1800 + 6 * 120 - 1536) / 6144 = 984 / 6144 = 0.16015625; Branch
 * Mispredicts 0.16015625 * 3/4 = 0.1201171875, Machine Clears
 * 0.0400390625; Backend 1 - (0.125 + 0.16015625 + 0.25) = 0.46484375;
 * every other node as in want_a. */
static const struct count want_slots[] = {
    {"tma_bad_speculation", 0.16015625},
    {"tma_branch_mispredicts", 0.1201171875},
    {"tma_machine_clears", 0.0400390625},
    {"tma_backend_bound", 0.46484375},
    {NULL, 0},
};

static void test_variants(void)
{
	const struct metric_table *S = NULL, *D = NULL, *x;
	struct hpm_diag err;
	struct counts ka = {.c = set_a};
	struct metric_env ea = {.lookup = lookup, .ctx = &ka};

	tap_ok(T->nr_variants == 2 && !strcmp(metric_variant_name(T), "document"),
	       "Kunminghu's table is its default variant, 'document', of two");
	tap_ok(metric_variant_find(T, "document", &D, &err) == 0 && D == T,
	       "variant document is the model's own table");
	tap_ok(metric_variant_find(T, "slots", &S, &err) == 0 && S && S != T &&
	           !strcmp(metric_variant_name(S), "slots") && S->nr == T->nr,
	       "variant slots is a table of its own, of the same metrics");
	tap_ok(S && metric_variant_find(S, "document", &x, &err) == 0 && x == T,
	       "from the slots table, document is found again");
	tap_ok(metric_variant_find(T, "slot", &x, &err) == METRIC_EUNKNOWN &&
	           !strcmp(err.msg, "unknown Topdown variant 'slot'; did you mean 'slots'? "
	                            "(known: document, slots)"),
	       "a typo: unknown, the closest and the known names (%s)", err.msg);
	tap_ok(metric_variant_find(T, "xyz", &x, &err) == METRIC_EUNKNOWN &&
	           !strcmp(err.msg, "unknown Topdown variant 'xyz' (known: document, slots)"),
	       "no close name: the known names (%s)", err.msg);
	tap_ok(metric_variant_find(&metric_table_empty, "slots", &x, &err) == METRIC_ERANGE &&
	           metric_variant_name(&metric_table_empty) == NULL,
	       "a table without variants: none to find (%s)", err.msg);
	if (!S)
		return;
	unsigned own = 0, follow = 0;
	for (unsigned i = 0; i < T->nr; i++) {
		const struct metric *m = &T->metrics[i];
		const struct metric *src = metric_variant_source(T, m);
		if (metric_has_variants(T, m))
			own += strcmp(metric_str(m, m->name), "tma_bad_speculation") == 0 ? 1 : 100;
		if (src)
			follow += strcmp(metric_str(src, src->name), "tma_bad_speculation") == 0
			              ? 1
			              : 100;
	}
	tap_ok(own == 1, "only tma_bad_speculation has a formula of its own per variant");
	tap_ok(follow == 3, "backend bound, branch mispredicts and machine clears follow it");
	tap_ok(!strcmp(metric_str(metric_in_variant(T, M("tma_bad_speculation"), 1),
	                          metric_in_variant(T, M("tma_bad_speculation"), 1)->expr),
	               "((INST_SPEC + 6 * RECOVERY_BUBBLE) - rob_commitInstr) / (6 * cycles)"),
	       "slots: Bad Speculation is (INST_SPEC + 6 * RECOVERY_BUBBLE - retired) / slots");
	for (const struct count *w = want_a; w->name; w++) {
		double want = w->val, v = -1;
		for (const struct count *o = want_slots; o->name; o++)
			if (!strcmp(o->name, w->name))
				want = o->val;
		if (metric_eval(S, metric_by_name(S, w->name), &ea, &v, &err))
			tap_diag("%s: %s", w->name, err.msg);
		if (!tap_ok(v == want, "slots, set A: %s = %g exactly", w->name, want))
			tap_diag("got %.17g", v);
	}
}

int main(void)
{
	T = hpm_model_kunminghu.metrics;
	if (!T) {
		tap_ok(0, "Kunminghu's model carries its metric table");
		return tap_done();
	}
	test_tables();
	test_table();
	test_tree();
	test_select();
	test_formulas();
	test_merge();
	test_subst();
	test_bottleneck();
	test_range();
	test_variants();
	metric_release(T);
	return tap_done();
}
