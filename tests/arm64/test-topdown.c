/* test-topdown.c: Arm Topdown level 1 and a few stage-2 metrics of each
 * Neoverse core, on counts worked out by hand.
 *
 * Truth: Arm's level-1 formulas as events/arm64/README.md and the cores'
 * metrics.json write them (SBSA topdown: shares of slots = the core's
 * PMMIR_EL1.SLOTS times CPU_CYCLES; N2 with Arm's frontend correction, N1
 * with the cycle-based form because it has no STALL_SLOT events) and the
 * stage-2 definitions (ratios and per-kilo-instruction rates). The counts
 * are chosen so that every value is a short binary fraction, exact in a
 * double: each expected value below is the arithmetic in its comment,
 * compared exactly (to 1e-12 for decimals such as 2.5 %). The bottleneck
 * marker ("<==") follows metric.h's rule with the MetricThresholds of the
 * tables (frontend > 0.15, bad speculation > 0.15, backend > 0.2,
 * retiring > 0.7).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm64/model.h"
#include "metric/metric.h"
#include "tap.h"

struct count {
	const char *name;
	double val;
};

struct want {
	const char *metric;
	double value; /* the metric's raw value (a share as a fraction) */
};

struct core {
	const struct hpm_pmu_model *model;
	enum metric_share share; /* what its level-1 nodes are a share of */
	const struct count *counts;
	const struct want *want;
	const char *bottleneck; /* the level-1 node marked "<==" */
};

/* ---------------------------------------------------------------- N1
 * No STALL_SLOT events: shares of cycles.
 * CPU_CYCLES C = 1024, STALL_FRONTEND 512, STALL_BACKEND 256,
 * INST_RETIRED 1536, INST_SPEC 2048.
 *   frontend_bound  = STALL_FRONTEND / C              = 512 / 1024 = 0.5
 *   backend_bound   = STALL_BACKEND / C               = 256 / 1024 = 0.25
 *   not stalled     = 1 - (512 + 256) / 1024          = 0.25
 *   retiring        = (1536 / 2048) * 0.25 = 0.75 * 0.25 = 0.1875
 *   bad_speculation = (1 - 0.75) * 0.25               = 0.0625
 *   sum = 0.5 + 0.25 + 0.1875 + 0.0625 = 1
 *   bottleneck: frontend 0.5 > 0.15 and backend 0.25 > 0.2 are over their
 *   thresholds; the larger, frontend, gets "<=="
 * stage 2: BR_RETIRED 480, BR_MIS_PRED_RETIRED 12, L1D_CACHE 800,
 * L1D_CACHE_REFILL 40, LL_CACHE_RD 200, LL_CACHE_MISS_RD 50, LD_SPEC 512,
 * BR_IMMED_SPEC 200, BR_INDIRECT_SPEC 56:
 *   ipc = 1536 / 1024 = 1.5
 *   branch_misprediction_ratio = 12 / 480 = 0.025
 *   branch_mpki = 12 * 1000 / 1536 = 7.8125
 *   l1d_cache_miss_ratio = 40 / 800 = 0.05
 *   ll_cache_read_hit_ratio = (200 - 50) / 200 = 0.75
 *   load_percentage = 512 / 2048 = 0.25
 *   branch_percentage = (200 + 56) / 2048 = 0.125 */
static const struct count n1_counts[] = {
    {"CPU_CYCLES", 1024},        {"STALL_FRONTEND", 512},  {"STALL_BACKEND", 256},
    {"INST_RETIRED", 1536},      {"INST_SPEC", 2048},      {"BR_RETIRED", 480},
    {"BR_MIS_PRED_RETIRED", 12}, {"L1D_CACHE", 800},       {"L1D_CACHE_REFILL", 40},
    {"LL_CACHE_RD", 200},        {"LL_CACHE_MISS_RD", 50}, {"LD_SPEC", 512},
    {"BR_IMMED_SPEC", 200},      {"BR_INDIRECT_SPEC", 56}, {NULL, 0},
};
static const struct want n1_want[] = {
    {"tma_frontend_bound", 0.5},
    {"tma_backend_bound", 0.25},
    {"tma_retiring", 0.1875},
    {"tma_bad_speculation", 0.0625},
    {"ipc", 1.5},
    {"branch_misprediction_ratio", 0.025},
    {"branch_mpki", 7.8125},
    {"l1d_cache_miss_ratio", 0.05},
    {"ll_cache_read_hit_ratio", 0.75},
    {"load_percentage", 0.25},
    {"branch_percentage", 0.125},
    {NULL, 0},
};

/* ---------------------------------------------------------------- N2
 * Slots = 5 (PMMIR_EL1.SLOTS of N2), with Arm's frontend correction: one
 * CPU_CYCLES taken off STALL_SLOT_FRONTEND and STALL_SLOT.
 * C = 1024, 5C = 5120; STALL_SLOT_FRONTEND 2304, STALL_SLOT_BACKEND 2560,
 * STALL_SLOT 4864 (= 2304 + 2560), OP_SPEC 4096, OP_RETIRED 3072.
 *   frontend_bound  = (2304 - 1024) / 5120 = 1280 / 5120 = 0.25
 *                     (uncorrected it would be 2304 / 5120 = 0.45)
 *   backend_bound   = 2560 / 5120 = 0.5
 *   not stalled     = 1 - (4864 - 1024) / 5120 = 1 - 0.75 = 0.25
 *   retiring        = (3072 / 4096) * 0.25 = 0.75 * 0.25 = 0.1875
 *   bad_speculation = (1 - 0.75) * 0.25 = 0.0625
 *   sum = 0.25 + 0.5 + 0.1875 + 0.0625 = 1
 *   bottleneck: backend 0.5 (> 0.2) beats frontend 0.25 (> 0.15)
 * stage 2: INST_RETIRED 2000, INST_SPEC 2048, BR_RETIRED 400,
 * BR_MIS_PRED_RETIRED 10, and the cache and mix counts of N1:
 *   ipc = 2000 / 1024 = 1.953125
 *   branch_misprediction_ratio = 10 / 400 = 0.025
 *   branch_mpki = 10 * 1000 / 2000 = 5
 *   retired_op_ratio = 3072 / 4096 = 0.75
 *   l1d_cache_miss_ratio 0.05, ll_cache_read_hit_ratio 0.75,
 *   load_percentage 0.25, branch_percentage 0.125 as for N1 */
static const struct count n2_counts[] = {
    {"CPU_CYCLES", 1024},
    {"STALL_SLOT_FRONTEND", 2304},
    {"STALL_SLOT_BACKEND", 2560},
    {"STALL_SLOT", 4864},
    {"OP_SPEC", 4096},
    {"OP_RETIRED", 3072},
    {"INST_RETIRED", 2000},
    {"INST_SPEC", 2048},
    {"BR_RETIRED", 400},
    {"BR_MIS_PRED_RETIRED", 10},
    {"L1D_CACHE", 800},
    {"L1D_CACHE_REFILL", 40},
    {"LL_CACHE_RD", 200},
    {"LL_CACHE_MISS_RD", 50},
    {"LD_SPEC", 512},
    {"BR_IMMED_SPEC", 200},
    {"BR_INDIRECT_SPEC", 56},
    {NULL, 0},
};
static const struct want n2_want[] = {
    {"tma_frontend_bound", 0.25},
    {"tma_backend_bound", 0.5},
    {"tma_retiring", 0.1875},
    {"tma_bad_speculation", 0.0625},
    {"ipc", 1.953125},
    {"branch_misprediction_ratio", 0.025},
    {"branch_mpki", 5},
    {"retired_op_ratio", 0.75},
    {"l1d_cache_miss_ratio", 0.05},
    {"ll_cache_read_hit_ratio", 0.75},
    {"load_percentage", 0.25},
    {"branch_percentage", 0.125},
    {NULL, 0},
};

/* ---------------------------------------------------------------- V1
 * Slots = 8, no correction.
 * C = 512, 8C = 4096; STALL_SLOT_FRONTEND 1024, STALL_SLOT_BACKEND 512,
 * STALL_SLOT 1536, OP_SPEC 4096, OP_RETIRED 2048.
 *   frontend_bound  = 1024 / 4096 = 0.25
 *   backend_bound   = 512 / 4096 = 0.125
 *   not stalled     = 1 - 1536 / 4096 = 1 - 0.375 = 0.625
 *   retiring        = (2048 / 4096) * 0.625 = 0.5 * 0.625 = 0.3125
 *   bad_speculation = (1 - 0.5) * 0.625 = 0.3125
 *   sum = 0.25 + 0.125 + 0.3125 + 0.3125 = 1
 *   bottleneck: frontend 0.25 (> 0.15) and bad speculation 0.3125
 *   (> 0.15) are candidates, backend 0.125 is not over 0.2, retiring
 *   0.3125 not over 0.7: bad speculation
 * stage 2: INST_RETIRED 2000: ipc = 2000 / 512 = 3.90625; retired_op_ratio
 * = 2048 / 4096 = 0.5; branch ratios as N2 (10 / 400, 10 * 1000 / 2000). */
static const struct count v1_counts[] = {
    {"CPU_CYCLES", 512},
    {"STALL_SLOT_FRONTEND", 1024},
    {"STALL_SLOT_BACKEND", 512},
    {"STALL_SLOT", 1536},
    {"OP_SPEC", 4096},
    {"OP_RETIRED", 2048},
    {"INST_RETIRED", 2000},
    {"INST_SPEC", 2048},
    {"BR_RETIRED", 400},
    {"BR_MIS_PRED_RETIRED", 10},
    {"L1D_CACHE", 800},
    {"L1D_CACHE_REFILL", 40},
    {"LL_CACHE_RD", 200},
    {"LL_CACHE_MISS_RD", 50},
    {"LD_SPEC", 512},
    {"BR_IMMED_SPEC", 200},
    {"BR_INDIRECT_SPEC", 56},
    {NULL, 0},
};
static const struct want v1_want[] = {
    {"tma_frontend_bound", 0.25},
    {"tma_backend_bound", 0.125},
    {"tma_retiring", 0.3125},
    {"tma_bad_speculation", 0.3125},
    {"ipc", 3.90625},
    {"branch_misprediction_ratio", 0.025},
    {"branch_mpki", 5},
    {"retired_op_ratio", 0.5},
    {"load_percentage", 0.25},
    {NULL, 0},
};

/* ---------------------------------------------------------------- V2
 * Slots = 8, no correction.
 * C = 1024, 8C = 8192; STALL_SLOT_FRONTEND 2048, STALL_SLOT_BACKEND 3072,
 * STALL_SLOT 5120, OP_SPEC 4096, OP_RETIRED 3072.
 *   frontend_bound  = 2048 / 8192 = 0.25
 *   backend_bound   = 3072 / 8192 = 0.375
 *   not stalled     = 1 - 5120 / 8192 = 1 - 0.625 = 0.375
 *   retiring        = (3072 / 4096) * 0.375 = 0.75 * 0.375 = 0.28125
 *   bad_speculation = (1 - 0.75) * 0.375 = 0.09375
 *   sum = 0.25 + 0.375 + 0.28125 + 0.09375 = 1
 *   bottleneck: backend 0.375 (> 0.2) beats frontend 0.25 (> 0.15)
 * stage 2: ipc = 2000 / 1024 = 1.953125; retired_op_ratio = 0.75;
 * ll_cache_read_hit_ratio = (200 - 50) / 200 = 0.75. */
static const struct count v2_counts[] = {
    {"CPU_CYCLES", 1024},
    {"STALL_SLOT_FRONTEND", 2048},
    {"STALL_SLOT_BACKEND", 3072},
    {"STALL_SLOT", 5120},
    {"OP_SPEC", 4096},
    {"OP_RETIRED", 3072},
    {"INST_RETIRED", 2000},
    {"INST_SPEC", 2048},
    {"BR_RETIRED", 400},
    {"BR_MIS_PRED_RETIRED", 10},
    {"L1D_CACHE", 800},
    {"L1D_CACHE_REFILL", 40},
    {"LL_CACHE_RD", 200},
    {"LL_CACHE_MISS_RD", 50},
    {"LD_SPEC", 512},
    {"BR_IMMED_SPEC", 200},
    {"BR_INDIRECT_SPEC", 56},
    {NULL, 0},
};
static const struct want v2_want[] = {
    {"tma_frontend_bound", 0.25},
    {"tma_backend_bound", 0.375},
    {"tma_retiring", 0.28125},
    {"tma_bad_speculation", 0.09375},
    {"ipc", 1.953125},
    {"retired_op_ratio", 0.75},
    {"ll_cache_read_hit_ratio", 0.75},
    {"branch_mpki", 5},
    {NULL, 0},
};

static const struct core cores[] = {
    {&hpm_model_neoverse_n1, METRIC_SHARE_CYCLES, n1_counts, n1_want, "tma_frontend_bound"},
    {&hpm_model_neoverse_n2, METRIC_SHARE_SLOTS, n2_counts, n2_want, "tma_backend_bound"},
    {&hpm_model_neoverse_v1, METRIC_SHARE_SLOTS, v1_counts, v1_want, "tma_bad_speculation"},
    {&hpm_model_neoverse_v2, METRIC_SHARE_SLOTS, v2_counts, v2_want, "tma_backend_bound"},
};

/* ctx: a struct count array behind a struct counts, so no const is cast away */
struct counts {
	const struct count *c;
};

static int lookup(void *ctx, const char *name, double *val)
{
	for (const struct count *c = ((struct counts *)ctx)->c; c->name; c++)
		if (strcmp(c->name, name) == 0) {
			*val = c->val;
			return 0;
		}
	return METRIC_ENAME;
}

static const char *const level1[] = {"tma_frontend_bound", "tma_bad_speculation",
                                     "tma_backend_bound", "tma_retiring"};

static void test_core(const struct core *c)
{
	const struct metric_table *t = c->model->metrics;
	const char *core = c->model->name;
	struct counts kc = {c->counts};
	struct metric_env env = {.lookup = lookup, .ctx = &kc};
	if (!tap_ok(t != NULL, "%s: has a metric table", core))
		return;

	/* every listed value, exactly as worked out above */
	for (const struct want *w = c->want; w->metric; w++) {
		const struct metric *m = metric_by_name(t, w->metric);
		double v = (double)NAN;
		struct metric_error err;
		if (!tap_ok(m != NULL, "%s: has %s", core, w->metric))
			continue;
		int rc = metric_eval(t, m, &env, &v, &err);
		if (!tap_ok(rc == 0 && fabs(v - w->value) <= 1e-12 * fabs(w->value),
		            "%s: %s = %.10g (hand: %.10g)", core, w->metric, v, w->value))
			tap_diag("%s", rc ? err.msg : "");
	}

	/* the level-1 tree: the four nodes, level 1, their share, and --topdown
	 * gives exactly them */
	struct metric_set set;
	struct metric_error err;
	metric_set_init(&set, t);
	tap_ok(metric_max_level(t) == 1, "%s: the Topdown tree has level 1 only", core);
	tap_ok(metric_set_add_topdown(&set, 1, &err) == 0 && set.nr == 4,
	       "%s: --topdown selects the four level-1 nodes", core);
	for (unsigned i = 0; i < 4; i++) {
		const struct metric *m = metric_by_name(t, level1[i]);
		tap_ok(m && m->level == 1 && m->share == c->share && metric_set_find(&set, m) >= 0,
		       "%s: %s is a level-1 share of %s", core, level1[i],
		       c->share == METRIC_SHARE_SLOTS ? "slots" : "cycles");
	}

	/* the shares add up to 1 and the bottleneck is the hand-picked node */
	struct metric_value vals[8];
	metric_set_eval(&set, &env, vals);
	double sum = 0;
	for (unsigned k = 0; k < set.nr; k++) {
		sum += vals[k].value;
		bool marked = (vals[k].flags & METRIC_F_BOTTLENECK) != 0;
		bool want = strcmp(set.m[k]->name, c->bottleneck) == 0;
		tap_ok(marked == want, "%s: %s %s", core, set.m[k]->name,
		       want ? "is the bottleneck (<==)" : "is not marked");
	}
	tap_ok(sum == 1.0, "%s: level 1 sums to exactly 1 (%.17g)", core, sum);
	metric_set_free(&set);
	metric_release(t);
}

/* N2's frontend correction is N2's own: V1 and V2 read STALL_SLOT_FRONTEND
 * as it is. The same counts on N2 and V2 (slot counts aside) show it: with
 * C = 1024 and STALL_SLOT_FRONTEND 2304, N2 gives (2304 - 1024) / 5120 =
 * 0.25 and V2 2304 / 8192 = 0.28125. */
static void test_n2_correction(void)
{
	static const struct count k[] = {
	    {"CPU_CYCLES", 1024}, {"STALL_SLOT_FRONTEND", 2304}, {NULL, 0}};
	struct counts kc = {k};
	struct metric_env env = {.lookup = lookup, .ctx = &kc};
	struct metric_error err;
	double n2 = (double)NAN, v2 = (double)NAN;
	const struct metric_table *tn = hpm_model_neoverse_n2.metrics;
	const struct metric_table *tv = hpm_model_neoverse_v2.metrics;
	metric_eval(tn, metric_by_name(tn, "tma_frontend_bound"), &env, &n2, &err);
	metric_eval(tv, metric_by_name(tv, "tma_frontend_bound"), &env, &v2, &err);
	tap_ok(n2 == 0.25, "N2 frontend_bound takes CPU_CYCLES off: (2304 - 1024) / 5120 = %g", n2);
	tap_ok(v2 == 0.28125, "V2 frontend_bound does not: 2304 / 8192 = %g", v2);
	metric_release(tn);
	metric_release(tv);
}

int main(void)
{
	for (unsigned i = 0; i < sizeof(cores) / sizeof(cores[0]); i++)
		test_core(&cores[i]);
	test_n2_correction();
	return tap_done();
}
