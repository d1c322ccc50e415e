/* test-topdown.c: Arm Topdown level 1, the stage-2 groups under it and a
 * few stage-2 metrics of each Neoverse core, on counts worked out by hand.
 *
 * Truth: Arm's level-1 formulas for each core (Arm's telemetry
 * specifications, as Linux 6.12's tools/perf/pmu-events/arch/arm64/arm/
 * neoverse-n1, -n2-v2 and -v1 metrics.json carry them; events/arm64/README.md): shares of
 * slots = the core's PMMIR_EL1.SLOTS times CPU_CYCLES, with slots moved
 * from the stall categories to bad speculation for each mispredicted
 * branch (BR_MIS_PRED: V1 4 off frontend; N2 and V2 1 off frontend and 3
 * off backend; 4 onto bad speculation), N2 r0p0-r0p2 with CPU_CYCLES taken
 * off STALL_SLOT_FRONTEND and STALL_SLOT (the erratum), N1 with Arm's
 * cycle accounting as its first stage (no STALL_SLOT events). Each
 * expected value below is the arithmetic in its comment, compared to
 * 1e-12 of its size. The bottleneck marker ("<==") follows metric.h's
 * rule with the MetricThresholds of the tables (frontend > 0.15, bad
 * speculation > 0.15, backend > 0.2, retiring > 0.7).
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
	const char *bottleneck;    /* the level-1 node marked "<==" */
	const char *const *level1; /* Arm's first stage, NULL-terminated */
};

/* ---------------------------------------------------------------- N1
 * No STALL_SLOT events: Arm's first stage is cycle accounting,
 * frontend_stalled_cycles and backend_stalled_cycles (shares of cycles);
 * the four-way split below is hpmstat's derivation (hpmstat_*), outside
 * the tree.
 * CPU_CYCLES C = 1024, STALL_FRONTEND 512, STALL_BACKEND 256,
 * INST_RETIRED 1536, INST_SPEC 2048.
 *   frontend_stalled_cycles = STALL_FRONTEND / C = 512 / 1024 = 0.5
 *   backend_stalled_cycles  = STALL_BACKEND / C  = 256 / 1024 = 0.25
 *   hpmstat_frontend_bound  = 0.5, hpmstat_backend_bound = 0.25
 *   not stalled     = 1 - (512 + 256) / 1024          = 0.25
 *   retiring        = (1536 / 2048) * 0.25 = 0.75 * 0.25 = 0.1875
 *   bad_speculation = (1 - 0.75) * 0.25               = 0.0625
 *   sum = 0.5 + 0.25 + 0.1875 + 0.0625 = 1
 *   bottleneck: frontend_stalled_cycles 0.5 > 0.15 and
 *   backend_stalled_cycles 0.25 > 0.2 are over their thresholds; the
 *   larger, frontend_stalled_cycles, gets "<=="
 *   barrier_percentage = (ISB_SPEC 16 + DSB_SPEC 8 + DMB_SPEC 8) / 2048
 *                      = 32 / 2048 = 0.015625
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
    {"CPU_CYCLES", 1024},
    {"STALL_FRONTEND", 512},
    {"STALL_BACKEND", 256},
    {"INST_RETIRED", 1536},
    {"INST_SPEC", 2048},
    {"BR_RETIRED", 480},
    {"BR_MIS_PRED_RETIRED", 12},
    {"L1D_CACHE", 800},
    {"L1D_CACHE_REFILL", 40},
    {"LL_CACHE_RD", 200},
    {"LL_CACHE_MISS_RD", 50},
    {"LD_SPEC", 512},
    {"BR_IMMED_SPEC", 200},
    {"BR_INDIRECT_SPEC", 56},
    {"ISB_SPEC", 16},
    {"DSB_SPEC", 8},
    {"DMB_SPEC", 8},
    {NULL, 0},
};
static const struct want n1_want[] = {
    {"frontend_stalled_cycles", 0.5},
    {"backend_stalled_cycles", 0.25},
    {"hpmstat_frontend_bound", 0.5},
    {"hpmstat_backend_bound", 0.25},
    {"hpmstat_retiring", 0.1875},
    {"hpmstat_bad_speculation", 0.0625},
    {"barrier_percentage", 0.015625},
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
 * Slots = 5 (PMMIR_EL1.SLOTS of N2). r0p3 and later (model neoverse-n2):
 * Arm's plain formulas.
 * C = 1024, 5C = 5120; STALL_SLOT_FRONTEND 2304, STALL_SLOT_BACKEND 2560,
 * STALL_SLOT 4864 (= 2304 + 2560), OP_SPEC 4096, OP_RETIRED 3072,
 * BR_MIS_PRED 32 (BM / C = 0.03125).
 *   frontend_bound  = 2304 / 5120 - 0.03125 = 0.45 - 0.03125 = 0.41875
 *   backend_bound   = 2560 / 5120 - 3 * 0.03125 = 0.5 - 0.09375 = 0.40625
 *   slots used      = 1 - 4864 / 5120 = 0.05
 *   retiring        = (3072 / 4096) * 0.05 = 0.75 * 0.05 = 0.0375
 *   bad_speculation = (1 - 0.75) * 0.05 + 4 * 0.03125 = 0.0125 + 0.125
 *                   = 0.1375
 *   sum = 0.41875 + 0.40625 + 0.0375 + 0.1375 = 1
 *   bottleneck: frontend 0.41875 (> 0.15) beats backend 0.40625 (> 0.2)
 * r0p0-r0p2 (model neoverse-n2-r0p0), the same counts with CPU_CYCLES off
 * STALL_SLOT_FRONTEND and STALL_SLOT (the erratum workaround):
 *   frontend_bound  = (2304 - 1024) / 5120 - 0.03125 = 0.25 - 0.03125
 *                   = 0.21875
 *   backend_bound   = 0.40625 (no correction)
 *   slots used      = 1 - (4864 - 1024) / 5120 = 1 - 0.75 = 0.25
 *   retiring        = 0.75 * 0.25 = 0.1875
 *   bad_speculation = 0.25 * 0.25 + 0.125 = 0.1875
 *   sum = 0.21875 + 0.40625 + 0.1875 + 0.1875 = 1
 *   bottleneck: backend 0.40625 (> 0.2) beats frontend 0.21875 and bad
 *   speculation 0.1875 (> 0.15)
 * FP and SVE (N2 has their events): FP_HP_SPEC 256, FP_SP_SPEC 512,
 * FP_DP_SPEC 128, FP_SCALE_OPS_SPEC 1024, FP_FIXED_OPS_SPEC 512,
 * SVE_PRED_SPEC 400, SVE_PRED_FULL_SPEC 300, SVE_PRED_PARTIAL_SPEC 60,
 * SVE_PRED_EMPTY_SPEC 40:
 *   fp16_percentage = 256 / 2048 = 0.125, fp32 512 / 2048 = 0.25,
 *   fp64 128 / 2048 = 0.0625; fp_ops_per_cycle = (1024 + 512) / 1024 = 1.5,
 *   sve_fp_ops_per_cycle = 1, nonsve_fp_ops_per_cycle = 0.5;
 *   sve_predicate_full_percentage = 300 / 400 = 0.75, partial 0.15,
 *   empty 0.1
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
    {"BR_MIS_PRED", 32},
    {"FP_HP_SPEC", 256},
    {"FP_SP_SPEC", 512},
    {"FP_DP_SPEC", 128},
    {"FP_SCALE_OPS_SPEC", 1024},
    {"FP_FIXED_OPS_SPEC", 512},
    {"SVE_PRED_SPEC", 400},
    {"SVE_PRED_FULL_SPEC", 300},
    {"SVE_PRED_PARTIAL_SPEC", 60},
    {"SVE_PRED_EMPTY_SPEC", 40},
    {NULL, 0},
};
static const struct want n2_want[] = {
    {"frontend_bound", 0.41875},
    {"backend_bound", 0.40625},
    {"retiring", 0.0375},
    {"bad_speculation", 0.1375},
    {"fp16_percentage", 0.125},
    {"fp32_percentage", 0.25},
    {"fp64_percentage", 0.0625},
    {"fp_ops_per_cycle", 1.5},
    {"sve_fp_ops_per_cycle", 1},
    {"nonsve_fp_ops_per_cycle", 0.5},
    {"sve_predicate_full_percentage", 0.75},
    {"sve_predicate_partial_percentage", 0.15},
    {"sve_predicate_empty_percentage", 0.1},
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
static const struct want n2_r0p0_want[] = {
    {"frontend_bound", 0.21875},
    {"backend_bound", 0.40625},
    {"retiring", 0.1875},
    {"bad_speculation", 0.1875},
    {"tma_frontend_bound", 0.21875}, /* the old name, an alias */
    {NULL, 0},
};

/* ---------------------------------------------------------------- V1
 * Slots = 8, no erratum; Arm moves 4 slots per mispredicted branch from
 * frontend to bad speculation.
 * C = 512, 8C = 4096; STALL_SLOT_FRONTEND 1024, STALL_SLOT_BACKEND 512,
 * STALL_SLOT 1536, OP_SPEC 4096, OP_RETIRED 2048, BR_MIS_PRED 16
 * (4 * BM / C = 64 / 512 = 0.125).
 *   frontend_bound  = 1024 / 4096 - 0.125 = 0.25 - 0.125 = 0.125
 *   backend_bound   = 512 / 4096 = 0.125
 *   slots used      = 1 - 1536 / 4096 = 1 - 0.375 = 0.625
 *   retiring        = (2048 / 4096) * 0.625 = 0.5 * 0.625 = 0.3125
 *   bad_speculation = (1 - 0.5) * 0.625 + 0.125 = 0.4375
 *   sum = 0.125 + 0.125 + 0.3125 + 0.4375 = 1
 *   bottleneck: bad speculation 0.4375 (> 0.15) is the one candidate
 *   (frontend 0.125 is not over 0.15, backend 0.125 not over 0.2,
 *   retiring 0.3125 not over 0.7)
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
    {"BR_MIS_PRED", 16},
    {NULL, 0},
};
static const struct want v1_want[] = {
    {"frontend_bound", 0.125}, {"backend_bound", 0.125},
    {"retiring", 0.3125},      {"bad_speculation", 0.4375},
    {"ipc", 3.90625},          {"branch_misprediction_ratio", 0.025},
    {"branch_mpki", 5},        {"retired_op_ratio", 0.5},
    {"load_percentage", 0.25}, {NULL, 0},
};

/* ---------------------------------------------------------------- V2
 * Slots = 8, N2's formulas without the erratum.
 * C = 1024, 8C = 8192; STALL_SLOT_FRONTEND 2048, STALL_SLOT_BACKEND 3072,
 * STALL_SLOT 5120, OP_SPEC 4096, OP_RETIRED 3072, BR_MIS_PRED 32
 * (BM / C = 0.03125).
 *   frontend_bound  = 2048 / 8192 - 0.03125 = 0.25 - 0.03125 = 0.21875
 *   backend_bound   = 3072 / 8192 - 0.09375 = 0.375 - 0.09375 = 0.28125
 *   slots used      = 1 - 5120 / 8192 = 1 - 0.625 = 0.375
 *   retiring        = (3072 / 4096) * 0.375 = 0.75 * 0.375 = 0.28125
 *   bad_speculation = (1 - 0.75) * 0.375 + 0.125 = 0.21875
 *   sum = 0.21875 + 0.28125 + 0.28125 + 0.21875 = 1
 *   bottleneck: backend 0.28125 (> 0.2) beats frontend and bad
 *   speculation 0.21875 (> 0.15); retiring is not over 0.7
 * barrier_percentage = (ISB_SPEC 16 + DSB_SPEC 8 + DMB_SPEC 8) / 2048
 * = 0.015625; fp64_percentage = FP_DP_SPEC 128 / 2048 = 0.0625.
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
    {"BR_MIS_PRED", 32},
    {"ISB_SPEC", 16},
    {"DSB_SPEC", 8},
    {"DMB_SPEC", 8},
    {"FP_DP_SPEC", 128},
    {NULL, 0},
};
static const struct want v2_want[] = {
    {"frontend_bound", 0.21875},
    {"backend_bound", 0.28125},
    {"retiring", 0.28125},
    {"bad_speculation", 0.21875},
    {"barrier_percentage", 0.015625},
    {"fp64_percentage", 0.0625},
    {"ipc", 1.953125},
    {"retired_op_ratio", 0.75},
    {"ll_cache_read_hit_ratio", 0.75},
    {"branch_mpki", 5},
    {NULL, 0},
};

static const char *const level1_slots[] = {"frontend_bound", "bad_speculation", "backend_bound",
                                           "retiring", NULL};
static const char *const level1_n1[] = {"frontend_stalled_cycles", "backend_stalled_cycles", NULL};

static const struct core cores[] = {
    {&hpm_model_neoverse_n1, METRIC_SHARE_CYCLES, n1_counts, n1_want, "frontend_stalled_cycles",
     level1_n1},
    {&hpm_model_neoverse_n2, METRIC_SHARE_SLOTS, n2_counts, n2_want, "frontend_bound",
     level1_slots},
    {&hpm_model_neoverse_n2_r0p0, METRIC_SHARE_SLOTS, n2_counts, n2_r0p0_want, "backend_bound",
     level1_slots},
    {&hpm_model_neoverse_v1, METRIC_SHARE_SLOTS, v1_counts, v1_want, "bad_speculation",
     level1_slots},
    {&hpm_model_neoverse_v2, METRIC_SHARE_SLOTS, v2_counts, v2_want, "backend_bound", level1_slots},
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
		struct hpm_diag err;
		if (!tap_ok(m != NULL, "%s: has %s", core, w->metric))
			continue;
		int rc = metric_eval(t, m, &env, &v, &err);
		if (!tap_ok(rc == 0 && fabs(v - w->value) <= 1e-12 * fabs(w->value),
		            "%s: %s = %.10g (hand: %.10g)", core, w->metric, v, w->value))
			tap_diag("%s", rc ? err.msg : "");
	}

	/* the level-1 tree: Arm's first-stage nodes, level 1, their share,
	 * and --topdown gives exactly them; stage 2 is one level below */
	struct metric_set set;
	struct hpm_diag err;
	unsigned nr1 = 0;
	while (c->level1[nr1])
		nr1++;
	metric_set_init(&set, t);
	tap_ok(metric_max_level(t) == 2, "%s: the tree has level 1 and the stage-2 groups below",
	       core);
	tap_ok(metric_set_add_topdown(&set, 1, &err) == 0 && set.nr == nr1,
	       "%s: --topdown selects the %u level-1 nodes", core, nr1);
	for (unsigned i = 0; i < nr1; i++) {
		const struct metric *m = metric_by_name(t, c->level1[i]);
		tap_ok(m && m->level == 1 && m->share == c->share && metric_set_find(&set, m) >= 0,
		       "%s: %s is a level-1 share of %s", core, c->level1[i],
		       c->share == METRIC_SHARE_SLOTS ? "slots" : "cycles");
	}

	/* the shares of slots add up to 1 (N1's two stall shares do not:
	 * cycle accounting) and the bottleneck is the hand-picked node */
	struct metric_value vals[8];
	metric_set_eval(&set, &env, vals);
	double sum = 0;
	for (unsigned k = 0; k < set.nr; k++) {
		sum += vals[k].value;
		bool marked = (vals[k].flags & METRIC_F_BOTTLENECK) != 0;
		bool want = strcmp(metric_str(set.m[k], set.m[k]->name), c->bottleneck) == 0;
		tap_ok(marked == want, "%s: %s %s", core, metric_str(set.m[k], set.m[k]->name),
		       want ? "is the bottleneck (<==)" : "is not marked");
	}
	if (c->share == METRIC_SHARE_SLOTS)
		tap_ok(fabs(sum - 1.0) <= 1e-12, "%s: level 1 sums to 1 (%.17g)", core, sum);
	metric_set_free(&set);

	/* --topdown=2: each node followed by the metrics of its stage-2
	 * groups (a metric in two groups once, under the first node), which
	 * are not Topdown shares: level 0, never marked */
	metric_set_init(&set, t);
	int rc = metric_set_add_topdown(&set, 2, &err);
	tap_ok(rc == 0 && set.nr > nr1, "%s: --topdown=2 adds the stage-2 metrics (%u in all)",
	       core, set.nr);
	const struct metric *fe = metric_by_name(t, c->level1[0]);
	const struct metric *be = metric_by_name(t, c->level1[nr1 == 2 ? 1 : 2]);
	int fe_at = metric_set_find(&set, fe), be_at = metric_set_find(&set, be);
	int mpki = metric_set_find(&set, metric_by_name(t, "branch_mpki"));
	int l1d = metric_set_find(&set, metric_by_name(t, "l1d_cache_mpki"));
	int load = metric_set_find(&set, metric_by_name(t, "load_percentage"));
	tap_ok(mpki > fe_at && metric_set_under(&set, (unsigned)mpki) == fe_at,
	       "%s: branch_mpki (Branch_Effectiveness) is listed under %s", core,
	       metric_str(fe, fe->name));
	tap_ok(l1d > be_at && metric_set_under(&set, (unsigned)l1d) == be_at &&
	           metric_set_under(&set, (unsigned)load) == be_at,
	       "%s: l1d_cache_mpki and load_percentage (L1D, Operation_Mix) are under %s", core,
	       metric_str(be, be->name));
	tap_ok(metric_set_under(&set, (unsigned)fe_at) == -1, "%s: a node is under no node", core);
	struct metric_value *all = calloc(set.nr, sizeof(*all));
	bool stage2_marked = false;
	metric_set_eval(&set, &env, all);
	for (unsigned k = 0; all && k < set.nr; k++)
		if (set.m[k]->level == 0 && (all[k].flags & METRIC_F_BOTTLENECK))
			stage2_marked = true;
	tap_ok(all && !stage2_marked, "%s: no stage-2 metric is marked as a bottleneck", core);
	free(all);
	metric_set_free(&set);
	metric_release(t);
}

/* The erratum workaround belongs to N2 r0p0-r0p2 alone: r0p3 on and V2
 * read STALL_SLOT_FRONTEND as it is. With C = 1024, STALL_SLOT_FRONTEND
 * 2304 and BR_MIS_PRED 0: N2 r0p0 (2304 - 1024) / 5120 = 0.25, N2 r0p3
 * 2304 / 5120 = 0.45, V2 2304 / 8192 = 0.28125. And the MIDR picks the
 * model: 0x410fd490 (r0p0) and 0x410fd492 (r0p2) the corrected one,
 * 0x410fd493 (r0p3) and 0x411fd490 (r1p0) the plain one. */
static void test_n2_correction(void)
{
	static const struct count k[] = {
	    {"CPU_CYCLES", 1024}, {"STALL_SLOT_FRONTEND", 2304}, {"BR_MIS_PRED", 0}, {NULL, 0}};
	struct counts kc = {k};
	struct metric_env env = {.lookup = lookup, .ctx = &kc};
	struct hpm_diag err;
	double n2 = (double)NAN, n2r0 = (double)NAN, v2 = (double)NAN;
	const struct metric_table *tn = hpm_model_neoverse_n2.metrics;
	const struct metric_table *t0 = hpm_model_neoverse_n2_r0p0.metrics;
	const struct metric_table *tv = hpm_model_neoverse_v2.metrics;
	metric_eval(t0, metric_by_name(t0, "frontend_bound"), &env, &n2r0, &err);
	metric_eval(tn, metric_by_name(tn, "frontend_bound"), &env, &n2, &err);
	metric_eval(tv, metric_by_name(tv, "frontend_bound"), &env, &v2, &err);
	tap_ok(n2r0 == 0.25,
	       "N2 r0p0 frontend_bound takes CPU_CYCLES off: (2304 - 1024) / 5120 = %g", n2r0);
	tap_ok(fabs(n2 - 0.45) <= 1e-12, "N2 r0p3 frontend_bound does not: 2304 / 5120 = %g", n2);
	tap_ok(v2 == 0.28125, "V2 frontend_bound does not: 2304 / 8192 = %g", v2);
	static const struct {
		const char *midr;
		const struct hpm_pmu_model *model;
	} midrs[] = {
	    {"0x00000000410fd490", &hpm_model_neoverse_n2_r0p0},
	    {"0x00000000410fd492", &hpm_model_neoverse_n2_r0p0},
	    {"0x00000000410fd493", &hpm_model_neoverse_n2},
	    {"0x00000000411fd490", &hpm_model_neoverse_n2},
	};
	for (unsigned i = 0; i < sizeof(midrs) / sizeof(midrs[0]); i++) {
		const struct hpm_pmu_model *m = midrs[i].model,
		                           *o = m == &hpm_model_neoverse_n2
		                                    ? &hpm_model_neoverse_n2_r0p0
		                                    : &hpm_model_neoverse_n2;
		tap_ok(m->match_cpuid(m, midrs[i].midr) && !o->match_cpuid(o, midrs[i].midr),
		       "MIDR %s is %s only", midrs[i].midr, m->name);
	}
	metric_release(tn);
	metric_release(t0);
	metric_release(tv);
}

int main(void)
{
	for (unsigned i = 0; i < sizeof(cores) / sizeof(cores[0]); i++)
		test_core(&cores[i]);
	test_n2_correction();
	return tap_done();
}
